//! `Game.to(fmt)`: every output format of `kifu convert --to`, through the
//! library's one entry point for writers, [`kifu::write`].

use kifu::emit::{JsonSource, Target, Warning};
use kifu::replay::Game;

/// What a writer gave: text, or bytes for the binary and Shift_JIS formats.
pub enum Output {
    Text(String),
    Bytes(Vec<u8>),
}

/// The formats `Game.to` takes, as the CLI names them.
pub fn formats() -> String {
    kifu::names::TARGET_NAMES.join(", ")
}

/// Write `game` in `fmt`; `None` for a name no writer has.
pub fn write(
    game: &Game,
    fmt: &str,
    meta: (&str, &'static str, kifu::Format),
) -> Option<(Output, Vec<Warning>)> {
    let mut target: Target = fmt.parse().ok()?;
    if let Target::Json(json) = &mut target {
        let (source, encoding, format) = meta;
        *json = JsonSource {
            name: source.to_string(),
            encoding,
            format,
            pretty: false,
        };
    }
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
