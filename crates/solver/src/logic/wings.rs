//! Wings: XY-Wing, XYZ-Wing and W-Wing.

use super::{digits, only_digit, sees, Candidates, Placement, Step, Technique, Unit, PEERS, UNITS};

/// A wing step removing `digit` from every cell that sees all of `seen`.
fn wing(
    grid: &Candidates,
    technique: Technique,
    seen: &[usize],
    digit: u8,
    cells: Vec<usize>,
    units: Vec<Unit>,
    digits: Vec<u8>,
) -> Option<Step> {
    let eliminations: Vec<Placement> = grid.seeing_all(digit, seen);
    (!eliminations.is_empty()).then_some(Step {
        technique,
        placements: Vec::new(),
        eliminations,
        cells,
        units,
        digits,
    })
}

/// Pivot `{x, y}`, pincers `{x, z}` and `{y, z}` that see the pivot: one
/// pincer is `z` whatever the pivot holds, so `z` goes from cells seeing both.
pub(super) fn xy_wing(grid: &Candidates) -> Option<Step> {
    (0..81).find_map(|pivot| {
        let pm = grid.mask(pivot);
        if pm.count_ones() != 2 {
            return None;
        }
        let bivalue: Vec<usize> = PEERS[pivot]
            .iter()
            .copied()
            .filter(|&c| grid.mask(c).count_ones() == 2)
            .collect();
        bivalue.iter().find_map(|&a| {
            let am = grid.mask(a);
            let shared = am & pm;
            if shared.count_ones() != 1 {
                return None;
            }
            let z = am & !pm;
            bivalue.iter().find_map(|&b| {
                let bm = grid.mask(b);
                if b == a || bm != (pm & !shared) | z {
                    return None;
                }
                let [x, y] = [only_digit(shared), only_digit(pm & !shared)];
                wing(
                    grid,
                    Technique::XyWing,
                    &[a, b],
                    only_digit(z),
                    vec![pivot, a, b],
                    Vec::new(),
                    vec![x, y, only_digit(z)],
                )
            })
        })
    })
}

/// Pivot `{x, y, z}`, pincers `{x, z}` and `{y, z}` that see it: one of the
/// three is `z`, so `z` goes from cells seeing all three.
pub(super) fn xyz_wing(grid: &Candidates) -> Option<Step> {
    (0..81).find_map(|pivot| {
        let pm = grid.mask(pivot);
        if pm.count_ones() != 3 {
            return None;
        }
        let pincers: Vec<usize> = PEERS[pivot]
            .iter()
            .copied()
            .filter(|&c| grid.mask(c).count_ones() == 2 && grid.mask(c) & !pm == 0)
            .collect();
        pincers.iter().enumerate().find_map(|(i, &a)| {
            pincers[i + 1..].iter().find_map(|&b| {
                let common = grid.mask(a) & grid.mask(b);
                if common.count_ones() != 1 || grid.mask(a) | grid.mask(b) != pm {
                    return None;
                }
                let z = only_digit(common);
                let mut pivot_digits: Vec<u8> = digits(pm & !common).collect();
                pivot_digits.push(z);
                wing(
                    grid,
                    Technique::XyzWing,
                    &[pivot, a, b],
                    z,
                    vec![pivot, a, b],
                    Vec::new(),
                    pivot_digits,
                )
            })
        })
    })
}

/// Two cells holding only `{x, y}` that do not see each other, and a unit
/// where `y` has exactly two places, one seeing each cell: one of the two
/// cells is `x` (if both were `y`, `y` would have no place in that unit), so
/// `x` goes from cells seeing both.
pub(super) fn w_wing(grid: &Candidates) -> Option<Step> {
    let bivalue: Vec<usize> = (0..81)
        .filter(|&c| grid.mask(c).count_ones() == 2)
        .collect();
    if bivalue.len() < 2 {
        return None;
    }
    // Strong links of each digit (index d - 1): (unit, one place, the other).
    let links: [Vec<(usize, usize, usize)>; 9] = std::array::from_fn(|i| {
        (0..27)
            .filter_map(|u| {
                let places = grid.places(u, i as u8 + 1);
                (places.count_ones() == 2).then(|| {
                    (
                        u,
                        UNITS[u][places.trailing_zeros() as usize],
                        UNITS[u][15 - places.leading_zeros() as usize],
                    )
                })
            })
            .collect()
    });
    bivalue.iter().enumerate().find_map(|(i, &a)| {
        bivalue[i + 1..].iter().find_map(|&b| {
            let mask = grid.mask(a);
            if grid.mask(b) != mask || sees(a, b) {
                return None;
            }
            digits(mask).find_map(|y| {
                let x = only_digit(mask & !super::bit(y));
                links[y as usize - 1].iter().find_map(|&(u, p, q)| {
                    if [p, q].iter().any(|c| *c == a || *c == b) {
                        return None;
                    }
                    let (p, q) = if sees(p, a) && sees(q, b) {
                        (p, q)
                    } else if sees(p, b) && sees(q, a) {
                        (q, p)
                    } else {
                        return None;
                    };
                    wing(
                        grid,
                        Technique::WWing,
                        &[a, b],
                        x,
                        vec![a, b, p, q],
                        vec![Unit::from_index(u)],
                        vec![x, y],
                    )
                })
            })
        })
    })
}
