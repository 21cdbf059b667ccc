//! A progress bar for long runs, on a terminal only.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// Shows files and games done, games/s and fouls so far, once the run is
/// long (more than 200 files, or past one second): a short run would only
/// flicker. Never drawn when stderr is not a terminal or with `--quiet`, so
/// logs and pipes stay clean.
pub struct Progress {
    bar: Option<ProgressBar>,
    shown: bool,
    start: Instant,
    files_total: usize,
}

impl Progress {
    /// A progress bar for `files` inputs; hidden unless `enabled` and stderr is a terminal.
    pub fn new(files: usize, enabled: bool) -> Progress {
        let bar = (enabled && std::io::stderr().is_terminal()).then(|| {
            let bar =
                ProgressBar::with_draw_target(Some(files as u64), ProgressDrawTarget::hidden());
            bar.set_style(
                ProgressStyle::with_template(
                    "{bar:30} {pos}/{len} files {msg} [{elapsed_precise}]",
                )
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            bar
        });
        Progress {
            bar,
            shown: false,
            start: Instant::now(),
            files_total: files,
        }
    }

    /// Record progress: `files` inputs done, `games` read, `fouls` found.
    pub fn update(&mut self, files: usize, games: usize, fouls: usize) {
        let Some(bar) = &self.bar else { return };
        let elapsed = self.start.elapsed();
        if !self.shown && (self.files_total > 200 || elapsed > Duration::from_secs(1)) {
            bar.set_draw_target(ProgressDrawTarget::stderr());
            bar.enable_steady_tick(Duration::from_millis(200));
            self.shown = true;
        }
        bar.set_position(files as u64);
        let rate = games as f64 / elapsed.as_secs_f64().max(1e-3);
        bar.set_message(format!("{games} games, {rate:.0} games/s, {fouls} fouls"));
    }

    /// Print `text` on stderr without tearing the bar.
    pub fn eprint(&self, text: &str) {
        match &self.bar {
            Some(bar) if self.shown => bar.suspend(|| eprint!("{text}")),
            _ => eprint!("{text}"),
        }
    }

    /// Remove the bar before the summary is printed.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// What a worker gave back for one item of a collection command: the
/// error line (empty if none), inputs it could not read, games it read and
/// fouls among them.
pub trait Counted {
    /// The error line, the inputs unreadable, the games read, the fouls.
    fn counts(&self) -> (&str, usize, usize, usize);
}

/// What one item gave a command that writes the games it keeps: the kept
/// game's text (a line, an output's bytes), whether a game was read, or an
/// error line and the inputs that could not be read.
pub struct Kept<T> {
    pub kept: Option<T>,
    pub read: bool,
    pub err: String,
    pub unreadable: usize,
}

impl<T> Kept<T> {
    /// A game read; `kept` is what it gave, if it is kept.
    pub fn read(kept: Option<T>) -> Kept<T> {
        Kept {
            kept,
            read: true,
            err: String::new(),
            unreadable: 0,
        }
    }

    /// No game: the error line, and how many inputs it makes unreadable.
    pub fn failed(err: String, unreadable: usize) -> Kept<T> {
        Kept {
            kept: None,
            read: false,
            err,
            unreadable,
        }
    }
}

impl<T> Counted for Kept<T> {
    fn counts(&self) -> (&str, usize, usize, usize) {
        (&self.err, self.unreadable, usize::from(self.read), 0)
    }
}

/// The counts a collection command keeps over [`super::drive`]'s events,
/// with the progress bar they move.
pub struct Tally<'p> {
    pub files: usize,
    pub games: usize,
    pub fouls: usize,
    pub unreadable: usize,
    progress: &'p mut Progress,
}

impl<'p> Tally<'p> {
    /// Counts starting with `unreadable` inputs (the walk's errors),
    /// moving `progress`.
    pub fn new(progress: &'p mut Progress, unreadable: usize) -> Tally<'p> {
        Tally {
            files: 0,
            games: 0,
            fouls: 0,
            unreadable,
            progress,
        }
    }

    /// Count `ev`: an input done, or an item (its error printed); the item,
    /// for the command's own use.
    pub fn event<T: Counted>(&mut self, ev: super::Event<T>) -> Option<T> {
        match ev {
            super::Event::Begin => None,
            super::Event::End => {
                self.files += 1;
                self.progress.update(self.files, self.games, self.fouls);
                None
            }
            super::Event::Item(t) => {
                let (err, unreadable, games, fouls) = t.counts();
                if !err.is_empty() {
                    self.progress.eprint(err);
                }
                self.unreadable += unreadable;
                self.games += games;
                self.fouls += fouls;
                Some(t)
            }
        }
    }
}
