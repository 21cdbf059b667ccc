//! The library's public entry points: the CSA stream under `kifu::Reader`
//! gives the records a whole read gives, the reader and its builder read
//! every format, and `kifu::write` and `kifu::Writer` give the bytes
//! `kifu convert` writes.

use crate::common::{corpus_dir, files_with_ext};
use kifu::parse::csa::parse_each;
use kifu::reader::csa::{Chunks, Item, Placer};
use kifu::{Format, ReadOptions, ReplayOptions, Target, read_bytes, replay, write};
use std::io::Read;
use std::path::Path;
use std::process::Command;

/// The records and errors of a CSA stream, read in chunks of `per_chunk`
/// games, as `kifu::Reader` reads a long CSA text.
fn stream(reader: impl Read, per_chunk: usize) -> Vec<Result<kifu::Record, kifu::Error>> {
    let mut placer = Placer::default();
    let mut out = Vec::new();
    for chunk in Chunks::new(reader, encoding_rs::UTF_8, false, per_chunk) {
        for item in placer.place(chunk.read()) {
            match item {
                Item::Game { record, .. } => out.push(record),
                Item::Failed(e) => out.push(Err(e)),
                Item::Warning { .. } => {}
            }
        }
    }
    out
}

/// Every item a stream gives, errors as their messages.
fn streamed(reader: impl Read) -> Vec<Result<kifu::Record, String>> {
    stream(reader, 1)
        .into_iter()
        .map(|r| r.map_err(|e| e.to_string()))
        .collect()
}

/// What `parse_each` gives for the whole text, in the same shape.
fn whole(text: &str) -> Vec<Result<kifu::Record, String>> {
    parse_each(text)
        .into_iter()
        .map(|(_, r)| r.map_err(|e| kifu::Error::new(kifu::ErrorKind::Parse(e)).to_string()))
        .collect()
}

/// A reader that gives at most `n` bytes a call, so games, CRLFs and `/`
/// lines are cut at every possible place.
struct Trickle<'a> {
    bytes: &'a [u8],
    n: usize,
}

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let k = self.n.min(buf.len()).min(self.bytes.len());
        buf[..k].copy_from_slice(&self.bytes[..k]);
        self.bytes = &self.bytes[k..];
        Ok(k)
    }
}

/// Games with a file version line, CRLF and bare CR line ends, a `/` with
/// blanks, an empty piece, a broken game between good ones, and a last game
/// with no final line end.
const MIXED: &str = "V2.2\r\nN+A\r\nPI\r\n+\r\n+7776FU\r\n%TORYO\r\n /\t\r\n\
                     N+B\nPI\n+\n+2726FU\n-8384FU\n/\n\n/\n\
                     PI\n+\n+7776FX\n/\r\
                     'CSA encoding=UTF-8\rPI\r-\r-3334FU\r%CHUDAN";

#[test]
fn csa_stream_gives_the_records_a_whole_read_gives() {
    let expected = whole(MIXED);
    assert_eq!(expected.len(), 4, "{expected:?}");
    assert!(
        expected[2].is_err(),
        "the third game is broken: {expected:?}"
    );
    assert_eq!(streamed(MIXED.as_bytes()), expected);
    let in_threes: Vec<_> = stream(MIXED.as_bytes(), 3)
        .into_iter()
        .map(|r| r.map_err(|e| e.to_string()))
        .collect();
    assert_eq!(in_threes, expected);
}

#[test]
fn csa_stream_gives_the_same_records_however_the_input_is_cut() {
    let expected = whole(MIXED);
    for n in 1..=9 {
        let reader = Trickle {
            bytes: MIXED.as_bytes(),
            n,
        };
        assert_eq!(streamed(reader), expected, "reads of {n} bytes");
    }
}

#[test]
fn csa_stream_gives_every_game_of_the_multi_game_fixture() {
    let bytes = std::fs::read(fixture("csa/multi.csa")).unwrap();
    let input = read_bytes(&bytes, None, &ReadOptions::default()).unwrap();
    let records: Vec<_> = stream(&bytes[..], 2)
        .into_iter()
        .map(Result::unwrap)
        .collect();
    assert_eq!(records.len(), 3);
    assert_eq!(records, input.records);
}

#[test]
fn csa_stream_decodes_a_shift_jis_game_among_ascii_ones() {
    let text = "PI\n+\n+7776FU\n/\nN+羽生\nPI\n+\n+2726FU\n/\nPI\n-\n-3334FU\n";
    let (sjis, _, lossy) = encoding_rs::SHIFT_JIS.encode(text);
    assert!(!lossy);
    let records: Vec<_> = stream(&sjis[..], 1)
        .into_iter()
        .map(Result::unwrap)
        .collect();
    let input = read_bytes(&sjis, None, &ReadOptions::default()).unwrap();
    assert_eq!(input.encoding, encoding_rs::SHIFT_JIS);
    assert_eq!(records, input.records);
    assert_eq!(records[1].header_value(&["N+"]), Some("羽生"));
}

#[test]
fn csa_stream_refuses_a_binary_game_naming_its_line_as_the_command_does() {
    let bytes = b"PI\n+\n+7776FU\n/\nPI\n+\n+2726FU\x00\n/\nPI\n+\n";
    let mut reader = stream(&bytes[..], 1).into_iter();
    assert_eq!(reader.next().unwrap().unwrap().main.moves.len(), 1);
    let err = reader.next().unwrap().unwrap_err();
    match err.kind() {
        kifu::ErrorKind::Decode(kifu::DecodeError::InGame { line, cause }) => {
            assert_eq!(*line, 5);
            assert!(
                matches!(**cause, kifu::DecodeError::Binary { .. }),
                "{cause:?}"
            );
        }
        other => panic!("expected a decode error naming the game, got {other:?}"),
    }
    assert!(
        err.to_string().contains("the game starting at line 5"),
        "{err}"
    );
    assert!(reader.next().is_none());
}

#[test]
fn csa_stream_reports_a_read_error_after_the_games_before_it_and_stops() {
    struct Failing(usize);
    impl Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let first = b"PI\n+\n+7776FU\n/\nPI\n+\n";
            if self.0 > 0 {
                return Err(std::io::Error::other("disk gone"));
            }
            self.0 += 1;
            buf[..first.len()].copy_from_slice(first);
            Ok(first.len())
        }
    }
    let mut reader = stream(Failing(0), 1).into_iter();
    let game = reader.next().unwrap().unwrap();
    assert_eq!(game.main.moves.len(), 1);
    let err = reader.next().unwrap().unwrap_err();
    assert!(matches!(err.kind(), kifu::ErrorKind::Io(_)), "{err:?}");
    assert!(reader.next().is_none());
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn csa_stream_gives_the_records_of_every_corpus_csa_file() {
    let dir = corpus_dir("csa_stream_gives_the_records_of_every_corpus_csa_file");
    let mut compared = 0;
    for path in files_with_ext(&dir, &["csa"]) {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(input) = read_bytes(&bytes, Some(&path), &ReadOptions::default()) else {
            continue;
        };
        if input.format != Format::Csa || input.encoding.name().starts_with("UTF-16") {
            continue;
        }
        let records: Vec<_> = stream(&bytes[..], 4)
            .into_iter()
            .filter_map(Result::ok)
            .collect();
        assert_eq!(records, input.records, "{}", path.display());
        compared += 1;
    }
    assert!(compared > 0, "no CSA file in the corpus was compared");
}

fn fixture(rel: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
}

/// What `kifu convert --to TO` writes for the one game in `file`.
fn converted(file: &Path, to: &str) -> Vec<u8> {
    let out = Command::new(env!("CARGO_BIN_EXE_kifu"))
        .args(["convert", "--to", to])
        .arg(file)
        .output()
        .unwrap();
    out.stdout
}

#[test]
fn write_gives_the_bytes_convert_writes_for_every_target() {
    let file = fixture("kif/nested-variations.kifu");
    let bytes = std::fs::read(&file).unwrap();
    let input = read_bytes(&bytes, Some(&file), &ReadOptions::default()).unwrap();
    let record = input.records.into_iter().next().unwrap();
    let game = replay(record, &ReplayOptions::default()).unwrap();
    let json = kifu::JsonSource {
        name: file.display().to_string(),
        encoding: input.encoding.name(),
        format: input.format,
        pretty: false,
    };
    let targets = [
        ("kif", Target::Kif),
        ("kifu", Target::Kifu),
        ("ki2", Target::Ki2),
        ("ki2u", Target::Ki2u),
        ("csa", Target::Csa(Default::default())),
        ("jkf", Target::Jkf),
        ("usi", Target::Usi),
        ("sfen", Target::Sfen),
        ("json", Target::Json(json)),
    ];
    for (to, target) in targets {
        let (written, _) = write(&game, &target);
        assert!(!written.is_empty(), "--to {to}");
        assert_eq!(written, converted(&file, to), "--to {to}");
    }
}

/// `games` copies of a short game as one multi-game CSA text, with a
/// garbled game near the end.
fn long_csa(games: usize) -> String {
    let mut text = String::from("V2.2\n");
    for i in 0..games {
        text.push_str(&format!("N+p{i}\nPI\n+\n+7776FU\n-3334FU\n%TORYO\n/\n"));
    }
    text.push_str("PI\n+\n+7776FU\n+2726XX\n/\nPI\n-\n-3334FU\n");
    text
}

#[test]
fn reader_streams_a_long_csa_text_giving_the_records_a_whole_read_gives() {
    let text = long_csa(5_000);
    assert!(text.len() > 128 * 1024, "longer than what is read whole");
    let input = read_bytes(text.as_bytes(), None, &ReadOptions::default()).unwrap();
    assert_eq!(input.failed.len(), 1);
    let mut reader = kifu::Reader::from_reader(text.as_bytes()).unwrap();
    assert_eq!(reader.format(), Format::Csa);
    let items: Vec<_> = reader.records().collect();
    assert_eq!(items.len(), input.records.len() + 1);
    let (ok, err): (Vec<_>, Vec<_>) = items.into_iter().partition(Result::is_ok);
    let ok: Vec<_> = ok.into_iter().map(Result::unwrap).collect();
    assert_eq!(ok, input.records);
    let err = err.into_iter().next().unwrap().unwrap_err();
    assert_eq!(err.to_string(), input.failed[0].1.to_string());
    assert_eq!(err.position().unwrap().line, 5_000 * 7 + 5);
}

#[test]
fn reader_detects_every_format_and_gives_its_records() {
    let inputs: [(&str, Format, usize); 5] = [
        ("position startpos moves 7g7f 3c3d\n", Format::Usi, 2),
        (
            "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\n",
            Format::Kif,
            2,
        ),
        ("手合割：平手\n▲７六歩 △３四歩 ▲２二角成\n", Format::Ki2, 3),
        ("PI\n+\n+7776FU\n/\nPI\n+\n+2726FU\n", Format::Csa, 1),
        (
            r#"{"header":{},"moves":[{},{"move":{"from":{"x":7,"y":7},"to":{"x":7,"y":6},"piece":"FU"}}]}"#,
            Format::Jkf,
            1,
        ),
    ];
    for (text, format, plies) in inputs {
        let mut reader = kifu::Reader::from_reader(text.as_bytes()).unwrap();
        assert_eq!(reader.format(), format, "{text}");
        assert_eq!(reader.encoding(), encoding_rs::UTF_8);
        let records: Vec<_> = reader.records().map(Result::unwrap).collect();
        assert_eq!(records[0].main.moves.len(), plies, "{text}");
        let input = read_bytes(text.as_bytes(), None, &ReadOptions::default()).unwrap();
        assert_eq!(records, input.records, "{text}");
    }
}

#[test]
fn reader_refuses_what_is_no_record_and_names_the_path() {
    let err = kifu::ReaderBuilder::new()
        .path("page.html")
        .from_reader(&b"<html><body>hello</body></html>\n"[..])
        .unwrap_err();
    assert!(
        matches!(err.kind(), kifu::ErrorKind::NotARecord { .. }),
        "{err:?}"
    );
    assert_eq!(err.path(), Some(Path::new("page.html")));
}

#[test]
fn reader_gives_a_parse_error_as_an_item_with_its_line() {
    let mut reader = kifu::ReaderBuilder::new()
        .path("bad.csa")
        .from_reader(&b"PI\n+\n+77\n"[..])
        .unwrap();
    assert_eq!(reader.format(), Format::Csa);
    let err = reader.records().next().unwrap().unwrap_err();
    assert_eq!(err.position().map(|p| p.line), Some(3));
    assert_eq!(err.path(), Some(Path::new("bad.csa")));
    assert!(reader.records().next().is_none());
}

#[test]
fn writer_writes_the_stream_convert_writes_for_several_games() {
    let file = fixture("csa/multi.csa");
    let mut reader = kifu::ReaderBuilder::new().from_path(&file).unwrap();
    let games: Vec<_> = reader
        .records()
        .map(|r| replay(r.unwrap(), &ReplayOptions::default()).unwrap())
        .collect();
    assert_eq!(games.len(), 3);
    for (to, target) in [
        ("csa", Target::Csa(Default::default())),
        ("kifu", Target::Kifu),
        ("usi", Target::Usi),
    ] {
        let mut writer = kifu::Writer::new(Vec::new(), target);
        for game in &games {
            writer.write(game).unwrap();
        }
        assert_eq!(writer.games(), 3);
        assert_eq!(
            writer.into_inner().unwrap(),
            converted(&file, to),
            "--to {to}"
        );
    }
}

/// The `stream_convert` example, built as `cargo test` builds examples.
fn stream_convert_example() -> std::path::PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "--quiet", "--example", "stream_convert"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .status()
        .unwrap();
    assert!(status.success(), "the example builds");
    let kifu = Path::new(env!("CARGO_BIN_EXE_kifu"));
    kifu.with_file_name("examples").join("stream_convert")
}

#[test]
fn stream_convert_example_writes_every_game_convert_writes() {
    // Longer than the reader's first look, so it is streamed; a garbled
    // game among the good ones is reported and skipped by both.
    let mut text = String::new();
    let one = std::fs::read_to_string(fixture("csa/multi.csa")).unwrap();
    for i in 0..2_000 {
        if i > 0 {
            text.push_str("/\n");
        }
        text.push_str(&one);
    }
    text.push_str("/\nPI\n+\n+7776FU\n-33\n");
    // Longer than the CLI reads whole, too.
    assert!(text.len() > 256 * 1024, "{}", text.len());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("all.csa");
    std::fs::write(&path, &text).unwrap();
    let example = Command::new(stream_convert_example())
        .stdin(std::fs::File::open(&path).unwrap())
        .output()
        .unwrap();
    let cli = converted(&path, "kifu");
    let games = |b: &[u8]| String::from_utf8_lossy(b).matches("手数----指手").count();
    assert_eq!(games(&example.stdout), 6_000);
    assert_eq!(games(&example.stdout), games(&cli));
    assert_eq!(example.stdout, cli);
    let err = String::from_utf8_lossy(&example.stderr);
    assert!(err.contains("6000 game(s) written, 1 failed"), "{err}");
}
