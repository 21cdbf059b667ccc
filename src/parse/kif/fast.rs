//! The one fast path of the KIF reader: the usual move line (`   1 ７六歩(77)
//!   ( 0:01/00:00:01)`) read on its bytes, characters compared as their
//! UTF-8 bytes, the padded number and clock read at fixed places. It gives
//! the grammar's result for every line it takes and declines (`None`) every
//! other, which [`super::line::move_line`] then reads; a test holds the two
//! together. Move lines are nearly all of a KIF file, and read by the
//! grammar's parsers they cost more than the rest of a `check` run.

use super::line::{Body, MoveLine, head, tail};
use crate::parse::ja::grammar::file_at;
use crate::parse::ja::line_kind::space_run;
use crate::record::{Dest, MoveTime, Notation};
use crate::rules::types::{Color, PieceKind, Square};

/// The byte length of the space (`' '`, tab or `'　'`) at `at`, or 0.
#[inline]
fn space_len(b: &[u8], at: usize) -> usize {
    match b.get(at) {
        Some(b' ' | b'\t') => 1,
        Some(0xE3) if key3(b, at) == key('　') => 3,
        _ => 0,
    }
}

#[inline]
fn skip_spaces(b: &[u8], at: usize) -> usize {
    at + b.get(at..).map_or(0, space_run)
}

/// The UTF-8 bytes of a three-byte character as one number, so that the
/// fast reader can compare a character with one `match` on three bytes
/// instead of decoding it.
const fn key(c: char) -> u32 {
    let c = c as u32;
    assert!(c >= 0x800 && c < 0x10000);
    ((0xE0 | (c >> 12)) << 16) | ((0x80 | ((c >> 6) & 0x3F)) << 8) | (0x80 | (c & 0x3F))
}

/// The three bytes at `at` as [`key`] makes them, or 0 past the end. Every
/// key starts with a three-byte lead byte, so a match also proves that
/// `at + 3` is a character boundary.
#[inline]
fn key3(b: &[u8], at: usize) -> u32 {
    match b.get(at..at + 3) {
        Some(&[x, y, z]) => u32::from_be_bytes([0, x, y, z]),
        _ => 0,
    }
}

const SPACE: u32 = key('　');
const SAME: u32 = key('同');
const PROMOTED: u32 = key('成');
const NOT: u32 = key('不');
const RAW: u32 = key('生');
const DROP: u32 = key('打');

/// A file digit at `at` as [`file_digit`](crate::parse::ja::numeral::file_digit) reads it (`１`…`９` or
/// `1`…`9`) and its byte length.
#[inline]
fn digit_at(b: &[u8], at: usize) -> Option<(u8, usize)> {
    file_at(b.get(at..)?)
}

/// A rank `一`…`九` as [`kanji_rank`](crate::parse::ja::numeral::kanji_rank) reads it (`〇` is no rank).
#[inline]
fn rank_of(k: u32) -> Option<u8> {
    const ONE: u32 = key('一');
    const TWO: u32 = key('二');
    const THREE: u32 = key('三');
    const FOUR: u32 = key('四');
    const FIVE: u32 = key('五');
    const SIX: u32 = key('六');
    const SEVEN: u32 = key('七');
    const EIGHT: u32 = key('八');
    const NINE: u32 = key('九');
    Some(match k {
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

/// A piece name at `at` as [`PieceKind::from_kif_prefix`] reads it, and its
/// byte length: every name is one or two three-byte characters.
#[inline]
fn piece_at(b: &[u8], at: usize) -> Option<(PieceKind, usize)> {
    use PieceKind::*;
    const PAWN: u32 = key('歩');
    const LANCE: u32 = key('香');
    const KNIGHT: u32 = key('桂');
    const SILVER: u32 = key('銀');
    const GOLD: u32 = key('金');
    const BISHOP: u32 = key('角');
    const ROOK: u32 = key('飛');
    const GYOKU: u32 = key('玉');
    const OU: u32 = key('王');
    const TO: u32 = key('と');
    const KYO: u32 = key('杏');
    const KEI: u32 = key('圭');
    const ZEN: u32 = key('全');
    const UMA: u32 = key('馬');
    const RYU: u32 = key('龍');
    const RYU2: u32 = key('竜');
    let k = match key3(b, at) {
        PAWN => Pawn,
        LANCE => Lance,
        KNIGHT => Knight,
        SILVER => Silver,
        GOLD => Gold,
        BISHOP => Bishop,
        ROOK => Rook,
        GYOKU | OU => King,
        TO => ProPawn,
        KYO => ProLance,
        KEI => ProKnight,
        ZEN => ProSilver,
        UMA => Horse,
        RYU | RYU2 => Dragon,
        PROMOTED => {
            let k = match key3(b, at + 3) {
                LANCE => ProLance,
                KNIGHT => ProKnight,
                SILVER => ProSilver,
                BISHOP => Horse,
                _ => return None,
            };
            return Some((k, 6));
        }
        _ => return None,
    };
    Some((k, 3))
}

/// The usual move line read byte by byte, with no nom: the same result as
/// [`super::line::move_line`] for every line it accepts, and `None` for anything else
/// (terminal words, odd times, every error), which the grammar then reads.
/// Move lines are nearly all of a KIF file, and nom's combinators cost
/// several times what the line's few characters need. Characters are
/// compared as their UTF-8 bytes ([`key3`]), never decoded.
// Always inlined into the KIF line loop: returned by value, the line's
// parts were stored and copied once more per move.
#[inline(always)]
pub(crate) fn quick(line: &str) -> Option<MoveLine<'_>> {
    let b = line.as_bytes();
    let (number, mut at) = match fixed_head(b) {
        Some((number, at)) => (number, skip_spaces(b, at)),
        None => {
            let (rest, number) = head(line).ok()?;
            (number, line.len() - rest.len())
        }
    };
    const SENTE: [u32; 2] = [key('▲'), key('☗')];
    const GOTE: [u32; 2] = [key('△'), key('☖')];
    const NONE: [u32; 2] = [key('▼'), key('▽')];
    let mut k = key3(b, at);
    let mut color = None;
    // Every side mark starts with E2, no destination does.
    if k >> 16 == 0xE2 {
        color = if SENTE.contains(&k) {
            Some(Color::Sente)
        } else if GOTE.contains(&k) {
            Some(Color::Gote)
        } else if NONE.contains(&k) {
            None
        } else {
            return None;
        };
        at = skip_spaces(b, at + 3);
        k = key3(b, at);
    }
    let body_offset = at;
    let dest = if k == SAME {
        at += 3;
        at += space_len(b, at);
        Dest::Same
    } else {
        let (file, n) = digit_at(b, at)?;
        let rank = rank_of(key3(b, at + n))?;
        at += n + 3;
        Dest::Square(Square::new(file, rank)?)
    };
    let (piece, used) = piece_at(b, at)?;
    at += used;
    k = key3(b, at);
    if k == SPACE {
        at += 3;
        k = key3(b, at);
    }
    let promote = match k {
        NOT if key3(b, at + 3) == PROMOTED => {
            at += 6;
            Some(false)
        }
        RAW => {
            at += 3;
            Some(false)
        }
        PROMOTED => {
            at += 3;
            Some(true)
        }
        _ => None,
    };
    let (from, drop) = if key3(b, at) == DROP {
        at += 3;
        if b.get(at..at + 4) == Some(b"(00)") {
            at += 4;
        }
        (None, true)
    } else {
        match quick_origin(b, at) {
            Some((sq, end)) => {
                at = end;
                (Some(sq), false)
            }
            None => (None, false),
        }
    };
    // Nearly every timed line ends in the sixteen bytes every writer pads
    // to: read them at fixed places rather than field by field.
    let (time, trailing) = match b.get(at..).and_then(fixed_time) {
        Some(t) => (Some(t), ""),
        None => tail(line.get(at..)?).ok()?.1,
    };
    Some(MoveLine {
        number,
        body: Body::Move(Notation::Kif {
            color,
            dest,
            piece,
            promote,
            from,
            drop,
        }),
        body_offset,
        time,
        trailing,
    })
}

/// The sixteen bytes [`fixed_time`] reads, `d` for a digit.
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

/// `   1 `, `  12 `, ` 123 `, `1234 `: the move number right-aligned in four
/// places and a space, as nearly every writer pads it. The number and the
/// index after the space; `None` for any other head, which [`head`] then
/// reads (the same way, for what this accepts).
#[inline]
fn fixed_head(b: &[u8]) -> Option<(u32, usize)> {
    const SPACES: u32 = u32::from_ne_bytes([b' '; 4]);
    const LOW7: u32 = u32::from_ne_bytes([0x7F; 4]);
    const HIGH: u32 = u32::from_ne_bytes([0xF0; 4]);
    const ZEROS: u32 = u32::from_ne_bytes([b'0'; 4]);
    const SIX: u32 = u32::from_ne_bytes([6; 4]);
    const LOW: u32 = u32::from_ne_bytes([0x0F; 4]);
    let &[c0, c1, c2, c3, b' ', ..] = b else {
        return None;
    };
    let w = u32::from_le_bytes([c0, c1, c2, c3]);
    // 0x80 in each byte that is a space (exact: no false hits past the first).
    let x = w ^ SPACES;
    let spaces = !(((x & LOW7) + LOW7) | x | LOW7);
    // The spaces must come first (0xFF in the low bytes only: one less
    // than a power of two) and leave at least one digit.
    let run = (spaces >> 7) * 0xFF;
    if run & run.wrapping_add(1) != 0 || run == u32::MAX {
        return None;
    }
    // Spaces become '0' (0x20 | 0x10); every byte must then be a digit.
    let w = w | (spaces >> 3);
    if w & HIGH != ZEROS || w.wrapping_add(SIX) & HIGH != ZEROS {
        return None;
    }
    // Each digit times ten plus the next, in every byte at once.
    let v = w & LOW;
    let pairs = (v * 10 + (v >> 8)).to_le_bytes();
    Some((u32::from(pairs[0]) * 100 + u32::from(pairs[2]), 5))
}

/// `   ( 0:52/00:00:52)` or `(12:05/01:10:00)` ending the line: ASCII spaces,
/// then `(`, minutes in two places (a space for a leading zero), seconds,
/// `/`, and `hh:mm:ss`. `None` for any other shape, which [`tail`] then
/// reads; what this accepts, the grammar reads the same way. The
/// sixteen bytes are tested and summed as one number, not one by one.
#[inline]
fn fixed_time(rest: &[u8]) -> Option<MoveTime> {
    // The punctuation exactly, and 0x30..=0x3F where the digits go.
    const MASK: u128 = time_lanes(0xF0, 0xFF, false);
    const WANT: u128 = time_lanes(0x30, 0, true);
    // Then 0x30..=0x39 alone stay below 0x40 when six is added.
    const SIX: u128 = time_lanes(6, 0, false);
    const HIGH: u128 = time_lanes(0xF0, 0, false);
    const LOW: u128 = time_lanes(0x0F, 0, false);
    let (pad, t) = rest.split_at(rest.len().checked_sub(16)?);
    let mut t: [u8; 16] = t.try_into().ok()?;
    // A space stands for a leading zero only in the first place.
    if t[1] == b' ' {
        t[1] = b'0';
    }
    let x = u128::from_le_bytes(t);
    if x & MASK != WANT
        || x.wrapping_add(SIX) & HIGH != WANT & HIGH
        || pad.iter().any(|&c| c != b' ')
    {
        return None;
    }
    // Each digit times ten plus the next, in every byte at once: no byte
    // exceeds 99, so none carries into the next. Byte i is then the
    // two-digit number that starts at i.
    let v = x & LOW;
    let pairs = (v * 10 + (v >> 8)).to_le_bytes();
    let pair = |i: usize| u64::from(pairs[i]);
    let spent = pair(1) * 60 + pair(4);
    let total = (pair(7) * 60 + pair(10)) * 60 + pair(13);
    Some(MoveTime {
        spent_ms: Some(spent * 1000),
        total_ms: Some(total * 1000),
    })
}

/// `(77)` at `at`: the square and the byte after `)`.
#[inline]
fn quick_origin(b: &[u8], at: usize) -> Option<(Square, usize)> {
    if b.get(at) != Some(&b'(') {
        return None;
    }
    let (f, fnl) = digit_at(b, at + 1)?;
    let (r, rnl) = digit_at(b, at + 1 + fnl)?;
    let end = at + 1 + fnl + rnl;
    if b.get(end) != Some(&b')') {
        return None;
    }
    Some((Square::new(f, r)?, end + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::ja::numeral::{file_digit, kanji_rank};
    use crate::parse::kif::line::move_line as grammar;

    /// Lines of every dialect the fast path meets, and a few it must refuse.
    const SEEDS: &[&str] = &[
        "   1 ７六歩(77)        ( 0:01/00:00:01)",
        "   1 ７六歩(77)   ( 0:01/00:00:01)+",
        "  12 同　銀成(31)   ( 0:05/00:01:02)+",
        "8 同銀(31) ( 0:01/00:00:02)",
        "8 同銀　(31)",
        "8 同 銀(31)",
        "8 同\t銀(31)",
        "21 ２二角不成(88)",
        "21 ２二角生(88)",
        "21 ２二成銀(13)",
        "10 ２三歩打",
        "10 ２三歩打(00)  ( 0:12/)",
        "1 7六歩(77) (0:2/0:0:2)",
        "1 ７六歩(7７) (00:31 / 00:00:31)",
        "1 ７六歩(77) ( 0:01:05/01:00:00)",
        "1 ７六歩(77) (90:00/1:30:00)",
        "1 ７六歩(77)    (00:00 / 00:00:00)#コメント7",
        "1 ７六歩(77)#note",
        "  1 ▲７六歩(77)",
        "  2 △ ３四歩(33)",
        "  2 ☖３四歩(33)",
        "  3 ▽同　歩(34)",
        "　1　７六歩(77)　",
        "1\t７六歩(77)\t",
        "1 ７六歩",
        "1 ７六歩( 0:01/00:00:01)",
        "1 ７六歩(77) ( 0:1234567890/00:00:01)",
        "1 ７六歩(77) ( 0:123456789/999999999:999999999:999999999)",
        "1 ７六歩(77) ( 0:01/99999999999999999999)",
        "99999999999 ７六歩(77)",
        "4294967295 ７六歩(77)",
        "4294967296 ７六歩(77)",
        "   5 投了",
        " 194  Time-up   ( 0:0/)",
        "1 ７六犬(77)",
        "1 ７十歩(77)",
        "1 ０六歩(77)",
        "1 ７六歩(70)",
        "1 ７六歩(77) junk",
        "1 ７六歩(77) ( 0:01/",
        "1 ７六歩(77) ( 0:01 00:00:01)",
        "1 ７六歩(77) (:01/00:00:01)",
        "1 ７六歩(77) ( 0:01/00:00:01:02)",
        "1 ７六歩(77) ( 0:01/00:00:)",
        "1 ７六歩(77) ++",
        "1７六歩(77)",
        "1 ",
        "1",
        "",
        "7六",
        "1 ２二成香(13)",
        "1 ２二成角成(13)",
        "1 ２二成(13)",
        "1 ■７六歩(77)",
        "1 ☗　７六歩(７７)",
        "1 ７〇歩(77)",
        "1 ７六歩（77）",
        "1 ７六歩(0:01/0:02)",
        "1 ２三歩打 ( 0:01/00:00:01)",
        "1 ２三と不成(12)",
        "1 ７六歩(77)(10:52/01:00:52)",
        "1 ７六歩(77)   (99:59/99:59:59)",
        "1 ７六歩( 0:52/00:00:52)",
        "1 ７六歩(77)   (0 :52/00:00:52)",
        "1 ７六歩(77)   ( 0:52/00:00:52) ",
        "1 ２三歩打   ( 0:52/00:00:52)",
        "1 ７六歩(77)   ( 0:5:/00:00:52)",
        "1 ７六歩(77)   ( 0:52/00:00:5;)",
        "1 ７六歩(77)   ( 0:52/0?:00:52)",
        "1 ７六歩(77)   ( 0:52/00:00:52]",
        "1 ７六歩(77)   ( 0:52/00:00:5A)",
        "0000000001 ７六歩(77)",
        "999999999 ７六歩(77)",
        "   1 ７六歩(77)",
        "  12 ７六歩(77)",
        " 123 ７六歩(77)",
        "1234 ７六歩(77)",
        "12345 ７六歩(77)",
        "    ７六歩(77)",
        "1 2 ７六歩(77)",
        " 1 2 ７六歩(77)",
        "  1  ７六歩(77)",
        "   1　７六歩(77)",
    ];

    /// Every seed, and each with one character dropped, doubled or cut
    /// after: the fast path either declines or agrees with the grammar.
    #[test]
    fn quick_agrees_with_the_grammar() {
        let mut accepted = 0;
        for seed in SEEDS {
            let chars: Vec<(usize, char)> = seed.char_indices().collect();
            let mut variants = vec![seed.to_string()];
            for &(i, c) in &chars {
                let after = i + c.len_utf8();
                variants.push(format!("{}{}", &seed[..i], &seed[after..]));
                variants.push(format!("{}{c}{}", &seed[..after], &seed[after..]));
                variants.push(seed[..after].to_string());
                variants.push(format!("{} {}", &seed[..after], &seed[after..]));
            }
            for v in &variants {
                if let Some(q) = quick(v) {
                    accepted += 1;
                    assert_eq!(Ok(q), grammar(v), "{v:?}");
                }
            }
        }
        // The test means something only if the fast path takes most lines.
        assert!(accepted > 500, "{accepted}");
    }

    /// The byte readers agree with the char readers the grammar uses, on
    /// every character of the Basic Multilingual Plane (as the first of a
    /// few following characters, so that two-character names are met).
    #[test]
    fn byte_readers_agree_with_the_char_readers() {
        let mut pieces = 0;
        for c in (0..0x10000u32).filter_map(char::from_u32) {
            for next in ["", "香", "角", "成", "x"] {
                let s = format!("{c}{next}");
                let b = s.as_bytes();
                assert_eq!(piece_at(b, 0), PieceKind::from_kif_prefix(&s), "{s:?}");
                pieces += usize::from(piece_at(b, 0).is_some());
                assert_eq!(
                    digit_at(b, 0),
                    file_digit(c).map(|d| (d, c.len_utf8())),
                    "{s:?}"
                );
            }
            let k = if c.len_utf8() == 3 {
                key3(c.to_string().as_bytes(), 0)
            } else {
                0
            };
            if c.len_utf8() == 3 {
                assert_eq!(k, key(c));
            }
            assert_eq!(rank_of(k).filter(|_| k != 0), kanji_rank(c), "{c:?}");
            assert_eq!(
                space_len(c.to_string().as_bytes(), 0) > 0,
                c == ' ' || c == '\t' || c == '　',
                "{c:?}"
            );
        }
        assert!(pieces > 80, "{pieces}");
    }

    /// Every four-byte head from an alphabet of spaces, digits and their
    /// neighbours: the fixed reading agrees with the general one, and
    /// takes every padded number.
    #[test]
    fn fixed_head_agrees_with_the_grammar() {
        let alphabet = [
            b' ', b'0', b'1', b'5', b'9', b'/', b':', b'\t', b'x', 0x10, 0xA0,
        ];
        let mut taken = 0;
        for &a in &alphabet {
            for &b in &alphabet {
                for &c in &alphabet {
                    for &d in &alphabet {
                        let line = [a, b, c, d, b' ', b'x'];
                        if let Some(f) = fixed_head(&line) {
                            taken += 1;
                            let text = std::str::from_utf8(&line).unwrap();
                            let (rest, n) = head(text).unwrap();
                            assert_eq!(f, (n, text.len() - rest.len()), "{line:?}");
                        }
                    }
                }
            }
        }
        // Digits in the last k places after 4 - k spaces: 4^1 + 4^2 + 4^3 + 4^4.
        assert_eq!(taken, 340);
        assert_eq!(fixed_head(b"1234 x"), Some((1234, 5)));
        assert_eq!(fixed_head(b"  07 x"), Some((7, 5)));
    }

    #[test]
    fn quick_takes_the_common_shapes_and_declines_the_rest() {
        for l in &SEEDS[..26] {
            assert!(quick(l).is_some(), "{l:?}");
        }
        for l in [
            "   5 投了",
            " 194  Time-up   ( 0:0/)",
            "1 ７六歩(77) junk",
            "4294967296 ７六歩(77)",
        ] {
            assert!(quick(l).is_none(), "{l:?}");
        }
        assert_eq!(quick("1 ７六歩(77)#note").unwrap().trailing, "#note");
    }
}
