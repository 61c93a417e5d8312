//! Generates puzzles and checks every one: exactly one solution (counted
//! again by Dancing Links, the engine the generator does not use for 9x9),
//! the solution given is that one, minimal (every clue orbit's removal
//! gives a second solution), symmetric, and no two alike. Prints puzzles
//! per second and the slowest puzzle (generation alone, checks not timed).
//!
//! ```text
//! cargo run --release -p snap-solver --example generate_check -- [COUNT [PER_SYMMETRY [LARGE]]]
//! ```
//!
//! COUNT 9x9 puzzles (default 1000) from seed 1, then PER_SYMMETRY (default
//! 200) 9x9 puzzles for each symmetry, then LARGE (default 2) 16x16 and
//! Samurai puzzles. Exits with an error at the first puzzle that fails.
//! The COUNT 9x9 puzzles are also graded, to show how often each level
//! comes up (what a `--difficulty` filter has to wait for).

use std::collections::HashSet;
use std::time::Instant;

use snap_solver::generate::{generate, Generated, Options, Symmetry};
use snap_solver::grade::{grade, Level};
use snap_solver::{solve, solve_dlx, Board, Shape};

/// Seed of every run, so the figures can be reproduced.
const SEED: u64 = 1;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let mut next_number = |default: usize| -> Result<usize, Box<dyn std::error::Error>> {
        Ok(args
            .next()
            .map(|a| a.parse())
            .transpose()?
            .unwrap_or(default))
    };
    let count = next_number(1000)?;
    let per_symmetry = next_number(200)?;
    let large = next_number(2)?;

    let classic = run(Shape::classic(), count, Symmetry::None)?;
    levels(&classic)?;
    for symmetry in Symmetry::ALL.into_iter().skip(1) {
        run(Shape::classic(), per_symmetry, symmetry)?;
    }
    let sixteen = Shape::square(16).ok_or("no 16x16 shape")?;
    for shape in [sixteen, Shape::Samurai] {
        run(shape, large, Symmetry::None)?;
        run(shape, large, Symmetry::Central)?;
    }
    Ok(())
}

/// Grades `made` and prints how many puzzles fall in each level.
fn levels(made: &[Generated]) -> Result<(), String> {
    let start = Instant::now();
    let mut counts = [0usize; Level::ALL.len()];
    for g in made {
        let graded = grade(&g.puzzle).map_err(|e| e.to_string())?;
        counts[graded.level as usize] += 1;
    }
    let seconds = start.elapsed().as_secs_f64();
    let parts: Vec<String> = Level::ALL
        .iter()
        .zip(counts)
        .map(|(level, n)| format!("{} {n}", level.name()))
        .collect();
    println!(
        "    9x9     levels: {} graded in {seconds:.2} s: {}",
        made.len(),
        parts.join(", ")
    );
    Ok(())
}

/// Generates `count` puzzles of `shape`, times it, checks them all,
/// prints one line of figures and returns the puzzles.
fn run(shape: Shape, count: usize, symmetry: Symmetry) -> Result<Vec<Generated>, String> {
    if count == 0 {
        return Ok(Vec::new());
    }
    let mut options = Options::new(shape, count, SEED);
    options.symmetry = symmetry;
    let start = Instant::now();
    let mut made: Vec<Generated> = Vec::with_capacity(count);
    let mut slowest = 0f64;
    let mut generator = generate(&options, None);
    loop {
        let one = Instant::now();
        let Some(g) = generator.next() else { break };
        slowest = slowest.max(one.elapsed().as_secs_f64());
        made.push(g);
    }
    let seconds = start.elapsed().as_secs_f64();
    if made.len() != count {
        return Err(format!("{} of {count} puzzles made", made.len()));
    }
    let mut seen = HashSet::new();
    for (k, g) in made.iter().enumerate() {
        check(g, symmetry).map_err(|e| format!("{} puzzle {}: {e}", shape.name(), k + 1))?;
        if !seen.insert(g.puzzle.cells.clone()) {
            return Err(format!("puzzle {} repeats an earlier one", k + 1));
        }
    }
    let clues: Vec<usize> = made.iter().map(|g| g.puzzle.givens()).collect();
    let mean = clues.iter().sum::<usize>() as f64 / count as f64;
    println!(
        "{:>7} {:>10}: {count:>5} puzzles in {seconds:>7.2} s, {:>8.2} puzzles/s, \
         slowest {:.3} s; clues {}-{}, mean {mean:.1}; all unique, minimal, symmetric, distinct",
        shape.name(),
        symmetry.name(),
        count as f64 / seconds,
        slowest,
        clues.iter().min().unwrap_or(&0),
        clues.iter().max().unwrap_or(&0),
    );
    Ok(made)
}

/// Checks one puzzle; the reason when it fails.
fn check(g: &Generated, symmetry: Symmetry) -> Result<(), String> {
    let shape = g.puzzle.shape;
    // Dancing Links is an independent count for 9x9 (the generator uses the
    // fast path); for the large shapes it would take far too long, so the
    // engine `solve` picks counts there.
    let outcome = if shape == Shape::classic() {
        solve_dlx(&g.puzzle, 2)
    } else {
        solve(&g.puzzle, 2).map_err(|e| e.to_string())?
    };
    if outcome.count() != 1 || outcome.first() != Some(&g.solution) {
        return Err(format!("{} solutions", outcome.count()));
    }
    if !g.minimal {
        return Err("not marked minimal".into());
    }
    let side = shape.side();
    for i in (0..g.puzzle.cells.len()).filter(|&i| g.puzzle.cells[i] != 0) {
        let j = mirror(symmetry, i, side);
        if g.puzzle.cells[j] == 0 {
            return Err(format!("clue {} has no mirror clue", shape.cell_name(i)));
        }
        if j < i {
            continue;
        }
        let mut fewer: Board = g.puzzle.clone();
        fewer.cells[i] = 0;
        fewer.cells[j] = 0;
        if solve(&fewer, 2).map_err(|e| e.to_string())?.count() < 2 {
            return Err(format!("clue {} can be removed", shape.cell_name(i)));
        }
    }
    Ok(())
}

/// The image of position `i` under `symmetry`, worked out here again rather
/// than taken from the generator.
fn mirror(symmetry: Symmetry, i: usize, side: usize) -> usize {
    let (r, c) = (i / side, i % side);
    let (r, c) = match symmetry {
        Symmetry::None => (r, c),
        Symmetry::Central => (side - 1 - r, side - 1 - c),
        Symmetry::Horizontal => (r, side - 1 - c),
        Symmetry::Vertical => (side - 1 - r, c),
        Symmetry::Diagonal => (c, r),
    };
    r * side + c
}
