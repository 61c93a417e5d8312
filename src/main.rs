//! The `sudoku-snap` binary: parse arguments, run the command, exit with its
//! code. Every message and exit code comes from `commands::run`.

mod book;
mod cli;
mod commands;
mod error;
mod exit_codes;
#[cfg(all(target_os = "linux", target_env = "gnu"))]
mod huge_pages;
mod jpeg;
mod limits;
mod output;
mod shard;

use clap::Parser;

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[global_allocator]
static ALLOCATOR: huge_pages::HugePages = huge_pages::HugePages;

fn main() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    huge_pages::tune_heap();
    let cli = cli::Cli::parse();
    let code = commands::run(cli);
    std::process::exit(code.code());
}
