//! The classifier against its definition: after every ply, every entry of
//! the table tested for both sides on the position itself. The classifier
//! tests far less (only what a ply's events concern, behind gates, and
//! never what has settled); this says it finds the same thing at the same
//! ply.

use super::classify::run;
use super::table::{Entry, EntryKind, Placed, Played, Sides, Start};
use super::*;
use crate::rules::position::Position;
use crate::rules::types::{Color, Piece, PieceKind, Square};
use crate::{Format, ReplayOptions, parse, replay};

/// `sq` of sente's as `c` sees it (as the table's squares are mirrored).
fn seen(sq: Square, c: Color) -> Square {
    match c {
        Color::Sente => sq,
        Color::Gote => Square::new(10 - sq.file(), 10 - sq.rank()).unwrap_or(sq),
    }
}

fn stands(pos: &Position, c: Color, p: &Placed) -> bool {
    pos.piece_at(seen(p.square, c)) == Some(Piece::new(c, p.kind))
}

/// Whether `e`'s pieces, hand and rook hold for `c` at `pos`, and `c` has
/// played every move it names (`moves`, as sente sees them).
fn holds(e: &Entry, pos: &Position, c: Color, moves: &[Played]) -> bool {
    let hand = pos.hand(c);
    let rook_files = e.rook.is_none_or(|(a, b)| {
        let mut rooks =
            Square::all().filter(|&sq| pos.piece_at(sq) == Some(Piece::new(c, PieceKind::Rook)));
        rooks.any(|sq| (a..=b).contains(&seen(sq, c).file()))
    });
    e.need.iter().all(|p| stands(pos, c, p))
        && !e.not.iter().any(|p| stands(pos, c, p))
        && e.any.iter().all(|g| g.iter().any(|p| stands(pos, c, p)))
        && e.hand.iter().all(|&(k, n)| hand.count(k) >= n)
        && e.nohand.iter().all(|&k| hand.count(k) == 0)
        && rook_files
        && e.played.iter().all(|m| moves.contains(m))
}

fn applies(e: &Entry, c: Color, start: StartKind) -> bool {
    let side = match e.side {
        Sides::Both => true,
        Sides::Sente => c == Color::Sente,
        Sides::Gote => c == Color::Gote,
    };
    let fits = match e.start {
        Start::Any => true,
        Start::Even => start == StartKind::Even,
        Start::Handicap => start == StartKind::Handicap,
    };
    e.kind != EntryKind::Game && side && fits
}

/// `(entry, ply)` for each entry that held for each side, in table order.
fn slowly(table: &Table, game: &Game) -> [Vec<(usize, u32)>; 2] {
    let start = start_kind(game);
    let entries = table.entries();
    let last = entries
        .iter()
        .filter(|e| e.kind != EntryKind::Game)
        .map(|e| e.plies.1)
        .max();
    let plies = &game.main.plies[..game.main.plies_before_foul()];
    let mut pos = game.start.clone();
    let mut moves: [Vec<Played>; 2] = [Vec::new(), Vec::new()];
    let mut first = [vec![0u32; entries.len()], vec![0u32; entries.len()]];
    for (i, p) in plies.iter().enumerate() {
        let ply = i as u32 + 1;
        if Some(ply) > last {
            break;
        }
        pos.play_unchecked(p.mv);
        moves[p.color.index()].push(Played {
            kind: p.piece,
            from: p.mv.from().map(|f| seen(f, p.color)),
            to: seen(p.mv.to(), p.color),
        });
        for c in Color::ALL {
            let s = c.index();
            // Table order: a parent comes before its children, which may
            // hold in the same position.
            for (i, e) in entries.iter().enumerate() {
                let open = (e.plies.0..=e.plies.1).contains(&ply);
                let parent = e.after.is_none_or(|a| first[s][a] != 0);
                if first[s][i] == 0
                    && open
                    && parent
                    && applies(e, c, start)
                    && holds(e, &pos, c, &moves[s])
                {
                    first[s][i] = ply;
                }
            }
        }
    }
    first.map(|f| f.into_iter().enumerate().filter(|x| x.1 != 0).collect())
}

fn quickly(table: &Table, game: &Game) -> [Vec<(usize, u32)>; 2] {
    let plies = &game.main.plies[..game.main.plies_before_foul()];
    let held = run(&table.index, &game.start, plies, start_kind(game));
    held.found.map(|mut f| {
        f.sort_unstable();
        f
    })
}

fn game_of_usi(line: &str) -> Game {
    let record = parse::parse(line, Format::Usi).unwrap().remove(0);
    replay(record, &ReplayOptions::default()).unwrap()
}

/// Games of random legal moves from `start` (a SFEN), `n` of `plies` each.
fn random_games(start: &str, n: usize, plies: usize, seed: u64) -> Vec<Game> {
    let mut next = crate::test_rng::xorshift(seed);
    (0..n)
        .map(|_| {
            let mut pos = Position::from_sfen(start).unwrap();
            let mut usi = Vec::new();
            for _ in 0..plies {
                let moves = pos.legal_moves();
                let Some(&m) = moves.get(next() as usize % moves.len().max(1)) else {
                    break;
                };
                usi.push(m.to_string());
                pos.play_unchecked(m);
            }
            game_of_usi(&format!("position sfen {start} moves {}\n", usi.join(" ")))
        })
        .collect()
}

#[test]
fn the_classifier_finds_what_testing_every_entry_after_every_ply_finds() {
    let table = Table::builtin();
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/openings");
    let mut games = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        games.extend(
            text.lines()
                .filter(|l| l.starts_with("position"))
                .map(game_of_usi),
        );
    }
    assert!(games.len() >= 140, "{} fixture games", games.len());
    let even = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    let two_pieces = "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
    let set_up = "4k4/9/9/9/9/9/9/9/4K4 b RB2G2S4P 1";
    games.extend(random_games(even, 60, 90, 0x5851_f42d_4c95_7f2d));
    games.extend(random_games(two_pieces, 20, 90, 0x1405_7b7e_f767_814f));
    games.extend(random_games(set_up, 10, 60, 0x9e37_79b9_7f4a_7c15));
    let mut found = 0;
    for game in &games {
        let slow = slowly(table, game);
        assert_eq!(quickly(table, game), slow, "{:?}", game.record.start);
        found += slow[0].len() + slow[1].len();
    }
    assert!(found > 500, "only {found} findings");
}

/// The same on every game of the corpus beside the checkout.
#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn the_classifier_finds_what_testing_every_entry_finds_on_the_corpus() {
    let table = Table::builtin();
    let mut dirs = vec![std::path::PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/corpus"
    ))];
    let (mut games, mut found) = (0, 0);
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
                continue;
            }
            let Ok(input) = crate::input::read_path(&path, &crate::input::ReadOptions::default())
            else {
                continue;
            };
            for record in input.records {
                let Ok(game) = replay(record, &ReplayOptions::default()) else {
                    continue;
                };
                let slow = slowly(table, &game);
                assert_eq!(quickly(table, &game), slow, "{}", path.display());
                games += 1;
                found += slow[0].len() + slow[1].len();
            }
        }
    }
    assert!(
        games > 400 && found > 1000,
        "{games} games, {found} findings"
    );
}
