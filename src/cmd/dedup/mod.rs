//! `kifu dedup`: the games of a collection that are one game, whatever the
//! file, format or encoding; the copy of each to keep; and, with
//! `--unique`, one copy of each game written out.
//!
//! Memory is a fixed key per game ([`kifu::collection::GameKey`], 48
//! bytes, and 16 more here for its place and size: 64), never the game. The
//! inputs are read once; only the games that may hold a truncated copy
//! (their anchors match a shorter game's, see [`Groups::candidates`]) are
//! read a second time for their prefix hashes (from a checkpoint, for a
//! multi-game CSA file: [`again`]), and `--unique` reads the inputs once
//! more to write.

mod again;
mod groups;
mod keys;

use super::progress::{Counted, Progress, Tally};
use super::{Event, Item, Source, drive, error_line, read_options, sources};
use crate::{InputArgs, ToFormat};
use clap::{Args, ValueEnum};
use kifu::collection::{self, GameKey, Groups, KeepPolicy};
use kifu::replay::replay;
use std::collections::{HashMap, HashSet};
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
  kifu dedup --position-at 30 games/      games that reach one position at ply 30
  kifu dedup --save-keys part1.keys shard1/ (on each machine), then
  kifu dedup --keys part*.keys            group the whole collection")]
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
    #[arg(long, value_parser = crate::to_format_names(), ignore_case = true, requires = "unique")]
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
    /// Write what the read of these inputs gave (each game's place and
    /// key, and the counts) to FILE instead of grouping: one shard of a
    /// collection split over machines (see docs/scale.md).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["keys", "unique", "against", "json", "position_at", "final_position"])]
    pub save_keys: Option<PathBuf>,
    /// Group the games of the shards whose --save-keys files these are
    /// (the PATH arguments), as one run over all their inputs would; the
    /// games that may hold a shorter one are read again from their
    /// sources, which must be readable from here.
    #[arg(long, conflicts_with_all = ["against", "position_at", "final_position"])]
    pub keys: bool,
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
    /// Where the game starts in the decoded text, for a multi-game CSA
    /// input (see [`again::Checkpoints`]).
    offset: Option<u64>,
    /// Whether a game was replayed, and whether it has a foul (its main
    /// line or a variation, as `check` counts them).
    read: bool,
    foul: bool,
    err: String,
    unreadable: usize,
}

impl Counted for Keyed {
    fn counts(&self) -> (&str, usize, usize, usize) {
        (
            &self.err,
            self.unreadable,
            usize::from(self.read),
            usize::from(self.foul),
        )
    }
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

fn key_item(
    item: Item,
    name: &str,
    csa: bool,
    keying: Keying,
    opts: &kifu::ReplayOptions,
) -> Keyed {
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
    k.offset = csa.then_some(record.span.offset as u64);
    match replay(record, opts) {
        Ok(game) => {
            k.read = true;
            k.foul = !game.main.verdict.is_legal()
                || game.variations.iter().any(|v| !v.line.verdict.is_legal());
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

/// What the first read of the inputs gave.
struct FirstRead {
    groups: Groups,
    places: Places,
    /// Where some games of each multi-game CSA input start.
    checkpoints: again::Checkpoints,
    /// Inputs read (all the shards', for `--keys`).
    files: usize,
    /// Games read (a game shorter than `--position-at` is read, not keyed).
    games: usize,
    fouls: usize,
    unreadable: usize,
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
    let mut progress;
    let mut r = if a.keys {
        progress = Progress::new(0, false);
        keys::load(&paths)?
    } else {
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
        let places = Places {
            srcs,
            games: Vec::new(),
            held_sources,
        };
        progress = Progress::new(places.srcs.len(), !a.quiet);
        let mut r = first_read(a, places, &read_opts, &replay_opts, &mut progress)?;
        r.unreadable += walk_errors.len();
        r.files += walk_errors.len();
        r
    };
    if let Some(path) = &a.save_keys {
        progress.finish();
        keys::save(&r, path)?;
        if !a.quiet {
            eprintln!(
                "kifu: {} {}, {} keyed; {} unreadable: keys written to {}",
                r.files,
                super::summary::plural(r.files, "file", "files"),
                r.groups.len(),
                r.unreadable,
                path.display()
            );
        }
        return Ok(if r.unreadable > 0 { 2 } else { 0 });
    }
    containment(&mut r, a, &read_opts, &replay_opts)?;
    progress.finish();
    let FirstRead {
        groups,
        places,
        files,
        games,
        fouls,
        unreadable,
        ..
    } = r;
    let found = groups.finish(a.keep_policy.policy());
    let mut out = std::io::BufWriter::new(std::io::stdout());
    let drop = groups::report(&mut out, &found, &places, a)?;
    out.flush()?;
    if !a.quiet {
        eprintln!(
            "kifu: {} ({fouls} with fouls): {} {}, {} to leave out; {unreadable} unreadable",
            super::summary::files_and_games(files, games),
            found.len(),
            super::summary::plural(found.len(), "group", "groups"),
            drop.len(),
        );
    }
    let mut code = if unreadable > 0 { 2 } else { 0 };
    if a.unique {
        let written = write_unique(a, &places, &drop)?;
        code = code.max(written);
    }
    Ok(code)
}

/// Read every input once, keying each game.
fn first_read(
    a: &DedupArgs,
    mut places: Places,
    read_opts: &kifu::input::ReadOptions,
    replay_opts: &kifu::ReplayOptions,
    progress: &mut Progress,
) -> anyhow::Result<FirstRead> {
    let keying = match (a.position_at, a.final_position) {
        (Some(n), _) => Keying::Position(Some(n)),
        (None, true) => Keying::Position(None),
        (None, false) => Keying::Line,
    };
    let mut groups = match keying {
        Keying::Line => Groups::default(),
        Keying::Position(_) => Groups::by_position(),
    };
    let index_of: HashMap<String, u32> = places
        .srcs
        .iter()
        .enumerate()
        .map(|(i, s)| (s.name(), i as u32))
        .collect();
    let mut tally = Tally::new(progress, 0);
    let mut checkpoints = again::Checkpoints::default();
    drive(
        &places.srcs.clone(),
        a.input.jobs,
        read_opts,
        |name, meta, item| {
            key_item(
                item,
                name,
                meta.format == kifu::Format::Csa,
                keying,
                replay_opts,
            )
        },
        |src, ev| {
            if let Some(k) = tally.event(ev)
                && let Some((index, key, info)) = k.game
            {
                groups.add(key, info);
                let s = index_of.get(&src.name()).copied().unwrap_or(0);
                places.games.push((s, index as u32));
                if let Some(offset) = k.offset {
                    checkpoints.note(s, index as u32, offset);
                }
            }
            Ok(())
        },
    )?;
    Ok(FirstRead {
        groups,
        checkpoints,
        files: places.srcs.len(),
        places,
        games: tally.games,
        fouls: tally.fouls,
        unreadable: tally.unreadable,
    })
}

/// The second read: the prefix hashes of the games that may hold a shorter
/// one, from the sources that hold such a game (stdin cannot be read
/// twice: its games are left out of it, with a note).
fn containment(
    r: &mut FirstRead,
    a: &DedupArgs,
    read_opts: &kifu::input::ReadOptions,
    replay_opts: &kifu::ReplayOptions,
) -> anyhow::Result<()> {
    let (groups, places) = (&mut r.groups, &r.places);
    let mut wanted: HashMap<(u32, u32), u32> = groups
        .candidates()
        .into_iter()
        .map(|id| (places.games[id as usize], id))
        .collect();
    // Games of a multi-game CSA file are read from the nearest checkpoint,
    // not with the whole file again; those it cannot place are left here.
    let jobs = a.input.jobs;
    again::from_checkpoints(
        &r.checkpoints,
        places,
        groups,
        &mut wanted,
        replay_opts,
        jobs,
    );
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
