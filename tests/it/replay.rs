//! The replayer: fouls, repetition, declarations and recorded endings.

use crate::common::corpus_dir;
use kifu::parse::usi;
use kifu::record::{Ending, EndingKind, Location};
use kifu::replay::{BoardEnd, Game, Verdict, replay};
use kifu::{Color, ReplayOptions, Rule};

fn play(line: &str) -> Game {
    let rec = usi::parse(line).expect("parses").remove(0);
    replay(rec, &ReplayOptions::default()).expect("legal start")
}

fn foul(g: &Game) -> &kifu::replay::Foul {
    match &g.main.verdict {
        Verdict::Foul(f) => f,
        Verdict::Legal => panic!("expected a foul, got a legal game: {:?}", g.main.result),
    }
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn rsshogi_move_sequences_give_sennichite_nifu_and_uchifuzume() {
    let dir = corpus_dir("rsshogi_move_sequences");
    let text = std::fs::read_to_string(dir.join("usi/rsshogi/move_sequences.txt")).unwrap();
    let games: Vec<Game> = usi::parse(&text)
        .unwrap()
        .into_iter()
        .map(|r| replay(r, &ReplayOptions::default()).unwrap())
        .collect();
    assert_eq!(games.len(), 3);
    // Line 1: the fourth occurrence at ply 49 is a draw.
    let g = &games[0];
    assert!(g.main.verdict.is_legal());
    assert_eq!(g.main.board_end, BoardEnd::Sennichite);
    assert_eq!(g.main.plies.len(), 49);
    assert_eq!(g.main.result.reason, "sennichite");
    assert_eq!(g.main.result.winner, None);
    // Line 2: nifu at ply 84.
    let f = foul(&games[1]);
    assert_eq!((f.ply, f.rule), (84, Rule::Nifu));
    assert_eq!(f.mv.unwrap().to_usi(), "P*6g");
    // Line 3: uchifuzume at ply 106.
    let f = foul(&games[2]);
    assert_eq!((f.ply, f.rule), (106, Rule::Uchifuzume));
    assert_eq!(f.mv.unwrap().to_usi(), "P*6e");
    assert_eq!(games[2].main.result.winner, Some(f.loser.flip()));
}

const ROOK_VS_KING: &str = "position sfen 4k4/9/9/9/9/9/9/9/R3K4 b - 1 moves";

#[test]
fn perpetual_check_loses_for_the_checking_side() {
    let g = play(&format!(
        "{ROOK_VS_KING} 9i9a 5a5b 9a9b 5b5a 9b9a 5a5b 9a9b 5b5a 9b9a 5a5b 9a9b 5b5a 9b9a"
    ));
    let f = foul(&g);
    assert_eq!(f.rule, Rule::PerpetualCheck);
    assert_eq!(f.ply, 13);
    assert_eq!(f.loser, Color::Sente);
    assert_eq!(g.main.result.winner, Some(Color::Gote));
}

#[test]
fn plain_repetition_is_a_sennichite_draw() {
    let g = play(&format!(
        "{ROOK_VS_KING} 9i8i 5a4a 8i9i 4a5a 9i8i 5a4a 8i9i 4a5a 9i8i 5a4a 8i9i 4a5a 9i8i"
    ));
    assert!(g.main.verdict.is_legal());
    assert_eq!(g.main.board_end, BoardEnd::Sennichite);
    assert_eq!(g.main.plies.len(), 12);
    assert_eq!(g.main.result.reason, "sennichite");
    // The 13th move came after the game ended: reported, not replayed.
    assert!(
        g.main
            .diagnostics
            .iter()
            .any(|d| d.code == "moves-after-end")
    );
}

#[test]
fn foul_followed_by_more_moves_reports_them() {
    let g =
        play("position startpos moves 2g2f 8c8d 2f2e 8d8e 2e2d 2c2d 2h2d 4a3b P*7f 3c3d 7g7f 5a4b");
    let f = foul(&g);
    assert_eq!((f.ply, f.rule, f.loser), (9, Rule::Nifu, Color::Sente));
    assert_eq!(g.main.plies.len(), 8);
    let d = g
        .main
        .diagnostics
        .iter()
        .find(|d| d.code == "moves-after-foul")
        .expect("moves after the foul are reported");
    assert!(d.message.starts_with("3 moves"), "{}", d.message);
    assert_eq!(d.ply, Some(10));
    // Nothing is lost: the record keeps all twelve moves.
    assert_eq!(g.record.main.moves.len(), 12);
}

/// Sente: king on 5b, 19 pieces in the zone worth 27 points.
const DECLARE: &str = "+L+NSG1GS+N+L/1R2K2B1/PPPPPPPPP/9/9/9/9/9/8k b";

#[test]
fn true_entering_king_declaration_wins() {
    let g = play(&format!("position sfen {DECLARE} P 1 moves win"));
    assert!(g.main.verdict.is_legal(), "{:?}", g.main.verdict);
    assert_eq!(g.main.result.winner, Some(Color::Sente));
    assert_eq!(g.main.result.reason, "declaration");
}

#[test]
fn false_entering_king_declaration_is_a_foul() {
    // One point short of the 28 sente needs under the 27-point rule.
    let g = play(&format!("position sfen {DECLARE} - 1 moves win"));
    let f = foul(&g);
    assert_eq!(f.rule, Rule::FalseDeclaration);
    assert_eq!(f.loser, Color::Sente);
    assert_eq!(f.ply, 1);
    // Under the 24-point rule (31 points) it fails too; with 4 more pawns it holds.
    let opts = ReplayOptions::default().declaration(kifu::DeclarationRule::Points24);
    let rec = usi::parse(&format!("position sfen {DECLARE} 4P 1 moves win"))
        .unwrap()
        .remove(0);
    let g = replay(rec, &opts).unwrap();
    assert!(g.main.verdict.is_legal(), "{:?}", g.main.verdict);
}

fn with_ending(line: &str, kind: EndingKind, text: &str) -> Game {
    let mut rec = usi::parse(line).unwrap().remove(0);
    rec.main.ending = Some(Ending {
        kind,
        text: text.into(),
        span: Location::new(0, 1, 1),
        time: None,
        comments: vec![],
    });
    replay(rec, &ReplayOptions::default()).unwrap()
}

#[test]
fn true_mate_claim_is_accepted() {
    let g = with_ending(
        "position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1 moves G*5b",
        EndingKind::Tsumi,
        "詰み",
    );
    assert!(g.main.diagnostics.is_empty(), "{:?}", g.main.diagnostics);
    assert_eq!(g.main.board_end, BoardEnd::Checkmate);
    assert_eq!(g.main.result.winner, Some(Color::Sente));
    assert_eq!(g.main.result.reason, "checkmate");
}

#[test]
fn false_mate_claim_is_a_diagnostic_not_a_foul() {
    let g = with_ending(
        "position startpos moves 7g7f 3c3d",
        EndingKind::Tsumi,
        "詰み",
    );
    assert!(g.main.verdict.is_legal());
    assert!(
        g.main
            .diagnostics
            .iter()
            .any(|d| d.code == "false-mate-claim")
    );
}

#[test]
fn false_sennichite_claim_is_a_diagnostic() {
    let g = with_ending(
        "position startpos moves 7g7f 3c3d",
        EndingKind::Sennichite,
        "千日手",
    );
    assert!(
        g.main
            .diagnostics
            .iter()
            .any(|d| d.code == "false-sennichite-claim")
    );
}

#[test]
fn recorded_foul_without_a_foul_in_the_moves_is_reported() {
    let g = with_ending(
        "position startpos moves 7g7f 3c3d",
        EndingKind::FoulByMover,
        "反則負け",
    );
    assert!(g.main.verdict.is_legal());
    assert_eq!(g.main.result.winner, Some(Color::Gote));
    assert!(
        g.main
            .diagnostics
            .iter()
            .any(|d| d.code == "unverified-foul-claim")
    );
}

#[test]
fn moves_after_checkmate_are_reported_and_judged() {
    // As in 81Dojo records: the mated side plays on, and that move is a foul.
    let g = play("position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1 moves G*5b 5a4a");
    assert!(
        g.main
            .diagnostics
            .iter()
            .any(|d| d.code == "moves-after-checkmate")
    );
    let f = foul(&g);
    assert_eq!((f.ply, f.rule, f.loser), (2, Rule::SelfCheck, Color::Gote));
    assert_eq!(g.main.plies.len(), 1);
}

#[test]
fn every_rule_of_a_usi_move_is_named() {
    // The broken shogiboardq fixture: move 5 drops a pawn sente does not hold.
    let g = play("position startpos moves 7g7f 3c3d 2g2f 8c8d P*5e");
    let f = foul(&g);
    assert_eq!((f.ply, f.rule), (5, Rule::NotInHand));
    // A move from an empty square.
    let g = play("position startpos moves 5e5d");
    assert_eq!(foul(&g).rule, Rule::NoPiece);
}

fn kif_with_closing(closing: &str) -> Game {
    let text = format!(
        "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２六歩(27)\n   4 投了\n{closing}\n"
    );
    let rec = kifu::parse::parse(&text, kifu::Format::Kif)
        .expect("parses")
        .remove(0);
    replay(rec, &ReplayOptions::default()).expect("legal start")
}

fn codes(g: &Game) -> Vec<&'static str> {
    g.main.diagnostics.iter().map(|d| d.code.code()).collect()
}

#[test]
fn closing_line_that_agrees_gives_no_diagnostic() {
    let g = kif_with_closing("まで3手で先手の勝ち");
    assert_eq!(g.main.result.winner, Some(Color::Sente));
    assert_eq!(codes(&g), Vec::<&str>::new());
    // Full-width digits, as some writers use.
    assert_eq!(
        codes(&kif_with_closing("まで３手で先手の勝ち")),
        Vec::<&str>::new()
    );
}

#[test]
fn closing_line_counting_more_moves_flags_a_truncated_record() {
    let g = kif_with_closing("まで57手で先手の勝ち");
    assert_eq!(codes(&g), vec!["closing-count-disagrees"]);
    let msg = &g.main.diagnostics[0].message;
    assert!(msg.contains("57") && msg.contains("has 3"), "{msg}");
}

#[test]
fn closing_line_naming_the_other_winner_is_reported() {
    let g = kif_with_closing("まで3手で後手の勝ち");
    assert_eq!(codes(&g), vec!["closing-winner-disagrees"]);
    // 反則負け names the loser.
    let g = kif_with_closing("まで3手で先手の反則負け");
    assert_eq!(codes(&g), vec!["closing-winner-disagrees"]);
}

/// A perpetual check is judged on the move that made the fourth
/// occurrence, which was played: the foul's move is that ply, with its own
/// side (here the checked side's) and no 同, and the position before the
/// foul is the one before it. The same in every format.
#[test]
fn perpetual_check_foul_is_the_move_that_completed_it_in_every_format() {
    for path in crate::common::PERPETUAL_CHECK {
        let g = crate::common::game_of(path);
        let f = foul(&g);
        assert_eq!(
            (f.rule, f.ply, f.loser),
            (Rule::PerpetualCheck, 12, Color::Sente),
            "{path}"
        );
        assert!(g.main.foul_played(), "{path}");
        assert_eq!(g.main.plies.len(), 12, "{path}");
        assert_eq!(g.main.plies_before_foul(), 11, "{path}");
        let m = g.main.foul_move().expect("the foul has a move");
        assert_eq!(m.color, Color::Gote, "{path}: the move is gote's");
        assert_eq!(m.mv.to_usi(), "1b1a", "{path}");
        assert_eq!(m.piece, Some(kifu::PieceKind::King), "{path}");
        assert!(!m.same, "{path}: sente's ply 11 went to 5b, not 1a");
        assert!(m.played, "{path}");
        assert!(
            g.main.diagnostics.is_empty(),
            "{path}: {:?}",
            g.main.diagnostics
        );
        assert_eq!(g.main.result.winner, Some(Color::Gote), "{path}");
    }
}

#[test]
fn perpetual_check_completed_by_the_checker_is_the_checkers_move() {
    let g = play(crate::common::PERPETUAL_CHECK_BY_THE_CHECKER);
    let f = foul(&g);
    assert_eq!(
        (f.rule, f.ply, f.loser),
        (Rule::PerpetualCheck, 12, Color::Sente)
    );
    let m = g.main.foul_move().expect("the foul has a move");
    assert_eq!(
        (m.color, m.mv.to_usi(), m.played),
        (Color::Sente, "5b5a".into(), true)
    );
    assert_eq!(g.main.plies_before_foul(), 11);
}

/// A foul move that was never played is not among the plies: the position
/// before it is the one after every ply, and the move is the loser's.
#[test]
fn foul_not_played_is_past_the_plies() {
    // Gote drops a pawn it does not hold.
    let g = play("position startpos moves 7g7f P*5e");
    let f = foul(&g);
    assert_eq!((f.rule, f.ply), (Rule::NotInHand, 2));
    assert!(!g.main.foul_played());
    assert_eq!(g.main.plies_before_foul(), g.main.plies.len());
    let m = g.main.foul_move().expect("the foul has a move");
    assert_eq!((m.color, m.played), (Color::Gote, false));
    // A legal line has no foul move.
    assert_eq!(play("position startpos moves 7g7f").main.foul_move(), None);
}

#[test]
fn a_dropped_king_is_not_in_hand_in_every_format() {
    // Gote drops a king on 4七 at ply 2, written four ways. It was a promotion
    // foul without a move in KIF, KI2 and JKF but not in hand in CSA; so a
    // JKF written from the CSA read back to another rule and another move.
    let texts = [
        (kifu::Format::Csa, "PI\n+\n+7776FU\n-0047OU\n"),
        (
            kifu::Format::Kif,
            "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ４七玉打\n",
        ),
        (kifu::Format::Ki2, "手合割：平手\n\n▲７六歩 △４七玉打\n"),
        (
            kifu::Format::Jkf,
            r#"{"header":{},"moves":[{},{"move":{"color":0,"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"}},{"move":{"color":1,"to":{"x":4,"y":7},"piece":"OU"}}]}"#,
        ),
    ];
    for (format, text) in texts {
        let rec = kifu::parse::parse(text, format).expect("parses").remove(0);
        let g = replay(rec, &ReplayOptions::default()).expect("legal start");
        let f = foul(&g);
        assert_eq!(
            (f.ply, f.rule, f.loser),
            (2, Rule::NotInHand, Color::Gote),
            "{format:?}"
        );
        let drop = kifu::Move::Drop {
            kind: kifu::PieceKind::King,
            to: kifu::Square::new(4, 7).expect("on the board"),
        };
        assert_eq!(f.mv, Some(drop), "{format:?}");
        assert!(
            f.detail.contains("no 玉 in hand"),
            "{format:?}: {}",
            f.detail
        );
    }
}
