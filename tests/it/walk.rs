//! What a directory walk reads: the files of a record's extension that are
//! not records (settings JSON, kifu's own training lines) are passed over
//! with a note, and read (an error) only when named on the command line.

use std::path::{Path, PathBuf};
use std::process::Output;

use crate::common::{GAME_CSA, err, kifu_in};

/// What `check` printed: its lines and summary (stdout), then its notes
/// and errors (stderr).
fn all(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &err(o)
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn a_json_that_is_not_jkf_is_passed_over_in_a_walk_with_a_note() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "t/g.csa", GAME_CSA);
    write(
        d.path(),
        "t/tsconfig.json",
        "{\n  // the compiler's options\n  \"compilerOptions\": { \"strict\": true, },\n}\n",
    );
    write(
        d.path(),
        "t/package.json",
        "{\"name\": \"x\", \"version\": \"1.0.0\"}\n",
    );
    let o = kifu_in(d.path(), &["check", "t"]);
    let e = all(&o);
    assert_eq!(o.status.code(), Some(0), "{e}");
    assert!(
        e.contains(
            "note: passed over 2 .json files that are not JKF: t/package.json, t/tsconfig.json"
        ),
        "{e}"
    );
    assert!(e.contains("1 file, 1 game"), "{e}");
    // Named on the command line, it is read, and is an error.
    let o = kifu_in(d.path(), &["check", "t/tsconfig.json"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(
        err(&o).contains("t/tsconfig.json:2:3: not valid JKF"),
        "{}",
        err(&o)
    );
}

#[test]
fn a_truncated_jkf_in_a_walk_is_still_reported() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "t/g.csa", GAME_CSA);
    write(
        d.path(),
        "t/cut.json",
        "{\"header\": {\"先手\": \"a\"}, \"moves\": [{}, {\"move\"",
    );
    let o = kifu_in(d.path(), &["check", "t"]);
    let e = all(&o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains("t/cut.json:1:"), "{e}");
    assert!(!e.contains("passed over"), "{e}");
}

#[test]
fn kifus_own_line_outputs_in_a_tree_never_fail_a_check_of_it() {
    let d = tempfile::tempdir().unwrap();
    write(d.path(), "t/g.csa", GAME_CSA);
    for (to, name) in [
        ("sfen", "t/out/all.sfen"),
        ("usi", "t/out/all.usi"),
        ("json", "t/out/all.jsonl"),
    ] {
        let o = kifu_in(
            d.path(),
            &["convert", "-q", "--to", to, "-o", name, "t/g.csa"],
        );
        assert_eq!(o.status.code(), Some(0), "{to}: {}", err(&o));
    }
    let o = kifu_in(d.path(), &["check", "t"]);
    let e = all(&o);
    assert_eq!(o.status.code(), Some(0), "{e}");
    // The USI lines are a record and read back; the SFEN lines are
    // positions, passed over with a note; .jsonl is no record's extension.
    assert!(e.contains("2 files, 2 games"), "{e}");
    assert!(
        e.contains("note: passed over 1 .sfen file of `kifu convert --to sfen` lines (positions, not game records): t/out/all.sfen"),
        "{e}"
    );
    // Named on the command line, the SFEN lines are an error.
    let o = kifu_in(d.path(), &["check", "t/out/all.sfen"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(
        err(&o).contains("t/out/all.sfen:1:1: not a shogi record: it holds the lines `kifu convert --to sfen` writes"),
        "{}",
        err(&o)
    );
    // A .sfen file that holds a record is read in a walk.
    write(
        d.path(),
        "u/p.sfen",
        "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f\n",
    );
    let o = kifu_in(d.path(), &["check", "u"]);
    assert_eq!(o.status.code(), Some(0), "{}", all(&o));
    assert!(all(&o).contains("1 file, 1 game"), "{}", all(&o));
    assert!(!all(&o).contains("passed over"), "{}", all(&o));
}
