//! From cell probabilities to a puzzle, repaired with the solver's feedback.
//!
//! The classifier gives each cell a probability for "empty" and for each
//! digit. The most probable reading is tried first. When it cannot be right
//! (givens clash, no solution, or several solutions) the most probable
//! *corrections* are tried in order: changing a cell to its next likely
//! value costs `ln p(read) - ln p(alternative)`, and sets of up to
//! [`MAX_CHANGES`] corrections are enumerated by increasing total cost until
//! one gives exactly one solution. A correct reading of a real puzzle has
//! exactly one solution, so that test is a strong check on the reader.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use snap_solver::{solve, Board, Outcome, Shape, DEFAULT_LIMIT};

use crate::classify::{kind_probs, CLASSES};

/// Cells of the classic grid the reader reads.
pub(crate) const CELLS: usize = 81;

/// Most cells a repair may change.
pub const MAX_CHANGES: usize = 3;
/// Alternatives (cell, value) considered for repairs, cheapest first.
const MAX_ALTERNATIVES: usize = 48;
/// Candidate repairs tried (each is a solver call of a few microseconds).
const MAX_TRIES: usize = 20_000;
/// Alternatives less likely than this are never considered.
const MIN_PROBABILITY: f32 = 1e-5;

/// One cell's probabilities over the values 0 (empty) and 1-9.
pub type CellProbs = [f32; 10];

/// Folds the classifier's classes into values 0-9 of the puzzle's givens:
/// only a printed digit is a clue. Pen entries, pencil candidates, "other
/// ink" (a stray mark, a rotated glyph) and printed letters (no value of a
/// 9x9 grid) count as an empty cell.
pub fn cell_probs(classes: &[f32; CLASSES]) -> CellProbs {
    let clue = kind_probs(classes).clue_probs(9);
    let mut p = [0.0f32; 10];
    p.copy_from_slice(&clue);
    let total: f32 = p.iter().sum();
    if total > 0.0 {
        p.iter_mut().for_each(|v| *v /= total);
    }
    p
}

/// One corrected cell.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Change {
    /// Cell index 0..81.
    pub cell: usize,
    /// Value as read (0 = empty).
    pub from: u8,
    /// Value after the repair (0 = empty).
    pub to: u8,
    /// The classifier's probability for the new value.
    pub probability: f32,
}

impl std::fmt::Display for Change {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let v = |d: u8| {
            if d == 0 {
                ".".to_string()
            } else {
                d.to_string()
            }
        };
        write!(
            f,
            "{} {} -> {} (p={:.2})",
            Shape::classic().cell_name(self.cell),
            v(self.from),
            v(self.to),
            self.probability
        )
    }
}

/// The puzzle decided for a photo, and what solving it gave.
#[derive(Debug, Clone)]
pub struct Decision {
    /// The most probable reading, before any repair (overrides applied).
    pub read: Board,
    /// The puzzle that was solved: `read` with `changes` applied.
    pub givens: Board,
    /// Corrections made by the repair (empty when the reading solved as is).
    pub changes: Vec<Change>,
    /// The solver's outcome for `givens`.
    pub outcome: Outcome,
    /// How sure the reader is of `givens`: the classifier's probability for
    /// the value chosen in the least sure cell, 0..1. (The product over all
    /// cells would be the probability that all are right, but the model is
    /// trained with label smoothing, so its top probabilities stop near
    /// 0.98 and the product of 81 of them says little.)
    pub confidence: f32,
    /// Why the reading could not be solved, when no repair was found: the
    /// clashing cells, or "no solution" / "N solutions".
    pub problem: Option<String>,
}

/// A cell/value alternative and its cost over the cell's most probable value.
#[derive(Debug, Clone, Copy)]
struct Alternative {
    cell: usize,
    value: u8,
    cost: f32,
}

/// A set of alternatives (indices into the sorted list), for the
/// cheapest-first enumeration.
#[derive(Debug, Clone, PartialEq)]
struct Candidate {
    cost: f32,
    picks: Vec<usize>,
}

impl Eq for Candidate {}

impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> Ordering {
        // BinaryHeap is a max-heap: the cheapest candidate must compare greatest.
        other.cost.total_cmp(&self.cost)
    }
}

impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

fn argmax(p: &CellProbs) -> u8 {
    let mut best = 0;
    for v in 1..10 {
        if p[v] > p[best] {
            best = v;
        }
    }
    best as u8
}

/// Decides the puzzle from per-cell probabilities. `overrides` (cell,
/// value) are the user's corrections: applied first and never changed.
/// With `repair` false the most probable reading is solved as is.
pub fn decide(probs: &[CellProbs; CELLS], overrides: &[(usize, u8)], repair: bool) -> Decision {
    let mut read = Board {
        shape: Shape::classic(),
        cells: probs.iter().map(argmax).collect(),
    };
    let mut locked = [false; CELLS];
    for &(cell, value) in overrides {
        if cell < CELLS && value <= 9 {
            read.cells[cell] = value;
            locked[cell] = true;
        }
    }
    let confidence_of = |g: &Board| -> f32 {
        (0..CELLS)
            .filter(|&i| !locked[i])
            .map(|i| probs[i][g.cells[i] as usize].max(0.0))
            .fold(1.0, f32::min)
    };
    let first = solve(&read, DEFAULT_LIMIT);
    if let Ok(outcome @ Outcome::Unique(_)) = &first {
        return Decision {
            confidence: confidence_of(&read),
            givens: read.clone(),
            read,
            changes: Vec::new(),
            outcome: outcome.clone(),
            problem: None,
        };
    }
    let problem = match &first {
        Err(clash) => clash.to_string(),
        Ok(Outcome::NoSolution) => "no solution".to_string(),
        Ok(o) => format!("{} solutions or more", o.count()),
    };
    if repair {
        if let Some((givens, changes, outcome)) = search_repair(probs, &read, &locked) {
            return Decision {
                confidence: confidence_of(&givens),
                read,
                givens,
                changes,
                outcome,
                problem: None,
            };
        }
    }
    Decision {
        confidence: confidence_of(&read),
        givens: read.clone(),
        read,
        changes: Vec::new(),
        outcome: first.unwrap_or(Outcome::NoSolution),
        problem: Some(problem),
    }
}

/// Enumerates sets of corrections cheapest first; returns the first that
/// gives exactly one solution.
fn search_repair(
    probs: &[CellProbs; CELLS],
    read: &Board,
    locked: &[bool; CELLS],
) -> Option<(Board, Vec<Change>, Outcome)> {
    let mut alternatives: Vec<Alternative> = Vec::new();
    for cell in (0..CELLS).filter(|&i| !locked[i]) {
        let p = &probs[cell];
        let current = read.cells[cell] as usize;
        let base = p[current].max(MIN_PROBABILITY).ln();
        for value in (0..10).filter(|&v| v != current && p[v] >= MIN_PROBABILITY) {
            alternatives.push(Alternative {
                cell,
                value: value as u8,
                cost: (base - p[value].ln()).max(0.0),
            });
        }
    }
    alternatives.sort_by(|a, b| a.cost.total_cmp(&b.cost));
    alternatives.truncate(MAX_ALTERNATIVES);
    let clashing: Vec<usize> = read.clashes().iter().flat_map(|&(a, b)| [a, b]).collect();

    // Cheapest-first enumeration of subsets of a cost-sorted list: from
    // picks [.., k] the successors are [.., k, k+1] (extend) and
    // [.., k+1] (replace the last). Every subset is reached exactly once.
    let mut heap = BinaryHeap::new();
    if !alternatives.is_empty() {
        heap.push(Candidate {
            cost: alternatives[0].cost,
            picks: vec![0],
        });
    }
    let mut tries = 0;
    while let Some(Candidate { cost, picks }) = heap.pop() {
        let last = picks[picks.len() - 1];
        if last + 1 < alternatives.len() {
            if picks.len() < MAX_CHANGES {
                let mut extended = picks.clone();
                extended.push(last + 1);
                heap.push(Candidate {
                    cost: cost + alternatives[last + 1].cost,
                    picks: extended,
                });
            }
            let mut replaced = picks.clone();
            replaced[picks.len() - 1] = last + 1;
            heap.push(Candidate {
                cost: cost - alternatives[last].cost + alternatives[last + 1].cost,
                picks: replaced,
            });
        }
        let chosen: Vec<Alternative> = picks.iter().map(|&i| alternatives[i]).collect();
        let distinct_cells = chosen
            .iter()
            .enumerate()
            .all(|(i, a)| chosen[..i].iter().all(|b| b.cell != a.cell));
        // A clash can only be mended by changing one of the clashing cells.
        let touches_clash =
            clashing.is_empty() || chosen.iter().any(|a| clashing.contains(&a.cell));
        if !distinct_cells || !touches_clash {
            continue;
        }
        let mut givens = read.clone();
        for a in &chosen {
            givens.cells[a.cell] = a.value;
        }
        tries += 1;
        if let Ok(outcome @ Outcome::Unique(_)) = solve(&givens, DEFAULT_LIMIT) {
            let changes = chosen
                .iter()
                .map(|a| Change {
                    cell: a.cell,
                    from: read.cells[a.cell],
                    to: a.value,
                    probability: probs[a.cell][a.value as usize],
                })
                .collect();
            return Some((givens, changes, outcome));
        }
        if tries >= MAX_TRIES {
            break;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classify::{HAND_BASE, OTHER, PENCIL};

    const PUZZLE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    /// Confident probabilities for a grid: 0.98 on its value.
    fn confident(grid: &Board) -> [CellProbs; CELLS] {
        std::array::from_fn(|i| {
            let mut p = [0.02 / 9.0; 10];
            p[grid.cells[i] as usize] = 0.98;
            p
        })
    }

    #[test]
    fn a_clean_reading_is_solved_as_is() {
        let g = Board::parse(PUZZLE, Shape::classic()).unwrap();
        let d = decide(&confident(&g), &[], true);
        assert_eq!(d.givens, g);
        assert!(d.changes.is_empty());
        assert!(matches!(d.outcome, Outcome::Unique(_)));
        assert!(d.confidence > 0.1 && d.confidence <= 1.0);
    }

    #[test]
    fn a_misread_clue_is_repaired_from_its_second_choice() {
        let g = Board::parse(PUZZLE, Shape::classic()).unwrap();
        let mut probs = confident(&g);
        // r1c1 is a 4, but the classifier preferred 9 (a classic confusion).
        probs[0] = [0.0; 10];
        probs[0][9] = 0.55;
        probs[0][4] = 0.40;
        probs[0][0] = 0.05;
        let d = decide(&probs, &[], true);
        assert_eq!(d.read.cells[0], 9);
        assert_eq!(d.givens, g, "repaired back to the true puzzle");
        assert_eq!(d.changes.len(), 1);
        assert_eq!(
            (d.changes[0].cell, d.changes[0].from, d.changes[0].to),
            (0, 9, 4)
        );
        assert!(d.problem.is_none());
    }

    #[test]
    fn a_missed_clue_is_found_again() {
        let g = Board::parse(PUZZLE, Shape::classic()).unwrap();
        let mut probs = confident(&g);
        // r1c7 holds an 8 but read as empty: 17 clues minus one has many solutions.
        probs[6] = [0.6, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.35, 0.05];
        let d = decide(&probs, &[], true);
        assert_eq!(d.givens, g);
        assert_eq!(d.changes[0].to, 8);
    }

    #[test]
    fn without_repair_the_problem_names_the_clash() {
        let g = Board::parse(PUZZLE, Shape::classic()).unwrap();
        let mut probs = confident(&g);
        probs[1] = [0.0; 10];
        probs[1][4] = 0.9; // r1c2 read as 4, clashing with r1c1
        probs[1][0] = 0.1;
        let d = decide(&probs, &[], false);
        assert_eq!(
            d.problem.as_deref(),
            Some("givens clash: r1c1 and r1c2 are both 4")
        );
        let repaired = decide(&probs, &[], true);
        assert_eq!(repaired.givens, g);
    }

    #[test]
    fn overrides_win_and_are_never_changed() {
        let g = Board::parse(PUZZLE, Shape::classic()).unwrap();
        let mut probs = confident(&g);
        probs[0] = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0];
        // The user says r1c1 is 4: solved without repair.
        let d = decide(&probs, &[(0, 4)], true);
        assert_eq!(d.givens, g);
        assert!(d.changes.is_empty());
    }

    #[test]
    fn other_ink_counts_as_empty() {
        let mut classes = [0.0f32; CLASSES];
        classes[OTHER] = 0.7;
        classes[3] = 0.3;
        let p = cell_probs(&classes);
        assert!((p[0] - 0.7).abs() < 1e-6);
        assert_eq!(argmax(&p), 0);
    }

    #[test]
    fn pen_entries_pencil_and_letters_are_never_clues() {
        let mut classes = [0.0f32; CLASSES];
        classes[HAND_BASE + 7] = 0.6; // a pen 7
        classes[PENCIL] = 0.1;
        classes[10] = 0.05; // printed A
        classes[7] = 0.25; // printed 7
        let p = cell_probs(&classes);
        assert!((p[0] - 0.75).abs() < 1e-6, "{p:?}");
        assert!((p[7] - 0.25).abs() < 1e-6);
        assert_eq!(argmax(&p), 0);
    }
}
