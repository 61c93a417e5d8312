//! Perspective rectification: the located quad of an `n` x `n` grid
//! becomes a square top-down image of `n * CELL_PX` pixels a side, sampled
//! from the full-resolution photo.

use image::GrayImage;

use crate::geometry::{bilinear, downscale_region, Homography, Quad, CELL_PX};

/// Most bilinear samples per output pixel along each axis. A grid more than
/// about twice the output size is box-downscaled first (see [`rectify`]),
/// so 3x3 samples already cover the remaining footprint of an output pixel.
const MAX_SUPERSAMPLE: usize = 3;

/// Pixels of margin kept around the quad's bounding box when it is
/// downscaled, so bilinear samples at its edge read real pixels.
const REGION_MARGIN: i64 = 2;

/// Warps the quad of an `n` x `n` grid in `gray` to an image of
/// `n * CELL_PX` pixels a side, the grid's corners at the image's corners;
/// `None` for a degenerate quad (its homography does not invert).
///
/// Coordinates: grid point (u, v) is a continuous position, the output
/// pixel (i, j) is the area [i, i+1) x [j, j+1) and is sampled at its centre.
/// The quad's corners are continuous photo positions in the same convention
/// (pixel (x, y) covers [x, x+1)). A grid more than twice the output size
/// (12 MP photos) is first box-averaged over its bounding box by the integer
/// factor `k = floor(scale)`; each output pixel then averages up to
/// `MAX_SUPERSAMPLE`^2 bilinear samples, so nothing is aliased.
pub(crate) fn rectify(gray: &GrayImage, quad: &Quad, n: usize) -> Option<GrayImage> {
    let side = n * CELL_PX;
    let g2p = Homography::square_to_quad(side as f64, quad)?;
    g2p.inverse()?;
    let scale = quad.max_side() / side as f32;
    let k = scale.floor() as u32;
    if k >= 2 {
        warp_downscaled(gray, quad, &g2p, side, scale, k)
    } else {
        Some(warp(gray, &g2p, side, scale))
    }
}

/// [`warp`] on the quad's bounding box box-downscaled by `k`: the warp then
/// needs at most 2x2 samples per pixel instead of up to 4x4 over the full
/// image.
fn warp_downscaled(
    gray: &GrayImage,
    quad: &Quad,
    g2p: &Homography,
    side: usize,
    scale: f32,
    k: u32,
) -> Option<GrayImage> {
    let (w, h) = gray.dimensions();
    let xs = quad.corners.map(|c| c.0);
    let ys = quad.corners.map(|c| c.1);
    let fmin = |v: [f32; 4]| v.iter().copied().fold(f32::MAX, f32::min);
    let fmax = |v: [f32; 4]| v.iter().copied().fold(f32::MIN, f32::max);
    let lo = |v: f32, m: u32| (v.floor() as i64 - REGION_MARGIN).clamp(0, m as i64) as u32;
    let hi = |v: f32, m: u32| (v.ceil() as i64 + REGION_MARGIN).clamp(0, m as i64) as u32;
    let (x0, y0) = (lo(fmin(xs), w), lo(fmin(ys), h));
    let (x1, y1) = (hi(fmax(xs), w), hi(fmax(ys), h));
    let sub = downscale_region(gray, x0, y0, x1 - x0.min(x1), y1 - y0.min(y1), k);
    if sub.width() < 2 || sub.height() < 2 {
        return Some(warp(gray, g2p, side, scale));
    }
    let kf = k as f32;
    let q = Quad::new(
        quad.corners
            .map(|(x, y)| ((x - x0 as f32) / kf, (y - y0 as f32) / kf)),
    );
    let g = Homography::square_to_quad(side as f64, &q)?;
    Some(warp(&sub, &g, side, scale / kf))
}

/// Samples `side` x `side` output pixels through `g2p` (output coordinates
/// to photo coordinates). `scale` is photo pixels per output pixel, used to
/// choose the supersampling factor.
pub(crate) fn warp(gray: &GrayImage, g2p: &Homography, side: usize, scale: f32) -> GrayImage {
    let n = (scale.round() as usize).clamp(1, MAX_SUPERSAMPLE);
    let mut out = vec![0u8; side * side];
    let inv_n = 1.0 / n as f64;
    let norm = 1.0 / (n * n) as f32;
    // The samples' positions across an output row, the same for every row.
    let us: Vec<f64> = (0..side)
        .flat_map(|i| (0..n).map(move |si| i as f64 + (si as f64 + 0.5) * inv_n))
        .collect();
    // The photo positions of the samples of one output row, row of
    // samples after row (`n` of them, `side * n` samples each): mapped a
    // whole row at a time (see `Homography::map_row`), then read.
    let mut rows: Vec<(Vec<f64>, Vec<f64>)> = (0..n)
        .map(|_| (vec![0.0; us.len()], vec![0.0; us.len()]))
        .collect();
    for (j, line) in out.chunks_exact_mut(side.max(1)).enumerate() {
        for (sj, (xs, ys)) in rows.iter_mut().enumerate() {
            g2p.map_row(&us, j as f64 + (sj as f64 + 0.5) * inv_n, xs, ys);
        }
        for (i, o) in line.iter_mut().enumerate() {
            let mut acc = 0.0f32;
            for (xs, ys) in &rows {
                for k in i * n..(i + 1) * n {
                    // Pixel centres are at +0.5: shift to index space.
                    acc += bilinear(gray, xs[k] as f32 - 0.5, ys[k] as f32 - 0.5);
                }
            }
            *o = (acc * norm + 0.5).clamp(0.0, 255.0) as u8;
        }
    }
    GrayImage::from_raw(side as u32, side as u32, out).unwrap_or_else(|| GrayImage::new(0, 0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::GRID_PX;

    #[test]
    fn rows_mapped_at_once_sample_as_the_homography_does() {
        let g = GrayImage::from_fn(400, 300, |x, y| {
            image::Luma([((x * 13 + y * 29 + x * y / 7) % 256) as u8])
        });
        let q = Quad::new([(31.3, 22.8), (370.1, 40.6), (352.9, 281.4), (12.2, 260.7)]);
        for (side, scale) in [(90, 1.0f32), (120, 2.2), (75, 3.4)] {
            let g2p = Homography::square_to_quad(side as f64, &q).unwrap();
            let n = (scale.round() as usize).clamp(1, MAX_SUPERSAMPLE);
            let inv_n = 1.0 / n as f64;
            let m = &g2p.m;
            let want: Vec<u8> = (0..side * side)
                .map(|p| {
                    let (i, j) = (p % side, p / side);
                    let mut acc = 0.0f32;
                    for sj in 0..n {
                        let v = j as f64 + (sj as f64 + 0.5) * inv_n;
                        for si in 0..n {
                            let u = i as f64 + (si as f64 + 0.5) * inv_n;
                            let w = m[6] * u + m[7] * v + m[8];
                            let x = (m[0] * u + m[1] * v + m[2]) / w;
                            let y = (m[3] * u + m[4] * v + m[5]) / w;
                            acc += bilinear(&g, x as f32 - 0.5, y as f32 - 0.5);
                        }
                    }
                    (acc * (1.0 / (n * n) as f32) + 0.5).clamp(0.0, 255.0) as u8
                })
                .collect();
            assert!(warp(&g, &g2p, side, scale).as_raw() == &want, "side {side}");
        }
    }

    #[test]
    fn identity_quad_copies_pixels() {
        let g = GrayImage::from_fn(GRID_PX as u32, GRID_PX as u32, |x, y| {
            image::Luma([((x * 7 + y * 3) % 256) as u8])
        });
        let s = GRID_PX as f32;
        let q = Quad::new([(0.0, 0.0), (s, 0.0), (s, s), (0.0, s)]);
        let r = rectify(&g, &q, 9).unwrap();
        assert_eq!(r.as_raw(), g.as_raw());
    }

    #[test]
    fn warp_of_a_scaled_quad_reads_the_right_place() {
        // A 2x larger image with a dark square in the quadrant (100..200).
        let g = GrayImage::from_fn(900, 900, |x, y| {
            let inside = (100..200).contains(&x) && (100..200).contains(&y);
            image::Luma([if inside { 0 } else { 255 }])
        });
        let q = Quad::new([(0.0, 0.0), (864.0, 0.0), (864.0, 864.0), (0.0, 864.0)]);
        let r = rectify(&g, &q, 9).unwrap();
        assert!(r.get_pixel(75, 75)[0] < 10);
        assert!(r.get_pixel(49, 75)[0] > 245);
        assert!(r.get_pixel(101, 75)[0] > 245);
    }
}
