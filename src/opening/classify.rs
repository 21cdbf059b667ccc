//! Testing the table against a replayed game, cheaply.
//!
//! The replayer has already judged every move, and each [`Ply`] says which
//! piece moved and what it took; so the classifier needs no rules engine,
//! only where each side's pieces stand ([`Placement`]) and what it holds.
//! An entry can only start to hold when a piece it names arrives at or
//! leaves one of its squares, a hand it names changes, a move it names is
//! played, or its window opens: the [`Index`] maps each such event to the
//! entries it concerns, so a ply tests a handful of entries rather than the
//! table.
//!
//! Even those tests mostly fail, and on one piece: a castle's silver comes
//! before its king. So each event's entry carries a *gate*, one piece on
//! one square that the entry requires, of another kind than the piece that
//! moved (the king when it names one), checked in place before the entry's
//! rule is read. And an entry that has held, whose window has closed, or
//! that does not apply to this side or start is *settled* (a flag a side)
//! and not tested again.

use super::index::{Candidate, Index, Rule, StartKind};
use super::placement::{Placement, code};
use crate::replay::Ply;
use crate::rules::attacks::bb;
use crate::rules::position::Position;
use crate::rules::types::PieceKind;

/// What held for each side: `(entry, ply)` in the order found.
pub(super) struct Held {
    pub(super) found: [Vec<(usize, u32)>; 2],
}

struct Run<'a> {
    ix: &'a Index,
    /// By `side * entries + entry`: what can never hold in this game.
    never: &'a [bool],
    place: Placement,
    played: [u64; 2],
    held: Held,
    /// By `side * entries + entry`: the ply the entry first held (0: not).
    first: Vec<u32>,
    /// Likewise: the entries that held, cannot hold, or whose window has
    /// closed.
    settled: Vec<bool>,
}

impl Run<'_> {
    fn holds(&self, s: usize, r: &Rule, ply: u32) -> bool {
        ply >= r.lo
            && r.holds_on(&self.place, s)
            && self.played[s] & r.played == r.played
            && r.after
                .is_none_or(|a| self.first[s * self.ix.len() + a] != 0)
    }

    /// Test entry `id` for side `s` after `ply`; on a first hold, its
    /// children too (they may hold in the same position).
    fn test(&mut self, s: usize, id: u16, ply: u32) {
        let ix = self.ix;
        let i = id as usize;
        let at = s * ix.len() + i;
        if self.settled[at] || !self.holds(s, ix.rule(s, i), ply) {
            return;
        }
        self.first[at] = ply;
        self.settled[at] = true;
        self.held.found[s].push((i, ply));
        self.release(s, ix.children(i), ply);
    }

    /// Let the waiting entries of `list` be tested from now on, and test
    /// them: their parent has held, or their move has been played.
    fn release(&mut self, s: usize, list: &[Candidate], ply: u32) {
        let base = s * self.ix.len();
        for c in list {
            let at = base + c.id as usize;
            let r = self.ix.rule(s, c.id as usize);
            let free = self.first[at] == 0
                && !self.never[at]
                && ply <= r.hi
                && self.played[s] & r.played == r.played
                && r.after.is_none_or(|a| self.first[base + a] != 0);
            if free {
                self.settled[at] = false;
            }
        }
        self.test_all(s, list, ply);
    }

    /// Test each unsettled candidate of `list` whose gate is open.
    fn test_all(&mut self, s: usize, list: &[Candidate], ply: u32) {
        let base = s * self.ix.len();
        for c in list {
            if !self.settled[base + c.id as usize] && self.place.has(c.gate) {
                self.test(s, c.id, ply);
            }
        }
    }

    /// Play `p`, the `ply`th move, and test the entries it may complete
    /// (once the whole move is made: a test sees the position after it).
    fn play(&mut self, p: &Ply, ply: u32) {
        let ix = self.ix;
        let s = p.color.index();
        let to = p.mv.to().index();
        let kind = self.place.apply(p);
        let arrival = ix.arrival(code(s, kind), to);
        if !arrival.is_empty() {
            self.test_all(s, arrival, ply);
        }
        if let Some(from) = p.mv.from() {
            let departure = ix.departure(code(s, p.piece), from.index());
            if !departure.is_empty() {
                self.test_all(s, departure, ply);
            }
        }
        match p.capture {
            Some(cap) => {
                self.test_all(1 - s, ix.departure(code(1 - s, cap), to), ply);
                self.test_all(s, ix.hand(s, cap.unpromoted()), ply);
            }
            None if p.mv.is_drop() => self.test_all(s, ix.hand(s, p.piece), ply),
            None => {}
        }
        if kind == PieceKind::Rook {
            self.rook_enters(s, p, ply);
        }
        if ix.plays_to(s, to) {
            self.play_patterns(s, p, ply);
        }
    }

    /// Test the entries naming the files side `s`'s rook has just entered
    /// with `p` (moving within them changes nothing).
    fn rook_enters(&mut self, s: usize, p: &Ply, ply: u32) {
        let ix = self.ix;
        let (to, from) = (
            bb(p.mv.to().index()),
            p.mv.from().map_or(0, |f| bb(f.index())),
        );
        for (files, list) in ix.rook_files(s) {
            if files & to != 0 && files & from == 0 {
                self.test_all(s, list, ply);
            }
        }
    }

    /// Note the patterns side `s` played with `p`, and test what needs them.
    fn play_patterns(&mut self, s: usize, p: &Ply, ply: u32) {
        let ix = self.ix;
        for bit in ix.patterns_played(s, p) {
            self.played[s] |= 1 << bit;
            self.release(s, ix.played(s, bit), ply);
        }
    }
}

/// Replay `plies` from `start` and note when each entry first held.
pub(super) fn run(ix: &Index, start_pos: &Position, plies: &[Ply], start: StartKind) -> Held {
    let n = ix.len();
    let mut r = Run {
        ix,
        never: ix.settled(start),
        place: ix.placement(start_pos, start),
        played: [0; 2],
        held: Held {
            found: [Vec::new(), Vec::new()],
        },
        first: vec![0; 2 * n],
        settled: ix.initial(start).to_vec(),
    };
    let opens = ix.opens(start);
    let closes = ix.closes();
    let (mut open, mut close) = (0, 0);
    // The plies at which the next window opens and the next closes (an
    // entry is settled the ply after its window's last).
    let at = |o: Option<&(u32, u16, u8)>| o.map_or(u32::MAX, |o| o.0);
    let after = |c: Option<&(u32, u16)>| c.map_or(u32::MAX, |c| c.0 + 1);
    let (mut next_open, mut next_close) = (at(opens.first()), after(closes.first()));
    let last = plies.len().min(ix.last() as usize);
    for (i, p) in plies[..last].iter().enumerate() {
        let ply = i as u32 + 1;
        if ply >= next_close {
            while let Some(&(_, id)) = closes.get(close).filter(|c| c.0 < ply) {
                r.settled[id as usize] = true;
                r.settled[n + id as usize] = true;
                close += 1;
            }
            next_close = after(closes.get(close));
        }
        r.play(p, ply);
        if ply >= next_open {
            while let Some(&(_, id, side)) = opens.get(open).filter(|o| o.0 <= ply) {
                r.test(side as usize, id, ply);
                open += 1;
            }
            next_open = at(opens.get(open));
        }
    }
    r.held
}
