use super::*;
use crate::emit::kakinoki::fixtures::{NESTED_VARIATIONS, NIFU_THEN_MOVES, assert_nifu_written};
use crate::replay::{ReplayOptions, replay};

fn game(kif: &str) -> Game {
    let rec = crate::emit::read_for_test(kif, crate::Format::Kif).remove(0);
    replay(rec, &ReplayOptions::default()).unwrap()
}

fn out(kif: &str) -> (String, Vec<Warning>) {
    write(&game(kif))
}

/// Writing what was written gives the same text again.
fn stable(text: &str) {
    assert_eq!(write(&game(text)).0, text);
}

#[test]
fn preset_header_and_times() {
    let src = "開始日時：2024/04/01 10:00:00\n手合割：平手\n先手：Alice\n後手：Bob\n\
               *初期局面\n1 ７六歩(77) (0:05/0:0:05)\n2 ３四歩(33) (0:02/)\n3 投了 (0:03/)\n";
    let (text, warnings) = out(src);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(
        text,
        [
            "#KIF version=2.0 encoding=UTF-8",
            "開始日時：2024/04/01 10:00:00",
            "手合割：平手",
            "先手：Alice",
            "後手：Bob",
            "手数----指手---------消費時間--",
            "*初期局面",
            "   1 ７六歩(77)   ( 0:05/00:00:05)",
            "   2 ３四歩(33)   ( 0:02/00:00:02)",
            "   3 投了         ( 0:03/00:00:08)",
            "まで2手で後手の勝ち\n",
        ]
        .join("\n")
    );
    stable(&text);
}

#[test]
fn handicap_uses_uwate_and_shitate() {
    let src = "手合割：香落ち\n先手：下の人\n後手：上の人\n1 ５二金(41)\n2 ７六歩(77)\n3 投了\n";
    let (text, _) = out(src);
    assert!(text.contains("手合割：香落ち\n下手：下の人\n上手：上の人\n手数----指手--\n"));
    assert!(text.contains("   1 ５二金(41)\n"), "{text}");
    assert!(text.ends_with("   3 投了\nまで2手で下手の勝ち\n"), "{text}");
    let src = "手合割：角落ち\n1 ５二金(41)\n2 投了\n";
    assert!(out(src).0.ends_with("まで1手で上手の勝ち\n"));
    stable(&out(src).0);
}

#[test]
fn custom_start_is_a_board_diagram() {
    let src = "後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n\
|v香v桂v銀v金v玉 ・v銀v桂v香|一\n| ・v飛 ・ ・ ・ ・v金v角 ・|二\n\
|v歩 ・v歩v歩v歩v歩v歩v歩v歩|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n\
| ・v歩 ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ 飛 ・|六\n\
| 歩 歩 歩 歩 歩 歩 歩 ・ 歩|七\n| ・ 角 金 ・ ・ ・ ・ ・ ・|八\n\
| 香 桂 銀 ・ 玉 金 銀 桂 香|九\n+---------------------------+\n\
先手の持駒：歩十八　金二　\n後手番\n手数＝11  ▲２六飛  まで\n1 ２三歩打\n";
    // 18 pawns in hand is not a legal count here, but the writer just copies it.
    let src = src.replace("歩十八　金二　", "歩二　");
    let (text, _) = out(&src);
    assert!(
        text.contains("先手の持駒：歩二　\n後手番\n手数＝11\n"),
        "{text}"
    );
    assert!(text.contains("後手の持駒：なし\n"));
    assert!(text.contains("|v香v桂v銀v金v玉 ・v銀v桂v香|一\n"));
    assert!(!text.contains("手合割"));
    assert!(text.contains("   1 ２三歩打\n"));
    stable(&text);
}

#[test]
fn same_square_drop_and_promotion() {
    let src = "1 ７六歩(77)\n2 ３四歩(33)\n3 ２二角成(88)\n4 同　銀(31)\n5 ４五角打\n";
    let (text, _) = out(src);
    assert!(
        text.contains("   3 ２二角成(88)\n   4 同　銀(31)\n   5 ４五角打\n"),
        "{text}"
    );
    stable(&text);
}

#[test]
fn foul_ends_with_hansoku_kachi_and_later_moves_are_comments() {
    let (text, warnings) = out(NIFU_THEN_MOVES);
    assert!(
        text.contains(
            "   3 ７五歩打\n   4 反則勝ち\n*4 ８四歩(83)\n*5 ２六歩(27)\nまで3手で後手の反則勝ち\n"
        ),
        "{text}"
    );
    assert_nifu_written(&warnings, &game(&text));
    let codes: Vec<_> = warnings.iter().map(|w| w.code.code()).collect();
    assert!(codes.contains(&"ending-replaced"), "{codes:?}");
    stable(&text);
}

#[test]
fn variations_are_marked_and_written_depth_first() {
    let (text, _) = out(NESTED_VARIATIONS);
    let expected = [
        "手数----指手--",
        "   1 ７六歩(77)+",
        "   2 ３四歩(33)+",
        "   3 ２二角成(88)+",
        "   4 同　銀(31)",
        "   5 中断",
        "まで4手で中断",
        "",
        "変化：3手",
        "   3 ２六歩(27)",
        "   4 ８四歩(83)+",
        "",
        "変化：4手",
        "   4 ８八角成(22)",
        "",
        "変化：2手",
        "   2 ８四歩(83)",
        "   3 ２六歩(27)",
        "",
        "変化：1手",
        "   1 ２六歩(27)\n",
    ]
    .join("\n");
    assert!(text.ends_with(&expected), "{text}");
    stable(&text);
}

#[test]
fn comments_bookmarks_and_ending_comments_round_trip() {
    let src = "*start\n1 ７六歩(77)\n*a\n*\n&基本図\n2 中断\n*after\n";
    let (text, _) = out(src);
    let expected = "*start\n   1 ７六歩(77)\n*a\n*\n&基本図\n   2 中断\n*after\nまで1手で中断\n";
    assert!(text.contains(expected), "{text}");
    stable(&text);
}

#[test]
fn shift_jis_reports_unencodable_characters() {
    let src = "1 ７六歩(77)\n*良い手😀\n";
    let (text, _) = write_with(&game(src), &KifOptions::shift_jis());
    assert!(text.starts_with("#KIF version=2.0 encoding=Shift_JIS\r\n"));
    let (bytes, warnings) = encode_sjis(&text);
    assert_eq!(warnings.len(), 1);
    assert_eq!(warnings[0].code, "unencodable-char");
    assert!(
        warnings[0].message.contains("line 5"),
        "{}",
        warnings[0].message
    );
    assert!(warnings[0].message.contains('😀'));
    let (back, _, bad) = encoding_rs::SHIFT_JIS.decode(&bytes);
    assert!(!bad);
    assert!(back.contains("*良い手?\r\n"));
    let (_, none) = encode_sjis("手合割：平手\n");
    assert!(none.is_empty());
}

#[test]
fn columns_count_full_width_characters_twice() {
    for s in [
        "",
        "7g7f",
        "７六歩(77)",
        "同　歩(23)",
        "▲７六歩",
        "投了",
        "a\u{10348}b",
    ] {
        let by_chars: usize = s.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum();
        assert_eq!(width(s), by_chars, "{s}");
    }
}

#[test]
fn ascii_numbers_and_clocks_are_written_as_format_writes_them() {
    for n in [0u64, 7, 10, 99, 100, 1234, 9999, 10_000, u64::MAX] {
        for (width, fill) in [(2, b' '), (2, b'0'), (4, b' ')] {
            let mut b = AsciiBuf::new();
            b.number(n, width, fill);
            let want = if fill == b'0' {
                format!("{n:0width$}")
            } else {
                format!("{n:>width$}")
            };
            assert_eq!(b.as_str(), want, "{n} in {width} columns");
        }
    }
    for (spent, total, before) in [
        (Some(0), None, 0),
        (Some(52_000), None, 0),
        (Some(61_500), Some(3_725_000), 0),
        (None, None, 90_000),
        (Some(6_000_000), None, 400_000_000),
    ] {
        let time = Some(MoveTime {
            spent_ms: spent,
            total_ms: total,
        });
        let s = spent.unwrap_or(0) / 1000;
        let t = total.unwrap_or(before + spent.unwrap_or(0)) / 1000;
        let want = format!(
            "({:>2}:{:02}/{:02}:{:02}:{:02})",
            s / 60,
            s % 60,
            t / 3600,
            t / 60 % 60,
            t % 60
        );
        let mut b = AsciiBuf::new();
        b.clock(time, before);
        assert_eq!(b.as_str(), want);
    }
}
