//! The CSA parser against every real `.csa` file of the corpus and against
//! the small fixtures in `fixtures/csa/`.

use crate::common;
use kifu::parse::csa;
use kifu::record::{EndingKind, Record, StartPosition};
use kifu::{Color, Handicap};
use std::path::{Path, PathBuf};

use crate::common::decode_strict as decode;

fn read(path: &Path) -> Result<Vec<Record>, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let text = decode(&bytes).ok_or("cannot decode as UTF-8, Shift_JIS or EUC-JP")?;
    csa::parse(&text).map_err(|e| e.to_string())
}

fn one(path: &Path) -> Record {
    let mut records = read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(records.len(), 1, "{}", path.display());
    records.remove(0)
}

fn ending(r: &Record) -> Option<(EndingKind, &str)> {
    r.main.ending.as_ref().map(|e| (e.kind, e.text.as_str()))
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn csa_every_corpus_file_parses() {
    let dir = common::corpus_dir("csa_every_corpus_file_parses");
    let files = common::files_with_ext(&dir, &["csa"]);
    assert!(files.len() > 200, "only {} .csa files found", files.len());
    let failures: Vec<(PathBuf, String)> = files
        .iter()
        .filter_map(|p| read(p).err().map(|e| (p.clone(), e)))
        .collect();
    for (p, e) in &failures {
        eprintln!(
            "FAILED {}: {e}",
            p.strip_prefix(&dir).unwrap_or(p).display()
        );
    }
    eprintln!(
        "{} of {} .csa files parse",
        files.len() - failures.len(),
        files.len()
    );
    assert!(failures.is_empty(), "{} files failed", failures.len());
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn csa_corpus_files_match_the_manifest() {
    let dir = common::corpus_dir("csa_corpus_files_match_the_manifest");
    let r = one(&dir.join("csa/kif-parser-examples/[wcsc31]WCSC31_L8_ANS_KFW_1.csa"));
    assert_eq!(r.main.moves.len(), 52);
    assert_eq!(ending(&r), Some((EndingKind::FoulByMover, "%ILLEGAL_MOVE")));

    let titanda = common::files_with_ext(&dir.join("csa/kif-parser-examples"), &["csa"])
        .into_iter()
        .find(|p| p.to_string_lossy().contains("Titanda_L"))
        .expect("the floodgate Titanda_L file");
    let r = one(&titanda);
    assert_eq!(r.main.moves.len(), 256);
    // No `%` line: the summary is the ending, and is still kept in notes.
    assert_eq!(ending(&r).map(|e| e.0), Some(EndingKind::MaxMoves));
    assert!(r.notes.iter().any(|n| n.starts_with("'summary:max_moves:")));
    assert!(r.main.moves.iter().filter(|m| m.eval().is_some()).count() > 200);

    let r = one(&dir.join("csa/gpsshogi-0.7.0/data/gpsshogi/wcsc23/day2/3-YSS.csa"));
    assert_eq!(ending(&r), Some((EndingKind::Resign, "%TORYO")));
    assert!(r.notes.iter().any(|n| n == "'-100100RY,T1"));
    assert!(r.notes.iter().any(|n| n == "'#ILLEGAL_MOVE"));

    let dr = dir.join("mixed/json-kifu-format-fixtures/csa/dr1test1test0+tu-1_aobazero_viper-300-5F+aobazero+viper+20200719201040.csa");
    let r = one(&dr);
    assert_eq!(r.main.moves.len(), 400);
    let end = r.main.ending.as_ref().expect("an ending");
    assert_eq!((end.kind, end.text.as_str()), (EndingKind::Kachi, "%KACHI"));
    assert_eq!(end.time.and_then(|t| t.spent_ms), Some(10_000));
    assert_eq!(end.comments, vec![" -5000 win".to_string()]);
    assert!(
        r.notes.iter().any(|n| n == "%KACHI"),
        "duplicated terminator kept"
    );
    assert!(r.notes.iter().any(|n| n.starts_with("'summary:kachi:")));

    let r = one(&dir.join("csa/mog-core-scala/game/002.csa"));
    assert_eq!(r.main.moves.len(), 258);
    assert_eq!(ending(&r).map(|e| e.0), Some(EndingKind::Jishogi));

    let r = one(&dir.join("mixed/json-kifu-format-fixtures/csa/illegal_win.csa"));
    assert_eq!(r.main.moves.len(), 2);
    assert_eq!(
        ending(&r).map(|e| e.0),
        Some(EndingKind::FoulBy(Color::Gote))
    );

    let r = one(&dir.join("mixed/json-kifu-format-fixtures/csa/8mai_hirate.csa"));
    assert_eq!(r.start, StartPosition::Preset(Handicap::EightPieces));
    let r8 = one(&dir.join("mixed/json-kifu-format-fixtures/csa/8mai.csa"));
    assert_eq!(r8.start.setup(), r.start.setup());
    let notations = |r: &Record| {
        r.main
            .moves
            .iter()
            .map(|m| m.notation.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(notations(&r8), notations(&r));

    let r = one(&dir.join("csa/sunfish4/kifu/learn/pro10/kifu20023.csa"));
    assert_eq!(r.main.moves.len(), 119);
    assert_eq!(r.main.ending, None);
}

fn fixture(name: &str) -> Vec<Record> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/csa")
        .join(name);
    read(&path).unwrap_or_else(|e| panic!("{name}: {e}"))
}

#[test]
fn csa_fixture_multi_game_file_gives_one_record_per_game() {
    let games = fixture("multi.csa");
    assert_eq!(games.len(), 3);
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g.index, i);
        assert_eq!(g.header_value(&["Version"]), Some("2.2"));
    }
    assert_eq!(games[1].span.line, 11);
    let counts: Vec<usize> = games.iter().map(|g| g.main.moves.len()).collect();
    assert_eq!(counts, vec![2, 3, 1]);
    assert_eq!(ending(&games[0]).map(|e| e.0), Some(EndingKind::Resign));
    assert_eq!(ending(&games[2]).map(|e| e.0), Some(EndingKind::Interrupt));
}

#[test]
fn csa_fixture_v3_keeps_fractional_times_and_comments() {
    let g = fixture("v3.csa").remove(0);
    assert_eq!(g.header_value(&["Encoding"]), Some("UTF-8"));
    assert_eq!(g.header_value(&["Version"]), Some("3.0"));
    assert_eq!(g.header_value(&["TIME"]), Some("600+0+0"));
    assert_eq!(g.comments, vec!["初期局面へのコメント".to_string()]);
    assert_eq!(g.main.moves[0].time.and_then(|t| t.spent_ms), Some(3_250));
    let last = g.main.moves.last().expect("moves");
    assert_eq!(last.comments(), vec!["浮き飛車に構えた。".to_string()]);
    let eval = last.eval().expect("'** line");
    assert_eq!(eval.score, Some(35));
    let pv: Vec<_> = ["-6152KI", "+3938GI"]
        .iter()
        .map(|w| kifu::record::Notation::from_csa_word(w).expect("a CSA move"))
        .collect();
    assert_eq!((&eval.pv, eval.rest.len()), (&pv, 0));
    let end = g.main.ending.as_ref().expect("ending");
    assert_eq!(end.time.and_then(|t| t.spent_ms), Some(10_000));
}

#[test]
fn csa_fixture_custom_position_is_a_setup() {
    let g = fixture("position.csa").remove(0);
    let StartPosition::Setup(s) = &g.start else {
        panic!("expected a written-out position, got {:?}", g.start);
    };
    assert_eq!(s.to_sfen(), "4k4/9/4P4/9/9/9/9/9/4K4 b G2r2b3g4s4n4l17p 1");
    assert_eq!(g.start_span.map(|s| s.line), Some(2));
    assert_eq!(g.main.moves.len(), 1);
    assert_eq!(ending(&g).map(|e| e.0), Some(EndingKind::Tsumi));
}

fn times(r: &Record) -> Vec<(Option<u64>, Option<u64>)> {
    r.main
        .moves
        .iter()
        .map(|m| m.time.map_or((None, None), |t| (t.spent_ms, t.total_ms)))
        .collect()
}

#[test]
fn shogi_wars_remaining_times_become_time_spent_from_the_main_time() {
    let r = fixture("wars-remaining.csa").remove(0);
    let s = |n: u64| Some(n * 1000);
    // `$TIME_LIMIT:00:10+00`: 600 s each; L597, L599, L590, L595, L590.
    assert_eq!(
        times(&r),
        [
            (s(3), s(3)),
            (s(1), s(1)),
            (s(7), s(10)),
            (s(4), s(5)),
            (s(0), s(10)),
        ]
    );
    assert_eq!(ending(&r), Some((EndingKind::Resign, "SENTE_WIN_TORYO")));
}

#[test]
fn shogi_wars_first_moves_without_a_time_control_keep_their_time_left_in_notes() {
    let r = fixture("wars-timeout.csa").remove(0);
    // L180, L178 have nothing to be subtracted from; L175, L170 do.
    assert_eq!(
        times(&r),
        [
            (None, None),
            (None, None),
            (Some(5000), None),
            (Some(8000), None)
        ]
    );
    assert!(r.notes.iter().any(|n| n == "L180") && r.notes.iter().any(|n| n == "L178"));
    assert_eq!(ending(&r), Some((EndingKind::TimeUp, "GOTE_WIN_TIMEOUT")));
}

#[test]
fn shogi_wars_endings_map_to_the_winner_they_name() {
    let game = |moves: &str, end: &str| {
        csa::parse(&format!("PI\n+\n{moves}{end}\n"))
            .unwrap()
            .remove(0)
    };
    let two = "+7776FU,L599\n-3334FU,L599\n";
    let three = "+7776FU,L599\n-3334FU,L599\n+2726FU,L598\n";
    for (moves, end, kind) in [
        (three, "SENTE_WIN_TORYO", EndingKind::Resign),
        (two, "GOTE_WIN_TORYO", EndingKind::Resign),
        (two, "%GOTE_WIN_TORYO", EndingKind::Resign),
        (three, "SENTE_WIN_CHECKMATE", EndingKind::Tsumi),
        (two, "GOTE_WIN_TIMEOUT", EndingKind::TimeUp),
        (three, "SENTE_WIN_DISCONNECT", EndingKind::TimeUp),
        (two, "SENTE_WIN_ENTERINGKING", EndingKind::Kachi),
        (
            two,
            "GOTE_WIN_OUTE_SENNICHI",
            EndingKind::FoulBy(Color::Sente),
        ),
        (two, "DRAW_SENNICHI", EndingKind::Sennichite),
        (two, "DRAW_PLY_LIMIT", EndingKind::MaxMoves),
    ] {
        let r = game(moves, end);
        assert_eq!(ending(&r), Some((kind, end)), "{end}");
    }
    // Sente to move cannot have won by gote's resignation: not an ending
    // kifu can vouch for, so it is kept in notes, as an unknown %WORD is.
    let r = game(two, "SENTE_WIN_TORYO");
    assert_eq!(r.main.ending, None);
    assert!(r.notes.iter().any(|n| n == "SENTE_WIN_TORYO"));
}
