//! The names lishogi gives chu shogi's pieces in its KIF where they are not
//! the engine table's (`variant::chu_pieces`): the traditional 醉 of the
//! drunk elephant, and the names of four promotions (a promoted pawn
//! moves as a gold, 金将; a promoted leopard is a "small bishop", 小角; a
//! promoted gold a "gold rook", 金飛車).

use crate::variant::{Board, Variant};

/// (piece id in chu shogi's table, lishogi's name).
const LISHOGI_NAMES: [(u8, &str); 5] = [
    (8, "醉象"),
    (21, "金将"),
    (22, "醉象"),
    (35, "小角"),
    (38, "金飛車"),
];

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
        assert_eq!(
            lishogi_name(&Variant::Sho.start(), 8),
            Variant::Sho.start().def(8).kif
        );
    }
}
