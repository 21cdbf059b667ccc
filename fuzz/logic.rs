//! What every fuzz target checks, shared by the cargo-fuzz targets in
//! `fuzz_targets/` and the stable corpus-replay test `tests/it/fuzz_replay.rs`,
//! so a crash found by one is reproduced by the other.
#![allow(dead_code)]

use kifu::emit::kif::KifOptions;
use kifu::input::{ReadOptions, read_bytes};
use kifu::record::Format;
use kifu::replay::Game;
use kifu::{Move, Position, ReplayOptions, Square, parse, replay};

/// Every target, by the name of its corpus directory.
pub const TARGETS: [&str; 12] = [
    "decode",
    "kif",
    "ki2",
    "csa",
    "usi",
    "jkf",
    "roundtrip_kif",
    "roundtrip_ki2",
    "roundtrip_csa",
    "roundtrip_usi",
    "roundtrip_jkf",
    "rules",
];

/// Run target `name` on `data`; panics on a finding.
pub fn run(name: &str, data: &[u8]) {
    match name {
        "decode" => decode(data),
        "kif" => reader(data, Format::Kif),
        "ki2" => reader(data, Format::Ki2),
        "csa" => reader(data, Format::Csa),
        "usi" => reader(data, Format::Usi),
        "jkf" => reader(data, Format::Jkf),
        "roundtrip_kif" => roundtrip(data, Format::Kif),
        "roundtrip_ki2" => roundtrip(data, Format::Ki2),
        "roundtrip_csa" => roundtrip(data, Format::Csa),
        "roundtrip_usi" => roundtrip(data, Format::Usi),
        "roundtrip_jkf" => roundtrip(data, Format::Jkf),
        "rules" => rules(data),
        other => panic!("no fuzz target {other}"),
    }
}

/// Decoding and format detection never panic, and decoded text is UTF-8 by
/// construction; whatever decodes, every parser can be handed.
pub fn decode(data: &[u8]) {
    if let Ok(d) = kifu::decode::decode(data, None) {
        let _ = parse::detect(&d.text, None);
    }
}

/// A reader, then replay of whatever it read: no panic, whatever the bytes.
pub fn reader(data: &[u8], format: Format) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(records) = parse::parse(text, format) {
        for r in records {
            let _ = replay(r, &ReplayOptions::default());
        }
    }
}

/// The legal plies of the main line, in USI.
fn plies(g: &Game) -> Vec<Move> {
    g.main.plies.iter().map(|p| p.mv).collect()
}

/// Read anything; for every game that replays, write it in `to`, read that
/// back and replay it: the main line's legal plies must survive.
pub fn roundtrip(data: &[u8], to: Format) {
    let Ok(input) = read_bytes(data, None, &ReadOptions::default()) else {
        return;
    };
    for record in input.records {
        let Ok(game) = replay(record, &ReplayOptions::default()) else {
            continue;
        };
        let (text, warnings) = match to {
            Format::Kif => kifu::emit::kif::write_with(&game, &KifOptions::utf8()),
            Format::Ki2 => kifu::emit::ki2::write(&game),
            Format::Csa => kifu::emit::csa::write(&game, &Default::default()),
            Format::Usi => kifu::emit::usi::write(&game),
            Format::Jkf => kifu::emit::jkf::write(&game),
            _ => return,
        };
        // Beyond what JKF readers accept the writer says so; that is no finding.
        if warnings.iter().any(|w| w.code == "deep-nesting") {
            continue;
        }
        let back = parse::parse(&text, to)
            .unwrap_or_else(|e| panic!("{to} output does not read back: {e}\n{text}"));
        let back = back
            .into_iter()
            .next()
            .unwrap_or_else(|| panic!("{to} output holds no game:\n{text}"));
        let again = replay(back, &ReplayOptions::default())
            .unwrap_or_else(|e| panic!("{to} output does not replay: {e}\n{text}"));
        assert_eq!(plies(&game), plies(&again), "{to} lost plies:\n{text}");
    }
}

/// `check_move` and `legal_moves` agree. Input: `SFEN\nMOVE` (USI), or else
/// bytes steering a walk from the start position and building a move.
pub fn rules(data: &[u8]) {
    if let Ok(text) = std::str::from_utf8(data)
        && let Some((sfen, mv)) = text.split_once('\n')
    {
        if let (Ok(pos), Some(m)) = (Position::from_sfen(sfen), Move::from_usi(mv.trim())) {
            agree(&pos, m);
        }
        return;
    }
    let mut pos = Position::startpos();
    let mut bytes = data.iter().copied();
    let walk = bytes.next().unwrap_or(0) % 64;
    for _ in 0..walk {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return;
        }
        let i = bytes.next().unwrap_or(0) as usize % moves.len();
        pos.play_unchecked(moves[i]);
    }
    let squares: Vec<Square> = Square::all().collect();
    while let (Some(a), Some(b), Some(c)) = (bytes.next(), bytes.next(), bytes.next()) {
        let to = squares[b as usize % squares.len()];
        let m = if a >= 243 {
            let kinds = [
                kifu::PieceKind::Pawn,
                kifu::PieceKind::Lance,
                kifu::PieceKind::Knight,
                kifu::PieceKind::Silver,
                kifu::PieceKind::Gold,
                kifu::PieceKind::Bishop,
                kifu::PieceKind::Rook,
            ];
            Move::Drop {
                kind: kinds[(a - 243) as usize % kinds.len()],
                to,
            }
        } else {
            Move::Normal {
                from: squares[a as usize % squares.len()],
                to,
                promote: c & 1 == 1,
            }
        };
        agree(&pos, m);
    }
}

fn agree(pos: &Position, m: Move) {
    let by_check = pos.check_move(m);
    let listed = pos.legal_moves().contains(&m);
    assert_eq!(
        by_check.is_ok(),
        listed,
        "{} {}: check_move says {by_check:?}, legal_moves {}",
        pos.to_sfen(),
        m.to_usi(),
        if listed { "lists it" } else { "does not" }
    );
}
