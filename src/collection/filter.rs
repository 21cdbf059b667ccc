//! Which games of a collection to keep: a [`Filter`] of conditions on the
//! header (players, event, date, ratings) and on the replayed game (start,
//! result, ending, foul, length, a position reached).

use super::Pattern;
use crate::codes::Reason;
use crate::record::{HeaderKey, Record};
use crate::replay::{Game, Verdict};
use crate::rules::rule::Rule;
use crate::rules::setup::Handicap;
use crate::rules::types::Color;

/// Conditions on a game; a game matches when it meets every one given
/// (`None` is no condition).
///
/// ```
/// use kifu::collection::{Filter, Range};
/// use kifu::{Format, ReplayOptions, parse, replay};
///
/// let text = "先手：羽生　善治\n後手：Ｓａｔｏ\n開始日時：2024/05/04\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n";
/// let game = replay(parse::parse(text, Format::Kif).unwrap().remove(0), &ReplayOptions::default()).unwrap();
/// let f = Filter {
///     player: Some("羽生善治".into()),
///     gote: Some("sato".into()),
///     date: Some(Range::parse_date("2024..2024-06").unwrap()),
///     plies: Some(Range { min: Some(2), max: None }),
///     ..Filter::default()
/// };
/// assert!(f.matches(&game));
/// assert!(!Filter { sente: Some("sato".into()), ..Filter::default() }.matches(&game));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Filter {
    /// A name either player's contains (folded, see [`fold`]).
    pub player: Option<String>,
    /// A name sente's contains.
    pub sente: Option<String>,
    /// A name gote's contains.
    pub gote: Option<String>,
    /// A name the event (棋戦, `$EVENT`, or the title) contains.
    pub event: Option<String>,
    /// The start date, as `yyyymmdd` ([`start_date`]).
    pub date: Option<Range<u32>>,
    /// Every rating the record gives ([`ratings`]); a game with none does
    /// not match.
    pub rating: Option<Range<f64>>,
    /// The start position.
    pub handicap: Option<HandicapFilter>,
    /// The winner, or a draw.
    pub result: Option<Outcome>,
    /// How the game ended (the replay's reason).
    pub ending: Option<Reason>,
    /// A foul ends the main line: any foul (`Some(None)`) or this rule's.
    pub foul: Option<Option<Rule>>,
    /// The legal plies of the main line.
    pub plies: Option<Range<usize>>,
    /// A position (its [`crate::Position::key`]) the main line reaches,
    /// the start included.
    pub position: Option<u64>,
    /// Pieces on squares, in hand or in all (a [`Pattern`]) that one
    /// position of the main line, the start included, meets together.
    pub pattern: Option<Pattern>,
    /// A name the game's 戦型, or a strategy or castle of either side,
    /// contains (folded as the players are), as the builtin opening table
    /// names them ([`crate::opening::classify`]).
    pub opening: Option<String>,
}

/// An inclusive range; an open end is `None`.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Range<T> {
    /// The least value in the range.
    pub min: Option<T>,
    /// The greatest value in the range.
    pub max: Option<T>,
}

impl<T: PartialOrd + Copy> Range<T> {
    /// Whether `v` lies in the range.
    pub fn contains(&self, v: T) -> bool {
        self.min.is_none_or(|m| v >= m) && self.max.is_none_or(|m| v <= m)
    }
}

impl<T: std::str::FromStr + Copy> Range<T> {
    /// `MIN..MAX`, `MIN..`, `..MAX`, or one value `N` (`N..N`).
    pub fn parse(s: &str) -> Option<Range<T>> {
        let end = |t: &str| -> Option<Option<T>> {
            let t = t.trim();
            if t.is_empty() {
                Some(None)
            } else {
                t.parse().ok().map(Some)
            }
        };
        match s.split_once("..") {
            Some((a, b)) => Some(Range {
                min: end(a)?,
                max: end(b)?,
            }),
            None => {
                let v = end(s)??;
                Some(Range {
                    min: Some(v),
                    max: Some(v),
                })
            }
        }
    }
}

impl Range<u32> {
    /// A range of dates: `FROM..TO`, each end a year (`2024`), a month
    /// (`2024-05`, `2024/05`) or a day (`2024-05-04`), as `yyyymmdd`; a
    /// year or month as the upper end runs to its last day.
    pub fn parse_date(s: &str) -> Option<Range<u32>> {
        let end = |t: &str, upper: bool| -> Option<Option<u32>> {
            let t = t.trim();
            if t.is_empty() {
                return Some(None);
            }
            let parts: Vec<u32> = t
                .split(['-', '/', '.'])
                .map(|p| p.parse().ok())
                .collect::<Option<_>>()?;
            let (y, m, d) = match (parts.as_slice(), upper) {
                ([y], false) => (*y, 1, 1),
                ([y], true) => (*y, 12, 31),
                ([y, m], false) => (*y, *m, 1),
                ([y, m], true) => (*y, *m, 31),
                ([y, m, d], _) => (*y, *m, *d),
                _ => return None,
            };
            Some(Some(y * 10000 + m * 100 + d))
        };
        match s.split_once("..") {
            Some((a, b)) => Some(Range {
                min: end(a, false)?,
                max: end(b, true)?,
            }),
            None => Some(Range {
                min: end(s, false)?,
                max: end(s, true)?,
            }),
        }
    }
}

/// Which start positions `--handicap` keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandicapFilter {
    /// Any start but the even game: a handicap preset, or a diagram.
    Any,
    /// This preset's start (the even game included).
    Preset(Handicap),
}

impl HandicapFilter {
    /// A preset by its English name (`two-pieces`) or its 手合割
    /// (`二枚落ち`); `any` for every handicap.
    pub fn parse(s: &str) -> Option<HandicapFilter> {
        if s == "any" {
            return Some(HandicapFilter::Any);
        }
        Handicap::ALL
            .iter()
            .find(|h| h.name() == s)
            .copied()
            .or_else(|| Handicap::from_kif_name(s))
            .map(HandicapFilter::Preset)
    }
}

/// The result `--result` keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Sente won.
    Sente,
    /// Gote won.
    Gote,
    /// No winner, by a rule that ends the game (repetition, impasse,
    /// agreement, the move limit).
    Draw,
}

/// `s` as names are compared: full-width ASCII letters and digits made
/// half-width, every space (half- or full-width) removed, ASCII letters in
/// lower case. `ＳＡＴＯ　Ｈａｎａｋｏ` and `sato hanako` fold alike.
pub fn fold(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace())
        .map(narrow)
        .flat_map(char::to_lowercase)
        .collect()
}

/// A full-width ASCII character (`Ａ`, `１`, `／`) as its half-width one.
fn narrow(c: char) -> char {
    match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        _ => c,
    }
}

/// The day a game started, as `yyyymmdd`: the first of its start-time
/// fields (開始日時, `$START_TIME`, JKF `start_time`, or 対局日), read
/// from its first three numbers (`2024/05/04 10:00`, `2024年5月4日`,
/// `2024-05-04T10:00`).
pub fn start_date(record: &Record) -> Option<u32> {
    let text: String = record
        .header_get(&[HeaderKey::StartTime, HeaderKey::Date])?
        .chars()
        .map(narrow)
        .collect();
    let mut numbers = text
        .split(|c: char| !c.is_ascii_digit())
        .filter(|p| !p.is_empty());
    let y: u32 = numbers.next()?.parse().ok()?;
    let m: u32 = numbers.next()?.parse().ok()?;
    let d: u32 = numbers.next()?.parse().ok()?;
    (y >= 1000 && (1..=12).contains(&m) && (1..=31).contains(&d)).then_some(y * 10000 + m * 100 + d)
}

/// The players' ratings, sente's then gote's, where the record gives them:
/// floodgate's `'black_rate:NAME:2800.0` and `'white_rate:…` lines (CSA
/// notes, or comments where another format carried them over).
pub fn ratings(record: &Record) -> [Option<f64>; 2] {
    let mut r = [None, None];
    for c in record.notes.iter().chain(&record.comments) {
        let c = c.trim_start_matches('\'').trim();
        let side = if c.starts_with("black_rate:") {
            0
        } else if c.starts_with("white_rate:") {
            1
        } else {
            continue;
        };
        r[side] = c.rsplit(':').next().and_then(|v| v.trim().parse().ok());
    }
    r
}

/// The plies (0 for the start) after which the main line stands at the
/// position with key `key`.
pub fn plies_at(game: &Game, key: u64) -> Vec<u32> {
    let mut pos = game.start.clone();
    let mut at = Vec::new();
    if pos.key() == key {
        at.push(0);
    }
    for (n, p) in game.main.plies.iter().enumerate() {
        pos.play_unchecked(p.mv);
        if pos.key() == key {
            at.push(n as u32 + 1);
        }
    }
    at
}

/// The game's result as `--result` reads it: the winner, or a draw (no
/// winner, by repetition, impasse, agreement or the move limit); `None`
/// for no result.
pub fn outcome(game: &Game) -> Option<Outcome> {
    let r = &game.main.result;
    match r.winner {
        Some(Color::Sente) => Some(Outcome::Sente),
        Some(Color::Gote) => Some(Outcome::Gote),
        None => matches!(
            r.reason,
            Reason::Sennichite | Reason::Jishogi | Reason::Draw | Reason::MaxMoves
        )
        .then_some(Outcome::Draw),
    }
}

/// Whether a name of `game`'s opening (the 戦型, or a side's strategy or
/// castle) contains `want`, both folded. Classified only when asked: it
/// costs about half a replay.
fn names_opening(game: &Game, want: &str) -> bool {
    let o = crate::opening::classify(game);
    let want = fold(want);
    let sides = [&o.sente, &o.gote];
    let found = sides
        .iter()
        .flat_map(|s| s.strategy.iter().chain(&s.castle));
    std::iter::once(o.game.as_str())
        .chain(found.map(|f| f.name.as_str()))
        .any(|n| fold(n).contains(&want))
}

fn has(value: Option<&str>, want: &Option<String>) -> bool {
    match want {
        None => true,
        Some(w) => value.is_some_and(|v| fold(v).contains(&fold(w))),
    }
}

impl Filter {
    /// Whether `game` meets every condition.
    pub fn matches(&self, game: &Game) -> bool {
        self.matches_header(&game.record) && self.matches_play(game)
    }

    fn matches_header(&self, r: &Record) -> bool {
        let sente = r.header_get(&[HeaderKey::Sente]);
        let gote = r.header_get(&[HeaderKey::Gote]);
        let player = self.player.is_none() || has(sente, &self.player) || has(gote, &self.player);
        player
            && has(sente, &self.sente)
            && has(gote, &self.gote)
            && has(
                r.header_get(&[HeaderKey::Event, HeaderKey::Title]),
                &self.event,
            )
            && self
                .date
                .is_none_or(|d| start_date(r).is_some_and(|v| d.contains(v)))
            && self.rating.is_none_or(|want| {
                let given: Vec<f64> = ratings(r).into_iter().flatten().collect();
                !given.is_empty() && given.iter().all(|&v| want.contains(v))
            })
    }

    fn matches_play(&self, game: &Game) -> bool {
        let main = &game.main;
        let start = game.start.to_setup().preset();
        let handicap = match self.handicap {
            None => true,
            Some(HandicapFilter::Any) => start != Some(Handicap::Hirate),
            Some(HandicapFilter::Preset(h)) => start == Some(h),
        };
        let r = &main.result;
        let result = self.result.is_none_or(|want| outcome(game) == Some(want));
        let foul = match (&self.foul, &main.verdict) {
            (None, _) => true,
            (Some(_), Verdict::Legal) => false,
            (Some(rule), Verdict::Foul(f)) => rule.is_none_or(|want| f.rule == want),
        };
        handicap
            && result
            && foul
            && self.ending.is_none_or(|e| r.reason == e)
            && self.plies.is_none_or(|p| p.contains(main.plies.len()))
            && self.position.is_none_or(|k| !plies_at(game, k).is_empty())
            && self.pattern.as_ref().is_none_or(|p| p.reached_in(game))
            && self.opening.as_ref().is_none_or(|w| names_opening(game, w))
    }
}
