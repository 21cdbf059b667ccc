//! Pieces shared by the Japanese record formats (KIF and KI2): header lines,
//! 手合割 names, BOD board diagrams, numerals, terminal words and the other
//! line kinds (`*` comments, `&` bookmarks, `#` lines, `まで` summaries).

use crate::error::ParseError;
use crate::parse::SourceLine;
use crate::record::{Ending, EndingKind, Line, MoveEntry, Record, Span, StartPosition};
use crate::setup::{Handicap, Setup};
use crate::types::{Color, Hand, Piece, PieceKind, Square};
use nom::error::{ContextError, ErrorKind, ParseError as NomParseError};

/// A `key：value` header line split at its first colon (full- or half-width).
///
/// The key must be non-empty and hold no whitespace, so move lines (which
/// contain `:` in their times) and free text are not taken for headers. The
/// value is trimmed of half- and full-width spaces.
pub fn header_line(text: &str) -> Option<(&str, &str)> {
    // A byte scan, not `find([..])`: every unknown line comes here, and a
    // char-pattern search over a 50 MB line was most of a debug run's time.
    // `：` is EF BC 9A; 0xEF is never a continuation byte, so `pos` is a
    // char boundary.
    let b = text.as_bytes();
    let mut from = 0;
    let pos = loop {
        let i = from + b[from..].iter().position(|&c| c == b':' || c == 0xEF)?;
        if b[i] == b':' || b[i + 1..].starts_with(&[0xBC, 0x9A]) {
            break i;
        }
        from = i + 1;
    };
    let key = &text[..pos];
    if key.is_empty()
        || key.chars().any(|c| c.is_whitespace())
        || key.starts_with(['*', '&', '#', '|'])
    {
        return None;
    }
    let colon_len = if text[pos..].starts_with('：') { 3 } else { 1 };
    Some((key, trim_ja(&text[pos + colon_len..])))
}

/// `s` without leading or trailing half-width or full-width spaces.
pub fn trim_ja(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_whitespace())
}

/// What a 手合割 value names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HandicapName {
    /// One of the standard presets.
    Preset(Handicap),
    /// A traditional handicap that is not a preset (両香落ち, 裸玉, 歩三兵, トンボ).
    Setup(Box<Setup>),
    /// `その他`, `詰将棋` and similar: the board diagram gives the position.
    Diagram,
    /// A name kifu does not know.
    Unknown,
}

/// Read a 手合割 value. A trailing `#…` note (hand-written files put them
/// after values) is ignored when the whole value is not a known name.
pub fn handicap_name(value: &str) -> HandicapName {
    let v = trim_ja(value);
    let named = lookup_handicap(v);
    if named != HandicapName::Unknown {
        return named;
    }
    match v.split_once('#') {
        Some((before, _)) => lookup_handicap(trim_ja(before)),
        None => named,
    }
}

fn lookup_handicap(v: &str) -> HandicapName {
    if let Some(h) = Handicap::from_kif_name(v) {
        return HandicapName::Preset(h);
    }
    // Names outside the preset table; SFENs follow the usual definitions
    // (上手 = gote, who moves first).
    let sfen = match v {
        "七枚落ち" => return HandicapName::Preset(Handicap::RightSevenPieces),
        "両香落ち" => "1nsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "裸玉" => "4k4/9/9/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "歩三兵" => "4k4/9/9/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w 3p 1",
        "トンボ" => "4k4/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        "その他" | "詰将棋" | "双玉詰将棋" | "任意" | "" => {
            return HandicapName::Diagram;
        }
        _ => return HandicapName::Unknown,
    };
    match Setup::from_sfen(sfen) {
        Ok(s) => HandicapName::Setup(Box::new(s)),
        Err(_) => HandicapName::Unknown,
    }
}

/// The value of a kanji numeral at the start of `s` (`二`, `十`, `十八`, up to
/// 99) and the bytes read. Also reads ASCII and full-width digits.
pub fn numeral_prefix(s: &str) -> Option<(u32, usize)> {
    let mut value: Option<u32> = None;
    let mut tens: Option<u32> = None;
    let mut used = 0;
    for c in s.chars() {
        if c == '十' {
            if tens.is_some() {
                break;
            }
            tens = Some(value.take().unwrap_or(1));
        } else if let Some(d) = digit_value(c) {
            // A second plain digit continues a positional number (１８, 18).
            value = Some(match value {
                Some(v) if tens.is_none() && !is_kanji_digit(c) => {
                    v.checked_mul(10)?.checked_add(d)?
                }
                Some(_) => break,
                None => d,
            });
        } else {
            break;
        }
        used += c.len_utf8();
    }
    if used == 0 {
        return None;
    }
    let total = tens
        .unwrap_or(0)
        .saturating_mul(10)
        .saturating_add(value.unwrap_or(0));
    Some((total, used))
}

fn is_kanji_digit(c: char) -> bool {
    kanji_digit_value(c).is_some()
}

fn kanji_digit_value(c: char) -> Option<u32> {
    // A match, not a search of "〇一…九": every KIF destination rank comes here.
    Some(match c {
        '〇' => 0,
        '一' => 1,
        '二' => 2,
        '三' => 3,
        '四' => 4,
        '五' => 5,
        '六' => 6,
        '七' => 7,
        '八' => 8,
        '九' => 9,
        _ => return None,
    })
}

fn digit_value(c: char) -> Option<u32> {
    kanji_digit_value(c).or_else(|| zenkaku_value(c).map(u32::from))
}

/// The value of a kanji rank `一`…`九`.
pub fn kanji_rank(c: char) -> Option<u8> {
    match kanji_digit_value(c) {
        Some(v @ 1..=9) => Some(v as u8),
        _ => None,
    }
}

/// The value of a file digit: full-width `１`…`９`, or half-width `1`…`9`
/// (old exporters).
pub fn file_digit(c: char) -> Option<u8> {
    zenkaku_value(c).filter(|&v| v >= 1)
}

fn zenkaku_value(c: char) -> Option<u8> {
    match c {
        '０'..='９' => Some((c as u32 - '０' as u32) as u8),
        '0'..='9' => Some(c as u8 - b'0'),
        _ => None,
    }
}

/// The ending kind of a terminal word written in a KIF move line or a KI2
/// line, including the English words 81Dojo writes (`Time-up`, `Resign`, …).
pub fn ending_kind(word: &str) -> Option<EndingKind> {
    use EndingKind::*;
    Some(match word {
        "投了" => Resign,
        "中断" => Interrupt,
        "千日手" => Sennichite,
        "持将棋" => Jishogi,
        "切れ負け" | "時間切れ" => TimeUp,
        "反則勝ち" => FoulByPrevious,
        "反則負け" => FoulByMover,
        "詰み" | "詰" => Tsumi,
        "不詰" => Fuzumi,
        "入玉勝ち" | "入玉宣言" => Kachi,
        "封じ手" => Sealed,
        "不戦勝" => DefaultWin,
        "不戦敗" => DefaultLoss,
        "トライ" => Try,
        _ => return english_ending(word),
    })
}

fn english_ending(word: &str) -> Option<EndingKind> {
    use EndingKind::*;
    // 81Dojo's English client writes these; `Time-up` is in the corpus
    // (kif/mog-core-scala/game/002.kif), the others follow its spelling.
    Some(match word.to_ascii_lowercase().as_str() {
        "time-up" | "timeup" | "time up" => TimeUp,
        "resign" | "resigns" => Resign,
        "abort" | "interrupt" | "suspend" => Interrupt,
        "sennichite" | "repetition" => Sennichite,
        "jishogi" | "impasse" => Jishogi,
        "checkmate" | "mate" | "tsumi" => Tsumi,
        "illegal move" | "illegal-move" => FoulByMover,
        "declaration" | "entering king" => Kachi,
        _ => return None,
    })
}

/// A `まで…` summary line (leading spaces allowed), verbatim without them.
pub fn summary_line(text: &str) -> Option<&str> {
    let t = text.trim_start_matches(|c: char| c.is_whitespace());
    t.starts_with("まで").then_some(t)
}

/// The text of a `*` comment line (everything after the `*`, verbatim).
pub fn comment_line(text: &str) -> Option<&str> {
    text.strip_prefix('*')
}

/// The name of a `&` bookmark line.
pub fn bookmark_line(text: &str) -> Option<&str> {
    text.strip_prefix('&')
}

/// Whether the line is a `#` line (program comment or `#KIF` declaration).
pub fn is_hash_line(text: &str) -> bool {
    text.starts_with('#')
}

/// The N of a `変化：N手` line (spaces allowed around N, any trailing text).
pub fn variation_line(text: &str) -> Option<u32> {
    let t = trim_ja(text);
    let rest = t
        .strip_prefix("変化")?
        .trim_start_matches(|c: char| c.is_whitespace());
    let rest = rest.strip_prefix(['：', ':'])?;
    let rest = rest.trim_start_matches(|c: char| c.is_whitespace());
    let (n, used) = numeral_prefix(rest)?;
    rest[used..]
        .trim_start_matches(|c: char| c.is_whitespace())
        .starts_with('手')
        .then_some(n)
}

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
        rest = rest.trim_start_matches(|c: char| c.is_whitespace());
        if rest.is_empty() {
            break;
        }
        let (kind, used) = PieceKind::from_kif_prefix(rest)
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
    pub span: Option<Span>,
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
        let hand_of = [
            ("先手の持駒", Color::Sente),
            ("下手の持駒", Color::Sente),
            ("後手の持駒", Color::Gote),
            ("上手の持駒", Color::Gote),
        ];
        for (key, color) in hand_of {
            if let Some(rest) = t.strip_prefix(key) {
                let Some(rest) = rest.strip_prefix(['：', ':']) else {
                    continue;
                };
                let hand = parse_hand(rest).map_err(err)?;
                self.hands[color.index()] = Some(hand);
                self.mark(line);
                return Ok(true);
            }
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
        match trimmed {
            "先手番" | "下手番" => {
                self.turn = Some(Color::Sente);
                self.mark(line);
                return Ok(true);
            }
            "後手番" | "上手番" => {
                self.turn = Some(Color::Gote);
                self.mark(line);
                return Ok(true);
            }
            _ => {}
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
            base.setup()
        } else {
            if self.rows.len() != 9 {
                return Err(ParseError::new(
                    span,
                    format!("a board diagram needs 9 rows, found {}", self.rows.len()),
                ));
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
    handicap: Option<(&HandicapName, Span, &str)>,
    bod: &Bod,
) -> Result<(StartPosition, Option<Span>), ParseError> {
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
                ));
            }
            HandicapName::Unknown => {
                return Err(ParseError::new(
                    span,
                    format!("unknown 手合割 {value:?} and no board diagram"),
                ));
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
    t.chars()
        .all(|c| c.is_whitespace() || file_digit(c).is_some())
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
        let (kind, _) = PieceKind::from_kif_prefix(c.encode_utf8(&mut buf))
            .ok_or_else(|| format!("unexpected {c:?} in a board row"))?;
        *cell = Some(Piece::new(color, kind));
    }
    if chars.next() != Some('|') {
        return Err("board row must end with '|' after 9 squares".into());
    }
    // The rank kanji is authoritative; a row without one (seen in
    // shogi-player's illegal_check.kif) takes its place in order.
    let rank = match chars.find(|c| !c.is_whitespace()) {
        Some(c) => kanji_rank(c).ok_or_else(|| format!("unexpected rank {c:?}"))?,
        None => row_number,
    };
    if !(1..=9).contains(&rank) {
        return Err("a board diagram has more than 9 rows".into());
    }
    Ok((rank, cells))
}

/// Variations nested deeper than this are refused: the record tree is
/// dropped and compared recursively, so unbounded depth could overflow the
/// stack. Real files stay far below it.
pub const MAX_VARIATION_DEPTH: usize = 200;

/// A KIF/KI2 piece name (`歩`, `成銀`, `竜`, …) as a nom parser.
pub(crate) fn piece_name(i: &str) -> Res<'_, PieceKind> {
    match PieceKind::from_kif_prefix(i) {
        Some((k, used)) => Ok((&i[used..], k)),
        None => Err(nom::Err::Error(LineErr {
            rest: i,
            label: Some("a piece name"),
        })),
    }
}

/// Why a nom grammar failed: the input left where it failed and the label of
/// the innermost `context` around it.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct LineErr<'a> {
    pub rest: &'a str,
    pub label: Option<&'static str>,
}

impl<'a> NomParseError<&'a str> for LineErr<'a> {
    fn from_error_kind(rest: &'a str, _kind: ErrorKind) -> Self {
        LineErr { rest, label: None }
    }
    fn append(_: &'a str, _: ErrorKind, other: Self) -> Self {
        other
    }
}

impl<'a> ContextError<&'a str> for LineErr<'a> {
    fn add_context(_: &'a str, ctx: &'static str, mut other: Self) -> Self {
        // Keep the innermost label: it names what was expected at `rest`.
        other.label.get_or_insert(ctx);
        other
    }
}

/// The result type of the KIF and KI2 move grammars.
pub(crate) type Res<'a, T> = nom::IResult<&'a str, T, LineErr<'a>>;

/// Turn a grammar failure on `input` (which starts at byte `base` of `l`)
/// into an error pointing at the failing character.
pub(crate) fn grammar_error(
    l: &SourceLine<'_>,
    base: usize,
    input: &str,
    e: LineErr<'_>,
    default: &str,
) -> ParseError {
    let at = base + input.len().saturating_sub(e.rest.len());
    let found: String = e.rest.chars().take(12).collect();
    let expected = e.label.unwrap_or(default);
    let message = if found.is_empty() {
        format!("expected {expected}, found the end of the line")
    } else {
        format!("expected {expected}, found {found:?}")
    };
    ParseError::new(l.span_at(at), message)
}

/// Whether `text` has the shape of a KIF move line: optional spaces, ASCII
/// digits, then a space (so a year such as `2024/…` is not one).
pub(crate) fn looks_like_move_line(text: &str) -> bool {
    let is_space = |c: char| c == ' ' || c == '\t' || c == '　';
    let t = text.trim_start_matches(is_space);
    let digits = t.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && t[digits..].starts_with(is_space)
}

/// Where a comment or bookmark attaches.
#[derive(Clone, Copy, Debug)]
enum Target {
    Start,
    Move { line: usize, index: usize },
    Ending { line: usize },
}

/// One line of play in the arena: its moves, their numbers, and where it
/// branches off.
#[derive(Debug, Default)]
struct Node {
    line: Line,
    /// The move number of each move (written in KIF, counted in KI2).
    numbers: Vec<u32>,
    /// (parent line, index of the move this line replaces).
    parent: Option<(usize, usize)>,
    depth: usize,
}

/// The tree of lines of play of a KIF or KI2 record, built in a flat arena
/// and assembled at the end, so no recursion depends on the input. It also
/// knows where the next comment or bookmark attaches (`kif.md` §7, §9).
pub(crate) struct Tree {
    nodes: Vec<Node>,
    current: usize,
    target: Target,
}

impl Tree {
    pub(crate) fn new() -> Tree {
        Tree {
            nodes: vec![Node::default()],
            current: 0,
            target: Target::Start,
        }
    }

    /// The line of play being read.
    pub(crate) fn line(&self) -> &Line {
        &self.nodes[self.current].line
    }

    /// The number the next move of the current line has, when the file does
    /// not write it: one past the last move, or the number of the move a
    /// variation replaces, or `first` on an empty main line.
    pub(crate) fn next_number(&self, first: u32) -> u32 {
        let node = &self.nodes[self.current];
        if let Some(&n) = node.numbers.last() {
            return n.saturating_add(1);
        }
        match node.parent {
            // Past the parent's moves: the variation replaces its terminal
            // word, numbered one after its last move.
            Some((p, i)) => match self.nodes[p].numbers.get(i) {
                Some(&n) => n,
                None => self.nodes[p]
                    .numbers
                    .last()
                    .map_or(first, |&n| n.saturating_add(1)),
            },
            None => first,
        }
    }

    /// Room for `n` more moves on the current line: a game's moves are
    /// otherwise copied each time their vector doubles.
    pub(crate) fn reserve(&mut self, n: usize) {
        let node = &mut self.nodes[self.current];
        node.line.moves.reserve(n);
        node.numbers.reserve(n);
    }

    // Always inlined so the entry is written once, into the vector, rather
    // than copied into this call and again into the vector (it pays per
    // move; a plain #[inline] was not taken).
    #[inline(always)]
    pub(crate) fn push_move(&mut self, entry: MoveEntry, number: u32) {
        let node = &mut self.nodes[self.current];
        node.line.moves.push(entry);
        node.numbers.push(number);
        self.target = Target::Move {
            line: self.current,
            index: node.line.moves.len() - 1,
        };
    }

    pub(crate) fn set_ending(&mut self, ending: Ending) {
        self.nodes[self.current].line.ending = Some(ending);
        self.target = Target::Ending { line: self.current };
    }

    /// `変化：N手`: the next moves replace move N of the most recent line of
    /// play that has one — the current line first, then the lines it
    /// branched from (KfW writes blocks depth-first, so this finds it).
    pub(crate) fn start_variation(&mut self, n: u32, span: Span) -> Result<(), ParseError> {
        let mut at = Some(self.current);
        while let Some(idx) = at {
            let node = &self.nodes[idx];
            // A variation that itself starts at or after move N cannot hold
            // the branch point: the new block is its sibling or an uncle.
            let starts_after =
                node.parent.is_some() && node.numbers.first().is_some_and(|&f| f >= n);
            let found = if starts_after {
                None
            } else {
                find_move(&node.numbers, n).or_else(|| self.terminal_at(idx, n))
            };
            if let Some(index) = found {
                let depth = self.nodes[idx].depth + 1;
                if depth > MAX_VARIATION_DEPTH {
                    return Err(ParseError::new(
                        span,
                        format!("variations nested deeper than {MAX_VARIATION_DEPTH}"),
                    ));
                }
                self.nodes.push(Node {
                    line: Line::default(),
                    numbers: Vec::new(),
                    parent: Some((idx, index)),
                    depth,
                });
                self.current = self.nodes.len() - 1;
                self.target = self.before(idx, index);
                return Ok(());
            }
            at = self.nodes[idx].parent.map(|(p, _)| p);
        }
        Err(ParseError::new(
            span,
            format!("変化：{n}手 has no move {n} to branch from in the lines read so far"),
        ))
    }

    /// The index past the last move of line `idx` when its terminal word
    /// (投了, 中断, …) is move `n`: a variation there replaces the ending
    /// (Gekisashi, tsshogi). A variation holding only a terminal word has
    /// no terminal of its own to branch from: its number is its parent's.
    fn terminal_at(&self, idx: usize, n: u32) -> Option<usize> {
        let node = &self.nodes[idx];
        node.line.ending.as_ref()?;
        let number = match node.numbers.last() {
            Some(&last) => last.saturating_add(1),
            None if node.parent.is_none() => 1,
            None => return None,
        };
        (number == n).then_some(node.line.moves.len())
    }

    /// The node a comment written right after `変化：N手` describes: the
    /// position before the replaced move.
    fn before(&self, mut line: usize, mut index: usize) -> Target {
        loop {
            if index > 0 {
                return Target::Move {
                    line,
                    index: index - 1,
                };
            }
            match self.nodes[line].parent {
                Some((p, i)) => {
                    line = p;
                    index = i;
                }
                None => return Target::Start,
            }
        }
    }

    /// Attach a `*` comment to the last thing read (the start position's
    /// comments live in `record`).
    /// A move's first comment in the floodgate form (`** 30 -3334FU`, as
    /// ShogiHome and tsshogi write a CSA `'**` line) is its evaluation.
    pub(crate) fn comment(&mut self, c: String, record: &mut Record) {
        match self.target {
            Target::Start => record.comments.push(c),
            Target::Move { line, index } => {
                let extra = self.nodes[line].line.moves[index].extra_mut();
                match super::eval::floodgate_comment(&c).filter(|_| extra.eval.is_none()) {
                    Some(e) => extra.eval = Some(e),
                    None => extra.comments.push(c),
                }
            }
            Target::Ending { line } => {
                if let Some(e) = &mut self.nodes[line].line.ending {
                    e.comments.push(c);
                }
            }
        }
    }

    /// Attach a `&` bookmark to the last move read, or to the start position.
    pub(crate) fn bookmark(&mut self, name: &str, raw: &str, record: &mut Record) {
        match self.target {
            Target::Move { line, index } => self.nodes[line].line.moves[index]
                .extra_mut()
                .bookmarks
                .push(name.to_string()),
            Target::Start => record.bookmarks.push(name.to_string()),
            // The record has no bookmark slot for an ending: keep the line verbatim.
            Target::Ending { .. } => record.notes.push(raw.to_string()),
        }
    }

    /// Build the tree: children always come after their parent in the
    /// arena, so walking it backwards attaches every line after its own
    /// children are in.
    pub(crate) fn finish(self) -> Line {
        let mut slots: Vec<Option<Node>> = self.nodes.into_iter().map(Some).collect();
        for i in (1..slots.len()).rev() {
            let Some(mut node) = slots[i].take() else {
                continue;
            };
            // Every child of this node has a higher index, so all of them are
            // attached by now, pushed in reverse file order.
            reverse_variations(&mut node.line);
            let Some((p, index)) = node.parent else {
                continue;
            };
            if node.line.moves.is_empty() && node.line.ending.is_none() {
                continue;
            }
            if let Some(parent) = slots[p].as_mut() {
                // Pushing (not inserting at the front) keeps 100,000 sibling
                // variations linear; the order is restored by the reverse above.
                match parent.line.moves.get_mut(index) {
                    Some(m) => m.extra_mut().variations.push(node.line),
                    None => parent.line.ending_variations.push(node.line),
                }
            }
        }
        let mut main = slots[0].take().map(|n| n.line).unwrap_or_default();
        reverse_variations(&mut main);
        main
    }
}

/// Undo the reverse order in which [`Tree::finish`] attaches variations.
fn reverse_variations(line: &mut Line) {
    line.ending_variations.reverse();
    for m in &mut line.moves {
        if !m.variations().is_empty() {
            m.extra_mut().variations.reverse();
        }
    }
}

/// The index of the move numbered `n`. Numbers usually run on from the
/// first move, so that slot is tried before a scan.
fn find_move(numbers: &[u32], n: u32) -> Option<usize> {
    let first = *numbers.first()?;
    if let Some(g) = n.checked_sub(first).map(|d| d as usize)
        && numbers.get(g) == Some(&n)
    {
        return Some(g);
    }
    numbers.iter().position(|&m| m == n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::lines;

    #[test]
    fn headers_split_at_either_colon() {
        assert_eq!(header_line("先手：羽生善治　"), Some(("先手", "羽生善治")));
        assert_eq!(header_line("棋戦:NHK杯"), Some(("棋戦", "NHK杯")));
        assert_eq!(
            header_line("場所：81Dojo (ver.2016/03/20)").unwrap().1,
            "81Dojo (ver.2016/03/20)"
        );
        assert_eq!(header_line("   1 ７六歩(77) ( 0:01/00:00:01)"), None);
        assert_eq!(header_line("*コメント：です"), None);
    }

    #[test]
    fn handicap_names() {
        assert_eq!(
            handicap_name("平手　　"),
            HandicapName::Preset(Handicap::Hirate)
        );
        assert_eq!(
            handicap_name("平手#コメント2"),
            HandicapName::Preset(Handicap::Hirate)
        );
        for h in Handicap::ALL {
            assert_eq!(handicap_name(h.kif_name()), HandicapName::Preset(h));
        }
        assert_eq!(handicap_name("その他　"), HandicapName::Diagram);
        assert_eq!(handicap_name("詰将棋"), HandicapName::Diagram);
        assert!(matches!(handicap_name("両香落ち"), HandicapName::Setup(_)));
        assert!(matches!(handicap_name("歩三兵"), HandicapName::Setup(_)));
        assert_eq!(handicap_name("九枚落ち"), HandicapName::Unknown);
    }

    #[test]
    fn numerals() {
        assert_eq!(numeral_prefix("十八　"), Some((18, 6)));
        assert_eq!(numeral_prefix("二"), Some((2, 3)));
        assert_eq!(numeral_prefix("十"), Some((10, 3)));
        assert_eq!(numeral_prefix("二十"), Some((20, 6)));
        assert_eq!(numeral_prefix("18手"), Some((18, 2)));
        assert_eq!(numeral_prefix("１２"), Some((12, 6)));
        assert_eq!(numeral_prefix("歩"), None);
        // Overflow is refused, never a panic.
        assert_eq!(numeral_prefix("4294967299"), None);
        assert!(numeral_prefix("4294967295十九").is_some());
        assert!(parse_hand("歩4294967295").is_err());
        assert_eq!(kanji_rank('九'), Some(9));
        assert_eq!(file_digit('７'), Some(7));
        assert_eq!(file_digit('7'), Some(7));
    }

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
    }

    #[test]
    fn words() {
        assert_eq!(ending_kind("投了"), Some(EndingKind::Resign));
        assert_eq!(ending_kind("Time-up"), Some(EndingKind::TimeUp));
        assert_eq!(ending_kind("反則勝ち"), Some(EndingKind::FoulByPrevious));
        assert_eq!(ending_kind("７六歩"), None);
        assert_eq!(variation_line("変化：12手"), Some(12));
        assert_eq!(variation_line("変化：   3手"), Some(3));
        assert_eq!(variation_line("変化:1手#note"), Some(1));
        assert_eq!(
            summary_line("　まで64手で先手の勝ち"),
            Some("まで64手で先手の勝ち")
        );
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
