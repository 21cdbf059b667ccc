//! nom parsers for one CSA statement (the text between commas, or a whole
//! `N`/`$` line). They only recognise shapes; the driver gives them meaning.

use crate::record::Notation;
use crate::types::{Color, Piece, PieceKind, Square};
use nom::branch::alt;
use nom::bytes::complete::{tag, take_while_m_n, take_while1};
use nom::character::complete::{char, digit1, one_of, satisfy, space0};
use nom::combinator::{cut, eof, map, map_opt, opt, recognize, rest, value};
use nom::error::{ContextError, ErrorKind, ParseError};
use nom::multi::{count, many0};
use nom::sequence::{preceded, terminated};
use nom::{IResult, Parser};

/// One statement, borrowed from the line it was written on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Statement<'a> {
    /// `V2.2`: the text after `V`.
    Version(&'a str),
    /// `N+name` / `N-name`: the name as written.
    Name(Color, &'a str),
    /// `$KEY:value`.
    Info(&'a str, &'a str),
    /// `PI82HI22KA`: the pieces removed from the even-game position.
    Pi(Vec<(Square, PieceKind)>),
    /// `P1…P9`: a rank and its nine cells, file 9 first.
    Row(u8, Vec<Option<Piece>>),
    /// `P+…` / `P-…`.
    Pieces(Color, Vec<Group>),
    /// `+` / `-` alone: the side to move.
    Side(Color),
    /// `+7776FU`.
    Move(Notation),
    /// `T12` / `T12.345`, in milliseconds.
    Time(u64),
    /// `%TORYO`: the word after `%`, with its sign for `±ILLEGAL_ACTION`.
    Special(&'a str),
}

/// One `XYCC` group of a `P+`/`P-` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Group {
    /// A piece on a board square.
    Board(Square, PieceKind),
    /// `00CC`: a piece in hand.
    Hand(PieceKind),
    /// `00AL`: every remaining piece to this side's hand.
    All,
}

/// Why a statement could not be read: byte offset into it and a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Failure {
    /// Byte offset into the statement.
    pub at: usize,
    /// `expected …, found …`.
    pub message: String,
}

/// The error nom threads through: where it failed and the innermost label.
///
/// The innermost `context` is kept because it names the smallest thing that
/// was expected ("a piece code"), which is what a user can fix.
#[derive(Clone, Debug, PartialEq)]
struct Expect<'a> {
    at: &'a str,
    label: Option<&'static str>,
}

impl<'a> ParseError<&'a str> for Expect<'a> {
    fn from_error_kind(input: &'a str, _: ErrorKind) -> Self {
        Expect {
            at: input,
            label: None,
        }
    }

    fn append(_: &'a str, _: ErrorKind, other: Self) -> Self {
        other
    }
}

impl<'a> ContextError<&'a str> for Expect<'a> {
    fn add_context(input: &'a str, ctx: &'static str, other: Self) -> Self {
        match other.label {
            Some(_) => other,
            None => Expect {
                at: input,
                label: Some(ctx),
            },
        }
    }
}

type Res<'a, T> = IResult<&'a str, T, Expect<'a>>;

use nom::error::context;

const ANY_STATEMENT: &str = "a CSA statement (a move such as +7776FU, T<seconds>, %TORYO, \
     PI, P1-P9, P+/P-, N+/N-, $KEY:value or V<version>)";

/// Read one statement (already trimmed of surrounding spaces).
pub(super) fn statement(s: &str) -> Result<Statement<'_>, Failure> {
    // Moves and whole-second times are nearly every statement of a record:
    // read them directly, and leave everything else (and every error) to nom.
    if let Some(st) = fast_statement(s) {
        return Ok(st);
    }
    match terminated(any_statement, eof).parse(s) {
        Ok((_, st)) => Ok(st),
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => {
            let at = s.len().saturating_sub(e.at.len());
            let found = match e.at.chars().next() {
                Some(c) => format!("found {c:?}"),
                None => "found the end of the statement".to_string(),
            };
            Err(Failure {
                at,
                message: format!("expected {}, {found}", e.label.unwrap_or(ANY_STATEMENT)),
            })
        }
        Err(nom::Err::Incomplete(_)) => Err(Failure {
            at: s.len(),
            message: format!("expected {ANY_STATEMENT}"),
        }),
    }
}

/// `+7776FU` or `T12`, exactly, or one of the lines nearly every game
/// opens with (`V2.2`, `PI`, `+`); `None` sends the statement to the full
/// grammar, which reads these the same way.
#[inline]
pub(super) fn fast_statement(s: &str) -> Option<Statement<'_>> {
    match s.as_bytes() {
        [b'+' | b'-', _, _, _, _, _, _] => {
            let m = s.as_bytes().first_chunk::<7>()?;
            bare_move(m).map(Statement::Move)
        }
        [b'T', digits @ ..] if !digits.is_empty() && digits.len() <= 9 => {
            let mut secs = 0u64;
            for &d in digits {
                if !d.is_ascii_digit() {
                    return None;
                }
                secs = secs * 10 + u64::from(d - b'0');
            }
            Some(Statement::Time(secs * 1000))
        }
        [b'+'] => Some(Statement::Side(Color::Sente)),
        [b'-'] => Some(Statement::Side(Color::Gote)),
        [b'P', b'I'] => Some(Statement::Pi(Vec::new())),
        [b'V', v @ ..] if is_version_number(v) => Some(Statement::Version(&s[1..])),
        _ => None,
    }
}

/// Digits, then optionally `.` and digits: what [`version`] accepts.
fn is_version_number(v: &[u8]) -> bool {
    let digits = |d: &[u8]| !d.is_empty() && d.iter().all(u8::is_ascii_digit);
    match v.iter().position(|&c| c == b'.') {
        Some(dot) => digits(&v[..dot]) && digits(&v[dot + 1..]),
        None => digits(v),
    }
}

/// `+7776FU` exactly: a sign, two squares (`00` for a drop) and a piece code.
#[inline(always)]
pub(super) fn bare_move(m: &[u8; 7]) -> Option<Notation> {
    let [sign, f1, r1, f2, r2, p1, p2] = *m;
    let color = match sign {
        b'+' => Color::Sente,
        b'-' => Color::Gote,
        _ => return None,
    };
    let digit = |c: u8| {
        let d = c.wrapping_sub(b'0');
        (d < 10).then_some(d)
    };
    let from = match (digit(f1)?, digit(r1)?) {
        (0, 0) => None,
        (f, r) => Some(Square::new(f, r)?),
    };
    let to = Square::new(digit(f2)?, digit(r2)?)?;
    let piece = csa_kind([p1, p2])?;
    Some(Notation::Csa {
        color,
        from,
        to,
        piece,
    })
}

/// Every CSA piece code and its kind.
const CODES: [(&[u8; 2], PieceKind); 14] = {
    use PieceKind::*;
    [
        (b"FU", Pawn),
        (b"KY", Lance),
        (b"KE", Knight),
        (b"GI", Silver),
        (b"KI", Gold),
        (b"KA", Bishop),
        (b"HI", Rook),
        (b"OU", King),
        (b"TO", ProPawn),
        (b"NY", ProLance),
        (b"NK", ProKnight),
        (b"NG", ProSilver),
        (b"UM", Horse),
        (b"RY", Dragon),
    ]
};

/// Piece kinds by their two capital letters, `(a - 'A') * 26 + (b - 'A')`.
static KIND_BY_CODE: [Option<PieceKind>; 26 * 26] = {
    let mut table = [None; 26 * 26];
    let mut i = 0;
    while i < CODES.len() {
        let (code, kind) = CODES[i];
        table[(code[0] - b'A') as usize * 26 + (code[1] - b'A') as usize] = Some(kind);
        i += 1;
    }
    table
};

/// Piece kinds by the low five bits of their two letters, first letter's
/// bits high: with the top three bits of both letters checked to be `010`
/// (`@`, `A`…`Z`, `[`…`_`), one load and no range checks tell a code.
static KIND_BY_LOW_BITS: [Option<PieceKind>; 1024] = {
    let mut table = [None; 1024];
    let mut i = 0;
    while i < CODES.len() {
        let (code, kind) = CODES[i];
        table[(code[0] & 0x1f) as usize * 32 + (code[1] & 0x1f) as usize] = Some(kind);
        i += 1;
    }
    table
};

/// [`bare_move`] on the first seven bytes of a line loaded as one
/// little-endian word (byte `i` is bits `8i..8i + 8`; the eighth byte is
/// ignored): the shape is one masked compare, the digits are checked and
/// turned into squares together, and the piece is one table load, where
/// the byte-wise checks cost a branch each.
#[inline(always)]
pub(super) fn word_move(w: u64) -> Option<Notation> {
    // The digits' high nibbles are 3, the letters' top three bits 010, and
    // the sign is one of `)`, `+`, `-`, `/`.
    const MASK: u64 = 0x00e0_e0f0_f0f0_f0f9;
    const SHAPE: u64 = 0x0040_4030_3030_3029;
    if w & MASK != SHAPE {
        return None;
    }
    // `+` (0x2B) and `-` (0x2D) are the two of those whose bits 1 and 2 differ.
    let sign = w as u8;
    if (sign ^ sign >> 1) & 2 == 0 {
        return None;
    }
    let color = if sign & 4 == 0 {
        Color::Sente
    } else {
        Color::Gote
    };
    // The four digits' values, one a byte; each must be 9 at most.
    let n = (w >> 8) as u32 & 0x0f0f_0f0f;
    if n.wrapping_add(0x0606_0606) & 0xf0f0_f0f0 != 0 {
        return None;
    }
    // The high bit of each byte: the digit is not 0. A square needs two
    // such digits; the origin may instead be `00`, a drop.
    let nonzero = n.wrapping_add(0x7f7f_7f7f) & 0x8080_8080;
    if nonzero != 0x8080_8080 && nonzero != 0x8080_0000 {
        return None;
    }
    // Byte 0 becomes file * 9 + rank of the origin, byte 2 that of the
    // destination (no byte exceeds 90, so none carries).
    let at = n.wrapping_mul(9).wrapping_add(n >> 8);
    let square = |v: u32| Square::from_index_unchecked((v & 0xff) as usize - 10);
    let from = (nonzero & 0x8080 != 0).then(|| square(at));
    let to = square(at >> 16);
    let code = (w >> 35) as usize & 0x3e0 | (w >> 48) as usize & 0x1f;
    let piece = KIND_BY_LOW_BITS[code]?;
    Some(Notation::Csa {
        color,
        from,
        to,
        piece,
    })
}

/// [`bare_time`] and the line end after it, on the first eight bytes of a
/// line, for the usual short time: `Some` when the statement and its line
/// end lie in the window (`T` and at most five digits), with what
/// `bare_time` gives and where the next line starts; `None` when they do
/// not, or the line is not a time (`bare_time` then decides).
#[inline(always)]
pub(super) fn window_time(w: &[u8; 8]) -> Option<(u64, usize, usize)> {
    if w[0] != b'T' {
        return None;
    }
    let mut secs = 0u64;
    // A fixed window: no bounds check per digit, and the byte after a line
    // end's `\r` is always in it.
    for i in 1..7 {
        let d = w[i].wrapping_sub(b'0');
        if d >= 10 {
            let next = match (w[i], w[i + 1]) {
                (b'\n', _) => i + 1,
                (b'\r', b'\n') => i + 2,
                (b'\r', _) => i + 1,
                _ => return None,
            };
            return (i > 1).then_some((secs * 1000, i, next));
        }
        secs = secs * 10 + u64::from(d);
    }
    None
}

/// `T12` exactly at the start of `b` (up to nine digits, so no overflow
/// to check): the milliseconds and the length of the statement.
#[inline(always)]
pub(super) fn bare_time(b: &[u8]) -> Option<(u64, usize)> {
    let [b'T', digits @ ..] = b else {
        return None;
    };
    let mut secs = 0u64;
    let mut n = 0;
    // A tenth digit is not this statement's: the caller finds no line end
    // after the ninth and leaves the line to the full grammar.
    for &c in digits.iter().take(9) {
        let d = c.wrapping_sub(b'0');
        if d >= 10 {
            break;
        }
        secs = secs * 10 + u64::from(d);
        n += 1;
    }
    (n > 0).then_some((secs * 1000, n + 1))
}

/// [`PieceKind::from_csa`] as one table load: this runs for every move
/// read, and a chain of two-byte comparisons cost more than the rest of the
/// move.
#[inline(always)]
fn csa_kind(code: [u8; 2]) -> Option<PieceKind> {
    let a = code[0].wrapping_sub(b'A');
    let b = code[1].wrapping_sub(b'A');
    if a >= 26 || b >= 26 {
        return None;
    }
    KIND_BY_CODE[usize::from(a) * 26 + usize::from(b)]
}

fn any_statement(i: &str) -> Res<'_, Statement<'_>> {
    alt((
        preceded(char('V'), cut(version)),
        preceded(char('N'), cut(name)),
        preceded(char('$'), cut(info)),
        preceded(char('P'), cut(position)),
        sign_statement,
        preceded(char('T'), cut(time)),
        preceded(char('%'), cut(special)),
    ))
    .parse(i)
}

/// `V2.2`; a bare `V` reads as the empty version, which the reader reports.
fn version(i: &str) -> Res<'_, Statement<'_>> {
    let number = recognize((digit1, opt((char('.'), digit1))));
    map(
        terminated(
            context("a version number such as 2.2 or 3.0", alt((number, eof))),
            context("the end of the version line", eof),
        ),
        Statement::Version,
    )
    .parse(i)
}

fn name(i: &str) -> Res<'_, Statement<'_>> {
    map((context("+ or - after N", sign), rest), |(c, n)| {
        Statement::Name(c, n)
    })
    .parse(i)
}

fn info(i: &str) -> Res<'_, Statement<'_>> {
    let key = take_while1(|c: char| c != ':');
    map(
        (
            context("a key and ':' such as $EVENT:", terminated(key, char(':'))),
            rest,
        ),
        |(k, v)| Statement::Info(k, v),
    )
    .parse(i)
}

fn position(i: &str) -> Res<'_, Statement<'_>> {
    context(
        "I, a rank digit 1-9, + or - after P",
        alt((preceded(char('I'), cut(pi_body)), pieces_line, row_line)),
    )
    .parse(i)
}

fn pi_body(i: &str) -> Res<'_, Statement<'_>> {
    let group = (
        context("a square such as 82 to remove a piece from", square),
        context("a piece code such as HI", piece_kind),
    );
    map(
        terminated(
            many0(group),
            context("a square and a piece code such as 82HI", eof),
        ),
        Statement::Pi,
    )
    .parse(i)
}

fn row_line(i: &str) -> Res<'_, Statement<'_>> {
    let (i, rank) = digit19(i)?;
    let cell = preceded(
        space0,
        context(
            "a cell: ' * ' or +/- and a piece code such as +FU",
            alt((
                value(None, char('*')),
                map((sign, piece_kind), |(c, k)| Some(Piece::new(c, k))),
            )),
        ),
    );
    let (i, cells) = cut(terminated(
        count(cell, 9),
        // mog-core-scala/game/002.csa ends rows whose last cell is empty with
        // `.` instead of the trailing space; the real file wins.
        (
            space0,
            opt(char('.')),
            context("the end of the row after nine cells", eof),
        ),
    ))
    .parse(i)?;
    Ok((i, Statement::Row(rank, cells)))
}

fn pieces_line(i: &str) -> Res<'_, Statement<'_>> {
    let (i, color) = sign(i)?;
    let group = context(
        "a square (00 for the hand) and a piece code such as 13FU, 00KI or 00AL",
        alt((
            value(Group::All, tag("00AL")),
            map(preceded(tag("00"), piece_kind), Group::Hand),
            map((square, piece_kind), |(sq, k)| Group::Board(sq, k)),
        )),
    );
    let (i, groups) = cut(terminated(
        many0(group),
        context(
            "a square (00 for the hand) and a piece code such as 13FU, 00KI or 00AL",
            eof,
        ),
    ))
    .parse(i)?;
    Ok((i, Statement::Pieces(color, groups)))
}

/// `+`/`-` alone is the side to move; followed by anything it is a move.
fn sign_statement(i: &str) -> Res<'_, Statement<'_>> {
    let (i, color) = sign(i)?;
    if i.is_empty() {
        return Ok((i, Statement::Side(color)));
    }
    let origin = alt((value(None, tag("00")), map(square, Some)));
    let (i, (from, to, piece)) = cut(terminated(
        (
            context("an origin square such as 77, or 00 for a drop", origin),
            context("a destination square such as 76", square),
            context("a piece code such as FU", piece_kind),
        ),
        context("the end of the move", eof),
    ))
    .parse(i)?;
    let notation = Notation::Csa {
        color,
        from,
        to,
        piece,
    };
    Ok((i, Statement::Move(notation)))
}

fn time(i: &str) -> Res<'_, Statement<'_>> {
    let number = (digit1, opt(preceded(char('.'), digit1)));
    map(
        terminated(
            context(
                "seconds such as T12 or T12.345",
                map_opt(number, |(s, f)| millis(s, f)),
            ),
            context("the end of the time", eof),
        ),
        Statement::Time,
    )
    .parse(i)
}

/// Seconds and an optional fraction to milliseconds; digits past the third
/// decimal are below the format's precision and dropped.
fn millis(secs: &str, frac: Option<&str>) -> Option<u64> {
    let whole: u64 = secs.parse().ok()?;
    let mut ms = 0u64;
    let mut scale = 100u64;
    for b in frac.unwrap_or("").bytes().take(3) {
        ms += u64::from(b - b'0') * scale;
        scale /= 10;
    }
    whole.checked_mul(1000)?.checked_add(ms)
}

fn special(i: &str) -> Res<'_, Statement<'_>> {
    let word = recognize((
        opt(one_of("+-")),
        take_while1(|c: char| c.is_ascii_uppercase() || c == '_'),
    ));
    map(
        terminated(
            context("a special move word such as TORYO", word),
            context("the end of the special move", eof),
        ),
        Statement::Special,
    )
    .parse(i)
}

fn sign(i: &str) -> Res<'_, Color> {
    alt((
        value(Color::Sente, char('+')),
        value(Color::Gote, char('-')),
    ))
    .parse(i)
}

fn digit19(i: &str) -> Res<'_, u8> {
    map(satisfy(|c| ('1'..='9').contains(&c)), |c| c as u8 - b'0').parse(i)
}

fn square(i: &str) -> Res<'_, Square> {
    map_opt((digit19, digit19), |(f, r)| Square::new(f, r)).parse(i)
}

fn piece_kind(i: &str) -> Res<'_, PieceKind> {
    map_opt(
        take_while_m_n(2, 2, |c: char| c.is_ascii_uppercase()),
        |s: &str| PieceKind::from_csa(s.as_bytes()),
    )
    .parse(i)
}

/// Whether `s` has the shape of a CSA move (`+7776FU`), for sniffing.
pub(super) fn looks_like_move(s: &str) -> bool {
    matches!(statement(s), Ok(Statement::Move(_)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csa_kind_agrees_with_the_name_table() {
        for a in 0..=255u8 {
            for b in 0..=255u8 {
                assert_eq!(csa_kind([a, b]), PieceKind::from_csa(&[a, b]), "{a} {b}");
            }
        }
    }

    #[test]
    fn bare_move_checks_digits_as_a_byte_loop_does() {
        let plain = |m: &[u8; 7]| -> Option<Notation> {
            let color = match m[0] {
                b'+' => Color::Sente,
                b'-' => Color::Gote,
                _ => return None,
            };
            let d = |c: u8| c.is_ascii_digit().then(|| c - b'0');
            let (f1, r1, f2, r2) = (d(m[1])?, d(m[2])?, d(m[3])?, d(m[4])?);
            let from = match (f1, r1) {
                (0, 0) => None,
                (f, r) => Some(Square::new(f, r)?),
            };
            let to = Square::new(f2, r2)?;
            let piece = csa_kind([m[5], m[6]])?;
            Some(Notation::Csa {
                color,
                from,
                to,
                piece,
            })
        };
        // Every pair of digit positions through every pair of bytes, around
        // a drop and around a board move.
        for base in [*b"+7776FU", *b"-0055KA"] {
            for i in 1..=4 {
                for j in i..=4 {
                    for a in 0..=255u8 {
                        for b in (0..=255u8).step_by(if i == j { 256 } else { 1 }) {
                            let mut m = base;
                            m[i] = a;
                            if i != j {
                                m[j] = b;
                            }
                            assert_eq!(bare_move(&m), plain(&m), "{m:?}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn fast_statements_are_read_as_the_full_grammar_reads_them() {
        let full = |s| {
            terminated(any_statement, eof)
                .parse(s)
                .ok()
                .map(|(_, st)| st)
        };
        let cases = [
            "V2",
            "V2.2",
            "V3.0",
            "V10.25",
            "V",
            "V.",
            "V2.",
            "V.2",
            "V2.2.2",
            "V2,2",
            "Vx",
            "V２",
            "PI",
            "PI82HI",
            "P",
            "PIX",
            "+",
            "-",
            "+7776FU",
            "-0055KA",
            "+0000FU",
            "T0",
            "T12",
            "T123456789",
            "T1234567890",
            "T12.5",
            "T",
            "Tx",
            "%TORYO",
        ];
        for s in cases {
            if let Some(st) = fast_statement(s) {
                assert_eq!(Some(st), full(s), "{s}");
            }
        }
        for s in ["V2.2", "PI", "+", "-"] {
            assert!(fast_statement(s).is_some(), "{s}");
        }
    }
}
