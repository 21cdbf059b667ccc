//! Generate random legal games for benchmarks: `gen_games FORMAT COUNT OUT_DIR [SEED]`.
//!
//! FORMAT is `usi`, `csa` or `kif`. Games are played by a deterministic
//! pseudo-random mover that prefers captures and promotions, so they look less
//! like noise than uniform random play: 60–220 plies, stopping at mate. Each
//! game goes to its own file, `OUT_DIR/gNNNNN.EXT`.

use kifu::record::{Line, Location, MoveEntry, MoveTime, Notation, Record};
use kifu::replay::replay;
use kifu::{Position, ReplayOptions};

/// xorshift64*: small, fast and reproducible.
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
}

fn random_game(rng: &mut Rng) -> Record {
    let mut pos = Position::startpos();
    let target = 60 + rng.below(160);
    let mut moves = Vec::with_capacity(target);
    let mut buf = Vec::new();
    for _ in 0..target {
        pos.legal_moves_into(&mut buf);
        if buf.is_empty() {
            break;
        }
        // Prefer captures and promotions half of the time.
        let strong: Vec<_> = buf
            .iter()
            .copied()
            .filter(|m| m.is_promotion() || pos.piece_at(m.to()).is_some())
            .collect();
        let mv = if !strong.is_empty() && rng.below(2) == 0 {
            strong[rng.below(strong.len())]
        } else {
            buf[rng.below(buf.len())]
        };
        let mut e = MoveEntry::new(Notation::Usi(mv), Location::default());
        e.time = Some(MoveTime {
            spent_ms: Some(1000 * rng.below(60) as u64),
            total_ms: None,
        });
        moves.push(e);
        pos.play_unchecked(mv);
    }
    Record {
        main: Line {
            moves,
            ..Line::default()
        },
        ..Record::default()
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 4 {
        eprintln!("usage: gen_games usi|csa|kif COUNT OUT_DIR [SEED]");
        std::process::exit(2);
    }
    let format = args[1].as_str();
    let count: usize = args[2].parse().expect("COUNT is a number");
    let out = std::path::Path::new(&args[3]);
    let seed: u64 = args
        .get(4)
        .map_or(0x9e37_79b9_7f4a_7c15, |s| s.parse().expect("SEED"));
    std::fs::create_dir_all(out).expect("create OUT_DIR");
    let mut rng = Rng(seed | 1);
    let mut plies = 0usize;
    for i in 0..count {
        let game = replay(random_game(&mut rng), &ReplayOptions::default()).expect("legal start");
        plies += game.main.plies.len();
        let text = match format {
            "usi" => kifu::emit::usi::write(&game).0 + "\n",
            "csa" => kifu::emit::csa::write(&game, &Default::default()).0,
            // `.kif` is Shift_JIS, as Kifu for Windows writes it.
            "kif" => {
                let opts = kifu::emit::kif::KifOptions::shift_jis();
                let text = kifu::emit::kif::write_with(&game, &opts).0;
                let bytes = kifu::emit::kif::encode_sjis(&text).0;
                std::fs::write(out.join(format!("g{i:05}.kif")), bytes).expect("write");
                continue;
            }
            other => {
                eprintln!("unknown format {other}");
                std::process::exit(2);
            }
        };
        std::fs::write(out.join(format!("g{i:05}.{format}")), text).expect("write");
    }
    eprintln!("{count} games, {plies} plies");
}
