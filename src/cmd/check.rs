//! `kifu check`: replay every game, print every foul and finding.

pub(crate) mod variant;

use super::color::{Stream, Style, paint};
use super::progress::Progress;
use super::summary::{Strict, Summary, count_fouls};
use super::{Event, Item, Meta, Source, drive, error_line, read_options, signal, sources};
use crate::CheckArgs;
use anyhow::Context;
use kifu::notation::{ja_move, notation_text};
use kifu::replay::{Game, LineResult, Verdict, replay};
use kifu::report::game_report;
use kifu::variant::Variant;
use kifu::{Error, Format};
use std::collections::BTreeMap;
use std::io::Write;
use std::time::Instant;

/// What one item of an input gave: its text or JSON, and counts.
#[derive(Default)]
struct Outcome {
    out: String,
    err: String,
    games: usize,
    plies: usize,
    legal: usize,
    fouls: usize,
    fouls_by_rule: BTreeMap<&'static str, usize>,
    unreadable: usize,
    diagnostics: usize,
    /// What `--strict` fails on (counted with or without it).
    strict: Strict,
    /// Cards for `--report` (empty without it).
    report: super::html_report::Part,
}

/// Replay every game of the inputs, print each finding and the summary;
/// the exit code says whether all was readable and legal. Variant records
/// (`--variant`) take the same path from their outcomes on: the same
/// summary, `--summary` file and `--report` page.
pub fn run(a: &CheckArgs) -> anyhow::Result<u8> {
    let variant = super::variant::requested(&a.input)?;
    let start = Instant::now();
    let (read_opts, replay_opts) = read_options(&a.input)?;
    let thresholds = a.judge.thresholds()?;
    let (srcs, walk_errors) = sources(&a.input.paths_or_cwd());
    let mut run = Run::new(a, srcs.len(), &walk_errors);
    // Ctrl-C stops the run between games with the summary of what was
    // checked, and exit code 2, as convert does.
    signal::install();
    let checked = match variant {
        Some(v) => check_variants(&srcs, v, a, &mut run),
        None => drive(
            &srcs,
            a.input.jobs,
            &read_opts,
            |name, meta, item| check_item(name, meta, item, a, &replay_opts, &thresholds),
            |src, ev: Event<Outcome>| {
                signal::check()?;
                match ev {
                    Event::Begin => Ok(()),
                    Event::End => {
                        run.file_done();
                        Ok(())
                    }
                    Event::Item(o) => run.take(src, o),
                }
            },
        ),
    };
    let interrupted = match checked {
        Err(e) if signal::is_interrupt(&e) => {
            run.progress.finish();
            eprintln!("kifu: error: {e}");
            true
        }
        Err(e) => return Err(e),
        Ok(()) => false,
    };
    let code = run.finish(a, start)?;
    Ok(if interrupted { 2 } else { code })
}

/// Every variant input checked on the worker threads, a batch at a time,
/// and taken in input order.
fn check_variants(srcs: &[Source], v: Variant, a: &CheckArgs, run: &mut Run) -> anyhow::Result<()> {
    use rayon::prelude::*;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(a.input.jobs.unwrap_or(0))
        .build()
        .context("cannot start worker threads")?;
    for batch in srcs.chunks(64) {
        let outcomes: Vec<Outcome> = pool.install(|| {
            batch
                .par_iter()
                .map(|src| {
                    let name = src.name();
                    let path = src.path.as_deref();
                    let t = variant::check_input(&name, path, Some(v), a.json, a.quiet);
                    variant_outcome(t, &name, a)
                })
                .collect()
        });
        for (src, o) in batch.iter().zip(outcomes) {
            signal::check()?;
            run.take(src, o)?;
            run.file_done();
        }
    }
    Ok(())
}

/// A variant input's outcome; the report lists its findings without cards.
fn variant_outcome(t: variant::Tally, name: &str, a: &CheckArgs) -> Outcome {
    let (fouls, diagnostics) = (t.fouls, t.diagnostics);
    let mut o = Outcome::from(t);
    if a.strict && a.json {
        o.out = mark_strict_lines(&o.out);
    }
    if a.report.is_some() {
        o.report = super::html_report::not_drawn(name, fouls, diagnostics);
    }
    o
}

/// What a check run gathers as the outcomes come in, in input order.
struct Run {
    sum: Summary,
    report: Option<super::html_report::Report>,
    // Not locked: the output is written from a worker thread (see `drive`).
    out: std::io::BufWriter<std::io::Stdout>,
    progress: Progress,
    files_done: usize,
}

impl Run {
    fn new(a: &CheckArgs, files: usize, walk_errors: &[String]) -> Run {
        let mut report = a
            .report
            .as_ref()
            .map(|_| super::html_report::Report::default());
        for e in walk_errors {
            eprintln!("kifu: {e}");
            if let Some(r) = &mut report {
                r.walk_error(e);
            }
        }
        Run {
            sum: Summary {
                files,
                unreadable: walk_errors.len(),
                strict: a.strict.then(Strict::default),
                ..Summary::default()
            },
            report,
            out: std::io::BufWriter::new(std::io::stdout()),
            progress: Progress::new(files, !a.quiet),
            files_done: 0,
        }
    }

    fn file_done(&mut self) {
        self.files_done += 1;
        self.progress
            .update(self.files_done, self.sum.games, self.sum.fouls);
    }

    /// Print one item's findings and count it.
    fn take(&mut self, src: &Source, mut o: Outcome) -> anyhow::Result<()> {
        if let Some(r) = &mut self.report {
            r.add(&src.name(), std::mem::take(&mut o.report));
        }
        self.out.write_all(o.out.as_bytes())?;
        if !o.err.is_empty() {
            self.out.flush()?;
            self.progress.eprint(&o.err);
        }
        tally(&mut self.sum, o);
        // Large streamed files report progress per batch, not only per file.
        if self.sum.games.is_multiple_of(1024) {
            self.progress
                .update(self.files_done, self.sum.games, self.sum.fouls);
        }
        Ok(())
    }

    /// The summary, on stdout (text) or stderr (`--json`), and the
    /// `--summary` and `--report` files.
    fn finish(mut self, a: &CheckArgs, start: Instant) -> anyhow::Result<u8> {
        self.progress.finish();
        self.sum.finish(start);
        if !a.json && !a.quiet {
            print_summary(&mut self.out, &self.sum)?;
            if let Some(st) = &self.sum.strict {
                print_strict(&mut self.out, st)?;
            }
        }
        self.out.flush()?;
        if a.json {
            eprintln!("{}", self.sum.to_json());
        }
        if let Some(path) = &a.summary {
            self.sum.write_to(path)?;
        }
        if let (Some(r), Some(path)) = (&self.report, &a.report) {
            r.write(path, &self.sum)?;
        }
        let strict_failed = self.sum.strict.as_ref().map_or(0, |s| s.failed);
        Ok(exit_code(
            self.sum.unreadable,
            self.sum.fouls + strict_failed,
        ))
    }
}

/// Add one item's counts to the run's.
fn tally(sum: &mut Summary, o: Outcome) {
    sum.games += o.games;
    sum.plies += o.plies;
    sum.legal += o.legal;
    sum.fouls += o.fouls;
    sum.unreadable += o.unreadable;
    sum.warnings += o.diagnostics;
    if let Some(st) = &mut sum.strict {
        st.add(&o.strict);
    }
    for (k, v) in o.fouls_by_rule {
        *sum.fouls_by_rule.entry(k).or_default() += v;
    }
}

/// The two closing lines of a text run: the counts, then the plies, the
/// fouls by rule and the speed.
fn print_summary(out: &mut impl Write, sum: &Summary) -> std::io::Result<()> {
    let files = sum.files;
    writeln!(
        out,
        "{files} file{}, {} game{}: {} legal, {} with fouls; {} unreadable input{}; {} diagnostic{}",
        plural(files),
        sum.games,
        plural(sum.games),
        sum.legal,
        sum.fouls,
        sum.unreadable,
        plural(sum.unreadable),
        sum.warnings,
        plural(sum.warnings),
    )?;
    writeln!(
        out,
        "{} {}; fouls by rule: {}; {:.2} s, {:.0} games/s, {:.0} plies/s",
        sum.plies,
        if sum.plies == 1 { "ply" } else { "plies" },
        sum.rules_text(),
        sum.elapsed_s,
        sum.games_per_s,
        sum.plies_per_s,
    )
}

/// The third closing line of a `--strict` text run: what failed it besides
/// fouls.
fn print_strict(out: &mut impl Write, st: &Strict) -> std::io::Result<()> {
    writeln!(
        out,
        "strict: {} failing (games with a diagnostic, and input warnings): {}",
        st.failed,
        st.codes_text()
    )
}

/// `check`'s exit code: 2 when some input could not be read, else 1 when
/// some game has a foul (or, with `--strict`, a diagnostic), else 0.
pub(super) fn exit_code(unreadable: usize, failures: usize) -> u8 {
    if unreadable > 0 {
        2
    } else if failures > 0 {
        1
    } else {
        0
    }
}

impl From<variant::Tally> for Outcome {
    fn from(t: variant::Tally) -> Outcome {
        Outcome {
            out: t.out,
            err: t.err,
            games: t.games,
            plies: t.plies,
            legal: t.legal,
            fouls: t.fouls,
            fouls_by_rule: t.fouls_by_rule,
            unreadable: t.unreadable,
            diagnostics: t.diagnostics,
            strict: t.strict,
            report: Default::default(),
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

fn check_item(
    name: &str,
    meta: &Meta,
    item: Item,
    a: &CheckArgs,
    replay_opts: &kifu::ReplayOptions,
    thresholds: &kifu::judge::Thresholds,
) -> Outcome {
    let mut o = Outcome::default();
    match item {
        Item::Warning(w) => {
            o.err = format!("{name}: warning: {w}\n");
            // Bytes read only by replacing or re-guessing them: strict fails.
            o.strict.failed = 1;
            o.strict.by_code.insert(INPUT_WARNING, 1);
        }
        Item::Unreadable(e) => {
            if let Some(t) = variant::fallback(name, a.json, a.quiet) {
                return variant_outcome(t, name, a);
            }
            o.unreadable = 1;
            if a.report.is_some() {
                o.report = super::html_report::unreadable(name, &e, None);
            }
            match e.partial() {
                Some(p) => check_partial(&mut o, name, &e, p, None, a, replay_opts),
                None => report_error(&mut o, name, &e, a.json, None),
            }
        }
        Item::Game {
            index,
            record: Err(e),
        } => {
            o.unreadable = 1;
            if a.report.is_some() {
                o.report = super::html_report::unreadable(name, &e, Some(index));
            }
            match e.partial() {
                Some(p) => check_partial(&mut o, name, &e, p, Some(index), a, replay_opts),
                None => report_error(&mut o, name, &e, a.json, Some(index)),
            }
        }
        Item::Game {
            index,
            record: Ok(record),
        } => match replay(record, replay_opts) {
            Ok(game) => {
                o.games += 1;
                o.plies += game.main.plies.len();
                let foul = !game.main.verdict.is_legal()
                    || game.variations.iter().any(|v| !v.line.verdict.is_legal());
                if foul {
                    o.fouls += 1;
                } else {
                    o.legal += 1;
                }
                count_fouls(&game, &mut o.fouls_by_rule);
                if a.report.is_some() {
                    o.report = super::html_report::game_part(name, &game, thresholds);
                }
                o.diagnostics += game.main.diagnostics.len()
                    + game
                        .variations
                        .iter()
                        .map(|v| v.line.diagnostics.len())
                        .sum::<usize>();
                count_strict(&game, &mut o.strict);
                if a.json {
                    let r = game_report(name, meta.format, &game);
                    let line = if a.strict {
                        strict_json(&r).to_string()
                    } else {
                        // Straight to text: the common case of a long run.
                        serde_json::to_string(&r).unwrap_or_default()
                    };
                    o.out.push_str(&line);
                    o.out.push('\n');
                } else {
                    text_report(&mut o.out, name, meta.format, &game, a.quiet);
                }
            }
            Err(e) => {
                o.unreadable += 1;
                report_error(&mut o, name, &e, a.json, Some(index));
                if a.report.is_some() {
                    o.report = super::html_report::unreadable(name, &e, Some(index));
                }
            }
        },
    }
    o
}

/// A game cut short by a syntax error: the error as usual, then the replay
/// of the moves before it, saying where it stopped (JSON: the error's
/// object holds the game's report as `partial`). `game_index` is its place in a
/// multi-game file, named in the error as for any game of one.
fn check_partial(
    o: &mut Outcome,
    name: &str,
    e: &Error,
    p: &kifu::Partial,
    game_index: Option<usize>,
    a: &CheckArgs,
    replay_opts: &kifu::ReplayOptions,
) {
    let index = game_index.unwrap_or(p.record.index);
    let Ok(game) = replay(p.record.clone(), replay_opts) else {
        return report_error(o, name, e, a.json, Some(index));
    };
    o.games += 1;
    o.plies += game.main.plies.len();
    let foul =
        !game.main.verdict.is_legal() || game.variations.iter().any(|v| !v.line.verdict.is_legal());
    if foul {
        o.fouls += 1;
    } else {
        o.legal += 1;
    }
    count_fouls(&game, &mut o.fouls_by_rule);
    count_strict(&game, &mut o.strict);
    let line = e.position().map_or(0, |s| s.line);
    if a.json {
        let mut v = error_json(name, e, Some(index));
        let report = game_report(name, p.format, &game);
        let game = if a.strict {
            strict_json(&report)
        } else {
            serde_json::to_value(&report).unwrap_or_default()
        };
        v["partial"] = serde_json::json!({
            "stopped_at_line": line,
            "lines_left": p.lines_left,
            "game": game,
        });
        o.out.push_str(&v.to_string());
        o.out.push('\n');
        return;
    }
    report_error(o, name, e, false, game_index);
    let moves = game.record.main.moves.len();
    o.out.push_str(&format!(
        "{name}: partial: the {moves} move{} before line {line} replayed; {} line{} from there on not read\n",
        plural(moves),
        p.lines_left,
        plural(p.lines_left),
    ));
    text_report(&mut o.out, name, p.format, &game, false);
}

/// The pseudo-code `--strict` counts an input's warnings under (the bytes
/// were not valid in their encoding, or contradicted its declaration).
const INPUT_WARNING: &str = "input-warning";

/// Count a game for `--strict`: it fails if its main line or any variation
/// has a diagnostic; every diagnostic is counted by code.
fn count_strict(game: &Game, into: &mut Strict) {
    let mut any = false;
    for l in std::iter::once(&game.main).chain(game.variations.iter().map(|v| &v.line)) {
        for d in &l.diagnostics {
            any = true;
            *into.by_code.entry(d.code.code()).or_default() += 1;
        }
    }
    if any {
        into.failed += 1;
    }
}

/// A game's `--json --strict` object: its report with `strict_failures`,
/// the codes that fail it.
fn strict_json(r: &kifu::report::GameReport) -> serde_json::Value {
    let mut v = serde_json::to_value(r).unwrap_or_default();
    mark_strict(&mut v);
    v
}

/// Add `strict_failures` to a game's JSON object: the distinct codes of its
/// `diagnostics` and its variations' `diagnostics`, in order of first
/// appearance (empty when `--strict` passes the game). Objects without
/// `diagnostics` (an unreadable input's error) are left as they are.
fn mark_strict(v: &mut serde_json::Value) {
    let Some(obj) = v.as_object_mut() else {
        return;
    };
    let Some(own) = obj.get("diagnostics").and_then(|d| d.as_array()) else {
        return;
    };
    let variations = obj
        .get("variations")
        .and_then(|vs| vs.as_array())
        .into_iter()
        .flatten()
        .filter_map(|v| v.get("diagnostics")?.as_array());
    let mut codes: Vec<serde_json::Value> = Vec::new();
    for d in std::iter::once(own).chain(variations).flatten() {
        if let Some(c) = d.get("code").filter(|c| !codes.contains(c)) {
            codes.push(c.clone());
        }
    }
    obj.insert("strict_failures".into(), codes.into());
}

/// `mark_strict` on every line of a JSON Lines text (a variant input's).
fn mark_strict_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.lines() {
        match serde_json::from_str::<serde_json::Value>(line) {
            Ok(mut v) => {
                mark_strict(&mut v);
                out.push_str(&v.to_string());
            }
            Err(_) => out.push_str(line),
        }
        out.push('\n');
    }
    out
}

fn error_json(name: &str, e: &Error, index: Option<usize>) -> serde_json::Value {
    let pos = e.position();
    serde_json::json!({
        "source": name,
        "index": index,
        "error": {
            "message": e.to_string(),
            "line": pos.map(|p| p.line),
            "column": pos.map(|p| p.column),
        }
    })
}

fn report_error(o: &mut Outcome, name: &str, e: &Error, json: bool, index: Option<usize>) {
    if json {
        let v = error_json(name, e, index);
        o.out.push_str(&v.to_string());
        o.out.push('\n');
    } else {
        o.err.push_str(&error_line(name, e, index));
    }
}

fn text_report(out: &mut String, name: &str, format: Format, game: &Game, quiet: bool) {
    let _ = format;
    let label = |game: &Game| {
        if game.record.index > 0 || name == "-" {
            format!(" (game {})", game.record.index + 1)
        } else {
            String::new()
        }
    };
    let mut findings = String::new();
    line_findings(&mut findings, name, &game.main, "", game);
    for v in &game.variations {
        let tag = format!(" [variation at ply {}]", v.line.first_ply);
        line_findings(&mut findings, name, &v.line, &tag, game);
    }
    let foul =
        !game.main.verdict.is_legal() || game.variations.iter().any(|v| !v.line.verdict.is_legal());
    out.push_str(&findings);
    // A game with only warnings is still a legal game with a result.
    if !foul && (!quiet || !findings.is_empty()) {
        let r = &game.main.result;
        let n = game.main.plies.len();
        let result = match (r.winner, r.reason) {
            (None, kifu::Reason::NoResult) => "no result recorded".to_string(),
            (None, reason) => format!("no winner: {reason}"),
            (Some(c), reason) => format!("{} wins: {reason}", c.name()),
        };
        out.push_str(&format!(
            "{name}{}: {}: {n} {}, {result}\n",
            label(game),
            paint(Stream::Stdout, Style::Good, "ok"),
            if n == 1 { "ply" } else { "plies" },
        ));
    }
}

fn line_findings(out: &mut String, name: &str, line: &LineResult, tag: &str, game: &Game) {
    if let Verdict::Foul(f) = &line.verdict {
        // The move's own side and 同: for a perpetual check the move may be
        // the checked side's, and it is itself the last ply.
        let shown = match line.foul_move() {
            Some(m) => match m.piece {
                Some(piece) => format!(
                    "{} ({})",
                    ja_move(m.color, m.mv, piece, m.same),
                    m.mv.to_usi()
                ),
                None => m.mv.to_usi(),
            },
            None => game
                .record
                .main
                .moves
                .get((f.ply.saturating_sub(line.first_ply)) as usize)
                .map_or_else(|| "declaration".to_string(), |m| notation_text(&m.notation)),
        };
        let detail = if f.detail.is_empty() {
            String::new()
        } else {
            format!(": {}", f.detail)
        };
        out.push_str(&format!(
            "{name}:{}:{}:{tag} ply {} {shown}: {}{detail}; {} loses by foul\n",
            f.span.line,
            f.span.column,
            f.ply,
            paint(Stream::Stdout, Style::Bad, f.rule.code()),
            f.loser.name()
        ));
    }
    for d in &line.diagnostics {
        let pos = d
            .span
            .map_or(String::new(), |s| format!("{}:{}:", s.line, s.column));
        let ply = d.ply.map_or(String::new(), |p| format!(" ply {p}:"));
        let warning = paint(Stream::Stdout, Style::Warn, &format!("warning[{}]", d.code));
        out.push_str(&format!(
            "{name}:{pos}{tag} {warning}:{ply} {}\n",
            d.message
        ));
    }
}
