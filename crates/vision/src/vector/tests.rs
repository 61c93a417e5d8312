//! Pages read from their drawing, and pages that must not be: hand-made
//! PDFs (a grid of lines with text clues, then each way a page can say
//! something else than its text: a digit drawn as a path, a lying or
//! missing Unicode map, clipped, hidden, white or covered text, a turned
//! page, an image, grids touching), and the fixture book, against what its
//! pixels read.

use std::path::Path;

use super::{reading, Doubt};
use crate::classify::Classifier;
use crate::data::GridReading;
use crate::pdf::PdfDoc;

/// Resolution the hand-made pages are read at: low, for a quick debug run.
const DPI: f32 = 100.0;

/// Page side, points.
const PAGE: f32 = 300.0;

/// Grid: top-left corner (x from the left, y from the bottom, points) and
/// cell side.
const X: f32 = 20.0;
const TOP: f32 = 280.0;
const CELL: f32 = 24.0;

/// The puzzle drawn (row-major, `.` empty).
const PUZZLE: &str =
    "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";

/// A PDF of one page: `content` drawn with Helvetica as `/F1` (WinAnsi,
/// optionally with `/ToUnicode` `cmap`) and `extra` added to the page
/// dictionary (`/Rotate 90`).
fn pdf(content: &str, cmap: Option<&str>, extra: &str) -> Vec<u8> {
    let mut objects: Vec<String> =
        vec![
            "<< /Type /Catalog /Pages 2 0 R >>".into(),
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".into(),
            format!(
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {PAGE} {PAGE}] \
             /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R {extra} >>"
            ),
            format!(
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding {} >>",
            if cmap.is_some() { "/ToUnicode 6 0 R" } else { "" }
        ),
            format!(
                "<< /Length {} >>\nstream\n{content}\nendstream",
                content.len()
            ),
        ];
    if let Some(cmap) = cmap {
        objects.push(format!(
            "<< /Length {} >>\nstream\n{cmap}\nendstream",
            cmap.len()
        ));
    }
    let mut out = String::from("%PDF-1.4\n");
    let mut offsets = Vec::new();
    for (i, object) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.push_str(&format!("{} 0 obj\n{object}\nendobj\n", i + 1));
    }
    let xref = out.len();
    out.push_str(&format!(
        "xref\n0 {}\n0000000000 65535 f \n",
        objects.len() + 1
    ));
    for o in offsets {
        out.push_str(&format!("{o:010} 00000 n \n"));
    }
    out.push_str(&format!(
        "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
        objects.len() + 1
    ));
    out.into_bytes()
}

/// The grid's lines: thin cell lines, bold box lines and frame.
fn lines() -> String {
    let side = 9.0 * CELL;
    let mut s = String::new();
    for (width, step) in [(0.5, 1), (1.5, 3)] {
        s.push_str(&format!("{width} w\n"));
        for k in (0..=9).step_by(step) {
            let at = k as f32 * CELL;
            s.push_str(&format!("{X} {} m {} {} l\n", TOP - at, X + side, TOP - at));
            s.push_str(&format!("{} {TOP} m {} {} l\n", X + at, X + at, TOP - side));
        }
        s.push_str("S\n");
    }
    s
}

/// Text showing `digit` centred in cell (`row`, `col`), in Helvetica of a
/// clue's size, with `before` set in the text object first.
fn digit(row: usize, col: usize, digit: char, before: &str) -> String {
    let size = CELL * 0.7;
    // Helvetica digits are 0.556 em wide and 0.7 em tall.
    let x = X + (col as f32 + 0.5) * CELL - 0.278 * size;
    let y = TOP - (row as f32 + 0.5) * CELL - 0.35 * size;
    format!("BT {before} /F1 {size} Tf {x} {y} Td ({digit}) Tj ET\n")
}

/// The whole puzzle as text, cell `skip` left out.
fn clues(skip: Option<usize>) -> String {
    PUZZLE
        .chars()
        .enumerate()
        .filter(|&(i, c)| c != '.' && Some(i) != skip)
        .map(|(i, c)| digit(i / 9, i % 9, c, ""))
        .collect()
}

/// Reads page 1 of `bytes` from its drawing.
fn read(bytes: Vec<u8>) -> Result<Vec<GridReading>, Doubt> {
    let doc = PdfDoc::from_bytes(bytes, Path::new("test.pdf")).expect("a PDF");
    let rendered = doc.render_page(1, DPI).expect("renders");
    let classifier = Classifier::embedded().expect("the model");
    reading(&doc, 1, rendered.dpi, &rendered.image.gray, &classifier).expect("classifies")
}

/// The first cell holding a clue.
const FIRST: usize = 0;

#[test]
fn a_grid_of_lines_with_text_clues_is_read_exactly() {
    let grids = read(pdf(&(lines() + &clues(None)), None, "")).expect("read from the drawing");
    assert_eq!(grids.len(), 1);
    assert_eq!(grids[0].as_read().to_line().replace('0', "."), PUZZLE);
    // The outline is the frame's outer edge, in the render's pixels.
    let px = DPI / 72.0;
    let (x0, y0) = grids[0].quad().corners[0];
    assert!((x0 - (X - 0.75) * px).abs() < 0.01, "{x0}");
    assert!((y0 - (PAGE - TOP - 0.75) * px).abs() < 0.01, "{y0}");
}

#[test]
fn a_digit_drawn_as_a_path_is_left_to_the_pixels() {
    // A "1" as a filled bar in an empty cell (r1c3).
    let x = X + 2.45 * CELL;
    let y = TOP - 0.8 * CELL;
    let path = format!("{x} {y} 1.2 {} re f\n", 0.6 * CELL);
    let page = lines() + &clues(None) + &path;
    assert_eq!(read(pdf(&page, None, "")).err(), Some(Doubt::OffTheLines));
    // Drawn as a curve, it is no bar at all.
    let curve = format!(
        "{x} {y} m {x} {} {} {} {} {y} c f\n",
        y + 10.0,
        x + 5.0,
        y + 10.0,
        x + 5.0
    );
    let page = lines() + &clues(None) + &curve;
    assert_eq!(
        read(pdf(&page, None, "")).err(),
        Some(Doubt::Foreign("fill"))
    );
}

#[test]
fn a_unicode_map_that_lies_is_caught_by_the_glyph_check() {
    // The 7s are drawn as 7s but mapped to "1" (WinAnsi code 0x37).
    let cmap = "/CIDInit /ProcSet findresource begin 12 dict begin begincmap \
                /CMapName /Lie def 1 begincodespacerange <00> <FF> endcodespacerange \
                1 beginbfchar <37> <0031> endbfchar endcmap CMapName currentdict \
                /CMap defineresource pop end end";
    let page = lines() + &clues(None);
    assert_eq!(read(pdf(&page, Some(cmap), "")).err(), Some(Doubt::Glyph));
}

#[test]
fn a_glyph_with_no_unicode_is_left_to_the_pixels() {
    // Code 0x37 mapped to nothing usable.
    let cmap = "/CIDInit /ProcSet findresource begin 12 dict begin begincmap \
                /CMapName /Odd def 1 begincodespacerange <00> <FF> endcodespacerange \
                1 beginbfchar <37> <E000> endbfchar endcmap CMapName currentdict \
                /CMap defineresource pop end end";
    let page = lines() + &clues(None);
    assert_eq!(
        read(pdf(&page, Some(cmap), "")).err(),
        Some(Doubt::Foreign("glyph of no digit"))
    );
}

#[test]
fn clipped_hidden_white_or_covered_text_is_left_to_the_pixels() {
    let base = lines() + &clues(Some(FIRST));
    // The 5 of r1c1 clipped to its left half.
    let clipped = format!(
        "q {X} {} {} {CELL} re W n {}Q\n",
        TOP - CELL,
        CELL / 2.0,
        digit(0, 0, '5', "")
    );
    assert_eq!(
        read(pdf(&(base.clone() + &clipped), None, "")).err(),
        Some(Doubt::Foreign("clipped"))
    );
    // Invisible (render mode 3), as over a scan.
    let hidden = digit(0, 0, '5', "3 Tr");
    assert_eq!(
        read(pdf(&(base.clone() + &hidden), None, "")).err(),
        Some(Doubt::Foreign("invisible text"))
    );
    // White, and light grey.
    for grey in ["1 g", "0.8 g"] {
        let light = digit(0, 0, '5', grey);
        assert_eq!(
            read(pdf(&(base.clone() + &light), None, "")).err(),
            Some(Doubt::Foreign("glyph not filled in ink")),
            "{grey}"
        );
    }
    // Covered by a white box drawn after it.
    let covered = format!(
        "{}q 1 g {} {} {} {} re f Q\n",
        digit(0, 0, '5', ""),
        X + 2.0,
        TOP - CELL + 2.0,
        CELL - 4.0,
        CELL - 4.0
    );
    assert_eq!(
        read(pdf(&(base + &covered), None, "")).err(),
        Some(Doubt::PaperOver)
    );
}

#[test]
fn a_white_page_background_drawn_first_is_fine() {
    let page = format!("q 1 g 0 0 {PAGE} {PAGE} re f Q\n") + &lines() + &clues(None);
    assert!(read(pdf(&page, None, "")).is_ok());
}

#[test]
fn pencil_marks_and_stray_text_in_a_cell_are_left_to_the_pixels() {
    // A small 4 in the corner of an empty cell (r1c3).
    let x = X + 2.0 * CELL + 2.0;
    let y = TOP - 8.0;
    let pencil = format!("BT /F1 5 Tf {x} {y} Td (4) Tj ET\n");
    let page = lines() + &clues(None) + &pencil;
    assert_eq!(read(pdf(&page, None, "")).err(), Some(Doubt::NotAClue));
    // A letter in a cell.
    let letter = digit(0, 2, 'A', "");
    let page = lines() + &clues(None) + &letter;
    assert_eq!(
        read(pdf(&page, None, "")).err(),
        Some(Doubt::Foreign("glyph of no digit"))
    );
}

#[test]
fn a_turned_page_is_left_to_the_pixels() {
    let page = lines() + &clues(None);
    assert_eq!(
        read(pdf(&page, None, "/Rotate 90")).err(),
        Some(Doubt::Turned)
    );
}

#[test]
fn an_image_anywhere_is_left_to_the_pixels() {
    // A 2x2 grey inline image in the page's corner, off the grid.
    let image = "q 10 0 0 10 2 2 cm BI /W 2 /H 2 /CS /G /BPC 8 /F /AHx ID 80808080> EI Q\n";
    let page = lines() + &clues(None) + image;
    assert_eq!(read(pdf(&page, None, "")).err(), Some(Doubt::Image));
}

#[test]
fn grids_that_touch_or_a_table_off_the_grid_are_left_to_the_pixels() {
    // A second grid overlapping the first by a box, as a Samurai's.
    let shifted = format!(
        "q 1 0 0 1 {} {} cm\n{}Q\n",
        6.0 * CELL,
        -6.0 * CELL,
        lines()
    );
    let page = lines() + &clues(None) + &shifted;
    assert!(read(pdf(&page, None, "")).is_err());
    // A box of rules beside the grid.
    let table = format!("1 w {} 20 60 60 re S\n", X + 9.0 * CELL + 10.0);
    let page = lines() + &clues(None) + &table;
    assert_eq!(read(pdf(&page, None, "")).err(), Some(Doubt::Shapes));
}

#[test]
fn a_grid_off_the_page_or_missing_a_line_is_no_vector_grid() {
    let off = format!(
        "q 1 0 0 1 {} 0 cm\n{}{}Q\n",
        PAGE - X - 100.0,
        lines(),
        clues(None)
    );
    assert_eq!(read(pdf(&off, None, "")).err(), Some(Doubt::AtEdge));
    let page = clues(None);
    assert_eq!(read(pdf(&page, None, "")).err(), Some(Doubt::NoGrid));
}

#[test]
fn the_fixture_book_reads_from_its_drawing_as_from_its_pixels() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/pdf/postonwj_puzzles.pdf");
    let doc = PdfDoc::open(&path).expect("the fixture");
    let reader = crate::Reader::new(None, None).expect("the model");
    let classifier = Classifier::embedded().expect("the model");
    for page in 1..=doc.page_count() {
        let rendered = doc.render_page(page, crate::DEFAULT_DPI).expect("renders");
        let drawn = reading(&doc, page, rendered.dpi, &rendered.image.gray, &classifier)
            .expect("classifies")
            .unwrap_or_else(|d| panic!("page {page}: {d:?}"));
        let seen = reader
            .read_decoded(rendered.image, crate::Timings::default(), None)
            .expect("read from pixels");
        assert_eq!(drawn.len(), seen.grids.len(), "page {page}");
        for (d, s) in drawn.iter().zip(&seen.grids) {
            assert_eq!(d.as_read(), s.as_read(), "page {page}");
            let off = crate::corner_error(&d.quad(), &s.quad());
            assert!(off < 1.0, "page {page}: corners {off} px apart");
        }
    }
}

#[test]
fn pixels_that_disagree_with_the_drawing_leave_the_page_to_them() {
    // What the device could miss shows in the render: the same page read
    // against pixels changed afterwards.
    let doc = PdfDoc::from_bytes(pdf(&(lines() + &clues(None)), None, ""), Path::new("t.pdf"))
        .expect("a PDF");
    let rendered = doc.render_page(1, DPI).expect("renders");
    let classifier = Classifier::embedded().expect("the model");
    let px = f64::from(DPI / 72.0);
    let at = |x: f32, y_from_top: f32| {
        (
            (f64::from(x) * px).round() as u32,
            (f64::from(y_from_top) * px).round() as u32,
        )
    };
    let cases: [(&str, (f32, f32), u8); 3] = [
        // A dot of ink in the empty cell r1c3.
        (
            "ink in a cell off its clue",
            (X + 2.5 * CELL, PAGE - TOP + 0.5 * CELL),
            0,
        ),
        // The 5 of r1c1 gone.
        (
            "a clue shows no ink",
            (X + 0.5 * CELL, PAGE - TOP + 0.5 * CELL),
            255,
        ),
        // A gap in the line between r1c4 and r1c5, across its width.
        (
            "a line is not ink",
            (X + 4.0 * CELL, PAGE - TOP + 0.5 * CELL),
            255,
        ),
    ];
    for (what, (x, y), value) in cases {
        let mut gray = rendered.image.gray.clone();
        let (cx, cy) = at(x, y);
        let reach = if value == 0 {
            1
        } else {
            (0.3 * CELL * DPI / 72.0) as u32
        };
        for yy in cy - reach..=cy + reach {
            for xx in cx - reach..=cx + reach {
                gray.put_pixel(xx, yy, image::Luma([value]));
            }
        }
        let read = reading(&doc, 1, rendered.dpi, &gray, &classifier).expect("classifies");
        assert_eq!(read.err(), Some(Doubt::Pixels(what)));
    }
    let untouched = reading(&doc, 1, rendered.dpi, &rendered.image.gray, &classifier);
    assert!(untouched.expect("classifies").is_ok());
}
