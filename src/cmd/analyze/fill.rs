//! The engine's answers put into the games as they are written: each move
//! gets the evaluation of the position it left (the floodgate form every
//! writer carries: CSA `'**`, JKF comments,
//! the analysis JSON's `eval`/`pv`, the training formats' eval fields;
//! KIF and KI2 get ShogiGUI's `*解析` comment, which ShogiGUI and kifu read
//! back), and
//! the analysis JSON gains per move the search's details, the move's loss
//! and its judgement.

use super::cache::Cache;
use super::line::{checked_pv, gui_comment, is_gui_eval_comment, key};
use super::usi::Score;
use crate::ToFormat;
use crate::cmd::convert::Amend;
use kifu::judge::{self, Judgement, Thresholds};
use kifu::record::Evaluation;
use kifu::replay::Game;
use kifu::rules::position::Position;
use serde::Serialize;

/// The answers, and how to put them in.
pub struct Fill<'a> {
    /// Where the answers are.
    pub cache: &'a Cache,
    /// Whether to replace the evaluations records carry.
    pub overwrite: bool,
    /// The judgement thresholds.
    pub thresholds: Thresholds,
    /// The `go` command, for the JSON.
    pub search: String,
    /// Whether the JSON is indented.
    pub pretty: bool,
    /// The output format: KIF and KI2 get ShogiGUI's comment form.
    pub to: ToFormat,
    /// Whether the variations' moves get evaluations too.
    pub variations: bool,
}

/// The lines to analyse: the main line (`None`), then, with `variations`,
/// each variation by its index in [`Game::variations`].
pub fn lines(game: &Game, variations: bool) -> Vec<Option<usize>> {
    let n = if variations { game.variations.len() } else { 0 };
    std::iter::once(None).chain((0..n).map(Some)).collect()
}

/// The positions of a line: the one it starts from (for a variation, a
/// position of its parent line), then the one after each replayed ply.
pub fn line_positions(game: &Game, id: Option<usize>) -> Vec<Position> {
    let plies = match id.and_then(|i| game.variations.get(i)) {
        Some(v) => &v.line.plies[..],
        None => &game.main.plies[..],
    };
    let mut pos = kifu::emit::diagram::position_at(game, id, 0);
    let mut out = Vec::with_capacity(plies.len() + 1);
    out.push(pos.clone());
    for p in plies {
        pos.play_unchecked(p.mv);
        out.push(pos.clone());
    }
    out
}

/// One position's analysis in the JSON.
#[derive(Serialize)]
struct PlyJson {
    /// From sente's side.
    score: Score,
    depth: Option<u32>,
    nodes: Option<u64>,
    /// Present (true) when the score is only a bound the engine gave.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    bound: bool,
    /// Of the move that reached this position.
    loss: Option<f64>,
    judgement: Option<Judgement>,
    mark: Option<&'static str>,
}

impl Fill<'_> {
    /// Put the answer for each position of `after` (the position each move
    /// of `moves` left) into that move.
    fn amend_line(&self, moves: &mut [kifu::record::MoveEntry], after: &[Position]) {
        let gui = matches!(
            self.to,
            ToFormat::Kif | ToFormat::Kifu | ToFormat::Ki2 | ToFormat::Ki2u
        );
        for (entry, after) in moves.iter_mut().zip(after) {
            let evaluated = entry.eval().is_some() || entry.gui_eval().is_some();
            if evaluated && !self.overwrite {
                continue;
            }
            let Some(a) = self.cache.get(&key(after)) else {
                continue;
            };
            let sente = after.side_to_move() == kifu::Color::Sente;
            let e = Evaluation {
                score: Some(a.score.for_sente(sente).record_value()),
                pv: checked_pv(after, &a.pv).unwrap_or_default(),
                rest: Vec::new(),
            };
            let extra = entry.extra_mut();
            // What the record said is replaced, not kept beside the new one.
            extra.comments.retain(|c| !is_gui_eval_comment(c));
            extra.eval = None;
            extra.gui_eval = None;
            if gui {
                let score = e.score.unwrap_or_default();
                let c = gui_comment(after, a.depth, a.nodes, score, &a.pv);
                extra.comments.push(c);
                extra.gui_eval = Some(e);
            } else {
                extra.eval = Some(e);
            }
        }
    }

    /// The score of `pos` from its side to move: the engine's; a position
    /// without a legal move is lost (mate 0).
    fn score(&self, pos: &Position) -> Option<Score> {
        if !pos.has_legal_move() {
            return Some(Score::Mate(0));
        }
        self.cache.get(&key(pos)).map(|a| a.score)
    }

    fn ply_json(&self, before: &Position, after: &Position) -> Option<PlyJson> {
        let a = self.cache.get(&key(after))?;
        let loss = self
            .score(before)
            .map(|b| judge::loss(b, a.score))
            .map(|l| (l * 10_000.0).round() / 10_000.0);
        let judgement = loss.and_then(|l| self.thresholds.judge(l));
        Some(PlyJson {
            score: a
                .score
                .for_sente(after.side_to_move() == kifu::Color::Sente),
            depth: a.depth,
            nodes: a.nodes,
            bound: a.bound,
            loss,
            judgement,
            mark: judgement.map(Judgement::ja),
        })
    }

    /// The JSON line of `game` with `analysis` added to the game and each move.
    fn amend_json(&self, game: &Game, line: &[u8]) -> Option<Vec<u8>> {
        let mut v: serde_json::Value = serde_json::from_slice(line).ok()?;
        let positions = line_positions(game, None);
        let moves = v.get_mut("moves")?.as_array_mut()?;
        for (i, m) in moves.iter_mut().enumerate() {
            let (Some(before), Some(after)) = (positions.get(i), positions.get(i + 1)) else {
                break;
            };
            let ply = self.ply_json(before, after);
            m.as_object_mut()?
                .insert("analysis".into(), serde_json::to_value(ply).ok()?);
        }
        let start = positions.first().and_then(|p| {
            let a = self.cache.get(&key(p))?;
            Some(serde_json::json!({
                "score": a.score.for_sente(p.side_to_move() == kifu::Color::Sente),
                "depth": a.depth, "nodes": a.nodes, "pv": a.pv,
            }))
        });
        v.as_object_mut()?.insert(
            "analysis".into(),
            serde_json::json!({ "search": self.search, "start": start }),
        );
        let mut out = if self.pretty {
            serde_json::to_vec_pretty(&v).ok()?
        } else {
            serde_json::to_vec(&v).ok()?
        };
        out.push(b'\n');
        Some(out)
    }
}

impl Amend for Fill<'_> {
    fn game(&self, game: &mut Game) {
        for id in lines(game, self.variations) {
            let positions = line_positions(game, id);
            if let Some(line) = game.record_line_mut(id) {
                self.amend_line(&mut line.moves, &positions[1..]);
            }
        }
    }

    fn bytes(&self, game: &Game, to: ToFormat, bytes: Vec<u8>) -> Vec<u8> {
        if to != ToFormat::Json {
            return bytes;
        }
        self.amend_json(game, &bytes).unwrap_or(bytes)
    }
}
