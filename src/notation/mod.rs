//! Notation beside the position: the names each record format gives
//! sides, pieces, squares, moves, positions (SFEN) and handicaps, and the
//! move text written against a position. `rules` holds the game and no
//! notation; readers and writers take their names from here.

pub mod chu;
pub mod handicap;
mod move_text;
mod pieces;
pub mod sfen;
mod usi;

pub use move_text::*;
pub use pieces::{kanji_digit, zenkaku_digit};
