//! `kifu perft`: count legal move sequences, the standard move-generator test.

use crate::PerftArgs;
use anyhow::{Context, bail};
use kifu::Position;
use kifu::variant::Board;
use std::io::Write;

pub fn run(a: &PerftArgs) -> anyhow::Result<u8> {
    if let Some(name) = &a.variant {
        return variant_perft(a, name);
    }
    let pos = match &a.sfen {
        // The error alone: its source repeats its message.
        Some(s) => Position::from_sfen(s).map_err(|e| anyhow::anyhow!("bad --sfen {s:?}: {e}"))?,
        None => Position::startpos(),
    };
    print(a, |d| pos.perft(d), |d| pos.perft_divide(d))
}

/// `kifu perft --variant NAME` on the table-driven engine.
fn variant_perft(a: &PerftArgs, name: &str) -> anyhow::Result<u8> {
    let v = super::variant::variant_named(name)?;
    let board = match &a.sfen {
        Some(s) => Board::from_sfen(v, s).with_context(|| format!("bad --sfen {s:?}"))?,
        None => v.start(),
    };
    if board.royals(board.side()).is_empty() && board.royals(board.side().flip()).is_empty() {
        bail!("the position has no royal piece");
    }
    print(a, |d| board.perft(d), |d| board.perft_divide(d))
}

/// Print the count for `--depth`, or with `--divide` the count under each
/// first move and then their sum: the same output for shogi and the variants.
fn print<M: std::fmt::Display>(
    a: &PerftArgs,
    count: impl FnOnce(u32) -> u64,
    divide: impl FnOnce(u32) -> Vec<(M, u64)>,
) -> anyhow::Result<u8> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if a.divide && a.depth > 0 {
        let mut total = 0u64;
        for (mv, n) in divide(a.depth) {
            writeln!(out, "{mv}: {n}")?;
            total += n;
        }
        writeln!(out, "{total}")?;
    } else {
        writeln!(out, "{}", count(a.depth))?;
    }
    out.flush()?;
    Ok(0)
}
