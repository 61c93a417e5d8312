//! The `sudoku-snap` binary: parse arguments, run the command, exit with its
//! code. Every message and exit code comes from `commands::run`.

mod book;
mod cli;
mod commands;
mod error;
mod exit_codes;
mod jpeg;
mod limits;
mod output;
mod shard;

use clap::Parser;

fn main() {
    let cli = cli::Cli::parse();
    let code = commands::run(cli);
    std::process::exit(code.code());
}
