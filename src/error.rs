//! Errors from reading records: one boxed, non-exhaustive type with a position.

use crate::record::{Format, Location, Record};
use std::fmt;
use std::path::PathBuf;

/// A syntax error in a record: where, and what was expected there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Where the problem is.
    pub span: Location,
    /// What was expected (and what was found), in plain words.
    pub message: String,
    /// The game as far as it could be read, when the error came after its
    /// first move (KIF and KI2): one bad line need not lose the game.
    pub partial: Option<Box<Partial>>,
}

/// The readable part of a game whose text has a syntax error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partial {
    /// The record of every line before the error (the moves on the bad
    /// line before the bad one, for KI2, which writes several a line).
    pub record: Record,
    /// How many lines, from the error's to the end of the text, were not read.
    pub lines_left: usize,
    /// The format the text was read as.
    pub format: Format,
}

impl ParseError {
    /// An error at `span` saying `message`.
    pub fn new(span: Location, message: impl Into<String>) -> ParseError {
        ParseError {
            span,
            message: message.into(),
            partial: None,
        }
    }

    /// The same error, with the game read before it.
    pub fn with_partial(mut self, partial: Partial) -> ParseError {
        self.partial = Some(Box::new(partial));
        self
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.span, self.message)
    }
}

impl std::error::Error for ParseError {}

/// Why bytes could not be decoded as text.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeError {
    /// A NUL byte, which no record format uses: a binary file.
    #[error("binary data (a NUL byte at byte offset {offset}): not a text record")]
    Binary {
        /// The byte offset of the first NUL.
        offset: usize,
    },
    /// No candidate encoding gave any text.
    #[error("no text could be decoded")]
    NoText,
    /// A game of a streamed multi-game file did not decode; reading stops
    /// there, since every later game's place depends on its decoded length.
    #[error(
        "the game starting at line {line}: {cause} (counted from that game's first byte); \
         the rest of the file was not read"
    )]
    InGame {
        /// The line the game starts on.
        line: u32,
        /// Why the game's bytes did not decode.
        cause: Box<DecodeError>,
    },
}

/// What went wrong reading an input.
#[derive(Debug)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The file could not be read.
    Io(std::io::Error),
    /// The bytes could not be decoded as text.
    Decode(DecodeError),
    /// The format could not be determined.
    UnknownFormat,
    /// The text is not a valid record of its format.
    Parse(ParseError),
    /// The start position is not a legal position: every problem found.
    Setup(crate::rules::position::SetupErrors),
    /// The text holds nothing kifu recognises as part of a record (a header
    /// key of its format, a start position, a move or an ending): an HTML
    /// page or a note saved with a record's extension, say.
    NotARecord {
        /// Where reading looked for the record: the first line with content.
        span: Location,
        /// What was looked for, and what was found instead.
        reason: String,
    },
}

/// An error reading an input, with the path when there is one.
#[derive(Debug)]
pub struct Error(Box<ErrorInner>);

#[derive(Debug)]
struct ErrorInner {
    path: Option<PathBuf>,
    kind: ErrorKind,
}

impl Error {
    /// An error of `kind`.
    pub fn new(kind: ErrorKind) -> Error {
        Error(Box::new(ErrorInner { path: None, kind }))
    }

    /// The same error, naming `path`.
    pub fn with_path(mut self, path: impl Into<PathBuf>) -> Error {
        self.0.path = Some(path.into());
        self
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }

    /// The input's path, if known.
    pub fn path(&self) -> Option<&std::path::Path> {
        self.0.path.as_deref()
    }

    /// The readable part of the game, when a syntax error cut it short.
    pub fn partial(&self) -> Option<&Partial> {
        match &self.0.kind {
            ErrorKind::Parse(p) => p.partial.as_deref(),
            _ => None,
        }
    }

    /// The line and column of the problem, where there is one.
    pub fn position(&self) -> Option<Location> {
        match &self.0.kind {
            ErrorKind::Parse(p) => Some(p.span),
            ErrorKind::NotARecord { span, .. } => Some(*span),
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = &self.0.path {
            // Compiler style for positions: `file:line:column: message`.
            match &self.0.kind {
                ErrorKind::Parse(e) => return write!(f, "{}:{e}", p.display()),
                ErrorKind::NotARecord { span, .. } => write!(f, "{}:{span}: ", p.display())?,
                _ => write!(f, "{}: ", p.display())?,
            }
        }
        match &self.0.kind {
            ErrorKind::Io(e) => write!(f, "cannot read: {e}"),
            ErrorKind::Decode(m) => write!(f, "cannot decode: {m}"),
            ErrorKind::UnknownFormat => {
                f.write_str("cannot tell the record format (use --from kif|ki2|csa|usi|jkf)")
            }
            ErrorKind::Parse(p) => write!(f, "{p}"),
            ErrorKind::Setup(m) => write!(f, "illegal start position: {m}"),
            ErrorKind::NotARecord { reason, .. } => write!(f, "not a shogi record: {reason}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.0.kind {
            ErrorKind::Io(e) => Some(e),
            ErrorKind::Parse(p) => Some(p),
            _ => None,
        }
    }
}

impl From<ParseError> for Error {
    fn from(p: ParseError) -> Error {
        Error::new(ErrorKind::Parse(p))
    }
}
