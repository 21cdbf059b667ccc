//! Numerals: kanji (`十八`), full-width (`１８`) and ASCII digits, and the
//! file and rank digits of a square.

/// The value of a kanji numeral at the start of `s` (`二`, `十`, `十八`, up to
/// 99) and the bytes read. Also reads ASCII and full-width digits.
pub fn numeral_prefix(s: &str) -> Option<(u32, usize)> {
    let mut value: Option<u32> = None;
    let mut tens: Option<u32> = None;
    let mut used = 0;
    for c in s.chars() {
        if c == '十' {
            if tens.is_some() {
                break;
            }
            tens = Some(value.take().unwrap_or(1));
        } else if let Some(d) = digit_value(c) {
            // A second plain digit continues a positional number (１８, 18).
            value = Some(match value {
                Some(v) if tens.is_none() && !is_kanji_digit(c) => {
                    v.checked_mul(10)?.checked_add(d)?
                }
                Some(_) => break,
                None => d,
            });
        } else {
            break;
        }
        used += c.len_utf8();
    }
    if used == 0 {
        return None;
    }
    let total = tens
        .unwrap_or(0)
        .saturating_mul(10)
        .saturating_add(value.unwrap_or(0));
    Some((total, used))
}

fn is_kanji_digit(c: char) -> bool {
    kanji_digit_value(c).is_some()
}

fn kanji_digit_value(c: char) -> Option<u32> {
    // A match, not a search of "〇一…九": every KIF destination rank comes here.
    Some(match c {
        '〇' => 0,
        '一' => 1,
        '二' => 2,
        '三' => 3,
        '四' => 4,
        '五' => 5,
        '六' => 6,
        '七' => 7,
        '八' => 8,
        '九' => 9,
        _ => return None,
    })
}

fn digit_value(c: char) -> Option<u32> {
    kanji_digit_value(c).or_else(|| zenkaku_value(c).map(u32::from))
}

/// The value of a kanji rank `一`…`九`.
pub fn kanji_rank(c: char) -> Option<u8> {
    match kanji_digit_value(c) {
        Some(v @ 1..=9) => Some(v as u8),
        _ => None,
    }
}

/// The value of a file digit: full-width `１`…`９`, or half-width `1`…`9`
/// (old exporters).
pub fn file_digit(c: char) -> Option<u8> {
    zenkaku_value(c).filter(|&v| v >= 1)
}

fn zenkaku_value(c: char) -> Option<u8> {
    match c {
        '０'..='９' => Some((c as u32 - '０' as u32) as u8),
        '0'..='9' => Some(c as u8 - b'0'),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numerals() {
        assert_eq!(numeral_prefix("十八　"), Some((18, 6)));
        assert_eq!(numeral_prefix("二"), Some((2, 3)));
        assert_eq!(numeral_prefix("十"), Some((10, 3)));
        assert_eq!(numeral_prefix("二十"), Some((20, 6)));
        assert_eq!(numeral_prefix("18手"), Some((18, 2)));
        assert_eq!(numeral_prefix("１２"), Some((12, 6)));
        assert_eq!(numeral_prefix("歩"), None);
        // Overflow is refused, never a panic.
        assert_eq!(numeral_prefix("4294967299"), None);
        assert!(numeral_prefix("4294967295十九").is_some());
        assert_eq!(kanji_rank('九'), Some(9));
        assert_eq!(file_digit('７'), Some(7));
        assert_eq!(file_digit('7'), Some(7));
    }
}
