//! The names the formats give sides, pieces and squares: CSA codes and
//! signs, KIF/KI2 and BOD kanji, SFEN letters, and the digits KIF writes
//! squares with. One table each, which every reader and writer shares.

use crate::rules::types::{Color, PieceKind};
use std::fmt;

/// CSA codes, indexed by `PieceKind as usize`.
const CSA_NAMES: [&str; 14] = [
    "FU", "KY", "KE", "GI", "KI", "KA", "HI", "OU", "TO", "NY", "NK", "NG", "UM", "RY",
];
/// [`CSA_NAMES`] as two-byte numbers, which [`PieceKind::from_csa`]
/// searches: one comparison a code instead of a string comparison.
const CSA_CODES: [u16; 14] = {
    let mut t = [0u16; 14];
    let mut i = 0;
    while i < 14 {
        let b = CSA_NAMES[i].as_bytes();
        t[i] = u16::from_be_bytes([b[0], b[1]]);
        i += 1;
    }
    t
};
/// KIF move names, indexed by kind.
const KIF_NAMES: [&str; 14] = [
    "歩", "香", "桂", "銀", "金", "角", "飛", "玉", "と", "成香", "成桂", "成銀", "馬", "龍",
];
/// One-character names used in BOD cells, indexed by kind.
const BOD_NAMES: [char; 14] = [
    '歩', '香', '桂', '銀', '金', '角', '飛', '玉', 'と', '杏', '圭', '全', '馬', '龍',
];
/// SFEN letters (sente, upper case) of the unpromoted base kind.
const SFEN_LETTERS: [u8; 8] = [b'P', b'L', b'N', b'S', b'G', b'B', b'R', b'K'];

impl Color {
    /// The CSA sign: `+` or `-`.
    pub const fn csa_sign(self) -> char {
        match self {
            Color::Sente => '+',
            Color::Gote => '-',
        }
    }

    /// The KI2 mark: `▲` or `△`.
    pub const fn mark(self) -> char {
        match self {
            Color::Sente => '▲',
            Color::Gote => '△',
        }
    }

    /// 先手 or 後手.
    pub const fn kanji(self) -> &'static str {
        match self {
            Color::Sente => "先手",
            Color::Gote => "後手",
        }
    }
}

impl PieceKind {
    /// The CSA code, e.g. `FU`.
    pub const fn csa(self) -> &'static str {
        CSA_NAMES[self as usize]
    }

    /// Parse a CSA code such as `FU` or `RY`: the kind whose
    /// [`PieceKind::csa`] name it is.
    #[inline]
    pub fn from_csa(s: &[u8]) -> Option<PieceKind> {
        let &[a, b] = s else { return None };
        let code = u16::from_be_bytes([a, b]);
        CSA_CODES
            .iter()
            .position(|&c| c == code)
            .map(|i| PieceKind::ALL[i])
    }

    /// The KIF/KI2 move name (`歩`, `成香`, `龍`, …).
    pub const fn kif(self) -> &'static str {
        KIF_NAMES[self as usize]
    }

    /// The one-character name used in BOD diagrams (`杏`, `圭`, `全`, …).
    pub const fn bod(self) -> char {
        BOD_NAMES[self as usize]
    }

    /// The SFEN letter of this kind for `color`, with `+` for promoted kinds.
    pub fn sfen(self, color: Color) -> String {
        let base = SFEN_LETTERS[self.unpromoted() as usize];
        let letter = match color {
            Color::Sente => base,
            Color::Gote => base.to_ascii_lowercase(),
        } as char;
        if self.is_promoted() {
            format!("+{letter}")
        } else {
            letter.to_string()
        }
    }

    /// The upper-case SFEN/USI letter of the unpromoted base kind (`P`, `K`, …).
    pub const fn usi_letter(self) -> u8 {
        SFEN_LETTERS[self.unpromoted() as usize]
    }

    /// The unpromoted kind and colour of an SFEN letter (`P` sente pawn, `k` gote king).
    pub fn from_sfen_letter(c: u8) -> Option<(PieceKind, Color)> {
        let color = if c.is_ascii_uppercase() {
            Color::Sente
        } else {
            Color::Gote
        };
        let up = c.to_ascii_uppercase();
        SFEN_LETTERS
            .iter()
            .position(|&l| l == up)
            .map(|i| (PieceKind::ALL[i], color))
    }
}

impl fmt::Display for PieceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.csa())
    }
}

/// Full-width digit (１…９) for a file, as KIF/KI2 write destinations.
pub const fn zenkaku_digit(n: u8) -> char {
    match n {
        1 => '１',
        2 => '２',
        3 => '３',
        4 => '４',
        5 => '５',
        6 => '６',
        7 => '７',
        8 => '８',
        _ => '９',
    }
}

/// Kanji numeral (一…九) for a rank.
pub const fn kanji_digit(n: u8) -> char {
    match n {
        1 => '一',
        2 => '二',
        3 => '三',
        4 => '四',
        5 => '五',
        6 => '六',
        7 => '七',
        8 => '八',
        _ => '九',
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csa_codes_read_back_as_their_kinds() {
        for k in PieceKind::ALL {
            assert_eq!(PieceKind::from_csa(k.csa().as_bytes()), Some(k));
        }
        assert_eq!(PieceKind::from_csa(b"RY"), Some(PieceKind::Dragon));
        assert_eq!(PieceKind::from_csa(b"XX"), None);
    }
}
