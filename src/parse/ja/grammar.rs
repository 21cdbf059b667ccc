//! What the KIF and KI2 move grammars share: the nom error type, which
//! keeps where a line stopped parsing and what was expected there, and the
//! piece names.

use crate::error::ParseError;
use crate::parse::SourceLine;
use crate::rules::types::PieceKind;
use nom::error::{ContextError, ErrorKind, ParseError as NomParseError};

/// A KIF/KI2 piece name (`歩`, `成銀`, `竜`, …) as a nom parser.
pub(crate) fn piece_name(i: &str) -> Res<'_, PieceKind> {
    match PieceKind::from_kif_prefix(i) {
        Some((k, used)) => Ok((&i[used..], k)),
        None => Err(nom::Err::Error(LineErr {
            rest: i,
            label: Some("a piece name"),
        })),
    }
}

/// A file digit, full-width (`７`) or ASCII (`7`), as
/// [`file_digit`](crate::parse::ja::numeral::file_digit) reads it; matched on
/// its bytes, as every move has two or three.
pub(crate) fn file(i: &str) -> Res<'_, u8> {
    match file_at(i.as_bytes()) {
        Some((digit, len)) => Ok((&i[len..], digit)),
        None => Err(nom::Err::Error(LineErr {
            rest: i,
            label: None,
        })),
    }
}

/// The file digit [`file`] reads at the start of `b`, and its byte length.
pub(crate) fn file_at(b: &[u8]) -> Option<(u8, usize)> {
    match b {
        [d @ b'1'..=b'9', ..] => Some((d - b'0', 1)),
        [0xEF, 0xBC, d @ 0x91..=0x99, ..] => Some((d - 0x90, 3)),
        _ => None,
    }
}

/// Why a nom grammar failed: the input left where it failed and the label of
/// the innermost `context` around it.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct LineErr<'a> {
    pub rest: &'a str,
    pub label: Option<&'static str>,
}

impl<'a> NomParseError<&'a str> for LineErr<'a> {
    fn from_error_kind(rest: &'a str, _kind: ErrorKind) -> Self {
        LineErr { rest, label: None }
    }
    fn append(_: &'a str, _: ErrorKind, other: Self) -> Self {
        other
    }
}

impl<'a> ContextError<&'a str> for LineErr<'a> {
    fn add_context(_: &'a str, ctx: &'static str, mut other: Self) -> Self {
        // Keep the innermost label: it names what was expected at `rest`.
        other.label.get_or_insert(ctx);
        other
    }
}

/// The result type of the KIF and KI2 move grammars.
pub(crate) type Res<'a, T> = nom::IResult<&'a str, T, LineErr<'a>>;

/// A failure that backtracking cannot undo, with what was expected at `rest`.
pub(crate) fn failure<'a>(rest: &'a str, expected: &'static str) -> nom::Err<LineErr<'a>> {
    nom::Err::Failure(LineErr {
        rest,
        label: Some(expected),
    })
}

/// An error an `alt` or `opt` around it may recover from.
pub(crate) fn error<'a>(rest: &'a str, expected: &'static str) -> nom::Err<LineErr<'a>> {
    nom::Err::Error(LineErr {
        rest,
        label: Some(expected),
    })
}

/// The outcome of a whole-input grammar, its error unwrapped. The grammars
/// use `complete` parsers only, which never ask for more input.
pub(crate) fn complete<'a, T>(r: Res<'a, T>) -> Result<T, LineErr<'a>> {
    match r {
        Ok((_, t)) => Ok(t),
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => Err(e),
        Err(nom::Err::Incomplete(_)) => Err(LineErr {
            rest: "",
            label: None,
        }),
    }
}

/// Turn a grammar failure on line `l` into an error pointing at the
/// failing character, naming what was expected there (`default` when the
/// grammar gave no label).
pub(crate) fn grammar_error(l: &SourceLine<'_>, e: LineErr<'_>, default: &str) -> ParseError {
    let at = l.text.len().saturating_sub(e.rest.len());
    let found: String = e.rest.chars().take(12).collect();
    let expected = e.label.unwrap_or(default);
    let message = if found.is_empty() {
        format!("expected {expected}, found the end of the line")
    } else {
        format!("expected {expected}, found {found:?}")
    };
    ParseError::new(l.span_at(at), message)
}
