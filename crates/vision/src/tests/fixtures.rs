//! The vision stages on the committed fixture photos: decode, locate
//! against the dataset's hand-marked corners, rectify and tile.

use std::path::Path;

use crate::data::{Tile, TILE};
use crate::geometry::{corner_error, Quad};
use crate::{cells, decode, locate, rectify};

/// `(file, tl, tr, br, bl)` from the dataset's `corners.csv`. The marked
/// corners sit 2-6 px outside the printed border (hand clicks), so the
/// tolerance below is loose; `sudoku-snap eval` measures the rest.
const CASES: [(&str, [(f32, f32); 4]); 4] = [
    (
        "image18.jpg",
        [(133.0, 27.0), (574.0, 35.0), (579.0, 478.0), (122.0, 477.0)],
    ),
    (
        "image31.jpg",
        [(116.0, 38.0), (585.0, 44.0), (601.0, 440.0), (110.0, 446.0)],
    ),
    (
        "image166.jpg",
        [(92.0, 13.0), (537.0, 17.0), (539.0, 463.0), (85.0, 465.0)],
    ),
    (
        "image1024.jpg",
        [
            (86.0, 361.0),
            (841.0, 374.0),
            (849.0, 1106.0),
            (101.0, 1113.0),
        ],
    ),
];

fn load(name: &str) -> decode::Decoded {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures")
        .join(name);
    let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    decode::decode(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The largest grid the page search finds on a photo of one puzzle.
fn the_grid(d: &decode::Decoded) -> Option<Quad> {
    locate::locate_all(&d.gray)
        .into_iter()
        .map(|l| l.quad)
        .max_by(|a, b| a.area().abs().total_cmp(&b.area().abs()))
}

#[test]
fn fixtures_are_located_near_the_marked_corners() {
    for (name, truth) in CASES {
        let d = load(name);
        let found = the_grid(&d).unwrap_or_else(|| panic!("{name}: no grid"));
        let err = corner_error(&found, &Quad::new(truth));
        // 12 px at 640x480 / 960x1280: marking offset plus curl.
        assert!(
            err < 12.0,
            "{name}: corner error {err:.1} px, found {found:?}"
        );
    }
}

#[test]
fn stale_exif_tag_is_reported_not_applied() {
    let d = load("image1024.jpg");
    assert_eq!(d.exif_orientation, 6);
    // Stored pixels stay as stored: portrait 960x1280.
    assert_eq!(d.gray.dimensions(), (960, 1280));
}

#[test]
fn tiles_of_a_fixture_separate_clues_from_empty_cells() {
    let d = load("image18.jpg");
    let truth = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/image18.txt"),
    )
    .expect("truth");
    let labels: Vec<char> = truth.lines().flat_map(|l| l.trim().chars()).collect();
    assert_eq!(labels.len(), 81);
    let quad = the_grid(&d).expect("grid");
    let rect = rectify::rectify(&d.gray, &quad, 9).expect("rectify");
    assert_eq!(rect.dimensions(), (432, 432));
    let c = cells::extract_cells(&rect, 9);
    // Ink in the tile centre alone already splits this photo's cells
    // (grid-line remnants live at the tile edges).
    let centre = |t: &Tile| {
        let mut s = 0.0;
        for y in 7..21 {
            for x in 7..21 {
                s += t.pixels[y * TILE + x];
            }
        }
        s / 196.0
    };
    let (mut empty_max, mut clue_min) = (0.0f32, 1.0f32);
    for (i, l) in labels.iter().enumerate() {
        let v = centre(&c.tiles[i]);
        if *l == '.' {
            empty_max = empty_max.max(v);
        } else {
            clue_min = clue_min.min(v);
        }
    }
    assert!(
        empty_max < clue_min,
        "empty up to {empty_max}, clues from {clue_min}"
    );
}

/// Synthetic printed pages: grids drawn with thin cell lines and thick box
/// lines, a few "digits" (dark blocks), plus distractors.
mod page {
    use image::{GrayImage, Luma};

    pub(super) const PAPER: u8 = 235;
    const INK: u8 = 30;

    /// Draws an `n` x `n` grid of side `s` at `(x0, y0)`: box lines every
    /// sqrt(n) cells 3 px wide, others 1 px; with `digits`, a block in about
    /// a third of the cells.
    pub(super) fn grid(img: &mut GrayImage, x0: i64, y0: i64, s: i64, n: i64, digits: bool) {
        let b = (n as f64).sqrt().round() as i64;
        let cell = s as f64 / n as f64;
        for k in 0..=n {
            let p = (k as f64 * cell).round() as i64;
            let half = if k % b == 0 { 1 } else { 0 };
            for t in -half..=half {
                for a in -1..=s + 1 {
                    put(img, x0 + p + t, y0 + a);
                    put(img, x0 + a, y0 + p + t);
                }
            }
        }
        if digits {
            for r in 0..n {
                for c in 0..n {
                    if (r * 7 + c * 3) % 3 == 0 {
                        let (cx, cy) = (
                            x0 as f64 + (c as f64 + 0.5) * cell,
                            y0 as f64 + (r as f64 + 0.5) * cell,
                        );
                        let (hw, hh) = (cell * 0.15, cell * 0.28);
                        for y in (cy - hh) as i64..(cy + hh) as i64 {
                            for x in (cx - hw) as i64..(cx + hw) as i64 {
                                put(img, x, y);
                            }
                        }
                    }
                }
            }
        }
    }

    /// A 15x15 crossword of side `s`: every line thin, a symmetric pattern
    /// of black squares.
    pub(super) fn crossword(img: &mut GrayImage, x0: i64, y0: i64, s: i64) {
        let n = 15;
        let cell = s as f64 / n as f64;
        for k in 0..=n {
            let p = (k as f64 * cell).round() as i64;
            for a in 0..=s {
                put(img, x0 + p, y0 + a);
                put(img, x0 + a, y0 + p);
            }
        }
        for r in 0..n {
            for c in 0..n {
                if (r * 5 + c * 3) % 7 == 0 {
                    for y in (r as f64 * cell) as i64..((r + 1) as f64 * cell) as i64 {
                        for x in (c as f64 * cell) as i64..((c + 1) as f64 * cell) as i64 {
                            put(img, x0 + x, y0 + y);
                        }
                    }
                }
            }
        }
    }

    /// A Samurai of five 9x9 grids, cell size `cell`, at `(x0, y0)`.
    pub(super) fn samurai(img: &mut GrayImage, x0: i64, y0: i64, cell: i64) -> [(i64, i64); 5] {
        let s = 9 * cell;
        let at = [(0, 0), (12, 0), (6, 6), (0, 12), (12, 12)];
        for (c, r) in at {
            grid(img, x0 + c * cell, y0 + r * cell, s, 9, true);
        }
        at.map(|(c, r)| (x0 + c * cell, y0 + r * cell))
    }

    fn put(img: &mut GrayImage, x: i64, y: i64) {
        if x >= 0 && y >= 0 && x < img.width() as i64 && y < img.height() as i64 {
            img.put_pixel(x as u32, y as u32, Luma([INK]));
        }
    }
}

/// Centre of a quad.
fn centre(q: &Quad) -> (f32, f32) {
    let x = q.corners.iter().map(|c| c.0).sum::<f32>() / 4.0;
    let y = q.corners.iter().map(|c| c.1).sum::<f32>() / 4.0;
    (x, y)
}

/// Asserts the located grids' centres are the expected ones, in order,
/// within `tol` pixels.
fn assert_centres(found: &[locate::Located], expected: &[(f32, f32)], tol: f32) {
    let got: Vec<(f32, f32)> = found.iter().map(|l| centre(&l.quad)).collect();
    assert_eq!(
        got.len(),
        expected.len(),
        "found {got:?}, expected {expected:?}"
    );
    for (g, e) in got.iter().zip(expected) {
        assert!(
            (g.0 - e.0).abs() < tol && (g.1 - e.1).abs() < tol,
            "found {got:?}, expected {expected:?}"
        );
    }
}

#[test]
fn a_page_of_six_grids_is_read_in_rows_and_the_crossword_is_not_a_grid() {
    let mut img = image::GrayImage::from_pixel(900, 1200, image::Luma([page::PAPER]));
    let mut expected = Vec::new();
    for r in 0..3 {
        for c in 0..2 {
            // Uneven tops: the rows are still rows.
            let (x, y) = (60 + c * 420, 40 + r * 330 + c * 12);
            page::grid(&mut img, x, y, 270, 9, true);
            expected.push((x as f32 + 135.0, y as f32 + 135.0));
        }
    }
    page::crossword(&mut img, 340, 1030, 150);
    let found = locate::locate_all(&img);
    assert_centres(&found, &expected, 6.0);
    assert!(found.iter().all(|l| l.n == 9 && !l.cut));
}

#[test]
fn a_notes_table_beside_a_puzzle_is_found_but_harmless() {
    let mut img = image::GrayImage::from_pixel(800, 420, image::Luma([page::PAPER]));
    page::grid(&mut img, 30, 40, 340, 9, true);
    page::grid(&mut img, 450, 120, 180, 9, false);
    let found = locate::locate_all(&img);
    assert_centres(&found, &[(200.0, 210.0), (540.0, 210.0)], 6.0);
}

#[test]
fn samurai_gives_its_five_grids() {
    let mut img = image::GrayImage::from_pixel(700, 700, image::Luma([page::PAPER]));
    let cell = 30;
    let tl = page::samurai(&mut img, 35, 35, cell);
    let found = locate::locate_all(&img);
    let h = (9 * cell / 2) as f32;
    let c = |i: usize| (tl[i].0 as f32 + h, tl[i].1 as f32 + h);
    // Rows: the two top grids, the centre, the two bottom grids.
    assert_centres(&found, &[c(0), c(1), c(2), c(3), c(4)], 6.0);
    assert!(found.iter().all(|l| l.n == 9));
}

#[test]
fn a_16x16_grid_is_told_from_a_9x9() {
    let mut img = image::GrayImage::from_pixel(600, 600, image::Luma([page::PAPER]));
    page::grid(&mut img, 60, 60, 480, 16, true);
    let found = locate::locate_all(&img);
    assert_centres(&found, &[(300.0, 300.0)], 6.0);
    assert_eq!(found[0].n, 16);
}

#[test]
fn a_grid_on_the_frame_is_whole_unless_cells_are_cut_off() {
    // A grid of side 420 at (40, y0) in a 640x480 image: its bottom border
    // line, 3 px wide, is centred on y0 + 420.
    let found_at = |y0: i64| {
        let mut img = image::GrayImage::from_pixel(640, 480, image::Luma([page::PAPER]));
        page::grid(&mut img, 40, y0, 420, 9, true);
        locate::locate_all(&img)
    };
    // The border line on the frame, half cut off, and cut off (its middle
    // 2 and 4 px past the frame, a tenth of a cell): every cell is in the
    // image, and the bottom side is where the lattice puts the border.
    for y0 in [58, 59, 62, 64] {
        let found = found_at(y0);
        assert!(found.len() == 1 && !found[0].cut, "{y0}: {found:?}");
        let c = found[0].quad.corners;
        let bottom = 0.5 * (c[2].1 + c[3].1);
        assert!((bottom - (y0 + 420) as f32).abs() < 3.0, "{y0}: {c:?}");
    }
    // A quarter of the last row outside, half of it, all of it, two rows:
    // cells are missing, and no grid is taken whole (found and cut, or
    // not found: a comb of ten lines does not fit the nine in the image).
    let cell = 420 / 9;
    for y0 in [62 + cell / 4, 62 + cell / 2, 62 + cell, 62 + 2 * cell] {
        let found = found_at(y0);
        assert!(found.iter().all(|l| l.cut), "{y0}: {found:?}");
    }
    // A grid inside the frame is not cut.
    let found = found_at(30);
    assert!(found.len() == 1 && !found[0].cut, "{found:?}");
}

/// Grids found on every PNG page of a folder (`SNAP_PAGES`, default
/// `target/pdfpages`, e.g. from `pdftoppm -r 100 -gray -png book.pdf
/// target/pdfpages/book`): prints the count, sizes and cut flags per page.
#[test]
#[ignore = "needs rendered pages; run: cargo test --release -p snap-vision --lib tests::fixtures -- --ignored --nocapture"]
fn grids_on_rendered_pages() {
    let dir = std::env::var("SNAP_PAGES")
        .unwrap_or_else(|_| format!("{}/../../target/pdfpages", env!("CARGO_MANIFEST_DIR")));
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "png"))
        .collect();
    paths.sort();
    for p in paths {
        let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let d = decode::decode(&bytes).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let start = std::time::Instant::now();
        let found = locate::locate_all(&d.gray);
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        let what: Vec<String> = found
            .iter()
            .map(|l| {
                let (x, y) = centre(&l.quad);
                let cut = if l.cut { " cut" } else { "" };
                format!("{}x{} at ({x:.0},{y:.0}){cut}", l.n, l.n)
            })
            .collect();
        println!(
            "{}: {} grids in {ms:.0} ms: {}",
            p.display(),
            found.len(),
            what.join(", ")
        );
    }
}
