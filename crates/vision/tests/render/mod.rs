//! Printed puzzles made for tests: a board drawn as a newspaper would print
//! it (thin cell lines, thick box lines, digits and letters in the committed
//! Go Bold font), then photographed: placed on a page, warped in
//! perspective, with a little noise.

use ab_glyph::{Font, FontRef, PxScale};
use image::{GrayImage, Luma};
use snap_solver::{digit_char, Board, Shape, SAMURAI_GRIDS};
use snap_vision::Homography;

/// The font the tests print with (BSD-3-Clause, see assets/).
const FONT: &[u8] = include_bytes!("../../../../assets/Go-Bold.ttf");

/// Width of a thin (cell) line and a thick (box) line, in pixels.
const THIN: u32 = 2;
const THICK: u32 = 5;

/// The board printed flat: `cell` pixels per cell, a white margin of
/// `margin` pixels around the layout.
pub fn print(board: &Board, cell: u32, margin: u32) -> GrayImage {
    let side = board.shape.side() as u32;
    let size = side * cell + 2 * margin;
    let mut img = GrayImage::from_pixel(size, size, Luma([250]));
    let squares: Vec<(usize, usize, usize, usize, usize)> = match board.shape {
        Shape::Square {
            size,
            box_rows,
            box_cols,
        } => vec![(0, 0, size, box_rows, box_cols)],
        Shape::Samurai => SAMURAI_GRIDS
            .iter()
            .map(|&(r, c)| (r, c, 9, 3, 3))
            .collect(),
    };
    for &(r0, c0, n, br, bc) in &squares {
        for k in 0..=n {
            let across = margin + (c0 + k) as u32 * cell;
            let down = margin + (r0 + k) as u32 * cell;
            let (x0, y0) = (margin + c0 as u32 * cell, margin + r0 as u32 * cell);
            let len = n as u32 * cell;
            let wv = if k % bc == 0 { THICK } else { THIN };
            let wh = if k % br == 0 { THICK } else { THIN };
            fill(&mut img, across.saturating_sub(wv / 2), y0, wv, len + 1);
            fill(&mut img, x0, down.saturating_sub(wh / 2), len + 1, wh);
        }
    }
    let font = FontRef::try_from_slice(FONT).expect("the committed font parses");
    for (i, &v) in board.cells.iter().enumerate() {
        if v == 0 || !board.shape.contains(i) {
            continue;
        }
        let (r, c) = ((i / side as usize) as u32, (i % side as usize) as u32);
        glyph(
            &mut img,
            &font,
            digit_char(v),
            margin + c * cell,
            margin + r * cell,
            cell,
        );
    }
    img
}

fn fill(img: &mut GrayImage, x: u32, y: u32, w: u32, h: u32) {
    for yy in y..(y + h).min(img.height()) {
        for xx in x..(x + w).min(img.width()) {
            img.put_pixel(xx, yy, Luma([20]));
        }
    }
}

/// Draws `c` centred in the cell at (x, y), 60 % of the cell high.
fn glyph(img: &mut GrayImage, font: &FontRef<'_>, c: char, x: u32, y: u32, cell: u32) {
    let probe = font.glyph_id(c).with_scale(PxScale::from(cell as f32));
    let Some(outline) = font.outline_glyph(probe) else {
        return;
    };
    let scale = cell as f32 * cell as f32 * 0.6 / outline.px_bounds().height().max(1.0);
    let Some(outline) = font.outline_glyph(font.glyph_id(c).with_scale(PxScale::from(scale)))
    else {
        return;
    };
    let b = outline.px_bounds();
    let ox = x as f32 + (cell as f32 - b.width()) / 2.0;
    let oy = y as f32 + (cell as f32 - b.height()) / 2.0;
    outline.draw(|gx, gy, coverage| {
        let (px, py) = ((ox + gx as f32) as u32, (oy + gy as f32) as u32);
        if px < img.width() && py < img.height() {
            let old = f32::from(img.get_pixel(px, py)[0]);
            let new = old * (1.0 - coverage) + 20.0 * coverage;
            img.put_pixel(px, py, Luma([new.round() as u8]));
        }
    });
}

/// The flat print photographed: its corners land on `corners` (tl, tr, br,
/// bl) of a `w` x `h` grey page, bilinear sampling, plus deterministic
/// noise of amplitude `noise` grey levels.
pub fn photograph(
    flat: &GrayImage,
    w: u32,
    h: u32,
    corners: [(f32, f32); 4],
    noise: u8,
) -> GrayImage {
    let side = flat.width() as f64;
    let to_page = Homography::square_to_quad(side, &snap_vision::Quad::new(corners))
        .expect("corners make a quadrilateral");
    let to_flat = to_page.inverse().expect("invertible");
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    GrayImage::from_fn(w, h, |x, y| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let jitter = if noise == 0 {
            0.0
        } else {
            (seed % (2 * noise as u64 + 1)) as f32 - noise as f32
        };
        let (u, v) = to_flat.map(x as f32 + 0.5, y as f32 + 0.5);
        let base = if u >= 0.0 && v >= 0.0 && u < side as f32 - 1.0 && v < side as f32 - 1.0 {
            sample(flat, u - 0.5, v - 0.5)
        } else {
            235.0
        };
        Luma([(base + jitter).clamp(0.0, 255.0) as u8])
    })
}

/// The flat print photographed slightly turned and in perspective, on a
/// page a quarter to a third larger than the print: the framing of the
/// shape tests and of `examples/photograph.rs`.
pub fn photograph_at_an_angle(flat: &GrayImage, noise: u8) -> GrayImage {
    let s = flat.width() as f32;
    let (w, h) = ((s * 1.25) as u32, (s * 1.3) as u32);
    let corners = [
        (0.08 * s, 0.10 * s),
        (1.15 * s, 0.06 * s),
        (1.18 * s, 1.20 * s),
        (0.05 * s, 1.16 * s),
    ];
    photograph(flat, w, h, corners, noise)
}

fn sample(img: &GrayImage, x: f32, y: f32) -> f32 {
    let (x0, y0) = (x.floor().max(0.0), y.floor().max(0.0));
    let (fx, fy) = (x - x0, y - y0);
    let (x0, y0) = (x0 as u32, y0 as u32);
    let x1 = (x0 + 1).min(img.width() - 1);
    let y1 = (y0 + 1).min(img.height() - 1);
    let p = |x, y| f32::from(img.get_pixel(x, y)[0]);
    let top = p(x0, y0) * (1.0 - fx) + p(x1, y0) * fx;
    let bottom = p(x0, y1) * (1.0 - fx) + p(x1, y1) * fx;
    top * (1.0 - fy) + bottom * fy
}

/// The image as PNG bytes, what `Reader::read_bytes` takes.
pub fn png(img: &GrayImage) -> Vec<u8> {
    let mut bytes = Vec::new();
    img.write_to(
        &mut std::io::Cursor::new(&mut bytes),
        image::ImageFormat::Png,
    )
    .expect("PNG encodes in memory");
    bytes
}
