//! The commands on records of the shogi family's variants (`--variant`,
//! or a variant sniffed from the record): check, convert, stats and perft
//! on the table-driven engine.

use crate::PerftArgs;
use anyhow::{Context, bail};
use kifu::variant::{Board, Variant};
use std::io::Write;

fn variant_named(name: &str) -> anyhow::Result<Variant> {
    Variant::from_name(name)
        .with_context(|| format!("unknown variant {name:?}: use shoshogi, torishogi or minishogi"))
}

pub fn perft(a: &PerftArgs, name: &str) -> anyhow::Result<u8> {
    let v = variant_named(name)?;
    let board = match &a.sfen {
        Some(s) => Board::from_sfen(v, s).with_context(|| format!("bad --sfen {s:?}"))?,
        None => v.start(),
    };
    if board.royals(board.side()).is_empty() && board.royals(board.side().flip()).is_empty() {
        bail!("the position has no royal piece");
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if a.divide && a.depth > 0 {
        let mut total = 0u64;
        for (mv, n) in board.perft_divide(a.depth) {
            writeln!(out, "{mv}: {n}")?;
            total += n;
        }
        writeln!(out, "{total}")?;
    } else {
        writeln!(out, "{}", board.perft(a.depth))?;
    }
    out.flush()?;
    Ok(0)
}
