//! kifu's one integration-test binary. Each module guards one area; tests are
//! named after what they guard.
//!
//! Tests that read `../shared/corpus` are marked
//! `#[cfg_attr(kifu_no_corpus, ignore = "needs ../shared/corpus")]`: built
//! without the corpus (build.rs), `cargo test` lists them as ignored.
//! `KIFU_REQUIRE_CORPUS=1` (CI) makes a missing corpus a failure.

#[cfg(unix)] // the fake engines are shell scripts
mod analyze;
mod carry;
mod check_strict;
mod cli;
mod cli_messages;
mod common;
mod csa;
mod csa_write;
mod dedup;
mod endings;
mod explore;
mod fuzz_replay;
mod golden;
mod hostile;
mod jkf;
mod json;
mod judge;
mod ki2;
mod ki2_write;
mod kif;
mod kif_ki2_agree;
mod kif_write;
mod library;
mod manifest;
mod no_loss;
mod opening;
mod output_targets;
mod outputs;
mod recovery;
mod refuse;
mod replay;
mod report;
mod rules;
mod same_game;
mod select;
mod show;
mod stream;
mod terminal_variation;
mod training;
mod typed_record;
mod variants_chu;
mod variants_chu_reference;
mod variants_cli;
mod variants_engine;
mod variants_fixtures;
mod variants_records;
mod variants_rules;
mod variants_show;
mod walk;
