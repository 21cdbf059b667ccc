//! A variant game's variations in KIF: after the main line, a `変化：N手`
//! block for each, the latest branch point first and each block's own
//! variations right after it (as shogi's KIF writer orders them, and as
//! lishogi does). A variation's moves are written as far as they are
//! legal; what is left out is said.

use crate::codes::WarningCode;
use crate::emit::Warning;
use crate::emit::kakinoki::legal_ending;
use crate::record::{Line, MoveTime};
use crate::variant::replay::play_line;
use crate::variant::{Board, VMove, VariantGame};

/// A move to write: its number, the position before it, the previous
/// move's destination, its time, and whether it has alternatives (Kifu for
/// Windows marks it `+`).
pub(super) struct Numbered<'a> {
    pub n: u32,
    pub board: &'a Board,
    pub m: VMove,
    pub last: Option<u8>,
    pub time: Option<MoveTime>,
    pub forks: bool,
}

/// How a layout writes a numbered line: a move, or a terminal word.
pub(super) trait Layout {
    fn move_line(&self, s: &mut String, mv: &Numbered<'_>);
    fn word_line(&self, s: &mut String, n: u32, word: &str, time: Option<MoveTime>);
}

/// Every variation of `game`, in `layout`, onto `s`.
pub(super) fn variations(
    game: &VariantGame,
    layout: &impl Layout,
    s: &mut String,
    warnings: &mut Vec<Warning>,
) {
    let mut dropped = 0;
    let main: Vec<VMove> = game.plies.iter().map(|p| p.mv).collect();
    branches(
        game.start.clone(),
        None,
        &game.record.main,
        &main,
        1,
        layout,
        s,
        &mut dropped,
    );
    if dropped > 0 {
        warnings.push(Warning {
            code: WarningCode::MovesOmitted,
            message: format!("{dropped} move(s) of variations are not legal and are not written"),
        });
    }
}

/// The variations of `line`, whose moves `played` were played from
/// `start` (the first numbered `first`), latest branch point first.
#[allow(clippy::too_many_arguments)]
fn branches(
    start: Board,
    last_to: Option<u8>,
    line: &Line,
    played: &[VMove],
    first: u32,
    layout: &impl Layout,
    s: &mut String,
    dropped: &mut usize,
) {
    for i in (0..=played.len()).rev() {
        let alternatives = line.variations_at(i);
        if alternatives.is_empty() {
            continue;
        }
        let mut board = start.clone();
        for &m in &played[..i] {
            board.play_unchecked(m);
        }
        let last = if i == 0 {
            last_to
        } else {
            Some(played[i - 1].to)
        };
        for v in alternatives {
            block(board.clone(), last, v, first + i as u32, layout, s, dropped);
        }
    }
    // Alternatives past the moves played (after a foul) have no position.
    for i in played.len() + 1..=line.moves.len() {
        for v in line.variations_at(i) {
            *dropped += v.moves.len();
        }
    }
}

/// One `変化：N手` block: its moves, its ending, then its own variations.
fn block(
    start: Board,
    last_to: Option<u8>,
    v: &Line,
    first: u32,
    layout: &impl Layout,
    s: &mut String,
    dropped: &mut usize,
) {
    s.push_str(&format!("\n変化：{first}手\n"));
    let played = play_line(&mut start.clone(), &v.moves, last_to);
    *dropped += v.moves.len() - played.len();
    let mut before = start.clone();
    let mut last = last_to;
    for (k, (&m, e)) in played.iter().zip(&v.moves).enumerate() {
        let mv = Numbered {
            n: first + k as u32,
            board: &before,
            m,
            last,
            time: e.time,
            forks: !v.variations_at(k).is_empty(),
        };
        layout.move_line(s, &mv);
        for c in e.comments() {
            s.push_str(&format!("*{c}\n"));
        }
        before.play_unchecked(m);
        last = Some(m.to);
    }
    if let Some(e) = v.ending.as_ref().filter(|_| played.len() == v.moves.len()) {
        let (word, _) = legal_ending(e.kind, 0, before.side(), |_| "");
        layout.word_line(s, first + played.len() as u32, &word, e.time);
    }
    branches(start, last_to, v, &played, first, layout, s, dropped);
}
