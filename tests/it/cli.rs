//! The `kifu` command: exit codes, output shapes, batches and safe writes.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn kifu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .output()
        .expect("kifu runs")
}

/// Fail, showing kifu's stderr, unless it exited with `code`.
fn assert_exit(o: &Output, code: i32) {
    assert_eq!(
        o.status.code(),
        Some(code),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn fixture(p: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(p)
        .display()
        .to_string()
}

#[test]
fn perft_from_the_start_sfen_prints_25470_at_depth_3() {
    let o = kifu(&[
        "perft",
        "--sfen",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "3",
    ]);
    assert!(o.status.success());
    assert_eq!(stdout(&o).lines().last(), Some("25470"));
}

#[test]
fn perft_divide_lists_every_move_then_the_total() {
    let o = kifu(&["perft", "--divide", "2"]);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 31);
    assert_eq!(lines[30], "900");
    assert!(lines.contains(&"7g7f: 30"), "{out}");
}

#[test]
fn check_reports_a_foul_with_file_line_column_and_exits_1() {
    let o = kifu(&["check", &fixture("usi/nifu.usi")]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(
        out.contains("nifu.usi:3:65: ply 9 ▲７六歩打 (P*7f): nifu: sente already has an unpromoted pawn on file 7; sente loses by foul"),
        "{out}"
    );
}

#[test]
fn check_json_gives_the_documented_fields() {
    let o = kifu(&["check", "--json", &fixture("usi/nifu.usi")]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["format"], "usi");
    assert_eq!(v["index"], 0);
    assert_eq!(v["plies"], 8);
    assert_eq!(v["verdict"]["legal"], false);
    assert_eq!(v["verdict"]["ply"], 9);
    assert_eq!(v["verdict"]["rule"], "nifu");
    assert_eq!(v["verdict"]["loser"], "sente");
    assert_eq!(v["verdict"]["move"], "P*7f");
    assert_eq!(v["verdict"]["line"], 3);
    assert_eq!(v["verdict"]["column"], 65);
    assert_eq!(v["result"]["winner"], "gote");
    assert_eq!(v["result"]["reason"], "foul");
    assert_eq!(v["diagnostics"][0]["code"], "moves-after-foul");
}

#[test]
fn a_thousand_game_usi_file_gives_a_thousand_json_lines_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many.usi");
    let mut text = String::new();
    for i in 0..1000 {
        if i == 500 {
            // One foul in the middle: 7g7f twice.
            text.push_str("position startpos moves 7g7f 3c3d 7g7f\n");
        } else if i % 2 == 0 {
            text.push_str("position startpos moves 7g7f 3c3d 2g2f\n");
        } else {
            text.push_str("position startpos moves 2g2f\n");
        }
    }
    std::fs::write(&path, text).unwrap();
    let o = kifu(&["check", "--json", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "one foul gives exit code 1");
    let out = stdout(&o);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1000);
    for (i, v) in lines.iter().enumerate() {
        assert_eq!(v["index"], i, "games come out in input order");
        let plies = if i == 500 {
            2
        } else if i % 2 == 0 {
            3
        } else {
            1
        };
        assert_eq!(v["plies"], plies, "game {i}");
    }
    assert_eq!(lines[500]["verdict"]["rule"], "no-piece");
}

#[test]
fn an_unreadable_file_does_not_stop_the_batch_and_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.usi"), "position startpos moves 7g7f\n").unwrap();
    std::fs::write(dir.path().join("b.usi"), "position startpos moves 7g7x\n").unwrap();
    std::fs::write(dir.path().join("c.csa"), "V2.2\nPI\n+\n+7776FU\n%TORYO\n").unwrap();
    let o = kifu(&["check", dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let out = stdout(&o);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(out.contains("a.usi: ok"), "{out}");
    assert!(out.contains("c.csa: ok"), "{out}");
    assert!(err.contains("b.usi:1:25: expected a USI move"), "{err}");
    assert!(
        out.contains("3 files, 2 games: 2 legal, 0 with fouls; 1 unreadable input"),
        "{out}"
    );
}

#[test]
fn check_reads_stdin() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["check", "--json", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"position startpos moves 7g7f 3c3d\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["source"], "-");
    assert_eq!(v["plies"], 2);
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(kifu(&["check", "--from", "nope"]).status.code(), Some(2));
    assert_eq!(kifu(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(kifu(&["--version"]).status.code(), Some(0));
}

fn tree_with_two_games() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    std::fs::create_dir_all(input.join("sub")).unwrap();
    std::fs::write(
        input.join("a.csa"),
        "V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n",
    )
    .unwrap();
    std::fs::write(input.join("sub/b.usi"), "position startpos moves 2g2f\n").unwrap();
    (dir, input)
}

#[test]
fn convert_to_usi_mirrors_the_tree_and_never_overwrites_without_force() {
    let (dir, input) = tree_with_two_games();
    let out = dir.path().join("out");
    let args = [
        "convert",
        "--to",
        "usi",
        "--out-dir",
        out.to_str().unwrap(),
        input.to_str().unwrap(),
    ];
    let o = kifu(&args);
    assert_exit(&o, 0);
    assert_eq!(
        std::fs::read_to_string(out.join("a.usi")).unwrap(),
        "position startpos moves 7g7f 3c3d\n"
    );
    assert_eq!(
        std::fs::read_to_string(out.join("sub/b.usi")).unwrap(),
        "position startpos moves 2g2f\n"
    );
    // A second run refuses to overwrite; --force replaces atomically.
    std::fs::write(out.join("a.usi"), "keep me\n").unwrap();
    let o = kifu(&args);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        std::fs::read_to_string(out.join("a.usi")).unwrap(),
        "keep me\n"
    );
    let mut forced = args.to_vec();
    forced.push("--force");
    assert_eq!(kifu(&forced).status.code(), Some(0));
    assert_eq!(
        std::fs::read_to_string(out.join("a.usi")).unwrap(),
        "position startpos moves 7g7f 3c3d\n"
    );
    // No temporary files are left behind.
    let names: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(names.len(), 2, "{names:?}");
}

#[test]
fn convert_to_a_one_game_per_file_format_needs_out_dir_for_several_inputs() {
    let (_dir, input) = tree_with_two_games();
    let o = kifu(&["convert", "--to", "kif", input.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--out-dir"));
}

#[test]
fn convert_one_input_to_stdout_and_to_a_file() {
    let first = kifu(&["convert", "--to", "usi", &fixture("csa/v3.csa")]);
    assert_eq!(first.status.code(), Some(0));
    assert!(
        stdout(&first).starts_with("position startpos moves 2g2f 8c8d"),
        "{}",
        stdout(&first)
    );
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("x.usi");
    let o = kifu(&[
        "convert",
        "--to",
        "usi",
        "-o",
        target.to_str().unwrap(),
        &fixture("csa/v3.csa"),
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(o.stdout.is_empty());
    assert_eq!(std::fs::read(&target).unwrap(), first.stdout);
}

#[test]
fn convert_to_csa_reads_back_as_the_same_game() {
    let dir = tempfile::tempdir().unwrap();
    let csa = dir.path().join("g.csa");
    let o = kifu(&[
        "convert",
        "--to",
        "csa",
        "-o",
        csa.to_str().unwrap(),
        &fixture("usi/games.usi"),
    ]);
    assert_exit(&o, 0);
    let text = std::fs::read_to_string(&csa).unwrap();
    assert!(text.starts_with("V2.2\n"), "{text}");
    assert_eq!(
        text.matches("\n/\n").count(),
        2,
        "three games in one multi-game file"
    );
    let back = kifu(&["convert", "--to", "usi", csa.to_str().unwrap()]);
    let original = std::fs::read_to_string(fixture("usi/games.usi")).unwrap();
    let want: Vec<&str> = original.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(stdout(&back).lines().collect::<Vec<_>>(), want);
}

/// A multi-game CSA text of `n` short games, each a little different, large
/// enough (> 256 KiB) to take the streaming path when read from a file.
fn many_csa_games(n: usize) -> String {
    let moves = [
        "+7776FU", "-3334FU", "+2726FU", "-8384FU", "+2625FU", "-8485FU", "+6978KI", "-4132KI",
    ];
    let mut s = String::from("V2.2\n");
    for i in 0..n {
        if i > 0 {
            s.push_str("/\n");
        }
        s.push_str(&format!(
            "N+player {i}\nN-opponent {i}\n$EVENT:stream test\nPI\n+\n"
        ));
        let k = 1 + i % moves.len();
        for m in &moves[..k] {
            s.push_str(m);
            s.push_str("\nT3\n");
        }
        s.push_str("%TORYO\n");
    }
    s
}

#[test]
fn a_3000_game_csa_file_streams_through_check_json_in_order() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many.csa");
    std::fs::write(&path, many_csa_games(3000)).unwrap();
    assert!(std::fs::metadata(&path).unwrap().len() > 256 * 1024);
    let o = kifu(&["check", "--json", "-j2", path.to_str().unwrap()]);
    assert_exit(&o, 0);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3000);
    for (i, l) in lines.iter().enumerate() {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        assert_eq!(v["index"], i, "{l}");
        assert_eq!(v["plies"], 1 + i % 8, "{l}");
    }
    let err = String::from_utf8_lossy(&o.stderr);
    let summary: serde_json::Value = serde_json::from_str(err.lines().last().unwrap()).unwrap();
    assert_eq!(summary["summary"]["games"], 3000);
}

#[test]
fn a_bad_game_in_a_streamed_csa_file_names_its_file_line_and_the_rest_go_on() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many.csa");
    let mut text = many_csa_games(3000);
    // Break game 1000 (index 999) with a position statement after its moves.
    let at = text.match_indices("N+player 999\n").next().unwrap().0;
    let end = at + text[at..].find("%TORYO").unwrap();
    text.insert_str(end, "P1 oops\n");
    std::fs::write(&path, &text).unwrap();
    let bad_line = text[..end].lines().count() + 1;
    let o = kifu(&["check", "--json", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3000);
    let v: serde_json::Value = serde_json::from_str(lines[999]).unwrap();
    assert_eq!(v["index"], 999);
    assert_eq!(v["error"]["line"], bad_line, "{v}");
    let v: serde_json::Value = serde_json::from_str(lines[2999]).unwrap();
    assert_eq!(v["index"], 2999);
}

#[test]
fn check_json_ends_with_a_summary_object_on_stderr() {
    let o = kifu(&["check", "--json", &fixture("")]);
    let err = String::from_utf8_lossy(&o.stderr);
    let v: serde_json::Value = serde_json::from_str(err.lines().last().unwrap()).unwrap();
    let s = &v["summary"];
    for key in [
        "files",
        "games",
        "plies",
        "legal",
        "fouls",
        "fouls_by_rule",
        "unreadable",
        "warnings",
        "elapsed_s",
        "games_per_s",
        "plies_per_s",
    ] {
        assert!(!s[key].is_null(), "{key} missing in {v}");
    }
    assert_eq!(s["fouls_by_rule"]["nifu"], 1);
    assert_eq!(
        s["games"].as_u64().unwrap(),
        s["legal"].as_u64().unwrap() + s["fouls"].as_u64().unwrap()
    );
}

#[test]
fn summary_file_is_written_by_check_and_convert() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.json");
    kifu(&[
        "check",
        "-q",
        "--summary",
        file.to_str().unwrap(),
        &fixture("usi"),
    ]);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert!(v["summary"]["games"].as_u64().unwrap() > 0);
    let file2 = dir.path().join("c.json");
    let out = dir.path().join("out");
    kifu(&[
        "convert",
        "--to",
        "usi",
        "-q",
        "--out-dir",
        out.to_str().unwrap(),
        "--summary",
        file2.to_str().unwrap(),
        &fixture("usi"),
    ]);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file2).unwrap()).unwrap();
    assert!(v["summary"]["games"].as_u64().unwrap() > 0);
}

#[test]
fn stats_on_the_fixtures_counts_results_endings_lengths_handicaps_and_fouls() {
    let o = kifu(&["stats", "--json", &fixture("")]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let games = v["games"].as_u64().unwrap();
    assert!(games > 0);
    let sum = |o: &serde_json::Value| -> u64 {
        o.as_object()
            .unwrap()
            .values()
            .map(|x| x.as_u64().unwrap())
            .sum()
    };
    assert_eq!(sum(&v["endings"]), games);
    assert_eq!(sum(&v["handicaps"]), games);
    assert_eq!(sum(&v["lengths"]["histogram"]), games);
    let results: u64 = v["results"].as_object().unwrap().values().map(sum).sum();
    assert_eq!(results, games);
    assert_eq!(v["fouls_by_rule"]["nifu"], 1);
    assert!(v["lengths"]["min"].as_u64() <= v["lengths"]["median"].as_u64());
    let text = stdout(&kifu(&["stats", &fixture("")]));
    assert!(
        text.contains("handicaps:") && text.contains("lengths:"),
        "{text}"
    );
}

#[test]
fn stats_exits_0_on_games_with_fouls_and_2_on_an_unreadable_input() {
    // docs/cli.md's exit-code table: stats counts fouls, it does not judge.
    let nifu = fixture("usi/nifu.usi");
    let o = kifu(&["stats", "--json", &nifu]);
    assert_exit(&o, 0);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["fouls_by_rule"]["nifu"], 1);
    let d = tempfile::tempdir().unwrap();
    let empty = d.path().join("empty.csa");
    std::fs::write(&empty, "\n").unwrap();
    assert_exit(&kifu(&["stats", &nifu, empty.to_str().unwrap()]), 2);
    // Variant records take their own path to the same codes.
    let mini = d.path().join("m.usi");
    std::fs::write(
        &mini,
        "setoption name UCI_Variant value minishogi\nposition startpos moves 5d5c+\n",
    )
    .unwrap();
    assert_exit(&kifu(&["stats", mini.to_str().unwrap()]), 0);
}

#[test]
fn completions_for_bash_are_not_empty() {
    let o = kifu(&["completions", "bash"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(stdout(&o).contains("kifu"));
}

#[test]
fn man_page_is_not_empty() {
    let o = kifu(&["man"]);
    assert_eq!(o.status.code(), Some(0));
    let s = stdout(&o);
    assert!(s.contains(".TH") && s.contains("check"), "{s}");
}

#[test]
fn man_out_dir_writes_one_page_per_command() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("man1");
    let o = kifu(&["man", "--out-dir", out.to_str().unwrap()]);
    assert_exit(&o, 0);
    for page in [
        "kifu.1",
        "kifu-check.1",
        "kifu-convert.1",
        "kifu-show.1",
        "kifu-stats.1",
        "kifu-analyze.1",
        "kifu-dedup.1",
        "kifu-select.1",
        "kifu-explore.1",
        "kifu-classify.1",
    ] {
        let text = std::fs::read_to_string(out.join(page)).unwrap();
        assert_eq!(text.matches(".TH").count(), 1, "{page}: one page per file");
    }
    let check = std::fs::read_to_string(out.join("kifu-check.1")).unwrap();
    assert!(check.contains("jobs"), "kifu-check.1 documents its options");
    // One page per command (check, convert, show, perft, stats, analyze,
    // dedup, select, explore, classify, completions, man) and kifu.1;
    // nothing else (no temporary files) is left behind.
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 13);
}

#[test]
fn output_with_j2_is_the_same_as_with_j1_on_a_directory() {
    let dir = tempfile::tempdir().unwrap();
    for i in 0..150 {
        let moves = ["7g7f", "3c3d", "2g2f", "8c8d", "2f2e"];
        let k = 1 + i % moves.len();
        std::fs::write(
            dir.path().join(format!("g{i:03}.usi")),
            format!("position startpos moves {}\n", moves[..k].join(" ")),
        )
        .unwrap();
    }
    let d = dir.path().to_str().unwrap();
    let one = stdout(&kifu(&["check", "--json", "-j1", d]));
    let two = stdout(&kifu(&["check", "--json", "-j2", d]));
    assert_eq!(one.lines().count(), 150);
    assert_eq!(one, two);
}

#[test]
fn an_undecodable_game_in_a_streamed_file_keeps_the_games_before_and_the_next_file() {
    let dir = tempfile::tempdir().unwrap();
    // Game 2,501 (index 2,500) holds a NUL byte: binary data, not text.
    let games: Vec<String> = many_csa_games(3000)
        .split("/\n")
        .map(str::to_string)
        .collect();
    let mut text = games[..2500].join("/\n");
    text.push_str("/\n");
    text.push_str(&games[2500].replacen("T3", "T\u{0}3", 1));
    text.push_str("/\n");
    text.push_str(&games[2501..].join("/\n"));
    let big = dir.path().join("a.csa");
    std::fs::write(&big, text).unwrap();
    assert!(std::fs::metadata(&big).unwrap().len() > 256 * 1024);
    std::fs::write(dir.path().join("b.csa"), "PI\n+\n+7776FU\n%TORYO\n").unwrap();
    for jobs in ["-j1", "-j2"] {
        let o = kifu(&["check", "--json", jobs, dir.path().to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "an unreadable input gives 2");
        let out = stdout(&o);
        let games = out.lines().filter(|l| l.contains("\"plies\"")).count();
        // Every game before the bad one, then the next file's game.
        assert_eq!(games, 2500 + 1, "{jobs}");
        assert!(out.contains("b.csa"), "{jobs}: the next file is checked");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            out.contains("the game starting at line") || err.contains("the game starting at line"),
            "{jobs}: the bad game is located: {err}"
        );
    }
}

/// `check` names a perpetual check's foul by the move that completed the
/// repetition, with that move's own side mark and no bogus 同 (the ply is
/// itself the last one played), in every format.
#[test]
fn check_names_a_perpetual_checks_move_with_its_own_side() {
    for f in [
        "kif/perpetual-check.kifu",
        "ki2/perpetual-check.ki2u",
        "csa/perpetual-check.csa",
        "jkf/perpetual-check.jkf",
    ] {
        let o = kifu(&["check", &fixture(f)]);
        assert_exit(&o, 1);
        let out = stdout(&o);
        assert!(
            out.contains(": ply 12 △１一玉 (1b1a): perpetual-check: "),
            "{f}: {out}"
        );
        assert!(out.contains("; sente loses by foul\n"), "{f}: {out}");
        assert!(!out.contains("同"), "{f}: {out}");
    }
}
