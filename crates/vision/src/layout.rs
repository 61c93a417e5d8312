//! How the square grids found on a page make up puzzles: a lone 9x9 or
//! 16x16 grid is a puzzle of its own; five 9x9 grids overlapping like a
//! Samurai's (four corner grids each sharing one box with a centre grid)
//! are one Samurai.
//!
//! Each puzzle is a [`Layout`]: its shape and its *parts*, the square grids
//! drawn on the page, each with its place (`origin`, row and column) in the
//! shape's layout. A classic grid is one part at (0, 0); a Samurai is five,
//! at [`SAMURAI_GRIDS`]. A 9x9 grid that shares one corner box with another
//! as a Samurai's do, the Samurai not found whole, is a puzzle of its own
//! marked as a Samurai's part (see [`Found::samurai_part`]).

use snap_solver::{Shape, SAMURAI_GRIDS};

use crate::data::{Found, Layout, Part};
use crate::geometry::Homography;

/// Cells a Samurai's corner grid shares with the centre grid along each
/// side: one 3x3 box.
pub(crate) const SAMURAI_OVERLAP: f64 = 3.0;

/// How far, in cells, a grid that shares a corner box with one 9x9 grid of
/// a Samurai lies from it along each side: its nine cells less the box.
pub(crate) const SAMURAI_REACH: f64 = 9.0 - SAMURAI_OVERLAP;

/// Where the grids that share a corner box with one 9x9 grid of a Samurai
/// lie, in that grid's cells (across, down): [`SAMURAI_REACH`] off
/// diagonally, one way each, in the order a Samurai stores its corner
/// grids (top-left, top-right, bottom-left, bottom-right).
pub(crate) const SAMURAI_NEIGHBOURS: [(f64, f64); 4] = [
    (-SAMURAI_REACH, -SAMURAI_REACH),
    (SAMURAI_REACH, -SAMURAI_REACH),
    (-SAMURAI_REACH, SAMURAI_REACH),
    (SAMURAI_REACH, SAMURAI_REACH),
];

/// How far (in cells of the centre grid) a corner grid's corner may be from
/// where a Samurai puts it: the corners are located to a pixel or two, so a
/// third of a cell only rejects grids that are not a Samurai's.
const SAMURAI_TOLERANCE: f64 = 0.35;

/// Groups the grids of a page into puzzles, in the order of `found` (the
/// locator's reading order; a Samurai takes the place of its first grid).
pub(crate) fn compose(found: &[Found]) -> Vec<Layout> {
    let mut used = vec![false; found.len()];
    let mut samurai_at: Vec<(usize, Layout)> = Vec::new();
    for (c, centre) in found.iter().enumerate() {
        if centre.n != 9 || used[c] {
            continue;
        }
        if let Some(corners) = samurai_corners(found, c, &used) {
            let mut parts = Vec::with_capacity(5);
            for (k, &i) in corners.iter().enumerate() {
                used[i] = true;
                parts.push(Part {
                    found: found[i],
                    origin: SAMURAI_GRIDS[if k < 2 { k } else { k + 1 }],
                });
            }
            used[c] = true;
            parts.insert(
                2,
                Part {
                    found: *centre,
                    origin: SAMURAI_GRIDS[2],
                },
            );
            let first = corners.iter().copied().chain([c]).min().unwrap_or(c);
            samurai_at.push((
                first,
                Layout {
                    shape: Shape::Samurai,
                    parts,
                },
            ));
        }
    }
    let mut out = Vec::new();
    for (i, f) in found.iter().enumerate() {
        if let Some(k) = samurai_at.iter().position(|(first, _)| *first == i) {
            out.push(samurai_at[k].1.clone());
        } else if !used[i] {
            let shape = Shape::square(f.n).unwrap_or_else(Shape::classic);
            let samurai_part = (0..found.len())
                .any(|j| j != i && !used[j] && shares_corner_box(&found[i], &found[j]));
            out.push(Layout {
                shape,
                parts: vec![Part {
                    found: Found { samurai_part, ..*f },
                    origin: (0, 0),
                }],
            });
        }
    }
    out
}

/// Whether 9x9 grids `a` and `b` share one corner box as a Samurai's
/// centre grid and a corner grid do: `b` lies six cells of `a` off
/// diagonally. Two puzzles printed apart never overlap so.
fn shares_corner_box(a: &Found, b: &Found) -> bool {
    if a.n != 9 || b.n != 9 {
        return false;
    }
    let Some(to_cells) = Homography::square_to_quad(9.0, &a.quad).and_then(|h| h.inverse()) else {
        return false;
    };
    let square = [(0.0, 0.0), (9.0, 0.0), (9.0, 9.0), (0.0, 9.0)];
    SAMURAI_NEIGHBOURS.iter().any(|&(dx, dy)| {
        b.quad.corners.iter().zip(square).all(|(&(x, y), (u, v))| {
            let (bu, bv) = to_cells.map64(x as f64, y as f64);
            (bu - u - dx).abs() < SAMURAI_TOLERANCE && (bv - v - dy).abs() < SAMURAI_TOLERANCE
        })
    })
}

/// The four corner grids (top-left, top-right, bottom-left, bottom-right,
/// as stored) that make a Samurai with grid `centre`, if there are.
fn samurai_corners(found: &[Found], centre: usize, used: &[bool]) -> Option<[usize; 4]> {
    let to_cells = Homography::square_to_quad(9.0, &found[centre].quad)?.inverse()?;
    // Where each corner grid's four corners sit in centre-grid cells.
    let mut out = [usize::MAX; 4];
    for (slot, &(dx, dy)) in SAMURAI_NEIGHBOURS.iter().enumerate() {
        let want = [(0.0, 0.0), (9.0, 0.0), (9.0, 9.0), (0.0, 9.0)].map(|(x, y)| (x + dx, y + dy));
        out[slot] = (0..found.len()).find(|&i| {
            i != centre
                && !used[i]
                && found[i].n == 9
                && found[i]
                    .quad
                    .corners
                    .iter()
                    .zip(want)
                    .all(|(&(x, y), (wx, wy))| {
                        let (u, v) = to_cells.map64(x as f64, y as f64);
                        (u - wx).abs() < SAMURAI_TOLERANCE && (v - wy).abs() < SAMURAI_TOLERANCE
                    })
        })?;
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Quad;

    /// An axis-aligned 9x9 grid of 9 px cells with its top-left at (x, y).
    fn grid(x: f32, y: f32) -> Found {
        let s = 81.0;
        Found {
            quad: Quad::new([(x, y), (x + s, y), (x + s, y + s), (x, y + s)]),
            n: 9,
            cut: false,
            at_frame: false,
            samurai_part: false,
            ruled: false,
            alternative: None,
        }
    }

    #[test]
    fn five_overlapping_grids_make_a_samurai_in_layout_order() {
        // Samurai of 9 px cells at (100, 100): corner grids 12 cells apart.
        let at = |r: f32, c: f32| grid(100.0 + 9.0 * c, 100.0 + 9.0 * r);
        let found = vec![
            grid(500.0, 500.0),
            at(12.0, 12.0),
            at(0.0, 0.0),
            at(6.0, 6.0),
            at(0.0, 12.0),
            at(12.0, 0.0),
        ];
        let layouts = compose(&found);
        assert_eq!(layouts.len(), 2);
        assert_eq!(layouts[0].shape, Shape::classic());
        let samurai = &layouts[1];
        assert_eq!(samurai.shape, Shape::Samurai);
        let origins: Vec<(usize, usize)> = samurai.parts.iter().map(|p| p.origin).collect();
        assert_eq!(origins, SAMURAI_GRIDS.to_vec());
        assert_eq!(samurai.parts[0].found, at(0.0, 0.0));
        assert_eq!(samurai.parts[2].found, at(6.0, 6.0));
        assert_eq!(samurai.parts[4].found, at(12.0, 12.0));
        assert_eq!(
            samurai.outline().corners[2],
            (100.0 + 9.0 * 21.0, 100.0 + 9.0 * 21.0)
        );
    }

    #[test]
    fn grids_side_by_side_stay_separate() {
        let layouts = compose(&[grid(0.0, 0.0), grid(100.0, 0.0), grid(0.0, 100.0)]);
        assert_eq!(layouts.len(), 3);
        assert!(layouts.iter().all(|l| l.parts.len() == 1));
        assert!(layouts.iter().all(|l| !l.samurai_part()));
        // Printed with a gap of three cells, as a Samurai's corner grids
        // are: still puzzles of their own.
        let gap = compose(&[grid(0.0, 0.0), grid(108.0, 0.0)]);
        assert!(gap.iter().all(|l| !l.samurai_part()));
    }

    #[test]
    fn grids_of_a_samurai_not_found_whole_are_marked_its_parts() {
        // The centre and bottom-right grids of a Samurai of 9 px cells, and
        // a puzzle beside it.
        let at = |r: f32, c: f32| grid(100.0 + 9.0 * c, 100.0 + 9.0 * r);
        let found = [at(6.0, 6.0), at(12.0, 12.0), grid(500.0, 100.0)];
        let layouts = compose(&found);
        assert_eq!(layouts.len(), 3);
        let parts: Vec<bool> = layouts.iter().map(Layout::samurai_part).collect();
        assert_eq!(parts, vec![true, true, false]);
        // Each grid alone is a 9x9 in its own place.
        assert!(layouts.iter().all(|l| l.shape == Shape::classic()));
        assert_eq!(layouts[1].parts[0].found.quad, at(12.0, 12.0).quad);
    }

    #[test]
    fn turning_a_samurai_moves_its_parts() {
        let at = |r: f32, c: f32| grid(9.0 * c, 9.0 * r);
        let found = [
            at(0.0, 0.0),
            at(0.0, 12.0),
            at(6.0, 6.0),
            at(12.0, 0.0),
            at(12.0, 12.0),
        ];
        let samurai = &compose(&found)[0];
        let turned = samurai.rotated(1);
        let origins: Vec<(usize, usize)> = turned.parts.iter().map(|p| p.origin).collect();
        assert_eq!(origins, SAMURAI_GRIDS.to_vec());
        // After one clockwise turn the upright top-left grid is the one that
        // was stored bottom-left.
        assert_eq!(turned.parts[0].found.quad, at(12.0, 0.0).quad.rotated(1));
        assert_eq!(samurai.rotated(4), {
            let mut same = samurai.clone();
            same.parts.sort_by_key(|p| p.origin);
            same
        });
    }
}
