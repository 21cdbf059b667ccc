//! Replaying one line of play (the main line or a variation): a
//! [`LineReplay`] is stepped once per move and finished into a
//! [`LineResult`] when the moves run out or play ends.

use super::ending::EndState;
use super::{
    BoardEnd, Diagnostic, Foul, History, LineResult, Ply, ReplayOptions, Stop, Verdict, play_entry,
};
use crate::codes::DiagnosticCode;
use crate::record::{Ending, Line, MoveEntry, Notation};
use crate::resolve::Unresolved;
use crate::rules::position::Position;
use crate::rules::rule::Rule;
use crate::rules::types::{Color, Move, Square};

/// The state of a line being replayed.
pub(super) struct LineReplay<'l> {
    line: &'l Line,
    pos: Position,
    hist: History,
    prev_to: Option<Square>,
    first_ply: u32,
    /// The start position's move number (differs from `first_ply` after a 手数＝N diagram).
    base_number: u32,
    plies: Vec<Ply>,
    diagnostics: Vec<Diagnostic>,
    verdict: Verdict,
    board_end: BoardEnd,
    /// The index of the first move not replayed, when play ended before the moves did.
    stopped_at: Option<usize>,
    /// The last ply gave check and nothing has yet shown whether it mated.
    /// Deciding that needs a search for a legal reply; the next move, when
    /// it is legal, is that reply, so the search is left until a move fails.
    check_unanswered: bool,
}

/// Replay `line` from `pos`, whose history is `hist` and previous
/// destination `prev_to`. `closing`: the ending a `まで` line states, judged
/// when the line has no ending of its own.
pub(super) fn replay_line(
    line: &Line,
    pos: Position,
    hist: History,
    prev_to: Option<Square>,
    first_ply: u32,
    closing: Option<&Ending>,
    opts: &ReplayOptions,
) -> LineResult {
    let mut r = LineReplay::new(line, pos, hist, prev_to, first_ply);
    for (i, entry) in line.moves.iter().enumerate() {
        if !r.step(i, entry) {
            break;
        }
    }
    r.finish(closing, opts)
}

impl<'l> LineReplay<'l> {
    pub(super) fn new(
        line: &'l Line,
        pos: Position,
        hist: History,
        prev_to: Option<Square>,
        first_ply: u32,
    ) -> LineReplay<'l> {
        LineReplay {
            line,
            base_number: pos.move_number(),
            pos,
            hist,
            prev_to,
            first_ply,
            plies: Vec::with_capacity(line.moves.len()),
            diagnostics: Vec::new(),
            verdict: Verdict::Legal,
            board_end: BoardEnd::None,
            stopped_at: None,
            check_unanswered: false,
        }
    }

    /// Play move `i` of the line; false when play has ended there.
    #[inline(always)]
    pub(super) fn step(&mut self, i: usize, entry: &MoveEntry) -> bool {
        let ply = self.first_ply + i as u32;
        if self.board_end == BoardEnd::Sennichite {
            self.stopped_at = Some(i);
            return false;
        }
        let us = self.pos.side_to_move();
        let (mv, piece, capture) = match play_entry(&mut self.pos, &entry.notation, self.prev_to) {
            Ok(done) => done,
            Err(stop) => {
                self.stop(i, entry, stop);
                return false;
            }
        };
        let same = self.prev_to == Some(mv.to());
        let check = self.pos.in_check();
        self.prev_to = Some(mv.to());
        self.plies.push(Ply {
            mv,
            color: us,
            piece,
            capture,
            check,
            same,
        });
        let count = self.hist.push(self.pos.key(), check);
        if count >= 4 {
            if let Some(checker) = self.hist.perpetual_checker(us) {
                self.verdict = Verdict::Foul(Foul {
                    ply,
                    move_number: self.base_number + i as u32,
                    rule: Rule::PerpetualCheck,
                    loser: checker,
                    mv: Some(mv),
                    piece: Some(piece),
                    span: entry.span,
                    detail: format!(
                        "the position occurs for the fourth time and {} gave check with every move of the cycle",
                        checker.name()
                    ),
                });
                self.stopped_at = Some(i + 1);
                return false;
            }
            self.board_end = BoardEnd::Sennichite;
            self.check_unanswered = false;
            return true;
        }
        self.check_unanswered = check;
        true
    }

    /// Move `i` failed (the position is as before it): end play there,
    /// saying why.
    #[cold]
    fn stop(&mut self, i: usize, entry: &MoveEntry, stop: Stop) {
        let ply = self.first_ply + i as u32;
        let move_number = self.base_number + i as u32;
        let pos = &self.pos;
        if self.check_unanswered && !pos.has_legal_move() {
            // Play goes on: the mated side's next move is necessarily a foul,
            // which is what records of such games (81Dojo) mean by it.
            self.board_end = BoardEnd::Checkmate;
            self.diagnostics.push(Diagnostic {
                code: DiagnosticCode::MovesAfterCheckmate,
                message: format!(
                    "ply {} checkmated {}, but the record goes on",
                    ply - 1,
                    pos.side_to_move().name()
                ),
                span: Some(entry.span),
                ply: Some(ply),
            });
        }
        self.stopped_at = Some(i + 1);
        let stopped = |code, message: String| Diagnostic {
            code,
            message,
            span: Some(entry.span),
            ply: Some(ply),
        };
        match stop {
            Stop::Unresolved(Unresolved::Foul { rule, mv, detail }) => {
                self.verdict = Verdict::Foul(Foul {
                    ply,
                    move_number,
                    rule,
                    loser: notation_color(entry).unwrap_or(pos.side_to_move()),
                    mv,
                    piece: None,
                    span: entry.span,
                    detail,
                });
            }
            Stop::Unresolved(Unresolved::Ambiguous(c)) => {
                let list: Vec<String> = c.iter().map(|s| s.to_string()).collect();
                let message = format!(
                    "the move matches several pieces ({}); replay stops here",
                    list.join(", ")
                );
                self.diagnostics
                    .push(stopped(DiagnosticCode::AmbiguousMove, message));
            }
            Stop::Unresolved(Unresolved::NoPreviousMove) => {
                let message = "同 (same square) with no previous move; replay stops here".into();
                self.diagnostics
                    .push(stopped(DiagnosticCode::BadNotation, message));
            }
            Stop::Illegal(mv, piece, mover, rule) => {
                let detail = foul_detail(pos, rule, mv, mover);
                self.verdict = Verdict::Foul(Foul {
                    ply,
                    move_number,
                    rule,
                    loser: mover,
                    mv: Some(mv),
                    piece: Some(piece),
                    span: entry.span,
                    detail,
                });
            }
        }
    }

    /// The line's result: what the board says about the end, the moves
    /// written after it, and the recorded ending (or else `closing`)
    /// judged against both.
    pub(super) fn finish(mut self, closing: Option<&Ending>, opts: &ReplayOptions) -> LineResult {
        if self.board_end == BoardEnd::None
            && self.verdict.is_legal()
            && self.stopped_at.is_none()
            && !self.pos.has_legal_move()
        {
            self.board_end = if self.pos.in_check() {
                BoardEnd::Checkmate
            } else {
                BoardEnd::NoLegalMove
            };
        }
        if let Some(d) = self.moves_after_end() {
            self.diagnostics.push(d);
        }
        let unresolved = self.verdict.is_legal()
            && self.board_end == BoardEnd::None
            && self.stopped_at.is_some();
        let played = self.plies.len() as u32;
        let end = EndState {
            ending: self.line.ending.as_ref().or(closing),
            from_closing: self.line.ending.is_none() && closing.is_some(),
            pos: &self.pos,
            board_end: self.board_end,
            next_ply: self.first_ply + played,
            next_number: self.base_number + played,
            unresolved,
        };
        let judgement = end.judge(&self.verdict, opts);
        self.diagnostics.extend(judgement.diagnostic);
        if let Some(f) = judgement.foul {
            self.verdict = Verdict::Foul(f);
        }
        LineResult {
            plies: self.plies,
            verdict: self.verdict,
            result: judgement.result,
            diagnostics: self.diagnostics,
            board_end: self.board_end,
            first_ply: self.first_ply,
        }
    }

    /// The diagnostic for moves written after the end of play, if any.
    fn moves_after_end(&self) -> Option<Diagnostic> {
        let s = self.stopped_at?;
        let extra = self.line.moves.len().saturating_sub(s);
        if extra == 0 {
            return None;
        }
        let first = &self.line.moves[s];
        let (code, what) = match (&self.verdict, self.board_end) {
            (Verdict::Foul(_), _) => (DiagnosticCode::MovesAfterFoul, "the foul"),
            (_, BoardEnd::Sennichite) => (
                DiagnosticCode::MovesAfterEnd,
                "the fourth repetition (sennichite)",
            ),
            _ => (
                DiagnosticCode::MovesNotReplayed,
                "the point where replay stopped",
            ),
        };
        Some(Diagnostic {
            code,
            message: format!(
                "{extra} move{} written after {what} {} not replayed (kept in the record)",
                if extra == 1 { "" } else { "s" },
                if extra == 1 { "was" } else { "were" }
            ),
            span: Some(first.span),
            ply: Some(self.first_ply + s as u32),
        })
    }
}

fn notation_color(entry: &MoveEntry) -> Option<Color> {
    match entry.notation {
        Notation::Csa { color, .. } => Some(color),
        Notation::Kif { color, .. } | Notation::Ki2 { color, .. } => color,
        Notation::Usi(_) | Notation::VariantUsi(_) | Notation::VariantKif { .. } => None,
    }
}

/// Words for a foul, naming the facts on the board.
fn foul_detail(pos: &Position, rule: Rule, mv: Move, mover: Color) -> String {
    let to = mv.to();
    match rule {
        Rule::WrongTurn => format!(
            "{} moved but it is {}'s turn",
            mover.name(),
            pos.side_to_move().name()
        ),
        Rule::NoPiece => match mv.from() {
            Some(f) => match pos.piece_at(f) {
                None => format!("{f} is empty"),
                Some(p) => format!("{f} holds a {} of {}", p.kind.kif(), p.color.name()),
            },
            None => "no such piece".into(),
        },
        Rule::BadMovement => {
            let name = mv
                .from()
                .and_then(|f| pos.piece_at(f))
                .map_or("piece", |p| p.kind.kif());
            format!(
                "{name} cannot move from {} to {to}",
                mv.from().map_or("?".into(), |f| f.to_string())
            )
        }
        Rule::NotInHand => match mv {
            Move::Drop { kind, .. } => format!("{} has no {} in hand", mover.name(), kind.kif()),
            _ => "not in hand".into(),
        },
        Rule::OccupiedDrop => format!("{to} is occupied"),
        Rule::BadPromotion => "this move cannot promote".into(),
        Rule::DeadPiece => format!("the piece could never move again from {to}"),
        Rule::Nifu => format!(
            "{} already has an unpromoted pawn on file {}",
            mover.name(),
            to.file()
        ),
        Rule::Uchifuzume => "the pawn drop gives checkmate".into(),
        Rule::SelfCheck => {
            if pos.in_check() {
                format!(
                    "{} is in check and the move does not answer it",
                    mover.name()
                )
            } else {
                format!("the move leaves {}'s king in check", mover.name())
            }
        }
        Rule::PerpetualCheck | Rule::FalseDeclaration => String::new(),
    }
}
