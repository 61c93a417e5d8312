//! The one JSON schema: what `--json` prints, one object per grid (or per
//! input when no grid is found), as `#[derive(Serialize)]` types. The text
//! output is made from the same values.

use serde::Serialize;

use snap_vision::pipeline::Timings;

use crate::exit_codes::ExitCode;

/// What became of one grid or input (DESIGN.md's `status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Exactly one solution.
    Solved,
    /// No solution (including givens that clash).
    NoSolution,
    /// More than one solution.
    MultipleSolutions,
    /// A photo in which no Sudoku grid was found.
    NoGrid,
    /// The input could not be read, or its output not written.
    Error,
}

impl Status {
    /// The name used in JSON output and messages (`no_solution`).
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

/// One JSON line: a grid's result, a text puzzle's, or an input's failure.
/// Fields that do not apply are `null` (never missing), so every line has
/// the same keys for its kind of input; photo-only fields are left out of
/// text-puzzle lines and the reverse.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The input as named on the command line (`-` for standard input).
    pub path: String,
    /// Text puzzles: the 1-based line where the puzzle starts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// The shape's name (`9x9`, `16x16`, `samurai`), or null when nothing was read.
    pub shape: Option<String>,
    /// What became of it.
    pub status: Status,
    /// The puzzle solved, in its shape's text form (`.` for empty).
    pub givens: Option<String>,
    /// The solution when there is exactly one.
    pub solution: Option<String>,
    /// Solutions found, up to the limit.
    pub solutions: usize,
    /// How sure the reader is of the givens (1 for text puzzles).
    pub confidence: Option<f32>,
    /// Why it was not solved, or the error.
    pub error: Option<String>,
    /// Photo fields, flattened into the same object.
    #[serde(flatten)]
    pub photo: Option<PhotoFields>,
    /// Time per stage in milliseconds, and `total`.
    pub ms: Timings,
}

/// The fields only a photo has.
#[derive(Debug, Clone, Serialize, Default)]
pub struct PhotoFields {
    /// The most probable reading before any repair (overrides applied).
    pub read: Option<String>,
    /// Corrections the repair made: `r3c4 9 -> 4 (p=0.40)`.
    pub repairs: Vec<String>,
    /// Cells whose reading is unsure (`read` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unsure: Option<Vec<String>>,
    /// Degrees the grid was turned to read upright.
    pub rotation: Option<u32>,
    /// Orientations the classifier tried before choosing (`read` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub orientations_tried: Option<u8>,
    /// The grid's corners in the pixels of the image read: tl, tr, br, bl.
    pub quad: Option<[(f32, f32); 4]>,
    /// Where the answer image was written.
    pub output: Option<String>,
}

impl Report {
    /// A line for an input that gave no grid to report on.
    pub fn failure(path: &str, status: Status, message: String, photo: bool) -> Report {
        Report {
            path: path.to_string(),
            line: None,
            shape: None,
            status,
            givens: None,
            solution: None,
            solutions: 0,
            confidence: None,
            error: Some(message),
            photo: photo.then(PhotoFields::default),
            ms: Timings::default(),
        }
    }

    /// The JSON line, newline included.
    pub fn to_json_line(&self) -> String {
        // Serialising plain data with string keys cannot fail.
        let mut line = serde_json::to_string(self).unwrap_or_default();
        line.push('\n');
        line
    }
}

/// Rounds for JSON: four decimals are plenty for a probability.
pub fn round4(value: f32) -> f32 {
    (value * 1e4).round() / 1e4
}
