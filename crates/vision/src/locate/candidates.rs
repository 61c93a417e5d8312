//! Grid candidates: the connected components of the threshold large enough
//! to be a grid (a printed grid's lines are one connected blob), their
//! convex hulls, and the largest quadrilateral inscribed in each hull.

use image::GrayImage;
use imageproc::point::Point;

use crate::geometry::Quad;

/// A candidate's bounding box must be at least this many work pixels
/// each way: below it a 9x9 grid's cells are under 4 px and its lines
/// cannot be told apart.
pub(super) const MIN_SIDE_PX: u32 = 40;

/// A grid's lines cover well under this fraction of its bounding box; a
/// component above it is a solid blob (a photo, a shaded box). Counted on
/// the threshold before the gap-closing dilation: an answer grid of bold
/// digits in every cell, dilated, fills 70 % of its box, while its ink
/// itself covers under 40 %.
const MAX_FILL_NUM: u64 = 7;
/// Denominator of the fill limit (7/10).
const MAX_FILL_DEN: u64 = 10;

/// Bounding boxes more elongated than this are rules or text lines, not a
/// grid (even a strongly tilted square stays within 4:1).
const MAX_ASPECT: u32 = 4;

/// What the component search keeps.
#[derive(Debug, Clone, Copy)]
pub(super) struct HullParams {
    /// Smallest bounding-box side, work pixels.
    pub min_side: u32,
    /// How many components (largest bounding box first) get a hull.
    pub max_count: usize,
    /// Also take in every component lying wholly inside the candidate's
    /// bounding box (pieces of a grid whose lines broke apart).
    pub merge: bool,
}

/// Per component: ink pixel count and bounding box.
#[derive(Debug, Clone, Copy)]
struct Stats {
    count: u32,
    x0: u32,
    y0: u32,
    x1: u32,
    y1: u32,
}

impl Stats {
    fn width(&self) -> u32 {
        self.x1 - self.x0 + 1
    }
    fn height(&self) -> u32 {
        self.y1 - self.y0 + 1
    }
    fn contains(&self, o: &Stats) -> bool {
        o.x0 >= self.x0 && o.y0 >= self.y0 && o.x1 <= self.x1 && o.y1 <= self.y1
    }
    /// Big, not a solid blob, roughly square-ish bounding box.
    fn may_be_grid(&self, min_side: u32) -> bool {
        if self.count == 0 {
            return false;
        }
        let (bw, bh) = (self.width(), self.height());
        bw >= min_side
            && bh >= min_side
            && (self.count as u64) < (bw as u64 * bh as u64) * MAX_FILL_NUM / MAX_FILL_DEN
            && bw < MAX_ASPECT * bh
            && bh < MAX_ASPECT * bw
    }
}

/// The 8-connected components of `binary` (ink nonzero; the image is the
/// 0/255 output of the dilation), as its runs (see [`row_runs`]), each
/// run's component label, and each component's measures; the count is of
/// the pixels that are ink in `ink` too. Labels are numbered from 1 in the
/// raster order of each component's first pixel (`stats[0]` is the empty
/// background): the labelling `imageproc`'s `connected_components` gives,
/// which a test checks.
///
/// Labelled by runs: each row's horizontal runs of ink are found, a run
/// joins the runs of the row above that touch it (8-connected: overlapping
/// or diagonally adjacent), and a union-find over runs gives the
/// components. A page of printed lines has a few runs per row where it has
/// hundreds of ink pixels, so this is several times cheaper than labelling
/// pixel by pixel, and no per-pixel label image is written: at the finer
/// page search's 3 MP that image alone was 12 MB of fresh memory, whose
/// first touch cost more than the labelling.
fn components(binary: &GrayImage, ink: &GrayImage) -> Components {
    let w = binary.width() as usize;
    let h = binary.height() as usize;
    let runs = row_runs(binary.as_raw(), w, h);
    let mut forest: Vec<usize> = (0..runs.len()).collect();
    // Runs are sorted by row, then by x: for each run, the runs of the row
    // above that touch it are a contiguous range, found by one sweep.
    let mut above = 0..0;
    let mut row_begin = 0;
    for j in 0..runs.len() {
        if j == 0 || runs[j].y != runs[j - 1].y {
            above = if j > 0 && runs[j - 1].y + 1 == runs[j].y {
                row_begin..j
            } else {
                j..j
            };
            row_begin = j;
        }
        let b = runs[j];
        while above.start < above.end && runs[above.start].x1 + 1 < b.x0 {
            above.start += 1;
        }
        let mut k = above.start;
        while k < above.end && runs[k].x0 <= b.x1 + 1 {
            union(&mut forest, k, j);
            k += 1;
        }
    }
    let empty = Stats {
        count: 0,
        x0: u32::MAX,
        y0: u32::MAX,
        x1: 0,
        y1: 0,
    };
    let ink = ink.as_raw();
    let mut label_of_root = vec![0u32; runs.len()];
    let mut labels = Vec::with_capacity(runs.len());
    let mut stats: Vec<Stats> = vec![empty];
    for (j, run) in runs.iter().enumerate() {
        let root = find(&mut forest, j);
        if label_of_root[root] == 0 {
            label_of_root[root] = stats.len() as u32;
            stats.push(empty);
        }
        let label = label_of_root[root];
        labels.push(label);
        let (start, end) = (
            run.y as usize * w + run.x0 as usize,
            run.y as usize * w + run.x1 as usize + 1,
        );
        let s = &mut stats[label as usize];
        s.count += ink
            .get(start..end)
            .map_or(0, |px| px.iter().filter(|&&v| v > 0).count()) as u32;
        s.x0 = s.x0.min(run.x0);
        s.y0 = s.y0.min(run.y);
        s.x1 = s.x1.max(run.x1);
        s.y1 = s.y1.max(run.y);
    }
    Components {
        runs,
        labels,
        stats,
    }
}

/// The connected components of a binary image, by runs.
struct Components {
    /// Every run of ink, row by row, left to right.
    runs: Vec<Run>,
    /// The component label of each run.
    labels: Vec<u32>,
    /// Per label: ink count and bounding box (`stats[0]`: background).
    stats: Vec<Stats>,
}

/// A horizontal run of ink: row `y`, columns `x0..=x1`.
#[derive(Debug, Clone, Copy)]
struct Run {
    y: u32,
    x0: u32,
    x1: u32,
}

/// Every run of nonzero pixels of a `w` x `h` image, row by row, left to
/// right.
fn row_runs(raw: &[u8], w: usize, h: usize) -> Vec<Run> {
    let mut runs = Vec::new();
    for (y, row) in raw.chunks_exact(w.max(1)).take(h).enumerate() {
        let mut x = 0;
        while let Some(skip) = first_byte(&row[x..], true) {
            let x0 = x + skip;
            let len = first_byte(&row[x0..], false).unwrap_or(w - x0);
            runs.push(Run {
                y: y as u32,
                x0: x0 as u32,
                x1: (x0 + len - 1) as u32,
            });
            x = x0 + len;
        }
    }
    runs
}

/// The place of the first byte of `bytes` that is nonzero (`nonzero`) or
/// zero (not `nonzero`), eight bytes a step: most of a search image's rows
/// are long stretches of background, and runs of ink are tens of pixels.
fn first_byte(bytes: &[u8], nonzero: bool) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let mut words = bytes.chunks_exact(8);
    let mut at = 0;
    for word in &mut words {
        let w = u64::from_le_bytes(word.try_into().unwrap_or([0; 8]));
        // In little-endian order the lowest set bit lies in the first byte
        // wanted: for nonzero bytes, of the word itself; for zero bytes, of
        // the usual zero-byte mask, whose borrows only mark bytes above a
        // zero byte.
        let marks = if nonzero {
            w
        } else {
            w.wrapping_sub(ONES) & !w & HIGHS
        };
        if marks != 0 {
            return Some(at + (marks.trailing_zeros() / 8) as usize);
        }
        at += 8;
    }
    let rest = words.remainder().iter().position(|&v| (v != 0) == nonzero);
    rest.map(|i| at + i)
}

/// The root of `i` in the union-find `forest`, halving the path on the way.
fn find(forest: &mut [usize], mut i: usize) -> usize {
    while forest[i] != i {
        forest[i] = forest[forest[i]];
        i = forest[i];
    }
    i
}

/// Joins the sets of `a` and `b` in the union-find `forest`.
fn union(forest: &mut [usize], a: usize, b: usize) {
    let (ra, rb) = (find(forest, a), find(forest, b));
    if ra != rb {
        forest[ra.max(rb)] = ra.min(rb);
    }
}

/// The candidates of a page: their hulls, and the bounding boxes of those
/// past [`HullParams::max_count`], which get none.
#[derive(Debug, Default)]
pub(super) struct Candidates {
    /// Convex hulls, work pixels, largest bounding box first.
    pub hulls: Vec<Vec<(f32, f32)>>,
    /// Bounding boxes (`x0, y0, x1, y1`, work pixels) of the components
    /// that may be grids but were not taken, largest first.
    pub beyond: Vec<(f32, f32, f32, f32)>,
}

/// Convex hulls (work pixels, in hull order) of the connected components
/// of `closed` (the threshold with its gaps closed) large enough to be a
/// grid, largest bounding box first; `ink` is the threshold itself, whose
/// pixels measure how solid a component is.
pub(super) fn candidate_hulls(closed: &GrayImage, ink: &GrayImage, p: HullParams) -> Candidates {
    let Components {
        runs,
        labels,
        stats,
    } = components(closed, ink);
    let mut cands: Vec<(usize, u64)> = stats
        .iter()
        .enumerate()
        .filter(|(_, s)| s.may_be_grid(p.min_side))
        .map(|(l, s)| (l, s.width() as u64 * s.height() as u64))
        .collect();
    cands.sort_by_key(|c| std::cmp::Reverse(c.1));
    let beyond = cands
        .get(p.max_count..)
        .unwrap_or_default()
        .iter()
        .map(|&(l, _)| {
            let s = stats[l];
            (
                s.x0 as f32,
                s.y0 as f32,
                (s.x1 + 1) as f32,
                (s.y1 + 1) as f32,
            )
        })
        .collect();
    cands.truncate(p.max_count);
    let mut hulls = Vec::with_capacity(cands.len());
    for &(l, _) in &cands {
        let s = stats[l];
        let inside = |v: u32| {
            let v = v as usize;
            v == l || (p.merge && v != 0 && s.contains(&stats[v]))
        };
        // Row extremes suffice for the hull and keep it cheap: per row of
        // the box, the first and last pixel of the runs that belong.
        let mut extremes = vec![(u32::MAX, 0u32); s.height() as usize];
        let first_run = runs.partition_point(|r| r.y < s.y0);
        for (run, &v) in runs[first_run..].iter().zip(&labels[first_run..]) {
            if run.y > s.y1 {
                break;
            }
            if inside(v) {
                let e = &mut extremes[(run.y - s.y0) as usize];
                e.0 = e.0.min(run.x0);
                e.1 = e.1.max(run.x1);
            }
        }
        let mut pts: Vec<Point<i32>> = Vec::new();
        for (dy, &(a, b)) in extremes.iter().enumerate() {
            if a == u32::MAX {
                continue;
            }
            let y = (s.y0 as usize + dy) as i32;
            pts.push(Point::new(a as i32, y));
            if b != a {
                pts.push(Point::new(b as i32, y));
            }
        }
        if pts.len() < 4 {
            continue;
        }
        let hull = imageproc::geometry::convex_hull(pts);
        if hull.len() >= 4 {
            hulls.push(hull.iter().map(|p| (p.x as f32, p.y as f32)).collect());
        }
    }
    Candidates { hulls, beyond }
}

/// A grid's cell, seen in the threshold, is a hole of paper enclosed by
/// its lines: at least this many work pixels each way (a 9x9 of
/// [`MIN_SIDE_PX`] has cells of about 4).
const MIN_CELL_PX: u32 = 4;

/// A cell's hole is at most this elongated (a tilted square cell stays
/// well within it; a table's row is far longer than it is tall).
const MAX_CELL_ASPECT: f32 = 1.6;

/// ... and fills at least this fraction of its bounding box with paper:
/// a digit in it is an island of ink that takes a third at most, a
/// letter's counter or the gap between two text lines is no square.
const MIN_CELL_PAPER: f32 = 0.4;

/// Two holes are cells of one grid when their sides differ by at most
/// this factor (perspective makes the far cells smaller, one cell to the
/// next by a few percent) ...
const CELL_SIZE_RATIO: f32 = 1.35;

/// ... and their centres are at most this many cell sides apart (the next
/// cell, across a line; a diagonal neighbour is 1.4 away).
const CELL_REACH: f32 = 1.6;

/// A group of cells is a grid candidate from this many: over half of a
/// 9x9's 81 (digits joined to a line break a few cells open).
const MIN_GRID_CELLS: usize = 41;

/// Hulls (work pixels) of the groups of cell-like holes of paper inside
/// the box `(x0, y0, x1, y1)` of `closed` (the gap-closed threshold): a
/// grid whose lines touch other print (a panel's rules round the puzzle
/// and yesterday's solution, a column rule, a crossword) is one component
/// with them, and its hull is the whole figure, where no comb fits; its
/// cells are still holes of one size in rows and columns, and their group
/// outlines the grid alone. Each hull is grown by half a line's gap
/// about each cell, so that it reaches the lines round the group.
pub(super) fn cell_groups(closed: &GrayImage, bbox: (u32, u32, u32, u32)) -> Vec<Vec<(f32, f32)>> {
    let (x0, y0) = (bbox.0, bbox.1);
    let (x1, y1) = (bbox.2.min(closed.width()), bbox.3.min(closed.height()));
    if x1 <= x0 + 2 * MIN_CELL_PX || y1 <= y0 + 2 * MIN_CELL_PX {
        return Vec::new();
    }
    let paper = GrayImage::from_fn(x1 - x0, y1 - y0, |x, y| {
        image::Luma([u8::MAX - closed.get_pixel(x + x0, y + y0).0[0]])
    });
    let stats = components(&paper, &paper).stats;
    let (w, h) = (paper.width(), paper.height());
    // Each cell: centre and side (work pixels), and its bounding box.
    let cells: Vec<((f32, f32), f32, Stats)> = stats
        .iter()
        .skip(1)
        .filter(|s| {
            let (bw, bh) = (s.width() as f32, s.height() as f32);
            s.x0 > 0
                && s.y0 > 0
                && s.x1 + 1 < w
                && s.y1 + 1 < h
                && s.width().min(s.height()) >= MIN_CELL_PX
                && bw.max(bh) <= MAX_CELL_ASPECT * bw.min(bh)
                && s.count as f32 >= MIN_CELL_PAPER * bw * bh
        })
        .map(|s| {
            let c = (
                (s.x0 + s.x1 + 1) as f32 / 2.0,
                (s.y0 + s.y1 + 1) as f32 / 2.0,
            );
            (c, s.width().max(s.height()) as f32, *s)
        })
        .collect();
    let mut forest: Vec<usize> = (0..cells.len()).collect();
    for i in 0..cells.len() {
        for j in i + 1..cells.len() {
            let ((ci, si, _), (cj, sj, _)) = (&cells[i], &cells[j]);
            let alike = si.max(*sj) <= CELL_SIZE_RATIO * si.min(*sj);
            let near = (ci.0 - cj.0).hypot(ci.1 - cj.1) <= CELL_REACH * si.max(*sj);
            if alike && near {
                union(&mut forest, i, j);
            }
        }
    }
    let mut groups: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for i in 0..cells.len() {
        let root = find(&mut forest, i);
        groups.entry(root).or_default().push(i);
    }
    let mut hulls = Vec::new();
    for members in groups.values().filter(|m| m.len() >= MIN_GRID_CELLS) {
        let mut pts = Vec::with_capacity(4 * members.len());
        for &i in members {
            let (_, side, s) = cells[i];
            // Half the gap to the next cell: the line between them.
            let g = (side * (CELL_REACH - 1.0) / 4.0).round() as i32;
            let (ax, ay) = ((s.x0 + x0) as i32 - g, (s.y0 + y0) as i32 - g);
            let (bx, by) = ((s.x1 + x0) as i32 + g, (s.y1 + y0) as i32 + g);
            pts.extend([(ax, ay), (bx, ay), (bx, by), (ax, by)].map(|(x, y)| Point::new(x, y)));
        }
        let hull = imageproc::geometry::convex_hull(pts);
        if hull.len() >= 4 {
            hulls.push(hull.iter().map(|p| (p.x as f32, p.y as f32)).collect());
        }
    }
    hulls
}

fn tri_area(a: (f32, f32), b: (f32, f32), c: (f32, f32)) -> f32 {
    0.5 * ((b.0 - a.0) * (c.1 - a.1) - (c.0 - a.0) * (b.1 - a.1)).abs()
}

/// Rounds of coordinate ascent; each round moves every corner to its best
/// place between its neighbours, and hulls converge in a handful.
const ASCENT_ROUNDS: usize = 20;

/// The (near) largest quadrilateral with corners on the hull, corners
/// ordered tl, tr, br, bl. Coordinate ascent from two starts (diagonal and
/// axis extremes) so both upright and 45-degree grids converge.
pub(super) fn max_area_quad(hull: &[(f32, f32)]) -> Option<Quad> {
    let n = hull.len();
    if n < 4 {
        return None;
    }
    let arg = |f: &dyn Fn((f32, f32)) -> f32| -> usize {
        (0..n)
            .max_by(|&a, &b| f(hull[a]).total_cmp(&f(hull[b])))
            .unwrap_or(0)
    };
    let starts = [
        [
            arg(&|p| -p.0 - p.1),
            arg(&|p| p.0 - p.1),
            arg(&|p| p.0 + p.1),
            arg(&|p| p.1 - p.0),
        ],
        [arg(&|p| -p.0), arg(&|p| -p.1), arg(&|p| p.0), arg(&|p| p.1)],
    ];
    let mut best: Option<([usize; 4], f32)> = None;
    for start in starts {
        let Some(idx) = ascend(hull, start) else {
            continue;
        };
        let a = Quad::new(idx.map(|i| hull[i])).area().abs();
        if best.is_none_or(|b| a > b.1) {
            best = Some((idx, a));
        }
    }
    let (idx, _) = best?;
    Some(order_corners(idx.map(|i| hull[i])))
}

/// Coordinate ascent of four hull indices towards the largest quad; `None`
/// when the hull has too few points for four distinct corners.
fn ascend(hull: &[(f32, f32)], start: [usize; 4]) -> Option<[usize; 4]> {
    let n = hull.len();
    let mut idx = start;
    idx.sort_unstable();
    // Distinct, so each corner has its own hull arc.
    for k in 1..4 {
        if idx[k] <= idx[k - 1] {
            idx[k] = idx[k - 1] + 1;
        }
    }
    if idx[3] >= n {
        return None;
    }
    for _ in 0..ASCENT_ROUNDS {
        let mut changed = false;
        for k in 0..4 {
            let prev = idx[(k + 3) % 4];
            let next = idx[(k + 1) % 4];
            // Candidates strictly between prev and next along the hull.
            let mut j = (prev + 1) % n;
            let mut bi = idx[k];
            let mut ba = tri_area(hull[prev], hull[bi], hull[next]);
            while j != next {
                let a = tri_area(hull[prev], hull[j], hull[next]);
                if a > ba + 1e-3 {
                    ba = a;
                    bi = j;
                }
                j = (j + 1) % n;
            }
            if bi != idx[k] {
                idx[k] = bi;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    Some(idx)
}

/// Orders four points tl, tr, br, bl: clockwise on screen, starting with the
/// one nearest the image's top-left (smallest x + y).
pub(super) fn order_corners(p: [(f32, f32); 4]) -> Quad {
    let cx = p.iter().map(|q| q.0).sum::<f32>() / 4.0;
    let cy = p.iter().map(|q| q.1).sum::<f32>() / 4.0;
    let mut v = p.to_vec();
    // atan2 with y down: increasing angle = clockwise on screen.
    v.sort_by(|a, b| {
        (a.1 - cy)
            .atan2(a.0 - cx)
            .total_cmp(&(b.1 - cy).atan2(b.0 - cx))
    });
    let start = (0..4)
        .min_by(|&a, &b| (v[a].0 + v[a].1).total_cmp(&(v[b].0 + v[b].1)))
        .unwrap_or(0);
    Quad::new([
        v[start],
        v[(start + 1) % 4],
        v[(start + 2) % 4],
        v[(start + 3) % 4],
    ])
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    #[test]
    fn the_first_zero_or_nonzero_byte_is_found_word_by_word_as_one_by_one() {
        // Every length up to three words and a tail, ink of every value
        // that can fool a byte mask (1, 0x7F, 0x80, 0xFF) at every place.
        for len in 0..29 {
            for at in 0..len {
                for v in [1u8, 0x7F, 0x80, 0xFF] {
                    let mut bytes = vec![0u8; len];
                    bytes[at] = v;
                    bytes[(at * 5 + 3) % len] = v;
                    let inverse: Vec<u8> =
                        bytes.iter().map(|&b| if b == 0 { v } else { 0 }).collect();
                    for b in [&bytes, &inverse] {
                        for nonzero in [true, false] {
                            let want = b.iter().position(|&x| (x != 0) == nonzero);
                            assert_eq!(first_byte(b, nonzero), want, "{b:?} {nonzero}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn run_labels_are_imageprocs_labels() {
        use imageproc::region_labelling::{connected_components, Connectivity};
        // Diagonal touches, U shapes that join below, single pixels, runs
        // to both edges.
        for seed in 0..4u32 {
            let g = GrayImage::from_fn(57, 41, |x, y| {
                let v = (x * 7 + y * 13 + seed * 5) % 11 < 3 || (y % 9 == seed && x > 3) || x == 56;
                Luma([if v { 255 } else { 0 }])
            });
            let ink = GrayImage::from_fn(57, 41, |x, y| Luma([((x + y) % 2 * 255) as u8]));
            let c = components(&g, &ink);
            let stats = c.stats;
            let mut lab = vec![0u32; 57 * 41];
            for (run, &l) in c.runs.iter().zip(&c.labels) {
                let row = run.y as usize * 57;
                lab[row + run.x0 as usize..=row + run.x1 as usize].fill(l);
            }
            let theirs = connected_components(&g, Connectivity::Eight, Luma([0u8])).into_raw();
            assert_eq!(lab, theirs, "seed {seed}");
            for (l, s) in stats.iter().enumerate().skip(1) {
                let mine = |i: usize| lab[i] as usize == l;
                let n = (0..lab.len())
                    .filter(|&i| mine(i) && ink.as_raw()[i] > 0)
                    .count();
                assert_eq!(s.count as usize, n, "label {l} ink count");
                let xs = (0..lab.len()).filter(|&i| mine(i)).map(|i| (i % 57) as u32);
                assert_eq!(s.x0, xs.clone().min().unwrap());
                assert_eq!(s.x1, xs.max().unwrap());
            }
        }
    }

    #[test]
    fn order_corners_is_clockwise_from_top_left() {
        let q = order_corners([(10.0, 90.0), (90.0, 10.0), (12.0, 8.0), (95.0, 92.0)]);
        assert_eq!(
            q.corners,
            [(12.0, 8.0), (90.0, 10.0), (95.0, 92.0), (10.0, 90.0)]
        );
    }

    #[test]
    fn largest_quad_of_an_octagon_hull() {
        let hull = [
            (10.0, 0.0),
            (90.0, 0.0),
            (100.0, 10.0),
            (100.0, 90.0),
            (90.0, 100.0),
            (10.0, 100.0),
            (0.0, 90.0),
            (0.0, 10.0),
        ];
        let q = max_area_quad(&hull).expect("quad");
        assert!(q.area().abs() > 8000.0, "{q:?}");
    }

    #[test]
    fn a_square_outline_is_one_candidate_and_a_blob_none() {
        let outline = GrayImage::from_fn(200, 200, |x, y| {
            let on = (50..=150).contains(&x) && (50..=150).contains(&y);
            let edge = x == 50 || x == 150 || y == 50 || y == 150;
            Luma([if on && edge { 255 } else { 0 }])
        });
        let p = HullParams {
            min_side: MIN_SIDE_PX,
            max_count: 8,
            merge: false,
        };
        assert_eq!(candidate_hulls(&outline, &outline, p).hulls.len(), 1);
        let blob = GrayImage::from_fn(200, 200, |x, y| {
            Luma([if (50..150).contains(&x) && (50..150).contains(&y) {
                255
            } else {
                0
            }])
        });
        assert!(candidate_hulls(&blob, &blob, p).hulls.is_empty());
        // Solid only after the gap closing: the ink itself decides.
        assert_eq!(candidate_hulls(&blob, &outline, p).hulls.len(), 1);
    }
}
