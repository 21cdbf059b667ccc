//! Golden output: every writer's bytes for a small set of records kept as
//! reviewed snapshots, so any change to what kifu writes shows as a diff.
//!
//! The inputs in `tests/it/golden/` cover a handicap game (the handicapped
//! side moving first, comments, times, 投了 and its まで line), a BOD start
//! ending in a checkmate, nested variations with times, a foul with a move
//! after it, and a CSA file of nine games, one for each ending (resignation,
//! time-up, interruption, false repetition and mate claims, a false
//! declaration, impasse, an unverified foul claim, the move limit).

use kifu::emit::csa::{CsaOptions, CsaVersion};
use kifu::{JsonSource, ReadOptions, ReplayOptions, Target, read_path, replay, write};
use std::fmt::Write as _;
use std::path::Path;

const INPUTS: [&str; 5] = [
    "handicap.kifu",
    "bod-mate.kifu",
    "variations.kifu",
    "foul.usi",
    "endings.csa",
];

/// Every game of every input written as `target`, with its warnings, as
/// text (Shift_JIS output decoded strictly, so a byte it could not hold
/// fails the test rather than hiding in a replacement character), each CR
/// shown as `␍`.
fn golden(target: impl Fn(&str, &kifu::Input) -> Target, shift_jis: bool) -> String {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/golden");
    let mut out = String::new();
    for name in INPUTS {
        let input = read_path(&dir.join(name), &ReadOptions::default()).unwrap();
        let target = target(name, &input);
        for (i, record) in input.records.into_iter().enumerate() {
            let game = replay(record, &ReplayOptions::default()).unwrap();
            let (bytes, warnings) = write(&game, &target);
            let text = if shift_jis {
                let (text, had_errors) = encoding_rs::SHIFT_JIS.decode_without_bom_handling(&bytes);
                assert!(!had_errors, "{name} game {i}: not Shift_JIS");
                text.into_owned()
            } else {
                String::from_utf8(bytes).unwrap()
            };
            writeln!(out, "===== {name} game {}", i + 1).unwrap();
            // insta normalises line ends: show each CR so CRLF is guarded too.
            out.push_str(&text.replace('\r', "␍"));
            for w in warnings {
                writeln!(out, "----- warning[{}]: {}", w.code, w.message).unwrap();
            }
        }
    }
    out
}

fn plain(target: Target) -> impl Fn(&str, &kifu::Input) -> Target {
    move |_, _| target.clone()
}

#[test]
fn golden_kif() {
    insta::assert_snapshot!("golden_kif", golden(plain(Target::Kif), true));
}

#[test]
fn golden_kifu() {
    insta::assert_snapshot!("golden_kifu", golden(plain(Target::Kifu), false));
}

#[test]
fn golden_ki2() {
    insta::assert_snapshot!("golden_ki2", golden(plain(Target::Ki2), true));
}

#[test]
fn golden_ki2u() {
    insta::assert_snapshot!("golden_ki2u", golden(plain(Target::Ki2u), false));
}

#[test]
fn golden_csa() {
    let v22 = Target::Csa(CsaOptions::default());
    insta::assert_snapshot!("golden_csa", golden(plain(v22), false));
}

#[test]
fn golden_csa_v3() {
    let v30 = Target::Csa(CsaOptions {
        version: CsaVersion::V30,
    });
    insta::assert_snapshot!("golden_csa_v3", golden(plain(v30), false));
}

#[test]
fn golden_jkf() {
    insta::assert_snapshot!("golden_jkf", golden(plain(Target::Jkf), false));
}

#[test]
fn golden_usi() {
    insta::assert_snapshot!("golden_usi", golden(plain(Target::Usi), false));
}

#[test]
fn golden_sfen() {
    insta::assert_snapshot!("golden_sfen", golden(plain(Target::Sfen), false));
}

#[test]
fn golden_json() {
    let json = |name: &str, input: &kifu::Input| {
        Target::Json(JsonSource {
            name: name.to_string(),
            encoding: input.encoding.name(),
            format: input.format,
            pretty: false,
        })
    };
    insta::assert_snapshot!("golden_json", golden(json, false));
}
