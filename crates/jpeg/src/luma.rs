//! The photo's luma (its Y plane) decoded during the walk of the scan.
//!
//! Reading a puzzle needs the gray of every pixel, and an answer needs the
//! walk of the scan (where each MCU starts); both Huffman-decode the whole
//! scan. Decoding the luma while walking does that once, and a luma needs
//! no colour: only the Y blocks are transformed, the chroma blocks are
//! skipped past.
//!
//! The walk is sequential (each MCU's bits start where the last one's
//! end), the transforms are not: the scan is walked a band of MCU rows at a
//! time, and each band's blocks are transformed on another thread of the
//! pool while the next band is walked.

use crate::bits::Unstuffed;
use crate::idct;
use crate::markers::Headers;
use crate::scan::{Block, Index, Layout, Walk};
use crate::Unsupported;

/// MCU rows walked before their blocks are transformed: one, whose
/// coefficients (about 220 kB for a 16 MP photo) stay in cache from the
/// walk to the transform; four measured no faster.
const BAND_ROWS: usize = 1;

/// One MCU row's blocks transformed into its rows of the plane (see
/// [`transform_band`]).
fn transform_row(blocks: &mut [Block], out: &mut [u8], width: usize, place: &Place) {
    transform_row_with(blocks, out, width, place, idct::inverse);
}

/// [`transform_row`] with the transform `inverse` (samples in rows of 8).
#[inline(always)]
fn transform_row_with(
    blocks: &mut [Block],
    out: &mut [u8],
    width: usize,
    place: &Place,
    inverse: impl Fn(&Block, &[i32; 64]) -> [u8; 64],
) {
    let rows = out.len() / width;
    for (i, block) in blocks.iter_mut().enumerate() {
        let (mx, b) = (i / place.per_mcu, i % place.per_mcu);
        let (x0, y0) = (mx * place.mcu_w + 8 * (b % place.h), 8 * (b / place.h));
        if x0 < width && y0 < rows {
            let samples = inverse(block, &place.q);
            let w = (width - x0).min(8);
            for (y, line) in samples.chunks_exact(8).enumerate().take(rows - y0) {
                let at = (y0 + y) * width + x0;
                out[at..at + w].copy_from_slice(&line[..w]);
            }
        }
        *block = [0; 64];
    }
}

/// [`transform_row`] with the transform in AVX2 registers.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn transform_row_avx2(blocks: &mut [Block], out: &mut [u8], width: usize, place: &Place) {
    transform_row_with(blocks, out, width, place, |b, q| idct::avx2::inverse(b, q));
}

/// Where a band's blocks go, and their quantisers.
struct Place {
    /// MCU size in pixels.
    mcu_w: usize,
    mcu_h: usize,
    /// The luma's blocks across an MCU, and in one.
    h: usize,
    per_mcu: usize,
    /// MCUs across the image.
    across: usize,
    /// The luma's quantisers, natural order.
    q: [i32; 64],
}

/// The blocks of one band of MCU rows transformed into its rows of the
/// plane (`out`, `width` pixels a row; the MCUs' padding past the image's
/// right and bottom edges is dropped). Each block is zeroed after, as the
/// walk needs it for the band after next.
fn transform_band(blocks: &mut [Block], out: &mut [u8], width: usize, place: &Place) {
    #[cfg(target_arch = "x86_64")]
    let avx2 = std::arch::is_x86_feature_detected!("avx2");
    let rows = out
        .chunks_mut(place.mcu_h * width)
        .zip(blocks.chunks_mut(place.across * place.per_mcu));
    for (out, blocks) in rows {
        #[cfg(target_arch = "x86_64")]
        if avx2 {
            // SAFETY: the CPU has AVX2 (checked above).
            unsafe { transform_row_avx2(blocks, out, width, place) };
            continue;
        }
        transform_row(blocks, out, width, place);
    }
}

/// Walks the scan as [`crate::scan::index`] does and decodes its first
/// component's samples: the luma plane, `width` x `height`, rows top down.
pub(crate) fn index_and_luma(
    h: &Headers,
    data: &Unstuffed,
) -> Result<(Index, Vec<u8>), Unsupported> {
    let layout = Layout::of(h);
    let y = &h.components[0];
    // Luma at full resolution: its sampling factors are the largest.
    if h.components.iter().any(|c| c.h > y.h || c.v > y.v) {
        return Err(Unsupported::Sampling);
    }
    let place = Place {
        mcu_w: layout.mcu_w,
        mcu_h: layout.mcu_h,
        h: y.h,
        per_mcu: y.h * y.v,
        across: layout.across,
        q: y.quant.map(i32::from),
    };
    let (width, height) = (h.width, h.height);
    let mut plane = vec![0u8; width * height];
    let band_blocks = BAND_ROWS * layout.across * y.h * y.v;
    let (mut walking, mut walked): (Vec<Block>, Vec<Block>) =
        (vec![[0; 64]; band_blocks], vec![[0; 64]; band_blocks]);
    let mut walk = Walk::new(h, data);
    let mut pending: Option<(&mut [u8], usize)> = None;
    let mut bands = plane.chunks_mut(BAND_ROWS * layout.mcu_h * width);
    let mut row = 0;
    while row < layout.down {
        let rows = BAND_ROWS.min(layout.down - row);
        let count = rows * layout.across * y.h * y.v;
        let (walked_ok, ()) = rayon::join(
            || walk.mcus(rows * layout.across, &mut walking[..count]),
            || {
                if let Some((out, count)) = pending.take() {
                    transform_band(&mut walked[..count], out, width, &place);
                }
            },
        );
        walked_ok?;
        std::mem::swap(&mut walking, &mut walked);
        pending = bands.next().map(|out| (out, count));
        row += rows;
    }
    if let Some((out, count)) = pending {
        transform_band(&mut walked[..count], out, width, &place);
    }
    Ok((walk.finish()?, plane))
}
