//! kifu reads shogi game records (KIF, KI2, CSA, USI/SFEN, JKF), replays every
//! move against the full rules of shogi, and writes them back out.
//!
//! The data flow is the architecture: bytes → [`decode`] → [`parse`] (syntax
//! only) → [`Record`] → [`replay`] (legality, repetition, endings) → `emit`.
#![warn(missing_docs)]

pub mod decode;
pub mod error;
pub mod parse;
pub mod record;
pub mod rule;
pub mod setup;
pub mod types;

pub use error::{Error, ErrorKind, ParseError};
pub use record::{Format, Record};
pub use rule::Rule;
pub use setup::{Handicap, Setup};
pub use types::{Color, Hand, Move, Piece, PieceKind, Square};
