//! `fixtures/variants/`: legal and illegal games of each variant, made by
//! [`generate`] (seeded random playouts, and a random illegal move at the
//! end of half of them), and the verdict each must get from `kifu check`.
//!
//! Regenerate with `cargo test --test it variants_fixtures -- --ignored`.

use kifu::emit::variant::{kif, kif_writable};
use kifu::parse::usi::parse_variant;
use kifu::variant::{Board, VMove, Variant, replay};
use std::path::{Path, PathBuf};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/variants")
}

fn rng(mut seed: u64) -> impl FnMut() -> u64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    }
}

/// A move on `b`'s board, legal or not: mostly of a piece of the side to
/// move, so that the fouls are of every kind and not only empty origins.
fn random_move(b: &Board, next: &mut impl FnMut() -> u64) -> VMove {
    let cells = u64::from(b.cell_count());
    let to = (next() % cells) as u8;
    let own: Vec<u8> = (0..b.cell_count())
        .filter(|&c| b.at(c).is_some_and(|(color, _)| color == b.side()))
        .collect();
    if !own.is_empty() && !next().is_multiple_of(4) {
        let from = own[(next() % own.len() as u64) as usize];
        return VMove {
            promote: next().is_multiple_of(3),
            ..VMove::step(from, to)
        };
    }
    if next().is_multiple_of(3) {
        let letters: Vec<u8> = b.rules().hand_order.to_vec();
        let drop = letters
            .get((next() % letters.len().max(1) as u64) as usize)
            .copied()
            .unwrap_or(0);
        VMove::drop(drop, to)
    } else {
        let from = (next() % cells) as u8;
        VMove {
            promote: next().is_multiple_of(3),
            ..VMove::step(from, to)
        }
    }
}

/// The fixture files (name, text) and the verdict each must get.
fn generate() -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for (vi, v) in Variant::NAMED.into_iter().enumerate() {
        let mut next = rng(0x5eed_0000 + vi as u64 * 7919);
        let mut fouls_seen: Vec<&'static str> = Vec::new();
        for n in 0..8 {
            let mut b = v.start();
            let mut moves = Vec::new();
            let plies = 10 + next() % 50;
            for _ in 0..plies {
                let legal = b.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let m = legal[(next() % legal.len() as u64) as usize];
                moves.push(b.usi(m));
                b.play_unchecked(m);
            }
            let mut verdict = "legal".to_string();
            if n % 2 == 1 {
                // Of a few hundred random moves, the first illegal one whose
                // foul this variant's fixtures do not show yet, else any.
                let mut any = None;
                let mut fresh = None;
                for _ in 0..400 {
                    let m = random_move(&b, &mut next);
                    if let Err(f) = b.judge(m) {
                        any.get_or_insert(m);
                        if !fouls_seen.contains(&f.code()) {
                            fresh = Some(m);
                            break;
                        }
                    }
                }
                let m = fresh.or(any).expect("some random move is illegal");
                fouls_seen.push(b.judge(m).unwrap_err().code());
                verdict = b.judge(m).unwrap_err().code().to_string();
                moves.push(b.usi(m));
            }
            let kind = if verdict == "legal" {
                "legal"
            } else {
                "illegal"
            };
            let text = format!(
                "setoption name UCI_Variant value {v}\nposition startpos moves {}\n",
                moves.join(" ")
            );
            out.push((format!("{v}/{kind}-{n}.usi"), text.clone(), verdict.clone()));
            // Micro and chu shogi have no KIF form in kifu.
            if kind == "legal" && kif_writable(v) {
                // The same game in KIF, which must be read back as legal.
                let game = replay::replay(parse_variant(&text, v).unwrap().remove(0)).unwrap();
                out.push((format!("{v}/{kind}-{n}.kifu"), kif(&game).0, verdict));
            }
        }
    }
    out
}

fn manifest(files: &[(String, String, String)]) -> String {
    files
        .iter()
        .map(|(name, _, v)| format!("{name}\t{v}\n"))
        .collect()
}

#[test]
#[ignore = "writes fixtures/variants; run to regenerate them"]
fn write_variant_fixtures() {
    let files = generate();
    for (name, text, _) in &files {
        let p = dir().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    std::fs::write(dir().join("EXPECTED.tsv"), manifest(&files)).unwrap();
}

#[test]
fn variant_fixtures_are_what_the_generator_makes() {
    let files = generate();
    for (name, text, _) in &files {
        let on_disk = std::fs::read_to_string(dir().join(name)).unwrap_or_default();
        assert_eq!(&on_disk, text, "{name} differs from the generator");
    }
    let listed = std::fs::read_to_string(dir().join("EXPECTED.tsv")).unwrap();
    assert_eq!(listed, manifest(&files));
}

#[test]
fn kifu_check_gives_every_variant_fixture_its_verdict() {
    let listed = std::fs::read_to_string(dir().join("EXPECTED.tsv")).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["check", "--json"])
        .arg(dir())
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let mut seen = 0;
    for line in listed.lines() {
        let (name, want) = line.split_once('\t').unwrap();
        let report: serde_json::Value = stdout
            .lines()
            .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
            .find(|r| r["source"].as_str().is_some_and(|s| s.ends_with(name)))
            .unwrap_or_else(|| panic!("no report for {name}: {stdout}"));
        let got = report["verdict"]["rule"].as_str().unwrap_or("legal");
        assert_eq!(got, want, "{name}: {report}");
        assert_eq!(report["variant"], name.split('/').next().unwrap());
        seen += 1;
    }
    assert!(seen >= 36, "only {seen} fixtures listed");
    let illegal = listed.lines().filter(|l| !l.ends_with("\tlegal")).count();
    assert!(illegal >= 12, "only {illegal} illegal fixtures");
    assert_eq!(out.status.code(), Some(1), "fouls make check exit 1");
}
