//! The Sicily 1317 reader: any bytes give entries (a bad puzzle is an error
//! entry), never a panic; accepted puzzles are 9x9 and print back to themselves.
//!
//! Shared by the fuzz target of the same name and by `tests/fuzz_corpus.rs`,
//! which replays the committed corpus on every `cargo test`.

use snap_solver::{Board, Shape, SicilyReader};

/// Checks one input; panics on a broken promise.
pub fn check(data: &[u8]) {
    for entry in SicilyReader::new(data) {
        let Ok(entry) = entry else { return };
        if let Ok(board) = entry.puzzle {
            assert_eq!(board.shape, Shape::classic());
            assert_eq!(Board::parse(&board.to_line(), board.shape), Ok(board));
        }
    }
}
