//! The names lishogi gives chu shogi's pieces in its KIF where they are not
//! the engine table's (`variant::chu_pieces`): the traditional 醉 of the
//! drunk elephant, and the names of four promotions (a promoted pawn
//! moves as a gold, 金将; a promoted leopard is a "small bishop", 小角; a
//! promoted gold a "gold rook", 金飛車); chu shogi's rank kanji; and the
//! reading of a piece's name in a variant's KIF move, by every name a KIF
//! may give it.

use crate::variant::{Board, Variant};

/// The kanji of chu shogi's twelve ranks, 一 to 十二.
pub const RANKS: [&str; 12] = [
    "一", "二", "三", "四", "五", "六", "七", "八", "九", "十", "十一", "十二",
];

/// The rank whose kanji `text` starts with, and its byte length: 十一 and
/// 十二 before 十.
pub fn rank_at(text: &str) -> Option<(u8, usize)> {
    (1..=12u8)
        .rev()
        .map(|r| (r, RANKS[usize::from(r) - 1]))
        .find(|(_, w)| text.starts_with(w))
        .map(|(r, w)| (r, w.len()))
}

/// (piece id in chu shogi's table, lishogi's name).
const LISHOGI_NAMES: [(u8, &str); 5] = [
    (8, "醉象"),
    (21, "金将"),
    (22, "醉象"),
    (35, "小角"),
    (38, "金飛車"),
];

/// The one- or two-character name of each piece (by id) in lishogi's chu
/// shogi board diagram: promotions whose name an unpromoted piece has
/// too are `成` and the unpromoted piece's (a promoted kirin, 成獅).
const BOARD_NAMES: [&str; 39] = [
    "歩", "仲", "横", "竪", "飛", "角", "龍", "馬", "象", "反", "虎", "麒", "鳳", "香", "豹", "銅",
    "銀", "金", "玉", "獅", "奔", "杏", "成象", "猪", "牛", "成龍", "成馬", "鷲", "鷹", "太", "鯨",
    "鹿", "成獅", "成奔", "駒", "成角", "成横", "成竪", "成飛",
];

/// The diagram name of chu shogi's piece `id`.
pub fn board_name(id: u8) -> &'static str {
    BOARD_NAMES.get(usize::from(id)).copied().unwrap_or("？")
}

/// The chu shogi piece a diagram name stands for (`王` for the king too).
pub fn from_board_name(name: &str) -> Option<u8> {
    let name = if name == "王" { "玉" } else { name };
    BOARD_NAMES.iter().position(|n| *n == name).map(|i| i as u8)
}

/// The name lishogi writes for piece `id` of `board`'s table.
pub fn lishogi_name(board: &Board, id: u8) -> &'static str {
    if board.variant() == Variant::Chu
        && let Some(&(_, name)) = LISHOGI_NAMES.iter().find(|(i, _)| *i == id)
    {
        return name;
    }
    board.def(id).kif
}

/// Every name a KIF may give piece `id` of `board`'s table: its own, and
/// lishogi's where that differs.
pub fn names(board: &Board, id: u8) -> [&'static str; 2] {
    [board.def(id).kif, lishogi_name(board, id)]
}

/// Alternative names KIF writers use, and the name each stands for.
const ALIASES: [(&str, &str); 7] = [
    ("王", "玉"),
    ("竜", "龍"),
    ("全", "成銀"),
    ("圭", "成桂"),
    ("杏", "成香"),
    ("象", "酔象"),
    ("太", "太子"),
];

/// The piece named at the start of `i` on `board`'s table (any variant's,
/// not only chu shogi's): its id and the name's byte length.
/// The longest name wins (成銀 over 銀); a name may drop its 左/右
/// (tori shogi's quails are written 鶉, the origin telling which).
pub(crate) fn piece_named(board: &Board, i: &str) -> Option<(u8, usize)> {
    let rules = board.rules();
    (0..rules.pieces.len() as u8)
        .filter(|id| !rules.unused.contains(id))
        .filter_map(|id| {
            let [own, lishogi] = names(board, id);
            let short = own.strip_prefix(['左', '右']).unwrap_or("");
            let aliases = ALIASES.iter().filter(|(_, n)| *n == own).map(|(a, _)| *a);
            [own, lishogi, short]
                .into_iter()
                .chain(aliases)
                .filter(|n| !n.is_empty() && i.starts_with(n))
                .map(|n| (id, n.len()))
                .max_by_key(|&(_, l)| l)
        })
        .max_by_key(|&(_, l)| l)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lishogi_names_stand_for_the_pieces_they_name() {
        let b = Variant::Chu.start();
        let promoted_from = |id: u8| (0..21).find(|&p| b.def(p).promotes_to == Some(id));
        assert_eq!(b.def(8).name, "drunk elephant");
        assert_eq!(promoted_from(21).map(|p| b.def(p).name), Some("pawn"));
        assert_eq!(promoted_from(22).map(|p| b.def(p).name), Some("go-between"));
        assert_eq!(
            promoted_from(35).map(|p| b.def(p).name),
            Some("ferocious leopard")
        );
        assert_eq!(
            promoted_from(38).map(|p| b.def(p).name),
            Some("gold general")
        );
        assert_eq!(names(&b, 19), ["獅子", "獅子"]);
        assert_eq!(rank_at("十一金将"), Some((11, 6)));
        assert_eq!(rank_at("十金将"), Some((10, 3)));
        assert_eq!(rank_at("一金将"), Some((1, 3)));
        assert_eq!(rank_at("金将"), None);
        // Every piece has its own diagram name.
        for id in 0..39u8 {
            assert_eq!(
                from_board_name(board_name(id)),
                Some(id),
                "{}",
                b.def(id).name
            );
        }
        assert_eq!(
            from_board_name("成獅").map(|id| b.def(id).name),
            Some("lion")
        );
        assert!(b.def(32).promoted);
        assert_eq!(
            lishogi_name(&Variant::Sho.start(), 8),
            Variant::Sho.start().def(8).kif
        );
    }
}
