//! No silent loss: every readable corpus game, written in every format kifu
//! writes and read back, differs from the original only in what the writer
//! named in a warning. The warning counts per writer are written to
//! `target/tmp/no_loss_report.md` (copied into `docs/reliability.md`).

use crate::common::corpus_dir;
use kifu::emit::Warning;
use kifu::emit::csa::CsaOptions;
use kifu::emit::kif::KifOptions;
use kifu::input::{ReadOptions, read_path};
use kifu::record::{Format, Line};
use kifu::replay::Game;
use kifu::{ReplayOptions, parse, replay};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// What a round trip is compared on, each with the warning codes that
/// account for a difference in it.
const ASPECTS: [(&str, &[&str]); 11] = [
    ("start", &["move-number-dropped"]),
    (
        "moves",
        &[
            "moves-omitted",
            "moves-after-foul",
            "moves-after-foul-commented",
            "moves-after-end-commented",
            "moves-not-replayed-commented",
            "foul-move-commented",
        ],
    ),
    (
        "comments",
        &[
            "comments-dropped",
            "moves-after-foul",
            "moves-after-foul-commented",
            "moves-after-end-commented",
            "moves-not-replayed-commented",
            "foul-move-commented",
            "ending-replaced",
            "ending-changed",
            "ending-dropped",
            "evaluations-dropped",
            "bookmarks-dropped",
            "notes-dropped",
            "unencodable-char",
        ],
    ),
    (
        "times",
        &[
            "times-dropped",
            "subsecond-time",
            "moves-omitted",
            "moves-after-foul",
            "moves-after-foul-commented",
            "moves-after-end-commented",
            "moves-not-replayed-commented",
            "foul-move-commented",
        ],
    ),
    ("bookmarks", &["bookmarks-dropped", "moves-omitted"]),
    (
        "evaluations",
        &[
            "evaluations-dropped",
            "moves-omitted",
            "moves-after-foul",
            "moves-after-foul-commented",
            "moves-after-end-commented",
            "moves-not-replayed-commented",
        ],
    ),
    (
        "variations",
        &["variations-dropped", "variation-skipped", "deep-nesting"],
    ),
    // What the variations hold: a dropped or skipped variation takes its
    // comments and times with it.
    (
        "variation comments",
        &[
            "comments-dropped",
            "variations-dropped",
            "variation-skipped",
            "deep-nesting",
            "moves-not-replayed-commented",
            "unencodable-char",
        ],
    ),
    (
        "variation times",
        &[
            "times-dropped",
            "subsecond-time",
            "variations-dropped",
            "variation-skipped",
            "deep-nesting",
        ],
    ),
    (
        "header",
        &[
            "header-dropped",
            "header-duplicate",
            "header-as-comment",
            "unencodable-char",
        ],
    ),
    (
        "ending",
        &[
            "ending-changed",
            "ending-dropped",
            "ending-replaced",
            "ending-not-in-version",
            "max-moves",
            "moves-omitted",
            "moves-after-foul",
            "moves-after-foul-commented",
            "foul-move-commented",
        ],
    ),
];

/// The writers under test.
const WRITERS: [(&str, Format); 5] = [
    ("kif", Format::Kif),
    ("ki2", Format::Ki2),
    ("csa", Format::Csa),
    ("jkf", Format::Jkf),
    ("usi", Format::Usi),
];

fn write(game: &Game, to: Format) -> (String, Vec<Warning>) {
    match to {
        Format::Kif => kifu::emit::kif::write_with(game, &KifOptions::utf8()),
        Format::Ki2 => kifu::emit::ki2::write(game),
        Format::Csa => kifu::emit::csa::write(game, &CsaOptions::default()),
        Format::Jkf => kifu::emit::jkf::write(game),
        Format::Usi => kifu::emit::usi::write(game),
        _ => unreachable!(),
    }
}

/// Every comment of a line (moves and ending), in order, trimmed.
fn comments(line: &Line, out: &mut Vec<String>) {
    for m in &line.moves {
        out.extend(m.comments().iter().map(|c| c.trim().to_string()));
    }
    if let Some(e) = &line.ending {
        out.extend(e.comments.iter().map(|c| c.trim().to_string()));
    }
}

/// One aspect of a game, as comparable text.
fn aspect(g: &Game, name: &str) -> String {
    let r = &g.record;
    let n = g.main.plies.len();
    match name {
        "moves" => {
            let mv: Vec<String> = g.main.plies.iter().map(|p| p.mv.to_usi()).collect();
            format!("{} {:?}", mv.join(" "), g.main.verdict.is_legal())
        }
        "comments" => {
            let mut c: Vec<String> = r.comments.iter().map(|c| c.trim().to_string()).collect();
            comments(&r.main, &mut c);
            c.retain(|c| !c.is_empty());
            c.sort();
            c.join("\n")
        }
        "times" => {
            // Times of the legal plies; a writer may add 0:00 where none was.
            let t: Vec<String> = r.main.moves[..n.min(r.main.moves.len())]
                .iter()
                .map(|m| match m.time.and_then(|t| t.spent_ms) {
                    Some(ms) if ms > 0 => (ms / 1000).to_string(),
                    _ => "-".into(),
                })
                .collect();
            t.join(" ")
        }
        "variation comments" | "variation times" => {
            // Every variation's line, at any depth, as text; sorted, since
            // writers may order sibling variations differently.
            // `variations_at` past the moves reaches the alternatives to the ending.
            fn kids(l: &Line) -> impl Iterator<Item = &Line> {
                (0..=l.moves.len()).flat_map(move |i| l.variations_at(i))
            }
            let mut lines: Vec<&Line> = kids(&r.main).collect();
            let mut all = Vec::new();
            while let Some(line) = lines.pop() {
                let text: Vec<String> = if name == "variation times" {
                    line.moves
                        .iter()
                        .map(|m| match m.time.and_then(|t| t.spent_ms) {
                            Some(ms) if ms > 0 => (ms / 1000).to_string(),
                            _ => "-".into(),
                        })
                        .collect()
                } else {
                    let mut c = Vec::new();
                    for m in &line.moves {
                        c.extend(m.comments().iter().map(|c| c.trim().to_string()));
                    }
                    if let Some(e) = &line.ending {
                        c.extend(e.comments.iter().map(|c| c.trim().to_string()));
                    }
                    c.retain(|c| !c.is_empty());
                    c
                };
                all.push(text.join(" | "));
                lines.extend(kids(line));
            }
            all.sort();
            all.join("\n")
        }
        "bookmarks" => {
            let b: Vec<&String> = r.main.moves.iter().flat_map(|m| m.bookmarks()).collect();
            format!("{:?} {b:?}", r.bookmarks)
        }
        "evaluations" => {
            let e: Vec<_> = r.main.moves.iter().map(|m| m.eval()).collect();
            format!("{e:?}")
        }
        "variations" => {
            let v: Vec<String> = g
                .variations
                .iter()
                .map(|v| {
                    let p: Vec<String> = v.line.plies.iter().map(|p| p.mv.to_usi()).collect();
                    format!("{}:{}", v.line.first_ply, p.join(" "))
                })
                .collect();
            v.join("\n")
        }
        "header" => {
            // `Version` and `Encoding` describe the source file, not the game
            // (a writer states its own); 手合割 is compared as the start.
            let mut v: Vec<String> = r
                .header
                .iter()
                .filter(|h| !matches!(h.key.as_str(), "Version" | "Encoding" | "手合割"))
                .map(|h| h.value.trim().to_string())
                .filter(|v| !v.is_empty())
                .collect();
            v.sort();
            v.dedup();
            v.join("\n")
        }
        "ending" => format!("{:?} {}", g.main.result.winner, g.main.result.reason),
        "start" => g.start.to_sfen(),
        _ => unreachable!(),
    }
}

/// Whether the aspect of `back` holds everything of `orig` (writers may add
/// header fields, e.g. a KIF 手合割 line, but never lose one).
fn same(orig: &Game, back: &Game, name: &str) -> bool {
    let (a, b) = (aspect(orig, name), aspect(back, name));
    if name == "header" {
        return a.lines().all(|v| b.lines().any(|w| w == v));
    }
    a == b
}

#[derive(Default)]
struct Tally {
    games: usize,
    warnings: BTreeMap<&'static str, usize>,
    unnamed: Vec<String>,
}

fn files(dir: &Path) -> Vec<PathBuf> {
    crate::common::files_with_ext(dir, &kifu::input::EXTENSIONS)
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn every_difference_after_a_round_trip_is_named_in_a_warning() {
    let dir = corpus_dir("every_difference_after_a_round_trip_is_named_in_a_warning");
    let games: Vec<(String, Game)> = files(&dir)
        .par_iter()
        .filter_map(|p| read_path(p, &ReadOptions::default()).ok().map(|i| (p, i)))
        .flat_map_iter(|(p, input)| {
            let name = p.strip_prefix(&dir).unwrap_or(p).display().to_string();
            input
                .records
                .into_iter()
                .filter_map(|r| replay(r, &ReplayOptions::default()).ok())
                .enumerate()
                .map(move |(i, g)| (format!("{name}#{i}"), g))
        })
        .collect();
    assert!(!games.is_empty());
    let mut report =
        String::from("| writer | games | warning | count |\n| --- | --- | --- | --- |\n");
    let mut all_unnamed = Vec::new();
    for (wname, to) in WRITERS {
        let tallies: Vec<Tally> = games
            .par_iter()
            .map(|(name, g)| {
                let mut t = Tally {
                    games: 1,
                    ..Tally::default()
                };
                let (text, warnings) = write(g, to);
                for w in &warnings {
                    *t.warnings.entry(w.code.code()).or_default() += 1;
                }
                let named = |codes: &[&str]| warnings.iter().any(|w| codes.contains(&w.code.code()));
                let back = parse::parse(&text, to)
                    .ok()
                    .and_then(|r| r.into_iter().next())
                    .and_then(|r| replay(r, &ReplayOptions::default()).ok());
                let Some(back) = back else {
                    if !named(&["deep-nesting"]) {
                        t.unnamed.push(format!("{wname}: {name}: output does not read back"));
                    }
                    return t;
                };
                for (aspect_name, codes) in ASPECTS {
                    if !same(g, &back, aspect_name) && !named(codes) {
                        t.unnamed.push(format!(
                            "{wname}: {name}: {aspect_name} differ with no warning\n  was: {}\n  now: {}",
                            short(&aspect(g, aspect_name)),
                            short(&aspect(&back, aspect_name))
                        ));
                    }
                }
                t
            })
            .collect();
        let mut total = Tally::default();
        for t in tallies {
            total.games += t.games;
            for (k, v) in t.warnings {
                *total.warnings.entry(k).or_default() += v;
            }
            total.unnamed.extend(t.unnamed);
        }
        if total.warnings.is_empty() {
            report.push_str(&format!("| {wname} | {} | (none) | 0 |\n", total.games));
        }
        for (code, n) in &total.warnings {
            report.push_str(&format!("| {wname} | {} | `{code}` | {n} |\n", total.games));
        }
        all_unnamed.extend(total.unnamed);
    }
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("no_loss_report.md");
    std::fs::write(&out, &report).unwrap();
    eprintln!("{report}\n(written to {})", out.display());
    let mut by_kind: BTreeMap<String, usize> = BTreeMap::new();
    for u in &all_unnamed {
        let mut parts = u.splitn(3, ": ");
        let (w, _, rest) = (parts.next(), parts.next(), parts.next().unwrap_or(""));
        let what = rest.split(" differ").next().unwrap_or(rest);
        *by_kind
            .entry(format!("{} {what}", w.unwrap_or("")))
            .or_default() += 1;
    }
    for u in &all_unnamed {
        eprintln!("{u}");
    }
    assert!(
        all_unnamed.is_empty(),
        "{} silent differences:\n{}",
        all_unnamed.len(),
        all_unnamed[..all_unnamed.len().min(40)].join("\n")
    );
}

fn short(s: &str) -> String {
    let s = s.replace('\n', " | ");
    if s.chars().count() > 300 {
        format!("{}…", s.chars().take(300).collect::<String>())
    } else {
        s
    }
}
