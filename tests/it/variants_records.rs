//! Variant records on the shared KIF and USI grammars: everything shogi's
//! records keep (headers in either colon, comments, bookmarks, times,
//! variations, every terminal word, test names) is kept for a variant too,
//! and the writers give it back or say what they leave out.

use kifu::emit::variant::{kif, usi};
use kifu::parse::{kif::parse_variant as kif_variant, usi::parse_variant as usi_variant};
use kifu::record::{EndingKind, Notation, StartPosition};
use kifu::variant::{Variant, VariantGame, replay};

const MINI_KIF: &str = "\
開始日時:2024/01/02
先手：甲
手合割：5五将棋
*before the first move
手数----指手---------消費時間--
   1 １四飛(15)   ( 0:03/00:00:03)
*the rook goes up
&rook
   2 ５二飛(51)   ( 0:05/00:00:05)
   3 時間切れ   ( 0:10/00:00:13)

変化：2手
   2 ２二金(21)   ( 0:01/00:00:01)
";

fn game(text: &str, v: Variant) -> VariantGame {
    replay::replay(kif_variant(text, v).expect("reads").remove(0)).expect("a variant record")
}

#[test]
fn variant_kif_keeps_headers_comments_times_variations_and_the_ending_word() {
    let r = kif_variant(MINI_KIF, Variant::Mini).unwrap().remove(0);
    let keys: Vec<&str> = r.header.iter().map(|h| h.key.as_str()).collect();
    assert_eq!(keys, ["開始日時", "先手", "手合割"]);
    assert_eq!(r.comments, ["before the first move"]);
    assert!(matches!(r.start, StartPosition::Variant(ref b) if b.variant() == Variant::Mini));
    let m = &r.main.moves;
    assert_eq!(m.len(), 2);
    assert!(matches!(
        m[0].notation,
        Notation::VariantKif { promote: None, .. }
    ));
    assert_eq!(m[0].comments(), ["the rook goes up"]);
    assert_eq!(m[0].bookmarks(), ["rook"]);
    assert_eq!(m[1].time.and_then(|t| t.spent_ms), Some(5000));
    assert_eq!(m[1].variations().len(), 1);
    let e = r.main.ending.as_ref().unwrap();
    // 時間切れ was no word of the old variant reader's.
    assert_eq!((e.kind, e.text.as_str()), (EndingKind::TimeUp, "時間切れ"));
    assert_eq!(e.time.and_then(|t| t.total_ms), Some(13000));
}

#[test]
fn variant_kif_writes_back_what_it_read_with_its_variations() {
    let g = game(MINI_KIF, Variant::Mini);
    assert_eq!(g.plies.len(), 2);
    assert!(g.foul.is_none());
    let (text, warnings) = kif(&g);
    for line in [
        "開始日時：2024/01/02\n先手：甲\n手合割：5五将棋\n",
        "*before the first move\n",
        "   1 １四飛(15)   ( 0:03/00:00:03)\n*the rook goes up\n&rook\n",
        "   2 ５二飛(51)   ( 0:05/00:00:05)+\n",
        "   3 切れ負け     ( 0:10/00:00:13)\n\n変化：2手\n   2 ２二金(21)   ( 0:01/00:00:01)\n",
    ] {
        assert!(text.contains(line), "{line:?} in\n{text}");
    }
    assert!(warnings.is_empty(), "{warnings:?}");
    // Read back, the same game: moves, times, comments, the ending, the
    // variation.
    let back = game(&text, Variant::Mini);
    assert_eq!(back.plies, g.plies);
    assert_eq!(back.record.main.moves[0].comments(), ["the rook goes up"]);
    assert_eq!(
        back.record.main.moves[1].variations(),
        g.record.main.moves[1]
            .variations()
            .iter()
            .map(|v| {
                let mut v = v.clone();
                // Spans and numbers are where the text put them.
                for (m, b) in v
                    .moves
                    .iter_mut()
                    .zip(&back.record.main.moves[1].variations()[0].moves)
                {
                    m.span = b.span;
                }
                v
            })
            .collect::<Vec<_>>()
    );
    assert_eq!(back.record.main.ending.unwrap().kind, EndingKind::TimeUp);
}

#[test]
fn variant_kif_variations_nest_and_stop_at_an_illegal_move_with_a_warning() {
    let text = "\
手合割：5五将棋
   1 １四飛(15)
   2 ５二飛(51)
   3 投了

変化：1手
   1 ３四角(25)
   2 ３二角(41)

変化：2手
   2 １三歩(12)
   3 ３三角(34)
";
    let g = game(text, Variant::Mini);
    let (written, warnings) = kif(&g);
    let blocks = "\
   1 １四飛(15)+
   2 ５二飛(51)
   3 投了

変化：1手
   1 ３四角(25)
   2 ３二角(41)+

変化：2手
   2 １三歩(12)
";
    assert!(written.ends_with(blocks), "{written}");
    // ３三角(34): a bishop does not go straight ahead.
    let codes: Vec<&str> = warnings.iter().map(|w| w.message.as_str()).collect();
    assert_eq!(
        codes,
        ["1 move(s) of variations are not legal and are not written"]
    );
    assert_eq!(game(&written, Variant::Mini).record.variation_count(), 2);
}

#[test]
fn variant_kif_refuses_a_square_off_its_board_at_the_square() {
    let text = "手合割：5五将棋\n   1 ６四飛(15)\n";
    let e = kif_variant(text, Variant::Mini).unwrap_err();
    assert_eq!((e.span.line, e.span.column), (2, 6), "{}", e.message);
    assert!(
        e.message.contains("a square of the variant's board"),
        "{}",
        e.message
    );
}

#[test]
fn variant_kif_first_move_written_same_is_a_foul_not_a_parse_error() {
    let g = game("手合割：5五将棋\n   1 同　飛(15)\n", Variant::Mini);
    let f = g.foul.expect("同 with no move before it names no square");
    assert_eq!((f.ply, f.span.line), (1, 2));
}

#[test]
fn variant_usi_keeps_test_names_and_every_pseudo_move() {
    let text = "setoption name UCI_Variant value minishogi\n\
                opening | position startpos moves 1e1d 5a5b win\n\
                position startpos moves 1e1d rep_lose\n";
    let recs = usi_variant(text, Variant::Tori).unwrap();
    assert_eq!(recs.len(), 2);
    assert_eq!(recs[0].header[0].value, "opening");
    assert_eq!(
        recs[0].main.ending.as_ref().unwrap().kind,
        EndingKind::Kachi
    );
    assert_eq!(
        recs[1].main.ending.as_ref().unwrap().kind,
        EndingKind::FoulByMover
    );
    assert!(matches!(recs[1].start, StartPosition::Variant(ref b) if b.variant() == Variant::Mini));
    let g = replay::replay(recs.into_iter().next().unwrap()).unwrap();
    let (line, warnings) = usi(&g);
    assert_eq!(
        line,
        "position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 1e1d 5a5b win\n"
    );
    let codes: Vec<&str> = warnings.iter().map(|w| w.code.code()).collect();
    assert_eq!(codes, ["header-dropped"]);
}

#[test]
fn a_variant_record_is_not_replayed_as_shogi_nor_a_shogi_one_as_a_variant() {
    let r = usi_variant("position startpos moves 1e1d\n", Variant::Mini)
        .unwrap()
        .remove(0);
    let e = kifu::replay(r, &kifu::ReplayOptions::default()).unwrap_err();
    assert!(
        matches!(e.kind(), kifu::ErrorKind::Variant(Variant::Mini)),
        "{e}"
    );
    let shogi = kifu::parse::parse("position startpos moves 7g7f\n", kifu::Format::Usi)
        .unwrap()
        .remove(0);
    assert!(replay::replay(shogi).is_err());
}

/// A chu shogi game as lishogi exports it (its KIF renderer's layout:
/// `N手目`, two-line double moves with `（居食い）` and `(じっと)`, `仝`,
/// `(mm:ss/hh:mm:ss)` times, `* ` comments), written for this test: no
/// lishogi export is in the corpus.
fn lishogi_chu() -> String {
    let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/variants/lishogi/chushogi.kif");
    std::fs::read_to_string(p).unwrap()
}

#[test]
fn lishogi_chu_kif_reads_replays_and_writes_back_byte_identical() {
    let text = lishogi_chu();
    assert_eq!(
        kifu::variant::read::sniff(&text),
        Some(Ok((Variant::Chu, kifu::Format::Kif)))
    );
    let g = game(&text, Variant::Chu);
    assert!(g.foul.is_none(), "{:?}", g.foul);
    assert_eq!(g.plies.len(), 9);
    assert_eq!(g.winner, Some(kifu::Color::Sente));
    let moves = kifu::emit::variant::moves_usi(&g);
    assert_eq!(
        moves.join(" "),
        "7i7h 6d6e 7j7i6h 6e6f 6h6g6h 5d5e 6h6g6f 5e5f 6f5f6f"
    );
    assert_eq!(g.record.main.moves[2].comments(), [" the lion comes out"]);
    assert_eq!(
        g.record.main.moves[8].time.and_then(|t| t.total_ms),
        Some(39_000)
    );
    let (written, warnings) = kif(&g);
    assert_eq!(written, text);
    assert!(warnings.is_empty(), "{warnings:?}");
}

#[test]
fn chu_kif_reads_the_forms_lishogi_and_shogiops_write() {
    let board = Variant::Chu.start();
    let cell = |f, r| board.cell_of(f, r).unwrap();
    // scalashogi's test layout, then shogiops' (手目 and a mark, or neither).
    let text = "\
   1手目   7七金将 （←7八）
   2手目   2八歩兵 （←4九）
   3手目一歩目 仝龍馬 （←5九）
   3手目二歩目 1一龍馬 （←2八）
57手目一歩目 ▲6六獅子 （←7七）
57手目二歩目 ▲7七獅子（居食い） （←6六）
   5一歩目 7九獅子 （←7十）
   5二歩目 6八獅子 （←7九）
123手目 ▲6十一金将成 （←5十二）
";
    let r = kif_variant(text, Variant::Chu).unwrap().remove(0);
    let moves: Vec<_> = r.main.moves.iter().map(|m| m.notation.clone()).collect();
    let kif = |to, from, via, promote| Notation::VariantKif {
        to,
        piece: 0,
        promote,
        from: Some(from),
        via,
    };
    let without_piece = |n: &Notation| match n.clone() {
        Notation::VariantKif {
            to,
            promote,
            from,
            via,
            ..
        } => Notation::VariantKif {
            to,
            piece: 0,
            promote,
            from,
            via,
        },
        other => other,
    };
    let got: Vec<_> = moves.iter().map(without_piece).collect();
    assert_eq!(
        got,
        [
            kif(Some(cell(7, 7)), cell(7, 8), None, None),
            kif(Some(cell(2, 8)), cell(4, 9), None, None),
            kif(Some(cell(1, 1)), cell(5, 9), Some(None), None),
            kif(Some(cell(7, 7)), cell(7, 7), Some(Some(cell(6, 6))), None),
            kif(Some(cell(6, 8)), cell(7, 10), Some(Some(cell(7, 9))), None),
            kif(Some(cell(6, 11)), cell(5, 12), None, Some(true)),
        ]
    );
}

#[test]
fn chu_kif_first_step_without_its_second_is_refused_at_its_line() {
    let e = kif_variant("   1手目一歩目 7九獅子 （←7十）\n", Variant::Chu).unwrap_err();
    assert_eq!(e.span.line, 1, "{}", e.message);
    assert!(e.message.contains("二歩目"), "{}", e.message);
    let e = kif_variant(
        "   1手目一歩目 7九獅子 （←7十）\n   2手目   6五歩兵 （←6四）\n",
        Variant::Chu,
    )
    .unwrap_err();
    assert_eq!(e.span.line, 2, "{}", e.message);
    let e = kif_variant("   1手目   13八歩兵 （←13九）\n", Variant::Chu).unwrap_err();
    assert!(e.message.contains("12×12"), "{}", e.message);
}

#[test]
fn a_chu_kif_is_not_read_as_an_empty_shogi_game() {
    let e = kifu::read_bytes(
        lishogi_chu().as_bytes(),
        None,
        &kifu::ReadOptions::default(),
    )
    .map(|i| i.records.len());
    assert!(e.is_err(), "{e:?}");
}

#[test]
fn chu_kif_writes_and_reads_lishogis_names_of_promoted_pieces() {
    // A pawn promotes on entering the zone and moves on as lishogi's 金将
    // (the table's と金).
    let line =
        "position sfen kg10/12/12/12/6P5/12/12/12/12/12/12/11K b - 1 moves 6e6d+ 11a11b 6d6c\n";
    let g = replay::replay(usi_variant(line, Variant::Chu).unwrap().remove(0)).unwrap();
    assert!(g.foul.is_none(), "{:?}", g.foul);
    let (text, _) = kif(&g);
    assert!(text.contains("   1手目   6四歩兵成 （←6五）\n"), "{text}");
    assert!(text.contains("   3手目   6三金将 （←6四）\n"), "{text}");
    let back = game(&text, Variant::Chu);
    assert_eq!(back.plies, g.plies);
    // Written with the table's own name, it reads the same.
    let own = text.replace("6三金将", "6三と金");
    assert_eq!(game(&own, Variant::Chu).plies, g.plies);
}

#[test]
fn chu_kif_start_other_than_chus_own_is_lishogis_12_rank_diagram_read_back() {
    let sfen = "k11/9NN1/2+H+H8/12/9+o2/12/5N3N2/5+O6/9+H2/2+H9/2+H6+H2/11K w - 1";
    let line = format!("position sfen {sfen} moves 12a11a\n");
    let g = replay::replay(usi_variant(&line, Variant::Chu).unwrap().remove(0)).unwrap();
    let (text, _) = kif(&g);
    let empty = "  ・";
    let row = |cells: &[&str], rank: &str| format!("|{}|{rank}\n", cells.concat());
    let mut row5 = vec![empty; 9];
    row5.extend(["v成獅", empty, empty]);
    let mut row1 = vec![" v玉"];
    row1.extend([empty; 11]);
    let mut row12 = vec![empty; 11];
    row12.push("  玉");
    for want in [
        format!(
            " １２ １１ １０ ９  ８  ７  ６  ５  ４  ３  ２  １\n+{}+\n",
            "-".repeat(48)
        ),
        row(&row1, "一"),
        row(&row5, "五"),
        row(&row12, "十二"),
        format!("+{}+\n後手番\n先手：\n後手：\n", "-".repeat(48)),
    ] {
        assert!(text.contains(&want), "{want}\nin\n{text}");
    }
    assert!(!text.contains("#SFEN"), "{text}");
    let back = game(&text, Variant::Chu);
    assert_eq!(back.start.to_sfen(), g.start.to_sfen());
    assert_eq!(back.plies, g.plies);
    // A diagram row that names no piece is refused at its line.
    let bad = text.replace("v成獅", "v成犬");
    let e = kif_variant(&bad, Variant::Chu).unwrap_err();
    assert!(e.message.contains("成犬"), "{}", e.message);
}

#[test]
fn chu_kif_variations_are_written_as_lishogi_writes_them() {
    let text = "\
先手：
後手：
手数----指手---------消費時間--
   1手目   7八歩兵 （←7九）
   2手目   6五歩兵 （←6四）

変化：2手
   2手目   5五歩兵 （←5四）
   3手目一歩目 7九獅子 （←7十）
   3手目二歩目 6八獅子 （←7九）
";
    let g = game(text, Variant::Chu);
    assert_eq!(g.record.variation_count(), 1);
    let (written, warnings) = kif(&g);
    assert_eq!(written, text);
    assert!(warnings.is_empty(), "{warnings:?}");
}
