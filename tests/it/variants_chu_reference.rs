//! A second chu shogi move generator, written apart from `kifu::variant`
//! and as plainly as it can be (a map of squares, each piece's moves
//! spelled out, every rule checked the slow way), against the table-driven
//! engine on random games: where the two agree, both are likely right.

use kifu::variant::{Board, Variant};
use std::collections::HashMap;

/// (file 1–12, rank 1–12 with 1 = `a`) → (sente?, SFEN code in upper case).
type Grid = HashMap<(i32, i32), (bool, String)>;

#[derive(Clone)]
struct Pos {
    grid: Grid,
    sente: bool,
    last_lion: Option<(i32, i32)>,
}

fn parse(sfen: &str) -> Pos {
    let parts: Vec<&str> = sfen.split(' ').collect();
    let mut grid = Grid::new();
    for (r, row) in parts[0].split('/').enumerate() {
        let mut file = 12;
        let mut num = String::new();
        let mut plus = false;
        for ch in row.chars() {
            if ch.is_ascii_digit() {
                num.push(ch);
                continue;
            }
            if !num.is_empty() {
                file -= num.parse::<i32>().unwrap();
                num.clear();
            }
            if ch == '+' {
                plus = true;
                continue;
            }
            let code = format!("{}{}", if plus { "+" } else { "" }, ch.to_ascii_uppercase());
            grid.insert((file, r as i32 + 1), (ch.is_ascii_uppercase(), code));
            plus = false;
            file -= 1;
        }
    }
    let last_lion = (parts[2] != "-").then(|| square(parts[2]));
    Pos {
        grid,
        sente: parts[1] == "b",
        last_lion,
    }
}

fn square(s: &str) -> (i32, i32) {
    let (f, r) = s.split_at(s.len() - 1);
    (f.parse().unwrap(), (r.as_bytes()[0] - b'a') as i32 + 1)
}

fn name((f, r): (i32, i32)) -> String {
    format!("{f}{}", (b'a' + r as u8 - 1) as char)
}

const ORTH: [(i32, i32); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
const DIAG: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// How a piece moves, in its owner's frame ((x, y), y = +1 forward):
/// single steps, unlimited slides, leaps, and its lion power.
struct Moves {
    steps: Vec<(i32, i32)>,
    slides: Vec<(i32, i32)>,
    jumps: Vec<(i32, i32)>,
    /// The first steps of double moves; `full` lets the second step go
    /// anywhere around the first (the lion).
    lion: Vec<(i32, i32)>,
    full: bool,
}

fn all8() -> Vec<(i32, i32)> {
    ORTH.iter().chain(DIAG.iter()).copied().collect()
}

fn moves(code: &str) -> Moves {
    let f = (0, 1);
    let b = (0, -1);
    let side = vec![(1, 0), (-1, 0)];
    let fdiag = vec![(1, 1), (-1, 1)];
    let bdiag = vec![(1, -1), (-1, -1)];
    let but = |x: (i32, i32)| all8().into_iter().filter(|&d| d != x).collect::<Vec<_>>();
    let cat = |a: &[(i32, i32)], b: &[(i32, i32)]| [a, b].concat();
    let m = |steps: Vec<(i32, i32)>, slides: Vec<(i32, i32)>| Moves {
        steps,
        slides,
        jumps: vec![],
        lion: vec![],
        full: false,
    };
    let lion = || Moves {
        steps: vec![],
        slides: vec![],
        jumps: (-2..=2)
            .flat_map(|x| (-2..=2).map(move |y| (x, y)))
            .filter(|&(x, y)| (x, y) != (0, 0))
            .collect(),
        lion: all8(),
        full: true,
    };
    match code {
        "P" => m(vec![f], vec![]),
        "I" => m(vec![f, b], vec![]),
        "M" | "+C" => m(vec![f, b], side),
        "V" | "+S" => m(side, vec![f, b]),
        "R" | "+G" => m(vec![], ORTH.to_vec()),
        "B" | "+F" => m(vec![], DIAG.to_vec()),
        "D" | "+R" => m(DIAG.to_vec(), ORTH.to_vec()),
        "H" | "+B" => m(ORTH.to_vec(), DIAG.to_vec()),
        "E" | "+I" => m(but(b), vec![]),
        "A" => m(vec![], vec![f, b]),
        "T" => m(but(f), vec![]),
        "O" => Moves {
            jumps: vec![(0, 2), (0, -2), (2, 0), (-2, 0)],
            ..m(DIAG.to_vec(), vec![])
        },
        "X" => Moves {
            jumps: vec![(2, 2), (-2, 2), (2, -2), (-2, -2)],
            ..m(ORTH.to_vec(), vec![])
        },
        "L" => m(vec![], vec![f]),
        "F" => m(cat(&DIAG, &[f, b]), vec![]),
        "C" => m(cat(&fdiag, &[f, b]), vec![]),
        "S" => m(cat(&DIAG, &[f]), vec![]),
        "G" | "+P" => m(cat(&ORTH, &fdiag), vec![]),
        "K" | "+E" => m(all8(), vec![]),
        "N" | "+O" => lion(),
        "Q" | "+X" => m(vec![], all8()),
        "+M" => m(vec![], cat(&side, &DIAG)),
        "+V" => m(vec![], cat(&[f, b], &DIAG)),
        "+A" => m(vec![], cat(&[f, b], &bdiag)),
        "+L" => m(vec![], cat(&[f, b], &fdiag)),
        "+T" => m(cat(&DIAG, &side), vec![f, b]),
        "+D" => Moves {
            jumps: vec![(2, 2), (-2, 2)],
            lion: fdiag.clone(),
            ..m(fdiag.clone(), cat(&ORTH, &bdiag))
        },
        "+H" => Moves {
            jumps: vec![(0, 2)],
            lion: vec![f],
            ..m(vec![f], cat(&cat(&DIAG, &side), &[b]))
        },
        other => panic!("no chu piece {other}"),
    }
}

fn on_board((f, r): (i32, i32)) -> bool {
    (1..=12).contains(&f) && (1..=12).contains(&r)
}

/// The square `d` (owner's frame) away from `at` for a side.
fn toward(at: (i32, i32), d: (i32, i32), sente: bool, k: i32) -> (i32, i32) {
    let s = if sente { 1 } else { -1 };
    (at.0 - s * d.0 * k, at.1 - s * d.1 * k)
}

/// Every square the piece on `at` attacks (own pieces included) by its
/// single moves: steps, slides up to the first piece, leaps.
fn attacks(p: &Pos, at: (i32, i32)) -> Vec<(i32, i32)> {
    let (sente, code) = p.grid[&at].clone();
    let mv = moves(&code);
    let mut out = Vec::new();
    for d in mv.steps.iter().chain(mv.jumps.iter()) {
        out.push(toward(at, *d, sente, 1));
    }
    for d in &mv.slides {
        for k in 1..12 {
            let sq = toward(at, *d, sente, k);
            if !on_board(sq) {
                break;
            }
            out.push(sq);
            if p.grid.contains_key(&sq) {
                break;
            }
        }
    }
    out.retain(|&s| on_board(s));
    out
}

fn attacked(p: &Pos, sq: (i32, i32), by_sente: bool) -> bool {
    p.grid
        .iter()
        .filter(|(_, (s, _))| *s == by_sente)
        .any(|(&at, _)| attacks(p, at).contains(&sq))
}

fn is_lion(code: &str) -> bool {
    code == "N" || code == "+O"
}

fn dist(a: (i32, i32), b: (i32, i32)) -> i32 {
    (a.0 - b.0).abs().max((a.1 - b.1).abs())
}

/// Whether taking on `to` (from `from`, through `mid`) keeps the
/// lion-trading rules.
fn trade_ok(p: &Pos, from: (i32, i32), mid: Option<(i32, i32)>, to: (i32, i32)) -> bool {
    let Some((s, target)) = p.grid.get(&to) else {
        return true;
    };
    if *s == p.sente || !is_lion(target) {
        return true;
    }
    let mover = &p.grid[&from].1;
    if !is_lion(mover) {
        return p.last_lion.is_none_or(|l| l == to);
    }
    if dist(from, to) == 1 {
        return true;
    }
    let first = mid.and_then(|m| p.grid.get(&m)).map(|(_, c)| c.as_str());
    if first.is_some_and(|c| c != "P" && c != "I") {
        return true;
    }
    // Protected: attacked with the lion and the first step's piece gone,
    // or by that pawn or go-between itself.
    let mut q = p.clone();
    q.grid.remove(&from);
    if let Some(m) = mid
        && let Some(piece) = q.grid.remove(&m)
    {
        let mut only = q.clone();
        only.grid = Grid::from([(m, piece)]);
        if attacked(&only, to, !p.sente) {
            return false;
        }
    }
    !attacked(&q, to, !p.sente)
}

fn in_zone(sente: bool, (_, r): (i32, i32)) -> bool {
    if sente { r <= 4 } else { r >= 9 }
}

// Written as lishogi's rule reads, not minimised.
#[allow(clippy::nonminimal_bool)]
fn may_promote(p: &Pos, code: &str, from: (i32, i32), to: (i32, i32)) -> bool {
    if code.starts_with('+') || ["K", "N", "Q"].contains(&code) {
        return false;
    }
    let (zf, zt) = (in_zone(p.sente, from), in_zone(p.sente, to));
    let last = if p.sente { to.1 == 1 } else { to.1 == 12 };
    (zt && !zf)
        || (p.grid.contains_key(&to) && (zf || zt))
        || ((code == "P" || code == "L") && last)
}

/// Every legal move, in USI.
fn legal(p: &Pos) -> Vec<String> {
    let mut out = Vec::new();
    let own = |sq: &(i32, i32)| p.grid.get(sq).is_some_and(|(s, _)| *s == p.sente);
    for (&from, (s, code)) in &p.grid {
        if *s != p.sente {
            continue;
        }
        for to in attacks(p, from) {
            if own(&to) || !trade_ok(p, from, None, to) {
                continue;
            }
            if may_promote(p, code, from, to) {
                out.push(format!("{}{}+", name(from), name(to)));
            }
            out.push(format!("{}{}", name(from), name(to)));
        }
        let mv = moves(code);
        for d in &mv.lion {
            let mid = toward(from, *d, *s, 1);
            if !on_board(mid) || own(&mid) || !trade_ok(p, from, None, mid) {
                continue;
            }
            let seconds: Vec<(i32, i32)> = if mv.full {
                all8().iter().map(|&e| (mid.0 + e.0, mid.1 + e.1)).collect()
            } else {
                vec![toward(from, *d, *s, 2), from]
            };
            for to in seconds {
                if !on_board(to) || (to != from && own(&to)) || !trade_ok(p, from, Some(mid), to) {
                    continue;
                }
                out.push(format!("{}{}{}", name(from), name(mid), name(to)));
            }
        }
    }
    out.sort();
    out
}

fn play(p: &Pos, usi: &str) -> Pos {
    let b = usi.as_bytes();
    let mut squares = Vec::new();
    let mut i = 0;
    while i < b.len() && b[i] != b'+' {
        let start = i;
        while b[i].is_ascii_digit() {
            i += 1;
        }
        squares.push(square(&usi[start..=i]));
        i += 1;
    }
    let promote = usi.ends_with('+');
    let mut q = p.clone();
    let from = squares[0];
    let to = *squares.last().unwrap();
    let mid = (squares.len() == 3).then(|| squares[1]);
    let (s, mut code) = q.grid.remove(&from).unwrap();
    let mover_is_lion = is_lion(&code);
    if promote {
        code = format!("+{code}");
    }
    let on_mid = mid.and_then(|m| q.grid.remove(&m));
    let on_to = q.grid.insert(to, (s, code));
    let lion = |x: &Option<(bool, String)>| x.as_ref().is_some_and(|(_, c)| is_lion(c));
    q.last_lion = if mover_is_lion {
        None
    } else if lion(&on_to) {
        Some(to)
    } else if lion(&on_mid) {
        mid
    } else {
        None
    };
    q.sente = !q.sente;
    q
}

fn perft2(p: &Pos) -> u64 {
    legal(p)
        .iter()
        .map(|m| legal(&play(p, m)).len() as u64)
        .sum()
}

fn rng(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

fn engine_legal(b: &Board) -> Vec<String> {
    let mut v: Vec<String> = b.legal_moves().into_iter().map(|m| b.usi(m)).collect();
    v.sort();
    v
}

/// Lions, falcons, eagles and kirins face to face in the middle, with
/// pawns and go-betweens to take on the way: the lion rules come up often.
const CROWDED: &str = "lfcsgekgscfl/12/3p1i2p3/2+d1n+h1n1o2/3p2i1p3/12/12/3P1I2P3/2O1N+H1N1+D2/3P2I1P3/12/LFCSGKEGSCFL b - 1";

#[test]
fn chu_engines_agree_on_every_legal_move_of_random_games() {
    let mut next = rng(0x0c5e_ed12_3456_7890);
    let (mut positions, mut lion_moves) = (0, 0);
    for (game, start) in [Variant::Chu.rules().start, CROWDED, CROWDED]
        .iter()
        .enumerate()
    {
        let mut b = Board::from_sfen(Variant::Chu, start).unwrap();
        for _ in 0..(60 + 40 * game) {
            let mine = legal(&parse(&b.to_sfen()));
            let theirs = engine_legal(&b);
            assert_eq!(mine, theirs, "at {}", b.to_sfen());
            positions += 1;
            lion_moves += mine
                .iter()
                .filter(|m| m.matches(char::is_alphabetic).count() == 3)
                .count();
            let moves = b.legal_moves();
            if moves.is_empty() || b.royals(b.side()).is_empty() {
                break;
            }
            let m = moves[(next() % moves.len() as u64) as usize];
            b.play_unchecked(m);
        }
    }
    assert!(positions > 150, "only {positions} positions");
    assert!(lion_moves > 1000, "only {lion_moves} double moves compared");
}

#[test]
fn chu_engines_agree_on_perft_2_of_random_positions() {
    let mut next = rng(0x2545_f491_4f6c_dd1d);
    let mut b = Board::from_sfen(Variant::Chu, CROWDED).unwrap();
    let mut checked = 0;
    for ply in 0..30 {
        if ply % 10 == 9 {
            assert_eq!(
                b.perft(2),
                perft2(&parse(&b.to_sfen())),
                "at {}",
                b.to_sfen()
            );
            checked += 1;
        }
        let moves = b.legal_moves();
        if moves.is_empty() || b.royals(b.side()).is_empty() {
            break;
        }
        b.play_unchecked(moves[(next() % moves.len() as u64) as usize]);
    }
    assert_eq!(checked, 3);
}
