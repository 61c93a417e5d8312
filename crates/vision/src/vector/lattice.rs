//! 9x9 grids from the bars a page draws: ten vertical and ten horizontal
//! lines, equally spaced, each running the whole width (height) of the
//! grid, the first and last of each meeting in a square frame.
//!
//! Bars on one axis whose centres agree make one *line*, a set of *runs*
//! along it (the pieces joined where they touch); a grid is searched from
//! each top-left corner where a horizontal run and a vertical run start
//! together. Lines may be drawn in any way a writer likes (one stroke per
//! line, per cell side, a rectangle per box, filled bars), with thin cell
//! lines and bold box lines.

use hayro::kurbo::Rect;

/// Bars whose centres are this close (pixels) lie on one line.
const SAME_LINE_PX: f64 = 0.5;

/// Pieces of a line this close (pixels) end to end are one run: what a
/// writer's rounding leaves between pieces drawn to meet.
const JOIN_PX: f64 = 1.0;

/// How far (pixels) a run's end may fall short of the line it should reach
/// (past half the thickness of that line): drawn to the line's edge rather
/// than its centre, or rounded.
const REACH_PX: f64 = 1.0;

/// How far an inner line may lie from its place in an even split of the
/// grid, as a share of a cell: writers place lines on an even split (to
/// their rounding), and a tenth of a cell is far more than rounding yet
/// far less than any other line a page could hold there.
const SPLIT_SLACK: f64 = 0.1;

/// Smallest cell (pixels) read from the drawing: smaller cells are left to
/// the pixels.
const MIN_CELL_PX: f64 = 6.0;

/// Cells per side of the grids found here.
pub(super) const N: usize = 9;

/// One line: its centre across, half its thickness, and its runs along.
#[derive(Debug, Clone, PartialEq)]
struct Line {
    centre: f64,
    half: f64,
    runs: Vec<(f64, f64)>,
}

impl Line {
    /// Whether one run of the line covers `from..to` (within [`REACH_PX`]).
    fn covers(&self, from: f64, to: f64) -> bool {
        self.runs
            .iter()
            .any(|&(a, b)| a <= from + REACH_PX && b >= to - REACH_PX)
    }
}

/// A 9x9 grid drawn with lines: their centres and half thicknesses, in
/// page pixels, left to right and top to bottom.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Lattice {
    /// Centres of the vertical lines (x).
    pub xs: [f64; N + 1],
    /// Half thickness of each vertical line.
    pub x_half: [f64; N + 1],
    /// Centres of the horizontal lines (y).
    pub ys: [f64; N + 1],
    /// Half thickness of each horizontal line.
    pub y_half: [f64; N + 1],
}

impl Lattice {
    /// The grid's outer edge: the frame lines' outer sides.
    pub(super) fn outer(&self) -> Rect {
        Rect::new(
            self.xs[0] - self.x_half[0],
            self.ys[0] - self.y_half[0],
            self.xs[N] + self.x_half[N],
            self.ys[N] + self.y_half[N],
        )
    }

    /// The ink of each line, as a rectangle: vertical lines first.
    pub(super) fn strips(&self) -> Vec<Rect> {
        let outer = self.outer();
        let vertical = (0..=N).map(|k| {
            Rect::new(
                self.xs[k] - self.x_half[k],
                outer.y0,
                self.xs[k] + self.x_half[k],
                outer.y1,
            )
        });
        let horizontal = (0..=N).map(|k| {
            Rect::new(
                outer.x0,
                self.ys[k] - self.y_half[k],
                outer.x1,
                self.ys[k] + self.y_half[k],
            )
        });
        vertical.chain(horizontal).collect()
    }

    /// Cell (`row`, `col`)'s box between the centres of its lines.
    pub(super) fn cell(&self, row: usize, col: usize) -> Rect {
        Rect::new(
            self.xs[col],
            self.ys[row],
            self.xs[col + 1],
            self.ys[row + 1],
        )
    }

    /// The paper inside cell (`row`, `col`): its box less its lines' ink.
    pub(super) fn inside(&self, row: usize, col: usize) -> Rect {
        Rect::new(
            self.xs[col] + self.x_half[col],
            self.ys[row] + self.y_half[row],
            self.xs[col + 1] - self.x_half[col + 1],
            self.ys[row + 1] - self.y_half[row + 1],
        )
    }
}

/// Every 9x9 grid the bars draw, each once, in no particular order.
pub(super) fn grids(bars: &[Rect]) -> Vec<Lattice> {
    let (horizontal, vertical) = lines(bars);
    let mut found: Vec<Lattice> = Vec::new();
    for top in &horizontal {
        for &(run_start, _) in &top.runs {
            // The left frame line: a vertical line at the run's start whose
            // run starts at this line.
            for left in vertical
                .iter()
                .filter(|v| starts_at(v.centre, v.half, run_start))
            {
                if !left
                    .runs
                    .iter()
                    .any(|&(a, _)| starts_at(top.centre, top.half, a))
                {
                    continue;
                }
                for right in vertical.iter().filter(|v| v.centre > left.centre) {
                    let side = right.centre - left.centre;
                    if side < N as f64 * MIN_CELL_PX {
                        continue;
                    }
                    if let Some(grid) = lattice(&horizontal, &vertical, top, left, right) {
                        if !found.contains(&grid) {
                            found.push(grid);
                        }
                    }
                }
            }
        }
    }
    found
}

/// Whether a run starting at `start` starts at a line centred on `centre`
/// of half thickness `half`: at its outer side, its centre, or between.
fn starts_at(centre: f64, half: f64, start: f64) -> bool {
    start >= centre - half - REACH_PX && start <= centre + REACH_PX
}

/// The grid with `top`'s centre as its first row line and `left` and
/// `right` as its frame's sides, if every line of it is drawn.
fn lattice(
    horizontal: &[Line],
    vertical: &[Line],
    top: &Line,
    left: &Line,
    right: &Line,
) -> Option<Lattice> {
    let (x0, x9) = (left.centre, right.centre);
    let cell = (x9 - x0) / N as f64;
    let slack = SPLIT_SLACK * cell;
    let y0 = top.centre;
    let y9 = y0 + (x9 - x0);
    let near = |lines: &[Line], at: f64| -> Option<usize> {
        lines
            .iter()
            .enumerate()
            .filter(|(_, l)| (l.centre - at).abs() <= slack)
            .min_by(|a, b| (a.1.centre - at).abs().total_cmp(&(b.1.centre - at).abs()))
            .map(|(i, _)| i)
    };
    let bottom = &horizontal[near(horizontal, y9)?];
    let y9 = bottom.centre;
    let mut columns: Vec<&Line> = Vec::with_capacity(N + 1);
    let mut rows: Vec<&Line> = Vec::with_capacity(N + 1);
    for k in 0..=N {
        columns.push(match k {
            0 => left,
            N => right,
            _ => &vertical[near(vertical, x0 + k as f64 * cell)?],
        });
        rows.push(match k {
            0 => top,
            N => bottom,
            _ => &horizontal[near(horizontal, y0 + k as f64 * (y9 - y0) / N as f64)?],
        });
    }
    let grid = Lattice {
        xs: std::array::from_fn(|k| columns[k].centre),
        x_half: std::array::from_fn(|k| columns[k].half),
        ys: std::array::from_fn(|k| rows[k].centre),
        y_half: std::array::from_fn(|k| rows[k].half),
    };
    // Lines in order, each cell wider than its lines, and every line drawn
    // the whole way across.
    for k in 0..N {
        if grid.xs[k + 1] - grid.x_half[k + 1] <= grid.xs[k] + grid.x_half[k]
            || grid.ys[k + 1] - grid.y_half[k + 1] <= grid.ys[k] + grid.y_half[k]
        {
            return None;
        }
    }
    let spans_all = columns.iter().all(|v| v.covers(grid.ys[0], grid.ys[N]))
        && rows.iter().all(|h| h.covers(grid.xs[0], grid.xs[N]));
    if !spans_all {
        return None;
    }
    Some(grid)
}

/// A bar seen along its line: (across from, across to, along from, along
/// to), in pixels.
type Piece = (f64, f64, f64, f64);

/// The bars as lines: horizontal ones (wider than tall), then vertical.
fn lines(bars: &[Rect]) -> (Vec<Line>, Vec<Line>) {
    let mut horizontal: Vec<Piece> = Vec::new();
    let mut vertical: Vec<Piece> = Vec::new();
    for b in bars {
        if b.width() >= b.height() {
            horizontal.push((b.y0, b.y1, b.x0, b.x1));
        } else {
            vertical.push((b.x0, b.x1, b.y0, b.y1));
        }
    }
    (group(horizontal), group(vertical))
}

/// A line being gathered: (across from, across to, its pieces' spans).
type Gathered = (f64, f64, Vec<(f64, f64)>);

/// Pieces grouped into lines by their centres, each line's runs joined.
fn group(mut bars: Vec<Piece>) -> Vec<Line> {
    bars.sort_by(|a, b| (a.0 + a.1).total_cmp(&(b.0 + b.1)));
    let mut lines: Vec<Gathered> = Vec::new();
    for (a0, a1, l0, l1) in bars {
        let centre = (a0 + a1) / 2.0;
        match lines.last_mut() {
            Some((lo, hi, runs)) if (centre - (*lo + *hi) / 2.0).abs() <= SAME_LINE_PX => {
                *lo = lo.min(a0);
                *hi = hi.max(a1);
                runs.push((l0, l1));
            }
            _ => lines.push((a0, a1, vec![(l0, l1)])),
        }
    }
    lines
        .into_iter()
        .map(|(lo, hi, mut runs)| {
            runs.sort_by(|a, b| a.0.total_cmp(&b.0));
            let mut joined: Vec<(f64, f64)> = Vec::with_capacity(runs.len());
            for (a, b) in runs {
                match joined.last_mut() {
                    Some(last) if a <= last.1 + JOIN_PX => last.1 = last.1.max(b),
                    _ => joined.push((a, b)),
                }
            }
            Line {
                centre: (lo + hi) / 2.0,
                half: (hi - lo) / 2.0,
                runs: joined,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bars of a grid drawn as a generator draws it: thin lines
    /// centre to centre, bold box lines, a bold frame with square corners.
    fn drawn(x: f64, y: f64, cell: f64) -> Vec<Rect> {
        let side = 9.0 * cell;
        let mut bars = Vec::new();
        for (half, step) in [(0.6, 1), (2.0, 3)] {
            for k in (0..=9).step_by(step) {
                let at = k as f64 * cell;
                bars.push(Rect::new(x, y + at - half, x + side, y + at + half));
                bars.push(Rect::new(x + at - half, y, x + at + half, y + side));
            }
        }
        bars.push(Rect::new(x - 2.0, y - 2.0, x + side + 2.0, y + 2.0));
        bars
    }

    #[test]
    fn a_grid_is_found_once_with_its_lines() {
        let grids = grids(&drawn(100.0, 50.0, 20.0));
        assert_eq!(grids.len(), 1);
        let g = &grids[0];
        assert!((g.xs[0] - 100.0).abs() < 1e-9 && (g.xs[9] - 280.0).abs() < 1e-9);
        assert!((g.ys[3] - 110.0).abs() < 1e-9);
        assert!((g.x_half[3] - 2.0).abs() < 1e-9 && (g.x_half[4] - 0.6).abs() < 1e-9);
        assert_eq!(g.outer(), Rect::new(98.0, 48.0, 282.0, 232.0));
    }

    #[test]
    fn grids_side_by_side_share_lines_and_are_both_found() {
        let mut bars = drawn(0.0, 0.0, 20.0);
        bars.extend(drawn(200.0, 0.0, 20.0));
        let grids = grids(&bars);
        assert_eq!(grids.len(), 2);
    }

    #[test]
    fn a_grid_missing_a_line_or_part_of_one_is_no_grid() {
        let full = drawn(0.0, 0.0, 20.0);
        // Drop the thin vertical line at k = 4 (the 11th bar: k = 0..=9
        // horizontal and vertical alternate).
        let mut missing = full.clone();
        missing.remove(9);
        assert!(grids(&missing).is_empty());
        // Cut a horizontal line short.
        let mut short = full.clone();
        short[2] = Rect::new(0.0, 19.4, 120.0, 20.6);
        assert!(grids(&short).is_empty());
    }

    #[test]
    fn a_table_of_other_proportions_is_no_grid() {
        // Ten rows of a table wider than tall.
        let mut bars = Vec::new();
        for k in 0..=9 {
            bars.push(Rect::new(
                0.0,
                k as f64 * 10.0 - 0.5,
                300.0,
                k as f64 * 10.0 + 0.5,
            ));
            bars.push(Rect::new(
                k as f64 * 33.3 - 0.5,
                0.0,
                k as f64 * 33.3 + 0.5,
                90.0,
            ));
        }
        assert!(grids(&bars).is_empty());
    }
}
