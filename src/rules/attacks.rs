//! Bitboards and attack tables, all built at compile time.
//!
//! A bitboard is a `u128` whose bit `i` is the square with [`Square::index`]
//! `i`. Because the index is `(file-1)*9 + (rank-1)`, a step along a rank is
//! ±1 and a step along a file is ±9; edges are handled by building every table
//! from (file, rank) coordinates, never by shifting.
//!
//! Sliding attacks use "rays": the squares beyond a square in one direction up
//! to the edge. The attack along a ray stops at its first blocker, which is the
//! lowest set bit for directions of increasing index and the highest for the
//! others; removing the ray beyond the blocker leaves the attacked squares.
//!
//! [`Square::index`]: crate::rules::types::Square::index

use crate::rules::types::{Color, PieceKind};

/// A set of squares, bit `i` being the square of index `i`.
pub(crate) type Bitboard = u128;

/// All 81 squares.
pub(crate) const ALL: Bitboard = (1u128 << 81) - 1;

/// `SQUARE_BB[sq]` is `1 << sq`: a load costs fewer instructions than a
/// variable 128-bit shift, which x86-64 builds from two shifts and two
/// conditional moves.
const SQUARE_BB: [Bitboard; 81] = {
    let mut t = [0u128; 81];
    let mut sq = 0;
    while sq < 81 {
        t[sq] = 1u128 << sq;
        sq += 1;
    }
    t
};

/// The bitboard of the square with index `sq` (below 81).
#[inline]
pub(crate) const fn bb(sq: usize) -> Bitboard {
    SQUARE_BB[sq]
}

/// Whether `b` has two or more squares. Cheaper than `count_ones`, which
/// without a `popcnt` target feature costs dozens of instructions per
/// `u128`.
#[inline]
pub(crate) const fn more_than_one(b: Bitboard) -> bool {
    b & b.wrapping_sub(1) != 0
}

/// Iterate over the indices of the set bits, lowest first.
#[inline]
pub(crate) fn squares(mut b: Bitboard) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let i = b.trailing_zeros() as usize;
            b &= b - 1;
            Some(i)
        }
    })
}

/// Directions as (Δfile, Δrank). Opposite directions are paired so that
/// `d ^ 1` reverses `d`.
const DIRS: [(i32, i32); 8] = [
    (0, -1),  // 0: towards rank 1, sente's forward
    (0, 1),   // 1: towards rank 9, gote's forward
    (1, 0),   // 2
    (-1, 0),  // 3
    (1, -1),  // 4
    (-1, 1),  // 5
    (1, 1),   // 6
    (-1, -1), // 7
];

/// Whether moving in direction `d` increases the square index (Δ = 9·Δf + Δr > 0).
const POSITIVE: [bool; 8] = {
    let mut p = [false; 8];
    let mut d = 0;
    while d < 8 {
        p[d] = DIRS[d].0 * 9 + DIRS[d].1 > 0;
        d += 1;
    }
    p
};

const fn sq_of(file: i32, rank: i32) -> Option<usize> {
    if file >= 1 && file <= 9 && rank >= 1 && rank <= 9 {
        Some(((file - 1) * 9 + (rank - 1)) as usize)
    } else {
        None
    }
}

/// `RAYS[d][sq]`: the squares strictly beyond `sq` in direction `d`, to the edge.
const RAYS: [[Bitboard; 81]; 8] = {
    let mut t = [[0u128; 81]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 81 {
            let (mut f, mut r) = ((sq / 9) as i32 + 1, (sq % 9) as i32 + 1);
            loop {
                f += DIRS[d].0;
                r += DIRS[d].1;
                match sq_of(f, r) {
                    Some(s) => t[d][sq] |= bb(s),
                    None => break,
                }
            }
            sq += 1;
        }
        d += 1;
    }
    t
};

/// Step sets in sente's frame; gote negates them.
const PAWN_STEPS: &[(i32, i32)] = &[(0, -1)];
const KNIGHT_STEPS: &[(i32, i32)] = &[(1, -2), (-1, -2)];
const SILVER_STEPS: &[(i32, i32)] = &[(0, -1), (1, -1), (-1, -1), (1, 1), (-1, 1)];
const GOLD_STEPS: &[(i32, i32)] = &[(0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0), (0, 1)];
const KING_STEPS: &[(i32, i32)] = &[
    (0, -1),
    (1, -1),
    (-1, -1),
    (1, 0),
    (-1, 0),
    (0, 1),
    (1, 1),
    (-1, 1),
];
const ORTHO_STEPS: &[(i32, i32)] = &[(0, -1), (0, 1), (1, 0), (-1, 0)];
const DIAG_STEPS: &[(i32, i32)] = &[(1, -1), (-1, -1), (1, 1), (-1, 1)];
const NO_STEPS: &[(i32, i32)] = &[];

/// The non-sliding part of each kind's movement, by `PieceKind` index.
const KIND_STEPS: [&[(i32, i32)]; 14] = [
    PAWN_STEPS,
    NO_STEPS, // lance: slides only
    KNIGHT_STEPS,
    SILVER_STEPS,
    GOLD_STEPS,
    NO_STEPS, // bishop
    NO_STEPS, // rook
    KING_STEPS,
    GOLD_STEPS,
    GOLD_STEPS,
    GOLD_STEPS,
    GOLD_STEPS,
    ORTHO_STEPS, // horse adds the orthogonal steps to its diagonal slides
    DIAG_STEPS,  // dragon adds the diagonal steps to its orthogonal slides
];

/// `STEPS[color][kind][sq]`: the squares the kind reaches by stepping/jumping.
static STEPS: [[[Bitboard; 81]; 14]; 2] = {
    let mut t = [[[0u128; 81]; 14]; 2];
    let mut c = 0;
    while c < 2 {
        let sign = if c == 0 { 1 } else { -1 };
        let mut k = 0;
        while k < 14 {
            let steps = KIND_STEPS[k];
            let mut sq = 0;
            while sq < 81 {
                let (f, r) = ((sq / 9) as i32 + 1, (sq % 9) as i32 + 1);
                let mut i = 0;
                while i < steps.len() {
                    if let Some(s) = sq_of(f + sign * steps[i].0, r + sign * steps[i].1) {
                        t[c][k][sq] |= bb(s);
                    }
                    i += 1;
                }
                sq += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
};

const fn rank_mask(rank: usize) -> Bitboard {
    let mut m = 0;
    let mut f = 0;
    while f < 9 {
        m |= bb(f * 9 + rank - 1);
        f += 1;
    }
    m
}

/// The promotion zone of each colour (its three far ranks).
pub(crate) const ZONE: [Bitboard; 2] = [
    rank_mask(1) | rank_mask(2) | rank_mask(3),
    rank_mask(7) | rank_mask(8) | rank_mask(9),
];

/// `DEAD[color][kind]`: squares where an unpromoted piece of that kind could
/// never move again (last rank for pawn and lance, last two for the knight);
/// empty for every other kind, so that [`is_dead`] and the generators need no
/// kind check. (`play`'s board-move path asks for the kind first all
/// the same: most moved pieces are not pawns, lances or knights, and the
/// test is cheaper than the 128-bit table read.)
pub(crate) const DEAD: [[Bitboard; 14]; 2] = {
    let last = [rank_mask(1), rank_mask(9)];
    let two = [rank_mask(1) | rank_mask(2), rank_mask(8) | rank_mask(9)];
    let mut t = [[0; 14]; 2];
    let mut c = 0;
    while c < 2 {
        t[c][PieceKind::Pawn as usize] = last[c];
        t[c][PieceKind::Lance as usize] = last[c];
        t[c][PieceKind::Knight as usize] = two[c];
        c += 1;
    }
    t
};

/// The nine squares of a file (`file` 1..=9).
#[inline]
pub(crate) const fn file_mask(file: u8) -> Bitboard {
    0x1ffu128 << ((file as usize - 1) * 9)
}

/// Whether an unpromoted `kind` of `color` on `sq` could never move again.
#[inline]
pub(crate) fn is_dead(color: Color, kind: PieceKind, sq: usize) -> bool {
    DEAD[color.index()][kind as usize] & bb(sq) != 0
}

/// The squares a slider on `sq` attacks in direction `d`, given the occupancy.
#[inline]
fn ray_attacks(d: usize, sq: usize, occ: Bitboard) -> Bitboard {
    let ray = RAYS[d][sq];
    let blockers = ray & occ;
    if blockers == 0 {
        return ray;
    }
    let first = if POSITIVE[d] {
        blockers.trailing_zeros()
    } else {
        127 - blockers.leading_zeros()
    } as usize;
    ray ^ RAYS[d][first]
}

/// The forward direction of `c`'s lance.
#[inline]
pub(crate) const fn lance_dir(c: Color) -> usize {
    match c {
        Color::Sente => 0,
        Color::Gote => 1,
    }
}

/// The step part of `kind`'s movement for `color` from `sq`.
#[inline]
pub(crate) fn step(color: Color, kind: PieceKind, sq: usize) -> Bitboard {
    STEPS[color.index()][kind as usize][sq]
}

/// A `color` lance's attacks from `sq`.
#[inline]
pub(crate) fn lance(color: Color, sq: usize, occ: Bitboard) -> Bitboard {
    ray_attacks(lance_dir(color), sq, occ)
}

/// The attacks along the four directions `first..first + 4` from `sq`.
#[inline]
fn four_rays(first: usize, sq: usize, occ: Bitboard) -> Bitboard {
    ray_attacks(first, sq, occ)
        | ray_attacks(first + 1, sq, occ)
        | ray_attacks(first + 2, sq, occ)
        | ray_attacks(first + 3, sq, occ)
}

/// Bishop attacks from `sq`.
#[inline]
pub(crate) fn bishop(sq: usize, occ: Bitboard) -> Bitboard {
    four_rays(4, sq, occ)
}

/// Rook attacks from `sq`.
#[inline]
pub(crate) fn rook(sq: usize, occ: Bitboard) -> Bitboard {
    four_rays(0, sq, occ)
}

/// Every square a `color` `kind` on `sq` attacks (own pieces included).
#[inline]
pub(crate) fn attacks(color: Color, kind: PieceKind, sq: usize, occ: Bitboard) -> Bitboard {
    use PieceKind::*;
    let s = step(color, kind, sq);
    match kind {
        Lance => lance(color, sq, occ),
        Bishop | Horse => s | bishop(sq, occ),
        Rook | Dragon => s | rook(sq, occ),
        _ => s,
    }
}

/// Whether a `color` `kind` on `from` attacks `to`: one step-table probe or
/// one slide with an empty-path test, cheaper than building the attack set
/// when only one square matters.
#[inline(always)]
pub(crate) fn reaches(
    color: Color,
    kind: PieceKind,
    from: usize,
    to: usize,
    occ: Bitboard,
) -> bool {
    use PieceKind::*;
    if step(color, kind, from) & bb(to) != 0 {
        return true;
    }
    let Some(d) = direction(from, to) else {
        return false;
    };
    let slides = match kind {
        Lance => d == lance_dir(color),
        Bishop | Horse => is_diagonal(d),
        Rook | Dragon => !is_diagonal(d),
        _ => false,
    };
    slides && between(from, to) & occ == 0
}

/// `bb(to)` if a `color` `kind` on `to` attacks `ek`, else empty: the
/// check given by a piece that has just arrived on `to`.
#[inline(always)]
pub(crate) fn direct_check(
    color: Color,
    kind: PieceKind,
    to: usize,
    ek: usize,
    occ: Bitboard,
) -> Bitboard {
    if reaches(color, kind, to, ek, occ) {
        bb(to)
    } else {
        0
    }
}

/// Squares a rook/bishop on `sq` would see on an empty board: where pinning
/// sliders can stand.
#[inline]
pub(crate) fn rook_pseudo(sq: usize) -> Bitboard {
    RAYS[0][sq] | RAYS[1][sq] | RAYS[2][sq] | RAYS[3][sq]
}

/// See [`rook_pseudo`].
#[inline]
pub(crate) fn bishop_pseudo(sq: usize) -> Bitboard {
    RAYS[4][sq] | RAYS[5][sq] | RAYS[6][sq] | RAYS[7][sq]
}

/// Where an enemy lance must stand to attack a `color` king on `sq` through
/// empty squares: ahead of the king, from the king's point of view.
#[inline]
pub(crate) fn lance_pseudo_towards(color: Color, sq: usize) -> Bitboard {
    RAYS[lance_dir(color)][sq]
}

/// `DIRECTION[a][b]`: the direction from `a` to `b` when they share a rank,
/// file or diagonal, else [`NO_DIRECTION`]. A table because pin and
/// discovered-check tests ask this for nearly every move, and the division
/// by 9 it replaces dominated them.
static DIRECTION: [[u8; 81]; 81] = {
    let mut t = [[NO_DIRECTION; 81]; 81];
    let mut d = 0;
    while d < 8 {
        let mut a = 0;
        while a < 81 {
            let mut b = 0;
            while b < 81 {
                if RAYS[d][a] & bb(b) != 0 {
                    t[a][b] = d as u8;
                }
                b += 1;
            }
            a += 1;
        }
        d += 1;
    }
    t
};

/// The entry of [`DIRECTION`] for unaligned squares.
const NO_DIRECTION: u8 = 8;

/// The direction from `a` to `b` if they share a rank, file or diagonal.
#[inline]
pub(crate) fn direction(a: usize, b: usize) -> Option<usize> {
    let d = DIRECTION[a][b] as usize;
    // `< 8` rather than `!= NO_DIRECTION` (the same for the table's values)
    // lets the compiler drop the bounds check when `d` indexes `RAYS`.
    if d < 8 { Some(d) } else { None }
}

/// Whether direction `d` is diagonal (bishop-like) rather than orthogonal.
#[inline]
pub(crate) const fn is_diagonal(d: usize) -> bool {
    d >= 4
}

/// The squares strictly beyond `sq` in direction `d`, to the edge.
#[inline]
pub(crate) fn ray(d: usize, sq: usize) -> Bitboard {
    RAYS[d][sq]
}

/// The first occupied square beyond `sq` in direction `d`, if any.
#[inline]
pub(crate) fn first_blocker(d: usize, sq: usize, occ: Bitboard) -> Option<usize> {
    let blockers = RAYS[d][sq] & occ;
    if blockers == 0 {
        None
    } else if POSITIVE[d] {
        Some(blockers.trailing_zeros() as usize)
    } else {
        Some(127 - blockers.leading_zeros() as usize)
    }
}

/// The squares strictly between `a` and `b` (empty if they are not aligned).
#[inline(always)]
pub(crate) fn between(a: usize, b: usize) -> Bitboard {
    match direction(a, b) {
        Some(d) => RAYS[d][a] & RAYS[d ^ 1][b],
        None => 0,
    }
}

/// The whole line through `a` and `b`, excluding `a` (empty if not aligned):
/// where a piece pinned against a king on `a` may still move.
#[inline]
pub(crate) fn line(a: usize, b: usize) -> Bitboard {
    match direction(a, b) {
        Some(d) => RAYS[d][a] | RAYS[d ^ 1][a],
        None => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rays_stop_at_the_first_blocker() {
        // Rook on 5e (index 40) with blockers on 5c (38) and 3e (22).
        let occ = bb(38) | bb(22);
        let a = rook(40, occ);
        assert_ne!(a & bb(38), 0);
        assert_eq!(a & bb(37), 0);
        assert_ne!(a & bb(22), 0);
        assert_eq!(a & bb(13), 0);
        assert_eq!(a.count_ones(), 2 + 4 + 2 + 4);
        assert_eq!(bishop(40, 0).count_ones(), 16);
    }

    #[test]
    fn steps_respect_edges_and_colour() {
        // Sente knight on 1c (index 2) reaches only 2a.
        assert_eq!(step(Color::Sente, PieceKind::Knight, 2), bb(9));
        // Gote pawn on 5c (38) moves to 5d (39).
        assert_eq!(step(Color::Gote, PieceKind::Pawn, 38), bb(39));
        assert_eq!(step(Color::Sente, PieceKind::King, 0).count_ones(), 3);
    }

    #[test]
    fn between_and_line() {
        assert_eq!(between(0, 80).count_ones(), 7);
        assert_eq!(between(0, 10), 0);
        assert_eq!(between(0, 11), 0);
        assert_eq!(line(40, 41).count_ones(), 8);
    }
}
