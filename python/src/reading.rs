//! From an input to the items `read` and `read_many` give: games, errors
//! and warnings, in file order.

use crate::game::Meta;
use kifu::error::Error;
use kifu::input::Input;
use kifu::replay::{Game, ReplayOptions, replay};

/// One thing read from an input.
pub enum Item {
    /// A game, replayed.
    Game(Box<Game>, Meta),
    /// An input, or one game of it, that could not be read.
    Error(Error),
    /// Something to tell the user (replaced bytes, a false declaration).
    Warning(String),
}

/// The items of one input read whole, in file order: a game of a
/// multi-game file that failed to parse comes where it stood.
pub fn items_of(input: Result<Input, Error>, name: &str) -> Vec<Item> {
    let input = match input {
        Ok(i) => i,
        Err(e) => return vec![Item::Error(e)],
    };
    let mut items = Vec::with_capacity(input.records.len() + input.warnings.len());
    items.extend(
        input
            .warnings
            .into_iter()
            .map(|w| Item::Warning(format!("{name}: {w}"))),
    );
    let mut failed = input.failed.into_iter().peekable();
    for record in input.records {
        while let Some((_, e)) = failed.next_if(|(i, _)| *i < record.index) {
            items.push(Item::Error(e));
        }
        items.push(replayed(record, name, input.encoding, input.format));
    }
    items.extend(failed.map(|(_, e)| Item::Error(e)));
    items
}

/// A record replayed into an item.
pub fn replayed(
    record: kifu::Record,
    name: &str,
    encoding: &'static str,
    format: kifu::Format,
) -> Item {
    match replay(record, &ReplayOptions::default()) {
        Ok(g) => Item::Game(
            Box::new(g),
            Meta {
                source: name.to_string(),
                encoding,
                format,
            },
        ),
        Err(e) => Item::Error(e.with_path(name)),
    }
}
