//! A PDF's own outputs, made once all its pages are done: the solved book
//! (`<stem>.solved.pdf`, every page with the answers drawn in) and the
//! answer key (`<stem>.answers.pdf`). Both are made from the results of
//! every page of the book: those of this run, and with `--out-dir` the
//! records of the pages earlier runs (or other shards) did, so a run of
//! `--pages 2` on a book done before gives the whole book's key, not page
//! 2's.
//!
//! Neither is ever replaced by one that covers fewer pages without
//! `--force`: with `--out-dir` each is recorded with the pages it covers and
//! its bytes, and an existing one is replaced only when it is still the
//! file this program wrote (by its bytes) and the new one covers every
//! page it did. A file with exactly the new bytes is left alone. The file
//! is written before its record: a kill between the two leaves a file
//! whose bytes the next run finds equal to its own, and adopts.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use snap_solver::{Board, Shape};
use snap_vision::{answered_pdf, PageAnswers};

use super::inputs::{self, BookFile, Unit};
use super::photo::{self, Job, Outcome, Printer};
use super::plural;
use super::resume::{BookRecord, Loaded, Stamp};
use super::summary::Summary;
use crate::book::{self, KeyEntry};
use crate::cli::PhotoArgs;
use crate::exit_codes::ExitCode;
use crate::output::{self, WriteError};
use snap_answer::answer::GridResult;
use snap_answer::report::Status;

/// A solved grid of a PDF page, for the answer key.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct KeyRecord {
    page: usize,
    grid: usize,
    givens: String,
    solution: String,
}

/// The solved grids of a PDF page, for its book's answer key. Only a sure
/// answer goes in the key: an unsure grid's answer is for checking.
pub fn key_records(unit: &Unit, grids: &[GridResult]) -> Vec<KeyRecord> {
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

/// The folder a book's outputs go to: `--out-dir`, or the current one.
fn out_dir(args: &PhotoArgs) -> PathBuf {
    args.out_dir.clone().unwrap_or_default()
}

/// Where a PDF's answer key goes: `<stem>.answers.pdf` beside its other
/// answers; `None` with `--no-image`.
pub fn key_path(pdf: &Path, args: &PhotoArgs) -> Option<PathBuf> {
    (!args.no_image).then(|| out_dir(args).join(format!("{}.answers.pdf", inputs::file_stem(pdf))))
}

/// Where a PDF's solved book goes: `-o` when it names a PDF, else
/// `<stem>.solved.pdf` beside its other answers; `None` with `--no-image`
/// or when `-o` names one page's image instead.
pub fn solved_path(pdf: &Path, args: &PhotoArgs) -> Option<PathBuf> {
    if args.no_image {
        return None;
    }
    match &args.output {
        Some(o) if photo::is_pdf_name(o) => Some(o.clone()),
        Some(_) => None,
        None => Some(out_dir(args).join(format!("{}.solved.pdf", inputs::file_stem(pdf)))),
    }
}

/// What one page gave its book.
#[derive(Debug, Default)]
struct PageInfo {
    /// Read to the end (grids found or not).
    read: bool,
    grids: usize,
    key: Vec<KeyRecord>,
    answers: Option<PageAnswers>,
}

/// What a PDF gave over all its pages.
pub struct Book {
    /// The PDF, opened again for the solved book.
    file: Arc<BookFile>,
    /// Digits of page numbers in names (see `Unit::PdfPage`).
    width: usize,
    pages: BTreeMap<usize, PageInfo>,
}

impl Book {
    /// A book of which no page is known yet.
    pub fn new(file: Arc<BookFile>, width: usize) -> Book {
        Book {
            file,
            width,
            pages: BTreeMap::new(),
        }
    }

    /// Takes page `page`'s outcome.
    pub fn add(&mut self, page: usize, outcome: &Outcome) {
        if outcome.skipped {
            return;
        }
        let read = !outcome
            .failure
            .as_ref()
            .is_some_and(|f| f.status == Status::Error);
        self.pages.insert(
            page,
            PageInfo {
                read,
                grids: outcome.grids.len(),
                key: outcome.key.clone(),
                answers: outcome.answers.clone(),
            },
        );
    }

    /// The results of the book's other pages, from the records of earlier
    /// runs (and other shards) made under the same options.
    fn add_recorded(&mut self, path: &Path, job: &Job) {
        let Some(records) = &job.records else { return };
        for page in 1..=self.file.pages() {
            if self.pages.contains_key(&page) {
                continue;
            }
            let Some(print) = job.fingerprint(path, Some(page)) else {
                return;
            };
            let name = photo::page_record_name(&self.file, page, self.width, job.args);
            if let Loaded::Done(outcome) = records.load::<Outcome>(&name, &print, None) {
                self.add(page, &outcome);
            }
        }
    }
}

/// Ends a book: writes its solved PDF and answer key (unless
/// `--no-image`), names them in the summary, and returns the book's exit
/// code: not solved when pages were read and none had a grid, an error when
/// an output could not be written.
pub fn finish(
    book: &mut Book,
    path: &Path,
    job: &Job,
    summary: &mut Summary,
    printer: &Printer,
) -> ExitCode {
    let args = job.args;
    book.add_recorded(path, job);
    let name = path.display();
    let grids: usize = book.pages.values().map(|p| p.grids).sum();
    let covered: Vec<usize> = book
        .pages
        .iter()
        .filter(|(_, p)| p.read)
        .map(|(&page, _)| page)
        .collect();
    if grids == 0 && !covered.is_empty() {
        summary.note(format!("{name}: no Sudoku grid found on the pages read"));
        return ExitCode::NotSolved;
    }
    let mut code = ExitCode::Success;
    let entries: Vec<KeyEntry> = book
        .pages
        .values()
        .flat_map(|p| p.key.iter().filter_map(key_entry))
        .collect();
    if let Some(key) = key_path(path, args).filter(|_| !entries.is_empty()) {
        let title = format!(
            "Answers: {}",
            path.file_name()
                .map_or_else(|| name.to_string(), |n| n.to_string_lossy().into_owned())
        );
        let bytes = book::answer_key(&entries, &title);
        let what = format!("answer key ({})", plural(entries.len(), "grid"));
        code = code.merge(report(
            write_book_output(&key, &bytes, &covered, job),
            &what,
            &key,
            summary,
            printer,
        ));
    }
    let answers: Vec<PageAnswers> = book
        .pages
        .values()
        .filter_map(|p| p.answers.clone())
        .collect();
    if let Some(solved) = solved_path(path, args).filter(|_| !answers.is_empty()) {
        let written = book
            .file
            .open()
            .and_then(|doc| answered_pdf(&doc, &answers))
            .map_err(|e| {
                BookWrite::Failed(format!(
                    "{}: solved book not written: {}",
                    name,
                    inputs::reason(&e, path)
                ))
            })
            .and_then(|bytes| write_book_output(&solved, &bytes, &covered, job));
        code = code.merge(report(written, "solved book", &solved, summary, printer));
    }
    code
}

/// What became of a book output.
#[derive(Debug)]
enum BookWrite {
    /// Written now.
    Written,
    /// The file already held exactly these bytes.
    Unchanged,
    /// Kept: it covers pages this run has no results for.
    Kept { theirs: usize, ours: usize },
    /// Not written (the reason, one line naming the file).
    Failed(String),
}

/// Puts the outcome of writing `path` in the summary (or on standard error
/// when it failed); returns the exit code it asks for.
fn report(
    written: Result<BookWrite, BookWrite>,
    what: &str,
    path: &Path,
    summary: &mut Summary,
    printer: &Printer,
) -> ExitCode {
    match written.unwrap_or_else(|e| e) {
        BookWrite::Written | BookWrite::Unchanged => {
            summary.books.push(format!("{what}: {}", path.display()));
            ExitCode::Success
        }
        BookWrite::Kept { theirs, ours } => {
            let note = format!(
                "{} kept: it holds the results of {}, this run has {ours} \
                 (use --force to replace it)",
                path.display(),
                plural(theirs, "page"),
            );
            printer.note(&note);
            summary.note(note);
            ExitCode::Success
        }
        BookWrite::Failed(message) => {
            printer.note(&message);
            summary.note(message);
            ExitCode::Error
        }
    }
}

/// Writes a book output of `covered` pages (see the module notes for when
/// an existing file is replaced).
fn write_book_output(
    path: &Path,
    bytes: &[u8],
    covered: &[usize],
    job: &Job,
) -> Result<BookWrite, BookWrite> {
    let stamp = Stamp::of_bytes(bytes);
    let existing = Stamp::of_file(path);
    let name = path
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let record = BookRecord {
        pages: covered.to_vec(),
        stamp,
    };
    let save_record = || {
        if let Some(records) = &job.records {
            // A lost record only costs the next run's replacing the file
            // without --force: worth a note, not a failure.
            if let Err(e) = records.save_book(&name, &record) {
                eprintln!("sudoku-snap: {}: not recorded: {e}", path.display());
            }
        }
    };
    if existing == Some(stamp) {
        save_record();
        return Ok(BookWrite::Unchanged);
    }
    let mut replace = job.args.force;
    if let (Some(on_disk), false) = (existing, replace) {
        let recorded = job.records.as_ref().and_then(|r| r.load_book(&name));
        match recorded {
            Some(old) if old.stamp == on_disk => {
                if !old.pages.iter().all(|p| covered.contains(p)) {
                    return Err(BookWrite::Kept {
                        theirs: old.pages.len(),
                        ours: covered.len(),
                    });
                }
                replace = true;
            }
            _ => {
                return Err(BookWrite::Failed(
                    WriteError::Exists(path.to_path_buf()).to_string(),
                ))
            }
        }
    }
    output::write_atomic(path, bytes, replace, &job.inputs)
        .map_err(|e| BookWrite::Failed(e.to_string()))?;
    save_record();
    Ok(BookWrite::Written)
}
