//! Fuzz target `roundtrip_ki2`: see `fuzz/logic.rs` for what it checks.
#![no_main]

#[path = "../logic.rs"]
mod logic;

libfuzzer_sys::fuzz_target!(|data: &[u8]| logic::run("roundtrip_ki2", data));
