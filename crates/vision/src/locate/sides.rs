//! Work-image helpers on a quad's sides: which lie on the image frame, the
//! quad grown about its centre, sides moved onto the darkest line near
//! them, and the quad whose sides lie on four given lines.

use image::GrayImage;

use crate::geometry::Quad;

/// A side shorter than this (pixels) is too short to fit a line along.
const MIN_SIDE_LEN: f32 = 8.0;

/// How far [`fit_sides`] may move each end of a side along its normal, in
/// cells (side length / 9): enough to swing a side drawn across a cut-off
/// corner back onto the border, not enough to jump to the next grid line.
const FIT_SHIFT_CELLS: f32 = 0.4;

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
                let x = (sd.a.0 + sd.dx * t + sd.nx * o).round() as i32;
                let y = (sd.a.1 + sd.dy * t + sd.ny * o).round() as i32;
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
