//! `kifu show` on a variant record: the same board diagram (where the
//! variant has a KIF form) or SVG board as for shogi, drawn from the
//! variant's own board size and piece table.

use super::variant::{read, sniff_file, variant_named};
use crate::{ShowArgs, ShowFormat};
use anyhow::{Context, bail};
use kifu::Color;
use kifu::emit::bod::{self, BodOptions, Sheet};
use kifu::emit::diagram::{Cell, Mark, MarkKind};
use kifu::emit::svg::{self, Drawing, Drawn, SvgOptions};
use kifu::emit::variant::{self as write, kif_writable};
use kifu::parse::usi::variant_move;
use kifu::variant::{Board, VMove, Variant, VariantGame};
use std::io::{IsTerminal, Write};

const LABELS: [&str; 2] = ["先手", "後手"];

/// The variant to show the file as: the one `--variant` names, or the one
/// the file sniffs as (as `check` does); `None` for a shogi record.
pub fn wanted(a: &ShowArgs) -> anyhow::Result<Option<Variant>> {
    if let Some(name) = &a.variant {
        return variant_named(name).map(Some);
    }
    if a.file.as_os_str() == "-" {
        return Ok(None);
    }
    match sniff_file(&a.file) {
        Some(Ok(v)) => Ok(Some(v)),
        Some(Err(why)) => bail!("{}: {why}", a.file.display()),
        None => Ok(None),
    }
}

pub fn run(a: &ShowArgs, v: Variant) -> anyhow::Result<u8> {
    if a.from.is_some() || a.encoding.is_some() {
        bail!(
            "{}: --from and --encoding are for shogi records; a {v} record is read as KIF or USI by its content",
            a.file.display()
        );
    }
    let name = a.file.display().to_string();
    let path = (a.file.as_os_str() != "-").then_some(a.file.as_path());
    if a.to == ShowFormat::Bod && !kif_writable(v) {
        bail!("{name}: kifu writes no KIF board diagram of {v}; use --to svg");
    }
    let (_, games) = read(&name, path, Some(v)).map_err(|e| anyhow::anyhow!(e))?;
    let index = a.game.checked_sub(1).context("--game counts from 1")?;
    let total = games.len();
    let Some(g) = games.get(index) else {
        bail!("{name}: --game {}: the input holds {total} game(s)", a.game);
    };
    let plies = g.plies.len();
    if let Some(n) = a.ply
        && n > plies
    {
        let what = g
            .foul
            .as_ref()
            .map_or(String::new(), |f| format!(" (ply {} is a foul)", f.ply));
        bail!("{name}: --ply {n}: the main line has {plies} legal plies{what}");
    }
    let upto = a.ply.unwrap_or(plies);
    let at_foul = a.ply.is_none() && g.foul.is_some();
    let board = board_at(g, upto);
    let last = (upto > 0).then(|| g.plies[upto - 1].mv);
    // The foul move, where its USI reads as a move on this board.
    let foul_mv = g
        .foul
        .as_ref()
        .filter(|_| at_foul)
        .and_then(|f| f.usi.as_deref())
        .and_then(|u| variant_move(&board, u));
    let out = match a.to {
        // lishogi's 12-rank diagram, and the moves played.
        ShowFormat::Bod if v == Variant::Chu => {
            let played = upto as u32 + g.start.move_number().saturating_sub(1);
            format!(
                "{}手数＝{played}\n",
                kifu::emit::variant::chu_diagram(&board)
            )
        }
        ShowFormat::Bod => write_bod(g, &board, upto, last, foul_mv, at_foul),
        ShowFormat::Svg => {
            let (mark, kind) = match foul_mv {
                Some(m) => (mark_of(&board, m), MarkKind::Next),
                None => (
                    last.map_or(Mark::None, |m| mark_of(&board, m)),
                    MarkKind::Last,
                ),
            };
            let d = drawing(&board, mark, kind);
            svg::write_drawing(
                &d,
                SvgOptions {
                    standalone: true,
                    labels: LABELS,
                },
            )
        }
    };
    std::io::stdout().write_all(out.as_bytes())?;
    Ok(0)
}

fn cell(board: &Board, c: u8) -> Cell {
    board.file_rank(c)
}

fn mark_of(board: &Board, m: VMove) -> Mark {
    match m.from {
        Some(from) => Mark::Move {
            from: cell(board, from),
            to: cell(board, m.to),
        },
        None => Mark::Drop(cell(board, m.to)),
    }
}

/// The board as the SVG writer draws it: the piece table's names, the
/// hands only where the variant has drops.
fn drawing(board: &Board, mark: Mark, mark_kind: MarkKind) -> Drawing {
    let r = board.rules();
    let mut squares = Vec::with_capacity(usize::from(r.files) * usize::from(r.ranks));
    for rank in 1..=r.ranks {
        for file in (1..=r.files).rev() {
            let piece = board.cell_of(file, rank).and_then(|c| board.at(c));
            squares.push(piece.map(|(color, id)| {
                let d = board.def(id);
                Drawn {
                    name: d.kif.to_string(),
                    color,
                    red: d.promoted,
                }
            }));
        }
    }
    let hands = r.drops.then(|| {
        [Color::Sente, Color::Gote].map(|c| {
            r.hand_order
                .iter()
                .map(|&id| (board.def(id).kif.to_string(), board.in_hand(c, id)))
                .filter(|&(_, n)| n > 0)
                .collect()
        })
    });
    // Star points where the zones divide the board in three (9×9, 12×12, 6×6).
    let z = r.zone;
    let stars = if r.files == r.ranks && z > 0 && z * 3 == r.ranks {
        vec![(z, z), (2 * z, z), (z, 2 * z), (2 * z, 2 * z)]
    } else {
        Vec::new()
    };
    Drawing {
        files: r.files,
        ranks: r.ranks,
        squares,
        hands,
        side_to_move: board.side(),
        mark,
        mark_kind,
        king: None,
        stars,
    }
}

/// The one kanji a BOD square holds: the name itself, or the short form KIF
/// writers use for a two-kanji name (杏 圭 全 象 太); tori shogi's quails,
/// both 鶉, are told apart by their side, 左 and 右.
fn bod_char(name: &str) -> char {
    match name {
        "成香" => '杏',
        "成桂" => '圭',
        "成銀" => '全',
        "酔象" => '象',
        "太子" => '太',
        "左鶉" => '左',
        "右鶉" => '右',
        _ => name.chars().next().unwrap_or('？'),
    }
}

/// A hand in KIF order (the variant's), names in full: `燕二　左鶉　`, or `なし`.
fn hand_text(board: &Board, c: Color) -> String {
    let r = board.rules();
    let mut s = String::new();
    for &id in r.hand_order {
        let n = board.in_hand(c, id);
        if n > 0 {
            s.push_str(board.def(id).kif);
            s.push_str(&bod::kanji_count(n));
            s.push('　');
        }
    }
    if s.is_empty() { "なし".into() } else { s }
}

/// A move as the footer writes it, when its origin holds a piece.
fn move_text(before: &Board, m: VMove, last_to: Option<u8>) -> Option<String> {
    let mover = match m.from {
        Some(from) => before.at(from)?.0,
        None => before.side(),
    };
    Some(format!(
        "{}{}",
        mover.mark(),
        write::move_text(before, m, last_to)
    ))
}

fn write_bod(
    g: &VariantGame,
    board: &Board,
    upto: usize,
    last: Option<VMove>,
    foul_mv: Option<VMove>,
    at_foul: bool,
) -> String {
    let before = |n: usize| board_at(g, n);
    let last_to = |n: usize| (n > 0).then(|| g.plies[n - 1].mv.to);
    let mark_text = last.and_then(|m| move_text(&before(upto - 1), m, last_to(upto - 1)));
    let cells = |(file, rank): Cell| {
        let c = board.cell_of(file, rank)?;
        board
            .at(c)
            .map(|(color, id)| (color, bod_char(board.def(id).kif)))
    };
    let sheet = Sheet {
        files: board.rules().files,
        ranks: board.rules().ranks,
        cell: &cells,
        hands: [Color::Sente, Color::Gote].map(|c| hand_text(board, c)),
        side_to_move: board.side(),
        moves_played: upto as u32 + g.start.move_number().saturating_sub(1),
        mark: last.map_or(Mark::None, |m| mark_of(board, m)),
        mark_text,
    };
    let opts = BodOptions {
        footer_with_move: true,
        highlight: std::io::stdout().is_terminal(),
    };
    let mut out = String::new();
    bod::write_sheet(&mut out, &sheet, LABELS, opts);
    if let Some(f) = g.foul.as_ref().filter(|_| at_foul) {
        let next = foul_mv
            .and_then(|m| move_text(board, m, last_to(upto)))
            .unwrap_or_default();
        let usi = f
            .usi
            .as_deref()
            .map_or(String::new(), |u| format!(" ({u})"));
        out.push_str(&format!(
            "*次の手は反則（{}, {}）：{next}{usi}\n",
            f.foul.kanji(),
            f.foul.code()
        ));
    }
    out
}

/// The position after the first `upto` legal plies of `g` (all of them at most).
pub fn board_at(g: &VariantGame, upto: usize) -> Board {
    let mut board = g.start.clone();
    for p in g.plies.iter().take(upto) {
        board.play_unchecked(p.mv);
    }
    board
}
