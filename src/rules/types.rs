//! The vocabulary of shogi: colours, squares, pieces, hands and moves.
//!
//! Everything here is plain data with no knowledge of a position. The names
//! the record formats give them (kanji, CSA codes, SFEN letters, USI text)
//! are [`crate::notation`]'s.

use std::fmt;

/// A side. Sente (先手, black, `b`, `+`, ▲) moves first in an even game.
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// 先手 / 下手, black, `b`, `+`.
    Sente = 0,
    /// 後手 / 上手, white, `w`, `-`.
    Gote = 1,
}

impl Color {
    /// Both colours, sente first.
    pub const ALL: [Color; 2] = [Color::Sente, Color::Gote];

    /// The other side.
    #[inline]
    pub const fn flip(self) -> Color {
        match self {
            Color::Sente => Color::Gote,
            Color::Gote => Color::Sente,
        }
    }

    /// 0 for sente, 1 for gote.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The stable lowercase name used in JSON and messages: `sente` / `gote`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Sente => "sente",
            Color::Gote => "gote",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One of the 81 squares.
///
/// The index is `(file - 1) * 9 + (rank - 1)`: 1一 (USI `1a`) is 0, 9九 (`9i`) is 80.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// Number of squares on the board.
    pub const NUM: usize = 81;

    /// The square on `file` and `rank`, both 1..=9.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file >= 1 && file <= 9 && rank >= 1 && rank <= 9 {
            Some(Square((file - 1) * 9 + (rank - 1)))
        } else {
            None
        }
    }

    /// The square with index `i` (0..81).
    #[inline]
    pub const fn from_index(i: usize) -> Option<Square> {
        if i < 81 { Some(Square(i as u8)) } else { None }
    }

    /// The square with index `i`; `i` must be below 81.
    #[inline]
    pub(crate) const fn from_index_unchecked(i: usize) -> Square {
        debug_assert!(i < 81);
        Square(i as u8)
    }

    /// Index 0..81.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 1..=9 (1 is sente's right edge).
    #[inline]
    pub const fn file(self) -> u8 {
        self.0 / 9 + 1
    }

    /// Rank 1..=9 (1 is gote's back rank).
    #[inline]
    pub const fn rank(self) -> u8 {
        self.0 % 9 + 1
    }

    /// Every square, by index.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..81u8).map(Square)
    }

    /// The rank as seen by `c`: 1 is the far rank for that side.
    #[inline]
    pub const fn relative_rank(self, c: Color) -> u8 {
        match c {
            Color::Sente => self.rank(),
            Color::Gote => 10 - self.rank(),
        }
    }

    /// Whether the square is in `c`'s promotion zone (the three far ranks).
    #[inline]
    pub const fn in_zone(self, c: Color) -> bool {
        self.relative_rank(c) <= 3
    }
}

/// The 14 kinds of piece. The first seven are the kinds a hand can hold, in
/// SFEN/CSA order P L N S G B R, so `kind as usize` indexes a [`Hand`].
#[repr(u8)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// 歩 FU P
    Pawn = 0,
    /// 香 KY L
    Lance = 1,
    /// 桂 KE N
    Knight = 2,
    /// 銀 GI S
    Silver = 3,
    /// 金 KI G
    Gold = 4,
    /// 角 KA B
    Bishop = 5,
    /// 飛 HI R
    Rook = 6,
    /// 玉 OU K
    King = 7,
    /// と TO +P
    ProPawn = 8,
    /// 成香 NY +L
    ProLance = 9,
    /// 成桂 NK +N
    ProKnight = 10,
    /// 成銀 NG +S
    ProSilver = 11,
    /// 馬 UM +B
    Horse = 12,
    /// 龍 RY +R
    Dragon = 13,
}

use PieceKind::*;

/// `AFTER_MOVE[promote][kind]`: see [`PieceKind::after_move`].
const AFTER_MOVE: [[PieceKind; 14]; 2] = {
    let mut t = [PieceKind::ALL, PieceKind::ALL];
    let mut i = 0;
    while i < 14 {
        if let Some(p) = PieceKind::ALL[i].promoted() {
            t[1][i] = p;
        }
        i += 1;
    }
    t
};

impl PieceKind {
    /// All 14 kinds, in index order.
    pub const ALL: [PieceKind; 14] = [
        Pawn, Lance, Knight, Silver, Gold, Bishop, Rook, King, ProPawn, ProLance, ProKnight,
        ProSilver, Horse, Dragon,
    ];

    /// The seven kinds a hand can hold, in index order (P L N S G B R).
    pub const HAND: [PieceKind; 7] = [Pawn, Lance, Knight, Silver, Gold, Bishop, Rook];

    /// The kind with index `i` (0..14).
    #[inline]
    pub const fn from_index(i: usize) -> Option<PieceKind> {
        if i < 14 { Some(Self::ALL[i]) } else { None }
    }

    /// Index 0..14.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether this kind can promote (P L N S B R).
    #[inline]
    pub const fn can_promote(self) -> bool {
        matches!(self, Pawn | Lance | Knight | Silver | Bishop | Rook)
    }

    /// Whether this is a promoted kind.
    #[inline]
    pub const fn is_promoted(self) -> bool {
        (self as u8) >= 8
    }

    /// The promoted form, if the kind can promote.
    #[inline]
    pub const fn promoted(self) -> Option<PieceKind> {
        match self {
            Pawn => Some(ProPawn),
            Lance => Some(ProLance),
            Knight => Some(ProKnight),
            Silver => Some(ProSilver),
            Bishop => Some(Horse),
            Rook => Some(Dragon),
            _ => None,
        }
    }

    /// The kind a piece of this kind has after a move that promotes when
    /// `promote` (and can): one table load on the move-playing path, where
    /// the `promoted` match costs a dozen instructions.
    #[inline]
    pub(crate) const fn after_move(self, promote: bool) -> PieceKind {
        AFTER_MOVE[promote as usize][self as usize]
    }

    /// The unpromoted form (itself for unpromoted kinds): what a capture adds to a hand.
    #[inline]
    pub const fn unpromoted(self) -> PieceKind {
        match self {
            ProPawn => Pawn,
            ProLance => Lance,
            ProKnight => Knight,
            ProSilver => Silver,
            Horse => Bishop,
            Dragon => Rook,
            k => k,
        }
    }
}

/// A piece: a kind and its owner.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The owner.
    pub color: Color,
    /// The kind.
    pub kind: PieceKind,
}

impl Piece {
    /// A piece of `kind` owned by `color`.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }
}

/// The pieces one side holds in hand, counted per kind (P L N S G B R).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Hand([u8; 7]);

impl Hand {
    /// An empty hand.
    pub const EMPTY: Hand = Hand([0; 7]);

    /// How many pieces of `kind` (an unpromoted, non-king kind) the hand holds.
    #[inline]
    pub fn count(&self, kind: PieceKind) -> u8 {
        self.0.get(kind as usize).copied().unwrap_or(0)
    }

    /// Set the count of `kind`. Kings and promoted kinds are ignored.
    #[inline]
    pub fn set(&mut self, kind: PieceKind, n: u8) {
        if let Some(c) = self.0.get_mut(kind as usize) {
            *c = n;
        }
    }

    /// Add one piece of `kind` (its unpromoted form).
    #[inline]
    pub fn add(&mut self, kind: PieceKind) {
        if let Some(c) = self.0.get_mut(kind.unpromoted() as usize) {
            *c = c.saturating_add(1);
        }
    }

    /// Remove one piece of `kind`; returns false if there was none.
    #[inline]
    pub fn remove(&mut self, kind: PieceKind) -> bool {
        match self.0.get_mut(kind as usize) {
            Some(c) if *c > 0 => {
                *c -= 1;
                true
            }
            _ => false,
        }
    }

    /// Whether the hand is empty.
    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&c| c == 0)
    }

    /// The counts, indexed P L N S G B R.
    pub fn counts(&self) -> [u8; 7] {
        self.0
    }

    /// The kinds held with their counts, in the canonical writing order R B G S N L P.
    pub fn iter_canonical(&self) -> impl Iterator<Item = (PieceKind, u8)> + '_ {
        PieceKind::HAND
            .iter()
            .rev()
            .map(|&k| (k, self.0[k as usize]))
            .filter(|&(_, n)| n > 0)
    }
}

/// A move: a board move with or without promotion, or a drop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A piece moves from one square to another, promoting or not.
    Normal {
        /// Origin.
        from: Square,
        /// Destination.
        to: Square,
        /// Whether the piece promotes.
        promote: bool,
    },
    /// A piece from the hand is put on an empty square.
    Drop {
        /// The (unpromoted) kind dropped.
        kind: PieceKind,
        /// Destination.
        to: Square,
    },
}

impl Move {
    /// The destination square.
    #[inline]
    pub const fn to(self) -> Square {
        match self {
            Move::Normal { to, .. } | Move::Drop { to, .. } => to,
        }
    }

    /// The origin square, or `None` for a drop.
    #[inline]
    pub const fn from(self) -> Option<Square> {
        match self {
            Move::Normal { from, .. } => Some(from),
            Move::Drop { .. } => None,
        }
    }

    /// Whether the move promotes.
    #[inline]
    pub const fn is_promotion(self) -> bool {
        matches!(self, Move::Normal { promote: true, .. })
    }

    /// Whether the move is a drop.
    #[inline]
    pub const fn is_drop(self) -> bool {
        matches!(self, Move::Drop { .. })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_promote_and_demote() {
        for k in PieceKind::ALL {
            if let Some(p) = k.promoted() {
                assert_eq!(p.unpromoted(), k);
                assert!(p.is_promoted());
            }
        }
    }
}
