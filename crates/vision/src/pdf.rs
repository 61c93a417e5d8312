//! PDF pages in: open a book, count its pages, render one page at a time to
//! pixels the pipeline reads, and parse `--pages 3-10,12`.
//!
//! Rendering uses `hayro` (pure Rust, Apache-2.0 OR MIT): vector books
//! (digits as text) and scanned books (pages as embedded images) go through
//! the same path, the page drawn as a viewer would show it.
//!
//! Memory: [`PdfDoc`] holds the file's bytes and its parsed page tree only;
//! each [`PdfDoc::render_page`] call allocates that one page's pixels and
//! its own render cache, and frees both when the caller drops the result.
//! A batch that renders, reads and drops pages one after another therefore
//! stays at one page's worth of pixels, however long the book.
//!
//! Bounds: before a page is rendered, what it draws is measured (`check`:
//! images against [`MAX_IMAGE_PIXELS`], decoded streams against
//! [`MAX_DECODED_BYTES`], drawing operations against [`MAX_OPERATIONS`])
//! and a page past one is a [`PdfError::TooCostly`], not a render. The
//! renderer itself has no budget and cannot be stopped; a caller that must
//! hold a memory or time bound whatever the page (the batch) renders in a
//! process it can limit and kill.

use std::fmt;
use std::ops::RangeInclusive;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use hayro::hayro_interpret::InterpreterSettings;
use hayro::hayro_syntax::{LoadPdfError, Pdf};
use hayro::vello_cpu::color::palette::css::WHITE;
use hayro::{PixmapSettings, RenderCache, RenderSettings};
use image::{ImageFormat, RgbImage};

use snap_solver::files::{self, FileLimit};

mod check;

pub use check::{MAX_DECODED_BYTES, MAX_IMAGE_PIXELS, MAX_OPERATIONS};

use crate::decode::Decoded;

/// PDF user-space units (points) per inch: a length of `p` points is
/// `p * dpi / POINTS_PER_INCH` pixels.
pub const POINTS_PER_INCH: f32 = 72.0;

/// Render resolution used unless the caller asks for another.
///
/// The reader rectifies every grid to a 432 px square and reads it best when
/// the grid arrives at roughly 300-600 px. Puzzle books print a 9x9 grid
/// 2.5-3.5 inches wide when they fit four to six a page (the shared vector
/// book: 228 pt = 3.2 in, 475 px at 150 dpi; the raster book: 215 pt, 448 px),
/// and 2 inches when they fit eight (300 px). A full-page grid (7 in, 1050 px)
/// is still far smaller than the 12 MP photos the locator handles. Higher
/// resolutions only cost time: a Letter page at 150 dpi is 1275 x 1650
/// (2.1 MP), at 300 dpi four times that.
pub const DEFAULT_DPI: f32 = 150.0;

/// Largest page render, in pixels (width * height). A page declaring a
/// poster-sized media box is rendered at a lower resolution instead (see
/// [`PdfDoc::effective_dpi`]), so one odd page cannot exhaust memory.
/// 40 MP is an A3 page at 400 dpi: above anything a puzzle page needs.
pub const MAX_RENDER_PIXELS: f64 = 40_000_000.0;

/// Largest PDF file opened, in bytes: 512 MiB. [`PdfDoc`] keeps the whole
/// file in memory while its pages are read, so this bounds what one file
/// can cost before any page is rendered. Puzzle books are far smaller (the
/// shared vector book is 9 KB; a 300-page book scanned at 300 dpi is
/// 50-300 MB); a bigger file is refused before any of it is read, and the
/// read itself stops at this bound (a file that grows while it is read).
pub const MAX_PDF_BYTES: u64 = 512 << 20;

/// What a PDF is read as (see [`snap_solver::files`]): a regular file (a
/// FIFO with no writer would block for ever, a device such as `/dev/zero`
/// never ends) of at most [`MAX_PDF_BYTES`].
pub(crate) const PDF_FILE: FileLimit = FileLimit {
    noun: "PDF",
    plural: "PDFs",
    max_bytes: MAX_PDF_BYTES,
};

/// The renderer's pixel buffers are indexed by `u16`: no side may exceed this.
const MAX_SIDE_PX: f32 = u16::MAX as f32;

/// Lowest and highest resolutions accepted from the caller: below 18 dpi a
/// whole Letter page is under 200 px wide (no grid survives); above 1200 dpi
/// the render is larger than any scan a book was made from.
pub const DPI_RANGE: RangeInclusive<f32> = 18.0..=1200.0;

/// Why a PDF, or one of its pages, could not be used. Every variant names
/// the file, and the page (1-based) where one is concerned; each message is
/// one line.
#[derive(Debug, thiserror::Error)]
pub enum PdfError {
    /// The file could not be opened or read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The PDF file.
        path: PathBuf,
        /// What the file system said.
        source: std::io::Error,
    },
    /// The bytes are not a PDF this renderer can read (not a PDF, truncated
    /// before its page tree, or damaged beyond repair).
    #[error("{}: not a readable PDF (damaged, truncated or not a PDF file)", path.display())]
    Invalid {
        /// The PDF file.
        path: PathBuf,
    },
    /// The PDF is encrypted and cannot be opened without a password, or
    /// uses an encryption the renderer does not support.
    #[error("{}: encrypted PDF ({reason}); save an unencrypted copy first", path.display())]
    Encrypted {
        /// The PDF file.
        path: PathBuf,
        /// The renderer's account of the problem.
        reason: String,
    },
    /// The PDF parsed but has no pages.
    #[error("{}: the PDF has no pages", path.display())]
    NoPages {
        /// The PDF file.
        path: PathBuf,
    },
    /// A page number outside the document.
    #[error("{}: no page {page} (the PDF has {count} pages)", path.display())]
    NoSuchPage {
        /// The PDF file.
        path: PathBuf,
        /// The page asked for, 1-based.
        page: usize,
        /// Pages in the document.
        count: usize,
    },
    /// A render resolution outside [`DPI_RANGE`].
    #[error("{}: page {page}: resolution {dpi} dpi is outside {}..={} dpi", path.display(), DPI_RANGE.start(), DPI_RANGE.end())]
    BadDpi {
        /// The PDF file.
        path: PathBuf,
        /// The page, 1-based.
        page: usize,
        /// The resolution asked for.
        dpi: f32,
    },
    /// The page would cost more than a page may to render (an image too
    /// large, streams that decode to too much, too many drawing
    /// operations), measured before rendering; see [`MAX_IMAGE_PIXELS`],
    /// [`MAX_DECODED_BYTES`] and [`MAX_OPERATIONS`].
    #[error("{}: page {page}: {reason}", path.display())]
    TooCostly {
        /// The PDF file.
        path: PathBuf,
        /// The page, 1-based.
        page: usize,
        /// Which bound, in words.
        reason: String,
    },
    /// The renderer failed on this page (a malformed page the parser let
    /// through). The other pages may still render.
    #[error("{}: page {page}: cannot render: {reason}", path.display())]
    Render {
        /// The PDF file.
        path: PathBuf,
        /// The page, 1-based.
        page: usize,
        /// What went wrong.
        reason: String,
    },
}

/// An open PDF: its bytes and page tree, nothing rendered.
pub struct PdfDoc {
    path: PathBuf,
    pdf: Pdf,
}

impl fmt::Debug for PdfDoc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PdfDoc")
            .field("path", &self.path)
            .field("pages", &self.page_count())
            .finish()
    }
}

/// One rendered page.
#[derive(Debug, Clone)]
pub struct PageImage {
    /// The page number, 1-based.
    pub page: usize,
    /// The resolution it was rendered at: a pixel coordinate `x` is
    /// `x * 72 / dpi` PDF points from the page's top-left corner.
    pub dpi: f32,
    /// The pixels, as the photo pipeline takes them. `format` is
    /// [`ImageFormat::Png`] (lossless pixels: `Decoded` has no PDF kind) and
    /// `exif_orientation` is 1: the page's `/Rotate` is already applied.
    pub image: Decoded,
}

impl PageImage {
    /// Page `page` rendered at `dpi` elsewhere (a render in another
    /// process), from its pixels.
    pub fn from_rgb(page: usize, dpi: f32, rgb: RgbImage) -> PageImage {
        PageImage {
            page,
            dpi,
            image: Decoded::from_rgb(rgb, 1, ImageFormat::Png),
        }
    }
}

impl PdfDoc {
    /// Opens the PDF at `path` and parses its page tree (no page is rendered).
    ///
    /// Only a regular file of at most [`MAX_PDF_BYTES`] is read (see
    /// [`snap_solver::files`]); anything else is a [`PdfError::Io`].
    pub fn open(path: &Path) -> Result<PdfDoc, PdfError> {
        let bytes = files::read(path, &PDF_FILE).map_err(|source| PdfError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        PdfDoc::from_bytes(bytes, path)
    }

    /// Parses a PDF already in memory; `path` is only used in messages.
    pub fn from_bytes(bytes: Vec<u8>, path: &Path) -> Result<PdfDoc, PdfError> {
        PdfDoc::from_shared(Arc::new(bytes), path)
    }

    /// Parses a PDF from shared bytes (a mapped file, say); `path` is only
    /// used in messages.
    pub fn from_shared<B>(bytes: Arc<B>, path: &Path) -> Result<PdfDoc, PdfError>
    where
        B: AsRef<[u8]> + Send + Sync + 'static,
    {
        let path = path.to_path_buf();
        let loaded = guarded(|| Pdf::new(bytes));
        let pdf = match loaded {
            Ok(Ok(pdf)) => pdf,
            Ok(Err(LoadPdfError::Decryption(e))) => {
                return Err(PdfError::Encrypted {
                    path,
                    reason: format!("{e:?}"),
                })
            }
            Ok(Err(LoadPdfError::Invalid)) | Err(_) => return Err(PdfError::Invalid { path }),
        };
        if pdf.pages().is_empty() {
            return Err(PdfError::NoPages { path });
        }
        Ok(PdfDoc { path, pdf })
    }

    /// The file this document was read from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The parsed document, for writing its pages out again
    /// (`pdf_answers`).
    pub(crate) fn syntax(&self) -> &Pdf {
        &self.pdf
    }

    /// Number of pages.
    pub fn page_count(&self) -> usize {
        self.pdf.pages().len()
    }

    /// Width and height of page `page` (1-based) in PDF points, as it is
    /// displayed (crop box, `/Rotate` applied).
    pub fn page_size_pt(&self, page: usize) -> Result<(f32, f32), PdfError> {
        let index = self.index(page)?;
        Ok(self.pdf.pages()[index].render_dimensions())
    }

    /// The resolution [`render_page`](Self::render_page) will use for
    /// `page` when asked for `dpi`: `dpi` itself, or less when the page is
    /// so large that the render would pass [`MAX_RENDER_PIXELS`] or the
    /// renderer's side limit.
    pub fn effective_dpi(&self, page: usize, dpi: f32) -> Result<f32, PdfError> {
        if !DPI_RANGE.contains(&dpi) {
            return Err(PdfError::BadDpi {
                path: self.path.clone(),
                page,
                dpi,
            });
        }
        Ok(render_dpi(self.page_size_pt(page)?, dpi))
    }

    /// Renders page `page` (1-based) at `dpi` (lowered for oversized pages,
    /// see [`effective_dpi`](Self::effective_dpi)) on a white background,
    /// once the page is measured within the bounds of a render
    /// ([`PdfError::TooCostly`] otherwise).
    ///
    /// Only this page is rendered; nothing is kept after the call.
    pub fn render_page(&self, page: usize, dpi: f32) -> Result<PageImage, PdfError> {
        let (rgb, dpi) = self.render_rgb(page, dpi)?;
        Ok(PageImage::from_rgb(page, dpi, rgb))
    }
    /// What page `page` (1-based) draws, for a page rendered at `dpi` to
    /// `size` pixels: its grids of lines and their text clues, to be checked
    /// against the rendered pixels by [`Reader::read_rendered`]; any doubt
    /// leaves the page to its pixels. The page's content is interpreted
    /// once more, as rendering does, under the same guard.
    ///
    /// [`Reader::read_rendered`]: crate::Reader::read_rendered
    pub fn drawing(&self, page: usize, dpi: f32, size: (u32, u32)) -> crate::Drawing {
        crate::vector::drawing(self, page, dpi, size)
    }

    /// As [`render_page`](Self::render_page), the colour pixels alone with
    /// the resolution used (for a caller that sends them elsewhere).
    pub fn render_rgb(&self, page: usize, dpi: f32) -> Result<(RgbImage, f32), PdfError> {
        let index = self.index(page)?;
        let dpi = self.effective_dpi(page, dpi)?;
        let scale = dpi / POINTS_PER_INCH;
        let pdf_page = &self.pdf.pages()[index];
        guarded(|| check::check(pdf_page, check::Limits::PAGE))
            .and_then(|checked| checked)
            .map_err(|reason| PdfError::TooCostly {
                path: self.path.clone(),
                page,
                reason,
            })?;
        // One cache per page: sharing it across a book would keep every
        // font and image the book ever used alive until the end.
        let rendered = guarded(|| {
            let cache = RenderCache::new();
            hayro::render(
                pdf_page,
                &cache,
                &InterpreterSettings::default(),
                &RenderSettings::default(),
                &PixmapSettings {
                    x_scale: scale,
                    y_scale: scale,
                    bg_color: WHITE,
                },
            )
        })
        .map_err(|reason| PdfError::Render {
            path: self.path.clone(),
            page,
            reason,
        })?;
        let (width, height) = (u32::from(rendered.width()), u32::from(rendered.height()));
        if width == 0 || height == 0 {
            return Err(PdfError::Render {
                path: self.path.clone(),
                page,
                reason: "the page has no area".to_string(),
            });
        }
        let rgb =
            flatten_on_white(rendered.data_as_u8_slice(), width, height).ok_or_else(|| {
                PdfError::Render {
                    path: self.path.clone(),
                    page,
                    reason: "the renderer returned a short pixel buffer".to_string(),
                }
            })?;
        Ok((rgb, dpi))
    }

    /// The 0-based index of 1-based `page`, or the error naming it.
    fn index(&self, page: usize) -> Result<usize, PdfError> {
        let count = self.page_count();
        if page == 0 || page > count {
            return Err(PdfError::NoSuchPage {
                path: self.path.clone(),
                page,
                count,
            });
        }
        Ok(page - 1)
    }
}

/// The resolution a page of `size_pt` (width and height in points, as
/// displayed) renders at when `dpi` is asked: `dpi` itself, or less when
/// the render would pass [`MAX_RENDER_PIXELS`] or the renderer's side
/// limit (see [`PdfDoc::effective_dpi`]).
fn render_dpi(size_pt: (f32, f32), dpi: f32) -> f32 {
    let (w_in, h_in) = (size_pt.0 / POINTS_PER_INCH, size_pt.1 / POINTS_PER_INCH);
    let by_area = (MAX_RENDER_PIXELS / f64::from(w_in * h_in)).sqrt() as f32;
    let by_side = MAX_SIDE_PX / w_in.max(h_in);
    dpi.min(by_area).min(by_side)
}

/// The pixels of the render of a page of `size_pt` (as
/// [`PdfDoc::page_size_pt`] gives it) when `dpi` is asked, lowered as
/// [`PdfDoc::effective_dpi`] lowers it: what the render will cost, known
/// before it exists and without the document.
pub fn render_pixels(size_pt: (f32, f32), dpi: f32) -> u64 {
    let dpi = render_dpi(size_pt, dpi);
    // NaN (a page of no or infinite size) clamps to NaN, which casts to 0.
    let side = |pt: f32| (pt / POINTS_PER_INCH * dpi).clamp(0.0, MAX_SIDE_PX) as u64;
    side(size_pt.0) * side(size_pt.1)
}

/// Runs third-party parsing or rendering code and turns a panic into an
/// error message: a damaged PDF must cost one page (or one file), never the
/// whole batch.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|payload| {
        payload
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "renderer panicked".to_string())
    })
}

/// Premultiplied RGBA to RGB over white. The pixmap is cleared to white
/// before drawing, so every pixel is opaque in practice; compositing anyway
/// keeps a transparent pixel from turning black.
fn flatten_on_white(rgba: &[u8], width: u32, height: u32) -> Option<RgbImage> {
    let n = width as usize * height as usize;
    if rgba.len() < n * 4 {
        return None;
    }
    let mut out = Vec::with_capacity(n * 3);
    for p in rgba[..n * 4].chunks_exact(4) {
        let clear = 255 - p[3];
        out.extend([
            p[0].saturating_add(clear),
            p[1].saturating_add(clear),
            p[2].saturating_add(clear),
        ]);
    }
    RgbImage::from_raw(width, height, out)
}

/// A selection of pages, 1-based, ascending, each page once: what
/// `--pages 3-10,12` asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PageRange {
    /// Disjoint, non-adjacent, ascending runs.
    runs: Vec<RangeInclusive<usize>>,
}

/// Why a `--pages` selection was refused. Messages quote the part at fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PageRangeError {
    /// Nothing, or only commas.
    #[error("no pages given: use e.g. 3-10,12")]
    Empty,
    /// A part that is not `N`, `N-M`, `N-` or `-M`.
    #[error("{part:?} is not a page or a range: use e.g. 3-10,12")]
    Syntax {
        /// The part at fault.
        part: String,
    },
    /// Page 0 (pages are numbered from 1).
    #[error("{part:?}: pages are numbered from 1")]
    Zero {
        /// The part at fault.
        part: String,
    },
    /// A range that ends before it starts.
    #[error("{part:?}: the range ends before it starts")]
    Reversed {
        /// The part at fault.
        part: String,
    },
    /// A page beyond the document's last.
    #[error("{part:?}: the PDF has {count} pages")]
    PastEnd {
        /// The part at fault.
        part: String,
        /// Pages in the document.
        count: usize,
    },
}

impl PageRange {
    /// Every page of a document of `count` pages.
    pub fn all(count: usize) -> PageRange {
        PageRange {
            runs: if count == 0 { vec![] } else { vec![1..=count] },
        }
    }

    /// Parses a comma-separated list of pages and ranges against a document
    /// of `page_count` pages: `12`, `3-10`, `7-` (to the last page), `-5`
    /// (from the first). Spaces around parts are allowed. Overlaps are
    /// merged and the result is in page order.
    pub fn parse(text: &str, page_count: usize) -> Result<PageRange, PageRangeError> {
        let mut runs = Vec::new();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            runs.push(parse_part(part, page_count)?);
        }
        if runs.is_empty() {
            return Err(PageRangeError::Empty);
        }
        runs.sort_by_key(|r| *r.start());
        let mut merged: Vec<RangeInclusive<usize>> = Vec::with_capacity(runs.len());
        for run in runs {
            match merged.last_mut() {
                Some(last) if *run.start() <= last.end() + 1 => {
                    *last = *last.start()..=(*last.end()).max(*run.end());
                }
                _ => merged.push(run),
            }
        }
        Ok(PageRange { runs: merged })
    }

    /// The pages, 1-based, ascending.
    pub fn pages(&self) -> impl Iterator<Item = usize> + '_ {
        self.runs.iter().flat_map(|r| r.clone())
    }

    /// How many pages are selected.
    pub fn len(&self) -> usize {
        self.runs.iter().map(|r| r.end() - r.start() + 1).sum()
    }

    /// True when no page is selected (only [`PageRange::all`] of an empty
    /// document).
    pub fn is_empty(&self) -> bool {
        self.runs.is_empty()
    }

    /// Whether `page` (1-based) is selected.
    pub fn contains(&self, page: usize) -> bool {
        self.runs.iter().any(|r| r.contains(&page))
    }
}

/// One part of a `--pages` list.
fn parse_part(part: &str, count: usize) -> Result<RangeInclusive<usize>, PageRangeError> {
    let number = |s: &str| -> Result<usize, PageRangeError> {
        let s = s.trim();
        if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
            return Err(PageRangeError::Syntax {
                part: part.to_string(),
            });
        }
        // All digits but too long for usize: certainly past the end.
        let n = s.parse::<usize>().unwrap_or(usize::MAX);
        if n == 0 {
            return Err(PageRangeError::Zero {
                part: part.to_string(),
            });
        }
        Ok(n)
    };
    let (start, end) = match part.split_once('-') {
        None => {
            let n = number(part)?;
            (n, n)
        }
        Some((a, b)) => {
            let start = if a.trim().is_empty() { 1 } else { number(a)? };
            let end = if b.trim().is_empty() {
                if a.trim().is_empty() {
                    return Err(PageRangeError::Syntax {
                        part: part.to_string(),
                    });
                }
                count.max(start)
            } else {
                number(b)?
            };
            (start, end)
        }
    };
    if end < start {
        return Err(PageRangeError::Reversed {
            part: part.to_string(),
        });
    }
    if end > count {
        return Err(PageRangeError::PastEnd {
            part: part.to_string(),
            count,
        });
    }
    Ok(start..=end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pages(text: &str, count: usize) -> Vec<usize> {
        PageRange::parse(text, count)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .pages()
            .collect()
    }

    #[test]
    fn page_lists_parse_merge_and_sort() {
        assert_eq!(pages("3-5,12", 20), [3, 4, 5, 12]);
        assert_eq!(pages(" 12 , 3-5 ", 20), [3, 4, 5, 12]);
        assert_eq!(pages("4-6,5-8,9", 20), [4, 5, 6, 7, 8, 9]);
        assert_eq!(pages("18-", 20), [18, 19, 20]);
        assert_eq!(pages("-2", 20), [1, 2]);
        assert_eq!(pages("7,7,7", 20), [7]);
        let r = PageRange::parse("1-3,10", 10).unwrap();
        assert_eq!(r.len(), 4);
        assert!(r.contains(10) && !r.contains(4));
        assert_eq!(PageRange::all(3).pages().collect::<Vec<_>>(), [1, 2, 3]);
    }

    #[test]
    fn bad_page_lists_say_which_part() {
        use PageRangeError as E;
        let err = |t: &str| PageRange::parse(t, 10).unwrap_err();
        assert_eq!(err(""), E::Empty);
        assert_eq!(err(" , "), E::Empty);
        assert!(matches!(err("3-x"), E::Syntax { part } if part == "3-x"));
        assert!(matches!(err("-"), E::Syntax { .. }));
        assert!(matches!(err("1-2-3"), E::Syntax { .. }));
        assert!(matches!(err("+3"), E::Syntax { .. }));
        assert!(matches!(err("0-4"), E::Zero { .. }));
        assert!(matches!(err("8-3"), E::Reversed { .. }));
        assert!(matches!(err("9-11"), E::PastEnd { count: 10, .. }));
        assert!(matches!(err("99999999999999999999999"), E::PastEnd { .. }));
        assert_eq!(err("12").to_string(), "\"12\": the PDF has 10 pages");
    }

    #[test]
    fn flattening_composites_on_white() {
        // An opaque red pixel, then a fully transparent one.
        let rgb = flatten_on_white(&[255, 0, 0, 255, 0, 0, 0, 0], 2, 1).unwrap();
        assert_eq!(rgb.as_raw(), &[255, 0, 0, 255, 255, 255]);
        assert!(flatten_on_white(&[0; 4], 2, 1).is_none());
    }

    #[test]
    fn garbage_and_empty_files_are_one_line_errors() {
        let name = Path::new("book.pdf");
        for bytes in [
            Vec::new(),
            b"hello, not a PDF".to_vec(),
            b"%PDF-1.7\n".to_vec(),
            b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n%%EOF".to_vec(),
            (0..4096u32)
                .map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8)
                .collect(),
        ] {
            let err = PdfDoc::from_bytes(bytes, name).unwrap_err();
            let msg = err.to_string();
            assert!(msg.starts_with("book.pdf: "), "{msg}");
            assert!(!msg.contains('\n'), "{msg}");
        }
    }

    /// A one-page PDF with the given media box and content stream, its
    /// cross-reference table at the right offsets (so the parser needs no
    /// repair).
    fn one_page_pdf(media_box: &str, content: &str) -> Vec<u8> {
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>".to_string(),
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_string(),
            format!("<< /Type /Page /Parent 2 0 R /MediaBox [{media_box}] /Contents 4 0 R >>"),
            format!(
                "<< /Length {} >>\nstream\n{content}\nendstream",
                content.len() + 1
            ),
        ];
        let mut out = b"%PDF-1.4\n".to_vec();
        let mut offsets = Vec::new();
        for (i, body) in objects.iter().enumerate() {
            offsets.push(out.len());
            out.extend(format!("{} 0 obj\n{body}\nendobj\n", i + 1).bytes());
        }
        let xref = out.len();
        out.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).bytes());
        for offset in offsets {
            out.extend(format!("{offset:010} 00000 n \n").bytes());
        }
        out.extend(
            format!(
                "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
                objects.len() + 1
            )
            .bytes(),
        );
        out
    }

    #[test]
    fn a_small_page_renders_at_the_asked_resolution() {
        // A 1 x 0.5 inch page with a black square in its lower-left corner
        // (PDF y grows upwards: the square is at the image's bottom).
        let pdf = one_page_pdf("0 0 72 36", "0 g 0 0 18 18 re f");
        let doc = PdfDoc::from_bytes(pdf, Path::new("tiny.pdf")).unwrap();
        assert_eq!(doc.page_count(), 1);
        let page = doc.render_page(1, 144.0).unwrap();
        assert_eq!(page.dpi, 144.0);
        assert_eq!(page.image.gray.dimensions(), (144, 72));
        assert!(page.image.gray.get_pixel(5, 66).0[0] < 64);
        assert!(page.image.gray.get_pixel(100, 10).0[0] > 192);
    }

    #[test]
    fn poster_pages_render_smaller_empty_pages_as_a4() {
        // 200 x 200 inches: 30000 x 30000 px (900 MP) at the default dpi.
        let pdf = one_page_pdf("0 0 14400 14400", "");
        let doc = PdfDoc::from_bytes(pdf, Path::new("poster.pdf")).unwrap();
        let dpi = doc.effective_dpi(1, DEFAULT_DPI).unwrap();
        let side = f64::from(200.0 * dpi);
        assert!(side * side <= MAX_RENDER_PIXELS, "{dpi} dpi");
        assert!(side * side > MAX_RENDER_PIXELS * 0.99, "{dpi} dpi");
        // Long and thin: the side limit, not the area, sets the resolution.
        let pdf = one_page_pdf("0 0 144000 72", "");
        let doc = PdfDoc::from_bytes(pdf, Path::new("strip.pdf")).unwrap();
        let dpi = doc.effective_dpi(1, DEFAULT_DPI).unwrap();
        // (Within f32 rounding of the limit: the renderer's `as u16` side
        // saturates, so a hair over is still 65535 px.)
        assert!((2000.0 * dpi - MAX_SIDE_PX).abs() < 1.0, "{dpi} dpi");
        // A page with no area is measured (and so rendered) as an A4 page,
        // the renderer's fallback: bounded like any other.
        let pdf = one_page_pdf("0 0 0 0", "");
        let doc = PdfDoc::from_bytes(pdf, Path::new("empty.pdf")).unwrap();
        let (w, h) = doc.page_size_pt(1).unwrap();
        assert!(
            (w - 595.3).abs() < 1.0 && (h - 841.9).abs() < 1.0,
            "{w} x {h}"
        );
        assert!(matches!(
            doc.render_page(1, 5000.0),
            Err(PdfError::BadDpi { .. })
        ));
    }

    #[test]
    fn a_file_over_the_bound_or_not_a_file_is_refused_unread() {
        let dir = std::env::temp_dir().join(format!("snap-pdf-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("big.pdf");
        // Sparse: no disk space used, and never read.
        let file = std::fs::File::create(&path).unwrap();
        file.set_len(MAX_PDF_BYTES + 1).unwrap();
        let err = PdfDoc::open(&path).unwrap_err();
        assert!(matches!(err, PdfError::Io { .. }));
        assert!(
            err.to_string().contains("the largest PDF read is 512 MiB"),
            "{err}"
        );
        let err = PdfDoc::open(&dir).unwrap_err();
        assert!(err.to_string().contains("a folder"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn missing_file_names_the_path() {
        let err = PdfDoc::open(Path::new("/no/such/book.pdf")).unwrap_err();
        assert!(matches!(err, PdfError::Io { .. }));
        assert!(err.to_string().starts_with("/no/such/book.pdf: "), "{err}");
    }
}
