//! The end of a line: the ending the record states, judged against the
//! board, gives the result.

use super::{BoardEnd, Diagnostic, Foul, GameResult, ReplayOptions, Verdict};
use crate::position::{DeclarationOutcome, Position};
use crate::record::{Ending, EndingKind};
use crate::rule::Rule;
use crate::types::Color;

/// Where a line's play ended, as the ending is judged from.
pub(super) struct EndState<'a> {
    /// The ending the record states.
    pub ending: Option<&'a Ending>,
    /// The ending is the `まで` line's, which has no span of its own.
    pub from_closing: bool,
    /// The position after the last legal ply.
    pub pos: &'a Position,
    pub board_end: BoardEnd,
    /// The ply and move number the ending stands at.
    pub next_ply: u32,
    pub next_number: u32,
    /// Replay stopped early without a foul (an ambiguous move, say): the
    /// ending cannot be checked.
    pub unresolved: bool,
}

/// What judging the ending gives.
pub(super) struct Judgement {
    pub result: GameResult,
    /// A foul the ending itself is (a false declaration).
    pub foul: Option<Foul>,
    /// A disagreement between the ending and the board.
    pub diagnostic: Option<Diagnostic>,
}

impl Judgement {
    fn result(result: GameResult) -> Judgement {
        Judgement {
            result,
            foul: None,
            diagnostic: None,
        }
    }
}

fn win(winner: Color, reason: &'static str) -> GameResult {
    GameResult {
        winner: Some(winner),
        reason,
    }
}

fn no_result(reason: &'static str) -> GameResult {
    GameResult {
        winner: None,
        reason,
    }
}

impl EndState<'_> {
    /// Compare the recorded ending with the board, and decide the result.
    pub fn judge(&self, verdict: &Verdict, opts: &ReplayOptions) -> Judgement {
        if let Verdict::Foul(f) = verdict {
            return self.after_foul(f);
        }
        let mover = self.pos.side_to_move();
        let Some(e) = self.ending else {
            return Judgement::result(match self.board_end {
                BoardEnd::Checkmate => win(mover.flip(), "checkmate"),
                BoardEnd::NoLegalMove => win(mover.flip(), "no-legal-move"),
                BoardEnd::Sennichite => no_result("sennichite"),
                BoardEnd::None => no_result("none"),
            });
        };
        if self.board_end == BoardEnd::Sennichite {
            let mut j = Judgement::result(no_result("sennichite"));
            if e.kind != EndingKind::Sennichite {
                j.diagnostic = Some(self.diagnostic(
                    "ending-disagrees",
                    format!(
                        "the record ends with {:?}, but the game ended by a fourth repetition (sennichite)",
                        e.text
                    ),
                ));
            }
            return j;
        }
        if self.unresolved {
            return Judgement::result(no_result("none"));
        }
        self.claim(e, opts)
    }

    /// The line ended with a foul: the offender loses, whatever the record says.
    fn after_foul(&self, f: &Foul) -> Judgement {
        let mut j = Judgement::result(win(f.loser.flip(), "foul"));
        if let Some(e) = self.ending {
            let agrees = match e.kind {
                EndingKind::FoulBy(c) => c == f.loser,
                EndingKind::FoulByMover | EndingKind::FoulByPrevious => true,
                EndingKind::Sennichite => f.rule == Rule::PerpetualCheck,
                _ => false,
            };
            if !agrees {
                j.diagnostic = Some(self.diagnostic(
                    "ending-disagrees",
                    format!(
                        "the record ends with {:?}, but ply {} was a foul ({}) by {}",
                        e.text,
                        f.ply,
                        f.rule.code(),
                        f.loser.name()
                    ),
                ));
            }
        }
        j
    }

    /// The ending `e` the record claims, after a legal line.
    fn claim(&self, e: &Ending, opts: &ReplayOptions) -> Judgement {
        let mover = self.pos.side_to_move();
        // A side with no legal move has lost on the board, whatever it wrote.
        let lost_on_board = match self.board_end {
            BoardEnd::Checkmate => Some("checkmate"),
            BoardEnd::NoLegalMove => Some("no-legal-move"),
            BoardEnd::None | BoardEnd::Sennichite => None,
        };
        let mated = lost_on_board.is_some();
        let mut j = Judgement::result(no_result("none"));
        j.result = match e.kind {
            EndingKind::Resign => win(mover.flip(), lost_on_board.unwrap_or("resign")),
            EndingKind::Tsumi => {
                if !mated {
                    j.diagnostic = Some(self.diagnostic(
                        "false-mate-claim",
                        format!(
                            "the record claims checkmate ({:?}) but {} is not mated",
                            e.text,
                            mover.name()
                        ),
                    ));
                }
                win(mover.flip(), lost_on_board.unwrap_or("checkmate"))
            }
            EndingKind::Sennichite => {
                j.diagnostic = Some(self.diagnostic(
                    "false-sennichite-claim",
                    format!(
                        "the record claims repetition ({:?}) but no position occurred four times",
                        e.text
                    ),
                ));
                no_result("sennichite")
            }
            EndingKind::Kachi => return self.declaration(e, opts),
            EndingKind::FoulByMover | EndingKind::FoulByPrevious | EndingKind::FoulBy(_) => {
                let loser = match e.kind {
                    EndingKind::FoulByPrevious => mover.flip(),
                    EndingKind::FoulBy(c) => c,
                    _ => mover,
                };
                j.diagnostic = Some(self.diagnostic(
                    "unverified-foul-claim",
                    format!(
                        "the record says {} lost by a foul ({:?}) that its moves do not show (it may be a foul outside the record, such as time or a server rule)",
                        loser.name(),
                        e.text
                    ),
                ));
                win(loser.flip(), "foul")
            }
            EndingKind::TimeUp => win(mover.flip(), "time-up"),
            EndingKind::DefaultWin => win(mover, "default"),
            EndingKind::DefaultLoss => win(mover.flip(), "default"),
            EndingKind::Try => win(mover.flip(), "try"),
            EndingKind::Jishogi => no_result("jishogi"),
            EndingKind::Hikiwake => no_result("draw"),
            EndingKind::MaxMoves => no_result("max-moves"),
            EndingKind::Interrupt | EndingKind::Sealed | EndingKind::Matta | EndingKind::Error => {
                match lost_on_board {
                    Some(reason) => win(mover.flip(), reason),
                    None => no_result("interrupted"),
                }
            }
            EndingKind::Fuzumi => no_result("no-mate"),
        };
        j
    }

    /// An entering-king declaration by the side to move.
    fn declaration(&self, e: &Ending, opts: &ReplayOptions) -> Judgement {
        let mover = self.pos.side_to_move();
        match self.pos.judge_declaration(opts.declaration) {
            Ok(DeclarationOutcome::Win) => Judgement::result(win(mover, "declaration")),
            // The JSA rule's 24 to 30 points: 持将棋.
            Ok(DeclarationOutcome::Draw { .. }) => Judgement::result(no_result("jishogi")),
            Err(why) => Judgement {
                result: win(mover.flip(), "foul"),
                foul: Some(Foul {
                    ply: self.next_ply,
                    move_number: self.next_number,
                    rule: Rule::FalseDeclaration,
                    loser: mover,
                    mv: None,
                    piece: None,
                    span: e.span,
                    detail: why,
                }),
                diagnostic: None,
            },
        }
    }

    fn diagnostic(&self, code: &'static str, message: String) -> Diagnostic {
        Diagnostic {
            code,
            message,
            span: self.ending.filter(|_| !self.from_closing).map(|e| e.span),
            ply: Some(self.next_ply),
        }
    }
}
