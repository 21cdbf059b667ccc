//! Tells the integration tests whether `../shared/corpus` (the real records
//! beside a development checkout) is there: without it, the tests that read
//! it are compiled `#[ignore]`d (`cfg(kifu_no_corpus)`), so that `cargo
//! test` counts them as ignored instead of passing them unrun. Likewise for
//! a USI engine (`KIFU_ENGINE`, else `fairy-stockfish` on PATH or in
//! /usr/games): without one the `kifu analyze` tests are ignored
//! (`cfg(kifu_no_engine)`), unless `KIFU_REQUIRE_ENGINE=1` makes them run
//! and fail. Nothing in the library or the command depends on either.

use std::path::Path;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(kifu_no_corpus)");
    println!("cargo::rustc-check-cfg=cfg(kifu_no_engine)");
    println!("cargo::rerun-if-changed=build.rs");
    let shared = Path::new("../shared");
    // Watching `../shared` (not the corpus itself) notices the corpus
    // arriving as well as leaving. A path that does not exist would make
    // cargo rerun this script, and rebuild the crate, on every build.
    if shared.is_dir() {
        println!("cargo::rerun-if-changed=../shared");
    }
    if !shared.join("corpus").is_dir() {
        println!("cargo::rustc-cfg=kifu_no_corpus");
    }
    engine();
}

/// Set `kifu_no_engine` when no USI engine is found and none is required.
fn engine() {
    for var in ["KIFU_ENGINE", "KIFU_REQUIRE_ENGINE", "PATH"] {
        println!("cargo::rerun-if-env-changed={var}");
    }
    let games = Path::new("/usr/games");
    if games.is_dir() {
        println!("cargo::rerun-if-changed=/usr/games");
    }
    let required = std::env::var_os("KIFU_REQUIRE_ENGINE").is_some_and(|v| v == "1");
    let named = std::env::var_os("KIFU_ENGINE").is_some();
    let on_path = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("fairy-stockfish").is_file()));
    if !(required || named || on_path || games.join("fairy-stockfish").is_file()) {
        println!("cargo::rustc-cfg=kifu_no_engine");
    }
}
