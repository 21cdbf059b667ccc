//! Testing the table against a replayed game, cheaply.
//!
//! The replayer has already judged every move, and each [`Ply`] says which
//! piece moved and what it took; so the classifier needs no rules engine,
//! only where each side's pieces stand ([`Placement`]: one bitboard a side
//! and kind, and the hands). An entry can only start to hold when a piece
//! it names arrives at or leaves one of its squares, a hand it names
//! changes, a move it names is played, or its window opens: the index maps
//! each such event to the entries it concerns, so a ply tests a handful of
//! entries rather than the table.

use super::table::{Entry, EntryKind, Placed, Sides, Start};
use crate::replay::Ply;
use crate::rules::attacks::{Bitboard, bb};
use crate::rules::position::Position;
use crate::rules::types::{Color, PieceKind, Square};

/// Where each side's pieces stand, and what it holds.
pub(super) struct Placement {
    pieces: [[Bitboard; 14]; 2],
    hands: [[u8; 7]; 2],
}

impl Placement {
    pub(super) fn of(pos: &Position) -> Placement {
        let mut p = Placement {
            pieces: [[0; 14]; 2],
            hands: [[0; 7]; 2],
        };
        for c in Color::ALL {
            for k in PieceKind::ALL {
                p.pieces[c.index()][k as usize] = pos.by_color[c.index()] & pos.by_kind[k as usize];
            }
            p.hands[c.index()] = pos.hand(c).counts();
        }
        p
    }

    /// Play a ply the replayer accepted; the kind that stands on the
    /// destination afterwards.
    fn apply(&mut self, ply: &Ply) -> PieceKind {
        let c = ply.color.index();
        let to = bb(ply.mv.to().index());
        let kind = ply.piece;
        let Some(from) = ply.mv.from() else {
            self.pieces[c][kind as usize] |= to;
            let h = &mut self.hands[c][kind as usize];
            *h = h.saturating_sub(1);
            return kind;
        };
        self.pieces[c][kind as usize] &= !bb(from.index());
        let after = if ply.mv.is_promotion() {
            kind.promoted().unwrap_or(kind)
        } else {
            kind
        };
        self.pieces[c][after as usize] |= to;
        if let Some(cap) = ply.capture {
            self.pieces[1 - c][cap as usize] &= !to;
            self.hands[c][cap.unpromoted() as usize] += 1;
        }
        after
    }
}

/// One entry's conditions for one side, squares already mirrored.
#[derive(Debug)]
struct Rule {
    enabled: bool,
    need: Vec<(usize, Bitboard)>,
    any: Vec<Vec<(usize, Bitboard)>>,
    not: Vec<(usize, Bitboard)>,
    hand: Vec<(usize, u8)>,
    nohand: Vec<usize>,
    rook: Bitboard,
    /// Bits of [`Index::patterns`] that must have been played.
    played: u64,
    lo: u32,
    hi: u32,
    start: Start,
    after: Option<usize>,
}

impl Rule {
    /// Whether the pieces and hand of side `s` meet the rule (not its
    /// window, moves or parent).
    fn holds_on(&self, place: &Placement, s: usize) -> bool {
        let pcs = &place.pieces[s];
        self.need.iter().all(|&(k, m)| pcs[k] & m == m)
            && self.not.iter().all(|&(k, m)| pcs[k] & m == 0)
            && self
                .any
                .iter()
                .all(|g| g.iter().any(|&(k, m)| pcs[k] & m != 0))
            && (self.rook == 0 || pcs[PieceKind::Rook as usize] & self.rook != 0)
            && self.hand.iter().all(|&(k, n)| place.hands[s][k] >= n)
            && self.nohand.iter().all(|&k| place.hands[s][k] == 0)
    }
}

/// A move some entry needs, for one side.
#[derive(Debug)]
struct Pattern {
    kind: PieceKind,
    from: Option<Square>,
    to: Square,
}

/// The table compiled for classification, per side.
#[derive(Debug, Default)]
pub(crate) struct Index {
    rules: [Vec<Rule>; 2],
    /// `by_arrival[side][kind * 81 + square]`: the entries that piece
    /// arriving on that square may complete (it is required there, one of
    /// an any-of there, or the rook on a file the entry names).
    by_arrival: [Vec<Vec<u16>>; 2],
    /// `by_departure[side][kind * 81 + square]`: the entries that piece
    /// leaving that square may complete (it is forbidden there).
    by_departure: [Vec<Vec<u16>>; 2],
    /// `by_hand[kind]`: the entries whose conditions name that kind in hand.
    by_hand: [Vec<u16>; 7],
    patterns: [Vec<Pattern>; 2],
    /// `by_pattern[side][bit]`: the entries needing that move.
    by_pattern: [Vec<Vec<u16>>; 2],
    /// `(ply, entry)`: entries whose window opens at that ply, by ply.
    opens: Vec<(u32, u16)>,
    /// `children[entry]`: the entries `after` it.
    children: Vec<Vec<u16>>,
    /// `at_start[side][entry]`: whether the entry's pieces and hand are
    /// met in the even start. A window opening at ply 1 needs no test from
    /// the even start otherwise: only a move can make such an entry hold,
    /// and the move's own events test it.
    at_start: [Vec<bool>; 2],
    /// No entry may first hold after this ply.
    last: u32,
}

/// The square `sq` of sente's as `c` sees it.
fn mirror(sq: Square, c: Color) -> Square {
    match c {
        Color::Sente => sq,
        Color::Gote => Square::new(10 - sq.file(), 10 - sq.rank()).unwrap_or(sq),
    }
}

fn masks(list: &[Placed], c: Color) -> Vec<(usize, Bitboard)> {
    let mut out: Vec<(usize, Bitboard)> = Vec::new();
    for p in list {
        let bit = bb(mirror(p.square, c).index());
        match out.iter_mut().find(|(k, _)| *k == p.kind as usize) {
            Some((_, m)) => *m |= bit,
            None => out.push((p.kind as usize, bit)),
        }
    }
    out
}

impl Index {
    pub(super) fn build(entries: &[Entry]) -> Index {
        let mut ix = Index {
            by_arrival: [vec![Vec::new(); 14 * 81], vec![Vec::new(); 14 * 81]],
            by_departure: [vec![Vec::new(); 14 * 81], vec![Vec::new(); 14 * 81]],
            children: vec![Vec::new(); entries.len()],
            ..Index::default()
        };
        for (i, e) in entries.iter().enumerate() {
            let id = i as u16;
            if let Some(p) = e.after {
                ix.children[p].push(id);
            }
            if e.kind != EntryKind::Game {
                ix.opens.push((e.plies.0, id));
                ix.last = ix.last.max(e.plies.1);
            }
            for k in e.hand.iter().map(|h| h.0).chain(e.nohand.iter().copied()) {
                if let Some(list) = ix.by_hand.get_mut(k as usize) {
                    list.push(id);
                }
            }
            for c in Color::ALL {
                let rule = ix.rule(e, id, c);
                ix.rules[c.index()].push(rule);
            }
        }
        ix.opens.sort_unstable();
        let start = Placement::of(&Position::startpos());
        for (side, rules) in ix.rules.iter().enumerate() {
            ix.at_start[side] = rules.iter().map(|r| r.holds_on(&start, side)).collect();
        }
        ix
    }

    fn rule(&mut self, e: &Entry, id: u16, c: Color) -> Rule {
        let enabled = e.kind != EntryKind::Game
            && match e.side {
                Sides::Both => true,
                Sides::Sente => c == Color::Sente,
                Sides::Gote => c == Color::Gote,
            };
        let s = c.index();
        let mut rook = 0;
        if let Some((a, b)) = e.rook {
            for sq in Square::all() {
                let f = mirror(sq, c).file();
                if (a..=b).contains(&f) {
                    rook |= bb(sq.index());
                }
            }
        }
        let mut played = 0u64;
        for p in &e.played {
            let pat = Pattern {
                kind: p.kind,
                from: p.from.map(|f| mirror(f, c)),
                to: mirror(p.to, c),
            };
            let bit = match self.patterns[s]
                .iter()
                .position(|q| q.kind == pat.kind && q.from == pat.from && q.to == pat.to)
            {
                Some(b) => b,
                None => {
                    self.patterns[s].push(pat);
                    self.by_pattern[s].push(Vec::new());
                    self.patterns[s].len() - 1
                }
            };
            if bit < 64 {
                played |= 1 << bit;
                self.by_pattern[s][bit].push(id);
            }
        }
        let rule = Rule {
            enabled,
            need: masks(&e.need, c),
            any: e.any.iter().map(|g| masks(g, c)).collect(),
            not: masks(&e.not, c),
            hand: e.hand.iter().map(|&(k, n)| (k as usize, n)).collect(),
            nohand: e.nohand.iter().map(|&k| k as usize).collect(),
            rook,
            played,
            lo: e.plies.0,
            hi: e.plies.1,
            start: e.start,
            after: e.after,
        };
        if enabled {
            let rook_mask = [(PieceKind::Rook as usize, rook)];
            let arrive = rule.need.iter().chain(rule.any.iter().flatten());
            let arrive = arrive.chain(rook_mask.iter().filter(|r| r.1 != 0));
            touch(&mut self.by_arrival[s], id, arrive);
            touch(&mut self.by_departure[s], id, rule.not.iter());
        }
        rule
    }
}

/// Note entry `id` under each (kind, square) of `masks`.
fn touch<'m>(lists: &mut [Vec<u16>], id: u16, masks: impl Iterator<Item = &'m (usize, Bitboard)>) {
    for &(k, m) in masks {
        for sq in crate::rules::attacks::squares(m) {
            let list = &mut lists[k * 81 + sq];
            if list.last() != Some(&id) {
                list.push(id);
            }
        }
    }
}

/// What kind of start a game has, for [`Start`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum StartKind {
    Even,
    Handicap,
    Other,
}

/// The ply at which each entry first held for each side (0: never).
pub(super) struct Held {
    pub(super) first: [Vec<u32>; 2],
}

struct Run<'a> {
    ix: &'a Index,
    place: Placement,
    played: [u64; 2],
    held: Held,
    start: StartKind,
}

impl Run<'_> {
    fn holds(&self, s: usize, r: &Rule, ply: u32) -> bool {
        if !r.enabled || ply < r.lo || ply > r.hi {
            return false;
        }
        let ok_start = match r.start {
            Start::Any => true,
            Start::Even => self.start == StartKind::Even,
            Start::Handicap => self.start == StartKind::Handicap,
        };
        ok_start
            && r.holds_on(&self.place, s)
            && self.played[s] & r.played == r.played
            && r.after.is_none_or(|a| self.held.first[s][a] != 0)
    }

    /// Test entry `id` for side `s` after `ply`; on a first hold, its
    /// children too (they may hold in the same position).
    fn test(&mut self, s: usize, id: u16, ply: u32) {
        let ix = self.ix;
        let i = id as usize;
        if self.held.first[s][i] != 0 || !self.holds(s, &ix.rules[s][i], ply) {
            return;
        }
        self.held.first[s][i] = ply;
        for &child in &ix.children[i] {
            self.test(s, child, ply);
        }
    }

    fn test_all(&mut self, s: usize, ids: &[u16], ply: u32) {
        for &id in ids {
            self.test(s, id, ply);
        }
    }
}

/// Replay `plies` from `start` and note when each entry first held.
pub(super) fn run(ix: &Index, start_pos: &Position, plies: &[Ply], start: StartKind) -> Held {
    let n = ix.rules[0].len();
    let mut r = Run {
        ix,
        place: Placement::of(start_pos),
        played: [0; 2],
        held: Held {
            first: [vec![0; n], vec![0; n]],
        },
        start,
    };
    let mut opens = ix.opens.iter().peekable();
    let even = *start_pos == Position::startpos();
    for (i, p) in plies.iter().enumerate() {
        let ply = i as u32 + 1;
        if ply > ix.last {
            break;
        }
        let s = p.color.index();
        let after = r.place.apply(p);
        let to = p.mv.to().index();
        r.test_all(s, &ix.by_arrival[s][after as usize * 81 + to], ply);
        if let Some(from) = p.mv.from() {
            let list = &ix.by_departure[s][p.piece as usize * 81 + from.index()];
            r.test_all(s, list, ply);
        }
        if let Some(cap) = p.capture {
            r.test_all(1 - s, &ix.by_departure[1 - s][cap as usize * 81 + to], ply);
            r.test_all(s, &ix.by_hand[cap.unpromoted() as usize], ply);
        } else if p.mv.is_drop() {
            r.test_all(s, &ix.by_hand[p.piece as usize], ply);
        }
        for (bit, pat) in ix.patterns[s].iter().enumerate() {
            if pat.to.index() == to && pat.from == p.mv.from() && pat.kind == p.piece {
                r.played[s] |= 1 << bit;
                r.test_all(s, &ix.by_pattern[s][bit], ply);
            }
        }
        while let Some(&&(lo, id)) = opens.peek() {
            if lo > ply {
                break;
            }
            opens.next();
            for side in 0..2 {
                if !(even && lo == 1) || ix.at_start[side][id as usize] {
                    r.test(side, id, ply);
                }
            }
        }
    }
    r.held
}
