//! Bytes to text: which encoding a record file is in.
//!
//! Record files come in UTF-8 (with or without BOM), Shift_JIS (really CP932)
//! and, rarely, EUC-JP. Declarations inside the file (`#KIF … encoding=`,
//! `'CSA encoding=`) are honoured only when the bytes agree with them: the
//! corpus holds a Shift_JIS file that declares UTF-8.

use crate::error::{DecodeError, Error, ErrorKind};
use encoding_rs::{EUC_JP, Encoding, SHIFT_JIS, UTF_8};
use std::fmt;

/// Something decoding met that the user should be told: the text was read,
/// but not exactly as the bytes or the file said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeWarning {
    /// The file declares an encoding its bytes are not valid in; the
    /// encoding was detected instead.
    FalseDeclaration {
        /// The encoding the file names.
        declared: &'static Encoding,
    },
    /// Byte sequences no candidate encoding reads, replaced with U+FFFD.
    Replaced {
        /// The encoding used anyway.
        encoding: &'static Encoding,
        /// How many were replaced.
        count: usize,
        /// The line and column (1-based, in characters) of the first.
        first: Option<(u32, u32)>,
    },
}

impl fmt::Display for DecodeWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            DecodeWarning::FalseDeclaration { declared } => write!(
                f,
                "the file declares encoding {} but is not valid {}; detecting instead",
                declared.name(),
                declared.name()
            ),
            DecodeWarning::Replaced {
                encoding,
                count,
                first,
            } => {
                write!(
                    f,
                    "{count} byte sequence(s) are not valid {}; replaced with U+FFFD",
                    encoding.name()
                )?;
                match first {
                    Some((line, column)) => write!(f, " (the first at {line}:{column})"),
                    None => Ok(()),
                }
            }
        }
    }
}

/// Decoded text and how it was decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// The text, without a byte-order mark.
    pub text: String,
    /// The encoding the text was decoded from.
    pub encoding: &'static Encoding,
    /// Things the caller should tell the user: a false declaration, or bytes
    /// that no candidate encoding could decode (replaced by U+FFFD).
    pub warnings: Vec<DecodeWarning>,
}

/// The encoding a user-supplied label names (`utf-8`, `shift_jis`, `sjis`,
/// `cp932`, `euc-jp`, and every WHATWG label), case-insensitively.
pub fn encoding_by_label(label: &str) -> Option<&'static Encoding> {
    let l = label.trim().to_ascii_lowercase();
    match l.as_str() {
        // WHATWG's Shift_JIS is the CP932 superset, so these all mean one decoder.
        "sjis" | "cp932" | "ms932" | "windows-31j" | "shift-jis" => Some(SHIFT_JIS),
        "utf8" => Some(UTF_8),
        "eucjp" => Some(EUC_JP),
        _ => Encoding::for_label(l.as_bytes()),
    }
}

/// Decode a record file.
///
/// Order: `forced`; a byte-order mark; an in-file declaration that the bytes
/// honour; valid UTF-8; whichever of Shift_JIS and EUC-JP decodes cleanly
/// (Shift_JIS on a tie unless the text reads far better as EUC-JP). When no
/// encoding decodes cleanly the best one is used with replacement characters
/// and a warning, so nothing is dropped silently.
pub fn decode(bytes: &[u8], forced: Option<&'static Encoding>) -> Result<Decoded, Error> {
    let mut warnings = Vec::new();
    // No record format uses NUL; without this check a binary file decodes
    // "lossily" into notes and passes as an empty, legal game. UTF-16 (the
    // only text with NULs) is recognised by its byte-order mark.
    let is_utf16 = |e: &'static Encoding| e == encoding_rs::UTF_16LE || e == encoding_rs::UTF_16BE;
    let utf16 =
        forced.is_some_and(is_utf16) || Encoding::for_bom(bytes).is_some_and(|(e, _)| is_utf16(e));
    if !utf16 && let Some(at) = memchr::memchr(0, bytes) {
        return Err(Error::new(ErrorKind::Decode(DecodeError::Binary {
            offset: at,
        })));
    }
    if let Some(enc) = forced {
        let body = if enc == UTF_8 {
            bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
        } else {
            bytes
        };
        return Ok(strict_or_lossy(enc, body, warnings));
    }
    if let Some((enc, bom_len)) = Encoding::for_bom(bytes) {
        let body = &bytes[bom_len..];
        return Ok(strict_or_lossy(enc, body, warnings));
    }
    if let Some(enc) = declared(bytes) {
        if let Some(text) = strict(enc, bytes) {
            return Ok(Decoded {
                text,
                encoding: enc,
                warnings,
            });
        }
        warnings.push(DecodeWarning::FalseDeclaration { declared: enc });
    }
    // encoding_rs validates UTF-8 several bytes at a time; the standard
    // library's check costs about ten instructions a byte on Japanese text.
    if let Some(s) = UTF_8.decode_without_bom_handling_and_without_replacement(bytes) {
        return Ok(Decoded {
            text: s.into_owned(),
            encoding: UTF_8,
            warnings,
        });
    }
    let sjis = strict(SHIFT_JIS, bytes);
    let euc = strict(EUC_JP, bytes);
    let pick = match (sjis, euc) {
        (Some(s), Some(e)) => {
            if oddness(&e) < oddness(&s) {
                Some((e, EUC_JP))
            } else {
                Some((s, SHIFT_JIS))
            }
        }
        (Some(s), None) => Some((s, SHIFT_JIS)),
        (None, Some(e)) => Some((e, EUC_JP)),
        (None, None) => None,
    };
    if let Some((text, encoding)) = pick {
        return Ok(Decoded {
            text,
            encoding,
            warnings,
        });
    }
    // Nothing is clean: take the candidate that needs the fewest replacements.
    let best = [UTF_8, SHIFT_JIS, EUC_JP]
        .into_iter()
        .min_by_key(|enc| {
            let (t, _) = enc.decode_without_bom_handling(bytes);
            t.chars().filter(|&c| c == '\u{FFFD}').count()
        })
        .unwrap_or(UTF_8);
    let d = lossy(best, bytes, warnings);
    if d.text.is_empty() && !bytes.is_empty() {
        return Err(Error::new(ErrorKind::Decode(DecodeError::NoText)));
    }
    Ok(d)
}

/// Whether `bytes` are ASCII with no NUL: text every ASCII-compatible
/// encoding reads the same, so a game of a streamed file needs no decoding.
/// NUL is left to [`decode`], which refuses binary data as a whole read does.
pub fn is_plain_ascii(bytes: &[u8]) -> bool {
    bytes.is_ascii() && memchr::memchr(0, bytes).is_none()
}

/// Decode one game of a multi-game file, the game that starts on line
/// `line`, in `known`, the encoding the file was found (or `forced`) to be
/// in. A game that does not read cleanly in an encoding only guessed from
/// the earlier games is detected on its own, as a whole read of that game
/// would be.
///
/// # Errors
///
/// As [`decode`], the cause inside [`DecodeError::InGame`] naming the
/// game's line: the streamers stop at such a game, and say where.
pub fn decode_in_file(
    bytes: &[u8],
    known: Option<&'static Encoding>,
    forced: bool,
    line: u32,
) -> Result<Decoded, Error> {
    let decoded = match decode(bytes, known) {
        Ok(d) if !forced && known.is_some() && !d.warnings.is_empty() => decode(bytes, None),
        other => other,
    };
    decoded.map_err(|e| match e.kind() {
        ErrorKind::Decode(cause) => Error::new(ErrorKind::Decode(DecodeError::InGame {
            line,
            cause: Box::new(cause.clone()),
        })),
        _ => e,
    })
}

fn strict(enc: &'static Encoding, bytes: &[u8]) -> Option<String> {
    enc.decode_without_bom_handling_and_without_replacement(bytes)
        .map(|c| c.into_owned())
}

/// `body` in `enc`: strictly where it decodes cleanly, else with
/// replacement characters and a warning saying where.
fn strict_or_lossy(enc: &'static Encoding, body: &[u8], warnings: Vec<DecodeWarning>) -> Decoded {
    match strict(enc, body) {
        Some(text) => Decoded {
            text,
            encoding: enc,
            warnings,
        },
        None => lossy(enc, body, warnings),
    }
}

fn lossy(enc: &'static Encoding, bytes: &[u8], mut warnings: Vec<DecodeWarning>) -> Decoded {
    let (text, _) = enc.decode_without_bom_handling(bytes);
    let count = text.chars().filter(|&c| c == '\u{FFFD}').count();
    // Say where the first one is, so the damage can be found in the file.
    let first = text.find('\u{FFFD}').map(|i| {
        let before = &text[..i];
        let line = before.matches('\n').count() + 1;
        let column = before[before.rfind('\n').map_or(0, |n| n + 1)..]
            .chars()
            .count()
            + 1;
        (line as u32, column as u32)
    });
    warnings.push(DecodeWarning::Replaced {
        encoding: enc,
        count,
        first,
    });
    Decoded {
        text: text.into_owned(),
        encoding: enc,
        warnings,
    }
}

/// The encoding a leading `#KIF … encoding=X` or `'CSA encoding=X` line names.
/// Only the first few lines are looked at: the declaration must come first.
fn declared(bytes: &[u8]) -> Option<&'static Encoding> {
    for line in bytes.split(|&b| b == b'\n' || b == b'\r').take(5) {
        let is_decl = line.starts_with(b"#KIF") || line.starts_with(b"'CSA");
        if !is_decl {
            continue;
        }
        let pos = line.windows(9).position(|w| w == b"encoding=")?;
        let label: Vec<u8> = line[pos + 9..]
            .iter()
            .copied()
            .take_while(|b| !b.is_ascii_whitespace())
            .collect();
        return encoding_by_label(std::str::from_utf8(&label).ok()?);
    }
    None
}

/// How unlike a Japanese record a decoding looks. EUC-JP bytes read as
/// Shift_JIS turn into half-width katakana and rare kanji pairs, so the count
/// of half-width katakana and private-use characters separates the two.
fn oddness(text: &str) -> usize {
    text.chars()
        .filter(|&c| matches!(c, '\u{FF61}'..='\u{FF9F}' | '\u{E000}'..='\u{F8FF}'))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    const KIF: &str = "手合割：平手\n   1 ７六歩(77)\n";

    fn sjis(s: &str) -> Vec<u8> {
        SHIFT_JIS.encode(s).0.into_owned()
    }

    #[test]
    fn forced_encoding_wins() {
        let d = decode(&sjis(KIF), Some(SHIFT_JIS)).unwrap();
        assert_eq!(d.text, KIF);
        assert!(d.warnings.is_empty());
        // Forcing the wrong one still returns text, with a warning.
        let d = decode(&sjis(KIF), Some(UTF_8)).unwrap();
        assert!(d.text.contains('\u{FFFD}'));
        let [
            DecodeWarning::Replaced {
                encoding,
                count,
                first,
            },
        ] = d.warnings[..]
        else {
            panic!("{:?}", d.warnings)
        };
        assert_eq!((encoding, first), (UTF_8, Some((1, 1))));
        assert_eq!(count, d.text.matches('\u{FFFD}').count());
        assert!(
            d.warnings[0]
                .to_string()
                .starts_with(&format!("{count} byte sequence(s) are not valid UTF-8"))
        );
    }

    #[test]
    fn utf8_bom_is_dropped() {
        let mut b = b"\xEF\xBB\xBF".to_vec();
        b.extend_from_slice(KIF.as_bytes());
        let d = decode(&b, None).unwrap();
        assert_eq!(d.text, KIF);
        assert_eq!(d.encoding, UTF_8);
    }

    /// A Shift_JIS KIF that declares `declared`, decoded: whatever it
    /// declares, it must come back whole as Shift_JIS.
    fn sjis_kif_declaring(declared: &str) -> Decoded {
        let text = format!("#KIF version=2.0 encoding={declared}\n{KIF}");
        let d = decode(&sjis(&text), None).unwrap();
        assert_eq!(d.encoding, SHIFT_JIS);
        assert_eq!(d.text, text);
        d
    }

    #[test]
    fn honest_declaration_is_used() {
        sjis_kif_declaring("Shift_JIS");
        let csa = "'CSA encoding=UTF-8\nV3.0\n";
        assert_eq!(decode(csa.as_bytes(), None).unwrap().encoding, UTF_8);
    }

    #[test]
    fn lying_declaration_falls_back() {
        let d = sjis_kif_declaring("UTF-8");
        assert_eq!(
            d.warnings,
            [DecodeWarning::FalseDeclaration { declared: UTF_8 }],
            "{:?}",
            d.warnings
        );
    }

    #[test]
    fn content_detection() {
        assert_eq!(decode(KIF.as_bytes(), None).unwrap().encoding, UTF_8);
        assert_eq!(decode(&sjis(KIF), None).unwrap().encoding, SHIFT_JIS);
        let euc = EUC_JP
            .encode("先手：羽生善治\n後手：藤井聡太\n手合割：平手")
            .0;
        let d = decode(&euc, None).unwrap();
        assert_eq!(d.encoding, EUC_JP);
        assert!(d.text.contains("羽生善治"));
        assert_eq!(decode(b"", None).unwrap().text, "");
    }

    #[test]
    fn undecodable_bytes_are_replaced_with_a_warning() {
        let d = decode(b"abc\x81\xFF\x80\xFF", None).unwrap();
        assert!(d.text.starts_with("abc"));
        assert!(d.text.contains('\u{FFFD}'));
        assert!(!d.warnings.is_empty());
    }

    #[test]
    fn nul_bytes_are_binary_unless_utf16() {
        let e = decode(b"startpos\0moves", None).unwrap_err();
        assert!(
            matches!(
                e.kind(),
                ErrorKind::Decode(DecodeError::Binary { offset: 8 })
            ),
            "{e:?}"
        );
        assert_eq!(
            e.to_string(),
            "cannot decode: binary data (a NUL byte at byte offset 8): not a text record"
        );
        let utf16 = b"\xff\xfes\x00t\x00";
        assert_eq!(decode(utf16, None).unwrap().text, "st");
    }

    #[test]
    fn labels() {
        for (l, e) in [
            ("utf-8", UTF_8),
            ("UTF8", UTF_8),
            ("shift_jis", SHIFT_JIS),
            ("sjis", SHIFT_JIS),
            ("cp932", SHIFT_JIS),
            ("euc-jp", EUC_JP),
        ] {
            assert_eq!(encoding_by_label(l), Some(e), "{l}");
        }
        assert_eq!(encoding_by_label("klingon"), None);
    }
}
