//! The classifier's cost, for `bench/opening.sh`: read and replay every
//! game of the inputs, and with `classify` name its opening too, so that
//! the two runs differ by the classifier alone.
//!
//! Usage: `classify_cost replay|classify PATH...` (files, or directories
//! read recursively in name order). Prints `GAMES PLIES NAMED` to stderr,
//! NAMED the games given a name other than 力戦 (0 for `replay`).

use kifu::input::{ReadOptions, read_path};
use kifu::{ReplayOptions, replay};
use std::path::Path;
use std::process::ExitCode;

#[path = "common/walk.rs"]
mod walk;
use walk::files;

fn main() -> ExitCode {
    let mut args = std::env::args_os().skip(1);
    let classify = match args.next().and_then(|a| a.into_string().ok()).as_deref() {
        Some("classify") => true,
        Some("replay") => false,
        _ => {
            eprintln!("usage: classify_cost replay|classify PATH...");
            return ExitCode::FAILURE;
        }
    };
    let mut paths = Vec::new();
    for arg in args {
        if let Err(e) = files(Path::new(&arg), &mut paths) {
            eprintln!("classify_cost: {}: {e}", Path::new(&arg).display());
            return ExitCode::FAILURE;
        }
    }
    let (mut games, mut plies, mut named) = (0usize, 0usize, 0usize);
    for p in &paths {
        let Ok(input) = read_path(p, &ReadOptions::default()) else {
            eprintln!("classify_cost: cannot read {}", p.display());
            return ExitCode::FAILURE;
        };
        for r in input.records {
            let Ok(game) = replay(r, &ReplayOptions::default()) else {
                continue;
            };
            games += 1;
            plies += game.main.plies.len();
            if classify && kifu::opening::classify(&game).game != "力戦" {
                named += 1;
            }
        }
    }
    eprintln!("{games} {plies} {named}");
    ExitCode::SUCCESS
}
