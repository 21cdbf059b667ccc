//! The vocabulary of shogi: colours, squares, pieces, hands and moves.
//!
//! Everything here is plain data with no knowledge of a position. Names in the
//! record formats (kanji, CSA codes, SFEN letters) live beside each type so that
//! every parser and writer shares one table.

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

    /// The CSA sign: `+` or `-`.
    pub const fn csa_sign(self) -> char {
        match self {
            Color::Sente => '+',
            Color::Gote => '-',
        }
    }

    /// The KI2 mark: `▲` or `△`.
    pub const fn mark(self) -> char {
        match self {
            Color::Sente => '▲',
            Color::Gote => '△',
        }
    }

    /// 先手 or 後手.
    pub const fn kanji(self) -> &'static str {
        match self {
            Color::Sente => "先手",
            Color::Gote => "後手",
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

/// CSA codes, indexed by `PieceKind as usize`.
const CSA_NAMES: [&str; 14] = [
    "FU", "KY", "KE", "GI", "KI", "KA", "HI", "OU", "TO", "NY", "NK", "NG", "UM", "RY",
];
/// [`CSA_NAMES`] as two-byte numbers, which [`PieceKind::from_csa`]
/// searches: one comparison a code instead of a string comparison.
const CSA_CODES: [u16; 14] = {
    let mut t = [0u16; 14];
    let mut i = 0;
    while i < 14 {
        let b = CSA_NAMES[i].as_bytes();
        t[i] = u16::from_be_bytes([b[0], b[1]]);
        i += 1;
    }
    t
};
/// KIF move names, indexed by kind.
const KIF_NAMES: [&str; 14] = [
    "歩", "香", "桂", "銀", "金", "角", "飛", "玉", "と", "成香", "成桂", "成銀", "馬", "龍",
];
/// One-character names used in BOD cells, indexed by kind.
const BOD_NAMES: [char; 14] = [
    '歩', '香', '桂', '銀', '金', '角', '飛', '玉', 'と', '杏', '圭', '全', '馬', '龍',
];
/// SFEN letters (sente, upper case) of the unpromoted base kind.
const SFEN_LETTERS: [u8; 8] = [b'P', b'L', b'N', b'S', b'G', b'B', b'R', b'K'];

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

    /// The CSA code, e.g. `FU`.
    pub const fn csa(self) -> &'static str {
        CSA_NAMES[self as usize]
    }

    /// Parse a CSA code such as `FU` or `RY`: the kind whose
    /// [`PieceKind::csa`] name it is.
    #[inline]
    pub fn from_csa(s: &[u8]) -> Option<PieceKind> {
        let &[a, b] = s else { return None };
        let code = u16::from_be_bytes([a, b]);
        CSA_CODES
            .iter()
            .position(|&c| c == code)
            .map(|i| Self::ALL[i])
    }

    /// The KIF/KI2 move name (`歩`, `成香`, `龍`, …).
    pub const fn kif(self) -> &'static str {
        KIF_NAMES[self as usize]
    }

    /// The one-character name used in BOD diagrams (`杏`, `圭`, `全`, …).
    pub const fn bod(self) -> char {
        BOD_NAMES[self as usize]
    }

    /// The SFEN letter of this kind for `color`, with `+` for promoted kinds.
    pub fn sfen(self, color: Color) -> String {
        let base = SFEN_LETTERS[self.unpromoted() as usize];
        let letter = match color {
            Color::Sente => base,
            Color::Gote => base.to_ascii_lowercase(),
        } as char;
        if self.is_promoted() {
            format!("+{letter}")
        } else {
            letter.to_string()
        }
    }

    /// The upper-case SFEN/USI letter of the unpromoted base kind (`P`, `K`, …).
    pub const fn usi_letter(self) -> u8 {
        SFEN_LETTERS[self.unpromoted() as usize]
    }

    /// The unpromoted kind and colour of an SFEN letter (`P` sente pawn, `k` gote king).
    pub fn from_sfen_letter(c: u8) -> Option<(PieceKind, Color)> {
        let color = if c.is_ascii_uppercase() {
            Color::Sente
        } else {
            Color::Gote
        };
        let up = c.to_ascii_uppercase();
        SFEN_LETTERS
            .iter()
            .position(|&l| l == up)
            .map(|i| (Self::ALL[i], color))
    }
}

impl fmt::Display for PieceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.csa())
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
                if color != Color::Sente || kind == King {
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

/// Full-width digit (１…９) for a file, as KIF/KI2 write destinations.
pub const fn zenkaku_digit(n: u8) -> char {
    match n {
        1 => '１',
        2 => '２',
        3 => '３',
        4 => '４',
        5 => '５',
        6 => '６',
        7 => '７',
        8 => '８',
        _ => '９',
    }
}

/// Kanji numeral (一…九) for a rank.
pub const fn kanji_digit(n: u8) -> char {
    match n {
        1 => '一',
        2 => '二',
        3 => '三',
        4 => '四',
        5 => '五',
        6 => '六',
        7 => '七',
        8 => '八',
        _ => '九',
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

    #[test]
    fn kinds_promote_and_demote() {
        for k in PieceKind::ALL {
            if let Some(p) = k.promoted() {
                assert_eq!(p.unpromoted(), k);
                assert!(p.is_promoted());
            }
        }
        assert_eq!(PieceKind::from_csa(b"RY"), Some(Dragon));
    }
}
