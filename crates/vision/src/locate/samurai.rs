//! A Samurai found in part, completed where its grids must be.
//!
//! On a busy background (a printout on a table cloth) the outline of a
//! Samurai is seldom one component: the cloth joins it or cuts it, and the
//! page search finds some of its five 9x9 grids alone, the centre grid
//! (whose border is shared with four corner boxes) least often. Grids
//! found alone are each read as a puzzle of their own, which a Samurai's
//! grid is not: alone it has several solutions, or it is left as a part.
//!
//! Two grids found where a Samurai puts two of its grids place the whole
//! Samurai: its 21 x 21 cells are mapped onto the photo through their
//! corners, and each of the five grids not found there is looked at where
//! the placement puts it, on a crop of the photo, as the Samurai's window
//! it would be (lines of its neighbours one pitch outside allowed). A grid
//! is added only where a 9x9 comb passes on the placement itself; a grid
//! found in its place but off it (placed by a lattice or a comb a cell
//! short) gives way to it. A placement read wrongly (two grids side by
//! side are a Samurai's top pair or its bottom pair) puts its other grids
//! on the background, where no comb passes. Two puzzles printed three cells
//! apart are no Samurai either: the centre window between them has two
//! columns of blank paper, and no comb passes without those teeth.

use image::{GrayImage, Luma};
use snap_solver::SAMURAI_GRIDS;

use super::{
    bbox_overlap, crop_search, examine, finish, full_to_work, quad_to_full, Located, Spec, Verdict,
    RECHECK_GROWTH, SAME_GRID_OVERLAP,
};
use crate::geometry::{corner_error, Homography, Quad};
use crate::layout::{SAMURAI_NEIGHBOURS, SAMURAI_OVERLAP, SAMURAI_REACH};

/// Cells per side of a Samurai's grids.
const GRID_CELLS: f64 = 9.0;

/// How far (cells of one of them) the corners of two grids found may lie
/// from where a Samurai puts them for the pair to place that Samurai: the
/// corners are found to a pixel or two, and mapped over up to 21 cells
/// through one grid's perspective that grows to a third of a cell; a pair
/// a cell off is no Samurai's.
const PAIR_CELLS: f64 = 0.5;

/// The crop a window is looked at on (see [`window_without`]) reaches
/// this fraction of the window's side past it: twice the look's own
/// margin (`CLOSER_MARGIN`), so that the look's crop lies inside it.
const WINDOW_MARGIN: f32 = 0.3;

/// Cells each corner box painted over (see [`samurai_windows`])
/// reaches past its lines: a grid's line is drawn across its box's edge,
/// and the half left outside would make the window's box lines on their
/// own; a quarter of a cell clears a thick line in any photo the search
/// reads.
const COVER_GROWTH: f64 = 0.25;

/// Share of a crop's pixels at or under its paper grey (see
/// [`paper_grey`]): a Samurai's window is mostly paper, its lines and
/// digits a fifth of it or less.
const PAPER_SHARE: f32 = 0.8;

/// The centre grid's place in [`SAMURAI_GRIDS`].
const CENTRE: usize = 2;

/// A grid found stands where the placement puts a grid when each of its
/// corners lies within this share of a cell of the prediction. Farther off
/// (a grid placed by its lattice, a comb partly on a neighbour's lines)
/// it is looked at again, and gives way to the grid the look finds: the
/// five must lie within a third of a cell of where the centre grid puts
/// them for `layout::compose` to make them one Samurai, and a placement
/// through two grids' corners may itself be a tenth of a cell off.
const MATCH_CELLS: f32 = 0.15;

/// A comb found where the placement puts a grid stands for it when each of
/// its corners lies within this share of a cell of the prediction: a
/// comb a row off is a cell away.
const ON_PLACEMENT_CELLS: f32 = 0.5;

/// Two placements are the same when their Samurai's corners lie within
/// this share of a cell of each other.
const SAME_PLACEMENT_CELLS: f32 = 0.5;

/// `located` with the grids of every Samurai that two of its grids found
/// place (see the module's docs) looked at and added, each replacing the
/// grids found in its place but off it.
pub(super) fn completed(gray: &GrayImage, mut located: Vec<Located>) -> Vec<Located> {
    for placement in placements(&located) {
        // The centre grid first: a placement whose centre is neither found
        // nor seen is none (two puzzles three cells apart).
        let Some(seen) = stands(gray, &located, &placement, SAMURAI_GRIDS[CENTRE]) else {
            continue;
        };
        let mut added: Vec<Located> = seen.into_iter().collect();
        for (i, &at) in SAMURAI_GRIDS.iter().enumerate() {
            if i != CENTRE {
                added.extend(stands(gray, &located, &placement, at).flatten());
            }
        }
        for grid in added {
            located.retain(|l| bbox_overlap(&l.quad, &grid.quad) <= SAME_GRID_OVERLAP);
            located.push(grid);
        }
    }
    located
}

/// The windows six cells off the corners of the 9x9 grid at `quad` (photo
/// pixels; looked at lazily, in the order of `SAMURAI_NEIGHBOURS`), where
/// the grid's own perspective puts them, in which a 9x9
/// grid of the Samurai it belongs to shows: a Samurai's centre grid past
/// a corner grid's inner corner, its four corner grids past the centre
/// grid's corners. Each window is looked at with its four corner boxes
/// painted over (see [`window_without`]): each is a box of another grid
/// of the Samurai, and a comb passes on a window whose corner boxes hold
/// grids over blank paper (puzzles printed three cells apart); what is
/// left, the cross of boxes through the window's middle, holds lines only
/// where the window is a grid of its own.
fn samurai_windows<'a>(gray: &'a GrayImage, quad: &Quad) -> impl Iterator<Item = Quad> + 'a {
    let to_photo = Homography::square_to_quad(GRID_CELLS, quad);
    to_photo.into_iter().flat_map(move |to_photo| {
        SAMURAI_NEIGHBOURS.iter().filter_map(move |&(dx, dy)| {
            let on_photo = |(x, y): (f64, f64)| {
                let (u, v) = to_photo.map64(x + dx, y + dy);
                (u as f32, v as f32)
            };
            let window = Quad::new(square(0.0, 0.0).map(on_photo));
            let corner_boxes = [
                (0.0, 0.0),
                (SAMURAI_REACH, 0.0),
                (0.0, SAMURAI_REACH),
                (SAMURAI_REACH, SAMURAI_REACH),
            ]
            .map(|(x, y)| {
                let (lo, hi) = (-COVER_GROWTH, SAMURAI_OVERLAP + COVER_GROWTH);
                Quad::new(
                    [
                        (x + lo, y + lo),
                        (x + hi, y + lo),
                        (x + hi, y + hi),
                        (x + lo, y + hi),
                    ]
                    .map(on_photo),
                )
            });
            let (crop, origin) = window_without(gray, &window, &corner_boxes)?;
            look(&crop, &window.translated((-origin.0, -origin.1)))?;
            Some(window)
        })
    })
}

/// Whether the lone 9x9 grid `lone` is one of a Samurai whose other grids
/// the search missed (see [`samurai_windows`]), and that Samurai's five
/// grids when they can be placed: a corner grid shows one window, the
/// centre grid; a centre grid shows four. The grid found in one of those
/// windows (looked at as it is) and `lone` place the Samurai as two grids
/// found do (see [`completed`]); `None` in the second place unless all
/// five then stand.
///
/// Not part of the page search: only a lone grid read with several
/// solutions, which a Samurai's grid alone has, is looked at so. Where
/// every grid is looked at, a page of puzzles a cell apart gains grids
/// between them.
pub(crate) fn samurai_of_lone(gray: &GrayImage, lone: &Located) -> (bool, Option<Vec<Located>>) {
    // Windows are looked at one by one, up to the first whose grid is found
    // as it is: a centre grid's four windows all show, and one places it.
    let mut shows = false;
    let grids = samurai_windows(gray, &lone.quad)
        .find_map(|window| {
            shows = true;
            look(gray, &window)
        })
        .map(|neighbour| completed(gray, vec![*lone, neighbour]))
        .filter(|grids| grids.len() == SAMURAI_GRIDS.len());
    (shows, grids)
}

/// A crop of `gray` around `window` (with room for the look's own margin)
/// where each of `covered` (photo pixels) is painted over in the crop's
/// paper grey, and the crop's origin.
fn window_without(
    gray: &GrayImage,
    window: &Quad,
    covered: &[Quad],
) -> Option<(GrayImage, (f32, f32))> {
    let margin = WINDOW_MARGIN * window.max_side();
    let (x0, y0, x1, y1) = super::bounds_around(window, margin, gray.dimensions());
    let (x0, y0) = (x0 as u32, y0 as u32);
    let (w, h) = (
        (x1 as u32).saturating_sub(x0),
        (y1 as u32).saturating_sub(y0),
    );
    if w == 0 || h == 0 {
        return None;
    }
    let mut crop = image::imageops::crop_imm(gray, x0, y0, w, h).to_image();
    let paper = Luma([paper_grey(&crop)]);
    let origin = (x0 as f32, y0 as f32);
    for quad in covered {
        let quad = quad.translated((-origin.0, -origin.1));
        let (qx0, qy0, qx1, qy1) = quad.bounds();
        let span =
            |lo: f32, hi: f32, end: u32| (lo.max(0.0) as u32, (hi.ceil().max(0.0) as u32).min(end));
        let ((cx0, cx1), (cy0, cy1)) = (span(qx0, qx1, w), span(qy0, qy1, h));
        for y in cy0..cy1 {
            for x in cx0..cx1 {
                if quad.contains((x as f32 + 0.5, y as f32 + 0.5)) {
                    crop.put_pixel(x, y, paper);
                }
            }
        }
    }
    Some((crop, origin))
}

/// The grey of `img`'s paper: the level [`PAPER_SHARE`] of its pixels are
/// at or under (ink, lines and the background around a sheet are darker).
fn paper_grey(img: &GrayImage) -> u8 {
    let px = crate::histogram::histogram_of_image(img);
    px.sorted_at((px.len as f32 * PAPER_SHARE) as usize)
        .unwrap_or(u8::MAX)
}

/// Whether the Samurai grid at row and column `(r, c)` of `placement`
/// stands: `Some(None)` when a grid of `located` is there, `Some(grid)`
/// when the look there (see [`look`]) finds it, `None` otherwise.
fn stands(
    gray: &GrayImage,
    located: &[Located],
    placement: &Homography,
    (r, c): (usize, usize),
) -> Option<Option<Located>> {
    let predicted = grid_at(placement, r, c);
    let cell = predicted.max_side() / GRID_CELLS as f32;
    if located
        .iter()
        .any(|l| l.n == 9 && near(&l.quad, &predicted, MATCH_CELLS * cell))
    {
        return Some(None);
    }
    look(gray, &predicted).map(Some)
}

/// The Samurai placements (Samurai cells, column across and row down, to
/// photo pixels) that pairs of whole 9x9 grids of `located` make, each once.
fn placements(located: &[Located]) -> Vec<Homography> {
    let grids: Vec<&Quad> = located
        .iter()
        .filter(|l| l.n == 9 && !l.cut)
        .map(|l| &l.quad)
        .collect();
    let mut out: Vec<Homography> = Vec::new();
    for (i, a) in grids.iter().enumerate() {
        let Some(to_cells) = Homography::square_to_quad(GRID_CELLS, a).and_then(|h| h.inverse())
        else {
            continue;
        };
        for b in &grids[i + 1..] {
            for (ra, ca) in SAMURAI_GRIDS {
                for (rb, cb) in SAMURAI_GRIDS {
                    let offset = ((cb as f64 - ca as f64), (rb as f64 - ra as f64));
                    if offset == (0.0, 0.0) || !placed_at(&to_cells, b, offset) {
                        continue;
                    }
                    let Some(h) = placement(a, (ra, ca), b, (rb, cb)) else {
                        continue;
                    };
                    if !out.iter().any(|o| same_placement(o, &h)) {
                        out.push(h);
                    }
                }
            }
        }
    }
    out
}

/// Whether grid `b` lies `offset` cells (across, down) from the grid whose
/// photo-to-cells map is `to_cells`, within [`PAIR_CELLS`].
fn placed_at(to_cells: &Homography, b: &Quad, (dx, dy): (f64, f64)) -> bool {
    b.corners
        .iter()
        .zip(square(dx, dy))
        .all(|(&(x, y), (u, v))| {
            let (bu, bv) = to_cells.map64(f64::from(x), f64::from(y));
            (bu - u).abs() < PAIR_CELLS && (bv - v).abs() < PAIR_CELLS
        })
}

/// The corners (tl, tr, br, bl) of a grid whose top-left cell is column
/// `x`, row `y`.
fn square(x: f64, y: f64) -> [(f64, f64); 4] {
    [
        (x, y),
        (x + GRID_CELLS, y),
        (x + GRID_CELLS, y + GRID_CELLS),
        (x, y + GRID_CELLS),
    ]
}

/// The placement mapping Samurai cells onto the photo that puts grid `a`
/// at Samurai row and column `at_a` and `b` at `at_b`: through the four of
/// their eight corners nearest the corners of the two grids' bounding box
/// in cells, the widest-spread four.
fn placement(a: &Quad, at_a: (usize, usize), b: &Quad, at_b: (usize, usize)) -> Option<Homography> {
    let corners = |q: &Quad, (r, c): (usize, usize)| {
        square(c as f64, r as f64)
            .into_iter()
            .zip(q.corners.map(|(x, y)| (f64::from(x), f64::from(y))))
    };
    let points: Vec<((f64, f64), (f64, f64))> = corners(a, at_a).chain(corners(b, at_b)).collect();
    let (lo_x, lo_y, hi_x, hi_y) = points.iter().fold(
        (f64::MAX, f64::MAX, f64::MIN, f64::MIN),
        |(a, b, c, d), &((x, y), _)| (a.min(x), b.min(y), c.max(x), d.max(y)),
    );
    let chosen = [(lo_x, lo_y), (hi_x, lo_y), (hi_x, hi_y), (lo_x, hi_y)].map(|(tx, ty)| {
        points
            .iter()
            .copied()
            .min_by(|p, q| {
                let d = |((x, y), _): &((f64, f64), (f64, f64))| (x - tx).hypot(y - ty);
                d(p).total_cmp(&d(q))
            })
            .unwrap_or(((tx, ty), (0.0, 0.0)))
    });
    Homography::from_points(chosen.map(|(s, _)| s), chosen.map(|(_, d)| d))
}

/// The photo quad of the Samurai grid at row `r`, column `c` of `placement`.
fn grid_at(placement: &Homography, r: usize, c: usize) -> Quad {
    Quad::new(square(c as f64, r as f64).map(|(x, y)| {
        let (u, v) = placement.map64(x, y);
        (u as f32, v as f32)
    }))
}

/// Whether two placements put the Samurai in one place.
fn same_placement(a: &Homography, b: &Homography) -> bool {
    let (qa, qb) = (grid_at(a, 6, 6), grid_at(b, 6, 6));
    near(
        &qa,
        &qb,
        SAME_PLACEMENT_CELLS * qa.max_side() / GRID_CELLS as f32,
    )
}

/// Whether each corner of `a` lies within `reach` pixels of `b`'s.
fn near(a: &Quad, b: &Quad, reach: f32) -> bool {
    corner_error(a, b) <= reach
}

/// The 9x9 grid at `predicted` (photo pixels), looked at on a crop of the
/// photo around it as a Samurai's window (see the module's docs) and
/// refined; `None` unless its comb passes on the prediction, whole, away
/// from the crop's edges and in the photo.
fn look(gray: &GrayImage, predicted: &Quad) -> Option<Located> {
    let (w, h) = gray.dimensions();
    let inside = predicted
        .corners
        .iter()
        .all(|&(x, y)| x >= 0.0 && y >= 0.0 && x <= w as f32 && y <= h as f32);
    if !inside {
        return None;
    }
    let (mut dbg, origin) = crop_search(gray, predicted)?;
    let kf = dbg.scale;
    let window = full_to_work(&super::expand(predicted, RECHECK_GROWTH), kf, origin);
    let spec = Spec { n: 9, lone: false };
    let ex = examine(&mut dbg, &window, false, spec);
    if !ex.passed || ex.frame.iter().any(|&f| f) {
        return None;
    }
    let found = quad_to_full(&ex.verdict.quad, kf).translated(origin);
    let cell = predicted.max_side() / GRID_CELLS as f32;
    if !near(&found, predicted, ON_PLACEMENT_CELLS * cell) {
        return None;
    }
    let ex = super::Examined {
        verdict: Verdict {
            quad: full_to_work(&found, kf, (0.0, 0.0)),
            ..ex.verdict
        },
        ..ex
    };
    let grid = finish(gray, &ex, kf);
    (!grid.cut).then_some(grid)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::locate::tests::draw_grids;

    const CELL: u32 = 30;
    const ORIGIN: (u32, u32) = (100, 100);

    /// The photo quad of the grid whose top-left cell is `(c, r)`.
    fn truth(c: u32, r: u32) -> Quad {
        let (x, y) = ((ORIGIN.0 + c * CELL) as f32, (ORIGIN.1 + r * CELL) as f32);
        let s = 9.0 * CELL as f32;
        Quad::new([(x, y), (x + s, y), (x + s, y + s), (x, y + s)])
    }

    fn found(c: u32, r: u32) -> Located {
        Located {
            quad: truth(c, r),
            score: 0.6,
            n: 9,
            cut: false,
            at_frame: false,
            alternative: None,
        }
    }

    /// The grids of `located` near each of `origins`, in order.
    fn at(located: &[Located], origins: &[(u32, u32)]) -> Vec<bool> {
        origins
            .iter()
            .map(|&(c, r)| {
                located
                    .iter()
                    .any(|l| l.n == 9 && corner_error(&l.quad, &truth(c, r)) < 3.0)
            })
            .collect()
    }

    #[test]
    fn two_grids_of_a_samurai_place_the_other_three() {
        let samurai = [(0, 0), (12, 0), (6, 6), (0, 12), (12, 12)];
        let page = draw_grids(900, ORIGIN, CELL, 90, &samurai);
        // The bottom pair alone, and a corner with the centre.
        for pair in [[(0, 12), (12, 12)], [(12, 0), (6, 6)]] {
            let located = completed(&page, pair.iter().map(|&(c, r)| found(c, r)).collect());
            assert_eq!(located.len(), 5, "{pair:?}: {located:?}");
            assert!(at(&located, &samurai).iter().all(|&a| a), "{located:?}");
        }
        // A grid found a cell off gives way to the grid where the
        // Samurai puts it.
        let mut off = found(12, 12);
        off.quad = off.quad.translated((CELL as f32, 0.0));
        let located = completed(&page, vec![found(0, 0), found(6, 6), off]);
        assert_eq!(located.len(), 5, "{located:?}");
        assert!(at(&located, &samurai).iter().all(|&a| a), "{located:?}");
    }

    #[test]
    fn a_lone_grid_of_a_samurai_shows_its_samurai() {
        let samurai = [(0, 0), (12, 0), (6, 6), (0, 12), (12, 12)];
        let page = draw_grids(900, ORIGIN, CELL, 90, &samurai);
        for &(c, r) in &samurai {
            assert!(
                samurai_windows(&page, &truth(c, r)).next().is_some(),
                "({c}, {r})"
            );
        }
        // Puzzles printed apart, three cells or more, and a puzzle alone.
        let four = [(0, 0), (12, 0), (0, 12), (12, 12)];
        let apart = draw_grids(900, ORIGIN, CELL, 90, &four);
        for &(c, r) in &four {
            assert!(
                samurai_windows(&apart, &truth(c, r)).next().is_none(),
                "({c}, {r})"
            );
        }
        let alone = draw_grids(900, ORIGIN, CELL, 90, &[(6, 6)]);
        assert!(samurai_windows(&alone, &truth(6, 6)).next().is_none());
    }

    #[test]
    fn one_grid_of_a_samurai_places_the_samurai() {
        let samurai = [(0, 0), (12, 0), (6, 6), (0, 12), (12, 12)];
        let page = draw_grids(900, ORIGIN, CELL, 90, &samurai);
        // A corner grid and the centre grid, each found alone.
        for (c, r) in [(12, 12), (6, 6)] {
            let (shows, grids) = samurai_of_lone(&page, &found(c, r));
            assert!(shows, "({c}, {r})");
            let grids = grids.unwrap_or_default();
            assert_eq!(grids.len(), 5, "({c}, {r}): {grids:?}");
            assert!(at(&grids, &samurai).iter().all(|&a| a), "{grids:?}");
        }
        // Puzzles printed three cells apart place nothing.
        let four = [(0, 0), (12, 0), (0, 12), (12, 12)];
        let apart = draw_grids(900, ORIGIN, CELL, 90, &four);
        assert_eq!(samurai_of_lone(&apart, &found(12, 12)), (false, None));
    }

    #[test]
    fn puzzles_printed_three_cells_apart_are_no_samurai() {
        // Four puzzles in two rows, three cells apart: every pair lies
        // where a Samurai's corner grids would, but the centre window
        // between them has two columns of blank paper.
        let four = [(0, 0), (12, 0), (0, 12), (12, 12)];
        let page = draw_grids(900, ORIGIN, CELL, 90, &four);
        let located = completed(&page, four.iter().map(|&(c, r)| found(c, r)).collect());
        assert_eq!(located.len(), 4, "{located:?}");
        let pair = completed(&page, vec![found(0, 0), found(12, 0)]);
        assert_eq!(pair.len(), 2, "{pair:?}");
    }
}
