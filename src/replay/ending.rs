//! The end of a line: the ending the record states, judged against the
//! board, gives the result.

use super::{BoardEnd, Diagnostic, Foul, GameResult, LineResult, ReplayOptions, Verdict};
use crate::codes::{DiagnosticCode, Reason};
use crate::record::{Ending, EndingKind, Record};
use crate::rules::position::{DeclarationOutcome, Position};
use crate::rules::rule::Rule;
use crate::rules::types::Color;

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

fn win(winner: Color, reason: Reason) -> GameResult {
    GameResult {
        winner: Some(winner),
        reason,
    }
}

fn no_result(reason: Reason) -> GameResult {
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
                BoardEnd::Checkmate => win(mover.flip(), Reason::Checkmate),
                BoardEnd::NoLegalMove => win(mover.flip(), Reason::NoLegalMove),
                BoardEnd::Sennichite => no_result(Reason::Sennichite),
                BoardEnd::None => no_result(Reason::NoResult),
            });
        };
        if self.board_end == BoardEnd::Sennichite {
            let mut j = Judgement::result(no_result(Reason::Sennichite));
            if e.kind != EndingKind::Sennichite {
                j.diagnostic = Some(
                    self.disagreement(e, "the game ended by a fourth repetition (sennichite)"),
                );
            }
            return j;
        }
        if self.unresolved {
            return Judgement::result(no_result(Reason::NoResult));
        }
        self.claim(e, opts)
    }

    /// The line ended with a foul: the offender loses, whatever the record says.
    fn after_foul(&self, f: &Foul) -> Judgement {
        let mut j = Judgement::result(win(f.loser.flip(), Reason::Foul));
        if let Some(e) = self.ending {
            let agrees = match e.kind {
                EndingKind::FoulBy(c) => c == f.loser,
                // A perpetual check's move was played: the word is about
                // the side to move after it, which the loser may or may not be.
                EndingKind::FoulByMover | EndingKind::FoulByPrevious
                    if f.rule == Rule::PerpetualCheck =>
                {
                    let loser_to_move = f.loser == self.pos.side_to_move();
                    loser_to_move == (e.kind == EndingKind::FoulByMover)
                }
                EndingKind::FoulByMover | EndingKind::FoulByPrevious => true,
                EndingKind::Sennichite => f.rule == Rule::PerpetualCheck,
                _ => false,
            };
            if !agrees {
                let why = format!(
                    "ply {} was a foul ({}) by {}",
                    f.ply,
                    f.rule.code(),
                    f.loser.name()
                );
                j.diagnostic = Some(self.disagreement(e, &why));
            }
        }
        j
    }

    /// The ending `e` the record claims, after a legal line.
    fn claim(&self, e: &Ending, opts: &ReplayOptions) -> Judgement {
        let mover = self.pos.side_to_move();
        // A side with no legal move has lost on the board, whatever it wrote.
        let lost_on_board = match self.board_end {
            BoardEnd::Checkmate => Some(Reason::Checkmate),
            BoardEnd::NoLegalMove => Some(Reason::NoLegalMove),
            BoardEnd::None | BoardEnd::Sennichite => None,
        };
        let mated = lost_on_board.is_some();
        let mut j = Judgement::result(no_result(Reason::NoResult));
        j.result = match e.kind {
            EndingKind::Resign => win(mover.flip(), lost_on_board.unwrap_or(Reason::Resign)),
            EndingKind::Tsumi => {
                if !mated {
                    j.diagnostic = Some(self.diagnostic(
                        DiagnosticCode::FalseMateClaim,
                        format!(
                            "the record claims checkmate ({:?}) but {} is not mated",
                            e.text,
                            mover.name()
                        ),
                    ));
                }
                win(mover.flip(), lost_on_board.unwrap_or(Reason::Checkmate))
            }
            EndingKind::Sennichite => {
                j.diagnostic = Some(self.diagnostic(
                    DiagnosticCode::FalseSennichiteClaim,
                    format!(
                        "the record claims repetition ({:?}) but no position occurred four times",
                        e.text
                    ),
                ));
                no_result(Reason::Sennichite)
            }
            EndingKind::Kachi => return self.declaration(e, opts),
            EndingKind::FoulByMover | EndingKind::FoulByPrevious | EndingKind::FoulBy(_) => {
                let loser = match e.kind {
                    EndingKind::FoulByPrevious => mover.flip(),
                    EndingKind::FoulBy(c) => c,
                    _ => mover,
                };
                j.diagnostic = Some(self.diagnostic(
                    DiagnosticCode::UnverifiedFoulClaim,
                    format!(
                        "the record says {} lost by a foul ({:?}) that its moves do not show (it may be a foul outside the record, such as time or a server rule)",
                        loser.name(),
                        e.text
                    ),
                ));
                win(loser.flip(), Reason::Foul)
            }
            EndingKind::TimeUp => win(mover.flip(), Reason::TimeUp),
            EndingKind::DefaultWin => win(mover, Reason::ByDefault),
            EndingKind::DefaultLoss => win(mover.flip(), Reason::ByDefault),
            EndingKind::Try => win(mover.flip(), Reason::Try),
            EndingKind::Jishogi => no_result(Reason::Jishogi),
            EndingKind::Hikiwake => no_result(Reason::Draw),
            EndingKind::MaxMoves => no_result(Reason::MaxMoves),
            EndingKind::Interrupt | EndingKind::Sealed | EndingKind::Matta | EndingKind::Error => {
                match lost_on_board {
                    Some(reason) => win(mover.flip(), reason),
                    None => no_result(Reason::Interrupted),
                }
            }
            EndingKind::Fuzumi => no_result(Reason::NoMate),
        };
        j
    }

    /// An entering-king declaration by the side to move.
    fn declaration(&self, e: &Ending, opts: &ReplayOptions) -> Judgement {
        let mover = self.pos.side_to_move();
        match self.pos.judge_declaration(opts.declaration) {
            Ok(DeclarationOutcome::Win) => Judgement::result(win(mover, Reason::Declaration)),
            // The JSA rule's 24 to 30 points: 持将棋.
            Ok(DeclarationOutcome::Draw { .. }) => Judgement::result(no_result(Reason::Jishogi)),
            Err(why) => Judgement {
                result: win(mover.flip(), Reason::Foul),
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

    /// The finding that the recorded ending `e` disagrees with the board,
    /// which shows `why`.
    fn disagreement(&self, e: &Ending, why: &str) -> Diagnostic {
        self.diagnostic(
            DiagnosticCode::EndingDisagrees,
            format!("the record ends with {:?}, but {why}", e.text),
        )
    }

    fn diagnostic(&self, code: DiagnosticCode, message: String) -> Diagnostic {
        Diagnostic {
            code,
            message,
            span: self.ending.filter(|_| !self.from_closing).map(|e| e.span),
            ply: Some(self.next_ply),
        }
    }
}

/// The move limit `record` names: CSA V3.0's `$MAX_MOVES`, KIF's
/// `最大手数`, or floodgate's `'Max_Moves:` comment.
fn move_limit(record: &Record) -> Option<u32> {
    let header = record
        .header
        .iter()
        .filter(|f| f.key == "MAX_MOVES" || f.key == "最大手数")
        .map(|f| f.value.as_str());
    let floodgate = record
        .notes
        .iter()
        .filter_map(|n| n.strip_prefix("'Max_Moves:"));
    header.chain(floodgate).find_map(|v| v.trim().parse().ok())
}

/// A main line that ends by the move limit must be as long as the limit,
/// where the record names one: the claim is judged as a mate or a
/// repetition is. Nothing to say after a foul, which is judged first.
pub(super) fn move_limit_claim(record: &Record, main: &LineResult) -> Option<Diagnostic> {
    let e = record
        .main
        .ending
        .as_ref()
        .filter(|e| e.kind == EndingKind::MaxMoves)?;
    if !main.verdict.is_legal() {
        return None;
    }
    let limit = move_limit(record)?;
    let played = main.plies.len();
    if played == limit as usize {
        return None;
    }
    Some(Diagnostic {
        code: DiagnosticCode::FalseMaxMovesClaim,
        message: format!(
            "the record ends by the move limit ({:?}) after {played} moves, but the limit it names is {limit}",
            e.text
        ),
        span: Some(e.span),
        ply: Some(main.first_ply + played as u32),
    })
}
