//! The shogi family on one table-driven engine: sho shogi, tori shogi,
//! minishogi, Judkins shogi and micro shogi, and modern shogi too (so the bitboard engine in
//! [`Position`](crate::Position) has an independent check).
//!
//! A variant is data ([`Rules`]): its board, its [`PieceDef`] table, its
//! promotion zone, whether it has drops, and how repetition ends. The
//! engine ([`Board`]) reads nothing else. Records of a variant are read by
//! the shared grammars ([`crate::parse::usi::parse_variant`],
//! [`crate::parse::kif::parse_variant`]) into a [`crate::Record`], judged by
//! [`replay`] and written by [`crate::emit::variant`].

mod board;
mod chu;
mod chu_pieces;
mod foul;
mod movegen;
pub mod pieces;
pub mod read;
pub mod replay;

pub use board::{Board, BoardSfenError, VMove};
pub use foul::VariantFoul;
pub use pieces::{PieceDef, Ray};
pub use replay::{NotAVariant, VariantGame};

use std::fmt;

/// A game of the family.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Variant {
    /// Modern shogi, on the table engine (for cross-checking).
    Shogi,
    /// Sho shogi (小将棋): 9×9 with the drunk elephant, no drops.
    Sho,
    /// Tori shogi (禽将棋): 7×7, the birds.
    Tori,
    /// Minishogi (5五将棋): 5×5.
    Mini,
    /// Judkins shogi: 6×6, with drops.
    Judkins,
    /// Micro shogi: 4×5, pieces turning over when they capture.
    Micro,
    /// Chu shogi (中将棋): 12×12, the lion, as lishogi plays it.
    Chu,
}

/// When a piece may (or must) promote.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Promotion {
    /// Moving into, within or out of the zone, as in shogi.
    Zone,
    /// Micro shogi: every capture turns the capturing piece over (a promoted
    /// piece back to its base); nothing else promotes.
    Flip,
    /// Chu shogi, as lishogi has it: entering the zone, or moving with a
    /// capture from or to a zone square; a pawn or lance also on reaching
    /// the last rank. Never compulsory.
    Chu,
}

/// How a fourfold repetition ends when no side checked throughout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RepetitionRule {
    /// A draw (千日手).
    Draw,
    /// The side whose move completed it loses.
    MoverLoses,
    /// Sente loses, whoever repeated.
    SenteLoses,
}

/// Everything the engine knows about a variant.
#[derive(Debug)]
pub struct Rules {
    /// The name used by `--variant` (Fairy-Stockfish's `UCI_Variant`).
    pub name: &'static str,
    /// The Japanese name (`手合割` in KIF).
    pub kanji: &'static str,
    /// Files (columns).
    pub files: u8,
    /// Ranks (rows).
    pub ranks: u8,
    /// Depth of the promotion zone, in ranks.
    pub zone: u8,
    /// Whether captured pieces may be dropped.
    pub drops: bool,
    /// The pieces; indices into this table are the engine's piece ids.
    pub pieces: &'static [PieceDef],
    /// Ids of the table that this variant never has (minishogi's lance and knight).
    pub unused: &'static [u8],
    /// The order hands are written in SFEN (most valuable first).
    pub hand_order: &'static [u8],
    /// The start position.
    pub start: &'static str,
    /// The end of a fourfold repetition without perpetual check.
    pub repetition: RepetitionRule,
    /// When pieces promote.
    pub promotion: Promotion,
    /// Whether a piece in hand may be dropped on its promoted side (micro).
    pub drop_promoted: bool,
    /// Chu shogi's rules: no check rule (a royal may be left attacked), the
    /// lion-trading rules, the last lion capture as SFEN's third field, and
    /// the bare-king ending.
    pub chu: bool,
}

static SHOGI_RULES: Rules = Rules {
    name: "shogi",
    kanji: "平手",
    files: 9,
    ranks: 9,
    zone: 3,
    drops: true,
    pieces: &pieces::SHOGI,
    unused: &[],
    hand_order: &[6, 5, 4, 3, 2, 1, 0],
    start: "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    repetition: RepetitionRule::Draw,
    promotion: Promotion::Zone,
    drop_promoted: false,
    chu: false,
};

static SHO_RULES: Rules = Rules {
    name: "shoshogi",
    kanji: "小将棋",
    files: 9,
    ranks: 9,
    zone: 3,
    drops: false,
    pieces: &pieces::SHO,
    unused: &[],
    hand_order: &[],
    start: "lnsgkgsnl/1r2e2b1/ppppppppp/9/9/9/PPPPPPPPP/1B2E2R1/LNSGKGSNL b - 1",
    repetition: RepetitionRule::Draw,
    promotion: Promotion::Zone,
    drop_promoted: false,
    chu: false,
};

static TORI_RULES: Rules = Rules {
    name: "torishogi",
    kanji: "禽将棋",
    files: 7,
    ranks: 7,
    zone: 2,
    drops: true,
    pieces: &pieces::TORI,
    unused: &[],
    hand_order: &[1, 2, 3, 4, 5, 0],
    start: "rpckcpl/3f3/sssssss/2s1S2/SSSSSSS/3F3/LPCKCPR b - 1",
    repetition: RepetitionRule::MoverLoses,
    promotion: Promotion::Zone,
    drop_promoted: false,
    chu: false,
};

static MINI_RULES: Rules = Rules {
    name: "minishogi",
    kanji: "5五将棋",
    files: 5,
    ranks: 5,
    zone: 1,
    drops: true,
    pieces: &pieces::SHOGI,
    unused: &[1, 2, 9, 10],
    hand_order: &[6, 5, 4, 3, 0],
    start: "rbsgk/4p/5/P4/KGSBR b - 1",
    repetition: RepetitionRule::SenteLoses,
    promotion: Promotion::Zone,
    drop_promoted: false,
    chu: false,
};

static JUDKINS_RULES: Rules = Rules {
    name: "judkins",
    kanji: "ジャドキンズ将棋",
    files: 6,
    ranks: 6,
    zone: 2,
    drops: true,
    pieces: &pieces::SHOGI,
    unused: &[1, 9],
    hand_order: &[6, 5, 4, 3, 2, 0],
    start: "rbnsgk/5p/6/6/P5/KGSNBR b - 1",
    repetition: RepetitionRule::Draw,
    promotion: Promotion::Zone,
    drop_promoted: false,
    chu: false,
};

static MICRO_RULES: Rules = Rules {
    name: "micro",
    kanji: "マイクロ将棋",
    files: 4,
    ranks: 5,
    zone: 0,
    drops: true,
    pieces: &pieces::MICRO,
    unused: &[],
    hand_order: &[3, 2, 1, 0],
    start: "kb+r+l/p3/4/3P/+L+RBK b - 1",
    repetition: RepetitionRule::Draw,
    promotion: Promotion::Flip,
    drop_promoted: true,
    chu: false,
};

static CHU_RULES: Rules = Rules {
    name: "chushogi",
    kanji: "中将棋",
    files: 12,
    ranks: 12,
    zone: 4,
    drops: false,
    pieces: &chu_pieces::CHU,
    unused: &[],
    hand_order: &[],
    start: "lfcsgekgscfl/a1b1txot1b1a/mvrhdqndhrvm/pppppppppppp/3i4i3/12/12/3I4I3/PPPPPPPPPPPP/MVRHDNQDHRVM/A1B1TOXT1B1A/LFCSGKEGSCFL b - 1",
    repetition: RepetitionRule::Draw,
    promotion: Promotion::Chu,
    drop_promoted: false,
    chu: true,
};

impl Variant {
    /// The variants `--variant` names, in documentation order.
    pub const NAMED: [Variant; 6] = [
        Variant::Sho,
        Variant::Tori,
        Variant::Mini,
        Variant::Judkins,
        Variant::Micro,
        Variant::Chu,
    ];

    /// Every variant the engine plays: modern shogi, then [`Variant::NAMED`].
    pub const ALL: [Variant; 7] = {
        let mut all = [Variant::Shogi; 7];
        let mut i = 0;
        while i < Self::NAMED.len() {
            all[i + 1] = Self::NAMED[i];
            i += 1;
        }
        all
    };

    /// The rules of this variant.
    pub fn rules(self) -> &'static Rules {
        match self {
            Variant::Shogi => &SHOGI_RULES,
            Variant::Sho => &SHO_RULES,
            Variant::Tori => &TORI_RULES,
            Variant::Mini => &MINI_RULES,
            Variant::Judkins => &JUDKINS_RULES,
            Variant::Micro => &MICRO_RULES,
            Variant::Chu => &CHU_RULES,
        }
    }

    /// The stable name: `shogi`, `shoshogi`, `torishogi`, `minishogi`,
    /// `judkins`, `micro`, `chushogi`.
    pub fn name(self) -> &'static str {
        self.rules().name
    }

    /// The variant with this name (see [`Variant::name`]; `judkinsshogi` and
    /// `microshogi` are read too).
    pub fn from_name(name: &str) -> Option<Variant> {
        let name = match name.to_ascii_lowercase().as_str() {
            "judkinsshogi" => "judkins".to_string(),
            "microshogi" => "micro".to_string(),
            "chu" => "chushogi".to_string(),
            other => other.to_string(),
        };
        Variant::ALL.into_iter().find(|v| v.name() == name)
    }

    /// The variant named by a KIF `手合割` value, if it names one of the family.
    pub fn from_kanji(value: &str) -> Option<Variant> {
        Variant::NAMED
            .into_iter()
            .find(|v| v.rules().kanji == value.trim())
    }

    /// The start position.
    pub fn start(self) -> Board {
        Board::from_sfen(self, self.rules().start).expect("the built-in start positions are valid")
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Which named variants an SFEN board could belong to: by its board size
/// and its piece letters. A 9×9 board with no elephant fits modern shogi
/// as well as sho shogi; the caller decides what an ambiguous answer means.
pub fn fitting(sfen: &str) -> Vec<Variant> {
    let board = sfen.split_whitespace().next().unwrap_or("");
    Variant::ALL
        .into_iter()
        .filter(|&v| Board::from_sfen(v, &format!("{board} b - 1")).is_ok())
        .collect()
}
