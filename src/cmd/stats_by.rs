//! `kifu stats --by KEY`: games, wins and average length for each value of
//! a key (opening, castle, player, event, year, side), and, where the
//! records carry evaluations, the average loss of the moves and the count
//! of 疑問手, 悪手 and 大悪手 (`kifu::judge`). `--report` draws the table as
//! an HTML page.

use super::{Event, Item, drive, error_line, read_options, sources};
use crate::{StatsArgs, StatsBy};
use kifu::judge::{LossSummary, Thresholds, game_losses};
use kifu::record::HeaderKey;
use kifu::replay::{Game, replay};
use kifu::rules::types::Color;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The games of one value of the key. For a key of one side (castle,
/// player, side) `wins` and `losses` are that side's; for a key of the whole
/// game (opening, event, year) they are sente's.
#[derive(Default, Serialize)]
pub(super) struct Row {
    pub games: usize,
    pub wins: usize,
    pub losses: usize,
    /// Draws and games with no result recorded.
    pub other: usize,
    #[serde(skip)]
    pub plies: usize,
    pub average_plies: f64,
    /// The moves of the key's side (both sides for a key of the whole
    /// game) whose loss the evaluations give.
    #[serde(skip)]
    pub loss: LossSummary,
}

/// A row's loss figures in the JSON, when any move was judged.
#[derive(Serialize)]
struct LossJson {
    moves: usize,
    average: f64,
    dubious: usize,
    mistake: usize,
    blunder: usize,
}

impl Row {
    fn loss_json(&self) -> Option<LossJson> {
        Some(LossJson {
            moves: self.loss.moves,
            average: (self.loss.average()? * 10_000.0).round() / 10_000.0,
            dubious: self.loss.dubious,
            mistake: self.loss.mistake,
            blunder: self.loss.blunder,
        })
    }

    /// The average loss (3 decimals, `-` for none) and the counts of
    /// 疑問手, 悪手 and 大悪手, as the text and the page show them.
    pub fn loss_cells(&self) -> [String; 4] {
        let l = &self.loss;
        let avg = l.average().map_or("-".to_string(), |a| format!("{a:.3}"));
        [
            avg,
            l.dubious.to_string(),
            l.mistake.to_string(),
            l.blunder.to_string(),
        ]
    }

    /// The win rate in percent, of the games won or lost.
    pub fn win_rate(&self) -> Option<f64> {
        let decided = self.wins + self.losses;
        (decided > 0).then(|| 100.0 * self.wins as f64 / decided as f64)
    }
}

/// The count columns of a row, as the text and the page head them.
pub(super) const COUNTS: [&str; 5] = ["games", "wins", "losses", "other", "win%"];

/// One game's values of the key, each with the side it speaks for.
struct Keys {
    keys: Vec<(String, Color)>,
    winner: Option<Color>,
    plies: usize,
    /// Sente's and gote's losses.
    loss: [LossSummary; 2],
}

fn keys_of(game: &Game, by: StatsBy) -> Vec<(String, Color)> {
    let header = |k: HeaderKey| {
        let v = game.record.header_get(&[k]).map(str::trim);
        v.filter(|v| !v.is_empty()).map(str::to_string)
    };
    let unknown = || "(none)".to_string();
    let sides = [Color::Sente, Color::Gote];
    match by {
        StatsBy::Opening => vec![(kifu::opening::classify(game).game, Color::Sente)],
        StatsBy::Castle => {
            let o = kifu::opening::classify(game);
            let name = |s: &kifu::opening::SideOpening| {
                s.main_castle().map_or_else(unknown, |c| c.name.clone())
            };
            vec![(name(&o.sente), Color::Sente), (name(&o.gote), Color::Gote)]
        }
        StatsBy::Player => {
            let names = [header(HeaderKey::Sente), header(HeaderKey::Gote)];
            sides
                .into_iter()
                .zip(names)
                .map(|(c, n)| (n.unwrap_or_else(unknown), c))
                .collect()
        }
        StatsBy::Event => vec![(
            header(HeaderKey::Event).unwrap_or_else(unknown),
            Color::Sente,
        )],
        StatsBy::Year => {
            let year = header(HeaderKey::StartTime).and_then(|t| {
                t.get(..4)
                    .filter(|y| y.bytes().all(|b| b.is_ascii_digit()))
                    .map(str::to_string)
            });
            vec![(year.unwrap_or_else(unknown), Color::Sente)]
        }
        StatsBy::Side => sides
            .into_iter()
            .map(|c| (c.name().to_string(), c))
            .collect(),
    }
}

fn game_keys(
    name: &str,
    item: Item,
    opts: &kifu::ReplayOptions,
    by: StatsBy,
    t: &Thresholds,
) -> Result<Option<Keys>, String> {
    let (index, record) = match item {
        Item::Warning(_) => return Ok(None),
        Item::Unreadable(e) => return Err(error_line(name, &e, None)),
        Item::Game { index, record } => (index, record),
    };
    let game = record
        .and_then(|r| replay(r, opts))
        .map_err(|e| error_line(name, &e, Some(index)))?;
    Ok(Some(Keys {
        keys: keys_of(&game, by),
        winner: game.main.result.winner,
        plies: game.main.plies.len(),
        loss: game_losses(&game, t),
    }))
}

/// Count the inputs by `by`, print the table, and hand its rows, sorted,
/// to `page` for `--report`'s file.
pub(super) fn run(
    a: &StatsArgs,
    by: StatsBy,
    page: impl FnOnce(&std::path::Path, &[(&String, &Row)]) -> anyhow::Result<()>,
) -> anyhow::Result<u8> {
    let (read_opts, replay_opts) = read_options(&a.input)?;
    let thresholds = a.judge.thresholds()?;
    let (srcs, walk_errors) = sources(&a.input.paths_or_cwd());
    for e in &walk_errors {
        eprintln!("kifu: {e}");
    }
    let mut unreadable = walk_errors.len();
    let mut rows: BTreeMap<String, Row> = BTreeMap::new();
    drive(
        &srcs,
        a.input.jobs,
        &read_opts,
        |name, _, item| game_keys(name, item, &replay_opts, by, &thresholds),
        |_, ev| {
            let Event::Item(k) = ev else { return Ok(()) };
            match k {
                Err(e) => {
                    unreadable += 1;
                    eprint!("kifu: {e}");
                }
                Ok(Some(k)) => add(&mut rows, k, by.per_side()),
                Ok(None) => {}
            }
            Ok(())
        },
    )?;
    for r in rows.values_mut() {
        r.average_plies = (r.plies as f64 / r.games.max(1) as f64 * 10.0).round() / 10.0;
    }
    let out = if a.json {
        let list: Vec<serde_json::Value> = sorted(&rows)
            .into_iter()
            .map(|(k, r)| {
                let mut v = serde_json::to_value(r).unwrap_or_default();
                v["key"] = k.as_str().into();
                if let Some(l) = r.loss_json() {
                    v["loss"] = serde_json::to_value(l).unwrap_or_default();
                }
                v
            })
            .collect();
        let v = serde_json::json!({ "by": by.name(), "unreadable": unreadable, "rows": list });
        serde_json::to_string_pretty(&v)? + "\n"
    } else {
        text(&rows, by)
    };
    if let Some(path) = &a.report {
        page(path, &sorted(&rows))?;
    }
    std::io::Write::write_all(&mut std::io::stdout(), out.as_bytes())?;
    Ok(if unreadable > 0 { 2 } else { 0 })
}

fn add(rows: &mut BTreeMap<String, Row>, k: Keys, per_side: bool) {
    for (key, side) in k.keys {
        let r = rows.entry(key).or_default();
        r.games += 1;
        r.plies += k.plies;
        if per_side {
            r.loss.merge(&k.loss[usize::from(side == Color::Gote)]);
        } else {
            k.loss.iter().for_each(|l| r.loss.merge(l));
        }
        match k.winner {
            Some(w) if w == side => r.wins += 1,
            Some(_) => r.losses += 1,
            None => r.other += 1,
        }
    }
}

/// Most games first, then by name.
pub(super) fn sorted(rows: &BTreeMap<String, Row>) -> Vec<(&String, &Row)> {
    let mut v: Vec<_> = rows.iter().collect();
    v.sort_by(|a, b| b.1.games.cmp(&a.1.games).then(a.0.cmp(b.0)));
    v
}

fn text(rows: &BTreeMap<String, Row>, by: StatsBy) -> String {
    let width = rows.keys().map(|k| columns(k)).max().unwrap_or(0).max(8);
    let mut s = String::new();
    if !by.per_side() {
        let _ = writeln!(
            s,
            "(wins and losses are sente's, or 下手's in a handicap game)"
        );
    }
    let judged = rows.values().any(|r| r.loss.moves > 0);
    let _ = write!(s, "{:<width$}", by.name());
    for head in COUNTS {
        let _ = write!(s, " {head:>7}");
    }
    let _ = write!(s, " {:>9}", "avg plies");
    if judged {
        let _ = write!(
            s,
            " {:>8} {:>7} {:>7} {:>7}",
            "avg loss", "dubious", "mistake", "blunder"
        );
    }
    s.push('\n');
    for (k, r) in sorted(rows) {
        let rate = r.win_rate().map_or("-".to_string(), |w| format!("{w:.1}"));
        let pad = width - columns(k) + k.chars().count();
        let _ = write!(
            s,
            "{k:<pad$} {:>7} {:>7} {:>7} {:>7} {:>7} {:>9.1}",
            r.games, r.wins, r.losses, r.other, rate, r.average_plies
        );
        if judged {
            let [avg, dubious, mistake, blunder] = r.loss_cells();
            let _ = write!(s, " {avg:>8} {dubious:>7} {mistake:>7} {blunder:>7}");
        }
        s.push('\n');
    }
    if judged {
        let _ = writeln!(
            s,
            "(avg loss: of the moves the records' evaluations judge, in expected-win terms; dubious, mistake, blunder: 疑問手, 悪手, 大悪手)"
        );
    }
    s
}

/// The columns `s` takes on a terminal: two for a wide (CJK, full-width)
/// character, one for the rest.
fn columns(s: &str) -> usize {
    s.chars()
        .map(|c| if (c as u32) < 0x1100 { 1 } else { 2 })
        .sum()
}
