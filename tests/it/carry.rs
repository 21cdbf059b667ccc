//! Nothing a real file carries is dropped: evaluations and reading lines,
//! Shift_JIS best-fit characters, the start position's bookmark, and both
//! pairs of player names, across every format that has a place for them.

use kifu::ReplayOptions;
use kifu::emit::{Warning, csa, jkf, ki2, kif};
use kifu::replay::{Game, replay};

/// Replay the first game of `text`, read as `format`.
fn game(format: &str, text: &str) -> Game {
    let mut records = match format {
        "kif" => kifu::parse::kif::parse(text),
        "ki2" => kifu::parse::ki2::parse(text),
        "csa" => kifu::parse::csa::parse(text),
        "jkf" => kifu::parse::jkf::parse(text),
        other => panic!("no reader {other}"),
    }
    .unwrap_or_else(|e| panic!("{e}\n{text}"));
    replay(records.remove(0), &ReplayOptions::default()).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn codes(w: &[Warning]) -> Vec<&'static str> {
    w.iter().map(|w| w.code.code()).collect()
}

/// The bytes Windows (best fit) and Python's `cp932` write for characters
/// the WHATWG index leaves out.
const BEST_FIT_BYTES: [(char, [u8; 2]); 6] = [
    ('\u{301C}', [0x81, 0x60]),
    ('\u{2014}', [0x81, 0x5C]),
    ('\u{2016}', [0x81, 0x61]),
    ('\u{00A2}', [0x81, 0x91]),
    ('\u{00A3}', [0x81, 0x92]),
    ('\u{00AC}', [0x81, 0xCA]),
];

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

#[test]
fn best_fit_characters_are_written_as_windows_cp932_writes_them() {
    for (c, code) in BEST_FIT_BYTES {
        let src = format!("先手：A{c}B\n   1 ７六歩(77)\n*x{c}y\n");
        let g = game("kif", &src);
        for (name, (bytes, warnings)) in
            [("kif", kif::write_sjis(&g)), ("ki2", ki2::write_sjis(&g))]
        {
            assert!(
                warnings.is_empty(),
                "{name} U+{:04X}: {warnings:?}",
                c as u32
            );
            let mut header = encoding_rs::SHIFT_JIS.encode("先手：A").0.into_owned();
            header.extend(code);
            header.push(b'B');
            assert!(
                contains(&bytes, &header),
                "{name} U+{:04X}: header",
                c as u32
            );
            let mut comment = b"*x".to_vec();
            comment.extend(code);
            comment.extend(b"y\r\n");
            assert!(
                contains(&bytes, &comment),
                "{name} U+{:04X}: comment",
                c as u32
            );
        }
    }
}

#[test]
fn only_characters_without_a_cp932_code_are_warned_about() {
    let g = game("kif", "   1 ７六歩(77)\n*〜😀\n");
    let (bytes, warnings) = kif::write_sjis(&g);
    assert_eq!(codes(&warnings), ["unencodable-char"]);
    assert!(warnings[0].message.contains("U+1F600"), "{warnings:?}");
    assert!(contains(&bytes, b"*\x81\x60?\r\n"));
}

#[test]
fn unencodable_char_warning_names_the_input_line() {
    // Line 3 holds the name; the comment belongs to the move on line 6.
    let src = "# x\n手合割：平手\n先手：名人😀\n後手：B\n手数----指手--\n   1 ７六歩(77)\n*良い手🍣\n   2 ３四歩(33)\n";
    let g = game("kif", src);
    for (name, (_, warnings)) in [("kif", kif::write_sjis(&g)), ("ki2", ki2::write_sjis(&g))] {
        assert_eq!(codes(&warnings), ["unencodable-char"; 2], "{name}");
        assert!(
            warnings[0].message.starts_with("input line 3:"),
            "{name}: {warnings:?}"
        );
        assert!(
            warnings[1]
                .message
                .starts_with("input line 6 (a comment of that move):"),
            "{name}: {warnings:?}"
        );
    }
    // From CSA, the line is the CSA file's.
    let g = game("csa", "V2.2\nN+名人😀\nN-B\nPI\n+\n+7776FU\n'*良い手🍣\n");
    let (_, warnings) = kif::write_sjis(&g);
    assert!(
        warnings[0].message.starts_with("input line 2:"),
        "{warnings:?}"
    );
    assert!(
        warnings[1].message.starts_with("input line 6 "),
        "{warnings:?}"
    );
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn corpus_record_with_a_wave_dash_is_written_without_loss() {
    let dir = crate::common::corpus_dir("corpus_record_with_a_wave_dash_is_written_without_loss");
    let path = dir.join("mixed/shogi-player-kifu_book_info/27585.KI2");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let text = crate::common::decode_strict(&bytes).expect("the corpus file decodes");
    assert!(text.contains('〜'));
    let g = game("ki2", &text);
    let (out, warnings) = ki2::write_sjis(&g);
    assert!(
        !codes(&warnings).contains(&"unencodable-char"),
        "{warnings:?}"
    );
    assert!(contains(&out, b"\x81\x60"));
}

fn header_pairs(g: &Game) -> Vec<(String, String)> {
    g.record
        .header
        .iter()
        .filter(|h| ["先手", "後手", "下手", "上手"].contains(&h.key.as_str()))
        .map(|h| (h.key.clone(), h.value.clone()))
        .collect()
}

#[test]
fn both_name_pairs_are_kept_as_written() {
    let src = "手合割：香落ち\n先手：甲\n後手：乙\n下手：丙\n上手：丁\n   1 ３四歩(33)\n";
    let g = game("kif", src);
    let want = header_pairs(&g);
    assert_eq!(want.len(), 4);
    let (k, kw) = kif::write(&g);
    let (k2, k2w) = ki2::write(&g);
    let (j, jw) = jkf::write(&g);
    for (name, text, w) in [("kif", &k, &kw), ("ki2", &k2, &k2w), ("jkf", &j, &jw)] {
        assert!(w.is_empty(), "{name}: {w:?}");
        let back = game(name, text);
        assert_eq!(header_pairs(&back), want, "{name}:\n{text}");
    }
    for line in ["先手：甲\n", "後手：乙\n", "下手：丙\n", "上手：丁\n"] {
        assert_eq!(k.matches(line).count(), 1, "{line}{k}");
    }
    // CSA holds one name a side: the second pair is kept as comment lines, and said so.
    let (c, cw) = csa::write(&g, &csa::CsaOptions::default());
    assert!(c.contains("N+甲\nN-乙\n'下手:丙\n'上手:丁\n"), "{c}");
    assert!(codes(&cw).contains(&"header-as-comment"), "{cw:?}");
    let back = game("csa", &c);
    assert_eq!(back.record.header_value(&["N+"]), Some("甲"));
    assert_eq!(back.record.header_value(&["N-"]), Some("乙"));
}

#[test]
fn one_name_pair_in_a_handicap_game_is_still_written_as_shitate_uwate() {
    let g = game(
        "kif",
        "手合割：香落ち\n先手：甲\n後手：乙\n   1 ３四歩(33)\n",
    );
    let (k, _) = kif::write(&g);
    assert!(k.contains("下手：甲\n上手：乙\n"), "{k}");
    assert!(!k.contains("先手："), "{k}");
}

#[test]
fn start_position_bookmark_stays_at_ply_zero_in_kif_ki2_and_jkf() {
    let src =
        "手合割：平手\n&開始局面\n手数----指手--\n   1 ７六歩(77)\n&基本図\n   2 ３四歩(33)\n";
    let g = game("kif", src);
    assert_eq!(g.record.bookmarks, ["開始局面"]);
    assert!(g.record.notes.is_empty(), "{:?}", g.record.notes);
    let (k, kw) = kif::write(&g);
    let (k2, k2w) = ki2::write(&g);
    let (j, jw) = jkf::write(&g);
    for (name, text, w) in [("kif", &k, &kw), ("ki2", &k2, &k2w), ("jkf", &j, &jw)] {
        assert!(!codes(w).contains(&"bookmarks-dropped"), "{name}: {w:?}");
        let back = game(name, text);
        assert_eq!(back.record.bookmarks, ["開始局面"], "{name}:\n{text}");
        assert_eq!(
            back.record.main.moves[0].bookmarks(),
            ["基本図"],
            "{name}:\n{text}"
        );
        assert!(!text.contains("#&"), "{name}:\n{text}");
    }
    assert!(
        k.contains("手数----指手--\n&開始局面\n   1 ７六歩(77)\n"),
        "{k}"
    );
    // CSA has no place for bookmarks: both are named as dropped.
    let (_, cw) = csa::write(&g, &csa::CsaOptions::default());
    let w = cw
        .iter()
        .find(|w| w.code == "bookmarks-dropped")
        .expect("warned");
    assert!(w.message.contains(": 2 left out"), "{w:?}");
}

const FLOODGATE: &str = "V2\nN+A\nN-B\nPI\n+\n+7776FU\nT1\n'** 30 -3334FU +2726FU\n-3334FU\nT2\n'** -45 +2726FU\n+2726FU\nT3\n'** 0\n%TORYO\n";

fn evals(g: &Game) -> Vec<Option<kifu::record::Evaluation>> {
    g.record
        .main
        .moves
        .iter()
        .map(|m| m.eval().cloned())
        .collect()
}

#[test]
fn csa_evaluations_and_pvs_survive_kif_ki2_and_jkf_and_back_to_csa() {
    let g = game("csa", FLOODGATE);
    let want = evals(&g);
    assert_eq!(
        want[0],
        Some(kifu::record::Evaluation::from_floodgate(
            "30 -3334FU +2726FU"
        ))
    );
    assert_eq!(want[0].as_ref().map(|e| e.pv.len()), Some(2));
    let (csa_direct, _) = csa::write(&g, &csa::CsaOptions::default());
    for (name, (text, w)) in [
        ("kif", kif::write(&g)),
        ("ki2", ki2::write(&g)),
        ("jkf", jkf::write(&g)),
    ] {
        assert!(!codes(&w).contains(&"evaluations-dropped"), "{name}: {w:?}");
        let back = game(name, &text);
        assert_eq!(evals(&back), want, "{name}:\n{text}");
        assert!(
            back.record
                .main
                .moves
                .iter()
                .all(|m| m.comments().is_empty()),
            "{name}"
        );
        let (again, _) = csa::write(&back, &csa::CsaOptions::default());
        let evals_lines = |s: &str| {
            s.lines()
                .filter(|l| l.starts_with("'**"))
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            evals_lines(&again),
            evals_lines(&csa_direct),
            "{name}:\n{again}"
        );
    }
    let (k, _) = kif::write(&g);
    assert!(
        k.contains("   1 ７六歩(77)   ( 0:01/00:00:01)\n** 30 -3334FU +2726FU\n"),
        "{k}"
    );
}

#[test]
fn a_kif_comment_that_only_looks_like_an_evaluation_stays_a_comment() {
    let g = game("kif", "   1 ７六歩(77)\n** 良い手\n**30点\n");
    assert!(g.record.main.moves[0].eval().is_none());
    assert_eq!(g.record.main.moves[0].comments(), ["* 良い手", "*30点"]);
}

/// `(eval, pv)` of each move of the analysis JSON of `g`.
fn json_evals(g: &Game) -> Vec<(serde_json::Value, serde_json::Value)> {
    let (s, _) = kifu::emit::json::write("t", "UTF-8", kifu::Format::Kif, g, false);
    let v: serde_json::Value = serde_json::from_str(&s).unwrap();
    v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["eval"].clone(), m["pv"].clone()))
        .collect()
}

#[test]
fn floodgate_evaluations_fill_eval_and_a_usi_pv() {
    let want = vec![
        (serde_json::json!(30), serde_json::json!(["3c3d", "2g2f"])),
        (serde_json::json!(-45), serde_json::json!(["2g2f"])),
        (serde_json::json!(0), serde_json::Value::Null),
    ];
    let g = game("csa", FLOODGATE);
    assert_eq!(json_evals(&g), want);
    // The same from the KIF `**` lines it is written as.
    assert_eq!(json_evals(&game("kif", &kif::write(&g).0)), want);
    // Pretty JSON says the same.
    let (text, _) = kifu::emit::json::write("t", "UTF-8", kifu::Format::Csa, &g, true);
    let pretty: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        pretty["moves"][0]["pv"],
        serde_json::json!(["3c3d", "2g2f"])
    );
}

#[test]
fn gui_evaluation_comments_fill_eval_and_a_usi_pv() {
    let src = "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n*互角\n*#評価値=-158\n*#読み筋=△３四歩(33)▲２六歩(27)\n   2 ３四歩(33)\n**対局 深さ 2 ノード数 960 評価値 35 読み筋 △３四歩(33) ▲２六歩(27)\n   3 ２六歩(27)\n**解析 0 ○ 候補1 時間 00:01.0 深さ 20/35 ノード数 1000 評価値 123↑ 読み筋 △８四歩(83) ▲２五歩(26) △同　歩(84)\n   4 ８四歩(83)\n*#評価値=7\n";
    let g = game("kif", src);
    let got = json_evals(&g);
    assert_eq!(
        got[0],
        (serde_json::json!(-158), serde_json::json!(["3c3d", "2g2f"]))
    );
    // ShogiGUI writes the engine's own move first: the line starts before it.
    assert_eq!(
        got[1],
        (serde_json::json!(35), serde_json::json!(["3c3d", "2g2f"]))
    );
    // The third move (同　歩(84): no pawn on 8四 reaches 2五) cannot be played: the line stops before it.
    assert_eq!(got[2].0, serde_json::json!(123));
    assert_eq!(got[2].1, serde_json::json!(["8c8d", "2f2e"]));
    assert_eq!(got[3], (serde_json::json!(7), serde_json::Value::Null));
    // The comments stay as written, for every other reader.
    assert_eq!(
        g.record.main.moves[0].comments(),
        ["互角", "#評価値=-158", "#読み筋=△３四歩(33)▲２六歩(27)"]
    );
}

#[test]
fn shogihome_csa_comment_lines_are_comments_not_evaluations() {
    let g = game(
        "csa",
        "V2.2\nPI\n+\n+7776FU\n'*互角\n'**評価値=-35\n'**読み筋=△３四歩\n",
    );
    let m = &g.record.main.moves[0];
    assert!(m.eval().is_none());
    assert_eq!(m.comments(), ["互角", "*評価値=-35", "*読み筋=△３四歩"]);
    assert!(g.record.notes.is_empty(), "{:?}", g.record.notes);
    assert_eq!(
        json_evals(&g)[0],
        (serde_json::json!(-35), serde_json::json!(["3c3d"]))
    );
    let (c, _) = csa::write(&g, &csa::CsaOptions::default());
    assert!(
        c.contains("'*互角\n'**評価値=-35\n'**読み筋=△３四歩\n"),
        "{c}"
    );
}
