//! `position startpos|sfen … moves …` lines: what USI engines read.

use crate::codes::WarningCode;
use crate::emit::Warning;
use crate::record::{Record, StartPosition};
use crate::replay::Game;
use crate::rules::setup::Handicap;

/// One `position … moves …` line (no newline) holding the legal moves of the
/// main line, plus warnings for what a USI line cannot hold.
pub fn write(game: &Game) -> (String, Vec<Warning>) {
    let mut s = String::with_capacity(16 + game.main.plies.len() * 5);
    s.push_str("position ");
    match &game.record.start {
        StartPosition::Preset(Handicap::Hirate) if game.start.move_number() == 1 => {
            s.push_str("startpos")
        }
        _ => {
            s.push_str("sfen ");
            s.push_str(&game.start.to_sfen());
        }
    }
    if !game.main.plies.is_empty() {
        s.push_str(" moves");
        for p in &game.main.plies {
            s.push(' ');
            p.mv.push_usi(&mut s);
        }
    }
    (s, losses(&game.record, game.main.plies.len(), false))
}

/// What a USI line of `plies` moves cannot hold of `record`, each named:
/// a USI line is moves only (and the ending's pseudo-move when
/// `ending_written`), so nothing is dropped silently.
pub(crate) fn losses(record: &Record, plies: usize, ending_written: bool) -> Vec<Warning> {
    let mut warnings = Vec::new();
    let written = record.main.moves.len();
    if written > plies {
        warnings.push(Warning {
            code: WarningCode::MovesOmitted,
            message: format!(
                "{} move(s) after ply {} are not legal plies and are not written",
                written - plies,
                plies
            ),
        });
    }
    let recorded = record.variation_count();
    if recorded > 0 {
        warnings.push(Warning {
            code: WarningCode::VariationsDropped,
            message: format!("USI cannot hold variations: {} left out", recorded),
        });
    }
    if record.main.moves.iter().any(|m| !m.comments().is_empty()) || !record.comments.is_empty() {
        warnings.push(Warning {
            code: WarningCode::CommentsDropped,
            message: "USI cannot hold comments".into(),
        });
    }
    let main = &record.main;
    let mut lost = |code: WarningCode, n: usize, what: &str| {
        if n > 0 {
            warnings.push(Warning {
                code,
                message: format!("USI cannot hold {what}: {n} left out"),
            });
        }
    };
    lost(
        WarningCode::HeaderDropped,
        record.header.len(),
        "header fields",
    );
    lost(
        WarningCode::TimesDropped,
        main.moves.iter().filter(|m| m.time.is_some()).count(),
        "move times",
    );
    lost(
        WarningCode::BookmarksDropped,
        record.bookmarks.len()
            + main
                .moves
                .iter()
                .map(|m| m.bookmarks().len())
                .sum::<usize>(),
        "bookmarks",
    );
    lost(
        WarningCode::EvaluationsDropped,
        main.moves.iter().filter(|m| m.eval().is_some()).count(),
        "evaluations",
    );
    lost(
        WarningCode::NotesDropped,
        record.notes.len() + record.summary.len(),
        "notes and summary lines",
    );
    if let Some(e) = main.ending.as_ref().filter(|_| !ending_written) {
        warnings.push(Warning {
            code: WarningCode::EndingDropped,
            message: format!("USI cannot hold how the game ended: {:?} left out", e.text),
        });
    }
    warnings
}
