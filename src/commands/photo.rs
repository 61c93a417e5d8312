//! The main job, `sudoku-snap photo.jpg book.pdf ...`: read, decide, solve,
//! draw, for every grid of every photo and PDF page.
//!
//! The inputs become a list of pages (`inputs.rs`: a photo is one page, a
//! PDF one per selected page, rendered only when its turn comes); `--shard`
//! keeps a share of them. Pages are processed in parallel (rayon) a few at
//! a time per thread, and their results printed in input order as each
//! group finishes, so a long book streams its results and holds only a few
//! pages in memory. A page that fails is reported with its name and the
//! reason, and the batch goes on. With `--out-dir`, finished pages are
//! recorded (`resume.rs`) and a re-run skips them. At the end each PDF gets
//! its solved book and answer key (`books.rs`), made from the results of
//! all its pages.
//!
//! What is printed (`summary.rs`): for one photo or page, its grids; for a
//! batch, a progress bar and a summary of what needs a look (`-v` for every
//! grid, `-q` for the summary alone); `--json` one line per grid.

use std::collections::{BTreeMap, HashMap};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use snap_vision::{Page, PageAnswers, PageRange, PartAnswers, ReadError, Reader};

use super::books::{self, Book, KeyRecord};
use super::corrections::{Corrections, PageCorrections};
pub use super::inputs::is_image_name;
use super::inputs::{self, BookFile, Render, Unit};
use super::resume::{self, Fingerprint, ImageStamp, Loaded, RecordedImage, Records, Stamp};
use super::summary::{self, Summary};
use crate::cli::PhotoArgs;
use crate::error::Error;
use crate::exit_codes::ExitCode;
use crate::output::{self, WriteError};
use snap_answer::answer::{self, GridResult, PartMarks, Place};
use snap_answer::report::{Report, Status};

/// Pages handed to each worker thread per group. Results are printed (and
/// memory freed) group by group; a few pages per thread keep both threads
/// busy while one page of a group takes longer than the others.
const PAGES_PER_THREAD: usize = 4;

/// One printed result: a grid, or a page without one.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Line {
    pub status: Status,
    /// The JSON line, newline included.
    pub json: String,
    /// The text lines.
    pub text: String,
    /// Where it is, for the summary: `book.pdf page 3 grid 2`.
    pub place: String,
    /// Why it needs a look, for the summary (empty when it does not).
    pub why: String,
    /// A printed answer grid: unsure, it is named, but no puzzle was left
    /// unsolved.
    pub answer_grid: bool,
    /// A message for standard error (an input that could not be read).
    pub stderr: Option<String>,
}

/// What became of one page, ready to print (and to record for a resume).
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Outcome {
    /// One line per grid; empty when none was found or the page failed.
    pub grids: Vec<Line>,
    /// The line for a page without grids (no grid, unreadable).
    pub failure: Option<Line>,
    /// Where the answer image went.
    pub output: Option<PathBuf>,
    /// The solved grids, for a PDF's answer key.
    pub key: Vec<KeyRecord>,
    /// The answers to draw on a PDF page, for its solved book.
    pub answers: Option<PageAnswers>,
    /// Shapes the size of the page's grids that were not searched (see
    /// `snap_vision::Page::unsearched`).
    #[serde(default)]
    pub unsearched: usize,
    /// Why the answer image could not be written (never recorded: a page
    /// whose image failed is done again on a resume).
    #[serde(skip)]
    pub write_error: Option<String>,
    /// Not started: Ctrl-C came first. Not printed, not recorded.
    #[serde(skip)]
    pub skipped: bool,
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
                why: message,
                answer_grid: false,
                stderr,
            }),
            ..Outcome::default()
        }
    }

    /// True when the page was read to the end (grids found or not): what a
    /// record is kept of.
    fn finished(&self) -> bool {
        !self.skipped
            && !self
                .failure
                .as_ref()
                .is_some_and(|f| f.status == Status::Error)
    }
}

/// Everything `run` needs per page, fixed for the whole batch.
pub struct Job<'a> {
    reader: &'a Reader,
    pub args: &'a PhotoArgs,
    options: answer::Options,
    /// The input files: never written over.
    pub inputs: Vec<PathBuf>,
    /// Records for a resume (`--out-dir`), read unless `--force`.
    pub records: Option<Records>,
    /// The options that change results, for the records' fingerprints
    /// (with each page's own corrections added).
    fingerprint_options: Vec<String>,
    /// The hand corrections, `--set` and `--givens`.
    corrections: Corrections,
    /// Each input's stamp, computed once when first needed (by the worker
    /// that first needs it).
    stamps: HashMap<PathBuf, OnceLock<Option<Stamp>>>,
}

impl Job<'_> {
    /// The fingerprint of `unit` under this run's options; `None` without
    /// records, or when the input cannot be read (it then fails when read,
    /// and is not recorded).
    pub fn fingerprint(&self, path: &Path, page: Option<usize>) -> Option<Fingerprint> {
        self.records.as_ref()?;
        let stamp = self
            .stamps
            .get(path)?
            .get_or_init(|| Stamp::of_file(path))
            .as_ref()
            .copied()?;
        let mut options = self.fingerprint_options.clone();
        options.extend(self.corrections_for(path, page).fingerprint());
        Some(Fingerprint::new(path, stamp, page, &options))
    }

    /// Stamps the input `path` (when this run keeps records and has not
    /// stamped it yet) from `bytes`, the whole file as read for decoding.
    fn stamp_read(&self, path: &Path, bytes: &[u8]) {
        if self.records.is_some() {
            if let Some(stamp) = self.stamps.get(path) {
                stamp.get_or_init(|| Some(Stamp::of_bytes(bytes)));
            }
        }
    }

    /// The hand corrections aimed at page `page` of `path`.
    fn corrections_for(&self, path: &Path, page: Option<usize>) -> PageCorrections {
        self.corrections.for_page(path, page, &self.inputs)
    }

    /// Where the answer image of `unit` goes, `None` when it gets none: a
    /// photo's unless `--no-image`; a PDF page's only with `--page-images`
    /// or an image `-o` (the solved book holds its answers).
    pub fn image_path(&self, unit: &Unit) -> Option<PathBuf> {
        let args = self.args;
        if args.no_image {
            return None;
        }
        let wanted = match unit {
            Unit::Photo(_) | Unit::Stdin(_) => true,
            Unit::PdfPage { .. } => args.page_images || image_output(args),
            Unit::Broken { .. } => false,
        };
        wanted.then(|| output_path(unit, args))
    }
}

/// Runs the main job on every input of `args`; returns the merged exit code.
pub fn run(args: &PhotoArgs) -> Result<ExitCode, Error> {
    let corrections = Corrections::parse(&args.set, args.givens.as_deref())?;
    let expanded = inputs::expand(&args.photos);
    if expanded.inputs.is_empty() && expanded.unlisted.is_empty() {
        let why = match expanded.empty.as_slice() {
            [] => "no photos given (try `sudoku-snap --help`)".to_string(),
            folders => format!(
                "no photos or PDFs in {}",
                folders
                    .iter()
                    .map(|f| f.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        return Err(Error::Usage(why));
    }
    if let Some(dir) = &args.out_dir {
        if dir.exists() && !dir.is_dir() {
            return Err(Error::Usage(format!(
                "--out-dir {}: not a folder",
                dir.display()
            )));
        }
    }
    let mut units = expanded.units(args.pages.as_deref())?;
    check_pages(args, &units)?;
    super::check_one_page_guide(&args.grid, units.len())?;
    corrections.check(&expanded.inputs, &units)?;
    check_outputs(&units, args)?;
    let all_units = units.len();
    if let Some(shard) = args.shard {
        units = units
            .into_iter()
            .enumerate()
            .filter(|(i, _)| shard.takes(*i))
            .map(|(_, u)| u)
            .collect();
    }
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
    sweep(&units, args);
    output::install_interrupt_handler();
    let wants_colour = units
        .iter()
        .any(|u| !args.no_image && (u.is_photo() || args.page_images || image_output(args)));
    // A JPEG answer to a JPEG photo that can be changed in place is made
    // without the photo's colour (see `output::answer_in_place`): the walk
    // of its scan that decodes its luma opens it too.
    let jpeg_answers = args
        .output
        .as_deref()
        .filter(|o| !is_pdf_name(o))
        .is_none_or(|o| output::ImageKind::for_output(o) == Ok(output::ImageKind::Jpeg));
    let reader = super::reader(&args.reader)?
        .opening_jpegs(wants_colour && jpeg_answers)
        .with_ahead(move |photo| {
            if wants_colour && !(jpeg_answers && photo.in_place().is_some()) {
                photo.rgb();
            }
        })
        .with_guide(super::guide(&args.grid));
    let stamps = expanded
        .inputs
        .iter()
        .map(|p| (p.clone(), OnceLock::new()))
        .collect();
    let job = Job {
        reader: &reader,
        args,
        options: answer::Options {
            check: args.check,
            several_inputs: expanded.inputs.len() > 1,
        },
        records: args.out_dir.as_deref().map(Records::new),
        fingerprint_options: fingerprint_options(args),
        corrections,
        inputs: expanded.inputs.clone(),
        stamps,
    };
    crate::limits::RUN_BUDGET.set_total(args.max_memory);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .build()
        .map_err(|e| Error::Usage(format!("cannot start worker threads: {e}")))?;
    let any_pdf = units.iter().any(|u| u.page().is_some());
    let what = if any_pdf { "pages" } else { "photos" };
    let batch = units.len() > 1;
    let mut printer = Printer::new(args, batch);
    let bar = summary::progress_bar(units.len(), what, args.quiet || args.json);
    let mut code = ExitCode::Success;
    let mut summary = Summary::default();
    for folder in &expanded.empty {
        summary.note(format!(
            "{}: no photos or PDFs in this folder",
            folder.display()
        ));
    }
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
            let printed = bar.suspend(|| printer.page(outcome, unit))?;
            code = code.merge(printed);
            summary.add(outcome, *resumed, &unit.label(), unit.page().is_some());
            if let Unit::PdfPage { book, width, .. } = unit {
                books
                    .entry(unit.path().to_path_buf())
                    .or_insert_with(|| Book::new(Arc::clone(book), *width))
                    .add(unit.page().unwrap_or(0), outcome);
            }
        }
        if printer.closed && !writes_files(args) {
            // Nothing but standard output was wanted, and no one reads it.
            return Ok(ExitCode::Success);
        }
    }
    bar.finish_and_clear();
    if output::interrupted() {
        let resume = if args.out_dir.is_some() {
            "; run the same command again to resume"
        } else {
            " (with --out-dir a run can be resumed)"
        };
        eprintln!(
            "sudoku-snap: interrupted: {} of {} {what} done{resume}",
            summary.done,
            units.len()
        );
        return Ok(ExitCode::Interrupted);
    }
    if let Some(shard) = args.shard {
        summary.books.push(format!(
            "shard {shard}: {} of {all_units} {what}; run the same command without --shard to merge the shards into each book's answers",
            units.len()
        ));
    } else {
        for (path, book) in &mut books {
            code = code.merge(books::finish(book, path, &job, &mut summary, &printer));
        }
    }
    if summary.resumed > 0 && !args.quiet {
        eprintln!(
            "sudoku-snap: resumed: {} of {} {what} were already done in {}",
            summary.resumed,
            units.len(),
            args.out_dir.as_deref().unwrap_or(Path::new(".")).display()
        );
    }
    if args.json {
        return Ok(code);
    }
    if batch || args.quiet {
        printer.write(&summary.text(job.inputs.len(), units.len()))?;
    } else {
        for line in &summary.books {
            printer.write(&format!("{line}\n"))?;
        }
    }
    Ok(code)
}

/// `--pages` is refused at once when no PDF is given (it would select
/// nothing and be ignored) or is no page list at all; a list beyond a
/// book's pages is that book's error.
fn check_pages(args: &PhotoArgs, units: &[Unit]) -> Result<(), Error> {
    let Some(text) = &args.pages else {
        return Ok(());
    };
    PageRange::parse(text, usize::MAX).map_err(|e| Error::Usage(format!("--pages {text}: {e}")))?;
    let any_pdf = units.iter().any(|u| {
        u.page().is_some() || matches!(u, Unit::Broken { path, .. } if inputs::is_pdf(path))
    });
    if !any_pdf {
        return Err(Error::Usage(format!(
            "--pages {text}: selects pages of PDF books, and no PDF was given"
        )));
    }
    Ok(())
}

/// Whether the run writes any file besides standard output: answers, or
/// records in --out-dir.
fn writes_files(args: &PhotoArgs) -> bool {
    !args.no_image || args.out_dir.is_some()
}

/// Removes the temporary files a killed run left where this run writes.
fn sweep(units: &[Unit], args: &PhotoArgs) {
    if units.is_empty() {
        return;
    }
    match (&args.out_dir, &args.output) {
        (Some(dir), _) => {
            output::sweep_stale_temps(dir, false);
            output::sweep_stale_temps(&dir.join(resume::RECORD_DIR), true);
        }
        (None, Some(o)) => {
            output::sweep_stale_temps(&output::parent_dir(o), false);
        }
        (None, None) => {
            output::sweep_stale_temps(Path::new("."), false);
        }
    }
}

/// True when `-o` names an image (`.png`, `.jpg`): one page's answer.
fn image_output(args: &PhotoArgs) -> bool {
    args.output
        .as_deref()
        .is_some_and(|o| output::ImageKind::for_output(o).is_ok())
}

/// True when `path` ends in `.pdf`.
pub fn is_pdf_name(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("pdf"))
}

/// Stops the run before any work when an output name is bad or two pages
/// (or two books) would write one file.
fn check_outputs(units: &[Unit], args: &PhotoArgs) -> Result<(), Error> {
    if let Some(o) = &args.output {
        let one_pdf = {
            let mut paths = units.iter().map(Unit::path);
            let first = paths.next();
            units.iter().all(|u| u.page().is_some()) && first.is_some_and(|f| paths.all(|p| p == f))
        };
        if is_pdf_name(o) {
            if !one_pdf {
                return Err(Error::Usage(format!(
                    "-o {}: a PDF answer is the solved book of one PDF; \
                     give one PDF, or use --out-dir",
                    o.display()
                )));
            }
        } else if units.len() > 1 {
            return Err(Error::Usage(
                "-o/--output names one file; with several photos or pages use --out-dir, \
                 or for one PDF name its solved book (`-o book.solved.pdf`)"
                    .to_string(),
            ));
        } else if !args.no_image {
            output::ImageKind::for_output(o).map_err(Error::Usage)?;
        }
    }
    let mut pairs: Vec<(PathBuf, PathBuf)> = Vec::new();
    // Without an image, records (`--out-dir`) or debug images (named by
    // the photo's stem too) a page writes nothing, so two photos of one
    // name in two folders may be read in one run.
    let writes = !args.no_image || args.out_dir.is_some() || args.reader.debug_dir.is_some();
    for unit in units {
        let out = output_path(unit, args);
        if !args.no_image && unit.is_photo() {
            output::ImageKind::for_output(&out).map_err(Error::Usage)?;
        }
        // The records are named like the images, so this also keeps two
        // pages from sharing one record when no image is written.
        if writes {
            pairs.push((unit.path().to_path_buf(), out));
        }
    }
    let mut books: Vec<&Path> = units
        .iter()
        .filter(|u| u.page().is_some())
        .map(Unit::path)
        .collect();
    books.dedup();
    for book in books {
        for out in [books::key_path(book, args), books::solved_path(book, args)]
            .into_iter()
            .flatten()
        {
            pairs.push((book.to_path_buf(), out));
        }
    }
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
        let stamp = Stamp::of_file(model);
        options.push(format!("--model {stamp:?}"));
    }
    options
}

/// The name a page's record goes by: its answer image's file name (the
/// image it has or would have), unique in the batch.
fn record_name(unit: &Unit, args: &PhotoArgs) -> String {
    output_path(unit, args)
        .file_name()
        .map_or_else(|| unit.output_stem(), |n| n.to_string_lossy().into_owned())
}

/// The page's recorded outcome when a resume allows it, else the page
/// processed (and recorded). The flag says whether it was resumed.
fn resume_or_process(job: &Job, unit: &Unit) -> (Outcome, bool) {
    if output::interrupted() {
        let skipped = Outcome {
            skipped: true,
            ..Outcome::default()
        };
        return (skipped, false);
    }
    let name = record_name(unit, job.args);
    let image = job.image_path(unit);
    // A record whose image is gone or damaged vouches that the file at the
    // image's name was ours: it is replaced without --force.
    let mut replace = job.args.force;
    // The input is stamped here only when a record may be used: else its
    // stamp is taken after reading it, from the bytes read when it is a
    // JPEG (see `Job::stamp_read`), rather than by reading it once more.
    let recorded = job
        .records
        .as_ref()
        .filter(|r| !job.args.force && r.has(&name));
    if let Some(records) = recorded {
        if let Some(print) = job.fingerprint(unit.path(), unit.page()) {
            match records.load::<Outcome>(&name, &print, image.as_deref()) {
                Loaded::Done(outcome) => return (outcome, true),
                Loaded::ImageLost => replace = true,
                Loaded::None => {}
            }
        }
    }
    let (mut outcome, encoded) = process(job, unit, image.is_some());
    if !outcome.finished() || outcome.write_error.is_some() {
        // Not recorded: the page is done again on a resume.
        return (outcome, false);
    }
    let fingerprint = job.fingerprint(unit.path(), unit.page());
    let records = job.records.as_ref().zip(fingerprint.as_ref());
    match (image, encoded) {
        (Some(path), Some(bytes)) => {
            // The record first, then the image: an image is never in place
            // without the record that vouches for it (see resume.rs). The
            // image is written to its temporary file meanwhile, so that
            // the two flushes to disk overlap; it is put in place after.
            let (saved, staged) = std::thread::scope(|scope| {
                let staged = scope.spawn(|| output::stage(&path, &bytes, replace, &job.inputs));
                let saved = records.map(|(records, print)| {
                    let stamp = ImageStamp {
                        name: path
                            .file_name()
                            .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
                        stamp: Stamp::of_bytes(&bytes),
                    };
                    records.save(&name, print, &outcome, RecordedImage::Written(stamp))
                });
                let staged = staged
                    .join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
                (saved, staged)
            });
            if let Some(Err(e)) = saved {
                // The staged image's temporary file goes with it.
                outcome.write_error = Some(format!(
                    "{} not written: cannot record it for a resume: {e}",
                    path.display()
                ));
                return (outcome, false);
            }
            if let Err(e) = staged.and_then(output::Staged::commit) {
                if let Some((records, _)) = records {
                    records.remove(&name);
                }
                outcome.output = None;
                match e {
                    // Ctrl-C came first: the page is left for the resume.
                    WriteError::Interrupted(_) => outcome.skipped = true,
                    e => outcome.write_error = Some(e.to_string()),
                }
            }
        }
        (wanted, _) => {
            let image = match wanted {
                Some(_) => RecordedImage::Nothing,
                None => RecordedImage::NotAsked,
            };
            if let Some((records, print)) = records {
                if let Err(e) = records.save(&name, print, &outcome, image) {
                    eprintln!(
                        "sudoku-snap: {}: not recorded for a resume: {e}",
                        unit.label()
                    );
                }
            }
        }
    }
    (outcome, false)
}

/// Reads one page and decides and draws its grids. With `image`, the
/// answer image is encoded and returned for the caller to write (its path
/// already in the outcome).
fn process(job: &Job, unit: &Unit, image: bool) -> (Outcome, Option<Vec<u8>>) {
    let args = job.args;
    let debug_dir = args.reader.debug_dir.as_deref();
    let render = Render {
        dpi: args.dpi,
        timeout: Duration::from_secs(args.page_timeout),
    };
    let read = unit.read(job.reader, &render, debug_dir);
    // The page's share of the run's memory is held until its answer is
    // drawn and encoded.
    let (mut page, dpi, share) = match read {
        Ok(read) => read,
        Err((_, ReadError::Io(e))) if e.kind() == std::io::ErrorKind::Interrupted => {
            let skipped = Outcome {
                skipped: true,
                ..Outcome::default()
            };
            return (skipped, None);
        }
        Err((dpi, ReadError::NoGrid)) => {
            let message = super::no_grid_message(&args.grid, unit.page().is_none());
            return (Outcome::failed(unit, dpi, Status::NoGrid, message), None);
        }
        Err((dpi, e)) => {
            return (
                Outcome::failed(unit, dpi, Status::Error, e.to_string()),
                None,
            )
        }
    };
    if let (Unit::Photo(path), Some(bytes)) = (unit, page.photo.file_bytes()) {
        job.stamp_read(path, bytes);
    }
    let name = unit.path().display().to_string();
    let start = Instant::now();
    let place = Place {
        name: &name,
        page: unit.page(),
        dpi,
    };
    let corrections = job.corrections_for(unit.path(), unit.page());
    let grids = corrections
        .cells_for(&page, &place)
        .and_then(|cells| answer::grids(&page, &place, &job.options, &cells));
    let mut grids = match grids {
        Ok(grids) => grids,
        Err(message) => return (Outcome::failed(unit, dpi, Status::Error, message), None),
    };
    page.timings.lap("solve", start);
    if grids.is_empty() {
        let failed = Outcome::failed(unit, dpi, Status::NoGrid, answer::NO_PUZZLE.into());
        return (failed, None);
    }
    let mut outcome = Outcome {
        unsearched: page.unsearched,
        ..Outcome::default()
    };
    let marks = answer::marks(&page, &grids);
    if let (Some(page_number), Some(dpi)) = (unit.page(), dpi) {
        if !marks.is_empty() {
            outcome.answers = Some(PageAnswers {
                page: page_number,
                dpi,
                parts: marks
                    .iter()
                    .filter_map(|m| {
                        let part = m.part(&page)?;
                        Some(PartAnswers::new(part, m.digits.clone(), m.rings.clone()))
                    })
                    .collect(),
            });
        }
    }
    let mut encoded = None;
    if image && !marks.is_empty() {
        let out = output_path(unit, args);
        match answer_image(&mut page, &marks, &out) {
            Ok(bytes) => {
                encoded = Some(bytes);
                outcome.output = Some(out);
            }
            Err(e) => outcome.write_error = Some(e.to_string()),
        }
    }
    for grid in &mut grids {
        if let Some(fields) = grid.report.photo.as_mut() {
            fields.output = outcome.output.as_ref().map(|p| p.display().to_string());
        }
        grid.report.ms = page.timings.clone();
    }
    outcome.key = books::key_records(unit, &grids);
    let alone = grids.len() == 1;
    outcome.grids = grids.into_iter().map(|g| line(unit, g, alone)).collect();
    // The page's share of memory goes with its buffers.
    output::free_aside((page, share));
    (outcome, encoded)
}

/// A grid's printed line; `alone` when it is its page's only grid (then
/// its place is the page's).
fn line(unit: &Unit, grid: GridResult, alone: bool) -> Line {
    let number = grid.report.photo.as_ref().and_then(|f| f.grid).unwrap_or(1);
    let why = match grid.status {
        Status::Solved | Status::Complete if grid.report.error.is_none() => String::new(),
        status => grid
            .report
            .error
            .clone()
            .unwrap_or_else(|| status.as_str().replace('_', " ")),
    };
    let why = match grid.status {
        Status::NoSolution | Status::MultipleSolutions => {
            format!("{}: {why}", grid.status.as_str().replace('_', " "))
        }
        _ => why,
    };
    Line {
        status: grid.status,
        json: grid.report.to_json_line(),
        text: grid.text,
        place: if alone {
            unit.label()
        } else {
            format!("{} grid {number}", unit.label())
        },
        why,
        answer_grid: grid.answer_grid,
        stderr: None,
    }
}

/// Standard output for the batch, in the mode the options ask for. A closed
/// pipe (`| head`) stops the printing, not the batch: the answers, records
/// and books are still written, and the run ends with its results' exit
/// code (see `docs/books.md`).
pub struct Printer {
    out: std::io::Stdout,
    json: bool,
    /// Every grid's text lines: `-v`, or a run of one photo or page.
    every_grid: bool,
    quiet: bool,
    /// Standard output was closed by its reader.
    pub closed: bool,
}

impl Printer {
    fn new(args: &PhotoArgs, batch: bool) -> Printer {
        Printer {
            out: std::io::stdout(),
            json: args.json,
            every_grid: args.verbose || (!batch && !args.quiet),
            quiet: args.quiet,
            closed: false,
        }
    }

    /// Writes `text` unless the reader has gone; another write error (a
    /// full disk under a redirect) ends the run.
    pub fn write(&mut self, text: &str) -> Result<(), Error> {
        if self.closed || text.is_empty() {
            return Ok(());
        }
        let mut out = self.out.lock();
        match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            Err(e) => Err(Error::Output(e)),
        }
    }

    /// A message for standard error, unless `--quiet`.
    pub fn note(&self, text: &str) {
        if !self.quiet {
            eprintln!("sudoku-snap: {text}");
        }
    }

    /// Prints one page's lines and errors; returns its exit code. A PDF page
    /// without a grid (a cover, a page of text) is normal in a book and does
    /// not change the exit code; the book as a whole does (see
    /// [`books::finish`]). Nor does a printed answer grid read in doubt: no
    /// puzzle was left unsolved (the summary names it).
    fn page(&mut self, outcome: &Outcome, unit: &Unit) -> Result<ExitCode, Error> {
        let mut code = ExitCode::Success;
        if outcome.skipped {
            return Ok(code);
        }
        if let Some(e) = &outcome.write_error {
            self.note(&format!("{}: {e}", unit.label()));
            code = ExitCode::Error;
        }
        if outcome.unsearched > 0 {
            // Grids may be among them: not every grid was solved.
            self.note(&super::unsearched_note(&unit.label(), outcome.unsearched));
            code = code.merge(ExitCode::NotSolved);
        }
        for line in outcome.failure.iter().chain(&outcome.grids) {
            if let Some(message) = &line.stderr {
                self.note(message);
            }
            if self.json {
                self.write(&line.json)?;
            } else if self.every_grid {
                self.write(&line.text)?;
            }
            code = code.merge(line_code(line, unit.page().is_some()));
        }
        if let (Some(p), false, true) = (&outcome.output, self.json, self.every_grid) {
            self.write(&format!("  answer image: {}\n", p.display()))?;
        }
        Ok(code)
    }
}

/// The exit code one printed line asks for: its status's, except for what
/// is normal in a book: a PDF page without a grid, and a printed answer
/// grid read in doubt (named in the summary; no puzzle was left unsolved).
/// A complete grid that is not valid (a finished board with a wrong
/// entry: `complete` with the clash as its reason) is no solution.
fn line_code(line: &Line, pdf_page: bool) -> ExitCode {
    let normal = (line.status == Status::NoGrid && pdf_page)
        || (line.answer_grid && line.status == Status::Unsure);
    if normal {
        ExitCode::Success
    } else if line.status == Status::Complete && !line.why.is_empty() {
        ExitCode::NotSolved
    } else {
        ExitCode::from(line.status)
    }
}

/// Where the answer image for a page goes: `-o`, or `<stem>.solved.<ext>`
/// (`<stem>.p012.solved.png` for PDF page 12) in `--out-dir` or the
/// current folder. A JPEG photo's answer is JPEG; PDF pages are PNG.
fn output_path(unit: &Unit, args: &PhotoArgs) -> PathBuf {
    if let Some(o) = args.output.as_ref().filter(|o| !is_pdf_name(o)) {
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

/// The answer image, `marks` drawn on `page`, encoded as `out`'s extension
/// says (every output name was checked before the batch; PNG if one
/// somehow was not). A JPEG answer to a JPEG photo is made from the
/// photo's own file where it can be ([`output::answer_in_place`]), else
/// drawn on the decoded photo and encoded whole.
fn answer_image(page: &mut Page, marks: &[PartMarks], out: &Path) -> Result<Vec<u8>, WriteError> {
    let kind = output::ImageKind::for_output(out).unwrap_or(output::ImageKind::Png);
    if kind == output::ImageKind::Jpeg {
        if let Some(bytes) = output::answer_in_place(page, marks) {
            return Ok(bytes);
        }
    }
    let start = Instant::now();
    let drawn = answer::draw(page, marks).unwrap_or_else(|| page.photo.take_rgb());
    let t = page.timings.lap("overlay", start);
    let encoded =
        output::encode_image(&drawn, kind).map_err(|e| WriteError::Io(out.to_path_buf(), e));
    page.timings.lap("encode", t);
    encoded
}

/// Record names of every page of `book`, for reading the records of pages
/// this run did not do.
pub fn page_record_name(
    book: &Arc<BookFile>,
    page: usize,
    width: usize,
    args: &PhotoArgs,
) -> String {
    let unit = Unit::PdfPage {
        book: Arc::clone(book),
        page,
        // A name does not depend on the page's size.
        size_pt: (0.0, 0.0),
        width,
    };
    record_name(&unit, args)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answer_grids_in_doubt_and_blank_pages_leave_the_exit_code_alone() {
        let line = |status: Status, answer_grid: bool| Line {
            status,
            json: String::new(),
            text: String::new(),
            place: String::new(),
            why: String::new(),
            answer_grid,
            stderr: None,
        };
        assert_eq!(
            line_code(&line(Status::Unsure, true), true),
            ExitCode::Success
        );
        let invalid = Line {
            why: "givens clash: r1c1 and r1c2 are both 5".into(),
            ..line(Status::Complete, true)
        };
        assert_eq!(line_code(&invalid, false), ExitCode::NotSolved);
        assert_eq!(
            line_code(&line(Status::Unsure, false), true),
            ExitCode::NotSolved
        );
        assert_eq!(
            line_code(&line(Status::Complete, true), false),
            ExitCode::Success
        );
        assert_eq!(
            line_code(&line(Status::NoGrid, false), true),
            ExitCode::Success
        );
        assert_eq!(
            line_code(&line(Status::NoGrid, false), false),
            ExitCode::NotSolved
        );
        assert_eq!(
            line_code(&line(Status::NoSolution, true), true),
            ExitCode::NotSolved
        );
        assert_eq!(
            line_code(&line(Status::Error, false), true),
            ExitCode::Error
        );
    }
}
