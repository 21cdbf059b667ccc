//! The front door: records read from any [`Read`], in any format.
//!
//! A [`ReaderBuilder`] makes a [`Reader`], which detects the format and the
//! encoding from the first bytes (or is told them) and yields each game as
//! a `Result<Record, Error>`. A multi-game CSA text longer than those first
//! bytes is read as a stream, one game at a time ([`csa`]), so memory is
//! bounded by the largest game, not by the file; any other input is read
//! whole, as [`read_bytes`](crate::read_bytes) reads it.
//!
//! # Example
//!
//! ```
//! use kifu::{Format, ReaderBuilder, ReplayOptions};
//!
//! let log = "V2.2\nPI\n+\n+7776FU\n%TORYO\n/\nPI\n+\n+2726FU\n-8384FU\n%CHUDAN\n";
//! let mut reader = ReaderBuilder::new().from_reader(log.as_bytes())?;
//! assert_eq!(reader.format(), Format::Csa);
//! let mut plies = Vec::new();
//! for record in reader.records() {
//!     let game = kifu::replay(record?, &ReplayOptions::default())?;
//!     plies.push(game.main.plies.len());
//! }
//! assert_eq!(plies, [1, 2]);
//! # Ok::<(), kifu::Error>(())
//! ```

pub mod csa;
#[cfg(test)]
mod mixed_csa;

use crate::decode::DecodeWarning;
use crate::error::{Error, ErrorKind};
use crate::input::{ReadOptions, format_hint};
use crate::record::{Format, Record};
use encoding_rs::Encoding;
use std::collections::VecDeque;
use std::io::{Cursor, Read};
use std::path::{Path, PathBuf};

/// How many bytes are looked at to choose the format and the encoding; an
/// input no longer than this is read whole.
const SNIFF_BYTES: usize = 64 * 1024;

/// Games read from a streamed CSA text at a time.
const GAMES_PER_CHUNK: usize = 16;

/// How to make a [`Reader`]: the format and the encoding when they are
/// known, and the input's path for its errors.
///
/// # Example
///
/// ```
/// use kifu::{Format, ReaderBuilder};
///
/// let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode("手合割：平手\n   1 ７六歩(77)\n");
/// let mut reader = ReaderBuilder::new()
///     .format(Format::Kif)
///     .encoding(encoding_rs::SHIFT_JIS)
///     .path("game.kif")
///     .from_reader(&sjis[..])?;
/// assert_eq!(reader.encoding(), encoding_rs::SHIFT_JIS);
/// let record = reader.records().next().unwrap()?;
/// assert_eq!(record.main.moves.len(), 1);
/// # Ok::<(), kifu::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct ReaderBuilder {
    opts: ReadOptions,
    path: Option<PathBuf>,
}

impl ReaderBuilder {
    /// A builder that detects the format and the encoding.
    pub fn new() -> ReaderBuilder {
        ReaderBuilder::default()
    }

    /// Read every input as `format` instead of detecting it.
    pub fn format(&mut self, format: Format) -> &mut ReaderBuilder {
        self.opts.from = Some(format);
        self
    }

    /// Decode every input in `encoding` (for instance
    /// `encoding_rs::SHIFT_JIS`) instead of detecting it.
    pub fn encoding(&mut self, encoding: &'static Encoding) -> &mut ReaderBuilder {
        self.opts.encoding = Some(encoding);
        self
    }

    /// The name of the input, for its errors; its extension hints at the
    /// format (the content decides). Without one, errors name `-`.
    pub fn path(&mut self, path: impl Into<PathBuf>) -> &mut ReaderBuilder {
        self.path = Some(path.into());
        self
    }

    /// A reader of the records in `reader`. Its first bytes are read here
    /// to choose the format and the encoding; a text no longer than them,
    /// or one that is not CSA, is read whole.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Io`] when `reader` fails, [`ErrorKind::Decode`] when
    /// the bytes are not text, [`ErrorKind::UnknownFormat`] when no format
    /// fits, and [`ErrorKind::NotARecord`] when the text holds no record.
    /// A record that is not valid in its format is an `Err` item of
    /// [`Reader::records`] instead.
    pub fn from_reader<R: Read>(&self, mut reader: R) -> Result<Reader<R>, Error> {
        let name = self.path.clone().unwrap_or_else(|| PathBuf::from("-"));
        let io = |e| Error::new(ErrorKind::Io(e)).with_path(&name);
        let mut prefix = Vec::with_capacity(SNIFF_BYTES);
        (&mut reader)
            .take(SNIFF_BYTES as u64 + 1)
            .read_to_end(&mut prefix)
            .map_err(io)?;
        if prefix.len() > SNIFF_BYTES
            && let Some(encoding) = self.csa_stream(&prefix)
        {
            let forced = self.opts.encoding.is_some();
            let chained = Cursor::new(prefix).chain(reader);
            return Ok(Reader {
                format: Format::Csa,
                encoding,
                path: name,
                warnings: Vec::new(),
                source: Source::Csa {
                    chunks: Box::new(csa::Chunks::new(chained, encoding, forced, GAMES_PER_CHUNK)),
                    placer: csa::Placer::default(),
                },
                pending: VecDeque::new(),
            });
        }
        reader.read_to_end(&mut prefix).map_err(io)?;
        self.whole(&prefix, name)
    }

    /// A reader of the file at `path`, which also names it in errors.
    ///
    /// # Errors
    ///
    /// [`ErrorKind::Io`] when it cannot be opened, and those of
    /// [`ReaderBuilder::from_reader`].
    pub fn from_path(
        &self,
        path: impl AsRef<Path>,
    ) -> Result<Reader<std::io::BufReader<std::fs::File>>, Error> {
        let path = path.as_ref();
        let file =
            std::fs::File::open(path).map_err(|e| Error::new(ErrorKind::Io(e)).with_path(path))?;
        let mut named = self.clone();
        named.path = Some(path.to_path_buf());
        named.from_reader(std::io::BufReader::new(file))
    }

    /// The encoding to stream `prefix`'s text in, when it is CSA.
    fn csa_stream(&self, prefix: &[u8]) -> Option<&'static Encoding> {
        // Cut at the last line end so a multi-byte character is never split.
        let cut = prefix
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(prefix.len(), |i| i + 1);
        let decoded = crate::decode::decode(&prefix[..cut], self.opts.encoding).ok()?;
        let is_csa = match self.opts.from {
            Some(f) => f == Format::Csa,
            None => {
                let hint = self.path.as_deref().and_then(format_hint);
                crate::parse::detect(&decoded.text, hint) == Some(Format::Csa)
            }
        };
        // UTF-16 cannot be cut at `/` bytes.
        (is_csa && decoded.encoding.is_ascii_compatible()).then_some(decoded.encoding)
    }

    /// A reader of `bytes` read whole.
    fn whole<R>(&self, bytes: &[u8], name: PathBuf) -> Result<Reader<R>, Error> {
        let (input, encoding) =
            match crate::input::read_typed(bytes, self.path.as_deref(), &self.opts) {
                Ok(read) => read,
                Err(e) if matches!(e.kind(), ErrorKind::Parse(_)) => {
                    // The format is known: the error is the record's, an item.
                    let decoded = crate::decode::decode(bytes, self.opts.encoding)?;
                    let format = self.opts.from.or_else(|| {
                        crate::parse::detect(
                            &decoded.text,
                            self.path.as_deref().and_then(format_hint),
                        )
                    });
                    return Ok(Reader {
                        format: format.unwrap_or(Format::Kif),
                        encoding: decoded.encoding,
                        path: name,
                        warnings: ReadWarning::of_file(decoded.warnings),
                        source: Source::Whole,
                        pending: VecDeque::from([Err(e)]),
                    });
                }
                Err(e) => return Err(e),
            };
        let mut items = VecDeque::with_capacity(input.records.len() + input.failed.len());
        let mut failed = input.failed.into_iter().peekable();
        for record in input.records {
            while let Some((_, e)) = failed.next_if(|(i, _)| *i < record.index) {
                items.push_back(Err(e));
            }
            items.push_back(Ok(record));
        }
        items.extend(failed.map(|(_, e)| Err(e)));
        Ok(Reader {
            format: input.format,
            encoding,
            path: name,
            warnings: ReadWarning::of_file(input.warnings),
            source: Source::Whole,
            pending: items,
        })
    }
}

/// Where a reader's records come from.
#[derive(Debug)]
enum Source<R> {
    /// Read whole: the records are all in [`Reader::pending`].
    Whole,
    /// A CSA stream, read a chunk at a time.
    Csa {
        chunks: Box<csa::Chunks<std::io::Chain<Cursor<Vec<u8>>, R>>>,
        placer: csa::Placer,
    },
}

/// A decoding problem a [`Reader`] met: in one game of a streamed
/// multi-game CSA file (`game`, from 0), or in the whole text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReadWarning {
    /// The game whose bytes it is in, for a file read game by game.
    pub game: Option<usize>,
    /// What was wrong.
    pub warning: DecodeWarning,
}

impl ReadWarning {
    fn of_file(warnings: Vec<DecodeWarning>) -> Vec<ReadWarning> {
        warnings
            .into_iter()
            .map(|warning| ReadWarning {
                game: None,
                warning,
            })
            .collect()
    }
}

impl std::fmt::Display for ReadWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.game {
            Some(g) => write!(f, "game {}: {}", g + 1, self.warning),
            None => write!(f, "{}", self.warning),
        }
    }
}

/// The records of one input, in file order; made by [`ReaderBuilder`].
///
/// A game that is not valid in its format is an `Err` item carrying the
/// input's path, line and column, and the games after it are still read
/// (in a multi-game CSA text). An error reading or decoding a CSA stream
/// ends it. Like [`crate::parse::parse`] it reads syntax only: hand each
/// record to [`crate::replay()`] for the verdict.
#[derive(Debug)]
pub struct Reader<R> {
    format: Format,
    encoding: &'static Encoding,
    path: PathBuf,
    warnings: Vec<ReadWarning>,
    source: Source<R>,
    /// Records read and not yet given out.
    pending: VecDeque<Result<Record, Error>>,
}

impl<R: Read> Reader<R> {
    /// A reader of `reader` that detects the format and the encoding, as
    /// `ReaderBuilder::new().from_reader(reader)`.
    ///
    /// # Errors
    ///
    /// Those of [`ReaderBuilder::from_reader`].
    pub fn from_reader(reader: R) -> Result<Reader<R>, Error> {
        ReaderBuilder::new().from_reader(reader)
    }

    /// The format the input is read as.
    pub fn format(&self) -> Format {
        self.format
    }

    /// The encoding the input opens in (each game of a CSA stream that does
    /// not read cleanly in it is detected on its own).
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }

    /// The problems met decoding the text so far (replaced bytes, say),
    /// taken out of the reader.
    pub fn take_warnings(&mut self) -> Vec<ReadWarning> {
        std::mem::take(&mut self.warnings)
    }

    /// An iterator over the records, each read as it is asked for.
    pub fn records(&mut self) -> Records<'_, R> {
        Records { reader: self }
    }

    /// The next record, or `None` at the end of the input.
    fn next_record(&mut self) -> Option<Result<Record, Error>> {
        loop {
            if let Some(item) = self.pending.pop_front() {
                return Some(item);
            }
            let Source::Csa { chunks, placer } = &mut self.source else {
                return None;
            };
            for item in placer.place(chunks.next()?.read()) {
                match item {
                    csa::Item::Warning { game, warning } => {
                        self.warnings.push(ReadWarning {
                            game: Some(game),
                            warning,
                        });
                    }
                    csa::Item::Game { record, .. } => self
                        .pending
                        .push_back(record.map_err(|e| e.with_path(&self.path))),
                    csa::Item::Failed(e) => self.pending.push_back(Err(e.with_path(&self.path))),
                }
            }
        }
    }
}

/// The records of a [`Reader`], from [`Reader::records`].
///
/// Each [`Record`] is the game as written: its header, start position and
/// moves in their own notation, with where each was written.
///
/// ```
/// let kif = "先手：羽生\n後手：森内\n手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 投了\n";
/// let mut reader = kifu::Reader::from_reader(kif.as_bytes())?;
/// let record = reader.records().next().unwrap()?;
/// assert_eq!(record.header_value(&["先手"]), Some("羽生"));
/// assert_eq!(record.main.moves.len(), 2);
/// assert_eq!(record.main.moves[1].span.line, 5);
/// assert!(record.main.ending.is_some());
/// # Ok::<(), kifu::Error>(())
/// ```
#[derive(Debug)]
pub struct Records<'r, R> {
    reader: &'r mut Reader<R>,
}

impl<R: Read> Iterator for Records<'_, R> {
    type Item = Result<Record, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        self.reader.next_record()
    }
}
