//! Building the start position from `PI`, `P1`…`P9`, `P+`/`P-` and the side line.

use super::syntax::{BoardLine, Group};
use crate::record::{Location, StartPosition};
use crate::rules::setup::{Handicap, Setup};
use crate::rules::types::{Color, Piece, PieceKind, Square};

/// How many of each hand kind (P L N S G B R) a full set holds.
const FULL_SET: [u8; 7] = [18, 4, 4, 4, 4, 2, 2];

/// The position statements of one record, folded into a [`Setup`].
#[derive(Clone, Debug)]
pub(super) struct PositionBuilder {
    setup: Setup,
    span: Option<Location>,
    /// `PI` was written, so the start may be a named preset.
    pi: bool,
    /// The last `PI` took pieces off, so the board is not the even game's.
    pi_removed: bool,
    /// Something beyond `PI` was written (rows or pieces), so it is not a preset.
    written_out: bool,
    /// The side of a `00AL` group, resolved at the end because later lines
    /// may still place pieces.
    all_to: Option<Color>,
    /// A `PI`, `P1`…`P9` or `P±` line was written: the board is the file's,
    /// not an empty one waiting for them.
    board: bool,
    /// The side-to-move line, if written.
    side_line: Option<(Color, Location)>,
}

impl PositionBuilder {
    pub(super) fn new() -> PositionBuilder {
        PositionBuilder {
            setup: Setup::EMPTY,
            span: None,
            pi: false,
            pi_removed: false,
            written_out: false,
            all_to: None,
            board: false,
            side_line: None,
        }
    }

    /// Whether a position statement (`PI`, `P1`…`P9`, `P±`) was written.
    pub(super) fn board_written(&self) -> bool {
        self.board
    }

    /// Where the first statement of the position was written.
    pub(super) fn span(&self) -> Option<Location> {
        self.span
    }

    /// The side-to-move line, if one was written.
    pub(super) fn side_line(&self) -> Option<(Color, Location)> {
        self.side_line
    }

    /// Fold in one statement of the position; the error says why the
    /// position it describes cannot be.
    pub(super) fn read(&mut self, line: BoardLine, span: Location) -> Result<(), String> {
        self.span.get_or_insert(span);
        match line {
            BoardLine::Pi(removed) => self.pi(&removed)?,
            BoardLine::Row(rank, cells) => self.row(rank, &cells),
            BoardLine::Pieces(color, groups) => self.pieces(color, &groups)?,
            BoardLine::Side(color) => self.side(color, span),
        }
        Ok(())
    }

    /// `PI…`: the even-game position with `removed` taken off.
    fn pi(&mut self, removed: &[(Square, PieceKind)]) -> Result<(), String> {
        self.board = true;
        self.pi = true;
        self.pi_removed = !removed.is_empty();
        self.setup = Handicap::Hirate.setup();
        for &(sq, kind) in removed {
            // Removing a piece that is not there would leave the intended
            // position unknown, so it is reported rather than ignored.
            match self.setup.get(sq) {
                Some(p) if p.kind == kind => self.setup.set(sq, None),
                _ => {
                    return Err(format!(
                        "expected a piece of the even-game position after PI, but {} is not on {}{}",
                        kind.csa(),
                        sq.file(),
                        sq.rank()
                    ));
                }
            }
        }
        Ok(())
    }

    /// `Pn`: rank `rank`, cells from file 9 to file 1.
    fn row(&mut self, rank: u8, cells: &[Option<Piece>]) {
        self.board = true;
        self.written_out = true;
        for (i, cell) in cells.iter().enumerate() {
            let file = 9u8.saturating_sub(i as u8);
            if let Some(sq) = Square::new(file, rank) {
                self.setup.set(sq, *cell);
            }
        }
    }

    /// `P+…` / `P-…`.
    fn pieces(&mut self, color: Color, groups: &[Group]) -> Result<(), String> {
        self.board = true;
        if !groups.is_empty() {
            self.written_out = true;
        }
        for g in groups {
            match *g {
                Group::Board(sq, kind) => self.setup.set(sq, Some(Piece::new(color, kind))),
                Group::Hand(kind) => {
                    if kind == PieceKind::King || kind.is_promoted() {
                        return Err(format!(
                            "expected an unpromoted piece other than OU in hand, found 00{}",
                            kind.csa()
                        ));
                    }
                    self.setup.hands[color.index()].add(kind);
                }
                Group::All => self.all_to = Some(color),
            }
        }
        Ok(())
    }

    /// The side-to-move line, written or (for a move before any) assumed.
    pub(super) fn side(&mut self, color: Color, span: Location) {
        self.span.get_or_insert(span);
        self.side_line = Some((color, span));
        self.setup.side_to_move = color;
    }

    /// The start position and where it is written, if a position statement
    /// was written: a side line alone sets no board.
    pub(super) fn finish(mut self) -> Option<(StartPosition, Location)> {
        if !self.board {
            return None;
        }
        let span = self.span?;
        if let Some(color) = self.all_to {
            self.give_rest(color);
        }
        let named = if !self.pi || self.written_out {
            None
        } else if !self.pi_removed && self.setup.side_to_move == Color::Sente {
            // A bare `PI` (nearly every record) left the even game's board
            // and empty hands, so the comparisons of `preset` are known.
            Some(Handicap::Hirate)
        } else {
            self.setup.preset()
        };
        let start = match named {
            Some(h) => StartPosition::Preset(h),
            None => StartPosition::Setup(Box::new(self.setup)),
        };
        Some((start, span))
    }

    /// `00AL`: the full set minus the board and both hands, kings excluded.
    fn give_rest(&mut self, color: Color) {
        let mut left = FULL_SET;
        let board = Square::all().filter_map(|sq| self.setup.get(sq));
        for p in board {
            if let Some(n) = left.get_mut(p.kind.unpromoted().index()) {
                *n = n.saturating_sub(1);
            }
        }
        for hand in &self.setup.hands {
            for (n, held) in left.iter_mut().zip(hand.counts()) {
                *n = n.saturating_sub(held);
            }
        }
        let hand = &mut self.setup.hands[color.index()];
        for (kind, n) in PieceKind::HAND.into_iter().zip(left) {
            hand.set(kind, hand.count(kind).saturating_add(n));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bare_pi_is_the_even_game_by_either_route() {
        let span = Location::new(0, 1, 1);
        for side in [Color::Sente, Color::Gote] {
            let mut b = PositionBuilder::new();
            b.read(BoardLine::Pi(Vec::new()), span).unwrap();
            b.read(BoardLine::Side(side), span).unwrap();
            let quick = b.clone().finish().map(|(s, _)| s);
            let expected = match b.setup.preset() {
                Some(h) => StartPosition::Preset(h),
                None => StartPosition::Setup(Box::new(b.setup.clone())),
            };
            assert_eq!(quick, Some(expected), "{side:?}");
        }
        assert_eq!(Handicap::Hirate.setup().side_to_move, Color::Sente);
    }
}
