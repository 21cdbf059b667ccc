//! The typed values every reader fills in a `Record`: the closing line, the
//! handicap, evaluations (the PV as notation), GUI evaluations and the
//! header keys, so that no writer, the replay or the report reads text again.

use kifu::parse::parse;
use kifu::record::{Closing, EndingKind, HandicapName, HeaderKey, Notation, Record};
use kifu::{Color, Format, Handicap, PieceKind, Square};

fn one(text: &str, format: Format) -> Record {
    parse(text, format)
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
        .remove(0)
}

fn csa(w: &str) -> Notation {
    Notation::from_csa_word(w).expect("a CSA move")
}

const KIF: &str = "手合割：香落ち\n下手：A\n上手：B\n棋戦：X杯\n手数----指手---------消費時間--\n   1 ３四歩(33)\n** 30 -7776FU\n*#評価値=-158\n*#読み筋=▲７六歩△２二角成(88)\n   2 ７六歩(77)\nまで2手で下手の勝ち\n";
const KI2: &str = "手合割：香落ち\n下手：A\n上手：B\n棋戦：X杯\n△３四歩\n** 30 -7776FU\n*#評価値=-158\n*#読み筋=▲７六歩△２二角成(88)\n▲７六歩\nまで2手で下手の勝ち\n";
const CSA: &str = "N+A\nN-B\n$EVENT:X杯\nPI11KY\n-\n-3334FU\n'** 30 +7776FU\n+7776FU\n'**評価値=-158\n'**読み筋=△２二角成(88)\n%TORYO\n";
const JKF: &str = r##"{"header":{"手合割":"香落ち","下手":"A","上手":"B","棋戦":"X杯"},"initial":{"preset":"KY"},"moves":[{},
{"move":{"color":1,"from":{"x":3,"y":3},"to":{"x":3,"y":4},"piece":"FU"},"comments":["* 30 +7776FU"]},
{"move":{"color":0,"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"},"comments":["#評価値=-158","#読み筋=△２二角成(88)"]}]}"##;
const USI: &str = "position startpos moves 7g7f 3c3d\n";

#[test]
fn kif_and_ki2_readers_fill_the_closing_line() {
    for (text, format) in [(KIF, Format::Kif), (KI2, Format::Ki2)] {
        let r = one(text, format);
        assert_eq!(
            r.closing,
            Some(Closing {
                moves: 2,
                winner: Some(Color::Sente),
                ending: Some(EndingKind::Resign),
                text: "まで2手で下手の勝ち".into(),
            }),
            "{format}"
        );
    }
    // Only the first line that counts moves is the closing line, and a
    // phrase kifu does not know leaves the ending unread.
    let r = one(
        "▲７六歩\nまでの棋譜\nまで1手で先手の妙勝\nまで9手で後手の勝ち\n",
        Format::Ki2,
    );
    let c = r.closing.expect("a closing line");
    assert_eq!((c.moves, c.winner, c.ending), (1, None, None));
    assert_eq!(r.summary.len(), 3);
}

#[test]
fn formats_without_a_closing_line_leave_it_empty() {
    for (text, format) in [(CSA, Format::Csa), (JKF, Format::Jkf), (USI, Format::Usi)] {
        assert_eq!(one(text, format).closing, None, "{format}");
    }
}

#[test]
fn readers_fill_the_handicap_the_header_names() {
    for (text, format) in [(KIF, Format::Kif), (KI2, Format::Ki2), (JKF, Format::Jkf)] {
        let r = one(text, format);
        assert_eq!(
            r.handicap,
            Some(HandicapName::Preset(Handicap::Lance)),
            "{format}"
        );
    }
    let r = one("手合割：両香落ち\n▲７六歩\n", Format::Ki2);
    assert!(matches!(r.handicap, Some(HandicapName::Setup(_))));
    // The first 手合割 is the one named; CSA and USI name none in a header
    // (their start position is the preset).
    // (The start position is the last one's, as before.)
    let r = one("手合割：平手\n手合割：香落ち\n", Format::Kif);
    assert_eq!(r.handicap, Some(HandicapName::Preset(Handicap::Hirate)));
    assert_eq!(
        r.start,
        kifu::record::StartPosition::Preset(Handicap::Lance)
    );
    for (text, format) in [(CSA, Format::Csa), (USI, Format::Usi)] {
        assert_eq!(one(text, format).handicap, None, "{format}");
    }
}

#[test]
fn every_reader_fills_evaluations_with_the_pv_as_notation() {
    for (text, format, reply) in [
        (KIF, Format::Kif, "-7776FU"),
        (KI2, Format::Ki2, "-7776FU"),
        (CSA, Format::Csa, "+7776FU"),
        (JKF, Format::Jkf, "+7776FU"),
    ] {
        let r = one(text, format);
        let e = r.main.moves[0].eval().unwrap_or_else(|| panic!("{format}"));
        assert_eq!(e.score, Some(30), "{format}");
        assert_eq!(e.pv, [csa(reply)], "{format}");
        assert!(e.rest.is_empty(), "{format}");
    }
    let r = one(USI, Format::Usi);
    assert!(r.main.moves.iter().all(|m| m.eval().is_none()));
    let e = one("PI\n+\n+7776FU\n'** 5 +2726FU x -8384FU\n", Format::Csa);
    let e = e.main.moves[0].eval().expect("'** line");
    assert_eq!(
        (e.pv.clone(), e.rest.clone()),
        (vec![csa("+2726FU")], vec!["x".into(), "-8384FU".into()])
    );
    assert_eq!(
        csa("+0055KA"),
        Notation::Csa {
            color: Color::Sente,
            from: None,
            to: Square::new(5, 5).unwrap(),
            piece: PieceKind::Bishop,
        }
    );
}

#[test]
fn every_reader_reads_gui_evaluations_with_the_comments() {
    for (text, format, at, moves) in [
        (KIF, Format::Kif, 0, 2),
        (KI2, Format::Ki2, 0, 2),
        (CSA, Format::Csa, 1, 1),
        (JKF, Format::Jkf, 1, 1),
    ] {
        let r = one(text, format);
        let g = r.main.moves[at]
            .gui_eval()
            .unwrap_or_else(|| panic!("{format}"));
        assert_eq!(g.score, Some(-158), "{format}");
        assert_eq!(g.pv.len(), moves, "{format}");
        let last = g.pv.last().expect("a move");
        // A move with its origin written reads as a KIF move.
        assert_eq!(
            *last,
            Notation::Kif {
                color: Some(Color::Gote),
                dest: kifu::record::Dest::Square(Square::new(2, 2).unwrap()),
                piece: PieceKind::Bishop,
                promote: Some(true),
                from: Square::new(8, 8),
                drop: false,
            },
            "{format}"
        );
        // The comments keep their text.
        assert!(
            r.main.moves[at]
                .comments()
                .iter()
                .any(|c| c.contains("評価値=-158"))
        );
    }
    let r = one("▲７六歩\n*良い手\n", Format::Ki2);
    assert_eq!(r.main.moves[0].gui_eval(), None);
}

#[test]
fn every_reader_gives_header_keys_their_meaning() {
    for (text, format) in [
        (KIF, Format::Kif),
        (KI2, Format::Ki2),
        (CSA, Format::Csa),
        (JKF, Format::Jkf),
    ] {
        let r = one(text, format);
        assert_eq!(r.header_get(&[HeaderKey::Sente]), Some("A"), "{format}");
        assert_eq!(r.header_get(&[HeaderKey::Gote]), Some("B"), "{format}");
        assert_eq!(r.header_get(&[HeaderKey::Event]), Some("X杯"), "{format}");
        assert_eq!(r.header_get(&[HeaderKey::Site]), None, "{format}");
    }
    let r = one("game-1 | position startpos moves 7g7f\n", Format::Usi);
    assert_eq!(r.header.len(), 1);
    let names: Vec<HeaderKey> = r.header.iter().map(|h| h.name()).collect();
    assert!(
        names.iter().all(|n| matches!(n, HeaderKey::Other(_))),
        "{names:?}"
    );
    let r = one("N+A\n$OPENING:矢倉\n$TIME:600+10\nPI\n+\n", Format::Csa);
    let names: Vec<HeaderKey> = r.header.iter().map(|h| h.name()).collect();
    assert_eq!(
        names,
        [HeaderKey::Sente, HeaderKey::Opening, HeaderKey::Time]
    );
}

#[test]
fn header_keys_cross_formats_by_the_table() {
    use kifu::emit::{csa as csa_out, kif as kif_out};
    // The CSA V3.0 names the KIF writer reads back.
    let csa = "N+A\n$TIME+:00:10+0\n$MAX_MOVES:256\n$JISHOGI:24\nPI\n+\n";
    let g = kifu::replay(one(csa, Format::Csa), &Default::default()).expect("replays");
    let (text, _) = kif_out::write(&g);
    for line in [
        "先手：A",
        "先手持ち時間：00:10+0",
        "最大手数：256",
        "持将棋：24",
    ] {
        assert!(text.lines().any(|l| l == line), "{line} in\n{text}");
    }
    let kif = "先手：A\n後手：B\n先手持ち時間：10分\n最大手数：256\n戦型：矢倉\n持ち時間：01:00+30\n表題：T\n手数----指手---------消費時間--\n   1 ７六歩(77)\n";
    let g = kifu::replay(one(kif, Format::Kif), &Default::default()).expect("replays");
    let (text, _) = csa_out::write(&g, &csa_out::CsaOptions::default());
    for line in [
        "N+A",
        "N-B",
        // No V2.2 key: kept as comment lines, as written.
        "'先手持ち時間:10分",
        "'最大手数:256",
        "$OPENING:矢倉",
        "$TIME_LIMIT:01:00+30",
        "'表題:T",
    ] {
        assert!(text.lines().any(|l| l == line), "{line} in\n{text}");
    }
    let back = kifu::replay(one(&text, Format::Csa), &Default::default()).expect("replays");
    let (again, _) = kif_out::write(&back);
    for line in ["先手：A", "後手：B", "戦型：矢倉", "持ち時間：01:00+30"] {
        assert!(again.lines().any(|l| l == line), "{line} in\n{again}");
    }
}
