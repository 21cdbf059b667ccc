//! Small hand-played games, each reaching (or just missing) a definition.

use super::*;
use crate::{Format, ReplayOptions, parse, replay};

/// Harmless gote moves for games where only sente's shape matters.
const GOTE_PAD: &[&str] = &[
    "1c1d", "9c9d", "1d1e", "9d9e", "1a1c", "9a9c", "6a6b", "6b6a", "6a6b", "6b6a", "6a6b", "6b6a",
];
/// Harmless sente moves for games where only gote's shape matters.
const SENTE_PAD: &[&str] = &[
    "1g1f", "9g9f", "1f1e", "9f9e", "1i1g", "9i9g", "4i4h", "4h4i", "4i4h", "4h4i", "4i4h", "4h4i",
];

fn game_of(moves: &[&str]) -> Game {
    let usi = format!("position startpos moves {}\n", moves.join(" "));
    let record = parse::parse(&usi, Format::Usi).unwrap().remove(0);
    let game = replay(record, &ReplayOptions::default()).unwrap();
    assert_eq!(
        game.main.plies.len(),
        moves.len(),
        "every move is legal: {:?}",
        game.main.verdict
    );
    game
}

/// Sente plays `sente`, gote answers each with a move of `gote` or, when
/// it has run out, a pad move.
fn sente_plays(sente: &[&str], gote: &[&str]) -> Opening {
    let mut moves = Vec::new();
    let mut pad = GOTE_PAD.iter();
    for (i, m) in sente.iter().enumerate() {
        moves.push(*m);
        if i + 1 < sente.len() {
            moves.push(gote.get(i).copied().unwrap_or_else(|| pad.next().unwrap()));
        }
    }
    classify(&game_of(&moves))
}

/// Gote plays `gote`, each after a sente pad move.
fn gote_plays(gote: &[&str]) -> Opening {
    let mut moves = Vec::new();
    for (m, pad) in gote.iter().zip(SENTE_PAD) {
        moves.push(*pad);
        moves.push(*m);
    }
    classify(&game_of(&moves))
}

fn names(list: &[Found]) -> Vec<&str> {
    list.iter().map(|f| f.name.as_str()).collect()
}

fn ply_of(list: &[Found], name: &str) -> Option<u32> {
    list.iter().find(|f| f.name == name).map(|f| f.ply)
}

const SHIKEN_MINO: &[&str] = &[
    "7g7f", "6g6f", "2h6h", "5i4h", "4h3h", "3h2h", "3i3h", "6i5h",
];

#[test]
fn shikenbisha_with_hon_mino_is_taikoukei() {
    let o = sente_plays(SHIKEN_MINO, &[]);
    assert_eq!(ply_of(&o.sente.strategy, "四間飛車"), Some(5));
    assert_eq!(ply_of(&o.sente.castle, "片美濃囲い"), Some(13));
    assert_eq!(ply_of(&o.sente.castle, "本美濃囲い"), Some(15));
    assert_eq!(o.sente.main_castle().unwrap().name, "本美濃囲い");
    assert_eq!(o.kind, GameKind::Taikoukei);
    assert_eq!(o.game, "四間飛車 vs 居飛車");
    assert!(o.gote.strategy.iter().all(|f| f.name != "四間飛車"));
}

#[test]
fn mino_needs_the_silver_on_38() {
    let o = sente_plays(&SHIKEN_MINO[..6], &[]);
    let family = |f: &Found| Table::builtin().get(&f.name).unwrap().family.clone();
    assert!(
        o.sente.castle.iter().all(|f| family(f) != "美濃"),
        "{:?}",
        o.sente.castle
    );
}

#[test]
fn rook_on_the_fifth_file_is_nakabisha_not_shikenbisha() {
    let o = sente_plays(&["7g7f", "5g5f", "2h5h"], &[]);
    assert!(names(&o.sente.strategy).contains(&"中飛車"));
    assert!(!names(&o.sente.strategy).contains(&"四間飛車"));
    assert_eq!(o.game, "ゴキゲン中飛車 vs 居飛車");
}

#[test]
fn gotes_squares_are_mirrored() {
    let o = gote_plays(&["3c3d", "8b4b", "5a6b", "6b7b", "7b8b", "7a7b", "4a5b"]);
    assert_eq!(ply_of(&o.gote.strategy, "四間飛車"), Some(4));
    assert_eq!(o.gote.main_castle().unwrap().name, "本美濃囲い");
    assert!(o.sente.castle.is_empty(), "{:?}", o.sente.castle);
    assert_eq!(o.game, "四間飛車 vs 居飛車");
}

const YAGURA: &[&str] = &[
    "7g7f", "6g6f", "6i7h", "7i6h", "6h7g", "8h7i", "7i6h", "4i5h", "5h6g", "5i6i", "6i7i", "7i8h",
];

#[test]
fn kin_yagura_and_the_yagura_strategy() {
    let o = sente_plays(YAGURA, &[]);
    assert_eq!(ply_of(&o.sente.strategy, "矢倉"), Some(9));
    assert_eq!(ply_of(&o.sente.castle, "金矢倉"), Some(23));
    assert_eq!(o.kind, GameKind::Aiibisha);
    assert_eq!(o.game, "矢倉");
}

#[test]
fn yagura_castle_needs_the_king_in_it() {
    let o = sente_plays(&YAGURA[..10], &[]);
    assert!(o.sente.strategy.iter().any(|f| f.name == "矢倉"));
    assert_eq!(ply_of(&o.sente.castle, "金矢倉"), None);
}

const KAKUGAWARI: &[&str] = &[
    "7g7f", "2g2f", "2f2e", "8h2b+", "7i8h", "3i4h", "4g4f", "4h4g",
];
const KAKUGAWARI_GOTE: &[&str] = &["3c3d", "8c8d", "8d8e", "3a2b", "7a7b"];

#[test]
fn kakugawari_koshikake_gin() {
    let mut sente = KAKUGAWARI.to_vec();
    sente.push("4g5f");
    let o = sente_plays(&sente, KAKUGAWARI_GOTE);
    assert_eq!(ply_of(&o.sente.strategy, "角換わり"), Some(7));
    assert_eq!(ply_of(&o.gote.strategy, "角換わり"), Some(8));
    assert!(ply_of(&o.sente.strategy, "角換わり腰掛け銀").is_some());
    assert_eq!(o.game, "角換わり腰掛け銀");
}

#[test]
fn silver_on_46_is_hayakuri_gin_not_koshikake_gin() {
    let sente = [
        "7g7f", "2g2f", "2f2e", "8h2b+", "7i8h", "3i4h", "3g3f", "4h3g", "3g4f",
    ];
    let o = sente_plays(&sente, KAKUGAWARI_GOTE);
    assert_eq!(ply_of(&o.sente.strategy, "角換わり腰掛け銀"), None);
    assert!(ply_of(&o.sente.strategy, "角換わり早繰り銀").is_some());
    assert_eq!(o.game, "角換わり早繰り銀");
}

const YOKOFU: &[&str] = &[
    "7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e", "2e2d", "2c2d", "2h2d", "8e8f", "8g8f", "8b8f",
];

#[test]
fn yokofudori_supersedes_aigakari() {
    let mut moves = YOKOFU.to_vec();
    moves.push("2d3d");
    let o = classify(&game_of(&moves));
    assert_eq!(ply_of(&o.sente.strategy, "横歩取り"), Some(13));
    assert_eq!(ply_of(&o.sente.strategy, "相掛かり"), None);
    assert_eq!(o.game, "横歩取り");
}

#[test]
fn rook_pawn_exchange_without_the_side_pawn_is_aigakari() {
    let mut moves = YOKOFU.to_vec();
    moves.push("2d2f");
    let o = classify(&game_of(&moves));
    assert_eq!(ply_of(&o.sente.strategy, "横歩取り"), None);
    assert!(ply_of(&o.sente.strategy, "相掛かり").is_some());
    assert_eq!(o.game, "相掛かり");
}

#[test]
fn both_sides_ranging_is_aifuribisha() {
    let moves = ["7g7f", "3c3d", "2h7h", "8b3b"];
    let o = classify(&game_of(&moves));
    assert_eq!(o.kind, GameKind::Aifuribisha);
    assert_eq!(o.game, "相三間飛車");
}

#[test]
fn handicap_games_get_no_even_game_names() {
    // 二枚落ち written out as a SFEN: 上手 (gote) moves first.
    let sfen = "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1";
    let usi = format!(
        "position sfen {sfen} moves 5c5d 2g2f 6a5b 2f2e 5b5c 3g3f 1c1d 4g4f 1d1e 3f3e 9c9d 4f4e\n"
    );
    let record = parse::parse(&usi, Format::Usi).unwrap().remove(0);
    let game = replay(record, &ReplayOptions::default()).unwrap();
    let o = classify(&game);
    assert_eq!(game.main.plies.len(), 12, "{:?}", game.main.verdict);
    assert_eq!(o.kind, GameKind::Handicap);
    assert!(o.game.starts_with("二枚落ち"), "{}", o.game);
    assert!(
        ply_of(&o.sente.strategy, "二歩突っ切り").is_some(),
        "{:?}",
        o.sente
    );
    assert!(
        o.sente
            .strategy
            .iter()
            .all(|f| f.name != "角換わり" && f.name != "相掛かり")
    );
}

#[test]
fn a_set_up_position_is_named_as_such() {
    let usi = "position sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1 moves G*5b\n";
    let record = parse::parse(usi, Format::Usi).unwrap().remove(0);
    let game = replay(record, &ReplayOptions::default()).unwrap();
    let o = classify(&game);
    assert_eq!(o.kind, GameKind::Setup);
}

#[test]
fn the_builtin_table_is_large_enough() {
    let t = Table::builtin();
    let count = |k: EntryKind| t.entries().iter().filter(|e| e.kind == k).count();
    assert!(count(EntryKind::Castle) >= 40);
    assert!(count(EntryKind::Strategy) >= 30);
    for e in t.entries() {
        assert!(
            !e.en.is_empty() && !e.family.is_empty(),
            "{} at line {}",
            e.name,
            e.line
        );
    }
}

#[test]
fn table_errors_say_where() {
    let err = Table::parse("[castle A]\nen: a\nneed: K2\n").unwrap_err();
    assert_eq!(err.line, 3);
    let err = Table::parse("[strategy B]\nafter: C\n").unwrap_err();
    assert!(err.message.contains("`C`"), "{err}");
    assert_eq!(Table::parse("en: x\n").unwrap_err().line, 1);
}

#[test]
fn a_table_naming_more_than_64_moves_is_refused_not_cut_short() {
    let moves = |n: usize| {
        let squares = (1..=9).flat_map(|f| (1..=9).map(move |r| format!("P*{f}{r}")));
        squares.take(n).collect::<Vec<_>>().join(" ")
    };
    assert!(Table::parse(&format!("[strategy A]\nplayed: {}\n", moves(64))).is_ok());
    let err = Table::parse(&format!("[strategy A]\nplayed: {}\n", moves(65))).unwrap_err();
    assert_eq!(err.line, 2);
    assert!(err.message.contains("64"), "{err}");
}
