//! What the KIF and KI2 move grammars share: the nom error type, which
//! keeps where a line stopped parsing and what was expected there, and the
//! piece names.

use crate::error::ParseError;
use crate::parse::SourceLine;
use crate::parse::ja::numeral::file_at;
use crate::rules::types::PieceKind;
use nom::error::{ContextError, ErrorKind, ParseError as NomParseError};

/// A KIF/KI2 piece name (`歩`, `成銀`, `竜`, …) as a nom parser.
#[inline]
pub(crate) fn piece_name(i: &str) -> Res<'_, PieceKind> {
    match piece_at(i.as_bytes()) {
        Some((k, used)) => Ok((&i[used..], k)),
        None => Err(nom::Err::Error(LineErr {
            rest: i,
            label: Some("a piece name"),
        })),
    }
}

/// A file digit, full-width (`７`) or ASCII (`7`), as
/// [`file_digit`](crate::parse::ja::numeral::file_digit) reads it; matched on
/// its bytes, as every move has two or three.
pub(crate) fn file(i: &str) -> Res<'_, u8> {
    match file_at(i.as_bytes()) {
        Some((digit, len)) => Ok((&i[len..], digit)),
        None => Err(nom::Err::Error(LineErr {
            rest: i,
            label: None,
        })),
    }
}

/// The UTF-8 bytes of a three-byte character as one number, so that a
/// character is compared with one `match` on its bytes instead of decoded.
pub(crate) const fn key(c: char) -> u32 {
    let c = c as u32;
    assert!(c >= 0x800 && c < 0x10000);
    ((0xE0 | (c >> 12)) << 16) | ((0x80 | ((c >> 6) & 0x3F)) << 8) | (0x80 | (c & 0x3F))
}

/// The first three bytes of `b` as [`key`] makes them, or 0 if `b` is
/// shorter. Every key starts with a lead byte, so a match also proves that
/// byte 3 is a character boundary.
#[inline]
pub(crate) fn key3(b: &[u8]) -> u32 {
    match b {
        &[x, y, z, ..] => u32::from_be_bytes([0, x, y, z]),
        _ => 0,
    }
}

/// The one table of KIF/KI2/BOD piece names: the kind named at the start of
/// `b` and its byte length. Every name is one or two three-byte characters,
/// matched on their bytes: every move line has one.
#[inline]
pub(crate) fn piece_at(b: &[u8]) -> Option<(PieceKind, usize)> {
    use PieceKind::*;
    const PAWN: u32 = key('歩');
    const LANCE: u32 = key('香');
    const KNIGHT: u32 = key('桂');
    const SILVER: u32 = key('銀');
    const GOLD: u32 = key('金');
    const BISHOP: u32 = key('角');
    const ROOK: u32 = key('飛');
    const GYOKU: u32 = key('玉');
    const OU: u32 = key('王');
    const TO: u32 = key('と');
    const KYO: u32 = key('杏');
    const KEI: u32 = key('圭');
    const ZEN: u32 = key('全');
    const UMA: u32 = key('馬');
    const RYU: u32 = key('龍');
    const RYU2: u32 = key('竜');
    const PROMOTED: u32 = key('成');
    let k = match key3(b) {
        PAWN => Pawn,
        LANCE => Lance,
        KNIGHT => Knight,
        SILVER => Silver,
        GOLD => Gold,
        BISHOP => Bishop,
        ROOK => Rook,
        GYOKU | OU => King,
        TO => ProPawn,
        KYO => ProLance,
        KEI => ProKnight,
        ZEN => ProSilver,
        UMA => Horse,
        RYU | RYU2 => Dragon,
        // 成 alone names nothing: 成香, 成桂, 成銀, 成角 only.
        PROMOTED => {
            let k = match key3(b.get(3..)?) {
                LANCE => ProLance,
                KNIGHT => ProKnight,
                SILVER => ProSilver,
                BISHOP => Horse,
                _ => return None,
            };
            return Some((k, 6));
        }
        _ => return None,
    };
    Some((k, 3))
}

/// 成 as `Some(true)`, 不成 or 生 as `Some(false)`, anything else as no
/// promotion word (`None`, nothing read): the words KIF and KI2 share.
#[inline]
pub(crate) fn promotion(i: &str) -> Res<'_, Option<bool>> {
    const PROMOTED: u32 = key('成');
    const NOT: u32 = key('不');
    const RAW: u32 = key('生');
    let b = i.as_bytes();
    match key3(b) {
        NOT if key3(&b[3..]) == PROMOTED => Ok((&i[6..], Some(false))),
        RAW => Ok((&i[3..], Some(false))),
        PROMOTED => Ok((&i[3..], Some(true))),
        _ => Ok((i, None)),
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

/// A failure that backtracking cannot undo, with what was expected at `rest`.
pub(crate) fn failure<'a>(rest: &'a str, expected: &'static str) -> nom::Err<LineErr<'a>> {
    nom::Err::Failure(LineErr {
        rest,
        label: Some(expected),
    })
}

/// An error an `alt` or `opt` around it may recover from.
pub(crate) fn error<'a>(rest: &'a str, expected: &'static str) -> nom::Err<LineErr<'a>> {
    nom::Err::Error(LineErr {
        rest,
        label: Some(expected),
    })
}

/// The outcome of a whole-input grammar, its error unwrapped. The grammars
/// use `complete` parsers only, which never ask for more input.
pub(crate) fn complete<'a, T>(r: Res<'a, T>) -> Result<T, LineErr<'a>> {
    match r {
        Ok((_, t)) => Ok(t),
        Err(nom::Err::Error(e) | nom::Err::Failure(e)) => Err(e),
        Err(nom::Err::Incomplete(_)) => Err(LineErr {
            rest: "",
            label: None,
        }),
    }
}

/// Turn a grammar failure on line `l` into an error pointing at the
/// failing character, naming what was expected there (`default` when the
/// grammar gave no label).
pub(crate) fn grammar_error(l: &SourceLine<'_>, e: LineErr<'_>, default: &str) -> ParseError {
    let at = l.text.len().saturating_sub(e.rest.len());
    let found: String = e.rest.chars().take(12).collect();
    let expected = e.label.unwrap_or(default);
    let message = if found.is_empty() {
        format!("expected {expected}, found the end of the line")
    } else {
        format!("expected {expected}, found {found:?}")
    };
    ParseError::new(l.span_at(at), message)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn piece_at_reads_every_name_the_writers_use_and_the_variants() {
        for k in PieceKind::ALL {
            let name = k.kif();
            assert_eq!(piece_at(name.as_bytes()), Some((k, name.len())), "{name}");
        }
        use PieceKind::*;
        for (text, read) in [
            ("成香(33)", Some((ProLance, 6))),
            ("竜", Some((Dragon, 3))),
            ("王", Some((King, 3))),
            ("杏", Some((ProLance, 3))),
            ("圭", Some((ProKnight, 3))),
            ("全", Some((ProSilver, 3))),
            ("成", None),
            ("成歩", None),
            ("仝", None),
        ] {
            assert_eq!(piece_at(text.as_bytes()), read, "{text}");
        }
    }
}
