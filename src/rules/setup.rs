//! An unchecked description of a position (`Setup`) and the standard presets.
//!
//! Parsers build a `Setup` from whatever the file says (SFEN, BOD, CSA `P1`…)
//! without judging it; [`crate::Position::from_setup`] checks it. Keeping the
//! two apart lets a record with a broken diagram still be read and reported.

use crate::rules::types::{Color, Hand, Piece, PieceKind, Square};
use std::fmt;
use std::sync::LazyLock;

/// A position as written: board, hands, side to move and move number, unchecked.
///
/// [`Position::from_setup`](crate::Position::from_setup) checks it against
/// the rules; a preset is a [`Handicap`]'s setup.
///
/// # Example
///
/// ```
/// use kifu::{Handicap, Position, Setup};
///
/// let two_piece = Handicap::TwoPieces.setup();
/// assert_eq!(two_piece.preset(), Some(Handicap::TwoPieces));
/// let read = Setup::from_sfen(&two_piece.to_sfen()).unwrap();
/// assert_eq!(read, two_piece);
/// assert!(Position::from_setup(&read).is_ok());
///
/// // Two sente kings: a setup can say it, the rules refuse it.
/// let bad = Setup::from_sfen("4k4/9/9/9/9/9/9/9/3KK4 b - 1").unwrap();
/// assert!(Position::from_setup(&bad).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The 81 squares, indexed by [`Square::index`].
    pub board: [Option<Piece>; 81],
    /// Hands, indexed by [`Color::index`].
    pub hands: [Hand; 2],
    /// The side to move.
    pub side_to_move: Color,
    /// The number of the next move (1 at the start of a game).
    pub move_number: u32,
}

/// Why an SFEN string could not be read (its syntax, not its legality).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SfenError {
    /// The string does not have 3 or 4 space-separated fields.
    #[error("expected 3 or 4 fields (board, side, hand[, move number]), found {0}")]
    FieldCount(usize),
    /// The board does not have 9 ranks.
    #[error("expected 9 ranks separated by '/', found {0}")]
    RankCount(usize),
    /// A rank does not describe exactly 9 squares.
    #[error("rank {rank} describes {squares} squares, expected 9")]
    RankWidth {
        /// Rank number, 1..=9.
        rank: usize,
        /// How many squares it describes.
        squares: usize,
    },
    /// A character that is not a piece letter, digit or `+`.
    #[error("unexpected character {0:?} in the board")]
    BadBoardChar(char),
    /// A `+` before a piece that cannot promote.
    #[error("'+' before {0:?}, which cannot promote")]
    BadPromotion(char),
    /// The side-to-move field is not `b` or `w`.
    #[error("side to move must be 'b' or 'w', found {0:?}")]
    BadSide(String),
    /// The hand field is malformed.
    #[error("bad hand {0:?}: expected '-' or counts and letters of R B G S N L P")]
    BadHand(String),
    /// The move number is not a positive integer.
    #[error("bad move number {0:?}")]
    BadMoveNumber(String),
}

impl Setup {
    /// An empty board, empty hands, sente to move, move 1.
    pub const EMPTY: Setup = Setup {
        board: [None; 81],
        hands: [Hand::EMPTY; 2],
        side_to_move: Color::Sente,
        move_number: 1,
    };

    /// The piece on `sq`.
    #[inline]
    pub fn get(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// Put `piece` (or nothing) on `sq`.
    #[inline]
    pub fn set(&mut self, sq: Square, piece: Option<Piece>) {
        self.board[sq.index()] = piece;
    }

    /// Read an SFEN string. Accepts an optional leading `sfen `, and three
    /// fields without the move number. Only syntax is checked here.
    pub fn from_sfen(s: &str) -> Result<Setup, SfenError> {
        let s = s.trim();
        let s = s.strip_prefix("sfen ").unwrap_or(s);
        // Fixed arrays, not Vecs: this runs for every game's start position.
        let mut fields = [""; 4];
        let mut nfields = 0;
        for f in s.split_ascii_whitespace() {
            if nfields < 4 {
                fields[nfields] = f;
            }
            nfields += 1;
        }
        if nfields != 3 && nfields != 4 {
            return Err(SfenError::FieldCount(nfields));
        }
        let fields = &fields[..nfields];
        let mut setup = Setup::EMPTY;
        let nranks = fields[0].split('/').count();
        if nranks != 9 {
            return Err(SfenError::RankCount(nranks));
        }
        for (r, text) in fields[0].split('/').enumerate() {
            let rank = r as u8 + 1;
            let mut file: i32 = 9;
            let mut squares = 0usize;
            let mut promote = false;
            let mut prev_digit = false;
            for c in text.bytes() {
                match c {
                    b'1'..=b'9' if !promote && !prev_digit => {
                        let n = (c - b'0') as usize;
                        squares += n;
                        file -= n as i32;
                        prev_digit = true;
                        continue;
                    }
                    b'+' if !promote => {
                        promote = true;
                        prev_digit = false;
                        continue;
                    }
                    _ => {}
                }
                prev_digit = false;
                let (kind, color) =
                    PieceKind::from_sfen_letter(c).ok_or(SfenError::BadBoardChar(c as char))?;
                let kind = if promote {
                    kind.promoted().ok_or(SfenError::BadPromotion(c as char))?
                } else {
                    kind
                };
                promote = false;
                squares += 1;
                if (1..=9).contains(&file) {
                    let sq = Square::new(file as u8, rank).expect("file and rank in range");
                    setup.set(sq, Some(Piece::new(color, kind)));
                }
                file -= 1;
            }
            if promote {
                return Err(SfenError::BadBoardChar('+'));
            }
            if squares != 9 {
                return Err(SfenError::RankWidth {
                    rank: r + 1,
                    squares,
                });
            }
        }
        setup.side_to_move = match fields[1] {
            "b" => Color::Sente,
            "w" => Color::Gote,
            other => return Err(SfenError::BadSide(other.to_string())),
        };
        if fields[2] != "-" {
            setup.read_sfen_hand(fields[2])?;
        }
        if let Some(n) = fields.get(3) {
            setup.move_number = n
                .parse::<u32>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| SfenError::BadMoveNumber(n.to_string()))?;
        }
        Ok(setup)
    }

    /// Add the pieces of an SFEN hand field other than `-` (`2P3pb`) to the
    /// hands: counts up to 18, no king, no count without a piece.
    fn read_sfen_hand(&mut self, text: &str) -> Result<(), SfenError> {
        let bad = || SfenError::BadHand(text.to_string());
        let mut count: u32 = 0;
        let mut has_count = false;
        for c in text.bytes() {
            if c.is_ascii_digit() {
                count = count * 10 + (c - b'0') as u32;
                has_count = true;
                if count > 18 {
                    return Err(bad());
                }
                continue;
            }
            let (kind, color) = PieceKind::from_sfen_letter(c).ok_or_else(bad)?;
            if kind == PieceKind::King || (has_count && count < 1) {
                return Err(bad());
            }
            let n = if has_count { count } else { 1 };
            let hand = &mut self.hands[color.index()];
            let total = hand.count(kind) as u32 + n;
            if total > 18 {
                return Err(bad());
            }
            hand.set(kind, total as u8);
            count = 0;
            has_count = false;
        }
        if has_count {
            return Err(bad());
        }
        Ok(())
    }

    /// The board, side and hand fields of the SFEN (no move number): the
    /// canonical key for comparing positions.
    pub fn sfen_key(&self) -> String {
        let mut out = Vec::with_capacity(96);
        self.write_sfen_key(&mut out);
        String::from_utf8(out).expect("SFEN is ASCII")
    }

    /// [`Setup::sfen_key`] as bytes onto `out`, by way of [`sfen_into`]'s
    /// stack buffer: no allocation or formatting.
    fn write_sfen_key(&self, out: &mut Vec<u8>) {
        let mut buf = [0u8; SFEN_MAX];
        let key = sfen_into(&self.board, &self.hands, self.side_to_move, None, &mut buf);
        out.extend_from_slice(key.as_bytes());
    }

    /// Canonical SFEN: hands in R B G S N L P order, sente first, `-` when empty.
    pub fn to_sfen(&self) -> String {
        let mut buf = [0u8; SFEN_MAX];
        sfen_into(
            &self.board,
            &self.hands,
            self.side_to_move,
            Some(self.move_number),
            &mut buf,
        )
        .to_string()
    }

    /// The preset this setup matches (ignoring the move number), if any.
    pub fn preset(&self) -> Option<Handicap> {
        // What the SFEN key holds (board, side, hands). This runs for the
        // start of every game, so the board is compared as one byte a square
        // (a memcmp) rather than as 81 `Option<Piece>` values.
        let codes = board_codes(&self.board);
        let i = preset_keys().iter().position(|(board, side, hands)| {
            *side == self.side_to_move && *hands == self.hands && *board == codes
        })?;
        Some(Handicap::ALL[i])
    }
}

/// One byte a square: 0 for empty, else the kind and colour packed, so two
/// boards are equal exactly when their codes are.
fn board_codes(board: &[Option<Piece>; 81]) -> [u8; 81] {
    let mut codes = [0u8; 81];
    for (c, p) in codes.iter_mut().zip(board) {
        *c = p.map_or(0, |p| 1 + ((p.kind as u8) << 1 | p.color as u8));
    }
    codes
}

/// A preset's board (as [`board_codes`]), side to move and hands.
type PresetKey = ([u8; 81], Color, [Hand; 2]);

/// The presets' keys, in [`Handicap::ALL`] order.
fn preset_keys() -> &'static [PresetKey] {
    static KEYS: LazyLock<Vec<PresetKey>> = LazyLock::new(|| {
        preset_setups()
            .iter()
            .map(|s| (board_codes(&s.board), s.side_to_move, s.hands))
            .collect()
    });
    &KEYS
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_sfen())
    }
}

/// The even start and the handicap presets (駒落ち) every format names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Handicap {
    /// 平手, the even game.
    Hirate,
    /// 香落ち (left lance, 1一).
    Lance,
    /// 右香落ち (9一).
    RightLance,
    /// 角落ち.
    Bishop,
    /// 飛車落ち.
    Rook,
    /// 飛香落ち.
    RookLance,
    /// 二枚落ち.
    TwoPieces,
    /// 三枚落ち.
    ThreePieces,
    /// 四枚落ち.
    FourPieces,
    /// 五枚落ち.
    FivePieces,
    /// 左五枚落ち.
    LeftFivePieces,
    /// 六枚落ち.
    SixPieces,
    /// 左七枚落ち.
    LeftSevenPieces,
    /// 右七枚落ち.
    RightSevenPieces,
    /// 八枚落ち.
    EightPieces,
    /// 十枚落ち.
    TenPieces,
}

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

impl Handicap {
    /// Every preset, the even game first.
    pub const ALL: [Handicap; 16] = [
        Handicap::Hirate,
        Handicap::Lance,
        Handicap::RightLance,
        Handicap::Bishop,
        Handicap::Rook,
        Handicap::RookLance,
        Handicap::TwoPieces,
        Handicap::ThreePieces,
        Handicap::FourPieces,
        Handicap::FivePieces,
        Handicap::LeftFivePieces,
        Handicap::SixPieces,
        Handicap::LeftSevenPieces,
        Handicap::RightSevenPieces,
        Handicap::EightPieces,
        Handicap::TenPieces,
    ];

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
        let name = match name {
            "飛落ち" => "飛車落ち",
            "香落" => "香落ち",
            "平手戦" => "平手",
            other => other,
        };
        PRESETS.iter().find(|r| r.1 == name).map(|r| r.0)
    }

    /// The preset with this JKF code.
    pub fn from_jkf_name(name: &str) -> Option<Handicap> {
        PRESETS.iter().find(|r| r.2 == name).map(|r| r.0)
    }

    /// The setup of this preset.
    pub fn setup(self) -> Setup {
        preset_setups()[self.index()].clone()
    }

    /// The position of this preset in [`Handicap::ALL`].
    pub fn index(self) -> usize {
        Handicap::ALL
            .iter()
            .position(|&h| h == self)
            .expect("ALL lists every preset")
    }
}

/// The setups of [`Handicap::ALL`], in that order. Every game of a
/// collection starts from one of these: each preset's SFEN is read once per
/// process, not once per game.
fn preset_setups() -> &'static [Setup] {
    static SETUPS: LazyLock<Vec<Setup>> = LazyLock::new(|| {
        Handicap::ALL
            .iter()
            .map(|h| Setup::from_sfen(h.sfen()).expect("preset SFENs are valid"))
            .collect()
    });
    &SETUPS
}

/// Room for any SFEN this crate writes: 81 promoted pieces take 162 bytes
/// and 8 slashes, the hands at most 7 kinds × 2 sides × 3 bytes, the side,
/// two spaces and a `u32` move number (10 digits and its space) the rest.
/// [`SfenRanks::write`]'s fixed-size copies reach further than the text
/// they copy (32 bytes a rank, 42 for the hands), but not past 217.
pub(crate) const SFEN_MAX: usize = 256;

/// Each piece's SFEN text (`+` and letter, or the letter and a spare byte)
/// and length, by colour then kind index: one load a square instead of
/// asking the kind whether it is promoted and which letter it has.
const PIECE_SFEN: [[([u8; 2], usize); 14]; 2] = {
    let mut t = [([0u8; 2], 0usize); 14];
    let mut table = [t, t];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 14 {
            let kind = PieceKind::ALL[k];
            let mut letter = kind.usi_letter();
            if c == 1 {
                letter = letter.to_ascii_lowercase();
            }
            t[k] = if kind.is_promoted() {
                ([b'+', letter], 2)
            } else {
                ([letter, 0], 1)
            };
            k += 1;
        }
        table[c] = t;
        c += 1;
    }
    table
};

/// The hands field of an SFEN (`-` when both are empty) into `out`; its length.
fn hands_text(hands: &[Hand; 2], out: &mut [u8; HANDS_MAX]) -> usize {
    let mut n = 0;
    for color in Color::ALL {
        for (kind, count) in hands[color.index()].iter_canonical() {
            if count >= 10 {
                out[n] = b'0' + count / 10;
                n += 1;
            }
            if count > 1 {
                out[n] = b'0' + count % 10;
                n += 1;
            }
            out[n] = PIECE_SFEN[color as usize][kind as usize].0[0];
            n += 1;
        }
    }
    if n == 0 {
        out[n] = b'-';
        n += 1;
    }
    n
}

/// The SFEN of a board, hands and side (and move number, if given) written
/// into `buf`. Shared by [`Setup`] and [`crate::Position`]: a stack buffer,
/// so no allocation.
pub(crate) fn sfen_into<'b>(
    board: &[Option<Piece>; 81],
    hands: &[Hand; 2],
    side: Color,
    move_number: Option<u32>,
    buf: &'b mut [u8; SFEN_MAX],
) -> &'b str {
    SfenRanks::new(board).write(hands, side, move_number, buf)
}

/// Room for one rank: 9 promoted pieces take 18 bytes, and a piece's text
/// is copied as two bytes even when it is one, so a letter at 17 writes 18.
/// A power of two, so that [`SfenRanks::refresh`] can mask its indices.
const RANK_MAX: usize = 32;

/// The board's ranks as SFEN text. The JSON writer walks a line a move at a
/// time and a move changes at most two ranks, so it keeps one of these and
/// writes those ranks again, not all 81 squares, after every ply.
#[derive(Clone, Debug)]
pub(crate) struct SfenRanks {
    text: [[u8; RANK_MAX]; 9],
    len: [u8; 9],
    /// The hands last written, and their text: they change only on a
    /// capture or a drop. `None` until the first write.
    hands: Option<[Hand; 2]>,
    hands_text: [u8; HANDS_MAX],
    hands_len: usize,
}

/// Room for the hands field: 7 kinds × 2 sides × (two digits and a letter).
const HANDS_MAX: usize = 42;

impl SfenRanks {
    /// Every rank of `board`.
    pub(crate) fn new(board: &[Option<Piece>; 81]) -> SfenRanks {
        let mut ranks = SfenRanks {
            text: [[0; RANK_MAX]; 9],
            len: [0; 9],
            hands: None,
            hands_text: [0; HANDS_MAX],
            hands_len: 0,
        };
        for rank in 0..9 {
            ranks.refresh(board, rank);
        }
        ranks
    }

    /// Rank `rank` (0-based, `a` = 0) of `board` again.
    pub(crate) fn refresh(&mut self, board: &[Option<Piece>; 81], rank: usize) {
        // Hoisted checks: with the rank known to be below 9 every square
        // index is in range, and with the column index masked to the row's
        // power-of-two width every write is (a rank never passes 18 bytes,
        // so the mask changes nothing): the loop carries no bounds checks.
        assert!(rank < 9, "rank index {rank}");
        let out = &mut self.text[rank];
        let mut n = 0;
        let mut empty = 0u8;
        for file in (0..9).rev() {
            // Square index = (file - 1) * 9 + (rank - 1).
            match board[file * 9 + rank] {
                None => empty += 1,
                Some(p) => {
                    if empty > 0 {
                        out[n & (RANK_MAX - 1)] = b'0' + empty;
                        n += 1;
                        empty = 0;
                    }
                    let (text, len) = PIECE_SFEN[p.color as usize][p.kind as usize];
                    out[n & (RANK_MAX - 1)] = text[0];
                    out[(n + 1) & (RANK_MAX - 1)] = text[1];
                    n += len;
                }
            }
        }
        if empty > 0 {
            out[n & (RANK_MAX - 1)] = b'0' + empty;
            n += 1;
        }
        self.len[rank] = n as u8;
    }

    /// The whole SFEN: these ranks, then side, hands and the move number if given.
    pub(crate) fn write<'b>(
        &mut self,
        hands: &[Hand; 2],
        side: Color,
        move_number: Option<u32>,
        buf: &'b mut [u8; SFEN_MAX],
    ) -> &'b str {
        let mut n = 0;
        for rank in 0..9 {
            if rank > 0 {
                buf[n] = b'/';
                n += 1;
            }
            // A fixed-size copy (the spare bytes are overwritten next) is a
            // few moves; one of the rank's own length would be a memcpy call.
            buf[n..n + RANK_MAX].copy_from_slice(&self.text[rank]);
            n += self.len[rank] as usize;
        }
        buf[n] = b' ';
        buf[n + 1] = match side {
            Color::Sente => b'b',
            Color::Gote => b'w',
        };
        buf[n + 2] = b' ';
        n += 3;
        if self.hands != Some(*hands) {
            self.hands = Some(*hands);
            self.hands_len = hands_text(hands, &mut self.hands_text);
        }
        buf[n..n + HANDS_MAX].copy_from_slice(&self.hands_text);
        n += self.hands_len;
        if let Some(m) = move_number {
            buf[n] = b' ';
            n += 1;
            let mut digits = itoa::Buffer::new();
            let digits = digits.format(m).as_bytes();
            buf[n..n + digits.len()].copy_from_slice(digits);
            n += digits.len();
        }
        std::str::from_utf8(&buf[..n]).expect("SFEN is ASCII")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_round_trip_and_are_recognised() {
        for h in Handicap::ALL {
            let s = h.setup();
            assert_eq!(s.to_sfen(), h.sfen());
            assert_eq!(s.preset(), Some(h));
            // The SFEN key (board, side, hands; not the move number) decides.
            let by_key = |s: &Setup| {
                let key = s.sfen_key();
                Handicap::ALL
                    .into_iter()
                    .find(|h| h.sfen().rsplit_once(' ').map(|(k, _)| k) == Some(key.as_str()))
            };
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
    fn hands_are_written_canonically() {
        let s = Setup::from_sfen("4k4/9/4P4/9/9/9/9/9/9 b 17pG2r2b3g4s4n4l 1").unwrap();
        assert_eq!(s.to_sfen(), "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
        let s = Setup::from_sfen("9/9/9/9/9/9/9/9/9 w PP").unwrap();
        assert_eq!(s.to_sfen(), "9/9/9/9/9/9/9/9/9 w 2P 1");
    }

    #[test]
    fn bad_sfens_are_rejected() {
        let bad = [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL x - 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b 3K 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/45/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSG+KGSNL b - 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 0",
        ];
        for s in bad {
            assert!(Setup::from_sfen(s).is_err(), "{s}");
        }
    }
}
