//! Naming openings from the command line: `kifu classify`, the `opening`
//! object of `check --json` and `--to json`, and known professional games.

use crate::common::{corpus_dir, err, kifu_in, out};

/// Sente ranges its rook to the fourth file and builds a 本美濃.
const SHIKEN_MINO: &str = "position startpos moves 7g7f 3c3d 6g6f 8c8d 2h6h 8d8e 8h7g 7a6b \
                           5i4h 5a4b 4h3h 4b3b 3h2h 6a5b 3i3h 1c1d 6i5h\n";
/// Both rooks to the third file.
const AI_SANKEN: &str = "position startpos moves 7g7f 3c3d 2h7h 8b3b\n";

fn fixtures() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.usi"), SHIKEN_MINO).unwrap();
    std::fs::write(dir.path().join("b.usi"), AI_SANKEN).unwrap();
    dir
}

#[test]
fn classify_prints_one_line_per_game() {
    let dir = fixtures();
    let o = kifu_in(dir.path(), &["classify", "a.usi", "b.usi"]);
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(
        lines[0].starts_with("a.usi: 四間飛車 vs 居飛車  ▲ 四間飛車 5"),
        "{text}"
    );
    assert!(lines[0].contains("本美濃囲い 17"), "{text}");
    assert!(
        lines[1].starts_with("b.usi: 相三間飛車  ▲ 三間飛車 3"),
        "{text}"
    );
}

#[test]
fn classify_goes_on_past_a_bad_file() {
    let dir = fixtures();
    std::fs::write(
        dir.path().join("bad.usi"),
        "position startpos moves 7g7f 7g7f\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("junk.kif"), "not a record\n").unwrap();
    let o = kifu_in(dir.path(), &["classify", "junk.kif", "a.usi"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    assert!(err(&o).contains("junk.kif"), "{}", err(&o));
    assert!(out(&o).starts_with("a.usi: 四間飛車"), "{}", out(&o));
    // A foul stops the main line; what came before it is still named.
    let o = kifu_in(dir.path(), &["classify", "bad.usi"]);
    assert!(out(&o).starts_with("bad.usi: "), "{}{}", out(&o), err(&o));
}

#[test]
fn classify_json_has_each_finding_with_its_ply() {
    let dir = fixtures();
    let o = kifu_in(dir.path(), &["classify", "--json", "a.usi"]);
    let v: serde_json::Value = serde_json::from_str(out(&o).trim()).unwrap();
    assert_eq!(v["source"], "a.usi");
    let op = &v["opening"];
    assert_eq!(op["game"], "四間飛車 vs 居飛車");
    assert_eq!(op["type"], "対抗形");
    assert_eq!(
        op["sente"]["strategy"][0],
        serde_json::json!({"name": "四間飛車", "ply": 5})
    );
    let castles = op["sente"]["castle"].as_array().unwrap();
    assert!(
        castles.contains(&serde_json::json!({"name": "本美濃囲い", "ply": 17})),
        "{op}"
    );
    assert!(op["gote"]["strategy"].is_array() && op["gote"]["castle"].is_array());
}

#[test]
fn check_json_and_analysis_json_carry_the_opening() {
    let dir = fixtures();
    let o = kifu_in(dir.path(), &["check", "--json", "b.usi"]);
    let v: serde_json::Value = serde_json::from_str(out(&o).lines().next().unwrap()).unwrap();
    assert_eq!(v["opening"]["game"], "相三間飛車");
    assert_eq!(v["opening"]["type"], "相振り飛車");
    assert_eq!(v["opening"]["gote"]["strategy"][0]["ply"], 4);
    let o = kifu_in(dir.path(), &["convert", "--to", "json", "a.usi"]);
    let v: serde_json::Value = serde_json::from_str(out(&o).lines().next().unwrap())
        .unwrap_or_else(|e| panic!("{e}: {}{}", out(&o), err(&o)));
    assert_eq!(v["opening"]["sente"]["strategy"][0]["name"], "四間飛車");
}

/// Professional games of the corpus whose 戦型 a player names at a glance,
/// each checked against the moves (and the file's own `$OPENING:` where it
/// has one).
#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn known_professional_games_get_their_names() {
    let corpus = corpus_dir("known_professional_games_get_their_names");
    let pro = corpus.join("csa/sunfish4/kifu/learn/pro10");
    let cases = [
        // $OPENING:四間飛車; gote's rook to 4二 at ply 6, 美濃 then 銀冠.
        ("kifu20023.csa", "四間飛車 vs "),
        // $OPENING:相振飛車: 三間 against 四間, both in 金無双.
        ("kifu32335.csa", "相振り飛車"),
        // $OPENING:矢倉, both sides.
        ("kifu11058.csa", "相矢倉"),
        // $OPENING:角換わり.
        ("kifu15093.csa", "角換わり"),
        // $OPENING:ひねり飛車: 相掛かり, then the rook to the seventh file.
        ("kifu17409.csa", "ひねり飛車 vs "),
        // $OPENING:四間飛車: gote's 藤井システム (居玉, 3二銀) against 急戦.
        ("kifu47094.csa", "藤井システム vs "),
    ];
    let mut paths: Vec<String> = Vec::new();
    for (f, _) in &cases {
        paths.push(pro.join(f).display().to_string());
    }
    let mut args = vec!["classify"];
    args.extend(paths.iter().map(String::as_str));
    let o = kifu_in(&corpus, &args);
    assert!(o.status.success(), "{}", err(&o));
    let text = out(&o);
    for ((f, want), line) in cases.iter().zip(text.lines()) {
        let (name, rest) = line.split_once(": ").unwrap();
        assert!(name.ends_with(f), "{line}");
        assert!(rest.starts_with(want), "{f}: wanted {want}, got {rest}");
    }
    // A handicap game is named by its handicap and 下手's strategy, as the
    // files' own 戦型 lines have it (三間飛車, 四間飛車, 雁木).
    let book = corpus.join("mixed/shogi-player-kifu_book_info");
    for (f, want) in [
        ("27637.kif", "香落ち 三間飛車"),
        ("27585.kif", "右香落ち 四間飛車"),
        ("27584.kif", "右香落ち 雁木"),
        ("39801.kif", "雁木"),
        ("08731.kif", "相振り飛車"),
    ] {
        let path = book.join(f);
        let o = kifu_in(&corpus, &["classify", path.to_str().unwrap()]);
        let text = out(&o);
        let name = text
            .split_once(": ")
            .map(|(_, r)| r.split("  ").next().unwrap());
        assert_eq!(name, Some(want), "{f}: {text}");
    }
}

/// A CSA game whose `$OPENING` is wrong: both rooks go to the third file.
const WRONG_OPENING_CSA: &str =
    "V2.2\nPI\n$OPENING:矢倉\n+\n+7776FU\n-3334FU\n+2878HI\n-8232HI\n%TORYO\n";

#[test]
fn convert_classify_writes_the_name_where_the_record_has_none() {
    let dir = fixtures();
    let o = kifu_in(
        dir.path(),
        &["convert", "--classify", "--to", "kifu", "b.usi"],
    );
    assert!(
        out(&o).lines().any(|l| l == "戦型：相三間飛車"),
        "{}",
        out(&o)
    );
    let o = kifu_in(
        dir.path(),
        &["convert", "--classify", "--to", "ki2u", "a.usi"],
    );
    assert!(
        out(&o).lines().any(|l| l == "戦型：四間飛車 vs 居飛車"),
        "{}",
        out(&o)
    );
    let o = kifu_in(
        dir.path(),
        &["convert", "--classify", "--to", "csa", "b.usi"],
    );
    assert!(
        out(&o).lines().any(|l| l == "$OPENING:相三間飛車"),
        "{}",
        out(&o)
    );
    // Without --classify nothing is added.
    let o = kifu_in(dir.path(), &["convert", "--to", "kifu", "b.usi"]);
    assert!(!out(&o).contains("戦型"), "{}", out(&o));
}

#[test]
fn convert_classify_keeps_a_written_name_unless_asked() {
    let dir = fixtures();
    std::fs::write(dir.path().join("c.csa"), WRONG_OPENING_CSA).unwrap();
    let o = kifu_in(
        dir.path(),
        &["convert", "--classify", "--to", "kifu", "c.csa"],
    );
    let lines: Vec<String> = out(&o)
        .lines()
        .filter(|l| l.contains("戦型"))
        .map(String::from)
        .collect();
    assert_eq!(lines, ["戦型：矢倉"], "{}", out(&o));
    let args = [
        "convert",
        "--classify",
        "--overwrite-opening",
        "--to",
        "csa",
        "c.csa",
    ];
    let o = kifu_in(dir.path(), &args);
    let text = out(&o);
    let lines: Vec<&str> = text.lines().filter(|l| l.contains("OPENING")).collect();
    assert_eq!(lines, ["$OPENING:相三間飛車"], "{text}");
    // --overwrite-opening alone is refused: it says how, not whether.
    let o = kifu_in(
        dir.path(),
        &["convert", "--overwrite-opening", "--to", "csa", "c.csa"],
    );
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn convert_classify_names_no_set_up_position() {
    let dir = fixtures();
    let sfen = "position sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1 moves G*5b\n";
    std::fs::write(dir.path().join("s.usi"), sfen).unwrap();
    let o = kifu_in(
        dir.path(),
        &["convert", "--classify", "--to", "kifu", "s.usi"],
    );
    assert!(o.status.success(), "{}", err(&o));
    assert!(!out(&o).contains("戦型"), "{}", out(&o));
}

/// Two games of 相三間飛車 between Alice and Bob, one won by each side.
fn two_results() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let x1 = "V2.2\nN+Alice\nN-Bob\n$EVENT:Cup\n$START_TIME:2024/01/02 10:00:00\nPI\n+\n\
              +7776FU\n-3334FU\n+2878HI\n-8232HI\n%TORYO\n";
    let x2 = "V2.2\nN+Bob\nN-Alice\nPI\n+\n+7776FU\n-3334FU\n+2878HI\n-8232HI\n+5968OU\n%TORYO\n";
    std::fs::write(dir.path().join("x1.csa"), x1).unwrap();
    std::fs::write(dir.path().join("x2.csa"), x2).unwrap();
    dir
}

fn stats_by(dir: &std::path::Path, key: &str) -> Vec<serde_json::Value> {
    let o = kifu_in(dir, &["stats", "--by", key, "--json", "."]);
    assert!(o.status.success(), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["by"], key);
    v["rows"].as_array().unwrap().clone()
}

fn row<'a>(rows: &'a [serde_json::Value], key: &str) -> &'a serde_json::Value {
    rows.iter()
        .find(|r| r["key"] == key)
        .unwrap_or_else(|| panic!("no {key} in {rows:?}"))
}

#[test]
fn stats_by_opening_counts_games_wins_and_length() {
    let dir = two_results();
    let rows = stats_by(dir.path(), "opening");
    assert_eq!(rows.len(), 1, "{rows:?}");
    let r = row(&rows, "相三間飛車");
    assert_eq!(
        (
            r["games"].as_u64(),
            r["wins"].as_u64(),
            r["losses"].as_u64()
        ),
        (Some(2), Some(1), Some(1))
    );
    assert_eq!(r["average_plies"], 4.5);
}

#[test]
fn stats_by_player_and_side_count_each_sides_result() {
    let dir = two_results();
    let rows = stats_by(dir.path(), "player");
    assert_eq!(row(&rows, "Bob")["wins"], 2);
    assert_eq!(row(&rows, "Alice")["losses"], 2);
    let rows = stats_by(dir.path(), "side");
    assert_eq!(row(&rows, "sente")["wins"], 1);
    assert_eq!(row(&rows, "gote")["wins"], 1);
    let rows = stats_by(dir.path(), "year");
    assert_eq!(row(&rows, "2024")["games"], 1);
    assert_eq!(row(&rows, "(none)")["games"], 1);
    let rows = stats_by(dir.path(), "event");
    assert_eq!(row(&rows, "Cup")["losses"], 1);
    let o = kifu_in(dir.path(), &["stats", "--by", "castle", "."]);
    assert!(out(&o).starts_with("castle "), "{}", out(&o));
}

/// docs/openings.md's "Every entry" has a section for each entry of the
/// table, in table order, and each board it links to is there.
#[test]
fn the_test_page_shows_every_entry_of_the_table() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let page = std::fs::read_to_string(root.join("docs/openings.md")).unwrap();
    let every = &page[page.find("## Every entry").expect("the section")..];
    let heads: Vec<&str> = every
        .lines()
        .filter_map(|l| l.strip_prefix("### "))
        .map(|l| l.split(" (").next().unwrap())
        .collect();
    let names: Vec<&str> = kifu::opening::Table::builtin()
        .entries()
        .iter()
        .map(|e| e.name.as_str())
        .collect();
    assert_eq!(heads, names);
    let mut boards = 0;
    for link in every.split("](openings/").skip(1) {
        let file = &link[..link.find(')').unwrap()];
        let svg = std::fs::read_to_string(root.join("docs/openings").join(file)).unwrap();
        assert!(svg.starts_with("<?xml") && svg.contains("<svg"), "{file}");
        boards += 1;
    }
    // Every entry's section shows a board: the corpus game's, or for an
    // entry no corpus game reaches, its hand-made fixture's.
    let sections: Vec<&str> = every.split("\n### ").skip(1).collect();
    assert_eq!(sections.len(), names.len());
    for s in &sections {
        assert!(
            s.contains("](openings/"),
            "no board: {}",
            s.lines().next().unwrap()
        );
        if s.contains("Not met in the corpus's games.") {
            assert!(s.contains("made by hand"), "{}", s.lines().next().unwrap());
        }
    }
    assert_eq!(boards, names.len());
}

/// The names kifu gives the game on `line` (USI): the game's, and each
/// side's strategies and castles.
fn names_of(line: &str) -> Vec<String> {
    let r = kifu::parse::parse(&format!("{line}\n"), kifu::Format::Usi)
        .unwrap()
        .remove(0);
    let g = kifu::replay(r, &kifu::ReplayOptions::default()).unwrap();
    assert!(g.main.verdict.is_legal(), "{line}");
    let o = kifu::opening::classify(&g);
    let mut names = vec![o.game.clone()];
    for s in [&o.sente, &o.gote] {
        names.extend(s.strategy.iter().chain(&s.castle).map(|f| f.name.clone()));
    }
    names
}

/// fixtures/openings/NN.usi (made with docs/openings.md's page from the
/// corpus, or by hand for the entries no corpus game reaches): entry NN's
/// game cut where kifu names it, then one ply before, where it must not.
/// Every entry has one: a lost fixture fails the count.
#[test]
fn each_entry_is_named_where_its_game_reaches_it_and_not_one_ply_before() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/openings");
    let entries = kifu::opening::Table::builtin().entries();
    let mut checked = 0;
    for f in crate::common::files_with_ext(&dir, &["usi"]) {
        let n: usize = f.file_stem().unwrap().to_str().unwrap().parse().unwrap();
        let name = &entries[n].name;
        let text = std::fs::read_to_string(&f).unwrap();
        let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
        let [reached, before] = lines[..] else {
            panic!("{}: two games", f.display())
        };
        assert!(names_of(reached).contains(name), "{name}: {}", f.display());
        assert!(
            !names_of(before).contains(name),
            "{name}: the near miss {}",
            f.display()
        );
        checked += 1;
    }
    assert!(checked >= 81, "{checked} fixtures");
}
