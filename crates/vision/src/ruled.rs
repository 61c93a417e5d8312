//! A table ruled through its cells is no puzzle.
//!
//! A ruled table of numbers (a results or tide table beside a newspaper's
//! puzzle) can pass the grid search as a 9x9: nine rows, and rules that
//! fall at a 9x9 comb's box lines, with right-aligned numbers' strokes
//! taken for its thin lines. Its other rules then run down the middles of
//! the lattice's cells. A puzzle never has a line there: a printed digit
//! keeps a sixth of its cell or more from the lines across (see
//! `TIGHT_CROP_CELLS` in locate/tight.rs), so no digit's stroke runs
//! through a cell from its top line to its bottom one, and a handwritten
//! one does in a cell or two, not down a whole column. A lattice with
//! lines down the middles of its cells, whole columns (rows) of them, is
//! a table.

use image::GrayImage;

use crate::cells::GridLines;
use crate::histogram::histogram_of_image;

/// The middle of a cell looked at for a line through it, as a share of
/// the cell from each of its lines: past a line's width, the detected
/// line's error and a killer cage's dashes (a tenth of a cell inside).
const MIDDLE_FROM: f32 = 0.25;

/// Share of a cell's height, from each line across, left out of a line
/// through it: the lines across and their blur.
const ENDS: f32 = 0.06;

/// Share of the rows between the ends along which a line through a cell
/// must be dark: a rule is dark all the way; a word or number written
/// across it only darkens it more.
const MIN_ALONG: f32 = 0.95;

/// Widest a line through a cell may be, as a share of the cell: a rule is
/// a few pixels wide; a shadow or a tinted band (a highlighted column) is
/// wide and no line.
const MAX_WIDTH: f32 = 0.15;

/// How dark a pixel must be to be part of a line: this share of the way
/// from the grid's ground (its median gray level) to its darkest ink
/// (the lines and the print), so a fold or faint show-through is no line.
const DARK_SHARE: f32 = 0.4;

/// Percentile of the grid's ink taken as its darkest: lines and digits
/// cover more than this share of the grid.
const DARKEST_PERCENTILE: f32 = 0.99;

/// Cells of a column (row) with a line through them, short of all `n`,
/// for a rule down (across) it: a label or a number written across the
/// rule can break it in a cell or two.
const MAX_UNRULED_CELLS: usize = 2;

/// Columns and rows with a rule through their cells for a lattice to be a
/// table: a table has rules between its columns, several; a single line
/// may be a fold or a pen stroke across a puzzle.
const MIN_RULES: usize = 2;

/// Whether the `n` x `n` grid `rect` (dark on light, `n * CELL_PX`
/// square), cut along `lines`, is a table ruled through its cells (see
/// the module doc).
pub(crate) fn ruled_through_cells(rect: &GrayImage, lines: &GridLines) -> bool {
    let n = lines.n();
    let (w, h) = (rect.width() as usize, rect.height() as usize);
    if n == 0 || w == 0 || h == 0 {
        return false;
    }
    // The gray level with `share` of the pixels at least as light.
    let px = histogram_of_image(rect);
    let level = |share: f32| px.sorted_at(px.len - (share * px.len as f32).ceil() as usize);
    let (Some(ground), Some(darkest)) = (level(0.5), level(DARKEST_PERCENTILE)) else {
        return false;
    };
    if darkest >= ground {
        return false;
    }
    // Dark: at least `DARK_SHARE` of the way from the ground's gray level
    // to the darkest's.
    let dark = f32::from(ground) - DARK_SHARE * f32::from(ground - darkest);
    let raw = rect.as_raw();
    let is_dark = |x: usize, y: usize| f32::from(raw[y * w + x]) <= dark;
    // Down each column: cells with a line through them top to bottom;
    // across each row, the same turned.
    let mut rules = 0;
    for c in 0..n {
        let through = (0..n)
            .filter(|&r| {
                let (l, t, rt, b) = lines.cell_box(r, c);
                line_through((l, rt), (t, b), (w, h), is_dark)
            })
            .count();
        rules += usize::from(through + MAX_UNRULED_CELLS >= n);
    }
    for r in 0..n {
        let through = (0..n)
            .filter(|&c| {
                let (l, t, rt, b) = lines.cell_box(r, c);
                line_through((t, b), (l, rt), (h, w), |a, j| is_dark(j, a))
            })
            .count();
        rules += usize::from(through + MAX_UNRULED_CELLS >= n);
    }
    rules >= MIN_RULES
}

/// Whether a narrow line runs through a cell from one of its lines to the
/// other: the cell spans `first..last` across such a line and
/// `start..end` along it, in an image `extent_across` by `extent_along`
/// pixels; `dark(a, j)` says whether the pixel `a` across and `j` along is
/// dark.
fn line_through(
    (first, last): (f32, f32),
    (start, end): (f32, f32),
    (extent_across, extent_along): (usize, usize),
    dark: impl Fn(usize, usize) -> bool,
) -> bool {
    let (side, length) = (last - first, end - start);
    if side <= 0.0 || length <= 0.0 {
        return false;
    }
    let clamp = |v: f32, extent: usize| (v.max(0.0) as usize).min(extent);
    let lo = clamp(first + MIDDLE_FROM * side, extent_across);
    let hi = clamp((last - MIDDLE_FROM * side).ceil(), extent_across);
    let j0 = clamp(start + ENDS * length, extent_along);
    let j1 = clamp((end - ENDS * length).ceil(), extent_along);
    if lo >= hi || j0 >= j1 {
        return false;
    }
    let need = (MIN_ALONG * (j1 - j0) as f32).ceil() as usize;
    let max_width = (MAX_WIDTH * side).ceil() as usize;
    // A position is on the line where it, or a position beside it (a
    // rule a pixel off upright in the rectified grid), is dark.
    let along = |a: usize| {
        (j0..j1)
            .filter(|&j| (a.saturating_sub(1)..=(a + 1).min(extent_across - 1)).any(|p| dark(p, j)))
            .count()
    };
    let on: Vec<bool> = (lo..hi).map(|a| along(a) >= need).collect();
    // A run of positions on the line, narrow enough for a line, and with
    // positions off it either side within the middle.
    let mut run = 0;
    for (k, &o) in on.iter().enumerate() {
        if o {
            run += 1;
            continue;
        }
        if run > 0 && run <= max_width && k > run {
            return true;
        }
        run = 0;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::CELL_PX;
    use image::Luma;

    const PAPER: u8 = 230;
    const INK: u8 = 30;

    /// A 9x9 lattice, `rules` drawn down the middles of those columns.
    fn lattice(rules: &[usize]) -> GrayImage {
        let side = (9 * CELL_PX) as u32;
        let mut img = GrayImage::from_pixel(side, side, Luma([PAPER]));
        for k in 0..=9u32 {
            let p = (k * CELL_PX as u32).min(side - 2);
            for a in 0..side {
                for d in 0..2 {
                    img.put_pixel(p + d, a, Luma([INK]));
                    img.put_pixel(a, p + d, Luma([INK]));
                }
            }
        }
        for &c in rules {
            let x = (c * CELL_PX + CELL_PX / 2) as u32;
            for y in 0..side {
                img.put_pixel(x, y, Luma([INK]));
                img.put_pixel(x + 1, y, Luma([INK]));
            }
        }
        img
    }

    /// Draws a bar `(x, y, w, h)` of ink.
    fn bar(img: &mut GrayImage, (x, y, w, h): (u32, u32, u32, u32)) {
        for yy in y..y + h {
            for xx in x..x + w {
                img.put_pixel(xx, yy, Luma([INK]));
            }
        }
    }

    #[test]
    fn a_table_ruled_down_its_cells_middles_is_no_puzzle() {
        let lines = GridLines::perfect(9);
        assert!(ruled_through_cells(&lattice(&[1, 4, 7]), &lines));
        // With labels written across a rule in two rows.
        let mut img = lattice(&[1, 4]);
        bar(&mut img, (60, 10, 30, 20));
        bar(&mut img, (60, 300, 30, 20));
        assert!(ruled_through_cells(&img, &lines));
    }

    #[test]
    fn digits_down_a_column_and_a_single_line_are_no_table() {
        let lines = GridLines::perfect(9);
        assert!(!ruled_through_cells(&lattice(&[]), &lines));
        // Tall 1s in every cell, two thirds of the cell high, wide 7s.
        let mut img = lattice(&[]);
        let cell = CELL_PX as u32;
        for r in 0..9 {
            for c in 0..9 {
                let (x, y) = (c * cell, r * cell);
                bar(&mut img, (x + 22, y + 8, 4, 32));
            }
        }
        assert!(!ruled_through_cells(&img, &lines));
        // One line down a column: a fold or a pen stroke.
        assert!(!ruled_through_cells(&lattice(&[4]), &lines));
        // A highlighted column band is wide, no line.
        let mut img = lattice(&[]);
        for c in [2u32, 6] {
            bar(&mut img, (c * cell + 4, 0, cell - 8, 9 * cell));
        }
        assert!(!ruled_through_cells(&img, &lines));
    }
}
