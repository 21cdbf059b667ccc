//! The stable codes kifu reports: why a game ended ([`Reason`]), what the
//! replay found worth saying ([`DiagnosticCode`]) and what a writer could not
//! hold ([`WarningCode`]).
//!
//! Each is a `#[non_exhaustive]` enum whose [`code`](Reason::code) is the
//! string the text and JSON outputs print; the strings never change once
//! released. A new code is one line in the table of its enum below:
//! `/// doc` then `Variant => "the-code",`.

use std::fmt;

/// One enum of codes: the variants, `code()`, `from_code()`, `ALL`,
/// `Display` (the code) and comparison with the code string.
macro_rules! codes {
    (
        $(#[$meta:meta])*
        pub enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident => $code:literal, )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum $name {
            $( $(#[$vmeta])* #[doc = concat!("\n\nCode `", $code, "`.")] $variant, )*
        }

        impl $name {
            /// Every code, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant),*];

            /// The stable string the outputs print.
            pub const fn code(self) -> &'static str {
                match self {
                    $( $name::$variant => $code, )*
                }
            }

            /// The value whose [`code`](Self::code) is `code`.
            pub fn from_code(code: &str) -> Option<$name> {
                Self::ALL.iter().copied().find(|c| c.code() == code)
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.code())
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                self.code() == *other
            }
        }

        impl PartialEq<$name> for &str {
            fn eq(&self, other: &$name) -> bool {
                *self == other.code()
            }
        }
    };
}

codes! {
    /// Why a game ended as it did: [`GameResult::reason`](crate::replay::GameResult::reason).
    pub enum Reason {
        /// A side resigned.
        Resign => "resign",
        /// The side to move is mated, or has no legal move.
        Checkmate => "checkmate",
        /// A foul (hansoku-make), on the board or claimed by the record.
        Foul => "foul",
        /// A fourth repetition: a draw.
        Sennichite => "sennichite",
        /// A correct entering-king declaration.
        Declaration => "declaration",
        /// A side ran out of time.
        TimeUp => "time-up",
        /// Won or lost by default (不戦勝, 不戦敗).
        ByDefault => "default",
        /// A king reached the opponent's king square (トライルール).
        Try => "try",
        /// Impasse (持将棋).
        Jishogi => "jishogi",
        /// A draw by agreement (引き分け).
        Draw => "draw",
        /// The move limit was reached.
        MaxMoves => "max-moves",
        /// The game was interrupted, sealed or stopped by an error.
        Interrupted => "interrupted",
        /// A tsume problem declared to have no mate (不詰).
        NoMate => "no-mate",
        /// No result: the moves ran out, or the replay stopped early.
        NoResult => "none",
        /// The side to move has no legal move and is not in check.
        NoLegalMove => "no-legal-move",
        /// A variant game in which a side lost its last royal piece.
        RoyalCaptured => "royal-captured",
        /// A variant game ended by a repetition its rules score as a loss
        /// (tori shogi: sente loses).
        Repetition => "repetition",
        /// A chu shogi game in which a side was left with a bare king.
        BareKing => "bare-king",
    }
}

codes! {
    /// What a replay found worth telling that is not a foul:
    /// [`Diagnostic::code`](crate::replay::Diagnostic::code).
    pub enum DiagnosticCode {
        /// The start position breaks a rule but can still be played from.
        IrregularStart => "irregular-start",
        /// The closing line (`まで…手`) counts different moves than the replay.
        ClosingCountDisagrees => "closing-count-disagrees",
        /// The closing line names another winner than the replay.
        ClosingWinnerDisagrees => "closing-winner-disagrees",
        /// Moves are written after a checkmate.
        MovesAfterCheckmate => "moves-after-checkmate",
        /// A move fits more than one piece; the line stops there.
        AmbiguousMove => "ambiguous-move",
        /// A move cannot be placed on the board (同 with no previous move);
        /// the line stops there.
        BadNotation => "bad-notation",
        /// The recorded ending is not what the board shows.
        EndingDisagrees => "ending-disagrees",
        /// The record claims a mate the board does not show.
        FalseMateClaim => "false-mate-claim",
        /// The record claims a repetition that did not happen.
        FalseSennichiteClaim => "false-sennichite-claim",
        /// The record ends by the move limit, but its moves are not as many
        /// as the limit it names.
        FalseMaxMovesClaim => "false-max-moves-claim",
        /// The record claims a foul its moves do not show.
        UnverifiedFoulClaim => "unverified-foul-claim",
        /// Moves are written after the foul that ended the line.
        MovesAfterFoul => "moves-after-foul",
        /// Moves are written after the fourth repetition ended the game.
        MovesAfterEnd => "moves-after-end",
        /// Moves are written after the point where the replay stopped.
        MovesNotReplayed => "moves-not-replayed",
        /// Variations branch after the point where the replay of their line
        /// ended: there is no position to play them from.
        VariationsNotReplayed => "variations-not-replayed",
        /// A CSA `V` line with no version number.
        BareVersion => "bare-version",
        /// CSA game information written after the start position.
        InfoAfterPosition => "info-after-position",
        /// A CSA start position with no side-to-move line.
        NoSideToMove => "no-side-to-move",
        /// A CSA game with no start position: the even-game start is assumed.
        StartAssumed => "start-assumed",
    }
}

codes! {
    /// What a writer could not hold, or had to change:
    /// [`Warning::code`](crate::emit::Warning::code).
    pub enum WarningCode {
        /// Variations dropped: the format has none.
        VariationsDropped => "variations-dropped",
        /// A variation branching after a move that was not replayed cannot be
        /// written as a game of its own (`--split-variations`).
        VariationSkipped => "variation-skipped",
        /// The foul move is kept as a comment.
        FoulMoveCommented => "foul-move-commented",
        /// Moves that are not legal plies are not written (USI).
        MovesOmitted => "moves-omitted",
        /// Moves after a foul are not replayed; JKF keeps them as a comment.
        MovesAfterFoul => "moves-after-foul",
        /// Moves after a foul are kept as a comment.
        MovesAfterFoulCommented => "moves-after-foul-commented",
        /// Moves after the end of play are kept as a comment.
        MovesAfterEndCommented => "moves-after-end-commented",
        /// Moves the replay did not reach are kept as a comment.
        MovesNotReplayedCommented => "moves-not-replayed-commented",
        /// Bookmarks dropped.
        BookmarksDropped => "bookmarks-dropped",
        /// Comments dropped.
        CommentsDropped => "comments-dropped",
        /// Header fields dropped.
        HeaderDropped => "header-dropped",
        /// Header fields kept as comments.
        HeaderAsComment => "header-as-comment",
        /// A header key appears again; the first is kept.
        HeaderDuplicate => "header-duplicate",
        /// Notes dropped.
        NotesDropped => "notes-dropped",
        /// Notes kept as comments.
        NotesAsComments => "notes-as-comments",
        /// Evaluations dropped.
        EvaluationsDropped => "evaluations-dropped",
        /// Times dropped.
        TimesDropped => "times-dropped",
        /// Sub-second times rounded to whole seconds.
        SubsecondTime => "subsecond-time",
        /// The start position's move number cannot be written.
        MoveNumberDropped => "move-number-dropped",
        /// The ending is not written.
        EndingDropped => "ending-dropped",
        /// The format has no word for the ending: another is written.
        EndingChanged => "ending-changed",
        /// The recorded ending is replaced: the line ends with a foul.
        EndingReplaced => "ending-replaced",
        /// The ending is not in the CSA version written.
        EndingNotInVersion => "ending-not-in-version",
        /// A character the encoding cannot hold was replaced.
        UnencodableChar => "unencodable-char",
        /// Variations nest deeper than a JSON reader can read back.
        DeepNesting => "deep-nesting",
        /// Several games written one after another to one output.
        GamesConcatenated => "games-concatenated",
        /// Only the readable part of a record with a syntax error was written (`--lenient`).
        PartialGame => "partial-game",
        /// A training-data writer (HCPE, PSV) wrote nothing: the game has no known result.
        ResultUnknown => "result-unknown",
        /// A training-data writer (HCPE, PSV) cannot encode the position (a handicap or diagram start).
        PositionNotEncodable => "position-not-encodable",
        /// An evaluation was clamped to the 16-bit range of the training-data format.
        EvalClamped => "eval-clamped",
    }
}

impl Reason {
    /// Whether a game that ended for this reason with no winner is a draw
    /// (rather than unfinished: interrupted, or no result recorded).
    pub fn is_draw(self) -> bool {
        matches!(
            self,
            Reason::Sennichite | Reason::Jishogi | Reason::Draw | Reason::MaxMoves
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_table<T: Copy + Eq + fmt::Debug>(
        all: &[T],
        code: fn(T) -> &'static str,
        from: fn(&str) -> Option<T>,
    ) {
        let mut seen = std::collections::HashSet::new();
        for &c in all {
            assert!(seen.insert(code(c)), "{c:?}: code {} used twice", code(c));
            assert_eq!(from(code(c)), Some(c));
        }
    }

    #[test]
    fn every_code_is_distinct_and_found_again_by_from_code() {
        check_table(Reason::ALL, Reason::code, Reason::from_code);
        check_table(
            DiagnosticCode::ALL,
            DiagnosticCode::code,
            DiagnosticCode::from_code,
        );
        check_table(WarningCode::ALL, WarningCode::code, WarningCode::from_code);
        assert_eq!(Reason::from_code("no-such-code"), None);
    }

    #[test]
    fn a_code_prints_and_compares_as_its_string() {
        assert_eq!(Reason::NoResult.to_string(), "none");
        assert_eq!(Reason::ByDefault, "default");
        assert_eq!("moves-after-foul", DiagnosticCode::MovesAfterFoul);
        assert_ne!(WarningCode::VariationsDropped, "variation-skipped");
    }
}
