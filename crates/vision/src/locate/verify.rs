//! Verification: does a candidate quad hold the lines of an n x n grid
//! (9x9, or 16x16)?
//!
//! Every pixel of the quad is mapped into a square of side `n * cell`
//! (bins about one pixel wide, so 1 px lines are never skipped and keep a
//! high ink fraction) and counted into column and row profiles of ink
//! fraction. In each profile the best (n+1)-line *comb* (start `a`, pitch `p`)
//! is searched; its score is the mean line strength minus the clutter
//! between the lines and minus any line just outside the comb (a
//! crossword's extra lines). Between sizes, the better score wins; the box
//! lines (every 3rd of a 9x9, every 4th of a 16x16) are printed thicker,
//! which [`Verdict::boxes`] measures and a near tie is decided by.

use image::GrayImage;

use crate::geometry::{dist, Homography, Quad};

/// Cells per side of the grids looked for.
pub const SIZES: [usize; 2] = [9, 16];

/// Bins per cell in the profiles: the quad's side / n, clamped so tiny
/// candidates still have room for a line tolerance and huge ones do not
/// cost more than needed.
const MIN_BIN_CELL: usize = 8;
/// Upper clamp of the bins per cell.
const MAX_BIN_CELL: usize = 64;

/// A 9x9 grid is square on paper: in the photo its sides differ by
/// perspective only, well under this ratio. A long thin "grid" is part of
/// one cut by the frame (its comb matched digits) or a table.
const MAX_SIDE_RATIO: f32 = 1.45;

/// Tolerance for a line's position, as a fraction of a cell (curl and the
/// hull's perspective error move lines by a few percent of a cell).
const LINE_TOL: f32 = 0.1;

/// The comb spans at least this fraction of the candidate. The hull is the
/// grid, or the grid plus a little clutter (text or a frame touching it);
/// smaller pitches (down to 0.6 of the hull, tried before) fitted digit
/// columns inside half a grid; 0.8 keeps the slack for clutter and refuses
/// half-grids.
const MIN_SPAN: f32 = 0.8;

/// Pitch step of the comb search, in bins.
const PITCH_STEP: f32 = 0.25;

/// Clutter is this percentile of the ink between the lines: the 90th
/// ignores digits (a few bins) but not a crossword's black squares or a
/// table's rules.
const CLUTTER_PERCENTILE: usize = 90;

/// A line one pitch outside the comb counts against it only by how much it
/// exceeds this fraction of the comb's mean line strength: print beside a
/// grid (text, a frame) is some ink, a crossword's next line is as strong
/// as the comb's own.
const OUTSIDE_ALLOWANCE: f32 = 0.3;

/// The comb's strength is its mean line, capped at the weakest line plus
/// this: one missing line (a table with a gap, digits in a row) caps the
/// score, while the normal thin/thick spread of a Sudoku does not.
const WEAKEST_SLACK: f32 = 0.15;

/// The score is divided by the mean line strength, but never by less than
/// this: a faint comb of noise must not score like a printed grid.
const MIN_NORMALISER: f32 = 0.25;

/// A comb tooth whose peak rises less than this above its window's floor is
/// not a line the sub-bin fit can use.
const MIN_TOOTH_PEAK: f32 = 0.02;

/// The outcome of checking a candidate for an n x n line structure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Verdict {
    /// Cells per side checked for.
    pub n: usize,
    /// Box-line evidence: how much wider the box lines' peaks are than the
    /// other lines' (ratio of their mean widths minus 1; about 0.3-2 for a
    /// printed puzzle, near 0 for a uniform lattice or a wrong size).
    pub boxes: f32,
    /// Line evidence minus clutter, the smaller of the two axes (about
    /// 0.5-0.9 for a Sudoku, below 0.2 for crosswords, text and noise).
    pub score: f32,
    /// The grid's outer lines (line centres) found inside the candidate, in
    /// work pixels: equal to the candidate when the grid fills it, smaller
    /// when the candidate was a frame or box around the grid.
    pub quad: Quad,
}

/// A comb found in a profile: score, start and pitch in bins.
#[derive(Debug, Clone, Copy)]
struct Comb {
    score: f32,
    start: f32,
    pitch: f32,
}

/// What to look for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Spec {
    /// Cells per side.
    pub n: usize,
    /// The grid stands alone: a line one pitch outside the comb counts
    /// against it (a crossword's next line). False for a window of a
    /// lattice already checked cell side by cell side (a Samurai's centre
    /// grid has its neighbours' lines one pitch outside).
    pub lone: bool,
}

/// Looks for an `spec.n` x `spec.n` grid inside `quad` (work pixels) of the
/// darkness image.
pub fn verify(dark: &GrayImage, quad: &Quad, spec: Spec) -> Verdict {
    let n = spec.n;
    let fail = Verdict {
        n,
        boxes: 0.0,
        score: 0.0,
        quad: *quad,
    };
    let q = quad_to_pixel_edges(quad);
    let cell = ((q.max_side() / n as f32).round() as usize).clamp(MIN_BIN_CELL, MAX_BIN_CELL);
    let side = n * cell;
    let Some(g2p) = Homography::square_to_quad(side as f64, &q) else {
        return fail;
    };
    let Some((fx, fy)) = profiles(dark, &q, &g2p, side) else {
        return fail;
    };
    let tol = ((cell as f32 * LINE_TOL).round() as usize).max(1);
    let cx = fit_comb(&fx, best_comb(&fx, tol, spec), tol, n);
    let cy = fit_comb(&fy, best_comb(&fy, tol, spec), tol, n);
    let boxes = 0.5 * (box_evidence(&fx, cx, tol, n) + box_evidence(&fy, cy, tol, n));
    let (u0, u1) = (cx.start + 0.5, cx.start + 0.5 + n as f32 * cx.pitch);
    let (v0, v1) = (cy.start + 0.5, cy.start + 0.5 + n as f32 * cy.pitch);
    let corners = [(u0, v0), (u1, v0), (u1, v1), (u0, v1)].map(|(u, v)| {
        let (x, y) = g2p.map64(u as f64, v as f64);
        // Back to the pixel-index convention of hull corners.
        (x as f32 - 0.5, y as f32 - 0.5)
    });
    let found = Quad::new(corners);
    let sides: Vec<f32> = (0..4)
        .map(|i| dist(found.corners[i], found.corners[(i + 1) % 4]))
        .collect();
    let (smin, smax) = sides
        .iter()
        .fold((f32::MAX, 0.0f32), |(a, b), &v| (a.min(v), b.max(v)));
    let score = if smax > MAX_SIDE_RATIO * smin {
        0.0
    } else {
        cx.score.min(cy.score)
    };
    Verdict {
        n,
        boxes,
        score,
        quad: found,
    }
}

/// Cells per box side of an `n` x `n` grid (3 for 9x9, 4 for 16x16).
fn box_side(n: usize) -> usize {
    (n as f32).sqrt().round() as usize
}

/// How much wider the comb's box lines are than its other lines: the ink
/// summed over each tooth's window is its width; returns the box teeth's
/// mean over the others' mean, minus 1 (0 when there is no thin tooth).
fn box_evidence(prof: &[f32], comb: Comb, tol: usize, n: usize) -> f32 {
    let b = box_side(n);
    let (mut wide, mut nw, mut thin, mut nt) = (0.0f32, 0usize, 0.0f32, 0usize);
    for j in 0..=n {
        let c = (comb.start + j as f32 * comb.pitch).round() as usize;
        let lo = c.saturating_sub(tol);
        let hi = (c + tol + 1).min(prof.len());
        let width: f32 = prof[lo.min(hi)..hi].iter().sum();
        if j % b == 0 {
            wide += width;
            nw += 1;
        } else {
            thin += width;
            nt += 1;
        }
    }
    if nt == 0 || nw == 0 || thin <= 0.0 {
        return 0.0;
    }
    (wide / nw as f32) / (thin / nt as f32) - 1.0
}

/// Column and row profiles of ink fraction of the quad mapped onto a
/// `side`-square through `g2p` (square to work pixels). `None` when the
/// transform is singular.
fn profiles(
    dark: &GrayImage,
    q: &Quad,
    g2p: &Homography,
    side: usize,
) -> Option<(Vec<f32>, Vec<f32>)> {
    let p2g = g2p.inverse()?;
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
    Some((frac(0), frac(1)))
}

/// The profile max-filtered over `tol` bins each way: the line strength
/// near each position.
fn max_filter(prof: &[f32], tol: usize) -> Vec<f32> {
    let n = prof.len();
    (0..n)
        .map(|i| {
            prof[i.saturating_sub(tol)..(i + tol + 1).min(n)]
                .iter()
                .fold(0.0f32, |a, &b| a.max(b))
        })
        .collect()
}

/// Best (n+1)-line comb in a profile.
fn best_comb(prof: &[f32], tol: usize, spec: Spec) -> Comb {
    let n = spec.n;
    let len = prof.len();
    let mx = max_filter(prof, tol);
    let mut best = Comb {
        score: f32::MIN,
        start: 0.0,
        pitch: len as f32 / n as f32,
    };
    let pmax = (len as f32 - 1.0) / n as f32;
    let mut p = pmax;
    let mut between: Vec<f32> = Vec::with_capacity(len);
    while p >= pmax * MIN_SPAN {
        let span = n as f32 * p;
        let mut a = 0.0f32;
        while a + span <= len as f32 - 1.0 {
            let teeth = (a, p, spec);
            if let Some(score) = comb_score(prof, &mx, teeth, tol, best.score, &mut between) {
                best = Comb {
                    score,
                    start: a,
                    pitch: p,
                };
            }
            a += 1.0;
        }
        p -= PITCH_STEP;
    }
    best
}

/// The score of the comb of `n + 1` teeth at start `a`, pitch `p`, or `None` when it cannot
/// beat `to_beat` (its mean line strength is an upper bound of the score,
/// checked before the costlier clutter measure). `between` is scratch.
fn comb_score(
    prof: &[f32],
    mx: &[f32],
    (a, p, spec): (f32, f32, Spec),
    tol: usize,
    to_beat: f32,
    between: &mut Vec<f32>,
) -> Option<f32> {
    let (len, n) = (prof.len(), spec.n);
    let mut sum = 0.0;
    let mut weakest = f32::MAX;
    for j in 0..=n {
        let v = mx[(a + j as f32 * p).round() as usize];
        sum += v;
        weakest = weakest.min(v);
    }
    let mean = sum / (n + 1) as f32;
    if mean <= to_beat {
        return None;
    }
    between.clear();
    for j in 0..n {
        let lo = (a + j as f32 * p).round() as usize + tol + 1;
        let hi = (a + (j + 1) as f32 * p).round() as usize;
        if hi > tol + lo {
            between.extend_from_slice(&prof[lo..hi - tol]);
        }
    }
    let clutter = if between.is_empty() {
        1.0
    } else {
        let k = between.len() * CLUTTER_PERCENTILE / 100;
        *between.select_nth_unstable_by(k, f32::total_cmp).1
    };
    // Lines one pitch outside the comb mean a bigger grid.
    let before = (a - p).round();
    let after = (a + (n + 1) as f32 * p).round();
    let mut outside = 0.0f32;
    if spec.lone && before >= 0.0 {
        outside = outside.max(mx[before as usize]);
    }
    if spec.lone && after < len as f32 {
        outside = outside.max(mx[after as usize]);
    }
    let penalty = clutter.max(outside - OUTSIDE_ALLOWANCE * mean);
    let score = (mean.min(weakest + WEAKEST_SLACK) - penalty) / mean.max(MIN_NORMALISER);
    (score > to_beat).then_some(score)
}

/// Sharpens a comb found on the max-filtered profile: each tooth moves to
/// the centroid of its actual peak, then a straight-line fit of tooth
/// position against index gives start and pitch (the search only knows
/// them to +-tol).
fn fit_comb(prof: &[f32], comb: Comb, tol: usize, n: usize) -> Comb {
    let len = prof.len();
    let (a, p) = (comb.start, comb.pitch);
    let tol = tol as isize;
    let (mut sw, mut sj, mut sp, mut sjj, mut sjp) = (0.0f64, 0.0, 0.0, 0.0, 0.0);
    for j in 0..=n {
        let c = (a + j as f32 * p).round() as isize;
        let lo = (c - tol).max(0) as usize;
        let hi = ((c + tol) as usize).min(len - 1);
        if lo > hi {
            continue;
        }
        let Some((pos, wt)) = tooth_centroid(&prof[lo..=hi]) else {
            continue;
        };
        let pos = lo as f64 + pos;
        let jf = j as f64;
        sw += wt;
        sj += wt * jf;
        sp += wt * pos;
        sjj += wt * jf * jf;
        sjp += wt * jf * pos;
    }
    let den = sw * sjj - sj * sj;
    if sw <= 0.0 || den.abs() < 1e-9 {
        return comb;
    }
    let pitch = (sw * sjp - sj * sp) / den;
    let start = (sp - pitch * sj) / sw;
    // Keep the search result if the fit wandered off (few teeth found).
    if (pitch - p as f64).abs() > tol as f64 || (start - a as f64).abs() > 2.0 * tol as f64 {
        return comb;
    }
    Comb {
        score: comb.score,
        start: start as f32,
        pitch: pitch as f32,
    }
}

/// Centroid of the upper half of the peak in a tooth's window (in window
/// bins) and the peak's height as its weight; `None` when there is no peak.
fn tooth_centroid(win: &[f32]) -> Option<(f64, f64)> {
    let peak = win.iter().fold(0.0f32, |m, &v| m.max(v));
    let base = win.iter().fold(f32::MAX, |m, &v| m.min(v));
    if peak - base < MIN_TOOTH_PEAK {
        return None;
    }
    let half = base + 0.5 * (peak - base);
    let (mut w, mut x) = (0.0f64, 0.0f64);
    for (k, &v) in win.iter().enumerate() {
        if v > half {
            w += (v - half) as f64;
            x += (v - half) as f64 * k as f64;
        }
    }
    (w > 0.0).then(|| (x / w, (peak - base) as f64))
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
