//! An evaluation and its reading line for the analysis JSON: from the
//! move's floodgate evaluation (CSA `'**`, or the KIF/JKF comment that
//! carries it), else from the comments GUIs write (`parse::eval`). The
//! reading line is played on the board and given in USI, so that every
//! source reads alike.

use crate::parse::eval;
use crate::record::{MoveEntry, Notation};
use crate::resolve::resolve;
use crate::rules::position::Position;
use crate::rules::types::{Color, Move, PieceKind, Square};

/// The score (from sente's side, as floodgate and the GUIs write it) and
/// the reading line in USI of `entry`, the move played from `before`.
pub(crate) fn of(
    entry: &MoveEntry,
    before: &Position,
    mv: Move,
) -> (Option<i64>, Option<Vec<String>>) {
    if let Some(e) = entry.eval() {
        let moves: Vec<Notation> = e.pv.iter().map_while(|w| csa_move(w)).collect();
        return (e.score, usi_line(&moves, before, mv));
    }
    match eval::gui_comment(entry.comments()) {
        Some(g) => {
            let moves =
                g.pv.map(crate::parse::ki2::reading_line)
                    .unwrap_or_default();
            (g.score, usi_line(&moves, before, mv))
        }
        None => (None, None),
    }
}

/// The score of `entry` as the analysis JSON gives it (from sente's side):
/// its floodgate evaluation, else the one in the comments a GUI wrote.
pub fn score(entry: &MoveEntry) -> Option<i64> {
    match entry.eval() {
        Some(e) => e.score,
        None => eval::gui_comment(entry.comments()).and_then(|g| g.score),
    }
}

/// [`score`] from the side of `mover`, who played `entry`'s move: training
/// data gives every score from the side to move's view.
pub(crate) fn mover_score(entry: &MoveEntry, mover: Color) -> Option<i64> {
    score(entry).map(|s| match mover {
        Color::Sente => s,
        Color::Gote => s.saturating_neg(),
    })
}

/// Whether `entry` may carry an evaluation: the cheap test before [`of`].
pub(crate) fn may_have(entry: &MoveEntry) -> bool {
    entry.eval().is_some() || !entry.comments().is_empty()
}

/// `+7776FU` as a CSA notation.
fn csa_move(w: &str) -> Option<Notation> {
    if !eval::is_csa_move(w) {
        return None;
    }
    let b = w.as_bytes();
    let sq = |f: u8, r: u8| Square::new(f - b'0', r - b'0');
    Some(Notation::Csa {
        color: if b[0] == b'+' {
            Color::Sente
        } else {
            Color::Gote
        },
        from: sq(b[1], b[2]),
        to: sq(b[3], b[4])?,
        piece: PieceKind::from_csa(&b[5..7])?,
    })
}

/// `moves` played in USI, as far as they are legal. A reading line starts
/// after the move (floodgate: with the opponent's reply) or, when its first
/// move is the mover's, with the move itself (ShogiGUI's `*対局` lines).
fn usi_line(moves: &[Notation], before: &Position, mv: Move) -> Option<Vec<String>> {
    let first_color = moves.first().and_then(color_of);
    let (mut pos, mut prev_to) = if first_color == Some(before.side_to_move()) {
        (before.clone(), None)
    } else {
        let mut after = before.clone();
        after.play_unchecked(mv);
        (after, Some(mv.to()))
    };
    let mut out = Vec::new();
    for n in moves {
        let Ok(r) = resolve(&pos, n, prev_to) else {
            break;
        };
        if r.color.is_some_and(|c| c != pos.side_to_move()) || pos.play(r.mv).is_err() {
            break;
        }
        out.push(r.mv.to_usi());
        prev_to = Some(r.mv.to());
    }
    (!out.is_empty()).then_some(out)
}

fn color_of(n: &Notation) -> Option<Color> {
    match n {
        Notation::Csa { color, .. } => Some(*color),
        Notation::Kif { color, .. } | Notation::Ki2 { color, .. } => *color,
        Notation::Usi(_) => None,
    }
}
