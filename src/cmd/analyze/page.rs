//! `kifu analyze --report FILE.html`: the check report's page for the games
//! as analysed: each game read again, given the engine's answers as its
//! output was, then drawn (its evaluation graph and worst-move cards, and
//! its fouls and findings as `check --report` shows them).

use super::fill::Fill;
use crate::InputArgs;
use crate::cmd::convert::Amend;
use crate::cmd::html_report::{self, Part, Report};
use crate::cmd::summary::{Summary, count_fouls};
use crate::cmd::{Event, Item, drive, read_options, sources};
use kifu::judge::Thresholds;
use std::path::Path;

/// What one item gives: its part of the page and its counts.
struct Drawn {
    part: Part,
    plies: usize,
    legal: Option<bool>,
    fouls: std::collections::BTreeMap<&'static str, usize>,
}

/// Write the page for every game of `input` to `path`.
pub fn write(input: &InputArgs, fill: &Fill, t: &Thresholds, path: &Path) -> anyhow::Result<()> {
    let (read_opts, replay_opts) = read_options(input)?;
    let (srcs, walk_errors) = sources(&input.paths_or_cwd());
    let mut page = Report::default();
    let mut sum = Summary {
        files: srcs.len() + walk_errors.len(),
        unreadable: walk_errors.len(),
        ..Summary::default()
    };
    for e in &walk_errors {
        page.walk_error(e);
    }
    let work = |name: &str, _: &crate::cmd::Meta, item: Item| -> Option<Drawn> {
        let (index, record) = match item {
            Item::Warning(_) => return None,
            Item::Unreadable(e) => {
                return Some(unreadable(html_report::unreadable(name, &e, None)));
            }
            Item::Game { index, record } => (index, record),
        };
        let game = record.and_then(|r| kifu::replay(r, &replay_opts));
        let mut game = match game {
            Ok(g) => g,
            Err(e) => return Some(unreadable(html_report::unreadable(name, &e, Some(index)))),
        };
        fill.game(&mut game);
        let mut fouls = Default::default();
        count_fouls(&game, &mut fouls);
        let legal = game.main.verdict.is_legal()
            && game.variations.iter().all(|v| v.line.verdict.is_legal());
        Some(Drawn {
            part: html_report::game_part(name, &game, t),
            plies: game.main.plies.len(),
            legal: Some(legal),
            fouls,
        })
    };
    drive(&srcs, input.jobs, &read_opts, work, |src, ev| {
        let Event::Item(Some(d)) = ev else {
            return Ok(());
        };
        match d.legal {
            Some(legal) => {
                sum.games += 1;
                sum.plies += d.plies;
                if legal {
                    sum.legal += 1;
                } else {
                    sum.fouls += 1;
                }
                for (k, v) in d.fouls {
                    *sum.fouls_by_rule.entry(k).or_default() += v;
                }
            }
            None => sum.unreadable += 1,
        }
        page.add(&src.name(), d.part);
        Ok(())
    })?;
    page.write(path, &sum)
}

fn unreadable(part: Part) -> Drawn {
    Drawn {
        part,
        plies: 0,
        legal: None,
        fouls: Default::default(),
    }
}
