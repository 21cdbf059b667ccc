//! One door for a variant record's text: which variant and format it is
//! (named, or sniffed from its KIF 手合割, its SFEN or its `setoption name
//! UCI_Variant` line), its games read and replayed; and each game as the
//! JSON object `kifu check --json` prints for it.

use super::replay::{VariantGame, replay};
use super::{Variant, kif, usi};
use crate::error::ParseError;
use crate::record::Format;
use std::fmt;

/// Why a text was not read as a variant record.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReadError {
    /// No variant was named and the text shows none.
    NotAVariant,
    /// The text shows no single variant: an unknown `UCI_Variant`, or an
    /// SFEN several variants fit (the reason, in words).
    Unclear(String),
    /// The variant has no KIF form in kifu.
    NoKifForm(Variant),
    /// The text is not a record of its format.
    Parse(ParseError),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::NotAVariant => f.write_str("not a record of a shogi variant"),
            ReadError::Unclear(why) => f.write_str(why),
            ReadError::NoKifForm(v) => write!(f, "{v} has no KIF form in kifu; use USI"),
            ReadError::Parse(e) => write!(f, "{}:{}: {}", e.span.line, e.span.column, e.message),
        }
    }
}

impl std::error::Error for ReadError {}

/// Which variant and format `text` is, if it shows one.
///
/// ```
/// use kifu::variant::{Variant, read};
/// let text = "position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 5d5c\n";
/// assert_eq!(read::sniff(text), Some(Ok((Variant::Mini, kifu::Format::Usi))));
/// assert_eq!(read::sniff("position startpos moves 7g7f\n"), None);
/// ```
pub fn sniff(text: &str) -> Option<Result<(Variant, Format), String>> {
    if let Some(v) = kif::sniff(text) {
        return Some(Ok((v, Format::Kif)));
    }
    usi::sniff(text).map(|r| r.map(|v| (v, Format::Usi)))
}

/// Every game of `text`, read as `variant` (or as the variant it shows)
/// and replayed, with the format it was read in.
pub fn read_text(
    text: &str,
    variant: Option<Variant>,
) -> Result<(Format, Vec<VariantGame>), ReadError> {
    let sniffed = sniff(text);
    // A KIF variant always sniffs as itself: any other text is read as USI.
    let format = match &sniffed {
        Some(Ok((_, f))) => *f,
        _ => Format::Usi,
    };
    let variant = match (variant, sniffed) {
        (Some(v), _) | (None, Some(Ok((v, _)))) => v,
        (None, Some(Err(why))) => return Err(ReadError::Unclear(why)),
        (None, None) => return Err(ReadError::NotAVariant),
    };
    if format == Format::Kif && !kif::writable(variant) {
        return Err(ReadError::NoKifForm(variant));
    }
    let records = match format {
        Format::Kif => kif::parse(text, variant),
        _ => usi::parse(text, variant),
    }
    .map_err(ReadError::Parse)?;
    Ok((format, records.into_iter().map(replay).collect()))
}

/// The JSON object of one game, as `kifu check --json` prints it and
/// `kifu convert --to json` writes it: source, index, format, variant,
/// start SFEN, plies, moves (USI), verdict, result and diagnostics.
pub fn game_json(source: &str, format: Format, g: &VariantGame) -> serde_json::Value {
    let verdict = match &g.foul {
        None => serde_json::json!({"legal": true}),
        Some(f) => serde_json::json!({
            "legal": false,
            "ply": f.ply,
            "rule": f.foul.code(),
            "loser": f.loser.name(),
            "move": f.usi,
            "line": f.span.line,
            "column": f.span.column,
        }),
    };
    let diagnostics: Vec<_> = g
        .diagnostics
        .iter()
        .map(|d| {
            serde_json::json!({
                "code": d.code.code(),
                "message": d.message,
                "line": d.span.map(|s| s.line),
                "column": d.span.map(|s| s.column),
            })
        })
        .collect();
    serde_json::json!({
        "source": source,
        "index": g.record.index,
        "format": format.name(),
        "variant": g.end.variant().name(),
        "start": g.record.start.to_sfen(),
        "plies": g.plies.len(),
        "moves": usi::moves_usi(g),
        "verdict": verdict,
        "result": {"winner": g.winner.map(|c| c.name()), "reason": g.reason.code()},
        "diagnostics": diagnostics,
    })
}
