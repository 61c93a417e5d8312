//! `sudoku-snap generate`: new puzzles with exactly one solution, minimal
//! unless `--clues` asks for more, optionally symmetric, of a chosen
//! difficulty (graded by the logic engine), in any of 9x9, 16x16 and
//! Samurai. The same seed and options give the same puzzles.

use std::io::Write;

use snap_solver::generate::{generate, Options};
use snap_solver::grade::{grade, Level};
use snap_solver::{Board, Shape};

use crate::book::write_puzzle_book;
use crate::cli::GenerateArgs;
use crate::error::Error;
use crate::exit_codes::ExitCode;
use snap_answer::report::{json_line, GeneratedReport};

/// Candidate puzzles tried in a row for one that passes `--difficulty`
/// before giving up: extreme 9x9 puzzles are rare among random minimal
/// ones (well under one in a thousand), so the budget is generous, and
/// the run ends with a clear message rather than looping for ever.
const DIFFICULTY_TRIES: usize = 200_000;

/// Generates the puzzles and prints one line each (the puzzle), or one
/// JSON object each; with `--pdf`, also writes them as a printable book
/// with their solutions at the back.
pub fn run(args: &GenerateArgs, out: &mut dyn Write) -> Result<ExitCode, Error> {
    let supported = [Shape::classic(), Shape::Samurai].contains(&args.shape)
        || args.shape == Shape::square(16).unwrap_or_else(Shape::classic);
    if !supported {
        // Larger squares take minutes per uniqueness check (25x25 went
        // past five minutes for one puzzle): refuse rather than seem to hang.
        return Err(Error::Usage(format!(
            "generate makes 9x9, 16x16 and samurai puzzles, not {}",
            args.shape.name()
        )));
    }
    if args.difficulty.is_some() && args.shape != Shape::classic() {
        return Err(Error::Usage(
            "--difficulty grades 9x9 puzzles only (the logic engine is 9x9)".to_string(),
        ));
    }
    if let Some(path) = &args.pdf {
        // Checked before the puzzles are made, which can take minutes: a
        // book that cannot be written is refused at once.
        let dir = crate::output::parent_dir(path);
        if !dir.is_dir() {
            return Err(Error::Usage(format!(
                "--pdf {}: no folder {}",
                path.display(),
                dir.display()
            )));
        }
        if !args.force && std::fs::symlink_metadata(path).is_ok() {
            return Err(Error::Usage(format!(
                "--pdf {}: exists (use --force to overwrite it)",
                path.display()
            )));
        }
    }
    let mut options = Options::new(args.shape, args.count as usize, args.seed);
    options.clues = args.clues;
    options.symmetry = args.symmetry;
    if args.difficulty.is_some() {
        options.max_tries = DIFFICULTY_TRIES;
    }
    let wanted = args.difficulty;
    let accept = move |board: &Board| wanted.is_none_or(|level| level_of(board) == Some(level));
    let mut made = 0;
    let mut book = Vec::new();
    for (n, g) in generate(&options, Some(&accept)).enumerate() {
        made += 1;
        let graded = (args.shape == Shape::classic())
            .then(|| grade(&g.puzzle).ok())
            .flatten();
        let line = if args.json {
            json_line(&GeneratedReport {
                number: n + 1,
                shape: g.puzzle.shape.name(),
                givens: g.puzzle.to_line(),
                solution: g.solution.to_line(),
                clues: g.puzzle.givens(),
                minimal: g.minimal,
                level: graded.map(|g| g.level.name()),
                rating: graded.map(|g| (g.rating * 100.0).round() / 100.0),
            })
        } else {
            format!("{}\n", g.puzzle.to_line())
        };
        out.write_all(line.as_bytes()).map_err(Error::Output)?;
        if args.pdf.is_some() {
            book.push((g.puzzle, g.solution));
        }
    }
    out.flush().map_err(Error::Output)?;
    if let Some(path) = &args.pdf {
        write_puzzle_book(path, &book, &book_title(args, made), args.force)?;
    }
    if made < args.count as usize {
        eprintln!(
            "sudoku-snap: made {made} of {} puzzles: {} candidates in a row were not {}",
            args.count,
            options.max_tries,
            wanted.map_or("new", Level::name)
        );
        return Ok(ExitCode::NotSolved);
    }
    Ok(ExitCode::Success)
}

/// The running title of a generated book: what is in it and how to make
/// it again.
fn book_title(args: &GenerateArgs, made: usize) -> String {
    let level = args
        .difficulty
        .map_or(String::new(), |l| format!(" {}", l.name()));
    format!(
        "{made}{level} {} Sudoku puzzles (sudoku-snap generate --seed {})",
        args.shape.name(),
        args.seed
    )
}

/// The level of a generated puzzle (it has one solution by construction).
fn level_of(board: &Board) -> Option<Level> {
    grade(board).ok().map(|g| g.level)
}
