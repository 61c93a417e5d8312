//! PDF pages through the reader: render a page of each kind of book
//! (vector, raster) and read its grids against the books' ground truth;
//! damaged files give one-line errors, never a panic.

use std::path::{Path, PathBuf};

use snap_vision::{decide_grid, Reader, Timings};
use snap_vision::{PdfDoc, PdfError, DEFAULT_DPI, POINTS_PER_INCH};

/// The vector book carried in the repository (a copy of a shared one).
fn carried_book() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/pdf/postonwj_puzzles.pdf")
}

/// `../shared/fixtures/pdf/<name>`: `None` with a note when absent, a
/// failure instead when `CI=true` (the shared data must be there in CI).
fn shared_pdf(name: &str) -> Option<PathBuf> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/fixtures/pdf")
        .join(name);
    if path.exists() {
        return Some(path);
    }
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!(
            "{}: missing (CI=true: shared data is required)",
            path.display()
        );
    }
    eprintln!("note: {} is absent, skipping", path.display());
    None
}

/// One grid of a truth file: its page, box in points (top-left origin) and
/// its 81 characters.
struct Truth {
    page: usize,
    bbox: [f32; 4],
    grid: String,
}

fn truth(pdf: &Path) -> Vec<Truth> {
    let path = pdf.with_extension("truth.tsv");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let b: Vec<f32> = f[2].split(',').map(|v| v.parse().unwrap()).collect();
            Truth {
                page: f[0].parse().unwrap(),
                bbox: [b[0], b[1], b[2], b[3]],
                grid: f[5].to_string(),
            }
        })
        .collect()
}

/// Renders `page` of `pdf` at the default resolution, reads it, and returns
/// how many grids were found and how many of them read exactly as the
/// truth grid whose box holds the grid's centre.
fn read_page(reader: &Reader, pdf: &Path, page: usize) -> (usize, usize) {
    let doc = PdfDoc::open(pdf).unwrap();
    let rendered = doc.render_page(page, DEFAULT_DPI).unwrap();
    let truths = truth(pdf);
    let read = reader
        .read_decoded(rendered.image, Timings::default(), None)
        .unwrap_or_else(|e| panic!("{} page {page}: {e}", pdf.display()));
    let to_pt = POINTS_PER_INCH / rendered.dpi;
    let mut right = 0;
    for grid in &read.grids {
        let corners = grid.quad().corners;
        let cx = corners.iter().map(|c| c.0).sum::<f32>() / 4.0 * to_pt;
        let cy = corners.iter().map(|c| c.1).sum::<f32>() / 4.0 * to_pt;
        let Some(t) = truths.iter().find(|t| {
            t.page == page
                && (t.bbox[0]..t.bbox[2]).contains(&cx)
                && (t.bbox[1]..t.bbox[3]).contains(&cy)
        }) else {
            eprintln!(
                "{} page {page}: a grid at ({cx:.0}, {cy:.0}) pt is in no truth box",
                pdf.display()
            );
            continue;
        };
        let decision = decide_grid(grid, &[]);
        if decision.read.to_line() == t.grid {
            right += 1;
        } else {
            eprintln!(
                "{} page {page}: read {}\n  truth {}",
                pdf.display(),
                decision.read.to_line(),
                t.grid
            );
        }
    }
    (read.grids.len(), right)
}

#[test]
fn a_vector_page_renders_at_the_size_the_reader_likes() {
    let doc = PdfDoc::open(&carried_book()).unwrap();
    assert_eq!(doc.page_count(), 2);
    let (w, h) = doc.page_size_pt(1).unwrap();
    assert_eq!((w.round(), h.round()), (612.0, 792.0), "US Letter");
    let page = doc.render_page(1, DEFAULT_DPI).unwrap();
    // 8.5 x 11 in at 150 dpi; the renderer truncates 1650 - epsilon.
    let (pw, ph) = page.image.gray.dimensions();
    assert_eq!(pw, 1275);
    assert!((1649..=1650).contains(&ph), "{ph}");
    // The truth's first grid is 228 pt wide: about 475 px at 150 dpi.
    let t = &truth(&carried_book())[0];
    let px = (t.bbox[2] - t.bbox[0]) * page.dpi / POINTS_PER_INCH;
    assert!((300.0..=600.0).contains(&px), "{px}");
    // Ink where the grid's border is, paper in the margin.
    let x = (t.bbox[0] * page.dpi / POINTS_PER_INCH) as u32;
    let y = ((t.bbox[1] + t.bbox[3]) / 2.0 * page.dpi / POINTS_PER_INCH) as u32;
    let darkest = (x.saturating_sub(3)..x + 4)
        .map(|x| page.image.gray.get_pixel(x, y)[0])
        .min();
    assert!(darkest < Some(100), "{darkest:?}");
    assert_eq!(page.image.gray.get_pixel(5, 5)[0], 255);
    assert!(matches!(
        doc.render_page(3, DEFAULT_DPI),
        Err(PdfError::NoSuchPage { count: 2, .. })
    ));
    assert!(matches!(
        doc.render_page(1, 0.5),
        Err(PdfError::BadDpi { .. })
    ));
}

#[test]
#[ignore = "slow in debug (about 5 s of CPU: two pages rendered, nine grids read); run with `cargo test -p snap-vision --test pdf -- --ignored`"]
fn vector_and_raster_pages_read_right() {
    let reader = Reader::new(None, None).unwrap();
    // (book, grids read right on page 1 at least): what the cell model
    // with vector-page training reads (models/README.md, "PDF books"): all
    // 6 grids of the vector page; the locator finds 3 of the raster page's 6.
    let mut books = vec![(carried_book(), 6)];
    books.extend(shared_pdf("knosmos_res.pdf").map(|book| (book, 3)));
    for (book, least) in books {
        let (found, right) = read_page(&reader, &book, 1);
        eprintln!(
            "{}: page 1: {found} grids found, {right} read right",
            book.display()
        );
        assert!(
            right >= least,
            "{}: {right} grids read right, expected at least {least}",
            book.display()
        );
    }
}

#[test]
fn damaged_files_are_one_line_errors_never_panics() {
    let bytes = std::fs::read(carried_book()).unwrap();
    let name = Path::new("damaged.pdf");
    let mut variants: Vec<Vec<u8>> = [
        1,
        8,
        64,
        512,
        bytes.len() / 2,
        bytes.len() - 40,
        bytes.len() - 1,
    ]
    .iter()
    .map(|&n| bytes[..n].to_vec())
    .collect();
    // Every 97th byte flipped: damaged streams and dictionaries throughout.
    let mut flipped = bytes.clone();
    for b in flipped.iter_mut().skip(200).step_by(97) {
        *b ^= 0xA5;
    }
    variants.push(flipped);
    for damaged in variants {
        let len = damaged.len();
        match PdfDoc::from_bytes(damaged, name) {
            Err(e) => {
                let msg = e.to_string();
                assert!(
                    msg.starts_with("damaged.pdf: ") && !msg.contains('\n'),
                    "{len}: {msg}"
                );
            }
            // A repairable file: whatever pages it still has render or
            // fail with an error naming the page.
            Ok(doc) => {
                for page in 1..=doc.page_count() {
                    if let Err(e) = doc.render_page(page, 36.0) {
                        assert!(e.to_string().contains(&format!("page {page}")), "{e}");
                    }
                }
            }
        }
    }
}
