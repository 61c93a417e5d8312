//! Perspective rectification: the located quad becomes a square top-down
//! grid image of side `9 * CELL_PX`, sampled from the full-resolution photo.

use image::GrayImage;

use crate::cells::CELL_PX;
use crate::geometry::{Homography, Quad};

/// Side of the rectified grid image in pixels (9 * 48 = 432).
pub const GRID_PX: usize = 9 * CELL_PX;

/// A rectified grid and the transforms between it and the photo.
#[derive(Debug, Clone)]
pub struct Rectified {
    /// `GRID_PX` x `GRID_PX` gray image, grid corners at the image corners.
    pub image: GrayImage,
    /// Maps grid coordinates (0..432) to photo pixel coordinates.
    pub grid_to_photo: Homography,
    /// Maps photo pixel coordinates to grid coordinates.
    pub photo_to_grid: Homography,
}

/// The homographies for a quad: `(grid_to_photo, photo_to_grid)` with the
/// grid square of side [`GRID_PX`]. `None` for a degenerate quad.
pub fn homographies(quad: &Quad) -> Option<(Homography, Homography)> {
    let g2p = Homography::square_to_quad(GRID_PX as f64, quad)?;
    let p2g = g2p.inverse()?;
    Some((g2p, p2g))
}

/// Warps the quad of `gray` to a `GRID_PX`-square image.
///
/// Coordinates: grid point (u, v) is a continuous position, the output
/// pixel (i, j) is the area [i, i+1) x [j, j+1) and is sampled at its centre.
/// The quad's corners are continuous photo positions in the same convention
/// (pixel (x, y) covers [x, x+1)). When the grid is much larger in the photo
/// than 432 px, each output pixel averages an n x n set of bilinear samples
/// (n up to 4) so that a 12 MP photo is not aliased.
pub fn rectify(gray: &GrayImage, quad: &Quad) -> Option<Rectified> {
    let (g2p, p2g) = homographies(quad)?;
    let scale = quad.max_side() / GRID_PX as f32;
    // A grid much larger than 432 px (12 MP photos): box-average the quad's
    // bounding box by an integer factor first, so the warp needs at most
    // 2x2 samples per pixel instead of up to 4x4 over the full image.
    let k = scale.floor() as u32;
    let image = if k >= 2 {
        let (w, h) = gray.dimensions();
        let xs = quad.corners.map(|c| c.0);
        let ys = quad.corners.map(|c| c.1);
        let fmin = |v: [f32; 4]| v.iter().copied().fold(f32::MAX, f32::min);
        let fmax = |v: [f32; 4]| v.iter().copied().fold(f32::MIN, f32::max);
        let x0 = (fmin(xs).floor() as i64 - 2).clamp(0, w as i64) as u32;
        let y0 = (fmin(ys).floor() as i64 - 2).clamp(0, h as i64) as u32;
        let x1 = (fmax(xs).ceil() as i64 + 2).clamp(0, w as i64) as u32;
        let y1 = (fmax(ys).ceil() as i64 + 2).clamp(0, h as i64) as u32;
        let sub = downscale_region(
            gray,
            x0,
            y0,
            x1.saturating_sub(x0),
            y1.saturating_sub(y0),
            k,
        );
        if sub.width() < 2 || sub.height() < 2 {
            warp(gray, &g2p, GRID_PX, scale)
        } else {
            let kf = k as f32;
            let q = Quad::new(
                quad.corners
                    .map(|(x, y)| ((x - x0 as f32) / kf, (y - y0 as f32) / kf)),
            );
            let g = Homography::square_to_quad(GRID_PX as f64, &q)?;
            warp(&sub, &g, GRID_PX, scale / kf)
        }
    } else {
        warp(gray, &g2p, GRID_PX, scale)
    };
    Some(Rectified {
        image,
        grid_to_photo: g2p,
        photo_to_grid: p2g,
    })
}

/// Box-average downscale by `k` of the region `(x0, y0, w, h)` (clipped to
/// the image; partial blocks at the right and bottom are dropped).
fn downscale_region(gray: &GrayImage, x0: u32, y0: u32, w: u32, h: u32, k: u32) -> GrayImage {
    let (iw, ih) = gray.dimensions();
    let w = w.min(iw.saturating_sub(x0));
    let h = h.min(ih.saturating_sub(y0));
    let (ow, oh) = ((w / k) as usize, (h / k) as usize);
    let (ku, stride) = (k as usize, iw as usize);
    let raw = gray.as_raw();
    let mut out = vec![0u8; ow * oh];
    let mut acc = vec![0u32; ow];
    let norm = k * k;
    for oy in 0..oh {
        acc.iter_mut().for_each(|a| *a = 0);
        for y in y0 as usize + oy * ku..y0 as usize + (oy + 1) * ku {
            let start = y * stride + x0 as usize;
            let row = &raw[start..start + ow * ku];
            for (a, chunk) in acc.iter_mut().zip(row.chunks_exact(ku)) {
                *a += chunk.iter().map(|&p| p as u32).sum::<u32>();
            }
        }
        for (o, &a) in out[oy * ow..(oy + 1) * ow].iter_mut().zip(acc.iter()) {
            *o = ((a + norm / 2) / norm) as u8;
        }
    }
    GrayImage::from_raw(ow as u32, oh as u32, out).unwrap_or_else(|| GrayImage::new(0, 0))
}

/// Samples `side` x `side` output pixels through `g2p` (output coordinates
/// to photo coordinates). `scale` is photo pixels per output pixel, used to
/// choose the supersampling factor.
pub fn warp(gray: &GrayImage, g2p: &Homography, side: usize, scale: f32) -> GrayImage {
    let n = (scale.round() as usize).clamp(1, 3);
    let m = &g2p.m;
    let mut out = vec![0u8; side * side];
    let inv_n = 1.0 / n as f64;
    let norm = 1.0 / (n * n) as f32;
    for j in 0..side {
        for i in 0..side {
            let mut acc = 0.0f32;
            for sj in 0..n {
                let v = j as f64 + (sj as f64 + 0.5) * inv_n;
                for si in 0..n {
                    let u = i as f64 + (si as f64 + 0.5) * inv_n;
                    let w = m[6] * u + m[7] * v + m[8];
                    let x = (m[0] * u + m[1] * v + m[2]) / w;
                    let y = (m[3] * u + m[4] * v + m[5]) / w;
                    // Pixel centres are at +0.5: shift to index space.
                    acc += bilinear(gray, x as f32 - 0.5, y as f32 - 0.5);
                }
            }
            out[j * side + i] = (acc * norm + 0.5).clamp(0.0, 255.0) as u8;
        }
    }
    GrayImage::from_raw(side as u32, side as u32, out).unwrap_or_else(|| GrayImage::new(0, 0))
}

/// Bilinear sample at index-space position (x, y) (pixel centres at
/// integers); coordinates outside the image clamp to the border, so a grid
/// cut by the frame continues with the edge pixels instead of black.
#[inline]
pub fn bilinear(gray: &GrayImage, x: f32, y: f32) -> f32 {
    let (w, h) = gray.dimensions();
    if w == 0 || h == 0 || !x.is_finite() || !y.is_finite() {
        return 255.0;
    }
    let xm = (w - 1) as f32;
    let ym = (h - 1) as f32;
    let x = x.clamp(0.0, xm);
    let y = y.clamp(0.0, ym);
    let x0 = x.floor();
    let y0 = y.floor();
    let fx = x - x0;
    let fy = y - y0;
    let x0 = x0 as usize;
    let y0 = y0 as usize;
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
    fn identity_quad_copies_pixels() {
        let g = GrayImage::from_fn(GRID_PX as u32, GRID_PX as u32, |x, y| {
            image::Luma([((x * 7 + y * 3) % 256) as u8])
        });
        let s = GRID_PX as f32;
        let q = Quad::new([(0.0, 0.0), (s, 0.0), (s, s), (0.0, s)]);
        let r = rectify(&g, &q).unwrap();
        assert_eq!(r.image.as_raw(), g.as_raw());
        let (x, y) = r.photo_to_grid.map(100.0, 50.0);
        assert!((x - 100.0).abs() < 1e-3 && (y - 50.0).abs() < 1e-3);
    }

    #[test]
    fn warp_of_a_scaled_quad_reads_the_right_place() {
        // A 2x larger image with a dark square in the quadrant (100..200).
        let g = GrayImage::from_fn(900, 900, |x, y| {
            let inside = (100..200).contains(&x) && (100..200).contains(&y);
            image::Luma([if inside { 0 } else { 255 }])
        });
        let q = Quad::new([(0.0, 0.0), (864.0, 0.0), (864.0, 864.0), (0.0, 864.0)]);
        let r = rectify(&g, &q).unwrap();
        assert!(r.image.get_pixel(75, 75)[0] < 10);
        assert!(r.image.get_pixel(49, 75)[0] > 245);
        assert!(r.image.get_pixel(101, 75)[0] > 245);
    }
}
