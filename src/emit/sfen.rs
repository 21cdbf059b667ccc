//! `--to sfen`: one line per position, the shape ML data pipelines start from:
//! `SFEN<TAB>next move in USI or -<TAB>result from the mover's side<TAB>eval`.
//!
//! The positions are the start and the position after every legal ply of the
//! main line; the result is `win`, `loss`, `draw`, or `-` when the game has none.
//! The eval is the one the record gives the next move (a floodgate `'**`
//! score, written from sente's view), turned to the side to move's view, or
//! `-` where the record has none; it is the fourth field so that readers of
//! the first three are unchanged.

use crate::emit::Warning;
use crate::replay::Game;
use crate::rules::types::Color;

/// The result from `mover`'s side, for a game whose result is `label`'s.
fn outcome(label: Result<Option<Color>, ()>, mover: Color) -> &'static str {
    match label {
        Ok(Some(w)) if w == mover => "win",
        Ok(Some(_)) => "loss",
        Ok(None) => "draw",
        Err(()) => "-",
    }
}

/// The lines of one game (each ends with a newline).
pub fn write(game: &Game) -> (String, Vec<Warning>) {
    let mut out = String::with_capacity((game.main.plies.len() + 1) * 80);
    let mut pos = game.start.clone();
    let mut buf = [0u8; crate::notation::sfen::SFEN_MAX];
    // Each line starts with the position the line before it led to: after a
    // move only the ranks it touched are written again, which is most of the
    // cost of a line saved.
    let mut ranks = pos.sfen_ranks();
    out.push_str(pos.sfen_into(&mut buf));
    let mut digits = itoa::Buffer::new();
    let label = super::packed::label(game);
    for (i, p) in game.main.plies.iter().enumerate() {
        out.push('\t');
        p.mv.push_usi(&mut out);
        out.push('\t');
        out.push_str(outcome(label, pos.side_to_move()));
        out.push('\t');
        let score = game.record.main.moves.get(i);
        match score.and_then(|e| super::pv::mover_score(e, p.color)) {
            Some(s) => out.push_str(digits.format(s)),
            None => out.push('-'),
        }
        out.push('\n');
        // The replayer keeps only plies that `play` accepted.
        pos.play_safe(p.mv);
        out.push_str(pos.sfen_after(p.mv, &mut ranks, &mut buf));
    }
    out.push_str("\t-\t");
    out.push_str(outcome(label, pos.side_to_move()));
    out.push_str("\t-\n");
    let mut warnings = Vec::new();
    warnings.extend(super::main_line_only(game));
    (out, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::{ReplayOptions, replay};

    #[test]
    fn one_line_per_position_with_the_mover_s_result() {
        let rec = crate::emit::read_for_test(
            "position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1 moves G*5b",
            crate::Format::Usi,
        )
        .remove(0);
        let g = replay(rec, &ReplayOptions::default()).unwrap();
        let (s, w) = write(&g);
        assert!(w.is_empty());
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(
            lines[0],
            "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1\tG*5b\twin\t-"
        );
        assert_eq!(
            lines[1],
            "4k4/4G4/4P4/9/9/9/9/9/9 w 2r2b3g4s4n4l17p 2\t-\tloss\t-"
        );
    }

    /// The writer refreshes only the ranks a move touched; every line must
    /// still be the position's whole SFEN, as `to_sfen` writes it afresh.
    #[test]
    fn each_line_is_the_sfen_written_afresh_and_the_usi_move() {
        let text = include_str!("../../fixtures/usi/games.usi");
        let mut lines_seen = 0;
        for rec in crate::emit::read_for_test(text, crate::Format::Usi) {
            let g = replay(rec, &ReplayOptions::default()).unwrap();
            let (s, _) = write(&g);
            let mut pos = g.start.clone();
            let mut lines = s.lines();
            for p in &g.main.plies {
                let want = format!("{}\t{}\t", pos.to_sfen(), p.mv.to_usi());
                let line = lines.next().unwrap();
                assert!(line.starts_with(&want), "{line} vs {want}");
                pos.play_unchecked(p.mv);
                lines_seen += 1;
            }
            let last = lines.next().unwrap();
            assert!(last.starts_with(&format!("{}\t-\t", pos.to_sfen())));
            assert_eq!(lines.next(), None);
        }
        // Captures, a promotion, drops and a game from a custom position.
        assert_eq!(lines_seen, 7 + 11 + 1);
    }

    /// floodgate writes every score from sente's side; a line gives it from
    /// the side to move's, so gote's move carries the negated score.
    #[test]
    fn each_line_carries_the_next_move_s_eval_from_the_mover_s_side() {
        let text = "V2.2\nPI\n+\n+7776FU\n'** 30 -3334FU\n-3334FU\n'** 45\n+2726FU\n%TORYO\n";
        let rec = crate::emit::read_for_test(text, crate::Format::Csa).remove(0);
        let g = replay(rec, &ReplayOptions::default()).unwrap();
        let (s, _) = write(&g);
        let evals: Vec<&str> = s.lines().map(|l| l.rsplit('\t').next().unwrap()).collect();
        assert_eq!(evals, ["30", "-45", "-", "-"]);
    }
}
