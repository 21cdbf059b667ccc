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
    assert_eq!((e.span.line, e.span.column), (11, 9));
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
    for (rel, at) in [(KIF, "53:8"), (KI2, "11:9")] {
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
