use super::*;
use crate::record::{EndingKind, Location, Notation, StartPosition};
use crate::rules::setup::Handicap;
use crate::rules::types::Color;
use crate::rules::types::{PieceKind, Square};

fn one(text: &str) -> Record {
    let mut v = parse(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(v.len(), 1);
    v.remove(0)
}

/// The one record `text` holds, whose main line must have `n` moves.
fn with_moves(text: &str, n: usize) -> Record {
    let r = one(text);
    assert_eq!(r.main.moves.len(), n, "{text:?}");
    r
}

fn err(text: &str) -> ParseError {
    match parse(text) {
        Ok(r) => panic!("expected an error, got {r:?}"),
        Err(e) => e,
    }
}

/// The error `text` gives, whose message must begin `expected {what}`.
fn err_expecting(text: &str, what: &str) -> ParseError {
    let e = err(text);
    assert!(e.message.starts_with(&format!("expected {what}")), "{e}");
    e
}

fn sq(f: u8, r: u8) -> Square {
    Square::new(f, r).unwrap()
}

fn keys(r: &Record) -> Vec<(&str, &str)> {
    r.header
        .iter()
        .map(|h| (h.key.as_str(), h.value.as_str()))
        .collect()
}

#[test]
fn header_fields_keep_file_order_and_unknown_keys() {
    let r = one(
        "V2.2\nN+Alice\nN-Bob\n$EVENT:a,b\n$MY_KEY:x\nPI\n+\n+7776FU\n$END_TIME:2024/04/01 10:25:43\n",
    );
    assert_eq!(
        keys(&r),
        vec![
            ("Version", "2.2"),
            ("N+", "Alice"),
            ("N-", "Bob"),
            ("EVENT", "a,b"),
            ("MY_KEY", "x"),
            ("END_TIME", "2024/04/01 10:25:43"),
        ]
    );
    assert_eq!(r.header[1].span, Location::new(5, 2, 1));
    assert_eq!(r.main.moves.len(), 1);
}

#[test]
fn every_version_is_read_and_v1_needs_none() {
    for v in ["2", "2.1", "2.2", "3.0"] {
        let r = one(&format!("V{v}\nPI\n+\n"));
        assert_eq!(r.header_value(&["Version"]), Some(v));
    }
    let r = one("N+a\nPI\n+\n+7776FU\n");
    assert_eq!(r.header_value(&["Version"]), None);
    assert_eq!(r.start, StartPosition::Preset(Handicap::Hirate));
}

#[test]
fn pi_gives_presets_only_when_it_matches_one() {
    let r = one("PI\n+\n");
    assert_eq!(r.start, StartPosition::Preset(Handicap::Hirate));
    assert_eq!(r.start_span, Some(Location::new(0, 1, 1)));
    let r = one("PI82HI22KA\n-\n");
    assert_eq!(r.start, StartPosition::Preset(Handicap::TwoPieces));
    // Same pieces, but sente to move: no preset says that.
    let r = one("PI82HI22KA\n+\n");
    assert!(matches!(r.start, StartPosition::Setup(_)));
    let e = err_expecting(
        "PI55FU\n+\n",
        "a piece of the even-game position after PI, but FU is not on 55",
    );
    assert_eq!((e.span.line, e.span.column), (1, 1));
}

#[test]
fn rows_build_a_setup_even_with_collapsed_spaces() {
    let text = "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI * * * * * -KA *\n\
                P3-FU-FU-FU-FU-FU-FU-FU-FU-FU\nP4 *  *  *  *  *  *  *  *  * \n\
                P5 *  *  *  *  *  *  *  *  *\nP6 *  *  *  *  *  *  *  *  * \n\
                P7+FU+FU+FU+FU+FU+FU+FU+FU+FU\nP8 * +KA *  *  *  *  * +HI * \n\
                P9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\n";
    let r = one(text);
    // Written out, so a Setup even though it is the even game.
    let StartPosition::Setup(s) = &r.start else {
        panic!("{:?}", r.start)
    };
    assert_eq!(s.preset(), Some(Handicap::Hirate));
    let e = err_expecting("P1-KY-KE-GI-KI-OU-KI-GI-KE\n+\n", "a cell");
    assert_eq!((e.span.line, e.span.column), (1, 27));
}

#[test]
fn piece_lines_place_pieces_and_00al_gives_the_rest() {
    let r = one("P-11OU\nP+13FU23KI\nP+00KI00FU\nP-00AL\nP+\n+\n");
    let s = r.start.setup().expect("a shogi start");
    assert_eq!(s.sfen_key(), "8k/9/7GP/9/9/9/9/9/9 b GP2r2b2g4s4n4l16p");
    err_expecting("P+00OU\n+\n", "an unpromoted piece other than OU in hand");
    let e = err("P+13F\n+\n");
    assert_eq!(e.span.column, 3);
}

#[test]
fn moves_times_and_commas() {
    let r = with_moves("PI\n+\n+7776FU,T12,-3334FU,T6\n+0055KA\nT3.5\n-8822UM\n", 4);
    let m = &r.main.moves;
    assert_eq!(
        m[0].notation,
        Notation::Csa {
            color: Color::Sente,
            from: Some(sq(7, 7)),
            to: sq(7, 6),
            piece: PieceKind::Pawn
        }
    );
    assert_eq!(m[1].span, Location::new(17, 3, 13));
    assert_eq!(m[1].time.and_then(|t| t.spent_ms), Some(6_000));
    assert!(matches!(
        m[2].notation,
        Notation::Csa {
            from: None,
            piece: PieceKind::Bishop,
            ..
        }
    ));
    assert_eq!(m[2].time.and_then(|t| t.spent_ms), Some(3_500));
    assert_eq!(m[3].time, None);
    // Syntax only: a move from an empty square is fine here.
    assert_eq!(one("PI\n+\n+5554FU\n").main.moves.len(), 1);
    // Trailing spaces and a comma-joined comment (WCSC relay logs).
    let r = one("PI\n+\n-9394FU  ,T19      ,'T302    ,'9394   ,'\n");
    assert_eq!(r.main.moves[0].time.and_then(|t| t.spent_ms), Some(19_000));
    assert_eq!(r.notes, vec!["'T302    ,'9394   ,'".to_string()]);
}

#[test]
fn millisecond_times() {
    let r = one("V3.0\nPI\n+\n+7776FU,T0.001\n-3334FU,T12.3456\n");
    let t: Vec<_> = r
        .main
        .moves
        .iter()
        .map(|m| m.time.and_then(|t| t.spent_ms))
        .collect();
    assert_eq!(t, vec![Some(1), Some(12_345)]);
}

#[test]
fn every_special_word_is_an_ending() {
    for &(word, kind) in EndingKind::csa_words() {
        let r = one(&format!("PI\n+\n+7776FU\n%{word},T7\n"));
        let e = r.main.ending.expect(word);
        assert_eq!(e.kind, kind);
        assert_eq!(e.text, format!("%{word}"));
        assert_eq!(e.span, Location::new(13, 4, 1));
        assert_eq!(e.time.and_then(|t| t.spent_ms), Some(7_000));
    }
    let r = one("PI\n+\n%REP_SUP\nT1\n");
    assert_eq!(r.main.ending, None);
    assert_eq!(r.notes, vec!["%REP_SUP".to_string(), "T1".to_string()]);
}

#[test]
fn text_after_the_ending_goes_to_notes() {
    let r = one(
        "PI\n+\n+7776FU\n%KACHI,'* -5000 win\nT10\n%KACHI\n-3334FU\n'summary:kachi:a win:b lose\n",
    );
    let e = r.main.ending.as_ref().unwrap();
    assert_eq!(e.comments, vec![" -5000 win".to_string()]);
    assert_eq!(e.time.and_then(|t| t.spent_ms), Some(10_000));
    assert_eq!(r.main.moves.len(), 1);
    assert_eq!(
        r.notes,
        vec!["%KACHI", "-3334FU", "'summary:kachi:a win:b lose"]
    );
}

#[test]
fn comments_notes_and_evaluations() {
    let text = "'CSA encoding=UTF-8\nV3.0\n'a note, with a comma\nPI\n+\n'*start\n\
                +7776FU\nT1\n'*first\n'*second\n'** 30 -3334FU +2726FU #1234\n\
                -3334FU\n'** -35 +2726FU-8384FU+2625F\n'** 9\n";
    let r = one(text);
    assert_eq!(r.header_value(&["Encoding"]), Some("UTF-8"));
    assert_eq!(r.comments, vec!["start"]);
    assert_eq!(r.notes, vec!["'a note, with a comma", "'** 9"]);
    let m = &r.main.moves;
    assert_eq!(m[0].comments(), ["first", "second"]);
    let e = m[0].eval().unwrap();
    assert_eq!(e.score, Some(30));
    let words = |e: &crate::record::Evaluation| {
        let mut s = String::new();
        e.write_floodgate(&mut s);
        s
    };
    assert_eq!((e.pv.len(), &e.rest[..]), (2, &["#1234".to_string()][..]));
    assert_eq!(words(e), " 30 -3334FU +2726FU #1234");
    // GPS logs run PV moves together; a cut-off last move stays as written.
    let e = m[1].eval().unwrap();
    assert_eq!((e.pv.len(), &e.rest[..]), (2, &["+2625F".to_string()][..]));
    assert_eq!(words(e), " -35 +2726FU -8384FU +2625F");
    // A `'**` line that lost its quote (wcsc23/day2/4-ponanza.csa).
    let r = one("PI\n+\n+7776FU\n** 12 -3334FU\n");
    assert_eq!(r.main.moves[0].eval().and_then(|e| e.score), Some(12));
}

#[test]
fn games_are_split_on_slash_lines() {
    let r =
        parse("V2.2\nPI\n+\n+7776FU\n%TORYO\n/\n\nPI\n+\n/\n/\nPI82HI22KA\n-\n-6152KI\n").unwrap();
    assert_eq!(r.len(), 3);
    assert_eq!(r.iter().map(|g| g.index).collect::<Vec<_>>(), vec![0, 1, 2]);
    assert_eq!(r[1].span.line, 8);
    assert_eq!(r[2].span.line, 12);
    assert!(
        r.iter()
            .all(|g| g.header_value(&["Version"]) == Some("2.2"))
    );
    assert_eq!(r[2].start, StartPosition::Preset(Handicap::TwoPieces));
    let r = parse("V2.2\nPI\n+\n/\nV2.2\nPI\n+\n").unwrap();
    assert_eq!(keys(&r[1]), vec![("Version", "2.2")]);
    assert_eq!(r[1].header[0].span.line, 5);
}

#[test]
fn bom_crlf_and_blank_lines() {
    let r = one("\u{feff}V2.2\r\n\r\nPI\r\n+\r\n+7776FU\r\n");
    assert_eq!(r.main.moves[0].span, Location::new(18, 5, 1));
}

#[test]
fn malformed_move_says_where_and_what_was_expected() {
    let e = err_expecting("PI\n+\n+7776FU\n-33x4FU\n", "a destination square");
    assert_eq!((e.span.line, e.span.column), (4, 4));
    let e = err("PI\n+\n+7776FU,-3334XX\n");
    assert_eq!((e.span.line, e.span.column, e.span.offset), (3, 14, 18));
    assert_eq!(e.message, "expected a piece code such as FU, found 'X'");
    let e = err_expecting("PI\n+\n+x776FU\n", "an origin square");
    assert_eq!((e.span.line, e.span.column), (3, 2));
    err_expecting("PI\n+\n+7776FUU\n", "the end of the move");
    let e = err("PI\n+\nT1x\n");
    assert_eq!(e.span.column, 3);
    err_expecting("PI\n+\n+7776FU\n%toryo\n", "a special move word");
    err_expecting("PI\n+\n７六歩\n", "a CSA statement");
    err_expecting("$EVENT\n", "a key and ':' such as $EVENT:");
    let e = err("PI\n+\nP+00FU\n");
    assert!(e.message.contains("after the side-to-move line"), "{e}");
    let e = err("\n\n");
    assert_eq!(e.span.line, 1);
}

#[test]
fn never_panics_on_odd_input() {
    let alphabet: Vec<char> = "+-0123456789PINTV%$'*/,.: \n\r\tFUOUALKA歩\u{feff}"
        .chars()
        .collect();
    let mut seed = 0x2545_f491_u64;
    for _ in 0..3000 {
        let len = (seed % 40) as usize;
        let s: String = (0..len)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                alphabet[(seed % alphabet.len() as u64) as usize]
            })
            .collect();
        let _ = parse(&s);
        let _ = sniff(&s);
    }
    for s in [
        "T99999999999999999999",
        "T18446744073709551.999",
        "P",
        "P+00",
        "+",
        "-",
        "%",
        "'",
        "**",
    ] {
        let _ = parse(&format!("PI\n+\n+7776FU\n{s}\n"));
    }
}

#[test]
fn sniff_recognises_csa_and_rejects_others() {
    for yes in [
        "V2.2\nPI\n+\n",
        "'comment\n\nN+Alice\n",
        "PI\n+\n",
        "P1-KY-KE\n",
        "$EVENT:x\n",
        "+7776FU,T1\n",
        "'CSA encoding=UTF-8\nV3.0\n",
    ] {
        assert!(sniff(yes), "{yes:?}");
    }
    for no in [
        "#KIF version=2.0\n先手：a\n",
        "手合割：平手\n",
        "position startpos moves 7g7f\n",
        "{\"header\":{}}",
        "▲７六歩 △３四歩\n",
        "'only a comment\n",
        "",
    ] {
        assert!(!sniff(no), "{no:?}");
    }
}

#[test]
fn file_fields_pass_to_later_games_in_their_first_places() {
    let text = "'CSA encoding=UTF-8\nV3.0\nPI\n+\n/\nN+a\nV2.2\nPI\n+\n/\n\
                $Version:x\nV2.1\nPI\n+\n/\nPI\n+\n";
    let games = parse(text).unwrap();
    let heads: Vec<Vec<(&str, &str)>> = games.iter().map(keys).collect();
    assert_eq!(
        heads,
        vec![
            vec![("Encoding", "UTF-8"), ("Version", "3.0")],
            vec![("Encoding", "UTF-8"), ("Version", "2.2"), ("N+", "a")],
            vec![("Encoding", "UTF-8"), ("Version", "2.1"), ("Version", "x")],
            vec![("Encoding", "UTF-8"), ("Version", "2.1")],
        ]
    );
    assert_eq!(games[3].header[1].span.line, 12);
    assert_eq!(games[3].header[0].span.line, 1);
    let indices: Vec<usize> = games.iter().map(|g| g.index).collect();
    assert_eq!(indices, vec![0, 1, 2, 3]);
}

#[test]
fn a_failed_game_still_passes_on_the_fields_it_wrote() {
    let text = "V2.2\nPI\n+\n/\nV3.0\nPI\n+\n+7776XX\n/\n\n/\nPI\n+\n";
    let each = parse_each(text);
    assert_eq!(each.len(), 3);
    assert_eq!(each[1].0, 1);
    assert!(each[1].1.is_err());
    let last = each[2].1.as_ref().unwrap();
    assert_eq!(last.index, 2);
    assert_eq!(keys(last), vec![("Version", "3.0")]);
    assert_eq!(last.header[0].span.line, 5);
}

/// The cut as it was first written: a walk over every line.
fn split_by_lines(text: &str) -> Vec<GameText<'_>> {
    let mut ls = lines(text).peekable();
    let mut out = Vec::new();
    loop {
        let first = ls.peek().copied();
        let (offset, line) = first.map_or((text.len(), 0), |l| (l.offset, l.number));
        let mut end = offset;
        let mut done = false;
        loop {
            match ls.next() {
                None => {
                    done = true;
                    break;
                }
                Some(l) if l.text.trim_ascii() == "/" => break,
                Some(l) => end = l.offset + l.text.len(),
            }
        }
        out.push(GameText {
            offset,
            line: line.max(1),
            text: &text[offset..end.max(offset)],
        });
        if done {
            return out;
        }
    }
}

#[test]
fn split_games_cuts_as_a_walk_over_every_line_does() {
    let pieces = [
        "/", " / ", "\t/\x0c", "//", "a/", "+7776FU", "'a/b", "", " ", "x", "\u{feff}", "歩/",
    ];
    let ends = ["\n", "\r", "\r\n", ""];
    let mut seed = 11u32;
    let mut next = |n: usize| {
        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
        (seed >> 16) as usize % n
    };
    for _ in 0..20_000 {
        let mut text = String::new();
        // Some texts run past the 64-byte chunks the `/` search reads.
        let long = if next(4) == 0 { 40 } else { 0 };
        for _ in 0..next(7) + long {
            text.push_str(pieces[next(pieces.len())]);
            text.push_str(ends[next(ends.len())]);
        }
        let got: Vec<GameText<'_>> = split_games(&text).collect();
        assert_eq!(got, split_by_lines(&text), "{text:?}");
    }
}

#[test]
fn moves_and_times_keep_spans_and_errors_under_every_line_end() {
    let r = with_moves(
        "PI\r\n+\r\n+7776FU\r\nT12\r-3334FU\nT1.5\n+2726FU\nT3\nT4\n-8384FU",
        4,
    );
    let m = &r.main.moves;
    assert_eq!(
        (m[1].span.line, m[1].span.offset, m[1].span.column),
        (5, 20, 1)
    );
    assert_eq!(m[1].time.and_then(|t| t.spent_ms), Some(1500));
    assert_eq!(m[2].time.and_then(|t| t.spent_ms), Some(3000));
    assert_eq!(r.notes, ["T4"]);
    assert_eq!((m[3].span.line, m[3].time), (10, None));
    let e = err_expecting("PI\n+\n+7776FU\nT12\n+7776FX\n", "a piece code");
    assert_eq!((e.span.line, e.span.column), (5, 6));
}

#[test]
fn every_move_of_a_long_game_is_read_with_its_squares_piece_and_time() {
    // Every origin (drops too) and destination, each piece code, both signs,
    // with and without times, under every line end.
    let codes = [
        "FU", "KY", "KE", "GI", "KI", "KA", "HI", "OU", "TO", "NY", "NK", "NG", "UM", "RY",
    ];
    for end in ["\n", "\r\n", "\r"] {
        let mut text = format!("PI{end}+{end}");
        let mut want = Vec::new();
        let mut n = 0usize;
        for from in (0..=0).chain(11..=99).filter(|f| f % 10 != 0 || *f == 0) {
            for to in (11..=99).filter(|t| t % 10 != 0) {
                let color = if n.is_multiple_of(2) {
                    Color::Sente
                } else {
                    Color::Gote
                };
                let code = codes[n % codes.len()];
                text.push_str(&format!("{}{from:02}{to:02}{code}{end}", color.csa_sign()));
                let time = (!n.is_multiple_of(3)).then(|| {
                    text.push_str(&format!("T{}{end}", n % 1000));
                    (n % 1000) as u64 * 1000
                });
                let notation = Notation::Csa {
                    color,
                    from: (from != 0).then(|| sq(from / 10, from % 10)),
                    to: sq(to / 10, to % 10),
                    piece: PieceKind::from_csa(code.as_bytes()).unwrap(),
                };
                want.push((notation, time));
                n += 1;
            }
        }
        let r = one(&text);
        let got: Vec<_> = r
            .main
            .moves
            .iter()
            .map(|m| (m.notation.clone(), m.time.and_then(|t| t.spent_ms)))
            .collect();
        assert_eq!(got.len(), 82 * 81);
        assert_eq!(got, want);
    }
}

#[test]
fn each_game_starts_with_the_file_fields_written_so_far_then_its_own() {
    // Games that write the file fields (and `$` fields of the same keys) in
    // any order, some failing after them: every game's header is the file
    // fields as the lines so far last wrote them (each key once, in the
    // order first written, failed games included), then its own fields.
    let lines = [
        "V2.2",
        "V3.0",
        "'CSA encoding=UTF-8",
        "'CSA encoding=SJIS",
        "$Version:x",
        "$Encoding:y",
        "N+a",
        "'note",
    ];
    let mut rng = crate::test_rng::xorshift(0x6a09_e667);
    for _ in 0..300 {
        let mut text = String::new();
        let mut want = Vec::new();
        let mut file: Vec<(&str, &str)> = Vec::new();
        for g in 0..1 + rng() % 5 {
            if g > 0 {
                text.push_str("/\n");
            }
            let mut own = Vec::new();
            for _ in 0..rng() % 5 {
                let l = lines[(rng() % lines.len() as u64) as usize];
                text.push_str(l);
                text.push('\n');
                let field = match l.split_once(['V', '=', ':', '+']) {
                    Some(("", v)) => Some(("Version", v)),
                    Some(("'CSA encoding", v)) => Some(("Encoding", v)),
                    _ => None,
                };
                match (field, l.split_once(':')) {
                    (Some((k, v)), _) => match file.iter_mut().find(|f| f.0 == k) {
                        Some(f) => f.1 = v,
                        None => file.push((k, v)),
                    },
                    (None, Some((k, v))) => own.push((&k[1..], v)),
                    (None, None) if l == "N+a" => own.push(("N+", "a")),
                    (None, None) => {}
                }
            }
            let (tail, ok) = match rng() % 3 {
                0 => ("PI\n+\n+7776FU\nT1\n", true),
                1 => ("PI\n+\n+7776FX\n", false),
                _ => ("+7776FU\n", true),
            };
            text.push_str(tail);
            want.push(ok.then(|| [file.clone(), own].concat()));
        }
        let each = parse_each(&text);
        let got: Vec<_> = each
            .iter()
            .map(|(_, r)| r.as_ref().ok().map(|r| keys(r)))
            .collect();
        assert_eq!(got, want, "{text:?}");
    }
}

#[test]
fn a_move_list_sized_from_the_text_length_keeps_no_large_excess() {
    // Long comments make the length-based guess far too large.
    let mut text = String::from("PI\n+\n");
    for _ in 0..10 {
        text.push_str("+7776FU\n'*");
        text.push_str(&"x".repeat(500));
        text.push('\n');
    }
    let r = one(&text);
    assert_eq!(r.main.moves.len(), 10);
    assert!(r.main.moves.capacity() <= 36, "{}", r.main.moves.capacity());
    // A record that is nearly all moves and times is sized once, closely.
    let mut text = String::from("PI\n+\n");
    for _ in 0..300 {
        text.push_str("+7776FU\nT12\n");
    }
    let r = one(&text);
    assert_eq!(r.main.moves.len(), 300);
    assert!(r.main.moves.capacity() <= 2 * 300 + 16);
}

fn codes(r: &Record) -> Vec<&str> {
    r.notices.iter().map(|n| n.code.code()).collect()
}

/// The one record `text` holds, with a single notice: `code`, on line 2.
fn noticed_on_line_2(text: &str, code: &str) -> Record {
    let r = one(text);
    assert_eq!(codes(&r), [code]);
    assert_eq!(r.notices[0].span.line, 2);
    r
}

#[test]
fn no_position_at_all_reads_as_the_even_game_start_with_a_notice() {
    let r = noticed_on_line_2("V2.2\n+\n+7776FU,T0\n-3334FU,T0\n%TORYO\n", "start-assumed");
    assert_eq!(r.start, StartPosition::Preset(Handicap::Hirate));
    assert_eq!(r.main.moves.len(), 2);
    // A gote side line keeps its side on the even-game board.
    let r = one("-\n-3334FU\n");
    let StartPosition::Setup(s) = &r.start else {
        panic!("{:?}", r.start)
    };
    assert_eq!(s.side_to_move, Color::Gote);
    assert_eq!(s.preset(), None);
    // A written position is never assumed.
    assert!(codes(&one("PI\n+\n+7776FU\n")).is_empty());
}

#[test]
fn a_missing_side_line_is_taken_from_the_first_move_with_a_notice() {
    let r = noticed_on_line_2("PI\n-3334FU\n+7776FU\n%TORYO\n", "no-side-to-move");
    assert!(
        r.notices[0].message.contains("gote to move"),
        "{:?}",
        r.notices
    );
    assert_eq!(r.start.setup().unwrap().side_to_move, Color::Gote);
    assert_eq!(r.main.moves.len(), 2);
    assert!(r.main.ending.is_some());
    // Nothing after the position: sente, said too.
    assert_eq!(codes(&one("PI\n")), ["no-side-to-move"]);
    assert_eq!(codes(&one("PI\n%TORYO\n")), ["no-side-to-move"]);
}

#[test]
fn game_information_after_the_position_is_noticed_once() {
    let r = noticed_on_line_2(
        "PI\nN+a\n+\n+7776FU\n$EVENT:e\n$END_TIME:2024/04/01\n",
        "info-after-position",
    );
    assert_eq!(
        keys(&r),
        [("N+", "a"), ("EVENT", "e"), ("END_TIME", "2024/04/01")]
    );
    // A relay's `$END_TIME` after the moves is where it belongs.
    assert!(codes(&one("N+a\nPI\n+\n+7776FU\n$END_TIME:2024/04/01\n")).is_empty());
}

#[test]
fn a_bare_version_line_is_a_notice_and_reading_goes_on() {
    let text = "V\nPI\n+\n+7776FU\n";
    assert!(sniff(text));
    let r = one(text);
    assert_eq!(codes(&r), ["bare-version"]);
    assert_eq!(r.notes, ["V"]);
    assert!(keys(&r).is_empty());
    assert_eq!(r.main.moves.len(), 1);
}

#[test]
fn piece_codes_are_the_ones_piece_kinds_write() {
    for kind in PieceKind::ALL {
        assert_eq!(
            PieceKind::from_csa(kind.csa().as_bytes()),
            Some(kind),
            "{kind:?}"
        );
    }
    for code in [&b"fu"[..], b"F ", b"AL", b"\0\0", b"F", b"FUU", b""] {
        assert_eq!(PieceKind::from_csa(code), None, "{code:?}");
    }
}

#[test]
fn times_past_the_millisecond_or_u64_are_cut_or_refused() {
    use syntax::{Statement, statement};
    assert_eq!(statement("T0.0019"), Ok(Statement::Time(1)));
    assert_eq!(statement("T12"), Ok(Statement::Time(12_000)));
    let s = "T99999999999999999999";
    let e = statement(s).unwrap_err();
    assert_eq!(e.offset(s), 1);
    assert_eq!(
        e.message(s),
        "expected seconds such as T12 or T12.345, found '9'"
    );
}

#[test]
fn a_comma_statement_after_an_ideographic_space_starts_past_it() {
    // U+3000 is trimmed from a comma-separated statement, as ASCII blanks
    // are: its span and its errors' columns count from past it.
    let r = one("PI\n+\n+7776FU,\u{3000}-3334FU\n");
    assert_eq!(r.main.moves[1].span, Location::new(16, 3, 10));
    let e = err("PI\n+\n+7776FU,\u{3000}-3334XX\n");
    assert_eq!((e.span.line, e.span.column, e.span.offset), (3, 15, 21));
    let r = one("PI\n+\n+7776FU,\u{3000}'*a note\n");
    assert_eq!(r.main.moves[0].comments(), ["a note".to_string()]);
}
