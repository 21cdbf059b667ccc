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
use kifu::decode::{decode, decode_in_file, is_plain_ascii};
use kifu::error::{Error, ErrorKind};
use kifu::input::ReadOptions;
use kifu::parse::csa::{InFile, SlashSearch, find_slash_line, line_ends, read_game};
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
    /// Decoding problems in this game's bytes.
    warnings: Vec<String>,
}

impl PlacedGame {
    /// The game's text, given the block it was cut from.
    fn text_in<'a>(&'a self, block: &'a [u8]) -> &'a str {
        match &self.text {
            Some(t) => t,
            // The cutter found only ASCII bytes, which are valid UTF-8.
            None => std::str::from_utf8(&block[self.start..self.end]).unwrap_or_default(),
        }
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
            let piece = match place(&block, cut, encoding, forced, line_no, offset) {
                Ok((piece, lines, len)) => {
                    line_no += lines;
                    offset += len;
                    piece
                }
                Err(e) => return feed(chunk(&block, pieces, Some(e.with_path(path)))),
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

/// The game `cut` of `block` placed at `line` and `offset`, with how many
/// lines and decoded bytes it and its `/` line take. Plain ASCII is its own
/// text; anything else is decoded here, since the offsets of every later
/// game depend on its decoded length.
fn place(
    block: &[u8],
    cut: &Cut,
    encoding: &'static encoding_rs::Encoding,
    forced: bool,
    line: u32,
    offset: usize,
) -> Result<(PlacedGame, u32, usize), Error> {
    let bytes = &block[cut.start..cut.end];
    let slash = &block[cut.end..cut.end + cut.slash];
    let mut piece = PlacedGame {
        start: cut.start,
        end: cut.end,
        text: None,
        line,
        offset,
        warnings: Vec::new(),
    };
    if is_plain_ascii(bytes) && encoding.is_ascii_compatible() {
        let lines = line_ends(&block[cut.start..cut.end + cut.slash]);
        return Ok((piece, lines, bytes.len() + cut.slash));
    }
    let d = decode_in_file(bytes, Some(encoding), forced, line)?;
    let lines = line_ends(d.text.as_bytes()) + line_ends(slash);
    let len = d.text.len() + cut.slash;
    piece.warnings = d.warnings;
    piece.text = Some(d.text);
    Ok((piece, lines, len))
}

/// What the games of a file share while its chunks are read on several
/// threads: the [`InFile`] (the file's fields, the game count), handed from
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
    file: InFile,
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
    fn take_turn<T>(&self, seq: usize, f: impl FnOnce(&mut InFile) -> T) -> Option<T> {
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
        let r = catch_unwind(AssertUnwindSafe(|| f(&mut turn.file)));
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
/// their places in the file: the items of the chunk in file order (each
/// game's decoding warnings, then the game; the failure last). A game that
/// fails to parse is an item of its own and the next game is read.
pub fn read_chunk(chunk: Chunk, chain: &Chain, path: &str) -> Vec<Item> {
    let block = chunk.block.as_slice();
    let read = catch_unwind(AssertUnwindSafe(|| {
        chunk
            .games
            .iter()
            .map(|p| read_game(p.text_in(block), p.line, p.offset))
            .collect::<Vec<_>>()
    }));
    let games = match read {
        Ok(games) => games,
        Err(p) => {
            chain.give_up();
            resume_unwind(p)
        }
    };
    let placed = chain.take_turn(chunk.seq, |file| {
        games.into_iter().map(|g| file.place(g)).collect::<Vec<_>>()
    });
    let Some(placed) = placed else {
        return Vec::new();
    };
    let mut items = Vec::with_capacity(placed.len() + 1);
    for (p, game) in chunk.games.into_iter().zip(placed) {
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
}
