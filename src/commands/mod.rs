//! What each command-line command does, as library functions returning an
//! [`ExitCode`]. Per-input errors are printed with the input's name and the
//! run goes on; only usage errors stop it early.

pub mod eval;
pub mod photo;
pub mod read;
pub mod solve;

use std::io::{BufReader, Write};

use crate::cli::{BenchArgs, BenchModeArg, Cli, Command, ReaderArgs, SolveArgs};
use crate::exit_codes::ExitCode;
use crate::pipeline::Reader;

/// Runs the command the user asked for and returns the process exit code.
pub fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Some(Command::Solve(args)) => run_solve(&args),
        Some(Command::Bench(args)) => run_bench(&args),
        Some(Command::Read(args)) => read::run(&args),
        Some(Command::Eval(args)) => eval::run(&args),
        None => photo::run(&cli.photo),
    };
    result.unwrap_or_else(|message| {
        eprintln!("sudoku-snap: {message}");
        ExitCode::Error
    })
}

/// A broken pipe (output piped into `head`) ends the run quietly.
fn io_result(result: std::io::Result<ExitCode>, input: &str) -> Result<ExitCode, String> {
    match result {
        Ok(code) => Ok(code),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(ExitCode::Success),
        Err(e) => Err(format!("{input}: {e}")),
    }
}

fn run_solve(args: &SolveArgs) -> Result<ExitCode, String> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(OutputErrors(stdout.lock()));
    let result = match &args.input {
        Some(path) if path.as_os_str() != "-" => {
            let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
            let r = solve::run_args(args, BufReader::new(file), &mut out);
            io_result(r, &path.display().to_string())
        }
        _ => {
            let stdin = std::io::stdin();
            io_result(
                solve::run_args(args, stdin.lock(), &mut out),
                "standard input",
            )
        }
    };
    // Flush here so that a write error (a full disk) is reported, not lost.
    let flushed = out.flush();
    let code = result?;
    match flushed {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.to_string()),
        _ => Ok(code),
    }
}

fn run_bench(args: &BenchArgs) -> Result<ExitCode, String> {
    let mode = match args.mode {
        BenchModeArg::First => crate::bench::BenchMode::First,
        BenchModeArg::Count2 => crate::bench::BenchMode::Count2,
    };
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    crate::bench::run(&args.files, mode, args.repeats as usize, &mut out)
        .map_err(|e| e.to_string())?;
    Ok(ExitCode::Success)
}

/// The photo reader the options ask for: the embedded model or `--model`,
/// loaded once for the whole run.
fn reader(args: &ReaderArgs) -> Result<Reader, String> {
    Reader::new(args.model.as_deref(), args.debug_dir.as_deref()).map_err(|e| e.to_string())
}

/// Standard output whose errors say they are about the output, so that a
/// full disk is not mistaken for a problem with the input file.
struct OutputErrors<W>(W);

impl<W: Write> Write for OutputErrors<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf).map_err(about_output)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush().map_err(about_output)
    }
}

/// Keeps the kind (a broken pipe stays one) and names the output.
fn about_output(e: std::io::Error) -> std::io::Error {
    std::io::Error::new(e.kind(), format!("writing output: {e}"))
}
