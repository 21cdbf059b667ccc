//! Reading a multi-game CSA file as a stream of games, so a file of any size
//! is checked or converted in bounded memory.
//!
//! The bytes are cut at `/` lines before they are decoded: `/` is ASCII in
//! every encoding a CSA file may use (ASCII, Shift_JIS, UTF-8), and Shift_JIS
//! trail bytes never equal `\n`, so the cut never splits a character. The
//! encoding is chosen once from the first bytes, then each game is decoded
//! on its own; a game that does not decode cleanly in it is detected afresh,
//! since a file that opens in pure ASCII can hold Shift_JIS names later.

use super::Item;
use kifu::Format;
use kifu::decode::decode;
use kifu::error::{Error, ErrorKind};
use kifu::input::ReadOptions;
use kifu::parse::csa::{FileState, SlashSearch, find_slash_line, parse_loose_counted};
use std::borrow::Cow;
use std::io::{BufRead, Read};
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::{Arc, Condvar, Mutex, PoisonError};

/// How many bytes are looked at to choose the format and the encoding.
pub const SNIFF_BYTES: usize = 64 * 1024;

/// Files at least this large are streamed when they are CSA: below it,
/// reading the whole file costs no more memory than a batch of games.
pub const STREAM_MIN_BYTES: u64 = 256 * 1024;

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

/// How many bytes are asked of the reader at a time.
const BLOCK_BYTES: usize = 256 * 1024;

/// How many blocks given out are kept for reuse at most.
const SPARE_BLOCKS: usize = 64;

/// Where one game lies in a block.
#[derive(Clone, Copy, Debug)]
struct Cut {
    /// The game's bytes, without the `/` line that ends it.
    start: usize,
    end: usize,
    /// Length of the `/` line after it, terminator included (0 at the end).
    slash: usize,
}

/// Whole games read from a stream: the bytes, and where each game lies.
type Block = (Arc<Vec<u8>>, Vec<Cut>);

/// Cuts a byte stream into games at `/` lines, reading it in large blocks.
///
/// `/` lines are found by [`find_slash_line`], the rule a file read whole is
/// cut by (`kifu::parse::csa::split_games`).
struct Cutter<R> {
    reader: R,
    buf: Vec<u8>,
    /// The blocks given out, oldest first, to be reused once their games
    /// are read (see [`Cutter::spare_buffer`]).
    given: std::collections::VecDeque<Arc<Vec<u8>>>,
    /// How many buffers were allocated rather than reused.
    fresh: usize,
    /// Start of the game not cut yet.
    start: usize,
    /// Where to look for the next `/`: no `/` line starts before it.
    scan: usize,
    eof: bool,
    /// The final game has been cut.
    done: bool,
}

impl<R: Read> Cutter<R> {
    fn new(reader: R) -> Self {
        Cutter {
            reader,
            buf: Vec::new(),
            given: std::collections::VecDeque::new(),
            fresh: 0,
            start: 0,
            scan: 0,
            eof: false,
            done: false,
        }
    }

    /// The next block of whole games: every game the bytes read so far
    /// complete (at least one, reading more as needed), with the block they
    /// lie in. The block is shared with the workers that read its games and
    /// is never written again: the uncut game at its end is copied to the
    /// start of the next one. `None` once the stream is done.
    fn next_block(&mut self) -> std::io::Result<Option<Block>> {
        let mut cuts = Vec::new();
        while !self.done {
            match self.find_slash() {
                Some((line_start, next)) => {
                    cuts.push(Cut {
                        start: self.start,
                        end: line_start,
                        slash: next - line_start,
                    });
                    self.start = next;
                    self.scan = next;
                }
                None if self.eof => {
                    cuts.push(Cut {
                        start: self.start,
                        end: self.buf.len(),
                        slash: 0,
                    });
                    self.start = self.buf.len();
                    self.done = true;
                }
                None if !cuts.is_empty() => break,
                // Not one whole game yet: a game longer than a block grows
                // the buffer until it ends.
                None => self.fill()?,
            }
        }
        if cuts.is_empty() {
            return Ok(None);
        }
        let mut next = self.spare_buffer(self.buf.len() - self.start + BLOCK_BYTES);
        next.extend_from_slice(&self.buf[self.start..]);
        self.scan -= self.start;
        self.start = 0;
        let block = Arc::new(std::mem::replace(&mut self.buf, next));
        self.given.push_back(Arc::clone(&block));
        Ok(Some((block, cuts)))
    }

    /// An empty buffer of at least `capacity` bytes: the oldest block given
    /// out, once every chunk of it is done, else a new one. Blocks are
    /// large enough that the allocator maps and unmaps each one, and every
    /// unmapping stops the other threads for a TLB flush: reusing them
    /// keeps a long stream to a handful of buffers.
    fn spare_buffer(&mut self, capacity: usize) -> Vec<u8> {
        if let Some(oldest) = self.given.front_mut()
            && let Some(buf) = Arc::get_mut(oldest)
        {
            let mut buf = std::mem::take(buf);
            self.given.pop_front();
            buf.clear();
            buf.reserve(capacity);
            return buf;
        }
        // Blocks still read by a worker are not waited for; those done out
        // of order are dropped once nothing newer is waiting behind them.
        while self.given.len() > SPARE_BLOCKS {
            self.given.pop_front();
        }
        self.fresh += 1;
        Vec::with_capacity(capacity)
    }

    /// Read one more block; at the end of the stream, note it.
    fn fill(&mut self) -> std::io::Result<()> {
        self.buf.reserve(BLOCK_BYTES);
        let n = (&mut self.reader)
            .take(BLOCK_BYTES as u64)
            .read_to_end(&mut self.buf)?;
        self.eof = n == 0;
        Ok(())
    }

    /// The next `/` line in the buffer after `scan`: where it starts and
    /// where the game after it starts. `None` when more bytes are needed
    /// (or the stream has none left); `scan` then moves past what was seen.
    fn find_slash(&mut self) -> Option<(usize, usize)> {
        match find_slash_line(&self.buf, self.start, self.scan, self.eof) {
            SlashSearch::Found { start, next } => Some((start, next)),
            SlashSearch::Incomplete { resume } => {
                self.scan = resume;
                None
            }
            SlashSearch::NotFound => {
                self.scan = self.buf.len();
                None
            }
        }
    }
}

/// What one pass over a game's bytes tells: whether they are plain ASCII
/// text (no NUL, nothing above 0x7F), and how many lines
/// [`kifu::parse::lines`] would find in them.
fn scan(b: &[u8]) -> (bool, u32) {
    // The usual game has no control byte but LF, and nothing above 0x7F:
    // then counting LFs is enough, and a pass that also counts every byte
    // below 0x0E or above 0x7F (as a signed byte, below 0x0E) says so in
    // fewer steps than counting CRs and finding the largest byte.
    const LANES: usize = 32;
    let (mut lf, mut low) = (0usize, 0usize);
    let mut blocks = b.chunks_exact(LANES);
    loop {
        let (mut l, mut o) = ([0u8; LANES], [0u8; LANES]);
        let mut steps = 0;
        for block in (&mut blocks).take(255) {
            let block: [u8; LANES] = block.try_into().unwrap_or([0; LANES]);
            for j in 0..LANES {
                let c = block[j];
                l[j] += u8::from(c == b'\n');
                o[j] += u8::from((c as i8) < 0x0e);
            }
            steps += 1;
        }
        lf += l.iter().map(|&n| usize::from(n)).sum::<usize>();
        low += o.iter().map(|&n| usize::from(n)).sum::<usize>();
        if steps < 255 {
            break;
        }
    }
    for &c in blocks.remainder() {
        lf += usize::from(c == b'\n');
        low += usize::from((c as i8) < 0x0e);
    }
    if low > lf {
        return scan_all(b);
    }
    let open_end = usize::from(b.last().is_some_and(|&c| c != b'\n'));
    (true, (lf + open_end) as u32)
}

/// [`scan`] for any bytes.
fn scan_all(b: &[u8]) -> (bool, u32) {
    const LANES: usize = 32;
    // Each lane keeps its own byte-wide counts and is emptied before they
    // can wrap: with no reduction across lanes inside the loop, each step
    // is a handful of vector instructions per 32 bytes.
    let (mut lf, mut cr) = (0usize, 0usize);
    // The largest `c - 1`: NUL wraps to 0xFF and bytes above 0x7F stay
    // above 0x7E, so plain text keeps it below 0x7F.
    let mut worst = [0u8; LANES];
    let mut blocks = b.chunks_exact(LANES);
    loop {
        let (mut l, mut r) = ([0u8; LANES], [0u8; LANES]);
        let mut steps = 0;
        for block in (&mut blocks).take(255) {
            // A copy, so the counters are plainly not the input.
            let block: [u8; LANES] = block.try_into().unwrap_or([0; LANES]);
            for j in 0..LANES {
                let c = block[j];
                l[j] += u8::from(c == b'\n');
                r[j] += u8::from(c == b'\r');
                worst[j] = worst[j].max(c.wrapping_sub(1));
            }
            steps += 1;
        }
        lf += l.iter().map(|&n| usize::from(n)).sum::<usize>();
        cr += r.iter().map(|&n| usize::from(n)).sum::<usize>();
        if steps < 255 {
            break;
        }
    }
    for &c in blocks.remainder() {
        lf += usize::from(c == b'\n');
        cr += usize::from(c == b'\r');
        worst[0] = worst[0].max(c.wrapping_sub(1));
    }
    let plain = worst.iter().all(|&w| w < 0x7f);
    let crlf = if cr == 0 {
        0
    } else {
        b.windows(2).filter(|w| w == b"\r\n").count()
    };
    let open_end = usize::from(b.last().is_some_and(|&c| c != b'\n' && c != b'\r'));
    (plain, (lf + cr - crlf + open_end) as u32)
}

/// One game of a [`Chunk`], placed in its file.
struct PlacedGame {
    /// The game's bytes in the chunk's block.
    start: usize,
    end: usize,
    /// The decoded text when it had to be decoded; `None` when the bytes
    /// are plain ASCII and are their own text.
    text: Option<String>,
    /// The line and decoded byte offset the game starts at.
    line: u32,
    offset: usize,
    /// How many lines the game's text has.
    lines: u32,
    /// Decoding problems in this game's bytes.
    warnings: Vec<String>,
}

impl PlacedGame {
    /// The game's text, given the block it was cut from.
    fn text_in<'a>(&'a self, block: &'a [u8]) -> &'a str {
        match &self.text {
            Some(t) => t,
            // `scan` found only ASCII bytes, which are valid UTF-8.
            None => utf8(&block[self.start..self.end]).unwrap_or(""),
        }
    }
}

/// The text of every game of a chunk. The plain games lie together in the
/// block, so one check that the bytes from the first to the last are UTF-8
/// covers them all, where a check per game (each game's text is wanted
/// twice) cost as much again; when those bytes are not all UTF-8 (a game in
/// between was decoded from Shift_JIS), each game is checked on its own.
fn texts<'a>(games: &'a [PlacedGame], block: &'a [u8]) -> Vec<&'a str> {
    let plain = games.iter().filter(|p| p.text.is_none());
    let from = plain.clone().map(|p| p.start).min().unwrap_or(0);
    let to = plain.map(|p| p.end).max().unwrap_or(from);
    let all = utf8(&block[from..to]);
    games
        .iter()
        .map(|p| match (&p.text, all) {
            (Some(t), _) => t.as_str(),
            (None, Some(all)) => all
                .get(p.start - from..p.end - from)
                .unwrap_or_else(|| p.text_in(block)),
            (None, None) => p.text_in(block),
        })
        .collect()
}

/// `bytes` as text when they are UTF-8, checked by encoding_rs, whose
/// check uses the SIMD instructions the machine has: several times fewer
/// instructions than `std::str::from_utf8`.
fn utf8(bytes: &[u8]) -> Option<&str> {
    match encoding_rs::UTF_8.decode_without_bom_handling_and_without_replacement(bytes)? {
        Cow::Borrowed(text) => Some(text),
        // Only text that is not UTF-8 would be decoded into a new string.
        Cow::Owned(_) => None,
    }
}

/// A run of consecutive games of a stream: cut and placed (line, offset)
/// on the reading thread, then read, numbered and replayed on one worker
/// (see [`read_chunk`]).
pub struct Chunk {
    /// Position among the chunks of its file, from 0.
    seq: usize,
    block: Arc<Vec<u8>>,
    games: Vec<PlacedGame>,
    /// Why the stream stopped after these games, if it did.
    failure: Option<Error>,
}

/// Cut the CSA stream `reader` into chunks of at most `games` games and
/// hand them to `feed` in file order. A read or decoding error ends the
/// stream: it goes out as the failure of a last chunk, after every game
/// before it. Only an error of `feed` is returned.
///
/// This thread only cuts the bytes into games, counts their lines, and
/// decodes the rare game that is not plain ASCII (the offsets of the games
/// after it depend on its decoded length); reading the games is left to
/// [`read_chunk`].
pub fn chunks<R: Read>(
    reader: R,
    encoding: &'static encoding_rs::Encoding,
    opts: &ReadOptions,
    path: &str,
    games: usize,
    mut feed: impl FnMut(Chunk) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let games = games.max(1);
    let mut cutter = Cutter::new(reader);
    let mut seq = 0;
    let mut chunk = |block: &Arc<Vec<u8>>, games: Vec<PlacedGame>, failure: Option<Error>| {
        seq += 1;
        Chunk {
            seq: seq - 1,
            block: Arc::clone(block),
            games,
            failure,
        }
    };
    // The line the next game starts on.
    let mut line_no: u32 = 1;
    // Offsets in spans count decoded bytes, as for a file read whole.
    let mut offset: usize = 0;
    let forced = opts.encoding.is_some();
    let plain_is_text = encoding.is_ascii_compatible();
    let mut block = Arc::new(Vec::new());
    loop {
        let cuts = match cutter.next_block() {
            Ok(Some((b, cuts))) => {
                block = b;
                cuts
            }
            Ok(None) => return Ok(()),
            Err(e) => {
                let e = Error::new(ErrorKind::Io(e)).with_path(path);
                return feed(chunk(&block, Vec::new(), Some(e)));
            }
        };
        let mut pieces = Vec::with_capacity(games.min(cuts.len()));
        for cut in &cuts {
            let bytes = &block[cut.start..cut.end];
            let (plain, lines) = scan(bytes);
            let piece = if plain && plain_is_text {
                let piece = PlacedGame {
                    start: cut.start,
                    end: cut.end,
                    text: None,
                    line: line_no,
                    offset,
                    lines,
                    warnings: Vec::new(),
                };
                line_no += lines + 1;
                offset += bytes.len() + cut.slash;
                piece
            } else {
                let decoded = decode(bytes, Some(encoding)).and_then(|d| {
                    if !forced && !d.warnings.is_empty() {
                        decode(bytes, None)
                    } else {
                        Ok(d)
                    }
                });
                let d = match decoded {
                    Ok(d) => d,
                    Err(e) => {
                        // The games before it are still read; the stream
                        // stops at this one (the offsets of every later
                        // game depend on its decoded length), and says where.
                        let what = match e.kind() {
                            ErrorKind::Decode(m) => m.clone(),
                            _ => e.to_string(),
                        };
                        let e = Error::new(ErrorKind::Decode(format!(
                            "the game starting at line {line_no}: {what} (counted from that \
                             game's first byte); the rest of the file was not read"
                        )));
                        return feed(chunk(&block, pieces, Some(e.with_path(path))));
                    }
                };
                // Count lines as the parser does (bare CR included).
                let lines = kifu::parse::lines(&d.text).count() as u32;
                let piece = PlacedGame {
                    start: cut.start,
                    end: cut.end,
                    line: line_no,
                    offset,
                    lines,
                    warnings: d.warnings,
                    text: None,
                };
                // And the `/` line.
                line_no += lines + 1;
                offset += d.text.len() + cut.slash;
                PlacedGame {
                    text: Some(d.text),
                    ..piece
                }
            };
            pieces.push(piece);
            if pieces.len() == games {
                feed(chunk(&block, std::mem::take(&mut pieces), None))?;
            }
        }
        if !pieces.is_empty() {
            feed(chunk(&block, pieces, None))?;
        }
    }
}

/// What the games of a file share while its chunks are read on several
/// threads: the [`FileState`] (inherited fields, game count), handed from
/// chunk to chunk in file order.
///
/// A chunk waits for the one before it only between reading its games and
/// numbering them, so this never deadlocks as long as chunks *start* in
/// file order: [`pipeline::run`](super::pipeline::run) spawns them from one
/// thread outside the pool, in FIFO order, and a chunk takes its turn
/// before it does anything that could wait on other jobs.
#[derive(Default)]
pub struct Chain {
    turn: Mutex<Turn>,
    changed: Condvar,
}

#[derive(Default)]
struct Turn {
    /// The chunk whose turn it is.
    next: usize,
    state: FileState,
    /// A chunk panicked before its turn: the chunks after it give up
    /// instead of waiting for ever (the panic reaches the caller).
    broken: bool,
    /// How many chunks are waiting for their turn: with none, passing the
    /// turn on needs no wake-up call.
    waiting: usize,
}

impl Chain {
    /// Run `f` on the file state once every chunk before `seq` has had its
    /// turn, then pass the turn on. `None` when an earlier chunk panicked.
    fn take_turn<T>(&self, seq: usize, f: impl FnOnce(&mut FileState) -> T) -> Option<T> {
        let mut turn = self.turn.lock().unwrap_or_else(PoisonError::into_inner);
        while turn.next != seq && !turn.broken {
            turn.waiting += 1;
            turn = self
                .changed
                .wait(turn)
                .unwrap_or_else(PoisonError::into_inner);
            turn.waiting -= 1;
        }
        if turn.broken {
            return None;
        }
        let r = catch_unwind(AssertUnwindSafe(|| f(&mut turn.state)));
        turn.next += 1;
        turn.broken |= r.is_err();
        let wake = turn.waiting > 0;
        drop(turn);
        if wake {
            self.changed.notify_all();
        }
        Some(r.unwrap_or_else(|p| resume_unwind(p)))
    }

    /// Chunk `seq` will never take its turn.
    fn give_up(&self) {
        let mut turn = self.turn.lock().unwrap_or_else(PoisonError::into_inner);
        turn.broken = true;
        drop(turn);
        self.changed.notify_all();
    }
}

/// Read the games of `chunk`, then, in its turn on `chain`, give them
/// their indices and inherited fields: the items of the chunk in file order
/// (each game's decoding warnings, then the game; the failure last). A game
/// that fails to parse is an item of its own and the next game is read.
pub fn read_chunk(chunk: Chunk, chain: &Chain, path: &str) -> Vec<Item> {
    let texts = texts(&chunk.games, chunk.block.as_slice());
    let read = catch_unwind(AssertUnwindSafe(|| {
        chunk
            .games
            .iter()
            .zip(&texts)
            .map(|(p, text)| parse_loose_counted(text, p.line, p.offset, p.lines))
            .collect::<Vec<_>>()
    }));
    let loose = match read {
        Ok(loose) => loose,
        Err(p) => {
            chain.give_up();
            resume_unwind(p)
        }
    };
    let adopted = chain.take_turn(chunk.seq, |state| {
        loose
            .into_iter()
            .zip(chunk.games.iter().zip(&texts))
            .map(|(game, (p, text))| {
                let parsed = state.adopt(game, text, p.line, p.offset);
                match parsed {
                    Ok(Some(r)) => Some((r.index, Ok(r))),
                    Ok(None) => None,
                    // A failed game still took an index (see FileState::parse_game).
                    Err(e) => Some((state.games().saturating_sub(1), Err(e))),
                }
            })
            .collect::<Vec<_>>()
    });
    let Some(adopted) = adopted else {
        return Vec::new();
    };
    let mut items = Vec::with_capacity(adopted.len() + 1);
    for (p, game) in chunk.games.into_iter().zip(adopted) {
        let Some((index, record)) = game else {
            continue;
        };
        items.extend(
            p.warnings
                .into_iter()
                .map(|w| Item::Warning(format!("game {}: {w}", index + 1))),
        );
        items.push(Item::Game {
            index,
            record: record.map_err(|e| Error::from(e).with_path(path)),
        });
    }
    items.extend(chunk.failure.map(Item::Unreadable));
    items
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cmd::pipeline;

    /// A multi-game CSA text whose games vary: file fields that change, a
    /// Shift_JIS-free but non-ASCII name, games that fail to parse, blank
    /// pieces, and games of every length.
    fn mixed_file(games: usize) -> String {
        let mut out = String::new();
        for g in 0..games {
            if g > 0 {
                out.push_str("/\n");
            }
            match g % 11 {
                0 => out.push_str(&format!("V2.{}\n", g % 3)),
                3 => out.push_str("\n\n"),
                _ => {}
            }
            if g % 11 == 3 {
                continue;
            }
            let name = if g % 7 == 2 { "先手" } else { "black" };
            out.push_str(&format!("N+{name}{g}\nN-white{g}\n$EVENT:e{g}\nPI\n+\n"));
            let moves = ["+7776FU", "-3334FU", "+8822UM", "-3122GI"];
            for m in moves.iter().take(g % 5) {
                out.push_str(m);
                out.push('\n');
            }
            if g % 13 == 5 {
                out.push_str("+77\n");
            }
            if g % 4 == 0 {
                out.push_str("%TORYO\n");
            }
        }
        out
    }

    /// What an item says, for comparing runs.
    fn describe(item: &Item) -> String {
        match item {
            Item::Warning(w) => format!("warning {w}"),
            Item::Game { index, record } => format!("{index} {record:?}"),
            Item::Unreadable(e) => format!("unreadable {e}"),
        }
    }

    #[test]
    fn chunks_read_on_several_threads_give_the_games_of_a_read_in_file_order() {
        let text = mixed_file(300);
        let expected: Vec<String> = kifu::parse::csa::parse_each(&text)
            .into_iter()
            .map(|(index, r)| Item::Game {
                index,
                record: r.map_err(|e| Error::from(e).with_path("f.csa")),
            })
            .map(|i| describe(&i))
            .collect();
        assert!(expected.len() > 250, "{}", expected.len());
        assert!(expected.iter().any(|e| e.contains("Err(")));
        for (threads, per_chunk) in [(1, 1), (2, 3), (4, 1), (4, 7), (3, 64)] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let chain = Chain::default();
            let work = |c: Chunk| read_chunk(c, &chain, "f.csa");
            let mut got = Vec::new();
            let opts = ReadOptions::default();
            pipeline::run(
                &pool,
                threads * 2,
                &work,
                |items: Vec<Item>| {
                    got.extend(items.iter().map(describe));
                    Ok(())
                },
                |feeder| {
                    chunks(
                        text.as_bytes(),
                        encoding_rs::UTF_8,
                        &opts,
                        "f.csa",
                        per_chunk,
                        |c| feeder.feed(c),
                    )
                },
            )
            .unwrap();
            assert_eq!(got, expected, "{threads} threads, {per_chunk} per chunk");
        }
    }

    #[test]
    fn the_cutter_reuses_blocks_once_read_and_loses_no_byte() {
        let text = mixed_file(25_000);
        assert!(text.len() > 4 * BLOCK_BYTES, "{}", text.len());
        let mut cutter = Cutter::new(text.as_bytes());
        let mut rebuilt = Vec::new();
        let mut blocks = 0;
        while let Some((block, cuts)) = cutter.next_block().unwrap() {
            blocks += 1;
            for c in &cuts {
                rebuilt.extend_from_slice(&block[c.start..c.end + c.slash]);
            }
            // Every chunk of the block is done once it is dropped here.
        }
        assert_eq!(String::from_utf8(rebuilt).unwrap(), text);
        // Two buffers take turns: the one being filled, the one given out.
        assert!(blocks >= 5, "{blocks} blocks");
        assert_eq!(cutter.fresh, 1, "buffers allocated for {blocks} blocks");
    }

    #[test]
    fn a_chunk_that_panicked_lets_the_later_ones_go_on() {
        let chain = Chain::default();
        assert_eq!(chain.take_turn(0, |_| 1), Some(1));
        // Chunk 1 panicked while reading its games.
        chain.give_up();
        // Chunk 2 neither waits for ever nor takes the state.
        assert_eq!(chain.take_turn(2, |_| 2), None);
    }

    #[test]
    fn a_chunk_gives_each_game_the_text_it_would_get_alone() {
        // Plain games around one decoded from Shift_JIS, whose raw bytes are
        // not UTF-8, and a chunk of plain games only.
        let block = b"PI\n+\n/\nN+\x90\xe6\n/\n\n/\n+7776FU\n".to_vec();
        let piece = |start, end, text: Option<&str>| PlacedGame {
            start,
            end,
            text: text.map(str::to_string),
            line: 1,
            offset: 0,
            lines: 1,
            warnings: Vec::new(),
        };
        let games = [
            piece(0, 5, None),
            piece(7, 12, Some("N+先")),
            piece(14, 15, None),
            piece(17, 25, None),
        ];
        let alone: Vec<&str> = games.iter().map(|p| p.text_in(&block)).collect();
        assert_eq!(alone, ["PI\n+\n", "N+先", "\n", "+7776FU\n"]);
        assert_eq!(texts(&games, &block), alone);
        assert_eq!(texts(&games[2..], &block), alone[2..]);
        assert_eq!(texts(&games[..1], &block), alone[..1]);
        assert!(texts(&[], &block).is_empty());
        // The check agrees with the standard library's.
        for bytes in [
            &b""[..],
            b"+7776FU\n",
            "N+先".as_bytes(),
            b"N+\x90\xe6",
            b"\xe5\x85",
        ] {
            assert_eq!(utf8(bytes), std::str::from_utf8(bytes).ok(), "{bytes:?}");
        }
    }

    #[test]
    fn scan_agrees_with_plain_loops() {
        let mixed: &[u8] = &[b'a', b'/', b'\n', b'\r', 0, 0x80, 0x2e, 0x0a ^ 0x80, 0xff];
        // Long plain texts reach the lane counters' flush and the line
        // count, with CRs (the careful pass) and with LFs only (the quick
        // one); a few odd bytes in long texts leave the quick one.
        let plain_only: &[u8] = b"aaaaaa\n\r/";
        let lf_only: &[u8] = b"aaaaaa\n/";
        let rare_odd: Vec<u8> = [&[b'a'; 2000][..], b"\n\t\x0d\x0e\x7f\x80"].concat();
        let mut seed = 7u32;
        let lens = (0..70).map(|n| (n, mixed));
        let long = [8159, 8160, 8161, 8192, 16400].into_iter();
        let long = long.flat_map(|n| [(n, plain_only), (n, lf_only), (n, &rare_odd[..])]);
        for (len, alphabet) in lens.chain(long) {
            for _ in 0..20 {
                let b: Vec<u8> = (0..len)
                    .map(|_| {
                        seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                        alphabet[(seed >> 16) as usize % alphabet.len()]
                    })
                    .collect();
                let plain = b.iter().all(|&c| c != 0 && c < 0x80);
                let (got_plain, got_lines) = scan(&b);
                assert_eq!(got_plain, plain, "{b:?}");
                if plain {
                    let text = std::str::from_utf8(&b).unwrap();
                    assert_eq!(
                        got_lines as usize,
                        kifu::parse::lines(text).count(),
                        "{b:?}"
                    );
                }
            }
        }
    }
}
