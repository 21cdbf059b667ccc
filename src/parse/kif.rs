//! The KIF reader (Kakinoki `.kif` / `.kifu`): text to one [`Record`].
//!
//! Lines are classified one by one (the order of `kif.md` §2). Move lines go
//! through the nom grammar in [`line`]; everything else is shared with KI2 in
//! [`crate::parse::ja`]. Variations are built in a flat arena and assembled
//! into the tree at the end, so no recursion depends on the input.

mod line;

use crate::error::ParseError;
use crate::parse::ja::{self, Bod, HandicapName, Tree};
use crate::parse::{SourceLine, lines};
use crate::record::{Ending, HeaderField, MoveEntry, Record, Span};
use line::Body;

pub use ja::MAX_VARIATION_DEPTH;

/// Whether `text` looks like KIF: a `#KIF` declaration, the `手数----指手`
/// move-section header, or a numbered move line such as `1 ７六歩(77)`; or a
/// `手合割` header with no KI2 move (`▲７六歩`) in sight.
pub fn sniff(text: &str) -> bool {
    let mut handicap = false;
    for l in lines(text).take(300) {
        let t = l.text;
        if t.starts_with("#KIF") || t.starts_with("手数----") {
            return true;
        }
        if ja::looks_like_move_line(t) && line::move_line(t).is_ok() {
            return true;
        }
        let body = t.trim_start();
        if body.starts_with(['▲', '△', '☗', '☖']) {
            return false;
        }
        if t.starts_with("手合割：") || t.starts_with("手合割:") {
            handicap = true;
        }
    }
    handicap
}

/// Read a KIF file. A KIF file holds one game, so the result has one record.
///
/// Syntax only: moves are kept as written ([`crate::record::Notation::Kif`])
/// and never checked against the position.
pub fn parse(text: &str) -> Result<Vec<Record>, ParseError> {
    let mut b = Builder::new();
    for l in lines(text) {
        if b.first_span.is_none() {
            b.first_span = Some(l.span());
        }
        b.line(&l)?;
    }
    Ok(vec![b.finish()?])
}

struct Builder {
    record: Record,
    tree: Tree,
    seen_move: bool,
    bod: Bod,
    handicap: Option<(HandicapName, Span, String)>,
    first_span: Option<Span>,
}

impl Builder {
    fn new() -> Builder {
        Builder {
            record: Record::default(),
            tree: Tree::new(),
            seen_move: false,
            bod: Bod::default(),
            handicap: None,
            first_span: None,
        }
    }

    fn line(&mut self, l: &SourceLine<'_>) -> Result<(), ParseError> {
        let t = l.text;
        if t.trim_start_matches([' ', '\t', '　']).is_empty() {
            return Ok(());
        }
        if ja::is_hash_line(t) {
            self.record.notes.push(t.to_string());
            return Ok(());
        }
        // Once moves have begun nearly every line is a move: test that first.
        if self.seen_move && ja::looks_like_move_line(t) {
            return self.move_line(l);
        }
        if !self.seen_move {
            if self.bod.line(l)? {
                return Ok(());
            }
        } else if Bod::default().line(l)? {
            // Decoration (a frame or column header) is harmless; a real
            // diagram after the moves cannot be placed.
            if t.starts_with('|') || t.contains("持駒") {
                return Err(ParseError::new(
                    l.span(),
                    "a board diagram must come before the first move",
                ));
            }
            return Ok(());
        }
        if ja::looks_like_move_line(t) {
            return self.move_line(l);
        }
        let body = t.trim_start();
        if body.starts_with(['▲', '△', '☗', '☖', '▼', '▽']) {
            return Err(ParseError::new(
                l.span(),
                "a KI2-style move (▲/△) in a KIF file: KIF moves start with their number",
            ));
        }
        if let Some(n) = ja::variation_line(t) {
            if !self.seen_move {
                // Old ShogiHome wrote stray 変化 lines into the header
                // (kif.md §9); there is nothing to branch from yet.
                self.record.notes.push(t.to_string());
                return Ok(());
            }
            return self.tree.start_variation(n, l.span());
        }
        if let Some(c) = ja::comment_line(t) {
            self.tree.comment(c.to_string(), &mut self.record);
            return Ok(());
        }
        if let Some(name) = ja::bookmark_line(t) {
            self.tree.bookmark(name, t, &mut self.record);
            return Ok(());
        }
        if let Some(s) = ja::summary_line(t) {
            self.record.summary.push(s.to_string());
            return Ok(());
        }
        if t.starts_with("手数----") {
            return Ok(());
        }
        if let Some((key, value)) = ja::header_line(t) {
            if key == "手合割" {
                self.handicap = Some((ja::handicap_name(value), l.span(), value.to_string()));
            }
            self.record.header.push(HeaderField {
                key: key.to_string(),
                value: value.to_string(),
                span: l.span(),
            });
            return Ok(());
        }
        // Nothing kifu knows (盤面回転, free text): keep it rather than drop it.
        self.record.notes.push(t.to_string());
        Ok(())
    }

    fn move_line(&mut self, l: &SourceLine<'_>) -> Result<(), ParseError> {
        let m = line::move_line(l.text)
            .map_err(|e| ja::grammar_error(l, 0, l.text, e, "a KIF move line"))?;
        let span = l.span_at(m.body_offset);
        let ended = self.tree.line().ending.is_some();
        if ended && matches!(m.body, Body::Ending(..)) {
            // 棋譜解説 V1.70 writes `122 投了` then `123 中断`
            // (kif/mog-core-scala/game/012.kif). The first word ends the line;
            // the second is kept verbatim.
            self.record.notes.push(l.text.to_string());
            return Ok(());
        }
        if ended {
            return Err(ParseError::new(
                span,
                "a move after the line's terminal word (投了, 中断, …)",
            ));
        }
        match m.body {
            Body::Move(notation) => {
                let mut e = MoveEntry::new(notation, span);
                e.number = Some(m.number);
                e.time = m.time;
                self.tree.push_move(e, m.number);
            }
            Body::Ending(text, kind) => {
                self.tree.set_ending(Ending {
                    kind,
                    text,
                    span,
                    time: m.time,
                    comments: Vec::new(),
                });
            }
        }
        if !m.trailing.is_empty() {
            self.record.notes.push(m.trailing.to_string());
        }
        self.seen_move = true;
        Ok(())
    }

    fn finish(mut self) -> Result<Record, ParseError> {
        let handicap = self.handicap.as_ref().map(|(n, s, v)| (n, *s, v.as_str()));
        let (start, start_span) = ja::start_position(handicap, &self.bod)?;
        self.record.start = start;
        self.record.start_span = start_span;
        self.record.span = self.first_span.unwrap_or_default();
        self.record.main = self.tree.finish();
        Ok(self.record)
    }
}

#[cfg(test)]
mod tests;
