//! Command-line definitions (clap derive) and nothing else.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use snap_solver::Shape;
use snap_vision::Corners;

/// Solve a photographed Sudoku: find the grid, read the clues, solve it and
/// draw the answer back onto the photo.
///
/// `sudoku-snap photo.jpg` does all of it. The subcommands do one part each:
/// `solve` for text puzzles, `read` to only read a photo, `eval` to measure
/// the reader on photos with known answers, `bench` to time the solver,
/// `hint` to see only the next step of a puzzle instead of its answer.
#[derive(Debug, Parser)]
#[command(name = "sudoku-snap", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// A part of the job to run on its own; without one, photos are solved.
    #[command(subcommand)]
    pub command: Option<Command>,

    /// Solve these photos (or every image in these folders).
    #[command(flatten)]
    pub photo: PhotoArgs,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Solve text puzzles: one per line (81 characters, `.` `0` or `_` for
    /// empty) or 9 lines of 9; also 16x16, 25x25 and Samurai.
    Solve(SolveArgs),
    /// Read photos (find the grid and read its cells) without solving.
    Read(ReadArgs),
    /// Measure the reader on a folder of photos with ground truth (`<name>.txt`).
    Eval(EvalArgs),
    /// Time the solver on puzzle files (puzzles per second), in-process.
    Bench(BenchArgs),
    /// Grade 9x9 puzzles by the human techniques they need: one line per
    /// puzzle, `LEVEL RATING PUZZLE` (levels easy, medium, hard, expert, extreme).
    Grade(GradeArgs),
    /// Make new puzzles with exactly one solution, minimal unless --clues
    /// asks for more; the same --seed gives the same puzzles.
    Generate(GenerateArgs),
    /// Show only the next logical step of a puzzle (a photo, drawn onto it,
    /// or a text puzzle): `r4c7 = 3 (hidden single in box 6)`.
    Hint(HintArgs),
    /// Render PDF pages sent on standard input, each under the limits sent
    /// with it: how a batch renders its pages, in processes of their own.
    #[command(name = "__render-pages", hide = true)]
    RenderPages,
}

/// Options of the main job: photo in, answer image out.
#[derive(Debug, Args)]
pub struct PhotoArgs {
    /// Photos (JPEG, PNG, WebP, BMP, TIFF, GIF), PDF books (every page is
    /// read), or folders of them; `-` reads one from standard input.
    pub photos: Vec<PathBuf>,

    /// Print one JSON object per grid (JSON Lines) instead of text.
    #[arg(long)]
    pub json: bool,

    /// Where to write the answer (one input only): an image for a photo; for
    /// a PDF the solved book (`.pdf`: every page with the answers drawn
    /// in), or an image (`.png`, `.jpg`) of its one page read. Default:
    /// `<stem>.solved.png` (`.jpg` for a JPEG photo) and
    /// `<stem>.solved.pdf` for a PDF, in the current folder.
    #[arg(short, long, value_name = "PATH")]
    pub output: Option<PathBuf>,

    /// Folder for the answers: answer images, and for a PDF its solved book
    /// (`<stem>.solved.pdf`) and answer key (`<stem>.answers.pdf`).
    /// Finished pages are recorded there: running the same command again
    /// resumes an interrupted batch, skipping what is done (`--force`
    /// redoes all), and a book's outputs are made from the records of all
    /// its pages.
    #[arg(long, value_name = "DIR")]
    pub out_dir: Option<PathBuf>,

    /// Also write an answer image for every PDF page read
    /// (`<stem>.p012.solved.png` for page 12).
    #[arg(long)]
    pub page_images: bool,

    /// Do the K-th of N equal shares of the pages (across all inputs), e.g.
    /// `--shard 2/8`: N runs with K = 1..N, anywhere, into one --out-dir
    /// (or folders merged afterwards) do the whole job; the same command
    /// without --shard then merges them into the books' outputs.
    #[arg(long, value_name = "K/N", value_parser = crate::shard::Shard::parse, requires = "out_dir")]
    pub shard: Option<crate::shard::Shard>,

    /// Print only the summary at the end (no progress bar, no per-page
    /// messages).
    #[arg(short, long, conflicts_with = "verbose")]
    pub quiet: bool,

    /// Print every grid of a batch (by default a batch of several photos or
    /// pages prints a progress bar and a summary of what needs a look).
    #[arg(short, long)]
    pub verbose: bool,

    /// PDF pages to read, e.g. `3-10,12` (`7-` to the end); every page by
    /// default. Applies to every PDF given; photos are always read.
    #[arg(long, value_name = "LIST")]
    pub pages: Option<String>,

    /// Resolution PDF pages are rendered at (dots per inch).
    #[arg(long, value_name = "DPI", default_value_t = snap_vision::DEFAULT_DPI, value_parser = crate::limits::parse_dpi)]
    pub dpi: f32,

    /// Longest a PDF page may take to render, in seconds: a page past it
    /// is stopped and reported, and the batch goes on.
    #[arg(long, value_name = "SECONDS", default_value_t = crate::limits::DEFAULT_PAGE_TIMEOUT_SECONDS, value_parser = crate::limits::parse_page_timeout)]
    pub page_timeout: u64,

    /// Memory the pages being read may hold at once, in MiB, whatever
    /// --jobs and --dpi ask: a page waits for room (one larger than this
    /// alone runs by itself).
    #[arg(long, value_name = "MIB", default_value_t = crate::limits::RUN_MEMORY_BYTES >> 20, value_parser = crate::limits::parse_memory)]
    pub max_memory: u64,

    /// Do not write answers (no answer images, solved books or answer
    /// keys): only print them.
    #[arg(long, conflicts_with = "page_images")]
    pub no_image: bool,

    /// Overwrite existing answer images, and redo pages already recorded
    /// in --out-dir.
    #[arg(long)]
    pub force: bool,

    /// Compare a person's pen entries with the solution: name each wrong
    /// entry (and ring it in red on the answer image), or say "complete:
    /// all correct". Without it, entries are left as they are and only
    /// empty cells are drawn.
    #[arg(long)]
    pub check: bool,

    /// Correct a cell by hand before solving, e.g. `--set r3c4=7` or `--set r5c1=.`
    /// (repeatable). When the run reads several grids, name the one it is
    /// for first: `photo.jpg:r3c4=7`, `p108:r3c4=7` (a PDF page), `g2:r3c4=7`
    /// (grid 2 of a page), or together, `book.pdf:p108:g2:r3c4=7`.
    #[arg(long = "set", value_name = "[PHOTO:][pN:][gN:]rRcC=D")]
    pub set: Vec<String>,

    /// Solve this grid instead of the one read, and draw its answer onto
    /// the photo: a text file in any form `solve` reads, such as `sudoku-snap
    /// read photo.jpg > grid.txt` after editing. One photo or page; a file
    /// of several grids gives one per grid in order, and `g2:grid.txt` gives
    /// grid 2 alone (its one puzzle, or the second of several).
    #[arg(long, value_name = "[gN:]FILE")]
    pub givens: Option<PathBuf>,

    #[command(flatten)]
    pub grid: GridArgs,

    #[command(flatten)]
    pub reader: ReaderArgs,

    /// Photos or pages processed at once (default: all cores).
    #[arg(short, long, value_name = "N", value_parser = crate::limits::parse_jobs)]
    pub jobs: Option<usize>,
}

/// Options shared by everything that reads photos.
#[derive(Debug, Args, Clone, Default)]
pub struct ReaderArgs {
    /// Use this ONNX digit model instead of the embedded ones (it then
    /// reads every grid, 16x16 ones too; see models/README.md).
    #[arg(long, value_name = "PATH")]
    pub model: Option<PathBuf>,

    /// Write the intermediate images (threshold, detected grid, rectified
    /// grid, cell tiles) of each photo into this folder.
    #[arg(long, value_name = "DIR")]
    pub debug_dir: Option<PathBuf>,
}

/// What a person tells the reader about a photo's grid when it cannot see
/// it for itself.
#[derive(Debug, Args, Clone, Default)]
pub struct GridArgs {
    /// Read the puzzles as this shape: 9x9, 16x16 or samurai (when the
    /// reader takes a grid for another shape, or finds no Samurai).
    #[arg(long, value_name = "SHAPE", value_parser = parse_photo_shape)]
    pub shape: Option<Shape>,

    /// Where the grid is, when the reader does not find it: its four outer
    /// corners in pixels of the photo as a viewer shows it,
    /// `x,y;x,y;x,y;x,y` in any order (quote it for the shell), or `full`
    /// when the whole image is the grid. One photo or page.
    #[arg(long, value_name = "CORNERS", value_parser = parse_corners)]
    pub corners: Option<Corners>,
}

/// `solve`: text puzzles.
#[derive(Debug, Args)]
pub struct SolveArgs {
    /// Puzzle file; `-` or nothing reads standard input. A puzzle itself
    /// works too: `sudoku-snap solve 4.....8.5.3...` (all its cells).
    pub input: Option<PathBuf>,

    /// One line per puzzle, as when the output goes to a pipe or a file
    /// (on a terminal, each solution is shown as a grid).
    #[arg(long)]
    pub line: bool,

    /// Print the number of solutions (up to --limit) before each puzzle.
    #[arg(long, conflicts_with = "all")]
    pub count: bool,

    /// Print every solution, up to --limit.
    #[arg(long)]
    pub all: bool,

    /// Count solutions up to this many (default 2, enough to tell unique from several).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub limit: Option<u64>,

    /// Print one JSON object per puzzle (JSON Lines).
    #[arg(long)]
    pub json: bool,

    /// Shape of the puzzles: classic, samurai or NxN (4x4, 9x9, 16x16, 25x25).
    /// Default: detected from each puzzle's length.
    #[arg(long, value_name = "SHAPE", value_parser = parse_shape)]
    pub shape: Option<Shape>,

    /// Input and output format.
    #[arg(long, value_enum, default_value_t = Format::Lines)]
    pub format: Format,

    /// Threads to solve with; output keeps the input's order.
    #[arg(short, long, value_name = "N", default_value_t = 1, value_parser = crate::limits::parse_jobs)]
    pub jobs: usize,

    /// Print how a person would solve each 9x9 puzzle, step by step
    /// (`r4c7 = 3 (hidden single in box 6)`), and where search takes over
    /// when logic runs out. With --json the steps are data.
    #[arg(long, conflicts_with_all = ["count", "all"])]
    pub explain: bool,

    /// `search` (default): solve by propagation and guessing, any shape.
    /// `logic`: human techniques only (9x9); a puzzle logic cannot finish
    /// is reported as not solved, with where it got stuck.
    #[arg(long, value_enum, default_value_t = Method::Search, conflicts_with_all = ["count", "all"])]
    pub method: Method,
}

/// How `solve` finds solutions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Method {
    /// Propagation and guessing: every shape, counts solutions.
    Search,
    /// Human techniques only, no guessing (9x9).
    Logic,
}

/// `grade`: difficulty of 9x9 puzzles.
#[derive(Debug, Args)]
pub struct GradeArgs {
    /// Puzzle file (one 9x9 puzzle per line, or 9 lines of 9); `-` or
    /// nothing reads standard input.
    pub input: Option<PathBuf>,

    /// Print one JSON object per puzzle (JSON Lines).
    #[arg(long)]
    pub json: bool,
}

/// `generate`: new puzzles.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// How many puzzles.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub count: u64,

    /// Seed of the random stream: the same seed and options give the same puzzles.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,

    /// Stop removing clues at this many (default: a minimal puzzle, no clue
    /// can be removed).
    #[arg(long, value_name = "N")]
    pub clues: Option<usize>,

    /// Where clues may be: none, central (180-degree rotation), horizontal,
    /// vertical, diagonal.
    #[arg(long, default_value = "none", value_parser = parse_symmetry)]
    pub symmetry: snap_solver::generate::Symmetry,

    /// Keep only puzzles of this level (9x9): easy, medium, hard, expert, extreme.
    #[arg(long, value_name = "LEVEL", value_parser = parse_level)]
    pub difficulty: Option<snap_solver::grade::Level>,

    /// Shape: 9x9 (classic), 16x16 or samurai.
    #[arg(long, default_value = "9x9", value_parser = parse_shape)]
    pub shape: Shape,

    /// Print one JSON object per puzzle (JSON Lines) with its solution,
    /// grade and whether it is minimal.
    #[arg(long)]
    pub json: bool,

    /// Also lay the puzzles out as a printable PDF book at PATH: six 9x9
    /// puzzles a page (16x16 and Samurai one a page), numbered, with the
    /// answers at the back.
    #[arg(long, value_name = "PATH")]
    pub pdf: Option<PathBuf>,

    /// Overwrite an existing --pdf book.
    #[arg(long, requires = "pdf")]
    pub force: bool,
}

/// `hint`: the next step, not the whole answer.
#[derive(Debug, Args)]
pub struct HintArgs {
    /// A photo (JPEG, PNG, WebP, BMP, TIFF) or a text puzzle file (9x9, one
    /// line of 81 or 9 lines of 9, as for `solve`); `-` or nothing reads
    /// standard input. A photo's pen entries count as filled in.
    pub input: Option<PathBuf>,

    /// Print one JSON object per grid or puzzle (JSON Lines); `step` is the
    /// object `solve --explain --json` prints for a step.
    #[arg(long)]
    pub json: bool,

    /// Where to write the hint image (photos only). Default:
    /// `<stem>.hint.jpg` (`.png` for photos that are not JPEG) in the
    /// current folder.
    #[arg(short, long, value_name = "PATH")]
    pub output: Option<PathBuf>,

    /// Do not write a hint image.
    #[arg(long, conflicts_with = "output")]
    pub no_image: bool,

    /// Overwrite an existing hint image.
    #[arg(long)]
    pub force: bool,

    /// Correct a cell by hand before the hint, e.g. `--set r3c4=7` or
    /// `--set r5c1=.` (repeatable; photos only); `g2:r3c4=7` for grid 2 of
    /// a photo of several.
    #[arg(long = "set", value_name = "[gN:]rRcC=D")]
    pub set: Vec<String>,

    #[command(flatten)]
    pub grid: GridArgs,

    #[command(flatten)]
    pub reader: ReaderArgs,
}

/// Text formats for `solve`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// One puzzle per line (or a block of rows); one answer per line.
    Lines,
    /// The Sicily 1317 judge format: a count line, then 9 lines per puzzle
    /// with `_` for empty; answers `Puzzle N has M solutions` or
    /// `Puzzle N solution is` and the grid.
    Sicily,
}

/// `read`: photos to grids, no solving.
#[derive(Debug, Args)]
pub struct ReadArgs {
    /// Photos (JPEG, PNG, WebP, BMP, TIFF, GIF), PDF books, or folders of
    /// them; `-` reads one from standard input. The grids are printed so
    /// that they can be edited and given back with `--givens`.
    #[arg(required = true)]
    pub photos: Vec<PathBuf>,

    /// Print one JSON object per grid (JSON Lines).
    #[arg(long)]
    pub json: bool,

    /// PDF pages to read, e.g. `3-10,12`; every page by default.
    #[arg(long, value_name = "LIST")]
    pub pages: Option<String>,

    #[command(flatten)]
    pub grid: GridArgs,

    #[command(flatten)]
    pub reader: ReaderArgs,
}

/// `eval`: accuracy of the reader on photos with known grids.
#[derive(Debug, Args)]
pub struct EvalArgs {
    /// Folders of photos, each with `<name>.txt` (9 lines of 9, `.` for
    /// empty); PDF books and page images with several grids, each with
    /// `<stem>.truth.tsv` (one row per grid: page, box in points, kind,
    /// digits; the format of fixtures/pdf), given as files or in folders.
    #[arg(required = true)]
    pub dirs: Vec<PathBuf>,

    /// Print the report as one JSON object.
    #[arg(long)]
    pub json: bool,

    /// Write every cell tile as a 28x28 PNG named by its true label into this
    /// folder (training data for the digit model).
    #[arg(long, value_name = "DIR")]
    pub dump_tiles: Option<PathBuf>,

    #[command(flatten)]
    pub reader: ReaderArgs,
}

/// `bench`: solver throughput.
#[derive(Debug, Args)]
pub struct BenchArgs {
    /// Puzzle files, one 81-character puzzle per line.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,

    /// `count2` counts solutions up to 2 (the uniqueness check); `first` stops at the first.
    #[arg(long, value_enum, default_value_t = BenchModeArg::Count2)]
    pub mode: BenchModeArg,

    /// Timed passes over each file; the median is reported.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub repeats: u64,
}

/// Benchmark modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BenchModeArg {
    /// Stop at the first solution.
    First,
    /// Count solutions up to 2.
    Count2,
}

/// Parses `--shape`: `classic`, `samurai` or `NxN`.
fn parse_shape(text: &str) -> Result<Shape, String> {
    let lower = text.to_ascii_lowercase();
    let shape = match lower.as_str() {
        "classic" => Some(Shape::classic()),
        "samurai" => Some(Shape::Samurai),
        _ => lower
            .split_once('x')
            .filter(|(a, b)| a == b)
            .and_then(|(a, _)| a.parse::<usize>().ok())
            .and_then(Shape::square),
    };
    shape.ok_or_else(|| {
        format!("unknown shape {text:?}: use classic, samurai or NxN (4x4, 9x9, 16x16, 25x25)")
    })
}

/// Parses a photo's `--shape`: the shapes the reader knows.
fn parse_photo_shape(text: &str) -> Result<Shape, String> {
    let shape = parse_shape(text).ok();
    match shape {
        Some(s @ (Shape::Samurai | Shape::Square { size: 9 | 16, .. })) => Ok(s),
        _ => Err(format!(
            "unknown shape {text:?} for a photo: use 9x9, 16x16 or samurai"
        )),
    }
}

/// Parses `--corners`: `full`, or four `x,y` points set apart by `;`.
fn parse_corners(text: &str) -> Result<Corners, String> {
    if text.trim().eq_ignore_ascii_case("full") {
        return Ok(Corners::Full);
    }
    let bad = || {
        format!(
            "--corners {text:?}: expected four points x,y;x,y;x,y;x,y in pixels \
             (e.g. \"12,30;980,25;990,1010;8,1000\"), or full"
        )
    };
    let points: Vec<(f32, f32)> = text
        .split(';')
        .map(|p| {
            let (x, y) = p.split_once(',')?;
            let x: f32 = x.trim().parse().ok()?;
            let y: f32 = y.trim().parse().ok()?;
            (x.is_finite() && y.is_finite()).then_some((x, y))
        })
        .collect::<Option<_>>()
        .ok_or_else(bad)?;
    let points: [(f32, f32); 4] = points.try_into().map_err(|_| bad())?;
    Ok(Corners::At(points))
}

/// Parses `--symmetry`.
fn parse_symmetry(text: &str) -> Result<snap_solver::generate::Symmetry, String> {
    snap_solver::generate::Symmetry::parse(text).ok_or_else(|| {
        format!("unknown symmetry {text:?}: use none, central, horizontal, vertical or diagonal")
    })
}

/// Parses `--difficulty`.
fn parse_level(text: &str) -> Result<snap_solver::grade::Level, String> {
    let lower = text.to_ascii_lowercase();
    snap_solver::grade::Level::ALL
        .into_iter()
        .find(|l| l.name() == lower)
        .ok_or_else(|| format!("unknown level {text:?}: use easy, medium, hard, expert or extreme"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_parse() {
        assert_eq!(parse_shape("classic").unwrap(), Shape::classic());
        assert_eq!(parse_shape("16x16").unwrap(), Shape::square(16).unwrap());
        assert_eq!(parse_shape("Samurai").unwrap(), Shape::Samurai);
        assert!(parse_shape("7x9").is_err());
    }

    #[test]
    fn corners_parse() {
        assert_eq!(parse_corners("full").unwrap(), Corners::Full);
        assert_eq!(
            parse_corners("1,2; 3.5,4;5,6;7,8").unwrap(),
            Corners::At([(1.0, 2.0), (3.5, 4.0), (5.0, 6.0), (7.0, 8.0)])
        );
        for bad in [
            "",
            "1,2;3,4;5,6",
            "1,2;3,4;5,6;7,8;9,9",
            "a,b;1,1;2,2;3,3",
            "nan,1;1,1;2,2;3,3",
        ] {
            assert!(parse_corners(bad).is_err(), "{bad}");
        }
        assert!(parse_photo_shape("16x16").is_ok());
        assert!(parse_photo_shape("25x25").is_err());
    }

    #[test]
    fn a_bad_shape_is_a_usage_error() {
        let err = Cli::try_parse_from(["sudoku-snap", "solve", "--shape", "7x9"]).unwrap_err();
        assert_eq!(err.kind(), clap::error::ErrorKind::ValueValidation);
        assert!(err.to_string().contains("unknown shape"), "{err}");
    }
}
