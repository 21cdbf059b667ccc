//! Terminal words: what a move line or a KI2 token may hold in place of a
//! move to end the line of play (`投了`, `中断`, 81Dojo's `Time-up`, …).

use crate::record::EndingKind;

/// The ending kind of a terminal word written in a KIF move line or a KI2
/// line, including the English words 81Dojo writes (`Time-up`, `Resign`, …).
pub fn ending_kind(word: &str) -> Option<EndingKind> {
    use EndingKind::*;
    Some(match word {
        "投了" => Resign,
        "中断" => Interrupt,
        "千日手" => Sennichite,
        "持将棋" => Jishogi,
        "切れ負け" | "時間切れ" => TimeUp,
        "反則勝ち" => FoulByPrevious,
        "反則負け" => FoulByMover,
        "詰み" | "詰" => Tsumi,
        "不詰" => Fuzumi,
        "入玉勝ち" | "入玉宣言" => Kachi,
        "封じ手" => Sealed,
        "不戦勝" => DefaultWin,
        "不戦敗" => DefaultLoss,
        "トライ" => Try,
        _ => return english_ending(word),
    })
}

fn english_ending(word: &str) -> Option<EndingKind> {
    use EndingKind::*;
    // 81Dojo's English client writes these; `Time-up` is in the corpus
    // (kif/mog-core-scala/game/002.kif), the others follow its spelling.
    Some(match word.to_ascii_lowercase().as_str() {
        "time-up" | "timeup" | "time up" => TimeUp,
        "resign" | "resigns" => Resign,
        "abort" | "interrupt" | "suspend" => Interrupt,
        "sennichite" | "repetition" => Sennichite,
        "jishogi" | "impasse" => Jishogi,
        "checkmate" | "mate" | "tsumi" => Tsumi,
        "illegal move" | "illegal-move" => FoulByMover,
        "declaration" | "entering king" => Kachi,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn japanese_and_english_terminal_words() {
        assert_eq!(ending_kind("投了"), Some(EndingKind::Resign));
        assert_eq!(ending_kind("Time-up"), Some(EndingKind::TimeUp));
        assert_eq!(ending_kind("反則勝ち"), Some(EndingKind::FoulByPrevious));
        assert_eq!(ending_kind("７六歩"), None);
    }
}
