use super::*;
use crate::record::{Dest, EndingKind, Line, Notation, StartPosition};
use crate::rules::setup::Handicap;
use crate::rules::types::{Color, PieceKind, Square};

fn one(text: &str) -> Record {
    let mut v = parse(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v.len(), 1);
    v.remove(0)
}

fn numbers(line: &Line) -> Vec<u32> {
    line.moves.iter().filter_map(|m| m.number).collect()
}

#[test]
fn a_plain_kfw_record() {
    let r = one("#KIF version=2.0 encoding=UTF-8\n\
# ---- Kifu for Windows V7 V7.70 棋譜ファイル ----\n\
開始日時：2024/04/01 10:00:00\n手合割：平手　　\n先手：Alice\n後手：Bob\n\
手数----指手---------消費時間--\n*初期局面\n\
   1 ７六歩(77)   ( 0:03/00:00:03)\n*歩を突いた\n\
   2 ３四歩(33)   ( 0:02/00:00:02)\n\
   3 投了         ( 0:10/00:00:13)\n*終局\nまで2手で後手の勝ち\n");
    assert_eq!(r.header_value(&["先手"]), Some("Alice"));
    assert_eq!(r.header_value(&["手合割"]), Some("平手"));
    assert_eq!(r.start, StartPosition::Preset(Handicap::Hirate));
    assert_eq!(r.start_span.unwrap().line, 4);
    assert_eq!(r.comments, vec!["初期局面"]);
    assert_eq!(r.notes.len(), 2);
    assert_eq!(numbers(&r.main), vec![1, 2]);
    assert_eq!(r.main.moves[0].comments(), vec!["歩を突いた"]);
    let first = &r.main.moves[0];
    // `\` continuations eat the indentation, so the move starts at column 3.
    assert_eq!((first.span.line, first.span.column), (9, 3));
    let end = r.main.ending.as_ref().unwrap();
    assert_eq!(end.kind, EndingKind::Resign);
    assert_eq!(end.time.unwrap().total_ms, Some(13_000));
    assert_eq!(end.comments, vec!["終局"]);
    assert_eq!(r.summary, vec!["まで2手で後手の勝ち"]);
}

#[test]
fn same_square_without_space() {
    // Kifu for Android writes 同銀 with no full-width space.
    let r = one(
        "1 ２六歩(27)\n2 ８四歩(83)\n3 ２五歩(26)\n4 ８五歩(84)\n5 ２四歩(25)\n6 同歩(23)\n7 同　飛(28)\n",
    );
    for i in [5, 6] {
        assert!(matches!(
            r.main.moves[i].notation,
            Notation::Kif {
                dest: Dest::Same,
                ..
            }
        ));
    }
}

#[test]
fn dojo_times_and_english_terminal() {
    let r = one(
        "#KIF version=2.0 encoding=UTF-8\n場所：81Dojo (ver.2016/03/20)\n\
   1 ７六歩(77)   ( 0:7/)\n   2 ３四歩(33)   (0:2/0:0:2)\n   3  Time-up   ( 0:0/)\n",
    );
    assert_eq!(r.main.moves[0].time.unwrap().spent_ms, Some(7000));
    assert_eq!(r.main.moves[0].time.unwrap().total_ms, None);
    assert_eq!(r.main.moves[1].time.unwrap().total_ms, Some(2000));
    let e = r.main.ending.unwrap();
    assert_eq!((e.kind, e.text.as_str()), (EndingKind::TimeUp, "Time-up"));
}

const BOARD: &str = "  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n\
| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n\
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n\
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n\
+---------------------------+\n";

#[test]
fn bod_with_move_count() {
    let text = format!(
        "後手の持駒：なし\n{BOARD}先手の持駒：金二　歩\n後手番\n手数＝30  ▲５八金  まで\n後手：B\n  31 ５二玉(51)\n"
    );
    let r = one(&text);
    let StartPosition::Setup(s) = &r.start else {
        panic!("{:?}", r.start)
    };
    assert_eq!(s.side_to_move, Color::Gote);
    assert_eq!(s.move_number, 31);
    assert_eq!(s.hands[0].count(PieceKind::Gold), 2);
    assert_eq!(r.start_span.unwrap().line, 1);
    assert_eq!(r.header_value(&["後手"]), Some("B"));
    assert_eq!(numbers(&r.main), vec![31]);
}

#[test]
fn handicap_hands_use_uwate_shitate() {
    let text = format!(
        "手合割：その他　\n上手の持駒：銀四　桂四　\n{BOARD}下手の持駒：飛二　香四　\n下手番\n下手：s\n上手：u\n   1 １三香打\n"
    );
    let r = one(&text);
    let s = r.start.setup().expect("a shogi start");
    assert_eq!(s.hands[Color::Gote.index()].count(PieceKind::Silver), 4);
    assert_eq!(s.hands[Color::Sente.index()].count(PieceKind::Rook), 2);
    assert_eq!(s.side_to_move, Color::Sente);
    assert_eq!(
        s.get(Square::new(5, 1).unwrap()).map(|p| p.color),
        Some(Color::Gote)
    );
}

#[test]
fn handicap_preset_and_errors() {
    let r = one("手合割：香落ち\n   1 ３四歩(33)\n");
    assert_eq!(r.start, StartPosition::Preset(Handicap::Lance));
    assert!(parse("手合割：九枚落ち\n").is_err());
    assert!(parse("手合割：その他\n   1 ３四歩(33)\n").is_err());
    // A hand-written trailing note does not hide the name.
    assert_eq!(
        one("手合割：平手#コメント\n").start,
        StartPosition::Preset(Handicap::Hirate)
    );
}

#[test]
fn header_variation_quirk_is_kept_as_a_note() {
    let r = one("手合割：平手\n変化：3手\n   1 ７六歩(77)\n");
    assert_eq!(r.notes, vec!["変化：3手"]);
    assert_eq!(numbers(&r.main), vec![1]);
}

/// KfW order: after the main line, the alternatives to its last branch point
/// first, each followed by its own sub-variations.
#[test]
fn nested_variations_attach_where_they_branch() {
    let r = one("\
   1 ７六歩(77)\n   2 ３四歩(33)+\n   3 ２六歩(27)+\n   4 中断\nまで3手で中断\n\
\n変化：3手\n   3 ２二角成(88)\n   4 同　銀(31)+\n   5 中断\n\
\n変化：4手\n   4 同　飛(82)\n\
\n変化：2手\n   2 ８四歩(83)\n   3 ２六歩(27)+\n\
\n変化：3手\n   3 ６八銀(79)\n");
    let main = &r.main;
    assert_eq!(numbers(main), vec![1, 2, 3]);
    assert_eq!(main.ending.as_ref().unwrap().kind, EndingKind::Interrupt);
    let v3 = main.moves[2].variations();
    assert_eq!(v3.len(), 1);
    assert_eq!(numbers(&v3[0]), vec![3, 4]);
    assert!(v3[0].ending.is_some());
    let v4 = v3[0].moves[1].variations();
    assert_eq!(v4.len(), 1);
    assert!(matches!(
        v4[0].moves[0].notation,
        Notation::Kif {
            dest: Dest::Same,
            piece: PieceKind::Rook,
            ..
        }
    ));
    let v2 = main.moves[1].variations();
    assert_eq!(numbers(&v2[0]), vec![2, 3]);
    // The last block's move 3 belongs to the 変化：2手 line, not the main line.
    assert_eq!(v2[0].moves[1].variations().len(), 1);
    assert_eq!(main.moves[2].variations().len(), 1);
}

#[test]
fn sibling_variations_keep_file_order() {
    let r = one("1 ７六歩(77)\n2 ３四歩(33)\n変化：2手\n2 ８四歩(83)\n変化：2手\n2 ４四歩(43)\n");
    let v = r.main.moves[1].variations();
    assert_eq!(v.len(), 2);
    assert!(
        matches!(v[0].moves[0].notation, Notation::Kif { from: Some(s), .. } if s == Square::new(8, 3).unwrap())
    );
}

#[test]
fn variation_without_a_branch_point_is_an_error() {
    let e = parse("1 ７六歩(77)\n変化：5手\n5 ２六歩(27)\n").unwrap_err();
    assert_eq!(e.span.line, 2);
}

#[test]
fn a_second_terminal_word_is_kept_as_a_note() {
    // 棋譜解説 V1.70: `122 投了` straight after by `123 中断`.
    let r = one("1 ７六歩(77)\n2 投了\n3 中断\nまで2手で中断\n");
    assert_eq!(r.main.ending.unwrap().kind, EndingKind::Resign);
    assert_eq!(r.notes, vec!["3 中断"]);
}

#[test]
fn bookmarks_and_hash_notes() {
    let r = one(
        "&開始\n手数----指手--\n1 ７六歩(77)\n&しおり１\n*c\n2 ３四歩(33) ( 0:00/00:00:00)#note\n",
    );
    assert_eq!(r.main.moves[0].bookmarks(), vec!["しおり１"]);
    assert_eq!(r.main.moves[0].comments(), vec!["c"]);
    // Before the first move: the start position's bookmark.
    assert_eq!(r.bookmarks, vec!["開始"]);
    assert_eq!(r.notes, vec!["#note"]);
}

#[test]
fn errors_point_at_the_bad_character() {
    let e = parse("手合割：平手\n   1 ７六歩(77)\n   2 ３四犬(33)\n").unwrap_err();
    assert_eq!((e.span.line, e.span.column), (3, 8));
    assert!(e.message.contains("piece"), "{}", e.message);
    assert!(parse("1 ７六歩(77)\n2 投了\n3 ３四歩(33)\n").is_err());
    assert!(parse("▲７六歩\n").is_err());
    assert!(parse(&format!("1 ７六歩(77)\n{BOARD}")).is_err());
}

#[test]
fn depth_is_bounded() {
    let mut text = String::from("1 ７六歩(77)\n2 ３四歩(33)\n");
    for _ in 0..=MAX_VARIATION_DEPTH {
        text.push_str("変化：2手\n2 ３四歩(33)\n3 ２六歩(27)\n");
    }
    // Each block branches at the second move of the newest line: one deeper.
    let mut deep = String::from("1 ７六歩(77)\n2 ３四歩(33)\n");
    for k in 0..=MAX_VARIATION_DEPTH as u32 {
        deep.push_str(&format!(
            "変化：{}手\n{} ３四歩(33)\n{} ２六歩(27)\n",
            k + 2,
            k + 2,
            k + 3
        ));
    }
    assert!(parse(&text).is_ok());
    assert!(parse(&deep).unwrap_err().message.contains("deeper"));
}

#[test]
fn never_panics_on_mangled_input() {
    let sample = format!(
        "手合割：平手\n後手の持駒：歩二\n{BOARD}   1 ７六歩(77)   ( 0:01/00:00:01)+\n変化：1手\n1 同　銀成(31)\n*x\n&y\nまで"
    );
    let chars: Vec<char> = sample.chars().collect();
    let mut rng = crate::test_rng::xorshift(0x2545_f491_4f6c_dd1d);
    for n in 0..chars.len() {
        let _ = parse(&chars[..n].iter().collect::<String>());
        let _ = sniff(&chars[n..].iter().collect::<String>());
    }
    for _ in 0..2000 {
        let mut s: Vec<char> = chars.clone();
        for _ in 0..3 {
            let r = rng();
            let i = (r % s.len() as u64) as usize;
            let j = ((r >> 32) % s.len() as u64) as usize;
            s.swap(i, j);
        }
        let _ = parse(&s.iter().collect::<String>());
    }
}

#[test]
fn sniffing() {
    for text in [
        "#KIF version=2.0 encoding=UTF-8\n",
        "先手：a\n   1 ７六歩(77)\n",
    ] {
        assert!(sniff(text), "{text:?}");
    }
    for text in [
        // Headers alone are KI2's too: `detect` weighs them (see its tests).
        "手合割：平手\n",
        "手合割：平手\n▲７六歩　△３四歩\n",
        "V2.2\n+7776FU\n",
        "position startpos moves 7g7f\n",
    ] {
        assert!(!sniff(text), "{text:?}");
    }
}

/// The shapes real writers use read to the same moves, however the number,
/// the spaces and the time are padded.
#[test]
fn move_line_shapes_of_every_writer() {
    use line::move_line;
    let plain = move_line("   1 ７六歩(77)   ( 0:01/00:00:01)").unwrap();
    for l in [
        "1 ７六歩(77) ( 0:01/00:00:01)",
        "   1 ７六歩(77)        ( 0:01/00:00:01)",
        "1\t７六歩(77)\t( 0:01/00:00:01)",
        "　1　７六歩(77)　( 0:01/00:00:01)",
        "1 7六歩(7７) (0:1/0:0:1)",
        "1 ７六歩(77)(00:01 / 00:00:01)",
    ] {
        let m = move_line(l).unwrap_or_else(|e| panic!("{l:?}: {e:?}"));
        assert_eq!(
            (m.number, &m.body, m.time),
            (1, &plain.body, plain.time),
            "{l:?}"
        );
    }
    let m = move_line("1234 ２三歩打(00)  ( 0:12/)").unwrap();
    assert_eq!(m.number, 1234);
    assert!(matches!(
        m.body,
        Body::Move(Notation::Kif { drop: true, .. })
    ));
    assert_eq!(m.time.unwrap().total_ms, None);
    assert_eq!(move_line("1 ７六歩(77)#note").unwrap().trailing, "#note");
    let m = move_line("  12 同　銀成(31)   ( 0:05/00:01:02)+").unwrap();
    assert_eq!(m.time.unwrap().total_ms, Some(62_000));
    for l in [
        "4294967296 ７六歩(77)",
        "1 ７六歩(77) ( 0:01/00:00:01:02)",
        "1 ７六歩(77)   ( 0:52/00:00:52]",
        "1 ７〇歩(77)",
        "1 ■７六歩(77)",
        "1 ２二成(13)",
    ] {
        assert!(move_line(l).is_err(), "{l:?}");
    }
}
