//! What the games of one CSA file share: the fields that describe the
//! whole file (version, encoding), which every game after the line that
//! wrote them gets, and the games' indices.
//!
//! Each game is read on its own ([`read_game`](super::read_game)), so games
//! can be read on several threads; [`InFile::place`] then gives them their
//! places in file order. That is the only step that needs the games before.

use super::GameRead;
use crate::error::ParseError;
use crate::record::{HeaderField, Record};

/// The version and encoding fields of a file, as the games read so far
/// wrote them: each key once, in the order first written, with the value
/// and span of the line that wrote it last.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct FileFields(Vec<HeaderField>);

impl FileFields {
    /// Take the fields a game wrote: a value replaces the one of its key,
    /// in its place; a new key comes last.
    pub(super) fn learn(&mut self, written: &FileFields) {
        for f in &written.0 {
            match self.0.iter_mut().find(|old| old.key == f.key) {
                Some(old) => old.clone_from(f),
                None => self.0.push(f.clone()),
            }
        }
    }

    /// A field written by a version line or an encoding line.
    pub(super) fn write(&mut self, field: HeaderField) {
        self.learn(&FileFields(vec![field]));
    }
}

/// Give a game the file's fields, ahead of its own header.
pub(super) fn inherit(file: &FileFields, record: &mut Record) {
    record.header.splice(0..0, file.0.iter().cloned());
}

/// The state of a file read game by game, in file order.
#[derive(Clone, Debug, Default)]
pub(crate) struct InFile {
    fields: FileFields,
    games: usize,
}

impl InFile {
    /// Give the next game of the file its place: its index and the file's
    /// fields (its readable part too, when it failed). `None` for a piece
    /// of text that held no statement, which takes no index.
    pub fn place(&mut self, game: GameRead) -> Option<(usize, Result<Record, ParseError>)> {
        self.fields.learn(&game.written);
        let index = self.games;
        let place = |record: &mut Record| {
            record.index = index;
            inherit(&self.fields, record);
        };
        let result = match game.result {
            Ok(None) => return None,
            Ok(Some(mut record)) => {
                place(&mut record);
                Ok(record)
            }
            Err(mut e) => {
                if let Some(p) = e.partial.as_mut() {
                    place(&mut p.record);
                }
                Err(e)
            }
        };
        self.games += 1;
        Some((index, result))
    }
}
