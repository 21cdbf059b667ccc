//! Grouping the [`GameKey`]s of a collection: the same game, and truncated
//! copies.

use super::key::GameKey;
use std::collections::{HashMap, HashSet};

/// What the games of a [`Group`] have in common.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    /// The same start and the same main line.
    Same,
    /// Each main line is a prefix of the longest one's, from the same start.
    Contained,
    /// The same position at the ply asked for (board, hands, side to move).
    Position,
}

impl Relation {
    /// The name used in reports: `same`, `contained`, `position`.
    pub fn name(self) -> &'static str {
        match self {
            Relation::Same => "same",
            Relation::Contained => "contained",
            Relation::Position => "position",
        }
    }
}

/// Which copy of a group to keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum KeepPolicy {
    /// The longest, then the one with the most information, then the first.
    #[default]
    Longest,
    /// The one with the most information, then the longest, then the first.
    MostInformation,
    /// The first in input order.
    First,
}

/// Games that are one game, by their number in the order they were added.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// What they share.
    pub relation: Relation,
    /// The games, longest first (then in input order).
    pub games: Vec<u32>,
    /// Each game's plies (the legal moves of its main line), in the order
    /// of `games`.
    pub plies: Vec<u32>,
    /// Each game's information (see [`super::information`]), in the order
    /// of `games`.
    pub information: Vec<u32>,
    /// The game to keep.
    pub keep: u32,
}

/// One game as the groups hold it: its key and how much it holds.
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: GameKey,
    information: u32,
}

/// The keys of a collection, grouped.
///
/// Games are added in input order ([`Groups::add`]). A game that holds a
/// shorter one cannot be told from the two keys alone; [`Groups::candidates`]
/// names the games that may (their anchors match a shorter game's probe),
/// and the caller hands each one's full prefix list to
/// [`Groups::add_prefixes`] (a second read of those games only). Then
/// [`Groups::finish`] forms the groups.
///
/// ```
/// use kifu::collection::{GameKey, Groups, KeepPolicy, Relation, prefix_hashes};
/// use kifu::{Format, ReplayOptions, parse, replay};
///
/// let game = |text: &str, format| {
///     let record = parse::parse(text, format).unwrap().remove(0);
///     replay(record, &ReplayOptions::default()).unwrap()
/// };
/// let games = [
///     game("position startpos moves 7g7f 3c3d 2g2f\n", Format::Usi),
///     game("PI\n+\n+7776FU\n-3334FU\n+2726FU\n%TORYO\n", Format::Csa),
///     game("position startpos moves 7g7f 3c3d\n", Format::Usi),
///     game("position startpos moves 7g7f 3c3d 2g2f 8c8d\n", Format::Usi),
/// ];
/// let mut groups = Groups::default();
/// for g in &games {
///     groups.add(GameKey::of(g), kifu::collection::information(&g.record));
/// }
/// for id in groups.candidates() {
///     groups.add_prefixes(id, &prefix_hashes(&games[id as usize]));
/// }
/// let found = groups.finish(KeepPolicy::Longest);
/// assert_eq!(found.len(), 1);
/// assert_eq!(found[0].relation, Relation::Contained);
/// assert_eq!(found[0].games, vec![3, 0, 1, 2]);
/// assert_eq!(found[0].keep, 3);
/// ```
#[derive(Debug, Default)]
pub struct Groups {
    entries: Vec<Entry>,
    by_position: bool,
    /// Shorter game → the longest game found to hold it.
    container: HashMap<u32, u32>,
    /// The game numbers sorted by key, built at the first prefix lookup.
    sorted: Option<Vec<u32>>,
    /// The line hashes of the games that may be held in another, built
    /// with `sorted`: a prefix hash outside it needs no search (most are).
    lines: HashSet<u64>,
}

impl Groups {
    /// Groups of games that reach the same position (the key's `line` is
    /// then a position key, see [`super::position_after`]); no containment.
    pub fn by_position() -> Groups {
        Groups {
            by_position: true,
            ..Groups::default()
        }
    }

    /// Add the next game; its number is the count of games before it.
    pub fn add(&mut self, key: GameKey, information: u32) -> u32 {
        self.entries.push(Entry { key, information });
        u32::try_from(self.entries.len() - 1).unwrap_or(u32::MAX)
    }

    /// The keys added, in order.
    pub fn keys(&self) -> impl Iterator<Item = &GameKey> + '_ {
        self.entries.iter().map(|e| &e.key)
    }

    /// The key of game `id` as added.
    pub fn key(&self, id: u32) -> Option<&GameKey> {
        self.entries.get(id as usize).map(|e| &e.key)
    }

    /// The information of game `id` as added (0 for no such game).
    pub fn information(&self, id: u32) -> u32 {
        self.entries.get(id as usize).map_or(0, |e| e.information)
    }

    /// How many games were added.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no game was added.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The games that may hold a shorter game of the collection: one of
    /// their anchors equals the probe of a game shorter than they are (or
    /// as long, for a line a foul ends). A game that holds another always
    /// is one (they share its first `c` moves), so asking only these
    /// misses nothing; a game's own probe, which its anchors hold too,
    /// does not make it one.
    pub fn candidates(&self) -> Vec<u32> {
        if self.by_position {
            return Vec::new();
        }
        // Each probe, with the fewest plies of the games giving it.
        let mut probes: HashMap<(u32, u32), u32> = HashMap::new();
        for e in &self.entries {
            if let Some(p) = e.key.probe() {
                let least = probes.entry(p).or_insert(u32::MAX);
                *least = (*least).min(e.key.plies);
            }
        }
        (0..self.entries.len() as u32)
            .filter(|&i| {
                let k = &self.entries[i as usize].key;
                k.anchors().any(|a| {
                    probes
                        .get(&a)
                        .is_some_and(|&least| least < k.plies || (k.foul() && least == k.plies))
                })
            })
            .collect()
    }

    /// The sorted game numbers by (plies, line): the classes of the same
    /// game are runs of it, and a prefix is found by binary search.
    fn sorted(&self) -> Vec<u32> {
        let mut ids: Vec<u32> = (0..self.entries.len() as u32).collect();
        ids.sort_by_key(|&i| self.class_key(i));
        ids
    }

    fn class_key(&self, i: u32) -> (u32, u64) {
        let k = &self.entries[i as usize].key;
        if self.by_position {
            (0, k.line)
        } else {
            (k.plies, k.line)
        }
    }

    /// Take the prefix hashes of candidate `id` (see
    /// [`super::prefix_hashes`]): every other game whose line is one of
    /// them is held in it. Call once every game is added.
    pub fn add_prefixes(&mut self, id: u32, prefixes: &[u64]) {
        let Some(e) = self.entries.get(id as usize).copied() else {
            return;
        };
        let sorted = match self.sorted.take() {
            Some(s) => s,
            None => {
                self.lines = self
                    .entries
                    .iter()
                    .filter(|e| e.key.probe().is_some())
                    .map(|e| e.key.line)
                    .collect();
                self.sorted()
            }
        };
        let own = self.class_key(id);
        for (k, &h) in prefixes.iter().enumerate() {
            let want = (k as u32 + 1, h);
            if want == own || !self.lines.contains(&h) {
                continue;
            }
            let from = sorted.partition_point(|&j| self.class_key(j) < want);
            let run = sorted[from..]
                .iter()
                .take_while(|&&j| self.class_key(j) == want)
                .count();
            for &j in &sorted[from..from + run] {
                let longer = self
                    .container
                    .get(&j)
                    .is_none_or(|&c| self.entries[c as usize].key.plies < e.key.plies);
                if longer {
                    self.container.insert(j, id);
                }
            }
        }
        self.sorted = Some(sorted);
    }

    /// The groups, in the order of their first game.
    pub fn finish(mut self, policy: KeepPolicy) -> Vec<Group> {
        let sorted = self.sorted.take().unwrap_or_else(|| self.sorted());
        // Each game's class: the first game of its run of equal keys.
        let mut class = vec![0u32; self.entries.len()];
        let mut run_start = 0;
        for (n, &i) in sorted.iter().enumerate() {
            if n > 0 && self.class_key(i) != self.class_key(sorted[n - 1]) {
                run_start = n;
            }
            class[i as usize] = sorted[run_start];
        }
        // The root a class belongs to: its container's class, followed up
        // (a container is the longest found, so one step is the rule).
        let root_of = |i: u32| {
            let mut c = class[i as usize];
            for _ in 0..64 {
                match self.container.get(&c) {
                    Some(&up) if class[up as usize] != c => c = class[up as usize],
                    _ => break,
                }
            }
            c
        };
        // (root, game) sorted: a group is a run of one root, and a game
        // alone in its run (most of them) costs no allocation.
        let mut by_root: Vec<(u32, u32)> = (0..self.entries.len() as u32)
            .map(|i| (root_of(i), i))
            .collect();
        by_root.sort_unstable();
        let members = by_root
            .chunk_by(|a, b| a.0 == b.0)
            .filter(|run| run.len() > 1)
            .map(|run| run.iter().map(|&(_, i)| i).collect::<Vec<u32>>());
        let mut groups: Vec<Group> = members
            .map(|mut games| {
                let e = |i: u32| self.entries[i as usize];
                games.sort_by_key(|&i| (std::cmp::Reverse(e(i).key.plies), i));
                let relation = if self.by_position {
                    Relation::Position
                } else if games
                    .iter()
                    .all(|&i| class[i as usize] == class[games[0] as usize])
                {
                    Relation::Same
                } else {
                    Relation::Contained
                };
                let keep = choose(&games, policy, |i| (e(i).key.plies, e(i).information));
                Group {
                    relation,
                    plies: games.iter().map(|&i| e(i).key.plies).collect(),
                    information: games.iter().map(|&i| e(i).information).collect(),
                    games,
                    keep,
                }
            })
            .collect();
        groups.sort_by_key(|g| g.games.iter().min().copied());
        groups
    }
}

/// The game of `games` (sorted longest first, then by number) that `policy`
/// keeps; `size` gives a game's plies and information.
fn choose(games: &[u32], policy: KeepPolicy, size: impl Fn(u32) -> (u32, u32)) -> u32 {
    let first = games.iter().copied().min().unwrap_or(0);
    let by = |f: &dyn Fn(u32) -> (u32, u32)| {
        games
            .iter()
            .copied()
            .max_by_key(|&i| (f(i), std::cmp::Reverse(i)))
            .unwrap_or(first)
    };
    match policy {
        KeepPolicy::First => first,
        KeepPolicy::Longest => by(&|i| size(i)),
        KeepPolicy::MostInformation => by(&|i| {
            let (plies, info) = size(i);
            (info, plies)
        }),
    }
}
