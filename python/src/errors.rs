//! kifu's errors as Python exceptions, with the file, line and column as
//! attributes (`path`, `line`, `column`, `message`).

use kifu::error::{Error, ErrorKind};
use pyo3::exceptions::{PyException, PyUserWarning};
use pyo3::prelude::*;

pyo3::create_exception!(
    kifu,
    KifuError,
    PyException,
    "Base class of kifu's errors: `path`, `line`, `column` (None where unknown) and `message`."
);
pyo3::create_exception!(
    kifu,
    ParseError,
    KifuError,
    "The record does not follow its format's grammar, or its start position is illegal."
);
pyo3::create_exception!(
    kifu,
    NotARecord,
    KifuError,
    "The input is no game record kifu can tell the format of."
);
pyo3::create_exception!(
    kifu,
    DecodeError,
    KifuError,
    "The bytes could not be decoded in any encoding a record uses."
);
pyo3::create_exception!(
    kifu,
    ReadWarning,
    PyUserWarning,
    "A game of a multi-game file could not be read (the others were), or bytes were replaced while decoding."
);

/// The Python exception for `e`. I/O errors become the matching `OSError`
/// subclass with `filename` set.
pub fn to_py(py: Python<'_>, e: &Error) -> PyErr {
    let path = e.path().map(|p| p.display().to_string());
    let (err, line, column, message) = match e.kind() {
        ErrorKind::Io(io) => return os_error(io, path),
        ErrorKind::Parse(p) => (
            ParseError::new_err(e.to_string()),
            Some(p.span.line),
            Some(p.span.column),
            p.message.clone(),
        ),
        ErrorKind::Decode(m) => (
            DecodeError::new_err(e.to_string()),
            None,
            None,
            m.to_string(),
        ),
        ErrorKind::UnknownFormat => (
            NotARecord::new_err(e.to_string()),
            None,
            None,
            "cannot tell the record format".to_string(),
        ),
        ErrorKind::NotARecord { span, reason } => (
            NotARecord::new_err(e.to_string()),
            Some(span.line),
            Some(span.column),
            reason.clone(),
        ),
        ErrorKind::Setup(m) => (
            ParseError::new_err(e.to_string()),
            None,
            None,
            m.to_string(),
        ),
        _ => (KifuError::new_err(e.to_string()), None, None, e.to_string()),
    };
    let value = err.value(py);
    // Setting attributes on a fresh exception object cannot fail.
    let _ = value.setattr("path", path);
    let _ = value.setattr("line", line);
    let _ = value.setattr("column", column);
    let _ = value.setattr("message", message);
    err
}

pyo3::create_exception!(
    kifu,
    FormatWarning,
    PyUserWarning,
    "The target format of Game.to() cannot hold something of the game (the message starts with its code)."
);

/// The `OSError` subclass Python raises for `io`, with errno, message and
/// file name, as `open()` would.
fn os_error(io: &std::io::Error, path: Option<String>) -> PyErr {
    use pyo3::exceptions::{
        PyFileNotFoundError, PyIsADirectoryError, PyOSError, PyPermissionError,
    };
    use std::io::ErrorKind as K;
    let errno = io.raw_os_error();
    let message = match errno {
        // The OS message without Rust's " (os error N)".
        Some(_) => io
            .to_string()
            .split(" (os error")
            .next()
            .unwrap_or("")
            .to_string(),
        None => io.to_string(),
    };
    let args = (errno, message, path);
    match io.kind() {
        K::NotFound => PyFileNotFoundError::new_err(args),
        K::PermissionDenied => PyPermissionError::new_err(args),
        K::IsADirectory => PyIsADirectoryError::new_err(args),
        _ => PyOSError::new_err(args),
    }
}

/// Issue a [`FormatWarning`].
pub fn format_warning(py: Python<'_>, message: &str) -> PyResult<()> {
    let category = py.get_type::<FormatWarning>();
    PyErr::warn(
        py,
        &category,
        &std::ffi::CString::new(message.replace('\0', " "))?,
        1,
    )
}

/// What a lenient read says of a game cut short, as `kifu convert
/// --lenient` says it.
pub fn partial_warning(e: &Error) -> String {
    let at = e.position().unwrap_or_default();
    let why = match e.kind() {
        ErrorKind::Parse(p) => p.message.as_str(),
        _ => "",
    };
    let (moves, left) = e
        .partial()
        .map_or((0, 0), |p| (p.record.main.moves.len(), p.lines_left));
    let path = e.path().map_or("-".into(), |p| p.display().to_string());
    format!(
        "{path}: partial-game: syntax error at {}:{} ({why}): read the {moves} moves before it; the {left} lines from line {} to the end were left out",
        at.line, at.column, at.line
    )
}

/// Issue a [`ReadWarning`].
pub fn warn(py: Python<'_>, message: &str) -> PyResult<()> {
    let category = py.get_type::<ReadWarning>();
    PyErr::warn(
        py,
        &category,
        &std::ffi::CString::new(message.replace('\0', " "))?,
        1,
    )
}
