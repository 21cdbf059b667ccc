//! Bytes to text: which encoding a record file is in.
//!
//! Record files come in UTF-8 (with or without BOM), Shift_JIS (really CP932)
//! and, rarely, EUC-JP. Declarations inside the file (`#KIF … encoding=`,
//! `'CSA encoding=`) are honoured only when the bytes agree with them: the
//! corpus holds a Shift_JIS file that declares UTF-8.

use crate::error::{Error, ErrorKind};
use encoding_rs::{EUC_JP, Encoding, SHIFT_JIS, UTF_8};
use std::cell::RefCell;
use std::sync::atomic::{AtomicU32, Ordering};

/// Decoded text and how it was decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decoded {
    /// The text, without a byte-order mark.
    pub text: String,
    /// The encoding the text was decoded from.
    pub encoding: &'static Encoding,
    /// Things the caller should tell the user: a false declaration, or bytes
    /// that no candidate encoding could decode (replaced by U+FFFD).
    pub warnings: Vec<String>,
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
    // `contains` is a word-at-a-time search; the byte-wise `position` that
    // finds the offset for the message runs only when there is one.
    if !utf16
        && has_nul(bytes)
        && let Some(at) = bytes.iter().position(|&b| b == 0)
    {
        return Err(Error::new(ErrorKind::Decode(format!(
            "binary data (a NUL byte at byte offset {at}): not a text record"
        ))));
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
        warnings.push(format!(
            "the file declares encoding {} but is not valid {}; detecting instead",
            enc.name(),
            enc.name()
        ));
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
        return Err(Error::new(ErrorKind::Decode(
            "no text could be decoded".into(),
        )));
    }
    Ok(d)
}

/// Whether `b` holds a NUL byte. No early exit inside a 64-byte block, so
/// the compiler compares sixteen bytes an instruction; `contains` takes
/// about one instruction a byte, and every byte of every file passes here.
fn has_nul(b: &[u8]) -> bool {
    let mut blocks = b.chunks_exact(64);
    for block in &mut blocks {
        if block.iter().fold(false, |nul, &c| nul | (c == 0)) {
            return true;
        }
    }
    blocks.remainder().contains(&0)
}

fn strict(enc: &'static Encoding, bytes: &[u8]) -> Option<String> {
    if enc == SHIFT_JIS {
        return sjis_strict(bytes);
    }
    enc.decode_without_bom_handling_and_without_replacement(bytes)
        .map(|c| c.into_owned())
}

/// Shift_JIS two-byte characters met so far, by lead and trail byte: the
/// UTF-8 bytes in the low three bytes and their count in the top one, 0
/// while unknown. Each is filled from encoding_rs's own decoding of the
/// pair, so it can only agree with it; a record uses a few dozen characters.
static SJIS_PAIRS: [AtomicU32; 0x80 << 8] = [const { AtomicU32::new(0) }; 0x80 << 8];

/// The character that `lead` (0x80 or above) and `trail` make, as
/// [`SJIS_PAIRS`] holds it; `None` when they are no two-byte character.
/// Bytes that lead no pair (0x80, half-width kana, 0xFD..) need no test
/// of their own: encoding_rs reads them as one character, or as none, and
/// their slots stay 0.
#[inline]
fn sjis_pair(lead: u8, trail: u8) -> Option<u32> {
    let slot = &SJIS_PAIRS[(usize::from(lead & 0x7F) << 8) | usize::from(trail)];
    // Relaxed: a slot holds a value that stands alone, and two threads that
    // fill it at once write the same one.
    match slot.load(Ordering::Relaxed) {
        0 => sjis_fill(slot, lead, trail),
        known => Some(known),
    }
}

#[cold]
fn sjis_fill(slot: &AtomicU32, lead: u8, trail: u8) -> Option<u32> {
    let pair = [lead, trail];
    let text = SHIFT_JIS.decode_without_bom_handling_and_without_replacement(&pair)?;
    let mut chars = text.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else {
        return None;
    };
    let mut utf8 = [0u8; 4];
    let len = c.encode_utf8(&mut utf8).len();
    if len > 3 {
        return None;
    }
    let v = u32::from_le_bytes([utf8[0], utf8[1], utf8[2], len as u8]);
    slot.store(v, Ordering::Relaxed);
    Some(v)
}

/// Shift_JIS decoded strictly, exactly as encoding_rs decodes it. encoding_rs
/// costs about ten instructions a byte on record text, whose short ASCII
/// runs and two-byte kanji alternate; here ASCII is copied sixteen bytes at a
/// time and kanji come from [`SJIS_PAIRS`]. Anything else (half-width kana,
/// a broken sequence) goes to encoding_rs whole.
fn sjis_strict(bytes: &[u8]) -> Option<String> {
    const SCRATCH_KEPT: usize = 1 << 20;
    thread_local! {
        // The UTF-8 is built here and copied out once checked: a buffer kept
        // from file to file is zeroed only when it grows.
        static SCRATCH: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    }
    let fast = SCRATCH.with_borrow_mut(|buf| {
        let len = sjis_common(bytes, buf);
        // The bytes are UTF-8 by construction; encoding_rs's check of that
        // is cheaper than the standard library's, and it is no unsafe claim.
        let text = len.and_then(|len| {
            UTF_8
                .decode_without_bom_handling_and_without_replacement(buf.get(..len)?)
                .map(|c| c.into_owned())
        });
        // One huge file should not keep its buffer for the rest of the run.
        if buf.len() > SCRATCH_KEPT {
            *buf = Vec::new();
        }
        text
    });
    fast.or_else(|| {
        SHIFT_JIS
            .decode_without_bom_handling_and_without_replacement(bytes)
            .map(|c| c.into_owned())
    })
}

/// The UTF-8 of `b`, written to the start of `out`, and its length; `None`
/// unless `b` holds only ASCII and two-byte characters. `out` is first
/// made long enough for the worst case (a pair grows by half) and for the
/// fixed-size writes, which run up to fifteen bytes past what they keep (the
/// next write, or the returned length, cuts that off).
fn sjis_common(b: &[u8], out: &mut Vec<u8>) -> Option<usize> {
    const HIGH: u128 = u128::from_ne_bytes([0x80; 16]);
    let need = b.len() + b.len() / 2 + 16;
    if out.len() < need {
        out.resize(need, 0);
    }
    let (mut i, mut o) = (0, 0);
    while i < b.len() {
        if let (Some(word), Some(dst)) = (b.get(i..i + 16), out.get_mut(o..o + 16)) {
            dst.copy_from_slice(word);
            let mut w = [0u8; 16];
            w.copy_from_slice(word);
            let high = u128::from_le_bytes(w) & HIGH;
            let ascii = (high.trailing_zeros() / 8) as usize;
            i += ascii;
            o += ascii;
            if high == 0 {
                continue;
            }
        } else if b[i] < 0x80 {
            // The last few bytes, one at a time.
            *out.get_mut(o)? = b[i];
            i += 1;
            o += 1;
            continue;
        }
        // Kanji come in runs (７六歩): read the run before the next word.
        while let Some(&lead) = b.get(i).filter(|&&c| c >= 0x80) {
            let c = sjis_pair(lead, *b.get(i + 1)?)?.to_le_bytes();
            out.get_mut(o..o + 4)?.copy_from_slice(&c);
            o += usize::from(c[3]);
            i += 2;
        }
    }
    Some(o)
}

/// `body` in `enc`: strictly where it decodes cleanly, else with
/// replacement characters and a warning saying where.
fn strict_or_lossy(enc: &'static Encoding, body: &[u8], warnings: Vec<String>) -> Decoded {
    match strict(enc, body) {
        Some(text) => Decoded {
            text,
            encoding: enc,
            warnings,
        },
        None => lossy(enc, body, warnings),
    }
}

fn lossy(enc: &'static Encoding, bytes: &[u8], mut warnings: Vec<String>) -> Decoded {
    let (text, _) = enc.decode_without_bom_handling(bytes);
    let bad = text.chars().filter(|&c| c == '\u{FFFD}').count();
    // Say where the first one is, so the damage can be found in the file.
    let at = text.find('\u{FFFD}').map_or(String::new(), |i| {
        let before = &text[..i];
        let line = before.matches('\n').count() + 1;
        let column = before[before.rfind('\n').map_or(0, |n| n + 1)..]
            .chars()
            .count()
            + 1;
        format!(" (the first at {line}:{column})")
    });
    warnings.push(format!(
        "{bad} byte sequence(s) are not valid {}; replaced with U+FFFD{at}",
        enc.name()
    ));
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
        assert_eq!(d.warnings.len(), 1);
    }

    #[test]
    fn utf8_bom_is_dropped() {
        let mut b = b"\xEF\xBB\xBF".to_vec();
        b.extend_from_slice(KIF.as_bytes());
        let d = decode(&b, None).unwrap();
        assert_eq!(d.text, KIF);
        assert_eq!(d.encoding, UTF_8);
    }

    #[test]
    fn honest_declaration_is_used() {
        let text = format!("#KIF version=2.0 encoding=Shift_JIS\n{KIF}");
        let d = decode(&sjis(&text), None).unwrap();
        assert_eq!(d.encoding, SHIFT_JIS);
        assert_eq!(d.text, text);
        let csa = "'CSA encoding=UTF-8\nV3.0\n";
        assert_eq!(decode(csa.as_bytes(), None).unwrap().encoding, UTF_8);
    }

    #[test]
    fn lying_declaration_falls_back() {
        let text = format!("#KIF version=2.0 encoding=UTF-8\n{KIF}");
        let d = decode(&sjis(&text), None).unwrap();
        assert_eq!(d.encoding, SHIFT_JIS);
        assert_eq!(d.text, text);
        assert_eq!(d.warnings.len(), 1, "{:?}", d.warnings);
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
        assert!(e.to_string().contains("byte offset 8"), "{e}");
        let utf16 = b"\xff\xfes\x00t\x00";
        assert_eq!(decode(utf16, None).unwrap().text, "st");
    }

    /// The fast Shift_JIS reader agrees with encoding_rs on every two-byte
    /// sequence, at every offset within a sixteen-byte block, and on text.
    #[test]
    fn sjis_strict_is_encoding_rs() {
        let rs = |b: &[u8]| {
            SHIFT_JIS
                .decode_without_bom_handling_and_without_replacement(b)
                .map(|c| c.into_owned())
        };
        for x in 0..=255u8 {
            for y in 0..=255u8 {
                for pad in [0, 3, 7, 14, 15] {
                    let mut b = b"123456789abcdef"[..pad].to_vec();
                    b.extend_from_slice(&[x, y]);
                    assert_eq!(sjis_strict(&b), rs(&b), "{b:?}");
                    b.push(x);
                    assert_eq!(sjis_strict(&b), rs(&b), "{b:?}");
                }
            }
        }
        let big = b"  1 \x82\xa0".repeat(200_000);
        assert_eq!(sjis_strict(&big), rs(&big));
        let text = sjis("#KIF\r\n手合割：平手\r\n   1 ７六歩(77)   ( 0:01/00:00:01)\r\nｶﾅ§Ω");
        assert_eq!(sjis_strict(&text), rs(&text));
        assert!(sjis_strict(&text).is_some());
    }

    #[test]
    fn has_nul_finds_a_nul_anywhere() {
        for len in [0, 1, 63, 64, 65, 200] {
            let mut b = vec![b'x'; len];
            assert!(!has_nul(&b));
            for at in 0..len {
                b[at] = 0;
                assert!(has_nul(&b), "{len} {at}");
                b[at] = b'x';
            }
        }
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
