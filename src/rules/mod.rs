//! The rules engine: the vocabulary of shogi ([`types`]), positions and
//! their legal moves ([`position`]), unchecked set-ups and the standard
//! handicaps ([`setup`]), and the rules a move can break ([`rule`]).
//!
//! Nothing here knows a record format or a game's history: a [`Position`]
//! takes [`Move`]s, and turning written moves into them is the replayer's
//! job ([`crate::resolve`], [`crate::replay`](mod@crate::replay)). The
//! names the formats give pieces, squares, moves, positions (SFEN) and
//! handicaps are [`crate::notation`]'s; the presets here are squares
//! taken off the even game, not text.
//!
//! [`Position`]: position::Position
//! [`Move`]: types::Move

pub(crate) mod attacks;
pub(crate) mod movegen;
pub mod position;
pub mod rule;
pub mod setup;
pub mod types;
pub(crate) mod zobrist;
