//! Basic fish: X-Wing (2), Swordfish (3), Jellyfish (4).
//!
//! For one digit, `n` base lines (rows, say) whose places all lie in `n`
//! cover lines (columns): the digit takes one place in each base row, which
//! fills all `n` cover columns, so it goes from the rest of those columns.

use super::{first_combination, Candidates, Placement, Step, Technique, Unit};

/// The fish technique of size `n`.
fn technique(n: usize) -> Technique {
    match n {
        2 => Technique::XWing,
        3 => Technique::Swordfish,
        _ => Technique::Jellyfish,
    }
}

/// The cell where line `line` (0-8 rows, 9-17 columns) meets cross line `cross` (0-8).
fn meet(line: usize, cross: usize) -> usize {
    if line < 9 {
        line * 9 + cross
    } else {
        cross * 9 + (line - 9)
    }
}

/// A fish of size `n` on any digit, rows as base lines first, then columns.
pub(super) fn find(grid: &Candidates, n: usize) -> Option<Step> {
    (1..=9u8).find_map(|d| {
        [0usize, 9].into_iter().find_map(|first| {
            // Places of d in each base line, as a mask of cross positions.
            let places: [u16; 9] = std::array::from_fn(|i| grid.places(first + i, d));
            let eligible: Vec<usize> = (first..first + 9)
                .filter(|&l| (2..=n as u32).contains(&places[l - first].count_ones()))
                .collect();
            first_combination(&eligible, n, &mut |base| {
                let cover = base.iter().fold(0u16, |m, &l| m | places[l - first]);
                if cover.count_ones() as usize != n {
                    return None;
                }
                let crosses: Vec<usize> = (0..9).filter(|x| cover & (1 << x) != 0).collect();
                let targets = crosses.iter().flat_map(|&x| {
                    (first..first + 9)
                        .filter(|l| !base.contains(l))
                        .map(move |l| meet(l, x))
                });
                let eliminations: Vec<Placement> = grid.removals(d, targets);
                if eliminations.is_empty() {
                    return None;
                }
                let cover_first = 9 - first;
                let cells = base
                    .iter()
                    .flat_map(|&l| crosses.iter().map(move |&x| meet(l, x)))
                    .filter(|&c| grid.has(c, d))
                    .collect();
                let units = base
                    .iter()
                    .copied()
                    .chain(crosses.iter().map(|&x| cover_first + x))
                    .map(Unit::from_index)
                    .collect();
                Some(Step {
                    technique: technique(n),
                    placements: Vec::new(),
                    eliminations,
                    cells,
                    units,
                    digits: vec![d],
                })
            })
        })
    })
}
