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
                dark[y * w + x] = darkness(s - p * n, s);
            }
        }
    }
    (mk(out), mk(dark))
}

/// `floor(short * DARKNESS_FULL_SCALE / sum)` capped at 255: the darkness
/// of a pixel `short` below its neighbourhood's `sum` (both in sums over
/// the neighbourhood, `0 < short <= sum`).
///
/// The quotient is taken in `f64`, where the division is several times
/// faster than in `u64` and pipelines, and it is still exact: both operands
/// are integers below 2^53, the division is correctly rounded, and a true
/// quotient that is not a whole number lies at least `1 / sum` (more than
/// 1e-9) below the next one, far more than the rounding error (1020 *
/// 2^-53), so the floor is the integer one.
#[inline]
fn darkness(short: u32, sum: u32) -> u8 {
    // short * 1020 / sum >= 255  <=>  short * 4 >= sum: saturated.
    if u64::from(short) * (DARKNESS_FULL_SCALE / 255) >= u64::from(sum) {
        return 255;
    }
    (f64::from(short) * DARKNESS_FULL_SCALE as f64 / f64::from(sum)) as u8
}

/// Binary dilation of `binary` (ink nonzero) by the `(2r+1)`-pixel square,
/// the result 255 or 0: what `imageproc::morphology::dilate` gives with the
/// L-infinity norm, computed as two passes of a running maximum (along
/// rows, then down columns) over slices, which the compiler vectorises: on
/// a page searched at full resolution the distance transform imageproc
/// uses was a sixth of the whole search.
pub fn dilate(binary: &GrayImage, r: usize) -> GrayImage {
    let (w, h) = (binary.width() as usize, binary.height() as usize);
    let raw = binary.as_raw();
    let mut across = vec![0u8; w * h];
    for (src, dst) in raw
        .chunks_exact(w.max(1))
        .zip(across.chunks_exact_mut(w.max(1)))
    {
        dst.copy_from_slice(src);
        for d in 1..=r.min(w.saturating_sub(1)) {
            max_into(&mut dst[d..], &src[..w - d]);
            max_into(&mut dst[..w - d], &src[d..]);
        }
    }
    let mut out = across.clone();
    for d in 1..=r.min(h.saturating_sub(1)) {
        let shift = d * w;
        max_into(&mut out[shift..], &across[..w * h - shift]);
        max_into(&mut out[..w * h - shift], &across[shift..]);
    }
    out.iter_mut()
        .for_each(|v| *v = if *v > 0 { 255 } else { 0 });
    GrayImage::from_raw(w as u32, h as u32, out).unwrap_or_else(|| GrayImage::new(0, 0))
}

/// `dst[i] = max(dst[i], src[i])` over the two slices' common length.
fn max_into(dst: &mut [u8], src: &[u8]) {
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = (*d).max(s);
    }
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

    #[test]
    fn darkness_is_the_exact_integer_quotient() {
        for sum in (1..3_000_000u32).step_by(7919) {
            for short in [1, 2, sum / 7, sum / 5, sum / 4, sum / 4 + 1, sum / 3, sum] {
                if short == 0 || short > sum {
                    continue;
                }
                let exact = (u64::from(short) * DARKNESS_FULL_SCALE / u64::from(sum)).min(255);
                assert_eq!(u64::from(darkness(short, sum)), exact, "{short} / {sum}");
            }
        }
    }

    #[test]
    fn dilate_matches_imageproc() {
        let g = GrayImage::from_fn(61, 37, |x, y| {
            Luma([if (x * 13 + y * 7) % 23 == 0 || x == 60 || y == 0 {
                255
            } else {
                0
            }])
        });
        for r in [1u8, 2] {
            let theirs =
                imageproc::morphology::dilate(&g, imageproc::distance_transform::Norm::LInf, r);
            assert!(dilate(&g, r as usize) == theirs, "radius {r}");
        }
        let thin = GrayImage::from_fn(1, 5, |_, y| Luma([if y == 2 { 255 } else { 0 }]));
        let theirs =
            imageproc::morphology::dilate(&thin, imageproc::distance_transform::Norm::LInf, 1);
        assert!(dilate(&thin, 1) == theirs, "one pixel wide");
    }
}
