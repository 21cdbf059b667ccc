//! The JKF writer's own cases; `tests/it/jkf.rs` holds the corpus sweeps
//! and the byte-for-byte comparison with the writer as it was.

use super::*;
use crate::replay::{ReplayOptions, replay};
use serde_json::{Value, json};

fn game(text: &str) -> Game {
    let r = crate::emit::read_for_test(text, crate::Format::Jkf).remove(0);
    replay(r, &ReplayOptions::default()).unwrap()
}

fn round(text: &str) -> (Value, Vec<Warning>) {
    let (s, w) = write(&game(text));
    (serde_json::from_str(&s).unwrap(), w)
}

#[test]
fn normalised_fields_are_filled_in() {
    let (v, w) = round(
        r#"{"header":{"N+":"A"},"moves":[{},
{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"}},
{"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"piece":"FU"}},
{"move":{"from":{"x":8,"y":8},"to":{"x":2,"y":2},"piece":"KA","promote":true}},
{"move":{"from":{"x":3,"y":1},"to":{"x":2,"y":2},"piece":"GI"},"time":{"now":{"m":0,"s":3}}},
{"special":"TORYO"}]}"#,
    );
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(v["header"]["先手"], "A");
    assert_eq!(v["initial"]["preset"], "HIRATE");
    let m3 = &v["moves"][3]["move"];
    assert_eq!(m3["color"], 0);
    assert_eq!(m3["capture"], "KA");
    assert_eq!(m3["promote"], true);
    let m4 = &v["moves"][4];
    assert_eq!(m4["move"]["same"], true);
    assert_eq!(m4["move"]["capture"], "UM");
    assert_eq!(m4["move"]["color"], 1);
    assert_eq!(m4["time"]["total"], json!({"h": 0, "m": 0, "s": 3}));
    assert_eq!(v["moves"][5]["special"], "TORYO");
}

#[test]
fn foul_is_written_then_named() {
    let (v, w) = round(
        r#"{"header":{},"moves":[{},
{"move":{"color":0,"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"}},
{"move":{"color":1,"from":{"x":3,"y":3},"to":{"x":3,"y":4},"piece":"FU"}},
{"move":{"color":0,"from":{"x":8,"y":8},"to":{"x":1,"y":1},"piece":"KA"}},
{"move":{"color":1,"from":{"x":4,"y":1},"to":{"x":3,"y":2},"piece":"KI"}},
{"special":"TORYO"}]}"#,
    );
    let moves = v["moves"].as_array().unwrap();
    // The bishop's path is blocked at 2二: the foul move is written, then the offender.
    assert_eq!(moves[3]["move"]["to"], json!({"x": 1, "y": 1}));
    assert_eq!(moves[4]["special"], "+ILLEGAL_ACTION");
    assert!(moves[4]["comments"].to_string().contains("TORYO"));
    assert!(w.iter().any(|w| w.code == "moves-after-foul"));
    assert_eq!(moves.len(), 5);
}

#[test]
fn custom_start_is_written_as_data() {
    let mut board = vec![vec![json!({}); 9]; 9];
    board[4][8] = json!({"color":0,"kind":"OU"});
    board[4][0] = json!({"color":1,"kind":"OU"});
    let doc = json!({"header":{},"initial":{"preset":"OTHER","data":{
        "color":0,"board":board,"hands":[{"KI":1},{}]}},
        "moves":[{"comments":["詰将棋"]},{"move":{"color":0,"to":{"x":5,"y":2},"piece":"KI"}}]});
    let (v, _) = round(&doc.to_string());
    assert_eq!(v["initial"]["preset"], "OTHER");
    assert_eq!(v["initial"]["data"]["board"][4][8]["kind"], "OU");
    assert_eq!(v["initial"]["data"]["hands"][0]["KI"], 1);
    assert_eq!(v["moves"][0]["comments"][0], "詰将棋");
    assert!(v["moves"][1]["move"].get("from").is_none());
}

#[test]
fn relative_codes_are_computed() {
    let (v, _) = round(
        r#"{"header":{},"moves":[{},
{"move":{"from":{"x":6,"y":9},"to":{"x":5,"y":8},"piece":"KI"}}]}"#,
    );
    assert_eq!(v["moves"][1]["move"]["relative"], "L");
}

#[test]
fn csa_header_keys_bookmarks_and_unheld_endings() {
    use crate::record::{Ending, HeaderField, Location};
    let mut r = crate::emit::read_for_test(
        r#"{"header":{},"moves":[{},
{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"}}]}"#,
        crate::Format::Jkf,
    )
    .remove(0);
    let field = |k: &str, v: &str| HeaderField {
        key: k.into(),
        value: v.into(),
        span: Location::default(),
    };
    r.header = vec![
        field("N+", "A"),
        field("N-", "B"),
        field("EVENT", "E"),
        field("SITE", "S"),
        field("START_TIME", "T0"),
        field("END_TIME", "T1"),
        field("OPENING", "YAGURA"),
    ];
    r.main.moves[0].extra_mut().bookmarks.push("mark".into());
    r.main.ending = Some(Ending {
        kind: EndingKind::MaxMoves,
        text: "%MAX_MOVES".into(),
        span: Location::default(),
        time: None,
        comments: Vec::new(),
    });
    let (s, w) = write(&replay(r, &ReplayOptions::default()).unwrap());
    let v: Value = serde_json::from_str(&s).unwrap();
    let keys: Vec<&String> = v["header"].as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "先手",
            "後手",
            "棋戦",
            "場所",
            "開始日時",
            "終了日時",
            "OPENING"
        ]
    );
    assert_eq!(v["moves"][2]["special"], "CHUDAN");
    let codes: Vec<&str> = w.iter().map(|w| w.code.code()).collect();
    // Kept as the JKF KIF grammar keeps bookmarks: a comment led by `&`.
    assert_eq!(v["moves"][1]["comments"][0], "&mark");
    assert!(!codes.contains(&"bookmarks-dropped"), "{codes:?}");
    assert!(codes.contains(&"ending-changed"), "{codes:?}");
}

#[test]
fn forks_nest_and_start_from_their_branch_point() {
    let mv = |fx: u8, fy: u8, tx: u8, ty: u8| {
        format!(
            r#"{{"move":{{"from":{{"x":{fx},"y":{fy}}},"to":{{"x":{tx},"y":{ty}}},"piece":"FU"}}"#
        )
    };
    // 1.76FU (alt 26FU 34FU (alt 84FU)) 2.34FU
    let text = format!(
        r#"{{"header":{{}},"moves":[{{}},{},"forks":[[{}}},{},"forks":[[{}}}]]}}]]}},{}}}]}}"#,
        mv(7, 7, 7, 6),
        mv(2, 7, 2, 6),
        mv(3, 3, 3, 4),
        mv(8, 3, 8, 4),
        mv(3, 3, 3, 4),
    );
    let g = game(&text);
    assert_eq!(g.variations.len(), 2);
    assert!(g.variations.iter().all(|v| v.line.verdict.is_legal()));
    let (s, w) = write(&g);
    assert!(w.is_empty(), "{w:?}");
    let v: Value = serde_json::from_str(&s).unwrap();
    let fork = &v["moves"][1]["forks"][0];
    assert_eq!(fork[0]["move"]["color"], 0);
    assert_eq!(
        fork[1]["forks"][0][0]["move"]["to"],
        json!({"x": 8, "y": 4})
    );
    assert_eq!(fork[1]["forks"][0][0]["move"]["color"], 1);
}

#[test]
fn a_comment_that_would_read_back_as_a_mark_stays_a_comment_and_marks_go_last() {
    use crate::record::{Ending, EndingKind, Location};
    let text = r#"{"header":{},"moves":[{},
{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"},
 "comments":["&real","* 30 -3334FU","&a comment","* 12 +2726FU"]},
{"move":{"from":{"x":3,"y":3},"to":{"x":3,"y":4},"piece":"FU"},"comments":["&last"]}]}"#;
    let g = game(text);
    let m = &g.record.main.moves[0];
    assert_eq!(m.bookmarks(), ["real", "a comment"]);
    assert_eq!(m.comments(), ["* 12 +2726FU"]);
    // Comments shaped as a bookmark or an evaluation, on the record, a move
    // and an ending JKF has no word for, which the writer adds to the last
    // move after that move's bookmark.
    let mut r = g.record.clone();
    r.comments = vec!["&not a mark".into()];
    r.main.moves[0].extra_mut().comments = vec!["&a comment".into(), "* 7 -8384FU".into()];
    r.main.ending = Some(Ending {
        kind: EndingKind::DefaultWin,
        text: "不戦勝".into(),
        span: Location::default(),
        time: None,
        comments: vec!["&of the ending".into()],
    });
    let g = replay(r, &ReplayOptions::default()).unwrap();
    let (first, _) = write(&g);
    let v: Value = serde_json::from_str(&first).unwrap();
    assert_eq!(v["moves"][0]["comments"], json!([" &not a mark"]));
    assert_eq!(
        v["moves"][1]["comments"],
        json!([
            " &a comment",
            " * 7 -8384FU",
            "&real",
            "&a comment",
            "* 30 -3334FU"
        ])
    );
    assert_eq!(
        v["moves"][2]["comments"],
        json!(["不戦勝", " &of the ending", "&last"])
    );
    // Read back, each is where it was (a comment with its space in front),
    // and written again, the same JKF.
    let back = game(&first);
    let m = &back.record.main.moves[0];
    assert_eq!(back.record.comments, [" &not a mark"]);
    assert!(back.record.bookmarks.is_empty());
    assert_eq!(m.comments(), [" &a comment", " * 7 -8384FU"]);
    assert_eq!(m.bookmarks(), ["real", "a comment"]);
    assert_eq!(m.eval().and_then(|e| e.score), Some(30));
    assert_eq!(back.record.main.moves[1].bookmarks(), ["last"]);
    assert_eq!(write(&back).0, first);
}
