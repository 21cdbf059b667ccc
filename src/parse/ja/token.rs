//! The tokens KIF and KI2 moves share, read once for both: spaces, side
//! marks, squares, `同`, origins and `打`. The grammars in `parse::kif` and
//! `parse::ki2` arrange them; a token that fails names what it expected
//! (`parse::ja::expect`).
//!
//! Two readings are settled here for both formats (they used to differ):
//!
//! - `▼` is sente and `▽` gote, as `▲` and `△`. `ki2.md` §2 says so;
//!   `kif.md` §6.1 lists them without a side. The programs agree with
//!   `ki2.md`: bioshogi reads `▼`/`▽` as the turned-over marks of black
//!   and white, and tsshogi takes them as move marks (the side from the
//!   position). The one real file with either
//!   (`ki2/mog-core-scala/game/004.ki2`) writes `▽` on every gote move and
//!   `▲` on every sente move; none holds `▼`.
//! - `(00)` is a drop's origin, as `00` is in CSA (`+0055KA`): no square
//!   has file or rank 0. Writers that fill the origin of a drop write
//!   `打(00)` (`kif.md` §6.1 tolerates it); none seen writes `(00)` without
//!   `打`, and KI2 read that as a drop already, so both now do. An origin
//!   with one zero (`(50)`) names no square and no drop, and is refused.
//!
//! The tokens (and the piece names and move ends of `parse::ja::grammar`)
//! are `#[inline(always)]`: each is a few byte tests, read several times
//! on every move line, and left as calls they cost KIF `check` 8 % more
//! instructions a ply (callgrind).

use crate::parse::ja::expect::{Res, error, failure, no_match};
use crate::record::Dest;
use crate::rules::types::{Color, Square};

/// The UTF-8 bytes of a three-byte character as one number, so that a
/// character is compared with one `match` on its bytes instead of decoded.
pub(crate) const fn key(c: char) -> u32 {
    let c = c as u32;
    assert!(c >= 0x800 && c < 0x10000);
    ((0xE0 | (c >> 12)) << 16) | ((0x80 | ((c >> 6) & 0x3F)) << 8) | (0x80 | (c & 0x3F))
}

/// The first three bytes of `b` as [`key`] makes them, or 0 if `b` is
/// shorter. Every key starts with a lead byte, so a match also proves that
/// byte 3 is a character boundary.
#[inline]
pub(crate) fn key3(b: &[u8]) -> u32 {
    match b {
        &[x, y, z, ..] => u32::from_be_bytes([0, x, y, z]),
        _ => 0,
    }
}

const SAME: u32 = key('同');
const DROP: u32 = key('打');

/// The one space of KIF and KI2 text: [`char::is_whitespace`] (half- and
/// full-width spaces, tabs, and the rest of Unicode's white space), with
/// kanji, kana and full-width forms (above U+3000, where Unicode has no
/// white space) answered without the Unicode table.
pub(crate) fn is_space(c: char) -> bool {
    match c as u32 {
        0..0x80 => c.is_ascii_whitespace() || c == '\u{0B}',
        0x3001.. => false,
        _ => c.is_whitespace(),
    }
}

/// The byte length of the run of [`is_space`] characters at the start of
/// `s`. On bytes for the spaces writers use (`' '`, tab, `'　'`): every line
/// of a KIF file comes here, most of them more than once.
#[inline(always)]
pub(crate) fn space_run(s: &str) -> usize {
    let b = s.as_bytes();
    let mut n = 0;
    while let Some(&c) = b.get(n) {
        match c {
            b' ' | b'\t' => n += 1,
            0xE3 if b.get(n + 1..n + 3) == Some(&[0x80, 0x80]) => n += 3,
            // Every other white space is ASCII or led by one of these.
            0x0A..=0x0D => n += 1,
            0xC2 | 0xE1 | 0xE2 => match s[n..].chars().next() {
                Some(c) if is_space(c) => n += c.len_utf8(),
                _ => break,
            },
            _ => break,
        }
    }
    n
}

/// Any run of spaces, perhaps none.
#[inline(always)]
pub(crate) fn spaces0(i: &str) -> Res<'_, &str> {
    let n = space_run(i);
    Ok((&i[n..], &i[..n]))
}

/// A run of one space or more.
#[inline]
pub(crate) fn spaces1(i: &str) -> Res<'_, &str> {
    match space_run(i) {
        0 => Err(error(i, "a space")),
        n => Ok((&i[n..], &i[..n])),
    }
}

/// The side marks: `▲ ☗ ▼` for sente, `△ ☖ ▽` for gote.
pub(crate) const MARKS: [char; 6] = ['▲', '☗', '▼', '△', '☖', '▽'];

/// A side mark of [`MARKS`] as a nom parser, matched on its bytes.
#[inline(always)]
pub(crate) fn side_mark(i: &str) -> Res<'_, Color> {
    const SENTE: [u32; 3] = [key('▲'), key('☗'), key('▼')];
    const GOTE: [u32; 3] = [key('△'), key('☖'), key('▽')];
    const EXPECTED: &str = "a side mark ▲ or △";
    let k = key3(i.as_bytes());
    // Every mark is a three-byte character led by 0xE2; no square is.
    let color = if k >> 16 != 0xE2 {
        return Err(error(i, EXPECTED));
    } else if SENTE.contains(&k) {
        Color::Sente
    } else if GOTE.contains(&k) {
        Color::Gote
    } else {
        return Err(error(i, EXPECTED));
    };
    Ok((&i[3..], color))
}

/// The digit `0`…`9`, full-width or ASCII, at the start of `b`, and its
/// byte length.
#[inline(always)]
fn digit_at(b: &[u8]) -> Option<(u8, usize)> {
    match b {
        [d @ b'0'..=b'9', ..] => Some((d - b'0', 1)),
        [0xEF, 0xBC, d @ 0x90..=0x99, ..] => Some((d - 0x90, 3)),
        _ => None,
    }
}

/// A file digit at the start of `b` (full-width `７` or ASCII `7`, old
/// exporters), as [`file_digit`](crate::parse::ja::numeral::file_digit)
/// reads it, and its byte length: matched on bytes, as every move has two
/// or three.
#[inline(always)]
pub(crate) fn file_at(b: &[u8]) -> Option<(u8, usize)> {
    digit_at(b).filter(|&(d, _)| d != 0)
}

/// The rank [`kanji_rank`](crate::parse::ja::numeral::kanji_rank) reads at
/// the start of `b` (every rank kanji is three bytes long), matched on bytes.
#[inline(always)]
pub(crate) fn rank_at(b: &[u8]) -> Option<u8> {
    const ONE: u32 = key('一');
    const TWO: u32 = key('二');
    const THREE: u32 = key('三');
    const FOUR: u32 = key('四');
    const FIVE: u32 = key('五');
    const SIX: u32 = key('六');
    const SEVEN: u32 = key('七');
    const EIGHT: u32 = key('八');
    const NINE: u32 = key('九');
    Some(match key3(b) {
        ONE => 1,
        TWO => 2,
        THREE => 3,
        FOUR => 4,
        FIVE => 5,
        SIX => 6,
        SEVEN => 7,
        EIGHT => 8,
        NINE => 9,
        _ => return None,
    })
}

/// A square: a file digit, then a kanji rank (`７六`) or, as some web
/// sources write it, a digit (`76`, `７６`).
#[inline(always)]
pub(crate) fn square(i: &str) -> Res<'_, Square> {
    let b = i.as_bytes();
    if let Some((f, n)) = file_at(b) {
        let rank = match rank_at(&b[n..]) {
            Some(r) => Some((r, 3)),
            None => file_at(&b[n..]),
        };
        if let Some((r, m)) = rank
            && let Some(sq) = Square::new(f, r)
        {
            return Ok((&i[n + m..], sq));
        }
    }
    Err(error(i, "a square such as ７六"))
}

/// `同` and the spaces after it: KfW writes `同　歩`, Kifu for Android `同歩`.
#[inline(always)]
pub(crate) fn same(i: &str) -> Res<'_, ()> {
    if key3(i.as_bytes()) != SAME {
        return Err(error(i, "同"));
    }
    Ok((spaces0(&i[3..])?.0, ()))
}

/// Whether `i` starts with what only a move starts with: a file digit or
/// `同`. Once it does, the grammars report what the move lacks rather than
/// try a terminal word.
#[inline(always)]
pub(crate) fn starts_move(i: &str) -> bool {
    let b = i.as_bytes();
    key3(b) == SAME || file_at(b).is_some()
}

/// Where a move goes: a [`square`], or [`same`] as the previous move.
#[inline(always)]
pub(crate) fn dest(i: &str) -> Res<'_, Dest> {
    if let Ok((rest, sq)) = square(i) {
        return Ok((rest, Dest::Square(sq)));
    }
    match same(i) {
        Ok((rest, ())) => Ok((rest, Dest::Same)),
        Err(_) => Err(error(i, "a destination such as ７六 or 同")),
    }
}

/// Where a move comes from, as written after it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Origin {
    /// `(77)`: the square the piece leaves.
    Square(Square),
    /// `(00)`: a drop (see the module's note).
    Drop,
}

/// What [`origin`] expects.
pub(crate) const ORIGIN: &str = "an origin such as (77), or (00) for a drop";

/// `(77)`, `(７７)`, or `(00)` for a drop. Anything else that starts with
/// `(` is an error an `opt` may recover from (a KIF time follows there),
/// except two digits of which one alone is zero, which name nothing.
#[inline(always)]
pub(crate) fn origin(i: &str) -> Res<'_, Origin> {
    const EXPECTED: &str = ORIGIN;
    let b = i.as_bytes();
    if b.first() == Some(&b'(')
        && let Some((f, n)) = digit_at(&b[1..])
        && let Some((r, m)) = digit_at(&b[1 + n..])
        && b.get(1 + n + m) == Some(&b')')
    {
        let rest = &i[2 + n + m..];
        return match (f, r) {
            (0, 0) => Ok((rest, Origin::Drop)),
            _ => match Square::new(f, r) {
                Some(sq) if f != 0 && r != 0 => Ok((rest, Origin::Square(sq))),
                _ => Err(failure(&i[1..], EXPECTED)),
            },
        };
    }
    Err(error(i, EXPECTED))
}

/// `打`, and the `(00)` some writers put after it (`kif.md` §6.1): whether
/// that `(00)` is written. A square after `打` contradicts it and is refused.
#[inline(always)]
pub(crate) fn drop_word(i: &str) -> Res<'_, bool> {
    if key3(i.as_bytes()) != DROP {
        return Err(no_match(i));
    }
    let rest = &i[3..];
    match origin(rest) {
        Ok((rest, Origin::Drop)) => Ok((rest, true)),
        Ok((_, Origin::Square(_))) => Err(failure(rest, "(00) or nothing after 打")),
        Err(nom::Err::Error(_)) => Ok((rest, false)),
        Err(e) => Err(e),
    }
}

#[cfg(test)]
mod tests;
