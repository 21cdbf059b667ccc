//! `kifu.VariantGame`: one game of a shogi variant (sho, tori, mini,
//! Judkins, micro, chu), read and replayed by the variants' rules engine,
//! as `kifu check --variant` judges it.

use crate::game::{PyGameResult, PyVerdict, to_py};
use crate::reading::Item;
use kifu::Format;
use kifu::error::{Error, ErrorKind};
use kifu::variant::read::{ReadError, game_json, read_text, sniff};
use kifu::variant::{Variant, VariantGame};
use pyo3::prelude::*;
use std::io::Read;
use std::path::Path;

/// How much of a file is sniffed for a variant, as the CLI does: a shogi
/// file is then read by the shogi reader, not held twice.
const SNIFF_BYTES: u64 = 1 << 16;

/// The items of the variant record at `path` (read as `named`, or as the
/// variant it shows); `None` when it shows none, or cannot be opened (the
/// shogi reader then says why).
pub fn path_items(path: &Path, named: Option<Variant>) -> Option<Vec<Item>> {
    let mut head = Vec::new();
    let limit = if named.is_some() {
        u64::MAX
    } else {
        SNIFF_BYTES
    };
    std::fs::File::open(path)
        .ok()?
        .take(limit)
        .read_to_end(&mut head)
        .ok()?;
    let name = path.display().to_string();
    if named.is_none() {
        let text = kifu::decode::decode(&head, None).ok()?.text;
        if !matches!(sniff(&text), Some(Ok(_))) {
            return None;
        }
        head = std::fs::read(path).ok()?;
    }
    bytes_items(&head, &name, named, true)
}

/// The items of the variant record in `bytes`; `None` unless `named` or
/// the text shows a variant (`sniffed`: it was seen to).
pub fn bytes_items(
    bytes: &[u8],
    name: &str,
    named: Option<Variant>,
    sniffed: bool,
) -> Option<Vec<Item>> {
    let text = kifu::decode::decode(bytes, None).ok()?.text;
    if named.is_none() && !sniffed && !matches!(sniff(&text), Some(Ok(_))) {
        return None;
    }
    Some(match read_text(&text, named) {
        Ok((format, games)) => games
            .into_iter()
            .map(|g| Item::Variant(Box::new(g), name.to_string(), format))
            .collect(),
        Err(ReadError::Parse(p)) => {
            vec![Item::Error(Error::new(ErrorKind::Parse(p)).with_path(name))]
        }
        Err(e) => vec![Item::VariantError(format!("{name}: {e}"))],
    })
}

/// A variant game read and replayed: every move judged by its variant's
/// rules. `kifu.read` gives these for a variant record.
#[pyclass(frozen, name = "VariantGame", module = "kifu")]
pub struct PyVariantGame {
    game: VariantGame,
    source: String,
    format: Format,
}

impl PyVariantGame {
    pub fn new(game: VariantGame, source: &str, format: Format) -> PyVariantGame {
        PyVariantGame {
            game,
            source: source.to_string(),
            format,
        }
    }
}

#[pymethods]
impl PyVariantGame {
    /// The path (or `<bytes>`/`<string>`) it was read from.
    #[getter]
    fn source(&self) -> &str {
        &self.source
    }

    /// The game's index in its input, from 0.
    #[getter]
    fn index(&self) -> usize {
        self.game.record.index
    }

    /// `kif` or `usi`.
    #[getter]
    fn format(&self) -> &'static str {
        self.format.name()
    }

    /// The variant's name as `--variant` takes it (`chushogi`, `minishogi`, …).
    #[getter]
    fn variant(&self) -> &'static str {
        self.game.end.variant().name()
    }

    /// The start position, as SFEN in the variant's conventions.
    #[getter]
    fn start_sfen(&self) -> String {
        self.game.start.to_sfen()
    }

    /// The record's moves in USI (a lion's double move as `from mid to`):
    /// the legal ones, then the foul and what follows it, as written (as
    /// `check --json` lists them); `len()` counts the legal ones.
    #[getter]
    fn moves(&self) -> Vec<String> {
        kifu::emit::variant::moves_usi(&self.game)
    }

    /// The position after each legal ply, as SFEN.
    fn sfens(&self) -> Vec<String> {
        let mut board = self.game.start.clone();
        self.game
            .plies
            .iter()
            .map(|p| {
                board.play_unchecked(p.mv);
                board.to_sfen()
            })
            .collect()
    }

    /// Whether every move was legal, or the first foul.
    #[getter]
    fn verdict(&self) -> PyVerdict {
        match &self.game.foul {
            None => PyVerdict::of(true, None, None, None, None, None, None),
            Some(f) => PyVerdict::of(
                false,
                Some(f.foul.code()),
                Some(f.ply),
                Some(f.loser.name()),
                f.usi.clone(),
                Some(f.foul.to_string()),
                Some((f.span.line, f.span.column)),
            ),
        }
    }

    /// Who won and why.
    #[getter]
    fn result(&self) -> PyGameResult {
        PyGameResult::of(self.game.winner.map(|c| c.name()), self.game.reason.code())
    }

    /// The game as `kifu check --json` reports it (a dict).
    fn report(&self, py: Python<'_>) -> PyResult<PyObject> {
        to_py(py, &game_json(&self.source, self.format, &self.game))
    }

    fn __len__(&self) -> usize {
        self.game.plies.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "VariantGame(source={:?}, index={}, variant={:?}, plies={})",
            self.source,
            self.game.record.index,
            self.variant(),
            self.game.plies.len()
        )
    }
}
