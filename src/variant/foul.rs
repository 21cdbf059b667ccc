//! The fouls of the family: shogi's [`Rule`]s, and the ones only a variant has.

use crate::rules::rule::Rule;
use std::fmt;

/// The single rule an illegal variant move breaks. The [`VariantFoul::code`]
/// strings are stable; shogi's own rules keep shogi's codes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum VariantFoul {
    /// A rule the variant shares with shogi (`nifu`, `self-check`, …).
    Shogi(Rule),
    /// A drop in sho shogi, which has none.
    NoDrops,
    /// Tori shogi: a swallow dropped on a file that holds two of its side's swallows.
    ThirdSwallow,
    /// Tori shogi: a swallow drop that checkmates at once.
    SwallowDropMate,
    /// Tori shogi: a swallow or falcon moving in, into or out of the zone
    /// without promoting.
    CompulsoryPromotion,
    /// Tori shogi: the move completes the fourth occurrence of a position.
    RepetitionLoss,
    /// Chu shogi: a lion takes a protected lion that is not next to it,
    /// without first taking a piece other than a pawn or go-between.
    ProtectedLion,
    /// Chu shogi: a piece other than a lion takes a lion right after a
    /// non-lion took a lion, elsewhere than on that square.
    LionRecapture,
}

impl VariantFoul {
    /// The stable code: shogi's (`nifu`, …) or `no-drops`, `third-swallow`,
    /// `swallow-drop-mate`, `compulsory-promotion`, `repetition-loss`.
    pub const fn code(self) -> &'static str {
        match self {
            VariantFoul::Shogi(r) => r.code(),
            VariantFoul::NoDrops => "no-drops",
            VariantFoul::ThirdSwallow => "third-swallow",
            VariantFoul::SwallowDropMate => "swallow-drop-mate",
            VariantFoul::CompulsoryPromotion => "compulsory-promotion",
            VariantFoul::RepetitionLoss => "repetition-loss",
            VariantFoul::ProtectedLion => "protected-lion",
            VariantFoul::LionRecapture => "lion-recapture",
        }
    }

    /// The Japanese name of the foul.
    pub const fn kanji(self) -> &'static str {
        match self {
            VariantFoul::Shogi(r) => r.kanji(),
            VariantFoul::NoDrops => "持ち駒使用の反則",
            VariantFoul::ThirdSwallow => "三燕",
            VariantFoul::SwallowDropMate => "打ち燕詰め",
            VariantFoul::CompulsoryPromotion => "成りの強制",
            VariantFoul::RepetitionLoss => "千日手",
            VariantFoul::ProtectedLion => "獅子の取り合いの反則",
            VariantFoul::LionRecapture => "獅子の取り返しの反則",
        }
    }
}

impl From<Rule> for VariantFoul {
    fn from(r: Rule) -> VariantFoul {
        VariantFoul::Shogi(r)
    }
}

impl fmt::Display for VariantFoul {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}
