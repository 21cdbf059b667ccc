//! Judging moves from the evaluations a record carries (`kifu::judge`):
//! the loss of each move in expected-win terms, `stats --by` with the
//! average loss and the counts of 疑問手, 悪手 and 大悪手, its `--report`
//! page, and `check --report`'s evaluation graph and worst-move cards.

use kifu::judge::{self, Judgement, Thresholds};
use std::path::Path;
use std::process::Output;

/// Four moves with floodgate evaluations (sente's side): sente's third
/// ply drops sente from +40 to -900 (a 大悪手), gote's fourth gives back a
/// little. The start is not scored, so the first move is not judged.
const GAME: &str = "V2.2\nN+Alice\nN-Bob\nPI\n+\n+7776FU\n'** 50\n-3334FU\n'** 40 +2726FU\n+2726FU\n'** -900\n-8384FU\n'** -850\n%TORYO\n";

/// The chance of sente winning at `cp`, on the curve the module documents.
fn p(cp: f64) -> f64 {
    1.0 / (1.0 + (-cp / 600.0).exp())
}

fn kifu(dir: &Path, args: &[&str]) -> Output {
    crate::common::kifu_in(dir, args)
}

fn game_dir() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(d.path().join("g.csa"), GAME).unwrap();
    d
}

#[test]
fn each_judged_move_loses_its_sides_chance_between_two_scored_positions() {
    let r = kifu::read_bytes(GAME.as_bytes(), None, &Default::default())
        .unwrap()
        .records
        .remove(0);
    let game = kifu::replay(r, &Default::default()).unwrap();
    let losses = judge::main_line_losses(&game, &Thresholds::default());
    let plies: Vec<usize> = losses.iter().map(|m| m.ply).collect();
    assert_eq!(
        plies,
        [2, 3, 4],
        "the first move has no scored position before it"
    );
    // Gote's reply keeps sente at about +40: gote lost nothing.
    assert_eq!(losses[0].loss, 0.0);
    assert_eq!(losses[1].mover, kifu::Color::Sente);
    assert!((losses[1].loss - (p(40.0) - p(-900.0))).abs() < 1e-9);
    assert_eq!(losses[1].judgement, Some(Judgement::Blunder));
    assert!((losses[2].loss - (p(-850.0) - p(-900.0))).abs() < 1e-9);
    assert_eq!(losses[2].judgement, None);
    let [sente, gote] = judge::game_losses(&game, &Thresholds::default());
    assert_eq!((sente.moves, sente.blunder), (1, 1));
    assert_eq!(
        (gote.moves, gote.dubious + gote.mistake + gote.blunder),
        (2, 0)
    );
}

#[test]
fn a_mated_position_scores_as_lost_whatever_the_record_says() {
    // Sente's gold drop mates; the record says 0 there, which the judge
    // does not believe: gote, to move, has lost.
    let csa = "V2.2\nP1 *  *  *  *  *  *  * -KE-OU\nP2 *  *  *  *  *  *  * -FU * \nP3 *  *  *  *  *  *  *  * +FU\nP4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \nP7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \nP9 *  *  *  * +OU *  *  *  * \nP+00KI\nP-00AL\n+\n+0012KI\n'** 0\n%TSUMI\n";
    let r = kifu::read_bytes(csa.as_bytes(), None, &Default::default())
        .unwrap()
        .records
        .remove(0);
    let game = kifu::replay(r, &Default::default()).unwrap();
    assert_eq!(game.main.plies.len(), 1);
    assert_eq!(
        judge::main_line_scores(&game),
        [None, Some(judge::Score::Mate(1))]
    );
    assert_eq!(judge::win_probability(judge::Score::Mate(1)), 1.0);
}

#[test]
fn stats_by_player_gives_each_players_average_loss_and_bad_moves() {
    let d = game_dir();
    let o = kifu(d.path(), &["stats", "--by", "player", "--json", "g.csa"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let row = |name: &str| {
        v["rows"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["key"] == name)
            .unwrap_or_else(|| panic!("no row {name}: {v}"))
            .clone()
    };
    let alice = row("Alice");
    assert_eq!(alice["loss"]["moves"], 1);
    assert_eq!(alice["loss"]["blunder"], 1);
    let expected = ((p(40.0) - p(-900.0)) * 10_000.0).round() / 10_000.0;
    assert_eq!(alice["loss"]["average"].as_f64().unwrap(), expected);
    let bob = row("Bob");
    assert_eq!(bob["loss"]["moves"], 2);
    assert_eq!(bob["loss"]["blunder"], 0);
    // The text names the columns and the same figures.
    let o = kifu(d.path(), &["stats", "--by", "player", "g.csa"]);
    let t = String::from_utf8_lossy(&o.stdout);
    assert!(t.contains("avg loss"), "{t}");
    let line = t.lines().find(|l| l.starts_with("Alice")).unwrap();
    assert!(line.contains(&format!("{expected:.3}")), "{line}");
    // Stricter thresholds move the 大悪手 down to 悪手.
    let o = kifu(
        d.path(),
        &[
            "stats",
            "--by",
            "side",
            "--json",
            "--blunder",
            "0.5",
            "g.csa",
        ],
    );
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let sente = v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["key"] == "sente")
        .unwrap()
        .clone();
    assert_eq!(
        (
            sente["loss"]["mistake"].as_u64(),
            sente["loss"]["blunder"].as_u64()
        ),
        (Some(1), Some(0))
    );
}

#[test]
fn stats_without_evaluations_has_no_loss_columns() {
    let d = tempfile::tempdir().unwrap();
    std::fs::write(
        d.path().join("g.csa"),
        "V2.2\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n",
    )
    .unwrap();
    let o = kifu(d.path(), &["stats", "--by", "player", "--json", "g.csa"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v["rows"][0].get("loss").is_none(), "{v}");
    let o = kifu(d.path(), &["stats", "--by", "player", "g.csa"]);
    assert!(!String::from_utf8_lossy(&o.stdout).contains("avg loss"));
}

#[test]
fn stats_report_draws_each_row_with_a_bar_to_scale() {
    let d = game_dir();
    std::fs::write(
        d.path().join("h.csa"),
        GAME.replace("%TORYO", "+2625FU\n%TORYO"),
    )
    .unwrap();
    let o = kifu(
        d.path(),
        &[
            "stats", "--by", "side", "--report", "s.html", "g.csa", "h.csa",
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(d.path().join("s.html")).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(!html.contains("http"), "the page fetches nothing");
    // g: gote resigns at ply 4 (sente wins); h: sente resigns after ply 5.
    for side in ["sente", "gote"] {
        let row = html
            .split(&format!("<tr data-key=\"{side}\">"))
            .nth(1)
            .unwrap();
        let row = &row[..row.find("</tr>").unwrap()];
        assert!(
            row.contains("<title>1 wins, 1 losses, 0 other</title>"),
            "{row}"
        );
        assert!(row.contains("width=\"120.0\""), "half the bar each: {row}");
        assert!(row.contains("大悪手") || row.contains("<td>"), "{row}");
    }
    // --report needs --by.
    let o = kifu(d.path(), &["stats", "--report", "t.html", "g.csa"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!d.path().join("t.html").exists());
}

#[test]
fn check_report_draws_the_graph_and_a_card_for_the_worst_move() {
    let d = game_dir();
    let o = kifu(d.path(), &["check", "-q", "--report", "r.html", "g.csa"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let html = std::fs::read_to_string(d.path().join("r.html")).unwrap();
    let graph = &html[html.find("<svg class=\"graph\"").expect("a graph")..];
    let graph = &graph[..graph.find("</svg>").unwrap()];
    // Four scored positions after the moves, one run of them.
    assert_eq!(graph.matches("<polyline").count(), 1, "{graph}");
    let points = graph.split("points=\"").nth(1).unwrap();
    let points = &points[..points.find('"').unwrap()];
    assert_eq!(points.split(' ').count(), 4, "{points}");
    // One dot: the 大悪手 at ply 3.
    assert_eq!(
        graph.matches("<circle class=\"blunder\"").count(),
        1,
        "{graph}"
    );
    assert!(graph.contains("<title>ply 3: 大悪手"), "{graph}");
    // Its card: the move, the loss, the board and the line gote's move
    // carried (the engine's best from there: +2726FU).
    let card = html
        .split("<article class=\"card\" data-rule=\"blunder\">")
        .nth(1)
        .expect("a card");
    let card = &card[..card.find("</article>").unwrap()];
    assert!(card.contains("大悪手"), "{card}");
    assert!(card.contains("ply</dt><dd>3 ▲２六歩 (2g2f)"), "{card}");
    assert!(card.contains("the engine&#39;s line here: 2g2f"), "{card}");
    assert!(card.contains("g.csa:10:1"), "{card}");
    assert!(
        html.contains("data-rule=\"blunder\">blunder (1)"),
        "the filter lists it"
    );
    // Stricter thresholds: no card, the dot is a 悪手.
    let o = kifu(
        d.path(),
        &[
            "check",
            "-q",
            "--report",
            "r2.html",
            "--blunder",
            "0.5",
            "--mistake",
            "0.4",
            "g.csa",
        ],
    );
    assert!(o.status.success());
    let html = std::fs::read_to_string(d.path().join("r2.html")).unwrap();
    assert!(
        !html.contains("<article class=\"card\""),
        "no move reaches 悪手 now"
    );
    assert!(html.contains("<circle class=\"dubious\""));
}
