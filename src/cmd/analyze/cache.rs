//! What the engine said about each position, keyed by the position and the
//! search, kept in memory and (with `--cache FILE`) appended to a JSON
//! Lines file as each answer arrives: an interrupted run started again
//! with the same file searches only what is left.

use super::usi::Score;
use anyhow::Context;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;

/// The engine's answer for one position, checked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Analysis {
    /// The score from the side to move.
    pub score: Score,
    /// Search depth, if the engine said.
    pub depth: Option<u32>,
    /// Nodes searched, if the engine said.
    pub nodes: Option<u64>,
    /// The PV in USI moves, every one legal; empty when the engine's was not.
    pub pv: Vec<String>,
    /// Whether the score is a bound (`lowerbound`/`upperbound`): the engine
    /// gave no exact one. Cache files without the field read as exact.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bound: bool,
}

/// One line of the cache file.
#[derive(Serialize, Deserialize)]
struct Entry {
    /// [`super::line::key`] of the position.
    position: String,
    /// The search: the `go` command and the options, as [`Cache::new`] got it.
    search: String,
    #[serde(flatten)]
    analysis: Analysis,
}

/// The answers of this run and of earlier ones.
pub struct Cache {
    search: String,
    known: Mutex<HashMap<String, Analysis>>,
    file: Option<Mutex<File>>,
    /// Lines of the file that could not be read (a line cut short by a kill).
    pub unreadable_lines: usize,
}

impl Cache {
    /// A cache of answers to `search` (the limit and options), read from
    /// and appended to `file` when given.
    pub fn new(search: String, file: Option<&Path>) -> anyhow::Result<Cache> {
        let mut known = HashMap::new();
        let mut unreadable_lines = 0;
        let file = match file {
            None => None,
            Some(p) => {
                let text = match std::fs::read(p) {
                    Ok(t) => t,
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
                    Err(e) => return Err(e).context(format!("cannot read {}", p.display())),
                };
                for line in text.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
                    match serde_json::from_slice::<Entry>(line) {
                        Ok(e) if e.search == search => {
                            known.insert(e.position, e.analysis);
                        }
                        Ok(_) => {}
                        Err(_) => unreadable_lines += 1,
                    }
                }
                let mut f = OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(p)
                    .with_context(|| format!("cannot open the cache {}", p.display()))?;
                // A line cut short by a kill is ended, so the next one stands alone.
                if text.last().is_some_and(|&b| b != b'\n') {
                    f.write_all(b"\n")
                        .with_context(|| format!("cannot append to {}", p.display()))?;
                }
                Some(Mutex::new(f))
            }
        };
        Ok(Cache {
            search,
            known: Mutex::new(known),
            file,
            unreadable_lines,
        })
    }

    /// The answer for the position `key`, if known.
    pub fn get(&self, key: &str) -> Option<Analysis> {
        self.known.lock().ok()?.get(key).cloned()
    }

    /// Keep an answer, and append it to the file (one whole line, flushed,
    /// so that a kill leaves at most one line cut short).
    pub fn put(&self, key: &str, a: &Analysis) -> anyhow::Result<()> {
        if let Some(f) = &self.file {
            let entry = Entry {
                position: key.to_string(),
                search: self.search.clone(),
                analysis: a.clone(),
            };
            let mut line = serde_json::to_string(&entry)?;
            line.push('\n');
            let mut f = f
                .lock()
                .map_err(|_| anyhow::anyhow!("cache lock poisoned"))?;
            f.write_all(line.as_bytes())
                .and_then(|()| f.flush())
                .context("cannot append to the cache")?;
        }
        if let Ok(mut k) = self.known.lock() {
            k.insert(key.to_string(), a.clone());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_come_back_from_the_file_for_the_same_search_only() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("c.jsonl");
        let a = Analysis {
            score: Score::Mate(-3),
            depth: Some(4),
            nodes: Some(100),
            pv: vec!["7g7f".into()],
            bound: true,
        };
        Cache::new("go nodes 1".into(), Some(&path))
            .unwrap()
            .put("k", &a)
            .unwrap();
        // A line cut short by a kill is skipped, not fatal.
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .unwrap()
            .write_all(b"{\"position\":\"x")
            .unwrap();
        let again = Cache::new("go nodes 1".into(), Some(&path)).unwrap();
        assert_eq!(again.get("k"), Some(a.clone()));
        assert_eq!(again.unreadable_lines, 1);
        again.put("k2", &a).unwrap();
        let third = Cache::new("go nodes 1".into(), Some(&path)).unwrap();
        assert_eq!(third.get("k2"), Some(a));
        assert_eq!(third.unreadable_lines, 1);
        let other = Cache::new("go nodes 2".into(), Some(&path)).unwrap();
        assert_eq!(other.get("k"), None);
    }
}
