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
use kifu::input::ReadOptions;
use kifu::reader::csa::{self, Placer};
use std::io::{BufRead, Read};
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::{Condvar, Mutex, PoisonError};

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

/// A run of consecutive games of a stream, cut on the reading thread and
/// read, placed and replayed on a worker (see [`read_chunk`]).
pub type Chunk = kifu::reader::csa::Chunk;

/// Cut the CSA stream `reader` into chunks of at most `games` games and
/// hand them to `feed` in file order. A read or decoding error ends the
/// stream: it goes out as the failure of a last chunk, after every game
/// before it. Only an error of `feed` is returned.
pub fn chunks<R: Read>(
    reader: R,
    encoding: &'static encoding_rs::Encoding,
    opts: &ReadOptions,
    games: usize,
    mut feed: impl FnMut(Chunk) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let forced = opts.encoding.is_some();
    kifu::reader::csa::Chunks::new(reader, encoding, forced, games).try_for_each(&mut feed)
}

/// What the games of a file share while its chunks are read on several
/// threads: the [`Placer`] (the file's fields, the game count), handed from
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
    file: Placer,
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
    fn take_turn<T>(&self, seq: usize, f: impl FnOnce(&mut Placer) -> T) -> Option<T> {
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
    let seq = chunk.seq();
    let read = match catch_unwind(AssertUnwindSafe(|| chunk.read())) {
        Ok(read) => read,
        Err(p) => {
            chain.give_up();
            resume_unwind(p)
        }
    };
    let Some(placed) = chain.take_turn(seq, |placer| placer.place(read)) else {
        return Vec::new();
    };
    placed
        .into_iter()
        .map(|item| match item {
            csa::Item::Warning { game, warning } => {
                Item::Warning(format!("game {}: {warning}", game + 1))
            }
            csa::Item::Game { index, record } => Item::Game {
                index,
                record: record.map_err(|e| e.with_path(path)),
            },
            csa::Item::Failed(e) => Item::Unreadable(e.with_path(path)),
        })
        .collect()
}

// One generator of test texts for the library's chunk reader and for this.
#[cfg(test)]
#[path = "../reader/mixed_csa.rs"]
mod mixed_csa;

#[cfg(test)]
mod tests {
    use super::mixed_csa::mixed_file;
    use super::*;
    use crate::cmd::pipeline;

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
                record: r.map_err(|e| kifu::Error::from(e).with_path("f.csa")),
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
                    chunks(text.as_bytes(), encoding_rs::UTF_8, &opts, per_chunk, |c| {
                        feeder.feed(c)
                    })
                },
            )
            .unwrap();
            assert_eq!(got, expected, "{threads} threads, {per_chunk} per chunk");
        }
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
