//! Decoding photo bytes into pixels, safely.
//!
//! The EXIF orientation tag is read and reported but NOT applied: in the
//! fixture set eight photos carry stale tags (pixels already upright), so the
//! pipeline decides the orientation from the content (it tries the four
//! rotations of the grid) and only uses the tag as a hint.

use std::fmt;
use std::io::{BufRead, Cursor, Seek};
use std::path::Path;
use std::sync::{Arc, OnceLock};

use image::metadata::Orientation;
use image::{DynamicImage, GrayImage, ImageDecoder, ImageFormat, ImageReader, Limits, RgbImage};
use snap_solver::files::{self, FileLimit};
use zune_core::bytestream::ZCursor;
use zune_core::colorspace::ColorSpace;
use zune_core::options::DecoderOptions;
use zune_jpeg::JpegDecoder;

/// Largest accepted image, in pixels (width * height): 2^26, about 67
/// megapixels, above the 48-64 MP of the largest common phone photos.
/// Bigger inputs are refused before any pixel buffer is allocated. At this
/// size one photo's buffers (the decoder's RGBA output, RGB, gray, and the
/// copy the answer is drawn on) stay under 1 GB; at 100 MP they did not.
pub const MAX_PIXELS: u64 = 1 << 26;

/// Largest photo file read, in bytes: an uncompressed RGBA image of
/// [`MAX_PIXELS`] pixels (the largest a decodable file needs to be) plus
/// 16 MiB for metadata, 272 MiB in all. A bigger file is refused before
/// any of it is read, and the read itself stops at this bound (a file that
/// grows while it is read).
pub const MAX_FILE_BYTES: u64 = MAX_PIXELS * 4 + (16 << 20);

/// Why a photo could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DecodeError {
    /// Zero bytes of input.
    Empty,
    /// The bytes are not in a format we read (JPEG, PNG, WebP, BMP, TIFF, GIF).
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
    /// The decoder needs more memory than an image of [`MAX_PIXELS`] may
    /// use (a GIF frame larger than its screen, a size past the decoder's
    /// own limits); the size itself is not known here.
    TooLarge,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::Empty => write!(f, "empty input (0 bytes)"),
            DecodeError::Unsupported(s) => write!(f, "unsupported image format: {s}"),
            DecodeError::Truncated => write!(f, "truncated image data"),
            DecodeError::Corrupt(s) => write!(f, "corrupt image data: {s}"),
            // The decoder reports a side of 0 when the header is damaged
            // or states more than it can hold (a 16384-pixel WebP).
            DecodeError::BadDimensions { width, height } if *width == 0 || *height == 0 => write!(
                f,
                "image header gives {width}x{height} pixels: a zero side, so the header is \
                 damaged or states a size the decoder cannot hold"
            ),
            DecodeError::BadDimensions { width, height } => write!(
                f,
                "image is {width}x{height}; accepted sizes are 1x1 up to {} megapixels",
                MAX_PIXELS / 1_000_000
            ),
            DecodeError::TooLarge => write!(
                f,
                "image too large to decode: it needs more memory than an image of {} megapixels \
                 may use",
                MAX_PIXELS / 1_000_000
            ),
        }
    }
}

impl std::error::Error for DecodeError {}

/// A decoded photo, pixels exactly as stored (no orientation applied).
///
/// Every vision stage reads only [`Decoded::gray`]; colour is wanted only to
/// draw the answer back. So a JPEG is decoded to its luma plane alone (no
/// chroma IDCT, upsampling or colour conversion: about a third of a full
/// decode), and its colour is decoded from the kept bytes the first time
/// [`Decoded::rgb`] is called. `--no-image` never pays for colour.
#[derive(Debug, Clone)]
pub struct Decoded {
    /// Luma, what every vision stage reads: for a YCbCr JPEG its Y plane
    /// (JFIF's Y is Rec. 601 luma), otherwise Rec. 601 computed from the
    /// colour pixels (with the weights the model's training used).
    pub gray: GrayImage,
    /// The EXIF orientation tag, 1..=8 (1 when absent). Not applied.
    pub exif_orientation: u8,
    /// Format the bytes were recognised as.
    pub format: ImageFormat,
    /// The colour pixels, once decoded.
    rgb: OnceLock<RgbImage>,
    /// The JPEG opened to change in place, once opened (`None` inside
    /// when it is not one `snap-jpeg` changes).
    in_place: OnceLock<Option<snap_jpeg::Photo>>,
    /// The JPEG the colour is decoded from on demand (`None` when `rgb`
    /// was filled at construction).
    jpeg: Option<Arc<[u8]>>,
}

impl Decoded {
    /// A decoded image from its colour pixels; the luma is computed here.
    pub(crate) fn from_rgb(rgb: RgbImage, exif_orientation: u8, format: ImageFormat) -> Decoded {
        let gray = rgb_to_gray(&rgb);
        Decoded {
            gray,
            exif_orientation,
            format,
            rgb: OnceLock::from(rgb),
            in_place: OnceLock::new(),
            jpeg: None,
        }
    }

    /// The colour pixels (for drawing the answer back), decoded on the
    /// first call for a JPEG.
    ///
    /// The luma of the same bytes decoded already, so the colour decode
    /// fails only when memory runs out; then the gray image, in colour
    /// form, stands in, so the answer is still drawn.
    pub fn rgb(&self) -> &RgbImage {
        self.rgb.get_or_init(|| self.decode_rgb())
    }

    /// The colour pixels, taken out to draw on (no copy of a 12 MP
    /// image); a later [`Decoded::rgb`] decodes them again.
    pub fn take_rgb(&mut self) -> RgbImage {
        match self.rgb.take() {
            Some(rgb) => rgb,
            None => self.decode_rgb(),
        }
    }

    /// The whole file the photo was decoded from, as read, when it is a
    /// JPEG whose colour is decoded on demand (`None` for the others).
    pub fn file_bytes(&self) -> Option<&[u8]> {
        self.jpeg.as_deref()
    }

    /// The JPEG file the photo was decoded from, opened to make its answer
    /// in place (`snap_jpeg::Photo`: kept from the decoding when it was
    /// asked to open JPEGs, else its scan walked on the first call); `None`
    /// for a photo that was not a JPEG read by luma first, or a JPEG
    /// `snap-jpeg` does not change (progressive, gray, ...).
    pub fn in_place(&self) -> Option<&snap_jpeg::Photo> {
        self.in_place
            .get_or_init(|| snap_jpeg::Photo::open(self.jpeg.clone()?).ok())
            .as_ref()
    }

    /// Decodes the colour pixels from the kept JPEG bytes (see
    /// [`Decoded::rgb`] for the fallback).
    fn decode_rgb(&self) -> RgbImage {
        self.jpeg
            .as_deref()
            .and_then(|bytes| jpeg_pixels(bytes, ColorSpace::RGB).ok())
            .and_then(|(w, h, px)| RgbImage::from_raw(w, h, px))
            .unwrap_or_else(|| DynamicImage::ImageLuma8(self.gray.clone()).to_rgb8())
    }
}

/// Decodes `bytes` (JPEG, PNG, WebP, BMP, TIFF or GIF, recognised by
/// content; the first frame of an animated GIF). A YCbCr or gray JPEG is
/// decoded to luma only (colour later, on demand: see [`Decoded`]).
/// Never panics on bad input; see [`DecodeError`].
pub fn decode(bytes: &[u8]) -> Result<Decoded, DecodeError> {
    decode_opening(bytes, false)
}

/// [`decode`]; with `open`, a JPEG decoded to luma is also kept opened to
/// make its answer in place ([`Decoded::in_place`]): its luma is decoded
/// by the walk that opens it (see [`decode_jpeg_luma`]), so the opening
/// costs nothing more.
pub(crate) fn decode_opening(bytes: &[u8], open: bool) -> Result<Decoded, DecodeError> {
    decode_opening_from(bytes, None, open)
}

/// [`decode_opening`] of bytes held in `shared` (as read by
/// [`read_file_shared`]): a JPEG keeps them, not a copy.
pub(crate) fn decode_opening_shared(
    shared: &Arc<[u8]>,
    open: bool,
) -> Result<Decoded, DecodeError> {
    decode_opening_from(shared, Some(shared), open)
}

/// [`decode_opening`] of `bytes`, which `shared` holds when given.
fn decode_opening_from(
    bytes: &[u8],
    shared: Option<&Arc<[u8]>>,
    open: bool,
) -> Result<Decoded, DecodeError> {
    if bytes.is_empty() {
        return Err(DecodeError::Empty);
    }
    if is_heif(bytes) {
        return Err(DecodeError::Unsupported(HEIF_ADVICE.into()));
    }
    let format = image::guess_format(bytes)
        .map_err(|_| DecodeError::Unsupported("unrecognised file signature".into()))?;
    if !is_read(format) {
        return Err(DecodeError::Unsupported(format!("{format:?}")));
    }
    // zune-jpeg conceals a cut-off scan (it fills the rest grey and returns
    // Ok), so a partial download would look like a photo with a grey band.
    if format == ImageFormat::Jpeg && jpeg_is_truncated(bytes) {
        return Err(DecodeError::Truncated);
    }
    if format == ImageFormat::Jpeg {
        if let Some(decoded) = decode_jpeg_luma(bytes, shared, open)? {
            return Ok(decoded);
        }
    }
    let mut reader = ImageReader::with_format(Cursor::new(bytes), format);
    let mut limits = Limits::default();
    // Room for the decoded RGB buffer plus decoder scratch.
    limits.max_alloc = Some(MAX_PIXELS * 4 + (64 << 20));
    reader.limits(limits);
    let mut decoder = reader.into_decoder().map_err(map_err)?;
    let (width, height) = decoder.dimensions();
    check_dimensions(width, height)?;
    // A broken EXIF block must not cost us the photo: treat it as "no tag".
    let exif_orientation = decoder.orientation().map(|o| o.to_exif()).unwrap_or(1);
    let img = DynamicImage::from_decoder(decoder).map_err(map_err)?;
    let rgb = match img {
        DynamicImage::ImageRgb8(rgb) => rgb,
        other => other.to_rgb8(),
    };
    Ok(Decoded::from_rgb(rgb, exif_orientation, format))
}

/// True when `bytes` start with the signature of a format [`decode`]
/// reads: such a file is a photo, whatever text its own bytes hold later.
pub fn has_photo_signature(bytes: &[u8]) -> bool {
    image::guess_format(bytes).is_ok_and(is_read)
}

/// The width and height an image's header declares, read from `reader`
/// without decoding any pixel (`None` when the header cannot be read):
/// what decoding it will cost, known before the file is read whole.
pub fn declared_dimensions<R: BufRead + Seek>(reader: R) -> Option<(u32, u32)> {
    let guessed = ImageReader::new(reader).with_guessed_format().ok()?;
    if guessed.format() == Some(ImageFormat::Jpeg) {
        return jpeg_dimensions(guessed.into_inner());
    }
    guessed.into_dimensions().ok()
}

/// The frame size of the JPEG `reader` holds (read from its start): its
/// segments are skipped up to the first start of frame. `image` reads a
/// whole JPEG into memory to find it (a second read of a photo file of
/// megabytes). `None` for no frame or a frame of no pixels.
fn jpeg_dimensions<R: BufRead + Seek>(mut reader: R) -> Option<(u32, u32)> {
    let mut two = [0u8; 2];
    reader.read_exact(&mut two).ok()?;
    if two != [0xFF, 0xD8] {
        return None;
    }
    let mut byte = [0u8; 1];
    loop {
        // A marker: 0xFF, any fill bytes 0xFF, its code. Each step reads
        // at least two bytes: the file's end ends the loop.
        reader.read_exact(&mut byte).ok()?;
        if byte[0] != 0xFF {
            return None;
        }
        while byte[0] == 0xFF {
            reader.read_exact(&mut byte).ok()?;
        }
        let code = byte[0];
        match code {
            // Markers with no segment.
            0x01 | 0xD0..=0xD8 => continue,
            // The image's end or its scan, with no frame before.
            0xD9 | 0xDA => return None,
            _ => {}
        }
        reader.read_exact(&mut two).ok()?;
        let len = i64::from(u16::from_be_bytes(two));
        // Start of frame: C0-CF but for C4 (Huffman tables), C8 (an
        // extension) and CC (arithmetic conditioning).
        if (0xC0..=0xCF).contains(&code) && !matches!(code, 0xC4 | 0xC8 | 0xCC) {
            let mut frame = [0u8; 5];
            reader.read_exact(&mut frame).ok()?;
            let height = u32::from(u16::from_be_bytes([frame[1], frame[2]]));
            let width = u32::from(u16::from_be_bytes([frame[3], frame[4]]));
            return (width > 0 && height > 0).then_some((width, height));
        }
        if len < 2 {
            return None;
        }
        reader.seek_relative(len - 2).ok()?;
    }
}

/// What to do with a HEIF photo: phones save HEIC by default (an iPhone
/// unless set otherwise), and no decoder of it is at hand without a
/// system codec library (HEVC), which this tool does not depend on.
const HEIF_ADVICE: &str = "HEIC/HEIF (a phone's photo format) is not read; \
     share or export the photo as JPEG (on an iPhone, Settings > Camera > Formats > Most Compatible)";

/// Whether `bytes` open as a HEIF image: an ISO base media file whose
/// `ftyp` box names a HEIF brand as its own, or the generic image brand
/// (`mif1`, `msf1`) without AVIF's among the brands it is compatible with.
fn is_heif(bytes: &[u8]) -> bool {
    const HEVC: [&[u8]; 4] = [b"heic", b"heix", b"hevc", b"hevx"];
    const GENERIC: [&[u8]; 2] = [b"mif1", b"msf1"];
    const AV1: [&[u8]; 2] = [b"avif", b"avis"];
    if bytes.get(4..8) != Some(b"ftyp") {
        return false;
    }
    let Some(major) = bytes.get(8..12) else {
        return false;
    };
    let size = bytes
        .get(0..4)
        .map_or(0, |b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]) as usize);
    let compatible = bytes.get(16..size.min(bytes.len())).unwrap_or_default();
    HEVC.contains(&major)
        || (GENERIC.contains(&major) && !compatible.chunks(4).any(|b| AV1.contains(&b)))
}

/// True for the formats [`decode`] reads: JPEG, PNG, WebP, BMP, TIFF, GIF.
fn is_read(format: ImageFormat) -> bool {
    matches!(
        format,
        ImageFormat::Jpeg
            | ImageFormat::Png
            | ImageFormat::WebP
            | ImageFormat::Bmp
            | ImageFormat::Tiff
            | ImageFormat::Gif
    )
}

/// An error unless `width` x `height` is an accepted size.
fn check_dimensions(width: u32, height: u32) -> Result<(), DecodeError> {
    if width == 0 || height == 0 || u64::from(width) * u64::from(height) > MAX_PIXELS {
        return Err(DecodeError::BadDimensions { width, height });
    }
    Ok(())
}

/// The luma of a YCbCr or gray JPEG, its Y plane only; its colour stays
/// to be decoded on demand. A baseline colour JPEG (what cameras write) is
/// decoded by `snap-jpeg` as it opens the file to answer in place: one
/// walk of the scan for both, sample for sample the Y plane zune-jpeg
/// gives, which decodes the others (progressive, gray, ...; `image` uses
/// it too). `None` for the other colour spaces (CMYK, YCCK, Adobe RGB),
/// whose luma needs the colour conversion: the caller decodes those
/// through `image`, in colour. With `open`, the opened JPEG is kept (see
/// [`decode_opening`]).
fn decode_jpeg_luma(
    bytes: &[u8],
    shared: Option<&Arc<[u8]>>,
    open: bool,
) -> Result<Option<Decoded>, DecodeError> {
    let mut decoder = JpegDecoder::new_with_options(ZCursor::new(bytes), jpeg_options());
    decoder.decode_headers().map_err(map_jpeg_err)?;
    if !matches!(
        decoder.input_colorspace(),
        Some(ColorSpace::YCbCr | ColorSpace::Luma)
    ) {
        return Ok(None);
    }
    // A broken EXIF block must not cost us the photo: treat it as "no tag".
    let exif_orientation = decoder
        .exif()
        .and_then(|exif| Orientation::from_exif_chunk(exif))
        .map_or(1, |o| o.to_exif());
    // Kept for the answer: the caller's shared bytes, else a copy.
    let jpeg: Arc<[u8]> = shared.map_or_else(|| Arc::from(bytes), Arc::clone);
    if let Some((width, height)) = decoder.dimensions() {
        // JPEG sizes are 16-bit, so these conversions are exact.
        let (width, height) = (width as u32, height as u32);
        check_dimensions(width, height)?;
        if let Ok((photo, luma)) = snap_jpeg::Photo::open_with_luma(Arc::clone(&jpeg)) {
            if let Some(gray) = GrayImage::from_raw(width, height, luma) {
                return Ok(Some(Decoded {
                    gray,
                    exif_orientation,
                    format: ImageFormat::Jpeg,
                    rgb: OnceLock::new(),
                    in_place: match open {
                        true => OnceLock::from(Some(photo)),
                        false => OnceLock::new(),
                    },
                    jpeg: Some(jpeg),
                }));
            }
        }
    }
    // Not one `snap-jpeg` opens: it is not changed in place either.
    let in_place = match open {
        true => OnceLock::from(None),
        false => OnceLock::new(),
    };
    let (width, height, luma) = jpeg_pixels(bytes, ColorSpace::Luma)?;
    let gray = GrayImage::from_raw(width, height, luma).ok_or_else(|| {
        DecodeError::Corrupt("the decoder returned a short pixel buffer".to_string())
    })?;
    Ok(Some(Decoded {
        gray,
        exif_orientation,
        format: ImageFormat::Jpeg,
        rgb: OnceLock::new(),
        in_place,
        jpeg: Some(jpeg),
    }))
}

/// Width, height and pixels of a JPEG decoded to `colour` (RGB or Luma),
/// the size checked against [`MAX_PIXELS`] before any pixel is allocated.
fn jpeg_pixels(bytes: &[u8], colour: ColorSpace) -> Result<(u32, u32, Vec<u8>), DecodeError> {
    let options = jpeg_options().jpeg_set_out_colorspace(colour);
    let mut decoder = JpegDecoder::new_with_options(ZCursor::new(bytes), options);
    decoder.decode_headers().map_err(map_jpeg_err)?;
    let (width, height) = decoder.dimensions().unwrap_or((0, 0));
    // JPEG sizes are 16-bit, so these conversions never saturate.
    let (width, height) = (
        u32::try_from(width).unwrap_or(u32::MAX),
        u32::try_from(height).unwrap_or(u32::MAX),
    );
    check_dimensions(width, height)?;
    let pixels = decoder.decode().map_err(map_jpeg_err)?;
    Ok((width, height, pixels))
}

/// The options `image` decodes JPEGs with: lenient about recoverable
/// stream errors (phone and scanner files have them), no size limit of the
/// decoder's own (ours, [`MAX_PIXELS`], is checked after the header).
fn jpeg_options() -> DecoderOptions {
    DecoderOptions::default()
        .set_strict_mode(false)
        .set_max_width(usize::MAX)
        .set_max_height(usize::MAX)
}

/// Rec. 601 luma with integer weights (77, 150, 29)/256, rounded: NOT what
/// `image`'s `to_luma8` computes (it uses the Rec. 709 / sRGB weights
/// 0.2126, 0.7152, 0.0722 and truncates). Rec. 601 is kept because the
/// training scripts compute this gray (`models/train/common.py`, `luma`),
/// and a JPEG's own Y plane (what a JPEG photo is read from) is the same
/// luma up to rounding; the tight loop also vectorises (12 MP in a few ms).
pub(crate) fn rgb_to_gray(rgb: &RgbImage) -> GrayImage {
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

/// Median gray level at or below which an image is taken to be mostly
/// dark ground, as an app's dark theme is (grounds of gray 0-45), and is
/// searched for grids in its negative first. The darkest of the 273 real
/// photos of `../shared/fixtures` (paper on a dark table) has a median of
/// 68; this sits between the two.
pub(crate) const DARK_GROUND_MAX: u8 = 56;

/// Sampling step (pixels, both ways) for [`dark_ground`]: a median over a
/// few thousand pixels is as good as over millions.
const DARK_GROUND_STEP: usize = 16;

/// True when the image is mostly dark ground ([`DARK_GROUND_MAX`]).
pub(crate) fn dark_ground(gray: &GrayImage) -> bool {
    let (w, h) = (gray.width() as usize, gray.height() as usize);
    let raw = gray.as_raw();
    let mut samples: Vec<u8> = (0..h)
        .step_by(DARK_GROUND_STEP)
        .flat_map(|y| {
            (0..w)
                .step_by(DARK_GROUND_STEP)
                .map(move |x| raw[y * w + x])
        })
        .collect();
    if samples.is_empty() {
        return false;
    }
    let mid = samples.len() / 2;
    *samples.select_nth_unstable(mid).1 <= DARK_GROUND_MAX
}

/// The negative of a gray image (light lines on dark become dark on light).
pub(crate) fn negative(gray: &GrayImage) -> GrayImage {
    let mut out = gray.clone();
    image::imageops::invert(&mut out);
    out
}

/// What a photo file is read as (see [`snap_solver::files`]): a regular
/// file of at most [`MAX_FILE_BYTES`].
pub(crate) const PHOTO_FILE: FileLimit = FileLimit {
    noun: "photo file",
    plural: "photos",
    max_bytes: MAX_FILE_BYTES,
};

/// Reads a photo file whole, with bounds: only a regular file (a FIFO with
/// no writer would block forever, a device such as `/dev/zero` never ends),
/// and at most [`MAX_FILE_BYTES`]. Both are checked before the file is read.
pub fn read_file(path: &Path) -> std::io::Result<Vec<u8>> {
    files::read(path, &PHOTO_FILE)
}

/// [`read_file`] into shared memory, which a JPEG's answer keeps without a
/// copy (see [`decode_opening_shared`]).
pub(crate) fn read_file_shared(path: &Path) -> std::io::Result<Arc<[u8]>> {
    files::read_shared(path, &PHOTO_FILE)
}

fn map_err(e: image::ImageError) -> DecodeError {
    use image::ImageError as E;
    match e {
        E::Unsupported(u) => DecodeError::Unsupported(u.to_string()),
        E::Limits(_) => DecodeError::TooLarge,
        E::IoError(io) if io.kind() == std::io::ErrorKind::UnexpectedEof => DecodeError::Truncated,
        other => from_message(other.to_string()),
    }
}

/// zune-jpeg's errors in our terms, as [`map_err`] maps them when they
/// come through `image`.
fn map_jpeg_err(e: zune_jpeg::errors::DecodeErrors) -> DecodeError {
    use zune_jpeg::errors::DecodeErrors as E;
    match e {
        E::Unsupported(u) => DecodeError::Unsupported(format!("{u:?}")),
        E::LargeDimensions(_) => DecodeError::TooLarge,
        other => from_message(other.to_string()),
    }
}

/// A decoder's message as [`DecodeError::Truncated`] when it speaks of the
/// data ending early, else as [`DecodeError::Corrupt`].
fn from_message(s: String) -> DecodeError {
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

    #[test]
    fn a_jpeg_frame_size_is_read_from_its_header_as_image_reads_it() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures");
        let mut seen = 0;
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_none_or(|e| e != "jpg") {
                continue;
            }
            let bytes = std::fs::read(&path).unwrap();
            let theirs = ImageReader::new(Cursor::new(&bytes))
                .with_guessed_format()
                .unwrap()
                .into_dimensions()
                .unwrap();
            assert_eq!(
                declared_dimensions(Cursor::new(&bytes)),
                Some(theirs),
                "{path:?}"
            );
            seen += 1;
        }
        assert!(seen >= 10, "{seen} fixture photos");
        // A made JPEG, and the same cut off in its header or missing its start.
        let made = encode(&sample(), ImageFormat::Jpeg);
        assert_eq!(declared_dimensions(Cursor::new(&made)), Some((64, 48)));
        assert_eq!(jpeg_dimensions(Cursor::new(&made[..24])), None);
        assert_eq!(jpeg_dimensions(Cursor::new(&made[2..])), None);
    }

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
    fn a_heic_photo_is_named_with_what_to_do() {
        let mut heic = b"\0\0\0\x18ftypheic\0\0\0\0mif1heic".to_vec();
        heic.extend([0u8; 64]);
        let e = decode(&heic).unwrap_err();
        assert!(
            e.to_string().contains("HEIC") && e.to_string().contains("JPEG"),
            "{e}"
        );
        // Another ISO base media file (a video) is no HEIF photo.
        let mp4 = b"\0\0\0\x18ftypisom\0\0\0\0isomavc1";
        assert!(!decode(mp4).unwrap_err().to_string().contains("HEIC"));
        // Nor is an AVIF image under the generic image brand.
        let avif = b"\0\0\0\x18ftypmif1\0\0\0\0mif1avif";
        assert!(!decode(avif).unwrap_err().to_string().contains("HEIC"));
    }

    #[test]
    fn round_trips_formats() {
        for fmt in [
            ImageFormat::Png,
            ImageFormat::Bmp,
            ImageFormat::Tiff,
            ImageFormat::Jpeg,
            ImageFormat::Gif,
        ] {
            let bytes = encode(&sample(), fmt);
            let d = decode(&bytes).unwrap_or_else(|e| panic!("{fmt:?}: {e}"));
            assert_eq!(d.gray.dimensions(), (64, 48));
            assert_eq!(d.exif_orientation, 1);
            assert_eq!(d.format, fmt);
        }
    }

    #[test]
    fn a_jpeg_is_read_as_luma_and_its_colour_decoded_on_demand() {
        let bytes = encode(&sample(), ImageFormat::Jpeg);
        let d = decode(&bytes).unwrap();
        assert!(
            d.rgb.get().is_none(),
            "colour decoded before it was asked for"
        );
        let rgb = d.rgb().clone();
        assert_eq!(rgb.dimensions(), (64, 48));
        // The Y plane is the Rec. 601 luma of the decoded colour, up to the
        // rounding of the colour conversion.
        for (y, c) in d.gray.as_raw().iter().zip(rgb_to_gray(&rgb).as_raw()) {
            assert!(y.abs_diff(*c) <= 2, "luma {y} vs {c} from colour");
        }
        // A PNG has its colour from the start.
        let png = decode(&encode(&sample(), ImageFormat::Png)).unwrap();
        assert!(png.rgb.get().is_some());
        assert_eq!(png.gray, rgb_to_gray(png.rgb()));
    }

    #[test]
    fn a_jpeg_opened_as_decoded_reads_the_same_and_is_ready_to_change() {
        let bytes = encode(&sample(), ImageFormat::Jpeg);
        let (plain, opened) = (
            decode(&bytes).unwrap(),
            decode_opening(&bytes, true).unwrap(),
        );
        assert_eq!(plain.gray, opened.gray);
        assert!(
            plain.in_place.get().is_none(),
            "opened before it was asked for"
        );
        assert!(
            matches!(opened.in_place.get(), Some(Some(_))),
            "the JPEG was not opened while decoded"
        );
        // Other formats have nothing to open.
        let png = decode_opening(&encode(&sample(), ImageFormat::Png), true).unwrap();
        assert!(png.in_place().is_none());
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
    fn a_file_over_the_bound_is_refused_unread() {
        let dir = std::env::temp_dir().join(format!("snap-decode-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("big.png");
        // Sparse: no disk space used, and never read.
        let file = std::fs::File::create(&path).unwrap();
        file.set_len(MAX_FILE_BYTES + 1).unwrap();
        let err = read_file(&path).unwrap_err();
        assert!(
            err.to_string()
                .contains("largest photo file read is 272 MiB"),
            "{err}"
        );
        assert!(read_file(&dir)
            .unwrap_err()
            .to_string()
            .contains("a folder"));
        std::fs::remove_dir_all(&dir).unwrap();
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

    #[test]
    fn a_photos_luma_is_the_decoders_sample_for_sample() {
        // Camera JPEGs (4:2:0, a phone's restart-free scan, a newspaper
        // photo): the walk's own luma is zune-jpeg's Y plane exactly, and
        // the JPEG is opened to answer in place on the way.
        let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
        for name in ["image18.jpg", "kubiesa-03_01.jpg", "pen-complete.jpg"] {
            let bytes = std::fs::read(fixtures.join(name)).unwrap();
            let decoded = decode_opening(&bytes, true).unwrap();
            assert!(
                decoded.in_place.get().is_some_and(Option::is_some),
                "{name} opened"
            );
            let (w, h, luma) = jpeg_pixels(&bytes, ColorSpace::Luma).unwrap();
            assert_eq!(decoded.gray.dimensions(), (w, h), "{name}");
            assert!(decoded.gray.as_raw() == &luma, "{name}: the luma differs");
        }
    }
}
