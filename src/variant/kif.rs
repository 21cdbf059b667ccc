//! Variant records in KIF: `手合割：5五将棋` (as lishogi writes minishogi),
//! `小将棋` or `禽将棋`, then ordinary KIF move lines whose pieces carry the
//! variant's names (酔象/太子 in sho shogi, the birds in tori shogi).
//!
//! A start other than the variant's own is kept in a `#SFEN:` line, which
//! kifu writes and reads back; a board diagram is refused with a message.

use super::replay::{VEnding, VNotation, VariantGame, VariantRecord};
use super::{Board, Variant};
use crate::error::ParseError;
use crate::parse::lines;
use crate::record::EndingKind;
use crate::rules::types::Color;

const DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
const RANKS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];
const ENDINGS: [(&str, EndingKind); 8] = [
    ("投了", EndingKind::Resign),
    ("中断", EndingKind::Interrupt),
    ("千日手", EndingKind::Sennichite),
    ("詰み", EndingKind::Tsumi),
    ("切れ負け", EndingKind::TimeUp),
    ("反則負け", EndingKind::FoulByMover),
    ("反則勝ち", EndingKind::FoulByPrevious),
    ("持将棋", EndingKind::Jishogi),
];

fn header(line: &str) -> Option<(&str, &str)> {
    let (k, v) = line.split_once('：')?;
    (!k.trim().is_empty() && !k.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .then(|| (k.trim(), v.trim()))
}

/// Whether kifu reads and writes this variant in KIF. Micro shogi's turn on
/// capture (`+`/`-`) and its promoted drops have no KIF notation; chu
/// shogi's lishogi KIF (12 ranks, two-line lion moves) is not written yet.
pub fn writable(variant: Variant) -> bool {
    !matches!(variant, Variant::Micro | Variant::Chu)
}

/// The variant a KIF text's `手合割` names, if it names one of the family.
pub fn sniff(text: &str) -> Option<Variant> {
    lines(text)
        .take(40)
        .filter_map(|l| header(l.text))
        .find(|(k, _)| *k == "手合割")
        .and_then(|(_, v)| Variant::from_kanji(v))
}

/// Alternative names KIF writers use.
fn alias(name: &str) -> &str {
    match name {
        "王" => "玉",
        "竜" => "龍",
        "全" => "成銀",
        "圭" => "成桂",
        "杏" => "成香",
        "象" => "酔象",
        "太" => "太子",
        other => other,
    }
}

/// Read a KIF move (`５四銀(43)`, `同　角成(15)`, `３三燕打`) on `board`'s variant.
fn parse_move(board: &Board, text: &str, last: bool) -> Option<VNotation> {
    let mut rest = text;
    let to = if let Some(r) = rest.strip_prefix('同') {
        rest = r.trim_start_matches(['　', ' ']);
        if !last {
            return None;
        }
        None
    } else {
        let mut cs = rest.chars();
        let f = cs.next()?;
        let r = cs.next()?;
        let file = DIGITS
            .iter()
            .position(|&d| d == f)
            .or_else(|| f.to_digit(10).map(|d| d as usize - 1))?;
        let rank = RANKS.iter().position(|&d| d == r)?;
        rest = cs.as_str();
        Some(board.cell_of(file as u8 + 1, rank as u8 + 1)?)
    };
    let pieces = board.rules().pieces;
    let (id, len) = pieces
        .iter()
        .enumerate()
        .filter(|(i, _)| !board.rules().unused.contains(&(*i as u8)))
        .filter_map(|(i, d)| {
            [d.kif, d.kif.strip_prefix(['左', '右']).unwrap_or("")]
                .into_iter()
                .chain(
                    ["王", "竜", "全", "圭", "杏", "象", "太"]
                        .into_iter()
                        .filter(|a| alias(a) == d.kif),
                )
                .filter(|n| !n.is_empty() && rest.starts_with(n))
                .map(|n| (i, n.len()))
                .max_by_key(|&(_, l)| l)
        })
        .max_by_key(|&(_, l)| l)?;
    rest = &rest[len..];
    let mut promote = None;
    for (word, p) in [
        ("不成", Some(false)),
        ("生", Some(false)),
        ("成", Some(true)),
    ] {
        if let Some(r) = rest.strip_prefix(word) {
            promote = p;
            rest = r;
            break;
        }
    }
    let drop = rest.starts_with('打');
    rest = rest.trim_start_matches('打');
    let from = match rest.strip_prefix('(').and_then(|r| r.split_once(')')) {
        Some((sq, _)) if !drop => {
            let b = sq.as_bytes();
            if b.len() != 2 {
                return None;
            }
            Some(board.cell_of(b[0].checked_sub(b'0')?, b[1].checked_sub(b'0')?)?)
        }
        _ => None,
    };
    Some(VNotation::Kif {
        to,
        piece: id as u8,
        promote,
        from,
    })
}

/// Parse a variant KIF text (one game).
pub fn parse(text: &str, variant: Variant) -> Result<Vec<VariantRecord>, ParseError> {
    let mut rec = VariantRecord {
        index: 0,
        header: Vec::new(),
        start: variant.start(),
        moves: Vec::new(),
        ending: None,
    };
    for line in lines(text) {
        let t = line.text.trim_start_matches('\u{feff}').trim_end();
        let trimmed = t.trim_start();
        if let Some(sfen) = trimmed.strip_prefix("#SFEN:") {
            rec.start = Board::from_sfen(variant, sfen.trim()).map_err(|e| {
                ParseError::new(line.span(), format!("expected a {variant} SFEN: {e}"))
            })?;
            continue;
        }
        if trimmed.is_empty()
            || trimmed.starts_with(['#', '*', '&'])
            || trimmed.starts_with("手数")
            || trimmed.starts_with("まで")
        {
            continue;
        }
        if trimmed.starts_with(['|', '+'])
            || trimmed.starts_with("  ９")
            || trimmed.contains("持駒")
        {
            return Err(ParseError::new(
                line.span(),
                "a board diagram in a variant KIF is not read: give the start as `#SFEN: <sfen>` or use USI",
            ));
        }
        if rec.moves.is_empty()
            && rec.ending.is_none()
            && let Some((k, v)) = header(trimmed)
        {
            rec.header.push((k.to_string(), v.to_string()));
            continue;
        }
        let offset = t.len() - trimmed.len();
        let Some((num, body)) = trimmed.split_once([' ', '　']) else {
            return Err(ParseError::new(
                line.span_at(offset),
                "expected a header `key：value` or a move line `N move`",
            ));
        };
        if num.parse::<u32>().is_err() {
            return Err(ParseError::new(
                line.span_at(offset),
                format!("expected a move number, found {num:?}"),
            ));
        }
        let body_off = offset + num.len() + (trimmed.len() - num.len() - body.trim_start().len());
        let body = body.trim_start();
        let span = line.span_at(body_off);
        let word = body.split([' ', '　', '(']).next().unwrap_or("");
        if let Some(&(_, kind)) = ENDINGS.iter().find(|(w, _)| *w == word) {
            rec.ending = Some(VEnding {
                kind,
                text: word.to_string(),
                span,
            });
            break;
        }
        let m = parse_move(&rec.start, body, !rec.moves.is_empty()).ok_or_else(|| {
            ParseError::new(span, format!("expected a {variant} KIF move such as ５四銀(43) or 同　角成(15), found {body:?}"))
        })?;
        rec.moves.push((m, span));
    }
    Ok(vec![rec])
}

/// The game as KIF (UTF-8 text; `--to kif` encodes it as Shift_JIS).
pub fn write(game: &VariantGame) -> String {
    let start = &game.record.start;
    let v = start.variant();
    let mut s = String::new();
    for (k, val) in &game.record.header {
        if k != "variant" && k != "手合割" {
            s.push_str(&format!("{k}：{val}\n"));
        }
    }
    s.push_str(&format!("手合割：{}\n", v.rules().kanji));
    if start.to_sfen() != v.start().to_sfen() {
        s.push_str(&format!("#SFEN:{}\n", start.to_sfen()));
    }
    s.push_str("手数----指手---------消費時間--\n");
    let mut board = start.clone();
    let mut last = None;
    for (i, p) in game.plies.iter().enumerate() {
        s.push_str(&format!("{:>4} {}\n", i + 1, move_text(&board, p.mv, last)));
        last = Some(p.mv.to);
        board.play_unchecked(p.mv);
    }
    let n = game.plies.len() + 1;
    if let Some(f) = &game.foul {
        let shown = f.usi.as_deref().unwrap_or("");
        s.push_str(&format!(
            "*反則 {shown} {} ({})\n",
            f.foul.code(),
            f.foul.kanji()
        ));
        // A repetition foul's move is the last ply: the side to move may be
        // the winner (the loser's own move completed the repetition).
        let word = if game.foul_played() && f.loser != game.end.side() {
            "反則勝ち"
        } else {
            "反則負け"
        };
        s.push_str(&format!("{n:>4} {word}\n"));
    } else if let Some(e) = &game.record.ending {
        let word = ENDINGS
            .iter()
            .find(|(_, k)| *k == e.kind)
            .map_or("中断", |(w, _)| w);
        s.push_str(&format!("{n:>4} {word}\n"));
    }
    s
}

/// A move in KIF (`５四銀(43)`, `同　燕打`), `last` the previous move's
/// destination. The origin of a board move must hold a piece.
pub fn move_text(board: &Board, m: super::VMove, last: Option<u8>) -> String {
    let mut s = String::new();
    if last == Some(m.to) {
        s.push_str("同　");
    } else {
        let (f, r) = board.file_rank(m.to);
        s.push(DIGITS[f as usize - 1]);
        s.push(RANKS[r as usize - 1]);
    }
    let Some(from) = m.from else {
        s.push_str(board.def(m.drop).kif);
        s.push('打');
        return s;
    };
    let (color, id): (Color, u8) = board.at(from).expect("a played move has a piece");
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
