//! Where `kifu convert -o` writes, for the inputs and targets a new user
//! tries first: nothing for an input that gave no game, straight into what
//! is not a regular file, and the messages and options around names.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use crate::common::{GAME_CSA, err, kifu_in, kifu_sh, out};

/// Every `--to` target.
const TARGETS: [&str; 11] = [
    "csa", "usi", "sfen", "json", "hcpe", "psv", "kif", "kifu", "ki2", "ki2u", "jkf",
];

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, bytes).unwrap();
    p
}

/// Every name in `dir`, sorted (temporary files included).
fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Inputs that hold no game: a web page, nothing, binary data, garble.
fn no_game_inputs(dir: &Path) -> Vec<&'static str> {
    write(dir, "page.html", b"<html><body>404</body></html>\n");
    write(dir, "empty.kif", b"");
    let binary: Vec<u8> = (0..=255u8).cycle().take(600).collect();
    write(dir, "binary.csa", &binary);
    write(dir, "garbled.usi", b"qwzx 7g7f ))((\n");
    vec!["page.html", "empty.kif", "binary.csa", "garbled.usi"]
}

#[test]
fn no_target_creates_an_output_for_an_input_that_gave_no_game() {
    let d = tempfile::tempdir().unwrap();
    let inputs = no_game_inputs(d.path());
    let before = names(d.path());
    for input in &inputs {
        for to in TARGETS {
            let o = kifu_in(d.path(), &["convert", "--to", to, "-o", "sub/out", input]);
            assert_eq!(o.status.code(), Some(2), "{input} --to {to}: {}", err(&o));
            assert_eq!(
                names(d.path()),
                before,
                "{input} --to {to}: nothing created (not even sub/)"
            );
        }
    }
}

#[cfg(unix)]
#[test]
fn force_leaves_an_existing_output_untouched_for_an_input_that_gave_no_game() {
    use std::os::unix::fs::MetadataExt;
    let d = tempfile::tempdir().unwrap();
    let inputs = no_game_inputs(d.path());
    let kept = write(d.path(), "out", b"an earlier run's output\n");
    let ino = std::fs::metadata(&kept).unwrap().ino();
    let before = names(d.path());
    for input in &inputs {
        for to in TARGETS {
            for flags in [&["--force"][..], &[], &["--skip-existing"]] {
                let mut args = vec!["convert", "--to", to, "-o", "out", input];
                args.extend(flags);
                let o = kifu_in(d.path(), &args);
                // --skip-existing skips the whole stream unread (exit 0).
                if flags != ["--skip-existing"] {
                    assert_eq!(o.status.code(), Some(2), "{input} {to} {flags:?}");
                }
                let m = std::fs::metadata(&kept).unwrap();
                assert_eq!(m.ino(), ino, "{input} --to {to} {flags:?}: replaced");
                assert_eq!(
                    std::fs::read(&kept).unwrap(),
                    b"an earlier run's output\n",
                    "{input} --to {to} {flags:?}"
                );
                assert_eq!(names(d.path()), before, "{input} --to {to} {flags:?}");
            }
        }
    }
}

#[test]
fn a_game_among_unreadable_inputs_is_still_written_to_one_stream() {
    let d = tempfile::tempdir().unwrap();
    no_game_inputs(d.path());
    write(d.path(), "g.csa", GAME_CSA.as_bytes());
    let o = kifu_in(
        d.path(),
        &[
            "convert",
            "-q",
            "--to",
            "usi",
            "-o",
            "all.usi",
            "page.html",
            "g.csa",
        ],
    );
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert_eq!(
        std::fs::read_to_string(d.path().join("all.usi")).unwrap(),
        "position startpos moves 7g7f 3c3d\n"
    );
}

/// Read the FIFO `fifo` with cat(1) while `run` writes into it, and give
/// back what was read; cat is killed if nothing ever opens the FIFO.
#[cfg(unix)]
fn read_fifo_while(fifo: &Path, run: impl FnOnce() -> Output) -> (Output, String) {
    let cat = Command::new("cat")
        .arg(fifo)
        .stdout(Stdio::piped())
        .spawn()
        .expect("cat runs");
    let o = run();
    let started = std::time::Instant::now();
    let mut cat = cat;
    while cat.try_wait().unwrap().is_none() && started.elapsed().as_secs() < 10 {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let _ = cat.kill();
    let read = cat.wait_with_output().unwrap();
    (o, String::from_utf8_lossy(&read.stdout).into_owned())
}

#[cfg(unix)]
fn is_fifo(p: &Path) -> bool {
    use std::os::unix::fs::FileTypeExt;
    std::fs::symlink_metadata(p).unwrap().file_type().is_fifo()
}

#[cfg(unix)]
#[test]
fn a_fifo_is_written_straight_into_and_never_replaced() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "g.csa", GAME_CSA.as_bytes());
    write(
        d.path(),
        "two.csa",
        format!("{GAME_CSA}/\nPI\n+\n+2726FU\n%TORYO\n").as_bytes(),
    );
    let fifo = d.path().join("pipe");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
    for flags in [&["--force"][..], &[]] {
        let (o, read) = read_fifo_while(&fifo, || {
            let mut args = vec!["convert", "-q", "--to", "usi", "-o", "pipe", "g.csa"];
            args.extend(flags);
            kifu_in(d.path(), &args)
        });
        assert_eq!(o.status.code(), Some(0), "{flags:?}: {}", err(&o));
        assert_eq!(read, "position startpos moves 7g7f 3c3d\n", "{flags:?}");
        assert!(is_fifo(&fifo), "{flags:?}: the FIFO was replaced");
    }
    // A one-game-per-file format writes every game into it, as to stdout.
    let (o, read) = read_fifo_while(&fifo, || {
        kifu_in(
            d.path(),
            &["convert", "--to", "kifu", "-o", "pipe", "two.csa"],
        )
    });
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(read.matches("まで").count(), 2, "{read}");
    assert!(
        err(&o).contains("2 games written one after another to pipe"),
        "{}",
        err(&o)
    );
    assert!(is_fifo(&fifo));
    assert_eq!(names(d.path()), ["g.csa", "pipe", "two.csa"]);
}

#[cfg(unix)]
#[test]
fn dev_null_stays_a_device_under_force() {
    use std::os::unix::fs::FileTypeExt;
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "g.csa", GAME_CSA.as_bytes());
    for to in ["usi", "kif", "csa"] {
        let o = kifu_in(
            d.path(),
            &[
                "convert",
                "-q",
                "--force",
                "--to",
                to,
                "-o",
                "/dev/null",
                "g.csa",
            ],
        );
        assert_eq!(o.status.code(), Some(0), "{to}: {}", err(&o));
        let t = std::fs::symlink_metadata("/dev/null").unwrap().file_type();
        assert!(t.is_char_device(), "--to {to}: /dev/null was replaced");
    }
    assert_eq!(names(d.path()), ["g.csa"]);
}

#[cfg(target_os = "linux")]
#[test]
fn dev_stdout_is_the_stream_the_shell_set_up_a_pipe_or_an_append() {
    use std::os::unix::fs::MetadataExt;
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "g.csa", GAME_CSA.as_bytes());
    let o = kifu_in(
        d.path(),
        &[
            "convert",
            "-q",
            "--force",
            "--to",
            "usi",
            "-o",
            "/dev/stdout",
            "g.csa",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(out(&o), "position startpos moves 7g7f 3c3d\n");
    let log = write(d.path(), "log.txt", b"earlier\n");
    let ino = std::fs::metadata(&log).unwrap().ino();
    for flags in ["--force", ""] {
        let o = kifu_sh(
            d.path(),
            &format!("\"$KIFU\" convert -q {flags} --to usi -o /dev/stdout g.csa >> log.txt"),
        );
        assert_eq!(o.status.code(), Some(0), "{flags}: {}", err(&o));
    }
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        "earlier\nposition startpos moves 7g7f 3c3d\nposition startpos moves 7g7f 3c3d\n"
    );
    assert_eq!(
        std::fs::metadata(&log).unwrap().ino(),
        ino,
        "log.txt replaced"
    );
    assert_eq!(names(d.path()), ["g.csa", "log.txt"]);
}

#[test]
fn a_directory_named_by_o_is_refused_not_replaced() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "g.csa", GAME_CSA.as_bytes());
    std::fs::create_dir(d.path().join("dir")).unwrap();
    let o = kifu_in(
        d.path(),
        &["convert", "--force", "--to", "usi", "-o", "dir", "g.csa"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(
        err(&o).contains("dir: not written: it is a directory"),
        "{}",
        err(&o)
    );
    assert!(d.path().join("dir").is_dir());
}

#[test]
fn twins_clash_naming_keep_extension_which_writes_both() {
    let d = tempfile::tempdir().unwrap();
    write(
        d.path(),
        "in/x.kif",
        "手合割：平手\n1 ７六歩(77)\n".as_bytes(),
    );
    write(
        d.path(),
        "in/x.kifu",
        "手合割：平手\n1 ２六歩(27)\n".as_bytes(),
    );
    write(d.path(), "in/y.KI2", "手合割：平手\n▲５六歩\n".as_bytes());
    write(
        d.path(),
        "in/y.kif",
        "手合割：平手\n1 １六歩(17)\n".as_bytes(),
    );
    let o = kifu_in(
        d.path(),
        &["convert", "--to", "csa", "--out-dir", "o", "in"],
    );
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    let e = err(&o);
    let clashes: Vec<&str> = e.lines().filter(|l| l.contains("output clash")).collect();
    assert_eq!(clashes.len(), 2, "{e}");
    for c in clashes {
        assert!(c.contains("--keep-extension"), "{c}");
        assert!(
            c.contains("x.kif.csa"),
            "the hint shows the name it gives: {c}"
        );
    }
    assert!(e.contains("2 not written"), "{e}");
    let o = kifu_in(
        d.path(),
        &[
            "convert",
            "-q",
            "--to",
            "csa",
            "--out-dir",
            "k",
            "--keep-extension",
            "in",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(
        names(&d.path().join("k")),
        ["x.kif.csa", "x.kifu.csa", "y.KI2.csa", "y.kif.csa"]
    );
    let x = std::fs::read_to_string(d.path().join("k/x.kifu.csa")).unwrap();
    assert!(x.contains("+2726FU"), "{x}");
}

/// `-o -` is standard output, as `-` is standard input: the games go to
/// stdout and no file called `-` appears, for shogi and for a variant.
#[test]
fn o_dash_writes_to_stdout_not_to_a_file_named_dash() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "game.csa", GAME_CSA.as_bytes());
    let o = kifu_in(
        dir.path(),
        &["convert", "--to", "usi", "-o", "-", "game.csa"],
    );
    assert!(o.status.success(), "{}", err(&o));
    assert_eq!(out(&o), "position startpos moves 7g7f 3c3d\n");
    let mini = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/variants/minishogi/legal-0.usi"),
    )
    .unwrap();
    write(dir.path(), "mini.usi", &mini);
    let o = kifu_in(
        dir.path(),
        &[
            "convert",
            "--variant",
            "minishogi",
            "--to",
            "usi",
            "-o",
            "-",
            "mini.usi",
        ],
    );
    assert!(o.status.success(), "{}", err(&o));
    assert!(out(&o).starts_with("position sfen"), "{}", out(&o));
    assert_eq!(names(dir.path()), ["game.csa", "mini.usi"]);
}
