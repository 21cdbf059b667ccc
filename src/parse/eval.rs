//! Engine evaluations as records carry them: the floodgate `'** <score>
//! <pv…>` line of CSA (which ShogiHome and tsshogi write to KIF as a `**`
//! comment line, and kifu to JKF as a `*` comment), and the comments GUIs
//! write (`kif.md` §7): ShogiHome `#評価値=…`/`#読み筋=…`, ShogiGUI
//! `*対局 … 評価値 … 読み筋 …`, Kifu for Windows `*解析 …`.
//!
//! Syntax only: a reading line is read into moves as written; the JSON
//! writer plays them.

use crate::parse::ki2::move_text::reading_line;
use crate::record::{Evaluation, Line};

/// `<score> <pv…>`: [`Evaluation::from_floodgate`], the one reader of
/// those words.
pub(crate) fn floodgate(body: &str) -> Evaluation {
    Evaluation::from_floodgate(body)
}

/// The evaluation a KIF or JKF comment holds in the floodgate form: the
/// comment text (after KIF's `*`) is `*`, a space, then a score or a CSA
/// move, as `'** 30 -3334FU` reads in CSA. Anything else is a comment.
pub fn floodgate_comment(text: &str) -> Option<Evaluation> {
    let body = text.strip_prefix("* ")?;
    Evaluation::is_floodgate_comment(text).then(|| floodgate(body))
}

/// Whether the text after `'**` is an evaluation
/// ([`Evaluation::is_floodgate_body`]).
pub(crate) fn is_floodgate_body(body: &str) -> bool {
    Evaluation::is_floodgate_body(body)
}

/// The text after `*` that [`floodgate_comment`] reads back as `e`.
pub fn floodgate_text(e: &Evaluation) -> String {
    let mut s = String::from("*");
    e.write_floodgate(&mut s);
    s
}

/// An evaluation a GUI wrote in a move's comments: the score and the
/// reading line as written (Japanese moves with ▲/△ marks).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GuiEval<'a> {
    /// The score, from sente's side as these GUIs write it.
    pub score: Option<i64>,
    /// The reading line (`▲７六歩(77)△３四歩(33)` or `▲７六歩 △３四歩`).
    pub pv: Option<&'a str>,
}

/// The first evaluation the GUI comments among `comments` hold, if any.
/// ShogiHome writes one comment line per field (`#評価値=158`,
/// `#読み筋=▲７六歩△３四歩`; `*評価値=` for a player's own search);
/// ShogiGUI and Kifu for Windows write one line (`*対局 深さ 2 … 評価値 0
/// 読み筋 ▲７六歩(77)`, `*解析 0 … 評価値 123↑ … 読み筋 …`).
pub fn gui_comment(comments: &[String]) -> Option<GuiEval<'_>> {
    let mut found = GuiEval::default();
    for c in comments {
        for prefix in ["#", "*"] {
            if let Some(v) = c
                .strip_prefix(prefix)
                .and_then(|c| c.strip_prefix("評価値="))
            {
                found.score = found.score.or_else(|| v.trim().parse().ok());
            }
            if let Some(v) = c
                .strip_prefix(prefix)
                .and_then(|c| c.strip_prefix("読み筋="))
            {
                found.pv = found.pv.or(Some(v.trim()));
            }
        }
        if found.score.is_none()
            && found.pv.is_none()
            && ["*対局", "*解析", "*検討"].iter().any(|p| c.starts_with(p))
        {
            return Some(engine_line(c));
        }
    }
    (found != GuiEval::default()).then_some(found)
}

/// `… 評価値 123↑ … 読み筋 ▲７六歩(77) △３四歩(33)`: the arrow says the
/// value is a bound (`kif.md` §7); the number is kept.
fn engine_line(c: &str) -> GuiEval<'_> {
    let mut words = c.split_whitespace();
    let mut score = None;
    while let Some(w) = words.next() {
        if w == "評価値" {
            score = words
                .next()
                .and_then(|v| v.trim_end_matches(['↑', '↓']).parse().ok());
            break;
        }
    }
    let pv = c.split_once("読み筋").map(|(_, p)| p.trim());
    GuiEval { score, pv }
}

/// Read the GUI evaluations in the comments of every move of `line` and
/// its variations into [`MoveExtra::gui_eval`](crate::record::MoveExtra::gui_eval),
/// so that nobody reads the comments again.
pub(crate) fn read_gui_evals(line: &mut Line) {
    // Variations nest as deep as the readers allow; a stack needs no bound.
    let mut stack = vec![line];
    while let Some(line) = stack.pop() {
        for m in &mut line.moves {
            // Most moves have neither comments nor variations.
            if m.comments().is_empty() && m.variations().is_empty() {
                continue;
            }
            if let Some(g) = gui_comment(m.comments()) {
                let e = Evaluation {
                    score: g.score,
                    pv: g.pv.map(reading_line).unwrap_or_default(),
                    rest: Vec::new(),
                };
                m.extra_mut().gui_eval = Some(e);
            }
            if !m.variations().is_empty() {
                stack.extend(m.extra_mut().variations.iter_mut());
            }
        }
        stack.extend(line.ending_variations.iter_mut());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floodgate_comments_and_their_text_agree() {
        let e = floodgate_comment("* 30 -3334FU +2726FU").unwrap();
        assert_eq!(e.score, Some(30));
        assert_eq!(e.pv.len(), 2);
        assert_eq!(floodgate_text(&e), "* 30 -3334FU +2726FU");
        assert_eq!(floodgate_comment("* +7776FU").unwrap().score, None);
        for not in ["*対局 評価値 0", "* 良い手", "*30", "互角", "* "] {
            assert_eq!(floodgate_comment(not), None, "{not}");
        }
    }

    #[test]
    fn gui_forms() {
        let c = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let home = c(&["互角", "#評価値=-158", "#読み筋=▲７六歩△３四歩"]);
        let g = gui_comment(&home).unwrap();
        assert_eq!((g.score, g.pv), (Some(-158), Some("▲７六歩△３四歩")));
        let gui = c(&["*対局 深さ 2 ノード数 960 評価値 12↑ 読み筋 ▲７六歩(77) △３四歩(33)"]);
        let g = gui_comment(&gui).unwrap();
        assert_eq!((g.score, g.pv), (Some(12), Some("▲７六歩(77) △３四歩(33)")));
        assert_eq!(gui_comment(&c(&["評価値 12"])), None);
    }
}
