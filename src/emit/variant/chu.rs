//! Chu shogi's KIF as lishogi writes it (see `parse::kif::chu`): the
//! header as recorded (with `先手`/`後手` always), no `手合割` for the
//! standard start, `{n:>4}手目   ` before each move, squares as a file number
//! and a kanji rank, full piece names, `仝`, `（←origin）`, a double move
//! over an `一歩目` and a `二歩目` line (marked `（居食い）` or `(じっと)`
//! when it returns to its square), times as `(mm:ss/hh:mm:ss)`.

use super::lines::{self, Layout, Numbered};
use super::{ending, omitted_moves};
use crate::emit::Warning;
use crate::notation::chu::{RANKS, board_name, lishogi_name};
use crate::record::MoveTime;
use crate::rules::types::Color;
use crate::variant::{Board, VMove, Variant, VariantGame};

/// The game in lishogi's chu shogi KIF.
pub(super) fn kif(game: &VariantGame) -> (String, Vec<Warning>) {
    let record = &game.record;
    let mut warnings = Vec::new();
    let mut s = String::new();
    let named = |k: &str| record.header.iter().any(|h| h.key == k);
    // Where lishogi puts the start: among the header, before the players.
    let mut start = Some(start_text(&game.start));
    for h in &record.header {
        if matches!(h.key.as_str(), "先手" | "下手")
            && let Some(t) = start.take()
        {
            s.push_str(&t);
        }
        s.push_str(&format!("{}：{}\n", h.key, h.value.trim()));
    }
    s.push_str(&start.unwrap_or_default());
    for side in ["先手", "後手"] {
        if !named(side) && !named(if side == "先手" { "下手" } else { "上手" }) {
            s.push_str(&format!("{side}：\n"));
        }
    }
    s.push_str("手数----指手---------消費時間--\n");
    for c in &record.comments {
        s.push_str(&format!("*{c}\n"));
    }
    let mut board = game.start.clone();
    let mut last = None;
    for (i, p) in game.plies.iter().enumerate() {
        let entry = &record.main.moves[i];
        let n = i as u32 + 1;
        push_move(&mut s, n, &move_text(&board, p.mv, last), entry.time);
        for c in entry.comments() {
            s.push_str(&format!("*{c}\n"));
        }
        last = Some(p.mv.to);
        board.play_unchecked(p.mv);
    }
    ending(game, &mut s, &mut warnings, |s, n, word, time| {
        Lishogi.word_line(s, n, word, time)
    });
    lines::variations(game, &Lishogi, &mut s, &mut warnings);
    let bookmarks = record.bookmarks.len()
        + record
            .main
            .moves
            .iter()
            .map(|m| m.bookmarks().len())
            .sum::<usize>();
    if bookmarks > 0 {
        warnings.push(Warning {
            code: crate::codes::WarningCode::BookmarksDropped,
            message: format!("lishogi's chu shogi KIF has no bookmarks: {bookmarks} left out"),
        });
    }
    omitted_moves(game, &mut warnings);
    (s, warnings)
}

/// Nothing for chu shogi's own start; else lishogi's 12-rank diagram (and
/// `後手番`), or a `#SFEN:` line for what a diagram cannot hold (a move
/// number, the square of a lion just taken).
fn start_text(start: &Board) -> String {
    if start.to_sfen() == Variant::Chu.start().to_sfen() {
        return String::new();
    }
    if start.move_number() != 1 || start.last_lion_capture().is_some() {
        return format!("#SFEN:{}\n", start.to_sfen());
    }
    diagram(start)
}

/// lishogi's 12-rank diagram of `board`, and `後手番` when gote is to move.
pub fn diagram(board: &Board) -> String {
    let frame = format!("+{}+\n", "-".repeat(48));
    let mut s = String::from(" １２ １１ １０ ９  ８  ７  ６  ５  ４  ３  ２  １\n");
    s.push_str(&frame);
    for rank in 1..=12u8 {
        s.push('|');
        for file in (1..=12u8).rev() {
            let cell = board.cell_of(file, rank).and_then(|c| board.at(c));
            let text = match cell {
                None => "・".to_string(),
                Some((Color::Sente, id)) => board_name(id).to_string(),
                Some((Color::Gote, id)) => format!("v{}", board_name(id)),
            };
            // Right-aligned in three characters, as lishogi pads them.
            for _ in text.chars().count()..3 {
                s.push(' ');
            }
            s.push_str(&text);
        }
        s.push_str(&format!("|{}\n", RANKS[usize::from(rank) - 1]));
    }
    s.push_str(&frame);
    if board.side() == Color::Gote {
        s.push_str("後手番\n");
    }
    s
}

/// lishogi's layout of a numbered line, for the variations.
struct Lishogi;

impl Layout for Lishogi {
    fn move_line(&self, s: &mut String, mv: &Numbered<'_>) {
        push_move(s, mv.n, &move_text(mv.board, mv.m, mv.last), mv.time);
    }

    fn word_line(&self, s: &mut String, n: u32, word: &str, time: Option<MoveTime>) {
        s.push_str(&format!("{n:>4}手目   {word}"));
        push_time(s, time);
        s.push('\n');
    }
}

/// Move `n`'s line (or its two, for a double move) and its time.
fn push_move(s: &mut String, n: u32, text: &str, time: Option<MoveTime>) {
    match text.split_once('\n') {
        Some((first, second)) => {
            s.push_str(&format!(
                "{n:>4}手目一歩目 {first}\n{n:>4}手目二歩目 {second}"
            ));
        }
        None => s.push_str(&format!("{n:>4}手目   {text}")),
    }
    push_time(s, time);
    s.push('\n');
}

/// `   (00:05/00:00:05)`: the time spent, then the mover's total, as
/// lishogi writes them (minutes in two places at least).
fn push_time(s: &mut String, time: Option<MoveTime>) {
    let Some(spent) = time.and_then(|t| t.spent_ms) else {
        return;
    };
    let spent = spent / 1000;
    s.push_str(&format!("   ({:02}:{:02}/", spent / 60, spent % 60));
    if let Some(total) = time.and_then(|t| t.total_ms) {
        let t = total / 1000;
        s.push_str(&format!("{:02}:{:02}:{:02}", t / 3600, t / 60 % 60, t % 60));
    }
    s.push(')');
}

/// A square as lishogi writes chu shogi's: `7八`, `12十二`.
fn square(board: &Board, cell: u8) -> String {
    let (f, r) = board.file_rank(cell);
    format!("{f}{}", RANKS[usize::from(r).clamp(1, 12) - 1])
}

/// A move on `board` (the position before it), `last` the previous move's
/// destination: `7八歩兵 （←7九）`, `仝龍馬成 （←5九）`, or a double move's
/// two steps on two lines.
pub(super) fn move_text(board: &Board, m: VMove, last: Option<u8>) -> String {
    let Some(from) = m.from else {
        // Chu shogi has no drops.
        return String::new();
    };
    let name = board.at(from).map_or("", |(_, id)| lishogi_name(board, id));
    let dest = |cell: u8, same: bool| {
        if same && last == Some(cell) {
            "仝".to_string()
        } else {
            square(board, cell)
        }
    };
    let promote = if m.promote { "成" } else { "" };
    let Some(mid) = m.mid else {
        return format!(
            "{}{name}{promote} （←{}）",
            dest(m.to, true),
            square(board, from)
        );
    };
    let mark = if m.to != from {
        ""
    } else if board.at(mid).is_some() {
        "（居食い）"
    } else {
        "(じっと)"
    };
    format!(
        "{}{name} （←{}）\n{}{name}{promote}{mark} （←{}）",
        dest(mid, true),
        square(board, from),
        dest(m.to, false),
        square(board, mid)
    )
}
