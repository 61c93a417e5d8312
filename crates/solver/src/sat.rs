//! The engine for 25x25 and larger squares: the puzzle as a SAT formula,
//! solved by CaDiCaL (the `cadical` crate: MIT, CaDiCaL's C++ sources
//! built with the machine's C++ compiler).
//!
//! One variable per (empty cell, digit) that no given in the cell's units
//! holds. Clauses: each empty cell holds exactly one digit; each unit holds
//! each digit it lacks exactly once ("exactly one" is one clause for "at
//! least one" and a clause per pair for "at most one"). Solutions are
//! counted by adding, after each one found, a clause that forbids it (one
//! literal per empty cell) and solving again: CaDiCaL is incremental, so
//! what it learnt finding a solution carries over to the next call.
//!
//! # Why SAT
//!
//! Hard 25x25 puzzles (the minimal ones of the Gecode set) need search that
//! learns from its failures. The candidate engine (`candidates`:
//! all-different consistency, probing, look-ahead branching, no learning)
//! solves 9 of the 18 Gecode 25x25 puzzles within 10 s and takes over 40 s
//! on four; with CaDiCaL all 18 are solved. 16x16 puzzles stay with the
//! candidate engine, which needs well under a millisecond for each.
//!
//! # What it guarantees
//!
//! A 25x25 answer is called unique only when it is proved: the call after
//! the blocking clause must come back unsatisfiable. All 18 Gecode puzzles
//! are solved and proved unique (`scripts/bench-25x25.sh`). The price is
//! time, a limit of this engine rather than a goal: lines 9 and 10 take
//! about 200,000 conflicts each, 10-21 s of CPU on a quiet machine
//! depending on the host, nine tenths of it in the proof; the other 16
//! take 0.02-13 s.
//!
//! # Measured and not kept
//!
//! Conflicts are the measure the machine's load does not move
//! (`scripts/sat25-options.sh`; `scripts/sat25-distance.py` for splits by
//! distance; the ignored test `write_gecode_25x25_dimacs` writes the
//! formulas). None of these shrank the search of lines 9 and 10:
//!
//! - Other solvers: `batsat` and `varisat` (2.1x and 2.5x the time),
//!   Kissat 4 (not incremental: the proof from scratch), every solver
//!   python-sat ships (Glucose, Lingeling, MapleSAT, MiniSat, Minicard with
//!   native cardinality), CaDiCaL 1.0.3 to 3.0.0, a profile-guided build.
//! - CaDiCaL's configurations (`sat`, kept, is the fastest of four) and
//!   some 20 options one at a time: 161,000-260,000 conflicts on both lines.
//! - Encodings: sequential counter, commander, product, binary and
//!   bimander "at most one" (all slower); box-segment or digit-placement
//!   variables; the formula shrunk by singles, root propagation or
//!   singleton consistency (a few per cent fewer variables, same time).
//! - Variable order: it moves the work between the first solve and the
//!   proof without shrinking it (line 9: 21.8 + 2.9 s or 1.2 + 22.5 s).
//! - Splitting the proof: cell by cell under assumptions (line 10: 106 s),
//!   digit by digit (2.5x the conflicts), cube and conquer (80-98 % of the
//!   conflicts in the one cube that agrees with the solution), by distance
//!   from the solution (each side allowing over 80 differing cells costs
//!   the whole proof).
//! - Other reasoning: all-different as a CaDiCaL propagator (3 % fewer
//!   conflicts at 6x the time), OR-Tools CP-SAT (20.5 s where CaDiCaL takes
//!   8.5 s), the cutting-planes solver Exact (no proof of line 1 in 600 s),
//!   the candidate engine beside CaDiCaL (over 40 s on lines 1, 9, 10, 15).

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

/// Literals of blocking clauses kept at most: 16 million, about 100 MB in
/// CaDiCaL (a 625-literal clause costs it 3.8 KB with its watches and the
/// learnt clauses around it). A blocking clause has one literal per empty
/// cell, so counting to a large `--limit` by blocking alone grows without
/// end (26,800 solutions of an empty 25x25 reach this bound); past it the
/// rest are enumerated without clauses (see [`Split`]), in constant
/// memory but about five times slower per solution (1,000 solutions of an
/// empty 25x25: 5.3 s blocking, 32 s split, release build). The
/// uniqueness check (two solutions) is always done by blocking, the fast
/// way for a hard proof.
const MAX_BLOCKING_LITERALS: usize = 16 << 20;

/// Calls `each` with every solution of `puzzle` (of any shape, fitting it,
/// with no clashing givens) up to `limit` (at least 1) and returns
/// how many there were.
pub(super) fn for_each(puzzle: &Board, limit: usize, each: &mut dyn FnMut(&Board)) -> usize {
    for_each_blocking(puzzle, limit, MAX_BLOCKING_LITERALS, each)
}

/// [`for_each`], keeping at most `max_blocking` literals of blocking clauses.
fn for_each_blocking(
    puzzle: &Board,
    limit: usize,
    max_blocking: usize,
    each: &mut dyn FnMut(&Board),
) -> usize {
    let limit = limit.max(1);
    let mut solver: cadical::Solver =
        cadical::Solver::with_config(CONFIGURATION).unwrap_or_default();
    let meaning = encode(puzzle, &mut |clause| {
        solver.add_clause(clause.iter().copied())
    });
    let mut count = 0;
    let mut board = puzzle.clone();
    let mut blocked = 0;
    while count < limit && solver.solve() == Some(true) {
        count += 1;
        let solution = read_solution(&solver, &meaning, &mut board);
        each(&board);
        if count == limit {
            break;
        }
        if blocked + solution.len() > max_blocking {
            let mut split = Split {
                solver: &mut solver,
                meaning: &meaning,
                board: &mut board,
            };
            return count + split.rest(solution, limit - count, each);
        }
        blocked += solution.len();
        solver.add_clause(solution.iter().map(|&v| -v));
    }
    count
}

/// The true variables of the solver's model (one per empty cell, in
/// variable order, which is cell order), written into `board`.
fn read_solution(solver: &cadical::Solver, meaning: &[(usize, u8)], board: &mut Board) -> Vec<i32> {
    let mut solution = Vec::new();
    for (v, &(cell, digit)) in meaning.iter().enumerate().skip(1) {
        let v = v as i32;
        if solver.value(v) == Some(true) {
            board.cells[cell] = digit;
            solution.push(v);
        }
    }
    solution
}

/// Enumeration without blocking clauses: the solutions other than a known
/// one, S, split into disjoint sets by the first empty cell (in order) where
/// they differ from S; each set is searched with assumptions (the cells
/// before it as in S, that cell not as in S), and each solution found there
/// is split the same way within its set. Every solution is met exactly
/// once, and what is kept is a stack of solutions (one per level, at most
/// cells x digits levels, since each level fixes a cell or rules out one
/// more of its digits), whatever the count.
struct Split<'a> {
    solver: &'a mut cadical::Solver,
    meaning: &'a [(usize, u8)],
    board: &'a mut Board,
}

/// A solution whose set is being split: `next` is the position (among its
/// true variables) of the cell where the next subset differs, `from` the
/// first position this level may vary, and `open` whether the subset at
/// `next` is being searched.
struct Level {
    solution: Vec<i32>,
    from: usize,
    next: usize,
    open: bool,
}

impl Split<'_> {
    /// Enumerates up to `budget` solutions besides `known` (already
    /// reported and not blocked), calling `each`; returns how many.
    fn rest(&mut self, known: Vec<i32>, budget: usize, each: &mut dyn FnMut(&Board)) -> usize {
        let mut found = 0;
        let mut assumptions: Vec<i32> = Vec::new();
        let mut levels = vec![Level {
            solution: known,
            from: 0,
            next: 0,
            open: false,
        }];
        while let Some(level) = levels.last_mut() {
            if level.open {
                // The subset where the cell at `next` differs is done: from
                // here on that cell is as in this level's solution.
                assumptions.pop();
                assumptions.push(level.solution[level.next]);
                level.next += 1;
                level.open = false;
                continue;
            }
            if level.next == level.solution.len() {
                assumptions.truncate(assumptions.len() - (level.next - level.from));
                levels.pop();
                continue;
            }
            if found == budget {
                break;
            }
            let at = level.next;
            assumptions.push(-level.solution[at]);
            level.open = true;
            if self.solver.solve_with(assumptions.iter().copied()) == Some(true) {
                let solution = read_solution(self.solver, self.meaning, self.board);
                each(self.board);
                found += 1;
                levels.push(Level {
                    solution,
                    from: at,
                    next: at,
                    open: false,
                });
            }
        }
        found
    }
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
        count_blocking(puzzle, limit, MAX_BLOCKING_LITERALS)
    }

    /// Counts, checking every solution and that none comes twice, keeping
    /// at most `max_blocking` literals of blocking clauses.
    fn count_blocking(puzzle: &Board, limit: usize, max_blocking: usize) -> usize {
        let mut seen = std::collections::HashSet::new();
        let found = for_each_blocking(puzzle, limit, max_blocking, &mut |board| {
            assert!(board.is_solution_of(puzzle));
            assert!(seen.insert(board.clone()), "a solution came twice");
        });
        assert_eq!(found, seen.len());
        found
    }

    #[test]
    fn enumeration_past_the_blocking_bound_meets_every_solution_once() {
        let four = Shape::square(4).unwrap();
        // No blocking clause at all, one, and a few: the same counts.
        for max_blocking in [0, 12, 40] {
            assert_eq!(
                count_blocking(&Board::empty(four), 10_000, max_blocking),
                288
            );
            let few = Board::parse("12..\n....\n....\n...4", four).unwrap();
            assert_eq!(count_blocking(&few, 100, max_blocking), 6);
            let blocked = Board::parse("123.\n...4\n....\n....", four).unwrap();
            assert_eq!(count_blocking(&blocked, 100, max_blocking), 0);
            let six = Board::empty(Shape::square(6).unwrap());
            assert_eq!(count_blocking(&six, 700, max_blocking), 700);
        }
        // 6x6 with a few givens: every solution, compared with Dancing Links.
        let six = Board::parse(
            "1.....\n..3...\n....5.\n.2....\n......\n.....6",
            Shape::square(6).unwrap(),
        )
        .unwrap();
        let all = solve_dlx(&six, 1_000_000).count();
        assert!(all > 100, "{all}");
        assert_eq!(count_blocking(&six, 1_000_000, 0), all);
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
