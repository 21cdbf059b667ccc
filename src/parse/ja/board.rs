//! Board diagrams (BOD): the hands, the nine rows, the turn and the
//! `手数＝N` footer, and the start position they and 手合割 give.

use crate::error::ParseError;
use crate::parse::SourceLine;
use crate::parse::ja::grammar::piece_at;
use crate::parse::ja::header::{HandicapName, side_prefix, trim_ja};
use crate::parse::ja::numeral::{file_digit, kanji_rank, numeral_prefix};
use crate::parse::ja::token::is_space;
use crate::record::{Location, StartPosition};
use crate::rules::setup::Setup;
use crate::rules::types::{Color, Hand, Piece, PieceKind, Square};

/// Read the items of a hand line (`飛二　角　歩十八`, `銀 桂四 `, `なし`, or
/// pieces with no separator at all).
pub fn parse_hand(text: &str) -> Result<Hand, String> {
    let t = trim_ja(text);
    let mut hand = Hand::EMPTY;
    if t.is_empty() || t == "なし" {
        return Ok(hand);
    }
    let mut rest = t;
    while !rest.is_empty() {
        rest = rest.trim_start_matches(is_space);
        if rest.is_empty() {
            break;
        }
        let (kind, used) = piece_at(rest.as_bytes())
            .ok_or_else(|| format!("expected a piece name in the hand, found {rest:?}"))?;
        if !PieceKind::HAND.contains(&kind) {
            return Err(format!("{} cannot be held in hand", kind.kif()));
        }
        rest = &rest[used..];
        let n = match numeral_prefix(rest) {
            Some((n, used)) => {
                rest = &rest[used..];
                n
            }
            None => 1,
        };
        let total = (hand.count(kind) as u32).saturating_add(n);
        if total > 18 {
            return Err(format!("{} pieces of {} in hand", total, kind.kif()));
        }
        hand.set(kind, total as u8);
    }
    Ok(hand)
}

/// A board diagram (BOD) collected line by line.
///
/// Feed every line to [`Bod::line`]; it says whether the line belonged to
/// the diagram. [`Bod::setup`] builds the position afterwards.
#[derive(Clone, Debug, Default)]
pub struct Bod {
    hands: [Option<Hand>; 2],
    rows: Vec<(u8, [Option<Piece>; 9])>,
    turn: Option<Color>,
    moves_played: Option<u32>,
    /// Where the diagram starts (its first line).
    pub span: Option<Location>,
}

impl Bod {
    /// Whether any part of a diagram has been seen.
    pub fn is_present(&self) -> bool {
        self.span.is_some()
    }

    /// Take `line` if it is part of a diagram: a hand line, a board row, the
    /// frame or column header, a turn line, or the `手数＝N` footer.
    /// Returns `Ok(false)` for lines that are not.
    pub fn line(&mut self, line: &SourceLine<'_>) -> Result<bool, ParseError> {
        let t = line.text;
        let err = |m: String| ParseError::new(line.span(), m);
        let hand = side_prefix(t).and_then(|(color, rest)| {
            let rest = rest.strip_prefix("の持駒")?.strip_prefix(['：', ':'])?;
            Some((color, rest))
        });
        if let Some((color, rest)) = hand {
            self.hands[color.index()] = Some(parse_hand(rest).map_err(err)?);
            self.mark(line);
            return Ok(true);
        }
        if t.starts_with('|') {
            let row = self.rows.len() as u8 + 1;
            let (rank, cells) = board_row(t, row).map_err(err)?;
            if self.rows.len() >= 9 {
                return Err(err("a board diagram has more than 9 rows".into()));
            }
            self.rows.push((rank, cells));
            self.mark(line);
            return Ok(true);
        }
        let trimmed = trim_ja(t);
        if let Some((color, "番")) = side_prefix(trimmed) {
            self.turn = Some(color);
            self.mark(line);
            return Ok(true);
        }
        if let Some(rest) = trimmed
            .strip_prefix("手数＝")
            .or(trimmed.strip_prefix("手数="))
        {
            if let Some((n, _)) = numeral_prefix(rest) {
                self.moves_played = Some(n);
            }
            self.mark(line);
            return Ok(true);
        }
        if is_frame(trimmed) || is_column_header(trimmed) {
            return Ok(true);
        }
        Ok(false)
    }

    /// The `手数＝N` footer's N (moves played before the diagram), if written.
    pub fn moves_played(&self) -> Option<u32> {
        self.moves_played
    }

    fn mark(&mut self, line: &SourceLine<'_>) {
        self.span.get_or_insert(line.span());
    }

    /// The position the diagram describes, starting from `base` for whatever
    /// it leaves out (a diagram with hands but no board keeps `base`'s board).
    /// `None` when no diagram was seen.
    pub fn setup(&self, base: &StartPosition) -> Result<Option<Setup>, ParseError> {
        let Some(span) = self.span else {
            return Ok(None);
        };
        let mut setup = if self.rows.is_empty() {
            // A KIF reader only ever passes a shogi start here.
            base.setup().unwrap_or(Setup::EMPTY)
        } else {
            if self.rows.len() != 9 {
                return Err(ParseError::new(
                    span,
                    format!("a board diagram needs 9 rows, found {}", self.rows.len()),
                )
                .of_kind(crate::error::ParseErrorKind::StartPosition));
            }
            let mut s = Setup::EMPTY;
            for (rank, cells) in &self.rows {
                for (i, cell) in cells.iter().enumerate() {
                    let sq = Square::new(9 - i as u8, *rank).expect("rank and file in 1..=9");
                    s.set(sq, *cell);
                }
            }
            // Without a turn line sente (下手) is to move (Kifu for iPhone).
            s.side_to_move = Color::Sente;
            s
        };
        for c in Color::ALL {
            if let Some(h) = self.hands[c.index()] {
                setup.hands[c.index()] = h;
            }
        }
        if let Some(t) = self.turn {
            setup.side_to_move = t;
        }
        if let Some(n) = self.moves_played {
            setup.move_number = n.saturating_add(1);
        }
        Ok(Some(setup))
    }
}

/// The start position of a Japanese record: the board diagram if there is
/// one (it wins over 手合割, as KfW writes the nearest name above a BOD),
/// else the 手合割 `(name, span of its line, value as written)`, else 平手.
/// Also returns where the start is written.
///
/// `その他`/`詰将棋` or an unknown name without a diagram is an error: the
/// position cannot be known, and guessing 平手 would replay a different game.
pub fn start_position(
    handicap: Option<(&HandicapName, Location, &str)>,
    bod: &Bod,
) -> Result<(StartPosition, Option<Location>), ParseError> {
    let (base, base_span) = match handicap {
        None => (StartPosition::default(), None),
        Some((name, span, value)) => match name {
            HandicapName::Preset(h) => (StartPosition::Preset(*h), Some(span)),
            HandicapName::Setup(s) => (StartPosition::Setup(s.clone()), Some(span)),
            HandicapName::Diagram | HandicapName::Unknown if bod.is_present() => {
                (StartPosition::default(), Some(span))
            }
            HandicapName::Diagram => {
                return Err(ParseError::new(
                    span,
                    format!("手合割：{value} needs a board diagram, and there is none"),
                )
                .of_kind(crate::error::ParseErrorKind::StartPosition));
            }
            HandicapName::Unknown => {
                return Err(ParseError::new(
                    span,
                    format!("unknown 手合割 {value:?} and no board diagram"),
                )
                .of_kind(crate::error::ParseErrorKind::StartPosition));
            }
        },
    };
    Ok(match bod.setup(&base)? {
        Some(setup) => (StartPosition::Setup(Box::new(setup)), bod.span),
        None => (base, base_span),
    })
}

fn is_frame(t: &str) -> bool {
    t.starts_with('+') && t.chars().all(|c| c == '+' || c == '-')
}

fn is_column_header(t: &str) -> bool {
    t.chars().all(|c| is_space(c) || file_digit(c).is_some())
        && t.chars().filter(|&c| file_digit(c).is_some()).count() == 9
}

/// One board row `|v香v桂 … |一`: the rank (from the trailing kanji, else
/// `row_number`) and the nine cells from file 9 to file 1.
fn board_row(text: &str, row_number: u8) -> Result<(u8, [Option<Piece>; 9]), String> {
    let mut chars = text.chars().peekable();
    chars.next(); // the leading '|'
    let mut cells = [None; 9];
    for cell in &mut cells {
        let mark = chars
            .next()
            .ok_or_else(|| "board row has fewer than 9 squares".to_string())?;
        let (color, piece_char) = match mark {
            'v' | 'V' => (Color::Gote, chars.next()),
            ' ' | '+' | '^' | '　' => (Color::Sente, chars.next()),
            // Some writers drop the owner mark before an empty square.
            '・' => (Color::Sente, Some('・')),
            other => return Err(format!("unexpected {other:?} in a board row")),
        };
        let c = piece_char.ok_or_else(|| "board row has fewer than 9 squares".to_string())?;
        if c == '・' {
            continue;
        }
        let mut buf = [0u8; 4];
        let (kind, _) = piece_at(c.encode_utf8(&mut buf).as_bytes())
            .ok_or_else(|| format!("unexpected {c:?} in a board row"))?;
        *cell = Some(Piece::new(color, kind));
    }
    if chars.next() != Some('|') {
        return Err("board row must end with '|' after 9 squares".into());
    }
    // The rank kanji is authoritative; a row without one (seen in
    // shogi-player's illegal_check.kif) takes its place in order.
    let rank = match chars.find(|&c| !is_space(c)) {
        Some(c) => kanji_rank(c).ok_or_else(|| format!("unexpected rank {c:?}"))?,
        None => row_number,
    };
    if !(1..=9).contains(&rank) {
        return Err("a board diagram has more than 9 rows".into());
    }
    Ok((rank, cells))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::lines;

    #[test]
    fn hands() {
        let h = parse_hand("飛二　角　金四　歩十八　").unwrap();
        assert_eq!(h.count(PieceKind::Rook), 2);
        assert_eq!(h.count(PieceKind::Bishop), 1);
        assert_eq!(h.count(PieceKind::Pawn), 18);
        let h = parse_hand("飛二 角 金四 銀 桂四 香四 歩十七 ").unwrap();
        assert_eq!(h.count(PieceKind::Lance), 4);
        assert_eq!(parse_hand("なし").unwrap(), Hand::EMPTY);
        assert_eq!(parse_hand("").unwrap(), Hand::EMPTY);
        assert_eq!(parse_hand("銀桂二").unwrap().count(PieceKind::Knight), 2);
        assert!(parse_hand("玉").is_err());
        assert!(parse_hand("歩十九").is_err());
        // Overflow is refused, never a panic.
        assert!(parse_hand("歩4294967295").is_err());
    }

    #[test]
    fn bod_with_footer_and_handicap_labels() {
        let text = "上手の持駒：銀四　桂四　\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n\
| ・ ・ ・ ・ ・ ・ ・v歩v玉|一\n| ・ ・ ・ ・ ・ ・ ・v歩 ・|二\n| ・ ・ ・ ・ ・ ・ ・v歩 ・|三\n\
| ・ ・ ・ ・ ・ ・ ・v歩 ・|四\n| ・ ・ ・ ・ ・ ・ ・v歩 ・|五\n| ・ ・ ・ ・ ・ ・ ・v歩 ・|六\n\
| ・ ・ ・ ・ ・ ・ ・v歩 ・|七\n| ・ ・ ・ ・ ・ ・ ・v歩 ・|八\n| 香 ・ ・ ・ ・ ・ ・v歩 ・|九\n\
+---------------------------+\n下手の持駒：飛二　香三　\n上手番\n手数＝12  ▲１三香  まで\n";
        let mut bod = Bod::default();
        for l in lines(text) {
            assert!(bod.line(&l).unwrap(), "{:?}", l.text);
        }
        let s = bod.setup(&StartPosition::default()).unwrap().unwrap();
        assert_eq!(s.side_to_move, Color::Gote);
        assert_eq!(s.move_number, 13);
        assert_eq!(s.hands[Color::Gote.index()].count(PieceKind::Silver), 4);
        assert_eq!(s.hands[Color::Sente.index()].count(PieceKind::Lance), 3);
        assert_eq!(
            s.get(Square::new(1, 1).unwrap()),
            Some(Piece::new(Color::Gote, PieceKind::King))
        );
        assert_eq!(
            s.get(Square::new(9, 9).unwrap()),
            Some(Piece::new(Color::Sente, PieceKind::Lance))
        );
    }

    #[test]
    fn bad_board_rows_are_errors() {
        let mut bod = Bod::default();
        let l = lines("| ・ ・ ・|一").next().unwrap();
        assert!(bod.line(&l).is_err());
        let l = lines("| ・ ・ ・ ・ ・ ・ ・ ・ 犬|一").next().unwrap();
        assert!(bod.line(&l).is_err());
    }
}
