//! `kifu stats`: what a whole collection holds.

mod variant;

use super::summary::count_fouls;
use super::{Event, Item, drive, read_options, sources};
use crate::StatsArgs;
use kifu::replay::replay;
use serde::Serialize;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Width of a game-length histogram bucket, in plies.
const BUCKET: usize = 20;

/// Counts over a collection. Lengths are kept as a count per length, not a
/// list, so memory does not grow with the number of games.
#[derive(Default)]
struct Stats {
    files: usize,
    games: usize,
    unreadable: usize,
    /// reason → winner (`sente`, `gote`, `none`) → games.
    results: BTreeMap<&'static str, BTreeMap<&'static str, usize>>,
    endings: BTreeMap<&'static str, usize>,
    lengths: BTreeMap<usize, usize>,
    handicaps: BTreeMap<&'static str, usize>,
    fouls_by_rule: BTreeMap<&'static str, usize>,
}

/// One game's contribution.
#[derive(Default)]
struct GameStats {
    unreadable: usize,
    game: Option<(
        &'static str,
        &'static str,
        &'static str,
        usize,
        &'static str,
    )>,
    fouls: BTreeMap<&'static str, usize>,
    err: Option<String>,
}

#[derive(Serialize)]
struct Lengths {
    min: usize,
    median: usize,
    max: usize,
    /// Bucket start (`0`, `20`, …) → games with that many plies up to start + 19.
    histogram: BTreeMap<usize, usize>,
}

impl Stats {
    fn lengths(&self) -> Option<Lengths> {
        let min = *self.lengths.keys().next()?;
        let max = *self.lengths.keys().next_back()?;
        let total: usize = self.lengths.values().sum();
        let mut seen = 0;
        let mut median = min;
        for (&len, &n) in &self.lengths {
            seen += n;
            if seen * 2 >= total {
                median = len;
                break;
            }
        }
        let mut histogram = BTreeMap::new();
        for (&len, &n) in &self.lengths {
            *histogram.entry(len / BUCKET * BUCKET).or_default() += n;
        }
        Some(Lengths {
            min,
            median,
            max,
            histogram,
        })
    }
}

fn game_stats(item: Item, replay_opts: &kifu::ReplayOptions) -> GameStats {
    let mut g = GameStats::default();
    match item {
        Item::Warning(_) => {}
        Item::Unreadable(e) | Item::Game { record: Err(e), .. } => {
            g.unreadable = 1;
            g.err = Some(e.to_string());
        }
        Item::Game {
            record: Ok(record), ..
        } => {
            let ending = record
                .main
                .ending
                .as_ref()
                .map_or("none", |e| e.kind.name());
            let handicap = record.start.preset().map_or("setup", |h| h.name());
            match replay(record, replay_opts) {
                Ok(game) => {
                    let r = &game.main.result;
                    let winner = r.winner.map_or("none", |c| c.name());
                    count_fouls(&game, &mut g.fouls);
                    g.game = Some((
                        r.reason.code(),
                        winner,
                        ending,
                        game.main.plies.len(),
                        handicap,
                    ));
                }
                Err(e) => {
                    g.unreadable = 1;
                    g.err = Some(e.to_string());
                }
            }
        }
    }
    g
}

pub fn run(a: &StatsArgs) -> anyhow::Result<u8> {
    if let Some(v) = super::variant::requested_or_sniffed(&a.input)? {
        return variant::stats(a, v);
    }
    if let Some(by) = a.by {
        return super::stats_by::run(a, by, |path, rows| {
            super::html_report::stats::write(path, rows, by)
        });
    }
    let (read_opts, replay_opts) = read_options(&a.input)?;
    let (srcs, walk_errors) = sources(&a.input.paths_or_cwd());
    for e in &walk_errors {
        eprintln!("kifu: {e}");
    }
    let mut st = Stats {
        files: srcs.len(),
        unreadable: walk_errors.len(),
        ..Stats::default()
    };
    drive(
        &srcs,
        a.input.jobs,
        &read_opts,
        |_, _, item| game_stats(item, &replay_opts),
        |src, ev| {
            let Event::Item(g) = ev else { return Ok(()) };
            st.unreadable += g.unreadable;
            if let Some(e) = g.err {
                if e.starts_with(&src.name()) {
                    eprintln!("kifu: {e}");
                } else {
                    eprintln!("kifu: {}: {e}", src.name());
                }
            }
            for (k, v) in g.fouls {
                *st.fouls_by_rule.entry(k).or_default() += v;
            }
            if let Some((reason, winner, ending, plies, handicap)) = g.game {
                st.games += 1;
                *st.results
                    .entry(reason)
                    .or_default()
                    .entry(winner)
                    .or_default() += 1;
                *st.endings.entry(ending).or_default() += 1;
                *st.lengths.entry(plies).or_default() += 1;
                *st.handicaps.entry(handicap).or_default() += 1;
            }
            Ok(())
        },
    )?;
    let lengths = st.lengths();
    if a.json {
        let v = serde_json::json!({
            "files": st.files,
            "games": st.games,
            "unreadable": st.unreadable,
            "results": st.results,
            "endings": st.endings,
            "lengths": lengths,
            "handicaps": st.handicaps,
            "fouls_by_rule": st.fouls_by_rule,
        });
        // write_all, not println!, which panics when the reader is gone.
        std::io::Write::write_all(
            &mut std::io::stdout(),
            (serde_json::to_string_pretty(&v)? + "\n").as_bytes(),
        )?;
    } else {
        std::io::Write::write_all(
            &mut std::io::stdout(),
            text(&st, lengths.as_ref()).as_bytes(),
        )?;
    }
    Ok(if st.unreadable > 0 { 2 } else { 0 })
}

fn text(st: &Stats, lengths: Option<&Lengths>) -> String {
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    // One column for every label, as wide as the longest (rule codes such
    // as `perpetual-check` are longer than the 14 the others need).
    let width = st
        .results
        .keys()
        .chain(st.endings.keys())
        .chain(st.handicaps.keys())
        .chain(st.fouls_by_rule.keys())
        .map(|k| k.chars().count())
        .max()
        .unwrap_or(0)
        .max(14);
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{}, {}, {} unreadable",
        plural(st.files, "file", "files"),
        plural(st.games, "game", "games"),
        st.unreadable
    );
    let _ = writeln!(s, "results:");
    for (reason, winners) in &st.results {
        let by: Vec<String> = winners.iter().map(|(w, n)| format!("{w} {n}")).collect();
        let total: usize = winners.values().sum();
        let _ = writeln!(s, "  {reason:<width$} {total:>8}  ({})", by.join(", "));
    }
    let _ = writeln!(s, "endings:");
    for (k, n) in &st.endings {
        let _ = writeln!(s, "  {k:<width$} {n:>8}");
    }
    if let Some(l) = lengths {
        let _ = writeln!(
            s,
            "lengths: min {}, median {}, max {} plies",
            l.min, l.median, l.max
        );
        let most = l.histogram.values().copied().max().unwrap_or(1).max(1);
        for (start, n) in &l.histogram {
            let bar = "#".repeat((n * 40).div_ceil(most));
            let _ = writeln!(s, "  {:>4}-{:<4} {n:>8} {bar}", start, start + BUCKET - 1);
        }
    }
    let _ = writeln!(s, "handicaps:");
    for (k, n) in &st.handicaps {
        let _ = writeln!(s, "  {k:<width$} {n:>8}");
    }
    let _ = writeln!(s, "fouls by rule:");
    if st.fouls_by_rule.is_empty() {
        let _ = writeln!(s, "  none");
    }
    for (k, n) in &st.fouls_by_rule {
        let _ = writeln!(s, "  {k:<width$} {n:>8}");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_aligns_long_rule_codes_and_says_one_file() {
        let mut st = Stats {
            files: 1,
            games: 3,
            ..Stats::default()
        };
        st.fouls_by_rule.insert("nifu", 1);
        st.fouls_by_rule.insert("perpetual-check", 2);
        st.endings.insert("resign", 3);
        let t = text(&st, None);
        assert!(t.starts_with("1 file, 3 games, 0 unreadable\n"), "{t}");
        // Every count ends in the same column.
        let ends: Vec<usize> = t
            .lines()
            .filter(|l| l.starts_with("  ") && l.ends_with(char::is_numeric))
            .map(str::len)
            .collect();
        assert_eq!(ends.len(), 3, "{t}");
        assert!(ends.iter().all(|&e| e == ends[0]), "{t}");
    }
}
