//! Replaying a variant record on the table engine: every move judged,
//! repetition counted by the variant's rule, and the recorded ending
//! checked against the board.

use super::{Board, RepetitionRule, VMove, VariantFoul};
use crate::codes::{DiagnosticCode, Reason};
use crate::notation::chu;
use crate::record::{EndingKind, Location, MoveEntry, Notation, Record, StartPosition};
use crate::rules::rule::Rule;
use crate::rules::types::Color;
use std::collections::HashMap;

/// One legal move that was played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VPly {
    /// The move.
    pub mv: VMove,
    /// The piece id before the move.
    pub piece: u8,
    /// The piece captured, if any.
    pub capture: Option<u8>,
    /// Whether the move gives check.
    pub check: bool,
}

/// The first illegal move of a variant game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VFoul {
    /// 1-based ply.
    pub ply: u32,
    /// The rule broken.
    pub foul: VariantFoul,
    /// The side that loses by it.
    pub loser: Color,
    /// The move in USI, where one could be formed (for a repetition foul,
    /// the move that completed the fourth occurrence: the game's last ply).
    pub usi: Option<String>,
    /// Where the move is written.
    pub span: Location,
}

/// A finding about a variant game that is not a foul (a disagreeing ending).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VDiagnostic {
    /// Stable code (shared with shogi's: `ending-disagrees`, …).
    pub code: DiagnosticCode,
    /// Explanation.
    pub message: String,
    /// Where it points.
    pub span: Option<Location>,
}

/// A replayed variant game.
#[derive(Clone, Debug)]
pub struct VariantGame {
    /// The record replayed.
    pub record: Record,
    /// The start position (the record's, a [`StartPosition::Variant`]).
    pub start: Board,
    /// The legal moves played, in order.
    pub plies: Vec<VPly>,
    /// The position after the last legal move.
    pub end: Board,
    /// The first foul, if any.
    pub foul: Option<VFoul>,
    /// The winner, if the game has one.
    pub winner: Option<Color>,
    /// Why the game ended as it did: shogi's reasons, and
    /// [`Reason::RoyalCaptured`] and [`Reason::Repetition`] of the variants.
    pub reason: Reason,
    /// Findings that are not fouls.
    pub diagnostics: Vec<VDiagnostic>,
}

impl VariantGame {
    /// Whether the foul is judged on a move already played: a fourth
    /// occurrence (perpetual check, tori shogi's repetition loss) is
    /// reached by a legal move, which is then the last of
    /// [`VariantGame::plies`].
    pub fn foul_played(&self) -> bool {
        self.foul
            .as_ref()
            .is_some_and(|f| f.ply as usize == self.plies.len())
    }
}

/// How the board itself ended the game, before the recorded ending is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OnBoard {
    None,
    NoLegalMove,
    RoyalsGone,
    Repetition,
    /// Chu shogi's bare king, or two lone kings.
    Decided(Option<Color>, Reason),
}

/// Resolve a written move to a [`VMove`] on `board`, or name the foul.
fn resolve(board: &Board, n: &Notation, last_to: Option<u8>) -> Result<VMove, VariantFoul> {
    match *n {
        Notation::VariantUsi(m) => Ok(m),
        Notation::VariantKif {
            to,
            piece,
            promote,
            from,
            via,
        } => {
            let to = to.or(last_to).ok_or(VariantFoul::Shogi(Rule::NoPiece))?;
            let mid = match via {
                Some(cell) => Some(cell.or(last_to).ok_or(VariantFoul::Shogi(Rule::NoPiece))?),
                None => None,
            };
            let Some(from) = from else {
                return Ok(VMove::drop(piece, to));
            };
            let named = chu::names(board, piece);
            let same = |id: u8| {
                let on = chu::names(board, id);
                // KIF may write a quail as plain 鶉: the origin tells which.
                on.iter().any(|n| named.contains(n)) || (named[0] == "鶉" && on[0].ends_with('鶉'))
            };
            if !board.at(from).is_some_and(|(_, id)| same(id)) {
                return Err(VariantFoul::Shogi(Rule::NoPiece));
            }
            Ok(VMove {
                promote: promote == Some(true),
                mid,
                ..VMove::step(from, to)
            })
        }
        // Shogi's notations name shogi's squares and pieces, not this board's.
        _ => Err(VariantFoul::Shogi(Rule::NoPiece)),
    }
}

/// The moves of `moves` played from `board` (`last_to` the destination of
/// the move before them), as far as each is legal: a variation's line,
/// which a writer gives again. The board is left after the last.
pub fn play_line(board: &mut Board, moves: &[MoveEntry], mut last_to: Option<u8>) -> Vec<VMove> {
    let mut played = Vec::with_capacity(moves.len());
    for e in moves {
        let Ok(m) = resolve(board, &e.notation, last_to).and_then(|m| board.judge(m).map(|()| m))
        else {
            break;
        };
        board.play_unchecked(m);
        last_to = Some(m.to);
        played.push(m);
    }
    played
}

/// Why a record was not replayed as a variant's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotAVariant;

impl std::fmt::Display for NotAVariant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(
            "a record of shogi, not of another game of the family: replay it with kifu::replay",
        )
    }
}

impl std::error::Error for NotAVariant {}

/// Replay a record of a variant (one whose start is a
/// [`StartPosition::Variant`] board, as [`crate::parse::usi::parse_variant`]
/// and [`crate::parse::kif::parse_variant`] give): its main line, every move
/// judged; its variations are kept in the record, not replayed.
///
/// ```
/// use kifu::parse::usi::parse_variant;
/// use kifu::variant::{Variant, replay};
///
/// let r = parse_variant("position startpos moves 1e1d 5a5b 2e3d\n", Variant::Mini)?.remove(0);
/// let g = replay::replay(r)?;
/// assert_eq!(g.plies.len(), 3);
/// assert!(g.foul.is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn replay(record: Record) -> Result<VariantGame, NotAVariant> {
    let StartPosition::Variant(start) = &record.start else {
        return Err(NotAVariant);
    };
    let start = (**start).clone();
    let mut board = start.clone();
    let moves = &record.main.moves;
    let mut seen: HashMap<Vec<u8>, Vec<usize>> = HashMap::new();
    seen.entry(board.key()).or_default().push(0);
    let mut plies: Vec<VPly> = Vec::new();
    let mut foul = None;
    let mut board_end = OnBoard::None;
    let mut diagnostics = Vec::new();
    for (i, entry) in moves.iter().enumerate() {
        let (n, span) = (&entry.notation, &entry.span);
        let ply = i as u32 + 1;
        let mover = board.side();
        match board_end {
            OnBoard::None => {}
            // As in shogi: the mated side's next move is necessarily a foul.
            OnBoard::NoLegalMove => diagnostics.push(VDiagnostic {
                code: DiagnosticCode::MovesAfterCheckmate,
                message: format!(
                    "ply {} left {} no legal move, but the record goes on",
                    ply - 1,
                    mover.name()
                ),
                span: Some(*span),
            }),
            OnBoard::RoyalsGone | OnBoard::Repetition | OnBoard::Decided(..) => {
                diagnostics.push(after_end(
                    DiagnosticCode::MovesAfterEnd,
                    moves.len() - i,
                    "the end of the game on the board",
                    *span,
                ));
                break;
            }
        }
        let resolved = resolve(&board, n, plies.last().map(|p| p.mv.to));
        let judged = resolved.and_then(|m| board.judge(m).map(|()| m));
        let m = match judged {
            Ok(m) => m,
            Err(f) => {
                let usi = resolved.ok().map(|m| board.usi(m));
                foul = Some(VFoul {
                    ply,
                    foul: f,
                    loser: mover,
                    usi,
                    span: *span,
                });
                diagnostics.extend(after_foul(moves, i));
                break;
            }
        };
        let piece = match m.from {
            Some(f) => board.at(f).map_or(0, |(_, id)| id),
            None => m.drop,
        };
        let capture = board.play_unchecked(m).map(|(_, id)| id);
        let check = board.checked(board.side());
        plies.push(VPly {
            mv: m,
            piece,
            capture,
            check,
        });
        let at = seen.entry(board.key()).or_default();
        at.push(plies.len());
        if at.len() >= 4 {
            let first = at[0];
            board_end = OnBoard::Repetition;
            // A USI move names cells and a piece letter, not the position:
            // the board after the move writes it as well as the one before.
            let usi = board.usi(m);
            if let Some(f) = repetition_foul(&board, &plies, first, ply, usi, *span) {
                foul = Some(f);
                diagnostics.extend(after_foul(moves, i));
                break;
            }
        } else if board.royals(board.side()).is_empty() {
            board_end = OnBoard::RoyalsGone;
        } else if !board.has_legal_move() {
            board_end = OnBoard::NoLegalMove;
        } else if let Some((winner, reason)) = board.chu_end() {
            board_end = OnBoard::Decided(winner, reason);
        }
    }
    let mut game = VariantGame {
        record,
        start,
        plies,
        end: board,
        foul,
        winner: None,
        reason: Reason::NoResult,
        diagnostics,
    };
    judge_ending(&mut game, board_end);
    Ok(game)
}

/// The finding about `extra` moves written after the game ended.
fn after_end(code: DiagnosticCode, extra: usize, what: &str, span: Location) -> VDiagnostic {
    VDiagnostic {
        code,
        message: format!(
            "{extra} move{} written after {what} {} not replayed (kept in the record)",
            if extra == 1 { "" } else { "s" },
            if extra == 1 { "was" } else { "were" }
        ),
        span: Some(span),
    }
}

/// The finding about the moves written after a foul on move `i`, if any.
fn after_foul(moves: &[MoveEntry], i: usize) -> Option<VDiagnostic> {
    let next = moves.get(i + 1)?;
    Some(after_end(
        DiagnosticCode::MovesAfterFoul,
        moves.len() - i - 1,
        "the foul",
        next.span,
    ))
}

/// The foul a fourth occurrence makes, if any: perpetual check by one side
/// over the whole cycle, else tori shogi's loss for the repeater. The foul
/// is judged on the move just played (`usi`), the last of `plies`.
fn repetition_foul(
    board: &Board,
    plies: &[VPly],
    first: usize,
    ply: u32,
    usi: String,
    span: Location,
) -> Option<VFoul> {
    let cycle = &plies[first..];
    let mover = board.side().flip();
    // Plies alternate; the last one is the mover's, so the mover's are the
    // ones at odd distance from the end.
    let checked_all = |by_mover: bool| {
        cycle
            .iter()
            .rev()
            .enumerate()
            .filter(|(k, _)| (k % 2 == 0) == by_mover)
            .all(|(_, p)| p.check)
    };
    let foul = |loser: Color, foul: VariantFoul| VFoul {
        ply,
        foul,
        loser,
        usi: Some(usi.clone()),
        span,
    };
    if checked_all(true) {
        return Some(foul(mover, VariantFoul::Shogi(Rule::PerpetualCheck)));
    }
    if checked_all(false) {
        return Some(foul(mover.flip(), VariantFoul::Shogi(Rule::PerpetualCheck)));
    }
    (board.rules().repetition == RepetitionRule::MoverLoses)
        .then(|| foul(mover, VariantFoul::RepetitionLoss))
}

fn judge_ending(game: &mut VariantGame, board_end: OnBoard) {
    let mover = game.end.side();
    let ending = game.record.main.ending.clone();
    let mut diag = |code, message| {
        game.diagnostics.push(VDiagnostic {
            code,
            message,
            span: ending.as_ref().map(|e| e.span),
        });
    };
    let (winner, reason) = if let Some(f) = &game.foul {
        if let Some(e) = &ending
            && !matches!(
                e.kind,
                EndingKind::FoulByMover
                    | EndingKind::FoulByPrevious
                    | EndingKind::FoulBy(_)
                    | EndingKind::Sennichite
            )
        {
            diag(
                DiagnosticCode::EndingDisagrees,
                format!(
                    "the record ends with {:?}, but ply {} was a foul ({}) by {}",
                    e.text,
                    f.ply,
                    f.foul.code(),
                    f.loser.name()
                ),
            );
        }
        (Some(f.loser.flip()), Reason::Foul)
    } else {
        let on_board = match board_end {
            // Chu shogi has no check rule: a side without a move is stalemated.
            OnBoard::NoLegalMove if game.end.rules().chu => {
                Some((Some(mover.flip()), Reason::NoLegalMove))
            }
            OnBoard::NoLegalMove => Some((Some(mover.flip()), Reason::Checkmate)),
            OnBoard::RoyalsGone => Some((Some(mover.flip()), Reason::RoyalCaptured)),
            OnBoard::Repetition => Some(match game.end.rules().repetition {
                RepetitionRule::SenteLoses => (Some(Color::Gote), Reason::Repetition),
                _ => (None, Reason::Sennichite),
            }),
            OnBoard::Decided(winner, reason) => Some((winner, reason)),
            OnBoard::None => None,
        };
        match (&ending, on_board) {
            (None, Some(r)) => r,
            (None, None) => (None, Reason::NoResult),
            (Some(e), Some(r)) => {
                let agrees = match board_end {
                    OnBoard::Repetition => e.kind == EndingKind::Sennichite,
                    _ => matches!(e.kind, EndingKind::Resign | EndingKind::Tsumi),
                };
                if !agrees {
                    diag(
                        DiagnosticCode::EndingDisagrees,
                        format!(
                            "the record ends with {:?}, but the game had already ended on the board ({})",
                            e.text, r.1
                        ),
                    );
                }
                r
            }
            (Some(e), None) => recorded_result(e, mover, &mut diag),
        }
    };
    game.winner = winner;
    game.reason = reason;
}

fn recorded_result(
    e: &crate::record::Ending,
    mover: Color,
    diag: &mut impl FnMut(DiagnosticCode, String),
) -> (Option<Color>, Reason) {
    match e.kind {
        EndingKind::Resign => (Some(mover.flip()), Reason::Resign),
        EndingKind::Tsumi => {
            diag(
                DiagnosticCode::FalseMateClaim,
                format!(
                    "the record claims checkmate ({:?}) but {} is not mated",
                    e.text,
                    mover.name()
                ),
            );
            (Some(mover.flip()), Reason::Checkmate)
        }
        EndingKind::Sennichite => {
            diag(
                DiagnosticCode::FalseSennichiteClaim,
                format!(
                    "the record claims repetition ({:?}) but no position occurred four times",
                    e.text
                ),
            );
            (None, Reason::Sennichite)
        }
        EndingKind::TimeUp => (Some(mover.flip()), Reason::TimeUp),
        EndingKind::FoulByMover | EndingKind::FoulByPrevious | EndingKind::FoulBy(_) => {
            let loser = match e.kind {
                EndingKind::FoulByPrevious => mover.flip(),
                EndingKind::FoulBy(c) => c,
                _ => mover,
            };
            diag(
                DiagnosticCode::UnverifiedFoulClaim,
                format!(
                    "the record says {} lost by a foul ({:?}) that its moves do not show",
                    loser.name(),
                    e.text
                ),
            );
            (Some(loser.flip()), Reason::Foul)
        }
        EndingKind::Hikiwake => (None, Reason::Draw),
        EndingKind::MaxMoves => (None, Reason::MaxMoves),
        _ => (None, Reason::Interrupted),
    }
}
