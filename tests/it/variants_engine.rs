//! The table-driven engine of `kifu::variant` against the bitboard engine
//! of [`Position`], on modern shogi: the two were written apart, so where
//! they agree on random positions both are likely right.

use kifu::Move;
use kifu::Position;
use kifu::parse::usi::variant_move;
use kifu::variant::{Board, Variant};

/// xorshift64: reproducible random games without a dependency.
fn rng(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

fn table(pos: &Position) -> Board {
    Board::from_sfen(Variant::Shogi, &pos.to_sfen())
        .expect("a shogi SFEN reads on the table engine")
}

fn sorted_legal(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves().into_iter().map(Move::to_usi).collect();
    v.sort();
    v
}

fn sorted_table_legal(b: &Board) -> Vec<String> {
    let mut v: Vec<String> = b.legal_moves().into_iter().map(|m| b.usi(m)).collect();
    v.sort();
    v
}

/// Random playouts from the start, `plies` long each; `visit` sees every position.
fn playouts(
    games: usize,
    plies: usize,
    seed: u64,
    mut visit: impl FnMut(&Position, &mut dyn FnMut() -> u64),
) {
    let mut next = rng(seed);
    for _ in 0..games {
        let mut pos = Position::startpos();
        for _ in 0..plies {
            visit(&pos, &mut next);
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[(next() % moves.len() as u64) as usize];
            pos.play(m).expect("a generated move is legal");
        }
    }
}

#[test]
fn both_engines_generate_the_same_legal_moves_on_random_playouts() {
    let mut positions = 0;
    playouts(6, 80, 0x9e37_79b9_7f4a_7c15, |pos, _| {
        let b = table(pos);
        assert_eq!(
            sorted_table_legal(&b),
            sorted_legal(pos),
            "at {}",
            pos.to_sfen()
        );
        positions += 1;
    });
    assert!(positions > 300, "only {positions} positions visited");
}

#[test]
fn both_engines_count_the_same_perft_on_random_positions() {
    let mut checked = 0;
    playouts(4, 80, 0x2545_f491_4f6c_dd1d, |pos, next| {
        if !next().is_multiple_of(20) {
            return;
        }
        assert_eq!(
            table(pos).perft(2),
            pos.perft(2),
            "perft 2 at {}",
            pos.to_sfen()
        );
        checked += 1;
    });
    assert!(checked >= 8, "only {checked} positions counted");
}

/// A random move in USI, legal or not: any origin to any square, or any
/// droppable piece to any square.
fn random_usi(next: &mut dyn FnMut() -> u64) -> String {
    let sq = |n: u64| format!("{}{}", n % 9 + 1, (b'a' + (n / 9 % 9) as u8) as char);
    if next().is_multiple_of(4) {
        let piece = ['P', 'L', 'N', 'S', 'G', 'B', 'R'][(next() % 7) as usize];
        format!("{piece}*{}", sq(next()))
    } else {
        let plus = if next().is_multiple_of(3) { "+" } else { "" };
        format!("{}{}{plus}", sq(next()), sq(next()))
    }
}

#[test]
fn both_engines_judge_every_move_alike_on_random_playouts() {
    let (mut legal, mut illegal) = (0, 0);
    playouts(5, 70, 0x1234_5678_9abc_def1, |pos, next| {
        let b = table(pos);
        // Every legal move, and a sample of moves of every kind.
        let mut tries: Vec<String> = sorted_legal(pos);
        tries.extend((0..50).map(|_| random_usi(next)));
        for t in tries {
            let m = Move::from_usi(&t).expect("well-formed USI");
            let vm = variant_move(&b, &t).expect("well-formed on 9×9");
            let mut p = pos.clone();
            let want = p.play(m).map(|_| ()).map_err(|r| r.code());
            let got = b.judge(vm).map_err(|f| f.code());
            assert_eq!(
                got.is_ok(),
                want.is_ok(),
                "{t} at {}: table {got:?}, bitboard {want:?}",
                pos.to_sfen()
            );
            if want.is_ok() {
                legal += 1
            } else {
                illegal += 1
            }
        }
    });
    assert!(
        legal > 500 && illegal > 500,
        "{legal} legal, {illegal} illegal judged"
    );
}
