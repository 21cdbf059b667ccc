//! Tells the integration tests whether `../shared/corpus` (the real records
//! beside a development checkout) is there: without it, the tests that read
//! it are compiled `#[ignore]`d (`cfg(kifu_no_corpus)`), so that `cargo
//! test` counts them as ignored instead of passing them unrun. Nothing in
//! the library or the command depends on it.

use std::path::Path;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(kifu_no_corpus)");
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
}
