//! `kifu select --split`: the games kept, in files of N games or one folder
//! a player, event or year, written with `kifu convert`'s emitters and the
//! run's output claims (atomic files, never one output over another).

use super::super::convert::item::{csa_head, emit, one_game_per_file};
use super::super::convert::names::Plan;
use super::super::output::{Existing, Opened, OutFile, Outputs};
use super::super::progress::{Kept, Progress, Tally};
use super::super::{Item, Source, drive, read_options, sources};
use super::SelectArgs;
use crate::ToFormat;
use kifu::collection::{fold, start_date};
use kifu::record::HeaderKey;
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// How `--split` parts the games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Split {
    /// Files of this many games: `DIR/part-0001.EXT`, ….
    Every(usize),
    /// One folder a player, named as the record writes the name.
    Player,
    /// One folder an event.
    Event,
    /// One folder a year of the start date.
    Year,
    /// One folder a 戦型, as `kifu classify` names it.
    Opening,
}

impl Split {
    /// `N`, `player`, `event`, `year` or `opening`.
    pub fn parse(s: &str) -> Result<Split, String> {
        match s {
            "player" => Ok(Split::Player),
            "event" => Ok(Split::Event),
            "year" => Ok(Split::Year),
            "opening" => Ok(Split::Opening),
            n => match n.parse::<usize>() {
                Ok(n) if n > 0 => Ok(Split::Every(n)),
                _ => Err(format!(
                    "`{s}`: --split takes N (games a file, from 1), player, event, year or opening"
                )),
            },
        }
    }

    /// The folders a game goes to (none for `Every`).
    fn keys(&self, game: &kifu::Game) -> Vec<String> {
        let r = &game.record;
        let named = |keys: &[HeaderKey]| {
            r.header_get(keys)
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .map(folder_name)
        };
        let unknown = || vec!["unknown".to_string()];
        match self {
            Split::Every(_) => Vec::new(),
            Split::Player => {
                let mut v: Vec<String> = [named(&[HeaderKey::Sente]), named(&[HeaderKey::Gote])]
                    .into_iter()
                    .flatten()
                    .collect();
                v.dedup_by(|a, b| fold(a) == fold(b));
                if v.is_empty() { unknown() } else { v }
            }
            Split::Event => {
                named(&[HeaderKey::Event, HeaderKey::Title]).map_or_else(unknown, |e| vec![e])
            }
            Split::Year => start_date(r).map_or_else(unknown, |d| vec![(d / 10000).to_string()]),
            Split::Opening => vec![folder_name(&kifu::opening::classify(game).game)],
        }
    }
}

/// A name as one folder: no separators, no leading dot, no control
/// characters, at most 100 characters.
fn folder_name(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if matches!(c, '/' | '\\' | ':' | '\0') || c.is_control() {
                '_'
            } else {
                c
            }
        })
        .take(100)
        .collect();
    match s.strip_prefix('.') {
        Some(rest) => format!("_{rest}"),
        None => s,
    }
}

/// A kept game, emitted: its folders, its place in its input, its bytes.
struct Part {
    keys: Vec<String>,
    index: usize,
    bytes: Vec<u8>,
}

/// An output file of several games being written, and how many it holds.
struct Open {
    file: Option<OutFile>,
    games: usize,
}

/// The run's outputs.
struct Parts<'a> {
    a: &'a SelectArgs,
    to: ToFormat,
    split: &'a Split,
    dir: PathBuf,
    outputs: Outputs,
    head: String,
    open: HashMap<PathBuf, Open>,
    /// The `--split N` file being filled, and its number.
    every: (usize, Option<PathBuf>),
    written: usize,
    not_written: usize,
    /// A folded name ([`fold`]) → the folder of its first spelling, so that
    /// `山田 太郎` and `山田太郎` share one.
    folders: HashMap<String, String>,
}

impl Parts<'_> {
    fn take(&mut self, src: &Source, mut p: Part) -> anyhow::Result<()> {
        for k in &mut p.keys {
            *k = self
                .folders
                .entry(fold(k))
                .or_insert_with(|| k.clone())
                .clone();
        }
        p.keys.dedup();
        if one_game_per_file(self.to) {
            for key in &p.keys {
                let plan = Plan::Dir(self.dir.join(key));
                let path = plan.game_target(src, self.to, false, p.index);
                if let Some(mut f) = match path {
                    Some(path) => self.open_file(&path, src)?,
                    None => None,
                } {
                    f.write_all(&p.bytes)?;
                    f.commit()?;
                }
            }
            return Ok(());
        }
        let ext = self.to.extension();
        let split = self.split;
        let paths: Vec<PathBuf> = match split {
            Split::Every(n) => {
                let n = *n;
                if self.every.0.is_multiple_of(n) {
                    if let Some(done) = self.every.1.take() {
                        self.close(&done)?;
                    }
                    let name = format!("part-{:04}.{ext}", self.every.0 / n + 1);
                    self.every.1 = Some(self.dir.join(name));
                }
                self.every.0 += 1;
                self.every.1.iter().cloned().collect()
            }
            _ => p
                .keys
                .iter()
                .map(|k| self.dir.join(k).join(format!("games.{ext}")))
                .collect(),
        };
        for path in paths {
            self.append(&path, src, &p.bytes)?;
        }
        Ok(())
    }

    fn open_file(&mut self, path: &Path, src: &Source) -> anyhow::Result<Option<OutFile>> {
        Ok(match self.outputs.open(path, &src.name())? {
            Opened::File(f) => {
                self.written += 1;
                Some(f)
            }
            Opened::Skipped => None,
            Opened::Refused(why) => {
                eprintln!("kifu: {why}");
                self.not_written += 1;
                None
            }
        })
    }

    fn append(&mut self, path: &Path, src: &Source, bytes: &[u8]) -> anyhow::Result<()> {
        if !self.open.contains_key(path) {
            let file = self.open_file(path, src)?;
            self.open
                .insert(path.to_path_buf(), Open { file, games: 0 });
        }
        let Some(o) = self.open.get_mut(path) else {
            return Ok(());
        };
        let Some(f) = o.file.as_mut() else {
            return Ok(());
        };
        if self.to == ToFormat::Csa {
            f.write_all(if o.games == 0 {
                self.head.as_bytes()
            } else {
                b"/\n"
            })?;
        }
        o.games += 1;
        f.write_all(bytes)?;
        Ok(())
    }

    fn close(&mut self, path: &Path) -> anyhow::Result<()> {
        if let Some(Open { file: Some(f), .. }) = self.open.remove(path) {
            f.commit()?;
        }
        Ok(())
    }

    fn finish(&mut self) -> anyhow::Result<()> {
        let mut paths: Vec<PathBuf> = self.open.keys().cloned().collect();
        paths.sort();
        for p in paths {
            self.close(&p)?;
        }
        Ok(())
    }
}

fn emit_item(
    name: &str,
    meta: &super::super::Meta,
    item: Item,
    convert: &crate::ConvertArgs,
    split: &Split,
    keep: &(dyn Fn(&kifu::Game) -> bool + Sync),
    opts: &kifu::ReplayOptions,
) -> Kept<Part> {
    let (index, game) = match super::super::replayed_game(name, item, opts) {
        Ok(g) => g,
        Err((err, unreadable)) => return Kept::failed(err, unreadable),
    };
    Kept::read(keep(&game).then(|| Part {
        keys: split.keys(&game),
        index,
        bytes: emit(convert, name, meta, &game).0,
    }))
}

/// Run `kifu select --split`.
pub fn run(
    a: &SelectArgs,
    to: ToFormat,
    split: &Split,
    keep: &(dyn Fn(&kifu::Game) -> bool + Sync),
) -> anyhow::Result<u8> {
    if matches!(split, Split::Every(_)) && one_game_per_file(to) {
        anyhow::bail!(
            "--split N needs a format of several games a file (csa, usi, sfen, json, hcpe, psv): --to {} holds one",
            to.extension()
        );
    }
    let Some(dir) = a.out_dir.clone() else {
        anyhow::bail!("--split needs --out-dir DIR");
    };
    let (read_opts, replay_opts) = read_options(&a.input)?;
    let (srcs, walk_errors) = sources(&a.input.paths_or_cwd());
    for e in &walk_errors {
        eprintln!("kifu: {e}");
    }
    let convert = super::super::convert::args_for(&a.input, Vec::new(), to, None, None, true);
    let inputs = srcs
        .iter()
        .filter_map(|s| Some((s.path.as_deref()?, s.name())));
    let mut parts = Parts {
        a,
        to,
        split,
        dir,
        outputs: Outputs::new(Existing::Refuse, inputs),
        head: csa_head(&convert),
        open: HashMap::new(),
        every: (0, None),
        written: 0,
        not_written: 0,
        folders: HashMap::new(),
    };
    let mut progress = Progress::new(srcs.len(), !a.quiet);
    let mut tally = Tally::new(&mut progress, walk_errors.len());
    let mut kept = 0;
    drive(
        &srcs,
        a.input.jobs,
        &read_opts,
        |name, meta, item| emit_item(name, meta, item, &convert, split, keep, &replay_opts),
        |src, ev| {
            if let Some(p) = tally.event(ev).and_then(|e| e.kept) {
                kept += 1;
                parts.take(src, p)?;
            }
            Ok(())
        },
    )?;
    parts.finish()?;
    let (files, games, unreadable) = (tally.files, tally.games, tally.unreadable);
    progress.finish();
    if !parts.a.quiet {
        eprintln!(
            "kifu: {}: {kept} selected, written to {} {}; {unreadable} unreadable; {} not written",
            super::super::summary::files_and_games(files, games),
            parts.written,
            super::super::summary::plural(parts.written, "file", "files"),
            parts.not_written,
        );
    }
    Ok(if unreadable > 0 || parts.not_written > 0 {
        2
    } else {
        0
    })
}
