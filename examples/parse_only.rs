//! The "parse" task of `bench/run.sh`: read records with the kifu library
//! (decode, detect, parse into `Record`s) without replaying a single move,
//! the counterpart of the peers' parse-only drivers in `bench/peers/`.
//!
//! Usage: `parse_only PATH...` (files, or directories read recursively in
//! name order). Prints `GAMES PLIES` (moves written on the main lines) to
//! stderr and exits non-zero if any file could not be read, so the bench
//! reports a failure rather than a time.

use kifu::input::{ReadOptions, read_path};
use std::path::Path;
use std::process::ExitCode;

#[path = "common/walk.rs"]
mod walk;
use walk::files;

fn main() -> ExitCode {
    let mut paths = Vec::new();
    for arg in std::env::args_os().skip(1) {
        if let Err(e) = files(Path::new(&arg), &mut paths) {
            eprintln!("parse_only: {}: {e}", Path::new(&arg).display());
            return ExitCode::FAILURE;
        }
    }
    let opts = ReadOptions::default();
    let (mut games, mut plies, mut failed) = (0usize, 0usize, 0usize);
    for p in &paths {
        match read_path(p, &opts) {
            Ok(input) => {
                games += input.records.len();
                plies += input
                    .records
                    .iter()
                    .map(|r| r.main.moves.len())
                    .sum::<usize>();
            }
            Err(e) => {
                eprintln!("parse_only: {e}");
                failed += 1;
            }
        }
    }
    eprintln!("{games} {plies}");
    if failed > 0 || games == 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
