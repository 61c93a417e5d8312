//! Grids drawn upright in thin lines, found by their lattice alone: app
//! screens and video frames of them, where the search image loses the
//! lines (a 1 px line of a 1080 x 2400 screenshot keeps a third of its
//! contrast at the search's scale) and where there may be no outer border
//! to find (Material themes draw none, or tell the boxes apart by shading
//! and draw every line as thin as a cell line).
//!
//! On the full-resolution image, pixels across which the gray level
//! changes by [`MIN_CONTRAST`] are marked, per axis: a line marks the
//! pixels beside it, a shading step the pixels at it. Long runs of marks
//! along a column (row) are line candidates, and the runs that span one
//! extent are a lattice's lines: a grid's inner lines run from its top to
//! its bottom whether or not a border is drawn there. An extent spanned by
//! a few lines across and one spanned by a few lines down, of the same
//! length, outline a square; it is a grid when its n + 1 evenly spaced
//! lines are there on both axes, all but [`MAX_MISSING_LINES`] of them and
//! every box line. The outline then is the grid's border, drawn or not.
//!
//! Three looser ways find grids that are less sure (see [`LatticeGrid`]'s
//! `sure`): a lattice whose cell lines are gone is a grid when its box
//! lines are there, ending where its outline is, digits fill the middles
//! of enough of its cells and nothing crosses where its cell lines would
//! be (a highlighted row or a card of the grid's own shade hides a dark
//! theme's border, so none is asked for); a lattice
//! without a border is one when all but [`MAX_MISSING_INNER`] of its other
//! lines are there; and a second pass ([`Pass::Loose`]) takes lines whose
//! marks step a pixel sideways or run on past the extent they span.
//!
//! A dark theme's lines can be as faint as its cell lines' contrast
//! throughout, border and all: [`faint_lattice_grids`] marks every line
//! at that contrast, for the pipeline to look at where it reads no grid.

use image::GrayImage;

use crate::geometry::Quad;

/// Least change of gray level across a line or an edge for a pixel to be
/// marked: app themes draw cell lines 30-60 levels from their ground
/// (Material dividers are 12 % black on white, about 30), and a video
/// frame's blur halves a 1 px line's contrast; JPEG noise on flat ground
/// stays under 10.
const MIN_CONTRAST: i16 = 12;

/// Least change of gray level across a cell line where a lattice's box
/// lines, marked at [`MIN_CONTRAST`], put one: a video frame's blur leaves
/// an app's grey 1 px cell lines 8-9 levels under their ground, while its
/// box lines keep their contrast. JPEG noise marks some pixels at this
/// level too, but rarely a band along most of a line.
const CELL_LINE_CONTRAST: i16 = 6;

/// Shortest run of marks that may be a grid line, as a share of the
/// image's shorter side: a grid a person reads on a screen or a video
/// frame is at least an eighth of it across (a phone in a 16:9 video
/// frame: 0.4 of its height).
const MIN_RUN_SHARE: f32 = 0.12;

/// Unmarked pixels a run bridges: a line's antialiased or JPEG-blurred
/// pixels, and where a digit's stroke or a highlight meets it.
const RUN_GAP: usize = 3;

/// Gaps a run bridges as a share of its length: where a box line up to a
/// twentieth of the grid's side wide crosses it (apps draw box lines two
/// to four times as wide as cell lines, at most a fiftieth of the side).
const CROSSING_SHARE: f32 = 0.05;

/// Pixels within which run ends (or run positions) count as one.
const SAME_PX: usize = 3;

/// Most a line may run on past the ends of an extent, as a share of it,
/// and still count as spanning it: a border joined to a line of text or
/// a title bar just above the grid (a twentieth of its side); a frame
/// around the whole screen is a line of another extent.
const MAX_OVERRUN: f32 = 0.25;

/// Fewest lines (runs at distinct positions) that must span one extent
/// for it to be a lattice's: a 9x9's eight inner lines span it, and a
/// highlighted row or column may break a few of them.
const MIN_LINES_PER_EXTENT: usize = 3;

/// The two extents of a square differ by at most this share of its side
/// (plus [`SAME_PX`]): a border's width, antialiasing.
const SIDE_TOL: f32 = 0.03;

/// Half the width of the band, as a share of a cell, in which a lattice
/// line is looked for where the outline puts it: past a line's width and
/// the outline's error, short of a digit's strokes.
const LINE_BAND: f32 = 0.08;

/// A lattice line is there when its band is marked along this share of
/// the grid's extent: a highlighted cell or a digit touching the line may
/// hide it for a cell or two.
const MIN_COVERAGE: f32 = 0.7;

/// Most share of a lattice's cell pixels (away from its lines) marked
/// for it to be a grid: digits mark the edges of their strokes, and JPEG
/// ringing around them more (finished boards in video frames: up to 0.37
/// of the pixels looked at); a tinted or textured area marks nearly all
/// (a newspaper photo's halftone box shading: 0.79-0.94), and any lattice
/// fits it.
const MAX_CELL_MARKS: f32 = 0.5;

/// Share of a cell either side of its lines left out of [`cell_marks`]:
/// a line's width and its antialiased or blurred edge.
const CELL_MARGIN: f32 = 0.15;

/// Lattice lines of an axis that may be missing: the two borders of a
/// grid drawn without one. Box lines never are.
const MAX_MISSING_LINES: usize = 2;

/// Lines between the borders of an axis that may be missing on a grid
/// shown without its border: a video frame scales a phone's screen down
/// to a third and blurs it, which leaves a light theme's 1 px cell lines
/// at about [`CELL_LINE_CONTRAST`], and one of them may fall under it.
/// Grids so shown are less sure.
const MAX_MISSING_INNER: usize = 1;

/// Least share of a lattice's cells with ink in their middle (see
/// [`CELL_MIDDLE`]) for its box lines alone to make it a grid: a 9x9 with
/// one solution has at least 17 givens, a fifth of its cells. Where a
/// video frame has shrunk a phone's screen to a quarter, its 1 px cell
/// lines are gone (3-5 levels from their ground), while its box lines
/// keep 20-40 and its digits more; the digits, one in the middle of
/// each cell they fill and none across a cell line, show the cells.
const MIN_MIDDLE_INKED: f32 = 0.2;

/// The middle of a cell looked at for a digit's ink, as a share of the
/// cell either side of its centre: a printed digit is half to two thirds
/// of its cell high and a third wide.
const CELL_MIDDLE: f32 = 0.2;

/// Most share of a missing cell line along which ink crosses it (see
/// [`CROSSING_CONTRAST`]; away from the lines of the other axis) for its
/// box lines alone to make a lattice a grid: a digit never crosses a cell
/// line (it keeps a sixth of the cell away from it), and the video frames'
/// grids shown by their box lines measure 0-2 % (blurred pencil notes
/// beside a line); the lines of a lattice of another pitch (a crossword)
/// cross 7 %, an outline a cell off its grid's 10-30 %, and words in the
/// boxes of a table more.
const MAX_CROSSED: f32 = 0.03;

/// Least change of gray level along a missing cell line for ink to cross
/// it there: a digit's stroke changes it by 40-80 levels on the blurred
/// video frames measured, while a low-quality frame's JPEG ringing spreads
/// 12-17 levels through the 8 px block beside a digit, up to the cell line
/// a sixth of a cell away.
const CROSSING_CONTRAST: i16 = 2 * MIN_CONTRAST;

/// Most extents per axis looked at (the most spanned first): a screen has
/// a few grids at most, and each extent pairs with each of the other axis.
const MAX_EXTENTS: usize = 48;

/// Cells per side of the shapes looked for, with their box side.
const SHAPES: [(usize, usize); 2] = [(9, 3), (16, 4)];

/// A grid found by its lattice: outline in continuous full-resolution
/// pixels (corners tl, tr, br, bl), cells per side, and the share of its
/// lattice lines seen.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct LatticeGrid {
    pub quad: Quad,
    pub n: usize,
    pub score: f32,
    /// Whether its cell lines were seen where they stay on one position
    /// ([`Pass::Strict`]): a grid shown otherwise (by its box lines,
    /// border and digits alone, or by blurred lines) never stands in place
    /// of a grid the page search found.
    pub sure: bool,
}

/// Marks along one axis: `at(i, j)` for position `i` across the lines
/// (a column for vertical lines) and `j` along them.
struct Marks {
    across: usize,
    along: usize,
    bits: Vec<bool>,
}

impl Marks {
    /// Pixels across which `gray` changes by `contrast` in x (`vertical`:
    /// marks of vertical lines) or in y.
    fn of(gray: &GrayImage, vertical: bool, contrast: i16) -> Marks {
        let (across, along) = extents_of(gray, vertical);
        let mut bits = vec![false; across * along];
        // The first and last positions across have no pixel on one side.
        for i in 1..across.saturating_sub(1) {
            for j in 0..along {
                bits[i * along + j] = change(gray, vertical, i, j).abs() >= contrast;
            }
        }
        Marks {
            across,
            along,
            bits,
        }
    }

    fn at(&self, i: usize, j: usize) -> bool {
        self.bits[i * self.along + j]
    }

    /// Runs of marks along each position `i`, at least `min_len` long:
    /// `(i, start, end)`, end exclusive. Gaps of [`RUN_GAP`] are bridged,
    /// and so are gaps of at most [`CROSSING_SHARE`] of the run they join:
    /// where a thick line crosses a thin one, the thin line's marks stop
    /// for the thick line's width (each of a borderless grid's cell lines
    /// is cut in three by its box lines). `sideways`: the marks of the
    /// positions either side count too (see [`Pass::Loose`]).
    fn runs(&self, min_len: usize, sideways: bool) -> Vec<(usize, usize, usize)> {
        let mut out = Vec::new();
        let mut pieces: Vec<(usize, usize)> = Vec::new();
        let line = |i: usize| &self.bits[i * self.along..(i + 1) * self.along];
        let mut merged = vec![false; if sideways { self.along } else { 0 }];
        for i in 0..self.across {
            let row = if sideways {
                let (before, after) = (
                    line(i.saturating_sub(1)),
                    line((i + 1).min(self.across - 1)),
                );
                for (((m, &b), &a), &c) in merged.iter_mut().zip(before).zip(line(i)).zip(after) {
                    *m = b | a | c;
                }
                &merged[..]
            } else {
                line(i)
            };
            pieces.clear();
            for (j, &m) in row.iter().enumerate() {
                if !m {
                    continue;
                }
                match pieces.last_mut() {
                    Some(last) if j <= last.1 + RUN_GAP => last.1 = j + 1,
                    _ => pieces.push((j, j + 1)),
                }
            }
            let mut run: Option<(usize, usize)> = None;
            for &(s, e) in &pieces {
                run = match run {
                    Some((rs, re)) if (s - re) as f32 <= CROSSING_SHARE * (e - rs) as f32 => {
                        Some((rs, e))
                    }
                    Some((rs, re)) => {
                        if re - rs >= min_len {
                            out.push((i, rs, re));
                        }
                        Some((s, e))
                    }
                    None => Some((s, e)),
                };
            }
            if let Some((rs, re)) = run.filter(|&(rs, re)| re - rs >= min_len) {
                out.push((i, rs, re));
            }
        }
        out
    }

    /// Share of `from..to` along which the band `centre ± half` across is
    /// marked somewhere.
    fn coverage(&self, centre: f32, half: f32, from: usize, to: usize) -> f32 {
        band_coverage(
            (self.across, self.along),
            |i, j| self.at(i, j),
            centre,
            half,
            from,
            to,
        )
    }
}

/// `(across, along)` of `gray` for lines of one axis (`vertical`: columns
/// across, rows along).
fn extents_of(gray: &GrayImage, vertical: bool) -> (usize, usize) {
    let (w, h) = (gray.width() as usize, gray.height() as usize);
    if vertical {
        (w, h)
    } else {
        (h, w)
    }
}

/// How much `gray` changes across position `i` (a column for `vertical`)
/// at `j` along, `i` neither the first nor the last position across.
#[inline]
fn change(gray: &GrayImage, vertical: bool, i: usize, j: usize) -> i16 {
    let (w, raw) = (gray.width() as usize, gray.as_raw());
    let px = |x: usize, y: usize| i16::from(raw[y * w + x]);
    if vertical {
        px(i + 1, j) - px(i - 1, j)
    } else {
        px(j, i + 1) - px(j, i - 1)
    }
}

/// Share of `from..to` along which the band `centre ± half` across is
/// marked somewhere, `at(i, j)` saying whether a pixel is.
fn band_coverage(
    (across, along): (usize, usize),
    at: impl Fn(usize, usize) -> bool,
    centre: f32,
    half: f32,
    from: usize,
    to: usize,
) -> f32 {
    let lo = (centre - half).floor().max(0.0) as usize;
    let hi = ((centre + half).ceil() as usize).min(across.saturating_sub(1));
    if lo > hi || to <= from {
        return 0.0;
    }
    let to = to.min(along);
    let covered = (from..to).filter(|&j| (lo..=hi).any(|i| at(i, j))).count();
    covered as f32 / (to - from).max(1) as f32
}

/// Marks at [`CELL_LINE_CONTRAST`] made where they are looked at: only the
/// bands where a lattice's box lines put its cell lines are, a few of the
/// image's pixels.
struct FaintMarks<'a> {
    gray: &'a GrayImage,
    vertical: bool,
}

impl FaintMarks<'_> {
    /// [`Marks::coverage`] of these marks.
    fn coverage(&self, centre: f32, half: f32, from: usize, to: usize) -> f32 {
        let (across, along) = extents_of(self.gray, self.vertical);
        let at = |i: usize, j| {
            (1..across.saturating_sub(1)).contains(&i)
                && change(self.gray, self.vertical, i, j).abs() >= CELL_LINE_CONTRAST
        };
        band_coverage((across, along), at, centre, half, from, to)
    }
}

/// An extent spanned by runs: its ends and the distinct positions of the
/// runs that span it.
struct Extent {
    start: usize,
    end: usize,
    lines: Vec<usize>,
}

/// The extents that [`MIN_LINES_PER_EXTENT`] runs span, the most spanned
/// first, at most [`MAX_EXTENTS`]. `overrun`: a run that goes on past an
/// extent's ends spans it too (see [`Pass::Loose`]). `pairs`: so do two
/// runs a whole number of boxes apart ([`boxes_apart`]).
fn extents(mut runs: Vec<(usize, usize, usize)>, overrun: bool, pairs: bool) -> Vec<Extent> {
    runs.sort_by_key(|&(i, s, e)| (s, e, i));
    let mut out: Vec<Extent> = Vec::new();
    for &(i, s, e) in &runs {
        let near = |a: usize, b: usize| a.abs_diff(b) <= SAME_PX;
        match out.iter_mut().find(|x| near(x.start, s) && near(x.end, e)) {
            Some(x) => {
                if x.lines.iter().all(|&p| p.abs_diff(i) > SAME_PX) {
                    x.lines.push(i);
                }
            }
            None => out.push(Extent {
                start: s,
                end: e,
                lines: vec![i],
            }),
        }
    }
    for x in out.iter_mut().filter(|_| overrun) {
        let length = x.end - x.start;
        // `runs` are sorted by start: only those starting from the most
        // overrun before this extent up to its own start can span it.
        let earliest = x
            .start
            .saturating_sub((MAX_OVERRUN * length as f32) as usize);
        let from = runs.partition_point(|&(_, s, _)| s < earliest);
        let to = runs.partition_point(|&(_, s, _)| s <= x.start + SAME_PX);
        for &(i, s, e) in &runs[from..to] {
            let covers = s <= x.start + SAME_PX && e + SAME_PX >= x.end;
            let over = (x.start.saturating_sub(s) + e.saturating_sub(x.end)) as f32;
            if covers
                && over <= MAX_OVERRUN * length as f32
                && x.lines.iter().all(|&p| p.abs_diff(i) > SAME_PX)
            {
                x.lines.push(i);
            }
        }
    }
    out.retain(|x| x.lines.len() >= MIN_LINES_PER_EXTENT || pairs && boxes_apart(x));
    out.sort_by(|a, b| {
        b.lines
            .len()
            .cmp(&a.lines.len())
            .then(a.start.cmp(&b.start))
    });
    out.truncate(MAX_EXTENTS);
    out
}

/// Whether `x` is spanned by two lines a whole number of boxes apart for
/// one of [`SHAPES`].
fn boxes_apart(x: &Extent) -> bool {
    let [a, b] = x.lines[..] else {
        return false;
    };
    let (length, apart) = ((x.end - x.start) as f32, a.abs_diff(b) as f32);
    let tol = SIDE_TOL * length + SAME_PX as f32;
    SHAPES.iter().any(|&(n, box_side)| {
        let boxes = n / box_side;
        (1..boxes).any(|k| (apart - length * k as f32 / boxes as f32).abs() <= tol)
    })
}

/// The lattice lines of one axis seen, every box line among them: how
/// many of the `n + 1`.
struct LinesSeen {
    seen: usize,
    /// Of the `n - 1` lines between the borders.
    inner: usize,
}

/// Which of the `n + 1` lattice lines from `first` to `last` (across the
/// lines) are marked along `from..to`: the box lines (side `box_side`) and
/// the borders in `marks`, the cell lines in `faint` (marked at
/// [`CELL_LINE_CONTRAST`]). `None` when a box line is missing: every grid
/// has its box lines, and most lattices looked at (any two extents of
/// about one length) miss one, so they are looked for first.
fn lattice_lines(
    (marks, faint): (&Marks, &FaintMarks),
    (first, last): (f32, f32),
    (from, to): (usize, usize),
    (n, box_side): (usize, usize),
) -> Option<LinesSeen> {
    let pitch = (last - first) / n as f32;
    let half = (pitch * LINE_BAND).max(1.0);
    let covered = |k: usize| {
        let centre = first + k as f32 * pitch;
        if k.is_multiple_of(box_side) {
            marks.coverage(centre, half, from, to)
        } else {
            faint.coverage(centre, half, from, to)
        }
    };
    if (box_side..n)
        .step_by(box_side)
        .any(|k| covered(k) < MIN_COVERAGE)
    {
        return None;
    }
    let inner_box = |k: usize| k.is_multiple_of(box_side) && k != 0 && k != n;
    let mut lines = LinesSeen { seen: 0, inner: 0 };
    for k in 0..=n {
        let there = inner_box(k) || covered(k) >= MIN_COVERAGE;
        lines.seen += usize::from(there);
        if k != 0 && k != n {
            lines.inner += usize::from(there);
        }
    }
    Some(lines)
}

/// Whether ink crosses none of the cell lines (not box lines) of the `n`
/// x `n` lattice `(left, top)`-`(right, bottom)` of `gray` where they are
/// missing, both ways: along each, the share of rows (columns) away from
/// the other axis's lattice lines (by [`CELL_MARGIN`] of a cell) where the
/// gray level changes along the line by [`CROSSING_CONTRAST`] somewhere in
/// its band is at most [`MAX_CROSSED`]. A cell line drawn, or a shading
/// step along it, changes the level across the line, not along it: not
/// ink crossing it.
fn uncrossed(
    gray: &GrayImage,
    (left, top): (f32, f32),
    (right, bottom): (f32, f32),
    (n, box_side): (usize, usize),
) -> bool {
    // `vertical`: the lattice's vertical lines, crossed by changes in y.
    let axis = |vertical: bool, (first, last): (f32, f32), (from, to): (f32, f32)| {
        let (across, along) = extents_of(gray, vertical);
        let pitch = (last - first) / n as f32;
        let other_pitch = (to - from) / n as f32;
        let half = (pitch * LINE_BAND).max(1.0);
        let away = |j: usize| {
            let f = fract((j as f32 + 0.5 - from) / other_pitch);
            (CELL_MARGIN..1.0 - CELL_MARGIN).contains(&f)
        };
        // Changes along a line are taken between its neighbours along it.
        let (lo, hi) = (
            from.max(1.0) as usize,
            (to as usize).min(along.saturating_sub(1)),
        );
        (1..n).filter(|k| k % box_side != 0).all(|k| {
            let centre = first + k as f32 * pitch;
            let (b0, b1) = (
                (centre - half).floor().max(0.0) as usize,
                ((centre + half).ceil() as usize).min(across.saturating_sub(1)),
            );
            let (mut crossed, mut looked) = (0usize, 0usize);
            for j in (lo..hi).filter(|&j| away(j)) {
                looked += 1;
                crossed += usize::from(
                    (b0..=b1).any(|i| change(gray, !vertical, j, i).abs() >= CROSSING_CONTRAST),
                );
            }
            crossed as f32 <= MAX_CROSSED * looked.max(1) as f32
        })
    };
    axis(true, (left, right), (top, bottom)) && axis(false, (top, bottom), (left, right))
}

/// Share of the `n` x `n` lattice's cells with a mark (either axis) in
/// their middle ([`CELL_MIDDLE`]).
fn middles_inked(
    (vertical, horizontal): (&Marks, &Marks),
    (left, top): (f32, f32),
    (right, bottom): (f32, f32),
    n: usize,
) -> f32 {
    let (pitch_x, pitch_y) = ((right - left) / n as f32, (bottom - top) / n as f32);
    let mut inked = 0;
    for r in 0..n {
        for c in 0..n {
            let (cx, cy) = (
                left + (c as f32 + 0.5) * pitch_x,
                top + (r as f32 + 0.5) * pitch_y,
            );
            let (x0, x1) = (
                (cx - CELL_MIDDLE * pitch_x).max(0.0) as usize,
                ((cx + CELL_MIDDLE * pitch_x) as usize).min(vertical.across),
            );
            let (y0, y1) = (
                (cy - CELL_MIDDLE * pitch_y).max(0.0) as usize,
                ((cy + CELL_MIDDLE * pitch_y) as usize).min(vertical.along),
            );
            let marked =
                (y0..y1).any(|y| (x0..x1).any(|x| vertical.at(x, y) || horizontal.at(y, x)));
            inked += usize::from(marked);
        }
    }
    inked as f32 / (n * n) as f32
}

/// The fractional part of `v`, which is at least 0 and below 2^32 (a
/// position in cells): `f32::fract` is a call into libm on the baseline
/// x86-64 target, and the lattice checks take it at every other pixel of
/// each square they look at.
fn fract(v: f32) -> f32 {
    v - (v as u32) as f32
}

/// Share of the pixels of the cells of the `n` x `n` lattice from
/// `(left, top)` to `(right, bottom)`, away from its lines (by
/// [`CELL_MARGIN`] of a cell), that are marked on either axis; every
/// second pixel each way is looked at.
fn cell_marks(
    vertical: &Marks,
    horizontal: &Marks,
    (left, top): (f32, f32),
    (right, bottom): (f32, f32),
    n: usize,
) -> f32 {
    let (pitch_x, pitch_y) = ((right - left) / n as f32, (bottom - top) / n as f32);
    let inner = |p: f32, first: f32, pitch: f32| {
        let f = fract((p - first) / pitch);
        (CELL_MARGIN..1.0 - CELL_MARGIN).contains(&f)
    };
    let (mut marked, mut looked) = (0usize, 0usize);
    let (x0, x1) = (
        left.max(0.0) as usize,
        (right as usize).min(vertical.across),
    );
    let (y0, y1) = (top.max(0.0) as usize, (bottom as usize).min(vertical.along));
    // The columns looked at, found once rather than on every row.
    let columns: Vec<usize> = (x0..x1)
        .step_by(2)
        .filter(|&x| inner(x as f32 + 0.5, left, pitch_x))
        .collect();
    for y in (y0..y1).step_by(2) {
        if !inner(y as f32 + 0.5, top, pitch_y) {
            continue;
        }
        for &x in &columns {
            looked += 1;
            marked += usize::from(vertical.at(x, y) || horizontal.at(y, x));
        }
    }
    marked as f32 / looked.max(1) as f32
}

/// How a lattice's lines are looked for.
#[derive(Clone, Copy, PartialEq)]
enum Pass {
    /// A line is a run of marks at one position spanning its extent
    /// exactly: an app's lines, drawn on the pixel grid.
    Strict,
    /// A line's marks may step a position sideways along it, and it may
    /// run on past its extent's ends: blur puts a thin line's or a shading
    /// step's largest change on either of two positions, which one
    /// changing from box to box, and a grid's border joins the title or
    /// the frame that touches it (see [`MAX_OVERRUN`]). Grids found so
    /// are less sure.
    Loose,
}

/// The marks of an image, both axes, at both contrasts, and whether an
/// extent two lines span counts (see [`extents`]).
struct LatticeMarks<'a> {
    vertical: Marks,
    horizontal: Marks,
    faint_vertical: FaintMarks<'a>,
    faint_horizontal: FaintMarks<'a>,
    pairs: bool,
}

/// The grids of `gray` its lattices alone show (see the module doc), the
/// best first, none overlapping another: the sure ones first (cell lines
/// seen, by [`Pass::Strict`]), then the others where no sure one is.
pub(super) fn lattice_grids(gray: &GrayImage) -> Vec<LatticeGrid> {
    lattice_grids_at(gray, MIN_CONTRAST, false)
}

/// [`lattice_grids`] with every line and shading step marked at
/// [`CELL_LINE_CONTRAST`]: dark Material themes draw their cell lines and
/// border 6-8 levels from their ground and tell the boxes apart by
/// shading, so the lines of a lattice are marked only at the cell lines'
/// contrast. Not a replacement for [`lattice_grids`]: on a light screen
/// or a video frame, JPEG noise and blurred text mark enough at that
/// contrast to make extents of no grid, which crowd out the grid's own
/// (of [`MAX_EXTENTS`]).
///
/// An extent spanned by two lines a whole number of boxes apart counts
/// here: a grid whose boxes are told apart by shading alone, on a card
/// with rounded corners, shows two lines across its whole side, the
/// shading steps of its box lines; its border, cut short by the corners,
/// spans less. Not in [`lattice_grids`]: there two box lines of a
/// photographed page's grid, a little tilted, make a lattice that places
/// it upright, less well than the page search does.
pub(super) fn faint_lattice_grids(gray: &GrayImage) -> Vec<LatticeGrid> {
    lattice_grids_at(gray, CELL_LINE_CONTRAST, true)
}

/// [`lattice_grids`] with lines and steps marked at `contrast`, extents
/// that two lines span counted if `pairs`.
fn lattice_grids_at(gray: &GrayImage, contrast: i16, pairs: bool) -> Vec<LatticeGrid> {
    let (w, h) = (gray.width() as usize, gray.height() as usize);
    let min_len = (w.min(h) as f32 * MIN_RUN_SHARE).ceil() as usize;
    if min_len < 2 * SAME_PX {
        return Vec::new();
    }
    let marks = LatticeMarks {
        vertical: Marks::of(gray, true, contrast),
        horizontal: Marks::of(gray, false, contrast),
        faint_vertical: FaintMarks {
            gray,
            vertical: true,
        },
        faint_horizontal: FaintMarks {
            gray,
            vertical: false,
        },
        pairs,
    };
    let mut looked_at = std::collections::HashSet::new();
    let mut found = grids_of(&marks, min_len, Pass::Strict, &mut looked_at);
    found.append(&mut grids_of(&marks, min_len, Pass::Loose, &mut looked_at));
    found.sort_by(|a, b| {
        b.sure
            .cmp(&a.sure)
            .then(b.score.total_cmp(&a.score))
            .then(b.quad.area().abs().total_cmp(&a.quad.area().abs()))
    });
    let mut kept: Vec<LatticeGrid> = Vec::new();
    for g in found {
        if kept.iter().all(|k| !overlaps(&k.quad, &g.quad)) {
            kept.push(g);
        }
    }
    kept
}

/// The grids the lattices of `marks` show, lines looked for as `pass`
/// says, runs at least `min_len` long. `looked_at` holds the squares
/// (extents down and across) the strict pass has judged; the loose pass
/// judges each only once (what a square shows does not depend on the runs
/// that named it).
fn grids_of(
    marks: &LatticeMarks,
    min_len: usize,
    pass: Pass,
    looked_at: &mut std::collections::HashSet<[usize; 4]>,
) -> Vec<LatticeGrid> {
    let loose = pass == Pass::Loose;
    let LatticeMarks {
        vertical,
        horizontal,
        faint_vertical,
        faint_horizontal,
        pairs,
    } = marks;
    let gray = faint_vertical.gray;
    // Vertical lines span the grid's rows (their extent is top..bottom),
    // horizontal ones its columns.
    let downs = extents(vertical.runs(min_len, loose), loose, *pairs);
    let acrosses = extents(horizontal.runs(min_len, loose), loose, *pairs);
    let mut found: Vec<LatticeGrid> = Vec::new();
    for down in &downs {
        for across in &acrosses {
            let (side_y, side_x) = (
                (down.end - down.start) as f32,
                (across.end - across.start) as f32,
            );
            let tol = SIDE_TOL * side_x.max(side_y) + SAME_PX as f32;
            let inside = |p: usize, a: usize, b: usize| p + SAME_PX >= a && p <= b + SAME_PX;
            if (side_x - side_y).abs() > tol
                || !down
                    .lines
                    .iter()
                    .any(|&x| inside(x, across.start, across.end))
                || !across
                    .lines
                    .iter()
                    .any(|&y| inside(y, down.start, down.end))
            {
                continue;
            }
            let square = [down.start, down.end, across.start, across.end];
            if loose && looked_at.contains(&square) {
                continue;
            }
            looked_at.insert(square);
            // Continuous pixels: a run's first pixel starts at its index.
            let (left, right) = (across.start as f32, across.end as f32);
            let (top, bottom) = (down.start as f32, down.end as f32);
            for (n, box_side) in SHAPES {
                let Some(x) = lattice_lines(
                    (vertical, faint_vertical),
                    (left, right),
                    (down.start, down.end),
                    (n, box_side),
                ) else {
                    continue;
                };
                let Some(y) = lattice_lines(
                    (horizontal, faint_horizontal),
                    (top, bottom),
                    (across.start, across.end),
                    (n, box_side),
                ) else {
                    continue;
                };
                let enough = |seen: usize| seen + MAX_MISSING_LINES > n;
                let pair = (vertical, horizontal);
                let cell_lines = enough(x.seen) && enough(y.seen);
                // A grid without a border, its cell lines seen.
                let inner = |seen: usize| seen + MAX_MISSING_INNER + 1 >= n;
                let inner_lines = inner(x.inner) && inner(y.inner);
                // Box lines alone, ending at the outline, their cells
                // shown by digits.
                let by_boxes = || {
                    middles_inked(pair, (left, top), (right, bottom), n) >= MIN_MIDDLE_INKED
                        && uncrossed(gray, (left, top), (right, bottom), (n, box_side))
                };
                // The cells' marks last: they cost a look at every other
                // pixel of the square.
                if !cell_lines && !inner_lines && !by_boxes()
                    || cell_marks(vertical, horizontal, (left, top), (right, bottom), n)
                        > MAX_CELL_MARKS
                {
                    continue;
                }
                found.push(LatticeGrid {
                    quad: Quad::new([(left, top), (right, top), (right, bottom), (left, bottom)]),
                    n,
                    score: (x.seen + y.seen) as f32 / (2 * (n + 1)) as f32,
                    sure: cell_lines && !loose,
                });
            }
        }
    }
    found
}

/// Whether two outlines' bounding boxes share any area.
fn overlaps(a: &Quad, b: &Quad) -> bool {
    let ((ax0, ay0, ax1, ay1), (bx0, by0, bx1, by1)) = (a.bounds(), b.bounds());
    ax0 < bx1 && bx0 < ax1 && ay0 < by1 && by0 < ay1
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    /// A screen of `ground` with a 9x9 lattice of side `side` at (x0, y0):
    /// 1 px cell lines and `box_w` px box lines of `line`, the border drawn
    /// or not, and a few "digits" (blocks) in cells.
    fn screen(ground: u8, line: u8, border: bool, box_w: u32) -> (GrayImage, (f32, f32, f32)) {
        faint_screen(ground, line, line, border, box_w)
    }

    /// [`screen`] with cell lines of `cell_line`.
    fn faint_screen(
        ground: u8,
        line: u8,
        cell_line: u8,
        border: bool,
        box_w: u32,
    ) -> (GrayImage, (f32, f32, f32)) {
        let (w, h, x0, y0, side) = (540u32, 1000u32, 60u32, 300u32, 414u32);
        let mut img = GrayImage::from_pixel(w, h, Luma([ground]));
        let cell = side as f32 / 9.0;
        for k in 0..=9u32 {
            if !border && (k == 0 || k == 9) {
                continue;
            }
            let p = (k as f32 * cell).round() as u32;
            let (width, ink) = if k % 3 == 0 {
                (box_w, line)
            } else {
                (1, cell_line)
            };
            for d in 0..width {
                let at = (p + d).saturating_sub(width / 2).min(side - 1);
                for t in 0..side {
                    img.put_pixel(x0 + at, y0 + t, Luma([ink]));
                    img.put_pixel(x0 + t, y0 + at, Luma([ink]));
                }
            }
        }
        let at = (x0 as f32, y0 as f32, side as f32);
        digits(
            &mut img,
            at,
            &[(0, 0), (1, 4), (4, 4), (7, 2), (8, 8)],
            line / 2,
        );
        (img, at)
    }

    /// "Digits" (blocks of `ink`) in `cells` of the 9x9 at `(x0, y0, side)`.
    fn digits(img: &mut GrayImage, (x0, y0, side): (f32, f32, f32), cells: &[(u32, u32)], ink: u8) {
        let cell = side / 9.0;
        for &(r, c) in cells {
            let (cx, cy) = (x0 + (c as f32 + 0.35) * cell, y0 + (r as f32 + 0.3) * cell);
            for dy in 0..14 {
                for dx in 0..10 {
                    img.put_pixel(cx as u32 + dx, cy as u32 + dy, Luma([ink]));
                }
            }
        }
    }

    /// Cells in a fifth of a 9x9 and more: every fourth cell.
    fn givens() -> Vec<(u32, u32)> {
        (0..81u32).step_by(4).map(|i| (i / 9, i % 9)).collect()
    }

    fn assert_outline(found: &[LatticeGrid], (x0, y0, side): (f32, f32, f32)) {
        assert_eq!(found.len(), 1, "{found:?}");
        let g = found[0];
        assert_eq!(g.n, 9);
        let want = [
            (x0, y0),
            (x0 + side, y0),
            (x0 + side, y0 + side),
            (x0, y0 + side),
        ];
        for (got, want) in g.quad.corners.iter().zip(want) {
            assert!(
                (got.0 - want.0).abs() <= 3.0 && (got.1 - want.1).abs() <= 3.0,
                "{g:?}"
            );
        }
    }

    #[test]
    fn a_screen_grid_is_found_with_its_border_or_without() {
        let (img, at) = screen(250, 210, true, 3);
        assert_outline(&lattice_grids(&img), at);
        // A dark theme's borderless grid: light lines on dark ground, the
        // border placed where the inner lines end.
        let (img, at) = screen(20, 70, false, 3);
        assert_outline(&lattice_grids(&img), at);
    }

    #[test]
    fn a_blurred_frames_faint_cell_lines_count_where_its_box_lines_put_them() {
        // Box lines 60 levels under the ground, cell lines 8 (a video
        // frame's blur).
        let (img, at) = faint_screen(250, 190, 242, true, 3);
        assert_outline(&lattice_grids(&img), at);
        // Without the box lines' contrast, cell lines that faint are none.
        let (img, _) = faint_screen(250, 242, 242, true, 3);
        assert!(lattice_grids(&img).is_empty());
    }

    #[test]
    fn box_lines_and_digits_show_a_grid_whose_cell_lines_are_gone() {
        // A video frame of a phone's screen shrunk to a quarter: the cell
        // lines are at the ground's level, box lines and border 60 under.
        let (mut img, at) = faint_screen(250, 190, 250, true, 3);
        assert!(lattice_grids(&img).is_empty(), "five digits show no cells");
        digits(&mut img, at, &givens(), 95);
        let found = lattice_grids(&img);
        assert_outline(&found, at);
        assert!(!found[0].sure);
        // Without its border (a highlighted row or a card of the grid's
        // shade hides it) the box lines end where the outline is.
        let (mut img, at) = faint_screen(250, 190, 250, false, 3);
        assert!(
            lattice_grids(&img).is_empty(),
            "box lines alone are no grid"
        );
        digits(&mut img, at, &givens(), 95);
        assert_outline(&lattice_grids(&img), at);
        // A low-quality JPEG's ringing beside the digits, 15 levels, on
        // the missing cell lines along a fifth of them, crosses none.
        let (x0, y0, side) = at;
        for k in (1..9u32).filter(|k| k % 3 != 0) {
            let x = x0 as u32 + (k as f32 * side / 9.0).round() as u32;
            for y in (y0 as u32..(y0 + side) as u32).step_by(5) {
                for dx in 0..3 {
                    img.put_pixel(x + dx - 1, y, Luma([235]));
                }
            }
        }
        assert_outline(&lattice_grids(&img), at);
    }

    /// `img` with the vertical cell line `k` of the 9x9 at `(x0, y0,
    /// side)` painted over in `ground`.
    fn erase_column(img: &mut GrayImage, (x0, y0, side): (f32, f32, f32), k: u32, ground: u8) {
        let x = x0 as u32 + (k as f32 * side / 9.0).round() as u32;
        for y in y0 as u32..(y0 + side) as u32 {
            img.put_pixel(x, y, Luma([ground]));
        }
    }

    #[test]
    fn a_borderless_grid_missing_one_cell_line_is_found_less_sure() {
        // A video frame's light theme: one cell line blurred away.
        let (mut img, at) = screen(250, 190, false, 3);
        erase_column(&mut img, at, 4, 250);
        let found = lattice_grids(&img);
        assert_outline(&found, at);
        assert!(!found[0].sure);
        // Two are more than blur takes from a grid.
        erase_column(&mut img, at, 5, 250);
        assert!(lattice_grids(&img).is_empty());
        // A grid with its border is not looked at so: its lines must be
        // there as they are on a screen.
        let (mut img, at) = screen(250, 190, true, 3);
        erase_column(&mut img, at, 4, 250);
        erase_column(&mut img, at, 5, 250);
        erase_column(&mut img, at, 7, 250);
        assert!(lattice_grids(&img).is_empty());
    }

    #[test]
    fn a_dark_themes_lattice_is_found_at_its_cell_lines_contrast() {
        // Lines and border 7 levels over a dark ground, as a dark
        // Material theme draws them.
        let (img, at) = faint_screen(52, 59, 59, true, 1);
        assert!(lattice_grids(&img).is_empty());
        let found = faint_lattice_grids(&img);
        assert_outline(&found, at);
        assert!(found[0].sure);
        // Lines under that contrast are none.
        let (img, _) = faint_screen(52, 56, 56, true, 1);
        assert!(faint_lattice_grids(&img).is_empty());
    }

    #[test]
    fn a_grid_shaded_box_by_box_is_found_by_its_two_box_steps() {
        // A dark theme without lines: every other box 22 levels lighter
        // than the card, the others of the card's shade, so the border is
        // drawn only along the lighter boxes and the two steps between box
        // columns (rows) alone span the grid's side.
        let (card, light) = (46u8, 68u8);
        let (x0, y0, side) = (60u32, 300u32, 414u32);
        let mut img = GrayImage::from_pixel(540, 1000, Luma([card]));
        let boxed = side / 3;
        for y in 0..side {
            for x in 0..side {
                if (x / boxed + y / boxed) % 2 == 0 {
                    img.put_pixel(x0 + x, y0 + y, Luma([light]));
                }
            }
        }
        let at = (x0 as f32, y0 as f32, side as f32);
        assert!(
            faint_lattice_grids(&img).is_empty(),
            "shading alone is no grid"
        );
        digits(&mut img, at, &givens(), 200);
        assert!(lattice_grids(&img).is_empty());
        assert_outline(&faint_lattice_grids(&img), at);
    }

    #[test]
    fn a_table_of_three_by_three_with_words_across_its_cells_is_no_grid() {
        // Box lines and border as a grid's, but each box holds lines of
        // "words" (blocks 4 px wide, 8 high, 3 apart) from side to side.
        let (mut img, (x0, y0, side)) = faint_screen(250, 190, 250, true, 3);
        let box_side = side / 3.0;
        for b in 0..3u32 {
            for line in 0..5u32 {
                let y = y0 + b as f32 * box_side + 12.0 + line as f32 * 25.0;
                let mut x = x0 + 6.0;
                while x < x0 + side - 10.0 {
                    for dy in 0..8 {
                        for dx in 0..4 {
                            img.put_pixel(x as u32 + dx, y as u32 + dy, Luma([60]));
                        }
                    }
                    x += 7.0;
                }
            }
        }
        assert!(lattice_grids(&img).is_empty());
    }

    #[test]
    fn a_line_whose_step_moves_a_pixel_from_box_to_box_is_one_line() {
        // Shaded boxes (a Material theme) in a blurred frame: each box
        // line is a step of 15 levels whose largest change falls a pixel
        // to the left in some boxes and to the right in others.
        let (w, h, x0, y0, side) = (540u32, 1000u32, 60u32, 300u32, 414u32);
        let mut img = GrayImage::from_pixel(w, h, Luma([250]));
        let cell = side as f32 / 9.0;
        let edge = |k: u32, shift: u32| (k as f32 * 3.0 * cell) as u32 + shift;
        for y in 0..side {
            for x in 0..side {
                let (bx, by) = (
                    (x as f32 / (3.0 * cell)) as u32,
                    (y as f32 / (3.0 * cell)) as u32,
                );
                // The step sits one pixel later in the middle row of boxes.
                let shift = u32::from(by == 1);
                let bx = (0..=3)
                    .rev()
                    .find(|&k| x >= edge(k, shift))
                    .unwrap_or(bx)
                    .min(2);
                if (bx + by) % 2 == 0 {
                    img.put_pixel(x0 + x, y0 + y, Luma([235]));
                }
            }
        }
        // A border and faint cell lines, as the theme draws them.
        for k in 0..=9u32 {
            let p = ((k as f32 * cell) as u32).min(side - 1);
            for t in 0..side {
                let ink = if k % 3 == 0 { 190 } else { 228 };
                if k == 0 || k == 9 || k % 3 != 0 {
                    img.put_pixel(x0 + p, y0 + t, Luma([ink]));
                    img.put_pixel(x0 + t, y0 + p, Luma([ink]));
                }
            }
        }
        let at = (x0 as f32, y0 as f32, side as f32);
        digits(&mut img, at, &givens(), 60);
        assert_outline(&lattice_grids(&img), at);
    }

    #[test]
    fn a_border_joined_to_a_title_still_spans_its_grid() {
        // A line of "text" touches the top border at both ends, so the
        // border's runs go on 30 px past the grid's top.
        let (mut img, at @ (x0, y0, side)) = screen(250, 190, true, 3);
        for x in [x0 as u32, (x0 + side) as u32 - 1] {
            for y in y0 as u32 - 30..y0 as u32 {
                img.put_pixel(x, y, Luma([190]));
            }
        }
        assert_outline(&lattice_grids(&img), at);
    }

    #[test]
    fn cell_lines_cut_by_wide_box_lines_are_one_line_each() {
        // Box lines 8 px wide stop each cell line's marks three times:
        // the runs join across them, and the grid is found.
        let (img, at) = screen(245, 200, false, 8);
        assert_outline(&lattice_grids(&img), at);
    }

    #[test]
    fn no_grid_in_a_blank_screen_a_table_or_a_crossword() {
        assert!(lattice_grids(&GrayImage::from_pixel(400, 700, Luma([240]))).is_empty());
        // A lattice of 15 cells a side: its lines do not fall where a 9x9's
        // or a 16x16's would, but at a quarter of them.
        let mut img = GrayImage::from_pixel(500, 500, Luma([250]));
        for k in 0..=15u32 {
            let p = 25 + k * 30;
            for t in 25..476 {
                img.put_pixel(p.min(475), t, Luma([40]));
                img.put_pixel(t, p.min(475), Luma([40]));
            }
        }
        assert!(lattice_grids(&img).is_empty());
        // A halftone tint (a newspaper's shaded box): every column and row
        // of it is marked, so every lattice's lines are "there".
        let mut img = GrayImage::from_pixel(500, 500, Luma([250]));
        for y in 100..400u32 {
            for x in (100..400u32).filter(|x| (x + y) % 3 == 0) {
                img.put_pixel(x, y, Luma([90]));
            }
        }
        assert!(lattice_grids(&img).is_empty());
    }
}
