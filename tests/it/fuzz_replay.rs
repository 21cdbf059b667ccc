//! The fuzz targets' checks (`fuzz/logic.rs`) on stable: every seed in
//! `fuzz/corpus/<target>/`, every saved crash in `fuzz/regressions/<target>/`,
//! and deterministic mutations of the seeds (byte flips, truncations,
//! duplications). Runs in `cargo test`, so a crash found once stays fixed.

#[path = "../../fuzz/logic.rs"]
mod logic;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

/// Mutations per seed file: enough for a few thousand runs in all, and
/// seconds in a debug build.
const MUTATIONS_PER_SEED: usize = 40;

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.retain(|p| p.is_file());
    v.sort();
    v
}

/// A small deterministic generator (no dependency, same inputs every run).
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 33) as usize) % n.max(1)
    }
}

/// The `k`-th mutation of `seed`.
fn mutate(seed: &[u8], k: usize, rng: &mut Lcg) -> Vec<u8> {
    let mut v = seed.to_vec();
    if v.is_empty() {
        return vec![rng.next(256) as u8];
    }
    match k % 4 {
        // Byte flips: a few bits anywhere, multi-byte characters included.
        0 => {
            for _ in 0..1 + rng.next(4) {
                let i = rng.next(v.len());
                v[i] ^= 1 << rng.next(8);
            }
        }
        // Truncation: a cut anywhere, mid-character or mid-statement.
        1 => v.truncate(rng.next(v.len())),
        // Duplication: a slice repeated in place (lines, moves, variations).
        2 => {
            let a = rng.next(v.len());
            let b = (a + 1 + rng.next(200)).min(v.len());
            let chunk = v[a..b].to_vec();
            for _ in 0..1 + rng.next(3) {
                v.splice(a..a, chunk.iter().copied());
            }
        }
        // Deletion of a slice.
        _ => {
            let a = rng.next(v.len());
            let b = (a + 1 + rng.next(64)).min(v.len());
            v.drain(a..b);
        }
    }
    v
}

#[test]
fn fuzz_targets_survive_corpus_and_mutations() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    // The test harness prints every panic; the failures are listed below.
    let mut failures = Vec::new();
    let mut runs = 0usize;
    for target in logic::TARGETS {
        let seeds = files(&root.join("corpus").join(target));
        assert!(!seeds.is_empty(), "no seed corpus for {target}");
        let regressions = files(&root.join("regressions").join(target));
        let mut rng = Lcg(target.len() as u64 * 0x9e37_79b9);
        let mut inputs: Vec<(String, Vec<u8>)> = Vec::new();
        for p in seeds.iter().chain(&regressions) {
            let data = std::fs::read(p).unwrap();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            for k in 0..MUTATIONS_PER_SEED {
                inputs.push((format!("{name}~{k}"), mutate(&data, k, &mut rng)));
            }
            inputs.push((name, data));
        }
        for (name, data) in inputs {
            runs += 1;
            if catch_unwind(AssertUnwindSafe(|| logic::run(target, &data))).is_err() {
                // Saved for triage; copy into fuzz/regressions/<target>/ once fixed.
                let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz_failures");
                let _ = std::fs::create_dir_all(&out);
                let _ = std::fs::write(out.join(format!("{target}-{name}")), &data);
                failures.push(format!("{target}/{name}"));
            }
        }
    }
    eprintln!("fuzz_replay: {runs} runs");
    assert!(
        failures.is_empty(),
        "{} failing inputs: {failures:#?}",
        failures.len()
    );
}
