//! Cutting the rectified grid of any `n` x `n` (81 cells for a 9x9, 256
//! for a 16x16) into normalised 28x28 tiles (the digit classifier's input).
//!
//! Tile spec (the classifier is trained on exactly this):
//! for cell (r, c) take its 48x48 box in the rectified grid (the box between
//! the detected grid lines, resampled to 48x48 when they were refined; else
//! `[c*48, (c+1)*48) x [r*48, (r+1)*48)`; the outer cells' box begins past
//! a border too thick for the inset, see `outer_line`), cut an inset of
//! 4 px per side (40x40 centre), `v = 1 - gray/255`, `bg = median(v)`,
//! `hi` = the value at index 1568 of the sorted 1600 values, `contrast =
//! max(hi - bg, 0.25)`, `w = clamp((v - bg) / contrast, 0, 1)`, then resize
//! 40x40 -> 28x28 by area averaging.
//!
//! A grid printed light on dark (an app's dark theme) is turned into its
//! negative before any of this (see [`light_on_dark`]), so the model only
//! ever sees dark ink on light ground, as it was trained.

use std::borrow::Cow;

use image::{GrayImage, Luma};

use crate::data::{Tile, TILE};
#[cfg(test)]
use crate::geometry::GRID_PX;
use crate::geometry::{bilinear, CELL_PX};
use crate::ruled;

/// Pixels cut from each side of a cell box before normalising (drops the
/// grid lines; symmetric so that tiles rotate with the grid).
pub(crate) const INSET: usize = 4;
/// Side of the inset cell centre.
pub(crate) const INNER: usize = CELL_PX - 2 * INSET;

/// How far from the perfect split an inner grid line is looked for in
/// each band on its own, in rectified pixels (further, a detection is more
/// likely a digit's stroke than the line); from there the line is followed
/// band by band ([`detect_lines`], up to [`CURL_SHIFT`]).
const MAX_LINE_SHIFT: f32 = 9.0;

/// Offsets either way a line is looked for blindly ([`detect_lines`]):
/// [`MAX_LINE_SHIFT`] and 2 px more, so that a line that far off still
/// shows as a peak with both its flanks in the profile.
const BLIND_REACH: f32 = MAX_LINE_SHIFT + 2.0;
/// Deviations below this are treated as a perfect split (plain crop), so
/// flat, well-located grids produce bit-exact spec tiles.
const MIN_LINE_SHIFT: f32 = 1.0;

/// Least contrast, on the 0..1 ink scale, between a cell's ground and the
/// 2 % of its pixels furthest from it on one side for the cell to show ink
/// of that polarity: the tile spec's own contrast floor (0.25), below which
/// a tile is stretched no further and reads as empty.
const POLARITY_INK: f32 = 0.25;

/// A cell shows ink of one polarity when its contrast on that side is at
/// least this many times that on the other: a glyph is one-sided (ink on
/// ground), while a shadow edge or glare in a photo cell is two-sided or
/// weak.
const POLARITY_RATIO: f32 = 2.0;

/// Fewest cells showing light ink on dark ground for a grid to be read as
/// its negative: no puzzle has fewer than 17 clues, and a stray glare spot
/// or two in a photo must not turn a printed grid over.
const MIN_LIGHT_CELLS: usize = 8;

impl Tile {
    /// The tile as an 8-bit gray image, 28 pixels square, ink bright (0
    /// background, 255 ink): what the classifier saw.
    pub fn to_image(&self) -> GrayImage {
        GrayImage::from_fn(TILE as u32, TILE as u32, |x, y| {
            let v = self.pixels[y as usize * TILE + x as usize];
            Luma([(v.clamp(0.0, 1.0) * 255.0 + 0.5) as u8])
        })
    }

    /// The tile with its faint ink taken away: what is under `floor` of
    /// the tile's full scale becomes paper and the rest is stretched back
    /// to the full scale, as [`normalise_cell`] would cut the cell from
    /// paper that much darker (up to the area resize, which averages
    /// before this clamps). `ink` is kept: it measures the cell as
    /// photographed.
    pub(crate) fn without_faint_ink(&self, floor: f32) -> Tile {
        let mut tile = *self;
        for p in tile.pixels.iter_mut() {
            *p = ((*p - floor) / (1.0 - floor)).clamp(0.0, 1.0);
        }
        tile
    }
}

/// Positions of the grid lines in the rectified image of an `n` x `n`
/// grid, per band.
///
/// `vertical[j][r]` is the x of vertical line `j` (0..=n) measured within
/// row band `r`; `horizontal[j][c]` the y of horizontal line `j` within
/// column band `c`. Outer lines are at 0 and `n * CELL_PX` (the located
/// corners), or moved in past a thick border (see `outer_line`).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct GridLines {
    /// x of vertical line j within row band r.
    pub vertical: Vec<Vec<f32>>,
    /// y of horizontal line j within column band c.
    pub horizontal: Vec<Vec<f32>>,
}

impl GridLines {
    /// The perfect split of an `n` x `n` grid: line j at j * 48.
    pub(crate) fn perfect(n: usize) -> Self {
        let v: Vec<Vec<f32>> = (0..=n).map(|j| vec![(j * CELL_PX) as f32; n]).collect();
        GridLines {
            vertical: v.clone(),
            horizontal: v,
        }
    }

    /// Cells per side.
    pub(crate) fn n(&self) -> usize {
        self.vertical.len().saturating_sub(1)
    }

    /// Largest deviation from the perfect split, in pixels.
    #[cfg(test)]
    pub(crate) fn max_shift(&self) -> f32 {
        let mut m = 0.0f32;
        for (j, (v, h)) in self.vertical.iter().zip(&self.horizontal).enumerate() {
            let e = (j * CELL_PX) as f32;
            for (x, y) in v.iter().zip(h) {
                m = m.max((x - e).abs());
                m = m.max((y - e).abs());
            }
        }
        m
    }

    /// The 48x48 box of cell (r, c): `(left, top, right, bottom)`.
    pub(crate) fn cell_box(&self, r: usize, c: usize) -> (f32, f32, f32, f32) {
        (
            self.vertical[c][r],
            self.horizontal[r][c],
            self.vertical[c + 1][r],
            self.horizontal[r + 1][c],
        )
    }
}

/// The tiles of an `n` x `n` grid and the lines they were cut along.
#[derive(Debug, Clone)]
pub(crate) struct Cells {
    /// Row-major (cell index = n * r + c).
    pub tiles: Vec<Tile>,
    /// The grid lines the boxes were cut along.
    pub lines: GridLines,
    /// Printed light on dark (a screen's dark theme) and read from its
    /// negative.
    pub negative: bool,
    /// Ruled through its cells as a table is: narrow lines down the
    /// middles of its cells ([`crate::ruled::ruled_through_cells`]).
    pub ruled: bool,
}

/// Cuts the rectified `n` x `n` grid (`n * CELL_PX` square; other sizes
/// are rescaled by sampling) into tiles following the tile spec, along
/// the grid lines as found ([`detect_lines`]); a grid printed light on
/// dark is read from its negative.
pub(crate) fn extract_cells(rect: &GrayImage, n: usize) -> Cells {
    let rect = dark_on_light(rect, n);
    let negative = matches!(rect, Cow::Owned(_));
    let rect = rect.as_ref();
    let side = n * CELL_PX;
    let lines = if rect.width() as usize == side && rect.height() as usize == side {
        detect_lines(rect, n)
    } else {
        GridLines::perfect(n)
    };
    Cells {
        negative,
        ruled: ruled::ruled_through_cells(rect, &lines),
        ..extract_cells_with_lines(rect, &lines)
    }
}

/// [`extract_cells`] with given grid lines (e.g. [`GridLines::perfect`]),
/// on a grid already dark on light.
pub(crate) fn extract_cells_with_lines(rect: &GrayImage, lines: &GridLines) -> Cells {
    let n = lines.n();
    let side = n * CELL_PX;
    let mut tiles = Vec::with_capacity(n * n);
    let exact = rect.width() as usize == side && rect.height() as usize == side;
    let sx = rect.width() as f32 / side as f32;
    let sy = rect.height() as f32 / side as f32;
    let mut v = [0.0f32; INNER * INNER];
    let mut insets: Vec<[f32; INNER * INNER]> = Vec::with_capacity(n * n);
    for r in 0..n {
        for c in 0..n {
            let (l, t, rt, b) = lines.cell_box(r, c);
            let plain = exact
                && (l - (c * CELL_PX) as f32).abs() < MIN_LINE_SHIFT
                && (rt - ((c + 1) * CELL_PX) as f32).abs() < MIN_LINE_SHIFT
                && (t - (r * CELL_PX) as f32).abs() < MIN_LINE_SHIFT
                && (b - ((r + 1) * CELL_PX) as f32).abs() < MIN_LINE_SHIFT;
            if plain {
                let raw = rect.as_raw();
                for y in 0..INNER {
                    let row = (r * CELL_PX + INSET + y) * side + c * CELL_PX + INSET;
                    for x in 0..INNER {
                        v[y * INNER + x] = 1.0 - raw[row + x] as f32 / 255.0;
                    }
                }
            } else {
                // Resample the (possibly non-48) box to 48x48 and take the
                // same 40x40 centre: pixel k of the 48 samples the box at
                // fraction (k + 0.5) / 48.
                let bw = (rt - l) / CELL_PX as f32;
                let bh = (b - t) / CELL_PX as f32;
                for y in 0..INNER {
                    let py = (t + (INSET + y) as f32 * bh + 0.5 * bh) * sy - 0.5;
                    for x in 0..INNER {
                        let px = (l + (INSET + x) as f32 * bw + 0.5 * bw) * sx - 0.5;
                        let g = bilinear(rect, px, py);
                        v[y * INNER + x] = 1.0 - g / 255.0;
                    }
                }
            }
            insets.push(v);
        }
    }
    let measured: Vec<(f32, f32)> = insets.iter().map(ground_and_ink).collect();
    let floor = contrast_floor(&measured);
    tiles.extend(
        insets
            .iter()
            .zip(&measured)
            .map(|(v, &(bg, hi))| stretched(v, bg, hi, floor)),
    );
    Cells {
        tiles,
        lines: lines.clone(),
        negative: false,
        ruled: false,
    }
}

/// True when the `n` x `n` grid in `image` (the whole image, cells on its
/// perfect split) is printed light on dark, as in an app's dark theme:
/// more of its cells show light ink on a dark ground than dark ink on a
/// light one, and at least 8 do (`MIN_LIGHT_CELLS`). Each cell's 40x40-style
/// centre (the tile inset, scaled) is measured on the tile spec's scale:
/// ink `v = 1 - gray/255`, ground its median, light ink the 2 % of pixels
/// lowest in `v`, dark ink the 2 % highest.
pub(crate) fn light_on_dark(image: &GrayImage, n: usize) -> bool {
    let (w, h) = (image.width() as usize, image.height() as usize);
    if n == 0 || w < n || h < n {
        return false;
    }
    let raw = image.as_raw();
    let (mut light, mut dark) = (0usize, 0usize);
    let mut v: Vec<f32> = Vec::new();
    for r in 0..n {
        for c in 0..n {
            let (x0, x1) = (c * w / n, (c + 1) * w / n);
            let (y0, y1) = (r * h / n, (r + 1) * h / n);
            let inset = (x1 - x0) * INSET / CELL_PX;
            v.clear();
            for y in y0 + inset..y1.saturating_sub(inset) {
                for x in x0 + inset..x1.saturating_sub(inset) {
                    v.push(1.0 - f32::from(raw[y * w + x]) / 255.0);
                }
            }
            if v.len() < 16 {
                return false;
            }
            let len = v.len();
            let lo = *v.select_nth_unstable_by(len / 50, f32::total_cmp).1;
            let hi = *v
                .select_nth_unstable_by(len - 1 - len / 50, f32::total_cmp)
                .1;
            let bg = *v.select_nth_unstable_by(len / 2, f32::total_cmp).1;
            let (light_ink, dark_ink) = (bg - lo, hi - bg);
            if light_ink >= POLARITY_INK && light_ink >= POLARITY_RATIO * dark_ink {
                light += 1;
            } else if dark_ink >= POLARITY_INK && dark_ink >= POLARITY_RATIO * light_ink {
                dark += 1;
            }
        }
    }
    light >= MIN_LIGHT_CELLS && light > dark
}

/// The grid as dark ink on light ground: `image` itself (borrowed), or its
/// negative (owned) when it is printed light on dark ([`light_on_dark`]).
pub(crate) fn dark_on_light(image: &GrayImage, n: usize) -> Cow<'_, GrayImage> {
    if light_on_dark(image, n) {
        Cow::Owned(crate::decode::negative(image))
    } else {
        Cow::Borrowed(image)
    }
}

/// The tile spec's normalisation of one 40x40 inset (`v = 1 - gray/255`,
/// row-major) into a 28x28 tile. A vector PDF page's cells are made so
/// (the photo's grids get their grid's floor, see [`contrast_floor`]).
#[cfg(any(feature = "pdf", test))]
pub(crate) fn normalise_cell(v: &[f32; INNER * INNER]) -> Tile {
    let (bg, hi) = ground_and_ink(v);
    stretched(v, bg, hi, CONTRAST_FLOOR)
}

/// The tile spec's contrast floor: a cell whose ink stands less than this
/// above its ground (on the 0..1 ink scale) is stretched no further, so
/// that the faint marks of an empty cell stay faint.
const CONTRAST_FLOOR: f32 = 0.25;

/// Least share of the tile's scale a grid's print is stretched to (see
/// [`contrast_floor`]): the faintest newspaper photos of photos/test print
/// their clues 0.14-0.15 above the paper (the 90th percentile of their
/// cells' contrast), 56-60 % of the scale under the floor, and the model
/// reads every clue of them.
const PRINT_SHARE: f32 = 0.6;

/// Most a grid's floor is lowered (see [`contrast_floor`]): to half the
/// tile spec's.
const MAX_FLOOR_CUT: f32 = 0.5;

/// A grid's print stands out from its empty cells when its clues' contrast
/// (the 90th percentile of its cells') is at least this many times its
/// median cell's, an empty one's (see [`contrast_floor`]): the photos of
/// photos/test made dim (`models/eval/transformed_photos.py`) measure
/// 1.4-2.0, a grid without clues about 1.
const PRINT_OVER_GROUND: f32 = 1.5;

/// Share of a grid's cells at or above whose contrast its clues' is taken:
/// a 9x9 has at least 17 clues, a fifth of its cells.
const PRINT_RANK: f32 = 0.9;

/// The contrast floor of a grid's cells from their ground and ink
/// (`measured`, see [`ground_and_ink`]): the tile spec's, lowered
/// for a grid printed faintly (a dim or hazy photo, ink and paper half as
/// far apart as usual) so that its clues fill [`PRINT_SHARE`] of the
/// tile's scale, as the faintest photos the model reads do; by at most
/// [`MAX_FLOOR_CUT`], and only where the print stands out from the empty
/// cells ([`PRINT_OVER_GROUND`]), so that a grid without clues keeps its
/// cells' marks faint. A grid whose print stands out as usual is cut as
/// the tile spec says.
fn contrast_floor(measured: &[(f32, f32)]) -> f32 {
    if measured.is_empty() {
        return CONTRAST_FLOOR;
    }
    let mut contrast: Vec<f32> = measured.iter().map(|&(bg, hi)| hi - bg).collect();
    contrast.sort_by(f32::total_cmp);
    let rank = |share: f32| contrast[((contrast.len() - 1) as f32 * share) as usize];
    let (ground, print) = (rank(0.5), rank(PRINT_RANK));
    if print < PRINT_OVER_GROUND * ground {
        return CONTRAST_FLOOR;
    }
    (print / PRINT_SHARE).clamp(MAX_FLOOR_CUT * CONTRAST_FLOOR, CONTRAST_FLOOR)
}

/// A cell inset's ground (`bg`) and ink (`hi`, its 98th percentile), as
/// the tile spec measures them.
fn ground_and_ink(v: &[f32; INNER * INNER]) -> (f32, f32) {
    let mut sorted = *v;
    let n = sorted.len();
    // Order statistics by selection (same values as a full sort, 3x faster).
    let hi = *sorted.select_nth_unstable_by(1568, f32::total_cmp).1;
    let upper_mid = *sorted[..1568]
        .select_nth_unstable_by(n / 2, f32::total_cmp)
        .1;
    let lower_mid = sorted[..n / 2].iter().copied().fold(f32::MIN, f32::max);
    let bg = 0.5 * (lower_mid + upper_mid);
    (bg, hi)
}

/// The tile of inset `v` whose ground and ink are `bg` and `hi` (see
/// [`ground_and_ink`]), stretched no further than the contrast `floor`.
fn stretched(v: &[f32; INNER * INNER], bg: f32, hi: f32, floor: f32) -> Tile {
    let contrast = (hi - bg).max(floor);
    let mut w = [0.0f32; INNER * INNER];
    for (o, &x) in w.iter_mut().zip(v.iter()) {
        *o = ((x - bg) / contrast).clamp(0.0, 1.0);
    }
    Tile {
        pixels: area_resize(&w),
        ink: glyph_ink(v, bg),
    }
}

/// Margin of the inset left out when the glyph's ink is measured: grid
/// lines that the cutter did not quite follow reach a few pixels into the
/// inset, a printed digit's strokes keep clear of its outer sixth.
const INK_MARGIN: usize = 6;

/// Pixels of the inset's centre taken as the glyph's darkest ink: the
/// core of a stroke. A small font's thin 1 is dark in only a few pixels
/// (its edges are grey from antialiasing); with 16 such a 1 measured a
/// third of its grid's other clues.
const INK_PIXELS: usize = 4;

/// Weber contrast of the darkest ink in the inset's centre against the
/// paper (`bg`, in `v` units). `v = 1 - gray/255`, so paper is
/// `255 (1 - bg)` and ink `255 (1 - v)`.
fn glyph_ink(v: &[f32; INNER * INNER], bg: f32) -> f32 {
    const SIDE: usize = INNER - 2 * INK_MARGIN;
    let mut centre = [0.0f32; SIDE * SIDE];
    for y in 0..SIDE {
        let row = (y + INK_MARGIN) * INNER + INK_MARGIN;
        centre[y * SIDE..(y + 1) * SIDE].copy_from_slice(&v[row..row + SIDE]);
    }
    let hi = *centre
        .select_nth_unstable_by(SIDE * SIDE - INK_PIXELS, f32::total_cmp)
        .1;
    ((hi - bg) / (1.0 - bg).max(f32::EPSILON)).clamp(0.0, 1.0)
}

/// Area-averaging resize 40x40 -> 28x28 (OpenCV INTER_AREA for a
/// non-integer factor): each output pixel is the mean of the input area it
/// covers, input pixels cut by its edges counted by their covered fraction.
pub(crate) fn area_resize(w: &[f32; INNER * INNER]) -> [f32; TILE * TILE] {
    let wt = area_weights();
    // Separable: rows first (INNER x TILE), then columns.
    let mut tmp = [0.0f32; INNER * TILE];
    for y in 0..INNER {
        for (o, ws) in wt.iter().enumerate() {
            let mut s = 0.0;
            for &(i, f) in ws.iter().flatten() {
                s += w[y * INNER + i] * f;
            }
            tmp[y * TILE + o] = s;
        }
    }
    let mut out = [0.0f32; TILE * TILE];
    for (oy, ws) in wt.iter().enumerate() {
        for x in 0..TILE {
            let mut s = 0.0;
            for &(i, f) in ws.iter().flatten() {
                s += tmp[i * TILE + x] * f;
            }
            out[oy * TILE + x] = s;
        }
    }
    out
}

/// For each output index, up to 3 (input index, weight) pairs; weights sum
/// to 1. Scale 40/28 = 1.43 means each output touches at most 3 inputs.
fn area_weights() -> [[Option<(usize, f32)>; 3]; TILE] {
    let scale = INNER as f64 / TILE as f64;
    let mut out = [[None; 3]; TILE];
    for (o, slot) in out.iter_mut().enumerate() {
        let a = o as f64 * scale;
        let b = (o + 1) as f64 * scale;
        let mut k = 0;
        let mut i = a.floor() as usize;
        while (i as f64) < b && i < INNER && k < 3 {
            let lo = a.max(i as f64);
            let hi = b.min((i + 1) as f64);
            let f = (hi - lo) / scale;
            if f > 1e-9 {
                slot[k] = Some((i, f as f32));
                k += 1;
            }
            i += 1;
        }
    }
    out
}

/// The darkness (255 - gray) of the rectified image of an `n` x `n` grid,
/// `side` (`n * CELL_PX`) pixels square: what lines are looked for in.
struct Dark<'a> {
    raw: &'a [u8],
    n: usize,
    side: usize,
}

impl Dark<'_> {
    /// Darkness of pixel (x, y).
    fn at(&self, x: usize, y: usize) -> f32 {
        255.0 - self.raw[y * self.side + x] as f32
    }
}

/// Finds the inner grid lines in the rectified image of an `n` x `n` grid
/// (`n * CELL_PX` square), per band, so that page curl (lines bowing by a few pixels) does not shift digits into
/// the tile border. A line that cannot be found bends with the lines found
/// on either side of it (the perfect split when none is).
///
/// Each line is first looked for, level, within `MAX_LINE_SHIFT` of its
/// place in every band; from the band found nearest the course most bands
/// agree on it is then followed outwards, each band searched within
/// `TRACK_STEP` of where the line heads at the slant it was last found at
/// (up to `CURL_SHIFT` from its place), at that slant and steeper ones:
/// a page's curl bows lines most, and most steeply, at the grid's edge,
/// further than a line could be looked for blindly between the digits,
/// but a little at a time.
pub(crate) fn detect_lines(rect: &GrayImage, n: usize) -> GridLines {
    let mut lines = GridLines::perfect(n);
    let side = n * CELL_PX;
    if n == 0 || rect.width() as usize != side || rect.height() as usize != side {
        return lines;
    }
    let dark = Dark {
        raw: rect.as_raw(),
        n,
        side,
    };
    for vertical in [true, false] {
        // The outer lines (0 and n) are the located corners', moved in
        // past a border too thick for the tile's inset to hide.
        let mut found: Vec<Option<Vec<f32>>> = vec![None; n + 1];
        let outer = [
            outer_line(&dark, vertical, false),
            outer_line(&dark, vertical, true),
        ];
        // Lines not found bend between the border's middle (the line the
        // border is printed on), not where the outer cells are cut.
        found[0] = outer[0].as_ref().map(|o| o.middle.clone());
        found[n] = outer[1].as_ref().map(|o| o.middle.clone());
        for (j, line) in found.iter_mut().enumerate().take(n).skip(1) {
            let find = |band: usize, lo: f32, hi: f32, drifts: usize| {
                find_line(&dark, vertical, j, band, lo, hi, drifts)
            };
            let mut off = vec![f32::NAN; n];
            for (band, o) in off.iter_mut().enumerate() {
                // Blindly, level only (slants are looked for as the line
                // is followed): a line is level but near a curled edge,
                // so this finds the course most bands agree on.
                if let Some((at, _)) = find(band, -BLIND_REACH, BLIND_REACH, 1) {
                    *o = at;
                }
            }
            // The line is followed from the band where it was found
            // nearest the course most bands agree on (their median
            // offset), the middle band first among equals: a band's
            // digits can lead the blind search astray (a row of bold
            // digits' feet beside the line), most bands do not.
            let mut seen: Vec<f32> = off.iter().copied().filter(|o| o.is_finite()).collect();
            if seen.is_empty() {
                continue;
            }
            seen.sort_unstable_by(f32::total_cmp);
            let course = seen[seen.len() / 2];
            let middle = n / 2;
            let Some(anchor) = (0..n).filter(|&b| off[b].is_finite()).min_by(|&a, &b| {
                let near = |b: usize| (off[b] - course).abs().round();
                near(a)
                    .total_cmp(&near(b))
                    .then(a.abs_diff(middle).cmp(&b.abs_diff(middle)))
            }) else {
                continue;
            };
            let mut tracked = vec![f32::NAN; n];
            tracked[anchor] = off[anchor];
            for dir in [1i32, -1] {
                // Found level at the anchor.
                let (mut last, mut slope) = (off[anchor], 0.0);
                let mut band = anchor as i32 + dir;
                // Bands since the line was last found (two at most): it
                // may have moved a step in each.
                let mut steps = 1.0;
                while (0..n as i32).contains(&band) {
                    let b = band as usize;
                    // Where the line goes on at the slope it was found at:
                    // a curl steepens a line towards the grid's edge.
                    let next =
                        last + steps * dir as f32 * slope * CELL_PX as f32 / LINE_ALONG as f32;
                    let lo = (next - steps * TRACK_STEP).max(-CURL_SHIFT);
                    let hi = (next + steps * TRACK_STEP).min(CURL_SHIFT);
                    let hit = (lo < hi)
                        .then(|| find(b, lo, hi, LINE_DRIFTS.len()))
                        .flatten();
                    if let Some((o, d)) = hit {
                        tracked[b] = o;
                        (last, slope, steps) = (o, d, 1.0);
                    } else {
                        // Two steps at most: wider, the window takes in
                        // the next cell's digits.
                        steps = 2.0;
                    }
                    band += dir;
                }
            }
            // A band the follower missed (it lost the line past a cell
            // whose digits hide it, or took a digit's bar beside it) keeps
            // what the blind search found there when that is on the
            // course most bands agree on: without it, a bar the follower
            // stepped onto near the grid's edge could be the only offset
            // there, and the fit would bend to it.
            for (t, &o) in tracked.iter_mut().zip(&off) {
                if t.is_nan() && (o - course).abs() <= TRACK_STEP {
                    *t = o;
                }
            }
            *line = smooth_offsets(&tracked);
        }
        let mut offsets = fill_between(&found);
        for (o, j) in outer.into_iter().zip([0, n]) {
            if let Some(o) = o {
                offsets[j] = o.cut;
            }
        }
        for (j, off) in offsets.iter().enumerate() {
            for (band, o) in off.iter().enumerate() {
                let pos = (j * CELL_PX) as f32 + o;
                if vertical {
                    lines.vertical[j][band] = pos;
                } else {
                    lines.horizontal[j][band] = pos;
                }
            }
        }
    }
    lines
}

/// Pixels in from the quad's edge over which a grid's outer border is
/// looked for: a third of a cell, past the thickest border measured (a
/// newspaper grid's, blurred in a small capture: 16 px at half height)
/// and far enough on to see the cell's ground beyond it.
const OUTER_SPAN: usize = CELL_PX / 3 + 8;

/// A border starts within this many pixels of the quad's edge: the
/// locator takes a grid by the outside of its border, give or take the
/// blur of a small capture.
const OUTER_START: usize = 4;

/// Least darkness of a border over the cell's ground beside it (gray
/// levels; [`profile_peak`] asks the same of an inner line).
const OUTER_CONTRAST: f32 = 25.0;

/// The border along the outer line `n` (`far`) or `0` of an axis, when it
/// reaches further in than the tile's inset hides (`None` otherwise, and
/// where no border is seen: the line stays on the quad): per band, where
/// the outer cells are cut (the tile beside it begins where the border
/// ends, never nearer the edge than the border's middle) and the border's
/// middle, the line the grid is printed on.
///
/// The locator takes a grid by the outside of its border, so the outer
/// cells' boxes begin at the border's outer edge where every inner cell's
/// begins at the middle of its line. A thin border is hidden by the inset
/// as the inner lines are; a thick one (a newspaper grid's, a third of a
/// cell once blurred) fills the outer cells' tiles with a bar that the
/// classifier reads as the whole cell, and a digit printed beside it (a 6
/// in the first column) is read as empty. Past the border, the outer
/// cells are cut as the inner ones, clear of their lines.
///
/// Per band, the border is the run above half height around the darkest
/// path (the darkness along seven tenths of the band, as for inner lines)
/// starting within [`OUTER_START`] of the edge, with the cell's ground
/// beyond it; the border's width is the bands' median, and the bands'
/// offsets are smoothed as an inner line's.
fn outer_line(dark: &Dark, vertical: bool, far: bool) -> Option<Outer> {
    // Per band, where the border starts and where it ends.
    let mut runs: Vec<Option<(usize, usize)>> = vec![None; dark.n];
    let mut values = [0.0f32; LINE_SAMPLES];
    for (band, run) in runs.iter_mut().enumerate() {
        let along = band * CELL_PX + LINE_END..(band + 1) * CELL_PX - LINE_END;
        // Darkness at `d` pixels in from the edge.
        let prof: Vec<f32> = (0..OUTER_SPAN)
            .map(|d| {
                let across = if far { dark.side - 1 - d } else { d };
                for (v, a) in values.iter_mut().zip(along.clone().step_by(SAMPLE_STEP)) {
                    *v = if vertical {
                        dark.at(across, a)
                    } else {
                        dark.at(a, across)
                    };
                }
                *values
                    .select_nth_unstable_by(LINE_COVER_RANK, f32::total_cmp)
                    .1
            })
            .collect();
        let ground = prof.iter().copied().fold(f32::MAX, f32::min);
        let Some((top, &peak)) = prof.iter().enumerate().max_by(|a, b| a.1.total_cmp(b.1)) else {
            continue;
        };
        if peak - ground < OUTER_CONTRAST {
            continue;
        }
        // The run above half height around the darkest path: its first
        // pixel and the pixel past its last.
        let half = ground + 0.5 * (peak - ground);
        let lo = (0..=top)
            .rev()
            .take_while(|&d| prof[d] > half)
            .last()
            .unwrap_or(top);
        let end = (top..OUTER_SPAN)
            .take_while(|&d| prof[d] > half)
            .last()
            .unwrap_or(top)
            + 1;
        if lo <= OUTER_START && end < OUTER_SPAN {
            *run = Some((lo, end));
        }
        // Else away from the edge (a digit, or the next line), or no
        // ground within reach (shading, a dark margin): no border.
    }
    // A border is printed alike all along a side: its width is the bands'
    // median. In a band or two a bold digit's foot or stem beside the
    // border merges with it (blurred, or bowed close to it by a curl), and
    // those bands' runs would cut the digits.
    let mut widths: Vec<usize> = runs.iter().flatten().map(|&(lo, end)| end - lo).collect();
    if widths.len() < 3 {
        return None;
    }
    widths.sort_unstable();
    let width = widths[widths.len() / 2];
    let mut starts: Vec<usize> = runs.iter().flatten().map(|&(lo, _)| lo).collect();
    starts.sort_unstable();
    // A border the inset hides is left on the quad: the tiles are cut as
    // they always were.
    if starts[starts.len() / 2] + width <= INSET {
        return None;
    }
    let inset = INSET as f32 + 0.5;
    let cut: Vec<f32> = runs
        .iter()
        .map(|run| {
            run.map_or(f32::NAN, |(lo, _)| {
                // Pixel d spans [d, d + 1) from the edge. The tile's first
                // sample is the first pixel past the border: a box `o` in from
                // the edge is `CELL_PX - o` wide, resampled to `CELL_PX`, and
                // its first inset pixel is sampled at `o + (INSET + 0.5) (1 -
                // o / CELL_PX) - 0.5` (see `extract_cells_with_lines`), which
                // is the border's end when `o` is as below. Never nearer the
                // edge than the border's middle, where an inner line's box
                // begins.
                let end = (lo + width) as f32;
                let past = (end - inset + 0.5) / (1.0 - inset / CELL_PX as f32);
                past.max(lo as f32 + width as f32 / 2.0)
            })
        })
        .collect();
    let middle: Vec<f32> = runs
        .iter()
        .map(|run| run.map_or(f32::NAN, |(lo, _)| lo as f32 + width as f32 / 2.0))
        .collect();
    let sign = if far { -1.0 } else { 1.0 };
    let signed = |offsets: Vec<f32>| offsets.into_iter().map(|o| sign * o).collect();
    Some(Outer {
        cut: signed(smooth_offsets(&cut)?),
        middle: signed(smooth_offsets(&middle)?),
    })
}

/// A thick border found along one side ([`outer_line`]): per band, as
/// offsets from the quad's edge (positive inwards on the near sides,
/// negative on the far ones).
#[derive(Debug, Clone)]
struct Outer {
    /// Where the outer cells are cut: their tiles begin past the border.
    cut: Vec<f32>,
    /// The border's middle: the grid's line, for the lines not found to
    /// bend between (see [`fill_between`]).
    middle: Vec<f32>,
}

/// Each line's offsets per band, those of lines that were not found
/// (`None`; an outer line that is not found stays on the located
/// corners) taken between the nearest lines found on either side of it, in
/// proportion to its distance from each. A page's curl bends all its
/// lines alike, the box lines (thick, found most often) and the thin ones
/// between them that a faint print or a blurred photo hides; left on the
/// perfect split, a thin line of a curled grid cuts its digits.
fn fill_between(found: &[Option<Vec<f32>>]) -> Vec<Vec<f32>> {
    let lines = found.len();
    let bands = lines.saturating_sub(1);
    let mut out = vec![vec![0.0f32; bands]; lines];
    let known: Vec<usize> = (0..lines)
        .filter(|&j| j == 0 || j == bands || found[j].is_some())
        .collect();
    for j in 0..lines {
        if let Some(off) = &found[j] {
            out[j].clone_from(off);
            continue;
        }
        let (Some(&a), Some(&b)) = (
            known.iter().rev().find(|&&k| k < j),
            known.iter().find(|&&k| k > j),
        ) else {
            continue;
        };
        let level = vec![0.0; bands];
        let fa = found[a].as_ref().unwrap_or(&level);
        let fb = found[b].as_ref().unwrap_or(&level);
        let t = (j - a) as f32 / (b - a) as f32;
        for band in 0..bands {
            out[j][band] = fa[band] * (1.0 - t) + fb[band] * t;
        }
    }
    out
}

/// Pixels a line may move from one band to the next while it is followed
/// ([`detect_lines`]): a curl bows a line by at most a few pixels a cell.
const TRACK_STEP: f32 = 5.0;

/// Farthest a followed line may lie from its place: three eighths of a
/// cell, where a curled page's edge takes the lines (a line further off
/// would be the next one's business).
const CURL_SHIFT: f32 = 18.0;

/// Pixels from a line's centre to the ground beside it: past half the
/// widest inner box line of a rectified grid (about 6 px).
const LINE_SIDE: usize = 7;

/// Least darkness, in gray levels, of a line pixel over the ground on both
/// sides of it.
const LINE_STEP: f32 = 10.0;

/// Share of a band's length along which a line must be darker than the
/// ground beside it: a printed line runs the whole band, a digit's stroke
/// (a small pencil 4's bar, the top of a 7) only part of it, however dark;
/// three fifths leaves room for digits touching the line and for breaks.
const LINE_RUN: usize = 6;

/// Pixels of a band left out at each end when a line is looked for in it:
/// the crossing lines and the digits' corners.
const LINE_END: usize = 6;

/// Length of the stretch of a band a line is looked for along.
const LINE_ALONG: usize = CELL_PX - 2 * LINE_END;

/// Slants a line is looked for at within a band: how far, in pixels, it
/// moves across over the band's [`LINE_ALONG`] pixels. A curled page's
/// line near the grid's edge runs at a slant (up to a sixth of a cell
/// over one band on the posters and curled books measured); looked for
/// level, it spreads over several rows of the profile and is lost, or a
/// digit's level bar beside it outshines it. Steps of 2 px keep the
/// slanted path within a pixel of the line along the whole band. Level
/// first, then ever steeper: see [`SLANT_GAIN`].
const LINE_DRIFTS: [f32; 9] = [0.0, -2.0, 2.0, -4.0, 4.0, -6.0, 6.0, -8.0, 8.0];

/// Step between the slants of [`LINE_DRIFTS`].
const DRIFT_STEP: f32 = 2.0;

/// How much clearer (the peak's height, as a factor) a line must stand
/// out at a steeper slant to be taken at it. A thick line (a box line, a
/// few pixels wide) is as dark along a slightly slanted path as along a
/// level one: taken at the slant, it would be followed off its course
/// into the next band. A truly slanted line stands out far more at its
/// own slant than level, where it covers only part of the path.
const SLANT_GAIN: f32 = 1.15;

/// Rank, among the [`LINE_SAMPLES`] pixels of a path, of the darkness that
/// stands for the path in the profile a line is looked for in: the
/// darkness it keeps along seven tenths of the band. A printed line is
/// dark along all of it (a digit touching it only darkens it further);
/// a digit's level bar (the foot of a 2, a 4's bar), darker than a thin
/// grey line and outshining it in a mean, covers at most two thirds of a
/// band.
const LINE_COVER_RANK: usize = LINE_SAMPLES * 3 / 10;

/// Every how many pixels along a band its profile samples the path: a
/// printed line is continuous, and a digit's stroke a few pixels long,
/// so every second pixel tells the same (at half the cost).
const SAMPLE_STEP: usize = 2;

/// Pixels of a path sampled for its profile.
const LINE_SAMPLES: usize = LINE_ALONG.div_ceil(SAMPLE_STEP);

/// Fewest offsets a line's profile spans (see [`find_line`]): those of
/// the blind search and 2 more each way, a narrower search's profile
/// padded out on both sides by more than a thick box line's width.
const PROFILE_SPAN: i32 = 2 * BLIND_REACH as i32 + 1 + 4;

/// Line `j` in `band`: its offset from its place at the band's middle,
/// searched within `lo..=hi`, and its drift over the band (the first
/// `drifts` of [`LINE_DRIFTS`]); `None` when no slant shows a clear line
/// running along the band.
fn find_line(
    dark: &Dark,
    vertical: bool,
    j: usize,
    band: usize,
    lo: f32,
    hi: f32,
    drifts: usize,
) -> Option<(f32, f32)> {
    let centre = (j * CELL_PX) as f32;
    let (lo, hi) = (lo.floor() as i32, hi.ceil() as i32);
    // The profile reaches past the offsets searched, so that its median
    // is the ground around the line even when the search is narrow.
    let pad = (PROFILE_SPAN - (hi - lo + 1)).max(0) / 2;
    let (from, to) = (lo - pad, hi + pad);
    let along = band * CELL_PX + LINE_END..(band + 1) * CELL_PX - LINE_END;
    let mid = (band * CELL_PX + CELL_PX / 2) as f32;
    let mut best: Option<(f32, f32)> = None;
    let mut clearest = 0.0f32;
    let mut values = [0.0f32; LINE_SAMPLES];
    // One profile buffer for every slant (this runs for each line in
    // each band of every grid).
    let mut prof: Vec<f32> = Vec::with_capacity((to - from + 1) as usize);
    for drift in LINE_DRIFTS.into_iter().take(drifts) {
        // A line found at one slant is looked for only a step steeper: a
        // line steeper still would have stood out at neither (and the
        // search costs a profile per slant).
        if best.is_some_and(|(_, d): (f32, f32)| drift.abs() > d.abs() + DRIFT_STEP) {
            break;
        }
        let path = |a: usize, d: f32| centre + d + drift * (a as f32 - mid) / LINE_ALONG as f32;
        prof.clear();
        prof.extend((from..=to).map(|d| {
            for (v, a) in values.iter_mut().zip(along.clone().step_by(SAMPLE_STEP)) {
                *v = sample(dark, vertical, path(a, d as f32), a);
            }
            *values
                .select_nth_unstable_by(LINE_COVER_RANK, f32::total_cmp)
                .1
        }));
        let searched = (lo - from) as usize..=(hi - from) as usize;
        let Some((p, height)) = profile_peak(&prof, searched) else {
            continue;
        };
        // Measured against every gentler slant's peak, whether or not
        // that peak ran along the band: a line whose level peak a digit
        // touching it spoils is still no slanted line.
        let clearer = height > clearest * SLANT_GAIN;
        clearest = clearest.max(height);
        if !clearer {
            continue;
        }
        let offset = p + from as f32;
        let cover = run_cover(dark, vertical, |a| path(a, offset), along.clone());
        if cover * 10.0 >= LINE_RUN as f32 {
            best = Some((offset, drift));
            if drift == 0.0 && cover >= LEVEL_COVER {
                // Level along nearly all the band: see LEVEL_COVER.
                break;
            }
        }
    }
    best
}

/// Darkness at `across` (sub-pixel, linearly between the two pixels
/// nearest) and `a` along a line: `dark.at(across, a)` for a vertical
/// line, `dark.at(a, across)` for a horizontal one. Outside the image: 0.
fn sample(dark: &Dark, vertical: bool, across: f32, a: usize) -> f32 {
    if !(0.0..(dark.side - 1) as f32).contains(&across) {
        return 0.0;
    }
    // At least 0, so the conversion floors (`floor` is a libm call on the
    // baseline x86-64 target, and this runs for every sample of a profile).
    let i = across as usize;
    let f = across - i as f32;
    let at = |x: usize| {
        if vertical {
            dark.at(x, a)
        } else {
            dark.at(a, x)
        }
    };
    if f == 0.0 {
        // A level path at a whole offset: one pixel.
        return at(i);
    }
    at(i) * (1.0 - f) + at(i + 1) * f
}

/// Share of the band along which a line found level must run for no
/// slant to be looked for: it stays within a pixel of the level path
/// (the line's width [`run_cover`] allows) along nine tenths of the band,
/// where the gentlest slant would place it no better, and a clean
/// printed grid's lines, the most common, then cost one profile a band.
const LEVEL_COVER: f32 = 0.9;

/// Share of the band `along` where the line along `path` (its position
/// across at each pixel `a` along the band) is darker than the ground on
/// both sides; a line runs along the band when that is at least
/// [`LINE_RUN`] tenths. 0 where the path comes too near the image's edge.
fn run_cover(
    dark: &Dark,
    vertical: bool,
    path: impl Fn(usize) -> f32,
    along: std::ops::Range<usize>,
) -> f32 {
    let at = |x: usize, a: usize| {
        if vertical {
            dark.at(x, a)
        } else {
            dark.at(a, x)
        }
    };
    let len = along.len();
    let mut dark_along = 0;
    for a in along {
        let across = path(a).round();
        if across < (LINE_SIDE + 1) as f32 || across + (LINE_SIDE + 1) as f32 >= dark.side as f32 {
            return 0.0;
        }
        let across = across as usize;
        let line = (across - 1..=across + 1)
            .map(|x| at(x, a))
            .fold(f32::MIN, f32::max);
        let side = at(across - LINE_SIDE, a).max(at(across + LINE_SIDE, a));
        dark_along += usize::from(line - side >= LINE_STEP);
    }
    dark_along as f32 / len as f32
}

/// Sub-pixel position of a line (a narrow dark peak, its top within
/// `searched`) in a profile and the peak's height over the profile's
/// median, or None when there is no clear single peak.
fn profile_peak(prof: &[f32], searched: std::ops::RangeInclusive<usize>) -> Option<(f32, f32)> {
    let n = prof.len();
    let (imax, &pmax) = prof
        .iter()
        .enumerate()
        .skip(*searched.start())
        .take(searched.end() - searched.start() + 1)
        .max_by(|a, b| a.1.total_cmp(b.1))?;
    // Top of the window but not of the peak: the peak is outside it.
    let rising = |i: Option<usize>| i.and_then(|i| prof.get(i)).is_some_and(|&p| p > pmax);
    if (imax == *searched.start() && rising(imax.checked_sub(1)))
        || (imax == *searched.end() && rising(Some(imax + 1)))
    {
        return None;
    }
    let mut s = prof.to_vec();
    s.sort_unstable_by(f32::total_cmp);
    let base = s[n / 2];
    // A printed line is dark along the whole band: demand a clear peak.
    if pmax - base < 25.0 {
        return None;
    }
    // Centroid of the part of the peak above half height.
    let half = base + 0.5 * (pmax - base);
    let (mut lo, mut hi) = (imax, imax);
    while lo > 0 && prof[lo - 1] > half {
        lo -= 1;
    }
    while hi + 1 < n && prof[hi + 1] > half {
        hi += 1;
    }
    // A wide "peak" is a shaded region or a digit, not a thin line.
    if hi - lo > 7 {
        return None;
    }
    let (mut sw, mut sx) = (0.0, 0.0);
    for (i, &p) in prof.iter().enumerate().take(hi + 1).skip(lo) {
        let w = p - half;
        sw += w;
        sx += w * i as f32;
    }
    if sw <= 0.0 {
        return Some((imax as f32, pmax - base));
    }
    Some((sx / sw, pmax - base))
}

/// Each band's offset of a followed line, from the offsets found (NaN
/// where none): the curve ([`bow_curve`]) that fits them best, once the
/// found offsets off it by more than [`BOW_FIT`] are left out one by one,
/// worst first (a digit's bar beside the line that the line was followed
/// onto). A curled page bows a line smoothly, as a low polynomial does
/// over a grid; a straight line is the flat one. Fewer than 3 offsets
/// found (or left): `None`, nothing is known of the line.
fn smooth_offsets(off: &[f32]) -> Option<Vec<f32>> {
    // Bands are numbered from the grid's middle, where the curve is
    // centred (its powers stay small either way).
    let mid = off.len().saturating_sub(1) as f32 / 2.0;
    let mut used: Vec<(f32, f32)> = off
        .iter()
        .enumerate()
        .filter(|(_, v)| v.is_finite())
        .map(|(b, &v)| (b as f32 - mid, v))
        .collect();
    loop {
        let fit = bow_curve(&used)?;
        let worst = used
            .iter()
            .enumerate()
            .map(|(k, &(x, y))| (k, (fit(x) - y).abs()))
            .max_by(|a, b| a.1.total_cmp(&b.1));
        match worst {
            Some((k, e)) if e > BOW_FIT => {
                used.swap_remove(k);
            }
            _ => {
                // Beyond the bands where the line was found the curve
                // only guesses (and a steep bow at one edge would throw
                // it far off at the other): there the line keeps the
                // course it had in the outermost band found.
                let first = used.iter().map(|p| p.0).fold(f32::MAX, f32::min);
                let last = used.iter().map(|p| p.0).fold(f32::MIN, f32::max);
                let out = (0..off.len())
                    .map(|b| fit((b as f32 - mid).clamp(first, last)))
                    .collect();
                return Some(out);
            }
        }
    }
}

/// Largest distance, in pixels, of a found offset from its line's
/// curve ([`smooth_offsets`]): twice a line's half width, while a
/// digit's bar mistaken for the line lies 3 or more pixels off it.
const BOW_FIT: f32 = 2.0;

/// The least-squares curve through `points` a line's bow is taken as: a
/// cubic through 6 or more (a curl steepens towards one edge of a grid
/// more than a parabola can, measured on posters and curled books: 11 px
/// in the last band, 3 px in the next), the parabola `y = a + b x + c x^2`
/// through 4 or 5, a straight line through 3 (a parabola through 3 points
/// fits any 3); `None` for fewer than 3 points.
fn bow_curve(points: &[(f32, f32)]) -> Option<impl Fn(f32) -> f32> {
    let terms = match points.len() {
        0..=2 => return None,
        3 => 2,
        4 | 5 => 3,
        _ => 4,
    };
    // Normal equations of the polynomial with `terms` terms.
    let mut m = [[0.0f64; 5]; 4];
    for &(x, y) in points {
        let (x, y) = (f64::from(x), f64::from(y));
        let p = [1.0, x, x * x, x * x * x];
        for i in 0..terms {
            for j in 0..terms {
                m[i][j] += p[i] * p[j];
            }
            m[i][4] += p[i] * y;
        }
    }
    // Gauss-Jordan on the `terms` x `terms` system.
    for col in 0..terms {
        let pivot = (col..terms).max_by(|&a, &b| m[a][col].abs().total_cmp(&m[b][col].abs()))?;
        if m[pivot][col].abs() < 1e-9 {
            return None;
        }
        m.swap(col, pivot);
        let lead = m[col];
        for (row, r) in m.iter_mut().enumerate().take(terms) {
            if row != col {
                let f = r[col] / lead[col];
                for (v, l) in r.iter_mut().zip(lead).skip(col) {
                    *v -= f * l;
                }
            }
        }
    }
    let mut c = [0.0f64; 4];
    for i in 0..terms {
        c[i] = m[i][4] / m[i][i];
    }
    Some(move |x: f32| {
        let x = f64::from(x);
        (c[0] + x * (c[1] + x * (c[2] + x * c[3]))) as f32
    })
}

/// Turns an `n` x `n` grid of tiles clockwise by `quarter_turns` x 90
/// degrees: cell (r, c) moves to (c, n - 1 - r) and each tile turns with it.
/// Because the tile spec is symmetric, this equals cutting the tiles from
/// a turned photo. `Quad::rotated` with the same count turns the quad.
pub(crate) fn rotate_tiles(tiles: &[Tile], n: usize, quarter_turns: u8) -> Vec<Tile> {
    let mut cur = tiles.to_vec();
    for _ in 0..quarter_turns % 4 {
        let mut next = cur.clone();
        for r in 0..n {
            for c in 0..n {
                next[c * n + (n - 1 - r)] = rotate_tile(&cur[r * n + c]);
            }
        }
        cur = next;
    }
    cur
}

/// One tile rotated clockwise by 90 degrees.
pub(crate) fn rotate_tile(t: &Tile) -> Tile {
    let mut o = Tile {
        ink: t.ink,
        ..Tile::default()
    };
    for y in 0..TILE {
        for x in 0..TILE {
            // (y, x) -> (x, TILE - 1 - y)
            o.pixels[x * TILE + (TILE - 1 - y)] = t.pixels[y * TILE + x];
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn faint_ink_is_taken_away_and_print_keeps_its_scale() {
        let mut tile = Tile {
            ink: 0.7,
            ..Tile::default()
        };
        tile.pixels[..3].copy_from_slice(&[0.2, 0.35, 1.0]);
        tile.pixels[3] = 0.675;
        let clean = tile.without_faint_ink(0.35);
        assert_eq!(&clean.pixels[..3], &[0.0, 0.0, 1.0]);
        assert!((clean.pixels[3] - 0.5).abs() < 1e-6);
        assert_eq!(clean.ink, 0.7);
    }

    #[test]
    fn a_cells_ink_is_its_glyphs_not_its_grid_lines() {
        // Paper at v = 0.1, a grey stroke at 0.3 in the middle and a black
        // grid line the cutter left along the left edge of the inset.
        let mut v = [0.1f32; INNER * INNER];
        for y in 0..INNER {
            for x in 0..INNER {
                if x < 3 {
                    v[y * INNER + x] = 0.95;
                } else if (17..23).contains(&x) && (10..30).contains(&y) {
                    v[y * INNER + x] = 0.3;
                }
            }
        }
        let grey = (0.3 - 0.1) / (1.0 - 0.1);
        assert!((normalise_cell(&v).ink - grey).abs() < 1e-3);
        // The same paper under half the light: the same contrast.
        let dim = v.map(|x| 1.0 - 0.5 * (1.0 - x));
        assert!((normalise_cell(&dim).ink - grey).abs() < 1e-3);
    }

    /// A synthetic grid: lines at j*48 (3 px thick at 0,3,6,9, else 1 px)
    /// and a dark block in cell (2, 5).
    fn synthetic() -> GrayImage {
        GrayImage::from_fn(GRID_PX as u32, GRID_PX as u32, |x, y| {
            let on_line = |p: u32| {
                let j = (p as usize + 1) / CELL_PX;
                let d = (p as i64 - (j * CELL_PX) as i64).abs();
                d <= if j.is_multiple_of(3) { 1 } else { 0 }
            };
            let (x, y) = (x.min(431), y.min(431));
            let block = (5 * 48 + 18..5 * 48 + 30).contains(&(x as usize))
                && (2 * 48 + 14..2 * 48 + 34).contains(&(y as usize));
            Luma([if on_line(x) || on_line(y) || block {
                20
            } else {
                230
            }])
        })
    }

    #[test]
    fn a_grid_printed_light_on_dark_reads_as_its_negative() {
        let g = synthetic();
        let mut negative = g.clone();
        image::imageops::invert(&mut negative);
        // One block of ink is no puzzle: both polarities stay as they are.
        assert!(!light_on_dark(&g, 9) && !light_on_dark(&negative, 9));
        // Light "digits" in ten cells of a dark grid (a dark theme).
        let dark = GrayImage::from_fn(GRID_PX as u32, GRID_PX as u32, |x, y| {
            let (c, r) = (x as usize / CELL_PX, y as usize / CELL_PX);
            let (cx, cy) = (x as usize % CELL_PX, y as usize % CELL_PX);
            let digit = (r + c) % 8 == 0 && (18..30).contains(&cx) && (14..34).contains(&cy);
            Luma([if cx < 1 || cy < 1 || digit { 230 } else { 25 }])
        });
        assert!(light_on_dark(&dark, 9));
        assert!(!light_on_dark(&dark_on_light(&dark, 9), 9));
        let cells = extract_cells(&dark, 9);
        assert!(
            cells.tiles[0].pixels[14 * TILE + 14] > 0.99,
            "ink reads as ink"
        );
        assert!(
            cells.tiles[1].pixels.iter().all(|&v| v < 0.3),
            "ground as ground"
        );
    }

    #[test]
    fn area_weights_sum_to_one() {
        for ws in area_weights() {
            let s: f32 = ws.iter().flatten().map(|w| w.1).sum();
            assert!((s - 1.0).abs() < 1e-5);
        }
        let ones = [1.0f32; INNER * INNER];
        assert!(area_resize(&ones).iter().all(|v| (v - 1.0).abs() < 1e-5));
    }

    /// An inset of paper at `paper` (the 0..1 ink scale) with a faint
    /// grain, holding a stroke `stroke` darker than it when `stroke` > 0.
    fn inset(paper: f32, stroke: f32) -> [f32; INNER * INNER] {
        let mut v = [0.0f32; INNER * INNER];
        for (i, p) in v.iter_mut().enumerate() {
            let grain = 0.02 * ((i * 7919) % 13) as f32 / 12.0;
            let (x, y) = (i % INNER, i / INNER);
            let on_stroke = (18..22).contains(&x) && (8..32).contains(&y);
            *p = paper + grain + if on_stroke { stroke } else { 0.0 };
        }
        v
    }

    #[test]
    fn a_faint_grids_clues_are_stretched_as_a_clear_ones_are() {
        // 20 clues of 81 cells on grey paper: printed clearly (0.5 above
        // it), faintly (0.1: a dim photo's), and no clue at all.
        let grid = |stroke: f32| -> Vec<[f32; INNER * INNER]> {
            (0..81)
                .map(|i| inset(0.45, if i % 4 == 0 && i < 80 { stroke } else { 0.0 }))
                .collect()
        };
        let floor_of = |insets: &[[f32; INNER * INNER]]| {
            contrast_floor(&insets.iter().map(ground_and_ink).collect::<Vec<_>>())
        };
        assert_eq!(floor_of(&grid(0.5)), CONTRAST_FLOOR);
        assert_eq!(floor_of(&grid(0.0)), CONTRAST_FLOOR);
        let faint = grid(0.1);
        let floor = floor_of(&faint);
        assert!(
            (MAX_FLOOR_CUT * CONTRAST_FLOOR..CONTRAST_FLOOR).contains(&floor),
            "{floor}"
        );
        let stretch = |v: &[f32; INNER * INNER]| {
            let (bg, hi) = ground_and_ink(v);
            stretched(v, bg, hi, floor)
        };
        let clue = stretch(&faint[0]);
        let centre = clue.pixels[14 * TILE + 14];
        assert!(centre >= PRINT_SHARE - 0.05, "{centre}");
        // The tile spec's floor leaves it at under half the scale.
        assert!(normalise_cell(&faint[0]).pixels[14 * TILE + 14] < 0.45);
        // An empty cell's grain stays faint.
        let empty = stretch(&faint[1]);
        assert!(empty.pixels.iter().all(|&p| p < 0.2));
    }

    #[test]
    fn synthetic_grid_tiles() {
        let g = synthetic();
        let cells = extract_cells(&g, 9);
        assert!(cells.lines.max_shift() < 1.0, "{}", cells.lines.max_shift());
        let k = 2 * 9 + 5;
        for (i, t) in cells.tiles.iter().enumerate() {
            if i != k {
                assert!(t.pixels.iter().all(|&v| v < 0.3), "cell {i}");
            }
        }
        let t = &cells.tiles[k];
        assert!(t.pixels[14 * TILE + 14] > 0.99);
        assert!(t.pixels[2 * TILE + 2] < 0.01);
    }

    #[test]
    fn curled_lines_are_followed() {
        // Shift the inner vertical lines of the synthetic grid by 5 px.
        let g0 = synthetic();
        let g = GrayImage::from_fn(GRID_PX as u32, GRID_PX as u32, |x, y| {
            let xs = if (20..412).contains(&x) { x - 5 } else { x };
            *g0.get_pixel(xs, y)
        });
        let lines = detect_lines(&g, 9);
        for j in 1..9 {
            for b in 0..9 {
                let e = (j * CELL_PX + 5) as f32;
                assert!(
                    (lines.vertical[j][b] - e).abs() < 0.6,
                    "{j} {b} {}",
                    lines.vertical[j][b]
                );
            }
        }
    }

    #[test]
    fn a_page_curl_is_followed_to_the_grids_edge() {
        // The horizontal lines bow down towards both sides as on a curled
        // page: 0 px in the middle, 15 px at the edges (a parabola), more
        // than a line is looked for blindly, and a bar of ink beside one
        // line in one band (a digit's stroke) is not followed.
        let g0 = synthetic();
        let bow = |x: f32| 15.0 * ((x - 216.0) / 216.0).powi(2);
        let g = GrayImage::from_fn(GRID_PX as u32, GRID_PX as u32, |x, y| {
            let sy = y as f32 - bow(x as f32);
            if (4.0..428.0).contains(&(y as f32)) && (3.0..429.0).contains(&sy) {
                let mut v = *g0.get_pixel(x, sy.round() as u32);
                // A 30 px bar 4 px above line 5 in column band 4.
                if (4 * 48 + 9..4 * 48 + 39).contains(&x)
                    && y as f32 == (5 * 48) as f32 - 4.0 + bow(x as f32).round()
                {
                    v = Luma([20]);
                }
                v
            } else {
                *g0.get_pixel(x, y)
            }
        });
        let lines = detect_lines(&g, 9);
        for j in 1..9 {
            for c in 0..9 {
                let e = (j * CELL_PX) as f32 + bow((c * CELL_PX + CELL_PX / 2) as f32);
                assert!(
                    (lines.horizontal[j][c] - e).abs() < 1.5,
                    "line {j} band {c}: {} against {e}",
                    lines.horizontal[j][c]
                );
            }
        }
    }

    #[test]
    fn a_16x16_grids_curled_lines_are_followed_too() {
        // A 16x16 (box lines every 4 cells, 3 px thick, the others 1 px),
        // its inner vertical lines 5 px off their place and its horizontal
        // lines bowed down towards both sides, 12 px at the edges.
        let n = 16;
        let side = (n * CELL_PX) as u32;
        let half = side as f32 / 2.0;
        let bow = |x: f32| 12.0 * ((x - half) / half).powi(2);
        let on_line = |p: u32| {
            let j = (p as usize + 1) / CELL_PX;
            let d = (p as i64 - (j * CELL_PX) as i64).abs();
            d <= if j.is_multiple_of(4) { 1 } else { 0 }
        };
        let g = GrayImage::from_fn(side, side, |x, y| {
            let xs = if (20..side - 20).contains(&x) {
                x - 5
            } else {
                x
            };
            let sy = y as f32 - bow(x as f32);
            let ys = if (4.0..side as f32 - 4.0).contains(&(y as f32)) && sy >= 3.0 {
                sy.round() as u32
            } else {
                y
            };
            Luma([if on_line(xs) || on_line(ys.min(side - 1)) {
                20
            } else {
                230
            }])
        });
        let cells = extract_cells(&g, n);
        assert_eq!(cells.tiles.len(), 256);
        let lines = &cells.lines;
        for j in 1..n {
            for b in 0..n {
                let x = lines.vertical[j][b];
                let want = (j * CELL_PX + 5) as f32;
                assert!((x - want).abs() < 1.0, "vertical {j} band {b} at {x}");
                let y = lines.horizontal[j][b];
                let want = (j * CELL_PX) as f32 + bow((b * CELL_PX + CELL_PX / 2) as f32);
                assert!(
                    (y - want).abs() < 1.5,
                    "horizontal {j} band {b} at {y}, want {want}"
                );
            }
        }
    }

    /// A grid of thin grey lines (`thin` grey level) and black box lines
    /// on white, its horizontal lines bowed by `bow(x)` half-way down
    /// (see [`bowed_at`]), with what `over` gives painted over it.
    fn bowed_grid(
        thin: u8,
        bow: impl Fn(f32) -> f32,
        over: impl Fn(u32, u32) -> Option<u8>,
    ) -> GrayImage {
        GrayImage::from_fn(GRID_PX as u32, GRID_PX as u32, |x, y| {
            let line = |p: f32, box_too: bool| {
                let j = ((p + 1.0) / CELL_PX as f32).floor() as usize;
                let d = (p - (j * CELL_PX) as f32).abs();
                match j % 3 {
                    0 if box_too && d <= 1.5 => Some(20),
                    0 => None,
                    _ if d <= 0.5 => Some(thin),
                    _ => None,
                }
            };
            // The bow is the grid's own: nothing at its top and bottom
            // edges (the located corners), most half-way down.
            let sy =
                y as f32 - bow(x as f32) * (std::f32::consts::PI * y as f32 / GRID_PX as f32).sin();
            let v = [line(x as f32, true), line(sy, (0.0..432.0).contains(&sy))]
                .into_iter()
                .flatten()
                .min();
            Luma([over(x, y).unwrap_or(v.unwrap_or(230))])
        })
    }

    /// Where [`bowed_grid`] draws horizontal line `j` where the bow is `b`.
    fn bowed_at(j: usize, b: f32) -> f32 {
        let y = (j * CELL_PX) as f32;
        y + b * (std::f32::consts::PI * y / GRID_PX as f32).sin()
    }

    #[test]
    fn a_thin_line_is_not_mistaken_for_bold_digits_feet_beside_it() {
        // Thin grey lines; along line 7, in three bands side by side, the
        // flat feet of bold digits (black bars 4 px thick, half a cell
        // long) 5 px above it: darker than the line, and together a
        // course as straight as a line's.
        let feet = |x: u32, y: u32| {
            let (c, at) = (x as usize / CELL_PX, x as usize % CELL_PX);
            (3..6).contains(&c)
                && (12..36).contains(&at)
                && (7 * 48 - 9..7 * 48 - 5).contains(&(y as usize))
        };
        let lines = detect_lines(
            &bowed_grid(170, |_| 0.0, |x, y| feet(x, y).then_some(20)),
            9,
        );
        for c in 0..9 {
            let y = lines.horizontal[7][c];
            assert!((y - 336.0).abs() < 1.0, "line 7 band {c} at {y}");
        }
    }

    #[test]
    fn a_digits_bar_near_the_edge_is_not_followed_past_hidden_bands() {
        // As on a held-out rendered page of notes: line 4 is hidden
        // in bands 2-4 and 8 (cells whose digits cover it), so the
        // follower, coming from the middle, looks for it in band 1 in a
        // wide window, where a bold 2's foot lies 8 px above it; in band
        // 0 the line is plain and on the course of the other bands.
        let over = |x: u32, y: u32| {
            let (c, at) = (x as usize / CELL_PX, x as usize % CELL_PX);
            let y = y as usize;
            if c == 1 && (12..40).contains(&at) && (4 * 48 - 10..4 * 48 - 6).contains(&y) {
                Some(20)
            } else if (c == 8 || (2..5).contains(&c)) && (4 * 48 - 1..=4 * 48 + 1).contains(&y) {
                Some(230)
            } else {
                None
            }
        };
        let lines = detect_lines(&bowed_grid(170, |_| 0.0, over), 9);
        for c in 0..9 {
            let y = lines.horizontal[4][c];
            assert!((y - 192.0).abs() < 1.0, "line 4 band {c} at {y}");
        }
    }

    #[test]
    fn a_steep_curl_at_one_edge_bends_the_faint_lines_too() {
        // A page curled at its left edge: half-way down the grid its
        // horizontal lines rise by 10 px in the first column, 4 in the
        // second, 1 in the third (as measured on a poster), level beyond.
        // The thin lines are too faint to be found: they bend with the box
        // lines found on either side of them.
        let bow = |x: f32| -14.0 * ((216.0 - x).max(0.0) / 216.0).powi(3);
        let lines = detect_lines(&bowed_grid(226, bow, |_, _| None), 9);
        for j in 1..9 {
            for c in 0..9 {
                let want = bowed_at(j, bow((c * CELL_PX + CELL_PX / 2) as f32));
                let y = lines.horizontal[j][c];
                assert!(
                    (y - want).abs() < 2.0,
                    "line {j} band {c} at {y}, want {want}"
                );
            }
        }
    }

    #[test]
    fn a_thick_border_is_cut_off_the_outer_cells_as_lines_are_off_inner_ones() {
        // A newspaper grid: a border 12 px thick from the quad's edge (a
        // quarter of a cell), and in the first column a digit's stroke
        // centred between the border's middle and line 1, grey against the
        // border's black. Cut on the quad, the tile starts on the border:
        // the border is its ink and the stroke comes out faint.
        let g0 = synthetic();
        let g = GrayImage::from_fn(GRID_PX as u32, GRID_PX as u32, |x, y| {
            let edge = x.min(y).min(431 - x).min(431 - y);
            let stroke = (22..32).contains(&x) && (2 * 48 + 12..2 * 48 + 36).contains(&y);
            if edge < 12 {
                Luma([20])
            } else if stroke {
                Luma([120])
            } else {
                *g0.get_pixel(x, y)
            }
        });
        let cells = extract_cells(&g, 9);
        for b in 0..9 {
            let (left, right) = (cells.lines.vertical[0][b], cells.lines.vertical[9][b]);
            assert!((6.0..=9.0).contains(&left), "line 0 band {b} at {left}");
            assert!(
                (423.0..=426.0).contains(&right),
                "line 9 band {b} at {right}"
            );
        }
        let t = &cells.tiles[2 * 9];
        let column =
            |x: usize| (0..TILE).map(|y| t.pixels[y * TILE + x]).sum::<f32>() / TILE as f32;
        assert!(
            column(0) < 0.5,
            "the border left in the tile: {}",
            column(0)
        );
        let stroke = (8..20)
            .map(|y| t.pixels[y * TILE + TILE / 2 - 2])
            .fold(0.0, f32::max);
        assert!(stroke > 0.9, "the stroke as the tile's ink: {stroke}");
    }

    #[test]
    fn faint_lines_bend_from_the_borders_middle_not_from_where_cells_are_cut() {
        // A grid printed on lines 6 + 46.67 j (a border 12 px thick from
        // the quad's edge, centred on lines 0 and 9), its box lines drawn
        // and its thin lines too faint to find: these lie between the box
        // lines and the border's middle, where the border is printed.
        let pitch = 420.0 / 9.0;
        let g = GrayImage::from_fn(GRID_PX as u32, GRID_PX as u32, |x, y| {
            let edge = x.min(y).min(431 - x).min(431 - y);
            let on_box = |p: u32| {
                [3.0, 6.0]
                    .iter()
                    .any(|&j| (p as f32 + 0.5 - (6.0 + j * pitch)).abs() <= 1.5)
            };
            Luma(if edge < 12 || on_box(x) || on_box(y) {
                [20]
            } else {
                [230]
            })
        });
        let lines = detect_lines(&g, 9);
        for j in [1, 2, 4, 5, 7, 8] {
            let want = 6.0 + j as f32 * pitch;
            for b in 0..9 {
                let x = lines.vertical[j][b];
                assert!(
                    (x - want).abs() < 0.7,
                    "line {j} band {b} at {x}, want {want}"
                );
            }
        }
    }

    #[test]
    fn a_digits_foot_against_the_border_is_not_taken_for_it() {
        // A border 8 px thick along the bottom, and in the first two
        // columns of the last row bold digits' feet (bars 6 px thick, 32
        // px long) touching it, as where a curl bows the border against a
        // 2 and a 5 (fixtures/six-puzzles-curled.jpg): two bands' runs at
        // the grid's edge are nearly twice the border's width, and as the
        // border's course there (a curl bends a line most at an edge) the
        // feet would be cut off their tiles.
        let g0 = synthetic();
        let g = GrayImage::from_fn(GRID_PX as u32, GRID_PX as u32, |x, y| {
            let foot = (x % 48 >= 8 && x % 48 < 40 && x < 96) && (418..424).contains(&y);
            if y >= 424 || foot {
                Luma([20])
            } else {
                *g0.get_pixel(x, y)
            }
        });
        let lines = detect_lines(&g, 9);
        for c in 0..9 {
            let y = lines.horizontal[9][c];
            assert!((424.0..=428.0).contains(&y), "line 9 band {c} at {y}");
        }
    }

    #[test]
    fn rotation_moves_cells_and_pixels() {
        let mut tiles = vec![Tile::default(); 81];
        tiles[1].pixels[3] = 1.0; // cell (0, 1), pixel (0, 3)
        let r = rotate_tiles(&tiles, 9, 1);
        // Cell (0,1) -> (1, 8); pixel (y=0, x=3) -> (y=3, x=27).
        assert_eq!(r[9 + 8].pixels[3 * TILE + 27], 1.0);
        let back = rotate_tiles(&r, 9, 3);
        assert_eq!(back, tiles);
        // A 16x16: cell (0, 1) -> (1, 15).
        let mut big = vec![Tile::default(); 256];
        big[1].pixels[3] = 1.0;
        assert_eq!(
            rotate_tiles(&big, 16, 1)[16 + 15].pixels[3 * TILE + 27],
            1.0
        );
        assert_eq!(rotate_tiles(&big, 16, 4), big);
    }

    #[test]
    fn rotating_the_image_equals_rotating_tiles() {
        let g = synthetic();
        let n = GRID_PX as u32;
        let rot = GrayImage::from_fn(n, n, |x, y| *g.get_pixel(y, n - 1 - x));
        let a = extract_cells_with_lines(&rot, &GridLines::perfect(9));
        let b = rotate_tiles(
            &extract_cells_with_lines(&g, &GridLines::perfect(9)).tiles,
            9,
            1,
        );
        assert_eq!(a.tiles.len(), b.len());
        for (ta, tb) in a.tiles.iter().zip(&b) {
            for (pa, pb) in ta.pixels.iter().zip(&tb.pixels) {
                assert!((pa - pb).abs() < 1e-5);
            }
        }
    }
}
