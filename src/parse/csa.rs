//! The CSA standard record format (`.csa`), V1 (no version line) to V3.0.
//!
//! [`parse`] reads syntax only: moves stay [`Notation::Csa`](crate::record::Notation::Csa)
//! and are never checked against a position. The file is cut into games at
//! `/` lines (`split`); each game is walked line by line with
//! [`crate::parse::lines`] (`reader`), and each statement is read by the one
//! nom grammar in `syntax`.
//!
//! Conventions (where the format leaves room):
//!
//! * The version line `V2.2` becomes the header field `Version` = `2.2`, and a
//!   V3.0 `'CSA encoding=UTF-8` line becomes `Encoding` = `UTF-8`. Both
//!   describe the whole file, so every game of a multi-game file after the
//!   line that wrote them gets them, first in its header, with the span of
//!   that line (`file`).
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
//!   move) is a [`StartPosition::Preset`](crate::record::StartPosition::Preset); anything written out with
//!   `P1`…`P9`/`P±` is a [`StartPosition::Setup`](crate::record::StartPosition::Setup). A record with no position
//!   statement at all (a Shogi Wars export: `+`, then the moves) is the even
//!   game with the side line's side, and a `start-assumed` notice; its
//!   `start_span` is the side line's.
//! * A move or an ending before any side line, game information after the
//!   position, and a bare `V` are read on, each with a [`Notice`](crate::record::Notice)(crate::record::Notice)
//!   (`no-side-to-move`, `info-after-position`, `bare-version`).
//! * A `T` line with no move to time is kept in notes.
//! * A floodgate game its server ended by the move limit has no `%` line,
//!   only `'summary:max_moves:…` among its final comments: that line is
//!   then its ending, a [`EndingKind::MaxMoves`](crate::record::EndingKind::MaxMoves),
//!   and is kept in notes as well.
//! * Shogi Wars' move lists as their tools save them: `+7776FU,L600` gives
//!   the mover's seconds left, and the time spent is its drop since that
//!   side's previous move (or from the main time of `$TIME_LIMIT`/`$TIME`
//!   for its first; with neither, that `L` is kept in notes). An ending
//!   such as `SENTE_WIN_TORYO`, `GOTE_WIN_TIMEOUT` or `DRAW_SENNICHI`
//!   (with or without `%`) names the winner; it becomes the ending kind
//!   that gives the game to that side with the side to move the moves
//!   leave (`DISCONNECT` reads as time-up, `OUTE_SENNICHI` as the named
//!   loser's foul), and one that names the other side is kept in notes.

mod file;
mod position;
mod reader;
mod split;
mod syntax;
#[cfg(test)]
mod tests;

use crate::error::ParseError;
use crate::parse::{lines, lines_at};
use crate::record::{Location, Record};
pub(crate) use file::{FileFields, InFile};
use reader::GameReader;
#[cfg(test)]
use split::GameText;
pub(crate) use split::{SlashSearch, find_slash_line, line_ends, split_games};

/// Read every game of a CSA file (games are separated by `/` lines).
///
/// `text` is already decoded; a leading BOM is skipped. Errors name the line
/// and column and what was expected there; one after a game's first move
/// carries the game read before it ([`ParseError::partial`]), so one bad
/// line need not lose the game. Only syntax is checked: a move such as
/// `+5554FU` from an empty square is accepted.
pub fn parse(text: &str) -> Result<Vec<Record>, ParseError> {
    let mut records = Vec::new();
    for (_, game) in parse_each(text) {
        records.push(game?);
    }
    if records.is_empty() {
        return Err(ParseError::new(
            Location::new(0, 1, 1),
            "expected a CSA record (a version line, names, a position or moves), found no statement",
        ));
    }
    Ok(records)
}

/// Every game of `text` with its index, each parsed on its own: a broken or
/// truncated game does not take the others down with it.
pub fn parse_each(text: &str) -> Vec<(usize, Result<Record, ParseError>)> {
    let mut file = InFile::default();
    split_games(text)
        .filter_map(|g| file.place(read_game(g.text, g.line, g.offset)))
        .collect()
}

/// One game read on its own, not yet given its place in its file
/// ([`InFile::place`]).
#[derive(Debug)]
pub(crate) struct GameRead {
    /// The record (`None` when the text held no statement), without the
    /// file's fields; or the error, with the game before it.
    result: Result<Option<Record>, ParseError>,
    /// The version and encoding lines it wrote.
    written: FileFields,
}

/// Read one game cut out by [`split_games`] (or by a streaming reader) that
/// starts on line `line` at byte `offset` of its file, so spans point into
/// the file. It needs nothing of the games before it, so games can be read
/// on several threads at once.
pub(crate) fn read_game(text: &str, line: u32, offset: usize) -> GameRead {
    let mut game = GameReader::new(text.len());
    let mut lines = lines_at(text, line, offset);
    loop {
        game.bare_run(&mut lines);
        let Some(l) = lines.next() else {
            break;
        };
        if let Err(e) = game.line(&l) {
            let lines_left = 1 + lines.count();
            let written = std::mem::take(&mut game.written);
            return GameRead {
                result: Err(game.fail(e, lines_left)),
                written,
            };
        }
    }
    let written = std::mem::take(&mut game.written);
    GameRead {
        result: Ok(game.finish()),
        written,
    }
}

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
