use super::*;
use crate::Position;
use crate::emit::kakinoki::fixtures::{NESTED_VARIATIONS, NIFU_THEN_MOVES, assert_nifu_written};
use crate::replay::{ReplayOptions, replay};
use crate::rules::setup::Setup;
use crate::rules::types::{Color, Move, Piece, PieceKind, Square};

fn game_from_kif(kif: &str) -> Game {
    let rec = crate::emit::read_for_test(kif, crate::Format::Kif).remove(0);
    replay(rec, &ReplayOptions::default()).unwrap()
}

fn game_from_ki2(ki2: &str) -> Game {
    let rec = crate::emit::read_for_test(ki2, crate::Format::Ki2).remove(0);
    replay(rec, &ReplayOptions::default()).unwrap()
}

/// Reading what was written and writing it again gives the same text.
fn stable(text: &str) {
    assert_eq!(write(&game_from_ki2(text)).0, text);
}

fn sq(f: u8, r: u8) -> Square {
    Square::new(f, r).unwrap()
}

/// The KI2 text of `usi` in a composed position: kings on 1九 (sente) and
/// 1三 (gote), out of every example's way, plus `pieces`.
fn ki2(pieces: &[(Color, PieceKind, u8, u8)], hand: &[PieceKind], gote: bool, usi: &str) -> String {
    let mut s = Setup::EMPTY;
    s.set(sq(1, 9), Some(Piece::new(Color::Sente, PieceKind::King)));
    s.set(sq(1, 3), Some(Piece::new(Color::Gote, PieceKind::King)));
    for &(c, k, f, r) in pieces {
        s.set(sq(f, r), Some(Piece::new(c, k)));
    }
    let mover = if gote { Color::Gote } else { Color::Sente };
    for &k in hand {
        s.hands[mover.index()].add(k);
    }
    s.side_to_move = mover;
    let pos = Position::from_setup(&s).unwrap();
    let mv = Move::from_usi(usi).unwrap();
    let piece = match mv {
        Move::Drop { kind, .. } => kind,
        Move::Normal { from, .. } => pos.piece_at(from).unwrap().kind,
    };
    crate::notation::ki2_move(&pos, mover, mv, piece, false)
}

const S: Color = Color::Sente;
const G: Color = Color::Gote;
use PieceKind::{Dragon, Gold, Knight, Silver};

#[test]
fn worked_examples_of_ki2_md_7_1() {
    let golds3: &[_] = &[(S, Gold, 6, 9), (S, Gold, 5, 9), (S, Gold, 4, 9)];
    let golds_abreast: &[_] = &[(S, Gold, 6, 7), (S, Gold, 4, 7)];
    let golds_apart: &[_] = &[(S, Gold, 5, 6), (S, Gold, 4, 8)];
    let golds_corner: &[_] = &[(S, Gold, 6, 6), (S, Gold, 6, 5), (S, Gold, 5, 6)];
    let dragons: &[_] = &[(S, Dragon, 6, 1), (S, Dragon, 5, 1)];
    let dragons_corner: &[_] = &[(S, Dragon, 9, 2), (S, Dragon, 8, 1)];
    let gote_golds: &[_] = &[(G, Gold, 6, 1), (G, Gold, 4, 1)];
    let knights: &[_] = &[(S, Knight, 7, 9), (S, Knight, 9, 9)];
    let silvers: &[_] = &[(S, Silver, 4, 3), (S, Silver, 6, 5)];
    let silvers3: &[_] = &[(S, Silver, 4, 3), (S, Silver, 6, 3), (S, Silver, 6, 5)];
    let gold: &[_] = &[(S, Gold, 5, 9)];
    // The pieces on the board besides the kings, a move, and its KI2 (△
    // when gote moves; a drop is of a piece in the mover's hand).
    for (pieces, usi, written) in [
        (golds3, "6i5h", "▲５八金左"),
        (golds3, "5i5h", "▲５八金直"),
        (golds3, "4i5h", "▲５八金右"),
        (golds_abreast, "4g5g", "▲５七金右"),
        (golds_apart, "5f5g", "▲５七金引"),
        (golds_apart, "4h5g", "▲５七金上"),
        (golds_corner, "6f5e", "▲５五金左上"),
        (golds_corner, "6e5e", "▲５五金寄"),
        (golds_corner, "5f5e", "▲５五金直"),
        (dragons, "6a5b", "▲５二龍左"),
        (dragons, "5a5b", "▲５二龍右"),
        (dragons_corner, "9b8b", "▲８二龍寄"),
        (dragons_corner, "8a8b", "▲８二龍引"),
        // Gote's right is the higher file numbers.
        (gote_golds, "6a5b", "△５二金右"),
        (gote_golds, "4a5b", "△５二金左"),
        (knights, "9i8g", "▲８七桂左"),
        (silvers, "4c5d", "▲５四銀引不成"),
        (silvers3, "4c5d", "▲５四銀右不成"),
        (silvers3, "6c5d", "▲５四銀左引不成"),
        (silvers3, "6e5d", "▲５四銀上"),
        // 打 only when a board piece of the kind could also go there.
        (gold, "G*5h", "▲５八金打"),
        (gold, "G*4e", "▲４五金"),
        (&[(S, PieceKind::Pawn, 2, 4)], "2d2c+", "▲２三歩成"),
        (&[(S, Silver, 3, 4)], "3d3c", "▲３三銀不成"),
    ] {
        let hand: &[PieceKind] = match Move::from_usi(usi) {
            Some(Move::Drop { kind, .. }) => &[kind],
            _ => &[],
        };
        let gote = written.starts_with('△');
        assert_eq!(ki2(pieces, hand, gote, usi), written, "{usi}");
    }
}

#[test]
fn same_keeps_the_space_only_before_a_bare_piece() {
    let pos = |sfen: &str| Position::from_sfen(sfen).unwrap();
    // A sente pawn on 2四 takes on 2三, where the previous move went.
    let p = pos("4k4/9/7p1/7P1/9/9/9/9/4K4 b - 1");
    let m = Move::from_usi("2d2c+").unwrap();
    assert_eq!(
        crate::notation::ki2_move(&p, S, m, PieceKind::Pawn, true),
        "▲同歩成"
    );
    let m = Move::from_usi("2d2c").unwrap();
    assert_eq!(
        crate::notation::ki2_move(&p, S, m, PieceKind::Pawn, true),
        "▲同歩不成"
    );
    let p = pos("4k4/9/7p1/7+S1/9/9/9/9/4K4 b - 1");
    let m = Move::from_usi("2d2c").unwrap();
    assert_eq!(
        crate::notation::ki2_move(&p, S, m, PieceKind::ProSilver, true),
        "▲同成銀"
    );
}

const SAMPLE_KIF: &str = "開始日時：2024/04/01 10:00:00\n棋戦：練習対局\n持ち時間：各10分\n\
手合割：平手\n先手：Alice\n後手：Bob\n手数----指手--\n*初期局面へのコメント\n\
1 ２六歩(27)\n2 ８四歩(83)\n3 ２五歩(26)\n4 ８五歩(84)\n5 ７八金(69)\n6 ３二金(41)\n\
7 ２四歩(25)\n8 同　歩(23)\n9 同　飛(28)\n10 ２三歩打\n&基本図\n11 ２六飛(24)+\n\
*浮き飛車に構えた。\n12 投了\nまで11手で先手の勝ち\n\n変化：11手\n11 ２八飛(24)\n12 中断\n";

/// `ki2.md` §8, byte for byte: six moves a line padded to 12 columns,
/// `同　`, no 打 on an unambiguous drop, early breaks after a bookmark and a
/// comment, the `まで` lines and a variation block.
#[test]
fn the_sample_of_ki2_md_8() {
    let (text, warnings) = write(&game_from_kif(SAMPLE_KIF));
    assert!(warnings.is_empty(), "{warnings:?}");
    let expected = "開始日時：2024/04/01 10:00:00
棋戦：練習対局
持ち時間：各10分
手合割：平手
先手：Alice
後手：Bob
*初期局面へのコメント
▲２六歩    △８四歩    ▲２五歩    △８五歩    ▲７八金    △３二金
▲２四歩    △同　歩    ▲同　飛    △２三歩
&基本図
▲２六飛
*浮き飛車に構えた。
まで11手で先手の勝ち

変化：  11手
▲２八飛
まで11手で中断
";
    assert_eq!(text, expected);
    stable(&text);
    let (bytes, w) = write_sjis(&game_from_kif(SAMPLE_KIF));
    assert!(w.is_empty());
    assert!(bytes.windows(2).any(|b| b == b"\r\n"));
    let crlf = text.replace('\n', "\r\n");
    assert_eq!(bytes, encoding_rs::SHIFT_JIS.encode(&crlf).0.as_ref());
}

#[test]
fn handicap_games_name_shitate_and_uwate() {
    let src = "手合割：香落ち\n先手：下の人\n後手：上の人\n1 ５二金(41)\n2 ７六歩(77)\n3 投了\n";
    let (text, _) = write(&game_from_kif(src));
    assert_eq!(
        text,
        "手合割：香落ち\n下手：下の人\n上手：上の人\n△５二金左  ▲７六歩\nまで2手で下手の勝ち\n"
    );
    stable(&text);
}

#[test]
fn foul_move_is_written_and_later_moves_are_comments() {
    let (text, warnings) = write(&game_from_kif(NIFU_THEN_MOVES));
    assert_eq!(
        text,
        "手合割：平手\n▲７六歩    △３四歩    ▲７五歩打\nまで3手で後手の反則勝ち\n*4 ８四歩(83)\n*5 ２六歩(27)\n"
    );
    assert_nifu_written(&warnings, &game_from_ki2(&text));
    stable(&text);
}

#[test]
fn times_are_dropped_with_one_warning() {
    let src = "1 ７六歩(77) (0:05/0:0:05)\n2 ３四歩(33) (0:02/)\n\
               変化：2手\n2 ８四歩(83) (0:03/)\n";
    let (text, warnings) = write(&game_from_kif(src));
    let codes: Vec<_> = warnings.iter().map(|w| w.code.code()).collect();
    assert_eq!(codes, ["times-dropped"]);
    assert_eq!(
        text,
        "手合割：平手\n▲７六歩    △３四歩\n\n変化：   2手\n△８四歩\n"
    );
    stable(&text);
}

#[test]
fn long_lines_break_after_six_moves_and_after_comments() {
    let src = "1 ７六歩(77)\n2 ３四歩(33)\n3 ２六歩(27)\n4 ８四歩(83)\n5 ２五歩(26)\n\
               6 ８五歩(84)\n7 ７八金(69)\n*a\n8 ３二金(41)\n9 ２四歩(25)\n10 同　歩(23)\n\
               11 同　飛(28)\n12 ２三歩打\n13 ２八飛(24)\n14 ８八角成(22)\n15 同　銀(79)\n";
    let (text, _) = write(&game_from_kif(src));
    let expected = "手合割：平手
▲７六歩    △３四歩    ▲２六歩    △８四歩    ▲２五歩    △８五歩
▲７八金
*a
△３二金    ▲２四歩    △同　歩    ▲同　飛    △２三歩    ▲２八飛
△８八角成  ▲同　銀
";
    assert_eq!(text, expected);
    stable(&text);
}

#[test]
fn nested_variations_follow_the_kif_order() {
    let (text, _) = write(&game_from_kif(NESTED_VARIATIONS));
    let expected = "手合割：平手
▲７六歩    △３四歩    ▲２二角成  △同　銀
まで4手で中断

変化：   3手
▲２六歩    △８四歩

変化：   4手
△８八角成

変化：   2手
△８四歩    ▲２六歩

変化：   1手
▲２六歩
";
    assert_eq!(text, expected);
    stable(&text);
}
