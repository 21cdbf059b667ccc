//! From bytes to records: decode, detect the format, parse.

use crate::decode::decode;
use crate::error::{Error, ErrorKind, Hint};
use crate::parse;
use crate::record::{Format, Record};
use std::path::Path;

/// The extensions kifu reads when it searches a directory.
pub const EXTENSIONS: [&str; 9] = [
    "kif", "kifu", "ki2", "ki2u", "csa", "usi", "sfen", "jkf", "json",
];

/// What one input holds.
#[derive(Debug)]
#[non_exhaustive]
pub struct Input {
    /// The format read.
    pub format: Format,
    /// The encoding the bytes were decoded with.
    pub encoding: &'static encoding_rs::Encoding,
    /// The games, in file order.
    pub records: Vec<Record>,
    /// Games of a multi-game file that could not be parsed, with their index
    /// in the file; the other games are still in `records`.
    pub failed: Vec<(usize, Error)>,
    /// Problems met while decoding (e.g. replaced bytes).
    pub warnings: Vec<crate::decode::DecodeWarning>,
}

/// How to read an input: sniffed, unless a format or an encoding is given.
///
/// ```
/// use kifu::{Format, ReadOptions};
///
/// let opts = ReadOptions::default().format(Some(Format::Csa)).encoding(Some(encoding_rs::SHIFT_JIS));
/// assert_eq!(opts.from, Some(Format::Csa));
/// ```
#[derive(Clone, Copy, Debug, Default)]
#[non_exhaustive]
pub struct ReadOptions {
    /// The format, when the user chose it.
    pub from: Option<Format>,
    /// The encoding, when the user chose it.
    pub encoding: Option<&'static encoding_rs::Encoding>,
}

impl ReadOptions {
    /// These options, reading as `format` (`None`: sniffed).
    pub fn format(mut self, format: Option<Format>) -> ReadOptions {
        self.from = format;
        self
    }

    /// These options, decoding as `encoding` (`None`: sniffed).
    pub fn encoding(mut self, encoding: Option<&'static encoding_rs::Encoding>) -> ReadOptions {
        self.encoding = encoding;
        self
    }
}

/// Whether a `.json` file met in a directory walk is to be read. Other JSON
/// files sit beside records (test expectations, settings), so only a JKF
/// document is taken, and any file that cannot be told apart from one (it
/// cannot be read, or it is not valid JSON but names a JKF key, as a
/// truncated JKF does), so that its error is still reported. Invalid JSON
/// that names none (a `tsconfig.json` with comments) is not a record.
pub fn json_is_record(path: &Path) -> bool {
    let Ok(bytes) = std::fs::read(path) else {
        return true;
    };
    let body = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(&bytes);
    if body.trim_ascii_start().first() != Some(&b'{') {
        return false;
    }
    parse::recognise::jkf_object(body).unwrap_or_else(|| names_a_jkf_key(body))
}

/// Whether `body` holds `"header"`, `"initial"` or `"moves"` as an object key.
fn names_a_jkf_key(body: &[u8]) -> bool {
    ["\"header\"", "\"initial\"", "\"moves\""].iter().any(|k| {
        memchr::memmem::find_iter(body, k.as_bytes()).any(|i| {
            let after = &body[i + k.len()..];
            after.trim_ascii_start().first() == Some(&b':')
        })
    })
}

/// The format an extension suggests.
pub fn format_hint(path: &Path) -> Option<Format> {
    path.extension()
        .and_then(|e| e.to_str())
        .and_then(Format::from_extension)
}

/// Decode, detect and parse `bytes` read from `path` (`None` for stdin).
///
/// The encoding (UTF-8, Shift_JIS, EUC-JP, UTF-16 with a BOM) and the format
/// are detected unless [`ReadOptions`] names them; the path's extension is
/// only a hint. Every game is read on its own: in a multi-game CSA file a
/// broken game lands in [`Input::failed`] and the others in
/// [`Input::records`].
///
/// # Errors
///
/// [`ErrorKind::Decode`] when the bytes are not text (binary data),
/// [`ErrorKind::UnknownFormat`] when no format fits, and
/// [`ErrorKind::Parse`] (with line and column) when the record is not valid
/// in its format. The error carries `path`, or `-` without one.
///
/// # Example
///
/// ```
/// use kifu::{Format, ReadOptions, read_bytes};
///
/// let input = read_bytes(b"position startpos moves 7g7f 3c3d\n", None, &ReadOptions::default())?;
/// assert_eq!(input.format, Format::Usi);
/// assert_eq!(input.records[0].main.moves.len(), 2);
///
/// let err = read_bytes(b"PI\n+\n+77\n", None, &ReadOptions::default()).unwrap_err();
/// assert_eq!(err.position().map(|p| p.line), Some(3));
/// # Ok::<(), kifu::Error>(())
/// ```
pub fn read_bytes(bytes: &[u8], path: Option<&Path>, opts: &ReadOptions) -> Result<Input, Error> {
    read_typed(bytes, path, opts).map(|(input, _)| input)
}

/// [`read_bytes`], with the encoding as itself rather than its name.
pub(crate) fn read_typed(
    bytes: &[u8],
    path: Option<&Path>,
    opts: &ReadOptions,
) -> Result<(Input, &'static encoding_rs::Encoding), Error> {
    let with_path = |e: Error| match path {
        Some(p) => e.with_path(p),
        None => e.with_path("-"),
    };
    let decoded = decode(bytes, opts.encoding).map_err(with_path)?;
    let text = decoded.text.as_str();
    if text.trim_start_matches('\u{feff}').trim().is_empty() {
        // An empty file would otherwise read as one legal game of 0 plies,
        // hiding a truncated or failed copy from the archivist.
        return Err(with_path(Error::new(ErrorKind::Parse(
            crate::error::ParseError::new(
                crate::record::Location::new(0, 1, 1),
                "the input is empty: no game to read",
            )
            .of_kind(crate::error::ParseErrorKind::Empty),
        ))));
    }
    let format = match opts.from {
        Some(f) => f,
        None => parse::detect(text, path.and_then(format_hint)).ok_or_else(|| {
            let n = parse::recognise::unknown(text);
            // No format to compare with: only the encoding can be named.
            let hints = hints(bytes, text, Format::Usi, opts, &decoded.warnings);
            with_path(Error::new(ErrorKind::NotARecord {
                span: n.span,
                reason: n.reason,
            }))
            .with_hints(hints)
        })?,
    };
    // A record that does not read in the format or encoding the user chose
    // says what the content looks like instead (docs/cli.md).
    let hinted = |e: crate::error::ParseError| {
        with_path(e.into()).with_hints(hints(bytes, text, format, opts, &decoded.warnings))
    };
    let mut failed = Vec::new();
    let records = if format == Format::Csa {
        // Games of a CSA file stand alone: one broken game (a truncated
        // download, say) is reported, and the rest are still read.
        let each = parse::csa::parse_each(text);
        // Nothing but comments and blank lines: no game to report.
        if each.is_empty() || each.iter().any(|(_, g)| g.is_ok()) {
            let mut records = Vec::with_capacity(each.len());
            for (index, game) in each {
                match game {
                    Ok(r) => records.push(r),
                    Err(e) => failed.push((index, with_path(e.into()))),
                }
            }
            records
        } else {
            parse::parse(text, format).map_err(hinted)?
        }
    } else {
        parse::parse(text, format).map_err(hinted)?
    };
    if failed.is_empty() {
        parse::recognise::check(text, format, &records).map_err(|n| {
            with_path(Error::new(ErrorKind::NotARecord {
                span: n.span,
                reason: n.reason,
            }))
            .with_hints(hints(bytes, text, format, opts, &decoded.warnings))
        })?;
    }
    let input = Input {
        format,
        encoding: decoded.encoding,
        records,
        failed,
        warnings: decoded.warnings,
    };
    Ok((input, decoded.encoding))
}

/// What a text that did not read as `format` may be instead: with a
/// format chosen, the format the content looks like; with an encoding
/// chosen, the encoding its bytes read cleanly in, or that they are not
/// valid in the one chosen. Empty when neither was chosen.
fn hints(
    bytes: &[u8],
    text: &str,
    format: Format,
    opts: &ReadOptions,
    decode_warnings: &[crate::decode::DecodeWarning],
) -> Vec<Hint> {
    let mut hints = Vec::new();
    if opts.from.is_some()
        && let Some(other) = parse::detect(text, None).filter(|&f| f != format)
    {
        hints.push(Hint::LooksLike(other));
    }
    if let Some(chosen) = opts.encoding {
        let clean = decode(bytes, None)
            .ok()
            .filter(|d| d.warnings.is_empty() && d.encoding != chosen);
        match clean {
            Some(d) => hints.push(Hint::ReadsAs {
                chosen,
                clean: d.encoding,
            }),
            None if !decode_warnings.is_empty() => hints.push(Hint::NotValidIn(chosen)),
            None => {}
        }
    }
    hints
}

/// Read and parse the file at `path`, as [`read_bytes`] does its bytes.
///
/// # Errors
///
/// [`ErrorKind::Io`] when the file cannot be read, and every error of
/// [`read_bytes`]; each carries the path.
///
/// # Example
///
/// ```no_run
/// let input = kifu::read_path("game.kif".as_ref(), &kifu::ReadOptions::default())?;
/// println!("{} game(s) in {}", input.records.len(), input.encoding.name());
/// # Ok::<(), kifu::Error>(())
/// ```
pub fn read_path(path: &Path, opts: &ReadOptions) -> Result<Input, Error> {
    // No file is longer than the limit, but the type cannot know it.
    read_path_within(path, opts, u64::MAX)?.ok_or_else(|| {
        let too_long = std::io::Error::from(std::io::ErrorKind::FileTooLarge);
        Error::new(ErrorKind::Io(too_long)).with_path(path)
    })
}

/// Read and parse the file at `path` if it holds at most `limit` bytes;
/// `Ok(None)` when it is longer (the caller then streams it, say).
///
/// The file is opened once and read into a buffer kept by the thread from
/// file to file: no size query and no fresh allocation per file, which is
/// what most of the time of a directory of small records goes to.
pub fn read_path_within(
    path: &Path,
    opts: &ReadOptions,
    limit: u64,
) -> Result<Option<Input>, Error> {
    use std::io::Read;
    thread_local! {
        static BUF: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    // A buffer grown by one large file is not kept for the rest of a run.
    const KEPT: usize = 1 << 20;
    const FIRST: usize = 64 * 1024;
    let io = |e| Error::new(ErrorKind::Io(e)).with_path(path);
    let file = std::fs::File::open(path).map_err(io)?;
    BUF.with_borrow_mut(|buf| {
        buf.clear();
        // The first file of a thread: start big enough for most records
        // in one read, rather than grow from a few bytes read at a time.
        buf.reserve(FIRST);
        let read = file.take(limit.saturating_add(1)).read_to_end(buf);
        let result = match read {
            Err(e) => Err(io(e)),
            Ok(n) if n as u64 > limit => Ok(None),
            Ok(_) => read_bytes(buf, Some(path), opts).map(Some),
        };
        if buf.capacity() > KEPT {
            *buf = Vec::new();
        }
        result
    })
}
