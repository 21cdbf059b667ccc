//! What the two training-data writers share: the 256-bit Huffman-coded
//! positions of dlshogi (`HuffmanCodedPos`, from Apery) and YaneuraOu
//! (`PackedSfen`), the game's result as a label, and the walk over the
//! main line that gives each position its next move and eval.
//!
//! Both codes spend exactly 256 bits on a position: one bit for the side
//! to move, seven for each king's square, then each other square (1一
//! first, file by file) as a Huffman code, then the pieces in hand, then
//! the pieces in neither (the box: a handicap's pieces taken off, a
//! problem's unused ones). A piece in hand or in the box is coded one bit
//! shorter than on the board, which the square it left empty makes up, so
//! the total never changes. The box codes are those of YaneuraOu's packer
//! and of cshogi (which both readers take back as "not in play"); the
//! python tests compare every byte with cshogi's own. Only a position with
//! both kings on the board and no more of a kind than a game holds can be
//! coded: the bits would not add up to 256.

use crate::codes::WarningCode;
use crate::emit::Warning;
use crate::replay::Game;
use crate::rules::position::Position;
use crate::rules::types::{Color, Move, PieceKind, Square};

/// The two layouts differ in two places, both fixed by the programs that
/// read them: Apery's table swaps the knight's and the silver's codes, and
/// writes a board piece's colour before its promotion bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Layout {
    /// dlshogi / Apery `HuffmanCodedPos`.
    Hcp,
    /// YaneuraOu `PackedSfen`.
    PackedSfen,
}

/// The code of an unpromoted kind on the board, leading "occupied" bit
/// included, as (bits written first in the low bits, length).
fn kind_code(kind: PieceKind, layout: Layout) -> (u32, u32) {
    match (kind, layout) {
        (PieceKind::Pawn, _) => (0b01, 2),
        (PieceKind::Lance, _) => (0b0011, 4),
        (PieceKind::Knight, Layout::Hcp) | (PieceKind::Silver, Layout::PackedSfen) => (0b0111, 4),
        (PieceKind::Knight, Layout::PackedSfen) | (PieceKind::Silver, Layout::Hcp) => (0b1011, 4),
        (PieceKind::Gold, _) => (0b01111, 5),
        (PieceKind::Bishop, _) => (0b011111, 6),
        _ => (0b111111, 6),
    }
}

/// 256 bits written from the low bit of the first byte up.
struct Bits {
    bytes: [u8; 32],
    at: usize,
}

impl Bits {
    fn push(&mut self, value: u32, len: u32) {
        for i in 0..len {
            if value >> i & 1 == 1 {
                // Callers check the pieces first, so `at` stays below 256.
                self.bytes[self.at / 8] |= 1 << (self.at % 8);
            }
            self.at += 1;
        }
    }
}

/// How many of each unpromoted kind a game of shogi holds, in
/// [`PieceKind`] order (P L N S G B R K).
const FULL_SET: [u8; 8] = [18, 4, 4, 4, 4, 2, 2, 2];

/// How many of each unpromoted kind `pos` holds on the board and in
/// hand, in [`PieceKind`] order.
fn counts(pos: &Position) -> [u8; 8] {
    let mut count = [0u8; 8];
    for sq in Square::all() {
        if let Some(p) = pos.piece_at(sq) {
            count[p.kind.unpromoted().index()] += 1;
        }
    }
    for c in [Color::Sente, Color::Gote] {
        for (k, n) in pos.hand(c).iter_canonical() {
            count[k.index()] = count[k.index()].saturating_add(n);
        }
    }
    count
}

/// Whether both codes can hold `pos`: both kings on the board, and no
/// more of a kind than a game holds (the rest go to the box).
pub(crate) fn codable(pos: &Position) -> bool {
    let count = counts(pos);
    count[PieceKind::King.index()] == 2
        && pos.king_square(Color::Sente).is_some()
        && pos.king_square(Color::Gote).is_some()
        && count.iter().zip(FULL_SET).all(|(&n, full)| n <= full)
}

/// The code of a piece of `kind` in the box, as (bits written first in
/// the low bits, length): the hand code of a sente piece with the
/// promotion bit set, which no piece in hand has. A gold has no promotion
/// bit, so both take a gote silver's with it; Apery's bishop and rook,
/// coded in hand as on the board, clear their fifth bit instead.
fn box_code(kind: PieceKind, layout: Layout) -> (u32, u32) {
    let (code, len) = kind_code(kind, layout);
    match (kind, layout) {
        (PieceKind::Gold, _) => {
            let (silver, len) = box_code(PieceKind::Silver, layout);
            (silver | 1 << (len - 1), len)
        }
        (PieceKind::Bishop | PieceKind::Rook, Layout::Hcp) => (code & !(1 << 4), len + 1),
        _ => (code >> 1 | 1 << (len - 1), len + 1),
    }
}

/// The 32 bytes of `pos`, which must be [`codable`].
pub(crate) fn encode(pos: &Position, layout: Layout) -> [u8; 32] {
    let mut bits = Bits {
        bytes: [0; 32],
        at: 0,
    };
    bits.push(u32::from(pos.side_to_move() == Color::Gote), 1);
    for c in [Color::Sente, Color::Gote] {
        let sq = pos.king_square(c).map_or(0, |s| s.index());
        bits.push(sq as u32, 7);
    }
    for sq in Square::all() {
        match pos.piece_at(sq) {
            None => bits.push(0, 1),
            Some(p) if p.kind == PieceKind::King => {}
            Some(p) => {
                let (code, len) = kind_code(p.kind.unpromoted(), layout);
                bits.push(code, len);
                let white = u32::from(p.color == Color::Gote);
                let promoted = u32::from(p.kind.is_promoted());
                let gold = p.kind == PieceKind::Gold;
                match (layout, gold) {
                    (_, true) => bits.push(white, 1),
                    (Layout::Hcp, false) => bits.push(white | promoted << 1, 2),
                    (Layout::PackedSfen, false) => bits.push(promoted | white << 1, 2),
                }
            }
        }
    }
    for c in [Color::Sente, Color::Gote] {
        let white = u32::from(c == Color::Gote);
        // P L N S G B R, the order cshogi writes them in (readers take any).
        for kind in PieceKind::HAND {
            let n = pos.hand(c).count(kind);
            let (code, len) = kind_code(kind, layout);
            let major = matches!(kind, PieceKind::Bishop | PieceKind::Rook);
            for _ in 0..n {
                if layout == Layout::Hcp && major {
                    // Apery codes a bishop or rook in hand as on the board,
                    // without the promotion bit.
                    bits.push(code | white << len, len + 1);
                } else if kind == PieceKind::Gold {
                    // The leading "occupied" bit is dropped in hand.
                    bits.push(code >> 1 | white << (len - 1), len);
                } else {
                    // ... and the promotion bit, always 0, comes before the colour.
                    bits.push(code >> 1 | white << len, len + 1);
                }
            }
        }
    }
    let count = counts(pos);
    for kind in PieceKind::HAND {
        let (code, len) = box_code(kind, layout);
        for _ in count[kind.index()]..FULL_SET[kind.index()] {
            bits.push(code, len);
        }
    }
    debug_assert_eq!(bits.at, 256);
    bits.bytes
}

/// A 16-bit move as both engines pack it: destination in bits 0–6, origin
/// in bits 7–13, promotion in bit `promote_bit`; for a drop the origin
/// field is `drop_origin` of the kind's [`drop_number`].
pub(crate) fn move16(mv: Move, promote_bit: u32, drop_origin: impl Fn(u16) -> u16) -> u16 {
    match mv {
        Move::Normal { from, to, promote } => {
            to.index() as u16 | (from.index() as u16) << 7 | u16::from(promote) << promote_bit
        }
        Move::Drop { kind, to } => to.index() as u16 | drop_origin(drop_number(kind)) << 7,
    }
}

/// The number both formats give a kind dropped (P L N S B R G = 1..7).
fn drop_number(kind: PieceKind) -> u16 {
    match kind {
        PieceKind::Pawn => 1,
        PieceKind::Lance => 2,
        PieceKind::Knight => 3,
        PieceKind::Silver => 4,
        PieceKind::Bishop => 5,
        PieceKind::Rook => 6,
        _ => 7,
    }
}

/// One position of the main line with what is learnt from it.
pub(crate) struct Sample<'a> {
    /// The position before the move.
    pub pos: &'a Position,
    /// The move played from it.
    pub mv: Move,
    /// The eval of the move's record entry, from the side to move's view,
    /// clamped to ±32767; 0 when the record has none.
    pub eval: i16,
}

/// The game's result: the winner, or `None` for a draw. `Err` when the
/// game has no result a label can say (interrupted, unfinished).
pub(crate) fn label(game: &Game) -> Result<Option<Color>, ()> {
    let r = &game.main.result;
    match r.winner {
        Some(w) => Ok(Some(w)),
        None if r.reason.is_draw() => Ok(None),
        None => Err(()),
    }
}

/// Call `each` on every position of the main line that has a legal move
/// after it, in order. Returns the warnings: nothing is written (and
/// `each` is never called) for a game with no result or whose pieces
/// cannot be coded.
pub(crate) fn walk(game: &Game, mut each: impl FnMut(&Sample<'_>)) -> Vec<Warning> {
    let mut warnings = Vec::new();
    if label(game).is_err() {
        warnings.push(Warning {
            code: WarningCode::ResultUnknown,
            message: format!(
                "the game has no result ({}) to label its positions with: no position written",
                game.main.result.reason
            ),
        });
        return warnings;
    }
    if !codable(&game.start) {
        warnings.push(Warning {
            code: WarningCode::PositionNotEncodable,
            message: "the start position lacks a king or holds more of a kind \
                      than a game of shogi has: no position written"
                .to_string(),
        });
        return warnings;
    }
    let mut pos = game.start.clone();
    let mut clamped = 0usize;
    for (i, p) in game.main.plies.iter().enumerate() {
        let mover_view = game
            .record
            .main
            .moves
            .get(i)
            .and_then(|e| super::pv::mover_score(e, p.color))
            .unwrap_or(0);
        let eval = mover_view.clamp(-32767, 32767);
        clamped += usize::from(eval != mover_view);
        each(&Sample {
            pos: &pos,
            mv: p.mv,
            eval: eval as i16,
        });
        // The replayer keeps only plies that `play_checked` accepted.
        pos.play_safe(p.mv);
    }
    if clamped > 0 {
        warnings.push(Warning {
            code: WarningCode::EvalClamped,
            message: format!("{clamped} eval(s) beyond ±32767 written as ±32767"),
        });
    }
    warnings.extend(super::main_line_only(game));
    warnings
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(bytes: &[u8]) -> String {
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Each position's bytes as cshogi 0.9 writes them (`Board.to_hcp`,
    /// `Board.to_psfen`): the python tests check the same for every
    /// fixture, these keep the Rust side honest without python.
    #[test]
    fn handicaps_and_diagrams_code_the_missing_pieces_as_cshogi_does() {
        let cases = [
            (
                // Two-piece handicap: the rook and bishop are in the box.
                "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
                "59a449210c9742fc1c9b42585e85f0288457213c9b42582e85f8382685303c5e",
                "59a451220cab44fc2ca744385e89f0488457223ca744385689f858468930bc7e",
            ),
            (
                // Kings alone on the board, a few pieces in each hand.
                "4k4/9/9/9/9/9/9/9/4K4 b RGPrgp 1",
                "582400000000000000000000ce8ff72f499224499294524a6badd55a6bbd3f1e",
                "582400000000000000000000ce87f72b499224499294524aadb5b6d65a7bbf5e",
            ),
            (
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
                "59a449210cd757217e8e4d212caf427814c2ab109e4d112cd75f213e8e49210c",
                "59a451220ceb67227e9653221caf447824c22b119e53121ceb6f223e9651220c",
            ),
        ];
        for (sfen, hcp, psv) in cases {
            let pos = Position::from_sfen(sfen).unwrap();
            assert!(codable(&pos), "{sfen}");
            assert_eq!(hex(&encode(&pos, Layout::Hcp)), hcp, "{sfen}");
            assert_eq!(hex(&encode(&pos, Layout::PackedSfen)), psv, "{sfen}");
        }
    }

    /// Each move as dlshogi's `move16` and YaneuraOu's `Move16` read it:
    /// destination in bits 0–6, origin in bits 7–13; dlshogi's drop
    /// origin is 80 plus the kind's number and its promotion bit 14,
    /// YaneuraOu's drop sets bit 14 and its promotion is bit 15.
    #[test]
    fn move16_puts_origin_destination_drop_and_promotion_where_each_reader_reads_them() {
        // 7g is (7-1)*9+6 = 60, 7f is 59; 8h 70, 2b 10; 5b 37, 5e 40.
        for (usi, hcpe, psv) in [
            ("7g7f", 59 | 60 << 7, 59 | 60 << 7),
            ("8h2b+", 10 | 70 << 7 | 1 << 14, 10 | 70 << 7 | 1 << 15),
            ("G*5b", 37 | 87 << 7, 37 | 7 << 7 | 1 << 14),
            ("P*5e", 40 | 81 << 7, 40 | 1 << 7 | 1 << 14),
        ] {
            let mv = Move::from_usi(usi).unwrap();
            assert_eq!(crate::emit::hcpe::move16(mv), hcpe, "{usi}");
            assert_eq!(crate::emit::psv::move16(mv), psv, "{usi}");
        }
    }

    #[test]
    fn a_missing_king_or_a_piece_too_many_cannot_be_coded() {
        // A one-king problem needs 257 bits; a nineteenth pawn has no place.
        for sfen in [
            "4k4/9/9/9/9/9/9/9/9 b 2r2b4g4s4n4l18p 1",
            "4k4/9/9/9/9/9/9/PPPPPPPPP/4K4 b 10P 1",
        ] {
            let setup = crate::rules::setup::Setup::from_sfen(sfen).unwrap();
            let (pos, _) = Position::from_setup_lenient(&setup).unwrap();
            assert!(!codable(&pos), "{sfen}");
        }
    }
}
