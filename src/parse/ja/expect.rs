//! What a KIF or KI2 move grammar expected where it stopped: the nom error
//! type, which keeps the input left at the failure and the label of what
//! was expected there, and its message at the line and column of the
//! failing character.

use crate::error::ParseError;
use crate::parse::SourceLine;
use crate::record::Location;
use nom::error::{ContextError, ErrorKind, ParseError as NomParseError};

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

/// An error without a label: this shape is not here, and the caller knows
/// what else to try.
pub(crate) fn no_match(rest: &str) -> nom::Err<LineErr<'_>> {
    nom::Err::Error(LineErr { rest, label: None })
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
    ParseError::new(l.span_at(at), message(&e, default, None))
}

/// [`grammar_error`] for a failure inside `token`, one of several moves on
/// a line (KI2), read without its spaces: the error at `at`, the failing
/// character, names the token too.
pub(crate) fn token_error(at: Location, e: LineErr<'_>, token: &str, default: &str) -> ParseError {
    ParseError::new(at, message(&e, default, Some(token)))
}

/// `expected …, found …`: the label (or `default`), up to twelve
/// characters from where the grammar stopped, and the move `token` they
/// are in when a line holds several.
fn message(e: &LineErr<'_>, default: &str, token: Option<&str>) -> String {
    let expected = e.label.unwrap_or(default);
    let found: String = e.rest.chars().take(12).collect();
    match (found.is_empty(), token) {
        (true, None) => format!("expected {expected}, found the end of the line"),
        (true, Some(t)) => format!("expected {expected}, found the end of the move {t:?}"),
        (false, None) => format!("expected {expected}, found {found:?}"),
        (false, Some(t)) => format!("expected {expected}, found {found:?} in {t:?}"),
    }
}
