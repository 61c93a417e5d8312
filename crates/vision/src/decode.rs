//! Decoding photo bytes into pixels, safely.
//!
//! The EXIF orientation tag is read and reported but NOT applied: in the
//! fixture set eight photos carry stale tags (pixels already upright), so the
//! pipeline decides the orientation from the content (it tries the four
//! rotations of the grid) and only uses the tag as a hint.

use std::fmt;
use std::io::Cursor;

use image::{DynamicImage, GrayImage, ImageDecoder, ImageFormat, ImageReader, Limits, RgbImage};

/// Largest accepted image, in pixels (width * height). Bigger inputs are
/// refused before any pixel buffer is allocated.
pub const MAX_PIXELS: u64 = 100_000_000;

/// Why a photo could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// Zero bytes of input.
    Empty,
    /// The bytes are not in a format we read (JPEG, PNG, WebP, BMP, TIFF).
    Unsupported(String),
    /// The data ends before the image does (e.g. a partial download).
    Truncated,
    /// The data is malformed.
    Corrupt(String),
    /// The image is larger than [`MAX_PIXELS`] or has a zero dimension.
    BadDimensions {
        /// Width in pixels as declared by the file.
        width: u32,
        /// Height in pixels as declared by the file.
        height: u32,
    },
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::Empty => write!(f, "empty input (0 bytes)"),
            DecodeError::Unsupported(s) => write!(f, "unsupported image format: {s}"),
            DecodeError::Truncated => write!(f, "truncated image data"),
            DecodeError::Corrupt(s) => write!(f, "corrupt image data: {s}"),
            DecodeError::BadDimensions { width, height } => write!(
                f,
                "image is {width}x{height}; accepted sizes are 1x1 up to {} megapixels",
                MAX_PIXELS / 1_000_000
            ),
        }
    }
}

impl std::error::Error for DecodeError {}

/// A decoded photo, pixels exactly as stored (no orientation applied).
#[derive(Debug, Clone)]
pub struct Decoded {
    /// Colour pixels (for drawing the answer back).
    pub rgb: RgbImage,
    /// Luma (Rec. 601 weights), what every vision stage reads.
    pub gray: GrayImage,
    /// The EXIF orientation tag, 1..=8 (1 when absent). Not applied.
    pub exif_orientation: u8,
    /// Format the bytes were recognised as.
    pub format: ImageFormat,
}

/// Decodes `bytes` (JPEG, PNG, WebP, BMP or TIFF, recognised by content).
/// Never panics on bad input; see [`DecodeError`].
pub fn decode(bytes: &[u8]) -> Result<Decoded, DecodeError> {
    if bytes.is_empty() {
        return Err(DecodeError::Empty);
    }
    let format = image::guess_format(bytes)
        .map_err(|_| DecodeError::Unsupported("unrecognised file signature".into()))?;
    if !matches!(
        format,
        ImageFormat::Jpeg
            | ImageFormat::Png
            | ImageFormat::WebP
            | ImageFormat::Bmp
            | ImageFormat::Tiff
    ) {
        return Err(DecodeError::Unsupported(format!("{format:?}")));
    }
    // zune-jpeg conceals a cut-off scan (it fills the rest grey and returns
    // Ok), so a partial download would look like a photo with a grey band.
    if format == ImageFormat::Jpeg && jpeg_is_truncated(bytes) {
        return Err(DecodeError::Truncated);
    }
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    // Room for the decoded RGB buffer plus decoder scratch.
    limits.max_alloc = Some(MAX_PIXELS * 4 + (64 << 20));
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(map_err)?;
    let (width, height) = decoder.dimensions();
    if width == 0 || height == 0 || u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(DecodeError::BadDimensions { width, height });
    }
    // A broken EXIF block must not cost us the photo: treat it as "no tag".
    let exif_orientation = decoder.orientation().map(|o| o.to_exif()).unwrap_or(1);
    let img = DynamicImage::from_decoder(decoder).map_err(map_err)?;
    let rgb = match img {
        DynamicImage::ImageRgb8(rgb) => rgb,
        other => other.to_rgb8(),
    };
    let gray = rgb_to_gray(&rgb);
    Ok(Decoded {
        rgb,
        gray,
        exif_orientation,
        format,
    })
}

/// Rec. 601 luma with integer weights (77, 150, 29)/256: the same weights
/// `image` uses, but a tight loop the compiler vectorises (12 MP in a few ms).
pub fn rgb_to_gray(rgb: &RgbImage) -> GrayImage {
    let (w, h) = rgb.dimensions();
    let src = rgb.as_raw();
    let mut out = vec![0u8; src.len() / 3];
    for (o, p) in out.iter_mut().zip(src.chunks_exact(3)) {
        let v = 77 * u32::from(p[0]) + 150 * u32::from(p[1]) + 29 * u32::from(p[2]) + 128;
        *o = (v >> 8) as u8;
    }
    // Length matches w*h by construction, so this cannot fail; fall back to
    // an empty image rather than panic if it ever did.
    GrayImage::from_raw(w, h, out).unwrap_or_else(|| GrayImage::new(0, 0))
}

fn map_err(e: image::ImageError) -> DecodeError {
    use image::ImageError as E;
    match e {
        E::Unsupported(u) => DecodeError::Unsupported(u.to_string()),
        E::Limits(_) => DecodeError::BadDimensions {
            width: 0,
            height: 0,
        },
        E::IoError(io) if io.kind() == std::io::ErrorKind::UnexpectedEof => DecodeError::Truncated,
        other => {
            let s = other.to_string();
            let low = s.to_ascii_lowercase();
            if low.contains("eof")
                || low.contains("end of file")
                || low.contains("truncat")
                || low.contains("exhausted")
            {
                DecodeError::Truncated
            } else {
                DecodeError::Corrupt(s)
            }
        }
    }
}

/// True when the JPEG's last scan has no end-of-image marker after it.
///
/// Inside entropy-coded data 0xFF is always followed by 0x00 or a restart
/// marker, so SOS (FFDA) and EOI (FFD9) byte pairs are real markers. EXIF
/// thumbnails sit before the main image's first scan, so looking after the
/// LAST SOS checks the main image (or an appended MPF image, itself complete).
fn jpeg_is_truncated(bytes: &[u8]) -> bool {
    let last_sos = bytes.windows(2).rposition(|w| w == [0xFF, 0xDA]);
    match last_sos {
        None => true,
        Some(p) => !bytes[p..].windows(2).any(|w| w == [0xFF, 0xD9]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn encode(img: &DynamicImage, fmt: ImageFormat) -> Vec<u8> {
        let mut v = Vec::new();
        img.write_to(&mut Cursor::new(&mut v), fmt).unwrap();
        v
    }

    fn sample() -> DynamicImage {
        DynamicImage::ImageRgb8(RgbImage::from_fn(64, 48, |x, y| {
            image::Rgb([(x * 4) as u8, (y * 5) as u8, 128])
        }))
    }

    #[test]
    fn empty_and_garbage() {
        assert_eq!(decode(&[]).unwrap_err(), DecodeError::Empty);
        assert!(matches!(
            decode(b"hello world, not an image").unwrap_err(),
            DecodeError::Unsupported(_)
        ));
    }

    #[test]
    fn round_trips_formats() {
        for fmt in [
            ImageFormat::Png,
            ImageFormat::Bmp,
            ImageFormat::Tiff,
            ImageFormat::Jpeg,
        ] {
            let bytes = encode(&sample(), fmt);
            let d = decode(&bytes).unwrap_or_else(|e| panic!("{fmt:?}: {e}"));
            assert_eq!(d.gray.dimensions(), (64, 48));
            assert_eq!(d.exif_orientation, 1);
            assert_eq!(d.format, fmt);
        }
    }

    #[test]
    fn truncated_inputs_are_errors_not_panics() {
        for fmt in [
            ImageFormat::Png,
            ImageFormat::Jpeg,
            ImageFormat::Bmp,
            ImageFormat::Tiff,
        ] {
            let bytes = encode(&sample(), fmt);
            // (A PNG cut inside its final IEND chunk still holds every pixel.)
            let near_end = if fmt == ImageFormat::Jpeg {
                bytes.len() - 3
            } else {
                bytes.len() / 2 + 1
            };
            for cut in [bytes.len() / 2, near_end, 20, 2] {
                assert!(decode(&bytes[..cut]).is_err(), "{fmt:?} cut at {cut}");
            }
        }
    }

    #[test]
    fn corrupt_bytes_do_not_panic() {
        let mut bytes = encode(&sample(), ImageFormat::Png);
        for b in bytes.iter_mut().skip(40).step_by(7) {
            *b ^= 0x5A;
        }
        let _ = decode(&bytes);
    }

    #[test]
    fn huge_dimensions_are_refused() {
        // A BMP header declaring 20000 x 20000 pixels with no pixel data.
        let mut bmp = encode(&sample(), ImageFormat::Bmp);
        bmp[18..22].copy_from_slice(&20000i32.to_le_bytes());
        bmp[22..26].copy_from_slice(&20000i32.to_le_bytes());
        assert!(matches!(
            decode(&bmp),
            Err(DecodeError::BadDimensions { .. })
        ));
    }
}
