//! The KIF reader (Kakinoki `.kif` / `.kifu`): text to one [`Record`].
//!
//! Lines are classified one by one (the order of `kif.md` §2). Move lines go
//! through the nom grammar in the private `line` module; every other line
//! kind is shared with KI2 (`parse::document`), and variations are built by
//! `parse::variation_tree`.

mod chu;
mod line;
mod variant;

use crate::error::ParseError;
use crate::parse::SourceLine;
use crate::parse::document::{self, Document, Kind};
use crate::parse::ja::expect::{LineErr, grammar_error};
use crate::parse::ja::line_kind::looks_like_move_line;
use crate::parse::ja::token::{MARKS, is_space};
use crate::record::{Ending, Format, MoveEntry, Record};
pub use chu::writes_chu_move;
use line::{Body, MoveLine};
pub use variant::parse_variant;

pub use crate::parse::variation_tree::MAX_VARIATION_DEPTH;

/// Whether `text` looks like KIF: a `#KIF` declaration, the `手数----指手`
/// move-section header, or a numbered move line such as `1 ７六歩(77)`,
/// before any KI2 move (`▲７六歩`). Headers such as `手合割` are KI2's too:
/// [`crate::parse::detect`] weighs them after every format's own signs.
pub fn sniff(text: &str) -> bool {
    document::sniff(text, |t| {
        if t.starts_with("#KIF") || t.starts_with("手数----") {
            return Some(true);
        }
        if looks_like_move_line(t) && line::move_line(t).is_ok() {
            return Some(true);
        }
        t.trim_start_matches(is_space)
            .starts_with(MARKS)
            .then_some(false)
    })
}

/// Read a KIF file. A KIF file holds one game, so the result has one record.
///
/// Syntax only: moves are kept as written ([`crate::record::Notation::Kif`])
/// and never checked against the position.
///
/// A syntax error after the first move carries the game read before it
/// ([`crate::ParseError::partial`]), so one bad line need not lose the game.
pub fn parse(text: &str) -> Result<Vec<Record>, ParseError> {
    read(text, Document::new(), &mut Shogi)
}

/// Read `text` into `doc`, its moves on `board`.
fn read<B: Board>(text: &str, mut doc: Document, board: &mut B) -> Result<Vec<Record>, ParseError> {
    // A move line with its time is about 40 bytes; the cap bounds what a
    // file of long comments and few moves asks for.
    doc.tree.reserve((text.len() / 36).min(512));
    document::read(text, Format::Kif, doc, |doc, l| {
        Builder {
            doc,
            board: &mut *board,
        }
        .line(l)
    })
}

/// What a KIF reader reads on its board: the move after the number, and
/// the lines of the board's own (a diagram, a start written otherwise).
trait Board {
    /// The move line `t`, its move read on this board.
    fn move_line<'a>(&mut self, t: &'a str) -> Result<MoveLine<'a>, LineErr<'a>>;
    /// Whether `t` has a move line's shape (a number, then spaces).
    fn is_move_line(&self, t: &str) -> bool {
        looks_like_move_line(t)
    }
    /// Whether `l` is a line read before the moves' own: a blank or `#`
    /// line, or one of the start position (read into `doc`).
    fn early_line(&mut self, doc: &mut Document, l: &SourceLine<'_>) -> Result<bool, ParseError>;
}

/// Shogi's board: the start is 手合割's or the BOD diagram's.
struct Shogi;

impl Board for Shogi {
    #[inline(always)]
    fn move_line<'a>(&mut self, t: &'a str) -> Result<MoveLine<'a>, LineErr<'a>> {
        line::move_line(t)
    }

    #[inline(always)]
    fn early_line(&mut self, doc: &mut Document, l: &SourceLine<'_>) -> Result<bool, ParseError> {
        Ok(doc.early_line(l)? || doc.diagram_line(l)?)
    }
}

/// One line's reading, over the document built so far.
struct Builder<'d, B> {
    doc: &'d mut Document,
    board: &'d mut B,
}

impl<B: Board> Builder<'_, B> {
    // Inlined into `document::read`'s loop, as the loop of its own was: it
    // runs for every line, and nearly every line of a game is a move.
    #[inline(always)]
    fn line(&mut self, l: &SourceLine<'_>) -> Result<(), ParseError> {
        let t = l.text;
        // Once moves have begun nearly every line is a move: the grammar is
        // tried first (no blank or `#` line has the shape, and the first
        // line's span is kept by then). A line it refuses is read below as
        // before, and a move line's error is given there.
        if self.doc.seen_move
            && let Ok(m) = self.board.move_line(t)
        {
            return self.move_entry(l, m);
        }
        if self.doc.seen_move && self.board.is_move_line(t) {
            return self.move_line(l);
        }
        if self.board.early_line(self.doc, l)? {
            return Ok(());
        }
        if self.board.is_move_line(t) {
            return self.move_line(l);
        }
        if t.trim_start_matches(is_space).starts_with(MARKS) {
            return Err(ParseError::new(
                l.span(),
                "a KI2-style move (▲/△) in a KIF file: KIF moves start with their number",
            )
            .of_kind(crate::error::ParseErrorKind::Misplaced));
        }
        if t.starts_with("手数----") {
            return Ok(());
        }
        match self.doc.other_line(l)? {
            Kind::Done => {}
            Kind::Summary(s) => self.doc.summary(s),
            // A lishogi chu shogi move on another board is not a note: the
            // record is chu shogi's, and a caller may read it as such.
            Kind::Other if chu::writes_chu_move(t) => {
                return Err(ParseError::new(
                    l.span(),
                    "a chu shogi move (lishogi's KIF) where this board's moves were expected",
                )
                .of_kind(crate::error::ParseErrorKind::Misplaced));
            }
            // Nothing kifu knows (盤面回転, free text): keep it rather than drop it.
            Kind::Other => self.doc.note(l),
        }
        Ok(())
    }

    fn move_line(&mut self, l: &SourceLine<'_>) -> Result<(), ParseError> {
        let m = self
            .board
            .move_line(l.text)
            .map_err(|e| grammar_error(l, e, "a KIF move line"))?;
        self.move_entry(l, m)
    }

    // Always inlined into the line loop: the parsed line then goes straight
    // into the entry.
    #[inline(always)]
    fn move_entry(&mut self, l: &SourceLine<'_>, m: MoveLine<'_>) -> Result<(), ParseError> {
        let span = l.span_at(m.body_offset);
        let ended = self.doc.tree.line().ending.is_some();
        if ended && matches!(m.body, Body::Ending(..)) {
            // 棋譜解説 V1.70 writes `122 投了` then `123 中断`
            // (kif/mog-core-scala/game/012.kif). The first word ends the line;
            // the second is kept verbatim.
            self.doc.record.notes.push(l.text.to_string());
            return Ok(());
        }
        if ended {
            return Err(ParseError::new(
                span,
                "a move after the line's terminal word (投了, 中断, …)",
            )
            .of_kind(crate::error::ParseErrorKind::Misplaced));
        }
        match m.body {
            Body::Move(notation) => {
                let mut e = MoveEntry::new(notation, span);
                e.number = Some(m.number);
                e.time = m.time;
                self.doc.tree.push_move(e, m.number);
            }
            Body::Ending(text, kind) => {
                self.doc.tree.set_ending(Ending {
                    kind,
                    text,
                    span,
                    time: m.time,
                    comments: Vec::new(),
                });
            }
            Body::FirstStep => {}
        }
        if !m.trailing.is_empty() {
            self.doc.record.notes.push(m.trailing.to_string());
        }
        self.doc.seen_move = true;
        Ok(())
    }
}

#[cfg(test)]
mod tests;
