//! The photo path through snap-vision's public API: decode, locate, rectify,
//! cells and classify (`Reader::read_bytes`). Any bytes must give a reading
//! or an error, never a panic, within the decoder's pixel limit.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use snap_vision::pipeline::Reader;

/// The embedded model, loaded once for the whole run.
fn reader() -> &'static Reader {
    static READER: OnceLock<Reader> = OnceLock::new();
    READER.get_or_init(|| Reader::new(None, None).expect("the embedded model loads"))
}

fuzz_target!(|data: &[u8]| {
    let _ = reader().read_bytes(data, None);
});
