//! `sudoku-snap read photo.jpg...`: the grid as read, no repair, no drawing.

use std::io::Write;

use serde_json::json;

use crate::cli::ReadArgs;
use crate::decide;
use crate::exit_codes::ExitCode;
use crate::grid::{Grid, CELLS};
use crate::pipeline::{ReadError, Reading};
use crate::status::Status;

/// A cell whose best value has less probability than this is marked `?`.
pub const LOW_CONFIDENCE: f32 = 0.9;

/// The grid with low-confidence cells marked: each cell is its value (`.`
/// for empty) followed by `?` when unsure, else a space.
pub fn marked_grid(grid: &Grid, confidence: &[f32; CELLS]) -> String {
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
            let v = grid.0[i];
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

fn describe(name: &str, reading: &Reading) -> (Status, String, serde_json::Value) {
    let probs = reading.cell_probs();
    let decision = decide::decide(&probs, &[], false);
    let grid = decision.read;
    let confidence: [f32; CELLS] = std::array::from_fn(|i| probs[i][grid.0[i] as usize]);
    let status = Status::from_count(decision.outcome.count());
    let unsure: Vec<String> = (0..CELLS)
        .filter(|&i| confidence[i] < LOW_CONFIDENCE)
        .map(crate::grid::cell_name)
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
    let json = json!({
        "path": name, "status": status.as_str(), "givens": grid.to_line(),
        "solution": decision.outcome.first().filter(|_| status == Status::Solved).map(Grid::to_line),
        "solutions": decision.outcome.count(),
        "confidence": (decision.confidence * 1e4).round() / 1e4,
        "error": decision.problem, "unsure": unsure,
        "rotation": reading.quarter_turns as u32 * 90,
        "orientations_tried": reading.orientations_tried,
        "quad": reading.quad.corners,
        "ms": reading.timings.to_json(),
    });
    (status, text, json)
}

/// Runs `read` over its photos.
pub fn run(args: &ReadArgs) -> Result<ExitCode, String> {
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
                json!({"path": name, "status": "no_grid", "givens": null, "solution": null,
                       "solutions": 0, "confidence": null, "error": "no Sudoku grid found", "ms": {}}),
            ),
            Err(e) => {
                eprintln!("sudoku-snap: {name}: {e}");
                let json = json!({"path": name, "status": "error", "givens": null, "solution": null,
                                  "solutions": 0, "confidence": null, "error": e.to_string(), "ms": {}});
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
            writeln!(out, "{json}")
        } else {
            out.write_all(text.as_bytes())
        };
        match written {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => return Ok(code),
            Err(e) => return Err(format!("writing output: {e}")),
            Ok(()) => {}
        }
    }
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsure_cells_are_marked() {
        let mut g = Grid::default();
        g.0[0] = 7;
        let mut conf = [1.0f32; CELLS];
        conf[0] = 0.5;
        let text = marked_grid(&g, &conf);
        assert!(text.starts_with("7?. . "), "{text}");
        assert_eq!(text.lines().count(), 11);
    }
}
