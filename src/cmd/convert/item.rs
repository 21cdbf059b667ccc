//! Converting one item of an input: replay a game and write it in the
//! target format (on a worker thread; the bytes are written in order later).

use super::super::summary::count_fouls;
use super::super::{Item, Meta, error_line};
use crate::{ConvertArgs, ToFormat};
use kifu::emit::Warning;
use kifu::emit::csa::{CsaOptions, CsaVersion};
use kifu::emit::kif::{self, KifOptions};
use kifu::replay::{Game, replay};
use std::collections::BTreeMap;

/// What the JSON writer says about the input a game came from.
struct InputInfo {
    name: String,
    encoding: &'static str,
    format: kifu::Format,
}

/// Formats that hold one game per file: several games make several files.
/// The warning, with the option that avoids its loss where there is one:
/// the library names no option of this program.
fn with_option_advice(a: &ConvertArgs, mut w: Warning) -> Warning {
    if a.to == ToFormat::Csa && w.code == kifu::WarningCode::VariationsDropped {
        w.message
            .push_str(" (use --split-variations to write each as its own game)");
    }
    w
}

pub fn one_game_per_file(to: ToFormat) -> bool {
    matches!(
        to,
        ToFormat::Kif | ToFormat::Kifu | ToFormat::Ki2 | ToFormat::Ki2u | ToFormat::Jkf
    )
}

/// Write one game in a one-game-per-file format.
fn emit_one(a: &ConvertArgs, game: &Game) -> (Vec<u8>, Vec<Warning>) {
    match a.to {
        ToFormat::Kif => kif::write_sjis(game),
        ToFormat::Kifu => {
            let (text, w) = kif::write_with(game, &KifOptions::utf8());
            (text.into_bytes(), w)
        }
        ToFormat::Ki2 => kifu::emit::ki2::write_sjis(game),
        ToFormat::Ki2u => {
            let (text, w) = kifu::emit::ki2::write(game);
            (text.into_bytes(), w)
        }
        ToFormat::Jkf => {
            let (text, w) = kifu::emit::jkf::write(game);
            (text.into_bytes(), w)
        }
        _ => (Vec::new(), Vec::new()),
    }
}

pub fn csa_options(a: &ConvertArgs) -> CsaOptions {
    CsaOptions {
        version: if a.out.csa_version == "3.0" {
            CsaVersion::V30
        } else {
            CsaVersion::V22
        },
    }
}

/// Write one game of a format that holds several games per file. CSA games
/// come without the file head: the writer adds it once per file, so games
/// can be written in parallel and streamed.
fn emit_streamed(a: &ConvertArgs, input: &InputInfo, g: &Game) -> (String, Vec<Warning>) {
    match a.to {
        ToFormat::Sfen => kifu::emit::sfen::write(g),
        ToFormat::Usi => {
            let (s, w) = kifu::emit::usi::write(g);
            (s + "\n", w)
        }
        ToFormat::Csa => {
            let opts = csa_options(a);
            let head_len = kifu::emit::csa::write_many(&[], &opts).0.len();
            let (s, w) = if a.split_variations {
                kifu::emit::csa::write_split(g, &opts)
            } else {
                kifu::emit::csa::write(g, &opts)
            };
            (s.get(head_len..).unwrap_or("").to_string(), w)
        }
        ToFormat::Json => {
            let (s, w) =
                kifu::emit::json::write(&input.name, input.encoding, input.format, g, a.out.pretty);
            (s + "\n", w)
        }
        _ => (String::new(), Vec::new()),
    }
}

/// What a command that writes as `convert` does to each game: change
/// the replayed game before it is written, and the bytes written for it.
pub trait Amend: Sync {
    /// Change the game before it is written.
    fn game(&self, _game: &mut Game) {}
    /// The bytes to write for `game` in `to`, given those its writer gave.
    fn bytes(&self, _game: &Game, _to: ToFormat, bytes: Vec<u8>) -> Vec<u8> {
        bytes
    }
}

/// Plain conversion: nothing changed.
impl Amend for () {}

/// The bytes of `game` (read from input `name`) in the target format, and
/// what the format could not hold. CSA games come without the file head
/// ([`csa_head`]), which the writer of a file puts once before its first.
pub fn emit(a: &ConvertArgs, name: &str, meta: &Meta, game: &Game) -> (Vec<u8>, Vec<Warning>) {
    if one_game_per_file(a.to) {
        emit_one(a, game)
    } else if a.to == ToFormat::Hcpe {
        kifu::emit::hcpe::write(game)
    } else if a.to == ToFormat::Psv {
        kifu::emit::psv::write(game)
    } else {
        let info = InputInfo {
            name: name.to_string(),
            encoding: meta.encoding,
            format: meta.format,
        };
        let (s, w) = emit_streamed(a, &info, game);
        (s.into_bytes(), w)
    }
}

/// The head a CSA file of the run's games starts with (empty for the other
/// formats).
pub fn csa_head(a: &ConvertArgs) -> String {
    if a.to == ToFormat::Csa {
        kifu::emit::csa::write_many(&[], &csa_options(a)).0
    } else {
        String::new()
    }
}

/// What converting one item of an input gave.
#[derive(Default)]
pub struct Converted {
    /// The game's index in its input.
    pub index: usize,
    /// The output bytes, `None` when there is no game to write.
    pub bytes: Option<Vec<u8>>,
    /// What the target format could not hold.
    pub warnings: Vec<Warning>,
    /// Messages for stderr (errors).
    pub err: String,
    /// Legal plies of the main line.
    pub plies: usize,
    /// Whether the main line ends in a foul.
    pub foul: bool,
    /// Fouls by rule code.
    pub fouls_by_rule: BTreeMap<&'static str, usize>,
    /// Inputs or games that could not be read (0 or 1).
    pub unreadable: usize,
}

/// Replay and write one item of input `name`, amended by `amend`.
pub fn convert_item(
    name: &str,
    meta: &Meta,
    item: Item,
    a: &ConvertArgs,
    replay_opts: &kifu::ReplayOptions,
    amend: &dyn Amend,
    keep: super::Keep,
) -> Converted {
    let mut c = Converted::default();
    let (item, cut_short) = lenient_item(item, a.lenient);
    c.warnings.extend(cut_short);
    match item {
        Item::Warning(w) => c.err = format!("{name}: warning: {w}\n"),
        Item::Unreadable(e) => {
            c.unreadable = 1;
            c.err = with_lenient_hint(error_line(name, &e, None), &e);
        }
        Item::Game {
            index,
            record: Err(e),
        } => {
            c.unreadable = 1;
            c.err = with_lenient_hint(error_line(name, &e, Some(index)), &e);
        }
        Item::Game {
            index,
            record: Ok(record),
        } => {
            c.index = index;
            match replay(record, replay_opts) {
                Ok(game) if !keep(name, &game) => {}
                Ok(mut game) => {
                    if a.classify {
                        let o = kifu::opening::classify(&game);
                        kifu::opening::fill_header(&mut game.record, &o, a.overwrite_opening);
                    }
                    amend.game(&mut game);
                    c.plies = game.main.plies.len();
                    c.foul = !game.main.verdict.is_legal();
                    count_fouls(&game, &mut c.fouls_by_rule);
                    let (bytes, w) = emit(a, name, meta, &game);
                    c.bytes = Some(amend.bytes(&game, a.to, bytes));
                    c.warnings
                        .extend(w.into_iter().map(|w| with_option_advice(a, w)));
                }
                Err(e) => {
                    c.unreadable += 1;
                    c.err = error_line(name, &e, Some(index));
                }
            }
        }
    }
    c
}

/// With `--lenient`, a game cut short by a syntax error becomes the game
/// read before it, with a warning naming what was left out.
fn lenient_item(item: Item, lenient: bool) -> (Item, Option<Warning>) {
    let (index, e) = match item {
        Item::Game {
            index,
            record: Err(e),
        } if lenient && e.partial().is_some() => (index, e),
        Item::Unreadable(e) if lenient && e.partial().is_some() => (0, e),
        _ => return (item, None),
    };
    let Some(p) = e.partial() else {
        return (Item::Unreadable(e), None);
    };
    let at = e.position().unwrap_or_default();
    let why = match e.kind() {
        kifu::ErrorKind::Parse(pe) => pe.message.as_str(),
        _ => "",
    };
    let warning = Warning {
        code: kifu::codes::WarningCode::PartialGame,
        message: format!(
            "syntax error at {}:{} ({why}): converted the {} moves before it; the {} lines from line {} to the end were left out",
            at.line,
            at.column,
            p.record.main.moves.len(),
            p.lines_left,
            at.line
        ),
    };
    let record = Ok(p.record.clone());
    (Item::Game { index, record }, Some(warning))
}

/// An error line for a game cut short by a syntax error, saying what
/// `--lenient` would write.
fn with_lenient_hint(mut line: String, e: &kifu::Error) -> String {
    if let Some(p) = e.partial() {
        let n = p.record.main.moves.len();
        let end = line.trim_end_matches('\n').len();
        line.insert_str(
            end,
            &format!("; not converted (--lenient writes the {n} moves before it)"),
        );
    }
    line
}
