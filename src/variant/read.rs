//! One door for a variant record's text: which variant and format it is
//! (named, or sniffed from its KIF 手合割, its SFEN or its `setoption name
//! UCI_Variant` line), its games read and replayed; and each game as the
//! JSON object `kifu check --json` prints for it.

use super::replay::{VariantGame, replay};
use super::{Variant, fitting};
use crate::emit::variant::{kif_writable, moves_usi};
use crate::error::ParseError;
use crate::parse::ja::header::header_line;
use crate::parse::{kif, lines, usi};
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
    if let Some(v) = sniff_kif(text) {
        return Some(Ok((v, Format::Kif)));
    }
    sniff_usi(text).map(|r| r.map(|v| (v, Format::Usi)))
}

/// The variant a KIF text's `手合割` names, if it names one of the family;
/// or chu shogi, whose lishogi KIF names none, by its move lines
/// (`   1手目   7七金将 （←7八）`).
fn sniff_kif(text: &str) -> Option<Variant> {
    let named = lines(text)
        .take(40)
        .filter_map(|l| header_line(l.text))
        .find(|(k, _)| *k == "手合割")
        .and_then(|(_, v)| Variant::from_kanji(v));
    named.or_else(|| {
        lines(text)
            .take(300)
            .any(|l| {
                kif::writes_chu_move(l.text) || l.text.trim_start().starts_with("１２ １１ １０")
            })
            .then_some(Variant::Chu)
    })
}

/// Which variant of the family a USI text holds, when it is not modern
/// shogi: `None` for modern shogi (or not USI at all), `Err` when no
/// variant is named and the first SFEN fits several.
fn sniff_usi(text: &str) -> Option<Result<Variant, String>> {
    for line in lines(text) {
        let t = line.text.trim();
        if let Some(name) = t.strip_prefix("setoption name UCI_Variant value ") {
            let name = name.trim();
            return match Variant::from_name(name) {
                Some(Variant::Shogi) => None,
                Some(v) => Some(Ok(v)),
                None => Some(Err(format!("unknown UCI_Variant {name:?}"))),
            };
        }
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let body = t.strip_prefix("position ").unwrap_or(t).trim_start();
        let body = body.strip_prefix("sfen ").unwrap_or(body);
        if body.starts_with("startpos") {
            return None;
        }
        let sfen: String = body
            .split_whitespace()
            .take_while(|w| *w != "moves")
            .collect::<Vec<_>>()
            .join(" ");
        let fits = fitting(&sfen);
        return match fits[..] {
            [] => None,
            [v] if v != Variant::Shogi => Some(Ok(v)),
            // A 9×9 board without an elephant is read as modern shogi,
            // as it always was; sho shogi must then be named.
            _ if fits.contains(&Variant::Shogi) => None,
            _ => Some(Err(format!(
                "the SFEN fits {}: the variant must be named",
                fits.iter()
                    .map(|v| v.name())
                    .collect::<Vec<_>>()
                    .join(" and ")
            ))),
        };
    }
    None
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
    if format == Format::Kif && !kif_writable(variant) {
        return Err(ReadError::NoKifForm(variant));
    }
    let records = match format {
        Format::Kif => kif::parse_variant(text, variant),
        _ => usi::parse_variant(text, variant),
    }
    .map_err(ReadError::Parse)?;
    // Both readers start every record on the variant's board.
    let games = records.into_iter().filter_map(|r| replay(r).ok()).collect();
    Ok((format, games))
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
        "start": g.start.to_sfen(),
        "plies": g.plies.len(),
        "moves": moves_usi(g),
        "verdict": verdict,
        "result": {"winner": g.winner.map(|c| c.name()), "reason": g.reason.code()},
        "diagnostics": diagnostics,
    })
}
