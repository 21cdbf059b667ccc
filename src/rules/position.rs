//! A checked, playable position: board, hands, side to move and move number.
//!
//! [`Position`] holds no history; repetition is the replayer's business (it
//! keeps [`Position::key`]s). Move generation and legality live in
//! `movegen.rs`; this module holds the state, its invariants and the setup
//! checks.
//!
//! Missing kings are accepted: tsume problems omit the attacker's king, so a
//! side may have no king at all. Such a side can never be in check, and
//! nothing panics for want of a king. More than one king per side is rejected.

use crate::rules::attacks::{self, Bitboard, bb};
use crate::rules::setup::{Handicap, Setup};
use crate::rules::types::{Color, Hand, Move, Piece, PieceKind, Square};
use crate::rules::zobrist;
use std::fmt;
use std::sync::LazyLock;

/// A legal shogi position that moves can be played on.
///
/// Invariants (established by [`Position::from_setup`], kept by
/// [`Position::play_unchecked`] for legal moves): the bitboards agree with the board
/// array, the key agrees with the contents, each side has at most one king.
/// `checkers` agrees with the contents after every play, legal or not.
///
/// # Example
///
/// ```
/// use kifu::{Move, PieceKind, Position};
///
/// let mut pos = Position::startpos();
/// assert_eq!(pos.legal_moves().len(), 30);
/// for usi in ["7g7f", "3c3d"] {
///     pos.play(Move::from_usi(usi).unwrap()).unwrap();
/// }
/// // Sente holds no pawn to drop: the move is refused, the position kept.
/// assert!(pos.play(Move::from_usi("P*2e").unwrap()).is_err());
/// // The bishop exchange: sente takes gote's bishop.
/// let taken = pos.play(Move::from_usi("8h2b+").unwrap()).unwrap();
/// assert_eq!(taken, Some(PieceKind::Bishop));
/// assert_eq!(pos.to_sfen(), "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4");
/// ```
#[derive(Clone)]
pub struct Position {
    pub(crate) board: [Option<Piece>; 81],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) by_kind: [Bitboard; 14],
    pub(crate) hands: [Hand; 2],
    pub(crate) side: Color,
    pub(crate) move_number: u32,
    pub(crate) key: u64,
    pub(crate) kings: [Option<Square>; 2],
    /// The pieces attacking the side to move's king (none without a king).
    /// Kept because the replayer asks `in_check` after every move and the
    /// legality test needs it before the next one; it is a function of the
    /// rest of the position, so the derived equality is unaffected.
    pub(crate) checkers: Bitboard,
    /// Known: the side not to move is not in check. Then the next legal
    /// move's checkers follow from the move alone (the moved piece and the
    /// line it opens). Cleared by an unchecked [`Position::play_unchecked`], which may
    /// break that rule.
    pub(crate) waiting_safe: bool,
}

// By hand, because `waiting_safe` is knowledge about a position, not part of
// it; every other field follows from the four compared here.
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.board == other.board
            && self.hands == other.hands
            && self.side == other.side
            && self.move_number == other.move_number
    }
}

impl Eq for Position {}

impl fmt::Debug for Position {
    // The SFEN is far more readable in a failed assertion than 16 bitboards.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({:?})", self.to_sfen())
    }
}

/// Which entering-king declaration rule to judge by (rules.md §8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeclarationRule {
    /// The CSA 27-point declaration rule: sente needs 28 points, gote 27.
    Points27,
    /// The JSA declaration rule (入玉宣言法): 31 points win, 24 to 30 points
    /// is a draw (持将棋), fewer lose.
    Points24,
}

/// What a declaration that meets the conditions of its rule comes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum DeclarationOutcome {
    /// The declarer wins.
    Win,
    /// 持将棋, a draw: the JSA rule's 24 to 30 points.
    Draw {
        /// The declarer's points.
        points: u32,
    },
}

/// One reason a [`Setup`] is not a legal position.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SetupIssue {
    /// A side has more than one king.
    TooManyKings {
        /// The side.
        color: Color,
        /// How many kings it has.
        count: u32,
    },
    /// An unpromoted pawn or lance on its last rank, or knight on its last two.
    DeadPiece {
        /// Where.
        square: Square,
        /// The piece.
        piece: Piece,
    },
    /// Two or more unpromoted pawns of one side on one file.
    Nifu {
        /// The side.
        color: Color,
        /// The file, 1..=9.
        file: u8,
    },
    /// More pieces of a kind (board and hands, promoted counted as unpromoted)
    /// than a set holds.
    TooManyPieces {
        /// The unpromoted kind.
        kind: PieceKind,
        /// How many there are.
        count: u32,
        /// How many a set holds.
        max: u32,
    },
    /// The side that is not to move is in check (its king could be taken).
    OpponentInCheck {
        /// The side in check.
        color: Color,
    },
    /// The move number is 0.
    BadMoveNumber,
}

impl fmt::Display for SetupIssue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupIssue::TooManyKings { color, count } => {
                write!(f, "{color} has {count} kings (at most 1)")
            }
            SetupIssue::DeadPiece { square, piece } => write!(
                f,
                "{} {} on {square} can never move",
                piece.color,
                piece.kind.kif()
            ),
            SetupIssue::Nifu { color, file } => {
                write!(f, "{color} has two unpromoted pawns on file {file} (nifu)")
            }
            SetupIssue::TooManyPieces { kind, count, max } => {
                write!(f, "{count} pieces of kind {} (a set has {max})", kind.kif())
            }
            SetupIssue::OpponentInCheck { color } => {
                write!(f, "{color} is in check but it is not {color}'s turn")
            }
            SetupIssue::BadMoveNumber => f.write_str("move number must be at least 1"),
        }
    }
}

/// Every problem found in a setup. Never empty when returned as an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupErrors(pub Vec<SetupIssue>);

impl fmt::Display for SetupErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, issue) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{issue}")?;
        }
        Ok(())
    }
}

impl std::error::Error for SetupErrors {}

/// How many of each unpromoted kind a set holds (P L N S G B R).
const SET_COUNTS: [u32; 7] = [18, 4, 4, 4, 4, 2, 2];

/// The presets' start positions, in [`Handicap::ALL`] order, built once.
fn preset_positions() -> &'static [Position] {
    static PRESETS: LazyLock<Vec<Position>> = LazyLock::new(|| {
        Handicap::ALL
            .iter()
            .map(|h| Position::from_setup_checked(&h.setup()).expect("the presets are legal"))
            .collect()
    });
    &PRESETS
}

impl Position {
    fn empty(side: Color, move_number: u32) -> Position {
        let mut p = Position {
            board: [None; 81],
            by_color: [0; 2],
            by_kind: [0; 14],
            hands: [Hand::EMPTY; 2],
            side,
            move_number,
            key: 0,
            kings: [None; 2],
            checkers: 0,
            waiting_safe: false,
        };
        for c in Color::ALL {
            for k in PieceKind::HAND {
                p.key ^= zobrist::hand(c, k, 0);
            }
        }
        if side == Color::Gote {
            p.key ^= zobrist::side();
        }
        p
    }

    /// The even-game start position.
    pub fn startpos() -> Position {
        Position::from_handicap(Handicap::Hirate)
    }

    /// The start position of a preset, move 1: a copy of one built once per
    /// process, without building and comparing a [`Setup`] first. Callers
    /// that know a record starts from a preset can skip
    /// [`Position::from_setup`]'s search of the presets this way.
    pub fn from_handicap(h: Handicap) -> Position {
        preset_positions()[h.index()].clone()
    }

    /// Check a setup and build the position; the error lists every problem
    /// found. A side without a king is accepted (tsume); see the module docs.
    pub fn from_setup(setup: &Setup) -> Result<Position, SetupErrors> {
        if let Some(p) = Position::preset_position(setup) {
            return Ok(p);
        }
        Position::from_setup_checked(setup)
    }

    /// The position of a preset equal to `setup`, copied from one built once
    /// per process: nearly every game of a collection starts from a preset,
    /// and copying is far cheaper than checking the setup again.
    fn preset_position(setup: &Setup) -> Option<Position> {
        // Move 0 must still be reported; the key ignores the move number.
        if setup.move_number == 0 {
            return None;
        }
        let mut pos = Position::from_handicap(setup.preset()?);
        pos.move_number = setup.move_number;
        Some(pos)
    }

    /// [`Position::from_setup`] without the preset shortcut.
    fn from_setup_checked(setup: &Setup) -> Result<Position, SetupErrors> {
        let mut issues = Vec::new();
        let mut pos = Position::empty(setup.side_to_move, setup.move_number);
        let mut totals = [0u32; 8];
        let mut kings = [0u32; 2];
        for sq in Square::all() {
            let Some(p) = setup.get(sq) else { continue };
            totals[p.kind.unpromoted() as usize] += 1;
            if p.kind == PieceKind::King {
                kings[p.color.index()] += 1;
            }
            if attacks::is_dead(p.color, p.kind, sq.index()) {
                issues.push(SetupIssue::DeadPiece {
                    square: sq,
                    piece: p,
                });
            }
            pos.put(sq, p);
        }
        for c in Color::ALL {
            if kings[c.index()] > 1 {
                issues.push(SetupIssue::TooManyKings {
                    color: c,
                    count: kings[c.index()],
                });
            }
        }
        for c in Color::ALL {
            let pawns = pos.pieces(c, PieceKind::Pawn);
            for file in 1..=9u8 {
                if (pawns & attacks::file_mask(file)).count_ones() > 1 {
                    issues.push(SetupIssue::Nifu { color: c, file });
                }
            }
        }
        for c in Color::ALL {
            for k in PieceKind::HAND {
                let n = setup.hands[c.index()].count(k);
                totals[k as usize] += n as u32;
                for _ in 0..n {
                    pos.hand_add(c, k);
                }
            }
        }
        // Kings are covered by TooManyKings.
        for (i, &count) in totals.iter().enumerate().take(7) {
            if count > SET_COUNTS[i] {
                issues.push(SetupIssue::TooManyPieces {
                    kind: PieceKind::ALL[i],
                    count,
                    max: SET_COUNTS[i],
                });
            }
        }
        // With two kings `kings` holds only the last one, so look at every king.
        let waiting = setup.side_to_move.flip();
        let occ = pos.occupied();
        let in_check = attacks::squares(pos.pieces(waiting, PieceKind::King))
            .any(|k| pos.attacked(k, setup.side_to_move, occ));
        if in_check {
            issues.push(SetupIssue::OpponentInCheck { color: waiting });
        }
        if setup.move_number == 0 {
            issues.push(SetupIssue::BadMoveNumber);
        }
        if issues.is_empty() {
            pos.refresh_checkers();
            pos.waiting_safe = true;
            Ok(pos)
        } else {
            Err(SetupErrors(issues))
        }
    }

    /// Like [`Position::from_setup`], but accepts the problems that do not
    /// stop play (dead pieces, nifu on the board, too many pieces of a kind),
    /// returning them beside the position. Composed problems such as the
    /// nine-pawn tsume put these on the board on purpose; real files win.
    /// Two kings of one side, or the side not to move in check, still fail.
    pub fn from_setup_lenient(setup: &Setup) -> Result<(Position, Vec<SetupIssue>), SetupErrors> {
        match Position::from_setup(setup) {
            Ok(p) => Ok((p, Vec::new())),
            Err(SetupErrors(issues)) => {
                let fatal = issues.iter().any(|i| {
                    matches!(
                        i,
                        SetupIssue::TooManyKings { .. }
                            | SetupIssue::OpponentInCheck { .. }
                            | SetupIssue::BadMoveNumber
                    )
                });
                if fatal {
                    return Err(SetupErrors(issues));
                }
                let mut pos = Position::empty(setup.side_to_move, setup.move_number);
                for sq in Square::all() {
                    if let Some(p) = setup.get(sq) {
                        pos.put(sq, p);
                    }
                }
                for c in Color::ALL {
                    for k in PieceKind::HAND {
                        for _ in 0..setup.hands[c.index()].count(k) {
                            pos.hand_add(c, k);
                        }
                    }
                }
                pos.refresh_checkers();
                // OpponentInCheck was among the fatal issues.
                pos.waiting_safe = true;
                Ok((pos, issues))
            }
        }
    }

    /// The position as an unchecked [`Setup`].
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            hands: self.hands,
            side_to_move: self.side,
            move_number: self.move_number,
        }
    }

    /// The board, square by square ([`Square::index`] order).
    #[inline]
    pub(crate) fn cells(&self) -> &[Option<Piece>; 81] {
        &self.board
    }

    /// Both hands, by [`Color::index`].
    #[inline]
    pub(crate) fn hands(&self) -> &[Hand; 2] {
        &self.hands
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The number of the next move (1 at the start of a game).
    #[inline]
    pub fn move_number(&self) -> u32 {
        self.move_number
    }

    /// The piece on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }

    /// The pieces `c` holds.
    #[inline]
    pub fn hand(&self, c: Color) -> Hand {
        self.hands[c.index()]
    }

    /// Where `c`'s king stands, if it has one.
    #[inline]
    pub fn king_square(&self, c: Color) -> Option<Square> {
        self.kings[c.index()]
    }

    /// Zobrist hash over board, hands and side to move (not the move number),
    /// kept incrementally. Equal positions have equal keys in every build.
    #[inline]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// Whether the side to move is in check (false when it has no king).
    pub fn in_check(&self) -> bool {
        self.checkers != 0
    }

    /// Squares of `by`'s pieces that attack `sq`, in index order.
    pub fn attackers(&self, sq: Square, by: Color) -> Vec<Square> {
        attacks::squares(self.attackers_bb(sq.index(), by, self.occupied()))
            .map(Square::from_index_unchecked)
            .collect()
    }

    /// Whether the piece on `from` could move to `to` by its movement alone:
    /// `to` is in its range with a clear path and does not hold an own piece.
    /// Checks and promotion are ignored. Used to resolve KI2 moves.
    pub fn can_reach(&self, from: Square, to: Square) -> bool {
        let Some(p) = self.board[from.index()] else {
            return false;
        };
        let (f, t) = (from.index(), to.index());
        if self.by_color[p.color.index()] & bb(t) != 0 {
            return false;
        }
        attacks::reaches(p.color, p.kind, f, t, self.occupied())
    }

    /// Play a move already checked: no legality check is made. Returns the
    /// kind of the captured piece as it stood (maybe promoted). Flips the
    /// side, increments the move number and updates the key.
    ///
    /// An unchecked illegal move never panics, but the resulting position
    /// may break the rules (it stays internally consistent).
    pub fn play_unchecked(&mut self, m: Move) -> Option<PieceKind> {
        let captured = self.relocate(m);
        self.refresh_checkers();
        self.waiting_safe = false;
        captured
    }

    /// Play `m`, which must pass `precheck` and leave the mover's king
    /// unattacked (any legal move does): like [`Position::play_unchecked`], but the checkers come from the
    /// move when the side that was waiting was known not to be in check.
    #[inline(always)]
    pub(crate) fn play_safe(&mut self, m: Move) -> Option<PieceKind> {
        let captured = self.relocate_legal(m);
        if self.waiting_safe {
            self.checkers = self.checkers_after(m);
        } else {
            self.refresh_checkers();
        }
        self.waiting_safe = true;
        captured
    }

    /// The attackers of the side to move's king just after `m`, given that
    /// nothing attacked it before: the moved piece, and a slider behind the
    /// vacated origin.
    #[inline(always)]
    fn checkers_after(&self, m: Move) -> Bitboard {
        let Some(ek) = self.kings[self.side.index()].map(|k| k.index()) else {
            return 0;
        };
        let mover = self.side.flip();
        let occ = self.occupied();
        let to = m.to().index();
        let mut checkers = match self.board[to] {
            Some(p) => attacks::direct_check(mover, p.kind, to, ek, occ),
            None => 0,
        };
        if let Move::Normal { from, .. } = m {
            checkers |= self.discovered_check(mover, from.index(), ek, occ);
        }
        checkers
    }

    /// `mover`'s slider whose line to the enemy king on `ek` was opened by
    /// vacating `from`, as a bitboard (empty if none), given the occupancy
    /// after the move.
    #[inline(always)]
    pub(crate) fn discovered_check(
        &self,
        mover: Color,
        from: usize,
        ek: usize,
        occ: Bitboard,
    ) -> Bitboard {
        let Some(d) = attacks::direction(ek, from) else {
            return 0;
        };
        // Most lines through the origin hold no slider of the right kind
        // at all, which spares the blocker search.
        let sliders = self.line_attackers(mover, d) & attacks::ray(d, ek);
        if sliders != 0
            && let Some(s) = attacks::first_blocker(d, ek, occ)
        {
            return sliders & bb(s);
        }
        0
    }

    /// `by`'s pieces that attack along a line a square lying in direction
    /// `d` from them (whatever stands between).
    #[inline(always)]
    pub(crate) fn line_attackers(&self, by: Color, d: usize) -> Bitboard {
        use PieceKind::*;
        let k = &self.by_kind;
        let kinds = if attacks::is_diagonal(d) {
            k[Bishop as usize] | k[Horse as usize]
        } else if d == attacks::lance_dir(by.flip()) {
            k[Rook as usize] | k[Dragon as usize] | k[Lance as usize]
        } else {
            k[Rook as usize] | k[Dragon as usize]
        };
        kinds & self.by_color[by.index()]
    }

    /// The board part of a move: pieces, hands, side, number and key.
    #[inline]
    fn relocate(&mut self, m: Move) -> Option<PieceKind> {
        let us = self.side;
        // Every legal move takes one of the two fast paths; the general one
        // keeps odd unchecked moves consistent.
        let fast = match m {
            Move::Normal { from, to, .. } => {
                match (self.board[from.index()], self.board[to.index()]) {
                    // An own piece on `to` (also when `to` is `from`) or a king
                    // taken: the general path.
                    (Some(p), cap) => {
                        p.color == us
                            && match cap {
                                None => true,
                                Some(c) => c.color != us && c.kind != PieceKind::King,
                            }
                    }
                    (None, _) => false,
                }
            }
            Move::Drop { kind, to } => {
                self.board[to.index()].is_none() && self.hands[us.index()].count(kind) > 0
            }
        };
        if fast {
            self.relocate_legal(m)
        } else {
            self.relocate_general(m)
        }
    }

    /// [`Position::relocate`] for a move that passed `precheck`: a board move
    /// of an own piece onto an empty square or an enemy piece other than the
    /// king, or a drop of a held kind onto an empty square. Those checks are
    /// not repeated here.
    #[inline(always)]
    pub(crate) fn relocate_legal(&mut self, m: Move) -> Option<PieceKind> {
        match m {
            Move::Normal { from, to, promote } => {
                let (f, t) = (from.index(), to.index());
                match self.board[f] {
                    Some(p) => self.relocate_board(p, f, t, promote, self.board[t]),
                    None => self.relocate_general(m),
                }
            }
            Move::Drop { kind, to } => {
                let n = self.hands[self.side.index()].count(kind);
                if n == 0 {
                    return self.relocate_general(m);
                }
                self.relocate_drop(kind, to.index(), n);
                None
            }
        }
    }

    /// A board move of `us`'s `p` from `f` to `t`, onto nothing or onto the
    /// enemy's non-king `cap`: each bitboard and key touched once.
    #[inline(always)]
    pub(crate) fn relocate_board(
        &mut self,
        p: Piece,
        f: usize,
        t: usize,
        promote: bool,
        cap: Option<Piece>,
    ) -> Option<PieceKind> {
        let us = p.color;
        let kind = p.kind.after_move(promote);
        let moved = Piece::new(us, kind);
        let (fb, tb) = (bb(f), bb(t));
        self.board[f] = None;
        self.board[t] = Some(moved);
        self.by_color[us.index()] ^= fb | tb;
        self.by_kind[p.kind as usize] ^= fb;
        self.by_kind[kind as usize] ^= tb;
        let mut key = self.key ^ zobrist::board(p, f) ^ zobrist::board(moved, t) ^ zobrist::side();
        if kind == PieceKind::King {
            self.kings[us.index()] = Some(Square::from_index_unchecked(t));
        }
        if let Some(c) = cap {
            self.by_color[c.color.index()] ^= tb;
            self.by_kind[c.kind as usize] ^= tb;
            key ^= zobrist::board(c, t);
            let hk = c.kind.unpromoted();
            let hand = &mut self.hands[us.index()];
            let n = hand.count(hk);
            if n < u8::MAX {
                key ^= zobrist::hand_step(us, hk, n);
                hand.set(hk, n + 1);
            }
        }
        self.key = key;
        self.side = us.flip();
        self.move_number = self.move_number.saturating_add(1);
        cap.map(|c| c.kind)
    }

    /// A drop of `kind`, of which the side to move holds `n` (at least one),
    /// on the empty square `t`.
    #[inline(always)]
    pub(crate) fn relocate_drop(&mut self, kind: PieceKind, t: usize, n: u8) {
        let us = self.side;
        let piece = Piece::new(us, kind);
        self.board[t] = Some(piece);
        self.by_color[us.index()] |= bb(t);
        self.by_kind[kind as usize] |= bb(t);
        self.hands[us.index()].set(kind, n - 1);
        self.key ^=
            zobrist::board(piece, t) ^ zobrist::hand_step(us, kind, n - 1) ^ zobrist::side();
        self.side = us.flip();
        self.move_number = self.move_number.saturating_add(1);
    }

    /// [`Position::relocate`] for any move, legal or not.
    #[cold]
    fn relocate_general(&mut self, m: Move) -> Option<PieceKind> {
        let us = self.side;
        let captured = match m {
            Move::Normal { from, to, promote } => match self.take(from) {
                Some(p) => {
                    let cap = self.take(to);
                    if let Some(c) = cap {
                        self.hand_add(us, c.kind.unpromoted());
                    }
                    let kind = if promote {
                        p.kind.promoted().unwrap_or(p.kind)
                    } else {
                        p.kind
                    };
                    self.put(to, Piece::new(p.color, kind));
                    cap.map(|c| c.kind)
                }
                None => None,
            },
            Move::Drop { kind, to } => {
                // Taking first keeps the bitboards consistent even for an
                // unchecked drop onto an occupied square.
                let cap = self.take(to);
                self.hand_remove(us, kind);
                self.put(to, Piece::new(us, kind));
                cap.map(|c| c.kind)
            }
        };
        self.side = us.flip();
        self.key ^= zobrist::side();
        self.move_number = self.move_number.saturating_add(1);
        captured
    }

    /// Entering-king declaration (入玉宣言) by the side to move, judged by
    /// conditions (b)–(e) of rules.md §8 ((a) holds by construction, (f),
    /// time, cannot be judged from a position): king in the enemy zone, not in
    /// check, at least 10 other pieces in the zone, and enough points (pieces
    /// in the zone other than the king plus the hand; rook, bishop and their
    /// promotions 5, others 1). Err says every condition that fails. A draw
    /// under the JSA rule is not a winning declaration: Err says so; see
    /// [`Position::judge_declaration`].
    pub fn check_declaration(&self, rule: DeclarationRule) -> Result<(), String> {
        match self.judge_declaration(rule)? {
            DeclarationOutcome::Win => Ok(()),
            DeclarationOutcome::Draw { points } => Err(format!(
                "{points} points, 31 needed to win (24 to 30 is a draw, 持将棋)"
            )),
        }
    }

    /// What a declaration by the side to move comes to under `rule`: a win,
    /// a draw (the JSA rule's 24 to 30 points), or Err with every condition
    /// of [`Position::check_declaration`] that fails (the declarer loses).
    pub fn judge_declaration(&self, rule: DeclarationRule) -> Result<DeclarationOutcome, String> {
        let us = self.side;
        let Some(k) = self.kings[us.index()] else {
            return Err(format!("{us} has no king"));
        };
        let mut why = Vec::new();
        if !k.in_zone(us) {
            why.push(format!("the king on {k} is not in the enemy zone"));
        }
        if self.in_check() {
            why.push("the king is in check".to_string());
        }
        let zone = attacks::ZONE[us.index()];
        let mine = self.by_color[us.index()] & zone & !self.by_kind[PieceKind::King as usize];
        let count = mine.count_ones();
        if count < 10 {
            why.push(format!(
                "only {count} pieces besides the king in the enemy zone (10 needed)"
            ));
        }
        use PieceKind::*;
        let big = self.by_kind[Bishop as usize]
            | self.by_kind[Rook as usize]
            | self.by_kind[Horse as usize]
            | self.by_kind[Dragon as usize];
        let hand = self.hands[us.index()];
        let mut points = count + 4 * (mine & big).count_ones();
        for kind in PieceKind::HAND {
            let value = if matches!(kind, Bishop | Rook) { 5 } else { 1 };
            points += value * hand.count(kind) as u32;
        }
        // The least that does not lose, and the least that wins.
        let (needed, wins) = match (rule, us) {
            (DeclarationRule::Points27, Color::Sente) => (28, 28),
            (DeclarationRule::Points27, Color::Gote) => (27, 27),
            (DeclarationRule::Points24, _) => (24, 31),
        };
        if points < needed {
            if wins > needed {
                why.push(format!(
                    "{points} points, {needed} needed for a draw and {wins} to win"
                ));
            } else {
                why.push(format!("{points} points, {needed} needed"));
            }
        }
        if !why.is_empty() {
            Err(why.join("; "))
        } else if points < wins {
            Ok(DeclarationOutcome::Draw { points })
        } else {
            Ok(DeclarationOutcome::Win)
        }
    }

    // ---- internal state helpers -------------------------------------------

    #[inline]
    pub(crate) fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    #[inline]
    pub(crate) fn pieces(&self, c: Color, k: PieceKind) -> Bitboard {
        self.by_color[c.index()] & self.by_kind[k as usize]
    }

    #[inline]
    fn put(&mut self, sq: Square, p: Piece) {
        let i = sq.index();
        self.board[i] = Some(p);
        self.by_color[p.color.index()] |= bb(i);
        self.by_kind[p.kind as usize] |= bb(i);
        self.key ^= zobrist::board(p, i);
        if p.kind == PieceKind::King {
            self.kings[p.color.index()] = Some(sq);
        }
    }

    #[inline]
    fn take(&mut self, sq: Square) -> Option<Piece> {
        let i = sq.index();
        let p = self.board[i].take()?;
        self.by_color[p.color.index()] &= !bb(i);
        self.by_kind[p.kind as usize] &= !bb(i);
        self.key ^= zobrist::board(p, i);
        if p.kind == PieceKind::King && self.kings[p.color.index()] == Some(sq) {
            self.kings[p.color.index()] = None;
        }
        Some(p)
    }

    #[inline]
    fn hand_add(&mut self, c: Color, kind: PieceKind) {
        if (kind as usize) < 7 {
            let hand = &mut self.hands[c.index()];
            let n = hand.count(kind);
            if n < u8::MAX {
                self.key ^= zobrist::hand(c, kind, n) ^ zobrist::hand(c, kind, n + 1);
                hand.set(kind, n + 1);
            }
        }
    }

    #[inline]
    fn hand_remove(&mut self, c: Color, kind: PieceKind) {
        let hand = &mut self.hands[c.index()];
        let n = hand.count(kind);
        if n > 0 {
            self.key ^= zobrist::hand(c, kind, n) ^ zobrist::hand(c, kind, n - 1);
            hand.set(kind, n - 1);
        }
    }

    /// `by`'s pieces attacking square index `sq`, given the occupancy `occ`.
    pub(crate) fn attackers_bb(&self, sq: usize, by: Color, occ: Bitboard) -> Bitboard {
        self.step_attackers(sq, by) | self.slider_attackers(sq, by, occ)
    }

    /// `by`'s non-sliding attackers of `sq`, sliders' steps included.
    #[inline(always)]
    fn step_attackers(&self, sq: usize, by: Color) -> Bitboard {
        use PieceKind::*;
        // A `by` piece on x attacks sq exactly when the same kind of the
        // other colour on sq would attack x, so the tables are read backwards.
        let rev = by.flip();
        let k = &self.by_kind;
        let gold_like = k[Gold as usize]
            | k[ProPawn as usize]
            | k[ProLance as usize]
            | k[ProKnight as usize]
            | k[ProSilver as usize];
        let a = (attacks::step(rev, Pawn, sq) & k[Pawn as usize])
            | (attacks::step(rev, Knight, sq) & k[Knight as usize])
            | (attacks::step(rev, Silver, sq) & k[Silver as usize])
            | (attacks::step(rev, Gold, sq) & gold_like)
            | (attacks::step(rev, King, sq)
                & (k[King as usize] | k[Horse as usize] | k[Dragon as usize]));
        a & self.by_color[by.index()]
    }

    /// `by`'s sliders attacking `sq` along a clear line. The sliders on the
    /// lines through `sq` are few (often none), so testing the path to each
    /// costs less than building the rook and bishop attack sets.
    #[inline(always)]
    fn slider_attackers(&self, sq: usize, by: Color, occ: Bitboard) -> Bitboard {
        use PieceKind::*;
        let k = &self.by_kind;
        let lined = ((k[Lance as usize] & attacks::lance_pseudo_towards(by.flip(), sq))
            | ((k[Bishop as usize] | k[Horse as usize]) & attacks::bishop_pseudo(sq))
            | ((k[Rook as usize] | k[Dragon as usize]) & attacks::rook_pseudo(sq)))
            & self.by_color[by.index()];
        let mut a = 0;
        for s in attacks::squares(lined) {
            if attacks::between(sq, s) & occ == 0 {
                a |= bb(s);
            }
        }
        a
    }

    /// Whether any of `by`'s pieces attacks `sq` given the occupancy `occ`:
    /// [`Position::attackers_bb`] `!= 0`, without the slider search when a
    /// stepping piece already attacks.
    pub(crate) fn attacked(&self, sq: usize, by: Color, occ: Bitboard) -> bool {
        self.step_attackers(sq, by) != 0 || self.slider_attackers(sq, by, occ) != 0
    }

    /// Recompute `checkers` from scratch.
    #[inline]
    pub(crate) fn refresh_checkers(&mut self) {
        self.checkers = match self.kings[self.side.index()] {
            Some(k) => self.attackers_bb(k.index(), self.side.flip(), self.occupied()),
            None => 0,
        };
    }

    /// Whether `c`'s king is attacked (false without a king), computed from
    /// scratch without `checkers`.
    pub(crate) fn king_attacked(&self, c: Color) -> bool {
        match self.kings[c.index()] {
            Some(k) => self.attacked(k.index(), c.flip(), self.occupied()),
            None => false,
        }
    }

    /// `c`'s pieces pinned against `c`'s king on `ksq`, given the occupancy.
    pub(crate) fn pinned(&self, c: Color, ksq: usize, occ: Bitboard) -> Bitboard {
        use PieceKind::*;
        let k = &self.by_kind;
        let snipers = (((k[Rook as usize] | k[Dragon as usize]) & attacks::rook_pseudo(ksq))
            | ((k[Bishop as usize] | k[Horse as usize]) & attacks::bishop_pseudo(ksq))
            | (k[Lance as usize] & attacks::lance_pseudo_towards(c, ksq)))
            & self.by_color[c.flip().index()];
        let mut pinned = 0;
        for s in attacks::squares(snipers) {
            let b = attacks::between(ksq, s) & occ;
            if b != 0 && !attacks::more_than_one(b) {
                pinned |= b & self.by_color[c.index()];
            }
        }
        pinned
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_round_trips() {
        let p = Position::startpos();
        assert_eq!(p.to_sfen(), Handicap::Hirate.sfen());
        assert!(!p.in_check());
        assert_eq!(p.king_square(Color::Sente), Square::new(5, 9));
    }

    #[test]
    fn preset_shortcut_matches_the_full_check() {
        for h in Handicap::ALL {
            for n in [1, 7, 0] {
                let mut setup = h.setup();
                setup.move_number = n;
                let fast = Position::from_setup(&setup);
                let slow = Position::from_setup_checked(&setup);
                assert_eq!(fast, slow, "{h:?} move {n}");
                if let (Ok(a), Ok(b)) = (fast, slow) {
                    assert_eq!(a.key(), b.key());
                    assert_eq!(a.checkers, b.checkers);
                    assert_eq!(a.kings, b.kings);
                    assert_eq!((a.by_color, a.by_kind), (b.by_color, b.by_kind));
                }
            }
            let a = Position::from_handicap(h);
            let b = Position::from_setup_checked(&h.setup()).unwrap();
            assert_eq!(a, b, "{h:?}");
            assert_eq!(
                (a.key(), a.checkers, a.kings),
                (b.key(), b.checkers, b.kings)
            );
            assert_eq!((a.by_color, a.by_kind), (b.by_color, b.by_kind));
            assert_eq!(
                (a.move_number, a.waiting_safe),
                (b.move_number, b.waiting_safe)
            );
        }
    }

    #[test]
    fn key_ignores_move_number_and_tracks_side() {
        let a = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b P 1").unwrap();
        let b = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 b P 40").unwrap();
        let c = Position::from_sfen("4k4/9/9/9/9/9/9/9/4K4 w P 1").unwrap();
        assert_eq!(a.key(), b.key());
        assert_ne!(a.key(), c.key());
    }
}
