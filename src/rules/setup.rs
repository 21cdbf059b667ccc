//! An unchecked description of a position (`Setup`) and the standard presets.
//!
//! Parsers build a `Setup` from whatever the file says (SFEN, BOD, CSA `P1`…)
//! without judging it; [`crate::Position::from_setup`] checks it. Keeping the
//! two apart lets a record with a broken diagram still be read and reported.

use crate::rules::types::{Color, Hand, Piece, PieceKind, Square};
use std::sync::LazyLock;

/// A position as written: board, hands, side to move and move number, unchecked.
///
/// [`Position::from_setup`](crate::Position::from_setup) checks it against
/// the rules; a preset is a [`Handicap`]'s setup.
///
/// # Example
///
/// ```
/// use kifu::{Handicap, Position, Setup};
///
/// let two_piece = Handicap::TwoPieces.setup();
/// assert_eq!(two_piece.preset(), Some(Handicap::TwoPieces));
/// let read = Setup::from_sfen(&two_piece.to_sfen()).unwrap();
/// assert_eq!(read, two_piece);
/// assert!(Position::from_setup(&read).is_ok());
///
/// // Two sente kings: a setup can say it, the rules refuse it.
/// let bad = Setup::from_sfen("4k4/9/9/9/9/9/9/9/3KK4 b - 1").unwrap();
/// assert!(Position::from_setup(&bad).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The 81 squares, indexed by [`Square::index`].
    pub board: [Option<Piece>; 81],
    /// Hands, indexed by [`Color::index`].
    pub hands: [Hand; 2],
    /// The side to move.
    pub side_to_move: Color,
    /// The number of the next move (1 at the start of a game).
    pub move_number: u32,
}

impl Setup {
    /// An empty board, empty hands, sente to move, move 1.
    pub const EMPTY: Setup = Setup {
        board: [None; 81],
        hands: [Hand::EMPTY; 2],
        side_to_move: Color::Sente,
        move_number: 1,
    };

    /// The piece on `sq`.
    #[inline]
    pub fn get(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// Put `piece` (or nothing) on `sq`.
    #[inline]
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        self.board[sq.index()] = piece;
    }

    /// The preset this setup matches (ignoring the move number), if any.
    pub fn preset(&self) -> Option<Handicap> {
        // What the SFEN key holds (board, side, hands). This runs for the
        // start of every game, so the board is compared as one byte a square
        // (a memcmp) rather than as 81 `Option<Piece>` values.
        let codes = board_codes(&self.board);
        let i = preset_keys().iter().position(|(board, side, hands)| {
            *side == self.side_to_move && *hands == self.hands && *board == codes
        })?;
        Some(Handicap::ALL[i])
    }
}

/// One byte a square: 0 for empty, else the kind and colour packed, so two
/// boards are equal exactly when their codes are.
fn board_codes(board: &[Option<Piece>; 81]) -> [u8; 81] {
    let mut codes = [0u8; 81];
    for (c, p) in codes.iter_mut().zip(board) {
        *c = p.map_or(0, |p| 1 + ((p.kind as u8) << 1 | p.color as u8));
    }
    codes
}

/// A preset's board (as [`board_codes`]), side to move and hands.
type PresetKey = ([u8; 81], Color, [Hand; 2]);

/// The presets' keys, in [`Handicap::ALL`] order.
fn preset_keys() -> &'static [PresetKey] {
    static KEYS: LazyLock<Vec<PresetKey>> = LazyLock::new(|| {
        preset_setups()
            .iter()
            .map(|s| (board_codes(&s.board), s.side_to_move, s.hands))
            .collect()
    });
    &KEYS
}

/// The even start and the handicap presets (駒落ち) every format names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Handicap {
    /// 平手, the even game.
    Hirate,
    /// 香落ち (left lance, 1一).
    Lance,
    /// 右香落ち (9一).
    RightLance,
    /// 角落ち.
    Bishop,
    /// 飛車落ち.
    Rook,
    /// 飛香落ち.
    RookLance,
    /// 二枚落ち.
    TwoPieces,
    /// 三枚落ち.
    ThreePieces,
    /// 四枚落ち.
    FourPieces,
    /// 五枚落ち.
    FivePieces,
    /// 左五枚落ち.
    LeftFivePieces,
    /// 六枚落ち.
    SixPieces,
    /// 左七枚落ち.
    LeftSevenPieces,
    /// 右七枚落ち.
    RightSevenPieces,
    /// 八枚落ち.
    EightPieces,
    /// 十枚落ち.
    TenPieces,
}

impl Handicap {
    /// Every preset, the even game first.
    pub const ALL: [Handicap; 16] = [
        Handicap::Hirate,
        Handicap::Lance,
        Handicap::RightLance,
        Handicap::Bishop,
        Handicap::Rook,
        Handicap::RookLance,
        Handicap::TwoPieces,
        Handicap::ThreePieces,
        Handicap::FourPieces,
        Handicap::FivePieces,
        Handicap::LeftFivePieces,
        Handicap::SixPieces,
        Handicap::LeftSevenPieces,
        Handicap::RightSevenPieces,
        Handicap::EightPieces,
        Handicap::TenPieces,
    ];

    /// The setup of this preset.
    pub fn setup(self) -> Setup {
        preset_setups()[self.index()].clone()
    }

    /// The position of this preset in [`Handicap::ALL`].
    pub fn index(self) -> usize {
        Handicap::ALL
            .iter()
            .position(|&h| h == self)
            .expect("ALL lists every preset")
    }
}

/// The setups of [`Handicap::ALL`], in that order. Every game of a
/// collection starts from one of these: each preset's SFEN is read once per
/// process, not once per game.
fn preset_setups() -> &'static [Setup] {
    static SETUPS: LazyLock<Vec<Setup>> = LazyLock::new(|| {
        Handicap::ALL
            .iter()
            .zip(REMOVED)
            .map(|(&h, removed)| {
                let mut s = even_game();
                for &n in removed {
                    if let Some(sq) = Square::new(n / 10, n % 10) {
                        s.set(sq, None);
                    }
                }
                // 上手 (gote), who gave the pieces, moves first.
                if h != Handicap::Hirate {
                    s.side_to_move = Color::Gote;
                }
                s
            })
            .collect()
    });
    &SETUPS
}

/// The even game's start: each side's back rank, rook and bishop, pawns.
fn even_game() -> Setup {
    use PieceKind::*;
    const BACK: [PieceKind; 9] = [
        Lance, Knight, Silver, Gold, King, Gold, Silver, Knight, Lance,
    ];
    let mut s = Setup::EMPTY;
    let mut put = |file: u8, rank: u8, color: Color, kind: PieceKind| {
        if let Some(sq) = Square::new(file, rank) {
            s.set(sq, Some(Piece::new(color, kind)));
        }
    };
    for (file, &kind) in (1..=9).zip(BACK.iter()) {
        put(file, 1, Color::Gote, kind);
        put(file, 3, Color::Gote, Pawn);
        put(file, 7, Color::Sente, Pawn);
        put(file, 9, Color::Sente, kind);
    }
    put(8, 2, Color::Gote, Rook);
    put(2, 2, Color::Gote, Bishop);
    put(8, 8, Color::Sente, Bishop);
    put(2, 8, Color::Sente, Rook);
    s
}

/// The squares of 上手's pieces each preset of [`Handicap::ALL`] takes off
/// the even game, as shogi numbers them (file then rank: 82 is 8二, the
/// rook).
const REMOVED: [&[u8]; 16] = [
    &[],
    &[11],
    &[91],
    &[22],
    &[82],
    &[82, 11],
    &[82, 22],
    &[82, 22, 11],
    &[82, 22, 11, 91],
    &[82, 22, 11, 91, 81],
    &[82, 22, 11, 91, 21],
    &[82, 22, 11, 91, 21, 81],
    &[82, 22, 11, 91, 21, 81, 31],
    &[82, 22, 11, 91, 21, 81, 71],
    &[82, 22, 11, 91, 21, 81, 31, 71],
    &[82, 22, 11, 91, 21, 81, 31, 71, 41, 61],
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_preset_takes_gotes_pieces_off_the_even_game_and_gote_moves_first() {
        let even = even_game();
        let count = |s: &Setup| s.board.iter().flatten().count();
        assert_eq!(count(&even), 40);
        for (h, removed) in Handicap::ALL.into_iter().zip(REMOVED) {
            let s = h.setup();
            assert_eq!(count(&s), 40 - removed.len(), "{h:?}");
            for &n in removed {
                let sq = Square::new(n / 10, n % 10).unwrap();
                assert_eq!(even.get(sq).map(|p| p.color), Some(Color::Gote), "{h:?}");
                assert_eq!(s.get(sq), None, "{h:?}");
            }
            let first = if h == Handicap::Hirate {
                Color::Sente
            } else {
                Color::Gote
            };
            assert_eq!(s.side_to_move, first, "{h:?}");
            assert_eq!(s.preset(), Some(h));
        }
    }
}
