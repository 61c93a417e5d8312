//! The Sicily 1317 reader: any bytes give entries (a bad puzzle is an error
//! entry), never a panic; accepted puzzles are 9x9 and print back to themselves.
#![no_main]

use libfuzzer_sys::fuzz_target;
use snap_solver::{Board, Shape, SicilyReader};

fuzz_target!(|data: &[u8]| {
    for entry in SicilyReader::new(data) {
        let Ok(entry) = entry else { return };
        if let Ok(board) = entry.puzzle {
            assert_eq!(board.shape, Shape::classic());
            assert_eq!(Board::parse(&board.to_line(), board.shape), Ok(board));
        }
    }
});
