//! The photo's luma (its Y plane) decoded during the walk of the scan.
//!
//! Reading a puzzle needs the gray of every pixel, and an answer needs the
//! walk of the scan (where each MCU starts); both Huffman-decode the whole
//! scan. Decoding the luma while walking does that once, and a luma needs
//! no colour: only the Y blocks are transformed, the chroma blocks are
//! skipped past.
//!
//! The walk is sequential (each MCU's bits start where the last one's
//! end), the transforms are not: where the pool has two threads or more,
//! the scan is walked a band of MCU rows at a time, and each band's blocks
//! are transformed on a thread of their own while the next band is walked.

use crate::bits::Unstuffed;
use crate::idct;
use crate::markers::Headers;
use crate::scan::{Block, Index, Layout, Walk};
use crate::Unsupported;

/// MCU rows walked before their blocks are handed to the transform: two,
/// whose coefficients (about 440 kB for a 16 MP photo) stay in cache from
/// the walk to the transform; a row at a time paid more for the handing
/// over (8.8 against 12.6-14 ms for a 16 MP photo on two cores), eight no
/// less.
const BAND_ROWS: usize = 2;

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
                // A whole row of the block (all but the right edge's) in
                // one move of a length known here, not a call to memmove.
                if w == 8 {
                    out[at..at + 8].copy_from_slice(line);
                } else {
                    out[at..at + w].copy_from_slice(&line[..w]);
                }
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
/// right and bottom edges is dropped). Each block is zeroed after: the
/// walk stores only a block's coefficients that are not zero.
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
    let band_blocks = BAND_ROWS * layout.across * place.per_mcu;
    let mut bands = plane.chunks_mut(BAND_ROWS * layout.mcu_h * width);
    let mut walk = Walk::new(h, data);
    // A band's MCUs: all but perhaps the last band's are BAND_ROWS rows.
    let mcus = |band: usize| {
        (BAND_ROWS * layout.across).min(layout.count() - band * BAND_ROWS * layout.across)
    };
    let bands_count = layout.down.div_ceil(BAND_ROWS);
    let beside = match rayon::current_num_threads() {
        1 => 0,
        _ => transform_beside(
            &mut walk,
            &mut bands,
            bands_count,
            band_blocks,
            &mcus,
            width,
            &place,
        )?,
    };
    // On one thread, or where no thread could be started: each band walked
    // and transformed here.
    let mut blocks = vec![[0; 64]; band_blocks];
    for (band, out) in (beside..bands_count).zip(&mut bands) {
        let count = mcus(band) * place.per_mcu;
        walk.mcus(mcus(band), &mut blocks[..count])?;
        transform_band(&mut blocks[..count], out, width, &place);
    }
    Ok((walk.finish()?, plane))
}

/// Bands of coefficients on their way to the transform at once: the walk
/// runs ahead of it by this many at most.
const BANDS_IN_FLIGHT: usize = 3;

/// The walk on this thread, each band's transform on a thread of its own
/// a band or two behind (not the pool's: a pool thread might not take the
/// work before the walk needs the buffers back). The buffers go round:
/// walked here, sent with their rows of the plane to be transformed (which
/// zeroes them), sent back. The bands done: all of them, or none when no
/// thread could be started (WebAssembly in a browser, a process at its
/// limit).
fn transform_beside<'p>(
    walk: &mut Walk<'_>,
    bands: &mut impl Iterator<Item = &'p mut [u8]>,
    bands_count: usize,
    band_blocks: usize,
    mcus: &impl Fn(usize) -> usize,
    width: usize,
    place: &Place,
) -> Result<usize, Unsupported> {
    let (to_transform, walked) =
        std::sync::mpsc::sync_channel::<(Vec<Block>, usize, &mut [u8])>(BANDS_IN_FLIGHT);
    let (to_walk, free) = std::sync::mpsc::channel::<Vec<Block>>();
    std::thread::scope(|scope| {
        let transform = std::thread::Builder::new()
            .name("luma".into())
            .spawn_scoped(scope, move || {
                for (mut blocks, count, out) in walked {
                    transform_band(&mut blocks[..count], out, width, place);
                    // The walk may have stopped; then the buffer is not needed.
                    let _ = to_walk.send(blocks);
                }
            });
        if transform.is_err() {
            return Ok(0);
        }
        // Dropped on any return, so that the transform's thread ends.
        let to_transform = to_transform;
        let mut made = 0;
        for (band, out) in (0..bands_count).zip(bands) {
            let mut blocks = match free.try_recv() {
                Ok(blocks) => blocks,
                Err(_) if made < BANDS_IN_FLIGHT + 1 => {
                    made += 1;
                    vec![[0; 64]; band_blocks]
                }
                Err(_) => free.recv().map_err(|_| Unsupported::Data)?,
            };
            let count = mcus(band) * place.per_mcu;
            walk.mcus(mcus(band), &mut blocks[..count])?;
            if to_transform.send((blocks, count, out)).is_err() {
                return Err(Unsupported::Data);
            }
        }
        Ok(bands_count)
    })
}
