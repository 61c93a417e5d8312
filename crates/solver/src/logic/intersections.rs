//! Locked candidates: where a box meets a row or column.

use super::{Candidates, Placement, Step, Technique, Unit, UNITS};

/// A locked-candidates step: `digit` in unit `from` lies only where it meets
/// unit `to`, so it goes from the rest of `to`.
fn locked(
    grid: &Candidates,
    technique: Technique,
    digit: u8,
    from: usize,
    to: usize,
) -> Option<Step> {
    let eliminations: Vec<Placement> = grid.removals(
        digit,
        UNITS[to]
            .iter()
            .copied()
            .filter(|c| !UNITS[from].contains(c)),
    );
    if eliminations.is_empty() {
        return None;
    }
    let cells = UNITS[from]
        .iter()
        .copied()
        .filter(|&c| grid.has(c, digit))
        .collect();
    Some(Step {
        technique,
        placements: Vec::new(),
        eliminations,
        cells,
        units: vec![Unit::from_index(from), Unit::from_index(to)],
        digits: vec![digit],
    })
}

/// The line (internal unit number) holding every one of `cells`, if any.
fn common_line(cells: &[usize]) -> [Option<usize>; 2] {
    let first = cells[0];
    let row = cells
        .iter()
        .all(|&c| c / 9 == first / 9)
        .then_some(first / 9);
    let col = cells
        .iter()
        .all(|&c| c % 9 == first % 9)
        .then_some(9 + first % 9);
    [row, col]
}

/// The places (cells) of `digit` in unit `u`.
fn cells_of(grid: &Candidates, u: usize, digit: u8) -> Vec<usize> {
    UNITS[u]
        .iter()
        .copied()
        .filter(|&c| grid.has(c, digit))
        .collect()
}

/// Pointing: a digit's places in a box all lie on one row or column.
pub(super) fn pointing(grid: &Candidates) -> Option<Step> {
    (18..27).find_map(|b| {
        (1..=9).find_map(|d| {
            let cells = cells_of(grid, b, d);
            if cells.len() < 2 {
                return None;
            }
            common_line(&cells)
                .into_iter()
                .flatten()
                .find_map(|line| locked(grid, Technique::LockedPointing, d, b, line))
        })
    })
}

/// Claiming: a digit's places on a row or column all lie in one box.
pub(super) fn claiming(grid: &Candidates) -> Option<Step> {
    (0..18).find_map(|line| {
        (1..=9).find_map(|d| {
            let cells = cells_of(grid, line, d);
            let b = super::box_of(*cells.first()?);
            if cells.len() < 2 || cells.iter().any(|&c| super::box_of(c) != b) {
                return None;
            }
            locked(grid, Technique::LockedClaiming, d, line, 18 + b)
        })
    })
}
