//! The commands on variant records: which variant is read, what each
//! command writes, and what it refuses.

use std::process::{Command, Output};

fn kifu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

fn write(dir: &tempfile::TempDir, name: &str, body: &str) -> String {
    let p = dir.path().join(name);
    std::fs::write(&p, body).unwrap();
    p.to_string_lossy().into_owned()
}

#[test]
fn perft_variant_matches_published_shallow_counts() {
    // lishogi's minishogi perft tests publish 14, 181, 2512.
    let o = kifu(&["perft", "--variant", "minishogi", "3"]);
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "2512");
    let o = kifu(&["perft", "--variant", "minishogi", "--divide", "1"]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(out.lines().count(), 15, "{out}");
    assert!(out.contains("5d5c: 1"), "{out}");
}

#[test]
#[ignore = "seconds in a release build, minutes in debug: cargo test --release -- --ignored"]
fn perft_variant_matches_fairy_stockfish_counts() {
    for (v, depth, nodes) in [
        ("minishogi", "5", "533203"),
        ("torishogi", "4", "103857"),
        ("shoshogi", "4", "445372"),
        // Fairy-Stockfish 11.1 (Debian's fairy-stockfish), go perft 5.
        ("judkins", "5", "2389896"),
        ("micro", "5", "71328"),
        ("shogi", "4", "719731"),
    ] {
        let o = kifu(&["perft", "--variant", v, depth]);
        assert_eq!(
            String::from_utf8_lossy(&o.stdout).trim(),
            nodes,
            "{v} {depth}"
        );
    }
}

#[test]
fn check_reads_a_variant_from_its_sfen_without_being_told() {
    let d = tempfile::tempdir().unwrap();
    let mini = write(
        &d,
        "m.usi",
        "position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 5d5c 1b1c\n",
    );
    let o = kifu(&["check", &mini]);
    assert!(text(&o).contains("minishogi: ok: 2 plies"), "{}", text(&o));
    assert_eq!(o.status.code(), Some(0));
    let sho = write(
        &d,
        "s.usi",
        "position sfen lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL b - 1 moves 5g5f P*5e\n",
    );
    let o = kifu(&["check", &sho]);
    assert!(
        text(&o).contains("shoshogi: ply 2 P*5e: no-drops"),
        "{}",
        text(&o)
    );
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn check_refuses_an_unknown_uci_variant_clearly() {
    let d = tempfile::tempdir().unwrap();
    let f = write(
        &d,
        "x.usi",
        "setoption name UCI_Variant value kyotoshogi\nposition startpos\n",
    );
    let o = kifu(&["check", &f]);
    assert!(
        text(&o).contains("unknown UCI_Variant \"kyotoshogi\""),
        "{}",
        text(&o)
    );
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_shogi_sfen_without_an_elephant_stays_shogi_unless_named() {
    let d = tempfile::tempdir().unwrap();
    let f = write(&d, "g.usi", "position startpos moves 7g7f\n");
    let o = kifu(&["check", &f]);
    assert!(text(&o).contains("g.usi: ok: 1 ply"), "{}", text(&o));
    let o = kifu(&["check", "--variant", "shoshogi", &f]);
    assert!(text(&o).contains("shoshogi: ok: 1 ply"), "{}", text(&o));
}

#[test]
fn convert_refuses_csa_ki2_and_jkf_for_a_variant_game() {
    let d = tempfile::tempdir().unwrap();
    let f = write(
        &d,
        "t.usi",
        "position sfen rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR b - 1 moves 3d3c\n",
    );
    for to in ["csa", "ki2", "jkf"] {
        let o = kifu(&["convert", "--to", to, &f]);
        assert_eq!(o.status.code(), Some(2), "{to}");
        assert!(text(&o).contains("torishogi has no"), "{to}: {}", text(&o));
        assert!(o.stdout.is_empty(), "{to}: nothing written");
    }
}

#[test]
fn convert_usi_to_kif_and_back_keeps_the_game() {
    let d = tempfile::tempdir().unwrap();
    let moves = "3d3c 5d5e 3e3d 5e5f+ 4f5f S*5e";
    let f = write(&d, "t.usi", &format!("position startpos moves {moves}\n"));
    let kif = d.path().join("t.kifu");
    let o = kifu(&[
        "convert",
        "--variant",
        "torishogi",
        "--to",
        "kifu",
        &f,
        "-o",
        kif.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let written = std::fs::read_to_string(&kif).unwrap();
    assert!(written.starts_with("手合割：禽将棋\n"), "{written}");
    assert!(written.contains("   4 ５六燕成(55)\n"), "{written}");
    assert!(written.contains("   6 ５五燕打\n"), "{written}");
    let o = kifu(&["convert", "--to", "usi", kif.to_str().unwrap()]);
    let start = "rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR b - 1";
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        format!("position sfen {start} moves {moves}\n")
    );
}

#[test]
fn check_reads_minishogi_kif_as_lishogi_writes_it() {
    let d = tempfile::tempdir().unwrap();
    let kif = "開始日時：2024/01/01 00:00:00\n先手：a\n後手：b\n手合割：5五将棋\n\
               手数----指手---------消費時間--\n   1 ４四銀(35)   ( 0:01/00:00:01)\n\
               \x20  2 ２二銀(31)   ( 0:02/00:00:02)\n   3 投了\n";
    let f = write(&d, "l.kifu", kif);
    let o = kifu(&["check", "--json", &f]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["variant"], "minishogi");
    assert_eq!(v["moves"], serde_json::json!(["3e4d", "3a2b"]));
    assert_eq!(
        v["result"],
        serde_json::json!({"winner": "gote", "reason": "resign"})
    );
}

#[test]
fn a_variant_usi_draw_is_a_plain_draw_not_a_repetition_claim() {
    let d = tempfile::tempdir().unwrap();
    let f = write(
        &d,
        "d.usi",
        "setoption name UCI_Variant value minishogi\nposition startpos moves 4e4d draw\n",
    );
    let o = kifu(&["check", "--json", &f]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        v["result"],
        serde_json::json!({"winner": null, "reason": "draw"})
    );
    assert_eq!(v["diagnostics"], serde_json::json!([]), "{v}");
    let out = d.path().join("out");
    let o = kifu(&[
        "convert",
        "-q",
        "--to",
        "usi",
        "--out-dir",
        out.to_str().unwrap(),
        &f,
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let written = std::fs::read_to_string(out.join("d.usi")).unwrap();
    assert!(written.trim_end().ends_with("moves 4e4d draw"), "{written}");
}

#[test]
fn stats_counts_variant_games_and_fouls() {
    let d = tempfile::tempdir().unwrap();
    let f = write(
        &d,
        "m.usi",
        "setoption name UCI_Variant value minishogi\nposition startpos moves 5d5c+\nposition startpos moves 4e4d\n",
    );
    let o = kifu(&["stats", "--json", &f]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["games"], 2);
    assert_eq!(v["variants"]["minishogi"], 2);
    assert_eq!(v["fouls"]["bad-promotion"], 1);
}

#[test]
fn variant_outputs_of_one_run_never_clobber_each_other_even_with_force() {
    let dir = tempfile::tempdir().unwrap();
    let game = "position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 5e4d\n";
    for sub in ["a", "b"] {
        std::fs::create_dir(dir.path().join(sub)).unwrap();
        write(&dir, &format!("{sub}/x.usi"), game);
    }
    let out = dir.path().join("o");
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    let o = kifu(&[
        "convert",
        "--variant",
        "minishogi",
        "--to",
        "kifu",
        "--force",
        "--out-dir",
        out.to_str().unwrap(),
        a.to_str().unwrap(),
        b.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let t = text(&o);
    assert!(t.contains("output clash"), "{t}");
    assert!(
        t.contains("a/x.usi") && t.contains("b/x.usi"),
        "the clash names both inputs: {t}"
    );
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 1);
}

#[test]
fn variant_convert_skip_existing_leaves_an_existing_output_alone() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(
        &dir,
        "x.usi",
        "position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 5e4d\n",
    );
    let out = dir.path().join("x.kifu");
    std::fs::write(&out, "kept").unwrap();
    let o = kifu(&[
        "convert",
        "--variant",
        "minishogi",
        "--to",
        "kifu",
        "--skip-existing",
        "-o",
        out.to_str().unwrap(),
        &input,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "kept");
}

#[test]
fn check_with_a_named_variant_writes_the_summary_and_report_files() {
    let d = tempfile::tempdir().unwrap();
    let ok = write(&d, "ok.usi", "position startpos moves 5d5c 1b1c\n");
    let foul = write(&d, "foul.usi", "position startpos moves 5d5c+\n");
    let sum = d.path().join("sum.json");
    let report = d.path().join("report.html");
    let o = kifu(&[
        "check",
        "--variant",
        "minishogi",
        "--summary",
        sum.to_str().unwrap(),
        "--report",
        report.to_str().unwrap(),
        &ok,
        &foul,
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let out = text(&o);
    assert!(
        out.contains("2 files, 2 games: 1 legal, 1 with fouls; 0 unreadable inputs"),
        "{out}"
    );
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(&sum).unwrap()).unwrap();
    let v = &v["summary"];
    assert_eq!(
        (v["files"].as_u64(), v["games"].as_u64()),
        (Some(2), Some(2))
    );
    assert_eq!(v["fouls_by_rule"]["bad-promotion"], 1, "{v}");
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(html.contains("Findings without a card"), "{html}");
    assert!(html.contains("foul.usi</code>: 1 foul(s)"), "{html}");
}

#[test]
fn check_reads_micro_and_judkins_from_their_board_size() {
    let d = tempfile::tempdir().unwrap();
    let micro = write(
        &d,
        "m.usi",
        "position sfen kb+r+l/p3/4/3P/+L+RBK b - 1 moves 1d1c 4b4c 1c1b 4c4d 1b1a+\n",
    );
    let o = kifu(&["check", &micro]);
    assert!(text(&o).contains("micro: ok: 5 plies"), "{}", text(&o));
    let judkins = write(
        &d,
        "j.usi",
        "position sfen rbnsgk/5p/6/6/P5/KGSNBR b - 1 moves 6e6d 1b1c P*1d\n",
    );
    let o = kifu(&["check", &judkins]);
    assert!(
        text(&o).contains("judkins: ply 3 P*1d: not-in-hand"),
        "{}",
        text(&o)
    );
}

#[test]
fn micro_has_no_kif_form_and_says_so() {
    let d = tempfile::tempdir().unwrap();
    let f = write(
        &d,
        "m.usi",
        "setoption name UCI_Variant value micro\nposition startpos moves 1d1c\n",
    );
    let o = kifu(&["convert", "--to", "kifu", &f]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(text(&o).contains("micro has no KIF form"), "{}", text(&o));
    assert!(o.stdout.is_empty());
    let o = kifu(&["convert", "--to", "usi", &f]);
    assert_eq!(
        String::from_utf8_lossy(&o.stdout),
        "position sfen kb+r+l/p3/4/3P/+L+RBK b - 1 moves 1d1c\n"
    );
}

#[test]
fn check_and_convert_read_chu_shogi_usi_with_lion_moves() {
    let d = tempfile::tempdir().unwrap();
    let start = "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1";
    let game = format!("position sfen {start} moves 7j8h 6d6e 8h7g7h 6e6f 7h7g6f 5d5e 6f5e6f\n");
    let f = write(&d, "c.usi", &game);
    let o = kifu(&["check", &f]);
    assert!(text(&o).contains("chushogi: ok: 7 plies"), "{}", text(&o));
    let o = kifu(&["convert", "--to", "usi", &f]);
    assert_eq!(String::from_utf8_lossy(&o.stdout), game);
    // In lishogi's KIF: the lion's double moves over two lines, read back
    // as the same game.
    let o = kifu(&["convert", "--to", "kifu", &f]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    let kif = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        kif.contains("   3手目一歩目 7七獅子 （←8八）\n   3手目二歩目 7八獅子 （←7七）\n"),
        "{kif}"
    );
    // 6f5e6f takes the pawn that has just come to 5e, and comes back.
    assert!(
        kif.ends_with(
            "   7手目一歩目 仝獅子 （←6六）\n   7手目二歩目 6六獅子（居食い） （←5五）\n"
        ),
        "{kif}"
    );
    let k = write(&d, "c.kifu", &kif);
    let o = kifu(&["check", &k]);
    assert!(text(&o).contains("chushogi: ok: 7 plies"), "{}", text(&o));
    let o = kifu(&["convert", "--to", "usi", &k]);
    assert_eq!(String::from_utf8_lossy(&o.stdout), game);
    let o = kifu(&["stats", "--json", &f]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["variants"]["chushogi"], 1, "{v}");
    let o = kifu(&["perft", "--variant", "chushogi", "2"]);
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "1296");
}

/// A repetition foul is judged on the move that made the fourth
/// occurrence: the check line and the JSON name that move (not the word
/// `move` and `null`), a move written after it is counted as
/// `moves-after-foul`, and the KIF written gives the game to the side to
/// move when the loser's own move completed the repetition (反則勝ち).
#[test]
fn variant_repetition_foul_names_its_move_and_counts_the_moves_after_it() {
    let dir = tempfile::tempdir().unwrap();
    // Minishogi: sente's rook checks with every move; its own 13th move
    // 5b5a completes the fourth occurrence; two moves follow.
    let cycle = " 5a5b 1b1a 5b5a 1a1b".repeat(3);
    let mini = write(
        &dir,
        "mini.usi",
        &format!("position sfen 4k/5/R4/5/K4 b - 1 moves 5c5a 1a1b{cycle} 5b5a\n"),
    );
    let out = text(&kifu(&["check", "--variant", "minishogi", &mini]));
    assert!(
        out.contains(
            "minishogi: ply 13 5b5a: perpetual-check (連続王手の千日手); sente loses by foul"
        ),
        "{out}"
    );
    assert!(
        out.contains("warning[moves-after-foul]: 2 moves written after the foul were not replayed"),
        "{out}"
    );
    let json = String::from_utf8_lossy(
        &kifu(&["check", "--json", "--variant", "minishogi", &mini]).stdout,
    )
    .into_owned();
    let v: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
    assert_eq!(v["verdict"]["move"], "5b5a", "{json}");
    assert_eq!(v["diagnostics"][0]["code"], "moves-after-foul", "{json}");
    // Tori shogi: gote's 12th move repeats for the fourth time and gote,
    // who made it, loses; one move follows.
    let cycle = " 4g5g 4a5a 5g4g 5a4a".repeat(3);
    let tori = write(
        &dir,
        "tori.usi",
        &format!("position sfen 3k3/7/7/7/7/7/3K3 b - 1 moves{cycle} 4g5g\n"),
    );
    let out = text(&kifu(&["check", "--variant", "torishogi", &tori]));
    assert!(
        out.contains("torishogi: ply 12 5a4a: repetition-loss (千日手); gote loses by foul"),
        "{out}"
    );
    assert!(
        out.contains("warning[moves-after-foul]: 1 move written after the foul"),
        "{out}"
    );
    // The KIF keeps the twelve plies and the word for the side to move:
    // sente, the winner, after gote's move.
    let kif = dir.path().join("tori.kif");
    let kif_s = kif.display().to_string();
    kifu(&[
        "convert",
        "-q",
        "--variant",
        "torishogi",
        "--to",
        "kifu",
        "-o",
        &kif_s,
        &tori,
    ]);
    let written = std::fs::read_to_string(&kif).unwrap();
    assert!(written.contains("\n  13 反則勝ち\n"), "{written}");
    assert!(!written.contains("反則負け"), "{written}");
    let back = text(&kifu(&["check", "--variant", "torishogi", &kif_s]));
    assert!(back.contains("ply 12 5a4a: repetition-loss"), "{back}");
    assert!(!back.contains("warning"), "{back}");
    // A KIF-notation record with two moves after the foul: the USI written
    // holds the thirteen plies once (the foul's move is the last of them,
    // not written again) and says what it leaves out.
    let mut moves = String::new();
    let cycle = [
        "５二飛不成(51)",
        "１一玉(12)",
        "５一飛不成(52)",
        "１二玉(11)",
    ];
    let all = ["５一飛不成(53)", "１二玉(11)"]
        .into_iter()
        .chain(cycle.into_iter().cycle().take(12))
        .chain(["５二飛不成(51)"]);
    for (i, m) in all.enumerate() {
        moves.push_str(&format!("{:>4} {m}\n", i + 1));
    }
    let mini_kif = write(
        &dir,
        "mini.kifu",
        &format!(
            "手合割：5五将棋\n#SFEN:4k/5/R4/5/K4 b - 1\n手数----指手---------消費時間--\n{moves}"
        ),
    );
    let out = text(&kifu(&["check", &mini_kif]));
    assert!(
        out.contains("minishogi: ply 13 5b5a: perpetual-check"),
        "{out}"
    );
    assert!(out.contains("warning[moves-after-foul]: 2 moves"), "{out}");
    for (to, name) in [("usi", "mini2.usi"), ("kifu", "mini2.kifu")] {
        let p = dir.path().join(name).display().to_string();
        let o = kifu(&["convert", "--to", to, "-o", &p, &mini_kif]);
        let said = String::from_utf8_lossy(&o.stderr).into_owned();
        assert!(
            said.contains("warning[moves-omitted]: game 1: 2 move(s) after ply 13 are not"),
            "{to}: {said}"
        );
        if to == "usi" {
            let line = std::fs::read_to_string(&p).unwrap();
            let written: Vec<&str> = line
                .split(" moves ")
                .nth(1)
                .unwrap()
                .split_whitespace()
                .collect();
            assert_eq!(written.len(), 13, "{line}");
            assert_eq!(written[12], "5b5a", "{line}");
        }
    }
}
