//! The 8x8 DCT (exact, in floats) both ways, zigzag order, and JFIF's
//! YCbCr.

/// The natural (row-major) index of each zigzag position.
pub(crate) const ZIGZAG: [usize; 64] = [
    0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20,
    13, 6, 7, 14, 21, 28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59,
    52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
];

/// The DCT's basis as a matrix: `basis[u][x] = c(u) / 2 cos((2x + 1) u pi / 16)`,
/// orthonormal, so the inverse is its transpose.
fn basis() -> &'static [[f32; 8]; 8] {
    static BASIS: std::sync::OnceLock<[[f32; 8]; 8]> = std::sync::OnceLock::new();
    BASIS.get_or_init(|| {
        std::array::from_fn(|u| {
            let c = if u == 0 {
                std::f64::consts::FRAC_1_SQRT_2
            } else {
                1.0
            };
            std::array::from_fn(|x| {
                let angle = (2 * x + 1) as f64 * u as f64 * std::f64::consts::PI / 16.0;
                (c / 2.0 * angle.cos()) as f32
            })
        })
    })
}

/// `out[y][x] = sum over u, v of basis[u][y] f[u][v] basis[v][x]` with
/// `f` rows of 8 (natural order): the inverse DCT when `f` holds
/// coefficients, and, with the basis transposed, the forward one. Rows of
/// `f` that are all zero (most of a photo's high frequencies) are skipped.
#[inline(always)]
fn transform(f: &[f32; 64], basis: &[[f32; 8]; 8]) -> [f32; 64] {
    // rows[u][x] = sum over v of f[u][v] basis[v][x]
    let mut rows = [[0f32; 8]; 8];
    for (u, row) in rows.iter_mut().enumerate() {
        let fu = &f[8 * u..8 * u + 8];
        if !nonzero(fu) {
            continue;
        }
        for (v, &c) in fu.iter().enumerate() {
            if c != 0.0 {
                for x in 0..8 {
                    row[x] += c * basis[v][x];
                }
            }
        }
    }
    let mut out = [0f32; 64];
    for (u, row) in rows.iter().enumerate() {
        if !nonzero(row) {
            continue;
        }
        for y in 0..8 {
            let b = basis[u][y];
            for x in 0..8 {
                out[8 * y + x] += b * row[x];
            }
        }
    }
    out
}

/// [`transform`], a row of eight in one AVX2 register where the CPU has
/// them (the same operations in the same order, so the same sums).
fn transformed(f: &[f32; 64], basis: &[[f32; 8]; 8]) -> [f32; 64] {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2.
        return unsafe { transform_avx2(f, basis) };
    }
    transform(f, basis)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn transform_avx2(f: &[f32; 64], basis: &[[f32; 8]; 8]) -> [f32; 64] {
    transform(f, basis)
}

/// Whether any of `values` is not zero (no early exit: eight compares
/// vectorise, a branch per value would not).
#[inline]
fn nonzero(values: &[f32]) -> bool {
    values.iter().fold(false, |any, &c| any | (c != 0.0))
}

/// The basis transposed: `transform` with it is the forward DCT.
fn basis_transposed() -> &'static [[f32; 8]; 8] {
    static TRANSPOSED: std::sync::OnceLock<[[f32; 8]; 8]> = std::sync::OnceLock::new();
    TRANSPOSED.get_or_init(|| {
        let b = basis();
        std::array::from_fn(|i| std::array::from_fn(|j| b[j][i]))
    })
}

/// Samples (0..=255, rows of 8) of quantised coefficients `block` (natural
/// order) with quantisers `quant`: the exact transform, which the decoding
/// (`idct`, in integers) is held to.
#[cfg(test)]
pub(crate) fn inverse(block: &[i32; 64], quant: &[u16; 64]) -> [u8; 64] {
    let f: [f32; 64] = std::array::from_fn(|k| (block[k] * i32::from(quant[k])) as f32);
    let samples = transformed(&f, basis());
    // Clamped first, then +0.5 and truncated: rounding without a libm call.
    samples.map(|s| (s + 128.5).clamp(0.0, 255.0) as u8)
}

/// A bound beyond any coefficient [`forward`] makes of samples in
/// 0..=255 (at most 1024 either way), as a float.
const COEFFICIENT_BOUND: f32 = 32767.0;

/// Quantised coefficients (natural order) of `samples` (rows of 8,
/// 0.0..=255.0) with quantisers `quant`.
pub(crate) fn forward(samples: &[f32; 64], quant: &[u16; 64]) -> [i32; 64] {
    // F[u][v] = sum over y, x of basis[u][y] s[y][x] basis[v][x]: the same
    // sums as the inverse with the basis transposed and s for f.
    let s: [f32; 64] = samples.map(|v| v - 128.0);
    let f = transformed(&s, basis_transposed());
    std::array::from_fn(|k| {
        let q = f[k] / f32::from(quant[k]);
        // Rounded half away from zero (the conversion truncates toward it).
        // Samples in 0..=255 make coefficients within +-1024; the bounds
        // (NaN goes to the lower) only make the conversion sound for any
        // input, without `as`'s saturating steps.
        // Not `clamp`: it keeps NaN, which the conversion must not see.
        #[allow(clippy::manual_clamp)]
        let rounded = (q + 0.5f32.copysign(q))
            .max(-COEFFICIENT_BOUND)
            .min(COEFFICIENT_BOUND);
        // SAFETY: `rounded` is finite and within i32 (bounded above).
        unsafe { rounded.to_int_unchecked::<i32>() }
    })
}

/// [`ycbcr`] of each pixel of `rgb` (3 bytes a pixel), component by
/// component: `planes[c][i]` is component `c` of pixel `i`. Compiled for
/// AVX2 where the CPU has it (the same arithmetic, so the same values).
pub(crate) fn ycbcr_planes(rgb: &[u8], planes: [&mut [f32]; 3]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (checked above).
        unsafe { ycbcr_planes_avx2(rgb, planes) };
        return;
    }
    ycbcr_planes_with(rgb, planes);
}

/// [`ycbcr_planes`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn ycbcr_planes_avx2(rgb: &[u8], planes: [&mut [f32]; 3]) {
    ycbcr_planes_with(rgb, planes);
}

/// [`ycbcr_planes`], inlined into each of its compiled forms.
#[inline(always)]
fn ycbcr_planes_with(rgb: &[u8], [y, cb, cr]: [&mut [f32]; 3]) {
    for (((px, y), cb), cr) in rgb.chunks_exact(3).zip(y).zip(cb).zip(cr) {
        [*y, *cb, *cr] = ycbcr([px[0], px[1], px[2]]);
    }
}

/// JFIF's YCbCr of an RGB pixel.
#[inline(always)]
pub(crate) fn ycbcr([r, g, b]: [u8; 3]) -> [f32; 3] {
    let (r, g, b) = (f32::from(r), f32::from(g), f32::from(b));
    [
        0.299 * r + 0.587 * g + 0.114 * b,
        -0.168_736 * r - 0.331_264 * g + 0.5 * b + 128.0,
        0.5 * r - 0.418_688 * g - 0.081_312 * b + 128.0,
    ]
}

/// JFIF's RGB of a YCbCr pixel, in 16.16 fixed point as libjpeg computes it.
#[inline]
pub(crate) fn rgb([y, cb, cr]: [u8; 3]) -> [u8; 3] {
    const HALF: i32 = 1 << 15;
    let (y, cb, cr) = (i32::from(y) << 16, i32::from(cb) - 128, i32::from(cr) - 128);
    [
        y + 91_881 * cr,
        y - 22_554 * cb - 46_802 * cr,
        y + 116_130 * cb,
    ]
    .map(|c| ((c + HALF) >> 16).clamp(0, 255) as u8)
}

/// [`rgb`] of each pixel of a row: `line` (3 bytes a pixel) from the
/// samples `spread[c][x]` of its components, compiled for AVX2 where the
/// CPU has it (the same integer arithmetic, so the same pixels).
pub(crate) fn rgb_row(spread: &[[u8; 16]; 3], line: &mut [u8]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (checked above).
        unsafe { rgb_row_avx2(spread, line) };
        return;
    }
    rgb_row_with(spread, line);
}

/// [`rgb_row`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn rgb_row_avx2(spread: &[[u8; 16]; 3], line: &mut [u8]) {
    rgb_row_with(spread, line);
}

/// [`rgb_row`], inlined into each of its compiled forms.
#[inline(always)]
fn rgb_row_with(spread: &[[u8; 16]; 3], line: &mut [u8]) {
    let [y, cb, cr] = spread;
    for (((px, &y), &cb), &cr) in line.chunks_exact_mut(3).zip(y).zip(cb).zip(cr) {
        px.copy_from_slice(&rgb([y, cb, cr]));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_comes_back_through_both_transforms() {
        let quant = [1u16; 64];
        let samples: [f32; 64] = std::array::from_fn(|k| ((k * 37) % 256) as f32);
        let back = inverse(&forward(&samples, &quant), &quant);
        for k in 0..64 {
            assert!((f32::from(back[k]) - samples[k]).abs() <= 1.0, "sample {k}");
        }
    }

    #[test]
    fn a_flat_block_is_its_dc_alone() {
        let quant = [2u16; 64];
        let coefficients = forward(&[200.0; 64], &quant);
        // DC = 8 * (200 - 128) / 2
        assert_eq!(coefficients[0], 288);
        assert!(coefficients[1..].iter().all(|&c| c == 0));
    }

    #[test]
    fn colours_come_back_through_ycbcr() {
        for px in [[0, 0, 0], [255, 255, 255], [30, 80, 220], [220, 30, 30]] {
            let back = rgb(ycbcr(px).map(|c| c.round() as u8));
            for i in 0..3 {
                assert!(
                    (i32::from(back[i]) - i32::from(px[i])).abs() <= 2,
                    "{px:?} {back:?}"
                );
            }
        }
    }

    #[test]
    fn zigzag_visits_every_position_once() {
        let mut seen = [false; 64];
        for &k in &ZIGZAG {
            seen[k] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }
}
