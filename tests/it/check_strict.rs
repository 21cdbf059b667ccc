//! `kifu check --strict`: every diagnostic (and every warning about an
//! input's bytes) fails the run with exit 1, and the JSON names the codes.

use std::path::Path;
use std::process::{Command, Output, Stdio};

fn kifu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("kifu runs")
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> String {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p.display().to_string()
}

/// The exit codes of `check FILE` and `check --strict FILE`.
fn codes(file: &str) -> (Option<i32>, Option<i32>) {
    let lenient = kifu(&["check", file]).status.code();
    let strict = kifu(&["check", "--strict", file]).status.code();
    (lenient, strict)
}

/// `check --strict --json FILE`: the game objects of stdout and the summary
/// object of stderr's last line.
fn strict_json(file: &str) -> (Vec<serde_json::Value>, serde_json::Value) {
    let o = kifu(&["check", "--strict", "--json", file]);
    let games = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    let last = err.lines().last().unwrap_or_default();
    let summary: serde_json::Value = serde_json::from_str(last).unwrap();
    (games, summary["summary"].clone())
}

/// A record whose only finding is diagnostic `code`: exit 0 without
/// `--strict`, 1 with it, and the JSON says `code` did it.
fn assert_fails_only_strictly(name: &str, bytes: &[u8], code: &str) {
    let d = tempfile::tempdir().unwrap();
    let f = write(d.path(), name, bytes);
    assert_eq!(codes(&f), (Some(0), Some(1)), "{code}");
    let (games, summary) = strict_json(&f);
    assert_eq!(games.len(), 1, "{games:?}");
    assert_eq!(games[0]["strict_failures"], serde_json::json!([code]));
    assert_eq!(summary["strict"]["failed"], 1, "{summary}");
    assert_eq!(summary["strict"]["by_code"][code], 1, "{summary}");
}

#[test]
fn strict_fails_on_start_assumed() {
    assert_fails_only_strictly("a.csa", b"+\n+7776FU\n-3334FU\n%TORYO\n", "start-assumed");
}

#[test]
fn strict_fails_on_no_side_to_move() {
    assert_fails_only_strictly(
        "a.csa",
        b"V2.2\nPI\n+7776FU\n-3334FU\n%TORYO\n",
        "no-side-to-move",
    );
}

#[test]
fn strict_fails_on_info_after_position() {
    assert_fails_only_strictly(
        "a.csa",
        b"V2.2\nPI\n+\nN+sente\n+7776FU\n-3334FU\n%TORYO\n",
        "info-after-position",
    );
}

#[test]
fn strict_fails_on_bare_version() {
    assert_fails_only_strictly("a.csa", b"V\nPI\n+\n+7776FU\n%TORYO\n", "bare-version");
}

#[test]
fn strict_fails_on_a_kif_closing_count_that_disagrees() {
    let kif = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\nまで5手で後手の勝ち\n";
    assert_fails_only_strictly("a.kifu", kif.as_bytes(), "closing-count-disagrees");
}

#[test]
fn strict_fails_on_a_diagnostic_found_only_in_a_variation() {
    let kif = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\nまで2手で後手の勝ち\n\n変化：2手\n   2 ８四歩(83)\n   3 詰み\n";
    assert_fails_only_strictly("v.kifu", kif.as_bytes(), "false-mate-claim");
    let d = tempfile::tempdir().unwrap();
    let f = write(d.path(), "v.kifu", kif.as_bytes());
    let (games, _) = strict_json(&f);
    // The main line's own list is empty: the code comes from the variation.
    assert_eq!(games[0]["diagnostics"], serde_json::json!([]));
}

#[test]
fn strict_fails_on_an_input_read_with_replaced_bytes() {
    let d = tempfile::tempdir().unwrap();
    let mut bytes = b"# \xff\xfe\n".to_vec();
    bytes.extend_from_slice("手合割：平手\n   1 ７六歩(77)\n".as_bytes());
    let f = write(d.path(), "a.kifu", &bytes);
    assert_eq!(codes(&f), (Some(0), Some(1)));
    let (games, summary) = strict_json(&f);
    // The game itself has no diagnostic; the input's warning fails it.
    assert_eq!(games[0]["strict_failures"], serde_json::json!([]));
    assert_eq!(
        summary["strict"]["by_code"]["input-warning"], 1,
        "{summary}"
    );
}

#[test]
fn strict_fails_on_a_variant_game_diagnostic() {
    // Minishogi: gote is mated at ply 19, and the record then says "draw".
    let usi = "setoption name UCI_Variant value minishogi\nposition startpos moves 1e1d 4a1d 2e1d R*2d B*1e 2d2e 5e4d 2e3e 4e5e 5a5d 4d5d S*3d 1d2c 2a2b R*3b P*3c 3b3a+ 2b2a S*2b draw\n";
    assert_fails_only_strictly("m.usi", usi.as_bytes(), "ending-disagrees");
}

#[test]
fn strict_passes_a_clean_record_with_exit_0_and_no_failures() {
    let d = tempfile::tempdir().unwrap();
    let f = write(
        d.path(),
        "a.csa",
        b"V2.2\nN+a\nN-b\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n",
    );
    assert_eq!(codes(&f), (Some(0), Some(0)));
    let (games, summary) = strict_json(&f);
    assert_eq!(games[0]["strict_failures"], serde_json::json!([]));
    assert_eq!(summary["strict"]["failed"], 0, "{summary}");
    let text = String::from_utf8_lossy(&kifu(&["check", "--strict", &f]).stdout).into_owned();
    assert!(text.contains("strict: 0 failing"), "{text}");
}

#[test]
fn strict_leaves_fouls_at_1_and_unreadable_inputs_at_2() {
    let d = tempfile::tempdir().unwrap();
    let foul = write(
        d.path(),
        "f.usi",
        b"position startpos moves 7g7f 3c3d 7f7e 3d3e 7e7d 3e3f 7d7c 3f3g P*7d\n",
    );
    assert_eq!(codes(&foul), (Some(1), Some(1)));
    let empty = write(d.path(), "e.csa", b"\n");
    let start = write(d.path(), "s.csa", b"+\n+7776FU\n%TORYO\n");
    let o = kifu(&["check", "--strict", &empty, &start]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn without_strict_the_json_has_no_strict_fields() {
    let d = tempfile::tempdir().unwrap();
    let f = write(d.path(), "a.csa", b"+\n+7776FU\n%TORYO\n");
    let o = kifu(&["check", "--json", &f]);
    let out = String::from_utf8_lossy(&o.stdout);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !out.contains("strict") && !err.contains("strict"),
        "{out}{err}"
    );
}

#[test]
fn strict_names_the_codes_of_a_cut_short_games_replayed_part() {
    let d = tempfile::tempdir().unwrap();
    let f = write(d.path(), "cut.csa", b"+\n+7776FU\n-3334FU\n+2h2g\n");
    let o = kifu(&["check", "--strict", "--json", &f]);
    // Unreadable still wins: 2, not 1.
    assert_eq!(o.status.code(), Some(2));
    let v: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&o.stdout).lines().next().unwrap()).unwrap();
    assert_eq!(
        v["partial"]["game"]["strict_failures"],
        serde_json::json!(["start-assumed"]),
        "{v}"
    );
}
