//! Simple colouring on one digit.
//!
//! Two places of a digit that are the only two in some unit (a conjugate
//! pair) hold it exactly once between them. Chaining conjugate pairs and
//! giving their cells alternating colours splits a cluster in two: all cells
//! of one colour hold the digit, none of the other. Hence
//! - colour wrap: two cells of one colour in one unit make that colour false;
//! - colour trap: a cell outside the cluster that sees both colours cannot
//!   hold the digit.

use super::{sees, Candidates, Placement, Step, Technique, Unit, UNITS};

/// A simple-colouring step on any digit: wraps first (they remove more).
pub(super) fn simple_colouring(grid: &Candidates) -> Option<Step> {
    (1..=9u8).find_map(|d| {
        let links = conjugate_pairs(grid, d);
        let mut colour = [0u8; 81];
        let mut next_cluster = 0u8;
        for &(start, _) in &links {
            if colour[start] != 0 {
                continue;
            }
            // Colours 2k+1 and 2k+2 belong to cluster k.
            let first = 2 * next_cluster + 1;
            next_cluster += 1;
            colour[start] = first;
            let mut cluster = vec![start];
            let mut i = 0;
            while i < cluster.len() {
                let cell = cluster[i];
                i += 1;
                for &(a, b) in &links {
                    let other = match (a == cell, b == cell) {
                        (true, _) => b,
                        (_, true) => a,
                        _ => continue,
                    };
                    if colour[other] == 0 {
                        colour[other] = if colour[cell] == first {
                            first + 1
                        } else {
                            first
                        };
                        cluster.push(other);
                    }
                }
            }
            if let Some(step) = judge(grid, d, &cluster, &colour, first) {
                return Some(step);
            }
        }
        None
    })
}

/// Every conjugate pair of digit `d` (its only two places in a unit), each once.
fn conjugate_pairs(grid: &Candidates, d: u8) -> Vec<(usize, usize)> {
    let mut links: Vec<(usize, usize)> = (0..27)
        .filter_map(|u| {
            let places = grid.places(u, d);
            (places.count_ones() == 2).then(|| {
                (
                    UNITS[u][places.trailing_zeros() as usize],
                    UNITS[u][15 - places.leading_zeros() as usize],
                )
            })
        })
        .collect();
    links.sort_unstable();
    links.dedup();
    links
}

/// The wrap or trap step of one coloured cluster, if it removes anything.
fn judge(
    grid: &Candidates,
    d: u8,
    cluster: &[usize],
    colour: &[u8; 81],
    first: u8,
) -> Option<Step> {
    let step = |eliminations: Vec<Placement>, units: Vec<Unit>| {
        (!eliminations.is_empty()).then(|| Step {
            technique: Technique::SimpleColouring,
            placements: Vec::new(),
            eliminations,
            cells: cluster.to_vec(),
            units,
            digits: vec![d],
        })
    };
    for c in [first, first + 1] {
        let same: Vec<usize> = cluster
            .iter()
            .copied()
            .filter(|&x| colour[x] == c)
            .collect();
        let wrap = (0..27).find(|&u| UNITS[u].iter().filter(|x| same.contains(x)).count() > 1);
        if let Some(u) = wrap {
            return step(grid.removals(d, same), vec![Unit::from_index(u)]);
        }
    }
    let trapped = (0..81).filter(|&x| {
        colour[x] == 0
            && grid.has(x, d)
            && cluster.iter().any(|&y| colour[y] == first && sees(x, y))
            && cluster
                .iter()
                .any(|&y| colour[y] == first + 1 && sees(x, y))
    });
    step(grid.removals(d, trapped), Vec::new())
}
