//! `kifu convert`: read, replay, and write every game in another format.

use super::{Source, for_each_ordered, read_options, read_source, relative_to, sources};
use crate::{ConvertArgs, ToFormat};
use anyhow::{Context, bail};
use kifu::emit::Warning;
use kifu::emit::csa::{CsaOptions, CsaVersion};
use kifu::emit::kif::{self, KifOptions};
use kifu::replay::{Game, replay};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What converting one input gave.
struct Converted {
    /// The files to write: a suffix for the file name (`None` for the
    /// input's own name) and the bytes. Empty when the input could not be read.
    outputs: Vec<(Option<String>, Vec<u8>)>,
    /// Messages for stderr.
    err: String,
    fouls: usize,
    unreadable: usize,
}

fn extension(to: ToFormat) -> &'static str {
    match to {
        ToFormat::Usi => "usi",
        ToFormat::Csa => "csa",
        ToFormat::Sfen => "sfen",
        ToFormat::Kif => "kif",
        ToFormat::Kifu => "kifu",
        ToFormat::Jkf => "jkf",
        ToFormat::Json => "jsonl",
    }
}

/// What the JSON writer says about the input a game came from.
struct InputInfo {
    name: String,
    encoding: &'static str,
    format: kifu::Format,
}

/// Formats that hold one game per file: several games make several files.
fn one_game_per_file(to: ToFormat) -> bool {
    matches!(to, ToFormat::Kif | ToFormat::Kifu | ToFormat::Jkf)
}

/// Write one game in a one-game-per-file format.
fn emit_one(a: &ConvertArgs, game: &Game) -> (Vec<u8>, Vec<Warning>) {
    match a.to {
        ToFormat::Kif => {
            let (text, mut w) = kif::write_with(game, &KifOptions::shift_jis());
            let (bytes, w2) = kif::encode_sjis(&text);
            w.extend(w2);
            (bytes, w)
        }
        ToFormat::Kifu => {
            let (text, w) = kif::write_with(game, &KifOptions::utf8());
            (text.into_bytes(), w)
        }
        ToFormat::Jkf => {
            let (text, w) = kifu::emit::jkf::write(game);
            (text.into_bytes(), w)
        }
        _ => (Vec::new(), Vec::new()),
    }
}

/// Write the games of one input as one file.
fn emit_all(a: &ConvertArgs, input: &InputInfo, games: &[Game]) -> (Vec<u8>, Vec<Warning>) {
    let mut text = String::new();
    let mut warnings = Vec::new();
    match a.to {
        ToFormat::Sfen => {
            for g in games {
                let (s, w) = kifu::emit::sfen::write(g);
                text.push_str(&s);
                warnings.extend(w);
            }
        }
        ToFormat::Usi => {
            for g in games {
                let (s, w) = kifu::emit::usi::write(g);
                text.push_str(&s);
                text.push('\n');
                warnings.extend(w);
            }
        }
        ToFormat::Csa => {
            let opts = CsaOptions {
                version: if a.csa_version == "3.0" {
                    CsaVersion::V30
                } else {
                    CsaVersion::V22
                },
            };
            if a.split_variations {
                for (i, g) in games.iter().enumerate() {
                    let (s, w) = kifu::emit::csa::write_split(g, &opts);
                    if i > 0 {
                        // Later games drop the version head: one file, one head.
                        text.push_str("/\n");
                        text.push_str(s.split_once('\n').map_or("", |(_, rest)| rest));
                    } else {
                        text.push_str(&s);
                    }
                    warnings.extend(w);
                }
            } else {
                let (s, w) = kifu::emit::csa::write_many(games, &opts);
                text = s;
                warnings = w;
            }
        }
        ToFormat::Json => {
            for g in games {
                let (s, w) =
                    kifu::emit::json::write(&input.name, input.encoding, input.format, g, a.pretty);
                text.push_str(&s);
                text.push('\n');
                warnings.extend(w);
            }
        }
        ToFormat::Kif | ToFormat::Kifu | ToFormat::Jkf => {}
    }
    (text.into_bytes(), warnings)
}

pub fn run(a: &ConvertArgs) -> anyhow::Result<u8> {
    let (read_opts, replay_opts) = read_options(&a.input)?;
    let (mut srcs, walk_errors) = sources(&a.input.paths);
    // An --out-dir inside the input tree holds earlier outputs: reading them
    // as inputs would write out/out/…, one level deeper on every run.
    if let Some(dir) = a.out_dir.as_ref().and_then(|d| d.canonicalize().ok()) {
        let before = srcs.len();
        srcs.retain(|s| {
            s.path
                .as_ref()
                .and_then(|p| p.canonicalize().ok())
                .is_none_or(|p| !p.starts_with(&dir))
        });
        if srcs.len() < before {
            eprintln!(
                "kifu: note: {} file(s) under the output directory {} not read as inputs",
                before - srcs.len(),
                dir.display()
            );
        }
    }
    if a.output.is_some() && a.out_dir.is_some() {
        bail!("use either -o/--output or --out-dir, not both");
    }
    let many = srcs.len() > 1 || a.input.paths.iter().any(|p| p.is_dir());
    if many && a.out_dir.is_none() {
        bail!("several inputs need --out-dir DIR (one output file per input)");
    }
    for e in &walk_errors {
        eprintln!("kifu: {e}");
    }
    let mut fouls = 0;
    let mut unreadable = walk_errors.len();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for_each_ordered(
        &srcs,
        a.input.jobs,
        |src| convert_one(src, a, &read_opts, &replay_opts),
        |src, c: Converted| {
            let quiet_ok = a.quiet && c.unreadable == 0;
            if !c.err.is_empty() && !quiet_ok {
                out.flush()?;
                eprint!("{}", c.err);
            }
            fouls += c.fouls;
            unreadable += c.unreadable;
            for (suffix, bytes) in c.outputs {
                let named = |p: &Path| -> PathBuf {
                    match &suffix {
                        None => p.to_path_buf(),
                        Some(sfx) => {
                            let stem = p
                                .file_stem()
                                .map(|s| s.to_string_lossy().into_owned())
                                .unwrap_or_default();
                            let ext = p
                                .extension()
                                .map(|e| format!(".{}", e.to_string_lossy()))
                                .unwrap_or_default();
                            p.with_file_name(format!("{stem}{sfx}{ext}"))
                        }
                    }
                };
                if let Some(dir) = &a.out_dir {
                    let rel = match &src.path {
                        Some(p) => {
                            relative_to(p, src.root.as_deref()).with_extension(extension(a.to))
                        }
                        None => PathBuf::from(format!("stdin.{}", extension(a.to))),
                    };
                    let target = named(&dir.join(rel));
                    if let Err(e) = write_atomic(&target, &bytes, a.force) {
                        eprintln!("kifu: {}: {e:#}", target.display());
                        unreadable += 1;
                    }
                } else if let Some(path) = &a.output {
                    write_atomic(&named(path), &bytes, a.force)?;
                } else {
                    out.write_all(&bytes)?;
                }
            }
            Ok(())
        },
    )?;
    out.flush()?;
    Ok(if unreadable > 0 {
        2
    } else if fouls > 0 {
        1
    } else {
        0
    })
}

fn convert_one(
    src: &Source,
    a: &ConvertArgs,
    read_opts: &kifu::input::ReadOptions,
    replay_opts: &kifu::ReplayOptions,
) -> Converted {
    let name = src.name();
    let mut c = Converted {
        outputs: Vec::new(),
        err: String::new(),
        fouls: 0,
        unreadable: 0,
    };
    let input = match read_source(src, read_opts) {
        Ok(i) => i,
        Err(e) => {
            c.unreadable = 1;
            c.err = format!("kifu: {e}\n");
            return c;
        }
    };
    // Replaced bytes or a false encoding declaration change the output too:
    // say so here as `check` does, or the loss would be silent.
    for w in &input.warnings {
        c.err.push_str(&format!("{name}: warning: {w}\n"));
    }
    let (encoding, format) = (input.encoding, input.format);
    let mut games = Vec::with_capacity(input.records.len());
    for record in input.records {
        let index = record.index;
        match replay(record, replay_opts) {
            Ok(game) => {
                if !game.main.verdict.is_legal() {
                    c.fouls += 1;
                }
                games.push(game);
            }
            Err(e) => {
                c.unreadable += 1;
                c.err
                    .push_str(&format!("kifu: {name} (game {}): {e}\n", index + 1));
            }
        }
    }
    let mut warnings = Vec::new();
    if one_game_per_file(a.to) {
        for (i, g) in games.iter().enumerate() {
            let (bytes, w) = emit_one(a, g);
            let suffix = (i > 0).then(|| format!("-{}", i + 1));
            for w in w {
                let game = if games.len() > 1 {
                    format!(" (game {})", i + 1)
                } else {
                    String::new()
                };
                warnings.push(Warning {
                    code: w.code,
                    message: format!("{game} {}", w.message).trim_start().to_string(),
                });
            }
            c.outputs.push((suffix, bytes));
        }
        if games.len() > 1 && a.out_dir.is_none() && a.output.is_none() {
            warnings.push(Warning {
                code: "games-concatenated",
                message: format!(
                    "{} games written one after another to stdout; use --out-dir for one file each",
                    games.len()
                ),
            });
        }
    } else {
        let info = InputInfo {
            name: name.clone(),
            encoding,
            format,
        };
        let (bytes, w) = emit_all(a, &info, &games);
        warnings = w;
        c.outputs.push((None, bytes));
    }
    for w in warnings {
        c.err
            .push_str(&format!("{name}: warning[{}]: {}\n", w.code, w.message));
    }
    c
}

/// Write `bytes` to `path` through a temporary file in the same directory
/// and a rename, so a reader never sees half a file. Refuses to replace an
/// existing file unless `force`.
pub fn write_atomic(path: &Path, bytes: &[u8], force: bool) -> anyhow::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    if !force && path.exists() {
        bail!("{} exists (use --force to overwrite)", path.display());
    }
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("cannot create a temporary file in {}", dir.display()))?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    if force {
        tmp.persist(path)
            .map_err(|e| e.error)
            .with_context(|| format!("cannot write {}", path.display()))?;
    } else {
        tmp.persist_noclobber(path)
            .map_err(|e| e.error)
            .with_context(|| {
                format!(
                    "cannot write {} (it may exist: use --force)",
                    path.display()
                )
            })?;
    }
    Ok(())
}
