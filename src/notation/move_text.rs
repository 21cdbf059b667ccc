//! Move text for people: the KIF/KI2-style move (`▲７六歩`, `△同　銀成`) used
//! in messages and by the Japanese writers.

use super::pieces::{kanji_digit, zenkaku_digit};
use crate::record::Notation;
use crate::rules::types::{Color, Move, PieceKind, Square};

/// The destination as KIF writes it: `７六`.
pub fn ja_square(sq: Square) -> String {
    let mut s = String::with_capacity(6);
    s.push(zenkaku_digit(sq.file()));
    s.push(kanji_digit(sq.rank()));
    s
}

/// A move as `▲７六歩`, `△同　銀成` or `▲５五角打` (the 打 always written).
pub fn ja_move(color: Color, mv: Move, piece: PieceKind, same: bool) -> String {
    let mut s = String::with_capacity(24);
    s.push(color.mark());
    if same {
        s.push_str("同　");
    } else {
        s.push_str(&ja_square(mv.to()));
    }
    s.push_str(piece.kif());
    match mv {
        Move::Drop { .. } => s.push('打'),
        Move::Normal { promote: true, .. } => s.push('成'),
        Move::Normal { .. } => {}
    }
    s
}

/// A move as a KIF move line writes it: `７六歩(77)`, `同　銀成(31)`, `５五角打`.
pub fn kif_move(mv: Move, piece: PieceKind, same: bool) -> String {
    let mut s = String::with_capacity(24);
    push_kif_move(&mut s, mv, piece, same);
    s
}

/// [`kif_move`] appended to `s`: the JSON writer reuses one buffer a line.
pub(crate) fn push_kif_move(s: &mut String, mv: Move, piece: PieceKind, same: bool) {
    if same {
        s.push_str("同　");
    } else {
        push_ja_square(s, mv.to());
    }
    s.push_str(piece.kif());
    match mv {
        Move::Drop { .. } => s.push('打'),
        Move::Normal { from, promote, .. } => {
            if promote {
                s.push('成');
            }
            push_origin(s, from);
        }
    }
}

/// [`ja_square`] appended to `s`, with no `String` of its own.
fn push_ja_square(s: &mut String, sq: Square) {
    s.push(zenkaku_digit(sq.file()));
    s.push(kanji_digit(sq.rank()));
}

/// The legacy origin `(77)`; files and ranks are single digits.
fn push_origin(s: &mut String, from: Square) {
    s.push('(');
    s.push((b'0' + from.file()) as char);
    s.push((b'0' + from.rank()) as char);
    s.push(')');
}

/// A move as CSA writes it: `+7776FU`, `-0055KA`, `+8822UM` (the piece after the move).
pub fn csa_move(color: Color, mv: Move, piece: PieceKind) -> String {
    let mut s = String::with_capacity(7);
    push_csa_move(&mut s, color, mv, piece);
    s
}

/// [`csa_move`] appended to `s`: the JSON writer reuses one buffer a line.
pub(crate) fn push_csa_move(s: &mut String, color: Color, mv: Move, piece: PieceKind) {
    s.push(color.csa_sign());
    match mv {
        Move::Drop { .. } => s.push_str("00"),
        Move::Normal { from, .. } => {
            s.push((b'0' + from.file()) as char);
            s.push((b'0' + from.rank()) as char);
        }
    }
    s.push((b'0' + mv.to().file()) as char);
    s.push((b'0' + mv.to().rank()) as char);
    let after = if mv.is_promotion() {
        piece.promoted().unwrap_or(piece)
    } else {
        piece
    };
    s.push_str(after.csa());
}

/// A move as KI2 writes it, with the shortest JSA disambiguation: `▲７六歩`,
/// `△同　銀`, `▲５二銀右上成`, `▲５五角打` (打 only where a board piece
/// could also go there), `不成` where promotion was possible and declined.
/// `pos` is the position before the move.
///
/// An illegal move (a foul a writer keeps) is still written so that a reader
/// finds it: a drop of a piece not in hand gets `打`, and a board move no
/// piece of that kind could make gets the legacy origin `(77)` (`ki2.md` §2).
pub fn ki2_move(
    pos: &crate::Position,
    color: Color,
    mv: Move,
    piece: PieceKind,
    same: bool,
) -> String {
    let mut s = String::with_capacity(24);
    push_ki2_move(&mut s, pos, color, mv, piece, same);
    s
}

/// [`ki2_move`] appended to `s`: the JSON writer reuses one buffer a line.
pub(crate) fn push_ki2_move(
    s: &mut String,
    pos: &crate::Position,
    color: Color,
    mv: Move,
    piece: PieceKind,
    same: bool,
) {
    // `relative_for` picks the side as `rival_side` does; `color` is the
    // mover, so the two bitboards are one whenever they agree (always, but
    // for a foul played out of turn).
    let rival_side = match mv {
        Move::Drop { .. } => pos.side_to_move(),
        Move::Normal { from, .. } => pos.piece_at(from).map_or(pos.side_to_move(), |p| p.color),
    };
    let movers = crate::resolve::candidates_bb(pos, color, piece, mv.to());
    let rivals = if rival_side == color {
        movers
    } else {
        crate::resolve::candidates_bb(pos, rival_side, piece, mv.to())
    };
    // Most moves have no rival piece: then the answer is known without
    // `relative_for`, which collects the rivals into a `Vec`. For a drop any
    // candidate is a rival; for a board move, any but the mover.
    let mover_bb = match mv {
        Move::Drop { .. } => 0,
        Move::Normal { from, .. } => crate::rules::attacks::bb(from.index()),
    };
    let mut rel = if rivals & !mover_bb != 0 {
        crate::relative::relative_for(pos, mv, piece)
    } else {
        crate::record::Relative::NONE
    };
    let mut origin = None;
    let mut promotion = "";
    match mv {
        Move::Drop { kind, .. } => {
            // Without 打 a reader looks for the piece in hand or on the board.
            if rel == crate::record::Relative::NONE && pos.hand(color).count(kind) == 0 {
                rel |= crate::record::Relative::DROP;
            }
        }
        Move::Normal { from, to, promote } => {
            // Is `from` among `crate::resolve::candidates` for the mover?
            if movers & mover_bb == 0 {
                origin = Some(from);
            }
            if promote {
                promotion = "成";
            } else if piece.can_promote() && (from.in_zone(color) || to.in_zone(color)) {
                promotion = "不成";
            }
        }
    }
    s.push(color.mark());
    if same {
        // Kifu for Windows keeps the full-width space only before a bare one-character piece.
        s.push('同');
        // Nothing follows the piece when none of the seven words `push_relative` knows is set.
        let bare = rel.0 & 0x7f == 0 && promotion.is_empty() && origin.is_none();
        if bare && piece.kif().chars().count() == 1 {
            s.push('　');
        }
    } else {
        push_ja_square(s, mv.to());
    }
    s.push_str(piece.kif());
    if !rel.is_empty() {
        push_relative(s, rel);
    }
    s.push_str(promotion);
    if let Some(f) = origin {
        push_origin(s, f);
    }
}

/// The piece before the move that a written move names, for a move the
/// board cannot tell (a foul from an empty square): KIF and KI2 name it,
/// CSA names it after the move (`mv` says whether it promoted); USI never.
pub(crate) fn written_piece(n: &Notation, mv: Move) -> Option<PieceKind> {
    match *n {
        Notation::Kif { piece, .. } | Notation::Ki2 { piece, .. } => Some(piece),
        Notation::Csa { piece, .. } if mv.is_promotion() => Some(piece.unpromoted()),
        Notation::Csa { piece, .. } => Some(piece),
        Notation::Usi(_) | Notation::VariantUsi(_) | Notation::VariantKif { .. } => None,
    }
}

/// A written move, rendered back in its own format's style (for messages
/// about moves that could not be resolved).
pub fn notation_text(n: &Notation) -> String {
    match *n {
        Notation::Usi(m) => m.to_usi(),
        // Its squares are named by its board, which a shogi message lacks.
        Notation::VariantUsi(_) | Notation::VariantKif { .. } => "a move of another board".into(),
        Notation::Csa {
            color,
            from,
            to,
            piece,
        } => {
            let from = from.map_or("00".to_string(), |f| format!("{}{}", f.file(), f.rank()));
            format!(
                "{}{}{}{}{}",
                color.csa_sign(),
                from,
                to.file(),
                to.rank(),
                piece.csa()
            )
        }
        Notation::Kif {
            color,
            dest,
            piece,
            promote,
            from,
            drop,
        } => {
            let mut s = written_head(color, dest, piece);
            s.push_str(promote_text(promote));
            if drop {
                s.push('打');
            }
            if let Some(f) = from {
                s.push_str(&format!("({}{})", f.file(), f.rank()));
            }
            s
        }
        Notation::Ki2 {
            color,
            dest,
            piece,
            relative,
            promote,
        } => {
            let mut s = written_head(color, dest, piece);
            s.push_str(&relative_text(relative));
            s.push_str(promote_text(promote));
            s
        }
    }
}

/// The mark (if written), destination and piece that open a KIF/KI2 move.
fn written_head(color: Option<Color>, dest: crate::record::Dest, piece: PieceKind) -> String {
    let mut s = String::new();
    if let Some(c) = color {
        s.push(c.mark());
    }
    s.push_str(&dest_text(dest));
    s.push_str(piece.kif());
    s
}

fn dest_text(d: crate::record::Dest) -> String {
    match d {
        crate::record::Dest::Square(sq) => ja_square(sq),
        crate::record::Dest::Same => "同　".into(),
    }
}

fn promote_text(p: Option<bool>) -> &'static str {
    match p {
        Some(true) => "成",
        Some(false) => "不成",
        None => "",
    }
}

/// The KI2 modifier words of a [`crate::record::Relative`], in the fixed order 右左直, 上引寄, 打.
pub fn relative_text(r: crate::record::Relative) -> String {
    let mut s = String::new();
    push_relative(&mut s, r);
    s
}

/// The KI2 word of each flag of a [`crate::record::Relative`], lowest bit
/// first: the flags are numbered in the order KI2 writes their words.
const KI2_WORDS: &str = "右左直上引寄打";

/// [`relative_text`] appended to `s`.
fn push_relative(s: &mut String, r: crate::record::Relative) {
    for (bit, word) in KI2_WORDS.chars().enumerate() {
        if r.0 & 1 << bit != 0 {
            s.push(word);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn japanese_moves() {
        for (color, usi, piece, same, text) in [
            (Color::Sente, "7g7f", PieceKind::Pawn, false, "▲７六歩"),
            (Color::Sente, "P*5e", PieceKind::Pawn, false, "▲５五歩打"),
            (Color::Gote, "3a2b+", PieceKind::Silver, true, "△同　銀成"),
        ] {
            let mv = Move::from_usi(usi).unwrap();
            assert_eq!(ja_move(color, mv, piece, same), text, "{usi}");
        }
    }
}

#[cfg(test)]
mod ki2_tests {
    use super::*;
    use crate::Position;

    fn ki2(sfen: &str, usi: &str, same: bool) -> String {
        let pos = Position::from_sfen(sfen).unwrap();
        let mv = Move::from_usi(usi).unwrap();
        let piece = match mv {
            Move::Drop { kind, .. } => kind,
            Move::Normal { from, .. } => pos.piece_at(from).unwrap().kind,
        };
        ki2_move(&pos, pos.side_to_move(), mv, piece, same)
    }

    #[test]
    fn ki2_moves_carry_only_the_words_needed() {
        let start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
        assert_eq!(ki2(start, "7g7f", false), "▲７六歩");
        // Two golds can reach 5h: 6i5h moves up-right, 4i5h up-left.
        assert_eq!(ki2(start, "6i5h", false), "▲５八金左");
        assert_eq!(ki2(start, "4i5h", false), "▲５八金右");
        // A bishop promoting on 2b, and the recapture with 同.
        let after = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3";
        assert_eq!(ki2(after, "8h2b+", false), "▲２二角成");
        assert_eq!(ki2(after, "8h2b", false), "▲２二角不成");
        let recapture = "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 4";
        assert_eq!(ki2(recapture, "3a2b", true), "△同　銀");
        // A drop where no board piece could go needs no 打.
        assert_eq!(
            ki2("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "G*5b", false),
            "▲５二金"
        );
        // Fouls stay readable: a drop of a piece not in hand keeps 打, and a
        // move no piece could make names its origin.
        assert_eq!(
            ki2("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "P*5e", false),
            "▲５五歩打"
        );
        assert_eq!(ki2(start, "7g7e", false), "▲７五歩(77)");
    }
}
