//! `sudoku-snap read photo.jpg...`: the grid as read, no repair, no drawing.

use std::io::Write;

use snap_solver::{solve, Board, Outcome, DEFAULT_LIMIT};
use snap_vision::{GridReading, Page, ReadError, DEFAULT_DPI, SURE};

use super::inputs::{Render, Unit};
use super::plural;
use snap_answer::answer;

use crate::cli::ReadArgs;
use crate::error::Error;
use crate::exit_codes::ExitCode;
use snap_answer::report::{round4, PhotoFields, Report, Status};

/// A cell whose best value has less probability than this is marked `?`:
/// the same line as the one the decision stage draws between sure cells
/// and cells a repair may change.
pub const LOW_CONFIDENCE: f32 = SURE;

/// The grid with low-confidence cells marked (`7?`), as the text forms
/// read it back (`solve`, `--givens`): the mark is skipped there.
pub fn marked_grid(grid: &Board, confidence: &[f32]) -> String {
    let marked: Vec<bool> = (0..grid.cells.len())
        .map(|i| grid.shape.contains(i) && confidence.get(i).is_some_and(|&p| p < LOW_CONFIDENCE))
        .collect();
    grid.to_pretty_marked(&marked)
}

/// Where a grid was read: its input, page and number.
struct Place<'a> {
    /// The input as named on the command line.
    name: &'a str,
    /// The input as named in messages (`book.pdf page 3`).
    label: &'a str,
    /// The PDF page, `None` for a photo.
    page: Option<usize>,
    /// The PDF page's render resolution.
    dpi: Option<f32>,
    /// The grid's number on its page (1-based).
    number: usize,
}

/// The JSON line of an input or page without grids.
fn failure(unit: &Unit, status: Status, message: String) -> Report {
    let mut report = Report::failure(&unit.path().display().to_string(), status, message, true);
    if let Some(fields) = report.photo.as_mut() {
        fields.page = unit.page();
    }
    report
}

/// One grid of a page as read: its text and JSON line. `several` when the
/// page has more than one grid. The text is a comment line, then the
/// grid: a file of it is a puzzle file (`solve`, `--givens`).
fn describe(
    place: &Place,
    page: &Page,
    grid: &GridReading,
    several: bool,
) -> (Status, String, Report) {
    let (name, number) = (place.name, place.number);
    let shape = grid.shape();
    let read = grid.as_read();
    let confidence: Vec<f32> = grid
        .cells
        .iter()
        .zip(&read.cells)
        .map(|(e, &v)| e.p(v))
        .collect();
    let outcome = solve(&read, DEFAULT_LIMIT);
    let (status, error) = match &outcome {
        Ok(o) => (Status::from_count(o.count()), None),
        Err(clash) => (Status::NoSolution, Some(clash.to_string())),
    };
    let unsure: Vec<String> = (0..read.cells.len())
        .filter(|&i| shape.contains(i) && confidence[i] < LOW_CONFIDENCE)
        .map(|i| shape.cell_name(i))
        .collect();
    let least = (0..read.cells.len())
        .filter(|&i| shape.contains(i))
        .map(|i| confidence[i])
        .fold(1.0f32, f32::min);
    let label = if several {
        format!(" grid {number}")
    } else {
        String::new()
    };
    let mut text = format!(
        "# {}{label}: {}, {}, least sure cell {least:.2}{}\n",
        place.label,
        shape.name(),
        plural(read.givens(), "clue"),
        if unsure.is_empty() {
            String::new()
        } else {
            format!(", unsure (marked ?): {}", unsure.join(" "))
        }
    );
    text.push_str(&marked_grid(&read, &confidence));
    let json = Report {
        path: name.to_string(),
        line: None,
        shape: Some(shape.name()),
        status,
        givens: Some(read.to_line()),
        solution: match &outcome {
            Ok(Outcome::Unique(s)) => Some(s.to_line()),
            _ => None,
        },
        solutions: outcome.as_ref().map_or(0, Outcome::count),
        confidence: Some(round4(least)),
        error,
        photo: Some(PhotoFields {
            page: place.page,
            dpi: place.dpi,
            grid: Some(number),
            read: Some(read.to_line()),
            unsure: Some(unsure),
            rotation: Some(u32::from(grid.quarter_turns) * 90),
            orientations_tried: Some(grid.orientations_tried),
            quad: Some(grid.quad().corners),
            ..PhotoFields::default()
        }),
        logic: None,
        ms: page.timings.clone(),
    };
    (status, text, json)
}

/// Runs `read` over its photos.
pub fn run(args: &ReadArgs) -> Result<ExitCode, Error> {
    let units = super::inputs::expand(&args.photos).units(args.pages.as_deref())?;
    super::check_one_page_guide(&args.grid, units.len())?;
    let reader = super::reader(&args.reader)?.with_guide(super::guide(&args.grid));
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut code = ExitCode::Success;
    let several_pages = units.len() > 1;
    for unit in units {
        let name = unit.path().display().to_string();
        let label = unit.label();
        let debug_dir = args.reader.debug_dir.as_deref();
        let render = Render::at(DEFAULT_DPI);
        let lines: Vec<(Status, String, Report)> = match unit.read(&reader, &render, debug_dir) {
            Ok((page, dpi, _share)) => {
                if page.unsearched > 0 {
                    eprintln!(
                        "sudoku-snap: {}",
                        super::unsearched_note(&label, page.unsearched)
                    );
                }
                let grids = answer::numbered(&page);
                let several = grids.len() > 1;
                grids
                    .iter()
                    .enumerate()
                    .map(|(k, grid)| {
                        let place = Place {
                            name: &name,
                            label: &label,
                            page: unit.page(),
                            dpi,
                            number: k + 1,
                        };
                        let (status, mut text, json) = describe(&place, &page, grid, several);
                        // A blank line between grids, so that each reads
                        // as a puzzle of its own.
                        if several || several_pages {
                            text.push('\n');
                        }
                        (status, text, json)
                    })
                    .collect()
            }
            Err((_, ReadError::NoGrid)) => {
                let message = super::no_grid_message(&args.grid, unit.page().is_none());
                vec![(
                    Status::NoGrid,
                    format!("# {label}: {message}\n"),
                    failure(&unit, Status::NoGrid, message),
                )]
            }
            Err((_, e)) => {
                eprintln!("sudoku-snap: {label}: {e}");
                vec![(
                    Status::Error,
                    String::new(),
                    failure(&unit, Status::Error, e.to_string()),
                )]
            }
        };
        for (status, text, json) in lines {
            // A solvable or not-yet-solvable read is still a successful read:
            // only a missing grid or an unreadable file count against it.
            code = code.merge(match status {
                Status::NoGrid => ExitCode::NotSolved,
                Status::Error => ExitCode::Error,
                _ => ExitCode::Success,
            });
            let written = if args.json {
                out.write_all(json.to_json_line().as_bytes())
            } else {
                out.write_all(text.as_bytes())
            };
            written.map_err(Error::Output)?;
        }
    }
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsure_cells_are_marked_and_read_back() {
        let mut g = Board::empty(snap_solver::Shape::classic());
        g.cells[0] = 7;
        let mut conf = [1.0f32; 81];
        conf[0] = 0.5;
        let text = marked_grid(&g, &conf);
        assert!(text.starts_with("7?. . "), "{text}");
        assert_eq!(text.lines().count(), 11);
        assert_eq!(Board::parse(&text, g.shape), Ok(g));
    }
}
