//! KIF out, laid out the way Kifu for Windows writes it (`kif.md` §6.3):
//! header, 手合割 or a board diagram, numbered move lines with times,
//! comments, bookmarks, the terminal word, the `まで` line, then the
//! variation blocks depth-first.
//!
//! Moves come from the replay, not from the record's notation, so every
//! written move is normalized (origin always given, `同　` where the replay
//! says so, 成 only when promoting). What the replay could not play is never
//! dropped silently: it becomes `*` comment lines and a [`Warning`].

use crate::codes::WarningCode;
use crate::emit::Warning;
use crate::emit::sjis::{self, Marks, Origin};
use crate::notation::notation_text;
use crate::parse::ja::header::{self as ja, HandicapName};
use crate::position::Position;
use crate::record::{Ending, EndingKind, Line, MoveEntry, MoveTime, Notation, StartPosition};
use crate::replay::{Game, LineResult, Verdict};
use crate::rule::Rule;
use crate::setup::{Handicap, Setup};
use crate::types::{Color, Move, PieceKind, Square};
use std::collections::HashMap;

/// The text encoding the `#KIF … encoding=` line declares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KifEncoding {
    /// UTF-8 (`.kifu`).
    #[default]
    Utf8,
    /// Shift_JIS / CP932 (`.kif`); encode the text with [`encode_sjis`].
    ShiftJis,
}

impl KifEncoding {
    /// The name written in the `#KIF version=2.0 encoding=…` line.
    pub fn label(self) -> &'static str {
        match self {
            KifEncoding::Utf8 => "UTF-8",
            KifEncoding::ShiftJis => "Shift_JIS",
        }
    }
}

/// How [`write_with`] lays the text out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KifOptions {
    /// The encoding declared in the first line (the caller encodes).
    pub encoding: KifEncoding,
    /// The line terminator: `"\n"` or `"\r\n"` (what Windows tools write).
    pub newline: &'static str,
}

impl KifOptions {
    /// `.kifu`: UTF-8, LF.
    pub const fn utf8() -> KifOptions {
        KifOptions {
            encoding: KifEncoding::Utf8,
            newline: "\n",
        }
    }

    /// `.kif`: Shift_JIS with CRLF, as KfW writes it.
    pub const fn shift_jis() -> KifOptions {
        KifOptions {
            encoding: KifEncoding::ShiftJis,
            newline: "\r\n",
        }
    }
}

impl Default for KifOptions {
    fn default() -> Self {
        KifOptions::utf8()
    }
}

/// KIF text for `game` with [`KifOptions::default`] (UTF-8 declaration, LF).
pub fn write(game: &Game) -> (String, Vec<Warning>) {
    write_with(game, &KifOptions::default())
}

/// KIF text for `game`, plus warnings for what KIF could not hold or what
/// had to change (a replaced ending, moves after a foul turned into comments).
pub fn write_with(game: &Game, opts: &KifOptions) -> (String, Vec<Warning>) {
    render(game, Style::Kif, opts)
}

/// Which of Kakinoki's two text formats the writer lays out. KIF and KI2
/// share the header, start position, comments, endings and variation order;
/// only the move lines differ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Style {
    /// Numbered move lines with origins and times.
    Kif,
    /// Traditional notation, six moves a line, no times (`ki2.md` §3).
    Ki2,
}

impl Style {
    fn name(self) -> &'static str {
        match self {
            Style::Kif => "KIF",
            Style::Ki2 => "KI2",
        }
    }
}

/// The text of `game` in `style`; `opts.encoding` only matters for KIF's
/// `#KIF` line.
pub(crate) fn render(game: &Game, style: Style, opts: &KifOptions) -> (String, Vec<Warning>) {
    let mut w = Writer::new(game, style);
    w.header(opts);
    w.lines();
    let text = if opts.newline == "\n" {
        w.out
    } else {
        w.out.replace('\n', opts.newline)
    };
    (text, w.warnings)
}

pub use super::sjis::encode_sjis;

/// KIF for `game` as a `.kif` file holds it: Shift_JIS (CP932, with the
/// best-fit characters Windows writes) and CRLF. Warnings for characters
/// CP932 cannot hold name the input line they came from.
pub fn write_sjis(game: &Game) -> (Vec<u8>, Vec<Warning>) {
    encoded(game, Style::Kif)
}

/// `game` in `style`, encoded as CP932 with CRLF.
pub(crate) fn encoded(game: &Game, style: Style) -> (Vec<u8>, Vec<Warning>) {
    let mut w = Writer::new(game, style);
    w.header(&KifOptions::shift_jis());
    w.lines();
    let (bytes, more) = sjis::encode_marked(&w.out, &w.marks);
    w.warnings.extend(more);
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
    (out, w.warnings)
}

/// Moves on one KI2 line, as Kifu for Windows writes them.
const KI2_MOVES_PER_LINE: usize = 6;
/// Display columns each KI2 move is padded to.
const KI2_COLUMN: usize = 12;

/// Line ids: `None` is the main line, `Some(i)` is `game.variations[i]`.
type LineId = Option<usize>;

/// What will be written for one line of play, decided before writing so that
/// `+` markers and variation blocks agree with the move lines.
#[derive(Clone, Debug, Default)]
struct Plan {
    /// Number of move lines (legal plies, plus the foul move when written).
    written: usize,
    /// The foul move written after the plies: move, piece before, 同.
    foul_move: Option<(Move, PieceKind, bool)>,
    /// Record moves from this index on are written as comments.
    commented_from: usize,
    /// The terminal word and its `まで` line, if any.
    ending: Option<(String, Option<String>)>,
    /// Destination of the move before this line's first move.
    prev_to: Option<Square>,
    /// Each side's total time (ms) before each written move (len `written + 1`).
    totals: Vec<[u64; 2]>,
    /// Whether the line is written at all.
    keep: bool,
    /// Whether variations branch from the terminal word (its line gets `+`).
    ending_forks: bool,
}

struct Writer<'g> {
    game: &'g Game,
    style: Style,
    out: String,
    warnings: Vec<Warning>,
    handicap: bool,
    timed: bool,
    plans: Vec<Plan>,
    main_plan: Plan,
    /// Writable variations by (parent line, entry), in index order.
    children: HashMap<(LineId, usize), Vec<usize>>,
    /// Where each stretch of `out` came from in the input.
    marks: Marks,
    /// The header names players both as 先手/後手 and as 下手/上手.
    both_name_pairs: bool,
}

impl<'g> Writer<'g> {
    fn new(game: &'g Game, style: Style) -> Writer<'g> {
        let mut w = Writer {
            game,
            style,
            out: String::new(),
            warnings: Vec::new(),
            handicap: is_handicap(game),
            timed: has_times(&game.record.main),
            plans: Vec::new(),
            main_plan: Plan::default(),
            children: HashMap::new(),
            marks: Marks::new(),
            both_name_pairs: both_name_pairs(game),
        };
        w.main_plan = w.plan(None);
        let mut dropped = 0usize;
        for i in 0..game.variations.len() {
            let v = &game.variations[i];
            let parent_ok = match v.parent {
                None => true,
                Some(p) => w.plans[p].keep,
            };
            let parent = w.plan_of(v.parent);
            // An alternative to the ending goes where the parent's terminal
            // word is written, so that word must be the record's own.
            let from_terminal =
                v.entry == parent.written && parent.foul_move.is_none() && parent.ending.is_some();
            let branch_ok = parent_ok && (v.entry < parent.written || from_terminal);
            let mut plan = if branch_ok {
                w.plan(Some(i))
            } else {
                Plan::default()
            };
            plan.keep = plan.keep && branch_ok;
            if plan.keep {
                w.children.entry((v.parent, v.entry)).or_default().push(i);
            } else {
                dropped += 1;
            }
            w.plans.push(plan);
        }
        // Those that branch past the legal part of their line were never replayed.
        dropped += game.recorded_variations() - game.variations.len();
        if dropped > 0 {
            w.warn(
                WarningCode::VariationsDropped,
                format!(
                    "{dropped} variation(s) branch from moves that are not written as moves (or hold nothing) and are left out"
                ),
            );
        }
        if style == Style::Ki2 && w.timed {
            w.warn(
                WarningCode::TimesDropped,
                "KI2 has no place for move times; they are left out".into(),
            );
        }
        w
    }

    fn warn(&mut self, code: WarningCode, message: String) {
        self.warnings.push(Warning { code, message });
    }

    fn record_line(&self, id: LineId) -> Option<&'g Line> {
        match id {
            None => Some(&self.game.record.main),
            Some(i) => self.game.variation_line(i),
        }
    }

    fn result(&self, id: LineId) -> &'g LineResult {
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

    /// The side that plays the line's first move.
    fn first_mover(&self, r: &LineResult) -> Color {
        let c = self.game.start.side_to_move();
        if r.first_ply.is_multiple_of(2) {
            c.flip()
        } else {
            c
        }
    }

    fn label(&self, c: Color) -> &'static str {
        match (self.handicap, c) {
            (false, c) => c.kanji(),
            (true, Color::Sente) => "下手",
            (true, Color::Gote) => "上手",
        }
    }

    fn plan(&self, id: LineId) -> Plan {
        let r = self.result(id);
        let Some(line) = self.record_line(id) else {
            return Plan::default();
        };
        // Where the line starts: the previous destination and the clocks.
        let (prev_to, start_totals) = match id {
            None => (None, [0, 0]),
            Some(i) => {
                let v = &self.game.variations[i];
                let parent = self.plan_of(v.parent);
                let prev = if v.entry == 0 {
                    parent.prev_to
                } else {
                    Some(self.result(v.parent).plies[v.entry - 1].mv.to())
                };
                (prev, parent.totals.get(v.entry).copied().unwrap_or([0, 0]))
            }
        };
        let n = r.plies.len();
        let mut plan = Plan {
            written: n,
            commented_from: n,
            prev_to,
            ..Plan::default()
        };
        let first_mover = self.first_mover(r);
        // The mover after the last written move, and the number of moves played.
        let mover_after = |written: usize| {
            if written.is_multiple_of(2) {
                first_mover
            } else {
                first_mover.flip()
            }
        };
        let base = r.first_ply - 1;
        match &r.verdict {
            Verdict::Foul(f) => {
                let in_plies = f.ply + 1 == r.first_ply + n as u32;
                // A KIF move line's side follows from its number, so a move
                // by the wrong side would read back as a legal move of the
                // right side: the foul vanishes. Keep it as a comment instead.
                let wrong_turn = f.rule == Rule::WrongTurn;
                if in_plies {
                    // Perpetual check: the foul is the last legal-looking ply.
                    plan.commented_from = n;
                } else if !wrong_turn && let Some((mv, piece)) = self.foul_move(id, f, line) {
                    let prev = r.plies.last().map(|p| p.mv.to()).or(prev_to);
                    plan.foul_move = Some((mv, piece, prev == Some(mv.to())));
                    plan.written = n + 1;
                    plan.commented_from = n + 1;
                }
                if plan.written > n || in_plies || wrong_turn {
                    let moves = base + plan.written as u32;
                    let winner = f.loser.flip();
                    plan.ending = Some((
                        "反則勝ち".into(),
                        Some(format!("まで{moves}手で{}の反則勝ち", self.label(winner))),
                    ));
                } else {
                    let moves = base + n as u32;
                    plan.ending = Some((
                        "反則負け".into(),
                        Some(format!(
                            "まで{moves}手で{}の反則負け",
                            self.label(mover_after(n))
                        )),
                    ));
                }
            }
            Verdict::Legal => {
                let moves = base + n as u32;
                let mover = mover_after(n);
                plan.ending = match &line.ending {
                    Some(e) => Some(legal_ending(e.kind, moves, mover, |c| self.label(c))),
                    None => r.result.winner.map(|w| {
                        (
                            String::new(),
                            Some(format!("まで{moves}手で{}の勝ち", self.label(w))),
                        )
                    }),
                };
            }
        }
        plan.keep = id.is_none() || plan.written > 0 || line.ending.is_some();
        // Clocks before each written move.
        let mut totals = start_totals;
        plan.totals.push(totals);
        for i in 0..plan.written {
            let c = mover_after(i);
            if let Some(t) = line.moves.get(i).and_then(|m| m.time) {
                let spent = t.spent_ms.unwrap_or(0);
                totals[c.index()] = t.total_ms.unwrap_or(totals[c.index()] + spent);
            }
            plan.totals.push(totals);
        }
        plan
    }

    /// The foul move of a line and the piece that made it, when both can be
    /// named: from the replay, else the notation, else the board.
    fn foul_move(
        &self,
        id: LineId,
        f: &crate::replay::Foul,
        line: &Line,
    ) -> Option<(Move, PieceKind)> {
        let mv = f.mv?;
        if let Some(p) = f.piece {
            return Some((mv, p));
        }
        let r = self.result(id);
        let entry = line.moves.get(r.plies.len());
        let from_notation = entry.and_then(|e| match e.notation {
            Notation::Kif { piece, .. } | Notation::Ki2 { piece, .. } => Some(piece),
            Notation::Csa { piece, .. } if mv.is_promotion() => Some(piece.unpromoted()),
            Notation::Csa { piece, .. } => Some(piece),
            Notation::Usi(_) => None,
        });
        if from_notation.is_some() {
            return from_notation.map(|p| (mv, p));
        }
        match mv {
            Move::Drop { kind, .. } => Some((mv, kind)),
            Move::Normal { from, .. } => {
                let pos = self.position_before(id, r.plies.len());
                pos.piece_at(from).map(|p| (mv, p.kind))
            }
        }
    }

    /// The position before move `index` of line `id`.
    fn position_before(&self, id: LineId, index: usize) -> Position {
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

    /// What follows in `out` came from `origin`.
    fn mark(&mut self, origin: Origin) {
        if self.marks.last().map(|m| m.1) != Some(origin) {
            self.marks.push((self.out.len(), origin));
        }
    }

    fn line(&mut self, s: &str) {
        self.out.push_str(s);
        self.out.push('\n');
    }

    fn header(&mut self, opts: &KifOptions) {
        let game = self.game;
        if self.style == Style::Kif {
            self.line(&format!(
                "#KIF version=2.0 encoding={}",
                opts.encoding.label()
            ));
        }
        // Lines the source kept without meaning (`#` lines, CSA `'` lines,
        // unknown lines) go back as `#` lines, which every KIF reader skips.
        // The source's own `#KIF` line describes the source file: not copied.
        let mut prefixed = 0usize;
        self.mark(Origin::Unknown);
        for n in &game.record.notes {
            if n.starts_with("#KIF version") {
                continue;
            }
            if n.starts_with('#') {
                self.line(n);
            } else {
                self.line(&format!("#{n}"));
                prefixed += 1;
            }
        }
        if prefixed > 0 {
            self.warn(
                WarningCode::NotesAsComments,
                format!("{prefixed} line(s) without meaning in this format kept as `#` lines"),
            );
        }
        let mut start_written = false;
        let handicap_value = game.record.header_value(&["手合割"]).map(str::to_string);
        for h in &game.record.header {
            let Some(key) = self.kif_key(&h.key) else {
                continue;
            };
            if !start_written && matches!(key, "先手" | "後手" | "下手" | "上手") {
                self.start(handicap_value.as_deref());
                start_written = true;
            }
            self.mark(Origin::Line(h.span.line));
            // A key no KIF reader would take as a header key (it starts like
            // a move line or holds a colon) is kept as a `#` line instead.
            if !kif_header_key_ok(key) {
                self.line(&format!("#{key}：{}", h.value.trim()));
                self.warn(
                    WarningCode::HeaderAsComment,
                    format!("header key {key:?} cannot be a KIF header line; kept as a # line"),
                );
                continue;
            }
            // Readers trim values, so a CSA `$START_TIME: …` space would
            // not survive a second write.
            self.line(&format!("{key}：{}", h.value.trim()));
        }
        if !start_written {
            self.start(handicap_value.as_deref());
        }
        self.mark(Origin::Unknown);
        if self.style == Style::Kif {
            self.line(if self.timed {
                "手数----指手---------消費時間--"
            } else {
                "手数----指手--"
            });
        }
        for c in &game.record.comments {
            self.line(&format!("*{c}"));
        }
        for b in &game.record.bookmarks {
            self.line(&format!("&{b}"));
        }
    }

    /// The KIF key for a record key, or `None` for keys written elsewhere
    /// (手合割) or describing a source file (CSA `Version`, `Encoding`).
    fn kif_key<'k>(&self, key: &'k str) -> Option<&'k str> {
        let mapped = match key {
            "手合割" | "Version" | "Encoding" => return None,
            // Both pairs written: each is the source's own, kept as written.
            "先手" | "後手" | "下手" | "上手" if self.both_name_pairs => key,
            "N+" | "先手" | "下手" => {
                if self.handicap {
                    "下手"
                } else {
                    "先手"
                }
            }
            "N-" | "後手" | "上手" => {
                if self.handicap {
                    "上手"
                } else {
                    "後手"
                }
            }
            "EVENT" => "棋戦",
            "SITE" => "場所",
            "START_TIME" => "開始日時",
            "END_TIME" => "終了日時",
            "TIME_LIMIT" | "TIME" => "持ち時間",
            "OPENING" => "戦型",
            "TIME+" => "先手持ち時間",
            "TIME-" => "後手持ち時間",
            "MAX_MOVES" => "最大手数",
            "JISHOGI" => "持将棋",
            other => other,
        };
        Some(mapped)
    }

    /// `手合割：…` for an exact preset, else the board diagram (under the
    /// source's own 手合割 name, if it had one, as KfW keeps it).
    fn start(&mut self, source_name: Option<&str>) {
        self.mark(Origin::Unknown);
        let setup = self.game.start.to_setup();
        let preset = setup.preset().filter(|_| setup.move_number == 1);
        if let Some(h) = preset {
            // The source's own value when it names the same preset: it may
            // carry a note (`平手#…`) that the canonical name would drop.
            // Trimmed as readers trim it, so that writing twice gives the same bytes.
            let own = source_name
                .map(ja::trim_ja)
                .filter(|n| ja::handicap_name(n) == HandicapName::Preset(h))
                .unwrap_or(h.kif_name());
            self.line(&format!("手合割：{own}"));
            return;
        }
        if let Some(name) = source_name {
            self.line(&format!("手合割：{}", ja::trim_ja(name)));
        }
        self.bod(&setup);
    }

    fn bod(&mut self, s: &Setup) {
        let labels = [self.label(Color::Sente), self.label(Color::Gote)];
        let d = super::diagram::Diagram::from_setup(s);
        super::bod::write(&mut self.out, &d, labels, super::bod::BodOptions::default());
    }

    /// The main line, then the variations depth-first, latest branch point first.
    fn lines(&mut self) {
        let mut stack: Vec<LineId> = vec![None];
        while let Some(id) = stack.pop() {
            self.write_line(id);
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
    }

    /// One line of play: its `変化` heading, its moves, the moves the replay
    /// could not play (as comments), and its ending.
    fn write_line(&mut self, id: LineId) {
        let r = self.result(id);
        let Some(line) = self.record_line(id) else {
            return;
        };
        let mut plan = self.plan_of(id).clone();
        plan.ending_forks = self.children.contains_key(&(id, plan.written));
        if id.is_some() {
            self.line("");
            // Kifu for Windows pads the ply to four columns in KI2 only.
            let heading = match self.style {
                Style::Ki2 => format!("変化：{:>4}手", r.first_ply),
                _ => format!("変化：{}手", r.first_ply),
            };
            self.line(&heading);
        }
        self.write_moves(id, line, &plan);
        let commented = self.commented_moves(r, line, &plan);
        match &plan.ending {
            Some((word, summary)) => {
                self.write_ending(r, line, &plan, word, summary.as_deref(), &commented);
            }
            None => self.write_commented(&commented),
        }
    }

    /// The side to move after `i` moves of a line whose first mover is `first`.
    fn mover_at(first: Color, i: usize) -> Color {
        if i.is_multiple_of(2) {
            first
        } else {
            first.flip()
        }
    }

    /// The written moves of a line, each followed by its comments and bookmarks.
    fn write_moves(&mut self, id: LineId, line: &Line, plan: &Plan) {
        let r = self.result(id);
        let first_mover = self.first_mover(r);
        // KI2 names moves relative to the other pieces, so it needs the board.
        let mut pos = (self.style == Style::Ki2).then(|| self.position_before(id, 0));
        let mut row: Vec<String> = Vec::new();
        for i in 0..plan.written {
            let (mv, piece, same) = match r.plies.get(i) {
                Some(p) => (p.mv, p.piece, p.same),
                None => plan
                    .foul_move
                    .expect("the written move past the plies is the foul"),
            };
            let entry = line.moves.get(i);
            if let Some(e) = entry {
                self.mark(Origin::Line(e.span.line));
            }
            let mover = Self::mover_at(first_mover, i);
            if let Some(p) = pos.as_mut() {
                row.push(crate::notation::ki2_move(p, mover, mv, piece, same));
                p.play_unchecked(mv);
                // The `*`/`&` lines must directly follow the move they annotate.
                let annotated = entry.is_some_and(|e| self.has_attachments(e));
                if row.len() == KI2_MOVES_PER_LINE || annotated {
                    self.ki2_row(&mut row);
                }
            } else {
                let time = entry.and_then(|e| e.time);
                let marker = self.children.contains_key(&(id, i));
                let number = r.first_ply + i as u32;
                let clock = self.timed.then(|| (time, plan.totals[i][mover.index()]));
                self.move_line(
                    number,
                    |out| crate::notation::push_kif_move(out, mv, piece, same),
                    clock,
                    marker,
                );
            }
            if let Some(e) = entry {
                self.attachments(e);
            }
        }
        self.ki2_row(&mut row);
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

    /// The terminal word `word` (KIF only; empty when none is written), its
    /// comments, the commented moves and the `まで` line, in the order each
    /// style reads them back.
    fn write_ending(
        &mut self,
        r: &LineResult,
        line: &Line,
        plan: &Plan,
        word: &str,
        summary: Option<&str>,
        commented: &[(Origin, String)],
    ) {
        let source = line.ending.as_ref().filter(|_| !word.is_empty());
        if !word.is_empty() {
            self.warn_changed_ending(r, source, word);
            if self.style == Style::Kif {
                let after = plan.written;
                let mover = Self::mover_at(self.first_mover(r), after);
                let number = r.first_ply + after as u32;
                let clock = self.timed.then(|| {
                    (
                        source.and_then(|e| e.time),
                        plan.totals[after][mover.index()],
                    )
                });
                self.move_line(number, |out| out.push_str(word), clock, plan.ending_forks);
            }
        }
        if self.style == Style::Ki2 {
            // No terminal word in KI2: the `まで` line is the ending, and
            // `*` lines after it attach to it (before it, to the last move).
            if let Some(s) = summary {
                self.line(s);
            }
        }
        if let Some(e) = source {
            self.mark(Origin::CommentOf(e.span.line));
            for c in &e.comments {
                self.line(&format!("*{c}"));
            }
        }
        self.write_commented(commented);
        if self.style == Style::Kif
            && let Some(s) = summary
        {
            self.mark(Origin::Unknown);
            self.line(s);
        }
    }

    /// Warn when the written terminal word `word` is not the record's ending.
    fn warn_changed_ending(&mut self, r: &LineResult, source: Option<&Ending>, word: &str) {
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
                format!(
                    "{} has no word for {:?}: written as {word}",
                    self.style.name(),
                    e.text
                ),
            );
        }
    }

    /// Write the pending KI2 moves as one line, each padded to
    /// [`KI2_COLUMN`] display columns (the last one is not padded, so no
    /// line ends in spaces).
    fn ki2_row(&mut self, row: &mut Vec<String>) {
        if row.is_empty() {
            return;
        }
        let mut s = String::new();
        let last = row.len() - 1;
        for (i, m) in row.drain(..).enumerate() {
            s.push_str(&m);
            if i < last {
                // Wider moves (`▲５四銀左引不成`) still get one space, so
                // that the moves stay apart for people.
                let pad = KI2_COLUMN.saturating_sub(width(&m)).max(1);
                s.extend(std::iter::repeat_n(' ', pad));
            }
        }
        self.line(&s);
    }

    /// `   1 ７六歩(77)   ( 0:05/00:00:05)`: the number right-aligned in
    /// four columns, the move `text` writes, and with `clock` (the move's
    /// time and the mover's total before it) the time padded to column 19.
    /// Written in place: this runs once a ply.
    fn move_line(
        &mut self,
        number: u32,
        text: impl FnOnce(&mut String),
        clock: Option<(Option<MoveTime>, u64)>,
        marker: bool,
    ) {
        let out = &mut self.out;
        let mut head = AsciiBuf::new();
        head.number(u64::from(number), 4, b' ');
        head.push(b' ');
        out.push_str(head.as_str());
        let start = out.len();
        text(out);
        let mut tail = AsciiBuf::new();
        if let Some((time, total_before)) = clock {
            // Between 1 and 13 spaces.
            let pad = 13usize.saturating_sub(width(&out[start..])).max(1);
            for _ in 0..pad {
                tail.push(b' ');
            }
            tail.clock(time, total_before);
        }
        if marker {
            tail.push(b'+');
        }
        tail.push(b'\n');
        out.push_str(tail.as_str());
    }

    /// Whether lines must follow the move `e` (comments, bookmarks).
    fn has_attachments(&self, e: &MoveEntry) -> bool {
        !e.comments().is_empty() || !e.bookmarks().is_empty() || e.eval().is_some()
    }

    fn attachments(&mut self, e: &MoveEntry) {
        self.mark(Origin::CommentOf(e.span.line));
        // An empty `'**` says nothing, and `**` alone would read back as a comment.
        if let Some(ev) = e
            .eval()
            .filter(|ev| ev.score.is_some() || !ev.pv.is_empty())
        {
            self.line(&format!("*{}", crate::parse::eval::floodgate_text(ev)));
        }
        for c in e.comments() {
            self.line(&format!("*{c}"));
        }
        for b in e.bookmarks() {
            self.line(&format!("&{b}"));
        }
    }
}

/// Whether the header names the players both ways (先手/後手 and 下手/上手).
fn both_name_pairs(game: &Game) -> bool {
    let has = |keys: [&str; 2]| {
        game.record
            .header
            .iter()
            .any(|h| keys.contains(&h.key.as_str()))
    };
    has(["先手", "後手"]) && has(["下手", "上手"])
}

/// Whether players are 上手/下手: a handicap preset, a handicap named in
/// 手合割 (両香落ち …), or a header that already uses those labels.
fn is_handicap(game: &Game) -> bool {
    let preset = match &game.record.start {
        StartPosition::Preset(h) => Some(*h),
        StartPosition::Setup(s) => s.preset(),
    };
    if preset.is_some_and(|h| h != Handicap::Hirate) {
        return true;
    }
    if let Some(v) = game.record.header_value(&["手合割"]) {
        match ja::handicap_name(v) {
            HandicapName::Preset(h) if h != Handicap::Hirate => return true,
            HandicapName::Setup(_) => return true,
            _ => {}
        }
    }
    game.record
        .header
        .iter()
        .any(|h| h.key == "下手" || h.key == "上手")
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

/// The ASCII parts of a move line, gathered on the stack and appended in
/// one piece: this runs once a ply, and `format!` or a `push` a character
/// cost several times the few bytes written.
struct AsciiBuf {
    buf: [u8; 96],
    len: usize,
}

impl AsciiBuf {
    fn new() -> AsciiBuf {
        AsciiBuf {
            buf: [0; 96],
            len: 0,
        }
    }

    /// Appends an ASCII byte; the buffer holds a whole line's worth, and
    /// anything past it is dropped rather than panicking.
    fn push(&mut self, b: u8) {
        debug_assert!(b.is_ascii());
        if let Some(slot) = self.buf.get_mut(self.len) {
            *slot = b;
            self.len += 1;
        }
    }

    /// `n` in decimal, right-aligned in `width` columns with `fill` (as
    /// `{:>width$}` or `{:0width$}` writes it, wider when it must be).
    fn number(&mut self, n: u64, width: usize, fill: u8) {
        // The clock's fields: nearly every number written.
        if width == 2 && n < 100 {
            let tens = (n / 10) as u8;
            self.push(if tens == 0 { fill } else { b'0' + tens });
            self.push(b'0' + (n % 10) as u8);
            return;
        }
        let mut digits = itoa::Buffer::new();
        let digits = digits.format(n).as_bytes();
        for _ in digits.len()..width {
            self.push(fill);
        }
        for &d in digits {
            self.push(d);
        }
    }

    /// `( 0:05/00:00:05)`: the spent time, then the mover's running total.
    fn clock(&mut self, time: Option<MoveTime>, total_before: u64) {
        let spent = time.and_then(|t| t.spent_ms).unwrap_or(0);
        let total = time
            .and_then(|t| t.total_ms)
            .unwrap_or(total_before + spent);
        let (s, t) = (spent / 1000, total / 1000);
        self.push(b'(');
        self.number(s / 60, 2, b' ');
        self.push(b':');
        self.number(s % 60, 2, b'0');
        self.push(b'/');
        self.number(t / 3600, 2, b'0');
        self.push(b':');
        self.number(t / 60 % 60, 2, b'0');
        self.push(b':');
        self.number(t % 60, 2, b'0');
        self.push(b')');
    }

    fn as_str(&self) -> &str {
        // Only ASCII bytes are ever pushed, so this cannot fail.
        std::str::from_utf8(&self.buf[..self.len]).unwrap_or_default()
    }
}

/// Display columns: full-width characters take two.
fn width(s: &str) -> usize {
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

/// Whether `key` reads back as the key of a `key：value` header line.
fn kif_header_key_ok(key: &str) -> bool {
    let first = key.chars().next();
    !key.is_empty()
        && key.trim() == key
        && !key.contains([':', '：', '\r', '\n'])
        && !first
            .is_some_and(|c| c.is_ascii_digit() || c.is_whitespace() || "*&#|+▲△☗☖▼▽".contains(c))
        && !key.starts_with("変化")
        && !key.starts_with("まで")
}

fn is_foul(k: EndingKind) -> bool {
    matches!(
        k,
        EndingKind::FoulByMover | EndingKind::FoulByPrevious | EndingKind::FoulBy(_)
    )
}

/// Whether the KIF word written for `k` reads back as `k`.
fn kif_word_keeps(k: EndingKind) -> bool {
    !matches!(
        k,
        EndingKind::Hikiwake | EndingKind::MaxMoves | EndingKind::Matta | EndingKind::Error
    )
}

/// The terminal word and `まで` line of a line that ended without a foul.
/// `moves` = moves played, `mover` = the side to move at the end.
fn legal_ending(
    kind: EndingKind,
    moves: u32,
    mover: Color,
    label: impl Fn(Color) -> &'static str,
) -> (String, Option<String>) {
    use EndingKind::*;
    let won = |c: Color, what: &str| Some(format!("まで{moves}手で{}の{what}", label(c)));
    let plain = |w: &str| Some(format!("まで{moves}手で{w}"));
    let (word, summary) = match kind {
        Resign => ("投了", won(mover.flip(), "勝ち")),
        Interrupt => ("中断", plain("中断")),
        Sennichite => ("千日手", plain("千日手")),
        // KIF has no word for a declared draw or the move limit; tsshogi
        // writes 持将棋 for both (kif.md §8).
        Jishogi | Hikiwake | MaxMoves => ("持将棋", plain("持将棋")),
        TimeUp => (
            "切れ負け",
            Some(format!(
                "まで{moves}手で時間切れにより{}の勝ち",
                label(mover.flip())
            )),
        ),
        FoulByMover => ("反則負け", won(mover, "反則負け")),
        FoulByPrevious => ("反則勝ち", won(mover, "反則勝ち")),
        FoulBy(c) if c == mover => ("反則負け", won(mover, "反則負け")),
        FoulBy(_) => ("反則勝ち", won(mover, "反則勝ち")),
        Tsumi => ("詰み", plain("詰")),
        Fuzumi => ("不詰", plain("不詰")),
        Kachi => ("入玉勝ち", won(mover, "入玉勝ち")),
        Matta | Error => ("中断", plain("中断")),
        Sealed => ("封じ手", plain("封じ手")),
        DefaultWin => ("不戦勝", won(mover, "勝ち")),
        DefaultLoss => ("不戦敗", won(mover.flip(), "勝ち")),
        Try => ("トライ", won(mover, "勝ち")),
    };
    (word.to_string(), summary)
}

#[cfg(test)]
mod tests;
