//! How much a move lost, in expected-win terms, and what it is called.
//!
//! A score becomes the mover's chance of winning with the logistic curve
//! `1 / (1 + exp(-cp / 600))` (the scale of Ponanza-style evaluation
//! functions, as ShogiHome and many ML pipelines use it); a mate is 1 or 0.
//! A move's loss is the mover's chance before it (the engine's best from
//! that position) less the chance after it (the engine's score of the
//! position the move left), never below 0.

use super::usi::Score;
use serde::Serialize;

/// The centipawn scale of the win-probability curve.
pub const SCALE: f64 = 600.0;

/// The chance of winning of the side a score is from.
pub fn win_probability(s: Score) -> f64 {
    match s {
        Score::Cp(cp) => 1.0 / (1.0 + (-(cp as f64) / SCALE).exp()),
        Score::Mate(m) if m > 0 => 1.0,
        Score::Mate(_) => 0.0,
    }
}

/// The losses from which a move is called 疑問手, 悪手 and 大悪手.
#[derive(Clone, Copy, Debug)]
pub struct Thresholds {
    /// 疑問手 (dubious) from this loss.
    pub dubious: f64,
    /// 悪手 (mistake) from this loss.
    pub mistake: f64,
    /// 大悪手 (blunder) from this loss.
    pub blunder: f64,
}

/// What a move is called.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Judgement {
    /// 疑問手.
    Dubious,
    /// 悪手.
    Mistake,
    /// 大悪手.
    Blunder,
}

impl Judgement {
    /// The Japanese name.
    pub fn ja(self) -> &'static str {
        match self {
            Judgement::Dubious => "疑問手",
            Judgement::Mistake => "悪手",
            Judgement::Blunder => "大悪手",
        }
    }
}

impl Thresholds {
    /// The name a loss earns, if any.
    pub fn judge(&self, loss: f64) -> Option<Judgement> {
        if loss >= self.blunder {
            Some(Judgement::Blunder)
        } else if loss >= self.mistake {
            Some(Judgement::Mistake)
        } else if loss >= self.dubious {
            Some(Judgement::Dubious)
        } else {
            None
        }
    }
}

/// The loss of a move: `before` is the engine's score of the position it
/// was played from, `after` its score of the position it left, each from
/// the side to move there (so `after` is the opponent's view).
pub fn loss(before: Score, after: Score) -> f64 {
    let mover_before = win_probability(before);
    let mover_after = 1.0 - win_probability(after);
    (mover_before - mover_after).max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curve_is_even_at_zero_and_certain_at_mate() {
        assert!((win_probability(Score::Cp(0)) - 0.5).abs() < 1e-12);
        assert!((win_probability(Score::Cp(600)) - 0.731_058_6).abs() < 1e-6);
        assert_eq!(win_probability(Score::Mate(3)), 1.0);
        assert_eq!(win_probability(Score::Mate(-1)), 0.0);
    }

    #[test]
    fn a_move_loses_what_its_opponent_gains() {
        // Even before; the opponent is +600 after: the mover lost 0.23.
        let l = loss(Score::Cp(0), Score::Cp(600));
        assert!((l - 0.231_058_6).abs() < 1e-6, "{l}");
        // A move that keeps the score loses nothing, nor one that gains.
        assert!(loss(Score::Cp(100), Score::Cp(-100)) < 1e-12);
        assert_eq!(loss(Score::Cp(0), Score::Cp(-300)), 0.0);
        // Walking out of a mate into being mated loses everything.
        assert_eq!(loss(Score::Mate(5), Score::Mate(3)), 1.0);
        let t = Thresholds {
            dubious: 0.1,
            mistake: 0.2,
            blunder: 0.3,
        };
        assert_eq!(t.judge(0.05), None);
        assert_eq!(t.judge(0.1), Some(Judgement::Dubious));
        assert_eq!(t.judge(l), Some(Judgement::Mistake));
        assert_eq!(t.judge(1.0), Some(Judgement::Blunder));
    }
}
