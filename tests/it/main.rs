//! kifu's one integration-test binary. Each module guards one area; tests are
//! named after what they guard.
//!
//! Tests that read `../shared/corpus` print `SKIPPED:` and pass when it is absent.

mod carry;
mod cli;
mod common;
mod csa;
mod csa_write;
mod endings;
mod fuzz_replay;
mod golden;
mod hostile;
mod jkf;
mod json;
mod ki2;
mod ki2_write;
mod kif;
mod kif_write;
mod library;
mod manifest;
mod no_loss;
mod outputs;
mod recovery;
mod refuse;
mod replay;
mod report;
mod rules;
mod same_game;
mod show;
mod stream;
mod terminal_variation;
mod typed_record;
mod variants_cli;
mod variants_engine;
mod variants_fixtures;
mod variants_rules;
