//! Naming what was played: each side's strategies (戦法) and castles (囲い),
//! and the game's type (戦型), from a table of definitions.
//!
//! The table is data ([`Table::builtin`] is `data/openings.txt`, CC0): each
//! entry names pieces on squares (required, any of, forbidden), pieces in
//! hand, the rook's file, moves played, the plies in which it may first
//! hold and a priority among rivals. Squares are written for sente and
//! mirrored for gote.
//!
//! # Example
//!
//! ```
//! use kifu::{Format, ReplayOptions, parse, replay};
//!
//! // Sente ranges the rook to the fourth file; gote stays at home.
//! let usi = "position startpos moves 7g7f 3c3d 6g6f 8c8d 2h6h 8d8e 8h7g 7a6b\n";
//! let record = parse::parse(usi, Format::Usi)?.remove(0);
//! let game = replay(record, &ReplayOptions::default())?;
//! let opening = kifu::opening::classify(&game);
//! assert_eq!(opening.sente.strategy[0].name, "四間飛車");
//! assert_eq!(opening.sente.strategy[0].ply, 5);
//! assert_eq!(opening.kind.name(), "対抗形");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod classify;
mod header;
mod index;
#[cfg(test)]
mod oracle_tests;
mod placement;
mod table;
#[cfg(test)]
mod tests;

pub use header::{Filled, fill_header};
pub use table::{Entry, EntryKind, Placed, Played, Sides, Stance, Start, TableError};

use crate::replay::Game;
use crate::rules::setup::Handicap;
use index::StartKind;
use serde::Serialize;
use std::sync::LazyLock;

/// A name given to one side, and the ply at which it first held.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Found {
    /// The entry's Japanese name.
    pub name: String,
    /// The ply after which the position first matched.
    pub ply: u32,
    /// Its priority among rivals (not serialised).
    #[serde(skip)]
    pub priority: i32,
    /// Its place in the table, for the lookups naming the game.
    #[serde(skip)]
    entry: usize,
}

/// One side's strategies and castles, in the order they first held.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SideOpening {
    /// Strategies (戦法).
    pub strategy: Vec<Found>,
    /// Castles (囲い).
    pub castle: Vec<Found>,
}

impl SideOpening {
    /// The strategy of highest priority (the earliest among equals).
    pub fn main_strategy(&self) -> Option<&Found> {
        best(&self.strategy)
    }

    /// The castle of highest priority (the earliest among equals).
    pub fn main_castle(&self) -> Option<&Found> {
        best(&self.castle)
    }
}

fn best(list: &[Found]) -> Option<&Found> {
    best_of(list.iter())
}

/// The highest priority of `found`, the earliest among equals.
fn best_of<'a>(found: impl Iterator<Item = &'a Found>) -> Option<&'a Found> {
    found.min_by_key(|f| (std::cmp::Reverse(f.priority), f.ply))
}

/// An entry that held for a side, while its findings are sorted out.
struct Finding {
    entry: usize,
    ply: u32,
    kept: bool,
    dropped: bool,
}

/// The broad type of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// 相居飛車: neither side ranged its rook.
    Aiibisha,
    /// 対抗形: one side ranged its rook, the other did not.
    Taikoukei,
    /// 相振り飛車: both sides ranged their rooks.
    Aifuribisha,
    /// 駒落ち: a handicap game.
    Handicap,
    /// A game from a position set up by hand, where opening names do not apply.
    Setup,
}

impl GameKind {
    /// The Japanese name: 相居飛車, 対抗形, 相振り飛車, 駒落ち, 指定局面.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Aiibisha => "相居飛車",
            GameKind::Taikoukei => "対抗形",
            GameKind::Aifuribisha => "相振り飛車",
            GameKind::Handicap => "駒落ち",
            GameKind::Setup => "指定局面",
        }
    }
}

impl Serialize for GameKind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

/// A game classified: its type and name, and each side's findings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Opening {
    /// The game's 戦型 name: `矢倉`, `四間飛車 vs 居飛車穴熊`, `相三間飛車`,
    /// `二枚落ち 二歩突っ切り`, `力戦`, …
    pub game: String,
    /// The broad type.
    #[serde(rename = "type")]
    pub kind: GameKind,
    /// Sente's (下手's in a handicap game) strategies and castles.
    pub sente: SideOpening,
    /// Gote's (上手's).
    pub gote: SideOpening,
}

/// A table of entries, ready to classify games with
/// ([`Table::classify`](crate::opening::Table::classify)).
#[derive(Debug)]
pub struct Table {
    entries: Vec<Entry>,
    index: index::Index,
    /// The strategies of the 振り飛車 family: a side that played one ranged
    /// its rook.
    ranging: Vec<usize>,
    /// The game entries.
    games: Vec<usize>,
}

impl Table {
    /// The table kifu ships (`data/openings.txt`), read once.
    pub fn builtin() -> &'static Table {
        static T: LazyLock<Table> = LazyLock::new(|| {
            Table::parse(table::BUILTIN).expect("data/openings.txt is well formed")
        });
        &T
    }

    /// The text of the table kifu ships.
    pub fn builtin_text() -> &'static str {
        table::BUILTIN
    }

    /// Read a table in the format of `data/openings.txt`.
    ///
    /// # Errors
    ///
    /// The first line that is not understood, or a name that is unknown
    /// where an earlier entry is meant.
    pub fn parse(text: &str) -> Result<Table, TableError> {
        let entries = table::parse_entries(text)?;
        let index = index::Index::build(&entries);
        let ids = |keep: &dyn Fn(&Entry) -> bool| {
            let all = entries.iter().enumerate();
            all.filter(|(_, e)| keep(e)).map(|(i, _)| i).collect()
        };
        let ranging = ids(&|e| e.kind == EntryKind::Strategy && e.family == "振り飛車");
        let games = ids(&|e| e.kind == EntryKind::Game);
        Ok(Table {
            entries,
            index,
            ranging,
            games,
        })
    }

    /// Every entry, in table order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The entry with this Japanese name.
    pub fn get(&self, name: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.name == name)
    }
}

/// Classify `game`'s main line with the builtin table.
pub fn classify(game: &Game) -> Opening {
    Table::builtin().classify(game)
}

impl Table {
    /// Classify `game`'s main line with this table.
    pub fn classify(&self, game: &Game) -> Opening {
        let start = start_kind(game);
        let plies = &game.main.plies[..game.main.plies_before_foul()];
        let held = classify::run(&self.index, &game.start, plies, start);
        let stance = [0, 1].map(|s| {
            if held.found[s].iter().any(|f| self.ranging.contains(&f.0)) {
                Stance::Furibisha
            } else {
                Stance::Ibisha
            }
        });
        let sides = [0, 1].map(|s| self.side_opening(&held.found[s], stance[1 - s]));
        let [sente, gote] = sides;
        let (kind, name) = match start {
            StartKind::Other => (GameKind::Setup, GameKind::Setup.name().to_string()),
            StartKind::Handicap => (GameKind::Handicap, handicap_name(game, &sente, &gote)),
            StartKind::Even => self.even_name(stance, &sente, &gote),
        };
        Opening {
            game: name,
            kind,
            sente,
            gote,
        }
    }

    /// A side's findings: what held, less what its opponent's stance rules
    /// out (and what followed from that), less what a later finding
    /// supersedes.
    fn side_opening(&self, found: &[(usize, u32)], opponent: Stance) -> SideOpening {
        // In table order, an entry's parent comes before it.
        let mut held: Vec<Finding> = found
            .iter()
            .map(|&(entry, ply)| Finding {
                entry,
                ply,
                kept: false,
                dropped: false,
            })
            .collect();
        held.sort_unstable_by_key(|h| h.entry);
        for j in 0..held.len() {
            let e = &self.entries[held[j].entry];
            let parent_kept = |a| held[..j].iter().any(|h| h.entry == a && h.kept);
            held[j].kept = e.vs.is_none_or(|v| v == opponent) && e.after.is_none_or(parent_kept);
        }
        for j in 0..held.len() {
            if held[j].kept {
                for &o in &self.entries[held[j].entry].over {
                    held.iter_mut()
                        .filter(|h| h.entry == o)
                        .for_each(|h| h.dropped = true);
                }
            }
        }
        let mut out = SideOpening::default();
        for h in held.iter().filter(|h| h.kept && !h.dropped) {
            let e = &self.entries[h.entry];
            let f = Found {
                name: e.name.clone(),
                ply: h.ply,
                priority: e.priority,
                entry: h.entry,
            };
            match e.kind {
                EntryKind::Castle => out.castle.push(f),
                EntryKind::Strategy => out.strategy.push(f),
                EntryKind::Game => {}
            }
        }
        out.castle.sort_by_key(|f| f.ply);
        out.strategy.sort_by_key(|f| f.ply);
        out
    }

    /// The family of the entry `f` names.
    fn family(&self, f: &Found) -> &str {
        self.entries.get(f.entry).map_or("", |e| e.family.as_str())
    }

    fn even_name(&self, st: [Stance; 2], s: &SideOpening, g: &SideOpening) -> (GameKind, String) {
        use Stance::{Furibisha, Ibisha};
        let family = |f: &SideOpening, fam: &str| {
            best_of(f.strategy.iter().filter(|x| self.family(x) == fam)).map(|x| x.name.clone())
        };
        match st {
            [Furibisha, Furibisha] => {
                let name = self
                    .game_entry(s, g, "相振り飛車")
                    .unwrap_or_else(|| GameKind::Aifuribisha.name().to_string());
                (GameKind::Aifuribisha, name)
            }
            [Furibisha, Ibisha] | [Ibisha, Furibisha] => {
                let (f, i) = if st[0] == Furibisha { (s, g) } else { (g, s) };
                let ibisha = self.ibisha_name(i).unwrap_or_else(|| "居飛車".into());
                let furi = family(f, "振り飛車").unwrap_or_default();
                (GameKind::Taikoukei, format!("{furi} vs {ibisha}"))
            }
            [Ibisha, Ibisha] => {
                let name = self.game_entry(s, g, "相居飛車").or_else(|| {
                    best_of(s.strategy.iter().chain(&g.strategy)).map(|f| f.name.clone())
                });
                (GameKind::Aiibisha, name.unwrap_or_else(|| "力戦".into()))
            }
        }
    }

    /// What the 居飛車 side of a 対抗形 game is called: its 居飛車 strategy,
    /// unless a 穴熊 or 美濃 castle ranks higher (a 居飛車穴熊 first shows as
    /// 居飛車急戦 on the way, and players name the game by the castle).
    fn ibisha_name(&self, i: &SideOpening) -> Option<String> {
        let strategies = i.strategy.iter().filter(|f| self.family(f) == "居飛車");
        let castles = i
            .castle
            .iter()
            .filter(|f| matches!(self.family(f), "穴熊" | "美濃"));
        best_of(strategies.chain(castles)).map(|f| f.name.clone())
    }

    /// The game entry of `family` whose two strategies the sides hold, of
    /// highest priority.
    fn game_entry(&self, s: &SideOpening, g: &SideOpening, family: &str) -> Option<String> {
        let has = |f: &SideOpening, i: usize| f.strategy.iter().any(|x| x.entry == i);
        self.games
            .iter()
            .map(|&i| &self.entries[i])
            .filter(|e| e.family == family)
            .filter(|e| {
                e.sides
                    .is_some_and(|(a, b)| (has(s, a) && has(g, b)) || (has(s, b) && has(g, a)))
            })
            .max_by_key(|e| e.priority)
            .map(|e| e.name.clone())
    }
}

/// The preset the game starts from, written as one or set out square by
/// square (a handicap written as a BOD diagram or SFEN is still that
/// handicap).
fn preset(game: &Game) -> Option<Handicap> {
    game.record.start.preset()
}

fn start_kind(game: &Game) -> StartKind {
    match preset(game) {
        Some(Handicap::Hirate) => StartKind::Even,
        Some(_) => StartKind::Handicap,
        None => StartKind::Other,
    }
}

fn handicap_name(game: &Game, s: &SideOpening, g: &SideOpening) -> String {
    let base = preset(game).map_or(GameKind::Handicap.name(), Handicap::kif_name);
    // 下手's strategy names a handicap game (上手 plays what the handicap
    // leaves it); 上手's only when 下手 has none.
    match s.main_strategy().or_else(|| g.main_strategy()) {
        Some(f) => format!("{base} {}", f.name),
        None => base.to_string(),
    }
}
