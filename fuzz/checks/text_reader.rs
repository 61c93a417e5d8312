//! The puzzle-file reader (one-line puzzles, blocks of rows, Samurai, any
//! shape): any bytes must give entries, never a panic, with line numbers that
//! only grow, and every puzzle it accepts must print back to itself.
//!
//! Shared by the fuzz target of the same name and by `tests/fuzz_corpus.rs`,
//! which replays the committed corpus on every `cargo test`.

use snap_solver::{Board, PuzzleReader, Shape};

/// Checks one input; panics on a broken promise.
pub fn check(data: &[u8]) {
    // The first byte picks `--shape` (or detection), the rest is the file.
    let Some((&pick, text)) = data.split_first() else {
        return;
    };
    let shape = match pick % 6 {
        0 => None,
        1 => Some(Shape::classic()),
        2 => Some(Shape::Samurai),
        3 => Shape::square(16),
        4 => Shape::square(4),
        _ => Shape::square(25),
    };
    let mut last = 0;
    for entry in PuzzleReader::new(text, shape) {
        let Ok(entry) = entry else { return };
        assert!(entry.line > last, "line numbers grow");
        last = entry.line;
        if let Ok(board) = entry.puzzle {
            let again = Board::parse(&board.to_line(), board.shape).expect("a puzzle prints back");
            assert_eq!(again, board);
        }
    }
}
