use super::*;
use crate::parse::ja::expect::LineErr;
use crate::parse::ja::numeral::{file_digit, kanji_rank};

fn sq(f: u8, r: u8) -> Square {
    Square::new(f, r).unwrap()
}

/// The label and the rest of a failed parse, and whether it is final.
fn failed<T: std::fmt::Debug>(r: Res<'_, T>) -> (Option<&'static str>, &str, bool) {
    match r {
        Err(nom::Err::Error(LineErr { rest, label })) => (label, rest, false),
        Err(nom::Err::Failure(LineErr { rest, label })) => (label, rest, true),
        other => panic!("{other:?}"),
    }
}

/// The byte readers read what the char readers read, on every character
/// of the Basic Multilingual Plane.
#[test]
fn byte_readers_agree_with_the_char_readers() {
    for c in (0..0x10000u32).filter_map(char::from_u32) {
        let s = format!("{c}x");
        let b = s.as_bytes();
        assert_eq!(
            file_at(b),
            file_digit(c).map(|d| (d, c.len_utf8())),
            "{c:?}"
        );
        assert_eq!(rank_at(b), kanji_rank(c), "{c:?}");
    }
}

/// One definition of a space: the byte run and the char test agree with
/// Unicode's white space on every character.
#[test]
fn space_run_is_unicode_white_space() {
    for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
        assert_eq!(is_space(c), c.is_whitespace(), "{c:?}");
        let s = format!("{c}{c}x");
        let want = if c.is_whitespace() {
            2 * c.len_utf8()
        } else {
            0
        };
        assert_eq!(space_run(&s), want, "{c:?}");
    }
    assert_eq!(space_run(" \t　\u{A0}x"), 7);
    assert_eq!(spaces0("x "), Ok(("x ", "")));
    assert_eq!(failed(spaces1("x")), (Some("a space"), "x", false));
}

#[test]
fn side_marks_name_a_side_each() {
    for (mark, color) in [
        ("▲", Color::Sente),
        ("☗", Color::Sente),
        ("▼", Color::Sente),
        ("△", Color::Gote),
        ("☖", Color::Gote),
        ("▽", Color::Gote),
    ] {
        assert_eq!(side_mark(&format!("{mark}７六歩")), Ok(("７六歩", color)));
    }
    assert_eq!(MARKS.len(), 6);
    for text in ["◆７六歩", "７六歩", "", "―"] {
        assert_eq!(
            failed(side_mark(text)).0,
            Some("a side mark ▲ or △"),
            "{text}"
        );
    }
}

#[test]
fn squares_in_every_digit_form() {
    for text in ["７六", "7六", "76", "７６", "7６"] {
        assert_eq!(square(&format!("{text}歩")), Ok(("歩", sq(7, 6))), "{text}");
    }
    for text in ["０六", "七六", "７十", "7", "", "同"] {
        assert_eq!(
            failed(square(text)),
            (Some("a square such as ７六"), text, false)
        );
    }
}

#[test]
fn same_takes_the_spaces_after_it() {
    for text in ["同　歩", "同歩", "同 歩", "同\t歩", "同　 歩"] {
        assert_eq!(same(text), Ok(("歩", ())), "{text:?}");
        assert_eq!(dest(text), Ok(("歩", Dest::Same)), "{text:?}");
    }
    assert_eq!(dest("３四歩"), Ok(("歩", Dest::Square(sq(3, 4)))));
    assert_eq!(
        failed(dest("歩")),
        (Some("a destination such as ７六 or 同"), "歩", false)
    );
    assert!(starts_move("同歩") && starts_move("7六") && !starts_move("投了"));
}

#[test]
fn origins_and_the_drop_origin() {
    assert_eq!(origin("(77)"), Ok(("", Origin::Square(sq(7, 7)))));
    assert_eq!(origin("(７７) x"), Ok((" x", Origin::Square(sq(7, 7)))));
    assert_eq!(origin("(00)"), Ok(("", Origin::Drop)));
    assert_eq!(origin("(００)"), Ok(("", Origin::Drop)));
    // One zero names neither a square nor a drop: final.
    for text in ["(50)", "(05)"] {
        let (label, rest, last) = failed(origin(text));
        assert!(label.unwrap().contains("(77)") && last, "{text}");
        assert_eq!(rest, &text[1..]);
    }
    // Not an origin (a time may follow): an error `opt` recovers from.
    for text in ["( 0:01/00:00:01)", "(7)", "(777)", "77", ""] {
        let (_, rest, last) = failed(origin(text));
        assert_eq!((rest, last), (text, false), "{text}");
    }
}

#[test]
fn drop_word_takes_a_trailing_drop_origin_only() {
    assert_eq!(drop_word("打"), Ok(("", false)));
    assert_eq!(drop_word("打(00) x"), Ok((" x", true)));
    assert_eq!(drop_word("打 (00)"), Ok((" (00)", false)));
    let (label, rest, last) = failed(drop_word("打(77)"));
    assert_eq!(
        (label, rest, last),
        (Some("(00) or nothing after 打"), "(77)", true)
    );
    assert!(!failed(drop_word("(00)")).2);
}
