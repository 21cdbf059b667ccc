//! Whether a text that parsed is a record at all.
//!
//! The KIF, KI2 and JKF readers are lenient by design: KIF keeps any line it
//! does not know as a note, and JKF reads any JSON object. So an HTML page
//! saved as `.kif`, a `Cargo.toml` renamed `.ki2` or `{}` saved as `.jkf`
//! parse without an error into a record of nothing, which would then be
//! reported as a legal game of 0 plies. A text is a record only if at least
//! one element of a record is found in it: a header key of its format, a
//! start position, a move or an ending.

use crate::parse::lines;
use crate::record::{Format, HeaderKey, Location, Record, SPELLINGS};
use std::collections::HashMap;

/// Header keys KIF and KI2 writers use (`kif.md` §3: the kakinoki keys, the
/// ones tsshogi maps to CSA, and those seen in the wild), written with
/// either colon: the KIF names of the header vocabulary
/// ([`SPELLINGS`](crate::record::SPELLINGS)), and these, which have no
/// meaning there. Any other key counts only when it is written the way
/// those formats write keys: no ASCII in it, then the full-width `：`. An
/// ASCII `key:` line is too common in other texts (URLs, `Note: …`).
const OTHER_JA_KEYS: &[&str] = &[
    "秒読み",
    "消費時間",
    "掲載",
    "備考",
    "先手省略名",
    "後手省略名",
    "記録係",
    "作品番号",
    "作品名",
    "作者",
    "発表誌",
    "発表年月",
    "出典",
    "手数",
    "完全性",
    "分類",
    "受賞",
    "対局ID",
    "記録ID",
    "振り駒",
    "昼食休憩",
    // A board diagram's hands: a diagram may come with no header at all.
    "先手の持駒",
    "後手の持駒",
    "下手の持駒",
    "上手の持駒",
];

/// The top-level keys of a JKF object.
const JKF_KEYS: [&str; 3] = ["header", "initial", "moves"];

/// Why a text is not a record: where reading looked (its first line with
/// content) and what it looked for there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotARecord {
    /// The first line with content.
    pub span: Location,
    /// What was looked for, and what was found instead.
    pub reason: String,
}

/// `Ok` when `records`, read from `text` as `format`, hold at least one
/// element of a record; otherwise why not.
pub fn check(text: &str, format: Format, records: &[Record]) -> Result<(), NotARecord> {
    if records.iter().any(|r| has_element(text, format, r)) {
        return Ok(());
    }
    let missing = match format {
        // A JKF record of nothing may still be the empty game a JKF
        // writer produces: `{"header":{},"moves":[{}]}`.
        Format::Jkf if has_jkf_key(text) => return Ok(()),
        Format::Kif if has_kif_move_heading(text) => return Ok(()),
        Format::Jkf => "no JKF key (header, initial or moves)",
        Format::Csa => "no CSA statement (such as V2.2, N+, $EVENT:, PI, +7776FU or %TORYO)",
        Format::Kif | Format::Ki2 => {
            "no header key (such as 手合割 or 先手), board diagram, move or ending"
        }
        Format::Usi => "no position (startpos or an SFEN)",
    };
    Err(refusal(
        text,
        &format!(
            "read as {}, it holds {missing}",
            format.name().to_uppercase()
        ),
    ))
}

/// A text in which no format finds anything: nothing told its format, and
/// no extension either.
pub fn unknown(text: &str) -> NotARecord {
    refusal(
        text,
        "no format's header, position, move or ending is in it (KIF, KI2, CSA, USI, JKF)",
    )
}

fn refusal(text: &str, what: &str) -> NotARecord {
    let (span, first) = first_content(text);
    NotARecord {
        span,
        reason: format!("{what}; the first line is {first:?}"),
    }
}

/// Whether `r` holds a move, an ending, a start position, a `まで` line or a
/// header key of its format.
fn has_element(text: &str, format: Format, r: &Record) -> bool {
    if !r.main.moves.is_empty()
        || r.main.ending.is_some()
        || r.start_span.is_some()
        || !r.summary.is_empty()
    {
        return true;
    }
    match format {
        Format::Kif | Format::Ki2 => r
            .header
            .iter()
            .any(|h| is_ja_header(text, &h.key, h.span.offset)),
        // Every CSA header field is a statement of the format; a USI line
        // always names its start position.
        Format::Csa => !r.header.is_empty(),
        Format::Usi => true,
        Format::Jkf => !r.header.is_empty() || r.start != Default::default(),
    }
}

/// Whether `key` is one of the KIF/KI2 header keys writers use.
pub fn is_ja_key(key: &str) -> bool {
    HeaderKey::from_kif(key).is_some() || OTHER_JA_KEYS.contains(&key)
}

/// Every key [`is_ja_key`] takes.
fn ja_keys() -> impl Iterator<Item = &'static str> {
    SPELLINGS
        .iter()
        .flat_map(|s| s.kif.iter().copied())
        .chain(OTHER_JA_KEYS.iter().copied())
}

/// Whether `line` is a header line with one of those keys. Only the start
/// of the line is looked at: sniffing must not scan a long line for a colon.
pub fn is_ja_key_line(line: &str) -> bool {
    ja_keys().any(|k| {
        line.strip_prefix(k)
            .is_some_and(|rest| rest.starts_with(['：', ':']))
    })
}

/// Whether the header line at byte `offset` of `text`, of key `key`, is
/// written as a KIF/KI2 header (see [`OTHER_JA_KEYS`]).
fn is_ja_header(text: &str, key: &str, offset: usize) -> bool {
    if is_ja_key(key) {
        return true;
    }
    let after = text.get(offset + key.len()..).unwrap_or("");
    key.chars().all(|c| !c.is_ascii()) && after.starts_with('：')
}

/// The `手数----指手----` line that opens KIF's move section.
fn has_kif_move_heading(text: &str) -> bool {
    lines(text).any(|l| l.text.starts_with("手数----"))
}

/// Whether `text` is a JSON object with a JKF top-level key.
fn has_jkf_key(text: &str) -> bool {
    jkf_object(text.trim_start_matches('\u{feff}').as_bytes()) == Some(true)
}

/// For a JSON object: whether it has a JKF top-level key (`header`,
/// `initial`, `moves`); `None` when `bytes` are not valid JSON. The values
/// are skipped, not built.
pub fn jkf_object(bytes: &[u8]) -> Option<bool> {
    serde_json::from_slice::<HashMap<String, serde::de::IgnoredAny>>(bytes)
        .ok()
        .map(|keys| JKF_KEYS.iter().any(|k| keys.contains_key(*k)))
}

/// The span and (shortened) text of the first line that is not blank.
fn first_content(text: &str) -> (Location, String) {
    const SHOWN: usize = 60;
    match lines(text).find(|l| !l.text.trim().is_empty()) {
        Some(l) => {
            let at = l.text.len() - l.text.trim_start().len();
            let mut shown: String = l.text.trim().chars().take(SHOWN).collect();
            if l.text.trim().chars().nth(SHOWN).is_some() {
                shown.push('…');
            }
            (l.span_at(at), shown)
        }
        None => (Location::new(0, 1, 1), String::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    fn verdict(text: &str, format: Format) -> Result<(), NotARecord> {
        check(text, format, &parse(text, format).unwrap())
    }

    #[test]
    fn kif_header_keys_count_when_known_or_written_as_kif_writes_them() {
        assert!(verdict("先手：羽生\n", Format::Kif).is_ok());
        assert!(verdict("先手:羽生\n", Format::Kif).is_ok());
        assert!(verdict("キーワード：値\n", Format::Kif).is_ok());
        assert!(verdict("https://example.com/a.kif\n", Format::Kif).is_err());
        assert!(verdict("<p>エラー：見つかりません</p>\n", Format::Kif).is_err());
    }

    #[test]
    fn refusal_points_at_the_first_line_with_content() {
        let e = verdict("\n\n  hello world\n", Format::Kif).unwrap_err();
        assert_eq!((e.span.line, e.span.column), (3, 3));
        assert!(e.reason.contains("\"hello world\""), "{}", e.reason);
    }

    #[test]
    fn jkf_needs_one_of_its_keys() {
        assert!(verdict("{}", Format::Jkf).is_err());
        assert!(verdict("{\"foo\": 1}", Format::Jkf).is_err());
        assert!(verdict("{\"header\": {}, \"moves\": [{}]}", Format::Jkf).is_ok());
    }
}
