//! One bad line does not lose the game: a syntax error after the first
//! move keeps the game read before it, `check` replays that part and says
//! where it stopped, and `convert --lenient` writes it with a warning.

use kifu::parse::{ki2, kif};
use kifu::replay::replay;
use kifu::{Format, ReplayOptions};
use std::path::PathBuf;
use std::process::{Command, Output};

fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
}

/// 104 moves of a real game; move 50 (`６四歩`) is written `６四歬`.
const KIF: &str = "kif/garbled-move-50.kifu";
/// The same game in KI2, six moves a line; move 50 is on line 11.
const KI2: &str = "ki2/garbled-move-50.ki2u";

fn kifu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .output()
        .expect("kifu runs")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn kif_garbled_move_line_keeps_the_moves_before_it() {
    let src = std::fs::read_to_string(fixture(KIF)).unwrap();
    let e = kif::parse(&src).expect_err("move 50 is garbled");
    assert_eq!((e.span.line, e.span.column), (53, 8));
    assert!(e.message.contains("expected a piece name"), "{}", e.message);
    let p = e.partial.expect("the game before the bad line");
    assert_eq!(p.format, Format::Kif);
    assert_eq!(p.record.main.moves.len(), 49);
    // Lines 53 to 109 (the last): none was read.
    assert_eq!(p.lines_left, 57);
    let g = replay(p.record, &ReplayOptions::default()).unwrap();
    assert!(g.main.verdict.is_legal(), "{:?}", g.main.verdict);
    assert_eq!(g.main.plies.len(), 49);
}

#[test]
fn ki2_garbled_move_keeps_the_moves_before_it_on_its_line_too() {
    let src = std::fs::read_to_string(fixture(KI2)).unwrap();
    let e = ki2::parse(&src).expect_err("move 50 is garbled");
    // The column of the bad piece name `歬`, not of its move's mark.
    assert_eq!((e.span.line, e.span.column), (11, 12));
    assert!(e.message.contains("expected a piece name"), "{}", e.message);
    let p = e.partial.expect("the game before the bad move");
    assert_eq!(p.format, Format::Ki2);
    // Moves 49 and the first of line 11 are kept: 49 in all.
    assert_eq!(p.record.main.moves.len(), 49);
    let g = replay(p.record, &ReplayOptions::default()).unwrap();
    assert!(g.main.verdict.is_legal(), "{:?}", g.main.verdict);
    assert_eq!(g.main.plies.len(), 49);
}

#[test]
fn syntax_error_before_the_first_move_has_no_partial_game() {
    let e = kif::parse("手合割：平手\n▲７六歩\n   1 ７六歩(77)\n").expect_err("a KI2 move");
    assert!(e.partial.is_none(), "{e:?}");
}

#[test]
fn check_reports_the_error_then_replays_the_readable_part() {
    for (rel, at) in [(KIF, "53:8"), (KI2, "11:12")] {
        let path = fixture(rel);
        let out = kifu(&["check", path.to_str().unwrap()]);
        let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(
            stderr.contains(&format!(
                "garbled-move-50.{}:{at}: expected a piece name",
                &rel[rel.len() - 4..]
            )),
            "{stderr}"
        );
        let line = at.split(':').next().unwrap();
        assert!(
            stdout.contains(&format!(
                "partial: the 49 moves before line {line} replayed"
            )),
            "{stdout}"
        );
        assert!(
            stdout.contains(": ok: 49 plies, no result recorded"),
            "{stdout}"
        );
    }
}

#[test]
fn check_json_holds_the_partial_game_in_the_error() {
    let path = fixture(KIF);
    let out = kifu(&["check", "--json", path.to_str().unwrap()]);
    let first = text(&out.stdout)
        .lines()
        .next()
        .unwrap_or_default()
        .to_string();
    let v: serde_json::Value = serde_json::from_str(&first).expect("one JSON line");
    assert_eq!(v["error"]["line"], 53);
    assert_eq!(v["partial"]["stopped_at_line"], 53);
    assert_eq!(v["partial"]["game"]["plies"], 49);
    assert_eq!(v["partial"]["game"]["format"], "kif");
}

#[test]
fn convert_without_lenient_leaves_the_file_unconverted_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let path = fixture(KIF);
    let out = kifu(&[
        "convert",
        "--to",
        "csa",
        "--out-dir",
        dir.path().to_str().unwrap(),
        path.to_str().unwrap(),
    ]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains(":53:8: expected a piece name"), "{stderr}");
    assert!(
        stderr.contains("not converted (--lenient writes the 49 moves before it)"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn convert_lenient_writes_the_readable_part_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    for rel in [KIF, KI2] {
        let target = dir.path().join(format!("{}.csa", &rel[..3]));
        let path = fixture(rel);
        let out = kifu(&[
            "convert",
            "--lenient",
            "--to",
            "csa",
            "-o",
            target.to_str().unwrap(),
            path.to_str().unwrap(),
        ]);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        assert!(stderr.contains("warning[partial-game]"), "{stderr}");
        assert!(
            stderr.contains("converted the 49 moves before it"),
            "{stderr}"
        );
        let csa = std::fs::read_to_string(&target).unwrap();
        let moves = csa
            .lines()
            .filter(|l| l.starts_with(['+', '-']) && l.len() >= 7)
            .count();
        assert_eq!(moves, 49, "{csa}");
    }
}

#[test]
fn variation_from_a_terminal_move_is_read_as_an_alternative_to_the_ending() {
    // 変化：4手 where move 4 is 中断: once refused whole, now a variation
    // played from the position after move 3.
    let src = std::fs::read_to_string(fixture("kif/variation-from-terminal.kifu")).unwrap();
    let mut records = kif::parse(&src).expect("a variation from the terminal is readable");
    let record = records.remove(0);
    assert_eq!(record.main.moves.len(), 3);
    assert_eq!(record.main.ending_variations.len(), 1);
    let g = replay(record, &ReplayOptions::default()).unwrap();
    assert_eq!(g.main.result.reason, "interrupted");
    assert_eq!(g.variations.len(), 1);
    assert_eq!(g.variations[0].entry, 3);
    assert_eq!(g.variations[0].line.first_ply, 4);
    assert_eq!(g.variations[0].line.plies.len(), 2);
    assert_eq!(g.variations[0].line.result.reason, "resign");
}

/// Three CSA games under one version line; the second has a garbled piece
/// code on line 13, after two moves.
const CSA_MULTI: &str = "V2.2\nN+a\nPI\n+\n+7776FU\n%TORYO\n/\n\
                         N+b\nPI\n+\n+7776FU\n-3334FU\n+2726XX\n-8384FU\n%TORYO\n/\n\
                         PI\n+\n+2726FU\n%TORYO\n";

fn csa_file(dir: &tempfile::TempDir, text: &str) -> PathBuf {
    let path = dir.path().join("g.csa");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn csa_garbled_move_keeps_the_moves_before_it_with_the_files_fields_and_its_index() {
    let each = kifu::parse::csa::parse_each(CSA_MULTI);
    assert_eq!(each.len(), 3);
    let (index, Err(e)) = &each[1] else {
        panic!("the second game is garbled: {each:?}")
    };
    assert_eq!(*index, 1);
    assert_eq!((e.span.line, e.span.column), (13, 6));
    assert_eq!(e.message, "expected a piece code such as FU, found 'X'");
    let p = e.partial.as_ref().expect("the game before the bad line");
    assert_eq!(p.format, Format::Csa);
    assert_eq!(p.record.index, 1);
    // Lines 13 to 15, the end of the game: the third game is read as always.
    assert_eq!(p.lines_left, 3);
    let header: Vec<(&str, &str)> = p
        .record
        .header
        .iter()
        .map(|h| (h.key.as_str(), h.value.as_str()))
        .collect();
    assert_eq!(header, [("Version", "2.2"), ("N+", "b")]);
    let g = replay(p.record.clone(), &ReplayOptions::default()).unwrap();
    assert!(g.main.verdict.is_legal(), "{:?}", g.main.verdict);
    assert_eq!(g.main.plies.len(), 2);
    assert!(each[2].1.is_ok());
    // A bad line before the first move leaves nothing to keep.
    let e = kifu::parse::csa::parse("PI\n+7776XX\n").expect_err("garbled");
    assert!(e.partial.is_none(), "{e:?}");
}

#[test]
fn check_reports_a_garbled_csa_game_by_its_place_then_replays_its_readable_part() {
    let dir = tempfile::tempdir().unwrap();
    let path = csa_file(&dir, CSA_MULTI);
    let out = kifu(&["check", path.to_str().unwrap()]);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("g.csa:13:6: expected a piece code such as FU, found 'X' (game 2)"),
        "{stderr}"
    );
    assert!(
        stdout.contains(
            "g.csa: partial: the 2 moves before line 13 replayed; 3 lines from there on not read"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("g.csa (game 2): ok: 2 plies"), "{stdout}");
    assert!(stdout.contains("g.csa (game 3): ok: 1 ply"), "{stdout}");
    let out = kifu(&["check", "--json", path.to_str().unwrap()]);
    let games: Vec<serde_json::Value> = text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|v: &serde_json::Value| v.get("source").is_some())
        .collect();
    assert_eq!(games.len(), 3, "{games:?}");
    let bad = &games[1];
    assert_eq!(bad["index"], 1);
    assert_eq!(bad["error"]["line"], 13);
    assert_eq!(bad["partial"]["stopped_at_line"], 13);
    assert_eq!(bad["partial"]["lines_left"], 3);
    assert_eq!(bad["partial"]["game"]["index"], 1);
    assert_eq!(bad["partial"]["game"]["plies"], 2);
    assert_eq!(bad["partial"]["game"]["format"], "csa");
    assert_eq!(bad["partial"]["game"]["verdict"]["legal"], true);
    assert_eq!(games[2]["index"], 2);
}

#[test]
fn convert_writes_a_garbled_csa_games_readable_part_only_with_lenient() {
    let dir = tempfile::tempdir().unwrap();
    let path = csa_file(&dir, CSA_MULTI);
    // The exit code, the messages and how many files were written.
    let convert = |lenient: bool| {
        let out_dir = dir.path().join(if lenient { "lenient" } else { "strict" });
        let out_dir = out_dir.to_str().unwrap().to_string();
        let mut args = vec!["convert", "--to", "usi", "--out-dir", &out_dir];
        if lenient {
            args.push("--lenient");
        }
        args.push(path.to_str().unwrap());
        let out = kifu(&args);
        let files = std::fs::read_dir(&out_dir).map_or(0, |d| d.count());
        (out.status.code(), text(&out.stderr), files)
    };
    let (code, stderr, files) = convert(false);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("(game 2); not converted (--lenient writes the 2 moves before it)"),
        "{stderr}"
    );
    assert_eq!(files, 1, "the USI file of the two other games");
    let (code, stderr, _) = convert(true);
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("warning[partial-game]"), "{stderr}");
    assert!(
        stderr.contains("converted the 2 moves before it"),
        "{stderr}"
    );
    // The USI lines, one a game: the readable part is the second.
    let out = kifu(&[
        "convert",
        "--lenient",
        "--to",
        "usi",
        path.to_str().unwrap(),
    ]);
    let lines: Vec<String> = text(&out.stdout).lines().map(str::to_string).collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(lines[1].ends_with("moves 7g7f 3c3d"), "{lines:?}");
}

#[test]
fn a_garbled_csa_game_read_as_a_stream_keeps_what_a_whole_read_keeps() {
    // The library's reader, a few bytes at a time.
    let whole = kifu::parse::csa::parse_each(CSA_MULTI);
    let mut reader = kifu::ReaderBuilder::new()
        .format(kifu::Format::Csa)
        .from_reader(CSA_MULTI.as_bytes())
        .unwrap();
    let streamed: Vec<_> = reader.records().collect();
    assert_eq!(streamed.len(), whole.len());
    for (s, (_, w)) in streamed.iter().zip(&whole) {
        match (s, w) {
            (Ok(s), Ok(w)) => assert_eq!(s, w),
            (Err(s), Err(w)) => assert_eq!(s.partial(), w.partial.as_deref()),
            _ => panic!("{s:?} against {w:?}"),
        }
    }
    // The CLI's reader of a file too large to read whole: the partial game,
    // far down the file, keeps the version line at its top.
    let mut big = String::from("V2.2\n");
    for i in 0..12_000 {
        big.push_str(&format!(
            "N+p{i}\nPI\n+\n+7776FU\nT1\n-3334FU\nT2\n%TORYO\n/\n"
        ));
    }
    big.push_str("N+b\nPI\n+\n+7776FU\n-3334FU\n+2726XX\n");
    assert!(big.len() > 512 * 1024);
    let dir = tempfile::tempdir().unwrap();
    let path = csa_file(&dir, &big);
    let out = kifu(&[
        "convert",
        "--lenient",
        "--to",
        "json",
        "-j2",
        path.to_str().unwrap(),
    ]);
    let last = text(&out.stdout)
        .lines()
        .last()
        .unwrap_or_default()
        .to_string();
    let v: serde_json::Value = serde_json::from_str(&last).expect("a JSON line");
    let whole = kifu::parse::csa::parse_each(&big);
    let (index, Err(e)) = whole.last().unwrap() else {
        panic!("the last game is garbled")
    };
    let p = e.partial.as_ref().unwrap();
    assert_eq!(v["index"], *index);
    let raw: Vec<(String, String)> = p
        .record
        .header
        .iter()
        .map(|h| (h.key.clone(), h.value.clone()))
        .collect();
    assert_eq!(
        raw,
        [("Version".into(), "2.2".into()), ("N+".into(), "b".into())]
    );
    assert_eq!(v["header"]["raw"], serde_json::json!(raw));
    assert_eq!(v["moves"].as_array().map(Vec::len), Some(2));
}
