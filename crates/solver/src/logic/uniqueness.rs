//! Uniqueness techniques: unique rectangle type 1.
//!
//! Four empty cells at the corners of a rectangle spanning two rows, two
//! columns and exactly two boxes, all holding only `{a, b}`, would let `a`
//! and `b` swap in any solution: a second solution. So in a puzzle with one
//! solution, when three corners hold only `{a, b}`, the fourth is not `a` or
//! `b`. Only sound when the puzzle is known to have one solution.

use super::{digits, Candidates, Placement, Step, Technique};

/// A unique rectangle of type 1: three bivalue corners, the fourth loses the pair.
pub(super) fn rectangle_type1(grid: &Candidates) -> Option<Step> {
    let bivalue = |c: usize| grid.mask(c).count_ones() == 2;
    for r1 in 0..9 {
        for r2 in r1 + 1..9 {
            for c1 in 0..9 {
                for c2 in c1 + 1..9 {
                    // Two boxes: the rows share a band or the columns a
                    // stack, not both (one box) and not neither (four).
                    if (r1 / 3 == r2 / 3) == (c1 / 3 == c2 / 3) {
                        continue;
                    }
                    let corners = [r1 * 9 + c1, r1 * 9 + c2, r2 * 9 + c1, r2 * 9 + c2];
                    let empty = corners.iter().all(|&c| grid.value(c) == 0);
                    if !empty || corners.iter().filter(|&&c| bivalue(c)).count() < 3 {
                        continue;
                    }
                    if let Some(step) = try_corners(grid, corners) {
                        return Some(step);
                    }
                }
            }
        }
    }
    None
}

/// The type-1 step of one rectangle, if three corners share one bivalue mask.
fn try_corners(grid: &Candidates, corners: [usize; 4]) -> Option<Step> {
    (0..4).find_map(|odd| {
        let pair = grid.mask(corners[(odd + 1) % 4]);
        let rest = corners.iter().enumerate().filter(|&(i, _)| i != odd);
        if pair.count_ones() != 2 || rest.clone().any(|(_, &c)| grid.mask(c) != pair) {
            return None;
        }
        let target = corners[odd];
        if grid.mask(target) & pair != pair || grid.mask(target) == pair {
            return None;
        }
        let mut cells: Vec<usize> = rest.map(|(_, &c)| c).collect();
        cells.push(target);
        Some(Step {
            technique: Technique::UniqueRectangle,
            placements: Vec::new(),
            eliminations: digits(pair)
                .map(|digit| Placement {
                    cell: target,
                    digit,
                })
                .collect(),
            cells,
            units: Vec::new(),
            digits: digits(pair).collect(),
        })
    })
}
