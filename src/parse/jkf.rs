//! JSON Kifu Format (`.jkf`): one game per file, as JSON (`jkf.md`).
//!
//! The JSON is read into typed structs that tolerate unknown fields and
//! `null` (the schema allows `null` nearly everywhere). serde_json gives no
//! positions for values, so each move entry is also read as a borrowed raw
//! slice of the text, whose place is the entry's; fouls can then be
//! reported at the entry's line and column.

use crate::error::{ParseError, ParseErrorKind};
use crate::record::{
    Dest, Ending, EndingKind, HeaderField, Line, Location, MoveEntry, MoveTime, Notation, Record,
    Relative, StartPosition,
};
use crate::relative::from_jkf_code;
use crate::rules::setup::{Handicap, Setup};
use crate::rules::types::{Color, Piece, PieceKind, Square};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// Forks nested deeper than this are refused. serde_json's own recursion
/// limit (128 containers, about 40 fork levels) already stops hostile files
/// first; this bound keeps the conversion safe should that limit ever change.
pub const MAX_FORK_DEPTH: usize = 1000;

pub use crate::record::READABLE_FORK_DEPTH;

#[derive(Deserialize)]
struct Doc {
    header: Option<Map<String, Value>>,
    initial: Option<Initial>,
    moves: Option<Vec<Entry>>,
}

#[derive(Deserialize)]
struct Initial {
    preset: Option<String>,
    data: Option<InitialData>,
}

#[derive(Deserialize)]
struct InitialData {
    color: Option<u8>,
    board: Option<Value>,
    hands: Option<Vec<Option<Map<String, Value>>>>,
}

#[derive(Deserialize, Default)]
struct Cell {
    color: Option<u8>,
    kind: Option<String>,
}

#[derive(Deserialize)]
struct Entry {
    comments: Option<Vec<String>>,
    /// The schema's spelling for the first entry; the tools write `comments`.
    comment: Option<String>,
    #[serde(rename = "move")]
    mv: Option<JMove>,
    time: Option<JTime>,
    special: Option<String>,
    forks: Option<Vec<Vec<Entry>>>,
}

impl Entry {
    fn all_comments(&self) -> Vec<String> {
        let mut c: Vec<String> = self.comment.iter().cloned().collect();
        c.extend(self.comments.iter().flatten().cloned());
        c
    }

    fn has_forks(&self) -> bool {
        self.forks.as_ref().is_some_and(|f| !f.is_empty())
    }
}

#[derive(Deserialize)]
struct JMove {
    color: Option<u8>,
    from: Option<Place>,
    to: Option<Place>,
    piece: Option<String>,
    same: Option<bool>,
    promote: Option<bool>,
    relative: Option<String>,
}

#[derive(Deserialize, Clone, Copy)]
struct Place {
    x: i64,
    y: i64,
}

#[derive(Deserialize)]
struct JTime {
    now: Option<Clock>,
    total: Option<Clock>,
}

#[derive(Deserialize)]
struct Clock {
    h: Option<u64>,
    m: Option<u64>,
    s: Option<u64>,
}

impl Clock {
    fn ms(&self) -> u64 {
        let h = self.h.unwrap_or(0);
        let m = self.m.unwrap_or(0);
        let s = self.s.unwrap_or(0);
        h.saturating_mul(3600)
            .saturating_add(m.saturating_mul(60))
            .saturating_add(s)
            .saturating_mul(1000)
    }
}

/// Parse a JKF document into its one record.
///
/// Accepts the normalised form and the "minimal" raw parser output: `to`
/// may be missing when `same` is set, a board move may lack `from` when a
/// `relative` other than `H` names it (it is then resolved like KI2), the
/// first entry may use `comment` instead of `comments`, and `null` means absent.
pub fn parse(text: &str) -> Result<Vec<Record>, ParseError> {
    let bom = if text.starts_with('\u{feff}') { 3 } else { 0 };
    let body = &text[bom..];
    let locator = Locator::new(text);
    let doc: Doc = serde_json::from_str(body).map_err(|e| {
        let offset = locator.offset_of(e.line(), e.column());
        ParseError::new(locator.span(offset), format!("not valid JKF: {e}"))
    })?;
    let offsets = entry_offsets(text, body);
    let mut reader = Reader {
        locator: &locator,
        offsets,
        next: 0,
    };

    let mut record = Record {
        span: Location::new(bom, 1, 1),
        ..Record::default()
    };
    for (key, value) in doc.header.into_iter().flatten() {
        let value = match value {
            Value::String(s) => s,
            Value::Null => String::new(),
            other => other.to_string(),
        };
        if key == "手合割" && record.handicap.is_none() {
            record.handicap = Some(super::ja::header::handicap_name(&value));
        }
        record.header.push(HeaderField {
            key,
            value,
            span: record.span,
        });
    }
    if let Some(init) = doc.initial {
        record.start = start_position(init, record.span)
            .map_err(|e| e.of_kind(ParseErrorKind::StartPosition))?;
    }
    let entries = doc.moves.unwrap_or_default();
    let rest = match entries.first() {
        Some(first) if first.mv.is_none() && first.special.is_none() => {
            let span = reader.next_span();
            if first.has_forks() {
                return Err(ParseError::new(
                    span,
                    "the start-position entry (moves[0]) cannot hold forks",
                )
                .of_kind(ParseErrorKind::Variation));
            }
            record.comments = first.all_comments();
            &entries[1..]
        }
        // Some writers start `moves` with the first move; accept that too.
        _ => &entries[..],
    };
    record.main = reader.line(rest, 0)?;
    lift_comments(&mut record);
    super::eval::read_gui_evals(&mut record.main);
    Ok(vec![record])
}

/// JKF has no field for bookmarks or evaluations: the JKF KIF grammar keeps
/// a bookmark as a comment led by `&`, and an evaluation is a comment in the
/// floodgate form (`* 30 -3334FU`); both are read back into their places.
fn lift_comments(record: &mut Record) {
    let (bookmarks, comments): (Vec<String>, Vec<String>) = std::mem::take(&mut record.comments)
        .into_iter()
        .partition(|c| c.starts_with('&'));
    record.comments = comments;
    record.bookmarks = bookmarks.into_iter().map(|b| b[1..].to_string()).collect();
    // Forks nest at most MAX_FORK_DEPTH deep, but a stack needs no such bound.
    let mut stack = vec![&mut record.main];
    while let Some(line) = stack.pop() {
        for m in &mut line.moves {
            if m.comments().iter().any(|c| c.starts_with(['&', '*'])) {
                let extra = m.extra_mut();
                for c in std::mem::take(&mut extra.comments) {
                    if let Some(b) = c.strip_prefix('&') {
                        extra.bookmarks.push(b.to_string());
                    } else if let Some(e) =
                        super::eval::floodgate_comment(&c).filter(|_| extra.eval.is_none())
                    {
                        extra.eval = Some(e);
                    } else {
                        extra.comments.push(c);
                    }
                }
            }
            if !m.variations().is_empty() {
                stack.extend(m.extra_mut().variations.iter_mut());
            }
        }
        stack.extend(line.ending_variations.iter_mut());
    }
}

struct Reader<'a> {
    locator: &'a Locator<'a>,
    offsets: Vec<usize>,
    next: usize,
}

impl Reader<'_> {
    /// Entries are visited in document order (an entry, then its forks,
    /// then the next entry), the order in which the scanner found them.
    fn next_span(&mut self) -> Location {
        let span = self
            .offsets
            .get(self.next)
            .map_or(Location::new(0, 1, 1), |&o| self.locator.span(o));
        self.next += 1;
        span
    }

    fn line(&mut self, entries: &[Entry], depth: usize) -> Result<Line, ParseError> {
        let mut line = Line::default();
        // Comment-only entries before any move of a fork have nowhere else to go.
        let mut pending: Vec<String> = Vec::new();
        let mut pending_span = None;
        for e in entries {
            let span = self.next_span();
            if depth > MAX_FORK_DEPTH {
                return Err(ParseError::new(
                    span,
                    format!("forks nested more than {MAX_FORK_DEPTH} deep"),
                )
                .of_kind(ParseErrorKind::TooDeep));
            }
            if let Some(ending) = &mut line.ending {
                if e.mv.is_some() || e.special.is_some() || e.has_forks() {
                    return Err(ParseError::new(
                        span,
                        format!("a move or special after the special {:?}", ending.text),
                    )
                    .of_kind(ParseErrorKind::Misplaced));
                }
                ending.comments.extend(e.all_comments());
                continue;
            }
            if let Some(m) = &e.mv {
                let mut entry = MoveEntry::new(notation(m, span)?, span);
                let mut comments = std::mem::take(&mut pending);
                comments.extend(e.all_comments());
                if !comments.is_empty() {
                    entry.extra_mut().comments = comments;
                }
                entry.time = e.time.as_ref().and_then(move_time);
                for fork in e.forks.iter().flatten() {
                    let v = self.line(fork, depth + 1)?;
                    entry.extra_mut().variations.push(v);
                }
                line.moves.push(entry);
                if let Some(sp) = &e.special {
                    line.ending = Some(ending(sp, span, None, Vec::new())?);
                }
            } else if let Some(sp) = &e.special {
                let mut comments = std::mem::take(&mut pending);
                comments.extend(e.all_comments());
                let time = e.time.as_ref().and_then(move_time);
                line.ending = Some(ending(sp, span, time, comments)?);
                // Forks on a special are alternatives to the ending, played
                // from the position after the line's last move.
                for fork in e.forks.iter().flatten() {
                    let v = self.line(fork, depth + 1)?;
                    line.ending_variations.push(v);
                }
            } else {
                if e.has_forks() {
                    return Err(ParseError::new(span, "forks on an entry without a move")
                        .of_kind(ParseErrorKind::Variation));
                }
                match line.moves.last_mut() {
                    Some(last) => last.extra_mut().comments.extend(e.all_comments()),
                    None => {
                        pending_span.get_or_insert(span);
                        pending.extend(e.all_comments());
                    }
                }
            }
        }
        if let Some(span) = pending_span.filter(|_| !pending.is_empty()) {
            // Refused rather than silently dropped: there is no move to carry them.
            return Err(ParseError::new(span, "a fork holds comments but no move")
                .of_kind(ParseErrorKind::Variation));
        }
        Ok(line)
    }
}

fn move_time(t: &JTime) -> Option<MoveTime> {
    let spent_ms = t.now.as_ref().map(Clock::ms);
    let total_ms = t.total.as_ref().map(Clock::ms);
    (spent_ms.is_some() || total_ms.is_some()).then_some(MoveTime { spent_ms, total_ms })
}

fn color(c: u8, span: Location) -> Result<Color, ParseError> {
    match c {
        0 => Ok(Color::Sente),
        1 => Ok(Color::Gote),
        _ => Err(ParseError::new(
            span,
            format!("color must be 0 or 1, found {c}"),
        )),
    }
}

fn kind(code: &str, span: Location) -> Result<PieceKind, ParseError> {
    PieceKind::from_csa(code.as_bytes())
        .ok_or_else(|| ParseError::new(span, format!("unknown piece kind {code:?}")))
}

fn square(p: Place, span: Location) -> Result<Square, ParseError> {
    u8::try_from(p.x)
        .ok()
        .zip(u8::try_from(p.y).ok())
        .and_then(|(x, y)| Square::new(x, y))
        .ok_or_else(|| {
            ParseError::new(
                span,
                format!("square x={}, y={} is off the board", p.x, p.y),
            )
        })
}

fn notation(m: &JMove, span: Location) -> Result<Notation, ParseError> {
    let color = m.color.map(|c| color(c, span)).transpose()?;
    let piece = kind(
        m.piece
            .as_deref()
            .ok_or_else(|| ParseError::new(span, "a move without a piece"))?,
        span,
    )?;
    let dest = match m.to {
        Some(to) => Dest::Square(square(to, span)?),
        None if m.same == Some(true) => Dest::Same,
        None => return Err(ParseError::new(span, "a move without `to`")),
    };
    let from = m.from.map(|f| square(f, span)).transpose()?;
    let relative = match m.relative.as_deref() {
        None => Relative::NONE,
        Some(code) => from_jkf_code(code)
            .ok_or_else(|| ParseError::new(span, format!("unknown relative code {code:?}")))?,
    };
    if from.is_none() && !relative.is_empty() && relative != Relative::DROP {
        // Unnormalised KI2-style JKF: the origin is named only by `relative`.
        return Ok(Notation::Ki2 {
            color,
            dest,
            piece,
            relative,
            promote: m.promote,
        });
    }
    Ok(Notation::Kif {
        color,
        dest,
        piece,
        promote: m.promote,
        from,
        drop: from.is_none(),
    })
}

/// The ending a JKF `special` word names.
pub fn special_kind(word: &str) -> Option<EndingKind> {
    match word {
        // The KIF grammar's raw output for 反則勝ち, before normalisation.
        "ILLEGAL_ACTION" => Some(EndingKind::FoulByPrevious),
        w => EndingKind::from_csa_word(w),
    }
}

fn ending(
    word: &str,
    span: Location,
    time: Option<MoveTime>,
    comments: Vec<String>,
) -> Result<Ending, ParseError> {
    let kind = special_kind(word)
        .ok_or_else(|| ParseError::new(span, format!("unknown special {word:?}")))?;
    Ok(Ending {
        kind,
        text: word.to_string(),
        span,
        time,
        comments,
    })
}

fn start_position(init: Initial, span: Location) -> Result<StartPosition, ParseError> {
    let preset = init.preset.as_deref().unwrap_or("HIRATE");
    if preset != "OTHER" {
        return Handicap::from_jkf_name(preset)
            .map(StartPosition::Preset)
            .ok_or_else(|| ParseError::new(span, format!("unknown preset {preset:?}")));
    }
    let data = init
        .data
        .ok_or_else(|| ParseError::new(span, "preset OTHER without initial.data"))?;
    let mut setup = Setup::EMPTY;
    setup.side_to_move = color(data.color.unwrap_or(0), span)?;
    match data.board {
        None | Some(Value::Null) => {}
        Some(Value::Object(o)) if o.is_empty() => {}
        Some(board) => {
            let columns: Vec<Vec<Option<Cell>>> = serde_json::from_value(board)
                .map_err(|e| ParseError::new(span, format!("initial.data.board: {e}")))?;
            if columns.len() != 9 || columns.iter().any(|c| c.len() != 9) {
                return Err(ParseError::new(
                    span,
                    "initial.data.board must be 9 files of 9 squares",
                ));
            }
            for (x, column) in columns.iter().enumerate() {
                for (y, cell) in column.iter().enumerate() {
                    let Some(Cell {
                        color: Some(c),
                        kind: Some(k),
                    }) = cell
                    else {
                        continue;
                    };
                    let sq = Square::new(x as u8 + 1, y as u8 + 1).expect("9x9 checked above");
                    setup.set(sq, Some(Piece::new(color(*c, span)?, kind(k, span)?)));
                }
            }
        }
    }
    for (i, hand) in data
        .hands
        .unwrap_or_default()
        .into_iter()
        .take(2)
        .enumerate()
    {
        for (k, n) in hand.into_iter().flatten() {
            let n = n.as_u64().unwrap_or(0);
            if n == 0 {
                continue;
            }
            let kind = kind(&k, span)?;
            if kind == PieceKind::King {
                return Err(ParseError::new(span, "a hand cannot hold OU"));
            }
            let base = kind.unpromoted();
            let total = u64::from(setup.hands[i].count(base)) + n;
            setup.hands[i].set(base, u8::try_from(total).unwrap_or(u8::MAX));
        }
    }
    Ok(StartPosition::Setup(Box::new(setup)))
}

/// Converts byte offsets to spans (1-based line, column in characters).
struct Locator<'a> {
    text: &'a str,
    line_starts: Vec<usize>,
}

impl<'a> Locator<'a> {
    fn new(text: &'a str) -> Locator<'a> {
        let mut line_starts = vec![0];
        line_starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        Locator { text, line_starts }
    }

    fn span(&self, offset: usize) -> Location {
        let offset = offset.min(self.text.len());
        let line = self.line_starts.partition_point(|&s| s <= offset).max(1);
        let start = self.line_starts[line - 1];
        let column = self
            .text
            .get(start..offset)
            .map_or(1, |s| s.chars().count() + 1);
        Location::new(offset, line as u32, column as u32)
    }

    /// The offset of serde_json's 1-based line and column (bytes after the BOM).
    fn offset_of(&self, line: usize, column: usize) -> usize {
        let start = self
            .line_starts
            .get(line.saturating_sub(1))
            .copied()
            .unwrap_or(self.text.len());
        let bom = if line <= 1 && self.text.starts_with('\u{feff}') {
            3
        } else {
            0
        };
        let mut o = (start + bom + column.saturating_sub(1)).min(self.text.len());
        while !self.text.is_char_boundary(o) {
            o -= 1;
        }
        o
    }
}

/// The byte offset in `text` of every move entry (an element of `moves` or
/// of a fork), in document order: an entry, the entries of its forks, then
/// the next entry. serde_json gives values no positions, but a borrowed
/// [`RawValue`] is a slice of the text, and so tells where its value starts.
/// `body` (the text after a BOM) has already been read as a [`Doc`].
fn entry_offsets(text: &str, body: &str) -> Vec<usize> {
    #[derive(Deserialize)]
    struct Moves<'a> {
        #[serde(borrow)]
        moves: Option<Vec<&'a RawValue>>,
    }
    #[derive(Deserialize)]
    struct Forks<'a> {
        #[serde(borrow)]
        forks: Option<Vec<Vec<&'a RawValue>>>,
    }
    fn walk(text: &str, entries: &[&RawValue], out: &mut Vec<usize>) {
        for e in entries {
            out.push(e.get().as_ptr() as usize - text.as_ptr() as usize);
            let forks = serde_json::from_str::<Forks>(e.get()).ok();
            for fork in forks.and_then(|f| f.forks).iter().flatten() {
                walk(text, fork, out);
            }
        }
    }
    let mut out = Vec::new();
    if let Ok(Moves { moves: Some(m) }) = serde_json::from_str(body) {
        walk(text, &m, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::types::Move;

    fn one(text: &str) -> Record {
        let mut r = parse(text).unwrap();
        assert_eq!(r.len(), 1);
        r.remove(0)
    }

    fn sq(f: u8, r: u8) -> Square {
        Square::new(f, r).unwrap()
    }

    #[test]
    fn header_keeps_file_order() {
        let r = one(r#"{"header":{"後手":"B","先手":"A","棋戦":"X"},"moves":[{}]}"#);
        let keys: Vec<&str> = r.header.iter().map(|h| h.key.as_str()).collect();
        assert_eq!(keys, ["後手", "先手", "棋戦"]);
        assert_eq!(r.header_value(&["先手"]), Some("A"));
        assert_eq!(r.start, StartPosition::Preset(Handicap::Hirate));
    }

    #[test]
    fn presets_and_data() {
        let r = one(r#"{"header":{},"initial":{"preset":"KA"},"moves":[{}]}"#);
        assert_eq!(r.start, StartPosition::Preset(Handicap::Bishop));
        let mut board = vec![vec![serde_json::json!({}); 9]; 9];
        board[4][8] = serde_json::json!({"color":0,"kind":"OU"});
        board[0][0] = serde_json::json!({"color":1,"kind":"OU"});
        board[1][1] = serde_json::json!({"color":1,"kind":"UM"});
        let doc = serde_json::json!({"header":{},"initial":{"preset":"OTHER","data":{
            "color":1,"board":board,"hands":[{"FU":2,"KI":1},{"HI":1}]}},"moves":[{}]});
        let r = one(&doc.to_string());
        let StartPosition::Setup(s) = r.start else {
            panic!("expected a setup")
        };
        assert_eq!(
            s.get(sq(5, 9)),
            Some(Piece::new(Color::Sente, PieceKind::King))
        );
        assert_eq!(
            s.get(sq(2, 2)),
            Some(Piece::new(Color::Gote, PieceKind::Horse))
        );
        assert_eq!(s.side_to_move, Color::Gote);
        assert_eq!(s.hands[0].count(PieceKind::Pawn), 2);
        assert_eq!(s.hands[0].count(PieceKind::Gold), 1);
        assert_eq!(s.hands[1].count(PieceKind::Rook), 1);
        assert!(parse(r#"{"header":{},"initial":{"preset":"XX"},"moves":[{}]}"#).is_err());
    }

    #[test]
    fn moves_time_comments_and_special() {
        let r = one(r#"{"header":{},"moves":[{"comments":["start"]},
{"move":{"color":0,"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"},
 "time":{"now":{"m":1,"s":2},"total":{"h":1,"m":0,"s":2}},"comments":["a","b"]},
{"move":{"color":1,"to":{"x":7,"y":6},"same":true,"piece":"KA","relative":"H"}},
{"special":"TORYO","time":{"now":{"m":0,"s":5},"total":{"h":0,"m":0,"s":9}}}]}"#);
        assert_eq!(r.comments, ["start"]);
        let m = &r.main.moves;
        assert_eq!(m.len(), 2);
        assert_eq!(
            m[0].notation,
            Notation::Kif {
                color: Some(Color::Sente),
                dest: Dest::Square(sq(7, 6)),
                piece: PieceKind::Pawn,
                promote: None,
                from: Some(sq(7, 7)),
                drop: false,
            }
        );
        assert_eq!(m[0].span.line, 2);
        assert_eq!(m[1].span.line, 4);
        assert_eq!(
            m[0].time,
            Some(MoveTime {
                spent_ms: Some(62_000),
                total_ms: Some(3_602_000)
            })
        );
        assert_eq!(m[0].comments(), ["a", "b"]);
        assert!(matches!(m[1].notation, Notation::Kif { drop: true, .. }));
        let e = r.main.ending.as_ref().unwrap();
        assert_eq!(e.kind, EndingKind::Resign);
        assert_eq!(e.span.line, 5);
        assert_eq!(e.time.unwrap().spent_ms, Some(5000));
    }

    #[test]
    fn same_without_to_and_relative_without_from() {
        let r = one(r#"{"header":{},"moves":[{},
{"move":{"color":0,"same":true,"piece":"FU","promote":false}},
{"move":{"color":0,"to":{"x":5,"y":8},"piece":"KI","relative":"LU"}}]}"#);
        assert!(matches!(
            r.main.moves[0].notation,
            Notation::Kif {
                dest: Dest::Same,
                promote: Some(false),
                ..
            }
        ));
        assert!(matches!(
            r.main.moves[1].notation,
            Notation::Ki2 { relative, .. } if relative == Relative::LEFT | Relative::UP
        ));
    }

    #[test]
    fn every_special_word() {
        // The CSA reader's test holds the words to the spec; JKF shares them.
        for &(w, k) in EndingKind::csa_words() {
            let r = one(&format!(
                r#"{{"header":{{}},"moves":[{{}},{{"special":"{w}"}}]}}"#
            ));
            assert_eq!(r.main.ending.unwrap().kind, k, "{w}");
        }
        assert!(parse(r#"{"header":{},"moves":[{},{"special":"NOPE"}]}"#).is_err());
    }

    #[test]
    fn nested_forks_are_alternatives_to_their_entry() {
        let mv = |fx, fy, tx, ty, c| {
            format!(
                r#"{{"move":{{"color":{c},"from":{{"x":{fx},"y":{fy}}},"to":{{"x":{tx},"y":{ty}}},"piece":"FU"}}"#
            )
        };
        let text = format!(
            r#"{{"header":{{}},"moves":[{{}},{},"forks":[[{},"forks":[[{}}}]]}},{}}}],[{{"special":"CHUDAN"}}]]}},{}}}]}}"#,
            mv(7, 7, 7, 6, 0),
            mv(2, 7, 2, 6, 0),
            mv(5, 7, 5, 6, 0),
            mv(3, 3, 3, 4, 1),
            mv(3, 3, 3, 4, 1),
        );
        let r = one(&text);
        let first = &r.main.moves[0];
        assert_eq!(first.variations().len(), 2);
        let v0 = &first.variations()[0];
        assert_eq!(v0.moves.len(), 2);
        assert_eq!(v0.moves[0].variations().len(), 1);
        assert!(first.variations()[1].moves.is_empty());
        assert_eq!(
            first.variations()[1].ending.as_ref().unwrap().kind,
            EndingKind::Interrupt
        );
        // Spans follow document order: the fork's move comes after its parent.
        assert!(v0.moves[0].span.offset > first.span.offset);
        assert!(r.main.moves[1].span.offset > v0.moves[1].span.offset);
        let game = crate::replay::replay(r, &Default::default()).unwrap();
        assert_eq!(game.main.plies.len(), 2);
        assert_eq!(
            game.main.plies[0].mv,
            Move::Normal {
                from: sq(7, 7),
                to: sq(7, 6),
                promote: false
            }
        );
        assert_eq!(game.variations.len(), 3);
    }

    #[test]
    fn entry_spans_are_where_each_entry_starts_whatever_the_strings_hold() {
        let text = "\u{feff}{\"header\":{\"moves\":\"[{\\\"x\\\"\"},\n\"moves\":[{\"comments\":[\"{[\\\"forks\\\":[[{\"]},\n {\"move\":{\"to\":{\"x\":7,\"y\":6},\"piece\":\"FU\"},\n  \"forks\":[[{\"move\":{\"to\":{\"x\":2,\"y\":6},\"piece\":\"FU\"}}]]},\n {\"move\":{\"to\":{\"x\":3,\"y\":4},\"piece\":\"FU\"}}]}";
        let r = one(text);
        assert_eq!(r.comments, ["{[\"forks\":[[{"]);
        let first = &r.main.moves[0];
        let fork = &first.variations()[0].moves[0];
        let second = &r.main.moves[1];
        for (m, line, column) in [(first, 3, 2), (fork, 4, 13), (second, 5, 2)] {
            assert_eq!((m.span.line, m.span.column), (line, column));
            assert_eq!(&text[m.span.offset..m.span.offset + 8], "{\"move\":");
        }
    }

    #[test]
    fn hostile_nesting_is_refused_not_overflowed() {
        let depth = 100_000;
        let mut text = String::from(r#"{"header":{},"moves":[{},"#);
        for _ in 0..depth {
            text.push_str(r#"{"move":{"color":0,"to":{"x":1,"y":1},"piece":"FU"},"forks":[["#);
        }
        for _ in 0..depth {
            text.push_str("]]}");
        }
        text.push_str("]}");
        assert!(parse(&text).is_err());
    }

    #[test]
    fn syntax_errors_carry_line_and_column() {
        let e = parse("{\"header\":{},\n  \"moves\": [}").unwrap_err();
        assert_eq!(e.span.line, 2);
        assert!(e.span.column > 1);
        let e = parse(
            r#"{"header":{},"moves":[{},{"move":{"color":0,"to":{"x":10,"y":1},"piece":"FU"}}]}"#,
        )
        .unwrap_err();
        assert!(e.message.contains("off the board"));
    }
}
