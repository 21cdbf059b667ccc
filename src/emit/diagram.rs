//! A position to draw: the board, both hands, the side to move and the move
//! to point at. The BOD and SVG writers draw a [`Diagram`]; nothing here
//! knows about either output.
//!
//! Squares are `(file, rank)` pairs counted from 1 and the board size is a
//! field, not a constant, so that boards of other sizes draw the same way.

use crate::notation::ja_move;
use crate::replay::{Game, LineResult, Verdict};
use crate::rules::position::Position;
use crate::rules::setup::Setup;
use crate::rules::types::{Color, Hand, Move, Piece, Square};

/// A square of a diagram: `(file, rank)`, both from 1; file 1 is sente's right edge.
pub type Cell = (u8, u8);

/// The move a diagram points at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mark {
    /// Nothing to point at (a start position).
    None,
    /// A board move: origin and destination.
    Move {
        /// Where the piece stood.
        from: Cell,
        /// Where it went.
        to: Cell,
    },
    /// A drop on this square.
    Drop(Cell),
}

/// Whether the marked move has been played on the diagram's board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    /// The last move played: its squares are shaded.
    Last,
    /// A move about to be played (a foul): drawn as an arrow, or a ringed
    /// square for a drop.
    Next,
}

/// A position ready to draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    /// Number of files (columns).
    pub files: u8,
    /// Number of ranks (rows).
    pub ranks: u8,
    /// The pieces, rank by rank from rank 1, each rank from the highest file.
    pub squares: Vec<Option<Piece>>,
    /// The hands, indexed by [`Color::index`].
    pub hands: [Hand; 2],
    /// The side to move.
    pub side_to_move: Color,
    /// Moves played before this position (the BOD `手数＝N`).
    pub moves_played: u32,
    /// The move pointed at.
    pub mark: Mark,
    /// Whether [`Diagram::mark`] was played or is about to be.
    pub mark_kind: MarkKind,
    /// The marked move as text, e.g. `▲７六歩`.
    pub mark_text: Option<String>,
    /// A king to ring: the king left in check by a self-check foul.
    pub king: Option<Cell>,
}

fn cell(sq: Square) -> Cell {
    (sq.file(), sq.rank())
}

/// The mark for a move.
pub fn mark_of(mv: Move) -> Mark {
    match mv {
        Move::Normal { from, to, .. } => Mark::Move {
            from: cell(from),
            to: cell(to),
        },
        Move::Drop { to, .. } => Mark::Drop(cell(to)),
    }
}

impl Diagram {
    /// A 9×9 setup, with nothing marked.
    pub fn from_setup(s: &Setup) -> Diagram {
        let mut squares = Vec::with_capacity(81);
        for rank in 1..=9u8 {
            for file in (1..=9u8).rev() {
                let sq = Square::new(file, rank).expect("file and rank in 1..=9");
                squares.push(s.get(sq));
            }
        }
        Diagram {
            files: 9,
            ranks: 9,
            squares,
            hands: s.hands,
            side_to_move: s.side_to_move,
            moves_played: s.move_number.saturating_sub(1),
            mark: Mark::None,
            mark_kind: MarkKind::Last,
            mark_text: None,
            king: None,
        }
    }

    /// A position, with nothing marked.
    pub fn from_position(p: &Position) -> Diagram {
        Diagram::from_setup(&p.to_setup())
    }

    /// The piece on `(file, rank)`, if any (`None` off the board too).
    pub fn piece(&self, (file, rank): Cell) -> Option<Piece> {
        if file == 0 || rank == 0 || file > self.files || rank > self.ranks {
            return None;
        }
        let i = usize::from(rank - 1) * usize::from(self.files) + usize::from(self.files - file);
        self.squares.get(i).copied().flatten()
    }

    /// The squares the mark covers (origin, then destination).
    pub fn marked_cells(&self) -> Vec<Cell> {
        match self.mark {
            Mark::None => Vec::new(),
            Mark::Move { from, to } => vec![from, to],
            Mark::Drop(to) => vec![to],
        }
    }
}

/// The position after the first `upto` plies of a line of `game` (`line`:
/// `None` for the main line, else an index into [`Game::variations`]),
/// counting from the line's start: a variation starts where it branches.
pub fn position_at(game: &Game, line: Option<usize>, upto: usize) -> Position {
    let mut chain = vec![(line, upto)];
    let mut cur = line;
    while let Some(i) = cur {
        let Some(v) = game.variations.get(i) else {
            break;
        };
        chain.push((v.parent, v.entry));
        cur = v.parent;
    }
    let mut pos = game.start.clone();
    for (id, n) in chain.into_iter().rev() {
        for p in line_result(game, id).plies.iter().take(n) {
            pos.play_unchecked(p.mv);
        }
    }
    pos
}

fn line_result(game: &Game, id: Option<usize>) -> &LineResult {
    match id.and_then(|i| game.variations.get(i)) {
        Some(v) => &v.line,
        None => &game.main,
    }
}

/// The diagram after `upto` legal plies of a line, the last of them marked
/// (nothing marked at the line's start, unless a variation's parent move is).
pub fn after_plies(game: &Game, line: Option<usize>, upto: usize) -> Diagram {
    let r = line_result(game, line);
    let upto = upto.min(r.plies.len());
    let mut d = Diagram::from_position(&position_at(game, line, upto));
    if let Some(p) = upto.checked_sub(1).and_then(|i| r.plies.get(i)) {
        d.mark = mark_of(p.mv);
        d.mark_text = Some(ja_move(p.color, p.mv, p.piece, p.same));
    }
    d
}

/// The diagram before the foul of a line, with the foul move drawn (and the
/// king it leaves in check, for a self-check); `None` for a legal line or a
/// foul with no move (a false declaration draws as the position itself).
/// A foul judged on a move already played (perpetual check) draws the
/// position before that move, which is the one drawn as about to be played.
pub fn before_foul(game: &Game, line: Option<usize>) -> Option<Diagram> {
    let r = line_result(game, line);
    let Verdict::Foul(f) = &r.verdict else {
        return None;
    };
    let pos = position_at(game, line, r.plies_before_foul());
    let mut d = Diagram::from_position(&pos);
    let Some(fm) = r.foul_move() else {
        return Some(d);
    };
    let mv = fm.mv;
    d.mark = mark_of(mv);
    d.mark_kind = MarkKind::Next;
    if let Some(piece) = fm.piece {
        d.mark_text = Some(ja_move(fm.color, mv, piece, fm.same));
    }
    if f.rule == crate::Rule::SelfCheck {
        let moved_king = mv
            .from()
            .and_then(|s| pos.piece_at(s))
            .is_some_and(|p| p.kind == crate::PieceKind::King);
        d.king = if moved_king {
            Some(cell(mv.to()))
        } else {
            pos.king_square(f.loser).map(cell)
        };
    }
    Some(d)
}
