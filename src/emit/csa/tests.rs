use super::*;
use crate::record::{HeaderField, Location};
use crate::replay::{ReplayOptions, replay};

fn game_of(text: &str) -> Game {
    let record = crate::emit::read_for_test(text, crate::Format::Csa).remove(0);
    replay(record, &ReplayOptions::default()).expect("replays")
}

fn v22() -> CsaOptions {
    CsaOptions::default()
}

fn v30() -> CsaOptions {
    CsaOptions {
        version: CsaVersion::V30,
    }
}

fn codes(w: &[Warning]) -> Vec<&'static str> {
    w.iter().map(|w| w.code.code()).collect()
}

fn entry(usi: &str) -> MoveEntry {
    MoveEntry::new(
        Notation::Usi(Move::from_usi(usi).expect("usi move")),
        Location::default(),
    )
}

fn usi_record(moves: &[&str]) -> Record {
    let mut r = Record::default();
    r.main.moves = moves.iter().map(|m| entry(m)).collect();
    r
}

fn replayed(r: Record) -> Game {
    replay(r, &ReplayOptions::default()).expect("replays")
}

#[test]
fn even_game_is_pi_and_moves_and_ending() {
    let g = game_of("V2.2\nN+A\nN-B\n$EVENT:e\nPI\n+\n+7776FU\nT3\n-3334FU\n%TORYO\nT1\n");
    let (text, w) = write(&g, &v22());
    assert_eq!(
        text,
        "V2.2\nN+A\nN-B\n$EVENT:e\nPI\n+\n+7776FU\nT3\n-3334FU\n%TORYO\nT1\n"
    );
    assert!(w.is_empty(), "{w:?}");
}

#[test]
fn handicap_is_pi_with_removed_pieces_and_gote_to_move() {
    let g = game_of("PI82HI22KA\n-\n-3334FU\n");
    let (text, _) = write(&g, &v22());
    assert_eq!(text, "V2.2\nPI82HI22KA\n-\n-3334FU\n");
}

#[test]
fn custom_position_is_written_rank_by_rank_with_hands() {
    let src = "P1 *  *  *  *  *  *  *  * -OU\nP2 *  *  *  *  *  *  *  *  * \nP3 *  *  *  *  *  *  * +FU * \n\
               P4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \n\
               P7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \nP9 *  *  *  * +OU *  *  *  * \n\
               P+00KI00FU\nP-00HI\n+\n+0012KI\n";
    let g = game_of(src);
    let (text, w) = write(&g, &v22());
    let expected = format!("V2.2\n{src}");
    assert_eq!(text, expected);
    assert!(w.is_empty(), "{w:?}");
}

#[test]
fn promotion_is_written_as_the_promoted_piece() {
    let g = replayed(usi_record(&["7g7f", "3c3d", "8h2b+"]));
    let (text, _) = write(&g, &v22());
    assert!(text.ends_with("+7776FU\n-3334FU\n+8822UM\n"), "{text}");
}

#[test]
fn times_round_in_v22_and_keep_milliseconds_in_v30() {
    let mut r = usi_record(&["7g7f", "3c3d"]);
    r.main.moves[0].time = Some(MoveTime {
        spent_ms: Some(3250),
        total_ms: None,
    });
    r.main.moves[1].time = Some(MoveTime {
        spent_ms: Some(2000),
        total_ms: Some(2000),
    });
    let g = replayed(r);
    let (text, w) = write(&g, &v22());
    assert!(text.contains("+7776FU\nT3\n-3334FU\nT2\n"), "{text}");
    assert_eq!(codes(&w), ["subsecond-time"]);
    let (text, w) = write(&g, &v30());
    assert!(text.starts_with("'CSA encoding=UTF-8\nV3.0\n"), "{text}");
    assert!(text.contains("+7776FU\nT3.25\n-3334FU\nT2\n"), "{text}");
    assert!(w.is_empty(), "{w:?}");
}

/// A line with no CSA word for its ending: `%CHUDAN`, the record's word
/// kept as a comment.
fn ending_in_a_try() -> Game {
    let mut r = usi_record(&["7g7f"]);
    r.main.ending = Some(Ending {
        kind: EndingKind::Try,
        text: "トライ".into(),
        span: Location::default(),
        time: None,
        comments: Vec::new(),
    });
    replayed(r)
}

#[test]
fn fouls_and_endings_close_the_line() {
    // A game, whether its line is legal, how its text ends, the warnings.
    let cases: [(Game, bool, &str, &[&str]); 7] = [
        // Gote's foul: the move, then the later moves as a comment.
        (
            game_of("PI\n+\n+7776FU\n-3335FU\n+2726FU\n"),
            false,
            "+7776FU\n-3335FU\n'*moves after the foul: +2726FU\n%-ILLEGAL_ACTION\n",
            &["moves-after-foul-commented"],
        ),
        (
            game_of("PI\n+\n+7776FU\n-3334FU\n+0055FU\n"),
            false,
            "-3334FU\n+0055FU\n%+ILLEGAL_ACTION\n",
            &[],
        ),
        // From another notation the piece is named after the move: 2b
        // (gote's bishop) cannot reach 5e with 3c still in the way.
        (
            replayed(usi_record(&["7g7f", "2b5e+"])),
            false,
            "+7776FU\n-2255UM\n%-ILLEGAL_ACTION\n",
            &[],
        ),
        // A special move recorded after a foul is kept.
        (
            game_of("PI\n+\n+7776FU\n-3335FU\n%TORYO\n"),
            false,
            "-3335FU\n%TORYO\n",
            &[],
        ),
        // A false declaration is written as what it was.
        (
            game_of("PI\n+\n+7776FU\n-3334FU\n%KACHI\n"),
            false,
            "-3334FU\n%KACHI\n",
            &[],
        ),
        // 5e is empty: the foul move can be formed but no piece named, so
        // it is kept as a comment.
        (
            replayed(usi_record(&["7g7f", "3c3d", "5e5d", "2g2f"])),
            false,
            "-3334FU\n'foul move: 5e5d\n'moves after the foul: 2g2f\n%+ILLEGAL_ACTION\n",
            &["foul-move-commented", "moves-after-foul-commented"],
        ),
        (
            ending_in_a_try(),
            true,
            "+7776FU\n%CHUDAN\n'ending: トライ\n",
            &["ending-changed"],
        ),
    ];
    for (g, legal, end, warned) in cases {
        assert_eq!(g.main.verdict.is_legal(), legal, "{end}");
        let (text, w) = write(&g, &v22());
        assert!(text.ends_with(end), "{text}");
        assert_eq!(codes(&w), warned, "{end}");
    }
}

#[test]
fn variations_give_a_warning_and_split_writes_each_as_a_game() {
    let mut r = usi_record(&["7g7f", "3c3d", "2g2f"]);
    r.main.moves[1]
        .extra_mut()
        .variations
        .push(crate::record::Line {
            moves: vec![entry("8c8d"), entry("2g2f")],
            ..Default::default()
        });
    r.main.moves[2].extra_mut().bookmarks.push("mark".into());
    let g = replayed(r);
    let (text, w) = write(&g, &v22());
    assert!(!text.contains("8384"), "{text}");
    assert_eq!(codes(&w), ["bookmarks-dropped", "variations-dropped"]);
    assert!(w[1].message.contains("1 left out"), "{:?}", w[1]);

    let (text, w) = write_split(&g, &v22());
    assert_eq!(
        text,
        "V2.2\nPI\n+\n+7776FU\n-3334FU\n+2726FU\n/\nPI\n+\n+7776FU\n-8384FU\n+2726FU\n"
    );
    assert_eq!(codes(&w), ["bookmarks-dropped"]);
}

#[test]
fn many_games_share_one_version_line() {
    let games = [game_of("PI\n+\n+7776FU\n"), game_of("PI\n+\n+2726FU\n")];
    let (text, w) = write_many(&games, &v22());
    assert_eq!(text, "V2.2\nPI\n+\n+7776FU\n/\nPI\n+\n+2726FU\n");
    assert!(w.is_empty());
}

#[test]
fn kif_header_keys_are_mapped_and_others_become_comments() {
    let mut r = usi_record(&[]);
    for (k, v) in [
        ("先手", "A"),
        ("後手", "B"),
        ("棋戦", "E"),
        ("場所", "S"),
        ("開始日時", "2024/01/02"),
        ("持ち時間", "01:30+60"),
        ("手合割", "平手"),
        ("TIME+", "600+0+0"),
    ] {
        r.header.push(HeaderField {
            key: k.into(),
            value: v.into(),
            span: Location::default(),
        });
    }
    let (text, _) = write(&replayed(r), &v22());
    assert_eq!(
        text,
        "V2.2\nN+A\nN-B\n$EVENT:E\n$SITE:S\n$START_TIME:2024/01/02\n$TIME_LIMIT:01:30+60\n'手合割:平手\n$TIME+:600+0+0\nPI\n+\n"
    );
}

#[test]
fn comments_eval_and_notes_are_kept() {
    let src = "V2\n'a note\nPI\n+\n'*start\n+7776FU\nT1\n'** 30 -3334FU\n'*good\n%TORYO\n'*after\n";
    let g = game_of(src);
    let (text, _) = write(&g, &v30());
    assert_eq!(
        text,
        "'CSA encoding=UTF-8\nV3.0\n'a note\nPI\n+\n'*start\n+7776FU\nT1\n'** 30 -3334FU\n'*good\n%TORYO\n'*after\n"
    );
}

#[test]
fn every_ending_kind_has_a_word_or_falls_back_to_chudan() {
    use EndingKind::*;
    let s = Color::Sente;
    let cases = [
        (Resign, Some("%TORYO")),
        (Interrupt, Some("%CHUDAN")),
        (Sennichite, Some("%SENNICHITE")),
        (Jishogi, Some("%JISHOGI")),
        (TimeUp, Some("%TIME_UP")),
        (FoulByMover, Some("%ILLEGAL_MOVE")),
        (FoulByPrevious, Some("%+ILLEGAL_ACTION")),
        (FoulBy(Color::Gote), Some("%-ILLEGAL_ACTION")),
        (Tsumi, Some("%TSUMI")),
        (Fuzumi, Some("%FUZUMI")),
        (Kachi, Some("%KACHI")),
        (Hikiwake, Some("%HIKIWAKE")),
        (MaxMoves, Some("%MAX_MOVES")),
        (Matta, Some("%MATTA")),
        (Error, Some("%ERROR")),
        (Sealed, None),
        (DefaultWin, None),
        (DefaultLoss, None),
        (Try, None),
    ];
    for (k, w) in cases {
        assert_eq!(ending_word(k, s).as_deref(), w, "{k:?}");
    }
}

#[test]
fn writing_what_was_written_is_idempotent_for_fouls_from_other_notations() {
    let g = replayed(usi_record(&["7g7f", "2b5e+", "2g2f"]));
    let (first, _) = write(&g, &v22());
    let (second, _) = write(&game_of(&first), &v22());
    assert_eq!(first, second);
}

#[test]
fn time_lines_match_what_format_would_write() {
    // `TimeWriter` writes its digits by hand; `format!` is the reference.
    let samples = [
        0u64,
        1,
        5,
        9,
        10,
        100,
        999,
        1000,
        1001,
        1010,
        1100,
        1499,
        1500,
        12_345,
        59_999,
        3_600_000,
        86_399_999,
        u64::MAX / 2,
    ];
    for ms in samples {
        let time = Some(MoveTime {
            spent_ms: Some(ms),
            total_ms: None,
        });
        let mut v22 = TimeWriter {
            version: CsaVersion::V22,
            rounded: 0,
        };
        let mut out = String::new();
        v22.write(&mut out, time);
        assert_eq!(out, format!("T{}\n", (ms + 500) / 1000), "V2.2, {ms} ms");
        assert_eq!(v22.rounded, usize::from(ms % 1000 != 0), "{ms} ms");

        let mut v30 = TimeWriter {
            version: CsaVersion::V30,
            rounded: 0,
        };
        let mut out = String::new();
        v30.write(&mut out, time);
        let want = if ms % 1000 == 0 {
            format!("T{}\n", ms / 1000)
        } else {
            let frac = format!("{:03}", ms % 1000);
            format!("T{}.{}\n", ms / 1000, frac.trim_end_matches('0'))
        };
        assert_eq!(out, want, "V3.0, {ms} ms");
    }
    let mut none = String::new();
    TimeWriter {
        version: CsaVersion::V30,
        rounded: 0,
    }
    .write(&mut none, None);
    assert_eq!(none, "");
}

#[test]
fn moves_are_written_with_origin_destination_and_piece_after() {
    let sq = |f: u8, r: u8| Square::new(f, r).expect("on the board");
    let normal = Move::Normal {
        from: sq(2, 8),
        to: sq(2, 2),
        promote: true,
    };
    assert_eq!(csa_move(Color::Sente, normal, PieceKind::Rook), "+2822RY");
    let drop = Move::Drop {
        kind: PieceKind::Gold,
        to: sq(5, 2),
    };
    assert_eq!(csa_move(Color::Gote, drop, PieceKind::Gold), "-0052KI");
}
