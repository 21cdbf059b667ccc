//! Perft timing: `cargo run --release --example perft -- [depth] [sfen]`.

use kifu::Position;
use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|d| d.parse().ok()).unwrap_or(5);
    let sfen: Vec<String> = args.collect();
    let pos = if sfen.is_empty() {
        Position::startpos()
    } else {
        Position::from_sfen(&sfen.join(" ")).expect("a legal SFEN")
    };
    let start = Instant::now();
    let nodes = pos.perft(depth);
    let secs = start.elapsed().as_secs_f64();
    println!(
        "perft({depth}) = {nodes} in {secs:.3} s: {:.2} M nodes/s",
        nodes as f64 / secs / 1e6
    );
}
