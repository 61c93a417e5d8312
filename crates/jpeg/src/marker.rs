//! The marker bytes (after 0xFF) of the JPEG segments this workspace
//! reads and writes.

/// Start of image.
pub const SOI: u8 = 0xD8;
/// End of image.
pub const EOI: u8 = 0xD9;
/// Start of scan.
pub const SOS: u8 = 0xDA;
/// Quantisation tables.
pub const DQT: u8 = 0xDB;
/// Huffman tables.
pub const DHT: u8 = 0xC4;
/// Restart interval.
pub const DRI: u8 = 0xDD;
/// EXIF metadata.
pub const APP1: u8 = 0xE1;
/// Adobe's colour transform.
pub const APP14: u8 = 0xEE;
/// Baseline and extended sequential DCT with Huffman coding: the frames
/// whose one interleaved scan this crate can walk.
pub const SOF0: u8 = 0xC0;
/// (Extended sequential; see [`SOF0`].)
pub const SOF1: u8 = 0xC1;
/// Every other start of frame: progressive, lossless, arithmetic coding.
pub const OTHER_SOF: [u8; 11] = [
    0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF,
];
/// Restart markers RST0..RST7.
pub const RST0: u8 = 0xD0;
/// The last restart marker.
pub const RST7: u8 = 0xD7;
