//! `kifu select` on the collection of `fixtures/collection/`: each filter
//! on its own, the outputs (--list, --to, --split) and --invert.

use crate::common::{err, kifu_in, out};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

const DIR: &str = "fixtures/collection";

/// The games `--list` names (`file#index`, the file's name only) for `args`.
fn selected(args: &[&str]) -> BTreeSet<String> {
    let mut all = vec!["select", "-q"];
    all.extend_from_slice(args);
    all.push(DIR);
    let o = kifu_in(&root(), &all);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    out(&o)
        .lines()
        .map(|l| {
            let mut f = l.split('\t');
            let file = Path::new(f.next().unwrap())
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            format!("{file}#{}", f.next().unwrap())
        })
        .collect()
}

fn set(games: &[&str]) -> BTreeSet<String> {
    games.iter().map(|g| g.to_string()).collect()
}

/// Every game of the collection.
fn all() -> BTreeSet<String> {
    selected(&[])
}

#[test]
fn no_filter_lists_every_game() {
    assert_eq!(all().len(), 13);
}

#[test]
fn player_names_fold_width_and_spaces() {
    // 山田 太郎, 山田　太郎 and 山田太郎 are one name; YAMADA Taro another.
    let kanji = set(&[
        "multi.csa#2",
        "multi.csa#3",
        "same-sjis.kif#0",
        "same-utf8.kifu#0",
        "same.jkf#0",
        "same.ki2#0",
    ]);
    assert_eq!(selected(&["--player", "山田太郎"]), kanji);
    assert_eq!(selected(&["--player", "山田　 太郎"]), kanji);
    // Full-width letters and case fold too.
    assert_eq!(
        selected(&["--sente", "ＹＡＭＡＤＡ ｔａｒｏ"]),
        set(&["multi.csa#1"])
    );
    assert_eq!(selected(&["--gote", "sato"]), set(&["multi.csa#1"]));
    // Sente only: the name is gote's in no game.
    assert!(selected(&["--gote", "山田"]).is_empty());
    assert_eq!(selected(&["--player", "佐藤花子"]), kanji);
}

#[test]
fn event_and_date_read_every_spelling_of_the_fields() {
    let may = set(&[
        "multi.csa#1",
        "same-sjis.kif#0",
        "same-utf8.kifu#0",
        "same.jkf#0",
        "same.ki2#0",
    ]);
    assert_eq!(selected(&["--event", "テスト杯"]), may);
    assert_eq!(selected(&["--date", "2024-05"]), may);
    assert_eq!(selected(&["--date", "2024-05-04..2024-05-04"]), may);
    assert_eq!(selected(&["--date", "..2024-04-30"]), set(&["multi.csa#0"]));
    assert_eq!(selected(&["--date", "2024"]).len(), 6);
    assert!(selected(&["--date", "2025.."]).is_empty());
}

#[test]
fn rating_needs_every_rating_the_record_gives_in_range() {
    // multi.csa#0: black 2800, white 2650.
    assert_eq!(selected(&["--rating", "2600.."]), set(&["multi.csa#0"]));
    assert!(selected(&["--rating", "2700.."]).is_empty());
    assert_eq!(selected(&["--rating", "2650..2800"]), set(&["multi.csa#0"]));
}

#[test]
fn handicap_result_ending_and_plies() {
    assert_eq!(
        selected(&["--handicap", "any"]),
        set(&["other-start.usi#0"])
    );
    assert_eq!(selected(&["--handicap", "hirate"]).len(), 12);
    assert!(selected(&["--handicap", "二枚落ち"]).is_empty());
    let resigned = set(&[
        "multi.csa#0",
        "multi.csa#1",
        "multi.csa#3",
        "same-sjis.kif#0",
        "same-utf8.kifu#0",
        "same.jkf#0",
        "same.ki2#0",
    ]);
    assert_eq!(selected(&["--ending", "resign"]), resigned);
    assert_eq!(selected(&["--result", "gote"]), resigned);
    assert!(selected(&["--result", "sente"]).is_empty());
    assert_eq!(
        selected(&["--plies", "10..10"]),
        set(&["a-truncated.usi#0", "multi.csa#0", "same.usi#1"])
    );
    assert_eq!(selected(&["--plies", "..12"]).len(), 4);
}

#[test]
fn invert_gives_the_rest() {
    let kept = selected(&["--plies", "24.."]);
    let rest = selected(&["--invert", "--plies", "24.."]);
    assert!(kept.is_disjoint(&rest));
    assert_eq!(kept.len() + rest.len(), 13);
}

/// A folder holding `files`.
fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

#[test]
fn foul_and_its_rule() {
    let dir = folder(&[
        ("moved.usi", "position startpos moves 7g7f 3c3d 5i5g\n"),
        (
            "nifu.usi",
            "position sfen 4k4/9/9/9/9/9/4P4/9/4K4 b P 1 moves P*5e\n",
        ),
        ("clean.usi", "position startpos moves 7g7f\n"),
    ]);
    let run = |args: &[&str]| {
        let mut all = vec!["select", "-q"];
        all.extend_from_slice(args);
        all.push(".");
        out(&kifu_in(dir.path(), &all))
    };
    assert_eq!(run(&["--foul"]), "./moved.usi\t0\n./nifu.usi\t0\n");
    assert_eq!(run(&["--foul=bad-movement"]), "./moved.usi\t0\n");
    assert_eq!(run(&["--foul=nifu"]), "./nifu.usi\t0\n");
    assert_eq!(run(&["--foul=uchifuzume"]), "");
    assert_eq!(run(&["--foul", "--invert"]), "./clean.usi\t0\n");
}

/// Every (game, ply) of the records in `dir` after which the main line
/// stands at a position `holds` is true of, by replaying each game through
/// the library: `name#index<TAB>plies`.
fn replayed_where(dir: &Path, holds: impl Fn(&kifu::Position) -> bool) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    for f in crate::common::files_with_ext(dir, &["kif", "kifu", "ki2", "csa", "usi", "jkf"]) {
        let input = kifu::read_path(&f, &kifu::ReadOptions::default()).unwrap();
        for r in input.records {
            let index = r.index;
            let g = kifu::replay(r, &kifu::ReplayOptions::default()).unwrap();
            assert!(
                g.main.verdict.is_legal(),
                "{}: {:?}",
                f.display(),
                g.main.verdict
            );
            let mut pos = g.start.clone();
            let mut plies = Vec::new();
            if holds(&pos) {
                plies.push(0.to_string());
            }
            for (n, p) in g.main.plies.iter().enumerate() {
                pos.play_unchecked(p.mv);
                if holds(&pos) {
                    plies.push((n + 1).to_string());
                }
            }
            if !plies.is_empty() {
                let name = f.file_name().unwrap().to_string_lossy().into_owned();
                found.insert(format!("{name}#{index}\t{}", plies.join(",")));
            }
        }
    }
    found
}

/// Every (game, ply) at which the main line stands at `sfen` (without its
/// move number).
fn brute_force(dir: &Path, sfen: &str) -> BTreeSet<String> {
    replayed_where(dir, |p| p.to_sfen().rsplit_once(' ').unwrap().0 == sfen)
}

/// What `select -q ARGS .` lists in `dir`: `name#index<TAB>plies`.
fn listed_in(dir: &Path, args: &[&str]) -> BTreeSet<String> {
    let mut all = vec!["select", "-q"];
    all.extend_from_slice(args);
    all.push(".");
    let o = kifu_in(dir, &all);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    out(&o)
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let name = Path::new(f[0])
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            format!("{name}#{}\t{}", f[1], f[2])
        })
        .collect()
}

fn listed_with_plies(dir: &Path, sfen: &str) -> BTreeSet<String> {
    listed_in(dir, &["--position", sfen])
}

#[test]
fn position_finds_every_game_and_ply_a_replay_finds() {
    let dir = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(root().join(DIR)).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, dir.path().join(p.file_name().unwrap())).unwrap();
    }
    // The start comes back at plies 4 and 8.
    std::fs::write(
        dir.path().join("repeat.usi"),
        "position startpos moves 2h3h 8b7b 3h2h 7b8b 2h3h 8b7b 3h2h 7b8b\n",
    )
    .unwrap();
    let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b -";
    // After 7g7f 3c3d 2g2f 4c4d, which the transposition reaches too.
    let mut p = kifu::Position::from_sfen(&format!("{start} 1")).unwrap();
    for m in ["7g7f", "3c3d", "2g2f", "4c4d"] {
        p.play_unchecked(kifu::Move::from_usi(m).unwrap());
    }
    let four = p.to_sfen().rsplit_once(' ').unwrap().0.to_string();
    let four = &four;
    for sfen in [start, four.as_str()] {
        let want = brute_force(dir.path(), sfen);
        assert!(want.len() > 2, "{sfen}: {want:?}");
        assert_eq!(listed_with_plies(dir.path(), sfen), want, "{sfen}");
    }
    assert!(brute_force(dir.path(), start).contains("repeat.usi#0\t0,4,8"));
    // With the move number, the same position.
    let numbered = listed_with_plies(dir.path(), &format!("{four} 99"));
    assert_eq!(numbered, brute_force(dir.path(), four));
}

#[test]
fn to_writes_the_games_kept_with_converts_writer() {
    let dir = tempfile::tempdir().unwrap();
    let src = root().join(DIR);
    let o = kifu_in(
        dir.path(),
        &[
            "select",
            "-q",
            "--plies",
            "10..10",
            "--to",
            "usi",
            "-o",
            "ten.usi",
            src.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let text = std::fs::read_to_string(dir.path().join("ten.usi")).unwrap();
    assert_eq!(text.lines().count(), 3, "{text}");
    assert!(
        text.lines()
            .all(|l| l.split(' ').skip_while(|w| *w != "moves").count() == 11)
    );
}

#[test]
fn split_parts_by_count_and_by_player_folding_spellings() {
    let dir = tempfile::tempdir().unwrap();
    let src = root().join(DIR);
    let src = src.to_str().unwrap();
    let o = kifu_in(
        dir.path(),
        &[
            "select",
            "-q",
            "--split",
            "5",
            "--to",
            "usi",
            "--out-dir",
            "n",
            src,
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let lines = |p: &str| {
        std::fs::read_to_string(dir.path().join(p))
            .unwrap()
            .lines()
            .count()
    };
    assert_eq!(
        (
            lines("n/part-0001.usi"),
            lines("n/part-0002.usi"),
            lines("n/part-0003.usi")
        ),
        (5, 5, 3)
    );
    assert!(!dir.path().join("n/part-0004.usi").exists());

    let by_player = [
        "select",
        "-q",
        "--player",
        "山田",
        "--split",
        "player",
        "--to",
        "csa",
        "--out-dir",
        "p",
        src,
    ];
    let o = kifu_in(dir.path(), &by_player);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let folders: BTreeSet<String> = std::fs::read_dir(dir.path().join("p"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    // The first spelling met names the folder of each player.
    assert_eq!(folders.len(), 2, "{folders:?}");
    for f in &folders {
        let games = kifu::read_path(
            &dir.path().join("p").join(f).join("games.csa"),
            &kifu::ReadOptions::default(),
        )
        .unwrap();
        assert_eq!(games.records.len(), 6, "{f}");
    }
    // Run again: nothing is replaced.
    let again = kifu_in(dir.path(), &by_player);
    assert_eq!(again.status.code(), Some(2));
    assert!(
        err(&again).contains("not written: it exists"),
        "{}",
        err(&again)
    );
}

#[test]
fn split_n_refuses_a_one_game_format() {
    let o = kifu_in(
        &root(),
        &[
            "select",
            "--split",
            "2",
            "--to",
            "kif",
            "--out-dir",
            "/nonexistent/x",
            DIR,
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("--split N needs a format of several games a file"),
        "{}",
        err(&o)
    );
}

/// Sente ranges its rook to the fourth file and builds a 本美濃.
const SHIKEN_MINO: &str = "position startpos moves 7g7f 3c3d 6g6f 8c8d 2h6h 8d8e 8h7g 7a6b \
                           5i4h 5a4b 4h3h 4b3b 3h2h 6a5b 3i3h 1c1d 6i5h\n";
/// Both rooks to the third file.
const AI_SANKEN: &str = "position startpos moves 7g7f 3c3d 2h7h 8b3b\n";

#[test]
fn opening_matches_the_game_name_and_each_sides_strategy_and_castle() {
    let dir = folder(&[
        ("shiken.usi", SHIKEN_MINO),
        ("sanken.usi", AI_SANKEN),
        ("short.usi", "position startpos moves 7g7f\n"),
    ]);
    let run = |args: &[&str]| {
        let mut all = vec!["select", "-q"];
        all.extend_from_slice(args);
        all.push(".");
        out(&kifu_in(dir.path(), &all))
    };
    // The game's name, a strategy, a castle, a part of a name.
    assert_eq!(
        run(&["--opening", "四間飛車 vs 居飛車"]),
        "./shiken.usi\t0\n"
    );
    assert_eq!(run(&["--opening", "美濃"]), "./shiken.usi\t0\n");
    assert_eq!(run(&["--opening", "三間飛車"]), "./sanken.usi\t0\n");
    assert_eq!(run(&["--opening", "相三間"]), "./sanken.usi\t0\n");
    assert_eq!(run(&["--opening", "矢倉"]), "");
    assert_eq!(
        run(&["--opening", "美濃", "--invert"]),
        "./sanken.usi\t0\n./short.usi\t0\n"
    );
}

#[test]
fn split_opening_puts_each_game_in_its_senkei_folder() {
    let dir = folder(&[("shiken.usi", SHIKEN_MINO), ("sanken.usi", AI_SANKEN)]);
    let o = kifu_in(
        dir.path(),
        &[
            "select",
            "-q",
            "--split",
            "opening",
            "--to",
            "usi",
            "--out-dir",
            "out",
            "shiken.usi",
            "sanken.usi",
        ],
    );
    assert!(o.status.success(), "{}", err(&o));
    let mut folders: Vec<String> = std::fs::read_dir(dir.path().join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    folders.sort();
    assert_eq!(folders, ["四間飛車 vs 居飛車", "相三間飛車"]);
    let inside = |f: &str| -> String {
        let d = dir.path().join("out").join(f);
        let files: Vec<_> = std::fs::read_dir(&d)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(files.len(), 1, "{files:?}");
        std::fs::read_to_string(&files[0]).unwrap()
    };
    assert_eq!(inside("相三間飛車"), AI_SANKEN);
    assert!(inside("四間飛車 vs 居飛車").starts_with("position startpos moves 7g7f 3c3d 6g6f"));
}

/// The board of an SFEN as 81 cells, rank 1 first, each from file 9: the
/// piece's SFEN text (`+B`, `p`) or empty. Read from the text, not from
/// kifu's position, so that the pattern test checks one against the other.
fn cells(sfen: &str) -> Vec<String> {
    let board = sfen.split(' ').next().unwrap();
    let mut out = Vec::new();
    for rank in board.split('/') {
        let mut promoted = false;
        for c in rank.chars() {
            match c {
                '+' => promoted = true,
                d if d.is_ascii_digit() => out.extend(std::iter::repeat_n(
                    String::new(),
                    d as usize - '0' as usize,
                )),
                p => {
                    out.push(if promoted {
                        format!("+{p}")
                    } else {
                        p.to_string()
                    });
                    promoted = false;
                }
            }
        }
    }
    out
}

/// The piece on (file, rank) of `cells`.
fn at(cells: &[String], file: usize, rank: usize) -> &str {
    &cells[(rank - 1) * 9 + (9 - file)]
}

/// Brute force: every (game, ply) where sente's rook stands on file 7 and
/// gote's bishop is not on the board, nor in gote's hand (`b=0` material
/// counts the horse too).
fn ranged_rook_without_gote_bishop(dir: &Path) -> BTreeSet<String> {
    replayed_where(dir, |p| {
        let sfen = p.to_sfen();
        let c = cells(&sfen);
        let rook = (1..=9).any(|r| at(&c, 7, r) == "R");
        let hand = sfen.split(' ').nth(2).unwrap();
        let bishop = c.iter().any(|p| p == "b" || p == "+b") || hand.contains('b');
        rook && !bishop
    })
}

#[test]
fn pattern_hand_and_material_find_every_game_and_ply_a_replay_finds() {
    let dir = folder(&[
        // 三間飛車, and the bishops traded at plies 5 and 6.
        (
            "sanken.usi",
            "position startpos moves 7g7f 3c3d 2h7h 8c8d 8h2b+ 3a2b\n",
        ),
        // The rook on file 7 and back, no trade.
        (
            "back.usi",
            "position startpos moves 7g7f 3c3d 2h7h 4c4d 7h2h\n",
        ),
        ("none.usi", "position startpos moves 2g2f 8c8d\n"),
    ]);
    let listed = |args: &[&str]| listed_in(dir.path(), args);
    let want = ranged_rook_without_gote_bishop(dir.path());
    // Ply 5 takes gote's bishop into sente's hand; ply 6 takes the horse
    // back into gote's: only at ply 5 has gote no bishop anywhere.
    assert_eq!(want, set(&["sanken.usi#0\t5"]));
    assert_eq!(listed(&["--pattern", "R@7?", "--material", "b=0"]), want);
    assert_eq!(
        listed(&["--pattern", "R@7?"]),
        set(&["back.usi#0\t3,4", "sanken.usi#0\t3,4,5,6"])
    );
    assert_eq!(
        listed(&["--pattern", "R@7?", "--hand", "B>=1"]),
        set(&["sanken.usi#0\t5,6"])
    );
    assert_eq!(listed(&["--hand", "b=1 B=1"]), set(&["sanken.usi#0\t6"]));
    assert_eq!(
        listed(&["--material", "B=1 b=1", "--pattern", "!+B@?? .@88"]),
        set(&["sanken.usi#0\t6"])
    );
    assert_eq!(listed(&["--material", "b=0"]), set(&["sanken.usi#0\t5"]));
    // A wildcard rank: sente's rook anywhere on rank 8 is every start.
    assert_eq!(listed(&["--pattern", "R@?8"]).len(), 3);
    // A bad term is refused with what was expected.
    let o = kifu_in(dir.path(), &["select", "--pattern", "R@2", "."]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("expected PIECE@SQUARE"), "{}", err(&o));
}
