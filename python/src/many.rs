//! `kifu.read_many`: many inputs read on worker threads, their games handed
//! to Python in input order, with memory bounded whatever the inputs hold.
//!
//! Workers take the next input in order, but never more than [`WINDOW`]
//! inputs ahead of the one Python is reading, and each input's games go
//! through a channel that holds [`BATCHES`] batches: a worker far ahead, or
//! one streaming a multi-gigabyte CSA file, waits rather than piles up games.

use crate::errors;
use crate::game::PyGame;
use crate::reading::{Item, read_items};
use crate::walk::Input;
use pyo3::exceptions::PyStopIteration;
use pyo3::prelude::*;
use std::collections::{HashMap, VecDeque};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::sync::{Arc, Condvar, Mutex, PoisonError};

/// Games handed on at a time.
const BATCH_GAMES: usize = 64;

/// Batches an input's channel holds.
const BATCHES: usize = 4;

/// How far ahead of Python's reading workers may go, in inputs per worker.
const WINDOW: usize = 4;

/// What the workers and the iterator share.
struct Shared {
    paths: Vec<Input>,
    state: Mutex<State>,
    /// Signalled when Python finishes an input, a receiver is published, or
    /// the iterator is dropped.
    changed: Condvar,
    window: usize,
}

struct State {
    /// The next input to hand to a worker.
    next: usize,
    /// Inputs Python has read to the end.
    done: usize,
    /// Receivers of inputs taken by a worker and not yet opened by Python.
    ready: HashMap<usize, Receiver<Vec<Item>>>,
    /// The iterator was dropped: workers stop.
    stop: bool,
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The next input for a worker, with the sender of its channel; `None`
    /// once every input is taken or the iterator is gone.
    fn take(&self) -> Option<(usize, SyncSender<Vec<Item>>)> {
        let mut s = self.lock();
        loop {
            if s.stop || s.next >= self.paths.len() {
                return None;
            }
            if s.next < s.done + self.window {
                let k = s.next;
                s.next += 1;
                let (tx, rx) = sync_channel(BATCHES);
                s.ready.insert(k, rx);
                self.changed.notify_all();
                return Some((k, tx));
            }
            s = self.changed.wait(s).unwrap_or_else(PoisonError::into_inner);
        }
    }
}

/// Read input `k` and send its items in batches; false when Python is gone.
/// A long multi-game CSA file is streamed by the reader a game at a time.
fn work_on(shared: &Shared, k: usize, tx: &SyncSender<Vec<Item>>) -> bool {
    let send = |items: Vec<Item>| tx.send(items).is_ok();
    match &shared.paths[k] {
        Input::File(path) => {
            if let Some(items) = crate::variant::path_items(path, None) {
                return send(items);
            }
            let made = kifu::ReaderBuilder::new().from_path(path);
            read_items(made, &path.display().to_string(), false, BATCH_GAMES, send)
        }
        Input::Unwalkable(path, kind, why) => {
            let e = std::io::Error::new(*kind, why.clone());
            send(vec![Item::Error(
                kifu::error::Error::new(kifu::error::ErrorKind::Io(e)).with_path(path),
            )])
        }
    }
}

fn worker(shared: Arc<Shared>) {
    while let Some((k, tx)) = shared.take() {
        let ok =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work_on(&shared, k, &tx)));
        match ok {
            Ok(true) => {}
            Ok(false) => return,
            Err(_) => {
                let path = match &shared.paths[k] {
                    Input::File(p) | Input::Unwalkable(p, ..) => p,
                };
                let e = std::io::Error::other("internal error: kifu panicked reading this file");
                let item = Item::Error(
                    kifu::error::Error::new(kifu::error::ErrorKind::Io(e)).with_path(path),
                );
                if tx.send(vec![item]).is_err() {
                    return;
                }
            }
        }
    }
}

/// The iterator `read_many` returns: games (and error items) in input order.
#[pyclass(module = "kifu")]
pub struct GameStream {
    shared: Arc<Shared>,
    /// The input Python is reading, and its channel once opened.
    current: usize,
    // Behind a lock only because a Python object must be shareable between
    // threads; the iterator's own borrow already keeps one reader at a time.
    rx: Mutex<Option<Receiver<Vec<Item>>>>,
    pending: VecDeque<Item>,
}

impl GameStream {
    pub fn start(paths: Vec<Input>, jobs: usize) -> GameStream {
        let jobs = jobs.max(1);
        let shared = Arc::new(Shared {
            paths,
            state: Mutex::new(State {
                next: 0,
                done: 0,
                ready: HashMap::new(),
                stop: false,
            }),
            changed: Condvar::new(),
            window: jobs * WINDOW,
        });
        for _ in 0..jobs.min(shared.paths.len().max(1)) {
            let s = Arc::clone(&shared);
            std::thread::spawn(move || worker(s));
        }
        GameStream {
            shared,
            current: 0,
            rx: Mutex::new(None),
            pending: VecDeque::new(),
        }
    }

    /// The next item, waiting for the workers (without the GIL).
    fn next_item(&mut self) -> Option<Item> {
        loop {
            if let Some(item) = self.pending.pop_front() {
                return Some(item);
            }
            if self.current >= self.shared.paths.len() {
                return None;
            }
            let held = self
                .rx
                .get_mut()
                .unwrap_or_else(PoisonError::into_inner)
                .take();
            let rx = match held {
                Some(rx) => rx,
                None => {
                    let mut s = self.shared.lock();
                    loop {
                        if let Some(rx) = s.ready.remove(&self.current) {
                            break rx;
                        }
                        s = self
                            .shared
                            .changed
                            .wait(s)
                            .unwrap_or_else(PoisonError::into_inner);
                    }
                }
            };
            match rx.recv() {
                Ok(batch) => {
                    self.pending.extend(batch);
                    *self.rx.get_mut().unwrap_or_else(PoisonError::into_inner) = Some(rx);
                }
                Err(_) => {
                    // The worker is done with this input.
                    self.current += 1;
                    self.shared.lock().done = self.current;
                    self.shared.changed.notify_all();
                }
            }
        }
    }
}

impl Drop for GameStream {
    fn drop(&mut self) {
        let mut s = self.shared.lock();
        s.stop = true;
        // Dropping the receivers wakes every worker blocked on a full channel.
        s.ready.clear();
        drop(s);
        *self.rx.get_mut().unwrap_or_else(PoisonError::into_inner) = None;
        self.shared.changed.notify_all();
    }
}

#[pymethods]
impl GameStream {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<PyObject> {
        loop {
            let item = py.allow_threads(|| self.next_item());
            match item {
                None => return Err(PyStopIteration::new_err(())),
                Some(Item::Warning(w)) => errors::warn(py, &w)?,
                Some(Item::Error(e)) => return Ok(errors::to_py(py, &e).into_value(py).into_any()),
                Some(Item::Variant(g, name, format)) => {
                    let g = crate::variant::PyVariantGame::new(*g, &name, format);
                    return Ok(Py::new(py, g)?.into_any());
                }
                Some(Item::VariantError(why)) => {
                    let e = pyo3::exceptions::PyValueError::new_err(why);
                    return Ok(e.into_value(py).into_any());
                }
                Some(Item::Game(g, meta)) => {
                    return Ok(Py::new(py, PyGame::new(*g, meta))?.into_any());
                }
                // `read_many` is never lenient.
                Some(Item::Partial(_, _, e)) => {
                    return Ok(errors::to_py(py, &e).into_value(py).into_any());
                }
            }
        }
    }
}
