//! `kifu show`: one position of a game as a KIF board diagram or an SVG board.

use crate::{ShowArgs, ShowFormat};
use anyhow::{Context, bail};
use kifu::Handicap;
use kifu::emit::bod::{self, BodOptions};
use kifu::emit::diagram;
use kifu::emit::svg::{self, SvgOptions};
use kifu::replay::{Game, Verdict};
use std::io::{IsTerminal, Write};

pub fn run(a: &ShowArgs) -> anyhow::Result<u8> {
    if let Some(v) = super::show_variant::wanted(a)? {
        return super::show_variant::run(a, v);
    }
    let game = read_game(a)?;
    let labels = side_labels(&game);
    let plies = game.main.plies.len();
    let foul = match &game.main.verdict {
        Verdict::Foul(f) => Some(f),
        Verdict::Legal => None,
    };
    if let Some(n) = a.ply
        && n > plies
    {
        let what = foul.map_or(String::new(), |f| format!(" (ply {} is a foul)", f.ply));
        bail!(
            "{}: --ply {n}: the main line has {plies} legal plies{what}",
            a.file.display()
        );
    }
    let at_foul = a.ply.is_none() && foul.is_some();
    // At a foul judged on a move already played (perpetual check), the
    // board before that move: the move is the one drawn as the foul.
    let upto = a.ply.unwrap_or(game.main.plies_before_foul());
    let mut out = String::new();
    match a.to {
        ShowFormat::Bod => {
            let d = diagram::after_plies(&game, None, upto);
            let opts = BodOptions {
                footer_with_move: true,
                highlight: std::io::stdout().is_terminal(),
            };
            bod::write(&mut out, &d, labels, opts);
            if let Some(line) = a.ply.and_then(|n| eval_comment(&game, n)) {
                out.push_str(&line);
            }
            if let Some(f) = foul.filter(|_| at_foul) {
                let next = diagram::before_foul(&game, None).and_then(|d| d.mark_text);
                let usi = f.mv.map_or(String::new(), |m| format!(" ({})", m.to_usi()));
                out.push_str(&format!(
                    "*次の手は反則（{}, {}）：{}{usi}\n",
                    f.rule.kanji(),
                    f.rule.code(),
                    next.unwrap_or_default()
                ));
            }
        }
        ShowFormat::Svg => {
            let d = if at_foul {
                diagram::before_foul(&game, None)
                    .unwrap_or_else(|| diagram::after_plies(&game, None, upto))
            } else {
                diagram::after_plies(&game, None, upto)
            };
            out = svg::write(
                &d,
                SvgOptions {
                    standalone: true,
                    labels,
                },
            );
        }
    }
    std::io::stdout().write_all(out.as_bytes())?;
    Ok(0)
}

/// The evaluation ply `n` of the main line carries, as the comment
/// ShogiGUI writes and kifu reads back (`*解析 0 評価値 157 読み筋 △３四歩(33)
/// …`, the score from sente's side), if it carries a score.
fn eval_comment(game: &Game, n: usize) -> Option<String> {
    let i = n.checked_sub(1)?;
    let ply = game.main.plies.get(i)?;
    let entry = game.record.main.moves.get(i)?;
    let mut before = game.start.clone();
    for p in &game.main.plies[..i] {
        before.play_unchecked(p.mv);
    }
    let (score, pv) = kifu::emit::eval_and_pv(entry, &before, ply.mv);
    let pv = pv.unwrap_or_default();
    let mut after = before.clone();
    after.play_unchecked(ply.mv);
    // The line starts after the move, or with the move itself.
    let starts_after = pv
        .first()
        .and_then(|w| kifu::Move::from_usi(w))
        .is_none_or(|m| after.clone().play(m).is_ok());
    let from = if starts_after { &after } else { &before };
    let text = super::analyze::line::gui_comment(from, None, None, score?, &pv);
    Some(format!("*{text}\n"))
}

fn read_game(a: &ShowArgs) -> anyhow::Result<Game> {
    let encoding = match &a.encoding {
        None => None,
        Some(label) => Some(
            kifu::decode::encoding_by_label(label)
                .with_context(|| format!("unknown encoding {label:?}"))?,
        ),
    };
    let opts = kifu::input::ReadOptions::default()
        .format(a.from)
        .encoding(encoding);
    let input = if a.file.as_os_str() == "-" {
        let mut bytes = Vec::new();
        std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes)?;
        kifu::input::read_bytes(&bytes, None, &opts).map_err(super::with_flag_advice)?
    } else {
        kifu::input::read_path(&a.file, &opts).map_err(super::with_flag_advice)?
    };
    let name = a.file.display();
    let index = a.game.checked_sub(1).context("--game counts from 1")?;
    // The same line as check prints: the file named once, with the game.
    let game_error = |e: &kifu::Error| {
        let line = super::error_line(&name.to_string(), e, Some(index));
        anyhow::anyhow!("{}", line.trim_end())
    };
    if let Some((_, e)) = input.failed.into_iter().find(|(i, _)| *i == index) {
        return Err(game_error(&e));
    }
    let total = input.records.len();
    let Some(record) = input.records.into_iter().find(|r| r.index == index) else {
        bail!("{name}: --game {}: the input holds {total} game(s)", a.game);
    };
    let replay_opts = kifu::ReplayOptions::default();
    kifu::replay(record, &replay_opts).map_err(|e| game_error(&e))
}

/// `先手`/`後手`, or `下手`/`上手` for a handicap game, by [`kifu::Color::index`].
pub fn side_labels(game: &Game) -> [&'static str; 2] {
    let handicap = game
        .record
        .start
        .preset()
        .is_some_and(|h| h != Handicap::Hirate)
        || game
            .record
            .header
            .iter()
            .any(|h| matches!(h.key.as_str(), "下手" | "上手"));
    if handicap {
        ["下手", "上手"]
    } else {
        ["先手", "後手"]
    }
}

#[cfg(test)]
mod tests {
    use kifu::Setup;
    use kifu::emit::diagram::Diagram;

    #[test]
    fn diagram_of_a_setup_reads_its_squares_back() {
        let s = Setup::from_sfen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1")
            .unwrap();
        let d = Diagram::from_setup(&s);
        assert_eq!(d.piece((5, 1)).map(|p| p.kind), Some(kifu::PieceKind::King));
        assert_eq!(d.piece((2, 8)).map(|p| p.kind), Some(kifu::PieceKind::Rook));
        assert_eq!(d.piece((5, 5)), None);
        assert_eq!(d.piece((10, 1)), None);
    }
}
