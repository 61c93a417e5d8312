//! The `sudoku-snap` binary: parse arguments, run the library, exit with its code.

use clap::Parser;

use sudoku_snap::cli::Cli;
use sudoku_snap::commands;

fn main() {
    let cli = Cli::parse();
    let code = commands::run(cli);
    std::process::exit(code.code());
}
