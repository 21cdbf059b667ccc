//! Convert every game on standard input to UTF-8 KIF on standard output,
//! using only the library (it builds with `--no-default-features`):
//!
//! ```text
//! cargo run --release --no-default-features --example stream_convert < all.csa > all.kifu
//! ```
//!
//! Records come through [`kifu::Reader`], which streams a multi-game CSA
//! text a game at a time, so a file of any size is converted in bounded
//! memory; each is replayed and written through [`kifu::Writer`]. A game
//! that cannot be read or replayed is reported on standard error, and the
//! others are still converted. Prints the counts at the end.

use kifu::{ReaderBuilder, ReplayOptions, Target, Writer};
use std::io::{BufWriter, Write};
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(e) => {
            eprintln!("stream_convert: {e}");
            ExitCode::from(2)
        }
    }
}

/// Whether every game was converted.
fn run() -> Result<bool, Box<dyn std::error::Error>> {
    let stdin = std::io::stdin().lock();
    let mut reader = ReaderBuilder::new().from_reader(stdin)?;
    let out = BufWriter::new(std::io::stdout().lock());
    let mut writer = Writer::new(out, Target::Kifu);
    let mut failed = 0usize;
    for record in reader.records() {
        let game = record.and_then(|r| kifu::replay(r, &ReplayOptions::default()));
        match game {
            Ok(game) => {
                for w in writer.write(&game)? {
                    eprintln!("warning: game {}: {}", writer.games(), w.message);
                }
            }
            Err(e) => {
                eprintln!("error: {e}");
                failed += 1;
            }
        }
    }
    for w in reader.take_warnings() {
        eprintln!("warning: {w}");
    }
    let games = writer.games();
    writer.into_inner()?.flush()?;
    eprintln!("{games} game(s) written, {failed} failed");
    Ok(failed == 0)
}
