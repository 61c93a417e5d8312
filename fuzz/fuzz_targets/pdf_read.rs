//! Fuzz target `pdf_read`: the check lives in `checks/pdf_read.rs`, which
//! `tests/fuzz_corpus.rs` also runs on this target's corpus on every
//! `cargo test`, so what the fuzzer once found stays covered on stable.
#![no_main]

#[path = "../checks/pdf_read.rs"]
mod check;

libfuzzer_sys::fuzz_target!(|data: &[u8]| check::check(data));
