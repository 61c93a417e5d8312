//! Verification: does a candidate quad hold the lines of an n x n grid
//! (9x9, or 16x16)?
//!
//! Every pixel of the quad is mapped into a square of side `n * cell`
//! (bins about one pixel wide, so 1 px lines are never skipped and keep a
//! high ink fraction) and counted into column and row profiles of ink
//! fraction. In each profile the best (n+1)-line *comb* (start `a`, pitch `p`)
//! is searched; its score is the mean line strength minus the clutter
//! between the lines and minus any line just outside the comb (a
//! crossword's extra lines). A 9x9 printed with hairlines fainter than its
//! digits is found by its box lines instead, its thin lines checked as
//! small peaks where they belong ([`box_comb`]). Between sizes, the better
//! score wins; the box lines (every 3rd of a 9x9, every 4th of a 16x16)
//! are printed thicker, which [`Verdict::boxes`] measures and a near tie
//! is decided by; a 9x9 comb that has them a line off its own box teeth
//! lies a line off its grid and does not pass ([`off_by_lines`]). A comb
//! that nearly passed is looked for once more with each axis's lines
//! followed where a curled page bends them ([`bent`]).

use std::cell::RefCell;
use std::rc::Rc;

use image::GrayImage;

use super::sides::{expand, frame_sides, on_frame};
use super::{FRAME_TOL, MIN_SCORE, MIN_SCORE_AT_FRAME, RECHECK_GROWTH};
use crate::geometry::{dist, round_i32, Homography, Quad};

/// Cells per side of the grids looked for.
pub(super) const SIZES: [usize; 2] = [9, 16];

/// Bins per cell in the profiles: the quad's side / n, clamped so tiny
/// candidates still have room for a line tolerance and huge ones do not
/// cost more than needed.
pub(super) const MIN_BIN_CELL: usize = 8;
/// Upper clamp of the bins per cell.
pub(super) const MAX_BIN_CELL: usize = 64;

/// A 9x9 grid is square on paper: in the photo its sides differ by
/// perspective only, well under this ratio. A long thin "grid" is part of
/// one cut by the frame (its comb matched digits) or a table.
const MAX_SIDE_RATIO: f32 = 1.45;

/// Tolerance for a line's position, as a fraction of a cell (curl and the
/// hull's perspective error move lines by a few percent of a cell).
pub(super) const LINE_TOL: f32 = 0.1;

/// The comb spans at least this fraction of the candidate. The hull is the
/// grid, or the grid plus a little clutter (text or a frame touching it);
/// smaller pitches (down to 0.6 of the hull) fit digit columns inside half
/// a grid; 0.8 keeps the slack for clutter and refuses half-grids.
const MIN_SPAN: f32 = 0.8;

/// Bands across the lines in which the comb's outer lines are located
/// again for their tilt (see [`Tilt::borders`]): the three stacks of boxes
/// of a 9x9, each crossing every line of the other axis; two would do for a
/// straight line, and with three one band left out (too few teeth, or its
/// line too far from the whole comb's) still leaves one.
const TILT_BANDS: usize = 3;

/// Segments along the lines, for the box-line check's thin lines (see
/// [`box_comb`]): one per cell of a 9x9, three to a tilt band.
const SEGMENTS: usize = 3 * TILT_BANDS;

/// In the box-line check, a thin line must show in at least this many of
/// the [`SEGMENTS`]: a printed line runs the grid's whole length (a digit
/// may cover it in a cell or two), while the digits in a table of numbers,
/// whose tops and strokes can line up like a faint line in the whole
/// profile, fill only some of its cells.
const MIN_THIN_SEGMENTS: usize = SEGMENTS - 2;

/// In the box-line check, one thin line of an axis may go unseen when the
/// box lines end where the whole comb's lines do (see
/// [`box_lines_confirmed`]): a blurred hairline between two rows of bold
/// digits hardly rises above them (the row under a line of five clues),
/// while the other five still show. Two unseen lines would let a comb of
/// the wrong pitch pass on digits alone.
const MAX_UNSEEN_THIN: usize = 1;

/// The box lines end where the whole comb's do (see [`MAX_UNSEEN_THIN`])
/// when both outer lines are within this many line tolerances: the two
/// combs found the same grid, and the thin lines only decide its score.
const AGREE_TOLS: usize = 2;

/// The box-line check is for grids whose thin lines are much fainter than
/// their box lines: their mean prominence at most this share of the box
/// lines'. Where they are alike, the full comb sees the grid, and a
/// uniform lattice (a table's rules) has no box lines to go by.
const MAX_THIN_SHARE: f32 = 0.8;

/// A band's teeth are looked for this many line tolerances each way of
/// the whole comb's: a tilt of half a cell end to end puts the bands'
/// lines a sixth of a cell either side, beyond one tolerance (a tenth).
const BAND_WINDOW: usize = 2;

/// A band's outer line farther than this fraction of a cell from the whole
/// comb's is not the same line (digits or a label next to it).
const MAX_BAND_SHIFT: f32 = 0.3;

/// A grid whose side lies within this many cells of the image frame keeps
/// its level comb (see [`verify`]): the frame may cut the side, and the
/// level check's sub-pixel fit puts a cut side a few pixels inside it.
const TILT_FRAME_CELLS: f32 = 0.5;

/// Share by which the lines a third of the way round from a 9x9 comb's
/// own box lines (its lines 1, 4, 7 or 2, 5, 8) may stand out from its
/// other lines, as [`box_evidence`] measures its box lines, while its own
/// box lines are fainter than its cell lines, before the comb is taken
/// for one a line off its grid (see [`off_by_lines`]). Printed puzzles'
/// box lines measure 0.3-2 at their own teeth; a lattice without thicker
/// box lines (a screen's, a table's) shows no such pattern at any third.
/// On a crowded newspaper page a hull that took in the puzzle's frame and
/// caption placed a comb a row low, its box rows at its lines 2, 5 and 8
/// (0.82 there, -0.47 at its own), and the puzzle read as a clash.
const OFF_BOX_LINES: f32 = 0.5;

/// A comb scoring at least this, short of a pass, is checked again with
/// its lines' bends followed (see [`bent`]); weaker ones are text,
/// pictures and parts of grids, and the check would cost a whole verify.
const MIN_BEND_SCORE: f32 = 0.1;

/// A bent comb (see [`bent`]) passes only this far above [`MIN_SCORE`]:
/// its eight shifts an axis are fitted to the image, and a fit with more
/// freedom must fit better to be believed (a screenshot's grid seven
/// cells into a nine-cell comb, bent, passed at 0.304 and hid the grid).
const BEND_MARGIN: f32 = 0.05;

/// The most a segment's lines are followed off the middle segment's, as a
/// fraction of a cell: a curled page bows a grid's lines by a third of a
/// cell end to end, and a comb moved by half a cell would fit digits.
const MAX_BEND: f32 = 0.35;

/// The most a segment's lines are followed off its neighbour's (one cell
/// along the line), as a fraction of a cell: a bend is smooth.
const MAX_BEND_STEP: f32 = 0.125;

/// Pitch step of the comb search, in bins.
const PITCH_STEP: f32 = 0.25;

/// Clutter is this percentile of the ink between the lines: the 90th
/// ignores digits (a few bins) but not a crossword's black squares or a
/// table's rules.
const CLUTTER_PERCENTILE: usize = 90;

/// A line one pitch outside the comb counts against it only by how much it
/// exceeds this fraction of the comb's mean line strength: print beside a
/// grid (text, a frame) is some ink, a crossword's next line is as strong
/// as the comb's own.
const OUTSIDE_ALLOWANCE: f32 = 0.3;

/// The comb's strength is its mean line, capped at the weakest line plus
/// this: one missing line (a table with a gap, digits in a row) caps the
/// score, while the normal thin/thick spread of a Sudoku does not.
const WEAKEST_SLACK: f32 = 0.15;

/// A lattice (see [`Verdict::lattice`]) has nothing between its box lines
/// as dark as this share of its weakest box line (see
/// [`only_box_lines`]): a Sudoku's box lines are its darkest lines, while
/// a crossword's 9-cell comb takes four of its equal lines for box lines,
/// with as dark ones between (ratio 1.0-1.4 measured; blurred answer
/// grids 0.55-0.95, their bold digits the darkest ink between).
const MAX_LATTICE_BETWEEN: f32 = 1.0;

/// Combs of this many cells a side and more must find a line at every
/// tooth: their weakest tooth darker than the clutter between the teeth.
/// On clean paper, where the clutter is near 0, [`WEAKEST_SLACK`] and
/// [`MIN_NORMALISER`] let a comb with most teeth on blank paper score
/// 0.6: a 4-column "Working" table beside a puzzle, its rules every fourth
/// tooth of a 16-cell comb, passed as a 16x16 and was read as a column of
/// 1s, and 16-cell combs across a 9x9 and its surroundings hid the 9x9
/// (three photographed pages of a vector book, two app screenshots). A
/// 9x9 is spared the rule: its thin lines may be fainter than its digits
/// (see [`box_comb`]); held to it, the photographed pages lost 20 of 477
/// grids.
const ALL_LINES_FROM: usize = 16;

/// The score is divided by the mean line strength, but never by less than
/// this: a faint comb of noise must not score like a printed grid.
const MIN_NORMALISER: f32 = 0.25;

/// A comb tooth whose peak rises less than this above its window's floor is
/// not a line the sub-bin fit can use.
const MIN_TOOTH_PEAK: f32 = 0.02;

/// In the box-line check (see [`box_comb`]), each thin line must rise this
/// much (ink fraction) above the emptiest bin on each side of it within
/// half a cell. A blurred grey hairline still rises 0.1 or more over a
/// grid's length; the paper between a digit and a line does not rise at
/// all, and noise averaged over a grid's length stays under a hundredth.
const MIN_THIN_PROMINENCE: f32 = 0.05;

/// The outcome of checking a candidate for an n x n line structure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Verdict {
    /// Cells per side checked for.
    pub n: usize,
    /// Box-line evidence: how much wider the box lines' peaks are than the
    /// other lines' (ratio of their mean widths minus 1; about 0.3-2 for a
    /// printed puzzle, near 0 for a uniform lattice or a wrong size).
    pub boxes: f32,
    /// Line evidence minus clutter, the smaller of the two axes (about
    /// 0.5-0.9 for a Sudoku, below 0.2 for crosswords, text and noise).
    pub score: f32,
    /// The grid's outer lines (line centres) found inside the candidate, in
    /// work pixels: equal to the candidate when the grid fills it, smaller
    /// when the candidate was a frame or box around the grid.
    pub quad: Quad,
    /// A 9x9's outer lines as its box lines alone place them, when on each
    /// axis the box lines' comb would pass as a grid's (see [`box_comb`])
    /// whether or not the thin lines were seen: a blurred grid whose thin
    /// lines are lost among its digits. Not a grid by itself (a 3x3 table
    /// has the same box lines); see `locate::vouched`.
    pub lattice: Option<Quad>,
}

/// A comb found in a profile: score, start and pitch in bins.
#[derive(Debug, Clone, Copy)]
struct Comb {
    score: f32,
    start: f32,
    pitch: f32,
}

/// What to look for.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Spec {
    /// Cells per side.
    pub n: usize,
    /// The grid stands alone: a line one pitch outside the comb counts
    /// against it (a crossword's next line). False for a window of a
    /// lattice already checked cell side by cell side (a Samurai's centre
    /// grid has its neighbours' lines one pitch outside).
    pub lone: bool,
}

/// Looks for an `spec.n` x `spec.n` grid inside `quad` (work pixels) of the
/// darkness image; with `open`, the outer lines of the comb that lie on
/// the image frame are left out of its score: the border of a grid cropped
/// at or just inside it is partly or wholly cut off, and the lattice, not
/// the comb, then says whether the grid is whole (see `locate::tight`).
/// The quad's profiles are taken from `measured` when it has them.
pub(super) fn verify(
    dark: &GrayImage,
    quad: &Quad,
    spec: Spec,
    open: bool,
    measured: &Measured,
) -> Verdict {
    verify_once(dark, quad, spec, (true, open), measured)
}

/// How far the side ratio of a comb placed in a hull (see
/// [`could_hold_grid`]) may come below the ratio of the sub-quads sampled
/// there: a comb's outer lines are placed by its bands with a tilt of
/// their own ([`MAX_BAND_SHIFT`] of a cell at each end), and the sample
/// misses the quads between its points by a few percent.
const HULL_RATIO_SLACK: f32 = 1.25;

/// Spans of a comb, as fractions of the hull's square, at which
/// [`could_hold_grid`] samples the quads a comb can place: from
/// [`MIN_SPAN`] to the whole square.
const SPAN_SAMPLES: usize = 5;

/// Starts of a comb of each span sampled, from the square's start to
/// its end.
const START_SAMPLES: usize = 3;

/// Whether a comb check of `quad` could find a grid: some quad a comb
/// can place inside it (spanning at least [`MIN_SPAN`] of the hull's
/// square each way) has sides within [`MAX_SIDE_RATIO`] of each other,
/// with [`HULL_RATIO_SLACK`] to spare. A rectangle over 2.3 times as long
/// as it is wide (a strip of margin along the frame, a line of text) has
/// none: every comb in it is refused for its sides after the whole check,
/// which on a page-sized strip costs as much as checking the page.
pub(super) fn could_hold_grid(quad: &Quad) -> bool {
    let q = quad_to_pixel_edges(quad);
    let Some(g2p) = Homography::square_to_quad(1.0, &q) else {
        return false;
    };
    let steps = |count: usize, from: f32, to: f32| {
        (0..count).map(move |i| from + (to - from) * i as f32 / (count - 1) as f32)
    };
    let spans = || steps(SPAN_SAMPLES, MIN_SPAN, 1.0);
    let limit = MAX_SIDE_RATIO * HULL_RATIO_SLACK;
    spans().any(|sx| {
        spans().any(|sy| {
            steps(START_SAMPLES, 0.0, 1.0 - sx).any(|a| {
                steps(START_SAMPLES, 0.0, 1.0 - sy).any(|b| {
                    let corners = [(a, b), (a + sx, b), (a + sx, b + sy), (a, b + sy)]
                        .map(|(u, v)| g2p.map(u, v));
                    let sides = (0..4).map(|i| dist(corners[i], corners[(i + 1) % 4]));
                    let (short, long) =
                        sides.fold((f32::MAX, 0.0f32), |(s, l), d| (s.min(d), l.max(d)));
                    long <= limit * short
                })
            })
        })
    })
}

/// The profiles the comb checks of one image measured, by quad and comb
/// side, for the checks of one examination of a hull (see
/// `locate::examined`): a hull on the frame is checked twice, with the
/// comb's lines on the frame counted and left out ([`verify`]'s `open`), and
/// the two checks measure the same quads, only judging them apart.
/// Measuring visits every pixel of the quad, the larger part of a check of
/// a page-sized hull; the second check takes the first's profiles, the
/// very same numbers.
#[derive(Default)]
pub(super) struct Measured {
    profiles: RefCell<Vec<(QuadKey, Rc<Profiles>)>>,
}

/// What a quad's profiles depend on besides the image: its corners (their
/// bits) and the comb's side in bins.
type QuadKey = ([u32; 8], usize);

impl Measured {
    /// [`profiles`] of `q` on `dark` for a comb of `side` bins (`g2p` the
    /// square's map onto `q`), measured once.
    fn profiles(
        &self,
        dark: &GrayImage,
        q: &Quad,
        g2p: &Homography,
        side: usize,
    ) -> Option<Rc<Profiles>> {
        let corners = q.corners.map(|(x, y)| [x.to_bits(), y.to_bits()]);
        let key = (*corners.as_flattened().first_chunk::<8>()?, side);
        let known = self
            .profiles
            .borrow()
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, p)| Rc::clone(p));
        if known.is_some() {
            return known;
        }
        let measured = Rc::new(profiles(dark, q, g2p, side)?);
        self.profiles.borrow_mut().push((key, Rc::clone(&measured)));
        Some(measured)
    }
}

/// [`verify`]; with `second_look`, a 9x9 whose box lines stand out but
/// whose thin lines were not confirmed on an axis is checked once more
/// around the quad its box lines give (see [`box_comb`]), and the better
/// verdict is returned; `open` and `measured` as in [`verify`].
fn verify_once(
    dark: &GrayImage,
    quad: &Quad,
    spec: Spec,
    (second_look, open): (bool, bool),
    measured: &Measured,
) -> Verdict {
    let n = spec.n;
    let fail = Verdict {
        n,
        boxes: 0.0,
        score: 0.0,
        quad: *quad,
        lattice: None,
    };
    let q = quad_to_pixel_edges(quad);
    let cell = ((q.max_side() / n as f32).round() as usize).clamp(MIN_BIN_CELL, MAX_BIN_CELL);
    let side = n * cell;
    let Some(g2p) = Homography::square_to_quad(side as f64, &q) else {
        return fail;
    };
    let Some(measures) = measured.profiles(dark, &q, &g2p, side) else {
        return fail;
    };
    let [px, py] = &*measures;
    let look = (second_look, measured);
    let (straight, axes) = judge(dark, (spec, open), look, &g2p, cell, [px, py]);
    if straight.score >= MIN_SCORE || straight.score < MIN_BEND_SCORE {
        return straight;
    }
    // A comb that nearly passed: the lines of an axis whose comb fell
    // short may be bent (see [`bent`]); an axis that passed stays as
    // measured.
    let [bx, by] = axes.map(|score| score < MIN_SCORE);
    let (bx, by) = (bx.then(|| bent(px, cell)), by.then(|| bent(py, cell)));
    let followed = [bx.as_ref().unwrap_or(px), by.as_ref().unwrap_or(py)];
    let (bent, _) = judge(dark, (spec, open), look, &g2p, cell, followed);
    if bent.score >= MIN_SCORE + BEND_MARGIN {
        bent
    } else {
        straight
    }
}

/// The verdict of [`verify_once`] on the profiles `px`, `py` of the quad
/// mapped onto a square of `cell` bins a cell through `g2p`, and the score
/// of each axis's comb.
fn judge(
    dark: &GrayImage,
    (spec, open): (Spec, bool),
    (second_look, measured): (bool, &Measured),
    g2p: &Homography,
    cell: usize,
    [px, py]: [&AxisProfiles; 2],
) -> (Verdict, [f32; 2]) {
    let n = spec.n;
    let side = n * cell;
    let (fx, fy) = (&px.whole, &py.whole);
    let tol = ((cell as f32 * LINE_TOL).round() as usize).max(1);
    let tilt = Tilt {
        tol,
        cell: cell as f32,
        side: side as f32,
        n,
    };
    // The outer lines of the comb as lines of the square (`u = a + b v` for
    // the left and right, `v = a + b u` for the top and bottom): level as
    // the whole comb has them, or tilted as the bands say.
    let to_quad = |[left, right]: [BandLine; 2], [top, bottom]: [BandLine; 2]| {
        Quad::new(
            [(left, top), (right, top), (right, bottom), (left, bottom)].map(|(x, y)| {
                let (u, v) = crossing(x, y);
                let (x, y) = g2p.map64(u as f64, v as f64);
                // Back to the pixel-index convention of hull corners.
                (x as f32 - 0.5, y as f32 - 0.5)
            }),
        )
    };
    // A grid reaching the frame, or within [`TILT_FRAME_CELLS`] of it, is
    // not re-fitted: the bands by its cut side see the frame's edge or
    // whatever the hull took in there, not its line, and the tilt they
    // give walks its corner off the frame (a photo's top row cut by the
    // frame was then read a cell askew instead of reported cut).
    let (w, h) = (dark.width() as f32, dark.height() as f32);
    let near_frame = |cx: Comb, cy: Comb, cells: f32| {
        let level = to_quad(tilt.level(cx), tilt.level(cy));
        let margin = FRAME_TOL.max(cells * level.max_side() / n as f32);
        frame_sides(&level, w, h, margin).iter().any(|&f| f)
    };
    let place = |cx: Comb, cy: Comb| {
        if near_frame(cx, cy, TILT_FRAME_CELLS) {
            to_quad(tilt.level(cx), tilt.level(cy))
        } else {
            to_quad(tilt.borders(px, cx), tilt.borders(py, cy))
        }
    };
    // The bins of each axis whose lines lie on the image frame, when
    // those are left out (see [`verify`]'s `open`).
    let off = [0, 1].map(|axis| {
        if open {
            frame_bins(g2p, side, axis, w, h)
        } else {
            Vec::new()
        }
    });
    let lines = [0, 1].map(|axis| {
        let (f, off) = ([fx, fy][axis], &off[axis]);
        fit_comb(
            f,
            off,
            best_comb(f, off, tol, spec, (PITCH_STEP, 1.0)),
            tol,
            n,
        )
    });
    // Each axis's comb: the full comb, or the box lines' when they score
    // better and the thin lines are where they should be. Box lines that
    // score better but whose thin lines were not seen are kept apart: the
    // hull's perspective may have smeared the thin lines. A grid the frame
    // cuts keeps the full comb: its cut side has no box line, and the box
    // comb then fits the lines a box inside.
    let framed = near_frame(lines[0], lines[1], 0.0);
    let box_combs = [px, py].map(|prof| (!framed).then(|| box_comb(prof, tol, spec)).flatten());
    let comb = |whole: &[f32], found: Option<(Comb, usize)>, lines: Comb| {
        match found {
            Some((boxes, 0)) if boxes.score > lines.score => {
                (fit_comb(whole, &[], boxes, tol, n), None)
            }
            // One thin line unseen: the box lines confirm the whole comb
            // (which placed all ten lines) and lend it their score.
            Some((boxes, unseen)) if boxes.score > lines.score => {
                if box_lines_confirmed(boxes, unseen, lines, tol, n) {
                    (
                        Comb {
                            score: boxes.score,
                            ..lines
                        },
                        None,
                    )
                } else {
                    (lines, Some(boxes))
                }
            }
            _ => (lines, None),
        }
    };
    // Both combs come out fitted (see [`fit_comb`]); an unseen box comb is
    // fitted only if the second look below needs it.
    let ((cx, unseen_x), (cy, unseen_y)) = (
        comb(fx, box_combs[0], lines[0]),
        comb(fy, box_combs[1], lines[1]),
    );
    let boxes = 0.5 * (box_evidence(fx, cx, tol, n) + box_evidence(fy, cy, tol, n));
    let found = place(cx, cy);
    let sides: Vec<f32> = (0..4)
        .map(|i| dist(found.corners[i], found.corners[(i + 1) % 4]))
        .collect();
    let (smin, smax) = sides
        .iter()
        .fold((f32::MAX, 0.0f32), |(a, b), &v| (a.min(v), b.max(v)));
    // A passing 9x9 comb a line off its grid is no pass (see
    // [`off_by_lines`]); one short of a pass is left to the bend and the
    // closer looks as before.
    let combed = cx.score.min(cy.score);
    let off = combed >= MIN_SCORE
        && n == 9
        && [(fx, cx), (fy, cy)]
            .iter()
            .any(|&(f, c)| off_by_lines(f, c, tol, n));
    let score = if smax > MAX_SIDE_RATIO * smin || off {
        0.0
    } else {
        combed
    };
    // Placed by the box lines alone, seen or not the thin lines, when
    // nothing between them is a line of their kind (see
    // [`MAX_LATTICE_BETWEEN`]).
    let lattice = match box_combs {
        [Some((bx, _)), Some((by, _))] if bx.score.min(by.score) >= MIN_SCORE => {
            let (bx, by) = (fit_comb(fx, &[], bx, tol, n), fit_comb(fy, &[], by, tol, n));
            (only_box_lines(fx, bx, tol, n) && only_box_lines(fy, by, tol, n))
                .then(|| place(bx, by))
        }
        _ => None,
    };
    let verdict = Verdict {
        n,
        boxes,
        score,
        quad: found,
        lattice,
    };
    // Worth a second look only when each axis has a comb (its box lines'
    // where unconfirmed) that would pass as a grid's anywhere; most hulls
    // (text, pictures, parts of grids) have none, and the look costs a
    // whole check.
    let promise = |c: Comb, unseen: Option<Comb>| unseen.map_or(c.score, |b| b.score);
    let promising = promise(cx, unseen_x).min(promise(cy, unseen_y)) >= MIN_SCORE_AT_FRAME;
    let axes = [cx.score, cy.score];
    if !second_look || (unseen_x.is_none() && unseen_y.is_none()) || !promising {
        return (verdict, axes);
    }
    // The box lines place the grid; checked around them, its thin lines
    // are level with the comb and show if they are there.
    let bx_comb = unseen_x.map_or(cx, |b| fit_comb(fx, &[], b, tol, n));
    let by_comb = unseen_y.map_or(cy, |b| fit_comb(fy, &[], b, tol, n));
    let placed = expand(&place(bx_comb, by_comb), RECHECK_GROWTH);
    let again = verify_once(dark, &placed, spec, (false, open), measured);
    if again.score > verdict.score {
        // Either look's lattice places the grid; the first is kept when
        // the second, around a quad grown for the thin lines, has none.
        let lattice = again.lattice.or(verdict.lattice);
        (Verdict { lattice, ..again }, axes)
    } else {
        (verdict, axes)
    }
}

/// Whether a box comb (see [`box_comb`]) with `unseen` thin lines not seen
/// is a grid's on this axis: all its thin lines seen, or all but
/// [`MAX_UNSEEN_THIN`] and its outer lines within [`AGREE_TOLS`] line
/// tolerances of the whole comb's (`lines`), which must itself score as a
/// grid at the frame would ([`MIN_SCORE_AT_FRAME`]): the box lines then
/// only lift the score of a comb that nearly passed on its own, and never
/// vouch for one that fitted something else (on a phone screen, a comb
/// half a cell short, boosted, won over the right one).
fn box_lines_confirmed(boxes: Comb, unseen: usize, lines: Comb, tol: usize, n: usize) -> bool {
    let ends = |c: Comb| [c.start, c.start + n as f32 * c.pitch];
    let agrees = ends(boxes)
        .iter()
        .zip(ends(lines))
        .all(|(a, b)| (a - b).abs() <= (AGREE_TOLS * tol) as f32);
    unseen == 0 || (unseen <= MAX_UNSEEN_THIN && agrees && lines.score >= MIN_SCORE_AT_FRAME)
}

/// A line of the square as `w = a + b t`: for a vertical line `u` as a
/// function of `v`, for a horizontal one `v` as a function of `u`.
type BandLine = (f32, f32);

/// Where a vertical line `u = a + b v` crosses a horizontal one
/// `v = c + d u`.
fn crossing((a, b): BandLine, (c, d): BandLine) -> (f32, f32) {
    // |b| and |d| are at most twice MAX_BAND_SHIFT cells over two thirds
    // of the side: the lines are near perpendicular, `den` near 1.
    let den = 1.0 - b * d;
    let u = (a + b * c) / den;
    (u, c + d * u)
}

/// What the comb's outer lines are re-fitted with when the candidate's
/// perspective is off (see [`Tilt::borders`]).
struct Tilt {
    /// Line tolerance, bins.
    tol: usize,
    /// Bins per cell.
    cell: f32,
    /// Bins per side of the square.
    side: f32,
    /// Cells per side.
    n: usize,
}

impl Tilt {
    /// The comb's two outer lines, each fitted through its positions in
    /// the [`TILT_BANDS`] bands across the lines: when the hull took in a
    /// label touching one corner, or the page's perspective differs from
    /// the hull's, the grid's lines are tilted in the square and the
    /// whole-length comb, which is level by construction, leaves one
    /// corner a good part of a cell off (the seventh answer grid of a
    /// typeset answer page: its top-right corner 8 px low, three cells of
    /// the last column read as empty). A band whose teeth are too few or
    /// whose border moved more than [`MAX_BAND_SHIFT`] of a cell from the
    /// whole comb's is left out; with fewer than two bands the line stays
    /// level.
    fn borders(&self, axis: &AxisProfiles, comb: Comb) -> [BandLine; 2] {
        let bands = &axis.bands;
        let n = self.n as f32;
        let whole = self.level(comb).map(|(w, _)| w);
        let max_shift = MAX_BAND_SHIFT * self.cell;
        let win = BAND_WINDOW * self.tol;
        let mut pts: [Vec<(f32, f32)>; 2] = [Vec::new(), Vec::new()];
        for (b, prof) in bands.iter().enumerate() {
            let Some((start, pitch, teeth)) = teeth_line(prof, &[], comb, win, self.n) else {
                continue;
            };
            if teeth < self.n / 2 + 1 {
                continue;
            }
            let at = (b as f32 + 0.5) * self.side / bands.len() as f32;
            let ends = [start as f32 + 0.5, start as f32 + 0.5 + n * pitch as f32];
            if ends
                .iter()
                .zip(whole)
                .all(|(e, w)| (e - w).abs() <= max_shift)
            {
                // A band of a bent profile (see [`bent`]) was moved by its
                // shift: its lines lie that much farther in the square.
                for (k, pt) in pts.iter_mut().enumerate() {
                    pt.push((at, ends[k] + axis.band_shift[b]));
                }
            }
        }
        [0, 1].map(|k| line_through(&pts[k]).unwrap_or((whole[k], 0.0)))
    }

    /// The comb's two outer lines as the whole comb has them: level.
    fn level(&self, comb: Comb) -> [BandLine; 2] {
        let n = self.n as f32;
        [comb.start + 0.5, comb.start + 0.5 + n * comb.pitch].map(|w| (w, 0.0))
    }
}

/// Least-squares line `w = a + b t` through `(t, w)` points; `None` for
/// fewer than two.
fn line_through(pts: &[(f32, f32)]) -> Option<BandLine> {
    if pts.len() < 2 {
        return None;
    }
    let k = pts.len() as f32;
    let mt = pts.iter().map(|p| p.0).sum::<f32>() / k;
    let mw = pts.iter().map(|p| p.1).sum::<f32>() / k;
    let stt: f32 = pts.iter().map(|p| (p.0 - mt) * (p.0 - mt)).sum();
    let stw: f32 = pts.iter().map(|p| (p.0 - mt) * (p.1 - mw)).sum();
    if stt <= 0.0 {
        return None;
    }
    let b = stw / stt;
    Some((mw - b * mt, b))
}

/// Cells per box side of an `n` x `n` grid (3 for 9x9, 4 for 16x16).
fn box_side(n: usize) -> usize {
    (n as f32).sqrt().round() as usize
}

/// How much wider the comb's box lines are than its other lines: the ink
/// summed over each tooth's window is its width; returns the box teeth's
/// mean over the others' mean, minus 1 (0 when there is no thin tooth).
fn box_evidence(prof: &[f32], comb: Comb, tol: usize, n: usize) -> f32 {
    teeth_evidence(prof, comb, tol, n, 0)
}

/// [`box_evidence`] with the teeth `j` where `j % box side == phase` taken
/// as the box lines: at phase 0 the comb's own.
fn teeth_evidence(prof: &[f32], comb: Comb, tol: usize, n: usize, phase: usize) -> f32 {
    let b = box_side(n);
    let (mut wide, mut nw, mut thin, mut nt) = (0.0f32, 0usize, 0.0f32, 0usize);
    for j in 0..=n {
        let c = (comb.start + j as f32 * comb.pitch).round() as usize;
        let lo = c.saturating_sub(tol);
        let hi = (c + tol + 1).min(prof.len());
        let width: f32 = prof[lo.min(hi)..hi].iter().sum();
        if j % b == phase {
            wide += width;
            nw += 1;
        } else {
            thin += width;
            nt += 1;
        }
    }
    if nt == 0 || nw == 0 || thin <= 0.0 {
        return 0.0;
    }
    (wide / nw as f32) / (thin / nt as f32) - 1.0
}

/// Whether the comb lies a line (or two) off its grid along this axis:
/// its own box lines are fainter than its cell lines, and the lines a
/// third of the way round stand out by [`OFF_BOX_LINES`] as box lines do.
/// One comb of a grid whose box lines are printed thicker puts them at its
/// every third tooth; a comb slid along by a line puts its box teeth on
/// cell lines and the grid's box lines among its cell teeth.
fn off_by_lines(prof: &[f32], comb: Comb, tol: usize, n: usize) -> bool {
    let off = (1..box_side(n))
        .map(|phase| teeth_evidence(prof, comb, tol, n, phase))
        .fold(f32::MIN, f32::max);
    box_evidence(prof, comb, tol, n) < 0.0 && off >= OFF_BOX_LINES
}

/// Column and row profiles of ink fraction of the quad mapped onto a
/// `side`-square through `g2p` (square to work pixels), whole, per band and
/// per segment (see [`Profiles`]). `None` when the transform is singular.
fn profiles(dark: &GrayImage, q: &Quad, g2p: &Homography, side: usize) -> Option<Profiles> {
    let p2g = g2p.inverse()?;
    let (w, h) = (dark.width() as usize, dark.height() as usize);
    let raw = dark.as_raw();
    let xs = q.corners.iter().map(|c| c.0);
    let ys = q.corners.iter().map(|c| c.1);
    let x0 = xs.clone().fold(f32::MAX, f32::min).floor().max(0.0) as usize;
    let x1 = (xs.fold(f32::MIN, f32::max).ceil().max(0.0) as usize).min(w);
    let y0 = ys.clone().fold(f32::MAX, f32::min).floor().max(0.0) as usize;
    let y1 = (ys.fold(f32::MIN, f32::max).ceil().max(0.0) as usize).min(h);
    // Ink and pixel counts per segment along the lines, for each axis:
    // `counts[axis][segment * side + bin] = [ink, pixels]`. A column's ink
    // counts in the segment of its row, and a row's in the segment of its
    // column; bands and the whole profiles are their sums. The segment of
    // each bin is looked up: two integer divisions per pixel were a fifth
    // of the check.
    let mut counts = [0, 1].map(|_| vec![[0u32; 2]; SEGMENTS * side]);
    let seg_start: Vec<usize> = (0..side)
        .map(|b| (b * SEGMENTS / side).min(SEGMENTS - 1) * side)
        .collect();
    // Each row's pixels mapped to the square at once (two divisions a
    // pixel, most of the check; see `Homography::map_row`), then counted.
    let centres: Vec<f64> = (x0..x1).map(|x| x as f64 + 0.5).collect();
    let (mut us, mut vs) = (vec![0.0; centres.len()], vec![0.0; centres.len()]);
    for y in y0..y1 {
        p2g.map_row(&centres, y as f64 + 0.5, &mut us, &mut vs);
        let row = &raw[y * w + x0..y * w + x1];
        for ((&u, &v), &on) in us.iter().zip(&vs).zip(row) {
            if !(u >= 0.0 && v >= 0.0 && u < side as f64 && v < side as f64) {
                continue;
            }
            // SAFETY: u and v are in 0..side (checked above, which no NaN
            // passes), so they convert to i32 unchecked: one instruction
            // each, where `as` clamps them first (and f64 to usize has no
            // single instruction on x86-64 at all).
            let (ui, vi) = unsafe {
                (
                    u.to_int_unchecked::<i32>() as usize,
                    v.to_int_unchecked::<i32>() as usize,
                )
            };
            let on = u32::from(on);
            let column = &mut counts[0][seg_start[vi] + ui];
            column[0] += on;
            column[1] += 1;
            let across = &mut counts[1][seg_start[ui] + vi];
            across[0] += on;
            across[1] += 1;
        }
    }
    // The ink fraction per bin of one axis over the segments `segs`.
    let frac = |segs: std::ops::Range<usize>, axis: usize| -> Vec<f32> {
        (0..side)
            .map(|i| {
                let (ink, all) = segs.clone().fold((0, 0), |(ink, all), s| {
                    let [k, a] = counts[axis][s * side + i];
                    (ink + k, all + a)
                });
                if all == 0 {
                    0.0
                } else {
                    ink as f32 / (255.0 * all as f32)
                }
            })
            .collect()
    };
    let per_seg = SEGMENTS / TILT_BANDS;
    let axis = |axis: usize| AxisProfiles {
        whole: frac(0..SEGMENTS, axis),
        bands: (0..TILT_BANDS)
            .map(|b| frac(b * per_seg..(b + 1) * per_seg, axis))
            .collect(),
        segments: (0..SEGMENTS).map(|s| frac(s..s + 1, axis)).collect(),
        band_shift: vec![0.0; TILT_BANDS],
    };
    Some([axis(0), axis(1)])
}

/// One axis's profiles of ink fraction: over the whole square, per band
/// across the lines ([`TILT_BANDS`]), and per segment ([`SEGMENTS`]).
struct AxisProfiles {
    whole: Vec<f32>,
    bands: Vec<Vec<f32>>,
    segments: Vec<Vec<f32>>,
    /// How far each band was moved along the profile, bins: 0 as
    /// measured, the mean shift of its segments in a [`bent`] profile.
    band_shift: Vec<f32>,
}

/// The profiles of `prof` with each segment moved along the profile to
/// line up with its neighbour's (see [`MAX_BEND`], [`MAX_BEND_STEP`]):
/// a page that curls bends a grid's lines, which the quad's homography
/// keeps straight only on average, so a line that runs at one bin in the
/// middle of the grid runs a few bins off at its ends and smears in the
/// whole profile. Each segment takes the shift, within a step of its
/// neighbour's towards the middle, under which it best matches that
/// neighbour as moved (the product of the two profiles summed); the
/// whole profile and the bands are then the means of the moved segments.
fn bent(prof: &AxisProfiles, cell: usize) -> AxisProfiles {
    let len = prof.whole.len();
    let max = (MAX_BEND * cell as f32).round() as isize;
    let step = ((MAX_BEND_STEP * cell as f32).round() as isize).max(1);
    let moved = |seg: &[f32], shift: isize| -> Vec<f32> {
        (0..len as isize)
            .map(|i| {
                let j = i + shift;
                if (0..len as isize).contains(&j) {
                    seg[j as usize]
                } else {
                    0.0
                }
            })
            .collect()
    };
    let mid = SEGMENTS / 2;
    let mut shifts = [0isize; SEGMENTS];
    let mut segments: Vec<Vec<f32>> = vec![Vec::new(); SEGMENTS];
    segments[mid] = prof.segments[mid].clone();
    let outwards = (0..mid)
        .rev()
        .map(|k| (k, k + 1))
        .chain((mid + 1..SEGMENTS).map(|k| (k, k - 1)));
    for (k, towards) in outwards {
        let around = shifts[towards];
        let (mut best, mut best_shift) = (f32::MIN, around);
        for shift in (around - step).max(-max)..=(around + step).min(max) {
            let m = moved(&prof.segments[k], shift);
            let fit: f32 = m.iter().zip(&segments[towards]).map(|(a, b)| a * b).sum();
            if fit > best {
                (best, best_shift) = (fit, shift);
            }
        }
        shifts[k] = best_shift;
        segments[k] = moved(&prof.segments[k], best_shift);
    }
    let mean = |segs: std::ops::Range<usize>| -> Vec<f32> {
        let k = segs.len() as f32;
        (0..len)
            .map(|i| segs.clone().map(|s| segments[s][i]).sum::<f32>() / k)
            .collect()
    };
    let per = SEGMENTS / TILT_BANDS;
    AxisProfiles {
        whole: mean(0..SEGMENTS),
        bands: (0..TILT_BANDS)
            .map(|b| mean(b * per..(b + 1) * per))
            .collect(),
        band_shift: (0..TILT_BANDS)
            .map(|b| shifts[b * per..(b + 1) * per].iter().sum::<isize>() as f32 / per as f32)
            .collect(),
        segments,
    }
}

/// Column and row profiles (see [`AxisProfiles`]).
type Profiles = [AxisProfiles; 2];

/// The profile max-filtered over `tol` bins each way: the line strength
/// near each position.
fn max_filter(prof: &[f32], tol: usize) -> Vec<f32> {
    let n = prof.len();
    (0..n)
        .map(|i| {
            prof[i.saturating_sub(tol)..(i + tol + 1).min(n)]
                .iter()
                .fold(0.0f32, |a, &b| a.max(b))
        })
        .collect()
}

/// Best (n+1)-line comb in a profile, pitches and starts tried `steps`
/// bins apart.
fn best_comb(prof: &[f32], off: &[bool], tol: usize, spec: Spec, steps: (f32, f32)) -> Comb {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2")
        && std::arch::is_x86_feature_detected!("popcnt")
        && std::arch::is_x86_feature_detected!("lzcnt")
    {
        // SAFETY: the CPU has AVX2, POPCNT and LZCNT (checked above).
        return unsafe { best_comb_avx2(prof, off, tol, spec, steps) };
    }
    best_comb_with(prof, off, tol, spec, steps)
}

/// [`best_comb`] compiled for AVX2 with the bit-counting instructions:
/// the clutter measure of most combs counts the set bits of its bitsets
/// word by word, one instruction each where baseline x86-64 takes a
/// dozen, and XORs their rows four words at a time.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,lzcnt")]
fn best_comb_avx2(prof: &[f32], off: &[bool], tol: usize, spec: Spec, steps: (f32, f32)) -> Comb {
    best_comb_with(prof, off, tol, spec, steps)
}

/// [`best_comb`]'s search, compiled where it is inlined.
#[inline(always)]
fn best_comb_with(prof: &[f32], off: &[bool], tol: usize, spec: Spec, steps: (f32, f32)) -> Comb {
    let (step, start_step) = steps;
    let n = spec.n;
    let len = prof.len();
    let mx = max_filter(prof, tol);
    let ranked = Ranked::new(prof);
    let mut best = Comb {
        score: f32::MIN,
        start: 0.0,
        pitch: len as f32 / n as f32,
    };
    let pmax = (len as f32 - 1.0) / n as f32;
    let mut p = pmax;
    let mut between = Vec::with_capacity(ranked.words);
    while p >= pmax * MIN_SPAN {
        let span = n as f32 * p;
        let mut a = 0.0f32;
        while a + span <= len as f32 - 1.0 {
            let teeth = (a, p, spec);
            let at = (best.score, &ranked);
            if let Some(score) = comb_score(&mx, off, teeth, tol, at, &mut between) {
                best = Comb {
                    score,
                    start: a,
                    pitch: p,
                };
            }
            a += start_step;
        }
        p -= step;
    }
    best
}

/// A profile's bins ranked by their values, for the percentile of the
/// bins between a comb's teeth (see [`comb_score`]), which thousands of
/// combs of one profile ask for.
///
/// Each bin's rank is its place in the values' total order (ties by bin):
/// a set of bins is a bitset of their ranks, and its k-th smallest value
/// is `sorted` at its k-th set bit. `prefix` holds, for each `i` in
/// `0..=len`, the bitset of bins `0..i` (`words` u64 each), so the bins
/// of a range are two rows XORed, and a comb's bins between its teeth
/// (nine or sixteen disjoint ranges) take a few dozen word operations
/// where copying and partially sorting them took thousands.
///
/// ```text
/// prefix: [ row 0: no bins | row 1: rank of bin 0 | ... | row len: all ]
///            <- words u64 ->
/// ```
struct Ranked {
    /// The profile's values in ascending total order.
    sorted: Vec<f32>,
    /// u64 words per bitset: one bit per rank.
    words: usize,
    /// The ranks of bins `0..i` for every `i`, row after row.
    prefix: Vec<u64>,
}

impl Ranked {
    fn new(prof: &[f32]) -> Ranked {
        let len = prof.len();
        let mut order: Vec<usize> = (0..len).collect();
        order.sort_unstable_by(|&a, &b| prof[a].total_cmp(&prof[b]).then(a.cmp(&b)));
        let mut rank = vec![0usize; len];
        for (r, &i) in order.iter().enumerate() {
            rank[i] = r;
        }
        let words = len.div_ceil(64).max(1);
        let mut prefix = vec![0u64; (len + 1) * words];
        for (i, &r) in rank.iter().enumerate() {
            let (done, next) = prefix.split_at_mut((i + 1) * words);
            let row = &mut next[..words];
            row.copy_from_slice(&done[i * words..]);
            row[r / 64] |= 1 << (r % 64);
        }
        Ranked {
            sorted: order.iter().map(|&i| prof[i]).collect(),
            words,
            prefix,
        }
    }

    /// Adds the bins `lo..hi` (none of them in `set` yet) to the bitset.
    #[inline(always)]
    fn add_range(&self, set: &mut [u64], lo: usize, hi: usize) {
        let (a, b) = (
            &self.prefix[lo * self.words..],
            &self.prefix[hi * self.words..],
        );
        for ((s, &a), &b) in set.iter_mut().zip(a).zip(b) {
            *s ^= a ^ b;
        }
    }

    /// The value of the set's bin that is `k`-th from the top (0: the
    /// largest) in the total order; `None` when the set holds `k` bins or
    /// fewer.
    #[inline(always)]
    fn kth_from_top(&self, set: &[u64], mut k: usize) -> Option<f32> {
        for (w, &word) in set.iter().enumerate().rev() {
            let ones = word.count_ones() as usize;
            if k >= ones {
                k -= ones;
                continue;
            }
            let bit = kth_bit_from_top(word, k as u32) as usize;
            return self.sorted.get(w * 64 + bit).copied();
        }
        None
    }
}

/// The place (0..64) of `word`'s set bit that is `k`-th from the top (0:
/// the highest); `k` must be below the word's count of ones. Found by
/// halving the window six times on the ones of its upper half, where
/// clearing the top bit k times took up to 63 steps for each of the comb
/// search's clutter measures.
#[inline(always)]
fn kth_bit_from_top(word: u64, mut k: u32) -> u32 {
    let (mut low, mut width) = (0u32, 64u32);
    while width > 1 {
        let half = width / 2;
        let upper = ((word >> (low + half)) & ((1u64 << half) - 1)).count_ones();
        if k < upper {
            low += half;
        } else {
            k -= upper;
        }
        width = half;
    }
    low
}

/// The score of the comb of `n + 1` teeth at start `a`, pitch `p` in the
/// profile `ranked` (max-filtered: `mx`), or `None` when it does not beat
/// `to_beat` or its mean line strength is no more than `to_beat` (both
/// checked before the costlier clutter measure, the first on the score
/// the comb would have with no clutter at all), or, for a 16x16, when a
/// tooth finds no line (see [`ALL_LINES_FROM`]). `between` is scratch.
///
/// The mean is no bound of the score (a comb with no clutter between its
/// teeth scores 1 whatever its mean): a comb whose lines are fainter than
/// the best score so far is passed over even where it would score more.
/// The thresholds of the search were set on the combs this finds; a true
/// bound finds others and reads fewer grids (docs/decisions.md).
#[inline(always)]
fn comb_score(
    mx: &[f32],
    off: &[bool],
    (a, p, spec): (f32, f32, Spec),
    tol: usize,
    (to_beat, ranked): (f32, &Ranked),
    between: &mut Vec<u64>,
) -> Option<f32> {
    let (len, n) = (mx.len(), spec.n);
    let mut sum = 0.0;
    let mut weakest = f32::MAX;
    let mut seen = 0usize;
    for j in 0..=n {
        let c = round_bin(a + j as f32 * p);
        // An outer tooth on the image frame is not looked at: the frame
        // may have cut the border line off, and whether the grid is whole
        // is decided from the lattice (see `locate::tight`).
        if (j == 0 || j == n) && is_off(off, c) {
            continue;
        }
        let v = mx[c];
        sum += v;
        weakest = weakest.min(v);
        seen += 1;
    }
    let mean = sum / seen.max(1) as f32;
    if mean <= to_beat {
        return None;
    }
    // The score with nothing between the teeth and no line outside: the
    // penalty below is at least 0 (a profile's values are), so no comb
    // scores more. One that cannot beat `to_beat` even so is passed over
    // before its clutter is measured, the same verdict for less work.
    let strength = mean.min(weakest + WEAKEST_SLACK);
    let normaliser = mean.max(MIN_NORMALISER);
    if strength / normaliser <= to_beat {
        return None;
    }
    // The bins between the teeth, each tooth's tolerance left out.
    between.clear();
    between.resize(ranked.words, 0);
    let mut count = 0;
    let mut tooth = round_bin(a);
    for j in 0..n {
        let next = round_bin(a + (j + 1) as f32 * p);
        let (lo, hi) = (tooth + tol + 1, next);
        if hi > tol + lo {
            ranked.add_range(between, lo, hi - tol);
            count += hi - tol - lo;
        }
        tooth = next;
    }
    // The value at index `count * CLUTTER_PERCENTILE / 100` of the sorted
    // bins between, counted from the top.
    let clutter = match count {
        0 => 1.0,
        _ => ranked.kth_from_top(between, count - 1 - count * CLUTTER_PERCENTILE / 100)?,
    };
    // A 16x16 comb whose weakest tooth is no darker than the clutter
    // between its teeth has lines missing (see [`ALL_LINES_FROM`]).
    if spec.n >= ALL_LINES_FROM && weakest <= clutter {
        return None;
    }
    // Lines one pitch outside the comb mean a bigger grid.
    let before = (a - p).round();
    let after = (a + (n + 1) as f32 * p).round();
    let mut outside = 0.0f32;
    if spec.lone && before >= 0.0 {
        outside = outside.max(mx[before as usize]);
    }
    if spec.lone && after < len as f32 {
        outside = outside.max(mx[after as usize]);
    }
    let penalty = clutter.max(outside - OUTSIDE_ALLOWANCE * mean);
    let score = (strength - penalty) / normaliser;
    (score > to_beat).then_some(score)
}

/// `x.round() as usize` ([`round_i32`], 0 for anything `round` takes
/// below zero), made twenty times for each of the comb search's hundreds
/// of thousands of combs. `x` must be below 2^31: a comb's bins number a
/// few thousand at most.
#[inline]
fn round_bin(x: f32) -> usize {
    usize::try_from(round_i32(x)).unwrap_or(0)
}

/// The 9x9 comb found by its box lines: a comb of the four box lines
/// scored as a 3x3 grid, and how many of the six thin lines that its boxes
/// should hold where the 9x9's lines are were not seen (a line is seen as
/// a peak of at least [`MIN_THIN_PROMINENCE`] over both its sides, along
/// nearly the whole length). `None` for other sizes, and when the thin
/// lines are not much fainter than the box lines ([`MAX_THIN_SHARE`]).
///
/// A grid printed with grey hairlines and bold digits (a typeset book
/// photographed with some blur) has thin lines fainter than its digits'
/// strokes: the full comb's clutter, the digits between the lines, then
/// exceeds its weakest lines and the grid is refused. The box lines are
/// the strongest ink of such a grid, and the thin lines are still there
/// as small peaks exactly where a 9x9 has them, which neither a table nor
/// a crossword has.
fn box_comb(prof: &AxisProfiles, tol: usize, spec: Spec) -> Option<(Comb, usize)> {
    if spec.n != 9 {
        return None;
    }
    let b = box_side(spec.n);
    // Box pitches a full comb's step times the cells per box apart: the
    // comb's span moves by as much per step as the full comb's does.
    // Starts a line tolerance apart: every line lies within half of one of
    // a tooth tried, and the teeth take the strongest ink within a whole
    // tolerance. The fit below puts the teeth on the lines.
    let steps = (PITCH_STEP * (spec.n / b) as f32, tol as f32);
    let boxes = best_comb(&prof.whole, &[], tol, Spec { n: b, ..spec }, steps);
    let pitch = boxes.pitch / b as f32;
    let at = |j: usize| boxes.start + j as f32 * pitch;
    let rises = |p: &[f32], j: usize| prominence(p, at(j), pitch, tol) >= MIN_THIN_PROMINENCE;
    // Mean prominence of the thin lines and of the box lines.
    let (mut thin, mut wide) = ((0.0f32, 0usize), (0.0f32, 0usize));
    for j in 0..=spec.n {
        let sum = if j % b == 0 { &mut wide } else { &mut thin };
        sum.0 += prominence(&prof.whole, at(j), pitch, tol);
        sum.1 += 1;
    }
    let faint = thin.0 / thin.1 as f32 <= MAX_THIN_SHARE * wide.0 / wide.1 as f32;
    let unseen = (0..spec.n)
        .filter(|j| j % b != 0)
        .filter(|&j| {
            !(rises(&prof.whole, j)
                && prof.segments.iter().filter(|p| rises(p, j)).count() >= MIN_THIN_SEGMENTS)
        })
        .count();
    faint.then_some((Comb { pitch, ..boxes }, unseen))
}

/// Whether the profile `prof` has no ink between the box lines of the
/// 9x9 comb `comb` (`n` cells, teeth a cell apart) as strong as
/// [`MAX_LATTICE_BETWEEN`] of its weakest box line, beyond a line
/// tolerance `tol` of each box line: a Sudoku's thin lines are hairlines
/// and its digits fill a cell's height at most, while a crossword's or a
/// table's inner lines run its whole length as dark as its outer ones.
fn only_box_lines(prof: &[f32], comb: Comb, tol: usize, n: usize) -> bool {
    let b = box_side(n);
    let peak = |at: f32| {
        let c = at.round() as isize;
        let (lo, hi) = (
            (c - tol as isize).max(0) as usize,
            (c + tol as isize).max(0) as usize,
        );
        prof.get(lo..=hi.min(prof.len().saturating_sub(1)))
            .map_or(0.0, |w| w.iter().fold(0.0f32, |m, &v| m.max(v)))
    };
    let teeth: Vec<f32> = (0..=n)
        .step_by(b)
        .map(|j| comb.start + j as f32 * comb.pitch)
        .collect();
    let weakest = teeth.iter().map(|&t| peak(t)).fold(f32::MAX, f32::min);
    let near_tooth = |i: usize| {
        teeth
            .iter()
            .any(|&t| (i as f32 - t).abs() <= tol as f32 + 0.5)
    };
    let (first, last) = (teeth[0], teeth[teeth.len() - 1]);
    let between = (0..prof.len())
        .filter(|&i| (first..=last).contains(&(i as f32)) && !near_tooth(i))
        .map(|i| prof[i])
        .fold(0.0f32, f32::max);
    between < MAX_LATTICE_BETWEEN * weakest
}

/// How far a line at `at` (bins; comb pitch `pitch`) rises above the
/// emptiest bin on each side of it within half a cell (the higher of the
/// two).
fn prominence(prof: &[f32], at: f32, pitch: f32, tol: usize) -> f32 {
    let len = prof.len() as isize;
    let bin = |v: f32| (v.round() as isize).clamp(0, len - 1) as usize;
    let reach = tol as f32;
    // Half a cell exceeds a tolerance and a bin (cells are at least
    // `MIN_BIN_CELL` bins, the tolerance a tenth of one), so `lo <= hi`;
    // the `min` keeps a slice even if it did not.
    let lowest = |lo: f32, hi: f32| {
        let (lo, hi) = (bin(lo), bin(hi));
        prof[lo.min(hi)..=hi]
            .iter()
            .fold(f32::MAX, |m, &v| m.min(v))
    };
    let peak = prof[bin(at - reach)..=bin(at + reach)]
        .iter()
        .fold(0.0f32, |m, &v| m.max(v));
    let left = lowest(at - 0.5 * pitch, at - reach - 1.0);
    let right = lowest(at + reach + 1.0, at + 0.5 * pitch);
    peak - left.max(right)
}

/// Sharpens a comb found on the max-filtered profile: each tooth moves to
/// the centroid of its actual peak, then a straight-line fit of tooth
/// position against index gives start and pitch (the search only knows
/// them to +-tol).
fn fit_comb(prof: &[f32], off: &[bool], comb: Comb, tol: usize, n: usize) -> Comb {
    let Some((start, pitch, _)) = teeth_line(prof, off, comb, tol, n) else {
        return comb;
    };
    let (a, p) = (comb.start as f64, comb.pitch as f64);
    // Keep the search result if the fit wandered off (few teeth found).
    if (pitch - p).abs() > tol as f64 || (start - a).abs() > 2.0 * tol as f64 {
        return comb;
    }
    Comb {
        score: comb.score,
        start: start as f32,
        pitch: pitch as f32,
    }
}

/// The teeth of `comb` found in `prof` (each the centroid of its peak
/// within `win` bins of the comb's tooth) and the straight line through
/// them, weighted by peak height: start, pitch and the number of teeth
/// found. `None` when they do not fix a line.
fn teeth_line(
    prof: &[f32],
    off: &[bool],
    comb: Comb,
    win: usize,
    n: usize,
) -> Option<(f64, f64, usize)> {
    let len = prof.len();
    let (a, p) = (comb.start, comb.pitch);
    let win = win as isize;
    let (mut sw, mut sj, mut sp, mut sjj, mut sjp) = (0.0f64, 0.0, 0.0, 0.0, 0.0);
    let mut teeth = 0;
    for j in 0..=n {
        let c = (a + j as f32 * p).round() as isize;
        // A line on the frame shows only in part, if at all: its centroid
        // would pull the fit.
        if c >= 0 && is_off(off, c as usize) {
            continue;
        }
        let lo = (c - win).max(0) as usize;
        let hi = ((c + win) as usize).min(len - 1);
        if lo > hi {
            continue;
        }
        let Some((pos, wt)) = tooth_centroid(&prof[lo..=hi]) else {
            continue;
        };
        teeth += 1;
        let pos = lo as f64 + pos;
        let jf = j as f64;
        sw += wt;
        sj += wt * jf;
        sp += wt * pos;
        sjj += wt * jf * jf;
        sjp += wt * jf * pos;
    }
    let den = sw * sjj - sj * sj;
    if sw <= 0.0 || den.abs() < 1e-9 {
        return None;
    }
    let pitch = (sw * sjp - sj * sp) / den;
    Some(((sp - pitch * sj) / sw, pitch, teeth))
}

/// Centroid of the upper half of the peak in a tooth's window (in window
/// bins) and the peak's height as its weight; `None` when there is no peak.
pub(super) fn tooth_centroid(win: &[f32]) -> Option<(f64, f64)> {
    let peak = win.iter().fold(0.0f32, |m, &v| m.max(v));
    let base = win.iter().fold(f32::MAX, |m, &v| m.min(v));
    if peak - base < MIN_TOOTH_PEAK {
        return None;
    }
    let half = base + 0.5 * (peak - base);
    let (mut w, mut x) = (0.0f64, 0.0f64);
    for (k, &v) in win.iter().enumerate() {
        if v > half {
            w += (v - half) as f64;
            x += (v - half) as f64 * k as f64;
        }
    }
    (w > 0.0).then(|| (x / w, (peak - base) as f64))
}

/// Whether bin `c` of a profile lies on the image frame (see
/// [`frame_bins`]); an empty `off` has none there.
fn is_off(off: &[bool], c: usize) -> bool {
    off.get(c).copied().unwrap_or(false)
}

/// Per bin of one axis of the `side`-square mapped through `g2p` onto the
/// `w` x `h` work image (`axis` 0: the columns' profile, 1: the rows'),
/// whether the line through the bin's middle lies on the frame: both its
/// ends within [`FRAME_TOL`] of the same edge, or beyond it. Such a line,
/// the border of a grid cropped at or just inside it, is partly or wholly
/// cut off.
fn frame_bins(g2p: &Homography, side: usize, axis: usize, w: f32, h: f32) -> Vec<bool> {
    let s = side as f64;
    (0..side)
        .map(|i| {
            let t = i as f64 + 0.5;
            let ends = if axis == 0 {
                [(t, 0.0), (t, s)]
            } else {
                [(0.0, t), (s, t)]
            };
            let [a, b] = ends.map(|(u, v)| {
                let (x, y) = g2p.map64(u, v);
                // The pixel-index convention of hull corners.
                (x as f32 - 0.5, y as f32 - 0.5)
            });
            on_frame(a, b, w, h, FRAME_TOL)
        })
        .collect()
}

/// Hull corners are pixel indices of the outermost ink pixels; their outer
/// edges are half a pixel further out.
fn quad_to_pixel_edges(q: &Quad) -> Quad {
    let mut out = *q;
    let (cx, cy) = q.centre();
    for c in &mut out.corners {
        c.0 += 0.5 + 0.5 * (c.0 - cx).signum();
        c.1 += 0.5 + 0.5 * (c.1 - cy).signum();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Luma;

    /// [`super::verify`] of a grid away from the frame, measured afresh.
    fn verify(dark: &GrayImage, quad: &Quad, spec: Spec) -> Verdict {
        super::verify(dark, quad, spec, false, &Measured::default())
    }

    /// Darkness image (ink 255) of a level 9x9 grid of side `s` at (x0, y0):
    /// 1 px cell lines, 3 px box lines.
    fn grid_darkness(w: u32, x0: f32, y0: f32, s: f32) -> GrayImage {
        GrayImage::from_fn(w, w, |x, y| {
            let (fx, fy) = (x as f32 + 0.5 - x0, y as f32 + 0.5 - y0);
            let cell = s / 9.0;
            let on = |v: f32| {
                let j = (v / cell).round();
                let half = if j as i32 % 3 == 0 { 1.5 } else { 0.5 };
                (0.0..=9.0).contains(&j) && (v - j * cell).abs() <= half
            };
            let inside = |v: f32| (-1.5..=s + 1.5).contains(&v);
            let ink = (on(fx) && inside(fy)) || (on(fy) && inside(fx));
            Luma([if ink { 255 } else { 0 }])
        })
    }

    /// Darkness image of a level 9x9 grid of `cell`-px cells at (x0, x0) in a
    /// `w`-square: 3 px box lines at full darkness, 1 px thin lines dotted
    /// (every other pixel) at `thin` darkness, and in the cells where
    /// `(row * 4 + col * 7) % 9 < 5`, a bold digit: a full-darkness bar 3 px
    /// wide and 0.6 of a cell high beside a 0.4-cell bar across its top.
    fn faint_grid_darkness(w: u32, x0: f32, cell: f32, thin: u8) -> GrayImage {
        GrayImage::from_fn(w, w, |x, y| {
            let (fx, fy) = (x as f32 + 0.5 - x0, y as f32 + 0.5 - x0);
            let s = 9.0 * cell;
            let inside = |v: f32| (-1.5..=s + 1.5).contains(&v);
            if !inside(fx) || !inside(fy) {
                return Luma([0]);
            }
            let line = |v: f32, along: u32| {
                let j = (v / cell).round();
                let d = (v - j * cell).abs();
                if j as i32 % 3 == 0 {
                    (d <= 1.5).then_some(255u8)
                } else {
                    (d <= 0.5 && along.is_multiple_of(2)).then_some(thin)
                }
            };
            if let Some(v) = line(fx, y).max(line(fy, x)) {
                return Luma([v]);
            }
            let (col, row) = ((fx / cell) as i32, (fy / cell) as i32);
            let (u, v) = (fx / cell - col as f32, fy / cell - row as f32);
            let digit = (row * 4 + col * 7) % 9 < 5;
            let stroke = ((0.45..0.45 + 3.0 / cell).contains(&u) && (0.2..0.8).contains(&v))
                || ((0.3..0.7).contains(&u) && (0.2..0.2 + 3.0 / cell).contains(&v));
            Luma([if digit && stroke { 255 } else { 0 }])
        })
    }

    #[test]
    fn a_hull_whose_combs_would_all_be_refused_for_their_sides_is_not_combed() {
        let quad = |c: [(f32, f32); 4]| Quad::new(c);
        // A square, and one seen at an angle, can hold a grid.
        assert!(could_hold_grid(&quad([
            (10.0, 10.0),
            (310.0, 10.0),
            (310.0, 310.0),
            (10.0, 310.0)
        ])));
        assert!(could_hold_grid(&quad([
            (60.0, 10.0),
            (260.0, 10.0),
            (310.0, 310.0),
            (10.0, 310.0)
        ])));
        // So can a hull a little longer than wide (a grid with a caption).
        assert!(could_hold_grid(&quad([
            (10.0, 10.0),
            (310.0, 10.0),
            (310.0, 460.0),
            (10.0, 460.0)
        ])));
        // A strip of margin along the frame cannot: the check itself
        // refuses every comb in it.
        let strip = quad([(0.0, 0.0), (119.0, 0.0), (119.0, 399.0), (0.0, 399.0)]);
        assert!(!could_hold_grid(&strip));
        let dark = grid_darkness(400, 20.0, 20.0, 360.0);
        let v = verify(&dark, &strip, Spec { n: 9, lone: true });
        assert_eq!(v.score, 0.0);
    }

    /// Cell side of the grid [`faint_grid_verdict`] draws.
    const FAINT_CELL: f32 = 28.0;

    /// The grid of [`faint_grid_darkness`] (thin lines at `thin`) at 30 px
    /// in a 320-square, its quad and the 9x9 verdict on it.
    fn faint_grid_verdict(thin: u8) -> (Quad, Verdict) {
        let (x0, s) = (30.0, 9.0 * FAINT_CELL);
        let dark = faint_grid_darkness(320, x0, FAINT_CELL, thin);
        let quad = Quad::new([(x0, x0), (x0 + s, x0), (x0 + s, x0 + s), (x0, x0 + s)]);
        (quad, verify(&dark, &quad, Spec { n: 9, lone: true }))
    }

    #[test]
    fn a_quad_measured_once_is_judged_as_when_measured_afresh() {
        // A grid on the frame, checked with its frame lines counted and
        // left out, as `locate::examined` checks such a hull: the second
        // check takes the first's profiles and gives what a check of its
        // own gives.
        let dark = faint_grid_darkness(280, 0.0, FAINT_CELL, 50);
        let s = 9.0 * FAINT_CELL;
        let spec = Spec { n: 9, lone: true };
        for quad in [
            Quad::new([(0.0, 0.0), (s, 0.0), (s, s), (0.0, s)]),
            Quad::new([(0.0, 0.0), (s + 7.0, 2.0), (s, s + 5.0), (3.0, s)]),
        ] {
            let measured = Measured::default();
            for open in [false, true] {
                let shared = super::verify(&dark, &quad, spec, open, &measured);
                let afresh = super::verify(&dark, &quad, spec, open, &Measured::default());
                assert_eq!(shared, afresh, "open {open}");
            }
            let q = quad_to_pixel_edges(&quad);
            let corners = q.corners.map(|(x, y)| [x.to_bits(), y.to_bits()]);
            let key = *corners.as_flattened().first_chunk::<8>().unwrap();
            let kept = measured.profiles.borrow();
            assert_eq!(kept.iter().filter(|((k, _), _)| *k == key).count(), 1);
        }
    }

    #[test]
    fn round_bin_rounds_as_round_does() {
        // Every half and its neighbours, then a spread of all floats up to
        // 2^25 (past which every f32 is even) and a few below zero.
        let halves = (0..100_000u32).flat_map(|k| {
            let x = k as f32 + 0.5;
            [
                x,
                f32::from_bits(x.to_bits() - 1),
                f32::from_bits(x.to_bits() + 1),
            ]
        });
        let spread = (0..(127 + 25) << 23).step_by(997).map(f32::from_bits);
        let below = [-0.0, -0.2, -0.49999997, -0.5, -0.7, -3.5];
        for x in halves.chain(spread).chain(below) {
            assert_eq!(round_bin(x), x.round() as usize, "{x}");
        }
    }

    #[test]
    fn the_kth_bit_from_the_top_is_found_by_halving() {
        // The bit left on top after clearing the k highest, for words of
        // every density.
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for case in 0..2000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let word = match case % 4 {
                0 => seed,
                1 => seed & (seed >> 7),
                2 => seed | (seed << 5),
                _ => 1u64 << (seed % 64),
            };
            for k in 0..word.count_ones() {
                let mut cleared = word;
                for _ in 0..k {
                    cleared &= !(1u64 << (63 - cleared.leading_zeros()));
                }
                assert_eq!(
                    kth_bit_from_top(word, k),
                    63 - cleared.leading_zeros(),
                    "{word:#x} {k}"
                );
            }
        }
    }

    #[test]
    fn ranked_ranges_give_the_percentile_of_their_bins_sorted() {
        // Profiles with ties, zeros and more than one word of ranks.
        let mut s = 7u32;
        for len in [5usize, 64, 65, 200, 577] {
            let prof: Vec<f32> = (0..len)
                .map(|_| {
                    s ^= s << 13;
                    s ^= s >> 17;
                    s ^= s << 5;
                    (s % 40) as f32 / 50.0 * (s % 3).min(1) as f32
                })
                .collect();
            let ranked = Ranked::new(&prof);
            let ranges = [(0, len / 4), (len / 3, len / 2), (len - len / 5, len)];
            let mut set = vec![0u64; ranked.words];
            let mut bins: Vec<f32> = Vec::new();
            for &(lo, hi) in &ranges {
                ranked.add_range(&mut set, lo, hi);
                bins.extend_from_slice(&prof[lo..hi]);
            }
            bins.sort_by(f32::total_cmp);
            for k in 0..bins.len() {
                let want = bins[bins.len() - 1 - k];
                assert_eq!(ranked.kth_from_top(&set, k), Some(want), "{len} {k}");
            }
            assert_eq!(ranked.kth_from_top(&set, bins.len()), None);
        }
    }

    #[test]
    fn a_grid_with_faint_thin_lines_and_bold_digits_is_found() {
        // The thin lines' ink (a dotted hairline at a fifth of full
        // darkness) is below the digits', so the full comb's clutter beats
        // its weakest lines; the box lines and the thin lines' peaks still
        // make it a 9x9.
        let cell = FAINT_CELL;
        let (quad, v) = faint_grid_verdict(50);
        assert!(v.score >= 0.3, "{v:?}");
        // Within the line tolerance (a tenth of a cell): the cells are cut
        // where they are.
        let tol = LINE_TOL * cell;
        for (c, t) in v.quad.corners.iter().zip(quad.corners) {
            assert!((c.0 - t.0).abs() < tol && (c.1 - t.1).abs() < tol, "{v:?}");
        }
    }

    #[test]
    fn a_grid_whose_thin_lines_are_lost_is_no_grid_but_its_box_lines_place_it() {
        // Blur has taken the thin lines (darkness 0): the box lines and the
        // digits are all there is. Not a 9x9 on its own, but the lattice
        // its box lines make is where the grid is (see `locate::vouched`).
        let cell = FAINT_CELL;
        let (quad, v) = faint_grid_verdict(0);
        assert!(v.score < MIN_SCORE, "{v:?}");
        let Some(lattice) = v.lattice else {
            panic!("no lattice: {v:?}");
        };
        let tol = LINE_TOL * cell;
        for (c, t) in lattice.corners.iter().zip(quad.corners) {
            assert!((c.0 - t.0).abs() < tol && (c.1 - t.1).abs() < tol, "{v:?}");
        }
        // Blank paper has no lattice.
        let blank = GrayImage::new(320, 320);
        assert!(verify(&blank, &quad, Spec { n: 9, lone: true })
            .lattice
            .is_none());
    }

    #[test]
    fn a_faint_grid_under_a_skewed_hull_is_placed_by_its_box_lines() {
        // A hull whose top-right corner a label pulled up by a third of a
        // cell: in its square the thin lines are smeared, and only the box
        // lines show until the grid is checked again around them.
        let (x0, cell) = (30.0, 28.0);
        let dark = faint_grid_darkness(320, x0, cell, 50);
        let s = 9.0 * cell;
        let skewed = Quad::new([
            (x0, x0),
            (x0 + s, x0 - 10.0),
            (x0 + s, x0 + s),
            (x0, x0 + s),
        ]);
        let v = verify(&dark, &skewed, Spec { n: 9, lone: true });
        assert!(v.score >= 0.3, "{v:?}");
        let tol = LINE_TOL * cell;
        let right = [(x0, x0), (x0 + s, x0), (x0 + s, x0 + s), (x0, x0 + s)];
        for (c, t) in v.quad.corners.iter().zip(right) {
            assert!((c.0 - t.0).abs() < tol && (c.1 - t.1).abs() < tol, "{v:?}");
        }
    }

    #[test]
    fn a_comb_a_row_off_its_grid_is_no_grid() {
        // A grid in a frame whose bottom rule runs a cell under the grid
        // (a newspaper's boxed puzzle and its caption): a candidate from
        // the second row line to the rule holds ten lines a cell apart
        // down, a comb of them all, with the box rows at its lines 2, 5
        // and 8.
        let (x0, s) = (30.0, 252.0);
        let cell = s / 9.0;
        let mut dark = grid_darkness(340, x0, x0, s);
        let rule = (x0 + s + cell).round() as u32;
        for x in x0 as u32..=(x0 + s) as u32 {
            dark.put_pixel(x, rule, Luma([255]));
        }
        let spec = Spec { n: 9, lone: true };
        let low = Quad::new([
            (x0, x0 + cell),
            (x0 + s, x0 + cell),
            (x0 + s, x0 + s + cell),
            (x0, x0 + s + cell),
        ]);
        let v = verify(&dark, &low, spec);
        assert!(v.score < MIN_SCORE, "{v:?}");
        let right = Quad::new([(x0, x0), (x0 + s, x0), (x0 + s, x0 + s), (x0, x0 + s)]);
        let v = verify(&dark, &right, spec);
        assert!(v.score >= MIN_SCORE, "{v:?}");
    }

    #[test]
    fn one_unseen_thin_line_is_allowed_where_the_box_lines_end_with_the_comb() {
        // Box lines 84 bins apart from bin 10 (cells of 28 bins), tolerance 3.
        let comb = |start: f32, pitch: f32| Comb {
            score: 0.5,
            start,
            pitch,
        };
        let boxes = comb(10.0, 28.0);
        // The whole comb found the same grid, a few bins off at each end.
        let same = comb(12.0, 27.8);
        // The whole comb fitted something else (digits, half a grid).
        let other = comb(10.0, 21.0);
        assert!(box_lines_confirmed(boxes, 0, other, 3, 9));
        assert!(box_lines_confirmed(boxes, 1, same, 3, 9));
        assert!(!box_lines_confirmed(boxes, 1, other, 3, 9));
        assert!(!box_lines_confirmed(boxes, 2, same, 3, 9));
        // A whole comb far from passing is not lifted.
        let weak = Comb { score: 0.1, ..same };
        assert!(!box_lines_confirmed(boxes, 1, weak, 3, 9));
    }

    #[test]
    fn bent_lines_are_followed_segment_by_segment() {
        // Rows of a curled page: ten lines 30 bins apart whose position
        // sags by up to 8 bins (about a quarter of a cell) in the middle
        // segments. Straight, the whole profile smears each line over the
        // sag; followed, every line is one bin wide again and the bands
        // say how far they were moved.
        let cell = 30;
        let len = 9 * cell + 20;
        let sag = |k: usize| {
            let t = (k as f32 + 0.5) / SEGMENTS as f32 * 2.0 - 1.0;
            (8.0 * (1.0 - t * t)).round() as usize
        };
        let segments: Vec<Vec<f32>> = (0..SEGMENTS)
            .map(|k| {
                (0..len)
                    .map(|i| {
                        if i >= sag(k) + 5 && (i - sag(k) - 5) % cell == 0 {
                            1.0
                        } else {
                            0.05
                        }
                    })
                    .collect()
            })
            .collect();
        let mean = |segs: &[Vec<f32>]| -> Vec<f32> {
            (0..len)
                .map(|i| segs.iter().map(|s| s[i]).sum::<f32>() / segs.len() as f32)
                .collect()
        };
        let per = SEGMENTS / TILT_BANDS;
        let prof = AxisProfiles {
            whole: mean(&segments),
            bands: (0..TILT_BANDS)
                .map(|b| mean(&segments[b * per..(b + 1) * per]))
                .collect(),
            segments,
            band_shift: vec![0.0; TILT_BANDS],
        };
        let peak = |p: &[f32]| p.iter().fold(0.0f32, |m, &v| m.max(v));
        assert!(peak(&prof.whole) < 0.5, "straight, the lines smear");
        let followed = bent(&prof, cell);
        assert!(peak(&followed.whole) > 0.99, "{:?}", followed.whole);
        // The middle band is the reference; the outer ones sag less, so
        // they were moved down (their content read from higher up).
        let s = &followed.band_shift;
        assert!(s[0] < -2.0 && s[2] < -2.0 && s[1].abs() < 2.0, "{s:?}");
        // And a straight comb scores better on the followed profile.
        let spec = Spec { n: 9, lone: true };
        let (tol, steps) = (3, (PITCH_STEP, 1.0));
        let before = best_comb(&prof.whole, &[], tol, spec, steps).score;
        let after = best_comb(&followed.whole, &[], tol, spec, steps).score;
        assert!(after > before + 0.2, "{before} -> {after}");
    }

    #[test]
    fn a_table_of_four_columns_is_no_16x16_but_a_16x16_is() {
        // Darkness (ink 255) of a ruled table in a 400-square at (40, 40),
        // 320 px a side: `cols` columns and `rows` rows of 1 px rules.
        let ruled = |cols: f32, rows: f32| {
            GrayImage::from_fn(400, 400, |x, y| {
                let (fx, fy) = (x as f32 + 0.5 - 40.0, y as f32 + 0.5 - 40.0);
                let inside = |v: f32| (-0.5..=320.5).contains(&v);
                let on = |v: f32, k: f32| {
                    let pitch = 320.0 / k;
                    (v - (v / pitch).round() * pitch).abs() <= 0.5
                };
                let ink = inside(fx) && inside(fy) && (on(fx, cols) || on(fy, rows));
                Luma([if ink { 255 } else { 0 }])
            })
        };
        let quad = Quad::new([(40.0, 40.0), (360.0, 40.0), (360.0, 360.0), (40.0, 360.0)]);
        let sixteen = Spec { n: 16, lone: true };
        // The "Working" table beside a puzzle: 4 columns, 16 rows. Its
        // rules lie on every fourth tooth of a 16-cell comb, the other
        // teeth on blank paper.
        let table = verify(&ruled(4.0, 16.0), &quad, sixteen);
        assert!(table.score < MIN_SCORE_AT_FRAME, "{table:?}");
        // A 16x16 has a line at every tooth.
        let grid = verify(&ruled(16.0, 16.0), &quad, sixteen);
        assert!(grid.score >= MIN_SCORE, "{grid:?}");
    }

    #[test]
    fn a_uniform_lattice_has_no_box_lines_to_go_by() {
        // Ten equal lines: a table's rules, or a grid the full comb sees.
        let prof: Vec<f32> = (0..271)
            .map(|i| if i % 30 <= 1 { 0.8 } else { 0.05 })
            .collect();
        let profiles = AxisProfiles {
            segments: vec![prof.clone(); SEGMENTS],
            bands: vec![prof.clone(); TILT_BANDS],
            whole: prof,
            band_shift: vec![0.0; TILT_BANDS],
        };
        assert!(box_comb(&profiles, 3, Spec { n: 9, lone: true }).is_none());
    }

    #[test]
    fn a_candidate_with_one_corner_off_gives_the_grid_level() {
        let (x0, s) = (40.0, 270.0);
        let dark = grid_darkness(360, x0, x0, s);
        let spec = Spec { n: 9, lone: true };
        let right = verify(
            &dark,
            &Quad::new([(x0, x0), (x0 + s, x0), (x0 + s, x0 + s), (x0, x0 + s)]),
            spec,
        );
        // A hull whose top-right corner a label pulled a third of a cell
        // down (as on a typeset answer page), the other corners right.
        let skewed = Quad::new([
            (x0, x0),
            (x0 + s, x0 + 10.0),
            (x0 + s, x0 + s),
            (x0, x0 + s),
        ]);
        let first = verify(&dark, &skewed, spec);
        // The top line found is level (a level comb in the skewed square
        // would leave it tilted by most of the 10 px) ...
        let [tl, tr, _, _] = first.quad.corners;
        assert!((tl.1 - tr.1).abs() < 1.5, "{first:?}");
        // ... so the locator's re-check around it lands on the grid.
        let again = verify(&dark, &super::super::sides::expand(&first.quad, 0.04), spec);
        assert!(again.score > 0.85, "{again:?}");
        for (c, t) in again.quad.corners.iter().zip(right.quad.corners) {
            assert!(
                (c.0 - t.0).abs() < 1.0 && (c.1 - t.1).abs() < 1.0,
                "{again:?} {right:?}"
            );
        }
    }
}
