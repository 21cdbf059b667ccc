//! Conditions on one position: pieces on squares, with wildcards for a
//! file or a rank (`--pattern`), pieces in hand (`--hand`) and material on
//! board and in hand together (`--material`). A [`Pattern`] holds in a
//! position when every one of its terms does.
//!
//! Pieces are SFEN letters: upper case sente's, lower case gote's, `+`
//! before a letter its promoted kind (`+R` a dragon). Squares are a file
//! and a rank digit as the records write them (`76` is ７六), either of
//! them `?` for any.
//!
//! ```
//! use kifu::collection::Pattern;
//! use kifu::Position;
//!
//! let start = Position::startpos();
//! // Sente's rook on 2八, gote's king on its file 5, 5五 empty.
//! let p = Pattern::parse_board("R@28 k@5? .@55").unwrap();
//! assert!(p.holds(&start));
//! // No sente pawn anywhere on file 5: false at the start.
//! assert!(!Pattern::parse_board("!P@5?").unwrap().holds(&start));
//! // Eighteen pawns a side on board and in hand; nothing in hand.
//! assert!(Pattern::parse_counts("P=9 p=9", false).unwrap().holds(&start));
//! assert!(Pattern::parse_counts("B=0", true).unwrap().holds(&start));
//! ```

use crate::rules::attacks::{Bitboard, bb};
use crate::rules::position::Position;
use crate::rules::types::{Color, Piece, PieceKind, Square};
use std::fmt;

/// A conjunction of terms on one position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pattern {
    terms: Vec<Term>,
}

/// One condition.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Term {
    /// Some square of the set holds `what` (or, negated, none does).
    Squares {
        negate: bool,
        what: What,
        /// The squares of the file and rank named (`?` for any).
        squares: Bitboard,
    },
    /// A count of one side's pieces of a kind compared with `n`.
    Count {
        color: Color,
        kind: PieceKind,
        /// In hand only, or on the board and in hand (promoted pieces
        /// counted as their base kind).
        hand_only: bool,
        op: Op,
        n: u32,
    },
}

/// What a square holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum What {
    Piece(Piece),
    /// Any piece of this side (`X` sente's, `x` gote's).
    Side(Color),
    /// Nothing (`.`).
    Empty,
}

/// A comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Op {
    fn test(self, a: u32, b: u32) -> bool {
        match self {
            Op::Eq => a == b,
            Op::Ne => a != b,
            Op::Lt => a < b,
            Op::Le => a <= b,
            Op::Gt => a > b,
            Op::Ge => a >= b,
        }
    }
}

/// Why a pattern could not be read: the term and what was expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternError {
    /// The term as written.
    pub term: String,
    /// What it should have been.
    pub expected: &'static str,
}

impl fmt::Display for PatternError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`: expected {}", self.term, self.expected)
    }
}

impl std::error::Error for PatternError {}

fn err(term: &str, expected: &'static str) -> PatternError {
    PatternError {
        term: term.to_string(),
        expected,
    }
}

/// A piece as an SFEN letter, `+` before it for the promoted kind.
fn piece(s: &str) -> Option<Piece> {
    let (promoted, letter) = match s.strip_prefix('+') {
        Some(l) => (true, l),
        None => (false, s),
    };
    let &[c] = letter.as_bytes() else {
        return None;
    };
    let (kind, color) = PieceKind::from_sfen_letter(c)?;
    let kind = if promoted { kind.promoted()? } else { kind };
    Some(Piece { color, kind })
}

/// A file or rank digit, or `?` for any.
fn coordinate(c: u8) -> Option<Option<u8>> {
    match c {
        b'?' => Some(None),
        b'1'..=b'9' => Some(Some(c - b'0')),
        _ => None,
    }
}

fn board_term(t: &str) -> Result<Term, PatternError> {
    const EXPECTED: &str = "PIECE@SQUARE: an SFEN letter (upper case sente's, `+` promoted), \
                            X or x for any piece of a side, or . for empty; then @ and a file and \
                            a rank digit, either ? for any (R@28, +b@??, !P@5?, .@55)";
    let (negate, body) = match t.strip_prefix('!') {
        Some(b) => (true, b),
        None => (false, t),
    };
    let (p, sq) = body.split_once('@').ok_or_else(|| err(t, EXPECTED))?;
    let what = match p {
        "." => What::Empty,
        "X" => What::Side(Color::Sente),
        "x" => What::Side(Color::Gote),
        _ => What::Piece(piece(p).ok_or_else(|| err(t, EXPECTED))?),
    };
    let &[f, r] = sq.as_bytes() else {
        return Err(err(t, EXPECTED));
    };
    let file = coordinate(f).ok_or_else(|| err(t, EXPECTED))?;
    let rank = coordinate(r).ok_or_else(|| err(t, EXPECTED))?;
    let squares = Square::all()
        .filter(|sq| file.is_none_or(|f| sq.file() == f))
        .filter(|sq| rank.is_none_or(|r| sq.rank() == r))
        .fold(0, |m, sq| m | bb(sq.index()));
    Ok(Term::Squares {
        negate,
        what,
        squares,
    })
}

fn count_term(t: &str, hand_only: bool) -> Result<Term, PatternError> {
    const EXPECTED: &str = "KIND OP N: an SFEN letter (upper case sente's), one of = != < <= > >=, \
                            and a number (B>=1, p=0, R=2)";
    let split = t
        .find(['=', '!', '<', '>'])
        .ok_or_else(|| err(t, EXPECTED))?;
    let (letter, rest) = t.split_at(split);
    let (op, n) = [
        ("==", Op::Eq),
        ("!=", Op::Ne),
        ("<=", Op::Le),
        (">=", Op::Ge),
        ("=", Op::Eq),
        ("<", Op::Lt),
        (">", Op::Gt),
    ]
    .iter()
    .find_map(|(s, op)| rest.strip_prefix(s).map(|n| (*op, n)))
    .ok_or_else(|| err(t, EXPECTED))?;
    let n: u32 = n.trim().parse().map_err(|_| err(t, EXPECTED))?;
    let &[c] = letter.trim().as_bytes() else {
        return Err(err(t, EXPECTED));
    };
    let (kind, color) = PieceKind::from_sfen_letter(c).ok_or_else(|| err(t, EXPECTED))?;
    if hand_only && kind == PieceKind::King {
        return Err(err(t, "a kind that can be held in hand (P L N S G B R)"));
    }
    Ok(Term::Count {
        color,
        kind,
        hand_only,
        op,
        n,
    })
}

/// The terms of `s`: separated by spaces or commas.
fn terms(s: &str) -> impl Iterator<Item = &str> {
    s.split([' ', ',', '\u{3000}']).filter(|t| !t.is_empty())
}

impl Pattern {
    /// Board terms: `PIECE@SQUARE`, `!` before one for "not".
    pub fn parse_board(s: &str) -> Result<Pattern, PatternError> {
        let terms = terms(s).map(board_term).collect::<Result<Vec<_>, _>>()?;
        Self::non_empty(s, terms)
    }

    /// Count terms `KIND OP N`: in hand (`hand_only`), or on the board and
    /// in hand together (promoted pieces counted as their base kind).
    pub fn parse_counts(s: &str, hand_only: bool) -> Result<Pattern, PatternError> {
        let terms = terms(s)
            .map(|t| count_term(t, hand_only))
            .collect::<Result<Vec<_>, _>>()?;
        Self::non_empty(s, terms)
    }

    fn non_empty(s: &str, terms: Vec<Term>) -> Result<Pattern, PatternError> {
        if terms.is_empty() {
            return Err(err(s, "at least one term"));
        }
        Ok(Pattern { terms })
    }

    /// Both patterns' terms: a position must meet all of them.
    pub fn and(mut self, other: Pattern) -> Pattern {
        self.terms.extend(other.terms);
        self
    }

    /// Whether `pos` meets every term.
    pub fn holds(&self, pos: &Position) -> bool {
        self.terms.iter().all(|t| t.holds(pos))
    }

    /// Whether the main line of `game` reaches a position the pattern
    /// holds in (the start included).
    pub fn reached_in(&self, game: &crate::replay::Game) -> bool {
        let mut pos = game.start.clone();
        if self.holds(&pos) {
            return true;
        }
        game.main.plies.iter().any(|p| {
            pos.play_unchecked(p.mv);
            self.holds(&pos)
        })
    }

    /// The plies (0 for the start) after which the main line of `game`
    /// stands at a position the pattern holds in.
    pub fn plies_in(&self, game: &crate::replay::Game) -> Vec<u32> {
        let mut pos = game.start.clone();
        let mut at = Vec::new();
        if self.holds(&pos) {
            at.push(0);
        }
        for (n, p) in game.main.plies.iter().enumerate() {
            pos.play_unchecked(p.mv);
            if self.holds(&pos) {
                at.push(n as u32 + 1);
            }
        }
        at
    }
}

impl Term {
    fn holds(&self, pos: &Position) -> bool {
        let mine = |c: Color| pos.by_color[c.index()];
        match *self {
            Term::Squares {
                negate,
                what,
                squares,
            } => {
                let holding = match what {
                    What::Empty => !(mine(Color::Sente) | mine(Color::Gote)),
                    What::Side(c) => mine(c),
                    What::Piece(p) => mine(p.color) & pos.by_kind[p.kind as usize],
                };
                (holding & squares != 0) != negate
            }
            Term::Count {
                color,
                kind,
                hand_only,
                op,
                n,
            } => {
                let held = if kind == PieceKind::King {
                    0
                } else {
                    u32::from(pos.hand(color).count(kind))
                };
                let on_board = if hand_only {
                    0
                } else {
                    // The kind and its promoted kind count alike.
                    let both = kind.promoted().map_or(0, |p| pos.by_kind[p as usize])
                        | pos.by_kind[kind as usize];
                    (mine(color) & both).count_ones()
                };
                op.test(held + on_board, n)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(sfen: &str) -> Position {
        Position::from_sfen(sfen).unwrap()
    }

    #[test]
    fn a_wildcard_square_matches_any_file_or_rank() {
        // Sente's rook moved to 7八 (三間飛車).
        let p = pos("lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1BR6/LNSGKGSNL w - 1");
        assert!(Pattern::parse_board("R@7?").unwrap().holds(&p));
        assert!(Pattern::parse_board("R@?8").unwrap().holds(&p));
        assert!(!Pattern::parse_board("R@2?").unwrap().holds(&p));
        assert!(!Pattern::parse_board("!R@2? X@77").unwrap().holds(&p));
        assert!(Pattern::parse_board("!R@2? .@77").unwrap().holds(&p));
        assert!(Pattern::parse_board("x@?1 !x@?5").unwrap().holds(&p));
    }

    #[test]
    fn promoted_pieces_are_their_own_kind_on_squares_and_their_base_in_material() {
        let p = pos("4k4/9/9/9/4+B4/9/9/9/4K4 b Rb 1");
        assert!(Pattern::parse_board("+B@55").unwrap().holds(&p));
        assert!(!Pattern::parse_board("B@55").unwrap().holds(&p));
        // A horse on the board and a bishop in each hand.
        assert!(
            Pattern::parse_counts("B=1 b=1 R>=1", false)
                .unwrap()
                .holds(&p)
        );
        assert!(
            Pattern::parse_counts("B=0 b=1 R=1 r=0", true)
                .unwrap()
                .holds(&p)
        );
        assert!(!Pattern::parse_counts("B>=1", true).unwrap().holds(&p));
        assert!(
            Pattern::parse_counts("K=1,k=1,P=0", false)
                .unwrap()
                .holds(&p)
        );
    }

    #[test]
    fn a_bad_term_says_what_was_expected() {
        for bad in ["R28", "Q@28", "R@0?", "R@2", "", "+K@55"] {
            let e = Pattern::parse_board(bad).unwrap_err();
            assert!(e.to_string().contains("expected"), "{bad}: {e}");
        }
        for bad in ["B", "B>>1", "B=x", "Q=1"] {
            assert!(Pattern::parse_counts(bad, false).is_err(), "{bad}");
        }
        assert!(Pattern::parse_counts("K=1", true).is_err());
    }
}
