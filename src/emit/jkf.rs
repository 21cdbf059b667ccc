//! JSON Kifu Format (`.jkf`) out, in the normalised form `jkf.md` §5 asks
//! of a converter: every move carries `color`, `from`, `to`, `piece`,
//! `same`, `promote`, `capture` and `relative` computed from the replay.
//!
//! The document is built as a `serde_json::Value` whose maps keep insertion
//! order (the `preserve_order` feature), so the output is deterministic and
//! a second conversion of the output is byte-identical.

use crate::emit::Warning;
use crate::notation::notation_text;
use crate::position::Position;
use crate::record::{EndingKind, HeaderField, Line, MoveEntry, MoveTime, StartPosition};
use crate::relative::{jkf_code, relative_for};
use crate::replay::{Game, LineResult, Verdict};
use crate::rule::Rule;
use crate::types::{Color, Move, PieceKind, Square};
use serde_json::{Map, Value, json};
use std::collections::HashMap;

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
    let mut root = Map::new();
    root.insert("header".into(), w.header(&game.record.header));
    root.insert("initial".into(), w.initial());
    let mut first = Map::new();
    if !game.record.comments.is_empty() {
        first.insert("comments".into(), json!(game.record.comments));
    }
    let mut moves = vec![Value::Object(first)];
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
    root.insert("moves".into(), Value::Array(moves));
    w.finish();
    let mut text =
        serde_json::to_string_pretty(&Value::Object(root)).expect("a Value always serialises");
    text.push('\n');
    (text, w.warnings)
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

impl Writer<'_> {
    fn warn(&mut self, code: &'static str, message: String) {
        self.warnings.push(Warning { code, message });
    }

    fn header(&mut self, fields: &[HeaderField]) -> Value {
        let mut map = Map::new();
        for f in fields {
            let key = header_key(&f.key);
            if map.contains_key(key) {
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
            map.insert(key.to_string(), Value::String(f.value.clone()));
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
        Value::Object(map)
    }

    fn initial(&mut self) -> Value {
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
            return json!({ "preset": h.jkf_name() });
        }
        let setup = start.to_setup();
        let board: Vec<Value> = (1..=9)
            .map(|x| {
                Value::Array(
                    (1..=9)
                        .map(|y| {
                            let sq = Square::new(x, y).expect("1..=9");
                            match setup.get(sq) {
                                Some(p) => json!({"color": p.color.index(), "kind": p.kind.csa()}),
                                None => json!({}),
                            }
                        })
                        .collect(),
                )
            })
            .collect();
        let hands: Vec<Value> = setup
            .hands
            .iter()
            .map(|h| {
                let mut m = Map::new();
                for k in PieceKind::HAND {
                    m.insert(k.csa().into(), json!(h.count(k)));
                }
                Value::Object(m)
            })
            .collect();
        json!({
            "preset": "OTHER",
            "data": {
                "color": setup.side_to_move.index(),
                "board": board,
                "hands": hands,
            }
        })
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
    fn forks(&mut self, id: Option<usize>, i: usize, entry: &MoveEntry, st: &LineState) -> Value {
        let mut forks = Vec::new();
        for j in 0..entry.variations().len() {
            let Some(&vi) = self.index.get(&(id, i, j)) else {
                continue;
            };
            let (Some(line), Some(v)) =
                (self.game.variation_line(vi), self.game.variations.get(vi))
            else {
                continue;
            };
            self.written_variations += 1;
            let mut out = Vec::new();
            self.line(line, &v.line, Some(vi), st.clone(), &mut out);
            forks.push(Value::Array(out));
        }
        Value::Array(forks)
    }

    /// Append the entries of one line (its plies, then how it ends) to `out`.
    fn line(
        &mut self,
        line: &Line,
        result: &LineResult,
        id: Option<usize>,
        mut st: LineState,
        out: &mut Vec<Value>,
    ) {
        let n = result.plies.len();
        for (i, ply) in result.plies.iter().enumerate() {
            let Some(entry) = line.moves.get(i) else {
                break;
            };
            let mv = move_json(&st.pos, ply.mv, ply.color, ply.piece, ply.capture, ply.same);
            let forks = self.forks(id, i, entry, &st);
            let e = self.entry(entry, mv, ply.color, &mut st.totals, forks);
            out.push(e);
            st.pos.play(ply.mv);
            st.prev_to = Some(ply.mv.to());
        }

        let mut leftover_from = n;
        let mut special: Option<(&'static str, Option<MoveTime>, Vec<String>)> = None;
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
                    let mvj = move_json(&st.pos, mv, f.loser, piece, capture, same);
                    let forks = self.forks(id, idx, entry, &st);
                    let e = self.entry(entry, mvj, f.loser, &mut st.totals, forks);
                    out.push(e);
                    leftover_from = idx + 1;
                }
            }
            let mut comments = Vec::new();
            if let Some(e) = ending {
                if !matches!(
                    e.kind,
                    EndingKind::FoulBy(_) | EndingKind::FoulByMover | EndingKind::FoulByPrevious
                ) {
                    comments.push(format!("記録上の終局: {}", e.text));
                }
                comments.extend(e.comments.iter().cloned());
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
                (Some(w), _) => special = Some((w, e.time, e.comments.clone())),
                (None, EndingKind::MaxMoves | EndingKind::Sealed) => {
                    self.warn(
                        "ending-changed",
                        format!("JKF has no word for {:?}; written as CHUDAN", e.text),
                    );
                    let mut comments = vec![e.text.clone()];
                    comments.extend(e.comments.iter().cloned());
                    special = Some(("CHUDAN", e.time, comments));
                }
                (None, _) => {
                    self.warn(
                        "ending-dropped",
                        format!("JKF has no word for {:?}; kept as a comment", e.text),
                    );
                    let mut comments = vec![e.text.clone()];
                    comments.extend(e.comments.iter().cloned());
                    append_comments(out, comments);
                }
            }
        }

        let leftover = line.moves.get(leftover_from..).unwrap_or_default();
        let mut extra = Vec::new();
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
            extra.push(format!("以下の指し手は再生されず: {}", texts.join(" ")));
        }
        match special {
            Some((word, time, mut comments)) => {
                comments.extend(extra);
                let mut e = Map::new();
                if !comments.is_empty() {
                    e.insert("comments".into(), json!(comments));
                }
                if let Some(t) = time {
                    e.insert(
                        "time".into(),
                        time_json(t, st.pos.side_to_move(), &mut st.totals),
                    );
                }
                e.insert("special".into(), json!(word));
                out.push(Value::Object(e));
            }
            None => append_comments(out, extra),
        }
    }

    fn entry(
        &mut self,
        entry: &MoveEntry,
        mv: Value,
        color: Color,
        totals: &mut [u64; 2],
        forks: Value,
    ) -> Value {
        self.bookmarks += entry.bookmarks().len();
        self.evaluations += usize::from(entry.eval().is_some());
        let mut e = Map::new();
        if !entry.comments().is_empty() {
            e.insert("comments".into(), json!(entry.comments()));
        }
        e.insert("move".into(), mv);
        if let Some(t) = entry.time {
            e.insert("time".into(), time_json(t, color, totals));
        }
        if forks.as_array().is_some_and(|f| !f.is_empty()) {
            e.insert("forks".into(), forks);
        }
        Value::Object(e)
    }
}

/// Add comments to the last entry written (the start entry for an empty main line).
fn append_comments(out: &mut [Value], comments: Vec<String>) {
    if comments.is_empty() {
        return;
    }
    let Some(Value::Object(last)) = out.last_mut() else {
        return;
    };
    let mut all: Vec<Value> = last
        .shift_remove("comments")
        .and_then(|c| c.as_array().cloned())
        .unwrap_or_default();
    all.extend(comments.into_iter().map(Value::String));
    // Comments lead each entry so that re-reading and re-writing is stable.
    let mut rebuilt = Map::new();
    rebuilt.insert("comments".into(), Value::Array(all));
    rebuilt.extend(std::mem::take(last));
    *last = rebuilt;
}

fn place(sq: Square) -> Value {
    json!({"x": sq.file(), "y": sq.rank()})
}

/// The normalised move object; `pos` is the position before the move.
fn move_json(
    pos: &Position,
    mv: Move,
    color: Color,
    piece: PieceKind,
    capture: Option<PieceKind>,
    same: bool,
) -> Value {
    let mut m = Map::new();
    m.insert("color".into(), json!(color.index()));
    if let Some(from) = mv.from() {
        m.insert("from".into(), place(from));
    }
    m.insert("to".into(), place(mv.to()));
    m.insert("piece".into(), json!(piece.csa()));
    if same {
        m.insert("same".into(), json!(true));
    }
    if let Move::Normal { from, to, promote } = mv {
        // `false` only where promotion was a choice declined (jkf.md §5).
        if promote {
            m.insert("promote".into(), json!(true));
        } else if piece.can_promote() && (from.in_zone(color) || to.in_zone(color)) {
            m.insert("promote".into(), json!(false));
        }
    }
    if let Some(c) = capture {
        m.insert("capture".into(), json!(c.csa()));
    }
    let rel = jkf_code(relative_for(pos, mv, piece));
    if !rel.is_empty() {
        m.insert("relative".into(), json!(rel));
    }
    Value::Object(m)
}

/// `{now, total}`; a missing total is the running sum (the schema needs both).
fn time_json(t: MoveTime, color: Color, totals: &mut [u64; 2]) -> Value {
    let before = totals[color.index()];
    let spent = t
        .spent_ms
        .unwrap_or_else(|| t.total_ms.map_or(0, |tot| tot.saturating_sub(before)));
    let total = t.total_ms.unwrap_or(before.saturating_add(spent));
    totals[color.index()] = total;
    let now = spent / 1000;
    let tot = total / 1000;
    json!({
        "now": {"m": now / 60, "s": now % 60},
        "total": {"h": tot / 3600, "m": tot / 60 % 60, "s": tot % 60},
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replay::{ReplayOptions, replay};

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
