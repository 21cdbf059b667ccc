//! The writing end of `kifu convert`: takes each converted game in input
//! order and puts it where the plan says, counting what was written,
//! skipped, refused and warned about.

use super::super::output::{Claimed, Destination, Opened, OutFile, Outputs};
use super::super::progress::Progress;
use super::super::signal;
use super::super::summary::Summary;
use super::super::warnings::WarningLog;
use super::super::{Event, Source};
use super::item::{Converted, one_game_per_file};
use super::names::Plan;
use crate::{ConvertArgs, ToFormat};
use kifu::emit::Warning;
use std::io::{BufWriter, Stdout, Write};

/// Where a stream of games is being written.
enum To {
    Stdout,
    /// `-o FILE` claimed but not created until its first game, so that a
    /// run that gives no game leaves no file (and an existing one as it was).
    Pending(Destination),
    File(OutFile),
    /// Nowhere: the output was skipped or refused (already counted).
    Nowhere,
}

/// A stream of games and how many it holds so far (CSA writes its file
/// head before the first and `/` between the others).
struct Dest {
    to: To,
    games: usize,
}

/// The state of a conversion run.
pub struct Writer<'a> {
    a: &'a ConvertArgs,
    plan: Plan,
    per_file: bool,
    outputs: Outputs,
    /// The run's counts.
    pub sum: Summary,
    progress: Progress,
    /// The warnings of the run.
    pub log: WarningLog,
    stdout: BufWriter<Stdout>,
    csa_head: String,
    /// The one stream of the run (standard output or `-o FILE`).
    run_dest: Option<Dest>,
    /// The current input's own file (`--out-dir`, formats of several games).
    file_dest: Option<Dest>,
    /// The current input: its number, its games so far, the first game's
    /// warnings (labelled with the game only once a second one turns up).
    file_number: usize,
    file_games: usize,
    held: Vec<Warning>,
}

impl<'a> Writer<'a> {
    /// A writer for a run of `files` inputs.
    pub fn new(a: &'a ConvertArgs, plan: Plan, outputs: Outputs, files: usize) -> Self {
        let sum = Summary {
            files,
            not_written: Some(0),
            skipped: Some(0),
            ..Summary::default()
        };
        Writer {
            a,
            per_file: one_game_per_file(a.to),
            plan,
            outputs,
            sum,
            progress: Progress::new(files, !a.quiet),
            log: WarningLog::new(a.verbose),
            // Not locked: the output is written from a worker thread (see `drive`).
            stdout: BufWriter::new(std::io::stdout()),
            csa_head: super::item::csa_head(a),
            run_dest: None,
            file_dest: None,
            file_number: 0,
            file_games: 0,
            held: Vec::new(),
        }
    }

    /// Open the run's one stream, when the games of every input go to one
    /// place. `Ok(false)` when `-o FILE` exists and is to be skipped.
    pub fn open_run_stream(&mut self) -> anyhow::Result<bool> {
        let to = match (&self.plan, self.per_file) {
            (Plan::Dir(_), _) | (Plan::File(_), true) => return Ok(true),
            (Plan::Stdout, _) => To::Stdout,
            (Plan::File(p), false) | (Plan::Stream(p), _) => {
                match self.outputs.claim(p, "the run")? {
                    Claimed::Ready(t) => To::Pending(t),
                    Claimed::Skipped => {
                        *self.sum.skipped.get_or_insert(0) += 1;
                        return Ok(false);
                    }
                    Claimed::Refused(why) => anyhow::bail!("{why}"),
                }
            }
        };
        self.run_dest = Some(Dest { to, games: 0 });
        Ok(true)
    }

    /// Take one event of the run.
    pub fn event(&mut self, src: &Source, ev: Event<Converted>) -> anyhow::Result<()> {
        signal::check()?;
        match ev {
            Event::Begin => {
                self.file_games = 0;
                self.held.clear();
                Ok(())
            }
            Event::Item(c) => self.item(src, c),
            Event::End => self.end(src),
        }
    }

    fn item(&mut self, src: &Source, c: Converted) -> anyhow::Result<()> {
        // -q keeps errors, not decoding warnings.
        let shown = !self.a.quiet || c.unreadable > 0;
        if shown {
            self.eprint(&c.err)?;
        }
        self.sum.unreadable += c.unreadable;
        for (k, v) in c.fouls_by_rule {
            *self.sum.fouls_by_rule.entry(k).or_default() += v;
        }
        let Some(bytes) = c.bytes else { return Ok(()) };
        self.sum.games += 1;
        self.sum.plies += c.plies;
        if c.foul {
            self.sum.fouls += 1;
        } else {
            self.sum.legal += 1;
        }
        self.file_games += 1;
        self.take_warnings(src, c.index, c.warnings)?;
        if self.per_file {
            self.write_game_file(src, c.index, &bytes)
        } else {
            self.write_streamed(src, &bytes)
        }
    }

    /// Name the game in warnings when its input holds several.
    fn take_warnings(&mut self, src: &Source, index: usize, w: Vec<Warning>) -> anyhow::Result<()> {
        let label = |n: usize, w: Warning, csa: bool| Warning {
            code: w.code,
            message: if csa {
                format!("game {n}: {}", w.message)
            } else {
                format!("(game {n}) {}", w.message)
            },
        };
        let mut now = Vec::new();
        if self.per_file && self.file_games == 1 {
            // Unnamed unless a second game turns up.
            self.held = w;
        } else if self.per_file {
            if self.file_games == 2 {
                now.extend(self.held.drain(..).map(|w| label(1, w, false)));
            }
            now.extend(w.into_iter().map(|w| label(index + 1, w, false)));
        } else if matches!(self.a.to, ToFormat::Csa | ToFormat::Hcpe | ToFormat::Psv) {
            now.extend(w.into_iter().map(|w| label(index + 1, w, true)));
        } else {
            now = w;
        }
        self.log_warnings(src, now)
    }

    fn log_warnings(&mut self, src: &Source, w: Vec<Warning>) -> anyhow::Result<()> {
        if w.is_empty() || self.a.quiet {
            self.log.total += w.len();
            return Ok(());
        }
        let text = self.log.add(self.file_number, &src.name(), w);
        self.eprint(&text)
    }

    /// Print on stderr, after what is already on stdout.
    fn eprint(&mut self, text: &str) -> anyhow::Result<()> {
        if !text.is_empty() {
            self.stdout.flush()?;
            self.progress.eprint(text);
        }
        Ok(())
    }

    /// Open an output for `src`; `None` when it is skipped or refused.
    fn open(&mut self, path: &std::path::Path, src: &Source) -> anyhow::Result<Option<OutFile>> {
        match self.outputs.open(path, &src.name())? {
            Opened::File(f) => Ok(Some(f)),
            Opened::Skipped => {
                *self.sum.skipped.get_or_insert(0) += 1;
                Ok(None)
            }
            Opened::Refused(why) => {
                *self.sum.not_written.get_or_insert(0) += 1;
                self.eprint(&format!("{why}\n"))?;
                Ok(None)
            }
        }
    }

    fn write_game_file(&mut self, src: &Source, index: usize, bytes: &[u8]) -> anyhow::Result<()> {
        let Some(t) = self
            .plan
            .game_target(src, self.a.to, self.a.out.keep_extension, index)
        else {
            if let Some(w) = writer_of(self.run_dest.as_mut(), &mut self.stdout)? {
                w.write_all(bytes)?;
            }
            return Ok(());
        };
        if let Some(mut f) = self.open(&t, src)? {
            f.write_all(bytes)?;
            f.commit()?;
        }
        Ok(())
    }

    fn write_streamed(&mut self, src: &Source, bytes: &[u8]) -> anyhow::Result<()> {
        if self.run_dest.is_none() && self.file_dest.is_none() {
            let to = match self
                .plan
                .input_target(src, self.a.to, self.a.out.keep_extension)
            {
                Some(t) => self.open(&t, src)?.map_or(To::Nowhere, To::File),
                None => To::Nowhere,
            };
            self.file_dest = Some(Dest { to, games: 0 });
        }
        let Some(dest) = self.file_dest.as_mut().or(self.run_dest.as_mut()) else {
            return Ok(());
        };
        let games = dest.games;
        dest.games += 1;
        let Some(w) = writer_of(Some(dest), &mut self.stdout)? else {
            return Ok(());
        };
        if self.a.to == ToFormat::Csa {
            w.write_all(if games == 0 {
                self.csa_head.as_bytes()
            } else {
                b"/\n"
            })?;
        }
        w.write_all(bytes)?;
        Ok(())
    }

    fn end(&mut self, src: &Source) -> anyhow::Result<()> {
        self.file_number += 1;
        self.progress
            .update(self.file_number, self.sum.games, self.sum.fouls);
        let mut rest = std::mem::take(&mut self.held);
        let stream = match &self.plan {
            Plan::Stdout => Some("stdout".to_string()),
            Plan::Stream(p) => Some(p.display().to_string()),
            _ => None,
        };
        if let Some(stream) = stream.filter(|_| self.per_file && self.file_games > 1) {
            rest.push(Warning {
                code: kifu::codes::WarningCode::GamesConcatenated,
                message: format!(
                    "{} games written one after another to {stream}; use --out-dir for one file each",
                    self.file_games
                ),
            });
        }
        self.log_warnings(src, rest)?;
        if let Some(Dest {
            to: To::File(f), ..
        }) = self.file_dest.take()
        {
            f.commit()?;
        }
        Ok(())
    }

    /// Finish the run's stream (rename `-o FILE` into place).
    pub fn finish(&mut self) -> anyhow::Result<()> {
        self.file_dest = None;
        if let Some(Dest {
            to: To::File(f), ..
        }) = self.run_dest.take()
        {
            f.commit()?;
        }
        self.stdout.flush()?;
        Ok(())
    }

    /// Drop every output not finished (after an error or an interrupt):
    /// their temporary files are removed.
    pub fn abandon(&mut self) {
        self.file_dest = None;
        self.run_dest = None;
        let _ = self.stdout.flush();
        self.progress.finish();
    }

    /// Remove the progress bar before the summary.
    pub fn finish_progress(&self) {
        self.progress.finish();
    }
}

/// Where the games of `dest` are written, the run's `-o FILE` created at its
/// first game; `None` when they are written nowhere.
fn writer_of<'w>(
    dest: Option<&'w mut Dest>,
    stdout: &'w mut BufWriter<Stdout>,
) -> anyhow::Result<Option<&'w mut dyn Write>> {
    let Some(dest) = dest else {
        return Ok(Some(stdout));
    };
    if matches!(dest.to, To::Pending(_)) {
        let To::Pending(t) = std::mem::replace(&mut dest.to, To::Nowhere) else {
            unreachable!("matched just above")
        };
        dest.to = To::File(t.create()?);
    }
    Ok(match &mut dest.to {
        To::Stdout => Some(stdout),
        To::File(f) => Some(f),
        To::Pending(_) | To::Nowhere => None,
    })
}
