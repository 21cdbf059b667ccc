//! Reading a multi-game CSA file one game at a time, in bounded memory.
//!
//! Floodgate and tournament logs hold hundreds of thousands of games in one
//! CSA file. [`CsaReader`] reads such a file from any [`Read`] and yields its
//! games in order, holding at most one game and one read block in memory.

use crate::decode::{decode_in_file, is_plain_ascii};
use crate::error::{Error, ErrorKind};
use crate::parse::csa::{InFile, SlashSearch, find_slash_line, line_ends, read_game};
use crate::record::Record;
use encoding_rs::Encoding;
use std::io::Read;

/// How many bytes are asked of the reader at a time.
const BLOCK_BYTES: usize = 64 * 1024;

/// The games of a CSA text read from `R`, one [`Record`] at a time.
///
/// The text is cut into games at `/` lines before it is decoded (`/` and
/// line ends are ASCII in every encoding a CSA file uses: ASCII, Shift_JIS,
/// EUC-JP, UTF-8), and each game is decoded and parsed on its own. The
/// records are the ones [`crate::parse::csa::parse`] gives for the whole text:
/// the same indices, the same spans (lines and decoded byte offsets from the
/// start of the file), and the file's version and encoding fields in every
/// game after the line that wrote them. Like [`crate::parse::parse`], it reads
/// syntax only; hand each record to [`crate::replay()`] for the verdict.
///
/// Memory holds the game being read and one block of input, so it is bounded
/// by the largest game, not by the file. UTF-16 text cannot be cut this way:
/// read such a file whole with [`crate::input::read_bytes`].
///
/// # Errors
///
/// An item is `Err` when a game is not valid CSA ([`ErrorKind::Parse`]; the
/// games after it are still read), or when the input fails to read
/// ([`ErrorKind::Io`]) or a game does not decode
/// ([`DecodeError::InGame`](crate::DecodeError::InGame), which names the
/// game's line, as `kifu check` does): the iterator then ends, since the
/// positions of later games would be unknown.
///
/// # Example
///
/// ```
/// use kifu::stream::CsaReader;
///
/// let log = "V2.2\nPI\n+\n+7776FU\n%TORYO\n/\nPI\n+\n+2726FU\n-8384FU\n%CHUDAN\n";
/// let mut lengths = Vec::new();
/// for game in CsaReader::new(log.as_bytes()) {
///     let record = game?;
///     let verdict = kifu::replay(record, &kifu::ReplayOptions::default())?;
///     lengths.push(verdict.main.plies.len());
/// }
/// assert_eq!(lengths, [1, 2]);
/// # Ok::<(), kifu::Error>(())
/// ```
#[derive(Debug)]
pub struct CsaReader<R> {
    reader: R,
    /// Bytes read and not yet given out; `buf[start..]` begins at the start
    /// of the next game.
    buf: Vec<u8>,
    start: usize,
    /// Where the search for the next `/` line resumes, relative to `start`.
    searched: usize,
    /// The reader has no more bytes.
    eof: bool,
    /// No item is left (the text ended, or reading it failed).
    done: bool,
    /// The line and decoded byte offset the next game starts at.
    line: u32,
    offset: usize,
    /// The encoding the caller chose, if any.
    forced: Option<&'static Encoding>,
    /// The encoding the last game that was not plain ASCII decoded in; tried
    /// first for the next one, which is then detected afresh only if it
    /// does not decode cleanly in it.
    seen: Option<&'static Encoding>,
    file: InFile,
}

impl<R: Read> CsaReader<R> {
    /// A reader of the CSA text in `reader`, each game's encoding detected
    /// from its bytes (UTF-8, Shift_JIS or EUC-JP).
    pub fn new(reader: R) -> CsaReader<R> {
        CsaReader {
            reader,
            buf: Vec::new(),
            start: 0,
            searched: 0,
            eof: false,
            done: false,
            line: 1,
            offset: 0,
            forced: None,
            seen: None,
            file: InFile::default(),
        }
    }

    /// A reader that decodes every game in `encoding` (for instance
    /// `encoding_rs::SHIFT_JIS`) instead of detecting it.
    pub fn with_encoding(reader: R, encoding: &'static Encoding) -> CsaReader<R> {
        CsaReader {
            forced: Some(encoding),
            ..CsaReader::new(reader)
        }
    }

    /// The bytes of the next game, without the `/` line that ends it, and
    /// how many bytes it and that line take; `None` at the end of the text.
    fn next_cut(&mut self) -> std::io::Result<Option<(usize, usize)>> {
        loop {
            let rest = &self.buf[self.start..];
            match find_slash_line(rest, 0, self.searched, self.eof) {
                SlashSearch::Found { start, next } => return Ok(Some((start, next))),
                SlashSearch::Incomplete { resume } => self.searched = resume,
                SlashSearch::NotFound => self.searched = rest.len(),
            }
            if self.eof {
                let len = rest.len();
                return Ok((len > 0).then_some((len, len)));
            }
            self.fill()?;
        }
    }

    /// Read one more block, first dropping the bytes already given out.
    fn fill(&mut self) -> std::io::Result<()> {
        self.buf.drain(..self.start);
        self.start = 0;
        let len = self.buf.len();
        self.buf.resize(len + BLOCK_BYTES, 0);
        let n = loop {
            match self.reader.read(&mut self.buf[len..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.buf.truncate(len);
                    return Err(e);
                }
            }
        };
        self.buf.truncate(len + n);
        self.eof = n == 0;
        Ok(())
    }

    /// Decode the game in `bytes` as the whole text would have been.
    fn decode_game(&mut self, bytes: &[u8]) -> Result<String, Error> {
        if is_plain_ascii(bytes) {
            return Ok(String::from_utf8_lossy(bytes).into_owned());
        }
        let (known, forced) = (self.forced.or(self.seen), self.forced.is_some());
        let decoded = decode_in_file(bytes, known, forced, self.line)?;
        self.seen = Some(decoded.encoding);
        Ok(decoded.text)
    }

    /// The next game's result, `None` when the piece held no statement.
    fn read_game(&mut self, text_len: usize, taken: usize) -> Option<Result<Record, Error>> {
        let begin = self.start;
        self.start += taken;
        self.searched = 0;
        let bytes = std::mem::take(&mut self.buf);
        let decoded = self.decode_game(&bytes[begin..begin + text_len]);
        let lines = line_ends(&bytes[begin..begin + taken]);
        self.buf = bytes;
        let text = match decoded {
            Ok(t) => t,
            Err(e) => {
                self.done = true;
                return Some(Err(e));
            }
        };
        let (line, offset) = (self.line, self.offset);
        self.line += lines;
        // The `/` line and the line end before it are ASCII: one byte each.
        self.offset += text.len() + (taken - text_len);
        let (_, result) = self.file.place(read_game(&text, line, offset))?;
        Some(result.map_err(|e| Error::new(ErrorKind::Parse(e))))
    }
}

impl<R: Read> Iterator for CsaReader<R> {
    type Item = Result<Record, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            let (text_len, taken) = match self.next_cut() {
                Ok(Some(cut)) => cut,
                Ok(None) => {
                    self.done = true;
                    break;
                }
                Err(e) => {
                    self.done = true;
                    return Some(Err(Error::new(ErrorKind::Io(e))));
                }
            };
            if let Some(item) = self.read_game(text_len, taken) {
                return Some(item);
            }
        }
        None
    }
}

impl<R: Read> std::iter::FusedIterator for CsaReader<R> {}

#[cfg(test)]
mod tests {
    use super::*;

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
        let games = 30_000; // about 1.2 MB of text: 18 blocks
        let mut reader = CsaReader::new(Games {
            left: games,
            pending: Vec::new(),
        });
        let mut read = 0;
        let mut largest = 0;
        while let Some(game) = reader.next() {
            let game = game.unwrap();
            assert_eq!(game.index, read);
            read += 1;
            largest = largest.max(reader.buf.capacity());
        }
        assert_eq!(read, games);
        assert!(largest <= 4 * BLOCK_BYTES, "buffer grew to {largest} bytes");
        // Lines keep counting across blocks: 8 lines a game.
        assert_eq!(reader.line, 8 * games as u32 + 1);
    }
}
