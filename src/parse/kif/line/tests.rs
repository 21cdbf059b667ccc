use super::*;
use crate::parse::ja::line_kind::looks_like_move_line;
use crate::record::Dest;
use crate::rules::types::PieceKind::*;
use crate::rules::types::Square;

fn sq(f: u8, r: u8) -> Square {
    Square::new(f, r).unwrap()
}

fn kif(line: &str) -> (Notation, Option<MoveTime>) {
    let m = move_line(line).unwrap_or_else(|e| panic!("{line:?}: {e:?}"));
    match m.body {
        Body::Move(n) => (n, m.time),
        other => panic!("{other:?}"),
    }
}

#[test]
fn plain_move_with_time() {
    let (n, t) = kif("   1 ７六歩(77)   ( 0:01/00:00:01)");
    assert_eq!(
        n,
        Notation::Kif {
            color: None,
            dest: Dest::Square(sq(7, 6)),
            piece: Pawn,
            promote: None,
            from: Some(sq(7, 7)),
            drop: false
        }
    );
    assert_eq!(
        t,
        Some(MoveTime {
            spent_ms: Some(1000),
            total_ms: Some(1000)
        })
    );
}

#[test]
fn same_square_with_and_without_space() {
    for l in [
        "8 同　銀(31)",
        "8 同銀(31) ( 0:01/00:00:02)",
        "8 同銀　(31)",
        "8 同 銀(31)",
    ] {
        let (n, _) = kif(l);
        assert!(
            matches!(
                n,
                Notation::Kif {
                    dest: Dest::Same,
                    piece: Silver,
                    from: Some(_),
                    ..
                }
            ),
            "{l}"
        );
    }
}

#[test]
fn promotions_drops_and_promoted_names() {
    for (l, p) in [
        ("21 ２二角成(88)", Some(true)),
        ("21 ２二角不成(88)", Some(false)),
        ("21 ２二角生(88)", Some(false)),
    ] {
        assert!(
            matches!(kif(l).0, Notation::Kif { promote, .. } if promote == p),
            "{l}"
        );
    }
    assert!(matches!(
        kif("10 ２三歩打").0,
        Notation::Kif {
            drop: true,
            from: None,
            ..
        }
    ));
    assert!(matches!(
        kif("10 ２三歩打(00)").0,
        Notation::Kif { drop: true, .. }
    ));
    for (l, k) in [
        ("3 １二成香(13)", ProLance),
        ("3 １二杏(13)", ProLance),
        ("3 １二圭(13)", ProKnight),
        ("3 １二全(13)", ProSilver),
        ("3 １二竜(13)", Dragon),
        ("3 １二王(13)", King),
        ("3 同　成銀(13)", ProSilver),
    ] {
        assert!(
            matches!(kif(l).0, Notation::Kif { piece, .. } if piece == k),
            "{l}"
        );
    }
    assert!(
        matches!(kif("1 7六歩(77)").0, Notation::Kif { dest: Dest::Square(s), .. } if s == sq(7, 6))
    );
}

#[test]
fn dialect_times() {
    let t = |l| kif(l).1.unwrap();
    assert_eq!(t("1 ７六歩(77) ( 0:4/)").spent_ms, Some(4000));
    assert_eq!(t("1 ７六歩(77) ( 0:4/)").total_ms, None);
    assert_eq!(t("1 ７六歩(77) (0:2/0:0:2)").total_ms, Some(2000));
    assert_eq!(t("1 ７六歩(77) (00:31 / 00:00:31)").spent_ms, Some(31000));
    assert_eq!(t("1 ７六歩(77) ( 0:01:05/01:00:00)").spent_ms, Some(65000));
    assert_eq!(t("1 ７六歩(77) (90:00/1:30:00)").total_ms, Some(5_400_000));
}

#[test]
fn markers_words_and_trailing_notes() {
    let m = move_line("   2 ３四歩(33)   ( 0:02/00:00:02)+").unwrap();
    assert_eq!(m.number, 2);
    let m = move_line(" 194  Time-up   ( 0:0/)").unwrap();
    assert_eq!(m.body, Body::Ending("Time-up".into(), EndingKind::TimeUp));
    assert_eq!(m.time.unwrap().spent_ms, Some(0));
    let m = move_line("   5 投了").unwrap();
    assert_eq!(m.body, Body::Ending("投了".into(), EndingKind::Resign));
    let m = move_line("   1 ８六歩(87)    (00:00 / 00:00:00)#コメント7").unwrap();
    assert_eq!(m.trailing, "#コメント7");
    let m = move_line("  1 ▲７六歩(77)").unwrap();
    assert!(matches!(
        m.body,
        Body::Move(Notation::Kif {
            color: Some(Color::Sente),
            ..
        })
    ));
}

#[test]
fn errors_name_what_was_expected() {
    let e = move_line("   1 ７六犬(77)").unwrap_err();
    assert_eq!(e.label, Some("a piece name"));
    assert_eq!(e.rest, "犬(77)");
    let e = move_line("   1 ほげ").unwrap_err();
    assert!(e.label.unwrap().contains("terminal word"));
    let e = move_line("   1 ７六歩(77) ( 0:01/").unwrap_err();
    assert!(e.label.unwrap().contains("time"));
    assert!(move_line("   1 ７六歩(77) junk").is_err());
    assert!(move_line("99999999999 ７六歩(77)").is_err());
    assert!(looks_like_move_line("  12 ７六歩"));
    assert!(!looks_like_move_line("2024/01/01"));
}

/// Every four-byte head from an alphabet of spaces, digits and their
/// neighbours: the padded reading agrees with the general one, and takes
/// every padded number.
#[test]
fn padded_number_reads_as_number_does() {
    let alphabet = [
        b' ', b'0', b'1', b'5', b'9', b'/', b':', b'\t', b'x', 0x10, 0x7F,
    ];
    let mut taken = 0;
    for &a in &alphabet {
        for &b in &alphabet {
            for &c in &alphabet {
                for &d in &alphabet {
                    let line = [a, b, c, d, b' ', b'x'];
                    let text = std::str::from_utf8(&line).unwrap();
                    if let Ok((rest, n)) = padded_number(text) {
                        taken += 1;
                        let (general, m) = number(spaces0(text).unwrap().0).unwrap();
                        assert_eq!((spaces1(general).unwrap().0, m), (rest, n), "{line:?}");
                    }
                }
            }
        }
    }
    // Digits in the last k places after 4 - k spaces: 4^1 + 4^2 + 4^3 + 4^4.
    assert_eq!(taken, 340);
    assert_eq!(padded_number("1234 x"), Ok(("x", 1234)));
    assert_eq!(padded_number("  07 x"), Ok(("x", 7)));
}

/// The padded clocks read what the general time reads, on the usual shape
/// and on each of its bytes replaced by a neighbour.
#[test]
fn padded_clocks_read_as_time_does() {
    let seed = "   ( 0:52/01:10:59)";
    let mut taken = 0;
    for at in 0..seed.len() {
        for c in [' ', '0', '5', '9', ':', '/', '(', ')', ';', 'A', '?', '　'] {
            let v = format!("{}{c}{}", &seed[..at], &seed[at + 1..]);
            if let Ok((rest, t)) = padded_clocks(&v) {
                taken += 1;
                assert_eq!(rest, "");
                assert_eq!(time(spaces0(&v).unwrap().0), Ok(("", t)), "{v:?}");
            }
        }
    }
    assert!(taken >= 40, "{taken}");
    let t = padded_clocks("(12:05/01:10:00)").unwrap().1;
    assert_eq!(t.spent_ms, Some(725_000));
    assert_eq!(t.total_ms, Some(4_200_000));
    assert!(padded_clocks("   ( 0:52/00:00:52) ").is_err());
    assert!(padded_clocks("(0 :52/00:00:52)").is_err());
}
