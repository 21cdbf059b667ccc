//! The table compiled for classification ([`Index`]): each entry's rule for
//! each side, with squares mirrored for gote, and the lists that map a
//! game's events to the entries they may complete.

use super::placement::{CODES, Code, OPEN, Placement, Spot, code};
use super::table::{Entry, EntryKind, Placed, Sides, Start};
use crate::replay::Ply;
use crate::rules::attacks::{Bitboard, bb};
use crate::rules::position::Position;
use crate::rules::types::{Color, PieceKind, Square};

/// One entry's conditions for one side, squares already mirrored. Its
/// side, start and window's end are not here: they settle the entry.
#[derive(Debug)]
pub(super) struct Rule {
    need: Vec<Spot>,
    any: Vec<Vec<Spot>>,
    not: Vec<Spot>,
    hand: Vec<(usize, u8)>,
    nohand: Vec<usize>,
    rook: Bitboard,
    /// Bits of [`Index::patterns`] that must have been played.
    pub(super) played: u64,
    pub(super) lo: u32,
    pub(super) hi: u32,
    pub(super) after: Option<usize>,
}

impl Rule {
    /// Whether the pieces and hand of side `s` meet the rule (not its
    /// window, moves or parent).
    pub(super) fn holds_on(&self, place: &Placement, s: usize) -> bool {
        self.need.iter().all(|&g| place.has(g))
            && !self.not.iter().any(|&g| place.has(g))
            && self.any.iter().all(|a| a.iter().any(|&g| place.has(g)))
            && (self.rook == 0 || place.rook_in(s, self.rook))
            && self.hand.iter().all(|&(k, n)| place.hand(s, k) >= n)
            && self.nohand.iter().all(|&k| place.hand(s, k) == 0)
    }

    /// The gate for an event of piece `c` on square `sq`: a required piece
    /// of another kind (the king first), else one of that kind elsewhere,
    /// else none.
    fn gate(&self, (sq, c): Spot, king: Code) -> Spot {
        let find = |ok: &dyn Fn(Spot) -> bool| self.need.iter().copied().find(|&g| ok(g));
        find(&|g| g.1 == king && g.1 != c)
            .or_else(|| find(&|g| g.1 != c))
            .or_else(|| find(&|g| g.0 != sq))
            .unwrap_or(OPEN)
    }
}

/// An entry an event may complete, behind its gate.
#[derive(Clone, Copy, Debug)]
pub(super) struct Candidate {
    pub(super) gate: Spot,
    pub(super) id: u16,
}

impl Candidate {
    fn ungated(id: u16) -> Candidate {
        Candidate { gate: OPEN, id }
    }
}

/// Lists of candidates by an event's key.
#[derive(Debug, Default)]
struct Lists(Vec<Vec<Candidate>>);

impl Lists {
    /// `keys` lists from `(key, candidate)` pairs, each list in the order
    /// given (table order).
    fn build(keys: usize, pairs: Vec<(usize, Candidate)>) -> Lists {
        let mut count = vec![0usize; keys];
        for p in &pairs {
            count[p.0] += 1;
        }
        // Each list is made its size; an empty one allocates nothing.
        let mut lists: Vec<Vec<Candidate>> = count.into_iter().map(Vec::with_capacity).collect();
        for (k, c) in pairs {
            lists[k].push(c);
        }
        Lists(lists)
    }

    fn get(&self, key: usize) -> &[Candidate] {
        &self.0[key]
    }
}

/// The key of the event "piece `c` arrives at (or leaves) `sq`".
fn piece_key(c: Code, sq: usize) -> usize {
    c as usize * 81 + sq
}

/// A move some entry needs, for one side.
#[derive(Debug)]
struct Pattern {
    kind: PieceKind,
    from: Option<Square>,
    to: Square,
}

/// What kind of start a game has, for [`Start`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum StartKind {
    Even,
    Handicap,
    Other,
}

const STARTS: [StartKind; 3] = [StartKind::Even, StartKind::Handicap, StartKind::Other];

fn start_index(start: StartKind) -> usize {
    STARTS.iter().position(|&k| k == start).unwrap_or(2)
}

/// The table compiled for classification, per side.
#[derive(Debug, Default)]
pub(crate) struct Index {
    /// How many entries the table has.
    n: usize,
    rules: [Vec<Rule>; 2],
    /// By [`piece_key`]: the entries that piece arriving on that square
    /// may complete (it is required there, or one of an any-of there).
    arrival: Lists,
    /// By [`piece_key`]: the entries that piece leaving that square may
    /// complete (it is forbidden there).
    departure: Lists,
    /// By `side * 7 + kind`: the entries naming that kind in hand.
    hand: Lists,
    patterns: [Vec<Pattern>; 2],
    /// By side: the entries naming the files of its rook, with those
    /// files' squares. A rook moving within them changes nothing; only
    /// one entering them (or dropped there) is an event.
    rook_files: [Vec<(Bitboard, Vec<Candidate>)>; 2],
    /// By `side * 81 + square`: whether some pattern of the side moves
    /// there.
    pattern_to: Vec<bool>,
    /// By `side * 64 + bit`: the entries needing that move.
    played: Lists,
    /// By entry: the entries `after` it.
    children: Lists,
    /// `(ply, entry, side)`: the tests to make as windows open, by ply;
    /// for the even start, then for any other.
    opens: [Vec<(u32, u16, u8)>; 2],
    /// `(ply, entry)`: entries whose window ends at that ply, by ply.
    closes: Vec<(u32, u16)>,
    /// By start, then `side * entries + entry`: the entries that cannot
    /// hold for that side in a game of that start (game types, another
    /// side's, another start's).
    settled: [Vec<bool>; 3],
    /// Likewise, what is settled at the start of a game: those, and the
    /// entries waiting for a parent or a move, which a test could not
    /// find held before then (the run releases them).
    initial: [Vec<bool>; 3],
    /// The even start's placement.
    even: Option<Placement>,
    /// No entry may first hold after this ply.
    last: u32,
}

/// The `(key, candidate)` pairs of the index's lists, gathered entry by
/// entry before they are laid out.
#[derive(Default)]
struct Pairs {
    arrival: Vec<(usize, Candidate)>,
    departure: Vec<(usize, Candidate)>,
    hand: Vec<(usize, Candidate)>,
    played: Vec<(usize, Candidate)>,
    children: Vec<(usize, Candidate)>,
}

impl Index {
    pub(super) fn build(entries: &[Entry]) -> Index {
        let mut ix = Index::default();
        let mut pairs = Pairs::default();
        let n = entries.len();
        ix.n = n;
        ix.settled = [(); 3].map(|_| vec![false; 2 * n]);
        ix.initial = ix.settled.clone();
        for (i, e) in entries.iter().enumerate() {
            let id = i as u16;
            if let Some(p) = e.after {
                pairs.children.push((p, Candidate::ungated(id)));
            }
            if e.kind != EntryKind::Game {
                ix.opens[1].extend([0, 1].map(|side| (e.plies.0, id, side)));
                ix.closes.push((e.plies.1, id));
                ix.last = ix.last.max(e.plies.1);
            }
            for c in Color::ALL {
                let rule = ix.compile(e, id, c, &mut pairs);
                ix.rules[c.index()].push(rule);
            }
        }
        ix.closes.sort_unstable();
        ix.arrival = Lists::build(CODES * 81, pairs.arrival);
        ix.departure = Lists::build(CODES * 81, pairs.departure);
        ix.hand = Lists::build(2 * 7, pairs.hand);
        ix.played = Lists::build(2 * 64, pairs.played);
        ix.children = Lists::build(n, pairs.children);
        ix.opens[1].sort_unstable();
        let start = Placement::of(&Position::startpos());
        // From the even start a window opening at ply 1 needs no test
        // unless the start meets the entry's pieces and hand: otherwise
        // only a move can make it hold, and the move's own events test it.
        let at_start = |&&(lo, id, s): &&(u32, u16, u8)| {
            lo != 1 || ix.rules[s as usize][id as usize].holds_on(&start, s as usize)
        };
        ix.opens[0] = ix.opens[1].iter().filter(at_start).copied().collect();
        ix.even = Some(start);
        ix
    }

    /// Entry `e`'s rule for `c`, its events noted in `pairs` and what
    /// settles it in `self.settled`.
    fn compile(&mut self, e: &Entry, id: u16, c: Color, pairs: &mut Pairs) -> Rule {
        let enabled = e.kind != EntryKind::Game
            && match e.side {
                Sides::Both => true,
                Sides::Sente => c == Color::Sente,
                Sides::Gote => c == Color::Gote,
            };
        let s = c.index();
        for (settled, start) in self.settled.iter_mut().zip(STARTS) {
            let fits = match e.start {
                Start::Any => true,
                Start::Even => start == StartKind::Even,
                Start::Handicap => start == StartKind::Handicap,
            };
            settled[s * self.n + id as usize] = !(enabled && fits);
        }
        let played = self.patterns_of(e, id, c, enabled, pairs);
        let rule = Rule {
            need: spots(&e.need, c),
            any: e.any.iter().map(|g| spots(g, c)).collect(),
            not: spots(&e.not, c),
            hand: e.hand.iter().map(|&(k, n)| (k as usize, n)).collect(),
            nohand: e.nohand.iter().map(|&k| k as usize).collect(),
            rook: rook_mask(e.rook, c),
            played,
            lo: e.plies.0,
            hi: e.plies.1,
            after: e.after,
        };
        // An entry needing a parent or a move waits for it, settled, until
        // the run releases it (see `Index::initial`).
        let waits = e.after.is_some() || played != 0;
        for (initial, settled) in self.initial.iter_mut().zip(&self.settled) {
            initial[s * self.n + id as usize] = settled[s * self.n + id as usize] || waits;
        }
        if enabled {
            let arrive = rule.need.iter().chain(rule.any.iter().flatten()).copied();
            touch(&mut pairs.arrival, &rule, s, id, arrive);
            if rule.rook != 0 {
                let rook = (OPEN.0, code(s, PieceKind::Rook));
                let gate = rule.gate(rook, code(s, PieceKind::King));
                let c = Candidate { gate, id };
                let files = &mut self.rook_files[s];
                match files.iter_mut().find(|f| f.0 == rule.rook) {
                    Some(f) => f.1.push(c),
                    None => files.push((rule.rook, vec![c])),
                }
            }
            touch(&mut pairs.departure, &rule, s, id, rule.not.iter().copied());
            let in_hand = e.hand.iter().map(|h| h.0).chain(e.nohand.iter().copied());
            for k in in_hand.filter(|&k| (k as usize) < 7) {
                pairs
                    .hand
                    .push((s * 7 + k as usize, Candidate::ungated(id)));
            }
        }
        rule
    }

    /// The bits of the moves entry `e` needs played by `c`, each move
    /// noted as a pattern of the side's.
    fn patterns_of(&mut self, e: &Entry, id: u16, c: Color, on: bool, pairs: &mut Pairs) -> u64 {
        let s = c.index();
        let mut played = 0u64;
        for p in &e.played {
            let pat = Pattern {
                kind: p.kind,
                from: p.from.map(|f| mirror(f, c)),
                to: mirror(p.to, c),
            };
            let known = self.patterns[s]
                .iter()
                .position(|q| q.kind == pat.kind && q.from == pat.from && q.to == pat.to);
            let bit = known.unwrap_or_else(|| {
                self.pattern_to.resize(2 * 81, false);
                self.pattern_to[s * 81 + pat.to.index()] = true;
                self.patterns[s].push(pat);
                self.patterns[s].len() - 1
            });
            if bit < 64 {
                played |= 1 << bit;
                if on {
                    pairs.played.push((s * 64 + bit, Candidate::ungated(id)));
                }
            }
        }
        played
    }

    /// How many entries the table has.
    pub(super) fn len(&self) -> usize {
        self.n
    }

    /// No entry may first hold after this ply.
    pub(super) fn last(&self) -> u32 {
        self.last
    }

    pub(super) fn rule(&self, s: usize, id: usize) -> &Rule {
        &self.rules[s][id]
    }

    /// What can never hold for a side in a game of `start`, by `side *
    /// entries + entry`.
    pub(super) fn settled(&self, start: StartKind) -> &[bool] {
        &self.settled[start_index(start)]
    }

    /// What is settled before the first move of a game of `start`: that,
    /// and what waits for a parent or a move.
    pub(super) fn initial(&self, start: StartKind) -> &[bool] {
        &self.initial[start_index(start)]
    }

    /// Side `s`'s entries naming its rook's files, with their squares.
    pub(super) fn rook_files(&self, s: usize) -> &[(Bitboard, Vec<Candidate>)] {
        &self.rook_files[s]
    }

    /// The tests to make as windows open in a game of `start`:
    /// `(ply, entry, side)` by ply.
    pub(super) fn opens(&self, start: StartKind) -> &[(u32, u16, u8)] {
        &self.opens[usize::from(start != StartKind::Even)]
    }

    /// `(ply, entry)`: the windows' last plies, by ply.
    pub(super) fn closes(&self) -> &[(u32, u16)] {
        &self.closes
    }

    /// Where the pieces stand at `pos`.
    pub(super) fn placement(&self, pos: &Position, start: StartKind) -> Placement {
        match &self.even {
            Some(even) if start == StartKind::Even => even.clone(),
            _ => Placement::of(pos),
        }
    }

    /// The entries piece `c` arriving on `sq` may complete.
    pub(super) fn arrival(&self, c: Code, sq: usize) -> &[Candidate] {
        self.arrival.get(piece_key(c, sq))
    }

    /// The entries piece `c` leaving `sq` may complete.
    pub(super) fn departure(&self, c: Code, sq: usize) -> &[Candidate] {
        self.departure.get(piece_key(c, sq))
    }

    /// The entries naming `kind` in side `s`'s hand.
    pub(super) fn hand(&self, s: usize, kind: PieceKind) -> &[Candidate] {
        self.hand.get(s * 7 + kind as usize)
    }

    /// The entries that may hold once `id` has.
    pub(super) fn children(&self, id: usize) -> &[Candidate] {
        self.children.get(id)
    }

    /// Whether some pattern of side `s` moves to `sq`.
    pub(super) fn plays_to(&self, s: usize, sq: usize) -> bool {
        self.pattern_to.get(s * 81 + sq).is_some_and(|&p| p)
    }

    /// The bits of side `s`'s patterns that `p` plays.
    pub(super) fn patterns_played(&self, s: usize, p: &Ply) -> impl Iterator<Item = usize> {
        let (kind, from, to) = (p.piece, p.mv.from(), p.mv.to());
        let pats = self.patterns[s].iter().enumerate();
        pats.filter(move |(_, q)| q.to == to && q.from == from && q.kind == kind)
            .map(|(bit, _)| bit)
    }

    /// The entries needing side `s`'s pattern `bit`.
    pub(super) fn played(&self, s: usize, bit: usize) -> &[Candidate] {
        self.played.get(s * 64 + bit)
    }
}

/// The square `sq` of sente's as `c` sees it.
fn mirror(sq: Square, c: Color) -> Square {
    match c {
        Color::Sente => sq,
        Color::Gote => Square::new(10 - sq.file(), 10 - sq.rank()).unwrap_or(sq),
    }
}

/// `list`'s pieces as side `c`'s spots.
fn spots(list: &[Placed], c: Color) -> Vec<Spot> {
    let s = c.index();
    let spot = |p: &Placed| (mirror(p.square, c).index() as u8, code(s, p.kind));
    list.iter().map(spot).collect()
}

/// The squares of the files `(a, b)` (sente's numbering) as `c` sees them.
fn rook_mask(files: Option<(u8, u8)>, c: Color) -> Bitboard {
    let Some((a, b)) = files else { return 0 };
    let on_files = Square::all().filter(|sq| (a..=b).contains(&mirror(*sq, c).file()));
    on_files.fold(0, |m, sq| m | bb(sq.index()))
}

/// Note entry `id` under each of `spots` once, gated for that spot.
fn touch(
    pairs: &mut Vec<(usize, Candidate)>,
    rule: &Rule,
    s: usize,
    id: u16,
    spots: impl Iterator<Item = Spot>,
) {
    let king = code(s, PieceKind::King);
    let first = pairs.len();
    for spot in spots {
        let key = piece_key(spot.1, spot.0 as usize);
        // A piece named on a square twice (need and any, say) is noted once.
        if pairs[first..].iter().all(|p| p.0 != key) {
            let gate = rule.gate(spot, king);
            pairs.push((key, Candidate { gate, id }));
        }
    }
}
