//! The one JSON schema: what `--json` prints, one object per grid (or per
//! input when no grid is found), as `#[derive(Serialize)]` types. The text
//! output is made from the same values.

use serde::{Deserialize, Serialize};

use snap_solver::logic::{self, Placement, Step};
use snap_vision::Timings;

/// What became of one grid or input (DESIGN.md's `status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Exactly one solution, read with confidence.
    Solved,
    /// An answer (or none) that rests on cells the reader is unsure of:
    /// `check` names them and `set` the `--set` that would settle each.
    Unsure,
    /// A grid cut by the frame, a fold or a finger: reported, never solved.
    Partial,
    /// A printed answer grid (every cell printed): checked, not solved.
    Complete,
    /// No solution (including givens that clash).
    NoSolution,
    /// More than one solution.
    MultipleSolutions,
    /// A photo in which no Sudoku grid was found.
    NoGrid,
    /// `--method logic`: human techniques could not finish the puzzle
    /// (search would have to guess).
    Stuck,
    /// The input could not be read, or its output not written.
    Error,
}

impl Status {
    /// The name used in JSON output and messages (`no_solution`).
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::Unsure => "unsure",
            Status::Partial => "partial",
            Status::Complete => "complete",
            Status::NoSolution => "no_solution",
            Status::MultipleSolutions => "multiple_solutions",
            Status::NoGrid => "no_grid",
            Status::Stuck => "stuck",
            Status::Error => "error",
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
    /// `solve --explain` / `--method logic`: how logic went.
    #[serde(flatten)]
    pub logic: Option<LogicFields>,
    /// Time per stage in milliseconds, and `total`.
    pub ms: Timings,
}

/// The fields only a photo or page has.
#[derive(Debug, Clone, Serialize, Default)]
pub struct PhotoFields {
    /// The PDF page (1-based); null for a photo.
    pub page: Option<usize>,
    /// The grid's number on its page or photo (1-based, reading order);
    /// null when no grid was found.
    pub grid: Option<usize>,
    /// The render resolution of a PDF page, so that `quad * 72 / dpi` is in
    /// PDF points (origin top-left); null for a photo.
    pub dpi: Option<f32>,
    /// A person's pen entries (never clues), each with whether it is right
    /// (`--check`; null without it).
    pub entries: Vec<EntryReport>,
    /// Cells to check when the status is `unsure` (with `--check`: the
    /// wrong entries, the entries read in doubt and the cells that may
    /// hold a faint entry).
    pub check: Vec<String>,
    /// The `--set` arguments that would settle an unsure reading.
    pub set: Vec<String>,
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

/// A pen entry: `{"cell": "r2c5", "digit": 7, "correct": false}`.
#[derive(Debug, Clone, Serialize)]
pub struct EntryReport {
    /// `r2c5`.
    pub cell: String,
    /// The digit written.
    pub digit: u8,
    /// Whether it matches the solution (`--check` only): `false` only when
    /// the reading is sure it does not; `null` for an entry read in doubt
    /// (it is in `check`).
    pub correct: Option<bool>,
    /// The classifier's probability that the cell holds a pen digit other
    /// than the solution's (`--check` only): from `WRONG_SURE` on, the
    /// entry is called wrong.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p_wrong: Option<f32>,
}

/// The fields of a logic solve (`solve --explain`, `--method logic`).
#[derive(Debug, Clone, Serialize)]
pub struct LogicFields {
    /// `solved` (logic alone filled the grid), `stuck` (no technique
    /// applies: search took over, or with `--method logic` the puzzle is
    /// reported not solved), `contradiction` (the puzzle has no solution).
    pub logic: &'static str,
    /// The steps in order (`--explain` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<Vec<StepReport>>,
}

/// One logic step as data.
#[derive(Debug, Clone, Serialize)]
pub struct StepReport {
    /// Stable snake_case name: `hidden_single`, `x_wing`, ...
    pub technique: &'static str,
    /// Digits placed.
    pub placements: Vec<CellDigit>,
    /// Candidates removed.
    pub eliminations: Vec<CellDigit>,
    /// The step in plain words.
    pub reason: String,
}

impl StepReport {
    /// A logic step as data.
    pub fn of(step: &Step) -> StepReport {
        let cells = |list: &[Placement]| {
            list.iter()
                .map(|p| CellDigit {
                    cell: logic::cell_name(p.cell),
                    digit: p.digit,
                })
                .collect()
        };
        StepReport {
            technique: step.technique.name(),
            placements: cells(&step.placements),
            eliminations: cells(&step.eliminations),
            reason: step.describe(),
        }
    }
}

/// A digit in a named cell: `{"cell": "r4c7", "digit": 3}`.
#[derive(Debug, Clone, Serialize)]
pub struct CellDigit {
    /// `r4c7`.
    pub cell: String,
    /// 1-9.
    pub digit: u8,
}

/// `grade --json`: one puzzle's difficulty.
#[derive(Debug, Clone, Serialize)]
pub struct GradeReport {
    /// The input as named on the command line (`-` for standard input).
    pub path: String,
    /// The 1-based line where the puzzle starts.
    pub line: usize,
    /// The puzzle, `.` for empty.
    pub givens: Option<String>,
    /// `easy`, `medium`, `hard`, `expert` or `extreme`; null when the
    /// puzzle cannot be graded.
    pub level: Option<&'static str>,
    /// The numeric rating (1.0 .. about 10.2).
    pub rating: Option<f32>,
    /// The hardest technique the logic path needed.
    pub hardest: Option<&'static str>,
    /// Steps in the logic path.
    pub steps: Option<usize>,
    /// True when logic alone solved it (false: search must guess).
    pub complete: Option<bool>,
    /// Why it cannot be graded (not 9x9, no or several solutions, unreadable).
    pub error: Option<String>,
}

/// `generate --json`: one new puzzle.
#[derive(Debug, Clone, Serialize)]
pub struct GeneratedReport {
    /// 1-based number in this run.
    pub number: usize,
    /// `9x9`, `16x16`, `samurai`.
    pub shape: String,
    /// The puzzle, `.` for empty.
    pub givens: String,
    /// Its only solution.
    pub solution: String,
    /// Clues in the puzzle.
    pub clues: usize,
    /// No clue (orbit, with --symmetry) can be removed without losing uniqueness.
    pub minimal: bool,
    /// The grade (9x9 only).
    pub level: Option<&'static str>,
    /// The rating (9x9 only).
    pub rating: Option<f32>,
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
            logic: None,
            ms: Timings::default(),
        }
    }

    /// The JSON line, newline included.
    pub fn to_json_line(&self) -> String {
        json_line(self)
    }
}

/// Any report as one JSON line, newline included.
pub fn json_line<T: Serialize>(value: &T) -> String {
    // Plain data with string keys: serialising cannot fail.
    let mut line = serde_json::to_string(value).unwrap_or_default();
    line.push('\n');
    line
}

/// Rounds for JSON: four decimals are plenty for a probability.
pub fn round4(value: f32) -> f32 {
    (value * 1e4).round() / 1e4
}

/// `hint --json`: the next step for one grid of a photo, or one text puzzle.
/// Fields that do not apply are `null` or empty, never missing (but `line`
/// is only in text puzzles' lines and `grid` only in photos').
#[derive(Debug, Clone, Serialize)]
pub struct HintReport {
    /// The input as named on the command line (`-` for standard input).
    pub path: String,
    /// Text puzzles: the 1-based line where the puzzle starts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    /// Photos: the grid's number (1-based, reading order).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub grid: Option<usize>,
    /// What became of the puzzle, as the main job reports it (`solved`:
    /// read with confidence and one solution, so a hint could be given).
    pub status: Status,
    /// The position the hint is for (givens and correct pen entries),
    /// `.` for empty.
    pub position: Option<String>,
    /// The hint in words, as printed; null when none could be given.
    pub hint: Option<String>,
    /// The step (as in `solve --explain --json`); technique `solution` when
    /// no technique applies and the digit is taken from the solution.
    /// Null when the hint is not a step (wrong entries, a complete grid).
    pub step: Option<StepReport>,
    /// Pen entries that disagree with the solution: erase these first.
    pub wrong: Vec<CellDigit>,
    /// Cells to check when the reading is unsure.
    pub check: Vec<String>,
    /// The `--set` arguments that would settle an unsure reading.
    pub set: Vec<String>,
    /// Why no hint could be given.
    pub error: Option<String>,
    /// Where the hint image was written (null for text puzzles, and when
    /// none was written).
    pub output: Option<String>,
}
