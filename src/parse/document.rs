//! What KIF and KI2 documents share besides their move lines: the header,
//! the board diagram, comments, bookmarks, variation headings, `まで` lines
//! and the lines kept as notes. Each reader classifies its own move lines and
//! hands every other line here.

use crate::error::{ParseError, Partial};
use crate::parse::ja::board::{Bod, start_position};
use crate::parse::ja::closing;
use crate::parse::ja::header::{HandicapName, handicap_name, header_line};
use crate::parse::ja::line_kind::{
    bookmark_line, comment_line, is_hash_line, summary_line, variation_line,
};
use crate::parse::ja::token::{MARKS, is_space};
use crate::parse::variation_tree::Tree;
use crate::parse::{SourceLine, lines, recognise};
use crate::record::{Format, HeaderField, Location, Record, StartPosition};

/// Read `text` as one record, each line handed to `line` with the document
/// built so far. An error after the first move carries the game read
/// before it ([`crate::ParseError::partial`]).
pub(crate) fn read(
    text: &str,
    format: Format,
    mut doc: Document,
    mut line: impl FnMut(&mut Document, &SourceLine<'_>) -> Result<(), ParseError>,
) -> Result<Vec<Record>, ParseError> {
    let mut it = lines(text);
    while let Some(l) = it.next() {
        if let Err(e) = line(&mut doc, &l) {
            return Err(doc.recover(e, 1 + it.count(), format));
        }
    }
    Ok(vec![doc.finish()?])
}

/// What the first lines of `text` say: `verdict` tells from a line, or
/// passes on it with `None`; `false` when no line among them tells.
pub(crate) fn sniff(text: &str, mut verdict: impl FnMut(&str) -> Option<bool>) -> bool {
    lines(text)
        .take(300)
        .find_map(|l| verdict(l.text))
        .unwrap_or(false)
}

/// Whether the first lines of `text` hold a KIF/KI2 header with a key of
/// those formats, or a `まで` line, before any KI2 move.
pub(crate) fn has_header(text: &str) -> bool {
    sniff(text, |line| {
        let t = line.trim_start_matches(is_space);
        if t.starts_with(MARKS) {
            return Some(false);
        }
        (recognise::is_ja_key_line(line) || summary_line(t).is_some()).then_some(true)
    })
}

/// A KIF or KI2 document being read.
pub(crate) struct Document {
    pub record: Record,
    pub tree: Tree,
    /// Whether a move (or a terminal word) has been read.
    pub seen_move: bool,
    pub bod: Bod,
    /// The start, when the reader knows it itself (another board's, from
    /// its variant or a `#SFEN:` line): 手合割 and the diagram then do not
    /// give it.
    pub start: Option<StartPosition>,
    handicap: Option<(HandicapName, Location, String)>,
    first_span: Option<Location>,
}

/// How [`Document::other_line`] classified a line.
pub(crate) enum Kind<'a> {
    /// Handled here: nothing left to do.
    Done,
    /// A `まで…` summary line: the reader decides what it means.
    Summary(&'a str),
    /// Not a document line: the reader's own (a move line, or an error).
    Other,
}

impl Document {
    pub fn new() -> Document {
        Document {
            record: Record::default(),
            tree: Tree::new(),
            seen_move: false,
            bod: Bod::default(),
            start: None,
            handicap: None,
            first_span: None,
        }
    }

    /// Blank lines, `#` lines and board-diagram lines: the ones a reader
    /// tests before its move lines.
    pub fn early_line(&mut self, l: &SourceLine<'_>) -> Result<bool, ParseError> {
        let t = l.text;
        self.begin(l);
        if t.chars().all(is_space) {
            return Ok(true);
        }
        if is_hash_line(t) {
            self.record.notes.push(t.to_string());
            return Ok(true);
        }
        Ok(false)
    }

    /// Note where the game begins, if `l` is its first line.
    pub fn begin(&mut self, l: &SourceLine<'_>) {
        if self.first_span.is_none() {
            self.first_span = Some(l.span());
        }
    }

    /// Diagram lines, which may only come before the first move.
    pub fn diagram_line(&mut self, l: &SourceLine<'_>) -> Result<bool, ParseError> {
        let t = l.text;
        if !self.seen_move {
            return self.bod.line(l);
        }
        if Bod::default().line(l)? {
            // Decoration (a frame or column header) is harmless; a real
            // diagram after the moves cannot be placed.
            if t.starts_with('|') || t.contains("持駒") {
                return Err(ParseError::new(
                    l.span(),
                    "a board diagram must come before the first move",
                )
                .of_kind(crate::error::ParseErrorKind::Misplaced));
            }
            return Ok(true);
        }
        Ok(false)
    }

    /// Variation headings, comments, bookmarks, `まで` lines and header lines;
    /// anything else is kept as a note rather than dropped.
    pub fn other_line<'a>(&mut self, l: &SourceLine<'a>) -> Result<Kind<'a>, ParseError> {
        let t = l.text;
        if let Some(n) = variation_line(t) {
            if !self.seen_move {
                // Old ShogiHome wrote stray 変化 lines into the header
                // (kif.md §9); there is nothing to branch from yet.
                self.record.notes.push(t.to_string());
                return Ok(Kind::Done);
            }
            self.tree.start_variation(n, l.span())?;
            return Ok(Kind::Done);
        }
        if let Some(c) = comment_line(t) {
            self.tree.comment(c.to_string(), &mut self.record);
            return Ok(Kind::Done);
        }
        if let Some(name) = bookmark_line(t) {
            self.tree.bookmark(name, t, &mut self.record);
            return Ok(Kind::Done);
        }
        if let Some(s) = summary_line(t) {
            return Ok(Kind::Summary(s));
        }
        if let Some((key, value)) = header_line(t) {
            if key == "手合割" {
                let name = handicap_name(value);
                // The writers name the first 手合割; the start position is the last one's.
                if self.record.handicap.is_none() {
                    self.record.handicap = Some(name.clone());
                }
                self.handicap = Some((name, l.span(), value.to_string()));
            }
            self.record.header.push(HeaderField {
                key: key.to_string(),
                value: value.to_string(),
                span: l.span(),
            });
            return Ok(Kind::Done);
        }
        Ok(Kind::Other)
    }

    /// Keep a `まで…` line, and read the first that counts moves.
    pub fn summary(&mut self, s: &str) {
        self.record.summary.push(s.to_string());
        if self.record.closing.is_none() {
            self.record.closing = closing::read(s);
        }
    }

    /// Keep a line the reader gives no meaning to.
    pub fn note(&mut self, l: &SourceLine<'_>) {
        self.record.notes.push(l.text.to_string());
    }

    /// `e` met with `lines_left` lines not read: with the game read so far
    /// when it has a move (nothing is gained from a header alone).
    pub fn recover(self, e: ParseError, lines_left: usize, format: Format) -> ParseError {
        if !self.seen_move {
            return e;
        }
        match self.finish() {
            Ok(record) => e.with_partial(Partial {
                record,
                lines_left,
                format,
            }),
            Err(_) => e,
        }
    }

    /// The record: start position from 手合割 and the diagram, and the tree of lines.
    pub fn finish(mut self) -> Result<Record, ParseError> {
        match self.start.take() {
            Some(start) => self.record.start = start,
            None => {
                let handicap = self.handicap.as_ref().map(|(n, s, v)| (n, *s, v.as_str()));
                let (start, start_span) = start_position(handicap, &self.bod)?;
                self.record.start = start;
                self.record.start_span = start_span;
            }
        }
        self.record.span = self.first_span.unwrap_or_default();
        self.record.main = self.tree.finish();
        crate::parse::eval::read_gui_evals(&mut self.record.main);
        Ok(self.record)
    }
}
