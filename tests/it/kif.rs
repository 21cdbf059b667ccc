//! The KIF reader against the real corpus and the dialect fixtures.

use crate::common;
use kifu::decode::decode;
use kifu::parse::kif;
use kifu::record::{Dest, EndingKind, Line, Notation, Record, StartPosition};
use kifu::{Color, Handicap, PieceKind, Square};
use std::path::{Path, PathBuf};

fn read(path: &Path) -> Result<Record, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let d = decode(&bytes, None).map_err(|e| e.to_string())?;
    let mut v = kif::parse(&d.text).map_err(|e| e.to_string())?;
    if v.len() != 1 {
        return Err(format!("{} records", v.len()));
    }
    Ok(v.remove(0))
}

fn corpus_file(test: &str, rel: &str) -> Record {
    let dir = common::corpus_dir(test);
    read(&dir.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

fn fixture(name: &str) -> Record {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures/kif")
        .join(name);
    read(&p).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn usi_like(line: &Line) -> Vec<String> {
    line.moves
        .iter()
        .map(|m| format!("{:?}", m.notation))
        .collect()
}

fn count_lines(line: &Line) -> usize {
    let mut n = 1;
    let mut stack: Vec<&Line> = vec![line];
    while let Some(l) = stack.pop() {
        for m in &l.moves {
            n += m.variations().len();
            stack.extend(m.variations().iter());
        }
    }
    n
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn every_corpus_kif_file_reads() {
    let dir = common::corpus_dir("every_corpus_kif_file_reads");
    let files = common::files_with_ext(&dir, &["kif", "kifu"]);
    assert!(!files.is_empty());
    let mut failures = Vec::new();
    let (mut moves, mut lines) = (0usize, 0usize);
    for f in &files {
        match read(f) {
            Ok(r) => {
                moves += r.main.moves.len();
                lines += count_lines(&r.main);
            }
            Err(e) => failures.push(format!(
                "{}: {e}",
                f.strip_prefix(&dir).unwrap_or(f).display()
            )),
        }
    }
    common::assert_no_failures(
        &format!(
            "KIF corpus: {} files, {} failed, {moves} main-line moves, {lines} lines of play",
            files.len(),
            failures.len()
        ),
        &failures,
    );
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn foul_win_is_the_terminal_after_27_moves() {
    let r = corpus_file("foul_win", "kif/mog-core-scala/game/017.kif");
    assert_eq!(r.main.moves.len(), 27);
    let e = r.main.ending.as_ref().unwrap();
    assert_eq!(e.kind, EndingKind::FoulByPrevious);
    assert_eq!(e.text, "反則勝ち");
    assert_eq!(r.main.moves.last().unwrap().number, Some(27));
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn dojo_english_time_up() {
    let r = corpus_file("dojo_time_up", "kif/mog-core-scala/game/002.kif");
    assert_eq!(r.main.moves.len(), 193);
    let e = r.main.ending.as_ref().unwrap();
    assert_eq!((e.kind, e.text.as_str()), (EndingKind::TimeUp, "Time-up"));
    assert_eq!(e.time.unwrap().spent_ms, Some(0));
    assert_eq!(r.main.moves[0].time.unwrap().total_ms, None);
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn lying_declaration_gives_the_same_moves_as_the_utf8_twin() {
    let dir = common::corpus_dir("lying_declaration");
    let base = dir.join("mixed/json-kifu-format-fixtures/kif");
    let bytes = std::fs::read(base.join("no_henka.kif")).unwrap();
    let d = decode(&bytes, None).unwrap();
    assert_eq!(d.encoding, encoding_rs::SHIFT_JIS);
    assert!(
        !d.warnings.is_empty(),
        "the false UTF-8 claim should be reported"
    );
    let sjis = read(&base.join("no_henka.kif")).unwrap();
    let utf8 = read(&base.join("no_henka.kifu")).unwrap();
    assert!(!sjis.main.moves.is_empty());
    assert_eq!(usi_like(&sjis.main), usi_like(&utf8.main));
    assert_eq!(sjis.main.ending, utf8.main.ending);
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn mixed_line_endings_and_lance_handicap() {
    let r = corpus_file(
        "kyoochi",
        "mixed/json-kifu-format-fixtures/kif/20081220kyoochi.kif",
    );
    assert_eq!(r.start, StartPosition::Preset(Handicap::Lance));
    assert!(!r.main.moves.is_empty());
    assert_eq!(r.main.moves[0].number, Some(1));
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn corpus_variations_attach_at_their_move() {
    let r = corpus_file(
        "corpus_variations",
        "mixed/json-kifu-format-fixtures/kif/doh_branch.kifu",
    );
    // 変化：3手 replaces move 3 of the main line; its 変化：4手 replaces the
    // variation's own move 4 (同　銀), and opens with 同　飛.
    let v3 = r.main.moves[2].variations();
    assert_eq!(v3.len(), 1);
    assert_eq!(v3[0].moves[0].number, Some(3));
    let v4 = v3[0].moves[1].variations();
    assert_eq!(v4.len(), 1);
    assert!(matches!(
        v4[0].moves[0].notation,
        Notation::Kif {
            dest: Dest::Same,
            piece: PieceKind::Rook,
            ..
        }
    ));
    assert_eq!(v4[0].ending.as_ref().unwrap().kind, EndingKind::Interrupt);
    // KfW Shift_JIS 二枚落ち game with four variations, 上手/下手.
    let r = corpus_file("corpus_variations", "kif/mog-core-scala/game/003.kif");
    assert_eq!(r.start, StartPosition::Preset(Handicap::TwoPieces));
    assert_eq!(count_lines(&r.main), 5);
    assert_eq!(r.main.moves[69].variations().len(), 1);
    assert_eq!(r.main.moves[69].number, Some(70));
}

#[test]
fn fixture_same_square_without_space() {
    let r = fixture("doh-no-space.kif");
    for i in [5, 6] {
        assert!(
            matches!(
                r.main.moves[i].notation,
                Notation::Kif {
                    dest: Dest::Same,
                    ..
                }
            ),
            "{i}"
        );
    }
    assert_eq!(r.main.ending.as_ref().unwrap().kind, EndingKind::Interrupt);
}

#[test]
fn fixture_dojo_times() {
    let r = fixture("dojo-time.kifu");
    let t: Vec<_> = r.main.moves.iter().map(|m| m.time.unwrap()).collect();
    assert_eq!((t[0].spent_ms, t[0].total_ms), (Some(7_000), None));
    assert_eq!((t[1].spent_ms, t[1].total_ms), (Some(12_000), None));
    assert_eq!((t[2].spent_ms, t[2].total_ms), (Some(2_000), Some(9_000)));
    assert_eq!((t[3].spent_ms, t[3].total_ms), (Some(65_000), Some(77_000)));
    assert_eq!(r.main.ending.as_ref().unwrap().kind, EndingKind::TimeUp);
}

#[test]
fn fixture_bod_with_move_count() {
    let r = fixture("bod-move-count.kifu");
    let s = r.start.setup().expect("a shogi start");
    assert_eq!(s.move_number, 12);
    assert_eq!(s.side_to_move, Color::Gote);
    assert_eq!(s.hands[Color::Sente.index()].count(PieceKind::Pawn), 1);
    let rook = s.get(Square::new(2, 6).unwrap()).unwrap();
    assert_eq!((rook.color, rook.kind), (Color::Sente, PieceKind::Rook));
    assert_eq!(r.main.moves.len(), 0);
    assert_eq!(r.main.ending.as_ref().unwrap().kind, EndingKind::Resign);
    assert_eq!(r.header_value(&["先手"]), Some("Alice"));
}

#[test]
fn fixture_uwate_shitate_hands() {
    let r = fixture("uwate-shitate.kifu");
    let s = r.start.setup().expect("a shogi start");
    assert_eq!(s.hands[Color::Gote.index()].count(PieceKind::Knight), 4);
    assert_eq!(s.hands[Color::Sente.index()].count(PieceKind::Lance), 4);
    assert_eq!(s.side_to_move, Color::Sente);
    assert_eq!(r.header_value(&["上手"]), Some("uwate"));
    assert_eq!(r.main.moves.len(), 4);
}

#[test]
fn fixture_header_henka_quirk() {
    let r = fixture("header-henka.kifu");
    assert_eq!(r.notes, vec!["変化：2手"]);
    assert_eq!(r.main.moves.len(), 2);
    assert_eq!(r.main.moves[1].variations().len(), 1);
}

#[test]
fn fixture_nested_variations() {
    let r = fixture("nested-variations.kifu");
    let m = &r.main.moves;
    assert_eq!(m.len(), 4);
    assert_eq!(count_lines(&r.main), 6);
    assert_eq!(m[0].variations().len(), 1); // 変化：1手
    assert_eq!(m[1].variations().len(), 1); // 変化：2手
    assert_eq!(m[2].variations().len(), 1); // 変化：3手 of the main line
    let v3 = &m[2].variations()[0];
    assert_eq!(v3.moves[1].variations().len(), 1); // its 変化：4手
    let v2 = &m[1].variations()[0];
    assert_eq!(v2.moves[1].variations().len(), 1); // 変化：3手 of 変化：2手
    assert!(v2.moves[1].variations()[0].moves[0].variations().is_empty());
}

#[test]
fn fixture_bookmarks() {
    let r = fixture("bookmarks.kifu");
    assert_eq!(r.comments, vec!["開始局面のコメント"]);
    // Before the first move: the start position's; after the ending: kept as a note.
    assert_eq!(r.bookmarks, vec!["開始局面"]);
    assert_eq!(r.notes, vec!["&終局"]);
    assert_eq!(r.main.moves[0].bookmarks(), vec!["しおり１"]);
    assert_eq!(
        r.main.moves[1].bookmarks(),
        vec!["しおり２", "角換わりの形"]
    );
    assert_eq!(r.main.moves[0].comments(), vec!["角道を開けた"]);
}

/// The fast move-line path and the full grammar must read odd lines alike:
/// spans, times, marks and notes are checked through the public parser.
#[test]
fn odd_move_lines_read_as_the_grammar_reads_them() {
    // Every line ends in CRLF; some have trailing spaces or tabs.
    let lines = [
        "手合割：平手",
        "   1 ７六歩(77)   ( 0:01/00:00:01)   ",
        "   2 ３四歩(33)",
        "　 3　2六歩(27)\t( 0:4/)",
        "   4 ８四歩(8４)   (00:31 / 00:00:31)+",
        "   5 ２五歩(26)   ( 0:01:05/01:00:00)#メモ",
        "   6 ８五歩(84)",
        "   7 ７八金(69)",
        "   8 ３二金(41)",
        "   9 ２四歩(25)",
        "  10 同　歩(23)",
        "  11 同飛(28)   ( 0:02/)",
        "  12 ▲８六歩(85)",
        "  13 同 歩(87)",
        "  14 同　飛(82)",
        "  15 ３四飛成(24)",
        "  16 ８七飛不成(86)",
        "  17 ２三歩打",
        "  18 ８八飛生(87)",
        "  19 ２二歩成(23)",
        "  20 投了",
    ];
    let text = lines.map(|l| format!("{l}\r\n")).concat();
    let mut v = kif::parse(&text).unwrap();
    let r = v.remove(0);
    let m = &r.main.moves;
    assert_eq!(m.len(), 19);
    assert_eq!(
        m.iter().map(|m| m.number.unwrap()).collect::<Vec<_>>(),
        (1..=19).collect::<Vec<_>>()
    );
    assert_eq!((m[0].span.line, m[0].span.column), (2, 6));
    assert_eq!(m[0].time.unwrap().total_ms, Some(1_000));
    assert_eq!((m[1].span.column, m[1].time), (6, None));
    // Full-width spaces count one column each.
    assert_eq!(m[2].span.column, 5);
    assert_eq!(
        (m[2].time.unwrap().spent_ms, m[2].time.unwrap().total_ms),
        (Some(4_000), None)
    );
    let kif_of = |i: usize| match &m[i].notation {
        Notation::Kif {
            color,
            dest,
            piece,
            promote,
            from,
            drop,
        } => (*color, *dest, *piece, *promote, *from, *drop),
        other => panic!("{other:?}"),
    };
    let sq = |f, r| Square::new(f, r).unwrap();
    assert_eq!(kif_of(2).1, Dest::Square(sq(2, 6)));
    assert_eq!(kif_of(3).4, Some(sq(8, 4)));
    assert_eq!(m[3].time.unwrap().spent_ms, Some(31_000));
    assert_eq!(m[4].time.unwrap().spent_ms, Some(65_000));
    assert_eq!(r.notes, vec!["#メモ"]);
    for i in [9, 10, 12, 13] {
        assert_eq!(kif_of(i).1, Dest::Same, "{i}");
    }
    assert_eq!(kif_of(11).0, Some(Color::Sente));
    // The span starts after the side mark.
    assert_eq!(m[11].span.column, 7);
    assert_eq!(kif_of(14).3, Some(true));
    assert_eq!(kif_of(15).3, Some(false));
    assert_eq!((kif_of(16).4, kif_of(16).5), (None, true));
    assert_eq!(kif_of(17).3, Some(false));
    assert_eq!((kif_of(18).2, kif_of(18).3), (PieceKind::Pawn, Some(true)));
    assert_eq!(r.main.ending.as_ref().unwrap().kind, EndingKind::Resign);
}

/// Errors on move lines keep their position and wording whichever path
/// looked at the line first.
#[test]
fn move_line_errors_name_the_place_and_what_was_expected() {
    for (line, column, expected) in [
        (
            "   1 ７六犬(77)",
            8,
            "expected a piece name, found \"犬(77)\"",
        ),
        ("   1 ７六歩(77) ( 0:01/", 21, "expected a time such as"),
        (
            "   1 ７六歩(77) junk",
            14,
            "expected the end of the line after the move, found \"junk\"",
        ),
        ("   1 ７六歩(77) ( 0:01/00:00:01)x", 30, "found \"x\""),
        ("   1 ほげ", 6, "terminal word"),
        ("99999999999 ７六歩(77)", 1, "a move number below 2^32"),
    ] {
        let e = kif::parse(&format!("手合割：平手\n{line}\n")).unwrap_err();
        let msg = e.to_string();
        assert_eq!((e.span.line, e.span.column), (2, column), "{line}: {msg}");
        assert!(msg.contains(expected), "{line}: {msg}");
    }
}
