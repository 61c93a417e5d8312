//! Solving a [`Board`] of any shape: outcomes, and which engine runs.
//!
//! - Classic 9x9 boards go to the bitset fast path in `propagate`.
//! - Squares of 16x16 and up and Samurai go to the candidate-bitset solver
//!   in `candidates`: singles, locked candidates and all-different
//!   consistency at every node, probing of two-candidate cells and
//!   look-ahead branching (5x faster than Dancing Links on the 16x16 set,
//!   and up to a thousand times on photographed Samurai read with a clue
//!   missed), except squares of 25x25 and up, which go to a SAT solver
//!   (`sat`): hard ones need its clause learning (without the `sat`
//!   feature they stay with the candidate solver).
//! - Everything else (small squares) goes to Dancing Links
//!   ([`ExactCover`]): one matrix row per (cell, candidate digit), one column
//!   per cell ("the cell holds a digit") and one per (unit, digit) ("the unit
//!   holds the digit").

use crate::board::Board;
use crate::candidates::Candidates;
use crate::dlx::ExactCover;
use crate::propagate;
#[cfg(feature = "sat")]
use crate::sat;
use crate::shape::{digit_char, Shape};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// Default number of solutions to look for: two is enough to tell unique from multiple.
pub const DEFAULT_LIMIT: usize = 2;

/// What a puzzle turned out to have, counting up to a limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// No way to fill the grid.
    NoSolution,
    /// Exactly one solution.
    Unique(Board),
    /// More than one: `count` solutions were found before the limit stopped
    /// the search (so `count == limit` means "at least that many").
    Multiple {
        /// Solutions found, at most the limit.
        count: usize,
        /// The first solution found.
        first: Board,
    },
}

impl Outcome {
    /// Number of solutions found (0, 1 or the count).
    pub fn count(&self) -> usize {
        match self {
            Outcome::NoSolution => 0,
            Outcome::Unique(_) => 1,
            Outcome::Multiple { count, .. } => *count,
        }
    }

    /// The unique or first solution, if any.
    pub fn first(&self) -> Option<&Board> {
        match self {
            Outcome::NoSolution => None,
            Outcome::Unique(g) | Outcome::Multiple { first: g, .. } => Some(g),
        }
    }

    /// The outcome of `count` solutions of which `first` is the first.
    fn of(count: usize, first: Option<Board>) -> Outcome {
        match (count, first) {
            (0, _) | (_, None) => Outcome::NoSolution,
            (1, Some(board)) => Outcome::Unique(board),
            (count, Some(first)) => Outcome::Multiple { count, first },
        }
    }
}

/// Clashing pairs a message names; the rest are counted. A puzzle typed
/// wrong has one or two, and a line of one repeated letter has thousands
/// (a 25x25 of `A`s, 17,000 pairs and 560 KB of text per line).
pub const CLASHES_NAMED: usize = 5;

/// Givens that already break a rule: solving is pointless.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("givens clash: {}", self.describe())]
pub struct Clash {
    /// Pairs of cell indices (row-major in the layout) holding the same digit in one unit.
    pub pairs: Vec<(usize, usize)>,
    /// The digit of each pair.
    pub digits: Vec<u8>,
    /// The board's shape, to name cells.
    pub shape: Shape,
}

impl Clash {
    /// The clashes of `board`, or `None` when no two givens clash.
    pub fn find(board: &Board) -> Option<Clash> {
        let pairs = board.clashes();
        if pairs.is_empty() {
            return None;
        }
        let digits = pairs.iter().map(|&(a, _)| board.cells[a]).collect();
        Some(Clash {
            pairs,
            digits,
            shape: board.shape,
        })
    }

    /// `r1c1 and r1c2 are both 4; ...`, the first [`CLASHES_NAMED`] pairs
    /// and how many more.
    fn describe(&self) -> String {
        let parts: Vec<String> = self
            .pairs
            .iter()
            .zip(&self.digits)
            .take(CLASHES_NAMED)
            .map(|(&(a, b), &d)| {
                format!(
                    "{} and {} are both {}",
                    self.shape.cell_name(a),
                    self.shape.cell_name(b),
                    digit_char(d)
                )
            })
            .collect();
        let more = self.pairs.len().saturating_sub(CLASHES_NAMED);
        match more {
            0 => parts.join("; "),
            _ => format!("{}; and {more} more", parts.join("; ")),
        }
    }
}

/// Solves `puzzle`, counting solutions up to `limit` (0 is read as 1).
/// Clashing givens are reported without searching; a board whose cell count
/// or values do not fit its shape has no solution.
pub fn solve(puzzle: &Board, limit: usize) -> Result<Outcome, Clash> {
    let limit = limit.max(1);
    if let Some(clash) = Clash::find(puzzle) {
        return Err(clash);
    }
    if !fits(puzzle) {
        return Ok(Outcome::NoSolution);
    }
    Ok(match puzzle.shape {
        shape if shape == Shape::classic() => {
            let mut first = [0u8; 81];
            let count = propagate::count(&classic_cells(puzzle), limit, &mut first);
            Outcome::of(count, (count > 0).then(|| classic_board(&first)))
        }
        #[cfg(feature = "sat")]
        Shape::Square { size, .. } if size >= sat::MIN_SIZE => {
            let (count, first) = sat::solve(puzzle, limit);
            Outcome::of(count, first)
        }
        shape if by_candidates(shape) => {
            let (count, first) = tables(shape).solve(puzzle, limit);
            Outcome::of(count, first)
        }
        _ => solve_dlx(puzzle, limit),
    })
}

/// Whether `shape` goes to the candidate engine (once the SAT engine has
/// taken the squares it is for): squares of 16x16 and up, and Samurai,
/// whose overlapping grids it handles too (on readings of photographed
/// Samurai, a clue or two missed or misread, Dancing Links took 0.06-9 s
/// to count to two, the candidate engine 1-5 ms).
fn by_candidates(shape: Shape) -> bool {
    shape == Shape::Samurai || matches!(shape, Shape::Square { size, .. } if size >= 16)
}

/// The candidate engine's tables made so far, by shape.
type Made = Vec<(Shape, Arc<Candidates>)>;

/// The candidate engine's tables for `shape`, made once per shape and
/// process: they take 0.35 ms for a 16x16 and 1.3 ms for a Samurai, as
/// long as solving a puzzle read from a photo, and deciding a photo's
/// grid solves up to thousands of readings.
fn tables(shape: Shape) -> Arc<Candidates> {
    static TABLES: OnceLock<Mutex<Made>> = OnceLock::new();
    let mut made = TABLES
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(PoisonError::into_inner);
    if let Some((_, tables)) = made.iter().find(|(s, _)| *s == shape) {
        return Arc::clone(tables);
    }
    let tables = Arc::new(Candidates::new(shape));
    made.push((shape, Arc::clone(&tables)));
    tables
}

/// Calls `each` for every solution of `puzzle` up to `limit` (a limit of 0
/// is read as one) and returns how many there were. Clashing givens are
/// reported without searching.
pub fn for_each_solution(
    puzzle: &Board,
    limit: usize,
    each: &mut dyn FnMut(&Board),
) -> Result<usize, Clash> {
    let limit = limit.max(1);
    if let Some(clash) = Clash::find(puzzle) {
        return Err(clash);
    }
    if !fits(puzzle) {
        return Ok(0);
    }
    if puzzle.shape == Shape::classic() {
        return Ok(propagate::for_each_solution(
            &classic_cells(puzzle),
            limit,
            &mut |cells| each(&classic_board(cells)),
        ));
    }
    #[cfg(feature = "sat")]
    if matches!(puzzle.shape, Shape::Square { size, .. } if size >= sat::MIN_SIZE) {
        return Ok(sat::for_each(puzzle, limit, each));
    }
    if by_candidates(puzzle.shape) {
        return Ok(tables(puzzle.shape).for_each(puzzle, limit, each));
    }
    Ok(for_each_dlx(puzzle, &[], limit, each))
}

/// Solves with Dancing Links alone, whatever the shape: the reference engine
/// for differential tests (25x25 puzzles may take very long this way).
pub fn solve_dlx(puzzle: &Board, limit: usize) -> Outcome {
    dlx_outcome(puzzle, &[], limit)
}

/// Solves `puzzle` with each of its empty cells held to the digits set in
/// `allowed` (bit `d` for digit `d`, one mask per cell; a missing mask
/// allows every digit), counting solutions up to `limit` (0 is read as 1):
/// a reading whose cells may each be one of a few symbols, solved at once.
/// Through Dancing Links, whatever the shape; clashing givens are reported
/// first.
pub fn solve_within(puzzle: &Board, allowed: &[u64], limit: usize) -> Result<Outcome, Clash> {
    if let Some(clash) = Clash::find(puzzle) {
        return Err(clash);
    }
    Ok(dlx_outcome(puzzle, allowed, limit.max(1)))
}

/// The outcome of [`for_each_dlx`]: the solutions counted up to `limit`,
/// and the first.
fn dlx_outcome(puzzle: &Board, allowed: &[u64], limit: usize) -> Outcome {
    let mut first: Option<Board> = None;
    let count = for_each_dlx(puzzle, allowed, limit, &mut |board| {
        if first.is_none() {
            first = Some(board.clone());
        }
    });
    Outcome::of(count, first)
}

/// The 81 cells of a classic board (which [`fits`] has checked).
fn classic_cells(board: &Board) -> propagate::Cells {
    let mut cells = [0u8; 81];
    cells.copy_from_slice(&board.cells);
    cells
}

/// The classic board holding `cells`.
fn classic_board(cells: &propagate::Cells) -> Board {
    Board {
        shape: Shape::classic(),
        cells: cells.to_vec(),
    }
}

/// True when the board has its shape's cell count, no value above the
/// digit count and no digit outside a Samurai's grids.
fn fits(puzzle: &Board) -> bool {
    let shape = puzzle.shape;
    puzzle.cells.len() == shape.cell_count()
        && (0..puzzle.cells.len()).all(|i| {
            let v = puzzle.cells[i] as usize;
            v <= shape.digits() && (v == 0 || shape.contains(i))
        })
}

/// A board as an exact-cover matrix, with what each matrix row means.
struct Encoding {
    matrix: ExactCover,
    /// (cell index, digit) of each matrix row.
    placements: Vec<(usize, u8)>,
}

/// Builds the matrix: a column per cell, a column per (unit, digit), and a
/// row per (cell, digit) that the givens leave possible (only the given
/// digit for a filled cell; for an empty one, the digits no given in its
/// units holds and its mask in `allowed` sets, where it has one).
fn encode(puzzle: &Board, allowed: &[u64]) -> Encoding {
    let shape = puzzle.shape;
    let digits = shape.digits();
    let units = shape.units();
    let cells: Vec<usize> = (0..shape.cell_count())
        .filter(|&i| shape.contains(i))
        .collect();
    let mut cell_column = vec![usize::MAX; shape.cell_count()];
    let mut cell_units: Vec<Vec<usize>> = vec![Vec::new(); shape.cell_count()];
    for (column, &cell) in cells.iter().enumerate() {
        cell_column[cell] = column;
    }
    for (u, unit) in units.iter().enumerate() {
        for &cell in unit {
            cell_units[cell].push(u);
        }
    }
    // Digits already given in each unit (bit d).
    let mut unit_given = vec![0u64; units.len()];
    for (u, unit) in units.iter().enumerate() {
        for &cell in unit {
            unit_given[u] |= 1u64 << puzzle.cells[cell];
        }
    }
    let mut matrix = ExactCover::new(cells.len() + units.len() * digits);
    let mut placements = Vec::new();
    let mut columns = Vec::new();
    for &cell in &cells {
        let given = puzzle.cells[cell];
        for d in 1..=digits as u8 {
            let taken = cell_units[cell]
                .iter()
                .any(|&u| unit_given[u] >> d & 1 == 1);
            let barred = allowed.get(cell).is_some_and(|&m| m >> d & 1 == 0);
            if (given != 0 && d != given) || (given == 0 && (taken || barred)) {
                continue;
            }
            columns.clear();
            columns.push(cell_column[cell]);
            columns.extend(
                cell_units[cell]
                    .iter()
                    .map(|&u| cells.len() + u * digits + (d as usize - 1)),
            );
            matrix.add_row(&columns);
            placements.push((cell, d));
        }
    }
    // Per-node reduction pays off only on large grids (see the module notes).
    matrix.set_reduce(digits >= 16);
    Encoding { matrix, placements }
}

/// Calls `each` with every solution of a board of any shape, up to `limit`,
/// through Dancing Links, its empty cells held to their masks in `allowed`
/// (see [`solve_within`]); returns how many there were. A board that does
/// not fit its shape has none.
fn for_each_dlx(
    puzzle: &Board,
    allowed: &[u64],
    limit: usize,
    each: &mut dyn FnMut(&Board),
) -> usize {
    if !fits(puzzle) {
        return 0;
    }
    let Encoding {
        mut matrix,
        placements,
    } = encode(puzzle, allowed);
    let mut board = puzzle.clone();
    matrix.solve(limit, &mut |rows| {
        for &row in rows {
            let (cell, digit) = placements[row];
            board.cells[cell] = digit;
        }
        each(&board);
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testdata::shared_lines;

    fn read_lines(name: &str) -> Option<Vec<String>> {
        shared_lines(name, usize::MAX)
    }

    const CLASSIC: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    #[test]
    fn solve_within_holds_empty_cells_to_their_digits() {
        let shape = Shape::square(4).unwrap();
        let few = Board::parse("12..\n....\n....\n...4", shape).unwrap();
        let unmasked = solve_within(&few, &[], 10).unwrap().count();
        assert_eq!(unmasked, 6, "no mask: every completion");
        // r2c1 held to 3 or 4 (bits 3 and 4): the completions with either.
        let mut allowed = vec![u64::MAX; 16];
        allowed[4] = 1 << 3 | 1 << 4;
        let both = solve_within(&few, &allowed, 10).unwrap().count();
        assert_eq!(both, 6, "r2c1 is 3 or 4 in every completion");
        allowed[4] = 1 << 3;
        let threes = solve_within(&few, &allowed, 10).unwrap();
        assert!(threes.count() > 0 && threes.count() < 6);
        assert_eq!(threes.first().unwrap().cells[4], 3);
        // Held to a digit its row already has: none.
        allowed[4] = 1 << 1;
        assert_eq!(
            solve_within(&few, &allowed, 10).unwrap(),
            Outcome::NoSolution
        );
        // A filled cell keeps its digit whatever its mask says.
        allowed[4] = u64::MAX;
        allowed[0] = 1 << 2;
        assert_eq!(solve_within(&few, &allowed, 10).unwrap().count(), 6);
    }

    #[test]
    fn small_squares_count_their_solutions() {
        let shape = Shape::square(4).unwrap();
        let few = Board::parse("12..\n....\n....\n...4", shape).unwrap();
        // Six completions (checked by brute force over all 4x4 grids).
        assert_eq!(solve(&few, 10).unwrap().count(), 6);
        let puzzle = Board::parse("1...\n..2.\n.3..\n...4", shape).unwrap();
        match solve(&puzzle, 10).unwrap() {
            Outcome::Unique(s) => assert!(s.is_solution_of(&puzzle)),
            other => panic!("{other:?}"),
        }
        // There are 288 4x4 Sudoku grids.
        assert_eq!(solve(&Board::empty(shape), 10_000).unwrap().count(), 288);
        // 6x6 with 2x3 boxes: 28,200 grids; the limit stops the count.
        assert_eq!(
            solve(&Board::empty(Shape::square(6).unwrap()), 10_000)
                .unwrap()
                .count(),
            10_000
        );
    }

    #[test]
    fn classic_9x9_through_dlx_and_the_fast_path() {
        let board = Board::parse(CLASSIC, Shape::classic()).unwrap();
        assert_eq!(board.to_line(), CLASSIC);
        assert_eq!(
            Board::parse(&board.to_pretty(), Shape::classic()),
            Ok(board.clone())
        );
        let Outcome::Unique(solution) = solve_dlx(&board, 2) else {
            panic!("not unique")
        };
        assert!(solution.is_solution_of(&board));
        assert_eq!(solve(&board, 2), Ok(Outcome::Unique(solution)));
    }

    #[test]
    fn gecode_9x9_through_dlx() {
        let (Some(puzzles), Some(solutions)) = (
            read_lines("gecode_9x9.txt"),
            read_lines("gecode_9x9.solutions.txt"),
        ) else {
            return;
        };
        for (p, s) in puzzles.iter().zip(&solutions) {
            let puzzle = Board::parse(p, Shape::classic()).unwrap();
            let Outcome::Unique(found) = solve(&puzzle, 2).unwrap() else {
                panic!("{p}: not unique")
            };
            assert_eq!(&found.to_line(), s);
        }
    }

    #[test]
    fn every_gecode_16x16_matches_its_solution() {
        let (Some(puzzles), Some(solutions)) = (
            read_lines("gecode_16x16.txt"),
            read_lines("gecode_16x16.solutions.txt"),
        ) else {
            return;
        };
        assert_eq!(puzzles.len(), 55);
        let shape = Shape::square(16).unwrap();
        for (k, (p, s)) in puzzles.iter().zip(&solutions).enumerate() {
            let puzzle = Board::parse(p, shape).unwrap();
            match solve(&puzzle, 2).unwrap() {
                Outcome::Unique(found) => {
                    assert_eq!(&found.to_line(), s, "puzzle {}", k + 1);
                    assert!(found.is_solution_of(&puzzle));
                }
                other => panic!("puzzle {}: {} solutions", k + 1, other.count()),
            }
        }
    }

    #[test]
    fn both_engines_agree_on_16x16_and_samurai() {
        let shape = Shape::square(4).unwrap();
        let all_4x4 = Candidates::new(shape).solve(&Board::empty(shape), 10_000);
        assert_eq!(all_4x4.0, 288);
        let samurai = Candidates::new(Shape::Samurai).solve(&Board::empty(Shape::Samurai), 50);
        assert_eq!(samurai.0, 50);
        for name in ["gecode_16x16.txt", "samurai.txt"] {
            let Some(puzzles) = read_lines(name) else {
                return;
            };
            for (k, p) in puzzles.iter().enumerate().step_by(5) {
                let puzzle = Board::parse(p, Shape::detect(p.len()).unwrap()).unwrap();
                let candidates = Candidates::new(puzzle.shape).solve(&puzzle, 3);
                let dlx = solve_dlx(&puzzle, 3);
                assert_eq!(candidates.0, dlx.count(), "{name} line {}", k + 1);
                if dlx.count() == 1 {
                    assert_eq!(candidates.1.as_ref(), dlx.first(), "{name} line {}", k + 1);
                }
            }
        }
    }

    #[test]
    fn every_samurai_has_its_expected_count() {
        let (Some(puzzles), Some(expected)) = (
            read_lines("samurai.txt"),
            read_lines("samurai.expected.txt"),
        ) else {
            return;
        };
        assert_eq!(puzzles.len(), expected.len());
        for (k, (p, e)) in puzzles.iter().zip(&expected).enumerate() {
            let puzzle = Board::parse(p, Shape::Samurai).unwrap();
            assert_eq!(puzzle.to_line(), *p);
            let (count, solution) = e.split_once(' ').unwrap();
            let outcome = solve(&puzzle, 1000).unwrap_or(Outcome::NoSolution);
            match count {
                ">=1000" => assert_eq!(outcome.count(), 1000, "line {}", k + 1),
                _ => assert_eq!(outcome.count().to_string(), count, "line {}", k + 1),
            }
            if solution != "-" {
                let found = outcome.first().unwrap();
                assert_eq!(found.to_line(), solution, "line {}", k + 1);
                assert!(found.is_solution_of(&puzzle));
            }
            if let Some(first) = outcome.first() {
                assert!(first.is_solution_of(&puzzle), "line {}", k + 1);
            }
        }
    }

    #[test]
    fn clashes_and_solution_checks() {
        let mut board = Board::empty(Shape::Samurai);
        // r7c7 is in grid 1's box 9 and the centre grid's box 1; r9c9 too.
        board.cells[6 * 21 + 6] = 4;
        board.cells[8 * 21 + 8] = 4;
        assert_eq!(board.clashes(), vec![(6 * 21 + 6, 8 * 21 + 8)]);
        let clash = solve(&board, 2).unwrap_err();
        assert_eq!(clash.to_string(), "givens clash: r7c7 and r9c9 are both 4");
        let puzzle = Board::parse(CLASSIC, Shape::classic()).unwrap();
        let solution = solve(&puzzle, 1).unwrap().first().unwrap().clone();
        assert!(solution.is_solution_of(&puzzle));
        let mut wrong = solution.clone();
        wrong.cells.swap(0, 1);
        assert!(!wrong.is_solution_of(&puzzle));
        assert!(!puzzle.is_solution_of(&puzzle));
        assert_eq!(solve(&puzzle, 0).unwrap().count(), 1, "limit 0 reads as 1");
    }

    #[test]
    fn a_clash_message_names_a_few_pairs_and_counts_the_rest() {
        // Nine 9s in row 1: 36 pairs (those sharing a box are row pairs).
        let board = Board::parse(
            &format!("{}{}", "9".repeat(9), ".".repeat(72)),
            Shape::classic(),
        )
        .unwrap();
        let clash = solve(&board, 2).unwrap_err();
        assert_eq!(clash.pairs.len(), 36);
        let message = clash.to_string();
        assert!(
            message.starts_with("givens clash: r1c1 and r1c2 are both 9; r1c1 and r1c3"),
            "{message}"
        );
        assert!(message.ends_with("; and 31 more"), "{message}");
        assert_eq!(message.matches("are both").count(), CLASHES_NAMED);
    }

    #[test]
    #[ignore = "25x25: about 3 s in release, far too slow in debug; run with --release -- --ignored"]
    fn gecode_25x25_line_17() {
        let (Some(puzzles), Some(solutions)) = (
            read_lines("gecode_25x25.txt"),
            read_lines("gecode_25x25.solutions.txt"),
        ) else {
            return;
        };
        // Line 17 (a variant of line 2 with extra givens) is one that solves.
        let puzzle = Board::parse(&puzzles[16], Shape::square(25).unwrap()).unwrap();
        let found = solve(&puzzle, 2).unwrap();
        assert_eq!(found.count(), 1);
        assert_eq!(found.first().unwrap().to_line(), solutions[16]);
    }
}
