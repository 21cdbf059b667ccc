//! The end-of-run summary shared by `check` and `convert`.

use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Instant;

/// Counts for a whole run. Serialized as the `summary` object of `--json`
/// and `--summary FILE`; field names are part of the documented interface.
#[derive(Debug, Default, Serialize)]
pub struct Summary {
    /// Inputs named or found.
    pub files: usize,
    /// Games read and replayed.
    pub games: usize,
    /// Legal plies of the main lines.
    pub plies: usize,
    /// Games whose main line and variations are all legal.
    pub legal: usize,
    /// Games with a foul.
    pub fouls: usize,
    /// Fouls counted by rule code (main lines and variations).
    pub fouls_by_rule: BTreeMap<&'static str, usize>,
    /// Inputs or games that could not be read.
    pub unreadable: usize,
    /// Diagnostics (check) or conversion warnings (convert).
    pub warnings: usize,
    /// (convert) Outputs not written: they exist, or clash with another
    /// output or an input of the run.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_written: Option<usize>,
    /// (convert) Outputs that exist, left alone with `--skip-existing`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub skipped: Option<usize>,
    /// (check --strict) What fails the run besides fouls.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub strict: Option<Strict>,
    /// Wall-clock seconds.
    pub elapsed_s: f64,
    /// Games per second.
    pub games_per_s: f64,
    /// Plies per second.
    pub plies_per_s: f64,
}

/// What `check --strict` counts as failures: every diagnostic, and every
/// warning about an input's bytes, not only fouls.
#[derive(Debug, Default, Serialize)]
pub struct Strict {
    /// Games with at least one diagnostic (main line or variation), plus
    /// the warnings about inputs' bytes.
    pub failed: usize,
    /// Occurrences by diagnostic code; an input's warnings count as
    /// `input-warning`.
    pub by_code: BTreeMap<&'static str, usize>,
}

impl Strict {
    /// Add another's counts to these.
    pub fn add(&mut self, other: &Strict) {
        self.failed += other.failed;
        for (k, v) in &other.by_code {
            *self.by_code.entry(k).or_default() += v;
        }
    }

    /// The codes as `start-assumed 2, no-side-to-move 1`, or `none`.
    pub fn codes_text(&self) -> String {
        counts_text(&self.by_code)
    }
}

impl Summary {
    /// Fill in the time-based fields.
    pub fn finish(&mut self, start: Instant) {
        self.elapsed_s = start.elapsed().as_secs_f64();
        let t = self.elapsed_s.max(1e-9);
        self.games_per_s = (self.games as f64 / t * 10.0).round() / 10.0;
        self.plies_per_s = (self.plies as f64 / t).round();
        self.elapsed_s = (self.elapsed_s * 1000.0).round() / 1000.0;
    }

    /// `{"summary": {...}}` as one line.
    pub fn to_json(&self) -> String {
        serde_json::json!({ "summary": self }).to_string()
    }

    /// The fouls by rule as `nifu 2, self-check 1`, or `none`.
    pub fn rules_text(&self) -> String {
        counts_text(&self.fouls_by_rule)
    }

    /// Write the summary to `path` (for `--summary FILE`).
    pub fn write_to(&self, path: &std::path::Path) -> anyhow::Result<()> {
        use anyhow::Context;
        super::output::write_file(path, (self.to_json() + "\n").as_bytes())
            .with_context(|| format!("cannot write the summary to {}", path.display()))
    }
}

/// Counts by name as `nifu 2, self-check 1`, or `none`.
fn counts_text(counts: &BTreeMap<&'static str, usize>) -> String {
    if counts.is_empty() {
        return "none".to_string();
    }
    counts
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `3 files, 1 game`: how many files and games a command read, as its
/// closing line begins.
pub fn files_and_games(files: usize, games: usize) -> String {
    format!(
        "{files} {}, {games} {}",
        plural(files, "file", "files"),
        plural(games, "game", "games")
    )
}

/// `one` or `many`, as `n` says (`1 file`, `2 files`, `0 files`).
pub fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}

/// Count a replayed game's fouls by rule (main line and variations).
pub fn count_fouls(game: &kifu::Game, into: &mut BTreeMap<&'static str, usize>) {
    let lines = std::iter::once(&game.main).chain(game.variations.iter().map(|v| &v.line));
    for l in lines {
        if let kifu::replay::Verdict::Foul(f) = &l.verdict {
            *into.entry(f.rule.code()).or_default() += 1;
        }
    }
}
