//! The USI grammar on the other boards of the family, in Fairy-Stockfish's
//! conventions: the variant's SFEN (its board size and piece letters),
//! squares up to `12l`, micro shogi's `-`, chu shogi's double moves
//! (`7g6f5e`), and the `setoption name UCI_Variant value NAME` line a GUI
//! sends, which names the variant of the lines after it.

use super::{On, Tokens, read};
use crate::error::{ParseError, ParseErrorKind};
use crate::parse::SourceLine;
use crate::record::{Record, StartPosition};
use crate::variant::{Board, VMove, Variant};

/// Every game in `text` as `variant`'s (or the variant a `setoption …
/// UCI_Variant` line names for the lines after it), one per line, with
/// everything shogi's USI lines carry: a test name, every pseudo-move
/// ending.
///
/// ```
/// use kifu::parse::usi::parse_variant;
/// use kifu::variant::Variant;
///
/// let recs = parse_variant("position startpos moves 1e1d 5a5b resign\n", Variant::Mini)?;
/// assert_eq!(recs[0].main.moves.len(), 2);
/// assert_eq!(recs[0].main.ending.as_ref().unwrap().text, "resign");
/// # Ok::<(), kifu::ParseError>(())
/// ```
pub fn parse_variant(text: &str, variant: Variant) -> Result<Vec<Record>, ParseError> {
    read(text, On::Family(variant))
}

/// The variant a `setoption name UCI_Variant value NAME` line names;
/// `None` for any other line.
pub(super) fn setoption(line: &SourceLine<'_>) -> Result<Option<Variant>, ParseError> {
    let Some(name) = line
        .text
        .trim()
        .strip_prefix("setoption name UCI_Variant value ")
    else {
        return Ok(None);
    };
    let name = name.trim();
    Variant::from_name(name).map(Some).ok_or_else(|| {
        ParseError::new(
            line.span(),
            format!(
                "expected shoshogi, torishogi, minishogi, judkins, micro or chushogi, found UCI_Variant {name:?}"
            ),
        )
    })
}

/// `startpos` (the variant's own start) or the variant's SFEN, with or
/// without the word `sfen`, at token `i`; and the index of the token after.
pub(super) fn start_position(
    toks: &Tokens<'_, '_>,
    i: usize,
    variant: Variant,
) -> Result<(StartPosition, usize), ParseError> {
    if toks.text(i) == Some("startpos") {
        return Ok((StartPosition::Variant(Box::new(variant.start())), i + 1));
    }
    let i = i + usize::from(toks.text(i) == Some("sfen"));
    let (sfen, _, end) = toks.sfen_from(i);
    let board = Board::from_sfen(variant, &sfen).map_err(|e| {
        ParseError::new(toks.at(i), format!("expected a {variant} SFEN: {e}"))
            .of_kind(ParseErrorKind::StartPosition)
    })?;
    Ok((StartPosition::Variant(Box::new(board)), end))
}

/// Moves of `variant` to show in an error message.
pub(super) fn example(variant: Variant) -> &'static str {
    match variant {
        Variant::Mini => "5e4d, 1b1a+ or P*3c",
        Variant::Tori => "3d3c, 4c4b+ or S*4d",
        Variant::Judkins => "6e6d, 2f5c+ or P*3c",
        Variant::Micro => "2e3d, 3d3c+, 3d3c- or +P*2c",
        Variant::Chu => "7i7h, 7g6f5e or 7g7h7g",
        _ => "7g7f, 8h2b+ or P*5e",
    }
}

/// A USI move on `board` (only its size and piece letters matter): `7g7f`,
/// `8h2b+`, micro shogi's `3d3c-`, a drop `P*5e` (or `+P*5e`, a piece
/// dropped promoted), and chu shogi's double moves `7g6f5e`.
///
/// ```
/// use kifu::parse::usi::variant_move;
/// use kifu::variant::Variant;
///
/// let board = Variant::Chu.start();
/// let m = variant_move(&board, "7g6f5e").unwrap();
/// assert_eq!(board.usi(m), "7g6f5e");
/// assert!(variant_move(&board, "13a1a").is_none());
/// ```
pub fn variant_move(board: &Board, tok: &str) -> Option<VMove> {
    let b = tok.as_bytes();
    let (promoted, rest) = match b.strip_prefix(b"+") {
        Some(r) => (true, r),
        None => (false, b),
    };
    if rest.len() >= 2 && rest[1] == b'*' && rest[0].is_ascii_uppercase() {
        let id = board.piece_id(rest[0] as char, promoted)?;
        let (to, tail) = board.cell_at_name(&rest[2..])?;
        if board.def(id).royal || !tail.is_empty() {
            return None;
        }
        return Some(VMove::drop(id, to));
    }
    let (from, rest) = board.cell_at_name(b)?;
    let (second, mut rest) = board.cell_at_name(rest)?;
    let mut m = VMove::step(from, second);
    if let Some((to, tail)) = board.cell_at_name(rest) {
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
