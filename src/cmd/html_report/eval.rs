//! What a game's evaluations say, in the report: an evaluation graph
//! (sente's chance of winning by ply, as inline SVG, with a mark on each
//! move the judgement names) and a card for each of the worst moves (悪手
//! and 大悪手, worst first), with the board before it and the engine's line
//! from there. Only games whose moves carry evaluations get them: those
//! `kifu analyze` wrote, or a GUI or floodgate did.

use super::{Card, CardFacts, card_html, escape, game_line};
use kifu::emit::diagram::{self, MarkKind};
use kifu::judge::{self, Judgement, MoveLoss, Score, Thresholds};
use kifu::replay::Game;
use kifu::rules::types::Color;
use std::fmt::Write as _;

/// Cards for at most this many moves a game.
const WORST: usize = 3;

/// The graph's size in pixels, and its margin.
const W: f64 = 640.0;
const H: f64 = 160.0;
const M: f64 = 6.0;

/// A game's graph (HTML) and its worst-move cards; `None` when no move
/// carries an evaluation.
pub(super) fn game_analysis(
    name: &str,
    game: &Game,
    t: &Thresholds,
) -> Option<(String, Vec<Card>)> {
    // Asked first: every game of a report comes here, few carry scores.
    let recorded = game
        .record
        .main
        .moves
        .iter()
        .any(|m| kifu::emit::eval_score(m).is_some());
    if !recorded {
        return None;
    }
    let scores = judge::main_line_scores(game);
    let losses = judge::losses_in(game, &scores, t);
    let graph = graph_html(name, game, &scores, &losses);
    let mut worst: Vec<&MoveLoss> = losses
        .iter()
        .filter(|m| m.judgement >= Some(Judgement::Mistake))
        .collect();
    worst.sort_by(|a, b| b.loss.total_cmp(&a.loss).then(a.ply.cmp(&b.ply)));
    let cards = worst
        .into_iter()
        .take(WORST)
        .map(|m| move_card(name, game, &scores, m))
        .collect();
    Some((graph, cards))
}

/// The y of a sente-view score: sente's chance of winning, 1 at the top.
fn y_of(s: Score) -> f64 {
    M + (H - 2.0 * M) * (1.0 - judge::win_probability(s))
}

fn graph_html(name: &str, game: &Game, scores: &[Option<Score>], losses: &[MoveLoss]) -> String {
    let n = scores.len().saturating_sub(1).max(1) as f64;
    let x_of = |i: usize| M + (W - 2.0 * M) * i as f64 / n;
    let mut svg = format!(
        "<svg class=\"graph\" width=\"{W}\" height=\"{H}\" viewBox=\"0 0 {W} {H}\" role=\"img\">\
         <title>sente's chance of winning by ply</title>\
         <line class=\"mid\" x1=\"{M}\" y1=\"{mid}\" x2=\"{x2}\" y2=\"{mid}\"/>",
        mid = H / 2.0,
        x2 = W - M
    );
    // One polyline per run of scored positions: a gap is left a gap.
    let mut run = String::new();
    for (i, s) in scores.iter().enumerate() {
        match s {
            Some(s) => {
                let _ = write!(run, "{:.1},{:.1} ", x_of(i), y_of(*s));
            }
            None => flush(&mut svg, &mut run),
        }
    }
    flush(&mut svg, &mut run);
    for m in losses {
        let (Some(j), Some(s)) = (m.judgement, scores[m.ply]) else {
            continue;
        };
        let _ = write!(
            svg,
            "<circle class=\"{}\" cx=\"{:.1}\" cy=\"{:.1}\" r=\"3.5\"><title>ply {}: {} (loss {:.3})</title></circle>",
            j_class(j),
            x_of(m.ply),
            y_of(s),
            m.ply,
            j.ja(),
            m.loss
        );
    }
    svg.push_str("</svg>");
    let count = |j| losses.iter().filter(|m| m.judgement == Some(j)).count();
    format!(
        "<section class=\"analysis\"><h2>{}</h2><p><code>{}</code> · 疑問手 {} · 悪手 {} · 大悪手 {}</p>\n{svg}\n</section>\n",
        escape(&game_line(game)),
        escape(name),
        count(Judgement::Dubious),
        count(Judgement::Mistake),
        count(Judgement::Blunder),
    )
}

fn flush(svg: &mut String, run: &mut String) {
    if !run.is_empty() {
        let _ = write!(svg, "<polyline points=\"{}\"/>", run.trim_end());
        run.clear();
    }
}

fn j_class(j: Judgement) -> &'static str {
    match j {
        Judgement::Dubious => "dubious",
        Judgement::Mistake => "mistake",
        Judgement::Blunder => "blunder",
    }
}

/// A card for the move of ply `m.ply`: the board before it with the move
/// marked, and the line the engine gave for that position (the evaluation
/// the previous move carries).
fn move_card(name: &str, game: &Game, scores: &[Option<Score>], m: &MoveLoss) -> Card {
    let i = m.ply - 1;
    let p = &game.main.plies[i];
    let mut board = diagram::after_plies(game, None, i);
    board.mark = diagram::mark_of(p.mv);
    board.mark_kind = MarkKind::Next;
    let text = kifu::notation::ja_move(p.color, p.mv, p.piece, p.same);
    let chance = |s: Option<Score>| {
        s.map(|s| {
            let sente = judge::win_probability(s);
            let mover = if m.mover == Color::Sente {
                sente
            } else {
                1.0 - sente
            };
            format!("{:.0}%", 100.0 * mover)
        })
        .unwrap_or_else(|| "?".into())
    };
    let mut detail = format!(
        "{} lost {:.3} of a win: its chance went from {} to {}",
        m.mover.name(),
        m.loss,
        chance(scores[i]),
        chance(scores[m.ply])
    );
    if let Some(line) = best_line(game, i) {
        let _ = write!(detail, "; the engine's line here: {line}");
    }
    let j = m.judgement.unwrap_or(Judgement::Mistake);
    let facts = CardFacts {
        rule: j_class(j),
        kind: "judgement",
        title: j.ja(),
        why: "a move that lost much of its side's chance of winning, by the evaluations the record carries",
        at: game
            .record
            .main
            .moves
            .get(i)
            .map(|e| (e.span.line, e.span.column)),
        ply: Some(m.ply as u32),
        mv: format!("{text} ({})", p.mv.to_usi()),
        detail,
    };
    card_html(name, game, None, &game.main, &facts, &board)
}

/// The engine's line from the position before ply `i + 1` in USI: the
/// reading line stored with ply `i` (it starts with the reply to it).
fn best_line(game: &Game, i: usize) -> Option<String> {
    let prev = i.checked_sub(1)?;
    let entry = game.record.main.moves.get(prev)?;
    let mut before = game.start.clone();
    for p in &game.main.plies[..prev] {
        before.play_unchecked(p.mv);
    }
    let (_, line) = kifu::emit::eval_and_pv(entry, &before, game.main.plies[prev].mv);
    let line = line.filter(|l| !l.is_empty())?;
    Some(line.join(" "))
}
