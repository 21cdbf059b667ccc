//! Chu shogi's KIF, as lishogi writes it: `   1手目   7七金将 （←7八）`,
//! squares as a file number and a kanji rank up to 十二 (`6十一`), full
//! piece names, `仝` for the previous destination, the origin after the
//! move in `（←…）`, and a double move over two lines with one number,
//! `一歩目` then `二歩目` (the second marked `（居食い）` when it returns
//! after taking, `(じっと)` when it returns without). The `手目` and a side
//! mark may be left out (older exports, shogiops).

use super::line::{Body, MoveLine, ended, terminal};
use crate::notation::chu::{RANKS, from_board_name, piece_named as piece, rank_at};
use crate::parse::ja::expect::{self, LineErr, Res, error, failure};
use crate::parse::ja::token::{side_mark, spaces0};
use crate::record::Notation;
use crate::rules::types::Color;
use crate::variant::{Board, Variant};
use nom::Parser;
use nom::combinator::{cut, opt};

/// Which part of a double move a line writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Step {
    Whole,
    First,
    Second,
}

/// What follows the move number that starts `t` (after spaces), if one does.
fn after_number(t: &str) -> Option<&str> {
    let t = t.trim_start_matches([' ', '　']);
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    (digits > 0).then(|| &t[digits..])
}

/// Whether `t` is a chu move line: spaces, a number, then a space, `手目`,
/// `一歩目` or `二歩目`.
pub(super) fn is_move_line(t: &str) -> bool {
    after_number(t).is_some_and(|rest| {
        rest.starts_with([' ', '　'])
            || ["手目", "一歩目", "二歩目"]
                .iter()
                .any(|w| rest.starts_with(w))
    })
}

/// Whether `t` writes a chu shogi move as lishogi does (`1手目 … （←7九）`):
/// on another board, it tells that the record is chu shogi's.
pub fn writes_chu_move(t: &str) -> bool {
    after_number(t).is_some_and(|rest| rest.starts_with("手目")) && t.contains("（←")
}

/// A chu move line on `board`, and which part of a move it writes.
pub(super) fn move_line<'a>(
    board: &Board,
    line: &'a str,
) -> Result<(MoveLine<'a>, Step), LineErr<'a>> {
    let run = |i: &'a str| -> Res<'a, (MoveLine<'a>, Step)> {
        let (i, _) = spaces0(i)?;
        let (i, number) = number(i)?;
        let i = i.strip_prefix("手目").unwrap_or(i);
        let (i, step) = if let Some(r) = i.strip_prefix("一歩目") {
            (r, Step::First)
        } else if let Some(r) = i.strip_prefix("二歩目") {
            (r, Step::Second)
        } else {
            (i, Step::Whole)
        };
        let (i, _) = spaces0(i)?;
        let (i, _) = opt(side_mark).parse(i)?;
        let (i, _) = spaces0(i)?;
        let body_offset = line.len() - i.len();
        let (i, body) = if starts_square(i) {
            cut(|i| move_text(board, i).map(|(i, n)| (i, Body::Move(n)))).parse(i)?
        } else if step == Step::Whole {
            cut(terminal).parse(i)?
        } else {
            return Err(failure(
                i,
                "a step of a double move such as 6八獅子 （←7九）",
            ));
        };
        Ok(("", (ended(number, body, body_offset, i)?, step)))
    };
    expect::complete(run(line))
}

fn number(i: &str) -> Res<'_, u32> {
    let len = i.bytes().take_while(u8::is_ascii_digit).count();
    match i[..len].parse::<u32>() {
        Ok(n) => Ok((&i[len..], n)),
        Err(_) => Err(error(i, "a move number")),
    }
}

const FULL_DIGITS: [char; 10] = ['０', '１', '２', '３', '４', '５', '６', '７', '８', '９'];

fn starts_square(i: &str) -> bool {
    i.starts_with(['仝', '同'])
        || i.starts_with(|c: char| c.is_ascii_digit() || FULL_DIGITS.contains(&c))
}

/// A square (`7八`, `１２十二`) as a cell of `board`.
fn square<'a>(board: &Board, i: &'a str) -> Res<'a, u8> {
    const EXPECTED: &str = "a square of the 12×12 board such as 7八 or 6十一";
    let mut file = 0u32;
    let mut rest = i;
    let mut digits = 0;
    while let Some(c) = rest.chars().next() {
        let d = c
            .to_digit(10)
            .or_else(|| FULL_DIGITS.iter().position(|&f| f == c).map(|p| p as u32));
        let Some(d) = d.filter(|_| digits < 2) else {
            break;
        };
        file = file * 10 + d;
        digits += 1;
        rest = &rest[c.len_utf8()..];
    }
    let Some((rank, len)) = rank_at(rest) else {
        return Err(error(i, EXPECTED));
    };
    let cell = u8::try_from(file).ok().and_then(|f| board.cell_of(f, rank));
    match cell {
        Some(c) if digits > 0 => Ok((&rest[len..], c)),
        _ => Err(failure(i, EXPECTED)),
    }
}

/// `7八歩兵 （←7九）`, `仝龍馬成 （←5九）`, `7七獅子（居食い） （←6六）`.
fn move_text<'a>(board: &Board, i: &'a str) -> Res<'a, Notation> {
    let (i, to) = match i.strip_prefix(['仝', '同']) {
        Some(r) => (spaces0(r)?.0, None),
        None => {
            let (r, c) = square(board, i)?;
            (r, Some(c))
        }
    };
    let Some((id, len)) = piece(board, i) else {
        return Err(failure(i, "a piece of chu shogi such as 歩兵 or 獅子"));
    };
    let mut i = &i[len..];
    let mut promote = None;
    for (word, p) in [("不成", false), ("成", true)] {
        if let Some(r) = i.strip_prefix(word) {
            promote = Some(p);
            i = r;
            break;
        }
    }
    // The marks of a return (igui, jitto): the board tells which it was.
    for mark in ["（居食い）", "(居食い)", "（じっと）", "(じっと)"] {
        if let Some(r) = i.strip_prefix(mark) {
            i = r;
            break;
        }
    }
    let (i, _) = spaces0(i)?;
    let Some(i) = ["（←", "(←", "（", "("]
        .iter()
        .find_map(|open| i.strip_prefix(open))
    else {
        return Err(failure(i, "the origin such as （←7九）"));
    };
    let (i, from) = square(board, i)?;
    let Some(i) = i.strip_prefix(['）', ')']) else {
        return Err(failure(i, "）after the origin"));
    };
    let n = Notation::VariantKif {
        to,
        piece: id,
        promote,
        from: Some(from),
        via: None,
    };
    Ok((i, n))
}

/// lishogi's 12-rank board diagram (a start other than chu shogi's own),
/// read a line at a time: the file numbers, the frame, twelve rows of
/// three-character cells (`  ・`, `  獅`, ` v獅`, ` 成獅`, `v成獅`) each
/// ending in its rank, and `後手番` when gote moves first.
#[derive(Default)]
pub(super) struct Diagram {
    rows: Vec<Vec<Option<(Color, u8)>>>,
    gote: bool,
}

impl Diagram {
    /// Whether `t` is a line of the diagram, read into it; what is wrong
    /// with a row that cannot be read.
    pub(super) fn line(&mut self, t: &str) -> Result<bool, String> {
        let t = t.trim_matches([' ', '　']);
        if t.starts_with("１２") || (t.starts_with('+') && t.ends_with('+') && t.contains("---"))
        {
            return Ok(true);
        }
        if t == "後手番" || t == "上手番" {
            self.gote = true;
            return Ok(true);
        }
        if t == "先手番" || t == "下手番" {
            return Ok(true);
        }
        if let Some((_, hand)) = t.split_once("の持駒：") {
            return match hand.trim() {
                "なし" | "" => Ok(true),
                other => Err(format!("chu shogi has no pieces in hand, found {other:?}")),
            };
        }
        let Some(body) = t.strip_prefix('|') else {
            return Ok(false);
        };
        let Some((cells, rank)) = body.rsplit_once('|') else {
            return Err("expected a row ending in `|` and its rank".into());
        };
        if RANKS.get(self.rows.len()) != Some(&rank) {
            return Err(format!(
                "expected row {} of the 12, found the rank {rank:?}",
                self.rows.len() + 1
            ));
        }
        let chars: Vec<char> = cells.chars().collect();
        if chars.len() != 36 {
            return Err(format!(
                "expected 12 cells of three characters, found {} characters",
                chars.len()
            ));
        }
        let mut row = Vec::with_capacity(12);
        for cell in chars.chunks(3) {
            let text: String = cell.iter().collect::<String>().trim_start().to_string();
            if text == "・" {
                row.push(None);
                continue;
            }
            let (color, name) = match text.strip_prefix('v') {
                Some(n) => (Color::Gote, n),
                None => (Color::Sente, text.as_str()),
            };
            let id = from_board_name(name)
                .ok_or_else(|| format!("no chu shogi piece is called {name:?} on a board"))?;
            row.push(Some((color, id)));
        }
        self.rows.push(row);
        Ok(true)
    }

    /// The position, once the twelve rows are read.
    pub(super) fn board(&self) -> Option<Board> {
        if self.rows.len() != 12 {
            return None;
        }
        let mut b = Board::empty(Variant::Chu);
        for (r, row) in self.rows.iter().enumerate() {
            for (c, piece) in row.iter().enumerate() {
                // Each row runs from file 12 to file 1.
                let cell = b.cell_of(12 - c as u8, r as u8 + 1)?;
                b.set(cell, *piece);
            }
        }
        b.set_side(if self.gote { Color::Gote } else { Color::Sente });
        Some(b)
    }
}
