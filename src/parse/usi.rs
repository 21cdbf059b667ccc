//! USI/SFEN lines: one game per line.
//!
//! Accepted shapes, with or without the word `position`:
//! `position startpos [moves …]`, `position sfen <sfen> [moves …]`,
//! `startpos moves …`, a bare SFEN (a position with no moves), and the
//! `name | position …` lines test suites use (the name becomes a header field).
//! Blank lines and `#` comment lines are skipped. The pseudo-moves tools
//! append (`resign`, `win`, `rep_draw`, `timeout`, `break`, …) become endings.
//!
//! The grammar is a sequence of whitespace-separated tokens, so the parser
//! walks tokens directly; each token keeps its column for error messages.

use crate::error::ParseError;
use crate::parse::{SourceLine, lines};
use crate::record::{
    Ending, EndingKind, HeaderField, Line, MoveEntry, Notation, Record, StartPosition,
};
use crate::setup::{Handicap, Setup};
use crate::types::Move;

/// Parse every game in `text`, one per non-blank, non-comment line.
pub fn parse(text: &str) -> Result<Vec<Record>, ParseError> {
    let mut out = Vec::new();
    for line in lines(text) {
        let t = line.text.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with("//") {
            continue;
        }
        let mut rec = parse_line(&line)?;
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

fn pseudo_move(tok: &str) -> Option<EndingKind> {
    Some(match tok {
        "resign" => EndingKind::Resign,
        "win" => EndingKind::Kachi,
        "rep_draw" | "draw" => EndingKind::Sennichite,
        "timeout" => EndingKind::TimeUp,
        "break" => EndingKind::Interrupt,
        "rep_win" | "rep_lose" => EndingKind::FoulByPrevious,
        _ => return None,
    })
}

fn parse_line(line: &SourceLine<'_>) -> Result<Record, ParseError> {
    let mut rec = Record {
        span: line.span(),
        ..Record::default()
    };
    let mut body = line.text;
    let mut body_off = 0usize;
    // `name | position …` as in test-data files.
    let bar = if body.as_bytes().contains(&b'|') {
        body.find(" | ")
    } else {
        None
    };
    if let Some(bar) = bar {
        let name = body[..bar].trim();
        if !name.is_empty() && !name.contains(' ') {
            rec.header.push(HeaderField {
                key: "name".into(),
                value: name.into(),
                span: line.span(),
            });
            body_off = bar + 3;
            body = &body[body_off..];
        }
    }
    // A USI move and its space take at least five bytes, so this bound keeps
    // a long game's token list from growing by copies.
    let mut toks: Vec<(usize, &str)> = Vec::with_capacity(body.len() / 5 + 4);
    toks.extend(tokens(body).map(|(o, t)| (o + body_off, t)));
    let at = |i: usize| -> crate::record::Span {
        line.span_at(toks.get(i).map_or(line.text.len(), |t| t.0))
    };
    let mut i = 0;
    if toks.first().map(|t| t.1) == Some("position") {
        i += 1;
    }
    rec.start_span = Some(at(i));
    match toks.get(i).map(|t| t.1) {
        Some("startpos") => {
            rec.start = StartPosition::Preset(Handicap::Hirate);
            i += 1;
        }
        Some("sfen") | Some(_) => {
            if toks.get(i).map(|t| t.1) == Some("sfen") {
                i += 1;
            }
            let end = (i..toks.len())
                .find(|&j| toks[j].1 == "moves")
                .unwrap_or(toks.len());
            if end - i < 3 || end - i > 4 {
                return Err(ParseError::new(
                    at(i),
                    "expected `startpos` or an SFEN (board side hand [move number])",
                ));
            }
            let sfen = toks[i..end]
                .iter()
                .map(|t| t.1)
                .collect::<Vec<_>>()
                .join(" ");
            let setup = Setup::from_sfen(&sfen)
                .map_err(|e| ParseError::new(at(i), format!("bad SFEN: {e}")))?;
            rec.start = match setup.preset() {
                Some(h) if setup.move_number == 1 => StartPosition::Preset(h),
                _ => StartPosition::Setup(Box::new(setup)),
            };
            i = end;
        }
        None => return Err(ParseError::new(at(i), "expected `startpos` or an SFEN")),
    }
    if i < toks.len() {
        if toks[i].1 != "moves" {
            return Err(ParseError::new(
                at(i),
                format!("expected `moves`, found {:?}", toks[i].1),
            ));
        }
        i += 1;
    }
    let mut main = Line::default();
    // Every token left is a move but perhaps the last, so the list is sized
    // once instead of grown (and copied) as it fills.
    main.moves.reserve_exact(toks.len() - i);
    let mut cursor = line.cursor();
    while i < toks.len() {
        let (off, tok) = toks[i];
        let span = cursor.span_at(off);
        if let Some(kind) = pseudo_move(tok) {
            main.ending = Some(Ending {
                kind,
                text: tok.to_string(),
                span,
                time: None,
                comments: Vec::new(),
            });
            if i + 1 < toks.len() {
                return Err(ParseError::new(
                    at(i + 1),
                    format!("expected the end of the line after `{tok}`"),
                ));
            }
            break;
        }
        let mv = Move::from_usi(tok).ok_or_else(|| {
            ParseError::new(
                span,
                format!("expected a USI move such as 7g7f, 8h2b+ or P*5e, found {tok:?}"),
            )
        })?;
        main.moves.push(MoveEntry::new(Notation::Usi(mv), span));
        i += 1;
    }
    rec.main = main;
    Ok(rec)
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
    fn sniffs_usi() {
        assert!(sniff("position startpos moves 7g7f"));
        assert!(sniff(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
        ));
        assert!(!sniff("手合割：平手"));
    }
}
