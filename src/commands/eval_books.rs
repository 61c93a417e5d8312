//! `sudoku-snap eval book.pdf page.png ...`: how well the main job does on
//! pages with several grids, against a truth file beside each source
//! (`<stem>.truth.tsv`, the format of ../shared/fixtures/pdf: one row per
//! grid with its page, box, kind and digits).
//!
//! Every page goes through the same steps as the main job (render, read,
//! decide every grid, drop what is not a puzzle), and each grid reported
//! is matched to the truth grid whose box holds its centre. Reported per
//! source: grids found / expected, false grids (reported where the truth
//! has none), cells right, grids read fully right, grids solved right (a
//! printed answer grid: reported complete and valid; a puzzle with several
//! solutions: reported so), the same for the puzzles alone (answer grids
//! left out), and wrong answers shown (must be zero).

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;

use snap_solver::files;
use snap_solver::{Board, Shape};
use snap_vision::{ReadError, Reader, DEFAULT_DPI, POINTS_PER_INCH};

use super::eval_measures::{self, Answer, Calibration};
use super::inputs::{self, Render};
use crate::error::Error;
use snap_answer::answer::{self, GridResult};
use snap_answer::report::Status;

/// One grid of a truth file.
#[derive(Debug, Clone)]
struct TruthGrid {
    page: usize,
    /// x0, y0, x1, y1 in PDF points from the top-left (pixels for an image).
    bbox: [f32; 4],
    /// `puzzle` or `full` (a printed answer grid).
    full: bool,
    givens: Board,
    /// Several solutions (`nsol` is `2+`).
    several: bool,
    solution: Option<Board>,
}

/// The truth file of `source`: `<stem>.truth.tsv` beside it.
pub fn truth_path(source: &Path) -> PathBuf {
    source.with_file_name(format!("{}.truth.tsv", inputs::file_stem(source)))
}

/// Parses a truth file (tab-separated, `#` comments).
fn read_truth(path: &Path) -> Result<Vec<TruthGrid>, Error> {
    let bad = |line: usize, what: &str| Error::Input {
        name: path.display().to_string(),
        source: std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("line {line}: {what}"),
        ),
    };
    let text = files::read_text(path, &super::eval::TRUTH_FILE).map_err(|source| Error::Input {
        name: path.display().to_string(),
        source,
    })?;
    let mut grids = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 8 {
            return Err(bad(i + 1, "fewer than 8 tab-separated fields"));
        }
        let page = f[0].parse().map_err(|_| bad(i + 1, "bad page"))?;
        let b: Vec<f32> = f[2]
            .split(',')
            .filter_map(|v| v.trim().parse().ok())
            .collect();
        let [x0, y0, x1, y1] = b[..] else {
            return Err(bad(i + 1, "bad box"));
        };
        let board = |text: &str| Board::parse(text, Shape::classic()).ok();
        let full = f[3] == "full";
        let givens = board(f[5]).ok_or_else(|| bad(i + 1, "bad grid"))?;
        // A printed answer grid is its own solution (its nsol and solution
        // fields are empty).
        let solution = if full {
            Some(givens.clone())
        } else {
            board(f[7])
        };
        grids.push(TruthGrid {
            page,
            bbox: [x0, y0, x1, y1],
            full,
            givens,
            several: !full && f[6].trim() != "1",
            solution,
        });
    }
    Ok(grids)
}

/// Figures for one source.
#[derive(Debug, Default, Serialize)]
pub struct BookFigures {
    /// The source (a PDF or a page image).
    pub source: String,
    /// Pages read.
    pub pages: usize,
    /// Grids in the truth.
    pub expected: usize,
    /// Truth grids that a reported grid was matched to.
    pub found: usize,
    /// Grids reported where the truth has none.
    pub false_grids: usize,
    /// Of those, reported with an answer (solved or unsure with an answer).
    pub false_grids_answered: usize,
    /// Cells of found grids, and cells read right.
    pub cells: usize,
    /// Cells read right.
    pub cells_right: usize,
    /// Found grids whose every cell was read right.
    pub grids_right: usize,
    /// Found grids given the right outcome: a puzzle solved with the true
    /// solution, an answer grid reported complete and valid, a puzzle with
    /// several solutions reported so.
    pub solved_right: usize,
    /// Found grids that are puzzles (not printed answer grids): the share
    /// of these solved right is the figure that books are judged by.
    pub puzzles_found: usize,
    /// Of those, solved right (or reported with several solutions when
    /// the truth has several).
    pub puzzles_solved_right: usize,
    /// Found grids reported unsure.
    pub unsure: usize,
    /// Answers shown that are not the truth's: must be zero.
    pub wrong_answers: usize,
    /// Answers shown for puzzles (not answer grids) per confidence bin.
    pub calibration: Option<Calibration>,
    /// Those answers, for tables summed over sources.
    #[serde(skip)]
    answers: Vec<Answer>,
    /// Pages that could not be read (render or decode errors), with why.
    pub page_errors: Vec<String>,
    /// Each found grid not read right, solved wrong or missed: where and why.
    pub problems: Vec<String>,
}

/// Evaluates one source (a PDF, or a page image with a truth file).
pub fn evaluate(reader: &Reader, source: &Path) -> Result<BookFigures, Error> {
    let truth = read_truth(&truth_path(source))?;
    let mut figures = BookFigures {
        source: source.display().to_string(),
        expected: truth.len(),
        ..BookFigures::default()
    };
    let mut matched = vec![false; truth.len()];
    let name = source.display().to_string();
    let options = answer::Options::default();
    // The same page units and reading as the main job: a PDF's pages
    // rendered at the default resolution, an image as it is.
    let units = inputs::plan(&[source.to_path_buf()], None).unwrap_or_else(|e| {
        vec![inputs::Unit::Broken {
            path: source.to_path_buf(),
            reason: e.to_string(),
        }]
    });
    for unit in units {
        figures.pages += 1;
        let page = unit.page().unwrap_or(1);
        match unit.read(reader, &Render::at(DEFAULT_DPI), None) {
            Ok((page_read, dpi, _share)) => {
                let place = answer::Place {
                    name: &name,
                    page: unit.page(),
                    dpi,
                };
                // Without corrections no grid can fail to take one.
                let grids = answer::grids(&page_read, &place, &options, &[]).unwrap_or_default();
                // Truth boxes are in points for a PDF page, pixels for an image.
                let to_truth = dpi.map_or(1.0, |dpi| POINTS_PER_INCH / dpi);
                score_page(&mut figures, &truth, &mut matched, page, &grids, to_truth);
            }
            Err((_, ReadError::NoGrid)) => {}
            Err((_, e)) => figures.page_errors.push(format!("page {page}: {e}")),
        }
    }
    figures.calibration = Some(eval_measures::calibration(&figures.answers));
    for (t, m) in truth.iter().zip(&matched) {
        if !*m {
            figures
                .problems
                .push(format!("page {} grid at {:?}: not found", t.page, t.bbox));
        }
    }
    Ok(figures)
}

/// Matches a page's reported grids to the truth and counts. `to_truth`
/// turns image pixels into the truth's units (points for a PDF page).
fn score_page(
    f: &mut BookFigures,
    truth: &[TruthGrid],
    matched: &mut [bool],
    page: usize,
    grids: &[GridResult],
    to_truth: f32,
) {
    for g in grids {
        let Some(quad) = g.report.photo.as_ref().and_then(|p| p.quad) else {
            continue;
        };
        let cx = quad.iter().map(|c| c.0).sum::<f32>() / 4.0 * to_truth;
        let cy = quad.iter().map(|c| c.1).sum::<f32>() / 4.0 * to_truth;
        let shown = g.decision.as_ref().and_then(|d| d.solution());
        let hit = truth.iter().position(|t| {
            t.page == page
                && (t.bbox[0]..t.bbox[2]).contains(&cx)
                && (t.bbox[1]..t.bbox[3]).contains(&cy)
        });
        let Some(i) = hit else {
            f.false_grids += 1;
            let answered = shown.is_some() && g.status != Status::Complete;
            f.false_grids_answered += usize::from(answered);
            f.problems.push(format!(
                "page {page}: a grid at ({cx:.0}, {cy:.0}) that is no puzzle, reported {}",
                g.status.as_str()
            ));
            continue;
        };
        if matched[i] {
            f.false_grids += 1;
            f.problems
                .push(format!("page {page}: grid {} reported twice", i + 1));
            continue;
        }
        matched[i] = true;
        f.found += 1;
        let t = &truth[i];
        let place = format!(
            "page {page} grid {}",
            g.report.photo.as_ref().and_then(|p| p.grid).unwrap_or(0)
        );
        if let Some(d) = &g.decision {
            let cells = t.givens.cells.len();
            let right = (0..cells)
                .filter(|&c| d.read.cells[c] == t.givens.cells[c])
                .count();
            f.cells += cells;
            f.cells_right += right;
            f.grids_right += usize::from(right == cells);
            if right < cells {
                f.problems
                    .push(format!("{place}: {} cells misread", cells - right));
            }
        } else {
            f.cells += t.givens.cells.len();
            f.problems
                .push(format!("{place}: reported {}", g.status.as_str()));
        }
        f.unsure += usize::from(g.status == Status::Unsure);
        let wrong = match (shown, &t.solution) {
            _ if g.status == Status::Complete => false,
            (Some(s), Some(truth)) => t.several || s != truth,
            (Some(_), None) => true,
            (None, _) => false,
        };
        f.wrong_answers += usize::from(wrong);
        if let (Some(d), true) = (&g.decision, shown.is_some() && g.status != Status::Complete) {
            f.answers.push(Answer {
                confidence: d.confidence,
                right: !wrong,
            });
        }
        if wrong {
            f.problems.push(format!(
                "{place}: WRONG ANSWER shown ({})",
                g.status.as_str()
            ));
        }
        let right_outcome = if t.full {
            g.status == Status::Complete && g.report.error.is_none()
        } else if t.several {
            g.status == Status::MultipleSolutions
        } else {
            g.status == Status::Solved && shown.is_some() && shown == t.solution.as_ref()
        };
        f.solved_right += usize::from(right_outcome);
        if !t.full {
            f.puzzles_found += 1;
            f.puzzles_solved_right += usize::from(right_outcome);
        }
    }
}

fn pct(a: usize, b: usize) -> f64 {
    if b == 0 {
        0.0
    } else {
        100.0 * a as f64 / b as f64
    }
}

/// The figures as text: one block per source.
pub fn text(f: &BookFigures) -> String {
    let mut s = format!(
        "{}: {} pages\n  grids found     {}/{} ({:.1}%), false grids {} ({} with an answer)\n  cells right     {}/{} ({:.2}%)\n  grids read right {}/{}\n  solved right    {}/{} ({:.1}%), unsure {}\n  puzzles solved  {}/{} ({:.1}%)\n  wrong answers   {}\n",
        f.source,
        f.pages,
        f.found,
        f.expected,
        pct(f.found, f.expected),
        f.false_grids,
        f.false_grids_answered,
        f.cells_right,
        f.cells,
        pct(f.cells_right, f.cells),
        f.grids_right,
        f.found,
        f.solved_right,
        f.found,
        pct(f.solved_right, f.found),
        f.unsure,
        f.puzzles_solved_right,
        f.puzzles_found,
        pct(f.puzzles_solved_right, f.puzzles_found),
        f.wrong_answers,
    );
    if let Some(c) = &f.calibration {
        s.push_str(&eval_measures::calibration_text(c));
    }
    for e in &f.page_errors {
        s.push_str(&format!("  error: {e}\n"));
    }
    for p in &f.problems {
        s.push_str(&format!("  {p}\n"));
    }
    s
}

/// True when `path` is a source this module evaluates: a PDF or image
/// with a `<stem>.truth.tsv` beside it.
pub fn has_book_truth(path: &Path) -> bool {
    path.is_file() && truth_path(path).is_file()
}

impl BookFigures {
    /// The answers shown for puzzles, with their confidence.
    pub fn answers(&self) -> &[Answer] {
        &self.answers
    }
}

/// Writes the figures of `sources` (JSON Lines or text) and returns them.
pub fn run(
    reader: &Reader,
    sources: &[PathBuf],
    json: bool,
    out: &mut dyn Write,
) -> Result<Vec<BookFigures>, Error> {
    let mut all = Vec::with_capacity(sources.len());
    for source in sources {
        let figures = evaluate(reader, source)?;
        let line = if json {
            snap_answer::report::json_line(&figures)
        } else {
            text(&figures)
        };
        out.write_all(line.as_bytes()).map_err(Error::Output)?;
        all.push(figures);
    }
    Ok(all)
}
