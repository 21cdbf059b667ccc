//! The subcommands, and what they share: finding inputs and reading them in parallel.

pub mod analyze;
pub mod check;
pub mod classify;
pub mod color;
pub mod convert;
pub mod dedup;
pub mod explore;
pub mod extra;
pub mod html_report;
pub mod output;
pub mod perft;
pub mod pipeline;
pub mod progress;
pub mod select;
pub mod show;
pub mod show_variant;
pub mod signal;
pub mod stats;
pub mod stats_by;
pub mod stream;
pub mod summary;
pub mod variant;
pub mod warnings;

use crate::InputArgs;
use anyhow::{Context, bail};
use kifu::input::{EXTENSIONS, Input, ReadOptions, read_bytes};
use kifu::rules::position::DeclarationRule;
use kifu::{Error, Format, Record, ReplayOptions};
use std::io::{BufRead, Read};
use std::path::{Path, PathBuf};

impl InputArgs {
    /// The paths to read: those given, or with none the current directory
    /// when stdin is a terminal (as ripgrep does: nobody means to type a
    /// record), else stdin.
    pub fn paths_or_cwd(&self) -> Vec<PathBuf> {
        use std::io::IsTerminal;
        default_paths(&self.paths, std::io::stdin().is_terminal())
    }
}

/// See [`InputArgs::paths_or_cwd`].
pub fn default_paths(paths: &[PathBuf], stdin_is_terminal: bool) -> Vec<PathBuf> {
    if paths.is_empty() && stdin_is_terminal {
        vec![PathBuf::from(".")]
    } else {
        paths.to_vec()
    }
}

/// Whether an error chain ends in a broken pipe (not an error for a CLI).
pub fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

/// An error and its causes as one line, `outer: inner: …`, leaving out a
/// cause whose text the line already holds: a kifu [`Error`] says what its
/// I/O error said, and anyhow's `{:#}` would say it again.
pub fn error_text(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain() {
        let c = cause.to_string();
        if text.contains(&c) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&c);
    }
    text
}

/// The index and record of a game item, or else the line for stderr and
/// how many inputs or games could not be read (0 for a warning, else 1).
pub fn game_record(name: &str, item: Item) -> Result<(usize, kifu::Record), (String, usize)> {
    match item {
        Item::Warning(w) => Err((format!("{name}: warning: {w}\n"), 0)),
        Item::Unreadable(e) => Err((error_line(name, &e, None), 1)),
        Item::Game {
            index,
            record: Err(e),
        } => Err((error_line(name, &e, Some(index)), 1)),
        Item::Game {
            index,
            record: Ok(r),
        } => Ok((index, r)),
    }
}

/// [`game_record`], replayed: the game and its index, or the error line
/// and the count of what could not be read (a game that does not replay
/// counts one).
pub fn replayed_game(
    name: &str,
    item: Item,
    opts: &kifu::ReplayOptions,
) -> Result<(usize, kifu::Game), (String, usize)> {
    let (index, record) = game_record(name, item)?;
    kifu::replay(record, opts)
        .map(|g| (index, g))
        .map_err(|e| (error_line(name, &e, Some(index)), 1))
}

/// The line that reports an input (or game `index` of it) that could not be
/// read, the same for every command: `FILE:LINE:COLUMN: message`, or
/// `FILE: message` when the error has no position.
pub fn error_line(name: &str, e: &Error, index: Option<usize>) -> String {
    // Parse errors already name the file and position; others get the name here.
    let msg = e.to_string();
    let game = index.map_or(String::new(), |i| format!(" (game {})", i + 1));
    if msg.starts_with(name) {
        format!("{msg}{game}\n")
    } else {
        format!("{name}{game}: {msg}\n")
    }
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
    let mut passed = PassedOver::default();
    for p in paths {
        if p.as_os_str() == "-" {
            out.push(Source {
                path: None,
                root: None,
            });
        } else if p.is_dir() {
            let mut files = Vec::new();
            for entry in walkdir::WalkDir::new(p).follow_links(true) {
                match entry {
                    Ok(e) if e.file_type().is_file() => {
                        let ext = e.path().extension().and_then(|x| x.to_str());
                        let known = ext
                            .is_some_and(|x| EXTENSIONS.iter().any(|k| k.eq_ignore_ascii_case(x)));
                        if known && !passed.passes_over(e.path(), ext) {
                            files.push((tree_order_key(e.path()), e.into_path()));
                        }
                    }
                    Ok(_) => {}
                    Err(e) => errors.push(format!("{}: {e}", p.display())),
                }
            }
            // One sort of plain byte strings: walkdir's per-directory sort by
            // file name parses both paths at every comparison, and this list
            // is built before any file is read.
            files.sort_unstable_by(|a, b| a.0.cmp(&b.0));
            out.extend(files.into_iter().map(|(_, path)| Source {
                path: Some(path),
                root: Some(p.clone()),
            }));
        } else {
            out.push(Source {
                path: Some(p.clone()),
                root: None,
            });
        }
    }
    passed.note();
    (out, errors)
}

/// The files with a record's extension that a walk leaves out, for a note:
/// a `.json` that is not JKF (settings, test data), and the lines
/// `kifu convert --to sfen` writes (positions for training, not records).
/// Named on the command line, they are read, and their errors reported.
#[derive(Default)]
struct PassedOver {
    json: Vec<PathBuf>,
    sfen: Vec<PathBuf>,
}

impl PassedOver {
    /// Whether the walk leaves `path` out (and notes it).
    fn passes_over(&mut self, path: &Path, ext: Option<&str>) -> bool {
        let is = |e: &str| ext.is_some_and(|x| x.eq_ignore_ascii_case(e));
        if is("json") && !kifu::input::json_is_record(path) {
            self.json.push(path.to_path_buf());
            true
        } else if is("sfen") && is_sfen_lines(path) {
            self.sfen.push(path.to_path_buf());
            true
        } else {
            false
        }
    }

    fn note(&self) {
        let list = |v: &[PathBuf]| {
            let mut s: Vec<String> = v.iter().take(3).map(|p| p.display().to_string()).collect();
            if v.len() > 3 {
                s.push(format!("and {} more", v.len() - 3));
            }
            s.join(", ")
        };
        let files = |n: usize| summary::plural(n, "file", "files");
        if !self.json.is_empty() {
            let n = self.json.len();
            eprintln!(
                "kifu: note: passed over {n} .json {} that {} not JKF: {}",
                files(n),
                summary::plural(n, "is", "are"),
                list(&self.json)
            );
        }
        if !self.sfen.is_empty() {
            let n = self.sfen.len();
            eprintln!(
                "kifu: note: passed over {n} .sfen {} of `kifu convert --to sfen` lines (positions, not game records): {}",
                files(n),
                list(&self.sfen)
            );
        }
    }
}

/// For an input named on the command line that holds the lines of
/// `kifu convert --to sfen`, an error that says so, instead of the USI
/// reader's `expected startpos or an SFEN` on a line that starts with one.
/// The error, with the options that make the choice its hints suggest
/// (docs/cli.md): the library names no option of this program.
pub fn with_flag_advice(e: Error) -> Error {
    e.with_advice(|h| match h {
        kifu::Hint::LooksLike(f) => Some(format!("try --from {}, or leave --from out", f.name())),
        kifu::Hint::ReadsAs { clean, .. } => Some(format!(
            "try --encoding {}, or leave --encoding out",
            clean.name().to_ascii_lowercase()
        )),
        kifu::Hint::NotValidIn(_) => Some("leave --encoding out to detect it".into()),
        _ => None,
    })
}

fn say_if_sfen_lines(path: &Path, e: Error) -> Error {
    let sfen = path
        .extension()
        .is_some_and(|x| x.eq_ignore_ascii_case("sfen"));
    if !sfen || !is_sfen_lines(path) {
        return e;
    }
    let reason = "it holds the lines `kifu convert --to sfen` writes (a position, its next move, \
                  the result and the eval, one position a line): data for training, which kifu \
                  does not read back as games"
        .to_string();
    let span = kifu::record::Location::new(0, 1, 1);
    Error::new(kifu::ErrorKind::NotARecord { span, reason }).with_path(path)
}

/// Whether the first line of `path` is a line of `kifu convert --to sfen`:
/// an SFEN, then the next move, the result and the eval after tabs. A
/// record holds no tab there, so nothing readable is passed over.
fn is_sfen_lines(path: &Path) -> bool {
    let Ok(f) = std::fs::File::open(path) else {
        return false;
    };
    let mut first = Vec::new();
    let mut r = std::io::BufReader::new(f.take(4096));
    if r.read_until(b'\n', &mut first).is_err() {
        return false;
    }
    let fields: Vec<&[u8]> = first.trim_ascii_end().split(|&b| b == b'\t').collect();
    let results: [&[u8]; 4] = [b"win", b"loss", b"draw", b"-"];
    fields.len() == 4 && fields[0].contains(&b'/') && results.contains(&fields[2])
}

/// A key whose byte order is the order of a depth-first walk that visits
/// each directory's entries by name: the separators become NUL, which sorts
/// before every byte a name can hold, so `a/x` comes before `a-b` as `a`
/// comes before `a-b`.
fn tree_order_key(path: &Path) -> Vec<u8> {
    let mut key = path.as_os_str().as_encoded_bytes().to_vec();
    for b in &mut key {
        if std::path::is_separator(char::from(*b)) {
            *b = 0;
        }
    }
    key
}

/// Reading options from the command line.
pub fn read_options(a: &InputArgs) -> anyhow::Result<(ReadOptions, ReplayOptions)> {
    let encoding = match &a.encoding {
        None => None,
        Some(label) => Some(kifu::decode::encoding_by_label(label).with_context(|| {
            format!("unknown encoding {label:?} (use utf-8, shift_jis or euc-jp)")
        })?),
    };
    let from = a.from;
    let declaration = match a.declaration.as_str() {
        "24" => DeclarationRule::Points24,
        "27" => DeclarationRule::Points27,
        other => bail!("--declaration must be 24 or 27, not {other}"),
    };
    Ok((
        ReadOptions::default().format(from).encoding(encoding),
        ReplayOptions::default().declaration(declaration),
    ))
}

/// The relative path of `path` under `root`, for mirroring trees.
pub fn relative_to<'a>(path: &'a Path, root: Option<&Path>) -> &'a Path {
    root.and_then(|r| path.strip_prefix(r).ok())
        .unwrap_or_else(|| Path::new(path.file_name().unwrap_or(path.as_os_str())))
}

/// What the games of one input were read as.
#[derive(Clone, Copy, Debug)]
pub struct Meta {
    /// The format read.
    pub format: Format,
    /// The encoding name.
    pub encoding: &'static str,
}

/// One thing an input gave, in input order.
// Items are moved once, from reader to worker; boxing the record would add
// an allocation per game for nothing.
#[allow(clippy::large_enum_variant)]
pub enum Item {
    /// A decoding warning about the input.
    Warning(String),
    /// A game, or the error that kept it from being read (the file goes on).
    Game {
        /// 0-based index in the file.
        index: usize,
        /// The record, or why it could not be read.
        record: Result<Record, Error>,
    },
    /// The whole input could not be read.
    Unreadable(Error),
}

/// What the sink of [`drive`] is told about one input, in order.
pub enum Event<T> {
    /// The input's first result is coming.
    Begin,
    /// The result of one [`Item`].
    Item(T),
    /// The input is done.
    End,
}

/// What a worker gives back for one input: the results, or a request to
/// stream a large CSA input from the main thread.
enum FileResult<T> {
    Done(Vec<T>),
    Stream,
}

/// Whether the file at `p` may be CSA, and so be streamed when it is large.
fn may_be_csa(p: &Path, opts: &ReadOptions) -> bool {
    match opts.from {
        Some(f) => f == Format::Csa,
        None => kifu::input::format_hint(p).is_none_or(|f| f == Format::Csa),
    }
}

/// The games of every source, each turned into a `T` by `work` on the worker
/// threads, handed to `sink` in input order. Ordinary inputs are read whole
/// by the workers (in chunks of inputs, so memory stays bounded); large CSA
/// files and stdin are read as a stream of games in batches, so a
/// multi-gigabyte file never sits in memory.
pub fn drive<T: Send>(
    srcs: &[Source],
    jobs: Option<usize>,
    opts: &ReadOptions,
    work: impl Fn(&str, &Meta, Item) -> T + Sync,
    mut sink: impl FnMut(&Source, Event<T>) -> anyhow::Result<()> + Send,
) -> anyhow::Result<()> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .build()
        .context("cannot start worker threads")?;
    let threads = pool.current_num_threads().max(1);
    // Stdin is always streamed (its size is unknown), and so is a file that
    // may be CSA and is large enough that reading it whole would matter;
    // a file is read at most up to that size to find out.
    let whole = |src: &Source| -> FileResult<T> {
        let Some(p) = &src.path else {
            return FileResult::Stream;
        };
        let limit = if may_be_csa(p, opts) {
            stream::STREAM_MIN_BYTES - 1
        } else {
            u64::MAX
        };
        let Some(read) = kifu::input::read_path_within(p, opts, limit).transpose() else {
            return FileResult::Stream;
        };
        let name = src.name();
        let read = read.map_err(|e| say_if_sfen_lines(p, e));
        let (meta, items) = input_items(read, opts);
        FileResult::Done(items.into_iter().map(|i| work(&name, &meta, i)).collect())
    };
    // Files go to the workers a few at a time (one hand-off per file costs
    // more than a small file's work), at most 32 files per thread ahead of
    // the output.
    const FILES_PER_JOB: usize = 8;
    let jobs = (0..srcs.len()).step_by(FILES_PER_JOB);
    let read = |first: usize| {
        let last = (first + FILES_PER_JOB).min(srcs.len());
        (first..last)
            .map(|i| (i, whole(&srcs[i])))
            .collect::<Vec<_>>()
    };
    let drive = || {
        pipeline::ordered(&pool, jobs, threads * 4, &read, |files| {
            for (i, r) in files {
                let src = &srcs[i];
                match r {
                    FileResult::Done(items) => {
                        sink(src, Event::Begin)?;
                        for t in items {
                            sink(src, Event::Item(t))?;
                        }
                        sink(src, Event::End)?;
                    }
                    FileResult::Stream => stream_source(src, opts, &pool, &work, &mut sink)?,
                }
            }
            Ok(())
        })
    };
    pool.install(drive)
}

/// Stream one source (see [`drive`]); falls back to reading it whole when
/// its content is not CSA after all.
fn stream_source<T: Send>(
    src: &Source,
    opts: &ReadOptions,
    pool: &rayon::ThreadPool,
    work: &(impl Fn(&str, &Meta, Item) -> T + Sync),
    sink: &mut impl FnMut(&Source, Event<T>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let name = src.name();
    let reader: Box<dyn BufRead> = match &src.path {
        Some(p) => match std::fs::File::open(p) {
            Ok(f) => Box::new(std::io::BufReader::with_capacity(stream::SNIFF_BYTES, f)),
            Err(e) => {
                let meta = Meta {
                    format: Format::Csa,
                    encoding: "",
                };
                let err = Error::new(kifu::ErrorKind::Io(e)).with_path(p);
                sink(src, Event::Begin)?;
                sink(src, Event::Item(work(&name, &meta, Item::Unreadable(err))))?;
                return sink(src, Event::End);
            }
        },
        None => Box::new(std::io::BufReader::with_capacity(
            stream::SNIFF_BYTES,
            std::io::stdin(),
        )),
    };
    let mut reader = reader;
    let prefix = stream::peek(&mut reader).unwrap_or_default();
    let hint = src.path.as_deref().and_then(kifu::input::format_hint);
    let Some(encoding) = stream::sniff(&prefix, opts, hint) else {
        // Not CSA: read it whole like any other input.
        let mut bytes = Vec::new();
        let read = reader
            .read_to_end(&mut bytes)
            .map_err(|e| Error::new(kifu::ErrorKind::Io(e)).with_path(&name))
            .and_then(|_| read_bytes(&bytes, src.path.as_deref(), opts));
        drop(bytes);
        let (meta, items) = input_items(read, opts);
        sink(src, Event::Begin)?;
        let one = |i: Item| work(&name, &meta, i);
        let window = pool.current_num_threads().max(1) * 8;
        pipeline::ordered(pool, items.into_iter(), window, &one, |t| {
            sink(src, Event::Item(t))
        })?;
        return sink(src, Event::End);
    };
    let meta = Meta {
        format: Format::Csa,
        encoding: encoding.name(),
    };
    sink(src, Event::Begin)?;
    let threads = pool.current_num_threads().max(1);
    // Each worker reads, numbers and replays a chunk of games: one hand-off
    // per game would cost a visible share of a short game's work, and
    // reading a game on the thread that replays it keeps its memory there.
    // At most `window` chunks are in flight beyond the output.
    const GAMES_PER_JOB: usize = 32;
    let window = threads * 8;
    let chain = stream::Chain::default();
    let job_work = |chunk: stream::Chunk| {
        stream::read_chunk(chunk, &chain, &name)
            .into_iter()
            .map(|i| work(&name, &meta, i))
            .collect::<Vec<T>>()
    };
    let to_sink = |results: Vec<T>| {
        results
            .into_iter()
            .try_for_each(|t| sink(src, Event::Item(t)))
    };
    pipeline::run(pool, window, &job_work, to_sink, |feeder| {
        stream::chunks(reader, encoding, opts, GAMES_PER_JOB, |c| feeder.feed(c))
    })?;
    sink(src, Event::End)
}

/// The items of an input read whole: its warnings, then its games in file
/// order, with the games that failed to parse in their places.
fn input_items(read: Result<Input, Error>, opts: &ReadOptions) -> (Meta, Vec<Item>) {
    let input = match read.map_err(with_flag_advice) {
        Ok(input) => input,
        Err(e) => {
            let meta = Meta {
                format: opts.from.unwrap_or(Format::Csa),
                encoding: "",
            };
            return (meta, vec![Item::Unreadable(e)]);
        }
    };
    let meta = Meta {
        format: input.format,
        encoding: input.encoding.name(),
    };
    let mut items: Vec<Item> = input
        .warnings
        .iter()
        .map(|w| Item::Warning(w.to_string()))
        .collect();
    let failed_game = |(index, e)| Item::Game {
        index,
        record: Err(e),
    };
    let mut failed = input.failed.into_iter().peekable();
    for record in input.records {
        let index = record.index;
        while let Some(f) = failed.next_if(|(i, _)| *i < index) {
            items.push(failed_game(f));
        }
        items.push(Item::Game {
            index,
            record: Ok(record),
        });
    }
    items.extend(failed.map(failed_game));
    (meta, items)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directory_order_is_walkdirs_sorted_walk() {
        let dir = tempfile::tempdir().unwrap();
        let names = [
            "a/x.kif",
            "a/b/y.csa",
            "a-b.kif",
            "a.kif",
            "a0/z.kif",
            "B.kif",
            "b/c.kif",
            "b0.kif",
            "b/c/d/e.ki2",
            "b/c-d.kif",
            "é/f.kif",
            "ab.csa",
        ];
        for n in names {
            let p = dir.path().join(n);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "").unwrap();
        }
        let (srcs, errors) = sources(&[dir.path().to_path_buf()]);
        assert!(errors.is_empty());
        let got: Vec<PathBuf> = srcs.into_iter().filter_map(|s| s.path).collect();
        let want: Vec<PathBuf> = walkdir::WalkDir::new(dir.path())
            .sort_by_file_name()
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .map(walkdir::DirEntry::into_path)
            .collect();
        assert_eq!(got.len(), names.len());
        assert_eq!(got, want);
    }
}
