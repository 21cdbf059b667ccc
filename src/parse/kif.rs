//! The KIF reader (Kakinoki `.kif` / `.kifu`): text to one [`Record`].
//!
//! Lines are classified one by one (the order of `kif.md` §2). Move lines go
//! through the nom grammar in [`line`]; everything else is shared with KI2 in
//! [`crate::parse::ja`]. Variations are built in a flat arena and assembled
//! into the tree at the end, so no recursion depends on the input.

mod line;

use crate::error::ParseError;
use crate::parse::ja::{self, Bod, HandicapName};
use crate::parse::{SourceLine, lines};
use crate::record::{Ending, HeaderField, Line, MoveEntry, Record, Span};
use line::{Body, LineErr};

/// Variations nested deeper than this are refused: the record tree is
/// dropped and compared recursively, so unbounded depth could overflow the
/// stack. Real files stay far below it.
pub const MAX_VARIATION_DEPTH: usize = 200;

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
        if line::looks_like_move_line(t) && line::move_line(t).is_ok() {
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

/// Where a comment or bookmark attaches.
#[derive(Clone, Copy, Debug)]
enum Target {
    Start,
    Move { line: usize, index: usize },
    Ending { line: usize },
}

/// One line of play in the arena: its moves, and where it branches off.
#[derive(Debug, Default)]
struct Node {
    line: Line,
    /// (parent line, index of the move this line replaces).
    parent: Option<(usize, usize)>,
    depth: usize,
}

struct Builder {
    record: Record,
    nodes: Vec<Node>,
    current: usize,
    target: Target,
    seen_move: bool,
    bod: Bod,
    handicap: Option<(HandicapName, Span, String)>,
    first_span: Option<Span>,
}

impl Builder {
    fn new() -> Builder {
        Builder {
            record: Record::default(),
            nodes: vec![Node::default()],
            current: 0,
            target: Target::Start,
            seen_move: false,
            bod: Bod::default(),
            handicap: None,
            first_span: None,
        }
    }

    fn line(&mut self, l: &SourceLine<'_>) -> Result<(), ParseError> {
        let t = l.text;
        if t.trim().is_empty() {
            return Ok(());
        }
        if ja::is_hash_line(t) {
            self.record.notes.push(t.to_string());
            return Ok(());
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
        if line::looks_like_move_line(t) {
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
            return self.start_variation(n, l);
        }
        if let Some(c) = ja::comment_line(t) {
            self.comment(c.to_string());
            return Ok(());
        }
        if let Some(name) = ja::bookmark_line(t) {
            self.bookmark(name, t);
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
        let m = line::move_line(l.text).map_err(|e| line_error(l, e))?;
        let span = l.span_at(m.body_offset);
        let cur = self.current;
        if self.nodes[cur].line.ending.is_some() && matches!(m.body, Body::Ending(..)) {
            // 棋譜解説 V1.70 writes `122 投了` then `123 中断`
            // (kif/mog-core-scala/game/012.kif). The first word ends the line;
            // the second is kept verbatim.
            self.record.notes.push(l.text.to_string());
            return Ok(());
        }
        if self.nodes[cur].line.ending.is_some() {
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
                let moves = &mut self.nodes[cur].line.moves;
                moves.push(e);
                self.target = Target::Move {
                    line: cur,
                    index: moves.len() - 1,
                };
            }
            Body::Ending(text, kind) => {
                self.nodes[cur].line.ending = Some(Ending {
                    kind,
                    text,
                    span,
                    time: m.time,
                    comments: Vec::new(),
                });
                self.target = Target::Ending { line: cur };
            }
        }
        if !m.trailing.is_empty() {
            self.record.notes.push(m.trailing.to_string());
        }
        self.seen_move = true;
        Ok(())
    }

    /// `変化：N手`: the next moves replace move N of the most recent line of
    /// play that has one — the current line first, then the lines it
    /// branched from (KfW writes blocks depth-first, so this finds it).
    fn start_variation(&mut self, n: u32, l: &SourceLine<'_>) -> Result<(), ParseError> {
        let mut at = Some(self.current);
        while let Some(idx) = at {
            let node = &self.nodes[idx];
            // A variation that itself starts at or after move N cannot hold
            // the branch point: the new block is its sibling or an uncle.
            let starts_after = node.parent.is_some()
                && node
                    .line
                    .moves
                    .first()
                    .and_then(|m| m.number)
                    .is_some_and(|f| f >= n);
            let found = if starts_after {
                None
            } else {
                find_move(&node.line, n)
            };
            if let Some(index) = found {
                let depth = self.nodes[idx].depth + 1;
                if depth > MAX_VARIATION_DEPTH {
                    return Err(ParseError::new(
                        l.span(),
                        format!("variations nested deeper than {MAX_VARIATION_DEPTH}"),
                    ));
                }
                self.nodes.push(Node {
                    line: Line::default(),
                    parent: Some((idx, index)),
                    depth,
                });
                self.current = self.nodes.len() - 1;
                self.target = self.before(idx, index);
                return Ok(());
            }
            at = self.nodes[idx].parent.map(|(p, _)| p);
        }
        Err(ParseError::new(
            l.span(),
            format!("変化：{n}手 has no move {n} to branch from in the lines read so far"),
        ))
    }

    /// The node a comment written right after `変化：N手` describes: the
    /// position before the replaced move.
    fn before(&self, mut line: usize, mut index: usize) -> Target {
        loop {
            if index > 0 {
                return Target::Move {
                    line,
                    index: index - 1,
                };
            }
            match self.nodes[line].parent {
                Some((p, i)) => {
                    line = p;
                    index = i;
                }
                None => return Target::Start,
            }
        }
    }

    fn comment(&mut self, c: String) {
        match self.target {
            Target::Start => self.record.comments.push(c),
            Target::Move { line, index } => self.nodes[line].line.moves[index].comments.push(c),
            Target::Ending { line } => {
                if let Some(e) = &mut self.nodes[line].line.ending {
                    e.comments.push(c);
                }
            }
        }
    }

    fn bookmark(&mut self, name: &str, raw: &str) {
        match self.target {
            Target::Move { line, index } => self.nodes[line].line.moves[index]
                .bookmarks
                .push(name.to_string()),
            // The record has no bookmark slot for the start or an ending:
            // keep the line verbatim.
            _ => self.record.notes.push(raw.to_string()),
        }
    }

    fn finish(mut self) -> Result<Record, ParseError> {
        let handicap = self.handicap.as_ref().map(|(n, s, v)| (n, *s, v.as_str()));
        let (start, start_span) = ja::start_position(handicap, &self.bod)?;
        self.record.start = start;
        self.record.start_span = start_span;
        self.record.span = self.first_span.unwrap_or_default();
        self.record.main = assemble(self.nodes);
        Ok(self.record)
    }
}

/// The index of the move numbered `n` in `line`. Numbers usually run on
/// from the first move, so that slot is tried before a scan.
fn find_move(line: &Line, n: u32) -> Option<usize> {
    let first = line.moves.first()?.number?;
    let guess = n.checked_sub(first).map(|d| d as usize);
    if let Some(g) = guess
        && line.moves.get(g).is_some_and(|m| m.number == Some(n))
    {
        return Some(g);
    }
    line.moves.iter().position(|m| m.number == Some(n))
}

/// Build the tree: children always come after their parent in the arena, so
/// walking it backwards attaches every line after its own children are in.
fn assemble(nodes: Vec<Node>) -> Line {
    let mut slots: Vec<Option<Node>> = nodes.into_iter().map(Some).collect();
    for i in (1..slots.len()).rev() {
        let Some(node) = slots[i].take() else {
            continue;
        };
        let Some((p, index)) = node.parent else {
            continue;
        };
        if node.line.moves.is_empty() && node.line.ending.is_none() {
            continue;
        }
        if let Some(parent) = slots[p].as_mut() {
            // Inserting at the front while walking backwards keeps file order.
            parent.line.moves[index].variations.insert(0, node.line);
        }
    }
    slots[0].take().map(|n| n.line).unwrap_or_default()
}

fn line_error(l: &SourceLine<'_>, e: LineErr<'_>) -> ParseError {
    let at = l.text.len().saturating_sub(e.rest.len());
    let found: String = e.rest.chars().take(12).collect();
    let expected = e.label.unwrap_or("a KIF move line");
    let message = if found.is_empty() {
        format!("expected {expected}, found the end of the line")
    } else {
        format!("expected {expected}, found {found:?}")
    };
    ParseError::new(l.span_at(at), message)
}

#[cfg(test)]
mod tests;
