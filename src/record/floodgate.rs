//! The words of a floodgate evaluation (`'** 120 +7776FU -3334FU`), which
//! its readers (CSA `'**` lines, the KIF and JKF comments that carry one)
//! and its writers share: read into an [`Evaluation`], written back, and
//! whether a text reads as one, which a writer asks before it writes a
//! comment that could be taken for an evaluation.

use super::{Evaluation, Notation};
use crate::rules::types::{Color, PieceKind, Square};

impl Evaluation {
    /// The text after `'**`: the score when the first word is an integer,
    /// then the CSA moves, then every other word as written. GPS logs run
    /// PV moves together (`-4344FU+5968OU…`), so such runs are cut into
    /// single moves.
    pub fn from_floodgate(body: &str) -> Evaluation {
        let mut words = body.split_whitespace().peekable();
        let score = words.peek().and_then(|w| w.parse::<i64>().ok());
        if score.is_some() {
            words.next();
        }
        let mut e = Evaluation {
            score,
            ..Evaluation::default()
        };
        for w in words {
            for part in split_csa_run(w) {
                match Notation::from_csa_word(part).filter(|_| e.rest.is_empty()) {
                    Some(n) => e.pv.push(n),
                    None => e.rest.push(part.to_string()),
                }
            }
        }
        e
    }

    /// Whether the text after `'**` is an evaluation: nothing, or a score
    /// or a CSA move first. ShogiHome writes its comment lines `*評価値=…` to
    /// CSA as `'**評価値=…`: those are comments.
    pub fn is_floodgate_body(body: &str) -> bool {
        let Some(first) = body.split_whitespace().next() else {
            return true;
        };
        first.parse::<i64>().is_ok()
            || is_csa_word(first)
            || first.len() > 7 && split_csa_run(first).all(is_csa_word)
    }

    /// Whether a comment is an evaluation in the floodgate form, `* `
    /// and a body that is one and not empty (`* 30 -3334FU`): the JKF
    /// reader takes a move's first such comment for its evaluation.
    pub fn is_floodgate_comment(text: &str) -> bool {
        text.strip_prefix("* ")
            .is_some_and(|body| !body.trim().is_empty() && Evaluation::is_floodgate_body(body))
    }

    /// The words [`Evaluation::from_floodgate`] reads back as `self`, each
    /// behind a space (` 30 -3334FU`), pushed to `out`.
    pub fn write_floodgate(&self, out: &mut String) {
        if let Some(n) = self.score {
            out.push(' ');
            out.push_str(itoa::Buffer::new().format(n));
        }
        for m in &self.pv {
            out.push(' ');
            m.write_csa_word(out);
        }
        for w in &self.rest {
            out.push(' ');
            out.push_str(w);
        }
    }
}

impl Notation {
    /// A CSA move word (`+7776FU`, `-0055KA`) as [`Notation::Csa`]; `None`
    /// for anything else, including an origin that is neither `00` nor a
    /// square, so that the word writes back as it was.
    pub fn from_csa_word(w: &str) -> Option<Notation> {
        let b = w.as_bytes();
        if b.len() != 7 {
            return None;
        }
        let color = match b[0] {
            b'+' => Color::Sente,
            b'-' => Color::Gote,
            _ => return None,
        };
        let square = |f: u8, r: u8| Square::new(f.wrapping_sub(b'0'), r.wrapping_sub(b'0'));
        let from = match (b[1], b[2]) {
            (b'0', b'0') => None,
            (f, r) => Some(square(f, r)?),
        };
        Some(Notation::Csa {
            color,
            from,
            to: square(b[3], b[4])?,
            piece: PieceKind::from_csa(&b[5..7])?,
        })
    }

    /// A [`Notation::Csa`] as its CSA word, pushed to `out`; any other
    /// notation pushes nothing and gives `false`.
    pub fn write_csa_word(&self, out: &mut String) -> bool {
        let Notation::Csa {
            color,
            from,
            to,
            piece,
        } = self
        else {
            return false;
        };
        out.push(color.csa_sign());
        let digits = |s: Square| [(b'0' + s.file()) as char, (b'0' + s.rank()) as char];
        out.extend(from.map_or(['0', '0'], digits));
        out.extend(digits(*to));
        out.push_str(piece.csa());
        true
    }
}

/// `w` cut into 7-character CSA moves when it is a run of them, else `w`.
fn split_csa_run(w: &str) -> impl Iterator<Item = &str> {
    let b = w.as_bytes();
    let is_run =
        b.len() > 7 && w.is_ascii() && b.chunks(7).all(|c| matches!(c.first(), Some(b'+' | b'-')));
    let size = if is_run { 7 } else { w.len().max(1) };
    // Every byte of a run is ASCII, so its 7-byte chunks are char boundaries.
    (0..w.len())
        .step_by(size)
        .map(move |i| &w[i..(i + size).min(w.len())])
}

/// Whether `w` is shaped as a CSA move: a sign, four digits, two capitals.
fn is_csa_word(w: &str) -> bool {
    let b = w.as_bytes();
    b.len() == 7
        && matches!(b[0], b'+' | b'-')
        && b[1..5].iter().all(u8::is_ascii_digit)
        && b[5..].iter().all(u8::is_ascii_uppercase)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csa_words_read_and_write_back() {
        for w in ["+7776FU", "-0055KA", "+2822RY", "-9199TO"] {
            let n = Notation::from_csa_word(w).unwrap();
            let mut out = String::new();
            assert!(n.write_csa_word(&mut out));
            assert_eq!(out, w);
        }
        for not in ["+1076FU", "+7706FU", "+7776XX", "*7776FU", "+7776F", "7g7f"] {
            assert_eq!(Notation::from_csa_word(not), None, "{not}");
        }
    }

    #[test]
    fn a_body_keeps_its_words_in_order() {
        let e = Evaluation::from_floodgate("-12 -3334FU+2726FU #1234 +8822UM");
        assert_eq!(e.score, Some(-12));
        assert_eq!(e.pv.len(), 2);
        assert_eq!(e.rest, ["#1234", "+8822UM"]);
        let mut out = String::new();
        e.write_floodgate(&mut out);
        assert_eq!(out, " -12 -3334FU +2726FU #1234 +8822UM");
        assert!(Evaluation::is_floodgate_body(""));
        assert!(Evaluation::is_floodgate_body("+7776FU-3334FU"));
        assert!(!Evaluation::is_floodgate_body("評価値=30"));
    }
}
