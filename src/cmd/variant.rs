//! The commands on records of the shogi family's variants (`--variant`,
//! or a variant sniffed from the record): check, convert, stats and perft
//! on the table-driven engine.

use super::{relative_to, sources};
use crate::{ConvertArgs, InputArgs, StatsArgs, ToFormat};
use anyhow::{Context, bail};
use kifu::emit::Warning;
use kifu::emit::variant::{kif as write_kif, kif_writable, usi as write_usi};
use kifu::variant::read::ReadError;
use kifu::variant::{Board, Variant, VariantGame};
use kifu::{Format, Reason};
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

pub fn variant_named(name: &str) -> anyhow::Result<Variant> {
    Variant::from_name(name).with_context(|| {
        format!("unknown variant {name:?}: use shoshogi, torishogi, minishogi, judkins, micro or chushogi")
    })
}

/// The variant `--variant` names, if any.
pub fn requested(a: &InputArgs) -> anyhow::Result<Option<Variant>> {
    a.variant.as_deref().map(variant_named).transpose()
}

/// The variant named, or else the one a single input file sniffs as (a
/// directory of variant records needs `--variant`).
pub fn requested_or_sniffed(a: &InputArgs) -> anyhow::Result<Option<Variant>> {
    if let Some(v) = requested(a)? {
        return Ok(Some(v));
    }
    let [path] = &a.paths[..] else {
        return Ok(None);
    };
    match sniff_file(path) {
        Some(Ok(v)) => Ok(Some(v)),
        Some(Err(why)) => bail!("{}: {why}", path.display()),
        None => Ok(None),
    }
}

/// The variant the start of a file shows, if any: only its first 64 KiB
/// are read, so a large shogi file costs next to nothing here.
pub fn sniff_file(path: &Path) -> Option<Result<Variant, String>> {
    let mut head = Vec::with_capacity(1 << 16);
    std::fs::File::open(path)
        .ok()?
        .take(1 << 16)
        .read_to_end(&mut head)
        .ok()?;
    let text = kifu::decode::decode(&head, None).ok()?.text;
    kifu::variant::read::sniff(&text).map(|r| r.map(|(v, _)| v))
}

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
    pub strict: super::summary::Strict,
}

/// Read one input as `variant` (or the variant it names or sniffs as).
pub fn read(
    name: &str,
    path: Option<&Path>,
    variant: Option<Variant>,
) -> Result<(Format, Vec<VariantGame>), String> {
    let bytes = match path {
        Some(p) => std::fs::read(p).map_err(|e| format!("{name}: {e}"))?,
        None => {
            let mut b = Vec::new();
            std::io::stdin()
                .read_to_end(&mut b)
                .map_err(|e| format!("{name}: {e}"))?;
            b
        }
    };
    let text = kifu::decode::decode(&bytes, None)
        .map_err(|e| format!("{name}: {e}"))?
        .text;
    kifu::variant::read::read_text(&text, variant).map_err(|e| match e {
        ReadError::NotAVariant => {
            format!("{name}: not a record of a shogi variant (name one with --variant)")
        }
        ReadError::Unclear(why) => format!("{name}: {why} (name it with --variant)"),
        ReadError::Parse(p) => format!("{name}:{}:{}: {}", p.span.line, p.span.column, p.message),
        e => format!("{name}: {e}"),
    })
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

/// The text of one input converted to `to`, with the writers' warnings
/// by game (1-based), or why it cannot be.
fn convert_text(
    name: &str,
    format: Format,
    games: &[VariantGame],
    to: ToFormat,
) -> anyhow::Result<(String, Vec<(usize, Warning)>)> {
    let mut s = String::new();
    let mut warnings = Vec::new();
    for g in games {
        let mut written = |(text, ws): (String, Vec<Warning>)| {
            s.push_str(&text);
            warnings.extend(ws.into_iter().map(|w| (g.record.index + 1, w)));
        };
        match to {
            ToFormat::Usi => written(write_usi(g)),
            ToFormat::Sfen => written((sfen_lines(g), Vec::new())),
            ToFormat::Kif | ToFormat::Kifu if !kif_writable(g.end.variant()) => bail!(
                "{name}: {} has no KIF form in kifu; convert it to usi, sfen or json",
                g.end.variant()
            ),
            ToFormat::Kif | ToFormat::Kifu => written(write_kif(g)),
            ToFormat::Json => {
                s.push_str(&game_json(name, format, g).to_string());
                s.push('\n');
            }
            ToFormat::Csa
            | ToFormat::Ki2
            | ToFormat::Ki2u
            | ToFormat::Jkf
            | ToFormat::Hcpe
            | ToFormat::Psv => bail!(
                "{name}: {} has no {} form; convert a variant game to usi, sfen, kif, kifu or json",
                g.end.variant(),
                match to {
                    ToFormat::Csa => "CSA",
                    ToFormat::Jkf => "JKF",
                    ToFormat::Hcpe => "HCPE",
                    ToFormat::Psv => "PSV",
                    _ => "KI2",
                }
            ),
        }
    }
    Ok((s, warnings))
}

/// `--to sfen` lines: `SFEN<TAB>next move or -<TAB>result from the mover's side`.
fn sfen_lines(g: &VariantGame) -> String {
    let mut board = g.start.clone();
    let outcome = |c| match g.winner {
        Some(w) if w == c => "win",
        Some(_) => "loss",
        None if g.reason.is_draw() => "draw",
        None => "-",
    };
    let mut s = String::new();
    for p in &g.plies {
        s.push_str(&format!(
            "{}\t{}\t{}\n",
            board.to_sfen(),
            board.usi(p.mv),
            outcome(board.side())
        ));
        board.play_unchecked(p.mv);
    }
    s.push_str(&format!(
        "{}\t-\t{}\n",
        board.to_sfen(),
        outcome(board.side())
    ));
    s
}

/// The position after the first `upto` legal plies of `g` (all of them at most).
pub fn board_at(g: &VariantGame, upto: usize) -> Board {
    let mut board = g.start.clone();
    for p in g.plies.iter().take(upto) {
        board.play_unchecked(p.mv);
    }
    board
}

/// `kifu convert` on variant records.
pub fn convert(a: &ConvertArgs, variant: Variant) -> anyhow::Result<u8> {
    let (srcs, walk_errors) = sources(&a.input.paths);
    for e in &walk_errors {
        eprintln!("kifu: {e}");
    }
    if srcs.len() > 1 && a.out_dir.is_none() {
        bail!("several inputs need --out-dir DIR (one output file per input)");
    }
    let mut failed = !walk_errors.is_empty();
    let mut claimed: BTreeMap<PathBuf, String> = BTreeMap::new();
    for src in &srcs {
        let name = src.name();
        let (format, games) = match read(&name, src.path.as_deref(), Some(variant)) {
            Ok(g) => g,
            Err(e) => {
                eprintln!("kifu: {e}");
                failed = true;
                continue;
            }
        };
        let (text, warnings) = convert_text(&name, format, &games, a.to)?;
        if !a.quiet {
            for (n, w) in &warnings {
                eprintln!("kifu: {name}: warning[{}]: game {n}: {}", w.code, w.message);
            }
        }
        let bytes = match a.to {
            ToFormat::Kif => {
                let (bytes, warnings) = kifu::emit::sjis::encode_sjis(&text);
                for w in warnings {
                    eprintln!("kifu: {name}: warning[{}]: {}", w.code, w.message);
                }
                bytes
            }
            _ => text.into_bytes(),
        };
        let target = match (&a.output, &a.out_dir) {
            (Some(p), _) if p.as_os_str() == "-" => None,
            (Some(p), _) => Some(p.clone()),
            (None, Some(dir)) => {
                let rel = src.path.as_deref().map_or_else(
                    || PathBuf::from("stdin"),
                    |p| relative_to(p, src.root.as_deref()).to_path_buf(),
                );
                Some(dir.join(rel.with_extension(a.to.extension())))
            }
            (None, None) => None,
        };
        match target {
            // No output of a run replaces another of the same run.
            Some(p) => match claimed.get(&p) {
                Some(first) => {
                    eprintln!(
                        "kifu: {}: not written: output clash: {first} and {name} both convert to this file",
                        p.display()
                    );
                    failed = true;
                    continue;
                }
                None if a.skip_existing && std::fs::symlink_metadata(&p).is_ok() => {
                    claimed.insert(p, name.clone());
                    continue;
                }
                None => {
                    if let Err(e) = write_output(&p, &bytes, a.force) {
                        eprintln!("kifu: {e:#}");
                        failed = true;
                    }
                    claimed.insert(p, name.clone());
                }
            },
            None => std::io::stdout().lock().write_all(&bytes)?,
        }
        for g in games.iter().filter(|g| g.foul.is_some()) {
            if !a.quiet {
                eprintln!(
                    "kifu: {name}: warning: game {} has a foul; its legal moves are written, then the foul",
                    g.record.index + 1
                );
            }
            // The KIF and USI writers say what they leave out themselves.
            let kept = match a.to {
                ToFormat::Json => kifu::emit::variant::moves_usi(g).len(),
                ToFormat::Sfen => g.plies.len(),
                _ => continue,
            };
            let lost = g.record.main.moves.len().saturating_sub(kept);
            if lost > 0 {
                eprintln!(
                    "kifu: {name}: warning: game {}: {lost} move(s) at or after the foul have no place in this output and are not written",
                    g.record.index + 1
                );
            }
        }
    }
    Ok(if failed { 2 } else { 0 })
}

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

/// Write one variant game's output atomically, refusing to replace an
/// existing file unless `--force`.
fn write_output(path: &Path, bytes: &[u8], force: bool) -> anyhow::Result<()> {
    if !force && std::fs::symlink_metadata(path).is_ok() {
        anyhow::bail!("{}: not written: it exists (use --force)", path.display());
    }
    super::output::write_file(path, bytes)
}
