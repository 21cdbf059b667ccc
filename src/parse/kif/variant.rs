//! The KIF grammar on the other boards of the family: `手合割：5五将棋` (as
//! lishogi writes minishogi), `小将棋` or `禽将棋`, then KIF move lines whose
//! pieces carry the variant's names (酔象/太子 in sho shogi, the birds in tori
//! shogi) and whose squares must lie on its board. Everything else (the
//! header, comments, times, bookmarks, variations, every terminal word, the
//! `まで` line) is shogi KIF's, read by the same code.
//!
//! A start other than the variant's own is kept in a `#SFEN:` line, which
//! kifu writes and reads back; a board diagram is refused with a message.

use super::chu::{self, Step};
use super::line::{self, Body, MoveLine};
use super::{Board as KifBoard, read};
use crate::error::{ParseError, ParseErrorKind};
use crate::notation::chu::piece_named as piece;
use crate::parse::SourceLine;
use crate::parse::document::Document;
use crate::parse::ja::expect::{LineErr, Res, error, failure};
use crate::parse::ja::grammar::move_end;
use crate::parse::ja::token::{dest, spaces0};
use crate::record::{Dest, Notation, Record, StartPosition};
use crate::rules::types::Square;
use crate::variant::{Board, Variant};

/// Read a KIF text of `variant` (one game).
///
/// ```
/// use kifu::parse::kif::parse_variant;
/// use kifu::variant::Variant;
///
/// let text = "手合割：5五将棋\n手数----指手--\n   1 １四飛(15)\n*a comment\n   2 投了\n";
/// let r = parse_variant(text, Variant::Mini)?.remove(0);
/// assert_eq!(r.main.moves[0].comments(), ["a comment"]);
/// assert_eq!(r.main.ending.unwrap().text, "投了");
/// # Ok::<(), kifu::ParseError>(())
/// ```
pub fn parse_variant(text: &str, variant: Variant) -> Result<Vec<Record>, ParseError> {
    let board = variant.start();
    let mut doc = Document::new();
    doc.start = Some(StartPosition::Variant(Box::new(board.clone())));
    let mut family = Family {
        board,
        pending: None,
        base: text.as_ptr() as usize,
        diagram: chu::Diagram::default(),
    };
    let records = read(text, doc, &mut family)?;
    if let Some((_, at)) = family.pending {
        // The line's place in the text, for the message.
        let before = &text[..at.min(text.len())];
        let line = before.matches('\n').count() as u32 + 1;
        let span = crate::record::Location::new(at, line, 1);
        return Err(ParseError::new(
            span,
            "expected a 二歩目 line after this 一歩目 line",
        ));
    }
    Ok(records)
}

/// A board of the family: its start (for its size and piece names), and
/// the first step of a chu shogi double move waiting for its second, with
/// where its line starts in the text.
struct Family {
    board: Board,
    pending: Option<(Notation, usize)>,
    base: usize,
    diagram: chu::Diagram,
}

impl KifBoard for Family {
    fn move_line<'a>(&mut self, t: &'a str) -> Result<MoveLine<'a>, LineErr<'a>> {
        if self.board.variant() != Variant::Chu {
            return line::move_line_with(t, |i, _| move_text(&self.board, i));
        }
        let (mut m, step) = chu::move_line(&self.board, t)?;
        let pending = self.pending.take();
        match (step, pending, m.body) {
            (Step::First, None, Body::Move(n)) => {
                self.pending = Some((n, t.as_ptr() as usize - self.base));
                m.body = Body::FirstStep;
            }
            (Step::Second, Some((first, _)), Body::Move(second)) => {
                m.body = Body::Move(join(first, second))
            }
            (Step::Whole, None, body) => m.body = body,
            (_, Some(p), _) => {
                self.pending = Some(p);
                return Err(LineErr {
                    rest: t,
                    label: Some("the 二歩目 line of the double move begun above"),
                });
            }
            (_, None, _) => {
                return Err(LineErr {
                    rest: t,
                    label: Some("a 一歩目 line before this 二歩目 line"),
                });
            }
        }
        Ok(m)
    }

    fn is_move_line(&self, t: &str) -> bool {
        match self.board.variant() {
            Variant::Chu => chu::is_move_line(t),
            _ => crate::parse::ja::line_kind::looks_like_move_line(t),
        }
    }

    fn early_line(&mut self, doc: &mut Document, l: &SourceLine<'_>) -> Result<bool, ParseError> {
        let t = l.text.trim_start_matches('\u{feff}').trim();
        if let Some(sfen) = t.strip_prefix("#SFEN:") {
            doc.begin(l);
            let variant = self.board.variant();
            self.board = Board::from_sfen(variant, sfen.trim()).map_err(|e| {
                ParseError::new(l.span(), format!("expected a {variant} SFEN: {e}"))
                    .of_kind(ParseErrorKind::StartPosition)
            })?;
            doc.start = Some(StartPosition::Variant(Box::new(self.board.clone())));
            doc.record.start_span = Some(l.span());
            return Ok(true);
        }
        if doc.early_line(l)? {
            return Ok(true);
        }
        if self.board.variant() == Variant::Chu && !doc.seen_move {
            let read = self.diagram.line(t).map_err(|why| {
                ParseError::new(l.span(), why).of_kind(ParseErrorKind::StartPosition)
            })?;
            if read {
                doc.begin(l);
                if let Some(b) = self.diagram.board() {
                    self.board = b.clone();
                    doc.start = Some(StartPosition::Variant(Box::new(b)));
                    doc.record.start_span.get_or_insert(l.span());
                }
                return Ok(true);
            }
        }
        if looks_like_diagram(t) {
            return Err(ParseError::new(
                l.span(),
                "a board diagram in a variant KIF is not read: give the start as `#SFEN: <sfen>` or use USI",
            )
            .of_kind(ParseErrorKind::StartPosition));
        }
        Ok(false)
    }
}

/// A diagram's frame, row, hand line or column numbers (`  ５ ４ ３ ２ １`).
fn looks_like_diagram(t: &str) -> bool {
    t.starts_with(['|', '+'])
        || t.contains("持駒")
        || (t.chars().filter(|c| ('１'..='９').contains(c)).count() >= 2
            && t.chars()
                .all(|c| ('１'..='９').contains(&c) || c == ' ' || c == '　'))
}

/// A double move from its two steps: the first's origin and destination
/// (the step), the second's destination and promotion.
fn join(first: Notation, second: Notation) -> Notation {
    match (first, second) {
        (
            Notation::VariantKif {
                to: via,
                piece,
                from,
                ..
            },
            Notation::VariantKif { to, promote, .. },
        ) => Notation::VariantKif {
            to,
            piece,
            promote,
            from,
            via: Some(via),
        },
        (_, second) => second,
    }
}

/// `sq` as a cell of `board`.
fn cell(board: &Board, sq: Square) -> Option<u8> {
    board.cell_of(sq.file(), sq.rank())
}

/// A move (`５四銀(43)`, `同　角成(15)`, `３三燕打`) on `board`: the
/// destination and origin on its board, the piece by its names.
fn move_text<'a>(board: &Board, i: &'a str) -> Res<'a, Notation> {
    const OFF_BOARD: &str = "a square of the variant's board";
    let at = i;
    let (i, d) = dest(i)?;
    let to = match d {
        Dest::Same => None,
        Dest::Square(sq) => Some(cell(board, sq).ok_or_else(|| failure(at, OFF_BOARD))?),
    };
    let Some((id, len)) = piece(board, i) else {
        return Err(error(i, "a piece of the variant"));
    };
    let (i, _) = spaces0(&i[len..])?;
    let origin = i;
    let (i, (promote, source)) = move_end(i)?;
    let from = match source.origin() {
        Some(sq) => Some(cell(board, sq).ok_or_else(|| failure(&origin[1..], OFF_BOARD))?),
        None => None,
    };
    let n = Notation::VariantKif {
        to,
        piece: id,
        promote,
        from,
        via: None,
    };
    Ok((i, n))
}
