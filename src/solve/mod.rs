//! Solving: outcomes, the 9x9 fast path and the general exact-cover engine.
//!
//! [`solve`] is the entry point for classic 9x9 puzzles; it uses the bitset
//! solver in [`propagate`]. Other shapes (NxN, Samurai) go through
//! [`shapes`], which describes them as exact-cover constraints for the
//! Dancing Links engine in [`dlx`].

pub mod dlx;
pub mod propagate;
pub mod shapes;

use crate::grid::{cell_name, Grid};

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
    /// Pairs of cell indices holding the same digit in one row, column or box.
    pub pairs: Vec<(usize, usize)>,
    /// The digit of each pair.
    pub digits: Vec<u8>,
}

impl std::fmt::Display for Clash {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self
            .pairs
            .iter()
            .zip(&self.digits)
            .map(|(&(a, b), d)| format!("{} and {} are both {d}", cell_name(a), cell_name(b)))
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
    let digits = pairs.iter().map(|&(a, _)| puzzle.0[a]).collect();
    Err(Clash { pairs, digits })
}
