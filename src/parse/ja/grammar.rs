//! What the KIF and KI2 move grammars share besides their tokens
//! (`parse::ja::token`): the piece names, the promotion words, and how a
//! move ends.

use crate::parse::ja::expect::{Res, error, failure};
use crate::parse::ja::token::{Origin, drop_word, key, key3, origin};
use crate::record::{Dest, Notation};
use crate::rules::types::{Color, PieceKind, Square};

/// A KIF/KI2 piece name (`歩`, `成銀`, `竜`, …) as a nom parser.
#[inline(always)]
pub(crate) fn piece_name(i: &str) -> Res<'_, PieceKind> {
    match piece_at(i.as_bytes()) {
        Some((k, used)) => Ok((&i[used..], k)),
        None => Err(error(i, "a piece name")),
    }
}

/// The one table of KIF/KI2/BOD piece names: the kind named at the start of
/// `b` and its byte length. Every name is one or two three-byte characters,
/// matched on their bytes: every move line has one.
#[inline(always)]
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
#[inline(always)]
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

/// Where a move comes from, as written after its piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Source {
    /// Nothing: the position tells which piece moves.
    Unwritten,
    /// `(77)`.
    From(Square),
    /// A drop: `打`, `打(00)` or `(00)`; `origin` when `(00)` is written.
    Drop { origin: bool },
}

impl Source {
    /// The origin square, where one is written.
    #[inline]
    pub(crate) fn origin(self) -> Option<Square> {
        match self {
            Source::From(sq) => Some(sq),
            Source::Unwritten | Source::Drop { .. } => None,
        }
    }

    /// The KIF notation of a move that ends so: KIF lines, and KI2 moves
    /// whose origin is written.
    #[inline]
    pub(crate) fn kif_move(
        self,
        color: Option<Color>,
        dest: Dest,
        piece: PieceKind,
        promote: Option<bool>,
    ) -> Notation {
        Notation::Kif {
            color,
            dest,
            piece,
            promote,
            from: self.origin(),
            drop: matches!(self, Source::Drop { .. }),
        }
    }
}

/// How a move ends, after its piece (and KI2's relative words): a
/// [`promotion`] word, then `打` or an origin, each optional. `打` after a
/// promotion word is refused: a dropped piece neither promotes nor declines.
#[inline(always)]
pub(crate) fn move_end(i: &str) -> Res<'_, (Option<bool>, Source)> {
    let (i, promote) = promotion(i)?;
    match drop_word(i) {
        Ok(_) if promote.is_some() => {
            return Err(failure(i, "an origin such as (77) or the end of the move"));
        }
        Ok((rest, origin)) => return Ok((rest, (promote, Source::Drop { origin }))),
        Err(nom::Err::Error(_)) => {}
        Err(e) => return Err(e),
    }
    match origin(i) {
        Ok((rest, Origin::Square(sq))) => Ok((rest, (promote, Source::From(sq)))),
        Ok((rest, Origin::Drop)) => Ok((rest, (promote, Source::Drop { origin: true }))),
        Err(nom::Err::Error(_)) => Ok((i, (promote, Source::Unwritten))),
        Err(e) => Err(e),
    }
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

    #[test]
    fn move_end_reads_promotion_then_the_source() {
        let sq = |f, r| Square::new(f, r).unwrap();
        for (text, want) in [
            ("成(88)", (Some(true), Source::From(sq(8, 8)))),
            ("不成(88)", (Some(false), Source::From(sq(8, 8)))),
            ("(77)", (None, Source::From(sq(7, 7)))),
            ("打", (None, Source::Drop { origin: false })),
            ("打(00)", (None, Source::Drop { origin: true })),
            ("(00)", (None, Source::Drop { origin: true })),
            ("", (None, Source::Unwritten)),
        ] {
            assert_eq!(move_end(text), Ok(("", want)), "{text}");
        }
        assert_eq!(
            move_end("成 x"),
            Ok((" x", (Some(true), Source::Unwritten)))
        );
        for (text, label) in [
            ("成打", "an origin such as (77) or the end of the move"),
            ("打(77)", "(00) or nothing after 打"),
            ("(70)", "an origin such as (77), or (00) for a drop"),
        ] {
            match move_end(text) {
                Err(nom::Err::Failure(e)) => assert_eq!(e.label, Some(label), "{text}"),
                other => panic!("{text}: {other:?}"),
            }
        }
        assert!(matches!(
            Source::Drop { origin: true }.kif_move(None, Dest::Same, PieceKind::Pawn, None),
            Notation::Kif {
                from: None,
                drop: true,
                ..
            }
        ));
    }
}
