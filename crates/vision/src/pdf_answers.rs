//! A solved book: every page of a PDF as it was, with the answers drawn in,
//! as a new PDF.
//!
//! Each original page is carried over whole as a form XObject by
//! `hayro-write` (the page-copying half of the `hayro` renderer, released
//! with it and parsing with the same `hayro-syntax`, so every page the
//! reader could render can be copied; it is what Typst's PDF writer uses to
//! embed PDF pages). Its content streams, fonts and images are copied as
//! they are, so a vector page stays vector and a scanned page keeps its
//! image bytes, and the solved book is about the size of the original.
//! A new page of the original's displayed size draws that XObject (its
//! matrix applies the crop box and `/Rotate`), then the answers on top.
//! (`lopdf` would also keep outlines and links, but brings a second PDF
//! parser with its own tolerance and a dozen crates of encryption and
//! random numbers; a solved book is for reading and printing.)
//!
//! The answers are text in a small Type 3 font made from the outlines of
//! the digits the answer images use (Go Bold): they render the same in
//! every viewer without a font on the machine, stay sharp at any zoom, and
//! `pdftotext` reads them (the glyphs carry the standard names `one` ...
//! `nine`, `A` ...). Each glyph fills one unit cell, so a row of a grid is
//! one text matrix (the cell's size and slant, from the grid's outline) and
//! one `TJ` that steps over the given cells: a few bytes a digit. Cells to
//! check are ringed in red, as on the answer images.

use std::collections::BTreeSet;
use std::panic::{catch_unwind, AssertUnwindSafe};

use ab_glyph::{Font, FontRef, OutlineCurve};
use hayro_write::pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect, Ref, Str};
use hayro_write::{ChunkSettings, ExtractionQuery};
use serde::{Deserialize, Serialize};

use crate::data::PartReading;
use crate::geometry::{Homography, CELL_PX};
use crate::overlay::{DIGIT_HEIGHT, FONT, INK, MARK, MARK_RADIUS, MARK_WIDTH};
use crate::pdf::{PdfDoc, PdfError, POINTS_PER_INCH};

/// The answers to draw on one page of a PDF, in the pixels of the page as
/// it was rendered to be read.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PageAnswers {
    /// The page, 1-based.
    pub page: usize,
    /// The resolution the page was rendered at: pixel `x` is `x * 72 / dpi`
    /// points from the left of the page as displayed.
    pub dpi: f32,
    /// One entry per square part of each grid (a Samurai has five).
    pub parts: Vec<PartAnswers>,
}

/// One `n` x `n` square of a grid: where it is, and what goes in it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PartAnswers {
    /// Cells across.
    pub n: usize,
    /// Maps cell units (`(c, r)`: column and row, `0..=n`, corners of the
    /// upright grid) to pixels of the rendered page.
    pub cell_to_page: [f64; 9],
    /// The digits to write: cell (reading order within this part) and
    /// value (1-9, 10 and up for `A` ...).
    pub digits: Vec<(usize, u8)>,
    /// Cells to ring (reading order within this part).
    pub rings: Vec<usize>,
}

impl PartAnswers {
    /// The answers to write in `part` of a grid read on the page: `digits`
    /// and `rings` by cell in reading order within the part.
    pub fn new(part: &PartReading, digits: Vec<(usize, u8)>, rings: Vec<usize>) -> PartAnswers {
        let side = (part.n * CELL_PX) as f32;
        PartAnswers::mapped(part.n, &part.grid_to_photo, side, digits, rings)
    }

    /// `grid_to_photo` maps an upright rectified grid of `grid_side` pixels
    /// (`n` cells across) onto the page's pixels.
    fn mapped(
        n: usize,
        grid_to_photo: &Homography,
        grid_side: f32,
        digits: Vec<(usize, u8)>,
        rings: Vec<usize>,
    ) -> PartAnswers {
        // Scaling the input by one cell's pixels scales the first two
        // columns of the matrix.
        let s = f64::from(grid_side) / n.max(1) as f64;
        let mut m = grid_to_photo.m;
        for i in [0, 1, 3, 4, 6, 7] {
            m[i] *= s;
        }
        PartAnswers {
            n,
            cell_to_page: m,
            digits,
            rings,
        }
    }
}

/// Resource names inside the pages this module writes: the original page
/// and the digits' font.
const PAGE: Name = Name(b"P");
const DIGITS: Name = Name(b"D");

/// Glyph space of the digits' font: one cell is 1000 units square.
const EM: f32 = 1000.0;

/// How far (in cells) a digit's centre may lie from where one text matrix
/// for its whole row puts it. A printed grid is a flat square and each row
/// is exact; a photographed page in perspective is not, and a row whose
/// cells stray further is written one cell at a time.
const ROW_TOLERANCE: f64 = 0.03;

/// The PDF of every page of `doc`, each with its `answers` drawn in (pages
/// without answers are copied as they are).
pub fn answered_pdf(doc: &PdfDoc, answers: &[PageAnswers]) -> Result<Vec<u8>, PdfError> {
    let failed = |reason: String| PdfError::Render {
        path: doc.path().to_path_buf(),
        page: 0,
        reason: format!("cannot copy the pages: {reason}"),
    };
    catch_unwind(AssertUnwindSafe(|| write(doc, answers)))
        .map_err(|payload| {
            failed(
                payload
                    .downcast_ref::<&str>()
                    .map(|s| (*s).to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "the PDF writer panicked".to_string()),
            )
        })?
        .map_err(failed)
}

fn write(doc: &PdfDoc, answers: &[PageAnswers]) -> Result<Vec<u8>, String> {
    let source = doc.syntax();
    let pages = source.pages();
    // Compact syntax: pdf-writer's default indents every dictionary, which
    // costs a tenth of a small book.
    let settings = ChunkSettings { pretty: false };
    let mut next = Ref::new(1);
    let catalog = next.bump();
    let font = next.bump();
    let queries: Vec<ExtractionQuery> =
        (0..pages.len()).map(ExtractionQuery::new_xobject).collect();
    let extracted = hayro_write::extract(source, Box::new(|| next.bump()), settings, &queries)
        .map_err(|e| format!("{e:?}"))?;
    let tree = extracted.page_tree_parent_ref;
    let mut pdf = Pdf::with_settings(settings);
    let mut kids = Vec::with_capacity(pages.len());
    let mut symbols = BTreeSet::new();
    for (index, (page, xobject)) in pages.iter().zip(&extracted.root_refs).enumerate() {
        let xobject = xobject.map_err(|e| format!("page {}: {e:?}", index + 1))?;
        let (width, height) = page.render_dimensions();
        let mut content = Content::with_settings(settings);
        content.save_state();
        content.x_object(PAGE);
        content.restore_state();
        let mine: Vec<&PageAnswers> = answers.iter().filter(|a| a.page == index + 1).collect();
        for page_answers in &mine {
            let to_points = ToPoints {
                scale: f64::from(POINTS_PER_INCH / page_answers.dpi.max(1.0)),
                height: f64::from(height),
            };
            for part in &page_answers.parts {
                draw_part(&mut content, part, &to_points, &mut symbols);
            }
        }
        let (id, content_id) = (next.bump(), next.bump());
        let mut page_writer = pdf.page(id);
        page_writer
            .parent(tree)
            .media_box(Rect::new(0.0, 0.0, width, height))
            .contents(content_id);
        let mut resources = page_writer.resources();
        resources.x_objects().pair(PAGE, xobject);
        if !mine.is_empty() {
            resources.fonts().pair(DIGITS, font);
        }
        resources.finish();
        page_writer.finish();
        let packed = miniz_oxide::deflate::compress_to_vec_zlib(&content.finish(), 6);
        pdf.stream(content_id, &packed).filter(Filter::FlateDecode);
        kids.push(id);
    }
    write_font(&mut pdf, font, &symbols, &mut next, settings);
    pdf.pages(tree)
        .kids(kids.iter().copied())
        .count(kids.len() as i32);
    pdf.catalog(catalog).pages(tree);
    pdf.extend(&extracted.chunk);
    Ok(pdf.finish())
}

/// From the rendered page's pixels (top-left origin, y down) to PDF points
/// of the new page (bottom-left origin, y up).
struct ToPoints {
    scale: f64,
    height: f64,
}

impl ToPoints {
    fn map(&self, h: &Homography, c: f64, r: f64) -> (f64, f64) {
        let (x, y) = h.map64(c, r);
        (x * self.scale, self.height - y * self.scale)
    }
}

/// A unit cell's placement in points: where its lower-left corner goes
/// and where one cell to the right and one cell up take it.
#[derive(Debug, Clone, Copy)]
struct CellFrame {
    origin: (f64, f64),
    right: (f64, f64),
    up: (f64, f64),
}

impl CellFrame {
    /// The frame of the cell whose upright top-left corner is `(c, r)`,
    /// from its three corners.
    fn at(h: &Homography, to: &ToPoints, c: f64, r: f64) -> CellFrame {
        let origin = to.map(h, c, r + 1.0);
        let right = to.map(h, c + 1.0, r + 1.0);
        let up = to.map(h, c, r);
        CellFrame {
            origin,
            right: (right.0 - origin.0, right.1 - origin.1),
            up: (up.0 - origin.0, up.1 - origin.1),
        }
    }

    /// Where the centre of the cell `k` cells to the right lands.
    fn centre(&self, k: f64) -> (f64, f64) {
        (
            self.origin.0 + (k + 0.5) * self.right.0 + 0.5 * self.up.0,
            self.origin.1 + (k + 0.5) * self.right.1 + 0.5 * self.up.1,
        )
    }

    fn matrix(&self) -> [f32; 6] {
        [
            self.right.0 as f32,
            self.right.1 as f32,
            self.up.0 as f32,
            self.up.1 as f32,
            self.origin.0 as f32,
            self.origin.1 as f32,
        ]
    }
}

/// Writes one part's digits (blue text) and rings (red) into `content`.
fn draw_part(content: &mut Content, part: &PartAnswers, to: &ToPoints, symbols: &mut BTreeSet<u8>) {
    let n = part.n;
    let h = Homography {
        m: part.cell_to_page,
    };
    let digits: Vec<(usize, u8)> = part
        .digits
        .iter()
        .copied()
        .filter(|&(cell, value)| cell < n * n && symbol(value).is_some())
        .collect();
    if !digits.is_empty() {
        let [r, g, b] = INK.map(|v| f32::from(v) / 255.0);
        content.save_state();
        content.set_fill_rgb(r, g, b);
        content.begin_text();
        content.set_font(DIGITS, 1.0);
        for row in 0..n {
            let cells: Vec<(usize, u8)> = digits
                .iter()
                .filter(|(cell, _)| cell / n == row)
                .map(|&(cell, value)| (cell % n, value))
                .collect();
            if cells.is_empty() {
                continue;
            }
            symbols.extend(cells.iter().map(|&(_, v)| v));
            write_row(content, &h, to, row, n, &cells);
        }
        content.end_text();
        content.restore_state();
    }
    let rings: Vec<usize> = part.rings.iter().copied().filter(|&c| c < n * n).collect();
    if !rings.is_empty() {
        let [r, g, b] = MARK.map(|v| f32::from(v) / 255.0);
        content.save_state();
        content.set_stroke_rgb(r, g, b);
        for cell in rings {
            let frame = CellFrame::at(&h, to, (cell % n) as f64, (cell / n) as f64);
            content.save_state();
            content.transform(frame.matrix());
            content.set_line_width(MARK_WIDTH);
            circle(content, 0.5, 0.5, MARK_RADIUS);
            content.stroke();
            content.restore_state();
        }
        content.restore_state();
    }
}

/// One row's digits (`(column, value)`, ascending): one text matrix and one
/// `TJ` stepping over the other cells when the row is flat, else a matrix
/// per cell.
fn write_row(
    content: &mut Content,
    h: &Homography,
    to: &ToPoints,
    row: usize,
    n: usize,
    cells: &[(usize, u8)],
) {
    let first = CellFrame::at(h, to, 0.0, row as f64);
    let last = CellFrame::at(h, to, n as f64 - 1.0, row as f64);
    let span = (n - 1).max(1) as f64;
    let frame = CellFrame {
        right: (
            (last.origin.0 - first.origin.0) / span,
            (last.origin.1 - first.origin.1) / span,
        ),
        ..first
    };
    let cell_size = frame.right.0.hypot(frame.right.1).max(f64::EPSILON);
    let flat = cells.iter().all(|&(c, _)| {
        let exact = CellFrame::at(h, to, c as f64, row as f64).centre(0.0);
        let guess = frame.centre(c as f64);
        (exact.0 - guess.0).hypot(exact.1 - guess.1) / cell_size <= ROW_TOLERANCE
    });
    if !flat || n == 1 {
        for &(c, value) in cells {
            let frame = CellFrame::at(h, to, c as f64, row as f64);
            content.set_text_matrix(frame.matrix());
            content.show(Str(&[symbol(value).unwrap_or(b'?')]));
        }
        return;
    }
    content.set_text_matrix(frame.matrix());
    let mut shown = content.show_positioned();
    let mut items = shown.items();
    let mut at = 0;
    for &(c, value) in cells {
        if c > at {
            // TJ's numbers move left in thousandths of the font size: one
            // cell to the right is -1000.
            items.adjust(-((c - at) as f32) * EM);
        }
        items.show(Str(&[symbol(value).unwrap_or(b'?')]));
        at = c + 1;
    }
}

/// The character code of a cell value: `1`-`9`, then `A`-`Z`.
fn symbol(value: u8) -> Option<u8> {
    match value {
        1..=9 => Some(b'0' + value),
        10..=35 => Some(b'A' + value - 10),
        _ => None,
    }
}

/// The standard glyph name of a symbol (`one`, `A`), which text
/// extraction maps back to the character.
fn glyph_name(code: u8) -> Vec<u8> {
    const DIGIT_NAMES: [&str; 9] = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
    ];
    match code {
        b'1'..=b'9' => DIGIT_NAMES[usize::from(code - b'1')].as_bytes().to_vec(),
        _ => vec![code],
    }
}

/// A circle of radius `r` around (`cx`, `cy`): four cubic arcs.
fn circle(content: &mut Content, cx: f32, cy: f32, r: f32) {
    // The control-point distance that makes a quarter arc of a cubic.
    const KAPPA: f32 = 0.552_284_8;
    let k = r * KAPPA;
    content.move_to(cx + r, cy);
    content.cubic_to(cx + r, cy + k, cx + k, cy + r, cx, cy + r);
    content.cubic_to(cx - k, cy + r, cx - r, cy + k, cx - r, cy);
    content.cubic_to(cx - r, cy - k, cx - k, cy - r, cx, cy - r);
    content.cubic_to(cx + k, cy - r, cx + r, cy - k, cx + r, cy);
    content.close_path();
}

/// Writes the Type 3 font of the `symbols` (cell values) used, each glyph
/// one cell wide and centred in it, `DIGIT_HEIGHT` of the cell tall.
fn write_font(
    pdf: &mut Pdf,
    id: Ref,
    symbols: &BTreeSet<u8>,
    next: &mut Ref,
    settings: ChunkSettings,
) {
    let codes: Vec<u8> = symbols.iter().filter_map(|&v| symbol(v)).collect();
    let (Some(&first), Some(&last)) = (codes.first(), codes.last()) else {
        // No page uses the font: it is not referenced, but an empty Type 3
        // font keeps the cross-reference table whole.
        pdf.type3_font(id)
            .bbox(Rect::new(0.0, 0.0, EM, EM))
            .matrix([1.0 / EM, 0.0, 0.0, 1.0 / EM, 0.0, 0.0])
            .char_procs();
        return;
    };
    let font = FontRef::try_from_slice(FONT).ok();
    // One scale for every glyph, from the tallest digit, so that digits
    // keep their relative sizes as in print.
    let outline_height = |code: u8| {
        let font = font.as_ref()?;
        let outline = font.outline(font.glyph_id(char::from(code)))?;
        // ab_glyph's bounds run from the top-left (`min` holds the
        // greatest y), the outline itself is y-up, in font units.
        Some((outline.bounds.max.y - outline.bounds.min.y).abs())
    };
    let tallest = (b'0'..=b'9')
        .filter_map(outline_height)
        .fold(0.0f32, f32::max)
        .max(1.0);
    let scale = DIGIT_HEIGHT * EM / tallest;
    let procs: Vec<(u8, Ref)> = codes.iter().map(|&code| (code, next.bump())).collect();
    for &(code, proc_id) in &procs {
        let mut glyph = Content::with_settings(settings);
        glyph.start_shape_glyph(EM, 0.0, 0.0, EM, EM);
        if let Some(outline) = font
            .as_ref()
            .and_then(|f| f.outline(f.glyph_id(char::from(code))))
        {
            let b = outline.bounds;
            let dx = EM / 2.0 - (b.min.x + b.max.x) / 2.0 * scale;
            let dy = EM / 2.0 - (b.min.y + b.max.y) / 2.0 * scale;
            // Whole glyph units: a thousandth of a cell is far below a
            // printer's dot, and short numbers keep the font small.
            let p = |q: ab_glyph::Point| ((q.x * scale + dx).round(), (q.y * scale + dy).round());
            let mut pen: Option<(f32, f32)> = None;
            for curve in &outline.curves {
                let (start, end) = match *curve {
                    OutlineCurve::Line(a, b) => (p(a), p(b)),
                    OutlineCurve::Quad(a, _, c) => (p(a), p(c)),
                    OutlineCurve::Cubic(a, _, _, d) => (p(a), p(d)),
                };
                if pen != Some(start) {
                    if pen.is_some() {
                        glyph.close_path();
                    }
                    glyph.move_to(start.0, start.1);
                }
                match *curve {
                    OutlineCurve::Line(_, _) => {
                        glyph.line_to(end.0, end.1);
                    }
                    OutlineCurve::Quad(_, control, _) => {
                        // A quadratic's control point as a cubic's two.
                        let c = p(control);
                        let third = |a: f32, b: f32| (a + 2.0 / 3.0 * (b - a)).round();
                        glyph.cubic_to(
                            third(start.0, c.0),
                            third(start.1, c.1),
                            third(end.0, c.0),
                            third(end.1, c.1),
                            end.0,
                            end.1,
                        );
                    }
                    OutlineCurve::Cubic(_, b1, b2, _) => {
                        let (c1, c2) = (p(b1), p(b2));
                        glyph.cubic_to(c1.0, c1.1, c2.0, c2.1, end.0, end.1);
                    }
                }
                pen = Some(end);
            }
            if pen.is_some() {
                glyph.close_path();
                glyph.fill_nonzero();
            }
        }
        let packed = miniz_oxide::deflate::compress_to_vec_zlib(&glyph.finish(), 6);
        pdf.stream(proc_id, &packed).filter(Filter::FlateDecode);
    }
    let mut type3 = pdf.type3_font(id);
    type3
        .bbox(Rect::new(0.0, 0.0, EM, EM))
        .matrix([1.0 / EM, 0.0, 0.0, 1.0 / EM, 0.0, 0.0])
        .first_char(first)
        .last_char(last)
        .widths((first..=last).map(|_| EM));
    let names: Vec<(Vec<u8>, Ref)> = procs
        .iter()
        .map(|&(code, proc_id)| (glyph_name(code), proc_id))
        .collect();
    let mut char_procs = type3.char_procs();
    for (name, proc_id) in &names {
        char_procs.pair(Name(name), *proc_id);
    }
    char_procs.finish();
    let mut encoding = type3.encoding_custom();
    let mut differences = encoding.differences();
    for &(code, _) in &procs {
        differences.consecutive(code, [Name(&glyph_name(code))]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symbols_and_their_names() {
        assert_eq!(symbol(1), Some(b'1'));
        assert_eq!(symbol(9), Some(b'9'));
        assert_eq!(symbol(10), Some(b'A'));
        assert_eq!(symbol(0), None);
        assert_eq!(glyph_name(b'5'), b"five");
        assert_eq!(glyph_name(b'C'), b"C");
    }

    #[test]
    fn a_part_maps_cell_units_to_pixels() {
        // A 9x9 grid of 432 px at (100, 50), 2 px to a grid pixel.
        let grid_to_photo = Homography {
            m: [2.0, 0.0, 100.0, 0.0, 2.0, 50.0, 0.0, 0.0, 1.0],
        };
        let part = PartAnswers::mapped(9, &grid_to_photo, 432.0, vec![], vec![]);
        let h = Homography {
            m: part.cell_to_page,
        };
        let (x, y) = h.map64(9.0, 9.0);
        assert!((x - 964.0).abs() < 1e-9 && (y - 914.0).abs() < 1e-9);
    }
}
