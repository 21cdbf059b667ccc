//! Chu shogi on the table engine, as lishogi plays it: perft, every lion
//! rule, the promotion cases and the endings, each from a position where
//! that rule decides (see docs/cli.md, "Variants").

use kifu::emit::variant::usi as write_usi;
use kifu::parse::usi::parse_variant;
use kifu::variant::{Board, Variant, replay};

/// A chu SFEN with these pieces (`("7g", "N")`; gote in lower case) and
/// the side to move, the third field `-`.
fn sfen(pieces: &[(&str, &str)], side: char) -> String {
    let mut grid = vec![vec![String::new(); 12]; 12];
    for (sq, p) in pieces {
        let (file, rank) = sq.split_at(sq.len() - 1);
        let file: usize = file.parse().unwrap();
        let row = (rank.as_bytes()[0] - b'a') as usize;
        grid[row][12 - file] = (*p).to_string();
    }
    let rows: Vec<String> = grid
        .iter()
        .map(|row| {
            let mut s = String::new();
            let mut empty = 0;
            for cell in row {
                if cell.is_empty() {
                    empty += 1;
                    continue;
                }
                if empty > 0 {
                    s.push_str(&empty.to_string());
                    empty = 0;
                }
                s.push_str(cell);
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            s
        })
        .collect();
    format!("{} {side} - 1", rows.join("/"))
}

/// Kings out of the way, in the corners.
const KINGS: [(&str, &str); 2] = [("1l", "K"), ("12a", "k")];

fn with_kings(pieces: &[(&'static str, &'static str)]) -> Vec<(&'static str, &'static str)> {
    let mut v = KINGS.to_vec();
    v.extend_from_slice(pieces);
    v
}

/// Replay `moves` from the position: the foul code (or `legal`), the
/// winner and the reason.
fn judge(start: &str, moves: &str) -> (String, Option<&'static str>, &'static str) {
    let line = format!("position sfen {start} moves {moves}");
    let recs = parse_variant(&line, Variant::Chu).expect("the fixture line parses");
    let g = replay::replay(recs.into_iter().next().expect("one game")).expect("a chu record");
    let verdict = g
        .foul
        .as_ref()
        .map_or("legal".to_string(), |f| f.foul.code().to_string());
    (verdict, g.winner.map(|c| c.name()), g.reason.code())
}

fn foul(pieces: &[(&'static str, &'static str)], moves: &str) -> String {
    judge(&sfen(&with_kings(pieces), 'b'), moves).0
}

/// The position after `moves`.
fn after(start: &str, moves: &str) -> Board {
    let line = format!("position sfen {start} moves {moves}");
    let g = replay::replay(parse_variant(&line, Variant::Chu).unwrap().remove(0)).unwrap();
    assert!(g.foul.is_none(), "{moves}: {:?}", g.foul);
    g.end
}

#[test]
fn chu_perft_from_the_start_is_36_then_1296() {
    let b = Variant::Chu.start();
    assert_eq!((b.perft(1), b.perft(2)), (36, 1296));
}

#[test]
fn chu_lone_lion_has_88_moves_counting_each_encoding() {
    // 24 squares one or two away, and 8 first steps × 8 second steps (igui
    // and jitto among them), as lishogi counts.
    let b = Board::from_sfen(Variant::Chu, &sfen(&with_kings(&[("6f", "N")]), 'b')).unwrap();
    let lion = b.cell_of(6, 6).unwrap();
    let n = b
        .legal_moves()
        .iter()
        .filter(|m| m.from == Some(lion))
        .count();
    assert_eq!(n, 88);
}

#[test]
fn chu_lion_may_always_take_an_adjacent_lion() {
    // Gote's pawn on 7e protects its lion on 7f.
    let p = [("7g", "N"), ("7f", "n"), ("7e", "p")];
    assert_eq!(foul(&p, "7g7f"), "legal");
}

#[test]
fn chu_lion_may_not_take_a_protected_lion_two_away() {
    let protected = [("7g", "N"), ("7e", "n"), ("7d", "p")];
    assert_eq!(foul(&protected, "7g7e"), "protected-lion");
    // Through an empty first square it is the same capture.
    assert_eq!(foul(&protected, "7g7f7e"), "protected-lion");
    let alone = [("7g", "N"), ("7e", "n")];
    assert_eq!(foul(&alone, "7g7e"), "legal");
}

#[test]
fn chu_lion_freed_by_taking_more_than_a_pawn_or_go_between_first() {
    let gold = [("7g", "N"), ("7f", "g"), ("7e", "n"), ("7d", "p")];
    assert_eq!(foul(&gold, "7g7f7e"), "legal");
    let pawn = [("7g", "N"), ("7f", "p"), ("7e", "n"), ("7d", "p")];
    assert_eq!(foul(&pawn, "7g7f7e"), "protected-lion");
    let go_between = [("7g", "N"), ("7f", "i"), ("7e", "n"), ("7d", "p")];
    assert_eq!(foul(&go_between, "7g7f7e"), "protected-lion");
}

#[test]
fn chu_after_a_non_lion_takes_a_lion_no_non_lion_takes_one_elsewhere() {
    // Sente's gold takes the lion on 3e; gote's gold then may not take the
    // lion on 9g, but may take back on 3e, and a lion may take a lion.
    let p = [
        ("3f", "G"),
        ("3e", "n"),
        ("3d", "g"),
        ("9g", "N"),
        ("9f", "g"),
        ("8f", "n"),
    ];
    let start = sfen(&with_kings(&p), 'b');
    assert_eq!(judge(&start, "3f3e 9f9g").0, "lion-recapture");
    assert_eq!(judge(&start, "3f3e 3d3e").0, "legal");
    assert_eq!(judge(&start, "3f3e 8f9g").0, "legal");
    // A move later the rule is spent.
    assert_eq!(judge(&start, "3f3e 12a12b 1l1k 9f9g").0, "legal");
    // SFEN's third field names the square.
    assert_eq!(
        after(&start, "3f3e").to_sfen().split(' ').nth(2),
        Some("3e")
    );
    // The rule binds only after a non-lion's capture.
    let by_lion = [("3f", "N"), ("3e", "n"), ("9g", "N"), ("9f", "g")];
    let start = sfen(&with_kings(&by_lion), 'b');
    assert_eq!(judge(&start, "3f3e 9f9g").0, "legal");
    assert_eq!(after(&start, "3f3e").to_sfen().split(' ').nth(2), Some("-"));
}

#[test]
fn chu_igui_takes_without_moving_and_jitto_passes() {
    let p = [("7g", "N"), ("6f", "p")];
    let start = sfen(&with_kings(&p), 'b');
    let b = after(&start, "7g6f7g");
    assert_eq!(
        b.to_sfen(),
        sfen(&with_kings(&[("7g", "N")]), 'w').replace(" 1", " 2")
    );
    let b = after(&start, "7g7h7g");
    assert_eq!(b.to_sfen(), start.replace(" b ", " w ").replace(" 1", " 2"));
    // Jitto needs an empty square to step on.
    let blocked = [
        ("7g", "N"),
        ("7h", "P"),
        ("7f", "P"),
        ("8g", "P"),
        ("6g", "P"),
    ];
    assert_eq!(foul(&blocked, "7g7h7g"), "bad-movement");
    assert_eq!(foul(&blocked, "7g6h7g"), "legal");
}

#[test]
fn chu_falcon_and_eagle_have_the_lion_power_in_their_lines_only() {
    // The horned falcon (+H): straight forward, one step, a leap of two,
    // or two steps with igui or jitto.
    let falcon = [("7g", "+H"), ("7f", "p")];
    for m in ["7g7f7g", "7g7f7e", "7g7e", "7g7f"] {
        assert_eq!(foul(&falcon, m), "legal", "falcon {m}");
    }
    assert_eq!(foul(&falcon, "7g6f5e"), "bad-movement");
    assert_eq!(foul(&falcon, "7g7h7g"), "bad-movement");
    // It slides every other way but forward.
    assert_eq!(foul(&[("7g", "+H")], "7g7c"), "bad-movement");
    assert_eq!(foul(&[("7g", "+H")], "7g7k"), "legal");
    // The soaring eagle (+D): the same, diagonally forward.
    let eagle = [("7g", "+D"), ("6f", "p")];
    for m in [
        "7g6f7g",
        "7g6f5e",
        "7g5e",
        "7g8f8g".replace("8g", "7g").as_str(),
    ] {
        assert_eq!(foul(&eagle, m), "legal", "eagle {m}");
    }
    assert_eq!(foul(&eagle, "7g7f7e"), "bad-movement");
    assert_eq!(foul(&[("7g", "+D")], "7g4d"), "bad-movement");
    assert_eq!(foul(&[("7g", "+D")], "7g10j"), "legal");
}

#[test]
fn chu_promotion_on_entering_the_zone() {
    assert_eq!(foul(&[("7e", "P")], "7e7d+"), "legal");
    assert_eq!(foul(&[("7e", "P")], "7e7d"), "legal");
    assert_eq!(foul(&[("7f", "P")], "7f7e+"), "bad-promotion");
}

#[test]
fn chu_promotion_within_the_zone_needs_a_capture() {
    assert_eq!(foul(&[("7d", "P")], "7d7c+"), "bad-promotion");
    assert_eq!(foul(&[("7d", "P"), ("7c", "g")], "7d7c+"), "legal");
    // A pawn or lance reaching the last rank may promote without one.
    assert_eq!(foul(&[("7b", "P")], "7b7a+"), "legal");
    assert_eq!(foul(&[("7c", "L")], "7c7a+"), "legal");
    assert_eq!(foul(&[("7c", "L")], "7c7b+"), "bad-promotion");
    // Promotion is never compulsory: a pawn may stay on the last rank.
    assert_eq!(foul(&[("7b", "P")], "7b7a"), "legal");
}

#[test]
fn chu_promotion_on_leaving_the_zone_needs_a_capture_as_lishogi_has_it() {
    assert_eq!(foul(&[("7d", "R")], "7d7f+"), "bad-promotion");
    assert_eq!(foul(&[("7d", "R"), ("7f", "g")], "7d7f+"), "legal");
    // Pieces that do not promote: lion, queen, king, and the promoted.
    assert_eq!(foul(&[("7e", "Q")], "7e7d+"), "bad-promotion");
    assert_eq!(foul(&[("7e", "+R")], "7e7d+"), "bad-promotion");
}

#[test]
fn chu_taking_the_last_royal_wins() {
    let start = sfen(&[("1l", "K"), ("6c", "k"), ("6f", "R"), ("6a", "g")], 'b');
    assert_eq!(
        judge(&start, "6f6c"),
        ("legal".into(), Some("sente"), "royal-captured")
    );
}

#[test]
fn chu_the_prince_keeps_the_game_going_after_the_king_falls() {
    let start = sfen(
        &[
            ("1l", "K"),
            ("6c", "k"),
            ("9a", "+e"),
            ("6f", "R"),
            ("6a", "g"),
        ],
        'b',
    );
    assert_eq!(judge(&start, "6f6c 9a9b"), ("legal".into(), None, "none"));
    // A royal may be left attacked: there is no check rule.
    assert_eq!(judge(&start, "1l1k 6c7c").0, "legal");
}

#[test]
fn chu_a_bared_king_loses() {
    // Gote's last piece beside its king is taken; sente keeps a rook and a gold.
    let start = sfen(
        &[
            ("1l", "K"),
            ("2l", "G"),
            ("6l", "R"),
            ("12a", "k"),
            ("6f", "g"),
        ],
        'b',
    );
    assert_eq!(
        judge(&start, "6l6f"),
        ("legal".into(), Some("sente"), "bare-king")
    );
    // Not while the bared king can take the one piece left beside it back;
    // when it does, two lone kings draw.
    let start = sfen(&[("1l", "K"), ("2k", "R"), ("12a", "k"), ("2j", "g")], 'w');
    assert_eq!(judge(&start, "2j2k"), ("legal".into(), None, "none"));
    assert_eq!(judge(&start, "2j2k 1l2k"), ("legal".into(), None, "draw"));
}

#[test]
fn chu_a_side_without_a_move_loses() {
    // Gote's king is walled in by its own pawns, which cannot move.
    let start = sfen(
        &[
            ("12a", "K"),
            ("6f", "G"),
            ("1l", "k"),
            ("2l", "p"),
            ("1k", "p"),
            ("2k", "p"),
        ],
        'b',
    );
    assert_eq!(
        judge(&start, "6f6e"),
        ("legal".into(), Some("sente"), "no-legal-move")
    );
}

#[test]
fn chu_fourfold_repetition_is_a_draw() {
    let start = sfen(&[("1l", "K"), ("6l", "G"), ("12a", "k"), ("7a", "g")], 'b');
    let cycle = " 1l1k 12a12b 1k1l 12b12a".repeat(3);
    assert_eq!(judge(&start, &cycle), ("legal".into(), None, "sennichite"));
}

#[test]
fn chu_perpetual_check_loses_for_the_checker() {
    let start = sfen(&[("12l", "K"), ("12c", "R"), ("1a", "k"), ("6f", "g")], 'b');
    let cycle = " 12a12b 1b1a 12b12a 1a1b".repeat(3);
    let (v, winner, _) = judge(&start, &format!("12c12a 1a1b{cycle}"));
    assert_eq!((v.as_str(), winner), ("perpetual-check", Some("gote")));
}

#[test]
fn chu_sfen_and_usi_round_trip() {
    for s in [
        Variant::Chu.rules().start.to_string(),
        sfen(&with_kings(&[("7g", "+O"), ("3e", "+H"), ("10b", "x")]), 'w'),
        "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL w 12l 7".to_string(),
    ] {
        let b = Board::from_sfen(Variant::Chu, &s).unwrap();
        assert_eq!(b.to_sfen(), s);
    }
    let p = [("7g", "N"), ("6f", "p"), ("3c", "P")];
    let start = sfen(&with_kings(&p), 'b');
    let moves = "7g6f5e 12a12b 3c3b+ 12b12a 5e5f5e";
    let line = format!("position sfen {start} moves {moves}\n");
    let g = replay::replay(parse_variant(&line, Variant::Chu).unwrap().remove(0)).unwrap();
    assert!(g.foul.is_none(), "{:?}", g.foul);
    assert_eq!(write_usi(&g).0, line);
    let err = Board::from_sfen(Variant::Chu, &s_bad())
        .unwrap_err()
        .to_string();
    assert!(err.contains("last lion capture"), "{err}");
}

fn s_bad() -> String {
    Variant::Chu.rules().start.replace(" b - 1", " b P 1")
}
