//! A position of any variant of the family: a board of up to 9×9 cells,
//! two hands and the side to move, read from and written to SFEN.

use super::{PieceDef, Rules, Variant};
use crate::rules::types::Color;
use std::fmt;

/// Cells hold 0 for empty, else `1 + piece id`, plus [`GOTE`] for gote's.
const GOTE: u8 = 64;
/// The largest board of the family (chu shogi's) has 144 cells.
const CELLS: usize = 144;
/// The largest piece table of the family.
const KINDS: usize = 16;

/// A move on a variant board: from a square (or a drop) to a square.
/// Squares are cell indices: rank `a` first, files from the highest down.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct VMove {
    /// The origin cell, or `None` for a drop.
    pub from: Option<u8>,
    /// The destination cell.
    pub to: u8,
    /// For a drop, the piece id dropped.
    pub drop: u8,
    /// Whether the piece promotes (`+`).
    pub promote: bool,
    /// Micro shogi: whether a promoted piece turns back over as it captures (`-`).
    pub demote: bool,
    /// Chu shogi: the square a lion-like piece steps on first in a double
    /// move (igui and jitto return to the origin).
    pub mid: Option<u8>,
}

impl VMove {
    /// A move from `from` to `to`, without promotion.
    pub fn step(from: u8, to: u8) -> VMove {
        VMove {
            from: Some(from),
            to,
            drop: 0,
            promote: false,
            demote: false,
            mid: None,
        }
    }

    /// A drop of piece `id` on `to`.
    pub fn drop(id: u8, to: u8) -> VMove {
        VMove {
            from: None,
            to,
            drop: id,
            promote: false,
            demote: false,
            mid: None,
        }
    }
}

/// Why an SFEN was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardSfenError(pub String);

impl fmt::Display for BoardSfenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BoardSfenError {}

/// A position of one variant.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    variant: Variant,
    cells: [u8; CELLS],
    hands: [[u8; KINDS]; 2],
    side: Color,
    move_number: u32,
    /// Chu shogi: where a non-lion took a lion on the last move.
    last_lion: Option<u8>,
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({} {})", self.variant, self.to_sfen())
    }
}

impl Board {
    /// The variant played.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The variant's rules.
    pub fn rules(&self) -> &'static Rules {
        self.variant.rules()
    }

    /// The side to move.
    pub fn side(&self) -> Color {
        self.side
    }

    /// Chu shogi: the square where a piece other than a lion took a lion on
    /// the last move (SFEN's third field), if one did.
    pub fn last_lion_capture(&self) -> Option<u8> {
        self.last_lion
    }

    /// The move number SFEN writes.
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The number of cells.
    pub fn cell_count(&self) -> u8 {
        self.rules().files * self.rules().ranks
    }

    /// The piece on a cell: its colour and id.
    pub fn at(&self, cell: u8) -> Option<(Color, u8)> {
        match self.cells[cell as usize] {
            0 => None,
            v if v >= GOTE => Some((Color::Gote, v - GOTE - 1)),
            v => Some((Color::Sente, v - 1)),
        }
    }

    /// An empty board of `variant`, sente to move, move 1, for a reader
    /// to fill ([`Board::set`]).
    pub fn empty(variant: Variant) -> Board {
        Board {
            variant,
            cells: [0; CELLS],
            hands: [[0; KINDS]; 2],
            side: Color::Sente,
            move_number: 1,
            last_lion: None,
        }
    }

    /// Put a piece (its colour and id) or nothing on `cell`.
    pub fn set(&mut self, cell: u8, piece: Option<(Color, u8)>) {
        self.put(cell, piece);
    }

    /// Give the move to `side`.
    pub fn set_side(&mut self, side: Color) {
        self.side = side;
    }

    pub(super) fn put(&mut self, cell: u8, piece: Option<(Color, u8)>) {
        self.cells[cell as usize] = match piece {
            None => 0,
            Some((Color::Sente, id)) => id + 1,
            Some((Color::Gote, id)) => id + 1 + GOTE,
        };
    }

    /// How many of piece `id` `color` holds in hand.
    pub fn in_hand(&self, color: Color, id: u8) -> u8 {
        self.hands[color.index()]
            .get(id as usize)
            .copied()
            .unwrap_or(0)
    }

    /// The definition of piece `id`.
    pub fn def(&self, id: u8) -> &'static PieceDef {
        &self.rules().pieces[id as usize]
    }

    /// The column (0 = the highest file) and row (0 = rank `a`) of a cell.
    pub fn col_row(&self, cell: u8) -> (i8, i8) {
        let f = self.rules().files;
        ((cell % f) as i8, (cell / f) as i8)
    }

    /// The cell at a column and row, if on the board.
    pub fn cell_at(&self, col: i8, row: i8) -> Option<u8> {
        let r = self.rules();
        (col >= 0 && row >= 0 && col < r.files as i8 && row < r.ranks as i8)
            .then(|| row as u8 * r.files + col as u8)
    }

    /// The cell of a file (1 = sente's right) and rank (1 = rank `a`).
    pub fn cell_of(&self, file: u8, rank: u8) -> Option<u8> {
        let r = self.rules();
        if file == 0 || rank == 0 || file > r.files || rank > r.ranks {
            return None;
        }
        self.cell_at((r.files - file) as i8, (rank - 1) as i8)
    }

    /// The file (1 = sente's right) and rank (1 = rank `a`) of a cell.
    pub fn file_rank(&self, cell: u8) -> (u8, u8) {
        let (c, r) = self.col_row(cell);
        (self.rules().files - c as u8, r as u8 + 1)
    }

    /// How many ranks from `color`'s far edge a cell is (0 = the last rank).
    pub fn depth(&self, color: Color, cell: u8) -> u8 {
        let (_, row) = self.col_row(cell);
        match color {
            Color::Sente => row as u8,
            Color::Gote => self.rules().ranks - 1 - row as u8,
        }
    }

    /// Whether a cell is in `color`'s promotion zone.
    pub fn in_zone(&self, color: Color, cell: u8) -> bool {
        self.depth(color, cell) < self.rules().zone
    }

    /// The piece id with this SFEN letter (upper case) and promotion.
    pub fn piece_id(&self, letter: char, promoted: bool) -> Option<u8> {
        self.rules()
            .pieces
            .iter()
            .position(|d| d.letter == letter && d.promoted == promoted)
            .map(|i| i as u8)
            .filter(|id| !self.rules().unused.contains(id))
    }

    /// Play a move known to be well-formed (a piece on its origin, or one in
    /// hand to drop); returns the piece captured. Legality is not checked.
    pub fn play_unchecked(&mut self, m: VMove) -> Option<(Color, u8)> {
        let us = self.side;
        let mut mover = None;
        let piece = match m.from {
            Some(from) => {
                let (_, id) = self.at(from).expect("a piece on the origin");
                mover = Some(id);
                self.put(from, None);
                match (m.promote, self.def(id).promotes_to) {
                    (true, Some(p)) => p,
                    _ if m.demote => self.def(id).base,
                    _ => id,
                }
            }
            None => {
                let base = self.def(m.drop).base;
                self.hands[us.index()][base as usize] -= 1;
                m.drop
            }
        };
        // A double move takes on its first step too; igui and jitto end on
        // the origin, emptied above.
        let on_mid = m.mid.and_then(|c| {
            let p = self.at(c);
            self.put(c, None);
            p
        });
        let captured = self.at(m.to);
        for (_, id) in captured.iter().chain(on_mid.iter()) {
            if self.rules().drops {
                let base = self.def(*id).base;
                self.hands[us.index()][base as usize] += 1;
            }
        }
        if self.rules().chu {
            let lion = |p: Option<(Color, u8)>| p.is_some_and(|(_, id)| self.def(id).lion);
            let by_lion = mover.is_some_and(|id| self.def(id).lion);
            self.last_lion = match () {
                _ if by_lion => None,
                _ if lion(captured) => Some(m.to),
                _ if lion(on_mid) => m.mid,
                _ => None,
            };
        }
        self.put(m.to, Some((us, piece)));
        self.side = us.flip();
        self.move_number += 1;
        captured.or(on_mid)
    }

    /// The USI name of a cell: file digit, rank letter (`5e`, `7a`).
    pub fn square_name(&self, cell: u8) -> String {
        let (f, r) = self.file_rank(cell);
        format!("{f}{}", (b'a' + r - 1) as char)
    }

    /// The cell whose USI name starts `s` (`5e`, `12l`: one or two digits
    /// of file, no leading zero, a rank letter), and the bytes after it.
    pub fn cell_at_name<'a>(&self, s: &'a [u8]) -> Option<(u8, &'a [u8])> {
        let digits = s.iter().take_while(|c| c.is_ascii_digit()).count();
        if digits == 0 || digits > 2 || s[0] == b'0' {
            return None;
        }
        let file: u8 = std::str::from_utf8(&s[..digits]).ok()?.parse().ok()?;
        let rank = s.get(digits)?.checked_sub(b'a')? + 1;
        Some((self.cell_of(file, rank)?, &s[digits + 1..]))
    }

    /// A move in Fairy-Stockfish's USI: `3e3d`, `4c4b+`, `S*4d`.
    pub fn usi(&self, m: VMove) -> String {
        match m.from {
            Some(from) => format!(
                "{}{}{}{}",
                self.square_name(from),
                m.mid.map_or(String::new(), |c| self.square_name(c)),
                self.square_name(m.to),
                match (m.promote, m.demote) {
                    (true, _) => "+",
                    (_, true) => "-",
                    _ => "",
                }
            ),
            None => {
                let d = self.def(m.drop);
                let plus = if d.promoted { "+" } else { "" };
                format!("{plus}{}*{}", d.letter, self.square_name(m.to))
            }
        }
    }

    /// A key of the position for repetition: board, hands and side to move.
    pub fn key(&self) -> Vec<u8> {
        let n = self.cell_count() as usize;
        let mut k = Vec::with_capacity(n + 2 * KINDS + 1);
        k.extend_from_slice(&self.cells[..n]);
        k.extend_from_slice(&self.hands[0]);
        k.extend_from_slice(&self.hands[1]);
        k.push(self.side as u8);
        k
    }
}

impl Board {
    /// Read an SFEN (`<board> <side> <hands> [<move number>]`) of `variant`.
    pub fn from_sfen(variant: Variant, sfen: &str) -> Result<Board, BoardSfenError> {
        let bad = |m: String| Err(BoardSfenError(m));
        let mut parts = sfen.split_whitespace();
        let (Some(rows), Some(side), Some(hands)) = (parts.next(), parts.next(), parts.next())
        else {
            return bad(format!(
                "expected `<board> <side> <hands> <move number>`, found {sfen:?}"
            ));
        };
        let mut b = Board::empty(variant);
        b.read_rows(rows)?;
        b.side = match side {
            "b" => Color::Sente,
            "w" => Color::Gote,
            _ => {
                return bad(format!(
                    "expected the side to move `b` or `w`, found {side:?}"
                ));
            }
        };
        if b.rules().chu {
            b.read_last_lion(hands)?;
        } else {
            b.read_hands(hands)?;
        }
        if let Some(n) = parts.next() {
            b.move_number = match n.parse() {
                Ok(n) => n,
                Err(_) => return bad(format!("expected a move number, found {n:?}")),
            };
        }
        if let Some(extra) = parts.next() {
            return bad(format!("unexpected {extra:?} after the move number"));
        }
        Ok(b)
    }

    fn read_rows(&mut self, rows: &str) -> Result<(), BoardSfenError> {
        let r = self.rules();
        let name = r.name;
        let lines: Vec<&str> = rows.split('/').collect();
        if lines.len() != r.ranks as usize {
            return Err(BoardSfenError(format!(
                "{name} has {} ranks; the SFEN board has {}",
                r.ranks,
                lines.len()
            )));
        }
        for (row, line) in lines.iter().enumerate() {
            let mut col = 0u8;
            let mut promoted = false;
            let mut run = 0u32;
            for ch in line.chars() {
                if let Some(d) = ch.to_digit(10).filter(|_| !promoted) {
                    // A run of digits is one number (chu shogi's `12`).
                    let before = run;
                    run = run.saturating_mul(10).saturating_add(d);
                    col = u32::from(col).saturating_add(run - before).min(255) as u8;
                    continue;
                }
                run = 0;
                if ch == '+' && !promoted {
                    promoted = true;
                    continue;
                }
                let id = self
                    .piece_id(ch.to_ascii_uppercase(), promoted)
                    .ok_or_else(|| {
                        let p = if promoted { "+" } else { "" };
                        BoardSfenError(format!("{name} has no piece `{p}{ch}`"))
                    })?;
                promoted = false;
                if col >= r.files {
                    return Err(BoardSfenError(format!(
                        "rank {} of the SFEN board has more than {} files",
                        row + 1,
                        r.files
                    )));
                }
                let color = if ch.is_ascii_uppercase() {
                    Color::Sente
                } else {
                    Color::Gote
                };
                self.put(row as u8 * r.files + col, Some((color, id)));
                col += 1;
            }
            if col != r.files || promoted {
                let how = if col > r.files { "more" } else { "fewer" };
                return Err(BoardSfenError(format!(
                    "rank {} of the SFEN board has {how} than {} files",
                    row + 1,
                    r.files
                )));
            }
        }
        Ok(())
    }

    /// Chu shogi's third field: `-`, or the square of the last lion capture.
    fn read_last_lion(&mut self, field: &str) -> Result<(), BoardSfenError> {
        if field == "-" {
            return Ok(());
        }
        let cell = match self.cell_at_name(field.as_bytes()) {
            Some((cell, b"")) => Some(cell),
            _ => None,
        };
        match cell {
            Some(cell) => {
                self.last_lion = Some(cell);
                Ok(())
            }
            None => Err(BoardSfenError(format!(
                "expected `-` or the square of the last lion capture (`7g`), found {field:?}"
            ))),
        }
    }

    fn read_hands(&mut self, hands: &str) -> Result<(), BoardSfenError> {
        if hands == "-" {
            return Ok(());
        }
        let name = self.rules().name;
        if !self.rules().drops {
            return Err(BoardSfenError(format!(
                "{name} has no drops, so no pieces in hand: {hands:?}"
            )));
        }
        let mut count = 0u32;
        for ch in hands.chars() {
            if let Some(d) = ch.to_digit(10) {
                count = count * 10 + d;
                continue;
            }
            let id = self
                .piece_id(ch.to_ascii_uppercase(), false)
                .filter(|&id| !self.def(id).royal)
                .ok_or_else(|| {
                    BoardSfenError(format!("{name} has no piece `{ch}` to hold in hand"))
                })?;
            let color = if ch.is_ascii_uppercase() {
                Color::Sente
            } else {
                Color::Gote
            };
            let n = count.max(1);
            let slot = &mut self.hands[color.index()][id as usize];
            *slot = u8::try_from(u32::from(*slot) + n)
                .map_err(|_| BoardSfenError(format!("too many `{ch}` in hand")))?;
            count = 0;
        }
        Ok(())
    }

    /// The position as SFEN, with the variant's letters.
    pub fn to_sfen(&self) -> String {
        let r = self.rules();
        let mut s = String::new();
        for row in 0..r.ranks {
            if row > 0 {
                s.push('/');
            }
            let mut empty = 0;
            for col in 0..r.files {
                match self.at(row * r.files + col) {
                    None => empty += 1,
                    Some((color, id)) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        let d = self.def(id);
                        if d.promoted {
                            s.push('+');
                        }
                        s.push(match color {
                            Color::Sente => d.letter,
                            Color::Gote => d.letter.to_ascii_lowercase(),
                        });
                    }
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
        }
        s.push_str(if self.side == Color::Sente {
            " b "
        } else {
            " w "
        });
        let mut hands = String::new();
        for color in Color::ALL {
            for &id in r.hand_order {
                let n = self.in_hand(color, id);
                if n > 1 {
                    hands.push_str(&n.to_string());
                }
                if n > 0 {
                    let l = self.def(id).letter;
                    hands.push(if color == Color::Sente {
                        l
                    } else {
                        l.to_ascii_lowercase()
                    });
                }
            }
        }
        if let Some(c) = self.last_lion.filter(|_| r.chu) {
            hands = self.square_name(c);
        }
        s.push_str(if hands.is_empty() { "-" } else { &hands });
        s.push(' ');
        s.push_str(&self.move_number.to_string());
        s
    }
}
