//! One entry point for every writer: a replayed game out as the bytes of a
//! file in the chosen format.

use crate::emit::csa::{self, CsaOptions};
use crate::emit::kif::{self, KifOptions};
use crate::emit::{Warning, jkf, json, ki2, sfen, usi};
use crate::record::Format;
use crate::replay::Game;

/// A format [`write`](fn@write) can write, with its options.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Target {
    /// KIF in Shift_JIS (CP932) with CRLF, as Kifu for Windows writes it.
    Kif,
    /// KIF in UTF-8 with LF (`.kifu`).
    Kifu,
    /// KI2 (traditional notation) in Shift_JIS (CP932).
    Ki2,
    /// KI2 in UTF-8 (`.ki2u`).
    Ki2u,
    /// CSA, V2.2 or V3.0, UTF-8.
    Csa(CsaOptions),
    /// JSON Kifu Format.
    Jkf,
    /// One `position … moves …` line.
    Usi,
    /// One line per position: SFEN, next move, result and eval from the mover's side.
    Sfen,
    /// One line of analysis JSON (`docs/json.md`).
    Json(JsonSource),
    /// dlshogi `HuffmanCodedPosAndEval` records, 38 bytes a position (`docs/training.md`).
    Hcpe,
    /// YaneuraOu `PackedSfenValue` records, 40 bytes a position (`docs/training.md`).
    Psv,
}

/// What the analysis JSON says about the input a game came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonSource {
    /// The input's name (its path, or `-` for stdin).
    pub name: String,
    /// The encoding it was decoded from, as [`crate::input::Input::encoding`] names it.
    pub encoding: &'static str,
    /// The format it was read as.
    pub format: Format,
    /// Indent the JSON instead of writing one line.
    pub pretty: bool,
}

/// `game` as the bytes of a file in `target`, with what the format could not
/// hold (or had to change) as warnings.
///
/// The bytes are what `kifu convert --to …` writes for a file of this one
/// game: encoded (Shift_JIS for [`Target::Kif`] and [`Target::Ki2`], UTF-8
/// otherwise) and, for the line formats (USI, SFEN, JSON), ending with a
/// newline; the training formats (HCPE, PSV) are fixed-size binary records. Writing never fails: whatever cannot be written is a warning.
///
/// # Example
///
/// ```
/// use kifu::{Format, ReplayOptions, Target, parse, replay, write};
///
/// let record = parse::parse("position startpos moves 7g7f 3c3d\n", Format::Usi)?.remove(0);
/// let game = replay(record, &ReplayOptions::default())?;
/// let (bytes, warnings) = write(&game, &Target::Csa(Default::default()));
/// let csa = String::from_utf8(bytes).unwrap();
/// assert!(csa.contains("+7776FU\n-3334FU\n"));
/// assert!(warnings.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write(game: &Game, target: &Target) -> (Vec<u8>, Vec<Warning>) {
    let (text, warnings) = match target {
        // Shift_JIS writers name the input line of a character CP932 cannot
        // hold, so they encode as they write.
        Target::Kif => return kif::write_sjis(game),
        Target::Ki2 => return ki2::write_sjis(game),
        Target::Hcpe => return crate::emit::hcpe::write(game),
        Target::Psv => return crate::emit::psv::write(game),
        Target::Kifu => kif::write_with(game, &KifOptions::utf8()),
        Target::Ki2u => ki2::write(game),
        Target::Csa(opts) => csa::write(game, opts),
        Target::Jkf => jkf::write(game),
        Target::Usi => line(usi::write(game)),
        Target::Sfen => sfen::write(game),
        Target::Json(s) => line(json::write(&s.name, s.encoding, s.format, game, s.pretty)),
    };
    (text.into_bytes(), warnings)
}

/// A line writer's text as a line of a file.
fn line((text, warnings): (String, Vec<Warning>)) -> (String, Vec<Warning>) {
    (text + "\n", warnings)
}
