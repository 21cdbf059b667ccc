//! `kifu explore` on a collection counted by hand.

use crate::common::{err, kifu_in, out};

fn collection() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let files = [
        // Gote wins (sente resigns at ply 3); ratings 2000 and 1800.
        (
            "a.csa",
            "'black_rate:x+1:2000.0\n'white_rate:y+2:1800.0\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n",
        ),
        // Sente wins.
        ("b.csa", "PI\n+\n+7776FU\n-3334FU\n+2726FU\n%TORYO\n"),
        // No result.
        ("c.usi", "position startpos moves 7g7f 8c8d\n"),
        ("d.usi", "position startpos moves 2g2f\n"),
        // Another start: never at the even start.
        (
            "e.usi",
            "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN1 b - 1 moves 7g7f\n",
        ),
    ];
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    dir
}

/// (moves, games, sente, gote, draw, rating) of each JSON line.
fn nodes(args: &[&str]) -> Vec<(String, u64, u64, u64, u64, Option<f64>)> {
    let dir = collection();
    let mut all = vec!["explore", "-q", "--json"];
    all.extend_from_slice(args);
    all.push(".");
    let o = kifu_in(dir.path(), &all);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    out(&o)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            let moves: Vec<&str> = v["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap())
                .collect();
            let n = |k: &str| v[k].as_u64().unwrap();
            (
                moves.join(" "),
                n("games"),
                n("sente"),
                n("gote"),
                n("draw"),
                v["rating"].as_f64(),
            )
        })
        .collect()
}

#[test]
fn counts_from_the_start_equal_a_count_by_hand() {
    assert_eq!(
        nodes(&["--depth", "2"]),
        vec![
            ("2g2f".into(), 1, 0, 0, 0, None),
            ("7g7f".into(), 3, 1, 1, 0, Some(1900.0)),
            ("7g7f 3c3d".into(), 2, 1, 1, 0, Some(1900.0)),
            ("7g7f 8c8d".into(), 1, 0, 0, 0, None),
        ]
    );
    assert_eq!(nodes(&[]).len(), 2, "depth 1 by default");
}

#[test]
fn counts_from_a_position_reached_in_play() {
    let after = "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w -";
    assert_eq!(
        nodes(&["--position", after]),
        vec![
            ("3c3d".into(), 2, 1, 1, 0, Some(1900.0)),
            ("8c8d".into(), 1, 0, 0, 0, None),
        ]
    );
}

#[test]
fn the_text_table_heads_with_the_games_that_reached_the_position() {
    let dir = collection();
    let o = kifu_in(dir.path(), &["explore", "-q", "."]);
    let text = out(&o);
    assert!(
        text.starts_with(
            "from lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1: 4 games\n"
        ),
        "{text}"
    );
    assert!(
        text.contains("7g7f                3 games  sente 1  gote 1  draw 0  rating 1900\n"),
        "{text}"
    );
}
