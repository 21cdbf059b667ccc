//! The other games of the family out, in KIF and USI: the same layouts as
//! shogi's writers (`emit::kif`'s move lines and times, `emit::usi`'s
//! account of what a line cannot hold), with moves named on the variant's
//! board.

use crate::codes::WarningCode;
use crate::emit::Warning;
use crate::emit::kakinoki::{kif_word_keeps, legal_ending};
use crate::notation::{kanji_digit, zenkaku_digit};
use crate::record::{EndingKind, Notation};
use crate::rules::types::Color;
use crate::variant::{Board, VMove, Variant, VariantGame};

mod chu;
mod lines;
pub use chu::diagram as chu_diagram;

/// Kifu for Windows' layout of a numbered line, for the variations.
struct Kfw {
    timed: bool,
}

impl lines::Layout for Kfw {
    fn move_line(&self, s: &mut String, mv: &lines::Numbered<'_>) {
        let text = move_text(mv.board, mv.m, mv.last);
        let clock = self.timed.then_some((mv.time, 0));
        super::kif::move_line(s, mv.n, |o| o.push_str(&text), clock, mv.forks);
    }

    fn word_line(&self, s: &mut String, n: u32, word: &str, time: Option<crate::record::MoveTime>) {
        super::kif::move_line(
            s,
            n,
            |o| o.push_str(word),
            self.timed.then_some((time, 0)),
            false,
        );
    }
}

/// Whether kifu writes this variant in KIF. Micro shogi's turn on capture
/// (`+`/`-`) and its promoted drops have no KIF notation; chu shogi is
/// written in lishogi's KIF.
pub fn kif_writable(variant: Variant) -> bool {
    !matches!(variant, Variant::Micro)
}

/// The game as KIF (UTF-8 text; `--to kif` encodes it as Shift_JIS): the
/// header, 手合割, a `#SFEN:` line for another start, the moves with their
/// times, comments and bookmarks, then the foul or the ending, and the
/// `まで` line where the record had one, then the variations (`変化：N手`
/// blocks), their moves as far as they are legal.
///
/// ```
/// use kifu::parse::kif::parse_variant;
/// use kifu::variant::{Variant, replay};
///
/// let text = "手合割：5五将棋\n   1 １四飛(15)   ( 0:03/00:00:03)\n*a comment\n   2 投了\n";
/// let game = replay::replay(parse_variant(text, Variant::Mini)?.remove(0))?;
/// let (kif, warnings) = kifu::emit::variant::kif(&game);
/// assert!(kif.contains("   1 １四飛(15)   ( 0:03/00:00:03)\n*a comment\n   2 投了"));
/// assert!(warnings.is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn kif(game: &VariantGame) -> (String, Vec<Warning>) {
    if game.start.variant() == Variant::Chu {
        return chu::kif(game);
    }
    let record = &game.record;
    let start = &game.start;
    let v = start.variant();
    let mut warnings = Vec::new();
    let mut s = String::new();
    for h in &record.header {
        if h.key != "手合割" {
            s.push_str(&format!("{}：{}\n", h.key, h.value.trim()));
        }
    }
    s.push_str(&format!("手合割：{}\n", v.rules().kanji));
    if start.to_sfen() != v.start().to_sfen() {
        s.push_str(&format!("#SFEN:{}\n", start.to_sfen()));
    }
    s.push_str("手数----指手---------消費時間--\n");
    for c in &record.comments {
        s.push_str(&format!("*{c}\n"));
    }
    for b in &record.bookmarks {
        s.push_str(&format!("&{b}\n"));
    }
    let timed = record.main.moves.iter().any(|m| m.time.is_some());
    let mut totals = [0u64; 2];
    let mut board = start.clone();
    let mut last = None;
    for (i, p) in game.plies.iter().enumerate() {
        let entry = &record.main.moves[i];
        let mover = board.side().index();
        let clock = timed.then(|| (entry.time, totals[mover]));
        if let Some(t) = entry.time {
            totals[mover] = t
                .total_ms
                .unwrap_or(totals[mover] + t.spent_ms.unwrap_or(0));
        }
        let text = move_text(&board, p.mv, last);
        let forks = !record.main.variations_at(i).is_empty();
        super::kif::move_line(&mut s, i as u32 + 1, |o| o.push_str(&text), clock, forks);
        for c in entry.comments() {
            s.push_str(&format!("*{c}\n"));
        }
        for b in entry.bookmarks() {
            s.push_str(&format!("&{b}\n"));
        }
        last = Some(p.mv.to);
        board.play_unchecked(p.mv);
    }
    let mover = board.side().index();
    let forks = !record.main.ending_variations.is_empty();
    ending(game, &mut s, &mut warnings, |s, n, word, time| {
        let clock = timed.then_some((time, totals[mover]));
        super::kif::move_line(s, n, |o| o.push_str(word), clock, forks);
    });
    lines::variations(game, &Kfw { timed }, &mut s, &mut warnings);
    omitted_moves(game, &mut warnings);
    (s, warnings)
}

/// The terminal word of the game (the foul's, after its `*反則` comment
/// line, or the recorded ending's) and its `まで` line, written by `line`
/// with the ending's time; then the ending's comments, and the `まで` line
/// where the record had one.
pub(super) fn ending(
    game: &VariantGame,
    s: &mut String,
    warnings: &mut Vec<Warning>,
    line: impl FnOnce(&mut String, u32, &str, Option<crate::record::MoveTime>),
) {
    let n = game.plies.len() as u32 + 1;
    let mover = game.end.side();
    let source = game.record.main.ending.as_ref();
    let kind = if let Some(f) = &game.foul {
        let shown = f.usi.as_deref().unwrap_or("");
        s.push_str(&format!(
            "*反則 {shown} {} ({})\n",
            f.foul.code(),
            f.foul.kanji()
        ));
        // A repetition foul's move is the last ply: the side to move may be
        // the winner (the loser's own move completed the repetition).
        if game.foul_played() && f.loser != mover {
            EndingKind::FoulByPrevious
        } else {
            EndingKind::FoulByMover
        }
    } else if let Some(e) = source {
        if !kif_word_keeps(e.kind) {
            warnings.push(Warning {
                code: WarningCode::EndingChanged,
                message: format!("KIF has no word for {:?}: another is written", e.text),
            });
        }
        e.kind
    } else {
        return;
    };
    let (word, summary) = legal_ending(kind, n - 1, mover, Color::kanji);
    line(s, n, &word, source.and_then(|e| e.time));
    if game.foul.is_none()
        && let Some(e) = source
    {
        for c in &e.comments {
            s.push_str(&format!("*{c}\n"));
        }
    }
    if !game.record.summary.is_empty()
        && let Some(summary) = summary
    {
        s.push_str(&summary);
        s.push('\n');
    }
}

/// The warning for the main line's moves a KIF writer leaves out: those
/// after the foul (kept as its `*反則` line) or after the end of play. (A
/// USI line's losses are `emit::usi::losses`'.)
pub(super) fn omitted_moves(game: &VariantGame, warnings: &mut Vec<Warning>) {
    let unplayed = game.record.main.moves.len() - game.plies.len();
    let foul_move = usize::from(game.foul.is_some() && !game.foul_played());
    if unplayed > foul_move {
        warnings.push(Warning {
            code: WarningCode::MovesOmitted,
            message: format!(
                "{} move(s) after ply {} are not written",
                unplayed - foul_move,
                game.plies.len() + foul_move
            ),
        });
    }
}

/// A move in KIF (`５四銀(43)`, `同　燕打`), `last` the previous move's
/// destination, on `board` (the position before it).
pub fn move_text(board: &Board, m: VMove, last: Option<u8>) -> String {
    let mut s = String::new();
    if last == Some(m.to) {
        s.push_str("同　");
    } else {
        let (f, r) = board.file_rank(m.to);
        s.push(zenkaku_digit(f));
        s.push(kanji_digit(r));
    }
    let Some(from) = m.from else {
        s.push_str(board.def(m.drop).kif);
        s.push('打');
        return s;
    };
    let Some((color, id)) = board.at(from) else {
        // A played move always has its piece: this is for a caller's own.
        return s;
    };
    let d = board.def(id);
    s.push_str(d.kif);
    let may = d.promotes_to.is_some() && (board.in_zone(color, from) || board.in_zone(color, m.to));
    if m.promote {
        s.push('成');
    } else if may {
        s.push_str("不成");
    }
    let (f, r) = board.file_rank(from);
    s.push_str(&format!("({f}{r})"));
    s
}

/// The game as one `position sfen … moves …` line: the legal moves, then
/// the foul as written when there is one (so nothing is lost), and the
/// ending's pseudo-move where USI has one; with warnings for the rest.
///
/// ```
/// use kifu::parse::usi::parse_variant;
/// use kifu::variant::{Variant, replay};
///
/// let line = "position sfen rbsgk/4p/5/P4/KGSBR b - 1 moves 1e1d resign\n";
/// let game = replay::replay(parse_variant(line, Variant::Mini)?.remove(0))?;
/// assert_eq!(kifu::emit::variant::usi(&game).0, line);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn usi(game: &VariantGame) -> (String, Vec<Warning>) {
    let mut s = format!("position sfen {}", game.start.to_sfen());
    let moves: Vec<String> = moves_usi(game);
    if !moves.is_empty() {
        s.push_str(" moves");
        for m in &moves {
            s.push(' ');
            s.push_str(m);
        }
    }
    let word = game
        .record
        .main
        .ending
        .as_ref()
        .filter(|_| game.foul.is_none())
        .and_then(|e| usi_ending(e.kind));
    if let Some(word) = word {
        s.push(' ');
        s.push_str(word);
    }
    s.push('\n');
    (
        s,
        super::usi::losses(&game.record, moves.len(), word.is_some()),
    )
}

/// Every move of the record in USI: the legal ones, then the foul and any
/// moves written after it, as written (a KIF move that could not be placed
/// on the board has no USI form and is left out).
pub fn moves_usi(game: &VariantGame) -> Vec<String> {
    let mut board = game.start.clone();
    let mut out = Vec::with_capacity(game.record.main.moves.len());
    for p in &game.plies {
        out.push(board.usi(p.mv));
        board.play_unchecked(p.mv);
    }
    let foul_usi = game.foul.as_ref().and_then(|f| f.usi.clone());
    let rest = game
        .record
        .main
        .moves
        .iter()
        .enumerate()
        .skip(game.plies.len());
    for (i, e) in rest {
        match e.notation {
            Notation::VariantUsi(m) => out.push(board.usi(m)),
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
        EndingKind::Kachi => "win",
        _ => return None,
    })
}
