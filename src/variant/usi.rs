//! Variant records in Fairy-Stockfish's USI: `position sfen <SFEN> moves …`
//! (or `position startpos moves …`, the variant's own start), one game a
//! line. A `setoption name UCI_Variant value NAME` line, as a GUI sends it
//! to the engine, names the variant of the lines after it.

use super::replay::{VEnding, VNotation, VariantGame, VariantRecord};
use super::{Board, VMove, Variant, fitting};
use crate::error::ParseError;
use crate::parse::{SourceLine, lines};
use crate::record::EndingKind;

/// The variant named by a `setoption name UCI_Variant value NAME` line.
fn setoption_variant(line: &str) -> Option<&str> {
    let rest = line
        .trim()
        .strip_prefix("setoption name UCI_Variant value ")?;
    Some(rest.trim())
}

/// Which variant of the family a USI text holds, when it is not modern
/// shogi: `None` for modern shogi (or not USI at all), `Err` when no
/// variant is named and the first SFEN fits several.
pub fn sniff(text: &str) -> Option<Result<Variant, String>> {
    for line in lines(text) {
        let t = line.text.trim();
        if let Some(name) = setoption_variant(t) {
            return match Variant::from_name(name) {
                Some(Variant::Shogi) => None,
                Some(v) => Some(Ok(v)),
                None => Some(Err(format!("unknown UCI_Variant {name:?}"))),
            };
        }
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let body = t.strip_prefix("position ").unwrap_or(t).trim_start();
        let body = body.strip_prefix("sfen ").unwrap_or(body);
        if body.starts_with("startpos") {
            return None;
        }
        let sfen: String = body
            .split_whitespace()
            .take_while(|w| *w != "moves")
            .collect::<Vec<_>>()
            .join(" ");
        let fits = fitting(&sfen);
        return match fits[..] {
            [] => None,
            [v] if v != Variant::Shogi => Some(Ok(v)),
            // A 9×9 board without an elephant is read as modern shogi,
            // as it always was; sho shogi must then be named.
            _ if fits.contains(&Variant::Shogi) => None,
            _ => Some(Err(format!(
                "the SFEN fits {}: the variant must be named",
                fits.iter()
                    .map(|v| v.name())
                    .collect::<Vec<_>>()
                    .join(" and ")
            ))),
        };
    }
    None
}

/// Parse every game in `text` as `variant` (or the variant a
/// `setoption … UCI_Variant` line names).
pub fn parse(text: &str, variant: Variant) -> Result<Vec<VariantRecord>, ParseError> {
    let mut out = Vec::new();
    let mut variant = variant;
    for line in lines(text) {
        let t = line.text.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with("//") {
            continue;
        }
        if let Some(name) = setoption_variant(t) {
            variant = Variant::from_name(name).ok_or_else(|| {
                ParseError::new(
                    line.span(),
                    format!(
                        "expected shoshogi, torishogi, minishogi, judkins or micro, found UCI_Variant {name:?}"
                    ),
                )
            })?;
            continue;
        }
        let mut rec = parse_line(&line, variant)?;
        rec.index = out.len();
        out.push(rec);
    }
    Ok(out)
}

fn ending_of(tok: &str) -> Option<EndingKind> {
    Some(match tok {
        "resign" => EndingKind::Resign,
        "rep_draw" => EndingKind::Sennichite,
        // A draw agreed or declared, as in shogi's USI reader: no repetition
        // for the replay to look for.
        "draw" => EndingKind::Hikiwake,
        "timeout" => EndingKind::TimeUp,
        "break" | "chudan" => EndingKind::Interrupt,
        _ => return None,
    })
}

fn parse_line(line: &SourceLine<'_>, variant: Variant) -> Result<VariantRecord, ParseError> {
    let base = line.text.as_ptr() as usize;
    let toks: Vec<(usize, &str)> = line
        .text
        .split_ascii_whitespace()
        .map(|t| (t.as_ptr() as usize - base, t))
        .collect();
    let at = |i: usize| line.span_at(toks.get(i).map_or(line.text.len(), |t| t.0));
    let mut i = usize::from(toks.first().map(|t| t.1) == Some("position"));
    let start = if toks.get(i).map(|t| t.1) == Some("startpos") {
        i += 1;
        variant.start()
    } else {
        i += usize::from(toks.get(i).map(|t| t.1) == Some("sfen"));
        let end = (i..toks.len())
            .find(|&j| toks[j].1 == "moves")
            .unwrap_or(toks.len());
        let sfen = toks[i..end]
            .iter()
            .map(|t| t.1)
            .collect::<Vec<_>>()
            .join(" ");
        let b = Board::from_sfen(variant, &sfen)
            .map_err(|e| ParseError::new(at(i), format!("expected a {variant} SFEN: {e}")))?;
        i = end;
        b
    };
    if i < toks.len() {
        if toks[i].1 != "moves" {
            return Err(ParseError::new(
                at(i),
                format!("expected `moves`, found {:?}", toks[i].1),
            ));
        }
        i += 1;
    }
    let mut rec = VariantRecord {
        index: 0,
        header: vec![("variant".into(), variant.name().into())],
        start,
        moves: Vec::new(),
        ending: None,
    };
    while i < toks.len() {
        let span = at(i);
        let tok = toks[i].1;
        if let Some(kind) = ending_of(tok) {
            if i + 1 < toks.len() {
                return Err(ParseError::new(
                    at(i + 1),
                    format!("expected the end of the line after `{tok}`"),
                ));
            }
            rec.ending = Some(VEnding {
                kind,
                text: tok.into(),
                span,
            });
            break;
        }
        let m = parse_move(&rec.start, tok).ok_or_else(|| {
            ParseError::new(
                span,
                format!(
                    "expected a {variant} USI move such as {}, found {tok:?}",
                    example(variant)
                ),
            )
        })?;
        rec.moves.push((VNotation::Usi(m), span));
        i += 1;
    }
    Ok(rec)
}

fn example(variant: Variant) -> &'static str {
    match variant {
        Variant::Mini => "5e4d, 1b1a+ or P*3c",
        Variant::Tori => "3d3c, 4c4b+ or S*4d",
        Variant::Judkins => "6e6d, 2f5c+ or P*3c",
        Variant::Micro => "2e3d, 3d3c+, 3d3c- or +P*2c",
        _ => "7g7f, 8h2b+ or P*5e",
    }
}

/// A square name (`5e`, `7a`, `12l`) at the start of `s` on this board,
/// and the rest of `s`.
fn square<'a>(board: &Board, s: &'a [u8]) -> Option<(u8, &'a [u8])> {
    let digits = s.iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 || digits > 2 || s[0] == b'0' {
        return None;
    }
    let file: u8 = std::str::from_utf8(&s[..digits]).ok()?.parse().ok()?;
    let r = *s.get(digits)?;
    let rank = r.checked_sub(b'a')? + 1;
    Some((board.cell_of(file, rank)?, &s[digits + 1..]))
}

/// A USI move on `board` (only its size and piece letters matter): `7g7f`,
/// `8h2b+`, micro shogi's `3d3c-`, a drop `P*5e` (or `+P*5e`, a piece
/// dropped promoted), and chu shogi's double moves `7g6f5e`.
pub fn parse_move(board: &Board, tok: &str) -> Option<VMove> {
    let b = tok.as_bytes();
    let (promoted, rest) = match b.strip_prefix(b"+") {
        Some(r) => (true, r),
        None => (false, b),
    };
    if rest.len() >= 2 && rest[1] == b'*' && rest[0].is_ascii_uppercase() {
        let id = board.piece_id(rest[0] as char, promoted)?;
        let (to, tail) = square(board, &rest[2..])?;
        if board.def(id).royal || !tail.is_empty() {
            return None;
        }
        return Some(VMove::drop(id, to));
    }
    let (from, rest) = square(board, b)?;
    let (second, mut rest) = square(board, rest)?;
    let mut m = VMove::step(from, second);
    if let Some((to, tail)) = square(board, rest) {
        m.mid = Some(second);
        m.to = to;
        rest = tail;
    }
    match rest {
        b"" => {}
        b"+" => m.promote = true,
        b"-" => m.demote = true,
        _ => return None,
    }
    Some(m)
}

/// The game as one `position sfen … moves …` line: the legal moves, then
/// the foul as written when there is one (so nothing is lost).
pub fn write(game: &VariantGame) -> String {
    let start = &game.record.start;
    let mut s = format!("position sfen {}", start.to_sfen());
    let moves: Vec<String> = moves_usi(game);
    if !moves.is_empty() {
        s.push_str(" moves");
        for m in &moves {
            s.push(' ');
            s.push_str(m);
        }
    }
    if let Some(e) = &game.record.ending
        && game.foul.is_none()
        && let Some(word) = usi_ending(e.kind)
    {
        s.push(' ');
        s.push_str(word);
    }
    s.push('\n');
    s
}

/// Every move of the record in USI: the legal ones, then the foul and any
/// moves written after it, as written (a KIF move that could not be placed
/// on the board has no USI form and is left out).
pub fn moves_usi(game: &VariantGame) -> Vec<String> {
    let mut board = game.record.start.clone();
    let mut out = Vec::with_capacity(game.record.moves.len());
    for p in &game.plies {
        out.push(board.usi(p.mv));
        board.play_unchecked(p.mv);
    }
    let foul_usi = game.foul.as_ref().and_then(|f| f.usi.clone());
    for (i, (n, _)) in game.record.moves.iter().enumerate().skip(game.plies.len()) {
        match n {
            VNotation::Usi(m) => out.push(board.usi(*m)),
            // A repetition foul's move is already the last ply.
            _ if i == game.plies.len() && !game.foul_played() => out.extend(foul_usi.clone()),
            _ => {}
        }
    }
    out
}

fn usi_ending(kind: EndingKind) -> Option<&'static str> {
    Some(match kind {
        EndingKind::Resign | EndingKind::Tsumi => "resign",
        EndingKind::Sennichite => "rep_draw",
        EndingKind::Hikiwake => "draw",
        EndingKind::TimeUp => "timeout",
        EndingKind::Interrupt => "break",
        _ => return None,
    })
}
