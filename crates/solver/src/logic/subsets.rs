//! Naked and hidden subsets (pairs, triples, quads) within one unit.

use super::{digits, first_combination, Candidates, Placement, Step, Technique, Unit, UNITS};

/// The naked technique of each size (index = size - 2).
const NAKED: [Technique; 3] = [
    Technique::NakedPair,
    Technique::NakedTriple,
    Technique::NakedQuad,
];

/// The hidden technique of each size (index = size - 2).
const HIDDEN: [Technique; 3] = [
    Technique::HiddenPair,
    Technique::HiddenTriple,
    Technique::HiddenQuad,
];

/// `size` cells of a unit whose candidates together are `size` digits:
/// those digits go from the unit's other cells.
pub(super) fn naked(grid: &Candidates, size: usize) -> Option<Step> {
    (0..27).find_map(|u| {
        let empty: Vec<usize> = UNITS[u]
            .iter()
            .copied()
            .filter(|&c| grid.value(c) == 0)
            .collect();
        let small: Vec<usize> = empty
            .iter()
            .copied()
            .filter(|&c| (grid.mask(c).count_ones() as usize) <= size)
            .collect();
        first_combination(&small, size, &mut |cells| {
            let union = cells.iter().fold(0, |m, &c| m | grid.mask(c));
            if union.count_ones() as usize != size {
                return None;
            }
            let others = || empty.iter().copied().filter(|c| !cells.contains(c));
            let eliminations: Vec<Placement> = digits(union)
                .flat_map(|d| grid.removals(d, others()))
                .collect();
            (!eliminations.is_empty()).then(|| Step {
                technique: NAKED[size - 2],
                placements: Vec::new(),
                eliminations,
                cells: cells.to_vec(),
                units: vec![Unit::from_index(u)],
                digits: digits(union).collect(),
            })
        })
    })
}

/// `size` digits whose places in a unit are `size` cells together: the
/// other candidates go from those cells.
pub(super) fn hidden(grid: &Candidates, size: usize) -> Option<Step> {
    (0..27).find_map(|u| {
        // Places of each digit (index d - 1), computed once per unit.
        let all_places: [u16; 9] = std::array::from_fn(|i| grid.places(u, i as u8 + 1));
        let open: Vec<usize> = (1..=9usize)
            .filter(|&d| (1..=size).contains(&(all_places[d - 1].count_ones() as usize)))
            .collect();
        first_combination(&open, size, &mut |chosen| {
            let places = chosen.iter().fold(0u16, |m, &d| m | all_places[d - 1]);
            if places.count_ones() as usize != size {
                return None;
            }
            let keep = chosen.iter().fold(0u16, |m, &d| m | super::bit(d as u8));
            let cells: Vec<usize> = (0..9)
                .filter(|i| places & (1 << i) != 0)
                .map(|i| UNITS[u][i])
                .collect();
            let eliminations: Vec<Placement> = cells
                .iter()
                .flat_map(|&cell| {
                    digits(grid.mask(cell) & !keep).map(move |digit| Placement { cell, digit })
                })
                .collect();
            (!eliminations.is_empty()).then(|| Step {
                technique: HIDDEN[size - 2],
                placements: Vec::new(),
                eliminations,
                cells,
                units: vec![Unit::from_index(u)],
                digits: chosen.iter().map(|&d| d as u8).collect(),
            })
        })
    })
}
