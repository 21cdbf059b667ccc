//! Every foul and ending rule of the variants, each from a position where
//! that rule decides (see docs/cli.md, "Variants").

use kifu::parse::usi::parse_variant;
use kifu::variant::{Variant, replay};

/// Replay one USI line as `variant`: the foul code (or `legal`), the
/// loser or winner, and the result reason.
fn judge(variant: Variant, line: &str) -> (String, Option<&'static str>, &'static str) {
    let recs = parse_variant(line, variant).expect("the fixture line parses");
    let g = replay::replay(recs.into_iter().next().expect("one game")).expect("a variant record");
    let verdict = g
        .foul
        .as_ref()
        .map_or("legal".to_string(), |f| f.foul.code().to_string());
    (verdict, g.winner.map(|c| c.name()), g.reason.code())
}

fn foul(variant: Variant, line: &str) -> String {
    judge(variant, line).0
}

#[test]
fn minishogi_nifu_on_five_files() {
    let sfen = "position sfen k4/5/2P2/5/4K b P 1 moves";
    assert_eq!(foul(Variant::Mini, &format!("{sfen} P*3d")), "nifu");
    assert_eq!(foul(Variant::Mini, &format!("{sfen} P*2d")), "legal");
}

#[test]
fn minishogi_pawn_drop_mate_is_uchifuzume() {
    // The bishop on 4c covers 2a; the gold on 2c covers 2b and guards the pawn.
    let sfen = "position sfen 4k/5/1B1G1/5/K4 b P 1 moves";
    assert_eq!(foul(Variant::Mini, &format!("{sfen} P*1b")), "uchifuzume");
    assert_eq!(foul(Variant::Mini, &format!("{sfen} P*2b")), "legal");
}

#[test]
fn minishogi_pawn_on_the_last_rank_must_promote() {
    let sfen = "position sfen k4/2P2/5/5/4K b P 1 moves";
    assert_eq!(foul(Variant::Mini, &format!("{sfen} 3b3a")), "dead-piece");
    assert_eq!(foul(Variant::Mini, &format!("{sfen} 3b3a+")), "legal");
    assert_eq!(foul(Variant::Mini, &format!("{sfen} P*2a")), "dead-piece");
    // The zone is the last rank only.
    assert_eq!(
        foul(Variant::Mini, "position startpos moves 5d5c+"),
        "bad-promotion"
    );
}

#[test]
fn minishogi_fourfold_repetition_loses_for_sente_whoever_repeated() {
    let cycle = " 5e4e 1a2a 4e5e 2a1a".repeat(3);
    let (v, winner, reason) = judge(
        Variant::Mini,
        &format!("position sfen 4k/5/5/5/K4 b - 1 moves{cycle}"),
    );
    assert_eq!(
        (v.as_str(), winner, reason),
        ("legal", Some("gote"), "repetition")
    );
}

#[test]
fn minishogi_perpetual_check_loses_for_the_checker() {
    // Sente's rook checks on every move; gote's king completes the fourth occurrence.
    let cycle = " 5a5b 1b1a 5b5a 1a1b".repeat(3);
    let line = format!("position sfen 4k/5/R4/5/K4 b - 1 moves 5c5a 1a1b{cycle}");
    let (v, winner, _) = judge(Variant::Mini, &line);
    assert_eq!((v.as_str(), winner), ("perpetual-check", Some("gote")));
}

#[test]
fn tori_third_swallow_on_a_file_is_a_foul_but_a_second_is_not() {
    let two = "position sfen 3k3/7/3S3/7/3S3/7/3K3 b S 1 moves S*4d";
    assert_eq!(foul(Variant::Tori, two), "third-swallow");
    let one = "position sfen 3k3/7/3S3/7/7/7/3K3 b S 1 moves S*4d";
    assert_eq!(foul(Variant::Tori, one), "legal");
}

#[test]
fn tori_swallow_drop_that_mates_at_once_is_a_foul() {
    // The crane on 2c guards 1b and 2b; the goose on 4c leaps to 2a.
    let sfen = "position sfen 6k/7/3+S1C1/7/7/7/3K3 b S 1 moves";
    assert_eq!(
        foul(Variant::Tori, &format!("{sfen} S*1b")),
        "swallow-drop-mate"
    );
    // The same mate by a moved piece is legal.
    let (v, winner, reason) = judge(
        Variant::Tori,
        "position sfen 6k/7/3+S1CF/7/7/7/3K3 b - 1 moves 1c1b+",
    );
    assert_eq!(
        (v.as_str(), winner, reason),
        ("legal", Some("sente"), "checkmate")
    );
}

#[test]
fn tori_swallow_and_falcon_must_promote_in_the_zone() {
    let sfen = "position sfen 3k3/7/2FS3/7/7/7/3K3 b - 1 moves";
    assert_eq!(
        foul(Variant::Tori, &format!("{sfen} 4c4b")),
        "compulsory-promotion"
    );
    assert_eq!(foul(Variant::Tori, &format!("{sfen} 4c4b+")), "legal");
    assert_eq!(
        foul(Variant::Tori, &format!("{sfen} 5c5b")),
        "compulsory-promotion"
    );
    assert_eq!(foul(Variant::Tori, &format!("{sfen} 5c5b+")), "legal");
}

#[test]
fn tori_swallow_dropped_on_the_last_rank_is_a_dead_piece() {
    let line = "position sfen 3k3/7/7/7/7/7/3K3 b S 1 moves S*1a";
    assert_eq!(foul(Variant::Tori, line), "dead-piece");
}

#[test]
fn tori_fourfold_repetition_loses_for_the_side_that_completed_it() {
    let cycle = " 4g5g 4a5a 5g4g 5a4a".repeat(3);
    let line = format!("position sfen 3k3/7/7/7/7/7/3K3 b - 1 moves{cycle}");
    let recs = parse_variant(&line, Variant::Tori).unwrap();
    let g = replay::replay(recs.into_iter().next().unwrap()).unwrap();
    let f = g.foul.expect("the repetition is a foul");
    assert_eq!(
        (f.foul.code(), f.loser.name(), f.ply),
        ("repetition-loss", "gote", 12)
    );
}

#[test]
fn sho_has_no_drops() {
    assert_eq!(
        foul(Variant::Sho, "position startpos moves P*5e"),
        "no-drops"
    );
    // Captured pieces leave the game: no hand after a capture.
    let line = "position startpos moves 7g7f 3c3d 8h2b+ 3a2b B*5e";
    assert_eq!(foul(Variant::Sho, line), "no-drops");
}

#[test]
fn sho_king_may_be_left_attacked_while_the_prince_lives() {
    // Gote's rook attacks the king; sente moves the prince away, then loses
    // the king, and plays on with the prince alone.
    let line = "position sfen 4k4/9/9/9/9/9/9/4+E4/r3K4 b - 1 moves 5h4h 9i5i 4h4g";
    assert_eq!(judge(Variant::Sho, line), ("legal".into(), None, "none"));
}

#[test]
fn sho_last_royal_may_not_be_left_in_check() {
    let line = "position sfen 4k4/9/9/9/9/9/9/9/r3K3G b - 1 moves 1i1h";
    assert_eq!(foul(Variant::Sho, line), "self-check");
    // Once the prince is captured the king alone is royal again.
    let sfen = "position sfen 4k4/9/9/9/9/9/9/9/r2+EK3G w - 1 moves 9i6i";
    assert_eq!(foul(Variant::Sho, &format!("{sfen} 1i1h")), "self-check");
    assert_eq!(foul(Variant::Sho, &format!("{sfen} 5i6i")), "legal");
}

#[test]
fn sho_capturing_the_last_royal_piece_wins() {
    let line = "position sfen 4k4/9/9/9/9/9/9/9/r3+E4 w - 1 moves 9i5i";
    assert_eq!(
        judge(Variant::Sho, line),
        ("legal".into(), Some("gote"), "royal-captured")
    );
}

#[test]
fn sho_elephant_promotes_to_a_prince_and_steps_every_way_but_back() {
    let sfen = "position sfen 4k4/9/9/9/4E4/9/9/9/4K4 b - 1 moves";
    assert_eq!(foul(Variant::Sho, &format!("{sfen} 5e5f")), "bad-movement");
    assert_eq!(foul(Variant::Sho, &format!("{sfen} 5e4f")), "legal");
    let line = "position sfen 4k4/9/9/4E4/9/9/9/9/4K4 b - 1 moves 5d5c+ 5a4a 5c5d";
    assert_eq!(foul(Variant::Sho, line), "legal");
}

#[test]
fn each_variant_sfen_reads_and_writes_back_the_same() {
    for (v, sfen) in [
        (Variant::Mini, "rbsgk/4p/5/P4/KGSBR b - 1"),
        (Variant::Mini, "r1s1k/2b1g/5/r1G1B/KPS2 b p 9"),
        (
            Variant::Tori,
            "rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR b - 1",
        ),
        (Variant::Tori, "3k3/7/3+S1+f1/7/7/7/3K3 w F2Ss 30"),
        (
            Variant::Sho,
            "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL b - 1",
        ),
        (Variant::Sho, "4k4/9/9/9/9/9/9/4+E4/r3K4 b - 1"),
    ] {
        let b = kifu::variant::Board::from_sfen(v, sfen).unwrap();
        assert_eq!(b.to_sfen(), sfen, "{v}");
    }
}

#[test]
fn an_sfen_the_variant_cannot_hold_is_refused_with_the_reason() {
    let err = |v, s| {
        kifu::variant::Board::from_sfen(v, s)
            .unwrap_err()
            .to_string()
    };
    assert!(err(Variant::Mini, "rbsgk/4p/5/P4/KGSBL b - 1").contains("minishogi has no piece `L`"));
    assert!(err(Variant::Sho, "4k4/9/9/9/9/9/9/9/4K4 b P 1").contains("no drops"));
    assert!(err(Variant::Tori, "rbsgk/4p/5/P4/KGSBR b - 1").contains("torishogi has 7 ranks"));
    assert!(err(Variant::Mini, "rbsgk/4p/5/P4/KGSBR1 b - 1").contains("more than 5 files"));
    assert!(err(Variant::Mini, "rbsgk/4p/5/P4/KGSBR x - 1").contains("expected the side to move"));
}

#[test]
fn micro_a_capture_turns_the_piece_over_and_nothing_else_does() {
    // The rook on 3d takes the pawn on 3c: it must turn over (`+`).
    let sfen = "position sfen k3/4/1p2/1R2/K3 b - 1 moves";
    assert_eq!(foul(Variant::Micro, &format!("{sfen} 3d3c+")), "legal");
    assert_eq!(
        foul(Variant::Micro, &format!("{sfen} 3d3c")),
        "compulsory-promotion"
    );
    // A quiet move never turns over.
    assert_eq!(
        foul(Variant::Micro, &format!("{sfen} 3d2d+")),
        "bad-promotion"
    );
    // A promoted rook (moving as a gold) turns back with `-`, never `+`.
    let sfen = "position sfen k3/4/1p2/1+R2/K3 b - 1 moves";
    assert_eq!(foul(Variant::Micro, &format!("{sfen} 3d3c-")), "legal");
    assert_eq!(
        foul(Variant::Micro, &format!("{sfen} 3d3c")),
        "compulsory-promotion"
    );
    assert_eq!(
        foul(Variant::Micro, &format!("{sfen} 3d3c+")),
        "bad-promotion"
    );
    // Turned back, it slides as a rook again.
    let line = format!("{sfen} 3d3c- 4a4b 3c3a");
    assert_eq!(foul(Variant::Micro, &line), "legal");
}

#[test]
fn micro_drops_either_side_anywhere_without_nifu_or_drop_mate_rules() {
    // A pawn in hand drops as a pawn or a knight (`+P`), on any empty
    // square, the last rank and a file holding a pawn included.
    let sfen = "position sfen k3/4/4/P3/K3 b P 1 moves";
    for m in ["P*3a", "+P*3b", "P*4c", "+P*1a"] {
        assert_eq!(foul(Variant::Micro, &format!("{sfen} {m}")), "legal", "{m}");
    }
    assert_eq!(foul(Variant::Micro, &format!("{sfen} L*3b")), "not-in-hand");
    // A pawn dropped to mate at once is legal (Fairy-Stockfish's micro).
    let line = "position sfen k2R/4/1+B2/4/3K b P 1 moves P*4b";
    assert_eq!(
        judge(Variant::Micro, line),
        ("legal".into(), Some("sente"), "checkmate")
    );
    // A captured promoted piece goes to hand on its base side.
    let line = "position sfen k3/4/1+l2/1R2/K3 b - 1 moves 3d3c+ 4a3a L*2b";
    assert_eq!(foul(Variant::Micro, line), "legal");
}

#[test]
fn micro_perft_from_the_start_matches_fairy_stockfish() {
    // Fairy-Stockfish 11.1, UCI_Variant micro, go perft 1..4.
    let b = Variant::Micro.start();
    let counts: Vec<u64> = (1..=4).map(|d| b.perft(d)).collect();
    assert_eq!(counts, [9, 80, 767, 7256]);
}

#[test]
fn judkins_perft_from_the_start_matches_fairy_stockfish() {
    // Fairy-Stockfish 11.1, UCI_Variant judkins, go perft 1..3.
    let b = Variant::Judkins.start();
    let counts: Vec<u64> = (1..=3).map(|d| b.perft(d)).collect();
    assert_eq!(counts, [20, 336, 6183]);
}

#[test]
fn judkins_zone_is_two_ranks_and_knights_must_promote_on_them() {
    let sfen = "position sfen 5k/6/2N3/6/6/K5 b - 1 moves";
    // 4c is in the zone: the knight may promote, and must, on its last two ranks.
    assert_eq!(foul(Variant::Judkins, &format!("{sfen} 4c5a+")), "legal");
    assert_eq!(
        foul(Variant::Judkins, &format!("{sfen} 4c5a")),
        "dead-piece"
    );
    // The third rank is outside the zone.
    let sfen = "position sfen 5k/6/6/6/2N3/K5 b - 1 moves";
    assert_eq!(
        foul(Variant::Judkins, &format!("{sfen} 4e5c+")),
        "bad-promotion"
    );
    assert_eq!(foul(Variant::Judkins, &format!("{sfen} 4e5c")), "legal");
}

#[test]
fn judkins_has_nifu_and_pawn_drop_mate_as_in_shogi() {
    let sfen = "position sfen 5k/6/6/P5/6/K5 b P 1 moves";
    assert_eq!(foul(Variant::Judkins, &format!("{sfen} P*6b")), "nifu");
    assert_eq!(foul(Variant::Judkins, &format!("{sfen} P*5b")), "legal");
    // The gold on 2c guards 1b and covers 2b; the bishop on 4c covers 2a.
    // (Fairy-Stockfish 11.1 lists this drop; kifu follows the rule as the
    // variant's rules state it, as for minishogi.)
    let sfen = "position sfen 5k/6/2B1G1/6/6/K5 b P 1 moves";
    assert_eq!(
        foul(Variant::Judkins, &format!("{sfen} P*1b")),
        "uchifuzume"
    );
    assert_eq!(foul(Variant::Judkins, &format!("{sfen} P*2b")), "legal");
}
