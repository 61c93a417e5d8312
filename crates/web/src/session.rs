//! One photo at a time, as the page holds it: read once, decided again
//! after every correction, drawn on demand.
//!
//! Everything here is plain Rust on the pipeline's own types (the reader
//! of `snap_vision`, the decision, report and drawing of `snap_answer`),
//! so it runs and is tested natively; `lib.rs` only carries it across to
//! JavaScript.

use image::RgbImage;
use serde::Serialize;

use snap_answer::answer::{self, GridResult, Options, Place};
use snap_answer::hint;
use snap_answer::report::{HintReport, Report, Status};
use snap_solver::digit_char;
use snap_vision::{OcrError, Page, ReadError, Reader, Verdict};
// std's clock panics in a browser; web-time is the browser's there and
// std's elsewhere.
use web_time::Instant;

/// A point in the pixels of the image as shown (`x` right, `y` down).
pub type Point = [f32; 2];

/// What the page shows of a photo after reading or a correction.
#[derive(Debug, Clone, Serialize)]
pub struct View {
    /// The photo's status when it has no grid to report (`no_grid`,
    /// `error`); `null` when it has grids (each carries its own).
    pub status: Option<Status>,
    /// Why the photo has no grid to report.
    pub error: Option<String>,
    /// The grids, in reading order, as `--json` reports them.
    pub grids: Vec<GridView>,
    /// Size of the image as shown (the photo, turned as viewers turn it
    /// where the reader found the EXIF tag right).
    pub width: u32,
    /// See `width`.
    pub height: u32,
    /// Milliseconds spent reading, deciding and solving.
    pub ms: f64,
}

/// One grid of a [`View`].
#[derive(Debug, Clone, Serialize)]
pub struct GridView {
    /// The grid's index among the page's grids: what [`Session::correct`]
    /// takes.
    pub index: usize,
    /// The grid's `--json` object.
    pub report: Report,
    /// Values a cell can hold (9, or 16 for a 16x16).
    pub digits: usize,
    /// How each value is written, from 0 (empty, `.`) to `digits`
    /// (`.123456789`, then `A`-`G` for a 16x16).
    pub symbols: String,
    /// Side of the layout (9, 16, or 21 for a Samurai): a cell's index is
    /// `row * side + column`.
    pub side: usize,
    /// Every cell of the puzzle: where it is on the shown image and what
    /// the decision took it to hold. Empty for a grid cut by the frame
    /// (never decided, so nothing to correct).
    pub cells: Vec<CellView>,
    /// The cells the reader is unsure of (layout indices).
    pub check: Vec<usize>,
    /// The cells the person corrected: (layout index, value; 0 for empty).
    pub corrected: Vec<(usize, u8)>,
}

/// One cell of a [`GridView`].
#[derive(Debug, Clone, Serialize)]
pub struct CellView {
    /// Its layout index.
    pub index: usize,
    /// `r3c4`.
    pub name: String,
    /// Its corners on the shown image: top-left, top-right, bottom-right,
    /// bottom-left of the upright cell.
    pub corners: [Point; 4],
    /// The value the decision took the cell to hold: its clue (after
    /// repairs and corrections), or a person's pen entry; 0 for empty.
    pub value: u8,
}

/// A correction the page cannot make.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CorrectError {
    /// No photo with grids has been read.
    #[error("no photo with a grid has been read")]
    NoPage,
    /// The grid index is not one of the page's grids.
    #[error("there is no grid {0} on this photo")]
    NoGrid(usize),
    /// The cell is not a cell of the grid's puzzle.
    #[error("there is no cell {0} in this grid")]
    NoCell(usize),
    /// The value is more than the shape's digits.
    #[error("{value} is not a value of a {shape} puzzle")]
    BadValue {
        /// The value asked for.
        value: u8,
        /// The shape's name.
        shape: String,
    },
}

/// The hints of a photo: one per grid, and the photo with them drawn.
#[derive(Debug, Clone)]
pub struct Hints {
    /// Each grid's hint as `hint --json` reports it, in the grids' order.
    pub reports: Vec<HintReport>,
    /// The photo with the hints drawn (`None` when nothing is to draw).
    pub image: Option<RgbImage>,
}

/// The page's reader and the photo it holds.
pub struct Session {
    reader: Reader,
    /// The photo read, with its grids.
    page: Option<Page>,
    /// Why the last photo has no page.
    failure: Option<(Status, String)>,
    /// The person's corrections: (grid index, cell, value), one per cell.
    corrections: Vec<(usize, usize, u8)>,
    /// The name reports carry (the photo's file name).
    name: String,
}

impl Session {
    /// A session with the embedded digit model (loaded at first use, or by
    /// [`Session::warm_up`]).
    pub fn new() -> Result<Session, OcrError> {
        Ok(Session {
            reader: Reader::new(None, None)?,
            page: None,
            failure: None,
            corrections: Vec::new(),
            name: String::new(),
        })
    }

    /// Loads the digit model now, so that the first photo does not wait
    /// for it.
    pub fn warm_up(&self) -> Result<(), OcrError> {
        self.reader.load_model()
    }

    /// Reads a photo's bytes (`name` is what its reports are called) and
    /// forgets the previous photo and its corrections.
    pub fn read(&mut self, name: &str, bytes: &[u8]) -> View {
        let start = Instant::now();
        self.name = name.to_string();
        self.corrections.clear();
        self.page = None;
        self.failure = None;
        match self.reader.read_bytes(bytes, None) {
            Ok(page) => self.page = Some(page),
            Err(ReadError::NoGrid) => {
                self.failure = Some((Status::NoGrid, answer::NO_GRID.to_string()));
            }
            Err(e) => self.failure = Some((Status::Error, e.to_string())),
        }
        let results = self.results(false);
        if self.page.is_some() && results.is_empty() {
            self.failure = Some((Status::NoGrid, answer::NO_PUZZLE.to_string()));
        }
        self.view_of(&results, start.elapsed().as_secs_f64() * 1000.0)
    }

    /// Sets a cell of grid `grid` (a [`GridView::index`]) to `value` (0:
    /// empty), or back to what was read (`None`), and decides again.
    pub fn correct(
        &mut self,
        grid: usize,
        cell: usize,
        value: Option<u8>,
    ) -> Result<View, CorrectError> {
        let page = self.page.as_ref().ok_or(CorrectError::NoPage)?;
        let shape = page
            .grids
            .get(grid)
            .ok_or(CorrectError::NoGrid(grid))?
            .shape();
        if !shape.contains(cell) {
            return Err(CorrectError::NoCell(cell));
        }
        if let Some(value) = value.filter(|&v| usize::from(v) > shape.digits()) {
            return Err(CorrectError::BadValue {
                value,
                shape: shape.name(),
            });
        }
        let start = Instant::now();
        self.corrections.retain(|&(g, c, _)| (g, c) != (grid, cell));
        if let Some(value) = value {
            self.corrections.push((grid, cell, value));
        }
        let results = self.results(false);
        Ok(self.view_of(&results, start.elapsed().as_secs_f64() * 1000.0))
    }

    /// The photo with the answers drawn, as the command line draws them;
    /// the photo alone (turned as shown) when there is nothing to draw.
    /// `None` before a photo was read.
    pub fn answer_image(&self) -> Option<RgbImage> {
        let page = self.page.as_ref()?;
        let results = self.results(false);
        answer::draw_copy(page, &answer::marks(page, &results)).or_else(|| self.photo_image())
    }

    /// The photo alone, turned as shown. `None` before a photo was read.
    pub fn photo_image(&self) -> Option<RgbImage> {
        let page = self.page.as_ref()?;
        Some(answer::as_viewed(page, page.photo.rgb().clone()))
    }

    /// Each grid's next step (or why there is none), as `hint` gives it,
    /// with the corrections applied.
    pub fn hints(&self) -> Hints {
        let Some(page) = self.page.as_ref() else {
            return Hints {
                reports: Vec::new(),
                image: None,
            };
        };
        // As `hint` does: a person's pen entries are checked, so that a
        // wrong one is named instead of a step built on it.
        let results = self.results(true);
        let hints: Vec<hint::Hint> = results.iter().map(hint::photo_hint).collect();
        let several = results.len() > 1;
        let reports = results
            .iter()
            .zip(&hints)
            .map(|(result, hint)| {
                let number = result.report.photo.as_ref().and_then(|f| f.grid);
                hint.report(
                    &self.name,
                    None,
                    Some(number.filter(|_| several).unwrap_or(1)),
                )
            })
            .collect();
        Hints {
            reports,
            image: hint::draw_marks(page, &results, &hints),
        }
    }

    /// Every grid decided with the corrections (`check`: pen entries
    /// checked against the solution).
    fn results(&self, check: bool) -> Vec<GridResult> {
        let Some(page) = self.page.as_ref() else {
            return Vec::new();
        };
        let options = Options {
            check,
            several_inputs: false,
        };
        let place = Place {
            name: &self.name,
            page: None,
            dpi: None,
        };
        // Corrections are kept by the grid's index in the page; the
        // decision takes them by the grid's number on the page.
        let numbered = answer::numbered(page);
        let cells: Vec<Vec<(usize, u8)>> = numbered
            .iter()
            .map(|grid| {
                let index = page.grids.iter().position(|g| std::ptr::eq(g, *grid));
                self.corrections
                    .iter()
                    .filter(|c| Some(c.0) == index)
                    .map(|&(_, cell, value)| (cell, value))
                    .collect()
            })
            .collect();
        // A grid cut by the frame is never shown with cells, so it never
        // takes a correction: deciding cannot fail.
        answer::grids(page, &place, &options, &cells).unwrap_or_default()
    }

    /// The view of `results`.
    fn view_of(&self, results: &[GridResult], ms: f64) -> View {
        let status = self.failure.as_ref().map(|(status, _)| *status);
        let error = self.failure.as_ref().map(|(_, error)| error.clone());
        let Some(page) = self.page.as_ref().filter(|_| self.failure.is_none()) else {
            return View {
                status,
                error,
                grids: Vec::new(),
                width: 0,
                height: 0,
                ms,
            };
        };
        let turns = answer::viewed_turns(page);
        let (w, h) = page.photo.gray.dimensions();
        let (width, height) = if turns % 2 == 1 { (h, w) } else { (w, h) };
        let grids = results
            .iter()
            .map(|result| self.grid_view(page, result, turns))
            .collect();
        View {
            status,
            error,
            grids,
            width,
            height,
            ms,
        }
    }

    /// One grid's view: its report, cells and corrections.
    fn grid_view(&self, page: &Page, result: &GridResult, turns: u8) -> GridView {
        let grid = &page.grids[result.index];
        let shape = grid.shape();
        let side = shape.side();
        let (w, h) = page.photo.gray.dimensions();
        let size = (w as f32, h as f32);
        let mut cells: Vec<CellView> = Vec::new();
        // A Samurai's corner boxes belong to two of its grids: each cell
        // is placed by the first part that holds it, as the answer is drawn.
        let mut placed = vec![false; shape.cell_count()];
        let parts = if result.decision.is_some() {
            &grid.parts[..]
        } else {
            &[]
        };
        let value = |index: usize| {
            let Some(d) = &result.decision else { return 0 };
            match d.givens.cells.get(index) {
                Some(&clue) if clue != 0 => clue,
                _ => d.entries.iter().find(|e| e.0 == index).map_or(0, |e| e.1),
            }
        };
        for part in parts {
            let (r0, c0) = part.origin;
            for r in 0..part.n {
                for c in 0..part.n {
                    let index = (r0 + r) * side + c0 + c;
                    if placed[index] || !shape.contains(index) {
                        continue;
                    }
                    placed[index] = true;
                    let corner = |dr: usize, dc: usize| {
                        let (x, y) = part.corner(r + dr, c + dc);
                        as_viewed_point([x, y], size, turns)
                    };
                    cells.push(CellView {
                        index,
                        name: shape.cell_name(index),
                        corners: [corner(0, 0), corner(0, 1), corner(1, 1), corner(1, 0)],
                        value: value(index),
                    });
                }
            }
        }
        cells.sort_by_key(|c| c.index);
        let check = match result.decision.as_ref().map(|d| &d.verdict) {
            Some(Verdict::Unsure(checks)) => checks.iter().map(|c| c.cell).collect(),
            _ => Vec::new(),
        };
        let corrected = self
            .corrections
            .iter()
            .filter(|c| c.0 == result.index)
            .map(|&(_, cell, value)| (cell, value))
            .collect();
        GridView {
            index: result.index,
            report: result.report.clone(),
            digits: shape.digits(),
            symbols: (0..=shape.digits() as u8).map(digit_char).collect(),
            side,
            cells,
            check,
            corrected,
        }
    }
}

/// A point of the stored photo (`size` its width and height) on the image
/// as shown, turned clockwise by `turns` quarter turns as
/// [`answer::as_viewed`] turns it.
pub fn as_viewed_point([x, y]: Point, (w, h): (f32, f32), turns: u8) -> Point {
    match turns % 4 {
        0 => [x, y],
        1 => [h - y, x],
        2 => [w - x, h - y],
        _ => [y, w - x],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture(name: &str) -> Vec<u8> {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../fixtures")
            .join(name);
        std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    fn read(name: &str) -> (Session, View) {
        let mut session = Session::new().expect("the embedded model");
        let view = session.read(name, &fixture(name));
        (session, view)
    }

    #[test]
    fn a_point_turns_with_the_image() {
        // A 4 x 2 image: its top-right pixel corner (4, 0) is, turned a
        // quarter clockwise (2 x 4), at the bottom right (2, 4).
        let size = (4.0, 2.0);
        assert_eq!(as_viewed_point([4.0, 0.0], size, 0), [4.0, 0.0]);
        assert_eq!(as_viewed_point([4.0, 0.0], size, 1), [2.0, 4.0]);
        assert_eq!(as_viewed_point([4.0, 0.0], size, 2), [0.0, 2.0]);
        assert_eq!(as_viewed_point([4.0, 0.0], size, 3), [0.0, 0.0]);
        // Turning it as the image is turned keeps it on the same pixel.
        let image = RgbImage::from_fn(4, 2, |x, y| image::Rgb([x as u8, y as u8, 0]));
        let turned = image::imageops::rotate90(&image);
        let [x, y] = as_viewed_point([3.5, 0.5], size, 1);
        assert_eq!(turned.get_pixel(x as u32, y as u32), image.get_pixel(3, 0));
    }

    #[test]
    fn a_photo_is_reported_as_the_command_line_reports_it() {
        let (session, view) = read("image18.jpg");
        assert_eq!(view.status, None);
        let [grid] = &view.grids[..] else {
            panic!("one grid: {view:?}")
        };
        assert_eq!(grid.report.status, Status::Solved);
        let truth: String = std::str::from_utf8(&fixture("image18.txt"))
            .unwrap_or("")
            .split_whitespace()
            .collect();
        assert_eq!(grid.report.givens.as_deref(), Some(truth.as_str()));
        assert_eq!(grid.cells.len(), 81);
        assert!(grid.check.is_empty() && grid.corrected.is_empty());
        assert_eq!((view.width, view.height), (640, 480));
        let image = session.answer_image().expect("an answer image");
        assert_eq!(image.dimensions(), (640, 480));
    }

    #[test]
    fn cells_lie_in_the_grid_in_reading_order() {
        let (_, view) = read("image18.jpg");
        let grid = &view.grids[0];
        let quad = grid.report.photo.as_ref().and_then(|f| f.quad).unwrap();
        let near = |p: Point, q: (f32, f32)| (p[0] - q.0).hypot(p[1] - q.1) < 1.0;
        assert!(
            near(grid.cells[0].corners[0], quad[0]),
            "r1c1 at the top left"
        );
        assert!(
            near(grid.cells[8].corners[1], quad[1]),
            "r1c9 at the top right"
        );
        assert!(
            near(grid.cells[80].corners[2], quad[2]),
            "r9c9 at the bottom right"
        );
        assert!(
            near(grid.cells[72].corners[3], quad[3]),
            "r9c1 at the bottom left"
        );
        assert_eq!(grid.cells[12].name, "r2c4");
        // Neighbours share their corners.
        assert!(near(grid.cells[0].corners[1], {
            let p = grid.cells[1].corners[0];
            (p[0], p[1])
        }));
    }

    #[test]
    fn a_correction_decides_again_and_can_be_undone() {
        let (mut session, view) = read("image18.jpg");
        let solved = view.grids[0].report.clone();
        let givens = solved.givens.clone().unwrap_or_default();
        let clue = givens.find(|c: char| c != '.').expect("a clue");
        let digit = givens.as_bytes()[clue] - b'0';
        // The clue's digit elsewhere in its row: the givens clash.
        let row = clue / 9;
        let other = (row * 9..row * 9 + 9)
            .find(|&c| c != clue && givens.as_bytes()[c] == b'.')
            .expect("an empty cell in the row");
        let clash = session.correct(0, other, Some(digit)).expect("a cell");
        assert_eq!(clash.grids[0].report.status, Status::NoSolution);
        assert_eq!(clash.grids[0].corrected, vec![(other, digit)]);
        assert_eq!(clash.grids[0].cells[other].value, digit);
        // Emptied, the clue leaves a puzzle that still holds the solution.
        let emptied = session.correct(0, other, Some(0)).expect("a cell");
        assert_ne!(emptied.grids[0].report.status, Status::NoSolution);
        let back = session.correct(0, other, None).expect("a cell");
        assert_eq!(back.grids[0].report.status, Status::Solved);
        assert_eq!(back.grids[0].report.solution, solved.solution);
        assert!(back.grids[0].corrected.is_empty());
    }

    #[test]
    fn bad_corrections_are_refused() {
        let (mut session, _) = read("image18.jpg");
        assert_eq!(
            session.correct(1, 0, Some(1)).err(),
            Some(CorrectError::NoGrid(1))
        );
        assert_eq!(
            session.correct(0, 81, Some(1)).err(),
            Some(CorrectError::NoCell(81))
        );
        assert!(matches!(
            session.correct(0, 0, Some(10)),
            Err(CorrectError::BadValue { value: 10, .. })
        ));
        let mut fresh = Session::new().expect("the embedded model");
        assert_eq!(
            fresh.correct(0, 0, Some(1)).err(),
            Some(CorrectError::NoPage)
        );
    }

    #[test]
    fn an_unsure_grid_is_settled_by_the_cells_it_names() {
        let (mut session, view) = read("unsure-blurred.jpg");
        let grid = view
            .grids
            .iter()
            .find(|g| g.report.status == Status::Unsure && !g.check.is_empty())
            .expect("an unsure grid");
        let settle = grid
            .report
            .photo
            .as_ref()
            .map(|f| f.set.clone())
            .unwrap_or_default();
        assert_eq!(settle.len(), grid.check.len(), "{settle:?}");
        let mut last = None;
        for (&cell, arg) in grid.check.iter().zip(&settle) {
            // `--set r7c1=1`: the value after '='.
            let value = arg.rsplit('=').next().and_then(|v| v.parse().ok());
            last = Some(session.correct(grid.index, cell, value).expect("a cell"));
        }
        let settled = last.expect("a correction");
        let after = settled
            .grids
            .iter()
            .find(|g| g.index == grid.index)
            .expect("the grid");
        assert!(after.check.is_empty(), "{:?}", after.report);
        assert_eq!(after.report.status, Status::Solved);
    }

    #[test]
    fn a_photo_without_a_grid_says_so() {
        let mut session = Session::new().expect("the embedded model");
        let blank = {
            let mut bytes = Vec::new();
            let image = image::GrayImage::from_pixel(400, 300, image::Luma([255]));
            image::DynamicImage::ImageLuma8(image)
                .write_to(
                    &mut std::io::Cursor::new(&mut bytes),
                    image::ImageFormat::Png,
                )
                .expect("a PNG");
            bytes
        };
        let view = session.read("blank.png", &blank);
        assert_eq!(view.status, Some(Status::NoGrid));
        assert!(view.grids.is_empty());
        // It says what to try.
        let error = view.error.unwrap_or_default();
        assert!(
            error.contains("all of the grid inside the frame"),
            "{error}"
        );
        let view = session.read("junk.jpg", b"not a photo");
        assert_eq!(view.status, Some(Status::Error));
        assert!(session.answer_image().is_none());
    }

    #[test]
    fn a_hint_is_drawn_for_a_solved_grid() {
        let (session, _) = read("image18.jpg");
        let hints = session.hints();
        assert_eq!(hints.reports.len(), 1);
        assert!(hints.reports[0].hint.is_some(), "{:?}", hints.reports[0]);
        assert!(hints.image.is_some());
    }
}
