//! Collections of games: what makes two records the same game, told apart
//! in a small, fixed amount of memory per game.
//!
//! A [`GameKey`] is a game reduced to hashes: its start position (board,
//! hands and side to move, not the move number), its main line, and the
//! line's prefixes at a few lengths. [`Groups`] takes the keys of a whole
//! collection and finds the games that are the same game (same start, same
//! main line) and those whose main line is a prefix of another's (a
//! truncated copy). Headers, comments, times, the format and the encoding
//! play no part: a game read from KIF, CSA or JKF has one key.
//!
//! A [`Filter`] says which games of a collection to keep, by their header
//! and their play.
//!
//! ```
//! use kifu::collection::GameKey;
//! use kifu::{Format, ReplayOptions, parse, replay};
//!
//! let key = |text: &str, format| {
//!     let record = parse::parse(text, format).unwrap().remove(0);
//!     GameKey::of(&replay(record, &ReplayOptions::default()).unwrap())
//! };
//! let usi = key("position startpos moves 7g7f 3c3d\n", Format::Usi);
//! let csa = key("N+Habu\nPI\n+\n+7776FU,T10\n-3334FU\n%TORYO\n", Format::Csa);
//! let kif = key("手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n", Format::Kif);
//! assert_eq!(usi, csa);
//! assert_eq!(usi, kif);
//! ```

mod explore;
mod filter;
mod groups;
mod key;
mod pattern;

pub use explore::{Node, Tree};
pub use filter::{
    Filter, HandicapFilter, Outcome, Range, fold, outcome, plies_at, ratings, start_date,
};
pub use groups::{Group, Groups, KeepPolicy, Relation};
pub use key::{ANCHORS, GameKey, information, move_code, position_after, prefix_hashes, step};
pub use pattern::{Pattern, PatternError};
