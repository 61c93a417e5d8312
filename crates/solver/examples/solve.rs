//! Solve one puzzle of any shape given on the command line (or a built-in
//! 17-clue puzzle) and print the outcome:
//!
//! ```text
//! cargo run -p snap-solver --example solve -- 4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......
//! ```

use snap_solver::{solve, Board, Outcome, Shape, DEFAULT_LIMIT};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let text = std::env::args().nth(1).unwrap_or_else(|| {
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
            .to_string()
    });
    let shape = Shape::detect(text.trim().chars().count())
        .ok_or("the puzzle's length is not one of a known shape (81, 256, 625, 441, ...)")?;
    let puzzle = Board::parse(&text, shape)?;
    match solve(&puzzle, DEFAULT_LIMIT)? {
        Outcome::Unique(solution) => print!("one solution:\n{}", solution.to_pretty()),
        Outcome::Multiple { count, first } => {
            print!(
                "{count} or more solutions; the first:\n{}",
                first.to_pretty()
            )
        }
        Outcome::NoSolution => println!("no solution"),
    }
    Ok(())
}
