//! The KI2 reader (Kakinoki `.ki2` / `.ki2u`): text to one [`Record`].
//!
//! Headers, board diagrams, comments, bookmarks and variations follow KIF
//! and share its code (`parse::document`). Moves carry no origin
//! (`▲５二銀右上成`): they are kept as [`Notation::Ki2`] for the replayer to
//! resolve against the position (`ki2.md` §6). A line is cut before each
//! side mark after dropping whitespace, which reads every layout seen:
//! KfW's padded columns, single spaces, and whole games on one line.

use crate::error::ParseError;
use crate::parse::SourceLine;
use crate::parse::document::{self, Document, Kind};
pub use crate::parse::ja::closing::summary_ending;
use crate::parse::ja::ending_word::ending_kind;
use crate::parse::ja::expect::{self, LineErr, Res, token_error};
use crate::parse::ja::grammar::{Source, move_end, piece_name};
use crate::parse::ja::line_kind::looks_like_move_line;
use crate::parse::ja::token::{
    self, MARKS, ORIGIN, is_space, same, side_mark, square, starts_move,
};
use crate::record::{Dest, Ending, EndingKind, Format, MoveEntry, Notation, Record, Relative};
use crate::rules::types::Color;
use nom::Parser;
use nom::combinator::{cut, eof};
use nom::error::context;

/// Whether `text` looks like KI2: a line starting with a side mark whose
/// first move reads as KI2, and no KIF move table before it.
pub fn sniff(text: &str) -> bool {
    document::sniff(text, |line| {
        let t = line.trim_start_matches(is_space);
        if t.starts_with("手数----") || looks_like_move_line(t) {
            return Some(false);
        }
        t.starts_with(MARKS).then(|| {
            tokens(line)
                .next()
                .is_some_and(|(_, tok)| token(compact(tok, &mut String::new())).is_ok())
        })
    })
}

/// Read a KI2 file. A KI2 file holds one game, so the result has one record.
///
/// Syntax only: moves are kept as written and resolved by the replayer.
///
/// A syntax error after the first move carries the game read before it
/// ([`crate::ParseError::partial`]), so one bad line need not lose the game.
pub fn parse(text: &str) -> Result<Vec<Record>, ParseError> {
    let mut compacted = String::new();
    document::read(text, Format::Ki2, Document::new(), |doc, l| {
        line(doc, l, &mut compacted)
    })
}

/// What one token after its side mark says.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Token {
    Move(Notation),
    /// A terminal word written as a pseudo-move (`△投了`, ShogiDB2).
    Ending(String, EndingKind),
}

/// The `(byte offset, text)` of each token of a move line: from each side
/// mark to the next. Text before the first mark is returned with offset 0
/// when it is not blank, so the caller can refuse it.
fn tokens(line: &str) -> impl Iterator<Item = (usize, &str)> {
    // No Vec per line: the marks are found as the tokens are handed out,
    // by their first byte (every mark is a three-byte character led by
    // 0xE2, a lead byte, so the slice below starts on a character).
    let bytes = line.as_bytes();
    let mut from = 0;
    let mut marks = std::iter::from_fn(move || {
        while let Some(p) = bytes[from..].iter().position(|&b| b == 0xE2) {
            let at = from + p;
            from = at + 1;
            if line[at..].starts_with(MARKS) {
                return Some(at);
            }
        }
        from = bytes.len();
        None
    })
    .peekable();
    let lead = marks.peek().copied().unwrap_or(line.len());
    let mut next_start = if line[..lead].chars().all(is_space) {
        marks.next()
    } else {
        Some(0)
    };
    std::iter::from_fn(move || {
        let start = next_start?;
        next_start = marks.next();
        Some((start, &line[start..next_start.unwrap_or(line.len())]))
    })
}

/// A token without its spaces (`△同　歩` → `△同歩`): the token itself when
/// there is nothing inside to remove, else written into `buf`, which the
/// caller keeps from token to token.
fn compact<'t>(tok: &'t str, buf: &'t mut String) -> &'t str {
    let t = tok.trim_matches(is_space);
    if !t.contains(is_space) {
        return t;
    }
    buf.clear();
    buf.extend(t.chars().filter(|&c| !is_space(c)));
    buf
}

/// [`token::dest`](crate::parse::ja::token::dest), and the printed `７六同`
/// and `同７六` (the square wins).
fn dest(i: &str) -> Res<'_, Dest> {
    let (i, dest) = token::dest(i)?;
    Ok(match dest {
        Dest::Square(_) => (same(i).map_or(i, |(i, ())| i), dest),
        Dest::Same => square(i).map_or((i, dest), |(i, sq)| (i, Dest::Square(sq))),
    })
}

/// 右 / 左 / 直, then 上 (行 and 入 are its old synonyms) / 寄 / 引, each
/// optional: a character each, compared without a combinator per choice
/// (this runs on every move).
fn relative(i: &str) -> Res<'_, Relative> {
    fn one<'a>(i: &'a str, table: &[(char, Relative)]) -> (&'a str, Relative) {
        let mut chars = i.chars();
        match chars
            .next()
            .and_then(|c| table.iter().find(|&&(k, _)| k == c))
        {
            Some(&(_, r)) => (chars.as_str(), r),
            None => (i, Relative::default()),
        }
    }
    use Relative as R;
    let (i, side) = one(i, &[('右', R::RIGHT), ('左', R::LEFT), ('直', R::STRAIGHT)]);
    let motion = [
        ('上', R::UP),
        ('行', R::UP),
        ('入', R::UP),
        ('寄', R::SIDEWAYS),
        ('引', R::DOWN),
    ];
    let (i, motion) = one(i, &motion);
    Ok((i, side | motion))
}

fn board_move(color: Color) -> impl FnMut(&str) -> Res<'_, Notation> {
    move |i| {
        let (i, dest) = dest(i)?;
        let (i, piece) = context("a piece name", piece_name).parse(i)?;
        let (i, mut rel) = relative(i)?;
        let (i, (promote, source)) = move_end(i)?;
        if i.starts_with('(') {
            // Nothing but an origin starts so here (a KI2 move has no time).
            return Err(expect::failure(i, ORIGIN));
        }
        let (i, _) = context("the end of the move", eof).parse(i)?;
        let (from, drop) = source.origin_and_drop();
        if let Source::From(_) | Source::Drop { origin: true } = source {
            // The written origin decides; modifiers are then redundant.
            return Ok((
                i,
                Notation::Kif {
                    color: Some(color),
                    dest,
                    piece,
                    promote,
                    from,
                    drop,
                },
            ));
        }
        if drop {
            rel |= Relative::DROP;
        }
        Ok((
            i,
            Notation::Ki2 {
                color: Some(color),
                dest,
                piece,
                relative: rel,
                promote,
            },
        ))
    }
}

/// One token with its whitespace removed: a side mark, then a move or a
/// terminal word.
fn token(i: &str) -> Result<Token, LineErr<'_>> {
    let run = |i| -> Res<'_, Token> {
        let (i, color) = side_mark(i)?;
        if starts_move(i) {
            // The first character says this is a move: report what is
            // missing rather than backtrack to 'a terminal word'.
            return cut(board_move(color)).map(Token::Move).parse(i);
        }
        match ending_kind(i) {
            Some(kind) => Ok(("", Token::Ending(i.to_string(), kind))),
            None => Err(expect::failure(
                i,
                "a move such as ７六歩 or a terminal word such as 投了",
            )),
        }
    };
    expect::complete(run(i))
}

/// The moves of a reading line as GUIs write it in comments (`▲７六歩(77)
/// △３四歩(33)`, `▲２六歩△８四歩`): each token from a side mark to the
/// next, read as a KI2 move (an origin such as `(77)` allowed), up to the
/// first that is not a move.
pub fn reading_line(text: &str) -> Vec<Notation> {
    let mut out = Vec::new();
    let mut buf = String::new();
    for (_, tok) in tokens(text.trim()) {
        match token(compact(tok, &mut buf)) {
            Ok(Token::Move(n)) => out.push(n),
            _ => break,
        }
    }
    out
}

fn line(doc: &mut Document, l: &SourceLine<'_>, compacted: &mut String) -> Result<(), ParseError> {
    let t = l.text;
    if doc.early_line(l)? {
        return Ok(());
    }
    if t.trim_start_matches(is_space).starts_with(MARKS) {
        return move_line(doc, l, compacted);
    }
    if doc.diagram_line(l)? {
        return Ok(());
    }
    if looks_like_move_line(t) {
        return Err(ParseError::new(
            l.span(),
            "a numbered KIF move line in a KI2 file: KI2 moves start with ▲ or △",
        ));
    }
    match doc.other_line(l)? {
        Kind::Done => {}
        Kind::Summary(s) => summary(doc, s, l),
        Kind::Other => doc.note(l),
    }
    Ok(())
}

/// The `まで` line is KI2's only record of the result: it becomes the
/// current line's ending unless a pseudo-move already ended it. The text
/// stays in the summary too, so whoever checks the named side against
/// the move count (cshogi names the wrong side for fouls) can see it.
fn summary(doc: &mut Document, s: &str, l: &SourceLine<'_>) {
    doc.summary(s);
    if doc.tree.line().ending.is_some() {
        return;
    }
    if let Some(kind) = summary_ending(s) {
        let at = l.text.len() - s.len();
        doc.tree.set_ending(Ending {
            kind,
            text: s.to_string(),
            span: l.span_at(at),
            time: None,
            comments: Vec::new(),
        });
    }
}

/// The byte offset in `tok` of the character at byte `at` of its
/// [`compact`] form, so that an error points at the failing character of
/// the line as written (or just past the token's last one).
fn offset_in_token(tok: &str, at: usize) -> usize {
    let mut seen = 0;
    for (i, c) in tok.char_indices().filter(|&(_, c)| !is_space(c)) {
        if seen == at {
            return i;
        }
        seen += c.len_utf8();
    }
    tok.trim_end_matches(is_space).len()
}

fn move_line(
    doc: &mut Document,
    l: &SourceLine<'_>,
    compacted: &mut String,
) -> Result<(), ParseError> {
    let first = doc.bod.moves_played().unwrap_or(0).saturating_add(1);
    let mut cursor = l.cursor();
    for (at, tok) in tokens(l.text) {
        let span = cursor.span_at(at);
        let body = compact(tok, compacted);
        let parsed = token(body).map_err(|e| {
            let bad = at + offset_in_token(tok, body.len() - e.rest.len());
            token_error(cursor.span_at(bad), e, body, "a KI2 move such as ▲７六歩")
        })?;
        if doc.tree.line().ending.is_some() {
            return Err(ParseError::new(
                span,
                "a move after the line's terminal word (投了, 中断, …)",
            ));
        }
        match parsed {
            Token::Move(notation) => {
                let number = doc.tree.next_number(first);
                doc.tree.push_move(MoveEntry::new(notation, span), number);
            }
            Token::Ending(text, kind) => doc.tree.set_ending(Ending {
                kind,
                text,
                span,
                time: None,
                comments: Vec::new(),
            }),
        }
        doc.seen_move = true;
    }
    Ok(())
}

#[cfg(test)]
mod tests;
