//! The grammar of one CSA statement (the text between commas, or a whole
//! `N`/`$` line), in nom over bytes. It only recognises shapes; the reader
//! gives them meaning.
//!
//! Every statement's kind is known from its first byte, so each branch
//! `cut`s once that byte matched: an error then says what that kind of
//! statement expected, at the byte where it stopped.

use crate::record::Notation;
use crate::rules::types::{Color, Piece, PieceKind, Square};
use nom::branch::alt;
use nom::bytes::complete::{tag, take_while1};
use nom::character::complete::{char, digit1, one_of, space0};
use nom::combinator::{cut, eof, map, map_opt, opt, recognize, rest, value};
use nom::error::{ContextError, ErrorKind, ParseError, context};
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
    /// A statement of the start position.
    Board(BoardLine),
    /// `+7776FU`.
    Move(Notation),
    /// `T12` / `T12.345`, in milliseconds.
    Time(u64),
    /// `%TORYO`: the word after `%`, with its sign for `±ILLEGAL_ACTION`.
    Special(&'a str),
    /// `L600`: Shogi Wars' remaining time of the move before it, in seconds.
    Remaining(u64),
    /// `SENTE_WIN_TORYO`: a Shogi Wars ending, the whole word.
    WarsEnding(&'a str),
}

/// A statement of the start position (csa.md §4), which
/// [`PositionBuilder::read`](super::position::PositionBuilder::read) folds in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum BoardLine {
    /// `PI82HI22KA`: the pieces removed from the even-game position.
    Pi(Vec<(Square, PieceKind)>),
    /// `P1…P9`: a rank and its nine cells, file 9 first.
    Row(u8, Vec<Option<Piece>>),
    /// `P+…` / `P-…`.
    Pieces(Color, Vec<Group>),
    /// `+` / `-` alone: the side to move.
    Side(Color),
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

/// Why a statement could not be read: the bytes left where it failed and
/// the innermost label, as nom threads it through and as [`statement`]
/// returns it.
///
/// The innermost `context` is kept because it names the smallest thing that
/// was expected ("a piece code"), which is what a user can fix. It is two
/// words and never allocates, so a branch of `alt` that fails costs little.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Expect<'a> {
    at: &'a [u8],
    label: Option<&'static str>,
}

impl Expect<'_> {
    /// Byte offset of the failure into `s`, the statement that failed.
    pub(super) fn offset(&self, s: &str) -> usize {
        s.len().saturating_sub(self.at.len())
    }

    /// `expected …, found …`, for the statement `s` that failed.
    pub(super) fn message(&self, s: &str) -> String {
        let found = match s.get(self.offset(s)..).and_then(|r| r.chars().next()) {
            Some(c) => format!("found {c:?}"),
            None => "found the end of the statement".to_string(),
        };
        format!("expected {}, {found}", self.label.unwrap_or(ANY_STATEMENT))
    }
}

impl<'a> ParseError<&'a [u8]> for Expect<'a> {
    fn from_error_kind(input: &'a [u8], _: ErrorKind) -> Self {
        Expect {
            at: input,
            label: None,
        }
    }

    fn append(_: &'a [u8], _: ErrorKind, other: Self) -> Self {
        other
    }
}

impl<'a> ContextError<&'a [u8]> for Expect<'a> {
    fn add_context(input: &'a [u8], ctx: &'static str, other: Self) -> Self {
        match other.label {
            Some(_) => other,
            None => Expect {
                at: input,
                label: Some(ctx),
            },
        }
    }
}

type Res<'a, T> = IResult<&'a [u8], T, Expect<'a>>;

const ANY_STATEMENT: &str = "a CSA statement (a move such as +7776FU, T<seconds>, %TORYO, \
     PI, P1-P9, P+/P-, N+/N-, $KEY:value or V<version>; Shogi Wars' L<seconds> or SENTE_WIN_TORYO)";

/// Read one statement (already trimmed of surrounding spaces).
pub(super) fn statement(s: &str) -> Result<Statement<'_>, Expect<'_>> {
    match any_statement(s.as_bytes()) {
        Ok((_, st)) => Ok(st),
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => Err(e),
        // The parsers are all `complete`: they never ask for more input.
        Err(nom::Err::Incomplete(_)) => Err(Expect {
            at: &[],
            label: None,
        }),
    }
}

/// A move (`+7776FU`) or a time in whole seconds (`T12`): nearly every
/// line of a record is one of them alone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Bare {
    Move(Notation),
    Time(u64),
}

/// The one fast path: a bare move or time at the start of `b`, read with
/// the grammar's own token parsers, and its length in bytes. What follows
/// it is the caller's to check. `None` leaves the line to [`statement`],
/// which reads these the same way.
#[inline]
pub(super) fn bare(b: &[u8]) -> Option<(Bare, usize)> {
    match b {
        [b'+' | b'-', ..] => {
            let (i, color) = sign(b).ok()?;
            let (i, from) = origin(i).ok()?;
            let (i, to) = square(i).ok()?;
            let (_, piece) = piece_kind(i).ok()?;
            let notation = Notation::Csa {
                color,
                from,
                to,
                piece,
            };
            Some((Bare::Move(notation), 7))
        }
        [b'T', rest @ ..] => {
            let n = rest
                .iter()
                .take(10)
                .take_while(|d| d.is_ascii_digit())
                .count();
            // Nine digits at most, so no overflow to check; longer is the
            // grammar's.
            if !(1..=9).contains(&n) {
                return None;
            }
            let secs = rest[..n]
                .iter()
                .fold(0u64, |s, &d| s * 10 + u64::from(d - b'0'));
            Some((Bare::Time(secs * 1000), 1 + n))
        }
        _ => None,
    }
}

/// Whether `s` has the shape of a CSA move (`+7776FU`), for sniffing.
pub(super) fn looks_like_move(s: &str) -> bool {
    matches!(statement(s), Ok(Statement::Move(_)))
}

/// Any statement: its first byte says which kind it is.
fn any_statement(i: &[u8]) -> Res<'_, Statement<'_>> {
    let Some((&kind, body)) = i.split_first() else {
        return Err(nom::Err::Error(Expect::from_error_kind(i, ErrorKind::Eof)));
    };
    match kind {
        b'+' | b'-' => sign_statement(i),
        b'T' => cut(time).parse(body),
        b'%' => cut(special).parse(body),
        b'P' => cut(position).parse(body),
        b'N' => cut(name).parse(body),
        b'$' => cut(info).parse(body),
        b'V' => cut(version).parse(body),
        b'L' => cut(remaining).parse(body),
        b'S' | b'G' | b'D' => wars_ending(i),
        _ => Err(nom::Err::Error(Expect::from_error_kind(i, ErrorKind::Char))),
    }
}

/// `+`/`-` alone is the side to move; followed by anything it is a move.
fn sign_statement(i: &[u8]) -> Res<'_, Statement<'_>> {
    let (i, color) = sign(i)?;
    if i.is_empty() {
        return Ok((i, Statement::Board(BoardLine::Side(color))));
    }
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

/// The one parser of a `T` statement.
fn time(i: &[u8]) -> Res<'_, Statement<'_>> {
    let number = (digits, opt(preceded(char('.'), digit1)));
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
fn millis(whole: Option<u64>, frac: Option<&[u8]>) -> Option<u64> {
    let frac = frac.unwrap_or_default().iter().take(3);
    let ms = frac
        .zip([100, 10, 1])
        .map(|(&d, scale)| u64::from(d - b'0') * scale)
        .sum::<u64>();
    whole?.checked_mul(1000)?.checked_add(ms)
}

/// Shogi Wars' `,L<seconds>` after a move: the mover's time left.
fn remaining(i: &[u8]) -> Res<'_, Statement<'_>> {
    map(
        terminated(
            context("seconds left such as L600", map_opt(digits, |s| s)),
            context("the end of the time left", eof),
        ),
        Statement::Remaining,
    )
    .parse(i)
}

/// A Shogi Wars ending (`SENTE_WIN_TORYO`, `GOTE_WIN_TIMEOUT`,
/// `DRAW_SENNICHI`): only its shape; the reader knows the words.
fn wars_ending(i: &[u8]) -> Res<'_, Statement<'_>> {
    let word = recognize((
        alt((
            tag(&b"SENTE_WIN_"[..]),
            tag(&b"GOTE_WIN_"[..]),
            tag(&b"DRAW_"[..]),
        )),
        take_while1(|c: u8| c.is_ascii_uppercase() || c == b'_'),
    ));
    map(terminated(word, eof), |w| Statement::WarsEnding(text(w))).parse(i)
}

fn special(i: &[u8]) -> Res<'_, Statement<'_>> {
    let word = recognize((
        opt(one_of("+-")),
        take_while1(|c: u8| c.is_ascii_uppercase() || c == b'_'),
    ));
    map(
        terminated(
            context("a special move word such as TORYO", word),
            context("the end of the special move", eof),
        ),
        |w| Statement::Special(text(w)),
    )
    .parse(i)
}

fn position(i: &[u8]) -> Res<'_, Statement<'_>> {
    context(
        "I, a rank digit 1-9, + or - after P",
        alt((preceded(char('I'), cut(pi_body)), pieces_line, row_line)),
    )
    .parse(i)
}

fn pi_body(i: &[u8]) -> Res<'_, Statement<'_>> {
    let group = (
        context("a square such as 82 to remove a piece from", square),
        context("a piece code such as HI", piece_kind),
    );
    map(
        terminated(
            many0(group),
            context("a square and a piece code such as 82HI", eof),
        ),
        |removed| Statement::Board(BoardLine::Pi(removed)),
    )
    .parse(i)
}

fn row_line(i: &[u8]) -> Res<'_, Statement<'_>> {
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
    Ok((i, Statement::Board(BoardLine::Row(rank, cells))))
}

fn pieces_line(i: &[u8]) -> Res<'_, Statement<'_>> {
    const GROUP: &str = "a square (00 for the hand) and a piece code such as 13FU, 00KI or 00AL";
    let (i, color) = sign(i)?;
    let group = context(
        GROUP,
        alt((
            value(Group::All, tag(&b"00AL"[..])),
            map(preceded(tag(&b"00"[..]), piece_kind), Group::Hand),
            map((square, piece_kind), |(sq, k)| Group::Board(sq, k)),
        )),
    );
    let (i, groups) = cut(terminated(many0(group), context(GROUP, eof))).parse(i)?;
    Ok((i, Statement::Board(BoardLine::Pieces(color, groups))))
}

fn name(i: &[u8]) -> Res<'_, Statement<'_>> {
    map((context("+ or - after N", sign), rest), |(c, n)| {
        Statement::Name(c, text(n))
    })
    .parse(i)
}

fn info(i: &[u8]) -> Res<'_, Statement<'_>> {
    let key = take_while1(|c: u8| c != b':');
    map(
        (
            context("a key and ':' such as $EVENT:", terminated(key, char(':'))),
            rest,
        ),
        |(k, v)| Statement::Info(text(k), text(v)),
    )
    .parse(i)
}

/// `V2.2`; a bare `V` reads as the empty version, which the reader reports.
fn version(i: &[u8]) -> Res<'_, Statement<'_>> {
    let number = recognize((digit1, opt((char('.'), digit1))));
    map(
        terminated(
            context("a version number such as 2.2 or 3.0", alt((number, eof))),
            context("the end of the version line", eof),
        ),
        |v| Statement::Version(text(v)),
    )
    .parse(i)
}

// The tokens are plain functions over the bytes: combinators compose them,
// and each is a few compares, as a statement is mostly tokens.

fn fail<T>(i: &[u8]) -> Res<'_, T> {
    Err(nom::Err::Error(Expect::from_error_kind(
        i,
        ErrorKind::Verify,
    )))
}

#[inline]
fn sign(i: &[u8]) -> Res<'_, Color> {
    match i {
        [b'+', rest @ ..] => Ok((rest, Color::Sente)),
        [b'-', rest @ ..] => Ok((rest, Color::Gote)),
        _ => fail(i),
    }
}

fn digit19(i: &[u8]) -> Res<'_, u8> {
    match i {
        [d @ b'1'..=b'9', rest @ ..] => Ok((rest, d - b'0')),
        _ => fail(i),
    }
}

/// Two digit bytes, file then rank, each 1 to 9.
#[inline]
fn square(i: &[u8]) -> Res<'_, Square> {
    match i {
        [f, r, rest @ ..] => {
            let (f, r) = (f.wrapping_sub(b'1'), r.wrapping_sub(b'1'));
            if f < 9 && r < 9 {
                Ok((rest, Square::from_index_unchecked(usize::from(f * 9 + r))))
            } else {
                fail(i)
            }
        }
        _ => fail(i),
    }
}

/// A move's origin: a square, or `00` for a drop.
#[inline]
fn origin(i: &[u8]) -> Res<'_, Option<Square>> {
    match i {
        [b'0', b'0', rest @ ..] => Ok((rest, None)),
        _ => map(square, Some).parse(i),
    }
}

/// A piece code, by [`PieceKind::from_csa`]: the one table of them.
#[inline]
fn piece_kind(i: &[u8]) -> Res<'_, PieceKind> {
    match i.split_at_checked(2) {
        Some((code, rest)) => match PieceKind::from_csa(code) {
            Some(kind) => Ok((rest, kind)),
            None => fail(i),
        },
        None => fail(i),
    }
}

/// Digits as a number: `None` when it does not fit.
fn digits(i: &[u8]) -> Res<'_, Option<u64>> {
    let n = i
        .iter()
        .position(|c| !c.is_ascii_digit())
        .unwrap_or(i.len());
    if n == 0 {
        return fail(i);
    }
    let mut value = Some(0u64);
    for &d in &i[..n] {
        value = value.and_then(|v| v.checked_mul(10)?.checked_add(u64::from(d - b'0')));
    }
    Ok((&i[n..], value))
}

/// The text of bytes the grammar cut from a statement: always at ASCII
/// bytes, so always whole characters.
fn text(b: &[u8]) -> &str {
    std::str::from_utf8(b).unwrap_or_default()
}
