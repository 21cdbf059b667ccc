//! What is not a record is refused, and what is one is read as its format
//! means it: non-records saved with a record's extension, JSON files beside
//! records, CSA with no start position or side to move, USI end tokens.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

const GOOD: &str = "startpos moves 7g7f 3c3d\n";

/// A temporary directory holding `good.usi` and each `(name, body)`.
fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("good.usi"), GOOD).unwrap();
    for (name, body) in files {
        std::fs::write(d.path().join(name), body).unwrap();
    }
    d
}

fn run(dir: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kifu runs");
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    drop(input);
    child.wait_with_output().unwrap()
}

/// Exit code and stdout + stderr.
fn check(dir: &Path, args: &[&str]) -> (Option<i32>, String) {
    let mut all = vec!["check"];
    all.extend_from_slice(args);
    let o = run(dir, &all, None);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.code(), text)
}

const HTML_404: &str = "<!DOCTYPE html>\n<html><head><title>404 Not Found</title></head>\n\
    <body><h1>Not Found</h1>\n<p>https://example.com/games/a.kif</p>\n\
    <p>エラー：ページが見つかりません</p></body></html>\n";

const CARGO_TOML: &str = "[package]\nname = \"kifu\"\nversion = \"0.1.0\"\nedition = \"2024\"\n\n\
    [dependencies]\nnom = \"8\"\n";

#[test]
fn non_records_with_record_extensions_are_refused_with_exit_2() {
    let cases = [
        ("404.kif", HTML_404, "1:1", "<!DOCTYPE html>"),
        ("hello.kif", "\n  hello world\n", "2:3", "hello world"),
        ("Cargo.ki2", CARGO_TOML, "1:1", "[package]"),
        ("empty.jkf", "{}\n", "1:1", "{}"),
        ("foo.jkf", "{\"foo\": 1}\n", "1:1", "{\\\"foo\\\": 1}"),
    ];
    for (name, body, at, first) in cases {
        let d = dir_with(&[(name, body)]);
        let (code, all) = check(d.path(), &["good.usi", name]);
        assert_eq!(code, Some(2), "{name}: {all}");
        assert!(all.contains("good.usi: ok: 2 plies"), "{name}: {all}");
        let want = format!("{name}:{at}: not a shogi record: ");
        assert!(all.contains(&want), "{name}: {all}");
        assert!(
            all.contains(&format!("the first line is \"{first}\"")),
            "{name}: {all}"
        );
        assert!(all.contains("1 unreadable input"), "{name}: {all}");
        assert!(!all.contains(&format!("{name}: ok")), "{name}: {all}");
    }
}

#[test]
fn a_refused_non_record_gives_a_json_error_with_its_position() {
    let d = dir_with(&[("hello.kif", "\n\nhello world\n")]);
    let (code, all) = check(d.path(), &["--json", "hello.kif"]);
    assert_eq!(code, Some(2), "{all}");
    let line = all.lines().find(|l| l.contains("\"error\"")).expect(&all);
    let v: serde_json::Value = serde_json::from_str(line).unwrap();
    assert_eq!(v["error"]["line"], 3, "{line}");
    assert_eq!(v["error"]["column"], 1, "{line}");
    let msg = v["error"]["message"].as_str().unwrap();
    assert!(msg.contains("not a shogi record"), "{msg}");
}

#[test]
fn a_non_record_on_stdin_is_refused() {
    let d = tempfile::tempdir().unwrap();
    let o = run(d.path(), &["check", "-"], Some(HTML_404));
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("-:1:1: not a shogi record: "), "{err}");
}

#[test]
fn csa_read_with_from_kif_is_refused_and_the_format_named() {
    let csa = "V2.2\nN+sente\nN-gote\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n";
    let d = dir_with(&[("game.csa", csa)]);
    let (code, all) = check(d.path(), &["--from", "kif", "game.csa"]);
    assert_eq!(code, Some(2), "{all}");
    assert!(
        all.contains("game.csa:1:1: not a shogi record: read as KIF"),
        "{all}"
    );
    assert!(
        all.contains("looks like CSA, not the format chosen: try --from csa, or leave --from out"),
        "{all}"
    );
    // Read as what it is, it is a game.
    let (code, all) = check(d.path(), &["game.csa"]);
    assert_eq!(code, Some(0), "{all}");
    assert!(all.contains("game.csa: ok: 2 plies"), "{all}");
}

#[test]
fn convert_writes_no_file_for_a_non_record() {
    let d = dir_with(&[("404.kif", HTML_404)]);
    let o = run(
        d.path(),
        &["convert", "--to", "kif", "-o", "out.kif", "404.kif"],
        None,
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("not a shogi record"), "{err}");
    assert!(!d.path().join("out.kif").exists(), "{err}");
}

#[test]
fn a_header_only_kif_is_still_a_record() {
    let cases = [
        (
            "shogigui.kifu",
            "#KIF version=2.0 encoding=UTF-8\n手合割：平手\n先手：\n後手：\n手数----指手---------消費時間--\n",
        ),
        // Keys no writer defines, written as KIF writes keys.
        ("custom.kifu", "説明：任意の対局情報\nキーワード１：値１\n"),
        ("heading.kif", "手数----指手---------消費時間--\n"),
        ("names.ki2", "先手：甲\n後手：乙\n"),
    ];
    for (name, body) in cases {
        let d = dir_with(&[(name, body)]);
        let (code, all) = check(d.path(), &[name]);
        assert_eq!(code, Some(0), "{name}: {all}");
        assert!(
            all.contains(&format!("{name}: ok: 0 plies")),
            "{name}: {all}"
        );
    }
}

#[test]
fn directory_walk_reads_json_files_only_when_they_are_jkf() {
    let jkf = "{\"header\": {\"先手\": \"甲\"}, \"moves\": [{}, \
               {\"move\": {\"color\": 0, \"from\": {\"x\": 7, \"y\": 7}, \
               \"to\": {\"x\": 7, \"y\": 6}, \"piece\": \"FU\"}}]}";
    let d = dir_with(&[
        ("game.json", jkf),
        (
            "perft_expectations.json",
            "{\"startpos\": {\"depths\": {\"1\": 30}}}",
        ),
        ("list.json", "[1, 2, 3]"),
        ("settings.json", "{\"theme\": \"dark\"}"),
        // Opens like an object but breaks off: perhaps a JKF, so reported.
        ("broken.json", "{\"header\": {\"先手\": "),
    ]);
    let (code, all) = check(d.path(), &["."]);
    assert_eq!(code, Some(2), "{all}");
    assert!(all.contains("game.json: ok: 1 ply"), "{all}");
    assert!(all.contains("broken.json:1:"), "{all}");
    // Passed over, named only in the walk's note.
    for skipped in ["perft_expectations", "list", "settings"] {
        let lines: Vec<&str> = all.lines().filter(|l| l.contains(skipped)).collect();
        assert_eq!(lines.len(), 1, "{skipped}: {all}");
        assert!(
            lines[0].starts_with("kifu: note: passed over 3 .json files that are not JKF:"),
            "{skipped}: {all}"
        );
    }
    assert!(all.contains("3 files, 2 games"), "{all}");
    // Named on the command line, a JSON file that is no JKF is refused.
    let (code, all) = check(d.path(), &["settings.json"]);
    assert_eq!(code, Some(2), "{all}");
    assert!(
        all.contains("settings.json:1:1: not a shogi record"),
        "{all}"
    );
}

#[test]
fn a_ki2u_with_only_headers_and_a_closing_line_is_sniffed_as_ki2() {
    let body = "手合割：平手\n先手：甲\n後手：乙\nまで64手で先手の勝ち\n";
    let d = dir_with(&[("end.ki2u", body), ("end.kifu", body)]);
    let (_, all) = check(d.path(), &["--json", "end.ki2u", "end.kifu"]);
    let formats: Vec<String> = all
        .lines()
        .filter(|l| l.starts_with("{\"source\""))
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            format!("{} {}", v["source"].as_str().unwrap(), v["format"])
        })
        .collect();
    assert_eq!(formats, ["end.ki2u \"ki2\"", "end.kifu \"kif\""], "{all}");
}

/// The game objects `kifu check --json ARGS` prints, and its exit code.
fn json_games(dir: &Path, args: &[&str]) -> (Option<i32>, Vec<serde_json::Value>) {
    let mut all = vec!["--json"];
    all.extend_from_slice(args);
    let (code, text) = check(dir, &all);
    let games = text
        .lines()
        .filter(|l| l.starts_with("{\"source\""))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (code, games)
}

fn codes(game: &serde_json::Value) -> Vec<String> {
    game["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn csa_with_no_start_position_is_read_as_the_even_game_start() {
    let d = dir_with(&[
        ("resign.csa", "V2.2\n+\n%TORYO\n"),
        // As Shogi Wars exports are written (akicho8/bioshogi's spec files).
        (
            "wars.csa",
            "N+sente\nN-gote\n+\n+7776FU,T0\n-3334FU,T0\n+8822UM,T1\n%TORYO\n",
        ),
    ]);
    let (code, games) = json_games(d.path(), &["resign.csa", "wars.csa"]);
    assert_eq!(code, Some(0), "{games:?}");
    let resign = &games[0];
    assert_eq!(resign["result"]["reason"], "resign", "{resign}");
    assert_eq!(resign["result"]["winner"], "gote", "{resign}");
    assert_eq!(codes(resign), ["start-assumed"]);
    assert_eq!(resign["diagnostics"][0]["line"], 2, "{resign}");
    let wars = &games[1];
    assert_eq!(wars["verdict"]["legal"], true, "{wars}");
    assert_eq!(wars["plies"], 3, "{wars}");
    assert_eq!(wars["result"]["winner"], "sente", "{wars}");
    assert_eq!(codes(wars), ["start-assumed"]);
}

#[test]
fn csa_with_no_side_line_or_late_game_information_is_diagnosed() {
    let d = dir_with(&[
        ("noside.csa", "V2.2\nPI\n+7776FU\n-3334FU\n%TORYO\n"),
        ("late.csa", "V2.2\nPI\n+\nN+late\n+7776FU\n%TORYO\n"),
    ]);
    let (code, games) = json_games(d.path(), &["noside.csa", "late.csa"]);
    assert_eq!(code, Some(0), "{games:?}");
    assert_eq!(codes(&games[0]), ["no-side-to-move"]);
    assert_eq!(games[0]["plies"], 2, "{}", games[0]);
    assert_eq!(games[0]["result"]["winner"], "gote", "{}", games[0]);
    assert_eq!(codes(&games[1]), ["info-after-position"]);
    assert_eq!(games[1]["diagnostics"][0]["line"], 4, "{}", games[1]);
    // The text report names the file, line and code.
    let (_, text) = check(d.path(), &["noside.csa"]);
    assert!(
        text.contains("noside.csa:3:1: warning[no-side-to-move]"),
        "{text}"
    );
}

#[test]
fn a_bare_csa_version_line_is_a_warning_and_reading_goes_on() {
    let d = dir_with(&[("bare.csa", "V\nPI\n+\n+7776FU\n%TORYO\n")]);
    let (code, games) = json_games(d.path(), &["bare.csa"]);
    assert_eq!(code, Some(0), "{games:?}");
    assert_eq!(games[0]["format"], "csa");
    assert_eq!(games[0]["plies"], 1, "{}", games[0]);
    assert_eq!(codes(&games[0]), ["bare-version"]);
}

#[test]
fn usi_draw_is_a_plain_draw_not_a_sennichite_claim() {
    let d = dir_with(&[("draw.usi", "position startpos moves 7g7f 3c3d draw\n")]);
    let (code, games) = json_games(d.path(), &["draw.usi"]);
    assert_eq!(code, Some(0), "{games:?}");
    assert_eq!(games[0]["result"]["reason"], "draw", "{}", games[0]);
    assert_eq!(games[0]["result"]["winner"], serde_json::Value::Null);
    assert!(codes(&games[0]).is_empty(), "{}", games[0]);
}

#[test]
fn usi_lines_ending_in_an_end_token_keep_their_moves() {
    let lines = "position startpos moves 7g7f 3c3d resign\n\
                 position startpos moves 7g7f 3c3d 2g2f chudan\n\
                 position startpos moves 7g7f timeout\n\
                 startpos moves 7g7f 3c3d break\n";
    let d = dir_with(&[("ends.usi", lines)]);
    let (code, games) = json_games(d.path(), &["ends.usi"]);
    assert_eq!(code, Some(0), "{games:?}");
    let got: Vec<(u64, String)> = games
        .iter()
        .map(|g| {
            let reason = g["result"]["reason"].as_str().unwrap().to_string();
            (g["plies"].as_u64().unwrap(), reason)
        })
        .collect();
    let want = [
        (2, "resign"),
        (3, "interrupted"),
        (1, "time-up"),
        (2, "interrupted"),
    ];
    let want: Vec<(u64, String)> = want.iter().map(|(p, r)| (*p, r.to_string())).collect();
    assert_eq!(got, want, "{games:?}");
}

#[test]
fn a_kif_read_with_from_csa_names_the_format_its_content_looks_like() {
    let opts = kifu::ReadOptions::default().format(Some(kifu::Format::Csa));
    let kif = "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 投了\n";
    let e = kifu::read_bytes(kif.as_bytes(), None, &opts).unwrap_err();
    assert_eq!(
        e.hints().collect::<Vec<_>>(),
        [&kifu::Hint::LooksLike(kifu::Format::Kif)]
    );
    let text = e.to_string();
    assert!(text.contains("expected a CSA statement"), "{text}");
    assert!(
        text.ends_with("; the content looks like KIF, not the format chosen"),
        "{text}"
    );
    // The library names no option of the program; the program does.
    assert!(!text.contains("--"), "{text}");
    let d = dir_with(&[("game.kif", kif)]);
    let (code, all) = check(d.path(), &["--from", "csa", "game.kif"]);
    assert_eq!(code, Some(2), "{all}");
    assert!(
        all.contains("; the content looks like KIF, not the format chosen: try --from kif, or leave --from out"),
        "{all}"
    );
}

#[test]
fn a_wrong_encoding_names_the_one_the_bytes_read_cleanly_in() {
    let kif = "手合割：平手\n先手：山田\n   1 ７六歩(77)\n   2 投了\n";
    let sjis = encoding_rs::SHIFT_JIS.encode(kif).0.into_owned();
    for (label, name) in [("utf-8", "UTF-8"), ("euc-jp", "EUC-JP")] {
        let opts = kifu::ReadOptions::default().encoding(kifu::decode::encoding_by_label(label));
        let e = kifu::read_bytes(&sjis, None, &opts).unwrap_err();
        let hint = e.hints().next().copied();
        assert!(
            matches!(hint, Some(kifu::Hint::ReadsAs { clean, .. }) if clean == encoding_rs::SHIFT_JIS),
            "{label}: {hint:?}"
        );
        let text = e.to_string();
        assert!(
            text.contains(&format!(
                "the bytes are not {name} text as the encoding chosen says, but read cleanly as Shift_JIS"
            )),
            "{label}: {text}"
        );
        assert!(!text.contains("--"), "{label}: {text}");
    }
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("game.kif"), &sjis).unwrap();
    let (code, all) = check(d.path(), &["--encoding", "utf-8", "game.kif"]);
    assert_eq!(code, Some(2), "{all}");
    assert!(
        all.contains(
            "read cleanly as Shift_JIS: try --encoding shift_jis, or leave --encoding out"
        ),
        "{all}"
    );
    // The right one reads, with nothing to say.
    let opts = kifu::ReadOptions::default().encoding(kifu::decode::encoding_by_label("sjis"));
    assert_eq!(
        kifu::read_bytes(&sjis, None, &opts).unwrap().records.len(),
        1
    );
}

#[test]
fn each_parse_error_has_a_kind_a_caller_can_match() {
    use kifu::ParseErrorKind::*;
    let kif = |body: &str| format!("手合割：平手\n手数----指手--\n{body}");
    let cases: [(String, kifu::ParseErrorKind); 7] = [
        ("\n \n".into(), Empty),
        (kif("   1 ７六歩(77)\n   2 ３四歩(33\n"), Syntax),
        (
            kif("   1 ７六歩(77)\n   2 投了\n   3 ２六歩(27)\n"),
            Misplaced,
        ),
        (kif("▲７六歩\n"), Misplaced),
        (
            "手合割：謎落ち\n手数----指手--\n   1 ７六歩(77)\n".into(),
            StartPosition,
        ),
        (
            "position sfen 9/9/9 b - 1 moves 7g7f\n".into(),
            StartPosition,
        ),
        (
            kif("   1 ７六歩(77)\n\n変化：5手\n   5 ２六歩(27)\n"),
            Variation,
        ),
    ];
    for (text, kind) in cases {
        let e = kifu::read_bytes(text.as_bytes(), None, &kifu::ReadOptions::default()).unwrap_err();
        match e.kind() {
            kifu::ErrorKind::Parse(p) => assert_eq!(p.kind, kind, "{text:?}: {e}"),
            other => panic!("{text:?}: not a parse error: {other:?}"),
        }
    }
}
