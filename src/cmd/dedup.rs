//! `kifu dedup`: the games of a collection that are one game, whatever the
//! file, format or encoding; the copy of each to keep; and, with
//! `--unique`, one copy of each game written out.
//!
//! Memory is a fixed key per game ([`kifu::collection::GameKey`], 52
//! bytes, and 12 more here for its place and size), never the game. The
//! inputs are read once; only the games that may hold a truncated copy
//! (their anchors match a shorter game's, see [`Groups::candidates`]) are
//! read a second time for their prefix hashes, and `--unique` reads the
//! inputs once more to write.

use super::progress::Progress;
use super::{Event, Item, Source, drive, error_line, read_options, sources};
use crate::{InputArgs, ToFormat};
use clap::{Args, ValueEnum};
use kifu::collection::{self, GameKey, Group, Groups, KeepPolicy, Relation};
use kifu::replay::replay;
use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::io::Write;
use std::path::PathBuf;

/// Options of `kifu dedup`.
#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  kifu dedup games/                       groups of copies, and the copy to keep
  kifu dedup --json games/ > groups.jsonl  one JSON object per group
  kifu dedup --unique --to csa --out-dir uniq/ games/
                                          write one copy of each game
  kifu dedup --against archive/ new/      which games of new/ archive/ holds
  kifu dedup --position-at 30 games/      games that reach one position at ply 30")]
pub struct DedupArgs {
    #[command(flatten)]
    pub input: InputArgs,
    /// Print one JSON object per group (JSON Lines) instead of text.
    #[arg(long)]
    pub json: bool,
    /// Group the games that reach the same position (board, hands, side to
    /// move) after this many plies, whatever the moves that led there
    /// (transpositions). Games shorter than that are not grouped.
    #[arg(long, value_name = "N", conflicts_with = "final_position")]
    pub position_at: Option<usize>,
    /// Group the games whose last position is the same.
    #[arg(long)]
    pub final_position: bool,
    /// Which copy of a group to keep.
    #[arg(long, value_enum, default_value = "longest")]
    pub keep_policy: Policy,
    /// Write one copy of each game (the kept one of each group, and every
    /// game in no group) with --to, to --out-dir or -o.
    #[arg(long, requires = "to")]
    pub unique: bool,
    /// The format --unique writes.
    #[arg(long, value_enum, ignore_case = true, requires = "unique")]
    pub to: Option<ToFormat>,
    /// Where --unique writes one file per input, as `kifu convert --out-dir`.
    #[arg(long, value_name = "DIR", requires = "unique")]
    pub out_dir: Option<PathBuf>,
    /// Where --unique writes one stream (the line formats, or CSA).
    #[arg(short, long, value_name = "FILE", requires = "unique")]
    pub output: Option<PathBuf>,
    /// Report which games of the inputs are already held in DIR (the same
    /// game, or a truncated copy of one DIR holds); --unique then writes
    /// only the games DIR does not hold.
    #[arg(long, value_name = "DIR")]
    pub against: Option<PathBuf>,
    /// No progress bar and no summary line.
    #[arg(short, long)]
    pub quiet: bool,
}

/// `--keep-policy`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// The longest copy, then the one with the most information (move
    /// times, evaluations, comments, header fields), then the first.
    Longest,
    /// The copy with the most information, then the longest, then the first.
    MostInformation,
    /// The first copy in input order.
    First,
}

impl Policy {
    fn policy(self) -> KeepPolicy {
        match self {
            Policy::Longest => KeepPolicy::Longest,
            Policy::MostInformation => KeepPolicy::MostInformation,
            Policy::First => KeepPolicy::First,
        }
    }
}

/// What the first read gives for one item.
#[derive(Default)]
struct Keyed {
    /// The game's index in its input, its key and information.
    game: Option<(usize, GameKey, u32)>,
    err: String,
    unreadable: usize,
}

/// Where each grouped game came from: its source and index, by game number.
struct Places {
    srcs: Vec<Source>,
    /// Game number → (source, index in it).
    games: Vec<(u32, u32)>,
    /// Sources before this one are `--against`'s.
    held_sources: usize,
}

impl Places {
    fn name(&self, id: u32) -> (String, u32) {
        let (s, i) = self.games[id as usize];
        (self.srcs[s as usize].name(), i)
    }

    fn held(&self, id: u32) -> bool {
        (self.games[id as usize].0 as usize) < self.held_sources
    }
}

/// How a game is keyed: by its line, or by a position on it.
#[derive(Clone, Copy)]
enum Keying {
    Line,
    Position(Option<usize>),
}

fn key_item(item: Item, name: &str, keying: Keying, opts: &kifu::ReplayOptions) -> Keyed {
    let mut k = Keyed::default();
    let (index, record) = match item {
        Item::Warning(w) => {
            k.err = format!("{name}: warning: {w}\n");
            return k;
        }
        Item::Unreadable(e) => {
            k.unreadable = 1;
            k.err = error_line(name, &e, None);
            return k;
        }
        Item::Game {
            index,
            record: Err(e),
        } => {
            k.unreadable = 1;
            k.err = error_line(name, &e, Some(index));
            return k;
        }
        Item::Game {
            index,
            record: Ok(r),
        } => (index, r),
    };
    let information = collection::information(&record);
    match replay(record, opts) {
        Ok(game) => {
            let key = match keying {
                Keying::Line => Some(GameKey::of(&game)),
                Keying::Position(n) => {
                    collection::position_after(&game, n).map(|p| GameKey::of(&game).with_line(p))
                }
            };
            k.game = key.map(|key| (index, key, information));
        }
        Err(e) => {
            k.unreadable = 1;
            k.err = error_line(name, &e, Some(index));
        }
    }
    k
}

/// Run `kifu dedup`.
pub fn run(a: &DedupArgs) -> anyhow::Result<u8> {
    let (read_opts, replay_opts) = read_options(&a.input)?;
    let paths = a.input.paths_or_cwd();
    if a.unique && (paths.is_empty() || paths.iter().any(|p| p.as_os_str() == "-")) {
        anyhow::bail!(
            "--unique reads the inputs twice (to group, then to write): it cannot take stdin; save it to a file"
        );
    }
    let (mut srcs, mut walk_errors) = match &a.against {
        Some(dir) => sources(std::slice::from_ref(dir)),
        None => (Vec::new(), Vec::new()),
    };
    let held_sources = srcs.len();
    let (inputs, errs) = sources(&paths);
    srcs.extend(inputs);
    walk_errors.extend(errs);
    for e in &walk_errors {
        eprintln!("kifu: {e}");
    }
    let keying = match (a.position_at, a.final_position) {
        (Some(n), _) => Keying::Position(Some(n)),
        (None, true) => Keying::Position(None),
        (None, false) => Keying::Line,
    };
    let mut groups = match keying {
        Keying::Line => Groups::default(),
        Keying::Position(_) => Groups::by_position(),
    };
    let mut places = Places {
        srcs: srcs.clone(),
        games: Vec::new(),
        held_sources,
    };
    let mut unreadable = walk_errors.len();
    let mut progress = Progress::new(srcs.len(), !a.quiet);
    let index_of: HashMap<String, u32> = srcs
        .iter()
        .enumerate()
        .map(|(i, s)| (s.name(), i as u32))
        .collect();
    let mut files = 0;
    drive(
        &srcs,
        a.input.jobs,
        &read_opts,
        |name, _, item| key_item(item, name, keying, &replay_opts),
        |src, ev| {
            match ev {
                Event::Begin => {}
                Event::End => {
                    files += 1;
                    progress.update(files, groups.len(), 0);
                }
                Event::Item(k) => {
                    if !k.err.is_empty() {
                        progress.eprint(&k.err);
                    }
                    unreadable += k.unreadable;
                    if let Some((index, key, info)) = k.game {
                        groups.add(key, info);
                        let s = index_of.get(&src.name()).copied().unwrap_or(0);
                        places.games.push((s, index as u32));
                    }
                }
            }
            Ok(())
        },
    )?;
    let games = groups.len();
    containment(&mut groups, &places, a, &read_opts, &replay_opts)?;
    progress.finish();
    let found = groups.finish(a.keep_policy.policy());
    let mut out = std::io::BufWriter::new(std::io::stdout());
    let drop = if a.against.is_some() {
        report_against(&mut out, &found, &places, a)?
    } else {
        report(&mut out, &found, &places, a)?
    };
    out.flush()?;
    if !a.quiet {
        let copies = drop.len();
        eprintln!(
            "kifu: {} {}, {games} {}: {} {}, {copies} to leave out; {unreadable} unreadable",
            srcs.len(),
            super::summary::plural(srcs.len(), "file", "files"),
            super::summary::plural(games, "game", "games"),
            found.len(),
            super::summary::plural(found.len(), "group", "groups"),
        );
    }
    let mut code = if unreadable > 0 { 2 } else { 0 };
    if a.unique {
        let written = write_unique(a, &places, &drop)?;
        code = code.max(written);
    }
    Ok(code)
}

/// The second read: the prefix hashes of the games that may hold a shorter
/// one, from the sources that hold such a game (stdin cannot be read
/// twice: its games are left out of it, with a note).
fn containment(
    groups: &mut Groups,
    places: &Places,
    a: &DedupArgs,
    read_opts: &kifu::input::ReadOptions,
    replay_opts: &kifu::ReplayOptions,
) -> anyhow::Result<()> {
    let wanted: HashMap<(u32, u32), u32> = groups
        .candidates()
        .into_iter()
        .map(|id| (places.games[id as usize], id))
        .collect();
    if wanted.is_empty() {
        return Ok(());
    }
    let mut again: Vec<u32> = wanted.keys().map(|&(s, _)| s).collect();
    again.sort_unstable();
    again.dedup();
    let stdin = again
        .iter()
        .any(|&s| places.srcs[s as usize].path.is_none());
    if stdin && !a.quiet {
        eprintln!(
            "kifu: note: stdin is read once: truncated copies are not looked for among its longer games"
        );
    }
    let srcs: Vec<Source> = again
        .iter()
        .map(|&s| places.srcs[s as usize].clone())
        .filter(|s| s.path.is_some())
        .collect();
    let number: HashMap<String, u32> = again
        .iter()
        .map(|&s| (places.srcs[s as usize].name(), s))
        .collect();
    let work = |name: &str, _: &super::Meta, item: Item| {
        let Item::Game {
            index,
            record: Ok(record),
        } = item
        else {
            return None;
        };
        let s = *number.get(name)?;
        let id = *wanted.get(&(s, index as u32))?;
        let game = replay(record, replay_opts).ok()?;
        Some((id, collection::prefix_hashes(&game)))
    };
    drive(&srcs, a.input.jobs, read_opts, work, |_, ev| {
        if let Event::Item(Some((id, prefixes))) = ev {
            groups.add_prefixes(id, &prefixes);
        }
        Ok(())
    })
}

/// One game of a group, as the JSON output names it.
fn game_json(places: &Places, id: u32, plies: u32) -> serde_json::Value {
    let (source, index) = places.name(id);
    serde_json::json!({"source": source, "index": index, "plies": plies})
}

/// The text or JSON report of the groups; the games to leave out.
fn report(
    out: &mut impl Write,
    found: &[Group],
    places: &Places,
    a: &DedupArgs,
) -> anyhow::Result<HashSet<u32>> {
    let mut drop = HashSet::new();
    for g in found {
        drop.extend(g.games.iter().copied().filter(|&i| i != g.keep));
        if a.json {
            let games: Vec<_> = g
                .games
                .iter()
                .zip(&g.plies)
                .map(|(&i, &p)| game_json(places, i, p))
                .collect();
            let (source, index) = places.name(g.keep);
            let v = serde_json::json!({
                "kind": g.relation.name(),
                "games": games,
                "keep": {"source": source, "index": index},
            });
            writeln!(out, "{v}")?;
        } else {
            out.write_all(group_text(g, places).as_bytes())?;
        }
    }
    Ok(drop)
}

/// How a game is named in the text report: `file` or `file (game N)`.
fn label(places: &Places, id: u32) -> String {
    let (name, index) = places.name(id);
    if index > 0 || name == "-" {
        format!("{name} (game {})", index + 1)
    } else {
        name
    }
}

fn group_text(g: &Group, places: &Places) -> String {
    let mut s = String::new();
    let what = match g.relation {
        Relation::Same => "the same game",
        Relation::Contained => "one game and truncated copies",
        Relation::Position => "the same position",
    };
    let _ = writeln!(s, "{}: {} games, {what}", g.relation.name(), g.games.len());
    for (n, &i) in g.games.iter().enumerate() {
        let mark = if i == g.keep { "keep" } else { "    " };
        let _ = writeln!(s, "  {mark} {} ({} plies)", label(places, i), g.plies[n]);
    }
    s
}

/// The `--against` report: each input game that DIR already holds (the
/// same game, or a truncated copy of one held there), and each that is a
/// longer copy of a held game; the games `--unique` leaves out.
fn report_against(
    out: &mut impl Write,
    found: &[Group],
    places: &Places,
    a: &DedupArgs,
) -> anyhow::Result<HashSet<u32>> {
    let mut drop = HashSet::new();
    for g in found {
        let held: Vec<(u32, u32)> = g
            .games
            .iter()
            .zip(&g.plies)
            .filter(|&(&i, _)| places.held(i))
            .map(|(&i, &p)| (i, p))
            .collect();
        let mut new_ones = Vec::new();
        for (&i, &plies) in g.games.iter().zip(&g.plies) {
            if places.held(i) {
                continue;
            }
            // Every game of a group lies on its longest game's line, so a
            // held game at least as long holds this one.
            let holder = held.iter().find(|&&(_, p)| p >= plies);
            let (relation, other) = match holder {
                Some(&(h, p)) if p == plies => ("same", h),
                Some(&(h, _)) => ("contained", h),
                None if held.is_empty() => {
                    new_ones.push(i);
                    continue;
                }
                None => ("extends", held[0].0),
            };
            if relation == "extends" {
                new_ones.push(i);
            } else {
                drop.insert(i);
            }
            write_held(out, places, i, plies, relation, other, a.json)?;
        }
        // Among the games DIR does not hold, one copy is written.
        if new_ones.len() > 1 {
            let keep = new_ones
                .iter()
                .copied()
                .find(|&i| i == g.keep)
                .unwrap_or(new_ones[0]);
            drop.extend(new_ones.into_iter().filter(|&i| i != keep));
        }
    }
    Ok(drop)
}

fn write_held(
    out: &mut impl Write,
    places: &Places,
    id: u32,
    plies: u32,
    relation: &str,
    held: u32,
    json: bool,
) -> anyhow::Result<()> {
    let (source, index) = places.name(id);
    let (hs, hi) = places.name(held);
    if json {
        let v = serde_json::json!({
            "kind": relation,
            "source": source,
            "index": index,
            "plies": plies,
            "held": {"source": hs, "index": hi},
        });
        writeln!(out, "{v}")?;
    } else {
        let what = match relation {
            "same" => "held",
            "contained" => "held (a truncated copy of)",
            _ => "longer than the held copy",
        };
        writeln!(out, "{}: {what} {}", label(places, id), label(places, held))?;
    }
    Ok(())
}

/// `--unique`: convert every input game but the ones left out, with
/// `kifu convert`'s writer.
fn write_unique(a: &DedupArgs, places: &Places, drop: &HashSet<u32>) -> anyhow::Result<u8> {
    let Some(to) = a.to else { return Ok(0) };
    let dropped: HashSet<(String, u32)> = drop.iter().map(|&i| places.name(i)).collect();
    let held: HashSet<String> = places.srcs[..places.held_sources]
        .iter()
        .map(Source::name)
        .collect();
    let inputs: Vec<PathBuf> = places.srcs[places.held_sources..]
        .iter()
        .map(|s| s.path.clone().unwrap_or_else(|| PathBuf::from("-")))
        .collect();
    let convert = super::convert::args_for(
        &a.input,
        inputs,
        to,
        a.output.clone(),
        a.out_dir.clone(),
        a.quiet,
    );
    let keep = |name: &str, game: &kifu::Game| {
        !held.contains(name) && !dropped.contains(&(name.to_string(), game.record.index as u32))
    };
    super::convert::run_kept(&convert, &keep)
}
