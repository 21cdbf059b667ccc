//! The native module of the `kifu` Python package: read shogi game records,
//! judge every move by the full rules, write them in every format kifu
//! writes. `python/kifu/__init__.py` re-exports it; the stubs are
//! `python/kifu/__init__.pyi`.

mod convert;
mod errors;
mod game;
mod many;
mod reading;
mod stream;

use game::PyGame;
use kifu::error::Error;
use kifu::input::{ReadOptions, read_bytes, read_path};
use pyo3::exceptions::{PyFileNotFoundError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use reading::{Item, items_of};
use std::path::PathBuf;

/// What `read` was handed.
enum Source {
    Path(PathBuf),
    Bytes(Vec<u8>, &'static str),
}

fn source_of(source: &Bound<'_, PyAny>) -> PyResult<Source> {
    if let Ok(b) = source.downcast::<PyBytes>() {
        return Ok(Source::Bytes(b.as_bytes().to_vec(), "<bytes>"));
    }
    if let Ok(s) = source.downcast::<PyString>() {
        let s: String = s.extract()?;
        let s = s.as_str();
        let p = PathBuf::from(s);
        if p.is_file() {
            return Ok(Source::Path(p));
        }
        if s.contains('\n') {
            return Ok(Source::Bytes(s.as_bytes().to_vec(), "<string>"));
        }
        return Err(PyFileNotFoundError::new_err(format!(
            "no such file: {s:?} (record text passed as a str must hold a line break; or pass bytes)"
        )));
    }
    if source.hasattr("__fspath__")? {
        let p: PathBuf = source.extract()?;
        return Ok(Source::Path(p));
    }
    Err(PyTypeError::new_err(
        "source must be a path (str or os.PathLike), bytes, or record text (str)",
    ))
}

fn options(format: Option<&str>, encoding: Option<&str>, text: bool) -> PyResult<ReadOptions> {
    let from = match format {
        None => None,
        Some(f) => Some(match f {
            "kif" | "kifu" => kifu::Format::Kif,
            "ki2" | "ki2u" => kifu::Format::Ki2,
            "csa" => kifu::Format::Csa,
            "usi" | "sfen" => kifu::Format::Usi,
            "jkf" => kifu::Format::Jkf,
            other => {
                return Err(PyValueError::new_err(format!(
                    "unknown format {other:?}: one of kif, ki2, csa, usi, jkf"
                )));
            }
        }),
    };
    let encoding = match encoding {
        // A Python str is Unicode already: its bytes are UTF-8.
        None if text => Some(encoding_rs::UTF_8),
        None => None,
        Some(label) => Some(kifu::decode::encoding_by_label(label).ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown encoding {label:?} (use utf-8, shift_jis or euc-jp)"
            ))
        })?),
    };
    Ok(ReadOptions { from, encoding })
}

/// Read every game of one record: a path, `bytes`, or record text.
///
/// The format and the encoding are sniffed as the CLI does unless given
/// (`format`: kif, ki2, csa, usi, jkf; `encoding`: utf-8, shift_jis,
/// euc-jp). Every move is replayed: an illegal move ends the game as a
/// foul (see `Game.verdict`), it is not an error.
///
/// Raises `ParseError`, `NotARecord` or `DecodeError` (with `path`,
/// `line`, `column`) when the input cannot be read, `OSError` when the file
/// cannot be opened. When some games of a multi-game CSA file fail and
/// others are read, the failures are issued as `ReadWarning`s and the
/// games read are returned.
#[pyfunction]
#[pyo3(signature = (source, *, format=None, encoding=None))]
fn read(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    format: Option<&str>,
    encoding: Option<&str>,
) -> PyResult<Vec<Py<PyGame>>> {
    let src = source_of(source)?;
    let opts = options(
        format,
        encoding,
        matches!(src, Source::Bytes(_, "<string>")),
    )?;
    let items = py.allow_threads(|| match &src {
        Source::Path(p) => items_of(read_path(p, &opts), &p.display().to_string()),
        Source::Bytes(b, name) => {
            let input = read_bytes(b, None, &opts).map_err(|e| e.with_path(*name));
            items_of(input, name)
        }
    });
    let mut games = Vec::with_capacity(items.len());
    let mut errors: Vec<Error> = Vec::new();
    for item in items {
        match item {
            Item::Game(g, meta) => games.push(Py::new(py, PyGame::new(*g, meta))?),
            Item::Error(e) => errors.push(e),
            Item::Warning(w) => errors::warn(py, &w)?,
        }
    }
    if games.is_empty()
        && let Some(e) = errors.first()
    {
        return Err(errors::to_py(py, e));
    }
    for e in &errors {
        errors::warn(py, &e.to_string())?;
    }
    Ok(games)
}

/// Read many inputs on `jobs` threads (default: every core) and yield
/// their games in input order, one file's games after another's.
///
/// The GIL is released while the workers read; memory stays bounded (a few
/// inputs ahead of the reader at most, and a multi-gigabyte CSA file is
/// streamed a batch of games at a time). An input that cannot be read is
/// **one item in the stream**: the exception object (`ParseError`,
/// `NotARecord`, `DecodeError` or `OSError`, with `path`/`filename`) is
/// yielded, not raised, and the stream goes on. So:
///
///     for g in kifu.read_many(paths):
///         if isinstance(g, Exception): ...
#[pyfunction]
#[pyo3(signature = (paths, *, jobs=None))]
fn read_many(paths: &Bound<'_, PyAny>, jobs: Option<usize>) -> PyResult<many::GameStream> {
    let mut list = Vec::new();
    for p in paths.try_iter()? {
        list.push(p?.extract::<PathBuf>()?);
    }
    let jobs = jobs.unwrap_or_else(|| {
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    });
    if jobs == 0 {
        return Err(PyValueError::new_err("jobs must be at least 1"));
    }
    Ok(many::GameStream::start(list, jobs))
}

#[pymodule]
fn _kifu(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add_function(wrap_pyfunction!(read_many, m)?)?;
    m.add_class::<PyGame>()?;
    m.add_class::<game::PyVerdict>()?;
    m.add_class::<game::PyGameResult>()?;
    m.add_class::<many::GameStream>()?;
    m.add("KifuError", py.get_type::<errors::KifuError>())?;
    m.add("ParseError", py.get_type::<errors::ParseError>())?;
    m.add("NotARecord", py.get_type::<errors::NotARecord>())?;
    m.add("DecodeError", py.get_type::<errors::DecodeError>())?;
    m.add("ReadWarning", py.get_type::<errors::ReadWarning>())?;
    m.add("FormatWarning", py.get_type::<errors::FormatWarning>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
