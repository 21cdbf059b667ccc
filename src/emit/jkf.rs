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

use crate::emit::Warning;
use crate::notation::notation_text;
use crate::position::Position;
use crate::record::{EndingKind, HeaderField, Line, MoveEntry, MoveTime, StartPosition};
use crate::relative::{jkf_code, relative_for};
use crate::replay::{Game, LineResult, Verdict};
use crate::rule::Rule;
use crate::types::{Color, Hand, Move, PieceKind, Square};
use serde::Serialize;
use serde::ser::Serializer;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

/// The JKF key a header key is written under: CSA names are mapped to the
/// KIF names the JKF tools use (`jkf.md` §2); other keys are kept verbatim.
pub fn header_key(key: &str) -> &str {
    match key.strip_prefix('$').unwrap_or(key) {
        "N+" => "先手",
        "N-" => "後手",
        "EVENT" => "棋戦",
        "SITE" => "場所",
        "START_TIME" => "開始日時",
        "END_TIME" => "終了日時",
        "TIME_LIMIT" => "持ち時間",
        _ => key,
    }
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
        bookmarks: 0,
        evaluations: 0,
    };
    let header = w.header(&game.record.header);
    let initial = w.initial();
    // The start entry, every ply and an ending: one allocation for the main line.
    let mut moves = Vec::with_capacity(game.main.plies.len() + 2);
    moves.push(Entry {
        comments: Comments::of(&game.record.comments),
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

/// serde_json's output buffer. Most of its writes are a few bytes (an indent
/// step, `": "`, a quote), for which `Vec::extend_from_slice` calls `memcpy`
/// and the call costs more than the copy.
struct Out(Vec<u8>);

impl std::io::Write for Out {
    #[inline]
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.write_all(buf)?;
        Ok(buf.len())
    }

    #[inline]
    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        match *buf {
            [a] => self.0.push(a),
            [a, b] => self.0.extend_from_slice(&[a, b]),
            _ => self.0.extend_from_slice(buf),
        }
        Ok(())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The whole file.
#[derive(Serialize)]
struct Document<'a> {
    header: Header<'a>,
    initial: Initial,
    moves: Vec<Entry<'a>>,
}

/// Header fields as a JSON object, in record order, each key once.
struct Header<'a>(Vec<(&'a str, &'a str)>);

impl Serialize for Header<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().copied())
    }
}

#[derive(Serialize)]
struct Initial {
    preset: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<Box<InitialData>>,
}

#[derive(Serialize)]
struct InitialData {
    color: usize,
    /// `board[x - 1][y - 1]`, as JKF orders it.
    board: [[Cell; 9]; 9],
    hands: [HandOut; 2],
}

/// A square of the start position: `{}` when empty.
#[derive(Serialize, Default, Clone, Copy)]
struct Cell {
    #[serde(skip_serializing_if = "Option::is_none")]
    color: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<&'static str>,
}

/// A hand with every kind named, zeros included (the schema needs them).
struct HandOut(Hand);

impl Serialize for HandOut {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(PieceKind::HAND.iter().map(|&k| (k.csa(), self.0.count(k))))
    }
}

/// One element of `moves` or of a fork: the start entry, a move, or how a
/// line ends. The field order is the key order (comments lead each entry so
/// that re-reading and re-writing is stable); a move never has `special`
/// and an ending never has `move` or `forks`.
#[derive(Serialize, Default)]
struct Entry<'a> {
    #[serde(skip_serializing_if = "Comments::is_empty")]
    comments: Comments<'a>,
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    mv: Option<MoveOut>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time: Option<TimeOut>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    forks: Vec<Vec<Entry<'a>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    special: Option<&'static str>,
}

/// The record's comments, borrowed, then any the writer adds (a foul's
/// account, moves not replayed, an ending JKF has no word for).
#[derive(Default)]
struct Comments<'a> {
    record: &'a [String],
    added: Vec<Cow<'a, str>>,
}

impl<'a> Comments<'a> {
    fn of(record: &'a [String]) -> Self {
        Comments {
            record,
            added: Vec::new(),
        }
    }

    fn is_empty(&self) -> bool {
        self.record.is_empty() && self.added.is_empty()
    }
}

impl Serialize for Comments<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(
            self.record
                .iter()
                .map(String::as_str)
                .chain(self.added.iter().map(|c| &**c)),
        )
    }
}

#[derive(Serialize)]
struct MoveOut {
    color: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<Place>,
    to: Place,
    piece: &'static str,
    #[serde(skip_serializing_if = "is_false")]
    same: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    promote: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    capture: Option<&'static str>,
    #[serde(skip_serializing_if = "String::is_empty")]
    relative: String,
}

// serde's `skip_serializing_if` takes a path to a function of `&T`.
fn is_false(b: &bool) -> bool {
    !*b
}

#[derive(Serialize)]
struct Place {
    x: u8,
    y: u8,
}

impl From<Square> for Place {
    fn from(sq: Square) -> Self {
        Place {
            x: sq.file(),
            y: sq.rank(),
        }
    }
}

#[derive(Serialize)]
struct TimeOut {
    now: Now,
    total: Total,
}

#[derive(Serialize)]
struct Now {
    m: u64,
    s: u64,
}

#[derive(Serialize)]
struct Total {
    h: u64,
    m: u64,
    s: u64,
}

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
    bookmarks: usize,
    evaluations: usize,
}

impl<'a> Writer<'a> {
    fn warn(&mut self, code: &'static str, message: String) {
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
                    "header-duplicate",
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
                "notes-dropped",
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
                "move-number-dropped",
                format!(
                    "JKF cannot say the start position is move {}; numbering restarts at 1",
                    start.move_number()
                ),
            );
        }
        let preset = match &self.game.record.start {
            StartPosition::Preset(h) => Some(*h),
            StartPosition::Setup(s) => s.preset(),
        };
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
        let total = self.game.variations.len();
        if self.written_variations < total {
            self.warn(
                "variations-dropped",
                format!(
                    "{} of {total} variation(s) branch from moves that were not replayed and are not written",
                    total - self.written_variations
                ),
            );
        }
        let depth = self.game.max_variation_depth();
        if depth > crate::parse::jkf::READABLE_FORK_DEPTH {
            self.warn(
                "deep-nesting",
                format!(
                    "forks nest {depth} deep: JKF readers (kifu included) refuse more than {}",
                    crate::parse::jkf::READABLE_FORK_DEPTH
                ),
            );
        }
        if self.bookmarks > 0 {
            self.warn(
                "bookmarks-dropped",
                format!("JKF has no bookmarks: {} left out", self.bookmarks),
            );
        }
        if self.evaluations > 0 {
            self.warn(
                "evaluations-dropped",
                format!(
                    "JKF has no field for evaluations: {} left out",
                    self.evaluations
                ),
            );
        }
    }

    /// The forks of `entry` (move `i` of the line `id`), written from the
    /// position before that move.
    fn forks(
        &mut self,
        id: Option<usize>,
        i: usize,
        entry: &MoveEntry,
        st: &LineState,
    ) -> Vec<Vec<Entry<'a>>> {
        let game = self.game;
        let mut forks = Vec::new();
        for j in 0..entry.variations().len() {
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
            let forks = self.forks(id, i, entry, &st);
            let e = self.entry(entry, mv, ply.color, &mut st.totals, forks);
            out.push(e);
            st.pos.play(ply.mv);
            st.prev_to = Some(ply.mv.to());
        }

        let mut leftover_from = n;
        let mut special: Option<(&'static str, Option<MoveTime>, Comments<'a>)> = None;
        let ending = line.ending.as_ref();
        if let Verdict::Foul(f) = &result.verdict {
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
                let piece = f.piece.or(board_piece).or(match mv {
                    Move::Drop { kind, .. } => Some(kind),
                    Move::Normal { .. } => None,
                });
                if let Some(piece) = piece {
                    let capture = st
                        .pos
                        .piece_at(mv.to())
                        .filter(|p| p.color != f.loser && p.kind != PieceKind::King)
                        .map(|p| p.kind);
                    let same = st.prev_to == Some(mv.to());
                    let mvo = move_out(&st.pos, mv, f.loser, piece, capture, same);
                    let forks = self.forks(id, idx, entry, &st);
                    let e = self.entry(entry, mvo, f.loser, &mut st.totals, forks);
                    out.push(e);
                    leftover_from = idx + 1;
                }
            }
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
            special = Some((word, ending.and_then(|e| e.time), comments));
        } else if let Some(e) = ending {
            let mover = st.pos.side_to_move();
            let word = match e.kind {
                EndingKind::FoulByPrevious => EndingKind::FoulBy(mover.flip()).csa_word(),
                // Not in the schema's enumeration; CHUDAN is the nearest valid word.
                EndingKind::MaxMoves => None,
                k => k.csa_word(),
            };
            match (word, e.kind) {
                (Some(w), _) => special = Some((w, e.time, Comments::of(&e.comments))),
                (None, EndingKind::MaxMoves | EndingKind::Sealed) => {
                    self.warn(
                        "ending-changed",
                        format!("JKF has no word for {:?}; written as CHUDAN", e.text),
                    );
                    let mut comments = Comments::default();
                    comments.added.push(e.text.as_str().into());
                    comments.added.extend(e.comments.iter().map(|c| c.into()));
                    special = Some(("CHUDAN", e.time, comments));
                }
                (None, _) => {
                    self.warn(
                        "ending-dropped",
                        format!("JKF has no word for {:?}; kept as a comment", e.text),
                    );
                    append_comments(
                        out,
                        std::iter::once(&e.text)
                            .chain(&e.comments)
                            .map(|c| Cow::Borrowed(c.as_str())),
                    );
                }
            }
        }

        let leftover = line.moves.get(leftover_from..).unwrap_or_default();
        let mut extra = None;
        if !leftover.is_empty() {
            let texts: Vec<String> = leftover
                .iter()
                .map(|m| notation_text(&m.notation))
                .collect();
            self.warn(
                "moves-after-foul",
                format!(
                    "{} move(s) after ply {} were not replayed; kept as a comment",
                    leftover.len(),
                    result.first_ply as usize + n - 1
                ),
            );
            extra = Some(format!("以下の指し手は再生されず: {}", texts.join(" ")));
        }
        match special {
            Some((word, time, mut comments)) => {
                comments.added.extend(extra.map(Cow::Owned));
                out.push(Entry {
                    comments,
                    time: time.map(|t| time_out(t, st.pos.side_to_move(), &mut st.totals)),
                    special: Some(word),
                    ..Entry::default()
                });
            }
            None => append_comments(out, extra.map(Cow::Owned)),
        }
    }

    fn entry(
        &mut self,
        entry: &'a MoveEntry,
        mv: MoveOut,
        color: Color,
        totals: &mut [u64; 2],
        forks: Vec<Vec<Entry<'a>>>,
    ) -> Entry<'a> {
        self.bookmarks += entry.bookmarks().len();
        self.evaluations += usize::from(entry.eval().is_some());
        Entry {
            comments: Comments::of(entry.comments()),
            mv: Some(mv),
            time: entry.time.map(|t| time_out(t, color, totals)),
            forks,
            special: None,
        }
    }
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
mod tests {
    use super::*;
    use crate::replay::{ReplayOptions, replay};
    use serde_json::{Value, json};

    fn game(text: &str) -> Game {
        let r = crate::parse::jkf::parse(text).unwrap().remove(0);
        replay(r, &ReplayOptions::default()).unwrap()
    }

    fn round(text: &str) -> (Value, Vec<Warning>) {
        let (s, w) = write(&game(text));
        (serde_json::from_str(&s).unwrap(), w)
    }

    #[test]
    fn normalised_fields_are_filled_in() {
        let (v, w) = round(
            r#"{"header":{"N+":"A"},"moves":[{},
{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"}},
{"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"piece":"FU"}},
{"move":{"from":{"x":8,"y":8},"to":{"x":2,"y":2},"piece":"KA","promote":true}},
{"move":{"from":{"x":3,"y":1},"to":{"x":2,"y":2},"piece":"GI"},"time":{"now":{"m":0,"s":3}}},
{"special":"TORYO"}]}"#,
        );
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(v["header"]["先手"], "A");
        assert_eq!(v["initial"]["preset"], "HIRATE");
        let m3 = &v["moves"][3]["move"];
        assert_eq!(m3["color"], 0);
        assert_eq!(m3["capture"], "KA");
        assert_eq!(m3["promote"], true);
        let m4 = &v["moves"][4];
        assert_eq!(m4["move"]["same"], true);
        assert_eq!(m4["move"]["capture"], "UM");
        assert_eq!(m4["move"]["color"], 1);
        assert_eq!(m4["time"]["total"], json!({"h": 0, "m": 0, "s": 3}));
        assert_eq!(v["moves"][5]["special"], "TORYO");
    }

    #[test]
    fn foul_is_written_then_named() {
        let (v, w) = round(
            r#"{"header":{},"moves":[{},
{"move":{"color":0,"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"}},
{"move":{"color":1,"from":{"x":3,"y":3},"to":{"x":3,"y":4},"piece":"FU"}},
{"move":{"color":0,"from":{"x":8,"y":8},"to":{"x":1,"y":1},"piece":"KA"}},
{"move":{"color":1,"from":{"x":4,"y":1},"to":{"x":3,"y":2},"piece":"KI"}},
{"special":"TORYO"}]}"#,
        );
        let moves = v["moves"].as_array().unwrap();
        // The bishop's path is blocked at 2二: the foul move is written, then the offender.
        assert_eq!(moves[3]["move"]["to"], json!({"x": 1, "y": 1}));
        assert_eq!(moves[4]["special"], "+ILLEGAL_ACTION");
        assert!(moves[4]["comments"].to_string().contains("TORYO"));
        assert!(w.iter().any(|w| w.code == "moves-after-foul"));
        assert_eq!(moves.len(), 5);
    }

    #[test]
    fn custom_start_is_written_as_data() {
        let mut board = vec![vec![json!({}); 9]; 9];
        board[4][8] = json!({"color":0,"kind":"OU"});
        board[4][0] = json!({"color":1,"kind":"OU"});
        let doc = json!({"header":{},"initial":{"preset":"OTHER","data":{
            "color":0,"board":board,"hands":[{"KI":1},{}]}},
            "moves":[{"comments":["詰将棋"]},{"move":{"color":0,"to":{"x":5,"y":2},"piece":"KI"}}]});
        let (v, _) = round(&doc.to_string());
        assert_eq!(v["initial"]["preset"], "OTHER");
        assert_eq!(v["initial"]["data"]["board"][4][8]["kind"], "OU");
        assert_eq!(v["initial"]["data"]["hands"][0]["KI"], 1);
        assert_eq!(v["moves"][0]["comments"][0], "詰将棋");
        assert!(v["moves"][1]["move"].get("from").is_none());
    }

    #[test]
    fn relative_codes_are_computed() {
        let (v, _) = round(
            r#"{"header":{},"moves":[{},
{"move":{"from":{"x":6,"y":9},"to":{"x":5,"y":8},"piece":"KI"}}]}"#,
        );
        assert_eq!(v["moves"][1]["move"]["relative"], "L");
    }

    #[test]
    fn csa_header_keys_bookmarks_and_unheld_endings() {
        use crate::record::{Ending, HeaderField, Span};
        let mut r = crate::parse::jkf::parse(
            r#"{"header":{},"moves":[{},
{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"}}]}"#,
        )
        .unwrap()
        .remove(0);
        let field = |k: &str, v: &str| HeaderField {
            key: k.into(),
            value: v.into(),
            span: Span::default(),
        };
        r.header = vec![
            field("N+", "A"),
            field("N-", "B"),
            field("EVENT", "E"),
            field("SITE", "S"),
            field("START_TIME", "T0"),
            field("END_TIME", "T1"),
            field("OPENING", "YAGURA"),
        ];
        r.main.moves[0].extra_mut().bookmarks.push("mark".into());
        r.main.ending = Some(Ending {
            kind: EndingKind::MaxMoves,
            text: "%MAX_MOVES".into(),
            span: Span::default(),
            time: None,
            comments: Vec::new(),
        });
        let (s, w) = write(&replay(r, &ReplayOptions::default()).unwrap());
        let v: Value = serde_json::from_str(&s).unwrap();
        let keys: Vec<&String> = v["header"].as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "先手",
                "後手",
                "棋戦",
                "場所",
                "開始日時",
                "終了日時",
                "OPENING"
            ]
        );
        assert_eq!(v["moves"][2]["special"], "CHUDAN");
        let codes: Vec<&str> = w.iter().map(|w| w.code).collect();
        assert!(codes.contains(&"bookmarks-dropped"), "{codes:?}");
        assert!(codes.contains(&"ending-changed"), "{codes:?}");
    }

    #[test]
    fn forks_nest_and_start_from_their_branch_point() {
        let mv = |fx: u8, fy: u8, tx: u8, ty: u8| {
            format!(
                r#"{{"move":{{"from":{{"x":{fx},"y":{fy}}},"to":{{"x":{tx},"y":{ty}}},"piece":"FU"}}"#
            )
        };
        // 1.76FU (alt 26FU 34FU (alt 84FU)) 2.34FU
        let text = format!(
            r#"{{"header":{{}},"moves":[{{}},{},"forks":[[{}}},{},"forks":[[{}}}]]}}]]}},{}}}]}}"#,
            mv(7, 7, 7, 6),
            mv(2, 7, 2, 6),
            mv(3, 3, 3, 4),
            mv(8, 3, 8, 4),
            mv(3, 3, 3, 4),
        );
        let g = game(&text);
        assert_eq!(g.variations.len(), 2);
        assert!(g.variations.iter().all(|v| v.line.verdict.is_legal()));
        let (s, w) = write(&g);
        assert!(w.is_empty(), "{w:?}");
        let v: Value = serde_json::from_str(&s).unwrap();
        let fork = &v["moves"][1]["forks"][0];
        assert_eq!(fork[0]["move"]["color"], 0);
        assert_eq!(
            fork[1]["forks"][0][0]["move"]["to"],
            json!({"x": 8, "y": 4})
        );
        assert_eq!(fork[1]["forks"][0][0]["move"]["color"], 1);
    }
}
