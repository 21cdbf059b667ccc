//! How a game ends: entering-king declarations under both rules, a side
//! with no legal move, and the `まで…` line of a KIF or KI2 without a
//! terminal move.

use kifu::parse::{ki2, kif, usi};
use kifu::replay::{BoardEnd, Game, Verdict, replay};
use kifu::{Color, DeclarationRule, ReplayOptions, Rule};

fn declare(sfen: &str, rule: DeclarationRule) -> Game {
    let rec = usi::parse(&format!("position sfen {sfen} moves win"))
        .expect("parses")
        .remove(0);
    replay(rec, &ReplayOptions::default().declaration(rule)).expect("legal start")
}

fn false_declaration(g: &Game) -> String {
    match &g.main.verdict {
        Verdict::Foul(f) => {
            assert_eq!(f.rule, Rule::FalseDeclaration);
            assert_eq!(g.main.result.winner, Some(f.loser.flip()));
            assert_eq!(g.main.result.reason, "foul");
            f.detail.clone()
        }
        Verdict::Legal => panic!("expected a false declaration: {:?}", g.main.result),
    }
}

/// Sente's king on 5b with 8 minor pieces on rank 1 and rook and bishop on
/// rank 2 (18 points, 10 pieces); `PAWNS` on rank 3 and the hand add the rest.
fn sente_declares(rank3: &str, hand: &str) -> String {
    format!("+L+NSG1GS+N+L/1R2K2B1/{rank3}/9/9/9/9/9/8k b {hand} 1")
}

#[test]
fn declaration_24_rule_31_points_win() {
    let g = declare(
        &sente_declares("PPPPPPPPP", "4P"),
        DeclarationRule::Points24,
    );
    assert!(g.main.verdict.is_legal(), "{:?}", g.main.verdict);
    assert_eq!(g.main.result.winner, Some(Color::Sente));
    assert_eq!(g.main.result.reason, "declaration");
}

#[test]
fn declaration_24_rule_30_and_24_points_draw() {
    for (rank3, hand) in [("PPPPPPPPP", "3P"), ("PPPPPP3", "-")] {
        let g = declare(&sente_declares(rank3, hand), DeclarationRule::Points24);
        assert!(g.main.verdict.is_legal(), "{hand}: {:?}", g.main.verdict);
        assert_eq!(g.main.result.winner, None, "{rank3} {hand}");
        assert_eq!(g.main.result.reason, "jishogi", "{rank3} {hand}");
    }
}

#[test]
fn declaration_24_rule_23_points_lose() {
    let g = declare(&sente_declares("PPPPP4", "-"), DeclarationRule::Points24);
    let why = false_declaration(&g);
    assert_eq!(why, "23 points, 24 needed for a draw and 31 to win");
}

#[test]
fn declaration_24_rule_still_needs_every_condition() {
    // 31 points, but the king stands outside the zone.
    let outside = "+L+NSG1GS+N+L/1R5B1/PPPPPPPPP/4K4/9/9/9/9/8k b 4P 1";
    let why = false_declaration(&declare(outside, DeclarationRule::Points24));
    assert!(why.contains("not in the enemy zone"), "{why}");
}

#[test]
fn declaration_27_rule_sente_needs_28_points() {
    let g = declare(&sente_declares("PPPPPPPPP", "P"), DeclarationRule::Points27);
    assert_eq!(g.main.result.winner, Some(Color::Sente));
    assert_eq!(g.main.result.reason, "declaration");
    let g = declare(&sente_declares("PPPPPPPPP", "-"), DeclarationRule::Points27);
    assert_eq!(false_declaration(&g), "27 points, 28 needed");
}

#[test]
fn declaration_27_rule_gote_needs_27_points() {
    let gote = |rank7: &str| format!("K8/9/9/9/9/9/{rank7}/1b2k2r1/+l+nsg1gs+n+l w - 1");
    let g = declare(&gote("ppppppppp"), DeclarationRule::Points27);
    assert_eq!(g.main.result.winner, Some(Color::Gote));
    assert_eq!(g.main.result.reason, "declaration");
    let g = declare(&gote("pppppppp1"), DeclarationRule::Points27);
    assert_eq!(false_declaration(&g), "26 points, 27 needed");
}

#[test]
fn declaration_27_rule_needs_ten_pieces_in_the_zone() {
    // 9 pieces in the zone; the hand brings the points far past 28.
    let sfen = "+L+NSG1GS+N1/1R2K2B1/9/9/9/9/9/9/8k b RB9P 1";
    let why = false_declaration(&declare(sfen, DeclarationRule::Points27));
    assert_eq!(
        why,
        "only 9 pieces besides the king in the enemy zone (10 needed)"
    );
}

#[test]
fn declaration_27_rule_needs_the_king_in_the_zone_and_out_of_check() {
    let outside = "+L+NSG1GS+N+L/1R5B1/PPPPPPPPP/4K4/9/9/9/9/8k b P 1";
    let why = false_declaration(&declare(outside, DeclarationRule::Points27));
    assert_eq!(why, "the king on 5d is not in the enemy zone");
    // A gote gold on 5c checks the king on 5b.
    let checked = sente_declares("PPPPgPPPP", "3P");
    let why = false_declaration(&declare(&checked, DeclarationRule::Points27));
    assert_eq!(why, "the king is in check");
}

/// Gote plays 7g7h: sente's king on 9i is not in check but every square
/// it could go to is covered, and sente has nothing else to move.
const NO_LEGAL_MOVE: &str = "position sfen 1r6k/9/9/9/9/9/2r6/9/K8 w - 1 moves 7g7h";

#[test]
fn no_legal_move_without_check_loses_but_is_not_checkmate() {
    let rec = usi::parse(NO_LEGAL_MOVE).unwrap().remove(0);
    let g = replay(rec, &ReplayOptions::default()).unwrap();
    assert!(g.main.verdict.is_legal(), "{:?}", g.main.verdict);
    assert_eq!(g.main.board_end, BoardEnd::NoLegalMove);
    assert_eq!(g.main.result.winner, Some(Color::Gote));
    assert_eq!(g.main.result.reason, "no-legal-move");
}

#[test]
fn no_legal_move_names_the_reason_whatever_the_record_ends_with() {
    let head = "手合割：平手\n後手番\n";
    let board = "\
後手の持駒：なし
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
| ・v飛 ・ ・ ・ ・ ・ ・v玉|一
| ・ ・ ・ ・ ・ ・ ・ ・ ・|二
| ・ ・ ・ ・ ・ ・ ・ ・ ・|三
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六
| ・ ・v飛 ・ ・ ・ ・ ・ ・|七
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八
| 玉 ・ ・ ・ ・ ・ ・ ・ ・|九
+---------------------------+
先手の持駒：なし
";
    for ending in ["投了", "詰み", "中断"] {
        let text = format!(
            "{head}{board}手数----指手---------消費時間--\n   1 ７八飛(77)\n   2 {ending}\n"
        );
        let rec = kif::parse(&text).expect("parses").remove(0);
        let g = replay(rec, &ReplayOptions::default()).unwrap();
        assert_eq!(g.main.board_end, BoardEnd::NoLegalMove, "{ending}");
        assert_eq!(g.main.result.winner, Some(Color::Gote), "{ending}");
        assert_eq!(g.main.result.reason, "no-legal-move", "{ending}");
    }
}

/// The first `n` (at most 8) moves of a real opening, as KIF move lines.
fn kif_moves(n: usize) -> String {
    const MOVES: [&str; 8] = [
        "７六歩(77)",
        "３四歩(33)",
        "２六歩(27)",
        "４四歩(43)",
        "２五歩(26)",
        "３三角(22)",
        "４八銀(39)",
        "３二銀(31)",
    ];
    MOVES
        .iter()
        .take(n)
        .enumerate()
        .map(|(i, m)| format!("{:>4} {m}\n", i + 1))
        .collect()
}

#[test]
fn kif_closing_line_without_a_terminal_move_gives_the_result() {
    let text = format!(
        "手合割：平手\n手数----指手---------消費時間--\n{}まで8手で後手の勝ち\n",
        kif_moves(8)
    );
    let rec = kif::parse(&text).unwrap().remove(0);
    // The record stays as written: the まで line is its summary, not a move.
    assert!(rec.main.ending.is_none());
    assert_eq!(rec.summary, ["まで8手で後手の勝ち"]);
    let g = replay(rec, &ReplayOptions::default()).unwrap();
    assert_eq!(g.main.result.winner, Some(Color::Gote));
    assert_eq!(g.main.result.reason, "resign");
    assert!(g.main.diagnostics.is_empty(), "{:?}", g.main.diagnostics);
}

#[test]
fn kif_closing_line_of_a_record_cut_short_gives_no_result() {
    // まで counts 64 moves but 8 are written: its result is not about this position.
    let text = format!(
        "手合割：平手\n手数----指手---------消費時間--\n{}まで64手で後手の勝ち\n",
        kif_moves(8)
    );
    let g = replay(
        kif::parse(&text).unwrap().remove(0),
        &ReplayOptions::default(),
    )
    .unwrap();
    assert_eq!(g.main.result.winner, None);
    assert_eq!(g.main.result.reason, "none");
    let codes: Vec<&str> = g.main.diagnostics.iter().map(|d| d.code.code()).collect();
    assert_eq!(codes, ["closing-count-disagrees"]);
}

#[test]
fn kif_terminal_move_wins_over_the_closing_line() {
    // cshogi names the other side in its まで line; the terminal move decides.
    let text = format!(
        "手合割：平手\n手数----指手---------消費時間--\n{}   9 中断\nまで8手で後手の勝ち\n",
        kif_moves(8)
    );
    let g = replay(
        kif::parse(&text).unwrap().remove(0),
        &ReplayOptions::default(),
    )
    .unwrap();
    assert_eq!(g.main.result.winner, None);
    assert_eq!(g.main.result.reason, "interrupted");
}

#[test]
fn kif_closing_line_claim_is_checked_against_the_board() {
    // まで…詰み after a position that is not mate: claimed, and flagged.
    let text = format!(
        "手合割：平手\n手数----指手---------消費時間--\n{}まで7手で詰み\n",
        kif_moves(7)
    );
    let g = replay(
        kif::parse(&text).unwrap().remove(0),
        &ReplayOptions::default(),
    )
    .unwrap();
    let codes: Vec<&str> = g.main.diagnostics.iter().map(|d| d.code.code()).collect();
    assert_eq!(codes, ["false-mate-claim"]);
}

#[test]
fn ki2_closing_line_gives_the_result() {
    let text = "手合割：平手\n▲７六歩 △３四歩 ▲２六歩 △４四歩\nまで4手で後手の勝ち\n";
    let rec = ki2::parse(text).unwrap().remove(0);
    let g = replay(rec, &ReplayOptions::default()).unwrap();
    assert_eq!(g.main.result.winner, Some(Color::Gote));
    assert_eq!(g.main.result.reason, "resign");
    let text = "手合割：平手\n▲７六歩 △３四歩 ▲２六歩 △４四歩\nまで4手で千日手\n";
    let g = replay(
        ki2::parse(text).unwrap().remove(0),
        &ReplayOptions::default(),
    )
    .unwrap();
    assert_eq!(g.main.result.reason, "sennichite");
    let codes: Vec<&str> = g.main.diagnostics.iter().map(|d| d.code.code()).collect();
    assert_eq!(codes, ["false-sennichite-claim"]);
}

/// After a perpetual check the move is on the board, so 反則負け (the side
/// to move loses) and 反則勝ち (it wins) name sides: a word that gives the
/// game to the checker disagrees with the board.
#[test]
fn perpetual_check_ending_word_is_judged_for_the_side_to_move() {
    let fixture = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/kif/perpetual-check.kifu"),
    )
    .unwrap();
    let codes = |text: &str| -> Vec<&'static str> {
        let g = crate::common::game_of_text(text, kifu::Format::Kif);
        assert!(matches!(&g.main.verdict, Verdict::Foul(f) if f.rule == Rule::PerpetualCheck));
        assert_eq!(g.main.result.winner, Some(Color::Gote));
        g.main.diagnostics.iter().map(|d| d.code.code()).collect()
    };
    // Sente, the checker, is to move after gote's 12th move: 反則負け.
    assert_eq!(codes(&fixture), Vec::<&str>::new());
    let wrong = fixture.replace("13 反則負け", "13 反則勝ち");
    assert_ne!(wrong, fixture);
    assert_eq!(codes(&wrong), ["ending-disagrees"]);
    // Completed by the checker's own move, gote is to move and wins: 反則勝ち.
    let g = crate::common::game_of_text(
        crate::common::PERPETUAL_CHECK_BY_THE_CHECKER,
        kifu::Format::Usi,
    );
    let (kif, _) = kifu::emit::kif::write(&g);
    assert!(kif.contains("  13 反則勝ち\n"), "{kif}");
    assert_eq!(codes(&kif), Vec::<&str>::new());
    assert_eq!(
        codes(&kif.replace("13 反則勝ち", "13 反則負け")),
        ["ending-disagrees"]
    );
}
