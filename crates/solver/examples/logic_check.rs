//! Heavy checks of the logic engine and the grader over puzzle files.
//!
//! For every 9x9 puzzle: the solutions from `solve` (up to two), then
//! `logic::explain` (with unique rectangles only for one-solution puzzles),
//! and every step is checked against the solution: no placement may differ
//! from it and no elimination may remove its digit (for puzzles with several
//! solutions, against the first one found, which every sound step keeps).
//! A puzzle that logic claims to solve must be solved right. Prints, per
//! file, the puzzles, steps checked, share solved by logic alone, time, and
//! the grade levels with grades per second.
//!
//! ```text
//! cargo run --release -p snap-solver --example logic_check -- [--max N] FILE...
//! ```

use snap_solver::grade::{grade, Level};
use snap_solver::logic::{explain, End, Options};
use snap_solver::{solve, Board, Outcome, Shape};
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut max = usize::MAX;
    let mut files = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--max" {
            max = args.next().ok_or("--max needs a number")?.parse()?;
        } else {
            files.push(arg);
        }
    }
    if files.is_empty() {
        return Err("usage: logic_check [--max N] FILE...".into());
    }
    let mut wrong_total = 0;
    for file in &files {
        let text = std::fs::read_to_string(file)?;
        let (mut puzzles, mut steps, mut solved, mut stuck, mut broken, mut wrong) =
            (0usize, 0usize, 0usize, 0usize, 0usize, 0usize);
        let mut levels = [0usize; Level::ALL.len()];
        let mut grade_time = 0.0f64;
        let mut graded = 0usize;
        let start = Instant::now();
        for (number, line) in text.lines().take(max).enumerate() {
            let board = Board::parse(line, Shape::classic())?;
            puzzles += 1;
            let outcome = solve(&board, 2)?;
            let unique = matches!(outcome, Outcome::Unique(_));
            let explanation = explain(&board, &Options { unique })?;
            steps += explanation.steps.len();
            if let Some(solution) = outcome.first() {
                if let Some(bad) = explanation.steps.iter().find(|s| s.contradicts(solution)) {
                    wrong += 1;
                    eprintln!("{file}:{}: wrong step: {}", number + 1, bad.describe());
                }
            }
            match &explanation.end {
                End::Solved(result) => {
                    solved += 1;
                    if !result.is_solution_of(&board)
                        || (outcome.count() == 1 && outcome.first() != Some(result))
                    {
                        wrong += 1;
                        eprintln!("{file}:{}: logic 'solved' it wrongly", number + 1);
                    }
                }
                End::Stuck(_) => stuck += 1,
                End::Contradiction(..) => {
                    broken += 1;
                    if outcome.count() > 0 {
                        wrong += 1;
                        eprintln!("{file}:{}: contradiction in a solvable puzzle", number + 1);
                    }
                }
            }
            if unique {
                let t = Instant::now();
                let g = grade(&board)?;
                grade_time += t.elapsed().as_secs_f64();
                graded += 1;
                levels[g.level as usize] += 1;
            }
        }
        let seconds = start.elapsed().as_secs_f64();
        let name = std::path::Path::new(file)
            .file_name()
            .map_or(file.clone(), |n| n.to_string_lossy().into_owned());
        println!(
            "{name}: {puzzles} puzzles, {steps} steps checked, {wrong} wrong; solved by logic {solved} ({:.1}%), stuck {stuck}, contradiction {broken}; {seconds:.1} s",
            100.0 * solved as f64 / puzzles.max(1) as f64
        );
        if graded > 0 {
            let shares: Vec<String> = Level::ALL
                .iter()
                .map(|l| {
                    format!(
                        "{} {} ({:.1}%)",
                        l.name(),
                        levels[*l as usize],
                        100.0 * levels[*l as usize] as f64 / graded as f64
                    )
                })
                .collect();
            println!(
                "  grades: {}; {:.0} grades/s",
                shares.join(", "),
                graded as f64 / grade_time.max(1e-9)
            );
        }
        wrong_total += wrong;
    }
    if wrong_total > 0 {
        return Err(format!("{wrong_total} puzzles with a wrong step").into());
    }
    Ok(())
}
