//! Drawing the answer back onto the photo, in perspective.
//!
//! Each missing digit is rendered once, flat, into a coverage mask (an
//! anti-aliased glyph from the embedded Go Bold font). For every photo pixel
//! inside a target cell, the inverse homography gives the point of the flat
//! grid it shows, and the mask is sampled there: the digit therefore follows
//! the grid's perspective and size, as if it had been printed on the page.

use ab_glyph::{Font, FontRef, PxScale, ScaleFont};
use image::{Rgb, RgbImage};
use rayon::prelude::*;

use crate::data::PartReading;
use crate::geometry::{Homography, CELL_PX};

/// The font the answer is written in: Go Bold (BSD-3-Clause, Bigelow &
/// Holmes; Debian package fonts-go), chosen for its clear, wide digits and
/// small file. Licence in `assets/Go-Bold.LICENSE`.
pub(crate) const FONT: &[u8] = include_bytes!("../../../assets/Go-Bold.ttf");

/// The colour of drawn digits: a saturated blue, unlike the black, grey or
/// red ink of printed clues and readable on white and on shaded cells.
pub(crate) const INK: [u8; 3] = [0, 90, 230];

/// Side of the flat mask a digit is rendered into. Large enough that even a
/// 12 MP photo's cells (~150 px) are drawn without visible blur.
const MASK: usize = 160;

/// Height of a digit as a fraction of the cell.
pub(crate) const DIGIT_HEIGHT: f32 = 0.62;

/// Why the answer could not be drawn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OverlayError {
    /// The grid-to-photo transform cannot be inverted (degenerate grid).
    Degenerate,
}

impl std::fmt::Display for OverlayError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the grid's outline is degenerate; cannot draw the answer"
        )
    }
}

impl std::error::Error for OverlayError {}

/// Largest value drawn: 1-9 and A-Z, the text alphabet of every shape.
const MAX_SYMBOL: u8 = snap_solver::MAX_DIGITS as u8;

/// Side of a mask as stored: the `MASK` texels framed by one texel of zero
/// coverage on each side. Bilinear sampling reaches one texel past the
/// mask's edge, where coverage is zero; the frame holds those zeros, so
/// that no tap needs a bounds check.
const PADDED: usize = MASK + 2;

/// A symbol's flat coverage mask, `MASK` x `MASK`, values 0..1, stored
/// framed (see [`PADDED`]): texel (x, y), -1..=MASK each way, is at
/// `(y + 1) * PADDED + x + 1`.
struct Mask {
    texels: Box<[f32; PADDED * PADDED]>,
}

impl Mask {
    /// A mask with no ink.
    fn blank() -> Mask {
        Mask {
            texels: Box::new([0.0; PADDED * PADDED]),
        }
    }

    /// Texel (x, y) of the mask, each less than `MASK`.
    fn texel(&self, x: usize, y: usize) -> f32 {
        self.texels[(y + 1) * PADDED + x + 1]
    }

    /// Sets texel (x, y) of the mask, each less than `MASK`.
    fn set(&mut self, x: usize, y: usize, coverage: f32) {
        self.texels[(y + 1) * PADDED + x + 1] = coverage;
    }

    /// Bilinear sample at mask coordinates (x, y): zero coverage off the
    /// mask.
    #[inline]
    fn sample(&self, x: f32, y: f32) -> f32 {
        // Floors by truncating from at least 0 (`floor` is a libm call on
        // the baseline x86-64 target); a point more than half a pixel off
        // the mask samples zero coverage either way, so a point past the
        // frame is taken at its edge (MASK + 1: still past it).
        let edge = (MASK + 1) as f32;
        let (xs, ys) = ((x + 0.5).max(0.0).min(edge), (y + 0.5).max(0.0).min(edge));
        // SAFETY: xs and ys are finite and within 0..=MASK + 1 (`max`
        // gives 0 for NaN), so the conversion needs no saturation.
        let (tx, ty) = unsafe { (xs.to_int_unchecked::<u32>(), ys.to_int_unchecked::<u32>()) };
        let (fx, fy) = (xs - tx as f32, ys - ty as f32);
        // The taps are texels tx - 1 and tx across, ty - 1 and ty down,
        // stored from index ty * PADDED + tx. Past the frame (tx or ty over
        // MASK) all four lie off the mask: zero coverage. The taps are then
        // read at the frame's edge and not used, so that no point branches
        // (where the points fall past the frame is unpredictable).
        let (tx, ty) = (tx as usize, ty as usize);
        let on_mask = tx <= MASK && ty <= MASK;
        let at = ty.min(MASK) * PADDED + tx.min(MASK);
        let t = &self.texels;
        let (a, b, c, d) = (t[at], t[at + 1], t[at + PADDED], t[at + PADDED + 1]);
        let top = a * (1.0 - fx) + b * fx;
        let bottom = c * (1.0 - fx) + d * fx;
        if on_mask {
            top * (1.0 - fy) + bottom * fy
        } else {
            0.0
        }
    }
}

/// Flat coverage masks of the symbols 1-9 and A-Z, each rendered the
/// first time it is drawn: a 9x9 answer draws nine of them.
struct Glyphs {
    /// Per symbol, its mask and the part of it that holds ink, as a
    /// [`Window`] of the mask (0..1 each way): a digit covers about a
    /// quarter of its cell, so only the photo pixels over this box need
    /// sampling.
    symbols: Vec<std::sync::OnceLock<(Mask, Window)>>,
}

impl Glyphs {
    fn new() -> Glyphs {
        Glyphs {
            symbols: (1..=MAX_SYMBOL)
                .map(|_| std::sync::OnceLock::new())
                .collect(),
        }
    }

    /// Symbol `d`'s mask and ink window, rendered on first use.
    fn symbol(&self, d: u8) -> &(Mask, Window) {
        self.symbols[(d - 1) as usize].get_or_init(|| {
            // The font is compiled in and known good; failing to parse it
            // would be a build defect, so fall back to an empty mask rather
            // than panic.
            let mask = match FontRef::try_from_slice(FONT) {
                Ok(font) => render_digit(&font, d),
                Err(_) => Mask::blank(),
            };
            let ink = ink_window(&mask);
            (mask, ink)
        })
    }

    /// The window of symbol `d`'s mask that holds ink.
    fn ink(&self, d: u8) -> Window {
        self.symbol(d).1
    }

    /// Symbol `d`'s mask.
    fn mask(&self, d: u8) -> &Mask {
        &self.symbol(d).0
    }
}

/// Renders symbol `d` (1-9, A-Z for 10 and up) centred in a `MASK`-square
/// coverage mask.
fn render_digit(font: &FontRef<'_>, d: u8) -> Mask {
    let mut mask = Mask::blank();
    let c = snap_solver::digit_char(d);
    // Scale so that the digit's ink height is DIGIT_HEIGHT of the cell.
    let probe = font.glyph_id(c).with_scale(PxScale::from(MASK as f32));
    let Some(outline) = font.outline_glyph(probe) else {
        return mask;
    };
    let ink = outline.px_bounds().height().max(1.0);
    let scale = MASK as f32 * MASK as f32 * DIGIT_HEIGHT / ink;
    let glyph = font.glyph_id(c).with_scale(PxScale::from(scale));
    let Some(outline) = font.outline_glyph(glyph) else {
        return mask;
    };
    let b = outline.px_bounds();
    let (ox, oy) = (
        ((MASK as f32 - b.width()) / 2.0).round() as i64,
        ((MASK as f32 - b.height()) / 2.0).round() as i64,
    );
    outline.draw(|x, y, coverage| {
        let (px, py) = (x as i64 + ox, y as i64 + oy);
        if (0..MASK as i64).contains(&px) && (0..MASK as i64).contains(&py) {
            mask.set(px as usize, py as usize, coverage.clamp(0.0, 1.0));
        }
    });
    mask
}

/// The box of `mask` holding nonzero coverage, grown by one texel each way
/// (bilinear sampling reaches one texel out), as fractions of the mask.
/// An empty mask gives an empty window.
fn ink_window(mask: &Mask) -> Window {
    let (mut x0, mut y0, mut x1, mut y1) = (MASK, MASK, 0, 0);
    for (x, y) in (0..MASK).flat_map(|y| (0..MASK).map(move |x| (x, y))) {
        if mask.texel(x, y) > 0.0 {
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x + 1), y1.max(y + 1));
        }
    }
    if x0 >= x1 {
        return Window::EMPTY;
    }
    let f = |t: usize| t as f32 / MASK as f32;
    Window {
        u0: f(x0.saturating_sub(1)),
        v0: f(y0.saturating_sub(1)),
        u1: f((x1 + 1).min(MASK)),
        v1: f((y1 + 1).min(MASK)),
    }
}

/// A rectangle of a cell's own coordinates (0..1 across, 0..1 down) that a
/// mark may cover: only the photo pixels over it are visited.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Window {
    u0: f32,
    v0: f32,
    u1: f32,
    v1: f32,
}

impl Window {
    /// The whole cell.
    const CELL: Window = Window {
        u0: 0.0,
        v0: 0.0,
        u1: 1.0,
        v1: 1.0,
    };

    /// Nothing to paint.
    const EMPTY: Window = Window {
        u0: 0.0,
        v0: 0.0,
        u1: 0.0,
        v1: 0.0,
    };
}

/// The homography from the upright part's square onto the photo, the
/// square's side in pixels and the part's cells per side.
fn square(part: &PartReading) -> (&Homography, f32, usize) {
    (&part.grid_to_photo, (part.n * CELL_PX) as f32, part.n)
}

/// Draws `digits` onto `photo` in `part`'s perspective: each `(cell,
/// value)` is a cell index in reading order of the upright part (see
/// [`PartReading::local_cell`]) and a value 1-9, or 10 and up for `A`, ...
pub fn draw_digits(
    photo: &mut RgbImage,
    part: &PartReading,
    digits: &[(usize, u8)],
) -> Result<(), OverlayError> {
    let (grid_to_photo, grid_side, n) = square(part);
    let glyphs = glyphs();
    let size = photo.dimensions();
    // The digits' coverage is found on the pool, digit by digit (a 12 MP
    // answer samples the glyphs at hundreds of thousands of pixels), then
    // blended in in order.
    let covered = digits
        .par_iter()
        .filter(|&&(index, digit)| (1..=MAX_SYMBOL).contains(&digit) && index < n * n)
        .map(|&(index, digit)| {
            let (window, mask) = (glyphs.ink(digit), glyphs.mask(digit));
            coverage(
                size,
                grid_to_photo,
                grid_side,
                n,
                index,
                (window, Some(mask)),
                |u, v| mask.sample(u * MASK as f32, v * MASK as f32),
            )
        })
        .collect::<Result<Vec<Option<Coverage>>, OverlayError>>()?;
    for c in covered.iter().flatten() {
        blend(photo, c, INK);
    }
    Ok(())
}

/// The colour of marks around cells to check and wrong entries: a red
/// that stands out from black print, blue answers and pencil grey.
pub(crate) const MARK: [u8; 3] = [220, 30, 30];

/// Line width of a mark, as a fraction of the cell.
pub(crate) const MARK_WIDTH: f32 = 0.07;

/// Radius of a mark's ring, as a fraction of the cell.
pub(crate) const MARK_RADIUS: f32 = 0.42;

/// Rings `part`'s `cells` (index in reading order of the upright part) in
/// red, in perspective: the cells a person should check, or their wrong
/// entries.
pub fn mark_cells(
    photo: &mut RgbImage,
    part: &PartReading,
    cells: &[usize],
) -> Result<(), OverlayError> {
    let (grid_to_photo, grid_side, n) = square(part);
    paint_cells(photo, grid_to_photo, grid_side, n, cells, MARK, |u, v| {
        let d = ((u - 0.5).powi(2) + (v - 0.5).powi(2)).sqrt();
        // Anti-aliased ring: full inside the band, fading over a twentieth of a cell.
        let edge = (d - MARK_RADIUS).abs() - MARK_WIDTH / 2.0;
        (1.0 - edge * 20.0).clamp(0.0, 1.0)
    })
}

/// [`paint_cell`] over the whole of each of `cells` (index in reading
/// order; indices outside the grid are skipped) with the same `alpha`.
fn paint_cells(
    photo: &mut RgbImage,
    grid_to_photo: &Homography,
    grid_side: f32,
    n: usize,
    cells: &[usize],
    colour: [u8; 3],
    alpha: impl Fn(f32, f32) -> f32 + Sync,
) -> Result<(), OverlayError> {
    for &index in cells.iter().filter(|&&i| i < n * n) {
        let window = Window::CELL;
        paint_cell(
            photo,
            grid_to_photo,
            grid_side,
            n,
            index,
            window,
            colour,
            &alpha,
        )?;
    }
    Ok(())
}

/// Blends `colour` into the photo pixels of one cell with the coverage
/// `alpha(u, v)` of the cell's own coordinates (0..1 across, 0..1 down),
/// found for each photo pixel through the inverse homography. Only the
/// pixels over `window` are visited: `alpha` must be zero outside it.
#[allow(clippy::too_many_arguments)]
fn paint_cell(
    photo: &mut RgbImage,
    grid_to_photo: &Homography,
    grid_side: f32,
    n: usize,
    index: usize,
    window: Window,
    colour: [u8; 3],
    alpha: impl Fn(f32, f32) -> f32 + Sync,
) -> Result<(), OverlayError> {
    let size = photo.dimensions();
    if let Some(c) = coverage(
        size,
        grid_to_photo,
        grid_side,
        n,
        index,
        (window, None),
        alpha,
    )? {
        blend(photo, &c, colour);
    }
    Ok(())
}

/// Pixels of a row [`coverage`] maps to the cell's coordinates at a time:
/// enough that the divisions fill the vector unit, few enough that the
/// run's values stay in the first-level cache.
const RUN: usize = 32;

/// What [`coverage`] finds: the photo pixels `area` (`[x0, y0, x1, y1]`,
/// ends exclusive) and the coverage of each, rows of the area's width.
struct Coverage {
    area: [u32; 4],
    alpha: Vec<f32>,
}

/// The coverage [`paint_cell`] blends in on a photo of `size`: `None`
/// when the window covers no pixel.
fn coverage(
    size: (u32, u32),
    grid_to_photo: &Homography,
    grid_side: f32,
    n: usize,
    index: usize,
    (window, mask): (Window, Option<&Mask>),
    alpha: impl Fn(f32, f32) -> f32 + Sync,
) -> Result<Option<Coverage>, OverlayError> {
    let to_grid = grid_to_photo.inverse().ok_or(OverlayError::Degenerate)?;
    let cell = grid_side / n as f32;
    let (r, c) = ((index / n) as f32, (index % n) as f32);
    let Some(area) = cell_area(grid_to_photo, grid_side, n, index, window, size) else {
        return Ok(None);
    };
    let [min_x, min_y, max_x, max_y] = area;
    let width = (max_x - min_x) as usize;
    if width == 0 {
        return Ok(None);
    }
    let mut values = vec![0f32; width * (max_y - min_y) as usize];
    let map = CellMap {
        m: &to_grid.m,
        cell: f64::from(cell),
        at: (c, r),
        window,
        mask,
    };
    // A digit of a 12 MP photo's cell covers tens of thousands of pixels:
    // its rows are done on the pool.
    values
        .par_chunks_mut(width)
        .enumerate()
        .for_each(|(k, row)| {
            let y = min_y + k as u32;
            coverage_row(
                row,
                (f64::from(min_x) + 0.5, f64::from(y) + 0.5),
                &map,
                &alpha,
            );
        });
    Ok(Some(Coverage {
        area,
        alpha: values,
    }))
}

/// What [`coverage_row`] maps a photo pixel through to its cell: the
/// inverse homography (photo to grid), the cell's side in grid units, the
/// cell's column and row, the window of the cell that `alpha` covers, and
/// the mask it samples.
struct CellMap<'a> {
    m: &'a [f64; 9],
    cell: f64,
    at: (f32, f32),
    window: Window,
    /// The glyph mask `alpha` samples (at 0..MASK across the cell), when
    /// it is one: then, in AVX2, eight points are sampled at once.
    mask: Option<&'a Mask>,
}

/// One row of a [`Coverage`]: `row[i]` is `alpha` at the cell's own
/// coordinates of the photo pixel whose centre is `start` plus `i` across,
/// and stays as it is off `map`'s window. Compiled for AVX2 where the CPU
/// has it (four lanes of f64 for the divisions; the same arithmetic, so
/// the same values).
fn coverage_row(
    row: &mut [f32],
    start: (f64, f64),
    map: &CellMap,
    alpha: &(impl Fn(f32, f32) -> f32 + Sync),
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2 (checked above).
        unsafe { coverage_row_avx2(row, start, map, alpha) };
        return;
    }
    coverage_row_with::<false>(row, start, map, alpha);
}

/// [`coverage_row`] compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn coverage_row_avx2(
    row: &mut [f32],
    start: (f64, f64),
    map: &CellMap,
    alpha: &(impl Fn(f32, f32) -> f32 + Sync),
) {
    coverage_row_with::<true>(row, start, map, alpha);
}

/// [`coverage_row`], inlined into each of its compiled forms; `AVX2` true
/// only in the one compiled for AVX2.
#[inline(always)]
fn coverage_row_with<const AVX2: bool>(
    row: &mut [f32],
    (x0, yc): (f64, f64),
    map: &CellMap,
    alpha: &(impl Fn(f32, f32) -> f32 + Sync),
) {
    let CellMap {
        m,
        cell,
        at: (c, r),
        window: Window { u0, v0, u1, v1 },
        mask: _,
    } = *map;
    // The inverse homography's numerators and denominator along the row,
    // stepped per pixel (one division per pixel, not two).
    let mut gx = m[0] * x0 + m[1] * yc + m[2];
    let mut gy = m[3] * x0 + m[4] * yc + m[5];
    let mut gw = m[6] * x0 + m[7] * yc + m[8];
    for run in row.chunks_mut(RUN) {
        // The stepping is a chain, pixel after pixel; the divisions that
        // follow are independent, several to an instruction.
        let (mut xs, mut ys, mut ws) = ([0.0; RUN], [0.0; RUN], [0.0; RUN]);
        for ((x, y), w) in xs.iter_mut().zip(&mut ys).zip(&mut ws) {
            (*x, *y, *w) = (gx, gy, gw);
            (gx, gy, gw) = (gx + m[0], gy + m[3], gw + m[6]);
        }
        let (mut us, mut vs) = ([0.0f32; RUN], [0.0f32; RUN]);
        for (((u, v), x), (y, w)) in us
            .iter_mut()
            .zip(&mut vs)
            .zip(xs)
            .zip(ys.into_iter().zip(ws))
        {
            let per_cell = 1.0 / (w * cell);
            (*u, *v) = ((x * per_cell) as f32 - c, (y * per_cell) as f32 - r);
        }
        let done = if AVX2 {
            masked_eights(run, &us, &vs, map)
        } else {
            0
        };
        for ((value, &u), &v) in run.iter_mut().zip(&us).zip(&vs).skip(done) {
            if (u0..u1).contains(&u) && (v0..v1).contains(&v) {
                *value = alpha(u, v);
            }
        }
    }
}

/// The values of `run` that [`mask_eight_avx2`] sets, eight at a time,
/// from the run's start (with the points `us`, `vs`): how many, 0 when
/// `map` has no mask or the target is not x86-64. Only for a CPU with
/// AVX2 (see [`coverage_row_with`]).
#[inline(always)]
fn masked_eights(run: &mut [f32], us: &[f32], vs: &[f32], map: &CellMap) -> usize {
    #[cfg(target_arch = "x86_64")]
    if let Some(mask) = map.mask {
        let done = run.len() / 8 * 8;
        for ((values, us), vs) in run[..done]
            .chunks_exact_mut(8)
            .zip(us.chunks_exact(8))
            .zip(vs.chunks_exact(8))
        {
            // SAFETY: called only where the CPU has AVX2 (`coverage_row`
            // checks); each chunk is eight values.
            unsafe { mask_eight_avx2(mask, &map.window, values, us, vs) };
        }
        return done;
    }
    // Elsewhere the arguments go unused.
    let _ = (run, us, vs, map.mask);
    0
}

/// Eight points of a glyph's coverage at once: `values[i]` becomes the
/// mask's sample at `(us[i], vs[i])` (the cell's own coordinates, scaled to
/// the mask as the digits' `alpha` does) where the point is in `window`,
/// else stays. The same operations as [`Mask::sample`], lane by lane, so
/// the same values.
///
/// # Safety
///
/// The CPU must have AVX2, and each slice must hold eight values.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn mask_eight_avx2(
    mask: &Mask,
    window: &Window,
    values: &mut [f32],
    us: &[f32],
    vs: &[f32],
) {
    use std::arch::x86_64::*;
    let Window { u0, v0, u1, v1 } = *window;
    let (u, v) = (_mm256_loadu_ps(us.as_ptr()), _mm256_loadu_ps(vs.as_ptr()));
    let scale = _mm256_set1_ps(MASK as f32);
    let (x, y) = (_mm256_mul_ps(u, scale), _mm256_mul_ps(v, scale));
    // As `Mask::sample`: max(p + 0.5, 0) (the instruction gives its second
    // operand, 0, for NaN, as `f32::max` does), at most MASK + 1.
    let (half, zero) = (_mm256_set1_ps(0.5), _mm256_setzero_ps());
    let edge = _mm256_set1_ps((MASK + 1) as f32);
    let xs = _mm256_min_ps(_mm256_max_ps(_mm256_add_ps(x, half), zero), edge);
    let ys = _mm256_min_ps(_mm256_max_ps(_mm256_add_ps(y, half), zero), edge);
    let (tx, ty) = (_mm256_cvttps_epi32(xs), _mm256_cvttps_epi32(ys));
    let fx = _mm256_sub_ps(xs, _mm256_cvtepi32_ps(tx));
    let fy = _mm256_sub_ps(ys, _mm256_cvtepi32_ps(ty));
    let past = _mm256_set1_epi32((MASK + 1) as i32);
    let on_mask = _mm256_and_si256(_mm256_cmpgt_epi32(past, tx), _mm256_cmpgt_epi32(past, ty));
    let last = _mm256_set1_epi32(MASK as i32);
    let (cx, cy) = (_mm256_min_epi32(tx, last), _mm256_min_epi32(ty, last));
    let at = _mm256_add_epi32(_mm256_mullo_epi32(cy, _mm256_set1_epi32(PADDED as i32)), cx);
    let texels = mask.texels.as_ptr();
    // SAFETY (the reads): cx and cy are at most MASK, so the last tap,
    // at + PADDED + 1, is at most (MASK + 1) * PADDED + MASK + 1 =
    // PADDED * PADDED - 1, inside the texels.
    let tap = |offset: i32| {
        _mm256_i32gather_ps::<4>(texels, _mm256_add_epi32(at, _mm256_set1_epi32(offset)))
    };
    let (a, b) = (tap(0), tap(1));
    let (c, d) = (tap(PADDED as i32), tap(PADDED as i32 + 1));
    let one = _mm256_set1_ps(1.0);
    let (gx, gy) = (_mm256_sub_ps(one, fx), _mm256_sub_ps(one, fy));
    let top = _mm256_add_ps(_mm256_mul_ps(a, gx), _mm256_mul_ps(b, fx));
    let bottom = _mm256_add_ps(_mm256_mul_ps(c, gx), _mm256_mul_ps(d, fx));
    let sampled = _mm256_add_ps(_mm256_mul_ps(top, gy), _mm256_mul_ps(bottom, fy));
    let sampled = _mm256_and_ps(sampled, _mm256_castsi256_ps(on_mask));
    // As `Range::contains`: start <= p < end, false for NaN.
    let inside = _mm256_and_ps(
        _mm256_and_ps(
            _mm256_cmp_ps::<_CMP_GE_OQ>(u, _mm256_set1_ps(u0)),
            _mm256_cmp_ps::<_CMP_LT_OQ>(u, _mm256_set1_ps(u1)),
        ),
        _mm256_and_ps(
            _mm256_cmp_ps::<_CMP_GE_OQ>(v, _mm256_set1_ps(v0)),
            _mm256_cmp_ps::<_CMP_LT_OQ>(v, _mm256_set1_ps(v1)),
        ),
    );
    let kept = _mm256_loadu_ps(values.as_ptr());
    _mm256_storeu_ps(values.as_mut_ptr(), _mm256_blendv_ps(kept, sampled, inside));
}

/// Blends `colour` into `photo` with the coverage `c`.
fn blend(photo: &mut RgbImage, c: &Coverage, colour: [u8; 3]) {
    let [min_x, min_y, max_x, _] = c.area;
    let width = (max_x - min_x) as usize;
    let row_bytes = 3 * photo.width() as usize;
    let pixels: &mut [u8] = photo;
    for (k, alphas) in c.alpha.chunks_exact(width).enumerate() {
        let at = (min_y as usize + k) * row_bytes + 3 * min_x as usize;
        let row = &mut pixels[at..at + 3 * width];
        for (p, &a) in row.chunks_exact_mut(3).zip(alphas) {
            if a <= 0.0 {
                continue;
            }
            for i in 0..3 {
                // Rounded by +0.5 and truncation (the blend is >= 0).
                p[i] = (f32::from(p[i]) * (1.0 - a) + f32::from(colour[i]) * a + 0.5) as u8;
            }
        }
    }
}

/// The photo pixels `[x0, y0, x1)` by `[.., y1)` that drawing over `window`
/// of cell `index` may change on a photo of `size`; `None` for an empty
/// window, a window off the photo or a cell at infinity.
fn cell_area(
    grid_to_photo: &Homography,
    grid_side: f32,
    n: usize,
    index: usize,
    window: Window,
    (w, h): (u32, u32),
) -> Option<[u32; 4]> {
    let cell = grid_side / n as f32;
    let (r, c) = ((index / n) as f32, (index % n) as f32);
    if window.u0 >= window.u1 || window.v0 >= window.v1 {
        return None;
    }
    let Window { u0, v0, u1, v1 } = window;
    let corners = [(u0, v0), (u1, v0), (u1, v1), (u0, v1)]
        .map(|(u, v)| grid_to_photo.map((c + u) * cell, (r + v) * cell));
    if corners
        .iter()
        .any(|(x, y)| !x.is_finite() || !y.is_finite())
    {
        return None;
    }
    let (x0, y0, x1, y1) = pixel_bounds(&corners, w, h);
    // A window off the image (a piece of a photo beside the cell) has
    // bounds that cross: nothing to draw.
    (x0 < x1 && y0 < y1).then_some([x0, y0, x1, y1])
}

/// The photo pixels, as rectangles `[x0, y0, x1, y1]` (ends exclusive),
/// that [`draw_digits`] with `digits` and [`mark_cells`] with `rings` may
/// change on a photo of `size`: nothing outside them is drawn on.
pub fn drawn_areas(
    part: &PartReading,
    digits: &[(usize, u8)],
    rings: &[usize],
    size: (u32, u32),
) -> Vec<[u32; 4]> {
    let (grid_to_photo, grid_side, n) = square(part);
    let glyphs = glyphs();
    let digit_areas = digits
        .iter()
        .filter(|&&(index, digit)| (1..=MAX_SYMBOL).contains(&digit) && index < n * n)
        .filter_map(|&(index, digit)| {
            cell_area(grid_to_photo, grid_side, n, index, glyphs.ink(digit), size)
        });
    let ring_areas = rings
        .iter()
        .filter(|&&index| index < n * n)
        .filter_map(|&index| cell_area(grid_to_photo, grid_side, n, index, Window::CELL, size));
    digit_areas.chain(ring_areas).collect()
}

/// The glyphs, each rendered once per process: every photo of a batch
/// draws the same ones.
fn glyphs() -> &'static Glyphs {
    static GLYPHS: std::sync::OnceLock<Glyphs> = std::sync::OnceLock::new();
    GLYPHS.get_or_init(Glyphs::new)
}

/// The pixel range `(min_x, min_y, max_x, max_y)` (max exclusive) that
/// covers `points`, clipped to a `w` x `h` image.
fn pixel_bounds(points: &[(f32, f32)], w: u32, h: u32) -> (u32, u32, u32, u32) {
    let (mut lo_x, mut lo_y, mut hi_x, mut hi_y) = (f32::MAX, f32::MAX, f32::MIN, f32::MIN);
    for &(x, y) in points {
        (lo_x, lo_y, hi_x, hi_y) = (lo_x.min(x), lo_y.min(y), hi_x.max(x), hi_y.max(y));
    }
    (
        lo_x.floor().max(0.0) as u32,
        lo_y.floor().max(0.0) as u32,
        hi_x.ceil().min(w as f32) as u32,
        hi_y.ceil().min(h as f32) as u32,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Quad;

    /// A 9x9 part whose square maps onto the photo through `h`.
    pub(super) fn part(h: &Homography) -> PartReading {
        PartReading {
            grid_to_photo: *h,
            n: 9,
            origin: (0, 0),
            tiles: Vec::new(),
            classes: Vec::new(),
            negative: false,
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[test]
    fn eight_glyph_samples_at_once_are_the_samples_one_by_one() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            return;
        }
        let glyphs = glyphs();
        let window = glyphs.ink(8);
        let mask = glyphs.mask(8);
        // Points across the mask and its window, past both ends, on texel
        // edges, and not numbers at all.
        let mut points: Vec<(f32, f32)> = (0..4000)
            .map(|k| {
                let t = k as f32;
                (
                    (t * 0.618_034).fract() * 1.4 - 0.2,
                    (t * 0.414_214).fract() * 1.4 - 0.2,
                )
            })
            .collect();
        points.extend([
            (0.0, 0.0),
            (1.0, 1.0),
            (0.5, 1.0 / MASK as f32),
            (f32::NAN, 0.5),
            (0.5, f32::NAN),
            (f32::INFINITY, 0.5),
            (-1e30, 0.5),
            (1e30, 1e30),
        ]);
        points.resize(points.len().next_multiple_of(8), (0.3, 0.3));
        for eight in points.chunks_exact(8) {
            let us: Vec<f32> = eight.iter().map(|p| p.0).collect();
            let vs: Vec<f32> = eight.iter().map(|p| p.1).collect();
            let mut got = [-1.0f32; 8];
            // SAFETY: the CPU has AVX2 (checked above); eight values each.
            unsafe { mask_eight_avx2(mask, &window, &mut got, &us, &vs) };
            for (k, &(u, v)) in eight.iter().enumerate() {
                let inside =
                    (window.u0..window.u1).contains(&u) && (window.v0..window.v1).contains(&v);
                let want = if inside {
                    mask.sample(u * MASK as f32, v * MASK as f32)
                } else {
                    -1.0
                };
                assert_eq!(got[k].to_bits(), want.to_bits(), "({u}, {v})");
            }
        }
    }

    #[test]
    fn drawing_changes_only_its_areas_and_draws_the_same_shifted() {
        let photo = RgbImage::from_pixel(400, 300, Rgb([255, 255, 255]));
        let quad = Quad::new([(40.0, 20.0), (360.0, 50.0), (350.0, 250.0), (50.0, 280.0)]);
        let h = Homography::square_to_quad(432.0, &quad).unwrap();
        let digits = [(0, 8), (40, 5), (80, 1)];
        let rings = [3, 77];
        let mut drawn = photo.clone();
        draw_digits(&mut drawn, &part(&h), &digits).unwrap();
        mark_cells(&mut drawn, &part(&h), &rings).unwrap();
        let areas = drawn_areas(&part(&h), &digits, &rings, photo.dimensions());
        assert_eq!(areas.len(), 5);
        let inside = |x: u32, y: u32| {
            areas
                .iter()
                .any(|a| (a[0]..a[2]).contains(&x) && (a[1]..a[3]).contains(&y))
        };
        let mut changed = 0;
        for (x, y, p) in drawn.enumerate_pixels() {
            if p != photo.get_pixel(x, y) {
                assert!(inside(x, y), "{x},{y} changed outside the areas");
                changed += 1;
            }
        }
        assert!(changed > 100);
        // The same drawing on a piece of the photo from (33, 17), through
        // the shifted homography, gives the same pixels there.
        let (dx, dy) = (33, 17);
        let mut piece = image::imageops::crop_imm(&photo, dx, dy, 340, 270).to_image();
        let shifted = part(&h.shifted(dx as f32, dy as f32));
        draw_digits(&mut piece, &shifted, &digits).unwrap();
        mark_cells(&mut piece, &shifted, &rings).unwrap();
        for (x, y, p) in piece.enumerate_pixels() {
            assert_eq!(p, drawn.get_pixel(x + dx, y + dy), "{x},{y}");
        }
    }

    #[test]
    fn a_piece_of_the_photo_beside_the_cells_is_left_as_it_is() {
        // Pieces of a photo to the right of, below and left of the grid:
        // every digit's window is off them (their bounds cross).
        let quad = Quad::new([(40.0, 20.0), (360.0, 50.0), (350.0, 250.0), (50.0, 280.0)]);
        let h = Homography::square_to_quad(432.0, &quad).unwrap();
        for (dx, dy) in [(380.0, 0.0), (0.0, 290.0), (-200.0, 0.0)] {
            let white = RgbImage::from_pixel(64, 48, Rgb([255, 255, 255]));
            let mut piece = white.clone();
            let shifted = part(&h.shifted(dx, dy));
            draw_digits(&mut piece, &shifted, &[(0, 8), (8, 3), (80, 1)]).unwrap();
            mark_cells(&mut piece, &shifted, &[8, 72]).unwrap();
            assert_eq!(piece, white, "piece at {dx},{dy}");
        }
    }

    #[test]
    fn digits_land_only_in_their_cells_and_follow_perspective() {
        let mut photo = RgbImage::from_pixel(400, 300, Rgb([255, 255, 255]));
        // A grid seen at an angle: the right side is shorter than the left.
        let quad = Quad::new([(40.0, 20.0), (360.0, 50.0), (350.0, 250.0), (50.0, 280.0)]);
        let h = Homography::square_to_quad(432.0, &quad).unwrap();
        draw_digits(&mut photo, &part(&h), &[(0, 8), (80, 1)]).unwrap();
        let inked = |index: usize| {
            let (r, c) = ((index / 9) as f32, (index % 9) as f32);
            let cell = 432.0 / 9.0;
            let mut n = 0;
            for dy in 1..10 {
                for dx in 1..10 {
                    let (x, y) =
                        h.map((c + dx as f32 / 10.0) * cell, (r + dy as f32 / 10.0) * cell);
                    if photo.get_pixel(x as u32, y as u32).0 != [255, 255, 255] {
                        n += 1;
                    }
                }
            }
            n
        };
        // Painting only each glyph's ink box changes no pixel against
        // painting the whole cell.
        let mut whole = RgbImage::from_pixel(400, 300, Rgb([255, 255, 255]));
        let glyphs = Glyphs::new();
        for (index, digit) in [(0, 8), (80, 1)] {
            let mask = glyphs.mask(digit);
            paint_cell(
                &mut whole,
                &h,
                432.0,
                9,
                index,
                Window::CELL,
                INK,
                |u, v| mask.sample(u * MASK as f32, v * MASK as f32),
            )
            .unwrap();
        }
        assert!(whole == photo, "the ink box holds every inked pixel");
        assert!(inked(0) > 10, "digit 8 drawn in r1c1");
        assert!(inked(80) > 3, "digit 1 drawn in r9c9");
        assert_eq!(inked(40), 0, "r5c5 untouched");
        assert_eq!(inked(1), 0, "r1c2 untouched");
    }
}

// Hint marks (`sudoku-snap hint`): shaded cells, struck-out candidates and
// a caption under the photo. Drawn in perspective like the answer's digits.

/// Shades `part`'s `cells` (index in reading order of the upright part)
/// with `colour` at `opacity` (0..1), in perspective: the print stays
/// readable through it. A hint shades the unit and cells that justify it.
pub fn shade_cells(
    photo: &mut RgbImage,
    part: &PartReading,
    cells: &[usize],
    colour: [u8; 3],
    opacity: f32,
) -> Result<(), OverlayError> {
    let (grid_to_photo, grid_side, n) = square(part);
    let opacity = opacity.clamp(0.0, 1.0);
    paint_cells(photo, grid_to_photo, grid_side, n, cells, colour, |_, _| {
        opacity
    })
}

/// Width of the stroke through a removed candidate, as a fraction of its
/// pencil-mark square (a third of a cell for 9x9).
const STRIKE_WIDTH: f32 = 0.07;

/// How much larger a pencil mark is drawn than the digit masks' own
/// proportion ([`DIGIT_HEIGHT`]): a candidate fills nine tenths of its
/// square's height, since a third of a photo's cell is only a few pixels.
const CANDIDATE_ZOOM: f32 = 0.9 / DIGIT_HEIGHT;

/// Colour of the stroke through a removed candidate: near black, so that
/// the red digit under it stays readable.
const STRIKE: [u8; 3] = [40, 40, 40];

/// Draws each removed candidate `(cell, digit)` of `part` (cell index in
/// reading order of the upright part) small, at its pencil-mark place
/// (digit 1 top left, 9 bottom right of a 3 x 3 layout for 9x9), in red
/// and struck through, in perspective: how a person crosses out a pencil
/// mark.
pub fn strike_candidates(
    photo: &mut RgbImage,
    part: &PartReading,
    candidates: &[(usize, u8)],
) -> Result<(), OverlayError> {
    let (grid_to_photo, grid_side, n) = square(part);
    static GLYPHS: std::sync::OnceLock<Glyphs> = std::sync::OnceLock::new();
    let glyphs = GLYPHS.get_or_init(Glyphs::new);
    // Pencil marks sit in a k x k layout with k the box side (3 for 9x9).
    let k = (n as f32).sqrt().ceil().max(1.0);
    for &(index, digit) in candidates {
        if !(1..=MAX_SYMBOL).contains(&digit) || usize::from(digit) > n || index >= n * n {
            continue;
        }
        let mask = glyphs.mask(digit);
        let slot = f32::from(digit - 1);
        let (sc, sr) = (slot % k, (slot / k).floor());
        // (x, y): the point's place in the candidate's square, 0..1 each,
        // or None outside it.
        let place = |u: f32, v: f32| {
            let (x, y) = (u * k - sc, v * k - sr);
            ((0.0..1.0).contains(&x) && (0.0..1.0).contains(&y)).then_some((x, y))
        };
        let square = Window {
            u0: sc / k,
            v0: sr / k,
            u1: (sc + 1.0) / k,
            v1: (sr + 1.0) / k,
        };
        paint_cell(
            photo,
            grid_to_photo,
            grid_side,
            n,
            index,
            square,
            MARK,
            |u, v| {
                place(u, v).map_or(0.0, |(x, y)| {
                    let zoom = |t: f32| ((t - 0.5) / CANDIDATE_ZOOM + 0.5) * MASK as f32;
                    mask.sample(zoom(x), zoom(y))
                })
            },
        )?;
        paint_cell(
            photo,
            grid_to_photo,
            grid_side,
            n,
            index,
            square,
            STRIKE,
            |u, v| {
                place(u, v).map_or(0.0, |(x, y)| {
                    // The stroke runs bottom left to top right, short of the
                    // square's corners; anti-aliased over a twentieth.
                    if !(0.1..0.9).contains(&x) {
                        return 0.0;
                    }
                    let off_line = (x + y - 1.0).abs() / std::f32::consts::SQRT_2;
                    (1.0 - (off_line - STRIKE_WIDTH / 2.0) * 20.0).clamp(0.0, 1.0)
                })
            },
        )?;
    }
    Ok(())
}

/// Colour of the caption's text: near black, as print.
const CAPTION_INK: [u8; 3] = [20, 20, 20];

/// Colour of the caption's band: white, as paper.
const CAPTION_PAPER: [u8; 3] = [255, 255, 255];

/// Caption text height (pixels per em) as a fraction of the image width:
/// a 50-character line fits across, and on a 640-pixel photo the text is
/// 20 pixels, a little above a screen's body text.
const CAPTION_EM_PER_WIDTH: f32 = 1.0 / 32.0;

/// Smallest caption text, in pixels per em: below this it is unreadable.
const CAPTION_MIN_EM: f32 = 14.0;

/// The image with a white band below it holding `lines` in dark text,
/// each wrapped at spaces to the image's width: a hint's one line of
/// words, kept off the photo so that it hides nothing.
pub fn caption(image: &RgbImage, lines: &[String]) -> RgbImage {
    let Ok(font) = FontRef::try_from_slice(FONT) else {
        return image.clone();
    };
    let (w, h) = image.dimensions();
    let em = (w as f32 * CAPTION_EM_PER_WIDTH).max(CAPTION_MIN_EM);
    let scaled = font.as_scaled(PxScale::from(em));
    let margin = em * 0.6;
    let width = |text: &str| -> f32 {
        let mut x = 0.0;
        let mut last = None;
        for c in text.chars() {
            let id = scaled.glyph_id(c);
            if let Some(prev) = last {
                x += scaled.kern(prev, id);
            }
            x += scaled.h_advance(id);
            last = Some(id);
        }
        x
    };
    let room = (w as f32 - 2.0 * margin).max(em);
    let wrapped: Vec<String> = lines
        .iter()
        .flat_map(|line| wrap(line, room, &width))
        .collect();
    let line_height = (scaled.height() + scaled.line_gap()).ceil();
    let band = (wrapped.len() as f32 * line_height + 2.0 * margin).ceil() as u32;
    let mut out = RgbImage::from_pixel(w, h + band, Rgb(CAPTION_PAPER));
    image::imageops::replace(&mut out, image, 0, 0);
    for (i, text) in wrapped.iter().enumerate() {
        let baseline = h as f32 + margin + i as f32 * line_height + scaled.ascent();
        let mut x = margin;
        let mut last = None;
        for c in text.chars() {
            let id = scaled.glyph_id(c);
            if let Some(prev) = last {
                x += scaled.kern(prev, id);
            }
            let glyph = id.with_scale_and_position(em, ab_glyph::point(x, baseline));
            x += scaled.h_advance(id);
            last = Some(id);
            let Some(outline) = font.outline_glyph(glyph) else {
                continue;
            };
            let b = outline.px_bounds();
            outline.draw(|gx, gy, coverage| {
                let (px, py) = (b.min.x as i64 + gx as i64, b.min.y as i64 + gy as i64);
                if px < 0 || py < 0 || px >= i64::from(w) || py >= i64::from(out.height()) {
                    return;
                }
                let a = coverage.clamp(0.0, 1.0);
                let p = out.get_pixel_mut(px as u32, py as u32);
                *p = Rgb(std::array::from_fn(|k| {
                    (p.0[k] as f32 * (1.0 - a) + CAPTION_INK[k] as f32 * a).round() as u8
                }));
            });
        }
    }
    out
}

/// `text` cut at spaces into lines no wider than `room` by `width`; a word
/// wider than `room` gets a line of its own.
fn wrap(text: &str, room: f32, width: &dyn Fn(&str) -> f32) -> Vec<String> {
    let mut lines = Vec::new();
    let mut current = String::new();
    for word in text.split(' ') {
        let candidate = if current.is_empty() {
            word.to_string()
        } else {
            format!("{current} {word}")
        };
        if width(&candidate) <= room || current.is_empty() {
            current = candidate;
        } else {
            lines.push(std::mem::replace(&mut current, word.to_string()));
        }
    }
    lines.push(current);
    lines
}

#[cfg(test)]
mod hint_tests {
    use super::tests::part;
    use super::*;
    use crate::geometry::Quad;
    use image::GenericImageView;

    /// A white 400 x 300 photo with a grid seen at an angle.
    fn setup() -> (RgbImage, Homography) {
        let photo = RgbImage::from_pixel(400, 300, Rgb([255, 255, 255]));
        let quad = Quad::new([(40.0, 20.0), (360.0, 50.0), (350.0, 250.0), (50.0, 280.0)]);
        (photo, Homography::square_to_quad(432.0, &quad).unwrap())
    }

    /// The colour at point (u, v) of a cell (0..1 across and down).
    fn at(photo: &RgbImage, h: &Homography, cell: usize, u: f32, v: f32) -> [u8; 3] {
        let side = 432.0 / 9.0;
        let (r, c) = ((cell / 9) as f32, (cell % 9) as f32);
        let (x, y) = h.map((c + u) * side, (r + v) * side);
        photo.get_pixel(x as u32, y as u32).0
    }

    #[test]
    fn shading_tints_only_its_cells() {
        let (mut photo, h) = setup();
        shade_cells(&mut photo, &part(&h), &[10], [255, 200, 0], 0.5).unwrap();
        assert_eq!(at(&photo, &h, 10, 0.5, 0.5), [255, 228, 128]);
        assert_eq!(at(&photo, &h, 11, 0.5, 0.5), [255, 255, 255]);
    }

    #[test]
    fn a_struck_candidate_sits_in_its_pencil_mark_place() {
        let (mut photo, h) = setup();
        strike_candidates(&mut photo, &part(&h), &[(40, 9)]).unwrap();
        // Digit 9's place is the bottom-right third; its stroke crosses the
        // place's centre. Digit 1's place, top left, stays blank.
        assert_ne!(at(&photo, &h, 40, 5.0 / 6.0, 5.0 / 6.0), [255, 255, 255]);
        assert_eq!(at(&photo, &h, 40, 1.0 / 6.0, 1.0 / 6.0), [255, 255, 255]);
        assert_eq!(at(&photo, &h, 41, 5.0 / 6.0, 5.0 / 6.0), [255, 255, 255]);
    }

    #[test]
    fn the_caption_adds_a_band_of_text_below_and_keeps_the_photo() {
        let (photo, _) = setup();
        let long = "r4c7 = 3 (hidden single in box 6) ".repeat(4);
        let one = caption(&photo, &["r4c7 = 3".to_string()]);
        let wrapped = caption(&photo, &[long]);
        assert_eq!(one.width(), 400);
        assert!(one.height() > 300);
        assert!(wrapped.height() > one.height(), "a long line wraps");
        assert_eq!(one.view(0, 0, 400, 300).to_image(), photo);
        let inked = (300..one.height())
            .flat_map(|y| (0..400).map(move |x| (x, y)))
            .filter(|&(x, y)| one.get_pixel(x, y).0 != CAPTION_PAPER)
            .count();
        assert!(inked > 50, "the text is drawn: {inked} pixels");
    }
}
