//! Reading one game of a CSA text, line by line: each statement is read by
//! the grammar in `syntax` and given its meaning here.

use super::file::FileFields;
use super::position::PositionBuilder;
use super::syntax::{self, Bare, BoardLine, Expect, Statement};
use crate::codes::DiagnosticCode;
use crate::error::{ParseError, Partial};
use crate::parse::{Lines, SourceLine};
use crate::record::{
    Ending, EndingKind, Format, HeaderField, Location, MoveEntry, MoveTime, Notation, Notice,
    Record, StartPosition,
};
use crate::rules::setup::Handicap;
use crate::rules::types::Color;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// Header and position, before the side-to-move line.
    Setup,
    /// After the side-to-move line.
    Moves,
    /// After the ending.
    Ended,
}

/// What a following `T` statement times.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Timed {
    Nothing,
    LastMove,
    Ending,
}

/// The fewest bytes a move and its time take (`+7776FU\nT1\n`): a text's
/// length over this is a guess at its moves that needs no pass over it,
/// so the move list is sized once instead of growing as the game is read.
const MIN_MOVE_BYTES: usize = 11;

/// The most moves guessed from a text's length: more than nearly any game
/// has, and little memory for a hostile text of one huge line to ask for.
const MAX_MOVE_GUESS: usize = 1024;

/// One game being read.
pub(super) struct GameReader {
    record: Record,
    /// A line other than a blank one was read.
    started: bool,
    phase: Phase,
    position: PositionBuilder,
    timed: Timed,
    /// The version and encoding lines read, kept out of the header: they
    /// describe the whole file (see [`super::file`]).
    pub(super) written: FileFields,
    /// Game information after the position has been reported once.
    late_info: bool,
    /// A floodgate `'summary:max_moves:…` line and where it is: the only
    /// word of a game its server ended by the move limit (csa.md §8).
    max_moves_summary: Option<(String, Location)>,
    /// Each side's time left after its last move, in seconds, from Shogi
    /// Wars' `,L<seconds>`: the next one's difference is the time it spent.
    left: [Option<u64>; 2],
}

impl GameReader {
    /// A reader for a game whose text is `len` bytes long.
    pub(super) fn new(len: usize) -> GameReader {
        let mut record = Record::default();
        let guess = (len / MIN_MOVE_BYTES).min(MAX_MOVE_GUESS);
        record.main.moves.reserve(guess);
        GameReader {
            record,
            started: false,
            phase: Phase::Setup,
            position: PositionBuilder::new(),
            timed: Timed::Nothing,
            written: FileFields::default(),
            late_info: false,
            max_moves_summary: None,
            left: [None; 2],
        }
    }

    /// The game read; `None` when no line held anything.
    pub(super) fn finish(self) -> Option<Record> {
        if !self.started {
            return None;
        }
        let mut record = self.record;
        if record.main.ending.is_none()
            && let Some((text, span)) = self.max_moves_summary
        {
            // Floodgate writes no `%` line for a draw by the move limit:
            // the summary is the ending, judged as a `%MAX_MOVES` is.
            record.main.ending = Some(Ending {
                kind: EndingKind::MaxMoves,
                text,
                span,
                time: None,
                comments: Vec::new(),
            });
        }
        // A guess from the text's length that was far too large (a record
        // of long comments) is not kept for the record's lifetime.
        let moves = &mut record.main.moves;
        if moves.capacity() > 2 * moves.len() + 16 {
            moves.shrink_to_fit();
        }
        let board = self.position.board_written();
        let side_line = self.position.side_line();
        if board && self.phase == Phase::Setup {
            // Nothing after the position: no move told the side either.
            let span = self.position.span().unwrap_or(record.span);
            record.notices.push(no_side_notice(Color::Sente, span));
        }
        match self.position.finish() {
            Some((start, span)) => {
                record.start = start;
                record.start_span = Some(span);
            }
            None => assume_start(&mut record, side_line),
        }
        crate::parse::eval::read_gui_evals(&mut record.main);
        Some(record)
    }

    /// The error `e`, found with `lines_left` lines (its own included) not
    /// read: with the game read before it when that holds a move, so one bad
    /// line loses no more than it must.
    pub(super) fn fail(self, e: ParseError, lines_left: usize) -> ParseError {
        if self.record.main.moves.is_empty() {
            return e;
        }
        match self.finish() {
            Some(record) => e.with_partial(Partial {
                record,
                lines_left,
                format: Format::Csa,
            }),
            None => e,
        }
    }

    /// Read the run of lines that starts at `lines`' next one and holds
    /// one bare move or time each ([`syntax::bare`]), straight from the
    /// bytes: in the moves, nearly every line is one, and this skips
    /// finding each line, trimming it and dispatching its statement. Stops
    /// before any other line, which `lines` then gives as if this run had
    /// not been taken.
    pub(super) fn bare_run(&mut self, lines: &mut Lines<'_>) {
        if self.phase != Phase::Moves {
            return;
        }
        let (text, mut pos, mut number) = lines.state();
        let b = text.as_bytes();
        while let Some((bare, len)) = syntax::bare(&b[pos..]) {
            let end = pos + len;
            // The statement must be the whole line, ended as `lines` ends it.
            let next = match b.get(end) {
                None => end,
                Some(b'\n') => end + 1,
                Some(b'\r') => end + 1 + usize::from(b.get(end + 1) == Some(&b'\n')),
                Some(_) => break,
            };
            number += 1;
            match bare {
                Bare::Move(notation) => {
                    self.push_move(notation, Location::new(lines.base() + pos, number, 1));
                }
                Bare::Time(ms) => self.time(ms, &text[pos..end]),
            }
            pos = next;
        }
        lines.resume(pos, number);
    }

    /// Read one line.
    pub(super) fn line(&mut self, line: &SourceLine<'_>) -> Result<(), ParseError> {
        let start = indent(line.text);
        let content = line.text[start..].trim_ascii_end();
        if content.is_empty() || content == "/" {
            return Ok(());
        }
        if !self.started {
            // The first line that holds anything fixes where the record starts.
            self.started = true;
            self.record.span = line.span_at(start);
        }
        match content.as_bytes()[0] {
            b'\'' => {
                self.comment(content, line.span_at(start));
                Ok(())
            }
            // Names and values may contain commas, so these lines are one statement.
            b'N' | b'$' => self.statement(content, line, start),
            // Server logs (WCSC `#RESIGN`, `#TIME_UP` trailers) write these;
            // the reference has no such line, the real files win.
            b'#' => {
                self.note(content);
                Ok(())
            }
            // wcsc23/day2/4-ponanza.csa has one `'**` line that lost its quote.
            b'*' if content.starts_with("**") => {
                self.evaluation(content, content.get(2..).unwrap_or(""));
                Ok(())
            }
            // One statement (the usual case) reads as it stands; only a
            // line the grammar cannot read whole may be several.
            _ => match syntax::statement(content) {
                Ok(parsed) => self.apply(parsed, content, line.span_at(start)),
                Err(_) if content.contains(',') => self.statements(line, start),
                Err(e) => Err(grammar_error(e, content, line, start)),
            },
        }
    }

    /// A line of comma-separated statements, from byte `start`.
    fn statements(&mut self, line: &SourceLine<'_>, start: usize) -> Result<(), ParseError> {
        let mut offset = start;
        for piece in line.text[start..].split(',') {
            // `trim` also takes U+3000 (which Japanese editors leave), so the
            // statement starts where the trimmed text does.
            let stmt = piece.trim();
            let at = offset + (piece.len() - piece.trim_start().len());
            offset += piece.len() + 1;
            if stmt.is_empty() {
                continue;
            }
            if stmt.starts_with('\'') {
                // A comment runs to the end of the line, commas and all.
                let rest = line.text.get(at..).unwrap_or("").trim_end();
                self.comment(rest, line.span_at(at));
                break;
            }
            self.statement(stmt, line, at)?;
        }
        Ok(())
    }

    fn note(&mut self, text: &str) {
        self.record.notes.push(text.to_string());
    }

    /// A version or encoding line: it describes the whole file.
    fn file_field(&mut self, key: &str, value: &str, span: Location) {
        self.written.write(HeaderField {
            key: key.to_string(),
            value: value.to_string(),
            span,
        });
    }

    /// A `'` comment (text includes the quote).
    fn comment(&mut self, text: &str, span: Location) {
        if let Some(enc) = text.strip_prefix("'CSA encoding=") {
            self.file_field("Encoding", enc, span);
        } else if let Some(eval) = text
            .strip_prefix("'**")
            .filter(|b| crate::parse::eval::is_floodgate_body(b))
        {
            self.evaluation(text, eval);
        } else if let Some(c) = text.strip_prefix("'*") {
            let c = c.to_string();
            match self.phase {
                Phase::Ended => match &mut self.record.main.ending {
                    Some(e) => e.comments.push(c),
                    None => self.record.comments.push(c),
                },
                _ => match self.record.main.moves.last_mut() {
                    Some(m) => m.extra_mut().comments.push(c),
                    None => self.record.comments.push(c),
                },
            }
        } else {
            if text.starts_with("'summary:max_moves:") && self.phase != Phase::Setup {
                self.max_moves_summary = Some((text.to_string(), span));
            }
            self.note(text);
        }
    }

    /// A `'**` line: `raw` is the whole line, `body` what follows the stars.
    fn evaluation(&mut self, raw: &str, body: &str) {
        let target = match self.phase {
            Phase::Moves => self
                .record
                .main
                .moves
                .last_mut()
                .filter(|m| m.eval().is_none()),
            _ => None,
        };
        match target {
            Some(m) => m.extra_mut().eval = Some(crate::parse::eval::floodgate(body)),
            None => self.note(raw),
        }
    }

    /// Statement `stmt`, which starts at byte `at` of `line`.
    fn statement(
        &mut self,
        stmt: &str,
        line: &SourceLine<'_>,
        at: usize,
    ) -> Result<(), ParseError> {
        let parsed = syntax::statement(stmt).map_err(|e| grammar_error(e, stmt, line, at))?;
        self.apply(parsed, stmt, line.span_at(at))
    }

    /// Give a read statement its meaning; `stmt` is its text, `span` where
    /// it starts.
    fn apply(
        &mut self,
        parsed: Statement<'_>,
        stmt: &str,
        span: Location,
    ) -> Result<(), ParseError> {
        let field = |key: &str, value: &str| HeaderField {
            key: key.to_string(),
            value: value.to_string(),
            span,
        };
        match parsed {
            Statement::Version("") => {
                // Some writers leave the number out; the line says nothing
                // more, so it is kept as written and reading goes on.
                self.record.notices.push(Notice {
                    code: DiagnosticCode::BareVersion,
                    message: "a version line with no number (V2.2, V3.0): kept as a note".into(),
                    span,
                });
                self.note(stmt);
            }
            Statement::Version(v) => {
                self.file_field("Version", v, span);
            }
            Statement::Name(c, n) => {
                let key = if c == Color::Sente { "N+" } else { "N-" };
                self.late_info(stmt, span);
                self.record.header.push(field(key, n));
            }
            Statement::Info(k, v) => {
                // WCSC relays append `$END_TIME` after the moves, as the
                // time it is (csa.md §3): not out of place.
                if k != "END_TIME" {
                    self.late_info(stmt, span);
                }
                self.record.header.push(field(k, v));
            }
            Statement::Board(board) => {
                self.in_setup(span, stmt)?;
                // The side-to-move line is the position's last.
                let last = matches!(board, BoardLine::Side(_));
                self.position
                    .read(board, span)
                    .map_err(|m| ParseError::new(span, m))?;
                if last {
                    self.phase = Phase::Moves;
                }
            }
            Statement::Move(notation) => match (self.phase, &notation) {
                (Phase::Ended, _) => self.after_end(stmt),
                (Phase::Setup, &Notation::Csa { color, .. }) => {
                    self.assume_side(color, span);
                    self.push_move(notation, span);
                }
                _ => self.push_move(notation, span),
            },
            Statement::Time(ms) => self.time(ms, stmt),
            Statement::Remaining(secs) => self.remaining(secs, stmt),
            Statement::WarsEnding(word) => self.special(word, stmt, span),
            Statement::Special(word) => {
                if self.phase == Phase::Setup {
                    // The ending speaks of the side to move, and nothing
                    // says which it is: sente, as at the even-game start.
                    self.assume_side(Color::Sente, span);
                }
                self.special(word, stmt, span);
            }
        }
        Ok(())
    }

    fn push_move(&mut self, notation: Notation, span: Location) {
        self.record.main.moves.push(MoveEntry::new(notation, span));
        self.timed = Timed::LastMove;
    }

    /// A `%` statement (or a Shogi Wars ending) after the side line.
    fn special(&mut self, word: &str, stmt: &str, span: Location) {
        let kind = EndingKind::from_csa_word(word).or_else(|| self.wars_ending(word));
        match (self.phase, kind) {
            (Phase::Moves, Some(kind)) => {
                self.record.main.ending = Some(Ending {
                    kind,
                    text: stmt.to_string(),
                    span,
                    time: None,
                    comments: Vec::new(),
                });
                self.phase = Phase::Ended;
                self.timed = Timed::Ending;
            }
            _ => self.after_end(stmt),
        }
    }

    /// A move or an ending before any side-to-move line: read on as if
    /// `color`'s line had been written, and say so.
    fn assume_side(&mut self, color: Color, span: Location) {
        self.record.notices.push(no_side_notice(color, span));
        self.position.side(color, span);
        self.phase = Phase::Moves;
    }

    /// `N±` or `$KEY:` after the position: the format puts game information
    /// before it. Read as a header field all the same; said once a game.
    fn late_info(&mut self, stmt: &str, span: Location) {
        let after = self.phase != Phase::Setup || self.position.board_written();
        if after && !self.late_info {
            self.late_info = true;
            let shown: String = stmt.chars().take(40).collect();
            self.record.notices.push(Notice {
                code: DiagnosticCode::InfoAfterPosition,
                message: format!(
                    "game information {shown:?} after the start position (CSA writes it before): read as a header field"
                ),
                span,
            });
        }
    }

    /// Position statements belong before the side-to-move line.
    fn in_setup(&self, span: Location, stmt: &str) -> Result<(), ParseError> {
        if self.phase == Phase::Setup {
            Ok(())
        } else {
            Err(ParseError::new(
                span,
                format!(
                    "expected a move, T<seconds> or %…, found the position statement {stmt:?} after the side-to-move line"
                ),
            ))
        }
    }

    /// Kept in notes, and nothing after it is timed.
    fn after_end(&mut self, stmt: &str) {
        self.note(stmt);
        self.timed = Timed::Nothing;
    }

    /// The kind of a Shogi Wars ending such as `SENTE_WIN_TORYO` (with or
    /// without `%`), which names the winner: `None` for a word kifu does not
    /// know, or one whose winner is not who the kind gives the game to with
    /// this side to move (kept in notes then, as an unknown `%WORD` is).
    fn wars_ending(&self, word: &str) -> Option<EndingKind> {
        let (winner, how) = if let Some(how) = word.strip_prefix("SENTE_WIN_") {
            (Some(Color::Sente), how)
        } else if let Some(how) = word.strip_prefix("GOTE_WIN_") {
            (Some(Color::Gote), how)
        } else {
            (None, word.strip_prefix("DRAW_")?)
        };
        let mover = self.mover();
        let (kind, mover_wins) = match (winner, how) {
            (None, "SENNICHI") => return Some(EndingKind::Sennichite),
            (None, "PLY_LIMIT") => return Some(EndingKind::MaxMoves),
            // A perpetual check: the loser is named, whoever is to move.
            (Some(w), "OUTE_SENNICHI") => return Some(EndingKind::FoulBy(w.flip())),
            (Some(_), "TORYO") => (EndingKind::Resign, false),
            (Some(_), "CHECKMATE") => (EndingKind::Tsumi, false),
            // Shogi Wars counts a lost connection as time run out.
            (Some(_), "TIMEOUT" | "DISCONNECT") => (EndingKind::TimeUp, false),
            (Some(_), "ENTERINGKING") => (EndingKind::Kachi, true),
            (Some(_), "TRY") => (EndingKind::Try, false),
            _ => return None,
        };
        let gives = if mover_wins { mover } else { mover.flip() };
        (winner == Some(gives)).then_some(kind)
    }

    /// The side to move after the moves read so far.
    fn mover(&self) -> Color {
        match self.record.main.moves.last().map(|m| &m.notation) {
            Some(Notation::Csa { color, .. }) => color.flip(),
            _ => self.position.side_line().map_or(Color::Sente, |(c, _)| c),
        }
    }

    /// `L<seconds>` after a move: the mover's time left. What it spent is
    /// the drop from its time left after its previous move, or from the
    /// main time of `$TIME_LIMIT`/`$TIME` for its first; neither known (a
    /// first move with no time control written), it is kept in notes.
    fn remaining(&mut self, secs: u64, stmt: &str) {
        let mover = match (self.timed, self.record.main.moves.last()) {
            (Timed::LastMove, Some(m)) => match m.notation {
                Notation::Csa { color, .. } => Some(color),
                _ => None,
            },
            _ => None,
        };
        let Some(color) = mover else {
            return self.after_end(stmt);
        };
        let main = self.main_time();
        let before = self.left[color.index()].or(main);
        self.left[color.index()] = Some(secs);
        let spent = before.and_then(|b| b.checked_sub(secs));
        let total = main.and_then(|m| m.checked_sub(secs));
        let slot = self.record.main.moves.last_mut().map(|m| &mut m.time);
        match (slot, spent) {
            (Some(slot @ None), Some(spent)) => {
                *slot = Some(MoveTime {
                    spent_ms: Some(spent * 1000),
                    total_ms: total.map(|t| t * 1000),
                });
            }
            _ => self.note(stmt),
        }
        self.timed = Timed::Nothing;
    }

    /// The main time in seconds of the game information, if written:
    /// `$TIME_LIMIT:HH:MM+SS` or V3.0's `$TIME:MAIN+BYOYOMI+INCREMENT`.
    fn main_time(&self) -> Option<u64> {
        self.record
            .header
            .iter()
            .find_map(|f| match f.key.as_str() {
                "TIME_LIMIT" => {
                    let (h, m) = f.value.split('+').next()?.split_once(':')?;
                    Some(h.trim().parse::<u64>().ok()? * 3600 + m.trim().parse::<u64>().ok()? * 60)
                }
                "TIME" => f
                    .value
                    .split('+')
                    .next()?
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .map(|s| s as u64),
                _ => None,
            })
    }

    fn time(&mut self, ms: u64, stmt: &str) {
        let time = Some(MoveTime {
            spent_ms: Some(ms),
            total_ms: None,
        });
        let slot = match self.timed {
            Timed::LastMove => self.record.main.moves.last_mut().map(|m| &mut m.time),
            Timed::Ending => self.record.main.ending.as_mut().map(|e| &mut e.time),
            Timed::Nothing => None,
        };
        match slot {
            Some(slot) if slot.is_none() => *slot = time,
            _ => self.note(stmt),
        }
        self.timed = Timed::Nothing;
    }
}

/// The error of statement `stmt`, which starts at byte `at` of `line`.
fn grammar_error(e: Expect<'_>, stmt: &str, line: &SourceLine<'_>, at: usize) -> ParseError {
    ParseError::new(line.span_at(at + e.offset(stmt)), e.message(stmt))
}

/// Byte length of a line's leading whitespace.
fn indent(s: &str) -> usize {
    s.len() - s.trim_ascii_start().len()
}

fn no_side_notice(color: Color, span: Location) -> Notice {
    let (sign, side) = match color {
        Color::Sente => ('+', "sente"),
        Color::Gote => ('-', "gote"),
    };
    Notice {
        code: DiagnosticCode::NoSideToMove,
        message: format!(
            "no side-to-move line (+ or -) after the position: read as {sign}, {side} to move"
        ),
        span,
    }
}

/// A record with no position statement at all: Shogi Wars exports (and
/// hand-written files) mean the even-game start. The side is the side
/// line's, if one was written.
fn assume_start(record: &mut Record, side_line: Option<(Color, Location)>) {
    let side = side_line.map_or(Color::Sente, |(c, _)| c);
    record.start = if side == Color::Sente {
        StartPosition::Preset(Handicap::Hirate)
    } else {
        let mut setup = Handicap::Hirate.setup();
        setup.side_to_move = side;
        StartPosition::Setup(Box::new(setup))
    };
    record.start_span = side_line.map(|(_, span)| span);
    record.notices.insert(
        0,
        Notice {
            code: DiagnosticCode::StartAssumed,
            message: format!(
                "no start position is written (no PI, P1-P9 or P+/P- line): read as the even-game start{}",
                if side == Color::Gote { ", gote to move as the side line says" } else { "" }
            ),
            span: side_line.map_or(record.span, |(_, span)| span),
        },
    );
}
