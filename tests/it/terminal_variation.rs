//! A variation that branches at a terminal move (`変化：4手` where move 4
//! is `中断`): an alternative to the ending, replayed from the position
//! after the last move and written back by every writer that holds
//! variations.

use kifu::emit::kif::{KifOptions, write_with};
use kifu::parse::{jkf, ki2, kif};
use kifu::replay::{Game, replay};
use kifu::{Color, ReplayOptions, Verdict};
use std::path::PathBuf;

fn fixture(rel: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel);
    std::fs::read_to_string(p).expect("fixture")
}

fn game(records: Vec<kifu::Record>) -> Game {
    let record = records.into_iter().next().expect("one game");
    replay(record, &ReplayOptions::default()).expect("replays")
}

fn kif_game(src: &str) -> Game {
    game(kif::parse(src).expect("parses"))
}

fn codes(w: &[kifu::emit::Warning]) -> Vec<&'static str> {
    w.iter().map(|w| w.code.code()).collect()
}

const KIF_FIXTURE: &str = "kif/variation-from-terminal.kifu";

#[test]
fn kif_variation_from_terminal_replays_from_the_position_after_the_last_move() {
    let g = kif_game(&fixture(KIF_FIXTURE));
    assert_eq!(g.main.plies.len(), 3);
    assert_eq!(g.main.result.reason, "interrupted");
    assert_eq!(g.record.main.ending_variations.len(), 1);
    assert_eq!(g.variations.len(), 1);
    let v = &g.variations[0];
    assert_eq!((v.parent, v.entry, v.index), (None, 3, 0));
    assert_eq!(v.line.first_ply, 4);
    let first = v.line.plies[0];
    assert_eq!(first.color, Color::Gote);
    assert_eq!(first.mv.to_string(), "8c8d");
    assert_eq!(v.line.plies.len(), 2);
    assert_eq!(v.line.verdict, Verdict::Legal);
    assert_eq!(v.line.result.reason, "resign");
    assert_eq!(v.line.result.winner, Some(Color::Sente));
}

#[test]
fn kif_writes_the_variation_after_the_main_line_and_reads_it_back_the_same() {
    let g = kif_game(&fixture(KIF_FIXTURE));
    let (text, w) = write_with(&g, &KifOptions::utf8());
    assert!(
        codes(&w).iter().all(|&c| c != "variations-dropped"),
        "{w:?}"
    );
    assert!(text.contains("   4 中断+\nまで3手で中断\n"), "{text}");
    assert!(
        text.contains("\n変化：4手\n   4 ８四歩(83)\n   5 ２五歩(26)\n   6 投了\n"),
        "{text}"
    );
    let again = kif_game(&text);
    assert_eq!(again.variations.len(), 1);
    let (text2, _) = write_with(&again, &KifOptions::utf8());
    assert_eq!(text, text2);
}

#[test]
fn ki2_variation_after_the_closing_line_is_an_alternative_to_the_ending() {
    let g = game(ki2::parse(&fixture("ki2/variation-from-terminal.ki2u")).expect("parses"));
    assert_eq!(g.main.result.reason, "interrupted");
    assert_eq!(g.variations.len(), 1);
    assert_eq!(g.variations[0].entry, 3);
    assert_eq!(g.variations[0].line.plies[0].mv.to_string(), "8c8d");
    assert_eq!(g.variations[0].line.result.reason, "resign");
    let (text, w) = kifu::emit::ki2::write(&g);
    assert!(
        codes(&w).iter().all(|&c| c != "variations-dropped"),
        "{w:?}"
    );
    assert!(
        text.contains("まで3手で中断\n\n変化：   4手\n△８四歩    ▲２五歩\n"),
        "{text}"
    );
    let again = game(ki2::parse(&text).expect("reads back"));
    assert_eq!(kifu::emit::ki2::write(&again).0, text);
}

#[test]
fn jkf_writes_the_variation_as_a_fork_on_the_special_and_reads_it_back() {
    let g = kif_game(&fixture(KIF_FIXTURE));
    let (text, w) = kifu::emit::jkf::write(&g);
    assert!(
        codes(&w).iter().all(|&c| c != "variations-dropped"),
        "{w:?}"
    );
    let doc: serde_json::Value = serde_json::from_str(&text).unwrap();
    let special = &doc["moves"][4];
    assert_eq!(special["special"], "CHUDAN");
    let fork = special["forks"][0].as_array().expect("one fork");
    assert_eq!(fork.len(), 3);
    assert_eq!(fork[0]["move"]["color"], 1);
    assert_eq!(fork[0]["move"]["to"], serde_json::json!({"x": 8, "y": 4}));
    assert_eq!(fork[2]["special"], "TORYO");
    let again = game(jkf::parse(&text).expect("reads back"));
    assert_eq!(again.record.main.ending_variations.len(), 1);
    assert_eq!(again.variations[0].line.result.reason, "resign");
    assert_eq!(kifu::emit::jkf::write(&again).0, text);
}

#[test]
fn json_analysis_lists_the_variation_from_the_terminal() {
    let g = kif_game(&fixture(KIF_FIXTURE));
    let (line, _) = kifu::emit::json::write("t", "UTF-8", kifu::Format::Kif, &g, false);
    let v: serde_json::Value = serde_json::from_str(line.trim_end()).unwrap();
    let vars = v["variations"].as_array().expect("variations");
    assert_eq!(vars.len(), 1);
    assert_eq!(vars[0]["ply"], 4);
    assert_eq!(vars[0]["moves"][0]["usi"], "8c8d");
    assert_eq!(vars[0]["moves"][1]["usi"], "2f2e");
}

#[test]
fn csa_usi_and_sfen_report_the_variation_as_dropped() {
    let g = kif_game(&fixture(KIF_FIXTURE));
    let (_, csa) = kifu::emit::csa::write(&g, &kifu::emit::csa::CsaOptions::default());
    assert!(codes(&csa).contains(&"variations-dropped"), "{csa:?}");
    let (_, usi) = kifu::emit::usi::write(&g);
    assert!(codes(&usi).contains(&"variations-dropped"), "{usi:?}");
    let (_, sfen) = kifu::emit::sfen::write(&g);
    assert!(codes(&sfen).contains(&"variations-dropped"), "{sfen:?}");
}

#[test]
fn a_foul_in_a_variation_from_the_terminal_is_judged() {
    // Gote's pawn cannot move two squares: the variation ends in its foul.
    let src = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n   4 投了\n\n変化：4手\n   4 ８五歩(83)\n";
    let g = kif_game(src);
    assert_eq!(g.main.result.reason, "resign");
    let v = &g.variations[0].line;
    let Verdict::Foul(f) = &v.verdict else {
        panic!("expected a foul, got {:?}", v.verdict);
    };
    assert_eq!(f.ply, 4);
    assert_eq!(f.loser, Color::Gote);
    assert_eq!(f.span.line, 8);
}

#[test]
fn repetition_in_a_variation_from_the_terminal_counts_the_main_line() {
    // The start position recurs after plies 4, 8 and 12: its fourth
    // occurrence only when the start itself, before the branch, is counted.
    let mut src = String::from(
        "手合割：平手\n   1 ５八玉(59)\n   2 ５二玉(51)\n   3 ５九玉(58)\n   4 中断\n\n変化：4手\n",
    );
    let cycle = ["５一玉(52)", "５八玉(59)", "５二玉(51)", "５九玉(58)"];
    for ply in 4..=12 {
        src.push_str(&format!("{ply:>4} {}\n", cycle[(ply - 4) % 4]));
    }
    let g = kif_game(&src);
    let v = &g.variations[0].line;
    assert_eq!(v.plies.len(), 9);
    assert_eq!(v.result.reason, "sennichite");
    assert_eq!(v.result.winner, None);
}

#[test]
fn a_variation_from_the_terminal_of_a_variation_nests_under_it() {
    let src = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 中断\n\n変化：3手\n   3 ２六歩(27)\n   4 中断\n\n変化：4手\n*from the end of the first variation\n   4 ８四歩(83)\n";
    let g = kif_game(src);
    assert_eq!(g.variations.len(), 2);
    assert_eq!((g.variations[0].parent, g.variations[0].entry), (None, 2));
    let inner = &g.variations[1];
    assert_eq!((inner.parent, inner.entry), (Some(0), 1));
    assert_eq!(inner.line.first_ply, 4);
    assert_eq!(inner.line.plies[0].mv.to_string(), "8c8d");
    // A comment right after the heading describes the position before
    // the replaced terminal: after the variation's last move.
    let outer = &g.record.main.ending_variations[0];
    assert_eq!(
        outer.moves[0].comments(),
        ["from the end of the first variation"]
    );
    let (text, _) = write_with(&g, &KifOptions::utf8());
    let again = kif_game(&text);
    assert_eq!(again.variations.len(), 2);
    assert_eq!(write_with(&again, &KifOptions::utf8()).0, text);
}

#[test]
fn a_variation_from_the_terminal_of_a_fouled_line_is_reported_not_replayed_and_dropped() {
    // Move 3 is illegal, so there is no position after the last move to
    // branch from: the variation is not replayed, and writers say so.
    let src = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７四歩(76)\n   4 中断\n\n変化：4手\n   4 ８四歩(83)\n";
    let g = kif_game(src);
    assert!(!g.main.verdict.is_legal());
    assert_eq!(g.record.main.ending_variations.len(), 1);
    assert!(g.variations.is_empty());
    let d = g
        .main
        .diagnostics
        .iter()
        .find(|d| d.code.code() == "variations-not-replayed")
        .expect("the check says the variation was not replayed");
    assert_eq!(d.ply, Some(4));
    assert_eq!(d.span.map(|s| s.line), Some(8));
    let (text, w) = write_with(&g, &KifOptions::utf8());
    assert!(!text.contains("８四歩"), "{text}");
    assert!(codes(&w).contains(&"variations-dropped"), "{w:?}");
}

#[test]
fn kif_writes_times_when_only_a_variation_from_the_terminal_has_them() {
    let src = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n\n変化：3手\n   3 ２六歩(27)   ( 0:05/00:00:05)\n";
    let g = kif_game(src);
    let (text, w) = write_with(&g, &KifOptions::utf8());
    assert!(codes(&w).is_empty(), "{w:?}");
    assert!(
        text.contains("   3 投了         ( 0:00/00:00:00)+\n"),
        "{text}"
    );
    assert!(
        text.contains("   3 ２六歩(27)   ( 0:05/00:00:05)\n"),
        "{text}"
    );
}
