//! The moves a collection plays from a position: a [`Tree`] of counts.

use super::filter::{Outcome, outcome, plies_at, ratings};
use crate::replay::Game;
use crate::rules::types::Move;
use std::collections::BTreeMap;

/// What the games that played one line from the position did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Node {
    /// The games that played it.
    pub games: u64,
    /// Of those, the ones sente won, gote won, and the draws.
    pub sente: u64,
    /// Games gote won.
    pub gote: u64,
    /// Draws (see [`super::outcome`]).
    pub draw: u64,
    /// The sum and count of the players' ratings, where the record gives
    /// them.
    pub rating_sum: f64,
    /// How many ratings `rating_sum` adds.
    pub ratings: u64,
}

impl Node {
    /// The average rating of the players, where any is known.
    pub fn average_rating(&self) -> Option<f64> {
        (self.ratings > 0).then(|| self.rating_sum / self.ratings as f64)
    }
}

/// The lines of up to `depth` moves the games play from one position (the
/// first time each game stands there), with their counts.
///
/// ```
/// use kifu::collection::Tree;
/// use kifu::{Format, Position, ReplayOptions, parse, replay};
///
/// let mut tree = Tree::new(Position::startpos().key(), 2);
/// for text in ["7g7f 3c3d", "7g7f 8c8d", "2g2f 8c8d"] {
///     let usi = format!("position startpos moves {text}\n");
///     let game = replay(parse::parse(&usi, Format::Usi).unwrap().remove(0), &ReplayOptions::default()).unwrap();
///     tree.add(&game);
/// }
/// let first: Vec<(String, u64)> = tree.lines().filter(|(l, _)| l.len() == 1)
///     .map(|(l, n)| (l[0].to_usi(), n.games)).collect();
/// assert_eq!(first, vec![("2g2f".to_string(), 1), ("7g7f".to_string(), 2)]);
/// ```
#[derive(Clone, Debug)]
pub struct Tree {
    key: u64,
    depth: usize,
    /// Games that reached the position.
    pub reached: u64,
    nodes: BTreeMap<Vec<String>, (Vec<Move>, Node)>,
}

impl Tree {
    /// An empty tree from the position with key `key` (see
    /// [`crate::Position::key`]), `depth` moves deep.
    pub fn new(key: u64, depth: usize) -> Tree {
        Tree {
            key,
            depth: depth.max(1),
            reached: 0,
            nodes: BTreeMap::new(),
        }
    }

    /// Count `game`'s line from the position, if it reaches it.
    pub fn add(&mut self, game: &Game) {
        let Some(&at) = plies_at(game, self.key).first() else {
            return;
        };
        self.reached += 1;
        let result = outcome(game);
        let given: Vec<f64> = ratings(&game.record).into_iter().flatten().collect();
        let next = game.main.plies.iter().skip(at as usize).take(self.depth);
        let (mut line, mut moves) = (Vec::new(), Vec::new());
        for p in next {
            // Lines sort by their USI moves, the same in every run.
            line.push(p.mv.to_usi());
            moves.push(p.mv);
            let (_, n) = self
                .nodes
                .entry(line.clone())
                .or_insert_with(|| (moves.clone(), Node::default()));
            n.games += 1;
            match result {
                Some(Outcome::Sente) => n.sente += 1,
                Some(Outcome::Gote) => n.gote += 1,
                Some(Outcome::Draw) => n.draw += 1,
                None => {}
            }
            n.rating_sum += given.iter().sum::<f64>();
            n.ratings += given.len() as u64;
        }
    }

    /// Every line counted, each after the line one move shorter, its
    /// moves and its node.
    pub fn lines(&self) -> impl Iterator<Item = (Vec<Move>, &Node)> + '_ {
        self.nodes.values().map(|(m, n)| (m.clone(), n))
    }
}
