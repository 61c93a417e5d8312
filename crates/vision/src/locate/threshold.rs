//! The search image: an adaptive threshold of the downscaled photo, and the
//! relative darkness the line checks read.

use image::GrayImage;

/// The threshold's neighbourhood radius is the work image's longer side
/// divided by this: about two cells of a grid filling the frame, wide
/// enough that a thick box line is darker than its surroundings.
const RADIUS_DIVISOR: usize = 50;

/// Smallest neighbourhood radius: a tiny image still needs a window wider
/// than a blurred line.
const MIN_RADIUS: usize = 4;

/// A pixel is ink when darker than its local mean by `mean / MARGIN_DIVISOR`
/// (7 %): relative, so lines in deep shadow, where every contrast shrinks
/// with the light, stay ink.
const MARGIN_DIVISOR: u32 = 14;

/// ... but by at least this many gray levels, so flat paper with JPEG noise
/// is not ink.
const MIN_MARGIN: u32 = 4;

/// Darkness scale: the relative shortfall `(mean - p) / mean` times this,
/// so 25 % darker than the local mean saturates at 255 (4 * 255 = 1020);
/// printed lines are rarely darker than that relative to their paper.
const DARKNESS_FULL_SCALE: u64 = 1020;

/// Adaptive threshold, ink = 255: a pixel is ink when it is darker than the
/// mean of its (2r+1)^2 neighbourhood by more than
/// `max(MIN_MARGIN, mean / MARGIN_DIVISOR)`.
///
/// A relative margin (rather than imageproc's fixed `delta`) keeps the
/// printed lines in deep shadow, where all contrasts shrink with the light.
/// Returns `(binary, darkness)`: darkness is the relative shortfall from
/// the local mean, `(mean - p) / mean`, scaled so 25 % darker = 255; the
/// line check uses it because blurred thin lines fall below any threshold
/// yet still add up along their length.
pub fn adaptive_threshold(img: &GrayImage) -> (GrayImage, GrayImage) {
    let (w, h) = (img.width() as usize, img.height() as usize);
    let mk = |v| GrayImage::from_raw(w as u32, h as u32, v).unwrap_or_else(|| GrayImage::new(0, 0));
    if w == 0 || h == 0 {
        return (mk(Vec::new()), mk(Vec::new()));
    }
    let mut out = vec![0u8; w * h];
    let mut dark = vec![0u8; w * h];
    let r = (w.max(h) / RADIUS_DIVISOR).max(MIN_RADIUS);
    let raw = img.as_raw();
    let integ = integral(raw, w, h);
    let iw = w + 1;
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
            let margin = (s / MARGIN_DIVISOR).max(MIN_MARGIN * n);
            if p * n + margin < s {
                out[y * w + x] = 255;
            }
            if p * n < s {
                let rel = (s - p * n) as u64 * DARKNESS_FULL_SCALE / s.max(1) as u64;
                dark[y * w + x] = rel.min(255) as u8;
            }
        }
    }
    (mk(out), mk(dark))
}

/// Integral image with a zero first row and column: entry (y, x) of the
/// `(w + 1)`-wide table is the sum of the pixels above and left of (x, y).
fn integral(raw: &[u8], w: usize, h: usize) -> Vec<u32> {
    let iw = w + 1;
    let mut integ = vec![0u32; iw * (h + 1)];
    for y in 0..h {
        let mut run = 0u32;
        for x in 0..w {
            run += raw[y * w + x] as u32;
            integ[(y + 1) * iw + x + 1] = integ[y * iw + x + 1] + run;
        }
    }
    integ
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    #[test]
    fn a_dark_line_is_ink_and_flat_paper_is_not() {
        let g = GrayImage::from_fn(100, 100, |x, _| Luma([if x == 50 { 40 } else { 200 }]));
        let (bin, dark) = adaptive_threshold(&g);
        assert_eq!(bin.get_pixel(50, 50)[0], 255);
        assert_eq!(bin.get_pixel(20, 50)[0], 0);
        assert_eq!(dark.get_pixel(50, 50)[0], 255);
        assert_eq!(dark.get_pixel(20, 50)[0], 0);
    }
}
