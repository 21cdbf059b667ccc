//! The KI2 reader against the corpus, its KIF twins, and the worked
//! disambiguation examples of ki2.md §7.1.

use crate::common;
use kifu::decode::decode;
use kifu::parse::{ki2, kif};
use kifu::record::{Dest, EndingKind, Notation, Record, Relative};
use kifu::replay::{Game, Verdict, replay};
use kifu::resolve::{Unresolved, resolve};
use kifu::{Color, Move, PieceKind, Position, ReplayOptions, Square};
use std::path::Path;

fn read_with(path: &Path, kif_format: bool) -> Result<Record, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let d = decode(&bytes, None).map_err(|e| e.to_string())?;
    let mut v = if kif_format {
        kif::parse(&d.text)
    } else {
        ki2::parse(&d.text)
    }
    .map_err(|e| e.to_string())?;
    if v.len() != 1 {
        return Err(format!("{} records", v.len()));
    }
    Ok(v.remove(0))
}

fn play(rec: Record) -> Result<Game, String> {
    replay(rec, &ReplayOptions::default()).map_err(|e| e.to_string())
}

fn usi_moves(g: &Game) -> Vec<String> {
    g.main.plies.iter().map(|p| p.mv.to_usi()).collect()
}

/// Problems a replay shows that a good reader must not cause.
fn replay_problems(g: &Game) -> Vec<String> {
    let mut out = Vec::new();
    let lines = std::iter::once(&g.main).chain(g.variations.iter().map(|v| &v.line));
    for l in lines {
        for d in &l.diagnostics {
            if d.code == "ambiguous-move" || d.code == "bad-notation" {
                out.push(format!("{}: {}", d.code, d.message));
            }
        }
        // The corpus records legal games; a foul means a misread move.
        if let Verdict::Foul(f) = &l.verdict {
            out.push(format!("foul at ply {}: {}", f.ply, f.detail));
        }
    }
    out
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn every_corpus_ki2_file_reads_and_replays() {
    let dir = common::corpus_dir("every_corpus_ki2_file_reads_and_replays");
    let files = common::files_with_ext(&dir, &["ki2", "ki2u", "KI2"]);
    assert!(!files.is_empty());
    let mut failures = Vec::new();
    let mut moves = 0usize;
    for f in &files {
        let name = f.strip_prefix(&dir).unwrap_or(f).display().to_string();
        let g = match read_with(f, false).and_then(play) {
            Ok(g) => g,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        moves += g.main.plies.len();
        for p in replay_problems(&g) {
            failures.push(format!("{name}: {p}"));
        }
    }
    common::assert_no_failures(
        &format!(
            "KI2 corpus: {} files, {} failed, {moves} main-line plies replayed",
            files.len(),
            failures.len()
        ),
        &failures,
    );
}

/// The KIF twin of a KI2 file: same name with a KIF extension, beside it or
/// in the parallel `kif/` folder.
fn twin(ki2: &Path, root: &Path) -> Option<std::path::PathBuf> {
    let rel = ki2
        .strip_prefix(root)
        .ok()?
        .to_string_lossy()
        .replace('\\', "/");
    // mog-core-scala numbers each format separately (MANIFEST): map by game.
    if let Some(n) = rel.strip_prefix("ki2/mog-core-scala/game/") {
        let k = match n {
            "001.ki2" | "002.ki2" => "001.kif",
            "005.ki2" => "010.kif",
            _ => return None,
        };
        return Some(root.join("kif/mog-core-scala/game").join(k));
    }
    let stem = ki2.file_stem()?.to_str()?;
    let mut dirs = vec![ki2.parent()?.to_path_buf()];
    if let Ok(rel) = ki2.parent()?.strip_prefix(root) {
        let s = rel.to_string_lossy();
        let swapped = if let Some(r) = s.strip_prefix("ki2") {
            format!("kif{r}")
        } else {
            s.replace("/ki2", "/kif")
        };
        dirs.push(root.join(swapped));
    }
    for d in dirs {
        for ext in ["kif", "kifu", "KIF"] {
            let p = d.join(format!("{stem}.{ext}"));
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn kif_and_ki2_twins_give_identical_move_lists() {
    let dir = common::corpus_dir("kif_and_ki2_twins_give_identical_move_lists");
    let mut pairs = 0;
    let mut failures = Vec::new();
    for f in common::files_with_ext(&dir, &["ki2", "ki2u", "KI2"]) {
        let Some(k) = twin(&f, &dir) else { continue };
        let name = f.strip_prefix(&dir).unwrap_or(&f).display().to_string();
        let a = read_with(&f, false).and_then(play);
        let b = read_with(&k, true).and_then(play);
        match (a, b) {
            (Ok(a), Ok(b)) => {
                pairs += 1;
                let (ma, mb) = (usi_moves(&a), usi_moves(&b));
                if ma != mb {
                    let at = ma.iter().zip(&mb).position(|(x, y)| x != y);
                    failures.push(format!(
                        "{name}: {} vs {} plies, first difference at {at:?}",
                        ma.len(),
                        mb.len()
                    ));
                }
            }
            (a, b) => failures.push(format!("{name}: {:?} / {:?}", a.err(), b.err())),
        }
    }
    assert!(pairs >= 24, "only {pairs} pairs found");
    common::assert_no_failures(
        &format!(
            "KIF/KI2 twins: {pairs} pairs compared, {} differ",
            failures.len()
        ),
        &failures,
    );
}

fn corpus_game(test: &str, rel: &str) -> Game {
    let dir = common::corpus_dir(test);
    read_with(&dir.join(rel), false)
        .and_then(play)
        .unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn manifest_outcomes_hold() {
    let fx = "mixed/json-kifu-format-fixtures/ki2";
    let g = corpus_game("manifest_outcomes", &format!("{fx}/illegal.ki2"));
    assert_eq!(g.main.plies.len(), 2);
    let e = g.record.main.ending.as_ref().unwrap();
    assert_eq!(e.kind, EndingKind::FoulByMover);
    assert_eq!(g.main.result.reason, "foul");
    assert_eq!(g.variations.len(), 1);

    let g = corpus_game("manifest_outcomes", &format!("{fx}/9fu.ki2"));
    assert_eq!(g.main.plies.len(), 61);
    assert_eq!(
        g.record.main.ending.as_ref().unwrap().kind,
        EndingKind::Tsumi
    );
    assert_eq!(g.main.result.reason, "checkmate");

    let g = corpus_game("manifest_outcomes", &format!("{fx}/fuujite.ki2u"));
    assert_eq!(g.main.plies.len(), 2);
    assert_eq!(
        g.record.main.ending.as_ref().unwrap().kind,
        EndingKind::Sealed
    );

    let g = corpus_game("manifest_outcomes", &format!("{fx}/fork.ki2"));
    assert_eq!(g.main.plies.len(), 3);
    let mut nested = 0;
    let mut stack = vec![&g.record.main];
    while let Some(l) = stack.pop() {
        for m in &l.moves {
            nested += m.variations().len();
            stack.extend(m.variations().iter());
        }
    }
    assert_eq!(nested, 7);

    let g = corpus_game(
        "manifest_outcomes",
        &format!("{fx}/kobayashi_kinsho196702.ki2"),
    );
    assert_eq!(g.main.plies.len(), 49);
    assert_eq!(g.main.result.reason, "checkmate");

    for (f, n) in [("003.ki2", 34), ("004.ki2", 27), ("005.ki2", 258)] {
        let g = corpus_game("manifest_outcomes", &format!("ki2/mog-core-scala/game/{f}"));
        assert_eq!(g.main.plies.len(), n, "{f}");
    }
    let g = corpus_game("manifest_outcomes", "ki2/mog-core-scala/game/005.ki2");
    assert_eq!(
        g.record.main.ending.as_ref().unwrap().kind,
        EndingKind::Jishogi
    );
}

// ki2.md §7.1 worked examples, read back with the §6 algorithm.

fn sq(f: u8, r: u8) -> Square {
    Square::new(f, r).unwrap()
}

fn read_move(sfen: &str, text: &str) -> Result<Move, Unresolved> {
    let pos = Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e:?}"));
    let rec = ki2::parse(text).unwrap().remove(0);
    let n = &rec.main.moves[0].notation;
    assert!(matches!(
        n,
        Notation::Ki2 {
            dest: Dest::Square(_),
            ..
        }
    ));
    resolve(&pos, n, None).map(|r| r.mv)
}

fn from_to(f: (u8, u8), t: (u8, u8), promote: bool) -> Move {
    Move::Normal {
        from: sq(f.0, f.1),
        to: sq(t.0, t.1),
        promote,
    }
}

#[test]
fn worked_examples_read_back() {
    // Kings far away on 1九/9一 so no move is a pin or check.
    let golds3 = "k8/9/9/9/9/9/9/9/3GGG2K b - 1";
    let side = "k8/9/9/9/9/9/3G1G3/9/8K b - 1";
    let updown = "k8/9/9/9/9/4G4/9/5G3/8K b - 1";
    let three = "k8/9/9/9/3G5/3GG4/9/9/8K b - 1";
    let dragons = "3+R+R4/9/9/9/9/9/9/9/k7K b - 1";
    let dragons2 = "1+R7/+R8/9/9/4k4/9/9/9/8K b - 1";
    // Gote: left and right mirror (gote's right = higher file numbers).
    let gote = "3g1g3/9/9/9/9/9/9/9/k7K w - 1";
    let knights = "k8/9/9/9/9/9/9/9/N1N5K b - 1";
    let silvers2 = "k8/9/5S3/9/3S5/9/9/9/8K b - 1";
    let silvers3 = "k8/9/3S1S3/9/3S5/9/9/9/8K b - 1";
    let gold_drop = "k8/9/9/9/9/9/9/9/4G3K b G 1";
    let promote = "k8/9/9/7P1/6S2/9/9/9/8K b - 1";
    let silver = "k8/9/9/6S2/9/9/9/9/8K b - 1";
    let moves = [
        (golds3, "▲５八金左", (6, 9), (5, 8), false),
        (golds3, "▲５八金直", (5, 9), (5, 8), false),
        (golds3, "▲５八金右", (4, 9), (5, 8), false),
        (side, "▲５七金右", (4, 7), (5, 7), false),
        (side, "▲５七金左", (6, 7), (5, 7), false),
        (updown, "▲５七金引", (5, 6), (5, 7), false),
        (updown, "▲５七金上", (4, 8), (5, 7), false),
        (three, "▲５五金左上", (6, 6), (5, 5), false),
        (three, "▲５五金寄", (6, 5), (5, 5), false),
        (three, "▲５五金直", (5, 6), (5, 5), false),
        (dragons, "▲５二龍左", (6, 1), (5, 2), false),
        (dragons, "▲５二竜右", (5, 1), (5, 2), false),
        (dragons2, "▲８二龍寄", (9, 2), (8, 2), false),
        (dragons2, "▲８二龍引", (8, 1), (8, 2), false),
        (gote, "△５二金右", (6, 1), (5, 2), false),
        (gote, "△５二金左", (4, 1), (5, 2), false),
        (knights, "▲８七桂左", (9, 9), (8, 7), false),
        (knights, "▲８七桂右", (7, 9), (8, 7), false),
        (silvers2, "▲５四銀引不成", (4, 3), (5, 4), false),
        (silvers3, "▲５四銀右不成", (4, 3), (5, 4), false),
        (silvers3, "▲５四銀左引不成", (6, 3), (5, 4), false),
        (silvers3, "▲５四銀上", (6, 5), (5, 4), false),
        (silvers3, "▲５四銀右成", (4, 3), (5, 4), true),
        (gold_drop, "▲５八金", (5, 9), (5, 8), false),
        (promote, "▲２三歩成", (2, 4), (2, 3), true),
        (silver, "▲３三銀不成", (3, 4), (3, 3), false),
    ];
    for (sfen, text, from, to, promote) in moves {
        assert_eq!(
            read_move(sfen, text).unwrap(),
            from_to(from, to, promote),
            "{text} on {sfen}"
        );
    }
    assert!(matches!(
        read_move(golds3, "▲５八金"),
        Err(Unresolved::Ambiguous(_))
    ));
    let drop = |f, r| Move::Drop {
        kind: PieceKind::Gold,
        to: sq(f, r),
    };
    assert_eq!(read_move(gold_drop, "▲５八金打").unwrap(), drop(5, 8));
    assert_eq!(read_move(gold_drop, "▲４五金").unwrap(), drop(4, 5));
}

#[test]
fn pinned_piece_means_an_implicit_drop() {
    // Sente's gold on 5八 is pinned by the rook on 5一 against the king on
    // 5九; cshogi writes the gold drop on 4八 without 打.
    let sfen = "k3r4/9/9/9/9/9/9/4G4/4K4 b G 1";
    assert_eq!(
        read_move(sfen, "▲４八金").unwrap(),
        Move::Drop {
            kind: PieceKind::Gold,
            to: sq(4, 8)
        }
    );
    // Two golds, one pinned: the free one moves, no ambiguity.
    let sfen = "k3r4/9/9/9/9/9/9/4G4/4K1G2 b - 1";
    assert_eq!(
        read_move(sfen, "▲４八金").unwrap(),
        from_to((3, 9), (4, 8), false)
    );
}

#[test]
fn mark_gives_the_colour() {
    let r = ki2::parse("▼７六歩 ▽３四歩").unwrap().remove(0);
    let colors: Vec<_> = r
        .main
        .moves
        .iter()
        .map(|m| match m.notation {
            Notation::Ki2 {
                color, relative, ..
            } => {
                assert_eq!(relative, Relative::NONE);
                color
            }
            _ => None,
        })
        .collect();
    assert_eq!(colors, vec![Some(Color::Sente), Some(Color::Gote)]);
}
