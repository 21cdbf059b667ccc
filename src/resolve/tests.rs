use super::*;

/// Play `notation` on a copy of `pos` both ways: `resolve_and_play`
/// (the fast path under test), then, when it answers, resolving and
/// `play` on another copy; they must agree on the move, the
/// piece, the verdict and everything about the position after. When it
/// does not answer, the position must be untouched. Returns the answer.
fn compare(pos: &Position, notation: &Notation, prev_to: Option<Square>) -> Option<OneStep> {
    let same = |a: &Position, b: &Position| {
        assert_eq!(a, b, "{notation:?}");
        assert_eq!(
            (a.key(), a.checkers, a.waiting_safe),
            (b.key(), b.checkers, b.waiting_safe),
            "{notation:?} in {pos:?}"
        );
    };
    let mut fast = pos.clone();
    let Some(got) = resolve_and_play(&mut fast, notation, prev_to) else {
        same(&fast, pos);
        return None;
    };
    let mut slow = pos.clone();
    let r = resolve(&slow, notation, prev_to)
        .unwrap_or_else(|u| panic!("{notation:?} answered in one step but {u:?}"));
    // The one-step paths refuse a move by the side not to move.
    assert_eq!(r.color.unwrap_or(pos.side), pos.side, "{notation:?}");
    let outcome = slow.play(r.mv);
    assert_eq!(
        got,
        OneStep {
            mv: r.mv,
            piece: r.piece,
            outcome
        },
        "{notation:?} in {pos:?}"
    );
    same(&fast, &slow);
    Some(got)
}

/// The moves a record might spell in `pos`: every legal move (in
/// `legal`), every own piece to every square it attacks with and
/// without promotion, every drop of every kind held, and random moves
/// and drops.
fn moves_to_write(
    pos: &Position,
    legal: &[Move],
    rand: &mut impl FnMut(usize) -> usize,
) -> Vec<Move> {
    let us = pos.side;
    let mut written = legal.to_vec();
    for from in Square::all() {
        let Some(p) = pos.piece_at(from).filter(|p| p.color == us) else {
            continue;
        };
        let reach = attacks::attacks(us, p.kind, from.index(), pos.occupied());
        for to in attacks::squares(reach) {
            let to = Square::from_index_unchecked(to);
            for promote in [false, true] {
                written.push(Move::Normal { from, to, promote });
            }
        }
    }
    for kind in PieceKind::HAND {
        if pos.hand(us).count(kind) > 0 {
            written.extend(Square::all().map(|to| Move::Drop { kind, to }));
        }
    }
    for _ in 0..40 {
        let to = Square::from_index_unchecked(rand(81));
        let kind = PieceKind::ALL[rand(14)];
        written.push(if rand(2) == 0 {
            Move::Drop { kind, to }
        } else {
            Move::Normal {
                from: Square::from_index_unchecked(rand(81)),
                to,
                promote: rand(2) == 0,
            }
        });
    }
    written
}

/// `mv` in `pos` as CSA and KIF writers spell it, now and then with a
/// wrong piece or colour, and for KIF with 成/不成 written or not (成
/// even on a drop), 打 or an origin (or neither), and 同.
fn one_step_spellings(
    pos: &Position,
    mv: Move,
    prev_to: Option<Square>,
    rand: &mut impl FnMut(usize) -> usize,
) -> [Notation; 2] {
    let us = pos.side;
    let (from, to) = (mv.from(), mv.to());
    let (before, promote) = match mv {
        Move::Drop { kind, .. } => (kind, false),
        Move::Normal { from, promote, .. } => (
            pos.piece_at(from)
                .map_or(PieceKind::ALL[rand(14)], |p| p.kind),
            promote,
        ),
    };
    let after = match before.promoted() {
        Some(k) if promote => k,
        _ => before,
    };
    let other = |r: usize| if r < 2 { us.flip() } else { us };
    // CSA as a writer spells it, now and then with a wrong
    // piece or the wrong sign.
    let color = other(rand(16));
    let piece = if rand(8) == 0 {
        PieceKind::ALL[rand(14)]
    } else {
        after
    };
    let csa = Notation::Csa {
        color,
        from,
        to,
        piece,
    };
    // KIF: the kind before the move, 成/不成 written or not
    // (成 even on a drop), 打 or an origin (or neither), 同.
    let color = [None, Some(us), Some(other(rand(8)))][rand(3)];
    let piece = if rand(8) == 0 {
        PieceKind::ALL[rand(14)]
    } else {
        before
    };
    let said = [None, Some(promote), Some(!promote)][rand(3)];
    let (from, drop) = match rand(16) {
        0 => (None, false),
        1 => (from, from.is_some()),
        _ => (from, from.is_none()),
    };
    let dest = if prev_to == Some(to) && rand(2) == 0 {
        Dest::Same
    } else {
        Dest::Square(to)
    };
    let kif = Notation::Kif {
        color,
        dest,
        piece,
        promote: said,
        from,
        drop,
    };
    [csa, kif]
}

/// `resolve_and_play` on CSA, KIF and USI moves against resolving then `play`,
/// along random games (played with `play`, as the replayer
/// does) from the start and from positions with pins, checks and
/// 打ち歩詰め: every legal move, every own piece to every square it
/// attacks with and without promotion (pinned pieces, a king walking
/// into check, promotions outside the zone, dead pieces), every drop of
/// every kind held (occupied, nifu, 打ち歩詰め), drops of any kind on
/// random squares (not in hand), random origins,
/// wrong pieces, wrong colours, and the same on a copy not known to be
/// safe, which the fast paths must leave alone.
#[test]
fn resolve_and_play_matches_resolve_then_play() {
    let mut next = crate::test_rng::xorshift(0x0d1b_7c3a_95e2_4f61);
    let mut rand = move |n: usize| next() as usize % n;
    let mut played = 0;
    let mut refused = Vec::new();
    let starts = [
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "8k/6G2/9/7N1/9/9/9/9/4K4 b P 1",
        "k3r4/9/9/9/9/9/9/4G4/4K4 b GP 1",
        "4k4/9/9/9/8b/9/6S2/9/1r2K4 b Pp 1",
        "ln1g3nl/1r1s1kg2/p1pppp1pp/1p4p2/9/2P6/PPBPPPPPP/2G1S2R1/LN2KGSNL b BS 1",
    ];
    for game in 0..12 {
        let mut pos = Position::from_sfen(starts[game % starts.len()]).unwrap();
        let mut prev_to: Option<Square> = None;
        for _ply in 0..100 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let written = moves_to_write(&pos, &moves, &mut rand);
            let mut loose = pos.clone();
            loose.waiting_safe = false;
            for &mv in &written {
                let [csa, kif] = one_step_spellings(&pos, mv, prev_to, &mut rand);
                let mut answers = vec![compare(&pos, &csa, prev_to)];
                assert_eq!(compare(&loose, &csa, prev_to), None);
                answers.push(compare(&pos, &kif, prev_to));
                assert_eq!(compare(&loose, &kif, prev_to), None);
                let usi = Notation::Usi(mv);
                answers.push(compare(&pos, &usi, prev_to));
                assert_eq!(compare(&loose, &usi, prev_to), None);
                for a in answers.into_iter().flatten() {
                    match a.outcome {
                        Ok(_) => played += 1,
                        Err(rule) => refused.push(rule),
                    }
                }
            }
            let mv = moves[rand(moves.len())];
            pos.play(mv).unwrap();
            prev_to = Some(mv.to());
        }
    }
    assert!(played > 50_000, "only {played} moves played in one step");
    for rule in [
        Rule::BadMovement,
        Rule::BadPromotion,
        Rule::DeadPiece,
        Rule::SelfCheck,
        Rule::NotInHand,
        Rule::OccupiedDrop,
        Rule::Nifu,
    ] {
        let n = refused.iter().filter(|&&r| r == rule).count();
        assert!(n > 20, "{rule:?} refused in one step only {n} times");
    }
}

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

/// Every answer of the inlined fast path is the general path's answer,
/// for written moves of every notation along random games: the moves
/// played, and random ones that name wrong pieces, empty squares, drops
/// of pieces not in hand, `同` with and without a previous move.
#[test]
fn the_fast_path_agrees_with_the_general_path() {
    let mut next = crate::test_rng::xorshift(0x2545_f491_4f6c_dd1d);
    let mut answered = 0;
    for _game in 0..12 {
        let mut pos = Position::startpos();
        let mut prev_to = None;
        for _ply in 0..150 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let us = pos.side_to_move();
            let mut written: Vec<Move> = moves.clone();
            for _ in 0..40 {
                let to = Square::from_index(next() as usize % 81).unwrap();
                let kind = PieceKind::ALL[next() as usize % PieceKind::ALL.len()];
                written.push(if next().is_multiple_of(3) {
                    Move::Drop { kind, to }
                } else {
                    Move::Normal {
                        from: Square::from_index(next() as usize % 81).unwrap(),
                        to,
                        promote: next().is_multiple_of(2),
                    }
                });
            }
            for &mv in &written {
                let kind = match mv {
                    Move::Drop { kind, .. } => kind,
                    Move::Normal { from, .. } => pos
                        .piece_at(from)
                        .map_or(PieceKind::ALL[next() as usize % 14], |p| p.kind),
                };
                let promote = mv.is_promotion();
                let after = if promote {
                    kind.promoted().unwrap_or(kind)
                } else {
                    kind
                };
                let dest = if prev_to == Some(mv.to()) || next().is_multiple_of(8) {
                    Dest::Same
                } else {
                    Dest::Square(mv.to())
                };
                let said = [None, Some(promote), Some(!promote)][next() as usize % 3];
                let rel = [Relative::NONE, Relative::NONE, Relative::DROP, Relative::UP]
                    [next() as usize % 4];
                let notations = spellings(us, mv, kind, after, dest, said, rel);
                for n in &notations {
                    if let Some(fast) = plain(&pos, n, prev_to) {
                        assert_eq!(
                            Ok(fast),
                            resolve_general(&pos, n, prev_to),
                            "{n:?} in {pos:?}"
                        );
                        answered += 1;
                    }
                }
            }
            answered += every_ki2_move(&pos, prev_to);
            let mv = moves[next() as usize % moves.len()];
            pos.play_unchecked(mv);
            prev_to = Some(mv.to());
        }
    }
    // Positions where a pinned sole candidate makes the move a drop.
    for sfen in [
        "k3r4/9/9/9/9/9/9/4G4/4K4 b G 1",
        "k3r4/9/9/9/9/9/9/4G4/4K1G2 b G 1",
        "k8/9/9/9/9/9/4b4/9/2SK5 b S 1",
    ] {
        answered += every_ki2_move(&Position::from_sfen(sfen).unwrap(), None);
    }
    assert!(answered > 100_000, "only {answered} fast answers");
}

/// `mv` by `us` in every notation: `kind` the piece before the move,
/// `after` after it, `said` what 成/不成 say, `rel` the KI2 modifiers.
fn spellings(
    us: Color,
    mv: Move,
    kind: PieceKind,
    after: PieceKind,
    dest: Dest,
    said: Option<bool>,
    rel: Relative,
) -> [Notation; 5] {
    let from = mv.from();
    [
        Notation::Usi(mv),
        Notation::Csa {
            color: us,
            from,
            to: mv.to(),
            piece: after,
        },
        Notation::Kif {
            color: None,
            dest,
            piece: kind,
            promote: said,
            from,
            drop: from.is_none(),
        },
        Notation::Kif {
            color: Some(us),
            dest,
            piece: kind,
            promote: said,
            from: None,
            drop: false,
        },
        Notation::Ki2 {
            color: Some(us),
            dest,
            piece: kind,
            relative: rel,
            promote: said,
        },
    ]
}

/// Every piece to every square as KI2 writes it, without modifiers,
/// through both paths; how many the fast path answered.
fn every_ki2_move(pos: &Position, prev_to: Option<Square>) -> usize {
    let mut answered = 0;
    for to in Square::all() {
        for piece in PieceKind::ALL {
            let n = Notation::Ki2 {
                color: None,
                dest: Dest::Square(to),
                piece,
                relative: Relative::NONE,
                promote: None,
            };
            if let Some(fast) = plain(pos, &n, prev_to) {
                let general = resolve_general(pos, &n, prev_to);
                assert_eq!(Ok(fast), general, "{n:?} in {pos:?}");
                answered += 1;
            }
        }
    }
    answered
}
