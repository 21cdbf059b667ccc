//! Header lines (`key：value`) and the names a 手合割 value may hold.

use crate::parse::ja::token::is_space;
use crate::rules::types::Color;

/// A `key：value` header line split at its first colon (full- or half-width).
///
/// The key must be non-empty and hold no whitespace, so move lines (which
/// contain `:` in their times) and free text are not taken for headers. The
/// value is trimmed of half- and full-width spaces.
pub fn header_line(text: &str) -> Option<(&str, &str)> {
    // A byte scan, not `find([..])`: every unknown line comes here, and a
    // char-pattern search over a 50 MB line was most of a debug run's time.
    // `：` is EF BC 9A; 0xEF is never a continuation byte, so `pos` is a
    // char boundary.
    let b = text.as_bytes();
    let mut from = 0;
    let pos = loop {
        let i = from + b[from..].iter().position(|&c| c == b':' || c == 0xEF)?;
        if b[i] == b':' || b[i + 1..].starts_with(&[0xBC, 0x9A]) {
            break i;
        }
        from = i + 1;
    };
    let key = &text[..pos];
    if key.is_empty() || key.chars().any(is_space) || key.starts_with(['*', '&', '#', '|']) {
        return None;
    }
    let colon_len = if text[pos..].starts_with('：') { 3 } else { 1 };
    Some((key, trim_ja(&text[pos + colon_len..])))
}

/// `s` without leading or trailing half-width or full-width spaces: exactly
/// [`str::trim`], with [`is_space`] as the test.
pub fn trim_ja(s: &str) -> &str {
    s.trim_matches(is_space)
}

/// The side a text starts by naming (`先手`, `下手` for sente; `後手`, `上手`
/// for gote: the handicap giver moves first), and the text after the name.
pub(crate) fn side_prefix(text: &str) -> Option<(Color, &str)> {
    const SIDES: [(&str, Color); 4] = [
        ("先手", Color::Sente),
        ("下手", Color::Sente),
        ("後手", Color::Gote),
        ("上手", Color::Gote),
    ];
    SIDES
        .iter()
        .find_map(|&(word, side)| text.strip_prefix(word).map(|rest| (side, rest)))
}

pub use crate::record::HandicapName;

/// Read a 手合割 value. A trailing `#…` note (hand-written files put them
/// after values) is ignored when the whole value is not a known name.
pub fn handicap_name(value: &str) -> HandicapName {
    let v = trim_ja(value);
    let named = lookup_handicap(v);
    if named != HandicapName::Unknown {
        return named;
    }
    match v.split_once('#') {
        Some((before, _)) => lookup_handicap(trim_ja(before)),
        None => named,
    }
}

fn lookup_handicap(v: &str) -> HandicapName {
    crate::notation::handicap::handicap_name(v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::setup::Handicap;

    #[test]
    fn headers_split_at_either_colon() {
        assert_eq!(header_line("先手：羽生善治　"), Some(("先手", "羽生善治")));
        assert_eq!(header_line("棋戦:NHK杯"), Some(("棋戦", "NHK杯")));
        assert_eq!(
            header_line("場所：81Dojo (ver.2016/03/20)").unwrap().1,
            "81Dojo (ver.2016/03/20)"
        );
        assert_eq!(header_line("   1 ７六歩(77) ( 0:01/00:00:01)"), None);
        assert_eq!(header_line("*コメント：です"), None);
    }

    #[test]
    fn spaces_are_unicode_white_space() {
        for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
            assert_eq!(is_space(c), c.is_whitespace(), "{:?}", c);
            let s = format!("{c}a{c}");
            assert_eq!(trim_ja(&s), s.trim(), "{:?}", c);
        }
    }

    #[test]
    fn side_names() {
        assert_eq!(side_prefix("上手の勝ち"), Some((Color::Gote, "の勝ち")));
        assert_eq!(side_prefix("下手番"), Some((Color::Sente, "番")));
        assert_eq!(side_prefix("手番"), None);
    }

    #[test]
    fn handicap_names() {
        // Trailing blanks and a note are not part of the name.
        for value in ["平手　　", "平手#コメント2"] {
            assert_eq!(
                handicap_name(value),
                HandicapName::Preset(Handicap::Hirate),
                "{value}"
            );
        }
        for h in Handicap::ALL {
            assert_eq!(handicap_name(h.kif_name()), HandicapName::Preset(h));
        }
        assert_eq!(handicap_name("その他　"), HandicapName::Diagram);
        assert_eq!(handicap_name("詰将棋"), HandicapName::Diagram);
        assert!(matches!(handicap_name("両香落ち"), HandicapName::Setup(_)));
        assert!(matches!(handicap_name("歩三兵"), HandicapName::Setup(_)));
        assert_eq!(handicap_name("九枚落ち"), HandicapName::Unknown);
    }
}
