//! Sub-pixel refinement on the full-resolution image: per side, the outer
//! edge of the border line (dark inside -> bright outside) is searched along
//! the outward normal at many points, a line is fitted robustly, and the
//! corners are the intersections of neighbouring lines.

use image::GrayImage;

use super::sides::{corners_of, side, Line, Side};
use crate::geometry::{bilinear, Quad};

/// Edge searches per side.
const SAMPLES: usize = 48;

/// The searches skip this fraction of the side at each end, where the
/// crossing border line would be found instead of the side's own edge.
const END_MARGIN: f32 = 0.04;

/// The search reaches this many work pixels (times the downscale factor)
/// each way along the normal: the coarse quad is within about two work
/// pixels of the border ...
const REACH_WORK_PX: f32 = 2.5;
/// ... plus this fraction of the side, for curl and lens distortion.
const REACH_SIDE: f32 = 0.012;
/// ... and at least this many pixels.
const MIN_REACH: f32 = 4.0;

/// An edge needs this much gray-level range in its search window ...
const MIN_EDGE_RANGE: f32 = 8.0;
/// ... a 4-tap rise of at least this ...
const MIN_EDGE_STEP: f32 = 4.0;
/// ... and a rise of at least this fraction of the window's range (the
/// border's edge, not a shading gradient).
const MIN_EDGE_SHARE: f32 = 0.25;

/// A side with fewer edge points than this fraction of [`SAMPLES`] is not
/// refined (the coarse quad stands).
const MIN_POINTS_DIVISOR: usize = 3;

/// A refined corner farther from the coarse one than this many work pixels
/// (times the factor) ...
const MAX_SHIFT_WORK_PX: f32 = 3.0;
/// ... plus this fraction of the longest side means the fit went wrong.
const MAX_SHIFT_SIDE: f32 = 0.03;

/// Robust line fit: points beyond this many robust sigmas are dropped ...
const OUTLIER_SIGMAS: f32 = 2.5;
/// ... (median absolute deviation to sigma for Gaussian residuals) ...
const MAD_TO_SIGMA: f32 = 1.4826;
/// ... but never closer than this many pixels (sub-pixel noise is fine) ...
const MIN_OUTLIER_PX: f32 = 1.0;
/// ... in this many rounds, keeping at least this many points.
const OUTLIER_ROUNDS: usize = 3;
/// Fewest points a round may keep.
const MIN_KEPT: usize = 6;

/// Work-image quad (pixel indices of hull pixels) to continuous
/// full-resolution coordinates: work pixel i covers [i*f, (i+1)*f).
pub(super) fn quad_to_full(q: &Quad, f: f32) -> Quad {
    let mut out = *q;
    for c in &mut out.corners {
        c.0 = (c.0 + 0.5) * f;
        c.1 = (c.1 + 0.5) * f;
    }
    out
}

/// The inverse of [`quad_to_full`]: full-resolution coordinates to those
/// of a work image `f` times smaller whose pixel (0, 0) covers the full
/// pixels from `origin` on.
pub(super) fn full_to_work(q: &Quad, f: f32, origin: (f32, f32)) -> Quad {
    Quad::new(
        q.corners
            .map(|(x, y)| ((x - origin.0) / f - 0.5, (y - origin.1) / f - 0.5)),
    )
}

/// Refines the coarse quad `q` (full-resolution pixels) on `gray`; `factor`
/// is full-resolution pixels per work pixel, `frame` the sides on the
/// image frame (no edge to find there: the coarse side stands). `None` when
/// a side gives too few edge points or a corner moves too far.
pub(super) fn refine(gray: &GrayImage, q: &Quad, factor: f32, frame: [bool; 4]) -> Option<Quad> {
    let mut lines = [(0.0f32, 0.0f32, 0.0f32); 4];
    for (s, line) in lines.iter_mut().enumerate() {
        let sd = side(q, s)?;
        *line = if frame[s] {
            (sd.nx, sd.ny, sd.nx * sd.a.0 + sd.ny * sd.a.1)
        } else {
            let pts = edge_points(gray, &sd, factor);
            if pts.len() < SAMPLES / MIN_POINTS_DIVISOR {
                return None;
            }
            fit_line(&pts)?
        };
    }
    let refined = corners_of(&lines)?;
    let lim = MAX_SHIFT_WORK_PX * factor + MAX_SHIFT_SIDE * q.max_side();
    let far = (0..4).any(|k| {
        let (x, y) = refined.corners[k];
        let (cx, cy) = q.corners[k];
        (x - cx).hypot(y - cy) > lim
    });
    (!far).then_some(refined)
}

/// The border's outer edge found along the side's normal at [`SAMPLES`]
/// points (full-resolution pixels); searches without a clear edge give none.
fn edge_points(gray: &GrayImage, sd: &Side, factor: f32) -> Vec<(f32, f32)> {
    let reach = (REACH_WORK_PX * factor + REACH_SIDE * sd.len).max(MIN_REACH);
    let steps = (2.0 * reach).ceil() as usize;
    let mut pts = Vec::with_capacity(SAMPLES);
    let mut prof = vec![0.0f32; steps + 1];
    for k in 0..SAMPLES {
        let t = END_MARGIN + (1.0 - 2.0 * END_MARGIN) * (k as f32 + 0.5) / SAMPLES as f32;
        let (px, py) = (sd.a.0 + sd.dx * t, sd.a.1 + sd.dy * t);
        for (i, v) in prof.iter_mut().enumerate() {
            let o = -reach + i as f32;
            *v = bilinear(gray, px + sd.nx * o - 0.5, py + sd.ny * o - 0.5);
        }
        if let Some(i) = edge_in_profile(&prof) {
            let o = -reach + i;
            pts.push((px + sd.nx * o, py + sd.ny * o));
        }
    }
    pts
}

/// Position (sub-sample) of the strongest dark-to-bright rise in `prof`, or
/// `None` when there is no clear edge. A 4-tap difference because blurred
/// phone shots spread an edge over 5-10 px and JPEG noise dominates a 2-tap
/// one.
fn edge_in_profile(prof: &[f32]) -> Option<f32> {
    let steps = prof.len() - 1;
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
    if hi - lo < MIN_EDGE_RANGE
        || best.1 < MIN_EDGE_STEP
        || best.1 < MIN_EDGE_SHARE * (hi - lo)
        || i < 3
        || i + 2 > steps
    {
        return None;
    }
    // Parabola through the derivative at i-1, i, i+1.
    let (dm, dp) = (d[i - 1], d[i + 1]);
    let den = dm - 2.0 * best.1 + dp;
    let frac = if den.abs() > 1e-3 {
        (0.5 * (dm - dp) / den).clamp(-0.5, 0.5)
    } else {
        0.0
    };
    Some(i as f32 + frac)
}

/// Robust total-least-squares line (unit normal): fit, drop points beyond
/// [`OUTLIER_SIGMAS`] robust sigmas, refit.
fn fit_line(pts: &[(f32, f32)]) -> Option<Line> {
    let mut keep: Vec<(f32, f32)> = pts.to_vec();
    let mut line = tls(&keep)?;
    for _ in 0..OUTLIER_ROUNDS {
        let mut res: Vec<f32> = keep
            .iter()
            .map(|p| (line.0 * p.0 + line.1 * p.1 - line.2).abs())
            .collect();
        res.sort_unstable_by(f32::total_cmp);
        let mad = res[res.len() / 2];
        let lim = (OUTLIER_SIGMAS * MAD_TO_SIGMA * mad).max(MIN_OUTLIER_PX);
        let next: Vec<(f32, f32)> = keep
            .iter()
            .copied()
            .filter(|p| (line.0 * p.0 + line.1 * p.1 - line.2).abs() <= lim)
            .collect();
        if next.len() < MIN_KEPT {
            break;
        }
        keep = next;
        line = tls(&keep)?;
    }
    Some(line)
}

/// Total-least-squares line through the points: the direction is the
/// principal axis of their scatter, the normal perpendicular to it.
fn tls(p: &[(f32, f32)]) -> Option<Line> {
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
    let theta = 0.5 * (2.0 * sxy).atan2(sxx - syy);
    let (tx, ty) = (theta.cos(), theta.sin());
    let (nx, ny) = (-ty, tx);
    Some((nx as f32, ny as f32, (nx * mx + ny * my) as f32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn robust_line_ignores_an_outlier() {
        let mut pts: Vec<(f32, f32)> = (0..48).map(|i| (2.0 * i as f32, 5.0)).collect();
        pts.push((40.0, 13.0));
        let (nx, ny, d) = fit_line(&pts).expect("line");
        assert!(nx.abs() < 1e-3 && (ny.abs() - 1.0).abs() < 1e-3);
        assert!((d.abs() - 5.0).abs() < 1e-2, "{d}");
    }

    #[test]
    fn edge_is_found_at_the_rise() {
        let prof: Vec<f32> = (0..20).map(|i| if i < 10 { 20.0 } else { 220.0 }).collect();
        let e = edge_in_profile(&prof).expect("edge");
        assert!((e - 9.5).abs() < 0.6, "{e}");
    }
}
