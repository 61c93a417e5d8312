//! What each command-line command does, as library functions returning an
//! [`ExitCode`]. Per-input errors are printed with the input's name and the
//! run goes on; only usage errors stop it early.

pub mod books;
pub mod corrections;
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
pub mod render;
pub mod resume;
pub mod solve;
pub mod summary;

use std::io::{BufRead, BufReader, Write};

pub use snap_answer::shell_word;
use snap_solver::bench::{self, BenchMode};
use snap_vision::{Guide, Reader};

use crate::cli::{
    BenchArgs, BenchModeArg, Cli, Command, GenerateArgs, GradeArgs, GridArgs, Method, ReaderArgs,
    SolveArgs,
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
        Some(Command::RenderPages) => Ok(render::run_child()),
        None => photo::run(&cli.photo),
    };
    // The render children the run started end with it, waited for here:
    // their time is the run's.
    render::end_children();
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

/// What a page of more grids than are searched says (see
/// `snap_vision::Page::unsearched`): `label` names the page.
pub fn unsearched_note(label: &str, unsearched: usize) -> String {
    format!(
        "{label}: {unsearched} more shapes the size of its grids were not searched (a page is \
         searched for its {} largest shapes); crop it into parts to read them",
        snap_vision::PAGE_SEARCH_SHAPES
    )
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
/// given, `-` for standard input (nothing or `-`), or `argument` for a
/// puzzle given itself.
fn input_name(input: Option<&std::path::Path>) -> String {
    match input {
        _ if puzzle_argument(input).is_some() => "argument".to_string(),
        Some(p) if p.as_os_str() != "-" => p.display().to_string(),
        _ => "-".to_string(),
    }
}

/// A puzzle given where a file name goes (`sudoku-snap solve 4.....8.5...`):
/// the argument, when it names no file, holds only a puzzle's characters
/// (cells, and the spaces, commas, `|` and rules the text forms allow),
/// and either spans lines or has as many cells as some shape (81 for
/// 9x9). Anything else is taken for a file name.
fn puzzle_argument(input: Option<&std::path::Path>) -> Option<String> {
    let text = input?.to_str()?;
    let (cells, puzzle_chars) = puzzle_text_counts(text);
    let whole = text.contains('\n') || snap_solver::Shape::detect(cells).is_some();
    (puzzle_chars && whole && !input?.exists()).then(|| text.to_string())
}

/// The cells in `text` and whether all of it is made of a puzzle's
/// characters.
fn puzzle_text_counts(text: &str) -> (usize, bool) {
    let cell = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '#');
    let other = |c: char| {
        matches!(
            c,
            ' ' | '\t' | '\n' | '\r' | ',' | '|' | '-' | '+' | '=' | '?'
        )
    };
    let cells = text.chars().filter(|&c| cell(c)).count();
    (cells, text.chars().all(|c| cell(c) || other(c)))
}

/// The error for a text input that cannot be opened. An argument that
/// looks like a puzzle with cells missing says so, rather than only that
/// there is no such file.
fn open_error(e: std::io::Error, path: &std::path::Path) -> Error {
    let name = path.display().to_string();
    let (cells, puzzle_chars) = puzzle_text_counts(&name);
    if e.kind() == std::io::ErrorKind::NotFound && puzzle_chars && cells >= MIN_PUZZLE_ARGUMENT {
        return Error::Input {
            name,
            source: std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!(
                    "no such file, and not a whole puzzle either: {} (a 9x9 puzzle has 81)",
                    plural(cells, "cell")
                ),
            ),
        };
    }
    io_error(e, &name)
}

/// `1 grid`, `3 grids`: a count and its noun, as a sentence says it.
pub fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// Cells from which an argument that names no file is taken for a puzzle
/// with cells missing: the fewest clues a 9x9 can have, so that short file
/// names are never mistaken for one.
const MIN_PUZZLE_ARGUMENT: usize = 17;

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
        _ if puzzle_argument(input).is_some() => {
            let text = puzzle_argument(input).unwrap_or_default();
            command(&mut text.as_bytes(), &mut out).map_err(|e| io_error(e, "argument"))
        }
        Some(path) if path.as_os_str() != "-" => {
            let name = path.display().to_string();
            // A regular file or a FIFO (streamed by design), never a device
            // or a folder: checked before the file is opened.
            let file = snap_solver::files::open_stream(path).map_err(|e| open_error(e, path))?;
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

/// What `--shape` and `--corners` tell the reader.
fn guide(args: &GridArgs) -> Guide {
    Guide {
        shape: args.shape,
        corners: args.corners,
    }
}

/// `--corners` places one grid, so it is for a run of one photo or page.
fn check_one_page_guide(args: &GridArgs, pages: usize) -> Result<(), Error> {
    if args.corners.is_some() && pages > 1 {
        return Err(Error::Usage(format!(
            "--corners places the grid of one photo or page, and the run reads {pages}; \
             give the photo alone (and one page with --pages)"
        )));
    }
    Ok(())
}

/// What to say when no grid was found, with what a person can tell the
/// reader to find it. On a photo (`photo`; not a PDF page) it says what
/// to try ([`snap_answer::answer::NO_GRID`]), and that `--corners`
/// places a grid the search missed.
fn no_grid_message(args: &GridArgs, photo: bool) -> String {
    match (args.shape, args.corners) {
        (_, Some(_)) => "no Sudoku grid found at the corners given".to_string(),
        (Some(shape), None) => format!(
            "no {} grid found; give its corners with --corners x,y;x,y;x,y;x,y \
             (or full for the whole image)",
            shape.name()
        ),
        (None, None) if photo => format!(
            "{}, or give its corners with --corners x,y;x,y;x,y;x,y",
            snap_answer::answer::NO_GRID
        ),
        (None, None) => "no Sudoku grid found".to_string(),
    }
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
