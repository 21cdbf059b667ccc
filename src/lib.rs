//! kifu reads shogi game records (KIF, KI2, CSA, USI/SFEN, JKF), replays every
//! move against the full rules of shogi, and writes them back out.
//!
//! An illegal move is not a parse error: it ends the game as hansoku-make
//! (反則負け) for the side that played it, and the verdict says which ply
//! broke which rule.
//!
//! # Example
//!
//! Read a KIF record, replay it, and print the verdict:
//!
//! ```
//! use kifu::{ReadOptions, ReplayOptions, Verdict};
//!
//! let kif = "\
//! 手合割：平手
//! 手数----指手---------消費時間--
//!    1 ２六歩(27)
//!    2 ８四歩(83)
//!    3 ２五歩(26)
//!    4 ８五歩(84)
//!    5 ２四歩(25)
//!    6 同　歩(23)
//!    7 同　飛(28)
//!    8 ３四歩(33)
//!    9 ３六歩打
//! ";
//! let input = kifu::read_bytes(kif.as_bytes(), None, &ReadOptions::default())?;
//! for record in input.records {
//!     let game = kifu::replay(record, &ReplayOptions::default())?;
//!     match &game.main.verdict {
//!         Verdict::Legal => println!("legal: {}", game.main.result.reason),
//!         Verdict::Foul(foul) => {
//!             println!("ply {}: {} ({}), {} loses", foul.ply, foul.rule, foul.detail, foul.loser)
//!         }
//!     }
//!     // The pawn dropped on file 3, where sente already has one: 二歩.
//!     assert!(matches!(&game.main.verdict, Verdict::Foul(f) if f.rule == kifu::Rule::Nifu && f.ply == 9));
//! }
//! # Ok::<(), kifu::Error>(())
//! ```
//!
//! # Where to start
//!
//! * Reading: a [`ReaderBuilder`] gives a [`Reader`] over any
//!   [`std::io::Read`] that detects the format and the encoding and yields
//!   each [`Record`], streaming a large multi-game CSA file one game at a
//!   time; [`read_bytes`] and [`read_path`] give an [`Input`] of records
//!   read whole; [`parse::parse`] reads text already decoded.
//! * Judging: [`replay()`] plays a record against the rules and gives a
//!   [`Game`] with a [`Verdict`], the [`GameResult`](replay::GameResult) and
//!   diagnostics for the main line and every variation.
//! * Writing: [`write()`] writes a [`Game`] in any [`Target`] format, with a
//!   [`Warning`] for whatever the format cannot hold; a [`Writer`] writes
//!   games one after another to any [`std::io::Write`].
//! * The rules engine: [`Position`] (legal moves, [`Position::play`] checks a
//!   move and plays it).
//!
//! The data flow is the architecture: bytes → [`decode`] → [`parse`] (syntax
//! only) → [`Record`] → [`replay`](mod@replay) (legality, repetition, endings) → [`emit`].
//!
//! # Features
//!
//! `cli` (on by default) builds the `kifu` command and pulls in its crates
//! (clap, rayon, indicatif, …). A library user turns it off:
//! `kifu = { version = "0.1", default-features = false }`.
#![warn(missing_docs)]
#![forbid(unsafe_code)]

pub mod codes;
pub mod collection;
pub mod decode;
pub mod emit;
pub mod error;
pub mod input;
pub mod judge;
pub mod names;
pub mod notation;
pub mod opening;
pub mod parse;
pub mod reader;
pub mod record;
pub mod relative;
pub mod replay;
pub mod report;
pub mod resolve;
pub mod rules;
#[cfg(test)]
mod test_rng;
pub mod variant;
pub mod writer;

pub use codes::{DiagnosticCode, Reason, WarningCode};
pub use decode::DecodeWarning;
pub use emit::{JsonSource, Target, Warning, write};
pub use error::{DecodeError, Error, ErrorKind, Hint, ParseError, ParseErrorKind, Partial};
pub use input::{Input, ReadOptions, read_bytes, read_path};
pub use notation::sfen::{PositionError, SfenError};
pub use reader::{ReadWarning, Reader, ReaderBuilder};
pub use record::{Format, Record};
pub use replay::{Game, ReplayOptions, Verdict, replay};
pub use rules::position::{DeclarationOutcome, DeclarationRule, Position, SetupErrors, SetupIssue};
pub use rules::rule::Rule;
pub use rules::setup::{Handicap, Setup};
pub use rules::types::{Color, Hand, Move, Piece, PieceKind, Square};
pub use writer::Writer;
