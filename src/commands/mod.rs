//! What each command-line command does, as library functions returning an
//! [`ExitCode`]. Per-input errors are printed with the input's name and the
//! run goes on; only usage errors stop it early.

pub mod answer;
pub mod books;
pub mod eval;
pub mod eval_books;
pub mod eval_measures;
pub mod explain;
pub mod generate;
pub mod grade;
pub mod hint;
pub mod inputs;
pub mod photo;
pub mod read;
pub mod resume;
pub mod solve;
pub mod summary;

use std::io::{BufRead, BufReader, Write};

use snap_solver::bench::{self, BenchMode};
use snap_vision::Reader;

use crate::cli::{
    BenchArgs, BenchModeArg, Cli, Command, GenerateArgs, GradeArgs, Method, ReaderArgs, SolveArgs,
};
use crate::error::Error;
use crate::exit_codes::ExitCode;

/// Runs the command the user asked for and returns the process exit code.
pub fn run(cli: Cli) -> ExitCode {
    let result = match cli.command {
        Some(Command::Solve(args)) => run_solve(&args),
        Some(Command::Bench(args)) => run_bench(&args),
        Some(Command::Read(args)) => read::run(&args),
        Some(Command::Eval(args)) => eval::run(&args),
        Some(Command::Grade(args)) => run_grade(&args),
        Some(Command::Generate(args)) => run_generate(&args),
        Some(Command::Hint(args)) => hint::run(&args),
        None => photo::run(&cli.photo),
    };
    match result {
        Ok(code) => code,
        // A broken pipe (output piped into `head`) ends the run quietly.
        Err(Error::Output(e)) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::Success,
        Err(e) => {
            eprintln!("sudoku-snap: {e}");
            e.exit_code()
        }
    }
}

/// Sorts an I/O error of a run over one input: a failed write to standard
/// output says so (see [`OutputErrors`]); anything else is about the input.
fn io_error(e: std::io::Error, input: &str) -> Error {
    if e.kind() == std::io::ErrorKind::BrokenPipe || is_about_output(&e) {
        Error::Output(e)
    } else {
        Error::Input {
            name: input.to_string(),
            source: e,
        }
    }
}

fn run_solve(args: &SolveArgs) -> Result<ExitCode, Error> {
    with_text_input(args.input.as_deref(), |input, out| {
        if args.explain || args.method == Method::Logic {
            explain::run(args, input, out)
        } else {
            solve::run_args(args, input, out)
        }
    })
}

fn run_grade(args: &GradeArgs) -> Result<ExitCode, Error> {
    with_text_input(args.input.as_deref(), |input, out| {
        grade::run(args, input, out)
    })
}

fn run_generate(args: &GenerateArgs) -> Result<ExitCode, Error> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(OutputErrors(stdout.lock()));
    generate::run(args, &mut out)
}

/// The name a text command's input goes by in its reports: the path as
/// given, or `-` for standard input (nothing or `-`).
fn input_name(input: Option<&std::path::Path>) -> String {
    match input {
        Some(p) if p.as_os_str() != "-" => p.display().to_string(),
        _ => "-".to_string(),
    }
}

/// Runs a text command over its input file (or standard input for `-` and
/// nothing), writing to buffered standard output, and sorts its I/O errors
/// into the input's and the output's.
fn with_text_input(
    input: Option<&std::path::Path>,
    command: impl FnOnce(&mut dyn BufRead, &mut dyn Write) -> std::io::Result<ExitCode>,
) -> Result<ExitCode, Error> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(OutputErrors(stdout.lock()));
    let result = match input {
        Some(path) if path.as_os_str() != "-" => {
            let name = path.display().to_string();
            let file = std::fs::File::open(path).map_err(|e| io_error(e, &name))?;
            command(&mut BufReader::new(file), &mut out).map_err(|e| io_error(e, &name))
        }
        _ => {
            let stdin = std::io::stdin();
            command(&mut stdin.lock(), &mut out).map_err(|e| io_error(e, "standard input"))
        }
    };
    // Flush here so that a write error (a full disk) is reported, not lost.
    let flushed = out.flush();
    let code = result?;
    flushed.map_err(Error::Output)?;
    Ok(code)
}

fn run_bench(args: &BenchArgs) -> Result<ExitCode, Error> {
    let mode = match args.mode {
        BenchModeArg::First => BenchMode::First,
        BenchModeArg::Count2 => BenchMode::Count2,
    };
    let stdout = std::io::stdout();
    let mut out = OutputErrors(stdout.lock());
    bench::run(&args.files, mode, args.repeats as usize, &mut out)
        .map_err(|e| io_error(e, "bench"))?;
    Ok(ExitCode::Success)
}

/// The photo reader the options ask for: the embedded model or `--model`,
/// loaded once for the whole run.
fn reader(args: &ReaderArgs) -> Result<Reader, Error> {
    if let Some(dir) = args
        .debug_dir
        .as_deref()
        .filter(|d| d.exists() && !d.is_dir())
    {
        return Err(Error::Usage(format!(
            "--debug-dir {}: not a folder",
            dir.display()
        )));
    }
    Ok(Reader::new(
        args.model.as_deref(),
        args.debug_dir.as_deref(),
    )?)
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

/// Keeps the kind (a broken pipe stays one) and marks the error as the output's.
fn about_output(e: std::io::Error) -> std::io::Error {
    std::io::Error::new(e.kind(), OutputError(e))
}

/// The marker [`about_output`] wraps an output error in.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct OutputError(std::io::Error);

/// True when `e` came from writing standard output.
fn is_about_output(e: &std::io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<OutputError>())
}
