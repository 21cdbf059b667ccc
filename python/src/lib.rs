//! The native module of the `kifu` Python package: read shogi game records,
//! judge every move by the full rules, write them in every format kifu
//! writes. `python/kifu/__init__.py` re-exports it; the stubs are
//! `python/kifu/__init__.pyi`.

mod convert;
mod errors;
mod game;
mod many;
mod reading;
mod variant;
mod walk;

use game::PyGame;
use kifu::ReaderBuilder;
use kifu::error::Error;
use pyo3::exceptions::{PyFileNotFoundError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};
use reading::{Item, read_items};
use std::path::PathBuf;

/// `ENOENT`: the errno of a missing file on every platform Python runs on.
const ENOENT: i32 = 2;

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
        // Set as `open()` sets them: `errno`, `strerror`, `filename`.
        return Err(PyFileNotFoundError::new_err((
            ENOENT,
            "No such file or directory (record text passed as a str must hold a line break; or pass bytes)",
            s.to_string(),
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

fn options(format: Option<&str>, encoding: Option<&str>, text: bool) -> PyResult<ReaderBuilder> {
    let mut builder = ReaderBuilder::new();
    if let Some(f) = format {
        let format = f
            .parse::<kifu::Format>()
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
        builder.format(format);
    }
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
    if let Some(e) = encoding {
        builder.encoding(e);
    }
    Ok(builder)
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
/// games read are returned. With `lenient=True`, a game cut short by a
/// syntax error is returned as far as it could be read, as
/// `kifu convert --lenient` converts it: its `error` is the `ParseError`,
/// also issued as a `ReadWarning`.
///
/// A record of a shogi variant (sho, tori, mini, Judkins, micro or chu
/// shogi: a KIF 手合割, an SFEN or a `setoption name UCI_Variant` line
/// shows it, or `variant=` names it) gives `VariantGame`s, judged by the
/// variant's rules as `kifu check --variant` judges them.
#[pyfunction]
#[pyo3(signature = (source, *, format=None, encoding=None, lenient=false, variant=None))]
fn read(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    format: Option<&str>,
    encoding: Option<&str>,
    lenient: bool,
    variant: Option<&str>,
) -> PyResult<Vec<PyObject>> {
    let src = source_of(source)?;
    if let Some(games) = read_variant(py, &src, variant)? {
        return Ok(games);
    }
    let mut builder = options(
        format,
        encoding,
        matches!(src, Source::Bytes(_, "<string>")),
    )?;
    let mut items = Vec::new();
    py.allow_threads(|| match &src {
        Source::Path(p) => {
            let made = builder.from_path(p);
            read_items(made, &p.display().to_string(), lenient, usize::MAX, |b| {
                items.extend(b);
                true
            })
        }
        Source::Bytes(b, name) => {
            let made = builder.path(name).from_reader(&b[..]);
            read_items(made, name, lenient, usize::MAX, |b| {
                items.extend(b);
                true
            })
        }
    });
    let mut games = Vec::with_capacity(items.len());
    let mut errors: Vec<Error> = Vec::new();
    for item in items {
        match item {
            Item::Game(g, meta) => games.push(Py::new(py, PyGame::new(*g, meta))?.into_any()),
            Item::Partial(g, meta, e) => {
                errors::warn(py, &errors::partial_warning(&e))?;
                let err = errors::to_py(py, &e).into_value(py).into_any();
                games.push(Py::new(py, PyGame::partial(*g, meta, err))?.into_any());
            }
            Item::Error(e) => errors.push(e),
            Item::Warning(w) => errors::warn(py, &w)?,
            // Variant records were read before (`read_variant`).
            Item::Variant(..) | Item::VariantError(_) => {}
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

/// The variant games of `src` when `variant` names a variant or the text
/// shows one; `None` for a shogi record (or no record: shogi's reader
/// then says what it is not).
fn read_variant(
    py: Python<'_>,
    src: &Source,
    variant: Option<&str>,
) -> PyResult<Option<Vec<PyObject>>> {
    let named = match variant {
        None => None,
        Some(name) => Some(kifu::variant::Variant::from_name(name).ok_or_else(|| {
            PyValueError::new_err(format!(
                "unknown variant {name:?}: shoshogi, torishogi, minishogi, judkins, micro or chushogi"
            ))
        })?),
    };
    let items = py.allow_threads(|| match src {
        Source::Path(p) => variant::path_items(p, named),
        Source::Bytes(b, name) => variant::bytes_items(b, name, named, false),
    });
    let Some(items) = items else {
        return Ok(None);
    };
    let mut games = Vec::with_capacity(items.len());
    for item in items {
        match item {
            Item::Variant(g, name, format) => {
                games.push(Py::new(py, variant::PyVariantGame::new(*g, &name, format))?.into_any());
            }
            Item::Error(e) => return Err(errors::to_py(py, &e)),
            Item::VariantError(why) => return Err(PyValueError::new_err(why)),
            _ => {}
        }
    }
    Ok(Some(games))
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
///
/// A directory stands for the record files under it, as the CLI searches
/// it: by extension, in sorted order, a `.json` file only when it is JKF.
#[pyfunction]
#[pyo3(signature = (paths, *, jobs=None))]
fn read_many(paths: &Bound<'_, PyAny>, jobs: Option<usize>) -> PyResult<many::GameStream> {
    // A str (or bytes) is iterable, but its characters are no paths.
    if paths.is_instance_of::<PyString>() || paths.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(
            "read_many takes an iterable of paths, not one path: pass [path]",
        ));
    }
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
    let inputs = py_allow(paths.py(), || walk::inputs(&list));
    Ok(many::GameStream::start(inputs, jobs))
}

/// `f` without the GIL.
fn py_allow<T: Send>(py: Python<'_>, f: impl FnOnce() -> T + Send) -> T {
    py.allow_threads(f)
}

#[pymodule]
fn _kifu(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add_function(wrap_pyfunction!(read_many, m)?)?;
    m.add_class::<PyGame>()?;
    m.add_class::<variant::PyVariantGame>()?;
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
