//! The per-game report that `kifu check --json` prints and `--to json` embeds.
//!
//! The field names here are a public, stable interface (see `docs/cli.md`).

use crate::opening::Opening;
use crate::record::{Format, Location};
use crate::replay::{Diagnostic, Game, GameResult, LineResult, Verdict};
use serde::Serialize;

/// The verdict as JSON: `{"legal": true}` or the foul's details.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct VerdictJson {
    /// Whether the line is free of fouls.
    pub legal: bool,
    /// 1-based ply of the foul.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ply: Option<u32>,
    /// The move number as the record counts it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub move_number: Option<u32>,
    /// The rule code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rule: Option<&'static str>,
    /// `sente` or `gote`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loser: Option<&'static str>,
    /// The move in USI, where one could be formed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r#move: Option<String>,
    /// Line of the move in the source.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    /// Column of the move in the source.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    /// Why, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// The result as JSON.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ResultJson {
    /// `sente`, `gote` or null.
    pub winner: Option<&'static str>,
    /// The reason code.
    pub reason: &'static str,
}

/// A diagnostic as JSON.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct DiagnosticJson {
    /// Stable code.
    pub code: &'static str,
    /// Explanation.
    pub message: String,
    /// Line, where it points at the file.
    pub line: Option<u32>,
    /// Column.
    pub column: Option<u32>,
    /// Ply concerned.
    pub ply: Option<u32>,
}

/// One line of `kifu check --json`.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct GameReport {
    /// The input's path (or `-`).
    pub source: String,
    /// The game's index within its file.
    pub index: usize,
    /// The format read.
    pub format: &'static str,
    /// The number of legal plies in the main line.
    pub plies: usize,
    /// Legal, or the first foul.
    pub verdict: VerdictJson,
    /// Who won and why.
    pub result: ResultJson,
    /// Diagnostics of the main line, then of each variation.
    pub diagnostics: Vec<DiagnosticJson>,
    /// The verdicts of the variations, in file order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub variations: Vec<VariationReport>,
    /// What was played: the game's 戦型 and each side's strategies and
    /// castles ([`crate::opening::classify`]).
    pub opening: Opening,
}

/// A variation's verdict.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct VariationReport {
    /// The ply the variation's first move replaces.
    pub ply: u32,
    /// Legal plies in the variation.
    pub plies: usize,
    /// Its verdict.
    pub verdict: VerdictJson,
    /// Its result.
    pub result: ResultJson,
    /// Its diagnostics.
    pub diagnostics: Vec<DiagnosticJson>,
}

/// The verdict as JSON.
pub fn verdict_json(v: &Verdict) -> VerdictJson {
    match v {
        Verdict::Legal => VerdictJson {
            legal: true,
            ply: None,
            move_number: None,
            rule: None,
            loser: None,
            r#move: None,
            line: None,
            column: None,
            detail: None,
        },
        Verdict::Foul(f) => VerdictJson {
            legal: false,
            ply: Some(f.ply),
            move_number: Some(f.move_number),
            rule: Some(f.rule.code()),
            loser: Some(f.loser.name()),
            r#move: f.mv.map(|m| m.to_usi()),
            line: Some(f.span.line),
            column: Some(f.span.column),
            detail: Some(f.detail.clone()),
        },
    }
}

/// The result as JSON.
pub fn result_json(r: &GameResult) -> ResultJson {
    ResultJson {
        winner: r.winner.map(|c| c.name()),
        reason: r.reason.code(),
    }
}

/// A diagnostic as JSON.
pub fn diagnostic_json(d: &Diagnostic) -> DiagnosticJson {
    DiagnosticJson {
        code: d.code.code(),
        message: d.message.clone(),
        line: d.span.map(|s: Location| s.line),
        column: d.span.map(|s| s.column),
        ply: d.ply,
    }
}

fn diags(l: &LineResult) -> Vec<DiagnosticJson> {
    l.diagnostics.iter().map(diagnostic_json).collect()
}

/// The report of a replayed game.
pub fn game_report(source: &str, format: Format, game: &Game) -> GameReport {
    GameReport {
        source: source.to_string(),
        index: game.record.index,
        format: format.name(),
        plies: game.main.plies.len(),
        verdict: verdict_json(&game.main.verdict),
        result: result_json(&game.main.result),
        diagnostics: diags(&game.main),
        variations: game
            .variations
            .iter()
            .map(|v| VariationReport {
                ply: v.line.first_ply,
                plies: v.line.plies.len(),
                verdict: verdict_json(&v.line.verdict),
                result: result_json(&v.line.result),
                diagnostics: diags(&v.line),
            })
            .collect(),
        opening: crate::opening::classify(game),
    }
}
