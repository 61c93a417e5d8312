//! Finding the Sudoku grids in a photo or a page.
//!
//! One module per stage:
//!
//! 1. Search image (`threshold`): downscale (integer box filter, `geometry::downscale`)
//!    to at most [`WORK_MAX_SIDE`] pixels (a 12 MP photo is searched at
//!    ~0.5 MP), then an adaptive threshold (ink = darker than the local mean
//!    by a fraction of it, so shadows do not swallow the lines).
//! 2. Candidates (`candidates`): 8-connected components; large ones are grid
//!    candidates (a printed grid's lines are one connected blob); per
//!    candidate its convex hull and the largest inscribed quadrilateral.
//! 3. Verification (`verify`): warp the candidate's darkness to a square and check the
//!    projection profiles show the 10 evenly spaced lines of a 9x9 grid and
//!    little line-like ink elsewhere (crosswords, tables, text fail this).
//!    The largest verified candidate wins (yesterday's solution grid is a
//!    smaller 9x9 beside the puzzle).
//! 4. Refinement (`sides`, `tight`, `refine`): a grid on the image frame has
//!    its other sides moved onto the darkest line near them, and its sides
//!    on the frame placed where its lattice puts the border (whole when
//!    that is in the image or just past it, cut otherwise); then each side is
//!    refined on the full-resolution image (outer edge of the border line,
//!    robust line fit, corners at the intersections).
//!
//! 5. Lattices (`screen`): on an image no larger than a 4K video frame,
//!    upright grids are also found by their lattice of thin lines at full
//!    resolution, border drawn or not (app screens), and replace a comb
//!    found inside one.
//!
//! [`locate`] returns the one best grid of a photo. [`locate_all`] returns
//! every grid of a page: smaller candidates too, 9x9 and 16x16 combs, the
//! grids inside a larger lattice (`lattice`: a Samurai's five) and the
//! reading order of `page`.

mod candidates;
mod lattice;
mod page;
mod refine;
mod samurai;
mod screen;
mod sides;
mod threshold;
mod tight;
mod verify;

use image::imageops::FilterType;
use image::GrayImage;

use crate::geometry::{dist, downscale, Homography, Quad};
use crate::histogram::histogram;
use candidates::{
    candidate_hulls, cell_groups, max_area_quad, Candidates, HullParams, MIN_SIDE_PX,
};
use refine::{full_to_work, quad_to_full, refine};
use sides::{expand, fit_sides, frame_sides, straight_runs_quad};
use tight::{boxes_a_line_towards_frame, whole_at_frame, Placed, TIGHT_CROP_CELLS};
use verify::{could_hold_grid, verify, Measured, Spec, Verdict, SIZES};

use threshold::{adaptive_threshold, FINE_RADIUS_DIVISOR, RADIUS_DIVISOR};

/// The reading order of grids on a page, for grids found otherwise (a PDF
/// page's drawing) to be numbered as the search numbers them.
#[cfg(feature = "pdf")]
pub(crate) use page::reading_order;
pub(crate) use samurai::samurai_of_lone;

/// Longest side of the image the search runs on.
pub(crate) const WORK_MAX_SIDE: u32 = 800;

/// Minimum verification score for a candidate to count as a Sudoku.
const MIN_SCORE: f32 = 0.3;

/// Minimum score for a candidate with a side on the image frame. The grid's
/// border line there is cut off or squeezed against the frame (where the
/// adaptive threshold sees half a neighbourhood), so one of the comb's ten
/// teeth is weak and the score drops by about a tenth; demanding the full
/// score would refuse every grid photographed edge to edge.
const MIN_SCORE_AT_FRAME: f32 = 0.2;

/// A grid on the frame is taken whole only when its box lines stand out
/// this much (`Verdict::boxes`: 0.3-2 for printed puzzles, near 0 for a
/// uniform lattice), or stand out on the lattice's lines across the sides
/// on the frame (`Placed::boxes_seen`; the comb's measure, over both
/// axes, drops where the frame cuts a border of thin box lines): past the
/// frame its lattice may go on, and a window of a crossword cut by the
/// frame (-0.2 in a newspaper photo) fits a comb of nine cells as well as
/// a Sudoku does.
const MIN_BOXES_AT_FRAME: f32 = 0.2;

/// Work pixels within which a quad side counts as lying on the frame.
const FRAME_TOL: f32 = 3.0;

/// Largest image (pixels) looked at for upright lattices (see `screen`):
/// a 4K video frame. Screenshots are smaller (a 1440 x 3200 phone, a
/// 2048 x 2732 tablet); a 12 MP photo is not a screen, and scanning its
/// every pixel twice would cost a tenth of its reading.
const LATTICE_MAX_PIXELS: u64 = 3840 * 2160;

/// A grid found by the search is the lattice's own when each of its
/// corners lies within this share of a cell of the lattice's: a border's
/// width and the refinement's error, short of a comb a row off.
const LATTICE_AGREE_CELLS: f32 = 0.25;

/// A grid found this many times a lattice grid's area, in its place, holds
/// it: the lattice is a part of that grid. An app's card around a grid
/// without a border adds its margins, a fifth of the side at most.
const LATTICE_HELD_AREA: f32 = 2.0;

/// A grid found in a lattice grid's place whose cells are smaller than
/// this share of the lattice's is a grid apart, which the lattice never
/// replaces: a grid has nothing finer than its cells that a search could
/// take for a comb (a part of it found alone has its cells, its boxes
/// larger ones). Lines of text are marked along every column and row of
/// a printed page, and a lattice of cells two and a half times a puzzle's
/// was seen over the puzzle, a table and the text around them.
const LATTICE_FINER_CELLS: f32 = 0.67;

/// Images smaller than this (either side, pixels) hold no readable grid.
const MIN_IMAGE_SIDE: u32 = 32;

/// Threshold dilation radius: closing 1 px gaps, because blurred thin lines
/// break up in the threshold and a grid must be one component for its hull
/// to be the grid.
const CLOSE_RADIUS: u8 = 1;

/// A verdict at or below this holds no comb at all: re-checks around it or
/// re-fitted sides cannot turn it into a grid, so they are skipped.
const HOPELESS_SCORE: f32 = 0.1;

/// A re-check (around the found lines, or with sides re-fitted) replaces
/// the verdict unless its score is lower by more than this: the re-checked
/// quad is the better-placed one, and scores jitter by about this much.
const RECHECK_SLACK: f32 = 0.02;

/// Re-checks grow the found quad by this fraction about its centre, so the
/// border lines sit inside the checked region.
const RECHECK_GROWTH: f32 = 0.04;

/// How far (cells) a comb's corner may lie from those of the straight runs
/// of a rounded border (see [`comb_on`]): the border's half width and a
/// pixel or two of threshold, never a cell.
const ON_QUAD_CELLS: f32 = 0.25;

/// Rounds of re-checking around the found lines.
const RECHECK_ROUNDS: usize = 2;

/// A merged hull (second pass) must be filled by the grid found to this
/// fraction of its area: a merged hull that took in the page around holds
/// a chance comb somewhere inside it.
const MERGED_FILL: f32 = 0.8;

/// Components (largest bounding box first) the page search tries: eight
/// puzzles with their notes tables, a Samurai, headings and frames.
pub(crate) const PAGE_MAX_CANDIDATES: usize = 40;

/// A shape the page search passed over counts as a grid it may have missed
/// when its bounding box is at least this share of the smallest grid's
/// found: the grids of one page are printed alike (a page of puzzles and
/// their answers: a quarter of the size at least).
const UNSEARCHED_SHARE: f32 = 0.25;

/// ... and when its bounding box is no more elongated (longer side over
/// shorter) than this many times the most elongated grid's found: the
/// grids of one page are squares seen alike, while the pieces of a
/// cloth's stripes that the paper and the frame cut off are boxes two to
/// three times as tall as wide (a Samurai on stripes was told "13 more
/// shapes ... were not searched; crop it into parts").
const UNSEARCHED_ASPECT: f32 = 1.5;

/// Two grids found are the same one when their bounding boxes overlap by
/// more than this fraction of the smaller box (a Samurai's centre grid
/// shares a ninth with each corner grid, well below).
const SAME_GRID_OVERLAP: f32 = 0.5;

/// Between the 9x9 and 16x16 verdicts of one candidate, a score lower by at
/// most this still wins when its box lines are the thicker pattern.
const SIZE_TIE: f32 = 0.05;

/// Box lines standing out at least this much (`Verdict::boxes`, the ratio
/// of their widths to the other lines' minus 1) are a Sudoku's: a comb of
/// that size that passes is taken before one of another size whose box
/// lines are no thicker than its others (0 or below), whatever their
/// scores. A comb of the wrong size across a grid puts its box teeth on
/// cell lines: on a 16x16 photographed on a cloth its 9x9 comb scored
/// 0.46 with box evidence -0.14 against the 16x16's 0.41 with 3.05, and a
/// 9x9 comb across a blurred 16x16 and the paper around it 0.66 with -0.16
/// against 0.63 with 1.33. Printed puzzles measure about 0.3-2.
const BOX_PATTERN: f32 = 0.5;

/// A hull whose 16x16 comb failed with box lines standing out this much
/// (`Verdict::boxes`) is looked at again on a crop of the photo (see
/// [`closer_look`]): a blurred 16x16 downscaled for the search keeps its
/// thick box lines and loses its thin ones among its letters. Measured
/// on blurred 16x16 photos: 2.8-5.7 on the grid's own hull, under 0.7 on
/// the sheet of paper around it.
const LOST_LINES_BOXES: f32 = 2.0;

/// Pixels per cell at which a lattice is looked at again on the photo
/// when the work image lost its cell sides (see [`finer_lattice_windows`]):
/// a 1 px line stays one line a sixteenth of the cell wide or less.
const FINER_CELL_PX: f32 = 24.0;

/// Most cells a lattice looked at again on the photo may count: the
/// figures split into grids are a Samurai (21 cells) and a 16x16 whose
/// comb was missed; cloth checks and wood grain count up to the lattice's
/// limit of 40, where a look costs up to 60 ms and finds nothing.
const MAX_FINER_CELLS: usize = 24;

/// Most of a window's bounding box that another window of the finer look
/// may share: a Samurai's centre grid shares a ninth of each corner grid's
/// (more in a tilted photo's boxes); grids one cell apart share eight
/// ninths.
const FINER_MAX_SHARED: f32 = 1.0 / 3.0;

/// Longest side of the finer second search of a page (see
/// [`locate_all_early`]): a letter page at 200 dpi is searched at full
/// resolution, where 1 px lines stay whole; a 12 MP photo at a third.
pub(crate) const FINE_WORK_MAX_SIDE: u32 = 2400;

/// A grid the finer search finds must have ink darker than this fraction
/// of its paper: printed lines and digits are near black (a 1 px line at
/// full resolution keeps all of it), a faded ornamental grid printed in
/// 10-20 % grey never is.
const MAX_FAINT_INK: f32 = 0.6;

/// A grid of the finer search whose darkest pixels (see [`inked`]) are
/// this dark relative to their own paper (the full scale of the darkness
/// map: a quarter darker than the local mean) is printed in ink however
/// grey the photo: blur and dim light leave a page of answer grids at
/// 0.62-0.70 of its paper in their bounding boxes, but their lines and
/// digits are still 30-35 % darker than the paper around them. Show-through
/// from the back of the page is about 10 % darker (in a shadow too, which
/// darkens its paper alike), and a faded ornament, printed in a tint of
/// at most a third, at most 18 %.
const INK_DARKNESS: u8 = u8::MAX;

/// A candidate of the finer search that failed with at least this score
/// is looked at again at full resolution (see [`closer_look`]): its comb
/// was there, only weak. Hulls of text, pictures and parts of grids score
/// near 0 or below and cost nothing more.
const NEAR_MISS_SCORE: f32 = 0.15;

/// A 9x9 comb that fell short of a pass with at least [`NEAR_MISS_SCORE`]
/// is a grid when the page vouches for it (see [`vouched`]): its box lines
/// must stand out at least this much (see `Verdict::boxes`: about 0.3-2 for
/// a printed puzzle, near 0 for a uniform lattice such as a table's rules
/// or a crossword's), so that what the page's grids vouch for has the
/// pattern of a Sudoku of its own.
const VOUCH_MIN_BOXES: f32 = 0.5;

/// A near miss is vouched for by a grid found on the page whose width and
/// height it has, seen through that grid's perspective (see
/// [`same_size`]), within this fraction of a cell: a comb a line short or
/// long is a whole cell off, while the same lines found twice differ by a
/// few pixels.
const VOUCH_SIZE_CELLS: f32 = 0.5;

/// A grid vouches for its neighbours only: their centres at most this
/// many of its sides apart (the next grid in a row or column, with the
/// gap between them), so that its perspective holds where it is compared.
const VOUCH_REACH: f32 = 1.75;

/// Near misses vouch for each other without a grid found when each has
/// at least this many others of its size beside it (see [`same_size`]): a
/// page of grids in rows and columns, all blurred past passing.
const VOUCH_PEERS: usize = 2;

/// A near miss vouched for lies clear of every grid found: their bounding
/// boxes overlap by at most this fraction of the smaller (neighbouring
/// grids of a tilted page by their tilt only; a comb across two grids by
/// far more).
const VOUCH_MAX_OVERLAP: f32 = 0.1;

/// ... and which it lines up with, side by side or one above the other:
/// their extents across the row (or the column) overlap by at least this
/// fraction of the smaller.
const VOUCH_ALIGNED: f32 = 0.5;

/// The closer look cuts the candidate's bounding box with this fraction of
/// its side added each way: the hull's quad can be off by a cell or so
/// where it took in a label, and the comb search needs the lines inside.
const CLOSER_MARGIN: f32 = 0.15;

/// The closer look's crop is downscaled to at most this side: a grid of
/// over 1,000 px has cells of 110 px and more, whose 1 px lines the finer
/// search saw already, and the threshold of a larger crop would cost as
/// much as that whole search.
const CLOSER_MAX_SIDE: u32 = 1400;

/// The closer look at a 16x16 whose thin lines were lost (see
/// [`LOST_LINES_BOXES`]) is made again on its crop sharpened when it
/// failed: an unsharp mask, the crop plus [`SHARPEN_AMOUNT`] times what
/// it differs from itself blurred by this share of a cell. A photo out of
/// focus spreads a 1 px cell line over a few pixels at a fraction of its
/// contrast, under the threshold among the letters. The blurred 16x16
/// photos measured are blurred by 4-14 % of a cell; a mask of 5 % or
/// 12 % found the same grids on the tuning photos (busy seeds 0-11) as
/// this one.
const SHARPEN_CELLS: f32 = 0.08;

/// See [`SHARPEN_CELLS`]: a thin line blurred by about the mask's sigma
/// differs from its own blur by 1 - 1/sqrt(2) of its peak, so that the
/// difference added twice raises the peak by about 1.6; flat paper, and
/// ink wider than the mask (box lines, letters' insides), keep their
/// levels.
const SHARPEN_AMOUNT: f32 = 2.0;

/// The sides of the comb looked at again (refused, or passed short of its
/// hull) may lie this fraction of a cell outside the grid the closer look
/// finds (see [`closer_look`]): the same lines found
/// twice differ by a few pixels, a comb a row short lies inside.
const MAX_CLOSER_SPILL: f32 = 0.25;

/// A grid of the finer search lies inside a grid the first search found
/// (see [`inside`]) when its centre is in that grid and its side is at
/// most this fraction of that grid's: a Sudoku's box is a third of it, and
/// a grid half the size of another cannot be one of its parts.
const MAX_INNER_SHARE: f32 = 0.5;

/// ... and at least this fraction: a digit or a single cell (a ninth of
/// the grid) is no grid of its own, and the smallest of twelve grids on a
/// page is about a fifth of the page.
const MIN_INNER_SHARE: f32 = 0.15;

/// The last look at a page ([`without_faint_ink`]) keeps as ink only what
/// is this much darker than its surroundings (the darkness image's scale,
/// where 1020 is the local mean itself: 102 is 10 % darker; the
/// threshold's own margin is 7 %). Faint marks, the lines of the next
/// page's grids showing through or the edge of a soft shadow, can join a
/// page's grids into one blob that no comb fits; printed lines are far
/// darker, and a blob that breaks apart at this bar shows its grids. A
/// look of its own, not the threshold: as the threshold (7 % -> 10 %) it
/// found grids on pages with show-through but lost others on blurred
/// pages and read four false digits on the held-out photos.
const STRICT_DARKNESS: u8 = 102;

/// A hull of the last look that covers the same box as one the first
/// looks examined (intersection over union) is that hull again: the faint
/// ink changed nothing there, and its verdict would be the same.
const SAME_HULL_IOU: f32 = 0.9;

/// Percentile of a grid's pixels taken as its ink: a 9x9 grid's lines
/// alone cover more than 1 % of its box.
const INK_PERCENTILE: usize = 1;

/// A candidate inside a comb counts as a grid of its own (see
/// [`encloses_grids`]) from this fraction of the comb's side: a digit is at
/// most a ninth of its grid, a box a third but joined to the grid's lines;
/// the smallest of six or eight grids on a page is over a third of a comb
/// spanning two of them.
const MIN_ENCLOSED_SIDE: f32 = 0.25;

/// A candidate outlines a lattice's window when its side is at least this
/// share of the window's: a grid found a pixel or two short still does,
/// a digit's or a box's outline does not.
const OUTLINE_SHARE: f32 = 0.9;

/// Standard 9x9 spec (a lone grid: lines outside count against it).
const CLASSIC: Spec = Spec { n: 9, lone: true };

/// A located grid.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Located {
    /// Outer corners, refined, in full-resolution photo pixels.
    pub quad: Quad,
    /// Verification score (line evidence minus off-line clutter), at least
    /// 0.2 (0.3 away from the frame).
    pub score: f32,
    /// Cells per side: 9, or 16 for a 16x16 grid.
    pub n: usize,
    /// Cells of the grid are missing from the image (a side on the frame
    /// whose border the lattice places well past it, see `tight`, or a
    /// corner outside the image): it is reported, never solved. A grid
    /// cropped at or just inside its border is whole.
    pub cut: bool,
    /// The grid, or the hull it was found in, touches the frame (see
    /// [`Found::at_frame`](crate::data::Found::at_frame)).
    pub at_frame: bool,
    /// Where an upright lattice too faint to be sure places the grid
    /// otherwise (see [`Found::alternative`](crate::data::Found::alternative)).
    pub alternative: Option<Quad>,
}

/// A candidate quad the search verified, for the debug image.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Candidate {
    /// The grid lines found, work pixels.
    pub quad: Quad,
    /// Its verification score.
    pub score: f32,
    /// Whether it passed its threshold (lower at the frame).
    pub passed: bool,
}

/// Intermediate images and candidates of a search, for `--debug-dir`.
#[derive(Debug, Clone)]
pub(crate) struct LocateDebug {
    /// The downscaled search image.
    pub work: GrayImage,
    /// Its adaptive threshold, ink = 255.
    pub binary: GrayImage,
    /// Relative darkness (see [`adaptive_threshold`]).
    pub dark: GrayImage,
    /// Full-resolution pixels per work pixel.
    pub scale: f32,
    /// Every candidate verified.
    pub candidates: Vec<Candidate>,
    /// The hull quads the candidates came from (work pixels).
    pub hulls: Vec<Quad>,
    /// Shapes the size of the grids found that the page search did not
    /// look at (see [`unsearched`]).
    pub unsearched: usize,
}

/// A verified candidate with what the refinement needs.
#[derive(Debug, Clone, Copy)]
struct Examined {
    verdict: Verdict,
    frame: [bool; 4],
    /// Every cell is in the image: no side on the frame, or those on it
    /// placed where the lattice puts them (see [`whole_at_frame`]).
    whole: bool,
    /// The grid or its hull touches the frame.
    at_frame: bool,
    passed: bool,
}

/// Farthest a grid's outline may lie from the frame, in cells, for its
/// border to be on the frame ([`border_on_frame`]): a border cut by a
/// crop lies at it, within its own width (a twentieth of a cell). Combs
/// that run from a cut puzzle's cells into the print beside them end
/// 0.15-0.2 cells inside (crops of crowded pages), and a whole grid
/// photographed close to the edge lies farther (fixtures/image18.jpg:
/// 0.12 of a cell).
const BORDER_AT_FRAME_CELLS: f32 = 0.08;

/// Whether the outline `quad` of a grid of `n` cells a side has a side on
/// the frame of an image of `size` (see [`BORDER_AT_FRAME_CELLS`]).
pub(crate) fn border_on_frame(quad: &Quad, n: usize, (w, h): (u32, u32)) -> bool {
    let margin = BORDER_AT_FRAME_CELLS * quad.max_side() / n as f32;
    let (w, h) = (w as f32, h as f32);
    quad.corners
        .iter()
        .any(|&(x, y)| x <= margin || y <= margin || x >= w - margin || y >= h - margin)
}

/// The grid of `gray` cropped at or just inside its border, whole: a
/// photo cropped to its grid, whose border, cut at the frame, joins no
/// hull that outlines the grid. The frame itself is examined as the
/// grid's hull, the comb placing the lattice inside it and its border
/// where the lattice puts it on each side the frame cut (see
/// [`whole_at_frame`]); nothing when no comb passes there or the grid it
/// finds is not whole on the frame.
pub(crate) fn frame_grid(gray: &GrayImage) -> Vec<Located> {
    let (w, h) = gray.dimensions();
    if w < MIN_IMAGE_SIDE || h < MIN_IMAGE_SIDE {
        return Vec::new();
    }
    let mut dbg = prepare_at(gray, work_factor(w, h, WORK_MAX_SIDE), RADIUS_DIVISOR);
    let (ww, wh) = (
        dbg.dark.width() as f32 - 1.0,
        dbg.dark.height() as f32 - 1.0,
    );
    let frame = Quad::new([(0.0, 0.0), (ww, 0.0), (ww, wh), (0.0, wh)]);
    let ex = examine_sizes(&mut dbg, &frame, false, true);
    if !ex.passed {
        return Vec::new();
    }
    let grid = finish(gray, &ex, dbg.scale);
    // Only a whole grid with its border on the frame: the frame holds all
    // of the image's print, and a comb away from it may run from a grid's
    // cells into the print beside them, where no hull joins them (a crop
    // through a puzzle and the crossword below it); a cut grid has nothing
    // to read.
    if grid.cut || !border_on_frame(&grid.quad, grid.n, (w, h)) {
        return Vec::new();
    }
    vec![grid]
}

/// Every grid on a page, in reading order, as the pipeline finds them
/// ([`locate_all_early`] with nothing read early).
#[cfg(test)]
pub(crate) fn locate_all(gray: &GrayImage) -> Vec<Located> {
    locate_all_early(gray, |_| ()).0
}

/// Longest side of an image searched again at twice its size when it
/// gives no puzzle ([`locate_twice_size`]): the finer search then still
/// runs on every pixel of the larger image ([`FINE_WORK_MAX_SIDE`]).
pub(crate) const TWICE_MAX_SIDE: u32 = FINE_WORK_MAX_SIDE / 2;

/// The grids of `gray` (at most [`TWICE_MAX_SIDE`] a side) found on it
/// enlarged to twice its size, placed back on `gray`: a grid under about
/// 150 px (a video frame, a thumbnail) has its thin lines and its digits
/// a pixel or two apart, and the search's threshold and dilation run them
/// together at its own size. Searched in its `negative` when asked; its
/// faint lattices looked for too when `faint` (they are found on changes
/// of either sign, the same in the image and its negative, so once is
/// enough).
pub(crate) fn locate_twice_size(gray: &GrayImage, negative: bool, faint: bool) -> Vec<Located> {
    let (w, h) = gray.dimensions();
    if w.max(h) > TWICE_MAX_SIDE {
        return Vec::new();
    }
    let mut larger = image::imageops::resize(gray, 2 * w, 2 * h, FilterType::CatmullRom);
    if negative {
        image::imageops::invert(&mut larger);
    }
    // A pixel's centre at `x` of the larger image lies at `(x + 0.5) / 2 -
    // 0.5` of `gray`.
    let back = |q: Quad| q.scaled(0.5).translated((-0.25, -0.25));
    let mut found = locate_all_early(&larger, |_| ()).0;
    if found.is_empty() && faint {
        // As at the image's own size: a grid shown by faint lines or
        // shading alone (see [`faint_lattice_grids`]).
        found = faint_lattice_grids(&larger);
    }
    found
        .into_iter()
        .map(|l| Located {
            quad: back(l.quad),
            alternative: l.alternative.map(back),
            ..l
        })
        .collect()
}

/// Every grid on a page, in reading order (see `page`'s docs: rows of
/// grids by vertical overlap, top to bottom, each left to right; a page of
/// staggered columns column by column), with the debug images. Notes
/// tables (empty 9x9 grids) are returned too; crosswords and tables fail
/// the comb check. The first search's grids (in reading order) are handed
/// to `early` as soon as they are known, and what it gives is returned
/// beside them.
///
/// The page is searched twice: at the usual work resolution (at most
/// [`WORK_MAX_SIDE`]), then, when that downscaled the image, again at a
/// finer one (at most [`FINE_WORK_MAX_SIDE`]) for the grids the first
/// search could not see: a 1 px cell line downscaled 3:1 keeps a third of
/// its darkness and vanishes beside large digits, and a grid 100 px wide
/// on a newspaper page is 33 work pixels, under `MIN_SIDE_PX`. The
/// grids of the first search stand; the finer one only adds grids
/// elsewhere, so a photo the first search reads is read as before.
///
/// `early` runs while the finer search is made on the pool: a caller that
/// reads the grids there (the pipeline) reads a photo's grid in the time
/// the finer search of a 12 MP photo takes anyway. Not called when the
/// image is too small to search.
pub(crate) fn locate_all_early<T: Send>(
    gray: &GrayImage,
    early: impl FnOnce(&[Located]) -> T + Send,
) -> (Vec<Located>, LocateDebug, Option<T>) {
    let (w, h) = gray.dimensions();
    let coarse_factor = work_factor(w, h, WORK_MAX_SIDE);
    let fine_factor = work_factor(w, h, FINE_WORK_MAX_SIDE);
    if w < MIN_IMAGE_SIDE || h < MIN_IMAGE_SIDE {
        return (
            Vec::new(),
            prepare_at(gray, coarse_factor, RADIUS_DIVISOR),
            None,
        );
    }
    // The finer search's image, threshold and components do not depend on
    // what the first search finds, and they are most of its cost (a 12 MP
    // photo is thresholded at 3 MP): they are made beside the first search,
    // on a second core when the pool has one free. Its examination skips
    // the grids the first search found, and runs beside `early`: on the
    // finer search's side when the first search has handed its grids over
    // by then, else on the first search's side when the finer search has
    // handed itself over, else (the hand-overs crossed) after both. Neither
    // side waits for the other.
    let (known_sent, known_there) = std::sync::mpsc::channel::<Vec<Quad>>();
    let (fine_sent, fine_there) = std::sync::mpsc::channel::<PageSearch>();
    let (coarse, fine) = rayon::join(
        move || {
            let mut search = PageSearch::new(gray, coarse_factor, RADIUS_DIVISOR);
            let found = search.pass(&[], true);
            let located: Vec<Located> = distinct(found)
                .iter()
                .map(|ex| finish(gray, ex, search.dbg.scale))
                .collect();
            let quads: Vec<Quad> = located.iter().map(|l| l.quad).collect();
            let located: Vec<Located> = page::reading_order(&quads)
                .iter()
                .map(|&i| located[i])
                .collect();
            let known = finer_known(&located);
            // Nobody listens when there is no finer search.
            let _ = known_sent.send(known.clone());
            let (early, fine) = match fine_there.try_recv() {
                Ok(mut fine) => {
                    let (early, added) =
                        rayon::join(|| early(&located), || fine.pass(&known, false));
                    (early, Some((fine, added)))
                }
                Err(_) => (early(&located), None),
            };
            (search, located, early, fine, fine_there)
        },
        move || {
            if fine_factor >= coarse_factor {
                return None;
            }
            let mut fine = PageSearch::new(gray, fine_factor, FINE_RADIUS_DIVISOR);
            match known_there.try_recv() {
                Ok(known) => {
                    let added = fine.pass(&known, false);
                    Some((fine, added))
                }
                Err(_) => {
                    let _ = fine_sent.send(fine);
                    None
                }
            }
        },
    );
    let (
        PageSearch {
            mut dbg,
            mut near,
            mut refused,
            beyond,
            ..
        },
        mut located,
        early,
        examined_there,
        fine_there,
    ) = coarse;
    let fine = fine.or(examined_there).or_else(|| {
        let mut fine = fine_there.try_recv().ok()?;
        let added = fine.pass(&finer_known(&located), false);
        Some((fine, added))
    });
    let mut passed_over = shapes(&beyond, &dbg);
    let mut fine_search = None;
    if let Some((mut fine, added)) = fine {
        passed_over.extend(shapes(&fine.beyond, &fine.dbg));
        near.append(&mut fine.near);
        refused.append(&mut fine.refused);
        let fine = fine.dbg;
        let added: Vec<Located> = distinct(added)
            .iter()
            .map(|ex| finish(gray, ex, fine.scale))
            .collect();
        located = grids_of_grids_replaced(located, added);
        // The debug images are drawn on the coarse work image.
        let k = fine.scale / dbg.scale;
        dbg.hulls.extend(fine.hulls.iter().map(|q| q.scaled(k)));
        dbg.candidates
            .extend(fine.candidates.iter().map(|c| Candidate {
                quad: c.quad.scaled(k),
                ..*c
            }));
        fine_search = Some(fine);
    }
    let vouched = vouched(gray, &located, near);
    located.extend(vouched);
    // After vouching, so that the grids it finds keep away from every grid
    // the page has already shown, vouched ones too: where all of a page's
    // grids stand by vouching, a comb across the whole page can pass once
    // faint ink is left out.
    // The first search's images are returned for `--debug-dir`: the look
    // takes a copy (at most 800 px a side); the finer search's are its own.
    located.extend(without_faint_ink(gray, dbg.clone(), &located, true));
    // At the finer search's resolution too, on a page of grids (two found
    // or more) or where none was found; a photo of one puzzle is not
    // looked at again (see `without_faint_ink` for the cost).
    if let Some(fine) = fine_search.filter(|_| located.len() != 1) {
        located.extend(without_faint_ink(gray, fine, &located, false));
    }
    // After every look at the whole page: a refused hull looked at closer
    // is placed by its crop alone, and where a look at the page finds the
    // same grid (a refused hull of show-through and grid, say), its
    // corners are the better ones.
    let pointed_at = pointed_at(gray, &located, refused);
    located.extend(pointed_at);
    let located = with_lattice_grids(gray, cut_combs_dropped(located));
    // Last: a Samurai's grids are placed by the grids of it found by any
    // of the looks above.
    let located = samurai::completed(gray, located);
    let quads: Vec<Quad> = located.iter().map(|l| l.quad).collect();
    dbg.unsearched = unsearched(&quads, &passed_over);
    let order = page::reading_order(&quads);
    (
        order.iter().map(|&i| located[i]).collect(),
        dbg,
        Some(early),
    )
}

/// `located` with the upright grids their lattices show
/// ([`screen::lattice_grids`]) on an image of at most
/// [`LATTICE_MAX_PIXELS`]: a lattice grid stands beside the grids found
/// away from it, and replaces those found in its place unless one agrees
/// with it ([`LATTICE_AGREE_CELLS`]) or holds it ([`LATTICE_HELD_AREA`]):
/// there the search found a comb inside it, or the box around a grid
/// without a border. A lattice not sure enough to replace a grid that
/// it places otherwise is kept as that grid's `alternative`; one over a
/// grid of finer cells ([`LATTICE_FINER_CELLS`]) is dropped.
fn with_lattice_grids(gray: &GrayImage, mut located: Vec<Located>) -> Vec<Located> {
    let (w, h) = gray.dimensions();
    if u64::from(w) * u64::from(h) > LATTICE_MAX_PIXELS {
        return located;
    }
    for g in screen::lattice_grids(gray) {
        let same = |l: &Located| bbox_overlap(&l.quad, &g.quad) > SAME_GRID_OVERLAP;
        let cell = g.quad.max_side() / g.n as f32;
        let agrees = |l: &Located| {
            l.n == g.n
                && l.quad
                    .corners
                    .iter()
                    .zip(g.quad.corners)
                    .all(|(&a, b)| dist(a, b) <= LATTICE_AGREE_CELLS * cell)
        };
        // A grid found around it and much larger holds it: the lattice is
        // a part of that grid (a shaded box, marked like a lattice).
        let holds = |l: &Located| l.quad.area().abs() > LATTICE_HELD_AREA * g.quad.area().abs();
        let finer = |l: &Located| l.quad.max_side() / (l.n as f32) < LATTICE_FINER_CELLS * cell;
        if located.iter().any(|l| same(l) && finer(l)) {
            continue;
        }
        if located
            .iter()
            .any(|l| same(l) && (agrees(l) || holds(l) || !g.sure))
        {
            // A grid found on the frame and taken for cut, which a sure
            // lattice agrees with, is whole: that lattice's lines were
            // all seen in the image, evenly spaced over a square, which a
            // grid with cells cut off is not (a screen cropped at its
            // grid's border on every side).
            for l in located.iter_mut().filter(|l| g.sure && l.cut) {
                if same(l) && agrees(l) {
                    l.cut = false;
                }
            }
            // A lattice too faint to be sure that places a grid found
            // here otherwise is where that grid is read again if it is
            // read in doubt; not at the frame, where a grid read in doubt
            // may be cut (see `Found::at_frame`) and a lattice placed on
            // the lines left in the image is squeezed.
            let inside = |l: &Located| !l.cut && !l.at_frame;
            let lattice_inside = !lattice_located(&g, (w, h)).at_frame;
            for l in located
                .iter_mut()
                .filter(|l| !g.sure && lattice_inside && inside(l) && l.n == g.n)
            {
                if same(l) && !agrees(l) && !holds(l) && l.alternative.is_none() {
                    l.alternative = Some(g.quad);
                }
            }
            continue;
        }
        located.retain(|l| !same(l));
        located.push(lattice_located(&g, (w, h)));
    }
    located
}

/// The upright grids whose lattices show only at a cell line's contrast
/// ([`screen::faint_lattice_grids`]), on an image of at most
/// [`LATTICE_MAX_PIXELS`]: a dark Material theme's grid, its lines 6-8
/// gray levels from their ground and its boxes told apart by shading.
/// Looked for by the pipeline only on an image where no grid is read: the
/// marks at that contrast cost a newspaper photo a fifth more time, and on
/// one the search reads, they find nothing it has not found.
pub(crate) fn faint_lattice_grids(gray: &GrayImage) -> Vec<Located> {
    let (w, h) = gray.dimensions();
    if u64::from(w) * u64::from(h) > LATTICE_MAX_PIXELS {
        return Vec::new();
    }
    screen::faint_lattice_grids(gray)
        .iter()
        .map(|g| lattice_located(g, (w, h)))
        .collect()
}

/// A grid found by its lattice on an image `w` x `h`, as located: on the
/// frame within [`FRAME_TOL`] pixels of the full-resolution image, where
/// the lattice was measured.
fn lattice_located(g: &screen::LatticeGrid, (w, h): (u32, u32)) -> Located {
    let (x0, y0, x1, y1) = g.quad.bounds();
    Located {
        quad: g.quad,
        score: g.score,
        n: g.n,
        cut: false,
        at_frame: x0 <= FRAME_TOL
            || y0 <= FRAME_TOL
            || x1 >= w as f32 - FRAME_TOL
            || y1 >= h as f32 - FRAME_TOL,
        alternative: None,
    }
}

/// The bounding boxes `boxes` of a search's work image (`dbg`) that lie
/// away from its frame (by more than [`FRAME_TOL`]), as full-resolution
/// quads: the shapes a page search passed over that may be grids it could
/// read (see [`unsearched`]). A shape on the frame is at best a grid cut by
/// the edge, which no crop of the page reads; on a photographed puzzle
/// they are the pieces of a cloth's pattern the paper and the frame cut
/// off.
fn shapes(boxes: &[(f32, f32, f32, f32)], dbg: &LocateDebug) -> Vec<Quad> {
    let (w, h) = (dbg.work.width() as f32, dbg.work.height() as f32);
    // The box's last pixels (its ends are exclusive) against the frame.
    let on_frame = |&&(x0, y0, x1, y1): &&(f32, f32, f32, f32)| {
        let pixels = Quad::new([
            (x0, y0),
            (x1 - 1.0, y0),
            (x1 - 1.0, y1 - 1.0),
            (x0, y1 - 1.0),
        ]);
        frame_sides(&pixels, w, h, FRAME_TOL).iter().any(|&f| f)
    };
    boxes
        .iter()
        .filter(|b| !on_frame(b))
        .map(|&(x0, y0, x1, y1)| {
            Quad {
                corners: [(x0, y0), (x1, y0), (x1, y1), (x0, y1)],
            }
            .scaled(dbg.scale)
        })
        .collect()
}

/// How many of the shapes the page searches passed over for their cap
/// ([`PAGE_MAX_CANDIDATES`]; `passed_over`, full-resolution pixels, from
/// either search) are the size of the grids found (`grids`) and no grid
/// found, each counted once: a page of more grids than the search looks at
/// (a mosaic of a hundred puzzles) says so instead of passing over the
/// rest in silence. Smaller shapes (a newspaper page's text blocks) are no
/// grid of this page's, nor are much more elongated ones
/// ([`UNSEARCHED_ASPECT`]). Nor is a grid found at less than
/// [`UNSEARCHED_SHARE`] of the largest one's size a size of the page's
/// grids: an app's square icon found beside its puzzle would make every
/// other icon a grid passed over.
fn unsearched(grids: &[Quad], passed_over: &[Quad]) -> usize {
    let sides = |q: &Quad| {
        let b = q.bounds();
        (b.2 - b.0, b.3 - b.1)
    };
    let area = |q: &Quad| sides(q).0 * sides(q).1;
    let largest = grids.iter().map(area).fold(0.0, f32::max);
    let Some(smallest) = grids
        .iter()
        .map(area)
        .filter(|&a| a >= largest * UNSEARCHED_SHARE)
        .min_by(|a, b| a.total_cmp(b))
    else {
        return 0;
    };
    let aspect = |q: &Quad| {
        let (w, h) = sides(q);
        w.max(h) / w.min(h).max(1.0)
    };
    let most_elongated = grids.iter().map(aspect).fold(1.0, f32::max);
    let grid_like = |q: &Quad| {
        area(q) >= smallest * UNSEARCHED_SHARE && aspect(q) <= UNSEARCHED_ASPECT * most_elongated
    };
    let mut counted: Vec<&Quad> = Vec::new();
    for shape in passed_over {
        let new = grid_like(shape)
            && grids
                .iter()
                .chain(counted.iter().copied())
                .all(|g| bbox_overlap(g, shape) <= SAME_GRID_OVERLAP);
        if new {
            counted.push(shape);
        }
    }
    counted.len()
}

/// The last look at a page (see [`STRICT_DARKNESS`]): a search's images (`look`, work
/// image and threshold) with its faint ink left out of the threshold, its hulls that are
/// new (not those the first looks examined, [`SAME_HULL_IOU`]) verified
/// as that search does (`coarse`: the first search, else the finer one),
/// and the grids found away from those already `located` returned,
/// refined.
///
/// At the finer search's resolution (up to 2400 px a side) the look costs
/// about 30 ms of a 12 MP photo (its threshold's components and the hulls
/// they break into), so it is made there only on pages of grids; at both
/// resolutions on every page it finds more than at the first alone (on a
/// set of held-out page captures 452 grids against 448, on every set of
/// composed pages one or two more).
fn without_faint_ink(
    gray: &GrayImage,
    mut look: LocateDebug,
    located: &[Located],
    coarse: bool,
) -> Vec<Located> {
    for (b, d) in look.binary.iter_mut().zip(look.dark.iter()) {
        if *d < STRICT_DARKNESS {
            *b = 0;
        }
    }
    let examined = std::mem::take(&mut look.hulls);
    look.candidates.clear();
    let mut search = PageSearch::of(gray, look);
    search.hulls.retain(|hull| {
        max_area_quad(hull).is_none_or(|q| !examined.iter().any(|h| iou(h, &q) >= SAME_HULL_IOU))
    });
    let known: Vec<Quad> = located.iter().map(|l| l.quad).collect();
    let hulls = std::mem::take(&mut search.hulls);
    let found = search.examine_hulls(&hulls, &known, coarse, false);
    distinct(found)
        .iter()
        .map(|ex| finish(gray, ex, search.dbg.scale))
        .collect()
}

/// The bounding box of a hull, whole work pixels (`x0, y0, x1, y1`, the
/// far ends exclusive).
fn quad_bounds(hull: &[(f32, f32)]) -> (u32, u32, u32, u32) {
    let fold = |f: fn(f32, f32) -> f32, init: f32, pick: fn(&(f32, f32)) -> f32| {
        hull.iter().map(pick).fold(init, f)
    };
    let x0 = fold(f32::min, f32::MAX, |p| p.0).max(0.0);
    let y0 = fold(f32::min, f32::MAX, |p| p.1).max(0.0);
    let x1 = fold(f32::max, 0.0, |p| p.0).max(0.0);
    let y1 = fold(f32::max, 0.0, |p| p.1).max(0.0);
    (x0 as u32, y0 as u32, x1 as u32 + 1, y1 as u32 + 1)
}

/// Intersection over union of two quads' bounding boxes.
fn iou(a: &Quad, b: &Quad) -> f32 {
    let (inter, area_a, area_b) = bbox_areas(a, b);
    let union = area_a + area_b - inter;
    if union <= 0.0 {
        0.0
    } else {
        inter / union
    }
}

/// One search of a page at one work resolution: the search image, its
/// gap-closed threshold and the candidate hulls of its components.
struct PageSearch<'a> {
    /// The full-resolution page, for the closer look (see [`closer_look`]).
    gray: &'a GrayImage,
    dbg: LocateDebug,
    /// The threshold with its 1 px gaps closed (see [`CLOSE_RADIUS`]).
    closed: GrayImage,
    /// The hulls of the components that may be grids, unmerged.
    hulls: Vec<Vec<(f32, f32)>>,
    /// The bounding boxes of the components past those (work pixels).
    beyond: Vec<(f32, f32, f32, f32)>,
    /// The 9x9 combs that nearly passed, each with the scale of its
    /// search, for the page to vouch for (see [`vouched`]).
    near: Vec<(Examined, f32)>,
    /// The hulls whose 9x9 combs were refused (a closer look of their own
    /// failing too), with the combs and the scale of their search, for the
    /// grids found to point at (see [`pointed_at`]).
    refused: Vec<(Quad, Examined, f32)>,
}

impl<'a> PageSearch<'a> {
    /// Everything of a search at `factor` (its threshold's window set by
    /// `radius_divisor`) that does not depend on the grids already known.
    fn new(gray: &'a GrayImage, factor: u32, radius_divisor: usize) -> PageSearch<'a> {
        PageSearch::of(gray, prepare_at(gray, factor, radius_divisor))
    }

    /// The search of a thresholded work image.
    fn of(gray: &'a GrayImage, dbg: LocateDebug) -> PageSearch<'a> {
        let closed = threshold::dilate(&dbg.binary, usize::from(CLOSE_RADIUS));
        let Candidates { hulls, beyond } =
            candidate_hulls(&closed, &dbg.binary, page_hull_params(false));
        PageSearch {
            gray,
            dbg,
            closed,
            hulls,
            beyond,
            near: Vec::new(),
            refused: Vec::new(),
        }
    }

    /// Every candidate verified (9x9 and 16x16, lattices split), the ones
    /// that pass returned. Candidates overlapping a grid of `known`
    /// (full-resolution quads, found by an earlier search) are skipped.
    /// The merged hulls are tried only when nothing at all was found.
    ///
    /// The finer search (`first` false) splits no lattices: at full
    /// resolution a crossword's lines and black squares make 9x9 windows
    /// whose every cell side looks printed, while a Samurai big enough to
    /// read is found by the first search. And it keeps only grids printed
    /// in ink (see [`MAX_FAINT_INK`]): a page's faded ornamental grid is as
    /// regular as a puzzle.
    fn pass(&mut self, known: &[Quad], first: bool) -> Vec<Examined> {
        let hulls = std::mem::take(&mut self.hulls);
        let found = self.examine_hulls(&hulls, known, first, false);
        if !(found.is_empty() && known.is_empty()) {
            return found;
        }
        let merged = candidate_hulls(&self.closed, &self.dbg.binary, page_hull_params(true)).hulls;
        self.examine_hulls(&merged, known, first, true)
    }

    /// [`PageSearch::pass`] over one set of hulls.
    fn examine_hulls(
        &mut self,
        hulls: &[Vec<(f32, f32)>],
        known: &[Quad],
        first: bool,
        merge: bool,
    ) -> Vec<Examined> {
        let gray = self.gray;
        let (dbg, near, refused) = (&mut self.dbg, &mut self.near, &mut self.refused);
        let mut found = Vec::new();
        for (i, hull) in hulls.iter().enumerate() {
            let Some(mut quad) = max_area_quad(hull) else {
                continue;
            };
            let full = quad_to_full(&quad, dbg.scale);
            // A grid already found is not searched again, except for
            // grids inside it: then it was a comb across several grids.
            if known
                .iter()
                .any(|k| bbox_overlap(k, &full) > SAME_GRID_OVERLAP && !could_be_inside(&full, k))
            {
                continue;
            }
            let (mut ex, lost_lines) = judge_sizes(dbg, &quad, merge, !first);
            // A grid drawn with rounded corners: its largest quad cuts them
            // and the comb fails; the quad on the border's straight runs
            // has the grid's corners (see [`straight_runs_quad`]). So does
            // a grid cropped at its border whose border's end the
            // threshold lost at a corner: the largest quad cuts that
            // corner by a cell, and its comb, passing, reads the grid
            // skewed across the frame. There the runs' quad is looked at
            // when it places a corner elsewhere, and kept when it passes
            // at least as well.
            let runs = straight_runs_quad(hull, &quad).filter(|r| !ex.passed || !comb_on(r, &quad));
            if let Some(runs) = runs {
                let again = examine_sizes(dbg, &runs, merge, !first);
                let better = !ex.passed || again.verdict.score >= ex.verdict.score;
                if again.passed && better && comb_on(&again.verdict.quad, &runs) {
                    (quad, ex) = (runs, again);
                }
            }
            // A 16x16 whose thin lines the work image lost (a blurred photo
            // downscaled) but whose box lines stand out as a 16x16's is
            // looked at again on the photo, where they may show.
            // Sharpened when the plain look fails (see [`SHARPEN_CELLS`]).
            if !(ex.passed && ex.verdict.n == 16) {
                if let Some(closer) = lost_lines.and_then(|lost| {
                    closer_look(self.gray, &quad, &lost, dbg.scale, Look::Alone).or_else(|| {
                        closer_look(self.gray, &quad, &lost, dbg.scale, Look::Sharpened)
                    })
                }) {
                    dbg.candidates.push(Candidate {
                        quad: closer.verdict.quad,
                        score: closer.verdict.score,
                        passed: closer.passed,
                    });
                    ex = closer;
                }
            }
            // A comb that nearly passed in the finer search gets a closer
            // look (see [`closer_look`]): on a large photo that search runs
            // downscaled, where a grid's 1 px lines are half gone. At full
            // resolution too: the closer look's threshold window is the
            // grid's (a fiftieth of the crop), the search's the page's (a
            // hundredth of it), and on a photographed page of twelve
            // answer grids (cells of 34 px, a window of 23 px) three grids
            // refused at 0.25-0.26 passed at 0.53 in the closer look.
            let nearly_passed = !first && !ex.passed && ex.verdict.score >= NEAR_MISS_SCORE;
            // So does, in either search, a comb that passed but leaves a
            // band of its hull empty: it may be a row or two short (on a
            // curled page the largest quad inside the grid's bowed outline
            // skews the comb's pitch). Not a comb spanning other candidates
            // (see [`encloses_grids`]): that is chance (text lines, grids
            // side by side), and a look at its hull finds more chance.
            let short = ex.passed
                && ex.verdict.quad.area().abs() < MERGED_FILL * quad.area().abs()
                && !encloses_grids(&ex.verdict.quad, hulls, i);
            if nearly_passed || short {
                let closer = closer_look(self.gray, &quad, &ex, dbg.scale, Look::Alone)
                    .filter(|c| !short || !encloses_grids(&c.verdict.quad, hulls, i));
                if let Some(closer) = closer {
                    dbg.candidates.push(Candidate {
                        quad: closer.verdict.quad,
                        score: closer.verdict.score,
                        passed: closer.passed,
                    });
                    ex = closer;
                }
            }
            // A hull the grid found does not fill may be a lattice of
            // grids (a Samurai): its windows replace the one comb found.
            let fills = ex.verdict.quad.area().abs() >= MERGED_FILL * quad.area().abs();
            let windows = if merge || !first || (ex.passed && fills) {
                Vec::new()
            } else {
                let mut windows = lattice_grids(gray, dbg, &quad);
                windows.retain(|w| !outlined_apart(&w.verdict.quad, &quad, hulls, i));
                windows
            };
            // A hull whose comb failed, or passed only against the frame,
            // may be a grid joined to other print (a panel's rules, a
            // crossword beside it): its groups of cells are looked at
            // alone (see `candidates::cell_groups`), the first search
            // only (the finer one skips what the first found). So may a
            // hull whose comb passed with box lines that do not stand out
            // as a Sudoku's ([`BOX_PATTERN`]): a panel's rule or a column
            // of text joined to a grid skews the hull's quad, and a comb
            // slanted across the grid's lines passes there weakly. The
            // grid its cells show stands beside that comb, and the better
            // scored of the two is kept.
            let at_frame = ex.frame.iter().any(|&f| f);
            let unboxed = ex.passed && ex.verdict.boxes < BOX_PATTERN;
            if first && !merge && windows.is_empty() && (!ex.passed || at_frame || unboxed) {
                let (x0, y0, x1, y1) = quad_bounds(hull);
                for group in cell_groups(&self.closed, (x0, y0, x1, y1)) {
                    // A group that fills the hull is the grid the hull's
                    // comb already judged (the later looks take it from
                    // there): only a grid that other print joined is new.
                    // Nor is a group that another hull outlines: that
                    // grid is a candidate of its own.
                    let own = |q: &Quad| {
                        hulls.iter().enumerate().any(|(j, h)| {
                            j != i
                                && max_area_quad(h).is_some_and(|o| iou(&o, q) >= SAME_GRID_OVERLAP)
                        })
                    };
                    let Some(q) = max_area_quad(&group)
                        .filter(|q| q.area().abs() < MERGED_FILL * quad.area().abs() && !own(q))
                    else {
                        continue;
                    };
                    let inner = examine_sizes(dbg, &q, false, false);
                    if inner.passed {
                        found.push(inner);
                    }
                }
            }
            if !windows.is_empty() {
                found.extend(windows);
            } else if ex.passed
                && (first || inked(&dbg.work, &dbg.dark, &ex.verdict.quad))
                && (fills || !encloses_grids(&ex.verdict.quad, hulls, i))
            {
                found.push(ex);
            } else if !merge && (first || inked(&dbg.work, &dbg.dark, &ex.verdict.quad)) {
                // Held to the ink a grid of this search needs to pass.
                near.extend(near_miss(&ex).map(|ex| (ex, dbg.scale)));
                if ex.verdict.n == 9 && !ex.frame.iter().any(|&f| f) {
                    refused.push((quad, ex, dbg.scale));
                }
            }
        }
        found
    }
}

/// The bounding box of `full` (full-resolution pixels) grown by `margin`
/// each way and clipped to an image of `size`: `(x0, y0, x1, y1)`.
fn bounds_around(full: &Quad, margin: f32, (w, h): (u32, u32)) -> (f32, f32, f32, f32) {
    let (x0, y0, x1, y1) = full.bounds();
    let clip = |v: f32, hi: u32| v.max(0.0).min(hi as f32);
    (
        clip(x0 - margin, w),
        clip(y0 - margin, h),
        clip(x1 + margin, w),
        clip(y1 + margin, h),
    )
}

/// How a [`closer_look`] judges its crop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Look {
    /// The grid passes as one alone in a photo would.
    Alone,
    /// The page vouches for the grid (a grid found of its size in line
    /// with it, see [`pointed_at`]): a near miss passes too (see
    /// [`near_miss`]), a score of [`NEAR_MISS_SCORE`] with box lines that
    /// stand out ([`VOUCH_MIN_BOXES`]).
    Vouched,
    /// As [`Look::Alone`], on the crop sharpened (see [`SHARPEN_CELLS`]).
    Sharpened,
}

/// The candidate `ex` of the hull quad `hull` (work pixels of a search at
/// `factor`) verified again on a crop of the full-resolution `gray` around
/// the hull (see [`CLOSER_MARGIN`], [`CLOSER_MAX_SIDE`]): the verdict, in
/// the same work pixels, when it passes there away from the crop's edges;
/// `None` otherwise. The hull, not the comb found there (refused, or
/// passed but short of the hull), is looked at again: a comb that fitted
/// the lines weakly often fitted them a row short (the pitch a tenth too
/// small), and a search inside it cannot find the row it left out. A grid
/// at the crop's edge is left to the search itself: the crop's edge is no
/// frame of the photo.
///
/// How the grid passes is `look`'s to say.
fn closer_look(
    gray: &GrayImage,
    hull: &Quad,
    ex: &Examined,
    factor: f32,
    look: Look,
) -> Option<Examined> {
    let full = quad_to_full(hull, factor);
    let (crop, k, o) = crop_of(gray, &full)?;
    let crop = match look {
        Look::Sharpened => {
            let cell = full.max_side() / k as f32 / ex.verdict.n as f32;
            imageproc::filter::sharpen_gaussian(&crop, SHARPEN_CELLS * cell, SHARPEN_AMOUNT)
        }
        Look::Alone | Look::Vouched => crop,
    };
    let mut dbg = search_image(crop, k as f32, RADIUS_DIVISOR);
    let kf = dbg.scale;
    let spec = Spec {
        n: ex.verdict.n,
        lone: true,
    };
    let near = examine(&mut dbg, &full_to_work(&full, kf, o), false, spec);
    let stands = near.passed
        || (look == Look::Vouched
            && near.verdict.score >= NEAR_MISS_SCORE
            && near.verdict.boxes >= VOUCH_MIN_BOXES);
    if !stands || near.frame.iter().any(|&f| f) {
        return None;
    }
    // The closer look confirms the comb the search saw weakly (or extends
    // it by the row it left out); it never moves it: a grid beside the
    // comb looked at again is another pattern of the hull, such as a table of
    // numbers whose rules and digit rows make a comb at some resolutions.
    let near_full = quad_to_full(&near.verdict.quad, kf).translated(o);
    let cell = near_full.max_side() / near.verdict.n as f32;
    let (r, g) = (
        quad_to_full(&ex.verdict.quad, factor).bounds(),
        near_full.bounds(),
    );
    let spill = [g.0 - r.0, g.1 - r.1, r.2 - g.2, r.3 - g.3];
    if spill.iter().any(|&s| s > MAX_CLOSER_SPILL * cell) {
        return None;
    }
    Some(Examined {
        verdict: Verdict {
            quad: full_to_work(&near_full, factor, (0.0, 0.0)),
            ..near.verdict
        },
        frame: ex.frame,
        whole: ex.whole,
        at_frame: ex.at_frame,
        passed: true,
    })
}

/// The search image of a crop of `gray` around `full` (see [`crop_of`]),
/// with the crop's origin. The crop is the grid and a margin: the first
/// search's window, made for a grid that fills its image.
fn crop_search(gray: &GrayImage, full: &Quad) -> Option<(LocateDebug, (f32, f32))> {
    let (crop, k, origin) = crop_of(gray, full)?;
    Some((search_image(crop, k as f32, RADIUS_DIVISOR), origin))
}

/// A crop of `gray` around `full` (full-resolution pixels;
/// [`CLOSER_MARGIN`] added each way), downscaled by the whole factor `k`
/// to at most [`CLOSER_MAX_SIDE`], with `k` and the crop's origin; `None`
/// when the crop is too small to search.
fn crop_of(gray: &GrayImage, full: &Quad) -> Option<(GrayImage, u32, (f32, f32))> {
    let margin = CLOSER_MARGIN * full.max_side();
    let (x0, y0, x1, y1) = bounds_around(full, margin, gray.dimensions());
    if x1 - x0 < MIN_IMAGE_SIDE as f32 || y1 - y0 < MIN_IMAGE_SIDE as f32 {
        return None;
    }
    let (x0, y0) = (x0 as u32, y0 as u32);
    let (cw, ch) = (x1 as u32 - x0, y1 as u32 - y0);
    let k = cw.max(ch).div_ceil(CLOSER_MAX_SIDE).max(1);
    let crop = crate::geometry::downscale_region(gray, x0, y0, cw, ch, k);
    Some((crop, k, (x0 as f32, y0 as f32)))
}

/// The failed candidate `ex` as a near miss the page may vouch for (see
/// [`vouched`]): a 9x9 comb away from the frame that scored at least
/// [`NEAR_MISS_SCORE`] with box lines standing out ([`VOUCH_MIN_BOXES`]),
/// or, placed by its box lines, one whose box lines alone make a grid's
/// comb on each axis (`Verdict::lattice`).
fn near_miss(ex: &Examined) -> Option<Examined> {
    if ex.passed || ex.verdict.n != 9 || ex.frame.iter().any(|&f| f) {
        return None;
    }
    if ex.verdict.score >= NEAR_MISS_SCORE && ex.verdict.boxes >= VOUCH_MIN_BOXES {
        return Some(*ex);
    }
    let lattice = ex.verdict.lattice?;
    Some(Examined {
        verdict: Verdict {
            quad: lattice,
            ..ex.verdict
        },
        ..*ex
    })
}

/// The near misses (`near`: each with the scale of its search) that the
/// grids found on the page (`located`) vouch for, refined: a near miss
/// lying clear of every grid found ([`VOUCH_MAX_OVERLAP`]), the next grid
/// in a row or column of one of them and of its size (see [`same_size`]),
/// before and after the refinement.
///
/// A book prints its grids alike, in rows and columns: on a photographed
/// page of twelve answer grids, the ones the curl bends most or the blur
/// softens most keep their box lines but lose thin lines in a band or two,
/// and their combs score 0.15-0.3 where the page's flatter grids pass at
/// 0.5. A comb that fell short elsewhere (a table's rules, digits in
/// columns) neither matches a grid's size to half a cell nor has its box
/// lines. A grid vouched for vouches in turn for its own neighbours, the
/// best-scored near miss first.
///
/// Where blur has taken every grid's thin lines (small answer grids in
/// grey, photographed out of focus), nothing passes and nothing vouches;
/// their box lines still make a grid's comb on each axis and place them
/// (`Verdict::lattice`). A near miss with [`VOUCH_PEERS`] others of its
/// size beside it then stands without a grid found: three 3x3 lattices of
/// one size in a row or column, each a neighbour's size seen through its
/// perspective, are a page of grids. A near miss placed by its box lines
/// alone stands only so, never on a grid found beside it: a crossword of
/// a puzzle's size beside the puzzle has a 3x3 lattice of its own. What
/// such a grid is read as is decided as for any other (a notes table
/// reads empty and is not reported).
fn vouched(gray: &GrayImage, located: &[Located], mut near: Vec<(Examined, f32)>) -> Vec<Located> {
    near.sort_by(|a, b| b.0.verdict.score.total_cmp(&a.0.verdict.score));
    let mut anchors = anchors(located);
    let mut out: Vec<Located> = Vec::new();
    // Near misses with VOUCH_PEERS others of their size beside them vouch
    // for each other: a page of alike grids that all fell short.
    let quads: Vec<Quad> = near
        .iter()
        .map(|&(ex, scale)| quad_to_full(&ex.verdict.quad, scale))
        .collect();
    let peers = |q: &Quad| {
        quads
            .iter()
            .filter(|o| bbox_overlap(o, q) <= VOUCH_MAX_OVERLAP && same_size(o, q))
            .count()
    };
    // A near miss placed by its box lines alone (see [`near_miss`]) stands
    // only among its peers, never beside a grid found alone: a crossword
    // of a puzzle's size beside it has a 3x3 lattice too.
    // Each near miss with its full-resolution quad, whether its peers let
    // it stand, and whether a grid found may vouch for it.
    let mut near: Vec<(Examined, f32, Quad, bool, bool)> = near
        .into_iter()
        .zip(quads.iter().copied())
        .map(|((ex, scale), q)| {
            let lattice_only = ex.verdict.lattice == Some(ex.verdict.quad);
            (ex, scale, q, peers(&q) >= VOUCH_PEERS, !lattice_only)
        })
        .collect();
    // Whether a near miss at `quad` stands: among peers, or vouched for
    // by a grid (found, or vouched for before) of its size beside it.
    let stands = |anchors: &[Quad], quad: &Quad, seed: bool, anchored: bool| {
        seed || (anchored && anchors.iter().any(|a| same_size(a, quad)))
    };
    loop {
        let next = near.iter().position(|&(_, _, quad, seed, anchored)| {
            clear_of(located, &out, &quad) && stands(&anchors, &quad, seed, anchored)
        });
        let Some(i) = next else {
            break;
        };
        let (ex, scale, _, seed, anchored) = near.remove(i);
        let grid = finish(gray, &ex, scale);
        if !grid.cut && stands(&anchors, &grid.quad, seed, anchored) {
            anchors.push(grid.quad);
            out.push(grid);
        }
    }
    out
}

/// The refused hulls (`refused`: each with its comb and the scale of its
/// search) that the grids found on the page (`located`) point at, looked
/// at closer (see [`closer_look`]) and refined: a hull clear of every grid
/// found, the next in a row or column of one of them and of its size (see
/// [`same_size`]; the hull's or its comb's, as a hull takes in a label).
///
/// A book prints its grids alike: on a photographed page of answer grids
/// where three pass at 0.37, the fourth, as sharp, scored 0.12 in the
/// search (its window of the page's size, set for grids of any size,
/// loses its thin lines beside bold digits) and passes in a crop of it
/// (`fixtures/eight-answers-shadowed.jpg`: six of eight found without
/// this). The closer look holds the grid to the bar of a near miss the
/// page vouches for (see [`closer_look`]): on a blurred page of answer
/// grids, one whose own closer look scored 0.24 against the 0.3 of a grid
/// alone stands beside the seven of its size found, as it would had the
/// search scored it so. A refused hull with no grid of its size in line
/// (a crossword beside a lone puzzle, a table of numbers) is not looked
/// at.
fn pointed_at(
    gray: &GrayImage,
    located: &[Located],
    refused: Vec<(Quad, Examined, f32)>,
) -> Vec<Located> {
    let mut anchors = anchors(located);
    let mut out: Vec<Located> = Vec::new();
    for (hull, ex, scale) in refused {
        let full = quad_to_full(&hull, scale);
        let comb = quad_to_full(&ex.verdict.quad, scale);
        let clear = clear_of(located, &out, &full);
        let like = anchors
            .iter()
            .any(|a| same_size(a, &full) || same_size(a, &comb));
        if !(clear && like) {
            continue;
        }
        if let Some(closer) = closer_look(gray, &hull, &ex, scale, Look::Vouched) {
            let grid = finish(gray, &closer, scale);
            if !grid.cut {
                anchors.push(grid.quad);
                out.push(grid);
            }
        }
    }
    out
}

/// The quads of the grids found (`located`) that may vouch for others of
/// their size: whole 9x9 grids.
fn anchors(located: &[Located]) -> Vec<Quad> {
    located
        .iter()
        .filter(|l| l.n == 9 && !l.cut)
        .map(|l| l.quad)
        .collect()
}

/// Whether `quad` lies clear of every grid found (`located`, and `added`
/// since): its bounding box overlaps none by more than
/// [`VOUCH_MAX_OVERLAP`].
fn clear_of(located: &[Located], added: &[Located], quad: &Quad) -> bool {
    located
        .iter()
        .chain(added)
        .all(|l| bbox_overlap(&l.quad, quad) <= VOUCH_MAX_OVERLAP)
}

/// Whether two grids lie side by side or one above the other (see
/// [`VOUCH_ALIGNED`]).
fn aligned(a: &Quad, b: &Quad) -> bool {
    let (a, b) = (a.bounds(), b.bounds());
    let share =
        |lo: f32, hi: f32, len_a: f32, len_b: f32| (hi - lo) >= VOUCH_ALIGNED * len_a.min(len_b);
    share(a.1.max(b.1), a.3.min(b.3), a.3 - a.1, b.3 - b.1)
        || share(a.0.max(b.0), a.2.min(b.2), a.2 - a.0, b.2 - b.0)
}

/// Whether the grid at `q` is the size of the 9x9 grid at `anchor`, a
/// neighbour in line with it (see [`aligned`], [`VOUCH_REACH`]): mapped
/// onto the page through the anchor's perspective (its quad taken as the
/// image of a unit square), `q`'s width and height are 1 within
/// [`VOUCH_SIZE_CELLS`] of a cell. A book prints its grids one size, and
/// the anchor's perspective holds for its neighbours, where comparing
/// sizes in the photo does not (two rows down a tilted page, a grid is a
/// cell taller than the top row's).
fn same_size(anchor: &Quad, q: &Quad) -> bool {
    let near = dist(anchor.centre(), q.centre()) <= VOUCH_REACH * anchor.max_side();
    let Some(to_page) = Homography::square_to_quad(1.0, anchor).and_then(|h| h.inverse()) else {
        return false;
    };
    let c = q.corners.map(|(x, y)| to_page.map(x, y));
    let (w, h) = (
        0.5 * (dist(c[0], c[1]) + dist(c[3], c[2])),
        0.5 * (dist(c[0], c[3]) + dist(c[1], c[2])),
    );
    let cells = |d: f32| (d - 1.0).abs() * 9.0;
    near && aligned(anchor, q) && cells(w) <= VOUCH_SIZE_CELLS && cells(h) <= VOUCH_SIZE_CELLS
}

/// Whether the comb found at `quad` (inside the hull `own` of `hulls`)
/// spans two or more of the other candidates, each at least
/// [`MIN_ENCLOSED_SIDE`] of its side: a grid's lines are one component, so
/// no grid holds two separate grid-sized ones. Such a comb is a chance
/// alignment across several grids: on a photographed page of six, the
/// thick box lines of two grids side by side and the page's edge make ten
/// evenly spaced "lines" that score like a grid when blur has weakened the
/// thin lines between them. Taken for a grid, it hid the six it spans.
fn encloses_grids(quad: &Quad, hulls: &[Vec<(f32, f32)>], own: usize) -> bool {
    let side = quad.max_side();
    let enclosed = hulls
        .iter()
        .enumerate()
        .filter(|&(j, h)| j != own && !h.is_empty())
        .filter(|(_, h)| {
            let (x0, y0, x1, y1) = h.iter().fold(
                (f32::MAX, f32::MAX, f32::MIN, f32::MIN),
                |(a, b, c, d), &(x, y)| (a.min(x), b.min(y), c.max(x), d.max(y)),
            );
            (x1 - x0).max(y1 - y0) >= MIN_ENCLOSED_SIDE * side
                && quad.contains((0.5 * (x0 + x1), 0.5 * (y0 + y1)))
        })
        .count();
    enclosed >= 2
}

/// What the page search's component search keeps; `merge` takes in the
/// pieces inside each candidate's box.
fn page_hull_params(merge: bool) -> HullParams {
    HullParams {
        min_side: MIN_SIDE_PX,
        max_count: PAGE_MAX_CANDIDATES,
        merge,
    }
}

/// Whether the grid at `quad` (work pixels) holds real ink: its darkest
/// pixels (the [`INK_PERCENTILE`]th percentile of its bounding box) are
/// darker than [`MAX_FAINT_INK`] times its paper (the median of `work`),
/// or as dark as the relative darkness map (`dark`, see
/// [`adaptive_threshold`]) measures at all (see [`INK_DARKNESS`]) on a
/// box that is mostly paper.
fn inked(work: &GrayImage, dark: &GrayImage, quad: &Quad) -> bool {
    let px = histogram(work, quad);
    let (Some(darkest), Some(paper)) = (
        px.sorted_at(px.len * INK_PERCENTILE / 100),
        px.sorted_at(px.len / 2),
    ) else {
        return false;
    };
    let (darkest, paper) = (f32::from(darkest), f32::from(paper));
    let rel = histogram(dark, quad);
    let deepest = rel
        .len
        .checked_sub(1 + rel.len * INK_PERCENTILE / 100)
        .and_then(|i| rel.sorted_at(i))
        .unwrap_or(0);
    // Ink on paper: the box's median pixel is paper, no darker than the
    // paper around it. In a photo's negative (searched first when it is
    // mostly dark, for an app's dark theme) a page's grid shows its cells
    // as dark blocks, two thirds of the box and all darker than the
    // bright lines between them.
    let on_paper = rel.sorted_at(rel.len / 2) == Some(0);
    darkest < MAX_FAINT_INK * paper || (deepest == INK_DARKNESS && on_paper)
}

/// [`examine`] for each grid size; the best score wins, a near tie goes to
/// the size whose box lines stand out more. With `side_by_side` the sizes
/// are judged on the pool, then recorded in order: in the finer search of
/// a 12 MP photo a large hull's combs are most of the examination, which
/// may end up alone on its core. Not in the first search, which runs
/// beside the finer search's preparation (a size the busy core stole made
/// the first search wait on it).
fn examine_sizes(dbg: &mut LocateDebug, quad: &Quad, merged: bool, side_by_side: bool) -> Examined {
    judge_sizes(dbg, quad, merged, side_by_side).0
}

/// [`examine_sizes`], and the 16x16 verdict when its comb failed with box
/// lines that stand out as a 16x16's do ([`LOST_LINES_BOXES`]).
fn judge_sizes(
    dbg: &mut LocateDebug,
    quad: &Quad,
    merged: bool,
    side_by_side: bool,
) -> (Examined, Option<Examined>) {
    use rayon::prelude::*;
    let dark = &dbg.dark;
    let judge = |&n: &usize| examined(dark, quad, merged, Spec { n, lone: true });
    let judged: Vec<Examined> = if side_by_side {
        SIZES.par_iter().map(judge).collect()
    } else {
        SIZES.iter().map(judge).collect()
    };
    let lost_lines = judged
        .iter()
        .find(|ex| ex.verdict.n == 16 && !ex.passed && ex.verdict.boxes >= LOST_LINES_BOXES)
        .copied();
    let mut best: Option<Examined> = None;
    for ex in judged {
        record(dbg, quad, &ex);
        if best.is_none_or(|b| stands_before(&ex.verdict, &b.verdict)) {
            best = Some(ex);
        }
    }
    let best = best.unwrap_or_else(|| examine(dbg, quad, merged, CLASSIC));
    (best, lost_lines)
}

/// Whether verdict `a` is to be taken before `b` of the same place: of
/// one size, the better score; of two sizes, the one that passes with a
/// Sudoku's box lines ([`BOX_PATTERN`]) before one whose box lines are no
/// thicker than its others, else the better score, or a score lower by at
/// most [`SIZE_TIE`] with box lines that stand out more. Two combs of one
/// size at one place (a grid's own hull and the page's around it) differ
/// in their box evidence by chance.
fn stands_before(a: &Verdict, b: &Verdict) -> bool {
    if a.n == b.n {
        return a.score > b.score;
    }
    let boxed = |v: &Verdict| v.score >= MIN_SCORE && v.boxes >= BOX_PATTERN;
    let unboxed = |v: &Verdict| v.boxes <= 0.0;
    if boxed(a) && unboxed(b) {
        return true;
    }
    if boxed(b) && unboxed(a) {
        return false;
    }
    let (s, t) = (a.score, b.score);
    s > t + SIZE_TIE || (s > t - SIZE_TIE && a.boxes > b.boxes)
}

/// The grids inside a candidate that is a larger lattice (a Samurai), each
/// examined as a candidate of its own. A lattice whose cell sides the work
/// image lost is looked at again on `gray` (see [`finer_lattice_windows`]).
fn lattice_grids(gray: &GrayImage, dbg: &mut LocateDebug, quad: &Quad) -> Vec<Examined> {
    let mut out = Vec::new();
    let lattice = lattice::lattice_windows(&dbg.dark, quad, &SIZES);
    let finer = (1..=MAX_FINER_CELLS).contains(&lattice.cells) && lattice.windows.is_empty();
    let windows = if finer {
        finer_lattice_windows(gray, quad, dbg.scale, lattice.cells)
    } else {
        lattice.windows
    };
    for (n, window) in windows {
        let ex = examine(dbg, &window, false, Spec { n, lone: false });
        if ex.passed {
            out.push(ex);
        }
    }
    out
}

/// The grids of the first search that the finer one skips: not those cut
/// by the frame. A comb across a page that reaches the frame passes there
/// at the frame's lower score, and a puzzle inside it would be lost (see
/// [`cut_combs_dropped`]).
fn finer_known(located: &[Located]) -> Vec<Quad> {
    located.iter().filter(|l| !l.cut).map(|l| l.quad).collect()
}

/// The lattice windows of the work-image quad `quad` (a search at
/// `factor`) found on a crop of the full-resolution `gray` where its
/// `cells` cells are about [`FINER_CELL_PX`] pixels, in work pixels. A
/// Samurai's thin lines are often printed a light grey one pixel wide: the
/// work image averages them with the paper around them until they measure
/// under the blank gaps' level (a sixteenth of the box lines on a 1600 px
/// photo halved), while in the photo itself they are plain. Nothing when
/// the crop would be no finer than the work image.
fn finer_lattice_windows(
    gray: &GrayImage,
    quad: &Quad,
    factor: f32,
    cells: usize,
) -> Vec<(usize, Quad)> {
    let full = quad_to_full(quad, factor);
    let cell = full.max_side() / cells as f32;
    let k = ((cell / FINER_CELL_PX).floor() as u32).max(1);
    if k as f32 >= factor {
        return Vec::new();
    }
    // A cell around the figure: the threshold sees its border whole.
    let (x0, y0, x1, y1) = bounds_around(&full, cell, gray.dimensions());
    let (cx0, cy0, cx1, cy1) = (x0 as u32, y0 as u32, x1 as u32, y1 as u32);
    if cx1 <= cx0 || cy1 <= cy0 {
        return Vec::new();
    }
    let crop = crate::geometry::downscale_region(gray, cx0, cy0, cx1 - cx0, cy1 - cy0, k);
    let (_, dark) = adaptive_threshold(&crop, RADIUS_DIVISOR);
    let origin = (cx0 as f32, cy0 as f32);
    let on_crop = full_to_work(&full, k as f32, origin);
    let windows = lattice::lattice_windows(&dark, &on_crop, &SIZES).windows;
    if !grids_apart(&windows) {
        return Vec::new();
    }
    windows
        .into_iter()
        .map(|(n, window)| {
            let window = quad_to_full(&window, k as f32).translated(origin);
            (n, full_to_work(&window, factor, (0.0, 0.0)))
        })
        .collect()
}

/// Whether `windows` could be grids of one figure: grids share a box at
/// most ([`FINER_MAX_SHARED`]). Windows that share more are a lattice of a
/// grid's part-cells (on a small grid at full resolution, its digits'
/// strokes and lines counted as twice its cells), not grids.
fn grids_apart(windows: &[(usize, Quad)]) -> bool {
    windows.iter().enumerate().all(|(i, (_, a))| {
        windows[i + 1..]
            .iter()
            .all(|(_, b)| bbox_overlap(a, b) <= FINER_MAX_SHARED)
    })
}

/// The first search's grids (`known`) and the finer search's (`added`),
/// with no grid inside another: a Sudoku's lines are its own, so a grid
/// of the first search holding two or more of the finer search's (see
/// [`inside`]) was a comb across a page of grids (a page's edge and the
/// grids' box lines, spaced like a grid's lines on a coarse image) and
/// gives way to them, as does one cut by the frame that holds a whole
/// grid (see [`cut_combs_dropped`]); a grid of the finer search where a grid stays
/// (inside one that holds fewer) stays out, as in the search itself. A
/// grid the first search took for cut gives way to the same grid found
/// whole by the finer search (see [`whole_again`]).
fn grids_of_grids_replaced(known: Vec<Located>, added: Vec<Located>) -> Vec<Located> {
    let held = |k: &Located| added.iter().filter(|a| inside(&a.quad, &k.quad)).count();
    let mut out: Vec<Located> = known
        .into_iter()
        .filter(|k| held(k) < 2 && !(k.cut && holds_whole(k, &added)))
        .map(|k| whole_again(&k, &added).unwrap_or(k))
        .collect();
    let kept: Vec<Located> = added
        .into_iter()
        .filter(|a| {
            !out.iter()
                .any(|k| bbox_overlap(&k.quad, &a.quad) > SAME_GRID_OVERLAP)
        })
        .collect();
    out.extend(kept);
    out
}

/// The grids found without those cut by the frame that hold a whole grid
/// found (its centre inside, its side smaller): a cut grid is a part of a
/// grid the frame runs through, and a Sudoku's cells hold digits, never a
/// grid of their own, so such a "grid" was a comb across the page (its
/// lines a text column's edges, a panel's rules, the puzzle's own box
/// lines) that passed at the frame's lower score ([`MIN_SCORE_AT_FRAME`]).
/// Reported, it would be a `partial` grid that hides the puzzle inside it.
fn cut_combs_dropped(grids: Vec<Located>) -> Vec<Located> {
    let keep: Vec<bool> = grids
        .iter()
        .map(|g| !(g.cut && holds_whole(g, &grids)))
        .collect();
    grids
        .into_iter()
        .zip(keep)
        .filter_map(|(g, k)| k.then_some(g))
        .collect()
}

/// The grid of `added` that is `known`, found whole where `known` was
/// taken for cut: `None` unless `known` is cut and a grid of `added` of
/// its size is not, each corner within [`LATTICE_AGREE_CELLS`] of a cell
/// of its own. A grid is whole when every line of its lattice is found
/// where the lattice puts it ([`whole_at_frame`]); the coarse search image
/// can lose a thin line the finer one holds, so a line not found there is
/// the want of evidence and a lattice seen whole at the finer scale is the
/// evidence (a newspaper photo cropped a pixel inside its border at the
/// top and left).
fn whole_again(known: &Located, added: &[Located]) -> Option<Located> {
    if !known.cut {
        return None;
    }
    let cell = known.quad.max_side() / known.n as f32;
    added
        .iter()
        .find(|a| {
            !a.cut
                && a.n == known.n
                && a.quad
                    .corners
                    .iter()
                    .zip(known.quad.corners)
                    .all(|(&p, q)| dist(p, q) <= LATTICE_AGREE_CELLS * cell)
        })
        .copied()
}

/// Whether one of `grids`, not cut by the frame, lies inside `outer`
/// (its centre inside, its side smaller).
fn holds_whole(outer: &Located, grids: &[Located]) -> bool {
    grids.iter().any(|g| {
        !g.cut && g.quad.max_side() < outer.quad.max_side() && outer.quad.contains(g.quad.centre())
    })
}

/// Whether the window `window` of the lattice in hull `own` (outlined by
/// `outer`) lies in the outline of another, smaller candidate at least its
/// size: that candidate is judged on its own. A page's outline around a
/// blurred 16x16 was split as a lattice miscounted by a few cells whose
/// 9x9 windows had every side darker than blank paper.
fn outlined_apart(window: &Quad, outer: &Quad, hulls: &[Vec<(f32, f32)>], own: usize) -> bool {
    let (side, centre) = (window.max_side(), window.centre());
    hulls.iter().enumerate().any(|(j, h)| {
        j != own
            && max_area_quad(h).is_some_and(|o| {
                let s = o.max_side();
                s >= OUTLINE_SHARE * side && s < outer.max_side() && o.contains(centre)
            })
    })
}

/// Whether a grid at `quad` lies inside the grid at `outer` as one of
/// several grids a comb spanned would: its centre in `outer`, its side
/// between [`MIN_INNER_SHARE`] and [`MAX_INNER_SHARE`] of `outer`'s.
fn inside(quad: &Quad, outer: &Quad) -> bool {
    could_be_inside(quad, outer) && outer.contains(quad.centre())
}

/// [`inside`] by size alone, for a candidate hull before it is verified.
fn could_be_inside(quad: &Quad, outer: &Quad) -> bool {
    let share = quad.max_side() / outer.max_side();
    (MIN_INNER_SHARE..=MAX_INNER_SHARE).contains(&share)
}

/// The grids found, one per place: of grids whose bounding boxes overlap
/// by more than [`SAME_GRID_OVERLAP`], the best scored stays, or one of
/// another size that [`stands_before`] it: scores of different looks at a
/// place (the work image, a closer look on the photo) differ by a few
/// hundredths, and a 9x9 comb across a blurred 16x16 and the paper around
/// it, its box lines no thicker than its others, outscored the 16x16 by
/// 0.03.
fn distinct(mut found: Vec<Examined>) -> Vec<Examined> {
    found.sort_by(|a, b| b.verdict.score.total_cmp(&a.verdict.score));
    let mut kept: Vec<Examined> = Vec::new();
    for ex in found {
        let same: Vec<usize> = (0..kept.len())
            .filter(|&i| bbox_overlap(&kept[i].verdict.quad, &ex.verdict.quad) > SAME_GRID_OVERLAP)
            .collect();
        match same[..] {
            [] => kept.push(ex),
            [i] if stands_before(&ex.verdict, &kept[i].verdict) => kept[i] = ex,
            _ => {}
        }
    }
    kept
}

/// Overlap of two quads' bounding boxes as a fraction of the smaller box.
fn bbox_overlap(a: &Quad, b: &Quad) -> f32 {
    let (inter, area_a, area_b) = bbox_areas(a, b);
    let smaller = area_a.min(area_b);
    if smaller <= 0.0 {
        return 0.0;
    }
    inter / smaller
}

/// The intersection of two quads' bounding boxes and each box's area.
fn bbox_areas(a: &Quad, b: &Quad) -> (f32, f32, f32) {
    let (a, b) = (a.bounds(), b.bounds());
    let iw = (a.2.min(b.2) - a.0.max(b.0)).max(0.0);
    let ih = (a.3.min(b.3) - a.1.max(b.1)).max(0.0);
    let area = |r: (f32, f32, f32, f32)| (r.2 - r.0) * (r.3 - r.1);
    (iw * ih, area(a), area(b))
}

/// The integer downscale factor that brings the `w` x `h` image's longer
/// side to at most `max_side`.
fn work_factor(w: u32, h: u32, max_side: u32) -> u32 {
    w.max(h).div_ceil(max_side).max(1)
}

/// The search image downscaled by `factor`, thresholded with the window
/// of `radius_divisor` (see [`adaptive_threshold`]).
fn prepare_at(gray: &GrayImage, factor: u32, radius_divisor: usize) -> LocateDebug {
    search_image(downscale(gray, factor), factor as f32, radius_divisor)
}

/// A search of `work` (`scale` full-resolution pixels per pixel): its
/// threshold and darkness (window set by `radius_divisor`), no candidates
/// yet.
fn search_image(work: GrayImage, scale: f32, radius_divisor: usize) -> LocateDebug {
    let (binary, dark) = adaptive_threshold(&work, radius_divisor);
    LocateDebug {
        work,
        binary,
        dark,
        scale,
        candidates: Vec::new(),
        hulls: Vec::new(),
        unsearched: 0,
    }
}

/// Verifies one hull quad: the comb check, re-checks around the lines
/// found, side re-fitting at the frame, whether a grid on the frame is
/// whole, and the threshold. Records the hull and the verdict in `dbg`.
fn examine(dbg: &mut LocateDebug, quad: &Quad, merged: bool, spec: Spec) -> Examined {
    let ex = examined(&dbg.dark, quad, merged, spec);
    record(dbg, quad, &ex);
    ex
}

/// The hull `quad` and its verdict in the debug images.
fn record(dbg: &mut LocateDebug, quad: &Quad, ex: &Examined) {
    dbg.hulls.push(*quad);
    dbg.candidates.push(Candidate {
        quad: ex.verdict.quad,
        score: ex.verdict.score,
        passed: ex.passed,
    });
}

/// [`examine`] on the work image's darkness `dark`, with nothing
/// recorded.
fn examined(dark: &GrayImage, quad: &Quad, merged: bool, spec: Spec) -> Examined {
    let (w, h) = (dark.width() as f32, dark.height() as f32);
    let touches = |q: &Quad| frame_sides(q, w, h, FRAME_TOL).iter().any(|&f| f);
    // A hull no comb could make a grid of is refused unmeasured, as the
    // check would refuse it (its verdict scores 0 with no lattice).
    if !could_hold_grid(quad) {
        let frame = frame_sides(quad, w, h, FRAME_TOL);
        return Examined {
            verdict: Verdict {
                n: spec.n,
                boxes: 0.0,
                score: 0.0,
                quad: *quad,
                lattice: None,
            },
            frame,
            whole: false,
            at_frame: frame.iter().any(|&f| f),
            passed: false,
        };
    }
    let measured = Measured::default();
    let closed = settle(dark, quad, spec, Check::new(false, &measured));
    // A hull or grid on the frame is checked again with the comb's lines
    // on the frame left out (a border the crop cut off). That grid is
    // taken when its lattice shows it whole, it passes as a grid away from
    // the frame would (its weak tooth is left out, so the frame's lower
    // threshold has no reason left) and its box lines are a Sudoku's
    // ([`MIN_BOXES_AT_FRAME`]); a grid on the frame that does not stays
    // cut, as the comb saw it. Without the frame's lines the comb may
    // place the border a pixel or two inside the frame, off it: that
    // grid is whole too when it lies where the comb with them found it
    // ([`comb_on`]), a lattice a row off does not.
    let open = (touches(quad) || touches(&closed.0.quad))
        .then(|| settle(dark, quad, spec, Check::new(true, &measured)))
        .filter(|(v, frame, placed)| {
            (frame.iter().any(|&f| f) || comb_on(&v.quad, &closed.0.quad))
                && placed.is_some_and(|p| v.boxes >= MIN_BOXES_AT_FRAME || p.boxes_seen)
                && v.score >= MIN_SCORE
                && (closed.2.is_none() || v.score >= closed.0.score)
        });
    let (verdict, frame, placed) = open.unwrap_or(closed);
    let whole = placed.is_some();
    // A whole grid on the frame has its border where the lattice puts it.
    let verdict = Verdict {
        quad: placed.map_or(verdict.quad, |p| p.quad),
        ..verdict
    };
    let min_score = if frame.iter().any(|&f| f) {
        MIN_SCORE_AT_FRAME
    } else {
        MIN_SCORE
    };
    // A merged hull stands for the grid itself: when the comb only finds a
    // grid well inside it, it took in the page around (a page component's
    // box holds every piece of print on it) and any comb found there is
    // chance.
    let fills = !merged || verdict.quad.area().abs() >= MERGED_FILL * quad.area().abs();
    let passed = verdict.score >= min_score && fills;
    // A grid a line short of a border on the frame (its box lines a line
    // off) is the grid moved a cell there: whole when that border is
    // where its lattice puts it, else cut, never read a line off.
    let moved = passed
        .then(|| boxes_a_line_towards_frame(dark, &verdict.quad, verdict.n))
        .flatten();
    let (verdict, frame, whole) = match moved {
        Some(moved) => {
            let (w, h) = (dark.width() as f32, dark.height() as f32);
            let frame = frame_sides(&moved, w, h, FRAME_TOL);
            match whole_at_frame(dark, &moved, verdict.n, frame) {
                Some(placed) => (
                    Verdict {
                        quad: placed.quad,
                        ..verdict
                    },
                    frame,
                    true,
                ),
                None => (verdict, frame, false),
            }
        }
        None => (verdict, frame, whole),
    };
    Examined {
        verdict,
        frame,
        whole,
        at_frame: touches(quad) || frame.iter().any(|&f| f) || moved.is_some(),
        passed,
    }
}

/// A comb check: [`verify`], `open` for a grid whose border the frame may
/// have cut off; the quads one examination measures are measured once
/// (see [`Measured`]).
#[derive(Clone, Copy)]
struct Check<'a> {
    open: bool,
    measured: &'a Measured,
}

impl<'a> Check<'a> {
    fn new(open: bool, measured: &'a Measured) -> Check<'a> {
        Check { open, measured }
    }

    /// The comb check of `quad` on `dark`.
    fn run(&self, dark: &GrayImage, quad: &Quad, spec: Spec) -> Verdict {
        verify(dark, quad, spec, self.open, self.measured)
    }
}

/// The grid the comb check finds in the hull quad `quad` of the work
/// image `dark`, re-checked around its lines and with its sides re-fitted
/// at the frame; the sides on the frame; and the grid placed whole, when
/// it is (see [`whole_at_frame`]).
fn settle(
    dark: &GrayImage,
    quad: &Quad,
    spec: Spec,
    check: Check<'_>,
) -> (Verdict, [bool; 4], Option<Placed>) {
    let open = check.open;
    let (w, h) = (dark.width() as f32, dark.height() as f32);
    let verdict = recheck_around(dark, check.run(dark, quad, spec), spec, check);
    // Judged on the grid found, not the hull: a hull can be a whole page on
    // the frame with a smaller grid inside.
    let verdict = refit_at_frame(dark, verdict, w, h, (spec, check));
    let frame = frame_sides(&verdict.quad, w, h, FRAME_TOL);
    // A comb that counted its lines on the frame is whole only away from
    // it (see `examine`).
    let placed = if !open && frame.iter().any(|&f| f) {
        None
    } else {
        whole_at_frame(dark, &verdict.quad, verdict.n, frame)
    };
    (verdict, frame, placed)
}

/// Re-checks around the grid found: when the hull took in clutter (text or
/// a frame touching the grid) its quad has the wrong perspective; a quad
/// just around the found lines has the right one and the comb then fits
/// exactly.
fn recheck_around(dark: &GrayImage, mut verdict: Verdict, spec: Spec, check: Check<'_>) -> Verdict {
    for _ in 0..RECHECK_ROUNDS {
        if verdict.score <= HOPELESS_SCORE {
            break;
        }
        let again = check.run(dark, &expand(&verdict.quad, RECHECK_GROWTH), spec);
        if again.score >= verdict.score - RECHECK_SLACK {
            verdict = again;
        } else {
            break;
        }
    }
    verdict
}

/// For a grid with a side on the frame of the `w` x `h` work image: without
/// the border line on the frame the component can lose the ends of the
/// neighbouring border lines too (they no longer connect to the rest), so
/// the hull cuts those corners: fit the other sides to the strongest line
/// near them and check again.
fn refit_at_frame(
    dark: &GrayImage,
    verdict: Verdict,
    w: f32,
    h: f32,
    (spec, check): (Spec, Check<'_>),
) -> Verdict {
    let frame = frame_sides(&verdict.quad, w, h, FRAME_TOL);
    if !frame.iter().any(|&f| f) || verdict.score <= HOPELESS_SCORE {
        return verdict;
    }
    let fitted = fit_sides(dark, &verdict.quad, frame);
    let again = check.run(dark, &fitted, spec);
    if again.score >= verdict.score - RECHECK_SLACK {
        again
    } else {
        verdict
    }
}

/// Whether the comb found lies on the quad it was looked for in, every
/// corner within [`ON_QUAD_CELLS`] of a cell: the quad of a rounded
/// border's straight runs stands for the grid only when the comb confirms
/// it; a comb found elsewhere inside (a frame round the grid, a lattice a
/// cell off) is chance there.
fn comb_on(comb: &Quad, quad: &Quad) -> bool {
    let cell = quad.max_side() / 9.0;
    comb.corners
        .iter()
        .zip(&quad.corners)
        .all(|(a, b)| (a.0 - b.0).hypot(a.1 - b.1) <= ON_QUAD_CELLS * cell)
}

/// The examined grid in full-resolution pixels, refined when the
/// refinement succeeds.
fn finish(gray: &GrayImage, ex: &Examined, factor: f32) -> Located {
    let coarse = quad_to_full(&ex.verdict.quad, factor);
    let quad = refine(gray, &coarse, factor, ex.frame).unwrap_or(coarse);
    let (w, h) = (gray.width() as f32, gray.height() as f32);
    // A whole grid's border may lie just past the frame (see
    // [`TIGHT_CROP_CELLS`]).
    let past = if ex.whole {
        TIGHT_CROP_CELLS * quad.max_side() / ex.verdict.n as f32
    } else {
        0.0
    };
    let margin = FRAME_TOL * factor + past;
    let outside = quad
        .corners
        .iter()
        .any(|&(x, y)| x < -margin || y < -margin || x > w + margin || y > h + margin);
    Located {
        quad,
        score: ex.verdict.score,
        n: ex.verdict.n,
        cut: outside || !ex.whole,
        at_frame: ex.at_frame,
        alternative: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    /// A white page with a 9x9 grid of side `s` at (x0, y0).
    fn draw_grid(w: u32, h: u32, x0: f32, y0: f32, s: f32) -> GrayImage {
        GrayImage::from_fn(w, h, |x, y| {
            let (fx, fy) = (x as f32 + 0.5 - x0, y as f32 + 0.5 - y0);
            if fx < 0.0 || fy < 0.0 || fx > s || fy > s {
                return Luma([235]);
            }
            let cell = s / 9.0;
            let near = |v: f32| {
                let j = (v / cell).round();
                let t = if j as i32 % 3 == 0 { 3.0 } else { 1.2 };
                (v - j * cell).abs() < t * 0.5 + if j == 0.0 || j == 9.0 { t * 0.5 } else { 0.0 }
            };
            Luma([if near(fx) || near(fy) { 25 } else { 235 }])
        })
    }

    /// A 9x9 found as the upright square of side `s` at (x, y).
    fn grid(x: f32, y: f32, s: f32) -> Located {
        Located {
            quad: Quad::new(square(x, y, s)),
            score: 0.5,
            n: 9,
            cut: false,
            at_frame: false,
            alternative: None,
        }
    }

    /// The corners tl, tr, br, bl of the upright square of side `s` at
    /// (x, y).
    fn square(x: f32, y: f32, s: f32) -> [(f32, f32); 4] {
        [(x, y), (x + s, y), (x + s, y + s), (x, y + s)]
    }

    /// The corners of an axis-aligned square, as a hull.
    fn square_hull(x: f32, y: f32, s: f32) -> Vec<(f32, f32)> {
        square(x, y, s).to_vec()
    }

    #[test]
    fn a_grid_holding_grids_gives_way_to_them() {
        // A comb across a page (first search) and two grids the finer
        // search found inside it: the grids stay, the comb goes.
        let page = grid(0.0, 0.0, 1000.0);
        let inner = vec![grid(100.0, 100.0, 250.0), grid(500.0, 100.0, 250.0)];
        let out = grids_of_grids_replaced(vec![page], inner.clone());
        assert_eq!(out, inner);
        // One grid inside: the first search's grid stands, as any grid
        // found where one already was.
        let out = grids_of_grids_replaced(vec![page], inner[..1].to_vec());
        assert_eq!(out, vec![page]);
        // Pieces under a seventh of the side (digits, cells) or over half
        // of it (the same grid found again) never count as grids inside.
        let pieces = vec![grid(100.0, 100.0, 120.0), grid(400.0, 100.0, 120.0)];
        assert_eq!(grids_of_grids_replaced(vec![page], pieces), vec![page]);
        let again = vec![grid(10.0, 10.0, 600.0), grid(300.0, 300.0, 600.0)];
        assert_eq!(grids_of_grids_replaced(vec![page], again), vec![page]);
        // Grids elsewhere on the page are added.
        let beside = grid(1200.0, 0.0, 300.0);
        let out = grids_of_grids_replaced(vec![page], vec![beside]);
        assert_eq!(out, vec![page, beside]);
    }

    #[test]
    fn a_lattice_never_replaces_a_grid_of_finer_cells_inside_it() {
        let gray = draw_grid(900, 900, 50.0, 50.0, 800.0);
        // A comb a cell inside the lattice, of about its cells: the
        // lattice is the grid there.
        let out = with_lattice_grids(&gray, vec![grid(139.0, 139.0, 711.0)]);
        assert_eq!(out.len(), 1);
        let (x0, y0, x1, y1) = out[0].quad.bounds();
        assert!([x0 - 50.0, y0 - 50.0, x1 - 850.0, y1 - 850.0]
            .iter()
            .all(|d| d.abs() < 3.0));
        // A grid of cells a third of the lattice's inside it is a grid of
        // its own (text marks a lattice across a page): it stays.
        let finer = grid(200.0, 200.0, 300.0);
        assert_eq!(with_lattice_grids(&gray, vec![finer]), vec![finer]);
    }

    #[test]
    fn a_grid_taken_for_cut_gives_way_to_itself_found_whole() {
        let grid = |x: f32, cut: bool| Located {
            quad: Quad::new([(x, 0.0), (x + 900.0, 0.0), (x + 900.0, 900.0), (x, 900.0)]),
            score: 0.5,
            n: 9,
            cut,
            at_frame: true,
            alternative: None,
        };
        // The finer search saw the lattice whole (its border a few pixels
        // away): the grid is whole.
        let out = grids_of_grids_replaced(vec![grid(0.0, true)], vec![grid(4.0, false)]);
        assert_eq!(out, vec![grid(4.0, false)]);
        // Found cut again, or a third of a cell off (another lattice), the
        // first search's grid stands cut.
        let out = grids_of_grids_replaced(vec![grid(0.0, true)], vec![grid(4.0, true)]);
        assert_eq!(out, vec![grid(0.0, true)]);
        let out = grids_of_grids_replaced(vec![grid(0.0, true)], vec![grid(33.0, false)]);
        assert_eq!(out, vec![grid(0.0, true)]);
    }

    #[test]
    fn a_window_inside_another_candidates_outline_is_left_to_it() {
        // A page's outline (hull 0) split as a lattice, a 16x16 of side 320
        // outlined inside it (hull 1), a digit (hull 2).
        let hulls = vec![
            square_hull(0.0, 0.0, 500.0),
            square_hull(100.0, 100.0, 320.0),
            square_hull(300.0, 300.0, 30.0),
        ];
        let page = max_area_quad(&hulls[0]).expect("a square");
        let window = |x: f32, y: f32| {
            Quad::new([
                (x, y),
                (x + 180.0, y),
                (x + 180.0, y + 180.0),
                (x, y + 180.0),
            ])
        };
        assert!(outlined_apart(&window(120.0, 120.0), &page, &hulls, 0));
        // The window's own hull, a digit's and one beside it do not count.
        assert!(!outlined_apart(
            &window(120.0, 120.0),
            &page,
            &hulls[..1],
            0
        ));
        assert!(!outlined_apart(
            &window(250.0, 250.0),
            &page,
            &[hulls[0].clone(), hulls[2].clone()],
            0
        ));
        assert!(!outlined_apart(&window(5.0, 300.0), &page, &hulls, 0));
        // Nor does a candidate around the split one.
        let around = vec![hulls[0].clone(), square_hull(-10.0, -10.0, 520.0)];
        assert!(!outlined_apart(&window(120.0, 120.0), &page, &around, 0));
    }

    #[test]
    fn a_comb_across_two_grids_is_no_grid_but_a_grid_with_digits_is() {
        // A page's frame (hull 0) with two grids of side 150 inside it.
        let hulls = vec![
            square_hull(10.0, 10.0, 480.0),
            square_hull(80.0, 100.0, 150.0),
            square_hull(270.0, 100.0, 150.0),
        ];
        let across = Quad::new([(60.0, 80.0), (440.0, 80.0), (440.0, 460.0), (60.0, 460.0)]);
        assert!(encloses_grids(&across, &hulls, 0));
        // One grid inside the comb is that grid found again, not a reason.
        let one = Quad::new([(70.0, 90.0), (240.0, 90.0), (240.0, 260.0), (70.0, 260.0)]);
        assert!(!encloses_grids(&one, &hulls, 0));
        // Digit-sized components (a ninth of the grid) inside a grid do not count.
        let mut digits = vec![square_hull(0.0, 0.0, 400.0)];
        digits.extend((0..6).map(|k| square_hull(20.0 + 60.0 * k as f32, 30.0, 40.0)));
        let grid = Quad::new([(5.0, 5.0), (395.0, 5.0), (395.0, 395.0), (5.0, 395.0)]);
        assert!(!encloses_grids(&grid, &digits, 0));
    }

    /// A white page with a Samurai of `cell`-pixel cells at (x0, y0):
    /// box lines black and 4 px wide about their place, the other lines
    /// 1 px of `thin` at theirs.
    fn draw_samurai(side: u32, x0: u32, y0: u32, cell: u32, thin: u8) -> GrayImage {
        let origins = [(0, 0), (12, 0), (6, 6), (0, 12), (12, 12)];
        draw_grids(side, (x0, y0), cell, thin, &origins)
    }

    /// A `side` x `side` page of 9x9 grids drawn as [`draw_samurai`]'s,
    /// with their top-left cells at `origins` (column, row) of a lattice
    /// of `cell` px starting at `(x0, y0)`.
    pub(super) fn draw_grids(
        side: u32,
        (x0, y0): (u32, u32),
        cell: u32,
        thin: u8,
        origins: &[(u32, u32)],
    ) -> GrayImage {
        let mut img = GrayImage::from_pixel(side, side, Luma([235]));
        for &(gc, gr) in origins {
            let (gx, gy) = (x0 + gc * cell - 2, y0 + gr * cell - 2);
            for j in 0..=9 {
                let (ink, width) = if j % 3 == 0 { (25, 4) } else { (thin, 1) };
                // From 2 px before the grid: room for half a box line.
                let at = j * cell + 2;
                for t in 0..=9 * cell + 4 {
                    for d in 0..width {
                        let across = at + d - width / 2;
                        img.put_pixel(gx + t, gy + across, Luma([ink]));
                        img.put_pixel(gx + across, gy + t, Luma([ink]));
                    }
                }
            }
        }
        img
    }

    #[test]
    fn a_samurai_with_thin_lines_the_work_image_loses_is_split_on_the_photo() {
        // 1 px grey thin lines on a photo searched at a third: the work
        // image keeps enough of them to count the cells, too little to
        // show a cell side; the photo shows them all.
        let (x0, y0, cell, factor) = (600, 500, 36, 3);
        let g = draw_samurai(2000, x0, y0, cell, 160);
        let (_, dark) = adaptive_threshold(&downscale(&g, factor), RADIUS_DIVISOR);
        let (x0, y0, cell) = (x0 as f32, y0 as f32, cell as f32);
        let (a, b) = (x0 - 2.0, x0 + 21.0 * cell + 2.0);
        let (c, d) = (y0 - 2.0, y0 + 21.0 * cell + 2.0);
        let outline = Quad::new([(a, c), (b, c), (b, d), (a, d)]);
        let hull = full_to_work(&outline, factor as f32, (0.0, 0.0));
        let coarse = lattice::lattice_windows(&dark, &hull, &SIZES);
        assert_eq!(coarse.cells, 21);
        assert!(coarse.windows.is_empty(), "{:?}", coarse.windows);
        let windows = finer_lattice_windows(&g, &hull, factor as f32, coarse.cells);
        assert_eq!(windows.len(), 5, "{windows:?}");
        for (gc, gr) in [
            (0.0, 0.0),
            (12.0, 0.0),
            (6.0, 6.0),
            (0.0, 12.0),
            (12.0, 12.0),
        ] {
            let (x, y) = (x0 + gc * cell, y0 + gr * cell);
            let s = 9.0 * cell;
            let truth = Quad::new(square(x, y, s));
            let truth = full_to_work(&truth, factor as f32, (0.0, 0.0));
            let near = windows
                .iter()
                .any(|(n, w)| *n == 9 && crate::geometry::corner_error(w, &truth) < 1.5);
            assert!(near, "grid at {gc},{gr}: {windows:?}");
        }
        // A photo no finer than its work image has nothing more to show.
        assert!(finer_lattice_windows(&g, &hull, 1.0, coarse.cells).is_empty());
    }

    #[test]
    fn windows_sharing_more_than_a_box_are_no_grids() {
        let window = |c: f32, r: f32| {
            (
                9,
                Quad::new([(c, r), (c + 9.0, r), (c + 9.0, r + 9.0), (c, r + 9.0)]),
            )
        };
        let samurai = [
            (0.0, 0.0),
            (12.0, 0.0),
            (6.0, 6.0),
            (0.0, 12.0),
            (12.0, 12.0),
        ];
        let samurai: Vec<_> = samurai.iter().map(|&(c, r)| window(c, r)).collect();
        assert!(grids_apart(&samurai));
        assert!(grids_apart(&[]));
        // Windows a cell or four cells across apart share most of their boxes.
        assert!(!grids_apart(&[window(0.0, 0.0), window(1.0, 0.0)]));
        assert!(!grids_apart(&[window(0.0, 0.0), window(4.0, 0.0)]));
    }

    #[test]
    fn of_combs_at_one_place_the_box_lines_decide_near_ties_and_patterns() {
        let at = |n: usize, score: f32, boxes: f32| {
            let (x0, y0, x1, y1) = (206.0, 114.0, 572.0, 500.0);
            Examined {
                verdict: Verdict {
                    n,
                    boxes,
                    score,
                    quad: Quad::new([(x0, y0), (x1, y0), (x1, y1), (x0, y1)]),
                    lattice: None,
                },
                frame: [false; 4],
                whole: true,
                at_frame: false,
                passed: true,
            }
        };
        let kept = |found: Vec<Examined>| {
            let kept = distinct(found);
            assert_eq!(kept.len(), 1);
            kept[0].verdict.n
        };
        // A near tie goes to the box lines that stand out more.
        assert_eq!(kept(vec![at(9, 0.66, 0.2), at(16, 0.63, 1.33)]), 16);
        // Further apart, the score decides.
        assert_eq!(kept(vec![at(9, 0.66, 0.2), at(16, 0.55, 1.33)]), 9);
        // A comb whose box lines are no thicker than its others gives way
        // to one that passes with a Sudoku's, whatever the scores: a 9x9
        // comb across a 16x16 photographed on a cloth.
        assert_eq!(kept(vec![at(9, 0.46, -0.14), at(16, 0.41, 3.05)]), 16);
        assert_eq!(kept(vec![at(16, 0.7, -0.2), at(9, 0.35, 0.8)]), 9);
        // Of one size, the score alone: a grid's own hull and the page's
        // around it differ in box evidence by chance.
        let one = distinct(vec![at(9, 0.687, 0.752), at(9, 0.703, 0.749)]);
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].verdict.score, 0.703);
        // Grids apart both stay.
        let mut beside = at(9, 0.5, 0.8);
        beside.verdict.quad = Quad::new([
            (700.0, 114.0),
            (1000.0, 114.0),
            (1000.0, 400.0),
            (700.0, 400.0),
        ]);
        assert_eq!(distinct(vec![at(16, 0.63, 1.33), beside]).len(), 2);
    }

    #[test]
    fn finds_a_synthetic_grid() {
        let g = draw_grid(640, 480, 120.0, 40.0, 400.0);
        let found = locate_all(&g);
        let [l] = found.as_slice() else {
            panic!("one grid: {found:?}")
        };
        let q = l.quad;
        let truth = Quad::new([(120.0, 40.0), (520.0, 40.0), (520.0, 440.0), (120.0, 440.0)]);
        let e = crate::geometry::corner_error(&q, &truth);
        assert!(e < 1.5, "{q:?} err {e}");
    }

    #[test]
    fn the_frame_is_a_grids_hull_only_where_its_lattice_is() {
        let g = draw_grid(402, 402, 1.0, 1.0, 400.0);
        let found = frame_grid(&g);
        let [l] = found.as_slice() else {
            panic!("one grid: {found:?}")
        };
        assert!(!l.cut, "{l:?}");
        let truth = Quad::new([(1.0, 1.0), (401.0, 1.0), (401.0, 401.0), (1.0, 401.0)]);
        let e = crate::geometry::corner_error(&l.quad, &truth);
        assert!(e < 2.0, "{:?} err {e}", l.quad);
        assert!(frame_grid(&GrayImage::from_pixel(400, 400, Luma([235]))).is_empty());
    }

    #[test]
    fn a_closer_look_verifies_at_full_resolution_and_answers_in_work_pixels() {
        // A grid the finer search (here at half resolution) scored 0.2 and
        // refused with a comb a row short: looked at again in its hull (a
        // little larger than the grid, as a label beside it makes it) on
        // the full image, it passes whole, and its quad comes back in the
        // search's pixels.
        let (x0, y0, s) = (500.0, 300.0, 360.0);
        let g = draw_grid(1200, 1000, x0, y0, s);
        let factor = 2.0;
        let work = |x: f32, y: f32| (x / factor - 0.5, y / factor - 0.5);
        let square = |x0: f32, y0: f32, x1: f32, y1: f32| {
            Quad::new([work(x0, y0), work(x1, y0), work(x1, y1), work(x0, y1)])
        };
        let truth = square(x0, y0, x0 + s, y0 + s);
        let hull = square(x0 - 4.0, y0 - 30.0, x0 + s + 4.0, y0 + s + 4.0);
        let row_short = square(x0, y0 + s / 9.0, x0 + s, y0 + s);
        let refused = Examined {
            verdict: Verdict {
                n: 9,
                boxes: 0.5,
                score: 0.2,
                quad: row_short,
                lattice: None,
            },
            frame: [false; 4],
            whole: true,
            at_frame: false,
            passed: false,
        };
        let Some(closer) = closer_look(&g, &hull, &refused, factor, Look::Alone) else {
            panic!("refused again");
        };
        assert!(
            closer.passed && closer.verdict.score >= MIN_SCORE,
            "{closer:?}"
        );
        let e = crate::geometry::corner_error(&closer.verdict.quad, &truth);
        assert!(e < 1.0, "{closer:?} err {e}");
        // Blank paper there: nothing to find.
        let blank = GrayImage::from_pixel(1200, 1000, Luma([235]));
        assert!(closer_look(&blank, &hull, &refused, factor, Look::Alone).is_none());
        // A refused comb two cells beside the grid the closer look finds
        // saw something else: not confirmed.
        let cell = s / 9.0;
        let beside = Examined {
            verdict: Verdict {
                quad: square(x0 + 2.0 * cell, y0, x0 + s + 2.0 * cell, y0 + s),
                ..refused.verdict
            },
            ..refused
        };
        let wide = square(x0 - 4.0, y0 - 30.0, x0 + s + 2.0 * cell, y0 + s + 4.0);
        assert!(closer_look(&g, &wide, &beside, factor, Look::Alone).is_none());
    }

    #[test]
    fn a_page_vouches_for_its_grids_neighbours_of_their_size_only() {
        // Three grids in a row, 360 px with 140 px gaps: the first found,
        // the other two near misses (as blur and curl leave them).
        let s = 360.0;
        let xs = [50.0, 550.0, 1050.0];
        let grids: Vec<GrayImage> = xs
            .iter()
            .map(|&x| draw_grid(1500, 500, x, 60.0, s))
            .collect();
        let page = GrayImage::from_fn(1500, 500, |x, y| {
            let v = grids
                .iter()
                .map(|g| g.get_pixel(x, y)[0])
                .min()
                .unwrap_or(235);
            Luma([v])
        });
        let square = |x: f32, y: f32, w: f32, h: f32| {
            Quad::new([(x, y), (x + w, y), (x + w, y + h), (x, y + h)])
        };
        let found = Located {
            quad: square(xs[0], 60.0, s, s),
            score: 0.5,
            n: 9,
            cut: false,
            at_frame: false,
            alternative: None,
        };
        let near = |quad: Quad| Examined {
            verdict: Verdict {
                n: 9,
                boxes: 1.0,
                score: 0.2,
                quad,
                lattice: None,
            },
            frame: [false; 4],
            whole: true,
            at_frame: false,
            passed: false,
        };
        let right = |i: usize| near(square(xs[i], 60.0, s, s));
        // The second grid is vouched for by the first, the third by the
        // second (it is too far from the first to share its perspective).
        let out = vouched(&page, &[found], vec![(right(2), 1.0), (right(1), 1.0)]);
        assert_eq!(out.len(), 2, "{out:?}");
        for (grid, x) in out.iter().zip([xs[1], xs[2]]) {
            let e = crate::geometry::corner_error(&grid.quad, &square(x, 60.0, s, s));
            assert!(e < 1.5, "{grid:?} err {e}");
        }
        assert!(vouched(&page, &[found], vec![(right(2), 1.0)]).is_empty());
        // A comb a row short is a cell off the grid's size: refused.
        let cell = s / 9.0;
        let short = near(square(xs[1], 60.0 + cell, s, s - cell));
        assert!(vouched(&page, &[found], vec![(short, 1.0)]).is_empty());
        // Nothing found on the page: nothing vouches.
        assert!(vouched(&page, &[], vec![(right(1), 1.0)]).is_empty());
        // The near miss must be in line with the grid found: one of its
        // size below and beside it (no grid there either) is refused.
        let diagonal = near(square(xs[1], 60.0 + s + 50.0, s, s));
        assert!(vouched(&page, &[found], vec![(diagonal, 1.0)]).is_empty());
        // With nothing found, three alike in a row vouch for each other:
        // the middle one has two of its size beside it and stands, then
        // vouches for the outer ones. Two alone are not enough.
        let three: Vec<(Examined, f32)> = (0..3).map(|i| (right(i), 1.0)).collect();
        assert_eq!(vouched(&page, &[], three.clone()).len(), 3);
        assert!(vouched(&page, &[], three[1..].to_vec()).is_empty());
    }

    #[test]
    fn a_grey_grid_is_ink_and_show_through_is_not_even_in_a_shadow() {
        // A grid whose lines are `depth` darker than their paper, which
        // dims by `shadow` grey levels from left to right.
        let page = |depth: f32, shadow: f32| {
            let g = draw_grid(300, 300, 50.0, 50.0, 200.0);
            GrayImage::from_fn(300, 300, |x, y| {
                let paper = 230.0 - shadow * x as f32 / 300.0;
                let ink = g.get_pixel(x, y)[0] < 128;
                Luma([(paper * if ink { 1.0 - depth } else { 1.0 }) as u8])
            })
        };
        let quad = Quad::new([(50.0, 50.0), (250.0, 50.0), (250.0, 250.0), (50.0, 250.0)]);
        let inked_at = |depth: f32, shadow: f32| {
            let work = page(depth, shadow);
            let (_, dark) = adaptive_threshold(&work, FINE_RADIUS_DIVISOR);
            inked(&work, &dark, &quad)
        };
        // Grey print (blur, dim light) at 0.65 of its paper: by the ratio
        // to its paper alone it was faint; 35 % darker than the paper
        // around it, it is ink, in a shadow too.
        assert!(inked_at(0.35, 0.0));
        assert!(inked_at(0.35, 100.0));
        // Show-through, a tenth darker than its paper, is not, in a shadow
        // either (its darkest pixels at 0.73 of the box's median paper).
        assert!(!inked_at(0.1, 0.0));
        assert!(!inked_at(0.1, 100.0));
        assert!(inked_at(0.9, 0.0));
        // A page's grid in the photo's negative (a mostly dark photo is
        // searched so first): its cells are dark blocks, darker than the
        // bright lines around them, and its box is no paper.
        let g = draw_grid(1200, 1200, 500.0, 500.0, 200.0);
        let mut negative = g.clone();
        image::imageops::invert(&mut negative);
        let quad = Quad::new([
            (500.0, 500.0),
            (700.0, 500.0),
            (700.0, 700.0),
            (500.0, 700.0),
        ]);
        let (_, dark) = adaptive_threshold(&g, FINE_RADIUS_DIVISOR);
        assert!(inked(&g, &dark, &quad));
        let (_, dark) = adaptive_threshold(&negative, FINE_RADIUS_DIVISOR);
        assert!(!inked(&negative, &dark, &quad));
    }

    #[test]
    fn shapes_on_the_frame_are_no_grids_passed_over() {
        let dbg = search_image(GrayImage::new(100, 80), 2.0, RADIUS_DIVISOR);
        // On the left edge, inside, on the bottom and right edges.
        let boxes = [
            (0.0, 10.0, 20.0, 30.0),
            (10.0, 10.0, 30.0, 30.0),
            (50.0, 60.0, 100.0, 80.0),
        ];
        let kept = shapes(&boxes, &dbg);
        assert_eq!(kept.len(), 1, "{kept:?}");
        assert_eq!(kept[0].bounds(), (20.0, 20.0, 60.0, 60.0));
    }

    #[test]
    fn shapes_passed_over_count_when_grid_like() {
        let square = |x: f32, y: f32, w: f32, h: f32| {
            Quad::new([(x, y), (x + w, y), (x + w, y + h), (x, y + h)])
        };
        let grids = [square(100.0, 100.0, 300.0, 310.0)];
        // Another puzzle of the page, a stripe of the cloth cut off by
        // the paper, a text block, and the grid found again.
        let passed_over = [
            square(500.0, 100.0, 290.0, 300.0),
            square(0.0, 800.0, 110.0, 330.0),
            square(500.0, 500.0, 100.0, 60.0),
            square(102.0, 101.0, 300.0, 305.0),
        ];
        assert_eq!(unsearched(&grids, &passed_over), 1);
    }

    #[test]
    fn no_grid_in_blank_noise_or_text() {
        let blank = GrayImage::from_pixel(640, 480, Luma([200]));
        assert!(locate_all(&blank).is_empty());
        let mut s = 12345u32;
        let noise = GrayImage::from_fn(640, 480, |_, _| {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            Luma([(s >> 24) as u8])
        });
        assert!(locate_all(&noise).is_empty());
        // A "text page": rows of short dark dashes.
        let text = GrayImage::from_fn(640, 480, |x, y| {
            let line = y % 24 < 10 && (40..600).contains(&x) && (20..460).contains(&y);
            let word = (x / 7 + y / 24 * 3) % 9 != 0 && x % 7 < 5;
            Luma([if line && word { 30 } else { 230 }])
        });
        assert!(locate_all(&text).is_empty());
    }
}
