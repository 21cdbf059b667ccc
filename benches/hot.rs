//! Micro-benchmarks of the hot paths: move legality, CSA and KIF parsing,
//! SFEN, JSON and JKF writing. Kept short (small samples, brief measurement) so a
//! `cargo bench` run stays under a minute on two cores.

use criterion::{Criterion, criterion_group, criterion_main};
use kifu::replay::replay;
use kifu::{Format, Position, ReplayOptions};
use std::hint::black_box;
use std::time::Duration;

/// A short opening in CSA, long enough to exercise every statement kind the hot path meets.
const CSA: &str = "V2.2\nN+sente\nN-gote\nPI\n+\n+7776FU\nT1\n-3334FU\nT1\n+2726FU\nT1\n-8384FU\nT1\n+2625FU\nT1\n-8485FU\nT1\n+6978KI\nT1\n-4132KI\nT1\n+2524FU\nT1\n-2324FU\nT1\n+2824HI\nT1\n-8586FU\nT1\n+8786FU\nT1\n-8286HI\nT1\n%TORYO\n";

fn game() -> kifu::Game {
    let records = kifu::parse::csa::parse(CSA).expect("sample parses");
    replay(
        records.into_iter().next().expect("one game"),
        &ReplayOptions::default(),
    )
    .expect("sample replays")
}

fn benches(c: &mut Criterion) {
    let g = game();
    let kif = kifu::emit::kif::write(&g).0;
    // The position before each ply, and the move played from it.
    let mut pos = Position::startpos();
    let mut cases = Vec::new();
    for p in &g.main.plies {
        cases.push((pos.clone(), p.mv));
        pos.play_unchecked(p.mv);
    }
    c.bench_function("check_move (14 plies)", |b| {
        b.iter(|| {
            for (pos, mv) in &cases {
                black_box(pos.check_move(*mv).is_ok());
            }
        })
    });
    // The replayer's engine work per move, from one copy of the start.
    let start = Position::startpos();
    c.bench_function("play + in_check (14 plies)", |b| {
        b.iter(|| {
            let mut pos = start.clone();
            for (_, mv) in &cases {
                black_box(pos.play(*mv).is_ok());
                black_box(pos.in_check());
            }
            pos
        })
    });
    c.bench_function("has_legal_move (14 positions)", |b| {
        b.iter(|| {
            for (pos, _) in &cases {
                black_box(pos.has_legal_move());
            }
        })
    });
    c.bench_function("parse::csa::parse (one game)", |b| {
        b.iter(|| kifu::parse::csa::parse(black_box(CSA)).map(|r| r.len()))
    });
    // What each worker does per game of a streamed multi-game file.
    c.bench_function("reader::csa::Chunk::read (one game)", |b| {
        b.iter(|| {
            let mut chunks = kifu::reader::csa::Chunks::new(
                black_box(CSA.as_bytes()),
                encoding_rs::UTF_8,
                false,
                1,
            );
            chunks.next().map(|c| c.read())
        })
    });
    c.bench_function("parse::kif::parse (one game)", |b| {
        b.iter(|| kifu::parse::kif::parse(black_box(&kif)).map(|r| r.len()))
    });
    // `.kif` files are Shift_JIS, so reading one decodes before it parses.
    let kif_sjis = encoding_rs::SHIFT_JIS.encode(&kif).0.into_owned();
    c.bench_function("decode + parse::kif::parse (one Shift_JIS game)", |b| {
        b.iter(|| {
            let d = kifu::decode::decode(black_box(&kif_sjis), None).expect("decodes");
            kifu::parse::kif::parse(&d.text).map(|r| r.len())
        })
    });
    c.bench_function("emit::sfen::write", |b| {
        b.iter(|| kifu::emit::sfen::write(black_box(&g)).0.len())
    });
    c.bench_function("emit::json::write", |b| {
        b.iter(|| {
            kifu::emit::json::write("bench", "UTF-8", Format::Csa, black_box(&g), false)
                .0
                .len()
        })
    });
    c.bench_function("emit::jkf::write", |b| {
        b.iter(|| kifu::emit::jkf::write(black_box(&g)).0.len())
    });
}

criterion_group! {
    name = hot;
    config = Criterion::default()
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1));
    targets = benches
}
criterion_main!(hot);
