//! The piece tables of the shogi family: how each piece moves, promotes and
//! drops, as data the table-driven engine reads.
//!
//! Vectors are written from the mover's side: `dx` +1 is the mover's right,
//! `dy` +1 is forward. The engine turns them round for gote.

/// One line of movement: a step, a limited or unlimited slide, or a leap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ray {
    /// Columns per step, +1 towards the mover's right.
    pub dx: i8,
    /// Ranks per step, +1 forward.
    pub dy: i8,
    /// How many steps the piece may slide (1 = a single step).
    pub range: u8,
    /// Whether the piece jumps straight to `(dx, dy)` over anything between.
    pub leap: bool,
}

pub(super) const fn step(dx: i8, dy: i8) -> Ray {
    Ray {
        dx,
        dy,
        range: 1,
        leap: false,
    }
}

pub(super) const fn slide(dx: i8, dy: i8, range: u8) -> Ray {
    Ray {
        dx,
        dy,
        range,
        leap: false,
    }
}

pub(super) const fn leap(dx: i8, dy: i8) -> Ray {
    Ray {
        dx,
        dy,
        range: 1,
        leap: true,
    }
}

/// Unlimited range: longer than any board.
pub(super) const FAR: u8 = 16;

/// One step each way, named by the compass from the mover's side (N is
/// forward), and the same ways run as far as the board is clear: the rays
/// most pieces are made of.
pub(super) const N: Ray = step(0, 1);
pub(super) const NE: Ray = step(1, 1);
pub(super) const E: Ray = step(1, 0);
pub(super) const SE: Ray = step(1, -1);
pub(super) const S: Ray = step(0, -1);
pub(super) const SW: Ray = step(-1, -1);
pub(super) const W: Ray = step(-1, 0);
pub(super) const NW: Ray = step(-1, 1);
pub(super) const FAR_N: Ray = slide(0, 1, FAR);
pub(super) const FAR_NE: Ray = slide(1, 1, FAR);
pub(super) const FAR_E: Ray = slide(1, 0, FAR);
pub(super) const FAR_SE: Ray = slide(1, -1, FAR);
pub(super) const FAR_S: Ray = slide(0, -1, FAR);
pub(super) const FAR_SW: Ray = slide(-1, -1, FAR);
pub(super) const FAR_W: Ray = slide(-1, 0, FAR);
pub(super) const FAR_NW: Ray = slide(-1, 1, FAR);
/// Two squares each way, over whatever stands between.
pub(super) const JUMP_N: Ray = leap(0, 2);
pub(super) const JUMP_NE: Ray = leap(2, 2);
pub(super) const JUMP_E: Ray = leap(2, 0);
pub(super) const JUMP_SE: Ray = leap(2, -2);
pub(super) const JUMP_S: Ray = leap(0, -2);
pub(super) const JUMP_SW: Ray = leap(-2, -2);
pub(super) const JUMP_W: Ray = leap(-2, 0);
pub(super) const JUMP_NW: Ray = leap(-2, 2);

/// One kind of piece, promoted or not.
#[derive(Clone, Copy, Debug)]
pub struct PieceDef {
    /// The English name (`pawn`, `drunk elephant`, `swallow`, …).
    pub name: &'static str,
    /// The SFEN letter in upper case; a promoted piece writes `+` before it.
    pub letter: char,
    /// Whether this is a promoted piece (written `+letter`).
    pub promoted: bool,
    /// The KIF name (`歩`, `酔象`, `燕`, …).
    pub kif: &'static str,
    /// How it moves.
    pub rays: &'static [Ray],
    /// The piece it promotes to (index into the table), if it promotes.
    pub promotes_to: Option<u8>,
    /// The unpromoted piece it goes back to when captured (itself when unpromoted).
    pub base: u8,
    /// Whether losing it can lose the game.
    pub royal: bool,
    /// The farthest ranks where, unpromoted, it could never move again.
    pub dead_ranks: u8,
    /// Whether it must promote whenever it may (tori shogi's swallow and falcon).
    pub forced_promotion: bool,
    /// How many of one side's unpromoted pieces of this kind a file may hold
    /// before another may not be dropped on it (0: no limit).
    pub file_limit: u8,
    /// Whether dropping it may not give checkmate at once.
    pub no_drop_mate: bool,
    /// Chu shogi: a lion (獅子, or a promoted kirin), bound by the lion-trading rules.
    pub lion: bool,
    /// Chu shogi: the first steps of a double move (igui, jitto, two steps).
    /// A lion's second step goes to any square around the first; the horned
    /// falcon's and soaring eagle's go on in the same line or back home.
    pub lion_steps: &'static [(i8, i8)],
    /// Chu shogi: a pawn or go-between, whose capture on a lion's first step
    /// does not free it to take a protected lion.
    pub cheap: bool,
    /// Chu shogi: a pawn or lance, dead on its last rank (where it may
    /// promote even without a capture).
    pub one_way: bool,
}

pub(super) const PLAIN: PieceDef = PieceDef {
    name: "",
    letter: ' ',
    promoted: false,
    kif: "",
    rays: &[],
    promotes_to: None,
    base: 0,
    royal: false,
    dead_ranks: 0,
    forced_promotion: false,
    file_limit: 0,
    no_drop_mate: false,
    lion: false,
    lion_steps: &[],
    cheap: false,
    one_way: false,
};

pub(super) const KING_RAYS: &[Ray] = &[NW, N, NE, W, E, SW, S, SE];
pub(super) const GOLD_RAYS: &[Ray] = &[NW, N, NE, W, E, S];
pub(super) const SILVER_RAYS: &[Ray] = &[NW, N, NE, SW, SE];
/// FsfW: every step but straight back (drunk elephant, falcon).
pub(super) const ELEPHANT_RAYS: &[Ray] = &[NW, N, NE, W, E, SW, SE];
pub(super) const PAWN_RAYS: &[Ray] = &[N];
pub(super) const LANCE_RAYS: &[Ray] = &[FAR_N];
pub(super) const KNIGHT_RAYS: &[Ray] = &[leap(-1, 2), leap(1, 2)];
pub(super) const BISHOP_RAYS: &[Ray] = &[FAR_NW, FAR_NE, FAR_SW, FAR_SE];
pub(super) const ROOK_RAYS: &[Ray] = &[FAR_N, FAR_W, FAR_E, FAR_S];
pub(super) const HORSE_RAYS: &[Ray] = &[FAR_NW, FAR_NE, FAR_SW, FAR_SE, N, W, E, S];
pub(super) const DRAGON_RAYS: &[Ray] = &[FAR_N, FAR_W, FAR_E, FAR_S, NW, NE, SW, SE];

/// The modern shogi set, in the order the engine indexes it: the eight
/// unpromoted kinds, then the six promoted ones, then any extra pieces a
/// variant adds.
macro_rules! shogi_set {
    ($($extra:expr),*) => {
        [
            PieceDef { name: "pawn", letter: 'P', kif: "歩", rays: PAWN_RAYS, promotes_to: Some(8), base: 0, dead_ranks: 1, file_limit: 1, no_drop_mate: true, ..PLAIN },
            PieceDef { name: "lance", letter: 'L', kif: "香", rays: LANCE_RAYS, promotes_to: Some(9), base: 1, dead_ranks: 1, ..PLAIN },
            PieceDef { name: "knight", letter: 'N', kif: "桂", rays: KNIGHT_RAYS, promotes_to: Some(10), base: 2, dead_ranks: 2, ..PLAIN },
            PieceDef { name: "silver", letter: 'S', kif: "銀", rays: SILVER_RAYS, promotes_to: Some(11), base: 3, ..PLAIN },
            PieceDef { name: "gold", letter: 'G', kif: "金", rays: GOLD_RAYS, base: 4, ..PLAIN },
            PieceDef { name: "bishop", letter: 'B', kif: "角", rays: BISHOP_RAYS, promotes_to: Some(12), base: 5, ..PLAIN },
            PieceDef { name: "rook", letter: 'R', kif: "飛", rays: ROOK_RAYS, promotes_to: Some(13), base: 6, ..PLAIN },
            PieceDef { name: "king", letter: 'K', kif: "玉", rays: KING_RAYS, base: 7, royal: true, ..PLAIN },
            PieceDef { name: "tokin", letter: 'P', promoted: true, kif: "と", rays: GOLD_RAYS, base: 0, ..PLAIN },
            PieceDef { name: "promoted lance", letter: 'L', promoted: true, kif: "成香", rays: GOLD_RAYS, base: 1, ..PLAIN },
            PieceDef { name: "promoted knight", letter: 'N', promoted: true, kif: "成桂", rays: GOLD_RAYS, base: 2, ..PLAIN },
            PieceDef { name: "promoted silver", letter: 'S', promoted: true, kif: "成銀", rays: GOLD_RAYS, base: 3, ..PLAIN },
            PieceDef { name: "horse", letter: 'B', promoted: true, kif: "馬", rays: HORSE_RAYS, base: 5, ..PLAIN },
            PieceDef { name: "dragon", letter: 'R', promoted: true, kif: "龍", rays: DRAGON_RAYS, base: 6, ..PLAIN },
            $($extra),*
        ]
    };
}

/// Modern shogi, which minishogi also uses (its board simply never holds
/// a lance or a knight).
#[rustfmt::skip]
pub static SHOGI: [PieceDef; 14] = shogi_set!();

/// Sho shogi: the modern set, the drunk elephant and the crown prince.
#[rustfmt::skip]
pub static SHO: [PieceDef; 16] = shogi_set!(
    PieceDef { name: "drunk elephant", letter: 'E', kif: "酔象", rays: ELEPHANT_RAYS, promotes_to: Some(15), base: 14, ..PLAIN },
    PieceDef { name: "crown prince", letter: 'E', promoted: true, kif: "太子", rays: KING_RAYS, base: 14, royal: true, ..PLAIN }
);

const CRANE_RAYS: &[Ray] = &[NW, N, NE, SW, S, SE];
const PHEASANT_RAYS: &[Ray] = &[JUMP_N, SW, SE];
const LEFT_QUAIL_RAYS: &[Ray] = &[FAR_N, FAR_SE, SW];
const RIGHT_QUAIL_RAYS: &[Ray] = &[FAR_N, FAR_SW, SE];
const SWALLOW_RAYS: &[Ray] = &[N];
const GOOSE_RAYS: &[Ray] = &[JUMP_NW, JUMP_NE, JUMP_S];
const EAGLE_RAYS: &[Ray] = &[
    W,
    E,
    N,
    FAR_NW,
    FAR_NE,
    FAR_S,
    slide(-1, -1, 2),
    slide(1, -1, 2),
];

/// Tori shogi's birds.
#[rustfmt::skip]
pub static TORI: [PieceDef; 9] = [
    PieceDef { name: "swallow", letter: 'S', kif: "燕", rays: SWALLOW_RAYS, promotes_to: Some(7), base: 0, dead_ranks: 1, forced_promotion: true, file_limit: 2, no_drop_mate: true, ..PLAIN },
    PieceDef { name: "falcon", letter: 'F', kif: "鷹", rays: ELEPHANT_RAYS, promotes_to: Some(8), base: 1, forced_promotion: true, ..PLAIN },
    PieceDef { name: "crane", letter: 'C', kif: "鶴", rays: CRANE_RAYS, base: 2, ..PLAIN },
    PieceDef { name: "pheasant", letter: 'P', kif: "雉", rays: PHEASANT_RAYS, base: 3, ..PLAIN },
    PieceDef { name: "left quail", letter: 'L', kif: "左鶉", rays: LEFT_QUAIL_RAYS, base: 4, ..PLAIN },
    PieceDef { name: "right quail", letter: 'R', kif: "右鶉", rays: RIGHT_QUAIL_RAYS, base: 5, ..PLAIN },
    PieceDef { name: "phoenix", letter: 'K', kif: "鵬", rays: KING_RAYS, base: 6, royal: true, ..PLAIN },
    PieceDef { name: "goose", letter: 'S', promoted: true, kif: "雁", rays: GOOSE_RAYS, base: 0, ..PLAIN },
    PieceDef { name: "eagle", letter: 'F', promoted: true, kif: "鵰", rays: EAGLE_RAYS, base: 1, ..PLAIN },
];

/// Micro shogi: every piece but the king shows one side and turns over
/// whenever it captures (pawn ↔ knight, lance ↔ silver, bishop and rook ↔
/// gold), as Fairy-Stockfish's `micro` has it.
#[rustfmt::skip]
pub static MICRO: [PieceDef; 9] = [
    PieceDef { name: "pawn", letter: 'P', kif: "歩", rays: PAWN_RAYS, promotes_to: Some(5), base: 0, ..PLAIN },
    PieceDef { name: "lance", letter: 'L', kif: "香", rays: LANCE_RAYS, promotes_to: Some(6), base: 1, ..PLAIN },
    PieceDef { name: "bishop", letter: 'B', kif: "角", rays: BISHOP_RAYS, promotes_to: Some(7), base: 2, ..PLAIN },
    PieceDef { name: "rook", letter: 'R', kif: "飛", rays: ROOK_RAYS, promotes_to: Some(8), base: 3, ..PLAIN },
    PieceDef { name: "king", letter: 'K', kif: "玉", rays: KING_RAYS, base: 4, royal: true, ..PLAIN },
    PieceDef { name: "knight", letter: 'P', promoted: true, kif: "桂", rays: KNIGHT_RAYS, base: 0, ..PLAIN },
    PieceDef { name: "silver", letter: 'L', promoted: true, kif: "銀", rays: SILVER_RAYS, base: 1, ..PLAIN },
    PieceDef { name: "gold", letter: 'B', promoted: true, kif: "金", rays: GOLD_RAYS, base: 2, ..PLAIN },
    PieceDef { name: "gold", letter: 'R', promoted: true, kif: "金", rays: GOLD_RAYS, base: 3, ..PLAIN },
];
