//! The JKF document as serde_json writes it: typed structures borrowing
//! from the record, whose field order is the key order of the output.

use crate::record::Evaluation;
use crate::rules::types::{Hand, PieceKind, Square};
use serde::Serialize;
use serde::ser::Serializer;
use std::borrow::Cow;

/// serde_json's output buffer. Most of its writes are a few bytes (an indent
/// step, `": "`, a quote), for which `Vec::extend_from_slice` calls `memcpy`
/// and the call costs more than the copy.
pub(super) struct Out(pub(super) Vec<u8>);

impl std::io::Write for Out {
    #[inline]
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.write_all(buf)?;
        Ok(buf.len())
    }

    #[inline]
    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        match *buf {
            [a] => self.0.push(a),
            [a, b] => self.0.extend_from_slice(&[a, b]),
            _ => self.0.extend_from_slice(buf),
        }
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The whole file.
#[derive(Serialize)]
pub(super) struct Document<'a> {
    pub(super) header: Header<'a>,
    pub(super) initial: Initial,
    pub(super) moves: Vec<Entry<'a>>,
}

/// Header fields as a JSON object, in record order, each key once.
pub(super) struct Header<'a>(pub(super) Vec<(&'a str, &'a str)>);

impl Serialize for Header<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().copied())
    }
}

#[derive(Serialize)]
pub(super) struct Initial {
    pub(super) preset: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) data: Option<Box<InitialData>>,
}

#[derive(Serialize)]
pub(super) struct InitialData {
    pub(super) color: usize,
    /// `board[x - 1][y - 1]`, as JKF orders it.
    pub(super) board: [[Cell; 9]; 9],
    pub(super) hands: [HandOut; 2],
}

/// A square of the start position: `{}` when empty.
#[derive(Serialize, Default, Clone, Copy)]
pub(super) struct Cell {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) color: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) kind: Option<&'static str>,
}

/// A hand with every kind named, zeros included (the schema needs them).
pub(super) struct HandOut(pub(super) Hand);

impl Serialize for HandOut {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(PieceKind::HAND.iter().map(|&k| (k.csa(), self.0.count(k))))
    }
}

/// One element of `moves` or of a fork: the start entry, a move, or how a
/// line ends. The field order is the key order (comments lead each entry so
/// that re-reading and re-writing is stable); a move never has `special`
/// and an ending never has `move` or `forks`.
#[derive(Serialize, Default)]
pub(super) struct Entry<'a> {
    #[serde(skip_serializing_if = "Comments::is_empty")]
    pub(super) comments: Comments<'a>,
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    pub(super) mv: Option<MoveOut>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) time: Option<TimeOut>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(super) forks: Vec<Vec<Entry<'a>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) special: Option<&'static str>,
}

/// The record's comments, borrowed, then any the writer adds (a foul's
/// account, moves not replayed, an ending JKF has no word for), then the
/// bookmarks and the evaluation as comments (`marks`). The marks go last
/// whatever is added after them, so that a JKF read back, whose marks are
/// lifted out of its comments, is written the same.
#[derive(Default)]
pub(super) struct Comments<'a> {
    pub(super) record: &'a [String],
    pub(super) added: Vec<Cow<'a, str>>,
    pub(super) marks: Vec<Cow<'a, str>>,
}

impl<'a> Comments<'a> {
    pub(super) fn of(record: &'a [String]) -> Self {
        Comments {
            record,
            ..Comments::default()
        }
    }

    fn is_empty(&self) -> bool {
        self.record.is_empty() && self.added.is_empty() && self.marks.is_empty()
    }
}

impl Serialize for Comments<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(
            self.record
                .iter()
                .map(|c| as_comment(c))
                .chain(self.added.iter().map(|c| as_comment(c)))
                .chain(self.marks.iter().map(|c| Cow::Borrowed(&**c))),
        )
    }
}

/// A comment as written so that it reads back as one: a
/// comment the reader would take for a bookmark (led by `&`, as the JKF
/// KIF grammar keeps bookmarks) or an evaluation (`* 30 -3334FU`) gets a
/// space in front, as the CSA writer does for `'**`.
fn as_comment(c: &str) -> Cow<'_, str> {
    if c.starts_with('&') || Evaluation::is_floodgate_comment(c) {
        Cow::Owned(format!(" {c}"))
    } else {
        Cow::Borrowed(c)
    }
}

#[derive(Serialize)]
pub(super) struct MoveOut {
    pub(super) color: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) from: Option<Place>,
    pub(super) to: Place,
    pub(super) piece: &'static str,
    #[serde(skip_serializing_if = "is_false")]
    pub(super) same: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) promote: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) capture: Option<&'static str>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub(super) relative: String,
}

// serde's `skip_serializing_if` takes a path to a function of `&T`.
pub(super) fn is_false(b: &bool) -> bool {
    !*b
}

#[derive(Serialize)]
pub(super) struct Place {
    pub(super) x: u8,
    pub(super) y: u8,
}

impl From<Square> for Place {
    fn from(sq: Square) -> Self {
        Place {
            x: sq.file(),
            y: sq.rank(),
        }
    }
}

#[derive(Serialize)]
pub(super) struct TimeOut {
    pub(super) now: Now,
    pub(super) total: Total,
}

#[derive(Serialize)]
pub(super) struct Now {
    pub(super) m: u64,
    pub(super) s: u64,
}

#[derive(Serialize)]
pub(super) struct Total {
    pub(super) h: u64,
    pub(super) m: u64,
    pub(super) s: u64,
}
