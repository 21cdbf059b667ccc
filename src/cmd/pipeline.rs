//! An ordered pipeline on the worker pool: inputs are handed out one at a
//! time, at most `window` of them in flight, and results reach the sink in
//! input order as soon as the next one in order is done.
//!
//! Processing in fixed batches (collect a batch in parallel, then print it)
//! leaves cores idle at the end of every batch while the slowest item
//! finishes and while the main thread prints; here the main thread prints
//! while the workers go on, and a worker never waits for the others.

use std::collections::VecDeque;
use std::marker::PhantomData;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::mpsc;

/// Run `work` on every input on `pool`, at most `window` at a time, and
/// hand each result to `sink` in input order. `inputs` is pulled on the
/// calling thread, only as the window allows, so a lazy input (a stream of
/// games cut from a huge file) is never read far ahead.
///
/// Stops at the first error of `sink` (after the items in flight finish). A
/// panic in `work` is raised again on the calling thread. With a pool of one
/// thread everything runs on the calling thread, one input after another.
pub fn ordered<'w, I, T>(
    pool: &rayon::ThreadPool,
    inputs: impl Iterator<Item = I>,
    window: usize,
    work: &'w (impl Fn(I) -> T + Sync),
    sink: impl FnMut(T) -> anyhow::Result<()>,
) -> anyhow::Result<()>
where
    I: Send + 'w,
    T: Send + 'w,
{
    run(pool, window, work, sink, |feed| {
        for input in inputs {
            feed.feed(input)?;
        }
        Ok(())
    })
}

/// The push form of [`ordered`]: `body` hands inputs to the [`Feeder`] as it
/// produces them (from a callback, say); results reach `sink` in order
/// while it does, and the rest once it returns.
pub fn run<'w, I, T, W, S>(
    pool: &rayon::ThreadPool,
    window: usize,
    work: &'w W,
    sink: S,
    body: impl for<'a> FnOnce(&mut Feeder<'a, 'w, I, T, W, S>) -> anyhow::Result<()>,
) -> anyhow::Result<()>
where
    I: Send + 'w,
    T: Send + 'w,
    W: Fn(I) -> T + Sync,
    S: FnMut(T) -> anyhow::Result<()>,
{
    let (tx, rx) = mpsc::channel();
    let parallel = pool.current_num_threads() > 1;
    pool.in_place_scope_fifo(|scope: &rayon::ScopeFifo<'w>| {
        let mut feeder = Feeder {
            scope: parallel.then_some(scope),
            work,
            sink,
            tx,
            rx,
            waiting: VecDeque::new(),
            next_in: 0,
            next_out: 0,
            window: window.max(1),
            input: PhantomData,
        };
        body(&mut feeder)?;
        while feeder.next_out < feeder.next_in {
            feeder.emit_next()?;
        }
        Ok(())
    })
}

type Sent<T> = (usize, std::thread::Result<T>);

/// Hands inputs to the workers and results to the sink; see [`run`].
pub struct Feeder<'a, 'scope, I, T, W, S> {
    /// `None` with one thread: work then runs on the calling thread.
    scope: Option<&'a rayon::ScopeFifo<'scope>>,
    work: &'scope W,
    sink: S,
    tx: mpsc::Sender<Sent<T>>,
    rx: mpsc::Receiver<Sent<T>>,
    /// Results that came back early, by position after `next_out`.
    waiting: VecDeque<Option<T>>,
    next_in: usize,
    next_out: usize,
    window: usize,
    input: PhantomData<fn(I)>,
}

impl<'scope, I, T, W, S> Feeder<'_, 'scope, I, T, W, S>
where
    I: Send + 'scope,
    T: Send + 'scope,
    W: Fn(I) -> T + Sync,
    S: FnMut(T) -> anyhow::Result<()>,
{
    /// Start `input` (after handing on results while the window is full).
    ///
    /// On a worker of the pool, a full window is not waited on while there
    /// is nothing to run: every job queued is taken and the result due is
    /// still being worked on, so this thread goes back to producing input
    /// (up to twice the window) rather than sit idle.
    pub fn feed(&mut self, input: I) -> anyhow::Result<()> {
        let Some(scope) = self.scope else {
            // One worker: no thread hand-offs at all (`-j1` is single-threaded).
            return (self.sink)((self.work)(input));
        };
        loop {
            self.emit_ready()?;
            let in_flight = self.next_in - self.next_out;
            if in_flight < self.window {
                break;
            }
            if in_flight < 2 * self.window {
                match rayon::yield_now() {
                    Some(rayon::Yield::Executed) => continue,
                    Some(rayon::Yield::Idle) => break,
                    // Not on a worker: wait as the window says.
                    None => {}
                }
            }
            self.emit_next()?;
        }
        let tx = self.tx.clone();
        let work = self.work;
        let i = self.next_in;
        scope.spawn_fifo(move |_| {
            let r = catch_unwind(AssertUnwindSafe(|| work(input)));
            // The receiver lives until every job is done.
            let _ = tx.send((i, r));
        });
        self.next_in += 1;
        Ok(())
    }

    /// Put a result that came back in its place among the waiting ones.
    fn place(&mut self, (i, r): Sent<T>) {
        let t = r.unwrap_or_else(|p| resume_unwind(p));
        let slot = i - self.next_out;
        if self.waiting.len() <= slot {
            self.waiting.resize_with(slot + 1, || None);
        }
        self.waiting[slot] = Some(t);
    }

    /// Hand on every result that is done and next in order, without waiting.
    fn emit_ready(&mut self) -> anyhow::Result<()> {
        while let Ok(sent) = self.rx.try_recv() {
            self.place(sent);
        }
        while let Some(Some(_)) = self.waiting.front() {
            let t = self.waiting.pop_front().flatten().expect("checked");
            self.next_out += 1;
            (self.sink)(t)?;
        }
        Ok(())
    }

    /// The next result to come back, in any order. On a worker of the pool,
    /// the wait is spent running queued jobs (of this pipeline or another),
    /// so the thread that feeds and drains the pipeline is also one of its
    /// workers: `-j2` is two busy threads, not two plus a mostly idle third.
    fn next_result(&self) -> Sent<T> {
        loop {
            match self.rx.try_recv() {
                Ok(sent) => return sent,
                Err(mpsc::TryRecvError::Disconnected) => {
                    unreachable!("a sender is alive while jobs are")
                }
                Err(mpsc::TryRecvError::Empty) => {}
            }
            if rayon::yield_now() != Some(rayon::Yield::Executed) {
                // Nothing queued: the results due are being worked on.
                return self.rx.recv().expect("a sender is alive while jobs are");
            }
        }
    }

    /// Wait for the next result in order and hand it to the sink.
    fn emit_next(&mut self) -> anyhow::Result<()> {
        while self.waiting.front().is_none_or(Option::is_none) {
            let sent = self.next_result();
            self.place(sent);
        }
        let t = self
            .waiting
            .pop_front()
            .flatten()
            .expect("the front result is present");
        self.next_out += 1;
        (self.sink)(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// `inputs`, counting in `pulled` how many the pipeline has taken.
    fn counted<'a, T>(
        inputs: impl Iterator<Item = T> + 'a,
        pulled: &'a AtomicUsize,
    ) -> impl Iterator<Item = T> + 'a {
        inputs.inspect(|_| {
            pulled.fetch_add(1, Ordering::SeqCst);
        })
    }

    fn pool(n: usize) -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .unwrap()
    }

    #[test]
    fn results_come_out_in_input_order() {
        let p = pool(3);
        let mut out = Vec::new();
        // Uneven work so results finish out of order.
        let work = |i: u64| {
            let mut x = i;
            for _ in 0..(50_000 * (i % 7)) {
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
            }
            (i, x)
        };
        ordered(&p, 0..500u64, 8, &work, |(i, _)| {
            out.push(i);
            Ok(())
        })
        .unwrap();
        assert_eq!(out, (0..500).collect::<Vec<_>>());
    }

    #[test]
    fn never_more_than_the_window_in_flight() {
        let p = pool(4);
        let live = AtomicUsize::new(0);
        let most = AtomicUsize::new(0);
        let pulled = AtomicUsize::new(0);
        let inputs = counted(0..200, &pulled);
        let work = |_: i32| {
            let now = live.fetch_add(1, Ordering::SeqCst) + 1;
            most.fetch_max(now, Ordering::SeqCst);
            std::thread::sleep(std::time::Duration::from_micros(200));
            live.fetch_sub(1, Ordering::SeqCst);
        };
        let mut seen = 0;
        ordered(&p, inputs, 5, &work, |()| {
            seen += 1;
            // Inputs are pulled lazily: never more than the window ahead.
            assert!(pulled.load(Ordering::SeqCst) <= seen + 5);
            Ok(())
        })
        .unwrap();
        assert_eq!(seen, 200);
        assert!(most.load(Ordering::SeqCst) <= 5);
    }

    #[test]
    fn on_a_worker_the_feeding_thread_runs_jobs_and_in_flight_stays_bounded() {
        let p = pool(2);
        let pulled = AtomicUsize::new(0);
        let most_ahead = AtomicUsize::new(0);
        let feeder_ran = AtomicUsize::new(0);
        let feeder = std::sync::OnceLock::new();
        let slow_done = std::sync::atomic::AtomicBool::new(false);
        let inputs = counted(0..300u64, &pulled);
        let work = |i: u64| {
            let on_feeder = feeder.get() == Some(&std::thread::current().id());
            if on_feeder {
                feeder_ran.fetch_add(1, Ordering::SeqCst);
            }
            // The first job the other worker takes holds up the output for
            // a while; the rest are quick.
            let pause = if !on_feeder && !slow_done.swap(true, Ordering::SeqCst) {
                20_000
            } else {
                50 * (i % 3)
            };
            std::thread::sleep(std::time::Duration::from_micros(pause));
            i
        };
        let mut out = Vec::new();
        // The whole run on a worker, as `cmd::drive` does it.
        p.install(|| {
            feeder.set(std::thread::current().id()).unwrap();
            ordered(&p, inputs, 4, &work, |i| {
                let ahead = pulled.load(Ordering::SeqCst) - out.len();
                most_ahead.fetch_max(ahead, Ordering::SeqCst);
                out.push(i);
                Ok(())
            })
        })
        .unwrap();
        assert_eq!(out, (0..300).collect::<Vec<_>>());
        // Inputs pulled but not handed on: while the slow job holds up the
        // output and nothing is queued, the feeder reads on past the window
        // (4), up to twice it (plus the input being fed), and no further.
        let most = most_ahead.load(Ordering::SeqCst);
        assert!((8..=9).contains(&most), "{most} inputs ahead of the output");
        // The feeding thread did part of the work instead of only waiting.
        assert!(feeder_ran.load(Ordering::SeqCst) > 0);
    }

    #[test]
    fn a_sink_error_stops_the_run() {
        let p = pool(2);
        let pulled = AtomicUsize::new(0);
        let inputs = counted(0..10_000, &pulled);
        let mut got = 0;
        let r = ordered(&p, inputs, 4, &|i: i32| i, |i| {
            got += 1;
            if i == 10 {
                anyhow::bail!("broken pipe")
            }
            Ok(())
        });
        assert!(r.is_err());
        assert_eq!(got, 11);
        assert!(pulled.load(Ordering::SeqCst) <= 15);
    }

    #[test]
    #[should_panic(expected = "worker bug")]
    fn a_panic_in_work_reaches_the_caller() {
        let p = pool(2);
        let _ = ordered(
            &p,
            0..50,
            4,
            &|i: i32| {
                if i == 20 {
                    panic!("worker bug");
                }
                i
            },
            |_| Ok(()),
        );
    }
}
