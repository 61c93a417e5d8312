//! `sudoku-snap solve`: text puzzles in, one answer per puzzle out.
//!
//! Puzzles stream through in chunks: each chunk is solved (in parallel with
//! `--jobs N`) and its answers are written in input order before the next
//! chunk is read, so memory stays constant however long the input is (lines
//! are bounded by [`MAX_LINE_BYTES`](snap_solver::MAX_LINE_BYTES)). `--all`
//! goes one puzzle at a time and prints each solution as it is found, and
//! `--format sicily` answers each puzzle as soon as it is read.
//!
//! Bad input never stops the run: a line that is not a puzzle, not UTF-8 or
//! too long prints `invalid: line N...` in its place and the rest is solved;
//! the exit code is then 2. Only a failure to read the input at all (an I/O
//! error) ends it, after the answers to everything read before it.

use std::io::{BufRead, IsTerminal, Write};
use std::time::Instant;

use rayon::prelude::*;
use snap_solver::{
    digit_char, for_each_solution, solve, Board, Clash, Entry, Outcome, ParseError, PuzzleReader,
    Shape, SicilyReader, DEFAULT_LIMIT,
};
use snap_vision::Timings;

use crate::cli::{Format, SolveArgs};
use crate::exit_codes::ExitCode;
use snap_answer::report::{Report, Status};

/// Puzzles solved between two writes: large enough to keep every thread
/// busy, small enough that memory stays constant on huge inputs.
const CHUNK: usize = 4096;

/// Cells of the puzzles solved between two writes, at most: a chunk of
/// large puzzles ends sooner, so that what a chunk holds (its puzzles and
/// their answers, each a few times its cells) stays near 10 MB whatever
/// their shape: 4096 9x9 puzzles are 330,000 cells, 4096 25x25 ones
/// would be 2.6 million.
const CHUNK_CELLS: usize = 1 << 20;

/// Limit used by the Sicily format: its judge promises fewer than 10,000
/// solutions per puzzle and wants the exact count.
const SICILY_LIMIT: usize = 10_000;

/// What to print for each puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// The solution line, or a status.
    Solution,
    /// The number of solutions, then the puzzle.
    Count,
    /// Every solution up to the limit.
    All,
    /// One JSON object.
    Json,
}

/// Settings of one `solve` run, resolved from the command line.
#[derive(Debug, Clone)]
pub struct Options {
    /// What to print.
    pub mode: Mode,
    /// Count solutions up to this many.
    pub limit: usize,
    /// Fixed shape, or `None` to detect it per puzzle.
    pub shape: Option<Shape>,
    /// Name of the input for JSON `path` (`-` for standard input).
    pub path: String,
    /// Solutions shown as grids, for people (a terminal): each puzzle's
    /// line number and status, then its solution's rows.
    pub grid: bool,
}

impl Options {
    /// Resolves `solve`'s arguments.
    pub fn from_args(args: &SolveArgs) -> Options {
        let mode = match (args.json, args.count, args.all) {
            (true, _, _) => Mode::Json,
            (_, true, _) => Mode::Count,
            (_, _, true) => Mode::All,
            _ => Mode::Solution,
        };
        let path = super::input_name(args.input.as_deref());
        let limit = args.limit.map_or(DEFAULT_LIMIT, |n| n as usize);
        // One line per puzzle is the contract for scripts (tests,
        // benchmarks, fuzzing): kept whenever the output is not a terminal.
        let grid = mode == Mode::Solution && !args.line && std::io::stdout().is_terminal();
        Options {
            mode,
            limit,
            shape: args.shape,
            path,
            grid,
        }
    }
}

/// Solves every puzzle of `input`, writing one answer per puzzle to `out`.
/// Returns the merged exit code of all puzzles.
pub fn run(
    input: impl BufRead,
    out: &mut dyn Write,
    opts: &Options,
    jobs: usize,
) -> std::io::Result<ExitCode> {
    let mut reader = PuzzleReader::new(input, opts.shape);
    if opts.mode == Mode::All {
        return run_all(&mut reader, out, opts);
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
        .map_err(std::io::Error::other)?;
    let mut code = ExitCode::Success;
    let mut chunk: Vec<Entry> = Vec::with_capacity(CHUNK);
    loop {
        chunk.clear();
        let mut read_error = None;
        let mut cells = 0;
        while chunk.len() < CHUNK && cells < CHUNK_CELLS {
            match reader.next() {
                None => break,
                Some(Ok(e)) => {
                    cells += e.puzzle.as_ref().map_or(1, |p| p.cells.len());
                    chunk.push(e);
                }
                Some(Err(e)) => {
                    read_error = Some(e);
                    break;
                }
            }
        }
        if chunk.is_empty() && read_error.is_none() {
            break;
        }
        let answers: Vec<(String, ExitCode)> = if jobs > 1 {
            pool.install(|| chunk.par_iter().map(|e| answer(e, opts)).collect())
        } else {
            chunk.iter().map(|e| answer(e, opts)).collect()
        };
        for (text, c) in answers {
            out.write_all(text.as_bytes())?;
            code = code.merge(c);
        }
        // What was read before the failure is answered first.
        if let Some(e) = read_error {
            out.flush()?;
            return Err(e);
        }
    }
    out.flush()?;
    Ok(code)
}

/// `--all`: one puzzle at a time, each solution written as soon as it is
/// found (never kept), a blank line between puzzles. `--jobs` does not
/// apply: the order of solutions is the search's.
fn run_all<R: BufRead>(
    reader: &mut PuzzleReader<R>,
    out: &mut dyn Write,
    opts: &Options,
) -> std::io::Result<ExitCode> {
    let mut code = ExitCode::Success;
    let mut first = true;
    for entry in reader {
        let entry = entry?;
        if !first {
            out.write_all(b"\n")?;
        }
        first = false;
        let puzzle = match &entry.puzzle {
            Ok(p) => p,
            Err(e) => {
                out.write_all(format_error(e, entry.line, opts).as_bytes())?;
                code = code.merge(ExitCode::from(Status::Error));
                continue;
            }
        };
        // The search cannot be stopped from inside; after a failed write
        // it runs on to the limit without writing, and the error is returned.
        let mut write_error = None;
        let found = for_each_solution(puzzle, opts.limit, &mut |b| {
            if write_error.is_none() {
                let mut line = b.to_line();
                line.push('\n');
                write_error = out.write_all(line.as_bytes()).err();
            }
        });
        if let Some(e) = write_error {
            return Err(e);
        }
        let status = match found {
            Err(clash) => {
                writeln!(out, "no solution ({clash})")?;
                Status::NoSolution
            }
            Ok(0) => {
                writeln!(out, "no solution")?;
                Status::NoSolution
            }
            Ok(n) => Status::from_count(n),
        };
        code = code.merge(ExitCode::from(status));
    }
    out.flush()?;
    Ok(code)
}

/// A solved puzzle in printable form: the count and the first solution.
struct Solved {
    count: usize,
    solution: Option<String>,
}

/// Solves one puzzle, counting up to `limit` solutions.
fn solve_puzzle(puzzle: &Board, limit: usize) -> Result<Solved, Clash> {
    let outcome = solve(puzzle, limit)?;
    Ok(Solved {
        count: outcome.count(),
        solution: outcome.first().map(Board::to_line),
    })
}

/// The printed answer for one entry, and its exit code.
fn answer(entry: &Entry, opts: &Options) -> (String, ExitCode) {
    let start = Instant::now();
    let result = entry
        .puzzle
        .as_ref()
        .map(|p| (p, solve_puzzle(p, opts.limit)));
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let (status, text) = match &result {
        Err(e) => (Status::Error, format_error(e, entry.line, opts)),
        Ok((p, Err(clash))) => (Status::NoSolution, format_clash(p, clash, entry.line, opts)),
        Ok((p, Ok(s))) => (
            Status::from_count(s.count),
            format_solved(p, s, entry.line, opts, ms),
        ),
    };
    (text, ExitCode::from(status))
}

fn format_error(e: &ParseError, line: usize, opts: &Options) -> String {
    match opts.mode {
        Mode::Json => {
            let mut report = Report::failure(&opts.path, Status::Error, e.to_string(), false);
            report.line = Some(line);
            report.to_json_line()
        }
        _ if opts.grid => format!("invalid: {e}\n\n"),
        _ => format!("invalid: {e}\n"),
    }
}

/// The JSON line of a puzzle that was solved (or found to clash).
fn puzzle_report(
    puzzle: &Board,
    line: usize,
    opts: &Options,
    s: Option<&Solved>,
    error: Option<String>,
    ms: f64,
) -> Report {
    let count = s.map_or(0, |s| s.count);
    Report {
        path: opts.path.clone(),
        line: Some(line),
        shape: Some(puzzle.shape.name()),
        status: Status::from_count(count),
        givens: Some(puzzle.to_line()),
        solution: s.filter(|s| s.count == 1).and_then(|s| s.solution.clone()),
        solutions: count,
        confidence: Some(1.0),
        error,
        photo: None,
        logic: None,
        ms: Timings(vec![("solve", ms)]),
    }
}

fn format_clash(puzzle: &Board, clash: &Clash, line: usize, opts: &Options) -> String {
    match opts.mode {
        Mode::Json => {
            puzzle_report(puzzle, line, opts, None, Some(clash.to_string()), 0.0).to_json_line()
        }
        Mode::Count => format!("0 {}\n", puzzle.to_line()),
        _ if opts.grid => format!("{}no solution ({clash})\n\n", grid_header(line, opts)),
        _ => format!("no solution ({clash})\n"),
    }
}

fn format_solved(puzzle: &Board, s: &Solved, line: usize, opts: &Options, ms: f64) -> String {
    match opts.mode {
        Mode::Json => puzzle_report(puzzle, line, opts, Some(s), None, ms).to_json_line(),
        Mode::Count => format!("{} {}\n", s.count, puzzle.to_line()),
        Mode::Solution if opts.grid => {
            let header = grid_header(line, opts);
            match (s.count, &s.solution) {
                (1, Some(sol)) => {
                    let pretty = Board::parse(sol, puzzle.shape)
                        .map_or_else(|_| format!("{sol}\n"), |b| b.to_pretty());
                    format!("{header}solved\n{pretty}\n")
                }
                (0, _) | (_, None) => format!("{header}no solution\n\n"),
                (n, _) => format!("{header}multiple solutions ({n})\n\n"),
            }
        }
        Mode::Solution | Mode::All => match (s.count, &s.solution) {
            (1, Some(sol)) => format!("{sol}\n"),
            (0, _) | (_, None) => "no solution\n".to_string(),
            (n, _) => format!("multiple solutions ({n})\n"),
        },
    }
}

/// `line 3: `, which puzzle of the input a grid answers (nothing for a
/// puzzle given as the argument, the only one).
fn grid_header(line: usize, opts: &Options) -> String {
    if opts.path == "argument" {
        String::new()
    } else {
        format!("line {line}: ")
    }
}

/// `--format sicily`: a count line, then 9 lines of 9 per puzzle (`_` for
/// empty), answered in the judge's exact words, each puzzle as soon as it
/// is read. A puzzle that cannot be read is answered `Puzzle N is invalid:
/// line L, column C: reason` (exit code 2) and the others are still solved.
pub fn run_sicily(input: impl BufRead, out: &mut dyn Write) -> std::io::Result<ExitCode> {
    let mut code = ExitCode::Success;
    let mut number = 0;
    for entry in SicilyReader::new(input) {
        let entry = entry?;
        let grid = match entry.puzzle {
            Ok(grid) => grid,
            // The header and a missing tail are about the input, not a puzzle.
            Err(e) if entry.line == 0 => {
                writeln!(out, "invalid: {e}")?;
                code = code.merge(ExitCode::from(Status::Error));
                continue;
            }
            Err(e) => {
                number += 1;
                if number > 1 {
                    out.write_all(b"\n")?;
                }
                writeln!(out, "Puzzle {number} is invalid: {e}")?;
                code = code.merge(ExitCode::from(Status::Error));
                continue;
            }
        };
        number += 1;
        if number > 1 {
            out.write_all(b"\n")?;
        }
        let outcome = solve(&grid, SICILY_LIMIT).unwrap_or(Outcome::NoSolution);
        match &outcome {
            Outcome::NoSolution => writeln!(out, "Puzzle {number} has no solution")?,
            Outcome::Unique(g) => {
                writeln!(out, "Puzzle {number} solution is")?;
                for r in 0..9 {
                    let row: String = g.cells[r * 9..r * 9 + 9]
                        .iter()
                        .map(|&d| digit_char(d))
                        .collect();
                    writeln!(out, "{row}")?;
                }
            }
            Outcome::Multiple { count, .. } => {
                writeln!(out, "Puzzle {number} has {count} solutions")?
            }
        }
        code = code.merge(ExitCode::from(Status::from_count(outcome.count())));
    }
    out.flush()?;
    Ok(code)
}

/// Runs `solve` as the command line asked: the chosen format over the input.
pub fn run_args(
    args: &SolveArgs,
    input: impl BufRead,
    out: &mut dyn Write,
) -> std::io::Result<ExitCode> {
    let opts = Options::from_args(args);
    match args.format {
        Format::Sicily => run_sicily(input, out),
        Format::Lines => run(input, out, &opts, args.jobs),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const UNIQUE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    fn opts(mode: Mode, limit: usize) -> Options {
        Options {
            mode,
            limit,
            shape: None,
            path: "-".into(),
            grid: false,
        }
    }

    fn run_text(input: &str, opts: &Options, jobs: usize) -> (String, ExitCode) {
        let mut out = Vec::new();
        let code = run(input.as_bytes(), &mut out, opts, jobs).unwrap();
        (String::from_utf8(out).unwrap(), code)
    }

    #[test]
    fn every_outcome_kind_prints_its_status() {
        let empty = ".".repeat(81);
        let clash = format!("99{}", &UNIQUE[2..]);
        let input = format!("{UNIQUE}\n{empty}\n{clash}\n{}\n", &UNIQUE[..80]);
        let (text, code) = run_text(&input, &opts(Mode::Solution, 2), 1);
        let lines: Vec<&str> = text.lines().collect();
        let solution = Board::parse(lines[0], Shape::classic()).unwrap();
        assert!(solution.is_solution_of(&Board::parse(UNIQUE, Shape::classic()).unwrap()));
        assert_eq!(lines[1], "multiple solutions (2)");
        assert_eq!(
            lines[2],
            "no solution (givens clash: r1c1 and r1c2 are both 9)"
        );
        assert!(
            lines[3].starts_with("invalid: line 4: too short"),
            "{}",
            lines[3]
        );
        assert_eq!(code, ExitCode::Error);
    }

    #[test]
    fn count_mode_and_limit() {
        let empty = ".".repeat(81);
        let (text, code) = run_text(&format!("{empty}\n{UNIQUE}\n"), &opts(Mode::Count, 50), 1);
        assert_eq!(text, format!("50 {empty}\n1 {UNIQUE}\n"));
        assert_eq!(code, ExitCode::NotSolved);
    }

    #[test]
    fn all_mode_prints_each_solution() {
        // Remove givens from a solved grid until it has a few solutions.
        let solution = solve(&Board::parse(UNIQUE, Shape::classic()).unwrap(), 2).unwrap();
        let mut holes = solution.first().unwrap().clone();
        for i in [0, 1, 9, 10, 27, 28] {
            holes.cells[i] = 0;
        }
        let (text, _) = run_text(&format!("{}\n", holes.to_line()), &opts(Mode::All, 100), 1);
        let lines: Vec<&str> = text.lines().collect();
        assert!(!lines.is_empty());
        for l in &lines {
            assert!(Board::parse(l, Shape::classic())
                .unwrap()
                .is_solution_of(&holes));
        }
        let distinct: std::collections::HashSet<_> = lines.iter().collect();
        assert_eq!(distinct.len(), lines.len());
    }

    #[test]
    fn json_has_the_design_fields() {
        let (text, code) = run_text(&format!("{UNIQUE}\n"), &opts(Mode::Json, 2), 1);
        let v: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
        for field in [
            "path",
            "status",
            "givens",
            "solution",
            "solutions",
            "confidence",
            "error",
            "ms",
        ] {
            assert!(v.get(field).is_some(), "missing {field}: {v}");
        }
        assert_eq!(v["status"], "solved");
        assert_eq!(v["givens"], UNIQUE);
        assert_eq!(code, ExitCode::Success);
    }

    #[test]
    fn parallel_output_keeps_input_order() {
        let empty = ".".repeat(81);
        let mut input = String::new();
        for i in 0..(CHUNK + 100) {
            input.push_str(if i % 3 == 0 { &empty } else { UNIQUE });
            input.push('\n');
        }
        let serial = run_text(&input, &opts(Mode::Count, 2), 1);
        let parallel = run_text(&input, &opts(Mode::Count, 2), 3);
        assert_eq!(serial, parallel);
    }
}
