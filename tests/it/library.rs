//! The library's public entry points: `kifu::stream::CsaReader` gives the
//! records a whole read gives, and `kifu::write` gives the bytes
//! `kifu convert` writes.

use crate::common::{corpus_dir, files_with_ext};
use kifu::parse::csa::parse_each;
use kifu::stream::CsaReader;
use kifu::{Format, ReadOptions, ReplayOptions, Target, read_bytes, replay, write};
use std::io::Read;
use std::path::Path;
use std::process::Command;

/// Every item a reader gives, errors as their messages.
fn streamed(reader: impl Read) -> Vec<Result<kifu::Record, String>> {
    CsaReader::new(reader)
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
fn csa_reader_gives_the_records_a_whole_read_gives() {
    let expected = whole(MIXED);
    assert_eq!(expected.len(), 4, "{expected:?}");
    assert!(
        expected[2].is_err(),
        "the third game is broken: {expected:?}"
    );
    assert_eq!(streamed(MIXED.as_bytes()), expected);
}

#[test]
fn csa_reader_gives_the_same_records_however_the_input_is_cut() {
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
fn csa_reader_gives_every_game_of_the_multi_game_fixture() {
    let bytes = std::fs::read(fixture("csa/multi.csa")).unwrap();
    let input = read_bytes(&bytes, None, &ReadOptions::default()).unwrap();
    let records: Vec<_> = CsaReader::new(&bytes[..]).map(Result::unwrap).collect();
    assert_eq!(records.len(), 3);
    assert_eq!(records, input.records);
}

#[test]
fn csa_reader_decodes_a_shift_jis_game_among_ascii_ones() {
    let text = "PI\n+\n+7776FU\n/\nN+羽生\nPI\n+\n+2726FU\n/\nPI\n-\n-3334FU\n";
    let (sjis, _, lossy) = encoding_rs::SHIFT_JIS.encode(text);
    assert!(!lossy);
    let records: Vec<_> = CsaReader::new(&sjis[..]).map(Result::unwrap).collect();
    let input = read_bytes(&sjis, None, &ReadOptions::default()).unwrap();
    assert_eq!(input.encoding, "Shift_JIS");
    assert_eq!(records, input.records);
    assert_eq!(records[1].header_value(&["N+"]), Some("羽生"));
}

#[test]
fn csa_reader_refuses_a_binary_game_naming_its_line_as_the_command_does() {
    let bytes = b"PI\n+\n+7776FU\n/\nPI\n+\n+2726FU\x00\n/\nPI\n+\n";
    let mut reader = CsaReader::new(&bytes[..]);
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
fn csa_reader_reports_a_read_error_after_the_games_before_it_and_stops() {
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
    let mut reader = CsaReader::new(Failing(0));
    let game = reader.next().unwrap().unwrap();
    assert_eq!(game.main.moves.len(), 1);
    let err = reader.next().unwrap().unwrap_err();
    assert!(matches!(err.kind(), kifu::ErrorKind::Io(_)), "{err:?}");
    assert!(reader.next().is_none());
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn csa_reader_gives_the_records_of_every_corpus_csa_file() {
    let dir = corpus_dir("csa_reader_gives_the_records_of_every_corpus_csa_file");
    let mut compared = 0;
    for path in files_with_ext(&dir, &["csa"]) {
        let bytes = std::fs::read(&path).unwrap();
        let Ok(input) = read_bytes(&bytes, Some(&path), &ReadOptions::default()) else {
            continue;
        };
        if input.format != Format::Csa || input.encoding.starts_with("UTF-16") {
            continue;
        }
        let records: Vec<_> = CsaReader::new(&bytes[..]).filter_map(Result::ok).collect();
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
        encoding: input.encoding,
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
