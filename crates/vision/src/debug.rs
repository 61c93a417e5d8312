//! Debug images (`--debug-dir`): every picture of an intermediate stage is
//! drawn here, through imageproc's drawing functions, so the stages
//! themselves stay free of drawing code.
//!
//! Written per photo: `threshold.png` (the search's binary image),
//! `candidates.png` (hulls blue, accepted grids green, rejected red),
//! `quad.png` (the photo with the grid's quad), `rectified.png`,
//! `lines.png` (the cell boxes) and `tiles.png` (the 81 tiles).

use std::path::Path;

use image::{imageops, GrayImage, Luma, Rgb, RgbImage};
use imageproc::drawing::{draw_filled_rect_mut, draw_line_segment_mut};
use imageproc::rect::Rect;

use crate::cells::{Cells, GridLines};
use crate::data::{Tile, TILE};
use crate::geometry::{Quad, CELL_PX};
use crate::locate::LocateDebug;

/// Colour of the located grid's outline on the photo.
const QUAD_RED: [u8; 3] = [255, 0, 0];
/// Colour of the top-left corner marker: shows which corner the grid reads
/// from.
const CORNER_GREEN: [u8; 3] = [0, 255, 0];
/// Hulls the search tried.
const HULL_BLUE: [u8; 3] = [0, 0, 255];
/// Candidates that passed their threshold.
const PASSED_GREEN: [u8; 3] = [0, 200, 0];
/// Gap between tiles in the mosaic, in pixels.
const MOSAIC_GAP: usize = 2;
/// Mosaic background: mid-dark, so ink-free (black) tiles stand out.
const MOSAIC_BACKGROUND: u8 = 64;

/// The gray image as RGB, for drawing in colour.
fn to_rgb(gray: &GrayImage) -> RgbImage {
    RgbImage::from_fn(gray.width(), gray.height(), |x, y| {
        let g = gray.get_pixel(x, y)[0];
        Rgb([g, g, g])
    })
}

/// The photo (gray) with the quad outlined in red, tl corner marked green.
pub(crate) fn draw_quad(gray: &GrayImage, quad: Option<&Quad>) -> RgbImage {
    let mut img = to_rgb(gray);
    if let Some(q) = quad {
        draw_quad_on(&mut img, q, QUAD_RED);
    }
    img
}

/// Outlines `q` on `img` in `color`, the line width growing with the image
/// (one pixel per 400 of its longer side) so it shows on 12 MP photos; the
/// top-left corner gets a green square.
pub(crate) fn draw_quad_on(img: &mut RgbImage, q: &Quad, color: [u8; 3]) {
    let thick = (img.width().max(img.height()) / 400).max(1) as i32;
    for i in 0..4 {
        let a = q.corners[i];
        let b = q.corners[(i + 1) % 4];
        for dy in -thick..=thick {
            for dx in -thick..=thick {
                let (ox, oy) = (dx as f32, dy as f32);
                draw_line_segment_mut(img, (a.0 + ox, a.1 + oy), (b.0 + ox, b.1 + oy), Rgb(color));
            }
        }
    }
    let r = 3 * thick;
    let (cx, cy) = (q.corners[0].0 as i32, q.corners[0].1 as i32);
    let side = (2 * r + 1) as u32;
    draw_filled_rect_mut(
        img,
        Rect::at(cx - r, cy - r).of_size(side, side),
        Rgb(CORNER_GREEN),
    );
}

/// The search image with hull quads (blue) and verified grid quads (green
/// when accepted, red when rejected).
pub(crate) fn draw_search(search: &LocateDebug) -> RgbImage {
    let mut img = to_rgb(&search.work);
    for q in &search.hulls {
        draw_quad_on(&mut img, q, HULL_BLUE);
    }
    for c in &search.candidates {
        let colour = if c.passed { PASSED_GREEN } else { QUAD_RED };
        draw_quad_on(&mut img, &c.quad, colour);
    }
    img
}

/// The rectified grid with the cell boxes drawn in red.
pub(crate) fn draw_lines(rect: &GrayImage, lines: &GridLines) -> RgbImage {
    let mut img = to_rgb(rect);
    let red = Rgb(QUAD_RED);
    let n = lines.n();
    for j in 0..=n {
        for band in 0..n {
            let (a, b) = ((band * CELL_PX) as f32, ((band + 1) * CELL_PX) as f32);
            let x = lines.vertical[j][band];
            draw_line_segment_mut(&mut img, (x, a), (x, b), red);
            let y = lines.horizontal[j][band];
            draw_line_segment_mut(&mut img, (a, y), (b, y), red);
        }
    }
    img
}

/// The tiles of an `n` x `n` grid in a mosaic with 2 px gaps, ink bright.
pub(crate) fn tiles_mosaic(tiles: &[Tile], n: usize) -> GrayImage {
    let step = TILE + MOSAIC_GAP;
    let side = (n * step) as u32;
    let mut m = GrayImage::from_pixel(side, side, Luma([MOSAIC_BACKGROUND]));
    for (i, t) in tiles.iter().enumerate() {
        let (r, c) = (i / n, i % n);
        imageops::replace(&mut m, &t.to_image(), (c * step) as i64, (r * step) as i64);
    }
    m
}

/// Writes the search's images into `dir` (created if missing):
/// `threshold.png` and `candidates.png`.
pub(crate) fn write_search(dir: &Path, search: &LocateDebug) -> image::ImageResult<()> {
    make_dir(dir)?;
    save(&search.binary, dir, "threshold.png")?;
    save(&draw_search(search), dir, "candidates.png")
}

/// Makes the folder `dir` (`<debug dir>/<photo>`, or `.../grid-K` below
/// it) and refuses it when a folder of those is a symbolic link: they are
/// made here, so a link in their place was planted to send the images
/// elsewhere.
fn make_dir(dir: &Path) -> image::ImageResult<()> {
    std::fs::create_dir_all(dir).map_err(image::ImageError::IoError)?;
    let mut ours = Some(dir);
    while let Some(d) = ours {
        let meta = std::fs::symlink_metadata(d).map_err(image::ImageError::IoError)?;
        if !meta.is_dir() {
            return Err(refused(d, "is not a folder (a symbolic link?)"));
        }
        let grid = d
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("grid-"));
        ours = if grid { d.parent() } else { None };
    }
    Ok(())
}

fn refused(path: &Path, why: &str) -> image::ImageError {
    image::ImageError::IoError(std::io::Error::new(
        std::io::ErrorKind::InvalidInput,
        format!("{}: {why}; debug image not written", path.display()),
    ))
}

/// Saves `img` as PNG at `dir/name` the way answers are written: never
/// through a symbolic link or over anything but a regular file, and never
/// half-written (a temporary file `.<name>.<n>.p<pid>.tmp`, created new,
/// then renamed over the target, which replaces a name, never a link's
/// target).
fn save<I: PngImage>(img: &I, dir: &Path, name: &str) -> image::ImageResult<()> {
    use std::io::Write;
    use std::sync::atomic::{AtomicUsize, Ordering};
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    let path = dir.join(name);
    if let Ok(meta) = std::fs::symlink_metadata(&path) {
        if !meta.is_file() {
            return Err(refused(&path, "is not a regular file"));
        }
    }
    let mut bytes = Vec::new();
    img.encode_png(&mut std::io::Cursor::new(&mut bytes))?;
    let n = NEXT.fetch_add(1, Ordering::Relaxed) % 1_000_000;
    let tmp = dir.join(format!(".{name}.{n:06}.p{}.tmp", std::process::id()));
    let written = std::fs::File::options()
        .write(true)
        .create_new(true)
        .open(&tmp)
        .and_then(|mut f| f.write_all(&bytes))
        .and_then(|()| std::fs::rename(&tmp, &path));
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written.map_err(image::ImageError::IoError)
}

/// The images debug output writes: encoded as PNG.
trait PngImage {
    fn encode_png(&self, out: &mut std::io::Cursor<&mut Vec<u8>>) -> image::ImageResult<()>;
}

impl PngImage for GrayImage {
    fn encode_png(&self, out: &mut std::io::Cursor<&mut Vec<u8>>) -> image::ImageResult<()> {
        self.write_to(out, image::ImageFormat::Png)
    }
}

impl PngImage for RgbImage {
    fn encode_png(&self, out: &mut std::io::Cursor<&mut Vec<u8>>) -> image::ImageResult<()> {
        self.write_to(out, image::ImageFormat::Png)
    }
}

/// Writes the debug images of a read into `dir` (created if missing):
/// `threshold.png`, `quad.png` (photo with the quad), `rectified.png`,
/// `lines.png`, `tiles.png` (mosaic). Any of the inputs may be absent.
pub(crate) fn write_debug_images(
    dir: &Path,
    threshold: Option<&GrayImage>,
    photo: Option<(&GrayImage, Option<&Quad>)>,
    rectified: Option<&GrayImage>,
    cells: Option<&Cells>,
) -> image::ImageResult<()> {
    make_dir(dir)?;
    if let Some(t) = threshold {
        save(t, dir, "threshold.png")?;
    }
    if let Some((g, q)) = photo {
        save(&draw_quad(g, q), dir, "quad.png")?;
    }
    if let Some(r) = rectified {
        save(r, dir, "rectified.png")?;
        if let Some(c) = cells {
            save(&draw_lines(r, &c.lines), dir, "lines.png")?;
        }
    }
    if let Some(c) = cells {
        save(&tiles_mosaic(&c.tiles, c.lines.n()), dir, "tiles.png")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quad_outline_and_corner_marker_are_drawn() {
        let g = GrayImage::from_pixel(100, 100, Luma([128]));
        let q = Quad::new([(10.0, 10.0), (90.0, 10.0), (90.0, 90.0), (10.0, 90.0)]);
        let img = draw_quad(&g, Some(&q));
        assert_eq!(img.get_pixel(50, 90).0, QUAD_RED);
        assert_eq!(img.get_pixel(10, 10).0, CORNER_GREEN);
        assert_eq!(img.get_pixel(50, 50).0, [128, 128, 128]);
    }

    #[test]
    fn mosaic_places_tiles_with_gaps() {
        let mut tiles = vec![Tile::default(); 81];
        tiles[10].pixels = [1.0; TILE * TILE];
        let m = tiles_mosaic(&tiles, 9);
        let step = (TILE + MOSAIC_GAP) as u32;
        assert_eq!(m.get_pixel(step + 3, step + 3)[0], 255);
        assert_eq!(m.get_pixel(3, 3)[0], 0);
        assert_eq!(m.get_pixel(TILE as u32, 3)[0], MOSAIC_BACKGROUND);
    }
}
