//! SFEN, the one-line position of USI: read into a [`Setup`] (syntax only)
//! or a checked [`Position`], and written from either, canonically.

use crate::rules::position::{Position, SetupErrors};
use crate::rules::setup::Setup;
use crate::rules::types::{Color, Hand, Move, Piece, PieceKind, Square};
use std::fmt;

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
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_sfen())
    }
}

/// Why an SFEN string is not a legal position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// The string is not valid SFEN.
    #[error("bad SFEN: {0}")]
    Sfen(#[from] SfenError),
    /// The SFEN is readable but the position is not legal.
    #[error("illegal position: {0}")]
    Setup(#[from] SetupErrors),
}

impl Position {
    /// Read an SFEN string: its syntax ([`SfenError`]) first, then legality.
    pub fn from_sfen(sfen: &str) -> Result<Position, PositionError> {
        let setup = Setup::from_sfen(sfen)?;
        Ok(Position::from_setup(&setup)?)
    }

    /// The canonical SFEN (see [`Setup::to_sfen`]).
    pub fn to_sfen(&self) -> String {
        let mut buf = [0u8; SFEN_MAX];
        self.sfen_into(&mut buf).to_string()
    }

    /// [`Position::to_sfen`] written into `buf`: no [`Setup`] built, nothing allocated.
    pub(crate) fn sfen_into<'b>(&self, buf: &'b mut [u8; SFEN_MAX]) -> &'b str {
        sfen_into(
            self.cells(),
            self.hands(),
            self.side_to_move(),
            Some(self.move_number()),
            buf,
        )
    }

    /// The board's ranks as SFEN, to pass to [`Position::sfen_after`].
    pub(crate) fn sfen_ranks(&self) -> SfenRanks {
        SfenRanks::new(self.cells())
    }

    /// [`Position::sfen_into`] for a line walked a move at a time: `ranks`
    /// held this position's ranks before `mv` was played, and only the ranks
    /// `mv` changed (its origin's and destination's: [`Position::play_unchecked`]
    /// touches no other square) are written again.
    pub(crate) fn sfen_after<'b>(
        &self,
        mv: Move,
        ranks: &mut SfenRanks,
        buf: &'b mut [u8; SFEN_MAX],
    ) -> &'b str {
        let to = mv.to().rank();
        if let Move::Normal { from, .. } = mv
            && from.rank() != to
        {
            ranks.refresh(self.cells(), from.rank() as usize - 1);
        }
        ranks.refresh(self.cells(), to as usize - 1);
        ranks.write(
            self.hands(),
            self.side_to_move(),
            Some(self.move_number()),
            buf,
        )
    }
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
