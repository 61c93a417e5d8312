//! Hostile inputs made at run time, each a function of its size: PDFs small
//! on disk that cost a renderer far more (an image declaring a huge size,
//! streams that inflate a thousandfold, forms drawing forms), and the big
//! files they are measured beside. Tests make small or medium ones in a
//! temporary folder; `examples/bombs.rs` writes the full-size inputs of the
//! adversarial run for measurement. Nothing here is committed as a big file.
#![allow(dead_code, reason = "each test binary uses only some of these")]

use std::io::Write;

use miniz_oxide::deflate::core::{
    compress, create_comp_flags_from_zip_params, CompressorOxide, TDEFLFlush, TDEFLStatus,
};

/// Bytes of zeros deflated once and repeated: a zlib stream of any length
/// costs output proportional to its compressed size, not its decoded one.
const ZERO_CHUNK: usize = 1 << 20;

/// A PDF under construction: numbered objects, pages in order. Object 1 is
/// the catalog and object 2 the page tree, written by [`Pdf::finish`].
pub struct Pdf {
    objects: Vec<Vec<u8>>,
    pages: Vec<usize>,
}

impl Default for Pdf {
    fn default() -> Self {
        Pdf::new()
    }
}

impl Pdf {
    /// An empty document.
    pub fn new() -> Pdf {
        Pdf {
            objects: vec![Vec::new(), Vec::new()],
            pages: Vec::new(),
        }
    }

    /// Adds an object; returns its number.
    pub fn add(&mut self, body: impl Into<Vec<u8>>) -> usize {
        self.objects.push(body.into());
        self.objects.len()
    }

    /// Adds a stream object with `dict` entries beside its `/Length`.
    pub fn add_stream(&mut self, dict: &str, data: &[u8]) -> usize {
        let mut body = format!("<< /Length {} {dict} >>\nstream\n", data.len()).into_bytes();
        body.extend_from_slice(data);
        body.extend_from_slice(b"\nendstream");
        self.add(body)
    }

    /// Adds a page of `width` x `height` points drawing content object
    /// `contents` with `resources` (a dictionary's text).
    pub fn add_page(&mut self, width: u32, height: u32, resources: &str, contents: usize) {
        let page = self.add(format!(
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {width} {height}] \
             /Resources {resources} /Contents {contents} 0 R >>"
        ));
        self.pages.push(page);
    }

    /// The file's bytes, with a cross-reference table at the right offsets.
    pub fn finish(mut self) -> Vec<u8> {
        let kids: String = self.pages.iter().map(|p| format!("{p} 0 R ")).collect();
        self.objects[0] = b"<< /Type /Catalog /Pages 2 0 R >>".to_vec();
        self.objects[1] = format!(
            "<< /Type /Pages /Kids [{kids}] /Count {} >>",
            self.pages.len()
        )
        .into_bytes();
        let mut out = b"%PDF-1.5\n".to_vec();
        let mut offsets = Vec::with_capacity(self.objects.len());
        for (i, body) in self.objects.iter().enumerate() {
            offsets.push(out.len());
            out.extend_from_slice(format!("{} 0 obj\n", i + 1).as_bytes());
            out.extend_from_slice(body);
            out.extend_from_slice(b"\nendobj\n");
        }
        let xref = out.len();
        let size = self.objects.len() + 1;
        out.extend_from_slice(format!("xref\n0 {size}\n0000000000 65535 f \n").as_bytes());
        for offset in offsets {
            out.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
        }
        out.extend_from_slice(
            format!("trailer\n<< /Size {size} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n")
                .as_bytes(),
        );
        out
    }
}

/// A page that draws image XObject `/Im` over its whole 200 x 200 pt area.
fn image_page(pdf: &mut Pdf, image: usize) {
    let contents = pdf.add_stream("", b"q 200 0 0 200 0 0 cm /Im Do Q");
    pdf.add_page(
        200,
        200,
        &format!("<< /XObject << /Im {image} 0 R >> >>"),
        contents,
    );
}

/// A one-page PDF drawing a JPEG (`/DCTDecode`) whose frame header
/// declares `width` x `height` pixels while its data is that of a 16 x 16
/// image: 1.3 KB that asks a decoder for `width * height * 3` bytes.
pub fn jpeg_image(width: u16, height: u16) -> Vec<u8> {
    let mut pdf = Pdf::new();
    let image = pdf.add_stream(
        &format!(
            "/Type /XObject /Subtype /Image /Width {width} /Height {height} \
             /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode"
        ),
        &jpeg_declaring(width, height),
    );
    image_page(&mut pdf, image);
    pdf.finish()
}

/// A 16 x 16 JPEG whose SOF0 header says `width` x `height`.
pub fn jpeg_declaring(width: u16, height: u16) -> Vec<u8> {
    let small = image::RgbImage::from_fn(16, 16, |x, y| {
        image::Rgb([(x * 16) as u8, (y * 16) as u8, 90])
    });
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 90)
        .encode_image(&small)
        .expect("encode a 16 x 16 JPEG");
    let sof = jpeg
        .windows(2)
        .position(|w| w == [0xFF, 0xC0])
        .expect("a baseline JPEG has SOF0");
    // Marker, length (2), precision (1), then height and width, big-endian.
    jpeg[sof + 5..sof + 7].copy_from_slice(&height.to_be_bytes());
    jpeg[sof + 7..sof + 9].copy_from_slice(&width.to_be_bytes());
    jpeg
}

/// A one-page PDF whose content stream inflates to `decoded` bytes of NUL
/// (white space to a PDF parser), at about 1/1000 of that on disk.
pub fn flate_content(decoded: u64) -> Vec<u8> {
    let mut pdf = Pdf::new();
    let contents = pdf.add_stream("/Filter /FlateDecode", &zlib_zeros(decoded));
    pdf.add_page(200, 200, "<< >>", contents);
    pdf.finish()
}

/// A one-page PDF drawing a `width` x `height` 8-bit gray image whose
/// Flate data (all black) is about 1/1000 of its decoded size.
pub fn flate_image(width: u32, height: u32) -> Vec<u8> {
    let mut pdf = Pdf::new();
    let image = pdf.add_stream(
        &format!(
            "/Type /XObject /Subtype /Image /Width {width} /Height {height} \
             /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode"
        ),
        &zlib_zeros(u64::from(width) * u64::from(height)),
    );
    image_page(&mut pdf, image);
    pdf.finish()
}

/// [`flate_content`] with the zlib stream compressed again
/// (`[/FlateDecode /FlateDecode]`): a thousandfold twice, so a page whose
/// content inflates to a gigabyte is about a kilobyte.
pub fn flate_twice_content(decoded: u64) -> Vec<u8> {
    let mut pdf = Pdf::new();
    let contents = pdf.add_stream(
        "/Filter [/FlateDecode /FlateDecode]",
        &miniz_oxide::deflate::compress_to_vec_zlib(&zlib_zeros(decoded), 9),
    );
    pdf.add_page(200, 200, "<< >>", contents);
    pdf.finish()
}

/// [`flate_image`] with its data compressed twice, as
/// [`flate_twice_content`]: a 30000 x 30000 image in about a kilobyte.
pub fn flate_twice_image(width: u32, height: u32) -> Vec<u8> {
    let mut pdf = Pdf::new();
    let data = zlib_zeros(u64::from(width) * u64::from(height));
    let image = pdf.add_stream(
        &format!(
            "/Type /XObject /Subtype /Image /Width {width} /Height {height} \
             /ColorSpace /DeviceGray /BitsPerComponent 8 \
             /Filter [/FlateDecode /FlateDecode]"
        ),
        &miniz_oxide::deflate::compress_to_vec_zlib(&data, 9),
    );
    image_page(&mut pdf, image);
    pdf.finish()
}

/// `pages` pages, each drawing a form that draws the next form `width`
/// times, `depth` forms deep, the last filling a square: `width^depth`
/// fills per page from about 100 bytes per form.
pub fn form_fanout(pages: usize, depth: usize, width: usize) -> Vec<u8> {
    fanout_pages(pages, depth, width, FILL)
}

/// One page like [`form_fanout`]'s whose last form draws nothing (it saves
/// and restores the graphics state): `width^depth` forms run, slow to
/// interpret and drawing no pixel, so rendering it costs time, not memory.
pub fn busy_forms(depth: usize, width: usize) -> Vec<u8> {
    fanout_pages(1, depth, width, b"q Q")
}

/// What the last form of [`form_fanout`] draws: a filled square.
const FILL: &[u8] = b"0 g 10 10 50 50 re f";

fn fanout_pages(pages: usize, depth: usize, width: usize, leaf: &[u8]) -> Vec<u8> {
    let mut pdf = Pdf::new();
    let form = fanout_forms(&mut pdf, depth, width, leaf);
    for _ in 0..pages {
        let contents = pdf.add_stream("", b"/F Do");
        pdf.add_page(
            200,
            200,
            &format!("<< /XObject << /F {form} 0 R >> >>"),
            contents,
        );
    }
    pdf.finish()
}

/// Forms drawing forms (see [`form_fanout`]); returns the top one.
fn fanout_forms(pdf: &mut Pdf, depth: usize, width: usize, leaf: &[u8]) -> usize {
    let mut next = pdf.add_stream("/Type /XObject /Subtype /Form /BBox [0 0 200 200]", leaf);
    let draws = "/F Do ".repeat(width);
    for _ in 0..depth {
        next = pdf.add_stream(
            &format!(
                "/Type /XObject /Subtype /Form /BBox [0 0 200 200] \
                 /Resources << /XObject << /F {next} 0 R >> >>"
            ),
            draws.as_bytes(),
        );
    }
    next
}

/// A one-page PDF filling its page with a tiling pattern whose cell draws
/// a form that draws the next form `width` times, `depth` forms deep:
/// `width^depth` fills behind four operators of the page's own.
pub fn pattern_fanout(depth: usize, width: usize) -> Vec<u8> {
    let mut pdf = Pdf::new();
    let form = fanout_forms(&mut pdf, depth, width, FILL);
    let pattern = pdf.add_stream(
        &format!(
            "/Type /Pattern /PatternType 1 /PaintType 1 /TilingType 1 \
             /BBox [0 0 200 200] /XStep 200 /YStep 200 \
             /Resources << /XObject << /F {form} 0 R >> >>"
        ),
        b"/F Do",
    );
    let contents = pdf.add_stream("", b"/Pattern cs /P scn 0 0 200 200 re f");
    pdf.add_page(
        200,
        200,
        &format!("<< /Pattern << /P {pattern} 0 R >> >>"),
        contents,
    );
    pdf.finish()
}

/// A one-page PDF whose content stream (`/LZWDecode`, not counted before
/// rendering) decodes to at least `decoded` bytes of NUL, from about a
/// thousandth of that: the renderer decodes it whole.
pub fn lzw_content(decoded: u64) -> Vec<u8> {
    let mut pdf = Pdf::new();
    let contents = pdf.add_stream("/Filter /LZWDecode", &lzw_zeros(decoded));
    pdf.add_page(200, 200, "<< >>", contents);
    pdf.finish()
}

/// LZW codes (MSB first, early change, as PDF's `/LZWDecode`) for at least
/// `n` zero bytes: each table cycle emits the byte 0, then codes 258, 259,
/// ... each one zero longer than the last, until the table is full, then a
/// clear code. Code widths follow the decoder's table size.
pub fn lzw_zeros(n: u64) -> Vec<u8> {
    const CLEAR: u32 = 256;
    const END: u32 = 257;
    const FIRST: u32 = 258;
    const FULL: u32 = 4096;
    // Width of the next code when the decoder's table holds `size` entries.
    let width = |size: u32| match size + 1 {
        0..512 => 9,
        512..1024 => 10,
        1024..2048 => 11,
        _ => 12,
    };
    let mut bits = BitWriter::default();
    let mut written = 0u64;
    while written < n {
        bits.push(0, width(FIRST));
        written += 1;
        let mut size = FIRST;
        while size < FULL && written < n {
            // Code `size` is the previous string and one more zero: it
            // decodes to `size - FIRST + 2` zeros and enters the table.
            bits.push(size, width(size));
            written += u64::from(size - FIRST + 2);
            size += 1;
        }
        bits.push(if written < n { CLEAR } else { END }, width(size));
    }
    bits.finish()
}

/// Codes packed most significant bit first.
#[derive(Default)]
struct BitWriter {
    out: Vec<u8>,
    acc: u64,
    len: u32,
}

impl BitWriter {
    fn push(&mut self, code: u32, width: u32) {
        self.acc = self.acc << width | u64::from(code);
        self.len += width;
        while self.len >= 8 {
            self.len -= 8;
            self.out.push((self.acc >> self.len) as u8);
        }
    }

    fn finish(mut self) -> Vec<u8> {
        if self.len > 0 {
            self.out.push((self.acc << (8 - self.len)) as u8);
        }
        self.out
    }
}

/// `pdf` followed by an incremental update adding `padding` bytes of
/// incompressible data in an object no page uses, written to `out`: a book
/// as large as a scanned one, made in a moment, for what holding its bytes
/// costs. `pdf` must end with a classic cross-reference table (as
/// `sudoku-snap generate --pdf` and [`Pdf::finish`] write).
pub fn write_padded(pdf: &[u8], padding: u64, out: &mut impl Write) -> std::io::Result<()> {
    let text = String::from_utf8_lossy(pdf);
    let number_after = |key: &str| -> u64 {
        let at = text
            .rfind(key)
            .unwrap_or_else(|| panic!("no {key} in the PDF"));
        text[at + key.len()..]
            .trim_start()
            .split(|c: char| !c.is_ascii_digit())
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no number after {key}"))
    };
    let (previous, size, root) = (
        number_after("startxref"),
        number_after("/Size"),
        number_after("/Root"),
    );
    out.write_all(pdf)?;
    let offset = pdf.len() as u64 + 1;
    out.write_all(format!("\n{size} 0 obj\n<< /Length {padding} >>\nstream\n").as_bytes())?;
    let mut state = 0x9E37_79B9_7F4A_7C15u64;
    let mut block = vec![0u8; 1 << 16];
    let mut left = padding;
    let mut written = 0u64;
    while left > 0 {
        for b in block.iter_mut() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            *b = (state >> 56) as u8;
        }
        let n = left.min(block.len() as u64) as usize;
        out.write_all(&block[..n])?;
        left -= n as u64;
        written += n as u64;
    }
    let tail = b"\nendstream\nendobj\n";
    out.write_all(tail)?;
    let header = format!("{size} 0 obj\n<< /Length {padding} >>\nstream\n").len() as u64;
    let xref = offset + header + written + tail.len() as u64;
    out.write_all(
        format!(
            "xref\n0 1\n0000000000 65535 f \n{size} 1\n{offset:010} 00000 n \n\
             trailer\n<< /Size {} /Root {root} 0 R /Prev {previous} >>\nstartxref\n{xref}\n%%EOF\n",
            size + 1
        )
        .as_bytes(),
    )
}

/// A zlib stream of `n` zero bytes, built from one deflated chunk repeated
/// (each chunk starts with a literal and refers only back into itself, and
/// ends byte-aligned after a sync flush, so copies concatenate).
pub fn zlib_zeros(n: u64) -> Vec<u8> {
    let chunk = deflate_zeros(ZERO_CHUNK);
    let rest = (n % ZERO_CHUNK as u64) as usize;
    let mut out = vec![0x78, 0x01];
    for _ in 0..n / ZERO_CHUNK as u64 {
        out.extend_from_slice(&chunk);
    }
    if rest > 0 {
        out.extend_from_slice(&deflate_zeros(rest));
    }
    // A final, empty block with fixed codes, then the Adler-32 of n zeros.
    out.extend_from_slice(&[0x03, 0x00]);
    let b = (n % 65521) as u32;
    out.extend_from_slice(&((b << 16) | 1).to_be_bytes());
    out
}

/// `n` zeros as raw deflate blocks, not final, ending on a byte boundary.
fn deflate_zeros(n: usize) -> Vec<u8> {
    let flags = create_comp_flags_from_zip_params(6, -15, 0);
    let mut compressor = CompressorOxide::new(flags);
    let zeros = vec![0u8; n];
    let mut out = vec![0u8; n / 500 + 1024];
    let (status, read, written) = compress(&mut compressor, &zeros, &mut out, TDEFLFlush::Sync);
    assert!(
        matches!(status, TDEFLStatus::Okay) && read == n,
        "deflate {n} zeros: {status:?}, {read} read"
    );
    out.truncate(written);
    out
}
