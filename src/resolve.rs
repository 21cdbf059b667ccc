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

/// [`resolve`] for a CSA move: the piece named must stand on the
/// origin (or promote to the piece named), and only unpromoted pieces drop.
fn general_csa(
    pos: &Position,
    color: Color,
    from: Option<Square>,
    to: Square,
    piece: PieceKind,
) -> Result<Resolved, Unresolved> {
    match from {
        None => checked_drop(piece, to, Some(color), !piece.is_promoted(), || {
            format!("a {} cannot be dropped", piece.csa())
        }),
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

/// Resolve `notation` on `pos`; `prev_to` is the destination of the previous
/// move on this line (for `同`).
pub fn resolve(
    pos: &Position,
    notation: &Notation,
    prev_to: Option<Square>,
) -> Result<Resolved, Unresolved> {
    let us = pos.side_to_move();
    match *notation {
        Notation::VariantUsi(_) | Notation::VariantKif { .. } => Err(foul(
            Rule::NoPiece,
            None,
            "a move of another board of the family (see variant::replay)",
        )),
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
    // A king is never in hand: its drop is a move the position refuses
    // (not in hand), as a CSA `0047OU` is, not a notation that names none.
    let droppable = !(piece.is_promoted() || promote == Some(true));
    checked_drop(piece, to, color, droppable, || {
        format!("a {} cannot be dropped promoted", piece.kif())
    })
}

/// The drop of `piece` on `to`, or where it is not `droppable` the
/// promotion foul that `why` words.
#[inline]
fn checked_drop(
    piece: PieceKind,
    to: Square,
    color: Option<Color>,
    droppable: bool,
    why: impl FnOnce() -> String,
) -> Result<Resolved, Unresolved> {
    if !droppable {
        return Err(foul(Rule::BadPromotion, None, why()));
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
