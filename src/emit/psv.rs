//! `--to psv`: YaneuraOu's `PackedSfenValue`, 40 bytes a position: the
//! position (`PackedSfen`, 32 bytes), `score` (i16), `move` (u16),
//! `gamePly` (u16), `game_result` (i8) and one byte of padding,
//! little-endian.
//!
//! One record per position of the main line that a legal move left, with
//! that move; the score and the result are from the side to move's view
//! (`docs/training.md`).

use crate::emit::Warning;
use crate::emit::packed::{self, Layout, encode, label, walk};
use crate::replay::Game;
use crate::rules::types::Move;

/// Bytes a position.
pub const RECORD_BYTES: usize = 40;

/// YaneuraOu's `Move16`: destination in bits 0–6, origin in bits 7–13 (for
/// a drop, the kind's number, P L N S B R G = 1..7, with bit 14 set),
/// promotion in bit 15.
pub fn move16(mv: Move) -> u16 {
    packed::move16(mv, 15, |n| n | 1 << 7)
}

/// The records of one game, and what could not be written.
pub fn write(game: &Game) -> (Vec<u8>, Vec<Warning>) {
    let mut out = Vec::with_capacity(game.main.plies.len() * RECORD_BYTES);
    let winner = label(game).ok().flatten();
    let warnings = walk(game, |s| {
        let mover = s.pos.side_to_move();
        let result: i8 = match winner {
            Some(w) if w == mover => 1,
            Some(_) => -1,
            None => 0,
        };
        // gamePly is the position's move number, as a SFEN counts it.
        let ply = u16::try_from(s.pos.move_number()).unwrap_or(u16::MAX);
        out.extend_from_slice(&encode(s.pos, Layout::PackedSfen));
        out.extend_from_slice(&s.eval.to_le_bytes());
        out.extend_from_slice(&move16(s.mv).to_le_bytes());
        out.extend_from_slice(&ply.to_le_bytes());
        out.extend_from_slice(&result.to_le_bytes());
        out.push(0);
    });
    (out, warnings)
}
