//! Analysis JSON Lines (`--to json`): every field typed, one snapshot reviewed by eye.

use crate::common::{corpus_dir, files_with_ext};
use kifu::ReplayOptions;
use kifu::input::{ReadOptions, read_path};
use kifu::replay::replay;
use serde::Deserialize;

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Game {
    source: String,
    index: usize,
    format: String,
    encoding: String,
    header: Header,
    start: Start,
    moves: Vec<Move>,
    variations: Vec<Variation>,
    end: Option<End>,
    result: GameResult,
    verdict: Verdict,
    diagnostics: Vec<Diagnostic>,
    opening: Opening,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Opening {
    game: String,
    r#type: String,
    sente: SideOpening,
    gote: SideOpening,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct SideOpening {
    strategy: Vec<Found>,
    castle: Vec<Found>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Found {
    name: String,
    ply: u32,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Header {
    sente: Option<String>,
    gote: Option<String>,
    event: Option<String>,
    site: Option<String>,
    start_time: Option<String>,
    end_time: Option<String>,
    time_control: Option<String>,
    handicap: Option<String>,
    raw: Vec<(String, String)>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct Start {
    sfen: String,
    preset: Option<String>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Move {
    ply: u32,
    usi: String,
    csa: String,
    kif: String,
    ki2: String,
    piece: String,
    capture: Option<String>,
    promote: bool,
    check: bool,
    sfen: String,
    time: Option<Time>,
    comments: Vec<String>,
    eval: Option<i64>,
    pv: Option<Vec<String>>,
    line: u32,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Time {
    spent_ms: Option<u64>,
    total_ms: Option<u64>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct Variation {
    ply: u32,
    moves: Vec<Move>,
    variations: Vec<Variation>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct End {
    kind: String,
    ply: u32,
    text: String,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
struct GameResult {
    winner: Option<String>,
    reason: String,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Verdict {
    legal: bool,
    ply: Option<u32>,
    move_number: Option<u32>,
    rule: Option<String>,
    loser: Option<String>,
    r#move: Option<String>,
    line: Option<u32>,
    column: Option<u32>,
    detail: Option<String>,
}

#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Diagnostic {
    code: String,
    message: String,
    line: Option<u32>,
    column: Option<u32>,
    ply: Option<u32>,
}

fn json_of(path: &std::path::Path) -> Vec<String> {
    let input = read_path(path, &ReadOptions::default()).unwrap();
    input
        .records
        .into_iter()
        .map(|r| {
            let g = replay(r, &ReplayOptions::default()).unwrap();
            write("x", input.encoding.name(), input.format, &g, false).0
        })
        .collect()
}

fn check_moves(moves: &[Move], first_ply: u32) {
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(m.ply, first_ply + i as u32);
        let mv = kifu::Move::from_usi(&m.usi).expect("usi parses");
        assert_eq!(m.promote, mv.is_promotion());
        assert!(kifu::Setup::from_sfen(&m.sfen).is_ok(), "{}", m.sfen);
        assert!(m.ki2.starts_with(['▲', '△']), "{}", m.ki2);
        assert_eq!(m.csa.len(), 7, "{}", m.csa);
        assert!(kifu::PieceKind::from_csa(m.piece.as_bytes()).is_some());
    }
}

fn check_variations(vs: &[Variation]) {
    for v in vs {
        check_moves(&v.moves, v.ply);
        check_variations(&v.variations);
    }
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn analysis_json_of_a_corpus_sample_deserializes_into_typed_structs() {
    let dir = corpus_dir("analysis_json_typed");
    let mut files = Vec::new();
    for sub in [
        "kif/mog-core-scala",
        "csa/kif-parser-examples",
        "mixed/json-kifu-format-fixtures",
        "usi/rsshogi",
    ] {
        files.extend(files_with_ext(
            &dir.join(sub),
            &["kif", "kifu", "csa", "ki2", "jkf", "txt"],
        ));
    }
    let mut games = 0;
    let mut with_variations = 0;
    for f in &files {
        let Ok(input) = read_path(f, &ReadOptions::default()) else {
            continue;
        };
        for r in input.records {
            let Ok(g) = replay(r, &ReplayOptions::default()) else {
                continue;
            };
            let (text, _) = write(
                &f.display().to_string(),
                input.encoding.name(),
                input.format,
                &g,
                false,
            );
            let back: Game =
                serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
            assert_eq!(back.moves.len(), g.main.plies.len());
            check_moves(&back.moves, 1);
            check_variations(&back.variations);
            assert_eq!(back.verdict.legal, g.main.verdict.is_legal());
            assert!(kifu::Setup::from_sfen(&back.start.sfen).is_ok());
            if !back.variations.is_empty() {
                with_variations += 1;
            }
            assert!(!back.result.reason.is_empty());
            games += 1;
        }
    }
    assert!(games > 50, "only {games} games read");
    assert!(with_variations > 0, "the sample holds variations");
}

#[test]
fn analysis_json_of_the_nifu_fixture_matches_the_reviewed_snapshot() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/usi/nifu.usi");
    let lines = json_of(&path);
    assert_eq!(lines.len(), 1);
    let v: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
    insta::assert_json_snapshot!("nifu_analysis_json", v);
}

#[test]
fn analysis_json_keeps_times_comments_and_evaluations() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/csa/v3.csa");
    let g: Game = serde_json::from_str(&json_of(&path)[0]).unwrap();
    assert_eq!(g.header.sente.as_deref(), Some("Alice"));
    assert_eq!(g.start.preset.as_deref(), Some("hirate"));
    assert_eq!(g.moves[0].time.as_ref().unwrap().spent_ms, Some(3250));
    assert!(g.moves.iter().any(|m| m.eval.is_some()));
    assert_eq!(g.result.winner.as_deref(), Some("sente"));
}

// What `write` gives, for every shape a game can take, must be JSON that
// reads into the typed structs above and says what the game holds.

use kifu::emit::json::write;
use kifu::record::{Ending, EndingKind, Evaluation, HeaderField, Line, MoveEntry, MoveTime};
use kifu::record::{Location, Notation, Record, StartPosition};
use kifu::{Format, Handicap, Position};

/// Every variation object under `vs`, nested ones included.
fn count_variations(vs: &[Variation]) -> usize {
    vs.iter().map(|v| 1 + count_variations(&v.variations)).sum()
}

/// Panics, naming `what`, unless `write` gives, compact and pretty alike,
/// JSON that reads into [`Game`] with the game's legal main line (each ply
/// numbered in turn, with the record's comments and times), its header
/// lines, as many variations as the replay found, and its verdict; or, for
/// variations nested deeper than JSON readers take, the warning that says so.
fn assert_write_holds(what: &str, encoding: &'static str, format: Format, g: &kifu::Game) {
    let (compact, warnings) = write(what, encoding, format, g, false);
    let (pretty, pretty_warnings) = write(what, encoding, format, g, true);
    assert_eq!(warnings, pretty_warnings, "{what}");
    assert!(!compact.contains('\n'), "{what}: one line");
    let deep = g.max_variation_depth() > kifu::emit::json::JSON_READABLE_DEPTH;
    assert_eq!(deep, !warnings.is_empty(), "{what}: {warnings:?}");
    if deep {
        assert!(
            serde_json::from_str::<serde_json::Value>(&compact).is_err(),
            "{what}"
        );
        return;
    }
    let value: serde_json::Value =
        serde_json::from_str(&compact).unwrap_or_else(|e| panic!("{what}: {e}"));
    let again: serde_json::Value =
        serde_json::from_str(&pretty).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(value, again, "{what}: pretty and compact differ");
    let back: Game = serde_json::from_value(value).unwrap_or_else(|e| panic!("{what}: {e}"));
    assert_eq!(back.source, what);
    assert_eq!(back.encoding, encoding);
    assert_eq!(back.moves.len(), g.main.plies.len(), "{what}");
    let first = back.moves.first().map_or(1, |m| m.ply);
    check_moves(&back.moves, first);
    for (m, e) in back.moves.iter().zip(&g.record.main.moves) {
        assert_eq!(m.comments, e.comments(), "{what} ply {}", m.ply);
        let time = e.time.map(|t| (t.spent_ms, t.total_ms));
        assert_eq!(
            m.time.as_ref().map(|t| (t.spent_ms, t.total_ms)),
            time,
            "{what}"
        );
    }
    let raw: Vec<(String, String)> = g
        .record
        .header
        .iter()
        .map(|h| (h.key.clone(), h.value.clone()))
        .collect();
    assert_eq!(back.header.raw, raw, "{what}");
    assert_eq!(
        count_variations(&back.variations),
        g.variations.len(),
        "{what}"
    );
    check_variations(&back.variations);
    assert_eq!(back.verdict.legal, g.main.verdict.is_legal(), "{what}");
}

/// xorshift64*: reproducible without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, one_in: usize) -> bool {
        self.below(one_in) == 0
    }
}

/// Text that JSON must escape, or that is not ASCII.
const HOSTILE: [&str; 10] = [
    "plain comment",
    "a \"quoted\" word",
    "back\\slash \\n not a newline",
    "tab\there, newline\nthere, CR\r, bell\u{7}, NUL\u{0}, escape\u{1b}, DEL\u{7f}",
    "浮き飛車に構えた。",
    "▲７六歩 △同　銀 — emoji 🐉 and U+2028\u{2028}U+2029\u{2029}",
    "</script><!-- -->",
    "",
    "\u{feff}BOM inside",
    "'** 35 -6152KI +3938GI",
];

/// An entry for `mv` with, at random, a time, comments and an evaluation.
fn entry(rng: &mut Rng, mv: kifu::Move, line_no: u32) -> MoveEntry {
    let mut e = MoveEntry::new(Notation::Usi(mv), Location::new(0, line_no, 1));
    if rng.chance(2) {
        e.time = Some(MoveTime {
            spent_ms: (!rng.chance(5)).then(|| 250 * rng.below(400) as u64),
            total_ms: rng.chance(2).then(|| 1000 * rng.below(5000) as u64),
        });
    }
    if rng.chance(4) {
        for _ in 0..1 + rng.below(3) {
            let c = HOSTILE[rng.below(HOSTILE.len())].to_string();
            e.extra_mut().comments.push(c);
        }
    }
    if rng.chance(5) {
        let rest = (0..rng.below(4))
            .map(|i| HOSTILE[(i + rng.below(3)) % HOSTILE.len()].to_string())
            .collect();
        let score = (!rng.chance(4)).then(|| rng.below(4000) as i64 - 2000);
        e.extra_mut().eval = Some(Evaluation {
            score,
            pv: Vec::new(),
            rest,
        });
    }
    e
}

/// A move no position allows: a king dropped. Replay stops at it (a foul).
fn foul() -> kifu::Move {
    kifu::Move::Drop {
        kind: PieceKind::Gold,
        to: kifu::Square::new(5, 5).unwrap(),
    }
}

use kifu::PieceKind;

/// A random line of legal moves from `pos`, with variations (nested up to
/// `depth`) and now and then a foul followed by a few more moves.
fn random_line(rng: &mut Rng, mut pos: Position, len: usize, depth: u32) -> Line {
    let mut moves = Vec::new();
    let mut buf = Vec::new();
    for i in 0..len {
        pos.legal_moves_into(&mut buf);
        if buf.is_empty() {
            break;
        }
        if rng.chance(300) {
            // The gold drop is a foul unless a gold is in hand and 5e is empty.
            let g = pos.hand(pos.side_to_move()).count(PieceKind::Gold);
            if g == 0 {
                moves.push(entry(rng, foul(), i as u32 + 10));
                let mv = buf[rng.below(buf.len())];
                moves.push(entry(rng, mv, i as u32 + 11));
                break;
            }
        }
        let strong: Vec<_> = buf
            .iter()
            .copied()
            .filter(|m| m.is_promotion() || pos.piece_at(m.to()).is_some())
            .collect();
        let mv = if !strong.is_empty() && rng.chance(2) {
            strong[rng.below(strong.len())]
        } else {
            buf[rng.below(buf.len())]
        };
        let mut e = entry(rng, mv, i as u32 + 10);
        if depth > 0 && rng.chance(12) {
            for _ in 0..1 + rng.below(2) {
                let len = 1 + rng.below(8);
                let v = random_line(rng, pos.clone(), len, depth - 1);
                if !v.moves.is_empty() {
                    e.extra_mut().variations.push(v);
                }
            }
        }
        moves.push(e);
        pos.play_unchecked(mv);
    }
    let ending = rng.chance(2).then(|| Ending {
        kind: [
            EndingKind::Resign,
            EndingKind::Interrupt,
            EndingKind::TimeUp,
        ][rng.below(3)],
        text: HOSTILE[rng.below(HOSTILE.len())].to_string(),
        span: Location::default(),
        time: None,
        comments: Vec::new(),
    });
    Line {
        moves,
        ending,
        ..Line::default()
    }
}

/// A random game: a preset, a handicap or a position reached by random
/// play (so with pieces in hand and any side to move) as the start.
fn random_game(rng: &mut Rng, index: usize) -> Record {
    let (start, pos) = match rng.below(4) {
        0 => {
            let h = Handicap::ALL[rng.below(Handicap::ALL.len())];
            (StartPosition::Preset(h), Position::from_handicap(h))
        }
        1 => {
            let mut pos = Position::startpos();
            let mut buf = Vec::new();
            for _ in 0..10 + rng.below(60) {
                pos.legal_moves_into(&mut buf);
                let Some(&mv) = buf.get(rng.below(buf.len().max(1))) else {
                    break;
                };
                pos.play_unchecked(mv);
            }
            (StartPosition::Setup(Box::new(pos.to_setup())), pos)
        }
        _ => (StartPosition::default(), Position::startpos()),
    };
    let mut header = Vec::new();
    for key in [
        "先手",
        "後手",
        "棋戦",
        "場所",
        "開始日時",
        "持ち時間",
        "手合割",
        "x\"y",
    ] {
        if rng.chance(2) {
            header.push(HeaderField {
                key: key.to_string(),
                value: HOSTILE[rng.below(HOSTILE.len())].to_string(),
                span: Location::default(),
            });
        }
    }
    let len = 40 + rng.below(180);
    Record {
        index,
        header,
        start,
        main: random_line(rng, pos, len, 3),
        ..Record::default()
    }
}

#[test]
fn analysis_json_holds_the_game_for_generated_games() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut games, mut variations, mut fouls, mut setups) = (0, 0, 0, 0);
    for i in 0..300 {
        let record = random_game(&mut rng, i);
        let is_setup = matches!(record.start, StartPosition::Setup(_));
        let Ok(g) = replay(record, &ReplayOptions::default()) else {
            continue;
        };
        assert_write_holds(&format!("generated game {i}"), "UTF-8", Format::Usi, &g);
        games += 1;
        variations += usize::from(!g.variations.is_empty());
        fouls += usize::from(!g.main.verdict.is_legal());
        setups += usize::from(is_setup);
    }
    // The generator is meant to reach every shape; make sure it did.
    assert!(games >= 290, "{games} games");
    assert!(variations > 20, "{variations} with variations");
    assert!(fouls > 10, "{fouls} with a foul");
    assert!(setups > 20, "{setups} from a written-out position");
}

#[test]
fn analysis_json_holds_the_game_for_hostile_records() {
    // CSA with escapes in comments, floodgate evaluations, times, a custom
    // position and a foul (a pawn dropped where one stands: nifu).
    let csa = "V2.2\nN+\"quoted\\\" \\\\ sente\nN-後手\t名前\n$EVENT:ev\\u0000ent\n\
               P1 *  *  *  * -OU *  *  *  * \nP2 *  *  *  *  *  *  *  *  * \n\
               P3 *  *  *  * +FU *  *  *  * \nP4 *  *  *  *  *  *  *  *  * \n\
               P5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \n\
               P7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \n\
               P9 *  *  *  * +OU *  *  *  * \nP+00KI00FU\nP-00AL\n+\n\
               '*\"q\" \\ \u{1}\u{1f} 日本語 🐉\n+0042KI,T3\n'** 120 -5141OU +4241KI\n\
               -5161OU,T1\n'** -30\n+0052FU,T2\n'*nifu next\n-6151OU\n%TORYO\n";
    let g = replay(
        kifu::parse::csa::parse(csa).expect("parses").remove(0),
        &ReplayOptions::default(),
    )
    .expect("replays");
    assert!(!g.main.verdict.is_legal(), "the CSA ends in a foul");
    assert_eq!(g.main.plies.len(), 2, "two plies before the foul");
    assert_write_holds("hostile CSA", "UTF-8", Format::Csa, &g);

    // KIF with nested variations, a foul inside a variation, comments with
    // every escape, and an ending.
    let kif = "#KIF version=2.0 encoding=UTF-8\n先手：\"a\\b\"\n手合割：平手\n\
               手数----指手---------消費時間--\n*冒頭\\コメント\n\
               \u{20}  1 ７六歩(77)   ( 0:01/00:00:01)\n*\"quote\"\t\\\n\
               \u{20}  2 ３四歩(33)   ( 0:02/00:00:02)+\n\
               \u{20}  3 ２二角成(88) ( 0:03/00:00:04)\n\
               \u{20}  4 同　銀(31)   ( 0:01/00:00:03)\n\
               \u{20}  5 投了\nまで4手で先手の勝ち\n\n\
               変化：2手\n   2 ８四歩(83)   ( 0:05/00:00:05)+\n*var \u{7}\n\
               \u{20}  3 ２六歩(27)   ( 0:01/00:00:02)\n\
               \u{20}  4 ５五角打     ( 0:01/00:00:02)\n\n\
               変化：3手\n   3 ６八銀(79)   ( 0:01/00:00:02)\n\
               \u{20}  4 ８五歩(84)   ( 0:01/00:00:02)+\n\n\
               変化：4手\n   4 ３三角(22)   ( 0:01/00:00:02)\n";
    let input =
        kifu::input::read_bytes(kif.as_bytes(), None, &ReadOptions::default()).expect("reads");
    for r in input.records {
        let g = replay(r, &ReplayOptions::default()).expect("replays");
        assert_eq!(g.variations.len(), 3, "the KIF holds three variations");
        assert!(
            g.variations.iter().any(|v| !v.line.verdict.is_legal()),
            "one variation has a foul"
        );
        assert_write_holds("hostile KIF", input.encoding.name(), input.format, &g);
    }

    // Variations nested deeper than JSON readers take: the warning too.
    let mv = kifu::Move::from_usi("7g7f").unwrap();
    let mut line = Line::default();
    for _ in 0..70 {
        let mut e = MoveEntry::new(Notation::Usi(mv), Location::default());
        if !line.moves.is_empty() {
            e.extra_mut().variations.push(line);
        }
        line = Line {
            moves: vec![e],
            ..Line::default()
        };
    }
    let deep = Record {
        main: line,
        ..Record::default()
    };
    let g = replay(deep, &ReplayOptions::default()).expect("replays");
    assert!(g.max_variation_depth() > kifu::emit::json::JSON_READABLE_DEPTH);
    assert_write_holds("deep nesting", "UTF-8", Format::Usi, &g);

    // Every fixture, whatever its format.
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    for f in files_with_ext(
        &fixtures,
        &["kif", "kifu", "csa", "ki2", "usi", "jkf", "sfen"],
    ) {
        check_file(&f);
    }
}

/// Every game of `f` that reads and replays.
fn check_file(f: &std::path::Path) -> usize {
    let Ok(input) = read_path(f, &ReadOptions::default()) else {
        return 0;
    };
    let mut n = 0;
    for r in input.records {
        if let Ok(g) = replay(r, &ReplayOptions::default()) {
            assert_write_holds(
                &f.display().to_string(),
                input.encoding.name(),
                input.format,
                &g,
            );
            n += 1;
        }
    }
    n
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn analysis_json_holds_the_game_for_the_whole_corpus() {
    let dir = corpus_dir("analysis_json_holds_the_game_for_the_whole_corpus");
    let exts = [
        "kif", "kifu", "csa", "ki2", "ki2u", "usi", "jkf", "json", "sfen", "sfens", "txt",
    ];
    let files = files_with_ext(&dir, &exts);
    let games: usize = files.iter().map(|f| check_file(f)).sum();
    assert!(games > 100, "only {games} corpus games checked");
}
