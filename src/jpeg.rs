//! JPEG answer images, encoded in horizontal strips on several threads.
//!
//! Encoding a 12 MP answer is one of the longest stages of the whole job,
//! and one JPEG scan is a single stream of bits. But a baseline JPEG may
//! cut its scan into independent pieces with *restart markers*: at each
//! `RSTn` the decoder resets its DC predictors and starts on a byte
//! boundary, exactly as at the start of the scan. So strips of MCU rows can
//! be encoded as separate images, at the same time, with the same tables,
//! and their entropy-coded data spliced into one scan:
//!
//! ```text
//! strip 0:  SOI APP0 DQT SOF(h0) DHT SOS [data 0] EOI ┐ in parallel
//! strip 1:  SOI APP0 DQT SOF(h1) DHT SOS [data 1] EOI ┘
//! answer:   SOI APP0 DQT SOF(h0+h1) DHT DRI(R) SOS [data 0] RST0 [data 1] EOI
//! ```
//!
//! with the restart interval `R` the MCU count of one strip. Every strip
//! but the last is a whole number of MCU rows (16 pixels for 4:2:0), so no
//! strip pads rows the whole image would not, chroma is subsampled within
//! each MCU (the encoder's default, nearest), and the pixels decoded are
//! the same as from one encode of the whole image (a test checks it).

use image::RgbImage;
use rayon::prelude::*;
use snap_jpeg::marker::{DRI, EOI, RST0, SOF0, SOI, SOS};

/// Height of one MCU row with 4:2:0 subsampling: strips are cut on these.
const MCU_PX: u32 = 16;

/// Below this many pixels an image is encoded in one piece: splitting a
/// small photo's answer costs more in thread hand-off than it saves.
const MIN_STRIPED_PIXELS: u64 = 2_000_000;

/// The JPEG of `image` at `quality`, 4:2:0, encoded in up to `strips`
/// strips at once (see the module docs).
pub fn encode(image: &RgbImage, quality: u8, strips: usize) -> std::io::Result<Vec<u8>> {
    let (w, h) = image.dimensions();
    let too_big = || {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("a {w}x{h} image is too large for JPEG (65535 pixels a side at most)"),
        )
    };
    // JPEG sizes are 16-bit: a wider or taller image cannot be a JPEG.
    u16::try_from(w).map_err(|_| too_big())?;
    u16::try_from(h).map_err(|_| too_big())?;
    let rows = strip_rows(w, h, strips);
    if rows >= h || u64::from(w) * u64::from(h) < MIN_STRIPED_PIXELS {
        return encode_whole(image.as_raw(), w, h, quality);
    }
    let row_bytes = 3 * w as usize;
    // One rayon task per strip: in a batch the pool is busy with other
    // photos and the strips queue behind them; alone, they run at once.
    let encoded: Vec<Vec<u8>> = image
        .as_raw()
        .par_chunks(rows as usize * row_bytes)
        .map(|piece| encode_whole(piece, w, (piece.len() / row_bytes) as u32, quality))
        .collect::<std::io::Result<_>>()?;
    // Every strip but the last is `rows` pixels high, a whole number of
    // MCU rows; `strip_rows` keeps the interval within 16 bits.
    let interval = w.div_ceil(MCU_PX) * (rows / MCU_PX);
    splice(&encoded, h, interval).ok_or_else(|| {
        std::io::Error::other("the JPEG encoder wrote a stream this program cannot splice")
    })
}

/// Largest restart interval, in MCUs: the DRI field is 16 bits.
const MAX_INTERVAL: u32 = u16::MAX as u32;

/// Pixel rows of each strip when a `w` x `h` image is cut into about
/// `strips`: a multiple of [`MCU_PX`], and few enough MCUs that one strip
/// fits a restart interval.
fn strip_rows(w: u32, h: u32, strips: usize) -> u32 {
    let mcu_rows = h.div_ceil(MCU_PX);
    let per_strip = mcu_rows.div_ceil(strips.max(1) as u32);
    let fit = MAX_INTERVAL / w.div_ceil(MCU_PX);
    per_strip.min(fit).max(1) * MCU_PX
}

/// One baseline JPEG of `pixels` (RGB, `w` x `h`), 4:2:0 at `quality`.
fn encode_whole(pixels: &[u8], w: u32, h: u32, quality: u8) -> std::io::Result<Vec<u8>> {
    // Callers checked the sides fit JPEG's 16 bits.
    let (w16, h16) = (w as u16, h as u16);
    // Compressed photos are a fraction of the RGB size; reserve for it.
    let mut bytes = Vec::with_capacity(pixels.len() / 8);
    let mut encoder = jpeg_encoder::Encoder::new(&mut bytes, quality);
    encoder.set_sampling_factor(jpeg_encoder::SamplingFactor::R_4_2_0);
    encoder
        .encode(pixels, w16, h16, jpeg_encoder::ColorType::Rgb)
        .map_err(std::io::Error::other)?;
    Ok(bytes)
}

/// Where one encoded strip's parts lie: its header segments (from SOI to
/// before SOS), its SOS segment, and its entropy-coded data (up to EOI).
struct Parts<'a> {
    headers: &'a [u8],
    sos: &'a [u8],
    data: &'a [u8],
}

/// Splits a JPEG as the encoder writes it: SOI, length-prefixed segments,
/// SOS, the scan's data, EOI. `None` for anything else.
fn parts(jpeg: &[u8]) -> Option<Parts<'_>> {
    if jpeg.get(..2)? != [0xFF, SOI] || jpeg.get(jpeg.len().checked_sub(2)?..)? != [0xFF, EOI] {
        return None;
    }
    let mut at = 2;
    loop {
        let (&[0xFF, marker], rest) = jpeg.get(at..)?.split_first_chunk::<2>()? else {
            return None;
        };
        let len = usize::from(u16::from_be_bytes(*rest.first_chunk::<2>()?));
        let end = at + 2 + len;
        if marker == SOS {
            return Some(Parts {
                headers: &jpeg[..at],
                sos: jpeg.get(at..end)?,
                data: jpeg.get(end..jpeg.len() - 2)?,
            });
        }
        at = end;
    }
}

/// One JPEG of height `h` from `strips` encoded alike, each but the last
/// `interval` MCUs: the first strip's headers with the full height in its
/// frame header and a restart interval, then every strip's data with a
/// restart marker between each two. `None` when a strip is not laid out
/// as expected.
fn splice(strips: &[Vec<u8>], h: u32, interval: u32) -> Option<Vec<u8>> {
    let parts: Vec<Parts> = strips.iter().map(|s| parts(s)).collect::<Option<_>>()?;
    let first = parts.first()?;
    let mut out = Vec::with_capacity(strips.iter().map(Vec::len).sum::<usize>() + 16);
    out.extend_from_slice(first.headers);
    set_frame_height(&mut out, u16::try_from(h).ok()?)?;
    out.extend_from_slice(&[0xFF, DRI, 0, 4]);
    out.extend_from_slice(&u16::try_from(interval).ok()?.to_be_bytes());
    out.extend_from_slice(first.sos);
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            // Restart markers count 0..7 and wrap.
            out.extend_from_slice(&[0xFF, RST0 + ((i - 1) % 8) as u8]);
        }
        out.extend_from_slice(part.data);
    }
    out.extend_from_slice(&[0xFF, EOI]);
    Some(out)
}

/// Writes `h` into the baseline frame header (SOF0) among `headers`.
fn set_frame_height(headers: &mut [u8], h: u16) -> Option<()> {
    let mut at = 2;
    while at + 4 <= headers.len() {
        let marker = headers[at + 1];
        let len = usize::from(u16::from_be_bytes([headers[at + 2], headers[at + 3]]));
        if marker == SOF0 {
            // SOF0: length (2), precision (1), height (2), width (2), ...
            headers
                .get_mut(at + 5..at + 7)?
                .copy_from_slice(&h.to_be_bytes());
            return Some(());
        }
        at += 2 + len;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgb;

    /// A photo-like image: smooth gradients with sharp dark marks, so
    /// every MCU codes differently.
    fn picture(w: u32, h: u32) -> RgbImage {
        RgbImage::from_fn(w, h, |x, y| {
            let mark = (x / 7 + y / 11) % 13 == 0;
            let v = |k: u32| ((x * k + y * (k + 3)) % 251) as u8;
            if mark {
                Rgb([20, 20, 30])
            } else {
                Rgb([v(3), v(5), v(7)])
            }
        })
    }

    fn decode(bytes: &[u8]) -> RgbImage {
        image::load_from_memory_with_format(bytes, image::ImageFormat::Jpeg)
            .expect("a valid JPEG")
            .to_rgb8()
    }

    #[test]
    fn strips_decode_to_the_pixels_of_one_encode() {
        // An odd size: the last strip is short and its right and bottom
        // edges are padded, as in the whole image.
        let image = picture(1733, 1250);
        let whole = encode_whole(image.as_raw(), 1733, 1250, 90).unwrap();
        for strips in [2, 3, 9] {
            let rows = strip_rows(1733, 1250, strips);
            let pieces: Vec<Vec<u8>> = image
                .as_raw()
                .chunks(rows as usize * 3 * 1733)
                .map(|p| encode_whole(p, 1733, (p.len() / (3 * 1733)) as u32, 90).unwrap())
                .collect();
            assert_eq!(pieces.len(), strips, "{strips} strips");
            let interval = 1733u32.div_ceil(MCU_PX) * (rows / MCU_PX);
            let spliced = splice(&pieces, 1250, interval).unwrap();
            assert!(
                decode(&spliced) == decode(&whole),
                "{strips} strips decode alike"
            );
        }
    }

    #[test]
    fn large_images_are_striped_and_small_ones_are_not() {
        let large = picture(2000, 1100);
        let bytes = encode(&large, 90, 2).unwrap();
        assert!(
            bytes.windows(2).any(|m| m == [0xFF, DRI]),
            "restart interval set"
        );
        assert_eq!(decode(&bytes).dimensions(), (2000, 1100));
        let small = picture(640, 480);
        let bytes = encode(&small, 90, 2).unwrap();
        assert!(!bytes.windows(2).any(|m| m == [0xFF, DRI]), "one piece");
    }

    #[test]
    fn restart_intervals_fit_sixteen_bits() {
        for (w, h) in [(65535, 65535), (4608, 3456), (17, 16)] {
            let rows = strip_rows(w, h, 2);
            assert_eq!(rows % MCU_PX, 0);
            assert!(w.div_ceil(MCU_PX) * (rows / MCU_PX) <= MAX_INTERVAL);
        }
    }

    #[test]
    fn a_stream_not_laid_out_as_expected_is_refused() {
        assert!(parts(b"not a jpeg").is_none());
        assert!(parts(&[0xFF, SOI, 0xFF, 0xE0, 0, 200, 0xFF, EOI]).is_none());
    }
}
