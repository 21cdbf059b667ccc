//! `--color auto|always|never` and `NO_COLOR`: whether the words that
//! matter (`ok`, a foul's rule, `warning`, `error`) are coloured.
//!
//! `auto` colours a stream only when it is a terminal and `NO_COLOR` is
//! unset or empty (<https://no-color.org>); `always` and `never` say so
//! whatever the environment, as an explicit flag outranks it.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicBool, Ordering};

static STDOUT: AtomicBool = AtomicBool::new(false);
static STDERR: AtomicBool = AtomicBool::new(false);

/// When to colour output.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum When {
    /// On a terminal, unless NO_COLOR is set.
    #[default]
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// The two output streams.
#[derive(Clone, Copy, Debug)]
pub enum Stream {
    Stdout,
    Stderr,
}

/// What a coloured word means.
#[derive(Clone, Copy, Debug)]
pub enum Style {
    /// Green: a game with no foul.
    Good,
    /// Bold red: a foul, an error.
    Bad,
    /// Yellow: a warning.
    Warn,
}

/// Decide, once per run, for both streams.
pub fn init(when: When) {
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let on = |tty: bool| match when {
        When::Always => true,
        When::Never => false,
        When::Auto => tty && !no_color,
    };
    STDOUT.store(on(std::io::stdout().is_terminal()), Ordering::Relaxed);
    STDERR.store(on(std::io::stderr().is_terminal()), Ordering::Relaxed);
}

/// `text` in `style` when `stream` is coloured, else `text` as it is.
pub fn paint(stream: Stream, style: Style, text: &str) -> String {
    let on = match stream {
        Stream::Stdout => &STDOUT,
        Stream::Stderr => &STDERR,
    };
    if !on.load(Ordering::Relaxed) {
        return text.to_string();
    }
    let code = match style {
        Style::Good => "32",
        Style::Bad => "1;31",
        Style::Warn => "33",
    };
    format!("\x1b[{code}m{text}\x1b[0m")
}
