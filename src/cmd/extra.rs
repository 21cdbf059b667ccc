//! `kifu completions SHELL` and `kifu man`: generated from the clap
//! definitions, so they can never drift from the real options.

use crate::Cli;
use anyhow::Context;
use clap::CommandFactory;
use std::io::Write;
use std::path::Path;

/// Print the completion script for `shell` on stdout.
pub fn completions(shell: clap_complete::Shell) -> anyhow::Result<u8> {
    let mut cmd = Cli::command();
    // Into a buffer: generate() panics on a write error, and a reader that
    // stops early (`| head`) is not an error.
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, "kifu", &mut script);
    std::io::stdout().write_all(&script)?;
    Ok(0)
}

/// The man pages: kifu(1) first, then one per subcommand (`kifu-check`, …),
/// each as (file name, roff text).
fn pages() -> anyhow::Result<Vec<(String, Vec<u8>)>> {
    let mut pages = Vec::new();
    let mut main = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut main)?;
    pages.push(("kifu.1".to_string(), with_sections(main, None)));
    for sub in Cli::command().get_subcommands() {
        let name = format!("kifu-{}", sub.get_name());
        // clap names are `&'static`; this runs once per process.
        let sub = sub.clone().name(&*Box::leak(name.clone().into_boxed_str()));
        let mut page = Vec::new();
        clap_mangen::Man::new(sub.clone()).render(&mut page)?;
        let page = with_sections(page, Some(sub.get_name()));
        pages.push((format!("{name}.1"), page));
    }
    Ok(pages)
}

/// What the exit codes mean (as docs/cli.md says), one `(code, meaning)`
/// each.
const EXIT_STATUS: [(&str, &str); 3] = [
    (
        "0",
        "check: every game is legal. convert: every input was read and every output written; \
         games with fouls are converted like any other (check is the command that judges).",
    ),
    ("1", "check: at least one game has a foul."),
    (
        "2",
        "an input could not be read or parsed, an output was not written (it exists, clashes \
         with another output of the run, or a write failed), the run was interrupted, or the \
         command line is wrong.",
    ),
];

/// Command lines worth copying, each with what it does.
const EXAMPLES: [(&str, &str); 7] = [
    ("kifu check games/", "check every record under games/"),
    (
        "kifu check --json -q games/ > fouls.jsonl",
        "one JSON object per game with findings",
    ),
    (
        "kifu convert --to kif --out-dir out games/",
        "one KIF file per input, mirroring the tree",
    ),
    (
        "kifu convert --to kif --out-dir out --skip-existing games/",
        "convert only what is new",
    ),
    (
        "kifu convert --to sfen games/ > positions.sfen",
        "every position of every game, one stream",
    ),
    (
        "kifu convert --to json -o all.jsonl a.kif b.csa",
        "analysis JSON Lines of two inputs in one file",
    ),
    (
        "kifu stats --json games/",
        "results, endings, lengths and fouls of a collection",
    ),
];

/// Escape text for roff: a backslash, and a leading dot or quote.
fn roff_text(s: &str) -> String {
    let s = s.replace('\\', "\\e").replace('-', "\\-");
    if s.starts_with('.') || s.starts_with('\'') {
        format!("\\&{s}")
    } else {
        s
    }
}

/// A page with EXIT STATUS and EXAMPLES added before VERSION (or at the
/// end); a command's page lists only its own examples.
fn with_sections(page: Vec<u8>, command: Option<&str>) -> Vec<u8> {
    let mut extra = String::from(".SH \"EXIT STATUS\"\n");
    for (code, meaning) in EXIT_STATUS {
        extra.push_str(&format!(".TP\n\\fB{code}\\fR\n{}\n", roff_text(meaning)));
    }
    let prefix = command.map(|c| format!("kifu {c} "));
    let examples: Vec<_> = EXAMPLES
        .iter()
        .filter(|(line, _)| prefix.as_deref().is_none_or(|p| line.starts_with(p)))
        .collect();
    if !examples.is_empty() {
        extra.push_str(".SH EXAMPLES\n");
        for (line, what) in examples {
            extra.push_str(&format!(
                ".TP\n\\fB{}\\fR\n{}\n",
                roff_text(line),
                roff_text(what)
            ));
        }
    }
    let text = String::from_utf8_lossy(&page).into_owned();
    let at = text.find("\n.SH VERSION").map_or(text.len(), |i| i + 1);
    let mut out = text[..at].to_string();
    out.push_str(&extra);
    out.push_str(&text[at..]);
    out.into_bytes()
}

/// Print every page on stdout (one roff stream `man -l` reads whole, so
/// every option is documented in one place), or with `out_dir` write each
/// page to its own file there (atomically, like every kifu output).
pub fn man(out_dir: Option<&Path>) -> anyhow::Result<u8> {
    let pages = pages()?;
    let Some(dir) = out_dir else {
        let mut out = Vec::new();
        for (i, (_, page)) in pages.iter().enumerate() {
            if i > 0 {
                out.push(b'\n');
            }
            out.extend_from_slice(page);
        }
        std::io::stdout().write_all(&out)?;
        return Ok(0);
    };
    std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create", dir.display()))?;
    for (name, page) in pages {
        super::output::write_file(&dir.join(&name), &page)?;
    }
    Ok(0)
}
