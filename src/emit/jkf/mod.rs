//! JSON Kifu Format (`.jkf`) out, in the normalised form `jkf.md` §5 asks
//! of a converter: every move carries `color`, `from`, `to`, `piece`,
//! `same`, `promote`, `capture` and `relative` computed from the replay.
//!
//! The document is built as typed structures that borrow from the game and
//! are serialised by serde_json: a `serde_json::Value` tree cost an
//! allocation and a hashed insertion per field (a map and a `String` key per
//! object), which was most of the writer's time. Field order is the order
//! of declaration, so the output is deterministic and a second conversion
//! of the output is byte-identical.
//!
//! JKF has no field for bookmarks or evaluations: they are comments (`&` and
//! the bookmark, `* 30 -3334FU`), written after an entry's other comments,
//! whatever the writer adds to it later, and lifted back out by the reader.
//! A comment that would be lifted as one gets a space in front.

use crate::codes::WarningCode;
use crate::emit::Warning;
use crate::notation::{notation_text, written_piece};
use crate::record::{Ending, EndingKind, HeaderField, Line, MoveEntry, MoveTime};
use crate::relative::{jkf_code, relative_for};
use crate::replay::{Foul, Game, LineResult, Verdict};
use crate::rules::position::Position;
use crate::rules::rule::Rule;
use crate::rules::types::{Color, Move, PieceKind, Square};
use doc::{Cell, Comments, Document, Entry, HandOut, Header, Initial, InitialData};
use doc::{MoveOut, Now, Out, Place, TimeOut, Total};
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

mod doc;

/// The JKF key a header key is written under: CSA names are mapped to the
/// KIF names the JKF tools use (`jkf.md` §2, the JKF column of
/// [`SPELLINGS`](crate::record::SPELLINGS)); other keys are kept verbatim.
pub fn header_key(key: &str) -> &str {
    let csa = key.strip_prefix('$').unwrap_or(key);
    crate::record::header::by_csa(csa)
        .and_then(|s| s.jkf)
        .unwrap_or(key)
}

/// The game as pretty-printed JKF (two-space indent, final newline), with
/// warnings for what JKF cannot hold.
///
/// A line that ended by a foul is written as its legal plies, then the foul
/// move when one could be formed, then `+ILLEGAL_ACTION`/`-ILLEGAL_ACTION`
/// naming the offender; moves written after the foul survive only as a
/// comment.
pub fn write(game: &Game) -> (String, Vec<Warning>) {
    let mut w = Writer {
        game,
        warnings: Vec::new(),
        index: game
            .variations
            .iter()
            .enumerate()
            .map(|(i, v)| ((v.parent, v.entry, v.index), i))
            .collect(),
        written_variations: 0,
    };
    let header = w.header(&game.record.header);
    let initial = w.initial();
    // The start entry, every ply and an ending: one allocation for the main line.
    let mut moves = Vec::with_capacity(game.main.plies.len() + 2);
    let mut start = Comments::of(&game.record.comments);
    start
        .marks
        .extend(bookmark_comments(&game.record.bookmarks));
    moves.push(Entry {
        comments: start,
        ..Entry::default()
    });
    w.line(
        &game.record.main,
        &game.main,
        None,
        LineState {
            pos: game.start.clone(),
            totals: [0; 2],
            prev_to: None,
        },
        &mut moves,
    );
    w.finish();
    let doc = Document {
        header,
        initial,
        moves,
    };
    // A ply takes 250 to 400 bytes pretty-printed; sizing the buffer once
    // spares the copies of growing it by doubling.
    let plies: usize = game.main.plies.len()
        + game
            .variations
            .iter()
            .map(|v| v.line.plies.len())
            .sum::<usize>();
    let mut out = Out(Vec::with_capacity(4096 + 448 * plies));
    serde_json::to_writer_pretty(&mut out, &doc).expect("the document has only string keys");
    out.0.push(b'\n');
    let text = String::from_utf8(out.0).expect("serde_json writes UTF-8");
    (text, w.warnings)
}

/// A special entry: the word, the time on it, its comments.
type Special<'a> = (&'static str, Option<MoveTime>, Comments<'a>);

/// Where a line stands while it is written.
#[derive(Clone)]
struct LineState {
    pos: Position,
    /// Each side's running time total, in ms.
    totals: [u64; 2],
    prev_to: Option<Square>,
}

struct Writer<'a> {
    game: &'a Game,
    warnings: Vec<Warning>,
    /// (parent, entry, index) → index into `game.variations`.
    index: HashMap<(Option<usize>, usize, usize), usize>,
    written_variations: usize,
}

impl<'a> Writer<'a> {
    fn warn(&mut self, code: WarningCode, message: String) {
        self.warnings.push(Warning { code, message });
    }

    fn header(&mut self, fields: &'a [HeaderField]) -> Header<'a> {
        let mut seen = HashSet::with_capacity(fields.len());
        let mut out = Vec::with_capacity(fields.len());
        for f in fields {
            let key = header_key(&f.key);
            if !seen.insert(key) {
                // A JSON object holds a key once; the first value is the one readers show.
                self.warn(
                    WarningCode::HeaderDuplicate,
                    format!(
                        "header {key:?} appears again ({:?}); kept the first",
                        f.value
                    ),
                );
                continue;
            }
            out.push((key, f.value.as_str()));
        }
        if !self.game.record.notes.is_empty() {
            self.warn(
                WarningCode::NotesDropped,
                format!(
                    "JKF has no place for {} uninterpreted line(s) such as {:?}",
                    self.game.record.notes.len(),
                    self.game.record.notes[0]
                ),
            );
        }
        Header(out)
    }

    fn initial(&mut self) -> Initial {
        let start = &self.game.start;
        if start.move_number() != 1 {
            self.warn(
                WarningCode::MoveNumberDropped,
                format!(
                    "JKF cannot say the start position is move {}; numbering restarts at 1",
                    start.move_number()
                ),
            );
        }
        let preset = self.game.record.start.preset();
        if let Some(h) = preset {
            return Initial {
                preset: h.jkf_name(),
                data: None,
            };
        }
        let setup = start.to_setup();
        let mut board = [[Cell::default(); 9]; 9];
        for (x, column) in (1..=9).zip(board.iter_mut()) {
            for (y, cell) in (1..=9).zip(column.iter_mut()) {
                let sq = Square::new(x, y).expect("1..=9");
                if let Some(p) = setup.get(sq) {
                    *cell = Cell {
                        color: Some(p.color.index()),
                        kind: Some(p.kind.csa()),
                    };
                }
            }
        }
        Initial {
            preset: "OTHER",
            data: Some(Box::new(InitialData {
                color: setup.side_to_move.index(),
                board,
                hands: setup.hands.map(HandOut),
            })),
        }
    }

    fn finish(&mut self) {
        let total = self.game.recorded_variations();
        if self.written_variations < total {
            self.warn(
                WarningCode::VariationsDropped,
                format!(
                    "{} of {total} variation(s) branch from moves that were not replayed and are not written",
                    total - self.written_variations
                ),
            );
        }
        let depth = self.game.max_variation_depth();
        if depth > crate::record::READABLE_FORK_DEPTH {
            self.warn(
                WarningCode::DeepNesting,
                format!(
                    "forks nest {depth} deep: JKF readers (kifu included) refuse more than {}",
                    crate::record::READABLE_FORK_DEPTH
                ),
            );
        }
    }

    /// The forks of move `i` of `line` (the line `id`), written from the
    /// position before that move; `i` past the moves is the ending.
    fn forks(
        &mut self,
        id: Option<usize>,
        i: usize,
        line: &Line,
        st: &LineState,
    ) -> Vec<Vec<Entry<'a>>> {
        let game = self.game;
        let mut forks = Vec::new();
        for j in 0..line.variations_at(i).len() {
            let Some(&vi) = self.index.get(&(id, i, j)) else {
                continue;
            };
            let (Some(line), Some(v)) = (game.variation_line(vi), game.variations.get(vi)) else {
                continue;
            };
            self.written_variations += 1;
            let mut out = Vec::with_capacity(v.line.plies.len() + 1);
            self.line(line, &v.line, Some(vi), st.clone(), &mut out);
            forks.push(out);
        }
        forks
    }

    /// Append the entries of one line (its plies, then how it ends) to `out`.
    fn line(
        &mut self,
        line: &'a Line,
        result: &'a LineResult,
        id: Option<usize>,
        mut st: LineState,
        out: &mut Vec<Entry<'a>>,
    ) {
        let n = result.plies.len();
        for (i, ply) in result.plies.iter().enumerate() {
            let Some(entry) = line.moves.get(i) else {
                break;
            };
            let mv = move_out(&st.pos, ply.mv, ply.color, ply.piece, ply.capture, ply.same);
            let forks = self.forks(id, i, line, &st);
            let e = self.entry(entry, mv, ply.color, &mut st.totals, forks);
            out.push(e);
            st.pos.play_unchecked(ply.mv);
            st.prev_to = Some(ply.mv.to());
        }

        let ending = line.ending.as_ref();
        let (special, leftover_from) = match &result.verdict {
            Verdict::Foul(f) => self.foul_special(line, result, id, f, &mut st, out),
            _ => (ending.and_then(|e| self.ending_special(e, &st, out)), n),
        };
        let extra = self.leftover_comment(line, result, leftover_from);
        match special {
            Some((word, time, mut comments)) => {
                comments.added.extend(extra.map(Cow::Owned));
                // Alternatives to the record's own ending fork on its special
                // entry (jkf.md §4.3: a fork replaces the entry carrying it).
                let forks = if result.verdict.is_legal() && n == line.moves.len() {
                    self.forks(id, n, line, &st)
                } else {
                    Vec::new()
                };
                out.push(Entry {
                    comments,
                    time: time.map(|t| time_out(t, st.pos.side_to_move(), &mut st.totals)),
                    forks,
                    special: Some(word),
                    ..Entry::default()
                });
            }
            None => append_comments(out, extra.map(Cow::Owned)),
        }
    }

    /// A line that ends by the foul `f`: the foul move when one can be
    /// formed (pushed to `out`), and the `±ILLEGAL_ACTION` special naming
    /// the offender; with the index of the first record move not written.
    fn foul_special(
        &mut self,
        line: &'a Line,
        result: &'a LineResult,
        id: Option<usize>,
        f: &Foul,
        st: &mut LineState,
        out: &mut Vec<Entry<'a>>,
    ) -> (Option<Special<'a>>, usize) {
        let n = result.plies.len();
        let mut leftover_from = n;
        let idx = f.ply.saturating_sub(result.first_ply) as usize;
        if idx == n
            && let Some(entry) = line.moves.get(idx)
            && let Some(mv) = f.mv
        {
            // For a no-piece foul the board's piece is not the one the
            // record names: writing it would turn the foul into a legal
            // move (a CSA `-3233FU` from a rook's square became `HI`).
            let board_piece = (f.rule != Rule::NoPiece)
                .then(|| mv.from().and_then(|s| st.pos.piece_at(s)).map(|p| p.kind))
                .flatten();
            // Else the piece the record names: a no-piece foul written
            // with `from`, `to` and `piece` reads back as the same foul.
            let piece = f
                .piece
                .or(board_piece)
                .or(match mv {
                    Move::Drop { kind, .. } => Some(kind),
                    Move::Normal { .. } => None,
                })
                .or_else(|| written_piece(&entry.notation, mv));
            if let Some(piece) = piece {
                let capture = st
                    .pos
                    .piece_at(mv.to())
                    .filter(|p| p.color != f.loser && p.kind != PieceKind::King)
                    .map(|p| p.kind);
                let same = st.prev_to == Some(mv.to());
                let mut mvo = move_out(&st.pos, mv, f.loser, piece, capture, same);
                if f.rule == Rule::NoPiece {
                    // Words that tell the named piece from its rivals would
                    // point a reader that goes by them at a piece that can
                    // make the move: the foul would read back as legal.
                    mvo.relative.clear();
                }
                let forks = self.forks(id, idx, line, st);
                let e = self.entry(entry, mvo, f.loser, &mut st.totals, forks);
                out.push(e);
                leftover_from = idx + 1;
            }
        }
        let ending = line.ending.as_ref();
        let mut comments = Comments::default();
        if let Some(e) = ending {
            if !matches!(
                e.kind,
                EndingKind::FoulBy(_) | EndingKind::FoulByMover | EndingKind::FoulByPrevious
            ) {
                comments
                    .added
                    .push(Cow::Owned(format!("記録上の終局: {}", e.text)));
            }
            comments.added.extend(e.comments.iter().map(|c| c.into()));
        }
        let word = EndingKind::FoulBy(f.loser)
            .csa_word()
            .expect("every side's foul has a CSA word");
        (
            Some((word, ending.and_then(|e| e.time), comments)),
            leftover_from,
        )
    }

    /// The special for the recorded ending `e` of a legal line, or `None`
    /// when JKF has no word for it (then kept as a comment in `out`).
    fn ending_special(
        &mut self,
        e: &'a Ending,
        st: &LineState,
        out: &mut [Entry<'a>],
    ) -> Option<Special<'a>> {
        let mover = st.pos.side_to_move();
        let word = match e.kind {
            EndingKind::FoulByPrevious => EndingKind::FoulBy(mover.flip()).csa_word(),
            // Not in the schema's enumeration; CHUDAN is the nearest valid word.
            EndingKind::MaxMoves => None,
            k => k.csa_word(),
        };
        match (word, e.kind) {
            (Some(w), _) => Some((w, e.time, Comments::of(&e.comments))),
            (None, EndingKind::MaxMoves | EndingKind::Sealed) => {
                self.warn(
                    WarningCode::EndingChanged,
                    format!("JKF has no word for {:?}; written as CHUDAN", e.text),
                );
                let mut comments = Comments::default();
                comments.added.push(e.text.as_str().into());
                comments.added.extend(e.comments.iter().map(|c| c.into()));
                Some(("CHUDAN", e.time, comments))
            }
            (None, _) => {
                self.warn(
                    WarningCode::EndingDropped,
                    format!("JKF has no word for {:?}; kept as a comment", e.text),
                );
                append_comments(
                    out,
                    std::iter::once(&e.text)
                        .chain(&e.comments)
                        .map(|c| Cow::Borrowed(c.as_str())),
                );
                None
            }
        }
    }

    /// The comment that keeps the record moves from `from` on, which were
    /// not replayed.
    fn leftover_comment(
        &mut self,
        line: &Line,
        result: &LineResult,
        from: usize,
    ) -> Option<String> {
        let leftover = line.moves.get(from..).unwrap_or_default();
        if leftover.is_empty() {
            return None;
        }
        let texts: Vec<String> = leftover
            .iter()
            .map(|m| notation_text(&m.notation))
            .collect();
        self.warn(
            WarningCode::MovesAfterFoul,
            format!(
                "{} move(s) after ply {} were not replayed; kept as a comment",
                leftover.len(),
                result.first_ply as usize + result.plies.len() - 1
            ),
        );
        Some(format!("以下の指し手は再生されず: {}", texts.join(" ")))
    }

    fn entry(
        &mut self,
        entry: &'a MoveEntry,
        mv: MoveOut,
        color: Color,
        totals: &mut [u64; 2],
        forks: Vec<Vec<Entry<'a>>>,
    ) -> Entry<'a> {
        let mut comments = Comments::of(entry.comments());
        comments.marks.extend(bookmark_comments(entry.bookmarks()));
        // An empty `'**` says nothing, and `*` alone would read back as a comment.
        if let Some(e) = entry.eval().filter(|e| !e.is_empty()) {
            comments
                .marks
                .push(Cow::Owned(crate::emit::pv::floodgate_text(e)));
        }
        Entry {
            comments,
            mv: Some(mv),
            time: entry.time.map(|t| time_out(t, color, totals)),
            forks,
            special: None,
        }
    }
}

/// Bookmarks as the JKF KIF grammar keeps them: comments led by `&`.
fn bookmark_comments(bookmarks: &[String]) -> impl Iterator<Item = Cow<'_, str>> {
    bookmarks.iter().map(|b| Cow::Owned(format!("&{b}")))
}

/// Add comments to the last entry written (the start entry for an empty main line).
fn append_comments<'a>(out: &mut [Entry<'a>], comments: impl IntoIterator<Item = Cow<'a, str>>) {
    if let Some(last) = out.last_mut() {
        last.comments.added.extend(comments);
    }
}

/// The normalised move object; `pos` is the position before the move.
fn move_out(
    pos: &Position,
    mv: Move,
    color: Color,
    piece: PieceKind,
    capture: Option<PieceKind>,
    same: bool,
) -> MoveOut {
    let promote = match mv {
        // `false` only where promotion was a choice declined (jkf.md §5).
        Move::Normal { from, to, promote } => (promote
            || (piece.can_promote() && (from.in_zone(color) || to.in_zone(color))))
        .then_some(promote),
        Move::Drop { .. } => None,
    };
    MoveOut {
        color: color.index(),
        from: mv.from().map(Place::from),
        to: mv.to().into(),
        piece: piece.csa(),
        same,
        promote,
        capture: capture.map(PieceKind::csa),
        relative: jkf_code(relative_for(pos, mv, piece)),
    }
}

/// `{now, total}`; a missing total is the running sum (the schema needs both).
fn time_out(t: MoveTime, color: Color, totals: &mut [u64; 2]) -> TimeOut {
    let before = totals[color.index()];
    let spent = t
        .spent_ms
        .unwrap_or_else(|| t.total_ms.map_or(0, |tot| tot.saturating_sub(before)));
    let total = t.total_ms.unwrap_or(before.saturating_add(spent));
    totals[color.index()] = total;
    let now = spent / 1000;
    let tot = total / 1000;
    TimeOut {
        now: Now {
            m: now / 60,
            s: now % 60,
        },
        total: Total {
            h: tot / 3600,
            m: tot / 60 % 60,
            s: tot % 60,
        },
    }
}

#[cfg(test)]
mod tests;
