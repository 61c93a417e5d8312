//! The engine for 25x25 and larger squares: the puzzle as a SAT formula,
//! solved by CaDiCaL (the `cadical` crate: MIT, CaDiCaL's C++ sources
//! built with the machine's C++ compiler).
//!
//! One variable per (empty cell, digit) that no given in the cell's units
//! holds. Clauses: each empty cell holds exactly one digit; each unit holds
//! each digit it lacks exactly once ("exactly one" is one clause for "at
//! least one" and a clause per pair for "at most one"). Solutions are
//! counted by adding, after each one found, a clause that forbids it
//! (one literal per empty cell) and solving again: CaDiCaL is incremental,
//! so what it learnt carries over, and the second call, which proves a
//! puzzle unique, costs about as much as the first.
//!
//! # Why a SAT solver here (measured for issue 13; release, CPU time of one core)
//!
//! Hard 25x25 puzzles (the minimal ones of the Gecode set) need search
//! that learns from its failures. The candidate engine (`candidates`,
//! all-different consistency, probing and look-ahead branching, no
//! learning) solves 9 of the 18 Gecode 25x25 puzzles within 10 s and takes
//! 12-16 s on three more and over 25 s on six. Through this module, all
//! 18 are solved and checked: 16 in 0.03-8.5 s each, lines 10 and 9 in
//! 14.6 and 16.1 s (73 s for the set, on a machine loaded by other jobs;
//! CaDiCaL's `sat` configuration was the fastest of its four). The pure-Rust
//! solvers tried were slower (`batsat` 2.1x and `varisat` 2.5x CaDiCaL's
//! time on line 1; `splr` is MPL-2.0 and was not considered). Shrinking the
//! formula by the candidate engine's root propagation (1% fewer
//! candidates), adding its root look-ahead as binary clauses, or giving
//! CaDiCaL the leaves of a look-ahead tree (cube and conquer) did not help.
//! 16x16 puzzles stay with the candidate engine, which solves each in well
//! under a millisecond.
//!
//! # Where the time goes (issue 13, second round)
//!
//! On lines 9 and 10 about nine tenths of the time is the proof of
//! uniqueness (the solve after the blocking clause), not the first
//! solution: about 1.6 and 2.6 s to a solution, then 13.7 and 12.1 s to
//! refute a second one (CPU, load average near 10). That proof takes as
//! long from scratch (the formula plus the blocking clause alone) as
//! incrementally, and it varies little with CaDiCaL's seed, while the
//! first solve varies by up to 6x (CaDiCaL 1.9.5, the crate's version, as
//! a command-line program and through pysat for the experiments below).
//! Measured and rejected, none moving the
//! proof by more than the noise of one run: the `unsat`, `plain` and
//! default configurations (worse: 15-25 s on lines 9 and 10 where `sat`
//! takes 11-14 s), and with `sat` the options `elim=0`, `chrono=0`,
//! `stabilize=0`, `stabilizeonly=0`, `inprocessing=0`; variables for
//! "digit in this row (column) segment of a box" with their exactly-one
//! constraints (box-line reasoning by unit propagation); shrinking the
//! formula by naked and hidden singles first (15% fewer variables);
//! proving the solution's cells one by one under an assumption instead of
//! the blocking clause (the first refutation costs as much as the whole).
//! Starting CaDiCaL from phase false (the variables read as "the cell does
//! not hold the digit") speeds up the first solve on average (35 to 23 s
//! of CPU over the 18 first solves) but not the total, which the proof
//! dominates (52.3 and 53.0 s CPU for the set in two runs at similar load).
//!
//! # Third round (issue 13, goal: lines 9 and 10 under 10 s of CPU)
//!
//! The hard part is one fixed amount of search that the two solves share:
//! numbering the variables of the cells with fewest candidates last (which
//! CaDiCaL's initial decision queue tries first) makes the first solve of
//! lines 9 and 10 fast (1.2 and 0.3 s) and the proof slow (22.5 and 20.3
//! s), numbering them first does the opposite (12.0 + 10.5 s and 17.5 + 6.2
//! s), and the total stays close to this module's order (24.7 and 22.8 s;
//! 23.7 and 22.3 s in a second run of the reordering; all at load average
//! 10, about 2.3x the CPU time of a quiet machine). On lines 1-10 the
//! reordering moved time between the two solves rather than out of them
//! (totals 2-25% lower, the larger gains on the small ones). Also measured
//! without gain: singleton consistency before encoding (every candidate
//! whose placement the candidate engine propagates to a contradiction
//! removed, to a fixed point: lines 9 and 10 took 25.9 and 24.8 s at load
//! 12, as before); clauses "a cell that differs from the first solution has
//! a partner that differs in each of its units" beside the blocking clause
//! (line 10 26.0 s against 21.4 s); proving the solution cell by cell with
//! assumptions under growing conflict limits, cheap refutations first (line
//! 10: 106 s, each incremental call pays CaDiCaL's restart and
//! simplification overhead); and Kissat 4 (the `rustsat-kissat` crate, MIT,
//! whose build needs libclang for bindgen): line 9 took 44.4 s (16.0 to a
//! solution, 28.5 for the proof, from scratch since Kissat is not
//! incremental) at load 11, where CaDiCaL took 22-26 s at loads 8-12. The
//! `cadical` crate exposes neither options nor phases, so CaDiCaL's own
//! knobs were tried from its command line (second round, above).
//!
//! # Fourth round (issue 13, item 2: encodings, CaDiCaL 2.x; none kept)
//!
//! Measured on the formulas that the ignored test `write_gecode_25x25_dimacs`
//! writes, with a C++ program that does what [`for_each`] does (clauses
//! added one by one, the `sat` configuration, a solve, the blocking clause,
//! a second solve), CPU seconds of lines 1, 9 and 10 at load average 1-4.
//! CaDiCaL 1.9.5 as shipped: 10.5, 18.7, 19.9 (13.0, 20.0, 20.7 in a second
//! run; seeds 1 and 2: 11.4, 20.8, 17.7 and 12.2, 22.1, 17.8); the split
//! between the two solves swings (line 9: 16.8 + 1.9 s, then 1.4 + 19.4 s)
//! while the total stays. The formula is small (2,000-2,150 variables,
//! 24,000-27,000 clauses; an "at most one" covers 6 literals on average),
//! so other "at most one" encodings save few clauses, and every one was
//! slower: sequential counter 11.7, 21.4, 23.9 (auxiliary variables
//! numbered before the cells': 16.6, 22.8, 24.1); commander (groups of 3)
//! 14.3, 24.4, 24.4 (14.4, 28.7, 21.6); product 15.2, 26.2, 31.3; binary
//! 18.9, 37.8, 30.7; bimander 16.6, 33.6, 28.3; sequential for the cells
//! only 14.4, 24.4, 19.7, for the units only 16.0, 29.7, 23.1. CaDiCaL
//! 2.2.1 (the sources that the `rustsat-cadical` crate vendors) is no
//! faster: `sat` 12.5, 23.6, 18.9; default 15.5, 24.0, 20.0; `unsat` 17.8,
//! 39.7, 33.5; with its bounded variable addition (`factor`) 15.5, 29.7,
//! 26.8 (`sat`) and 24.2, 37.9, 38.7 (default); `sat` with phase false
//! 11.0, 19.9, 17.7. With 1.9.5 and `sat`: every phase false for the
//! proof 13.4, 22.7, 18.1; no restarts 11.3, 29.9, 22.7; `reluctant=0
//! stabilize=0` 24.7 and 51.8 on lines 1 and 9. All-different arc
//! consistency (matching, with Hall sets as reasons) as an external
//! propagator of CaDiCaL 2.2.1 cut line 1's conflicts by 3% (126,000
//! against 130,000) at 6x the time, so the clauses and learning already
//! find what Hall sets give; deciding on a cell with fewest candidates
//! through that propagator left line 1 unsolved after 200 s.
//!
//! # Fifth round (issue 13, item 2: every solver python-sat ships; none kept)
//!
//! python-sat 1.9.dev24 (its solvers built in), on the formulas that
//! `write_gecode_25x25_dimacs` writes, lines 9, 10 and 1, as [`for_each`]
//! does (a solve, the blocking clause, a second solve); each run capped at
//! 30 s of CPU (`RLIMIT_CPU`), CPU seconds to the solution + to the proof,
//! two runs for the CaDiCaL versions, Glucose 3, 4.1 and 4.2.1, one for
//! the others (over the cap everywhere), load average 5-10; figures in
//! the order of lines 9, 10, 1 where not named. This module's engine took
//! 24.1, 23.4 and 13.7 s in the same session, so these loads make every
//! figure 1.3-2x a quiet machine's. CaDiCaL (default configuration,
//! pysat exposes no other): 1.9.5 line 9 3.4 + 24.5 and 4.2 + over 25.7,
//! line 10 23.6 + 0.5 and 23.0 + 0.6, line 1 4.6 + 10.7 and 5.0 + 12.5;
//! 1.0.3 line 9 26.4 + 7.1 and over 30, line 10 4.1 + 26.9 and 5.0 + over
//! 25, line 1 3.9 + 16.8 and 4.7 + 23.5; 1.5.3 line 9 10.0 + 18.2 and
//! 11.5 + over 18, line 10 14.8 + 8.3 and 15.5 + 9.4, line 1 3.3 + 15.2
//! and 3.7 + 17.1; 3.0.0 line 9 1.1 + 26.1 and 1.4 + over 28, line 10
//! 22.8 + 2.6 and 24.0 + 2.6, line 1 7.0 + 10.5 and 7.9 + 11.2. Glucose
//! 4.2.1 line 9 8.8 + over 21 (twice), line 10 over 30 (twice), line 1
//! 14.0 + 7.0 and 16.9 + 9.7; Glucose 4.1 and Gluecard 4 over 30 on lines
//! 9 and 10, line 1 7.7 + 18.2 and 8.4 + 20.1 (Gluecard 4: 7.6 + 17.7);
//! Glucose 3 over 30 on lines 9 and 10 (line 10's first solve 15.9 and
//! 18.1), line 1 24.7 + 1.3 and 23.9 + 1.3; Gluecard 3 the same (line 10
//! 16.9 + over 13, line 1 24.6 + 0.9). Over 30 s on each of the three
//! lines (at most a first solution, in 18-30 s, within the cap):
//! Lingeling, MapleCM, MapleLCMDistChronoBT, MapleSAT, MergeSat 3,
//! Minicard, MiniSat 2.2, MiniSat (GitHub), MiniSat (extended), and ergo.
//! Kissat 4.0.4 (not incremental, so each solve from scratch): the first
//! solve 17.1, 3.8 and 16.7 s; the proof alone (the formula with the
//! blocking clause, from scratch) over 30, 28.9 and 16.9 s. Proving with
//! another solver than the one that found the solution does not help
//! either: from scratch, the proof took CaDiCaL 1.9.5 27.3, 27.0 and 18.1
//! s, Glucose 4.2.1 and Glucose 3 over 30 on lines 9 and 10 (25.8 and 24.3
//! on line 1), MapleSAT over 30 on all three. Minicard with native
//! "at most one" constraints in place of the pairwise clauses found the
//! first solution of lines 9 and 1 in 8.9 and 9.6 s (9.5 and 10.1 in a
//! second run; over 30 with the clauses) but finished no proof, nor line
//! 10's first solve, within the cap (two runs); so did Gluecard 3 and 4
//! with them (Gluecard 3 solved line 1 in 16.9 + 9.4, as with clauses).
//! No solver is near 10 s on any of the three lines, so none was wired in.
//!
//! # Sixth round (issue 13, 2026-11-28: options by conflicts, a split by digits; none kept)
//!
//! CaDiCaL 1.9.5 built from the crate's own sources (`-O3 -DNDEBUG`) under
//! a C++ driver that does what [`for_each`] does and counts conflicts, a
//! measure the load does not move (`scripts/sat25-options.sh`), on the
//! formulas [`encode`] makes: lines
//! 9 and 10 take 225,000 and 195,000 conflicts (13.1 and 13.3 s of CPU at
//! load 3), about one decision and 250 propagated literals each, with
//! learnt clauses of 60 literals on average; two thirds of the time is
//! `propagate` (perf). Each of these on top of `sat`, one at a time, left
//! the total of the two solves within 161,000-260,000 conflicts on both
//! lines: `target` 0 and 2, `score=0`, `restartint` 1 and 10, `reducetarget=50`,
//! `reduceint=1000`, `scorefactor` 900 and 990, `bumpreason=0`, `shrink=0`,
//! `minimize=0`, `eagersubsume=0`, `walk=0`, `vivify=0`, `probe=0`,
//! `ternary=0`, `subsume=0`, `chronoalways=1`, `forcephase=1`, `phase=0`,
//! `reluctant=0`, `stabilizeonly=0` (the very search of the default
//! configuration here: 260,000 and 209,000), and the proof's phases set to
//! the first solution or to its opposite. Several make the first solve fast (`walk=0`: 18,000 and 17,000
//! conflicts; `probe=0` 6,800 on line 9), never the proof (209,000 and
//! 163,000 after it).
//!
//! Splitting the proof by digits instead of one
//! blocking clause (a second solution moves some digit first, in an order
//! chosen as it goes, fewest placements first: refute every other
//! placement of that digit under assumptions, then fix it): after two or
//! three digits the rest falls to propagation, but each wrong placement of
//! the first digit is a hard puzzle of its own, 4,000-50,000 conflicts
//! (line 10: digit 5's 26 other placements 429,000 conflicts, then 41,000
//! and 5,000 for the next two digits, 2.5x the blocking clause), as the
//! cell-by-cell split of the third round found. Placement reasoning (a
//! digit's placement kept only while every other digit has one disjoint
//! from it, over the digits with at most 3,000 placements) removed 51 of
//! line 9's 2,142 candidates: the givens leave no such structure to use.
//! Nor do placements as variables of their own (one per placement of each
//! digit with at most 300, defined by its cells, so CaDiCaL can decide and
//! learn on whole placements: five digits on line 10, one on line 9): the
//! conflicts stayed where they were (means over four seeds 222,000 and
//! 190,000 against 220,000 and 192,000), and with every digit of up to 3,000 placements (10,900 and
//! 12,000 variables) the time doubled.
//!
//! Numbering the variables of the digits with fewest placements last (so
//! CaDiCaL decides them first: the digits whose fixing made the rest
//! fall) saved 2-14 % of the conflicts of lines 9 and 10 in each of four
//! seeds (means 220,000 -> 209,000 and 192,000 -> 178,000; line 1 133,000
//! -> 122,000 with seed 0); ranking the digits by their candidates instead
//! of their placements, line 9 took 4 % more on average. Five per cent
//! leaves both lines over 10 s, and counting placements (up to 200,000 a
//! digit) is a search of its own, so this order was not kept either.
//!
//! Nor is CaDiCaL faster built with gcc's profile feedback (trained on
//! lines 1, 4 and 15): line 9 took 12.8 and 13.2 s against 11.5 and 11.6 s
//! for the plain `-O3` build, run alternately on a quiet machine.
//! Linear and all-different reasoning do not help either: OR-Tools' CP-SAT
//! 9.15 (Python, one worker, a solve, a blocking clause, a second solve)
//! took 20.5 s on line 1 with this module's exactly-one model, 22.3 s with
//! an all-different constraint per unit on integer cells, and over 300 s
//! with its linear relaxation raised (`linearization_level=2`), where
//! CaDiCaL takes 8.5 s the same hour.
//!
//! # Seventh round (issue 13, 2026-11-28: where the proof's work lies; none kept)
//!
//! The same host took 17.2 and 15.9 s of CPU on lines 9 and 10 at 22:56
//! UTC, quiet (load under 1), where it took 12.6 and 12.8 s at 21:21: the
//! conflicts are the same, so the host's speed moves by a third within a
//! day. Cube and conquer with CaDiCaL's own look-ahead on the proof
//! (`scripts/sat25-options.sh "9 10" cubes=8`: the formula with the
//! blocking clause cut into 2^depth cubes, refuted one by one under
//! assumptions by one solver, from scratch): line 9 240,000, 227,000 and
//! 232,000 conflicts at depths 4, 8 and 12, line 10 196,000, 168,000 and
//! 230,000 (about 200,000 for either with the blocking clause alone), and
//! cutting 4,096 cubes costs 19-34 s by itself. In every case one cube
//! holds 80-98 % of the conflicts, and it is the cube whose literals all
//! agree with the first solution: the work is ruling out assignments that
//! agree with the solution on the literals the look-ahead splits on, so the
//! split shares nothing out. Nor does a split by how many of line 10's 350
//! empty cells differ from the solution (a sequential counter beside the
//! blocking clause, `scripts/sat25-distance.py`): only small distances are
//! cheap (at most 12: 2,300 conflicts, at most 40: 18,600); at most 80 took
//! 88,000 and at most 150 198,000, while at least 13, 41, 81 and 151 took
//! 199,000, 181,000, 235,000 and 221,000. Every side that allows second
//! solutions of over 80 cells costs about the whole proof, so a search
//! for small trades near the solution cannot take the work over, and any
//! split by distance doubles it. Requiring at least 4 differing cells (two
//! solutions differ in at least 4) moved nothing: 210,000 and 192,000
//! conflicts on lines 9 and 10 against 219,000 and 198,000. A
//! cutting-planes solver does far worse: Exact 2.2.1 (PyPI; AGPL, so
//! measured offline only, never a dependency), with each exactly-one as a
//! linear equality and "at most n-1 of the solution's literals" for the
//! proof, did not finish the proof of line 1 or of line 9 within 600 s
//! (CaDiCaL: 8 and 15 s). And the candidate engine is no partner for a
//! portfolio: it takes over 40 s on lines 1, 9, 10 and 15 (0.04-37 s on the
//! rest).

use crate::board::Board;

/// CaDiCaL's configuration tuned for satisfiable formulas; on the hardest
/// Gecode 25x25 puzzles it beat the default, `plain` and `unsat` ones
/// (lines 9 and 10: 14.6 and 13.2 s; `plain` 23.3 and 18.0 s, `unsat` 31.2
/// and 25.2 s, the default 20.4 s on line 9).
const CONFIGURATION: &str = "sat";

/// Smallest square this engine takes: 16x16 puzzles stay with the
/// candidate engine, which needs well under a millisecond for each.
pub(super) const MIN_SIZE: usize = 25;

/// Counts solutions of `puzzle` up to `limit` (at least 1) and returns the
/// count and the first solution; the conditions of [`for_each`] apply.
pub(super) fn solve(puzzle: &Board, limit: usize) -> (usize, Option<Board>) {
    let mut first = None;
    let count = for_each(puzzle, limit, &mut |board| {
        if first.is_none() {
            first = Some(board.clone());
        }
    });
    (count, first)
}

/// Calls `each` with every solution of `puzzle` (of any shape, fitting it,
/// with no clashing givens) up to `limit` (at least 1) and returns
/// how many there were.
pub(super) fn for_each(puzzle: &Board, limit: usize, each: &mut dyn FnMut(&Board)) -> usize {
    let limit = limit.max(1);
    let mut solver: cadical::Solver =
        cadical::Solver::with_config(CONFIGURATION).unwrap_or_default();
    let meaning = encode(puzzle, &mut |clause| {
        solver.add_clause(clause.iter().copied())
    });
    let mut count = 0;
    let mut board = puzzle.clone();
    let mut blocking = Vec::new();
    while count < limit && solver.solve() == Some(true) {
        count += 1;
        blocking.clear();
        for (v, &(cell, digit)) in meaning.iter().enumerate().skip(1) {
            let v = v as i32;
            if solver.value(v) == Some(true) {
                board.cells[cell] = digit;
                blocking.push(-v);
            }
        }
        each(&board);
        solver.add_clause(blocking.iter().copied());
    }
    count
}

/// Hands `add` the clauses of `puzzle`'s formula (of any shape, fitting it)
/// and returns what each variable means: entry `v` is the (cell, digit)
/// of variable `v`, entry 0 is unused.
///
/// One variable per (empty cell, digit) that no given in the cell's units
/// holds; each empty cell holds exactly one digit, and each unit holds each
/// digit it lacks exactly once.
fn encode(puzzle: &Board, add: &mut dyn FnMut(&[i32])) -> Vec<(usize, u8)> {
    let digits = puzzle.shape.digits();
    let units = puzzle.shape.units();
    let cells = puzzle.cells.len();
    // Digits (bits) already given in each unit, and the units of each cell.
    let mut given = vec![0u64; units.len()];
    let mut cell_units: Vec<Vec<usize>> = vec![Vec::new(); cells];
    for (u, unit) in units.iter().enumerate() {
        for &cell in unit {
            cell_units[cell].push(u);
            if puzzle.cells[cell] != 0 {
                given[u] |= 1 << (puzzle.cells[cell] - 1);
            }
        }
    }
    // The cells to fill (a Samurai's layout has positions outside its grids).
    let open: Vec<usize> = (0..cells)
        .filter(|&c| puzzle.cells[c] == 0 && puzzle.shape.contains(c))
        .collect();
    // Variable of each (cell, digit index), 0 for none; and what each means.
    let mut var = vec![0i32; cells * digits];
    let mut meaning: Vec<(usize, u8)> = vec![(0, 0)];
    for &cell in &open {
        let taken = cell_units[cell].iter().fold(0, |m, &u| m | given[u]);
        for d in (0..digits).filter(|&d| taken >> d & 1 == 0) {
            var[cell * digits + d] = meaning.len() as i32;
            meaning.push((cell, d as u8 + 1));
        }
    }
    let mut exactly_one = |lits: Vec<i32>| {
        add(&lits);
        for (k, &a) in lits.iter().enumerate() {
            for &b in &lits[k + 1..] {
                add(&[-a, -b]);
            }
        }
    };
    for &cell in &open {
        exactly_one(
            (0..digits)
                .map(|d| var[cell * digits + d])
                .filter(|&v| v != 0)
                .collect(),
        );
    }
    for (u, unit) in units.iter().enumerate() {
        for d in (0..digits).filter(|&d| given[u] >> d & 1 == 0) {
            exactly_one(
                unit.iter()
                    .map(|&c| var[c * digits + d])
                    .filter(|&v| v != 0)
                    .collect(),
            );
        }
    }
    meaning
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Shape;
    use crate::solve::solve_dlx;
    use crate::testdata::shared_lines;

    fn count(puzzle: &Board, limit: usize) -> usize {
        let mut seen = std::collections::HashSet::new();
        let found = for_each(puzzle, limit, &mut |board| {
            assert!(board.is_solution_of(puzzle));
            assert!(seen.insert(board.clone()), "a solution came twice");
        });
        assert_eq!(found, seen.len());
        found
    }

    #[test]
    fn counts_small_shapes_exactly() {
        let four = Shape::square(4).unwrap();
        assert_eq!(count(&Board::empty(four), 10_000), 288);
        let few = Board::parse("12..\n....\n....\n...4", four).unwrap();
        assert_eq!(count(&few, 100), 6);
        // A cell every digit is taken from: an empty clause, no solution.
        let blocked = Board::parse("123.\n...4\n....\n....", four).unwrap();
        assert_eq!(count(&blocked, 100), 0);
        assert_eq!(count(&Board::empty(Shape::square(6).unwrap()), 500), 500);
    }

    #[test]
    fn counts_agree_with_dancing_links_on_16x16_and_samurai() {
        for (name, step) in [("gecode_16x16.txt", 11), ("samurai.txt", 1)] {
            let Some(puzzles) = shared_lines(name, usize::MAX) else {
                return;
            };
            for p in puzzles.iter().step_by(step) {
                let board = Board::parse(p, Shape::detect(p.len()).unwrap()).unwrap();
                if board.clashes().is_empty() {
                    assert_eq!(
                        count(&board, 5),
                        solve_dlx(&board, 5).count(),
                        "{name}: {p}"
                    );
                }
            }
        }
    }

    /// The Gecode 25x25 puzzles and their solutions, one line each, from
    /// ../shared (`None` where it is absent, as `shared_lines` reports).
    fn gecode_25x25() -> Option<(Vec<String>, Vec<String>)> {
        Some((
            shared_lines("gecode_25x25.txt", usize::MAX)?,
            shared_lines("gecode_25x25.solutions.txt", usize::MAX)?,
        ))
    }

    /// Writes each Gecode 25x25 puzzle's formula as DIMACS, for trying
    /// encodings and command-line solvers on exactly what this module
    /// solves: `line-K.cnf` (the formula, satisfiable) and
    /// `line-K.blocked.cnf` (the formula and the clause that forbids the
    /// known solution, unsatisfiable for a unique puzzle: the proof of
    /// uniqueness), K from 1, in `$SAT25_DIMACS` or the temporary
    /// directory's `sat25`.
    #[test]
    #[ignore = "writes files: cargo test -p snap-solver -- --ignored write_gecode"]
    fn write_gecode_25x25_dimacs() {
        let Some((puzzles, solutions)) = gecode_25x25() else {
            return;
        };
        let dir = std::env::var_os("SAT25_DIMACS")
            .map_or_else(|| std::env::temp_dir().join("sat25"), Into::into);
        std::fs::create_dir_all(&dir).unwrap();
        let shape = Shape::square(25).unwrap();
        for (k, (p, s)) in puzzles.iter().zip(&solutions).enumerate() {
            let puzzle = Board::parse(p, shape).unwrap();
            let solution = Board::parse(s, shape).unwrap();
            let mut clauses: Vec<Vec<i32>> = Vec::new();
            let meaning = encode(&puzzle, &mut |clause| clauses.push(clause.to_vec()));
            let dimacs = |clauses: &[Vec<i32>]| {
                let mut text = format!("p cnf {} {}\n", meaning.len() - 1, clauses.len());
                for clause in clauses {
                    for lit in clause {
                        text += &format!("{lit} ");
                    }
                    text += "0\n";
                }
                text
            };
            let name = |suffix: &str| dir.join(format!("line-{}{suffix}.cnf", k + 1));
            std::fs::write(name(""), dimacs(&clauses)).unwrap();
            clauses.push(
                (1..meaning.len())
                    .filter(|&v| solution.cells[meaning[v].0] == meaning[v].1)
                    .map(|v| -(v as i32))
                    .collect(),
            );
            std::fs::write(name(".blocked"), dimacs(&clauses)).unwrap();
        }
        eprintln!("DIMACS written to {}", dir.display());
    }

    /// User plus system CPU time of this process so far, from Linux's
    /// `/proc/self/stat` (clock ticks of 1/100 s); 0 where that is missing.
    fn cpu_seconds() -> f64 {
        const TICKS_PER_SECOND: f64 = 100.0;
        let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
        // Fields after the command name (which may hold spaces, so split
        // after its closing parenthesis): utime and stime are the 12th and
        // 13th of them.
        let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
        let fields: Vec<&str> = after.split_whitespace().collect();
        let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<f64>().ok());
        (ticks(11).unwrap_or(0.0) + ticks(12).unwrap_or(0.0)) / TICKS_PER_SECOND
    }

    #[test]
    #[ignore = "release only: cargo test --release -p snap-solver -- --ignored"]
    fn every_gecode_25x25_matches_its_solution() {
        let Some((puzzles, solutions)) = gecode_25x25() else {
            return;
        };
        assert_eq!(puzzles.len(), 18);
        let shape = Shape::square(25).unwrap();
        for (k, (p, s)) in puzzles.iter().zip(&solutions).enumerate() {
            let puzzle = Board::parse(p, shape).unwrap();
            let (start, cpu) = (std::time::Instant::now(), cpu_seconds());
            let outcome = crate::solve::solve(&puzzle, 2).unwrap();
            // CPU time as well as wall time: the machine is shared, and
            // only the CPU time says what one free core would take.
            eprintln!(
                "25x25 line {}: {:.2} s wall, {:.2} s CPU",
                k + 1,
                start.elapsed().as_secs_f64(),
                cpu_seconds() - cpu
            );
            match outcome {
                crate::solve::Outcome::Unique(found) => {
                    assert_eq!(&found.to_line(), s, "line {}", k + 1)
                }
                other => panic!("line {}: {} solutions", k + 1, other.count()),
            }
        }
    }
}
