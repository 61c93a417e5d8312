//! Prints a puzzle as a newspaper would and photographs it in perspective,
//! with a little noise: the test images of `tests/shapes.rs`, as a file.
//!
//! ```sh
//! cargo run -p snap-vision --example photograph -- tests/data/samurai-easy1.txt samurai samurai.png
//! cargo run -p snap-vision --example photograph -- tests/data/16x16.txt 16x16 big.png
//! ```
//!
//! The shape is `samurai` or `NxN`; the puzzle file holds the shape's text
//! form on one line (Samurai: 441 characters, `#` outside the five grids).

#[path = "../tests/render/mod.rs"]
#[allow(dead_code, reason = "shared with the tests; png() is not needed here")]
mod render;

use std::process::ExitCode;

use snap_solver::{Board, Shape};

/// Cell size of the print in pixels: a Samurai (21 cells) is then about
/// 900 px across, a 16x16 about 800 px.
const CELL: u32 = 40;

/// Grey levels of noise added to the photograph.
const NOISE: u8 = 6;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [puzzle, shape, out] = args.as_slice() else {
        eprintln!("usage: photograph PUZZLE_FILE SHAPE OUT.png   (SHAPE: samurai or NxN)");
        return ExitCode::from(2);
    };
    match photograph(puzzle, shape, out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("photograph: {e}");
            ExitCode::from(2)
        }
    }
}

fn photograph(puzzle: &str, shape: &str, out: &str) -> Result<(), String> {
    let shape = match shape {
        "samurai" => Shape::Samurai,
        n => n
            .split_once('x')
            .and_then(|(a, _)| a.parse().ok())
            .and_then(Shape::square)
            .ok_or_else(|| format!("{n}: not a shape (samurai or NxN)"))?,
    };
    let text = std::fs::read_to_string(puzzle).map_err(|e| format!("{puzzle}: {e}"))?;
    let board = Board::parse(text.trim(), shape).map_err(|e| format!("{puzzle}: {e}"))?;
    let flat = render::print(&board, CELL, CELL / 2);
    // The same framing as tests/shapes.rs: slightly turned, in perspective.
    let photo = render::photograph_at_an_angle(&flat, NOISE);
    photo.save(out).map_err(|e| format!("{out}: {e}"))
}
