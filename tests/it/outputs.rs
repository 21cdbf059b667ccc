//! What `kifu convert` writes, and where: modes, clashes, names, re-runs,
//! interrupts and write errors, exit codes, line-format streams, warning
//! summaries, and the small things of the command line.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const GAME_CSA: &str = "V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n";
const NIFU_USI: &str =
    "position startpos moves 2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d 4a3b P*7f 3c3d\n";

fn kifu_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .env_remove("NO_COLOR")
        .output()
        .expect("kifu runs")
}

/// Run kifu through `sh -c`, for what only a shell sets up (umask, ulimit).
fn kifu_sh(dir: &Path, script: &str) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(script)
        .env("KIFU", env!("CARGO_BIN_EXE_kifu"))
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("sh runs")
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, text).unwrap();
    p
}

fn read(p: impl AsRef<Path>) -> String {
    std::fs::read_to_string(p).unwrap()
}

/// The names under `dir` that look like temporary files.
fn temp_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".tmp"))
        .collect()
}

#[cfg(unix)]
fn mode(p: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).unwrap().permissions().mode() & 0o777
}

#[cfg(unix)]
#[test]
fn new_outputs_get_the_mode_the_umask_gives_not_0600() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "g.csa", GAME_CSA);
    for (umask, want) in [("022", 0o644), ("002", 0o664)] {
        let o = kifu_sh(
            d.path(),
            &format!(
                "umask {umask}; \"$KIFU\" convert -q --to kifu --out-dir o{umask} \
                 --summary s{umask}.json g.csa && \"$KIFU\" man --out-dir m{umask}"
            ),
        );
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        for file in [
            format!("o{umask}/g.kifu"),
            format!("s{umask}.json"),
            format!("m{umask}/kifu.1"),
        ] {
            let got = mode(&d.path().join(&file));
            assert_eq!(got, want, "umask {umask}: {file}: {got:o}");
        }
    }
}

#[cfg(unix)]
#[test]
fn force_keeps_the_mode_of_the_file_it_replaces() {
    use std::os::unix::fs::PermissionsExt;
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "g.csa", GAME_CSA);
    let target = write(d.path(), "g.usi", "old\n");
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).unwrap();
    let o = kifu_in(
        d.path(),
        &[
            "convert", "-q", "--to", "usi", "-o", "g.usi", "--force", "g.csa",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(read(&target), "position startpos moves 7g7f 3c3d\n");
    assert_eq!(mode(&target), 0o640);
}

#[cfg(unix)]
#[test]
fn force_on_a_symlink_writes_through_to_its_target_and_keeps_the_link() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "g.csa", GAME_CSA);
    let real = write(d.path(), "real/g.usi", "old\n");
    let link = d.path().join("g.usi");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let o = kifu_in(
        d.path(),
        &[
            "convert", "-q", "--to", "usi", "-o", "g.usi", "--force", "g.csa",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(read(&real), "position startpos moves 7g7f 3c3d\n");
    assert!(temp_files(d.path()).is_empty() && temp_files(&d.path().join("real")).is_empty());
}

#[cfg(unix)]
#[test]
fn force_on_a_dangling_symlink_refuses_clearly_and_leaves_the_link() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "g.csa", GAME_CSA);
    let link = d.path().join("g.usi");
    std::os::unix::fs::symlink(d.path().join("missing/g.usi"), &link).unwrap();
    let o = kifu_in(
        d.path(),
        &["convert", "--to", "usi", "-o", "g.usi", "--force", "g.csa"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("g.usi: not written: it is a symbolic link"),
        "{}",
        err(&o)
    );
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
}

#[test]
fn two_inputs_with_one_output_name_are_a_clash_naming_both_even_with_force() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "a/x.kifu", "手合割：平手\n1 ７六歩(77)\n");
    write(d.path(), "b/x.kifu", "手合割：平手\n1 ２六歩(27)\n");
    let o = kifu_in(
        d.path(),
        &[
            "convert",
            "--to",
            "usi",
            "--out-dir",
            "o",
            "--force",
            "a/x.kifu",
            "b/x.kifu",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    let e = err(&o);
    let clash = e
        .lines()
        .find(|l| l.contains("output clash"))
        .expect("a clash line");
    assert!(clash.starts_with("o/x.usi: not written:"), "{clash}");
    assert!(
        clash.contains("a/x.kifu") && clash.contains("b/x.kifu"),
        "{clash}"
    );
    assert!(e.contains("1 not written"), "{e}");
    assert!(e.contains("0 unreadable"), "{e}");
    // The first input's output stands.
    assert_eq!(
        read(d.path().join("o/x.usi")),
        "position startpos moves 7g7f\n"
    );
}

#[test]
fn an_output_is_never_written_over_an_input_of_the_run() {
    let d = tempfile::tempdir().unwrap();
    let input = write(d.path(), "g.usi", "position startpos moves 7g7f\n");
    let o = kifu_in(
        d.path(),
        &["convert", "--to", "usi", "-o", "g.usi", "--force", "g.usi"],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("g.usi: not written: it is the input"),
        "{}",
        err(&o)
    );
    assert_eq!(read(input), "position startpos moves 7g7f\n");
}

#[test]
fn an_output_name_does_not_depend_on_the_files_beside_its_input() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "alone/x.csa", GAME_CSA);
    write(d.path(), "pair/x.csa", GAME_CSA);
    write(d.path(), "pair/y.csa", GAME_CSA);
    write(d.path(), "pair/x.json", "not a record\n");
    for dir in ["alone", "pair"] {
        let out = format!("o-{dir}");
        let o = kifu_in(
            d.path(),
            &["convert", "-q", "--to", "kifu", "--out-dir", &out, dir],
        );
        let names: Vec<String> = std::fs::read_dir(d.path().join(&out))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert!(
            names.contains(&"x.kifu".to_string()),
            "{dir}: {names:?}: {}",
            err(&o)
        );
        assert!(
            !names.iter().any(|n| n.contains(".csa")),
            "{dir}: {names:?}"
        );
    }
}

#[test]
fn skip_existing_skips_existing_outputs_counts_them_and_exits_0() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "in/a.csa", GAME_CSA);
    write(d.path(), "in/b.csa", GAME_CSA);
    write(d.path(), "o/a.usi", "keep\n");
    let o = kifu_in(
        d.path(),
        &[
            "convert",
            "--to",
            "usi",
            "--out-dir",
            "o",
            "--skip-existing",
            "in",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(read(d.path().join("o/a.usi")), "keep\n");
    assert_eq!(
        read(d.path().join("o/b.usi")),
        "position startpos moves 7g7f 3c3d\n"
    );
    let e = err(&o);
    assert!(
        !e.contains("o/a.usi"),
        "a skipped output is not an error line: {e}"
    );
    assert!(e.contains("0 not written; 1 skipped"), "{e}");
}

#[test]
fn an_existing_output_is_one_line_naming_it_once_and_counted_as_not_written() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "in/a.csa", GAME_CSA);
    write(d.path(), "o/a.usi", "keep\n");
    let o = kifu_in(
        d.path(),
        &["convert", "--to", "usi", "--out-dir", "o", "in"],
    );
    assert_eq!(o.status.code(), Some(2));
    let e = err(&o);
    let lines: Vec<&str> = e.lines().filter(|l| l.contains("o/a.usi")).collect();
    assert_eq!(lines.len(), 1, "{e}");
    assert_eq!(lines[0].matches("a.usi").count(), 1, "{e}");
    assert!(e.contains("0 unreadable; 1 not written"), "{e}");
    assert_eq!(read(d.path().join("o/a.usi")), "keep\n");
}

#[test]
fn convert_exits_0_on_games_with_fouls_and_2_on_an_unreadable_input() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "nifu.usi", NIFU_USI);
    let o = kifu_in(d.path(), &["convert", "-q", "--to", "csa", "nifu.usi"]);
    assert_eq!(o.status.code(), Some(0), "a foul is data: {}", err(&o));
    assert!(
        out(&o).contains("%ILLEGAL_ACTION") || out(&o).contains("ILLEGAL"),
        "{}",
        out(&o)
    );
    assert_eq!(
        kifu_in(d.path(), &["check", "-q", "nifu.usi"])
            .status
            .code(),
        Some(1)
    );
    write(d.path(), "bad.usi", "position startpos moves 7g7x\n");
    let o = kifu_in(
        d.path(),
        &["convert", "-q", "--to", "usi", "nifu.usi", "bad.usi"],
    );
    assert_eq!(o.status.code(), Some(2));
}

#[cfg(target_os = "linux")]
#[test]
fn a_write_error_names_the_output_stops_with_the_summary_and_exits_2() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "g.csa", GAME_CSA);
    // A file-size limit of 512 bytes (SIGXFSZ ignored, so writes fail with
    // EFBIG): the same failure as a full disk, on any machine.
    let o = kifu_sh(
        d.path(),
        "ulimit -f 1; trap '' XFSZ; \"$KIFU\" convert --to json --pretty -o out.jsonl g.csa g.csa g.csa",
    );
    let e = err(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains("cannot write out.jsonl"), "{e}");
    assert!(!e.contains(".tmp"), "the temporary file is not named: {e}");
    assert!(e.contains("3 files,"), "the summary is printed: {e}");
    assert!(temp_files(d.path()).is_empty());
    assert!(!d.path().join("out.jsonl").exists());
}

/// A CSA file of `n` short games (about 60 bytes each).
fn many_games(n: usize) -> String {
    let game = "PI\n+\n+7776FU\n-3334FU\n+2726FU\n-8384FU\n%TORYO\n";
    let mut s = String::from("V2.2\n");
    s.push_str(&vec![game; n].join("/\n"));
    s
}

#[cfg(unix)]
#[test]
fn sigint_and_sigterm_remove_every_temporary_file() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "big.csa", &many_games(100_000));
    for sig in ["INT", "TERM"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kifu"))
            .args(["convert", "--to", "json", "-o", "out.jsonl", "big.csa"])
            .current_dir(d.path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Wait until the temporary output holds something.
        let started = std::time::Instant::now();
        let has_data = || {
            std::fs::read_dir(d.path()).unwrap().any(|e| {
                let e = e.unwrap();
                e.file_name().to_string_lossy().starts_with(".tmp")
                    && e.metadata().is_ok_and(|m| m.len() > 0)
            })
        };
        while !has_data() {
            assert!(
                child.try_wait().unwrap().is_none(),
                "{sig}: finished before the signal"
            );
            assert!(
                started.elapsed().as_secs() < 120,
                "{sig}: no temporary file"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        let kill = Command::new("kill")
            .args([format!("-{sig}"), child.id().to_string()])
            .status()
            .unwrap();
        assert!(kill.success());
        let o = child.wait_with_output().unwrap();
        let e = err(&o);
        assert_eq!(o.status.code(), Some(2), "{sig}: {e}");
        assert!(e.contains("interrupted"), "{sig}: {e}");
        assert!(
            temp_files(d.path()).is_empty(),
            "{sig}: {:?}",
            temp_files(d.path())
        );
        assert!(!d.path().join("out.jsonl").exists(), "{sig}");
    }
}

#[test]
fn line_formats_stream_several_inputs_to_stdout_or_one_file_in_input_order() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "in/b/z.usi", "position startpos moves 2g2f\n");
    write(d.path(), "in/a.csa", GAME_CSA);
    write(d.path(), "in/c.usi", "position startpos moves 5g5f\n");
    let want = "position startpos moves 7g7f 3c3d\n\
                position startpos moves 2g2f\n\
                position startpos moves 5g5f\n";
    let o = kifu_in(d.path(), &["convert", "-q", "--to", "usi", "in"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(out(&o), want);
    let o = kifu_in(
        d.path(),
        &["convert", "-q", "--to", "usi", "-o", "all.usi", "in"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(read(d.path().join("all.usi")), want);
    let o = kifu_in(
        d.path(),
        &["convert", "-q", "--to", "json", "in/c.usi", "in/a.csa"],
    );
    let sources: Vec<String> = out(&o)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["source"].to_string())
        .collect();
    assert_eq!(sources, ["\"in/c.usi\"", "\"in/a.csa\""]);
    let o = kifu_in(d.path(), &["convert", "-q", "--to", "sfen", "in"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(out(&o).lines().count(), 2 + 1 + 1 + 3, "{}", out(&o));
}

#[test]
fn warnings_are_summed_by_code_and_verbose_lists_them_per_file() {
    let d = tempfile::tempdir().unwrap();
    for n in ["a", "b", "c"] {
        write(d.path(), &format!("in/{n}.csa"), GAME_CSA);
    }
    let o = kifu_in(d.path(), &["convert", "--to", "usi", "in"]);
    let e = err(&o);
    assert!(
        e.contains("kifu: warning[ending-dropped]: 3 times in 3 files; the first: in/a.csa: "),
        "{e}"
    );
    assert_eq!(e.matches("ending-dropped").count(), 1, "{e}");
    let o = kifu_in(d.path(), &["convert", "--verbose", "--to", "usi", "in"]);
    let e = err(&o);
    for n in ["a", "b", "c"] {
        assert!(
            e.contains(&format!("in/{n}.csa: warning[ending-dropped]: ")),
            "{e}"
        );
    }
    assert!(e.contains("3 files, 3 games (6 plies)"), "{e}");
}

#[test]
fn check_and_convert_report_an_unreadable_input_with_one_prefix_style() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "bad.usi", "position startpos moves 7g7x\n");
    let c = err(&kifu_in(d.path(), &["check", "bad.usi"]));
    let v = err(&kifu_in(d.path(), &["convert", "--to", "usi", "bad.usi"]));
    let first = |s: &str| s.lines().next().unwrap_or_default().to_string();
    assert!(
        first(&c).starts_with("bad.usi:1:25: expected a USI move"),
        "{c}"
    );
    assert_eq!(first(&c), first(&v));
}

#[test]
fn summaries_say_1_file_1_game_1_ply() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "g.usi", "position startpos moves 7g7f\n");
    let e = err(&kifu_in(d.path(), &["convert", "--to", "usi", "g.usi"]));
    assert!(e.contains("1 file, 1 game (1 ply)"), "{e}");
    assert!(e.contains("0 warnings"), "{e}");
    let o = out(&kifu_in(d.path(), &["check", "g.usi"]));
    assert!(o.contains("1 file, 1 game:"), "{o}");
    assert!(o.contains("\n1 ply;"), "{o}");
}

#[test]
fn the_perft_sfen_error_says_its_message_once() {
    let d = tempfile::tempdir().unwrap();
    let o = kifu_in(d.path(), &["perft", "--sfen", "bad", "1"]);
    assert_eq!(o.status.code(), Some(2));
    let e = err(&o);
    assert_eq!(e.matches("expected 3 or 4 fields").count(), 1, "{e}");
}

#[test]
fn to_and_from_are_case_insensitive() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "g.txt", GAME_CSA);
    let o = kifu_in(
        d.path(),
        &["convert", "-q", "--from", "CSA", "--to", "USI", "g.txt"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(out(&o), "position startpos moves 7g7f 3c3d\n");
}

#[test]
fn color_always_colours_a_pipe_and_never_or_the_default_does_not() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "g.usi", "position startpos moves 7g7f\n");
    write(d.path(), "nifu.usi", NIFU_USI);
    let o = kifu_in(
        d.path(),
        &["check", "--color", "always", "g.usi", "nifu.usi"],
    );
    let s = out(&o);
    assert!(s.contains("g.usi: \x1b[32mok\x1b[0m: 1 ply"), "{s:?}");
    assert!(s.contains("\x1b[1;31mnifu\x1b[0m"), "{s:?}");
    for args in [&["check", "--color", "never"][..], &["check"][..]] {
        let mut args = args.to_vec();
        args.extend(["g.usi", "nifu.usi"]);
        let o = kifu_in(d.path(), &args);
        assert!(
            !out(&o).contains('\x1b') && !err(&o).contains('\x1b'),
            "{args:?}"
        );
    }
}

/// Run `command` (a shell line) on a pseudo-terminal with script(1), when
/// it is installed; `None` (after saying so) otherwise.
fn on_a_terminal(dir: &Path, command: &str, test: &str) -> Option<String> {
    let o = Command::new("script")
        .args(["-qec", command, "/dev/null"])
        .env("KIFU", env!("CARGO_BIN_EXE_kifu"))
        .current_dir(dir)
        .stdin(Stdio::null())
        .output();
    match o {
        Ok(o) if o.status.code().is_some() && !o.stdout.is_empty() => Some(out(&o)),
        _ => {
            use std::io::Write;
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED: {test}: script(1) is not available"
            );
            None
        }
    }
}

#[test]
fn check_with_no_path_on_a_terminal_checks_the_current_directory() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "g.usi", "position startpos moves 7g7f\n");
    write(d.path(), "sub/h.csa", GAME_CSA);
    let test = "check_with_no_path_on_a_terminal_checks_the_current_directory";
    let Some(s) = on_a_terminal(d.path(), "\"$KIFU\" check --color never", test) else {
        return;
    };
    assert!(s.contains("g.usi: ok: 1 ply"), "{s}");
    assert!(s.contains("h.csa: ok: 2 plies"), "{s}");
    assert!(s.contains("2 files, 2 games"), "{s}");
}

#[test]
fn no_color_turns_colour_off_on_a_terminal() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "g.usi", "position startpos moves 7g7f\n");
    let test = "no_color_turns_colour_off_on_a_terminal";
    let Some(coloured) = on_a_terminal(d.path(), "\"$KIFU\" check g.usi", test) else {
        return;
    };
    assert!(coloured.contains("\x1b[32mok"), "{coloured:?}");
    let plain = on_a_terminal(d.path(), "NO_COLOR=1 \"$KIFU\" check g.usi", test).unwrap();
    assert!(!plain.contains('\x1b'), "{plain:?}");
}

#[test]
fn a_game_with_only_warnings_still_prints_its_ok_line_with_the_result() {
    let d = tempfile::tempdir().unwrap();
    // %TSUMI after one move: a false claim, a warning, not a foul.
    write(d.path(), "m.csa", "V2.2\nPI\n+\n+7776FU\n%TSUMI\n");
    let o = kifu_in(d.path(), &["check", "m.csa"]);
    let s = out(&o);
    assert!(s.contains("m.csa:5:1: warning[false-mate-claim]"), "{s}");
    assert!(s.contains("m.csa: ok: 1 ply, sente wins: checkmate"), "{s}");
    let q = out(&kifu_in(d.path(), &["check", "-q", "m.csa"]));
    assert!(
        q.contains("m.csa: ok: 1 ply"),
        "-q shows the whole game with findings: {q}"
    );
}

#[test]
fn the_good_games_of_a_multi_game_csa_file_with_a_syntax_error_are_converted() {
    let d = tempfile::tempdir().unwrap();
    let text =
        "V2.2\nPI\n+\n+7776FU\n%TORYO\n/\nPI\n+\n+7776FU\n-3334XX\n/\nPI\n+\n+2726FU\n%TORYO\n";
    write(d.path(), "three.csa", text);
    let o = kifu_in(d.path(), &["convert", "--to", "usi", "three.csa"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        out(&o),
        "position startpos moves 7g7f\nposition startpos moves 2g2f\n"
    );
    assert!(
        err(&o).contains("three.csa:10:6: ") && err(&o).contains("(game 2)"),
        "{}",
        err(&o)
    );
}

#[test]
fn the_man_page_has_exit_status_and_examples() {
    let d = tempfile::tempdir().unwrap();
    let page = out(&kifu_in(d.path(), &["man"]));
    assert!(
        page.contains(".SH \"EXIT STATUS\""),
        "no EXIT STATUS section"
    );
    assert!(page.contains(".SH EXAMPLES"), "no EXAMPLES section");
    let convert = page
        .split(".TH")
        .find(|p| p.contains("kifu\\-convert"))
        .unwrap();
    assert!(convert.contains("EXIT STATUS") && convert.contains("EXAMPLES"));
}
