//! The rules a move can break, with the stable codes users' scripts depend on.

use std::fmt;

/// The single rule an illegal move breaks. The [`Rule::code`] strings are stable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Rule {
    /// Starts on an empty square, moves an opponent's piece, or names a piece
    /// other than the one on its origin.
    NoPiece,
    /// Not how that piece moves: wrong direction or distance, a blocked path,
    /// or a capture of its own piece.
    BadMovement,
    /// Drops a piece its side does not hold.
    NotInHand,
    /// Drops onto an occupied square.
    OccupiedDrop,
    /// Promotes outside the zone, or promotes a gold, a king, a promoted piece or a drop.
    BadPromotion,
    /// Leaves a pawn or lance on the last rank, or a knight on the last two.
    DeadPiece,
    /// Drops a pawn on a file where its side already has an unpromoted pawn (二歩).
    Nifu,
    /// Drops a pawn that gives checkmate (打ち歩詰め).
    Uchifuzume,
    /// Leaves or puts its own king in check (王手放置, 自殺手).
    SelfCheck,
    /// Played by the side that is not to move (二手指し).
    WrongTurn,
    /// The fourth repetition reached by a side that checked with every move of the cycle.
    PerpetualCheck,
    /// An entering-king declaration that does not meet the rule.
    FalseDeclaration,
}

impl Rule {
    /// Every rule, in code order.
    pub const ALL: [Rule; 12] = [
        Rule::NoPiece,
        Rule::BadMovement,
        Rule::NotInHand,
        Rule::OccupiedDrop,
        Rule::BadPromotion,
        Rule::DeadPiece,
        Rule::Nifu,
        Rule::Uchifuzume,
        Rule::SelfCheck,
        Rule::WrongTurn,
        Rule::PerpetualCheck,
        Rule::FalseDeclaration,
    ];

    /// The stable code: `no-piece`, `nifu`, `self-check`, …
    pub const fn code(self) -> &'static str {
        match self {
            Rule::NoPiece => "no-piece",
            Rule::BadMovement => "bad-movement",
            Rule::NotInHand => "not-in-hand",
            Rule::OccupiedDrop => "occupied-drop",
            Rule::BadPromotion => "bad-promotion",
            Rule::DeadPiece => "dead-piece",
            Rule::Nifu => "nifu",
            Rule::Uchifuzume => "uchifuzume",
            Rule::SelfCheck => "self-check",
            Rule::WrongTurn => "wrong-turn",
            Rule::PerpetualCheck => "perpetual-check",
            Rule::FalseDeclaration => "false-declaration",
        }
    }

    /// The rule with this code.
    pub fn from_code(code: &str) -> Option<Rule> {
        Rule::ALL.iter().copied().find(|r| r.code() == code)
    }

    /// The Japanese name of the foul.
    pub const fn kanji(self) -> &'static str {
        match self {
            Rule::NoPiece => "駒なし",
            Rule::BadMovement => "駒の動きの反則",
            Rule::NotInHand => "持ち駒なし",
            Rule::OccupiedDrop => "駒のある升への打ち",
            Rule::BadPromotion => "成りの反則",
            Rule::DeadPiece => "行き所のない駒",
            Rule::Nifu => "二歩",
            Rule::Uchifuzume => "打ち歩詰め",
            Rule::SelfCheck => "王手放置",
            Rule::WrongTurn => "二手指し",
            Rule::PerpetualCheck => "連続王手の千日手",
            Rule::FalseDeclaration => "入玉宣言の反則",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}
