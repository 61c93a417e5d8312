//! `sudoku-snap hint`: only the next step, for a person stuck on a puzzle
//! who wants to go on by themselves, not to see the whole answer.
//!
//! A photo is read as the main job reads it (every grid, the same decision
//! stage, `--set` to correct a cell); each grid's step, or why there is
//! none, comes from `snap_answer::hint`, is printed, and is drawn onto the
//! photo with the step in words in a band under it. A grid the reader is
//! unsure of gets no step: the `--set` that would settle each cell to
//! check is printed.
//!
//! A text puzzle (a file or standard input, recognised by content) gets
//! the step line only.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use snap_answer::answer;
use snap_answer::hint::{self, photo_hint, text_hint, Hint};
use snap_answer::report::{json_line, Status};
use snap_solver::{PuzzleReader, Shape};
use snap_vision::{ReadError, MAX_FILE_BYTES};

use super::corrections::Corrections;
use super::inputs::Unit;
use crate::cli::HintArgs;
use crate::error::Error;
use crate::exit_codes::ExitCode;
use crate::output::{self, ImageKind};

/// Runs `hint` on its input; returns the exit code.
pub fn run(args: &HintArgs) -> Result<ExitCode, Error> {
    let path = args.input.as_deref().filter(|p| p.as_os_str() != "-");
    let name = super::input_name(path);
    let bytes = match super::puzzle_argument(path) {
        Some(text) => text.into_bytes(),
        None => read_input(path).map_err(|e| match path {
            Some(p) => super::open_error(e, p),
            None => super::io_error(e, &name),
        })?,
    };
    if bytes.starts_with(b"%PDF") {
        return Err(unreadable(
            &name,
            "a PDF; hint reads photos and text puzzles (save the page as an image)",
        ));
    }
    let stdout = std::io::stdout();
    let mut out = super::OutputErrors(stdout.lock());
    // By content first; a name with an image extension counts too, so that a
    // broken photo is reported as one, not as an unreadable puzzle.
    let is_photo = image::guess_format(&bytes).is_ok()
        || path.is_some_and(|p| image::ImageFormat::from_path(p).is_ok());
    if is_photo {
        run_photo(args, path, &name, &bytes, &mut out)
    } else {
        let photo_only = args.output.is_some()
            || !args.set.is_empty()
            || args.grid.shape.is_some()
            || args.grid.corners.is_some();
        if photo_only {
            return Err(Error::Usage(format!(
                "-o/--output, --set, --shape and --corners are for photos; {name} is a text \
                 puzzle (its hint is printed, not drawn; edit the text to change a cell)"
            )));
        }
        run_text(args, path.is_some(), &name, &bytes, &mut out)
    }
}

/// The input's bytes: the file (a regular file, bounded as photos are) or
/// standard input (bounded the same).
fn read_input(path: Option<&Path>) -> std::io::Result<Vec<u8>> {
    if let Some(path) = path {
        return snap_vision::read_file(path);
    }
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("more than {MAX_FILE_BYTES} bytes"),
        ));
    }
    Ok(bytes)
}

/// An input that cannot be used, as the run's one error.
fn unreadable(name: &str, why: &str) -> Error {
    Error::Input {
        name: name.to_string(),
        source: std::io::Error::new(std::io::ErrorKind::InvalidData, why),
    }
}

/// Text puzzles: one step line (or JSON object) per puzzle.
fn run_text(
    args: &HintArgs,
    named: bool,
    name: &str,
    bytes: &[u8],
    out: &mut dyn Write,
) -> Result<ExitCode, Error> {
    let entries = PuzzleReader::new(bytes, None)
        .collect::<std::io::Result<Vec<_>>>()
        .map_err(|e| super::io_error(e, name))?;
    if entries.is_empty() {
        return Err(unreadable(name, "no puzzle in it"));
    }
    let several = entries.len() > 1;
    let mut code = ExitCode::Success;
    for entry in &entries {
        let hint = match &entry.puzzle {
            Ok(board) => text_hint(board),
            Err(e) => Hint::none(Status::Error, Shape::classic(), format!("invalid: {e}")),
        };
        code = code.merge(exit_code(&hint));
        let text = if args.json {
            json_line(&hint.report(name, Some(entry.line), None))
        } else {
            let part = several.then(|| format!("line {}", entry.line));
            format!("{}{}\n", label(named.then_some(name), part), hint.words())
        };
        out.write_all(text.as_bytes()).map_err(Error::Output)?;
    }
    out.flush().map_err(Error::Output)?;
    Ok(code)
}

/// `photo.jpg grid 2: `, `puzzle.txt line 3: `: the input's name (none for
/// standard input) and which grid or puzzle, when it holds several.
fn label(name: Option<&str>, part: Option<String>) -> String {
    let words: Vec<String> = name.map(str::to_string).into_iter().chain(part).collect();
    if words.is_empty() {
        String::new()
    } else {
        format!("{}: ", words.join(" "))
    }
}

/// A photo: every grid's hint, printed and drawn onto one image.
fn run_photo(
    args: &HintArgs,
    path: Option<&Path>,
    name: &str,
    bytes: &[u8],
    out: &mut dyn Write,
) -> Result<ExitCode, Error> {
    let corrections = Corrections::parse(&args.set, None)?;
    let input = path.map_or_else(|| PathBuf::from("-"), Path::to_path_buf);
    let unit = Unit::Photo(input.clone());
    corrections.check(std::slice::from_ref(&input), std::slice::from_ref(&unit))?;
    let target = (!args.no_image).then(|| output_path(path, args));
    if let Some(target) = &target {
        ImageKind::for_output(target).map_err(Error::Usage)?;
    }
    output::install_interrupt_handler();
    let reader = super::reader(&args.reader)?.with_guide(super::guide(&args.grid));
    let stem = stem(path);
    let debug = args.reader.debug_dir.as_ref().map(|d| d.join(&stem));
    let page = match reader.read_bytes(bytes, debug.as_deref()) {
        Ok(page) => page,
        Err(ReadError::NoGrid) => {
            let why = super::no_grid_message(&args.grid, true);
            return no_hint(args, path, name, &why, Status::NoGrid, out);
        }
        Err(ReadError::Model(e)) => return Err(Error::Model(e)),
        Err(e) => return Err(unreadable(name, &e.to_string())),
    };
    let options = answer::Options {
        check: true,
        several_inputs: false,
    };
    let place = answer::Place {
        name,
        page: None,
        dpi: None,
    };
    let results = corrections
        .for_unit(&unit, &[input])
        .cells_for(&page, &place)
        .and_then(|cells| answer::grids(&page, &place, &options, &cells))
        .map_err(Error::Usage)?;
    if results.is_empty() {
        return no_hint(args, path, name, answer::NO_PUZZLE, Status::NoGrid, out);
    }
    let hints: Vec<Hint> = results.iter().map(photo_hint).collect();
    let labels: Vec<Option<usize>> = results
        .iter()
        .map(|r| {
            let number = r.report.photo.as_ref().and_then(|f| f.grid);
            number.filter(|_| results.len() > 1)
        })
        .collect();
    let mut code = hints
        .iter()
        .fold(ExitCode::Success, |code, h| code.merge(exit_code(h)));
    let mut written = None;
    if let Some(target) = &target {
        if let Some(image) = hint::draw(&page, &results, &hints, &labels) {
            let inputs: Vec<PathBuf> = path.map(Path::to_path_buf).into_iter().collect();
            let kind = ImageKind::for_output(target).unwrap_or(ImageKind::Png);
            let result = output::encode_image(&image, kind)
                .map_err(|e| output::WriteError::Io(target.clone(), e))
                .and_then(|bytes| output::write_atomic(target, &bytes, args.force, &inputs));
            match result {
                Ok(()) => written = Some(target.display().to_string()),
                Err(e) => {
                    eprintln!("sudoku-snap: {name}: {e}");
                    code = code.merge(ExitCode::Error);
                }
            }
        }
    }
    for (hint, grid) in hints.iter().zip(&labels) {
        let text = if args.json {
            let mut report = hint.report(name, None, Some(grid.unwrap_or(1)));
            report.output = written.clone();
            json_line(&report)
        } else {
            let part = grid.map(|g| format!("grid {g}"));
            let named = path.is_some().then_some(name);
            format!("{}{}\n", label(named, part), hint.words())
        };
        out.write_all(text.as_bytes()).map_err(Error::Output)?;
    }
    if let (Some(p), false) = (&written, args.json) {
        writeln!(out, "  hint image: {p}").map_err(Error::Output)?;
    }
    out.flush().map_err(Error::Output)?;
    Ok(code)
}

/// A photo without a puzzle: one line, exit code 1.
fn no_hint(
    args: &HintArgs,
    path: Option<&Path>,
    name: &str,
    why: &str,
    status: Status,
    out: &mut dyn Write,
) -> Result<ExitCode, Error> {
    let hint = Hint::none(status, Shape::classic(), why.to_string());
    let text = if args.json {
        json_line(&hint.report(name, None, None))
    } else {
        format!("{}{why}\n", label(path.is_some().then_some(name), None))
    };
    out.write_all(text.as_bytes()).map_err(Error::Output)?;
    out.flush().map_err(Error::Output)?;
    Ok(exit_code(&hint))
}

/// Where the hint image goes: `-o`, or `<stem>.hint.<ext>` in the current
/// folder (JPEG for a JPEG photo, PNG otherwise, as the main job's answers).
fn output_path(path: Option<&Path>, args: &HintArgs) -> PathBuf {
    if let Some(o) = &args.output {
        return o.clone();
    }
    let kind = path.map_or(ImageKind::Png, ImageKind::for_input);
    PathBuf::from(format!("{}.hint.{}", stem(path), kind.extension()))
}

/// The input's file stem (`stdin` for standard input).
fn stem(path: Option<&Path>) -> String {
    path.and_then(Path::file_stem)
        .map_or_else(|| "stdin".to_string(), |s| s.to_string_lossy().into_owned())
}

/// The exit code of one grid's or puzzle's hint: 0 when nothing more could
/// be asked, 2 for an unreadable puzzle, 1 otherwise.
fn exit_code(hint: &Hint) -> ExitCode {
    if hint.ok {
        ExitCode::Success
    } else {
        ExitCode::from(hint.status).max(ExitCode::NotSolved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_puzzle_without_one_solution_is_not_solved() {
        let several =
            text_hint(&snap_solver::Board::parse(&".".repeat(81), Shape::classic()).unwrap());
        assert_eq!(exit_code(&several), ExitCode::NotSolved);
        let clash = format!("11{}", ".".repeat(79));
        let clash = text_hint(&snap_solver::Board::parse(&clash, Shape::classic()).unwrap());
        assert_eq!(exit_code(&clash), ExitCode::NotSolved);
    }
}
