//! Solving: outcomes, the 9x9 fast path and the general exact-cover engine.
//!
//! [`solve`] is the entry point for classic 9x9 puzzles; it uses the bitset
//! solver in [`propagate`]. Other shapes (NxN, Samurai) go through
//! [`shapes`], which describes them as exact-cover constraints for the
//! Dancing Links engine in [`dlx`].

pub mod dlx;
pub mod propagate;
pub mod shapes;

use crate::grid::Grid;

/// Default number of solutions to look for: two is enough to tell unique from multiple.
pub const DEFAULT_LIMIT: usize = 2;

/// What a puzzle turned out to have, counting up to a limit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome<G = Grid> {
    /// No way to fill the grid.
    NoSolution,
    /// Exactly one solution.
    Unique(G),
    /// More than one: `count` solutions were found before the limit stopped
    /// the search (so `count == limit` means "at least that many").
    Multiple {
        /// Solutions found, at most the limit.
        count: usize,
        /// The first solution found.
        first: G,
    },
}

impl<G> Outcome<G> {
    /// Number of solutions found (0, 1 or the count).
    pub fn count(&self) -> usize {
        match self {
            Outcome::NoSolution => 0,
            Outcome::Unique(_) => 1,
            Outcome::Multiple { count, .. } => *count,
        }
    }

    /// The unique or first solution, if any.
    pub fn first(&self) -> Option<&G> {
        match self {
            Outcome::NoSolution => None,
            Outcome::Unique(g) | Outcome::Multiple { first: g, .. } => Some(g),
        }
    }
}

/// Givens that already break a rule: solving is pointless.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clash {
    /// Pairs of cell indices (row-major) holding the same digit in one unit.
    pub pairs: Vec<(usize, usize)>,
    /// The digit of each pair.
    pub digits: Vec<u8>,
    /// Width of the board's layout (9 for 9x9, 21 for Samurai), to name cells.
    pub width: usize,
}

impl Clash {
    /// The clash of a board given as cells in row-major order of `width` columns.
    pub fn new(cells: &[u8], pairs: Vec<(usize, usize)>, width: usize) -> Clash {
        let digits = pairs.iter().map(|&(a, _)| cells[a]).collect();
        Clash {
            pairs,
            digits,
            width,
        }
    }
}

impl std::fmt::Display for Clash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self
            .pairs
            .iter()
            .zip(&self.digits)
            .map(|(&(a, b), &d)| {
                let name = |i: usize| format!("r{}c{}", i / self.width + 1, i % self.width + 1);
                format!(
                    "{} and {} are both {}",
                    name(a),
                    name(b),
                    shapes::digit_char(d)
                )
            })
            .collect();
        write!(f, "givens clash: {}", parts.join("; "))
    }
}

/// Checks the givens for clashes (two equal digits in a row, column or box).
pub fn check_givens(puzzle: &Grid) -> Result<(), Clash> {
    let pairs = puzzle.clashes();
    if pairs.is_empty() {
        return Ok(());
    }
    Err(Clash::new(&puzzle.0, pairs, 9))
}

/// Solves a classic 9x9 puzzle with the fast path, counting solutions up to
/// `limit` (at least 1). Clashing givens are reported without searching.
pub fn solve(puzzle: &Grid, limit: usize) -> Result<Outcome, Clash> {
    check_givens(puzzle)?;
    let mut first = Grid::default();
    // The solver keeps its search state on the stack and costs nothing to
    // create, so each call gets its own (and callbacks may solve again).
    let count = propagate::Solver::new().count(puzzle, limit.max(1), &mut first);
    Ok(match count {
        0 => Outcome::NoSolution,
        1 => Outcome::Unique(first),
        count => Outcome::Multiple { count, first },
    })
}

/// Calls `each` for every solution of a classic puzzle, up to `limit`;
/// returns how many there were. Clashing givens are reported without searching.
pub fn for_each_solution(
    puzzle: &Grid,
    limit: usize,
    each: &mut dyn FnMut(&Grid),
) -> Result<usize, Clash> {
    check_givens(puzzle)?;
    Ok(propagate::Solver::new().for_each_solution(puzzle, limit.max(1), each))
}
