//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// The shared corpus beside the checkout. A test that reads it is compiled
/// `#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]` (see
/// build.rs), so that without the corpus `cargo test` lists it as ignored;
/// one that runs anyway (`--ignored`, or the corpus removed since the
/// build) fails here rather than passing unrun.
pub fn corpus_dir(test: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    assert!(
        dir.is_dir(),
        "{test} needs ../shared/corpus, which is absent (rebuild to have it listed as ignored)"
    );
    dir
}

/// Whether a run must have the corpus: `KIFU_REQUIRE_CORPUS=1`, as CI
/// sets it, makes its absence a failure instead of ignored tests.
pub fn corpus_required() -> bool {
    std::env::var_os("KIFU_REQUIRE_CORPUS").is_some_and(|v| v == "1")
}

/// The shared format references beside the checkout, if present.
pub fn formats_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/formats");
    dir.is_dir().then_some(dir)
}

/// Every file under `dir` (recursively) whose extension is one of `exts`, sorted.
pub fn files_with_ext(dir: &std::path::Path, exts: &[&str]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p
                .extension()
                .and_then(|x| x.to_str())
                .is_some_and(|x| exts.iter().any(|e| e.eq_ignore_ascii_case(x)))
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Corpus files are UTF-8, Shift_JIS or (one) EUC-JP: decode strictly, in that order.
pub fn decode_strict(bytes: &[u8]) -> Option<String> {
    if let Ok(s) = std::str::from_utf8(bytes) {
        return Some(s.to_string());
    }
    [encoding_rs::SHIFT_JIS, encoding_rs::EUC_JP]
        .into_iter()
        .find_map(|enc| {
            enc.decode_without_bom_handling_and_without_replacement(bytes)
                .map(|s| s.into_owned())
        })
}

/// End a sweep over the corpus: print `tally`, name every failure (its
/// first line), and fail showing the first few in full if there are any.
pub fn assert_no_failures(tally: &str, failures: &[String]) {
    eprintln!("{tally}");
    for f in failures {
        eprintln!("FAILED {}", f.lines().next().unwrap_or_default());
    }
    assert!(
        failures.is_empty(),
        "{} failure(s); the first:\n{}",
        failures.len(),
        failures
            .iter()
            .take(3)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}

#[test]
fn the_corpus_tests_run_when_kifu_require_corpus_is_1() {
    if !corpus_required() {
        return;
    }
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    assert!(
        dir.is_dir(),
        "KIFU_REQUIRE_CORPUS=1 but {} is absent",
        dir.display()
    );
    if cfg!(kifu_no_corpus) {
        panic!(
            "KIFU_REQUIRE_CORPUS=1 but the tests were built without ../shared/corpus: its tests are ignored"
        );
    }
}

/// The same perpetual check in each format (`fixtures/*/perpetual-check.*`):
/// sente's rook checks with every move and gote's 12th move △１一玉 (1b1a)
/// makes the start position occur for the fourth time; sente loses.
pub const PERPETUAL_CHECK: [&str; 4] = [
    "fixtures/kif/perpetual-check.kifu",
    "fixtures/ki2/perpetual-check.ki2u",
    "fixtures/csa/perpetual-check.csa",
    "fixtures/jkf/perpetual-check.jkf",
];

/// The perpetual check of [`PERPETUAL_CHECK`] completed by the checker's own
/// move instead: gote starts (in check), so sente's 12th move ▲５一飛 makes
/// the fourth occurrence, and gote, to move after it, wins.
pub const PERPETUAL_CHECK_BY_THE_CHECKER: &str = "position sfen 4R3k/9/9/9/9/9/9/9/4K4 w - 1 moves \
     1a1b 5a5b 1b1a 5b5a 1a1b 5a5b 1b1a 5b5a 1a1b 5a5b 1b1a 5b5a\n";

/// A fixture path (relative to the checkout) read and replayed: its first game.
pub fn game_of(path: &str) -> kifu::Game {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(path);
    let input = kifu::read_path(&path, &kifu::ReadOptions::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let record = input
        .records
        .into_iter()
        .next()
        .unwrap_or_else(|| panic!("{}: no game", path.display()));
    kifu::replay(record, &kifu::ReplayOptions::default()).expect("a legal start position")
}

/// `text` in `format` read and replayed: its first game.
pub fn game_of_text(text: &str, format: kifu::Format) -> kifu::Game {
    let record = kifu::parse::parse(text, format)
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
        .remove(0);
    kifu::replay(record, &kifu::ReplayOptions::default()).expect("a legal start position")
}

/// `written` (in `format`) reads back as the perpetual check of
/// [`PERPETUAL_CHECK`]: the same twelve plies, the same foul and loser, and
/// nothing to warn about (an ending word naming the wrong side would be an
/// `ending-disagrees`).
pub fn assert_same_perpetual_check(written: &str, format: kifu::Format, what: &str) {
    let g = game_of_text(written, format);
    let plies: Vec<String> = g.main.plies.iter().map(|p| p.mv.to_usi()).collect();
    assert_eq!(plies.len(), 12, "{what}:\n{written}");
    assert_eq!(plies[11], "1b1a", "{what}");
    match &g.main.verdict {
        kifu::Verdict::Foul(f) => assert_eq!(
            (f.rule, f.ply, f.loser),
            (kifu::Rule::PerpetualCheck, 12, kifu::Color::Sente),
            "{what}"
        ),
        kifu::Verdict::Legal => panic!("{what}: the foul was lost:\n{written}"),
    }
    assert!(
        g.main.diagnostics.is_empty(),
        "{what}: {:?}\n{written}",
        g.main.diagnostics
    );
}

/// A record every command reads: two moves and a resignation.
pub const GAME_CSA: &str = "V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n";

/// Run the `kifu` binary in `dir` with no standard input.
pub fn kifu_in(dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("kifu runs")
}

/// Run `script` through `sh -c` in `dir`, with `$KIFU` the binary, for what
/// only a shell sets up (FIFOs, redirections, appends).
pub fn kifu_sh(dir: &std::path::Path, script: &str) -> std::process::Output {
    std::process::Command::new("sh")
        .arg("-c")
        .arg(script)
        .env("KIFU", env!("CARGO_BIN_EXE_kifu"))
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("sh runs")
}

/// What a run printed on stderr.
pub fn err(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// What a run printed on stdout.
pub fn out(o: &std::process::Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}
