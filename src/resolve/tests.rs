use super::*;

/// The bitboard `candidates` against the plain definition (every square
/// holding the piece, tested with `can_reach`), along random games.
#[test]
fn candidates_match_a_scan_of_every_square() {
    let mut next = crate::test_rng::xorshift(0x9e37_79b9_7f4a_7c15);
    let mut checked = 0;
    for _game in 0..8 {
        let mut pos = Position::startpos();
        for _ply in 0..120 {
            for us in Color::ALL {
                for piece in PieceKind::ALL {
                    let holders: Vec<Square> = Square::all()
                        .filter(|&s| {
                            pos.piece_at(s)
                                .is_some_and(|p| p.color == us && p.kind == piece)
                        })
                        .collect();
                    for to in Square::all() {
                        let scan: Vec<Square> = holders
                            .iter()
                            .copied()
                            .filter(|&s| pos.can_reach(s, to))
                            .collect();
                        assert_eq!(candidates(&pos, us, piece, to), scan, "{pos:?}");
                        checked += usize::from(!scan.is_empty());
                    }
                }
            }
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[next() as usize % moves.len()]);
        }
    }
    assert!(checked > 10_000, "only {checked} non-empty cases");
}
