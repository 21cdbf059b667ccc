//! A multi-game CSA text read as a stream of games, in bounded memory.
//!
//! Floodgate and tournament logs hold hundreds of thousands of games in one
//! CSA file. The bytes are cut at `/` lines before they are decoded: `/` and
//! line ends are ASCII in every encoding a CSA file uses (ASCII, Shift_JIS,
//! EUC-JP, UTF-8), and no multi-byte character of those holds them, so a
//! cut never splits a character. The steps are apart so that the middle one
//! can run on several threads:
//!
//! 1. [`Chunks`] (one thread, in file order) cuts the bytes into games,
//!    counts their lines and decodes the rare game that is not plain ASCII
//!    (the offsets of later games depend on its decoded length);
//! 2. [`Chunk::read`] (any thread) reads each game's syntax;
//! 3. [`Placer::place`] (in file order again) gives each game its index and
//!    the file's version and encoding fields.
//!
//! [`Reader`](super::Reader) runs the three in turn; `kifu check` and
//! `kifu convert` run the middle one on their worker threads.

use crate::decode::{decode_in_file, is_plain_ascii};
use crate::error::{Error, ErrorKind};
use crate::parse::csa::{GameRead, InFile, SlashSearch, find_slash_line, line_ends, read_game};
use crate::record::Record;
use encoding_rs::Encoding;
use std::collections::VecDeque;
use std::io::Read;
use std::sync::Arc;

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

/// Cuts a byte stream into games at `/` lines, reading it in large blocks,
/// by the rule a text read whole is cut by ([`find_slash_line`]).
#[derive(Debug)]
struct Cutter<R> {
    reader: R,
    buf: Vec<u8>,
    /// The blocks given out, oldest first, to be reused once their games
    /// are read (see [`Cutter::spare_buffer`]).
    given: VecDeque<Arc<Vec<u8>>>,
    /// How many buffers were allocated rather than reused.
    fresh: usize,
    /// Start of the game not cut yet.
    start: usize,
    /// Where to look for the next `/`: no `/` line starts before it.
    scan: usize,
    eof: bool,
    /// The final game has been cut.
    done: bool,
    /// Reading failed: the games wholly read before it are still cut, and
    /// then the error is given.
    failed: Option<std::io::Error>,
}

impl<R: Read> Cutter<R> {
    fn new(reader: R) -> Self {
        Cutter {
            reader,
            buf: Vec::new(),
            given: VecDeque::new(),
            fresh: 0,
            start: 0,
            scan: 0,
            eof: false,
            done: false,
            failed: None,
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
                None => {
                    if let Some(e) = self.failed.take() {
                        self.done = true;
                        return Err(e);
                    }
                    // Not one whole game yet: a game longer than a block
                    // grows the buffer until it ends.
                    if let Err(e) = self.fill() {
                        self.failed = Some(e);
                    }
                }
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

    /// Read one more block; at the end of the stream, note it. The bytes
    /// read before an error are kept.
    fn fill(&mut self) -> std::io::Result<()> {
        self.buf.reserve(BLOCK_BYTES);
        let n = loop {
            match (&mut self.reader)
                .take(BLOCK_BYTES as u64)
                .read_to_end(&mut self.buf)
            {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                other => break other?,
            }
        };
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
#[derive(Debug)]
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
    warnings: Vec<crate::decode::DecodeWarning>,
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

/// A run of consecutive games of a CSA stream, cut and placed (line,
/// offset) but not read yet: [`Chunk::read`] reads them, on any thread.
#[derive(Debug)]
pub struct Chunk {
    seq: usize,
    block: Arc<Vec<u8>>,
    games: Vec<PlacedGame>,
    /// Why the stream stopped after these games, if it did.
    failure: Option<Error>,
}

impl Chunk {
    /// Its position among the chunks of its stream, from 0: the order in
    /// which [`Placer::place`] must be given them.
    pub fn seq(&self) -> usize {
        self.seq
    }

    /// Read the syntax of every game of the chunk. This needs nothing of the
    /// games before it, so chunks can be read on several threads at once.
    pub fn read(self) -> ReadChunk {
        let block = self.block.as_slice();
        let games = self
            .games
            .iter()
            .map(|p| read_game(p.text_in(block), p.line, p.offset))
            .collect();
        let warnings = self.games.into_iter().map(|p| p.warnings).collect();
        ReadChunk {
            seq: self.seq,
            games,
            warnings,
            failure: self.failure,
        }
    }
}

/// The games of a [`Chunk`], read, waiting for their places in the file.
#[derive(Debug)]
pub struct ReadChunk {
    seq: usize,
    games: Vec<GameRead>,
    warnings: Vec<Vec<crate::decode::DecodeWarning>>,
    failure: Option<Error>,
}

impl ReadChunk {
    /// The [`Chunk::seq`] of the chunk it was read from.
    pub fn seq(&self) -> usize {
        self.seq
    }
}

/// What a placed chunk holds, in file order.
#[derive(Debug)]
// Most items are games, each taken out as soon as it is placed: boxing the
// record would cost an allocation per game for nothing.
#[allow(clippy::large_enum_variant)]
pub enum Item {
    /// A problem met decoding a game's bytes (replaced bytes, say), before
    /// the game itself.
    Warning {
        /// The game's index in the file, from 0.
        game: usize,
        /// What was wrong.
        warning: crate::decode::DecodeWarning,
    },
    /// A game: its record, or why it is not a valid CSA game (the games
    /// after it are still read).
    Game {
        /// Its index in the file, from 0.
        index: usize,
        /// The record, or the parse error.
        record: Result<Record, Error>,
    },
    /// The stream ended here: the input failed to read
    /// ([`ErrorKind::Io`]) or a game did not decode
    /// ([`DecodeError::InGame`](crate::DecodeError::InGame), naming its
    /// line). Later games are not read, since their positions are unknown.
    Failed(Error),
}

/// The state of a CSA stream read in file order: the file's version and
/// encoding fields, and how many games came before.
#[derive(Debug, Default)]
pub struct Placer {
    file: InFile,
}

impl Placer {
    /// Give the games of `chunk` their places in the file: each game's
    /// decoding warnings, then the game; the failure, if any, last. Chunks
    /// must come in [`seq`](ReadChunk::seq) order; a piece of text that
    /// held no statement takes no index and gives no item.
    pub fn place(&mut self, chunk: ReadChunk) -> Vec<Item> {
        let mut items = Vec::with_capacity(chunk.games.len() + 1);
        for (game, warnings) in chunk.games.into_iter().zip(chunk.warnings) {
            let Some((index, record)) = self.file.place(game) else {
                continue;
            };
            items.extend(warnings.into_iter().map(|warning| Item::Warning {
                game: index,
                warning,
            }));
            items.push(Item::Game {
                index,
                record: record.map_err(|e| Error::new(ErrorKind::Parse(e))),
            });
        }
        items.extend(chunk.failure.map(Item::Failed));
        items
    }
}

/// The [`Chunk`]s of a CSA stream, in file order, each of at most a given
/// number of games.
///
/// Memory holds the blocks whose games are not read yet and the game being
/// cut, so it is bounded by the chunks in flight and the largest game, not
/// by the file. UTF-16 text cannot be cut this way: read such a text whole.
#[derive(Debug)]
pub struct Chunks<R> {
    cutter: Cutter<R>,
    /// The block being given out and its cuts not yet placed.
    block: Arc<Vec<u8>>,
    cuts: VecDeque<Cut>,
    encoding: &'static Encoding,
    forced: bool,
    per_chunk: usize,
    seq: usize,
    /// The line and decoded byte offset the next game starts at.
    line: u32,
    offset: usize,
    done: bool,
}

impl<R: Read> Chunks<R> {
    /// The chunks of the CSA text in `reader`, at most `per_chunk` games
    /// each, decoded in `encoding`. Unless `forced`, a game that does not
    /// read cleanly in it is detected on its own, since a file that opens
    /// in plain ASCII can hold Shift_JIS names later.
    pub fn new(
        reader: R,
        encoding: &'static Encoding,
        forced: bool,
        per_chunk: usize,
    ) -> Chunks<R> {
        Chunks {
            cutter: Cutter::new(reader),
            block: Arc::new(Vec::new()),
            cuts: VecDeque::new(),
            encoding,
            forced,
            per_chunk: per_chunk.max(1),
            seq: 0,
            line: 1,
            offset: 0,
            done: false,
        }
    }

    fn chunk(&mut self, games: Vec<PlacedGame>, failure: Option<Error>) -> Chunk {
        self.seq += 1;
        self.done |= failure.is_some();
        Chunk {
            seq: self.seq - 1,
            block: Arc::clone(&self.block),
            games,
            failure,
        }
    }

    /// The game `cut` of the current block, placed at the current line and
    /// offset, which move past it and its `/` line. Plain ASCII is its own
    /// text; anything else is decoded here, since the offsets of every later
    /// game depend on its decoded length.
    fn place(&mut self, cut: Cut) -> Result<PlacedGame, Error> {
        let block = self.block.as_slice();
        let bytes = &block[cut.start..cut.end];
        let slash = &block[cut.end..cut.end + cut.slash];
        let mut piece = PlacedGame {
            start: cut.start,
            end: cut.end,
            text: None,
            line: self.line,
            offset: self.offset,
            warnings: Vec::new(),
        };
        if is_plain_ascii(bytes) && self.encoding.is_ascii_compatible() {
            self.line += line_ends(&block[cut.start..cut.end + cut.slash]);
            self.offset += bytes.len() + cut.slash;
            return Ok(piece);
        }
        let d = decode_in_file(bytes, Some(self.encoding), self.forced, self.line)?;
        self.line += line_ends(d.text.as_bytes()) + line_ends(slash);
        self.offset += d.text.len() + cut.slash;
        piece.warnings = d.warnings;
        piece.text = Some(d.text);
        Ok(piece)
    }
}

impl<R: Read> Iterator for Chunks<R> {
    type Item = Chunk;

    fn next(&mut self) -> Option<Chunk> {
        if self.done {
            return None;
        }
        if self.cuts.is_empty() {
            match self.cutter.next_block() {
                Ok(Some((block, cuts))) => {
                    self.block = block;
                    self.cuts = cuts.into();
                }
                Ok(None) => {
                    self.done = true;
                    return None;
                }
                Err(e) => return Some(self.chunk(Vec::new(), Some(Error::new(ErrorKind::Io(e))))),
            }
        }
        let mut games = Vec::with_capacity(self.per_chunk.min(self.cuts.len()));
        while games.len() < self.per_chunk
            && let Some(cut) = self.cuts.pop_front()
        {
            match self.place(cut) {
                Ok(piece) => games.push(piece),
                Err(e) => return Some(self.chunk(games, Some(e))),
            }
        }
        Some(self.chunk(games, None))
    }
}

impl<R: Read> std::iter::FusedIterator for Chunks<R> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reader::mixed_csa::mixed_file;

    /// `games` copies of one short game, made as they are read: the whole
    /// text never exists in memory.
    struct Games {
        left: usize,
        pending: Vec<u8>,
    }

    impl Read for Games {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            if self.pending.is_empty() && self.left > 0 {
                self.left -= 1;
                self.pending = b"N+a\nN-b\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n/\n".to_vec();
            }
            let k = buf.len().min(self.pending.len());
            buf[..k].copy_from_slice(&self.pending[..k]);
            self.pending.drain(..k);
            Ok(k)
        }
    }

    #[test]
    fn a_long_stream_is_read_in_memory_bounded_by_a_block_and_a_game() {
        let games = 60_000; // about 2.4 MB of text: 9 blocks
        let source = Games {
            left: games,
            pending: Vec::new(),
        };
        let mut chunks = Chunks::new(source, encoding_rs::UTF_8, false, 7);
        let mut placer = Placer::default();
        let mut read = 0;
        let mut largest = 0;
        while let Some(chunk) = chunks.next() {
            for item in placer.place(chunk.read()) {
                let Item::Game { index, record } = item else {
                    panic!("{item:?}");
                };
                assert_eq!(index, read);
                record.unwrap();
                read += 1;
            }
            largest = largest.max(chunks.cutter.buf.capacity());
        }
        assert_eq!(read, games);
        assert!(largest <= 3 * BLOCK_BYTES, "buffer grew to {largest} bytes");
        // Read one chunk at a time, two buffers take turns.
        assert!(chunks.cutter.fresh <= 2, "{} buffers", chunks.cutter.fresh);
        // Lines keep counting across blocks: 8 lines a game.
        assert_eq!(chunks.line, 8 * games as u32 + 1);
    }

    #[test]
    fn chunks_give_the_games_of_a_whole_read_in_any_chunk_size() {
        let text = mixed_file(20_000);
        assert!(text.len() > 2 * BLOCK_BYTES);
        let whole: Vec<String> = crate::parse::csa::parse_each(&text)
            .into_iter()
            .map(|(i, r)| format!("{i} {:?}", r.map_err(|e| e.to_string())))
            .collect();
        assert!(whole.iter().any(|g| g.contains("Err(")));
        for per_chunk in [1, 5, 64] {
            let mut placer = Placer::default();
            let mut got = Vec::new();
            for chunk in Chunks::new(text.as_bytes(), encoding_rs::UTF_8, false, per_chunk) {
                for item in placer.place(chunk.read()) {
                    if let Item::Game { index, record } = item {
                        let record = record.map_err(|e| match e.kind() {
                            ErrorKind::Parse(p) => p.to_string(),
                            _ => e.to_string(),
                        });
                        got.push(format!("{index} {record:?}"));
                    }
                }
            }
            assert_eq!(got, whole, "{per_chunk} per chunk");
        }
    }
}
