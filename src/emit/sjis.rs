//! Text out as Shift_JIS the way Windows writes it (CP932).
//!
//! encoding_rs encodes by the WHATWG index, which gives each CP932 code one
//! Unicode character. Windows (`WideCharToMultiByte`'s best fit) and
//! Python's `cp932` also write the JIS X 0208 readings of six of those codes
//! (`〜` U+301C as 0x81 0x60, where WHATWG only takes `～` U+FF5E): text
//! typed on a Mac or copied from the web holds them, and a Windows tool
//! writes them without complaint. Only what has no code at all becomes `?`
//! with an `unencodable-char` warning.

use crate::emit::Warning;

/// The characters CP932 writers encode by best fit, and their codes.
const BEST_FIT: [(char, [u8; 2]); 6] = [
    ('\u{2014}', [0x81, 0x5C]), // — EM DASH (CP932 reads 0x815C as U+2015)
    ('\u{301C}', [0x81, 0x60]), // 〜 WAVE DASH (U+FF5E)
    ('\u{2016}', [0x81, 0x61]), // ‖ DOUBLE VERTICAL LINE (U+2225)
    ('\u{00A2}', [0x81, 0x91]), // ¢ (U+FFE0)
    ('\u{00A3}', [0x81, 0x92]), // £ (U+FFE1)
    ('\u{00AC}', [0x81, 0xCA]), // ¬ (U+FFE2)
];

/// Where a stretch of the text came from in the input, for warnings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Origin {
    /// Written from the input line given (a header field, a move line).
    Line(u32),
    /// A comment or bookmark of the move on the input line given: the
    /// record keeps no line of its own for comments.
    CommentOf(u32),
    /// Nothing in the record says where (comments before the first move,
    /// notes, text the writer made).
    Unknown,
}

/// `(byte offset into the text, origin)`: the origin holds from that offset
/// to the next mark. Offsets ascend.
pub(crate) type Marks = Vec<(usize, Origin)>;

/// Encode `text` as CP932; warnings name the line of `text`.
pub fn encode_sjis(text: &str) -> (Vec<u8>, Vec<Warning>) {
    encode_marked(text, &[])
}

/// Encode `text` as CP932; warnings name the input line `marks` give for
/// the place, or the line of `text` where the marks say nothing.
pub(crate) fn encode_marked(text: &str, marks: &[(usize, Origin)]) -> (Vec<u8>, Vec<Warning>) {
    let enc = encoding_rs::SHIFT_JIS;
    let (bytes, _, had_errors) = enc.encode(text);
    if !had_errors {
        return (bytes.into_owned(), Vec::new());
    }
    // Slow path only when needed: encode per character, since encoding_rs
    // would otherwise insert HTML `&#…;` references.
    let mut out = Vec::with_capacity(text.len());
    let mut warnings = Vec::new();
    let mut buf = [0u8; 4];
    let mut line = 1u32;
    for (at, c) in text.char_indices() {
        if c == '\n' {
            line += 1;
        }
        let (b, _, bad) = enc.encode(c.encode_utf8(&mut buf));
        if !bad {
            out.extend_from_slice(&b);
        } else if let Some((_, code)) = BEST_FIT.iter().find(|(f, _)| *f == c) {
            out.extend_from_slice(code);
        } else {
            out.push(b'?');
            warnings.push(Warning {
                code: "unencodable-char",
                message: format!(
                    "{}: {c:?} (U+{:04X}) has no Shift_JIS code; written as '?'",
                    place(marks, at, line),
                    c as u32
                ),
            });
        }
    }
    (out, warnings)
}

/// Where the character at byte `at` (on line `line` of the text) came from.
fn place(marks: &[(usize, Origin)], at: usize, line: u32) -> String {
    let i = marks.partition_point(|&(start, _)| start <= at);
    match i.checked_sub(1).map(|i| marks[i].1) {
        Some(Origin::Line(n)) => format!("input line {n}"),
        Some(Origin::CommentOf(n)) => format!("input line {n} (a comment of that move)"),
        Some(Origin::Unknown) => format!("output line {line} (no input line recorded)"),
        None => format!("line {line}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn best_fit_characters_decode_back_to_their_cp932_readings() {
        // The reading CP932 gives each code is the WHATWG one, so a round
        // trip turns U+301C into U+FF5E: what Windows does too.
        let (bytes, w) = encode_sjis("〜—‖¢£¬");
        assert!(w.is_empty());
        let (back, _, bad) = encoding_rs::SHIFT_JIS.decode(&bytes);
        assert!(!bad);
        assert_eq!(back, "～―∥￠￡￢");
    }

    #[test]
    fn marks_name_the_input_line() {
        let text = "a\nb😀\nc😀\n";
        let marks = vec![(0, Origin::Line(7)), (2, Origin::CommentOf(9))];
        let (_, w) = encode_marked(text, &marks);
        assert_eq!(w.len(), 2);
        assert!(w[0].message.starts_with("input line 9 (a comment"), "{w:?}");
        let (_, w) = encode_marked(text, &[(0, Origin::Unknown)]);
        assert!(w[1].message.starts_with("output line 3"), "{w:?}");
    }
}
