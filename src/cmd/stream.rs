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
use kifu::parse::csa::{FileState, parse_loose};
use kifu::{Format, Record};
use rayon::prelude::*;
use std::io::{BufRead, Read};

/// How many bytes are looked at to choose the format and the encoding.
pub const SNIFF_BYTES: usize = 64 * 1024;

/// Files at least this large are streamed when they are CSA: below it,
/// reading the whole file costs no more memory than a batch of games.
pub const STREAM_MIN_BYTES: u64 = 256 * 1024;

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

/// How many bytes are asked of the reader at a time.
const BLOCK_BYTES: usize = 256 * 1024;

/// A batch is cut once it holds this many bytes (or `batch` games), so a
/// batch of long games still fits in bounded memory.
const BATCH_BYTES: usize = 4 * 1024 * 1024;

/// Where one game lies in the cutter's buffer.
#[derive(Clone, Copy, Debug)]
struct Cut {
    /// The game's bytes, without the `/` line that ends it.
    start: usize,
    end: usize,
    /// Length of the `/` line after it, terminator included (0 at the end).
    slash: usize,
}

/// Cuts a byte stream into games at `/` lines, reading it in large blocks.
///
/// A `/` line is a `\n`-terminated run of bytes that is `/` once ASCII
/// whitespace is trimmed, the rule the stream has always used (so a file
/// with bare CR line ends is one game, as before).
struct Cutter<R> {
    reader: R,
    buf: Vec<u8>,
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
            start: 0,
            scan: 0,
            eof: false,
            done: false,
        }
    }

    /// The next games, at most `games` of them (at least one unless the
    /// stream is done), as ranges of the returned buffer.
    fn next_batch(&mut self, games: usize) -> std::io::Result<(&[u8], Vec<Cut>, bool)> {
        let mut first = self.start;
        let mut cuts = Vec::new();
        while !self.done
            && cuts.len() < games
            && (cuts.is_empty() || self.start - first < BATCH_BYTES)
        {
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
                // The games cut so far go out first: once they are done,
                // only the uncut game's few bytes are moved to make room,
                // not the rest of a block.
                None if !cuts.is_empty() => break,
                None => {
                    self.buf.drain(..self.start);
                    self.scan -= self.start;
                    self.start = 0;
                    first = 0;
                    self.fill()?;
                }
            }
        }
        Ok((&self.buf, cuts, self.done))
    }

    /// Read one more block; at the end of the stream, note it.
    fn fill(&mut self) -> std::io::Result<()> {
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
        let b = &self.buf;
        while let Some(p) = memchr::memchr(b'/', &b[self.scan..]) {
            let p = self.scan + p;
            // Only blanks may stand between the `/` and the line's ends, so
            // each side is walked only as far as its blanks go: a line of a
            // million `/` costs a million steps, not a million squared.
            let blank = |c: u8| c != b'\n' && c.is_ascii_whitespace();
            let line_start = p - b[self.start..p]
                .iter()
                .rev()
                .take_while(|&&c| blank(c))
                .count();
            let after = p + 1 + b[p + 1..].iter().take_while(|&&c| blank(c)).count();
            let starts_line = line_start == self.start || b[line_start - 1] == b'\n';
            match b.get(after) {
                _ if !starts_line => {}
                Some(b'\n') => return Some((line_start, after + 1)),
                None if self.eof => return Some((line_start, after)),
                None => {
                    // The line may still end in `/` plus spaces: look again
                    // once the next block is in.
                    self.scan = p;
                    return None;
                }
                Some(_) => {}
            }
            self.scan = p + 1;
        }
        self.scan = b.len();
        None
    }
}

/// What one pass over a game's bytes tells: whether they are plain ASCII
/// text (no NUL, nothing above 0x7F), and how many lines
/// [`kifu::parse::lines`] would find in them.
fn scan(b: &[u8]) -> (bool, u32) {
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

/// One game ready to be parsed on a worker.
struct Job {
    /// The decoded text when it had to be decoded; `None` when the bytes
    /// are plain ASCII and are their own text.
    text: Option<String>,
    line: u32,
    offset: usize,
}

/// Read every game of the CSA stream `reader`, handing them to `sink` in
/// batches of at most `batch` games, in file order. A game that fails to
/// parse is handed on as an error and the next game is read; only an I/O
/// or decoding error stops the stream.
///
/// The main thread only cuts the bytes into games (and decodes the rare
/// game that is not plain ASCII, since the offsets of the games after it
/// depend on its decoded length); the games are parsed on `pool`, then
/// numbered in file order.
pub fn games<R: Read>(
    reader: R,
    encoding: &'static encoding_rs::Encoding,
    opts: &ReadOptions,
    path: &str,
    batch: usize,
    pool: &rayon::ThreadPool,
    mut sink: impl FnMut(Vec<StreamedGame>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let mut cutter = Cutter::new(reader);
    let mut state = FileState::new();
    // The line the next game starts on.
    let mut line_no: u32 = 1;
    // Offsets in spans count decoded bytes, as for a file read whole.
    let mut offset: usize = 0;
    let mut pending: Vec<StreamedGame> = Vec::with_capacity(batch);
    let forced = opts.encoding.is_some();
    let plain_is_text = encoding.is_ascii_compatible();
    loop {
        let (buf, cuts, done) = cutter
            .next_batch(batch)
            .map_err(|e| Error::new(ErrorKind::Io(e)).with_path(path))?;
        if cuts.is_empty() {
            return Ok(());
        }
        let mut jobs = Vec::with_capacity(cuts.len());
        let mut warnings = Vec::with_capacity(cuts.len());
        let mut failure = None;
        for cut in &cuts {
            let bytes = &buf[cut.start..cut.end];
            let (plain, lines) = scan(bytes);
            if plain && plain_is_text {
                jobs.push(Job {
                    text: None,
                    line: line_no,
                    offset,
                });
                warnings.push(Vec::new());
                line_no += lines + 1;
                offset += bytes.len() + cut.slash;
                continue;
            }
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
                    // The games before it are still handed on; the stream
                    // stops at this one (the offsets of every later game
                    // depend on its decoded length), and says where.
                    let what = match e.kind() {
                        ErrorKind::Decode(m) => m.clone(),
                        _ => e.to_string(),
                    };
                    let e = Error::new(ErrorKind::Decode(format!(
                        "the game starting at line {line_no}: {what} (counted from that \
                         game's first byte); the rest of the file was not read"
                    )));
                    failure = Some(e.with_path(path));
                    break;
                }
            };
            let (start_line, start_offset) = (line_no, offset);
            // Count lines as the parser does (bare CR included), plus the `/` line.
            line_no += kifu::parse::lines(&d.text).count() as u32 + 1;
            offset += d.text.len() + cut.slash;
            jobs.push(Job {
                text: Some(d.text),
                line: start_line,
                offset: start_offset,
            });
            warnings.push(d.warnings);
        }
        let text_of = |i: usize| match &jobs[i].text {
            Some(t) => t.as_str(),
            // `scan` found only ASCII bytes, which are valid UTF-8.
            None => std::str::from_utf8(&buf[cuts[i].start..cuts[i].end]).unwrap_or(""),
        };
        // The text goes back with the game, so the main thread never checks
        // the bytes' UTF-8 again.
        let parse_one = |i: usize| {
            let text = text_of(i);
            (parse_loose(text, jobs[i].line, jobs[i].offset), text)
        };
        // With one worker the games are parsed right here: handing each
        // batch to the pool's thread and waiting for it is all cost
        // (wake-ups, and the idle worker spinning while this thread replays).
        let loose: Vec<_> = if pool.current_num_threads() > 1 {
            pool.install(|| (0..jobs.len()).into_par_iter().map(parse_one).collect())
        } else {
            (0..jobs.len()).map(parse_one).collect()
        };
        let last = done && failure.is_none();
        let count = loose.len();
        for (i, (game, text)) in loose.into_iter().enumerate() {
            let job = &jobs[i];
            let parsed = state.adopt(game, text, job.line, job.offset);
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
                    warnings: std::mem::take(&mut warnings[i]),
                });
            }
            let at_end = last && i + 1 == count;
            if pending.len() >= batch || (at_end && !pending.is_empty()) {
                sink(std::mem::take(&mut pending))?;
            }
        }
        if let Some(e) = failure {
            if !pending.is_empty() {
                sink(std::mem::take(&mut pending))?;
            }
            return Err(e.into());
        }
        if last {
            return Ok(());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scan_agrees_with_plain_loops() {
        let mixed: &[u8] = &[b'a', b'/', b'\n', b'\r', 0, 0x80, 0x2e, 0x0a ^ 0x80, 0xff];
        // Long plain texts reach the lane counters' flush and the line count.
        let plain_only: &[u8] = b"aaaaaa\n\r/";
        let mut seed = 7u32;
        let lens = (0..70).map(|n| (n, mixed));
        let long = [8159, 8160, 8161, 8192, 16400].into_iter();
        for (len, alphabet) in lens.chain(long.map(|n| (n, plain_only))) {
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
