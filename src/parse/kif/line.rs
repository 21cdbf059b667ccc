//! The grammar of one KIF move line, in nom.
//!
//! `   12 同　銀成(31)   ( 0:05/00:01:02)+` — number, destination or 同,
//! piece, 成/不成/生, origin or 打, optional time, optional `+`. A terminal word
//! (`投了`, `Time-up`) may stand in place of the move.
//!
//! Nearly every line of a KIF file is a move line, so the grammar is a
//! sequence of small parsers that look at bytes (a space, a digit, a file),
//! with combinators where a line may take several shapes; `context` labels
//! name what each part expected for the error messages.

use crate::parse::ja::ending_word::ending_kind;
use crate::parse::ja::expect::{self, LineErr, Res, no_match};
use crate::parse::ja::grammar::{move_end, piece_name};
use crate::parse::ja::token::{dest, is_space, side_mark, spaces0, spaces1, starts_move};
use crate::record::{EndingKind, MoveTime, Notation};
use crate::rules::types::Color;
use nom::Parser;
use nom::bytes::complete::take_till1;
use nom::character::complete::char;
use nom::combinator::{cut, opt};
use nom::error::context;

/// What stands after the move number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Body {
    Move(Notation),
    Ending(String, EndingKind),
    /// The first line of a move written over two (chu shogi's `一歩目`):
    /// the board keeps it until the second.
    FirstStep,
}

/// A parsed move line; offsets are byte offsets into the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MoveLine<'a> {
    pub number: u32,
    pub body: Body,
    pub body_offset: usize,
    pub time: Option<MoveTime>,
    /// Text after the time, such as a hand-written `#note`.
    pub trailing: &'a str,
}

fn number(i: &str) -> Res<'_, u32> {
    let len = i.bytes().take_while(u8::is_ascii_digit).count();
    if len == 0 {
        return Err(expect::error(i, "a move number"));
    }
    match i[..len].parse::<u32>() {
        Ok(n) => Ok((&i[len..], n)),
        Err(_) => Err(expect::failure(i, "a move number below 2^32")),
    }
}

/// `   1 `, `  12 `, ` 123 `, `1234 `: the move number right-aligned in four
/// places and a space, as nearly every writer pads it, read as one number
/// rather than byte by byte. Any other head fails here and is read by
/// [`number`], which reads these the same way.
#[inline]
fn padded_number(i: &str) -> Res<'_, u32> {
    const SPACES: u32 = u32::from_ne_bytes([b' '; 4]);
    const LOW7: u32 = u32::from_ne_bytes([0x7F; 4]);
    const HIGH: u32 = u32::from_ne_bytes([0xF0; 4]);
    const ZEROS: u32 = u32::from_ne_bytes([b'0'; 4]);
    const SIX: u32 = u32::from_ne_bytes([6; 4]);
    const LOW: u32 = u32::from_ne_bytes([0x0F; 4]);
    let &[c0, c1, c2, c3, b' ', ..] = i.as_bytes() else {
        return Err(no_match(i));
    };
    let w = u32::from_le_bytes([c0, c1, c2, c3]);
    // 0x80 in each byte that is a space (exact: no false hits past the first).
    let x = w ^ SPACES;
    let spaces = !(((x & LOW7) + LOW7) | x | LOW7);
    // The spaces must come first (0xFF in the low bytes only: one less
    // than a power of two) and leave at least one digit.
    let run = (spaces >> 7) * 0xFF;
    if run & run.wrapping_add(1) != 0 || run == u32::MAX {
        return Err(no_match(i));
    }
    // Spaces become '0' (0x20 | 0x10); every byte must then be a digit.
    let w = w | (spaces >> 3);
    if w & HIGH != ZEROS || w.wrapping_add(SIX) & HIGH != ZEROS {
        return Err(no_match(i));
    }
    // Each digit times ten plus the next, in every byte at once.
    let v = w & LOW;
    let pairs = (v * 10 + (v >> 8)).to_le_bytes();
    Ok((&i[5..], u32::from(pairs[0]) * 100 + u32::from(pairs[2])))
}

fn normal_move(color: Option<Color>) -> impl FnMut(&str) -> Res<'_, Notation> {
    move |i| {
        let (i, dest) = dest(i)?;
        let (i, piece) = piece_name(i)?;
        // Some writers put the space after the piece: `同銀　(79)`.
        let (i, _) = spaces0(i)?;
        let (i, (promote, source)) = move_end(i)?;
        Ok((i, source.kif_move(color, dest, piece, promote)))
    }
}

pub(super) fn terminal(i: &str) -> Res<'_, Body> {
    const EXPECTED: &str = "a move or a terminal word such as 投了";
    let (rest, word) = context(
        EXPECTED,
        take_till1(|c: char| is_space(c) || c == '(' || c == '+' || c == '#'),
    )
    .parse(i)?;
    match ending_kind(word) {
        Some(kind) => Ok((rest, Body::Ending(word.to_string(), kind))),
        None => Err(expect::error(i, EXPECTED)),
    }
}

/// `12` or `1:05` or `0:01:05` as milliseconds.
fn clock(i: &str) -> Res<'_, u64> {
    let b = i.as_bytes();
    let mut at = 0;
    let mut secs: Option<u64> = Some(0);
    for field in 0..3 {
        if field > 0 {
            // A field goes on only with a digit after its colon.
            match b.get(at..at + 2) {
                Some([b':', d]) if d.is_ascii_digit() => at += 1,
                _ => break,
            }
        }
        let start = at;
        let mut v = Some(0u64);
        while let Some(d) = b.get(at).filter(|d| d.is_ascii_digit()) {
            v = v.and_then(|v| v.checked_mul(10)?.checked_add(u64::from(d - b'0')));
            at += 1;
        }
        if at == start {
            return Err(no_match(i));
        }
        secs = secs
            .zip(v)
            .map(|(s, v)| s.saturating_mul(60).saturating_add(v));
    }
    match secs {
        Some(secs) => Ok((&i[at..], secs.saturating_mul(1000))),
        None => Err(expect::failure(i, "a time that fits in 64 bits")),
    }
}

/// `( 0:01/00:00:01)`, `(00:31 / 00:00:31)`, `( 0:12/)`, `(0:2/0:0:2)`,
/// `( 0:01:05/…)`.
fn time(i: &str) -> Res<'_, MoveTime> {
    let (i, _) = char('(').parse(i)?;
    let inner = |i| {
        let (i, spent) = clock(spaces0(i)?.0)?;
        let (i, _) = char('/').parse(spaces0(i)?.0)?;
        let (i, total) = opt(clock).parse(spaces0(i)?.0)?;
        let (i, _) = char(')').parse(spaces0(i)?.0)?;
        let time = MoveTime {
            spent_ms: Some(spent),
            total_ms: total,
        };
        Ok((i, time))
    };
    context("a time such as ( 0:01/00:00:01)", cut(inner)).parse(i)
}

/// The sixteen bytes [`padded_clocks`] reads, `d` for a digit.
const TIME_SHAPE: &[u8; 16] = b"(dd:dd/dd:dd:dd)";

/// Per byte of [`TIME_SHAPE`], as one number: `digit` where the shape has
/// a digit, and elsewhere `other`, or the shape's own byte when `own`.
const fn time_lanes(digit: u8, other: u8, own: bool) -> u128 {
    let mut v = 0u128;
    let mut i = 0;
    while i < 16 {
        let c = TIME_SHAPE[i];
        let lane = if c == b'd' {
            digit
        } else if own {
            c
        } else {
            other
        };
        v |= (lane as u128) << (8 * i);
        i += 1;
    }
    v
}

/// `   ( 0:52/00:00:52)` or `(12:05/01:10:00)` ending the line: ASCII spaces,
/// then `(`, minutes in two places (a space for a leading zero), seconds,
/// `/`, and `hh:mm:ss`, as nearly every writer pads the time. The sixteen
/// bytes are tested and summed as one number, not field by field; any
/// other shape fails here and is read by [`time`], which reads these the
/// same way.
#[inline]
fn padded_clocks(i: &str) -> Res<'_, MoveTime> {
    // The punctuation exactly, and 0x30..=0x3F where the digits go.
    const MASK: u128 = time_lanes(0xF0, 0xFF, false);
    const WANT: u128 = time_lanes(0x30, 0, true);
    // Then 0x30..=0x39 alone stay below 0x40 when six is added.
    const SIX: u128 = time_lanes(6, 0, false);
    const HIGH: u128 = time_lanes(0xF0, 0, false);
    const LOW: u128 = time_lanes(0x0F, 0, false);
    let b = i.as_bytes();
    let Some(pad) = b.len().checked_sub(16) else {
        return Err(no_match(i));
    };
    let (pad, t) = b.split_at(pad);
    let mut t: [u8; 16] = t.try_into().map_err(|_| no_match(i))?;
    // A space stands for a leading zero only in the first place.
    if t[1] == b' ' {
        t[1] = b'0';
    }
    let x = u128::from_le_bytes(t);
    if x & MASK != WANT
        || x.wrapping_add(SIX) & HIGH != WANT & HIGH
        || pad.iter().any(|&c| c != b' ')
    {
        return Err(no_match(i));
    }
    // Each digit times ten plus the next, in every byte at once: no byte
    // exceeds 99, so none carries into the next. Byte i is then the
    // two-digit number that starts at i.
    let v = x & LOW;
    let pairs = (v * 10 + (v >> 8)).to_le_bytes();
    let pair = |i: usize| u64::from(pairs[i]);
    let spent = pair(1) * 60 + pair(4);
    let total = (pair(7) * 60 + pair(10)) * 60 + pair(13);
    let time = MoveTime {
        spent_ms: Some(spent * 1000),
        total_ms: Some(total * 1000),
    };
    Ok(("", time))
}

/// The move number and the spaces around it.
#[inline]
pub(super) fn head(i: &str) -> Res<'_, u32> {
    if let Ok((i, number)) = padded_number(i) {
        return Ok((spaces0(i)?.0, number));
    }
    let (i, number) = number(spaces0(i)?.0)?;
    Ok((spaces1(i)?.0, number))
}

/// What follows the move: an optional time, an optional `+`, and nothing
/// else but a `#` note, which is returned.
#[inline]
pub(super) fn tail(i: &str) -> Res<'_, (Option<MoveTime>, &str)> {
    if let Ok((_, time)) = padded_clocks(i) {
        return Ok(("", (Some(time), "")));
    }
    let (i, time) = opt(time).parse(spaces0(i)?.0)?;
    let i = spaces0(i)?.0;
    let trailing = spaces0(i.strip_prefix('+').unwrap_or(i))?.0;
    if !trailing.is_empty() && !trailing.starts_with('#') {
        return Err(expect::failure(
            trailing,
            "the end of the line after the move",
        ));
    }
    Ok(("", (time, trailing)))
}

/// The move line of `number` and `body` (at `body_offset`), with what
/// follows the move (`rest`: the time, a `+`, a `#` note).
#[inline(always)]
pub(super) fn ended<'a>(
    number: u32,
    body: Body,
    body_offset: usize,
    rest: &'a str,
) -> Result<MoveLine<'a>, nom::Err<LineErr<'a>>> {
    let (_, (time, trailing)) = tail(rest)?;
    Ok(MoveLine {
        number,
        body,
        body_offset,
        time,
        trailing,
    })
}

/// Parse a line that [`looks_like_move_line`](crate::parse::ja::line_kind::looks_like_move_line).
// Always inlined into the KIF line loop: the line's parts then go
// straight into its entry instead of through a returned copy.
#[inline(always)]
pub(crate) fn move_line(line: &str) -> Result<MoveLine<'_>, LineErr<'_>> {
    move_line_with(line, |i, mark| normal_move(mark)(i))
}

/// [`move_line`] with the move itself read by `move_text` (another board's
/// piece names and size), given the side mark written before it.
#[inline(always)]
pub(crate) fn move_line_with<'a>(
    line: &'a str,
    move_text: impl Fn(&'a str, Option<Color>) -> Res<'a, Notation>,
) -> Result<MoveLine<'a>, LineErr<'a>> {
    let run = |i: &'a str| -> Res<'a, MoveLine<'a>> {
        let (i, number) = head(i)?;
        let (i, mark) = opt(side_mark).parse(i)?;
        let i = spaces0(i)?.0;
        let body_offset = line.len() - i.len();
        // Once the first character says which kind of line this is, a
        // failure is final: reporting 'expected a piece' beats backtracking.
        let (i, body) = if starts_move(i) {
            cut(|i| move_text(i, mark).map(|(i, n)| (i, Body::Move(n)))).parse(i)?
        } else {
            cut(terminal).parse(i)?
        };
        Ok(("", ended(number, body, body_offset, i)?))
    };
    expect::complete(run(line))
}

#[cfg(test)]
mod tests;
