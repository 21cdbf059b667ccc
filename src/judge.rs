//! How much each move lost, from the evaluations a record carries, and
//! what it is called (疑問手, 悪手, 大悪手).
//!
//! A score becomes the chance of winning of the side it is from with the
//! logistic curve `1 / (1 + exp(-cp / 600))` (the scale of Ponanza-style
//! evaluation functions, as ShogiHome and many ML pipelines use it); a
//! mate is 1 or 0. A move's loss is the mover's chance before it (the
//! score of the position it was played from, which an engine gives as its
//! best) less the chance after it, never below 0.
//!
//! ```
//! use kifu::judge::{self, Judgement, Score, Thresholds};
//!
//! // Even before the move; the opponent is +600 after it: 0.23 lost.
//! let loss = judge::loss(Score::Cp(0), Score::Cp(600));
//! assert!((loss - 0.231).abs() < 1e-3);
//! assert_eq!(Thresholds::default().judge(loss), Some(Judgement::Mistake));
//! ```

use crate::replay::Game;
use crate::rules::types::Color;
use serde::{Deserialize, Serialize};

/// The centipawn scale of the win-probability curve.
pub const SCALE: f64 = 600.0;

/// The score a record carries for a mate in `n` plies: YaneuraOu's
/// `VALUE_MATE` (32000) less the plies, as USI GUIs show it; the record
/// forms (floodgate `'**`, KIF `**`) hold integers only.
pub const MATE_VALUE: i64 = 32000;

/// A record value this close to [`MATE_VALUE`] is read as a mate.
const MATE_BAND: i64 = 1000;

/// A score, from the point of view of one side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Score {
    /// Centipawns.
    Cp(i64),
    /// Mate in this many plies: positive when this side mates, negative
    /// when it is mated.
    Mate(i64),
}

impl Score {
    /// This score seen from sente, given whether it was sente's.
    pub fn for_sente(self, sente_to_move: bool) -> Score {
        if sente_to_move {
            return self;
        }
        self.flipped()
    }

    /// The same score seen from the other side.
    pub fn flipped(self) -> Score {
        match self {
            Score::Cp(c) => Score::Cp(c.saturating_neg()),
            Score::Mate(m) => Score::Mate(m.saturating_neg()),
        }
    }

    /// The integer a record's evaluation holds (mates as ±(32000 − plies)).
    pub fn record_value(self) -> i64 {
        match self {
            Score::Cp(c) => c,
            Score::Mate(m) if m >= 0 => MATE_VALUE - m.min(MATE_VALUE),
            Score::Mate(m) => -(MATE_VALUE - m.saturating_neg().min(MATE_VALUE)),
        }
    }

    /// The score a record's integer stands for: within 1000 of ±32000 a
    /// mate, otherwise centipawns.
    ///
    /// ```
    /// use kifu::judge::Score;
    /// assert_eq!(Score::from_record_value(31995), Score::Mate(5));
    /// assert_eq!(Score::from_record_value(-31999), Score::Mate(-1));
    /// assert_eq!(Score::from_record_value(-250), Score::Cp(-250));
    /// ```
    pub fn from_record_value(v: i64) -> Score {
        let plies = MATE_VALUE - v.saturating_abs();
        if (0..MATE_BAND).contains(&plies) {
            Score::Mate(if v > 0 { plies } else { -plies })
        } else {
            Score::Cp(v)
        }
    }
}

/// The chance of winning of the side a score is from.
pub fn win_probability(s: Score) -> f64 {
    match s {
        Score::Cp(cp) => 1.0 / (1.0 + (-(cp as f64) / SCALE).exp()),
        Score::Mate(m) if m > 0 => 1.0,
        Score::Mate(_) => 0.0,
    }
}

/// The loss of a move: `before` is the score of the position it was
/// played from, `after` the score of the position it left, each from the
/// side to move there (so `after` is the opponent's view).
pub fn loss(before: Score, after: Score) -> f64 {
    let mover_before = win_probability(before);
    let mover_after = 1.0 - win_probability(after);
    (mover_before - mover_after).max(0.0)
}

/// The losses from which a move is called 疑問手, 悪手 and 大悪手.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Thresholds {
    /// 疑問手 (dubious) from this loss.
    pub dubious: f64,
    /// 悪手 (mistake) from this loss.
    pub mistake: f64,
    /// 大悪手 (blunder) from this loss.
    pub blunder: f64,
}

impl Default for Thresholds {
    /// 0.1, 0.2 and 0.3 of a win.
    fn default() -> Self {
        Thresholds {
            dubious: 0.1,
            mistake: 0.2,
            blunder: 0.3,
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

    /// Whether `0 < dubious <= mistake <= blunder <= 1`.
    pub fn is_valid(&self) -> bool {
        0.0 < self.dubious
            && self.dubious <= self.mistake
            && self.mistake <= self.blunder
            && self.blunder <= 1.0
    }
}

/// What a move is called.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
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

/// The score of each position of a game's main line, from sente: index 0
/// is the start (which records do not evaluate: `None`), index `i` the
/// position after ply `i`, from the evaluation that move carries (the
/// floodgate form first, then a GUI comment's). A position with no legal
/// move is lost for its side to move whatever the record says: a mate the
/// other side has given, `Mate(1)` from the winner.
pub fn main_line_scores(game: &Game) -> Vec<Option<Score>> {
    let mut out = Vec::with_capacity(game.main.plies.len() + 1);
    out.push(None);
    let moves = &game.record.main.moves;
    out.extend((0..game.main.plies.len()).map(|i| moves.get(i).and_then(stored_score)));
    // Only the last position can be without a legal move: the game ends there.
    let mut pos = game.start.clone();
    for p in &game.main.plies {
        pos.play_unchecked(p.mv);
    }
    if !game.main.plies.is_empty() && !pos.has_legal_move() {
        let lost = Score::Mate(1).for_sente(pos.side_to_move() == Color::Gote);
        if let Some(last) = out.last_mut() {
            *last = Some(lost);
        }
    }
    out
}

/// The score a move's evaluation stores (the floodgate form first).
fn stored_score(m: &crate::record::MoveEntry) -> Option<Score> {
    let e = m.eval().or(m.gui_eval())?;
    e.score.map(Score::from_record_value)
}

/// One move's loss and name.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveLoss {
    /// The ply (1 for the first move).
    pub ply: usize,
    /// Who played it.
    pub mover: Color,
    /// The loss, 0 to 1.
    pub loss: f64,
    /// What it is called, if anything.
    pub judgement: Option<Judgement>,
}

/// The loss of each main-line move whose positions before and after are
/// both scored (see [`main_line_scores`]); the first move has none, since
/// records do not score the start.
pub fn main_line_losses(game: &Game, t: &Thresholds) -> Vec<MoveLoss> {
    // Without a stored score no move has two scored positions.
    if !game
        .record
        .main
        .moves
        .iter()
        .any(|m| stored_score(m).is_some())
    {
        return Vec::new();
    }
    losses_in(game, &main_line_scores(game), t)
}

/// [`main_line_losses`] from the game's [`main_line_scores`], already had.
pub fn losses_in(game: &Game, scores: &[Option<Score>], t: &Thresholds) -> Vec<MoveLoss> {
    let mut out = Vec::new();
    for (i, p) in game.main.plies.iter().enumerate() {
        let (Some(&Some(before)), Some(&Some(after))) = (scores.get(i), scores.get(i + 1)) else {
            continue;
        };
        let sente = p.color == Color::Sente;
        // Each seen from the side to move there.
        let l = loss(before.for_sente(sente), after.for_sente(!sente));
        out.push(MoveLoss {
            ply: i + 1,
            mover: p.color,
            loss: l,
            judgement: t.judge(l),
        });
    }
    out
}

/// What one side's moves lost over a game, or over many.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct LossSummary {
    /// Moves judged (both positions scored).
    pub moves: usize,
    /// The sum of their losses.
    pub total_loss: f64,
    /// 疑問手.
    pub dubious: usize,
    /// 悪手.
    pub mistake: usize,
    /// 大悪手.
    pub blunder: usize,
}

impl LossSummary {
    /// Count one move.
    pub fn add(&mut self, m: &MoveLoss) {
        self.moves += 1;
        self.total_loss += m.loss;
        match m.judgement {
            Some(Judgement::Dubious) => self.dubious += 1,
            Some(Judgement::Mistake) => self.mistake += 1,
            Some(Judgement::Blunder) => self.blunder += 1,
            None => {}
        }
    }

    /// Add another summary's counts.
    pub fn merge(&mut self, o: &LossSummary) {
        self.moves += o.moves;
        self.total_loss += o.total_loss;
        self.dubious += o.dubious;
        self.mistake += o.mistake;
        self.blunder += o.blunder;
    }

    /// The average loss a move, if any move was judged.
    pub fn average(&self) -> Option<f64> {
        (self.moves > 0).then(|| self.total_loss / self.moves as f64)
    }
}

/// Each side's summary of a game's main line: `[sente, gote]`.
pub fn game_losses(game: &Game, t: &Thresholds) -> [LossSummary; 2] {
    let mut out = [LossSummary::default(); 2];
    for m in main_line_losses(game, t) {
        out[usize::from(m.mover == Color::Gote)].add(&m);
    }
    out
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
        let l = loss(Score::Cp(0), Score::Cp(600));
        assert!((l - 0.231_058_6).abs() < 1e-6, "{l}");
        assert!(loss(Score::Cp(100), Score::Cp(-100)) < 1e-12);
        assert_eq!(loss(Score::Cp(0), Score::Cp(-300)), 0.0);
        assert_eq!(loss(Score::Mate(5), Score::Mate(3)), 1.0);
        let t = Thresholds::default();
        assert_eq!(t.judge(0.05), None);
        assert_eq!(t.judge(0.1), Some(Judgement::Dubious));
        assert_eq!(t.judge(l), Some(Judgement::Mistake));
        assert_eq!(t.judge(1.0), Some(Judgement::Blunder));
    }

    #[test]
    fn record_values_round_trip_mates_and_centipawns() {
        for s in [
            Score::Cp(0),
            Score::Cp(-1234),
            Score::Mate(7),
            Score::Mate(-2),
        ] {
            assert_eq!(Score::from_record_value(s.record_value()), s);
        }
        // Past the band: centipawns, as a big engine score is.
        assert_eq!(Score::from_record_value(30000), Score::Cp(30000));
    }
}
