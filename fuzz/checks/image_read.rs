//! The photo path through snap-vision's public API: decode, locate, rectify,
//! cells and classify (`Reader::read_bytes`), and the lazy colour decode
//! (`Decoded::rgb`). Any bytes must give a reading or an error, never a
//! panic, within the decoder's pixel limit.
//!
//! Shared by the fuzz target of the same name and by `tests/fuzz_corpus.rs`,
//! which replays the committed corpus on every `cargo test`.

use std::sync::OnceLock;

use snap_vision::decode;
use snap_vision::Reader;

/// The embedded model, loaded once for the whole run.
fn reader() -> &'static Reader {
    static READER: OnceLock<Reader> = OnceLock::new();
    READER.get_or_init(|| Reader::new(None, None).expect("the embedded model loads"))
}

/// Checks one input; panics on a broken promise.
pub fn check(data: &[u8]) {
    // The colour of a JPEG is decoded lazily from the kept bytes, on the
    // first `rgb()` call (drawing the answer): that second decode must
    // succeed or fall back, and agree with the luma's size. Checked on
    // every decodable input, not only the few where a grid is read.
    if let Ok(photo) = decode(data) {
        assert_eq!(photo.rgb().dimensions(), photo.gray.dimensions());
    }
    if let Ok(page) = reader().read_bytes(data, None) {
        assert!(!page.grids.is_empty(), "a reading has a grid");
    }
}
