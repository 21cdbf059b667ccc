//! From an input to the items `read` and `read_many` give: games, errors
//! and warnings, in file order, through the library's [`kifu::Reader`]
//! (which streams a long multi-game CSA file a game at a time).

use crate::game::Meta;
use kifu::error::Error;
use kifu::replay::{Game, ReplayOptions, replay};
use kifu::{Reader, Record};
use std::io::Read;

/// One thing read from an input.
pub enum Item {
    /// A game, replayed.
    Game(Box<Game>, Meta),
    /// With `lenient`, the readable part of a garbled game, replayed, and
    /// the syntax error that cut it short.
    Partial(Box<Game>, Meta, Error),
    /// An input, or one game of it, that could not be read.
    Error(Error),
    /// Something to tell the user (replaced bytes, a false declaration).
    Warning(String),
    /// A game of a shogi variant, replayed by its rules, with its source
    /// and format.
    Variant(Box<kifu::variant::VariantGame>, String, kifu::Format),
    /// A variant record that cannot be read, and why (`ValueError`).
    VariantError(String),
}

/// The items of an input, handed to `send` in batches of at most `batch`
/// (the decoding warnings before the games they concern); stops early when
/// `send` returns false, and returns whether it did not.
pub fn read_items<R: Read>(
    made: Result<Reader<R>, Error>,
    name: &str,
    lenient: bool,
    batch: usize,
    mut send: impl FnMut(Vec<Item>) -> bool,
) -> bool {
    let mut reader = match made {
        Ok(r) => r,
        Err(e) => return send(vec![Item::Error(e)]),
    };
    let meta = Meta {
        source: name.to_string(),
        encoding: reader.encoding().name(),
        format: reader.format(),
    };
    let mut items = Vec::with_capacity(batch.min(64));
    loop {
        let next = reader.records().next();
        let warnings = reader.take_warnings().into_iter();
        items.extend(warnings.map(|w| Item::Warning(format!("{name}: {w}"))));
        let Some(read) = next else {
            break;
        };
        items.push(match read {
            Ok(record) => replayed(record, &meta),
            Err(e) if lenient && e.partial().is_some() => partial(e, &meta),
            Err(e) => Item::Error(e),
        });
        if items.len() >= batch && !send(std::mem::take(&mut items)) {
            return false;
        }
    }
    items.is_empty() || send(items)
}

/// A record replayed into an item.
fn replayed(record: Record, meta: &Meta) -> Item {
    match replay(record, &ReplayOptions::default()) {
        Ok(g) => Item::Game(Box::new(g), meta.clone()),
        Err(e) => Item::Error(e.with_path(&meta.source)),
    }
}

/// The readable part of the game `e` cut short, replayed, with `e`.
fn partial(e: Error, meta: &Meta) -> Item {
    let Some(p) = e.partial() else {
        return Item::Error(e);
    };
    match replay(p.record.clone(), &ReplayOptions::default()) {
        Ok(g) => Item::Partial(Box::new(g), meta.clone(), e),
        Err(_) => Item::Error(e),
    }
}
