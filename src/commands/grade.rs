//! `sudoku-snap grade [FILE]`: how hard each 9x9 puzzle is for a person,
//! from the hardest technique the logic engine needs and how often
//! (`snap_solver::grade`). One line per puzzle: `LEVEL RATING PUZZLE`.

use std::io::{BufRead, Write};

use snap_solver::grade::grade;
use snap_solver::PuzzleReader;

use crate::cli::GradeArgs;
use crate::exit_codes::ExitCode;
use snap_answer::report::{json_line, GradeReport};

/// Grades every puzzle of `input`; a puzzle that cannot be graded (not 9x9,
/// no or several solutions) prints `ungraded: reason` and makes the exit
/// code 1, an unreadable one `invalid: ...` and 2, and the rest go on.
pub fn run(
    args: &GradeArgs,
    input: impl BufRead,
    out: &mut dyn Write,
) -> std::io::Result<ExitCode> {
    let path = super::input_name(args.input.as_deref());
    let mut code = ExitCode::Success;
    for entry in PuzzleReader::new(input, None) {
        let entry = entry?;
        let mut report = GradeReport {
            path: path.clone(),
            line: entry.line,
            givens: None,
            level: None,
            rating: None,
            hardest: None,
            steps: None,
            complete: None,
            error: None,
        };
        let text = match &entry.puzzle {
            Err(e) => {
                code = code.merge(ExitCode::Error);
                report.error = Some(e.to_string());
                format!("invalid: {e}\n")
            }
            Ok(board) => {
                report.givens = Some(board.to_line());
                match grade(board) {
                    Ok(g) => {
                        report.level = Some(g.level.name());
                        report.rating = Some((g.rating * 100.0).round() / 100.0);
                        report.hardest = Some(g.hardest.name());
                        report.steps = Some(g.steps);
                        report.complete = Some(g.complete);
                        format!("{} {:.2} {}\n", g.level.name(), g.rating, board.to_line())
                    }
                    Err(e) => {
                        code = code.merge(ExitCode::NotSolved);
                        report.error = Some(e.to_string());
                        format!("ungraded: {e}: {}\n", board.to_line())
                    }
                }
            }
        };
        if args.json {
            out.write_all(json_line(&report).as_bytes())?;
        } else {
            out.write_all(text.as_bytes())?;
        }
    }
    out.flush()?;
    Ok(code)
}
