//! The `まで64手で後手の勝ち` line that closes KIF and KI2 records.
//!
//! Writers put the number of moves and the winner there. Both are checked
//! against the replay: a count larger than the moves written is how a
//! truncated record (a copy cut short, a lost page) shows itself, and a
//! named winner that disagrees with the board is worth a look too.

use crate::parse::ja::header::side_prefix;
use crate::rules::types::Color;

/// What a `まで…` line states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claim {
    /// The number of moves it counts (`まで64手` → 64).
    pub moves: u32,
    /// The side it names as the winner, if it names one.
    pub winner: Option<Color>,
}

/// Read a `まで…` line; `None` when it is not one or has no move count.
pub fn claim(line: &str) -> Option<Claim> {
    let rest = line.trim().strip_prefix("まで")?;
    // The same numeral reader as the KI2 summary: digits, full-width digits
    // or kanji (`まで十八手`).
    let (moves, used) = crate::parse::ja::numeral::numeral_prefix(rest)?;
    let tail = rest[used..].strip_prefix('手')?;
    Some(Claim {
        moves,
        winner: named_winner(tail),
    })
}

/// `で後手の勝ち`, `で先手の反則負け`, `で時間切れにより上手の勝ち`: the winner.
fn named_winner(tail: &str) -> Option<Color> {
    // The first place a side's name and の are written.
    let (side, outcome) = tail.char_indices().find_map(|(i, _)| {
        let (side, rest) = side_prefix(&tail[i..])?;
        Some((side, rest.strip_prefix('の')?))
    })?;
    if outcome.contains("負け") {
        Some(side.flip())
    } else if outcome.contains("勝ち") {
        Some(side)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_writers_phrasings() {
        let c = |s| claim(s).map(|c| (c.moves, c.winner));
        assert_eq!(c("まで64手で後手の勝ち"), Some((64, Some(Color::Gote))));
        assert_eq!(
            c("まで１０３手で先手の勝ち"),
            Some((103, Some(Color::Sente)))
        );
        assert_eq!(c("まで77手で先手の反則負け"), Some((77, Some(Color::Gote))));
        assert_eq!(c("まで5手で後手の反則勝ち"), Some((5, Some(Color::Gote))));
        assert_eq!(c("まで40手で下手の勝ち"), Some((40, Some(Color::Sente))));
        assert_eq!(c("まで41手で上手の勝ち"), Some((41, Some(Color::Gote))));
        assert_eq!(
            c("まで9手で時間切れにより先手の勝ち"),
            Some((9, Some(Color::Sente)))
        );
        assert_eq!(c("まで100手で千日手"), Some((100, None)));
        assert_eq!(c("まで3手詰"), Some((3, None)));
        assert_eq!(c("まで30手で中断"), Some((30, None)));
        assert_eq!(c("まで手で後手の勝ち"), None);
        assert_eq!(c("後手の勝ち"), None);
        assert_eq!(c("まで99999999999手"), None);
        assert_eq!(c("まで十八手で後手の勝ち"), Some((18, Some(Color::Gote))));
    }
}
