//! `kifu explore`: the moves a collection plays from a position, with the
//! games, the wins of each side, the draws and the players' average rating.

use super::progress::{Counted, Progress, Tally};
use super::{Item, drive, read_options, sources};
use crate::InputArgs;
use clap::Args;
use kifu::collection::{Node, Tree};
use std::io::Write;

/// Options of `kifu explore`.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  kifu explore games/                    the first moves of the collection
  kifu explore --depth 3 --json games/   three moves deep, one JSON object a line
  kifu explore --position 'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -' games/")]
pub struct ExploreArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// The position to explore from (SFEN, with or without the move
    /// number; default the even start).
    #[arg(long, value_name = "SFEN")]
    pub position: Option<String>,
    /// How many moves deep.
    #[arg(long, value_name = "D", default_value_t = 1)]
    pub depth: usize,
    /// One JSON object a line of moves: moves, games, sente, gote, draw,
    /// rating (the average, or null).
    #[arg(long)]
    pub json: bool,
    /// No progress bar and no summary line.
    #[arg(short, long)]
    pub quiet: bool,
}

/// What one item gave: its game, or an error line.
struct Read {
    game: Option<kifu::Game>,
    err: String,
    /// Inputs or games that could not be read or replayed (0 or 1).
    unreadable: usize,
}

impl Counted for Read {
    fn counts(&self) -> (&str, usize, usize, usize) {
        (
            &self.err,
            self.unreadable,
            usize::from(self.game.is_some()),
            0,
        )
    }
}

fn read_item(name: &str, item: Item, opts: &kifu::ReplayOptions) -> Read {
    match super::replayed_game(name, item, opts) {
        Ok((_, g)) => Read {
            game: Some(g),
            err: String::new(),
            unreadable: 0,
        },
        Err((err, unreadable)) => Read {
            game: None,
            err,
            unreadable,
        },
    }
}

/// Run `kifu explore`.
pub fn run(a: &ExploreArgs) -> anyhow::Result<u8> {
    let from = match &a.position {
        Some(s) => kifu::Position::from_sfen(s)
            .map_err(|e| anyhow::anyhow!("--position `{s}` is not a position: {e}"))?,
        None => kifu::Position::startpos(),
    };
    let (read_opts, replay_opts) = read_options(&a.input)?;
    let (srcs, walk_errors) = sources(&a.input.paths_or_cwd());
    for e in &walk_errors {
        eprintln!("kifu: {e}");
    }
    let mut tree = Tree::new(from.key(), a.depth);
    let mut progress = Progress::new(srcs.len(), !a.quiet);
    let mut tally = Tally::new(&mut progress, walk_errors.len());
    drive(
        &srcs,
        a.input.jobs,
        &read_opts,
        |name, _, item| read_item(name, item, &replay_opts),
        |_, ev| {
            if let Some(g) = tally.event(ev).and_then(|r| r.game) {
                tree.add(&g);
            }
            Ok(())
        },
    )?;
    let (files, games, unreadable) = (tally.files, tally.games, tally.unreadable);
    progress.finish();
    let mut out = std::io::BufWriter::new(std::io::stdout());
    if !a.json {
        writeln!(out, "from {}: {} games", from.to_sfen(), tree.reached)?;
    }
    for (moves, n) in tree.lines() {
        let usi: Vec<String> = moves.iter().map(|m| m.to_usi()).collect();
        if a.json {
            writeln!(out, "{}", node_json(&usi, n))?;
        } else {
            writeln!(out, "{}", node_text(&usi, n))?;
        }
    }
    out.flush()?;
    if !a.quiet {
        eprintln!(
            "kifu: {}: {} from the position; {unreadable} unreadable",
            super::summary::files_and_games(files, games),
            tree.reached,
        );
    }
    Ok(if unreadable > 0 { 2 } else { 0 })
}

fn node_json(moves: &[String], n: &Node) -> serde_json::Value {
    serde_json::json!({
        "moves": moves,
        "games": n.games,
        "sente": n.sente,
        "gote": n.gote,
        "draw": n.draw,
        "rating": n.average_rating(),
    })
}

/// A line of the text table: the last move indented by its depth.
fn node_text(moves: &[String], n: &Node) -> String {
    let indent = "  ".repeat(moves.len() - 1);
    let mv = format!("{indent}{}", moves.last().map_or("", String::as_str));
    let rating = n
        .average_rating()
        .map_or(String::new(), |r| format!("  rating {r:.0}"));
    format!(
        "{mv:<14} {:>6} {}  sente {}  gote {}  draw {}{rating}",
        n.games,
        if n.games == 1 { "game " } else { "games" },
        n.sente,
        n.gote,
        n.draw
    )
}
