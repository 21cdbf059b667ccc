//! What a file says about one game, as syntax only.
//!
//! A [`Record`] is produced by a parser and never judged: moves stay in the
//! notation they were written in, and each part carries its [`Location`] so the
//! replayer can point at the exact line and column of a foul.

use crate::rules::setup::{Handicap, Setup};
use crate::rules::types::{Color, Move, PieceKind, Square};
use std::fmt;

mod floodgate;
pub(crate) mod header;
pub use header::{HeaderKey, SPELLINGS, Spelling};

/// A record format kifu reads or writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Format {
    /// Kakinoki KIF (`.kif` CP932, `.kifu` UTF-8).
    Kif,
    /// Kakinoki KI2 (`.ki2`, `.ki2u`).
    Ki2,
    /// CSA standard record (`.csa`).
    Csa,
    /// USI `position … moves …` lines (`.usi`, `.sfen`).
    Usi,
    /// JSON Kifu Format (`.jkf`).
    Jkf,
}

impl Format {
    /// The stable lowercase name: `kif`, `ki2`, `csa`, `usi`, `jkf`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Kif => "kif",
            Format::Ki2 => "ki2",
            Format::Csa => "csa",
            Format::Usi => "usi",
            Format::Jkf => "jkf",
        }
    }

    /// The format a file extension suggests (a hint only: content is sniffed too).
    pub fn from_extension(ext: &str) -> Option<Format> {
        match ext.to_ascii_lowercase().as_str() {
            "kif" | "kifu" => Some(Format::Kif),
            "ki2" | "ki2u" => Some(Format::Ki2),
            "csa" => Some(Format::Csa),
            "usi" | "sfen" => Some(Format::Usi),
            "jkf" | "json" => Some(Format::Jkf),
            _ => None,
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One point in a text, not a range: where something was written, as the
/// byte offset into the decoded text and the 1-based line and column (in
/// characters) it starts at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Location {
    /// Byte offset into the decoded text.
    pub offset: usize,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, counted in characters.
    pub column: u32,
}

impl Location {
    /// The location `line`:`column`, at byte `offset`.
    pub const fn new(offset: usize, line: u32, column: u32) -> Location {
        Location {
            offset,
            line,
            column,
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// One header line, e.g. `先手：羽生善治` or `$EVENT:…`, in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderField {
    /// The key as written (`先手`, `EVENT`, `N+`, …).
    pub key: String,
    /// The value as written.
    pub value: String,
    /// Where the line starts.
    pub span: Location,
}

impl HeaderField {
    /// What the key means ([`HeaderKey::of`] the key as written).
    pub fn name(&self) -> HeaderKey {
        HeaderKey::of(&self.key)
    }

    /// Whether the key means one of `keys`; no allocation for a key outside
    /// the table.
    pub fn is(&self, keys: &[HeaderKey]) -> bool {
        match header::spelling_of(&self.key) {
            Some(s) => keys.contains(&s.key),
            None => keys
                .iter()
                .any(|k| matches!(k, HeaderKey::Other(o) if *o == self.key)),
        }
    }

    /// This key's row of [`SPELLINGS`], if it has one.
    pub fn spelling(&self) -> Option<&'static Spelling> {
        header::spelling_of(&self.key)
    }
}

/// The start position of a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPosition {
    /// A named preset (平手, a handicap, CSA `PI…`, USI `startpos`).
    Preset(Handicap),
    /// A position written out (BOD, CSA `P1`…`P9`/`P±`, SFEN, JKF data).
    Setup(Box<Setup>),
    /// The start of a game of another of the family ([`crate::variant`]):
    /// its variant's own start or a position written out (a variant SFEN,
    /// KIF's `#SFEN:` line).
    Variant(Box<crate::variant::Board>),
}

impl StartPosition {
    /// The shogi setup this start describes; `None` for a variant's board.
    pub fn setup(&self) -> Option<Setup> {
        match self {
            StartPosition::Preset(h) => Some(h.setup()),
            StartPosition::Setup(s) => Some((**s).clone()),
            StartPosition::Variant(_) => None,
        }
    }

    /// The preset this start is, if it is one (a written-out setup may be
    /// one too); `None` for a variant's board.
    pub fn preset(&self) -> Option<Handicap> {
        match self {
            StartPosition::Preset(h) => Some(*h),
            StartPosition::Setup(s) => s.preset(),
            StartPosition::Variant(_) => None,
        }
    }
}

impl Default for StartPosition {
    fn default() -> Self {
        StartPosition::Preset(Handicap::Hirate)
    }
}

/// Where a KIF/KI2 move goes: a square, or `同` (the previous destination).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dest {
    /// A square written out.
    Square(Square),
    /// `同`: the square of the previous move.
    Same,
}

/// KI2/JKF relative-position words, as a set of flags (`左上` is LEFT | UP).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Relative(pub u8);

impl Relative {
    /// No modifier.
    pub const NONE: Relative = Relative(0);
    /// 右 (JKF `R`): the piece on the mover's right.
    pub const RIGHT: Relative = Relative(1);
    /// 左 (JKF `L`).
    pub const LEFT: Relative = Relative(2);
    /// 直 (JKF `C`): straight forward.
    pub const STRAIGHT: Relative = Relative(4);
    /// 上 / 行 / 入 (JKF `U`): moving forward.
    pub const UP: Relative = Relative(8);
    /// 引 (JKF `D`): moving backward.
    pub const DOWN: Relative = Relative(16);
    /// 寄 (JKF `M`): moving sideways.
    pub const SIDEWAYS: Relative = Relative(32);
    /// 打 (JKF `H`): a drop, written because a board piece could also go there.
    pub const DROP: Relative = Relative(64);

    /// Whether every flag of `other` is set.
    pub const fn contains(self, other: Relative) -> bool {
        self.0 & other.0 == other.0
    }

    /// Whether no flag is set.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

impl std::ops::BitOr for Relative {
    type Output = Relative;
    fn bitor(self, rhs: Relative) -> Relative {
        Relative(self.0 | rhs.0)
    }
}

impl std::ops::BitOrAssign for Relative {
    fn bitor_assign(&mut self, rhs: Relative) {
        self.0 |= rhs.0;
    }
}

/// A move as written, in its format's own notation, not yet resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notation {
    /// A USI move (`7g7f`, `P*5e`); colour is implied by the turn.
    Usi(Move),
    /// A CSA move: `+7776FU`. The piece is the one **after** the move.
    Csa {
        /// The sign written (`+` sente, `-` gote).
        color: Color,
        /// Origin, or `None` for `00` (a drop).
        from: Option<Square>,
        /// Destination.
        to: Square,
        /// The piece after the move.
        piece: PieceKind,
    },
    /// A KIF move (`７六歩(77)`, `同　銀成(31)`, `５五角打`); also used for JKF
    /// moves, which carry the same information.
    Kif {
        /// The colour, when the format states it (JKF `color`).
        color: Option<Color>,
        /// Destination or `同`.
        dest: Dest,
        /// The piece **before** the move.
        piece: PieceKind,
        /// `Some(true)` for 成, `Some(false)` for 不成/生, `None` when silent.
        promote: Option<bool>,
        /// Origin; `None` for a drop (打) or when the origin was not written.
        from: Option<Square>,
        /// Whether 打 was written.
        drop: bool,
    },
    /// A USI move of another of the family (`3e3d`, chu shogi's
    /// `7g6f5e`), on its board's cells ([`crate::variant::Board`]).
    VariantUsi(crate::variant::VMove),
    /// A KIF move of another of the family (`３四燕(35)`, `同　鷹成(44)`,
    /// `２三燕打`): cells and a piece id of its board's table.
    VariantKif {
        /// The destination cell, or `None` for `同`.
        to: Option<u8>,
        /// The piece id written (before the move).
        piece: u8,
        /// `Some(true)` for 成, `Some(false)` for 不成/生.
        promote: Option<bool>,
        /// The origin cell; `None` for a drop.
        from: Option<u8>,
        /// Chu shogi's double move (lishogi's `一歩目`/`二歩目` lines): the
        /// cell of the first step, `Some(None)` where it is written `仝`.
        via: Option<Option<u8>>,
    },
    /// A KI2 move (`▲７六歩`, `△同　銀左上成`): no origin, only modifiers.
    Ki2 {
        /// The colour mark written (▲/△/☗/☖), if any.
        color: Option<Color>,
        /// Destination or `同`.
        dest: Dest,
        /// The piece before the move.
        piece: PieceKind,
        /// 右 左 直 上 引 寄 (行/入 read as 上), and 打.
        relative: Relative,
        /// `Some(true)` for 成, `Some(false)` for 不成/生.
        promote: Option<bool>,
    },
}

/// Time taken by a move and the mover's running total, in milliseconds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MoveTime {
    /// Time spent on this move.
    pub spent_ms: Option<u64>,
    /// The mover's total so far, including this move.
    pub total_ms: Option<u64>,
}

/// An engine evaluation a record carries: a floodgate `'** 120 +7776FU
/// -3334FU` line (or the KIF/JKF comment that holds one), or the comments a
/// GUI wrote (ShogiHome `#評価値=…`, ShogiGUI `*対局 … 評価値 …`).
///
/// The reading line is read when the record is, into the notation it is
/// written in: writers and the analysis JSON take the moves as they are.
///
/// ```
/// use kifu::parse::parse;
/// use kifu::record::{Notation, Evaluation};
/// use kifu::{Color, Format, PieceKind, Square};
///
/// let r = parse("PI\n+\n+7776FU\n'** 30 -3334FU\n", Format::Csa)?.remove(0);
/// let e: &Evaluation = r.main.moves[0].eval().unwrap();
/// assert_eq!(e.score, Some(30));
/// assert_eq!(
///     e.pv,
///     [Notation::Csa {
///         color: Color::Gote,
///         from: Square::new(3, 3),
///         to: Square::new(3, 4).unwrap(),
///         piece: PieceKind::Pawn,
///     }]
/// );
/// assert!(e.rest.is_empty());
/// # Ok::<(), kifu::ParseError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Evaluation {
    /// The score as written (from sente's point of view in floodgate logs
    /// and in the GUIs' comments).
    pub score: Option<i64>,
    /// The reading line's moves, up to the first word that is not one:
    /// [`Notation::Csa`] for floodgate lines; for GUI comments
    /// [`Notation::Ki2`], or [`Notation::Kif`] where the origin is written
    /// (`▲７六歩(77)`).
    pub pv: Vec<Notation>,
    /// The words after those moves, as written (a floodgate line may end
    /// in a word that is no move, `#1234` say); kept so that a writer gives
    /// the line back as it came.
    pub rest: Vec<String>,
}

impl Evaluation {
    /// Whether the evaluation says nothing: no score, no move, no word.
    pub fn is_empty(&self) -> bool {
        self.score.is_none() && self.pv.is_empty() && self.rest.is_empty()
    }
}

/// One move of a line, with everything attached to it.
///
/// What nearly every move has (notation, span, number, time) is stored
/// inline; what few moves have (comments, bookmarks, an evaluation,
/// variations) sits behind one pointer, so a move is small to build, move
/// and drop. Read those through [`MoveEntry::comments`] and its siblings,
/// and change them through [`MoveEntry::extra_mut`].
#[derive(Clone, Debug)]
pub struct MoveEntry {
    /// The move as written.
    pub notation: Notation,
    /// Where the move is written.
    pub span: Location,
    /// The move number written in the file (KIF), if any.
    pub number: Option<u32>,
    /// Time, where the format records it.
    pub time: Option<MoveTime>,
    /// Comments, bookmarks, evaluation and variations; `None` while all are
    /// empty.
    extra: Option<Box<MoveExtra>>,
}

/// The rarely present parts of a [`MoveEntry`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveExtra {
    /// Comments attached to the move, in order.
    pub comments: Vec<String>,
    /// Bookmarks (KIF `&` lines).
    pub bookmarks: Vec<String>,
    /// Floodgate `'**` evaluation and PV.
    pub eval: Option<Evaluation>,
    /// The evaluation the comments hold in a GUI's form (ShogiHome
    /// `#評価値=…`/`#読み筋=…`, ShogiGUI `*対局 …`, Kifu for Windows `*解析
    /// …`), read with them; the comments keep the text.
    pub gui_eval: Option<Evaluation>,
    /// Alternatives to this move: each line's first move replaces this one.
    pub variations: Vec<Line>,
}

impl MoveEntry {
    /// A move with nothing attached.
    pub fn new(notation: Notation, span: Location) -> MoveEntry {
        MoveEntry {
            notation,
            span,
            number: None,
            time: None,
            extra: None,
        }
    }

    /// Comments attached to the move, in order.
    pub fn comments(&self) -> &[String] {
        self.extra.as_deref().map_or(&[], |e| &e.comments)
    }

    /// Bookmarks (KIF `&` lines).
    pub fn bookmarks(&self) -> &[String] {
        self.extra.as_deref().map_or(&[], |e| &e.bookmarks)
    }

    /// Floodgate `'**` evaluation and PV.
    pub fn eval(&self) -> Option<&Evaluation> {
        self.extra.as_deref().and_then(|e| e.eval.as_ref())
    }

    /// The evaluation the comments hold in a GUI's form, read with them.
    pub fn gui_eval(&self) -> Option<&Evaluation> {
        self.extra.as_deref().and_then(|e| e.gui_eval.as_ref())
    }

    /// Alternatives to this move: each line's first move replaces this one.
    pub fn variations(&self) -> &[Line] {
        self.extra.as_deref().map_or(&[], |e| &e.variations)
    }

    /// The comments, bookmarks, evaluation and variations, to change; made
    /// (empty) on first use.
    pub fn extra_mut(&mut self) -> &mut MoveExtra {
        self.extra.get_or_insert_with(Box::default)
    }
}

/// Moves are equal when everything written about them is: an extra part
/// made by [`MoveEntry::extra_mut`] and left empty counts as none.
impl PartialEq for MoveEntry {
    fn eq(&self, other: &MoveEntry) -> bool {
        self.notation == other.notation
            && self.span == other.span
            && self.number == other.number
            && self.time == other.time
            && self.comments() == other.comments()
            && self.bookmarks() == other.bookmarks()
            && self.eval() == other.eval()
            && self.gui_eval() == other.gui_eval()
            && self.variations() == other.variations()
    }
}

impl Eq for MoveEntry {}

/// How a line of play ends, as the record states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum EndingKind {
    /// 投了, `%TORYO`: the side to move resigns.
    Resign,
    /// 中断, `%CHUDAN`.
    Interrupt,
    /// 千日手, `%SENNICHITE`.
    Sennichite,
    /// 持将棋, `%JISHOGI`.
    Jishogi,
    /// 切れ負け, `%TIME_UP`: the side to move ran out of time.
    TimeUp,
    /// 反則負け, `%ILLEGAL_MOVE`: the side to move loses by foul.
    FoulByMover,
    /// 反則勝ち: the previous move was a foul; the side to move wins.
    FoulByPrevious,
    /// `%+ILLEGAL_ACTION` / `%-ILLEGAL_ACTION`: the named side committed a foul.
    FoulBy(Color),
    /// 詰み, `%TSUMI`: the side to move is mated.
    Tsumi,
    /// 不詰, `%FUZUMI`.
    Fuzumi,
    /// 入玉勝ち, `%KACHI`: the side to move declares an entering-king win.
    Kachi,
    /// `%HIKIWAKE`: a declared draw.
    Hikiwake,
    /// `%MAX_MOVES`: the move limit was reached.
    MaxMoves,
    /// `%MATTA`.
    Matta,
    /// `%ERROR`.
    Error,
    /// 封じ手: a sealed move.
    Sealed,
    /// 不戦勝: the side to move wins by default.
    DefaultWin,
    /// 不戦敗: the side to move loses by default.
    DefaultLoss,
    /// トライ: the try-rule win.
    Try,
}

/// CSA special words (after `%`), which JKF's `special` also uses.
const CSA_WORDS: [(&str, EndingKind); 15] = [
    ("TORYO", EndingKind::Resign),
    ("CHUDAN", EndingKind::Interrupt),
    ("SENNICHITE", EndingKind::Sennichite),
    ("TIME_UP", EndingKind::TimeUp),
    ("ILLEGAL_MOVE", EndingKind::FoulByMover),
    ("+ILLEGAL_ACTION", EndingKind::FoulBy(Color::Sente)),
    ("-ILLEGAL_ACTION", EndingKind::FoulBy(Color::Gote)),
    ("JISHOGI", EndingKind::Jishogi),
    ("KACHI", EndingKind::Kachi),
    ("HIKIWAKE", EndingKind::Hikiwake),
    ("MAX_MOVES", EndingKind::MaxMoves),
    ("MATTA", EndingKind::Matta),
    ("TSUMI", EndingKind::Tsumi),
    ("FUZUMI", EndingKind::Fuzumi),
    ("ERROR", EndingKind::Error),
];

impl EndingKind {
    /// The ending a CSA special word (`TORYO`, `+ILLEGAL_ACTION`, …, without
    /// the `%`) or a JKF `special` names.
    pub fn from_csa_word(word: &str) -> Option<EndingKind> {
        CSA_WORDS.iter().find(|(w, _)| *w == word).map(|&(_, k)| k)
    }

    /// Every CSA special word with its ending (for the readers' tests).
    #[cfg(test)]
    pub(crate) fn csa_words() -> &'static [(&'static str, EndingKind)] {
        &CSA_WORDS
    }

    /// The CSA special word (without `%`) for this ending, or `None` where
    /// CSA has none: KIF-only endings, and 反則勝ち, which names no side.
    pub fn csa_word(self) -> Option<&'static str> {
        CSA_WORDS.iter().find(|(_, k)| *k == self).map(|&(w, _)| w)
    }

    /// The stable name used in JSON `end.kind`.
    pub fn name(self) -> &'static str {
        match self {
            EndingKind::Resign => "resign",
            EndingKind::Interrupt => "interrupted",
            EndingKind::Sennichite => "sennichite",
            EndingKind::Jishogi => "jishogi",
            EndingKind::TimeUp => "time-up",
            EndingKind::FoulByMover | EndingKind::FoulByPrevious | EndingKind::FoulBy(_) => "foul",
            EndingKind::Tsumi => "checkmate",
            EndingKind::Fuzumi => "no-mate",
            EndingKind::Kachi => "declaration",
            EndingKind::Hikiwake => "draw",
            EndingKind::MaxMoves => "max-moves",
            EndingKind::Matta => "matta",
            EndingKind::Error => "error",
            EndingKind::Sealed => "sealed",
            EndingKind::DefaultWin => "default-win",
            EndingKind::DefaultLoss => "default-loss",
            EndingKind::Try => "try",
        }
    }
}

/// The recorded ending of a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ending {
    /// What kind of ending.
    pub kind: EndingKind,
    /// The text as written (`投了`, `%TORYO`, `Time-up`, …).
    pub text: String,
    /// Where it is written.
    pub span: Location,
    /// Time recorded on the ending line, if any.
    pub time: Option<MoveTime>,
    /// Comments after the ending.
    pub comments: Vec<String>,
}

/// A sequence of moves (the main line or a variation) and how it ends.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Line {
    /// The moves, in order.
    pub moves: Vec<MoveEntry>,
    /// The recorded ending, if any.
    pub ending: Option<Ending>,
    /// Alternatives to the ending: each line's first move is played instead
    /// of the terminal move (`変化：N手` where move N is `投了` or `中断`),
    /// from the position after the line's last move. Empty without an ending.
    pub ending_variations: Vec<Line>,
}

impl Record {
    /// How many variations the record holds, at every depth.
    pub fn variation_count(&self) -> usize {
        let mut count = 0;
        let mut stack = vec![&self.main];
        while let Some(line) = stack.pop() {
            for i in 0..=line.moves.len() {
                let vars = line.variations_at(i);
                count += vars.len();
                stack.extend(vars);
            }
        }
        count
    }
}

impl Line {
    /// The alternatives to move `i` of the line; for `i` equal to the number
    /// of moves, the alternatives to the ending ([`Line::ending_variations`]).
    pub fn variations_at(&self, i: usize) -> &[Line] {
        match self.moves.get(i) {
            Some(m) => m.variations(),
            None if i == self.moves.len() => &self.ending_variations,
            None => &[],
        }
    }

    /// Whether any move of the line, or its ending, has alternatives.
    pub fn has_variations(&self) -> bool {
        !self.ending_variations.is_empty() || self.moves.iter().any(|m| !m.variations().is_empty())
    }
}

/// One game as a file writes it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Record {
    /// The game's index within its file (0-based; CSA files can hold several).
    pub index: usize,
    /// Where the game starts in the file.
    pub span: Location,
    /// Header fields in file order.
    pub header: Vec<HeaderField>,
    /// The start position.
    pub start: StartPosition,
    /// Where the start position is written, if it is.
    pub start_span: Option<Location>,
    /// Comments before the first move.
    pub comments: Vec<String>,
    /// Bookmarks of the start position (KIF/KI2 `&` lines before the first
    /// move, such as `&開始局面`).
    pub bookmarks: Vec<String>,
    /// Lines the format keeps but gives no meaning to (KIF `#` lines, CSA `'`
    /// lines, floodgate `'summary:` lines), verbatim and in order.
    pub notes: Vec<String>,
    /// The main line.
    pub main: Line,
    /// Summary lines such as `まで64手で先手の勝ち`, verbatim.
    pub summary: Vec<String>,
    /// What the first summary line that counts moves states, read.
    pub closing: Option<Closing>,
    /// What the header's (first) 手合割 names, read.
    pub handicap: Option<HandicapName>,
    /// What the parser read by assumption, or found written out of place,
    /// where the file still means a game (a CSA record with no start
    /// position, say); the replay reports each as a diagnostic.
    pub notices: Vec<Notice>,
}

/// The `まで64手で後手の勝ち` line that closes KIF and KI2 records, read:
/// the number of moves it counts, the side it names the winner and the
/// ending its phrase names. The replay checks the count and the winner
/// against the moves, and takes the ending for a main line that has none.
///
/// ```
/// use kifu::parse::parse;
/// use kifu::record::{Closing, EndingKind};
/// use kifu::{Color, Format};
///
/// let r = parse("▲７六歩 △３四歩\nまで2手で後手の勝ち\n", Format::Ki2)?.remove(0);
/// let c: &Closing = r.closing.as_ref().unwrap();
/// assert_eq!((c.moves, c.winner), (2, Some(Color::Gote)));
/// assert_eq!(c.ending, Some(EndingKind::Resign));
/// assert_eq!(c.text, "まで2手で後手の勝ち");
/// # Ok::<(), kifu::ParseError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Closing {
    /// The number of moves it counts (`まで64手` → 64).
    pub moves: u32,
    /// The side it names as the winner, if it names one (`先手の反則負け`
    /// names gote).
    pub winner: Option<Color>,
    /// The ending its phrase names (`ki2.md` §5), when kifu knows it.
    pub ending: Option<EndingKind>,
    /// The line as written, without surrounding spaces.
    pub text: String,
}

/// What a 手合割 value names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HandicapName {
    /// One of the standard presets.
    Preset(Handicap),
    /// A traditional handicap that is not a preset (両香落ち, 裸玉, 歩三兵, トンボ).
    Setup(Box<Setup>),
    /// `その他`, `詰将棋` and similar: the board diagram gives the position.
    Diagram,
    /// A name kifu does not know.
    Unknown,
}

/// How deep JKF forks may nest for kifu's JKF reader to take them: serde_json
/// stops at 128 nested containers and every fork level costs three (the
/// `forks` array, the fork, the entry object). The writer warns above it.
pub const READABLE_FORK_DEPTH: usize = 40;

/// Something a parser noticed about how a record is written that is not a
/// syntax error: reading went on, and the user is told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    /// A stable code such as `start-assumed`.
    pub code: crate::codes::DiagnosticCode,
    /// What was found, and how it was read.
    pub message: String,
    /// Where.
    pub span: Location,
}

impl Record {
    /// The first header value (in file order) whose key means one of `keys`,
    /// whichever format spelled it.
    ///
    /// ```
    /// use kifu::parse::parse;
    /// use kifu::record::HeaderKey;
    /// use kifu::Format;
    ///
    /// let csa = parse("N+Habu\n$EVENT:NHK\nPI\n+\n", Format::Csa)?.remove(0);
    /// let kif = parse("先手：Habu\n棋戦：NHK\n手合割：平手\n", Format::Kif)?.remove(0);
    /// for r in [&csa, &kif] {
    ///     assert_eq!(r.header_get(&[HeaderKey::Sente]), Some("Habu"));
    ///     assert_eq!(r.header_get(&[HeaderKey::Event, HeaderKey::Title]), Some("NHK"));
    /// }
    /// # Ok::<(), kifu::ParseError>(())
    /// ```
    pub fn header_get(&self, keys: &[HeaderKey]) -> Option<&str> {
        self.header
            .iter()
            .find(|h| h.is(keys))
            .map(|h| h.value.as_str())
    }

    /// The first header value whose key is written as one of `keys`.
    pub fn header_value(&self, keys: &[&str]) -> Option<&str> {
        self.header
            .iter()
            .find(|h| keys.contains(&h.key.as_str()))
            .map(|h| h.value.as_str())
    }
}
