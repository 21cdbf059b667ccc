//! Games written one after another to any [`Write`], in one target format.

use crate::emit::{Target, Warning, write};
use crate::replay::Game;
use std::io::Write;

/// A stream of games in one [`Target`] format, written to `W` as they come.
///
/// Each game is written as [`write`](fn@crate::write) writes it; several
/// games make the file `kifu convert --to …` writes for them: a CSA file
/// opens with its version line once and puts a `/` line between games, and
/// the other formats follow one game with the next.
///
/// # Example
///
/// ```
/// use kifu::{Format, ReplayOptions, Target, Writer, parse, replay};
///
/// let mut writer = Writer::new(Vec::new(), Target::Csa(Default::default()));
/// for usi in ["position startpos moves 7g7f\n", "position startpos moves 2g2f 8c8d\n"] {
///     let record = parse::parse(usi, Format::Usi)?.remove(0);
///     let warnings = writer.write(&replay(record, &ReplayOptions::default())?)?;
///     assert!(warnings.is_empty());
/// }
/// let csa = String::from_utf8(writer.into_inner()?).unwrap();
/// assert_eq!(csa.matches("V2.2").count(), 1);
/// assert!(csa.contains("+7776FU\n/\n"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Writer<W: Write> {
    out: W,
    target: Target,
    /// What every CSA game opens with, written once (the version line).
    csa_head: Option<Vec<u8>>,
    games: usize,
}

impl<W: Write> Writer<W> {
    /// A writer of games in `target` to `out`. Nothing is buffered here:
    /// wrap a file or a pipe in a [`std::io::BufWriter`].
    pub fn new(out: W, target: Target) -> Writer<W> {
        let csa_head = match &target {
            Target::Csa(opts) => Some(crate::emit::csa::write_many(&[], opts).0.into_bytes()),
            _ => None,
        };
        Writer {
            out,
            target,
            csa_head,
            games: 0,
        }
    }

    /// Write one game, and give what the format could not hold (or had to
    /// change) as warnings.
    ///
    /// # Errors
    ///
    /// Only those of the underlying writer: whatever the format cannot hold
    /// is a warning, never an error.
    pub fn write(&mut self, game: &Game) -> std::io::Result<Vec<Warning>> {
        let (bytes, warnings) = write(game, &self.target);
        let body = match &self.csa_head {
            // The version line opens the file, not each game.
            Some(head) if self.games > 0 => {
                self.out.write_all(b"/\n")?;
                bytes.strip_prefix(head.as_slice()).unwrap_or(&bytes)
            }
            _ => &bytes,
        };
        self.out.write_all(body)?;
        self.games += 1;
        Ok(warnings)
    }

    /// How many games were written.
    pub fn games(&self) -> usize {
        self.games
    }

    /// Flush the underlying writer.
    ///
    /// # Errors
    ///
    /// Those of the underlying writer.
    pub fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }

    /// Flush and give back the underlying writer.
    ///
    /// # Errors
    ///
    /// Those of the underlying writer's flush.
    pub fn into_inner(mut self) -> std::io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}
