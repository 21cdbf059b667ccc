//! The KI2 reader (Kakinoki `.ki2` / `.ki2u`): text to one [`Record`].
//!
//! Headers, board diagrams, comments, bookmarks and variations follow KIF
//! and share its code (`parse::document`). Moves carry no origin
//! (`▲５二銀右上成`): they are kept as
//! [`Notation::Ki2`](crate::record::Notation::Ki2) for the replayer to
//! resolve against the position (`ki2.md` §6). A line is cut before each
//! side mark after dropping whitespace, which reads every layout seen:
//! KfW's padded columns, single spaces, and whole games on one line.

use crate::error::ParseError;
use crate::parse::SourceLine;
use crate::parse::document::{self, Document, Kind};
pub use crate::parse::ja::closing::summary_ending;
use crate::parse::ja::expect::token_error;
use crate::parse::ja::line_kind::looks_like_move_line;
use crate::parse::ja::token::{MARKS, is_space};
use crate::record::{Ending, Format, MoveEntry, Record};

pub(crate) mod move_text;
use move_text::{Token, compact, token, tokens};

/// Whether `text` looks like KI2: a line starting with a side mark whose
/// first move reads as KI2, and no KIF move table before it.
pub fn sniff(text: &str) -> bool {
    document::sniff(text, |line| {
        let t = line.trim_start_matches(is_space);
        if t.starts_with("手数----") || looks_like_move_line(t) {
            return Some(false);
        }
        t.starts_with(MARKS).then(|| {
            tokens(line)
                .next()
                .is_some_and(|(_, tok)| token(compact(tok, &mut String::new())).is_ok())
        })
    })
}

/// Read a KI2 file. A KI2 file holds one game, so the result has one record.
///
/// Syntax only: moves are kept as written and resolved by the replayer.
///
/// A syntax error after the first move carries the game read before it
/// ([`crate::ParseError::partial`]), so one bad line need not lose the game.
pub fn parse(text: &str) -> Result<Vec<Record>, ParseError> {
    let mut compacted = String::new();
    document::read(text, Format::Ki2, Document::new(), |doc, l| {
        line(doc, l, &mut compacted)
    })
}

fn line(doc: &mut Document, l: &SourceLine<'_>, compacted: &mut String) -> Result<(), ParseError> {
    let t = l.text;
    if doc.early_line(l)? {
        return Ok(());
    }
    if t.trim_start_matches(is_space).starts_with(MARKS) {
        return move_line(doc, l, compacted);
    }
    if doc.diagram_line(l)? {
        return Ok(());
    }
    if looks_like_move_line(t) {
        return Err(ParseError::new(
            l.span(),
            "a numbered KIF move line in a KI2 file: KI2 moves start with ▲ or △",
        )
        .of_kind(crate::error::ParseErrorKind::Misplaced));
    }
    match doc.other_line(l)? {
        Kind::Done => {}
        Kind::Summary(s) => summary(doc, s, l),
        Kind::Other => doc.note(l),
    }
    Ok(())
}

/// The `まで` line is KI2's only record of the result: it becomes the
/// current line's ending unless a pseudo-move already ended it. The text
/// stays in the summary too, so whoever checks the named side against
/// the move count (cshogi names the wrong side for fouls) can see it.
fn summary(doc: &mut Document, s: &str, l: &SourceLine<'_>) {
    doc.summary(s);
    if doc.tree.line().ending.is_some() {
        return;
    }
    if let Some(kind) = summary_ending(s) {
        let at = l.text.len() - s.len();
        doc.tree.set_ending(Ending {
            kind,
            text: s.to_string(),
            span: l.span_at(at),
            time: None,
            comments: Vec::new(),
        });
    }
}

/// The byte offset in `tok` of the character at byte `at` of its
/// [`compact`] form, so that an error points at the failing character of
/// the line as written (or just past the token's last one).
fn offset_in_token(tok: &str, at: usize) -> usize {
    let mut seen = 0;
    for (i, c) in tok.char_indices().filter(|&(_, c)| !is_space(c)) {
        if seen == at {
            return i;
        }
        seen += c.len_utf8();
    }
    tok.trim_end_matches(is_space).len()
}

fn move_line(
    doc: &mut Document,
    l: &SourceLine<'_>,
    compacted: &mut String,
) -> Result<(), ParseError> {
    let first = doc.bod.moves_played().unwrap_or(0).saturating_add(1);
    let mut cursor = l.cursor();
    for (at, tok) in tokens(l.text) {
        let span = cursor.span_at(at);
        let body = compact(tok, compacted);
        let parsed = token(body).map_err(|e| {
            let bad = at + offset_in_token(tok, body.len() - e.rest.len());
            token_error(cursor.span_at(bad), e, body, "a KI2 move such as ▲７六歩")
        })?;
        if doc.tree.line().ending.is_some() {
            return Err(ParseError::new(
                span,
                "a move after the line's terminal word (投了, 中断, …)",
            )
            .of_kind(crate::error::ParseErrorKind::Misplaced));
        }
        match parsed {
            Token::Move(notation) => {
                let number = doc.tree.next_number(first);
                doc.tree.push_move(MoveEntry::new(notation, span), number);
            }
            Token::Ending(text, kind) => doc.tree.set_ending(Ending {
                kind,
                text,
                span,
                time: None,
                comments: Vec::new(),
            }),
        }
        doc.seen_move = true;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
