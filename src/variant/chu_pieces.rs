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

/// Chu shogi's pieces: ids 0–20 unpromoted, 21–38 their promotions (id + 21
/// for the first eighteen).
#[rustfmt::skip]
pub static CHU: [PieceDef; 39] = [
    PieceDef { name: "pawn", letter: 'P', kif: "歩兵", rays: PAWN_RAYS, promotes_to: Some(21), base: 0, cheap: true, one_way: true, ..PLAIN },
    PieceDef { name: "go-between", letter: 'I', kif: "仲人", rays: GO_BETWEEN, promotes_to: Some(22), base: 1, cheap: true, ..PLAIN },
    PieceDef { name: "side mover", letter: 'M', kif: "横行", rays: SIDE_MOVER, promotes_to: Some(23), base: 2, ..PLAIN },
    PieceDef { name: "vertical mover", letter: 'V', kif: "竪行", rays: VERTICAL_MOVER, promotes_to: Some(24), base: 3, ..PLAIN },
    PieceDef { name: "rook", letter: 'R', kif: "飛車", rays: ROOK_RAYS, promotes_to: Some(25), base: 4, ..PLAIN },
    PieceDef { name: "bishop", letter: 'B', kif: "角行", rays: BISHOP_RAYS, promotes_to: Some(26), base: 5, ..PLAIN },
    PieceDef { name: "dragon king", letter: 'D', kif: "龍王", rays: DRAGON_RAYS, promotes_to: Some(27), base: 6, ..PLAIN },
    PieceDef { name: "dragon horse", letter: 'H', kif: "龍馬", rays: HORSE_RAYS, promotes_to: Some(28), base: 7, ..PLAIN },
    PieceDef { name: "drunk elephant", letter: 'E', kif: "酔象", rays: ELEPHANT_RAYS, promotes_to: Some(29), base: 8, ..PLAIN },
    PieceDef { name: "reverse chariot", letter: 'A', kif: "反車", rays: CHARIOT, promotes_to: Some(30), base: 9, ..PLAIN },
    PieceDef { name: "blind tiger", letter: 'T', kif: "盲虎", rays: TIGER, promotes_to: Some(31), base: 10, ..PLAIN },
    PieceDef { name: "kirin", letter: 'O', kif: "麒麟", rays: KIRIN, promotes_to: Some(32), base: 11, ..PLAIN },
    PieceDef { name: "phoenix", letter: 'X', kif: "鳳凰", rays: PHOENIX, promotes_to: Some(33), base: 12, ..PLAIN },
    PieceDef { name: "lance", letter: 'L', kif: "香車", rays: LANCE_RAYS, promotes_to: Some(34), base: 13, one_way: true, ..PLAIN },
    PieceDef { name: "ferocious leopard", letter: 'F', kif: "猛豹", rays: LEOPARD, promotes_to: Some(35), base: 14, ..PLAIN },
    PieceDef { name: "copper general", letter: 'C', kif: "銅将", rays: COPPER, promotes_to: Some(36), base: 15, ..PLAIN },
    PieceDef { name: "silver general", letter: 'S', kif: "銀将", rays: SILVER_RAYS, promotes_to: Some(37), base: 16, ..PLAIN },
    PieceDef { name: "gold general", letter: 'G', kif: "金将", rays: GOLD_RAYS, promotes_to: Some(38), base: 17, ..PLAIN },
    PieceDef { name: "king", letter: 'K', kif: "玉将", rays: KING_RAYS, base: 18, royal: true, ..PLAIN },
    PieceDef { name: "lion", letter: 'N', kif: "獅子", rays: LION, base: 19, lion: true, lion_steps: ALL_STEPS, ..PLAIN },
    PieceDef { name: "queen", letter: 'Q', kif: "奔王", rays: QUEEN, base: 20, ..PLAIN },
    PieceDef { name: "tokin", letter: 'P', promoted: true, kif: "と金", rays: GOLD_RAYS, base: 0, ..PLAIN },
    PieceDef { name: "drunk elephant", letter: 'I', promoted: true, kif: "酔象", rays: ELEPHANT_RAYS, base: 1, ..PLAIN },
    PieceDef { name: "free boar", letter: 'M', promoted: true, kif: "奔猪", rays: BOAR, base: 2, ..PLAIN },
    PieceDef { name: "flying ox", letter: 'V', promoted: true, kif: "飛牛", rays: OX, base: 3, ..PLAIN },
    PieceDef { name: "dragon king", letter: 'R', promoted: true, kif: "龍王", rays: DRAGON_RAYS, base: 4, ..PLAIN },
    PieceDef { name: "dragon horse", letter: 'B', promoted: true, kif: "龍馬", rays: HORSE_RAYS, base: 5, ..PLAIN },
    PieceDef { name: "soaring eagle", letter: 'D', promoted: true, kif: "飛鷲", rays: EAGLE, base: 6, lion_steps: &[(-1, 1), (1, 1)], ..PLAIN },
    PieceDef { name: "horned falcon", letter: 'H', promoted: true, kif: "角鷹", rays: FALCON, base: 7, lion_steps: &[(0, 1)], ..PLAIN },
    PieceDef { name: "crown prince", letter: 'E', promoted: true, kif: "太子", rays: KING_RAYS, base: 8, royal: true, ..PLAIN },
    PieceDef { name: "whale", letter: 'A', promoted: true, kif: "鯨鯢", rays: WHALE, base: 9, ..PLAIN },
    PieceDef { name: "flying stag", letter: 'T', promoted: true, kif: "飛鹿", rays: STAG, base: 10, ..PLAIN },
    PieceDef { name: "lion", letter: 'O', promoted: true, kif: "獅子", rays: LION, base: 11, lion: true, lion_steps: ALL_STEPS, ..PLAIN },
    PieceDef { name: "queen", letter: 'X', promoted: true, kif: "奔王", rays: QUEEN, base: 12, ..PLAIN },
    PieceDef { name: "white horse", letter: 'L', promoted: true, kif: "白駒", rays: WHITE_HORSE, base: 13, ..PLAIN },
    PieceDef { name: "bishop", letter: 'F', promoted: true, kif: "角行", rays: BISHOP_RAYS, base: 14, ..PLAIN },
    PieceDef { name: "side mover", letter: 'C', promoted: true, kif: "横行", rays: SIDE_MOVER, base: 15, ..PLAIN },
    PieceDef { name: "vertical mover", letter: 'S', promoted: true, kif: "竪行", rays: VERTICAL_MOVER, base: 16, ..PLAIN },
    PieceDef { name: "rook", letter: 'G', promoted: true, kif: "飛車", rays: ROOK_RAYS, base: 17, ..PLAIN },
];
