//! The CSA standard record format (`.csa`), V1 (no version line) to V3.0.
//!
//! [`parse`] reads syntax only: moves stay [`Notation::Csa`] and are never
//! checked against a position. The file is walked line by line with
//! [`crate::parse::lines`]; each statement is read by the nom parsers in
//! `syntax`.
//!
//! Conventions (where the format leaves room):
//!
//! * The version line `V2.2` becomes the header field `Version` = `2.2`, and a
//!   V3.0 `'CSA encoding=UTF-8` line becomes `Encoding` = `UTF-8`. Both
//!   describe the whole file, so every game of a multi-game file gets them,
//!   with the span of the line that wrote them.
//! * `N+`/`N-` become keys `N+`/`N-`, `$KEY:value` becomes key `KEY`; values
//!   are kept as written (WCSC logs write `N+:name`, and the colon stays).
//!   `$` lines are accepted anywhere (WCSC relays append `$END_TIME`).
//! * A `'` comment is kept verbatim, quote included, in [`Record::notes`];
//!   that includes floodgate `'summary:…` and `'$END_TIME:…` lines. A V3.0
//!   `'*` comment goes (without `'*`) to the preceding move, to
//!   [`Record::comments`] before the first move, or to the ending's comments
//!   after it. `'**` with a score or a CSA move (`'** 30 -3334FU`) becomes
//!   the preceding move's [`Evaluation`](crate::record::Evaluation); a second
//!   one for the same move, or one with no move before it, goes to notes.
//!   Other `'**` lines (ShogiHome's `'**評価値=…`) are `'*` comments whose
//!   text starts with `*`.
//! * After the ending (`%…`), a `T` gives the ending's time and `'*` its
//!   comments; anything else (a repeated terminator, further moves) is kept
//!   verbatim in notes, so no text is lost and the main line stays as played.
//! * An unknown `%WORD` is not an ending kind kifu knows: it is kept in notes
//!   and the line goes on.
//! * A `/` line ends a game; each game is a [`Record`] with its own `index`.
//! * `PI` alone (or one that matches a handicap, with the matching side to
//!   move) is a [`StartPosition::Preset`]; anything written out with
//!   `P1`…`P9`/`P±` is a [`StartPosition::Setup`]. A record with no position
//!   statement at all (a Shogi Wars export: `+`, then the moves) is the even
//!   game with the side line's side, and a `start-assumed` notice; its
//!   `start_span` is the side line's.
//! * A move or an ending before any side line, game information after the
//!   position, and a bare `V` are read on, each with a [`Notice`]
//!   (`no-side-to-move`, `info-after-position`, `bare-version`).
//! * A `T` line with no move to time is kept in notes.

mod position;
mod syntax;
#[cfg(test)]
mod tests;

use crate::codes::DiagnosticCode;
use crate::error::ParseError;
use crate::parse::{Lines, SourceLine, lines, lines_at};
use crate::record::{
    Ending, EndingKind, HeaderField, MoveEntry, MoveTime, Notation, Notice, Record, Span,
    StartPosition,
};
use crate::setup::Handicap;
use crate::types::Color;
use position::PositionBuilder;
use syntax::Statement;

/// Read every game of a CSA file (games are separated by `/` lines).
///
/// `text` is already decoded; a leading BOM is skipped. Errors name the line
/// and column and what was expected there. Only syntax is checked: a move
/// such as `+5554FU` from an empty square is accepted.
pub fn parse(text: &str) -> Result<Vec<Record>, ParseError> {
    let mut records = Vec::new();
    for (_, game) in parse_each(text) {
        records.push(game?);
    }
    if records.is_empty() {
        return Err(ParseError::new(
            Span::new(0, 1, 1),
            "expected a CSA record (a version line, names, a position or moves), found no statement",
        ));
    }
    Ok(records)
}

/// Every game of `text` with its index, each parsed on its own: a broken or
/// truncated game does not take the others down with it.
pub fn parse_each(text: &str) -> Vec<(usize, Result<Record, ParseError>)> {
    let mut state = FileState::new();
    let mut out = Vec::new();
    let mut pieces = split_games(text).peekable();
    while let Some(piece) = pieces.next() {
        let index = state.games();
        let game = parse_loose(piece.text, piece.line, piece.offset);
        // No game follows the last to inherit its fields: a file of one
        // game copies none.
        let pass_on = pieces.peek().is_some();
        match state.adopt_with(game, piece.text, piece.line, piece.offset, pass_on) {
            Ok(Some(r)) => out.push((index, Ok(r))),
            Ok(None) => {}
            Err(e) => out.push((index, Err(e))),
        }
    }
    out
}

/// One game's text within a multi-game CSA text, as [`split_games`] cuts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)]
pub struct GameText<'a> {
    /// Byte offset of the piece's first character in the whole text.
    pub offset: usize,
    /// 1-based line number of the piece's first line in the whole text.
    pub line: u32,
    /// The piece, without the `/` line that ends it.
    pub text: &'a str,
}

/// Cut a CSA text into games at `/` lines, without parsing them.
///
/// Cutting is cheap and needs no state, so a caller can hand the pieces to
/// [`FileState::parse_game`] one at a time (or to several threads) instead of
/// building every record of a huge file at once. Pieces that hold only blank
/// lines are yielded too; `parse_game` turns them into no record.
#[doc(hidden)]
pub fn split_games(text: &str) -> impl Iterator<Item = GameText<'_>> {
    let b = text.as_bytes();
    // Where the first line starts: a BOM is not part of it.
    let begin = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let mut next = Some((begin, 1u32));
    std::iter::from_fn(move || {
        let (offset, line) = next?;
        if offset >= b.len() {
            // No line left: an empty piece, as a walk over the lines gives.
            next = None;
            return Some(GameText {
                offset: b.len(),
                line: 1,
                text: "",
            });
        }
        let SlashSearch::Found {
            start: slash_start,
            next: slash_next,
        } = find_slash_line(b, offset, offset, true)
        else {
            next = None;
            let end = last_line_end(b, offset, b.len());
            return Some(GameText {
                offset,
                line,
                text: &text[offset..end],
            });
        };
        let end = last_line_end(b, offset, slash_start);
        let slash_line = line + line_ends(&b[offset..slash_start]);
        next = Some((slash_next, slash_line + 1));
        Some(GameText {
            offset,
            line,
            text: &text[offset..end],
        })
    })
}

/// What [`find_slash_line`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)]
pub enum SlashSearch {
    /// A `/` line: where it starts, and where the line after it starts (past
    /// its terminator).
    Found {
        /// Byte offset of the line's first byte.
        start: usize,
        /// Byte offset just past its line end.
        next: usize,
    },
    /// The bytes end inside what may be a `/` line (its blanks, or a CR that
    /// may be half of a CRLF): with more bytes, search again from `resume`.
    Incomplete {
        /// Where the next search should start.
        resume: usize,
    },
    /// No `/` line in the bytes.
    NotFound,
}

/// The first line of `b` that is `/` once ASCII blanks are trimmed, with
/// lines ended as [`lines`] ends them (LF, CRLF, bare CR). `from` is the
/// start of the current game (a line start); the search for `/` bytes starts
/// at `at` (`from`, or where an earlier search of the same bytes stopped).
/// `complete`: no bytes will follow `b`, so its end ends the last line; a
/// streaming reader passes `false` until its input is exhausted. Only `/`
/// bytes are looked at, and around each only its blanks, so a line of a
/// million `/` costs a million steps, not a million squared.
#[doc(hidden)]
pub fn find_slash_line(b: &[u8], from: usize, at: usize, complete: bool) -> SlashSearch {
    let blank = |c: &&u8| **c != b'\n' && **c != b'\r' && c.is_ascii_whitespace();
    let mut at = at;
    while let Some(p) = memchr::memchr(b'/', &b[at..]) {
        let p = at + p;
        let start = p - b[from..p].iter().rev().take_while(blank).count();
        let end = p + 1 + b[p + 1..].iter().take_while(blank).count();
        let starts_line = start == from || matches!(b[start - 1], b'\n' | b'\r');
        match (b.get(end), b.get(end + 1)) {
            _ if !starts_line => {}
            (Some(b'\n'), _) => {
                return SlashSearch::Found {
                    start,
                    next: end + 1,
                };
            }
            (Some(b'\r'), Some(b'\n')) => {
                return SlashSearch::Found {
                    start,
                    next: end + 2,
                };
            }
            (Some(b'\r'), Some(_)) => {
                return SlashSearch::Found {
                    start,
                    next: end + 1,
                };
            }
            (Some(b'\r') | None, _) if complete => {
                return SlashSearch::Found {
                    start,
                    next: b.len(),
                };
            }
            (Some(b'\r') | None, _) => return SlashSearch::Incomplete { resume: p },
            (Some(_), _) => {}
        }
        at = p + 1;
    }
    SlashSearch::NotFound
}

/// Where the last line of `b[from..to]` ends, without its terminator; `to`
/// is a line start (or the end of the text).
fn last_line_end(b: &[u8], from: usize, to: usize) -> usize {
    if to == b.len() && !matches!(b[from..to].last(), Some(b'\n' | b'\r')) {
        return to;
    }
    match &b[from..to] {
        [.., b'\r', b'\n'] => to - 2,
        [.., b'\n' | b'\r'] => to - 1,
        _ => from,
    }
}

/// How many lines end in `b` (CRLF, bare CR and LF each end one), counted
/// in one vectorisable pass per terminator.
fn line_ends(b: &[u8]) -> u32 {
    let count = |t: u8| {
        let mut n = 0usize;
        for chunk in b.chunks(128) {
            let mut k = 0u8;
            for &c in chunk {
                k += u8::from(c == t);
            }
            n += usize::from(k);
        }
        n
    };
    let cr = count(b'\r');
    let crlf = if cr == 0 {
        0
    } else {
        b.windows(2).filter(|w| w == b"\r\n").count()
    };
    (count(b'\n') + cr - crlf) as u32
}

/// What the games of one CSA file share while they are read one at a time:
/// the fields that describe the whole file (version, encoding) and how many
/// games came before.
#[derive(Clone, Debug, Default)]
#[doc(hidden)]
pub struct FileState {
    fields: Vec<HeaderField>,
    games: usize,
}

impl FileState {
    /// A state for the start of a file.
    pub fn new() -> FileState {
        FileState::default()
    }

    /// How many games have been read so far, including ones that failed.
    pub fn games(&self) -> usize {
        self.games
    }

    /// Parse one game cut out by [`split_games`] (or by a streaming reader)
    /// that starts on line `line` at byte `offset` of its file, so spans point
    /// into the file. `Ok(None)` when the piece holds no statement. The game
    /// gets the next index even when it fails to parse, so later games keep
    /// the indices [`parse`] would give them.
    pub fn parse_game(
        &mut self,
        text: &str,
        line: u32,
        offset: usize,
    ) -> Result<Option<Record>, ParseError> {
        let game = parse_loose(text, line, offset);
        self.adopt(game, text, line, offset)
    }

    /// Give a game read by [`parse_loose`] its place in the file: the next
    /// index and the fields the games before it wrote, exactly as
    /// [`FileState::parse_game`] would have read it. `text`, `line` and
    /// `offset` must be the ones it was read from (they are read again in
    /// the rare case that cannot be settled from the result alone).
    pub fn adopt(
        &mut self,
        game: LooseGame,
        text: &str,
        line: u32,
        offset: usize,
    ) -> Result<Option<Record>, ParseError> {
        self.adopt_with(game, text, line, offset, true)
    }

    /// [`FileState::adopt`]; without `pass_on`, the fields the game wrote
    /// are not kept for games after it (there are none). The game's own
    /// header does not need them: it holds every field it wrote.
    fn adopt_with(
        &mut self,
        game: LooseGame,
        text: &str,
        line: u32,
        offset: usize,
        pass_on: bool,
    ) -> Result<Option<Record>, ParseError> {
        if game.clash && !self.fields.is_empty() {
            // A `$Version:`-style field shares a key with a file field, and
            // which of them the file field overwrites depends on the order
            // they meet in: only reading the game again says.
            let inherited = self.fields.clone();
            let (result, _) = read_game(text, line, offset, &inherited, &mut self.fields);
            return self.number(result);
        }
        // The inherited fields, updated by what the game wrote: a failed
        // game's are moved in; a read game's are in its header, and their
        // values are copied into the strings the file's fields already have.
        let inherited = self.fields.len();
        let written = if pass_on { game.fields } else { Vec::new() };
        for f in written {
            match self.fields.iter_mut().find(|old| old.key == f.key) {
                Some(old) => *old = f,
                None => self.fields.push(f),
            }
        }
        if let (Ok(Some(record)), true) = (&game.result, pass_on) {
            for key in game.file_keys.iter() {
                let Some(f) = record.header.iter().find(|h| h.key == key) else {
                    continue;
                };
                match self.fields.iter_mut().find(|old| old.key == key) {
                    Some(old) => {
                        old.value.clone_from(&f.value);
                        old.span = f.span;
                    }
                    None => self.fields.push(f.clone()),
                }
            }
        }
        let result = game.result.map(|r| {
            r.map(|mut record| {
                if inherited > 0 {
                    record.header = rebase_header(&self.fields[..inherited], record.header);
                }
                record
            })
        });
        self.number(result)
    }

    /// The index bookkeeping of a game just read: every game that holds a
    /// statement takes one, failed or not.
    fn number(
        &mut self,
        result: Result<Option<Record>, ParseError>,
    ) -> Result<Option<Record>, ParseError> {
        match result {
            Ok(None) => Ok(None),
            Ok(Some(mut r)) => {
                r.index = self.games;
                self.games += 1;
                Ok(Some(r))
            }
            Err(e) => {
                self.games += 1;
                Err(e)
            }
        }
    }
}

/// One game read by [`parse_loose`]: as if it were the first of its file.
#[derive(Debug)]
#[doc(hidden)]
pub struct LooseGame {
    result: Result<Option<Record>, ParseError>,
    /// The file fields a failed game wrote, as they stood when it failed.
    fields: Vec<HeaderField>,
    /// The file fields a read game wrote, which its header holds.
    file_keys: FileKeys,
    /// A `$` field's key is also a file field's key.
    clash: bool,
}

/// Parse one game on its own, with no knowledge of the games before it, so
/// games can be read on several threads at once; [`FileState::adopt`] then
/// gives each its index and inherited fields in file order. Arguments are as
/// for [`FileState::parse_game`].
#[doc(hidden)]
pub fn parse_loose(text: &str, line: u32, offset: usize) -> LooseGame {
    loose(text, line, offset, None)
}

/// [`parse_loose`] for a caller that has counted the lines of `text` as
/// [`lines`] splits them: the count sizes the move list, so the text is not
/// walked once more for it.
#[doc(hidden)]
pub fn parse_loose_counted(text: &str, line: u32, offset: usize, lines: u32) -> LooseGame {
    loose(text, line, offset, Some(lines))
}

fn loose(text: &str, line: u32, offset: usize, lines: Option<u32>) -> LooseGame {
    let mut fields = Vec::new();
    let how = How {
        bare_runs: true,
        loose: true,
        lines,
    };
    let (result, clash, file_keys) = read_game_with(text, line, offset, &[], &mut fields, how);
    LooseGame {
        result,
        fields,
        file_keys,
        clash,
    }
}

/// A field that describes the whole file rather than one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FileKey {
    Version,
    Encoding,
}

impl FileKey {
    const COUNT: usize = 2;

    fn as_str(self) -> &'static str {
        match self {
            FileKey::Version => "Version",
            FileKey::Encoding => "Encoding",
        }
    }
}

/// The file fields a game wrote, in the order it first wrote each.
#[derive(Clone, Copy, Debug)]
struct FileKeys {
    keys: [FileKey; FileKey::COUNT],
    len: usize,
}

impl FileKeys {
    const NONE: FileKeys = FileKeys {
        keys: [FileKey::Version; FileKey::COUNT],
        len: 0,
    };

    fn note(&mut self, key: FileKey) {
        if !self.keys[..self.len].contains(&key) {
            // Each key is noted once, so there is always room.
            self.keys[self.len] = key;
            self.len += 1;
        }
    }

    fn iter(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.keys[..self.len].iter().map(|k| k.as_str())
    }
}

/// Read one game that inherits `inherited` and updates the file's `fields`;
/// the record's index is left at 0. Also says whether a `$` field took a
/// file field's key.
fn read_game(
    text: &str,
    line: u32,
    offset: usize,
    inherited: &[HeaderField],
    fields: &mut Vec<HeaderField>,
) -> (Result<Option<Record>, ParseError>, bool) {
    let (result, clash, _) = read_game_with(text, line, offset, inherited, fields, How::PLAIN);
    (result, clash)
}

/// How [`read_game_with`] reads a game.
#[derive(Clone, Copy, Debug)]
struct How {
    /// Take the runs of bare moves and times of [`GameReader::bare_moves`].
    bare_runs: bool,
    /// Keep the file fields a game writes only in its header, and say which
    /// they are (see [`LooseGame`]).
    loose: bool,
    /// How many lines the text has, when the caller has counted them.
    lines: Option<u32>,
}

impl How {
    /// As [`read_game`] reads a game.
    const PLAIN: How = How {
        bare_runs: true,
        loose: false,
        lines: None,
    };
}

/// [`read_game`], read as `how` says. Tests read a game with the runs of
/// [`GameReader::bare_moves`] and without, and the two must agree in every
/// record, span and error. A `loose` game that is read keeps the file
/// fields it writes only in its header, and says which they are; one that
/// fails still leaves them in `fields`.
fn read_game_with(
    text: &str,
    line: u32,
    offset: usize,
    inherited: &[HeaderField],
    fields: &mut Vec<HeaderField>,
    how: How,
) -> (Result<Option<Record>, ParseError>, bool, FileKeys) {
    let How {
        bare_runs,
        loose,
        lines,
    } = how;
    let mut game = GameReader::new(inherited);
    game.loose = loose;
    let guess = match lines {
        Some(n) => move_guess(n as usize),
        None => (text.len() / MIN_MOVE_BYTES).min(MAX_MOVE_GUESS),
    };
    game.record.main.moves.reserve(guess);
    let result = (|| {
        let mut lines = lines_at(text, line, offset);
        loop {
            if bare_runs && game.phase == Phase::Moves {
                game.bare_moves(&mut lines);
            }
            let Some(l) = lines.next() else {
                break;
            };
            // Nearly every line of a record is one bare move or whole-second
            // time, or a game's usual opening lines; those skip trimming,
            // comma splitting and nom.
            if let Some(st) = syntax::fast_statement(l.text) {
                match st {
                    // In the moves, a move or a time needs none of `apply`.
                    Statement::Move(notation) if game.phase == Phase::Moves => {
                        game.record
                            .main
                            .moves
                            .push(MoveEntry::new(notation, l.span()));
                        game.timed = Timed::LastMove;
                    }
                    Statement::Time(ms) if game.phase == Phase::Moves => game.time(ms, l.text),
                    _ => {
                        game.start(&l, 0);
                        game.apply(st, l.text, l.span(), fields)?;
                    }
                }
                continue;
            }
            let content = l.text.trim_ascii();
            if content.is_empty() || content == "/" {
                continue;
            }
            game.start(&l, indent(l.text));
            game.line(&l, fields)?;
        }
        Ok(())
    })();
    let clash = game.clash;
    let keys = game.file_keys;
    if let Err(e) = result {
        if loose {
            // The header goes with the game, so the fields are copied out.
            // Each key's first header entry is the one the file field wrote
            // last: file fields replace it, and `$` fields are appended.
            for key in keys.iter() {
                let field = game.record.header.iter().find(|h| h.key == key);
                fields.extend(field.cloned());
            }
        }
        return (Err(e), clash, FileKeys::NONE);
    }
    if !game.started {
        return (Ok(None), clash, FileKeys::NONE);
    }
    (Ok(Some(game.finish(0))), clash, keys)
}

/// The header of a game read with no inherited fields, as it would be had it
/// inherited the file fields whose values are now `file` (the inherited
/// keys, in order, updated by what the game wrote): those fields come first,
/// and the game's own copies of them go. Only valid when no `$` field shares
/// a file field's key (see [`LooseGame`]): then the game's own copy of a file
/// field is the one it wrote, equal to the updated value, and is moved
/// rather than copied.
fn rebase_header(file: &[HeaderField], header: Vec<HeaderField>) -> Vec<HeaderField> {
    // The usual game rewrites the file fields first, in the file's order
    // (a V2 game opens with its version line): then the header already is
    // the answer, and is kept rather than rebuilt.
    let (own, rest) = header.split_at(file.len().min(header.len()));
    let in_place = own.len() == file.len()
        && own.iter().zip(file).all(|(h, f)| h.key == f.key)
        && !rest.iter().any(|h| file.iter().any(|f| f.key == h.key));
    if in_place {
        return header;
    }
    rebuild_header(file, header)
}

/// [`rebase_header`] the long way, for any order of the fields.
fn rebuild_header(file: &[HeaderField], mut header: Vec<HeaderField>) -> Vec<HeaderField> {
    let mut out = Vec::with_capacity(file.len() + header.len());
    for f in file {
        match header.iter().position(|h| h.key == f.key) {
            Some(i) => out.push(header.remove(i)),
            None => out.push(f.clone()),
        }
    }
    out.extend(
        header
            .into_iter()
            .filter(|h| !file.iter().any(|f| f.key == h.key)),
    );
    out
}

/// A first guess at the number of moves of a text of `lines` lines: half
/// of them, as a record written one move and one time a line has. The move
/// list is then sized once instead of growing (and copying every move) as
/// the game is read; a record of one move a line grows it once.
fn move_guess(lines: usize) -> usize {
    lines.div_ceil(2)
}

/// The fewest bytes a move and its time take (`+7776FU\nT1\n`): a text's
/// length over this is a guess at its moves that needs no pass over it.
/// A record whose lines are longer (comments) is given back what it does
/// not use once it is read.
const MIN_MOVE_BYTES: usize = 11;

/// The most moves guessed from a text's length: more than nearly any game
/// has, and little memory for a hostile text of one huge line to ask for.
const MAX_MOVE_GUESS: usize = 1024;

/// Whether `text` looks like a CSA record: its first line that is neither
/// blank nor a `'` comment is a CSA statement (`V2.2`, `PI`, `P1…`, `P+`,
/// `N+`, `$KEY:`, a move such as `+7776FU`, `%TORYO`), or the file opens with
/// the V3.0 `'CSA encoding=` line.
pub fn sniff(text: &str) -> bool {
    for line in lines(text).take(200) {
        let s = line.text.trim();
        if s.starts_with("'CSA encoding=") {
            return true;
        }
        // A bare `V` (a version with its number left out) says little alone.
        if s.is_empty() || s.starts_with('\'') || s == "V" {
            continue;
        }
        let b = s.as_bytes();
        return match b {
            [b'V', d, ..] => d.is_ascii_digit(),
            [b'P', b'I', ..] => true,
            [b'P', c, ..] => matches!(c, b'1'..=b'9' | b'+' | b'-'),
            [b'N', b'+' | b'-', ..] => true,
            [b'$', rest @ ..] => {
                let key_len = rest
                    .iter()
                    .take_while(|c| c.is_ascii_uppercase() || **c == b'_')
                    .count();
                key_len > 0 && rest.get(key_len) == Some(&b':')
            }
            [b'%', c, ..] => c.is_ascii_uppercase(),
            [b'+' | b'-', ..] => s
                .split(',')
                .next()
                .is_some_and(|m| syntax::looks_like_move(m.trim())),
            _ => false,
        };
    }
    false
}

/// Byte length of a line's leading whitespace.
fn indent(s: &str) -> usize {
    s.len() - s.trim_ascii_start().len()
}

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

/// One game being read.
struct GameReader {
    record: Record,
    started: bool,
    phase: Phase,
    position: PositionBuilder,
    timed: Timed,
    /// A `$` field took the key of a file field (see [`LooseGame`]).
    clash: bool,
    /// The file fields go only to the header (see [`read_game_with`]).
    loose: bool,
    /// The file fields written, in the order first written.
    file_keys: FileKeys,
    /// Game information after the position has been reported once.
    late_info: bool,
}

impl GameReader {
    fn new(file_fields: &[HeaderField]) -> GameReader {
        GameReader {
            record: Record {
                header: file_fields.to_vec(),
                ..Record::default()
            },
            started: false,
            phase: Phase::Setup,
            position: PositionBuilder::new(),
            timed: Timed::Nothing,
            clash: false,
            loose: false,
            file_keys: FileKeys::NONE,
            late_info: false,
        }
    }

    fn finish(self, index: usize) -> Record {
        let mut record = self.record;
        record.index = index;
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
            let span = self
                .position
                .clone()
                .finish()
                .map_or(record.span, |(_, s)| s);
            record.notices.push(no_side_notice(Color::Sente, span));
        }
        match self.position.finish() {
            Some((start, span)) => {
                record.start = start;
                record.start_span = Some(span);
            }
            None => assume_start(&mut record, side_line),
        }
        record
    }

    /// Read the moves phase's usual lines, each a bare move (`+7776FU`) or a
    /// whole-second time (`T12`), straight from the bytes: a move line is
    /// known by its eighth byte, so no search for the line end and no
    /// statement dispatch. Stops before the first other line, which `lines`
    /// then gives to the full grammar as if this run had not been taken.
    // Kept out of `read_game_with`: inlined there, the loop's counters
    // shared the registers of the whole grammar and were spilled each line.
    #[inline(never)]
    fn bare_moves(&mut self, lines: &mut Lines<'_>) {
        let (text, mut pos, mut number) = lines.state();
        let base = lines.base();
        let b = text.as_bytes();
        loop {
            let rest = &b[pos..];
            if let Some((notation, next)) = move_line(rest) {
                number += 1;
                let span = Span::new(base + pos, number, 1);
                let mut entry = MoveEntry::new(notation, span);
                pos += next;
                // The time line that nearly always follows is read here, so
                // the move is stored once, complete.
                if let Some((ms, _, next)) = time_line(&b[pos..]) {
                    number += 1;
                    entry.time = Some(MoveTime {
                        spent_ms: Some(ms),
                        total_ms: None,
                    });
                    pos += next;
                    self.timed = Timed::Nothing;
                } else {
                    self.timed = Timed::LastMove;
                }
                self.record.main.moves.push(entry);
            } else if let Some((ms, end, next)) = time_line(rest) {
                number += 1;
                self.time(ms, &text[pos..pos + end]);
                pos += next;
            } else {
                break;
            }
        }
        lines.resume(pos, number);
    }

    /// The first statement of the game fixes where the record starts.
    fn start(&mut self, line: &SourceLine<'_>, at: usize) {
        if !self.started {
            self.started = true;
            self.record.span = line.span_at(at);
        }
    }

    fn note(&mut self, text: &str) {
        self.record.notes.push(text.to_string());
    }

    fn line(
        &mut self,
        line: &SourceLine<'_>,
        file_fields: &mut Vec<HeaderField>,
    ) -> Result<(), ParseError> {
        let start = indent(line.text);
        let content = line.text[start..].trim_ascii_end();
        match content.as_bytes().first() {
            Some(b'\'') => {
                self.comment(content, line.span_at(start), file_fields);
                Ok(())
            }
            // Names and values may contain commas, so these lines are one statement.
            Some(b'N' | b'$') => self.statement(content, line, start, file_fields),
            // Server logs (WCSC `#RESIGN`, `#TIME_UP` trailers) write these;
            // the reference has no such line, the real files win.
            Some(b'#') => {
                self.note(content);
                Ok(())
            }
            // wcsc23/day2/4-ponanza.csa has one `'**` line that lost its quote.
            Some(b'*') if content.starts_with("**") => {
                self.evaluation(content, content.get(2..).unwrap_or(""));
                Ok(())
            }
            // One statement (the usual case): no splitting needed.
            _ if !content.contains(',') => self.statement(content, line, start, file_fields),
            _ => {
                let mut offset = start;
                for piece in line.text[start..].split(',') {
                    let at = offset + indent(piece);
                    offset += piece.len() + 1;
                    let stmt = piece.trim();
                    if stmt.is_empty() {
                        continue;
                    }
                    if stmt.starts_with('\'') {
                        // A comment runs to the end of the line, commas and all.
                        let rest = line.text.get(at..).unwrap_or("").trim_end();
                        self.comment(rest, line.span_at(at), file_fields);
                        break;
                    }
                    self.statement(stmt, line, at, file_fields)?;
                }
                Ok(())
            }
        }
    }

    /// A field describing the whole file (version, encoding). A game that
    /// repeats it replaces the copy it inherited instead of holding two.
    fn file_field(
        &mut self,
        key: FileKey,
        value: &str,
        span: Span,
        file_fields: &mut Vec<HeaderField>,
    ) {
        self.file_keys.note(key);
        let field = HeaderField {
            key: key.as_str().to_string(),
            value: value.to_string(),
            span,
        };
        // The file's copy reuses the strings of the one it replaces: every
        // game of a V2 file writes a version.
        if !self.loose {
            match file_fields.iter_mut().find(|f| f.key == field.key) {
                Some(old) => {
                    old.value.clone_from(&field.value);
                    old.span = span;
                }
                None => file_fields.push(field.clone()),
            }
        }
        match self.record.header.iter_mut().find(|f| f.key == field.key) {
            Some(old) => *old = field,
            None => self.record.header.push(field),
        }
    }

    /// A `'` comment (text includes the quote).
    fn comment(&mut self, text: &str, span: Span, file_fields: &mut Vec<HeaderField>) {
        if let Some(enc) = text.strip_prefix("'CSA encoding=") {
            self.file_field(FileKey::Encoding, enc, span, file_fields);
        } else if let Some(eval) = text
            .strip_prefix("'**")
            .filter(|b| super::eval::is_floodgate_body(b))
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
            Some(m) => m.extra_mut().eval = Some(super::eval::floodgate(body)),
            None => self.note(raw),
        }
    }

    fn statement(
        &mut self,
        stmt: &str,
        line: &SourceLine<'_>,
        at: usize,
        file_fields: &mut Vec<HeaderField>,
    ) -> Result<(), ParseError> {
        let span = line.span_at(at);
        let parsed = syntax::statement(stmt)
            .map_err(|f| ParseError::new(line.span_at(at + f.at), f.message))?;
        self.apply(parsed, stmt, span, file_fields)
    }

    /// Give a read statement its meaning; `stmt` is its text, `span` where
    /// it starts.
    fn apply(
        &mut self,
        parsed: Statement<'_>,
        stmt: &str,
        span: Span,
        file_fields: &mut Vec<HeaderField>,
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
                self.file_field(FileKey::Version, v, span, file_fields);
            }
            Statement::Name(c, n) => {
                let key = if c == Color::Sente { "N+" } else { "N-" };
                self.late_info(stmt, span);
                self.record.header.push(field(key, n));
            }
            Statement::Info(k, v) => {
                self.clash |= k == "Version" || k == "Encoding";
                // WCSC relays append `$END_TIME` after the moves, as the
                // time it is (csa.md §3): not out of place.
                if k != "END_TIME" {
                    self.late_info(stmt, span);
                }
                self.record.header.push(field(k, v));
            }
            Statement::Pi(removed) => {
                self.in_setup(span, stmt)?;
                self.position
                    .pi(&removed, span)
                    .map_err(|m| ParseError::new(span, m))?;
            }
            Statement::Row(rank, cells) => {
                self.in_setup(span, stmt)?;
                self.position.row(rank, &cells, span);
            }
            Statement::Pieces(c, groups) => {
                self.in_setup(span, stmt)?;
                self.position
                    .pieces(c, &groups, span)
                    .map_err(|m| ParseError::new(span, m))?;
            }
            Statement::Side(c) => {
                self.in_setup(span, stmt)?;
                self.position.side(c, span);
                self.phase = Phase::Moves;
            }
            Statement::Move(notation) => match self.phase {
                Phase::Setup => {
                    let color = match notation {
                        Notation::Csa { color, .. } => color,
                        _ => Color::Sente,
                    };
                    self.assume_side(color, span);
                    self.record.main.moves.push(MoveEntry::new(notation, span));
                    self.timed = Timed::LastMove;
                }
                Phase::Moves => {
                    self.record.main.moves.push(MoveEntry::new(notation, span));
                    self.timed = Timed::LastMove;
                }
                Phase::Ended => self.after_end(stmt),
            },
            Statement::Time(ms) => self.time(ms, stmt),
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

    /// A `%` statement after the side line.
    fn special(&mut self, word: &str, stmt: &str, span: Span) {
        match (self.phase, EndingKind::from_csa_word(word)) {
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
    fn assume_side(&mut self, color: Color, span: Span) {
        self.record.notices.push(no_side_notice(color, span));
        self.position.side(color, span);
        self.phase = Phase::Moves;
    }

    /// `N±` or `$KEY:` after the position: the format puts game information
    /// before it. Read as a header field all the same; said once a game.
    fn late_info(&mut self, stmt: &str, span: Span) {
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
    fn in_setup(&self, span: Span, stmt: &str) -> Result<(), ParseError> {
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

/// A bare move line (`+7776FU` and its line end) at the start of `rest`:
/// the move, and where the next line starts.
#[inline(always)]
fn move_line(rest: &[u8]) -> Option<(Notation, usize)> {
    let Some(w) = rest.first_chunk::<8>() else {
        // The last line, with no line end or a line end of its own.
        let next = after_line(rest, 7)?;
        return syntax::bare_move(rest.first_chunk::<7>()?).map(|m| (m, next));
    };
    let w = u64::from_le_bytes(*w);
    let next = match (w >> 56) as u8 {
        b'\n' => 8,
        b'\r' => 8 + usize::from(rest.get(8) == Some(&b'\n')),
        _ => return None,
    };
    syntax::word_move(w).map(|m| (m, next))
}

/// A whole-second time line (`T12` and its line end) at the start of
/// `rest`: the milliseconds, the statement's length, and where the next
/// line starts.
#[inline(always)]
fn time_line(rest: &[u8]) -> Option<(u64, usize, usize)> {
    if let Some(t) = rest.first_chunk::<8>().and_then(syntax::window_time) {
        return Some(t);
    }
    let (ms, end) = syntax::bare_time(rest)?;
    Some((ms, end, after_line(rest, end)?))
}

/// Where the line after one whose content is `b[..end]` starts, as
/// [`lines`] splits them (CRLF, CR or LF, or the end of the text); `None`
/// when the content does not end at `end`.
#[inline(always)]
fn after_line(b: &[u8], end: usize) -> Option<usize> {
    match b.get(end) {
        None => Some(end),
        Some(b'\n') => Some(end + 1),
        Some(b'\r') => Some(end + 1 + usize::from(b.get(end + 1) == Some(&b'\n'))),
        Some(_) => None,
    }
}

fn no_side_notice(color: Color, span: Span) -> Notice {
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
fn assume_start(record: &mut Record, side_line: Option<(Color, Span)>) {
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
