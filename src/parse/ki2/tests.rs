use super::*;
use crate::record::Line;
use crate::record::{Dest, EndingKind, Notation, Relative};
use crate::rules::types::Color;
use crate::rules::types::PieceKind::{self, *};
use crate::rules::types::Square;

fn sq(f: u8, r: u8) -> Square {
    Square::new(f, r).unwrap()
}

fn one(text: &str) -> Record {
    parse(text).unwrap().remove(0)
}

fn ki2(
    color: Color,
    dest: Dest,
    piece: PieceKind,
    relative: Relative,
    promote: Option<bool>,
) -> Notation {
    Notation::Ki2 {
        color: Some(color),
        dest,
        piece,
        relative,
        promote,
    }
}

fn notations(line: &Line) -> Vec<Notation> {
    line.moves.iter().map(|m| m.notation.clone()).collect()
}

#[test]
fn moves_with_modifiers_and_same_square() {
    let r = one(
        "▲７六歩    △同　銀    ▲同銀成\n△５二銀右上成  ▲４五角打\n▽３三馬左 ☗２二龍引不成 ☖１一香生\n",
    );
    use Color::*;
    assert_eq!(
        notations(&r.main),
        vec![
            ki2(Sente, Dest::Square(sq(7, 6)), Pawn, Relative::NONE, None),
            ki2(Gote, Dest::Same, Silver, Relative::NONE, None),
            ki2(Sente, Dest::Same, Silver, Relative::NONE, Some(true)),
            ki2(
                Gote,
                Dest::Square(sq(5, 2)),
                Silver,
                Relative::RIGHT | Relative::UP,
                Some(true)
            ),
            ki2(Sente, Dest::Square(sq(4, 5)), Bishop, Relative::DROP, None),
            ki2(Gote, Dest::Square(sq(3, 3)), Horse, Relative::LEFT, None),
            ki2(
                Sente,
                Dest::Square(sq(2, 2)),
                Dragon,
                Relative::DOWN,
                Some(false)
            ),
            ki2(
                Gote,
                Dest::Square(sq(1, 1)),
                Lance,
                Relative::NONE,
                Some(false)
            ),
        ]
    );
    // The span is where the mark stands.
    let s = r.main.moves[1].span;
    assert_eq!((s.line, s.column), (1, 9));
    assert_eq!(r.main.moves[3].span.line, 2);
}

#[test]
fn synonyms_half_width_and_printed_forms() {
    let r = one("▲76歩 △３四歩 ▲７七角行 △同　角成 ▲８八同銀 △同７七角\n");
    let n = notations(&r.main);
    assert_eq!(
        n[0],
        ki2(
            Color::Sente,
            Dest::Square(sq(7, 6)),
            Pawn,
            Relative::NONE,
            None
        )
    );
    assert_eq!(
        n[2],
        ki2(
            Color::Sente,
            Dest::Square(sq(7, 7)),
            Bishop,
            Relative::UP,
            None
        )
    );
    assert_eq!(
        n[4],
        ki2(
            Color::Sente,
            Dest::Square(sq(8, 8)),
            Silver,
            Relative::NONE,
            None
        )
    );
    assert_eq!(
        n[5],
        ki2(
            Color::Gote,
            Dest::Square(sq(7, 7)),
            Bishop,
            Relative::NONE,
            None
        )
    );
}

#[test]
fn legacy_origin_gives_a_kif_move() {
    let r = one("▲７六歩(77)△３四歩(33)▲２二角成(88)\n");
    assert_eq!(
        r.main.moves[2].notation,
        Notation::Kif {
            color: Some(Color::Sente),
            dest: Dest::Square(sq(2, 2)),
            piece: Bishop,
            promote: Some(true),
            from: Some(sq(8, 8)),
            drop: false,
        }
    );
}

#[test]
fn whole_game_on_one_line_without_spaces() {
    let r = one("▲７六歩▽３四歩▲２六歩▽４四歩");
    assert_eq!(r.main.moves.len(), 4);
    assert_eq!(r.main.moves[3].span.column, 13);
}

#[test]
fn pseudo_move_and_summary_endings() {
    let r = one("▲７六歩 △投了\nまで1手で先手の勝ち\n");
    let e = r.main.ending.as_ref().unwrap();
    assert_eq!((e.kind, e.text.as_str()), (EndingKind::Resign, "投了"));
    assert_eq!(r.summary, vec!["まで1手で先手の勝ち"]);
    let r = one("▲７六歩\nまで1手で先手の勝ち\n*終局\n");
    let e = r.main.ending.as_ref().unwrap();
    assert_eq!(e.kind, EndingKind::Resign);
    assert_eq!(e.comments, vec!["終局"]);
    assert!(parse("▲７六歩 △投了 ▲２六歩\n").is_err());
}

#[test]
fn summary_phrases() {
    use EndingKind::*;
    let cases = [
        ("まで64手で先手の勝ち", Some(Resign)),
        ("まで3手で時間切れにより先手の勝ち", Some(TimeUp)),
        ("まで3手で後手の反則勝ち", Some(FoulByPrevious)),
        ("まで2手で先手の反則負け", Some(FoulByMover)),
        ("まで99手で後手の入玉勝ち", Some(Kachi)),
        ("まで3手で中断", Some(Interrupt)),
        ("まで3手で千日手", Some(Sennichite)),
        ("まで258手で持将棋", Some(Jishogi)),
        ("まで49手詰", Some(Tsumi)),
        ("まで3手で詰み", Some(Tsumi)),
        ("まで3手で不詰", Some(Fuzumi)),
        ("まで2手で封じ手", Some(Sealed)),
        ("まで2手で投了", Some(Resign)),
        ("まで、10手で入玉宣言", Some(Kachi)),
        ("まで 107手で上手の勝ち", Some(Resign)),
        ("まで3手で何か", None),
        ("まで", None),
    ];
    for (text, kind) in cases {
        assert_eq!(summary_ending(text), kind, "{text}");
    }
}

#[test]
fn comments_bookmarks_and_nested_variations() {
    let text = "手合割：平手\n*開始\n▲２六歩    △８四歩    ▲２五歩\n&基本図\n*コメント\n△８五歩\nまで4手で後手の勝ち\n\n\
変化：   3手\n▲７六歩    △同　歩\nまで4手で中断\n\n変化：4手\n△３四歩\nまで4手で中断\n\n変化：   2手\n△３四歩\nまで2手で中断\n";
    let r = one(text);
    assert_eq!(r.comments, vec!["開始"]);
    assert_eq!(r.main.moves.len(), 4);
    assert_eq!(r.main.moves[2].bookmarks(), vec!["基本図"]);
    assert_eq!(r.main.moves[2].comments(), vec!["コメント"]);
    assert_eq!(r.main.ending.as_ref().unwrap().kind, EndingKind::Resign);
    let v3 = r.main.moves[2].variations();
    assert_eq!(v3.len(), 1);
    assert_eq!(v3[0].moves.len(), 2);
    assert_eq!(
        v3[0].moves[1].notation,
        ki2(Color::Gote, Dest::Same, Pawn, Relative::NONE, None)
    );
    // 変化：4手 replaces the variation's own move 4.
    assert_eq!(v3[0].moves[1].variations().len(), 1);
    assert_eq!(r.main.moves[1].variations().len(), 1);
    assert_eq!(
        r.main.moves[1].variations()[0]
            .ending
            .as_ref()
            .unwrap()
            .kind,
        EndingKind::Interrupt
    );
}

#[test]
fn bod_start_and_handicap() {
    let text = "手合割：香落ち\n上手：A\n下手：B\n△３四歩 ▲７六歩\n";
    let r = one(text);
    assert_eq!(
        r.start,
        crate::record::StartPosition::Preset(crate::rules::setup::Handicap::Lance)
    );
    assert_eq!(r.header.len(), 3);
}

#[test]
fn errors_point_at_the_bad_character() {
    let e = parse("▲７六歩 △３四犬\n").unwrap_err();
    assert_eq!(e.span.column, 9);
    assert_eq!(
        e.message,
        "expected a piece name, found \"犬\" in \"△３四犬\""
    );
    // A move that stops short points just past its last character.
    let e = parse("▲７六歩 △同　\n").unwrap_err();
    assert_eq!(e.span.column, 8);
    assert_eq!(
        e.message,
        "expected a piece name, found the end of the move \"△同\""
    );
    // Spaces inside the move are skipped, and counted in the column.
    let e = parse("▲７六歩 △同　 犬\n").unwrap_err();
    assert_eq!(e.span.column, 10);
    let e = parse("▲７六歩 △３四歩(3\n").unwrap_err();
    assert_eq!(e.span.column, 10);
    assert!(
        e.message.contains("an origin such as (77)"),
        "{}",
        e.message
    );
    assert!(parse("  1 ７六歩(77)\n").is_err());
    assert!(parse("▲７六歩\n変化：5手\n▲２六歩\n").is_err());
    assert!(parse("▲\n").is_err());
    assert!(parse("▲７六歩(7\n").is_err());
}

#[test]
fn sniffing() {
    for text in ["先手：A\n▲７六歩    △３四歩\n", "▲76歩 ▽34歩"] {
        assert!(sniff(text), "{text:?}");
    }
    for text in [
        "手数----指手---------消費時間--\n   1 ７六歩(77)\n",
        "先手：A\n",
    ] {
        assert!(!sniff(text), "{text:?}");
    }
}

#[test]
fn garbage_never_panics() {
    for t in [
        "▲",
        "▲同",
        "▲７",
        "▲７六",
        "△同　",
        "▲(77)",
        "▲７六歩(",
        "▲７六歩右左",
        "まで",
        "変化：",
        "▲▲▲",
        "▲７六歩\n変化：0手\n",
    ] {
        let _ = parse(t);
        let _ = sniff(t);
    }
}

#[test]
fn tokens_are_cut_at_every_mark_and_only_there() {
    // Every mark is led by the byte the search looks for.
    for m in MARKS {
        assert_eq!(m.to_string().as_bytes()[0], 0xE2, "{m}");
    }
    // Other characters led by 0xE2 (―, ☆, ◆, …) are not marks.
    let line = "―▲７六歩☆△３四歩 ◆ ▼２六歩☖同　歩☗x▽y";
    let plain: Vec<(usize, &str)> = {
        let starts: Vec<usize> = line.match_indices(MARKS).map(|(i, _)| i).collect();
        let ends = starts.iter().skip(1).copied().chain([line.len()]);
        let mut v: Vec<(usize, &str)> = vec![(0, &line[..starts[0]])];
        v.extend(starts.iter().zip(ends).map(|(&s, e)| (s, &line[s..e])));
        v
    };
    assert_eq!(tokens(line).collect::<Vec<_>>(), plain);
    assert_eq!(
        tokens("  ▲７六歩").collect::<Vec<_>>(),
        vec![(2, "▲７六歩")]
    );
    assert_eq!(tokens("   ").count(), 0);
    assert_eq!(tokens("abc").collect::<Vec<_>>(), vec![(0, "abc")]);
}
