//! A multi-game CSA file of any size, read a batch of games at a time.
//!
//! The bytes are cut at `/` lines before they are decoded (`/` is ASCII in
//! every encoding a CSA file uses, and no Shift_JIS byte equals `\n`), each
//! game is decoded on its own, and [`FileState`] gives it its index and the
//! fields the games before it wrote, as the file read whole would.

use crate::reading::{Item, replayed};
use kifu::decode::decode;
use kifu::error::{Error, ErrorKind};
use kifu::parse::csa::{FileState, SlashSearch, find_slash_line};
use std::io::Read;
use std::path::Path;

/// Files at least this large are streamed when they are CSA.
pub const STREAM_MIN_BYTES: u64 = 4 << 20;

/// How many bytes are read at a time.
const BLOCK_BYTES: usize = 1 << 20;

/// How many bytes choose the format and the encoding.
const SNIFF_BYTES: usize = 64 * 1024;

/// Games handed on at a time.
pub const BATCH_GAMES: usize = 64;

/// Whether `prefix` starts a CSA text; the encoding to decode its games in.
pub fn sniff(prefix: &[u8], path: &Path) -> Option<&'static encoding_rs::Encoding> {
    let cut = prefix
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(prefix.len(), |i| i + 1);
    let decoded = decode(&prefix[..cut], None).ok()?;
    let hint = kifu::input::format_hint(path);
    (kifu::parse::detect(&decoded.text, hint) == Some(kifu::Format::Csa))
        .then_some(decoded.encoding)
}

/// How many lines end in `b`: LF, CRLF and a bare CR each end one.
fn line_ends(b: &[u8]) -> u32 {
    let lf = memchr_count(b, b'\n');
    let cr = memchr_count(b, b'\r');
    let crlf = if cr == 0 {
        0
    } else {
        b.windows(2).filter(|w| w == b"\r\n").count()
    };
    (lf + cr - crlf) as u32
}

fn memchr_count(b: &[u8], c: u8) -> usize {
    b.iter().filter(|&&x| x == c).count()
}

/// Read the CSA file at `path` and hand its items to `send` in batches of
/// at most [`BATCH_GAMES`] games; stops early when `send` returns false.
/// Memory holds one block, the game being cut, and one batch.
pub fn read_streamed(
    path: &Path,
    encoding: &'static encoding_rs::Encoding,
    mut send: impl FnMut(Vec<Item>) -> bool,
) {
    let name = path.display().to_string();
    let io = |e| Error::new(ErrorKind::Io(e)).with_path(path);
    let mut file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) => {
            send(vec![Item::Error(io(e))]);
            return;
        }
    };
    let mut state = FileState::new();
    let mut buf: Vec<u8> = Vec::with_capacity(BLOCK_BYTES * 2);
    let (mut start, mut scan, mut eof) = (0usize, 0usize, false);
    // The file offset of `buf[0]`, and the line `buf[start]` is on.
    let (mut consumed, mut line) = (0usize, 1u32);
    let mut batch = Vec::new();
    let mut games_in_batch = 0;
    loop {
        let cut = match find_slash_line(&buf, start, scan, eof) {
            SlashSearch::Found { start: s, next } => Some((s, next)),
            SlashSearch::Incomplete { resume } => {
                scan = resume;
                None
            }
            SlashSearch::NotFound => {
                scan = buf.len();
                None
            }
        };
        let (end, next) = match cut {
            Some(c) => c,
            None if eof => (buf.len(), buf.len()),
            None => {
                // Drop the bytes of the games already read, then read on.
                buf.drain(..start);
                consumed += start;
                scan -= start;
                start = 0;
                let n = (&mut file).take(BLOCK_BYTES as u64).read_to_end(&mut buf);
                match n {
                    Ok(0) => eof = true,
                    Ok(_) => {}
                    Err(e) => {
                        batch.push(Item::Error(io(e)));
                        send(batch);
                        return;
                    }
                }
                continue;
            }
        };
        let game = &buf[start..end];
        if let Some(item) = read_game(&mut state, game, line, consumed + start, encoding, &name) {
            batch.push(item);
            games_in_batch += 1;
        }
        line += line_ends(&buf[start..next]);
        start = next;
        scan = next;
        if games_in_batch >= BATCH_GAMES {
            games_in_batch = 0;
            if !send(std::mem::take(&mut batch)) {
                return;
            }
        }
        if cut.is_none() {
            break;
        }
    }
    if !batch.is_empty() {
        send(batch);
    }
}

/// One game's bytes: decoded, parsed and replayed; `None` for a piece with
/// no statement (blank lines between `/` lines).
fn read_game(
    state: &mut FileState,
    bytes: &[u8],
    line: u32,
    offset: usize,
    encoding: &'static encoding_rs::Encoding,
    name: &str,
) -> Option<Item> {
    // A file that opens in ASCII can hold Shift_JIS names further on: a
    // game that does not decode in the file's encoding is sniffed afresh.
    let decoded = match decode(bytes, Some(encoding)) {
        Ok(d) if d.warnings.is_empty() => d,
        _ => match decode(bytes, None) {
            Ok(d) => d,
            Err(e) => return Some(Item::Error(e.with_path(name))),
        },
    };
    match state.parse_game(&decoded.text, line, offset) {
        Ok(None) => None,
        Ok(Some(record)) => Some(replayed(
            record,
            name,
            decoded.encoding.name(),
            kifu::Format::Csa,
        )),
        Err(e) => Some(Item::Error(Error::from(e).with_path(name))),
    }
}

/// The first bytes of the file at `path` and its length.
pub fn peek(path: &Path) -> std::io::Result<(Vec<u8>, u64)> {
    let file = std::fs::File::open(path)?;
    let len = file.metadata()?.len();
    let mut prefix = Vec::with_capacity(SNIFF_BYTES);
    file.take(SNIFF_BYTES as u64).read_to_end(&mut prefix)?;
    Ok((prefix, len))
}
