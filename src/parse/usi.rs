//! USI/SFEN lines: one game per line.
//!
//! Accepted shapes, with or without the word `position`:
//! `position startpos [moves …]`, `position sfen <sfen> [moves …]`,
//! `startpos moves …`, a bare SFEN (a position with no moves), and the
//! `name | position …` lines test suites use (the name becomes a header field).
//! Blank lines and `#` comment lines are skipped. The pseudo-moves tools
//! append after the moves (`resign`, `win`, `draw`, `rep_draw`, `timeout`,
//! `break`, `chudan`, …) become the line's ending; `draw` is a plain draw,
//! `rep_draw` a repetition the replay then looks for.
//!
//! The grammar is a sequence of whitespace-separated tokens, so the parser
//! walks tokens directly; each token keeps its column for error messages.
//! The same grammar reads the other games of the family
//! ([`parse_variant`]) on their own boards and piece letters.

mod variant;

use crate::error::ParseError;
use crate::parse::{SourceLine, lines};
use crate::record::{
    Ending, EndingKind, HeaderField, Line, Location, MoveEntry, Notation, Record, StartPosition,
};
use crate::rules::setup::{Handicap, Setup};
use crate::rules::types::Move;
use crate::variant::Board;
pub use variant::{parse_variant, variant_move};

/// The board a line's start and moves are read on.
#[derive(Clone, Copy)]
enum On {
    Shogi,
    Family(crate::variant::Variant),
}

/// Parse every game in `text`, one per non-blank, non-comment line.
pub fn parse(text: &str) -> Result<Vec<Record>, ParseError> {
    read(text, On::Shogi)
}

fn read(text: &str, mut on: On) -> Result<Vec<Record>, ParseError> {
    let mut out = Vec::new();
    for line in lines(text) {
        let t = line.text.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with("//") {
            continue;
        }
        if let On::Family(v) = &mut on
            && let Some(named) = variant::setoption(&line)?
        {
            *v = named;
            continue;
        }
        let mut rec = parse_line(&line, on)?;
        rec.index = out.len();
        out.push(rec);
    }
    Ok(out)
}

/// Whether `text` looks like USI/SFEN lines.
pub fn sniff(text: &str) -> bool {
    lines(text)
        .map(|l| l.text.trim())
        .find(|t| !t.is_empty() && !t.starts_with('#'))
        .is_some_and(|t| {
            // A byte search first: a line holding a whole game rarely has a
            // `|`, and the substring search from the end is slow.
            let t = if t.as_bytes().contains(&b'|') {
                t.rsplit_once(" | ").map_or(t, |(_, r)| r)
            } else {
                t
            };
            t.starts_with("position ")
                || t.starts_with("startpos")
                || t.starts_with("sfen ")
                || Setup::from_sfen(t).is_ok()
        })
}

/// Tokens of a line with their byte offsets within the line.
fn tokens(s: &str) -> impl Iterator<Item = (usize, &str)> {
    let base = s.as_ptr() as usize;
    s.split_ascii_whitespace()
        .map(move |t| (t.as_ptr() as usize - base, t))
}

/// The ending a token after the moves names: the pseudo-moves ShogiGUI and
/// ShogiHome (tsshogi's `getUSI`) append, and YaneuraOu's PV terminators.
fn pseudo_move(tok: &str) -> Option<EndingKind> {
    Some(match tok {
        "resign" => EndingKind::Resign,
        "win" => EndingKind::Kachi,
        "rep_draw" => EndingKind::Sennichite,
        // A draw agreed or declared, not a repetition the board must show.
        "draw" => EndingKind::Hikiwake,
        "timeout" => EndingKind::TimeUp,
        "break" | "chudan" => EndingKind::Interrupt,
        // YaneuraOu's REPETITION_WIN / _LOSE are from the side to move: the
        // perpetual checks were the previous mover's, or its own.
        "rep_win" => EndingKind::FoulByPrevious,
        "rep_lose" => EndingKind::FoulByMover,
        _ => return None,
    })
}

/// A line's tokens with their byte offsets in the line, and the span of
/// each.
struct Tokens<'l, 'a> {
    line: &'l SourceLine<'a>,
    toks: Vec<(usize, &'a str)>,
}

impl Tokens<'_, '_> {
    fn text(&self, i: usize) -> Option<&str> {
        self.toks.get(i).map(|t| t.1)
    }

    /// The SFEN's fields from token `i` up to `moves` (or the line's end),
    /// joined by spaces; how many there are, and the index after them.
    fn sfen_from(&self, i: usize) -> (String, usize, usize) {
        let end = (i..self.toks.len())
            .find(|&j| self.toks[j].1 == "moves")
            .unwrap_or(self.toks.len());
        let fields: Vec<&str> = self.toks[i..end].iter().map(|t| t.1).collect();
        (fields.join(" "), fields.len(), end)
    }

    /// The span of token `i`, or of the line's end past the last.
    fn at(&self, i: usize) -> Location {
        let line = self.line;
        line.span_at(self.toks.get(i).map_or(line.text.len(), |t| t.0))
    }
}

fn parse_line(line: &SourceLine<'_>, on: On) -> Result<Record, ParseError> {
    let mut rec = Record {
        span: line.span(),
        ..Record::default()
    };
    let (name, body_off) = test_name(line.text);
    if let Some(name) = name {
        rec.header.push(HeaderField {
            key: "name".into(),
            value: name.into(),
            span: line.span(),
        });
    }
    let body = &line.text[body_off..];
    // A USI move and its space take at least five bytes, so this bound keeps
    // a long game's token list from growing by copies.
    let mut toks: Vec<(usize, &str)> = Vec::with_capacity(body.len() / 5 + 4);
    toks.extend(tokens(body).map(|(o, t)| (o + body_off, t)));
    let toks = Tokens { line, toks };
    let mut i = usize::from(toks.text(0) == Some("position"));
    rec.start_span = Some(toks.at(i));
    let (start, next) = match on {
        On::Shogi => start_position(&toks, i)?,
        On::Family(v) => variant::start_position(&toks, i, v)?,
    };
    rec.start = start;
    i = next;
    if let Some(tok) = toks.text(i) {
        if tok != "moves" {
            return Err(ParseError::new(
                toks.at(i),
                format!("expected `moves`, found {tok:?}"),
            ));
        }
        i += 1;
    }
    let board = match &rec.start {
        StartPosition::Variant(b) => Some(&**b),
        _ => None,
    };
    rec.main = moves(&toks, i, board)?;
    Ok(rec)
}

/// The name of a `name | position …` line (as test-data files write them),
/// and where the position part starts; no name and 0 otherwise.
fn test_name(text: &str) -> (Option<&str>, usize) {
    // A byte search first: a line holding a whole game rarely has a `|`.
    let bar = if text.as_bytes().contains(&b'|') {
        text.find(" | ")
    } else {
        None
    };
    match bar {
        Some(bar) => {
            let name = text[..bar].trim();
            if name.is_empty() || name.contains(' ') {
                (None, 0)
            } else {
                (Some(name), bar + 3)
            }
        }
        None => (None, 0),
    }
}

/// `startpos`, or an SFEN with or without the word `sfen`, at token `i`;
/// and the index of the token after it.
fn start_position(toks: &Tokens<'_, '_>, i: usize) -> Result<(StartPosition, usize), ParseError> {
    let mut i = i;
    match toks.text(i) {
        Some("startpos") => Ok((StartPosition::Preset(Handicap::Hirate), i + 1)),
        Some(first) => {
            if first == "sfen" {
                i += 1;
            }
            let (sfen, fields, end) = toks.sfen_from(i);
            if !(3..=4).contains(&fields) {
                return Err(ParseError::new(
                    toks.at(i),
                    "expected `startpos` or an SFEN (board side hand [move number])",
                ));
            }
            let setup = Setup::from_sfen(&sfen).map_err(|e| {
                ParseError::new(toks.at(i), format!("bad SFEN: {e}"))
                    .of_kind(crate::error::ParseErrorKind::StartPosition)
            })?;
            let start = match setup.preset() {
                Some(h) if setup.move_number == 1 => StartPosition::Preset(h),
                _ => StartPosition::Setup(Box::new(setup)),
            };
            Ok((start, end))
        }
        None => Err(ParseError::new(
            toks.at(i),
            "expected `startpos` or an SFEN",
        )),
    }
}

/// The moves from token `i` on (on `board`, a variant's, when given),
/// and the ending a last pseudo-move names.
fn moves(toks: &Tokens<'_, '_>, mut i: usize, board: Option<&Board>) -> Result<Line, ParseError> {
    let mut main = Line::default();
    // Every token left is a move but perhaps the last, so the list is sized
    // once instead of grown (and copied) as it fills.
    main.moves.reserve_exact(toks.toks.len() - i);
    let mut cursor = toks.line.cursor();
    while let Some(&(off, tok)) = toks.toks.get(i) {
        let span = cursor.span_at(off);
        if let Some(kind) = pseudo_move(tok) {
            main.ending = Some(Ending {
                kind,
                text: tok.to_string(),
                span,
                time: None,
                comments: Vec::new(),
            });
            if i + 1 < toks.toks.len() {
                return Err(ParseError::new(
                    toks.at(i + 1),
                    format!("expected the end of the line after `{tok}`"),
                ));
            }
            break;
        }
        let notation = match board {
            None => Move::from_usi(tok).map(Notation::Usi),
            Some(b) => variant_move(b, tok).map(Notation::VariantUsi),
        };
        let notation = notation.ok_or_else(|| {
            ParseError::new(
                span,
                format!(
                    "expected a {}USI move such as {}, or an ending such as resign, found {tok:?}",
                    board.map_or(String::new(), |b| format!("{} ", b.variant())),
                    board.map_or("7g7f, 8h2b+ or P*5e", |b| variant::example(b.variant())),
                ),
            )
        })?;
        main.moves.push(MoveEntry::new(notation, span));
        i += 1;
    }
    Ok(main)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_line_shape() {
        let t = "# comment\nposition startpos moves 7g7f 3c3d\n\nstartpos moves 2g2f resign\n\
                 position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 2 moves 3c3d\n\
                 test | position startpos\n4k4/9/4P4/9/9/9/9/9/9 b G 1\n";
        let recs = parse(t).unwrap();
        assert_eq!(recs.len(), 5);
        assert_eq!(recs[0].main.moves.len(), 2);
        assert_eq!(recs[0].main.moves[1].span.line, 2);
        assert_eq!(recs[0].main.moves[1].span.column, 30);
        assert_eq!(
            recs[1].main.ending.as_ref().unwrap().kind,
            EndingKind::Resign
        );
        assert!(matches!(recs[2].start, StartPosition::Setup(_)));
        assert_eq!(recs[3].header[0].value, "test");
        assert_eq!(recs[4].main.moves.len(), 0);
        assert_eq!(recs[4].index, 4);
    }

    #[test]
    fn bad_token_reports_line_and_column() {
        let e = parse("position startpos moves 7g7f 3c3x\n").unwrap_err();
        assert_eq!((e.span.line, e.span.column), (1, 30));
        assert!(e.message.contains("expected a USI move"), "{}", e.message);
        let e = parse("position sfen 9/9 b - 1\n").unwrap_err();
        assert!(e.message.contains("bad SFEN"), "{}", e.message);
    }

    #[test]
    fn end_tokens_keep_the_moves_and_end_the_line() {
        let t = "startpos moves 7g7f 3c3d draw\nstartpos moves 7g7f chudan\n\
                 startpos moves 7g7f rep_draw\nstartpos moves 7g7f 3c3d timeout\n\
                 startpos moves 7g7f rep_win\nstartpos moves 7g7f rep_lose\n";
        let recs = parse(t).unwrap();
        let ends: Vec<(usize, EndingKind)> = recs
            .iter()
            .map(|r| (r.main.moves.len(), r.main.ending.as_ref().unwrap().kind))
            .collect();
        assert_eq!(
            ends,
            [
                (2, EndingKind::Hikiwake),
                (1, EndingKind::Interrupt),
                (1, EndingKind::Sennichite),
                (2, EndingKind::TimeUp),
                (1, EndingKind::FoulByPrevious),
                (1, EndingKind::FoulByMover),
            ]
        );
        let e = parse("startpos moves 7g7f resign 3c3d\n").unwrap_err();
        assert_eq!((e.span.line, e.span.column), (1, 28));
    }

    #[test]
    fn sniffs_usi() {
        assert!(sniff("position startpos moves 7g7f"));
        assert!(sniff(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
        ));
        assert!(!sniff("手合割：平手"));
    }
}
