//! The inverse DCT of baseline JPEG blocks, in integers: the fixed-point
//! Loeffler-Ligtenberg-Moschytz transform with 12-bit constants, rounded
//! as stb_image rounds it. That is the arithmetic of zune-jpeg, which
//! decodes the JPEGs `snap-jpeg` does not open (progressive, gray, ...),
//! so a photo's luma is the same to the last bit whichever decoder made it (the page search and the reading
//! were tuned on zune-jpeg's; a float transform within one level of it
//! changed a few grids' outcomes). It is several times faster than the
//! exact transform of `dct`, which the tests hold it to.

use std::num::Wrapping;

use crate::scan::Block;

/// The transform's constants: `x` times 2^12, plus a half, truncated
/// (toward zero, so a negative constant rounds up).
const C0_298: i32 = 1223;
const C0_390: i32 = -1597;
const C0_541: i32 = 2217;
const C0_765: i32 = 3135;
const C0_899: i32 = -3685;
const C1_175: i32 = 4816;
const C1_501: i32 = 6149;
const C1_847: i32 = -7567;
const C1_961: i32 = -8034;
const C2_053: i32 = 8410;
const C2_562: i32 = -10497;
const C3_072: i32 = 12586;

/// What each pass adds before its shift: a rounding half, and in the
/// second the level shift of 128 too (and stb_image's extra 512).
const FIRST_BIAS: i32 = 512;
const FIRST_SHIFT: usize = 10;
const SECOND_BIAS: i32 = 512 + 65_536 + (128 << 17);
const SECOND_SHIFT: usize = 17;

type Rows = [[i32; 8]; 8];

/// Arithmetic that wraps, as the decoders' does: a corrupt scan's
/// coefficients may overflow, and must not stop the decoding.
type W = Wrapping<i32>;

/// One pass of the transform down the rows of `v` (rows are frequencies,
/// lanes the eight columns or rows transformed at once), each result
/// plus `bias` and shifted right by `shift`.
#[inline(always)]
fn pass(v: &Rows, bias: i32, shift: usize) -> Rows {
    let c = Wrapping;
    let mut out = [[0i32; 8]; 8];
    for i in 0..8 {
        let x = |k: usize| Wrapping(v[k][i]);
        let p1 = (x(2) + x(6)) * c(C0_541);
        let t2 = p1 + x(6) * c(C1_847);
        let t3 = p1 + x(2) * c(C0_765);
        let t0 = (x(0) + x(4)) << 12;
        let t1 = (x(0) - x(4)) << 12;
        let bias = c(bias);
        let (x0, x3) = (t0 + t3 + bias, t0 - t3 + bias);
        let (x1, x2) = (t1 + t2 + bias, t1 - t2 + bias);
        let (o0, o1, o2, o3) = odd(x(7), x(5), x(3), x(1));
        let column = [
            x0 + o3,
            x1 + o2,
            x2 + o1,
            x3 + o0,
            x3 - o0,
            x2 - o1,
            x1 - o2,
            x0 - o3,
        ];
        for (row, y) in out.iter_mut().zip(column) {
            row[i] = (y >> shift).0;
        }
    }
    out
}

/// The odd part of a pass, from the coefficients 7, 5, 3 and 1.
#[inline(always)]
fn odd(t0: W, t1: W, t2: W, t3: W) -> (W, W, W, W) {
    let c = Wrapping;
    let (p3, p4) = (t0 + t2, t1 + t3);
    let (p1, p2) = (t0 + t3, t1 + t2);
    let p5 = (p3 + p4) * c(C1_175);
    let p1 = p5 + p1 * c(C0_899);
    let p2 = p5 + p2 * c(C2_562);
    let p3 = p3 * c(C1_961);
    let p4 = p4 * c(C0_390);
    (
        t0 * c(C0_298) + p1 + p3,
        t1 * c(C2_053) + p2 + p4,
        t2 * c(C3_072) + p2 + p3,
        t3 * c(C1_501) + p1 + p4,
    )
}

#[inline(always)]
fn transpose(v: &Rows) -> Rows {
    let mut out = [[0i32; 8]; 8];
    for (i, row) in out.iter_mut().enumerate() {
        for (j, o) in row.iter_mut().enumerate() {
            *o = v[j][i];
        }
    }
    out
}

/// The sample of a block with no AC coefficient (its DC dequantised).
#[inline(always)]
fn flat(dc: i32) -> u8 {
    (dc.wrapping_add(4 + 1024) >> 3).clamp(0, 255) as u8
}

/// The 8x8 samples of `block` (natural order) with quantisers `q`, rows
/// of 8.
pub(crate) fn inverse(block: &Block, q: &[i32; 64]) -> [u8; 64] {
    if block[1..].iter().fold(0, |any, &c| any | c) == 0 {
        return [flat(block[0].wrapping_mul(q[0])); 64];
    }
    let mut v: Rows = [[0; 8]; 8];
    for (r, row) in v.iter_mut().enumerate() {
        for (c, x) in row.iter_mut().enumerate() {
            *x = block[8 * r + c].wrapping_mul(q[8 * r + c]);
        }
    }
    // Down the columns (lanes are columns), then along the rows.
    let columns = transpose(&pass(&v, FIRST_BIAS, FIRST_SHIFT));
    let rows = transpose(&pass(&columns, SECOND_BIAS, SECOND_SHIFT));
    let mut out = [0u8; 64];
    for (o, &x) in out.iter_mut().zip(rows.iter().flatten()) {
        *o = x.clamp(0, 255) as u8;
    }
    out
}

/// [`inverse`], in AVX2 registers where the CPU has them.
pub(crate) fn samples(block: &Block, q: &[i32; 64]) -> [u8; 64] {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2.
        return unsafe { avx2::inverse(block, q) };
    }
    inverse(block, q)
}

/// The transform in AVX2 registers, eight lanes of 32 bits: a row of a
/// block in each. The same arithmetic as [`inverse`], sample for sample.
#[cfg(target_arch = "x86_64")]
pub(crate) mod avx2 {
    use std::arch::x86_64::*;

    use super::*;

    type Regs = [__m256i; 8];

    #[target_feature(enable = "avx2")]
    fn transpose(r: Regs) -> Regs {
        let r: [__m256; 8] = r.map(|x| _mm256_castsi256_ps(x));
        let t0 = _mm256_unpacklo_ps(r[0], r[1]);
        let t1 = _mm256_unpackhi_ps(r[0], r[1]);
        let t2 = _mm256_unpacklo_ps(r[2], r[3]);
        let t3 = _mm256_unpackhi_ps(r[2], r[3]);
        let t4 = _mm256_unpacklo_ps(r[4], r[5]);
        let t5 = _mm256_unpackhi_ps(r[4], r[5]);
        let t6 = _mm256_unpacklo_ps(r[6], r[7]);
        let t7 = _mm256_unpackhi_ps(r[6], r[7]);
        // Columns 0 and 4 (low and high halves) of rows 0-3, 1 and 5, ...
        let s0 = _mm256_shuffle_ps::<0x44>(t0, t2);
        let s1 = _mm256_shuffle_ps::<0xEE>(t0, t2);
        let s2 = _mm256_shuffle_ps::<0x44>(t1, t3);
        let s3 = _mm256_shuffle_ps::<0xEE>(t1, t3);
        let s4 = _mm256_shuffle_ps::<0x44>(t4, t6);
        let s5 = _mm256_shuffle_ps::<0xEE>(t4, t6);
        let s6 = _mm256_shuffle_ps::<0x44>(t5, t7);
        let s7 = _mm256_shuffle_ps::<0xEE>(t5, t7);
        [
            _mm256_permute2f128_ps::<0x20>(s0, s4),
            _mm256_permute2f128_ps::<0x20>(s1, s5),
            _mm256_permute2f128_ps::<0x20>(s2, s6),
            _mm256_permute2f128_ps::<0x20>(s3, s7),
            _mm256_permute2f128_ps::<0x31>(s0, s4),
            _mm256_permute2f128_ps::<0x31>(s1, s5),
            _mm256_permute2f128_ps::<0x31>(s2, s6),
            _mm256_permute2f128_ps::<0x31>(s3, s7),
        ]
        .map(|x| _mm256_castps_si256(x))
    }

    /// [`super::pass`] on registers.
    #[target_feature(enable = "avx2")]
    fn pass<const SHIFT: i32>(v: Regs, bias: i32) -> Regs {
        let (add, sub, mul) = (_mm256_add_epi32, _mm256_sub_epi32, _mm256_mullo_epi32);
        let c = |x: i32| _mm256_set1_epi32(x);
        let p1 = mul(add(v[2], v[6]), c(C0_541));
        let t2 = add(p1, mul(v[6], c(C1_847)));
        let t3 = add(p1, mul(v[2], c(C0_765)));
        let t0 = _mm256_slli_epi32::<12>(add(v[0], v[4]));
        let t1 = _mm256_slli_epi32::<12>(sub(v[0], v[4]));
        let bias = c(bias);
        let (x0, x3) = (add(add(t0, t3), bias), add(sub(t0, t3), bias));
        let (x1, x2) = (add(add(t1, t2), bias), add(sub(t1, t2), bias));
        // The odd part.
        let (t0, t1, t2, t3) = (v[7], v[5], v[3], v[1]);
        let (p3, p4) = (add(t0, t2), add(t1, t3));
        let (p1, p2) = (add(t0, t3), add(t1, t2));
        let p5 = mul(add(p3, p4), c(C1_175));
        let p1 = add(p5, mul(p1, c(C0_899)));
        let p2 = add(p5, mul(p2, c(C2_562)));
        let p3 = mul(p3, c(C1_961));
        let p4 = mul(p4, c(C0_390));
        let o0 = add(mul(t0, c(C0_298)), add(p1, p3));
        let o1 = add(mul(t1, c(C2_053)), add(p2, p4));
        let o2 = add(mul(t2, c(C3_072)), add(p2, p3));
        let o3 = add(mul(t3, c(C1_501)), add(p1, p4));
        [
            add(x0, o3),
            add(x1, o2),
            add(x2, o1),
            add(x3, o0),
            sub(x3, o0),
            sub(x2, o1),
            sub(x1, o2),
            sub(x0, o3),
        ]
        .map(|x| _mm256_srai_epi32::<SHIFT>(x))
    }

    /// [`super::inverse`] on registers.
    #[target_feature(enable = "avx2")]
    pub(crate) fn inverse(block: &Block, q: &[i32; 64]) -> [u8; 64] {
        if block[1..].iter().fold(0, |any, &c| any | c) == 0 {
            return [flat(block[0].wrapping_mul(q[0])); 64];
        }
        let v: Regs = std::array::from_fn(|r| {
            // SAFETY: rows of 8 i32 (32 bytes) within the arrays of 64,
            // read unaligned.
            let (b, q) = unsafe {
                (
                    _mm256_loadu_si256(block.as_ptr().add(8 * r).cast()),
                    _mm256_loadu_si256(q.as_ptr().add(8 * r).cast()),
                )
            };
            _mm256_mullo_epi32(b, q)
        });
        let columns = transpose(pass::<{ FIRST_SHIFT as i32 }>(v, FIRST_BIAS));
        let i = transpose(pass::<{ SECOND_SHIFT as i32 }>(columns, SECOND_BIAS));
        // packs/packus interleave the 128-bit halves: dwords come out as
        // rows 0-3's first four samples, then their last four. Their
        // saturation is the clamp to 0..=255.
        let order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
        let top = _mm256_packus_epi16(
            _mm256_packs_epi32(i[0], i[1]),
            _mm256_packs_epi32(i[2], i[3]),
        );
        let bottom = _mm256_packus_epi16(
            _mm256_packs_epi32(i[4], i[5]),
            _mm256_packs_epi32(i[6], i[7]),
        );
        let mut out = [0u8; 64];
        // SAFETY: `out` holds 64 bytes, two unaligned stores of 32.
        unsafe {
            _mm256_storeu_si256(
                out.as_mut_ptr().cast(),
                _mm256_permutevar8x32_epi32(top, order),
            );
            _mm256_storeu_si256(
                out.as_mut_ptr().add(32).cast(),
                _mm256_permutevar8x32_epi32(bottom, order),
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_transform_is_the_dct_within_a_level_and_the_same_in_registers() {
        let quant: [u16; 64] = std::array::from_fn(|k| 2 + (k as u16 * 7) % 23);
        let q = quant.map(i32::from);
        let mut seed = 12345u32;
        let mut next = || {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            (seed >> 16) as i32
        };
        for case in 0..2000 {
            let mut block: Block = [0; 64];
            // From DC alone to every coefficient set, some far out of range.
            let count = case % 65;
            for _ in 0..count {
                let k = (next() % 64) as usize;
                block[k] = next() % 61 - 30;
            }
            block[0] = next() % 121 - 60;
            let wild = case % 97 == 0;
            if wild {
                block[5] = 1 << 20;
            }
            let fast = inverse(&block, &q);
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the CPU has AVX2.
                let registers = unsafe { avx2::inverse(&block, &q) };
                assert_eq!(registers, fast, "case {case}");
            }
            if wild {
                continue;
            }
            let exact = crate::dct::inverse(&block, &quant);
            for k in 0..64 {
                let d = (i32::from(fast[k]) - i32::from(exact[k])).abs();
                assert!(
                    d <= 1,
                    "case {case}, sample {k}: {} against {}",
                    fast[k],
                    exact[k]
                );
            }
        }
    }
}
