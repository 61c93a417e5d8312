//! `sudoku-snap solve`: text puzzles in, one answer per puzzle out.
//!
//! Puzzles stream through in chunks: each chunk is solved (in parallel with
//! `--jobs N`) and its answers are written in input order before the next
//! chunk is read, so memory stays constant however long the input is.

use std::io::{BufRead, Write};
use std::time::Instant;

use rayon::prelude::*;
use snap_solver::{
    digit_char, for_each_solution, solve, Board, Clash, Entry, Outcome, ParseError, PuzzleReader,
    Shape, DEFAULT_LIMIT,
};
use snap_vision::pipeline::Timings;

use crate::cli::{Format, SolveArgs};
use crate::exit_codes::ExitCode;
use crate::report::{Report, Status};

/// Puzzles solved between two writes: large enough to keep every thread
/// busy, small enough that memory stays constant on huge inputs.
const CHUNK: usize = 4096;

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
        let path = match &args.input {
            Some(p) if p.as_os_str() != "-" => p.display().to_string(),
            _ => "-".to_string(),
        };
        let limit = args.limit.map_or(DEFAULT_LIMIT, |n| n as usize);
        Options {
            mode,
            limit,
            shape: args.shape,
            path,
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
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
        .map_err(std::io::Error::other)?;
    let mut reader = PuzzleReader::new(input, opts.shape);
    let mut code = ExitCode::Success;
    let mut chunk: Vec<Entry> = Vec::with_capacity(CHUNK);
    let mut first_answer = true;
    loop {
        chunk.clear();
        for entry in reader.by_ref().take(CHUNK) {
            chunk.push(entry?);
        }
        if chunk.is_empty() {
            break;
        }
        let answers: Vec<(String, ExitCode)> = if jobs > 1 {
            pool.install(|| chunk.par_iter().map(|e| answer(e, opts)).collect())
        } else {
            chunk.iter().map(|e| answer(e, opts)).collect()
        };
        for (text, c) in answers {
            // `--all` prints blocks of solutions; a blank line parts them.
            if opts.mode == Mode::All && !first_answer {
                out.write_all(b"\n")?;
            }
            first_answer = false;
            out.write_all(text.as_bytes())?;
            code = code.merge(c);
        }
    }
    out.flush()?;
    Ok(code)
}

/// A solved puzzle in printable form: the count and the solutions found.
struct Solved {
    count: usize,
    solutions: Vec<String>,
}

/// Solves one puzzle, keeping up to `keep` solutions as lines.
fn solve_puzzle(puzzle: &Board, limit: usize, keep: usize) -> Result<Solved, Clash> {
    let mut solutions = Vec::new();
    let count = if keep <= 1 {
        let outcome = solve(puzzle, limit)?;
        solutions.extend(outcome.first().map(Board::to_line));
        outcome.count()
    } else {
        for_each_solution(puzzle, limit, &mut |b| {
            if solutions.len() < keep {
                solutions.push(b.to_line());
            }
        })?
    };
    Ok(Solved { count, solutions })
}

/// The printed answer for one entry, and its exit code.
fn answer(entry: &Entry, opts: &Options) -> (String, ExitCode) {
    let start = Instant::now();
    let keep = if opts.mode == Mode::All {
        opts.limit
    } else {
        1
    };
    let result = entry
        .puzzle
        .as_ref()
        .map(|p| (p, solve_puzzle(p, opts.limit, keep)));
    let ms = start.elapsed().as_secs_f64() * 1000.0;
    let (status, text) = match &result {
        Err(e) => (Status::Error, format_error(e, entry.line, opts)),
        Ok((p, Err(clash))) => (Status::NoSolution, format_clash(p, clash, entry.line, opts)),
        Ok((p, Ok(s))) => (
            Status::from_count(s.count),
            format_solved(p, s, entry.line, opts, ms),
        ),
    };
    (text, status.exit_code())
}

fn format_error(e: &ParseError, line: usize, opts: &Options) -> String {
    match opts.mode {
        Mode::Json => {
            let mut report = Report::failure(&opts.path, Status::Error, e.to_string(), false);
            report.line = Some(line);
            report.to_json_line()
        }
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
        solution: s
            .filter(|s| s.count == 1)
            .and_then(|s| s.solutions.first().cloned()),
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
        _ => format!("no solution ({clash})\n"),
    }
}

fn format_solved(puzzle: &Board, s: &Solved, line: usize, opts: &Options, ms: f64) -> String {
    match opts.mode {
        Mode::Json => puzzle_report(puzzle, line, opts, Some(s), None, ms).to_json_line(),
        Mode::Count => format!("{} {}\n", s.count, puzzle.to_line()),
        Mode::All if s.count == 0 => "no solution\n".to_string(),
        Mode::All => s.solutions.iter().map(|l| format!("{l}\n")).collect(),
        Mode::Solution => match (s.count, s.solutions.first()) {
            (1, Some(sol)) => format!("{sol}\n"),
            (0, _) | (_, None) => "no solution\n".to_string(),
            (n, _) => format!("multiple solutions ({n})\n"),
        },
    }
}

/// `--format sicily`: reads the whole input (a count line, then 9 lines of 9
/// per puzzle, `_` for empty) and answers in the judge's exact words.
pub fn run_sicily(mut input: impl BufRead, out: &mut dyn Write) -> std::io::Result<ExitCode> {
    let mut text = String::new();
    input.read_to_string(&mut text)?;
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let (count_line, header) = lines.next().unwrap_or((0, ""));
    let expected: usize = header.trim().parse().map_err(|_| {
        invalid_data(format!(
            "line {}: expected the number of puzzles, found {:?}",
            count_line + 1,
            header.trim()
        ))
    })?;
    let rows: Vec<(usize, &str)> = lines.collect();
    if rows.len() < expected * 9 {
        return Err(invalid_data(format!(
            "{expected} puzzles announced but only {} lines of rows follow (9 per puzzle)",
            rows.len()
        )));
    }
    let mut code = ExitCode::Success;
    for (n, block) in rows.chunks(9).take(expected).enumerate() {
        let cells: String = block.iter().map(|(_, l)| l.trim()).collect();
        let grid = Board::parse(&cells, Shape::classic()).map_err(|mut e| {
            let index = e.column.saturating_sub(1);
            e.line = block.get(index / 9).map_or(0, |(i, _)| i + 1);
            e.column = index % 9 + 1;
            invalid_data(e.to_string())
        })?;
        if n > 0 {
            out.write_all(b"\n")?;
        }
        let number = n + 1;
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
        code = code.merge(Status::from_count(outcome.count()).exit_code());
    }
    out.flush()?;
    Ok(code)
}

fn invalid_data(message: String) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, message)
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
