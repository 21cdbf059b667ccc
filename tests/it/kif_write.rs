//! The KIF writer against the corpus: write → read → replay keeps the game.

use crate::common;
use kifu::decode::decode;
use kifu::emit::kif::write;
use kifu::record::{EndingKind, Line};
use kifu::replay::{Game, LineResult, replay};
use kifu::{Record, ReplayOptions};
use std::path::Path;

fn replay_one(rec: Record) -> Result<Game, String> {
    replay(rec, &ReplayOptions::default()).map_err(|e| e.to_string())
}

fn reread(text: &str) -> Game {
    let mut v = kifu::parse::kif::parse(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    replay_one(v.remove(0)).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn usi(r: &LineResult) -> Vec<String> {
    r.plies.iter().map(|p| p.mv.to_usi()).collect()
}

/// A foul line's ending is rewritten by design (反則勝ち after the foul
/// move); compare endings only for lines that replayed legally.
fn ending_kind(line: &Line, r: &LineResult) -> Option<Option<EndingKind>> {
    r.verdict
        .is_legal()
        .then(|| line.ending.as_ref().map(|e| e.kind))
}

fn compare(name: &Path, a: &Game, b: &Game) -> Result<(), String> {
    let n = name.display();
    if usi(&a.main) != usi(&b.main) {
        return Err(format!("{n}: main-line plies differ"));
    }
    if a.main.result != b.main.result {
        return Err(format!(
            "{n}: result {:?} became {:?}",
            a.main.result, b.main.result
        ));
    }
    let (ra, rb) = (&a.record, &b.record);
    if ra.comments != rb.comments {
        return Err(format!("{n}: start comments differ"));
    }
    for (i, (ma, mb)) in ra.main.moves.iter().zip(&rb.main.moves).enumerate() {
        if i >= a.main.plies.len() {
            break;
        }
        if ma.comments() != mb.comments() || ma.bookmarks() != mb.bookmarks() {
            return Err(format!("{n}: comments/bookmarks of move {} differ", i + 1));
        }
        if let (Some(ta), Some(tb)) = (ma.time, mb.time) {
            let secs = |x: Option<u64>| x.map(|v| v / 1000);
            if secs(ta.spent_ms) != secs(tb.spent_ms)
                || (ta.total_ms.is_some() && secs(ta.total_ms) != secs(tb.total_ms))
            {
                return Err(format!("{n}: time of move {} {ta:?} became {tb:?}", i + 1));
            }
        } else if ma.time.is_some() {
            return Err(format!("{n}: time of move {} lost", i + 1));
        }
    }
    let foul_ending = |g: &Game| {
        g.record.main.ending.as_ref().is_some_and(|e| {
            matches!(
                e.kind,
                EndingKind::FoulByPrevious | EndingKind::FoulByMover | EndingKind::FoulBy(_)
            )
        })
    };
    let endings_agree = match ending_kind(&ra.main, &a.main) {
        Some(kind) => kind == rb.main.ending.as_ref().map(|e| e.kind),
        None => foul_ending(b),
    };
    if !endings_agree {
        return Err(format!("{n}: ending kind differs"));
    }
    for key in ["開始日時", "棋戦", "持ち時間", "場所", "戦型"] {
        if ra.header_value(&[key]) != rb.header_value(&[key]) {
            return Err(format!("{n}: header {key} differs"));
        }
    }
    let players = |r: &Record| {
        (
            r.header_value(&["先手", "下手"]).map(str::to_string),
            r.header_value(&["後手", "上手"]).map(str::to_string),
        )
    };
    if players(ra) != players(rb) {
        return Err(format!("{n}: players differ"));
    }
    let vars = |g: &Game| -> Vec<(u32, Vec<String>)> {
        let mut v: Vec<_> = g
            .variations
            .iter()
            .filter(|v| !v.line.plies.is_empty())
            .map(|v| (v.line.first_ply, usi(&v.line)))
            .collect();
        v.sort();
        v
    };
    if vars(a) != vars(b) {
        return Err(format!(
            "{n}: variations differ ({} vs {})",
            a.variations.len(),
            b.variations.len()
        ));
    }
    Ok(())
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn corpus_kif_round_trips() {
    let dir = common::corpus_dir("corpus_kif_round_trips");
    let files = common::files_with_ext(&dir, &["kif", "kifu"]);
    let (mut ok, mut skipped, mut failures) = (0, Vec::new(), Vec::new());
    for f in &files {
        let bytes = std::fs::read(f).unwrap();
        let Ok(d) = decode(&bytes, None) else {
            skipped.push(format!("{}: undecodable", f.display()));
            continue;
        };
        let Ok(mut recs) = kifu::parse::kif::parse(&d.text) else {
            skipped.push(format!("{}: unreadable", f.display()));
            continue;
        };
        let game = match replay_one(recs.remove(0)) {
            Ok(g) => g,
            Err(e) => {
                skipped.push(format!("{}: start position: {e}", f.display()));
                continue;
            }
        };
        let (text, _) = write(&game);
        let again = reread(&text);
        if let Err(e) = compare(f, &game, &again) {
            failures.push(format!("{e}\n{text}"));
            continue;
        }
        let (text2, _) = write(&again);
        if text2 != text {
            failures.push(format!(
                "{}: second write differs\n{text}\n----\n{text2}",
                f.display()
            ));
            continue;
        }
        ok += 1;
    }
    for s in &skipped {
        eprintln!("  skipped {s}");
    }
    common::assert_no_failures(
        &format!(
            "KIF round trip: {ok} ok, {} skipped, {} failed",
            skipped.len(),
            failures.len()
        ),
        &failures,
    );
}

#[test]
#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]
fn corpus_csa_converts_to_kif() {
    let dir = common::corpus_dir("corpus_csa_converts_to_kif");
    let files = common::files_with_ext(&dir, &["csa"]);
    let (mut ok, mut skipped, mut failures) = (0, 0, Vec::new());
    for f in &files {
        let text = common::decode_strict(&std::fs::read(f).unwrap()).expect("corpus CSA decodes");
        let Ok(recs) = kifu::parse::csa::parse(&text) else {
            skipped += 1;
            continue;
        };
        for rec in recs {
            let Ok(game) = replay_one(rec) else {
                skipped += 1;
                continue;
            };
            let (kif, _) = write(&game);
            let again = reread(&kif);
            if usi(&game.main) != usi(&again.main) {
                failures.push(format!("{}: plies differ\n{kif}", f.display()));
            } else {
                ok += 1;
            }
        }
    }
    common::assert_no_failures(
        &format!(
            "CSA → KIF: {ok} games ok, {skipped} skipped, {} failed",
            failures.len()
        ),
        &failures,
    );
}

/// KIF's terminal word is about the side to move: after a perpetual check
/// completed by the checked side's move the checker is to move and loses
/// (反則負け); completed by the checker's own move, the side to move wins
/// (反則勝ち). The `まで` line names the side to move as KfW does.
#[test]
fn perpetual_check_kif_ending_word_is_the_side_to_moves() {
    for path in common::PERPETUAL_CHECK {
        let (kif, _) = write(&common::game_of(path));
        assert!(
            kif.contains("  12 １一玉(12)\n  13 反則負け\nまで12手で先手の反則負け\n"),
            "{path}:\n{kif}"
        );
        assert!(!kif.contains("反則勝ち"), "{path}:\n{kif}");
        common::assert_same_perpetual_check(&kif, kifu::Format::Kif, path);
    }
    let g = common::game_of_text(common::PERPETUAL_CHECK_BY_THE_CHECKER, kifu::Format::Usi);
    let (kif, _) = write(&g);
    assert!(
        kif.contains("  12 ５一飛(52)\n  13 反則勝ち\nまで12手で後手の反則勝ち\n"),
        "{kif}"
    );
}
