//! The main job, `sudoku-snap photo.jpg book.pdf ...`: read, decide, solve,
//! draw, for every grid of every photo and PDF page.
//!
//! The inputs become a list of pages (`inputs.rs`: a photo is one page, a
//! PDF one per selected page, rendered only when its turn comes). Pages are
//! processed in parallel (rayon) a few at a time per thread, and their
//! results printed in input order as each group finishes, so a long book
//! streams its results and holds only a few pages in memory. A page that
//! fails is reported with its name and the reason, and the batch goes on.
//! With `--out-dir`, finished pages are recorded (`resume.rs`) and a re-run
//! skips them. A PDF's solved grids end in an answer key
//! (`<stem>.answers.pdf`, `book.rs`).

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use image::RgbImage;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use snap_solver::{Board, Shape};
use snap_vision::pipeline::{ReadError, Reader};

use super::answer::{self, GridResult, Place};
use super::corrections::{Corrections, PageCorrections};
pub use super::inputs::is_image_name;
use super::inputs::{self, Unit};
use super::plural;
use super::resume::{self, Fingerprint, Records};
use crate::book::{self, KeyEntry};
use crate::cli::PhotoArgs;
use crate::error::Error;
use crate::exit_codes::ExitCode;
use crate::output::{self, WriteError};
use crate::report::{Report, Status};

/// Pages handed to each worker thread per group. Results are printed (and
/// memory freed) group by group; a few pages per thread keep both threads
/// busy while one page of a group takes longer than the others.
const PAGES_PER_THREAD: usize = 4;

/// One printed result: a grid, or a page without one.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Line {
    status: Status,
    /// The JSON line, newline included.
    json: String,
    /// The text lines.
    text: String,
    /// Where it is, for the summary: `book.pdf page 3 grid 2`.
    place: String,
    /// A message for standard error (an input that could not be read).
    stderr: Option<String>,
}

/// A solved grid of a PDF page, for the answer key.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct KeyRecord {
    page: usize,
    grid: usize,
    givens: String,
    solution: String,
}

/// What became of one page, ready to print (and to record for a resume).
#[derive(Debug, Default, Serialize, Deserialize)]
struct Outcome {
    /// One line per grid; empty when none was found or the page failed.
    grids: Vec<Line>,
    /// The line for a page without grids (no grid, unreadable).
    failure: Option<Line>,
    /// Where the answer image went.
    output: Option<PathBuf>,
    /// The solved grids, for a PDF's answer key.
    key: Vec<KeyRecord>,
    /// Why the answer image could not be written (never recorded: a page
    /// whose image failed is done again on a resume).
    #[serde(skip)]
    write_error: Option<String>,
}

impl Outcome {
    /// An outcome for a page without grids.
    fn failed(unit: &Unit, dpi: Option<f32>, status: Status, message: String) -> Outcome {
        let name = unit.path().display().to_string();
        let mut report = Report::failure(&name, status, message.clone(), true);
        if let Some(fields) = report.photo.as_mut() {
            fields.page = unit.page();
            fields.dpi = dpi;
        }
        let label = unit.label();
        let (text, stderr) = match status {
            Status::Error => (String::new(), Some(format!("{label}: {message}"))),
            _ => (format!("{label}: {message}\n"), None),
        };
        Outcome {
            failure: Some(Line {
                status,
                json: report.to_json_line(),
                text,
                place: label,
                stderr,
            }),
            ..Outcome::default()
        }
    }
}

/// Everything `run` needs per page, fixed for the whole batch.
struct Job<'a> {
    reader: &'a Reader,
    args: &'a PhotoArgs,
    options: answer::Options,
    /// The input files: never written over.
    inputs: Vec<PathBuf>,
    /// Records for a resume (`--out-dir` without `--force`), and where to
    /// write new ones (`--out-dir`).
    records: Option<Records>,
    /// The options that change results, for the records' fingerprints
    /// (with each page's own corrections added).
    fingerprint_options: Vec<String>,
    /// The hand corrections, `--set` and `--givens`.
    corrections: Corrections,
}

/// Runs the main job on every input of `args`; returns the merged exit code.
pub fn run(args: &PhotoArgs) -> Result<ExitCode, Error> {
    let corrections = Corrections::parse(&args.set, args.givens.as_deref())?;
    let inputs = inputs::expand(&args.photos);
    if inputs.is_empty() {
        return Err(Error::Usage(
            "no photos given (try `sudoku-snap --help`)".to_string(),
        ));
    }
    if let Some(dir) = &args.out_dir {
        if dir.exists() && !dir.is_dir() {
            return Err(Error::Usage(format!(
                "--out-dir {}: not a folder",
                dir.display()
            )));
        }
    }
    let units = inputs::plan(&inputs, args.pages.as_deref())?;
    if args.output.is_some() && units.len() > 1 {
        return Err(Error::Usage(
            "-o/--output names one file; with several photos or pages use --out-dir".to_string(),
        ));
    }
    super::check_one_page_guide(&args.grid, units.len())?;
    corrections.check(&inputs, &units)?;
    check_outputs(&units, args)?;
    if let Some(dir) = &args.out_dir {
        // A folder that is not there yet is made, as `--debug-dir`'s is
        // (`--out-dir answers` on a first run is what a user types), once
        // the command line is known to be good, so a refused run leaves
        // nothing behind.
        std::fs::create_dir_all(dir).map_err(|source| Error::Input {
            name: format!("--out-dir {}", dir.display()),
            source,
        })?;
    }
    output::install_interrupt_handler();
    let reader = super::reader(&args.reader)?
        .with_colour_ahead(!args.no_image)
        .with_guide(super::guide(&args.grid));
    let job = Job {
        reader: &reader,
        args,
        options: answer::Options {
            check: args.check,
            several_inputs: inputs.len() > 1,
        },
        records: args.out_dir.as_deref().map(Records::new),
        fingerprint_options: fingerprint_options(args),
        corrections,
        inputs,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .build()
        .map_err(|e| Error::Usage(format!("cannot start worker threads: {e}")))?;
    let any_pdf = units.iter().any(|u| u.page().is_some());
    let what = if any_pdf { "pages" } else { "photos" };
    let bar = progress_bar(units.len(), what);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut code = ExitCode::Success;
    let mut summary = Summary::default();
    let mut books: BTreeMap<PathBuf, Book> = BTreeMap::new();
    let group = pool.current_num_threads() * PAGES_PER_THREAD;
    for units in units.chunks(group.max(1)) {
        let outcomes: Vec<(Outcome, bool)> = pool.install(|| {
            units
                .par_iter()
                .map(|unit| {
                    let r = resume_or_process(&job, unit);
                    bar.inc(1);
                    r
                })
                .collect()
        });
        for ((outcome, resumed), unit) in outcomes.iter().zip(units) {
            let printed = bar.suspend(|| print(&mut out, outcome, unit, args.json))?;
            code = code.merge(printed);
            summary.add(outcome, *resumed, unit.page().is_some());
            if unit.page().is_some() {
                books
                    .entry(unit.path().to_path_buf())
                    .or_default()
                    .add(outcome, *resumed);
            }
        }
    }
    bar.finish_and_clear();
    for (path, book) in &books {
        code = code.merge(book.finish(path, args, &job.inputs, &mut out)?);
    }
    if summary.resumed > 0 {
        eprintln!(
            "sudoku-snap: resumed: {} of {} {what} were already done in {}",
            summary.resumed,
            units.len(),
            args.out_dir.as_deref().unwrap_or(Path::new(".")).display()
        );
    }
    if units.len() > 1 && !args.json {
        out.write_all(summary.text(job.inputs.len(), units.len()).as_bytes())
            .map_err(Error::Output)?;
    }
    Ok(code)
}

/// Stops the run before any work when an output name is bad or two pages
/// (or two answer keys) would write one file.
fn check_outputs(units: &[Unit], args: &PhotoArgs) -> Result<(), Error> {
    let mut pairs: Vec<(PathBuf, PathBuf)> = Vec::new();
    for unit in units {
        let out = output_path(unit, args);
        if !args.no_image {
            output::ImageKind::for_output(&out).map_err(Error::Usage)?;
        }
        // The records are named like the images, so this also keeps two
        // photos from sharing one record under --no-image.
        pairs.push((unit.path().to_path_buf(), out));
    }
    let mut keys: Vec<(PathBuf, PathBuf)> = units
        .iter()
        .filter(|u| u.page().is_some())
        .map(|u| (u.path().to_path_buf(), key_path(u.path(), args)))
        .collect();
    keys.dedup();
    pairs.extend(keys);
    output::check_distinct_outputs(&pairs).map_err(Error::Usage)
}

/// The options that change a page's results, as text for fingerprints.
fn fingerprint_options(args: &PhotoArgs) -> Vec<String> {
    let mut options = vec![format!("--dpi {}", args.dpi)];
    if args.check {
        options.push("--check".to_string());
    }
    if let Some(shape) = args.grid.shape {
        options.push(format!("--shape {}", shape.name()));
    }
    if let Some(corners) = args.grid.corners {
        options.push(format!("--corners {corners:?}"));
    }
    if let Some(model) = &args.reader.model {
        let stamp = resume::file_stamp(model).unwrap_or_default();
        options.push(format!("--model {} {stamp:?}", model.display()));
    }
    if args.no_image {
        // A record made without an image must not stand in for a page
        // whose image is wanted now.
        options.push("--no-image".to_string());
    }
    options
}

/// The page's recorded outcome when a resume allows it, else the page
/// processed (and recorded). The flag says whether it was resumed.
fn resume_or_process(job: &Job, unit: &Unit) -> (Outcome, bool) {
    let corrections = job.corrections.for_unit(unit, &job.inputs);
    let mut options = job.fingerprint_options.clone();
    options.extend(corrections.fingerprint());
    let fingerprint = Fingerprint::of(unit.path(), unit.page(), options);
    let name = output_path(unit, job.args)
        .file_name()
        .map_or_else(|| unit.output_stem(), |n| n.to_string_lossy().into_owned());
    if let (Some(records), Some(print), false) = (&job.records, &fingerprint, job.args.force) {
        if let Some(outcome) = records.load::<Outcome>(&name, print) {
            return (outcome, true);
        }
    }
    let outcome = process(job, unit, &corrections);
    // A page is finished when it was read (or found to have no grid) and its
    // image is in place; a page skipped by Ctrl-C failed with an error.
    let finished = outcome.write_error.is_none()
        && !outcome
            .failure
            .as_ref()
            .is_some_and(|f| f.status == Status::Error);
    if let (Some(records), Some(print), true) = (&job.records, &fingerprint, finished) {
        if let Err(e) = records.save(&name, print, &outcome) {
            eprintln!(
                "sudoku-snap: {}: not recorded for a resume: {e}",
                unit.label()
            );
        }
    }
    (outcome, false)
}

/// Reads one page and decides, draws and writes its grids, with the
/// page's hand `corrections`.
fn process(job: &Job, unit: &Unit, corrections: &PageCorrections) -> Outcome {
    let args = job.args;
    let debug_dir = args.reader.debug_dir.as_deref();
    let (mut page, dpi) = match unit.read(job.reader, args.dpi, debug_dir) {
        Ok(read) => read,
        Err((dpi, ReadError::NoGrid)) => {
            let message = super::no_grid_message(&args.grid);
            return Outcome::failed(unit, dpi, Status::NoGrid, message);
        }
        Err((dpi, e)) => return Outcome::failed(unit, dpi, Status::Error, e.to_string()),
    };
    let name = unit.path().display().to_string();
    let start = Instant::now();
    let place = Place {
        name: &name,
        page: unit.page(),
        dpi,
    };
    let mut grids = match answer::grids(&page, &place, &job.options, corrections) {
        Ok(grids) => grids,
        Err(message) => return Outcome::failed(unit, dpi, Status::Error, message),
    };
    page.timings.lap("solve", start);
    if grids.is_empty() {
        return Outcome::failed(
            unit,
            dpi,
            Status::NoGrid,
            "no Sudoku puzzle found (only empty or unreadable grids)".into(),
        );
    }
    let mut outcome = Outcome::default();
    if !args.no_image {
        let start = Instant::now();
        if let Some(image) = answer::draw(&mut page, &grids) {
            let t = page.timings.lap("overlay", start);
            let out = output_path(unit, args);
            let written = encode_answer(&image, &out).and_then(|bytes| {
                let r = output::write_atomic(&out, &bytes, args.force, &job.inputs);
                page.timings.lap("encode", t);
                r
            });
            match written {
                Ok(()) => outcome.output = Some(out),
                Err(e) => outcome.write_error = Some(e.to_string()),
            }
        }
    }
    for grid in &mut grids {
        if let Some(fields) = grid.report.photo.as_mut() {
            fields.output = outcome.output.as_ref().map(|p| p.display().to_string());
        }
        grid.report.ms = page.timings.clone();
    }
    outcome.key = key_records(unit, &grids);
    let alone = grids.len() == 1;
    outcome.grids = grids.into_iter().map(|g| line(unit, g, alone)).collect();
    outcome
}

/// A grid's printed line.
/// A grid's printed line; `alone` when it is its page's only grid (then
/// its place is the page's).
fn line(unit: &Unit, grid: GridResult, alone: bool) -> Line {
    let number = grid.report.photo.as_ref().and_then(|f| f.grid).unwrap_or(1);
    Line {
        status: grid.status,
        json: grid.report.to_json_line(),
        text: grid.text,
        place: if alone {
            unit.label()
        } else {
            format!("{} grid {number}", unit.label())
        },
        stderr: None,
    }
}

/// The solved grids of a PDF page, for its book's answer key. Only a sure
/// answer goes in the key: an unsure grid's answer is for checking.
fn key_records(unit: &Unit, grids: &[GridResult]) -> Vec<KeyRecord> {
    let Some(page) = unit.page() else {
        return Vec::new();
    };
    grids
        .iter()
        .filter(|g| g.status == Status::Solved)
        .filter_map(|g| {
            let d = g.decision.as_ref()?;
            let solution = d.solution()?;
            Some(KeyRecord {
                page,
                grid: g.report.photo.as_ref()?.grid?,
                givens: d.givens.to_line(),
                solution: solution.to_line(),
            })
        })
        .collect()
}

/// Prints one page's lines (JSON or text) and its errors; returns its exit
/// code. A PDF page without a grid (a cover, a page of text) is normal in a
/// book and does not change the exit code; the book as a whole does (see
/// [`Book::finish`]).
fn print(
    out: &mut dyn Write,
    outcome: &Outcome,
    unit: &Unit,
    json: bool,
) -> Result<ExitCode, Error> {
    let mut code = ExitCode::Success;
    if let Some(e) = &outcome.write_error {
        eprintln!("sudoku-snap: {}: {e}", unit.label());
        code = ExitCode::Error;
    }
    for line in outcome.failure.iter().chain(&outcome.grids) {
        if let Some(message) = &line.stderr {
            eprintln!("sudoku-snap: {message}");
        }
        let text = if json { &line.json } else { &line.text };
        out.write_all(text.as_bytes()).map_err(Error::Output)?;
        if !(line.status == Status::NoGrid && unit.page().is_some()) {
            code = code.merge(line.status.exit_code());
        }
    }
    if let (Some(p), false) = (&outcome.output, json) {
        writeln!(out, "  answer image: {}", p.display()).map_err(Error::Output)?;
    }
    Ok(code)
}

/// What a PDF gave over all its pages: its grids, and its answer key.
#[derive(Debug, Default)]
struct Book {
    grids: usize,
    pages_read: usize,
    key: Vec<KeyRecord>,
    resumed: bool,
}

impl Book {
    fn add(&mut self, outcome: &Outcome, resumed: bool) {
        self.grids += outcome.grids.len();
        if !outcome
            .failure
            .as_ref()
            .is_some_and(|f| f.status == Status::Error)
        {
            self.pages_read += 1;
        }
        self.key.extend(outcome.key.iter().cloned());
        self.resumed |= resumed;
    }

    /// Writes the answer key (unless `--no-image`) and returns the book's
    /// exit code: not solved when pages were read and none had a grid.
    fn finish(
        &self,
        path: &Path,
        args: &PhotoArgs,
        inputs: &[PathBuf],
        out: &mut dyn Write,
    ) -> Result<ExitCode, Error> {
        let name = path.display();
        if self.grids == 0 && self.pages_read > 0 {
            if !args.json {
                writeln!(out, "{name}: no Sudoku grid found on the pages read")
                    .map_err(Error::Output)?;
            }
            return Ok(ExitCode::NotSolved);
        }
        if args.no_image || self.key.is_empty() {
            return Ok(ExitCode::Success);
        }
        let entries: Vec<KeyEntry> = self.key.iter().filter_map(key_entry).collect();
        let key = key_path(path, args);
        let title = format!(
            "Answers: {}",
            path.file_name()
                .map_or_else(|| name.to_string(), |n| n.to_string_lossy().into_owned())
        );
        // A resumed run rewrites the key its earlier part may have left.
        let force = args.force || self.resumed;
        match book::write_answer_key(&key, &entries, &title, force, inputs) {
            Ok(()) => {
                if !args.json {
                    writeln!(
                        out,
                        "{name}: answer key ({}): {}",
                        plural(entries.len(), "grid"),
                        key.display()
                    )
                    .map_err(Error::Output)?;
                }
                Ok(ExitCode::Success)
            }
            Err(e) => {
                eprintln!("sudoku-snap: {name}: {e}");
                Ok(ExitCode::Error)
            }
        }
    }
}

/// A recorded key grid as the key writer takes it.
fn key_entry(record: &KeyRecord) -> Option<KeyEntry> {
    let shape = Shape::detect(record.givens.chars().count())?;
    Some(KeyEntry {
        page: record.page,
        grid: record.grid,
        givens: Board::parse(&record.givens, shape).ok()?,
        solution: Board::parse(&record.solution, shape).ok()?,
    })
}

/// Places named after a count of the summary: enough to find a few
/// solved grids by name, not a book's every page.
const SOLVED_NAMED: usize = 10;

/// The batch summary: inputs, pages, grids found and what became of them,
/// each count followed by the places behind it (solved ones up to
/// [`SOLVED_NAMED`]; every one that was not solved).
#[derive(Debug, Default)]
struct Summary {
    /// Places of the grids solved (and printed answer grids found valid).
    solved: Vec<String>,
    /// Places of the grids cut by the frame.
    partial: Vec<String>,
    /// Places of the grids (and inputs) not solved, with why.
    problems: Vec<String>,
    resumed: usize,
    /// PDF pages without a grid: counted, not listed (covers, text pages
    /// and answer pages are normal in a book).
    blank_pages: usize,
    /// Grids found.
    grids: usize,
}

impl Summary {
    fn add(&mut self, outcome: &Outcome, resumed: bool, pdf_page: bool) {
        self.resumed += usize::from(resumed);
        if let Some(line) = &outcome.failure {
            if pdf_page && line.status == Status::NoGrid {
                self.blank_pages += 1;
                return;
            }
            self.problems.push(format!(
                "{} ({})",
                line.place,
                line.status.as_str().replace('_', " ")
            ));
            return;
        }
        for g in &outcome.grids {
            self.grids += 1;
            match g.status {
                Status::Solved | Status::Complete => self.solved.push(g.place.clone()),
                Status::Partial => self.partial.push(g.place.clone()),
                status => self.problems.push(format!(
                    "{} ({})",
                    g.place,
                    status.as_str().replace('_', " ")
                )),
            }
        }
    }

    fn text(&self, inputs: usize, pages: usize) -> String {
        let not_solved = self.grids - self.solved.len() - self.partial.len();
        let pages = if pages == inputs {
            String::new()
        } else {
            format!(", {}", plural(pages, "page"))
        };
        let mut s = format!(
            "{}{pages}: {} found, {} solved, {} partial, {not_solved} not solved\n",
            plural(inputs, "input"),
            plural(self.grids, "grid"),
            self.solved.len(),
            self.partial.len(),
        );
        if !self.solved.is_empty() {
            let shown = &self.solved[..self.solved.len().min(SOLVED_NAMED)];
            let more = self.solved.len() - shown.len();
            let rest = if more > 0 {
                format!(", and {more} more")
            } else {
                String::new()
            };
            s.push_str(&format!("solved: {}{rest}\n", shown.join(", ")));
        }
        if !self.partial.is_empty() {
            s.push_str(&format!("partial: {}\n", self.partial.join(", ")));
        }
        if !self.problems.is_empty() {
            s.push_str(&format!("not solved: {}\n", self.problems.join(", ")));
        }
        if self.blank_pages > 0 {
            s.push_str(&format!(
                "{} without a grid\n",
                plural(self.blank_pages, "page")
            ));
        }
        s
    }
}

fn progress_bar(n: usize, what: &str) -> ProgressBar {
    if n < 2 || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(n as u64);
    let template = format!("{{bar:40}} {{pos}}/{{len}} {what} {{elapsed}}");
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style);
    }
    bar
}

/// Where the answer image for a page goes: `-o`, or `<stem>.solved.<ext>`
/// (`<stem>.p012.solved.png` for PDF page 12) in `--out-dir` or the
/// current folder. A JPEG photo's answer is JPEG; PDF pages are PNG.
fn output_path(unit: &Unit, args: &PhotoArgs) -> PathBuf {
    if let Some(o) = &args.output {
        return o.clone();
    }
    let kind = if unit.is_jpeg() {
        output::ImageKind::Jpeg
    } else {
        output::ImageKind::Png
    };
    let name = format!("{}.solved.{}", unit.output_stem(), kind.extension());
    match &args.out_dir {
        Some(dir) => dir.join(name),
        None => PathBuf::from(name),
    }
}

/// Where a PDF's answer key goes: `<stem>.answers.pdf` beside its answer
/// images.
fn key_path(pdf: &Path, args: &PhotoArgs) -> PathBuf {
    let name = format!("{}.answers.pdf", inputs::file_stem(pdf));
    match &args.out_dir {
        Some(dir) => dir.join(name),
        None => PathBuf::from(name),
    }
}

/// The answer image encoded as its output's extension says (every output
/// name was checked before the batch; PNG if one somehow was not).
fn encode_answer(image: &RgbImage, out: &Path) -> Result<Vec<u8>, WriteError> {
    let kind = output::ImageKind::for_output(out).unwrap_or(output::ImageKind::Png);
    output::encode_image(image, kind).map_err(|e| WriteError::Io(out.to_path_buf(), e))
}
