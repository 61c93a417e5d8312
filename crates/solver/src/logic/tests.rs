//! Tests of the logic engine: each technique on a hand-made position (an
//! otherwise empty grid whose candidates are cut down to the pattern, with
//! the exact placements and eliminations checked), and a sample of every 9x9
//! puzzle set checked step by step against the known solution. The full
//! check runs in the `logic_check` example.

use super::*;
use crate::testdata::shared_lines;
use crate::{solve, Outcome};

/// Removes `digit` from every cell of unit `u` except `keep`.
fn restrict(grid: &mut Candidates, digit: u8, u: usize, keep: &[usize]) {
    for &cell in &UNITS[u] {
        if !keep.contains(&cell) {
            grid.eliminate(cell, digit);
        }
    }
}

/// Sets the candidates of `cell` to exactly `ds`.
fn set(grid: &mut Candidates, cell: usize, ds: &[u8]) {
    grid.masks[cell] = ds.iter().fold(0, |m, &d| m | bit(d));
}

/// The eliminations `(cell, digit)` of a step, sorted.
fn removed(step: &Step) -> Vec<(usize, u8)> {
    let mut out: Vec<(usize, u8)> = step
        .eliminations
        .iter()
        .map(|e| (e.cell, e.digit))
        .collect();
    out.sort_unstable();
    out
}

/// `(cell, digit)` for each of `cells`, sorted.
fn each(digit: u8, cells: &[usize]) -> Vec<(usize, u8)> {
    let mut out: Vec<(usize, u8)> = cells.iter().map(|&c| (c, digit)).collect();
    out.sort_unstable();
    out
}

/// Row `r` (0-based) minus `except`.
fn row_but(r: usize, except: &[usize]) -> Vec<usize> {
    UNITS[r]
        .iter()
        .copied()
        .filter(|c| !except.contains(c))
        .collect()
}

#[test]
fn full_house_fills_the_last_cell_of_a_unit() {
    let board = Board::parse(&format!("12345678.{}", ".".repeat(72)), Shape::classic()).unwrap();
    let grid = Candidates::from_board(&board).unwrap();
    let step = next_step(&grid).unwrap();
    assert_eq!(step.technique, Technique::FullHouse);
    assert_eq!(step.placements, vec![Placement { cell: 8, digit: 9 }]);
    assert_eq!(
        step.describe(),
        "r1c9 = 9 (full house: last empty cell of row 1)"
    );
}

#[test]
fn hidden_single_in_a_box() {
    let mut grid = Candidates::empty();
    restrict(&mut grid, 3, 18 + 5, &[33]);
    let step = next_step(&grid).unwrap();
    assert_eq!(step.technique, Technique::HiddenSingle);
    assert_eq!(step.placements, vec![Placement { cell: 33, digit: 3 }]);
    assert_eq!(step.units, vec![Unit::Box(5)]);
    assert_eq!(step.describe(), "r4c7 = 3 (hidden single in box 6)");
    let mut after = grid;
    after.apply(&step);
    assert_eq!(after.value(33), 3);
    assert!(PEERS[33].iter().all(|&p| !after.has(p, 3)));
}

#[test]
fn naked_single_is_the_only_candidate() {
    let mut grid = Candidates::empty();
    set(&mut grid, 40, &[5]);
    let step = next_step(&grid).unwrap();
    assert_eq!(step.technique, Technique::NakedSingle);
    assert_eq!(step.placements, vec![Placement { cell: 40, digit: 5 }]);
    assert_eq!(
        step.describe(),
        "r5c5 = 5 (naked single: the only candidate left)"
    );
}

#[test]
fn locked_candidates_point_and_claim() {
    let mut grid = Candidates::empty();
    restrict(&mut grid, 5, 18, &[0, 1]);
    let step = next_step(&grid).unwrap();
    assert_eq!(step.technique, Technique::LockedPointing);
    assert_eq!(removed(&step), each(5, &[3, 4, 5, 6, 7, 8]));
    assert_eq!(step.units, vec![Unit::Box(0), Unit::Row(0)]);
    assert!(step
        .describe()
        .starts_with("locked candidates (pointing): 5 in box 1 lies only in row 1"));

    let mut grid = Candidates::empty();
    restrict(&mut grid, 5, 0, &[0, 1, 2]);
    let step = intersections::claiming(&grid).unwrap();
    assert_eq!(step.technique, Technique::LockedClaiming);
    assert_eq!(removed(&step), each(5, &[9, 10, 11, 18, 19, 20]));
}

#[test]
fn naked_and_hidden_subsets() {
    let mut grid = Candidates::empty();
    set(&mut grid, 0, &[3, 7]);
    set(&mut grid, 4, &[3, 7]);
    let step = subsets::naked(&grid, 2).unwrap();
    assert_eq!(step.technique, Technique::NakedPair);
    let others = row_but(0, &[0, 4]);
    let mut expected = each(3, &others);
    expected.extend(each(7, &others));
    expected.sort_unstable();
    assert_eq!(removed(&step), expected);
    assert_eq!(
        step.describe(),
        "naked pair 3, 7 in r1c1, r1c5 (row 1) removes 3 from r1c2, r1c3, r1c4, r1c6, r1c7, r1c8, r1c9; 7 from r1c2, r1c3, r1c4, r1c6, r1c7, r1c8, r1c9"
    );

    let mut grid = Candidates::empty();
    for (cell, ds) in [(0, [1, 2]), (4, [2, 3]), (8, [1, 3])] {
        set(&mut grid, cell, &ds);
    }
    let step = subsets::naked(&grid, 3).unwrap();
    assert_eq!(step.technique, Technique::NakedTriple);
    assert_eq!(step.digits, vec![1, 2, 3]);
    assert_eq!(step.eliminations.len(), 3 * 6);

    let mut grid = Candidates::empty();
    for d in [3, 7] {
        restrict(&mut grid, d, 0, &[0, 4]);
    }
    let step = subsets::hidden(&grid, 2).unwrap();
    assert_eq!(step.technique, Technique::HiddenPair);
    let mut expected: Vec<(usize, u8)> = [0, 4]
        .iter()
        .flat_map(|&c| [1, 2, 4, 5, 6, 8, 9].map(|d| (c, d)))
        .collect();
    expected.sort_unstable();
    assert_eq!(removed(&step), expected);

    let mut grid = Candidates::empty();
    restrict(&mut grid, 1, 9, &[0, 27]);
    restrict(&mut grid, 2, 9, &[27, 54]);
    restrict(&mut grid, 3, 9, &[0, 54]);
    let step = subsets::hidden(&grid, 3).unwrap();
    assert_eq!(step.technique, Technique::HiddenTriple);
    assert_eq!(step.units, vec![Unit::Column(0)]);
    assert_eq!(step.eliminations.len(), 3 * 6);
    assert!(step.eliminations.iter().all(|e| e.digit > 3));
}

#[test]
fn fish_of_every_size() {
    // X-Wing: 7 in rows 2 and 8 only in columns 3 and 6; column 3 also has
    // it in rows 5 and 6.
    let mut grid = Candidates::empty();
    restrict(&mut grid, 7, 1, &[9 + 2, 9 + 5]);
    restrict(&mut grid, 7, 7, &[63 + 2, 63 + 5]);
    restrict(&mut grid, 7, 9 + 2, &[11, 38, 47, 65]);
    restrict(&mut grid, 7, 9 + 5, &[14, 68]);
    let step = fish::find(&grid, 2).unwrap();
    assert_eq!(step.technique, Technique::XWing);
    assert_eq!(removed(&step), each(7, &[38, 47]));
    assert_eq!(
        step.describe(),
        "X-Wing on 7 in rows 2 and 8 removes 7 from r5c3, r6c3"
    );

    // Swordfish on 4 in rows 1, 5 and 9, columns 1, 4 and 7.
    let mut grid = Candidates::empty();
    restrict(&mut grid, 4, 0, &[0, 3]);
    restrict(&mut grid, 4, 4, &[39, 42]);
    restrict(&mut grid, 4, 8, &[72, 78]);
    let step = fish::find(&grid, 3).unwrap();
    assert_eq!(step.technique, Technique::Swordfish);
    let targets: Vec<usize> = [0, 3, 6]
        .iter()
        .flat_map(|&c| [1, 2, 3, 5, 6, 7].map(|r| r * 9 + c))
        .collect();
    assert_eq!(removed(&step), each(4, &targets));
    assert!(step
        .describe()
        .starts_with("Swordfish on 4 in rows 1, 5 and 9 removes 4 from"));

    // Jellyfish on 2 in columns 1, 3, 5 and 7 (0-based 0, 2, 4, 6).
    let mut grid = Candidates::empty();
    restrict(&mut grid, 2, 9, &[0, 9]);
    restrict(&mut grid, 2, 11, &[11, 20]);
    restrict(&mut grid, 2, 13, &[22, 31]);
    restrict(&mut grid, 2, 15, &[33, 6]);
    let step = fish::find(&grid, 4).unwrap();
    assert_eq!(step.technique, Technique::Jellyfish);
    assert_eq!(
        step.units[..4],
        [
            Unit::Column(0),
            Unit::Column(2),
            Unit::Column(4),
            Unit::Column(6)
        ]
    );
    assert_eq!(
        step.units[4..],
        [Unit::Row(0), Unit::Row(1), Unit::Row(2), Unit::Row(3)]
    );
    let targets: Vec<usize> = (0..4)
        .flat_map(|r| [1, 3, 5, 7, 8].map(|c| r * 9 + c))
        .collect();
    assert_eq!(removed(&step), each(2, &targets));
}

#[test]
fn wings() {
    let mut grid = Candidates::empty();
    set(&mut grid, 0, &[2, 5]);
    set(&mut grid, 4, &[2, 7]);
    set(&mut grid, 18, &[5, 7]);
    let step = wings::xy_wing(&grid).unwrap();
    assert_eq!(step.technique, Technique::XyWing);
    assert_eq!(step.cells, vec![0, 4, 18]);
    assert_eq!(removed(&step), each(7, &[1, 2, 21, 22, 23]));
    assert_eq!(
        step.describe(),
        "XY-Wing with pivot r1c1 (2, 5) and pincers r1c5 (2, 7), r3c1 (5, 7) removes 7 from r1c2, r1c3, r3c4, r3c5, r3c6"
    );

    let mut grid = Candidates::empty();
    set(&mut grid, 0, &[1, 2, 3]);
    set(&mut grid, 4, &[1, 3]);
    set(&mut grid, 18, &[2, 3]);
    let step = wings::xyz_wing(&grid).unwrap();
    assert_eq!(step.technique, Technique::XyzWing);
    assert_eq!(removed(&step), each(3, &[1, 2]));
    assert_eq!(
        step.describe(),
        "XYZ-Wing with pivot r1c1 (1, 2, 3) and pincers r1c5, r3c1: one of them is 3, so it removes 3 from r1c2, r1c3"
    );

    let mut grid = Candidates::empty();
    set(&mut grid, 0, &[3, 8]);
    set(&mut grid, 40, &[3, 8]);
    restrict(&mut grid, 8, 2, &[18, 22]);
    let step = wings::w_wing(&grid).unwrap();
    assert_eq!(step.technique, Technique::WWing);
    assert_eq!(removed(&step), each(3, &[4, 36]));
    assert_eq!(
        step.describe(),
        "W-Wing: r1c1 and r5c5 (both 3 and 8) are linked by the strong link on 8 in row 3 (r3c1, r3c5), so it removes 3 from r1c5, r5c1"
    );
}

#[test]
fn simple_colouring_traps_and_wraps() {
    // Trap: 6 in r1c1 - r1c6 - r6c6 - r6c1; column 1 sees both colours.
    let mut grid = Candidates::empty();
    restrict(&mut grid, 6, 0, &[0, 5]);
    restrict(&mut grid, 6, 9 + 5, &[5, 50]);
    restrict(&mut grid, 6, 5, &[50, 45]);
    let step = colouring::simple_colouring(&grid).unwrap();
    assert_eq!(step.technique, Technique::SimpleColouring);
    assert_eq!(removed(&step), each(6, &[9, 18, 27, 36, 54, 63, 72]));
    assert!(step.describe().contains("a cell sees both colours"));

    // Wrap: r1c1 and r3c3 get one colour and share box 1.
    let mut grid = Candidates::empty();
    restrict(&mut grid, 6, 0, &[0, 6]);
    restrict(&mut grid, 6, 9 + 6, &[6, 60]);
    restrict(&mut grid, 6, 6, &[60, 56]);
    restrict(&mut grid, 6, 9 + 2, &[56, 20]);
    let step = colouring::simple_colouring(&grid).unwrap();
    assert_eq!(removed(&step), each(6, &[0, 20, 60]));
    assert_eq!(step.units, vec![Unit::Box(0)]);
    assert_eq!(
        step.describe(),
        "simple colouring on 6 (one colour appears twice in box 1): removes 6 from r1c1, r7c7, r3c3"
    );
}

#[test]
fn unique_rectangle_needs_the_unique_option() {
    let mut grid = Candidates::empty();
    for cell in [0, 3, 9] {
        set(&mut grid, cell, &[2, 9]);
    }
    set(&mut grid, 12, &[2, 4, 9]);
    let step = uniqueness::rectangle_type1(&grid).unwrap();
    assert_eq!(step.technique, Technique::UniqueRectangle);
    assert_eq!(removed(&step), vec![(12, 2), (12, 9)]);
    assert_eq!(step.cells, vec![0, 3, 9, 12]);
    // Spanning four boxes is no deadly pattern.
    let mut grid = Candidates::empty();
    for cell in [0, 4, 36] {
        set(&mut grid, cell, &[2, 9]);
    }
    set(&mut grid, 40, &[2, 4, 9]);
    assert_eq!(uniqueness::rectangle_type1(&grid), None);
}

#[test]
fn forcing_chains() {
    // r1c1 = 1 makes r1c2 = 3, which leaves r1c3 empty.
    let mut grid = Candidates::empty();
    set(&mut grid, 0, &[1, 2]);
    set(&mut grid, 1, &[1, 3]);
    set(&mut grid, 2, &[1, 3]);
    let step = forcing::find(&grid, &Options::default()).unwrap();
    assert_eq!(step.technique, Technique::ContradictionChain);
    assert_eq!(removed(&step), vec![(0, 1)]);
    assert_eq!(
        step.describe(),
        "contradiction chain: assuming r1c1 = 1, singles lead to a contradiction (r1c3 has no candidate left), so it removes 1 from r1c1"
    );

    // r1c1 is 1 or 2; either way box 1 holds 3 in r1c2 or r2c1.
    let mut grid = Candidates::empty();
    set(&mut grid, 0, &[1, 2]);
    set(&mut grid, 1, &[1, 3]);
    set(&mut grid, 9, &[2, 3]);
    let branches = forcing::Branches::of(&grid, false, &Options::default());
    let step = forcing::cell_forcing_step(&grid, &branches, Technique::CellForcingChain).unwrap();
    assert_eq!(
        (step.cells.clone(), step.digits.clone()),
        (vec![0], vec![1, 2])
    );
    let box_rest = [2, 10, 11, 18, 19, 20];
    let mut expected = each(3, &box_rest);
    expected.extend(each(1, &[2, 3, 4, 5, 6, 7, 8, 10, 11, 18, 19, 20]));
    expected.extend(each(2, &[2, 10, 11, 18, 19, 20, 27, 36, 45, 54, 63, 72]));
    expected.sort_unstable();
    assert_eq!(removed(&step), expected);
    assert!(step.describe().starts_with(
        "cell forcing chain: each candidate of r1c1 (1, 2) leads by singles to the same result"
    ));

    // 4 in row 1 is in r1c1 or r1c2: either way not elsewhere in box 1.
    let mut grid = Candidates::empty();
    restrict(&mut grid, 4, 0, &[0, 1]);
    let branches = forcing::Branches::of(&grid, false, &Options::default());
    let step = forcing::unit_forcing_step(&grid, &branches, Technique::UnitForcingChain).unwrap();
    assert_eq!(step.units, vec![Unit::Row(0)]);
    assert_eq!(removed(&step), each(4, &[9, 10, 11, 18, 19, 20]));
}

#[test]
fn other_shapes_and_clashes_are_errors() {
    let small = Board::empty(Shape::square(4).unwrap());
    assert_eq!(
        Candidates::from_board(&small),
        Err(LogicError::NotClassic("4x4".to_string()))
    );
    let clash = Board::parse(&format!("11{}", ".".repeat(79)), Shape::classic()).unwrap();
    assert!(matches!(
        explain(&clash, &Options::default()),
        Err(LogicError::Clash(_))
    ));
}

#[test]
fn names_are_stable_and_round_trip() {
    for t in Technique::ALL {
        assert_eq!(Technique::from_name(t.name()), Some(t));
    }
    assert_eq!(Technique::HiddenSingle.name(), "hidden_single");
    assert_eq!(Technique::XWing.label(), "X-Wing");
    let mut sorted = Technique::ALL;
    sorted.sort();
    assert_eq!(sorted, Technique::ALL, "ALL is in step order");
}

/// Puzzles per set in the debug sample, and the sets: enough to meet every
/// technique and every ending in a few seconds of a debug build. Puzzles
/// where logic gets stuck cost the most (every dynamic chain is tried), so
/// the hardest sets and the several-solution set get only a few.
const SAMPLE: [(&str, usize); 7] = [
    ("puzzles2_17_clue.txt", 40),
    ("puzzles3_magictour_top1465.txt", 20),
    ("puzzles5_forum_hardest_1905_11+.txt", 1),
    ("puzzles6_forum_hardest_1106.txt", 1),
    ("puzzles7_serg_benchmark.txt", 3),
    ("derived_17clue_unsat.txt", 20),
    ("gecode_9x9.txt", 18),
];

#[test]
fn sample_steps_agree_with_the_solution() {
    for (name, count) in SAMPLE {
        let Some(lines) = shared_lines(name, count) else {
            continue;
        };
        for (i, line) in lines.iter().enumerate() {
            let board = Board::parse(line, Shape::classic()).unwrap();
            let outcome = solve(&board, 2).unwrap();
            let unique = matches!(outcome, Outcome::Unique(_));
            let explanation = explain(&board, &Options { unique }).unwrap();
            if let Some(solution) = outcome.first() {
                for step in &explanation.steps {
                    assert!(
                        !step.contradicts(solution),
                        "{name}:{}: {}",
                        i + 1,
                        step.describe()
                    );
                }
            }
            if !unique {
                assert!(explanation
                    .steps
                    .iter()
                    .all(|s| s.technique != Technique::UniqueRectangle));
            }
            match &explanation.end {
                End::Solved(result) => {
                    assert_eq!(Some(result), outcome.first(), "{name}:{}", i + 1)
                }
                End::Contradiction(..) => assert_eq!(outcome.count(), 0, "{name}:{}", i + 1),
                End::Stuck(grid) => assert!(grid.conflict().is_none()),
            }
        }
    }
}
