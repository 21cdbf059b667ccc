//! Dedup split over shards: `--save-keys FILE` writes what the first read
//! of a shard gave (each game's place, information and key, then the
//! shard's counts) as JSON Lines; `--keys FILE...` merges such files in
//! place of reading the inputs, and goes on as a whole run would: the
//! games that may hold a shorter one are read again from their sources
//! (which must be readable from where the merge runs), grouped, reported
//! and, with `--unique`, written.
//!
//! A line a game: `{"source": "games/a.csa", "index": 0, "information": 3,
//! "key": "…"}` (the key as [`GameKey::to_text`] writes it); the last line
//! `{"files": F, "games": G, "fouls": N, "unreadable": U}`.

use super::{FirstRead, Places};
use crate::cmd::Source;
use anyhow::{Context, bail};
use kifu::collection::{GameKey, Groups};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

#[derive(Serialize, Deserialize)]
struct KeyLine {
    source: String,
    index: u32,
    information: u32,
    key: String,
}

#[derive(Serialize, Deserialize)]
struct CountLine {
    files: usize,
    games: usize,
    fouls: usize,
    unreadable: usize,
}

/// Write the first read of this shard to `path`, atomically.
pub(super) fn save(r: &FirstRead, path: &Path) -> anyhow::Result<()> {
    let mut out = Vec::with_capacity(r.groups.len() * 96 + 128);
    for (id, key) in r.groups.keys().enumerate() {
        let (source, index) = r.places.name(id as u32);
        let line = KeyLine {
            source,
            index,
            information: r.groups.information(id as u32),
            key: key.to_text(),
        };
        serde_json::to_writer(&mut out, &line)?;
        out.push(b'\n');
    }
    let counts = CountLine {
        files: r.files,
        games: r.games,
        fouls: r.fouls,
        unreadable: r.unreadable,
    };
    serde_json::to_writer(&mut out, &counts)?;
    out.write_all(b"\n")?;
    crate::cmd::output::write_file(path, &out)
        .with_context(|| format!("cannot write the keys to {}", path.display()))
}

/// The first read of a whole collection, from its shards' key files.
pub(super) fn load(files: &[PathBuf]) -> anyhow::Result<FirstRead> {
    let mut groups = Groups::default();
    let mut places = Places {
        srcs: Vec::new(),
        games: Vec::new(),
        held_sources: 0,
    };
    let mut number: HashMap<String, u32> = HashMap::new();
    let (mut games, mut fouls, mut unreadable, mut listed_files) = (0, 0, 0, 0);
    for f in files {
        let file =
            std::fs::File::open(f).with_context(|| format!("cannot open {}", f.display()))?;
        let mut counted = false;
        for (n, line) in std::io::BufReader::new(file).lines().enumerate() {
            let line = line.with_context(|| format!("cannot read {}", f.display()))?;
            let at = || format!("{}:{}", f.display(), n + 1);
            if counted {
                bail!(
                    "{}: a line after the counts: not a key file of kifu dedup --save-keys",
                    at()
                );
            }
            if let Ok(k) = serde_json::from_str::<KeyLine>(&line) {
                let Some(key) = GameKey::from_text(&k.key) else {
                    bail!(
                        "{}: expected a key as kifu dedup --save-keys writes it, found {:?}",
                        at(),
                        k.key
                    );
                };
                let next = places.srcs.len() as u32;
                let s = *number.entry(k.source.clone()).or_insert_with(|| {
                    places.srcs.push(Source {
                        path: (k.source != "-").then(|| PathBuf::from(&k.source)),
                        root: None,
                    });
                    next
                });
                groups.add(key, k.information);
                places.games.push((s, k.index));
            } else if let Ok(c) = serde_json::from_str::<CountLine>(&line) {
                games += c.games;
                fouls += c.fouls;
                unreadable += c.unreadable;
                listed_files += c.files;
                counted = true;
            } else {
                bail!(
                    "{}: expected a line of kifu dedup --save-keys (a game's source, index, information and key, or the counts)",
                    at()
                );
            }
        }
        if !counted {
            bail!("{}: no counts at its end: cut short?", f.display());
        }
    }
    Ok(FirstRead {
        groups,
        checkpoints: Default::default(),
        places,
        // The sources listed here are the ones with a game; the counts
        // name them all.
        files: listed_files,
        games,
        fouls,
        unreadable,
    })
}
