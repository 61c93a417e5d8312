//! Grids drawn upright in thin lines, found by their lattice alone: app
//! screens and video frames of them, where the search image loses the
//! lines (a 1 px line of a 1080 x 2400 screenshot keeps a third of its
//! contrast at the search's scale) and where there may be no outer border
//! to find (Material themes draw none, or tell the boxes apart by shading
//! and draw every line as thin as a cell line).
//!
//! On the full-resolution image, pixels across which the gray level
//! changes by [`MIN_CONTRAST`] are marked, per axis: a line marks the
//! pixels beside it, a shading step the pixels at it. Long runs of marks
//! along a column (row) are line candidates, and the runs that span one
//! extent are a lattice's lines: a grid's inner lines run from its top to
//! its bottom whether or not a border is drawn there. An extent spanned by
//! a few lines across and one spanned by a few lines down, of the same
//! length, outline a square; it is a grid when its n + 1 evenly spaced
//! lines are there on both axes, all but [`MAX_MISSING_LINES`] of them and
//! every box line. The outline then is the grid's border, drawn or not.

use image::GrayImage;

use crate::geometry::Quad;

/// Least change of gray level across a line or an edge for a pixel to be
/// marked: app themes draw cell lines 30-60 levels from their ground
/// (Material dividers are 12 % black on white, about 30), and a video
/// frame's blur halves a 1 px line's contrast; JPEG noise on flat ground
/// stays under 10.
const MIN_CONTRAST: i16 = 12;

/// Least change of gray level across a cell line where a lattice's box
/// lines, marked at [`MIN_CONTRAST`], put one: a video frame's blur leaves
/// an app's grey 1 px cell lines 8-9 levels under their ground, while its
/// box lines keep their contrast. JPEG noise marks some pixels at this
/// level too, but rarely a band along most of a line.
const CELL_LINE_CONTRAST: i16 = 6;

/// Shortest run of marks that may be a grid line, as a share of the
/// image's shorter side: a grid a person reads on a screen or a video
/// frame is at least an eighth of it across (a phone in a 16:9 video
/// frame: 0.4 of its height).
const MIN_RUN_SHARE: f32 = 0.12;

/// Unmarked pixels a run bridges: a line's antialiased or JPEG-blurred
/// pixels, and where a digit's stroke or a highlight meets it.
const RUN_GAP: usize = 3;

/// Gaps a run bridges as a share of its length: where a box line up to a
/// twentieth of the grid's side wide crosses it (apps draw box lines two
/// to four times as wide as cell lines, at most a fiftieth of the side).
const CROSSING_SHARE: f32 = 0.05;

/// Pixels within which run ends (or run positions) count as one.
const SAME_PX: usize = 3;

/// Fewest lines (runs at distinct positions) that must span one extent
/// for it to be a lattice's: a 9x9's eight inner lines span it, and a
/// highlighted row or column may break a few of them.
const MIN_LINES_PER_EXTENT: usize = 3;

/// The two extents of a square differ by at most this share of its side
/// (plus [`SAME_PX`]): a border's width, antialiasing.
const SIDE_TOL: f32 = 0.03;

/// Half the width of the band, as a share of a cell, in which a lattice
/// line is looked for where the outline puts it: past a line's width and
/// the outline's error, short of a digit's strokes.
const LINE_BAND: f32 = 0.08;

/// A lattice line is there when its band is marked along this share of
/// the grid's extent: a highlighted cell or a digit touching the line may
/// hide it for a cell or two.
const MIN_COVERAGE: f32 = 0.7;

/// Most share of a lattice's cell pixels (away from its lines) marked
/// for it to be a grid: digits mark the edges of their strokes, and JPEG
/// ringing around them more (finished boards in video frames: up to 0.37
/// of the pixels looked at); a tinted or textured area marks nearly all
/// (a newspaper photo's halftone box shading: 0.79-0.94), and any lattice
/// fits it.
const MAX_CELL_MARKS: f32 = 0.5;

/// Share of a cell either side of its lines left out of [`cell_marks`]:
/// a line's width and its antialiased or blurred edge.
const CELL_MARGIN: f32 = 0.15;

/// Lattice lines of an axis that may be missing: the two borders of a
/// grid drawn without one. Box lines never are.
const MAX_MISSING_LINES: usize = 2;

/// Most extents per axis looked at (the most spanned first): a screen has
/// a few grids at most, and each extent pairs with each of the other axis.
const MAX_EXTENTS: usize = 48;

/// Cells per side of the shapes looked for, with their box side.
const SHAPES: [(usize, usize); 2] = [(9, 3), (16, 4)];

/// A grid found by its lattice: outline in continuous full-resolution
/// pixels (corners tl, tr, br, bl), cells per side, and the share of its
/// lattice lines seen.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct LatticeGrid {
    pub quad: Quad,
    pub n: usize,
    pub score: f32,
}

/// Marks along one axis: `at(i, j)` for position `i` across the lines
/// (a column for vertical lines) and `j` along them.
struct Marks {
    across: usize,
    along: usize,
    bits: Vec<bool>,
}

impl Marks {
    /// Pixels across which `gray` changes by `contrast` in x (`vertical`:
    /// marks of vertical lines) or in y.
    fn of(gray: &GrayImage, vertical: bool, contrast: i16) -> Marks {
        let (across, along) = extents_of(gray, vertical);
        let mut bits = vec![false; across * along];
        // The first and last positions across have no pixel on one side.
        for i in 1..across.saturating_sub(1) {
            for j in 0..along {
                bits[i * along + j] = change(gray, vertical, i, j).abs() >= contrast;
            }
        }
        Marks {
            across,
            along,
            bits,
        }
    }

    fn at(&self, i: usize, j: usize) -> bool {
        self.bits[i * self.along + j]
    }

    /// Runs of marks along each position `i`, at least `min_len` long:
    /// `(i, start, end)`, end exclusive. Gaps of [`RUN_GAP`] are bridged,
    /// and so are gaps of at most [`CROSSING_SHARE`] of the run they join:
    /// where a thick line crosses a thin one, the thin line's marks stop
    /// for the thick line's width (each of a borderless grid's cell lines
    /// is cut in three by its box lines).
    fn runs(&self, min_len: usize) -> Vec<(usize, usize, usize)> {
        let mut out = Vec::new();
        let mut pieces: Vec<(usize, usize)> = Vec::new();
        for i in 0..self.across {
            let row = &self.bits[i * self.along..(i + 1) * self.along];
            pieces.clear();
            for (j, &m) in row.iter().enumerate() {
                if !m {
                    continue;
                }
                match pieces.last_mut() {
                    Some(last) if j <= last.1 + RUN_GAP => last.1 = j + 1,
                    _ => pieces.push((j, j + 1)),
                }
            }
            let mut run: Option<(usize, usize)> = None;
            for &(s, e) in &pieces {
                run = match run {
                    Some((rs, re)) if (s - re) as f32 <= CROSSING_SHARE * (e - rs) as f32 => {
                        Some((rs, e))
                    }
                    Some((rs, re)) => {
                        if re - rs >= min_len {
                            out.push((i, rs, re));
                        }
                        Some((s, e))
                    }
                    None => Some((s, e)),
                };
            }
            if let Some((rs, re)) = run.filter(|&(rs, re)| re - rs >= min_len) {
                out.push((i, rs, re));
            }
        }
        out
    }

    /// Share of `from..to` along which the band `centre ± half` across is
    /// marked somewhere.
    fn coverage(&self, centre: f32, half: f32, from: usize, to: usize) -> f32 {
        band_coverage(
            (self.across, self.along),
            |i, j| self.at(i, j),
            centre,
            half,
            from,
            to,
        )
    }
}

/// `(across, along)` of `gray` for lines of one axis (`vertical`: columns
/// across, rows along).
fn extents_of(gray: &GrayImage, vertical: bool) -> (usize, usize) {
    let (w, h) = (gray.width() as usize, gray.height() as usize);
    if vertical {
        (w, h)
    } else {
        (h, w)
    }
}

/// How much `gray` changes across position `i` (a column for `vertical`)
/// at `j` along, `i` neither the first nor the last position across.
#[inline]
fn change(gray: &GrayImage, vertical: bool, i: usize, j: usize) -> i16 {
    let (w, raw) = (gray.width() as usize, gray.as_raw());
    let px = |x: usize, y: usize| i16::from(raw[y * w + x]);
    if vertical {
        px(i + 1, j) - px(i - 1, j)
    } else {
        px(j, i + 1) - px(j, i - 1)
    }
}

/// Share of `from..to` along which the band `centre ± half` across is
/// marked somewhere, `at(i, j)` saying whether a pixel is.
fn band_coverage(
    (across, along): (usize, usize),
    at: impl Fn(usize, usize) -> bool,
    centre: f32,
    half: f32,
    from: usize,
    to: usize,
) -> f32 {
    let lo = (centre - half).floor().max(0.0) as usize;
    let hi = ((centre + half).ceil() as usize).min(across.saturating_sub(1));
    if lo > hi || to <= from {
        return 0.0;
    }
    let to = to.min(along);
    let covered = (from..to).filter(|&j| (lo..=hi).any(|i| at(i, j))).count();
    covered as f32 / (to - from).max(1) as f32
}

/// Marks at [`CELL_LINE_CONTRAST`] made where they are looked at: only the
/// bands where a lattice's box lines put its cell lines are, a few of the
/// image's pixels.
struct FaintMarks<'a> {
    gray: &'a GrayImage,
    vertical: bool,
}

impl FaintMarks<'_> {
    /// [`Marks::coverage`] of these marks.
    fn coverage(&self, centre: f32, half: f32, from: usize, to: usize) -> f32 {
        let (across, along) = extents_of(self.gray, self.vertical);
        let at = |i: usize, j| {
            (1..across.saturating_sub(1)).contains(&i)
                && change(self.gray, self.vertical, i, j).abs() >= CELL_LINE_CONTRAST
        };
        band_coverage((across, along), at, centre, half, from, to)
    }
}

/// An extent spanned by runs: its ends and the distinct positions of the
/// runs that span it.
struct Extent {
    start: usize,
    end: usize,
    lines: Vec<usize>,
}

/// The extents that [`MIN_LINES_PER_EXTENT`] runs span, the most spanned
/// first, at most [`MAX_EXTENTS`].
fn extents(mut runs: Vec<(usize, usize, usize)>) -> Vec<Extent> {
    runs.sort_by_key(|&(i, s, e)| (s, e, i));
    let mut out: Vec<Extent> = Vec::new();
    for (i, s, e) in runs {
        let near = |a: usize, b: usize| a.abs_diff(b) <= SAME_PX;
        match out.iter_mut().find(|x| near(x.start, s) && near(x.end, e)) {
            Some(x) => {
                if x.lines.iter().all(|&p| p.abs_diff(i) > SAME_PX) {
                    x.lines.push(i);
                }
            }
            None => out.push(Extent {
                start: s,
                end: e,
                lines: vec![i],
            }),
        }
    }
    out.retain(|x| x.lines.len() >= MIN_LINES_PER_EXTENT);
    out.sort_by(|a, b| {
        b.lines
            .len()
            .cmp(&a.lines.len())
            .then(a.start.cmp(&b.start))
    });
    out.truncate(MAX_EXTENTS);
    out
}

/// How many of the `n + 1` lattice lines from `first` to `last` (across
/// the lines) are marked along `from..to`, and whether every box line of
/// side `box_side` is: the box lines and the borders in `marks`, the cell
/// lines in `faint` (marked at [`CELL_LINE_CONTRAST`]).
fn lattice_lines(
    (marks, faint): (&Marks, &FaintMarks),
    (first, last): (f32, f32),
    (from, to): (usize, usize),
    (n, box_side): (usize, usize),
) -> (usize, bool) {
    let pitch = (last - first) / n as f32;
    let half = (pitch * LINE_BAND).max(1.0);
    let mut seen = 0;
    let mut boxes = true;
    for k in 0..=n {
        let centre = first + k as f32 * pitch;
        let covered = if k % box_side == 0 {
            marks.coverage(centre, half, from, to)
        } else {
            faint.coverage(centre, half, from, to)
        };
        let there = covered >= MIN_COVERAGE;
        seen += usize::from(there);
        if k % box_side == 0 && k != 0 && k != n && !there {
            boxes = false;
        }
    }
    (seen, boxes)
}

/// Share of the pixels of the cells of the `n` x `n` lattice from
/// `(left, top)` to `(right, bottom)`, away from its lines (by
/// [`CELL_MARGIN`] of a cell), that are marked on either axis; every
/// second pixel each way is looked at.
fn cell_marks(
    vertical: &Marks,
    horizontal: &Marks,
    (left, top): (f32, f32),
    (right, bottom): (f32, f32),
    n: usize,
) -> f32 {
    let (pitch_x, pitch_y) = ((right - left) / n as f32, (bottom - top) / n as f32);
    let inner = |p: f32, first: f32, pitch: f32| {
        let f = ((p - first) / pitch).fract();
        (CELL_MARGIN..1.0 - CELL_MARGIN).contains(&f)
    };
    let (mut marked, mut looked) = (0usize, 0usize);
    let (x0, x1) = (
        left.max(0.0) as usize,
        (right as usize).min(vertical.across),
    );
    let (y0, y1) = (top.max(0.0) as usize, (bottom as usize).min(vertical.along));
    for y in (y0..y1).step_by(2) {
        if !inner(y as f32 + 0.5, top, pitch_y) {
            continue;
        }
        for x in (x0..x1).step_by(2) {
            if !inner(x as f32 + 0.5, left, pitch_x) {
                continue;
            }
            looked += 1;
            marked += usize::from(vertical.at(x, y) || horizontal.at(y, x));
        }
    }
    marked as f32 / looked.max(1) as f32
}

/// The grids of `gray` its lattices alone show (see the module doc), the
/// best first, none overlapping another.
pub(super) fn lattice_grids(gray: &GrayImage) -> Vec<LatticeGrid> {
    let (w, h) = (gray.width() as usize, gray.height() as usize);
    let min_len = (w.min(h) as f32 * MIN_RUN_SHARE).ceil() as usize;
    if min_len < 2 * SAME_PX {
        return Vec::new();
    }
    let vertical = Marks::of(gray, true, MIN_CONTRAST);
    let horizontal = Marks::of(gray, false, MIN_CONTRAST);
    let faint_vertical = FaintMarks {
        gray,
        vertical: true,
    };
    let faint_horizontal = FaintMarks {
        gray,
        vertical: false,
    };
    // Vertical lines span the grid's rows (their extent is top..bottom),
    // horizontal ones its columns.
    let downs = extents(vertical.runs(min_len));
    let acrosses = extents(horizontal.runs(min_len));
    let mut found: Vec<LatticeGrid> = Vec::new();
    for down in &downs {
        for across in &acrosses {
            let (side_y, side_x) = (
                (down.end - down.start) as f32,
                (across.end - across.start) as f32,
            );
            let tol = SIDE_TOL * side_x.max(side_y) + SAME_PX as f32;
            let inside = |p: usize, a: usize, b: usize| p + SAME_PX >= a && p <= b + SAME_PX;
            if (side_x - side_y).abs() > tol
                || !down
                    .lines
                    .iter()
                    .any(|&x| inside(x, across.start, across.end))
                || !across
                    .lines
                    .iter()
                    .any(|&y| inside(y, down.start, down.end))
            {
                continue;
            }
            // Continuous pixels: a run's first pixel starts at its index.
            let (left, right) = (across.start as f32, across.end as f32);
            let (top, bottom) = (down.start as f32, down.end as f32);
            for (n, box_side) in SHAPES {
                let (seen_x, boxes_x) = lattice_lines(
                    (&vertical, &faint_vertical),
                    (left, right),
                    (down.start, down.end),
                    (n, box_side),
                );
                let (seen_y, boxes_y) = lattice_lines(
                    (&horizontal, &faint_horizontal),
                    (top, bottom),
                    (across.start, across.end),
                    (n, box_side),
                );
                let enough = |seen: usize| seen + MAX_MISSING_LINES > n;
                if !(boxes_x && boxes_y && enough(seen_x) && enough(seen_y))
                    || cell_marks(&vertical, &horizontal, (left, top), (right, bottom), n)
                        > MAX_CELL_MARKS
                {
                    continue;
                }
                found.push(LatticeGrid {
                    quad: Quad::new([(left, top), (right, top), (right, bottom), (left, bottom)]),
                    n,
                    score: (seen_x + seen_y) as f32 / (2 * (n + 1)) as f32,
                });
            }
        }
    }
    found.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then(b.quad.area().abs().total_cmp(&a.quad.area().abs()))
    });
    let mut kept: Vec<LatticeGrid> = Vec::new();
    for g in found {
        if kept.iter().all(|k| !overlaps(&k.quad, &g.quad)) {
            kept.push(g);
        }
    }
    kept
}

/// Whether two outlines' bounding boxes share any area.
fn overlaps(a: &Quad, b: &Quad) -> bool {
    let ((ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1)) = (a.bounds(), b.bounds());
    ax0 < bx1 && bx0 < ax1 && ay0 < by1 && by0 < ay1
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    /// A screen of `ground` with a 9x9 lattice of side `side` at (x0, y0):
    /// 1 px cell lines and `box_w` px box lines of `line`, the border drawn
    /// or not, and a few "digits" (blocks) in cells.
    fn screen(ground: u8, line: u8, border: bool, box_w: u32) -> (GrayImage, (f32, f32, f32)) {
        faint_screen(ground, line, line, border, box_w)
    }

    /// [`screen`] with cell lines of `cell_line`.
    fn faint_screen(
        ground: u8,
        line: u8,
        cell_line: u8,
        border: bool,
        box_w: u32,
    ) -> (GrayImage, (f32, f32, f32)) {
        let (w, h, x0, y0, side) = (540u32, 1000u32, 60u32, 300u32, 414u32);
        let mut img = GrayImage::from_pixel(w, h, Luma([ground]));
        let cell = side as f32 / 9.0;
        for k in 0..=9u32 {
            if !border && (k == 0 || k == 9) {
                continue;
            }
            let p = (k as f32 * cell).round() as u32;
            let (width, ink) = if k % 3 == 0 {
                (box_w, line)
            } else {
                (1, cell_line)
            };
            for d in 0..width {
                let at = (p + d).saturating_sub(width / 2).min(side - 1);
                for t in 0..side {
                    img.put_pixel(x0 + at, y0 + t, Luma([ink]));
                    img.put_pixel(x0 + t, y0 + at, Luma([ink]));
                }
            }
        }
        for (r, c) in [(0, 0), (1, 4), (4, 4), (7, 2), (8, 8)] {
            let (cx, cy) = (
                x0 as f32 + (c as f32 + 0.35) * cell,
                y0 as f32 + (r as f32 + 0.3) * cell,
            );
            for dy in 0..14 {
                for dx in 0..10 {
                    img.put_pixel(cx as u32 + dx, cy as u32 + dy, Luma([line / 2]));
                }
            }
        }
        (img, (x0 as f32, y0 as f32, side as f32))
    }

    fn assert_outline(found: &[LatticeGrid], (x0, y0, side): (f32, f32, f32)) {
        assert_eq!(found.len(), 1, "{found:?}");
        let g = found[0];
        assert_eq!(g.n, 9);
        let want = [
            (x0, y0),
            (x0 + side, y0),
            (x0 + side, y0 + side),
            (x0, y0 + side),
        ];
        for (got, want) in g.quad.corners.iter().zip(want) {
            assert!(
                (got.0 - want.0).abs() <= 3.0 && (got.1 - want.1).abs() <= 3.0,
                "{g:?}"
            );
        }
    }

    #[test]
    fn a_screen_grid_is_found_with_its_border_or_without() {
        let (img, at) = screen(250, 210, true, 3);
        assert_outline(&lattice_grids(&img), at);
        // A dark theme's borderless grid: light lines on dark ground, the
        // border placed where the inner lines end.
        let (img, at) = screen(20, 70, false, 3);
        assert_outline(&lattice_grids(&img), at);
    }

    #[test]
    fn a_blurred_frames_faint_cell_lines_count_where_its_box_lines_put_them() {
        // Box lines 60 levels under the ground, cell lines 8 (a video
        // frame's blur).
        let (img, at) = faint_screen(250, 190, 242, true, 3);
        assert_outline(&lattice_grids(&img), at);
        // Without the box lines' contrast, cell lines that faint are none.
        let (img, _) = faint_screen(250, 242, 242, true, 3);
        assert!(lattice_grids(&img).is_empty());
    }

    #[test]
    fn cell_lines_cut_by_wide_box_lines_are_one_line_each() {
        // Box lines 8 px wide stop each cell line's marks three times:
        // the runs join across them, and the grid is found.
        let (img, at) = screen(245, 200, false, 8);
        assert_outline(&lattice_grids(&img), at);
    }

    #[test]
    fn no_grid_in_a_blank_screen_a_table_or_a_crossword() {
        assert!(lattice_grids(&GrayImage::from_pixel(400, 700, Luma([240]))).is_empty());
        // A lattice of 15 cells a side: its lines do not fall where a 9x9's
        // or a 16x16's would, but at a quarter of them.
        let mut img = GrayImage::from_pixel(500, 500, Luma([250]));
        for k in 0..=15u32 {
            let p = 25 + k * 30;
            for t in 25..476 {
                img.put_pixel(p.min(475), t, Luma([40]));
                img.put_pixel(t, p.min(475), Luma([40]));
            }
        }
        assert!(lattice_grids(&img).is_empty());
        // A halftone tint (a newspaper's shaded box): every column and row
        // of it is marked, so every lattice's lines are "there".
        let mut img = GrayImage::from_pixel(500, 500, Luma([250]));
        for y in 100..400u32 {
            for x in (100..400u32).filter(|x| (x + y) % 3 == 0) {
                img.put_pixel(x, y, Luma([90]));
            }
        }
        assert!(lattice_grids(&img).is_empty());
    }
}
