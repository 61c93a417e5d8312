//! The status of one input, as named in the `--json` contract of DESIGN.md.

use crate::exit_codes::ExitCode;

/// What became of one input (a text puzzle or a photo).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Exactly one solution.
    Solved,
    /// No solution (including givens that clash).
    NoSolution,
    /// More than one solution.
    MultipleSolutions,
    /// A photo in which no Sudoku grid was found.
    NoGrid,
    /// The input could not be read.
    Error,
}

impl Status {
    /// The name used in JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::NoSolution => "no_solution",
            Status::MultipleSolutions => "multiple_solutions",
            Status::NoGrid => "no_grid",
            Status::Error => "error",
        }
    }

    /// The exit code this status asks for (DESIGN.md: 0 solved, 1 not solved, 2 unreadable).
    pub fn exit_code(self) -> ExitCode {
        match self {
            Status::Solved => ExitCode::Success,
            Status::NoSolution | Status::MultipleSolutions | Status::NoGrid => ExitCode::NotSolved,
            Status::Error => ExitCode::Error,
        }
    }

    /// The status of a solve that found `count` solutions.
    pub fn from_count(count: usize) -> Status {
        match count {
            0 => Status::NoSolution,
            1 => Status::Solved,
            _ => Status::MultipleSolutions,
        }
    }
}
