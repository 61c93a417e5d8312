//! sudoku-snap: solve a photographed Sudoku.
//!
//! The stages of DESIGN.md are separate modules with plain data between
//! them: [`grid`] and [`solve`] know nothing about images; [`vision`] finds
//! and straightens the grid and cuts its cells; [`ocr`] reads them.
//! [`commands`] holds what each command-line command does; `main.rs` only
//! parses arguments and exits with the returned code.

pub mod bench;
pub mod cli;
pub mod commands;
pub mod decide;
pub mod exit_codes;
pub mod grid;
pub mod ocr;
pub mod output;
pub mod overlay;
pub mod pipeline;
pub mod solve;
pub mod status;
pub mod textio;
pub mod vision;
