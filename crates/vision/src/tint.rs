//! The colour of a cell's ink against its own paper: what tells a blue or
//! red pen from the black a puzzle is printed in, where the gray image the
//! reader works on shows both as dark strokes.
//!
//! Each channel of the ink is taken as a share of the same channel of the
//! paper around it, which takes out the colour of the light and of the
//! paper: black or grey ink keeps one share in every channel, a coloured
//! ink keeps more of some than of others. The spread of the three shares
//! (largest less smallest) is the cell's *tint*: near 0 for print, about
//! 0.4-0.55 for a blue or red ballpoint.

use image::RgbImage;

use crate::data::{CellEvidence, PartReading};
use crate::decode::Decoded;
use crate::geometry::CELL_PX;

/// Samples across and down the window looked at in a cell.
const SAMPLES: usize = 24;

/// The window: this share of the cell about its centre, clear of the
/// grid's lines (a digit fills about the middle two thirds of its cell).
const WINDOW: f32 = 0.7;

/// Share of a window's samples taken as its ink: the darkest. A digit's
/// strokes cover a tenth to a fifth of the window.
const INK_SHARE: f32 = 0.08;

/// Share of a window's samples taken as its paper: the lightest.
const PAPER_SHARE: f32 = 0.5;

/// A window's darkest samples must be at most this share of its paper's
/// luma to be ink whose colour is measured: an empty cell's darkest are
/// its paper's grain, a few percent darker.
const INK_DARKER: f32 = 0.9;

/// The colour pixels of a photo, or of the parts of it that were decoded.
struct Colour<'a> {
    image: std::borrow::Cow<'a, RgbImage>,
    origin: (u32, u32),
}

impl Colour<'_> {
    fn at(&self, (x, y): (f32, f32)) -> Option<[f32; 3]> {
        let (x, y) = (x.floor(), y.floor());
        if x < self.origin.0 as f32 || y < self.origin.1 as f32 {
            return None;
        }
        let (x, y) = ((x as u32) - self.origin.0, (y as u32) - self.origin.1);
        let p = self.image.get_pixel_checked(x, y)?;
        Some(p.0.map(f32::from))
    }
}

/// Sets the tint ([`CellEvidence::tint`]) of each cell of `cells` that
/// `wanted` picks, cells of the one grid `part` of `photo` (layout
/// positions are the part's cells). A JPEG that can be changed in place
/// decodes the colour of those cells only; another photo its colour whole.
pub(crate) fn measure(
    photo: &Decoded,
    part: &PartReading,
    cells: &mut [CellEvidence],
    wanted: impl Fn(&CellEvidence) -> bool,
) {
    let n = part.n;
    let picked: Vec<usize> = (0..(n * n).min(cells.len()))
        .filter(|&k| wanted(&cells[k]))
        .collect();
    if picked.is_empty() {
        return;
    }
    let window = |k: usize| -> Vec<(f32, f32)> {
        let (row, col) = ((k / n) as f32, (k % n) as f32);
        let first = (1.0 - WINDOW) / 2.0;
        let mut points = Vec::with_capacity(SAMPLES * SAMPLES);
        for i in 0..SAMPLES {
            for j in 0..SAMPLES {
                let u = col + first + WINDOW * (j as f32 + 0.5) / SAMPLES as f32;
                let v = row + first + WINDOW * (i as f32 + 0.5) / SAMPLES as f32;
                points.push(
                    part.grid_to_photo
                        .map(u * CELL_PX as f32, v * CELL_PX as f32),
                );
            }
        }
        points
    };
    let windows: Vec<Vec<(f32, f32)>> = picked.iter().map(|&k| window(k)).collect();
    let Some(colour) = colour_under(photo, &windows) else {
        return;
    };
    for (&k, points) in picked.iter().zip(&windows) {
        let samples: Vec<[f32; 3]> = points.iter().filter_map(|&p| colour.at(p)).collect();
        if let Some(t) = tint(samples) {
            cells[k].tint = t;
        }
    }
}

/// The colour of `photo` under the sample points of `windows`.
fn colour_under<'a>(photo: &'a Decoded, windows: &[Vec<(f32, f32)>]) -> Option<Colour<'a>> {
    let (w, h) = photo.gray.dimensions();
    if let Some(jpeg) = photo.in_place().filter(|j| j.dimensions() == (w, h)) {
        let areas: Vec<snap_jpeg::Area> = windows
            .iter()
            .filter_map(|points| {
                let xs = points.iter().map(|p| p.0);
                let ys = points.iter().map(|p| p.1);
                let clip = |v: f32, hi: u32| v.clamp(0.0, hi as f32) as u32;
                let x0 = clip(xs.clone().fold(f32::MAX, f32::min), w);
                let x1 = clip(xs.fold(f32::MIN, f32::max) + 1.0, w);
                let y0 = clip(ys.clone().fold(f32::MAX, f32::min), h);
                let y1 = clip(ys.fold(f32::MIN, f32::max) + 1.0, h);
                (x1 > x0 && y1 > y0).then_some(snap_jpeg::Area { x0, y0, x1, y1 })
            })
            .collect();
        if let Ok(canvas) = jpeg.canvas(&areas) {
            return Some(Colour {
                image: std::borrow::Cow::Owned(canvas.image),
                origin: canvas.origin,
            });
        }
    }
    let rgb = photo.rgb();
    (rgb.dimensions() == (w, h)).then_some(Colour {
        image: std::borrow::Cow::Borrowed(rgb),
        origin: (0, 0),
    })
}

/// The tint of one window's samples: the spread of its ink's channels as
/// shares of its paper's (see the module docs); `None` for a window too
/// small or with no ink clearly darker than its paper
/// ([`INK_DARKER`]).
fn tint(mut samples: Vec<[f32; 3]>) -> Option<f32> {
    let luma = |p: &[f32; 3]| 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2];
    samples.sort_by(|a, b| luma(a).total_cmp(&luma(b)));
    let ink_count = (samples.len() as f32 * INK_SHARE) as usize;
    let paper_count = (samples.len() as f32 * PAPER_SHARE) as usize;
    if ink_count == 0 || paper_count == 0 {
        return None;
    }
    let mean = |part: &[[f32; 3]]| {
        let mut m = [0.0f32; 3];
        for p in part {
            for c in 0..3 {
                m[c] += p[c] / part.len() as f32;
            }
        }
        m
    };
    let ink = mean(&samples[..ink_count]);
    let paper = mean(&samples[samples.len() - paper_count..]);
    if luma(&ink) > INK_DARKER * luma(&paper) {
        return None;
    }
    let shares = [0, 1, 2].map(|c| ink[c] / paper[c].max(1.0));
    let high = shares.iter().copied().fold(f32::MIN, f32::max);
    let low = shares.iter().copied().fold(f32::MAX, f32::min);
    Some(high - low)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A window of paper `paper` with a tenth of its samples in `ink`.
    fn window(ink: [f32; 3], paper: [f32; 3]) -> Vec<[f32; 3]> {
        (0..400)
            .map(|i| if i % 10 == 0 { ink } else { paper })
            .collect()
    }

    #[test]
    fn black_ink_has_no_tint_under_any_light_and_a_ballpoint_has_one() {
        // Black print on white paper, and under warm light.
        assert!(tint(window([30.0, 30.0, 32.0], [235.0, 235.0, 235.0])).unwrap() < 0.02);
        assert!(tint(window([40.0, 32.0, 20.0], [250.0, 200.0, 130.0])).unwrap() < 0.02);
        // A blue and a red ballpoint.
        assert!(tint(window([25.0, 55.0, 160.0], [235.0, 235.0, 235.0])).unwrap() > 0.4);
        assert!(tint(window([170.0, 30.0, 35.0], [235.0, 235.0, 235.0])).unwrap() > 0.4);
        // No ink darker than the paper: nothing to measure.
        assert_eq!(tint(window([235.0; 3], [235.0; 3])), None);
    }
}
