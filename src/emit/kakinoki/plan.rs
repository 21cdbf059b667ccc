//! What will be written for each line of play, decided before writing so
//! that `+` markers and variation blocks agree with the move lines: how many
//! moves, the foul move, the moves kept as comments, the terminal word and
//! the `まで` line, and the clocks.

use super::{LineId, Sheet, mover_at};
use crate::notation::written_piece;
use crate::record::{EndingKind, Line};
use crate::replay::{Foul, LineResult, Verdict};
use crate::rules::rule::Rule;
use crate::rules::types::{Color, Move, PieceKind, Square};

/// What will be written for one line of play.
#[derive(Clone, Debug, Default)]
pub(crate) struct Plan {
    /// Number of move lines (legal plies, plus the foul move when written).
    pub(crate) written: usize,
    /// The foul move written after the plies: move, piece before, 同.
    pub(crate) foul_move: Option<(Move, PieceKind, bool)>,
    /// Record moves from this index on are written as comments.
    pub(crate) commented_from: usize,
    /// The terminal word and its `まで` line, if any.
    pub(crate) ending: Option<(String, Option<String>)>,
    /// Destination of the move before this line's first move.
    pub(crate) prev_to: Option<Square>,
    /// Each side's total time (ms) before each written move (len `written + 1`).
    pub(crate) totals: Vec<[u64; 2]>,
    /// Whether the line is written at all.
    pub(crate) keep: bool,
    /// Whether variations branch from the terminal word (its line gets `+`).
    pub(crate) ending_forks: bool,
}

impl Plan {
    /// Written move `i` of the line `r`: the ply's move, piece before and
    /// 同, or past the plies the foul move.
    pub(crate) fn move_at(&self, r: &LineResult, i: usize) -> (Move, PieceKind, bool) {
        match r.plies.get(i) {
            Some(p) => (p.mv, p.piece, p.same),
            None => self
                .foul_move
                .expect("the written move past the plies is the foul"),
        }
    }
}

impl Sheet<'_> {
    /// The plan of line `id`, from its replay and the plan of its parent.
    pub(super) fn plan(&self, id: LineId) -> Plan {
        let r = self.result(id);
        let Some(line) = self.record_line(id) else {
            return Plan::default();
        };
        // Where the line starts: the previous destination and the clocks.
        let (prev_to, start_totals) = match id {
            None => (None, [0, 0]),
            Some(i) => {
                let v = &self.game.variations[i];
                let parent = self.plan_of(v.parent);
                let prev = if v.entry == 0 {
                    parent.prev_to
                } else {
                    Some(self.result(v.parent).plies[v.entry - 1].mv.to())
                };
                (prev, parent.totals.get(v.entry).copied().unwrap_or([0, 0]))
            }
        };
        let n = r.plies.len();
        let mut plan = Plan {
            written: n,
            commented_from: n,
            prev_to,
            ..Plan::default()
        };
        let first_mover = self.first_mover(r);
        match &r.verdict {
            Verdict::Foul(f) => self.plan_foul(id, line, r, f, &mut plan),
            Verdict::Legal => {
                let moves = r.first_ply - 1 + n as u32;
                let mover = mover_at(first_mover, n);
                plan.ending = match &line.ending {
                    Some(e) => Some(legal_ending(e.kind, moves, mover, |c| self.label(c))),
                    None => r.result.winner.map(|w| {
                        (
                            String::new(),
                            Some(format!("まで{moves}手で{}の勝ち", self.label(w))),
                        )
                    }),
                };
            }
        }
        plan.keep = id.is_none() || plan.written > 0 || line.ending.is_some();
        // Clocks before each written move.
        let mut totals = start_totals;
        plan.totals.push(totals);
        for i in 0..plan.written {
            let c = mover_at(first_mover, i);
            if let Some(t) = line.moves.get(i).and_then(|m| m.time) {
                let spent = t.spent_ms.unwrap_or(0);
                totals[c.index()] = t.total_ms.unwrap_or(totals[c.index()] + spent);
            }
            plan.totals.push(totals);
        }
        plan
    }

    /// The moves written and the ending of a line that ends with the foul `f`.
    fn plan_foul(&self, id: LineId, line: &Line, r: &LineResult, f: &Foul, plan: &mut Plan) {
        let n = r.plies.len();
        let base = r.first_ply - 1;
        let in_plies = r.foul_played();
        // A KIF move line's side follows from its number, so a move
        // by the wrong side would read back as a legal move of the
        // right side: the foul vanishes. Keep it as a comment instead.
        let wrong_turn = f.rule == Rule::WrongTurn;
        if in_plies {
            // Perpetual check: the foul is the last legal-looking ply.
            plan.commented_from = n;
        } else if !wrong_turn && let Some((mv, piece)) = self.foul_move(id, f, line) {
            let prev = r.plies.last().map(|p| p.mv.to()).or(plan.prev_to);
            plan.foul_move = Some((mv, piece, prev == Some(mv.to())));
            plan.written = n + 1;
            plan.commented_from = n + 1;
        }
        // After a foul judged on a move already played (perpetual check),
        // the side to move may be the loser (the checked side's move
        // completed the repetition): that is 反則負け, as after a foul
        // move left out.
        let loser_to_move = in_plies && mover_at(self.first_mover(r), n) == f.loser;
        if (plan.written > n || in_plies || wrong_turn) && !loser_to_move {
            let moves = base + plan.written as u32;
            let winner = f.loser.flip();
            plan.ending = Some((
                "反則勝ち".into(),
                Some(format!("まで{moves}手で{}の反則勝ち", self.label(winner))),
            ));
        } else {
            let moves = base + n as u32;
            let mover = mover_at(self.first_mover(r), n);
            plan.ending = Some((
                "反則負け".into(),
                Some(format!("まで{moves}手で{}の反則負け", self.label(mover))),
            ));
        }
    }

    /// The foul move of a line and the piece that made it, when both can be
    /// named: from the replay, else the notation, else the board.
    fn foul_move(&self, id: LineId, f: &Foul, line: &Line) -> Option<(Move, PieceKind)> {
        let mv = f.mv?;
        if let Some(p) = f.piece {
            return Some((mv, p));
        }
        let r = self.result(id);
        let entry = line.moves.get(r.plies.len());
        let from_notation = entry.and_then(|e| written_piece(&e.notation, mv));
        if from_notation.is_some() {
            return from_notation.map(|p| (mv, p));
        }
        match mv {
            Move::Drop { kind, .. } => Some((mv, kind)),
            Move::Normal { from, .. } => {
                let pos = self.position_before(id, r.plies.len());
                pos.piece_at(from).map(|p| (mv, p.kind))
            }
        }
    }
}

pub(super) fn is_foul(k: EndingKind) -> bool {
    matches!(
        k,
        EndingKind::FoulByMover | EndingKind::FoulByPrevious | EndingKind::FoulBy(_)
    )
}

/// Whether the KIF word written for `k` reads back as `k`.
pub(crate) fn kif_word_keeps(k: EndingKind) -> bool {
    !matches!(
        k,
        EndingKind::Hikiwake | EndingKind::MaxMoves | EndingKind::Matta | EndingKind::Error
    )
}

/// The terminal word and `まで` line of a line that ended without a foul.
/// `moves` = moves played, `mover` = the side to move at the end.
pub(crate) fn legal_ending(
    kind: EndingKind,
    moves: u32,
    mover: Color,
    label: impl Fn(Color) -> &'static str,
) -> (String, Option<String>) {
    use EndingKind::*;
    let won = |c: Color, what: &str| Some(format!("まで{moves}手で{}の{what}", label(c)));
    let plain = |w: &str| Some(format!("まで{moves}手で{w}"));
    let (word, summary) = match kind {
        Resign => ("投了", won(mover.flip(), "勝ち")),
        Interrupt => ("中断", plain("中断")),
        Sennichite => ("千日手", plain("千日手")),
        // KIF has no word for a declared draw or the move limit; tsshogi
        // writes 持将棋 for both (kif.md §8).
        Jishogi | Hikiwake | MaxMoves => ("持将棋", plain("持将棋")),
        TimeUp => (
            "切れ負け",
            Some(format!(
                "まで{moves}手で時間切れにより{}の勝ち",
                label(mover.flip())
            )),
        ),
        FoulByMover => ("反則負け", won(mover, "反則負け")),
        FoulByPrevious => ("反則勝ち", won(mover, "反則勝ち")),
        FoulBy(c) if c == mover => ("反則負け", won(mover, "反則負け")),
        FoulBy(_) => ("反則勝ち", won(mover, "反則勝ち")),
        Tsumi => ("詰み", plain("詰")),
        Fuzumi => ("不詰", plain("不詰")),
        Kachi => ("入玉勝ち", won(mover, "入玉勝ち")),
        Matta | Error => ("中断", plain("中断")),
        Sealed => ("封じ手", plain("封じ手")),
        DefaultWin => ("不戦勝", won(mover, "勝ち")),
        DefaultLoss => ("不戦敗", won(mover.flip(), "勝ち")),
        Try => ("トライ", won(mover, "勝ち")),
    };
    (word.to_string(), summary)
}
