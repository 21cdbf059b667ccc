//! Ctrl-C (SIGINT) and SIGTERM while outputs are being written: every
//! temporary file is removed, and the run stops cleanly.
//!
//! The handler only writes a byte to a pipe (about all a signal handler may
//! safely do). A watcher thread reads it, sets the flag the writing loop
//! checks between games, and removes the registered temporary files at
//! once, so none is left even when the loop is stuck (reading a terminal,
//! say); if the loop has not stopped after a grace period, the watcher ends
//! the process itself.
//!
//! This uses the C library's `signal` and `write`, which std links anyway,
//! instead of a crate for two calls.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

static INTERRUPTED: AtomicBool = AtomicBool::new(false);
static TEMPS: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// How long the writing loop has to stop by itself after a signal.
const GRACE: Duration = Duration::from_secs(2);

/// Whether SIGINT or SIGTERM has arrived.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Remember a temporary file, to be removed on an interrupt.
pub fn register(path: &Path) {
    if let Ok(mut t) = TEMPS.lock() {
        t.push(path.to_path_buf());
    }
}

/// Forget a temporary file (renamed into place, or removed).
pub fn unregister(path: &Path) {
    if let Ok(mut t) = TEMPS.lock()
        && let Some(i) = t.iter().rposition(|p| p == path)
    {
        t.swap_remove(i);
    }
}

fn remove_temps() {
    if let Ok(t) = TEMPS.lock() {
        for p in t.iter() {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// The error the writing loop stops with after a signal.
#[derive(Debug)]
pub struct Interrupted;

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("interrupted: the run stopped, no output left half-written")
    }
}

impl std::error::Error for Interrupted {}

/// Whether `e` is the stop after a signal.
pub fn is_interrupt(e: &anyhow::Error) -> bool {
    e.chain().any(|c| c.is::<Interrupted>())
}

/// `Err(Interrupted)` once a signal has arrived.
pub fn check() -> anyhow::Result<()> {
    if interrupted() {
        Err(Interrupted.into())
    } else {
        Ok(())
    }
}

#[cfg(unix)]
mod sys {
    use std::ffi::{c_int, c_void};
    use std::sync::atomic::{AtomicI32, Ordering};

    pub const SIGINT: c_int = 2;
    pub const SIGTERM: c_int = 15;

    /// The write end of the pipe the handler signals through.
    pub static PIPE: AtomicI32 = AtomicI32::new(-1);

    unsafe extern "C" {
        fn signal(signum: c_int, handler: usize) -> usize;
        fn write(fd: c_int, buf: *const c_void, count: usize) -> isize;
    }

    extern "C" fn on_signal(_: c_int) {
        let fd = PIPE.load(Ordering::SeqCst);
        if fd >= 0 {
            // SAFETY: write(2) is async-signal-safe; the buffer is static.
            unsafe {
                write(fd, b"!".as_ptr().cast(), 1);
            }
        }
    }

    pub fn install() {
        let handler = on_signal as extern "C" fn(c_int) as usize;
        for sig in [SIGINT, SIGTERM] {
            // SAFETY: the handler only loads an atomic and calls write(2).
            unsafe {
                signal(sig, handler);
            }
        }
    }
}

/// Handle SIGINT and SIGTERM from now on (once per process).
#[cfg(unix)]
pub fn install() {
    use std::io::Read;
    use std::os::fd::IntoRawFd;
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let Ok((mut reader, writer)) = std::io::pipe() else {
            return;
        };
        let spawned = std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                let mut byte = [0u8; 1];
                if reader.read(&mut byte).unwrap_or(0) == 0 {
                    return;
                }
                INTERRUPTED.store(true, Ordering::SeqCst);
                remove_temps();
                std::thread::sleep(GRACE);
                remove_temps();
                eprintln!("kifu: interrupted");
                std::process::exit(2);
            });
        if spawned.is_ok() {
            sys::PIPE.store(writer.into_raw_fd(), Ordering::SeqCst);
            sys::install();
        }
    });
}

/// Signals keep their default behaviour where there is no `signal(2)`.
#[cfg(not(unix))]
pub fn install() {}
