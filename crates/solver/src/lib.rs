//! A Sudoku solver for every common shape: the classic 9x9, NxN squares
//! (4x4, 6x6, 16x16, 25x25, ...) and the Samurai (five overlapping 9x9
//! grids), with their text forms and a streaming reader of puzzle files.
//!
//! One model serves every shape: a [`Board`] is the cells of a [`Shape`]'s
//! layout. [`solve()`] counts solutions up to a limit and picks the engine:
//! a bitset fast path for 9x9 (band bitboards, then guessing), a
//! candidate solver with all-different propagation for 16x16 to 24x24, the
//! CaDiCaL SAT solver for 25x25 and up (with the default `sat` feature;
//! without it they go to the candidate solver), and Dancing Links for the
//! rest.
//! [`logic`] solves 9x9 puzzles step by step as a person would, [`grade`]
//! rates them and [`generate`] makes new ones.
//!
//! ```
//! use snap_solver::{solve, Board, Outcome, Shape};
//!
//! let puzzle = Board::parse(
//!     "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
//!     Shape::classic(),
//! )?;
//! match solve(&puzzle, 2)? {
//!     Outcome::Unique(solution) => assert!(solution.is_solution_of(&puzzle)),
//!     other => panic!("expected one solution, found {}", other.count()),
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod bench;
mod board;
mod candidates;
mod dlx;
pub mod files;
pub mod generate;
pub mod grade;
pub mod logic;
pub mod overrides;
mod propagate;
mod reader;
#[cfg(feature = "sat")]
mod sat;
mod shape;
mod solve;
#[cfg(test)]
mod testdata;

pub use board::{Board, ParseError};
pub use reader::{Entry, PuzzleReader, SicilyReader, MAX_LINE_BYTES};
pub use shape::{digit_char, symbol_value, Shape, MAX_DIGITS, SAMURAI_GRIDS};
pub use solve::{for_each_solution, solve, solve_dlx, solve_within, Clash, Outcome, DEFAULT_LIMIT};

/// The classic 9x9 fast path on plain cell arrays, for callers that solve
/// millions of puzzles and want no allocation per puzzle (benchmarks).
pub mod classic {
    pub use crate::propagate::{count, for_each_solution, Cells};
}
