//! What Kakinoki's two text formats, KIF and KI2, share when written the
//! way Kifu for Windows writes them: the header and start position
//! ([`header`]), what is written for each line of play and how it ends
//! ([`plan`]), the order of the variation blocks, the lines kept as
//! comments, and the encoding. The writers ([`super::kif`],
//! [`super::ki2`]) add their move lines and the order of an ending's
//! lines, so the two formats cannot drift apart anywhere else.
//!
//! Moves come from the replay, not from the record's notation. What the
//! replay could not play is never dropped silently: it becomes `*` comment
//! lines and a [`Warning`].

mod header;
mod plan;

use crate::codes::WarningCode;
use crate::emit::Warning;
use crate::emit::sjis::{self, Marks, Origin};
use crate::notation::notation_text;
use crate::record::{Ending, Line, MoveEntry};
use crate::replay::{Game, LineResult, Verdict};
use crate::rules::position::Position;
use crate::rules::rule::Rule;
use crate::rules::types::{Color, Move, PieceKind};
use plan::is_foul;
pub(crate) use plan::kif_word_keeps;
use std::collections::HashMap;

pub(crate) use plan::{Plan, legal_ending};

/// Line ids: `None` is the main line, `Some(i)` is `game.variations[i]`.
pub(crate) type LineId = Option<usize>;

/// The text being written for one game, with what both formats need to
/// know about it: the plan of every line, which variations are written
/// and where they branch, and where each stretch of text came from.
pub(crate) struct Sheet<'g> {
    pub(crate) game: &'g Game,
    pub(crate) out: String,
    pub(crate) warnings: Vec<Warning>,
    /// Players are 下手/上手 rather than 先手/後手.
    handicap: bool,
    /// Some move or ending carries a time.
    pub(crate) timed: bool,
    plans: Vec<Plan>,
    main_plan: Plan,
    /// Writable variations by (parent line, entry), in index order.
    pub(crate) children: HashMap<(LineId, usize), Vec<usize>>,
    /// Where each stretch of `out` came from in the input.
    marks: Marks,
    /// The header names players both as 先手/後手 and as 下手/上手.
    both_name_pairs: bool,
}

impl<'g> Sheet<'g> {
    /// An empty sheet for `game`, every line planned; warns of the
    /// variations that will not be written.
    pub(crate) fn new(game: &'g Game) -> Sheet<'g> {
        let mut s = Sheet {
            game,
            out: String::new(),
            warnings: Vec::new(),
            handicap: header::is_handicap(game),
            timed: has_times(&game.record.main),
            plans: Vec::new(),
            main_plan: Plan::default(),
            children: HashMap::new(),
            marks: Marks::new(),
            both_name_pairs: header::both_name_pairs(game),
        };
        s.main_plan = s.plan(None);
        let mut dropped = 0usize;
        for i in 0..game.variations.len() {
            let v = &game.variations[i];
            let parent_ok = match v.parent {
                None => true,
                Some(p) => s.plans[p].keep,
            };
            let parent = s.plan_of(v.parent);
            // An alternative to the ending goes where the parent's terminal
            // word is written, so that word must be the record's own.
            let from_terminal =
                v.entry == parent.written && parent.foul_move.is_none() && parent.ending.is_some();
            let branch_ok = parent_ok && (v.entry < parent.written || from_terminal);
            let mut plan = if branch_ok {
                s.plan(Some(i))
            } else {
                Plan::default()
            };
            plan.keep = plan.keep && branch_ok;
            if plan.keep {
                s.children.entry((v.parent, v.entry)).or_default().push(i);
            } else {
                dropped += 1;
            }
            s.plans.push(plan);
        }
        // Those that branch past the legal part of their line were never replayed.
        dropped += game.recorded_variations() - game.variations.len();
        if dropped > 0 {
            s.warn(
                WarningCode::VariationsDropped,
                format!(
                    "{dropped} variation(s) branch from moves that are not written as moves (or hold nothing) and are left out"
                ),
            );
        }
        s
    }

    pub(crate) fn warn(&mut self, code: WarningCode, message: String) {
        self.warnings.push(Warning { code, message });
    }

    pub(crate) fn record_line(&self, id: LineId) -> Option<&'g Line> {
        match id {
            None => Some(&self.game.record.main),
            Some(i) => self.game.variation_line(i),
        }
    }

    pub(crate) fn result(&self, id: LineId) -> &'g LineResult {
        match id {
            None => &self.game.main,
            Some(i) => &self.game.variations[i].line,
        }
    }

    fn plan_of(&self, id: LineId) -> &Plan {
        match id {
            None => &self.main_plan,
            Some(i) => &self.plans[i],
        }
    }

    /// The record's own comments, then every line of play in
    /// [`Sheet::line_order`], each begun by [`Sheet::open_line`] with
    /// `heading` and written by `write_line` (given its id, result, record
    /// line and plan). Generic, so that each writer gets its own copy with
    /// its `write_line` inlined (through a function pointer the KIF writer
    /// ran 3 % more instructions).
    #[inline]
    pub(crate) fn write_lines(
        &mut self,
        heading: impl Fn(u32) -> String,
        mut write_line: impl FnMut(&mut Self, LineId, &'g LineResult, &'g Line, Plan),
    ) {
        self.record_comments();
        for id in self.line_order() {
            if let Some((r, line, plan)) = self.open_line(id, &heading) {
                write_line(self, id, r, line, plan);
            }
        }
    }

    /// Line `id` begun: its result, its record line and its plan, and for a
    /// variation its `変化` heading (an empty line, then `heading` of its
    /// first ply); `None` for a line the record lacks.
    fn open_line(
        &mut self,
        id: LineId,
        heading: impl Fn(u32) -> String,
    ) -> Option<(&'g LineResult, &'g Line, Plan)> {
        let r = self.result(id);
        let line = self.record_line(id)?;
        let plan = self.plan_to_write(id);
        if id.is_some() {
            self.line("");
            self.line(&heading(r.first_ply));
        }
        Some((r, line, plan))
    }

    /// The plan of line `id`, with whether variations branch from its
    /// terminal word: what its writer follows.
    pub(crate) fn plan_to_write(&self, id: LineId) -> Plan {
        let mut plan = self.plan_of(id).clone();
        plan.ending_forks = self.children.contains_key(&(id, plan.written));
        plan
    }

    /// The side that plays the line's first move.
    pub(crate) fn first_mover(&self, r: &LineResult) -> Color {
        let c = self.game.start.side_to_move();
        if r.first_ply.is_multiple_of(2) {
            c.flip()
        } else {
            c
        }
    }

    /// 先手/後手, or 下手/上手 in a handicap game.
    pub(crate) fn label(&self, c: Color) -> &'static str {
        match (self.handicap, c) {
            (false, c) => c.kanji(),
            (true, Color::Sente) => "下手",
            (true, Color::Gote) => "上手",
        }
    }

    /// The position before move `index` of line `id`.
    pub(crate) fn position_before(&self, id: LineId, index: usize) -> Position {
        let mut chain = vec![(id, index)];
        let mut cur = id;
        while let Some(i) = cur {
            let v = &self.game.variations[i];
            chain.push((v.parent, v.entry));
            cur = v.parent;
        }
        let mut pos = self.game.start.clone();
        for (line, upto) in chain.into_iter().rev() {
            for p in self.result(line).plies.iter().take(upto) {
                pos.play_unchecked(p.mv);
            }
        }
        pos
    }

    /// The lines written: the main line, then the variations depth-first,
    /// latest branch point first.
    pub(crate) fn line_order(&self) -> Vec<LineId> {
        let mut order = Vec::with_capacity(self.plans.len() + 1);
        let mut stack: Vec<LineId> = vec![None];
        while let Some(id) = stack.pop() {
            order.push(id);
            // Pushed so that the last branch point pops first, and at one
            // branch point the first alternative pops first.
            // One past the written moves: the alternatives to the ending.
            let written = self.plan_of(id).written;
            for entry in 0..=written {
                if let Some(kids) = self.children.get(&(id, entry)) {
                    for &k in kids.iter().rev() {
                        stack.push(Some(k));
                    }
                }
            }
        }
        order
    }

    /// What follows in `out` came from `origin`.
    pub(crate) fn mark(&mut self, origin: Origin) {
        if self.marks.last().map(|m| m.1) != Some(origin) {
            self.marks.push((self.out.len(), origin));
        }
    }

    pub(crate) fn line(&mut self, s: &str) {
        self.out.push_str(s);
        self.out.push('\n');
    }

    /// The evaluation, comments and bookmarks of move `e`, as `*` and `&`
    /// lines.
    pub(crate) fn attachments(&mut self, e: &MoveEntry) {
        self.mark(Origin::CommentOf(e.span.line));
        // An empty `'**` says nothing, and `**` alone would read back as a comment.
        if let Some(ev) = e.eval().filter(|ev| !ev.is_empty()) {
            self.line(&format!("*{}", crate::emit::pv::floodgate_text(ev)));
        }
        for c in e.comments() {
            self.line(&format!("*{c}"));
        }
        for b in e.bookmarks() {
            self.line(&format!("&{b}"));
        }
    }

    /// The written moves of line `r`, each by `write_move` (given its
    /// index, its mover, its move, piece before and 同, and its record
    /// entry), between the mark of the input line it came from and its
    /// attachments. Generic and inlined: this runs once a ply.
    #[inline]
    pub(crate) fn write_moves(
        &mut self,
        r: &LineResult,
        line: &'g Line,
        plan: &Plan,
        mut write_move: impl FnMut(
            &mut Self,
            usize,
            Color,
            (Move, PieceKind, bool),
            Option<&'g MoveEntry>,
        ),
    ) {
        let first_mover = self.first_mover(r);
        for i in 0..plan.written {
            let entry = line.moves.get(i);
            if let Some(e) = entry {
                self.mark(Origin::Line(e.span.line));
            }
            write_move(self, i, mover_at(first_mover, i), plan.move_at(r, i), entry);
            if let Some(e) = entry {
                self.attachments(e);
            }
        }
    }

    /// The end of a line: the moves the replay could not play, kept as `*`
    /// lines, and its ending. For an ending, `before` writes what the format
    /// puts before the ending's comments, given the terminal word (empty
    /// when none is written), the record's ending it stands for and the
    /// `まで` line; that line is returned for a format that writes it last,
    /// after the commented moves.
    pub(crate) fn end_line<'p>(
        &mut self,
        r: &LineResult,
        line: &'g Line,
        plan: &'p Plan,
        format: &str,
        before: impl FnOnce(&mut Self, &'p str, Option<&'g Ending>, Option<&'p str>),
    ) -> Option<&'p str> {
        let commented = self.commented_moves(r, line, plan);
        let Some((word, summary)) = &plan.ending else {
            self.write_commented(&commented);
            return None;
        };
        let source = line.ending.as_ref().filter(|_| !word.is_empty());
        if !word.is_empty() {
            self.warn_changed_ending(r, source, word, format);
        }
        before(self, word, source, summary.as_deref());
        self.ending_comments(source);
        self.write_commented(&commented);
        summary.as_deref()
    }

    /// Moves the replay could not play, as `*` lines to keep them, with the
    /// warnings that say so.
    fn commented_moves(
        &mut self,
        r: &LineResult,
        line: &Line,
        plan: &Plan,
    ) -> Vec<(Origin, String)> {
        let rest = line.moves.get(plan.commented_from..).unwrap_or(&[]);
        let mut commented = Vec::new();
        for (k, e) in rest.iter().enumerate() {
            let number = r.first_ply + (plan.commented_from + k) as u32;
            let origin = Origin::Line(e.span.line);
            commented.push((origin, format!("*{number} {}", notation_text(&e.notation))));
            let origin = Origin::CommentOf(e.span.line);
            commented.extend(e.comments().iter().map(|c| (origin, format!("*{c}"))));
        }
        if let Verdict::Foul(f) = &r.verdict
            && f.rule == Rule::WrongTurn
        {
            self.warn(
                WarningCode::FoulMoveCommented,
                format!(
                    "ply {}: KIF cannot show which side moved, so the wrong-turn foul move is kept as a comment",
                    f.ply
                ),
            );
        }
        if !rest.is_empty() {
            let foul = !r.verdict.is_legal();
            self.warn(
                if foul {
                    WarningCode::MovesAfterFoulCommented
                } else {
                    WarningCode::MovesAfterEndCommented
                },
                format!(
                    "{} move(s) written after {} on the line from ply {} are kept as comments",
                    rest.len(),
                    if foul { "the foul" } else { "the end of play" },
                    r.first_ply
                ),
            );
        }
        commented
    }

    fn write_commented(&mut self, commented: &[(Origin, String)]) {
        for (origin, c) in commented {
            self.mark(*origin);
            self.line(c);
        }
    }

    /// The comments of the record's ending `source`, when its word is written.
    fn ending_comments(&mut self, source: Option<&Ending>) {
        if let Some(e) = source {
            self.mark(Origin::CommentOf(e.span.line));
            for c in &e.comments {
                self.line(&format!("*{c}"));
            }
        }
    }

    /// Warn when the written terminal word `word` is not the record's ending
    /// `source`; `format` names the format written.
    fn warn_changed_ending(
        &mut self,
        r: &LineResult,
        source: Option<&Ending>,
        word: &str,
        format: &str,
    ) {
        let Some(e) = source else {
            return;
        };
        if !r.verdict.is_legal() && !is_foul(e.kind) {
            self.warn(
                WarningCode::EndingReplaced,
                format!(
                    "the record ends with {:?}, but the line ends with a foul: written as {word}",
                    e.text
                ),
            );
        }
        if r.verdict.is_legal() && !kif_word_keeps(e.kind) {
            self.warn(
                WarningCode::EndingChanged,
                format!("{format} has no word for {:?}: written as {word}", e.text),
            );
        }
    }

    /// The text with `newline` for each line end, and the warnings.
    pub(crate) fn into_text(self, newline: &str) -> (String, Vec<Warning>) {
        let text = if newline == "\n" {
            self.out
        } else {
            self.out.replace('\n', newline)
        };
        (text, self.warnings)
    }

    /// The text encoded as CP932 with CRLF, and the warnings (with those
    /// for characters CP932 cannot hold, naming the input line).
    pub(crate) fn into_sjis(mut self) -> (Vec<u8>, Vec<Warning>) {
        let (bytes, more) = sjis::encode_marked(&self.out, &self.marks);
        self.warnings.extend(more);
        // 0x0A is never part of a two-byte Shift_JIS code, so the bytes can
        // take the Windows line ends after encoding.
        let mut out = Vec::with_capacity(bytes.len() + bytes.len() / 16);
        let mut from = 0;
        for lf in memchr::memchr_iter(b'\n', &bytes) {
            out.extend_from_slice(&bytes[from..lf]);
            out.extend_from_slice(b"\r\n");
            from = lf + 1;
        }
        out.extend_from_slice(&bytes[from..]);
        (out, self.warnings)
    }
}

/// The side to move after `i` moves of a line whose first mover is `first`.
pub(crate) fn mover_at(first: Color, i: usize) -> Color {
    if i.is_multiple_of(2) {
        first
    } else {
        first.flip()
    }
}

/// Whether lines must follow the move `e` (comments, bookmarks).
pub(crate) fn has_attachments(e: &MoveEntry) -> bool {
    !e.comments().is_empty() || !e.bookmarks().is_empty() || e.eval().is_some()
}

/// Whether any line in the record tree satisfies `f`.
fn any_line(line: &Line, f: &dyn Fn(&Line) -> bool) -> bool {
    let mut stack = vec![line];
    while let Some(l) = stack.pop() {
        if f(l) {
            return true;
        }
        for m in &l.moves {
            stack.extend(m.variations().iter());
        }
        stack.extend(l.ending_variations.iter());
    }
    false
}

/// Whether any move or ending in the record tree carries a time: KfW then
/// writes a time on every line.
fn has_times(line: &Line) -> bool {
    any_line(line, &|l| {
        l.moves.iter().any(|m| m.time.is_some())
            || l.ending.as_ref().is_some_and(|e| e.time.is_some())
    })
}

/// Display columns: full-width characters take two.
pub(crate) fn width(s: &str) -> usize {
    // By bytes rather than chars: an ASCII byte is one column, the lead
    // byte of any other character two, continuation bytes none.
    s.bytes()
        .map(|b| match b {
            0..0x80 => 1,
            0x80..0xC0 => 0,
            _ => 2,
        })
        .sum()
}

/// KIF texts both writers' tests start from.
#[cfg(test)]
pub(crate) mod fixtures {
    /// Variations within variations, four branch points deep.
    pub(crate) const NESTED_VARIATIONS: &str = "1 ７六歩(77)\n2 ３四歩(33)\n3 ２二角成(88)\n4 同　銀(31)\n5 中断\n\
               変化：3手\n3 ２六歩(27)\n4 ８四歩(83)\n\
               変化：4手\n4 ８八角成(22)\n\
               変化：2手\n2 ８四歩(83)\n3 ２六歩(27)\n\
               変化：1手\n1 ２六歩(27)\n";

    /// ７五歩打 is a second pawn on file 7 (二歩); two moves and a
    /// resignation follow the foul, and must not vanish.
    pub(crate) const NIFU_THEN_MOVES: &str =
        "1 ７六歩(77)\n2 ３四歩(33)\n3 ７五歩打\n4 ８四歩(83)\n5 ２六歩(27)\n6 投了\n";

    /// What either writer must make of [`NIFU_THEN_MOVES`]: `warnings`
    /// say that the later moves are kept as comments, and the text read
    /// back (`again`) is gote's win by the foul.
    pub(crate) fn assert_nifu_written(warnings: &[crate::emit::Warning], again: &crate::Game) {
        let codes: Vec<_> = warnings.iter().map(|w| w.code.code()).collect();
        assert!(codes.contains(&"moves-after-foul-commented"), "{codes:?}");
        assert_eq!(again.main.result.winner, Some(crate::Color::Gote));
        assert_eq!(again.main.result.reason, "foul");
    }
}
