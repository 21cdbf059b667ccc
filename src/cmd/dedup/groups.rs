//! The `kifu dedup` report: the groups as text or JSON Lines, and with
//! `--against`, the input games a folder already holds.

use super::{DedupArgs, Places};
use kifu::collection::{Group, Relation};
use std::collections::HashSet;
use std::fmt::Write as _;
use std::io::Write;
/// One game of a group, as the JSON output names it.
fn game_json(places: &Places, g: &Group, n: usize) -> serde_json::Value {
    let (source, index) = places.name(g.games[n]);
    serde_json::json!({
        "source": source,
        "index": index,
        "plies": g.plies[n],
        "information": g.information[n],
    })
}

/// The text or JSON report of the groups, or with `--against` of the input
/// games DIR already holds; the games to leave out.
pub(super) fn report(
    out: &mut impl Write,
    found: &[Group],
    places: &Places,
    a: &DedupArgs,
) -> anyhow::Result<HashSet<u32>> {
    let mut drop = HashSet::new();
    for g in found {
        if a.against.is_some() {
            against_group(out, g, places, a.json, &mut drop)?;
            continue;
        }
        // Every game but the one kept is left out.
        drop.extend(g.games.iter().copied().filter(|&i| i != g.keep));
        if a.json {
            let games: Vec<_> = (0..g.games.len())
                .map(|n| game_json(places, g, n))
                .collect();
            let (source, index) = places.name(g.keep);
            let v = serde_json::json!({
                "kind": g.relation.name(),
                "games": games,
                "keep": {"source": source, "index": index},
            });
            writeln!(out, "{v}")?;
        } else {
            out.write_all(group_text(g, places).as_bytes())?;
        }
    }
    Ok(drop)
}

/// How a game is named in the text report: `file` or `file (game N)`.
fn label(places: &Places, id: u32) -> String {
    let (name, index) = places.name(id);
    if index > 0 || name == "-" {
        format!("{name} (game {})", index + 1)
    } else {
        name
    }
}

fn group_text(g: &Group, places: &Places) -> String {
    let mut s = String::new();
    let what = match g.relation {
        Relation::Same => "the same game",
        Relation::Contained => "one game and truncated copies",
        Relation::Position => "the same position",
    };
    let _ = writeln!(s, "{}: {} games, {what}", g.relation.name(), g.games.len());
    for (n, &i) in g.games.iter().enumerate() {
        let mark = if i == g.keep { "keep" } else { "    " };
        let _ = writeln!(s, "  {mark} {} ({} plies)", label(places, i), g.plies[n]);
    }
    s
}

/// The `--against` report of one group: each input game that DIR already
/// holds (the same game, or a truncated copy of one held there), and each
/// that is a longer copy of a held game; the games `--unique` leaves out.
fn against_group(
    out: &mut impl Write,
    g: &Group,
    places: &Places,
    json: bool,
    drop: &mut HashSet<u32>,
) -> anyhow::Result<()> {
    let (held, mut inputs): (Vec<_>, Vec<_>) = g
        .games
        .iter()
        .copied()
        .zip(g.plies.iter().copied())
        .partition(|&(i, _)| places.held(i));
    let mut new_ones = Vec::new();
    inputs.sort_unstable();
    for (i, plies) in inputs {
        // Every game of a group lies on its longest game's line, so a
        // held game at least as long holds this one: the shortest such
        // is the closest copy.
        let holder = held
            .iter()
            .filter(|&&(_, p)| p >= plies)
            .min_by_key(|&&(_, p)| p);
        let (relation, other) = match holder {
            Some(&(h, p)) if p == plies => ("same", h),
            Some(&(h, _)) => ("contained", h),
            None if held.is_empty() => {
                new_ones.push(i);
                continue;
            }
            None => ("extends", held[0].0),
        };
        if relation == "extends" {
            new_ones.push(i);
        } else {
            drop.insert(i);
        }
        write_held(out, places, i, plies, relation, other, json)?;
    }
    // Among the games DIR does not hold, one copy is written.
    if new_ones.len() > 1 {
        let keep = new_ones
            .iter()
            .copied()
            .find(|&i| i == g.keep)
            .unwrap_or(new_ones[0]);
        drop.extend(new_ones.into_iter().filter(|&i| i != keep));
    }
    Ok(())
}

fn write_held(
    out: &mut impl Write,
    places: &Places,
    id: u32,
    plies: u32,
    relation: &str,
    held: u32,
    json: bool,
) -> anyhow::Result<()> {
    let (source, index) = places.name(id);
    let (hs, hi) = places.name(held);
    if json {
        let v = serde_json::json!({
            "kind": relation,
            "source": source,
            "index": index,
            "plies": plies,
            "held": {"source": hs, "index": hi},
        });
        writeln!(out, "{v}")?;
    } else {
        let what = match relation {
            "same" => "held",
            "contained" => "held (a truncated copy of)",
            _ => "longer than the held copy",
        };
        writeln!(out, "{}: {what} {}", label(places, id), label(places, held))?;
    }
    Ok(())
}
