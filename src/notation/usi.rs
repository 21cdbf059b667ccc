//! USI text of squares and moves (`7g`, `7g7f`, `8h2b+`, `P*5e`), which
//! SFEN shares.

use crate::rules::types::{Color, Move, PieceKind, Square};
use std::fmt;

impl Square {
    /// USI name, e.g. `7g`.
    pub fn usi(self) -> [u8; 2] {
        [b'0' + self.file(), b'a' + self.rank() - 1]
    }

    /// Parse a USI square such as `7g`.
    pub fn from_usi(s: &[u8]) -> Option<Square> {
        match s {
            [f @ b'1'..=b'9', r @ b'a'..=b'i'] => Square::new(f - b'0', r - b'a' + 1),
            _ => None,
        }
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), (b'a' + self.rank() - 1) as char)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), (b'a' + self.rank() - 1) as char)
    }
}

impl Move {
    /// The USI text of the move: `7g7f`, `8h2b+`, `P*5e`.
    pub fn to_usi(self) -> String {
        let mut s = String::with_capacity(5);
        self.push_usi(&mut s);
        s
    }

    /// [`Move::to_usi`] appended to `s`: the writers put a move on every
    /// line, and this spares them a `String` a move.
    pub fn push_usi(self, s: &mut String) {
        let square = |s: &mut String, sq: Square| {
            let [f, r] = sq.usi();
            s.push(f as char);
            s.push(r as char);
        };
        match self {
            Move::Normal { from, to, promote } => {
                square(s, from);
                square(s, to);
                if promote {
                    s.push('+');
                }
            }
            Move::Drop { kind, to } => {
                s.push(kind.usi_letter() as char);
                s.push('*');
                square(s, to);
            }
        }
    }

    /// Parse a USI move. Drops must name an upper-case droppable kind.
    pub fn from_usi(s: &str) -> Option<Move> {
        let b = s.as_bytes();
        match b {
            [p, b'*', sq @ ..] if sq.len() == 2 => {
                let (kind, color) = PieceKind::from_sfen_letter(*p)?;
                if color != Color::Sente || kind == PieceKind::King {
                    return None;
                }
                Some(Move::Drop {
                    kind,
                    to: Square::from_usi(sq)?,
                })
            }
            _ if b.len() == 4 || (b.len() == 5 && b[4] == b'+') => Some(Move::Normal {
                from: Square::from_usi(&b[0..2])?,
                to: Square::from_usi(&b[2..4])?,
                promote: b.len() == 5,
            }),
            _ => None,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_usi())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_round_trips_through_usi() {
        for sq in Square::all() {
            let u = sq.usi();
            assert_eq!(Square::from_usi(&u), Some(sq));
        }
        assert_eq!(Square::new(7, 7).unwrap().to_string(), "7g");
        assert_eq!(Square::new(0, 1), None);
    }

    #[test]
    fn usi_moves_parse_and_print() {
        for m in ["7g7f", "8h2b+", "P*5e", "R*1a"] {
            assert_eq!(Move::from_usi(m).unwrap().to_usi(), m);
        }
        for bad in ["K*5e", "p*5e", "7g7", "7g7f=", "0a1a", "7j7f"] {
            assert_eq!(Move::from_usi(bad), None, "{bad}");
        }
    }
}
