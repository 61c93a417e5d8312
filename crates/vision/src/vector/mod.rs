//! Reading a PDF page from its drawing instead of its pixels: a page whose
//! grids are drawn as lines and whose clues are text says exactly where each
//! grid is and which digit each cell holds, with no search, no cutting and
//! no classifier on every cell.
//!
//! The drawing is read as the renderer draws it (hayro's interpreter, fed to
//! a device that keeps each operation's mark: `marks`), 9x9 grids are found
//! in its bars (`lattice`), and the page is read from the drawing only when
//! every mark is accounted for and the rendered pixels agree:
//!
//! - on each grid, every mark is a piece of one of its lines or one clue: a
//!   glyph of a digit 1-9, filled in ink, upright, inside one cell's centre
//!   (the part the classifier reads), of a clue's size, alone in its cell; a
//!   paper-coloured area only as a background drawn first;
//! - off the grids, nothing that could be another grid: no image, no group
//!   of lines or shapes that touch one another spanning a grid's size, no
//!   glyph of a rule-drawing character;
//! - the grids lie inside the page, apart from one another;
//! - in the rendered page, every line is ink along its length, every clue
//!   shows ink, and the rest of every cell is paper;
//! - each glyph outline (per size) that a clue is drawn with, cut from the
//!   rendered page as a tile (the classifier's tile spec, on the cell's
//!   drawn lines), reads to the classifier as that printed digit
//!   ([`GLYPH_AGREES`]).
//!
//! Any doubt, and the page is read from its pixels as any image is: the
//! reading here is only ever the one the pixels would give, got faster.
//! Pages turned by `/Rotate`, scans, photos of grids, Samurai and 16x16
//! grids, digits drawn as paths or in Type 3 fonts, hidden, clipped, light,
//! masked or blended text all go to the pixels.

mod lattice;
mod marks;
#[cfg(test)]
mod tests;

use std::panic::{catch_unwind, AssertUnwindSafe};

use hayro::hayro_interpret::hayro_syntax::page::Rotation;
use hayro::hayro_interpret::util::TransformExt;
use hayro::hayro_interpret::{interpret_page, Context, InterpreterCache, InterpreterSettings};
use hayro::kurbo::{Affine, Rect};
use image::GrayImage;

use crate::cells::{normalise_cell, INNER, INSET};
use crate::classify::{best, Classifier, OcrError};
use crate::data::{GridReading, Tile};
use crate::geometry::{bilinear, Quad, CELL_PX};
use crate::locate::reading_order;
use crate::pdf::{PdfDoc, POINTS_PER_INCH};

use lattice::{Lattice, N};
use marks::{Kind, Mark, Marks};

/// A mark within this many pixels of a grid's outer edge touches the grid.
const TOUCH_PX: f64 = 1.0;

/// A grid at least this far (pixels) inside the page's edges is whole on
/// the rendered page.
const EDGE_PX: f64 = 2.0;

/// A mark may stick out of a line's ink by this much (pixels) and still be
/// a piece of it: a writer's rounding.
const LINE_SLACK_PX: f64 = 0.5;

/// Least height of a clue, as a share of its cell's: books print clues
/// from about 0.3 of a cell (the shared vector books) to 0.7; smaller
/// glyphs are notes. Whether a glyph reads as a printed digit rather than
/// a pencil candidate is the classifier's to say (`clues_read_as_drawn`).
const MIN_CLUE_SHARE: f64 = 0.2;

/// Farthest a clue's centre may be from its cell's, as a share of the
/// cell: clues are centred, a digit in a corner is a candidate.
const CLUE_CENTRE_SHARE: f64 = 0.15;

/// Smallest grid (pixels a side) the pixel search finds (its candidates'
/// least side, `locate`'s `MIN_SIDE_PX`, at the finest resolution it
/// searches a rendered page at): marks off the grids that touch one another
/// over less than this both ways cannot draw a grid it would find.
const MIN_GRID_PX: f64 = 40.0;

/// Marks off the grids this close (pixels) are taken to touch when they
/// are grouped (see [`MIN_GRID_PX`]): lines drawn to meet, rounded.
const GROUP_PX: f64 = 2.0;

/// Most marks off the grids grouped pair by pair; a page with more shapes
/// than this off its grids is left to the pixels.
const MAX_LOOSE_MARKS: usize = 4000;

/// Along a line in the rendered page, the darkest pixel across it is at
/// most this (0 black, 255 white): a thin line at a low resolution covers
/// a little over half a pixel, 255 * (1 - 0.6) is about 100.
const LINE_INK: u8 = 160;

/// A clue shows a pixel at least this dark: ink of [`marks`]' darkest
/// allowed colour (luma 0.5) covering a whole pixel is 128.
const CLUE_INK: u8 = 140;

/// Pixels of a cell away from its lines and clue are at least this light:
/// paper, give or take the renderer's rounding.
const PAPER: u8 = 230;

/// Pixels kept clear of a line's or a clue's extent when a cell's paper is
/// checked: anti-aliasing, and hinting, which moves a glyph by up to half a
/// pixel and its edges by about as much.
const CLEAR_PX: f64 = 2.0;

/// Least probability the classifier gives a clue's glyph, cut from the
/// render, as the printed digit its text says (and no other class higher)
/// for the glyph to be that digit: three times all other readings
/// together. The tile is cut from the cell's drawn lines, not from the
/// pixel search's outline, so the model's confidence moves by some
/// hundredths against the pixel path's (on the 501-page generated book's
/// 6012 glyph checks the lowest is 0.87, a thin regular 1 the pixel path
/// reads at 0.91; the median 0.99); a glyph of another digit, a
/// handwriting font or an ambiguous shape is far below.
const GLYPH_AGREES: f32 = 0.75;

/// Characters that draw rules, which text could make a grid of: box
/// drawing and block elements, the vertical bar and the underscore.
fn draws_rules(c: char) -> bool {
    matches!(c, '|' | '_' | '\u{2500}'..='\u{259F}')
}

/// Why a page is left to its pixels: the first doubt met.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Doubt {
    /// The document has no such page.
    NoPage,
    /// The page is turned by `/Rotate`.
    Turned,
    /// The interpreter failed on the page.
    Unreadable,
    /// No 9x9 grid is drawn with lines.
    NoGrid,
    /// A grid reaches the page's edge.
    AtEdge,
    /// Two grids touch or overlap (a Samurai's, or a grid in a grid).
    GridsTouch,
    /// Paper is painted over some of a grid's marks, or over part of it.
    PaperOver,
    /// One mark touches two grids.
    Shared,
    /// A line piece off the grid's lines (a line past the frame, a
    /// stroke across a cell).
    OffTheLines,
    /// A digit glyph that is not a clue's: off centre, too small, on a
    /// line, or a second glyph in a cell.
    NotAClue,
    /// On a grid, a mark that is neither a line nor a digit glyph, or a
    /// digit drawn in a way that may change its look; the mark's kind.
    Foreign(&'static str),
    /// An image on the page.
    Image,
    /// Text of rule-drawing characters, or a large glyph of no known
    /// character, off the grids.
    RuleText,
    /// Off the grids, lines or shapes touching one another over a grid's
    /// size, or too many to group.
    Shapes,
    /// The rendered page does not show what the drawing says; what.
    Pixels(&'static str),
    /// A clue's glyph does not read surely as its digit.
    Glyph,
}

/// The puzzles of page `page` (1-based) of `doc`, read from its drawing, in
/// reading order, or why the page must be read from its pixels (see the
/// module docs): the two halves below, in one process. `gray` is the page
/// as rendered at `dpi`; `classifier` checks the clues' glyphs.
#[cfg(test)]
fn reading(
    doc: &PdfDoc,
    page: usize,
    dpi: f32,
    gray: &GrayImage,
    classifier: &Classifier,
) -> Result<Result<Vec<GridReading>, Doubt>, OcrError> {
    confirm(
        &drawing(doc, page, dpi, gray.dimensions()),
        gray,
        classifier,
    )
}

/// What page `page` (1-based) of a PDF draws, read from its drawing before
/// the rendered pixels are looked at: its 9x9 grids of lines and their text
/// clues, every mark accounted for, or why the page is left to its pixels.
///
/// The two halves of reading a page from its drawing run apart when pages
/// are rendered in another process (the binary renders under a memory limit
/// and a deadline): the drawing is interpreted there, next to the render,
/// and crosses as [`Drawing::to_bytes`]; the pixels and the clues' glyphs
/// are checked where the page is read ([`Reader::read_rendered`]).
///
/// [`Reader::read_rendered`]: crate::Reader::read_rendered
#[derive(Debug, Clone, PartialEq)]
pub struct Drawing(Result<(Vec<Lattice>, Clues), Doubt>);

/// What [`Drawing::to_bytes`] starts with: a page left to its pixels.
const DRAWN_NOTHING: u8 = 0;
/// What [`Drawing::to_bytes`] starts with: grids follow.
const DRAWN_GRIDS: u8 = 1;
/// Bytes of one lattice: four arrays of `N + 1` numbers.
const LATTICE_BYTES: usize = 4 * (N + 1) * 8;

impl Drawing {
    /// The drawing as bytes, for [`Drawing::from_bytes`] in another process.
    pub fn to_bytes(&self) -> Vec<u8> {
        let Ok((lattices, clues)) = &self.0 else {
            return vec![DRAWN_NOTHING];
        };
        let mut out = vec![DRAWN_GRIDS];
        out.extend_from_slice(&(lattices.len() as u32).to_le_bytes());
        for l in lattices {
            for v in l.xs.iter().chain(&l.x_half).chain(&l.ys).chain(&l.y_half) {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        for grid in clues {
            for clue in grid {
                match clue {
                    None => out.push(0),
                    Some(c) => {
                        out.push(c.digit);
                        let b = c.bounds;
                        for v in [b.x0, b.y0, b.x1, b.y1] {
                            out.extend_from_slice(&v.to_le_bytes());
                        }
                        out.extend_from_slice(&c.outline.to_le_bytes());
                    }
                }
            }
        }
        out
    }

    /// A drawing from [`Drawing::to_bytes`]'s bytes, or `None` when they are
    /// not such bytes (the page is then read from its pixels).
    pub fn from_bytes(bytes: &[u8]) -> Option<Drawing> {
        let mut r = Bytes(bytes);
        let drawing = match r.take::<1>()?[0] {
            DRAWN_NOTHING => Drawing(Err(Doubt::NoGrid)),
            DRAWN_GRIDS => {
                let count = u32::from_le_bytes(r.take()?) as usize;
                // Each grid takes a lattice and a byte a cell at least.
                if count == 0 || count > r.0.len() / (LATTICE_BYTES + N * N) {
                    return None;
                }
                let mut lattices = Vec::with_capacity(count);
                for _ in 0..count {
                    let mut arrays = [[0.0f64; N + 1]; 4];
                    for v in arrays.iter_mut().flatten() {
                        *v = r.number()?;
                    }
                    let [xs, x_half, ys, y_half] = arrays;
                    lattices.push(Lattice {
                        xs,
                        x_half,
                        ys,
                        y_half,
                    });
                }
                let mut clues = Vec::with_capacity(count);
                for _ in 0..count {
                    let mut grid = [None; N * N];
                    for cell in &mut grid {
                        let digit = r.take::<1>()?[0];
                        if digit == 0 {
                            continue;
                        }
                        if !(1..=9).contains(&digit) {
                            return None;
                        }
                        let (x0, y0, x1, y1) = (r.number()?, r.number()?, r.number()?, r.number()?);
                        let outline = u128::from_le_bytes(r.take()?);
                        *cell = Some(Clue {
                            digit,
                            bounds: Rect::new(x0, y0, x1, y1),
                            outline,
                        });
                    }
                    clues.push(grid);
                }
                Drawing(Ok((lattices, clues)))
            }
            _ => return None,
        };
        r.0.is_empty().then_some(drawing)
    }
}

/// Bytes read front to back.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn take<const K: usize>(&mut self) -> Option<[u8; K]> {
        let (head, rest) = self.0.split_first_chunk::<K>()?;
        self.0 = rest;
        Some(*head)
    }

    /// A finite number.
    fn number(&mut self) -> Option<f64> {
        Some(f64::from_le_bytes(self.take()?)).filter(|v| v.is_finite())
    }
}

/// What page `page` of `doc` draws (see [`Drawing`]), its rendered page
/// `size` pixels at `dpi`.
pub(crate) fn drawing(doc: &PdfDoc, page: usize, dpi: f32, size: (u32, u32)) -> Drawing {
    Drawing(drawn(doc, page, dpi, size))
}

fn drawn(
    doc: &PdfDoc,
    page: usize,
    dpi: f32,
    (w, h): (u32, u32),
) -> Result<(Vec<Lattice>, Clues), Doubt> {
    let Some(pdf_page) = page
        .checked_sub(1)
        .and_then(|i| doc.syntax().pages().get(i))
    else {
        return Err(Doubt::NoPage);
    };
    if !matches!(pdf_page.rotation(), Rotation::None) {
        return Err(Doubt::Turned);
    }
    // The renderer's transform (`PdfDoc::render_page`): the page's own, then
    // the scale to `dpi`.
    let scale = f64::from(dpi / POINTS_PER_INCH);
    let transform = Affine::scale(scale) * pdf_page.initial_transform(true).to_kurbo();
    let page_rect = Rect::new(0.0, 0.0, f64::from(w), f64::from(h));
    let drawn = catch_unwind(AssertUnwindSafe(|| {
        let cache = InterpreterCache::new();
        let mut context = Context::new(
            transform,
            page_rect,
            &cache,
            pdf_page.xref(),
            InterpreterSettings::default(),
        );
        let mut device = Marks::new();
        interpret_page(pdf_page, &mut context, &mut device);
        device.marks
    }));
    let Ok(marks) = drawn else {
        return Err(Doubt::Unreadable);
    };
    account(&marks, page_rect)
}

/// The puzzles `drawing` says, when the rendered page `gray` shows them and
/// the clues' glyphs read as their digits; else the doubt.
pub(crate) fn confirm(
    drawing: &Drawing,
    gray: &GrayImage,
    classifier: &Classifier,
) -> Result<Result<Vec<GridReading>, Doubt>, OcrError> {
    let (lattices, clues) = match &drawing.0 {
        Ok(found) => found,
        Err(doubt) => return Ok(Err(*doubt)),
    };
    // A drawing read in another process was read on a page of this size;
    // one that is not inside this page is not this page's.
    let (w, h) = gray.dimensions();
    let page = Rect::new(0.0, 0.0, f64::from(w), f64::from(h));
    if lattices.len() != clues.len()
        || lattices
            .iter()
            .any(|l| page.intersect(l.outer()) != l.outer())
    {
        return Ok(Err(Doubt::AtEdge));
    }
    if let Err(doubt) = pixels_agree(gray, lattices, clues) {
        return Ok(Err(doubt));
    }
    if !clues_read_as_drawn(gray, lattices, clues, classifier)? {
        return Ok(Err(Doubt::Glyph));
    }
    Ok(Ok(readings(lattices, clues)))
}

/// A clue found in the drawing.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Clue {
    /// 1-9.
    digit: u8,
    /// The glyph's extent, page pixels.
    bounds: Rect,
    /// Its outline (see [`Kind::Glyph`]).
    outline: u128,
}

/// The clues of each grid, row-major.
type Clues = Vec<[Option<Clue>; N * N]>;

/// The page's grids and their clues when every mark is accounted for (see
/// the module docs), else the first doubt.
fn account(marks: &[Mark], page: Rect) -> Result<(Vec<Lattice>, Clues), Doubt> {
    let bars: Vec<Rect> = marks
        .iter()
        .filter(|m| m.kind == Kind::Bar)
        .map(|m| m.bounds)
        .collect();
    let lattices = lattice::grids(&bars);
    if lattices.is_empty() {
        return Err(Doubt::NoGrid);
    }
    let reach: Vec<Rect> = lattices
        .iter()
        .map(|l| l.outer().inflate(TOUCH_PX, TOUCH_PX))
        .collect();
    let inside = page.inset(-EDGE_PX);
    for (i, r) in reach.iter().enumerate() {
        if !inside.contains_rect(lattices[i].outer()) {
            return Err(Doubt::AtEdge);
        }
        if reach[..i].iter().any(|other| overlap(*r, *other)) {
            return Err(Doubt::GridsTouch);
        }
    }
    let strips: Vec<Vec<Rect>> = lattices.iter().map(Lattice::strips).collect();
    let mut clues: Clues = vec![[None; N * N]; lattices.len()];
    let mut started = vec![false; lattices.len()];
    let mut loose: Vec<Rect> = Vec::new();
    for mark in marks {
        let touched: Vec<usize> = (0..lattices.len())
            .filter(|&g| overlap(mark.bounds, reach[g]))
            .collect();
        let Some(&g) = touched.first() else {
            off_grid(mark, &mut loose)?;
            continue;
        };
        match mark.kind {
            Kind::Paper => {
                // A background: it covers the grids it touches whole, under
                // everything they are drawn with.
                let under = touched
                    .iter()
                    .all(|&t| !started[t] && mark.bounds.contains_rect(reach[t]));
                if !under {
                    return Err(Doubt::PaperOver);
                }
            }
            _ if touched.len() > 1 => return Err(Doubt::Shared),
            Kind::Bar => {
                started[g] = true;
                let on_a_line = strips[g].iter().any(|s| {
                    s.inflate(LINE_SLACK_PX, LINE_SLACK_PX)
                        .contains_rect(mark.bounds)
                });
                if !on_a_line {
                    return Err(Doubt::OffTheLines);
                }
            }
            Kind::Glyph {
                text: Some(c @ '1'..='9'),
                outline,
            } => {
                started[g] = true;
                let cell = clue_cell(&lattices[g], mark.bounds).ok_or(Doubt::NotAClue)?;
                let slot = &mut clues[g][cell];
                if slot.is_some() {
                    return Err(Doubt::NotAClue);
                }
                *slot = Some(Clue {
                    digit: c as u8 - b'0',
                    bounds: mark.bounds,
                    outline,
                });
            }
            Kind::Glyph { .. } => return Err(Doubt::Foreign("glyph of no digit")),
            Kind::Invisible => return Err(Doubt::Foreign("invisible text")),
            Kind::Image => return Err(Doubt::Foreign("image")),
            Kind::Other { why } => return Err(Doubt::Foreign(why)),
        }
    }
    if !groups_small(&loose) {
        return Err(Doubt::Shapes);
    }
    Ok((lattices, clues))
}

/// Whether two rectangles share some area.
fn overlap(a: Rect, b: Rect) -> bool {
    a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
}

/// The cell (row-major) a glyph of extent `bounds` is a clue of: the one
/// holding its centre, when the glyph lies in the cell's centre part (what
/// a tile is cut from), clear of the lines, of a clue's size and centred.
fn clue_cell(grid: &Lattice, bounds: Rect) -> Option<usize> {
    let centre = bounds.center();
    let col = (0..N).find(|&c| centre.x >= grid.xs[c] && centre.x < grid.xs[c + 1])?;
    let row = (0..N).find(|&r| centre.y >= grid.ys[r] && centre.y < grid.ys[r + 1])?;
    let cell = grid.cell(row, col);
    let inset_x = cell.width() * INSET as f64 / CELL_PX as f64;
    let inset_y = cell.height() * INSET as f64 / CELL_PX as f64;
    let read = cell.inset((-inset_x, -inset_y, -inset_x, -inset_y));
    let clear = grid.inside(row, col);
    let off_centre_x = (centre.x - cell.center().x).abs() / cell.width();
    let off_centre_y = (centre.y - cell.center().y).abs() / cell.height();
    let fits = read.contains_rect(bounds)
        && clear.contains_rect(bounds)
        && bounds.height() >= MIN_CLUE_SHARE * cell.height()
        && off_centre_x <= CLUE_CENTRE_SHARE
        && off_centre_y <= CLUE_CENTRE_SHARE;
    fits.then_some(row * N + col)
}

/// Whether a mark off the grids leaves them the only grids of the page:
/// lines and shapes are kept in `loose` to be grouped at the end
/// ([`groups_small`]); text is fine unless it draws rules or is a large
/// glyph of no known character; an image never is (a scan, a picture of a
/// grid).
fn off_grid(mark: &Mark, loose: &mut Vec<Rect>) -> Result<(), Doubt> {
    match mark.kind {
        Kind::Image => Err(Doubt::Image),
        Kind::Bar | Kind::Other { .. } => {
            loose.push(mark.bounds);
            if loose.len() > MAX_LOOSE_MARKS {
                return Err(Doubt::Shapes);
            }
            Ok(())
        }
        Kind::Glyph { text: Some(c), .. } if draws_rules(c) => Err(Doubt::RuleText),
        Kind::Glyph { text: None, .. }
            if mark.bounds.width().max(mark.bounds.height()) >= MIN_GRID_PX =>
        {
            Err(Doubt::RuleText)
        }
        Kind::Glyph { .. } | Kind::Invisible | Kind::Paper => Ok(()),
    }
}

/// Whether the marks in `loose`, grouped with the ones they touch (within
/// [`GROUP_PX`]), make only groups smaller than a grid ([`MIN_GRID_PX`])
/// one way or the other.
fn groups_small(loose: &[Rect]) -> bool {
    let n = loose.len();
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for (i, a) in loose.iter().enumerate() {
        let a = a.inflate(GROUP_PX, GROUP_PX);
        for (j, b) in loose.iter().enumerate().skip(i + 1) {
            if overlap(a, *b) {
                let (ri, rj) = (root(&mut parent, i), root(&mut parent, j));
                parent[ri] = rj;
            }
        }
    }
    let mut extent: Vec<Option<Rect>> = vec![None; n];
    for (i, mark) in loose.iter().enumerate() {
        let r = root(&mut parent, i);
        extent[r] = Some(extent[r].map_or(*mark, |e| e.union(*mark)));
    }
    extent
        .iter()
        .flatten()
        .all(|e| e.width() < MIN_GRID_PX || e.height() < MIN_GRID_PX)
}

/// Whether the rendered page shows what the drawing says (see the module
/// docs): each line ink along its length, each clue some ink, the rest of
/// each cell paper; else what it does not.
fn pixels_agree(gray: &GrayImage, lattices: &[Lattice], clues: &Clues) -> Result<(), Doubt> {
    let dark = |x0: f64, y0: f64, x1: f64, y1: f64| -> Option<u8> {
        pixels(gray, Rect::new(x0, y0, x1, y1)).min()
    };
    for (grid, clues) in lattices.iter().zip(clues) {
        let outer = grid.outer();
        let lines_inked = (0..=N).all(|k| {
            let (x, hx) = (grid.xs[k], grid.x_half[k] + 0.5);
            let (y, hy) = (grid.ys[k], grid.y_half[k] + 0.5);
            let down = (outer.y0.ceil() as i64..outer.y1.floor() as i64).all(|row| {
                let row = row as f64;
                dark(x - hx, row, x + hx, row + 1.0).is_some_and(|v| v <= LINE_INK)
            });
            let across = (outer.x0.ceil() as i64..outer.x1.floor() as i64).all(|col| {
                let col = col as f64;
                dark(col, y - hy, col + 1.0, y + hy).is_some_and(|v| v <= LINE_INK)
            });
            down && across
        });
        if !lines_inked {
            return Err(Doubt::Pixels("a line is not ink"));
        }
        for (i, clue) in clues.iter().enumerate() {
            let clue = clue.map(|c| c.bounds.inflate(CLEAR_PX, CLEAR_PX));
            if clue.is_some_and(|b| dark(b.x0, b.y0, b.x1, b.y1).is_none_or(|v| v > CLUE_INK)) {
                return Err(Doubt::Pixels("a clue shows no ink"));
            }
            let paper = grid.inside(i / N, i % N).inset(-CLEAR_PX);
            let clean = pixel_cells(gray, paper)
                .filter(|&(x, y)| {
                    !clue.is_some_and(|b| overlap(b, Rect::new(x, y, x + 1.0, y + 1.0)))
                })
                .all(|(x, y)| gray.get_pixel(x as u32, y as u32).0[0] >= PAPER);
            if !clean {
                return Err(Doubt::Pixels("ink in a cell off its clue"));
            }
        }
    }
    Ok(())
}

/// The pixels (column, row) lying whole inside `r`, within the image.
fn pixel_cells(gray: &GrayImage, r: Rect) -> impl Iterator<Item = (f64, f64)> {
    let (w, h) = gray.dimensions();
    let x0 = r.x0.ceil().max(0.0) as u32;
    let y0 = r.y0.ceil().max(0.0) as u32;
    let x1 = (r.x1.floor().max(0.0) as u32).min(w);
    let y1 = (r.y1.floor().max(0.0) as u32).min(h);
    (y0..y1).flat_map(move |y| (x0..x1).map(move |x| (f64::from(x), f64::from(y))))
}

/// The values of the pixels that `r` touches, within the image.
fn pixels(gray: &GrayImage, r: Rect) -> impl Iterator<Item = u8> + '_ {
    let (w, h) = gray.dimensions();
    let x0 = r.x0.floor().max(0.0) as u32;
    let y0 = r.y0.floor().max(0.0) as u32;
    let x1 = (r.x1.ceil().max(0.0) as u32).min(w);
    let y1 = (r.y1.ceil().max(0.0) as u32).min(h);
    (y0..y1).flat_map(move |y| (x0..x1).map(move |x| gray.get_pixel(x, y).0[0]))
}

/// Whether each glyph the clues are drawn with reads, to the classifier, as
/// the printed digit its text says ([`GLYPH_AGREES`]): one tile per outline and size (a
/// glyph may be scaled either way), cut from
/// the rendered page as from a rectified grid (48 pixels a cell, the tile
/// spec's inset and normalisation, see `cells`).
fn clues_read_as_drawn(
    gray: &GrayImage,
    lattices: &[Lattice],
    clues: &Clues,
    classifier: &Classifier,
) -> Result<bool, OcrError> {
    let mut seen: Vec<(u128, i64, i64)> = Vec::new();
    let mut tiles: Vec<Tile> = Vec::new();
    let mut digits: Vec<u8> = Vec::new();
    for (grid, clues) in lattices.iter().zip(clues) {
        for (i, clue) in clues.iter().enumerate() {
            let Some(clue) = clue else { continue };
            let size = clue.bounds.size();
            let key = (
                clue.outline,
                size.width.round() as i64,
                size.height.round() as i64,
            );
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            tiles.push(cell_tile(gray, grid.cell(i / N, i % N)));
            digits.push(clue.digit);
        }
    }
    if tiles.is_empty() {
        return Ok(true);
    }
    let read = classifier.classify(&tiles)?;
    Ok(read.iter().zip(&digits).all(|(row, &digit)| {
        let (class, p) = best(row);
        class == usize::from(digit) && p >= GLYPH_AGREES
    }))
}

/// The tile of the cell whose box (between its lines' centres) is `cell`.
fn cell_tile(gray: &GrayImage, cell: Rect) -> Tile {
    let step_x = cell.width() / CELL_PX as f64;
    let step_y = cell.height() / CELL_PX as f64;
    let mut v = [0.0f32; INNER * INNER];
    for j in 0..INNER {
        for i in 0..INNER {
            // Pixel centres sit at +0.5; `bilinear` samples index space.
            let x = cell.x0 + ((INSET + i) as f64 + 0.5) * step_x - 0.5;
            let y = cell.y0 + ((INSET + j) as f64 + 0.5) * step_y - 0.5;
            let g = (bilinear(gray, x as f32, y as f32) + 0.5)
                .clamp(0.0, 255.0)
                .floor();
            v[j * INNER + i] = 1.0 - g / 255.0;
        }
    }
    normalise_cell(&v)
}

/// The grids as the pipeline's readings, in reading order: one upright 9x9
/// part each, every cell read with certainty.
fn readings(lattices: &[Lattice], clues: &Clues) -> Vec<GridReading> {
    let quads: Vec<Quad> = lattices
        .iter()
        .map(|l| {
            let o = l.outer();
            let (x0, y0, x1, y1) = (o.x0 as f32, o.y0 as f32, o.x1 as f32, o.y1 as f32);
            Quad::new([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
        })
        .collect();
    reading_order(&quads)
        .into_iter()
        .filter_map(|g| {
            let quad = quads[g];
            let values: Vec<u8> = clues[g].iter().map(|c| c.map_or(0, |c| c.digit)).collect();
            GridReading::certain(quad, &values)
        })
        .collect()
}
