//! Legal move generation, move checking and perft.
//!
//! Legality is judged on fast paths and on one slow path, and the tests
//! compare them move by move:
//!
//! * [`Position::legal_moves`] generates moves fast: pins are computed once,
//!   the checkers are kept in the position, and 打ち歩詰め is decided by a
//!   dedicated test (king escapes, or a capture of the pawn by an unpinned
//!   piece).
//! * [`Position::play`], the replayer's path, judges self-check
//!   before playing, from the checkers and the line through the origin, and
//!   [`Position::has_legal_move`] stops at the first move it finds.
//!   `Position::play_fast` is `play` without its general path.
//! * [`Position::check_move`] judges one move from first principles: it plays
//!   the move on a copy and looks at the result, computing attacks from
//!   scratch, and for a checking pawn drop it generates every reply.
//!
//! # Rule order
//!
//! When a move breaks several rules, [`Position::check_move_by`] reports the
//! first in this fixed order:
//!
//! 1. `wrong-turn`: not the mover's turn;
//! 2. `no-piece`: the origin is empty or holds an opponent's piece;
//!    for drops, `bad-promotion` if the kind named is a promoted kind, then
//!    `not-in-hand` (a king, or a kind the side lacks), then `occupied-drop`;
//! 3. `bad-movement`: destination equal to origin, out of the piece's range,
//!    path blocked, own piece on it, or the enemy king on it (capturing a king
//!    can only happen in a position that is already invalid, and it is no
//!    way for a piece to move);
//! 4. `bad-promotion`: promoting a gold, king or promoted piece, or outside
//!    the zone;
//! 5. `dead-piece`: an unpromoted pawn/lance/knight left where it can never move;
//! 6. `nifu`;
//! 7. `self-check`: the mover's king is attacked afterwards;
//! 8. `uchifuzume`: a pawn drop that checks and leaves no legal reply.

use crate::rules::attacks::{self, ALL, Bitboard, bb};
use crate::rules::position::Position;
use crate::rules::rule::Rule;
use crate::rules::types::{Color, Move, Piece, PieceKind, Square};

/// [`Position::move_frame`]: `(us, them, occupied, own, target, king square, evasion)`.
type MoveFrame = (
    Color,
    Color,
    Bitboard,
    Bitboard,
    Bitboard,
    Option<usize>,
    Bitboard,
);

/// Add the move `from`→`to` of a `kind`, once promoting and once not, as the
/// zone and dead squares allow.
#[inline]
fn push_board_move(out: &mut Vec<Move>, us: Color, kind: PieceKind, from: usize, to: usize) {
    let (f, t) = (
        Square::from_index_unchecked(from),
        Square::from_index_unchecked(to),
    );
    let can = kind.can_promote() && (attacks::ZONE[us.index()] & (bb(from) | bb(to))) != 0;
    if can {
        out.push(Move::Normal {
            from: f,
            to: t,
            promote: true,
        });
    }
    if !(can && attacks::is_dead(us, kind, to)) {
        out.push(Move::Normal {
            from: f,
            to: t,
            promote: false,
        });
    }
}

impl Position {
    /// Every legal move for the side to move, including optional
    /// non-promotions.
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut out = Vec::with_capacity(128);
        self.legal_moves_into(&mut out);
        out
    }

    /// What every move search starts from: the side to move, the enemy, the
    /// occupied squares, the mover's own, the squares a move may go to, the
    /// mover's king square and the squares that answer a check
    /// ([`Position::evasion`]).
    #[inline(always)]
    fn move_frame(&self) -> MoveFrame {
        let us = self.side;
        let them = us.flip();
        let occ = self.occupied();
        let own = self.by_color[us.index()];
        // The enemy king is never a target: taking it is not a move.
        let target = ALL & !own & !self.pieces(them, PieceKind::King);
        let ksq = self.kings[us.index()].map(|k| k.index());
        (us, them, occ, own, target, ksq, self.evasion(ksq))
    }

    /// [`Position::legal_moves`] into a caller's buffer (cleared first), to
    /// avoid an allocation per call.
    pub fn legal_moves_into(&self, out: &mut Vec<Move>) {
        out.clear();
        let (us, them, occ, own, target, ksq, evasion) = self.move_frame();
        let pinned = match ksq {
            Some(k) => self.pinned(us, k, occ),
            None => 0,
        };

        for from in attacks::squares(own) {
            let Some(p) = self.board[from] else { continue };
            let dests = attacks::attacks(us, p.kind, from, occ) & target;
            if p.kind == PieceKind::King {
                let occ_wo_king = occ ^ bb(from);
                for to in attacks::squares(dests) {
                    if !self.attacked(to, them, occ_wo_king) {
                        out.push(Move::Normal {
                            from: Square::from_index_unchecked(from),
                            to: Square::from_index_unchecked(to),
                            promote: false,
                        });
                    }
                }
                continue;
            }
            let mut dests = dests & evasion;
            if pinned & bb(from) != 0
                && let Some(k) = ksq
            {
                dests &= attacks::line(k, from);
            }
            for to in attacks::squares(dests) {
                push_board_move(out, us, p.kind, from, to);
            }
        }

        if evasion == 0 {
            return;
        }
        let empty = ALL & !occ & evasion;
        let hand = self.hands[us.index()];
        // A pawn dropped here would check the enemy king.
        let pawn_check: Bitboard = match self.kings[them.index()] {
            Some(ek) => attacks::step(them, PieceKind::Pawn, ek.index()),
            None => 0,
        };
        for kind in PieceKind::HAND {
            if hand.count(kind) == 0 {
                continue;
            }
            let mut to_set = empty & !attacks::DEAD[us.index()][kind as usize];
            if kind == PieceKind::Pawn {
                for file in 1..=9u8 {
                    if self.pieces(us, PieceKind::Pawn) & attacks::file_mask(file) != 0 {
                        to_set &= !attacks::file_mask(file);
                    }
                }
                if to_set & pawn_check != 0
                    && self.pawn_drop_mates(pawn_check.trailing_zeros() as usize)
                {
                    to_set &= !pawn_check;
                }
            }
            for to in attacks::squares(to_set) {
                out.push(Move::Drop {
                    kind,
                    to: Square::from_index_unchecked(to),
                });
            }
        }
    }

    /// Whether a pawn dropped by the side to move on `to` (which checks the
    /// enemy king) leaves the enemy without a reply. Interposition is
    /// impossible against an adjacent checker, so the replies are king moves
    /// and captures of the pawn; a pinned capturer cannot take (its pin line
    /// cannot pass through the pawn, which is adjacent to the king).
    fn pawn_drop_mates(&self, to: usize) -> bool {
        let us = self.side;
        let them = us.flip();
        let Some(ek) = self.kings[them.index()].map(|k| k.index()) else {
            return false;
        };
        let occ = self.occupied() | bb(to);
        let defenders = self.attackers_bb(to, them, occ) & !bb(ek);
        if defenders & !self.pinned(them, ek, occ) != 0 {
            return false;
        }
        // The new pawn attacks only the king's square, so the board's own
        // attackers (with the pawn as a blocker) decide where the king may go.
        let occ_wo_king = occ ^ bb(ek);
        let escapes = attacks::step(them, PieceKind::King, ek) & !self.by_color[them.index()];
        !attacks::squares(escapes).any(|sq| !self.attacked(sq, us, occ_wo_king))
    }

    /// Whether the side to move has at least one legal move.
    ///
    /// Stops at the first move found and allocates nothing: the replayer asks
    /// this after every check. The cheapest candidates come first: drops
    /// other than the pawn's (bitboard tests only), then king moves, then
    /// board moves, then pawn drops (which may need the 打ち歩詰め test).
    pub fn has_legal_move(&self) -> bool {
        let (us, them, occ, _, target, ksq, evasion) = self.move_frame();
        let hand = self.hands[us.index()];
        let drop_to = ALL & !occ & evasion;
        if drop_to != 0 {
            for kind in PieceKind::HAND.into_iter().skip(1) {
                if hand.count(kind) != 0 && drop_to & !attacks::DEAD[us.index()][kind as usize] != 0
                {
                    return true;
                }
            }
        }
        if let Some(k) = ksq {
            let occ_wo_king = occ ^ bb(k);
            let escapes = attacks::step(us, PieceKind::King, k) & target;
            if attacks::squares(escapes).any(|to| !self.attacked(to, them, occ_wo_king)) {
                return true;
            }
        }
        if evasion != 0 && self.has_legal_board_move(ksq, evasion & target) {
            return true;
        }
        if hand.count(PieceKind::Pawn) == 0 {
            return false;
        }
        let mut to_set = drop_to & !attacks::DEAD[us.index()][PieceKind::Pawn as usize];
        let pawns = self.pieces(us, PieceKind::Pawn);
        for file in 1..=9u8 {
            if pawns & attacks::file_mask(file) != 0 {
                to_set &= !attacks::file_mask(file);
            }
        }
        if let Some(ek) = self.kings[them.index()] {
            let pawn_check = attacks::step(them, PieceKind::Pawn, ek.index());
            // Only the square facing the enemy king can be 打ち歩詰め, so
            // any other square settles it.
            if to_set & !pawn_check != 0 {
                return true;
            }
            return to_set != 0 && !self.pawn_drop_mates(pawn_check.trailing_zeros() as usize);
        }
        to_set != 0
    }

    /// Whether a piece other than the king can move to one of `dests` (legal
    /// destinations for non-king moves as far as checks go) without exposing
    /// its king.
    fn has_legal_board_move(&self, ksq: Option<usize>, dests: Bitboard) -> bool {
        let us = self.side;
        let occ = self.occupied();
        let mut movers = self.by_color[us.index()];
        if let Some(k) = ksq {
            movers &= !bb(k);
        }
        let pinned = match ksq {
            Some(k) => self.pinned(us, k, occ),
            None => 0,
        };
        let free = |from: usize, reach: Bitboard| match ksq {
            Some(k) if pinned & bb(from) != 0 => reach & attacks::line(k, from) != 0,
            _ => reach != 0,
        };
        if self.checkers != 0 {
            // Few destinations (the checker and the squares before it), so
            // ask who reaches each rather than where each piece goes. In
            // shogi a piece moves exactly where it attacks.
            for to in attacks::squares(dests) {
                let candidates = self.attackers_bb(to, us, occ) & movers;
                if attacks::squares(candidates).any(|from| free(from, bb(to))) {
                    return true;
                }
            }
            return false;
        }
        attacks::squares(movers).any(|from| {
            let Some(p) = self.board[from] else {
                return false;
            };
            free(from, attacks::attacks(us, p.kind, from, occ) & dests)
        })
    }

    /// Whether the side to move is in check and has no legal move.
    pub fn is_checkmate(&self) -> bool {
        self.in_check() && !self.has_legal_move()
    }

    /// Whether a legal move gives check.
    pub fn gives_check(&self, m: Move) -> bool {
        let mut after = self.clone();
        after.play_unchecked(m);
        after.in_check()
    }

    /// Legality of `m` for the side to move: `Ok` or the single rule broken,
    /// the first in the order given in the module docs.
    pub fn check_move(&self, m: Move) -> Result<(), Rule> {
        self.precheck(m)?;
        let mut after = self.clone();
        after.play_unchecked(m);
        after.postcheck(self.side, m)
    }

    /// Check `m` like [`Position::check_move`] and, when it is legal, play it:
    /// the replayer's path, which plays each move once instead of twice.
    /// Returns the captured piece; on a foul the position is unchanged.
    ///
    /// Unlike `check_move` it decides self-check before playing, from the
    /// checkers and the pin through the origin, so the position is copied
    /// only for pawn drops that give check (打ち歩詰め is judged on the
    /// position after).
    // Inlined into the replayer's loop, where the call's register saves and
    // restores would weigh on every ply.
    #[inline(always)]
    pub fn play(&mut self, m: Move) -> Result<Option<PieceKind>, Rule> {
        match self.play_fast(m) {
            Some(outcome) => outcome,
            None => self.play_checked_general(m),
        }
    }

    /// [`Position::play`] on its fast path only: `play`'s answer when the
    /// waiting side is known to be safe and `m` is a board move or a drop
    /// other than a pawn giving check (nearly every move of a game);
    /// `None`, with the position untouched, for the rest.
    #[inline(always)]
    fn play_fast(&mut self, m: Move) -> Option<Result<Option<PieceKind>, Rule>> {
        match m {
            Move::Normal { from, to, promote } => {
                if !self.waiting_safe {
                    return None;
                }
                Some(self.play_checked_board(from.index(), to.index(), promote))
            }
            Move::Drop { kind, to } => self.play_fast_drop(kind, to),
        }
    }

    /// [`Position::play_fast`] for the drop of `kind` on `to`.
    #[inline(always)]
    fn play_fast_drop(
        &mut self,
        kind: PieceKind,
        to: Square,
    ) -> Option<Result<Option<PieceKind>, Rule>> {
        let t = to.index();
        if !self.waiting_safe || (kind == PieceKind::Pawn && self.pawn_drop_checks(t)) {
            return None;
        }
        Some(self.play_checked_drop(kind, t))
    }

    /// [`Position::play`] for any move and position: checking pawn
    /// drops, and positions after an unchecked [`Position::play_unchecked`]. Kept out
    /// of line so that its position copy does not weigh on the fast paths.
    #[inline(never)]
    fn play_checked_general(&mut self, m: Move) -> Result<Option<PieceKind>, Rule> {
        self.precheck(m)?;
        if self.exposes_king(m) {
            return Err(Rule::SelfCheck);
        }
        // Only a drop that checks can be 打ち歩詰め; the copy is for those
        // (and for positions not known to be sound, where the check may
        // come from elsewhere).
        if let Move::Drop {
            kind: PieceKind::Pawn,
            to,
        } = m
            && (!self.waiting_safe || self.pawn_drop_checks(to.index()))
        {
            let before = self.clone();
            let captured = self.play_safe(m);
            if self.in_check() && !self.has_legal_move() {
                *self = before;
                return Err(Rule::Uchifuzume);
            }
            return Ok(captured);
        }
        Ok(self.play_safe(m))
    }

    /// [`Position::play`] for a board move `f`→`t` when the waiting
    /// side is known not to be in check (nearly every move of a game): the
    /// same rules in the same order, but the piece, the occupancy and the
    /// squares' bitboards are read once for the checks, the play and the
    /// new checkers.
    #[inline(always)]
    fn play_checked_board(
        &mut self,
        f: usize,
        t: usize,
        promote: bool,
    ) -> Result<Option<PieceKind>, Rule> {
        match self.board[f] {
            Some(p) if p.color == self.side => self.play_checked_piece(p, f, t, promote),
            _ => Err(Rule::NoPiece),
        }
    }

    /// [`Position::play_checked_board`] once the origin `f` is known to hold
    /// `p`, a piece of the side to move.
    #[inline(always)]
    fn play_checked_piece(
        &mut self,
        p: Piece,
        f: usize,
        t: usize,
        promote: bool,
    ) -> Result<Option<PieceKind>, Rule> {
        let us = self.side;
        let them = us.flip();
        let (fb, tb) = (bb(f), bb(t));
        let own = self.by_color[us.index()];
        let occ = own | self.by_color[them.index()];
        let cap = self.board[t];
        // Not own, so any piece on `t` is the enemy's (the board and the
        // bitboards agree).
        if own & tb != 0
            || matches!(cap, Some(c) if c.kind == PieceKind::King)
            || !attacks::reaches(us, p.kind, f, t, occ)
        {
            return Err(Rule::BadMovement);
        }
        if promote {
            if !(p.kind.can_promote() && attacks::ZONE[us.index()] & (fb | tb) != 0) {
                return Err(Rule::BadPromotion);
            }
        } else if matches!(
            p.kind,
            PieceKind::Pawn | PieceKind::Lance | PieceKind::Knight
        ) && attacks::is_dead(us, p.kind, t)
        {
            // Only these kinds can be left without a move (the table is
            // empty for the rest); asking first spares most moves the
            // lookup.
            return Err(Rule::DeadPiece);
        }
        if let Some(k) = self.kings[us.index()] {
            let k = k.index();
            let exposed = if f == k {
                self.attacked(t, them, occ ^ fb)
            } else {
                self.exposes_king_board(k, f, t, occ)
            };
            if exposed {
                return Err(Rule::SelfCheck);
            }
        }
        let captured = self.relocate_board(p, f, t, promote, cap);
        self.checkers = match self.kings[them.index()] {
            Some(ek) => {
                let ek = ek.index();
                let kind = p.kind.after_move(promote);
                let occ = (occ ^ fb) | tb;
                attacks::direct_check(us, kind, t, ek, occ) | self.discovered_check(us, f, ek, occ)
            }
            None => 0,
        };
        self.waiting_safe = true;
        Ok(captured)
    }

    /// [`Position::play`] for a drop of `kind` on `t` that cannot be
    /// 打ち歩詰め (not a pawn giving check), when the waiting side is known
    /// not to be in check: a drop can only give check by the dropped piece.
    #[inline(always)]
    fn play_checked_drop(&mut self, kind: PieceKind, t: usize) -> Result<Option<PieceKind>, Rule> {
        let us = self.side;
        if kind.is_promoted() {
            return Err(Rule::BadPromotion);
        }
        let n = self.hands[us.index()].count(kind);
        if kind == PieceKind::King || n == 0 {
            return Err(Rule::NotInHand);
        }
        if self.board[t].is_some() {
            return Err(Rule::OccupiedDrop);
        }
        if attacks::is_dead(us, kind, t) {
            return Err(Rule::DeadPiece);
        }
        if kind == PieceKind::Pawn
            && self.pieces(us, PieceKind::Pawn)
                & attacks::file_mask(Square::from_index_unchecked(t).file())
                != 0
        {
            return Err(Rule::Nifu);
        }
        // A drop adds a blocker and removes none, so it can only fail to
        // answer a check.
        if self.checkers != 0
            && let Some(k) = self.kings[us.index()]
            && self.evasion(Some(k.index())) & bb(t) == 0
        {
            return Err(Rule::SelfCheck);
        }
        let occ = self.occupied() | bb(t);
        self.relocate_drop(kind, t, n);
        self.checkers = match self.kings[us.flip().index()] {
            Some(ek) => attacks::direct_check(us, kind, t, ek.index(), occ),
            None => 0,
        };
        self.waiting_safe = true;
        Ok(None)
    }

    /// Whether a pawn of the side to move dropped on `to` attacks the enemy king.
    #[inline]
    fn pawn_drop_checks(&self, to: usize) -> bool {
        let us = self.side;
        attacks::step(us, PieceKind::Pawn, to) & self.pieces(us.flip(), PieceKind::King) != 0
    }

    /// Where a move other than the king's must land: anywhere out of check,
    /// on the checker or between it and the king `ksq` under one check,
    /// nowhere under two.
    #[inline]
    fn evasion(&self, ksq: Option<usize>) -> Bitboard {
        let checkers = self.checkers;
        match ksq {
            Some(_) if checkers == 0 => ALL,
            None => ALL,
            Some(_) if attacks::more_than_one(checkers) => 0,
            Some(k) => checkers | attacks::between(k, checkers.trailing_zeros() as usize),
        }
    }

    /// Whether `m`, which passed `precheck`, leaves the mover's king attacked.
    fn exposes_king(&self, m: Move) -> bool {
        let us = self.side;
        let Some(k) = self.kings[us.index()].map(|k| k.index()) else {
            return false;
        };
        let (from, to) = match m {
            Move::Normal { from, to, .. } => (from.index(), to.index()),
            // A drop adds a blocker and removes none, so it can only fail to
            // answer a check (it cannot land on the checker: precheck).
            Move::Drop { to, .. } => return self.evasion(Some(k)) & bb(to.index()) == 0,
        };
        if from == k {
            return self.attacked(to, us.flip(), self.occupied() ^ bb(from));
        }
        self.exposes_king_board(k, from, to, self.occupied())
    }

    /// Whether a board move `from`→`to` of a piece other than the king on
    /// `k`, which passed `precheck`, leaves that king attacked; `occ` is the
    /// occupancy before the move.
    #[inline(always)]
    fn exposes_king_board(&self, k: usize, from: usize, to: usize, occ: Bitboard) -> bool {
        let us = self.side;
        // Out of check any destination answers it; skipping the evasion
        // mask then saves its construction on nearly every move.
        if self.checkers != 0 && self.evasion(Some(k)) & bb(to) == 0 {
            return true;
        }
        // What is left is a discovered attack through the vacated origin.
        let Some(d) = attacks::direction(k, from) else {
            return false;
        };
        if attacks::ray(d, k) & bb(to) != 0 {
            return false;
        }
        let sliders = self.line_attackers(us.flip(), d) & attacks::ray(d, k);
        if sliders == 0 {
            return false;
        }
        let Some(s) = attacks::first_blocker(d, k, occ ^ bb(from)) else {
            return false;
        };
        sliders & bb(s) != 0
    }

    /// Every rule that can be judged before the move is played.
    #[inline(always)]
    fn precheck(&self, m: Move) -> Result<(), Rule> {
        let us = self.side;
        match m {
            Move::Normal { from, to, promote } => {
                let p = match self.board[from.index()] {
                    Some(p) if p.color == us => p,
                    _ => return Err(Rule::NoPiece),
                };
                // An own piece on the destination (the origin included) or
                // the enemy king: one mask before the reach test.
                let barred = self.by_color[us.index()] | self.pieces(us.flip(), PieceKind::King);
                if barred & bb(to.index()) != 0
                    || !attacks::reaches(us, p.kind, from.index(), to.index(), self.occupied())
                {
                    return Err(Rule::BadMovement);
                }
                if promote && !(p.kind.can_promote() && (from.in_zone(us) || to.in_zone(us))) {
                    return Err(Rule::BadPromotion);
                }
                if !promote && attacks::is_dead(us, p.kind, to.index()) {
                    return Err(Rule::DeadPiece);
                }
            }
            Move::Drop { kind, to } => {
                if kind.is_promoted() {
                    return Err(Rule::BadPromotion);
                }
                if kind == PieceKind::King || self.hands[us.index()].count(kind) == 0 {
                    return Err(Rule::NotInHand);
                }
                if self.board[to.index()].is_some() {
                    return Err(Rule::OccupiedDrop);
                }
                if attacks::is_dead(us, kind, to.index()) {
                    return Err(Rule::DeadPiece);
                }
                if kind == PieceKind::Pawn
                    && self.pieces(us, PieceKind::Pawn) & attacks::file_mask(to.file()) != 0
                {
                    return Err(Rule::Nifu);
                }
            }
        }
        Ok(())
    }

    /// The rules judged on the position after `m`, played by `us`.
    fn postcheck(&self, us: Color, m: Move) -> Result<(), Rule> {
        // From scratch, not from `checkers` or `has_legal_move`, so that this
        // path stays independent of the one `play` takes.
        if self.king_attacked(us) {
            return Err(Rule::SelfCheck);
        }
        if matches!(
            m,
            Move::Drop {
                kind: PieceKind::Pawn,
                ..
            }
        ) && self.king_attacked(self.side)
            && self.legal_moves().is_empty()
        {
            return Err(Rule::Uchifuzume);
        }
        Ok(())
    }

    /// [`Position::check_move`] for a move played by `color`:
    /// `Err(Rule::WrongTurn)` if `color` is not to move.
    pub fn check_move_by(&self, color: Color, m: Move) -> Result<(), Rule> {
        if color != self.side {
            return Err(Rule::WrongTurn);
        }
        self.check_move(m)
    }

    /// The number of leaf nodes of the legal move tree `depth` plies deep.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let mut buffers = vec![Vec::with_capacity(256); depth as usize];
        self.perft_with(depth, &mut buffers)
    }

    fn perft_with(&self, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
        let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
        self.legal_moves_into(moves);
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut n = 0;
        for &m in moves.iter() {
            let mut child = self.clone();
            child.play_safe(m);
            n += child.perft_with(depth - 1, rest);
        }
        n
    }

    /// Perft per legal move: each move with the leaf count below it.
    pub fn perft_divide(&self, depth: u32) -> Vec<(Move, u64)> {
        self.legal_moves()
            .into_iter()
            .map(|m| {
                let mut child = self.clone();
                child.play_unchecked(m);
                (m, child.perft(depth.saturating_sub(1)))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_perft_shallow() {
        let p = Position::startpos();
        assert_eq!(p.perft(1), 30);
        assert_eq!(p.perft(2), 900);
        assert_eq!(p.perft(3), 25470);
    }

    #[test]
    fn rules_md_uchifuzume_example() {
        let p = Position::from_sfen("8k/6G2/9/7N1/9/9/9/9/4K4 b P 1").unwrap();
        let m = Move::from_usi("P*1b").unwrap();
        assert_eq!(p.check_move(m), Err(Rule::Uchifuzume));
        assert!(!p.legal_moves().contains(&m));
        let p = Position::from_sfen("8k/6G2/8P/7N1/9/9/9/9/4K4 b - 1").unwrap();
        let m = Move::from_usi("1c1b").unwrap();
        assert_eq!(p.check_move(m), Ok(()));
        let mut after = p.clone();
        after.play_unchecked(m);
        assert!(after.is_checkmate());
    }
}
