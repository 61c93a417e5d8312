//! Answer images made from the photo's own JPEG, and its luma on the way.
//!
//! An answer draws a few dozen digits onto a photo of millions of pixels.
//! Decoding the whole photo to colour and encoding it again costs more than
//! reading the puzzle did, and loses a little of the photo on every pixel.
//! A baseline JPEG is a sequence of MCUs (16x16 pixels for the 4:2:0 that
//! cameras write), each a few 8x8 blocks of Huffman-coded DCT coefficients,
//! so the answer can be the photo's own file with only the blocks drawn on
//! coded again:
//!
//! 1. [`Photo::open`] reads the headers and walks the scan once, noting
//!    where each MCU's bits start and the DC predictions there (Huffman
//!    decoding only: no IDCT, no colour). [`Photo::open_with_luma`] also
//!    transforms the luma blocks on the way: the gray image the puzzle is
//!    read from, for the cost of one decoding of the scan, not two.
//! 2. [`Photo::draw`] decodes to colour only the MCUs under the areas to
//!    be drawn on, piece by piece, has the caller draw on each piece as on
//!    the photo (offset by the piece's origin), and codes again the blocks
//!    whose pixels changed (same quantisation tables).
//! 3. [`Photo::answer`] codes those blocks with the photo's Huffman
//!    tables, codes again the MCU after each run of them (its DC is coded
//!    as a difference from the block before), and copies every other
//!    MCU's bits as they are. Headers and metadata are kept; restart
//!    markers stay where they were.
//!
//! [`Photo::canvas`] decodes the colour under some areas for reading it.
//!
//! Every block not drawn on decodes exactly as in the photo. A Huffman
//! table the photo optimised for itself may lack a symbol a drawn block
//! needs; the symbol is then added with a 16-bit code after every code the
//! table has (so the copied bits decode as before), or, when the table has
//! no room, the photo is [`Unsupported`] and the caller encodes the drawn
//! image whole, as it does for progressive, gray, CMYK and other JPEGs.

mod bits;
mod dct;
mod huffman;
mod idct;
mod luma;
pub mod marker;
mod markers;
mod scan;

use std::sync::Arc;

use image::RgbImage;
use rayon::prelude::*;

use bits::{Unstuffed, Writer};
use huffman::Table;
use markers::Headers;
use scan::{Block, Coder, Index, Layout};

/// Why a photo's answer cannot be made from its own JPEG (then it is
/// encoded whole).
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum Unsupported {
    #[error("not a JPEG this reads: {0}")]
    Format(&'static str),
    #[error("not one sequential Huffman-coded scan of 8-bit samples")]
    Coding,
    #[error("not three YCbCr components")]
    Colour,
    #[error("sampling factors other than 1 and 2")]
    Sampling,
    #[error("the scan's data does not decode")]
    Data,
    #[error("a Huffman table has no room for a symbol the drawing needs")]
    Tables,
}

/// A baseline JPEG opened to change some of its blocks.
#[derive(Clone)]
pub struct Photo {
    jpeg: Arc<[u8]>,
    headers: Headers,
    data: Unstuffed,
    index: Index,
    layout: Layout,
}

/// A pixel rectangle `x0..x1` by `y0..y1` of the photo.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Area {
    pub x0: u32,
    pub y0: u32,
    pub x1: u32,
    pub y1: u32,
}

/// Colour pixels of part of the photo, to draw on: `image` lies over the
/// photo with its top-left pixel at `origin`. Only the MCUs under the areas
/// asked for are decoded (the rest of `image` is black); drawing must stay
/// within those areas.
pub struct Canvas {
    pub origin: (u32, u32),
    pub image: RgbImage,
}

/// The blocks [`Photo::draw`] changed, for [`Photo::answer`]: the MCUs
/// drawn on, in scan order (a few thousand of a photo's tens of thousands,
/// so not a slot for every MCU), each with its blocks coded again.
pub struct Drawn {
    changed: Vec<(usize, Vec<Block>)>,
}

/// What the answer's EXIF orientation tag says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Orientation {
    /// As the photo's tag says.
    Keep,
    /// The pixels as stored (the tag, when there is one, set to 1).
    AsStored,
}

/// What [`Photo::entropy`] codes: the headers it was given and the scan's
/// data after them.
struct Coded {
    bytes: Vec<u8>,
    /// Symbols each table lacked (coded as nothing).
    missing: Vec<Vec<u8>>,
    /// How often each table's symbols were coded.
    counts: Vec<[u32; 256]>,
}

/// Largest AC coefficient an 8-bit baseline JPEG can code (category 10).
const MAX_AC: i32 = 1023;

/// Puts an MCU's `pixels` (RGB rows of `mcu_w`) into `image` (RGB rows of
/// `width` pixels) with its top-left pixel at (`x`, `y`).
fn put_mcu(image: &mut [u8], width: usize, x: usize, y: usize, pixels: &[u8], mcu_w: usize) {
    for (row, line) in pixels.chunks_exact(3 * mcu_w).enumerate() {
        let at = 3 * ((y + row) * width + x);
        image[at..at + line.len()].copy_from_slice(line);
    }
}

/// The pixels of the MCU whose top-left pixel is (`x`, `y`) in `image`
/// (RGB rows of `width` pixels), as RGB rows of the MCU's width.
fn mcu_pixels(image: &[u8], width: usize, x: usize, y: usize, l: Layout) -> Vec<u8> {
    let mut out = Vec::with_capacity(3 * l.mcu_w * l.mcu_h);
    for row in 0..l.mcu_h {
        let at = 3 * ((y + row) * width + x);
        out.extend_from_slice(&image[at..at + 3 * l.mcu_w]);
    }
    out
}

impl std::fmt::Debug for Photo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (w, h) = self.dimensions();
        write!(f, "Photo({w}x{h}, {} bytes)", self.jpeg.len())
    }
}

impl Photo {
    /// Reads `jpeg`'s headers and walks its scan; [`Unsupported`] for any
    /// JPEG this cannot change in place.
    pub fn open(jpeg: Arc<[u8]>) -> Result<Photo, Unsupported> {
        let (headers, data, layout) = Photo::scan(&jpeg)?;
        let index = scan::index(&headers, &data)?;
        Ok(Photo {
            jpeg,
            headers,
            data,
            index,
            layout,
        })
    }

    /// [`Photo::open`], and the photo's luma decoded on the way: its Y
    /// samples, rows of [`Photo::dimensions`]' width, top down (see the
    /// `luma` module). The scan is Huffman-decoded once for both.
    pub fn open_with_luma(jpeg: Arc<[u8]>) -> Result<(Photo, Vec<u8>), Unsupported> {
        let (headers, data, layout) = Photo::scan(&jpeg)?;
        let (index, luma) = luma::index_and_luma(&headers, &data)?;
        let photo = Photo {
            jpeg,
            headers,
            data,
            index,
            layout,
        };
        Ok((photo, luma))
    }

    /// The headers, the scan's data and its layout, when the scan is one
    /// this crate can walk.
    fn scan(jpeg: &[u8]) -> Result<(Headers, Unstuffed, Layout), Unsupported> {
        let headers = markers::read(jpeg)?;
        let data = bits::unstuff(jpeg, headers.data)?;
        if jpeg.get(data.end..data.end + 2) != Some(&[0xFF, marker::EOI]) {
            // Another scan or a DNL segment follows: not one baseline scan.
            return Err(Unsupported::Coding);
        }
        let layout = Layout::of(&headers);
        let intervals = match headers.restart {
            0 => 1,
            r => layout.count().div_ceil(r),
        };
        if data.intervals.len() != intervals + 1 {
            return Err(Unsupported::Data);
        }
        Ok((headers, data, layout))
    }

    /// Width and height in pixels.
    pub fn dimensions(&self) -> (u32, u32) {
        (self.headers.width as u32, self.headers.height as u32)
    }

    /// The MCUs (index) under `areas`.
    fn mcus_under(&self, areas: &[Area]) -> Vec<usize> {
        let l = self.layout;
        let (w, h) = self.dimensions();
        let mut under = vec![false; l.count()];
        for a in areas {
            let (x1, y1) = (a.x1.min(w) as usize, a.y1.min(h) as usize);
            if a.x0 as usize >= x1 || a.y0 as usize >= y1 {
                continue;
            }
            for my in a.y0 as usize / l.mcu_h..y1.div_ceil(l.mcu_h) {
                for mx in a.x0 as usize / l.mcu_w..x1.div_ceil(l.mcu_w) {
                    under[my * l.across + mx] = true;
                }
            }
        }
        (0..l.count()).filter(|&m| under[m]).collect()
    }

    /// A canvas holding the colour of every MCU under `areas`.
    pub fn canvas(&self, areas: &[Area]) -> Result<Canvas, Unsupported> {
        let l = self.layout;
        let mcus = self.mcus_under(areas);
        let (mut mx0, mut my0, mut mx1, mut my1) = (usize::MAX, usize::MAX, 0, 0);
        for &m in &mcus {
            let (mx, my) = (m % l.across, m / l.across);
            (mx0, my0) = (mx0.min(mx), my0.min(my));
            (mx1, my1) = (mx1.max(mx + 1), my1.max(my + 1));
        }
        if mcus.is_empty() {
            (mx0, my0, mx1, my1) = (0, 0, 0, 0);
        }
        let mut image = RgbImage::new(
            ((mx1 - mx0) * l.mcu_w) as u32,
            ((my1 - my0) * l.mcu_h) as u32,
        );
        // MCUs decode on their own (each from its own bits): on the pool.
        let decoded: Vec<(usize, Vec<u8>)> = mcus
            .into_par_iter()
            .map(|m| {
                let blocks = scan::decode(&self.headers, &self.data, &self.index, m)?;
                Ok((m, self.pixels(&blocks)))
            })
            .collect::<Result<_, Unsupported>>()?;
        // Each band of MCU rows is filled on the pool: a canvas over a
        // 12 MP photo's grid is megabytes of fresh memory, its first touch
        // as long as the MCUs' decoding. `decoded` is in MCU order.
        let width = image.width() as usize;
        let band = 3 * width * l.mcu_h;
        let raw: &mut [u8] = &mut image;
        if band > 0 {
            raw.par_chunks_mut(band).enumerate().for_each(|(r, out)| {
                let my = my0 + r;
                let lo = decoded.partition_point(|(m, _)| m / l.across < my);
                let hi = decoded.partition_point(|(m, _)| m / l.across <= my);
                for (m, pixels) in &decoded[lo..hi] {
                    let x = (m % l.across - mx0) * l.mcu_w;
                    put_mcu(out, width, x, 0, pixels, l.mcu_w);
                }
            });
        }
        Ok(Canvas {
            origin: ((mx0 * l.mcu_w) as u32, (my0 * l.mcu_h) as u32),
            image,
        })
    }

    /// The pieces of the photo drawing on `areas` may change, as MCU
    /// rectangles `[mx0, my0, mx1, my1]` (ends exclusive): each area's
    /// MCUs, those of areas that share an MCU joined into one rectangle,
    /// so that no two pieces share an MCU.
    fn pieces(&self, areas: &[Area]) -> Vec<[usize; 4]> {
        let l = self.layout;
        let (w, h) = self.dimensions();
        let mut pieces: Vec<[usize; 4]> = Vec::new();
        for a in areas {
            let (x1, y1) = (a.x1.min(w) as usize, a.y1.min(h) as usize);
            if a.x0 as usize >= x1 || a.y0 as usize >= y1 {
                continue;
            }
            let mut piece = [
                a.x0 as usize / l.mcu_w,
                a.y0 as usize / l.mcu_h,
                x1.div_ceil(l.mcu_w),
                y1.div_ceil(l.mcu_h),
            ];
            // A piece joined with another grows, and may then meet a third:
            // joined until it meets none.
            while let Some(k) = pieces.iter().position(|p| {
                p[0] < piece[2] && piece[0] < p[2] && p[1] < piece[3] && piece[1] < p[3]
            }) {
                let p = pieces.swap_remove(k);
                piece = [
                    piece[0].min(p[0]),
                    piece[1].min(p[1]),
                    piece[2].max(p[2]),
                    piece[3].max(p[3]),
                ];
            }
            pieces.push(piece);
        }
        pieces
    }

    /// Draws on the photo's colour where `areas` say, piece by piece:
    /// `draw(image, origin)` is given the decoded colour of a piece of the
    /// photo whose top-left pixel is `origin`, to draw on as on the photo
    /// (offset by the origin), changing pixels only within `areas`. The
    /// blocks whose pixels changed are coded again from the drawn pixels,
    /// for [`Photo::answer`].
    ///
    /// Each piece (the MCUs under an area, or under areas that share an
    /// MCU) is decoded, drawn on and coded on its own, on the pool: a
    /// 12 MP answer's pieces are a few kilobytes each, where one image over
    /// all of them would be tens of megabytes to fill and read back.
    pub fn draw<F>(&self, areas: &[Area], draw: F) -> Result<Drawn, Unsupported>
    where
        F: Fn(&mut RgbImage, (u32, u32)) + Sync,
    {
        let l = self.layout;
        let per_piece: Vec<Vec<(usize, Vec<Block>)>> = self
            .pieces(areas)
            .into_par_iter()
            .map(|[mx0, my0, mx1, my1]| {
                let width = (mx1 - mx0) * l.mcu_w;
                let mut image = RgbImage::new(width as u32, ((my1 - my0) * l.mcu_h) as u32);
                let mut decoded = Vec::with_capacity((mx1 - mx0) * (my1 - my0));
                for my in my0..my1 {
                    for mx in mx0..mx1 {
                        let m = my * l.across + mx;
                        let blocks = scan::decode(&self.headers, &self.data, &self.index, m)?;
                        let (x, y) = ((mx - mx0) * l.mcu_w, (my - my0) * l.mcu_h);
                        put_mcu(&mut image, width, x, y, &self.pixels(&blocks), l.mcu_w);
                        decoded.push((m, blocks));
                    }
                }
                let before = image.clone();
                draw(&mut image, ((mx0 * l.mcu_w) as u32, (my0 * l.mcu_h) as u32));
                let mut changed = Vec::new();
                for (m, blocks) in decoded {
                    let (x, y) = (
                        (m % l.across - mx0) * l.mcu_w,
                        (m / l.across - my0) * l.mcu_h,
                    );
                    let was = mcu_pixels(&before, width, x, y, l);
                    let is = mcu_pixels(&image, width, x, y, l);
                    if let Some(blocks) = self.redrawn(&blocks, &was, &is) {
                        changed.push((m, blocks));
                    }
                }
                Ok(changed)
            })
            .collect::<Result<_, Unsupported>>()?;
        let mut changed: Vec<(usize, Vec<Block>)> = per_piece.into_iter().flatten().collect();
        changed.sort_unstable_by_key(|&(m, _)| m);
        Ok(Drawn { changed })
    }

    /// Where each component's block `b` (in the MCU's order) lies: the
    /// component, and the block's column and row among its MCU's blocks.
    fn block_places(&self) -> Vec<(usize, usize, usize)> {
        let mut places = Vec::new();
        for (c, comp) in self.headers.components.iter().enumerate() {
            for by in 0..comp.v {
                for bx in 0..comp.h {
                    places.push((c, bx, by));
                }
            }
        }
        places
    }

    /// Pixels per component sample across and down, for component `c`.
    fn scale(&self, c: usize) -> (usize, usize) {
        let comp = &self.headers.components[c];
        (
            self.layout.mcu_w / (8 * comp.h),
            self.layout.mcu_h / (8 * comp.v),
        )
    }

    /// The RGB pixels (rows of the MCU's width) of an MCU's blocks.
    fn pixels(&self, blocks: &[Block]) -> Vec<u8> {
        let l = self.layout;
        let comps = &self.headers.components;
        // Each component's samples over the MCU, rows of `8 h` (at most
        // four blocks: sampling factors are 1 or 2). On the stack: a
        // canvas decodes thousands of MCUs.
        let mut planes = [[0u8; 256]; 3];
        let mut b = 0;
        for (c, comp) in comps.iter().enumerate() {
            let stride = 8 * comp.h;
            let quant = comp.quant.map(i32::from);
            for by in 0..comp.v {
                for bx in 0..comp.h {
                    let samples = idct::samples(&blocks[b], &quant);
                    b += 1;
                    for row in 0..8 {
                        let at = (8 * by + row) * stride + 8 * bx;
                        planes[c][at..at + 8].copy_from_slice(&samples[8 * row..8 * row + 8]);
                    }
                }
            }
        }
        // Sampling factors are 1 or 2, so a component's sample of pixel
        // (x, y) is at (x >> shift_x, y >> shift_y) in its plane.
        let shifts: [(usize, usize, usize); 3] = std::array::from_fn(|c| {
            let (sx, sy) = self.scale(c);
            (
                sx.trailing_zeros() as usize,
                sy.trailing_zeros() as usize,
                8 * comps[c].h,
            )
        });
        let mut out = vec![0u8; 3 * l.mcu_w * l.mcu_h];
        for (y, line) in out.chunks_exact_mut(3 * l.mcu_w).enumerate() {
            // The row's samples of each component spread over its pixels
            // (at most 16: sampling factors are 1 or 2), then converted.
            let mut spread = [[0u8; 16]; 3];
            for (c, row) in spread.iter_mut().enumerate() {
                let (shift_x, shift_y, stride) = shifts[c];
                let plane = &planes[c][(y >> shift_y) * stride..];
                for (x, sample) in row[..l.mcu_w].iter_mut().enumerate() {
                    *sample = plane[x >> shift_x];
                }
            }
            dct::rgb_row(&spread, line);
        }
        out
    }

    /// The blocks of a decoded MCU after drawing: a block whose pixels
    /// all equal the decoded ones keeps its coefficients; any other is
    /// coded from the drawn pixels. `None` when no pixel changed.
    fn redrawn(&self, blocks: &[Block], before: &[u8], after: &[u8]) -> Option<Vec<Block>> {
        if before == after {
            return None;
        }
        let l = self.layout;
        let comps = &self.headers.components;
        // The drawn MCU in YCbCr, one plane per component, computed once.
        let n = l.mcu_w * l.mcu_h;
        let mut planes = vec![0f32; 3 * n];
        {
            let (y, rest) = planes.split_at_mut(n);
            let (cb, cr) = rest.split_at_mut(n);
            dct::ycbcr_planes(after, [y, cb, cr]);
        }
        let mut out = blocks.to_vec();
        for (b, &(c, bx, by)) in self.block_places().iter().enumerate() {
            let (sx, sy) = self.scale(c);
            let (x0, y0) = (8 * bx * sx, 8 * by * sy);
            let changed = (y0..y0 + 8 * sy).any(|y| {
                let at = 3 * (y * l.mcu_w + x0);
                before[at..at + 24 * sx] != after[at..at + 24 * sx]
            });
            if !changed {
                continue;
            }
            let plane = &planes[c * n..(c + 1) * n];
            let mut samples = [0f32; 64];
            if (sx, sy) == (1, 1) {
                // A sample per pixel: the plane's own values.
                for (v, row) in samples.chunks_exact_mut(8).enumerate() {
                    row.copy_from_slice(&plane[(y0 + v) * l.mcu_w + x0..][..8]);
                }
            } else {
                // Each sample the mean of the pixels it covers (2 or 4:
                // multiplying by the reciprocal is exact).
                let share = 1.0 / (sx * sy) as f32;
                for (v, row) in samples.chunks_exact_mut(8).enumerate() {
                    for (u, sample) in row.iter_mut().enumerate() {
                        let mut sum = 0.0;
                        for y in y0 + v * sy..y0 + (v + 1) * sy {
                            for p in &plane[y * l.mcu_w + x0 + u * sx..][..sx] {
                                sum += p;
                            }
                        }
                        *sample = sum * share;
                    }
                }
            }
            let mut coded = dct::forward(&samples, &comps[c].quant);
            for v in &mut coded[1..] {
                *v = (*v).clamp(-MAX_AC, MAX_AC);
            }
            out[b] = coded;
        }
        Some(out)
    }

    /// The answer: this photo's JPEG with the blocks [`Photo::draw`] drew on
    /// coded in place of the photo's, and its orientation tag as `orientation`
    /// says.
    pub fn answer(&self, drawn: &Drawn, orientation: Orientation) -> Result<Vec<u8>, Unsupported> {
        let changed = &drawn.changed;
        let mut tables: Vec<Table> = self
            .headers
            .tables
            .iter()
            .map(|d| d.table.clone())
            .collect();
        let mut rewritten = vec![false; tables.len()];
        // The headers go first into the buffer the scan is coded into: the
        // answer is megabytes, not to be copied once more behind them.
        let head =
            |tables: &[Table], rewritten: &[bool]| self.headers_out(tables, rewritten, orientation);
        let mut coded = self.entropy(changed, &tables, true, head(&tables, &rewritten))?;
        if coded.missing.iter().any(|m| !m.is_empty()) {
            let wider: Option<Vec<(usize, Table)>> = (coded.missing.iter().enumerate())
                .filter(|(_, m)| !m.is_empty())
                .map(|(t, m)| Some((t, tables[t].extended(m)?)))
                .collect();
            match wider {
                Some(wider) => {
                    for (t, table) in wider {
                        (tables[t], rewritten[t]) = (table, true);
                    }
                    coded = self.entropy(changed, &tables, true, head(&tables, &rewritten))?;
                }
                // No room left in a table: every table the scan uses is
                // built anew for the whole scan's symbols, and every MCU
                // coded with them (the coefficients stay the photo's).
                None => {
                    for (t, counts) in self.counts_all(changed, &tables)?.iter().enumerate() {
                        if counts.iter().any(|&c| c > 0) {
                            tables[t] = Table::optimal(counts).ok_or(Unsupported::Tables)?;
                            rewritten[t] = true;
                        }
                    }
                    coded = self.entropy(changed, &tables, false, head(&tables, &rewritten))?;
                }
            }
            if coded.missing.iter().any(|m| !m.is_empty()) {
                return Err(Unsupported::Tables);
            }
        }
        Ok(coded.bytes)
    }

    /// How often each table's symbols are coded when every MCU is.
    fn counts_all(
        &self,
        changed: &[(usize, Vec<Block>)],
        tables: &[Table],
    ) -> Result<Vec<[u32; 256]>, Unsupported> {
        Ok(self.entropy(changed, tables, false, Vec::new())?.counts)
    }

    /// `head` and after it the scan's data (up to and with EOI) with the
    /// `changed` MCUs (index and blocks, in scan order) coded with
    /// `tables`; with `copy`, MCUs coded as in the photo are copied.
    fn entropy(
        &self,
        changed: &[(usize, Vec<Block>)],
        tables: &[Table],
        copy: bool,
        mut head: Vec<u8>,
    ) -> Result<Coded, Unsupported> {
        let h = &self.headers;
        let idx = &self.index;
        let mut coder = Coder {
            tables,
            missing: vec![Vec::new(); tables.len()],
            counts: vec![[0; 256]; tables.len()],
        };
        head.reserve(self.data.bytes.len() + 1024);
        let mut w = Writer::new(head);
        let mut pred = [0i32; 3];
        // The first MCU of a run of MCUs copied as they are.
        let mut run: Option<usize> = None;
        let flush = |w: &mut Writer, run: &mut Option<usize>, end: u64| {
            if let Some(first) = run.take() {
                w.copy(&self.data, idx.start[first], end);
            }
        };
        let mut changed = changed.iter().peekable();
        for m in 0..self.layout.count() {
            let changed_m = changed.next_if(|&&(c, _)| c == m).map(|(_, b)| b);
            if h.restart > 0 && m > 0 && m % h.restart == 0 {
                flush(&mut w, &mut run, idx.end[m - 1]);
                w.marker(marker::RST0 + ((m / h.restart - 1) % 8) as u8);
                pred = [0; 3];
            }
            if copy && changed_m.is_none() && pred == idx.pred[m] {
                run.get_or_insert(m);
                if m + 1 < self.layout.count() {
                    pred = idx.pred[m + 1];
                }
                continue;
            }
            if m > 0 {
                flush(&mut w, &mut run, idx.end[m - 1]);
            }
            let decoded;
            let blocks = match changed_m {
                Some(b) => b,
                None => {
                    decoded = scan::decode(h, &self.data, idx, m)?;
                    &decoded
                }
            };
            let mut b = 0;
            for (c, comp) in h.components.iter().enumerate() {
                for _ in 0..comp.h * comp.v {
                    coder.block(&mut w, &blocks[b], pred[c], comp.dc, comp.ac);
                    pred[c] = blocks[b][0];
                    b += 1;
                }
            }
        }
        if let Some(&last) = idx.end.last() {
            flush(&mut w, &mut run, last);
        }
        w.marker(marker::EOI);
        Ok(Coded {
            bytes: w.out,
            missing: coder.missing,
            counts: coder.counts,
        })
    }

    /// SOI and every segment up to the scan's data, with the Huffman
    /// tables `rewritten` written in and the orientation tag as asked.
    fn headers_out(
        &self,
        tables: &[Table],
        rewritten: &[bool],
        orientation: Orientation,
    ) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.headers.data + 1024);
        out.extend_from_slice(&[0xFF, marker::SOI]);
        for (s, (code, range)) in self.headers.segments.iter().enumerate() {
            let defined: Vec<usize> = (0..tables.len())
                .filter(|&t| self.headers.tables[t].segment == s)
                .collect();
            if *code == marker::DHT && defined.iter().any(|&t| rewritten[t]) {
                let mut body = Vec::new();
                for t in defined {
                    let d = &self.headers.tables[t];
                    body.push((d.class << 4) | d.id);
                    body.extend_from_slice(&tables[t].definition());
                }
                out.extend_from_slice(&[0xFF, marker::DHT]);
                out.extend_from_slice(&((body.len() + 2) as u16).to_be_bytes());
                out.extend_from_slice(&body);
                continue;
            }
            let at = out.len();
            out.extend_from_slice(&self.jpeg[range.clone()]);
            if let (Orientation::AsStored, Some((tag, little))) =
                (orientation, self.headers.orientation_at)
            {
                if range.contains(&tag) {
                    let one = if little {
                        1u16.to_le_bytes()
                    } else {
                        1u16.to_be_bytes()
                    };
                    out[at + tag - range.start..at + tag - range.start + 2].copy_from_slice(&one);
                }
            }
        }
        out
    }
}
