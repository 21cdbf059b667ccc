//! `kifu dedup` on a collection built for it (`fixtures/collection/`): one
//! 24-ply game as KIF (CP932 and UTF-8), KI2, CSA (the second game of a
//! multi-game file, its header spelled otherwise, its start written as a
//! diagram), USI (numbered from move 37) and JKF; two truncated copies; a
//! second game twice; and near misses (a move different, another start, a
//! transposition).

use crate::common::{err, kifu_in, out};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

const DIR: &str = "fixtures/collection";

/// A game as `source#index`, its path relative to the checkout.
type Game = String;

/// The groups of a `--json` run: kind, the games, the kept game.
fn groups(args: &[&str]) -> Vec<(String, BTreeSet<Game>, Game)> {
    groups_in(&root(), args)
}

/// The groups of a `--json` run in `dir`.
fn groups_in(dir: &Path, args: &[&str]) -> Vec<(String, BTreeSet<Game>, Game)> {
    let mut all = vec!["dedup", "--json"];
    all.extend_from_slice(args);
    let o = kifu_in(dir, &all);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    out(&o)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect(l);
            let name =
                |g: &serde_json::Value| format!("{}#{}", g["source"].as_str().unwrap(), g["index"]);
            let games = v["games"].as_array().unwrap().iter().map(name).collect();
            (
                v["kind"].as_str().unwrap().to_string(),
                games,
                name(&v["keep"]),
            )
        })
        .collect()
}

fn set(games: &[&str]) -> BTreeSet<Game> {
    games.iter().map(|g| format!("{DIR}/{g}")).collect()
}

/// The copies of the 24-ply game, and its two truncated copies.
const FULL: [&str; 6] = [
    "multi.csa#1",
    "same-sjis.kif#0",
    "same-utf8.kifu#0",
    "same.jkf#0",
    "same.ki2#0",
    "same.usi#0",
];
const TRUNCATED: [&str; 2] = ["multi.csa#2", "a-truncated.usi#0"];

#[test]
fn every_copy_in_every_format_is_grouped_and_truncated_copies_are_contained() {
    let got = groups(&[DIR]);
    let mut main: Vec<&str> = FULL.to_vec();
    main.extend(TRUNCATED);
    let kinds: Vec<(&str, BTreeSet<Game>)> = got
        .iter()
        .map(|(k, g, _)| (k.as_str(), g.clone()))
        .collect();
    assert_eq!(
        kinds,
        vec![
            ("contained", set(&main)),
            ("same", set(&["multi.csa#0", "same.usi#1"])),
        ]
    );
    // The kept copy is one of the longest.
    assert!(set(&FULL).contains(&got[0].2), "{}", got[0].2);
}

/// Every game of the collection: its start (SFEN without the move number)
/// and its moves, by brute force through the library.
fn brute_force() -> BTreeMap<Game, (String, Vec<String>)> {
    let mut games = BTreeMap::new();
    for f in crate::common::files_with_ext(
        &root().join(DIR),
        &["kif", "kifu", "ki2", "csa", "usi", "jkf"],
    ) {
        let input = kifu::read_path(&f, &kifu::ReadOptions::default()).unwrap();
        let rel = f.strip_prefix(root()).unwrap().display().to_string();
        for r in input.records {
            let index = r.index;
            let g = kifu::replay(r, &kifu::ReplayOptions::default()).unwrap();
            let sfen = g.start.to_sfen();
            let start = sfen.rsplit_once(' ').unwrap().0.to_string();
            let moves = g.main.plies.iter().map(|p| p.mv.to_usi()).collect();
            games.insert(format!("{rel}#{index}"), (start, moves));
        }
    }
    games
}

#[test]
fn the_pairs_in_one_group_are_exactly_the_same_or_prefix_pairs_of_a_replay() {
    let games = brute_force();
    assert_eq!(games.len(), 13);
    let mut want = BTreeSet::new();
    for (a, (sa, ma)) in &games {
        for (b, (sb, mb)) in &games {
            let related = sa == sb && (mb.starts_with(ma) || ma.starts_with(mb)) && !ma.is_empty();
            if a < b && related {
                want.insert((a.clone(), b.clone()));
            }
        }
    }
    let mut got = BTreeSet::new();
    for (_, g, _) in groups(&[DIR]) {
        for a in &g {
            for b in &g {
                if a < b {
                    got.insert((a.clone(), b.clone()));
                }
            }
        }
    }
    // Every related pair grouped (recall), and no other (precision).
    assert_eq!(got, want);
    assert_eq!(want.len(), 8 * 7 / 2 + 1);
}

#[test]
fn the_keep_policy_chooses_the_copy() {
    let keep = |policy: &str| groups(&["--keep-policy", policy, DIR])[0].2.clone();
    // The first in input order is the truncated copy of a-truncated.usi.
    assert_eq!(keep("first"), format!("{DIR}/a-truncated.usi#0"));
    // The longest copies are 24 plies; of those, the one with the most
    // information (the UTF-8 KIF, with its comment line, times and
    // header): the longest policy breaks the tie the same way.
    assert_eq!(keep("longest"), keep("most-information"));
    assert!(set(&FULL).contains(&keep("longest")));
}

#[test]
fn a_transposition_is_grouped_only_by_position() {
    let transposed = format!("{DIR}/transposed.usi#0");
    let line = groups(&[DIR]);
    assert!(line.iter().all(|(_, g, _)| !g.contains(&transposed)));
    // At ply 4 the transposition meets every copy of the game with 4 plies
    // or more (the near miss, one move different at ply 8, too).
    let at4 = groups(&["--position-at", "4", DIR]);
    let mut want: Vec<&str> = FULL.to_vec();
    want.extend(TRUNCATED);
    want.extend(["transposed.usi#0", "multi.csa#3"]);
    assert!(
        at4.iter()
            .any(|(k, g, _)| k == "position" && *g == set(&want)),
        "{at4:?}"
    );
    // The final position: the 24-ply copies and the transposition only.
    let last = groups(&["--final-position", DIR]);
    let mut want: Vec<&str> = FULL.to_vec();
    want.push("transposed.usi#0");
    assert!(last.iter().any(|(_, g, _)| *g == set(&want)), "{last:?}");
}

/// The fixtures copied into a temporary folder, with `extra` files added.
fn copy_with(extra: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(root().join(DIR)).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, dir.path().join(p.file_name().unwrap())).unwrap();
    }
    for (name, text) in extra {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

#[test]
fn a_non_record_is_reported_as_check_does_and_never_grouped() {
    let dir = copy_with(&[("notes.kif", "# not a record\nhello\n")]);
    let o = kifu_in(dir.path(), &["dedup", "--json", "."]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("./notes.kif:1:1: not a shogi record"),
        "{}",
        err(&o)
    );
    assert!(!out(&o).contains("notes.kif"));
    assert_eq!(out(&o).lines().count(), 2);
}

/// The games of every record file under `dir`, as (start, moves) pairs.
fn games_in(dir: &Path) -> Vec<(String, Vec<String>)> {
    let mut games = Vec::new();
    for f in crate::common::files_with_ext(dir, &["csa", "usi", "kifu"]) {
        let input = kifu::read_path(&f, &kifu::ReadOptions::default()).unwrap();
        for r in input.records {
            let g = kifu::replay(r, &kifu::ReplayOptions::default()).unwrap();
            let moves = g.main.plies.iter().map(|p| p.mv.to_usi()).collect();
            games.push((g.start.to_sfen(), moves));
        }
    }
    games.sort();
    games
}

#[test]
fn unique_writes_one_copy_of_each_game_to_one_stream() {
    let dir = tempfile::tempdir().unwrap();
    let src = root().join(DIR);
    let o = kifu_in(
        dir.path(),
        &[
            "dedup",
            "-q",
            "--unique",
            "--to",
            "usi",
            "-o",
            "uniq.usi",
            src.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    // 13 games, 8 + 2 of them in two groups: 13 - 10 + 2.
    let input =
        kifu::read_path(&dir.path().join("uniq.usi"), &kifu::ReadOptions::default()).unwrap();
    assert_eq!(input.records.len(), 5);
    let again = kifu_in(dir.path(), &["dedup", "--json", "uniq.usi"]);
    assert_eq!(out(&again), "", "no group left: {}", out(&again));
}

#[test]
fn unique_writes_the_kept_copies_one_file_per_input_and_leaves_the_rest_out() {
    let dir = tempfile::tempdir().unwrap();
    let src = root().join(DIR);
    let o = kifu_in(
        dir.path(),
        &[
            "dedup",
            "-q",
            "--unique",
            "--to",
            "csa",
            "--out-dir",
            "uniq",
            src.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let written = games_in(&dir.path().join("uniq"));
    assert_eq!(written.len(), 5, "{written:?}");
    // One copy of each distinct game of the inputs: the longest of a group.
    let mut distinct: Vec<(String, Vec<String>)> = brute_force()
        .into_values()
        .map(|(start, moves)| (format!("{start} 1"), moves))
        .collect();
    distinct.sort();
    distinct.dedup();
    let longest: Vec<_> = distinct
        .iter()
        .filter(|(s, m)| {
            !distinct
                .iter()
                .any(|(s2, m2)| s2 == s && m2.len() > m.len() && m2.starts_with(m))
        })
        .cloned()
        .collect();
    assert_eq!(written, longest);
    // An input whose every game is a copy kept elsewhere gives no output.
    let names: BTreeSet<String> = std::fs::read_dir(dir.path().join("uniq"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!names.contains("a-truncated.csa"), "{names:?}");
    assert!(names.contains("other-start.csa"), "{names:?}");
}

#[test]
fn against_names_the_games_a_folder_already_holds() {
    let held = tempfile::tempdir().unwrap();
    for f in ["same.jkf", "a-truncated.usi"] {
        std::fs::copy(root().join(DIR).join(f), held.path().join(f)).unwrap();
    }
    let inputs = tempfile::tempdir().unwrap();
    for f in ["same.ki2", "multi.csa", "transposed.usi"] {
        std::fs::copy(root().join(DIR).join(f), inputs.path().join(f)).unwrap();
    }
    let h = held.path().display().to_string();
    let o = kifu_in(inputs.path(), &["dedup", "--json", "--against", &h, "."]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let lines: BTreeSet<(String, String, String)> = out(&o)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let held = Path::new(v["held"]["source"].as_str().unwrap())
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned();
            (
                format!("{}#{}", v["source"].as_str().unwrap(), v["index"]),
                v["kind"].as_str().unwrap().to_string(),
                held,
            )
        })
        .collect();
    let want: BTreeSet<(String, String, String)> = [
        ("./multi.csa#1", "same", "same.jkf"),
        ("./multi.csa#2", "contained", "same.jkf"),
        ("./same.ki2#0", "same", "same.jkf"),
    ]
    .iter()
    .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
    .collect();
    assert_eq!(lines, want);
}

/// A folder holding `files`.
fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

fn names(games: &[&str]) -> BTreeSet<Game> {
    games.iter().map(|g| format!("./{g}")).collect()
}

/// Two plies with five header fields, three comments and two move times:
/// more information than `LONG_CSA`, and shorter.
const SHORT_KIF: &str = "開始日時：2024/01/01\n棋戦：テスト\n場所：東京\n先手：甲\n後手：乙\n*はじめ\n\
手数----指手---------消費時間--\n   1 ７六歩(77)   ( 0:05/00:00:05)\n*一\n   2 ３四歩(33)   ( 0:03/00:00:03)\n*二\n";
/// Four plies with two names, four times and an ending.
const LONG_CSA: &str =
    "N+甲\nN-乙\nPI\n+\n+7776FU\nT1\n-3334FU\nT1\n+2726FU\nT1\n-8384FU\nT1\n%TORYO\n";

#[test]
fn the_keep_policies_choose_the_longest_the_richest_or_the_first() {
    let dir = folder(&[
        ("a-bare.usi", "position startpos moves 7g7f 3c3d\n"),
        (
            "b-long.usi",
            "position startpos moves 7g7f 3c3d 2g2f 8c8d\n",
        ),
        ("c-long.csa", LONG_CSA),
        ("d-short.kifu", SHORT_KIF),
    ]);
    let keep = |policy: &str| {
        groups_in(dir.path(), &["--keep-policy", policy, "."])[0]
            .2
            .clone()
    };
    // Of the two longest, the one with move times and names.
    assert_eq!(keep("longest"), "./c-long.csa#0");
    assert_eq!(keep("most-information"), "./d-short.kifu#0");
    assert_eq!(keep("first"), "./a-bare.usi#0");
    let got = groups_in(dir.path(), &["."]);
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].0, "contained");
    assert_eq!(
        got[0].1,
        names(&[
            "a-bare.usi#0",
            "b-long.usi#0",
            "c-long.csa#0",
            "d-short.kifu#0"
        ])
    );
}

#[test]
fn the_text_report_names_each_group_its_games_and_the_copy_kept() {
    let dir = folder(&[
        ("a.usi", "position startpos moves 7g7f 3c3d 2g2f\n"),
        ("b.csa", "PI\n+\n+7776FU\n-3334FU\n+2726FU\n%TORYO\n"),
        ("c.usi", "position startpos moves 2g2f\n"),
    ]);
    let o = kifu_in(dir.path(), &["dedup", "."]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(
        out(&o),
        "same: 2 games, the same game\n       ./a.usi (3 plies)\n  keep ./b.csa (3 plies)\n"
    );
    assert!(
        err(&o).contains("3 files, 3 games (0 with fouls): 1 group, 1 to leave out"),
        "{}",
        err(&o)
    );
}

#[test]
fn copies_that_end_in_the_same_foul_are_one_game_and_hold_the_clean_prefix() {
    let dir = folder(&[
        ("foul.csa", "PI\n+\n+7776FU\n-3334FU\n+5957OU\n"),
        ("foul.usi", "position startpos moves 7g7f 3c3d 5i5g\n"),
        ("other-foul.usi", "position startpos moves 7g7f 3c3d 5i3g\n"),
        ("prefix.usi", "position startpos moves 7g7f 3c3d\n"),
    ]);
    let o = kifu_in(dir.path(), &["dedup", "--json", "."]);
    // As check: a game with a foul is a game; the run itself succeeded.
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(err(&o).contains("4 games (3 with fouls)"), "{}", err(&o));
    let got = groups_in(dir.path(), &["."]);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, "contained");
    // The two copies of one foul, and the clean prefix (which the other
    // foul holds too: it goes with the first container found).
    assert_eq!(
        got[0].1,
        names(&["foul.csa#0", "foul.usi#0", "prefix.usi#0"])
    );
    let same = groups_in(dir.path(), &["foul.csa", "foul.usi", "other-foul.usi"]);
    assert_eq!(same.len(), 1);
    assert_eq!(same[0].0, "same");
    assert_eq!(
        same[0].1,
        names(&["foul.csa#0", "foul.usi#0"])
            .iter()
            .map(|g| g[2..].to_string())
            .collect()
    );
}

#[test]
fn a_variation_is_no_part_of_the_game_dedup_compares() {
    let kif = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n\n変化：2手\n   2 ８四歩(83)\n";
    let dir = folder(&[
        ("main.usi", "position startpos moves 7g7f 3c3d 2g2f\n"),
        ("varied.kifu", kif),
        ("branch.usi", "position startpos moves 7g7f 8c8d\n"),
    ]);
    let got = groups_in(dir.path(), &["."]);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].0, "same");
    assert_eq!(got[0].1, names(&["main.usi#0", "varied.kifu#0"]));
}

#[test]
fn against_with_unique_writes_only_the_games_the_folder_does_not_hold() {
    let held = folder(&[("old.csa", LONG_CSA)]);
    let dir = folder(&[
        ("copy.usi", "position startpos moves 7g7f 3c3d 2g2f 8c8d\n"),
        ("cut.usi", "position startpos moves 7g7f 3c3d\n"),
        (
            "longer.usi",
            "position startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e\n",
        ),
        ("new.usi", "position startpos moves 2g2f\n"),
        ("new-again.usi", "position startpos moves 2g2f\n"),
    ]);
    let h = held.path().display().to_string();
    let o = kifu_in(
        dir.path(),
        &[
            "dedup",
            "-q",
            "--against",
            &h,
            "--unique",
            "--to",
            "usi",
            "-o",
            "out.usi",
            ".",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(
        out(&o),
        format!(
            "./copy.usi: held {h}/old.csa\n./cut.usi: held (a truncated copy of) {h}/old.csa\n\
./longer.usi: longer than the held copy {h}/old.csa\n"
        )
    );
    let written = std::fs::read_to_string(dir.path().join("out.usi")).unwrap();
    // The longer copy, and one of the two copies of the new game.
    assert_eq!(
        written,
        "position startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e\nposition startpos moves 2g2f\n"
    );
}

#[test]
fn only_a_game_that_may_hold_a_shorter_one_is_read_again() {
    use kifu::collection::{GameKey, Groups, information};
    let game = |usi: &str| {
        let r = kifu::parse::parse(usi, kifu::Format::Usi)
            .unwrap()
            .remove(0);
        kifu::replay(r, &kifu::ReplayOptions::default()).unwrap()
    };
    // Three different games of 3, 5 and 6 plies: none holds another, and
    // a game's own anchors must not make it a candidate.
    let games = [
        game("position startpos moves 7g7f 3c3d 2g2f\n"),
        game("position startpos moves 2g2f 8c8d 2f2e 8d8e 6i7h\n"),
        game("position startpos moves 5g5f 5c5d 5f5e 5d5e 2h5h 4a4b\n"),
        // Holds the first (its first three moves) and so is the one asked.
        game("position startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e\n"),
    ];
    let mut groups = Groups::default();
    for g in &games[..3] {
        groups.add(GameKey::of(g), information(&g.record));
    }
    assert_eq!(groups.candidates(), Vec::<u32>::new());
    groups.add(GameKey::of(&games[3]), information(&games[3].record));
    assert_eq!(groups.candidates(), vec![3]);
}

#[test]
fn shards_saved_as_keys_and_merged_group_as_one_run_does() {
    // The collection cut in two shards, the truncated copies in the one
    // that does not hold their container.
    let shard1: Vec<String> = ["multi.csa", "same.ki2", "same.jkf", "other-start.usi"]
        .iter()
        .map(|f| format!("{DIR}/{f}"))
        .collect();
    let shard2: Vec<String> = [
        "a-truncated.usi",
        "same-sjis.kif",
        "same-utf8.kifu",
        "same.usi",
        "transposed.usi",
    ]
    .iter()
    .map(|f| format!("{DIR}/{f}"))
    .collect();
    let d = tempfile::tempdir().unwrap();
    let k1 = d.path().join("1.keys").display().to_string();
    let k2 = d.path().join("2.keys").display().to_string();
    for (keys, files) in [(&k1, &shard1), (&k2, &shard2)] {
        let mut args = vec!["dedup", "-q", "--save-keys", keys.as_str()];
        args.extend(files.iter().map(String::as_str));
        let o = kifu_in(&root(), &args);
        assert_eq!(o.status.code(), Some(0), "{}", err(&o));
        assert!(out(&o).is_empty(), "no groups are printed: {}", out(&o));
    }
    let mut whole: Vec<&str> = shard1.iter().chain(&shard2).map(String::as_str).collect();
    let direct = groups(&whole);
    assert!(direct.iter().any(|g| g.0 == "contained"), "{direct:?}");
    let merged = groups(&["--keys", &k1, &k2]);
    assert_eq!(merged, direct);
    // The summary counts every shard's inputs.
    let o = kifu_in(&root(), &["dedup", "--keys", &k1, &k2]);
    assert!(err(&o).contains("9 files"), "{}", err(&o));
    // --unique from the keys writes what a whole run writes.
    let u1 = d.path().join("u1.usi").display().to_string();
    let u2 = d.path().join("u2.usi").display().to_string();
    whole.splice(
        0..0,
        ["dedup", "-q", "--unique", "--to", "usi", "-o", u1.as_str()],
    );
    assert_eq!(kifu_in(&root(), &whole).status.code(), Some(0));
    let o = kifu_in(
        &root(),
        &[
            "dedup", "-q", "--unique", "--to", "usi", "-o", &u2, "--keys", &k1, &k2,
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(std::fs::read(&u1).unwrap(), std::fs::read(&u2).unwrap());
    // A file that is not a key file is refused with its line and what was
    // expected; one cut short too.
    let bad = d.path().join("bad.keys");
    std::fs::write(
        &bad,
        "{\"source\":\"x\",\"index\":0,\"information\":0,\"key\":\"zz\"}\n",
    )
    .unwrap();
    let o = kifu_in(&root(), &["dedup", "--keys", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("bad.keys:1: expected a key"),
        "{}",
        err(&o)
    );
    let text = std::fs::read_to_string(&k1).unwrap();
    let cut: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
    std::fs::write(&bad, cut).unwrap();
    let o = kifu_in(&root(), &["dedup", "--keys", bad.to_str().unwrap()]);
    assert!(err(&o).contains("no counts at its end"), "{}", err(&o));
}

/// A multi-game CSA text of `n` different four-ply games (then `extra`),
/// each named `name`: game k opens with sente's pawn push k % 9 and gote's
/// k / 9, then both kings step up.
fn many_games(n: usize, name: &str, extra: &[String]) -> String {
    let sente = [
        "9796FU", "8786FU", "7776FU", "6766FU", "5756FU", "4746FU", "3736FU", "2726FU", "1716FU",
    ];
    let gote = [
        "9394FU", "8384FU", "7374FU", "6364FU", "5354FU", "4344FU", "3334FU", "2324FU", "1314FU",
    ];
    let game = |k: usize, plies: usize| {
        let moves = [
            format!("+{}", sente[k % 9]),
            format!("-{}", gote[k / 9]),
            "+5968OU".to_string(),
            "-5142OU".to_string(),
        ];
        format!(
            "V2.2\nN+{name}\nN-x\nPI\n+\n{}\n%TORYO\n",
            moves[..plies].join("\n")
        )
    };
    let mut games: Vec<String> = (0..n).map(|k| game(k, 4)).collect();
    games.extend(extra.iter().map(|e| match e.split_once(':') {
        Some((k, plies)) => game(k.parse().unwrap(), plies.parse().unwrap()),
        None => unreachable!(),
    }));
    games.join("/\n")
}

#[test]
fn copies_in_a_long_multi_game_file_are_found_from_checkpoints_in_any_encoding() {
    let d = tempfile::tempdir().unwrap();
    // 40 games, then a whole copy of game 20 and a copy of game 33 cut
    // after three plies: both come after the checkpoints of their originals.
    let extra = ["20:4".to_string(), "33:3".to_string()];
    let ascii = many_games(40, "a", &extra);
    std::fs::write(d.path().join("ascii.csa"), &ascii).unwrap();
    // The same in Shift_JIS with a kanji name: decoded offsets are not the
    // file's, so the checkpoints cannot be used and the whole file is read.
    let sjis = encoding_rs::SHIFT_JIS
        .encode(&many_games(40, "羽生", &extra))
        .0
        .into_owned();
    std::fs::write(d.path().join("sjis.csa"), sjis).unwrap();
    for file in ["ascii.csa", "sjis.csa"] {
        let found = groups_in(d.path(), &[file]);
        let name = |i: usize| format!("{file}#{i}");
        let want = vec![
            (
                "same".to_string(),
                [name(20), name(40)].into_iter().collect::<BTreeSet<_>>(),
                name(20),
            ),
            (
                "contained".to_string(),
                [name(33), name(41)].into_iter().collect(),
                name(33),
            ),
        ];
        assert_eq!(found, want, "{file}");
    }
}
