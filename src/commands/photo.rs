//! The main job, `sudoku-snap photo.jpg ...`: read, repair, solve, draw.
//!
//! Photos are processed in parallel (rayon) with a progress bar for
//! batches; results print in input order. A photo that fails is reported
//! with its name and the reason, and the batch goes on.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use image::RgbImage;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use snap_vision::pipeline::{ReadError, Reader};

use super::answer::{self, GridResult};
use crate::cli::PhotoArgs;
use crate::error::Error;
use crate::exit_codes::ExitCode;
use crate::output::{self, WriteError};
use crate::report::{Report, Status};

/// File name endings taken from a folder.
const IMAGE_EXTENSIONS: [&str; 8] = ["jpg", "jpeg", "png", "webp", "bmp", "tif", "tiff", "gif"];

/// Parses `--set` values: `r3c4=7` sets a digit, `r5c1=.` (or `0`) empties a cell.
pub fn parse_overrides(values: &[String]) -> Result<Vec<(usize, u8)>, Error> {
    snap_solver::overrides::parse_overrides(values).map_err(Error::Usage)
}

/// The photos named on the command line, folders expanded to the images in
/// them (sorted by name, not recursive).
pub fn expand_inputs(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for path in paths {
        match std::fs::read_dir(path) {
            Ok(entries) if path.is_dir() => {
                let mut found: Vec<PathBuf> = entries
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| is_image_name(p))
                    .collect();
                found.sort();
                out.extend(found);
            }
            // Files, and folders that cannot be listed, go through as they
            // are: reading them reports the problem with their name.
            _ => out.push(path.clone()),
        }
    }
    out
}

/// True when the path ends in an image extension and is not one of our outputs.
pub fn is_image_name(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase());
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match (name, ext) {
        (Some(n), Some(e)) => IMAGE_EXTENSIONS.contains(&e.as_str()) && !n.contains(".solved."),
        _ => false,
    }
}

/// What became of one input (a photo), ready to print.
struct Outcome {
    /// One result per grid; empty when no grid was found or the input
    /// could not be read.
    grids: Vec<GridResult>,
    /// The line(s) for an input without grids (no grid, unreadable).
    failure: Option<(Status, Report, String)>,
    /// Where the answer image went, or why it could not be written.
    written: Option<Result<PathBuf, WriteError>>,
}

/// Runs the main job on every photo of `args`; returns the merged exit code.
pub fn run(args: &PhotoArgs) -> Result<ExitCode, Error> {
    let overrides = parse_overrides(&args.set)?;
    let photos = expand_inputs(&args.photos);
    if photos.is_empty() {
        return Err(Error::Usage(
            "no photos given (try `sudoku-snap --help`)".to_string(),
        ));
    }
    if args.output.is_some() && photos.len() > 1 {
        return Err(Error::Usage(
            "-o/--output names one file; with several photos use --out-dir".to_string(),
        ));
    }
    if let Some(dir) = &args.out_dir {
        if !dir.is_dir() {
            return Err(Error::Usage(format!(
                "--out-dir {}: not a folder",
                dir.display()
            )));
        }
    }
    if !args.no_image {
        // Every output is known before any work starts: a bad name, or two
        // photos that would write one file, stop the run here.
        let pairs: Vec<(PathBuf, PathBuf)> = photos
            .iter()
            .map(|p| (p.clone(), output_path(p, args)))
            .collect();
        for (_, out) in &pairs {
            output::ImageKind::for_output(out).map_err(Error::Usage)?;
        }
        output::check_distinct_outputs(&pairs).map_err(Error::Usage)?;
    }
    output::install_interrupt_handler();
    let reader = super::reader(&args.reader)?;
    let options = answer::Options {
        overrides,
        check: args.check,
    };
    let bar = progress_bar(photos.len());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .build()
        .map_err(|e| Error::Usage(format!("cannot start worker threads: {e}")))?;
    let outcomes: Vec<Outcome> = pool.install(|| {
        photos
            .par_iter()
            .map(|p| {
                let r = process(&reader, p, args, &options, &photos);
                bar.inc(1);
                r
            })
            .collect()
    });
    bar.finish_and_clear();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut code = ExitCode::Success;
    let mut summary = Summary::default();
    for (outcome, path) in outcomes.iter().zip(&photos) {
        let name = path.display().to_string();
        code = code.merge(print(&mut out, outcome, &name, args.json)?);
        summary.add(&name, outcome);
    }
    if photos.len() > 1 && !args.json {
        out.write_all(summary.text(photos.len()).as_bytes())
            .map_err(Error::Output)?;
    }
    Ok(code)
}

/// Prints one input's lines (JSON or text) and its errors; returns its
/// exit code.
fn print(
    out: &mut dyn Write,
    outcome: &Outcome,
    name: &str,
    json: bool,
) -> Result<ExitCode, Error> {
    let mut code = ExitCode::Success;
    let output = match &outcome.written {
        Some(Ok(p)) => Some(p.display().to_string()),
        Some(Err(e)) => {
            eprintln!("sudoku-snap: {name}: {e}");
            code = ExitCode::Error;
            None
        }
        None => None,
    };
    if let Some((status, report, text)) = &outcome.failure {
        if *status == Status::Error {
            eprintln!(
                "sudoku-snap: {name}: {}",
                report.error.clone().unwrap_or_default()
            );
        }
        let line = if json {
            report.to_json_line()
        } else {
            text.clone()
        };
        out.write_all(line.as_bytes()).map_err(Error::Output)?;
        return Ok(code.merge(status.exit_code()));
    }
    for grid in &outcome.grids {
        let line = if json {
            let mut report = grid.report.clone();
            if let Some(fields) = report.photo.as_mut() {
                fields.output = output.clone();
            }
            report.to_json_line()
        } else {
            grid.text.clone()
        };
        out.write_all(line.as_bytes()).map_err(Error::Output)?;
        code = code.merge(grid.status.exit_code());
    }
    if let (Some(p), false) = (&output, json) {
        writeln!(out, "  answer image: {p}").map_err(Error::Output)?;
    }
    Ok(code)
}

/// The batch summary: inputs, grids found and what became of them, with
/// the place of every grid that was not solved.
#[derive(Debug, Default)]
struct Summary {
    grids: usize,
    solved: usize,
    partial: usize,
    problems: Vec<String>,
}

impl Summary {
    fn add(&mut self, name: &str, outcome: &Outcome) {
        if let Some((status, _, _)) = &outcome.failure {
            self.problems
                .push(format!("{name} ({})", status.as_str().replace('_', " ")));
            return;
        }
        for g in &outcome.grids {
            self.grids += 1;
            match g.status {
                Status::Solved | Status::Complete => self.solved += 1,
                Status::Partial => self.partial += 1,
                status => {
                    let number = g.report.photo.as_ref().and_then(|f| f.grid).unwrap_or(1);
                    self.problems.push(format!(
                        "{name} grid {number} ({})",
                        status.as_str().replace('_', " ")
                    ));
                }
            }
        }
    }

    fn text(&self, inputs: usize) -> String {
        let not_solved = self.grids - self.solved - self.partial;
        let mut s = format!(
            "{inputs} inputs: {} grids found, {} solved, {} partial, {not_solved} not solved\n",
            self.grids, self.solved, self.partial
        );
        if !self.problems.is_empty() {
            s.push_str(&format!("not solved: {}\n", self.problems.join(", ")));
        }
        s
    }
}

fn progress_bar(n: usize) -> ProgressBar {
    if n < 2 || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(n as u64);
    if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} photos {elapsed}") {
        bar.set_style(style);
    }
    bar
}

/// Where the answer image for `photo` goes.
fn output_path(photo: &Path, args: &PhotoArgs) -> PathBuf {
    if let Some(o) = &args.output {
        return o.clone();
    }
    let stem = photo
        .file_stem()
        .map_or_else(|| "photo".into(), |s| s.to_string_lossy().into_owned());
    let kind = output::ImageKind::for_input(photo);
    let name = format!("{stem}.solved.{}", kind.extension());
    match &args.out_dir {
        Some(dir) => dir.join(name),
        None => PathBuf::from(name),
    }
}

fn process(
    reader: &Reader,
    path: &Path,
    args: &PhotoArgs,
    options: &answer::Options,
    inputs: &[PathBuf],
) -> Outcome {
    let name = path.display().to_string();
    let failure = |status: Status, message: String, text: String| Outcome {
        grids: Vec::new(),
        failure: Some((status, Report::failure(&name, status, message, true), text)),
        written: None,
    };
    let mut page = match output::unless_interrupted(|| reader.read_file(path)) {
        Ok(page) => page,
        Err(ReadError::NoGrid) => {
            let text = format!("{name}: no Sudoku grid found\n");
            return failure(Status::NoGrid, "no Sudoku grid found".into(), text);
        }
        Err(e) => return failure(Status::Error, e.to_string(), String::new()),
    };
    let start = Instant::now();
    let grids = answer::grids(&page, &name, None, None, options);
    page.timings.lap("solve", start);
    if grids.is_empty() {
        let text = format!("{name}: no Sudoku puzzle found (only empty or unreadable grids)\n");
        return failure(Status::NoGrid, "no Sudoku puzzle found".into(), text);
    }
    let mut written = None;
    if !args.no_image {
        let start = Instant::now();
        if let Some(image) = answer::draw(&page, &grids) {
            let t = page.timings.lap("overlay", start);
            let out = output_path(path, args);
            written = Some(encode_answer(&image, &out).and_then(|bytes| {
                let r = output::write_atomic(&out, &bytes, args.force, inputs);
                page.timings.lap("encode", t);
                r.map(|_| out.clone())
            }));
        }
    }
    Outcome {
        grids,
        failure: None,
        written,
    }
}

/// The answer image encoded as its output's extension says (every output
/// name was checked before the batch; PNG if one somehow was not).
fn encode_answer(image: &RgbImage, out: &Path) -> Result<Vec<u8>, WriteError> {
    let kind = output::ImageKind::for_output(out).unwrap_or(output::ImageKind::Png);
    output::encode_image(image, kind).map_err(|e| WriteError::Io(out.to_path_buf(), e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_parse() {
        let v = parse_overrides(&["r3c4=7".into(), "R5C1=.".into(), "r9c9=0".into()]).unwrap();
        assert_eq!(v, vec![(21, 7), (36, 0), (80, 0)]);
        for bad in ["r0c1=1", "r3c4", "r3c4=10", "x3c4=1", "r3c10=1", "r3c4=a"] {
            assert!(parse_overrides(&[bad.into()]).is_err(), "{bad}");
        }
    }

    #[test]
    fn image_names() {
        assert!(is_image_name(Path::new("a/photo.JPG")));
        assert!(is_image_name(Path::new("scan.tiff")));
        assert!(!is_image_name(Path::new("photo.solved.png")));
        assert!(!is_image_name(Path::new("notes.txt")));
    }
}
