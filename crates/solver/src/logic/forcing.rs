//! Forcing chains: the last resort before guessing.
//!
//! A *branch* assumes one candidate (places it) and follows its
//! consequences: singles until none is left, or, for the dynamic kinds,
//! every technique before the chains (locked candidates, subsets, fish,
//! wings, colouring, and unique rectangles when allowed). A branch either
//! breaks (some cell or unit runs out of candidates) or settles.
//!
//! - Contradiction chain: a branch breaks, so its assumption is false.
//! - Cell forcing chain: every candidate of one cell settles with the same
//!   placement or elimination somewhere; one of them is true, so that is too.
//! - Unit forcing chain: the same over every place of a digit in a unit.
//!
//! Both rules only use consequences that hold in every solution that makes
//! the assumption, so they are sound for puzzles with any number of solutions
//! (uniqueness enters only through unique rectangles, when allowed).
//!
//! Every candidate's branch is computed once per step and shared by the
//! three rules. Among contradictions the shortest branch (fewest deductions)
//! wins, because it is the easiest to follow.

use super::{
    basic_step, bit, cell_list, digits, only_digit, placement_list, removal_list, Candidates,
    Conflict, Options, Placement, Step, Technique, Unit, ALL, UNITS,
};

/// How far one assumption went: broken, or settled in a position.
pub(super) enum Branch {
    /// A conflict after this many deductions.
    Broken(Conflict, usize),
    /// No conflict: the position where deductions ran out.
    Settled(Box<Candidates>),
}

/// Places naked and hidden singles until none is left; the number placed,
/// or the conflict met with the number placed before it.
fn singles(grid: &mut Candidates) -> Result<usize, (Conflict, usize)> {
    let mut placed = 0;
    loop {
        let before = placed;
        for cell in 0..81 {
            if grid.values[cell] != 0 {
                continue;
            }
            match grid.masks[cell].count_ones() {
                0 => return Err((Conflict::EmptyCell(cell), placed)),
                1 => {
                    grid.place(cell, only_digit(grid.masks[cell]));
                    placed += 1;
                }
                _ => {}
            }
        }
        for (u, unit) in UNITS.iter().enumerate() {
            let (mut once, mut twice, mut held) = (0u16, 0u16, 0u16);
            for &cell in unit {
                let m = grid.masks[cell];
                twice |= once & m;
                once |= m;
                if grid.values[cell] != 0 {
                    held |= bit(grid.values[cell]);
                }
            }
            if (once | held) != ALL {
                let digit = only_digit(ALL & !(once | held));
                return Err((Conflict::MissingDigit(Unit::from_index(u), digit), placed));
            }
            for d in digits(once & !twice & !held) {
                if let Some(&cell) = unit.iter().find(|&&c| grid.has(c, d)) {
                    grid.place(cell, d);
                    placed += 1;
                }
            }
        }
        if placed == before {
            return Ok(placed);
        }
    }
}

/// The branch of placing `digit` in `cell`.
fn branch(grid: &Candidates, cell: usize, digit: u8, dynamic: bool, options: &Options) -> Branch {
    let mut g = *grid;
    g.place(cell, digit);
    let mut length = 1;
    loop {
        match singles(&mut g) {
            Err((conflict, n)) => return Branch::Broken(conflict, length + n),
            Ok(n) => length += n,
        }
        if !dynamic || g.is_solved() {
            return Branch::Settled(Box::new(g));
        }
        match basic_step(&g, options) {
            Some(step) if g.changed_by(&step) => {
                g.apply(&step);
                length += 1;
            }
            _ => return Branch::Settled(Box::new(g)),
        }
    }
}

/// True when `digit` may still be in `cell` in a settled branch.
fn possible(g: &Candidates, cell: usize, digit: u8) -> bool {
    g.values[cell] == digit || g.has(cell, digit)
}

/// What every settled branch agrees on, against the position `grid`:
/// placements if there are any, otherwise eliminations.
fn common(grid: &Candidates, branches: &[&Candidates]) -> Option<(Vec<Placement>, Vec<Placement>)> {
    let placements: Vec<Placement> = (0..81)
        .filter(|&c| grid.values[c] == 0)
        .filter_map(|cell| {
            let digit = branches.first()?.values[cell];
            (digit != 0 && branches.iter().all(|g| g.values[cell] == digit))
                .then_some(Placement { cell, digit })
        })
        .collect();
    if !placements.is_empty() {
        return Some((placements, Vec::new()));
    }
    let eliminations: Vec<Placement> = (0..81)
        .flat_map(|cell| digits(grid.masks[cell]).map(move |digit| Placement { cell, digit }))
        .filter(|p| branches.iter().all(|g| !possible(g, p.cell, p.digit)))
        .collect();
    (!eliminations.is_empty()).then_some((Vec::new(), eliminations))
}

/// The forcing-chain step of `grid`: single-driven chains first, then dynamic ones.
pub(super) fn find(grid: &Candidates, options: &Options) -> Option<Step> {
    find_kind(grid, false, options).or_else(|| find_kind(grid, true, options))
}

/// Every candidate's branch, indexed `cell * 9 + digit - 1` (`None` for
/// digits that are not candidates).
pub(super) struct Branches(Vec<Option<Branch>>);

impl Branches {
    /// The branches of every candidate of `grid`.
    pub(super) fn of(grid: &Candidates, dynamic: bool, options: &Options) -> Branches {
        let mut all: Vec<Option<Branch>> = (0..81 * 9).map(|_| None).collect();
        for cell in 0..81 {
            for d in digits(grid.masks[cell]) {
                all[cell * 9 + d as usize - 1] = Some(branch(grid, cell, d, dynamic, options));
            }
        }
        Branches(all)
    }

    /// The branch of `digit` in `cell`.
    fn get(&self, cell: usize, digit: u8) -> Option<&Branch> {
        self.0[cell * 9 + digit as usize - 1].as_ref()
    }

    /// The settled position of `digit` in `cell` (`None` if broken or absent).
    fn settled(&self, cell: usize, digit: u8) -> Option<&Candidates> {
        match self.get(cell, digit) {
            Some(Branch::Settled(g)) => Some(g),
            _ => None,
        }
    }
}

/// The step of one kind (singles only, or dynamic): contradiction, then
/// cell forcing, then unit forcing.
fn find_kind(grid: &Candidates, dynamic: bool, options: &Options) -> Option<Step> {
    let branches = Branches::of(grid, dynamic, options);
    let [contradiction, cell_forcing, unit_forcing] = if dynamic {
        [
            Technique::DynamicContradictionChain,
            Technique::DynamicForcingChain,
            Technique::DynamicForcingChain,
        ]
    } else {
        [
            Technique::ContradictionChain,
            Technique::CellForcingChain,
            Technique::UnitForcingChain,
        ]
    };
    shortest_contradiction(grid, &branches, contradiction)
        .or_else(|| cell_forcing_step(grid, &branches, cell_forcing))
        .or_else(|| unit_forcing_step(grid, &branches, unit_forcing))
}

/// The contradiction step of the shortest broken branch.
fn shortest_contradiction(
    grid: &Candidates,
    branches: &Branches,
    technique: Technique,
) -> Option<Step> {
    let (_, cell, digit, conflict) = (0..81)
        .flat_map(|cell| digits(grid.masks[cell]).map(move |d| (cell, d)))
        .filter_map(|(cell, d)| match branches.get(cell, d) {
            Some(Branch::Broken(conflict, length)) => Some((*length, cell, d, *conflict)),
            _ => None,
        })
        .min_by_key(|&(length, ..)| length)?;
    let (cells, units, digits) = match conflict {
        Conflict::EmptyCell(at) => (vec![cell, at], Vec::new(), vec![digit]),
        Conflict::MissingDigit(unit, missing) => (vec![cell], vec![unit], vec![digit, missing]),
    };
    Some(Step {
        technique,
        placements: Vec::new(),
        eliminations: vec![Placement { cell, digit }],
        cells,
        units,
        digits,
    })
}

/// A cell whose candidates' branches all settle and agree on something;
/// cells with fewer candidates first (shorter to explain).
pub(super) fn cell_forcing_step(
    grid: &Candidates,
    branches: &Branches,
    technique: Technique,
) -> Option<Step> {
    (2..=9).find_map(|size| {
        (0..81)
            .filter(|&c| grid.masks[c].count_ones() == size)
            .find_map(|cell| {
                let ends: Option<Vec<&Candidates>> = digits(grid.masks[cell])
                    .map(|d| branches.settled(cell, d))
                    .collect();
                let (placements, eliminations) = common(grid, &ends?)?;
                Some(Step {
                    technique,
                    placements,
                    eliminations,
                    cells: vec![cell],
                    units: Vec::new(),
                    digits: digits(grid.masks[cell]).collect(),
                })
            })
    })
}

/// A digit whose places in a unit all settle and agree on something;
/// digits with fewer places first.
pub(super) fn unit_forcing_step(
    grid: &Candidates,
    branches: &Branches,
    technique: Technique,
) -> Option<Step> {
    (2..=9).find_map(|size| {
        (0..27).find_map(|u| {
            (1..=9u8).find_map(|d| {
                let places = grid.places(u, d);
                if places.count_ones() != size {
                    return None;
                }
                let cells: Vec<usize> = (0..9)
                    .filter(|i| places & (1 << i) != 0)
                    .map(|i| UNITS[u][i])
                    .collect();
                let ends: Option<Vec<&Candidates>> =
                    cells.iter().map(|&c| branches.settled(c, d)).collect();
                let (placements, eliminations) = common(grid, &ends?)?;
                Some(Step {
                    technique,
                    placements,
                    eliminations,
                    cells,
                    units: vec![Unit::from_index(u)],
                    digits: vec![d],
                })
            })
        })
    })
}

/// The words of a forcing-chain step (see [`Step::describe`]).
pub(super) fn describe(step: &Step) -> String {
    let dynamic = matches!(
        step.technique,
        Technique::DynamicContradictionChain | Technique::DynamicForcingChain
    );
    let by = if dynamic {
        "the techniques before chains"
    } else {
        "singles"
    };
    let conclusion = if step.placements.is_empty() {
        removal_list(&step.eliminations)
    } else {
        format!("places {}", placement_list(&step.placements))
    };
    let label = step.technique.label();
    let cell = |i: usize| {
        step.cells
            .get(i)
            .map_or(String::new(), |&c| super::cell_name(c))
    };
    let digit = |i: usize| step.digits.get(i).copied().unwrap_or(0);
    match step.technique {
        Technique::ContradictionChain | Technique::DynamicContradictionChain => {
            let broken = match step.units.first() {
                Some(unit) => format!("{} has no place left in {unit}", digit(1)),
                None => format!("{} has no candidate left", cell(1)),
            };
            format!(
                "{label}: assuming {} = {}, {by} lead to a contradiction ({broken}), so it {conclusion}",
                cell(0),
                digit(0)
            )
        }
        _ => {
            let start = match step.units.first() {
                Some(unit) => format!(
                    "each place of {} in {unit} ({})",
                    digit(0),
                    cell_list(&step.cells)
                ),
                None => format!(
                    "each candidate of {} ({})",
                    cell(0),
                    super::digit_list(&step.digits)
                ),
            };
            format!("{label}: {start} leads by {by} to the same result, so it {conclusion}")
        }
    }
}
