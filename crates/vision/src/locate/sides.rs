//! Work-image helpers on a quad's sides: which lie on the image frame, the
//! quad grown about its centre, sides moved onto the darkest line near
//! them, and the quad whose sides lie on four given lines.

use image::GrayImage;

use crate::geometry::{round_i32, Quad};

/// A side shorter than this (pixels) is too short to fit a line along.
const MIN_SIDE_LEN: f32 = 8.0;

/// How far [`fit_sides`] may move each end of a side along its normal, in
/// cells (side length / 9): enough to swing a side drawn across a cut-off
/// corner back onto the border, not enough to jump to the next grid line.
const FIT_SHIFT_CELLS: f32 = 0.4;

/// A straight run of a hull that stands for a whole side (see
/// [`straight_runs_quad`]) is at least this fraction of the side: a grid
/// drawn with rounded corners has radii well under a quarter of its side.
const MIN_RUN_SHARE: f32 = 0.5;

/// ... runs within this angle's cosine (about 10 degrees) of the side ...
const RUN_COS: f32 = 0.985;

/// ... and its middle within this many cells (side / 9) of the side's line.
const RUN_NEAR_CELLS: f32 = 0.5;

/// A line `nx * x + ny * y = d` with unit normal `(nx, ny)`.
pub(super) type Line = (f32, f32, f32);

/// One side of a quad: its start corner, direction, length and outward
/// unit normal (pointing away from the quad's centre).
pub(super) struct Side {
    /// Start corner.
    pub a: (f32, f32),
    /// End corner.
    pub b: (f32, f32),
    /// `b - a`, x.
    pub dx: f32,
    /// `b - a`, y.
    pub dy: f32,
    /// Length.
    pub len: f32,
    /// Outward normal, x.
    pub nx: f32,
    /// Outward normal, y.
    pub ny: f32,
}

/// Side `s` (from corner `s` to corner `s + 1`); `None` when it is too
/// short to fit a line along.
pub(super) fn side(q: &Quad, s: usize) -> Option<Side> {
    let c = q.corners;
    let (cx, cy) = q.centre();
    let (a, b) = (c[s], c[(s + 1) % 4]);
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt();
    if len < MIN_SIDE_LEN {
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

/// Which sides (side k runs from corner k to k+1) lie on the frame of a
/// `w` x `h` image, both ends within `tol` pixels of the same edge.
pub(super) fn frame_sides(q: &Quad, w: f32, h: f32, tol: f32) -> [bool; 4] {
    std::array::from_fn(|k| on_frame(q.corners[k], q.corners[(k + 1) % 4], w, h, tol))
}

/// Whether the segment from `a` to `b` lies on the frame of a `w` x `h`
/// image: both ends within `tol` pixels of the same edge, or beyond it.
pub(super) fn on_frame(a: (f32, f32), b: (f32, f32), w: f32, h: f32, tol: f32) -> bool {
    let on = |p: (f32, f32)| {
        [
            p.0 <= tol,
            p.1 <= tol,
            p.0 >= w - 1.0 - tol,
            p.1 >= h - 1.0 - tol,
        ]
    };
    let (a, b) = (on(a), on(b));
    (0..4).any(|e| a[e] && b[e])
}

/// Moves each side not on the frame onto the darkest straight line near it
/// (work pixels, line centres like `Verdict::quad`): both ends may shift
/// along the side's normal by up to [`FIT_SHIFT_CELLS`], so a side the hull
/// drew across a corner whose border piece broke off swings back onto the
/// border line. Sides on the frame stay; corners are the intersections.
pub(super) fn fit_sides(dark: &GrayImage, q: &Quad, frame: [bool; 4]) -> Quad {
    let mut lines = [(0.0f32, 0.0f32, 0.0f32); 4];
    for (s, line) in lines.iter_mut().enumerate() {
        let Some(sd) = side(q, s) else {
            return *q;
        };
        let (oa, ob) = if frame[s] {
            (0.0, 0.0)
        } else {
            darkest_offsets(dark, &sd)
        };
        let pa = (sd.a.0 + sd.nx * oa, sd.a.1 + sd.ny * oa);
        let pb = (sd.b.0 + sd.nx * ob, sd.b.1 + sd.ny * ob);
        let (ex, ey) = (pb.0 - pa.0, pb.1 - pa.1);
        let el = (ex * ex + ey * ey).sqrt().max(1e-6);
        let (lx, ly) = (-ey / el, ex / el);
        *line = (lx, ly, lx * pa.0 + ly * pa.1);
    }
    corners_of(&lines).unwrap_or(*q)
}

/// The shifts of a side's two ends along its normal (whole pixels, up to
/// [`FIT_SHIFT_CELLS`]) whose straight line is darkest on average; `(0, 0)`
/// when the side lies wholly outside the image.
fn darkest_offsets(dark: &GrayImage, sd: &Side) -> (f32, f32) {
    let (w, h) = (dark.width() as i32, dark.height() as i32);
    let raw = dark.as_raw();
    let r = (FIT_SHIFT_CELLS * sd.len / 9.0).round() as i32;
    let n = sd.len.ceil() as usize;
    let mut best = (0.0f32, 0.0f32, f32::MIN);
    for oa in -r..=r {
        for ob in -r..=r {
            let (mut sum, mut cnt) = (0u32, 0u32);
            for i in 0..=n {
                let t = i as f32 / n as f32;
                let o = oa as f32 + (ob - oa) as f32 * t;
                let x = round_i32(sd.a.0 + sd.dx * t + sd.nx * o);
                let y = round_i32(sd.a.1 + sd.dy * t + sd.ny * o);
                if x >= 0 && y >= 0 && x < w && y < h {
                    sum += raw[(y * w + x) as usize] as u32;
                    cnt += 1;
                }
            }
            // Mean over the whole side: a line leaving the image does not
            // gain by losing its dull samples.
            let m = sum as f32 / (n + 1) as f32;
            if cnt > 0 && m > best.2 {
                best = (oa as f32, ob as f32, m);
            }
        }
    }
    (best.0, best.1)
}

/// The quad whose sides lie on `lines` (side k from corner k to k+1):
/// corner k is where side k-1 meets side k. `None` when two neighbouring
/// sides are parallel.
pub(super) fn corners_of(lines: &[Line; 4]) -> Option<Quad> {
    let mut out = [(0.0f32, 0.0f32); 4];
    for (k, corner) in out.iter_mut().enumerate() {
        let l1 = lines[(k + 3) % 4];
        let l2 = lines[k];
        let det = l1.0 * l2.1 - l1.1 * l2.0;
        if det.abs() < 1e-6 {
            return None;
        }
        *corner = (
            (l1.2 * l2.1 - l1.1 * l2.2) / det,
            (l1.0 * l2.2 - l1.2 * l2.0) / det,
        );
    }
    Some(Quad::new(out))
}

/// The quad whose sides lie on the hull's straight runs along the sides of
/// `q` (the hull's largest quad): on a grid drawn with rounded corners (app
/// screens draw them so) the largest quad has its corners on the arcs and
/// its sides slant across the border, while the border's straight runs are
/// the hull's longest edges. `None` when a side has no such run.
pub(super) fn straight_runs_quad(hull: &[(f32, f32)], q: &Quad) -> Option<Quad> {
    let n = hull.len();
    let mut lines = [(0.0f32, 0.0f32, 0.0f32); 4];
    for (s, line) in lines.iter_mut().enumerate() {
        let sd = side(q, s)?;
        let (ux, uy) = (sd.dx / sd.len, sd.dy / sd.len);
        let mut best: Option<(f32, Line)> = None;
        for i in 0..n {
            let (a, b) = (hull[i], hull[(i + 1) % n]);
            let (ex, ey) = (b.0 - a.0, b.1 - a.1);
            let len = ex.hypot(ey);
            if len < MIN_RUN_SHARE * sd.len || (ex * ux + ey * uy).abs() < RUN_COS * len {
                continue;
            }
            let mid = (0.5 * (a.0 + b.0), 0.5 * (a.1 + b.1));
            let off = (mid.0 - sd.a.0) * sd.nx + (mid.1 - sd.a.1) * sd.ny;
            if off.abs() > RUN_NEAR_CELLS * sd.len / 9.0 {
                continue;
            }
            if best.is_none_or(|(l, _)| len > l) {
                let (nx, ny) = (-ey / len, ex / len);
                best = Some((len, (nx, ny, nx * a.0 + ny * a.1)));
            }
        }
        *line = best?.1;
    }
    corners_of(&lines)
}

/// The quad scaled by `1 + f` about its centroid.
pub(super) fn expand(q: &Quad, f: f32) -> Quad {
    let (cx, cy) = q.centre();
    Quad::new(
        q.corners
            .map(|(x, y)| (cx + (x - cx) * (1.0 + f), cy + (y - cy) * (1.0 + f))),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn straight_runs_give_the_corners_a_rounded_square_cuts() {
        // A 90 px square with corners rounded at radius 15: its hull's
        // straight runs are 60 px long, the arcs are four points each.
        let (r, s) = (15.0f32, 90.0f32);
        let mut hull = Vec::new();
        for (cx, cy, from) in [
            (s - r, r, -90.0f32),
            (s - r, s - r, 0.0),
            (r, s - r, 90.0),
            (r, r, 180.0),
        ] {
            for k in 0..=4 {
                let t = (from + 22.5 * k as f32).to_radians();
                hull.push((cx + r * t.cos(), cy + r * t.sin()));
            }
        }
        let cut = Quad::new([(3.0, 3.0), (87.0, 3.0), (87.0, 87.0), (3.0, 87.0)]);
        let q = straight_runs_quad(&hull, &cut).expect("four runs");
        for (got, want) in q
            .corners
            .iter()
            .zip([(0.0, 0.0), (s, 0.0), (s, s), (0.0, s)])
        {
            assert!(
                (got.0 - want.0).abs() < 0.01 && (got.1 - want.1).abs() < 0.01,
                "{q:?}"
            );
        }
        // A hull without straight runs (an octagon of short sides) has none.
        let octagon: Vec<(f32, f32)> = (0..16)
            .map(|k| {
                let t = (k as f32 * 22.5f32).to_radians();
                (45.0 + 45.0 * t.cos(), 45.0 + 45.0 * t.sin())
            })
            .collect();
        assert!(straight_runs_quad(&octagon, &cut).is_none());
    }

    #[test]
    fn frame_sides_and_corners_of_lines() {
        let q = Quad::new([(0.0, 10.0), (50.0, 10.0), (50.0, 99.0), (0.0, 99.0)]);
        assert_eq!(
            frame_sides(&q, 100.0, 100.0, 3.0),
            [false, false, true, true]
        );
        let lines = [
            (0.0, 1.0, 10.0),
            (1.0, 0.0, 50.0),
            (0.0, 1.0, 99.0),
            (1.0, 0.0, 0.0),
        ];
        let c = corners_of(&lines).expect("corners");
        assert_eq!(c.corners, q.corners);
        let e = expand(&q, 1.0);
        assert_eq!(e.corners[1], (75.0, -34.5));
    }
}
