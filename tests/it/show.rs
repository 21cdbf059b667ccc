//! `kifu show`: the BOD reads back to the position shown, and the SVG is
//! XML with one glyph per piece on the board and one per kind in each hand
//! (with its count), from positions whose answer is known.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn kifu(args: &[&str], stdin: Option<&str>) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("kifu runs");
    let mut pipe = child.stdin.take().expect("stdin is piped");
    pipe.write_all(stdin.unwrap_or_default().as_bytes())
        .expect("stdin is written");
    drop(pipe);
    child.wait_with_output().expect("kifu finishes")
}

fn ok(o: &Output) -> String {
    assert!(
        o.status.success(),
        "exit {:?}: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).expect("UTF-8 output")
}

fn record(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

/// The start position of what `text` (a KIF read from stdin) describes, as
/// `convert --to usi` writes it.
fn read_back(text: &str) -> String {
    let usi = ok(&kifu(&["convert", "--to", "usi", "-"], Some(text)));
    usi.trim_end().to_string()
}

#[test]
fn show_bod_reads_back_as_the_position_after_the_ply() {
    let dir = tempfile::tempdir().unwrap();
    let f = record(
        dir.path(),
        "a.usi",
        "position startpos moves 7g7f 3c3d 8h2b+ 3a2b\n",
    );
    let bod = ok(&kifu(&["show", &f, "--ply", "3"], None));
    assert!(bod.contains("先手の持駒：角　\n"), "{bod}");
    assert!(bod.contains("後手番\n手数＝3  ▲２二角成  まで\n"), "{bod}");
    assert_eq!(
        read_back(&bod),
        "position sfen lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4"
    );
    // The default is the last position.
    let last = ok(&kifu(&["show", &f], None));
    assert_eq!(
        read_back(&last),
        "position sfen lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5"
    );
    // Ply 0 is the start position.
    let start = ok(&kifu(&["show", &f, "--ply", "0"], None));
    assert!(start.contains("手数＝0  まで\n"), "{start}");
    assert_eq!(
        read_back(&start),
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    );
}

#[test]
fn show_defaults_to_the_position_before_the_foul_and_names_it() {
    let nifu = ok(&kifu(&["show", "fixtures/usi/nifu.usi"], None));
    assert!(
        nifu.contains("*次の手は反則（二歩, nifu）：▲７六歩打 (P*7f)\n"),
        "{nifu}"
    );
    // Eight legal plies were played; the foul is not.
    assert_eq!(
        read_back(&nifu),
        "position sfen lnsgk1snl/1r4gb1/p1ppppp1p/7R1/1p7/9/PPPPPPP1P/1B7/LNSGKGSNL b Pp 9"
    );
    let too_far = kifu(&["show", "fixtures/usi/nifu.usi", "--ply", "9"], None);
    assert_eq!(too_far.status.code(), Some(2));
    let err = String::from_utf8_lossy(&too_far.stderr);
    assert!(err.contains("8 legal plies (ply 9 is a foul)"), "{err}");
}

#[test]
fn show_bod_of_a_handicap_game_uses_uwate_and_shitate() {
    let dir = tempfile::tempdir().unwrap();
    // 香落ち: gote (上手) moves first.
    let f = record(
        dir.path(),
        "h.usi",
        "position sfen lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1 moves 3c3d 7g7f\n",
    );
    let bod = ok(&kifu(&["show", &f], None));
    assert!(bod.starts_with("上手の持駒：なし\n"), "{bod}");
    assert!(bod.contains("下手の持駒：なし\n上手番\n"), "{bod}");
    assert_eq!(
        read_back(&bod),
        "position sfen lnsgkgsn1/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 3"
    );
}

#[test]
fn show_bod_of_a_bod_start_reads_back() {
    // A tsume-like start from a KIF diagram, then one drop.
    let kif = "後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n\
| ・ ・ ・ ・ ・ ・ ・ ・v玉|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ ・ ・ ・ 歩 ・|三\n\
| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n\
| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n\
+---------------------------+\n先手の持駒：金　\n先手番\n手数----指手--\n   1 １二金打\n";
    let dir = tempfile::tempdir().unwrap();
    let f = record(dir.path(), "t.kifu", kif);
    let bod = ok(&kifu(&["show", &f], None));
    assert!(bod.contains("手数＝1  ▲１二金打  まで\n"), "{bod}");
    assert_eq!(
        read_back(&bod),
        "position sfen 8k/8G/7P1/9/9/9/9/9/4K4 w - 2"
    );
}

/// A `<text>` of an SVG: class, content, turned upside down, x.
type Text = (String, String, bool, f64);

/// Every `<text>` of an SVG as `class<TAB>text<TAB>turned<TAB>x`, from Python's
/// XML parser (strict: a malformed document fails). `None` without python3.
fn svg_texts(svg: &str) -> Option<Vec<Text>> {
    let script = r"
import sys, xml.dom.minidom as m
d = m.parseString(sys.stdin.buffer.read())
r = d.documentElement
assert r.tagName == 'svg' and r.getAttribute('version') == '1.1', r.tagName
assert r.getAttribute('xmlns') == 'http://www.w3.org/2000/svg'
for t in d.getElementsByTagName('text'):
    s = ''.join(n.data for n in t.childNodes if n.nodeType == n.TEXT_NODE)
    turned = t.getAttribute('transform').startswith('rotate(180')
    print('\t'.join([t.getAttribute('class'), s, str(turned), t.getAttribute('x')]))
";
    let child = Command::new("python3")
        .args(["-c", script])
        .env("PYTHONIOENCODING", "utf-8")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: svg XML check: python3 is absent"
        );
        return None;
    };
    child
        .stdin
        .take()
        .unwrap()
        .write_all(svg.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(
        o.status.success(),
        "not well-formed SVG: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    let out = String::from_utf8(o.stdout).unwrap();
    Some(
        out.lines()
            .map(|l| {
                let mut f = l.split('\t');
                let class = f.next().unwrap_or_default().to_string();
                let text = f.next().unwrap_or_default().to_string();
                let turned = f.next() == Some("True");
                let x = f.next().and_then(|x| x.parse().ok()).unwrap_or(f64::NAN);
                (class, text, turned, x)
            })
            .collect(),
    )
}

/// The BOD glyph of an SFEN piece letter (with `+` for promoted).
fn glyph(promoted: bool, letter: char) -> char {
    let plain = "PLNSGBRK".find(letter.to_ascii_uppercase()).unwrap();
    if promoted {
        "と杏圭全?馬龍".chars().nth(plain).unwrap()
    } else {
        "歩香桂銀金角飛玉".chars().nth(plain).unwrap()
    }
}

/// Board pieces `(glyph, gote)` and hand `(glyph, gote, count)` of an SFEN,
/// sorted, to compare with what the SVG holds.
type Pieces = (Vec<(char, bool)>, Vec<(char, bool, u32)>);

fn sfen_pieces(sfen: &str) -> Pieces {
    let mut f = sfen.split(' ');
    let (board, hands) = (f.next().unwrap(), f.nth(1).unwrap());
    let mut on_board = Vec::new();
    let mut promoted = false;
    for c in board.chars() {
        match c {
            '+' => promoted = true,
            c if c.is_ascii_alphabetic() => {
                on_board.push((glyph(promoted, c), c.is_ascii_lowercase()));
                promoted = false;
            }
            _ => {}
        }
    }
    let mut in_hand = Vec::new();
    let mut n = 0;
    for c in hands.chars().filter(|&c| c != '-') {
        if let Some(d) = c.to_digit(10) {
            n = n * 10 + d;
        } else {
            in_hand.push((glyph(false, c), c.is_ascii_lowercase(), n.max(1)));
            n = 0;
        }
    }
    on_board.sort_unstable();
    in_hand.sort_unstable();
    (on_board, in_hand)
}

/// Board pieces and hands as the SVG draws them: a `hand` glyph's count is
/// the `count` text right after it, or 1.
fn svg_pieces(texts: &[Text]) -> Pieces {
    let mut on_board = Vec::new();
    let mut in_hand: Vec<(char, bool, u32)> = Vec::new();
    for (class, text, turned, _) in texts {
        let c = text.chars().next().unwrap_or(' ');
        match class.as_str() {
            "piece" => on_board.push((c, *turned)),
            "hand" => in_hand.push((c, *turned, 1)),
            "count" => {
                in_hand.last_mut().expect("a count follows a hand glyph").2 = text.parse().unwrap()
            }
            _ => {}
        }
    }
    on_board.sort_unstable();
    in_hand.sort_unstable();
    (on_board, in_hand)
}

#[test]
fn show_svg_is_xml_with_one_glyph_per_piece_on_the_board_and_in_hand() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        // Both sides hold a bishop; gote's recapture is the last move.
        (
            "position startpos moves 7g7f 3c3d 8h2b+ 3a2b\n",
            "lnsgkg1nl/1r5s1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL b Bb 5",
        ),
        // Promoted pieces of both sides and hands with counts above nine.
        (
            "position sfen 8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124\n",
            "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
        ),
        (
            "position sfen 4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L9p9P 1\n",
            "4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L9p9P 1",
        ),
    ];
    for (i, (text, sfen)) in cases.iter().enumerate() {
        let f = record(dir.path(), &format!("{i}.usi"), text);
        let svg = ok(&kifu(&["show", &f, "--to", "svg"], None));
        // Self-contained: no links, images, scripts or styles from elsewhere.
        for banned in ["href", "url(", "<image", "<script", "@import"] {
            assert!(!svg.contains(banned), "{banned} in {svg}");
        }
        let Some(texts) = svg_texts(&svg) else {
            return;
        };
        assert_eq!(svg_pieces(&texts), sfen_pieces(sfen), "case {i}: {svg}");
        // The usual coordinates: files ９..１ from left to right, ranks 一..九.
        let mut files: Vec<&Text> = texts.iter().filter(|t| t.0 == "file").collect();
        files.sort_by(|a, b| a.3.total_cmp(&b.3));
        let files: String = files.iter().map(|t| t.1.as_str()).collect();
        assert_eq!(files, "９８７６５４３２１");
        let ranks: String = texts
            .iter()
            .filter(|t| t.0 == "rank")
            .map(|t| t.1.as_str())
            .collect();
        assert_eq!(ranks, "一二三四五六七八九");
    }
}

#[test]
fn show_svg_marks_the_last_move_and_points_at_a_foul() {
    let dir = tempfile::tempdir().unwrap();
    let f = record(dir.path(), "a.usi", "position startpos moves 7g7f\n");
    let svg = ok(&kifu(&["show", &f, "--to", "svg"], None));
    // Origin and destination shaded; nothing drawn as a foul.
    assert_eq!(svg.matches("class=\"last\"").count(), 2, "{svg}");
    assert!(!svg.contains("class=\"arrow\""));
    let nifu = ok(&kifu(
        &["show", "fixtures/usi/nifu.usi", "--to", "svg"],
        None,
    ));
    // A foul drop rings its square; no arrow, no shaded last move.
    assert_eq!(nifu.matches("class=\"drop\"").count(), 1, "{nifu}");
    assert!(!nifu.contains("class=\"last\""));
    let g = record(
        dir.path(),
        "self.usi",
        "position startpos moves 5g5f 5c5d 5f5e 5d5e 5i5h 5e5f 5h5g\n",
    );
    let selfcheck = ok(&kifu(&["show", &g, "--to", "svg"], None));
    assert_eq!(selfcheck.matches("class=\"arrow\"").count(), 1);
    assert_eq!(selfcheck.matches("class=\"king\"").count(), 1);
}

#[test]
fn show_svg_draws_the_foul_arrow_under_the_pieces() {
    let dir = tempfile::tempdir().unwrap();
    // The rook jumps from 2h over both 2nd-file pawns onto the bishop.
    let f = record(
        dir.path(),
        "a.usi",
        "position startpos moves 7g7f 3c3d 2h2b
",
    );
    let svg = ok(&kifu(&["show", &f, "--to", "svg"], None));
    let at = |what: &str| {
        svg.find(what)
            .unwrap_or_else(|| panic!("no {what} in {svg}"))
    };
    // Document order is paint order: what comes later covers what came before.
    let pieces = at("<g font-size=\"29\"");
    assert!(at("class=\"arrow\"") < pieces, "{svg}");
    assert!(
        at("<path d=") < at("class=\"arrow\""),
        "the grid stays under it: {svg}"
    );
    let nifu = ok(&kifu(
        &["show", "fixtures/usi/nifu.usi", "--to", "svg"],
        None,
    ));
    assert!(
        nifu.find("class=\"drop\"").unwrap() < nifu.find("<g font-size=\"29\"").unwrap(),
        "{nifu}"
    );
}

/// A perpetual check is judged on the move that made the fourth
/// occurrence: `show` draws the board before that move and names it, with
/// its own side mark, as the foul; `--ply 12` still shows the board after it.
#[test]
fn show_draws_the_board_before_a_perpetual_checks_move() {
    let f = "fixtures/kif/perpetual-check.kifu";
    let bod = ok(&kifu(&["show", f], None));
    assert!(
        bod.contains(
            "後手番\n手数＝11  ▲５二飛  まで\n*次の手は反則（連続王手の千日手, perpetual-check）：△１一玉 (1b1a)\n"
        ),
        "{bod}"
    );
    // Gote's king still on 1b, sente's rook back on 5b.
    assert_eq!(
        read_back(&bod),
        "position sfen 9/4R3k/9/9/9/9/9/9/4K4 w - 12"
    );
    let after = ok(&kifu(&["show", f, "--ply", "12"], None));
    assert!(
        after.contains("先手番\n手数＝12  △１一玉  まで\n"),
        "{after}"
    );
    assert!(!after.contains("次の手は反則"), "{after}");
    // The SVG points at the move from the board before it: gote to move.
    let svg = ok(&kifu(&["show", f, "--to", "svg"], None));
    assert_eq!(svg.matches("class=\"arrow\"").count(), 1, "{svg}");
    assert!(svg.contains("△後手・手番"), "{svg}");
}

/// `--ply N` prints the evaluation and reading line the move carries, as
/// the ShogiGUI comment kifu reads back, whichever form the record wrote
/// it in; a move without one prints none, and the board still reads back.
#[test]
fn show_ply_prints_the_stored_evaluation_and_pv() {
    let dir = tempfile::tempdir().unwrap();
    let csa = record(
        dir.path(),
        "a.csa",
        "V2.2\nPI\n+\n+7776FU\n'** 30 -3334FU +2726FU\n-3334FU\n+2726FU\n%TORYO\n",
    );
    let bod = ok(&kifu(&["show", &csa, "--ply", "1"], None));
    assert!(
        bod.ends_with("*解析 0 評価値 30 読み筋 △３四歩(33) ▲２六歩(27)\n"),
        "{bod}"
    );
    assert_eq!(
        read_back(&bod),
        "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"
    );
    let none = ok(&kifu(&["show", &csa, "--ply", "2"], None));
    assert!(!none.contains("評価値"), "{none}");
    // A GUI's comment form, with the line starting at the move itself.
    let kif = record(
        dir.path(),
        "b.kifu",
        "手合割：平手\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\n\
         **対局 深さ 2 ノード数 960 評価値 -35 読み筋 △３四歩(33) ▲２六歩(27)\n   3 ２六歩(27)\n",
    );
    let bod = ok(&kifu(&["show", &kif, "--ply", "2"], None));
    assert!(
        bod.ends_with("*解析 0 評価値 -35 読み筋 △３四歩(33) ▲２六歩(27)\n"),
        "{bod}"
    );
}
