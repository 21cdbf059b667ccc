//! The names of the start positions: every 手合割 a KIF/KI2 file may
//! write, with each preset's JKF code, CSA `PI` squares, SFEN and JSON
//! name. One table: the readers and the writers take their names here.

use crate::record::HandicapName;
use crate::rules::setup::{Handicap, Setup};

/// (preset, KIF name, JKF preset, CSA PI suffix, SFEN)
const PRESETS: [(Handicap, &str, &str, &str, &str); 16] = [
    (
        Handicap::Hirate,
        "平手",
        "HIRATE",
        "",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    ),
    (
        Handicap::Lance,
        "香落ち",
        "KY",
        "11KY",
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        Handicap::RightLance,
        "右香落ち",
        "KY_R",
        "91KY",
        "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        Handicap::Bishop,
        "角落ち",
        "KA",
        "22KA",
        "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        Handicap::Rook,
        "飛車落ち",
        "HI",
        "82HI",
        "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        Handicap::RookLance,
        "飛香落ち",
        "HIKY",
        "82HI11KY",
        "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        Handicap::TwoPieces,
        "二枚落ち",
        "2",
        "82HI22KA",
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        Handicap::ThreePieces,
        "三枚落ち",
        "3",
        "82HI22KA11KY",
        "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        Handicap::FourPieces,
        "四枚落ち",
        "4",
        "82HI22KA11KY91KY",
        "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        Handicap::FivePieces,
        "五枚落ち",
        "5",
        "82HI22KA11KY91KY81KE",
        "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        Handicap::LeftFivePieces,
        "左五枚落ち",
        "5_L",
        "82HI22KA11KY91KY21KE",
        "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        Handicap::SixPieces,
        "六枚落ち",
        "6",
        "82HI22KA11KY91KY21KE81KE",
        "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        Handicap::LeftSevenPieces,
        "左七枚落ち",
        "7_L",
        "82HI22KA11KY91KY21KE81KE31GI",
        "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        Handicap::RightSevenPieces,
        "右七枚落ち",
        "7_R",
        "82HI22KA11KY91KY21KE81KE71GI",
        "3gkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        Handicap::EightPieces,
        "八枚落ち",
        "8",
        "82HI22KA11KY91KY21KE81KE31GI71GI",
        "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        Handicap::TenPieces,
        "十枚落ち",
        "10",
        "82HI22KA11KY91KY21KE81KE31GI71GI41KI61KI",
        "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
];

/// 手合割 names that are no preset: a position of their own (SFENs by the
/// usual definitions, 上手 = gote, who moves first), or "a diagram follows".
const OTHER_NAMES: [(&str, Option<&str>); 9] = [
    (
        "両香落ち",
        Some("1nsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ),
    (
        "裸玉",
        Some("4k4/9/9/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ),
    (
        "歩三兵",
        Some("4k4/9/9/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w 3p 1"),
    ),
    (
        "トンボ",
        Some("4k4/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ),
    ("その他", None),
    ("詰将棋", None),
    ("双玉詰将棋", None),
    ("任意", None),
    ("", None),
];

/// Other spellings of preset names, and the name each stands for.
const ALIASES: [(&str, &str); 4] = [
    ("飛落ち", "飛車落ち"),
    ("香落", "香落ち"),
    ("平手戦", "平手"),
    ("七枚落ち", "右七枚落ち"),
];

impl Handicap {
    fn row(
        self,
    ) -> &'static (
        Handicap,
        &'static str,
        &'static str,
        &'static str,
        &'static str,
    ) {
        PRESETS
            .iter()
            .find(|r| r.0 == self)
            .expect("every preset has a row")
    }

    /// The KIF 手合割 name, e.g. `香落ち`.
    pub fn kif_name(self) -> &'static str {
        self.row().1
    }

    /// The JKF preset code, e.g. `KY`.
    pub fn jkf_name(self) -> &'static str {
        self.row().2
    }

    /// The pieces a CSA `PI` line removes, e.g. `82HI22KA` (empty for 平手).
    pub fn csa_removed(self) -> &'static str {
        self.row().3
    }

    /// The start SFEN.
    pub fn sfen(self) -> &'static str {
        self.row().4
    }

    /// The stable English name used in JSON: `hirate`, `lance`, `two-pieces`, …
    pub fn name(self) -> &'static str {
        match self {
            Handicap::Hirate => "hirate",
            Handicap::Lance => "lance",
            Handicap::RightLance => "right-lance",
            Handicap::Bishop => "bishop",
            Handicap::Rook => "rook",
            Handicap::RookLance => "rook-lance",
            Handicap::TwoPieces => "two-pieces",
            Handicap::ThreePieces => "three-pieces",
            Handicap::FourPieces => "four-pieces",
            Handicap::FivePieces => "five-pieces",
            Handicap::LeftFivePieces => "left-five-pieces",
            Handicap::SixPieces => "six-pieces",
            Handicap::LeftSevenPieces => "left-seven-pieces",
            Handicap::RightSevenPieces => "right-seven-pieces",
            Handicap::EightPieces => "eight-pieces",
            Handicap::TenPieces => "ten-pieces",
        }
    }

    /// The preset a KIF 手合割 value names (also accepting common spellings).
    pub fn from_kif_name(name: &str) -> Option<Handicap> {
        let name = name.trim();
        let name = ALIASES
            .iter()
            .find(|(alias, _)| *alias == name)
            .map_or(name, |(_, n)| n);
        PRESETS.iter().find(|r| r.1 == name).map(|r| r.0)
    }

    /// The preset with this JKF code.
    pub fn from_jkf_name(name: &str) -> Option<Handicap> {
        PRESETS.iter().find(|r| r.2 == name).map(|r| r.0)
    }
}

/// What a 手合割 value names: a preset (in any of its spellings), another
/// position, a diagram to follow, or nothing kifu knows.
pub fn handicap_name(value: &str) -> HandicapName {
    if let Some(h) = Handicap::from_kif_name(value) {
        return HandicapName::Preset(h);
    }
    match OTHER_NAMES.iter().find(|(name, _)| *name == value) {
        Some((_, Some(sfen))) => match Setup::from_sfen(sfen) {
            Ok(s) => HandicapName::Setup(Box::new(s)),
            Err(_) => HandicapName::Unknown,
        },
        Some((_, None)) => HandicapName::Diagram,
        None => HandicapName::Unknown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::types::PieceKind;

    #[test]
    fn presets_round_trip_and_are_recognised() {
        // The SFEN key (board, side, hands; not the move number) decides.
        let by_key = |s: &Setup| {
            let key = s.sfen_key();
            Handicap::ALL
                .into_iter()
                .find(|h| h.sfen().rsplit_once(' ').map(|(k, _)| k) == Some(key.as_str()))
        };
        for h in Handicap::ALL {
            let s = h.setup();
            assert_eq!(s.to_sfen(), h.sfen());
            assert_eq!(s.preset(), Some(h));
            let mut s = s.clone();
            s.move_number = 7;
            assert_eq!((s.preset(), by_key(&s)), (Some(h), Some(h)));
            s.side_to_move = s.side_to_move.flip();
            assert_eq!(s.preset(), by_key(&s));
            s.hands[0].add(PieceKind::Pawn);
            assert_eq!(s.preset(), by_key(&s));
            assert_eq!(s.preset(), None);
            assert_eq!(Handicap::from_kif_name(h.kif_name()), Some(h));
            assert_eq!(Handicap::from_jkf_name(h.jkf_name()), Some(h));
        }
    }

    #[test]
    fn every_name_reads_as_what_it_names() {
        for (name, named) in [
            ("七枚落ち", HandicapName::Preset(Handicap::RightSevenPieces)),
            ("飛落ち", HandicapName::Preset(Handicap::Rook)),
            ("詰将棋", HandicapName::Diagram),
            ("五五将棋", HandicapName::Unknown),
        ] {
            assert_eq!(handicap_name(name), named, "{name}");
        }
        for (name, sfen) in OTHER_NAMES {
            if let Some(sfen) = sfen {
                let HandicapName::Setup(s) = handicap_name(name) else {
                    panic!("{name}");
                };
                assert_eq!(s.to_sfen(), sfen, "{name}");
                assert_eq!(s.preset(), None, "{name}");
            }
        }
    }
}
