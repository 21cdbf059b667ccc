//! A board as SVG 1.1: kanji pieces (gote's turned upside down), both
//! hands, the file numbers and rank kanji, and the move the diagram points at.
//!
//! The drawing has no external references and no fonts of its own: the
//! pieces are text in whatever CJK font the viewer has. Each piece on the
//! board is one `<text class="piece">` (a two-kanji name, as chu shogi's
//! pieces have, is stacked in two `<tspan>`s of it); each kind in a hand is
//! one `<text class="hand">` followed, when more than one is held, by a
//! `<text class="count">`. Those classes are what tests count.
//!
//! [`write()`] draws a shogi [`Diagram`]; [`write_drawing`] draws any board of
//! the family up to 12×12 (the variant commands build the [`Drawing`]).

use super::diagram::{Cell, Diagram, Mark, MarkKind};
use crate::notation::{kanji_digit, zenkaku_digit};
use crate::rules::types::Color;
use std::fmt::Write;

/// Square width and height in user units (shogi squares are a little taller than wide).
const W: u32 = 40;
const H: u32 = 44;
/// Left edge of the board.
const X0: u32 = 12;
/// Top edge of the board: a hand row and the file numbers above it.
const Y0: u32 = 64;
const FONT: &str = "'Noto Serif CJK JP','Noto Sans CJK JP','IPAexMincho','IPAMincho','Hiragino Mincho ProN','Yu Mincho',serif";

/// What to write around the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SvgOptions<'a> {
    /// Begin with an XML declaration (a file of its own) rather than the
    /// bare `<svg>` element (to embed in HTML).
    pub standalone: bool,
    /// The sides' names by [`Color::index`]: `先手`/`後手` or `下手`/`上手`.
    pub labels: [&'a str; 2],
}

impl Default for SvgOptions<'_> {
    fn default() -> Self {
        SvgOptions {
            standalone: true,
            labels: [Color::Sente.kanji(), Color::Gote.kanji()],
        }
    }
}

/// One piece to draw: its name (one kanji or more), owner and whether it
/// is promoted (drawn red).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drawn {
    /// The name as the piece shows it: `歩`, or a variant's `獅子`.
    pub name: String,
    /// The owner; gote's pieces are turned half a turn.
    pub color: Color,
    /// Promoted: drawn red.
    pub red: bool,
}

/// A board of any size up to 12×12, ready to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drawing {
    /// Number of files (columns), at most 12.
    pub files: u8,
    /// Number of ranks (rows), at most 12.
    pub ranks: u8,
    /// The pieces, rank by rank from rank 1, each rank from the highest file.
    pub squares: Vec<Option<Drawn>>,
    /// The hands (name and count, in the order to draw them) by
    /// [`Color::index`]; `None` when the game has no drops.
    pub hands: Option<[Vec<(String, u8)>; 2]>,
    /// The side to move.
    pub side_to_move: Color,
    /// The move pointed at.
    pub mark: Mark,
    /// Whether [`Drawing::mark`] was played or is about to be.
    pub mark_kind: MarkKind,
    /// A king to ring.
    pub king: Option<Cell>,
    /// Star points, as `(column line, row line)` counted from the top-left
    /// corner: the lines that bound the promotion zones.
    pub stars: Vec<(u8, u8)>,
}

impl Drawing {
    /// A shogi diagram as a drawing.
    pub fn from_diagram(d: &Diagram) -> Drawing {
        let squares = d
            .squares
            .iter()
            .map(|p| {
                p.map(|p| Drawn {
                    name: p.kind.bod().to_string(),
                    color: p.color,
                    red: p.kind.is_promoted(),
                })
            })
            .collect();
        let hands = d.hands.map(|h| {
            h.iter_canonical()
                .map(|(k, n)| (k.bod().to_string(), n))
                .collect()
        });
        // The four star points of a 9×9 board mark the promotion zones.
        let stars = if d.files == 9 && d.ranks == 9 {
            vec![(3, 3), (6, 3), (3, 6), (6, 6)]
        } else {
            Vec::new()
        };
        Drawing {
            files: d.files,
            ranks: d.ranks,
            squares,
            hands: Some(hands),
            side_to_move: d.side_to_move,
            mark: d.mark,
            mark_kind: d.mark_kind,
            king: d.king,
            stars,
        }
    }

    fn piece(&self, (file, rank): Cell) -> Option<&Drawn> {
        if file == 0 || rank == 0 || file > self.files || rank > self.ranks {
            return None;
        }
        let i = usize::from(rank - 1) * usize::from(self.files) + usize::from(self.files - file);
        self.squares.get(i).and_then(Option::as_ref)
    }
}

/// The diagram as an SVG document (or element, see [`SvgOptions::standalone`]).
pub fn write(d: &Diagram, opts: SvgOptions<'_>) -> String {
    write_drawing(&Drawing::from_diagram(d), opts)
}

/// Any board of the family as an SVG document (or element).
pub fn write_drawing(d: &Drawing, opts: SvgOptions<'_>) -> String {
    let (bw, bh) = (u32::from(d.files) * W, u32::from(d.ranks) * H);
    // Room on the right for the two-kanji ranks 十一 and 十二.
    let wide = 8 * u32::from(d.ranks > 10);
    let (width, height) = (X0 + bw + 30 + wide, Y0 + bh + 50);
    let mut s = String::with_capacity(4096);
    if opts.standalone {
        s.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    }
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"{FONT}\">"
    );
    let _ = writeln!(
        s,
        "<rect x=\"0\" y=\"0\" width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>"
    );
    let _ = writeln!(
        s,
        "<rect x=\"{X0}\" y=\"{Y0}\" width=\"{bw}\" height=\"{bh}\" fill=\"#f2d49b\"/>"
    );
    if d.mark_kind == MarkKind::Last {
        shade_last(&mut s, d);
    }
    grid(&mut s, d);
    coordinates(&mut s, d);
    // Under the pieces: an arrow drawn over them hid the pieces it crosses,
    // the moving piece and the one it lands on among them.
    if d.mark_kind == MarkKind::Next {
        point_at_next(&mut s, d);
    }
    pieces(&mut s, d);
    hand(&mut s, d, Color::Gote, opts.labels, 32);
    hand(&mut s, d, Color::Sente, opts.labels, Y0 + bh + 36);
    if let Some(k) = d.king {
        let (cx, cy) = centre(d, k);
        let _ = writeln!(
            s,
            "<circle class=\"king\" cx=\"{cx}\" cy=\"{cy}\" r=\"19\" fill=\"none\" stroke=\"#d01010\" stroke-width=\"3\"/>"
        );
    }
    s.push_str("</svg>\n");
    s
}

/// Top-left corner of a square: file `files` is the left column, rank 1 the top row.
fn corner(d: &Drawing, (file, rank): Cell) -> (u32, u32) {
    let col = u32::from(d.files.saturating_sub(file));
    let row = u32::from(rank.saturating_sub(1));
    (X0 + col * W, Y0 + row * H)
}

fn centre(d: &Drawing, c: Cell) -> (u32, u32) {
    let (x, y) = corner(d, c);
    (x + W / 2, y + H / 2)
}

fn shade_last(s: &mut String, d: &Drawing) {
    let (origin, dest) = match d.mark {
        Mark::None => return,
        Mark::Move { from, to } => (Some(from), to),
        Mark::Drop(to) => (None, to),
    };
    for (c, fill) in [(origin, "#f7e6b5"), (Some(dest), "#f0b94a")] {
        if let Some(c) = c {
            let (x, y) = corner(d, c);
            let _ = writeln!(
                s,
                "<rect class=\"last\" x=\"{x}\" y=\"{y}\" width=\"{W}\" height=\"{H}\" fill=\"{fill}\"/>"
            );
        }
    }
}

fn grid(s: &mut String, d: &Drawing) {
    let (bw, bh) = (u32::from(d.files) * W, u32::from(d.ranks) * H);
    let mut path = String::new();
    for i in 0..=u32::from(d.files) {
        let _ = write!(path, "M{} {Y0}v{bh}", X0 + i * W);
    }
    for i in 0..=u32::from(d.ranks) {
        let _ = write!(path, "M{X0} {}h{bw}", Y0 + i * H);
    }
    let _ = writeln!(
        s,
        "<path d=\"{path}\" fill=\"none\" stroke=\"#333333\" stroke-width=\"1\"/>"
    );
    let _ = writeln!(
        s,
        "<rect x=\"{X0}\" y=\"{Y0}\" width=\"{bw}\" height=\"{bh}\" fill=\"none\" stroke=\"#333333\" stroke-width=\"2\"/>"
    );
    for &(i, j) in &d.stars {
        let _ = writeln!(
            s,
            "<circle cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"#333333\"/>",
            X0 + u32::from(i) * W,
            Y0 + u32::from(j) * H
        );
    }
}

fn coordinates(s: &mut String, d: &Drawing) {
    s.push_str("<g font-size=\"14\" fill=\"#333333\" text-anchor=\"middle\">\n");
    for file in 1..=d.files {
        let (cx, _) = centre(d, (file, 1));
        let _ = writeln!(
            s,
            "<text class=\"file\" x=\"{cx}\" y=\"{}\">{}</text>",
            Y0 - 6,
            file_label(file)
        );
    }
    for rank in 1..=d.ranks {
        let (_, cy) = centre(d, (1, rank));
        let _ = writeln!(
            s,
            "<text class=\"rank\" x=\"{}\" y=\"{}\">{}</text>",
            X0 + u32::from(d.files) * W + 14 + 8 * u32::from(rank > 10),
            cy + 5,
            rank_label(rank)
        );
    }
    s.push_str("</g>\n");
}

/// `１`…`９`, then `１０`…`１２` (full-width, as the one-digit numbers).
fn file_label(n: u8) -> String {
    if n <= 9 {
        return zenkaku_digit(n).to_string();
    }
    n.to_string()
        .chars()
        .filter_map(|c| char::from_u32(u32::from(c) - u32::from('0') + 0xFF10))
        .collect()
}

/// `一`…`九`, then `十`, `十一`, `十二` (chu shogi's ranks).
fn rank_label(n: u8) -> String {
    match n {
        0..=9 => kanji_digit(n).to_string(),
        10 => "十".into(),
        _ => format!("十{}", kanji_digit(n - 10)),
    }
}

/// A piece's glyph: its name, owner and whether it is promoted (drawn red).
struct Glyph<'a> {
    c: &'a str,
    color: Color,
    red: bool,
}

impl Glyph<'_> {
    /// The attributes that colour the glyph red when promoted and turn it
    /// half a turn about `(cx, cy)` for gote.
    fn paint(&self, (cx, cy): (u32, u32)) -> (&'static str, String) {
        // Black comes from the enclosing group: one attribute fewer a piece.
        let fill = if self.red { " fill=\"#b00000\"" } else { "" };
        // A CJK glyph's ink is centred about 0.38 em above its baseline:
        // with the baseline that far below the centre, turning the glyph
        // about the centre leaves it in place.
        let turn = if self.color == Color::Gote {
            format!(" transform=\"rotate(180 {cx} {cy})\"")
        } else {
            String::new()
        };
        (fill, turn)
    }
}

/// One glyph of `size` centred on `(cx, cy)`, turned half a turn for gote.
fn glyph(s: &mut String, class: &str, g: Glyph<'_>, (cx, cy): (u32, u32), size: u32) {
    let (fill, turn) = g.paint((cx, cy));
    let _ = writeln!(
        s,
        "<text class=\"{class}\" x=\"{cx}\" y=\"{}\"{fill}{turn}>{}</text>",
        cy + size * 38 / 100,
        g.c
    );
}

fn pieces(s: &mut String, d: &Drawing) {
    s.push_str("<g font-size=\"29\" text-anchor=\"middle\" fill=\"#111111\">\n");
    for rank in 1..=d.ranks {
        for file in 1..=d.files {
            if let Some(p) = d.piece((file, rank)) {
                let at = centre(d, (file, rank));
                let g = Glyph {
                    c: &p.name,
                    color: p.color,
                    red: p.red,
                };
                if p.name.chars().nth(1).is_some() {
                    stacked(s, g, at);
                } else {
                    glyph(s, "piece", g, at, 29);
                }
            }
        }
    }
    s.push_str("</g>\n");
}

/// A name of two kanji or more, one above the other in the square (as
/// chu shogi's pieces are written), in one `<text class="piece">`.
fn stacked(s: &mut String, g: Glyph<'_>, (cx, cy): (u32, u32)) {
    let c = g.c;
    let n = c.chars().count() as u32;
    let size = (38 / n).min(18);
    let (fill, turn) = g.paint((cx, cy));
    let _ = write!(
        s,
        "<text class=\"piece\" x=\"{cx}\" y=\"{cy}\" font-size=\"{size}\"{fill}{turn}>"
    );
    // Each kanji's ink centred in its share of the column (see `glyph`).
    let top = cy - size * n / 2;
    for (i, ch) in (0u32..).zip(c.chars()) {
        let y = top + size * i + size / 2 + size * 38 / 100;
        let _ = write!(s, "<tspan x=\"{cx}\" y=\"{y}\">{ch}</tspan>");
    }
    s.push_str("</text>\n");
}

/// A hand in one row at baseline `y`: the side's mark and name, then each
/// kind held (飛 角 金 銀 桂 香 歩) with its count when above one.
fn hand(s: &mut String, d: &Drawing, color: Color, labels: [&str; 2], y: u32) {
    let turn = if d.side_to_move == color {
        "・手番"
    } else {
        ""
    };
    let weight = if d.side_to_move == color {
        " font-weight=\"bold\""
    } else {
        ""
    };
    let _ = writeln!(
        s,
        "<text class=\"side\" x=\"{X0}\" y=\"{y}\" font-size=\"16\" fill=\"#111111\"{weight}>{}{}{turn}</text>",
        color.mark(),
        labels[color.index()]
    );
    let Some(hands) = &d.hands else {
        return;
    };
    s.push_str("<g font-size=\"24\" text-anchor=\"middle\" fill=\"#111111\">\n");
    let mut x = X0 + 118;
    let h = &hands[color.index()];
    for (name, n) in h {
        let (name, n) = (name.as_str(), *n);
        // A longer name is written on, left to right, 24 units a kanji.
        let extra = 12 * (name.chars().count().max(1) as u32 - 1);
        let g = Glyph {
            c: name,
            color,
            red: false,
        };
        glyph(s, "hand", g, (x + extra, y - 8), 24);
        x += 18 + 2 * extra;
        if n > 1 {
            let _ = writeln!(
                s,
                "<text class=\"count\" x=\"{x}\" y=\"{y}\" font-size=\"15\" fill=\"#111111\">{n}</text>"
            );
            x += 10 + 8 * u32::from(n >= 10);
        }
        x += 14;
    }
    if h.is_empty() {
        let _ = writeln!(
            s,
            "<text class=\"none\" x=\"{x}\" y=\"{y}\" font-size=\"15\" fill=\"#666666\">なし</text>"
        );
    }
    s.push_str("</g>\n");
}

/// The move about to be played: an arrow from origin to destination, or a
/// ringed square for a drop.
fn point_at_next(s: &mut String, d: &Drawing) {
    match d.mark {
        Mark::None => {}
        Mark::Drop(to) => {
            let (x, y) = corner(d, to);
            let _ = writeln!(
                s,
                "<rect class=\"drop\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#d01010\" stroke-width=\"4\"/>",
                x + 2,
                y + 2,
                W - 4,
                H - 4
            );
        }
        Mark::Move { from, to } => arrow(s, centre(d, from), centre(d, to)),
    }
}

fn arrow(s: &mut String, (x1, y1): (u32, u32), (x2, y2): (u32, u32)) {
    let (x1, y1, x2, y2) = (f64::from(x1), f64::from(y1), f64::from(x2), f64::from(y2));
    let len = (x2 - x1).hypot(y2 - y1).max(1.0);
    let (ux, uy) = ((x2 - x1) / len, (y2 - y1) / len);
    // The head's base, 16 units back from the tip; the shaft stops there.
    let (bx, by) = (x2 - 16.0 * ux, y2 - 16.0 * uy);
    let (px, py) = (-uy * 8.0, ux * 8.0);
    let _ = writeln!(
        s,
        "<g class=\"arrow\" fill=\"#d01010\" stroke=\"#d01010\" opacity=\"0.85\"><line x1=\"{x1:.1}\" y1=\"{y1:.1}\" x2=\"{bx:.1}\" y2=\"{by:.1}\" stroke-width=\"5\" stroke-linecap=\"round\"/><polygon points=\"{x2:.1},{y2:.1} {:.1},{:.1} {:.1},{:.1}\" stroke-width=\"1\"/></g>",
        bx + px,
        by + py,
        bx - px,
        by - py
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_and_ranks_past_nine_are_labelled_as_chu_shogi_writes_them() {
        assert_eq!(file_label(1), "１");
        assert_eq!(file_label(9), "９");
        assert_eq!(file_label(10), "１０");
        assert_eq!(file_label(12), "１２");
        assert_eq!(rank_label(9), "九");
        assert_eq!(rank_label(10), "十");
        assert_eq!(rank_label(11), "十一");
        assert_eq!(rank_label(12), "十二");
    }

    #[test]
    fn a_two_kanji_name_is_one_piece_stacked_and_turned_for_gote() {
        let mut s = String::new();
        let g = Glyph {
            c: "獅子",
            color: Color::Gote,
            red: false,
        };
        stacked(&mut s, g, (100, 200));
        assert_eq!(s.matches("<text class=\"piece\"").count(), 1, "{s}");
        assert_eq!(s.matches("<tspan").count(), 2, "{s}");
        assert!(s.contains("rotate(180 100 200)"), "{s}");
        // The two kanji sit one above the other, symmetric about the centre
        // (ink centres at 200 ∓ 9, baselines 0.38 em below them).
        assert!(
            s.contains("y=\"197\">獅") && s.contains("y=\"215\">子"),
            "{s}"
        );
    }
}
