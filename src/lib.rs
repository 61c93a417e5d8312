//! sudoku-snap library.
