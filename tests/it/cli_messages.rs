//! The small contracts of the command line a new user meets first: help
//! that says what an option does, warnings for options that would do
//! nothing, closed pipes, errors said once, and interrupts.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common::{GAME_CSA, err, kifu_in, out};

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn the_output_help_says_the_line_formats_take_several_inputs() {
    let d = tempfile::tempdir().unwrap();
    let o = kifu_in(d.path(), &["convert", "--help"]);
    assert_eq!(o.status.code(), Some(0));
    let help = out(&o);
    assert!(!help.contains("one input only"), "{help}");
    let at = help.find("--output <FILE>").expect("-o in the help");
    let text = &help[at..at + 400];
    assert!(text.contains("usi, sfen, json, hcpe, psv"), "{text}");
    // And it is true: two inputs into one -o FILE.
    write(d.path(), "a.csa", GAME_CSA);
    write(d.path(), "b.usi", "position startpos moves 2g2f\n");
    let o = kifu_in(
        d.path(),
        &[
            "convert", "-q", "--to", "sfen", "-o", "all.sfen", "a.csa", "b.usi",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let all = std::fs::read_to_string(d.path().join("all.sfen")).unwrap();
    assert_eq!(all.lines().count(), 3 + 2, "{all}");
}

#[test]
fn split_variations_warns_for_every_target_that_ignores_it() {
    let d = tempfile::tempdir().unwrap();
    write(
        d.path(),
        "v.kifu",
        "手合割：平手\n1 ７六歩(77)\n2 ３四歩(33)\n\n変化：2手\n2 ８四歩(83)\n",
    );
    for to in ["usi", "sfen", "hcpe", "psv"] {
        let o = kifu_in(
            d.path(),
            &[
                "convert",
                "--split-variations",
                "--to",
                to,
                "-o",
                "out",
                "v.kifu",
            ],
        );
        let e = err(&o);
        assert!(
            e.contains(&format!(
                "--split-variations applies to --to csa only: --to {to} writes the main line"
            )),
            "{to}: {e}"
        );
    }
    for to in ["kif", "kifu", "ki2", "ki2u", "jkf", "json"] {
        let o = kifu_in(
            d.path(),
            &["convert", "--split-variations", "--to", to, "v.kifu"],
        );
        let e = err(&o);
        let ext = if to == "json" { "jsonl" } else { to };
        assert!(
            e.contains(&format!("--to {ext} keeps the variations as variations")),
            "{to}: {e}"
        );
    }
    let o = kifu_in(
        d.path(),
        &["convert", "--split-variations", "--to", "csa", "v.kifu"],
    );
    assert!(!err(&o).contains("--split-variations"), "{}", err(&o));
    assert_eq!(out(&o).matches("+7776FU").count(), 2, "split: {}", out(&o));
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
fn shift_jis_to_a_terminal_warns_and_names_the_utf8_target() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "g.csa", GAME_CSA);
    let test = "shift_jis_to_a_terminal_warns_and_names_the_utf8_target";
    for (to, utf8) in [("kif", "kifu"), ("ki2", "ki2u")] {
        let Some(s) = on_a_terminal(
            d.path(),
            &format!("\"$KIFU\" convert --to {to} g.csa"),
            test,
        ) else {
            return;
        };
        assert!(
            s.contains(&format!(
                "--to {to} writes Shift_JIS, which a terminal shows garbled: --to {utf8} writes"
            )),
            "{s}"
        );
    }
    // Not to a pipe or a file, where Shift_JIS is what was asked for.
    let o = kifu_in(d.path(), &["convert", "--to", "kif", "g.csa"]);
    assert!(!err(&o).contains("Shift_JIS"), "{}", err(&o));
    let Some(s) = on_a_terminal(d.path(), "\"$KIFU\" convert --to kifu g.csa", test) else {
        return;
    };
    assert!(!s.contains("Shift_JIS,"), "{s}");
}

/// Run kifu with its stdout a pipe whose reading end is already closed.
fn into_a_closed_pipe(dir: &Path, args: &[&str]) -> Output {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("kifu runs")
}

#[test]
fn a_closed_pipe_is_not_an_error_for_any_command() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "g.csa", GAME_CSA);
    let runs: [&[&str]; 9] = [
        &["completions", "bash"],
        &["completions", "zsh"],
        &["man"],
        &["check", "g.csa"],
        &["check", "--json", "g.csa"],
        &["stats", "g.csa"],
        &["stats", "--json", "g.csa"],
        &["convert", "-q", "--to", "kifu", "g.csa"],
        &["show", "g.csa"],
    ];
    for args in runs {
        let o = into_a_closed_pipe(d.path(), args);
        let e = err(&o);
        assert!(!e.contains("panicked"), "{args:?}: {e}");
        assert!(!e.contains("Broken pipe"), "{args:?}: {e}");
        assert_eq!(o.status.code(), Some(0), "{args:?}: {e}");
    }
}

#[test]
fn show_names_the_file_and_says_the_error_once() {
    let d = tempfile::tempdir().unwrap();
    write(
        d.path(),
        "two.csa",
        "V2.2\nPI\n+\n+7776FU\n/\nPI\n+\n+7777XX\n",
    );
    let o = kifu_in(d.path(), &["show", "--game", "2", "two.csa"]);
    assert_eq!(o.status.code(), Some(2));
    let e = err(&o);
    assert_eq!(e.lines().count(), 1, "{e}");
    assert_eq!(e.matches("two.csa").count(), 1, "{e}");
    assert!(e.contains("two.csa:8:6:") && e.contains("(game 2)"), "{e}");
    let o = kifu_in(d.path(), &["show", "missing.kif"]);
    let e = err(&o);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(e.matches("missing.kif").count(), 1, "{e}");
    assert_eq!(e.matches("os error 2").count(), 1, "{e}");
}

#[test]
fn the_report_names_each_unreadable_input_once() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "page.html", "<html><body>404</body></html>\n");
    write(d.path(), "g.csa", GAME_CSA);
    let o = kifu_in(
        d.path(),
        &[
            "check",
            "--report",
            "r.html",
            "page.html",
            "missing.kif",
            "g.csa",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    let html = std::fs::read_to_string(d.path().join("r.html")).unwrap();
    let at = html
        .find("id=\"unreadable\"")
        .expect("the unreadable section");
    let section = &html[at..html[at..].find("</section>").unwrap() + at];
    let items: Vec<&str> = section.lines().filter(|l| l.starts_with("<li>")).collect();
    assert_eq!(items.len(), 2, "{section}");
    assert_eq!(items[0].matches("page.html").count(), 1, "{}", items[0]);
    assert!(
        items[0].starts_with("<li><code>page.html:1:1</code>: not a shogi record"),
        "{}",
        items[0]
    );
    assert_eq!(items[1].matches("missing.kif").count(), 1, "{}", items[1]);
}

/// A CSA file of `n` short games.
fn many_games(n: usize) -> String {
    let game = "PI\n+\n+7776FU\n-3334FU\n+2726FU\n-8384FU\n%TORYO\n";
    let mut s = String::from("V2.2\n");
    s.push_str(&vec![game; n].join("/\n"));
    s
}

#[cfg(unix)]
#[test]
fn check_on_sigint_stops_with_the_summary_so_far_and_exits_2_as_convert_does() {
    use std::io::BufRead;
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "big.csa", &many_games(100_000));
    let mut child = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["check", "big.csa"])
        .current_dir(d.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read stdout on a thread (so the child never blocks on it), saying
    // when the first game's line has come.
    let stdout = child.stdout.take().unwrap();
    let (started, first) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut lines = Vec::new();
        for line in std::io::BufReader::new(stdout).lines() {
            lines.push(line.unwrap());
            if lines.len() == 1 {
                let _ = started.send(());
            }
        }
        lines
    });
    first
        .recv_timeout(std::time::Duration::from_secs(120))
        .expect("a first game line");
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let status = child.wait().unwrap();
    let lines = reader.join().unwrap();
    let mut e = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut e).unwrap();
    assert_eq!(status.code(), Some(2), "{e}");
    assert!(e.contains("interrupted: the run stopped"), "{e}");
    let summary = lines
        .iter()
        .find(|l| l.starts_with("1 file, "))
        .unwrap_or_else(|| panic!("no summary: {:?}", lines.last()));
    let games: usize = summary["1 file, ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(games > 0 && games < 100_000, "stopped part way: {summary}");
    let ok_lines = lines.iter().filter(|l| l.starts_with("big.csa")).count();
    assert_eq!(ok_lines, games, "the summary counts the games printed");
}
