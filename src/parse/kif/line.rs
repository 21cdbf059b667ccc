//! The grammar of one KIF move line, in nom.
//!
//! `   12 同　銀成(31)   ( 0:05/00:01:02)+` — number, destination or 同,
//! piece, 成/不成/生, origin or 打, optional time, optional `+`. A terminal word
//! (`投了`, `Time-up`) may stand in place of the move.

use crate::parse::ja::{self, LineErr, Res};
use crate::record::{Dest, EndingKind, MoveTime, Notation};
use crate::types::{Color, Square};
use nom::Parser;
use nom::branch::alt;
use nom::bytes::complete::{tag, take_till1, take_while, take_while1};
use nom::character::complete::{char, digit1, satisfy};
use nom::combinator::{cut, opt, value};
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

fn spaces0(i: &str) -> Res<'_, &str> {
    take_while(is_space).parse(i)
}

fn spaces1(i: &str) -> Res<'_, &str> {
    take_while1(is_space).parse(i)
}

fn number(i: &str) -> Res<'_, u32> {
    let (rest, d) = context("a move number", digit1).parse(i)?;
    match d.parse::<u32>() {
        Ok(n) => Ok((rest, n)),
        Err(_) => Err(nom::Err::Failure(LineErr {
            rest: i,
            label: Some("a move number below 2^32"),
        })),
    }
}

fn side_mark(i: &str) -> Res<'_, Option<Color>> {
    alt((
        value(Some(Color::Sente), alt((char('▲'), char('☗')))),
        value(Some(Color::Gote), alt((char('△'), char('☖')))),
        value(None, alt((char('▼'), char('▽')))),
    ))
    .parse(i)
}

fn dest(i: &str) -> Res<'_, Dest> {
    let square = (
        satisfy(|c| ja::file_digit(c).is_some()),
        satisfy(|c| ja::kanji_rank(c).is_some()),
    )
        .map(|(f, r)| {
            let sq = Square::new(
                ja::file_digit(f).unwrap_or(1),
                ja::kanji_rank(r).unwrap_or(1),
            );
            Dest::Square(sq.expect("file and rank are 1..=9"))
        });
    // 同 is written `同　` by KfW, `同` alone by Kifu for Android.
    let same = (char('同'), opt(satisfy(is_space))).map(|_| Dest::Same);
    context("a destination such as ７六 or 同", alt((square, same))).parse(i)
}

fn promotion(i: &str) -> Res<'_, Option<bool>> {
    opt(alt((
        value(false, tag("不成")),
        value(false, tag("生")),
        value(true, tag("成")),
    )))
    .parse(i)
}

fn origin_digit(i: &str) -> Res<'_, u8> {
    satisfy(|c| ja::file_digit(c).is_some())
        .map(|c| ja::file_digit(c).unwrap_or(1))
        .parse(i)
}

/// `(77)` → Some(square); `打` (optionally `打(00)`) → None with drop set.
fn origin(i: &str) -> Res<'_, (Option<Square>, bool)> {
    let drop = (tag("打"), opt(tag("(00)"))).map(|_| (None, true));
    let from = (char('('), origin_digit, origin_digit, char(')'))
        .map(|(_, f, r, _)| (Square::new(f, r), false));
    context("an origin such as (77) or 打", opt(alt((drop, from))))
        .map(|o| o.unwrap_or((None, false)))
        .parse(i)
}

fn normal_move(color: Option<Color>) -> impl FnMut(&str) -> Res<'_, Notation> {
    move |i| {
        let (i, dest) = dest(i)?;
        let (i, piece) = context("a piece name", ja::piece_name).parse(i)?;
        // Some writers put the space after the piece: `同銀　(79)`.
        let (i, _) = opt(char('　')).parse(i)?;
        let (i, promote) = promotion(i)?;
        let (i, (from, drop)) = origin(i)?;
        Ok((
            i,
            Notation::Kif {
                color,
                dest,
                piece,
                promote,
                from,
                drop,
            },
        ))
    }
}

fn terminal(i: &str) -> Res<'_, Body> {
    let (rest, word) = context(
        "a move or a terminal word such as 投了",
        take_till1(|c: char| is_space(c) || c == '(' || c == '+' || c == '#'),
    )
    .parse(i)?;
    match ja::ending_kind(word) {
        Some(kind) => Ok((rest, Body::Ending(word.to_string(), kind))),
        None => Err(nom::Err::Error(LineErr {
            rest: i,
            label: Some("a move or a terminal word such as 投了"),
        })),
    }
}

/// `12` or `1:05` or `0:01:05` as milliseconds.
fn clock(i: &str) -> Res<'_, u64> {
    // Hand-rolled: a move line holds two clocks, and this runs for every move.
    let b = i.as_bytes();
    let mut pos = 0usize;
    let mut secs: u64 = 0;
    for field in 0..3 {
        if field > 0 {
            if b.get(pos) != Some(&b':') || !b.get(pos + 1).is_some_and(u8::is_ascii_digit) {
                break;
            }
            pos += 1;
        }
        let start = pos;
        let mut v: u64 = 0;
        while let Some(d) = b.get(pos).filter(|d| d.is_ascii_digit()) {
            v = v
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(d - b'0')))
                .ok_or(nom::Err::Failure(LineErr {
                    rest: i,
                    label: Some("a time that fits in 64 bits"),
                }))?;
            pos += 1;
        }
        if pos == start {
            return Err(nom::Err::Error(LineErr {
                rest: i,
                label: None,
            }));
        }
        secs = secs.saturating_mul(60).saturating_add(v);
    }
    Ok((&i[pos..], secs.saturating_mul(1000)))
}

/// `( 0:01/00:00:01)`, `(00:31 / 00:00:31)`, `( 0:12/)`, `(0:2/0:0:2)`,
/// `( 0:01:05/…)`.
fn time(i: &str) -> Res<'_, MoveTime> {
    let (i, _) = char('(').parse(i)?;
    let inner = |i| {
        let (i, _) = spaces0(i)?;
        let (i, spent) = clock(i)?;
        let (i, _) = (spaces0, char('/'), spaces0).parse(i)?;
        let (i, total) = opt(clock).parse(i)?;
        let (i, _) = (spaces0, char(')')).parse(i)?;
        Ok((
            i,
            MoveTime {
                spent_ms: Some(spent),
                total_ms: total,
            },
        ))
    };
    context("a time such as ( 0:01/00:00:01)", cut(inner)).parse(i)
}

/// Parse a line that [`looks_like_move_line`].
pub(crate) fn move_line(line: &str) -> Result<MoveLine<'_>, LineErr<'_>> {
    let run = |i| -> Res<'_, MoveLine<'_>> {
        let (i, _) = spaces0(i)?;
        let (i, number) = number(i)?;
        let (i, _) = spaces1(i)?;
        let (i, color) = opt(side_mark).parse(i)?;
        let (i, color) = match color {
            Some(c) => (spaces0(i)?.0, c),
            None => (i, None),
        };
        let body_offset = line.len() - i.len();
        let starts_move = i
            .chars()
            .next()
            .is_some_and(|c| c == '同' || ja::file_digit(c).is_some());
        // Once the first character says which kind of line this is, a
        // failure is final: reporting 'expected a piece' beats backtracking.
        let (i, body) = if starts_move {
            cut(normal_move(color).map(Body::Move)).parse(i)?
        } else {
            cut(terminal).parse(i)?
        };
        let (i, _) = spaces0(i)?;
        let (i, time) = opt(time).parse(i)?;
        let (i, _) = spaces0(i)?;
        let (i, _) = opt(char('+')).parse(i)?;
        let (i, _) = spaces0(i)?;
        Ok((
            "",
            MoveLine {
                number,
                body,
                body_offset,
                time,
                trailing: i,
            },
        ))
    };
    match run(line) {
        Ok((_, m)) => {
            if !m.trailing.is_empty() && !m.trailing.starts_with('#') {
                return Err(LineErr {
                    rest: m.trailing,
                    label: Some("the end of the line after the move"),
                });
            }
            Ok(m)
        }
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => Err(e),
        Err(nom::Err::Incomplete(_)) => Err(LineErr {
            rest: "",
            label: None,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::ja::looks_like_move_line;
    use crate::types::PieceKind::*;

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
