//! A grid with a side on the image frame: cropped at or just inside its
//! border with every cell in the image (read), or with cells cut off
//! (reported, never solved).
//!
//! The border line on the frame may be cut off, so it cannot be seen; the
//! lattice says where it is. Across such a side, every other line of the
//! grid is found where the comb put it, a straight line through their
//! positions gives the pitch, and the border lies one pitch past the last
//! line seen. The grid is whole when that border lies in the image or at
//! most [`TIGHT_CROP_CELLS`] of a cell past its edge.

use image::GrayImage;

use super::verify::{tooth_centroid, LINE_TOL, MAX_BIN_CELL, MIN_BIN_CELL};
use crate::geometry::{Homography, Quad};

/// A border inferred this far past the image's edge, in cells, still
/// leaves every cell in the image: a printed digit keeps clear of its
/// cell's lines by a sixth of the cell or more, so a crop this far into the
/// outer cells loses the border's ink and cell margin, never a digit's.
/// Farther, digits of the outer row may be cut: the grid is cut.
pub(super) const TIGHT_CROP_CELLS: f32 = 0.15;

/// Each line across a side on the frame is looked for this fraction of a
/// cell either way of where the comb put it: past the comb's tolerance
/// ([`LINE_TOL`]), short of a digit's strokes a third of a cell away.
const SEARCH_CELLS: f32 = 0.25;

/// A line's profile is the mean darkness along it, sampled this many times
/// a bin (a bin is about a work pixel).
const SAMPLES_PER_BIN: usize = 1;

/// Across an axis with both borders on the frame, the lattice alone does
/// not say which of its lines are the grid's: a 9x9's box lines do. Each
/// must hold this many times the ink of the thickest other line seen (ink
/// across the line: width times darkness): box lines are printed at least
/// twice as wide as cell lines, and the blur of a photo evens them out
/// only in part.
const MIN_BOX_INK_RATIO: f64 = 1.3;

/// A side of a grid has the frame within reach when the frame lies less
/// than this many cells past it: one cell for a border the comb could not
/// count, and a half for a tilted border cropped at its outermost point.
const BEYOND_REACH_CELLS: f64 = 1.5;

/// The fitted pitch may differ from the comb's by this fraction: the comb
/// spans the grid, so a lattice of another pitch is another pattern (a
/// comb squeezed over a grid a row short).
const MAX_PITCH_CHANGE: f32 = 0.05;

/// A grid on the frame placed where its lattice puts its border (see
/// [`whole_at_frame`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct Placed {
    /// The grid's outer lines, as the verdict's quad.
    pub quad: Quad,
    /// Across every side on the frame, the lattice's box lines hold
    /// [`MIN_BOX_INK_RATIO`] times the ink of each of its other inner
    /// lines: a 9x9's boxes, measured on the lines themselves.
    pub boxes_seen: bool,
}

/// The grid `quad` (a verdict's outer lines, work pixels, pixel-index
/// convention) of `n` cells a side, whose sides `frame` lie on the frame
/// of `dark`, with those sides moved to where its lattice puts them; `None`
/// when the grid is cut: a line across a side on the frame not found where
/// the lattice has it, the lattice's pitch not the comb's, a border more
/// than [`TIGHT_CROP_CELLS`] past the frame, or both sides of an axis on
/// the frame without the box lines of a 9x9 where the lattice puts them
/// (see [`MIN_BOX_INK_RATIO`]; a lattice cut at both ends does not show
/// by itself which of its lines are the grid's border).
pub(super) fn whole_at_frame(
    dark: &GrayImage,
    quad: &Quad,
    n: usize,
    frame: [bool; 4],
) -> Option<Placed> {
    if !frame.iter().any(|&f| f) {
        return Some(Placed {
            quad: *quad,
            boxes_seen: false,
        });
    }
    // Continuous coordinates: a hull pixel index's middle.
    let q = Quad::new(quad.corners.map(|(x, y)| (x + 0.5, y + 0.5)));
    let cell =
        ((q.max_side() / n as f32).round() as usize).clamp(MIN_BIN_CELL, MAX_BIN_CELL) as f64;
    let side = n as f64 * cell;
    let g2p = Homography::square_to_quad(side, &q)?;
    // Per axis (0: the vertical lines, across sides 3 and 1; 1: the
    // horizontal ones, across sides 0 and 2), the outer lines' positions.
    let mut ends = [[0.0, side]; 2];
    let mut boxes_seen = true;
    for (axis, (near, far)) in [(3, 1), (0, 2)].into_iter().enumerate() {
        if !frame[near] && !frame[far] {
            continue;
        }
        let open = (frame[near], frame[far]);
        let (a, b, ink) = lattice_line(dark, &g2p, axis, cell, n, open)?;
        if ((b - cell) / cell).abs() > MAX_PITCH_CHANGE as f64 {
            return None;
        }
        let boxes = box_lines_stand_out(&ink, n);
        if open.0 && open.1 && !boxes {
            return None;
        }
        boxes_seen &= boxes;
        if frame[near] {
            ends[axis][0] = a;
        }
        if frame[far] {
            ends[axis][1] = a + b * n as f64;
        }
    }
    let [[u0, u1], [v0, v1]] = ends;
    let square = [(u0, v0), (u1, v0), (u1, v1), (u0, v1)];
    let corners = square.map(|(u, v)| {
        let (x, y) = g2p.map64(u, v);
        (x as f32, y as f32)
    });
    // Each corner of a side moved: how far past the image's edge, in cells
    // of the lattice there.
    let (w, h) = (dark.width() as f32, dark.height() as f32);
    for s in (0..4).filter(|&s| frame[s]) {
        for k in [s, (s + 1) % 4] {
            let (x, y) = corners[k];
            let past = (-x).max(-y).max(x - w).max(y - h).max(0.0);
            // One pitch inwards of the corner, along the axis across side s.
            let (u, v) = square[k];
            let inward = if s % 2 == 1 {
                (u - (u - side / 2.0).signum() * cell, v)
            } else {
                (u, v - (v - side / 2.0).signum() * cell)
            };
            let (ix, iy) = g2p.map64(inward.0, inward.1);
            let pitch = (x - ix as f32).hypot(y - iy as f32);
            if past > TIGHT_CROP_CELLS * pitch {
                return None;
            }
        }
    }
    Some(Placed {
        quad: Quad::new(corners.map(|(x, y)| (x - 0.5, y - 0.5))),
        boxes_seen,
    })
}

/// Whether the lines of a 9x9 (`ink` per line, `None` where not looked
/// for) have box lines, lines 3 and 6, each holding [`MIN_BOX_INK_RATIO`]
/// times the ink of every other inner line. The outer lines are left out:
/// a border is printed as thick as box lines, and on the frame it is not
/// looked for.
fn box_lines_stand_out(ink: &[Option<f64>], n: usize) -> bool {
    if n != 9 {
        return false;
    }
    let (boxes, others): (Vec<_>, Vec<_>) = ink
        .iter()
        .enumerate()
        .take(n)
        .skip(1)
        .filter_map(|(j, v)| v.map(|v| (j, v)))
        .partition(|(j, _)| j % 3 == 0);
    let weakest_box = boxes.iter().map(|b| b.1).fold(f64::MAX, f64::min);
    let strongest_other = others.iter().map(|o| o.1).fold(0.0, f64::max);
    boxes.len() == 2 && weakest_box >= MIN_BOX_INK_RATIO * strongest_other
}

/// The straight line `a + b j` (square bins) through the positions of the
/// lines `j` of one axis of the grid mapped by `g2p` from the square of
/// `n` cells of `cell` bins, each found within [`SEARCH_CELLS`] of `j`
/// cells; the outer lines on the frame (`open`: the near one, the far one)
/// are not looked for; and each line's ink across it (the darkness above
/// its window's floor, summed over the window's bins). A line whose
/// window reaches past the image's edge (a border a pixel or two inside
/// the frame of a tilted crop) is looked for in the part inside, when that
/// is at least half of it. `None` when a line is not found or lies off the
/// fitted line by more than [`LINE_TOL`] of a cell.
fn lattice_line(
    dark: &GrayImage,
    g2p: &Homography,
    axis: usize,
    cell: f64,
    n: usize,
    open: (bool, bool),
) -> Option<(f64, f64, Vec<Option<f64>>)> {
    let side = n as f64 * cell;
    let mut along = Along::new(dark, g2p, axis, side);
    let mut line_at = |t: f64| along.darkness(t);
    let win = (SEARCH_CELLS as f64 * cell).round() as isize;
    let mut pts: Vec<(f64, f64)> = Vec::with_capacity(n + 1);
    let mut ink = vec![None; n + 1];
    for (j, ink) in ink.iter_mut().enumerate() {
        if (j == 0 && open.0) || (j == n && open.1) {
            continue;
        }
        let at = (j as f64 * cell).round() as isize;
        // A line near the frame has part of its window outside the image:
        // its profile is the part inside, at least half the window.
        let samples: Vec<Option<f32>> = (-win..=win)
            .map(|k| line_at((at + k) as f64 + 0.5))
            .collect();
        let first = samples.iter().position(Option::is_some)?;
        let prof: Vec<f32> = samples[first..].iter().map_while(|&v| v).collect();
        if prof.len() <= win as usize {
            return None;
        }
        let (pos, _) = tooth_centroid(&prof)?;
        pts.push((j as f64, (at - win + first as isize) as f64 + 0.5 + pos));
        let floor = prof.iter().fold(f32::MAX, |m, &v| m.min(v));
        *ink = Some(prof.iter().map(|&v| (v - floor) as f64).sum());
    }
    let m = pts.len() as f64;
    if m < 2.0 {
        return None;
    }
    let (sj, sp) = pts.iter().fold((0.0, 0.0), |(a, b), p| (a + p.0, b + p.1));
    let (mj, mp) = (sj / m, sp / m);
    let (sjj, sjp) = pts.iter().fold((0.0, 0.0), |(a, b), p| {
        (a + (p.0 - mj) * (p.0 - mj), b + (p.0 - mj) * (p.1 - mp))
    });
    if sjj <= 0.0 {
        return None;
    }
    let b = sjp / sjj;
    let a = mp - b * mj;
    let tol = LINE_TOL as f64 * cell;
    pts.iter()
        .all(|&(j, p)| (p - (a + b * j)).abs() <= tol)
        .then_some((a, b, ink))
}

/// The lines of one axis of a grid mapped by `g2p` from a square of
/// `side` bins (axis 0: the vertical lines, at `u` = t; 1: the horizontal
/// ones), read across the square.
struct Along<'a> {
    dark: &'a GrayImage,
    g2p: &'a Homography,
    axis: usize,
    steps: Vec<f64>,
    xs: Vec<f64>,
    ys: Vec<f64>,
}

impl<'a> Along<'a> {
    fn new(dark: &'a GrayImage, g2p: &'a Homography, axis: usize, side: f64) -> Along<'a> {
        let along = (side as usize * SAMPLES_PER_BIN).max(1);
        let steps: Vec<f64> = (0..along)
            .map(|i| (i as f64 + 0.5) * side / along as f64)
            .collect();
        Along {
            dark,
            g2p,
            axis,
            steps,
            xs: vec![0.0; along],
            ys: vec![0.0; along],
        }
    }

    /// Mean darkness (0-1) along the line at `t` bins, over its samples in
    /// the image; `None` when none is. The line's samples are mapped at
    /// once (see `Homography::map_row`), then read.
    fn darkness(&mut self, t: f64) -> Option<f32> {
        if self.axis == 0 {
            self.g2p
                .map_column(t, &self.steps, &mut self.xs, &mut self.ys);
        } else {
            self.g2p.map_row(&self.steps, t, &mut self.xs, &mut self.ys);
        }
        let (w, h) = (self.dark.width() as f64, self.dark.height() as f64);
        let raw = self.dark.as_raw();
        let stride = self.dark.width() as usize;
        let (mut sum, mut cnt) = (0.0f64, 0usize);
        for (&x, &y) in self.xs.iter().zip(&self.ys) {
            if x >= 0.0 && y >= 0.0 && x < w && y < h {
                // SAFETY: x and y are in 0..w and 0..h (checked above,
                // which no NaN passes; an image side fits i32), so they
                // convert unchecked: `as usize` saturates first, a dozen
                // instructions a sample on x86-64.
                let (xi, yi) =
                    unsafe { (x.to_int_unchecked::<i32>(), y.to_int_unchecked::<i32>()) };
                sum += raw[yi as usize * stride + xi as usize] as f64;
                cnt += 1;
            }
        }
        (cnt > 0).then(|| (sum / cnt as f64 / 255.0) as f32)
    }

    /// The ink across the line at `t` bins: the darkness above the
    /// floor of the window within [`SEARCH_CELLS`] of a cell (`cell` bins)
    /// of it, summed over the part of that window in the image (as
    /// [`lattice_line`] measures it). `None` when fewer than two of the
    /// window's lines are in the image (a border on the frame keeps a
    /// few).
    fn ink(&mut self, t: f64, cell: f64) -> Option<f64> {
        let win = (SEARCH_CELLS as f64 * cell).round() as isize;
        let prof: Vec<f32> = (-win..=win)
            .filter_map(|k| self.darkness(t.round() + k as f64 + 0.5))
            .collect();
        if prof.len() < 2 {
            return None;
        }
        let floor = prof.iter().fold(f32::MAX, |m, &v| m.min(v));
        Some(prof.iter().map(|&v| (v - floor) as f64).sum())
    }
}

/// The grid `quad` (work pixels, pixel-index convention), a 9x9, moved a
/// cell towards a side that has the image's frame within
/// [`BEYOND_REACH_CELLS`], when it is its lattice placed a line short of
/// that side; `None` when it is not. Across that side, the lines that
/// stand out as box lines (see [`box_lines_stand_out`]) are those of the
/// grid moved a cell towards the frame, whose border there is then the
/// line a cell past the side. The comb cannot count a border on the frame,
/// and may take a row of what lies beyond the far side instead (a
/// newspaper photo cropped at the bottom border, found with a row of the
/// text above it). A frame round a screen's grid a cell away moves no box
/// line.
pub(super) fn boxes_a_line_towards_frame(dark: &GrayImage, quad: &Quad, n: usize) -> Option<Quad> {
    if n != 9 {
        return None;
    }
    let q = Quad::new(quad.corners.map(|(x, y)| (x + 0.5, y + 0.5)));
    let cell =
        ((q.max_side() / n as f32).round() as usize).clamp(MIN_BIN_CELL, MAX_BIN_CELL) as f64;
    let side = n as f64 * cell;
    let g2p = Homography::square_to_quad(side, &q)?;
    let (w, h) = (dark.width() as f64, dark.height() as f64);
    let outside = |(u, v): (f64, f64)| {
        let (x, y) = g2p.map64(u, v);
        x < 0.0 || y < 0.0 || x >= w || y >= h
    };
    let reach = BEYOND_REACH_CELLS * cell;
    // Per side (top, right, bottom, left): the axis of its line, where it
    // lies and which way is out.
    let sides = [
        (1, 0.0, -1.0),
        (0, side, 1.0),
        (1, side, 1.0),
        (0, 0.0, -1.0),
    ];
    let (axis, out) = sides
        .into_iter()
        .find_map(|(axis, at, out): (usize, f64, f64)| {
            let past = at + out * reach;
            let ends =
                [0.0, side / 2.0, side].map(|a| if axis == 0 { (past, a) } else { (a, past) });
            if !ends.into_iter().any(outside) {
                return None;
            }
            // The lines of the grid moved a cell out, by their number there.
            let mut along = Along::new(dark, &g2p, axis, side);
            let moved: Vec<Option<f64>> = (0..=n)
                .map(|j| along.ink((j as f64 + out) * cell, cell))
                .collect();
            box_lines_stand_out(&moved, n).then_some((axis, out))
        })?;
    let shift = |(u, v): (f64, f64)| {
        let (u, v) = if axis == 0 {
            (u + out * cell, v)
        } else {
            (u, v + out * cell)
        };
        let (x, y) = g2p.map64(u, v);
        (x as f32 - 0.5, y as f32 - 0.5)
    };
    Some(Quad::new(
        [(0.0, 0.0), (side, 0.0), (side, side), (0.0, side)].map(shift),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    /// Darkness of a 9x9 grid of `cell` px with its left border at
    /// column `x0`, cropped at its right border (the image ends there).
    fn cropped_grid(x0: u32, cell: u32) -> (GrayImage, Quad) {
        let (y0, side) = (10, 9 * cell);
        let (w, h) = (x0 + side + 1, y0 + side + 10);
        let on = |v: u32, o: u32| v >= o && v <= o + side && (v - o).is_multiple_of(cell);
        let dark = GrayImage::from_fn(w, h, |x, y| {
            let inside = |v: u32, o: u32| v >= o && v <= o + side;
            let line = (on(x, x0) && inside(y, y0)) || (on(y, y0) && inside(x, x0));
            Luma([if line { 255 } else { 0 }])
        });
        let (a, b) = (x0 as f32, (x0 + side) as f32);
        let (c, d) = (y0 as f32, (y0 + side) as f32);
        (dark, Quad::new([(a, c), (b, c), (b, d), (a, d)]))
    }

    #[test]
    fn a_border_near_the_frame_is_found_in_the_part_of_its_window_inside() {
        // The right border is on the frame; the left one two pixels in,
        // its search window reaching past the image's edge.
        let (dark, quad) = cropped_grid(2, 20);
        let frame = [false, true, false, false];
        let whole = whole_at_frame(&dark, &quad, 9, frame);
        let whole = whole.expect("every cell is in the image");
        assert!(
            (whole.quad.corners[1].0 - quad.corners[1].0).abs() < 2.0,
            "{whole:?}"
        );
        // Its lines are all alike: no box lines seen.
        assert!(!whole.boxes_seen);
    }

    #[test]
    fn a_grid_a_line_short_of_its_border_on_the_frame_is_told() {
        // A 9x9 of 20 px cells, box lines and border 3 px wide, its top
        // border at `y0` and `below` rows under the bottom border's first
        // row; optionally a frame line (a screen's) a cell below it.
        let (x0, y0, cell) = (40u32, 40u32, 20u32);
        let side = 9 * cell;
        let grid = |below: u32, frame_line: bool| {
            let (w, h) = (x0 + side + 40, y0 + side + below);
            let on = |v: u32, o: u32| {
                v >= o
                    && v <= o + side
                    && ((v - o) % (3 * cell) < 3 || (v - o).is_multiple_of(cell))
            };
            GrayImage::from_fn(w, h, |x, y| {
                let inside = |v: u32, o: u32| v >= o && v <= o + side + 2;
                let line = (on(x, x0) && inside(y, y0)) || (on(y, y0) && inside(x, x0));
                let framed = frame_line && y == y0 + side + cell;
                Luma([if line || framed { 255 } else { 0 }])
            })
        };
        let square = |top: u32| {
            let (a, b) = (x0 as f32, (x0 + side) as f32);
            let (c, d) = (top as f32, (top + side) as f32);
            Quad::new([(a, c), (b, c), (b, d), (a, d)])
        };
        // Cropped at its bottom border and placed a row up: its box lines
        // are those of the grid a row down.
        let cropped = grid(1, false);
        let moved = boxes_a_line_towards_frame(&cropped, &square(y0 - cell), 9);
        let moved = moved.expect("a row short of its border");
        for (a, b) in moved.corners.iter().zip(square(y0).corners) {
            assert!(
                (a.0 - b.0).abs() < 0.01 && (a.1 - b.1).abs() < 0.01,
                "{moved:?}"
            );
        }
        // Placed right: no box line moves.
        assert_eq!(boxes_a_line_towards_frame(&cropped, &square(y0), 9), None);
        // A frame line a cell under a grid near the image's edge is no
        // lattice going on.
        let framed = grid(cell + 10, true);
        assert_eq!(boxes_a_line_towards_frame(&framed, &square(y0), 9), None);
    }

    #[test]
    fn box_lines_are_told_by_their_ink_against_the_other_inner_lines() {
        // A border on the frame not looked for, the far one as thick as
        // the box lines: it is not counted among the others.
        let thin = Some(2.0);
        let thick = Some(3.0);
        let ink = [
            None, thin, thin, thick, thin, thin, thick, thin, thin, thick,
        ];
        assert!(box_lines_stand_out(&ink, 9));
        // A box line as faint as a cell line: no boxes.
        let ink = [
            None,
            thin,
            thin,
            thick,
            thin,
            thin,
            Some(2.4),
            thin,
            thin,
            thick,
        ];
        assert!(!box_lines_stand_out(&ink, 9));
        assert!(!box_lines_stand_out(&[thin; 17], 16));
    }
}
