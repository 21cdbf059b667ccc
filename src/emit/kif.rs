//! KIF out, laid out the way Kifu for Windows writes it (`kif.md` §6.3):
//! the `#KIF` line, the header, 手合割 or a board diagram, numbered move
//! lines with times, comments, bookmarks, the terminal word, the `まで`
//! line, then the variation blocks depth-first.
//!
//! Moves come from the replay, not from the record's notation, so every
//! written move is normalized (origin always given, `同　` where the replay
//! says so, 成 only when promoting). What KIF shares with KI2 (the header,
//! the plan of each line, the lines kept as comments, the encoding) is
//! `emit::kakinoki`'s.

use super::kakinoki::{LineId, Plan, Sheet, mover_at, width};
use crate::emit::Warning;
use crate::emit::sjis::Origin;
use crate::record::{Line, MoveTime};
use crate::replay::{Game, LineResult};

/// The text encoding the `#KIF … encoding=` line declares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum KifEncoding {
    /// UTF-8 (`.kifu`).
    #[default]
    Utf8,
    /// Shift_JIS / CP932 (`.kif`); encode the text with [`encode_sjis`].
    ShiftJis,
}

impl KifEncoding {
    /// The name written in the `#KIF version=2.0 encoding=…` line.
    pub fn label(self) -> &'static str {
        match self {
            KifEncoding::Utf8 => "UTF-8",
            KifEncoding::ShiftJis => "Shift_JIS",
        }
    }
}

/// How [`write_with`] lays the text out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KifOptions {
    /// The encoding declared in the first line (the caller encodes).
    pub encoding: KifEncoding,
    /// The line terminator: `"\n"` or `"\r\n"` (what Windows tools write).
    pub newline: &'static str,
}

impl KifOptions {
    /// `.kifu`: UTF-8, LF.
    pub const fn utf8() -> KifOptions {
        KifOptions {
            encoding: KifEncoding::Utf8,
            newline: "\n",
        }
    }

    /// `.kif`: Shift_JIS with CRLF, as KfW writes it.
    pub const fn shift_jis() -> KifOptions {
        KifOptions {
            encoding: KifEncoding::ShiftJis,
            newline: "\r\n",
        }
    }
}

impl Default for KifOptions {
    fn default() -> Self {
        KifOptions::utf8()
    }
}

/// KIF text for `game` with [`KifOptions::default`] (UTF-8 declaration, LF).
pub fn write(game: &Game) -> (String, Vec<Warning>) {
    write_with(game, &KifOptions::default())
}

/// KIF text for `game`, plus warnings for what KIF could not hold or what
/// had to change (a replaced ending, moves after a foul turned into comments).
pub fn write_with(game: &Game, opts: &KifOptions) -> (String, Vec<Warning>) {
    sheet(game, opts.encoding).into_text(opts.newline)
}

pub use super::sjis::encode_sjis;

/// KIF for `game` as a `.kif` file holds it: Shift_JIS (CP932, with the
/// best-fit characters Windows writes) and CRLF. Warnings for characters
/// CP932 cannot hold name the input line they came from.
pub fn write_sjis(game: &Game) -> (Vec<u8>, Vec<Warning>) {
    sheet(game, KifEncoding::ShiftJis).into_sjis()
}

/// The KIF text of `game`, declaring `encoding`: the `#KIF` line, the
/// header, the move list's heading, then every line of play.
fn sheet(game: &Game, encoding: KifEncoding) -> Sheet<'_> {
    let mut s = Sheet::new(game);
    s.line(&format!("#KIF version=2.0 encoding={}", encoding.label()));
    s.header();
    s.line(if s.timed {
        "手数----指手---------消費時間--"
    } else {
        "手数----指手--"
    });
    s.write_lines(|ply| format!("変化：{ply}手"), write_line);
    s
}

/// One line of play after its `変化` heading: its numbered moves, the
/// moves the replay could not play (as comments), and its ending.
fn write_line<'g>(s: &mut Sheet<'g>, id: LineId, r: &LineResult, line: &'g Line, plan: Plan) {
    s.write_moves(r, line, &plan, |s, i, mover, (mv, piece, same), entry| {
        let time = entry.and_then(|e| e.time);
        let marker = s.children.contains_key(&(id, i));
        let number = r.first_ply + i as u32;
        let clock = s.timed.then(|| (time, plan.totals[i][mover.index()]));
        move_line(
            &mut s.out,
            number,
            |out| crate::notation::push_kif_move(out, mv, piece, same),
            clock,
            marker,
        );
    });
    // The terminal word is a move line of its own, then come the
    // ending's comments, the commented moves and the `まで` line.
    let summary = s.end_line(r, line, &plan, "KIF", |s, word, source, _| {
        if word.is_empty() {
            return;
        }
        let after = plan.written;
        let mover = mover_at(s.first_mover(r), after);
        let number = r.first_ply + after as u32;
        let clock = s.timed.then(|| {
            (
                source.and_then(|e| e.time),
                plan.totals[after][mover.index()],
            )
        });
        move_line(
            &mut s.out,
            number,
            |out| out.push_str(word),
            clock,
            plan.ending_forks,
        );
    });
    if let Some(summary) = summary {
        s.mark(Origin::Unknown);
        s.line(summary);
    }
}

/// `   1 ７六歩(77)   ( 0:05/00:00:05)`: the number right-aligned in
/// four columns, the move `text` writes, and with `clock` (the move's
/// time and the mover's total before it) the time padded to column 19.
/// Written in place: this runs once a ply.
pub(crate) fn move_line(
    out: &mut String,
    number: u32,
    text: impl FnOnce(&mut String),
    clock: Option<(Option<MoveTime>, u64)>,
    marker: bool,
) {
    let mut head = AsciiBuf::new();
    head.number(u64::from(number), 4, b' ');
    head.push(b' ');
    out.push_str(head.as_str());
    let start = out.len();
    text(out);
    let mut tail = AsciiBuf::new();
    if let Some((time, total_before)) = clock {
        // Between 1 and 13 spaces.
        let pad = 13usize.saturating_sub(width(&out[start..])).max(1);
        for _ in 0..pad {
            tail.push(b' ');
        }
        tail.clock(time, total_before);
    }
    if marker {
        tail.push(b'+');
    }
    tail.push(b'\n');
    out.push_str(tail.as_str());
}

/// The ASCII parts of a move line, gathered on the stack and appended in
/// one piece: this runs once a ply, and `format!` or a `push` a character
/// cost several times the few bytes written.
struct AsciiBuf {
    buf: [u8; 96],
    len: usize,
}

impl AsciiBuf {
    fn new() -> AsciiBuf {
        AsciiBuf {
            buf: [0; 96],
            len: 0,
        }
    }

    /// Appends an ASCII byte; the buffer holds a whole line's worth, and
    /// anything past it is dropped rather than panicking.
    fn push(&mut self, b: u8) {
        debug_assert!(b.is_ascii());
        if let Some(slot) = self.buf.get_mut(self.len) {
            *slot = b;
            self.len += 1;
        }
    }

    /// `n` in decimal, right-aligned in `width` columns with `fill` (as
    /// `{:>width$}` or `{:0width$}` writes it, wider when it must be).
    #[inline]
    fn number(&mut self, n: u64, width: usize, fill: u8) {
        // The clock's fields: nearly every number written.
        if width == 2 && n < 100 {
            let tens = (n / 10) as u8;
            self.push(if tens == 0 { fill } else { b'0' + tens });
            self.push(b'0' + (n % 10) as u8);
            return;
        }
        let mut digits = itoa::Buffer::new();
        let digits = digits.format(n).as_bytes();
        for _ in digits.len()..width {
            self.push(fill);
        }
        for &d in digits {
            self.push(d);
        }
    }

    /// `( 0:05/00:00:05)`: the spent time, then the mover's running total.
    // Inlined by hand: since the move loop is `Sheet::write_moves`'s,
    // LLVM left `clock` and `number` out of line, and `convert --to kif`
    // ran 3 % more instructions (bench/instructions.sh).
    #[inline(always)]
    fn clock(&mut self, time: Option<MoveTime>, total_before: u64) {
        let spent = time.and_then(|t| t.spent_ms).unwrap_or(0);
        let total = time
            .and_then(|t| t.total_ms)
            .unwrap_or(total_before + spent);
        let (s, t) = (spent / 1000, total / 1000);
        self.push(b'(');
        self.number(s / 60, 2, b' ');
        self.push(b':');
        self.number(s % 60, 2, b'0');
        self.push(b'/');
        self.number(t / 3600, 2, b'0');
        self.push(b':');
        self.number(t / 60 % 60, 2, b'0');
        self.push(b':');
        self.number(t % 60, 2, b'0');
        self.push(b')');
    }

    fn as_str(&self) -> &str {
        // Only ASCII bytes are ever pushed, so this cannot fail.
        std::str::from_utf8(&self.buf[..self.len]).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests;
