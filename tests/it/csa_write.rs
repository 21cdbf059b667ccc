//! The CSA writer: every corpus `.csa` file survives write → read → replay
//! unchanged, writing is idempotent, and random legal games round-trip.

use crate::common;
use kifu::emit::csa::{self, CsaOptions, CsaVersion};
use kifu::parse::csa::parse;
use kifu::record::{EndingKind, Line, Location, MoveEntry, MoveTime, Notation, Record};
use kifu::replay::{Game, ReplayOptions, Verdict, replay};
use kifu::{Color, Position};
use std::collections::BTreeMap;
use std::path::Path;

use crate::common::decode_strict as decode;

fn replay_all(records: Vec<Record>) -> Result<Vec<Game>, String> {
    records
        .into_iter()
        .map(|r| replay(r, &ReplayOptions::default()).map_err(|e| e.to_string()))
        .collect()
}

fn usi_plies(g: &Game) -> Vec<String> {
    g.main.plies.iter().map(|p| p.mv.to_usi()).collect()
}

/// Time of each legal ply as the version can hold it.
fn times(g: &Game, version: CsaVersion) -> Vec<Option<u64>> {
    g.record.main.moves[..g.main.plies.len()]
        .iter()
        .map(|m| {
            let ms = m.time.and_then(|t| t.spent_ms)?;
            Some(match version {
                CsaVersion::V22 => (ms + 500) / 1000 * 1000,
                CsaVersion::V30 => ms,
            })
        })
        .collect()
}

fn comments(g: &Game) -> Vec<Vec<String>> {
    let mut out = vec![g.record.comments.clone()];
    out.extend(
        g.record.main.moves[..g.main.plies.len()]
            .iter()
            .map(|m| m.comments().to_vec()),
    );
    out
}

fn header(g: &Game) -> Vec<(String, String)> {
    g.record
        .header
        .iter()
        .filter(|h| h.key != "Version" && h.key != "Encoding")
        .map(|h| (h.key.clone(), h.value.clone()))
        .collect()
}

fn verdict(g: &Game) -> Option<(kifu::Rule, Color, u32, Option<kifu::Move>)> {
    match &g.main.verdict {
        Verdict::Legal => None,
        Verdict::Foul(f) => Some((f.rule, f.loser, f.ply, f.mv)),
    }
}

/// The ending the written file should read back as.
fn expected_ending(g: &Game) -> Option<EndingKind> {
    match (&g.record.main.ending, &g.main.verdict) {
        (Some(e), _) => Some(e.kind),
        (None, Verdict::Foul(f)) => Some(EndingKind::FoulBy(f.loser)),
        (None, Verdict::Legal) => None,
    }
}

/// Every difference between `a` (as read) and `b` (read back after writing).
fn compare(a: &Game, b: &Game, version: CsaVersion) -> Vec<String> {
    let mut d = Vec::new();
    if usi_plies(a) != usi_plies(b) {
        d.push(format!("plies {:?} != {:?}", usi_plies(a), usi_plies(b)));
    }
    if times(a, version) != times(b, CsaVersion::V30) {
        d.push("times differ".into());
    }
    if comments(a) != comments(b) {
        d.push(format!("comments {:?} != {:?}", comments(a), comments(b)));
    }
    let ending_b = b.record.main.ending.as_ref().map(|e| e.kind);
    if expected_ending(a) != ending_b {
        d.push(format!("ending {:?} != {ending_b:?}", expected_ending(a)));
    }
    if header(a) != header(b) {
        d.push(format!("header {:?} != {:?}", header(a), header(b)));
    }
    if verdict(a) != verdict(b) {
        d.push(format!("verdict {:?} != {:?}", verdict(a), verdict(b)));
    }
    d
}

/// Write the file's games, read them back, compare, and write again.
fn round_trip(
    path: &Path,
    version: CsaVersion,
    tally: &mut BTreeMap<&'static str, usize>,
) -> Result<(usize, usize), String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let text = decode(&bytes).ok_or("cannot decode")?;
    let records = parse(&text).map_err(|e| format!("source: {e}"))?;
    let games = replay_all(records).map_err(|e| format!("SKIP source: {e}"))?;
    let opts = CsaOptions { version };
    let (written, warnings) = csa::write_many(&games, &opts);
    let fouls = games.iter().filter(|g| !g.main.verdict.is_legal()).count();
    *tally.entry("(games with a foul)").or_default() += fouls;
    for w in warnings {
        *tally.entry(w.code.code()).or_default() += 1;
    }
    let back = parse(&written).map_err(|e| format!("written text: {e}\n{written}"))?;
    let back = replay_all(back)?;
    if back.len() != games.len() {
        return Err(format!("{} games became {}", games.len(), back.len()));
    }
    let mut diffs = Vec::new();
    for (i, (a, b)) in games.iter().zip(&back).enumerate() {
        for d in compare(a, b, version) {
            diffs.push(format!("game {}: {d}", i + 1));
        }
    }
    if !diffs.is_empty() {
        return Err(diffs.join("; "));
    }
    let (again, _) = csa::write_many(&back, &opts);
    if again != written {
        return Err(format!(
            "not idempotent:\n--- first\n{written}\n--- second\n{again}"
        ));
    }
    let plies = games.iter().map(|g| g.main.plies.len()).sum();
    Ok((games.len(), plies))
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn csa_write_round_trips_every_corpus_file() {
    let dir = common::corpus_dir("csa_write_round_trips_every_corpus_file");
    let files = common::files_with_ext(&dir, &["csa"]);
    assert!(!files.is_empty());
    for version in [CsaVersion::V22, CsaVersion::V30] {
        let (mut games, mut plies, mut skipped) = (0, 0, 0);
        let mut failures = Vec::new();
        let mut tally = BTreeMap::new();
        for f in &files {
            match round_trip(f, version, &mut tally) {
                Ok((g, p)) => {
                    games += g;
                    plies += p;
                }
                Err(e) if e.starts_with("SKIP") => {
                    eprintln!("skipped {}: {e}", f.display());
                    skipped += 1
                }
                Err(e) => failures.push(format!(
                    "{}: {e}",
                    f.strip_prefix(&dir).unwrap_or(f).display()
                )),
            }
        }
        for e in &failures {
            eprintln!("FAILED {version:?} {e}");
        }
        eprintln!(
            "{version:?}: {} of {} .csa files round-trip ({games} games, {plies} plies); {skipped} skipped (start position not legal)",
            files.len() - failures.len() - skipped,
            files.len()
        );
        eprintln!("{version:?} warnings: {tally:?}");
        assert!(failures.is_empty(), "{} files failed", failures.len());
    }
}

/// xorshift64: deterministic and dependency-free.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn random_record(rng: &mut Rng, whole_seconds: bool) -> Record {
    let mut pos = Position::startpos();
    let mut moves = Vec::new();
    let len = rng.below(160);
    for _ in 0..len {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal[rng.below(legal.len() as u64) as usize];
        pos.play_unchecked(mv);
        let mut e = MoveEntry::new(Notation::Usi(mv), Location::default());
        if rng.below(4) != 0 {
            let ms = rng.below(600_000);
            e.time = Some(MoveTime {
                spent_ms: Some(if whole_seconds { ms / 1000 * 1000 } else { ms }),
                total_ms: None,
            });
        }
        moves.push(e);
    }
    Record {
        main: Line {
            moves,
            ..Line::default()
        },
        ..Record::default()
    }
}

#[test]
fn csa_write_random_games_round_trip() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for i in 0..200 {
        let version = if i % 2 == 0 {
            CsaVersion::V30
        } else {
            CsaVersion::V22
        };
        let record = random_record(&mut rng, version == CsaVersion::V22);
        let game = replay(record, &ReplayOptions::default()).expect("start position");
        let (text, warnings) = csa::write(&game, &CsaOptions { version });
        assert!(
            warnings
                .iter()
                .all(|w| w.code == "moves-not-replayed-commented"),
            "game {i}: {warnings:?}"
        );
        let back = parse(&text).unwrap_or_else(|e| panic!("game {i}: {e}\n{text}"));
        assert_eq!(back.len(), 1);
        let back = replay(back.into_iter().next().unwrap(), &ReplayOptions::default())
            .expect("start position");
        assert_eq!(usi_plies(&game), usi_plies(&back), "game {i}");
        assert_eq!(
            times(&game, version),
            times(&back, CsaVersion::V30),
            "game {i}"
        );
        assert_eq!(verdict(&game), verdict(&back), "game {i}");
    }
}

/// CSA keeps the perpetual check's move as a move and names the loser:
/// `%ILLEGAL_MOVE` (the side to move, sente, loses) for a record that
/// ended 反則負け, `%+ILLEGAL_ACTION` for one that named sente.
#[test]
fn perpetual_check_csa_keeps_the_move_and_the_loser() {
    for path in common::PERPETUAL_CHECK {
        let (text, _) = csa::write(
            &common::game_of(path),
            &CsaOptions {
                version: CsaVersion::V22,
            },
        );
        let tail = if path.ends_with(".jkf") {
            "-1211OU\n%+ILLEGAL_ACTION\n"
        } else {
            "-1211OU\n%ILLEGAL_MOVE\n"
        };
        assert!(text.ends_with(tail), "{path}:\n{text}");
        common::assert_same_perpetual_check(&text, kifu::Format::Csa, path);
    }
}
