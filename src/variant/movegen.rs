//! Moves on a variant board, read from the piece tables: where a piece
//! reaches, which moves are legal, and which rule an illegal one breaks.

use super::board::{Board, VMove};
use super::{Promotion, Variant, VariantFoul};
use crate::rules::rule::Rule;
use crate::rules::types::Color;

impl Board {
    /// Every cell the piece on `from` reaches (empty or holding an enemy piece).
    pub(super) fn reach(&self, from: u8, out: &mut Vec<u8>) {
        self.rays_into(from, out, false);
    }

    /// [`Board::reach`], and with `own` the cells of its own pieces the
    /// piece on `from` defends as well.
    fn rays_into(&self, from: u8, out: &mut Vec<u8>, own: bool) {
        let Some((color, id)) = self.at(from) else {
            return;
        };
        let (col, row) = self.col_row(from);
        // Tables are written from the mover's side; sente moves up the diagram.
        let (sx, sy) = match color {
            Color::Sente => (1, -1),
            Color::Gote => (-1, 1),
        };
        for ray in self.def(id).rays {
            let (dx, dy) = (ray.dx * sx, ray.dy * sy);
            for k in 1..=ray.range as i8 {
                let Some(to) = self.cell_at(col + dx * k, row + dy * k) else {
                    break;
                };
                let there = self.at(to);
                if !own && there.is_some_and(|(c, _)| c == color) {
                    break;
                }
                out.push(to);
                if there.is_some() || ray.leap {
                    break;
                }
            }
        }
    }

    /// Whether some piece of `by` reaches `cell`.
    pub fn attacked(&self, cell: u8, by: Color) -> bool {
        self.reached_by(cell, by, false)
    }

    /// Whether some piece of `by` reaches `cell`; with `defended`, whether
    /// one attacks it: reaches it, or defends its own piece there.
    pub(super) fn reached_by(&self, cell: u8, by: Color, defended: bool) -> bool {
        let mut reach = Vec::with_capacity(32);
        (0..self.cell_count()).any(|from| {
            if self.at(from).is_none_or(|(c, _)| c != by) {
                return false;
            }
            reach.clear();
            self.rays_into(from, &mut reach, defended);
            reach.contains(&cell)
        })
    }

    /// The cells of `color`'s royal pieces.
    pub fn royals(&self, color: Color) -> Vec<u8> {
        (0..self.cell_count())
            .filter(|&c| {
                self.at(c)
                    .is_some_and(|(col, id)| col == color && self.def(id).royal)
            })
            .collect()
    }

    /// Whether a move leaving `color` so gives check, for perpetual check:
    /// [`Board::in_check`], or in chu shogi any royal attacked.
    pub fn checked(&self, color: Color) -> bool {
        if self.rules().chu {
            self.royal_attacked(color)
        } else {
            self.in_check(color)
        }
    }

    /// Whether `color` is in check: its only royal piece is attacked. A side
    /// with two royal pieces (sho shogi's king and prince) is never in check.
    pub fn in_check(&self, color: Color) -> bool {
        match self.royals(color)[..] {
            [only] => self.attacked(only, color.flip()),
            _ => false,
        }
    }

    /// Whether the piece `id` of `color` on `to` could never move again.
    fn dead_on(&self, color: Color, id: u8, to: u8) -> bool {
        self.depth(color, to) < self.def(id).dead_ranks
    }

    /// Whether the piece `id` of `color` may promote moving `from` `to`
    /// (capturing what stands there), by the variant's promotion rule.
    fn may_promote(&self, color: Color, id: u8, from: u8, to: u8) -> bool {
        let d = self.def(id);
        if d.promotes_to.is_none() {
            return false;
        }
        match self.rules().promotion {
            Promotion::Zone => self.in_zone(color, from) || self.in_zone(color, to),
            Promotion::Flip => self.at(to).is_some(),
            Promotion::Chu => {
                let (zf, zt) = (self.in_zone(color, from), self.in_zone(color, to));
                // Entering; or from inside with a capture (within or out);
                // or a pawn or lance reaching the last rank.
                zt && !zf || zf && self.at(to).is_some() || d.one_way && self.depth(color, to) == 0
            }
        }
    }

    /// Micro shogi: whether a promoted piece turns back over moving to `to`.
    fn must_demote(&self, id: u8, to: u8) -> bool {
        self.rules().promotion == Promotion::Flip && self.def(id).promoted && self.at(to).is_some()
    }

    /// Whether promotion is compulsory where it is possible (tori shogi's
    /// swallow and falcon, and every capture in micro shogi).
    fn must_promote(&self, id: u8) -> bool {
        self.def(id).forced_promotion || self.rules().promotion == Promotion::Flip
    }

    /// The moves of the piece `id` from `from` to `to`: with and without
    /// promotion, as the rules allow.
    fn push_moves(&self, id: u8, from: u8, to: u8, out: &mut Vec<VMove>) {
        let us = self.side();
        let may = self.may_promote(us, id, from, to);
        let mv = VMove::step(from, to);
        if may {
            out.push(VMove {
                promote: true,
                ..mv
            });
        }
        if self.must_demote(id, to) {
            out.push(VMove { demote: true, ..mv });
        } else if !(self.dead_on(us, id, to) || may && self.must_promote(id)) {
            out.push(mv);
        }
    }

    /// How many unpromoted `id` of `color` stand on the file of `cell`.
    fn on_file(&self, color: Color, id: u8, cell: u8) -> u8 {
        let (col, _) = self.col_row(cell);
        (0..self.rules().ranks as i8)
            .filter_map(|row| self.cell_at(col, row))
            .filter(|&c| self.at(c) == Some((color, id)))
            .count() as u8
    }

    /// The moves that obey how pieces move, promote and drop, before the
    /// royal pieces' safety and the drop-mate rule are looked at.
    fn pseudo_moves(&self, out: &mut Vec<VMove>) {
        self.moves_into(out, true);
    }

    /// [`Board::pseudo_moves`]; with `strict` false, without chu shogi's
    /// lion-trading rules (so the judge can name them).
    fn moves_into(&self, out: &mut Vec<VMove>, strict: bool) {
        let us = self.side();
        let mut reach = Vec::with_capacity(32);
        for from in 0..self.cell_count() {
            let Some((c, id)) = self.at(from) else {
                continue;
            };
            if c != us {
                continue;
            }
            reach.clear();
            self.reach(from, &mut reach);
            for &to in &reach {
                if !strict || self.lion_trade_ok(id, from, None, to) {
                    self.push_moves(id, from, to, out);
                }
            }
            if !self.def(id).lion_steps.is_empty() {
                self.double_moves(id, from, strict, out);
            }
        }
        if !self.rules().drops {
            return;
        }
        for &id in self.rules().hand_order {
            if self.in_hand(us, id) == 0 {
                continue;
            }
            let limit = self.def(id).file_limit;
            let promoted = self
                .def(id)
                .promotes_to
                .filter(|_| self.rules().drop_promoted);
            for to in 0..self.cell_count() {
                if self.at(to).is_some() {
                    continue;
                }
                if !self.dead_on(us, id, to) && (limit == 0 || self.on_file(us, id, to) < limit) {
                    out.push(VMove::drop(id, to));
                }
                if let Some(p) = promoted {
                    out.push(VMove::drop(p, to));
                }
            }
        }
    }

    /// Whether the mover's royal pieces survive `m` (a pseudo-legal move).
    fn safe_after(&self, m: VMove) -> bool {
        if self.rules().chu {
            return true;
        }
        let us = self.side();
        let mut next = self.clone();
        next.play_unchecked(m);
        !next.in_check(us)
    }

    /// Whether a drop of a piece that may not mate at once does so.
    fn drop_mates(&self, m: VMove) -> bool {
        if m.from.is_some() || !self.def(m.drop).no_drop_mate {
            return false;
        }
        let mut next = self.clone();
        next.play_unchecked(m);
        next.in_check(next.side()) && !next.has_legal_move()
    }

    /// Every legal move.
    pub fn legal_moves(&self) -> Vec<VMove> {
        let mut all = Vec::with_capacity(128);
        self.pseudo_moves(&mut all);
        all.retain(|&m| self.safe_after(m) && !self.drop_mates(m));
        all
    }

    /// Whether the side to move has a legal move.
    pub fn has_legal_move(&self) -> bool {
        let mut all = Vec::with_capacity(128);
        self.pseudo_moves(&mut all);
        all.into_iter()
            .any(|m| self.safe_after(m) && !self.drop_mates(m))
    }

    /// The rule `m` breaks, or `Ok` when it is legal.
    pub fn judge(&self, m: VMove) -> Result<(), VariantFoul> {
        if self.rules().chu {
            return self.judge_chu(m);
        }
        let us = self.side();
        let foul = |r: Rule| Err(VariantFoul::Shogi(r));
        match m.from {
            Some(from) => {
                let Some((c, id)) = self.at(from) else {
                    return foul(Rule::NoPiece);
                };
                if c != us {
                    return foul(Rule::NoPiece);
                }
                let mut reach = Vec::new();
                self.reach(from, &mut reach);
                if !reach.contains(&m.to) {
                    return foul(Rule::BadMovement);
                }
                let may = self.may_promote(us, id, from, m.to);
                if m.promote && !may || m.demote && !self.must_demote(id, m.to) {
                    return foul(Rule::BadPromotion);
                }
                if !m.promote && may && self.must_promote(id)
                    || !m.demote && self.must_demote(id, m.to)
                {
                    return Err(VariantFoul::CompulsoryPromotion);
                }
                if !m.promote && self.dead_on(us, id, m.to) {
                    return foul(Rule::DeadPiece);
                }
            }
            None => self.judge_drop(m)?,
        }
        if !self.safe_after(m) {
            return foul(Rule::SelfCheck);
        }
        if self.drop_mates(m) {
            return Err(match self.variant() {
                Variant::Tori => VariantFoul::SwallowDropMate,
                _ => VariantFoul::Shogi(Rule::Uchifuzume),
            });
        }
        Ok(())
    }

    /// Chu shogi's judge: a move is legal when the generator makes it; else
    /// the rule is named by what a looser generator (without the
    /// lion-trading rules, or without the promotion) would allow.
    fn judge_chu(&self, m: VMove) -> Result<(), VariantFoul> {
        let foul = |r: Rule| Err(VariantFoul::Shogi(r));
        let Some(from) = m.from else {
            return Err(VariantFoul::NoDrops);
        };
        let Some((c, id)) = self.at(from) else {
            return foul(Rule::NoPiece);
        };
        if c != self.side() {
            return foul(Rule::NoPiece);
        }
        let mut strict = Vec::with_capacity(256);
        self.moves_into(&mut strict, true);
        if strict.contains(&m) {
            return Ok(());
        }
        let mut loose = Vec::with_capacity(256);
        self.moves_into(&mut loose, false);
        if loose.contains(&m) {
            return Err(if self.def(id).lion {
                VariantFoul::ProtectedLion
            } else {
                VariantFoul::LionRecapture
            });
        }
        let plain = VMove {
            promote: false,
            demote: false,
            ..m
        };
        if loose.contains(&plain) {
            return foul(Rule::BadPromotion);
        }
        foul(Rule::BadMovement)
    }

    fn judge_drop(&self, m: VMove) -> Result<(), VariantFoul> {
        let us = self.side();
        let foul = |r: Rule| Err(VariantFoul::Shogi(r));
        if !self.rules().drops {
            return Err(VariantFoul::NoDrops);
        }
        let d = self.def(m.drop);
        if self.in_hand(us, d.base) == 0 {
            return foul(Rule::NotInHand);
        }
        if self.at(m.to).is_some() {
            return foul(Rule::OccupiedDrop);
        }
        if m.promote || m.demote || d.promoted && !self.rules().drop_promoted {
            return foul(Rule::BadPromotion);
        }
        if self.dead_on(us, m.drop, m.to) {
            return foul(Rule::DeadPiece);
        }
        let limit = self.def(m.drop).file_limit;
        if limit > 0 && self.on_file(us, m.drop, m.to) >= limit {
            return Err(match self.variant() {
                Variant::Tori => VariantFoul::ThirdSwallow,
                _ => VariantFoul::Shogi(Rule::Nifu),
            });
        }
        Ok(())
    }

    /// The number of legal move sequences of `depth` plies.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        moves
            .into_iter()
            .map(|m| {
                let mut next = self.clone();
                next.play_unchecked(m);
                next.perft(depth - 1)
            })
            .sum()
    }

    /// [`Board::perft`] for each legal move, in USI.
    pub fn perft_divide(&self, depth: u32) -> Vec<(String, u64)> {
        self.legal_moves()
            .into_iter()
            .map(|m| {
                let mut next = self.clone();
                next.play_unchecked(m);
                (self.usi(m), next.perft(depth.saturating_sub(1)))
            })
            .collect()
    }
}
