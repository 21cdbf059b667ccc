//! Cutting a multi-game CSA text into its games at `/` lines, without
//! parsing them: the one rule by which a text read whole and both streamed
//! readers find where a game ends.

/// One game's text within a multi-game CSA text, as [`split_games`] cuts it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GameText<'a> {
    /// Byte offset of the piece's first character in the whole text.
    pub offset: usize,
    /// 1-based line number of the piece's first line in the whole text.
    pub line: u32,
    /// The piece, without the `/` line that ends it.
    pub text: &'a str,
}

/// Cut a CSA text into games at `/` lines. Pieces that hold only blank
/// lines are yielded too; reading them gives no game.
pub(crate) fn split_games(text: &str) -> impl Iterator<Item = GameText<'_>> {
    let b = text.as_bytes();
    // Where the first line starts: a BOM is not part of it.
    let begin = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let mut next = Some((begin, 1u32));
    std::iter::from_fn(move || {
        let (offset, line) = next?;
        if offset >= b.len() {
            // No line left: an empty piece, as a walk over the lines gives.
            next = None;
            return Some(GameText {
                offset: b.len(),
                line: 1,
                text: "",
            });
        }
        let end = match find_slash_line(b, offset, offset, true) {
            SlashSearch::Found { start, next: after } => {
                next = Some((after, line + line_ends(&b[offset..after])));
                last_line_end(b, offset, start)
            }
            _ => {
                next = None;
                last_line_end(b, offset, b.len())
            }
        };
        Some(GameText {
            offset,
            line,
            text: &text[offset..end],
        })
    })
}

/// What [`find_slash_line`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SlashSearch {
    /// A `/` line: where it starts, and where the line after it starts (past
    /// its terminator).
    Found {
        /// Byte offset of the line's first byte.
        start: usize,
        /// Byte offset just past its line end.
        next: usize,
    },
    /// The bytes end inside what may be a `/` line (its blanks, or a CR that
    /// may be half of a CRLF): with more bytes, search again from `resume`.
    Incomplete {
        /// Where the next search should start.
        resume: usize,
    },
    /// No `/` line in the bytes.
    NotFound,
}

/// The first line of `b` that is `/` once ASCII blanks are trimmed, with
/// lines ended as [`crate::parse::lines`] ends them (LF, CRLF, bare CR).
/// `from` is the start of the current game (a line start); the search for
/// `/` bytes starts at `at` (`from`, or where an earlier search of the same
/// bytes stopped). `complete`: no bytes will follow `b`, so its end ends the
/// last line; a streaming reader passes `false` until its input is
/// exhausted. Only `/` bytes are looked at, and around each only its
/// blanks, so a line of a million `/` costs a million steps, not a million
/// squared.
pub(crate) fn find_slash_line(b: &[u8], from: usize, at: usize, complete: bool) -> SlashSearch {
    let blank = |c: &&u8| **c != b'\n' && **c != b'\r' && c.is_ascii_whitespace();
    let mut at = at;
    while let Some(p) = memchr::memchr(b'/', &b[at..]) {
        let p = at + p;
        let start = p - b[from..p].iter().rev().take_while(blank).count();
        let end = p + 1 + b[p + 1..].iter().take_while(blank).count();
        let starts_line = start == from || matches!(b[start - 1], b'\n' | b'\r');
        let next = match (b.get(end), b.get(end + 1)) {
            _ if !starts_line => None,
            (Some(b'\n'), _) | (Some(b'\r'), Some(b'\n')) => {
                Some(end + 1 + usize::from(b[end] == b'\r'))
            }
            (Some(b'\r'), Some(_)) => Some(end + 1),
            (Some(b'\r') | None, _) if complete => Some(b.len()),
            (Some(b'\r') | None, _) => return SlashSearch::Incomplete { resume: p },
            (Some(_), _) => None,
        };
        if let Some(next) = next {
            return SlashSearch::Found { start, next };
        }
        at = p + 1;
    }
    SlashSearch::NotFound
}

/// Where the last line of `b[from..to]` ends, without its terminator; `to`
/// is a line start (or the end of the text).
fn last_line_end(b: &[u8], from: usize, to: usize) -> usize {
    if to == b.len() && !matches!(b[from..to].last(), Some(b'\n' | b'\r')) {
        return to;
    }
    match &b[from..to] {
        [.., b'\r', b'\n'] => to - 2,
        [.., b'\n' | b'\r'] => to - 1,
        _ => from,
    }
}

/// How many lines end in `b`: LF, CRLF and a bare CR each end one, as
/// [`crate::parse::lines`] counts them. `b` must not end between the CR and
/// the LF of a CRLF.
pub(crate) fn line_ends(b: &[u8]) -> u32 {
    let lf = memchr::memchr_iter(b'\n', b).count();
    let bare_cr = memchr::memchr_iter(b'\r', b)
        .filter(|&i| b.get(i + 1) != Some(&b'\n'))
        .count();
    u32::try_from(lf + bare_cr).unwrap_or(u32::MAX)
}
