//! `sudoku-snap read photo.jpg...`: the grid as read, no repair, no drawing.

use std::io::Write;

use crate::cli::ReadArgs;
use crate::error::Error;
use crate::exit_codes::ExitCode;
use crate::report::{round4, PhotoFields, Report, Status};
use snap_solver::{Board, Shape};
use snap_vision::decide;
use snap_vision::pipeline::{ReadError, Reading};

/// Cells of a classic grid, the only shape the photo side reads today.
const CELLS: usize = 81;

/// A cell whose best value has less probability than this is marked `?`.
pub const LOW_CONFIDENCE: f32 = 0.9;

/// The grid with low-confidence cells marked: each cell is its value (`.`
/// for empty) followed by `?` when unsure, else a space.
pub fn marked_grid(grid: &Board, confidence: &[f32; CELLS]) -> String {
    let mut out = String::new();
    for r in 0..9 {
        if r == 3 || r == 6 {
            out.push_str("-------+--------+-------\n");
        }
        for c in 0..9 {
            if c == 3 || c == 6 {
                out.push_str("| ");
            }
            let i = r * 9 + c;
            let v = grid.cells[i];
            out.push(if v == 0 { '.' } else { (b'0' + v) as char });
            out.push(if confidence[i] < LOW_CONFIDENCE {
                '?'
            } else {
                ' '
            });
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out
}

fn describe(name: &str, reading: &Reading) -> (Status, String, Report) {
    let probs = reading.cell_probs();
    let decision = decide::decide(&probs, &[], false);
    let grid = decision.read;
    let confidence: [f32; CELLS] = std::array::from_fn(|i| probs[i][grid.cells[i] as usize]);
    let status = Status::from_count(decision.outcome.count());
    let unsure: Vec<String> = (0..CELLS)
        .filter(|&i| confidence[i] < LOW_CONFIDENCE)
        .map(|i| Shape::classic().cell_name(i))
        .collect();
    let mut text = format!(
        "{name}: {} clues, confidence {:.2}{}\n",
        grid.givens(),
        decision.confidence,
        if unsure.is_empty() {
            String::new()
        } else {
            format!(", unsure: {}", unsure.join(" "))
        }
    );
    text.push_str(&marked_grid(&grid, &confidence));
    let json = Report {
        path: name.to_string(),
        line: None,
        shape: Some(grid.shape.name()),
        status,
        givens: Some(grid.to_line()),
        solution: decision
            .outcome
            .first()
            .filter(|_| status == Status::Solved)
            .map(Board::to_line),
        solutions: decision.outcome.count(),
        confidence: Some(round4(decision.confidence)),
        error: decision.problem.clone(),
        photo: Some(PhotoFields {
            read: Some(grid.to_line()),
            repairs: Vec::new(),
            unsure: Some(unsure),
            rotation: Some(u32::from(reading.quarter_turns) * 90),
            orientations_tried: Some(reading.orientations_tried),
            quad: Some(reading.quad.corners),
            output: None,
        }),
        logic: None,
        ms: reading.timings.clone(),
    };
    (status, text, json)
}

/// Runs `read` over its photos.
pub fn run(args: &ReadArgs) -> Result<ExitCode, Error> {
    let reader = super::reader(&args.reader)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut code = ExitCode::Success;
    for path in super::photo::expand_inputs(&args.photos) {
        let name = path.display().to_string();
        let (status, text, json) = match reader.read_file(&path) {
            Ok(reading) => describe(&name, &reading),
            Err(ReadError::NoGrid) => (
                Status::NoGrid,
                format!("{name}: no Sudoku grid found\n"),
                Report::failure(&name, Status::NoGrid, "no Sudoku grid found".into(), true),
            ),
            Err(e) => {
                eprintln!("sudoku-snap: {name}: {e}");
                let json = Report::failure(&name, Status::Error, e.to_string(), true);
                (Status::Error, String::new(), json)
            }
        };
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
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsure_cells_are_marked() {
        let mut g = Board::empty(Shape::classic());
        g.cells[0] = 7;
        let mut conf = [1.0f32; CELLS];
        conf[0] = 0.5;
        let text = marked_grid(&g, &conf);
        assert!(text.starts_with("7?. . "), "{text}");
        assert_eq!(text.lines().count(), 11);
    }
}
