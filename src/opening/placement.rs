//! Where each side's pieces stand, as the classifier keeps them: one byte
//! a square ([`Code`]), so that a move is two stores and a condition one
//! compare; the hands; and the rooks as bitboards, for the entries that
//! name the rook's files.

use crate::replay::Ply;
use crate::rules::attacks::{Bitboard, bb, squares};
use crate::rules::position::Position;
use crate::rules::types::{Color, PieceKind};

/// A piece as [`Placement`]'s board holds it: 0 for none, else
/// `1 + side * 14 + kind`.
pub(super) type Code = u8;

/// The [`Code`] of `kind` for side `s`.
pub(super) fn code(s: usize, kind: PieceKind) -> Code {
    (1 + s * 14 + kind as usize) as Code
}

/// Codes run below this.
pub(super) const CODES: usize = 1 + 2 * 14;

/// A piece on a square, as a condition: `(square, code)`.
pub(super) type Spot = (u8, Code);

/// A square past the board whose code never changes: a gate there is
/// always open.
pub(super) const OPEN: Spot = (81, Code::MAX);

/// Where each side's pieces stand, and what it holds.
#[derive(Clone, Debug)]
pub(super) struct Placement {
    /// A [`Code`] a square, and [`OPEN`]'s square last.
    board: [Code; 82],
    hands: [[u8; 7]; 2],
    /// Each side's unpromoted rooks.
    rooks: [Bitboard; 2],
}

impl Placement {
    pub(super) fn of(pos: &Position) -> Placement {
        let mut p = Placement {
            board: [0; 82],
            hands: [[0; 7]; 2],
            rooks: [0; 2],
        };
        p.board[OPEN.0 as usize] = OPEN.1;
        for c in Color::ALL {
            let s = c.index();
            for k in PieceKind::ALL {
                for sq in squares(pos.by_color[s] & pos.by_kind[k as usize]) {
                    p.board[sq] = code(s, k);
                }
            }
            p.hands[s] = pos.hand(c).counts();
            p.rooks[s] = pos.by_color[s] & pos.by_kind[PieceKind::Rook as usize];
        }
        p
    }

    /// Play a ply the replayer accepted; the kind that stands on the
    /// destination afterwards.
    pub(super) fn apply(&mut self, p: &Ply) -> PieceKind {
        let s = p.color.index();
        let to = p.mv.to().index();
        let kind = match p.mv.from() {
            Some(from) => {
                self.take(s, p.piece, from.index());
                match p.mv.is_promotion() {
                    true => p.piece.promoted().unwrap_or(p.piece),
                    false => p.piece,
                }
            }
            None => {
                let h = &mut self.hands[s][p.piece as usize];
                *h = h.saturating_sub(1);
                p.piece
            }
        };
        if let Some(cap) = p.capture {
            self.take(1 - s, cap, to);
            self.hands[s][cap.unpromoted() as usize] += 1;
        }
        self.board[to] = code(s, kind);
        if kind == PieceKind::Rook {
            self.rooks[s] |= bb(to);
        }
        kind
    }

    /// Take side `s`'s `kind` off `sq`.
    fn take(&mut self, s: usize, kind: PieceKind, sq: usize) {
        self.board[sq] = 0;
        if kind == PieceKind::Rook {
            self.rooks[s] &= !bb(sq);
        }
    }

    /// Whether the piece stands there.
    pub(super) fn has(&self, (sq, c): Spot) -> bool {
        self.board[sq as usize] == c
    }

    /// How many of kind `k` side `s` holds.
    pub(super) fn hand(&self, s: usize, k: usize) -> u8 {
        self.hands[s][k]
    }

    /// Whether side `s` has an unpromoted rook in `mask`.
    pub(super) fn rook_in(&self, s: usize, mask: Bitboard) -> bool {
        self.rooks[s] & mask != 0
    }
}
