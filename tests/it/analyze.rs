//! `kifu analyze` against a real USI engine (Debian's `fairy-stockfish`:
//! `KIFU_ENGINE`, else on PATH, else /usr/games), and its fault paths
//! against small fake engines (shell scripts) that crash, hang, print
//! garbage, never say `usiok` or send an illegal PV.
//!
//! Without a real engine the real-engine tests are compiled ignored
//! (build.rs sets `kifu_no_engine`); `KIFU_REQUIRE_ENGINE=1` (CI) makes a
//! missing engine a failure. Every run of kifu here has a deadline.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// Five plies, then a resignation.
const GAME: &str = "V2.2\nPI\n+\n+7776FU\n-3334FU\n+2726FU\n-8384FU\n+2625FU\n%TORYO\n";

/// Four king moves back to the start, then one more: the start position
/// comes again at ply 4, so six positions are five distinct ones.
const REPEAT: &str = "V2.2\nPI\n+\n+5968OU\n-5142OU\n+6859OU\n-4251OU\n+7776FU\n%TORYO\n";

/// The real engine, or `None` (a failure under `KIFU_REQUIRE_ENGINE=1`).
fn engine() -> Option<PathBuf> {
    let named = std::env::var_os("KIFU_ENGINE").map(PathBuf::from);
    let found = named
        .or_else(|| {
            std::env::var_os("PATH").and_then(|p| {
                std::env::split_paths(&p)
                    .map(|d| d.join("fairy-stockfish"))
                    .find(|c| c.is_file())
            })
        })
        .or_else(|| Some(PathBuf::from("/usr/games/fairy-stockfish")).filter(|p| p.is_file()));
    assert!(
        found.is_some() || std::env::var_os("KIFU_REQUIRE_ENGINE").is_none_or(|v| v != "1"),
        "KIFU_REQUIRE_ENGINE=1 but no USI engine (KIFU_ENGINE, fairy-stockfish on PATH or in /usr/games)"
    );
    found
}

fn real_engine() -> String {
    engine()
        .expect("a USI engine (the test is ignored without one)")
        .display()
        .to_string()
}

/// Run kifu in `dir`, killed after 120 s: no test waits forever.
fn kifu(dir: &Path, args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kifu runs");
    let (mut so, mut se) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let out = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = so.read_to_end(&mut b);
        b
    });
    let err = std::thread::spawn(move || {
        let mut b = Vec::new();
        let _ = se.read_to_end(&mut b);
        b
    });
    let deadline = Instant::now() + Duration::from_secs(120);
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("kifu {args:?} did not finish within 120 s");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
    }
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The JSON Lines a run printed.
fn games(o: &Output) -> Vec<serde_json::Value> {
    text(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// `(eval, pv)` of each move of a game's JSON.
fn evals(g: &serde_json::Value) -> Vec<(serde_json::Value, serde_json::Value)> {
    g["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["eval"].clone(), m["pv"].clone()))
        .collect()
}

fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    for (name, body) in files {
        std::fs::write(d.path().join(name), body).unwrap();
    }
    d
}

#[test]
#[cfg_attr(kifu_no_engine, ignore = "needs a USI engine (fairy-stockfish)")]
fn every_main_line_position_gets_a_score_and_a_legal_pv() {
    let eng = real_engine();
    let d = dir_with(&[("g.csa", GAME)]);
    let o = kifu(
        d.path(),
        &[
            "analyze", "-q", "--engine", &eng, "--nodes", "1000", "--option", "Hash=16", "g.csa",
        ],
    );
    assert!(o.status.success(), "{}", text(&o.stderr));
    let g = &games(&o)[0];
    let moves = g["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 5);
    for m in moves {
        assert!(m["eval"].is_i64(), "no score: {m}");
        // The JSON writer gives the PV in USI as far as it replays: a
        // legal PV comes out whole, and the engine's is never empty here.
        let pv = m["pv"].as_array().expect("a pv");
        assert!(!pv.is_empty(), "{m}");
        let a = &m["analysis"];
        assert!(a["depth"].as_u64().unwrap() > 0, "{m}");
        assert!(a["nodes"].as_u64().unwrap() <= 1000 + 64, "{m}");
        assert!(
            a["score"]["cp"].is_i64() || a["score"]["mate"].is_i64(),
            "{m}"
        );
        assert_eq!(a["score"]["cp"], m["eval"], "sente's view in both");
    }
    assert_eq!(g["analysis"]["search"], "go nodes 1000");
    assert!(g["analysis"]["start"]["score"].is_object());
}

#[test]
#[cfg_attr(kifu_no_engine, ignore = "needs a USI engine (fairy-stockfish)")]
fn scores_written_to_kif_and_csa_read_back_the_same() {
    let eng = real_engine();
    let d = dir_with(&[("g.csa", GAME)]);
    let cache = ["--cache", "c.jsonl"];
    let base = ["analyze", "-q", "--engine", &eng, "--depth", "3"];
    let run = |extra: &[&str]| {
        let args: Vec<&str> = base.iter().chain(&cache).chain(extra).copied().collect();
        let o = kifu(d.path(), &args);
        assert!(o.status.success(), "{args:?}: {}", text(&o.stderr));
        o
    };
    let json = evals(&games(&run(&["g.csa"]))[0]);
    run(&["--to", "kif", "-o", "out.kif", "g.csa"]);
    run(&["--to", "kifu", "-o", "out.kifu", "g.csa"]);
    // KIF in ShogiGUI's analysis comment, one a move.
    let kif = std::fs::read_to_string(d.path().join("out.kifu")).unwrap();
    assert_eq!(kif.matches("\n**解析 0 深さ ").count(), 5, "{kif}");
    run(&["--to", "csa", "-o", "out.csa", "g.csa"]);
    let csa = std::fs::read_to_string(d.path().join("out.csa")).unwrap();
    assert_eq!(csa.matches("\n'** ").count(), 5, "{csa}");
    for out in ["out.kif", "out.kifu", "out.csa"] {
        let o = kifu(d.path(), &["convert", "-q", "--to", "json", out]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        assert_eq!(evals(&games(&o)[0]), json, "{out} read back");
    }
}

#[test]
#[cfg_attr(kifu_no_engine, ignore = "needs a USI engine (fairy-stockfish)")]
fn a_repeated_position_is_searched_once_and_a_rerun_resumes() {
    let eng = real_engine();
    let d = dir_with(&[("r.csa", REPEAT)]);
    let args = [
        "analyze",
        "--engine",
        &eng,
        "--depth",
        "3",
        "--engines",
        "2",
        "--cache",
        "c.jsonl",
        "r.csa",
    ];
    let first = kifu(d.path(), &args);
    assert!(first.status.success(), "{}", text(&first.stderr));
    let cache = d.path().join("c.jsonl");
    let lines = std::fs::read_to_string(&cache).unwrap();
    assert_eq!(
        lines.lines().count(),
        5,
        "six positions, five distinct:\n{lines}"
    );
    assert!(text(&first.stderr).contains("5 positions analysed, 0 from cache"));
    let g = &games(&first)[0];
    // The start's score (searched once) is the one ply 4 carries.
    let start = g["analysis"]["start"]["score"].clone();
    assert_eq!(g["moves"][3]["analysis"]["score"], start);
    // Interrupted after two answers: the rerun searches the other three.
    let kept: String = lines.lines().take(2).map(|l| format!("{l}\n")).collect();
    std::fs::write(&cache, kept).unwrap();
    let again = kifu(d.path(), &args);
    assert!(again.status.success(), "{}", text(&again.stderr));
    assert!(
        text(&again.stderr).contains("3 positions analysed, 2 from cache"),
        "{}",
        text(&again.stderr)
    );
    assert_eq!(std::fs::read_to_string(&cache).unwrap().lines().count(), 5);
    assert_eq!(evals(&games(&again)[0]).len(), 5);
}

#[test]
#[cfg_attr(kifu_no_engine, ignore = "needs a USI engine (fairy-stockfish)")]
fn existing_evaluations_stay_unless_overwrite() {
    let eng = real_engine();
    let with_eval = "V2.2\nPI\n+\n+7776FU\n'** 12345 -3334FU\n-3334FU\n%TORYO\n";
    let d = dir_with(&[("e.csa", with_eval)]);
    let base = ["analyze", "-q", "--engine", &eng, "--depth", "3", "e.csa"];
    let kept = kifu(d.path(), &base);
    assert!(kept.status.success(), "{}", text(&kept.stderr));
    let g = &games(&kept)[0];
    assert_eq!(g["moves"][0]["eval"], 12345);
    assert!(g["moves"][1]["eval"].is_i64());
    let mut over = base.to_vec();
    over.push("--overwrite");
    let replaced = kifu(d.path(), &over);
    assert!(replaced.status.success(), "{}", text(&replaced.stderr));
    let g = &games(&replaced)[0];
    let e = g["moves"][0]["eval"].as_i64().unwrap();
    assert_ne!(e, 12345);
    assert_eq!(g["moves"][0]["analysis"]["score"]["cp"], e);
}

#[test]
#[cfg_attr(kifu_no_engine, ignore = "needs a USI engine (fairy-stockfish)")]
fn overwrite_replaces_a_gui_comment_in_kif() {
    let eng = real_engine();
    let kif = "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n**対局 深さ 2 ノード数 9 評価値 999 読み筋 △３四歩(33)\n*好手\n   2 ３四歩(33)\n   3 投了\n";
    let d = dir_with(&[("e.kifu", kif)]);
    let base = [
        "analyze", "-q", "--engine", &eng, "--depth", "3", "--to", "kifu", "e.kifu",
    ];
    let kept = kifu(d.path(), &base);
    assert!(kept.status.success(), "{}", text(&kept.stderr));
    let out = text(&kept.stdout);
    assert!(out.contains("評価値 999 読み筋 △３四歩(33)"), "{out}");
    assert_eq!(out.matches("**解析 0").count(), 1, "{out}");
    let mut over = base.to_vec();
    over.push("--overwrite");
    let replaced = kifu(d.path(), &over);
    let out = text(&replaced.stdout);
    assert!(!out.contains("評価値 999"), "{out}");
    assert!(out.contains("*好手"), "the player's comment stays:\n{out}");
    assert_eq!(out.matches("**解析 0").count(), 2, "{out}");
}

/// A fake engine: `script` runs once per line the engine gets, as
/// `case "$line" in … esac` inside a read loop, with `$D` its directory.
fn fake(d: &Path, name: &str, script: &str) -> String {
    use std::os::unix::fs::PermissionsExt;
    let body = format!(
        "#!/bin/sh\nD=\"$(dirname \"$0\")\"\nwhile read -r line; do\n  case \"$line\" in\n{script}\n  esac\ndone\n"
    );
    let p = d.join(name);
    std::fs::write(&p, body).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
    p.display().to_string()
}

/// The USI a fake engine speaks when it behaves.
const USI_OK: &str =
    "    usi) echo 'id name fake'; echo usiok;;\n    isready) echo readyok;;\n    quit) exit 0;;";

/// A score without a PV, and `resign`: valid in every position.
const ANSWER: &str = "echo 'info depth 1 nodes 1 score cp 7'; echo 'bestmove resign'";

fn analyze_with(d: &Path, engine: &str, extra: &[&str]) -> Output {
    let mut args = vec![
        "analyze",
        "-q",
        "--engine",
        engine,
        "--timeout",
        "1",
        "--depth",
        "1",
    ];
    args.extend_from_slice(extra);
    kifu(d, &args)
}

#[test]
fn an_engine_that_crashes_once_is_restarted_and_the_position_retried() {
    let d = dir_with(&[("g.csa", GAME)]);
    // The first `go` ever: a word on stderr, then death.
    let crash = format!(
        "{USI_OK}\n    go*) if [ ! -e \"$D/crashed\" ]; then touch \"$D/crashed\"; echo 'out of cheese' >&2; exit 3; fi; {ANSWER};;"
    );
    let eng = fake(d.path(), "crash.sh", &crash);
    let o = analyze_with(d.path(), &eng, &["g.csa"]);
    let err = text(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("exited") && err.contains("out of cheese"),
        "{err}"
    );
    assert!(err.contains("restarting it"), "{err}");
    let g = &games(&o)[0];
    // 7 from the side to move: ±7 from sente's.
    assert!(
        evals(g)
            .iter()
            .all(|(e, _)| e.as_i64().map(i64::abs) == Some(7)),
        "{g}"
    );
}

#[test]
fn an_engine_that_always_crashes_loses_no_other_result() {
    let d = dir_with(&[("g.csa", GAME)]);
    // Answers the first two searches, then dies on every one after.
    let script = format!(
        "{USI_OK}\n    go*) n=$(cat \"$D/n\" 2>/dev/null || echo 0); echo $((n+1)) > \"$D/n\"; if [ \"$n\" -ge 2 ]; then echo 'segfault here' >&2; kill -SEGV $$; fi; {ANSWER};;"
    );
    let eng = fake(d.path(), "dies.sh", &script);
    let o = analyze_with(
        d.path(),
        &eng,
        &["--restarts", "2", "--cache", "c.jsonl", "g.csa"],
    );
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("segfault here"), "{err}");
    assert!(err.contains("no restart left"), "{err}");
    assert!(err.contains("not analysed"), "{err}");
    // The two answers are in the cache and in the output.
    let cache = std::fs::read_to_string(d.path().join("c.jsonl")).unwrap();
    assert_eq!(cache.lines().count(), 2, "{cache}");
    let scored = games(&o)[0]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["eval"].as_i64().map(i64::abs) == Some(7))
        .count()
        + usize::from(games(&o)[0]["analysis"]["start"]["score"]["cp"] == 7);
    assert_eq!(scored, 2);
}

#[test]
fn a_hung_engine_times_out_and_is_reported() {
    let d = dir_with(&[("g.csa", GAME)]);
    let script = format!("{USI_OK}\n    go*) echo 'thinking forever' >&2; exec sleep 30;;");
    let eng = fake(d.path(), "hang.sh", &script);
    let start = Instant::now();
    let o = analyze_with(d.path(), &eng, &["--restarts", "1", "g.csa"]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("did not answer while searching"), "{err}");
    assert!(err.contains("thinking forever"), "{err}");
    // Two searches of 1 s each, then no engine left: far from the sleep.
    assert!(start.elapsed() < Duration::from_secs(20));
}

#[test]
fn garbage_and_no_usiok_are_reported_as_not_usi() {
    let d = dir_with(&[("g.csa", GAME)]);
    let garbage = fake(
        d.path(),
        "garbage.sh",
        "    *) echo 'Hello! I play chess.'; echo 'banner garbage' >&2;;",
    );
    let o = analyze_with(d.path(), &garbage, &["--restarts", "1", "g.csa"]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("before usiok (is it a USI engine?)"), "{err}");
    assert!(err.contains("banner garbage"), "{err}");
    assert!(err.contains("no restart left"), "{err}");
    // No game gets a score it was not given.
    assert!(evals(&games(&o)[0]).iter().all(|(e, _)| e.is_null()));
    let missing = analyze_with(
        d.path(),
        "/nonexistent/engine",
        &["--restarts", "0", "g.csa"],
    );
    assert_eq!(missing.status.code(), Some(2));
    assert!(text(&missing.stderr).contains("cannot start the engine"));
}

#[test]
fn an_illegal_pv_is_reported_and_not_written() {
    let d = dir_with(&[("g.csa", GAME)]);
    let script = format!(
        "{USI_OK}\n    go*) echo 'info depth 2 nodes 5 score cp 40 pv 5e5d 1a1b'; echo 'bestmove 5e5d';;"
    );
    let eng = fake(d.path(), "badpv.sh", &script);
    let o = analyze_with(d.path(), &eng, &["--to", "csa", "g.csa"]);
    let err = text(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("illegal PV") && err.contains("`5e5d`"),
        "{err}"
    );
    let csa = text(&o.stdout);
    // The score is kept (40 for sente after gote's moves, -40 after sente's).
    assert!(
        csa.contains("'** -40\n") && csa.contains("'** 40\n"),
        "{csa}"
    );
    assert!(!csa.contains("55"), "a PV was written:\n{csa}");
}

#[test]
fn each_move_is_judged_by_its_loss_with_settable_thresholds() {
    let d = dir_with(&[("g.csa", GAME)]);
    // Sente to move: even; gote to move: gote +2000. Every move, by
    // either side, hands the opponent that lead: loss 0.966 - 0.5.
    let script = format!(
        "{USI_OK}\n    position*) pos=\"$line\";;\n    go*) case \"$pos\" in *' b '*) cp=0;; *) cp=2000;; esac; echo \"info depth 1 nodes 1 score cp $cp\"; echo 'bestmove resign';;"
    );
    let eng = fake(d.path(), "judge.sh", &script);
    let judged = |extra: &[&str]| {
        let o = analyze_with(d.path(), &eng, &[extra, &["g.csa"]].concat());
        assert!(o.status.success(), "{}", text(&o.stderr));
        let g = games(&o).remove(0);
        g["moves"].as_array().unwrap().clone()
    };
    // The mover's chance on the logistic curve of scale 600.
    let expected = 1.0 / (1.0 + (-2000.0_f64 / 600.0).exp()) - 0.5;
    let moves = judged(&[]);
    for m in &moves {
        let a = &m["analysis"];
        let loss = a["loss"].as_f64().unwrap();
        assert!((loss - expected).abs() < 1e-4, "{m}");
        assert_eq!(a["judgement"], "blunder", "{m}");
        assert_eq!(a["mark"], "大悪手", "{m}");
    }
    let moves = judged(&["--dubious", "0.2", "--mistake", "0.4", "--blunder", "0.5"]);
    assert!(moves.iter().all(|m| m["analysis"]["mark"] == "悪手"));
    let moves = judged(&["--dubious", "0.5", "--mistake", "0.6", "--blunder", "0.7"]);
    assert!(moves.iter().all(|m| m["analysis"]["judgement"].is_null()));
    let bad = analyze_with(
        d.path(),
        &eng,
        &["--dubious", "0.5", "--mistake", "0.2", "g.csa"],
    );
    assert_eq!(bad.status.code(), Some(2), "{}", text(&bad.stderr));
}

#[test]
fn a_run_interrupted_halfway_resumes_with_only_what_is_left() {
    let d = dir_with(&[("g.csa", GAME)]);
    let script = format!("{USI_OK}\n    go*) sleep 0.3; {ANSWER};;");
    let eng = fake(d.path(), "slow.sh", &script);
    let args = [
        "analyze",
        "--engine",
        &eng,
        "--timeout",
        "5",
        "--depth",
        "1",
        "--cache",
        "c.jsonl",
        "g.csa",
    ];
    let mut child = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .current_dir(d.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kifu runs");
    let cache = d.path().join("c.jsonl");
    let answers = || {
        std::fs::read_to_string(&cache)
            .map(|t| t.lines().count())
            .unwrap_or(0)
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    while answers() < 2 {
        assert!(Instant::now() < deadline, "no answers within 30 s");
        std::thread::sleep(Duration::from_millis(20));
    }
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("kifu did not stop within 30 s of SIGINT");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(status.code(), Some(2), "{err}");
    assert!(err.contains("interrupted"), "{err}");
    let done = answers();
    assert!((2..6).contains(&done), "{done} answers before the stop");
    let again = kifu(d.path(), &args);
    let err = text(&again.stderr);
    assert!(again.status.success(), "{err}");
    let want = format!("{} positions analysed, {done} from cache", 6 - done);
    assert!(err.contains(&want), "{want}:\n{err}");
    assert_eq!(answers(), 6);
    assert_eq!(evals(&games(&again)[0]).len(), 5);
}

#[test]
fn records_it_cannot_analyse_are_reported_and_the_batch_goes_on() {
    let d = dir_with(&[
        ("bad.csa", "V2.2\nPI\n+\n+7776FU\n+9999ZZ\n"),
        (
            "m.usi",
            "position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 5d5c 1b1c\n",
        ),
        ("g.csa", GAME),
    ]);
    let eng = fake(d.path(), "ok.sh", &format!("{USI_OK}\n    go*) {ANSWER};;"));
    let o = analyze_with(d.path(), &eng, &["bad.csa", "m.usi", "g.csa"]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("bad.csa:5:"), "{err}");
    assert!(err.contains("m.usi: a minishogi record"), "{err}");
    let out = games(&o);
    assert_eq!(out.len(), 1, "only the shogi game is written");
    assert_eq!(out[0]["source"], "g.csa");
    assert!(evals(&out[0]).iter().all(|(e, _)| e.is_i64()));
}

#[test]
fn a_bestmove_without_a_score_is_a_protocol_fault() {
    let d = dir_with(&[("g.csa", GAME)]);
    let script = format!(
        "{USI_OK}\n    go*) echo 'info string thinking'; echo '%$#@!'; echo 'bestmove 7g7f';;"
    );
    let eng = fake(d.path(), "noscore.sh", &script);
    let o = analyze_with(d.path(), &eng, &["--restarts", "1", "g.csa"]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("bestmove 7g7f without an info line with a score"),
        "{err}"
    );
    assert!(err.contains("restarting it (0 restarts left)"), "{err}");
    assert!(err.contains("no restart left"), "{err}");
    assert!(evals(&games(&o)[0]).iter().all(|(e, _)| e.is_null()));
}

/// Three moves and a resignation, and a variation at ply 2 of two moves.
const WITH_VARIATION: &str = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n   4 投了\nまで3手で先手の勝ち\n\n変化：2手\n   2 ８四歩(83)\n   3 ２六歩(27)\n";

/// The scores of the moves of a game's first variation, in its JSON.
fn variation_evals(g: &serde_json::Value) -> Vec<serde_json::Value> {
    g["variations"][0]["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["eval"].clone())
        .collect()
}

#[test]
#[cfg_attr(kifu_no_engine, ignore = "needs a USI engine (fairy-stockfish)")]
fn variations_are_analysed_only_when_asked_and_read_back_from_kif() {
    let eng = real_engine();
    let d = dir_with(&[("v.kif", WITH_VARIATION)]);
    let base = [
        "analyze", "-q", "--engine", &eng, "--depth", "3", "--cache", "c.jsonl",
    ];
    let run = |extra: &[&str]| {
        let args: Vec<&str> = base.iter().chain(extra).copied().collect();
        let o = kifu(d.path(), &args);
        assert!(o.status.success(), "{args:?}: {}", text(&o.stderr));
        o
    };
    let plain = games(&run(&["v.kif"])).remove(0);
    assert!(
        variation_evals(&plain).iter().all(|e| e.is_null()),
        "{plain}"
    );
    let with = games(&run(&["--variations", "v.kif"])).remove(0);
    let scores = variation_evals(&with);
    assert_eq!(scores.len(), 2);
    assert!(scores.iter().all(|e| e.is_i64()), "{with}");
    // The main line is the same either way.
    assert_eq!(evals(&with), evals(&plain));
    // Written as ShogiGUI comments into the variation's moves of a KIF,
    // and read back the same.
    run(&["--variations", "--to", "kifu", "-o", "out.kifu", "v.kif"]);
    let kif = std::fs::read_to_string(d.path().join("out.kifu")).unwrap();
    let variation = &kif[kif.find("変化：2手").expect("the variation is written")..];
    assert_eq!(variation.matches("\n**解析 0 深さ ").count(), 2, "{kif}");
    let o = kifu(d.path(), &["convert", "-q", "--to", "json", "out.kifu"]);
    assert_eq!(variation_evals(&games(&o)[0]), scores);
}

#[test]
#[cfg_attr(kifu_no_engine, ignore = "needs a USI engine (fairy-stockfish)")]
fn analyze_report_graphs_each_game_and_marks_the_moves_the_json_judges() {
    let eng = real_engine();
    let d = dir_with(&[("g.csa", GAME), ("r.csa", REPEAT)]);
    let args = [
        "analyze",
        "--engine",
        &eng,
        "--depth",
        "4",
        "--dubious",
        "0.01",
        "--mistake",
        "0.02",
        "--blunder",
        "0.05",
        "--report",
        "a.html",
        "g.csa",
        "r.csa",
    ];
    let o = kifu(d.path(), &args);
    assert!(o.status.success(), "{}", text(&o.stderr));
    let html = std::fs::read_to_string(d.path().join("a.html")).expect("the report");
    assert_eq!(
        html.matches("<svg class=\"graph\"").count(),
        2,
        "a graph a game"
    );
    // Every judged move of the JSON is a dot on the graph, of its kind.
    let json = games(&o);
    for kind in ["dubious", "mistake", "blunder"] {
        let judged = json
            .iter()
            .flat_map(|g| g["moves"].as_array().unwrap().iter())
            .filter(|m| m["analysis"]["judgement"] == kind)
            .count();
        // The JSON judges the first move from the engine's score of the
        // start, which records (and so the report) do not keep.
        let first = json
            .iter()
            .filter(|g| g["moves"][0]["analysis"]["judgement"] == kind)
            .count();
        let dots = html.matches(&format!("<circle class=\"{kind}\"")).count();
        assert_eq!(dots, judged - first, "{kind}");
    }
    // A card a move of 悪手 or worse, at most three a game.
    let worse = html.matches("<circle class=\"mistake\"").count()
        + html.matches("<circle class=\"blunder\"").count();
    let cards = html.matches("<span class=\"tag judgement\">").count();
    assert!(
        cards <= worse && cards <= 6,
        "{cards} cards for {worse} moves"
    );
    assert_eq!(cards.min(1), worse.min(1), "a bad move gets a card");
}

#[test]
fn a_score_that_is_only_a_bound_is_marked_so() {
    let d = dir_with(&[("g.csa", GAME)]);
    let bound = format!(
        "{USI_OK}\n    go*) echo 'info depth 1 nodes 1 score cp 50 upperbound'; echo 'bestmove resign';;"
    );
    let exact = format!("{USI_OK}\n    go*) {ANSWER};;");
    for (name, script, marked) in [("bound.sh", &bound, true), ("exact.sh", &exact, false)] {
        let eng = fake(d.path(), name, script);
        let o = analyze_with(d.path(), &eng, &["g.csa"]);
        assert!(o.status.success(), "{}", text(&o.stderr));
        let g = games(&o).remove(0);
        for m in g["moves"].as_array().unwrap() {
            let a = &m["analysis"];
            assert_eq!(a["bound"].as_bool().unwrap_or(false), marked, "{name}: {m}");
            assert!(a["score"].is_object(), "{m}");
        }
    }
}

#[test]
fn one_engine_named_two_ways_shares_its_cache() {
    let d = dir_with(&[("g.csa", GAME)]);
    let script = format!("{USI_OK}\n    go*) {ANSWER};;");
    let eng = fake(d.path(), "named.sh", &script);
    let run = |engine: &str| {
        let o = kifu(
            d.path(),
            &[
                "analyze", "--engine", engine, "--depth", "1", "--cache", "c.jsonl", "g.csa",
            ],
        );
        assert!(o.status.success(), "{}", text(&o.stderr));
        text(&o.stderr)
    };
    let first = run(&eng);
    assert!(
        first.contains("6 positions analysed, 0 from cache"),
        "{first}"
    );
    // The same file by a relative name: every answer comes from the cache.
    let again = run("./named.sh");
    assert!(
        again.contains("0 positions analysed, 6 from cache"),
        "{again}"
    );
}
