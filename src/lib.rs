//! kifu reads shogi game records (KIF, KI2, CSA, USI/SFEN, JKF), replays every
//! move against the full rules of shogi, and writes them back out.
//!
//! The data flow is the architecture: bytes → [`decode`] → [`parse`] (syntax
//! only) → [`Record`] → [`replay`](mod@replay) (legality, repetition, endings) → [`emit`].
#![warn(missing_docs)]

mod attacks;
pub mod closing;
pub mod decode;
pub mod emit;
pub mod error;
pub mod input;
mod movegen;
pub mod notation;
pub mod parse;
pub mod position;
pub mod record;
pub mod relative;
pub mod replay;
pub mod report;
pub mod resolve;
pub mod rule;
pub mod setup;
#[cfg(test)]
mod test_rng;
pub mod types;
pub mod variant;
mod zobrist;

pub use error::{Error, ErrorKind, ParseError};
pub use position::{DeclarationRule, Position, PositionError, SetupErrors, SetupIssue};
pub use record::{Format, Record};
pub use replay::{Game, ReplayOptions, replay};
pub use rule::Rule;
pub use setup::{Handicap, Setup};
pub use types::{Color, Hand, Move, Piece, PieceKind, Square};
