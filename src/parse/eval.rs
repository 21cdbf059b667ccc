//! Engine evaluations as records carry them: the floodgate `'** <score>
//! <pv…>` line of CSA (which ShogiHome and tsshogi write to KIF as a `**`
//! comment line, and kifu to JKF as a `*` comment), and the comments GUIs
//! write (`kif.md` §7): ShogiHome `#評価値=…`/`#読み筋=…`, ShogiGUI
//! `*対局 … 評価値 … 読み筋 …`, Kifu for Windows `*解析 …`.
//!
//! Syntax only: a reading line stays text here; the JSON writer plays it.

use crate::record::Evaluation;

/// `<score> <pv…>`: the score when the first word is an integer, then every
/// other word as written. GPS logs run PV moves together
/// (`-4344FU+5968OU…`), so such runs are cut into single moves.
pub(crate) fn floodgate(body: &str) -> Evaluation {
    let mut words = body.split_whitespace().peekable();
    let score = words.peek().and_then(|w| w.parse::<i64>().ok());
    if score.is_some() {
        words.next();
    }
    let mut pv = Vec::new();
    for w in words {
        split_csa_run(w, &mut pv);
    }
    Evaluation { score, pv }
}

/// Push `w` to `out`, cut into 7-character CSA moves when it is a run of them.
fn split_csa_run(w: &str, out: &mut Vec<String>) {
    let b = w.as_bytes();
    let is_run =
        b.len() > 7 && w.is_ascii() && b.chunks(7).all(|c| matches!(c.first(), Some(b'+' | b'-')));
    if is_run {
        // Every byte is ASCII, so 7-byte chunks are valid strings.
        out.extend(b.chunks(7).map(|c| String::from_utf8_lossy(c).into_owned()));
    } else {
        out.push(w.to_string());
    }
}

/// Whether `w` is a CSA move such as `+7776FU`.
pub(crate) fn is_csa_move(w: &str) -> bool {
    let b = w.as_bytes();
    b.len() == 7
        && matches!(b[0], b'+' | b'-')
        && b[1..5].iter().all(u8::is_ascii_digit)
        && b[5..].iter().all(u8::is_ascii_uppercase)
}

/// The evaluation a KIF or JKF comment holds in the floodgate form: the
/// comment text (after KIF's `*`) is `*`, a space, then a score or a CSA
/// move, as `'** 30 -3334FU` reads in CSA. Anything else is a comment.
pub fn floodgate_comment(text: &str) -> Option<Evaluation> {
    let body = text.strip_prefix("* ")?;
    (!body.trim().is_empty() && is_floodgate_body(body)).then(|| floodgate(body))
}

/// Whether the text after `'**` is an evaluation: nothing, or a score or a
/// CSA move first. ShogiHome writes its comment lines `*評価値=…` to CSA as
/// `'**評価値=…`: those are comments.
pub(crate) fn is_floodgate_body(body: &str) -> bool {
    let Some(first) = body.split_whitespace().next() else {
        return true;
    };
    first.parse::<i64>().is_ok()
        || is_csa_move(first)
        || first.len() > 7 && {
            let mut run = Vec::new();
            split_csa_run(first, &mut run);
            run.iter().all(|m| is_csa_move(m))
        }
}

/// The text after `*` that [`floodgate_comment`] reads back as `e`.
pub fn floodgate_text(e: &Evaluation) -> String {
    let mut s = String::from("*");
    if let Some(n) = e.score {
        s.push(' ');
        s.push_str(&n.to_string());
    }
    for m in &e.pv {
        s.push(' ');
        s.push_str(m);
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floodgate_comments_and_their_text_agree() {
        let e = floodgate_comment("* 30 -3334FU +2726FU").unwrap();
        assert_eq!(e.score, Some(30));
        assert_eq!(e.pv, ["-3334FU", "+2726FU"]);
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
