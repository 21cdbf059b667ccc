//! Writing the game's name into its record's header (戦型 / `$OPENING`).

use super::{GameKind, Opening};
use crate::record::HeaderKey;
use crate::record::{HeaderField, Location, Record};

/// What [`fill_header`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filled {
    /// The record had no 戦型; one was added.
    Added,
    /// The record's 戦型 was replaced (only when asked to overwrite).
    Replaced,
    /// The record already had one, left as written.
    Kept,
    /// Nothing to write: a set-up position, or a handicap game with no
    /// strategy known beyond its handicap.
    Nothing,
}

/// Give `record` the 戦型 `opening` names, when it has none (or, with
/// `overwrite`, in place of the one it has). The field is keyed `戦型`;
/// the CSA writer spells it `$OPENING`, and a record read from CSA keeps
/// its `OPENING` key when the value is replaced.
///
/// # Example
///
/// ```
/// use kifu::{Format, ReplayOptions, parse, replay};
/// use kifu::opening::{Filled, classify, fill_header};
///
/// let usi = "position startpos moves 7g7f 3c3d 2h7h 8b3b\n";
/// let mut game = replay(parse::parse(usi, Format::Usi)?.remove(0), &ReplayOptions::default())?;
/// let opening = classify(&game);
/// assert_eq!(fill_header(&mut game.record, &opening, false), Filled::Added);
/// assert_eq!(game.record.header_value(&["戦型"]), Some("相三間飛車"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn fill_header(record: &mut Record, opening: &Opening, overwrite: bool) -> Filled {
    let bare_handicap = opening.kind == GameKind::Handicap
        && opening.sente.strategy.is_empty()
        && opening.gote.strategy.is_empty();
    if opening.kind == GameKind::Setup || bare_handicap {
        return Filled::Nothing;
    }
    let keys = [HeaderKey::Opening];
    match record.header.iter_mut().find(|h| h.is(&keys)) {
        Some(h) if overwrite => {
            h.value = opening.game.clone();
            Filled::Replaced
        }
        Some(_) => Filled::Kept,
        None => {
            record.header.push(HeaderField {
                key: "戦型".to_string(),
                value: opening.game.clone(),
                span: Location::default(),
            });
            Filled::Added
        }
    }
}
