//! Writers: replayed games out, in every format kifu writes.

use crate::codes::WarningCode;

pub mod bod;
pub mod csa;
pub mod diagram;
pub mod hcpe;
pub mod jkf;
pub mod json;
mod kakinoki;
pub mod ki2;
pub mod kif;
mod packed;
pub mod psv;
mod pv;
pub use pv::{of as eval_and_pv, score as eval_score};
pub mod sfen;
pub mod sjis;
pub mod svg;
pub mod usi;
pub mod variant;

mod target;
pub use target::{JsonSource, Target, write};

/// The warning of a writer that writes only the main line (one line per
/// position: SFEN, HCPE, PSV), when the game has variations.
pub(crate) fn main_line_only(game: &crate::replay::Game) -> Option<Warning> {
    let recorded = game.recorded_variations();
    (recorded > 0).then(|| Warning {
        code: WarningCode::VariationsDropped,
        message: format!("{recorded} variation(s) are not written: only the main line"),
    })
}

/// Something the target format could not hold, or had to change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// What kind of loss or change; [`WarningCode::code`] is the stable
    /// string (`variations-dropped`, …).
    pub code: WarningCode,
    /// Explanation.
    pub message: String,
}

/// The records `text` holds as `format`, read through the library's front
/// door ([`crate::read_bytes`]), as a writer's user reads them: the
/// writers' tests start from text.
#[cfg(test)]
pub(crate) fn read_for_test(text: &str, format: crate::Format) -> Vec<crate::Record> {
    let opts = crate::ReadOptions {
        from: Some(format),
        ..Default::default()
    };
    match crate::read_bytes(text.as_bytes(), None, &opts) {
        Ok(input) if input.failed.is_empty() => input.records,
        Ok(input) => panic!("{}\n{text}", input.failed[0].1),
        Err(e) => panic!("{e}\n{text}"),
    }
}
