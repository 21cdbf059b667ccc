//! Which engine reads an input: the table-driven one of the shogi family's
//! variants when `--variant` names one or the record shows one (its KIF
//! 手合割, its SFEN, a `setoption … UCI_Variant` line), else shogi's. Each
//! command's variant path is the command's own (`check::variant`,
//! `convert::variant`, `stats::variant`, `show_variant`).

use crate::InputArgs;
use anyhow::{Context, bail};
use kifu::Format;
use kifu::variant::read::ReadError;
use kifu::variant::{Variant, VariantGame};
use std::io::Read;
use std::path::Path;

pub fn variant_named(name: &str) -> anyhow::Result<Variant> {
    Variant::from_name(name).with_context(|| {
        format!("unknown variant {name:?}: use shoshogi, torishogi, minishogi, judkins, micro or chushogi")
    })
}

/// The variant `--variant` names, if any.
pub fn requested(a: &InputArgs) -> anyhow::Result<Option<Variant>> {
    a.variant.as_deref().map(variant_named).transpose()
}

/// The variant named, or else the one a single input file sniffs as (a
/// directory of variant records needs `--variant`).
pub fn requested_or_sniffed(a: &InputArgs) -> anyhow::Result<Option<Variant>> {
    if let Some(v) = requested(a)? {
        return Ok(Some(v));
    }
    let [path] = &a.paths[..] else {
        return Ok(None);
    };
    match sniff_file(path) {
        Some(Ok(v)) => Ok(Some(v)),
        Some(Err(why)) => bail!("{}: {why}", path.display()),
        None => Ok(None),
    }
}

/// The variant the start of a file shows, if any: only its first 64 KiB
/// are read, so a large shogi file costs next to nothing here.
pub fn sniff_file(path: &Path) -> Option<Result<Variant, String>> {
    let mut head = Vec::with_capacity(1 << 16);
    std::fs::File::open(path)
        .ok()?
        .take(1 << 16)
        .read_to_end(&mut head)
        .ok()?;
    let text = kifu::decode::decode(&head, None).ok()?.text;
    kifu::variant::read::sniff(&text).map(|r| r.map(|(v, _)| v))
}

/// Read one input as `variant` (or the variant it names or sniffs as).
pub fn read(
    name: &str,
    path: Option<&Path>,
    variant: Option<Variant>,
) -> Result<(Format, Vec<VariantGame>), String> {
    let bytes = match path {
        Some(p) => std::fs::read(p).map_err(|e| format!("{name}: {e}"))?,
        None => {
            let mut b = Vec::new();
            std::io::stdin()
                .read_to_end(&mut b)
                .map_err(|e| format!("{name}: {e}"))?;
            b
        }
    };
    let text = kifu::decode::decode(&bytes, None)
        .map_err(|e| format!("{name}: {e}"))?
        .text;
    kifu::variant::read::read_text(&text, variant).map_err(|e| match e {
        ReadError::NotAVariant => {
            format!("{name}: not a record of a shogi variant (name one with --variant)")
        }
        ReadError::Unclear(why) => format!("{name}: {why} (name it with --variant)"),
        ReadError::Parse(p) => format!("{name}:{}:{}: {}", p.span.line, p.span.column, p.message),
        e => format!("{name}: {e}"),
    })
}
