//! Finding the Sudoku's outer border in a photo.
//!
//! 1. Downscale (integer box filter) to at most [`WORK_MAX_SIDE`] pixels:
//!    a 12 MP photo is searched at ~0.5 MP.
//! 2. Adaptive threshold (ink = darker than the local mean by a fraction of
//!    it, so shadows do not swallow the lines).
//! 3. 8-connected components; large ones are grid candidates (a printed
//!    grid's lines are one connected blob).
//! 4. Per candidate: convex hull -> the largest inscribed quadrilateral.
//! 5. Verify: warp the candidate's binary image to a square and check the
//!    projection profiles show the 10 evenly spaced lines of a 9x9 grid and
//!    little line-like ink elsewhere (crosswords, tables, text fail this).
//!    The largest verified candidate wins (yesterday's solution grid is a
//!    smaller 9x9 beside the puzzle).
//! 6. Refine each side on the full-resolution image: find the outer edge of
//!    the border line along the side's normal at many points, fit a line
//!    robustly, intersect neighbouring lines -> sub-pixel corners.

use image::{GrayImage, Luma};
use imageproc::point::Point;
use imageproc::region_labelling::{connected_components, Connectivity};

use crate::geometry::{dist, Homography, Quad};
use crate::rectify::bilinear;

/// Longest side of the image the search runs on.
pub const WORK_MAX_SIDE: u32 = 800;

/// Minimum verification score for a candidate to count as a Sudoku.
const MIN_SCORE: f32 = 0.3;

/// Minimum score for a candidate with a side on the image frame. The grid's
/// border line there is cut off or squeezed against the frame (where the
/// adaptive threshold sees half a neighbourhood), so one of the comb's ten
/// teeth is weak and the score drops by about a tenth; demanding the full
/// score would refuse every grid photographed edge to edge.
const MIN_SCORE_AT_FRAME: f32 = 0.2;

/// Work pixels within which a quad side counts as lying on the frame.
const FRAME_TOL: f32 = 3.0;

/// A located grid.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Located {
    /// Outer corners, refined, in full-resolution photo pixels.
    pub quad: Quad,
    /// The unrefined quad (hull corners), full-resolution pixels.
    pub coarse: Quad,
    /// Verification score (line evidence minus off-line clutter), > 0.25.
    pub score: f32,
}

/// Intermediate images and candidates of a search, for `--debug-dir`.
#[derive(Debug, Clone)]
pub struct LocateDebug {
    /// The downscaled search image.
    pub work: GrayImage,
    /// Its adaptive threshold, ink = 255.
    pub binary: GrayImage,
    /// Relative darkness (see [`adaptive_threshold`]).
    pub dark: GrayImage,
    /// Full-resolution pixels per work pixel.
    pub scale: f32,
    /// Every candidate quad tried (work pixels), its score, and whether it
    /// passed (the threshold depends on the candidate: lower at the frame).
    pub candidates: Vec<(Quad, f32, bool)>,
    /// The hull quads the candidates came from (work pixels).
    pub hulls: Vec<Quad>,
}

impl LocateDebug {
    /// The search image with hull quads (blue) and verified grid quads
    /// (green when accepted, red when rejected).
    pub fn draw(&self) -> image::RgbImage {
        let mut img = crate::cells::draw_quad(&self.work, None);
        for q in &self.hulls {
            crate::cells::draw_quad_on(&mut img, q, [0, 0, 255]);
        }
        for (q, _, passed) in &self.candidates {
            let c = if *passed { [0, 200, 0] } else { [255, 0, 0] };
            crate::cells::draw_quad_on(&mut img, q, c);
        }
        img
    }
}

/// Finds the Sudoku's outer corners in a grayscale photo, or `None` when no
/// 9x9 grid is visible.
pub fn locate(gray: &GrayImage) -> Option<Quad> {
    locate_detailed(gray).0.map(|l| l.quad)
}

/// [`locate`] with the score, the coarse quad and the debug images.
pub fn locate_detailed(gray: &GrayImage) -> (Option<Located>, LocateDebug) {
    let (w, h) = gray.dimensions();
    let factor = w.max(h).div_ceil(WORK_MAX_SIDE).max(1);
    let work = downscale(gray, factor);
    let (binary, dark) = adaptive_threshold(&work);
    let mut dbg = LocateDebug {
        work,
        binary,
        dark,
        scale: factor as f32,
        candidates: Vec::new(),
        hulls: Vec::new(),
    };
    if w < 32 || h < 32 {
        return (None, dbg);
    }
    // Quad, score, sides on the frame, area.
    let mut best: Option<(Quad, f32, [bool; 4], f32)> = None;
    // Closing 1 px gaps: blurred thin lines break up in the threshold, and a
    // grid must be one component for its hull to be the grid.
    let closed =
        imageproc::morphology::dilate(&dbg.binary, imageproc::distance_transform::Norm::LInf, 1);
    // Second pass only when the first found nothing: hulls that take in the
    // smaller components inside each candidate's bounding box too (a grid
    // whose faint border line broke in several places is many components,
    // and the largest one's hull cuts off a whole corner of the grid).
    for merged in [false, true] {
        if merged && best.is_some() {
            break;
        }
        for hull in candidate_hulls(&closed, merged) {
            let Some(quad) = max_area_quad(&hull) else {
                continue;
            };
            // Candidates come largest first: one that cannot beat the grid
            // already accepted is not worth verifying.
            if best.is_some_and(|b| quad.area().abs() < 0.9 * b.3) {
                continue;
            }
            dbg.hulls.push(quad);
            let mut verdict = verify(&dbg.dark, &quad);
            // Re-check around the grid found: when the hull took in clutter
            // (text or a frame touching the grid) its quad has the wrong
            // perspective; a quad just around the found lines has the right one
            // and the comb then fits exactly.
            for _ in 0..2 {
                if verdict.score <= 0.1 {
                    break;
                }
                let again = verify(&dbg.dark, &expand(&verdict.quad, 0.04));
                if again.score >= verdict.score - 0.02 {
                    verdict = again;
                } else {
                    break;
                }
            }
            let (w, h) = (dbg.work.width() as f32, dbg.work.height() as f32);
            // Judged on the grid found, not the hull: a hull can be a whole
            // page on the frame with a smaller grid inside.
            let frame = frame_sides(&verdict.quad, w, h);
            if frame.iter().any(|&f| f) {
                // Without the border line on the frame the component can lose
                // the ends of the neighbouring border lines too (they no longer
                // connect to the rest), so the hull cuts those corners: fit the
                // other sides to the strongest line near them and check again.
                if verdict.score > 0.1 {
                    let fitted = fit_sides(&dbg.dark, &verdict.quad, frame);
                    let again = verify(&dbg.dark, &fitted);
                    if again.score >= verdict.score - 0.02 {
                        verdict = again;
                    }
                }
            }
            let frame = frame_sides(&verdict.quad, w, h);
            let min_score = if frame.iter().any(|&f| f) {
                MIN_SCORE_AT_FRAME
            } else {
                MIN_SCORE
            };
            // A merged hull stands for the grid itself: when the comb only
            // finds a grid well inside it, it took in the page around (a page
            // component's box holds every piece of print on it) and any comb
            // found there is chance.
            let fills = !merged || verdict.quad.area().abs() >= 0.8 * quad.area().abs();
            let passed = verdict.score >= min_score && fills;
            dbg.candidates.push((verdict.quad, verdict.score, passed));
            if passed {
                let area = verdict.quad.area();
                if best.is_none_or(|b| area > b.3) {
                    best = Some((verdict.quad, verdict.score, frame, area));
                }
            }
        }
    }
    let Some((quad, score, frame, _)) = best else {
        return (None, dbg);
    };
    let coarse = quad_to_full(&quad, factor as f32);
    let refined = refine(gray, &coarse, factor as f32, frame).unwrap_or(coarse);
    (
        Some(Located {
            quad: refined,
            coarse,
            score,
        }),
        dbg,
    )
}

/// Which sides (side k runs from corner k to k+1) lie on the frame of a
/// `w` x `h` work image, both ends within [`FRAME_TOL`] of the same edge.
fn frame_sides(q: &Quad, w: f32, h: f32) -> [bool; 4] {
    let on = |p: (f32, f32)| {
        [
            p.0 <= FRAME_TOL,
            p.1 <= FRAME_TOL,
            p.0 >= w - 1.0 - FRAME_TOL,
            p.1 >= h - 1.0 - FRAME_TOL,
        ]
    };
    std::array::from_fn(|k| {
        let (a, b) = (on(q.corners[k]), on(q.corners[(k + 1) % 4]));
        (0..4).any(|e| a[e] && b[e])
    })
}

/// One side of a quad: its start corner, direction, length and outward
/// unit normal (pointing away from the quad's centre).
struct Side {
    a: (f32, f32),
    b: (f32, f32),
    dx: f32,
    dy: f32,
    len: f32,
    nx: f32,
    ny: f32,
}

/// Side `s` (from corner `s` to corner `s + 1`); `None` when it is too short
/// (under 8 px) to fit a line along.
fn side(q: &Quad, s: usize) -> Option<Side> {
    let c = q.corners;
    let cx = c.iter().map(|p| p.0).sum::<f32>() / 4.0;
    let cy = c.iter().map(|p| p.1).sum::<f32>() / 4.0;
    let (a, b) = (c[s], c[(s + 1) % 4]);
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt();
    if len < 8.0 {
        return None;
    }
    let (mut nx, mut ny) = (dy / len, -dx / len);
    if nx * (0.5 * (a.0 + b.0) - cx) + ny * (0.5 * (a.1 + b.1) - cy) < 0.0 {
        nx = -nx;
        ny = -ny;
    }
    Some(Side {
        a,
        b,
        dx,
        dy,
        len,
        nx,
        ny,
    })
}

/// Moves each side not on the frame onto the darkest straight line near it
/// (work pixels, line centres like [`Verdict::quad`]): both ends may shift
/// along the side's normal by up to 0.4 cell, so a side the hull drew
/// across a corner whose border piece broke off swings back onto the
/// border line. Sides on the frame stay; corners are the intersections.
fn fit_sides(dark: &GrayImage, q: &Quad, frame: [bool; 4]) -> Quad {
    let (w, h) = (dark.width() as i32, dark.height() as i32);
    let raw = dark.as_raw();
    let mut lines = [(0.0f32, 0.0f32, 0.0f32); 4]; // nx, ny, d with nx*x+ny*y=d
    for s in 0..4 {
        let Some(Side {
            a,
            b,
            dx,
            dy,
            len,
            nx,
            ny,
        }) = side(q, s)
        else {
            return *q;
        };
        let mut best = (0.0f32, 0.0f32, f32::MIN);
        if !frame[s] {
            let r = (0.4 * len / 9.0).round() as i32;
            let n = len.ceil() as usize;
            for oa in -r..=r {
                for ob in -r..=r {
                    let (mut sum, mut cnt) = (0u32, 0u32);
                    for i in 0..=n {
                        let t = i as f32 / n as f32;
                        let o = oa as f32 + (ob - oa) as f32 * t;
                        let x = (a.0 + dx * t + nx * o).round() as i32;
                        let y = (a.1 + dy * t + ny * o).round() as i32;
                        if x >= 0 && y >= 0 && x < w && y < h {
                            sum += raw[(y * w + x) as usize] as u32;
                            cnt += 1;
                        }
                    }
                    // Mean over the whole side: a line leaving the image
                    // does not gain by losing its dull samples.
                    let m = sum as f32 / (n + 1) as f32;
                    if cnt > 0 && m > best.2 {
                        best = (oa as f32, ob as f32, m);
                    }
                }
            }
        }
        let (pa, pb) = if best.2 > f32::MIN {
            (
                (a.0 + nx * best.0, a.1 + ny * best.0),
                (b.0 + nx * best.1, b.1 + ny * best.1),
            )
        } else {
            (a, b)
        };
        let (ex, ey) = (pb.0 - pa.0, pb.1 - pa.1);
        let el = (ex * ex + ey * ey).sqrt().max(1e-6);
        let (lx, ly) = (-ey / el, ex / el);
        lines[s] = (lx, ly, lx * pa.0 + ly * pa.1);
    }
    corners_of(&lines).unwrap_or(*q)
}

/// The quad whose sides lie on `lines` (`nx*x + ny*y = d`, side k from
/// corner k to k+1): corner k is where side k-1 meets side k. `None` when
/// two neighbouring sides are parallel.
fn corners_of(lines: &[(f32, f32, f32); 4]) -> Option<Quad> {
    let mut out = [(0.0f32, 0.0f32); 4];
    for k in 0..4 {
        let l1 = lines[(k + 3) % 4];
        let l2 = lines[k];
        let det = l1.0 * l2.1 - l1.1 * l2.0;
        if det.abs() < 1e-6 {
            return None;
        }
        out[k] = (
            (l1.2 * l2.1 - l1.1 * l2.2) / det,
            (l1.0 * l2.2 - l1.2 * l2.0) / det,
        );
    }
    Some(Quad::new(out))
}

/// The quad scaled by `1 + f` about its centroid.
fn expand(q: &Quad, f: f32) -> Quad {
    let cx = q.corners.iter().map(|c| c.0).sum::<f32>() / 4.0;
    let cy = q.corners.iter().map(|c| c.1).sum::<f32>() / 4.0;
    Quad::new(
        q.corners
            .map(|(x, y)| (cx + (x - cx) * (1.0 + f), cy + (y - cy) * (1.0 + f))),
    )
}

/// Work-image quad (pixel indices of hull pixels) to continuous
/// full-resolution coordinates: work pixel i covers [i*f, (i+1)*f).
fn quad_to_full(q: &Quad, f: f32) -> Quad {
    let mut out = *q;
    for c in &mut out.corners {
        c.0 = (c.0 + 0.5) * f;
        c.1 = (c.1 + 0.5) * f;
    }
    out
}

/// Integer-factor box downscale (area average); factor 1 copies.
pub fn downscale(gray: &GrayImage, f: u32) -> GrayImage {
    if f <= 1 {
        return gray.clone();
    }
    let (w, h) = gray.dimensions();
    let (ow, oh) = (w / f, h / f);
    let (wu, fu) = (w as usize, f as usize);
    let raw = gray.as_raw();
    let mut out = vec![0u8; ow as usize * oh as usize];
    let mut acc = vec![0u32; ow as usize];
    let norm = f * f;
    for oy in 0..oh as usize {
        acc.iter_mut().for_each(|a| *a = 0);
        for y in oy * fu..(oy + 1) * fu {
            let row = &raw[y * wu..y * wu + ow as usize * fu];
            for (a, chunk) in acc.iter_mut().zip(row.chunks_exact(fu)) {
                *a += chunk.iter().map(|&p| p as u32).sum::<u32>();
            }
        }
        let orow = &mut out[oy * ow as usize..(oy + 1) * ow as usize];
        for (o, &a) in orow.iter_mut().zip(acc.iter()) {
            *o = ((a + norm / 2) / norm) as u8;
        }
    }
    GrayImage::from_raw(ow, oh, out).unwrap_or_else(|| GrayImage::new(0, 0))
}

/// Adaptive threshold, ink = 255: a pixel is ink when it is darker than the
/// mean of its (2r+1)^2 neighbourhood by more than `max(4, mean/14)`.
///
/// A relative margin (rather than imageproc's fixed `delta`) keeps the
/// printed lines in deep shadow, where all contrasts shrink with the light.
/// Returns `(binary, darkness)`: darkness is the relative shortfall from
/// the local mean, `(mean - p) / mean`, scaled so 25 % darker = 255; the
/// line check uses it because blurred thin lines fall below any threshold
/// yet still add up along their length.
pub fn adaptive_threshold(img: &GrayImage) -> (GrayImage, GrayImage) {
    let (w, h) = (img.width() as usize, img.height() as usize);
    let mut out = vec![0u8; w * h];
    let mut dark = vec![0u8; w * h];
    if w == 0 || h == 0 {
        return (
            GrayImage::new(w as u32, h as u32),
            GrayImage::new(w as u32, h as u32),
        );
    }
    let r = (w.max(h) / 50).max(4);
    let raw = img.as_raw();
    // Integral image with a zero first row/column.
    let iw = w + 1;
    let mut integ = vec![0u32; iw * (h + 1)];
    for y in 0..h {
        let mut run = 0u32;
        for x in 0..w {
            run += raw[y * w + x] as u32;
            integ[(y + 1) * iw + x + 1] = integ[y * iw + x + 1] + run;
        }
    }
    for y in 0..h {
        let y0 = y.saturating_sub(r);
        let y1 = (y + r + 1).min(h);
        for x in 0..w {
            let x0 = x.saturating_sub(r);
            let x1 = (x + r + 1).min(w);
            let s = integ[y1 * iw + x1] + integ[y0 * iw + x0]
                - integ[y0 * iw + x1]
                - integ[y1 * iw + x0];
            let n = ((y1 - y0) * (x1 - x0)) as u32;
            let p = raw[y * w + x] as u32;
            // In sums: p*n < s - max(4n, s/14)  <=>  p < mean - max(4, mean/14).
            let margin = (s / 14).max(4 * n);
            if p * n + margin < s {
                out[y * w + x] = 255;
            }
            if p * n < s {
                let rel = (s - p * n) as u64 * 1020 / s.max(1) as u64;
                dark[y * w + x] = rel.min(255) as u8;
            }
        }
    }
    let mk = |v| GrayImage::from_raw(w as u32, h as u32, v).unwrap_or_else(|| GrayImage::new(0, 0));
    (mk(out), mk(dark))
}

/// Convex hulls (work pixels, in hull order) of the connected components
/// large enough to be a grid, largest first. With `merge`, each hull also
/// takes in every component lying wholly inside the candidate's bounding
/// box (pieces of a grid whose lines broke apart).
fn candidate_hulls(binary: &GrayImage, merge: bool) -> Vec<Vec<(f32, f32)>> {
    let (w, h) = binary.dimensions();
    let labels = connected_components(binary, Connectivity::Eight, Luma([0u8]));
    let lab = labels.as_raw();
    // Per label: count, bbox.
    let mut stats: Vec<[u32; 5]> = Vec::new(); // count, x0, y0, x1, y1
    for y in 0..h {
        for x in 0..w {
            let l = lab[(y * w + x) as usize] as usize;
            if l == 0 {
                continue;
            }
            if stats.len() <= l {
                stats.resize(l + 1, [0, u32::MAX, u32::MAX, 0, 0]);
            }
            let s = &mut stats[l];
            s[0] += 1;
            s[1] = s[1].min(x);
            s[2] = s[2].min(y);
            s[3] = s[3].max(x);
            s[4] = s[4].max(y);
        }
    }
    let min_side = (w.min(h) as f32 * 0.15).max(40.0) as u32;
    let mut cands: Vec<(usize, u64)> = stats
        .iter()
        .enumerate()
        .filter(|(_, s)| s[0] > 0)
        .filter(|(_, s)| {
            let (bw, bh) = (s[3] - s[1] + 1, s[4] - s[2] + 1);
            // Big, not a solid blob, roughly square-ish bounding box.
            bw >= min_side
                && bh >= min_side
                && (s[0] as u64) < (bw as u64 * bh as u64) * 7 / 10
                && bw < 4 * bh
                && bh < 4 * bw
        })
        .map(|(l, s)| (l, (s[3] - s[1] + 1) as u64 * (s[4] - s[2] + 1) as u64))
        .collect();
    cands.sort_by_key(|c| std::cmp::Reverse(c.1));
    cands.truncate(8);
    let mut hulls = Vec::with_capacity(cands.len());
    for &(l, _) in &cands {
        let s = stats[l];
        let inside = |v: u32| {
            let v = v as usize;
            v == l || {
                let t = &stats[v];
                merge && v != 0 && t[1] >= s[1] && t[2] >= s[2] && t[3] <= s[3] && t[4] <= s[4]
            }
        };
        // Row extremes suffice for the hull and keep it cheap.
        let mut pts: Vec<Point<i32>> = Vec::new();
        for y in s[2]..=s[4] {
            let row = &lab[(y * w) as usize..((y + 1) * w) as usize];
            let seg = &row[s[1] as usize..=s[3] as usize];
            let first = seg.iter().position(|&v| inside(v));
            let last = seg.iter().rposition(|&v| inside(v));
            if let (Some(a), Some(b)) = (first, last) {
                pts.push(Point::new((s[1] as usize + a) as i32, y as i32));
                if b != a {
                    pts.push(Point::new((s[1] as usize + b) as i32, y as i32));
                }
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
    hulls
}

fn tri_area(a: (f32, f32), b: (f32, f32), c: (f32, f32)) -> f32 {
    0.5 * ((b.0 - a.0) * (c.1 - a.1) - (c.0 - a.0) * (b.1 - a.1)).abs()
}

/// The (near) largest quadrilateral with corners on the hull, corners
/// ordered tl, tr, br, bl. Coordinate ascent from two starts (diagonal and
/// axis extremes) so both upright and 45-degree grids converge.
fn max_area_quad(hull: &[(f32, f32)]) -> Option<Quad> {
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
        let mut idx = start;
        idx.sort_unstable();
        // Distinct, so each corner has its own hull arc.
        let mut distinct = idx;
        for k in 1..4 {
            if distinct[k] <= distinct[k - 1] {
                distinct[k] = distinct[k - 1] + 1;
            }
        }
        if distinct[3] >= n {
            continue;
        }
        idx = distinct;
        for _ in 0..20 {
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
        let q = Quad::new(idx.map(|i| hull[i]));
        let a = q.area().abs();
        if best.is_none_or(|b| a > b.1) {
            best = Some((idx, a));
        }
    }
    let (idx, _) = best?;
    Some(order_corners(idx.map(|i| hull[i])))
}

/// Orders four points tl, tr, br, bl: clockwise on screen, starting with the
/// one nearest the image's top-left (smallest x + y).
pub fn order_corners(p: [(f32, f32); 4]) -> Quad {
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

/// The outcome of checking a candidate for a 9x9 line structure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Verdict {
    /// Line evidence minus clutter, the smaller of the two axes (about
    /// 0.5-0.9 for a Sudoku, below 0.2 for crosswords, text and noise).
    pub score: f32,
    /// The grid's outer lines (line centres) found inside the candidate, in
    /// work pixels: equal to the candidate when the grid fills it, smaller
    /// when the candidate was a frame or box around the grid.
    pub quad: Quad,
}

/// Looks for a 9x9 grid inside `quad` (work pixels) of the darkness image.
///
/// Every pixel of the quad is mapped into a square of side `9 * cell`
/// (bins about one pixel wide, so 1 px lines are never skipped and keep a
/// high ink fraction) and counted into column and row profiles of ink
/// fraction. In each profile the best 10-line comb (start `a`, pitch `p`,
/// spanning at least half the square) is searched; its score is the mean
/// line strength minus the clutter between the lines and minus any line
/// just outside the comb (a crossword's extra lines).
pub fn verify(dark: &GrayImage, quad: &Quad) -> Verdict {
    let fail = Verdict {
        score: 0.0,
        quad: *quad,
    };
    let q = quad_to_pixel_edges(quad);
    let cell = ((q.max_side() / 9.0).round() as usize).clamp(8, 64);
    let side = 9 * cell;
    let Some(g2p) = Homography::square_to_quad(side as f64, &q) else {
        return fail;
    };
    let Some(p2g) = g2p.inverse() else {
        return fail;
    };
    let (w, h) = (dark.width() as usize, dark.height() as usize);
    let raw = dark.as_raw();
    let xs = q.corners.iter().map(|c| c.0);
    let ys = q.corners.iter().map(|c| c.1);
    let x0 = xs.clone().fold(f32::MAX, f32::min).floor().max(0.0) as usize;
    let x1 = (xs.fold(f32::MIN, f32::max).ceil().max(0.0) as usize).min(w);
    let y0 = ys.clone().fold(f32::MAX, f32::min).floor().max(0.0) as usize;
    let y1 = (ys.fold(f32::MIN, f32::max).ceil().max(0.0) as usize).min(h);
    let mut ink = vec![[0u32; 2]; side];
    let mut all = vec![[0u32; 2]; side];
    let m = &p2g.m;
    for y in y0..y1 {
        let fy = y as f64 + 0.5;
        for x in x0..x1 {
            let fx = x as f64 + 0.5;
            let d = m[6] * fx + m[7] * fy + m[8];
            let u = (m[0] * fx + m[1] * fy + m[2]) / d;
            let v = (m[3] * fx + m[4] * fy + m[5]) / d;
            if !(u >= 0.0 && v >= 0.0 && u < side as f64 && v < side as f64) {
                continue;
            }
            let (ui, vi) = (u as usize, v as usize);
            let on = raw[y * w + x] as u32;
            ink[ui][0] += on;
            all[ui][0] += 1;
            ink[vi][1] += on;
            all[vi][1] += 1;
        }
    }
    let frac = |axis: usize| -> Vec<f32> {
        (0..side)
            .map(|i| {
                if all[i][axis] == 0 {
                    0.0
                } else {
                    ink[i][axis] as f32 / (255.0 * all[i][axis] as f32)
                }
            })
            .collect()
    };
    let (fx, fy) = (frac(0), frac(1));
    let (sx, ax, px) = best_comb(&fx, cell);
    let (sy, ay, py) = best_comb(&fy, cell);
    let (ax, px) = fit_comb(&fx, ax, px, cell);
    let (ay, py) = fit_comb(&fy, ay, py, cell);
    let (u0, u1) = (ax + 0.5, ax + 0.5 + 9.0 * px);
    let (v0, v1) = (ay + 0.5, ay + 0.5 + 9.0 * py);
    let corners = [(u0, v0), (u1, v0), (u1, v1), (u0, v1)].map(|(u, v)| {
        let (x, y) = g2p.map64(u as f64, v as f64);
        // Back to the pixel-index convention of hull corners.
        (x as f32 - 0.5, y as f32 - 0.5)
    });
    let found = Quad::new(corners);
    // A 9x9 grid is square on paper: in the photo its sides differ by
    // perspective only. A long thin "grid" is part of one cut by the frame
    // (its comb matched digits) or a table.
    let sides: Vec<f32> = (0..4)
        .map(|i| dist(found.corners[i], found.corners[(i + 1) % 4]))
        .collect();
    let (smin, smax) = sides
        .iter()
        .fold((f32::MAX, 0.0f32), |(a, b), &v| (a.min(v), b.max(v)));
    let score = if smax > 1.45 * smin { 0.0 } else { sx.min(sy) };
    Verdict { score, quad: found }
}

/// Best 10-line comb in a profile: `(score, start, pitch)` in bins.
fn best_comb(prof: &[f32], cell: usize) -> (f32, f32, f32) {
    let n = prof.len();
    // Tolerance for a line's position (curl, perspective error of the hull).
    let tol = ((cell as f32 * 0.1).round() as usize).max(1);
    // Max-filtered profile: the line strength near each position.
    let mx: Vec<f32> = (0..n)
        .map(|i| {
            prof[i.saturating_sub(tol)..(i + tol + 1).min(n)]
                .iter()
                .fold(0.0f32, |a, &b| a.max(b))
        })
        .collect();
    let mut best = (f32::MIN, 0.0f32, cell as f32);
    let pmax = (n as f32 - 1.0) / 9.0;
    let mut p = pmax;
    let mut between: Vec<f32> = Vec::with_capacity(n);
    // The hull is the grid, or the grid plus a little clutter (text or a
    // frame touching it), so the comb spans most of it. Smaller pitches
    // (down to 0.6 of the hull, tried before) fitted digit columns inside
    // half a grid; 0.8 keeps the slack for clutter and refuses half-grids.
    while p >= pmax * 0.8 {
        let span = 9.0 * p;
        let mut a = 0.0f32;
        while a + span <= n as f32 - 1.0 {
            let mut sum = 0.0;
            let mut weakest = f32::MAX;
            for j in 0..10 {
                let v = mx[(a + j as f32 * p).round() as usize];
                sum += v;
                weakest = weakest.min(v);
            }
            let mean = sum / 10.0;
            // Cheap bound: the score cannot beat the best so far.
            if mean > best.0 {
                between.clear();
                for j in 0..9 {
                    let lo = (a + j as f32 * p).round() as usize + tol + 1;
                    let hi = (a + (j + 1) as f32 * p).round() as usize;
                    if hi > tol + lo {
                        between.extend_from_slice(&prof[lo..hi - tol]);
                    }
                }
                let clutter = if between.is_empty() {
                    1.0
                } else {
                    let k = between.len() * 9 / 10;
                    *between.select_nth_unstable_by(k, f32::total_cmp).1
                };
                // Lines one pitch outside the comb mean a bigger grid.
                let before = (a - p).round();
                let after = (a + 10.0 * p).round();
                let mut outside = 0.0f32;
                if before >= 0.0 {
                    outside = outside.max(mx[before as usize]);
                }
                if after < n as f32 {
                    outside = outside.max(mx[after as usize]);
                }
                let penalty = clutter.max(outside - 0.3 * mean);
                let score = (mean.min(weakest + 0.15) - penalty) / mean.max(0.25);
                if score > best.0 {
                    best = (score, a, p);
                }
            }
            a += 1.0;
        }
        p -= 0.25;
    }
    best
}

/// Sharpens a comb found on the max-filtered profile: each tooth moves to
/// the centroid of its actual peak, then a straight-line fit of tooth
/// position against index gives start and pitch (the search only knows
/// them to +-tol).
fn fit_comb(prof: &[f32], a: f32, p: f32, cell: usize) -> (f32, f32) {
    let n = prof.len();
    let tol = ((cell as f32 * 0.1).round() as isize).max(1);
    let (mut sw, mut sj, mut sp, mut sjj, mut sjp) = (0.0f64, 0.0, 0.0, 0.0, 0.0);
    for j in 0..10 {
        let c = (a + j as f32 * p).round() as isize;
        let lo = (c - tol).max(0) as usize;
        let hi = ((c + tol) as usize).min(n - 1);
        if lo > hi {
            continue;
        }
        let win = &prof[lo..=hi];
        let peak = win.iter().fold(0.0f32, |m, &v| m.max(v));
        let base = win.iter().fold(f32::MAX, |m, &v| m.min(v));
        if peak - base < 0.02 {
            continue;
        }
        // Centroid of the upper half of the peak.
        let half = base + 0.5 * (peak - base);
        let (mut w, mut x) = (0.0f64, 0.0f64);
        for (k, &v) in win.iter().enumerate() {
            if v > half {
                w += (v - half) as f64;
                x += (v - half) as f64 * (lo + k) as f64;
            }
        }
        if w <= 0.0 {
            continue;
        }
        let pos = x / w;
        let wt = (peak - base) as f64;
        let jf = j as f64;
        sw += wt;
        sj += wt * jf;
        sp += wt * pos;
        sjj += wt * jf * jf;
        sjp += wt * jf * pos;
    }
    let den = sw * sjj - sj * sj;
    if sw <= 0.0 || den.abs() < 1e-9 {
        return (a, p);
    }
    let pitch = (sw * sjp - sj * sp) / den;
    let start = (sp - pitch * sj) / sw;
    // Keep the search result if the fit wandered off (few teeth found).
    if (pitch - p as f64).abs() > tol as f64 || (start - a as f64).abs() > 2.0 * tol as f64 {
        return (a, p);
    }
    (start as f32, pitch as f32)
}

/// Hull corners are pixel indices of the outermost ink pixels; their outer
/// edges are half a pixel further out.
fn quad_to_pixel_edges(q: &Quad) -> Quad {
    let mut out = *q;
    let cx = q.corners.iter().map(|c| c.0).sum::<f32>() / 4.0;
    let cy = q.corners.iter().map(|c| c.1).sum::<f32>() / 4.0;
    for c in &mut out.corners {
        c.0 += 0.5 + 0.5 * (c.0 - cx).signum();
        c.1 += 0.5 + 0.5 * (c.1 - cy).signum();
    }
    out
}

/// Sub-pixel refinement on the full-resolution image: per side, the outer
/// edge of the border line (dark inside -> bright outside) is searched along
/// the outward normal at many points, a line is fitted robustly, and the
/// corners are the intersections of neighbouring lines. `None` when a side
/// gives too few edge points (then the coarse quad stands).
fn refine(gray: &GrayImage, q: &Quad, factor: f32, frame: [bool; 4]) -> Option<Quad> {
    let c = q.corners;
    let mut lines = [(0.0f32, 0.0f32, 0.0f32); 4]; // nx, ny, d with nx*x+ny*y=d
    for s in 0..4 {
        let Side {
            a,
            dx,
            dy,
            len,
            nx,
            ny,
            ..
        } = side(q, s)?;
        if frame[s] {
            // The border line is cut by the frame: no edge to find, the
            // coarse side (on the frame) stands.
            lines[s] = (nx, ny, nx * a.0 + ny * a.1);
            continue;
        }
        let reach = (2.5 * factor + 0.012 * len).max(4.0);
        let steps = (2.0 * reach).ceil() as usize;
        let samples = 48;
        let mut pts: Vec<(f32, f32)> = Vec::with_capacity(samples);
        let mut prof = vec![0.0f32; steps + 1];
        for k in 0..samples {
            let t = 0.04 + 0.92 * (k as f32 + 0.5) / samples as f32;
            let (px, py) = (a.0 + dx * t, a.1 + dy * t);
            for (i, v) in prof.iter_mut().enumerate() {
                let o = -reach + i as f32;
                *v = bilinear(gray, px + nx * o - 0.5, py + ny * o - 0.5);
            }
            // Strongest rise (dark -> bright) going outward; a 4-tap
            // difference because blurred phone shots spread an edge over
            // 5-10 px and JPEG noise dominates a 2-tap one.
            let mut d = vec![0.0f32; steps + 1];
            let mut best = (0usize, 0.0f32);
            for i in 2..steps.saturating_sub(1) {
                d[i] = prof[i + 1] + prof[i + 2] - prof[i - 1] - prof[i - 2];
                if d[i] > best.1 {
                    best = (i, d[i]);
                }
            }
            let (lo, hi) = prof
                .iter()
                .fold((f32::MAX, f32::MIN), |(a, b), &v| (a.min(v), b.max(v)));
            let i = best.0;
            // A real edge: enough contrast, steep enough, not at the window's end.
            if hi - lo < 8.0 || best.1 < 4.0 || best.1 < 0.25 * (hi - lo) || i < 3 || i + 2 > steps
            {
                continue;
            }
            // Parabola through the derivative at i-1, i, i+1.
            let (dm, dp) = (d[i - 1], d[i + 1]);
            let den = dm - 2.0 * best.1 + dp;
            let frac = if den.abs() > 1e-3 {
                (0.5 * (dm - dp) / den).clamp(-0.5, 0.5)
            } else {
                0.0
            };
            let o = -reach + i as f32 + frac;
            pts.push((px + nx * o, py + ny * o));
        }
        if pts.len() < samples / 3 {
            return None;
        }
        lines[s] = fit_line(&pts)?;
    }
    let refined = corners_of(&lines)?;
    // A refined corner far from the coarse one means the fit went wrong.
    let lim = 3.0 * factor + 0.03 * q.max_side();
    let far = (0..4).any(|k| {
        let (x, y) = refined.corners[k];
        (x - c[k].0).hypot(y - c[k].1) > lim
    });
    (!far).then_some(refined)
}

/// Robust total-least-squares line `nx*x + ny*y = d` (unit normal): fit,
/// drop points beyond 2.5 robust sigmas (min 1 px), refit, twice.
fn fit_line(pts: &[(f32, f32)]) -> Option<(f32, f32, f32)> {
    let mut keep: Vec<(f32, f32)> = pts.to_vec();
    let mut line = tls(&keep)?;
    for _ in 0..3 {
        let mut res: Vec<f32> = keep
            .iter()
            .map(|p| (line.0 * p.0 + line.1 * p.1 - line.2).abs())
            .collect();
        res.sort_unstable_by(f32::total_cmp);
        let mad = res[res.len() / 2];
        let lim = (2.5 * 1.4826 * mad).max(1.0);
        let next: Vec<(f32, f32)> = keep
            .iter()
            .copied()
            .filter(|p| (line.0 * p.0 + line.1 * p.1 - line.2).abs() <= lim)
            .collect();
        if next.len() < 6 {
            break;
        }
        keep = next;
        line = tls(&keep)?;
    }
    Some(line)
}

fn tls(p: &[(f32, f32)]) -> Option<(f32, f32, f32)> {
    if p.len() < 2 {
        return None;
    }
    let n = p.len() as f64;
    let mx = p.iter().map(|q| q.0 as f64).sum::<f64>() / n;
    let my = p.iter().map(|q| q.1 as f64).sum::<f64>() / n;
    let (mut sxx, mut sxy, mut syy) = (0.0, 0.0, 0.0);
    for q in p {
        let (dx, dy) = (q.0 as f64 - mx, q.1 as f64 - my);
        sxx += dx * dx;
        sxy += dx * dy;
        syy += dy * dy;
    }
    // Direction = principal eigenvector; the normal is perpendicular.
    let theta = 0.5 * (2.0 * sxy).atan2(sxx - syy);
    let (tx, ty) = (theta.cos(), theta.sin());
    let (nx, ny) = (-ty, tx);
    Some((nx as f32, ny as f32, (nx * mx + ny * my) as f32))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A white page with a 9x9 grid of side `s` at (x0, y0).
    pub(crate) fn draw_grid(w: u32, h: u32, x0: f32, y0: f32, s: f32) -> GrayImage {
        GrayImage::from_fn(w, h, |x, y| {
            let (fx, fy) = (x as f32 + 0.5 - x0, y as f32 + 0.5 - y0);
            if fx < 0.0 || fy < 0.0 || fx > s || fy > s {
                return Luma([235]);
            }
            let cell = s / 9.0;
            let near = |v: f32| {
                let j = (v / cell).round();
                let t = if j as i32 % 3 == 0 { 3.0 } else { 1.2 };
                (v - j * cell).abs() < t * 0.5 + if j == 0.0 || j == 9.0 { t * 0.5 } else { 0.0 }
            };
            Luma([if near(fx) || near(fy) { 25 } else { 235 }])
        })
    }

    #[test]
    fn finds_a_synthetic_grid() {
        let g = draw_grid(640, 480, 120.0, 40.0, 400.0);
        let (l, dbg) = locate_detailed(&g);
        let q = l
            .map(|l| l.quad)
            .unwrap_or_else(|| panic!("{:?}", dbg.candidates));
        let truth = Quad::new([(120.0, 40.0), (520.0, 40.0), (520.0, 440.0), (120.0, 440.0)]);
        let e = crate::geometry::corner_error(&q, &truth);
        assert!(e < 1.5, "{q:?} err {e}");
    }

    #[test]
    fn no_grid_in_blank_noise_or_text() {
        let blank = GrayImage::from_pixel(640, 480, Luma([200]));
        assert!(locate(&blank).is_none());
        let mut s = 12345u32;
        let noise = GrayImage::from_fn(640, 480, |_, _| {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            Luma([(s >> 24) as u8])
        });
        assert!(locate(&noise).is_none());
        // A "text page": rows of short dark dashes.
        let text = GrayImage::from_fn(640, 480, |x, y| {
            let line = y % 24 < 10 && (40..600).contains(&x) && (20..460).contains(&y);
            let word = (x / 7 + y / 24 * 3) % 9 != 0 && x % 7 < 5;
            Luma([if line && word { 30 } else { 230 }])
        });
        assert!(locate(&text).is_none());
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
    fn downscale_averages() {
        let g = GrayImage::from_fn(8, 4, |x, _| Luma([if x % 2 == 0 { 0 } else { 200 }]));
        let d = downscale(&g, 2);
        assert_eq!(d.dimensions(), (4, 2));
        assert!(d.pixels().all(|p| p[0] == 100));
    }
}
