//! The second read of a multi-game CSA file, without reading it all again:
//! the first read notes where every sixteenth game starts (a checkpoint),
//! and a game that may hold a shorter one is read from the checkpoint
//! before it, at most fifteen games early, instead of with the whole file.
//!
//! A checkpoint is an offset in the decoded text, which is the file's own
//! offset for ASCII and UTF-8 without a byte-order mark. Each game read
//! this way must give back the key the first read gave it; one that does
//! not (another encoding, a file changed since) is left to the whole
//! second read, so the shortcut can only save work, never change a group.

use super::Places;
use kifu::collection::{GameKey, Groups, prefix_hashes};
use kifu::input::{ReadOptions, read_bytes};
use std::collections::{BTreeMap, HashMap};
use std::io::{Read, Seek, SeekFrom};

/// One checkpoint every this many games.
const EVERY: u32 = 16;

/// Checkpoint slots read in one parallel batch: their candidates' prefix
/// lists are held until the batch is in.
const SLOTS_AT_ONCE: usize = 256;

/// The most read after the last checkpoint of a file: sixteen games are far
/// less, and a file that goes on past 4 GiB keeps no more checkpoints.
const LAST_SLOT: u64 = 64 << 20;

/// Where every [`EVERY`]th game of each multi-game CSA source starts: half
/// a byte a game. Past 4 GiB into a file no checkpoint is kept (the games
/// there are read with the whole file).
#[derive(Default)]
pub(super) struct Checkpoints {
    /// Source → (game index, decoded offset), in index order.
    by_source: HashMap<u32, Vec<(u32, u32)>>,
}

impl Checkpoints {
    /// Game `index` of source `src` starts at `offset`.
    pub(super) fn note(&mut self, src: u32, index: u32, offset: u64) {
        if index.is_multiple_of(EVERY)
            && let Ok(offset) = u32::try_from(offset)
        {
            self.by_source.entry(src).or_default().push((index, offset));
        }
    }
}

/// The bytes of `path` from `start` to `end` (or its end).
fn bytes_between(path: &std::path::Path, start: u64, end: Option<u64>) -> Option<Vec<u8>> {
    let mut f = std::fs::File::open(path).ok()?;
    f.seek(SeekFrom::Start(start)).ok()?;
    let mut out = Vec::new();
    match end {
        Some(e) => f.take(e.checked_sub(start)?).read_to_end(&mut out).ok()?,
        None => f.take(LAST_SLOT).read_to_end(&mut out).ok()?,
    };
    Some(out)
}

/// Piece `n` of a multi-game CSA text cut at its `/` lines: game `n` after
/// the checkpoint, unless a piece before it held no game (the key check
/// then sends the game to the whole read).
fn piece(bytes: &[u8], n: usize) -> Option<&[u8]> {
    let mut start = 0;
    let mut seen = 0;
    let mut at = 0;
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        let next = at + line.len();
        if line.trim_ascii_end() == b"/" {
            if seen == n {
                return Some(&bytes[start..at]);
            }
            seen += 1;
            start = next;
        }
        at = next;
    }
    (seen == n).then(|| &bytes[start..])
}

/// The prefix hashes of game `rel` of the CSA text `bytes`, read from its
/// own piece, when it gives back `key`; `None` sends it to the whole read.
fn prefixes_at(
    bytes: &[u8],
    rel: usize,
    key: Option<&GameKey>,
    opts: &kifu::ReplayOptions,
) -> Option<Vec<u64>> {
    let csa = ReadOptions::default().format(Some(kifu::Format::Csa));
    let input = read_bytes(piece(bytes, rel)?, None, &csa).ok()?;
    let game = kifu::replay(input.records.into_iter().next()?, opts).ok()?;
    let prefixes = prefix_hashes(&game);
    (key == Some(&GameKey::from_prefixes(&game, &prefixes))).then_some(prefixes)
}

/// Give `groups` the prefixes of every game of `wanted` that a checkpoint
/// reaches, and take those games out of `wanted`. The slots are read on
/// `jobs` threads (every core by default); the prefixes go in in order.
pub(super) fn from_checkpoints(
    cp: &Checkpoints,
    places: &Places,
    groups: &mut Groups,
    wanted: &mut HashMap<(u32, u32), u32>,
    opts: &kifu::ReplayOptions,
    jobs: Option<usize>,
) {
    use rayon::prelude::*;
    // (source, checkpoint) → the wanted games after it.
    // Each with the key the first read gave it, which its second read must
    // give back.
    type Wanted = (u32, u32, Option<GameKey>);
    let mut by_slot: BTreeMap<(u32, usize), Vec<Wanted>> = BTreeMap::new();
    for (&(s, index), &id) in wanted.iter() {
        let Some(list) = cp.by_source.get(&s) else {
            continue;
        };
        let slot = list.partition_point(|&(i, _)| i <= index);
        if slot > 0 {
            let key = groups.key(id).copied();
            by_slot
                .entry((s, slot - 1))
                .or_default()
                .push((index, id, key));
        }
    }
    let slots: Vec<_> = by_slot.into_iter().collect();
    let read_slot = |((s, slot), games): &((u32, usize), Vec<Wanted>)| {
        let list = &cp.by_source[s];
        let (base, start) = list[*slot];
        let end = list.get(slot + 1).map(|&(_, o)| u64::from(o));
        let path = places.srcs[*s as usize].path.as_deref()?;
        let bytes = bytes_between(path, u64::from(start), end)?;
        let found: Vec<(u32, u32, Vec<u64>)> = games
            .iter()
            .filter_map(|&(index, id, key)| {
                let rel = (index - base) as usize;
                let prefixes = prefixes_at(&bytes, rel, key.as_ref(), opts)?;
                Some((index, id, prefixes))
            })
            .collect();
        Some((*s, found))
    };
    let Ok(pool) = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .build()
    else {
        return;
    };
    // In batches, so that the prefixes held at once stay few.
    for batch in slots.chunks(SLOTS_AT_ONCE) {
        let read: Vec<_> = pool.install(|| batch.par_iter().filter_map(read_slot).collect());
        for (s, found) in read {
            for (index, id, prefixes) in found {
                groups.add_prefixes(id, &prefixes);
                wanted.remove(&(s, index));
            }
        }
    }
}
