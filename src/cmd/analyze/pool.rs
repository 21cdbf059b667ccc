//! K engine processes taking positions from one queue.
//!
//! A fault (crash, timeout, garbage) is reported with the engine's stderr
//! tail; the engine is restarted, up to a limit per process, and the
//! position goes back to the queue for one more try. Every answer goes to
//! the cache as it arrives, so nothing analysed is lost to a later fault.

use super::cache::{Analysis, Cache};
use super::engine::{Engine, Spec};
use super::line::checked_pv;
use super::usi::Limit;
use crate::cmd::signal;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use kifu::rules::position::Position;
use std::collections::VecDeque;
use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// One position to search.
pub struct Job {
    /// [`super::line::key`] of the position.
    pub key: String,
    /// The position.
    pub pos: Position,
}

/// How the workers run.
pub struct Settings<'a> {
    /// How to start each engine.
    pub spec: &'a Spec,
    /// The search of each position.
    pub limit: Limit,
    /// Engine processes.
    pub engines: usize,
    /// Restarts allowed per process.
    pub restarts: usize,
    /// Tries per position (the first and the retries).
    pub tries: usize,
    /// Whether to draw a progress bar (on a terminal only).
    pub progress: bool,
}

/// What the run did.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Positions the engines answered.
    pub analysed: usize,
    /// Positions given up on (after their tries, or with no engine left).
    pub failed: usize,
    /// Engine faults seen.
    pub faults: usize,
    /// Whether a signal stopped the run.
    pub interrupted: bool,
}

/// The queue and what the workers share.
struct Shared<'a> {
    queue: Mutex<VecDeque<(Job, usize)>>,
    cache: &'a Cache,
    bar: ProgressBar,
    analysed: AtomicUsize,
    failed: AtomicUsize,
    faults: AtomicUsize,
}

impl Shared<'_> {
    fn say(&self, text: &str) {
        if self.bar.is_hidden() {
            eprintln!("{text}");
        } else {
            self.bar.println(text);
        }
    }

    fn pop(&self) -> Option<(Job, usize)> {
        self.queue.lock().ok()?.pop_front()
    }

    fn give_up(&self, job: &Job, why: &str) {
        self.failed.fetch_add(1, Ordering::SeqCst);
        self.bar.inc(1);
        self.say(&format!(
            "kifu: analyze: position {} not analysed: {why}",
            job.key
        ));
    }
}

/// Search every job, `s.engines` at a time; answers go to `cache`.
pub fn run(jobs: Vec<Job>, cache: &Cache, s: &Settings) -> Outcome {
    let total = jobs.len() as u64;
    if jobs.is_empty() {
        // Everything came from the cache: no engine is started.
        return Outcome {
            interrupted: signal::interrupted(),
            ..Outcome::default()
        };
    }
    let shared = Shared {
        queue: Mutex::new(jobs.into_iter().map(|j| (j, 0)).collect()),
        cache,
        bar: progress_bar(total, s.progress),
        analysed: AtomicUsize::new(0),
        failed: AtomicUsize::new(0),
        faults: AtomicUsize::new(0),
    };
    let workers = s.engines.max(1).min(total.max(1) as usize);
    std::thread::scope(|scope| {
        for n in 1..=workers {
            let shared = &shared;
            scope.spawn(move || worker(n, shared, s));
        }
    });
    shared.bar.finish_and_clear();
    // Positions still queued when every engine gave out.
    let left: Vec<(Job, usize)> = shared
        .queue
        .lock()
        .map(|mut q| q.drain(..).collect())
        .unwrap_or_default();
    let interrupted = signal::interrupted();
    if !interrupted && !left.is_empty() {
        // One line, not one a position: a dead engine may leave thousands.
        shared.failed.fetch_add(left.len(), Ordering::SeqCst);
        let first = &left[0].0.key;
        let more = match left.len() {
            1 => String::new(),
            n => format!(" and {} more", n - 1),
        };
        shared.say(&format!(
            "kifu: analyze: position {first}{more} not analysed: no engine left to search them"
        ));
    }
    Outcome {
        analysed: shared.analysed.into_inner(),
        failed: shared.failed.into_inner(),
        faults: shared.faults.into_inner(),
        interrupted,
    }
}

fn progress_bar(total: u64, enabled: bool) -> ProgressBar {
    if !enabled || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:30} {pos}/{len} positions, {per_sec}, {eta} left [{elapsed_precise}]",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// One engine process: start it, take positions until the queue is empty,
/// restart it after a fault while restarts are left.
fn worker(n: usize, shared: &Shared, s: &Settings) {
    let mut restarts_left = s.restarts;
    let mut engine: Option<Engine> = None;
    loop {
        if signal::interrupted() {
            return;
        }
        let Some(eng) = engine.as_mut() else {
            match Engine::start(s.spec) {
                Ok(e) => engine = Some(e),
                Err(f) => {
                    shared.faults.fetch_add(1, Ordering::SeqCst);
                    if !may_restart(n, shared, &mut restarts_left, &f.to_string()) {
                        return;
                    }
                }
            }
            continue;
        };
        let Some((job, tries)) = shared.pop() else {
            return;
        };
        match eng.analyse(&job.pos.to_sfen(), s.limit) {
            Ok(answer) => {
                let info = answer.info;
                let pv = match checked_pv(&job.pos, &info.pv) {
                    Ok(_) => info.pv,
                    Err(bad) => {
                        shared.say(&format!(
                            "kifu: analyze: engine {n} ({}): illegal PV for {}: move {} `{}` cannot be played; the score is kept, the PV is not written",
                            eng.name, job.key, bad.at, bad.word
                        ));
                        Vec::new()
                    }
                };
                let a = Analysis {
                    score: info.score,
                    depth: info.depth,
                    nodes: info.nodes,
                    pv,
                    bound: info.bound,
                };
                if let Err(e) = shared.cache.put(&job.key, &a) {
                    shared.say(&format!("kifu: analyze: {e:#}"));
                }
                shared.analysed.fetch_add(1, Ordering::SeqCst);
                shared.bar.inc(1);
            }
            Err(f) => {
                shared.faults.fetch_add(1, Ordering::SeqCst);
                engine = None;
                let what = format!("{} on position {}: {f}", s.spec.program, job.key);
                if tries + 1 < s.tries {
                    if let Ok(mut q) = shared.queue.lock() {
                        q.push_front((job, tries + 1));
                    }
                } else {
                    shared.give_up(&job, &format!("{} tries failed", s.tries));
                }
                if !may_restart(n, shared, &mut restarts_left, &what) {
                    return;
                }
            }
        }
    }
}

/// Report a fault of engine `n`; whether it may be started again.
fn may_restart(n: usize, shared: &Shared, restarts_left: &mut usize, what: &str) -> bool {
    if signal::interrupted() {
        return false;
    }
    if *restarts_left == 0 {
        shared.say(&format!(
            "kifu: analyze: engine {n}: {what}\n  no restart left: engine {n} stops"
        ));
        return false;
    }
    *restarts_left -= 1;
    shared.say(&format!(
        "kifu: analyze: engine {n}: {what}\n  restarting it ({} restart{} left)",
        restarts_left,
        if *restarts_left == 1 { "" } else { "s" }
    ));
    true
}
