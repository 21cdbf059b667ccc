//! The JSA disambiguation words (右 左 直 上 引 寄 打) a writer must add to a
//! move so that a reader knows which piece moved (`ki2.md` §7).
//!
//! Shared by every writer that needs them: JKF's `relative` field and KI2's
//! suffixes carry the same information.

use crate::record::Relative;
use crate::resolve::{candidates, frame_x, horizontal, vertical};
use crate::rules::position::Position;
use crate::rules::types::{Move, PieceKind, Square};

fn motion_word(v: i8) -> Relative {
    match v {
        ..0 => Relative::UP,
        0 => Relative::SIDEWAYS,
        _ => Relative::DOWN,
    }
}

/// The shortest modifier set that singles out `mv` among the mover's pieces
/// of kind `piece` that could also reach its destination (pins ignored, as
/// `ki2.md` §7 step 4 requires, so that every reader finds the same piece).
///
/// `pos` is the position before the move; `piece` is the kind before the
/// move (the kind dropped, for a drop). Returns [`Relative::NONE`] when no
/// word is needed.
pub fn relative_for(pos: &Position, mv: Move, piece: PieceKind) -> Relative {
    match mv {
        Move::Drop { to, .. } => {
            let us = pos.side_to_move();
            if candidates(pos, us, piece, to).is_empty() {
                Relative::NONE
            } else {
                Relative::DROP
            }
        }
        Move::Normal { from, to, .. } => {
            // The piece's owner, not the side to move: a writer may describe a
            // foul played out of turn.
            let us = pos.piece_at(from).map_or(pos.side_to_move(), |p| p.color);
            let others: Vec<Square> = candidates(pos, us, piece, to)
                .into_iter()
                .filter(|&s| s != from)
                .collect();
            if others.is_empty() {
                return Relative::NONE;
            }
            let v = vertical(us, from, to);
            if others.iter().all(|&o| vertical(us, o, to) != v) {
                return motion_word(v);
            }
            if matches!(piece, PieceKind::Dragon | PieceKind::Horse) {
                let leftmost = others.iter().all(|&o| frame_x(us, o) < frame_x(us, from));
                return if leftmost {
                    Relative::LEFT
                } else {
                    Relative::RIGHT
                };
            }
            let h = horizontal(us, from, to);
            if h == 0 {
                return Relative::STRAIGHT;
            }
            let side = if h > 0 {
                Relative::RIGHT
            } else {
                Relative::LEFT
            };
            if others.iter().any(|&o| horizontal(us, o, to) == h) {
                side | motion_word(v)
            } else {
                side
            }
        }
    }
}

/// Each flag's JKF letter, in the order a code writes them.
const JKF_LETTERS: [(Relative, char); 7] = [
    (Relative::LEFT, 'L'),
    (Relative::STRAIGHT, 'C'),
    (Relative::RIGHT, 'R'),
    (Relative::UP, 'U'),
    (Relative::SIDEWAYS, 'M'),
    (Relative::DOWN, 'D'),
    (Relative::DROP, 'H'),
];

/// The JKF `relative` code of `r`: at most one of `L C R`, then at most one
/// of `U M D`, or `H`; empty for [`Relative::NONE`].
pub fn jkf_code(r: Relative) -> String {
    JKF_LETTERS
        .iter()
        .filter(|&&(flag, _)| r.contains(flag))
        .map(|&(_, c)| c)
        .collect()
}

/// Read a JKF `relative` code; `None` for a letter outside `LCRUMDH`.
pub fn from_jkf_code(code: &str) -> Option<Relative> {
    code.chars().try_fold(Relative::NONE, |r, c| {
        let &(flag, _) = JKF_LETTERS.iter().find(|&&(_, letter)| letter == c)?;
        Some(r | flag)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::setup::Setup;
    use crate::rules::types::{Color, Piece};

    fn sq(f: u8, r: u8) -> Square {
        Square::new(f, r).unwrap()
    }

    /// Kings far away on 9九/1五 (sente/gote) plus `pieces`; sente to move
    /// unless `gote_moves`.
    fn pos(
        pieces: &[(Color, PieceKind, u8, u8)],
        hand: &[PieceKind],
        gote_moves: bool,
    ) -> Position {
        let mut s = Setup::EMPTY;
        s.set(sq(9, 9), Some(Piece::new(Color::Sente, PieceKind::King)));
        s.set(sq(1, 5), Some(Piece::new(Color::Gote, PieceKind::King)));
        for &(c, k, f, r) in pieces {
            s.set(sq(f, r), Some(Piece::new(c, k)));
        }
        let mover = if gote_moves {
            Color::Gote
        } else {
            Color::Sente
        };
        for &k in hand {
            s.hands[mover.index()].add(k);
        }
        s.side_to_move = mover;
        Position::from_setup(&s).unwrap()
    }

    fn rel(p: &Position, from: (u8, u8), to: (u8, u8), piece: PieceKind) -> String {
        let mv = Move::Normal {
            from: sq(from.0, from.1),
            to: sq(to.0, to.1),
            promote: false,
        };
        jkf_code(relative_for(p, mv, piece))
    }

    use Color::{Gote as W, Sente as B};
    use PieceKind::{Gold, Knight};

    #[test]
    fn codes_of_board_moves() {
        // Each board (kings far away on 9九 and 1五) with the code each of
        // its moves gets.
        let cases: [(&str, &[(&str, &str)]); 9] = [
            // Three golds behind.
            (
                "9/9/9/9/8k/9/9/9/K2GGG3 b - 1",
                &[("6i5h", "L"), ("5i5h", "C"), ("4i5h", "R")],
            ),
            // A sideways pair, and motion alone.
            ("9/9/9/9/8k/9/3G1G3/9/K8 b - 1", &[("4g5g", "R")]),
            (
                "9/9/9/9/8k/4G4/9/5G3/K8 b - 1",
                &[("5f5g", "D"), ("4h5g", "U")],
            ),
            // Left-up and straight.
            (
                "9/9/9/9/3G4k/3GG4/9/9/K8 b - 1",
                &[("6f5e", "LU"), ("6e5e", "M"), ("5f5e", "C")],
            ),
            // Two dragons.
            (
                "3+R+R4/9/9/9/8k/9/9/9/K8 b - 1",
                &[("6a5b", "L"), ("5a5b", "R")],
            ),
            (
                "1+R7/+R8/9/9/8k/9/9/9/K8 b - 1",
                &[("9b8b", "M"), ("8a8b", "D")],
            ),
            // Gote is mirrored.
            (
                "3g1g3/9/9/9/8k/9/9/9/K8 w - 1",
                &[("6a5b", "R"), ("4a5b", "L")],
            ),
            // Silvers.
            ("9/9/5S3/9/3S4k/9/9/9/K8 b - 1", &[("4c5d", "D")]),
            (
                "9/9/3S1S3/9/3S4k/9/9/9/K8 b - 1",
                &[("4c5d", "R"), ("6c5d", "LD"), ("6e5d", "U")],
            ),
        ];
        for (sfen, moves) in cases {
            let p = Position::from_sfen(sfen).unwrap();
            for &(usi, code) in moves {
                let mv = Move::from_usi(usi).unwrap();
                let Move::Normal { from, .. } = mv else {
                    unreachable!("{usi}")
                };
                let piece = p.piece_at(from).unwrap().kind;
                assert_eq!(
                    jkf_code(relative_for(&p, mv, piece)),
                    code,
                    "{usi} on {sfen}"
                );
            }
        }
    }

    #[test]
    fn knights() {
        // The helper keeps the sente king on 9九, where this knight stands.
        let mut s = Setup::EMPTY;
        s.set(sq(5, 9), Some(Piece::new(B, PieceKind::King)));
        s.set(sq(1, 1), Some(Piece::new(W, PieceKind::King)));
        s.set(sq(7, 9), Some(Piece::new(B, Knight)));
        s.set(sq(9, 9), Some(Piece::new(B, Knight)));
        let p = Position::from_setup(&s).unwrap();
        assert_eq!(rel(&p, (9, 9), (8, 7), Knight), "L");
    }

    #[test]
    fn drops_need_h_only_when_a_board_piece_could_go() {
        let p = pos(&[(B, Gold, 5, 9)], &[Gold], false);
        let d = |f, r| Move::Drop {
            kind: Gold,
            to: sq(f, r),
        };
        assert_eq!(jkf_code(relative_for(&p, d(5, 8), Gold)), "H");
        assert_eq!(jkf_code(relative_for(&p, d(4, 5), Gold)), "");
    }

    #[test]
    fn codes_round_trip() {
        for code in [
            "L", "C", "R", "U", "M", "D", "LU", "RD", "LM", "RM", "H", "",
        ] {
            assert_eq!(jkf_code(from_jkf_code(code).unwrap()), code);
        }
        assert_eq!(from_jkf_code("X"), None);
    }
}
