//! `--to hcpe`: dlshogi's `HuffmanCodedPosAndEval`, 38 bytes a position:
//! the position (`HuffmanCodedPos`, 32 bytes), `eval` (i16), `bestMove16`
//! (u16), `gameResult` (u8) and one byte of padding, little-endian.
//!
//! One record per position of the main line that a legal move left, with
//! that move as the best move; `docs/training.md` says what is written
//! where the record has no eval, and for fouls and draws.

use crate::emit::Warning;
use crate::emit::packed::{self, Layout, encode, label, walk};
use crate::replay::Game;
use crate::rules::types::{Color, Move};

/// Bytes a position.
pub const RECORD_BYTES: usize = 38;

/// dlshogi's `move16`: destination in bits 0–6, origin in bits 7–13 (for
/// a drop, 80 plus the kind's number: P L N S B R G = 1..7), promotion in
/// bit 14.
pub fn move16(mv: Move) -> u16 {
    packed::move16(mv, 14, |n| 80 + n)
}

/// The records of one game, and what could not be written.
pub fn write(game: &Game) -> (Vec<u8>, Vec<Warning>) {
    let mut out = Vec::with_capacity(game.main.plies.len() * RECORD_BYTES);
    // dlshogi's GameResult: 0 draw, 1 sente (black) won, 2 gote won.
    let result = match label(game) {
        Ok(Some(Color::Sente)) => 1u8,
        Ok(Some(Color::Gote)) => 2,
        _ => 0,
    };
    let warnings = walk(game, |s| {
        out.extend_from_slice(&encode(s.pos, Layout::Hcp));
        out.extend_from_slice(&s.eval.to_le_bytes());
        out.extend_from_slice(&move16(s.mv).to_le_bytes());
        out.push(result);
        out.push(0);
    });
    (out, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::{ReplayOptions, replay};

    #[test]
    fn a_game_without_a_result_writes_nothing_and_says_so() {
        let rec =
            crate::emit::read_for_test("position startpos moves 7g7f 3c3d", crate::Format::Usi)
                .remove(0);
        let g = replay(rec, &ReplayOptions::default()).unwrap();
        let (bytes, w) = write(&g);
        assert!(bytes.is_empty());
        assert_eq!(w[0].code, "result-unknown");
    }
}
