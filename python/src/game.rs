//! `kifu.Game`: one replayed game, with its moves, positions, verdict and
//! result, and every output format of the CLI.

use crate::convert::{self, Output};
use crate::errors;
use kifu::replay::{Game, Verdict};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

/// Where a game came from, as `kifu check --json` names it.
#[derive(Clone)]
pub struct Meta {
    pub source: String,
    pub encoding: &'static str,
    pub format: kifu::Format,
}

/// A game read and replayed: every move was judged by the full rules.
/// `kifu.Game` in Python; the Rust name keeps it apart from the replayed
/// [`Game`] it wraps.
#[pyclass(frozen, name = "Game", module = "kifu")]
pub struct PyGame {
    game: Game,
    meta: Meta,
    /// For the readable part of a garbled record (`lenient=True`), the
    /// syntax error that cut it short, as its Python exception.
    error: Option<PyObject>,
}

/// Whether every move of the main line was legal, or the first foul.
#[pyclass(frozen, get_all, name = "Verdict", module = "kifu")]
pub struct PyVerdict {
    /// True when no move broke a rule.
    legal: bool,
    /// The rule code (`nifu`, `uchifuzume`, `perpetual-check`, ...), or None.
    rule: Option<&'static str>,
    /// The foul's ply (1 = the first move), or None.
    ply: Option<u32>,
    /// The move number as the record counts it, or None.
    move_number: Option<u32>,
    /// `"sente"` or `"gote"`: the side that played the foul and lost.
    loser: Option<&'static str>,
    /// The foul move in USI, where one could be formed.
    #[pyo3(name = "move")]
    usi: Option<String>,
    /// Why, in words.
    message: Option<String>,
    /// Where the move is written in the source (1-based).
    line: Option<u32>,
    /// Column of the move in the source (1-based).
    column: Option<u32>,
}

#[pymethods]
impl PyVerdict {
    fn __repr__(&self) -> String {
        match (self.legal, self.rule) {
            (true, _) | (false, None) => format!("Verdict(legal={})", py_bool(self.legal)),
            (false, Some(rule)) => format!(
                "Verdict(legal=False, rule={rule:?}, ply={}, loser={:?}, line={}, column={}, message={:?})",
                opt(self.ply),
                self.loser.unwrap_or(""),
                opt(self.line),
                opt(self.column),
                self.message.as_deref().unwrap_or("")
            ),
        }
    }

    /// The verdict as `kifu check --json` writes it.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("legal", self.legal)?;
        if !self.legal {
            d.set_item("ply", self.ply)?;
            d.set_item("move_number", self.move_number)?;
            d.set_item("rule", self.rule)?;
            d.set_item("loser", self.loser)?;
            if let Some(m) = &self.usi {
                d.set_item("move", m)?;
            }
            d.set_item("line", self.line)?;
            d.set_item("column", self.column)?;
            d.set_item("detail", &self.message)?;
        }
        Ok(d)
    }
}

/// Who won, and why.
#[pyclass(frozen, get_all, name = "GameResult", module = "kifu")]
pub struct PyGameResult {
    /// `"sente"`, `"gote"`, or None for a draw or no result.
    winner: Option<&'static str>,
    /// `resign`, `checkmate`, `foul`, `sennichite`, `time-up`, `none`, ...
    reason: &'static str,
}

#[pymethods]
impl PyGameResult {
    fn __repr__(&self) -> String {
        match self.winner {
            Some(w) => format!("GameResult(winner={w:?}, reason={:?})", self.reason),
            None => format!("GameResult(winner=None, reason={:?})", self.reason),
        }
    }

    /// The result as `kifu check --json` writes it.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("winner", self.winner)?;
        d.set_item("reason", self.reason)?;
        Ok(d)
    }
}

impl PyVerdict {
    /// A verdict from its parts (the variant games build theirs).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn of(
        legal: bool,
        rule: Option<&'static str>,
        ply: Option<u32>,
        loser: Option<&'static str>,
        usi: Option<String>,
        message: Option<String>,
        at: Option<(u32, u32)>,
    ) -> PyVerdict {
        PyVerdict {
            legal,
            rule,
            ply,
            move_number: ply,
            loser,
            usi,
            message,
            line: at.map(|a| a.0),
            column: at.map(|a| a.1),
        }
    }
}

impl PyGameResult {
    /// A result from its parts.
    pub(crate) fn of(winner: Option<&'static str>, reason: &'static str) -> PyGameResult {
        PyGameResult { winner, reason }
    }
}

fn py_bool(b: bool) -> &'static str {
    if b { "True" } else { "False" }
}

fn opt(v: Option<u32>) -> String {
    v.map_or("None".to_string(), |v| v.to_string())
}

impl PyGame {
    pub fn new(game: Game, meta: Meta) -> PyGame {
        PyGame {
            game,
            meta,
            error: None,
        }
    }

    /// The readable part of a garbled record, and the error that cut it.
    pub fn partial(game: Game, meta: Meta, error: PyObject) -> PyGame {
        PyGame {
            game,
            meta,
            error: Some(error),
        }
    }

    fn json_value(&self, report: bool) -> serde_json::Value {
        let m = &self.meta;
        if report {
            let r = kifu::report::game_report(&m.source, m.format, &self.game);
            serde_json::to_value(r).unwrap_or_default()
        } else {
            let (s, _) =
                kifu::emit::json::write(&m.source, m.encoding, m.format, &self.game, false);
            serde_json::from_str(&s).unwrap_or_default()
        }
    }
}

#[pymethods]
impl PyGame {
    /// The input's path, `<bytes>` or `<string>`.
    #[getter]
    fn source(&self) -> &str {
        &self.meta.source
    }

    /// None for a whole game; for the readable part of a garbled record
    /// read with `lenient=True`, the `ParseError` that cut it short.
    #[getter]
    fn error(&self, py: Python<'_>) -> Option<PyObject> {
        self.error.as_ref().map(|e| e.clone_ref(py))
    }

    /// The game's index within its file (CSA files hold several).
    #[getter]
    fn index(&self) -> usize {
        self.game.record.index
    }

    /// The format read: `kif`, `ki2`, `csa`, `usi` or `jkf`.
    #[getter]
    fn format(&self) -> &'static str {
        self.meta.format.name()
    }

    /// The encoding the input was decoded with.
    #[getter]
    fn encoding(&self) -> &'static str {
        self.meta.encoding
    }

    /// Every header field as written (key -> value, in file order; a key
    /// written twice keeps its last value).
    #[getter]
    fn header<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for h in &self.game.record.header {
            d.set_item(&h.key, &h.value)?;
        }
        Ok(d)
    }

    /// The start position, as a canonical SFEN.
    #[getter]
    fn start_sfen(&self) -> String {
        self.game.start.to_sfen()
    }

    /// The legal moves of the main line, in USI (`7g7f`, `8h2b+`, `P*5e`).
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.game.main.plies.iter().map(|p| p.mv.to_usi()).collect()
    }

    /// The position after each legal ply of the main line, as SFENs.
    fn sfens(&self, py: Python<'_>) -> Vec<String> {
        let (lines, _) = py.allow_threads(|| kifu::emit::sfen::write(&self.game));
        lines
            .lines()
            .skip(1)
            .map(|l| l.split('\t').next().unwrap_or("").to_string())
            .collect()
    }

    /// Legal, or the first foul: rule, ply, loser, message, line, column.
    #[getter]
    fn verdict(&self) -> PyVerdict {
        let v = kifu::report::verdict_json(&self.game.main.verdict);
        PyVerdict {
            legal: matches!(self.game.main.verdict, Verdict::Legal),
            rule: v.rule,
            ply: v.ply,
            move_number: v.move_number,
            loser: v.loser,
            usi: v.r#move,
            message: v.detail,
            line: v.line,
            column: v.column,
        }
    }

    /// Who won and why.
    #[getter]
    fn result(&self) -> PyGameResult {
        let r = kifu::report::result_json(&self.game.main.result);
        PyGameResult {
            winner: r.winner,
            reason: r.reason,
        }
    }

    /// The comments before the first move.
    #[getter]
    fn start_comments(&self) -> Vec<String> {
        self.game.record.comments.clone()
    }

    /// The comments of each legal ply (a list per ply).
    #[getter]
    fn comments(&self) -> Vec<Vec<String>> {
        let moves = &self.game.record.main.moves;
        let n = self.game.main.plies.len();
        moves
            .iter()
            .take(n)
            .map(|m| m.comments().to_vec())
            .collect()
    }

    /// The eval the record gives each legal ply, from sente's side, or None:
    /// a floodgate `'**` evaluation (or the KIF/JKF comment that carries
    /// it), else a GUI's evaluation comment, as the CLI's JSON `eval`.
    #[getter]
    fn evals(&self) -> Vec<Option<i64>> {
        let moves = &self.game.record.main.moves;
        let n = self.game.main.plies.len();
        moves.iter().take(n).map(kifu::emit::eval_score).collect()
    }

    /// The time of each legal ply: `(spent_ms, total_ms)` (either may be
    /// None), or None when the record has none.
    #[getter]
    fn times(&self) -> Vec<Option<(Option<u64>, Option<u64>)>> {
        let moves = &self.game.record.main.moves;
        let n = self.game.main.plies.len();
        moves
            .iter()
            .take(n)
            .map(|m| m.time.map(|t| (t.spent_ms, t.total_ms)))
            .collect()
    }

    /// The opening kifu names (as `kifu classify` and the `opening` object
    /// of `kifu check --json`): a dict `{"game", "type", "sente":
    /// {"strategy": [{"name", "ply"}], "castle": [...]}, "gote": {...}}`.
    #[getter]
    fn opening(&self, py: Python<'_>) -> PyResult<PyObject> {
        let o = py.allow_threads(|| kifu::opening::classify(&self.game));
        let v = serde_json::to_value(&o).map_err(|e| PyValueError::new_err(e.to_string()))?;
        to_py(py, &v)
    }

    /// The loss of each main-line move the record's evaluations judge (as
    /// `kifu stats --by` counts them): a list of dicts `{"ply", "side",
    /// "loss", "judgement"}` (`judgement`: `"dubious"`, `"mistake"`,
    /// `"blunder"` or None), with the thresholds `kifu analyze` uses.
    #[pyo3(signature = (dubious = 0.1, mistake = 0.2, blunder = 0.3))]
    fn losses(
        &self,
        py: Python<'_>,
        dubious: f64,
        mistake: f64,
        blunder: f64,
    ) -> PyResult<PyObject> {
        let t = kifu::judge::Thresholds {
            dubious,
            mistake,
            blunder,
        };
        if !t.is_valid() {
            return Err(PyValueError::new_err(
                "the thresholds must satisfy 0 < dubious <= mistake <= blunder <= 1",
            ));
        }
        let list: Vec<serde_json::Value> = kifu::judge::main_line_losses(&self.game, &t)
            .into_iter()
            .map(|m| {
                serde_json::json!({
                    "ply": m.ply,
                    "side": m.mover.name(),
                    "loss": m.loss,
                    "judgement": m.judgement,
                })
            })
            .collect();
        to_py(py, &serde_json::Value::Array(list))
    }

    /// The game as `kifu check --json` reports it (a dict).
    fn report(&self, py: Python<'_>) -> PyResult<PyObject> {
        to_py(py, &self.json_value(true))
    }

    /// The game as `kifu convert --to json` writes it (a dict).
    fn json(&self, py: Python<'_>) -> PyResult<PyObject> {
        to_py(py, &self.json_value(false))
    }

    /// The game in an output format of `kifu convert --to`: `str` for the
    /// text formats (`kifu`, `ki2u`, `csa`, `csa3`, `jkf`, `usi`, `sfen`,
    /// `json`), `bytes` for Shift_JIS (`kif`, `ki2`) and the training
    /// formats (`hcpe`, `psv`). What the format cannot hold is issued as a
    /// `kifu.FormatWarning` (code: message).
    #[pyo3(name = "to")]
    fn to_format(&self, py: Python<'_>, fmt: &str) -> PyResult<PyObject> {
        let m = &self.meta;
        let written =
            py.allow_threads(|| convert::write(&self.game, fmt, (&m.source, m.encoding, m.format)));
        let Some((out, warnings)) = written else {
            return Err(PyValueError::new_err(format!(
                "unknown format {fmt:?}: one of {}",
                convert::formats()
            )));
        };
        for w in warnings {
            errors::format_warning(py, &format!("{}: {}", w.code, w.message))?;
        }
        Ok(match out {
            Output::Text(s) => s.into_pyobject(py)?.into_any().unbind(),
            Output::Bytes(b) => PyBytes::new(py, &b).into_any().unbind(),
        })
    }

    fn __len__(&self) -> usize {
        self.game.main.plies.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "<kifu.Game {}#{} {} plies, {}>",
            self.meta.source,
            self.game.record.index,
            self.game.main.plies.len(),
            if self.game.main.verdict.is_legal() {
                "legal"
            } else {
                "foul"
            }
        )
    }
}

/// A JSON value as the Python value `json.loads` would give.
pub fn to_py(py: Python<'_>, v: &serde_json::Value) -> PyResult<PyObject> {
    use serde_json::Value;
    Ok(match v {
        Value::Null => py.None(),
        Value::Bool(b) => b.into_pyobject(py)?.to_owned().into_any().unbind(),
        Value::Number(n) => match (n.as_i64(), n.as_u64()) {
            (Some(i), _) => i.into_pyobject(py)?.into_any().unbind(),
            (None, Some(u)) => u.into_pyobject(py)?.into_any().unbind(),
            _ => n
                .as_f64()
                .unwrap_or(0.0)
                .into_pyobject(py)?
                .into_any()
                .unbind(),
        },
        Value::String(s) => s.into_pyobject(py)?.into_any().unbind(),
        Value::Array(a) => {
            let l = PyList::empty(py);
            for x in a {
                l.append(to_py(py, x)?)?;
            }
            l.into_any().unbind()
        }
        Value::Object(o) => {
            let d = PyDict::new(py);
            for (k, x) in o {
                d.set_item(k, to_py(py, x)?)?;
            }
            d.into_any().unbind()
        }
    })
}
