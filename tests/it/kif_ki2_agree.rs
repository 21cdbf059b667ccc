//! The KIF and the KI2 reader read the same move text the same way: side
//! marks (`▼`/`▽` too), squares, `同` with every kind of space, origins
//! (`(00)` too) and drops; and where they refuse a move, they name the
//! same expected token at the same character.

use kifu::parse::{ki2, kif};
use kifu::record::{Dest, Notation, Record, Relative};
use kifu::replay::replay;
use kifu::{Color, PieceKind, ReplayOptions, Square};

/// What a move says, whichever reader read it.
#[derive(Debug, PartialEq, Eq)]
struct Said {
    color: Option<Color>,
    dest: Dest,
    piece: PieceKind,
    promote: Option<bool>,
    from: Option<Square>,
    drop: bool,
}

fn said(n: &Notation) -> Said {
    match *n {
        Notation::Kif {
            color,
            dest,
            piece,
            promote,
            from,
            drop,
        } => Said {
            color,
            dest,
            piece,
            promote,
            from,
            drop,
        },
        Notation::Ki2 {
            color,
            dest,
            piece,
            relative,
            promote,
        } => Said {
            color,
            dest,
            piece,
            promote,
            from: None,
            drop: relative.contains(Relative::DROP),
        },
        ref other => panic!("{other:?}"),
    }
}

/// `token` as the only move of a KIF file (`1 ` before it) and of a KI2 file.
fn both(
    token: &str,
) -> (
    Result<Vec<Record>, kifu::ParseError>,
    Result<Vec<Record>, kifu::ParseError>,
) {
    (
        kif::parse(&format!("1 {token}\n")),
        ki2::parse(&format!("{token}\n")),
    )
}

fn first_move(r: Result<Vec<Record>, kifu::ParseError>, token: &str, format: &str) -> Said {
    let records = r.unwrap_or_else(|e| panic!("{format} {token:?}: {e}"));
    said(&records[0].main.moves[0].notation)
}

fn sq(f: u8, r: u8) -> Square {
    Square::new(f, r).unwrap()
}

#[test]
fn kif_and_ki2_read_the_same_move_text_alike() {
    use Color::{Gote, Sente};
    use PieceKind::*;
    let moved = |color, dest, piece, promote, from| Said {
        color: Some(color),
        dest,
        piece,
        promote,
        from: Some(from),
        drop: false,
    };
    let dropped = |color, to, piece| Said {
        color: Some(color),
        dest: Dest::Square(to),
        piece,
        promote: None,
        from: None,
        drop: true,
    };
    let at = |f, r| Dest::Square(sq(f, r));
    let table = [
        ("▲７六歩(77)", moved(Sente, at(7, 6), Pawn, None, sq(7, 7))),
        // The two readings that used to differ: ▼ is sente, ▽ gote...
        ("▼３四歩(33)", moved(Sente, at(3, 4), Pawn, None, sq(3, 3))),
        ("▽３四歩(33)", moved(Gote, at(3, 4), Pawn, None, sq(3, 3))),
        ("☗７六歩(77)", moved(Sente, at(7, 6), Pawn, None, sq(7, 7))),
        ("☖３四歩(33)", moved(Gote, at(3, 4), Pawn, None, sq(3, 3))),
        ("△ ３四歩(33)", moved(Gote, at(3, 4), Pawn, None, sq(3, 3))),
        // ...and (00) is a drop.
        ("▲５五角(00)", dropped(Sente, sq(5, 5), Bishop)),
        ("▲５五角(００)", dropped(Sente, sq(5, 5), Bishop)),
        ("▲５五角打", dropped(Sente, sq(5, 5), Bishop)),
        ("▲５五角打(00)", dropped(Sente, sq(5, 5), Bishop)),
        // 同 and every kind of space after it, or after the piece.
        (
            "▲同　銀(31)",
            moved(Sente, Dest::Same, Silver, None, sq(3, 1)),
        ),
        (
            "▲同銀(31)",
            moved(Sente, Dest::Same, Silver, None, sq(3, 1)),
        ),
        (
            "▲同 銀(31)",
            moved(Sente, Dest::Same, Silver, None, sq(3, 1)),
        ),
        (
            "▲同\t銀(31)",
            moved(Sente, Dest::Same, Silver, None, sq(3, 1)),
        ),
        (
            "▲同　 銀(31)",
            moved(Sente, Dest::Same, Silver, None, sq(3, 1)),
        ),
        (
            "▲同\u{A0}銀(31)",
            moved(Sente, Dest::Same, Silver, None, sq(3, 1)),
        ),
        (
            "▲同銀　(31)",
            moved(Sente, Dest::Same, Silver, None, sq(3, 1)),
        ),
        (
            "▲同銀 成(31)",
            moved(Sente, Dest::Same, Silver, Some(true), sq(3, 1)),
        ),
        // Squares in every digit form, origins in both widths.
        ("▲7六歩(77)", moved(Sente, at(7, 6), Pawn, None, sq(7, 7))),
        ("▲76歩(77)", moved(Sente, at(7, 6), Pawn, None, sq(7, 7))),
        ("▲７６歩(77)", moved(Sente, at(7, 6), Pawn, None, sq(7, 7))),
        (
            "▲７六歩(７７)",
            moved(Sente, at(7, 6), Pawn, None, sq(7, 7)),
        ),
        // Promotion words and promoted names.
        (
            "▲２二角成(88)",
            moved(Sente, at(2, 2), Bishop, Some(true), sq(8, 8)),
        ),
        (
            "▲２二角不成(88)",
            moved(Sente, at(2, 2), Bishop, Some(false), sq(8, 8)),
        ),
        (
            "▲２二角生(88)",
            moved(Sente, at(2, 2), Bishop, Some(false), sq(8, 8)),
        ),
        (
            "▲１二成香(13)",
            moved(Sente, at(1, 2), ProLance, None, sq(1, 3)),
        ),
        (
            "▲１二杏(13)",
            moved(Sente, at(1, 2), ProLance, None, sq(1, 3)),
        ),
        // No origin: the position will tell.
        (
            "▲７六歩",
            Said {
                color: Some(Sente),
                dest: at(7, 6),
                piece: Pawn,
                promote: None,
                from: None,
                drop: false,
            },
        ),
    ];
    for (token, want) in table {
        let (k, t) = both(token);
        assert_eq!(first_move(k, token, "KIF"), want, "KIF {token:?}");
        assert_eq!(first_move(t, token, "KI2"), want, "KI2 {token:?}");
    }
}

#[test]
fn kif_and_ki2_refuse_the_same_move_text_at_the_same_character() {
    // The token, what is expected, and the column (in characters from 1)
    // of the failing character within the token.
    let table = [
        ("▲７六犬(77)", "a piece name", 4),
        ("▲７x歩(77)", "a destination such as ７六 or 同", 2),
        ("▲同", "a piece name", 3),
        ("▲同　 犬", "a piece name", 5),
        (
            "▲同\t銀(50)",
            "an origin such as (77), or (00) for a drop",
            6,
        ),
        (
            "▲５五角(50)",
            "an origin such as (77), or (00) for a drop",
            6,
        ),
        (
            "▲５五角(07)",
            "an origin such as (77), or (00) for a drop",
            6,
        ),
        ("▲５五角打(55)", "(00) or nothing after 打", 6),
        (
            "▲５五角成打",
            "an origin such as (77) or the end of the move",
            6,
        ),
        (
            "▲５五角 成打",
            "an origin such as (77) or the end of the move",
            7,
        ),
    ];
    for (token, expected, column) in table {
        let (k, t) = both(token);
        for (format, r, col) in [("KIF", k, column + 2), ("KI2", t, column)] {
            let e = r.err().unwrap_or_else(|| panic!("{format} {token:?} read"));
            assert!(
                e.message.contains(&format!("expected {expected},")),
                "{format} {token:?}: {}",
                e.message
            );
            assert_eq!((e.span.line, e.span.column), (1, col), "{format} {token:?}");
        }
    }
}

/// ▼ and ▽ name a side in both readers, so the replay holds a KIF file to
/// them as to ▲ and △: right on a move of that side, a foul on the other's.
#[test]
fn downward_marks_are_held_to_the_side_they_name() {
    let opts = ReplayOptions::default();
    for (kif_text, ki2_text) in [
        ("1 ▼７六歩(77)\n2 ▽３四歩(33)\n", "▼７六歩 ▽３四歩\n"),
        ("1 ▲７六歩(77)\n2 ▽３四歩(33)\n", "▲７六歩 ▽３四歩\n"),
    ] {
        for rec in [kif::parse(kif_text), ki2::parse(ki2_text)] {
            let g = replay(rec.unwrap().remove(0), &opts).unwrap();
            assert!(
                g.main.verdict.is_legal(),
                "{kif_text:?}: {:?}",
                g.main.verdict
            );
            assert_eq!(g.main.plies.len(), 2);
        }
    }
    for (kif_text, ki2_text) in [
        ("1 ▽７六歩(77)\n", "▽７六歩\n"),
        ("1 ７六歩(77)\n2 ▼３四歩(33)\n", "▲７六歩 ▼３四歩\n"),
    ] {
        for rec in [kif::parse(kif_text), ki2::parse(ki2_text)] {
            let g = replay(rec.unwrap().remove(0), &opts).unwrap();
            assert!(!g.main.verdict.is_legal(), "{kif_text:?}");
        }
    }
}

/// A drop written `(00)` replays as the drop it names, in both readers.
#[test]
fn a_drop_written_00_replays_as_a_drop() {
    let moves = "▲７六歩(77) △３四歩(33) ▲２二角成(88) △同　銀(31) ▲５五角(00)";
    let kif_text: String = moves
        .split(' ')
        .enumerate()
        .map(|(i, m)| format!("{} {}\n", i + 1, &m[3..]))
        .collect();
    let opts = ReplayOptions::default();
    for rec in [kif::parse(&kif_text), ki2::parse(moves)] {
        let g = replay(rec.unwrap().remove(0), &opts).unwrap();
        assert!(g.main.verdict.is_legal(), "{:?}", g.main.verdict);
        assert_eq!(g.main.plies.last().unwrap().mv.to_usi(), "B*5e");
    }
}

/// A line of white space of any kind is blank to both readers, not a note.
#[test]
fn one_space_for_blank_lines_and_marks_in_both_readers() {
    for blank in ["\u{A0}", "\u{3000}\u{A0}\t", "\u{2003}"] {
        for rec in [
            kif::parse(&format!("先手：A\n{blank}\n1 ７六歩(77)\n")),
            ki2::parse(&format!("先手：A\n{blank}\n▲７六歩\n")),
        ] {
            let rec = rec.unwrap().remove(0);
            assert!(rec.notes.is_empty(), "{blank:?}: {:?}", rec.notes);
            assert_eq!(rec.main.moves.len(), 1, "{blank:?}");
        }
    }
    // A KI2 move in a KIF file is named as one, whatever its mark and the
    // space before it.
    for text in ["\u{A0}▽３四歩", "  ▼７六歩", "\u{3000}☖３四歩"] {
        let e = kif::parse(&format!("1 ７六歩(77)\n{text}\n")).unwrap_err();
        assert!(
            e.message.contains("a KI2-style move"),
            "{text:?}: {}",
            e.message
        );
        assert_eq!((e.span.line, e.span.column), (2, 1), "{text:?}");
    }
}
