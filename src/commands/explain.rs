//! `solve --explain` and `solve --method logic`: text puzzles solved the way
//! a person would, one named technique at a time (the logic engine of
//! `snap_solver::logic`), with search taking over where logic runs out.

use std::io::{BufRead, Write};
use std::time::Instant;

use snap_solver::logic::{self, End, Explanation};
use snap_solver::{solve, Board, Outcome, ParseError, PuzzleReader, DEFAULT_LIMIT};
use snap_vision::Timings;

use crate::cli::{Method, SolveArgs};
use crate::exit_codes::ExitCode;
use snap_answer::report::{LogicFields, Report, Status, StepReport};

/// What one puzzle gave: printed text and JSON line, and its status.
struct Answer {
    status: Status,
    text: String,
    json: Report,
}

/// Runs `solve --explain` or `solve --method logic` over `input`.
pub fn run(
    args: &SolveArgs,
    input: impl BufRead,
    out: &mut dyn Write,
) -> std::io::Result<ExitCode> {
    let path = super::input_name(args.input.as_deref());
    let mut code = ExitCode::Success;
    for entry in PuzzleReader::new(input, args.shape) {
        let entry = entry?;
        let answer = match &entry.puzzle {
            Ok(board) => answer(board, entry.line, &path, args),
            Err(e) => invalid(e, entry.line, &path),
        };
        code = code.merge(ExitCode::from(answer.status));
        if args.json {
            out.write_all(answer.json.to_json_line().as_bytes())?;
        } else {
            out.write_all(answer.text.as_bytes())?;
        }
    }
    out.flush()?;
    Ok(code)
}

/// An unreadable puzzle: the same words as `solve`.
fn invalid(e: &ParseError, line: usize, path: &str) -> Answer {
    let mut json = Report::failure(path, Status::Error, e.to_string(), false);
    json.line = Some(line);
    Answer {
        status: Status::Error,
        text: format!("invalid: {e}\n"),
        json,
    }
}

/// Explains (or solves by logic) one puzzle.
fn answer(board: &Board, line: usize, path: &str, args: &SolveArgs) -> Answer {
    let start = Instant::now();
    let mut json = Report {
        path: path.to_string(),
        line: Some(line),
        shape: Some(board.shape.name()),
        status: Status::NoSolution,
        givens: Some(board.to_line()),
        solution: None,
        solutions: 0,
        confidence: Some(1.0),
        error: None,
        photo: None,
        logic: None,
        ms: Timings::default(),
    };
    let mut text = format!("line {line}: {}\n", board.to_line());
    // Search first: it says whether the puzzle has one solution, which is
    // what allows uniqueness techniques, and it is the fallback.
    let outcome = match solve(board, DEFAULT_LIMIT) {
        Ok(outcome) => outcome,
        Err(clash) => {
            json.error = Some(clash.to_string());
            text.push_str(&format!("  no solution ({clash})\n"));
            json.ms = Timings(vec![("solve", ms_since(start))]);
            return Answer {
                status: Status::NoSolution,
                text,
                json,
            };
        }
    };
    json.solutions = outcome.count();
    let options = logic::Options {
        unique: outcome.count() == 1,
    };
    let explanation = match logic::explain(board, &options) {
        Ok(explanation) => explanation,
        Err(e) => {
            // Not a 9x9: logic cannot help; search answers (or, for
            // --method logic, nothing does).
            text.push_str(&format!("  {e}\n"));
            return finish_by_search(&outcome, text, json, args, &e.to_string(), start);
        }
    };
    if args.explain {
        for (n, step) in explanation.steps.iter().enumerate() {
            text.push_str(&format!("  {:>3}. {}\n", n + 1, step.describe()));
        }
    }
    let steps = args
        .explain
        .then(|| explanation.steps.iter().map(StepReport::of).collect());
    let (logic_end, summary) = summary(&explanation);
    json.logic = Some(LogicFields {
        logic: logic_end,
        steps,
    });
    text.push_str(&format!("  {summary}\n"));
    match &explanation.end {
        End::Solved(solution) => {
            json.status = Status::Solved;
            json.solution = Some(solution.to_line());
            text.push_str(&format!("  {}\n", solution.to_line()));
            json.ms = Timings(vec![("logic", ms_since(start))]);
            Answer {
                status: Status::Solved,
                text,
                json,
            }
        }
        End::Contradiction(_, conflict) => {
            json.error = Some(conflict.describe());
            json.ms = Timings(vec![("logic", ms_since(start))]);
            Answer {
                status: Status::NoSolution,
                text,
                json,
            }
        }
        End::Stuck(_) => finish_by_search(&outcome, text, json, args, &summary, start),
    }
}

/// Where logic ends: search answers with `--method search`; with `--method
/// logic` the puzzle is reported as stuck.
fn finish_by_search(
    outcome: &Outcome,
    mut text: String,
    mut json: Report,
    args: &SolveArgs,
    why: &str,
    start: Instant,
) -> Answer {
    json.ms = Timings(vec![("logic", ms_since(start))]);
    let status = match args.method {
        Method::Logic => {
            json.error = Some(why.to_string());
            Status::Stuck
        }
        Method::Search => {
            let status = Status::from_count(outcome.count());
            match outcome {
                Outcome::Unique(solution) => {
                    json.solution = Some(solution.to_line());
                    text.push_str(&format!("  search took over: {}\n", solution.to_line()));
                }
                Outcome::NoSolution => text.push_str("  search took over: no solution\n"),
                Outcome::Multiple { count, .. } => text.push_str(&format!(
                    "  search took over: multiple solutions ({count})\n"
                )),
            }
            status
        }
    };
    json.status = status;
    Answer { status, text, json }
}

/// The logic field's value and a sentence on how logic ended.
fn summary(explanation: &Explanation) -> (&'static str, String) {
    let n = explanation.steps.len();
    let hardest = explanation
        .steps
        .iter()
        .map(|s| s.technique)
        .max()
        .map_or_else(String::new, |t| format!(" (hardest: {})", t.label()));
    match &explanation.end {
        End::Solved(_) => ("solved", format!("solved by logic in {n} steps{hardest}")),
        End::Stuck(grid) => {
            let empty = (0..81).filter(|&c| grid.value(c) == 0).count();
            (
                "stuck",
                format!(
                    "logic ran out after {n} steps{hardest} with {empty} cells empty at {}",
                    grid.to_board().to_line()
                ),
            )
        }
        End::Contradiction(_, conflict) => (
            "contradiction",
            format!("no solution: after {n} steps {}", conflict.describe()),
        ),
    }
}

fn ms_since(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1000.0
}
