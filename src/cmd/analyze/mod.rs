//! `kifu analyze`: search every position of every game's main line with a
//! USI engine, and write the scores into the records.
//!
//! Three steps: the games are read and replayed once to list their
//! positions (each distinct position once, those in the cache left out);
//! K engines search that one queue; then the games are read again and
//! written as `kifu convert` writes them, each move carrying the
//! evaluation of the position it left.

mod cache;
mod engine;
mod fill;
pub(super) mod line;
mod page;
mod pool;
mod usi;

use super::{Item, drive, read_options, signal, sources};
use crate::{ConvertArgs, InputArgs, JudgeArgs, ToFormat};
use anyhow::{Context, bail};
use cache::Cache;
use clap::Args;
use fill::Fill;
use kifu::rules::position::Position;
use std::collections::HashSet;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// `kifu analyze` options.
#[derive(Args, Debug)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    input: InputArgs,
    /// The USI engine to run (a path, or a name looked up on PATH).
    #[arg(long, value_name = "CMD")]
    engine: String,
    /// An argument for the engine (repeat for several).
    #[arg(long = "engine-arg", value_name = "ARG", allow_hyphen_values = true)]
    engine_args: Vec<String>,
    /// Search each position this many nodes (the default: 100000).
    #[arg(long, conflicts_with_all = ["movetime", "depth"])]
    nodes: Option<u64>,
    /// Search each position this many milliseconds.
    #[arg(long, value_name = "MS", conflicts_with = "depth")]
    movetime: Option<u64>,
    /// Search each position to this depth.
    #[arg(long)]
    depth: Option<u32>,
    /// An engine option, `setoption name NAME value VALUE` (repeat for several):
    /// Hash, Threads, MultiPV, the eval file…
    #[arg(long = "option", value_name = "NAME=VALUE")]
    options: Vec<String>,
    /// Engine processes searching at once, sharing one queue of positions.
    #[arg(long, default_value = "1", value_name = "K")]
    engines: usize,
    /// Seconds an engine may take to start, or to answer beyond the
    /// search's own time; past it, it is restarted.
    #[arg(long, default_value = "30", value_name = "SECS")]
    timeout: f64,
    /// Restarts allowed per engine process after a crash, a timeout or
    /// output that is not USI.
    #[arg(long, default_value = "3", value_name = "N")]
    restarts: usize,
    /// Keep the answers in this JSON Lines file, appended as they arrive:
    /// a run started again with it searches only what is not in it.
    #[arg(long, value_name = "FILE")]
    cache: Option<PathBuf>,
    /// Also search the positions of every variation, and write their
    /// evaluations into the variations' moves.
    #[arg(long)]
    variations: bool,
    /// Replace the evaluations the records already carry (by default a
    /// move with one keeps it, and its position is not searched).
    #[arg(long)]
    overwrite: bool,
    #[command(flatten)]
    judge: JudgeArgs,
    /// Also write an HTML report of the analysed games (an evaluation graph
    /// per game, a card per 悪手 and 大悪手 with the board and the engine's
    /// line) to this file.
    #[arg(long, value_name = "FILE.html")]
    report: Option<PathBuf>,
    /// The output format (default: the analysis JSON Lines).
    #[arg(long, value_parser = crate::to_format_names(), ignore_case = true)]
    to: Option<ToFormat>,
    /// Where the results go, as `kifu convert` writes them.
    #[command(flatten)]
    out: crate::OutputArgs,
    /// Do not print the summaries or a progress bar (faults are still reported).
    #[arg(short, long)]
    quiet: bool,
}

impl AnalyzeArgs {
    /// The `kifu convert` that writes the results.
    fn convert_args(&self) -> ConvertArgs {
        super::convert::plain_args(
            self.input.clone(),
            self.to.unwrap_or(ToFormat::Json),
            self.out.clone(),
            self.quiet,
        )
    }

    fn limit(&self) -> usi::Limit {
        match (self.nodes, self.movetime, self.depth) {
            (_, Some(ms), _) => usi::Limit::Movetime(ms),
            (_, _, Some(d)) => usi::Limit::Depth(d),
            (n, _, _) => usi::Limit::Nodes(n.unwrap_or(100_000)),
        }
    }

    fn spec(&self) -> anyhow::Result<engine::Spec> {
        let mut options = Vec::new();
        for o in &self.options {
            let Some((name, value)) = o.split_once('=') else {
                bail!("--option {o:?}: write NAME=VALUE");
            };
            options.push((name.trim().to_string(), value.trim().to_string()));
        }
        if !(self.timeout > 0.0 && self.timeout.is_finite()) {
            bail!("--timeout must be a positive number of seconds");
        }
        let t = Duration::from_secs_f64(self.timeout);
        Ok(engine::Spec {
            program: self.engine.clone(),
            args: self.engine_args.clone(),
            options,
            start_timeout: t,
            search_timeout: t,
        })
    }
}

/// The engine's file as the system finds it (a name looked up on PATH, a
/// path made absolute, links followed), so that one engine named two ways
/// shares its cache; the name as given when it cannot be found.
fn engine_file(program: &str) -> String {
    let given = std::path::Path::new(program);
    let found = if given.components().count() > 1 {
        Some(given.to_path_buf())
    } else {
        std::env::var_os("PATH").and_then(|p| {
            std::env::split_paths(&p)
                .map(|d| d.join(program))
                .find(|c| c.is_file())
        })
    };
    found
        .and_then(|f| std::fs::canonicalize(f).ok())
        .map_or_else(|| program.to_string(), |f| f.display().to_string())
}

/// What identifies a search in the cache: the engine, the limit and the options.
fn search_text(spec: &engine::Spec, limit: usi::Limit) -> String {
    let mut s = engine_file(&spec.program);
    for a in &spec.args {
        s.push(' ');
        s.push_str(a);
    }
    s.push_str("; ");
    s.push_str(&limit.go());
    for (n, v) in &spec.options {
        s.push_str(&format!("; {n}={v}"));
    }
    s
}

/// Analyse every input; 0 when every position was searched and every
/// output written, 2 otherwise.
pub fn run(a: &AnalyzeArgs) -> anyhow::Result<u8> {
    if let Some(v) = &a.input.variant {
        bail!("--variant {v}: kifu analyze searches shogi records only");
    }
    let start = Instant::now();
    let spec = a.spec()?;
    let limit = a.limit();
    let thresholds = a.judge.thresholds()?;
    let cache = Cache::new(search_text(&spec, limit), a.cache.as_deref())?;
    if cache.unreadable_lines > 0 {
        eprintln!(
            "kifu: analyze: note: {} line(s) of the cache could not be read (cut short?) and were left out",
            cache.unreadable_lines
        );
    }
    signal::install();
    let (positions, from_cache) = positions(a, &cache)?;
    let settings = pool::Settings {
        spec: &spec,
        limit,
        engines: a.engines.max(1),
        restarts: a.restarts,
        tries: 2,
        progress: !a.quiet,
    };
    let engine_start = Instant::now();
    let outcome = pool::run(positions, &cache, &settings);
    let engine_s = engine_start.elapsed().as_secs_f64();
    if !a.quiet || outcome.failed > 0 {
        eprintln!(
            "kifu: analyze: {} positions analysed, {from_cache} from cache, {} not analysed; {} engine faults; {engine_s:.2} s in the engines ({:.1} positions/s)",
            outcome.analysed,
            outcome.failed,
            outcome.faults,
            outcome.analysed as f64 / engine_s.max(1e-9),
        );
    }
    if outcome.interrupted {
        let kept = a.cache.as_ref().map_or(String::new(), |c| {
            format!("; the answers so far are in {}", c.display())
        });
        eprintln!("kifu: analyze: interrupted: no output written{kept}");
        return Ok(2);
    }
    let fill = Fill {
        cache: &cache,
        overwrite: a.overwrite,
        thresholds,
        search: limit.go(),
        pretty: a.out.pretty,
        to: a.to.unwrap_or(ToFormat::Json),
        variations: a.variations,
    };
    let code = super::convert::run_with(&a.convert_args(), &fill, &|_, _| true)?;
    if let Some(path) = &a.report {
        page::write(&a.input, &fill, &thresholds, path)?;
    }
    if !a.quiet {
        eprintln!(
            "kifu: analyze: {:.2} s in all, {:.2} s of it outside the engines",
            start.elapsed().as_secs_f64(),
            (start.elapsed().as_secs_f64() - engine_s).max(0.0)
        );
    }
    Ok(if outcome.failed > 0 { 2 } else { code })
}

/// The distinct positions to search, and how many the cache already
/// answers. Games that cannot be read are reported when they are written.
fn positions(a: &AnalyzeArgs, cache: &Cache) -> anyhow::Result<(Vec<pool::Job>, usize)> {
    let (read_opts, replay_opts) = read_options(&a.input)?;
    let (srcs, _) = sources(&a.input.paths_or_cwd());
    let mut seen = HashSet::new();
    let mut jobs = Vec::new();
    let mut from_cache = 0;
    drive(
        &srcs,
        a.input.jobs,
        &read_opts,
        |name, _meta, item| game_positions(name, item, &replay_opts, a),
        |_src, ev| {
            if let super::Event::Item(list) = ev {
                for pos in list {
                    let key = line::key(&pos);
                    if !seen.insert(key.clone()) {
                        continue;
                    }
                    if cache.get(&key).is_some() {
                        from_cache += 1;
                    } else {
                        jobs.push(pool::Job { key, pos });
                    }
                }
            }
            Ok(())
        },
    )
    .context("cannot list the positions")?;
    Ok((jobs, from_cache))
}

/// The positions of one game's main line (and, with `--variations`, of
/// every variation) to search: the start and the position after each move,
/// but not one the record already evaluates (unless `--overwrite`) nor one
/// without a legal move (the game is over).
fn game_positions(
    name: &str,
    item: Item,
    replay_opts: &kifu::ReplayOptions,
    a: &AnalyzeArgs,
) -> Vec<Position> {
    let Item::Game {
        record: Ok(record), ..
    } = item
    else {
        if let Some(Ok(v)) = super::variant::sniff_file(std::path::Path::new(name)) {
            eprintln!(
                "kifu: analyze: {name}: a {} record: kifu analyze searches shogi records only; not analysed",
                v.name()
            );
        }
        return Vec::new();
    };
    let Ok(game) = kifu::replay(record, replay_opts) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let wanted = |p: &Position, entry: Option<&kifu::record::MoveEntry>| {
        let evaluated = entry.is_some_and(|e| e.eval().is_some() || e.gui_eval().is_some());
        p.has_legal_move() && (a.overwrite || !evaluated)
    };
    for id in fill::lines(&game, a.variations) {
        let entries = match id {
            None => Some(&game.record.main),
            Some(i) => game.variation_line(i),
        };
        let moves = entries.map_or(&[][..], |l| &l.moves[..]);
        let mut positions = fill::line_positions(&game, id).into_iter();
        // A variation's start is a position of its parent line, listed there.
        if let Some(start) = positions.next()
            && id.is_none()
            && wanted(&start, None)
        {
            out.push(start);
        }
        for (i, pos) in positions.enumerate() {
            if wanted(&pos, moves.get(i)) {
                out.push(pos);
            }
        }
    }
    out
}
