//! The subcommands, and what they share: finding inputs and reading them in parallel.

pub mod check;
pub mod convert;
pub mod perft;

use crate::{FromFormat, InputArgs};
use anyhow::{Context, bail};
use kifu::input::{EXTENSIONS, Input, ReadOptions, read_bytes, read_path};
use kifu::position::DeclarationRule;
use kifu::{Error, Format, ReplayOptions};
use rayon::prelude::*;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Whether an error chain ends in a broken pipe (not an error for a CLI).
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// One input to process: a file found under the paths given, or stdin.
#[derive(Clone, Debug)]
pub struct Source {
    /// The file, or `None` for stdin.
    pub path: Option<PathBuf>,
    /// The directory argument it was found under (for `--out-dir` mirroring).
    pub root: Option<PathBuf>,
}

impl Source {
    /// How the input is named in messages.
    pub fn name(&self) -> String {
        self.path
            .as_ref()
            .map_or_else(|| "-".to_string(), |p| p.display().to_string())
    }
}

/// The inputs named by `paths`, directories expanded (sorted, so runs are
/// reproducible). Problems walking a directory are returned as errors to
/// report, not reasons to stop.
pub fn sources(paths: &[PathBuf]) -> (Vec<Source>, Vec<String>) {
    let mut out = Vec::new();
    let mut errors = Vec::new();
    if paths.is_empty() {
        out.push(Source {
            path: None,
            root: None,
        });
    }
    for p in paths {
        if p.as_os_str() == "-" {
            out.push(Source {
                path: None,
                root: None,
            });
        } else if p.is_dir() {
            let walker = walkdir::WalkDir::new(p)
                .follow_links(true)
                .sort_by_file_name();
            for entry in walker {
                match entry {
                    Ok(e) if e.file_type().is_file() => {
                        let known = e
                            .path()
                            .extension()
                            .and_then(|x| x.to_str())
                            .is_some_and(|x| EXTENSIONS.iter().any(|k| k.eq_ignore_ascii_case(x)));
                        if known {
                            out.push(Source {
                                path: Some(e.into_path()),
                                root: Some(p.clone()),
                            });
                        }
                    }
                    Ok(_) => {}
                    Err(e) => errors.push(format!("{}: {e}", p.display())),
                }
            }
        } else {
            out.push(Source {
                path: Some(p.clone()),
                root: None,
            });
        }
    }
    (out, errors)
}

/// Reading options from the command line.
pub fn read_options(a: &InputArgs) -> anyhow::Result<(ReadOptions, ReplayOptions)> {
    let encoding = match &a.encoding {
        None => None,
        Some(label) => Some(kifu::decode::encoding_by_label(label).with_context(|| {
            format!("unknown encoding {label:?} (use utf-8, shift_jis or euc-jp)")
        })?),
    };
    let from = a.from.map(|f| match f {
        FromFormat::Kif => Format::Kif,
        FromFormat::Ki2 => Format::Ki2,
        FromFormat::Csa => Format::Csa,
        FromFormat::Usi => Format::Usi,
        FromFormat::Jkf => Format::Jkf,
    });
    let declaration = match a.declaration.as_str() {
        "24" => DeclarationRule::Points24,
        "27" => DeclarationRule::Points27,
        other => bail!("--declaration must be 24 or 27, not {other}"),
    };
    Ok((
        ReadOptions { from, encoding },
        ReplayOptions { declaration },
    ))
}

/// Read one source.
pub fn read_source(src: &Source, opts: &ReadOptions) -> Result<Input, Error> {
    match &src.path {
        Some(p) => read_path(p, opts),
        None => {
            let mut buf = Vec::new();
            std::io::stdin()
                .lock()
                .read_to_end(&mut buf)
                .map_err(|e| Error::new(kifu::ErrorKind::Io(e)).with_path("-"))?;
            read_bytes(&buf, None, opts)
        }
    }
}

/// Run `work` over `sources` on `jobs` threads, handing each result to
/// `sink` in input order. Work is done in chunks so memory stays bounded.
pub fn for_each_ordered<T: Send>(
    sources: &[Source],
    jobs: Option<usize>,
    work: impl Fn(&Source) -> T + Sync,
    mut sink: impl FnMut(&Source, T) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let jobs = jobs.unwrap_or(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .context("cannot start worker threads")?;
    let chunk = pool.current_num_threads().max(1) * 32;
    for part in sources.chunks(chunk) {
        let results: Vec<T> = pool.install(|| part.par_iter().map(&work).collect());
        for (src, r) in part.iter().zip(results) {
            sink(src, r)?;
        }
    }
    Ok(())
}

/// The relative path of `path` under `root`, for mirroring trees.
pub fn relative_to<'a>(path: &'a Path, root: Option<&Path>) -> &'a Path {
    root.and_then(|r| path.strip_prefix(r).ok())
        .unwrap_or_else(|| Path::new(path.file_name().unwrap_or(path.as_os_str())))
}
