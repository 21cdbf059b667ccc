//! KI2 out, laid out the way Kifu for Windows writes it (`ki2.md` §1, §3,
//! §5, §7): the KIF header and start position, moves in traditional
//! notation six to a line, the `まで` line, then the variation blocks.
//!
//! Everything but the move lines and the order of an ending's lines is
//! shared with KIF (`emit::kakinoki`), so the two formats cannot drift
//! apart. Moves come from the replay and carry the shortest JSA
//! disambiguation ([`crate::notation::ki2_move`]).

use super::kakinoki::{self, LineId, Plan, Sheet, width};
use crate::codes::WarningCode;
use crate::emit::Warning;
use crate::record::Line;
use crate::replay::{Game, LineResult};

/// Moves on one KI2 line, as Kifu for Windows writes them.
const MOVES_PER_LINE: usize = 6;
/// Display columns each KI2 move is padded to.
const COLUMN: usize = 12;

/// KI2 text for `game` (UTF-8, LF; [`write_sjis`] writes Shift_JIS), plus
/// warnings for what KI2 could not hold (`times-dropped`,
/// `evaluations-dropped`, `variations-dropped`) or had to change (a replaced
/// ending, `moves-after-foul-commented`).
pub fn write(game: &Game) -> (String, Vec<Warning>) {
    sheet(game).into_text("\n")
}

/// KI2 for `game` as a `.ki2` file holds it: Shift_JIS (CP932, with the
/// best-fit characters Windows writes) and CRLF, as Kifu for Windows writes
/// it. Warnings for characters CP932 cannot hold (`unencodable-char`) name
/// the input line they came from.
pub fn write_sjis(game: &Game) -> (Vec<u8>, Vec<Warning>) {
    sheet(game).into_sjis()
}

/// The KI2 text of `game`: the header, then every line of play.
fn sheet(game: &Game) -> Sheet<'_> {
    let mut s = Sheet::new(game);
    if s.timed {
        s.warn(
            WarningCode::TimesDropped,
            "KI2 has no place for move times; they are left out".into(),
        );
    }
    s.header();
    // Kifu for Windows pads the ply to four columns in KI2 only.
    s.write_lines(|ply| format!("変化：{ply:>4}手"), write_line);
    s
}

/// One line of play after its `変化` heading: its moves, the moves the
/// replay could not play (as comments), and its ending.
fn write_line<'g>(s: &mut Sheet<'g>, id: LineId, r: &LineResult, line: &'g Line, plan: Plan) {
    write_moves(s, id, r, line, &plan);
    // No terminal word in KI2: the `まで` line is the ending, and `*` lines
    // after it attach to it (before it, to the last move).
    s.end_line(r, line, &plan, "KI2", |s, _, _, summary| {
        if let Some(summary) = summary {
            s.line(summary);
        }
    });
}

/// The written moves of a line, rows of [`MOVES_PER_LINE`], a row cut short
/// by a move's comments and bookmarks, which follow it.
fn write_moves<'g>(s: &mut Sheet<'g>, id: LineId, r: &LineResult, line: &'g Line, plan: &Plan) {
    // KI2 names moves relative to the other pieces, so it needs the board.
    let mut pos = s.position_before(id, 0);
    let mut row: Vec<String> = Vec::new();
    s.write_moves(r, line, plan, |s, _, mover, (mv, piece, same), entry| {
        row.push(crate::notation::ki2_move(&pos, mover, mv, piece, same));
        pos.play_unchecked(mv);
        // The `*`/`&` lines must directly follow the move they annotate.
        if row.len() == MOVES_PER_LINE || entry.is_some_and(kakinoki::has_attachments) {
            write_row(s, &mut row);
        }
    });
    write_row(s, &mut row);
}

/// Write the pending moves as one line, each padded to [`COLUMN`] display
/// columns (the last one is not padded, so no line ends in spaces).
fn write_row(s: &mut Sheet, row: &mut Vec<String>) {
    if row.is_empty() {
        return;
    }
    let mut text = String::new();
    let last = row.len() - 1;
    for (i, m) in row.drain(..).enumerate() {
        text.push_str(&m);
        if i < last {
            // Wider moves (`▲５四銀左引不成`) still get one space, so
            // that the moves stay apart for people.
            let pad = COLUMN.saturating_sub(width(&m)).max(1);
            text.extend(std::iter::repeat_n(' ', pad));
        }
    }
    s.line(&text);
}

#[cfg(test)]
mod tests;
