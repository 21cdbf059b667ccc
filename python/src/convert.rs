//! `Game.to(fmt)`: every output format of `kifu convert --to`, through the
//! library's one entry point for writers, [`kifu::write`].

use kifu::emit::csa::{CsaOptions, CsaVersion};
use kifu::emit::{JsonSource, Target, Warning};
use kifu::replay::Game;

/// What a writer gave: text, or bytes for the binary and Shift_JIS formats.
pub enum Output {
    Text(String),
    Bytes(Vec<u8>),
}

/// The formats `Game.to` takes, as the CLI names them.
pub const FORMATS: &str = "kif, kifu, ki2, ki2u, csa, csa3, jkf, usi, sfen, json, hcpe, psv";

/// Write `game` in `fmt`; `None` for a name no writer has.
pub fn write(
    game: &Game,
    fmt: &str,
    meta: (&str, &'static str, kifu::Format),
) -> Option<(Output, Vec<Warning>)> {
    let csa = |version| Target::Csa(CsaOptions { version });
    let target = match fmt {
        "kif" => Target::Kif,
        "kifu" => Target::Kifu,
        "ki2" => Target::Ki2,
        "ki2u" => Target::Ki2u,
        "csa" => csa(CsaVersion::V22),
        "csa3" => csa(CsaVersion::V30),
        "jkf" => Target::Jkf,
        "usi" => Target::Usi,
        "sfen" => Target::Sfen,
        "json" => {
            let (source, encoding, format) = meta;
            Target::Json(JsonSource {
                name: source.to_string(),
                encoding,
                format,
                pretty: false,
            })
        }
        "hcpe" => Target::Hcpe,
        "psv" => Target::Psv,
        _ => return None,
    };
    let (bytes, warnings) = kifu::write(game, &target);
    let binary = matches!(
        target,
        Target::Kif | Target::Ki2 | Target::Hcpe | Target::Psv
    );
    let out = if binary {
        Output::Bytes(bytes)
    } else {
        // Every text writer writes UTF-8.
        match String::from_utf8(bytes) {
            Ok(s) => Output::Text(s),
            Err(e) => Output::Bytes(e.into_bytes()),
        }
    };
    Some((out, warnings))
}
