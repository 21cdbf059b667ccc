//! The KIF board diagram (BOD): the text block KIF and KI2 use for a start
//! position, and `kifu show --to bod`. One writer for both, so a diagram
//! `show` prints reads back as a start position. [`write_sheet`] writes the
//! same block for a variant's board of up to 9 files (a BOD's file digits).

use super::diagram::{Cell, Diagram, Mark};
use crate::notation::{kanji_digit, zenkaku_digit};
use crate::rules::types::{Color, Hand};

/// How the block ends and whether squares are highlighted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BodOptions {
    /// Write the footer as copied diagrams have it, `手数＝N  ▲７六歩  まで`
    /// (always, with the marked move when there is one). Otherwise the KIF
    /// header form: `手数＝N` only when moves were played before the diagram.
    pub footer_with_move: bool,
    /// Highlight the marked squares with ANSI reverse video (for a terminal).
    pub highlight: bool,
}

/// A board of up to 9×9 to write as a BOD.
pub struct Sheet<'a> {
    /// Number of files (columns), at most 9.
    pub files: u8,
    /// Number of ranks (rows), at most 9.
    pub ranks: u8,
    /// The piece on a square: its owner and its one-kanji BOD name.
    pub cell: &'a dyn Fn(Cell) -> Option<(Color, char)>,
    /// Each side's hand as written after `持駒：` (`なし` for none), by [`Color::index`].
    pub hands: [String; 2],
    /// The side to move.
    pub side_to_move: Color,
    /// Moves played before this position.
    pub moves_played: u32,
    /// The move to highlight.
    pub mark: Mark,
    /// The marked move as text, for the footer.
    pub mark_text: Option<String>,
}

/// Append the diagram to `out`. `labels` names the sides, by
/// [`Color::index`]: `先手`/`後手`, or `下手`/`上手` in a handicap game.
pub fn write(out: &mut String, d: &Diagram, labels: [&str; 2], opts: BodOptions) {
    let cell = |c: Cell| d.piece(c).map(|p| (p.color, p.kind.bod()));
    let sheet = Sheet {
        files: d.files,
        ranks: d.ranks,
        cell: &cell,
        hands: d.hands.map(|h| hand_text(&h)),
        side_to_move: d.side_to_move,
        moves_played: d.moves_played,
        mark: d.mark,
        mark_text: d.mark_text.clone(),
    };
    write_sheet(out, &sheet, labels, opts);
}

/// Append a board of any size up to 9×9 to `out` (see [`write()`]).
pub fn write_sheet(out: &mut String, d: &Sheet<'_>, labels: [&str; 2], opts: BodOptions) {
    let (down, up) = (labels[Color::Sente.index()], labels[Color::Gote.index()]);
    line(
        out,
        &format!("{up}の持駒：{}", d.hands[Color::Gote.index()]),
    );
    let mut header = String::from(" ");
    for file in (1..=d.files).rev() {
        header.push(' ');
        header.push(zenkaku_digit(file));
    }
    line(out, &header);
    let frame = format!("+{}+", "-".repeat(usize::from(d.files) * 3));
    line(out, &frame);
    let marked = match (opts.highlight, d.mark) {
        (false, _) | (_, Mark::None) => Vec::new(),
        (true, Mark::Move { from, to }) => vec![from, to],
        (true, Mark::Drop(to)) => vec![to],
    };
    for rank in 1..=d.ranks {
        let mut row = String::from("|");
        for file in (1..=d.files).rev() {
            let lit = marked.contains(&(file, rank));
            if lit {
                row.push_str("\x1b[7m");
            }
            match (d.cell)((file, rank)) {
                None => row.push_str(" ・"),
                Some((color, c)) => {
                    row.push(if color == Color::Gote { 'v' } else { ' ' });
                    row.push(c);
                }
            }
            if lit {
                row.push_str("\x1b[0m");
            }
        }
        row.push('|');
        row.push(kanji_digit(rank));
        line(out, &row);
    }
    line(out, &frame);
    line(
        out,
        &format!("{down}の持駒：{}", d.hands[Color::Sente.index()]),
    );
    line(out, &format!("{}番", labels[d.side_to_move.index()]));
    let n = d.moves_played;
    if opts.footer_with_move {
        match (&d.mark_text, d.mark) {
            (Some(text), m) if m != Mark::None => line(out, &format!("手数＝{n}  {text}  まで")),
            _ => line(out, &format!("手数＝{n}  まで")),
        }
    } else if n != 0 {
        line(out, &format!("手数＝{n}"));
    }
}

fn line(out: &mut String, s: &str) {
    out.push_str(s);
    out.push('\n');
}

/// `飛二　角　歩十八　` in KfW order (飛 角 金 銀 桂 香 歩), or `なし`.
pub fn hand_text(h: &Hand) -> String {
    if h.is_empty() {
        return "なし".into();
    }
    let mut s = String::new();
    for (k, n) in h.iter_canonical() {
        s.push(k.bod());
        s.push_str(&kanji_count(n));
        s.push('　');
    }
    s
}

/// A hand count as kanji; 1 is not written.
pub fn kanji_count(n: u8) -> String {
    let mut s = String::new();
    if n <= 1 {
        return s;
    }
    let (tens, ones) = (n / 10, n % 10);
    if tens > 1 {
        s.push(kanji_digit(tens));
    }
    if tens > 0 {
        s.push('十');
    }
    if ones > 0 {
        s.push(kanji_digit(ones));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::setup::Setup;
    use crate::rules::types::PieceKind;

    #[test]
    fn hands_and_counts_are_written_as_kfw_writes_them() {
        assert_eq!(hand_text(&Hand::EMPTY), "なし");
        assert_eq!(kanji_count(18), "十八");
        assert_eq!(kanji_count(10), "十");
        assert_eq!(kanji_count(2), "二");
        let mut h = Hand::EMPTY;
        h.set(PieceKind::Pawn, 3);
        h.set(PieceKind::Rook, 1);
        assert_eq!(hand_text(&h), "飛　歩三　");
    }

    #[test]
    fn highlight_wraps_only_the_marked_squares_in_reverse_video() {
        let s = Setup::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b - 1").unwrap();
        let mut d = Diagram::from_setup(&s);
        d.mark = Mark::Move {
            from: (5, 9),
            to: (4, 8),
        };
        let mut plain = String::new();
        write(&mut plain, &d, ["先手", "後手"], BodOptions::default());
        assert!(!plain.contains('\x1b'));
        let mut lit = String::new();
        let opts = BodOptions {
            footer_with_move: false,
            highlight: true,
        };
        write(&mut lit, &d, ["先手", "後手"], opts);
        assert_eq!(lit.matches("\x1b[7m").count(), 2, "{lit}");
        assert!(lit.contains("\x1b[7m 玉\x1b[0m"), "{lit}");
        assert!(lit.contains("\x1b[7m ・\x1b[0m"), "{lit}");
        assert_eq!(lit.replace("\x1b[7m", "").replace("\x1b[0m", ""), plain);
    }
}
