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
    clap_complete::generate(shell, &mut cmd, "kifu", &mut std::io::stdout());
    Ok(0)
}

/// The man pages: kifu(1) first, then one per subcommand (`kifu-check`, …),
/// each as (file name, roff text).
fn pages() -> anyhow::Result<Vec<(String, Vec<u8>)>> {
    let mut pages = Vec::new();
    let mut main = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut main)?;
    pages.push(("kifu.1".to_string(), main));
    for sub in Cli::command().get_subcommands() {
        let name = format!("kifu-{}", sub.get_name());
        // clap names are `&'static`; this runs once per process.
        let sub = sub.clone().name(&*Box::leak(name.clone().into_boxed_str()));
        let mut page = Vec::new();
        clap_mangen::Man::new(sub).render(&mut page)?;
        pages.push((format!("{name}.1"), page));
    }
    Ok(pages)
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
        let path = dir.join(&name);
        let mut tmp = tempfile::NamedTempFile::new_in(dir)
            .with_context(|| format!("{}: cannot write", dir.display()))?;
        tmp.write_all(&page)?;
        tmp.persist(&path)
            .with_context(|| format!("{}: cannot write", path.display()))?;
    }
    Ok(0)
}
