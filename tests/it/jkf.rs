//! JKF in and out against the corpus: every JKF file reads and replays,
//! every written JKF validates against the official schema, and writing is
//! stable (JKF → read → JKF is byte-identical).

use crate::common;
use kifu::emit::jkf;
use kifu::record::Record;
use kifu::{Game, Position, ReplayOptions, replay};
use std::path::{Path, PathBuf};

use crate::common::decode_strict as decode;

fn text(path: &Path) -> String {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    decode(&bytes).unwrap_or_else(|| panic!("{}: cannot decode", path.display()))
}

fn validator() -> Option<jsonschema::Validator> {
    let path = common::formats_dir()?.join("jkf.schema.json");
    let schema: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).ok()?).expect("the schema is JSON");
    Some(jsonschema::validator_for(&schema).expect("the schema compiles"))
}

/// Schema errors of `out`, as text (empty when valid).
fn schema_errors(v: &jsonschema::Validator, out: &str) -> Vec<String> {
    let instance: serde_json::Value = serde_json::from_str(out).expect("written JKF is JSON");
    v.iter_errors(&instance)
        .take(3)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect()
}

/// The `.jkf` files of the corpus, plus the JKF fixture saved as `.json`.
fn jkf_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = common::files_with_ext(dir, &["jkf"]);
    files.extend(
        common::files_with_ext(dir, &["json"])
            .into_iter()
            .filter(|p| {
                std::fs::read_to_string(p)
                    .is_ok_and(|t| t.contains("\"moves\"") && t.contains("\"header\""))
            }),
    );
    files
}

/// Every variation of `line`, nested ones included.
fn count_forks(line: &kifu::record::Line) -> usize {
    line.moves
        .iter()
        .map(|m| m.variations().len() + m.variations().iter().map(count_forks).sum::<usize>())
        .sum()
}

fn play(r: Record) -> Result<Game, String> {
    replay(r, &ReplayOptions::default()).map_err(|e| e.to_string())
}

/// Write, validate, read back, write again; returns the game read back, or
/// a failure description.
fn check_written(v: Option<&jsonschema::Validator>, game: &Game) -> Result<Game, String> {
    let (first, _) = jkf::write(game);
    if let Some(v) = v {
        let errs = schema_errors(v, &first);
        if !errs.is_empty() {
            return Err(format!("schema: {}", errs.join("; ")));
        }
    }
    let again = kifu::parse::jkf::parse(&first)
        .map_err(|e| format!("re-read: {e}"))?
        .remove(0);
    let back = play(again)?;
    let (second, _) = jkf::write(&back);
    if first != second {
        let line = first
            .lines()
            .zip(second.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        return Err(format!("second write differs at line {}", line + 1));
    }
    Ok(back)
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn jkf_every_corpus_file_reads_replays_validates_and_is_stable() {
    let dir = common::corpus_dir("jkf_every_corpus_file_reads_replays_validates_and_is_stable");
    let v = validator();
    let files = jkf_files(&dir);
    assert!(files.len() >= 6, "only {} JKF files found", files.len());
    let mut failures = Vec::new();
    for p in &files {
        let name = p.strip_prefix(&dir).unwrap_or(p).display().to_string();
        let result = kifu::parse::jkf::parse(&text(p))
            .map_err(|e| format!("parse: {e}"))
            .and_then(|mut rs| {
                let forks = count_forks(&rs[0].main);
                let g = play(rs.remove(0))?;
                if g.variations.len() != forks {
                    return Err(format!(
                        "{forks} forks read, {} replayed",
                        g.variations.len()
                    ));
                }
                Ok(g)
            })
            .and_then(|g| {
                if !g.main.verdict.is_legal() {
                    return Err(format!("foul in the main line: {:?}", g.main.verdict));
                }
                if let Some(bad) = g.variations.iter().find(|x| !x.line.verdict.is_legal()) {
                    return Err(format!("foul in a variation: {:?}", bad.line.verdict));
                }
                check_written(v.as_ref(), &g)
            });
        if let Err(e) = result {
            eprintln!("FAILED {name}: {e}");
            failures.push(name);
        }
    }
    eprintln!(
        "{} of {} JKF files read, replay legally, validate and round-trip",
        files.len() - failures.len(),
        files.len()
    );
    assert!(failures.is_empty(), "{failures:?}");
}

/// JKF treats `null` as absent; the reference writes `"from": null` for drops.
fn strip_nulls(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(m) => {
            m.retain(|_, x| !x.is_null());
            m.values_mut().for_each(strip_nulls);
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(strip_nulls),
        _ => {}
    }
}

/// The written JKF equals the file read, up to key order and `null`s, for
/// every corpus JKF that is already normalised: the reference normaliser's
/// `relative`, `same`, `promote`, `capture` and time totals are reproduced.
#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn jkf_written_matches_the_reference_normalisation() {
    let dir = common::corpus_dir("jkf_written_matches_the_reference_normalisation");
    let mut compared = 0;
    for path in jkf_files(&dir) {
        let original = text(&path);
        let game = play(kifu::parse::jkf::parse(&original).unwrap().remove(0)).unwrap();
        let (out, warnings) = jkf::write(&game);
        assert!(warnings.is_empty(), "{}: {warnings:?}", path.display());
        let mut want: serde_json::Value = serde_json::from_str(&original).unwrap();
        strip_nulls(&mut want);
        let got: serde_json::Value = serde_json::from_str(&out).unwrap();
        if want.get("initial").is_none() {
            // Absent means 平手, which the writer states.
            want["initial"] = serde_json::json!({"preset": "HIRATE"});
        }
        assert_eq!(want, got, "{}", path.display());
        compared += 1;
    }
    eprintln!("{compared} JKF files written back equal to themselves");
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn jkf_from_every_csa_and_usi_file_validates() {
    let dir = common::corpus_dir("jkf_from_every_csa_and_usi_file_validates");
    let v = validator();
    let files = common::files_with_ext(&dir, &["csa", "usi", "sfen"]);
    assert!(files.len() > 200, "only {} files found", files.len());
    let (mut games, mut unreadable, mut failures) = (0, 0, Vec::new());
    for p in &files {
        let name = p.strip_prefix(&dir).unwrap_or(p).display().to_string();
        let t = text(p);
        let is_csa = p.extension().is_some_and(|e| e.eq_ignore_ascii_case("csa"));
        let parsed = if is_csa {
            kifu::parse::csa::parse(&t)
        } else {
            kifu::parse::usi::parse(&t)
        };
        let Ok(records) = parsed else {
            // Reading these formats is guarded by their own tests.
            unreadable += 1;
            continue;
        };
        for r in records {
            let Ok(game) = play(r) else {
                unreadable += 1;
                continue;
            };
            games += 1;
            if let Err(e) = check_written(v.as_ref(), &game) {
                eprintln!("FAILED {name}: {e}");
                failures.push(name.clone());
            }
        }
    }
    eprintln!(
        "{games} games from {} CSA/USI files written as JKF ({unreadable} unreadable or bad start), {} failed",
        files.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{failures:?}");
}

/// MANIFEST: `jkf/ryuou201409020101.jkf` is the expected JKF of
/// `kif/ryuou201409020101.kif`. kifu's JKF equals it semantically (key order
/// and `null`s aside). One defended difference: header values are trimmed of
/// trailing full-width spaces (`手合割：平手　　` is `平手`), as every kifu
/// reader trims them.
#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn kif_converts_to_the_expected_jkf() {
    let dir = common::corpus_dir("kif_converts_to_the_expected_jkf");
    let base = dir.join("mixed/json-kifu-format-fixtures");
    let input = kifu::input::read_path(
        &base.join("kif/ryuou201409020101.kif"),
        &kifu::input::ReadOptions::default(),
    )
    .unwrap();
    let game = play(input.records.into_iter().next().unwrap()).unwrap();
    let (out, _) = jkf::write(&game);
    let mut got: serde_json::Value = serde_json::from_str(&out).unwrap();
    let mut want: serde_json::Value =
        serde_json::from_str(&text(&base.join("jkf/ryuou201409020101.jkf"))).unwrap();
    strip_nulls(&mut got);
    strip_nulls(&mut want);
    for (_, v) in want["header"].as_object_mut().unwrap().iter_mut() {
        let trimmed = v
            .as_str()
            .unwrap()
            .trim_end_matches(['　', ' '])
            .to_string();
        *v = serde_json::Value::String(trimmed);
    }
    assert_eq!(got["moves"].as_array().unwrap().len(), 119);
    assert_eq!(want, got);
}

/// What writing `game` as JKF loses or changes, if anything: the JKF must
/// validate (when the schema is at hand) and be stable, and reading it back
/// must give the same legal main line, with the same times (to the second),
/// comments, bookmarks and evaluations (which JKF has no field for and
/// kifu writes as comments), and as many variations.
fn round_trip_loses(v: Option<&jsonschema::Validator>, game: &Game) -> Option<String> {
    let back = match check_written(v, game) {
        Ok(back) => back,
        Err(e) => return Some(e),
    };
    let usi = |g: &Game| -> Vec<String> { g.main.plies.iter().map(|p| p.mv.to_usi()).collect() };
    if usi(game) != usi(&back) {
        return Some(format!(
            "main line {:?} read back as {:?}",
            usi(game),
            usi(&back)
        ));
    }
    let legal = game.main.plies.len();
    for (i, (a, b)) in game.record.main.moves[..legal]
        .iter()
        .zip(&back.record.main.moves)
        .enumerate()
    {
        let notes = |m: &kifu::record::MoveEntry| {
            let eval = m.eval().map(|e| (e.score, e.pv.clone()));
            (m.comments().to_vec(), m.bookmarks().to_vec(), eval)
        };
        if notes(a) != notes(b) {
            return Some(format!(
                "ply {}: {:?} read back as {:?}",
                i + 1,
                notes(a),
                notes(b)
            ));
        }
        // JKF carries a total for every move; the writer adds one where
        // the record kept only the time spent.
        // JKF counts whole seconds, and a time it writes has both fields
        // (the one the record lacks worked out from the other, or 0): what
        // the record had must come back.
        let secs = |t: Option<kifu::record::MoveTime>,
                    f: fn(kifu::record::MoveTime) -> Option<u64>| {
            t.and_then(f).map(|ms| ms / 1000)
        };
        let kept = |f: fn(kifu::record::MoveTime) -> Option<u64>| {
            secs(a.time, f).is_none() || secs(a.time, f) == secs(b.time, f)
        };
        if a.time.is_some() != b.time.is_some() || !kept(|t| t.spent_ms) || !kept(|t| t.total_ms) {
            return Some(format!(
                "ply {}: time {:?} read back as {:?}",
                i + 1,
                a.time,
                b.time
            ));
        }
    }
    (game.variations.len() != back.variations.len()).then(|| {
        format!(
            "{} variations read back as {}",
            game.variations.len(),
            back.variations.len()
        )
    })
}

/// Read every file of `files`, replay every game, and write each as JKF and
/// read it back; returns (games compared, failures).
fn compare_files(files: &[PathBuf]) -> (usize, Vec<String>) {
    let (mut games, mut failures) = (0, Vec::new());
    let schema = validator();
    for p in files {
        let Ok(input) = kifu::input::read_path(p, &kifu::input::ReadOptions::default()) else {
            continue;
        };
        for (i, r) in input.records.into_iter().enumerate() {
            let Ok(game) = play(r) else { continue };
            games += 1;
            if let Some(d) = round_trip_loses(schema.as_ref(), &game) {
                failures.push(format!("{} game {i}: {d}", p.display()));
            }
        }
    }
    (games, failures)
}

/// Every file of the shared corpus, whatever its format.
#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn jkf_round_trips_the_corpus() {
    let dir = common::corpus_dir("jkf_round_trips_the_corpus");
    let mut files = Vec::new();
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                files.push(p);
            }
        }
    }
    files.sort();
    let (games, failures) = compare_files(&files);
    assert!(games > 200, "only {games} games read from the corpus");
    common::assert_no_failures(
        &format!("{games} corpus games from {} files compared", files.len()),
        &failures,
    );
}

/// 300 games of `examples/gen_games` (built beside the test binary by
/// `cargo test`), as CSA and as KIF.
#[test]
fn jkf_round_trips_generated_games() {
    let bin = Path::new(env!("CARGO_BIN_EXE_kifu"))
        .parent()
        .expect("the binary has a directory")
        .join("examples/gen_games");
    if !bin.is_file() {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "SKIPPED: jkf_round_trips_generated_games: {} is absent",
            bin.display()
        );
        return;
    }
    let d = tempfile::tempdir().unwrap();
    for (format, seed) in [("csa", "1"), ("kif", "2")] {
        let out = d.path().join(format);
        let status = std::process::Command::new(&bin)
            .args([format, "300", out.to_str().unwrap(), seed])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .expect("gen_games runs");
        assert!(status.success());
        let files = common::files_with_ext(&out, &[format]);
        let (games, failures) = compare_files(&files);
        assert_eq!(games, 300, "{format}");
        common::assert_no_failures(
            &format!("{games} generated {format} games compared"),
            &failures,
        );
    }
}

/// Records built to hit every branch of the writer with hostile content.
mod hostile {
    use kifu::record::{
        Ending, EndingKind, Evaluation, HeaderField, Line, Location, MoveEntry, MoveTime, Notation,
        Record, StartPosition,
    };
    use kifu::{Color, Handicap, Move, PieceKind, Position, Setup, Square};

    /// Texts JSON must escape or carry through: quotes, backslashes, every
    /// control character, non-ASCII (including U+2028/9, which JSON allows
    /// raw but JavaScript did not), and the empty string.
    pub const TEXTS: &[&str] = &[
        "",
        "\"quoted\" and 'single'",
        "back\\slash \\\" \\\\ \\u0041",
        "\u{0}\u{1}\u{7}\u{8}\t\n\r\u{b}\u{c}\u{1b}\u{1f}\u{7f}",
        "▲７六歩 △同　銀左上成 「コメント」",
        "emoji 🐉🀄 and 𠮷",
        "\u{2028}line\u{2029}separators\u{feff}",
        "</script><!-- & < > -->",
        "*bookmark-like text",
        "a long comment that goes on and on, with a tab\there and a newline\nthere",
    ];

    /// xorshift64*: reproducible without a dependency.
    pub struct Rng(pub u64);

    impl Rng {
        pub fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
        pub fn below(&mut self, n: usize) -> usize {
            (self.next() % n.max(1) as u64) as usize
        }
        pub fn chance(&mut self, percent: usize) -> bool {
            self.below(100) < percent
        }
        fn text(&mut self) -> String {
            let mut s = TEXTS[self.below(TEXTS.len())].to_string();
            if self.chance(30) {
                s.push_str(TEXTS[self.below(TEXTS.len())]);
            }
            s
        }
        fn texts(&mut self) -> Vec<String> {
            (0..1 + self.below(3)).map(|_| self.text()).collect()
        }
    }

    fn time(rng: &mut Rng) -> Option<MoveTime> {
        let ms = |rng: &mut Rng| match rng.below(4) {
            0 => rng.below(1000) as u64,
            1 => 1000 * rng.below(600) as u64,
            2 => 1000 * rng.below(100_000) as u64 + rng.below(1000) as u64,
            _ => u64::MAX - rng.below(10) as u64,
        };
        match rng.below(6) {
            0 | 1 => None,
            2 => Some(MoveTime {
                spent_ms: Some(ms(rng)),
                total_ms: None,
            }),
            3 => Some(MoveTime {
                spent_ms: None,
                total_ms: Some(ms(rng)),
            }),
            4 => Some(MoveTime {
                spent_ms: Some(ms(rng)),
                total_ms: Some(ms(rng)),
            }),
            _ => Some(MoveTime::default()),
        }
    }

    const ENDINGS: [EndingKind; 21] = [
        EndingKind::Resign,
        EndingKind::Interrupt,
        EndingKind::Sennichite,
        EndingKind::Jishogi,
        EndingKind::TimeUp,
        EndingKind::FoulByMover,
        EndingKind::FoulByPrevious,
        EndingKind::FoulBy(Color::Sente),
        EndingKind::FoulBy(Color::Gote),
        EndingKind::Tsumi,
        EndingKind::Fuzumi,
        EndingKind::Kachi,
        EndingKind::Hikiwake,
        EndingKind::MaxMoves,
        EndingKind::Matta,
        EndingKind::Error,
        EndingKind::Sealed,
        EndingKind::DefaultWin,
        EndingKind::DefaultLoss,
        EndingKind::Try,
        EndingKind::Resign,
    ];

    fn ending(rng: &mut Rng) -> Option<Ending> {
        if rng.chance(25) {
            return None;
        }
        Some(Ending {
            kind: ENDINGS[rng.below(ENDINGS.len())],
            text: rng.text(),
            span: Location::default(),
            time: time(rng),
            comments: if rng.chance(40) {
                rng.texts()
            } else {
                Vec::new()
            },
        })
    }

    fn square(rng: &mut Rng) -> Square {
        Square::new(1 + rng.below(9) as u8, 1 + rng.below(9) as u8).expect("1..=9")
    }

    /// A move that is (almost always) not legal in `pos`, in one of the
    /// notations the replayer turns into fouls of different rules.
    fn foul(rng: &mut Rng, pos: &Position, legal: &[Move]) -> Notation {
        loop {
            let n = match rng.below(4) {
                0 => {
                    let mv = Move::Normal {
                        from: square(rng),
                        to: square(rng),
                        promote: rng.chance(30),
                    };
                    Notation::Usi(mv)
                }
                1 => Notation::Usi(Move::Drop {
                    kind: PieceKind::HAND[rng.below(7)],
                    to: square(rng),
                }),
                2 if (0..81).any(|i| {
                    Square::from_index(i)
                        .and_then(|s| pos.piece_at(s))
                        .is_some_and(|p| p.color == pos.side_to_move())
                }) =>
                {
                    // Moving the side to move's own piece somewhere it cannot go.
                    let own: Vec<Square> = (0..81)
                        .filter_map(Square::from_index)
                        .filter(|&s| {
                            pos.piece_at(s)
                                .is_some_and(|p| p.color == pos.side_to_move())
                        })
                        .collect();
                    Notation::Usi(Move::Normal {
                        from: own[rng.below(own.len())],
                        to: square(rng),
                        promote: rng.chance(20),
                    })
                }
                _ => Notation::Csa {
                    color: if rng.chance(80) {
                        pos.side_to_move()
                    } else {
                        pos.side_to_move().flip()
                    },
                    from: rng.chance(80).then(|| square(rng)),
                    to: square(rng),
                    piece: PieceKind::ALL[rng.below(PieceKind::ALL.len())],
                },
            };
            let is_legal = match n {
                Notation::Usi(m) => legal.contains(&m),
                _ => false,
            };
            if !is_legal {
                return n;
            }
        }
    }

    /// Plays up to `len` random moves from `pos`, with comments, times,
    /// bookmarks, evaluations, variations (up to `depth` levels further) and
    /// now and then a foul followed by more moves. `spread` is the percent
    /// chance of forks at a move besides the one forced on the second.
    pub fn line(rng: &mut Rng, mut pos: Position, len: usize, depth: usize, spread: usize) -> Line {
        let mut moves = Vec::new();
        let mut fouled = false;
        for i in 0..len {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            // The deep chain (no spread) must not be cut short by a foul.
            if !fouled && spread > 0 && rng.chance(2) {
                fouled = true;
                let mut e = MoveEntry::new(foul(rng, &pos, &legal), Location::default());
                e.time = time(rng);
                if rng.chance(30) {
                    e.extra_mut().comments = rng.texts();
                }
                if depth > 0 && rng.chance(50) {
                    let n = 1 + rng.below(6);
                    let alt = line(rng, pos.clone(), n, depth - 1, spread);
                    e.extra_mut().variations.push(alt);
                }
                moves.push(e);
                // What follows a foul is not replayed; it need not be legal.
                continue;
            }
            let mv = legal[rng.below(legal.len())];
            let mut e = MoveEntry::new(Notation::Usi(mv), Location::default());
            e.time = time(rng);
            if rng.chance(15) {
                e.extra_mut().comments = rng.texts();
            }
            if rng.chance(3) {
                e.extra_mut().bookmarks.push(rng.text());
            }
            if rng.chance(3) {
                e.extra_mut().eval = Some(Evaluation {
                    score: Some(rng.below(2000) as i64 - 1000),
                    pv: vec![kifu::record::Notation::from_csa_word("+7776FU").unwrap()],
                    rest: Vec::new(),
                });
            }
            // A forced fork on the second move keeps deep nesting reachable.
            let forks = if depth == 0 {
                0
            } else if rng.chance(spread) {
                1 + rng.below(3)
            } else {
                usize::from(i == 1)
            };
            for _ in 0..forks {
                let n = 2 + rng.below(11);
                let alt = line(rng, pos.clone(), n, depth - 1, spread);
                e.extra_mut().variations.push(alt);
            }
            moves.push(e);
            pos.play_unchecked(mv);
        }
        Line {
            moves,
            ending: ending(rng),
            ..Line::default()
        }
    }

    /// Start positions: every preset, presets written out as boards,
    /// and custom positions (a later move number, pieces in hand, gote to move).
    pub fn start(rng: &mut Rng) -> StartPosition {
        const CUSTOM: [&str; 5] = [
            "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
            "8l/1l+R2P3/p2pBG1pp/kps1p4/Nn1P2G2/P1P1P2PP/1PS6/1KSG3+r1/LN2+p3L w Sbgn3p 124",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2",
        ];
        match rng.below(3) {
            0 => StartPosition::Preset(Handicap::ALL[rng.below(Handicap::ALL.len())]),
            1 => StartPosition::Setup(Box::new(
                Handicap::ALL[rng.below(Handicap::ALL.len())].setup(),
            )),
            _ => StartPosition::Setup(Box::new(
                Setup::from_sfen(CUSTOM[rng.below(CUSTOM.len())]).expect("valid SFEN"),
            )),
        }
    }

    pub fn record(rng: &mut Rng, max_depth: usize) -> Record {
        const KEYS: [&str; 12] = [
            "N+",
            "N-",
            "$EVENT",
            "EVENT",
            "$SITE",
            "START_TIME",
            "$END_TIME",
            "TIME_LIMIT",
            "先手",
            "棋戦",
            "\"odd\\key\u{1}",
            "手合割",
        ];
        let header = (0..rng.below(10))
            .map(|_| HeaderField {
                key: KEYS[rng.below(KEYS.len())].to_string(),
                value: rng.text(),
                span: Location::default(),
            })
            .collect();
        let start = start(rng);
        let pos = match &start {
            StartPosition::Preset(h) => Position::from_handicap(*h),
            StartPosition::Setup(s) => Position::from_setup(s).expect("a valid start"),
            StartPosition::Variant(_) => unreachable!("`start` makes shogi starts only"),
        };
        let len = rng.below(120);
        let depth = rng.below(max_depth + 1);
        Record {
            header,
            start,
            comments: if rng.chance(40) {
                rng.texts()
            } else {
                Vec::new()
            },
            notes: if rng.chance(10) {
                rng.texts()
            } else {
                Vec::new()
            },
            main: line(rng, pos, len, depth, 4),
            ..Record::default()
        }
    }
}

/// Records with hostile comments and header values, times of every shape,
/// forks nested up to six levels (and one game 45 deep), fouls mid-line
/// with moves after them, every preset and custom starts, every ending.
#[test]
fn jkf_round_trips_hostile_records() {
    let mut rng = hostile::Rng(0x5eed_1234_abcd_0001);
    let mut records: Vec<Record> = (0..600).map(|_| hostile::record(&mut rng, 6)).collect();
    let mut deep = hostile::record(&mut rng, 0);
    deep.main = hostile::line(&mut rng, Position::startpos(), 60, 45, 0);
    deep.start = kifu::record::StartPosition::default();
    records.push(deep);
    let (mut games, mut fouls, mut forks, mut failures) = (0, 0, 0, Vec::new());
    let mut deepest = 0;
    let mut codes = std::collections::BTreeSet::new();
    let (mut round_trips, mut stable) = (0, 0);
    // The deepest game is more than serde_json (under the validator) reads.
    let schema = validator();
    for (i, r) in records.into_iter().enumerate() {
        let game = match play(r) {
            Ok(g) => g,
            Err(e) => {
                failures.push(format!("record {i} does not replay: {e}"));
                continue;
            }
        };
        games += 1;
        fouls += usize::from(!game.main.verdict.is_legal())
            + game
                .variations
                .iter()
                .filter(|v| !v.line.verdict.is_legal())
                .count();
        forks += game.variations.len();
        deepest = deepest.max(game.max_variation_depth());
        let warnings = jkf::write(&game).1;
        codes.extend(warnings.iter().map(|w| w.code.code()));
        let schema = schema.as_ref().filter(|_| game.max_variation_depth() <= 40);
        // A warning says what the JKF could not hold; the rest must come back.
        // Either way what is read back writes the same JKF again (a comment
        // led by `&` or shaped as an evaluation once read back as a mark),
        // but for the game deeper than serde_json reads.
        let found = if warnings.is_empty() {
            round_trips += 1;
            round_trip_loses(schema, &game)
        } else if game.max_variation_depth() <= 40 {
            stable += 1;
            check_written(schema, &game).err()
        } else {
            schema.and_then(|v| {
                let errs = schema_errors(v, &jkf::write(&game).0);
                (!errs.is_empty()).then(|| format!("schema: {}", errs.join("; ")))
            })
        };
        if let Some(d) = found {
            failures.push(format!("record {i}: {d}"));
        }
    }
    assert!(
        fouls > 50 && forks > 500 && deepest >= 45 && round_trips >= 10 && stable >= 100,
        "{fouls} fouls, {forks} forks, {deepest} deep, {round_trips} without a warning, \
         {stable} with one held to a second write"
    );
    // Every warning the writer gives is met, so every branch is written.
    for code in [
        "header-duplicate",
        "notes-dropped",
        "move-number-dropped",
        "variations-dropped",
        "deep-nesting",
        "ending-changed",
        "ending-dropped",
        "moves-after-foul",
    ] {
        assert!(codes.contains(code), "no game warned {code}: {codes:?}");
    }
    common::assert_no_failures(
        &format!("{games} hostile games ({fouls} fouls, {forks} forks, {deepest} deep) compared"),
        &failures,
    );
}

/// JKF keeps a perpetual check's move as a move, and the special names the
/// checker: `+ILLEGAL_ACTION`, sente committed the foul.
#[test]
fn perpetual_check_jkf_keeps_the_move_and_names_the_checker() {
    for path in common::PERPETUAL_CHECK {
        let (out, _) = jkf::write(&common::game_of(path));
        let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
        let moves = v["moves"].as_array().expect("moves");
        let last = &moves[moves.len() - 2]["move"];
        assert_eq!(
            (&last["color"], &last["from"], &last["to"], &last["piece"]),
            (
                &serde_json::json!(1),
                &serde_json::json!({"x": 1, "y": 2}),
                &serde_json::json!({"x": 1, "y": 1}),
                &serde_json::json!("OU")
            ),
            "{path}:\n{out}"
        );
        assert_eq!(
            moves[moves.len() - 1]["special"],
            "+ILLEGAL_ACTION",
            "{path}"
        );
        common::assert_same_perpetual_check(&out, kifu::Format::Jkf, path);
    }
}

/// A move from an empty square (or one holding another piece) is written as
/// a move with `from`, `to` and the piece the record names, as the other
/// fouls are: read back, it is the same foul, not a shorter legal game with
/// an unverified claim. No `relative`, which could point a reader at a
/// piece that can make the move.
#[test]
fn jkf_keeps_a_no_piece_foul_as_a_move() {
    let kif = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ５五角(78)\n   4 反則勝ち\n";
    let csa = "PI\n+\n+7776FU\n-3334FU\n+7855KA\n%+ILLEGAL_ACTION\n";
    for (text, format) in [(kif, kifu::Format::Kif), (csa, kifu::Format::Csa)] {
        let g = common::game_of_text(text, format);
        let foul = |g: &Game| match &g.main.verdict {
            kifu::Verdict::Foul(f) => (f.rule, f.ply, f.loser, f.mv.map(|m| m.to_usi())),
            kifu::Verdict::Legal => panic!("no foul: {:?}", g.main.diagnostics),
        };
        let want = (
            kifu::Rule::NoPiece,
            3,
            kifu::Color::Sente,
            Some("7h5e".to_string()),
        );
        assert_eq!(foul(&g), want, "{text}");
        let (out, _) = jkf::write(&g);
        let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
        let moves = v["moves"].as_array().expect("moves");
        assert_eq!(moves.len(), 5, "{out}");
        let m = &moves[3]["move"];
        assert_eq!(m["from"], serde_json::json!({"x": 7, "y": 8}), "{out}");
        assert_eq!(m["to"], serde_json::json!({"x": 5, "y": 5}), "{out}");
        assert_eq!(m["piece"], "KA", "{out}");
        assert!(m.get("relative").is_none(), "{out}");
        assert_eq!(moves[4]["special"], "+ILLEGAL_ACTION", "{out}");
        let back = common::game_of_text(&out, kifu::Format::Jkf);
        assert_eq!(foul(&back), want, "{out}");
        assert!(
            back.main.diagnostics.is_empty(),
            "{:?}",
            back.main.diagnostics
        );
    }
}
