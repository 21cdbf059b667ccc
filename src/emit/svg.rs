//! A board as SVG 1.1: kanji pieces (gote's turned upside down), both
//! hands, the 9–1 / 一–九 coordinates and the move the diagram points at.
//!
//! The drawing has no external references and no fonts of its own: the
//! pieces are text in whatever CJK font the viewer has. Each piece on the
//! board is one `<text class="piece">`; each kind in a hand is one
//! `<text class="hand">` followed, when more than one is held, by a
//! `<text class="count">`. Those classes are what tests count.

use super::diagram::{Cell, Diagram, Mark, MarkKind};
use crate::rules::types::{Color, kanji_digit, zenkaku_digit};
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

/// The diagram as an SVG document (or element, see [`SvgOptions::standalone`]).
pub fn write(d: &Diagram, opts: SvgOptions<'_>) -> String {
    let (bw, bh) = (u32::from(d.files) * W, u32::from(d.ranks) * H);
    let (width, height) = (X0 + bw + 30, Y0 + bh + 50);
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
fn corner(d: &Diagram, (file, rank): Cell) -> (u32, u32) {
    let col = u32::from(d.files.saturating_sub(file));
    let row = u32::from(rank.saturating_sub(1));
    (X0 + col * W, Y0 + row * H)
}

fn centre(d: &Diagram, c: Cell) -> (u32, u32) {
    let (x, y) = corner(d, c);
    (x + W / 2, y + H / 2)
}

fn shade_last(s: &mut String, d: &Diagram) {
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

fn grid(s: &mut String, d: &Diagram) {
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
    // The four star points of a 9×9 board mark the promotion zones.
    if d.files == 9 && d.ranks == 9 {
        for (i, j) in [(3, 3), (6, 3), (3, 6), (6, 6)] {
            let _ = writeln!(
                s,
                "<circle cx=\"{}\" cy=\"{}\" r=\"3\" fill=\"#333333\"/>",
                X0 + i * W,
                Y0 + j * H
            );
        }
    }
}

fn coordinates(s: &mut String, d: &Diagram) {
    s.push_str("<g font-size=\"14\" fill=\"#333333\" text-anchor=\"middle\">\n");
    for file in 1..=d.files {
        let (cx, _) = centre(d, (file, 1));
        let _ = writeln!(
            s,
            "<text class=\"file\" x=\"{cx}\" y=\"{}\">{}</text>",
            Y0 - 6,
            zenkaku_digit(file)
        );
    }
    for rank in 1..=d.ranks {
        let (_, cy) = centre(d, (1, rank));
        let _ = writeln!(
            s,
            "<text class=\"rank\" x=\"{}\" y=\"{}\">{}</text>",
            X0 + u32::from(d.files) * W + 14,
            cy + 5,
            kanji_digit(rank)
        );
    }
    s.push_str("</g>\n");
}

/// A piece's glyph: its character, owner and whether it is promoted (drawn red).
struct Glyph {
    c: char,
    color: Color,
    red: bool,
}

/// One glyph of `size` centred on `(cx, cy)`, turned half a turn for gote.
fn glyph(s: &mut String, class: &str, g: Glyph, (cx, cy): (u32, u32), size: u32) {
    let Glyph { c, color, red } = g;
    // Black comes from the enclosing group: one attribute fewer a piece.
    let fill = if red { " fill=\"#b00000\"" } else { "" };
    // A CJK glyph's ink is centred about 0.38 em above its baseline: with
    // the baseline that far below the centre, turning the glyph about the
    // centre leaves it in place.
    let turn = if color == Color::Gote {
        format!(" transform=\"rotate(180 {cx} {cy})\"")
    } else {
        String::new()
    };
    let _ = writeln!(
        s,
        "<text class=\"{class}\" x=\"{cx}\" y=\"{}\"{fill}{turn}>{c}</text>",
        cy + size * 38 / 100
    );
}

fn pieces(s: &mut String, d: &Diagram) {
    s.push_str("<g font-size=\"29\" text-anchor=\"middle\" fill=\"#111111\">\n");
    for rank in 1..=d.ranks {
        for file in 1..=d.files {
            if let Some(p) = d.piece((file, rank)) {
                let at = centre(d, (file, rank));
                let g = Glyph {
                    c: p.kind.bod(),
                    color: p.color,
                    red: p.kind.is_promoted(),
                };
                glyph(s, "piece", g, at, 29);
            }
        }
    }
    s.push_str("</g>\n");
}

/// A hand in one row at baseline `y`: the side's mark and name, then each
/// kind held (飛 角 金 銀 桂 香 歩) with its count when above one.
fn hand(s: &mut String, d: &Diagram, color: Color, labels: [&str; 2], y: u32) {
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
    s.push_str("<g font-size=\"24\" text-anchor=\"middle\" fill=\"#111111\">\n");
    let mut x = X0 + 118;
    let h = d.hands[color.index()];
    for (kind, n) in h.iter_canonical() {
        let g = Glyph {
            c: kind.bod(),
            color,
            red: false,
        };
        glyph(s, "hand", g, (x, y - 8), 24);
        x += 18;
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
fn point_at_next(s: &mut String, d: &Diagram) {
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
