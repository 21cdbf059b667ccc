//! The `まで64手で後手の勝ち` line that closes KIF and KI2 records.
//!
//! Writers put the number of moves and the winner there. Both are checked
//! against the replay: a count larger than the moves written is how a
//! truncated record (a copy cut short, a lost page) shows itself, and a
//! named winner that disagrees with the board is worth a look too. The
//! phrase names the ending, which KI2 has no other place for.

use crate::parse::ja::header::side_prefix;
use crate::parse::ja::numeral::numeral_prefix;
use crate::parse::ja::token::is_space;
use crate::record::{Closing, EndingKind};
use crate::rules::types::Color;

/// A `まで…` line read: `None` when it is not one or has no move count.
pub(crate) fn read(line: &str) -> Option<Closing> {
    let text = line.trim();
    let c = claim(text)?;
    Some(Closing {
        moves: c.moves,
        winner: c.winner,
        ending: summary_ending(text),
        text: text.to_string(),
    })
}

/// What a `まで…` line counts and whom it names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Claim {
    moves: u32,
    winner: Option<Color>,
}

/// Read a `まで…` line; `None` when it is not one or has no move count.
fn claim(line: &str) -> Option<Claim> {
    let rest = line.trim().strip_prefix("まで")?;
    // The same numeral reader as the KI2 summary: digits, full-width digits
    // or kanji (`まで十八手`).
    let (moves, used) = numeral_prefix(rest)?;
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

/// A `まで…` line read per `ki2.md` §5: the ending kind, when the phrase is
/// one kifu knows. Spaces are ignored; `まで49手詰` (tsume) has no `で`.
pub fn summary_ending(text: &str) -> Option<EndingKind> {
    let t: String = text.chars().filter(|&c| !is_space(c)).collect();
    let rest = t.strip_prefix("まで")?;
    let rest = rest.strip_prefix('、').unwrap_or(rest);
    let (_, used) = numeral_prefix(rest)?;
    let rest = rest[used..].strip_prefix('手')?;
    let phrase = rest.strip_prefix('で').unwrap_or(rest);
    fn after_side(p: &str) -> Option<&str> {
        side_prefix(p)?.1.strip_prefix('の')
    }
    // Time-up and the specific wins before the generic 勝ち (tsshogi's order).
    if let Some(p) = phrase.strip_prefix("時間切れにより") {
        return after_side(p)
            .filter(|r| *r == "勝ち")
            .map(|_| EndingKind::TimeUp);
    }
    if let Some(r) = after_side(phrase) {
        return match r {
            "反則勝ち" => Some(EndingKind::FoulByPrevious),
            "反則負け" => Some(EndingKind::FoulByMover),
            "入玉勝ち" => Some(EndingKind::Kachi),
            "勝ち" => Some(EndingKind::Resign),
            _ => None,
        };
    }
    match phrase {
        "中断" => Some(EndingKind::Interrupt),
        "千日手" => Some(EndingKind::Sennichite),
        "持将棋" => Some(EndingKind::Jishogi),
        "詰" | "詰み" => Some(EndingKind::Tsumi),
        "不詰" => Some(EndingKind::Fuzumi),
        "封じ手" => Some(EndingKind::Sealed),
        "投了" => Some(EndingKind::Resign),
        "入玉宣言" => Some(EndingKind::Kachi),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_writers_phrasings() {
        let c = |s| read(s).map(|c| (c.moves, c.winner));
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
