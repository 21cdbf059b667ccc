//! The move text of KI2: a move line cut into tokens at each side mark,
//! and each token read as a move (`▲５二銀右上成`) or a terminal word.
//! The reading lines of GUI comments (`parse::eval`) are read with it too,
//! which is why it stands apart from the KI2 document reader.

use crate::parse::ja::ending_word::ending_kind;
use crate::parse::ja::expect::{self, LineErr, Res};
use crate::parse::ja::grammar::{Source, move_end, piece_name};
use crate::parse::ja::token::{
    self, MARKS, ORIGIN, is_space, same, side_mark, square, starts_move,
};
use crate::record::{Dest, EndingKind, Notation, Relative};
use crate::rules::types::Color;
use nom::Parser;
use nom::combinator::{cut, eof};
use nom::error::context;

/// What one token after its side mark says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Token {
    Move(Notation),
    /// A terminal word written as a pseudo-move (`△投了`, ShogiDB2).
    Ending(String, EndingKind),
}

/// The `(byte offset, text)` of each token of a move line: from each side
/// mark to the next. Text before the first mark is returned with offset 0
/// when it is not blank, so the caller can refuse it.
pub(super) fn tokens(line: &str) -> impl Iterator<Item = (usize, &str)> {
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
pub(super) fn compact<'t>(tok: &'t str, buf: &'t mut String) -> &'t str {
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
        if let Source::From(_) | Source::Drop { origin: true } = source {
            // The written origin decides; modifiers are then redundant.
            return Ok((i, source.kif_move(Some(color), dest, piece, promote)));
        }
        if let Source::Drop { .. } = source {
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
pub(super) fn token(i: &str) -> Result<Token, LineErr<'_>> {
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
pub(crate) fn reading_line(text: &str) -> Vec<Notation> {
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
