//! `Game.to(fmt)`: every output format of `kifu convert --to`, written as
//! the CLI writes one game of it.

use kifu::emit::Warning;
use kifu::emit::csa::{CsaOptions, CsaVersion};
use kifu::emit::kif::{self, KifOptions};
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
    let text = |(s, w): (String, Vec<Warning>)| (Output::Text(s), w);
    let bytes = |(b, w): (Vec<u8>, Vec<Warning>)| (Output::Bytes(b), w);
    Some(match fmt {
        "kif" => {
            let (s, mut w) = kif::write_with(game, &KifOptions::shift_jis());
            let (b, w2) = kif::encode_sjis(&s);
            w.extend(w2);
            (Output::Bytes(b), w)
        }
        "kifu" => text(kif::write_with(game, &KifOptions::utf8())),
        "ki2" | "ki2u" => {
            let (s, mut w) = kifu::emit::ki2::write(game);
            if fmt == "ki2u" {
                return Some((Output::Text(s), w));
            }
            let (b, w2) = kifu::emit::ki2::encode(&s, true);
            w.extend(w2);
            (Output::Bytes(b), w)
        }
        "csa" | "csa3" => {
            let version = if fmt == "csa3" {
                CsaVersion::V30
            } else {
                CsaVersion::V22
            };
            text(kifu::emit::csa::write(game, &CsaOptions { version }))
        }
        "jkf" => text(kifu::emit::jkf::write(game)),
        "usi" => {
            let (s, w) = kifu::emit::usi::write(game);
            (Output::Text(s + "\n"), w)
        }
        "sfen" => text(kifu::emit::sfen::write(game)),
        "json" => {
            let (source, encoding, format) = meta;
            text(kifu::emit::json::write(
                source, encoding, format, game, false,
            ))
        }
        "hcpe" => bytes(kifu::emit::hcpe::write(game)),
        "psv" => bytes(kifu::emit::psv::write(game)),
        _ => return None,
    })
}
