//! The test page of the opening table (`docs/openings.md`, "Every entry"):
//! for each entry of `data/openings.txt`, the first game of a collection in
//! which kifu recognises it (one from the even start where there is one),
//! and the board at the ply where it first held, drawn as the SVG of
//! `kifu show --to svg`.
//!
//! Usage: `openings_page CORPUS_DIR SVG_DIR [FIXTURE_DIR] > section.md`:
//! reads every record under CORPUS_DIR (in name order), writes one SVG an
//! entry met into SVG_DIR (`NN.svg`, NN the entry's place in the table)
//! and prints the section's Markdown, its links relative to `docs/`. With
//! FIXTURE_DIR it also writes there, an entry met, `NN.usi`: two games in
//! USI, that game cut where the entry first holds (kifu names it) and cut
//! one ply before (a near miss: kifu must not).
//!
//! A fixture whose comment says it was "made by hand" (a game composed for
//! an entry no corpus game reaches) is never overwritten; for an entry not
//! met, the page names such a fixture, with the side and the ply at which
//! its game reaches the entry.

use kifu::emit::diagram;
use kifu::emit::svg::{self, SvgOptions};
use kifu::input::{ReadOptions, read_path};
use kifu::opening::{EntryKind, Table};
use kifu::{Color, Game, ReplayOptions, replay};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[path = "common/walk.rs"]
mod walk;
use walk::files;

/// Where an entry was first met: the file, the game, the side and the ply,
/// and the board drawn there.
struct Met {
    /// Whether the game starts from the even position: such a game is
    /// shown before one from a diagram or a handicap.
    even: bool,
    /// Whether the game starts from a handicap: its sides are 下手 and 上手.
    handicap: bool,
    file: String,
    index: usize,
    side: Option<Color>,
    ply: u32,
    svg: String,
    /// The game's start and its moves up to the ply, as USI.
    usi: (String, Vec<String>),
    /// Every move of the game, as USI.
    whole: Vec<String>,
}

fn drawn(game: &Game, ply: u32) -> String {
    let d = diagram::after_plies(game, None, ply as usize);
    svg::write(&d, SvgOptions::default())
}

/// The start of `game` and its first `ply` moves, in USI.
fn usi_of(game: &Game, ply: u32) -> (String, Vec<String>) {
    let start = if game.start == kifu::Position::startpos() {
        "position startpos".to_string()
    } else {
        format!("position sfen {}", game.start.to_sfen())
    };
    let moves = game.main.plies[..ply as usize]
        .iter()
        .map(|p| p.mv.to_usi())
        .collect();
    (start, moves)
}

/// The names kifu gives the USI game `line`.
fn names_of(line: &str) -> Vec<String> {
    let Ok(mut records) = kifu::parse::parse(&format!("{line}\n"), kifu::Format::Usi) else {
        return Vec::new();
    };
    let Ok(g) = replay(records.remove(0), &ReplayOptions::default()) else {
        return Vec::new();
    };
    let o = kifu::opening::classify(&g);
    let mut names = vec![o.game];
    for s in [o.sente, o.gote] {
        names.extend(s.strategy.into_iter().chain(s.castle).map(|f| f.name));
    }
    names
}

/// The fixture of an entry: the shortest cut of its game in which kifu
/// names it (a name can need the opponent's stance, which later moves
/// settle), then that cut less one ply, in which it does not.
fn fixture(name: &str, (start, moves): &(String, Vec<String>), whole: &[String]) -> String {
    let line = |n: usize| {
        let m = &whole[..n];
        if m.is_empty() {
            start.clone()
        } else {
            format!("{start} moves {}", m.join(" "))
        }
    };
    let reached = (0..=whole.len())
        .find(|&n| names_of(&line(n)).iter().any(|x| x == name))
        .unwrap_or(moves.len());
    let before = reached.saturating_sub(1);
    format!(
        "# {name}: named after ply {reached}, and not one ply before\n{}\n{}\n",
        line(reached),
        line(before)
    )
}

/// Note each name `game` is given, where no earlier game was given it.
fn note(met: &mut HashMap<String, Met>, game: &Game, file: &str) {
    let o = kifu::opening::classify(game);
    let even = game.start == kifu::Position::startpos();
    let handicap = game
        .record
        .start
        .preset()
        .is_some_and(|h| h != kifu::Handicap::Hirate);
    let mut first = |name: &str, side: Option<Color>, ply: u32| {
        if met.get(name).is_some_and(|m| m.even || !even) {
            return;
        }
        met.insert(
            name.to_string(),
            Met {
                even,
                handicap,
                file: file.to_string(),
                index: game.record.index,
                side,
                ply,
                svg: drawn(game, ply),
                usi: usi_of(game, ply),
                whole: usi_of(game, game.main.plies.len() as u32).1,
            },
        );
    };
    // Where both sides reach a name, the earlier is where the game does.
    let mut earliest: Vec<(&str, Color, u32)> = Vec::new();
    for (side, s) in [(Color::Sente, &o.sente), (Color::Gote, &o.gote)] {
        for f in s.strategy.iter().chain(&s.castle) {
            match earliest.iter_mut().find(|e| e.0 == f.name) {
                Some(e) if e.2 <= f.ply => {}
                Some(e) => *e = (&f.name, side, f.ply),
                None => earliest.push((&f.name, side, f.ply)),
            }
        }
    }
    for (name, side, ply) in earliest {
        first(name, Some(side), ply);
    }
    // A game type holds from the later of its two strategies.
    let last = [&o.sente, &o.gote]
        .iter()
        .flat_map(|s| s.strategy.iter().map(|f| f.ply))
        .max()
        .unwrap_or(0);
    first(&o.game, None, last);
}

/// The side of `m` as the page names it: 先手 or 後手 (下手 or 上手 in a
/// handicap game), or the game for a game type.
fn side_of(m: &Met) -> String {
    match (m.side, m.handicap) {
        (None, _) => "the game".to_string(),
        (Some(Color::Sente), true) => "下手".to_string(),
        (Some(Color::Gote), true) => "上手".to_string(),
        (Some(c), false) => c.kanji().to_string(),
    }
}

/// The text of the fixture at `path` if it was made by hand (its comment
/// says so): such a fixture is kept as it is.
fn hand_made(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let comment = text.lines().next()?;
    (comment.starts_with('#') && comment.contains("made by hand")).then_some(text)
}

/// Where the first game of the hand-made fixture `text` (shown as `file`)
/// reaches the entry `name`, if kifu names it there.
fn met_by_hand(name: &str, text: &str, file: &str) -> Option<Met> {
    let line = text.lines().find(|l| !l.starts_with('#'))?;
    let mut records = kifu::parse::parse(&format!("{line}\n"), kifu::Format::Usi).ok()?;
    let game = replay(records.remove(0), &ReplayOptions::default()).ok()?;
    let mut met = HashMap::new();
    note(&mut met, &game, file);
    met.remove(name)
}

/// For entry `name` (the `i`th) that no corpus game reaches: the line
/// naming its hand-made fixture in `dir`, if it has one, and the board
/// where that game reaches it (into `svg_dir`).
fn by_hand(name: &str, i: usize, dir: &Path, svg_dir: &Path) -> Result<(), String> {
    let path = dir.join(format!("{i:02}.usi"));
    let Some(text) = hand_made(&path) else {
        return Ok(());
    };
    let shown = path.display().to_string();
    let h = met_by_hand(name, &text, &shown)
        .ok_or_else(|| format!("{shown}: kifu does not name {name}"))?;
    let file = format!("{i:02}.svg");
    std::fs::write(svg_dir.join(&file), &h.svg).map_err(|err| format!("{file}: {err}"))?;
    println!(
        "`{shown}` is a game made by hand that reaches it: {}, first at ply {}.\n\n![{name}](openings/{file})\n",
        side_of(&h),
        h.ply
    );
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let (corpus, svg_dir, fixtures) = match &args[..] {
        [c, s] => (c, s, None),
        [c, s, f] => (c, s, Some(f)),
        _ => {
            eprintln!("usage: openings_page CORPUS_DIR SVG_DIR [FIXTURE_DIR] > section.md");
            return ExitCode::FAILURE;
        }
    };
    let mut paths = Vec::new();
    if let Err(e) = files(corpus, &mut paths) {
        eprintln!("openings_page: {}: {e}", corpus.display());
        return ExitCode::FAILURE;
    }
    let mut met: HashMap<String, Met> = HashMap::new();
    for p in &paths {
        let Ok(input) = read_path(p, &ReadOptions::default()) else {
            continue;
        };
        let shown = p.strip_prefix(corpus).unwrap_or(p).display().to_string();
        for r in input.records {
            if let Ok(game) = replay(r, &ReplayOptions::default()) {
                note(&mut met, &game, &shown);
            }
        }
    }
    for dir in std::iter::once(svg_dir).chain(fixtures) {
        if let Err(e) = std::fs::create_dir_all(dir) {
            eprintln!("openings_page: {}: {e}", dir.display());
            return ExitCode::FAILURE;
        }
    }
    let table = Table::builtin();
    let mut missing = 0;
    for (i, e) in table.entries().iter().enumerate() {
        let kind = match e.kind {
            EntryKind::Castle => "castle",
            EntryKind::Strategy => "strategy",
            EntryKind::Game => "game",
        };
        println!("### {} ({}, {kind}, {})\n", e.name, e.en, e.family);
        let Some(m) = met.get(&e.name) else {
            missing += 1;
            println!("Not met in the corpus's games.\n");
            if let Some(dir) = fixtures
                && let Err(err) = by_hand(&e.name, i, dir, svg_dir)
            {
                eprintln!("openings_page: {err}");
                return ExitCode::FAILURE;
            }
            continue;
        };
        let file = format!("{i:02}.svg");
        if let Err(err) = std::fs::write(svg_dir.join(&file), &m.svg) {
            eprintln!("openings_page: {file}: {err}");
            return ExitCode::FAILURE;
        }
        if let Some(dir) = fixtures {
            let path = dir.join(format!("{i:02}.usi"));
            if hand_made(&path).is_some() {
                eprintln!("openings_page: {}: made by hand, kept", path.display());
            } else if let Err(err) = std::fs::write(&path, fixture(&e.name, &m.usi, &m.whole)) {
                eprintln!("openings_page: {}: {err}", path.display());
                return ExitCode::FAILURE;
            }
        }
        let side = side_of(m);
        let game = if m.index > 0 {
            format!(", game {}", m.index + 1)
        } else {
            String::new()
        };
        println!(
            "`{}`{game}: {side}, first at ply {}.\n\n![{}](openings/{file})\n",
            m.file, m.ply, e.name
        );
    }
    eprintln!(
        "openings_page: {} files; {} of {} entries met",
        paths.len(),
        table.entries().len() - missing,
        table.entries().len()
    );
    ExitCode::SUCCESS
}
