//! `position startpos|sfen … moves …` lines: what USI engines read.

use crate::codes::WarningCode;
use crate::emit::Warning;
use crate::record::StartPosition;
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
    let mut warnings = Vec::new();
    let written = game.record.main.moves.len();
    if written > game.main.plies.len() {
        warnings.push(Warning {
            code: WarningCode::MovesOmitted,
            message: format!(
                "{} move(s) after ply {} are not legal plies and are not written",
                written - game.main.plies.len(),
                game.main.plies.len()
            ),
        });
    }
    let recorded = game.recorded_variations();
    if recorded > 0 {
        warnings.push(Warning {
            code: WarningCode::VariationsDropped,
            message: format!("USI cannot hold variations: {} left out", recorded),
        });
    }
    if game
        .record
        .main
        .moves
        .iter()
        .any(|m| !m.comments().is_empty())
        || !game.record.comments.is_empty()
    {
        warnings.push(Warning {
            code: WarningCode::CommentsDropped,
            message: "USI cannot hold comments".into(),
        });
    }
    // A USI line is moves only: everything else a record holds is named
    // here, so nothing is dropped silently.
    let main = &game.record.main;
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
        game.record.header.len(),
        "header fields",
    );
    lost(
        WarningCode::TimesDropped,
        main.moves.iter().filter(|m| m.time.is_some()).count(),
        "move times",
    );
    lost(
        WarningCode::BookmarksDropped,
        game.record.bookmarks.len()
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
        game.record.notes.len() + game.record.summary.len(),
        "notes and summary lines",
    );
    if let Some(e) = &main.ending {
        warnings.push(Warning {
            code: WarningCode::EndingDropped,
            message: format!("USI cannot hold how the game ended: {:?} left out", e.text),
        });
    }
    (s, warnings)
}
