//! Singles: full house, hidden single, naked single.

use super::{bit, only_digit, Candidates, Placement, Step, Technique, Unit, ALL, UNITS};

/// Unit order for singles: boxes first, then rows, then columns, because
/// people scan boxes first and a box single reads most naturally.
const SINGLE_UNIT_ORDER: [usize; 27] = {
    let mut order = [0; 27];
    let mut i = 0;
    while i < 27 {
        order[i] = (i + 18) % 27;
        i += 1;
    }
    order
};

/// A one-placement step.
fn single(technique: Technique, cell: usize, digit: u8, units: Vec<Unit>) -> Step {
    Step {
        technique,
        placements: vec![Placement { cell, digit }],
        eliminations: Vec::new(),
        cells: vec![cell],
        units,
        digits: vec![digit],
    }
}

/// The last empty cell of a unit, when its one candidate is the unit's missing digit.
pub(super) fn full_house(grid: &Candidates) -> Option<Step> {
    SINGLE_UNIT_ORDER.iter().find_map(|&u| {
        let mut empty = UNITS[u].iter().filter(|&&c| grid.value(c) == 0);
        let cell = *empty.next()?;
        if empty.next().is_some() {
            return None;
        }
        let placed = UNITS[u]
            .iter()
            .filter(|&&c| c != cell)
            .fold(0u16, |m, &c| m | bit(grid.value(c)));
        let missing = ALL & !placed;
        (grid.mask(cell) == missing && missing.count_ones() == 1).then(|| {
            single(
                Technique::FullHouse,
                cell,
                only_digit(missing),
                vec![Unit::from_index(u)],
            )
        })
    })
}

/// A digit with exactly one place in a unit.
pub(super) fn hidden_single(grid: &Candidates) -> Option<Step> {
    SINGLE_UNIT_ORDER.iter().find_map(|&u| {
        (1..=9).find_map(|d| {
            let places = grid.places(u, d);
            (places.count_ones() == 1).then(|| {
                let cell = UNITS[u][places.trailing_zeros() as usize];
                single(Technique::HiddenSingle, cell, d, vec![Unit::from_index(u)])
            })
        })
    })
}

/// An empty cell with one candidate.
pub(super) fn naked_single(grid: &Candidates) -> Option<Step> {
    (0..81).find_map(|cell| {
        let mask = grid.mask(cell);
        (mask.count_ones() == 1)
            .then(|| single(Technique::NakedSingle, cell, only_digit(mask), Vec::new()))
    })
}
