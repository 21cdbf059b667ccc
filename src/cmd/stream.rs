//! Reading a multi-game CSA file as a stream of games, so a file of any size
//! is checked or converted in bounded memory.
//!
//! The bytes are cut at `/` lines before they are decoded: `/` is ASCII in
//! every encoding a CSA file may use (ASCII, Shift_JIS, UTF-8), and Shift_JIS
//! trail bytes never equal `\n`, so the cut never splits a character. The
//! encoding is chosen once from the first bytes, then each game is decoded
//! on its own; a game that does not decode cleanly in it is detected afresh,
//! since a file that opens in pure ASCII can hold Shift_JIS names later.

use kifu::decode::decode;
use kifu::error::{Error, ErrorKind};
use kifu::input::ReadOptions;
use kifu::parse::csa::FileState;
use kifu::{Format, Record};
use std::io::BufRead;

/// How many bytes are looked at to choose the format and the encoding.
pub const SNIFF_BYTES: usize = 64 * 1024;

/// Files at least this large are streamed when they are CSA: below it,
/// reading the whole file costs no more memory than a batch of games.
pub const STREAM_MIN_BYTES: u64 = 256 * 1024;

/// One game's raw bytes.
struct RawGame {
    bytes: Vec<u8>,
}

/// One game read from a stream: its index in the file, the record or why it
/// could not be read, and decoding warnings.
pub struct StreamedGame {
    /// 0-based index of the game within the file.
    pub index: usize,
    /// The record, or the error that stopped this game (not the file).
    pub record: Result<Record, Error>,
    /// Decoding problems in this game's bytes.
    pub warnings: Vec<String>,
}

/// The first bytes of `reader`, without consuming them.
pub fn peek<R: BufRead>(reader: &mut R) -> std::io::Result<Vec<u8>> {
    Ok(reader.fill_buf()?.to_vec())
}

/// Whether a peeked prefix is a CSA text (or the user said so), and the
/// encoding to decode its games with.
pub fn sniff(
    prefix: &[u8],
    opts: &ReadOptions,
    hint: Option<Format>,
) -> Option<&'static encoding_rs::Encoding> {
    // Cut at the last line end so a multi-byte character is never split.
    let cut = prefix
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(prefix.len(), |i| i + 1);
    let decoded = decode(&prefix[..cut], opts.encoding).ok()?;
    let is_csa = match opts.from {
        Some(f) => f == Format::Csa,
        None => kifu::parse::detect(&decoded.text, hint) == Some(Format::Csa),
    };
    is_csa.then_some(decoded.encoding)
}

/// Read every game of the CSA stream `reader`, handing them to `sink` in
/// batches of at most `batch` games, in file order. A game that fails to
/// parse is handed on as an error and the next game is read; only an I/O
/// error stops the stream.
pub fn games<R: BufRead>(
    mut reader: R,
    encoding: &'static encoding_rs::Encoding,
    opts: &ReadOptions,
    path: &str,
    batch: usize,
    mut sink: impl FnMut(Vec<StreamedGame>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut state = FileState::new();
    // The line the next game starts on.
    let mut line_no: u32 = 1;
    // Offsets in spans count decoded bytes, as for a file read whole.
    let mut offset: usize = 0;
    let mut pending: Vec<StreamedGame> = Vec::with_capacity(batch);
    let mut raw = RawGame { bytes: Vec::new() };
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let n = reader
            .read_until(b'\n', &mut buf)
            .map_err(|e| Error::new(ErrorKind::Io(e)).with_path(path))?;
        let at_end = n == 0;
        let is_slash = !at_end && buf.trim_ascii() == b"/";
        if !at_end && !is_slash {
            raw.bytes.extend_from_slice(&buf);
            continue;
        }
        let game = std::mem::replace(&mut raw, RawGame { bytes: Vec::new() });
        let forced = opts.encoding.is_some();
        let mut d = decode(&game.bytes, Some(encoding))
            .map_err(|e| e.with_path(path))
            .map_err(anyhow::Error::from)?;
        if !forced && !d.warnings.is_empty() {
            d = decode(&game.bytes, None).map_err(|e| e.with_path(path))?;
        }
        let parsed = state.parse_game(&d.text, line_no, offset);
        // Count lines as the parser does (bare CR included), plus the `/` line.
        line_no += kifu::parse::lines(&d.text).count() as u32 + 1;
        offset += d.text.len() + buf.len();
        let index = match &parsed {
            Ok(Some(r)) => Some(r.index),
            Ok(None) => None,
            // A failed game still took an index (see FileState::parse_game).
            Err(_) => Some(state.games().saturating_sub(1)),
        };
        if let Some(index) = index {
            pending.push(StreamedGame {
                index,
                record: parsed
                    .map(|r| r.unwrap_or_default())
                    .map_err(|e| Error::from(e).with_path(path)),
                warnings: d.warnings,
            });
        }
        if pending.len() >= batch || (at_end && !pending.is_empty()) {
            sink(std::mem::take(&mut pending))?;
        }
        if at_end {
            return Ok(());
        }
    }
}
