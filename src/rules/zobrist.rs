//! Zobrist keys, generated at compile time by splitmix64 from a fixed seed so
//! that a position's key is the same in every build and run.

use crate::rules::types::{Color, Piece, PieceKind};

const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (s, z ^ (z >> 31))
}

/// Highest hand count with its own key; no kind can exceed 18.
const MAX_COUNT: usize = 18;

struct Keys {
    board: [[u64; 81]; 28],
    hand: [[[u64; MAX_COUNT + 1]; 7]; 2],
    side: u64,
}

static KEYS: Keys = {
    let mut state = 0x6b69_6675_5f7a_6f62; // "kifu_zob"
    let mut board = [[0u64; 81]; 28];
    let mut p = 0;
    while p < 28 {
        let mut sq = 0;
        while sq < 81 {
            let (s, v) = splitmix(state);
            state = s;
            board[p][sq] = v;
            sq += 1;
        }
        p += 1;
    }
    let mut hand = [[[0u64; MAX_COUNT + 1]; 7]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 7 {
            let mut n = 0;
            while n <= MAX_COUNT {
                let (s, v) = splitmix(state);
                state = s;
                hand[c][k][n] = v;
                n += 1;
            }
            k += 1;
        }
        c += 1;
    }
    let (_, side) = splitmix(state);
    Keys { board, hand, side }
};

/// The key of `piece` standing on square index `sq`.
#[inline]
pub(crate) fn board(piece: Piece, sq: usize) -> u64 {
    KEYS.board[piece.color.index() * 14 + piece.kind as usize][sq]
}

/// The key of `color` holding `n` pieces of hand kind `kind`. Every
/// (colour, kind) contributes its count's key, zero included, so changing a
/// count toggles two keys.
#[inline]
pub(crate) fn hand(color: Color, kind: PieceKind, n: u8) -> u64 {
    KEYS.hand[color.index()][(kind as usize).min(6)][(n as usize).min(MAX_COUNT)]
}

/// `HAND_STEP[c][k][n]`: `hand(c, k, n) ^ hand(c, k, n + 1)`, so that a
/// capture or drop changes the key with one load. Zero from `MAX_COUNT` up,
/// where both counts share a key. Every kind and count has its entry (the
/// kinds past the rook repeat its row, as `hand` clamps them) so that
/// indexing needs neither clamps nor bounds checks.
static HAND_STEP: [[[u64; 256]; 14]; 2] = {
    let mut t = [[[0u64; 256]; 14]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 14 {
            let row = if k < 6 { k } else { 6 };
            let mut n = 0;
            while n < MAX_COUNT {
                t[c][k][n] = KEYS.hand[c][row][n] ^ KEYS.hand[c][row][n + 1];
                n += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
};

/// The change of key when `color`'s count of hand kind `kind` goes from
/// `n` to `n + 1` or back.
#[inline]
pub(crate) fn hand_step(color: Color, kind: PieceKind, n: u8) -> u64 {
    HAND_STEP[color.index()][kind as usize][n as usize]
}

/// Toggled when gote is to move.
#[inline]
pub(crate) fn side() -> u64 {
    KEYS.side
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_step_is_the_change_of_count() {
        for c in Color::ALL {
            for k in PieceKind::ALL {
                for n in 0..=254u8 {
                    assert_eq!(hand_step(c, k, n), hand(c, k, n) ^ hand(c, k, n + 1));
                }
            }
        }
    }
}
