//! Plane geometry and sampling shared by the stages: the [`Quad`] a grid is
//! found as, the [`Homography`] that maps the straightened grid onto the
//! photo, the rectified cell size, bilinear sampling and the one box
//! downscale (used by the search and by the rectifier).

use image::GrayImage;

/// Side of one cell in the rectified grid, in pixels: the classifier's tile
/// spec cuts a 40x40 centre from it (see `cells`).
pub(crate) const CELL_PX: usize = 48;

/// Side of a rectified 9x9 grid image in pixels (9 * 48 = 432).
#[cfg(test)]
pub(crate) const GRID_PX: usize = 9 * CELL_PX;

/// A quadrilateral in photo pixel coordinates: corners in the order
/// top-left, top-right, bottom-right, bottom-left (clockwise on screen).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Quad {
    /// `[tl, tr, br, bl]` as `(x, y)`; pixel centres are at integer + 0.5
    /// only by convention of the caller, this type does not care.
    pub corners: [(f32, f32); 4],
}

impl Quad {
    /// Builds a quad from its four corners `tl, tr, br, bl`.
    pub fn new(corners: [(f32, f32); 4]) -> Self {
        Quad { corners }
    }

    /// Area (shoelace formula; positive for clockwise-on-screen corners).
    pub(crate) fn area(&self) -> f32 {
        let c = &self.corners;
        let mut s = 0.0f32;
        for i in 0..4 {
            let (x0, y0) = c[i];
            let (x1, y1) = c[(i + 1) % 4];
            s += x0 * y1 - x1 * y0;
        }
        0.5 * s
    }

    /// Axis-aligned bounding box `(x0, y0, x1, y1)` of the corners.
    pub(crate) fn bounds(&self) -> (f32, f32, f32, f32) {
        let xs = self.corners.map(|c| c.0);
        let ys = self.corners.map(|c| c.1);
        let lo = |v: [f32; 4]| v.iter().copied().fold(f32::MAX, f32::min);
        let hi = |v: [f32; 4]| v.iter().copied().fold(f32::MIN, f32::max);
        (lo(xs), lo(ys), hi(xs), hi(ys))
    }

    /// The quad moved by `(dx, dy)`.
    pub(crate) fn translated(&self, (dx, dy): (f32, f32)) -> Quad {
        Quad::new(self.corners.map(|(x, y)| (x + dx, y + dy)))
    }

    /// The quad scaled about the origin, e.g. to map corners found on a
    /// downscaled image back to full resolution.
    pub(crate) fn scaled(&self, s: f32) -> Quad {
        let mut q = *self;
        for c in &mut q.corners {
            c.0 *= s;
            c.1 *= s;
        }
        q
    }

    /// The same physical quadrilateral with its corner labels moved as if
    /// the grid were rotated clockwise by `quarter_turns` x 90 degrees: after
    /// one turn the old bottom-left corner is the new top-left. This matches
    /// `cells::rotate_tiles`, so a homography built from the rotated quad
    /// maps the rotated tiles' grid back onto the photo.
    pub fn rotated(&self, quarter_turns: u8) -> Quad {
        let mut c = self.corners;
        for _ in 0..(quarter_turns % 4) {
            c = [c[3], c[0], c[1], c[2]];
        }
        Quad { corners: c }
    }

    /// Whether the point lies inside the quad (a convex quad in either
    /// corner order: the point is on the same side of all four edges).
    pub(crate) fn contains(&self, p: (f32, f32)) -> bool {
        let c = &self.corners;
        let cross = |i: usize| {
            let (a, b) = (c[i], c[(i + 1) % 4]);
            (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0)
        };
        let s = [cross(0), cross(1), cross(2), cross(3)];
        s.iter().all(|&v| v >= 0.0) || s.iter().all(|&v| v <= 0.0)
    }

    /// The mean of the corners.
    pub(crate) fn centre(&self) -> (f32, f32) {
        let (sx, sy) = self
            .corners
            .iter()
            .fold((0.0, 0.0), |(x, y), c| (x + c.0, y + c.1));
        (0.25 * sx, 0.25 * sy)
    }

    /// Length of the longest side, in pixels.
    pub(crate) fn max_side(&self) -> f32 {
        (0..4)
            .map(|i| dist(self.corners[i], self.corners[(i + 1) % 4]))
            .fold(0.0, f32::max)
    }
}

/// The largest f32 below one half.
const JUST_UNDER_HALF: f32 = 0.5 - f32::EPSILON / 4.0;

/// `x.round() as i32` for every `f32` (halves away from zero, NaN to 0,
/// saturating), without a call: on baseline x86-64 (no SSE4.1 rounding
/// instruction) `f32::round` is a call to libm's `roundf`, and the comb
/// search and the fit of a grid's sides round in their innermost loops.
/// Adding the largest f32 below one half, with `x`'s sign, and truncating
/// rounds half away from zero exactly as `round` does (the lowering LLVM
/// itself uses where SSE4.1 is there); the truncation to i32 saturates
/// and takes NaN to 0, as `as i32` after `round` does.
#[inline]
pub(crate) fn round_i32(x: f32) -> i32 {
    (x + JUST_UNDER_HALF.copysign(x)) as i32
}

pub(crate) fn dist(a: (f32, f32), b: (f32, f32)) -> f32 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

/// Corner error between a found quad and the truth: the largest of the four
/// corner distances, in pixels (the worst corner is what breaks a warp).
pub fn corner_error(found: &Quad, truth: &Quad) -> f32 {
    (0..4)
        .map(|i| dist(found.corners[i], truth.corners[i]))
        .fold(0.0, f32::max)
}

/// A plane projective transform (3x3, row-major, `m[8]` normalised to 1 when
/// possible). Computed in `f64` because photo coordinates reach thousands of
/// pixels and the 8x8 solve is ill-conditioned in `f32`.
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Homography {
    /// Row-major 3x3 matrix.
    pub(crate) m: [f64; 9],
}

impl Homography {
    /// The identity transform.
    #[cfg(test)]
    pub(crate) fn identity() -> Self {
        Homography {
            m: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
        }
    }

    /// The homography mapping each `src[i]` onto `dst[i]`. `None` when the
    /// points are degenerate (three collinear, repeated points).
    pub(crate) fn from_points(src: [(f64, f64); 4], dst: [(f64, f64); 4]) -> Option<Self> {
        // Normalise both point sets (Hartley) so the solve is well conditioned.
        let (ts, src_n) = normalise(src)?;
        let (td, dst_n) = normalise(dst)?;
        let mut a = [[0.0f64; 9]; 8];
        for i in 0..4 {
            let (x, y) = src_n[i];
            let (u, v) = dst_n[i];
            a[2 * i] = [x, y, 1.0, 0.0, 0.0, 0.0, -u * x, -u * y, u];
            a[2 * i + 1] = [0.0, 0.0, 0.0, x, y, 1.0, -v * x, -v * y, v];
        }
        let h = solve8(a)?;
        let hn = Homography {
            m: [h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7], 1.0],
        };
        // H = Td^-1 * Hn * Ts
        let td_inv = td.inverse()?;
        let full = td_inv.compose(&hn).compose(&ts);
        Some(full.normalised())
    }

    /// The homography mapping the unit square scaled to `side` (corners
    /// (0,0), (side,0), (side,side), (0,side)) onto `quad` (tl, tr, br, bl).
    pub fn square_to_quad(side: f64, quad: &Quad) -> Option<Self> {
        let s = [(0.0, 0.0), (side, 0.0), (side, side), (0.0, side)];
        let d = quad.corners.map(|(x, y)| (x as f64, y as f64));
        Homography::from_points(s, d)
    }

    /// `self` applied after `other` (matrix product `self * other`).
    pub(crate) fn compose(&self, other: &Homography) -> Homography {
        let a = &self.m;
        let b = &other.m;
        let mut m = [0.0; 9];
        for r in 0..3 {
            for c in 0..3 {
                m[r * 3 + c] = (0..3).map(|k| a[r * 3 + k] * b[k * 3 + c]).sum();
            }
        }
        Homography { m }
    }

    fn normalised(self) -> Homography {
        let s = self.m[8];
        if s.abs() > 1e-12 {
            Homography {
                m: self.m.map(|v| v / s),
            }
        } else {
            self
        }
    }

    /// Maps a point; returns non-finite values for points on the line at
    /// infinity (callers sampling inside a valid quad never hit it).
    pub fn map(&self, x: f32, y: f32) -> (f32, f32) {
        let (u, v) = self.map64(x as f64, y as f64);
        (u as f32, v as f32)
    }

    /// [`Homography::map`] in `f64`.
    pub(crate) fn map64(&self, x: f64, y: f64) -> (f64, f64) {
        let m = &self.m;
        let w = m[6] * x + m[7] * y + m[8];
        (
            (m[0] * x + m[1] * y + m[2]) / w,
            (m[3] * x + m[4] * y + m[5]) / w,
        )
    }

    /// [`Homography::map64`] of the points `(xs[k], y)`, into `(out_x[k],
    /// out_y[k])`: a whole row of points before any is used, so that the
    /// two divisions a point run several points at once in vector
    /// registers (compiled for AVX2 where the CPU has it). Each point's
    /// image is the very value `map64` gives it: the same operations in the
    /// same order.
    pub(crate) fn map_row(&self, xs: &[f64], y: f64, out_x: &mut [f64], out_y: &mut [f64]) {
        self.map_line::<false>(y, xs, out_x, out_y);
    }

    /// [`Homography::map64`] of the points `(x, ys[k])`, into `(out_x[k],
    /// out_y[k])`: [`Homography::map_row`] down a column, each point's
    /// image again the very value `map64` gives it.
    pub(crate) fn map_column(&self, x: f64, ys: &[f64], out_x: &mut [f64], out_y: &mut [f64]) {
        self.map_line::<true>(x, ys, out_x, out_y);
    }

    /// [`Homography::map_row`] (`COLUMN` false: `fixed` is the points' y,
    /// `along` their x) or [`Homography::map_column`] (`fixed` their x).
    fn map_line<const COLUMN: bool>(
        &self,
        fixed: f64,
        along: &[f64],
        out_x: &mut [f64],
        out_y: &mut [f64],
    ) {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU has AVX2 (checked above).
            unsafe { self.map_line_avx2::<COLUMN>(fixed, along, out_x, out_y) };
            return;
        }
        self.map_line_with::<COLUMN>(fixed, along, out_x, out_y);
    }

    /// [`Homography::map_line`] compiled for AVX2 (four lanes of f64).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn map_line_avx2<const COLUMN: bool>(
        &self,
        fixed: f64,
        along: &[f64],
        out_x: &mut [f64],
        out_y: &mut [f64],
    ) {
        self.map_line_with::<COLUMN>(fixed, along, out_x, out_y);
    }

    /// [`Homography::map_line`], inlined into each of its compiled forms.
    /// The terms in the fixed coordinate are worked out once and added
    /// where `map64` adds them (x's term, then y's, then the constant), so
    /// every sum rounds as it would point by point.
    #[inline(always)]
    fn map_line_with<const COLUMN: bool>(
        &self,
        fixed: f64,
        along: &[f64],
        out_x: &mut [f64],
        out_y: &mut [f64],
    ) {
        let m = &self.m;
        let points = along.iter().zip(out_x.iter_mut()).zip(out_y.iter_mut());
        if COLUMN {
            let (wx, ux, vx) = (m[6] * fixed, m[0] * fixed, m[3] * fixed);
            for ((&y, u), v) in points {
                let w = wx + m[7] * y + m[8];
                (*u, *v) = ((ux + m[1] * y + m[2]) / w, (vx + m[4] * y + m[5]) / w);
            }
        } else {
            let (wy, uy, vy) = (m[7] * fixed, m[1] * fixed, m[4] * fixed);
            for ((&x, u), v) in points {
                let w = m[6] * x + wy + m[8];
                (*u, *v) = ((m[0] * x + uy + m[2]) / w, (m[3] * x + vy + m[5]) / w);
            }
        }
    }

    /// This transform followed by moving every point by `(-dx, -dy)`: the
    /// same map onto an image that starts at `(dx, dy)` of this one's.
    pub fn shifted(&self, dx: f32, dy: f32) -> Homography {
        let m = &self.m;
        let (dx, dy) = (f64::from(dx), f64::from(dy));
        Homography {
            m: [
                m[0] - dx * m[6],
                m[1] - dx * m[7],
                m[2] - dx * m[8],
                m[3] - dy * m[6],
                m[4] - dy * m[7],
                m[5] - dy * m[8],
                m[6],
                m[7],
                m[8],
            ],
        }
    }

    /// The inverse transform; `None` when singular.
    pub fn inverse(&self) -> Option<Homography> {
        let m = &self.m;
        let c00 = m[4] * m[8] - m[5] * m[7];
        let c01 = m[5] * m[6] - m[3] * m[8];
        let c02 = m[3] * m[7] - m[4] * m[6];
        let det = m[0] * c00 + m[1] * c01 + m[2] * c02;
        if !det.is_finite() || det.abs() < 1e-300 {
            return None;
        }
        let inv = [
            c00,
            m[2] * m[7] - m[1] * m[8],
            m[1] * m[5] - m[2] * m[4],
            c01,
            m[0] * m[8] - m[2] * m[6],
            m[2] * m[3] - m[0] * m[5],
            c02,
            m[1] * m[6] - m[0] * m[7],
            m[0] * m[4] - m[1] * m[3],
        ];
        Some(
            Homography {
                m: inv.map(|v| v / det),
            }
            .normalised(),
        )
    }
}

/// Similarity transform moving the centroid to 0 and the mean distance to
/// sqrt(2); returns it and the transformed points.
fn normalise(p: [(f64, f64); 4]) -> Option<(Homography, [(f64, f64); 4])> {
    let cx = p.iter().map(|q| q.0).sum::<f64>() / 4.0;
    let cy = p.iter().map(|q| q.1).sum::<f64>() / 4.0;
    let md = p
        .iter()
        .map(|q| ((q.0 - cx).powi(2) + (q.1 - cy).powi(2)).sqrt())
        .sum::<f64>()
        / 4.0;
    if !md.is_finite() || md < 1e-9 {
        return None;
    }
    let s = std::f64::consts::SQRT_2 / md;
    let t = Homography {
        m: [s, 0.0, -s * cx, 0.0, s, -s * cy, 0.0, 0.0, 1.0],
    };
    Some((t, p.map(|(x, y)| (s * (x - cx), s * (y - cy)))))
}

/// Solves the 8x8 system whose augmented matrix is `a` (last column = rhs)
/// by Gaussian elimination with partial pivoting.
fn solve8(mut a: [[f64; 9]; 8]) -> Option<[f64; 8]> {
    for col in 0..8 {
        let piv = (col..8).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[piv][col].abs() < 1e-10 {
            return None;
        }
        a.swap(col, piv);
        let pivot_row = a[col];
        for (r, row) in a.iter_mut().enumerate() {
            if r != col {
                let f = row[col] / pivot_row[col];
                if f != 0.0 {
                    for (v, p) in row.iter_mut().zip(pivot_row.iter()).skip(col) {
                        *v -= f * p;
                    }
                }
            }
        }
    }
    let mut x = [0.0; 8];
    for i in 0..8 {
        x[i] = a[i][8] / a[i][i];
        if !x[i].is_finite() {
            return None;
        }
    }
    Some(x)
}

/// Integer-factor box downscale (area average) of the whole image; factor 1
/// copies.
pub(crate) fn downscale(gray: &GrayImage, k: u32) -> GrayImage {
    if k <= 1 {
        return gray.clone();
    }
    downscale_region(gray, 0, 0, gray.width(), gray.height(), k)
}

/// Output rows per task of [`downscale_region`]: a band of a 12 MP photo
/// halved is 64 x 2 = 128 input rows (1 MB), enough work per task that
/// splitting costs nothing, and enough tasks that two cores share evenly.
const DOWNSCALE_BAND_ROWS: usize = 64;

/// Box-average downscale by `k` of the region `(x0, y0, w, h)` (clipped to
/// the image; partial blocks at the right and bottom are dropped): output
/// pixel i covers input pixels `[x0 + i*k, x0 + (i+1)*k)`.
///
/// Bands of output rows are made on the rayon pool: the page search halves
/// a 12 MP photo for its finer pass, and that was a third of the pass.
pub(crate) fn downscale_region(
    gray: &GrayImage,
    x0: u32,
    y0: u32,
    w: u32,
    h: u32,
    k: u32,
) -> GrayImage {
    use rayon::prelude::*;
    let k = k.max(1);
    let (iw, ih) = gray.dimensions();
    let x0 = x0.min(iw);
    let y0 = y0.min(ih);
    let w = w.min(iw - x0);
    let h = h.min(ih - y0);
    let (ow, oh) = ((w / k) as usize, (h / k) as usize);
    let ku = k as usize;
    let (x0, y0) = (x0 as usize, y0 as usize);
    let raw = gray.as_raw();
    let mut out = vec![0u8; ow * oh];
    if ow > 0 {
        let (from, stride) = ((x0, y0), iw as usize);
        out.par_chunks_mut(ow * DOWNSCALE_BAND_ROWS)
            .enumerate()
            .for_each(|(band, rows)| {
                let first = band * DOWNSCALE_BAND_ROWS;
                #[cfg(target_arch = "x86_64")]
                if std::arch::is_x86_feature_detected!("avx2") {
                    // SAFETY: the CPU has AVX2 (checked above).
                    unsafe { band_means_avx2(raw, stride, from, ku, first, rows, ow) };
                    return;
                }
                band_means(raw, stride, from, ku, first, rows, ow);
            });
    }
    GrayImage::from_raw(ow as u32, oh as u32, out).unwrap_or_else(|| GrayImage::new(0, 0))
}

/// [`band_means`] compiled for AVX2 (the column sums eight pixels at a
/// time).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn band_means_avx2(
    raw: &[u8],
    stride: usize,
    from: (usize, usize),
    k: usize,
    first: usize,
    rows: &mut [u8],
    ow: usize,
) {
    band_means(raw, stride, from, k, first, rows, ow);
}

/// The output rows `rows` (`ow` pixels each) of [`downscale_region`] from
/// output row `first` on: each the means of `k` x `k` blocks of `raw`
/// (`stride` pixels a row) from the region's corner `from`.
///
/// Two steps per output row: the k input rows are added column by column
/// into `cols` (a straight loop over slices that the compiler turns into
/// wide vector adds), then each run of k columns is summed once. The same
/// integer sums as adding each k x k block directly, with about one
/// operation per input pixel instead of several.
#[inline(always)]
fn band_means(
    raw: &[u8],
    stride: usize,
    from: (usize, usize),
    k: usize,
    first: usize,
    rows: &mut [u8],
    ow: usize,
) {
    // A column's sum over k rows fits 16 bits up to k = 257 (257 * 255 <
    // 2^16): twice the columns to a vector add of u32s.
    if k <= MAX_ROWS_IN_U16 {
        band_means_in::<u16>(raw, stride, from, k, first, rows, ow);
    } else {
        band_means_in::<u32>(raw, stride, from, k, first, rows, ow);
    }
}

/// Most rows of u8 pixels a u16 holds the sum of: 257 * 255 <= 65535
/// (the downscale's and the threshold's column sums).
pub(crate) const MAX_ROWS_IN_U16: usize = (u16::MAX / u8::MAX as u16) as usize;

/// [`band_means`] with the column sums in `S`, wide enough for `k` rows.
#[inline(always)]
fn band_means_in<S>(
    raw: &[u8],
    stride: usize,
    (x0, y0): (usize, usize),
    k: usize,
    first: usize,
    rows: &mut [u8],
    ow: usize,
) where
    S: Copy + Default + From<u8> + Into<u32> + std::ops::AddAssign,
{
    let norm = (k * k) as u32;
    let mut cols = vec![S::default(); ow * k];
    for (i, orow) in rows.chunks_exact_mut(ow).enumerate() {
        let oy = first + i;
        cols.iter_mut().for_each(|a| *a = S::default());
        for y in y0 + oy * k..y0 + (oy + 1) * k {
            let start = y * stride + x0;
            let row = &raw[start..start + ow * k];
            for (a, &p) in cols.iter_mut().zip(row) {
                *a += S::from(p);
            }
        }
        match k {
            2 => block_means::<2, S>(orow, &cols),
            3 => block_means::<3, S>(orow, &cols),
            4 => block_means::<4, S>(orow, &cols),
            5 => block_means::<5, S>(orow, &cols),
            6 => block_means::<6, S>(orow, &cols),
            7 => block_means::<7, S>(orow, &cols),
            8 => block_means::<8, S>(orow, &cols),
            _ => {
                for (o, block) in orow.iter_mut().zip(cols.chunks_exact(k)) {
                    let a: u32 = block.iter().map(|&c| c.into()).sum();
                    *o = ((a + norm / 2) / norm) as u8;
                }
            }
        }
    }
}

/// One output row of [`downscale_region`] by a factor `K` known when
/// compiling: each run of `K` column sums (`cols`, over `K` rows) summed
/// and divided by `K * K`, rounded. The factors of photos (2 for the
/// finer page search of a 12 MP photo, 3 to 8 for the first) get this
/// copy, where the block's sum unrolls and the division by a constant is
/// a multiplication: with the factor known only at run time, each output
/// pixel took a hardware division.
#[inline(always)]
fn block_means<const K: usize, S: Copy + Into<u32>>(orow: &mut [u8], cols: &[S]) {
    let norm = (K * K) as u32;
    for (o, block) in orow.iter_mut().zip(cols.chunks_exact(K)) {
        let a: u32 = block.iter().map(|&c| c.into()).sum();
        *o = ((a + norm / 2) / norm) as u8;
    }
}

/// Bilinear sample at index-space position (x, y) (pixel centres at
/// integers); coordinates outside the image clamp to the border, so a grid
/// cut by the frame continues with the edge pixels instead of black.
#[inline]
pub(crate) fn bilinear(gray: &GrayImage, x: f32, y: f32) -> f32 {
    let (w, h) = gray.dimensions();
    if w == 0 || h == 0 || !x.is_finite() || !y.is_finite() {
        return 255.0;
    }
    let x = x.clamp(0.0, (w - 1) as f32);
    let y = y.clamp(0.0, (h - 1) as f32);
    // At least 0, so the conversion floors (`floor` is a libm call on the
    // baseline x86-64 target, and this runs for every sample of a warp).
    // SAFETY: x and y are finite and clamped to the image (a side below
    // 2^32), so they convert unchecked: one instruction each, where `as`
    // saturates, and to usize has no single instruction on x86-64.
    let (x0, y0) = unsafe {
        (
            x.to_int_unchecked::<u32>() as usize,
            y.to_int_unchecked::<u32>() as usize,
        )
    };
    let (fx, fy) = (x - x0 as f32, y - y0 as f32);
    let x1 = (x0 + 1).min(w as usize - 1);
    let y1 = (y0 + 1).min(h as usize - 1);
    let raw = gray.as_raw();
    let wi = w as usize;
    let p00 = raw[y0 * wi + x0] as f32;
    let p10 = raw[y0 * wi + x1] as f32;
    let p01 = raw[y1 * wi + x0] as f32;
    let p11 = raw[y1 * wi + x1] as f32;
    let top = p00 + (p10 - p00) * fx;
    let bot = p01 + (p11 - p01) * fx;
    top + (bot - top) * fy
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_i32_is_round_as_i32_for_every_kind_of_f32() {
        let special = [
            0.5f32,
            -0.5,
            1.5,
            -1.5,
            2.5,
            -2.5,
            0.499_999_97,
            -0.499_999_97,
        ];
        let more = [
            8_388_607.5f32,
            -8_388_607.5,
            8_388_608.0,
            3e9,
            -3e9,
            f32::MAX,
            f32::MIN,
        ];
        let edges = [
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            0.0,
            -0.0,
            f32::MIN_POSITIVE,
        ];
        for x in special.into_iter().chain(more).chain(edges) {
            assert_eq!(round_i32(x), x.round() as i32, "{x}");
        }
        // A spread of every exponent and sign: each 4099th bit pattern.
        for bits in (0..=u32::MAX).step_by(4099) {
            let x = f32::from_bits(bits);
            assert_eq!(round_i32(x), x.round() as i32, "{x} ({bits:#x})");
        }
    }

    #[test]
    fn quad_contains_its_inside_in_either_corner_order() {
        let q = Quad::new([(0.0, 0.0), (10.0, 1.0), (9.0, 10.0), (1.0, 9.0)]);
        let r = Quad::new([q.corners[3], q.corners[2], q.corners[1], q.corners[0]]);
        for quad in [q, r] {
            assert!(quad.contains((5.0, 5.0)));
            assert!(!quad.contains((5.0, -0.5)));
            assert!(!quad.contains((11.0, 5.0)));
        }
    }

    #[test]
    fn homography_maps_corners_and_inverts() {
        let q = Quad::new([(10.5, 20.0), (400.0, 35.0), (380.0, 410.0), (5.0, 390.0)]);
        let h = Homography::square_to_quad(432.0, &q).unwrap();
        let sq = [(0.0, 0.0), (432.0, 0.0), (432.0, 432.0), (0.0, 432.0)];
        for (i, &(x, y)) in sq.iter().enumerate() {
            let (u, v) = h.map(x, y);
            assert!((u - q.corners[i].0).abs() < 1e-3 && (v - q.corners[i].1).abs() < 1e-3);
        }
        let inv = h.inverse().unwrap();
        let (x, y) = inv.map(q.corners[2].0, q.corners[2].1);
        assert!((x - 432.0).abs() < 1e-3 && (y - 432.0).abs() < 1e-3);
    }

    #[test]
    fn degenerate_points_give_none() {
        let q = Quad::new([(0.0, 0.0), (1.0, 1.0), (2.0, 2.0), (3.0, 3.0)]);
        assert!(Homography::square_to_quad(10.0, &q).is_none());
    }

    #[test]
    fn quad_rotation_and_error() {
        let q = Quad::new([(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)]);
        assert_eq!(q.rotated(1).corners[0], (0.0, 10.0));
        assert_eq!(q.rotated(4), q);
        assert!((q.area() - 100.0).abs() < 1e-4);
        let mut f = q;
        f.corners[2] = (13.0, 14.0);
        assert!((corner_error(&f, &q) - 5.0).abs() < 1e-4);
    }

    #[test]
    fn a_row_or_column_mapped_at_once_is_each_point_mapped_alone() {
        // A quad seen in perspective, points on and off it.
        let q = Quad::new([(13.2, 40.7), (301.9, 22.4), (352.3, 330.8), (-20.6, 290.1)]);
        for h in [
            Homography::square_to_quad(333.0, &q).unwrap(),
            Homography::square_to_quad(333.0, &q)
                .unwrap()
                .inverse()
                .unwrap(),
        ] {
            let xs: Vec<f64> = (-20..380).map(|x| x as f64 * 0.93 + 0.5).collect();
            let (mut us, mut vs) = (vec![0.0; xs.len()], vec![0.0; xs.len()]);
            for y in (-10..350).step_by(7) {
                let y = y as f64 + 0.5;
                h.map_row(&xs, y, &mut us, &mut vs);
                for (k, &x) in xs.iter().enumerate() {
                    let (u, v) = h.map64(x, y);
                    assert_eq!(
                        (us[k].to_bits(), vs[k].to_bits()),
                        (u.to_bits(), v.to_bits())
                    );
                }
                // The same points down a column: x the row's y, ys its xs.
                h.map_column(y, &xs, &mut us, &mut vs);
                for (k, &x) in xs.iter().enumerate() {
                    let (u, v) = h.map64(y, x);
                    assert_eq!(
                        (us[k].to_bits(), vs[k].to_bits()),
                        (u.to_bits(), v.to_bits())
                    );
                }
            }
        }
    }

    #[test]
    fn downscale_averages_whole_image_and_region() {
        let g = GrayImage::from_fn(8, 4, |x, _| image::Luma([if x % 2 == 0 { 0 } else { 200 }]));
        let d = downscale(&g, 2);
        assert_eq!(d.dimensions(), (4, 2));
        assert!(d.pixels().all(|p| p[0] == 100));
        let r = downscale_region(&g, 3, 1, 100, 100, 2);
        assert_eq!(r.dimensions(), (2, 1));
        assert!(r.pixels().all(|p| p[0] == 100));
    }

    #[test]
    fn downscale_is_the_rounded_mean_of_each_block() {
        // 277 rows: several bands of DOWNSCALE_BAND_ROWS at k = 2.
        let g = GrayImage::from_fn(103, 277, |x, y| {
            image::Luma([((x * 37 + y * 91) % 256) as u8])
        });
        // Every factor with a copy of its own (2 to 8) and two without.
        let cases = [(0, 0, 2), (5, 3, 3), (2, 1, 4), (0, 0, 5), (1, 2, 6)];
        let more = [(0, 0, 7), (3, 0, 8), (0, 0, 9), (0, 0, 1)];
        for (x0, y0, k) in cases.into_iter().chain(more) {
            let d = downscale_region(&g, x0, y0, 1000, 1000, k);
            for (ox, oy, p) in d.enumerate_pixels() {
                let mut sum = 0;
                for y in y0 + oy * k..y0 + (oy + 1) * k {
                    for x in x0 + ox * k..x0 + (ox + 1) * k {
                        sum += u32::from(g.get_pixel(x, y)[0]);
                    }
                }
                assert_eq!(
                    u32::from(p[0]),
                    (sum + k * k / 2) / (k * k),
                    "k {k} at {ox},{oy}"
                );
            }
        }
    }

    #[test]
    fn white_downscaled_by_the_largest_factors_stays_white() {
        // The most rows a 16-bit column sum holds, and one more (summed in
        // 32 bits): all 255, the sums at their largest.
        let g = GrayImage::from_pixel(520, 520, image::Luma([255]));
        for k in [MAX_ROWS_IN_U16, MAX_ROWS_IN_U16 + 1] {
            let d = downscale_region(&g, 0, 0, 520, 520, k as u32);
            assert_eq!(d.dimensions(), (2, 2), "k {k}");
            assert!(d.pixels().all(|p| p[0] == 255), "k {k}");
        }
    }

    #[test]
    fn bilinear_interpolates_and_clamps() {
        let g = GrayImage::from_fn(2, 1, |x, _| image::Luma([if x == 0 { 0 } else { 100 }]));
        assert!((bilinear(&g, 0.25, 0.0) - 25.0).abs() < 1e-4);
        assert_eq!(bilinear(&g, -5.0, 3.0), 0.0);
        assert_eq!(bilinear(&g, f32::NAN, 0.0), 255.0);
    }
}
