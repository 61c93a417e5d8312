//! One page (a photo, or a rendered PDF page) taken all the way: every grid
//! decided and reported, and the answers drawn onto one image.

use image::RgbImage;
use snap_solver::overrides::Target;
use snap_solver::Board;
use snap_vision::{
    decide_grid, draw_digits, grid_kind, kind_as_read, mark_cells, Decision, EntryCheck, GridKind,
    GridReading, Page, PartReading, Timings, Verdict,
};

use crate::report::{round4, EntryReport, PhotoFields, Report, Status};
use crate::shell_word;

/// Why a page with grids has nothing to report: every grid found was empty
/// or no puzzle (see [`numbered`]), and what to do. Most often the grid is
/// a puzzle photographed out of focus (a blurred 16x16's letters read as a
/// row of 9s, as a ruled table's rules would): "no puzzle found" alone
/// reads as if it was never seen. The grids are not named: where the
/// puzzle itself was not found, the largest grid is some other lattice.
pub const NO_PUZZLE: &str = "no Sudoku puzzle found: the grids found read as empty or \
                             unreadable; if one holds a puzzle, photograph it again, sharp \
                             and close";

/// Why a photo has nothing to report when no grid was found on it, and
/// what to try (not said of a PDF page, where a page without a grid is
/// normal): a grid that runs off the edge of the photo is found neither
/// whole nor as cut when too much of it is missing (a 9x9 with its last
/// rows out of the frame, a Samurai with a corner grid cut away).
pub const NO_GRID: &str = "no Sudoku grid found; if the photo shows one, photograph it again \
                           with all of the grid inside the frame";

/// Most cells to check for which the advice lists one `--set` each; with
/// more, correcting the grid as text is quicker (`read`, edit, `--givens`),
/// and the advice says so (the JSON `set` still lists them all).
const MAX_SETS_SHOWN: usize = 12;

/// What the user asked of every grid.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// `--check`: compare a person's pen entries with the solution.
    pub check: bool,
    /// The run reads several inputs: advice names the input it is for.
    pub several_inputs: bool,
}

/// Where a page comes from.
#[derive(Debug, Clone, Copy)]
pub struct Place<'a> {
    /// The input as named on the command line.
    pub name: &'a str,
    /// The PDF page (1-based), `None` for a photo.
    pub page: Option<usize>,
    /// The page's render resolution (PDF pages).
    pub dpi: Option<f32>,
}

impl Place<'_> {
    /// How the page is named in messages: `book.pdf page 3`, `photo.jpg`.
    pub fn label(&self) -> String {
        match self.page {
            Some(p) => format!("{} page {p}", self.name),
            None => self.name.to_string(),
        }
    }
}

/// One grid's result.
#[derive(Debug, Clone)]
pub struct GridResult {
    /// Its grid's index in the page's grids.
    pub index: usize,
    /// Its status.
    pub status: Status,
    /// The reading and decision (for drawing), `None` for a partial grid.
    pub decision: Option<Decision>,
    /// Wrong pen entries (`--check`), layout positions: only entries the
    /// reading is sure of.
    pub wrong_entries: Vec<usize>,
    /// Pen entries read in doubt and cells that may hold a faint entry
    /// (`--check`): named and ringed, never called wrong.
    pub entries_to_check: Vec<usize>,
    /// A printed answer grid (every cell, or nearly, read as printed), not
    /// a puzzle: checked, never solved, and unsure without a puzzle being
    /// left unsolved.
    pub answer_grid: bool,
    /// The JSON line (its `output` filled in by the caller).
    pub report: Report,
    /// Human-readable lines.
    pub text: String,
}

/// The grids of a page that are reported, in reading order: grid `k` of
/// the page is the `k`-th of these. Puzzles and grids cut by the frame;
/// tables that are no puzzle are left out, judged on the reading as it is
/// ([`kind_as_read`]), so that a correction never renumbers the grids it
/// names. A page whose only grids are no puzzle as read keeps its first
/// whole one, so that it can still be corrected (`--givens`).
pub fn numbered(page: &Page) -> Vec<&GridReading> {
    numbered_indices(page)
        .into_iter()
        .map(|i| &page.grids[i])
        .collect()
}

/// The indices in the page's grids of [`numbered`]'s grids.
fn numbered_indices(page: &Page) -> Vec<usize> {
    let kinds: Vec<GridKind> = page.grids.iter().map(kind_as_read).collect();
    let reported: Vec<usize> = (0..kinds.len())
        .filter(|&i| kinds[i].is_reported())
        .collect();
    if reported.is_empty() {
        return (0..kinds.len())
            .filter(|&i| kinds[i] != GridKind::Cut)
            .take(1)
            .collect();
    }
    reported
}

/// Decides every grid of a page with a person's corrections: `cells[k]`
/// are the cells set in grid `k + 1` of the page as [`numbered`] numbers
/// them (layout positions and values, later ones winning; grids past the
/// end of `cells` get none). An error when a correction is for a grid cut
/// by the frame, which is not read.
pub fn grids(
    page: &Page,
    place: &Place,
    options: &Options,
    cells: &[Vec<(usize, u8)>],
) -> Result<Vec<GridResult>, String> {
    let numbered = numbered_indices(page);
    let label = place.label();
    let mut out = Vec::new();
    for (k, &index) in numbered.iter().enumerate() {
        let grid = &page.grids[index];
        let number = k + 1;
        let overrides = cells.get(k).map_or(&[][..], Vec::as_slice);
        let cut = kind_as_read(grid) == GridKind::Cut;
        if cut && !overrides.is_empty() {
            return Err(format!(
                "grid {number} of {label} is cut by the edge of the image: \
                 it is not read, so it cannot be corrected"
            ));
        }
        let decision = decide_grid(grid, overrides);
        let kind = grid_kind(grid, &decision);
        if !kind.is_reported() {
            continue;
        }
        let fields = PhotoFields {
            page: place.page,
            grid: Some(number),
            dpi: place.dpi,
            rotation: Some(u32::from(grid.quarter_turns) * 90),
            quad: Some(grid.quad().corners),
            ..PhotoFields::default()
        };
        let scope = Target {
            input: options.several_inputs.then(|| place.name.to_string()),
            page: place.page,
            grid: (numbered.len() > 1).then_some(number),
        };
        let mut result = if matches!(
            kind,
            GridKind::Cut | GridKind::MaybeCut | GridKind::SamuraiPart
        ) {
            partial(grid, kind, place.name, fields, &page.timings)
        } else {
            decided(
                grid,
                decision,
                kind,
                place,
                fields,
                &page.timings,
                options,
                &scope,
            )
        };
        result.index = index;
        out.push(result);
    }
    // A photo of one puzzle reads as it always has: `photo.jpg: solved ...`.
    if let [only] = out.as_mut_slice() {
        let numbered = format!("{} grid 1:", place.name);
        only.text = only
            .text
            .replacen(&numbered, &format!("{}:", place.name), 1);
    }
    Ok(out)
}

/// A grid cut by the frame, maybe cut ([`GridKind::MaybeCut`]) or a
/// Samurai's grid found alone ([`GridKind::SamuraiPart`]): reported with
/// its quad, never solved or drawn on.
fn partial(
    grid: &GridReading,
    kind: GridKind,
    name: &str,
    fields: PhotoFields,
    timings: &Timings,
) -> GridResult {
    let message = match kind {
        GridKind::MaybeCut => {
            "grid at the edge of the image reads with no single answer, which a crop \
             through its border can cause: not solved; photograph it with a margin"
        }
        GridKind::SamuraiPart => {
            "one grid of a Samurai whose five grids were not all found; alone it has \
             several answers: not solved; photograph the whole Samurai, flat and sharp"
        }
        _ => "grid cut by the edge of the image: not solved",
    }
    .to_string();
    let mut report = Report::failure(name, Status::Partial, message.clone(), true);
    report.shape = Some(grid.shape().name());
    report.photo = Some(fields);
    report.ms = timings.clone();
    GridResult {
        index: 0,
        status: Status::Partial,
        decision: None,
        wrong_entries: Vec::new(),
        entries_to_check: Vec::new(),
        answer_grid: false,
        text: format!("{name}{}: partial, {message}\n", grid_label(&report)),
        report,
    }
}

/// ` grid 2` (and ` page 3`) when the input has more than one.
fn grid_label(report: &Report) -> String {
    let Some(fields) = &report.photo else {
        return String::new();
    };
    let page = fields.page.map_or(String::new(), |p| format!(" page {p}"));
    let grid = fields.grid.map_or(String::new(), |g| format!(" grid {g}"));
    format!("{page}{grid}")
}

/// A decided grid: solved, unsure, broken, or a printed answer grid (`kind`
/// [`GridKind::AnswerGrid`]: checked, valid or not, never solved). `scope`
/// is what the advice's `--set` values must name for this run.
#[allow(
    clippy::too_many_arguments,
    reason = "one grid's whole context, passed once"
)]
fn decided(
    grid: &GridReading,
    d: Decision,
    kind: GridKind,
    place: &Place,
    mut fields: PhotoFields,
    timings: &Timings,
    options: &Options,
    scope: &Target,
) -> GridResult {
    let name = place.name;
    let shape = grid.shape();
    let answer_grid = kind == GridKind::AnswerGrid;
    let status = match (&d.verdict, answer_grid) {
        (Verdict::Solved, true) | (Verdict::NoSolution(_), true) => Status::Complete,
        (Verdict::Solved, false) => Status::Solved,
        (Verdict::Unsure(_), _) => Status::Unsure,
        (Verdict::NoSolution(_), false) => Status::NoSolution,
        (Verdict::Multiple(_), _) => Status::MultipleSolutions,
    };
    let solution = d.solution().cloned();
    let judged = if options.check {
        d.check_entries()
    } else {
        EntryCheck::default()
    };
    let wrong_entries: Vec<usize> = judged.wrong.iter().map(|&(cell, _)| cell).collect();
    fields.read = Some(d.read.to_line());
    fields.repairs = d
        .changes
        .iter()
        .map(|c| {
            format!(
                "{} {} -> {} (p={:.2})",
                shape.cell_name(c.cell),
                snap_solver::digit_char(c.from),
                snap_solver::digit_char(c.to),
                c.probability
            )
        })
        .collect();
    fields.entries = d
        .entries
        .iter()
        .map(|&(cell, digit)| {
            let judge = solution.as_ref().filter(|_| options.check);
            EntryReport {
                cell: shape.cell_name(cell),
                digit,
                correct: judge.and_then(|_| {
                    (!judged.doubt.contains(&cell)).then(|| !wrong_entries.contains(&cell))
                }),
                p_wrong: judge.and_then(|s| {
                    let pen = d.pen.iter().find(|p| p.cell == cell)?;
                    Some(round4(pen.other_than(s.cells[cell])))
                }),
            }
        })
        .collect();
    let checks: Vec<usize> = match &d.verdict {
        Verdict::Unsure(checks) => checks.iter().map(|c| c.cell).collect(),
        _ => wrong_entries
            .iter()
            .copied()
            .chain(judged.to_check())
            .collect(),
    };
    fields.check = checks.iter().map(|&c| shape.cell_name(c)).collect();
    fields.set = d
        .settle()
        .iter()
        .map(|value| {
            format!(
                "--set {}",
                shell_word(&format!("{}{value}", scope.prefix()))
            )
        })
        .collect();
    let mut report = Report {
        path: name.to_string(),
        line: None,
        shape: Some(shape.name()),
        status,
        givens: Some(d.givens.to_line()),
        solution: solution.as_ref().map(Board::to_line),
        solutions: d.outcome.count(),
        confidence: Some(round4(d.confidence)),
        error: d.problem(),
        photo: Some(fields),
        logic: None,
        ms: timings.clone(),
    };
    if status == Status::Complete {
        // An answer grid: valid, or the clash is the error.
        report.solution = None;
    }
    let text = describe(grid, &d, &report, status, options, &judged, place, scope);
    let answer_grid = kind.holds_answers(&d);
    GridResult {
        index: 0,
        status,
        decision: Some(d),
        wrong_entries,
        entries_to_check: judged.to_check(),
        answer_grid,
        report,
        text,
    }
}

/// The human-readable lines for one grid.
#[allow(
    clippy::too_many_arguments,
    reason = "one grid's whole context, passed once"
)]
fn describe(
    grid: &GridReading,
    d: &Decision,
    report: &Report,
    status: Status,
    options: &Options,
    judged: &EntryCheck,
    place: &Place,
    scope: &Target,
) -> String {
    let shape = grid.shape();
    let label = grid_label(report);
    let name = &report.path;
    let ms = report.ms.total();
    let mut text = match status {
        Status::Solved => format!(
            "{name}{label}: solved in {ms:.0} ms, confidence {:.2}\n",
            d.confidence
        ),
        Status::Complete => match &d.verdict {
            Verdict::NoSolution(why) => format!("{name}{label}: complete grid, not valid: {why}\n"),
            _ => format!("{name}{label}: complete grid, valid\n"),
        },
        // The problem of an unsure reading starts with "unsure" itself.
        Status::Unsure => format!("{name}{label}: {}\n", d.problem().unwrap_or_default()),
        _ => format!("{name}{label}: {}\n", sentence(status, d.problem())),
    };
    let settle = &report.photo.as_ref().map_or(&[][..], |f| f.set.as_slice());
    if settle.len() > MAX_SETS_SHOWN {
        text.push_str(&format!(
            "  to settle it, check these {} cells on the photo, or correct the grid as text: \
             {} > grid.txt, edit it, then {} --givens {}grid.txt\n",
            settle.len(),
            command(place, "sudoku-snap read "),
            command(place, "sudoku-snap "),
            scope.grid.map_or(String::new(), |g| format!("g{g}:"))
        ));
    } else if !settle.is_empty() {
        text.push_str(&format!(
            "  to settle it, check each cell on the photo and set what it shows; likeliest: {}\n",
            settle.join(" ")
        ));
    } else if matches!(status, Status::NoSolution | Status::MultipleSolutions) {
        let cell = d.read.clashes().first().map_or_else(
            || shape.cell_name(first_cell(&d.read)),
            |&(a, _)| shape.cell_name(a),
        );
        let set = |value: &str| {
            format!(
                "--set {}",
                shell_word(&format!("{}{cell}={value}", scope.prefix()))
            )
        };
        text.push_str(&format!(
            "  if a cell was misread, correct it with {} (or {} for empty)\n",
            set("D"),
            set(".")
        ));
    }
    if let Some(fields) = &report.photo {
        if !fields.repairs.is_empty() {
            text.push_str(&format!(
                "  read otherwise: {}\n",
                fields.repairs.join(", ")
            ));
        }
    }
    if options.check {
        text.push_str(&check_line(d, judged, shape));
    }
    let solution = d.solution().filter(|_| status != Status::Complete);
    text.push_str(&side_by_side(&d.givens, solution));
    text
}

/// A status and its reason as one sentence: `no solution: givens clash
/// ...`, and `no solution` alone when the reason says nothing more.
fn sentence(status: Status, problem: Option<String>) -> String {
    let words = status.as_str().replace('_', " ");
    match problem {
        Some(p) if p.starts_with(&words) => p,
        Some(p) if !p.is_empty() => format!("{words}: {p}"),
        _ => words,
    }
}

/// `sudoku-snap read book.pdf --pages 3`: a command on this page alone.
fn command(place: &Place, start: &str) -> String {
    let pages = place
        .page
        .map_or(String::new(), |p| format!(" --pages {p}"));
    format!("{start}{}{pages}", shell_word(place.name))
}

/// `--check`'s verdict on a person's entries: wrong only where the reading
/// is sure; entries read in doubt and cells that may hold a faint entry
/// are named to check, and counted neither as right nor as to go.
fn check_line(d: &Decision, judged: &EntryCheck, shape: snap_solver::Shape) -> String {
    if d.solution().is_none() {
        return "  check: no sure solution to compare the entries with\n".to_string();
    }
    let open = (0..d.givens.cells.len())
        .filter(|&i| shape.contains(i) && d.givens.cells[i] == 0)
        .count();
    let entries = d
        .entries
        .iter()
        .filter(|e| d.givens.cells.get(e.0) == Some(&0))
        .count();
    let to_go = open.saturating_sub(entries + judged.faint.len());
    let mut lines = String::new();
    if !judged.wrong.is_empty() {
        let names: Vec<String> = judged
            .wrong
            .iter()
            .map(|&(c, digit)| format!("{} ({digit} is wrong)", shape.cell_name(c)))
            .collect();
        lines.push_str(&format!("  check: wrong entries: {}\n", names.join(", ")));
    }
    if !judged.doubt.is_empty() || !judged.faint.is_empty() {
        let mut names: Vec<String> = judged
            .doubt
            .iter()
            .map(|&c| {
                let digit = d.entries.iter().find(|e| e.0 == c).map_or(0, |e| e.1);
                format!("{} (read as {digit} in doubt)", shape.cell_name(c))
            })
            .collect();
        names.extend(
            judged
                .faint
                .iter()
                .map(|&c| format!("{} (may hold a faint entry)", shape.cell_name(c))),
        );
        lines.push_str(&format!(
            "  check: entries to look at on the paper: {}\n",
            names.join(", ")
        ));
    }
    if !lines.is_empty() {
        return lines;
    }
    if to_go == 0 {
        "  complete: all correct\n".to_string()
    } else {
        format!("  check: {entries} entries, all correct so far ({to_go} cells to go)\n")
    }
}

/// The first cell of the layout that is a cell of the puzzle.
fn first_cell(board: &Board) -> usize {
    (0..board.cells.len())
        .find(|&i| board.shape.contains(i))
        .unwrap_or(0)
}

/// The grid as read and the solution, side by side.
fn side_by_side(givens: &Board, solution: Option<&Board>) -> String {
    let read = givens.to_pretty();
    let solved = solution.map(|s| s.to_pretty());
    let width = read.lines().map(|l| l.chars().count()).max().unwrap_or(0) + 3;
    let mut out = format!(
        "  {:<width$}{}\n",
        "read",
        if solved.is_some() { "solution" } else { "" }
    );
    let solved_lines: Vec<&str> = solved
        .as_deref()
        .map_or_else(Vec::new, |s| s.lines().collect());
    for (i, line) in read.lines().enumerate() {
        match solved_lines.get(i) {
            Some(s) => out.push_str(&format!("  {line:<width$}{s}\n")),
            None => out.push_str(&format!("  {line}\n")),
        }
    }
    out
}

/// What to draw on one square part of a grid (a 9x9, or one of a
/// Samurai's five): which part of which of the page's grids, the digits to
/// write and the cells to ring, by cell in reading order within the part.
#[derive(Debug, Clone)]
pub struct PartMarks {
    /// The grid, an index into the page's grids.
    pub grid: usize,
    /// The part, an index into that grid's parts.
    pub part: usize,
    /// The missing digits of the solution.
    pub digits: Vec<(usize, u8)>,
    /// Cells to check and wrong entries.
    pub rings: Vec<usize>,
}

impl PartMarks {
    /// The part of `page` these marks are drawn on.
    pub fn part<'a>(&self, page: &'a Page) -> Option<&'a PartReading> {
        page.grids.get(self.grid)?.parts.get(self.part)
    }
}

/// The answers of a page to draw: the missing digits of solved and unsure
/// grids (never over a person's pen entries), and cells to check and wrong
/// entries to ring. Empty when nothing is to be drawn.
pub fn marks(page: &Page, results: &[GridResult]) -> Vec<PartMarks> {
    let mut out = Vec::new();
    for result in results {
        let g = result.index;
        let Some(grid) = page.grids.get(g) else {
            continue;
        };
        let Some(d) = &result.decision else { continue };
        let solution = d.solution().filter(|_| result.status != Status::Complete);
        let mut rings: Vec<usize> = result.wrong_entries.clone();
        rings.extend(&result.entries_to_check);
        if let Verdict::Unsure(checks) = &d.verdict {
            rings.extend(checks.iter().map(|c| c.cell));
        }
        // An unsure grid whose answer is not shown still gets its cells
        // to check ringed: that is where the person has to look.
        if solution.is_none() && rings.is_empty() {
            continue;
        }
        // A person's pen ink, sure or faint, is never drawn over.
        let entries: Vec<usize> = d.inked();
        let positions = d.givens.cells.len();
        let side = grid.side();
        // A Samurai's corner boxes belong to two of its grids: each cell is
        // drawn by the first part that holds it, so it is drawn once (two
        // parts' homographies differ by a pixel or two, and twice would blur).
        let mut done = vec![false; positions];
        for (p, part) in grid.parts.iter().enumerate() {
            let mine: Vec<(usize, usize)> = (0..positions)
                .filter(|&i| !done[i])
                .filter_map(|i| part.local_cell(i, side).map(|k| (i, k)))
                .collect();
            let digits: Vec<(usize, u8)> = solution.map_or_else(Vec::new, |solution| {
                mine.iter()
                    .filter(|&&(i, _)| d.givens.cells[i] == 0 && !entries.contains(&i))
                    .map(|&(i, k)| (k, solution.cells[i]))
                    .collect()
            });
            let ring: Vec<usize> = mine
                .iter()
                .filter(|(i, _)| rings.contains(i))
                .map(|&(_, k)| k)
                .collect();
            for &(i, _) in &mine {
                done[i] = true;
            }
            out.push(PartMarks {
                grid: g,
                part: p,
                digits,
                rings: ring,
            });
        }
    }
    out
}

/// The page with `marks` drawn in, `None` when there are none. The page's
/// colour pixels are taken to draw on, not copied.
pub fn draw(page: &mut Page, marks: &[PartMarks]) -> Option<RgbImage> {
    if marks.is_empty() {
        return None;
    }
    let mut image = page.photo.take_rgb();
    draw_marks(&mut image, page, marks);
    Some(as_viewed(page, image))
}

/// As [`draw`], on a copy of the page's colour pixels: the page keeps them
/// (the web page draws again after every correction).
pub fn draw_copy(page: &Page, marks: &[PartMarks]) -> Option<RgbImage> {
    if marks.is_empty() {
        return None;
    }
    let mut image = page.photo.rgb().clone();
    draw_marks(&mut image, page, marks);
    Some(as_viewed(page, image))
}

/// Draws `marks` onto `image`, the page's pixels as stored.
fn draw_marks(image: &mut RgbImage, page: &Page, marks: &[PartMarks]) {
    draw_piece(image, (0, 0), page, marks);
}

/// Draws `marks` onto `piece`, a piece of the page's pixels as stored
/// whose top-left pixel is the page's pixel `origin`.
pub fn draw_piece(piece: &mut RgbImage, origin: (u32, u32), page: &Page, marks: &[PartMarks]) {
    for m in marks {
        let Some(part) = m.part(page) else { continue };
        // Drawing needs only the part's map onto the piece and its size.
        let on_piece = PartReading {
            grid_to_photo: part.grid_to_photo.shifted(origin.0 as f32, origin.1 as f32),
            n: part.n,
            origin: part.origin,
            tiles: Vec::new(),
            classes: Vec::new(),
            negative: part.negative,
        };
        // The homography comes from a valid quad, so it inverts; if it
        // somehow does not, the part is left undrawn rather than failing.
        let _ = draw_digits(piece, &on_piece, &m.digits);
        let _ = mark_cells(piece, &on_piece, &m.rings);
    }
}

/// The page's pixels, as rectangles `[x0, y0, x1, y1]` (ends exclusive),
/// that drawing `marks` may change.
pub fn drawn_areas(page: &Page, marks: &[PartMarks]) -> Vec<[u32; 4]> {
    let size = page.photo.gray.dimensions();
    marks
        .iter()
        .filter_map(|m| {
            Some(snap_vision::drawn_areas(
                m.part(page)?,
                &m.digits,
                &m.rings,
                size,
            ))
        })
        .flatten()
        .collect()
}

/// An answer drawn on `page`'s stored pixels, turned the way a viewer shows
/// the photo when that is right: when the grids had to be turned to read
/// upright and the EXIF tag says the same, the tag was right and the image
/// is turned as the user sees the photo; otherwise pixels keep their stored
/// orientation (several photos carry stale tags).
pub fn as_viewed(page: &Page, image: RgbImage) -> RgbImage {
    match viewed_turns(page) {
        0 => image,
        1 => image::imageops::rotate90(&image),
        2 => image::imageops::rotate180(&image),
        _ => image::imageops::rotate270(&image),
    }
}

/// The clockwise quarter turns [`as_viewed`] gives `page`'s images: the
/// EXIF tag's when every grid had to be turned as it says, else none.
pub fn viewed_turns(page: &Page) -> u8 {
    let turns = exif_turns(page);
    if turns == 0 || !page.grids.iter().all(|g| g.quarter_turns == turns) {
        return 0;
    }
    turns
}

/// The clockwise quarter turns the EXIF tag asks for (0 when absent).
fn exif_turns(page: &Page) -> u8 {
    match page.photo.exif_orientation {
        6 => 1,
        3 => 2,
        8 => 3,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_status_and_its_reason_read_as_one_sentence() {
        let no = Status::NoSolution;
        assert_eq!(sentence(no, Some("no solution".into())), "no solution");
        assert_eq!(sentence(no, None), "no solution");
        assert_eq!(
            sentence(no, Some("givens clash: r1c1 and r1c2 are both 4".into())),
            "no solution: givens clash: r1c1 and r1c2 are both 4"
        );
        assert_eq!(
            sentence(no, Some("no solution: no digit fits r1c1".into())),
            "no solution: no digit fits r1c1"
        );
    }
}
