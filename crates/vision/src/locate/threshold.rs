//! The search image: an adaptive threshold of the downscaled photo, and the
//! relative darkness the line checks read.

use image::GrayImage;

use crate::geometry::MAX_ROWS_IN_U16;

/// The threshold's neighbourhood radius is the work image's longer side
/// divided by this: about two cells of a grid filling the frame, wide
/// enough that a thick box line is darker than its surroundings.
pub(crate) const RADIUS_DIVISOR: usize = 50;

/// The divisor of the finer page search (see `locate_all_early`), which
/// looks for the grids too small for the first one: its window scales with
/// the grids it looks for, as the first search's does with a grid filling
/// the frame, so it is half as wide in the frame. With the first search's
/// width, six grids of 230 px on a 1,500 px photo of a page are refused
/// (3-4 thin lines of an axis unseen) where the same grids cut out and
/// searched alone pass. On two sets of held-out page captures this width
/// finds 440 of 477 grids and 423 of 476, against 431 and 410 with the
/// first search's, and no false grid.
pub(crate) const FINE_RADIUS_DIVISOR: usize = 100;

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
/// `max(MIN_MARGIN, mean / MARGIN_DIVISOR)`; `r` is the image's longer side
/// over `radius_divisor` ([`RADIUS_DIVISOR`] or [`FINE_RADIUS_DIVISOR`]).
///
/// A relative margin (rather than imageproc's fixed `delta`) keeps the
/// printed lines in deep shadow, where all contrasts shrink with the light.
/// Returns `(binary, darkness)`: darkness is the relative shortfall from
/// the local mean, `(mean - p) / mean`, scaled so 25 % darker = 255; the
/// line check uses it because blurred thin lines fall below any threshold
/// yet still add up along their length.
pub(crate) fn adaptive_threshold(img: &GrayImage, radius_divisor: usize) -> (GrayImage, GrayImage) {
    use rayon::prelude::*;
    let (w, h) = (img.width() as usize, img.height() as usize);
    let mk = |v| GrayImage::from_raw(w as u32, h as u32, v).unwrap_or_else(|| GrayImage::new(0, 0));
    if w == 0 || h == 0 {
        return (mk(Vec::new()), mk(Vec::new()));
    }
    let mut out = vec![0u8; w * h];
    let mut dark = vec![0u8; w * h];
    let r = (w.max(h) / radius_divisor.max(1)).max(MIN_RADIUS);
    let raw = img.as_raw();
    // Window widths by column, clipped at the borders.
    let widths: Vec<u32> = (0..w)
        .map(|x| ((x + r + 1).min(w) - x.saturating_sub(r)) as u32)
        .collect();
    // Bands of rows are thresholded on the rayon pool (the finer page
    // search thresholds a 12 MP photo at 3 MP). Each band starts its own
    // running sums, at the cost of summing 2r rows once more.
    out.par_chunks_mut(w * THRESHOLD_BAND_ROWS)
        .zip(dark.par_chunks_mut(w * THRESHOLD_BAND_ROWS))
        .enumerate()
        .for_each(|(band, (out, dark))| {
            let first = band * THRESHOLD_BAND_ROWS;
            threshold_band((raw, w, h), r, &widths, first, (out, dark));
        });
    (mk(out), mk(dark))
}

/// The rows of [`adaptive_threshold`] from row `first` on, as many as
/// `out` and `dark` hold, of the image `raw` (`w` x `h`), with the window
/// radius `r` and the clipped window widths `widths`. Compiled for AVX2
/// where the CPU has it (integer arithmetic: the same pixels either way).
fn threshold_band(
    image: (&[u8], usize, usize),
    r: usize,
    widths: &[u32],
    first: usize,
    rows: (&mut [u8], &mut [u8]),
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (checked above).
        unsafe { threshold_band_avx2(image, r, widths, first, rows) };
        return;
    }
    threshold_band_with(image, r, widths, first, rows);
}

/// [`threshold_band`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn threshold_band_avx2(
    image: (&[u8], usize, usize),
    r: usize,
    widths: &[u32],
    first: usize,
    rows: (&mut [u8], &mut [u8]),
) {
    threshold_band_with(image, r, widths, first, rows);
}

/// [`threshold_band`], inlined into each of its compiled forms. The
/// column sums are 16 bits wide when the window's rows fit (the search
/// images' windows are 33-49 rows): twice the columns to a vector add.
#[inline(always)]
fn threshold_band_with(
    image: (&[u8], usize, usize),
    r: usize,
    widths: &[u32],
    first: usize,
    rows: (&mut [u8], &mut [u8]),
) {
    // A row is added before the oldest is dropped: 2r + 2 rows at most.
    if 2 * r + 2 <= MAX_ROWS_IN_U16 {
        band_in::<u16>(image, r, widths, first, rows);
    } else {
        band_in::<u32>(image, r, widths, first, rows);
    }
}

/// [`threshold_band`] with the column sums in `S`, wide enough for
/// `2r + 2` rows.
#[inline(always)]
fn band_in<S>(
    (raw, w, h): (&[u8], usize, usize),
    r: usize,
    widths: &[u32],
    first: usize,
    (out, dark): (&mut [u8], &mut [u8]),
) where
    S: Copy + Default + From<u8> + Into<u32> + std::ops::AddAssign + std::ops::SubAssign,
{
    // Window sums by running sums, with no integral table: `cols[x]`
    // holds column x summed over the window's rows (one row added and one
    // dropped per output row: vector adds), and a running sum across
    // `cols` gives each window (one add and one subtract per pixel). The
    // same sums, clipped at the borders, as an integral image gives, with
    // sequential memory access. Before row y is done, `cols` holds rows
    // `y - r - 1 ..= y + r - 1` (clipped to the image); row y adds row
    // `y + r` and drops row `y - r - 1`.
    let mut cols = vec![S::default(); w];
    let mut prefix = vec![0u32; w + 1];
    let mut sums = vec![0u32; w];
    let before = if first > r { first - r - 1 } else { 0 };
    for row in raw[before * w..(first + r).min(h) * w].chunks_exact(w) {
        add_row(&mut cols, row);
    }
    for (i, (orow, drow)) in out
        .chunks_exact_mut(w)
        .zip(dark.chunks_exact_mut(w))
        .enumerate()
    {
        let y = first + i;
        if y + r < h {
            add_row(&mut cols, &raw[(y + r) * w..(y + r + 1) * w]);
        }
        if y > r {
            sub_row(&mut cols, &raw[(y - r - 1) * w..(y - r) * w]);
        }
        let rows = ((y + r + 1).min(h) - y.saturating_sub(r)) as u32;
        threshold_row(
            &cols,
            widths,
            rows,
            r,
            &raw[y * w..(y + 1) * w],
            (&mut prefix, &mut sums),
            orow,
            drow,
        );
    }
}

/// Output rows per task of [`adaptive_threshold`]: a few hundred
/// kilobytes of a 3 MP search image, so that two cores share a page evenly
/// while the extra start of each band (2r rows summed) stays small.
const THRESHOLD_BAND_ROWS: usize = 128;

/// One row of [`adaptive_threshold`]: `cols` are the column sums over the
/// row's window rows (`rows` of them), `widths` the clipped window width at
/// each column; `prefix` (one longer than the row) and `sums` are room for
/// the columns' running total and the row's window sums.
///
/// The window sums are differences of the columns' running total; the
/// threshold and the darkness then take each pixel alone, a loop the
/// compiler runs several pixels at once in vector registers.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn threshold_row<S: Copy + Into<u32>>(
    cols: &[S],
    widths: &[u32],
    rows: u32,
    r: usize,
    row: &[u8],
    (prefix, sums): (&mut [u32], &mut [u32]),
    out: &mut [u8],
    dark: &mut [u8],
) {
    let w = row.len();
    // `prefix[i]`: columns `0..i` summed, so that window x sums to
    // `prefix[min(x + r + 1, w)] - prefix[max(x - r, 0)]`, independent of
    // its neighbours' (a running sum added and dropped a column a pixel,
    // two steps in a chain). Wrapping: the prefixes of a wide image may
    // pass u32, but each window's sum fits, and differences modulo 2^32
    // give it exactly. The columns go four at a time: their own running
    // sums first, then the total so far added to each, so that the chain
    // from column to column is one add in four (the same sums: wrapping
    // adds in any order).
    prefix[0] = 0;
    let mut total = 0u32;
    let quads = cols.chunks_exact(4);
    let rest = quads.remainder();
    for (quad, out) in quads.zip(prefix[1..].chunks_exact_mut(4)) {
        let a: u32 = quad[0].into();
        let b = a.wrapping_add(quad[1].into());
        let c = b.wrapping_add(quad[2].into());
        let d = c.wrapping_add(quad[3].into());
        out.copy_from_slice(&[a, b, c, d].map(|v| total.wrapping_add(v)));
        total = total.wrapping_add(d);
    }
    let done = cols.len() - rest.len();
    for (i, &c) in rest.iter().enumerate() {
        prefix[done + i + 1] = prefix[done + i].wrapping_add(c.into());
    }
    // Windows clipped on the left (x < r), whole ones, and clipped on the
    // right (x + r + 1 >= w).
    let start = r.min(w);
    let end = w.saturating_sub(r + 1).max(start);
    for (x, sum) in sums[..start].iter_mut().enumerate() {
        *sum = prefix[(x + r + 1).min(w)];
    }
    let ahead = &prefix[(start + r + 1).min(w)..];
    for ((sum, &hi), &lo) in sums[start..end].iter_mut().zip(ahead).zip(&prefix[..]) {
        *sum = hi.wrapping_sub(lo);
    }
    for (x, sum) in sums.iter_mut().enumerate().skip(end) {
        *sum = prefix[(x + r + 1).min(w)].wrapping_sub(prefix[x.saturating_sub(r)]);
    }
    let windows = Windows { sums, widths, rows };
    classify_row(&windows, row, out, dark);
}

/// The windows of one row of [`adaptive_threshold`]: pixel x's window sums
/// to `sums[x]` over `rows * widths[x]` pixels.
struct Windows<'a> {
    sums: &'a [u32],
    widths: &'a [u32],
    rows: u32,
}

/// Each pixel of a row thresholded and its darkness taken, from its
/// window (see [`Windows`]).
#[inline(always)]
fn classify_row(windows: &Windows<'_>, row: &[u8], out: &mut [u8], dark: &mut [u8]) {
    let Windows { sums, widths, rows } = *windows;
    let pixels = sums.iter().zip(widths).zip(row);
    for (((&s, &width), &p), (o, d)) in pixels.zip(out.iter_mut().zip(dark.iter_mut())) {
        let n = rows * width;
        let p = u32::from(p);
        // In sums: p*n < s - max(4n, s/14)  <=>  p < mean - max(4, mean/14).
        let margin = (s / MARGIN_DIVISOR).max(MIN_MARGIN * n);
        *o = if p * n + margin < s { 255 } else { 0 };
        *d = if p * n < s {
            darkness(s.wrapping_sub(p * n), s)
        } else {
            0
        };
    }
}

/// `cols[x] += row[x]` for every column.
#[inline(always)]
fn add_row<S: From<u8> + std::ops::AddAssign>(cols: &mut [S], row: &[u8]) {
    for (c, &p) in cols.iter_mut().zip(row) {
        *c += S::from(p);
    }
}

/// `cols[x] -= row[x]` for every column (a row added before).
#[inline(always)]
fn sub_row<S: From<u8> + std::ops::SubAssign>(cols: &mut [S], row: &[u8]) {
    for (c, &p) in cols.iter_mut().zip(row) {
        *c -= S::from(p);
    }
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
#[inline(always)]
fn darkness(short: u32, sum: u32) -> u8 {
    // short * 1020 / sum >= 255  <=>  short * 4 >= sum: saturated.
    if u64::from(short) * (DARKNESS_FULL_SCALE / 255) >= u64::from(sum) {
        return 255;
    }
    let quotient = f64::from(short) * DARKNESS_FULL_SCALE as f64 / f64::from(sum);
    // SAFETY: `quotient` is finite and in 0..255 (short * 4 < sum here),
    // so the conversion needs no saturation: unchecked, the compiler
    // converts four pixels at once, where `as u8` (or `as i32`) clamps
    // each pixel alone in a dozen scalar instructions.
    unsafe { quotient.to_int_unchecked::<i32>() as u8 }
}

/// Binary dilation of `binary` (ink nonzero) by the `(2r+1)`-pixel square,
/// the result 255 or 0: what `imageproc::morphology::dilate` gives with the
/// L-infinity norm, computed as a running maximum down the columns, then
/// along the row, over slices, which the compiler vectorises: on a page
/// searched at full resolution the distance transform imageproc uses was a
/// sixth of the whole search. Each output row is made from its `2r+1`
/// input rows in one row-sized buffer, so the only image-sized allocation
/// is the result (a second one cost a thousand page faults at 3 MP).
pub(super) fn dilate(binary: &GrayImage, r: usize) -> GrayImage {
    let (w, h) = (binary.width() as usize, binary.height() as usize);
    let raw = binary.as_raw();
    let mut out = vec![0u8; w * h];
    let mut down = vec![0u8; w];
    for (y, dst) in out.chunks_exact_mut(w.max(1)).enumerate() {
        down.copy_from_slice(&raw[y * w..(y + 1) * w]);
        for src in raw[y.saturating_sub(r) * w..(y + r + 1).min(h) * w].chunks_exact(w) {
            max_into(&mut down, src);
        }
        dst.copy_from_slice(&down);
        for d in 1..=r.min(w.saturating_sub(1)) {
            max_into(&mut dst[d..], &down[..w - d]);
            max_into(&mut dst[..w - d], &down[d..]);
        }
        dst.iter_mut()
            .for_each(|v| *v = if *v > 0 { 255 } else { 0 });
    }
    GrayImage::from_raw(w as u32, h as u32, out).unwrap_or_else(|| GrayImage::new(0, 0))
}

/// `dst[i] = max(dst[i], src[i])` over the two slices' common length.
fn max_into(dst: &mut [u8], src: &[u8]) {
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = (*d).max(s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    #[test]
    fn a_dark_line_is_ink_and_flat_paper_is_not() {
        let g = GrayImage::from_fn(100, 100, |x, _| Luma([if x == 50 { 40 } else { 200 }]));
        let (bin, dark) = adaptive_threshold(&g, RADIUS_DIVISOR);
        assert_eq!(bin.get_pixel(50, 50)[0], 255);
        assert_eq!(bin.get_pixel(20, 50)[0], 0);
        assert_eq!(dark.get_pixel(50, 50)[0], 255);
        assert_eq!(dark.get_pixel(20, 50)[0], 0);
    }

    /// The threshold by definition: each window summed pixel by pixel.
    fn by_definition(img: &GrayImage, radius_divisor: usize) -> (GrayImage, GrayImage) {
        let (w, h) = (img.width() as usize, img.height() as usize);
        let r = (w.max(h) / radius_divisor).max(MIN_RADIUS);
        let mut out = GrayImage::new(w as u32, h as u32);
        let mut dark = GrayImage::new(w as u32, h as u32);
        for y in 0..h {
            for x in 0..w {
                let (mut s, mut n) = (0u32, 0u32);
                for wy in y.saturating_sub(r)..(y + r + 1).min(h) {
                    for wx in x.saturating_sub(r)..(x + r + 1).min(w) {
                        s += u32::from(img.get_pixel(wx as u32, wy as u32)[0]);
                        n += 1;
                    }
                }
                let p = u32::from(img.get_pixel(x as u32, y as u32)[0]);
                if p * n + (s / MARGIN_DIVISOR).max(MIN_MARGIN * n) < s {
                    out.put_pixel(x as u32, y as u32, Luma([255]));
                }
                if p * n < s {
                    let rel = u64::from(s - p * n) * DARKNESS_FULL_SCALE / u64::from(s);
                    dark.put_pixel(x as u32, y as u32, Luma([rel.min(255) as u8]));
                }
            }
        }
        (out, dark)
    }

    #[test]
    fn window_sums_give_the_threshold_by_definition() {
        // Images narrower than the window (3, 5 and 1 across) and, the last
        // two, images spanning several bands of rows (see
        // THRESHOLD_BAND_ROWS).
        for (w, h) in [
            (83, 57),
            (9, 40),
            (3, 40),
            (5, 5),
            (1, 9),
            (300, 12),
            (61, 300),
            (20, 700),
        ] {
            let g = GrayImage::from_fn(w, h, |x, y| {
                Luma([
                    (((x * 31 + y * 17) % 97) as u8).wrapping_mul(3) / 2 + (x % 5 == 0) as u8 * 60
                ])
            });
            let (bin, dark) = adaptive_threshold(&g, RADIUS_DIVISOR);
            let (want_bin, want_dark) = by_definition(&g, RADIUS_DIVISOR);
            assert!(bin == want_bin, "{w}x{h} binary");
            assert!(dark == want_dark, "{w}x{h} darkness");
        }
    }

    #[test]
    fn the_widest_windows_summed_in_16_bits_and_wider_give_the_definition() {
        // Bright pixels, the column sums at their largest: radius 127 (the
        // widest window whose rows a u16 column sum holds, with the row
        // added before the oldest is dropped) and 130 (summed in u32).
        for h in [254, 260] {
            let g = GrayImage::from_fn(12, h, |x, y| {
                Luma([255 - ((x * 7 + y * 3) % 11) as u8 * (y % 3 == 0) as u8 * 20])
            });
            let (bin, dark) = adaptive_threshold(&g, 2);
            let (want_bin, want_dark) = by_definition(&g, 2);
            assert!(bin == want_bin, "height {h} binary");
            assert!(dark == want_dark, "height {h} darkness");
        }
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
        // Radius 40 is wider and taller than the image.
        for r in [1u8, 2, 5, 40] {
            let theirs =
                imageproc::morphology::dilate(&g, imageproc::distance_transform::Norm::LInf, r);
            assert!(dilate(&g, r as usize) == theirs, "radius {r}");
        }
        let thin = GrayImage::from_fn(1, 5, |_, y| Luma([if y == 2 { 255 } else { 0 }]));
        let theirs =
            imageproc::morphology::dilate(&thin, imageproc::distance_transform::Norm::LInf, 1);
        assert!(dilate(&thin, 1) == theirs, "one pixel wide");
        let flat = GrayImage::from_fn(7, 1, |x, _| Luma([if x == 3 { 9 } else { 0 }]));
        let theirs =
            imageproc::morphology::dilate(&flat, imageproc::distance_transform::Norm::LInf, 2);
        assert!(dilate(&flat, 2) == theirs, "one pixel tall, faint ink");
    }
}
