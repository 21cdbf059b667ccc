//! `kifu stats` on variant records: games, plies, results and fouls.

use crate::StatsArgs;
use crate::cmd::sources;
use crate::cmd::variant::read;
use kifu::variant::Variant;
use std::collections::BTreeMap;
use std::io::Write;

/// `kifu stats` on variant records: games, plies, results and fouls.
pub fn stats(a: &StatsArgs, variant: Variant) -> anyhow::Result<u8> {
    let (srcs, walk_errors) = sources(&a.input.paths);
    let mut games = 0usize;
    let mut plies = 0usize;
    let mut unreadable = walk_errors.len();
    let mut by_variant: BTreeMap<&str, usize> = BTreeMap::new();
    let mut results: BTreeMap<String, usize> = BTreeMap::new();
    let mut fouls: BTreeMap<&str, usize> = BTreeMap::new();
    for src in &srcs {
        let name = src.name();
        match read(&name, src.path.as_deref(), Some(variant)) {
            Ok((_, gs)) => {
                for g in gs {
                    games += 1;
                    plies += g.plies.len();
                    *by_variant.entry(g.end.variant().name()).or_default() += 1;
                    let w = g.winner.map_or("none", |c| c.name());
                    *results.entry(format!("{w} {}", g.reason)).or_default() += 1;
                    if let Some(f) = g.foul {
                        *fouls.entry(f.foul.code()).or_default() += 1;
                    }
                }
            }
            Err(e) => {
                eprintln!("kifu: {e}");
                unreadable += 1;
            }
        }
    }
    let mut out = std::io::stdout().lock();
    if a.json {
        let v = serde_json::json!({
            "files": srcs.len(), "unreadable": unreadable, "games": games, "plies": plies,
            "variants": by_variant, "results": results, "fouls": fouls,
        });
        writeln!(out, "{v}")?;
    } else {
        writeln!(
            out,
            "{} file(s), {games} game(s), {plies} plies, {unreadable} unreadable",
            srcs.len()
        )?;
        let list = |m: &BTreeMap<&str, usize>| -> String {
            m.iter()
                .map(|(k, v)| format!("{k}: {v}"))
                .collect::<Vec<_>>()
                .join(", ")
        };
        writeln!(out, "variants: {}", list(&by_variant))?;
        writeln!(
            out,
            "results: {}",
            list(&results.iter().map(|(k, v)| (k.as_str(), *v)).collect())
        )?;
        writeln!(
            out,
            "fouls: {}",
            if fouls.is_empty() {
                "none".into()
            } else {
                list(&fouls)
            }
        )?;
    }
    Ok(if unreadable > 0 { 2 } else { 0 })
}
