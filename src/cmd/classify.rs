//! `kifu classify`: one line per game naming what was played.

use super::{Event, Item, drive, error_line, read_options, sources};
use crate::ClassifyArgs;
use kifu::opening::{Found, Opening, SideOpening};
use kifu::replay::replay;
use std::io::Write;

/// One game's line (text or JSON), or the error that kept it from one.
struct Line {
    out: String,
    err: String,
}

pub fn run(a: &ClassifyArgs) -> anyhow::Result<u8> {
    if let Some(v) = super::variant::requested_or_sniffed(&a.input)? {
        anyhow::bail!(
            "classify names shogi openings; {} has no table of them",
            v.name()
        );
    }
    let (read_opts, replay_opts) = read_options(&a.input)?;
    let (srcs, walk_errors) = sources(&a.input.paths_or_cwd());
    for e in &walk_errors {
        eprintln!("kifu: {e}");
    }
    let mut unreadable = walk_errors.len();
    let mut stdout = std::io::stdout();
    drive(
        &srcs,
        a.input.jobs,
        &read_opts,
        |name, _, item| classify_item(name, item, &replay_opts, a.json),
        |_, ev| {
            let Event::Item(line) = ev else { return Ok(()) };
            if !line.err.is_empty() {
                unreadable += 1;
                eprint!("kifu: {}", line.err);
            }
            stdout.write_all(line.out.as_bytes())?;
            Ok(())
        },
    )?;
    stdout.flush()?;
    Ok(if unreadable > 0 { 2 } else { 0 })
}

fn classify_item(name: &str, item: Item, opts: &kifu::ReplayOptions, json: bool) -> Line {
    let mut line = Line {
        out: String::new(),
        err: String::new(),
    };
    let (index, record) = match item {
        Item::Warning(w) => {
            eprintln!("kifu: {name}: warning: {w}");
            return line;
        }
        Item::Unreadable(e) => {
            line.err = error_line(name, &e, None);
            return line;
        }
        Item::Game { index, record } => (index, record),
    };
    let game = match record.and_then(|r| replay(r, opts)) {
        Ok(g) => g,
        Err(e) => {
            line.err = error_line(name, &e, Some(index));
            return line;
        }
    };
    let o = kifu::opening::classify(&game);
    if json {
        let v = serde_json::json!({ "source": name, "index": index, "opening": o });
        line.out = v.to_string() + "\n";
    } else {
        let label = if index > 0 || name == "-" {
            format!(" (game {})", index + 1)
        } else {
            String::new()
        };
        line.out = format!("{name}{label}: {}\n", text(&o));
    }
    line
}

/// `四間飛車 vs 居飛車  ▲ 四間飛車 5, 本美濃囲い 15  △ 舟囲い 12`.
fn text(o: &Opening) -> String {
    format!(
        "{}  ▲ {}  △ {}",
        o.game,
        side_text(&o.sente),
        side_text(&o.gote)
    )
}

fn side_text(s: &SideOpening) -> String {
    let item = |f: &Found| format!("{} {}", f.name, f.ply);
    let all: Vec<String> = s.strategy.iter().chain(&s.castle).map(item).collect();
    if all.is_empty() {
        "-".to_string()
    } else {
        all.join(", ")
    }
}
