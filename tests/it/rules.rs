//! The rules engine: perft counts, one test per rule code, setup checks,
//! agreement between move generation and move checking, declarations.

use crate::common::corpus_dir;
use kifu::{Color, DeclarationRule, Move, PieceKind, Position, Rule, SetupIssue, Square};
use std::collections::HashSet;

fn pos(sfen: &str) -> Position {
    Position::from_sfen(sfen).unwrap_or_else(|e| panic!("{sfen}: {e}"))
}

fn mv(usi: &str) -> Move {
    Move::from_usi(usi).unwrap_or_else(|| panic!("bad USI move {usi}"))
}

fn check(sfen: &str, usi: &str) -> Result<(), Rule> {
    pos(sfen).check_move(mv(usi))
}

const START: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

// ---- perft -----------------------------------------------------------------

#[test]
fn perft_startpos_depths_1_to_4() {
    let p = Position::startpos();
    let counts: Vec<u64> = (1..=4).map(|d| p.perft(d)).collect();
    assert_eq!(counts, [30, 900, 25470, 719731]);
}

#[test]
fn perft_startpos_from_sfen_depth_3() {
    assert_eq!(pos(START).perft(3), 25470);
}

#[test]
#[ignore = "slow in debug; run with cargo test --release -- --ignored"]
fn perft5_startpos() {
    let start = std::time::Instant::now();
    assert_eq!(Position::startpos().perft(5), 19861490);
    let secs = start.elapsed().as_secs_f64();
    eprintln!(
        "perft(5) = 19861490 in {secs:.3} s: {:.1} M nodes/s",
        19861490.0 / secs / 1e6
    );
}

#[test]
fn perft_divide_sums_to_perft() {
    let p = Position::startpos();
    let divide = p.perft_divide(3);
    assert_eq!(divide.len(), 30);
    assert_eq!(divide.iter().map(|(_, n)| n).sum::<u64>(), 25470);
}

/// The limit between the default run and the ignored release run.
const DEFAULT_RUN_MAX: u64 = 2_100_000;

fn perft_expectations(small: bool) {
    let dir = corpus_dir("perft_expectations");
    let path = dir.join("usi/rsshogi/perft_expectations.json");
    let text = std::fs::read_to_string(&path).expect("perft_expectations.json");
    let json: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    let mut checked = 0;
    // The largest (start position, depth 6: 547 M nodes) takes about 6 s in release.
    for (name, entry) in json.as_object().expect("an object of positions") {
        let sfen = entry["sfen"].as_str().expect("sfen");
        let p = pos(sfen);
        for (depth, count) in entry["depths"].as_object().expect("depths") {
            let depth: u32 = depth.parse().expect("numeric depth");
            let count = count.as_u64().expect("numeric count");
            if (count <= DEFAULT_RUN_MAX) != small {
                continue;
            }
            assert_eq!(p.perft(depth), count, "{name} depth {depth}");
            checked += 1;
        }
    }
    assert!(checked > 0);
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn perft_expectations_small() {
    perft_expectations(true);
}

#[test]
#[ignore = "slow in debug; run with cargo test --release -- --ignored"]
fn perft_expectations_large() {
    perft_expectations(false);
}

// ---- one test per rule code --------------------------------------------------

#[test]
fn rule_no_piece() {
    assert_eq!(check(START, "5e5d"), Err(Rule::NoPiece));
    // Sente moving gote's pawn.
    assert_eq!(check(START, "3c3d"), Err(Rule::NoPiece));
}

#[test]
fn rule_bad_movement() {
    assert_eq!(check(START, "7g7e"), Err(Rule::BadMovement));
    // Bishop blocked by its own pawn.
    assert_eq!(check(START, "8h2b+"), Err(Rule::BadMovement));
    // Capturing its own piece.
    assert_eq!(check(START, "5i4i"), Err(Rule::BadMovement));
    // Knight is not a slider, king moves one step.
    assert_eq!(check(START, "8i8g"), Err(Rule::BadMovement));
    assert_eq!(check(START, "5i5g"), Err(Rule::BadMovement));
    assert_eq!(check(START, "7g7g"), Err(Rule::BadMovement));
}

#[test]
fn rule_not_in_hand() {
    assert_eq!(check(START, "P*5e"), Err(Rule::NotInHand));
    let p = pos("4k4/9/9/9/9/9/9/9/4K4 b G 1");
    assert_eq!(p.check_move(mv("S*5e")), Err(Rule::NotInHand));
    assert_eq!(
        p.check_move(Move::Drop {
            kind: PieceKind::King,
            to: Square::new(5, 5).unwrap()
        }),
        Err(Rule::NotInHand)
    );
    assert_eq!(p.check_move(mv("G*5e")), Ok(()));
}

#[test]
fn rule_occupied_drop() {
    let sfen = "4k4/9/9/9/4p4/9/9/9/4K4 b G 1";
    assert_eq!(check(sfen, "G*5e"), Err(Rule::OccupiedDrop));
    assert_eq!(check(sfen, "G*5i"), Err(Rule::OccupiedDrop));
}

#[test]
fn rule_bad_promotion() {
    // Outside the zone.
    assert_eq!(check(START, "7g7f+"), Err(Rule::BadPromotion));
    // Gold and king never promote.
    assert_eq!(
        check("4k4/9/9/4G4/9/9/9/9/4K4 b - 1", "5d5c+"),
        Err(Rule::BadPromotion)
    );
    assert_eq!(
        check("4k4/9/9/9/9/9/9/9/4K4 b - 1", "5i5h+"),
        Err(Rule::BadPromotion)
    );
    // A promoted piece cannot promote again.
    assert_eq!(
        check("4k4/9/4+P4/9/9/9/9/9/4K4 b - 1", "5c5b+"),
        Err(Rule::BadPromotion)
    );
    // Dropping a promoted piece.
    let drop = Move::Drop {
        kind: PieceKind::ProPawn,
        to: Square::new(5, 5).unwrap(),
    };
    assert_eq!(
        pos("4k4/9/9/9/9/9/9/9/4K4 b P 1").check_move(drop),
        Err(Rule::BadPromotion)
    );
    // Leaving the zone may promote; entering it too.
    assert_eq!(check("4k4/9/4S4/9/9/9/9/9/4K4 b - 1", "5c4d+"), Ok(()));
    assert_eq!(check("4k4/9/9/4S4/9/9/9/9/4K4 b - 1", "5d5c+"), Ok(()));
}

#[test]
fn rule_dead_piece() {
    let sfen = "k8/4P4/6N2/9/9/9/9/9/4K4 b PLN 1";
    assert_eq!(check(sfen, "5b5a"), Err(Rule::DeadPiece));
    assert_eq!(check(sfen, "5b5a+"), Ok(()));
    assert_eq!(check(sfen, "3c2a"), Err(Rule::DeadPiece));
    assert_eq!(check(sfen, "3c2a+"), Ok(()));
    assert_eq!(check(sfen, "P*4a"), Err(Rule::DeadPiece));
    assert_eq!(check(sfen, "L*4a"), Err(Rule::DeadPiece));
    assert_eq!(check(sfen, "N*4b"), Err(Rule::DeadPiece));
    assert_eq!(check(sfen, "N*4c"), Ok(()));
    // Gote's dead ranks are 9 and 8-9.
    let sfen = "4k4/9/9/9/9/9/9/9/K8 w pn 1";
    assert_eq!(check(sfen, "P*5i"), Err(Rule::DeadPiece));
    assert_eq!(check(sfen, "N*5h"), Err(Rule::DeadPiece));
    assert_eq!(check(sfen, "N*5g"), Ok(()));
}

#[test]
fn rule_nifu() {
    assert_eq!(
        check("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "P*5e"),
        Err(Rule::Nifu)
    );
    assert_eq!(check("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "P*4e"), Ok(()));
    // A promoted pawn and an enemy pawn do not count.
    assert_eq!(check("4k4/9/9/9/4p4/9/4+P4/9/4K4 b P 1", "P*5f"), Ok(()));
}

#[test]
fn rule_self_check() {
    // The gold on 5h is pinned by the rook on 5b.
    let pinned = "4k4/4r4/9/9/9/9/9/4G4/4K4 b - 1";
    assert_eq!(check(pinned, "5h4h"), Err(Rule::SelfCheck));
    assert_eq!(check(pinned, "5h5g"), Ok(()));
    // Walking into an attack, and ignoring a check.
    assert_eq!(
        check("4k4/9/9/9/9/9/9/3r5/4K4 b - 1", "5i5h"),
        Err(Rule::SelfCheck)
    );
    assert_eq!(check("4k4/9/9/9/9/9/9/3r5/4K4 b - 1", "5i4i"), Ok(()));
    assert_eq!(
        check("4k4/4r4/9/9/9/9/9/9/4K4 b P 1", "P*1e"),
        Err(Rule::SelfCheck)
    );
    assert_eq!(check("4k4/4r4/9/9/9/9/9/9/4K4 b P 1", "P*5e"), Ok(()));
}

#[test]
fn rule_wrong_turn() {
    let p = Position::startpos();
    assert_eq!(
        p.check_move_by(Color::Gote, mv("3c3d")),
        Err(Rule::WrongTurn)
    );
    // Wrong turn comes before everything else.
    assert_eq!(
        p.check_move_by(Color::Gote, mv("5e5d")),
        Err(Rule::WrongTurn)
    );
    assert_eq!(p.check_move_by(Color::Sente, mv("7g7f")), Ok(()));
}

#[test]
fn rule_uchifuzume_rules_md_example() {
    assert_eq!(
        check("8k/6G2/9/7N1/9/9/9/9/4K4 b P 1", "P*1b"),
        Err(Rule::Uchifuzume)
    );
    // Pushing a pawn to mate is legal.
    let p = pos("8k/6G2/8P/7N1/9/9/9/9/4K4 b - 1");
    assert_eq!(p.check_move(mv("1c1b")), Ok(()));
    assert!(p.gives_check(mv("1c1b")));
}

#[test]
fn rule_uchifuzume_with_pinned_capturer() {
    // Gote's gold on 2b could take the pawn but the bishop on 4d pins it.
    let sfen = "6G1k/7g1/9/5B1N1/9/9/9/9/4K4 b P 1";
    assert_eq!(check(sfen, "P*1b"), Err(Rule::Uchifuzume));
    assert!(!pos(sfen).legal_moves().contains(&mv("P*1b")));
    // Without the pin the gold takes, so the drop is legal.
    let free = "6G1k/7g1/9/7N1/9/9/9/9/4K4 b P 1";
    assert_eq!(check(free, "P*1b"), Ok(()));
    assert!(pos(free).legal_moves().contains(&mv("P*1b")));
}

#[test]
fn pawn_drop_check_the_king_can_take_is_legal() {
    let p = pos("8k/9/9/9/9/9/9/9/4K4 b P 1");
    assert_eq!(p.check_move(mv("P*1b")), Ok(()));
    let mut after = p.clone();
    after.play_unchecked(mv("P*1b"));
    assert!(after.in_check());
    assert!(after.legal_moves().contains(&mv("1a1b")));
}

#[test]
fn pawn_drop_mate_a_piece_can_capture_is_legal() {
    // Like the rules.md example, but gote's silver on 2c can take the pawn.
    let p = pos("8k/6G2/7s1/7N1/9/9/9/9/4K4 b P 1");
    assert_eq!(p.check_move(mv("P*1b")), Ok(()));
    let mut after = p.clone();
    after.play_unchecked(mv("P*1b"));
    assert_eq!(after.legal_moves(), vec![mv("2c1b")]);
}

#[test]
fn mating_drops_of_other_pieces_are_legal() {
    let p = pos("8k/6G2/9/7N1/9/9/9/9/4K4 b L 1");
    let mut after = p.clone();
    assert_eq!(p.check_move(mv("L*1b")), Ok(()));
    after.play_unchecked(mv("L*1b"));
    assert!(after.is_checkmate());
}

#[test]
fn rule_order_is_stable() {
    // Empty origin beats everything else.
    assert_eq!(check(START, "5e5a+"), Err(Rule::NoPiece));
    // Bad movement before bad promotion.
    assert_eq!(check(START, "7g7e+"), Err(Rule::BadMovement));
    // Occupied drop before dead piece.
    assert_eq!(
        check("4k4/9/9/9/9/9/9/9/4K4 b P 1", "P*5a"),
        Err(Rule::OccupiedDrop)
    );
    // Dead piece before nifu.
    assert_eq!(
        check("4k4/9/9/9/9/9/4P4/9/4K4 b P 1", "P*5a"),
        Err(Rule::OccupiedDrop)
    );
    assert_eq!(
        check("3k5/9/9/9/9/9/4P4/9/4K4 b P 1", "P*5a"),
        Err(Rule::DeadPiece)
    );
    // Capturing the enemy king (only possible in an invalid position) is bad movement.
    let mut p = pos("4k4/9/9/9/9/9/9/9/4K3R b - 1");
    p.play_unchecked(mv("1i1a"));
    p.play_unchecked(mv("9i9h")); // not checked: sente has no piece there; it only flips the side
    assert_eq!(p.check_move(mv("1a5a")), Err(Rule::BadMovement));
}

// ---- queries used by the replayer --------------------------------------------

fn sq(usi: &str) -> Square {
    Square::from_usi(usi.as_bytes()).expect("a USI square")
}

#[test]
fn attackers_and_can_reach() {
    let p = Position::startpos();
    assert_eq!(p.attackers(sq("7f"), Color::Sente), [sq("7g")]);
    assert_eq!(
        p.attackers(sq("5h"), Color::Sente),
        [sq("2h"), sq("4i"), sq("5i"), sq("6i")]
    );
    assert!(p.attackers(sq("5e"), Color::Gote).is_empty());
    assert!(p.can_reach(sq("2h"), sq("5h")));
    assert!(!p.can_reach(sq("8h"), sq("7g"))); // own piece
    assert!(!p.can_reach(sq("8h"), sq("6f"))); // blocked
    assert!(!p.can_reach(sq("5e"), sq("5d"))); // empty origin
    assert!(p.can_reach(sq("3c"), sq("3d"))); // either colour's piece
}

#[test]
fn play_reports_the_captured_kind_and_fills_the_hand() {
    let mut p = pos("4k4/9/9/9/4+r4/9/9/4G4/4K4 b - 1");
    assert_eq!(p.play_unchecked(mv("5h5g")), None);
    assert_eq!(p.play_unchecked(mv("5e5g")), Some(PieceKind::Gold));
    assert_eq!(p.hand(Color::Gote).count(PieceKind::Gold), 1);
    assert!(p.in_check());
    assert_eq!(p.play_unchecked(mv("5i5h")), None);
    let mut q = pos("4k4/9/9/9/9/9/4+r4/4K4/9 b - 1");
    assert_eq!(q.play_unchecked(mv("5h5g")), Some(PieceKind::Dragon));
    assert_eq!(q.hand(Color::Sente).count(PieceKind::Rook), 1);
    assert_eq!(q.side_to_move(), Color::Gote);
    assert_eq!(q.move_number(), 2);
    assert_eq!(q.to_sfen(), "4k4/9/9/9/9/9/4K4/9/9 w R 2");
}

#[test]
fn every_preset_is_a_legal_start() {
    for h in kifu::Handicap::ALL {
        let p = Position::from_setup(&h.setup()).unwrap_or_else(|e| panic!("{h:?}: {e}"));
        assert!(p.has_legal_move());
        assert!(!p.in_check());
    }
}

// ---- setup checks ------------------------------------------------------------

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn haitaka_valid_sfens_are_accepted() {
    let dir = corpus_dir("haitaka_valid");
    let text = std::fs::read_to_string(dir.join("usi/haitaka/valid.sfens")).expect("valid.sfens");
    let mut n = 0;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let p = pos(line);
        assert!(p.legal_moves().iter().all(|&m| p.check_move(m).is_ok()));
        n += 1;
    }
    assert!(n > 0);
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn haitaka_invalid_sfens_are_rejected_with_a_reason() {
    let dir = corpus_dir("haitaka_invalid");
    let text =
        std::fs::read_to_string(dir.join("usi/haitaka/invalid.sfens")).expect("invalid.sfens");
    let mut n = 0;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let err = Position::from_sfen(line).expect_err(line);
        let msg = err.to_string();
        eprintln!("{line}: {msg}");
        assert!(msg.len() > 12, "{msg}");
        n += 1;
    }
    assert!(n > 0);
}

fn setup_issues(sfen: &str) -> (Vec<SetupIssue>, String) {
    match Position::from_sfen(sfen) {
        Err(kifu::PositionError::Setup(e)) => (e.0.clone(), e.to_string()),
        other => panic!("{sfen}: expected setup errors, got {other:?}"),
    }
}

#[test]
fn setup_rejects_two_kings_of_one_colour() {
    let (issues, msg) = setup_issues("4k4/9/9/9/9/9/9/9/3KK4 b - 1");
    assert_eq!(
        issues,
        [SetupIssue::TooManyKings {
            color: Color::Sente,
            count: 2
        }]
    );
    assert!(msg.contains("sente has 2 kings"), "{msg}");
}

#[test]
fn setup_rejects_pawn_on_last_rank() {
    let (issues, msg) = setup_issues("P3k4/9/9/9/9/9/9/9/4K4 b - 1");
    assert!(matches!(issues[..], [SetupIssue::DeadPiece { .. }]));
    assert!(msg.contains("9a"), "{msg}");
    // Gote's knight on rank 8.
    let (issues, _) = setup_issues("4k4/9/9/9/9/9/9/n8/4K4 b - 1");
    assert!(matches!(issues[..], [SetupIssue::DeadPiece { .. }]));
}

#[test]
fn setup_rejects_nifu_on_board() {
    let (issues, msg) = setup_issues("4k4/9/9/9/9/9/4P4/4P4/3K5 b - 1");
    assert_eq!(
        issues,
        [SetupIssue::Nifu {
            color: Color::Sente,
            file: 5
        }]
    );
    assert!(msg.contains("file 5"), "{msg}");
    // A promoted pawn beside a pawn is fine.
    pos("4k4/9/9/9/9/9/4+P4/4P4/3K5 b - 1");
}

#[test]
fn setup_rejects_side_not_to_move_in_check() {
    let (issues, _) = setup_issues("4k4/9/9/9/4R4/9/9/9/3K5 b - 1");
    assert_eq!(issues, [SetupIssue::OpponentInCheck { color: Color::Gote }]);
    // The side to move may be in check.
    assert!(pos("4k4/9/9/9/4R4/9/9/9/3K5 w - 1").in_check());
}

#[test]
fn setup_errors_list_every_reason() {
    let (issues, msg) = setup_issues("P3k4/9/9/9/4R4/9/8P/8P/3KK4 b 18p 1");
    assert_eq!(issues.len(), 5, "{msg}");
    for needle in ["9a", "2 kings", "file 1", "in check", "21 pieces"] {
        assert!(msg.contains(needle), "{needle:?} missing from {msg}");
    }
    assert_eq!(msg.matches("; ").count(), 4);
}

#[test]
fn missing_kings_are_accepted() {
    // Tsume convention: no attacking king.
    let p = pos("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
    assert_eq!(p.king_square(Color::Sente), None);
    assert!(!p.in_check());
    assert!(p.check_move(mv("G*5b")).is_ok());
    let mut after = p.clone();
    after.play_unchecked(mv("G*5b"));
    assert!(after.is_checkmate());
    // No king at all for the side to move.
    let p = pos("4k4/9/9/9/9/9/9/9/9 w - 1");
    assert!(!p.in_check());
    assert!(!p.is_checkmate());
    assert!(p.check_declaration(DeclarationRule::Points27).is_err());
    let p = pos("9/9/9/9/9/9/9/9/4R4 b P 1");
    assert!(!p.in_check());
    // 16 rook moves, 3 of them also promoting, and 71 pawn drops.
    assert_eq!(p.perft(1), 16 + 3 + 71);
    let mut after = p.clone();
    after.play_unchecked(mv("5i5a"));
    assert!(!after.has_legal_move());
    assert!(!after.is_checkmate());
}

#[test]
fn sfen_round_trips_and_keys_match() {
    for sfen in [
        START,
        "l4S2l/4g1gs1/5p1p1/pr2N1pkp/4Gn3/PP3PPPP/2GPP4/1K7/L3r+s2L w BS2N5Pb 1",
        "ln1g5/1r2S1k2/p2pppn2/2ps2p2/1p7/2P6/PPSPPPPLP/2G2K1pr/LN4G1b w BGSLPnp 62",
    ] {
        let p = pos(sfen);
        assert_eq!(p.to_sfen(), sfen);
        assert_eq!(Position::from_setup(&p.to_setup()).unwrap(), p);
    }
}

// ---- generation vs. checking -------------------------------------------------

/// Every conceivable move: check_move accepts exactly the generated ones.
fn assert_generation_matches_checking(p: &Position) {
    let legal = p.legal_moves();
    let set: HashSet<Move> = legal.iter().copied().collect();
    assert_eq!(set.len(), legal.len(), "duplicates in {p:?}");
    let mut accepted = 0;
    for from in Square::all() {
        for to in Square::all() {
            for promote in [false, true] {
                let m = Move::Normal { from, to, promote };
                let ok = p.check_move(m).is_ok();
                assert_eq!(ok, set.contains(&m), "{m} in {p:?}: {:?}", p.check_move(m));
                accepted += ok as usize;
            }
        }
    }
    for kind in PieceKind::ALL {
        for to in Square::all() {
            let m = Move::Drop { kind, to };
            let ok = p.check_move(m).is_ok();
            assert_eq!(ok, set.contains(&m), "{m} in {p:?}: {:?}", p.check_move(m));
            accepted += ok as usize;
        }
    }
    assert_eq!(accepted, legal.len());
}

const CONSISTENCY_POSITIONS: [&str; 10] = [
    START,
    "l4S2l/4g1gs1/5p1p1/pr2N1pkp/4Gn3/PP3PPPP/2GPP4/1K7/L3r+s2L w BS2N5Pb 1",
    "6n1l/2+S1k4/2lp4p/1np1B2b1/3PP4/1N1S3rP/1P2+pPP+p1/1p1G5/3KG2r1 b GSN2L4Pgs2p 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "ln3gsn1/7kl/3+B1p1p1/p4s2p/2P6/P2B3PP/1PNP+rPP2/2G3SK1/L4G1NL b G3Prs3p 65",
    "ln2+r1r2/5s+Pkl/3+B1p1p1/p4B2p/2P6/P6PP/1PNP1P3/2G3SK1/L4G1NL w 2GSN3Ps3p 76",
    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    "6G1k/7g1/9/5B1N1/9/9/9/9/4K4 b P 1",
    "8k/6G2/9/7N1/9/9/9/9/4K4 b P 1",
    "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
];

#[test]
fn generated_moves_are_exactly_the_checked_moves() {
    for sfen in CONSISTENCY_POSITIONS {
        assert_generation_matches_checking(&pos(sfen));
    }
}

#[test]
fn max_legal_moves_position_has_593() {
    let p = pos("R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1");
    assert_eq!(p.legal_moves().len(), 593);
}

/// A small deterministic generator so failures reproduce.
struct XorShift(u64);

impl XorShift {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[test]
fn random_games_keep_keys_and_agree_with_checking() {
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    for (game, sfen) in CONSISTENCY_POSITIONS.iter().enumerate() {
        let mut p = pos(sfen);
        for ply in 0..120 {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            if ply % 20 == 7 {
                assert_generation_matches_checking(&p);
            }
            let m = moves[rng.below(moves.len())];
            assert_eq!(
                p.check_move(m),
                Ok(()),
                "game {game} ply {ply}: {m} in {p:?}"
            );
            let captured = p.piece_at(m.to()).map(|x| x.kind);
            let gives_check = p.gives_check(m);
            assert_eq!(p.play_unchecked(m), captured);
            assert_eq!(p.in_check(), gives_check);
            let fresh = Position::from_sfen(&p.to_sfen()).expect("reachable positions are legal");
            assert_eq!(fresh, p);
            assert_eq!(fresh.key(), p.key());
        }
    }
}

/// Every conceivable move of `p`: `play` gives `check_move`'s verdict,
/// accepts exactly the generated moves, leaves the position untouched on a
/// foul and otherwise reaches what `play_unchecked` reaches, with a key and check flag
/// that agree with the same position built from scratch.
fn assert_play_matches(p: &Position, context: &str) {
    let legal: HashSet<Move> = p.legal_moves().into_iter().collect();
    assert_eq!(p.has_legal_move(), !legal.is_empty(), "{context}: {p:?}");
    let mut candidates: Vec<Move> = PieceKind::ALL
        .into_iter()
        .flat_map(|kind| Square::all().map(move |to| Move::Drop { kind, to }))
        .collect();
    for from in Square::all() {
        for to in Square::all() {
            for promote in [false, true] {
                candidates.push(Move::Normal { from, to, promote });
            }
        }
    }
    for m in candidates {
        let slow = p.check_move(m);
        let mut fast = p.clone();
        let verdict = fast.play(m);
        assert_eq!(
            verdict.is_ok(),
            legal.contains(&m),
            "{context}: {m} in {p:?}"
        );
        match verdict {
            Err(rule) => {
                assert_eq!(slow, Err(rule), "{context}: {m} in {p:?}");
                assert_eq!(&fast, p, "{context}: {m} changed {p:?}");
            }
            Ok(captured) => {
                assert_eq!(slow, Ok(()), "{context}: {m} in {p:?}");
                let mut played = p.clone();
                assert_eq!(
                    played.play_unchecked(m),
                    captured,
                    "{context}: {m} in {p:?}"
                );
                assert_eq!(fast, played, "{context}: {m} in {p:?}");
                let fresh =
                    Position::from_sfen(&fast.to_sfen()).expect("legal moves keep legality");
                assert_eq!(fast.key(), fresh.key(), "{context}: {m} in {p:?}");
                assert_eq!(fast.in_check(), fresh.in_check(), "{context}: {m} in {p:?}");
                assert_eq!(fast.in_check(), p.gives_check(m), "{context}: {m} in {p:?}");
                assert_eq!(
                    fast.has_legal_move(),
                    !fast.legal_moves().is_empty(),
                    "{context}: after {m} in {p:?}"
                );
            }
        }
    }
}

/// Positions with checks, pins, double checks and pawn-drop mates in reach,
/// beyond the presets.
const CROSS_CHECK_SEEDS: [&str; 6] = [
    // Pinned pieces on a file, a rank and a diagonal, and a lance pin.
    "8k/9/4l4/1b7/4S4/3G5/r1G1K4/9/9 b GSP2p 1",
    // Double check available: the knight uncovers the lance.
    "4k4/9/9/9/4N4/9/9/9/K3L4 b 2G 1",
    // Pawn-drop mate for sente, and a mate a piece can answer.
    "6G1k/7g1/9/5B1N1/9/9/9/9/4K4 b P 1",
    "8k/6G2/9/7N1/9/9/9/9/4K4 b P 1",
    // Gote's king without pieces to interpose, many drops.
    "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
    "ln2+r1r2/5s+Pkl/3+B1p1p1/p4B2p/2P6/P6PP/1PNP1P3/2G3SK1/L4G1NL w 2GSN3Ps3p 76",
];

#[test]
fn play_matches_the_slow_path_in_random_playouts() {
    let mut rng = XorShift(0x0123_4567_89ab_cdef);
    let starts = kifu::Handicap::ALL
        .iter()
        .step_by(5)
        .map(|h| Position::from_setup(&h.setup()).expect("presets are legal"))
        .chain(CROSS_CHECK_SEEDS.iter().map(|s| pos(s)));
    let mut in_check = 0;
    for (game, mut p) in starts.enumerate() {
        for ply in 0..40 {
            if ply % 12 == 0 || p.in_check() {
                in_check += p.in_check() as u32;
                assert_play_matches(&p, &format!("game {game} ply {ply}"));
            }
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Lean towards checks: they are where the shortcuts live.
            let checks: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| p.gives_check(m))
                .collect();
            let m = if !checks.is_empty() && rng.below(2) == 0 {
                checks[rng.below(checks.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            p.play(m).expect("generated moves are legal");
        }
    }
    assert!(
        in_check >= 10,
        "only {in_check} positions in check were tried"
    );
}

#[test]
fn unchecked_moves_never_panic() {
    // The replayer only plays checked moves, but nothing may panic either way.
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    for sfen in CONSISTENCY_POSITIONS {
        let mut p = pos(sfen);
        for _ in 0..200 {
            let to = Square::from_index(rng.below(81)).expect("in range");
            let m = if rng.below(4) == 0 {
                Move::Drop {
                    kind: PieceKind::ALL[rng.below(14)],
                    to,
                }
            } else {
                Move::Normal {
                    from: Square::from_index(rng.below(81)).expect("in range"),
                    to,
                    promote: rng.below(2) == 0,
                }
            };
            let _ = p.check_move(m);
            let _ = p.gives_check(m);
            p.play_unchecked(m);
            let _ = (p.in_check(), p.legal_moves(), p.to_sfen(), p.key());
            let _ = p.check_declaration(DeclarationRule::Points24);
        }
    }
}

// ---- declaration ---------------------------------------------------------------

#[test]
fn declaration_27_points_true() {
    // Ten pieces in the zone (R, B, 4 G, 4 S = 18 points) plus R and B in hand.
    let p = pos("9/GGGG1SSSS/R3K3B/9/9/9/9/9/4k4 b RB 1");
    assert_eq!(p.check_declaration(DeclarationRule::Points27), Ok(()));
    // 28 points are not enough under the 24-point (31 to win) rule.
    let err = p.check_declaration(DeclarationRule::Points24).unwrap_err();
    assert!(err.contains("28 points, 31 needed"), "{err}");
    // Gote needs only 27.
    let p = pos("4K4/9/9/9/9/9/r3k3b/gggg1ssss/9 w r4p 1");
    assert_eq!(p.check_declaration(DeclarationRule::Points27), Ok(()));
    let p = pos("4K4/9/9/9/9/9/r3k3b/gggg1ssss/9 w r3p 1");
    let err = p.check_declaration(DeclarationRule::Points27).unwrap_err();
    assert_eq!(err, "26 points, 27 needed");
}

#[test]
fn declaration_27_points_false() {
    let outside = pos("9/GGGG1SSSS/R7B/4K4/9/9/9/9/4k4 b RB 1");
    let err = outside
        .check_declaration(DeclarationRule::Points27)
        .unwrap_err();
    assert!(err.contains("not in the enemy zone"), "{err}");
    let few = pos("9/GGGG5/R3K3B/9/9/9/9/9/4k4 b RBSSSS 1");
    let err = few
        .check_declaration(DeclarationRule::Points27)
        .unwrap_err();
    assert!(err.contains("only 6 pieces"), "{err}");
    assert!(!err.contains("points,"), "{err}");
    let checked = pos("4l4/GGGG1SSSS/R3K3B/9/9/9/9/9/4k4 b RB 1");
    let err = checked
        .check_declaration(DeclarationRule::Points27)
        .unwrap_err();
    assert!(err.contains("in check"), "{err}");
}
