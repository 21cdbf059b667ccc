//! Parsers: text in, [`crate::Record`]s out. Syntax only; legality is the replayer's job.
//!
//! Every line-oriented parser (KIF, KI2, CSA, USI) walks the text with
//! [`lines`], so line numbers and byte offsets come for free and CRLF, bare CR
//! and LF are all accepted, even mixed in one file.

pub mod csa;
mod document;
pub mod eval;
pub mod jkf;

use crate::record::Location;

pub(crate) mod ja;
pub mod ki2;
pub mod kif;
pub mod recognise;
mod variation_tree;

/// One physical line of a text: its 1-based number, the byte offset of its
/// first character, and its content without the line terminator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SourceLine<'a> {
    /// 1-based line number.
    pub number: u32,
    /// Byte offset of the line's first character in the whole text.
    pub offset: usize,
    /// The line without its terminator.
    pub text: &'a str,
}

impl<'a> SourceLine<'a> {
    /// The span of the character at byte index `byte` within this line.
    #[inline]
    pub fn span_at(&self, byte: usize) -> Location {
        self.cursor().span_at(byte)
    }

    /// The span of the line's start.
    pub fn span(&self) -> Location {
        Location::new(self.offset, self.number, 1)
    }

    /// A [`LocationCursor`] at the line's start, for the spans of many tokens
    /// in order.
    pub fn cursor(&self) -> LocationCursor<'a> {
        LocationCursor {
            line: *self,
            byte: 0,
            column: 1,
        }
    }
}

/// [`SourceLine::span_at`] for byte offsets met in increasing order: each
/// character is counted once, where `span_at` counts from the line's start
/// every time (quadratic on a USI or KI2 line that holds a whole game).
#[derive(Clone, Copy, Debug)]
pub struct LocationCursor<'a> {
    line: SourceLine<'a>,
    byte: usize,
    column: u32,
}

impl LocationCursor<'_> {
    /// The span of the character at byte index `byte`, as
    /// [`SourceLine::span_at`] gives it.
    #[inline]
    pub fn span_at(&mut self, byte: usize) -> Location {
        let text = self.line.text;
        let end = floor_char_boundary(text, byte.min(text.len()));
        if end < self.byte {
            // Going back: count again from the line's start.
            *self = self.line.cursor();
        }
        self.column += text[self.byte..end].chars().count() as u32;
        self.byte = end;
        Location::new(
            self.line.offset + byte.min(text.len()),
            self.line.number,
            self.column,
        )
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The lines of `text`, split on CRLF, bare CR or LF. A final terminator does
/// not produce an empty last line. A leading UTF-8 BOM is skipped.
pub fn lines(text: &str) -> Lines<'_> {
    let start = if text.starts_with('\u{feff}') { 3 } else { 0 };
    Lines {
        text,
        pos: start,
        number: 0,
        base: 0,
    }
}

/// The lines of `text` when it is a piece of a larger text that starts on
/// line `first_line` (1-based) at byte `offset`: numbers and offsets then
/// point into the whole, so a streamed game's messages name the file's lines.
pub fn lines_at(text: &str, first_line: u32, offset: usize) -> Lines<'_> {
    let mut l = lines(text);
    l.number = first_line.saturating_sub(1);
    l.base = offset;
    l
}

/// Iterator returned by [`lines`].
#[derive(Clone, Debug)]
pub struct Lines<'a> {
    text: &'a str,
    pos: usize,
    number: u32,
    base: usize,
}

impl<'a> Lines<'a> {
    /// The whole text, the byte index where the next line starts, and how
    /// many lines came before it: for a parser that reads a run of lines by
    /// its own means and then hands back with [`Lines::resume`].
    pub(crate) fn state(&self) -> (&'a str, usize, u32) {
        (self.text, self.pos, self.number)
    }

    /// Go on after lines read elsewhere: the next line starts at byte `pos`
    /// (a line start) and `number` lines came before it.
    pub(crate) fn resume(&mut self, pos: usize, number: u32) {
        self.pos = pos;
        self.number = number;
    }

    /// What is added to a byte index of the text to make a file offset.
    pub(crate) fn base(&self) -> usize {
        self.base
    }
}

impl<'a> Iterator for Lines<'a> {
    type Item = SourceLine<'a>;

    // Inlined into each parser's loop: a call per line cost as much as the
    // search for its end.
    #[inline(always)]
    fn next(&mut self) -> Option<SourceLine<'a>> {
        let rest = self.text.get(self.pos..).filter(|r| !r.is_empty())?;
        let b = rest.as_bytes();
        let end = memchr::memchr2(b'\n', b'\r', b).unwrap_or(b.len());
        let terminator = match &b[end..] {
            [b'\r', b'\n', ..] => 2,
            [] => 0,
            _ => 1,
        };
        let line = SourceLine {
            number: self.number + 1,
            offset: self.base + self.pos,
            text: &rest[..end],
        };
        self.pos += end + terminator;
        self.number += 1;
        Some(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_split_on_every_terminator() {
        let t = "a\r\nb\rc\nd";
        let got: Vec<(u32, usize, &str)> = lines(t).map(|l| (l.number, l.offset, l.text)).collect();
        assert_eq!(
            got,
            vec![(1, 0, "a"), (2, 3, "b"), (3, 5, "c"), (4, 7, "d")]
        );
        assert_eq!(lines("x\n").count(), 1);
        assert_eq!(lines("").count(), 0);
        assert_eq!(lines("\n\n").count(), 2);
        fn texts(t: &str) -> Vec<&str> {
            lines(t).map(|l| l.text).collect()
        }
        assert_eq!(texts("a\r\r\nb\r"), vec!["a", "", "b"]);
        assert_eq!(texts("\u{feff}a\n\rb"), vec!["a", "", "b"]);
    }

    #[test]
    fn headers_kif_and_ki2_share_leave_the_choice_to_the_extension() {
        use crate::record::Format::{Ki2, Kif, Usi};
        for text in ["手合割：平手\n", "先手：甲\n", "まで64手で先手の勝ち\n"] {
            assert_eq!(detect(text, Some(Ki2)), Some(Ki2), "{text}");
            assert_eq!(detect(text, Some(Kif)), Some(Kif), "{text}");
            assert_eq!(detect(text, None), Some(Kif), "{text}");
            assert_eq!(detect(text, Some(Usi)), Some(Kif), "{text}");
        }
        // A KIF move line is KIF's own, whatever the extension.
        assert_eq!(detect("手合割：平手\n1 ７六歩(77)\n", Some(Ki2)), Some(Kif));
        assert_eq!(detect("hello world\n", None), None);
    }

    #[test]
    fn columns_count_characters() {
        let l = lines("７六歩").next().unwrap();
        assert_eq!(l.span_at(3).column, 2);
    }

    #[test]
    fn cursor_spans_are_span_at() {
        let text = "ab ７六歩 x　y 7g7f\u{1F600}z";
        let l = lines(text).next().unwrap();
        let mut c = l.cursor();
        for byte in 0..=text.len() + 2 {
            assert_eq!(c.span_at(byte), l.span_at(byte), "byte {byte}");
        }
        // Going back is allowed (it starts over).
        assert_eq!(c.span_at(1), l.span_at(1));
    }
}
pub mod usi;

use crate::error::ParseError;
use crate::record::{Format, Record};

/// The format of `text`, trying `hint` (from the extension) first, then
/// sniffing the content. Content wins over the extension.
pub fn detect(text: &str, hint: Option<Format>) -> Option<Format> {
    let sniff = |f: Format| match f {
        Format::Jkf => text
            .trim_start_matches('\u{feff}')
            .trim_start()
            .starts_with('{'),
        Format::Csa => csa::sniff(text),
        Format::Kif => kif::sniff(text),
        Format::Ki2 => ki2::sniff(text),
        Format::Usi => usi::sniff(text),
    };
    if let Some(h) = hint
        && sniff(h)
    {
        return Some(h);
    }
    // KI2 before KIF: both share headers, and KI2's move lines are distinctive.
    [
        Format::Jkf,
        Format::Csa,
        Format::Ki2,
        Format::Kif,
        Format::Usi,
    ]
    .into_iter()
    .find(|&f| sniff(f))
    // A header or a `まで` line with no move says KIF or KI2 but not which
    // (a header-only record): the extension tells them apart.
    .or_else(|| {
        document::has_header(text).then_some(match hint {
            Some(Format::Ki2) => Format::Ki2,
            _ => Format::Kif,
        })
    })
    // Nothing recognisable: trust the extension (the reader then says
    // whether the text is a record at all).
    .or(hint)
}

/// Parse `text` as `format`: syntax only, no move is judged.
///
/// `text` is already decoded (see [`crate::decode`], or use
/// [`crate::read_bytes`], which decodes and detects the format too).
///
/// # Errors
///
/// A [`ParseError`] with the line and column where the text stops being
/// `format`, and what was expected there.
///
/// # Example
///
/// ```
/// use kifu::{Format, parse::parse};
///
/// let records = parse("PI\n+\n+7776FU\n-3334FU\n%TORYO\n", Format::Csa)?;
/// assert_eq!(records[0].main.moves.len(), 2);
///
/// let err = parse("PI\n+\n+7776F\n", Format::Csa).unwrap_err();
/// assert_eq!((err.span.line, err.span.column), (3, 6));
/// # Ok::<(), kifu::ParseError>(())
/// ```
pub fn parse(text: &str, format: Format) -> Result<Vec<Record>, ParseError> {
    match format {
        Format::Usi => usi::parse(text),
        Format::Csa => csa::parse(text),
        Format::Kif => kif::parse(text),
        Format::Ki2 => ki2::parse(text),
        Format::Jkf => jkf::parse(text),
    }
}
