//! Grids inside a larger lattice: a Samurai is five 9x9 grids drawn as one
//! connected figure, so its hull is the whole 21x21-cell figure and the
//! comb check of the hull fails. Here the candidate is warped to a square,
//! its cells counted from the profiles' autocorrelation and the comb of
//! evenly spaced lines that fits them best, every cell side of the lattice
//! is tested for a printed line, and every n x n window whose cell sides
//! are all printed is a grid candidate of its own, unless it lies inside a
//! larger one (a 16x16 whose comb was missed: its 9x9 windows are no
//! grids).

use image::GrayImage;

use crate::geometry::{Homography, Quad};

/// Bins of the warped square, at most: enough for 1 px lines of a
/// full-frame figure at the work resolution.
const MAX_BINS: usize = 1024;
/// ... and at least (a small figure still gets a few bins per cell).
const MIN_BINS: usize = 128;

/// Fewest and most cells per side of a lattice worth splitting: fewer than
/// 10 is a single grid (the normal comb check handles it), more than 40 is
/// ruled paper or a texture.
const MIN_CELLS: usize = 10;
/// Most cells per side.
const MAX_CELLS: usize = 40;

/// Lags within this fraction of the best autocorrelation count as the
/// pitch; the smallest such lag wins, because multiples of the pitch
/// correlate as well as the pitch itself.
const PITCH_SHARE: f32 = 0.8;

/// A cell side is printed when its darkness is at least this fraction of
/// the strong sides' (the 90th percentile): on 24 photographed Samurai the
/// blank gaps between grids measured at most 0.02, faint thin lines
/// printed in gray as little as 0.11 (the box lines saturate).
const SIDE_PRESENT: f32 = 0.06;

/// Sides of a window that may be missing when it is a grid: the
/// threshold's local mean beside a cluster of bold digits, or a photo's
/// blur, can swallow a faint thin line over a side (a Samurai on a checked
/// cloth, blurred by 5 % of a cell: 3 and 4 sides of its grids' 180). A
/// window one cell off a Samurai's grid has at least five sides in the
/// blank gap between grids (a row above the centre grid: three cell tops
/// and two cell sides), so four is the most that keeps it out.
const MAX_MISSING_SIDES: usize = 4;

/// Percentile of the cell sides' darkness taken as "a printed line".
const STRONG_PERCENTILE: usize = 90;

/// Each end of a cell side is skipped over this fraction of the cell, where
/// the crossing line would count as the side's own.
const SIDE_END_MARGIN: f32 = 0.2;

/// A cell whose inner part is darker than this on average is solid ink
/// (a crossword's black square, which saturates the darkness); a bold
/// digit of a Samurai photographed at 16 px cells darkened 0.60 of it.
const SOLID_CELL: f32 = 0.8;

/// Line position tolerance across a side, as a fraction of a cell.
const SIDE_TOL: f32 = 0.15;

/// How far (in cells) a lattice's outer line may lie from the candidate's
/// edge: the threshold thickens a border by a pixel or two a side, and a
/// quarter of a cell keeps the next line from passing as the outer one.
const OUTER_REACH: f64 = 0.25;

/// The margin (in cells) left around a lattice's outer lines when it is
/// warped between them: more than a side's tolerance, so a leaning outer
/// line stays inside the square.
const OUTER_MARGIN: f64 = 0.25;

/// The step (bins) in which outer lines are placed: a line drawn on from
/// two places doubles their error at the far corner.
const OUTER_STEP: f64 = 0.5;

/// The darkness of the quad warped to a `bins`-square (nearest sample).
fn warp_dark(dark: &GrayImage, g2p: &Homography, bins: usize) -> Vec<f32> {
    let (w, h) = (dark.width() as i64, dark.height() as i64);
    let raw = dark.as_raw();
    let mut out = vec![0.0f32; bins * bins];
    // Each row's bins mapped at once (see `Homography::map_row`), then read.
    let centres: Vec<f64> = (0..bins).map(|u| u as f64 + 0.5).collect();
    let (mut xs, mut ys) = (vec![0.0; bins], vec![0.0; bins]);
    for (v, row) in out.chunks_exact_mut(bins.max(1)).enumerate() {
        g2p.map_row(&centres, v as f64 + 0.5, &mut xs, &mut ys);
        for ((o, &x), &y) in row.iter_mut().zip(&xs).zip(&ys) {
            let (xi, yi) = (floor_i64(x), floor_i64(y));
            if xi >= 0 && yi >= 0 && xi < w && yi < h {
                *o = raw[(yi * w + xi) as usize] as f32 / 255.0;
            }
        }
    }
    out
}

/// `x.floor() as i64`, without a call: on baseline x86-64 (no SSE4.1
/// rounding instruction) `f64::floor` is a call to libm's `floor`, made
/// twice for each of the warp's up to a million samples. The cast
/// truncates towards zero (saturating, NaN to 0, as the floor's cast
/// does), which is one above the floor for a negative non-integer.
#[inline]
fn floor_i64(x: f64) -> i64 {
    let t = x as i64;
    if (t as f64) > x {
        t.saturating_sub(1)
    } else {
        t
    }
}

/// The darkness of the warped square summed down each column and along
/// each row: `(columns, rows)`.
fn profiles(img: &[f32], bins: usize) -> (Vec<f32>, Vec<f32>) {
    let mut col = vec![0.0f32; bins];
    let mut row = vec![0.0f32; bins];
    for v in 0..bins {
        for u in 0..bins {
            col[u] += img[v * bins + u];
            row[v] += img[v * bins + u];
        }
    }
    (col, row)
}

/// The lattice pitch (bins) from the mean of both profiles'
/// autocorrelations, or `None` when no lag between the allowed cell
/// counts stands out.
fn pitch(col: &[f32], row: &[f32]) -> Option<f32> {
    let bins = col.len();
    let (mut col, mut row) = (col.to_vec(), row.to_vec());
    let centre = |p: &mut Vec<f32>| {
        let m = p.iter().sum::<f32>() / bins as f32;
        p.iter_mut().for_each(|x| *x -= m);
    };
    centre(&mut col);
    centre(&mut row);
    let (lo, hi) = (bins / MAX_CELLS, bins / (MIN_CELLS - 1));
    let ac: Vec<f32> = (lo..=hi)
        .map(|lag| {
            (0..bins - lag)
                .map(|i| col[i] * col[i + lag] + row[i] * row[i + lag])
                .sum::<f32>()
                / (bins - lag) as f32
        })
        .collect();
    // Local maxima only: a lag next to the pitch correlates nearly as well.
    let peak =
        |k: usize| (k == 0 || ac[k] >= ac[k - 1]) && (k + 1 == ac.len() || ac[k] >= ac[k + 1]);
    let best = ac.iter().copied().fold(0.0f32, f32::max);
    if best <= 0.0 {
        return None;
    }
    let k = (0..ac.len()).find(|&k| peak(k) && ac[k] >= PITCH_SHARE * best)?;
    Some((lo + k) as f32)
}

/// The cells per side of the lattice filling the square, its pitch `p`
/// read from the autocorrelation ([`pitch`]): of the counts within one of
/// `bins / p`, the one whose evenly spaced lines (the square's edges are
/// the lattice's outer lines) stand out most from the cells' middles in
/// the mean of both profiles.
///
/// A lag is a whole number of bins: a Samurai 413 bins wide has a pitch
/// of 19.7, and counted from the lag of 19 its 21 cells became 22, every
/// cell side from the middle on looked for a third of a cell off.
fn cell_count(col: &[f32], row: &[f32], p: f32) -> usize {
    let bins = col.len();
    let profile: Vec<f32> = col.iter().zip(row).map(|(a, b)| a + b).collect();
    let at = |x: f32| profile[(x.round().max(0.0) as usize).min(bins - 1)];
    let comb = |m: usize| -> f32 {
        let cell = bins as f32 / m as f32;
        let tol = (SIDE_TOL * cell).round().max(1.0) as i64;
        let line = |k: usize| {
            let x = k as f32 * cell;
            (-tol..=tol)
                .map(|d| at(x + d as f32))
                .fold(0.0f32, f32::max)
        };
        let lines = (0..=m).map(line).sum::<f32>() / (m + 1) as f32;
        let middles = (0..m).map(|k| at((k as f32 + 0.5) * cell)).sum::<f32>() / m as f32;
        lines - middles
    };
    let m = (bins as f32 / p).round() as usize;
    (m.saturating_sub(1).max(1)..=m + 1)
        .max_by(|&a, &b| comb(a).total_cmp(&comb(b)))
        .unwrap_or(m)
}

/// The corners (bins) of the outer lines of the `m`-cell lattice in the
/// warped square `img`: each outer line is found in the profile of either
/// half of the square across it (see [`outer_lines`]), which places it at
/// the halves' middles, a quarter and three quarters along, and is drawn
/// on through those two places to the corners.
fn outer_corners(img: &[f32], bins: usize, m: usize) -> Option<[(f64, f64); 4]> {
    let half = bins / 2;
    let band = |range: std::ops::Range<usize>, columns: bool| -> Vec<f32> {
        let mut p = vec![0.0f32; bins];
        for a in range {
            for (b, x) in p.iter_mut().enumerate() {
                *x += if columns {
                    img[a * bins + b]
                } else {
                    img[b * bins + a]
                };
            }
        }
        p
    };
    let (top, bottom) = (
        outer_lines(&band(0..half, true), m),
        outer_lines(&band(half..bins, true), m),
    );
    let (left, right) = (
        outer_lines(&band(0..half, false), m),
        outer_lines(&band(half..bins, false), m),
    );
    // Measured at a quarter (`near`) and three quarters (`far`) along:
    // where the line through them meets the near edge.
    let at_edge = |near: f64, far: f64| 1.5 * near - 0.5 * far;
    let corners = [
        (at_edge(top.0, bottom.0), at_edge(left.0, right.0)),
        (at_edge(top.1, bottom.1), at_edge(right.0, left.0)),
        (at_edge(bottom.1, top.1), at_edge(right.1, left.1)),
        (at_edge(bottom.0, top.0), at_edge(left.1, right.1)),
    ];
    corners
        .iter()
        .all(|&(u, v)| u.is_finite() && v.is_finite())
        .then_some(corners)
}

/// Where the outer lines of an `m`-cell lattice lie in `profile` (bins,
/// first and last): the pair, each within [`OUTER_REACH`] of a cell of the
/// profile's ends and in steps of [`OUTER_STEP`], whose `m + 1` evenly
/// spaced lines are darkest in sum.
fn outer_lines(profile: &[f32], m: usize) -> (f64, f64) {
    let bins = profile.len();
    let cell = bins as f64 / m as f64;
    let steps = (OUTER_REACH * cell / OUTER_STEP).round() as i64;
    // Linear between bins (the steps are finer than a bin), whose middles
    // are at half a bin.
    let at = |x: f64| -> f32 {
        let x = x - 0.5;
        let i = x.floor();
        let t = (x - i) as f32;
        let get = |k: f64| {
            if k < 0.0 || k >= bins as f64 {
                0.0
            } else {
                profile[k as usize]
            }
        };
        get(i) * (1.0 - t) + get(i + 1.0) * t
    };
    let comb = |a: f64, b: f64| -> f32 {
        let step = (b - a) / m as f64;
        (0..=m).map(|k| at(a + k as f64 * step)).sum()
    };
    // The ends themselves unless a pair is darker: an even profile gives
    // no reason to move.
    let end = bins as f64;
    let mut best = (comb(0.0, end), 0.0, end);
    for d0 in -steps..=steps {
        for d1 in -steps..=steps {
            let (a, b) = (d0 as f64 * OUTER_STEP, end + d1 as f64 * OUTER_STEP);
            let sum = comb(a, b);
            if sum > best.0 {
                best = (sum, a, b);
            }
        }
    }
    (best.1, best.2)
}

/// Darkness of every cell side of an `m`-cell lattice whose outer lines
/// are `margin` bins inside the square: `(horizontal, vertical)`,
/// `horizontal[k * m + c]` the side on line `k` above cell column `c`,
/// `vertical[k * m + r]` the side on line `k` left of cell row `r`.
fn sides(img: &[f32], bins: usize, m: usize, margin: f32) -> (Vec<f32>, Vec<f32>) {
    let cell = (bins as f32 - 2.0 * margin) / m as f32;
    let tol = (SIDE_TOL * cell).round().max(1.0) as i64;
    let at = |u: i64, v: i64| -> f32 {
        if u < 0 || v < 0 || u >= bins as i64 || v >= bins as i64 {
            0.0
        } else {
            img[v as usize * bins + u as usize]
        }
    };
    let side = |k: usize, c: usize, horizontal: bool| -> f32 {
        let across = (margin + k as f32 * cell).round() as i64;
        let a0 = (margin + (c as f32 + SIDE_END_MARGIN) * cell).round() as i64;
        let a1 = (margin + (c as f32 + 1.0 - SIDE_END_MARGIN) * cell).round() as i64;
        let mut s = 0.0;
        for a in a0..a1 {
            let best = (across - tol..=across + tol)
                .map(|x| if horizontal { at(a, x) } else { at(x, a) })
                .fold(0.0f32, f32::max);
            s += best;
        }
        s / (a1 - a0).max(1) as f32
    };
    let mut hor = vec![0.0f32; (m + 1) * m];
    let mut ver = vec![0.0f32; (m + 1) * m];
    for k in 0..=m {
        for c in 0..m {
            hor[k * m + c] = side(k, c, true);
            ver[k * m + c] = side(k, c, false);
        }
    }
    (hor, ver)
}

/// Mean darkness of every cell's inner part (without [`SIDE_END_MARGIN`]
/// of the cell at each side, where its lines are), row by row, the
/// lattice's outer lines `margin` bins inside the square.
fn cell_fill(img: &[f32], bins: usize, m: usize, margin: f32) -> Vec<f32> {
    let cell = (bins as f32 - 2.0 * margin) / m as f32;
    let mut out = Vec::with_capacity(m * m);
    for r in 0..m {
        for c in 0..m {
            let span = |i: usize| {
                let a = (margin + (i as f32 + SIDE_END_MARGIN) * cell).round() as usize;
                let b = (margin + (i as f32 + 1.0 - SIDE_END_MARGIN) * cell).round() as usize;
                (a.min(bins), b.min(bins))
            };
            let ((u0, u1), (v0, v1)) = (span(c), span(r));
            let mut sum = 0.0;
            for v in v0..v1 {
                sum += img[v * bins + u0..v * bins + u1].iter().sum::<f32>();
            }
            out.push(sum / ((u1 - u0) * (v1 - v0)).max(1) as f32);
        }
    }
    out
}

/// What [`lattice_windows`] found in a candidate.
#[derive(Debug, Default)]
pub(super) struct Lattice {
    /// Cells per side of the lattice; 0 when the candidate is no lattice
    /// of 10 to 40 cells.
    pub cells: usize,
    /// The size and quad (pixels of the image looked at, line centres) of
    /// each window found.
    pub windows: Vec<(usize, Quad)>,
}

/// The size and quad (work pixels, line centres) of every `n` x `n` window of the
/// lattice inside `quad` whose cell sides are all printed and none of
/// whose cells is solid (a crossword's black square has four printed
/// sides too), for each `n` in `sizes` (the whole lattice too: a 16x16
/// whose comb was missed), none inside a larger one. No windows when the
/// candidate is no lattice of 10 to 40 cells.
pub(super) fn lattice_windows(dark: &GrayImage, quad: &Quad, sizes: &[usize]) -> Lattice {
    let none = |cells| Lattice {
        cells,
        windows: Vec::new(),
    };
    let bins = (quad.max_side().round() as usize).clamp(MIN_BINS, MAX_BINS);
    let Some(g2p) = Homography::square_to_quad(bins as f64, quad) else {
        return none(0);
    };
    let img = warp_dark(dark, &g2p, bins);
    let (col, row) = profiles(&img, bins);
    let Some(p) = pitch(&col, &row) else {
        return none(0);
    };
    let m = cell_count(&col, &row, p);
    if !(MIN_CELLS..=MAX_CELLS).contains(&m) {
        return none(0);
    }
    // The candidate's quad is the outside of the figure's border, thickened
    // by the threshold and its closing, and its corners sit apart from the
    // lines' by different amounts: on a Samurai of 16-bin cells its outer
    // lines' centres lay 2-3 bins in, and the second line of the left
    // grids fell out of the side's tolerance. The square is warped again
    // with the outer lines the profiles of its halves show a margin inside
    // it, where they are whole whichever way they lean.
    let Some(corners) = outer_corners(&img, bins, m) else {
        return none(m);
    };
    // The margin widens the square, so the warp keeps its bins per pixel:
    // a nearest-sample warp coarser than the lines' pixels skips some.
    let margin = (OUTER_MARGIN * bins as f64 / m as f64).round();
    let side = bins + 2 * margin as usize;
    let far = side as f64 - margin;
    let inner = [(margin, margin), (far, margin), (far, far), (margin, far)];
    let Some(g2p) = Homography::from_points(inner, corners.map(|(u, v)| g2p.map64(u, v))) else {
        return none(m);
    };
    let img = warp_dark(dark, &g2p, side);
    let (hor, ver) = sides(&img, side, m, margin as f32);
    let mut all: Vec<f32> = hor.iter().chain(ver.iter()).copied().collect();
    let k = all.len() * STRONG_PERCENTILE / 100;
    let strong = *all.select_nth_unstable_by(k, f32::total_cmp).1;
    let present = |v: f32| v >= SIDE_PRESENT * strong && strong > 0.0;
    let fill = cell_fill(&img, side, m, margin as f32);
    let cell = (far - margin) / m as f64;
    // Largest size first: a window inside a larger one whose every cell
    // side is printed is part of that grid, not a grid of its own (nine
    // cells of a 16x16 have a 9x9's lines, but its box lines every fourth
    // line, and read as a 9x9 its letters make clashing digits).
    let mut order: Vec<usize> = sizes.iter().copied().filter(|&n| n <= m).collect();
    order.sort_unstable_by(|a, b| b.cmp(a));
    let mut whole: Vec<(usize, usize, usize)> = Vec::new();
    let mut out = Vec::new();
    for n in order {
        for r0 in 0..=m - n {
            for c0 in 0..=m - n {
                let within = whole.iter().any(|&(wn, wr, wc)| {
                    wn > n && r0 >= wr && c0 >= wc && r0 + n <= wr + wn && c0 + n <= wc + wn
                });
                if within {
                    continue;
                }
                let missing = (0..=n)
                    .flat_map(|k| (0..n).map(move |i| (k, i)))
                    .flat_map(|(k, i)| [hor[(r0 + k) * m + c0 + i], ver[(c0 + k) * m + r0 + i]])
                    .filter(|&v| !present(v))
                    .count();
                let full = missing <= MAX_MISSING_SIDES;
                let solid =
                    (r0..r0 + n).any(|r| (c0..c0 + n).any(|c| fill[r * m + c] >= SOLID_CELL));
                if full && !solid {
                    whole.push((n, r0, c0));
                    let at = |i: usize| margin + i as f64 * cell;
                    let (u0, v0, u1, v1) = (at(c0), at(r0), at(c0 + n), at(r0 + n));
                    let corners = [(u0, v0), (u1, v0), (u1, v1), (u0, v1)].map(|(u, v)| {
                        let (x, y) = g2p.map64(u, v);
                        (x as f32, y as f32)
                    });
                    out.push((n, Quad::new(corners)));
                }
            }
        }
    }
    Lattice {
        cells: m,
        windows: out,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::locate::verify::SIZES;
    use image::Luma;

    /// A darkness image (ink 255) of an `m`-cell lattice of `cell` pixels
    /// at (`at`, `at`), box lines every `boxes` cells thicker, holding only
    /// the cells `present(row, col)` says.
    fn lattice(
        m: usize,
        cell: f64,
        boxes: usize,
        present: impl Fn(usize, usize) -> bool,
    ) -> (GrayImage, Quad) {
        faint_lattice(m, cell, boxes, 255, present)
    }

    /// [`lattice`] with thin lines of darkness `thin`.
    fn faint_lattice(
        m: usize,
        cell: f64,
        boxes: usize,
        thin: u8,
        present: impl Fn(usize, usize) -> bool,
    ) -> (GrayImage, Quad) {
        let at = 20.0;
        let side = (m as f64 * cell + 2.0 * at).ceil() as u32;
        let mut img = GrayImage::new(side, side);
        let mut line = |k: usize, a: usize, horizontal: bool| {
            let (w, ink) = if k.is_multiple_of(boxes) {
                (2, 255)
            } else {
                (1, thin)
            };
            let x = (at + k as f64 * cell).round() as i64;
            let (a0, a1) = (
                (at + a as f64 * cell) as i64,
                (at + (a + 1) as f64 * cell) as i64,
            );
            for t in a0..=a1 {
                for d in -w / 2..=w / 2 {
                    let (px, py) = if horizontal { (t, x + d) } else { (x + d, t) };
                    img.put_pixel(px as u32, py as u32, Luma([ink]));
                }
            }
        };
        for r in 0..m {
            for c in 0..m {
                if present(r, c) {
                    for (k, a, h) in [
                        (r, c, true),
                        (r + 1, c, true),
                        (c, r, false),
                        (c + 1, r, false),
                    ] {
                        line(k, a, h);
                    }
                }
            }
        }
        let e = (at + m as f64 * cell) as f32;
        let s = at as f32;
        (img, Quad::new([(s, s), (e, s), (e, e), (s, e)]))
    }

    #[test]
    fn floor_i64_is_the_floor_cast() {
        let mut s = 99u64;
        let random = (0..100_000).map(|_| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s as i64 as f64) / (1u64 << (s % 60)) as f64
        });
        let special = [
            0.0,
            -0.0,
            -0.5,
            0.5,
            -1.0,
            1.0,
            -1e-300,
            2.5e19,
            -2.5e19,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            i64::MIN as f64,
            i64::MAX as f64,
        ];
        for x in random.chain(special) {
            assert_eq!(floor_i64(x), x.floor() as i64, "{x}");
        }
    }

    #[test]
    fn a_16x16_lattice_is_one_16x16_not_9x9_windows() {
        let (dark, quad) = lattice(16, 21.3, 4, |_, _| true);
        let windows = lattice_windows(&dark, &quad, &SIZES).windows;
        let sizes: Vec<usize> = windows.iter().map(|w| w.0).collect();
        assert_eq!(sizes, vec![16]);
    }

    #[test]
    fn a_samurai_whose_pitch_is_no_whole_number_of_bins_gives_five_grids() {
        // 21 cells of 19.7 px: the autocorrelation's lag (19 or 20) alone
        // counts 21 or 22 cells.
        let corners = [(0, 0), (0, 12), (6, 6), (12, 0), (12, 12)];
        let inside = |r: usize, c: usize| {
            corners
                .iter()
                .any(|&(r0, c0)| (r0..r0 + 9).contains(&r) && (c0..c0 + 9).contains(&c))
        };
        let (dark, quad) = lattice(21, 19.7, 3, inside);
        let windows = lattice_windows(&dark, &quad, &SIZES).windows;
        assert_eq!(windows.len(), 5, "{windows:?}");
        assert!(windows.iter().all(|w| w.0 == 9));
    }

    #[test]
    fn a_samurai_grid_missing_four_thin_sides_is_a_grid_and_none_a_cell_off() {
        // A blurred photo loses a few thin cell sides; a window one cell
        // off a grid (a row above the centre grid) has five in the gap
        // between grids, and five grids stay five.
        let cell = 20.0;
        let (mut dark, quad) = lattice(21, cell, 3, samurai_cell);
        // Four vertical thin sides of the top-left grid wiped: at x = 1, 2,
        // 4 and 5 cells, in its second row.
        for k in [1.0, 2.0, 4.0, 5.0] {
            let x = (20.0 + k * cell) as u32;
            for y in (22.0 + cell) as u32..(18.0 + 2.0 * cell) as u32 {
                dark.put_pixel(x, y, Luma([0]));
            }
        }
        let windows = lattice_windows(&dark, &quad, &SIZES).windows;
        assert_eq!(windows.len(), 5, "{windows:?}");
    }

    /// The cells of a Samurai's five grids in its 21x21 lattice.
    fn samurai_cell(r: usize, c: usize) -> bool {
        [(0, 0), (0, 12), (6, 6), (12, 0), (12, 12)]
            .iter()
            .any(|&(r0, c0)| (r0..r0 + 9).contains(&r) && (c0..c0 + 9).contains(&c))
    }

    #[test]
    fn a_samurai_outlined_outside_its_faint_lines_gives_five_grids() {
        // The candidate's quad is the outside of a border the threshold
        // thickened, each corner 2-4 px out its own way (16 px cells: a
        // side's tolerance is 2 px); the thin lines are a sixth as dark as
        // the box lines, and one thin side is gone (swallowed beside bold
        // digits).
        let (mut dark, quad) = faint_lattice(21, 16.4, 3, 40, samurai_cell);
        let [(x0, y0), _, (x1, y1), _] = quad.corners;
        let out = Quad::new([
            (x0 - 3.0, y0 - 2.0),
            (x1 + 2.0, y0 - 4.0),
            (x1 + 4.0, y1 + 3.0),
            (x0 - 2.0, y1 + 2.0),
        ]);
        // The side on line 4 of the bottom-right grid, above its column 6.
        let (x, y) = (x0 + 18.2 * 16.4, y0 + 16.0 * 16.4);
        for dx in 0..10 {
            dark.put_pixel(x as u32 + dx, y.round() as u32, Luma([0]));
        }
        let windows = lattice_windows(&dark, &out, &SIZES).windows;
        assert_eq!(windows.len(), 5, "{windows:?}");
        assert!(windows.iter().all(|w| w.0 == 9));
        // Each window's corners are on the lattice's lines.
        for (_, w) in &windows {
            for &(cx, cy) in &w.corners {
                let off = |v: f32, o: f32| ((v - o) / 16.4 - ((v - o) / 16.4).round()).abs();
                assert!(off(cx, x0) < 0.1 && off(cy, y0) < 0.1, "{w:?}");
            }
        }
    }
}
