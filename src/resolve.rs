//! Turning a written move into a [`Move`] on a given position.
//!
//! Like shakmaty's `San::to_move`, notation is parsed first and resolved
//! here: a KIF origin and piece, a KI2 piece with its 右/左/直/上/引/寄
//! modifiers, a CSA from/to with the piece after the move, or a USI move.
//! Resolution decides *which* move was meant; whether it is legal is then
//! the rules engine's answer.

use crate::record::{Dest, Notation, Relative};
use crate::rules::attacks;
use crate::rules::position::Position;
use crate::rules::rule::Rule;
use crate::rules::types::{Color, Move, PieceKind, Square};

/// Why a written move could not be turned into a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Unresolved {
    /// The move names something that cannot be on the board or in hand:
    /// a foul under `rule` by the mover (`mv` when a move could still be formed).
    Foul {
        /// The rule broken.
        rule: Rule,
        /// The move, where one could be formed from the notation.
        mv: Option<Move>,
        /// Why, in words.
        detail: String,
    },
    /// Several pieces match a KI2 move even after its modifiers.
    Ambiguous(Vec<Square>),
    /// `同` with no previous move on this line.
    NoPreviousMove,
}

/// A resolved move and the piece that made it (as it stood before the move).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resolved {
    /// The move.
    pub mv: Move,
    /// The piece kind before the move (for a drop, the kind dropped).
    pub piece: PieceKind,
    /// The colour the notation says moved, when it says (CSA sign, KI2 mark, JKF colour).
    pub color: Option<Color>,
}

fn foul(rule: Rule, mv: Option<Move>, detail: impl Into<String>) -> Unresolved {
    Unresolved::Foul {
        rule,
        mv,
        detail: detail.into(),
    }
}

/// Resolve `notation` on `pos`; `prev_to` is the destination of the previous
/// move on this line (for `同`).
#[inline]
pub fn resolve(
    pos: &Position,
    notation: &Notation,
    prev_to: Option<Square>,
) -> Result<Resolved, Unresolved> {
    match plain(pos, notation, prev_to) {
        Some(r) => Ok(r),
        None => resolve_general(pos, notation, prev_to),
    }
}

/// A written move resolved and played in one step by [`resolve_and_play`]:
/// what [`resolve`] then [`Position::play`] give.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct OneStep {
    /// The move, as resolving forms it.
    pub(crate) mv: Move,
    /// The piece that moved, as resolving names it.
    pub(crate) piece: PieceKind,
    /// `play`'s answer: the kind captured, or the rule broken (and
    /// then the position is as before).
    pub(crate) outcome: Result<Option<PieceKind>, Rule>,
}

/// Resolve `notation` on `pos` and play it in one step, for the moves a
/// record is nearly all made of: a CSA, USI or KIF move that names its
/// origin, or a drop, by the side to move, on the engine's fast path.
///
/// `None`, with the position untouched, for everything else (a move that
/// needs the general resolver or the general rules path, or that names the
/// side not to move), which the caller resolves and plays in two steps.
/// Where it answers, the answer is theirs, each notation's rule applied as
/// [`plain`] applies it: the tests hold the two routes equal.
#[inline(always)]
pub(crate) fn resolve_and_play(
    pos: &mut Position,
    notation: &Notation,
    prev_to: Option<Square>,
) -> Option<OneStep> {
    match *notation {
        Notation::Csa {
            color,
            from,
            to,
            piece,
        } => {
            if color != pos.side_to_move() {
                return None;
            }
            let Some(from) = from else {
                return drop_in_one_step(pos, piece, to);
            };
            let m = pos.fast_mover(from)?;
            // CSA names the piece after the move: the same kind, or its
            // promotion for a promoting move.
            let promote = if m.kind() == piece {
                false
            } else if m.kind().promoted() == Some(piece) {
                true
            } else {
                return None;
            };
            Some(OneStep {
                mv: Move::Normal { from, to, promote },
                piece: m.kind(),
                outcome: pos.play_fast_from(m, to, promote),
            })
        }
        Notation::Kif {
            color,
            dest,
            piece,
            promote,
            from,
            drop,
        } => {
            if color.is_some_and(|c| c != pos.side_to_move()) {
                return None;
            }
            // A 同 without a previous move is left to `resolve`, which
            // reports it.
            let to = match dest {
                Dest::Square(s) => s,
                Dest::Same => prev_to?,
            };
            if drop {
                // 成 on a drop, or a king dropped, is `resolve`'s to refuse.
                if piece == PieceKind::King || promote == Some(true) {
                    return None;
                }
                return drop_in_one_step(pos, piece, to);
            }
            // KIF names the piece before the move; 不成 and silence both
            // mean no promotion.
            let from = from?;
            let m = pos.fast_mover(from).filter(|m| m.kind() == piece)?;
            let promote = promote == Some(true);
            Some(OneStep {
                mv: Move::Normal { from, to, promote },
                piece,
                outcome: pos.play_fast_from(m, to, promote),
            })
        }
        Notation::Usi(mv) => {
            let piece = match mv {
                Move::Drop { kind, .. } => kind,
                Move::Normal { from, .. } => pos.piece_at(from)?.kind,
            };
            let outcome = pos.play_fast(mv)?;
            Some(OneStep { mv, piece, outcome })
        }
        // Moves without an origin need a search of the board, kept out of
        // line; a second try after a refusal here would repeat it.
        Notation::Ki2 { .. } => None,
    }
}

/// The drop of `kind` on `to` resolved and played in one step: any kind but
/// a promoted one, which `resolve` refuses before the rules are asked.
#[inline(always)]
fn drop_in_one_step(pos: &mut Position, kind: PieceKind, to: Square) -> Option<OneStep> {
    if kind.is_promoted() {
        return None;
    }
    let outcome = pos.play_fast_drop(kind, to)?;
    Some(OneStep {
        mv: Move::Drop { kind, to },
        piece: kind,
        outcome,
    })
}

/// What `resolve` gives for a move that names its origin (CSA, USI, KIF)
/// or a CSA/USI drop, when the origin holds the piece the move names; `None`
/// for everything else, which the general path decides.
///
/// Nearly every move of a record is one of these, and this much is small
/// enough to inline into the replay loop, where the general path's large
/// result would otherwise be written and read back on every ply.
#[inline(always)]
fn plain(pos: &Position, notation: &Notation, prev_to: Option<Square>) -> Option<Resolved> {
    match *notation {
        Notation::Csa {
            color,
            from,
            to,
            piece,
        } => plain_csa(pos, color, from, to, piece),
        Notation::Usi(mv) => {
            let piece = match mv {
                Move::Drop { kind, .. } => kind,
                Move::Normal { from, .. } => pos.piece_at(from)?.kind,
            };
            Some(Resolved {
                mv,
                piece,
                color: None,
            })
        }
        Notation::Kif {
            color,
            dest,
            piece,
            promote,
            from: Some(from),
            drop: false,
        } => {
            let to = match dest {
                Dest::Square(s) => s,
                Dest::Same => prev_to?,
            };
            let p = pos.piece_at(from)?;
            if p.color == pos.side_to_move() && p.kind != piece {
                return None;
            }
            Some(Resolved {
                mv: Move::Normal {
                    from,
                    to,
                    promote: promote == Some(true),
                },
                piece,
                color,
            })
        }
        Notation::Kif {
            color,
            dest,
            piece,
            promote,
            drop: true,
            ..
        } if !piece.is_promoted() && piece != PieceKind::King && promote != Some(true) => {
            let to = match dest {
                Dest::Square(s) => s,
                Dest::Same => prev_to?,
            };
            Some(Resolved {
                mv: Move::Drop { kind: piece, to },
                piece,
                color,
            })
        }
        Notation::Kif {
            color,
            dest,
            piece,
            promote,
            from: None,
            drop: false,
        } => sole_candidate(pos, color, dest, prev_to, piece, Relative::NONE, promote),
        Notation::Ki2 {
            color,
            dest,
            piece,
            relative,
            promote,
        } => sole_candidate(pos, color, dest, prev_to, piece, relative, promote),
        _ => None,
    }
}

/// [`plain`] for a CSA move: a board move whose origin holds `piece` (or
/// the piece that promotes to it), or a drop of an unpromoted piece.
#[inline(always)]
fn plain_csa(
    pos: &Position,
    color: Color,
    from: Option<Square>,
    to: Square,
    piece: PieceKind,
) -> Option<Resolved> {
    let Some(from) = from else {
        return (!piece.is_promoted()).then_some(Resolved {
            mv: Move::Drop { kind: piece, to },
            piece,
            color: Some(color),
        });
    };
    let kind = pos.piece_at(from)?.kind;
    let promote = if kind == piece {
        false
    } else if kind.promoted() == Some(piece) {
        true
    } else {
        return None;
    };
    Some(Resolved {
        mv: Move::Normal { from, to, promote },
        piece: kind,
        color: Some(color),
    })
}

/// `resolve_relative`'s answer where it needs no list: a drop that says
/// so, or a move without modifiers that exactly one piece can make or,
/// with no piece able to, a drop. `None` sends everything else (modifiers
/// to apply, several candidates, a drop chosen by the 打-omitted pin rule)
/// to the general path.
#[inline(never)]
fn sole_candidate(
    pos: &Position,
    color: Option<Color>,
    dest: Dest,
    prev_to: Option<Square>,
    piece: PieceKind,
    rel: Relative,
    promote: Option<bool>,
) -> Option<Resolved> {
    let to = match dest {
        Dest::Square(s) => s,
        Dest::Same => prev_to?,
    };
    let droppable = !piece.is_promoted() && piece != PieceKind::King && promote != Some(true);
    let drop = Resolved {
        mv: Move::Drop { kind: piece, to },
        piece,
        color,
    };
    if rel.contains(Relative::DROP) {
        return droppable.then_some(drop);
    }
    if !rel.is_empty() {
        return None;
    }
    let us = color.unwrap_or(pos.side_to_move());
    // What `candidates` collects, as a bitboard.
    let found = if pos.piece_at(to).is_some_and(|p| p.color == us) {
        0
    } else {
        attacks::attacks(us.flip(), piece, to.index(), pos.occupied()) & pos.pieces(us, piece)
    };
    let in_hand = !piece.is_promoted() && piece != PieceKind::King && pos.hand(us).count(piece) > 0;
    if found == 0 {
        return (in_hand && droppable).then_some(drop);
    }
    if attacks::more_than_one(found) {
        return None;
    }
    let mv = Move::Normal {
        from: Square::from_index(found.trailing_zeros() as usize)?,
        to,
        promote: promote == Some(true),
    };
    // The 打-omitted pin rule can only pick the drop when the board move is
    // illegal. `play` gives `check_move`'s verdict (tests/it/rules.rs
    // holds them to it) and, decided before the move is made, costs about
    // half as much even with the copy.
    if in_hand && promote.is_none() && pos.clone().play(mv).is_err() {
        return None;
    }
    Some(Resolved { mv, piece, color })
}

/// [`resolve_general`] for a CSA move: the piece named must stand on the
/// origin (or promote to the piece named), and only unpromoted pieces drop.
fn general_csa(
    pos: &Position,
    color: Color,
    from: Option<Square>,
    to: Square,
    piece: PieceKind,
) -> Result<Resolved, Unresolved> {
    match from {
        None => {
            if piece.is_promoted() {
                return Err(foul(
                    Rule::BadPromotion,
                    None,
                    format!("a {} cannot be dropped", piece.csa()),
                ));
            }
            Ok(Resolved {
                mv: Move::Drop { kind: piece, to },
                piece,
                color: Some(color),
            })
        }
        Some(from) => {
            let Some(p) = pos.piece_at(from) else {
                return Err(foul(
                    Rule::NoPiece,
                    Some(Move::Normal {
                        from,
                        to,
                        promote: false,
                    }),
                    format!("{from} is empty"),
                ));
            };
            let promote = p.kind != piece && p.kind.promoted() == Some(piece);
            let mv = Move::Normal { from, to, promote };
            if p.kind != piece && !promote {
                return Err(foul(
                    Rule::NoPiece,
                    Some(mv),
                    format!(
                        "the move names {} but {from} holds {}",
                        piece.csa(),
                        p.kind.csa()
                    ),
                ));
            }
            Ok(Resolved {
                mv,
                piece: p.kind,
                color: Some(color),
            })
        }
    }
}

/// `resolve` for every notation, kept out of line: see [`plain`].
#[inline(never)]
fn resolve_general(
    pos: &Position,
    notation: &Notation,
    prev_to: Option<Square>,
) -> Result<Resolved, Unresolved> {
    let us = pos.side_to_move();
    match *notation {
        Notation::Usi(mv) => {
            let piece = match mv {
                Move::Drop { kind, .. } => kind,
                Move::Normal { from, .. } => match pos.piece_at(from) {
                    Some(p) => p.kind,
                    None => return Err(foul(Rule::NoPiece, Some(mv), format!("{from} is empty"))),
                },
            };
            Ok(Resolved {
                mv,
                piece,
                color: None,
            })
        }
        Notation::Csa {
            color,
            from,
            to,
            piece,
        } => general_csa(pos, color, from, to, piece),
        Notation::Kif {
            color,
            dest,
            piece,
            promote,
            from,
            drop,
        } => {
            let to = dest_square(dest, prev_to)?;
            if drop {
                return drop_move(piece, to, color, promote);
            }
            match from {
                Some(from) => {
                    let mv = Move::Normal {
                        from,
                        to,
                        promote: promote == Some(true),
                    };
                    match pos.piece_at(from) {
                        None => Err(foul(Rule::NoPiece, Some(mv), format!("{from} is empty"))),
                        Some(p) if p.color == us && p.kind != piece => Err(foul(
                            Rule::NoPiece,
                            Some(mv),
                            format!(
                                "the move names {} but {from} holds {}",
                                piece.kif(),
                                p.kind.kif()
                            ),
                        )),
                        Some(_) => Ok(Resolved { mv, piece, color }),
                    }
                }
                // JKF drops carry no origin; a KIF move without one is read like KI2.
                None => resolve_relative(pos, color, to, piece, Relative::NONE, promote),
            }
        }
        Notation::Ki2 {
            color,
            dest,
            piece,
            relative,
            promote,
        } => {
            let to = dest_square(dest, prev_to)?;
            resolve_relative(pos, color, to, piece, relative, promote)
        }
    }
}

fn dest_square(dest: Dest, prev_to: Option<Square>) -> Result<Square, Unresolved> {
    match dest {
        Dest::Square(s) => Ok(s),
        Dest::Same => prev_to.ok_or(Unresolved::NoPreviousMove),
    }
}

fn drop_move(
    piece: PieceKind,
    to: Square,
    color: Option<Color>,
    promote: Option<bool>,
) -> Result<Resolved, Unresolved> {
    if piece.is_promoted() || piece == PieceKind::King || promote == Some(true) {
        return Err(foul(
            Rule::BadPromotion,
            None,
            format!("a {} cannot be dropped promoted", piece.kif()),
        ));
    }
    Ok(Resolved {
        mv: Move::Drop { kind: piece, to },
        piece,
        color,
    })
}

/// Vertical class in the mover's frame: -1 up (forward), 0 sideways, 1 down.
pub(crate) fn vertical(us: Color, from: Square, to: Square) -> i8 {
    let d = (to.rank() as i8 - from.rank() as i8).signum();
    if us == Color::Sente { d } else { -d }
}

/// Horizontal class in the mover's frame: 1 when the piece came from the
/// right (moves leftward), -1 from the left, 0 straight.
pub(crate) fn horizontal(us: Color, from: Square, to: Square) -> i8 {
    // Sente's right is file 1: moving toward larger files means it came from the right.
    let d = (to.file() as i8 - from.file() as i8).signum();
    if us == Color::Sente { d } else { -d }
}

/// Horizontal position in the mover's frame: larger is further to the mover's left.
pub(crate) fn frame_x(us: Color, s: Square) -> i8 {
    if us == Color::Sente {
        s.file() as i8
    } else {
        -(s.file() as i8)
    }
}

/// Candidates: the mover's pieces of exactly `piece` that can reach `to`.
pub(crate) fn candidates(pos: &Position, us: Color, piece: PieceKind, to: Square) -> Vec<Square> {
    attacks::squares(candidates_bb(pos, us, piece, to))
        .filter_map(Square::from_index)
        .collect()
}

/// [`candidates`] as a bitboard, for callers that only test or count them
/// (the KI2 writer, once a ply) and need no list.
pub(crate) fn candidates_bb(
    pos: &Position,
    us: Color,
    piece: PieceKind,
    to: Square,
) -> attacks::Bitboard {
    if pos.piece_at(to).is_some_and(|p| p.color == us) {
        return 0;
    }
    // Movement is symmetric: a piece of `us` on s reaches `to` exactly when
    // the same kind of the other colour on `to` would reach s (same path).
    // One bitboard lookup instead of testing all 81 squares.
    attacks::attacks(us.flip(), piece, to.index(), pos.occupied()) & pos.pieces(us, piece)
}

fn resolve_relative(
    pos: &Position,
    color: Option<Color>,
    to: Square,
    piece: PieceKind,
    rel: Relative,
    promote: Option<bool>,
) -> Result<Resolved, Unresolved> {
    let us = color.unwrap_or(pos.side_to_move());
    if rel.contains(Relative::DROP) {
        return drop_move(piece, to, color, promote);
    }
    let mut c = candidates(pos, us, piece, to);
    let in_hand = !piece.is_promoted() && piece != PieceKind::King && pos.hand(us).count(piece) > 0;
    if c.is_empty() {
        if in_hand && promote != Some(true) {
            return drop_move(piece, to, color, promote);
        }
        return Err(foul(
            Rule::NoPiece,
            None,
            format!("no {} of {} can reach {to}", piece.kif(), us.name()),
        ));
    }
    if rel.contains(Relative::UP) {
        c.retain(|&f| vertical(us, f, to) < 0);
    }
    if rel.contains(Relative::DOWN) {
        c.retain(|&f| vertical(us, f, to) > 0);
    }
    if rel.contains(Relative::SIDEWAYS) {
        c.retain(|&f| vertical(us, f, to) == 0);
    }
    if rel.contains(Relative::STRAIGHT) {
        c.retain(|&f| f.file() == to.file() && vertical(us, f, to) < 0);
    }
    // 右/左: the rightmost/leftmost origin in the mover's frame (ki2.md §6 step 8).
    let frame_x = |s: Square| frame_x(us, s);
    if rel.contains(Relative::LEFT)
        && let Some(m) = c.iter().map(|&s| frame_x(s)).max()
    {
        c.retain(|&s| frame_x(s) == m);
    }
    if rel.contains(Relative::RIGHT)
        && let Some(m) = c.iter().map(|&s| frame_x(s)).min()
    {
        c.retain(|&s| frame_x(s) == m);
    }
    let make = |from: Square| Move::Normal {
        from,
        to,
        promote: promote == Some(true),
    };
    if c.len() > 1 {
        // Writers that count only legal moves omit modifiers a pinned piece would need.
        c.retain(|&f| {
            let plain = Move::Normal {
                from: f,
                to,
                promote: false,
            };
            let promoted = Move::Normal {
                from: f,
                to,
                promote: true,
            };
            pos.check_move(plain).is_ok() || pos.check_move(promoted).is_ok()
        });
    }
    if c.len() == 1 && rel.is_empty() && in_hand && promote.is_none() {
        // cshogi omits 打 when the only board piece that could go there is pinned.
        let drop = Move::Drop { kind: piece, to };
        if pos.check_move(make(c[0])).is_err() && pos.check_move(drop).is_ok() {
            return drop_move(piece, to, color, promote);
        }
    }
    match c.len() {
        1 => Ok(Resolved {
            mv: make(c[0]),
            piece,
            color,
        }),
        0 if in_hand && rel.is_empty() => drop_move(piece, to, color, promote),
        0 => Err(foul(
            Rule::NoPiece,
            None,
            format!(
                "no {} of {} matches the move to {to}",
                piece.kif(),
                us.name()
            ),
        )),
        _ => Err(Unresolved::Ambiguous(c)),
    }
}

#[cfg(test)]
mod tests;
