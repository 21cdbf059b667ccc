//! The grammar of one CSA statement (the text between commas, or a whole
//! `N`/`$` line), in nom over bytes. It only recognises shapes; the reader
//! gives them meaning.
//!
//! Every statement's kind is known from its first byte, so each branch
//! `cut`s once that byte matched: an error then says what that kind of
//! statement expected, at the byte where it stopped.

use crate::record::Notation;
use crate::types::{Color, Piece, PieceKind, Square};
use nom::branch::alt;
use nom::bytes::complete::{tag, take, take_while1};
use nom::character::complete::{char, digit1, one_of, satisfy, space0};
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
/// was expected ("a piece code"), which is what a user can fix. It is two
/// words and never allocates, so a branch of `alt` that fails costs little.
#[derive(Clone, Debug, PartialEq)]
struct Expect<'a> {
    at: &'a [u8],
    label: Option<&'static str>,
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
     PI, P1-P9, P+/P-, N+/N-, $KEY:value or V<version>)";

/// Read one statement (already trimmed of surrounding spaces).
pub(super) fn statement(s: &str) -> Result<Statement<'_>, Failure> {
    match any_statement(s.as_bytes()) {
        Ok((_, st)) => Ok(st),
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => {
            let at = s.len() - e.at.len();
            let found = match s.get(at..).and_then(|r| r.chars().next()) {
                Some(c) => format!("found {c:?}"),
                None => "found the end of the statement".to_string(),
            };
            Err(Failure {
                at,
                message: format!("expected {}, {found}", e.label.unwrap_or(ANY_STATEMENT)),
            })
        }
        // The parsers are all `complete`: they never ask for more input.
        Err(nom::Err::Incomplete(_)) => Err(Failure {
            at: s.len(),
            message: format!("expected {ANY_STATEMENT}"),
        }),
    }
}

/// Whether `s` has the shape of a CSA move (`+7776FU`), for sniffing.
pub(super) fn looks_like_move(s: &str) -> bool {
    matches!(statement(s), Ok(Statement::Move(_)))
}

/// Moves and times first: they are nearly every statement of a record.
fn any_statement(i: &[u8]) -> Res<'_, Statement<'_>> {
    alt((
        sign_statement,
        preceded(char('T'), cut(time)),
        preceded(char('%'), cut(special)),
        preceded(char('P'), cut(position)),
        preceded(char('N'), cut(name)),
        preceded(char('$'), cut(info)),
        preceded(char('V'), cut(version)),
    ))
    .parse(i)
}

/// `+`/`-` alone is the side to move; followed by anything it is a move.
fn sign_statement(i: &[u8]) -> Res<'_, Statement<'_>> {
    let (i, color) = sign(i)?;
    if i.is_empty() {
        return Ok((i, Statement::Side(color)));
    }
    let origin = alt((value(None, tag(&b"00"[..])), map(square, Some)));
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
fn millis(secs: &[u8], frac: Option<&[u8]>) -> Option<u64> {
    let whole = secs.iter().try_fold(0u64, |n, &d| {
        n.checked_mul(10)?.checked_add(u64::from(d - b'0'))
    })?;
    let frac = frac.unwrap_or_default().iter().take(3);
    let ms = frac
        .zip([100, 10, 1])
        .map(|(&d, scale)| u64::from(d - b'0') * scale)
        .sum::<u64>();
    whole.checked_mul(1000)?.checked_add(ms)
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
        Statement::Pi,
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
    Ok((i, Statement::Row(rank, cells)))
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
    Ok((i, Statement::Pieces(color, groups)))
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

fn sign(i: &[u8]) -> Res<'_, Color> {
    alt((
        value(Color::Sente, char('+')),
        value(Color::Gote, char('-')),
    ))
    .parse(i)
}

fn digit19(i: &[u8]) -> Res<'_, u8> {
    map(satisfy(|c| ('1'..='9').contains(&c)), |c| c as u8 - b'0').parse(i)
}

fn square(i: &[u8]) -> Res<'_, Square> {
    map_opt((digit19, digit19), |(f, r)| Square::new(f, r)).parse(i)
}

fn piece_kind(i: &[u8]) -> Res<'_, PieceKind> {
    map_opt(take(2usize), piece_code).parse(i)
}

/// The kind a CSA piece code names: the grammar's one table of them.
pub(super) fn piece_code(code: &[u8]) -> Option<PieceKind> {
    use PieceKind::*;
    Some(match code {
        b"FU" => Pawn,
        b"KY" => Lance,
        b"KE" => Knight,
        b"GI" => Silver,
        b"KI" => Gold,
        b"KA" => Bishop,
        b"HI" => Rook,
        b"OU" => King,
        b"TO" => ProPawn,
        b"NY" => ProLance,
        b"NK" => ProKnight,
        b"NG" => ProSilver,
        b"UM" => Horse,
        b"RY" => Dragon,
        _ => return None,
    })
}

/// The text of bytes the grammar cut from a statement: always at ASCII
/// bytes, so always whole characters.
fn text(b: &[u8]) -> &str {
    std::str::from_utf8(b).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_codes_are_the_ones_piece_kinds_write() {
        for kind in PieceKind::ALL {
            assert_eq!(piece_code(kind.csa().as_bytes()), Some(kind), "{kind:?}");
        }
        for code in [&b"fu"[..], b"F", b"FUU", b"AL", b""] {
            assert_eq!(piece_code(code), None, "{code:?}");
        }
    }

    #[test]
    fn times_past_the_millisecond_or_u64_are_cut_or_refused() {
        assert_eq!(statement("T0.0019"), Ok(Statement::Time(1)));
        assert_eq!(statement("T12"), Ok(Statement::Time(12_000)));
        let e = statement("T99999999999999999999").unwrap_err();
        assert_eq!(e.at, 1);
        assert!(e.message.starts_with("expected seconds"), "{e:?}");
    }
}
