//! Replaying a [`Record`] on the rules engine: every move judged, every foul
//! named, every ending checked against the board.
//!
//! Repetition lives here, not in [`Position`]: the replayer keeps the keys of
//! the positions seen on the current line of play.

mod ending;
mod line;

use crate::codes::{DiagnosticCode, Reason};
use crate::error::{Error, ErrorKind};
use crate::record::{Ending, Line, Location, MoveEntry, Notation, Record, StartPosition};
use crate::resolve::{Unresolved, resolve};
use crate::rules::position::{DeclarationRule, Position};
use crate::rules::rule::Rule;
use crate::rules::types::{Color, Move, PieceKind, Square};
use line::replay_line;

/// Bits in [`History`]'s filter of keys seen. A set bit costs a pass over
/// every key of the line, so the filter is sized for a game's positions to
/// rarely share a bit. The price is 2 KiB zeroed for each line and copied
/// for each variation, small beside replaying either.
const FILTER_BITS: usize = 16384;

/// Options for [`replay`].
///
/// ```
/// use kifu::ReplayOptions;
/// use kifu::DeclarationRule;
///
/// let opts = ReplayOptions::default().declaration(DeclarationRule::Points24);
/// assert_eq!(opts.declaration, DeclarationRule::Points24);
/// ```
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct ReplayOptions {
    /// The entering-king rule used to judge declarations.
    pub declaration: DeclarationRule,
}

impl ReplayOptions {
    /// These options, judging declarations by `rule`.
    pub fn declaration(mut self, rule: DeclarationRule) -> ReplayOptions {
        self.declaration = rule;
        self
    }
}

impl Default for ReplayOptions {
    fn default() -> Self {
        ReplayOptions {
            declaration: DeclarationRule::Points27,
        }
    }
}

/// One legal move that was played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The move.
    pub mv: Move,
    /// Who played it.
    pub color: Color,
    /// The piece before the move (the kind dropped, for a drop).
    pub piece: PieceKind,
    /// The piece captured, as it stood on the board.
    pub capture: Option<PieceKind>,
    /// Whether the move gives check.
    pub check: bool,
    /// Whether the destination is the previous move's destination (同).
    pub same: bool,
}

/// The first illegal move of a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Foul {
    /// 1-based ply within the record (1 = the first move after the start position).
    pub ply: u32,
    /// The move number as the record counts it (differs from `ply` after a 手数＝N diagram).
    pub move_number: u32,
    /// The rule broken.
    pub rule: Rule,
    /// The side that loses: the one that played the move, but for a
    /// perpetual check the checking side, whose opponent's move may be the
    /// one that completed the repetition ([`LineResult::foul_move`] says who
    /// moved).
    pub loser: Color,
    /// The move, where one could be formed (for a perpetual check, the
    /// move that completed the repetition, which is the line's last ply).
    pub mv: Option<Move>,
    /// The piece that moved, where known.
    pub piece: Option<PieceKind>,
    /// Where the move (or declaration) is written.
    pub span: Location,
    /// Why, in words.
    pub detail: String,
}

/// Whether every move of a line was legal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// No foul.
    Legal,
    /// The first foul, which ended the line.
    Foul(Foul),
}

impl Verdict {
    /// Whether the line is free of fouls.
    pub fn is_legal(&self) -> bool {
        matches!(self, Verdict::Legal)
    }
}

/// Who won and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameResult {
    /// The winner, or `None` for a draw or no result.
    pub winner: Option<Color>,
    /// A stable reason code: `resign`, `checkmate`, `no-legal-move` (no
    /// legal move without being in check), `foul`, `sennichite`,
    /// `declaration`, `time-up`, `jishogi` (also a declaration's draw under
    /// the JSA rule), `max-moves`, `interrupted`, `none`, …
    pub reason: Reason,
}

/// Something worth telling the user that is not a foul.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// What kind of finding; [`DiagnosticCode::code`] is the stable string
    /// (`moves-after-foul`, `false-mate-claim`, …).
    pub code: DiagnosticCode,
    /// The explanation.
    pub message: String,
    /// Where, if it points at the file.
    pub span: Option<Location>,
    /// The ply concerned, if any.
    pub ply: Option<u32>,
}

/// How the replay of a line ended on the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardEnd {
    /// The moves simply ran out.
    None,
    /// The side to move is checkmated after the last ply.
    Checkmate,
    /// The side to move has no legal move without being in check.
    NoLegalMove,
    /// The fourth occurrence of a position: a draw.
    Sennichite,
}

/// The replay of one line of play (the main line or a variation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineResult {
    /// The legal plies, in order. Ply `i` came from the line's move `i`.
    pub plies: Vec<Ply>,
    /// Legal, or the first foul.
    pub verdict: Verdict,
    /// The result.
    pub result: GameResult,
    /// Diagnostics, in ply order.
    pub diagnostics: Vec<Diagnostic>,
    /// What the board says about the end.
    pub board_end: BoardEnd,
    /// The ply number of the line's first move (1 for the main line).
    pub first_ply: u32,
}

/// A foul's move, as the side that played it wrote it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FoulMove {
    /// The side that played the move: the loser, but for a perpetual check
    /// completed by the checked side's move.
    pub color: Color,
    /// The move.
    pub mv: Move,
    /// The piece before the move, where known.
    pub piece: Option<PieceKind>,
    /// Whether the destination is the previous move's (同); the previous
    /// move of a variation's first move is not known here, so it is false.
    pub same: bool,
    /// Whether the move was played on the board and is the line's last
    /// ply: a foul judged on a move already played (perpetual check).
    pub played: bool,
}

impl LineResult {
    /// Whether the line's foul is judged on a move already played: the
    /// fourth occurrence of a position under perpetual check is reached by
    /// a legal move, which is then the last of [`LineResult::plies`].
    pub fn foul_played(&self) -> bool {
        match &self.verdict {
            Verdict::Foul(f) => {
                f.rule == Rule::PerpetualCheck
                    && !self.plies.is_empty()
                    && f.ply + 1 == self.first_ply + self.plies.len() as u32
            }
            Verdict::Legal => false,
        }
    }

    /// How many of [`LineResult::plies`] come before the foul's move (all
    /// of them for a legal line): the position before the foul is the one
    /// after these.
    pub fn plies_before_foul(&self) -> usize {
        self.plies.len() - usize::from(self.foul_played())
    }

    /// The foul's move, where one could be formed: by whom, the piece and
    /// 同, from the ply itself for a foul judged on a move already played.
    pub fn foul_move(&self) -> Option<FoulMove> {
        let Verdict::Foul(f) = &self.verdict else {
            return None;
        };
        if self.foul_played() {
            let p = self.plies.last()?;
            return Some(FoulMove {
                color: p.color,
                mv: p.mv,
                piece: Some(p.piece),
                same: p.same,
                played: true,
            });
        }
        let mv = f.mv?;
        Some(FoulMove {
            color: f.loser,
            mv,
            piece: f.piece,
            same: self.plies.last().is_some_and(|p| p.mv.to() == mv.to()),
            played: false,
        })
    }
}

/// A replayed variation: where it branches, and its replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariationResult {
    /// Index into [`Game::variations`] of the line it branches from, or `None` for the main line.
    pub parent: Option<usize>,
    /// Index of the move in the parent line that this variation replaces;
    /// the parent's number of moves for an alternative to its ending.
    pub entry: usize,
    /// Index within that move's `variations` (the parent's
    /// `ending_variations` for an alternative to its ending).
    pub index: usize,
    /// The replay.
    pub line: LineResult,
}

/// A record replayed: the start position, the main line and every variation.
#[derive(Clone, Debug)]
pub struct Game {
    /// The record as read.
    pub record: Record,
    /// The start position, checked.
    pub start: Position,
    /// The main line.
    pub main: LineResult,
    /// Every variation, parents before children.
    pub variations: Vec<VariationResult>,
}

impl Game {
    /// How deep variations nest: 0 without variations, 1 when they all
    /// branch from the main line. Computed without recursion because
    /// parents always come before their children.
    pub fn max_variation_depth(&self) -> usize {
        let mut depth = Vec::with_capacity(self.variations.len());
        for v in &self.variations {
            let d = v.parent.and_then(|p| depth.get(p).copied()).unwrap_or(0) + 1;
            depth.push(d);
        }
        depth.into_iter().max().unwrap_or(0)
    }

    /// How many variations the record holds, at any depth: more than
    /// [`Game::variations`] when some branch past the legal part of their
    /// line and could not be replayed (writers count those as dropped).
    pub fn recorded_variations(&self) -> usize {
        self.record.variation_count()
    }

    /// The variation lines of the record, in the order of [`Game::variations`].
    pub fn variation_line(&self, i: usize) -> Option<&Line> {
        line_at(&self.record, &self.variations, Some(i))
    }

    /// The record's line of variation `i` (or the main line for `None`),
    /// to change what its moves carry: comments, evaluations.
    pub fn record_line_mut(&mut self, which: Option<usize>) -> Option<&mut Line> {
        // The path from the main line down, as (entry, index) steps.
        let mut path = Vec::new();
        let mut cur = which;
        while let Some(i) = cur {
            let v = self.variations.get(i)?;
            path.push((v.entry, v.index));
            cur = v.parent;
        }
        let mut line = &mut self.record.main;
        for (entry, index) in path.into_iter().rev() {
            let n = line.moves.len();
            line = if entry < n {
                line.moves[entry].extra_mut().variations.get_mut(index)?
            } else if entry == n {
                line.ending_variations.get_mut(index)?
            } else {
                return None;
            };
        }
        Some(line)
    }
}

/// Repetition bookkeeping for one line: the keys seen and the checks given.
///
/// Counting is by a filter rather than a map: most positions of a game are
/// new, and a clear bit (indexed by the key's low bits, which are as random
/// as the rest of a zobrist key) proves it with one load. Only a set bit
/// costs a scan of `keys`.
#[derive(Clone, Debug)]
struct History {
    /// The start position's key, then each ply's: the key of the position
    /// it reached and whether it gave check (one vector: one push a ply).
    keys: Vec<(u64, bool)>,
    /// Bit `key % FILTER_BITS` is set for every key in `keys`.
    seen: [u64; FILTER_BITS / 64],
}

impl History {
    /// `plies`: how many moves the line is expected to add (sized up front).
    fn new(start: &Position, plies: usize) -> History {
        let mut h = History {
            keys: Vec::with_capacity(plies + 1),
            seen: [0; FILTER_BITS / 64],
        };
        h.keys.push((start.key(), false));
        h.mark(start.key());
        h
    }

    /// Set `key`'s filter bit; whether it was set already.
    #[inline]
    fn mark(&mut self, key: u64) -> bool {
        let bit = key as usize % FILTER_BITS;
        let word = &mut self.seen[bit / 64];
        let mask = 1u64 << (bit % 64);
        let was = *word & mask != 0;
        *word |= mask;
        was
    }

    /// Record a ply; returns the count of the new position.
    #[inline]
    fn push(&mut self, key: u64, check: bool) -> u8 {
        self.keys.push((key, check));
        if !self.mark(key) {
            return 1;
        }
        let n = self.keys.iter().filter(|&&(k, _)| k == key).count();
        u8::try_from(n).unwrap_or(u8::MAX)
    }

    /// For a fourth occurrence just reached: the side that checked with
    /// every move since the first occurrence, if any.
    fn perpetual_checker(&self, last_mover: Color) -> Option<Color> {
        let (key, _) = *self.keys.last()?;
        let first = self.keys.iter().position(|&(k, _)| k == key)?;
        // The plies from the first occurrence on.
        let cycle = &self.keys[first + 1..];
        for side in [last_mover, last_mover.flip()] {
            // The last ply was by `last_mover`; walk back with alternating movers.
            let mut all = true;
            let mut any = false;
            for (back, &(_, chk)) in cycle.iter().rev().enumerate() {
                let mover = if back % 2 == 0 {
                    last_mover
                } else {
                    last_mover.flip()
                };
                if mover == side {
                    any = true;
                    all &= chk;
                }
            }
            if any && all {
                return Some(side);
            }
        }
        None
    }
}

/// Replay `record` from its start position, judging every move.
///
/// The main line and every variation are played against the full rules; the
/// first illegal move of a line ends it as a foul (hansoku-make) for the side
/// that played it, and the recorded ending (resignation, a mate or
/// declaration claim, …) is checked against the board.
///
/// # Errors
///
/// Fails only when the start position itself is not a legal position
/// ([`ErrorKind::Setup`]); an illegal move is a [`Verdict::Foul`], not an error.
///
/// # Example
///
/// ```
/// use kifu::{Format, ReplayOptions, Verdict, parse, replay};
///
/// let record = parse::parse("position startpos moves 7g7f 3c3d 8h2b+\n", Format::Usi)?.remove(0);
/// let game = replay(record, &ReplayOptions::default())?;
/// assert_eq!(game.main.plies.len(), 3);
/// assert_eq!(game.main.verdict, Verdict::Legal);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn replay(record: Record, opts: &ReplayOptions) -> Result<Game, Error> {
    // A preset needs neither a setup built nor a search of the presets.
    let (start, issues) = match &record.start {
        StartPosition::Preset(h) => (Position::from_handicap(*h), Vec::new()),
        StartPosition::Setup(setup) => {
            Position::from_setup_lenient(setup).map_err(|e| Error::new(ErrorKind::Setup(e)))?
        }
        StartPosition::Variant(b) => return Err(Error::new(ErrorKind::Variant(b.variant()))),
    };
    let history = History::new(&start, record.main.moves.len());
    let closing = closing_ending(&record, &start);
    let mut main = replay_line(
        &record.main,
        start.clone(),
        history,
        None,
        1,
        closing.as_ref(),
        opts,
    );
    if !issues.is_empty() {
        let list: Vec<String> = issues.iter().map(|i| i.to_string()).collect();
        main.diagnostics.insert(
            0,
            Diagnostic {
                code: DiagnosticCode::IrregularStart,
                message: format!(
                    "the start position breaks the rules of a game ({}); replayed as written",
                    list.join("; ")
                ),
                span: record.start_span,
                ply: None,
            },
        );
    }
    // What the parser read by assumption comes first: it is about the
    // whole record.
    let notices = record.notices.iter().map(|n| Diagnostic {
        code: n.code,
        message: n.message.clone(),
        span: Some(n.span),
        ply: None,
    });
    main.diagnostics.splice(0..0, notices);
    main.diagnostics
        .extend(closing_diagnostics(&record, &start, &main));
    main.diagnostics
        .extend(ending::move_limit_claim(&record, &main));
    let variations = replay_variations(&record, &start, &mut main, opts);
    Ok(Game {
        record,
        start,
        main,
        variations,
    })
}

/// Every variation of `record`, parents before children, each replayed
/// from the position before the move (or ending) it replaces. Variations
/// that branch past the legal part of their line have no position to start
/// from: the line gets a diagnostic saying so.
fn replay_variations(
    record: &Record,
    start: &Position,
    main: &mut LineResult,
    opts: &ReplayOptions,
) -> Vec<VariationResult> {
    // Iteratively (no recursion: files can nest them deeply).
    let mut variations: Vec<VariationResult> = Vec::new();
    struct Work<'a> {
        parent: Option<usize>,
        line: &'a Line,
    }
    let mut stack = vec![Work {
        parent: None,
        line: &record.main,
    }];
    while let Some(w) = stack.pop() {
        if !w.line.has_variations() {
            continue;
        }
        // Walk the parent line again to get the position before each branching move.
        let (mut pos, mut hist, mut prev_to, first_ply) = match w.parent {
            None => (
                start.clone(),
                History::new(start, record.main.moves.len()),
                None,
                1u32,
            ),
            Some(p) => {
                let (pos, hist, prev_to) = branch_state(start, record, &variations, p);
                (pos, hist, prev_to, variations[p].line.first_ply)
            }
        };
        let parent_result_len = match w.parent {
            None => main.plies.len(),
            Some(p) => variations[p].line.plies.len(),
        };
        let mut reached = 0;
        // One step past the moves: the alternatives to the line's ending
        // start from the position after its last move.
        for i in 0..=w.line.moves.len() {
            reached = i;
            for (vi, var) in w.line.variations_at(i).iter().enumerate() {
                let line = replay_line(
                    var,
                    pos.clone(),
                    hist.clone(),
                    prev_to,
                    first_ply + i as u32,
                    None,
                    opts,
                );
                variations.push(VariationResult {
                    parent: w.parent,
                    entry: i,
                    index: vi,
                    line,
                });
                stack.push(Work {
                    parent: Some(variations.len() - 1),
                    line: var,
                });
            }
            let Some(entry) = w.line.moves.get(i).filter(|_| i < parent_result_len) else {
                break;
            };
            // Advance along the legal part of the parent line.
            if !advance(&mut pos, &mut hist, &mut prev_to, entry) {
                break;
            }
        }
        if let Some(d) = unreplayed_variations(w.line, reached, first_ply) {
            match w.parent {
                None => main.diagnostics.push(d),
                Some(p) => variations[p].line.diagnostics.push(d),
            }
        }
    }
    variations
}

/// The diagnostic for the variations of `line` that branch after move
/// `reached`, where its replay ended, if there are any.
fn unreplayed_variations(line: &Line, reached: usize, first_ply: u32) -> Option<Diagnostic> {
    let after = reached + 1..=line.moves.len();
    let count: usize = after.clone().map(|j| line.variations_at(j).len()).sum();
    let first = after.clone().find(|&j| !line.variations_at(j).is_empty())?;
    let span = line.variations_at(first)[0]
        .moves
        .first()
        .map(|m| m.span)
        .or_else(|| line.moves.get(first).map(|m| m.span));
    Some(Diagnostic {
        code: DiagnosticCode::VariationsNotReplayed,
        message: format!(
            "{count} variation{} branch{} at or after ply {}, past the point where replay of the line ended; not replayed (kept in the record)",
            if count == 1 { "" } else { "s" },
            if count == 1 { "es" } else { "" },
            first_ply + first as u32
        ),
        span,
        ply: Some(first_ply + first as u32),
    })
}

/// The ending the record's `まで…` line (its first) states, for a main line
/// with no terminal move (a KIF may leave it out; kif.md §8.1 makes the
/// line the fallback). Only a line that counts the main line's moves is
/// taken: one that counts more is how a record cut short shows itself, and
/// its result is not about this position. As the line has no span in the
/// record, a foul it claims points at the last move.
fn closing_ending(record: &Record, start: &Position) -> Option<Ending> {
    if record.main.ending.is_some() {
        return None;
    }
    let claim = record.closing.as_ref()?;
    let written = record.main.moves.len() as u32;
    let counted_from_start = start.move_number().saturating_sub(1) + written;
    if claim.moves != written && claim.moves != counted_from_start {
        return None;
    }
    Some(Ending {
        kind: claim.ending?,
        text: claim.text.clone(),
        span: record.main.moves.last().map_or(record.span, |m| m.span),
        time: None,
        comments: Vec::new(),
    })
}

/// Compare the record's `まで…` line (its first) with the main line as
/// written and as replayed.
fn closing_diagnostics(record: &Record, start: &Position, main: &LineResult) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let Some(claim) = &record.closing else {
        return out;
    };
    let text = &claim.text;
    let written = record.main.moves.len() as u32;
    // After a 手数＝N diagram some writers count from the game's first move.
    let counted_from_start = start.move_number().saturating_sub(1) + written;
    if claim.moves != written && claim.moves != counted_from_start {
        let why = if claim.moves > written {
            "moves may be missing (a record cut short) or the writer miscounted"
        } else {
            "moves may have been added after it was written"
        };
        out.push(Diagnostic {
            code: DiagnosticCode::ClosingCountDisagrees,
            message: format!(
                "the closing line {text:?} counts {} moves, but the main line has {written}: {why}",
                claim.moves
            ),
            span: None,
            ply: None,
        });
    }
    if let (Some(named), Some(winner)) = (claim.winner, main.result.winner)
        && named != winner
    {
        out.push(Diagnostic {
                code: DiagnosticCode::ClosingWinnerDisagrees,
                message: format!(
                    "the closing line {text:?} names {} the winner, but the replay gives the game to {} ({})",
                    named.name(),
                    winner.name(),
                    main.result.reason
                ),
                span: None,
                ply: None,
            });
    }
    out
}

/// The position, history and previous destination at the start of variation `v`.
fn branch_state(
    start: &Position,
    record: &Record,
    variations: &[VariationResult],
    v: usize,
) -> (Position, History, Option<Square>) {
    // The chain of (line, number of its moves to play) from the main line down to `v`.
    let mut chain: Vec<(Option<usize>, usize)> = Vec::new();
    let mut cur = Some(v);
    // Nothing of `v` itself is played: the state wanted is the one before its first move.
    let mut upto = 0;
    while let Some(i) = cur {
        chain.push((Some(i), upto));
        upto = variations[i].entry;
        cur = variations[i].parent;
    }
    chain.push((None, upto));
    chain.reverse();
    let mut pos = start.clone();
    let mut hist = History::new(start, 0);
    let mut prev_to = None;
    for (which, n) in chain {
        let Some(line) = line_at(record, variations, which) else {
            break;
        };
        for entry in line.moves.iter().take(n) {
            if !advance(&mut pos, &mut hist, &mut prev_to, entry) {
                break;
            }
        }
    }
    (pos, hist, prev_to)
}

/// The record line of the main line (`None`) or of variation `Some(i)`.
fn line_at<'a>(
    record: &'a Record,
    variations: &[VariationResult],
    which: Option<usize>,
) -> Option<&'a Line> {
    let Some(i) = which else {
        return Some(&record.main);
    };
    let vr = variations.get(i)?;
    let parent = line_at(record, variations, vr.parent)?;
    parent.variations_at(vr.entry).get(vr.index)
}

/// Play `entry` if it resolves to a legal move, keeping the repetition
/// history and the previous destination; false where the legal part ends.
fn advance(
    pos: &mut Position,
    hist: &mut History,
    prev_to: &mut Option<Square>,
    entry: &MoveEntry,
) -> bool {
    let Ok((mv, _, _)) = play_entry(pos, &entry.notation, *prev_to) else {
        return false;
    };
    hist.push(pos.key(), pos.in_check());
    *prev_to = Some(mv.to());
    true
}

/// Resolve and play `notation` on `pos` (`prev_to` for `同`): the move, the
/// piece that made it (before the move) and the kind captured, or why not;
/// on failure `pos` is unchanged.
#[inline(always)]
fn play_entry(
    pos: &mut Position,
    notation: &Notation,
    prev_to: Option<Square>,
) -> Result<(Move, PieceKind, Option<PieceKind>), Stop> {
    let us = pos.side_to_move();
    match resolve(pos, notation, prev_to) {
        Ok(r) => {
            let mover = r.color.unwrap_or(us);
            let played = if mover == us {
                pos.play(r.mv)
            } else {
                Err(Rule::WrongTurn)
            };
            match played {
                Ok(capture) => Ok((r.mv, r.piece, capture)),
                Err(rule) => Err(Stop::Illegal(r.mv, r.piece, mover, rule)),
            }
        }
        Err(u) => Err(Stop::Unresolved(u)),
    }
}

/// Why the replay of a line stopped at a move.
enum Stop {
    /// The notation named no move.
    Unresolved(Unresolved),
    /// The move was formed but the rules refuse it (`rule`): the move, the
    /// piece that made it and the colour that played it.
    Illegal(Move, PieceKind, Color, Rule),
}
