//! The highlight table of `../shared/corpus/MANIFEST.md`, one test per row,
//! for every format kifu reads today.

use crate::common::corpus_dir;
use kifu::input::{ReadOptions, read_path};
use kifu::replay::{BoardEnd, Game, Verdict, replay};
use kifu::{Color, ReplayOptions, Rule};

fn games(rel: &str) -> Vec<Game> {
    let dir = corpus_dir(rel);
    let input =
        read_path(&dir.join(rel), &ReadOptions::default()).unwrap_or_else(|e| panic!("{rel}: {e}"));
    input
        .records
        .into_iter()
        .map(|r| replay(r, &ReplayOptions::default()).unwrap_or_else(|e| panic!("{rel}: {e}")))
        .collect()
}

fn game(rel: &str) -> Game {
    games(rel).remove(0)
}

/// The first game of the file in corpus folder `rel` whose name contains
/// `part` (for names too long or odd to spell out).
fn game_named(rel: &str, part: &str) -> Game {
    let dir = corpus_dir(rel);
    let file = std::fs::read_dir(dir.join(rel))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().contains(part))
        .unwrap_or_else(|| panic!("no file with {part:?} in {rel}"));
    let input = read_path(&file, &ReadOptions::default()).unwrap();
    let record = input.records.into_iter().next().unwrap();
    replay(record, &ReplayOptions::default()).unwrap()
}

fn foul_of(g: &Game) -> (u32, Rule, Color) {
    match &g.main.verdict {
        Verdict::Foul(f) => (f.ply, f.rule, f.loser),
        Verdict::Legal => panic!("expected a foul; result {:?}", g.main.result),
    }
}

fn has_diag(g: &Game, code: &str) -> bool {
    g.main.diagnostics.iter().any(|d| d.code == code)
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn shogi_club_24_king_left_in_check_at_move_27() {
    let g = game("kif/mog-core-scala/game/017.kif");
    assert_eq!(foul_of(&g), (27, Rule::SelfCheck, Color::Sente));
    assert_eq!(g.main.result.winner, Some(Color::Gote));
    assert!(
        !has_diag(&g, "ending-disagrees"),
        "反則勝ち agrees with the foul"
    );
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn dojo81_illegal_bishop_drop_at_move_157() {
    let g = game("kif/mog-core-scala/game/014.kif");
    let (ply, rule, _) = foul_of(&g);
    assert_eq!((ply, rule), (157, Rule::SelfCheck));
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn dojo81_crlf_king_left_in_check_at_move_83() {
    let g = game("kif/mog-core-scala/game/015.kif");
    assert_eq!(foul_of(&g).0, 83);
    assert_eq!(foul_of(&g).1, Rule::SelfCheck);
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn shogigui_king_moves_into_check_at_move_281_in_both_encodings() {
    for ext in ["kif", "kifu"] {
        let rel = format!(
            "kif/kif-parser-examples/20211002_223506_KifuwarabeW31B22vsKifuwarabeW31B22[shogigui].{ext}"
        );
        let g = game(&rel);
        assert_eq!(foul_of(&g), (281, Rule::SelfCheck, Color::Sente), "{rel}");
    }
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn shogidokoro_unrecorded_foul_after_52_moves() {
    let g = game(
        "kif/kif-parser-examples/20210503_191257 AI_AN_shogi_ver1 vs Kifuwarabe[shogidokoro].kifu",
    );
    assert!(g.main.verdict.is_legal());
    assert_eq!(g.main.plies.len(), 52);
    assert_eq!(g.main.result.winner, Some(Color::Gote));
    assert_eq!(g.main.result.reason, "foul");
    assert!(has_diag(&g, "unverified-foul-claim"));
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn wcsc31_illegal_move_not_in_the_file() {
    let g = game("csa/kif-parser-examples/[wcsc31]WCSC31_L8_ANS_KFW_1.csa");
    assert!(g.main.verdict.is_legal());
    assert_eq!(g.main.plies.len(), 52);
    assert_eq!(g.main.result.winner, Some(Color::Gote));
    assert!(has_diag(&g, "unverified-foul-claim"));
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn json_kifu_format_illegal_lose_and_win() {
    let g = game("mixed/json-kifu-format-fixtures/csa/illegal_lose.csa");
    assert_eq!(g.main.plies.len(), 2);
    assert_eq!(g.main.result.winner, Some(Color::Gote));
    let g = game("mixed/json-kifu-format-fixtures/csa/illegal_win.csa");
    assert_eq!(g.main.plies.len(), 2);
    assert_eq!(g.main.result.winner, Some(Color::Sente));
    let g = game("mixed/json-kifu-format-fixtures/kif/illegal.kif");
    assert_eq!(g.main.plies.len(), 2);
    assert_eq!(g.record.main.ending.as_ref().unwrap().text, "反則負け");
    assert!(!g.variations.is_empty());
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn shogiboardq_broken_fixtures_are_fouls() {
    let g = game("mixed/shogiboardq-fixtures/test_drops.usi");
    assert_eq!(foul_of(&g), (5, Rule::NotInHand, Color::Sente));
    let g = game("mixed/shogiboardq-fixtures/test_various_pieces.csa");
    let (ply, rule, _) = foul_of(&g);
    assert_eq!((ply, rule), (11, Rule::BadMovement));
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn haitaka_invalid_sfens_are_rejected() {
    let dir = corpus_dir("haitaka_invalid");
    let text = std::fs::read_to_string(dir.join("usi/haitaka/invalid.sfens")).unwrap();
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let err = kifu::Position::from_sfen(line).expect_err(line);
        assert!(!err.to_string().is_empty());
        n += 1;
    }
    assert_eq!(n, 3);
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn fourfold_repetition_at_the_last_move_then_sennichite() {
    for rel in [
        "kif/mog-core-scala/game/009.kif",
        "mixed/shogiboardq-fixtures/test_kiou_comments.kif",
        "mixed/shogihome-usi-csa-bridge-e2e/5/record.kifu",
    ] {
        let g = game(rel);
        assert!(g.main.verdict.is_legal(), "{rel}");
        assert_eq!(g.main.board_end, BoardEnd::Sennichite, "{rel}");
        assert_eq!(g.main.plies.len(), g.record.main.moves.len(), "{rel}");
        assert_eq!(g.main.result.reason, "sennichite", "{rel}");
        assert!(
            g.main.diagnostics.is_empty(),
            "{rel}: {:?}",
            g.main.diagnostics
        );
    }
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn pro_game_without_terminator_ends_in_sennichite_at_119() {
    let g = game("csa/sunfish4/kifu/learn/pro10/kifu20023.csa");
    assert_eq!(g.main.plies.len(), 119);
    assert_eq!(g.main.board_end, BoardEnd::Sennichite);
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn perpetual_check_repetitions_lose_for_the_checker() {
    for (rel, checker) in [
        (
            "mixed/shogihome-usi-csa-bridge-e2e/6/record.kifu",
            Color::Sente,
        ),
        (
            "mixed/shogihome-usi-csa-bridge-e2e/7/record.kifu",
            Color::Gote,
        ),
    ] {
        let g = game(rel);
        let (_, rule, loser) = foul_of(&g);
        assert_eq!((rule, loser), (Rule::PerpetualCheck, checker), "{rel}");
        assert!(
            !has_diag(&g, "ending-disagrees"),
            "{rel}: {:?}",
            g.main.diagnostics
        );
    }
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn same_jishogi_game_in_kif_and_csa() {
    let k = game("kif/mog-core-scala/game/010.kif");
    let c = game("csa/mog-core-scala/game/002.csa");
    assert_eq!(k.main.plies.len(), 258);
    let usi = |g: &Game| g.main.plies.iter().map(|p| p.mv).collect::<Vec<_>>();
    assert_eq!(usi(&k), usi(&c));
    assert_eq!(k.main.result.reason, "jishogi");
    assert_eq!(c.main.result.reason, "jishogi");
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn denryusen_kachi_is_a_valid_declaration() {
    let g = game_named("mixed/json-kifu-format-fixtures/csa", "dr1test");
    assert_eq!(g.main.plies.len(), 400);
    assert!(g.main.verdict.is_legal(), "{:?}", g.main.verdict);
    assert_eq!(g.main.result.reason, "declaration");
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn bod_declarations_true_and_false() {
    let g = game("mixed/shogihome-usi-csa-bridge-e2e/3/record.kifu");
    assert!(g.main.verdict.is_legal(), "{:?}", g.main.verdict);
    assert_eq!(g.main.result.reason, "declaration");
    let g = game("mixed/shogihome-usi-csa-bridge-e2e/4/record.kifu");
    assert_eq!(g.main.plies.len(), 0);
    assert_eq!(g.main.result.reason, "foul");
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn floodgate_max_moves_draw_has_256_moves_and_is_a_max_moves_draw() {
    let g = game_named("csa/kif-parser-examples", "Titanda_L+SILENT_MAJORITY");
    assert_eq!(g.main.plies.len(), 256);
    // The summary line is the ending, and the 256 plies meet its 'Max_Moves:256.
    assert_eq!(g.main.result.winner, None);
    assert_eq!(g.main.result.reason, "max-moves");
    assert!(g.main.diagnostics.is_empty(), "{:?}", g.main.diagnostics);
    assert!(
        g.record
            .notes
            .iter()
            .any(|n| n.contains("summary:max_moves"))
    );
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn yss_toryo_then_commented_lines_kept() {
    let g = game("csa/gpsshogi-0.7.0/data/gpsshogi/wcsc23/day2/3-YSS.csa");
    // %TORYO on a mated position: the result says checkmate.
    assert_eq!(g.record.main.ending.as_ref().unwrap().text, "%TORYO");
    assert_eq!(g.main.result.reason, "checkmate");
    assert!(g.record.notes.iter().any(|n| n.contains("ILLEGAL_MOVE")));
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn time_up_endings() {
    for rel in [
        "mixed/shogihome-usi-csa-bridge-e2e/15/record.kifu",
        "mixed/shogihome-usi-csa-bridge-e2e/9/record.kifu",
        "kif/mog-core-scala/game/002.kif",
    ] {
        let g = game(rel);
        assert_eq!(g.main.result.reason, "time-up", "{rel}");
    }
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn sealed_move_is_no_result() {
    let g = game_named("mixed/json-kifu-format-fixtures/kif", "meijinsen");
    assert_eq!(g.main.result.winner, None);
    assert_eq!(g.main.result.reason, "interrupted");
}
