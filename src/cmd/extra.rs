//! `kifu completions SHELL` and `kifu man`: generated from the clap
//! definitions, so they can never drift from the real options.

use crate::Cli;
use clap::CommandFactory;

/// Print the completion script for `shell` on stdout.
pub fn completions(shell: clap_complete::Shell) -> anyhow::Result<u8> {
    let mut cmd = Cli::command();
    clap_complete::generate(shell, &mut cmd, "kifu", &mut std::io::stdout());
    Ok(0)
}

/// Print the man page (roff) on stdout.
pub fn man() -> anyhow::Result<u8> {
    let cmd = Cli::command();
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut out)?;
    // Subcommands get their own sections so `man kifu` documents every option.
    for sub in Cli::command().get_subcommands() {
        let name = format!("kifu-{}", sub.get_name());
        // clap names are `&'static`; this runs once per process.
        let sub = sub.clone().name(&*Box::leak(name.into_boxed_str()));
        out.extend_from_slice(b"\n");
        clap_mangen::Man::new(sub).render(&mut out)?;
    }
    use std::io::Write;
    std::io::stdout().write_all(&out)?;
    Ok(0)
}
