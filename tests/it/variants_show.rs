//! `kifu show` on variant records: the SVG board at every board size up to
//! chu shogi's 12×12, the KIF board diagram where the variant has a KIF
//! form, `--ply`, and the board before a foul.

use std::collections::BTreeMap;
use std::process::{Command, Output};

fn kifu(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn write(dir: &tempfile::TempDir, name: &str, body: &str) -> String {
    let p = dir.path().join(name);
    std::fs::write(&p, body).unwrap();
    p.to_string_lossy().into_owned()
}

const CHU_START: &str = "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1";

/// A chu game of 7 plies: sente's lion goes 7j–8h–7g–6f by lion moves.
fn chu_game(d: &tempfile::TempDir) -> String {
    write(
        d,
        "c.usi",
        &format!("position sfen {CHU_START} moves 7j8h 6d6e 8h7g7h 6e6f 7h7g6f 5d5e 6f5e6f\n"),
    )
}

fn attr(line: &str, name: &str) -> Option<u32> {
    let rest = &line[line.find(&format!(" {name}=\""))? + name.len() + 3..];
    rest[..rest.find('"')?].parse().ok()
}

/// The pieces of an SVG board by `(file, rank)`: the name (a stacked
/// name's kanji joined) and whether it is turned (gote's). The board's
/// geometry is the writer's: squares 40×44 from (12, 64).
fn pieces(svg: &str, files: u32) -> BTreeMap<(u32, u32), (String, bool)> {
    let mut m = BTreeMap::new();
    for line in svg
        .lines()
        .filter(|l| l.starts_with("<text class=\"piece\""))
    {
        let (x, y) = (attr(line, "x").unwrap(), attr(line, "y").unwrap());
        let (col, row) = ((x - 12) / 40, (y - 64) / 44);
        let text = line.split_once('>').unwrap().1;
        let name: String = text
            .split('<')
            .filter_map(|t| t.rsplit_once('>').map(|(_, c)| c).or(Some(t)))
            .collect::<String>()
            .chars()
            .filter(|c| !c.is_ascii())
            .collect();
        m.insert((files - col, row + 1), (name, line.contains("rotate(180")));
    }
    m
}

fn count(svg: &str, class: &str) -> usize {
    svg.matches(&format!("class=\"{class}\"")).count()
}

/// The grid's lines: (vertical, horizontal).
fn grid_lines(svg: &str) -> (usize, usize) {
    let path = svg
        .lines()
        .find(|l| l.starts_with("<path d=\"M"))
        .expect("a grid");
    let d = path["<path d=\"".len()..].split('"').next().unwrap();
    (d.matches('v').count(), d.matches('h').count())
}

#[test]
fn chu_svg_has_144_squares_and_the_piece_tables_names_at_known_squares() {
    let d = tempfile::tempdir().unwrap();
    let f = chu_game(&d);
    // Sniffed from the SFEN, as check does: no --variant.
    let svg = stdout(&kifu(&["show", "--to", "svg", "--ply", "0", &f]));
    assert_eq!(grid_lines(&svg), (13, 13), "12×12 squares");
    assert_eq!(count(&svg, "file"), 12);
    assert_eq!(count(&svg, "rank"), 12);
    assert!(svg.contains(">１２</text>"), "file 12 labelled");
    assert!(svg.contains(">十二</text>") && svg.contains(">十一</text>"));
    let p = pieces(&svg, 12);
    assert_eq!(p.len(), 92, "46 pieces a side");
    assert_eq!(p[&(7, 12)], ("玉将".into(), false));
    assert_eq!(p[&(6, 1)], ("玉将".into(), true));
    assert_eq!(p[&(7, 10)], ("獅子".into(), false));
    assert_eq!(p[&(6, 10)], ("奔王".into(), false));
    assert_eq!(p[&(6, 12)], ("酔象".into(), false));
    assert_eq!(p[&(9, 8)], ("仲人".into(), false));
    assert_eq!(p[&(1, 11)], ("反車".into(), false));
    // Chu shogi has no drops: no hands, and no なし for them either.
    assert_eq!(count(&svg, "hand") + count(&svg, "none"), 0);
    // The star points bound the four-rank zones.
    assert_eq!(svg.matches("<circle cx=").count(), 4);
    assert!(svg.contains("<circle cx=\"172\" cy=\"240\""));
}

#[test]
fn variant_show_ply_picks_the_position_and_the_default_is_the_last() {
    let d = tempfile::tempdir().unwrap();
    let f = chu_game(&d);
    let last = stdout(&kifu(&["show", "--to", "svg", &f]));
    let p = pieces(&last, 12);
    assert_eq!(p[&(6, 6)], ("獅子".into(), false));
    assert!(!p.contains_key(&(7, 10)));
    assert!(count(&last, "last") >= 1, "the last move is shaded");
    let one = stdout(&kifu(&["show", "--to", "svg", "--ply", "1", &f]));
    let p = pieces(&one, 12);
    assert_eq!(p[&(8, 8)], ("獅子".into(), false));
    assert!(!p.contains_key(&(6, 6)));
    let o = kifu(&["show", "--to", "svg", "--ply", "8", &f]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("--ply 8: the main line has 7 legal plies"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn chu_bod_is_lishogis_12_rank_diagram_and_reads_back_as_the_position() {
    let d = tempfile::tempdir().unwrap();
    let f = chu_game(&d);
    let o = kifu(&["show", "--ply", "2", &f]);
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let bod = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        bod.starts_with(" １２ １１ １０ ９  ８  ７  ６  ５  ４  ３  ２  １\n+"),
        "{bod}"
    );
    // Gote's pawn has gone 6d6e; sente's lion stands on 8h.
    assert!(
        bod.contains("|  ・  ・  ・ v仲  ・  ・ v歩  ・ v仲  ・  ・  ・|五\n"),
        "{bod}"
    );
    assert!(bod.ends_with("+\n手数＝2\n"), "{bod}");
    // As the start of a chu KIF, the diagram is read back as that position.
    let k = write(&d, "at2.kifu", &bod.replace("手数＝2\n", ""));
    let o = kifu(&["convert", "--to", "usi", &k]);
    let usi = String::from_utf8_lossy(&o.stdout).into_owned();
    let o = kifu(&["convert", "--to", "sfen", &f]);
    let sfens = String::from_utf8_lossy(&o.stdout).into_owned();
    let at2 = sfens.lines().nth(2).unwrap().split('\t').next().unwrap();
    // All but the move number, which a diagram does not hold.
    let (board, _) = at2.rsplit_once(' ').unwrap();
    assert_eq!(usi.trim(), format!("position sfen {board} 1"), "{sfens}");
}

const TORI: &str =
    "position sfen rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR b - 1 moves 3d3c 5d5e\n";

#[test]
fn tori_svg_draws_the_birds_and_both_hands_on_seven_files() {
    let d = tempfile::tempdir().unwrap();
    let f = write(&d, "t.usi", TORI);
    let svg = stdout(&kifu(&[
        "show",
        "--variant",
        "torishogi",
        "--to",
        "svg",
        &f,
    ]));
    assert_eq!(grid_lines(&svg), (8, 8));
    let p = pieces(&svg, 7);
    assert_eq!(p[&(4, 7)], ("鵬".into(), false));
    assert_eq!(p[&(7, 7)], ("左鶉".into(), false));
    assert_eq!(p[&(1, 7)], ("右鶉".into(), false));
    assert_eq!(p[&(1, 1)], ("左鶉".into(), true));
    assert_eq!(p[&(5, 5)], ("燕".into(), true), "gote's swallow took on 5e");
    // Each side took one swallow.
    let hands: Vec<_> = svg
        .lines()
        .filter(|l| l.starts_with("<text class=\"hand\""))
        .collect();
    assert_eq!(hands.len(), 2, "{svg}");
    assert!(hands.iter().all(|l| l.contains(">燕</text>")));
    assert_eq!(
        svg.matches("<circle cx=").count(),
        0,
        "no star points on 7×7"
    );
}

#[test]
fn tori_bod_has_seven_files_and_tells_the_quails_apart() {
    let d = tempfile::tempdir().unwrap();
    let f = write(&d, "t.usi", TORI);
    let bod = stdout(&kifu(&["show", "--variant", "torishogi", &f]));
    let want = "後手の持駒：燕　\n  ７ ６ ５ ４ ３ ２ １\n+---------------------+\n\
|v右v雉v鶴v鵬v鶴v雉v左|一\n| ・ ・ ・v鷹 ・ ・ ・|二\n|v燕v燕v燕v燕 燕v燕v燕|三\n\
| ・ ・ ・ ・ ・ ・ ・|四\n| 燕 燕v燕 燕 燕 燕 燕|五\n| ・ ・ ・ 鷹 ・ ・ ・|六\n\
| 左 雉 鶴 鵬 鶴 雉 右|七\n+---------------------+\n先手の持駒：燕　\n先手番\n\
手数＝2  △５五燕(54)  まで\n";
    assert_eq!(bod, want);
}

#[test]
fn minishogi_kif_shows_as_a_five_file_board_diagram() {
    let d = tempfile::tempdir().unwrap();
    let kif = "先手：a\n後手：b\n手合割：5五将棋\n手数----指手---------消費時間--\n   1 ４四銀(35)\n   2 ２二銀(31)\n";
    let f = write(&d, "m.kifu", kif);
    let bod = stdout(&kifu(&["show", "--ply", "1", &f]));
    assert!(
        bod.starts_with(
            "後手の持駒：なし\n  ５ ４ ３ ２ １\n+---------------+\n|v飛v角v銀v金v玉|一\n"
        ),
        "{bod}"
    );
    assert!(
        bod.contains("| 歩 銀 ・ ・ ・|四\n| 玉 金 ・ 角 飛|五\n"),
        "{bod}"
    );
    assert!(
        bod.ends_with("後手番\n手数＝1  ▲４四銀(35)  まで\n"),
        "{bod}"
    );
    let svg = stdout(&kifu(&["show", "--to", "svg", &f]));
    assert_eq!(grid_lines(&svg), (6, 6));
    assert_eq!(pieces(&svg, 5)[&(2, 2)], ("銀".into(), true));
    // A hand is drawn (empty) where the variant has drops.
    assert_eq!(count(&svg, "none"), 2);
}

#[test]
fn a_variant_foul_shows_the_board_before_the_foul_move() {
    let d = tempfile::tempdir().unwrap();
    // Ply 3: the rook jumps over gote's pawn on 1c.
    let f = write(
        &d,
        "f.usi",
        "position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 5d5c 1b1c 1e1a\n",
    );
    let svg = stdout(&kifu(&["show", "--to", "svg", &f]));
    let p = pieces(&svg, 5);
    assert_eq!(p[&(1, 5)], ("飛".into(), false), "the rook has not moved");
    assert_eq!(p[&(1, 3)], ("歩".into(), true));
    assert_eq!(count(&svg, "arrow"), 1);
    assert_eq!(count(&svg, "last"), 0);
    // The arrow goes from 1e up to 1a, under the pieces.
    assert!(
        svg.contains("<line x1=\"192.0\" y1=\"262.0\" x2=\"192.0\""),
        "{svg}"
    );
    assert!(svg.find("class=\"arrow\"") < svg.find("class=\"piece\""));
    let bod = stdout(&kifu(&["show", &f]));
    assert!(bod.contains("| 歩 ・ ・ ・v歩|三\n"), "{bod}");
    assert!(
        bod.ends_with("手数＝2  △１三歩(12)  まで\n*次の手は反則（駒の動きの反則, bad-movement）：▲１一飛不成(15) (1e1a)\n"),
        "{bod}"
    );
}

#[test]
fn micro_svg_draws_four_files_and_five_ranks_but_has_no_bod() {
    let d = tempfile::tempdir().unwrap();
    let f = write(
        &d,
        "u.usi",
        "position sfen kb+r+l/p3/4/3P/+L+RBK b - 1 moves 1d1c\n",
    );
    let svg = stdout(&kifu(&["show", "--variant", "micro", "--to", "svg", &f]));
    assert_eq!(grid_lines(&svg), (5, 6));
    let p = pieces(&svg, 4);
    assert_eq!(p[&(1, 3)], ("歩".into(), false));
    assert_eq!(p[&(2, 1)], ("金".into(), true), "+R is micro's gold");
    assert!(svg.contains("fill=\"#b00000\""), "promoted pieces are red");
    let o = kifu(&["show", "--variant", "micro", &f]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("no KIF board diagram of micro"));
}

#[test]
fn sho_shows_the_drunk_elephant_and_no_hands() {
    let d = tempfile::tempdir().unwrap();
    let f = write(
        &d,
        "s.usi",
        "position sfen lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL b - 1 moves 7g7f\n",
    );
    let svg = stdout(&kifu(&["show", "--variant", "shoshogi", "--to", "svg", &f]));
    assert_eq!(pieces(&svg, 9)[&(5, 8)], ("酔象".into(), false));
    assert_eq!(count(&svg, "hand") + count(&svg, "none"), 0);
    let bod = stdout(&kifu(&["show", "--variant", "shoshogi", &f]));
    assert!(bod.contains("| ・ 角 ・ ・ 象 ・ ・ 飛 ・|八\n"), "{bod}");
}

#[test]
fn judkins_shows_six_files_with_its_star_points_and_hands() {
    let d = tempfile::tempdir().unwrap();
    // Sniffed from the 6×6 SFEN; sente's bishop takes gote's pawn on 1c.
    let f = write(
        &d,
        "j.usi",
        "position sfen rbnsgk/5p/6/6/P5/KGSNBR b - 1 moves 2f3e 1b1c 3e1c\n",
    );
    let svg = stdout(&kifu(&["show", "--to", "svg", &f]));
    assert_eq!(grid_lines(&svg), (7, 7));
    assert_eq!(svg.matches("<circle cx=").count(), 4);
    assert_eq!(pieces(&svg, 6)[&(1, 3)], ("角".into(), false));
    let hand: Vec<_> = svg
        .lines()
        .filter(|l| l.starts_with("<text class=\"hand\""))
        .collect();
    assert_eq!(hand.len(), 1);
    assert!(hand[0].contains(">歩</text>") && !hand[0].contains("rotate"));
    let bod = stdout(&kifu(&["show", &f]));
    assert!(bod.contains("  ６ ５ ４ ３ ２ １\n"), "{bod}");
    assert!(bod.contains("先手の持駒：歩　\n"), "{bod}");
}

#[test]
fn a_variant_record_on_stdin_is_shown_when_named() {
    let d = tempfile::tempdir().unwrap();
    let f = chu_game(&d);
    let o = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args([
            "show",
            "--variant",
            "chushogi",
            "--to",
            "svg",
            "--ply",
            "0",
            "-",
        ])
        .stdin(std::fs::File::open(&f).unwrap())
        .output()
        .unwrap();
    assert_eq!(pieces(&stdout(&o), 12).len(), 92);
}
