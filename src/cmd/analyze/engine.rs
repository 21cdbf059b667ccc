//! One USI engine process: started, told its options, asked about one
//! position at a time, and stopped.
//!
//! Its stdout is read on a thread of its own into a channel, so every wait
//! has a timeout and a hung engine never hangs kifu; its stderr is read
//! into a short tail that every fault report quotes.

use super::usi::{Info, Limit, Said, read_line};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How to start an engine, and how long to wait for it.
#[derive(Clone, Debug)]
pub struct Spec {
    /// The program.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// `setoption name NAME value VALUE`, in order.
    pub options: Vec<(String, String)>,
    /// How long the start (`usi` … `readyok`) may take.
    pub start_timeout: Duration,
    /// How long one search may take beyond its own time limit.
    pub search_timeout: Duration,
}

/// Why an engine could not do what it was asked.
#[derive(Debug)]
pub enum Fault {
    /// The program could not be started.
    Spawn(String),
    /// It closed its output (exited or crashed).
    Exited { during: String, status: String },
    /// It said nothing useful in time.
    Timeout { during: String, secs: f64 },
    /// It answered with something that is not USI.
    Protocol { during: String, what: String },
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Spawn(e) => write!(f, "cannot start the engine: {e}"),
            Fault::Exited { during, status } => {
                write!(f, "the engine exited {during} ({status})")
            }
            Fault::Timeout { during, secs } => {
                write!(f, "the engine did not answer {during} within {secs:.1} s")
            }
            Fault::Protocol { during, what } => write!(f, "{during}: {what}"),
        }
    }
}

/// A fault, and what the engine wrote to stderr before it.
#[derive(Debug)]
pub struct Failure {
    /// What went wrong.
    pub fault: Fault,
    /// The last lines of the engine's stderr.
    pub tail: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.fault)?;
        if self.tail.is_empty() {
            f.write_str(" (nothing on its stderr)")
        } else {
            write!(
                f,
                "; its stderr ended:\n    {}",
                self.tail.replace('\n', "\n    ")
            )
        }
    }
}

/// What the engine said about one position: its last exact score (the
/// last bound when it gave no exact one), the depth, nodes and PV of that
/// line (at least the best move).
#[derive(Clone, Debug)]
pub struct Answer {
    /// The deepest line with a score.
    pub info: Info,
}

impl Answer {
    /// An answer whose PV is at least the best move: some engines give a
    /// score without a PV.
    fn new(mut info: Info, best: String) -> Answer {
        let is_move = !matches!(best.as_str(), "" | "resign" | "win" | "(none)");
        if info.pv.is_empty() && is_move {
            info.pv.push(best);
        }
        Answer { info }
    }
}

/// Lines kept from the engine's stderr for reports.
const TAIL_LINES: usize = 8;

/// A running engine.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    tail: Arc<Mutex<VecDeque<String>>>,
    /// `id name`, or the program's name.
    pub name: String,
    spec: Spec,
}

impl Engine {
    /// Start the engine and bring it to `readyok` with its options set.
    pub fn start(spec: &Spec) -> Result<Engine, Failure> {
        let no_tail = |fault| Failure {
            fault,
            tail: String::new(),
        };
        let mut cmd = Command::new(&spec.program);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        // Its own process group: Ctrl-C at the terminal reaches kifu only,
        // which then stops the engine with `quit`.
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut cmd, 0);
        let mut child = cmd
            .spawn()
            .map_err(|e| no_tail(Fault::Spawn(format!("{}: {e}", spec.program))))?;
        let (Some(stdin), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            let _ = child.kill();
            return Err(no_tail(Fault::Spawn("no pipes to the engine".into())));
        };
        let tail = Arc::new(Mutex::new(VecDeque::new()));
        let mut engine = Engine {
            child,
            stdin,
            lines: read_lines(stdout),
            tail: Arc::clone(&tail),
            name: spec.program.clone(),
            spec: spec.clone(),
        };
        keep_tail(stderr, tail);
        match engine.handshake() {
            Ok(()) => Ok(engine),
            Err(fault) => Err(engine.failure(fault)),
        }
    }

    fn handshake(&mut self) -> Result<(), Fault> {
        let during = "before usiok (is it a USI engine?)";
        self.send("usi", during)?;
        let deadline = Instant::now() + self.spec.start_timeout;
        loop {
            match read_line(&self.next_line(deadline, during)?) {
                Said::UsiOk => break,
                Said::Name(n) => self.name = n,
                _ => {}
            }
        }
        for (name, value) in self.spec.options.clone() {
            self.send(
                &format!("setoption name {name} value {value}"),
                "at setoption",
            )?;
        }
        self.ready(deadline)
    }

    /// `isready` … `readyok`.
    fn ready(&mut self, deadline: Instant) -> Result<(), Fault> {
        let during = "before readyok";
        self.send("isready", during)?;
        while read_line(&self.next_line(deadline, during)?) != Said::ReadyOk {}
        Ok(())
    }

    /// Search `sfen` (`position sfen …`) within `limit`.
    pub fn analyse(&mut self, sfen: &str, limit: Limit) -> Result<Answer, Failure> {
        self.search(sfen, limit).map_err(|f| self.failure(f))
    }

    /// `fault` with the stderr tail; after a crash the tail's reader is
    /// given a moment to take the engine's last words.
    fn failure(&self, fault: Fault) -> Failure {
        if matches!(fault, Fault::Exited { .. }) {
            std::thread::sleep(Duration::from_millis(50));
        }
        Failure {
            fault,
            tail: self.stderr_tail(),
        }
    }

    fn search(&mut self, sfen: &str, limit: Limit) -> Result<Answer, Fault> {
        let own = match limit {
            Limit::Movetime(ms) => Duration::from_millis(ms),
            _ => Duration::ZERO,
        };
        let deadline = Instant::now() + own + self.spec.search_timeout;
        let during = "while searching";
        self.send(&format!("position sfen {sfen}"), during)?;
        self.send(&limit.go(), during)?;
        let mut exact: Option<Info> = None;
        let mut bound: Option<Info> = None;
        loop {
            match read_line(&self.next_line(deadline, during)?) {
                Said::Info(i) if i.bound => bound = Some(i),
                Said::Info(i) => exact = Some(i),
                Said::BestMove(best) => {
                    let Some(info) = exact.or(bound) else {
                        return Err(Fault::Protocol {
                            during: "after go".into(),
                            what: format!("bestmove {best} without an info line with a score"),
                        });
                    };
                    return Ok(Answer::new(info, best));
                }
                _ => {}
            }
        }
    }

    fn send(&mut self, line: &str, during: &str) -> Result<(), Fault> {
        let sent = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        sent.map_err(|_| self.exited(during))
    }

    /// The next line of output, waiting until `deadline`.
    fn next_line(&mut self, deadline: Instant, during: &str) -> Result<String, Fault> {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(left) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => Err(Fault::Timeout {
                during: during.to_string(),
                secs: self.timeout_secs(during),
            }),
            Err(RecvTimeoutError::Disconnected) => Err(self.exited(during)),
        }
    }

    fn timeout_secs(&self, during: &str) -> f64 {
        if during == "while searching" {
            self.spec.search_timeout.as_secs_f64()
        } else {
            self.spec.start_timeout.as_secs_f64()
        }
    }

    fn exited(&mut self, during: &str) -> Fault {
        // The output closes a moment before the process is reaped.
        let deadline = Instant::now() + Duration::from_millis(500);
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(s)) => break s.to_string(),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10));
                }
                _ => break "output closed".to_string(),
            }
        };
        Fault::Exited {
            during: during.to_string(),
            status,
        }
    }

    /// The last lines the engine wrote to stderr, joined for a report.
    pub fn stderr_tail(&self) -> String {
        tail_text(&self.tail)
    }
}

impl Drop for Engine {
    /// `quit`, a moment to obey, then kill: no engine outlives kifu.
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The stderr tail kept by `tail`.
fn tail_text(tail: &Mutex<VecDeque<String>>) -> String {
    tail.lock()
        .map(|t| t.iter().cloned().collect::<Vec<_>>().join("\n"))
        .unwrap_or_default()
}

/// A channel of the lines `out` writes (lossy UTF-8), closed at its end.
fn read_lines(out: impl Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut r = BufReader::new(out);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match r.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            }
        }
    });
    rx
}

/// Keep the last [`TAIL_LINES`] lines of `err` in `tail`.
fn keep_tail(err: impl Read + Send + 'static, tail: Arc<Mutex<VecDeque<String>>>) {
    std::thread::spawn(move || {
        let mut r = BufReader::new(err);
        let mut buf = Vec::new();
        while let Ok(n) = r.read_until(b'\n', &mut buf) {
            if n == 0 {
                break;
            }
            if let Ok(mut t) = tail.lock() {
                if t.len() == TAIL_LINES {
                    t.pop_front();
                }
                t.push_back(String::from_utf8_lossy(&buf).trim_end().to_string());
            }
            buf.clear();
        }
    });
}
