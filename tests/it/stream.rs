//! Large multi-game CSA files, which `kifu check` reads as a stream of
//! blocks: games and `/` lines that straddle a block, CRLF, a truncated last
//! game. What the stream reports must be what reading the text whole gives.

use std::process::{Command, Stdio};

/// The size of the stream's reads (`BLOCK_BYTES` in `src/cmd/stream.rs`).
/// Were it to change, these tests would still pass, without straddling.
const BLOCK: usize = 256 * 1024;

/// `n` short legal games (one move and one time a line), `/`-separated,
/// with a version line only at the top.
fn games(n: usize, eol: &str) -> String {
    let moves = [
        "+7776FU", "-3334FU", "+2726FU", "-8384FU", "+2625FU", "-8485FU", "+6978KI",
    ];
    let mut s = format!("V2.2{eol}");
    for i in 0..n {
        if i > 0 {
            s.push_str(&format!("/{eol}"));
        }
        s.push_str(&format!("N+p{i}{eol}N-q{i}{eol}PI{eol}+{eol}"));
        for m in &moves[..1 + i % moves.len()] {
            s.push_str(&format!("{m}{eol}T{}{eol}", i % 60));
        }
        s.push_str(&format!("%TORYO{eol}"));
    }
    s
}

/// Shift `text` (with a comment line at its top) so that the `/` of its
/// last `/` line before `at` lands on byte `at`, and break the game after
/// that line with a position statement among its moves.
fn slash_at(text: &str, at: usize, eol: &str) -> String {
    let sep = format!("{eol}/{eol}");
    let slash = text[..at - 8]
        .rfind(&sep)
        .map(|p| p + eol.len())
        .expect("a / line before the target");
    let pad = at - slash;
    let comment = format!("'{}{eol}", "x".repeat(pad - 1 - eol.len()));
    assert_eq!(comment.len(), pad);
    let mut out = format!("{comment}{text}");
    assert_eq!(&out[at..at + 1], "/");
    let bad = at + 1 + eol.len() + out[at + 1 + eol.len()..].find("+7776FU").unwrap();
    out.insert_str(bad, &format!("P1 oops{eol}"));
    out
}

/// Check `text` as a streamed file and compare every game's line of
/// `--json` output with what parsing the whole text gives.
fn streamed_matches_whole(text: &str) {
    assert!(
        text.len() > BLOCK * 2,
        "large enough to be streamed in blocks"
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("all.csa");
    std::fs::write(&path, text).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["check", "--json", "-j2", path.to_str().unwrap()])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    let got: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let want = kifu::parse::csa::parse_each(text);
    assert_eq!(got.len(), want.len());
    let mut failed = 0;
    for (g, (index, w)) in got.iter().zip(&want) {
        assert_eq!(g["index"], *index, "{g}");
        match w {
            Ok(r) => assert_eq!(g["plies"], r.main.moves.len(), "{g}"),
            Err(e) => {
                failed += 1;
                assert_eq!(g["error"]["line"], e.span.line, "{g}");
                assert_eq!(g["error"]["column"], e.span.column, "{g}");
            }
        }
    }
    assert!(failed > 0, "the broken game is reported");
}

#[test]
fn a_slash_line_on_every_side_of_a_block_boundary_cuts_the_same_games() {
    let text = games(12_000, "\n");
    for at in [BLOCK - 2, BLOCK - 1, BLOCK, BLOCK + 1] {
        streamed_matches_whole(&slash_at(&text, at, "\n"));
    }
}

#[test]
fn crlf_games_straddling_a_block_keep_their_lines() {
    let text = games(12_000, "\r\n");
    for at in [BLOCK - 1, BLOCK] {
        streamed_matches_whole(&slash_at(&text, at, "\r\n"));
    }
}

#[test]
fn crlf_split_between_two_blocks_is_one_line_end() {
    // The `/` line's CR is the last byte of the first block, its LF the
    // first of the next.
    let text = games(12_000, "\r\n");
    streamed_matches_whole(&slash_at(&text, BLOCK - 2, "\r\n"));
}

#[test]
fn bare_cr_games_are_cut_as_when_read_whole() {
    // Old Mac line ends: a large file used to be read as one game (and
    // failed), while the same games in a small file were read one by one.
    let text = games(12_000, "\r");
    for at in [BLOCK - 2, BLOCK - 1, BLOCK, BLOCK + 1] {
        streamed_matches_whole(&slash_at(&text, at, "\r"));
    }
}

#[test]
fn a_truncated_last_game_fails_alone() {
    let mut text = slash_at(&games(12_000, "\n"), BLOCK, "\n");
    // Cut in the middle of the last move.
    text.truncate(text.trim_end().rfind("+7776FU").unwrap() + 3);
    streamed_matches_whole(&text);
    // A final `/` line with no line end closes the last game as usual.
    let mut text = slash_at(&games(12_000, "\n"), BLOCK, "\n");
    text.push('/');
    streamed_matches_whole(&text);
}

#[test]
fn a_long_line_of_slashes_is_read_in_linear_time() {
    let mut text = format!("'{}\n", "/".repeat(3 * BLOCK));
    text.push_str(&games(3, "\n"));
    text.push_str("/\nP1 oops\n");
    streamed_matches_whole(&text);
}

/// The size test that decides whether a file is streamed reads at most one
/// byte past the limit: a file of exactly the limit is read whole, one
/// byte longer is left to the stream.
#[test]
fn read_path_within_reads_a_file_up_to_the_limit_and_declines_a_longer_one() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("g.csa");
    let text = games(3, "\n");
    std::fs::write(&path, &text).unwrap();
    let opts = kifu::input::ReadOptions::default();
    let len = text.len() as u64;
    let whole = kifu::input::read_path_within(&path, &opts, len).unwrap();
    assert_eq!(whole.map(|i| i.records.len()), Some(3));
    assert!(
        kifu::input::read_path_within(&path, &opts, len - 1)
            .unwrap()
            .is_none()
    );
    // The buffer kept between files holds nothing of the previous one.
    let short = dir.path().join("h.csa");
    std::fs::write(&short, games(1, "\n")).unwrap();
    let one = kifu::input::read_path(&short, &opts).unwrap();
    assert_eq!(one.records.len(), 1);
}
