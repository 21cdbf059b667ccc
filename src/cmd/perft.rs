//! `kifu perft`: count legal move sequences, the standard move-generator test.

use crate::PerftArgs;
use kifu::Position;
use std::io::Write;

pub fn run(a: &PerftArgs) -> anyhow::Result<u8> {
    let pos = match &a.sfen {
        // The error alone: its source repeats its message.
        Some(s) => Position::from_sfen(s).map_err(|e| anyhow::anyhow!("bad --sfen {s:?}: {e}"))?,
        None => Position::startpos(),
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if a.divide && a.depth > 0 {
        let mut total = 0u64;
        for (mv, n) in pos.perft_divide(a.depth) {
            writeln!(out, "{mv}: {n}")?;
            total += n;
        }
        writeln!(out, "{total}")?;
    } else {
        writeln!(out, "{}", pos.perft(a.depth))?;
    }
    out.flush()?;
    Ok(0)
}
