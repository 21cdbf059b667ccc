//! A multi-game CSA file of any size, read a batch of games at a time with
//! the library's bounded-memory reader, [`kifu::stream::CsaReader`].

use crate::reading::{Item, replayed};
use kifu::stream::CsaReader;
use std::io::Read;
use std::path::Path;

/// Files at least this large are streamed when they are CSA: below it,
/// reading the whole file costs no more memory than a batch of games.
pub const STREAM_MIN_BYTES: u64 = 4 << 20;

/// How many bytes choose the format and the encoding.
const SNIFF_BYTES: usize = 64 * 1024;

/// Games handed on at a time.
pub const BATCH_GAMES: usize = 64;

/// Whether `prefix` starts a CSA text; the encoding it opens in.
pub fn sniff(prefix: &[u8], path: &Path) -> Option<&'static encoding_rs::Encoding> {
    // Cut at the last line end so a multi-byte character is never split.
    let cut = prefix
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(prefix.len(), |i| i + 1);
    let decoded = kifu::decode::decode(&prefix[..cut], None).ok()?;
    let hint = kifu::input::format_hint(path);
    (kifu::parse::detect(&decoded.text, hint) == Some(kifu::Format::Csa))
        .then_some(decoded.encoding)
}

/// The first bytes of the file at `path`, and its length.
pub fn peek(path: &Path) -> std::io::Result<(Vec<u8>, u64)> {
    let file = std::fs::File::open(path)?;
    let len = file.metadata()?.len();
    let mut prefix = Vec::with_capacity(SNIFF_BYTES);
    file.take(SNIFF_BYTES as u64).read_to_end(&mut prefix)?;
    Ok((prefix, len))
}

/// Read the CSA file at `path` and hand its items to `send` in batches of
/// at most [`BATCH_GAMES`] games; stops early when `send` returns false.
/// `encoding` is the one its first bytes are in (games are detected afresh
/// by the reader; the name is what `Game.encoding` reports).
pub fn read_streamed(
    path: &Path,
    encoding: &'static encoding_rs::Encoding,
    mut send: impl FnMut(Vec<Item>) -> bool,
) {
    let name = path.display().to_string();
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) => {
            let e = kifu::Error::new(kifu::ErrorKind::Io(e)).with_path(path);
            send(vec![Item::Error(e)]);
            return;
        }
    };
    let mut batch = Vec::with_capacity(BATCH_GAMES);
    for game in CsaReader::new(file) {
        batch.push(match game {
            Ok(record) => replayed(record, &name, encoding.name(), kifu::Format::Csa),
            Err(e) => Item::Error(e.with_path(path)),
        });
        if batch.len() >= BATCH_GAMES && !send(std::mem::take(&mut batch)) {
            return;
        }
    }
    if !batch.is_empty() {
        send(batch);
    }
}
