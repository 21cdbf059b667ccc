//! The table of castles, strategies and game types, as text: reading
//! `data/openings.txt` (embedded) or any table in the same format.

use crate::rules::types::{PieceKind, Square};
use std::collections::HashSet;
use std::fmt;

/// The table kifu ships, `data/openings.txt` (CC0).
pub(super) const BUILTIN: &str = include_str!("../../data/openings.txt");

/// What an entry names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EntryKind {
    /// A castle (囲い): where the king and its guards stand.
    Castle,
    /// A strategy (戦法) of one side.
    Strategy,
    /// A game type (戦型) named by both sides' strategies.
    Game,
}

/// Which sides an entry applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sides {
    /// Either side (gote's squares mirrored).
    Both,
    /// Sente only.
    Sente,
    /// Gote only.
    Gote,
}

/// Which starts an entry applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Start {
    /// The even start only.
    Even,
    /// A handicap preset only.
    Handicap,
    /// Any start.
    Any,
}

/// Whether a side's rook stayed home (居飛車) or moved across (振り飛車).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stance {
    /// 居飛車.
    Ibisha,
    /// 振り飛車.
    Furibisha,
}

impl Stance {
    /// The Japanese name.
    pub fn name(self) -> &'static str {
        match self {
            Stance::Ibisha => "居飛車",
            Stance::Furibisha => "振り飛車",
        }
    }
}

/// A piece on a square, as sente sees the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Placed {
    /// The kind (promoted kinds allowed).
    pub kind: PieceKind,
    /// The square, for sente.
    pub square: Square,
}

/// A move a side must have played, as sente sees the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Played {
    /// The kind that moved or was dropped.
    pub kind: PieceKind,
    /// Where from; `None` for a drop.
    pub from: Option<Square>,
    /// Where to.
    pub to: Square,
}

/// One entry of the table. Squares are sente's; gote's are mirrored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Castle, strategy or game type.
    pub kind: EntryKind,
    /// The Japanese name (the table's key).
    pub name: String,
    /// The English name.
    pub en: String,
    /// The family (美濃, 穴熊, 居飛車, 振り飛車, …).
    pub family: String,
    /// Pieces that must all stand where given.
    pub need: Vec<Placed>,
    /// Groups of which at least one piece must stand where given.
    pub any: Vec<Vec<Placed>>,
    /// Pieces that must not stand where given.
    pub not: Vec<Placed>,
    /// Pieces that must be in hand, with their least counts.
    pub hand: Vec<(PieceKind, u8)>,
    /// Kinds that must not be in hand.
    pub nohand: Vec<PieceKind>,
    /// The files (sente's numbering) the rook may stand on.
    pub rook: Option<(u8, u8)>,
    /// Moves the side must have played.
    pub played: Vec<Played>,
    /// The plies in which the entry may first hold.
    pub plies: (u32, u32),
    /// Priority among rivals.
    pub priority: i32,
    /// The sides it applies to.
    pub side: Sides,
    /// The starts it applies to.
    pub start: Start,
    /// Kept only against an opponent of this stance.
    pub vs: Option<Stance>,
    /// An earlier entry the side must already have.
    pub after: Option<usize>,
    /// Entries this one supersedes.
    pub over: Vec<usize>,
    /// For a game type: the strategy of each side (either way round).
    pub sides: Option<(usize, usize)>,
    /// The line of the table the entry starts on.
    pub line: usize,
}

/// A table that could not be read: where, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableError {
    /// The 1-based line.
    pub line: usize,
    /// What was wrong.
    pub message: String,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for TableError {}

/// Read the entries of a table in the format of `data/openings.txt`.
pub(super) fn parse_entries(text: &str) -> Result<Vec<Entry>, TableError> {
    let mut entries: Vec<Entry> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let t = raw.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let err = |message: String| TableError { line, message };
        if let Some(head) = t.strip_prefix('[') {
            let head = head
                .strip_suffix(']')
                .ok_or_else(|| err("an entry line ends with ]".into()))?;
            entries.push(new_entry(head, line).map_err(err)?);
            continue;
        }
        let Some((entry, before)) = entries.split_last_mut() else {
            return Err(err("a key before the first [entry]".into()));
        };
        let (key, value) = t
            .split_once(':')
            .ok_or_else(|| err(format!("expected `key: value`, found `{t}`")))?;
        set_key(entry, key.trim(), value.trim(), before).map_err(err)?;
    }
    Ok(entries)
}

fn new_entry(head: &str, line: usize) -> Result<Entry, String> {
    let (kind, name) = head
        .split_once(' ')
        .ok_or_else(|| format!("expected `[castle NAME]`, found `[{head}]`"))?;
    let kind = match kind {
        "castle" => EntryKind::Castle,
        "strategy" => EntryKind::Strategy,
        "game" => EntryKind::Game,
        k => return Err(format!("unknown entry kind `{k}` (castle, strategy, game)")),
    };
    Ok(Entry {
        kind,
        name: name.trim().to_string(),
        en: String::new(),
        family: String::new(),
        need: Vec::new(),
        any: Vec::new(),
        not: Vec::new(),
        hand: Vec::new(),
        nohand: Vec::new(),
        rook: None,
        played: Vec::new(),
        plies: (1, 80),
        priority: 0,
        side: Sides::Both,
        start: if kind == EntryKind::Castle {
            Start::Any
        } else {
            Start::Even
        },
        vs: None,
        after: None,
        over: Vec::new(),
        sides: None,
        line,
    })
}

fn set_key(e: &mut Entry, key: &str, v: &str, earlier: &[Entry]) -> Result<(), String> {
    let find = |n: &str| {
        earlier
            .iter()
            .position(|x| x.name == n)
            .ok_or_else(|| format!("`{n}` names no earlier entry"))
    };
    match key {
        "en" => e.en = v.to_string(),
        "family" => e.family = v.to_string(),
        "need" => e.need.extend(placed_list(v)?),
        "any" => e.any.push(placed_list(v)?),
        "not" => e.not.extend(placed_list(v)?),
        "hand" => {
            for w in v.split_whitespace() {
                let (n, letter) = match w.len() {
                    1 => (1, w),
                    _ => (
                        w[..w.len() - 1].parse().map_err(|_| bad(w))?,
                        &w[w.len() - 1..],
                    ),
                };
                e.hand.push((kind_of(letter)?, n));
            }
        }
        "nohand" => {
            for w in v.split_whitespace() {
                e.nohand.push(kind_of(w)?);
            }
        }
        "rook" => e.rook = Some(range(v, 9).map(|(a, b)| (a as u8, b as u8))?),
        "played" => {
            for w in v.split_whitespace() {
                e.played.push(played(w)?);
            }
            // The classifier keeps the moves a side has played as the bits
            // of a u64: a 65th would be dropped from its entries' rules.
            let all = earlier.iter().chain([&*e]).flat_map(|x| &x.played);
            if all.collect::<HashSet<_>>().len() > 64 {
                return Err("more than 64 different moves named by `played`".into());
            }
        }
        "plies" => e.plies = range(v, u32::MAX)?,
        "priority" => e.priority = v.parse().map_err(|_| bad(v))?,
        "side" => {
            let sides = [
                ("sente", Sides::Sente),
                ("gote", Sides::Gote),
                ("both", Sides::Both),
            ];
            e.side = one_of(key, v, &sides)?;
        }
        "start" => {
            let starts = [
                ("even", Start::Even),
                ("handicap", Start::Handicap),
                ("any", Start::Any),
            ];
            e.start = one_of(key, v, &starts)?;
        }
        "vs" => {
            let stances = [("振り飛車", Stance::Furibisha), ("居飛車", Stance::Ibisha)];
            e.vs = Some(one_of(key, v, &stances)?);
        }
        "after" => e.after = Some(find(v)?),
        "over" => {
            for w in v.split_whitespace() {
                e.over.push(find(w)?);
            }
        }
        "sides" => {
            let w: Vec<&str> = v.split_whitespace().collect();
            let [a, b] = w[..] else {
                return Err("sides names two strategies".into());
            };
            e.sides = Some((find(a)?, find(b)?));
        }
        _ => return Err(format!("unknown key `{key}`")),
    }
    Ok(())
}

/// The value of `key` that `v` names among `choices`; the error lists
/// them in their order (`side is sente, gote or both, not `x``).
fn one_of<T: Copy>(key: &str, v: &str, choices: &[(&str, T)]) -> Result<T, String> {
    if let Some(&(_, t)) = choices.iter().find(|&&(name, _)| name == v) {
        return Ok(t);
    }
    let names: Vec<&str> = choices.iter().map(|&(name, _)| name).collect();
    let (last, rest) = names.split_last().expect("choices to name");
    Err(format!("{key} is {} or {last}, not `{v}`", rest.join(", ")))
}

fn bad(w: &str) -> String {
    format!("cannot read `{w}`")
}

/// `P` … `K`, `+P` … `+R`.
fn kind_of(letter: &str) -> Result<PieceKind, String> {
    let (promoted, base) = match letter.strip_prefix('+') {
        Some(b) => (true, b),
        None => (false, letter),
    };
    let [c] = base.as_bytes() else {
        return Err(format!("`{letter}` is not a piece letter"));
    };
    let (k, _) = PieceKind::from_sfen_letter(c.to_ascii_uppercase())
        .ok_or_else(|| format!("`{letter}` is not a piece letter"))?;
    if promoted {
        k.promoted()
            .ok_or_else(|| format!("`{letter}` cannot promote"))
    } else {
        Ok(k)
    }
}

fn square(s: &str) -> Result<Square, String> {
    let b = s.as_bytes();
    if b.len() != 2 {
        return Err(format!("`{s}` is not a square (file and rank, e.g. 28)"));
    }
    Square::new(b[0].wrapping_sub(b'0'), b[1].wrapping_sub(b'0')).ok_or_else(|| bad(s))
}

fn placed(w: &str) -> Result<Placed, String> {
    if w.len() < 3 {
        return Err(format!("`{w}` is not a piece on a square (e.g. K28)"));
    }
    let (letter, sq) = w.split_at(w.len() - 2);
    Ok(Placed {
        kind: kind_of(letter)?,
        square: square(sq)?,
    })
}

fn placed_list(v: &str) -> Result<Vec<Placed>, String> {
    v.split_whitespace().map(placed).collect()
}

fn played(w: &str) -> Result<Played, String> {
    if let Some((letter, to)) = w.split_once('*') {
        return Ok(Played {
            kind: kind_of(letter)?,
            from: None,
            to: square(to)?,
        });
    }
    let (head, to) = w
        .split_once('-')
        .ok_or_else(|| format!("`{w}` is not a move (R24-34 or B*45)"))?;
    let p = placed(head)?;
    Ok(Played {
        kind: p.kind,
        from: Some(p.square),
        to: square(to)?,
    })
}

fn range<T: std::str::FromStr + PartialOrd + Copy>(v: &str, max: T) -> Result<(T, T), String> {
    let (a, b) = v.split_once('-').unwrap_or((v, v));
    let a: T = a.trim().parse().map_err(|_| bad(v))?;
    let b: T = b.trim().parse().map_err(|_| bad(v))?;
    if a > b || b > max {
        return Err(format!("`{v}` is not a range low-high"));
    }
    Ok((a, b))
}
