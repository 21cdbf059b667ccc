//! The KI2 writer against the corpus: every game kifu reads, written as KI2
//! and read back, keeps its moves; KI2's traditional notation must name
//! the same piece for the reader as the replay moved.

use crate::common;
use kifu::emit::ki2::write;
use kifu::replay::{Game, LineResult, replay};
use kifu::{Record, ReplayOptions};

fn replay_one(rec: Record) -> Result<Game, String> {
    replay(rec, &ReplayOptions::default()).map_err(|e| e.to_string())
}

fn usi(r: &LineResult) -> Vec<String> {
    r.plies.iter().map(|p| p.mv.to_usi()).collect()
}

/// Every line's first ply and moves, in a stable order.
fn lines(g: &Game) -> Vec<(u32, Vec<String>)> {
    let mut v: Vec<_> = g
        .variations
        .iter()
        .filter(|v| !v.line.plies.is_empty())
        .map(|v| (v.line.first_ply, usi(&v.line)))
        .collect();
    v.sort();
    v
}

fn ambiguous(g: &Game) -> bool {
    std::iter::once(&g.main)
        .chain(g.variations.iter().map(|v| &v.line))
        .any(|l| l.diagnostics.iter().any(|d| d.code == "ambiguous-move"))
}

/// Write, read back, compare; `Err` names what changed.
fn round_trip(game: &Game) -> Result<(), String> {
    let (text, _) = write(game);
    let recs = kifu::parse::ki2::parse(&text).map_err(|e| format!("unreadable: {e}\n{text}"))?;
    let again = replay_one(recs.into_iter().next().ok_or("no record")?)
        .map_err(|e| format!("start position: {e}\n{text}"))?;
    if ambiguous(&again) {
        return Err(format!("ambiguous-move on reading back\n{text}"));
    }
    if usi(&game.main) != usi(&again.main) {
        return Err(format!(
            "main line {:?}\nbecame {:?}\n{text}",
            usi(&game.main),
            usi(&again.main)
        ));
    }
    if lines(game) != lines(&again) {
        return Err(format!("variations differ\n{text}"));
    }
    let (text2, _) = write(&again);
    if text2 != text {
        let (a, b) = text
            .lines()
            .zip(text2.lines())
            .find(|(a, b)| a != b)
            .unwrap_or_default();
        return Err(format!(
            "second write differs at {a:?} / {b:?}\n{text}\n----\n{text2}"
        ));
    }
    Ok(())
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn corpus_ki2_round_trips() {
    let dir = common::corpus_dir("corpus_ki2_round_trips");
    let exts = [
        "kif", "kifu", "ki2", "ki2u", "KI2", "csa", "jkf", "usi", "sfen",
    ];
    let files = common::files_with_ext(&dir, &exts);
    let (mut games, mut variations, mut skipped, mut failures) = (0, 0, Vec::new(), Vec::new());
    for f in &files {
        let input = match kifu::input::read_path(f, &Default::default()) {
            Ok(i) => i,
            Err(e) => {
                skipped.push(format!("{}: {e}", f.display()));
                continue;
            }
        };
        for (k, rec) in input.records.into_iter().enumerate() {
            let game = match replay_one(rec) {
                Ok(g) => g,
                Err(e) => {
                    skipped.push(format!("{} game {k}: {e}", f.display()));
                    continue;
                }
            };
            match round_trip(&game) {
                Ok(()) => {
                    games += 1;
                    variations += game.variations.len();
                }
                Err(e) => failures.push(format!("{} game {k}: {e}", f.display())),
            }
        }
    }
    for s in &skipped {
        eprintln!("skipped: {s}");
    }
    assert!(games > 0, "no game round-tripped");
    common::assert_no_failures(
        &format!(
            "KI2 round trip: {} files, {games} games ({variations} variations) ok, {} skipped, {} failed",
            files.len(),
            skipped.len(),
            failures.len()
        ),
        &failures,
    );
}

/// `convert --to ki2` writes Shift_JIS with CRLF, `--to ki2u` UTF-8; both
/// read back as the same game.
#[test]
fn cli_converts_to_ki2_and_ki2u() {
    let dir = std::env::temp_dir().join(format!("kifu-ki2w-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("g.kifu");
    std::fs::write(
        &src,
        "手合割：平手\n1 ７六歩(77)\n2 ３四歩(33)\n3 ２二角成(88)\n4 同　銀(31)\n5 投了\n",
    )
    .unwrap();
    for (to, sjis) in [("ki2", true), ("ki2u", false)] {
        let out = dir.join(format!("g.{to}"));
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_kifu"))
            .args(["convert", "--to", to, "-o"])
            .arg(&out)
            .arg(&src)
            .status()
            .unwrap();
        assert!(status.success(), "{to}");
        let bytes = std::fs::read(&out).unwrap();
        let text = if sjis {
            let (t, _, bad) = encoding_rs::SHIFT_JIS.decode(&bytes);
            assert!(!bad);
            assert!(t.contains("\r\n"));
            t.replace("\r\n", "\n")
        } else {
            String::from_utf8(bytes).unwrap()
        };
        assert_eq!(
            text,
            "手合割：平手\n▲７六歩    △３四歩    ▲２二角成  △同　銀\nまで4手で後手の勝ち\n"
        );
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// KI2 has only its `まで` line for the ending: after a perpetual check
/// completed by the checked side's move it names the checker, to move, as
/// the loser.
#[test]
fn perpetual_check_ki2_closing_line_names_the_side_to_move() {
    for path in common::PERPETUAL_CHECK {
        let (ki2, _) = write(&common::game_of(path));
        assert!(
            ki2.contains("△１一玉\nまで12手で先手の反則負け\n"),
            "{path}:\n{ki2}"
        );
        common::assert_same_perpetual_check(&ki2, kifu::Format::Ki2, path);
    }
}
