//! `kifu check` on variant records: each game judged on the table-driven
//! engine, reported as shogi's games are (text lines or JSON objects), and
//! counted for the summary.

use crate::cmd::variant::{read, sniff_file};
use kifu::variant::{Variant, VariantGame};
use kifu::{Format, Reason};
use std::path::Path;

/// When an input could not be read as shogi: the check of it as the
/// variant it sniffs as, if it is one (stdin needs `--variant`).
pub fn fallback(name: &str, json: bool, quiet: bool) -> Option<Tally> {
    if name == "-" {
        return None;
    }
    let path = Path::new(name);
    // A refusal (an unknown UCI_Variant) is reported by check_input as well.
    let _ = sniff_file(path)?;
    Some(check_input(name, Some(path), None, json, quiet))
}

/// How a variant game came out, as the check summary counts it.
#[derive(Default)]
pub struct Tally {
    pub out: String,
    pub err: String,
    pub games: usize,
    pub plies: usize,
    pub legal: usize,
    pub fouls: usize,
    pub unreadable: usize,
    pub diagnostics: usize,
    pub fouls_by_rule: std::collections::BTreeMap<&'static str, usize>,
    /// Games with a diagnostic, and the diagnostics by code (`check --strict`).
    pub strict: crate::cmd::summary::Strict,
}

/// The check report of every game of one input.
pub fn check_input(
    name: &str,
    path: Option<&Path>,
    variant: Option<Variant>,
    json: bool,
    quiet: bool,
) -> Tally {
    let mut t = Tally::default();
    let (format, games) = match read(name, path, variant) {
        Ok(g) => g,
        Err(e) => {
            t.unreadable = 1;
            if json {
                t.out.push_str(
                    &serde_json::json!({"source": name, "error": {"message": e}}).to_string(),
                );
                t.out.push('\n');
            } else {
                t.err = format!("{e}\n");
            }
            return t;
        }
    };
    for g in &games {
        t.games += 1;
        t.plies += g.plies.len();
        t.diagnostics += g.diagnostics.len();
        if !g.diagnostics.is_empty() {
            t.strict.failed += 1;
        }
        for d in &g.diagnostics {
            *t.strict.by_code.entry(d.code.code()).or_default() += 1;
        }
        match &g.foul {
            Some(f) => {
                t.fouls += 1;
                *t.fouls_by_rule.entry(f.foul.code()).or_default() += 1;
            }
            None => t.legal += 1,
        }
        if json {
            t.out.push_str(&game_json(name, format, g).to_string());
            t.out.push('\n');
        } else {
            text_report(&mut t.out, name, g, quiet);
        }
    }
    t
}

fn text_report(out: &mut String, name: &str, g: &VariantGame, quiet: bool) {
    let v = g.end.variant();
    let label = if g.record.index > 0 {
        format!(" (game {})", g.record.index + 1)
    } else {
        String::new()
    };
    if let Some(f) = &g.foul {
        let shown = f.usi.clone().unwrap_or_else(|| "move".into());
        out.push_str(&format!(
            "{name}:{}:{}:{label} {v}: ply {} {shown}: {} ({}); {} loses by foul\n",
            f.span.line,
            f.span.column,
            f.ply,
            f.foul.code(),
            f.foul.kanji(),
            f.loser.name()
        ));
    }
    for d in &g.diagnostics {
        let pos = d
            .span
            .map_or(String::new(), |s| format!("{}:{}:", s.line, s.column));
        out.push_str(&format!(
            "{name}:{pos}{label} warning[{}]: {}\n",
            d.code, d.message
        ));
    }
    if g.foul.is_none() && g.diagnostics.is_empty() && !quiet {
        let n = g.plies.len();
        let result = match g.winner {
            None if g.reason == Reason::NoResult => "no result recorded".to_string(),
            None => format!("no winner: {}", g.reason),
            Some(c) => format!("{} wins: {}", c.name(), g.reason),
        };
        let plies = if n == 1 { "ply" } else { "plies" };
        out.push_str(&format!("{name}{label}: {v}: ok: {n} {plies}, {result}\n"));
    }
}

/// The JSON object `check --json` prints and `convert --to json` writes.
pub fn game_json(name: &str, format: Format, g: &VariantGame) -> serde_json::Value {
    kifu::variant::read::game_json(name, format, g)
}
