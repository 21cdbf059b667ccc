//! `kifu convert`: read, replay, and write every game in another format.

pub(super) mod item;
pub use item::Amend;
pub(super) mod names;
mod variant;
mod writer;

use super::output::{Existing, Outputs};
use super::summary::plural;
use super::{Source, drive, is_broken_pipe, read_options, signal, sources};
use crate::{ConvertArgs, ToFormat};
use anyhow::bail;
use names::Plan;
use std::time::Instant;
use writer::Writer;

/// Formats of one line (or object, or fixed-size record) per game or
/// position: the games of many inputs make one stream.
fn line_format(to: ToFormat) -> bool {
    matches!(
        to,
        ToFormat::Usi | ToFormat::Sfen | ToFormat::Json | ToFormat::Hcpe | ToFormat::Psv
    )
}

/// Convert every input; 0 when every input was converted (fouls are data),
/// 2 when something could not be read or written.
pub fn run(a: &ConvertArgs) -> anyhow::Result<u8> {
    if let Some(v) = super::variant::requested_or_sniffed(&a.input)? {
        return variant::convert(a, v);
    }
    run_with(a, &(), &|_, _| true)
}

/// Which games a conversion writes: given the input's name and the
/// replayed game, whether to write it (`kifu select` and `kifu dedup
/// --unique` convert only some).
pub type Keep<'k> = &'k (dyn Fn(&str, &kifu::Game) -> bool + Sync);

/// Convert the games of the inputs that `keep` says to write, with every
/// output rule of `kifu convert` (names, clashes, atomic writes, summary).
pub fn run_kept(a: &ConvertArgs, keep: Keep) -> anyhow::Result<u8> {
    run_with(a, &(), keep)
}

/// [`run_kept`], with `amend` changing each replayed game before it is
/// written (`kifu analyze` puts the engine's evaluations in).
pub fn run_with(a: &ConvertArgs, amend: &dyn Amend, keep: Keep) -> anyhow::Result<u8> {
    let start = Instant::now();
    let (read_opts, replay_opts) = read_options(&a.input)?;
    let paths = a.input.paths_or_cwd();
    let (srcs, walk_errors) = sources(&paths);
    let srcs = not_under_out_dir(a, srcs);
    let plan = plan(a, &paths, &srcs)?;
    for e in &walk_errors {
        eprintln!("kifu: {e}");
    }
    if !a.quiet {
        let on_terminal = std::io::IsTerminal::is_terminal(&std::io::stdout());
        for w in option_warnings(a, &plan, on_terminal) {
            eprintln!("kifu: warning: {w}");
        }
    }
    signal::install();
    let existing = if a.out.force {
        Existing::Replace
    } else if a.out.skip_existing {
        Existing::Skip
    } else {
        Existing::Refuse
    };
    let inputs = srcs
        .iter()
        .filter_map(|s| Some((s.path.as_deref()?, s.name())));
    let mut outputs = Outputs::new(existing, inputs);
    if matches!(plan, Plan::Dir(_)) && !a.out.keep_extension {
        outputs = outputs.with_clash_hint(format!(
            " (--keep-extension keeps each input's extension in its output's name: x.kif.{})",
            a.to.extension()
        ));
    }
    let mut w = Writer::new(a, plan, outputs, srcs.len());
    w.sum.unreadable += walk_errors.len();
    let mut stopped = false;
    let ran = w.open_run_stream().and_then(|go| {
        if !go {
            return Ok(());
        }
        drive(
            &srcs,
            a.input.jobs,
            &read_opts,
            |name, meta, i| item::convert_item(name, meta, i, a, &replay_opts, amend, keep),
            |src, ev| w.event(src, ev),
        )?;
        w.finish()
    });
    if let Err(e) = ran {
        if is_broken_pipe(&e) {
            return Err(e);
        }
        w.abandon();
        eprintln!("kifu: error: {}", super::error_text(&e));
        stopped = true;
    }
    w.finish_progress();
    print_summary(a, &mut w, start)?;
    let failed = w.sum.unreadable > 0 || w.sum.not_written.unwrap_or(0) > 0;
    Ok(if stopped || failed { 2 } else { 0 })
}

/// The options of a plain conversion of `paths` to `to`, read as `input`
/// says, for the commands that write with `convert`'s writer.
pub fn args_for(
    input: &crate::InputArgs,
    paths: Vec<std::path::PathBuf>,
    to: ToFormat,
    output: Option<std::path::PathBuf>,
    out_dir: Option<std::path::PathBuf>,
    quiet: bool,
) -> ConvertArgs {
    let input = crate::InputArgs {
        paths,
        ..input.clone()
    };
    plain_args(input, to, crate::OutputArgs::to(output, out_dir), quiet)
}

/// The options of a plain conversion of `input` to `to`, written where
/// `out` says: no option of `convert`'s own.
pub fn plain_args(
    input: crate::InputArgs,
    to: ToFormat,
    out: crate::OutputArgs,
    quiet: bool,
) -> ConvertArgs {
    ConvertArgs {
        input,
        to,
        out,
        quiet,
        verbose: false,
        summary: None,
        split_variations: false,
        lenient: false,
        classify: false,
        overwrite_opening: false,
    }
}

/// What the command line asks for that the run will not do as asked: an
/// option the target ignores, bytes a terminal cannot show.
fn option_warnings(a: &ConvertArgs, plan: &Plan, stdout_is_terminal: bool) -> Vec<String> {
    let mut w = Vec::new();
    let to = a.to.extension();
    if a.split_variations && a.to != ToFormat::Csa {
        let instead = if matches!(
            a.to,
            ToFormat::Usi | ToFormat::Sfen | ToFormat::Hcpe | ToFormat::Psv
        ) {
            "writes the main line of each game only (its variations are counted as dropped)"
        } else {
            "keeps the variations as variations"
        };
        w.push(format!(
            "--split-variations applies to --to csa only: --to {to} {instead}"
        ));
    }
    let sjis = matches!(a.to, ToFormat::Kif | ToFormat::Ki2);
    if sjis && stdout_is_terminal && matches!(plan, Plan::Stdout) {
        w.push(format!(
            "--to {to} writes Shift_JIS, which a terminal shows garbled: --to {to}u writes the same record in UTF-8"
        ));
    }
    w
}

/// Where the outputs go, or why the command line cannot say.
fn plan(a: &ConvertArgs, paths: &[std::path::PathBuf], srcs: &[Source]) -> anyhow::Result<Plan> {
    let many = srcs.len() > 1 || paths.iter().any(|p| p.is_dir());
    Ok(match (&a.out.output, &a.out.out_dir) {
        (Some(_), Some(_)) => bail!("use either -o/--output or --out-dir, not both"),
        (_, Some(dir)) => Plan::Dir(dir.clone()),
        _ if many && !line_format(a.to) => {
            bail!("several inputs need --out-dir DIR (one output file per input)")
        }
        // `-o -` is standard output, as `-` is standard input.
        (Some(file), None) if file.as_os_str() == "-" => Plan::Stdout,
        (Some(file), None) if super::output::is_stream(file) => Plan::Stream(file.clone()),
        (Some(file), None) => Plan::File(file.clone()),
        (None, None) => Plan::Stdout,
    })
}

/// The inputs, without those under `--out-dir`: an output directory inside
/// the input tree holds earlier outputs, and reading them as inputs would
/// write out/out/…, one level deeper on every run.
fn not_under_out_dir(a: &ConvertArgs, mut srcs: Vec<Source>) -> Vec<Source> {
    let Some(dir) = a.out.out_dir.as_ref().and_then(|d| d.canonicalize().ok()) else {
        return srcs;
    };
    let before = srcs.len();
    srcs.retain(|s| {
        s.path
            .as_ref()
            .and_then(|p| p.canonicalize().ok())
            .is_none_or(|p| !p.starts_with(&dir))
    });
    let left = before - srcs.len();
    if left > 0 {
        eprintln!(
            "kifu: note: {left} {} under the output directory {} not read as inputs",
            plural(left, "file", "files"),
            dir.display()
        );
    }
    srcs
}

fn print_summary(a: &ConvertArgs, w: &mut Writer, start: Instant) -> anyhow::Result<()> {
    w.sum.warnings = w.log.total;
    w.sum.finish(start);
    let s = &w.sum;
    if !a.quiet {
        eprint!("{}", w.log.summary());
        let n =
            |count: usize, one: &str, many: &str| format!("{count} {}", plural(count, one, many));
        eprintln!(
            "{}, {} ({}): {} legal, {} with fouls (by rule: {}); {} unreadable; {} not written; {} skipped; {}; {:.2} s, {:.0} games/s",
            n(s.files, "file", "files"),
            n(s.games, "game", "games"),
            n(s.plies, "ply", "plies"),
            s.legal,
            s.fouls,
            s.rules_text(),
            s.unreadable,
            s.not_written.unwrap_or(0),
            s.skipped.unwrap_or(0),
            n(s.warnings, "warning", "warnings"),
            s.elapsed_s,
            s.games_per_s,
        );
    }
    if let Some(path) = &a.summary {
        s.write_to(path)?;
    }
    Ok(())
}
