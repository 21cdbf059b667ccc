//! Training data (`--to hcpe`, `--to psv`): which games are labelled, and
//! how positions with pieces out of play are coded. The python tests decode
//! every record with cshogi; these pin the bytes cshogi writes.

use kifu::emit::{hcpe, psv};
use kifu::replay::{Game, replay};
use kifu::{ReadOptions, ReplayOptions, read_path};
use std::path::Path;

fn game(fixture: &str) -> Game {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(fixture);
    let mut input = read_path(&path, &ReadOptions::default()).expect("reads");
    replay(input.records.remove(0), &ReplayOptions::default()).expect("replays")
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[test]
fn a_handicap_start_is_written_with_the_pieces_taken_off_in_the_box() {
    let g = game("kif/nimai-ochi.kifu");
    let (h, warnings) = hcpe::write(&g);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(h.len(), 2 * hcpe::RECORD_BYTES);
    // cshogi's `Board.to_hcp` / `to_psfen` of the two-piece handicap start.
    assert_eq!(
        hex(&h[..32]),
        "59a449210c9742fc1c9b42585e85f0288457213c9b42582e85f8382685303c5e"
    );
    // 下手 (sente) won: dlshogi's 1.
    assert_eq!(h[36], 1);
    let (p, warnings) = psv::write(&g);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(p.len(), 2 * psv::RECORD_BYTES);
    assert_eq!(
        hex(&p[..32]),
        "59a451220cab44fc2ca744385e89f0488457223ca744385689f858468930bc7e"
    );
}

#[test]
fn a_problem_with_one_king_is_still_not_encodable() {
    let rec = kifu::parse::usi::parse(
        "position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l16p 1 moves G*5b",
    )
    .unwrap()
    .remove(0);
    let g = replay(rec, &ReplayOptions::default()).unwrap();
    let (h, warnings) = hcpe::write(&g);
    assert!(h.is_empty());
    let codes: Vec<_> = warnings.iter().map(|w| w.code.to_string()).collect();
    assert!(
        codes.contains(&"position-not-encodable".to_string()),
        "{codes:?}"
    );
}

#[test]
fn a_floodgate_game_ended_by_the_move_limit_is_a_labelled_draw() {
    let g = game("csa/floodgate-max-moves.csa");
    assert_eq!(g.main.result.winner, None);
    assert_eq!(g.main.result.reason, "max-moves");
    let end = g
        .record
        .main
        .ending
        .as_ref()
        .expect("the summary is the ending");
    assert!(end.text.starts_with("'summary:max_moves:"), "{}", end.text);
    assert!(g.main.diagnostics.is_empty(), "{:?}", g.main.diagnostics);
    let (h, warnings) = hcpe::write(&g);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(h.len(), 4 * hcpe::RECORD_BYTES);
    // A draw: dlshogi's 0 on every record; the floodgate evals are kept.
    assert!(h.chunks(hcpe::RECORD_BYTES).all(|r| r[36] == 0));
    assert_eq!(i16::from_le_bytes([h[32], h[33]]), 42);
    let (p, _) = psv::write(&g);
    assert_eq!(p.len(), 4 * psv::RECORD_BYTES);
}

#[test]
fn a_move_limit_claim_short_of_the_limit_is_reported() {
    let g = game("csa/floodgate-max-moves-short.csa");
    let codes: Vec<_> = g
        .main
        .diagnostics
        .iter()
        .map(|d| d.code.to_string())
        .collect();
    assert_eq!(codes, ["false-max-moves-claim"]);
    let d = &g.main.diagnostics[0];
    assert!(
        d.message.contains("after 4 moves") && d.message.contains("256"),
        "{}",
        d.message
    );
}

#[test]
fn kif_ki2_and_jkf_evals_are_written_from_the_side_to_move() {
    use kifu::parse::{jkf, ki2, kif};
    let kif_text = "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n** 30 -3334FU\n   2 ３四歩(33)\n*#評価値=-45\n   3 投了\n";
    let ki2_text = "手合割：平手\n▲７六歩\n** 30\n△３四歩\n*#評価値=-45\nまで2手で後手の勝ち\n";
    let jkf_text = r##"{"header":{},"initial":{"preset":"HIRATE"},"moves":[{},{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU","color":0},"comments":["* 30"]},{"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"piece":"FU","color":1},"comments":["#評価値=-45"]},{"special":"TORYO"}]}"##;
    for (name, rec) in [
        ("kif", kif::parse(kif_text).unwrap().remove(0)),
        ("ki2", ki2::parse(ki2_text).unwrap().remove(0)),
        ("jkf", jkf::parse(jkf_text).unwrap().remove(0)),
    ] {
        let g = replay(rec, &ReplayOptions::default()).unwrap();
        let (h, warnings) = hcpe::write(&g);
        assert!(warnings.is_empty(), "{name}: {warnings:?}");
        let evals: Vec<i16> = h
            .chunks(hcpe::RECORD_BYTES)
            .map(|r| i16::from_le_bytes([r[32], r[33]]))
            .collect();
        // Sente's +30 for sente, and sente's -45 is +45 for gote.
        assert_eq!(evals, [30, 45], "{name}");
    }
}
