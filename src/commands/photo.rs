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

use crate::cli::PhotoArgs;
use crate::error::Error;
use crate::exit_codes::ExitCode;
use crate::output::{self, WriteError};
use crate::report::{round4, PhotoFields, Report, Status};
use snap_solver::Outcome as SolveOutcome;
use snap_solver::{Board, Shape};
use snap_vision::decide::Decision;
use snap_vision::overlay;
use snap_vision::pipeline::{self, ReadError, Reader, Solved};
use snap_vision::rectify::GRID_PX;

/// Cells of a classic grid, the only shape the photo side reads today.
const CELLS: usize = 81;

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

/// What became of one photo, ready to print.
struct Outcome {
    status: Status,
    /// Human-readable lines for standard output.
    text: String,
    /// The `--json` line.
    json: Report,
    /// An error line for standard error (with the photo's name), if any.
    error: Option<String>,
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
    let color = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let bar = progress_bar(photos.len());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .build()
        .map_err(|e| Error::Usage(format!("cannot start worker threads: {e}")))?;
    let reports: Vec<Outcome> = pool.install(|| {
        photos
            .par_iter()
            .map(|p| {
                let r = process(&reader, p, args, &overrides, &photos, color);
                bar.inc(1);
                r
            })
            .collect()
    });
    bar.finish_and_clear();
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut code = ExitCode::Success;
    let mut failed = Vec::new();
    for (report, path) in reports.iter().zip(&photos) {
        if let Some(e) = &report.error {
            eprintln!("sudoku-snap: {e}");
        }
        let written = if args.json {
            out.write_all(report.json.to_json_line().as_bytes())
        } else {
            out.write_all(report.text.as_bytes())
        };
        written.map_err(Error::Output)?;
        code = code.merge(report.status.exit_code());
        if report.status != Status::Solved {
            failed.push(path.display().to_string());
        }
    }
    if photos.len() > 1 && !args.json {
        let solved = photos.len() - failed.len();
        let _ = writeln!(out, "{solved} of {} photos solved", photos.len());
        if !failed.is_empty() {
            let _ = writeln!(out, "not solved: {}", failed.join(", "));
        }
    }
    Ok(code)
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
    overrides: &[(usize, u8)],
    inputs: &[PathBuf],
    color: bool,
) -> Outcome {
    let name = path.display().to_string();
    let reading = match output::unless_interrupted(|| reader.read_file(path)) {
        Ok(r) => r,
        Err(ReadError::NoGrid) => {
            let text = format!("{name}: no Sudoku grid found\n");
            return Outcome {
                status: Status::NoGrid,
                json: Report::failure(&name, Status::NoGrid, "no Sudoku grid found".into(), true),
                text,
                error: None,
            };
        }
        Err(e) => {
            let message = e.to_string();
            return Outcome {
                status: Status::Error,
                error: Some(format!("{name}: {message}")),
                json: Report::failure(&name, Status::Error, message, true),
                text: String::new(),
            };
        }
    };
    let mut solved = pipeline::solve_reading(reading, overrides, true);
    let mut written: Option<Result<PathBuf, WriteError>> = None;
    if let (SolveOutcome::Unique(solution), false) = (&solved.decision.outcome, args.no_image) {
        let out = output_path(path, args);
        let start = Instant::now();
        let image = draw_answer(&solved, solution);
        let t = solved.reading.timings.lap("overlay", start);
        written = Some(encode_answer(&image, &out).and_then(|bytes| {
            let r = output::write_atomic(&out, &bytes, args.force, inputs);
            solved.reading.timings.lap("encode", t);
            r.map(|_| out.clone())
        }));
    }
    report(&name, &solved, written, color)
}

/// The photo with the missing digits drawn in, at full resolution. When the
/// grid had to be turned to read upright and the EXIF tag says the same, the
/// tag was right and the image is turned to how the user sees the photo;
/// otherwise (no tag, or a stale one) pixels keep their stored orientation.
fn draw_answer(solved: &Solved, solution: &Board) -> RgbImage {
    let reading = &solved.reading;
    let mut image = reading.photo.rgb.clone();
    let givens = &solved.decision.givens;
    let digits: Vec<(usize, u8)> = (0..CELLS)
        .filter(|&i| givens.cells[i] == 0)
        .map(|i| (i, solution.cells[i]))
        .collect();
    // The homography comes from a valid quad, so it inverts; if it somehow
    // does not, the photo is returned without digits rather than failing.
    let _ = overlay::draw_digits(&mut image, &reading.grid_to_photo, GRID_PX as f32, &digits);
    let exif_turns = match reading.photo.exif_orientation {
        6 => 1,
        3 => 2,
        8 => 3,
        _ => 0,
    };
    if exif_turns != 0 && exif_turns == reading.quarter_turns {
        image = match exif_turns {
            1 => image::imageops::rotate90(&image),
            2 => image::imageops::rotate180(&image),
            _ => image::imageops::rotate270(&image),
        };
    }
    image
}

/// The answer image encoded as its output's extension says (every output
/// name was checked before the batch; PNG if one somehow was not).
fn encode_answer(image: &RgbImage, out: &Path) -> Result<Vec<u8>, WriteError> {
    let kind = output::ImageKind::for_output(out).unwrap_or(output::ImageKind::Png);
    output::encode_image(image, kind).map_err(|e| WriteError::Io(out.to_path_buf(), e))
}

/// The hint shown when a photo could not be solved.
fn set_hint(decision: &Decision) -> String {
    let cell = decision.read.clashes().first().map_or_else(
        || "r1c1".to_string(),
        |&(a, _)| Shape::classic().cell_name(a),
    );
    format!("if a cell was misread, correct it with --set {cell}=D (or {cell}=. for empty)")
}

fn report(
    name: &str,
    solved: &Solved,
    written: Option<Result<PathBuf, WriteError>>,
    color: bool,
) -> Outcome {
    let d = &solved.decision;
    let status = Status::from_count(d.outcome.count());
    let solution = match &d.outcome {
        SolveOutcome::Unique(g) => Some(g),
        _ => None,
    };
    let ms = solved.reading.timings.total();
    let changes: Vec<String> = d.changes.iter().map(|c| c.to_string()).collect();
    let mut text = String::new();
    match (&d.problem, status) {
        (None, Status::Solved) => text.push_str(&format!(
            "{name}: solved in {ms:.0} ms, confidence {:.2}\n",
            d.confidence
        )),
        (problem, _) => {
            let why = problem
                .clone()
                .unwrap_or_else(|| status.as_str().replace('_', " "));
            text.push_str(&format!(
                "{name}: not solved, no repair found: {why}; {}\n",
                set_hint(d)
            ));
        }
    }
    if !changes.is_empty() {
        text.push_str(&format!("  repaired: {}\n", changes.join(", ")));
    }
    text.push_str(&side_by_side(&d.givens, solution, color));
    let mut error = None;
    let mut status = status;
    let mut output = None;
    match written {
        Some(Ok(p)) => {
            text.push_str(&format!("  answer image: {}\n", p.display()));
            output = Some(p.display().to_string());
        }
        Some(Err(e)) => {
            error = Some(format!("{name}: {e}"));
            status = Status::Error;
        }
        None => {}
    }
    let json = Report {
        path: name.to_string(),
        line: None,
        shape: Some(d.givens.shape.name()),
        status,
        givens: Some(d.givens.to_line()),
        solution: solution.map(Board::to_line),
        solutions: d.outcome.count(),
        confidence: Some(round4(d.confidence)),
        error: error.clone().or_else(|| d.problem.clone()),
        photo: Some(PhotoFields {
            read: Some(d.read.to_line()),
            repairs: changes,
            unsure: None,
            rotation: Some(u32::from(solved.reading.quarter_turns) * 90),
            orientations_tried: None,
            quad: Some(solved.reading.quad.corners),
            output,
        }),
        logic: None,
        ms: solved.reading.timings.clone(),
    };
    Outcome {
        status,
        text,
        json,
        error,
    }
}

/// The grid as read and the solution, side by side; filled-in digits are
/// blue when the output is a terminal.
fn side_by_side(givens: &Board, solution: Option<&Board>, color: bool) -> String {
    let read = givens.to_pretty();
    let solved = solution.map(|s| s.to_pretty());
    let mut out = String::new();
    out.push_str(&format!(
        "  {:<24}{}\n",
        "read",
        if solved.is_some() { "solution" } else { "" }
    ));
    let solved_lines: Vec<&str> = solved
        .as_deref()
        .map_or_else(Vec::new, |s| s.lines().collect());
    for (i, line) in read.lines().enumerate() {
        out.push_str("  ");
        out.push_str(line);
        if let Some(sline) = solved_lines.get(i) {
            out.push_str("   ");
            out.push_str(&color_filled(sline, line, color));
        }
        out.push('\n');
    }
    out
}

/// Marks the characters of a solution line that were empty in the read
/// line (the filled-in digits).
fn color_filled(solution_line: &str, read_line: &str, color: bool) -> String {
    if !color {
        return solution_line.to_string();
    }
    solution_line
        .chars()
        .zip(read_line.chars())
        .map(|(s, r)| {
            if r == '.' && s.is_ascii_digit() {
                format!("\x1b[1;34m{s}\x1b[0m")
            } else {
                s.to_string()
            }
        })
        .collect()
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

    #[test]
    fn filled_digits_are_coloured_only_on_terminals() {
        assert_eq!(color_filled("1 2", ". 2", false), "1 2");
        assert_eq!(color_filled("1 2", ". 2", true), "\x1b[1;34m1\x1b[0m 2");
    }
}
