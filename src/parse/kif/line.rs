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
use crate::parse::ja::grammar::{self, LineErr, Res, file, piece_name};
use crate::parse::ja::line_kind::space_run;
use crate::parse::ja::numeral::{file_digit, kanji_rank};
use crate::record::{Dest, EndingKind, MoveTime, Notation};
use crate::rules::types::{Color, Square};
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

fn is_space(c: char) -> bool {
    c == ' ' || c == '\t' || c == '　'
}

fn no_match(i: &str) -> nom::Err<LineErr<'_>> {
    nom::Err::Error(LineErr {
        rest: i,
        label: None,
    })
}

fn spaces0(i: &str) -> Res<'_, &str> {
    let n = space_run(i.as_bytes());
    Ok((&i[n..], &i[..n]))
}

fn spaces1(i: &str) -> Res<'_, &str> {
    match space_run(i.as_bytes()) {
        0 => Err(no_match(i)),
        n => Ok((&i[n..], &i[..n])),
    }
}

fn number(i: &str) -> Res<'_, u32> {
    let len = i.bytes().take_while(u8::is_ascii_digit).count();
    if len == 0 {
        return Err(grammar::error(i, "a move number"));
    }
    match i[..len].parse::<u32>() {
        Ok(n) => Ok((&i[len..], n)),
        Err(_) => Err(grammar::failure(i, "a move number below 2^32")),
    }
}

/// ▲ ☗ for sente, △ ☖ for gote; ▼ ▽ say nothing of the side.
fn side_mark(i: &str) -> Res<'_, Option<Color>> {
    // Every mark is a three-byte character led by 0xE2, no destination is.
    let color = match i.as_bytes().first() {
        Some(0xE2) => match i.chars().next() {
            Some('▲' | '☗') => Some(Color::Sente),
            Some('△' | '☖') => Some(Color::Gote),
            Some('▼' | '▽') => None,
            _ => return Err(no_match(i)),
        },
        _ => return Err(no_match(i)),
    };
    Ok((&i[3..], color))
}

fn rank(i: &str) -> Res<'_, u8> {
    match i.chars().next().and_then(kanji_rank) {
        // Every rank kanji is three bytes long.
        Some(r) => Ok((&i[3..], r)),
        None => Err(no_match(i)),
    }
}

fn dest(i: &str) -> Res<'_, Dest> {
    if let Ok((rest, (f, r))) = (file, rank).parse(i)
        && let Some(sq) = Square::new(f, r)
    {
        return Ok((rest, Dest::Square(sq)));
    }
    // 同 is written `同　` by KfW, `同` alone by Kifu for Android.
    match i.strip_prefix('同') {
        Some(rest) => Ok((rest.strip_prefix(is_space).unwrap_or(rest), Dest::Same)),
        None => Err(grammar::error(i, "a destination such as ７六 or 同")),
    }
}

fn promotion(i: &str) -> Res<'_, Option<bool>> {
    for (word, promote) in [("不成", false), ("生", false), ("成", true)] {
        if let Some(rest) = i.strip_prefix(word) {
            return Ok((rest, Some(promote)));
        }
    }
    Ok((i, None))
}

/// `(77)` → Some(square); `打` (optionally `打(00)`) → None with drop set.
fn origin(i: &str) -> Res<'_, (Option<Square>, bool)> {
    if let Some(rest) = i.strip_prefix('打') {
        return Ok((rest.strip_prefix("(00)").unwrap_or(rest), (None, true)));
    }
    let (rest, from) = opt((char('('), file, file, char(')'))).parse(i)?;
    Ok((
        rest,
        (from.and_then(|(_, f, r, _)| Square::new(f, r)), false),
    ))
}

fn normal_move(color: Option<Color>) -> impl FnMut(&str) -> Res<'_, Notation> {
    move |i| {
        let (i, dest) = dest(i)?;
        let (i, piece) = context("a piece name", piece_name).parse(i)?;
        // Some writers put the space after the piece: `同銀　(79)`.
        let i = i.strip_prefix('　').unwrap_or(i);
        let (i, promote) = promotion(i)?;
        let (i, (from, drop)) = origin(i)?;
        let notation = Notation::Kif {
            color,
            dest,
            piece,
            promote,
            from,
            drop,
        };
        Ok((i, notation))
    }
}

fn terminal(i: &str) -> Res<'_, Body> {
    const EXPECTED: &str = "a move or a terminal word such as 投了";
    let (rest, word) = context(
        EXPECTED,
        take_till1(|c: char| is_space(c) || c == '(' || c == '+' || c == '#'),
    )
    .parse(i)?;
    match ending_kind(word) {
        Some(kind) => Ok((rest, Body::Ending(word.to_string(), kind))),
        None => Err(grammar::error(i, EXPECTED)),
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
        None => Err(grammar::failure(i, "a time that fits in 64 bits")),
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

/// The move number and the spaces around it.
pub(super) fn head(i: &str) -> Res<'_, u32> {
    let (i, number) = number(spaces0(i)?.0)?;
    Ok((spaces1(i)?.0, number))
}

/// What follows the move: an optional time, an optional `+`, and nothing
/// else but a `#` note, which is returned.
pub(super) fn tail(i: &str) -> Res<'_, (Option<MoveTime>, &str)> {
    let (i, time) = opt(time).parse(spaces0(i)?.0)?;
    let i = spaces0(i)?.0;
    let trailing = spaces0(i.strip_prefix('+').unwrap_or(i))?.0;
    if !trailing.is_empty() && !trailing.starts_with('#') {
        return Err(grammar::failure(
            trailing,
            "the end of the line after the move",
        ));
    }
    Ok(("", (time, trailing)))
}

/// Parse a line that [`looks_like_move_line`](crate::parse::ja::line_kind::looks_like_move_line).
pub(crate) fn move_line(line: &str) -> Result<MoveLine<'_>, LineErr<'_>> {
    let run = |i| -> Res<'_, MoveLine<'_>> {
        let (i, number) = head(i)?;
        let (i, mark) = opt(side_mark).parse(i)?;
        let i = spaces0(i)?.0;
        let body_offset = line.len() - i.len();
        let starts_move = i
            .chars()
            .next()
            .is_some_and(|c| c == '同' || file_digit(c).is_some());
        // Once the first character says which kind of line this is, a
        // failure is final: reporting 'expected a piece' beats backtracking.
        let (i, body) = if starts_move {
            cut(normal_move(mark.flatten()).map(Body::Move)).parse(i)?
        } else {
            cut(terminal).parse(i)?
        };
        let (_, (time, trailing)) = tail(i)?;
        let m = MoveLine {
            number,
            body,
            body_offset,
            time,
            trailing,
        };
        Ok(("", m))
    };
    grammar::complete(run(line))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::ja::line_kind::looks_like_move_line;
    use crate::rules::types::PieceKind::*;

    fn sq(f: u8, r: u8) -> Square {
        Square::new(f, r).unwrap()
    }

    fn kif(line: &str) -> (Notation, Option<MoveTime>) {
        let m = move_line(line).unwrap_or_else(|e| panic!("{line:?}: {e:?}"));
        match m.body {
            Body::Move(n) => (n, m.time),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn plain_move_with_time() {
        let (n, t) = kif("   1 ７六歩(77)   ( 0:01/00:00:01)");
        assert_eq!(
            n,
            Notation::Kif {
                color: None,
                dest: Dest::Square(sq(7, 6)),
                piece: Pawn,
                promote: None,
                from: Some(sq(7, 7)),
                drop: false
            }
        );
        assert_eq!(
            t,
            Some(MoveTime {
                spent_ms: Some(1000),
                total_ms: Some(1000)
            })
        );
    }

    #[test]
    fn same_square_with_and_without_space() {
        for l in [
            "8 同　銀(31)",
            "8 同銀(31) ( 0:01/00:00:02)",
            "8 同銀　(31)",
            "8 同 銀(31)",
        ] {
            let (n, _) = kif(l);
            assert!(
                matches!(
                    n,
                    Notation::Kif {
                        dest: Dest::Same,
                        piece: Silver,
                        from: Some(_),
                        ..
                    }
                ),
                "{l}"
            );
        }
    }

    #[test]
    fn promotions_drops_and_promoted_names() {
        assert!(matches!(
            kif("21 ２二角成(88)").0,
            Notation::Kif {
                promote: Some(true),
                ..
            }
        ));
        assert!(matches!(
            kif("21 ２二角不成(88)").0,
            Notation::Kif {
                promote: Some(false),
                ..
            }
        ));
        assert!(matches!(
            kif("21 ２二角生(88)").0,
            Notation::Kif {
                promote: Some(false),
                ..
            }
        ));
        assert!(matches!(
            kif("10 ２三歩打").0,
            Notation::Kif {
                drop: true,
                from: None,
                ..
            }
        ));
        assert!(matches!(
            kif("10 ２三歩打(00)").0,
            Notation::Kif { drop: true, .. }
        ));
        for (l, k) in [
            ("3 １二成香(13)", ProLance),
            ("3 １二杏(13)", ProLance),
            ("3 １二圭(13)", ProKnight),
            ("3 １二全(13)", ProSilver),
            ("3 １二竜(13)", Dragon),
            ("3 １二王(13)", King),
            ("3 同　成銀(13)", ProSilver),
        ] {
            assert!(
                matches!(kif(l).0, Notation::Kif { piece, .. } if piece == k),
                "{l}"
            );
        }
        assert!(
            matches!(kif("1 7六歩(77)").0, Notation::Kif { dest: Dest::Square(s), .. } if s == sq(7, 6))
        );
    }

    #[test]
    fn dialect_times() {
        let t = |l| kif(l).1.unwrap();
        assert_eq!(t("1 ７六歩(77) ( 0:4/)").spent_ms, Some(4000));
        assert_eq!(t("1 ７六歩(77) ( 0:4/)").total_ms, None);
        assert_eq!(t("1 ７六歩(77) (0:2/0:0:2)").total_ms, Some(2000));
        assert_eq!(t("1 ７六歩(77) (00:31 / 00:00:31)").spent_ms, Some(31000));
        assert_eq!(t("1 ７六歩(77) ( 0:01:05/01:00:00)").spent_ms, Some(65000));
        assert_eq!(t("1 ７六歩(77) (90:00/1:30:00)").total_ms, Some(5_400_000));
    }

    #[test]
    fn markers_words_and_trailing_notes() {
        let m = move_line("   2 ３四歩(33)   ( 0:02/00:00:02)+").unwrap();
        assert_eq!(m.number, 2);
        let m = move_line(" 194  Time-up   ( 0:0/)").unwrap();
        assert_eq!(m.body, Body::Ending("Time-up".into(), EndingKind::TimeUp));
        assert_eq!(m.time.unwrap().spent_ms, Some(0));
        let m = move_line("   5 投了").unwrap();
        assert_eq!(m.body, Body::Ending("投了".into(), EndingKind::Resign));
        let m = move_line("   1 ８六歩(87)    (00:00 / 00:00:00)#コメント7").unwrap();
        assert_eq!(m.trailing, "#コメント7");
        let m = move_line("  1 ▲７六歩(77)").unwrap();
        assert!(matches!(
            m.body,
            Body::Move(Notation::Kif {
                color: Some(Color::Sente),
                ..
            })
        ));
    }

    #[test]
    fn errors_name_what_was_expected() {
        let e = move_line("   1 ７六犬(77)").unwrap_err();
        assert_eq!(e.label, Some("a piece name"));
        assert_eq!(e.rest, "犬(77)");
        let e = move_line("   1 ほげ").unwrap_err();
        assert!(e.label.unwrap().contains("terminal word"));
        let e = move_line("   1 ７六歩(77) ( 0:01/").unwrap_err();
        assert!(e.label.unwrap().contains("time"));
        assert!(move_line("   1 ７六歩(77) junk").is_err());
        assert!(move_line("99999999999 ７六歩(77)").is_err());
        assert!(looks_like_move_line("  12 ７六歩"));
        assert!(!looks_like_move_line("2024/01/01"));
    }
}
