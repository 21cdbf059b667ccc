//! What the Japanese record formats (KIF and KI2) share besides the
//! variation tree: header lines and 手合割 names, numerals, board diagrams,
//! terminal words, the other line kinds, the tokens of a move, and what
//! their grammars share.

pub(crate) mod board;
pub(crate) mod closing;
pub(crate) mod ending_word;
pub(crate) mod expect;
pub(crate) mod grammar;
pub(crate) mod header;
pub(crate) mod line_kind;
pub(crate) mod numeral;
pub(crate) mod token;
