//! PDF input through snap-vision's public API: open any bytes as a PDF,
//! measure and render its first pages, and parse the same bytes as a
//! `--pages` list. Any bytes must give pages or an error, never a panic,
//! and every render must respect the page limits of snap-vision's PDF access.
//!
//! Shared by the fuzz target of the same name and by `tests/fuzz_corpus.rs`,
//! which replays the committed corpus on every `cargo test`.

use std::path::Path;

use snap_vision::{PageRange, PdfDoc, DPI_RANGE, MAX_RENDER_PIXELS, POINTS_PER_INCH};

/// Pages rendered per input: the page tree is walked whole by `open`, but
/// rendering every page of a many-page input would let one input take
/// minutes legitimately (the 10 s hang limit is for real hangs).
const MAX_PAGES_RENDERED: usize = 3;

/// Pixels rendered per page in the fuzzer: a Letter page at 72 dpi is
/// 0.5 MP. Larger pages are rendered at a lower resolution (down to the
/// lowest accepted, [`DPI_RANGE`]'s start), or only measured when even that
/// is bigger: a 40 MP render is legitimate but takes seconds under the
/// address sanitizer.
const FUZZ_MAX_PIXELS: f32 = 1_000_000.0;

/// Resolution asked for: one pixel per point.
const FUZZ_DPI: f32 = 72.0;

/// Checks one input; panics on a broken promise.
pub fn check(data: &[u8]) {
    page_lists(data);
    let Ok(doc) = PdfDoc::from_bytes(data.to_vec(), Path::new("fuzz.pdf")) else {
        return;
    };
    let count = doc.page_count();
    assert!(count >= 1, "an open document has pages");
    for page in 1..=count.min(MAX_PAGES_RENDERED) {
        render(&doc, page);
    }
    assert!(doc.render_page(count + 1, FUZZ_DPI).is_err());
}

/// Renders `page` at a resolution that keeps the fuzzer fast, after checking
/// that the library's own resolution choice respects its limits.
fn render(doc: &PdfDoc, page: usize) {
    let Ok((w, h)) = doc.page_size_pt(page) else {
        panic!("page {page} of {} has no size", doc.page_count());
    };
    let (w_in, h_in) = (w / POINTS_PER_INCH, h / POINTS_PER_INCH);
    // The library's choice at the highest resolution it accepts stays
    // within its pixel limit (an infinite page gets 0 dpi: NaN pixels,
    // nothing rendered).
    if let Ok(dpi) = doc.effective_dpi(page, *DPI_RANGE.end()) {
        let pixels = f64::from(w_in * dpi) * f64::from(h_in * dpi);
        let over = pixels > MAX_RENDER_PIXELS * 1.001;
        assert!(!over, "{w} x {h} pt at {dpi} dpi is {pixels} px");
    }
    let fit = (FUZZ_MAX_PIXELS / (w_in * h_in)).sqrt();
    let dpi = FUZZ_DPI.min(fit).max(*DPI_RANGE.start());
    let fits = w_in * dpi * h_in * dpi <= FUZZ_MAX_PIXELS;
    if !fits {
        return;
    }
    if let Ok(image) = doc.render_page(page, dpi) {
        let (width, height) = image.image.gray.dimensions();
        assert_eq!(image.image.rgb().dimensions(), (width, height));
        assert!(width > 0 && height > 0);
        // The renderer truncates each side, so never more than asked for.
        let pixels = f64::from(width) * f64::from(height);
        assert!(
            pixels <= f64::from(FUZZ_MAX_PIXELS) * 1.001,
            "{width} x {height}"
        );
    }
}

/// `--pages` parsing against a document of 1 to 256 pages (the first byte):
/// an accepted list names each page once, ascending, inside the document.
fn page_lists(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let count = usize::from(first) + 1;
    let text = String::from_utf8_lossy(rest);
    if let Ok(range) = PageRange::parse(&text, count) {
        let pages: Vec<usize> = range.pages().collect();
        assert!(!pages.is_empty() && pages.len() == range.len());
        assert!(pages.windows(2).all(|w| w[0] < w[1]), "{text:?}: {pages:?}");
        assert!(pages.iter().all(|&p| (1..=count).contains(&p)));
        assert!(pages.iter().all(|&p| range.contains(p)));
    }
}
