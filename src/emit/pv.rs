//! An evaluation and its reading line for the analysis JSON: from the
//! move's floodgate evaluation (CSA `'**`, or the KIF/JKF comment that
//! carries it), else from the one its GUI comments hold, both read with
//! the record. The reading line is played on the board and given in USI,
//! so that every source reads alike.

use crate::record::{Evaluation, MoveEntry, Notation};
use crate::resolve::resolve;
use crate::rules::position::Position;
use crate::rules::types::{Color, Move};

/// The score (from sente's side, as floodgate and the GUIs write it) and
/// the reading line in USI of `entry`, the move played from `before`: the
/// line starts with the reply, or with the move itself where the record's
/// line does (ShogiGUI's `*対局`).
pub fn of(entry: &MoveEntry, before: &Position, mv: Move) -> (Option<i64>, Option<Vec<String>>) {
    match evaluation(entry) {
        Some(e) => (e.score, usi_line(&e.pv, before, mv)),
        None => (None, None),
    }
}

/// The move's floodgate evaluation, else its GUI one.
fn evaluation(entry: &MoveEntry) -> Option<&Evaluation> {
    entry.eval().or_else(|| entry.gui_eval())
}

/// The score of `entry` as the analysis JSON gives it (from sente's side):
/// its floodgate evaluation, else the one in the comments a GUI wrote.
pub fn score(entry: &MoveEntry) -> Option<i64> {
    evaluation(entry).and_then(|e| e.score)
}

/// The text after `*` of the KIF/JKF comment that carries `e` (`* 30
/// -3334FU`), which their readers take back as the evaluation.
pub(crate) fn floodgate_text(e: &Evaluation) -> String {
    let mut s = String::from("*");
    e.write_floodgate(&mut s);
    s
}

/// [`score`] from the side of `mover`, who played `entry`'s move: training
/// data gives every score from the side to move's view.
pub(crate) fn mover_score(entry: &MoveEntry, mover: Color) -> Option<i64> {
    score(entry).map(|s| match mover {
        Color::Sente => s,
        Color::Gote => s.saturating_neg(),
    })
}

/// Whether `entry` carries an evaluation: the cheap test before [`of`].
pub(crate) fn may_have(entry: &MoveEntry) -> bool {
    evaluation(entry).is_some()
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
        Notation::Usi(_) | Notation::VariantUsi(_) | Notation::VariantKif { .. } => None,
    }
}
