//! The CSA standard record format (`.csa`), written as V2.2 or V3.0.
//!
//! Only what was replayed is written as moves: the legal plies, then (for a
//! game lost by a foul) the foul move and the special move naming the
//! offender. Everything else the record holds is written where CSA has room
//! for it, or reported as a [`Warning`].
//!
//! Conventions (where the format leaves room):
//!
//! * The version line comes from [`CsaOptions`]; V3.0 files open with
//!   `'CSA encoding=UTF-8` (the text is always UTF-8). The record's own
//!   `Version`/`Encoding` fields are not repeated.
//! * `N+`/`N-` and `$KEY` fields are written in header order, all before the
//!   position (WCSC relays append `$END_TIME` after the moves; V2.2 does not
//!   allow that). KIF keys with a CSA name in the header vocabulary
//!   ([`SPELLINGS`](crate::record::SPELLINGS)) are renamed (`先手`/`下手` →
//!   `N+`, `後手`/`上手` → `N-`, `棋戦` → `$EVENT`, `場所` → `$SITE`, `開始日時`
//!   → `$START_TIME`, `終了日時` → `$END_TIME`, `戦型` → `$OPENING`, and
//!   `持ち時間` → `$TIME_LIMIT` when its value has the `HH:MM+SS` shape). Any
//!   other field is kept as a `'key:value` comment line: a comment loses
//!   nothing a person reads, so no warning is given.
//! * [`Record::notes`](crate::record::Record::notes) are written after the
//!   header, before the position, where no reader can give them a meaning: a
//!   note that already starts with `'` verbatim, any other (a statement the
//!   reader refused, such as a repeated `%TORYO` or a `#` trailer) behind a
//!   `'`. Summary lines (`まで64手で先手の勝ち`) follow as `'` lines.
//! * Comments are `'*` lines in both versions (as tsshogi writes them): the
//!   record's comments after the side-to-move line, each move's after its `T`
//!   line, the ending's after the ending. A comment that itself starts with
//!   `*` and then reads as an evaluation (`* 30`) gets a space in front, since
//!   `'**` would read back as one; others (ShogiHome's `*評価値=…`) are
//!   written `'**…` as ShogiHome writes them, and read back as comments.
//! * Times: `T` after the move. V2.2 holds whole seconds: a sub-second time is
//!   rounded (half up) and reported once per game as `subsecond-time`. V3.0
//!   writes up to milliseconds (`T3.25`).
//! * A game lost by a foul: the legal plies, the foul move (with the piece
//!   after the move; kept as a `'foul move:` comment when no piece can be
//!   named), then `%+ILLEGAL_ACTION`/`%-ILLEGAL_ACTION` naming the offender,
//!   unless the record wrote its own special move, which is kept. A false
//!   entering-king declaration is its `%KACHI`. Moves written after the foul
//!   become one `'*moves after the foul: …` line on the foul move (so a
//!   rewrite puts it back in the same place) and a warning.
//! * Endings with no CSA word (封じ手, 不戦勝, 不戦敗, トライ) are written
//!   `%CHUDAN` followed by `'ending: <text as written>`, with a warning.
//!   `%MAX_MOVES` (V3.0) and `%MATTA` (V2.2) are written in either version,
//!   with a warning where the version does not list them.
//! * A start position that is the even game or a `PI`-expressible handicap
//!   (with the preset's side to move) is written `PI…`; anything else as
//!   `P1`…`P9`, `P+00…`/`P-00…` hand lines, then the side line.

use crate::codes::WarningCode;
use crate::emit::Warning;
use crate::notation::{csa_move, notation_text, push_csa_move};
use crate::record::{
    Ending, EndingKind, Evaluation, HeaderKey, Line, MoveEntry, MoveTime, Notation, Record,
};
use crate::replay::{Game, LineResult, Ply, Verdict};
use crate::rules::position::Position;
use crate::rules::rule::Rule;
use crate::rules::types::{Color, Move, PieceKind, Square};
use std::fmt::Write as _;

/// Which CSA version to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum CsaVersion {
    /// `V2.2`: the most widely read version; whole-second times.
    #[default]
    V22,
    /// `V3.0`: encoding line, millisecond times, `%MAX_MOVES`.
    V30,
}

/// Options for the CSA writer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CsaOptions {
    /// The version to write.
    pub version: CsaVersion,
}

/// One game as normalized CSA text (ends with a newline), plus what CSA could not hold.
pub fn write(game: &Game, opts: &CsaOptions) -> (String, Vec<Warning>) {
    let mut out = file_head(opts);
    let mut warnings = Vec::new();
    write_game(&mut out, game, opts, &mut warnings);
    (out, warnings)
}

/// Several games as one multi-game CSA file (games separated by a `/` line).
///
/// The encoding and version lines open the file once, as the format says;
/// each warning message names the 1-based game it concerns.
pub fn write_many(games: &[Game], opts: &CsaOptions) -> (String, Vec<Warning>) {
    let mut out = file_head(opts);
    let mut warnings = Vec::new();
    for (i, game) in games.iter().enumerate() {
        if i > 0 {
            out.push_str("/\n");
        }
        let mut w = Vec::new();
        write_game(&mut out, game, opts, &mut w);
        warnings.extend(w.into_iter().map(|w| Warning {
            code: w.code,
            message: format!("game {}: {}", i + 1, w.message),
        }));
    }
    (out, warnings)
}

/// `--split-variations`: the main line and each variation as its own Game-like CSA game text, all in one multi-game file.
///
/// Each variation becomes a whole game from the start position: the moves of
/// the lines it branches from up to the branch point, then its own moves,
/// ending as that variation ends. The header is repeated for every game. A
/// variation whose branch point lies beyond the legal part of its parent
/// line cannot be played out and is skipped with a `variation-skipped`
/// warning.
pub fn write_split(game: &Game, opts: &CsaOptions) -> (String, Vec<Warning>) {
    let mut out = file_head(opts);
    let mut warnings = Vec::new();
    let mut main_w = Vec::new();
    let main_view = LineView::main(game);
    write_view(&mut out, game, &main_view, opts, &mut main_w);
    warnings.extend(main_w.into_iter().map(|w| Warning {
        code: w.code,
        message: format!("main line: {}", w.message),
    }));
    for i in 0..game.variations.len() {
        let label = format!("variation {}", i + 1);
        let Some(view) = LineView::variation(game, i) else {
            warnings.push(Warning {
                code: WarningCode::VariationSkipped,
                message: format!(
                    "{label} branches after a move that was not replayed, so it cannot be written as a game"
                ),
            });
            continue;
        };
        out.push_str("/\n");
        let mut w = Vec::new();
        write_view(&mut out, game, &view, opts, &mut w);
        warnings.extend(w.into_iter().map(|w| Warning {
            code: w.code,
            message: format!("{label}: {}", w.message),
        }));
    }
    let unreplayed = game.recorded_variations() - game.variations.len();
    if unreplayed > 0 {
        warnings.push(Warning {
            code: WarningCode::VariationSkipped,
            message: format!(
                "{unreplayed} variation(s) branch past the legal part of their line, were not replayed and cannot be written as games"
            ),
        });
    }
    (out, warnings)
}

/// The encoding and version lines, which describe the whole file.
fn file_head(opts: &CsaOptions) -> String {
    match opts.version {
        CsaVersion::V22 => "V2.2\n".to_string(),
        CsaVersion::V30 => "'CSA encoding=UTF-8\nV3.0\n".to_string(),
    }
}

/// One line of play laid out from the start position: the legal plies with
/// the entries they came from, and the line whose replay ends the game.
struct LineView<'a> {
    plies: Vec<(&'a Ply, &'a MoveEntry)>,
    /// The line whose end is written (the main line or the variation).
    line: &'a Line,
    result: &'a LineResult,
}

impl<'a> LineView<'a> {
    fn main(game: &'a Game) -> LineView<'a> {
        LineView {
            plies: game
                .main
                .plies
                .iter()
                .zip(&game.record.main.moves)
                .collect(),
            line: &game.record.main,
            result: &game.main,
        }
    }

    /// Variation `i` played out from the start, or `None` when its branch
    /// point cannot be reached by legal plies.
    fn variation(game: &'a Game, i: usize) -> Option<LineView<'a>> {
        let v = game.variations.get(i)?;
        let parent = match v.parent {
            None => LineView::main(game),
            Some(p) => LineView::variation(game, p)?,
        };
        // The parent view's own plies start after its prefix.
        let parent_prefix = parent.result.first_ply as usize - 1;
        let upto = parent_prefix + v.entry;
        if parent.plies.len() < upto {
            return None;
        }
        let line = game.variation_line(i)?;
        let mut plies = parent.plies;
        plies.truncate(upto);
        plies.extend(v.line.plies.iter().zip(&line.moves));
        Some(LineView {
            plies,
            line,
            result: &v.line,
        })
    }

    /// The entries of the line that were not replayed as legal plies.
    fn rest(&self) -> &'a [MoveEntry] {
        let own = self.result.plies.len();
        self.line.moves.get(own..).unwrap_or(&[])
    }
}

fn write_game(out: &mut String, game: &Game, opts: &CsaOptions, warnings: &mut Vec<Warning>) {
    let view = LineView::main(game);
    write_view(out, game, &view, opts, warnings);
    let recorded = game.recorded_variations();
    if recorded > 0 {
        warnings.push(Warning {
            code: WarningCode::VariationsDropped,
            message: format!("CSA cannot hold variations: {} left out", recorded),
        });
    }
}

fn write_view(
    out: &mut String,
    game: &Game,
    view: &LineView<'_>,
    opts: &CsaOptions,
    warnings: &mut Vec<Warning>,
) {
    let record = &game.record;
    let mut times = TimeWriter {
        version: opts.version,
        rounded: 0,
    };
    write_header(out, record, warnings);
    for note in &record.notes {
        if note.starts_with('\'') {
            out.push_str(note);
        } else {
            out.push('\'');
            out.push_str(note);
        }
        out.push('\n');
    }
    for s in &record.summary {
        out.push('\'');
        out.push_str(s);
        out.push('\n');
    }
    write_start(out, game, warnings);
    write_comments(out, &record.comments);

    let mut bookmarks = record.bookmarks.len();
    for (ply, entry) in &view.plies {
        push_csa_move(out, ply.color, ply.mv, ply.piece);
        out.push('\n');
        write_entry_extras(out, entry, &mut times);
        bookmarks += entry.bookmarks().len();
    }

    // What follows the legal plies: the foul move, moves never replayed.
    let rest = view.rest();
    let mut after: &[MoveEntry] = rest;
    // After a written foul move, `'*` lines attach to it and read back there,
    // so a rewrite puts them in the same place; elsewhere they would join
    // the last legal move's comments, so plain `'` lines are used.
    let mut trailer = "'";
    let foul = match &view.result.verdict {
        Verdict::Foul(f) => Some(f),
        Verdict::Legal => None,
    };
    if let Some(f) = foul {
        let foul_in_rest = f.rule != Rule::FalseDeclaration
            && f.ply as usize == view.result.first_ply as usize + view.result.plies.len();
        if foul_in_rest && let Some((entry, tail)) = rest.split_first() {
            match foul_move_text(game, view, f.loser, f.mv, f.piece, &entry.notation) {
                Some(text) => {
                    out.push_str(&text);
                    out.push('\n');
                    write_entry_extras(out, entry, &mut times);
                    trailer = "'*";
                }
                None => {
                    let _ = writeln!(out, "'foul move: {}", notation_text(&entry.notation));
                    warnings.push(Warning {
                        code: WarningCode::FoulMoveCommented,
                        message: format!(
                            "the foul move {} names no piece CSA can write; it is kept as a comment",
                            notation_text(&entry.notation)
                        ),
                    });
                    write_plain_comments(out, entry, "'");
                }
            }
            bookmarks += entry.bookmarks().len();
            after = tail;
        }
    }
    if !after.is_empty() {
        let list: Vec<String> = after.iter().map(|m| notation_text(&m.notation)).collect();
        let (what, code) = if foul.is_some() {
            ("moves after the foul", WarningCode::MovesAfterFoulCommented)
        } else {
            ("moves not replayed", WarningCode::MovesNotReplayedCommented)
        };
        let _ = writeln!(out, "{trailer}{what}: {}", list.join(" "));
        for m in after {
            write_plain_comments(out, m, trailer);
            bookmarks += m.bookmarks().len();
        }
        warnings.push(Warning {
            code,
            message: format!(
                "{} {what} kept as a comment line, not as moves: {}",
                after.len(),
                list.join(" ")
            ),
        });
    }

    write_ending(out, game, view, warnings, &mut times);

    if bookmarks > 0 {
        warnings.push(Warning {
            code: WarningCode::BookmarksDropped,
            message: format!("CSA cannot hold bookmarks: {bookmarks} left out"),
        });
    }
    if times.rounded > 0 {
        warnings.push(Warning {
            code: WarningCode::SubsecondTime,
            message: format!(
                "V2.2 holds whole seconds: {} time(s) rounded (write V3.0 to keep milliseconds)",
                times.rounded
            ),
        });
    }
}

/// A header value CSA can hold as it stands: the `$` key, or `N+`/`N-`.
fn header_line(key: &str, value: &str) -> Option<String> {
    let spelling = crate::record::header::spelling_of(key);
    let csa_key = match spelling.map(|s| &s.key) {
        Some(HeaderKey::Sente) => return Some(format!("N+{value}")),
        Some(HeaderKey::Gote) => return Some(format!("N-{value}")),
        _ if is_info_key(key) => key,
        Some(HeaderKey::TimeLimit) if !is_time_limit(value) => return None,
        // The V2.2 `$` keys. The V3.0 ones (`$TIME+`, `$MAX_MOVES`, …) are
        // not written for KIF names: ShogiHome's 先手持ち時間 holds its own
        // text (`600+0+10`), and the comment keeps it as it is.
        Some(
            HeaderKey::Event
            | HeaderKey::Site
            | HeaderKey::StartTime
            | HeaderKey::EndTime
            | HeaderKey::Opening
            | HeaderKey::TimeLimit,
        ) => spelling?.csa?,
        _ => return None,
    };
    Some(format!("${csa_key}:{value}"))
}

/// Keys a `$KEY:` line can carry back unchanged: the CSA reader stores
/// whatever precedes the colon, so any ASCII word without `:` round-trips.
fn is_info_key(k: &str) -> bool {
    !k.is_empty() && k.bytes().all(|b| b.is_ascii_graphic() && b != b':')
}

/// `HH:MM+SS`, the only shape `$TIME_LIMIT` has; KIF's free text (`各10分`) is not it.
fn is_time_limit(v: &str) -> bool {
    let Some((hm, s)) = v.split_once('+') else {
        return false;
    };
    let Some((h, m)) = hm.split_once(':') else {
        return false;
    };
    [h, m, s]
        .iter()
        .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

fn write_header(out: &mut String, record: &Record, warnings: &mut Vec<Warning>) {
    let mut as_comments = Vec::new();
    // A KIF header may name a side twice (先手 and 下手): CSA holds one
    // `N+`, and a second would replace the first on reading.
    let mut named = [false; 2];
    for h in &record.header {
        // File-level fields: the file head already says them.
        if h.is(&[HeaderKey::Version, HeaderKey::Encoding]) {
            continue;
        }
        let line = header_line(&h.key, &h.value).filter(|l| match l.as_bytes() {
            [b'N', sign @ (b'+' | b'-'), ..] => {
                !std::mem::replace(&mut named[usize::from(*sign == b'-')], true)
            }
            _ => true,
        });
        match line {
            Some(line) => out.push_str(&line),
            None => {
                let _ = write!(out, "'{}:{}", h.key, h.value);
                // 手合割 is also the start position (PI or a board), so it
                // is not lost; the others read back as notes, not headers.
                if !h.is(&[HeaderKey::Handicap]) {
                    as_comments.push(h.key.as_str());
                }
            }
        }
        out.push('\n');
    }
    if !as_comments.is_empty() {
        warnings.push(Warning {
            code: WarningCode::HeaderAsComment,
            message: format!(
                "CSA has no key for {} header field(s) ({}): kept as ' comment lines, which read back as notes",
                as_comments.len(),
                as_comments.join(", ")
            ),
        });
    }
}

fn write_start(out: &mut String, game: &Game, warnings: &mut Vec<Warning>) {
    let side = game.start.side_to_move();
    let preset = game.record.start.preset();
    // A preset with the other side to move is not what `PI` plus the side line means to readers.
    let preset = preset.filter(|h| h.setup().side_to_move == side);
    match preset {
        Some(h) => {
            let _ = writeln!(out, "PI{}", h.csa_removed());
        }
        None => {
            for rank in 1..=9u8 {
                let _ = write!(out, "P{rank}");
                for file in (1..=9u8).rev() {
                    let sq = Square::new(file, rank).expect("files and ranks are 1..=9");
                    match game.start.piece_at(sq) {
                        Some(p) => {
                            out.push(p.color.csa_sign());
                            out.push_str(p.kind.csa());
                        }
                        None => out.push_str(" * "),
                    }
                }
                out.push('\n');
            }
            for c in Color::ALL {
                let hand = game.start.hand(c);
                if hand.is_empty() {
                    continue;
                }
                let _ = write!(out, "P{}", c.csa_sign());
                for (k, n) in hand.iter_canonical() {
                    for _ in 0..n {
                        let _ = write!(out, "00{}", k.csa());
                    }
                }
                out.push('\n');
            }
        }
    }
    out.push(side.csa_sign());
    out.push('\n');
    if game.start.move_number() != 1 {
        warnings.push(Warning {
            code: WarningCode::MoveNumberDropped,
            message: format!(
                "CSA has no move number: the start position's move number {} is not written",
                game.start.move_number()
            ),
        });
    }
}

/// `'*` lines; multi-line comments become one line each.
fn write_comments(out: &mut String, comments: &[String]) {
    for c in comments {
        for line in c.lines() {
            out.push_str("'*");
            if line
                .strip_prefix('*')
                .is_some_and(Evaluation::is_floodgate_body)
            {
                out.push(' ');
            }
            out.push_str(line);
            out.push('\n');
        }
    }
}

/// Comments of a move that is not written as a move, each line behind `prefix`.
fn write_plain_comments(out: &mut String, entry: &MoveEntry, prefix: &str) {
    for c in entry.comments() {
        for line in c.lines() {
            let _ = writeln!(out, "{prefix}{line}");
        }
    }
}

/// The move's time, evaluation and comments, in the order floodgate logs them.
fn write_entry_extras(out: &mut String, entry: &MoveEntry, times: &mut TimeWriter) {
    times.write(out, entry.time);
    if let Some(e) = entry.eval() {
        out.push_str("'**");
        e.write_floodgate(out);
        out.push('\n');
    }
    write_comments(out, entry.comments());
}

/// Writes `T` lines and counts what V2.2 had to round.
struct TimeWriter {
    version: CsaVersion,
    rounded: usize,
}

impl TimeWriter {
    fn write(&mut self, out: &mut String, time: Option<MoveTime>) {
        let Some(ms) = time.and_then(|t| t.spent_ms) else {
            return;
        };
        let (secs, frac) = (ms / 1000, ms % 1000);
        out.push('T');
        match self.version {
            CsaVersion::V22 => {
                if frac != 0 {
                    self.rounded += 1;
                }
                push_decimal(out, (ms + 500) / 1000);
            }
            CsaVersion::V30 if frac == 0 => push_decimal(out, secs),
            CsaVersion::V30 => {
                push_decimal(out, secs);
                out.push('.');
                // Milliseconds as three digits, trailing zeros dropped.
                let digits = [frac / 100, frac / 10 % 10, frac % 10];
                let len = if digits[2] != 0 {
                    3
                } else if digits[1] != 0 {
                    2
                } else {
                    1
                };
                for d in &digits[..len] {
                    out.push(char::from(b'0' + *d as u8));
                }
            }
        }
        out.push('\n');
    }
}

/// `n` in decimal. A `T` line follows nearly every move, and `write!`
/// costs several times the handful of digits it writes; itoa (already
/// serde_json's) does not.
fn push_decimal(out: &mut String, n: u64) {
    out.push_str(itoa::Buffer::new().format(n));
}

/// The foul move as a CSA move, or `None` when no piece can be named.
fn foul_move_text(
    game: &Game,
    view: &LineView<'_>,
    loser: Color,
    mv: Option<Move>,
    piece: Option<PieceKind>,
    notation: &Notation,
) -> Option<String> {
    // A CSA move already says everything, including the piece it claimed.
    if let Notation::Csa { .. } = notation {
        return Some(notation_text(notation));
    }
    let mv = mv?;
    let written = match *notation {
        Notation::Kif { piece, .. } | Notation::Ki2 { piece, .. } => Some(piece),
        _ => None,
    };
    let before = piece
        .or(match mv {
            Move::Drop { kind, .. } => Some(kind),
            Move::Normal { .. } => None,
        })
        .or(written)
        .or_else(|| {
            let from = mv.from()?;
            let mut pos: Position = game.start.clone();
            for (p, _) in &view.plies {
                pos.play_unchecked(p.mv);
            }
            pos.piece_at(from).map(|p| p.kind)
        })?;
    Some(csa_move(loser, mv, before))
}

/// The CSA word of an ending kind, given who committed the foul a 反則勝ち
/// refers to (it names no side), or `None` when CSA has no word for it.
fn ending_word(kind: EndingKind, previous: Color) -> Option<String> {
    match kind {
        EndingKind::FoulByPrevious => Some(illegal_action(previous)),
        k => k.csa_word().map(|w| format!("%{w}")),
    }
}

fn illegal_action(offender: Color) -> String {
    format!("%{}ILLEGAL_ACTION", offender.csa_sign())
}

/// The line's ending: its special move (or `%CHUDAN` and a comment, or the
/// foul's `ILLEGAL_ACTION`), its time and comments, in the version
/// `times` writes.
fn write_ending(
    out: &mut String,
    game: &Game,
    view: &LineView<'_>,
    warnings: &mut Vec<Warning>,
    times: &mut TimeWriter,
) {
    let ending: Option<&Ending> = view.line.ending.as_ref();
    let mover = match view.plies.last() {
        Some((p, _)) => p.color.flip(),
        None => game.start.side_to_move(),
    };
    // The replay knows who fouled; without a foul it is the side that just moved.
    let previous = match &view.result.verdict {
        Verdict::Foul(f) => f.loser,
        Verdict::Legal => mover.flip(),
    };
    match ending {
        Some(e) => {
            match ending_word(e.kind, previous) {
                Some(word) => {
                    let missing_in = match (e.kind, times.version) {
                        (EndingKind::MaxMoves, CsaVersion::V22) => Some("V2.2"),
                        (EndingKind::Matta, CsaVersion::V30) => Some("V3.0"),
                        _ => None,
                    };
                    if let Some(v) = missing_in {
                        warnings.push(Warning {
                            code: WarningCode::EndingNotInVersion,
                            message: format!("{word} is not a {v} special move; written anyway"),
                        });
                    }
                    out.push_str(&word);
                }
                None => {
                    // No CSA word: the game stops here, and the comment says how it really ended.
                    let _ = write!(out, "%CHUDAN\n'ending: {}", e.text);
                    warnings.push(Warning {
                        code: WarningCode::EndingChanged,
                        message: format!(
                            "CSA has no special move for {:?} ({}): written as %CHUDAN with a comment",
                            e.text,
                            e.kind.name()
                        ),
                    });
                }
            }
            out.push('\n');
            times.write(out, e.time);
            write_comments(out, &e.comments);
        }
        None => {
            if let Verdict::Foul(f) = &view.result.verdict
                && f.rule != Rule::FalseDeclaration
            {
                let _ = writeln!(out, "{}", illegal_action(f.loser));
            }
        }
    }
}

#[cfg(test)]
mod tests;
