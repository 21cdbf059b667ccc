//! `--to sfen`: one line per position, the shape ML data pipelines start from:
//! `SFEN<TAB>next move in USI or -<TAB>result from the mover's side`.
//!
//! The positions are the start and the position after every legal ply of the
//! main line; the result is `win`, `loss`, `draw`, or `-` when the game has none.

use crate::emit::Warning;
use crate::replay::Game;
use crate::types::Color;

fn outcome(game: &Game, mover: Color) -> &'static str {
    let r = &game.main.result;
    match r.winner {
        Some(w) if w == mover => "win",
        Some(_) => "loss",
        None if matches!(r.reason, "sennichite" | "jishogi" | "draw" | "max-moves") => "draw",
        None => "-",
    }
}

/// The lines of one game (each ends with a newline).
pub fn write(game: &Game) -> (String, Vec<Warning>) {
    let mut out = String::with_capacity((game.main.plies.len() + 1) * 80);
    let mut pos = game.start.clone();
    for p in &game.main.plies {
        out.push_str(&pos.to_sfen());
        out.push('\t');
        out.push_str(&p.mv.to_usi());
        out.push('\t');
        out.push_str(outcome(game, pos.side_to_move()));
        out.push('\n');
        pos.play(p.mv);
    }
    out.push_str(&pos.to_sfen());
    out.push_str("\t-\t");
    out.push_str(outcome(game, pos.side_to_move()));
    out.push('\n');
    let mut warnings = Vec::new();
    if !game.variations.is_empty() {
        warnings.push(Warning {
            code: "variations-dropped",
            message: format!(
                "{} variation(s) are not written: only the main line",
                game.variations.len()
            ),
        });
    }
    (out, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::usi;
    use crate::replay::{ReplayOptions, replay};

    #[test]
    fn one_line_per_position_with_the_mover_s_result() {
        let rec = usi::parse("position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1 moves G*5b")
            .unwrap()
            .remove(0);
        let g = replay(rec, &ReplayOptions::default()).unwrap();
        let (s, w) = write(&g);
        assert!(w.is_empty());
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(
            lines[0],
            "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1\tG*5b\twin"
        );
        assert_eq!(
            lines[1],
            "4k4/4G4/4P4/9/9/9/9/9/9 w 2r2b3g4s4n4l17p 2\t-\tloss"
        );
    }
}
