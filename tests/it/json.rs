//! Analysis JSON Lines (`--to json`): every field typed, one snapshot reviewed by eye.

use crate::common::{corpus_dir, files_with_ext};
use kifu::ReplayOptions;
use kifu::emit::json::game_json;
use kifu::input::{ReadOptions, read_path};
use kifu::replay::replay;
use serde::Deserialize;

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Game {
    source: String,
    index: usize,
    format: String,
    encoding: String,
    header: Header,
    start: Start,
    moves: Vec<Move>,
    variations: Vec<Variation>,
    end: Option<End>,
    result: GameResult,
    verdict: Verdict,
    diagnostics: Vec<Diagnostic>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Header {
    sente: Option<String>,
    gote: Option<String>,
    event: Option<String>,
    site: Option<String>,
    start_time: Option<String>,
    end_time: Option<String>,
    time_control: Option<String>,
    handicap: Option<String>,
    raw: Vec<(String, String)>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct Start {
    sfen: String,
    preset: Option<String>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Move {
    ply: u32,
    usi: String,
    csa: String,
    kif: String,
    ki2: String,
    piece: String,
    capture: Option<String>,
    promote: bool,
    check: bool,
    sfen: String,
    time: Option<Time>,
    comments: Vec<String>,
    eval: Option<i64>,
    pv: Option<Vec<String>>,
    line: u32,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Time {
    spent_ms: Option<u64>,
    total_ms: Option<u64>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct Variation {
    ply: u32,
    moves: Vec<Move>,
    variations: Vec<Variation>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct End {
    kind: String,
    ply: u32,
    text: String,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct GameResult {
    winner: Option<String>,
    reason: String,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Verdict {
    legal: bool,
    ply: Option<u32>,
    move_number: Option<u32>,
    rule: Option<String>,
    loser: Option<String>,
    r#move: Option<String>,
    line: Option<u32>,
    column: Option<u32>,
    detail: Option<String>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Diagnostic {
    code: String,
    message: String,
    line: Option<u32>,
    column: Option<u32>,
    ply: Option<u32>,
}

fn json_of(path: &std::path::Path) -> Vec<String> {
    let input = read_path(path, &ReadOptions::default()).unwrap();
    input
        .records
        .into_iter()
        .map(|r| {
            let g = replay(r, &ReplayOptions::default()).unwrap();
            let (v, _) = game_json("x", input.encoding, input.format, &g);
            serde_json::to_string(&v).unwrap()
        })
        .collect()
}

fn check_moves(moves: &[Move], first_ply: u32) {
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(m.ply, first_ply + i as u32);
        let mv = kifu::Move::from_usi(&m.usi).expect("usi parses");
        assert_eq!(m.promote, mv.is_promotion());
        assert!(kifu::Setup::from_sfen(&m.sfen).is_ok(), "{}", m.sfen);
        assert!(m.ki2.starts_with(['▲', '△']), "{}", m.ki2);
        assert_eq!(m.csa.len(), 7, "{}", m.csa);
        assert!(kifu::PieceKind::from_csa(m.piece.as_bytes()).is_some());
    }
}

fn check_variations(vs: &[Variation]) {
    for v in vs {
        check_moves(&v.moves, v.ply);
        check_variations(&v.variations);
    }
}

#[test]
fn analysis_json_of_a_corpus_sample_deserializes_into_typed_structs() {
    let Some(dir) = corpus_dir("analysis_json_typed") else {
        return;
    };
    let mut files = Vec::new();
    for sub in [
        "kif/mog-core-scala",
        "csa/kif-parser-examples",
        "mixed/json-kifu-format-fixtures",
        "usi/rsshogi",
    ] {
        files.extend(files_with_ext(
            &dir.join(sub),
            &["kif", "kifu", "csa", "ki2", "jkf", "txt"],
        ));
    }
    let mut games = 0;
    let mut with_variations = 0;
    for f in &files {
        let Ok(input) = read_path(f, &ReadOptions::default()) else {
            continue;
        };
        for r in input.records {
            let Ok(g) = replay(r, &ReplayOptions::default()) else {
                continue;
            };
            let (v, _) = game_json(&f.display().to_string(), input.encoding, input.format, &g);
            let text = serde_json::to_string(&v).unwrap();
            let back: Game =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            assert_eq!(back.moves.len(), g.main.plies.len());
            check_moves(&back.moves, 1);
            check_variations(&back.variations);
            assert_eq!(back.verdict.legal, g.main.verdict.is_legal());
            assert!(kifu::Setup::from_sfen(&back.start.sfen).is_ok());
            if !back.variations.is_empty() {
                with_variations += 1;
            }
            assert!(!back.result.reason.is_empty());
            games += 1;
        }
    }
    assert!(games > 50, "only {games} games read");
    assert!(with_variations > 0, "the sample holds variations");
}

#[test]
fn analysis_json_of_the_nifu_fixture_matches_the_reviewed_snapshot() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/usi/nifu.usi");
    let lines = json_of(&path);
    assert_eq!(lines.len(), 1);
    let v: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
    insta::assert_json_snapshot!("nifu_analysis_json", v);
}

#[test]
fn analysis_json_keeps_times_comments_and_evaluations() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/csa/v3.csa");
    let g: Game = serde_json::from_str(&json_of(&path)[0]).unwrap();
    assert_eq!(g.header.sente.as_deref(), Some("Alice"));
    assert_eq!(g.start.preset.as_deref(), Some("hirate"));
    assert_eq!(g.moves[0].time.as_ref().unwrap().spent_ms, Some(3250));
    assert!(g.moves.iter().any(|m| m.eval.is_some()));
    assert_eq!(g.result.winner.as_deref(), Some("sente"));
}
