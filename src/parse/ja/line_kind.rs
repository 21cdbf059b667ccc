//! The one-line kinds KIF and KI2 share, told apart by their first
//! characters: `*` comments, `&` bookmarks, `#` lines, `変化：N手` headings,
//! `まで` summaries, and the shape of a numbered KIF move line.

use crate::parse::ja::header::trim_ja;
use crate::parse::ja::numeral::numeral_prefix;
use crate::parse::ja::token::{is_space, space_run};

/// A `まで…` summary line (leading spaces allowed), verbatim without them.
pub fn summary_line(text: &str) -> Option<&str> {
    let t = text.trim_start_matches(is_space);
    t.starts_with("まで").then_some(t)
}

/// The text of a `*` comment line (everything after the `*`, verbatim).
pub fn comment_line(text: &str) -> Option<&str> {
    text.strip_prefix('*')
}

/// The name of a `&` bookmark line.
pub fn bookmark_line(text: &str) -> Option<&str> {
    text.strip_prefix('&')
}

/// Whether the line is a `#` line (program comment or `#KIF` declaration).
pub fn is_hash_line(text: &str) -> bool {
    text.starts_with('#')
}

/// The N of a `変化：N手` line (spaces allowed around N, any trailing text).
pub fn variation_line(text: &str) -> Option<u32> {
    let t = trim_ja(text);
    let rest = t.strip_prefix("変化")?.trim_start_matches(is_space);
    let rest = rest.strip_prefix(['：', ':'])?;
    let rest = rest.trim_start_matches(is_space);
    let (n, used) = numeral_prefix(rest)?;
    rest[used..]
        .trim_start_matches(is_space)
        .starts_with('手')
        .then_some(n)
}

/// Whether `text` has the shape of a KIF move line: optional spaces, ASCII
/// digits, then a space (so a year such as `2024/…` is not one).
pub(crate) fn looks_like_move_line(text: &str) -> bool {
    let start = space_run(text);
    let digits = text.as_bytes()[start..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count();
    digits > 0 && space_run(&text[start + digits..]) > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_line_shapes() {
        for (line, is_move) in [
            ("  12 ７六歩", true),
            ("　1\t７六歩", true),
            ("2024/01/01", false),
            ("12", false),
        ] {
            assert_eq!(looks_like_move_line(line), is_move, "{line:?}");
        }
    }

    #[test]
    fn variation_and_summary_lines() {
        assert_eq!(variation_line("変化：12手"), Some(12));
        assert_eq!(variation_line("変化：   3手"), Some(3));
        assert_eq!(variation_line("変化:1手#note"), Some(1));
        assert_eq!(
            summary_line("　まで64手で先手の勝ち"),
            Some("まで64手で先手の勝ち")
        );
    }
}
