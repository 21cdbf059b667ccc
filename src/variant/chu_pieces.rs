//! Chu shogi's 21 kinds of piece and their 18 promotions, as lishogi plays
//! them (its SFEN letters; `+` before a letter is the promoted piece).

use super::pieces::{
    BISHOP_RAYS, DRAGON_RAYS, E, ELEPHANT_RAYS, FAR_E, FAR_N, FAR_NE, FAR_NW, FAR_S, FAR_SE,
    FAR_SW, FAR_W, GOLD_RAYS, HORSE_RAYS, JUMP_E, JUMP_N, JUMP_NE, JUMP_NW, JUMP_S, JUMP_SE,
    JUMP_SW, JUMP_W, KING_RAYS, LANCE_RAYS, N, NE, NW, PAWN_RAYS, PLAIN, ROOK_RAYS, S, SE,
    SILVER_RAYS, SW, W, leap,
};
use super::{PieceDef, Ray};

const GO_BETWEEN: &[Ray] = &[N, S];
const SIDE_MOVER: &[Ray] = &[FAR_W, FAR_E, N, S];
const VERTICAL_MOVER: &[Ray] = &[FAR_N, FAR_S, W, E];
const CHARIOT: &[Ray] = &[FAR_N, FAR_S];
const TIGER: &[Ray] = &[NW, NE, W, E, SW, S, SE];
const KIRIN: &[Ray] = &[NW, NE, SW, SE, JUMP_N, JUMP_S, JUMP_W, JUMP_E];
const PHOENIX: &[Ray] = &[N, S, W, E, JUMP_NW, JUMP_NE, JUMP_SW, JUMP_SE];
const LEOPARD: &[Ray] = &[NW, NE, SW, SE, N, S];
const COPPER: &[Ray] = &[NW, N, NE, S];
/// Every square one or two away: the eight steps and the sixteen leaps.
const LION: &[Ray] = &[
    NW,
    N,
    NE,
    W,
    E,
    SW,
    S,
    SE,
    leap(-2, 2),
    leap(-1, 2),
    leap(0, 2),
    leap(1, 2),
    leap(2, 2),
    leap(-2, 1),
    leap(2, 1),
    leap(-2, 0),
    leap(2, 0),
    leap(-2, -1),
    leap(2, -1),
    leap(-2, -2),
    leap(-1, -2),
    leap(0, -2),
    leap(1, -2),
    leap(2, -2),
];
const QUEEN: &[Ray] = &[FAR_NW, FAR_N, FAR_NE, FAR_W, FAR_E, FAR_SW, FAR_S, FAR_SE];
const BOAR: &[Ray] = &[FAR_W, FAR_E, FAR_NW, FAR_NE, FAR_SW, FAR_SE];
const OX: &[Ray] = &[FAR_N, FAR_S, FAR_NW, FAR_NE, FAR_SW, FAR_SE];
/// The soaring eagle: rook, bishop backwards, and the lion's power
/// diagonally forward (a step, a leap of two, or a double step).
const EAGLE: &[Ray] = &[
    FAR_N, FAR_S, FAR_W, FAR_E, FAR_SW, FAR_SE, NW, NE, JUMP_NW, JUMP_NE,
];
/// The horned falcon: bishop, rook sideways and backwards, and the lion's
/// power straight forward.
const FALCON: &[Ray] = &[
    FAR_NW, FAR_NE, FAR_SW, FAR_SE, FAR_W, FAR_E, FAR_S, N, JUMP_N,
];
const WHALE: &[Ray] = &[FAR_N, FAR_S, FAR_SW, FAR_SE];
const WHITE_HORSE: &[Ray] = &[FAR_N, FAR_S, FAR_NW, FAR_NE];
const STAG: &[Ray] = &[FAR_N, FAR_S, NW, NE, W, E, SW, SE];
const ALL_STEPS: &[(i8, i8)] = &[
    (-1, 1),
    (0, 1),
    (1, 1),
    (-1, 0),
    (1, 0),
    (-1, -1),
    (0, -1),
    (1, -1),
];

/// Chu shogi's 21 kinds of piece; the first eighteen promote.
#[rustfmt::skip]
const KINDS: [PieceDef; 21] = [
    PieceDef { name: "pawn", letter: 'P', kif: "歩兵", rays: PAWN_RAYS, cheap: true, one_way: true, ..PLAIN },
    PieceDef { name: "go-between", letter: 'I', kif: "仲人", rays: GO_BETWEEN, cheap: true, ..PLAIN },
    PieceDef { name: "side mover", letter: 'M', kif: "横行", rays: SIDE_MOVER, ..PLAIN },
    PieceDef { name: "vertical mover", letter: 'V', kif: "竪行", rays: VERTICAL_MOVER, ..PLAIN },
    PieceDef { name: "rook", letter: 'R', kif: "飛車", rays: ROOK_RAYS, ..PLAIN },
    PieceDef { name: "bishop", letter: 'B', kif: "角行", rays: BISHOP_RAYS, ..PLAIN },
    PieceDef { name: "dragon king", letter: 'D', kif: "龍王", rays: DRAGON_RAYS, ..PLAIN },
    PieceDef { name: "dragon horse", letter: 'H', kif: "龍馬", rays: HORSE_RAYS, ..PLAIN },
    PieceDef { name: "drunk elephant", letter: 'E', kif: "酔象", rays: ELEPHANT_RAYS, ..PLAIN },
    PieceDef { name: "reverse chariot", letter: 'A', kif: "反車", rays: CHARIOT, ..PLAIN },
    PieceDef { name: "blind tiger", letter: 'T', kif: "盲虎", rays: TIGER, ..PLAIN },
    PieceDef { name: "kirin", letter: 'O', kif: "麒麟", rays: KIRIN, ..PLAIN },
    PieceDef { name: "phoenix", letter: 'X', kif: "鳳凰", rays: PHOENIX, ..PLAIN },
    PieceDef { name: "lance", letter: 'L', kif: "香車", rays: LANCE_RAYS, one_way: true, ..PLAIN },
    PieceDef { name: "ferocious leopard", letter: 'F', kif: "猛豹", rays: LEOPARD, ..PLAIN },
    PieceDef { name: "copper general", letter: 'C', kif: "銅将", rays: COPPER, ..PLAIN },
    PieceDef { name: "silver general", letter: 'S', kif: "銀将", rays: SILVER_RAYS, ..PLAIN },
    PieceDef { name: "gold general", letter: 'G', kif: "金将", rays: GOLD_RAYS, ..PLAIN },
    PieceDef { name: "king", letter: 'K', kif: "玉将", rays: KING_RAYS, royal: true, ..PLAIN },
    PieceDef { name: "lion", letter: 'N', kif: "獅子", rays: LION, lion: true, lion_steps: ALL_STEPS, ..PLAIN },
    PieceDef { name: "queen", letter: 'Q', kif: "奔王", rays: QUEEN, ..PLAIN },
];

/// What the first eighteen kinds promote to, in their order: nine move
/// (and are named) as another kind does, with a letter of their own.
#[rustfmt::skip]
const PROMOTIONS: [PieceDef; 18] = [
    PieceDef { name: "tokin", letter: 'P', kif: "と金", rays: GOLD_RAYS, ..PLAIN },
    PieceDef { letter: 'I', ..KINDS[8] }, // drunk elephant
    PieceDef { name: "free boar", letter: 'M', kif: "奔猪", rays: BOAR, ..PLAIN },
    PieceDef { name: "flying ox", letter: 'V', kif: "飛牛", rays: OX, ..PLAIN },
    PieceDef { letter: 'R', ..KINDS[6] }, // dragon king
    PieceDef { letter: 'B', ..KINDS[7] }, // dragon horse
    PieceDef { name: "soaring eagle", letter: 'D', kif: "飛鷲", rays: EAGLE, lion_steps: &[(-1, 1), (1, 1)], ..PLAIN },
    PieceDef { name: "horned falcon", letter: 'H', kif: "角鷹", rays: FALCON, lion_steps: &[(0, 1)], ..PLAIN },
    PieceDef { name: "crown prince", letter: 'E', kif: "太子", rays: KING_RAYS, royal: true, ..PLAIN },
    PieceDef { name: "whale", letter: 'A', kif: "鯨鯢", rays: WHALE, ..PLAIN },
    PieceDef { name: "flying stag", letter: 'T', kif: "飛鹿", rays: STAG, ..PLAIN },
    PieceDef { letter: 'O', ..KINDS[19] }, // lion
    PieceDef { letter: 'X', ..KINDS[20] }, // queen
    PieceDef { name: "white horse", letter: 'L', kif: "白駒", rays: WHITE_HORSE, ..PLAIN },
    PieceDef { letter: 'F', ..KINDS[5] }, // bishop
    PieceDef { letter: 'C', ..KINDS[2] }, // side mover
    PieceDef { letter: 'S', ..KINDS[3] }, // vertical mover
    PieceDef { letter: 'G', ..KINDS[4] }, // rook
];

/// Chu shogi's pieces: ids 0–20 the [`KINDS`], 21–38 the [`PROMOTIONS`]
/// of the first eighteen (id + 21), each going back to its kind when captured.
pub static CHU: [PieceDef; 39] = {
    let mut all = [PLAIN; 39];
    let mut id = 0;
    while id < KINDS.len() {
        let promotes_to = if id < PROMOTIONS.len() {
            Some((id + KINDS.len()) as u8)
        } else {
            None
        };
        all[id] = PieceDef {
            promotes_to,
            base: id as u8,
            ..KINDS[id]
        };
        id += 1;
    }
    let mut kind = 0;
    while kind < PROMOTIONS.len() {
        all[KINDS.len() + kind] = PieceDef {
            promoted: true,
            promotes_to: None,
            base: kind as u8,
            ..PROMOTIONS[kind]
        };
        kind += 1;
    }
    all
};
