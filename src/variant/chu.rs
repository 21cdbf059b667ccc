//! Chu shogi's own rules on the table engine, as lishogi plays them: the
//! double moves of the lion, horned falcon and soaring eagle (igui and jitto
//! among them), the lion-trading rules, and the endings by bare king.

use super::board::{Board, VMove};
use crate::codes::Reason;
use crate::rules::types::Color;

impl Board {
    /// Whether a piece of `by` attacks `cell`, even one of its own (defends it).
    fn attacks_on(&self, cell: u8, by: Color) -> bool {
        self.reached_by(cell, by, true)
    }

    /// Whether the enemy lion on `to` is protected against a lion coming
    /// from `from` (through `mid`): attacked with the lion gone from its
    /// origin and the first step's square emptied, or by the pawn or
    /// go-between taken on that first step (lishogi counts it).
    fn lion_protected(&self, from: u8, mid: Option<u8>, to: u8) -> bool {
        let them = self.side().flip();
        let mut b = self.clone();
        b.put(from, None);
        if let Some(m) = mid {
            let cheap = b.at(m).filter(|&(c, id)| c == them && b.def(id).cheap);
            b.put(m, None);
            if let Some(p) = cheap {
                let mut only = b.clone();
                for c in 0..only.cell_count() {
                    only.put(c, None);
                }
                only.put(m, Some(p));
                if only.attacks_on(to, them) {
                    return true;
                }
            }
        }
        b.attacks_on(to, them)
    }

    /// Whether moving the piece `id` from `from` (through `mid`) to take on
    /// `to` keeps the lion-trading rules.
    pub(super) fn lion_trade_ok(&self, id: u8, from: u8, mid: Option<u8>, to: u8) -> bool {
        if !self.rules().chu {
            return true;
        }
        let Some((c, target)) = self.at(to) else {
            return true;
        };
        if c == self.side() || !self.def(target).lion {
            return true;
        }
        if !self.def(id).lion {
            // After a non-lion took a lion, a non-lion may take a lion only there.
            return self.last_lion_capture().is_none_or(|l| l == to);
        }
        if self.distance(from, to) <= 1 {
            return true;
        }
        let freed = mid
            .and_then(|m| self.at(m))
            .is_some_and(|(c, id)| c != self.side() && !self.def(id).cheap);
        freed || !self.lion_protected(from, mid, to)
    }

    /// The larger of the file and rank distances between two cells.
    pub(super) fn distance(&self, a: u8, b: u8) -> u8 {
        let ((ac, ar), (bc, br)) = (self.col_row(a), self.col_row(b));
        (ac - bc).unsigned_abs().max((ar - br).unsigned_abs())
    }

    /// The double moves of a lion-like piece `id` on `from`: a first step in
    /// one of its lion directions onto an empty or enemy square, then a
    /// second: anywhere around the first (a lion), or on in the same line or
    /// back (the falcon and eagle). Returning home is igui (after a capture)
    /// or jitto (a pass). Each encoding counts, as lishogi counts moves.
    pub(super) fn double_moves(&self, id: u8, from: u8, strict: bool, out: &mut Vec<VMove>) {
        let us = self.side();
        let d = self.def(id);
        let (col, row) = self.col_row(from);
        let (sx, sy) = match us {
            Color::Sente => (1, -1),
            Color::Gote => (-1, 1),
        };
        for &(dx, dy) in d.lion_steps {
            let (dx, dy) = (dx * sx, dy * sy);
            let Some(mid) = self.cell_at(col + dx, row + dy) else {
                continue;
            };
            if self.at(mid).is_some_and(|(c, _)| c == us)
                || strict && !self.lion_trade_ok(id, from, None, mid)
            {
                continue;
            }
            let (mc, mr) = (col + dx, row + dy);
            let seconds: Vec<(i8, i8)> = if d.lion {
                (-1..=1)
                    .flat_map(|x| (-1..=1).map(move |y| (x, y)))
                    .filter(|&p| p != (0, 0))
                    .map(|(x, y)| (mc + x, mr + y))
                    .collect()
            } else {
                vec![(mc + dx, mr + dy), (col, row)]
            };
            for (c, r) in seconds {
                let Some(to) = self.cell_at(c, r) else {
                    continue;
                };
                if to != from && self.at(to).is_some_and(|(c, _)| c == us) {
                    continue;
                }
                if strict && !self.lion_trade_ok(id, from, Some(mid), to) {
                    continue;
                }
                out.push(VMove {
                    mid: Some(mid),
                    ..VMove::step(from, to)
                });
            }
        }
    }

    /// Whether any royal piece of `color` is attacked (chu shogi's check,
    /// which counts towards perpetual check but binds no move).
    pub fn royal_attacked(&self, color: Color) -> bool {
        self.royals(color)
            .into_iter()
            .any(|c| self.attacked(c, color.flip()))
    }

    /// The pieces of `color` that count for a bare king: all but pawns and
    /// lances dead on their last rank, and (for the side baring) pawns and
    /// go-betweens.
    fn counted(&self, color: Color, baring: bool) -> Vec<u8> {
        (0..self.cell_count())
            .filter(|&c| {
                self.at(c).is_some_and(|(col, id)| {
                    let d = self.def(id);
                    col == color
                        && !(d.one_way && self.depth(color, c) == 0)
                        && !(baring && d.cheap)
                })
            })
            .collect()
    }

    /// Whether `color`'s king is bared, as lishogi judges it: a single royal
    /// left against a royal and more, no threat on the opponent's royals, and
    /// not the chance to take the last piece back.
    fn bared(&self, color: Color) -> bool {
        let them = color.flip();
        let ours = self.counted(color, false);
        let theirs = self.counted(them, true);
        let [king] = ours[..] else {
            return false;
        };
        self.def(self.at(king).map_or(0, |p| p.1)).royal
            && theirs.len() > 1
            && !self.royals(them).is_empty()
            && !self.royal_attacked(them)
            && (theirs.len() > 2 || theirs.iter().all(|&c| self.distance(c, king) > 1))
    }

    /// Chu shogi: how the position ends the game beyond a lost royal and
    /// no legal move: a bared king loses, and two lone kings draw.
    pub fn chu_end(&self) -> Option<(Option<Color>, Reason)> {
        if !self.rules().chu {
            return None;
        }
        for color in [Color::Sente, Color::Gote] {
            if self.bared(color) {
                return Some((Some(color.flip()), Reason::BareKing));
            }
        }
        let lone = |c: Color| self.royals(c).len() == 1 && !self.royal_attacked(c);
        let all = self.counted(Color::Sente, false).len() + self.counted(Color::Gote, false).len();
        (all == 2 && lone(Color::Sente) && lone(Color::Gote)).then_some((None, Reason::Draw))
    }
}
