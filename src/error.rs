//! Errors from reading records: one boxed, non-exhaustive type with a position.

use crate::record::{Format, Location, Record};
use std::fmt;
use std::path::PathBuf;

/// A syntax error in a record: where, and what was expected there.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ParseError {
    /// Where the problem is.
    pub span: Location,
    /// What kind of problem it is, for a caller to match on.
    pub kind: ParseErrorKind,
    /// What was expected (and what was found), in plain words.
    pub message: String,
    /// The game as far as it could be read, when the error came after its
    /// first move (KIF and KI2): one bad line need not lose the game.
    pub partial: Option<Box<Partial>>,
}

/// What kind of syntax error a [`ParseError`] is; its message says the rest.
///
/// ```
/// use kifu::{ErrorKind, ParseErrorKind, ReadOptions};
///
/// let e = kifu::read_bytes(b"  \n", None, &ReadOptions::default()).unwrap_err();
/// match e.kind() {
///     ErrorKind::Parse(p) => assert_eq!(p.kind, ParseErrorKind::Empty),
///     other => panic!("{other:?}"),
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The input holds no text to read a game from.
    Empty,
    /// A line or token is not what its place in the record expects.
    Syntax,
    /// Something the format knows stands where it may not: a board diagram
    /// after the first move, a move after the game's terminal word, or a
    /// move written in the other Japanese format.
    Misplaced,
    /// The start position cannot be read: a board diagram, an SFEN, or a
    /// handicap name that is malformed or unknown.
    StartPosition,
    /// A variation that does not fit the game: it branches from a move
    /// that is not there, or is nested where the format allows none.
    Variation,
    /// Nesting deeper than kifu reads (a limit against hostile input).
    TooDeep,
}

/// Why a record did not read in the format or encoding the caller chose,
/// when the bytes suggest another choice: see [`Error::hints`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Hint {
    /// The content looks like this format instead.
    LooksLike(Format),
    /// The bytes are not valid text in the chosen encoding, but are in
    /// this one.
    ReadsAs {
        /// The encoding chosen.
        chosen: &'static encoding_rs::Encoding,
        /// The encoding the bytes decode in without a replacement.
        clean: &'static encoding_rs::Encoding,
    },
    /// The bytes are not valid text in the chosen encoding.
    NotValidIn(&'static encoding_rs::Encoding),
}

impl fmt::Display for Hint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Hint::LooksLike(format) => write!(
                f,
                "the content looks like {}, not the format chosen",
                format.name().to_uppercase()
            ),
            Hint::ReadsAs { chosen, clean } => write!(
                f,
                "the bytes are not {} text as the encoding chosen says, but read cleanly as {}",
                chosen.name(),
                clean.name()
            ),
            Hint::NotValidIn(chosen) => write!(
                f,
                "the bytes are not valid {}: the encoding chosen may be wrong",
                chosen.name()
            ),
        }
    }
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
            kind: ParseErrorKind::Syntax,
            message: message.into(),
            partial: None,
        }
    }

    /// The same error, of `kind`.
    pub fn of_kind(mut self, kind: ParseErrorKind) -> ParseError {
        self.kind = kind;
        self
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
    /// The record is of another game of the family: it is replayed by
    /// [`crate::variant::replay::replay`], not as shogi.
    Variant(crate::variant::Variant),
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
    hints: Vec<Noted>,
}

/// A hint, with the words a caller added to it (see [`Error::with_advice`]).
#[derive(Debug)]
struct Noted {
    hint: Hint,
    advice: Option<String>,
}

impl Error {
    /// An error of `kind`.
    pub fn new(kind: ErrorKind) -> Error {
        Error(Box::new(ErrorInner {
            path: None,
            kind,
            hints: Vec::new(),
        }))
    }

    /// The same error, with `hints` at what the caller might choose instead.
    pub fn with_hints(mut self, hints: impl IntoIterator<Item = Hint>) -> Error {
        let noted = hints.into_iter().map(|hint| Noted { hint, advice: None });
        self.0.hints.extend(noted);
        self
    }

    /// What the bytes suggest choosing instead, when they did not read in
    /// the format or encoding chosen; empty when nothing was chosen.
    pub fn hints(&self) -> impl Iterator<Item = &Hint> {
        self.0.hints.iter().map(|n| &n.hint)
    }

    /// The same error, with `advice` words after each hint it gives words
    /// for: how the caller's own user makes the other choice (a program's
    /// option, say), which the library cannot name.
    ///
    /// ```
    /// use kifu::{Format, Hint, ReadOptions};
    ///
    /// let mut opts = ReadOptions::default();
    /// opts.from = Some(Format::Csa);
    /// let e = kifu::read_bytes("1 ７六歩(77)\n".as_bytes(), None, &opts).unwrap_err();
    /// assert!(e.hints().any(|h| *h == Hint::LooksLike(Format::Kif)));
    /// let e = e.with_advice(|h| match h {
    ///     Hint::LooksLike(f) => Some(format!("read it as {}", f.name())),
    ///     _ => None,
    /// });
    /// assert!(e.to_string().ends_with("not the format chosen: read it as kif"));
    /// ```
    pub fn with_advice(mut self, advice: impl Fn(&Hint) -> Option<String>) -> Error {
        for n in &mut self.0.hints {
            n.advice = advice(&n.hint);
        }
        self
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
                ErrorKind::Parse(_) => write!(f, "{}:", p.display())?,
                ErrorKind::NotARecord { span, .. } => write!(f, "{}:{span}: ", p.display())?,
                _ => write!(f, "{}: ", p.display())?,
            }
        }
        self.write_kind(f)?;
        for n in &self.0.hints {
            write!(f, "; {}", n.hint)?;
            if let Some(a) = &n.advice {
                write!(f, ": {a}")?;
            }
        }
        Ok(())
    }
}

impl Error {
    fn write_kind(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0.kind {
            ErrorKind::Io(e) => write!(f, "cannot read: {e}"),
            ErrorKind::Decode(m) => write!(f, "cannot decode: {m}"),
            ErrorKind::UnknownFormat => f.write_str(
                "cannot tell the record format: it must be given (kif, ki2, csa, usi or jkf)",
            ),
            ErrorKind::Parse(p) => write!(f, "{p}"),
            ErrorKind::Setup(m) => write!(f, "illegal start position: {m}"),
            ErrorKind::NotARecord { reason, .. } => write!(f, "not a shogi record: {reason}"),
            ErrorKind::Variant(v) => write!(f, "a record of {v}, not of shogi"),
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
