//! The words of the USI protocol an analysis needs: the limit of a search
//! (`go nodes|movetime|depth`), and what the engine says back (`info …
//! score cp|mate … pv …`, `bestmove`).

/// How long one position is searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    /// `go nodes N`.
    Nodes(u64),
    /// `go movetime MS`.
    Movetime(u64),
    /// `go depth D`.
    Depth(u32),
}

impl Limit {
    /// The `go` command for this limit.
    pub fn go(self) -> String {
        match self {
            Limit::Nodes(n) => format!("go nodes {n}"),
            Limit::Movetime(ms) => format!("go movetime {ms}"),
            Limit::Depth(d) => format!("go depth {d}"),
        }
    }
}

pub use kifu::judge::Score;

/// What one `info` line with a score says (only the first line of a
/// MultiPV search is kept).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// The score, from the side to move.
    pub score: Score,
    /// Whether the engine marked it `lowerbound` or `upperbound`.
    pub bound: bool,
    /// `depth`, if given.
    pub depth: Option<u32>,
    /// `nodes`, if given.
    pub nodes: Option<u64>,
    /// The principal variation as the engine wrote it.
    pub pv: Vec<String>,
}

/// What a line from the engine says, as far as an analysis cares.
#[derive(Debug, PartialEq, Eq)]
pub enum Said {
    /// `usiok`.
    UsiOk,
    /// `readyok`.
    ReadyOk,
    /// `id name …`.
    Name(String),
    /// An `info` line with a score (of the first PV).
    Info(Info),
    /// `bestmove …`, with the move.
    BestMove(String),
    /// Anything else: other `info` lines, `option` lines, noise.
    Other,
}

/// Read one line of engine output.
pub fn read_line(line: &str) -> Said {
    let mut words = line.split_whitespace();
    match words.next() {
        Some("usiok") => Said::UsiOk,
        Some("readyok") => Said::ReadyOk,
        Some("id") if words.next() == Some("name") => {
            Said::Name(words.collect::<Vec<_>>().join(" "))
        }
        Some("bestmove") => Said::BestMove(words.next().unwrap_or("").to_string()),
        Some("info") => info(words).map_or(Said::Other, Said::Info),
        _ => Said::Other,
    }
}

/// The fields of an `info` line; `None` without a score, or for a
/// MultiPV line other than the first.
fn info<'a>(mut words: impl Iterator<Item = &'a str>) -> Option<Info> {
    let mut score = None;
    let mut bound = false;
    let mut depth = None;
    let mut nodes = None;
    let mut pv = Vec::new();
    while let Some(w) = words.next() {
        match w {
            "depth" => depth = words.next().and_then(|v| v.parse().ok()),
            "nodes" => nodes = words.next().and_then(|v| v.parse().ok()),
            "multipv" if words.next() != Some("1") => return None,
            "score" => score = read_score(&mut words),
            "lowerbound" | "upperbound" => bound = true,
            // `pv` runs to the end of the line; `string` is free text.
            "pv" => pv = words.by_ref().map(str::to_string).collect(),
            "string" => break,
            _ => {}
        }
    }
    Some(Info {
        score: score?,
        bound,
        depth,
        nodes,
        pv,
    })
}

/// `cp 35`, `mate 5`, `mate -4`, or YaneuraOu's `mate +`/`mate -` for a
/// mate of unknown length (read as one ply).
fn read_score<'a>(words: &mut impl Iterator<Item = &'a str>) -> Option<Score> {
    let kind = words.next()?;
    let value = words.next()?;
    match kind {
        "cp" => value.parse().ok().map(Score::Cp),
        "mate" => match value {
            "+" => Some(Score::Mate(1)),
            "-" => Some(Score::Mate(-1)),
            v => v.parse().ok().map(Score::Mate),
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_give_score_depth_nodes_and_pv() {
        let said = read_line(
            "info depth 5 seldepth 5 multipv 1 score cp -254 upperbound nodes 1000 nps 1 time 4 pv 3a3b 7i7h",
        );
        let Said::Info(i) = said else {
            panic!("{said:?}")
        };
        assert_eq!(i.score, Score::Cp(-254));
        assert!(i.bound);
        assert_eq!((i.depth, i.nodes), (Some(5), Some(1000)));
        assert_eq!(i.pv, ["3a3b", "7i7h"]);
        let Said::Info(m) = read_line("info score mate -3 pv 5a4b") else {
            panic!()
        };
        assert_eq!(m.score, Score::Mate(-3));
        assert!(!m.bound);
    }

    #[test]
    fn lines_without_a_first_pv_score_are_other() {
        for l in [
            "info depth 3 nodes 10",
            "info multipv 2 score cp 1 pv 7g7f",
            "info string score cp 10",
            "info score cp x",
            "option name Hash type spin",
        ] {
            assert_eq!(read_line(l), Said::Other, "{l}");
        }
        assert_eq!(
            read_line("bestmove 7g7f ponder 3c3d"),
            Said::BestMove("7g7f".into())
        );
        assert_eq!(
            read_line("id name Fairy-Stockfish 14"),
            Said::Name("Fairy-Stockfish 14".into())
        );
    }

    #[test]
    fn scores_turn_to_sente_and_to_record_integers() {
        assert_eq!(Score::Cp(50).for_sente(false), Score::Cp(-50));
        assert_eq!(Score::Mate(3).for_sente(false), Score::Mate(-3));
        assert_eq!(Score::Cp(50).for_sente(true), Score::Cp(50));
        assert_eq!(Score::Mate(3).record_value(), 31997);
        assert_eq!(Score::Mate(-4).record_value(), -31996);
        assert_eq!(Limit::Nodes(2000).go(), "go nodes 2000");
    }
}
