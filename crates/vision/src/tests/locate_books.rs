//! The page locator on typeset book pages: thin cell lines beside large
//! digits, small grids on a large page, a crossword beside puzzles. (The
//! blob test on answer grids, whose dilated ink is solid, is a unit test of
//! `locate::candidates`.)

use crate::geometry::Quad;
use crate::locate;
use image::{GrayImage, Luma};

const PAPER: u8 = 255;

/// Fills the rectangle `[x0, x1) x [y0, y1)` with `v`, clipped to the image.
fn fill(img: &mut GrayImage, (x0, y0, x1, y1): (i64, i64, i64, i64), v: u8) {
    for y in y0.max(0)..y1.min(img.height() as i64) {
        for x in x0.max(0)..x1.min(img.width() as i64) {
            img.put_pixel(x as u32, y as u32, Luma([v]));
        }
    }
}

/// A typeset 9x9 grid of side `s` at (x0, y0): cell lines `thin` px, box
/// lines and border `thick` px; a black digit-like shape (`digit` of the
/// cell, stroke an eighth of it, one of four) in the cells `filled` picks.
struct Style {
    thin: i64,
    thick: i64,
    digit: f32,
}

fn grid(
    img: &mut GrayImage,
    x0: i64,
    y0: i64,
    s: i64,
    st: &Style,
    filled: impl Fn(i64, i64) -> bool,
) {
    let cell = (s - st.thick) as f32 / 9.0;
    for j in 0..=9i64 {
        let w = if j % 3 == 0 { st.thick } else { st.thin };
        let c = x0 + (st.thick as f32 / 2.0 + j as f32 * cell) as i64 - w / 2;
        fill(img, (c, y0, c + w, y0 + s), 0);
        let c = y0 + (st.thick as f32 / 2.0 + j as f32 * cell) as i64 - w / 2;
        fill(img, (x0, c, x0 + s, c + w), 0);
    }
    let size = st.digit * cell;
    let stroke = (size / 8.0).max(1.0) as i64;
    for r in 0..9 {
        for c in 0..9 {
            if !filled(r, c) {
                continue;
            }
            let cx = x0 as f32 + st.thick as f32 / 2.0 + (c as f32 + 0.5) * cell;
            let cy = y0 as f32 + st.thick as f32 / 2.0 + (r as f32 + 0.5) * cell;
            let (w, h) = ((0.6 * size) as i64, size as i64);
            let (l, t) = ((cx - 0.3 * size) as i64, (cy - 0.5 * size) as i64);
            let top = (l, t, l + w, t + stroke);
            let mid = (
                l,
                t + h / 2 - stroke / 2,
                l + w,
                t + h / 2 + stroke - stroke / 2,
            );
            let bottom = (l, t + h - stroke, l + w, t + h);
            let left = (l, t, l + stroke, t + h);
            let right = (l + w - stroke, t, l + w, t + h);
            let centre = (
                l + w / 2 - stroke / 2,
                t,
                l + w / 2 + stroke - stroke / 2,
                t + h,
            );
            // Four shapes, like digits: an 8, a 1, a 7 and a 0.
            let strokes = match (r * 4 + c * 3) % 4 {
                0 => vec![top, mid, bottom, left, right],
                1 => vec![centre],
                2 => vec![top, right],
                _ => vec![top, bottom, left, right],
            };
            for s in strokes {
                fill(img, s, 0);
            }
        }
    }
}

/// About 40 % of the cells, scattered.
fn clues(r: i64, c: i64) -> bool {
    (r * 7 + c * 5 + r * c) % 5 < 2
}

fn centre(q: &Quad) -> (f32, f32) {
    let x = q.corners.iter().map(|c| c.0).sum::<f32>() / 4.0;
    let y = q.corners.iter().map(|c| c.1).sum::<f32>() / 4.0;
    (x, y)
}

/// Every expected centre has a grid within `tol`, and nothing else is found.
fn assert_found(found: &[locate::Located], expected: &[(f32, f32)], tol: f32) {
    let got: Vec<(f32, f32)> = found.iter().map(|l| centre(&l.quad)).collect();
    assert_eq!(
        got.len(),
        expected.len(),
        "found {got:?}, expected {expected:?}"
    );
    for e in expected {
        assert!(
            got.iter()
                .any(|g| (g.0 - e.0).abs() < tol && (g.1 - e.1).abs() < tol),
            "found {got:?}, expected {expected:?}"
        );
    }
}

/// A landscape page at 150 dpi (searched 3:1 at first): six grids with
/// 1 px cell lines and digits 80 % of the cell, which the 3:1 search loses
/// (the lines keep a third of their darkness and break beside the digits)
/// and the finer one finds.
#[test]
fn thin_lines_beside_large_digits_on_a_page() {
    let mut img = GrayImage::from_pixel(1650, 1275, Luma([PAPER]));
    let st = Style {
        thin: 1,
        thick: 3,
        digit: 0.8,
    };
    let mut expected = Vec::new();
    for r in 0..2 {
        for c in 0..3 {
            let (x, y) = (90 + c * 508, 60 + r * 640);
            grid(&mut img, x, y, 448, &st, clues);
            expected.push((x as f32 + 224.0, y as f32 + 224.0));
        }
    }
    assert_found(&locate::locate_all(&img), &expected, 8.0);
}

/// A newspaper page capture: three grids 120 px wide on a 2000 px page
/// (40 work pixels at the first search's 3:1, cells of 4 px).
#[test]
fn small_grids_on_a_large_page() {
    let mut img = GrayImage::from_pixel(2000, 1500, Luma([PAPER]));
    let st = Style {
        thin: 1,
        thick: 2,
        digit: 0.6,
    };
    let places = [(200, 200), (900, 700), (1500, 1200)];
    for &(x, y) in &places {
        grid(&mut img, x, y, 120, &st, clues);
    }
    let expected: Vec<(f32, f32)> = places
        .iter()
        .map(|&(x, y)| (x as f32 + 60.0, y as f32 + 60.0))
        .collect();
    assert_found(&locate::locate_all(&img), &expected, 5.0);
}

/// A crossword (13x13, black squares) beside two puzzles on a page small
/// enough to be searched at full resolution: its lattice holds no 9x9
/// window without a black square, so it gives no grid.
#[test]
fn a_crossword_beside_puzzles_gives_no_grid() {
    let mut img = GrayImage::from_pixel(1000, 400, Luma([PAPER]));
    let st = Style {
        thin: 1,
        thick: 3,
        digit: 0.7,
    };
    grid(&mut img, 30, 60, 280, &st, clues);
    grid(&mut img, 350, 60, 280, &st, clues);
    let (x0, y0, n, cell) = (680i64, 60i64, 13i64, 22i64);
    for j in 0..=n {
        fill(
            &mut img,
            (x0 + j * cell, y0, x0 + j * cell + 1, y0 + n * cell + 1),
            0,
        );
        fill(
            &mut img,
            (x0, y0 + j * cell, x0 + n * cell + 1, y0 + j * cell + 1),
            0,
        );
    }
    for r in 0..n {
        for c in 0..n {
            if (r * 3 + c * 7 + r * c) % 6 == 0 {
                let (x, y) = (x0 + c * cell, y0 + r * cell);
                fill(&mut img, (x, y, x + cell, y + cell), 0);
            }
        }
    }
    assert_found(
        &locate::locate_all(&img),
        &[(170.0, 200.0), (490.0, 200.0)],
        8.0,
    );
}
