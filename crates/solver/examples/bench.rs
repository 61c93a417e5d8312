//! The 9x9 fast-path benchmark without the photo side (no ONNX runtime to
//! build): the same output as `sudoku-snap bench`.
//!
//! ```text
//! cargo run --release -p snap-solver --example bench -- count2 5 FILE...
//! ```

use snap_solver::bench::{run, BenchMode};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: bench count2|first REPEATS FILE...";
    let mode = match args.next().as_deref() {
        Some("count2") => BenchMode::Count2,
        Some("first") => BenchMode::First,
        _ => return Err(usage.into()),
    };
    let repeats: usize = args.next().ok_or(usage)?.parse()?;
    let files: Vec<std::path::PathBuf> = args.map(Into::into).collect();
    if files.is_empty() {
        return Err(usage.into());
    }
    run(&files, mode, repeats, &mut std::io::stdout().lock())?;
    Ok(())
}
