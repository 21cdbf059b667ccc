//! kifu's one integration-test binary. Each module guards one area; tests are
//! named after what they guard.
//!
//! Tests that read `../shared/corpus` print `SKIPPED:` and pass when it is absent.

mod common;
mod csa;
mod jkf;
mod replay;
