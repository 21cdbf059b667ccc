//! `kifu convert` on variant records: written by the library's variant
//! writers (KIF, USI), as SFEN lines or as the check JSON, with the
//! writers' warnings.

use crate::cmd::check::variant::game_json;
use crate::cmd::variant::read;
use crate::cmd::{relative_to, sources};
use crate::{ConvertArgs, ToFormat};
use anyhow::bail;
use kifu::Format;
use kifu::emit::Warning;
use kifu::emit::variant::{kif as write_kif, kif_writable, usi as write_usi};
use kifu::variant::{Variant, VariantGame};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

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

/// `kifu convert` on variant records.
pub fn convert(a: &ConvertArgs, variant: Variant) -> anyhow::Result<u8> {
    let (srcs, walk_errors) = sources(&a.input.paths);
    for e in &walk_errors {
        eprintln!("kifu: {e}");
    }
    if srcs.len() > 1 && a.out.out_dir.is_none() {
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
        let target = match (&a.out.output, &a.out.out_dir) {
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
                None if a.out.skip_existing && std::fs::symlink_metadata(&p).is_ok() => {
                    claimed.insert(p, name.clone());
                    continue;
                }
                None => {
                    if let Err(e) = write_output(&p, &bytes, a.out.force) {
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

/// Write one variant game's output atomically, refusing to replace an
/// existing file unless `--force`.
fn write_output(path: &Path, bytes: &[u8], force: bool) -> anyhow::Result<()> {
    if !force && std::fs::symlink_metadata(path).is_ok() {
        anyhow::bail!("{}: not written: it exists (use --force)", path.display());
    }
    crate::cmd::output::write_file(path, bytes)
}
