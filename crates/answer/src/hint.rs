//! The next step for a person stuck on a puzzle who wants to go on by
//! themselves, not to see the whole answer (`sudoku-snap hint` and the web
//! page's hint).
//!
//! For each grid read with confidence, the position is its givens plus the
//! person's pen entries; a wrong entry is named instead of a step (any step
//! from a wrong position would build on the mistake). The step is the logic
//! engine's simplest one (`snap_solver::logic::next_step_with`), checked
//! against the solution before it is shown, and drawn onto the photo: the
//! unit and cells that justify it shaded, the digit placed or the
//! candidates struck out, and the step in words in a band under the photo.
//! A grid the reader is unsure of gets no step (it could be a wrong one):
//! its cells to check are ringed and the `--set` that would settle each is
//! named.

use image::RgbImage;
use snap_solver::logic::{self, Candidates, LogicError, Placement, Step, Technique};
use snap_solver::{solve, Board, Outcome, Shape, DEFAULT_LIMIT};
use snap_vision::{
    caption, draw_digits, mark_cells, shade_cells, strike_candidates, Page, Verdict,
};

use crate::answer::{self, GridResult};
use crate::report::{CellDigit, HintReport, Status, StepReport};

/// Shade of the unit(s) that justify a step: a pale yellow, like a
/// highlighter, under which print stays readable.
const UNIT_SHADE: ([u8; 3], f32) = ([255, 214, 0], 0.3);

/// Shade of the cells a step rests on (a pair's cells, a wing's pivot and
/// pincers): the same yellow, stronger, so they stand out in their unit.
const CELL_SHADE: ([u8; 3], f32) = ([255, 170, 0], 0.45);

/// Shade of a cell the step fills: green, "fill this in".
const TARGET_SHADE: ([u8; 3], f32) = ([0, 190, 90], 0.3);

/// Shade of a cell the step removes candidates from: a pale red, the
/// colour of the struck-out candidates drawn in it.
const REMOVAL_SHADE: ([u8; 3], f32) = ([230, 60, 60], 0.15);

/// What to tell a person about the puzzle they are solving.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Advice {
    /// The next step of logic.
    Step(Step),
    /// No technique the engine knows applies here: the solution's digit in
    /// the empty cell with the fewest candidates (the easiest to check).
    FromSolution(Placement),
    /// Pen entries `(cell, digit)` that disagree with the solution.
    Wrong(Vec<(usize, u8)>),
    /// Every cell is filled in, and correctly.
    Done,
}

impl Advice {
    /// The advice in words, with `shape`'s cell names.
    fn describe(&self, shape: Shape) -> String {
        match self {
            Advice::Step(step) => step.describe(),
            Advice::FromSolution(p) => format!(
                "{} = {} (no technique applies here; the digit is the solution's)",
                shape.cell_name(p.cell),
                p.digit
            ),
            Advice::Wrong(wrong) => {
                let names: Vec<String> = wrong
                    .iter()
                    .map(|&(cell, digit)| format!("{} is not {digit}", shape.cell_name(cell)))
                    .collect();
                let them = if wrong.len() == 1 { "it" } else { "them" };
                format!(
                    "wrong entry: {}; erase {them} and go on from there",
                    names.join(", ")
                )
            }
            Advice::Done => "complete: all correct".to_string(),
        }
    }

    /// The step as JSON data (`None` for wrong entries and a finished grid).
    fn step_report(&self, shape: Shape) -> Option<StepReport> {
        match self {
            Advice::Step(step) => Some(StepReport::of(step)),
            Advice::FromSolution(p) => Some(StepReport {
                technique: "solution",
                placements: vec![CellDigit {
                    cell: shape.cell_name(p.cell),
                    digit: p.digit,
                }],
                eliminations: Vec::new(),
                reason: self.describe(shape),
            }),
            Advice::Wrong(_) | Advice::Done => None,
        }
    }
}

/// The advice for a puzzle with one `solution`, at the position of its
/// `givens` with a person's `entries` (cell, digit) filled in; also that
/// position. The step is checked against the solution: a step that
/// disagrees with it (a bug of the engine) is never shown, the digit of the
/// solution is. Errors for shapes the logic engine does not know.
fn advise(
    givens: &Board,
    entries: &[(usize, u8)],
    solution: &Board,
) -> Result<(Board, Advice), LogicError> {
    let wrong: Vec<(usize, u8)> = entries
        .iter()
        .copied()
        .filter(|&(cell, digit)| solution.cells.get(cell) != Some(&digit))
        .collect();
    let mut position = givens.clone();
    for &(cell, digit) in entries {
        if let Some(value) = position.cells.get_mut(cell) {
            *value = digit;
        }
    }
    if !wrong.is_empty() {
        return Ok((position, Advice::Wrong(wrong)));
    }
    let shape = position.shape;
    let open = (0..position.cells.len()).any(|i| shape.contains(i) && position.cells[i] == 0);
    if !open {
        return Ok((position, Advice::Done));
    }
    let grid = Candidates::from_board(&position)?;
    // The solution is unique (the caller solved the puzzle), which is what
    // allows uniqueness techniques.
    let options = logic::Options { unique: true };
    let step = logic::next_step_with(&grid, &options)
        .filter(|s| grid.changed_by(s) && !s.contradicts(solution));
    let advice = match step {
        Some(step) => Advice::Step(step),
        None => {
            let cell = (0..81)
                .filter(|&c| grid.value(c) == 0)
                .min_by_key(|&c| grid.mask(c).count_ones())
                .unwrap_or(0);
            Advice::FromSolution(Placement {
                cell,
                digit: solution.cells[cell],
            })
        }
    };
    Ok((position, advice))
}

/// What one grid or text puzzle gets: the words and what to draw.
#[derive(Debug, Clone)]
pub struct Hint {
    /// The puzzle's status, as the main job reports it.
    pub status: Status,
    /// Its shape, for cell names.
    shape: Shape,
    /// The position the advice is for.
    position: Option<Board>,
    /// The advice, when one could be given.
    advice: Option<Advice>,
    /// Why there is no advice (unsure reading, no or several solutions, ...).
    error: Option<String>,
    /// Cells to check (an unsure reading, or pen entries read in doubt),
    /// layout positions.
    check: Vec<usize>,
    /// The `--set` arguments that would settle an unsure reading.
    set: Vec<String>,
    /// Nothing more to ask for: advice was given, or there is nothing to
    /// advise on (a printed, valid answer grid).
    pub ok: bool,
}

impl Hint {
    /// A puzzle that gets no advice, with the reason.
    pub fn none(status: Status, shape: Shape, error: String) -> Hint {
        Hint {
            status,
            shape,
            position: None,
            advice: None,
            error: Some(error),
            check: Vec::new(),
            set: Vec::new(),
            ok: false,
        }
    }

    /// The advice for a puzzle with one solution (or why there is none).
    fn for_solution(
        status: Status,
        givens: &Board,
        entries: &[(usize, u8)],
        solution: &Board,
    ) -> Hint {
        match advise(givens, entries, solution) {
            Ok((position, advice)) => Hint {
                status,
                shape: givens.shape,
                position: Some(position),
                advice: Some(advice),
                error: None,
                check: Vec::new(),
                set: Vec::new(),
                ok: true,
            },
            Err(e) => Hint::none(status, givens.shape, format!("no hint: {e}")),
        }
    }

    /// The one line of words.
    pub fn words(&self) -> String {
        match (&self.advice, &self.error) {
            (Some(advice), _) if !self.check.is_empty() => {
                let cells: Vec<String> = self
                    .check
                    .iter()
                    .map(|&c| self.shape.cell_name(c))
                    .collect();
                format!(
                    "{}; check {} on the paper (an entry read in doubt, or faint)",
                    advice.describe(self.shape),
                    cells.join(", ")
                )
            }
            (Some(advice), _) => advice.describe(self.shape),
            (None, Some(error)) if !self.set.is_empty() => {
                format!("{error}; to settle it: {}", self.set.join(" "))
            }
            (None, Some(error)) => error.clone(),
            (None, None) => String::new(),
        }
    }

    /// The JSON line's data.
    pub fn report(&self, path: &str, line: Option<usize>, grid: Option<usize>) -> HintReport {
        let shape = self.shape;
        let wrong = match &self.advice {
            Some(Advice::Wrong(wrong)) => wrong
                .iter()
                .map(|&(cell, digit)| CellDigit {
                    cell: shape.cell_name(cell),
                    digit,
                })
                .collect(),
            _ => Vec::new(),
        };
        HintReport {
            path: path.to_string(),
            line,
            grid,
            status: self.status,
            position: self.position.as_ref().map(Board::to_line),
            hint: self.advice.as_ref().map(|a| a.describe(shape)),
            step: self.advice.as_ref().and_then(|a| a.step_report(shape)),
            wrong,
            check: self.check.iter().map(|&c| shape.cell_name(c)).collect(),
            set: self.set.clone(),
            error: self.error.clone(),
            output: None,
        }
    }
}

/// The hint for a text puzzle: it must have one solution.
pub fn text_hint(board: &Board) -> Hint {
    match solve(board, DEFAULT_LIMIT) {
        Ok(Outcome::Unique(solution)) => Hint::for_solution(Status::Solved, board, &[], &solution),
        Ok(Outcome::NoSolution) => Hint::none(
            Status::NoSolution,
            board.shape,
            "no solution: no hint to give".into(),
        ),
        Err(clash) => Hint::none(
            Status::NoSolution,
            board.shape,
            format!("no solution ({clash}): no hint to give"),
        ),
        Ok(Outcome::Multiple { .. }) => Hint::none(
            Status::MultipleSolutions,
            board.shape,
            "several solutions: a hint needs a puzzle with exactly one".into(),
        ),
    }
}

/// The hint for one grid of a photo, from the main job's decision.
pub fn photo_hint(result: &GridResult) -> Hint {
    let shape = result
        .decision
        .as_ref()
        .map_or_else(Shape::classic, |d| d.givens.shape);
    let error = result.report.error.clone().unwrap_or_default();
    let Some(d) = &result.decision else {
        // A grid cut by the frame: never solved, so never hinted.
        return Hint::none(result.status, shape, error);
    };
    match (result.status, d.solution()) {
        (Status::Solved, Some(solution)) => {
            // Only an entry the reading is sure of is called wrong; one read
            // in doubt is taken as the solution's digit (so no step is
            // built on a misreading, nor put in a cell already written in)
            // and, with a cell that may hold a faint entry, named to check
            // on the paper, never to erase.
            let judged = d.check_entries();
            let sure: Vec<(usize, u8)> = d
                .entries
                .iter()
                .map(|&(cell, digit)| {
                    if judged.doubt.contains(&cell) {
                        (cell, solution.cells[cell])
                    } else {
                        (cell, digit)
                    }
                })
                .collect();
            let mut hint = Hint::for_solution(Status::Solved, &d.givens, &sure, solution);
            hint.check = judged.to_check();
            hint
        }
        (Status::Complete, _) => {
            let valid = matches!(d.verdict, Verdict::Solved);
            let mut hint = Hint::none(
                Status::Complete,
                shape,
                if valid {
                    "complete grid, valid: nothing to hint".to_string()
                } else {
                    format!("complete grid, not valid: {error}")
                },
            );
            hint.ok = valid;
            hint
        }
        (status, _) => {
            let mut hint = Hint::none(status, shape, error);
            if let Verdict::Unsure(checks) = &d.verdict {
                hint.check = checks.iter().map(|c| c.cell).collect();
                hint.set = result
                    .report
                    .photo
                    .as_ref()
                    .map_or_else(Vec::new, |f| f.set.clone());
            }
            hint
        }
    }
}

/// The page with every grid's hint drawn on it, turned as the main job
/// turns answers, and the hints' words in a band below (`labels`: each
/// grid's number where the page has several). `None` when no grid has
/// anything to draw.
pub fn draw(
    page: &Page,
    results: &[GridResult],
    hints: &[Hint],
    labels: &[Option<usize>],
) -> Option<RgbImage> {
    let image = draw_marks(page, results, hints)?;
    let lines: Vec<String> = hints
        .iter()
        .zip(labels)
        .map(|(hint, grid)| match grid {
            Some(g) => format!("grid {g}: {}", hint.words()),
            None => hint.words(),
        })
        .collect();
    Some(caption(&image, &lines))
}

/// The page with every grid's hint drawn on it (`hints` in the order of
/// `results`), turned as the main job turns answers, without words. `None`
/// when no grid has anything to draw.
pub fn draw_marks(page: &Page, results: &[GridResult], hints: &[Hint]) -> Option<RgbImage> {
    let mut image = page.photo.rgb().clone();
    let mut drawn = false;
    for (result, hint) in results.iter().zip(hints) {
        let Some(grid) = page.grids.get(result.index) else {
            continue;
        };
        let marks = Marks::of(hint);
        if marks.is_empty() {
            continue;
        }
        drawn = true;
        let side = grid.side();
        for part in &grid.parts {
            let local = |cell: usize| part.local_cell(cell, side);
            let cells =
                |list: &[usize]| -> Vec<usize> { list.iter().filter_map(|&c| local(c)).collect() };
            let pairs = |list: &[(usize, u8)]| -> Vec<(usize, u8)> {
                list.iter()
                    .filter_map(|&(c, d)| local(c).map(|k| (k, d)))
                    .collect()
            };
            let shade =
                |image: &mut RgbImage, list: &[usize], (colour, opacity): ([u8; 3], f32)| {
                    shade_cells(image, part, &cells(list), colour, opacity)
                };
            // The homography comes from a valid quad, so it inverts; if it
            // somehow does not, the part is left undrawn rather than failing.
            let _ = shade(&mut image, &marks.units, UNIT_SHADE);
            let _ = shade(&mut image, &marks.cells, CELL_SHADE);
            let _ = shade(&mut image, &marks.removal_cells(), REMOVAL_SHADE);
            let _ = shade(&mut image, &marks.target_cells(), TARGET_SHADE);
            let _ = draw_digits(&mut image, part, &pairs(&marks.place));
            let _ = strike_candidates(&mut image, part, &pairs(&marks.remove));
            let _ = mark_cells(&mut image, part, &cells(&marks.ring));
        }
    }
    if !drawn {
        return None;
    }
    // Turned as the main job turns its answer images.
    Some(answer::as_viewed(page, image))
}

/// What a hint draws, in layout positions.
#[derive(Debug, Default)]
struct Marks {
    /// Cells of the justifying units.
    units: Vec<usize>,
    /// The cells the step rests on (not those it changes).
    cells: Vec<usize>,
    /// Digits to write in.
    place: Vec<(usize, u8)>,
    /// Candidates to strike out.
    remove: Vec<(usize, u8)>,
    /// Cells to ring in red: wrong entries, cells to check.
    ring: Vec<usize>,
}

impl Marks {
    fn of(hint: &Hint) -> Marks {
        let mut marks = Marks {
            ring: hint.check.clone(),
            ..Marks::default()
        };
        match &hint.advice {
            Some(Advice::Step(step)) => {
                marks.units = step.units.iter().flat_map(|u| u.cells()).collect();
                marks.place = step.placements.iter().map(|p| (p.cell, p.digit)).collect();
                marks.remove = step
                    .eliminations
                    .iter()
                    .map(|e| (e.cell, e.digit))
                    .collect();
                marks.cells = step
                    .cells
                    .iter()
                    .copied()
                    .filter(|c| !marks.place.iter().any(|p| p.0 == *c))
                    .collect();
                if let Some(position) = &hint.position {
                    marks.cells.extend(single_reasons(step, position));
                }
            }
            Some(Advice::FromSolution(p)) => marks.place = vec![(p.cell, p.digit)],
            Some(Advice::Wrong(wrong)) => marks.ring.extend(wrong.iter().map(|w| w.0)),
            Some(Advice::Done) | None => {}
        }
        marks
    }

    fn is_empty(&self) -> bool {
        self.units.is_empty()
            && self.cells.is_empty()
            && self.place.is_empty()
            && self.remove.is_empty()
            && self.ring.is_empty()
    }

    /// Cells that get a digit.
    fn target_cells(&self) -> Vec<usize> {
        self.place.iter().map(|p| p.0).collect()
    }

    /// Cells that lose candidates, each once.
    fn removal_cells(&self) -> Vec<usize> {
        let mut cells: Vec<usize> = self.remove.iter().map(|r| r.0).collect();
        cells.sort_unstable();
        cells.dedup();
        cells
    }
}

/// The filled cells that rule a single's digit out: for a hidden single,
/// one filled peer holding the digit for each other empty cell of the unit;
/// for a naked single, one filled peer holding each other digit. Empty for
/// other techniques (their own cells and units are their reasons).
///
/// A hint starts from a fresh candidate grid (`Candidates::from_board`: no
/// earlier eliminations), so every candidate missing from a cell is missing
/// because a filled peer holds it, and such a peer is always found.
fn single_reasons(step: &Step, position: &Board) -> Vec<usize> {
    let [target] = step.placements[..] else {
        return Vec::new();
    };
    let filled = |cell: usize, digit: u8| position.cells.get(cell) == Some(&digit);
    let mut reasons: Vec<usize> = Vec::new();
    // A reason already chosen is used again where it serves, so that the
    // set stays small (one 4 may block two cells of the box).
    let mut blocker = |cell: usize, digit: u8| {
        let peers = || (0..81).filter(move |&p| sees(cell, p) && filled(p, digit));
        if let Some(p) = peers()
            .find(|p| reasons.contains(p))
            .or_else(|| peers().next())
        {
            if !reasons.contains(&p) {
                reasons.push(p);
            }
        }
    };
    match (step.technique, step.units.first()) {
        (Technique::HiddenSingle, Some(unit)) => {
            for cell in unit.cells() {
                if cell != target.cell && position.cells.get(cell) == Some(&0) {
                    blocker(cell, target.digit);
                }
            }
        }
        (Technique::NakedSingle, _) => {
            for digit in (1..=9).filter(|&d| d != target.digit) {
                blocker(target.cell, digit);
            }
        }
        _ => {}
    }
    reasons
}

/// True when two different cells of a 9x9 grid share a row, column or box.
fn sees(a: usize, b: usize) -> bool {
    let (ra, ca, rb, cb) = (a / 9, a % 9, b / 9, b % 9);
    a != b && (ra == rb || ca == cb || (ra / 3 == rb / 3 && ca / 3 == cb / 3))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PUZZLE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    const SOLUTION: &str =
        "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

    fn board(line: &str) -> Board {
        Board::parse(line, Shape::classic()).unwrap()
    }

    #[test]
    fn the_first_step_from_the_givens_agrees_with_the_solution() {
        let (position, advice) = advise(&board(PUZZLE), &[], &board(SOLUTION)).unwrap();
        assert_eq!(position, board(PUZZLE));
        let Advice::Step(step) = advice else {
            panic!("a step: {advice:?}")
        };
        assert!(!step.contradicts(&board(SOLUTION)));
        assert_eq!(step.describe(), "r6c2 = 4 (hidden single in box 4)");
    }

    #[test]
    fn correct_pen_entries_move_the_position_on() {
        // r6c2 = 4 written in: the next hint is another step.
        let (position, advice) = advise(&board(PUZZLE), &[(46, 4)], &board(SOLUTION)).unwrap();
        assert_eq!(position.cells[46], 4);
        let Advice::Step(step) = advice else {
            panic!("a step: {advice:?}")
        };
        assert!(step.placements.iter().all(|p| p.cell != 46));
    }

    #[test]
    fn a_wrong_pen_entry_is_named_instead_of_a_step() {
        let (_, advice) = advise(&board(PUZZLE), &[(46, 4), (1, 2)], &board(SOLUTION)).unwrap();
        assert_eq!(advice, Advice::Wrong(vec![(1, 2)]));
        assert_eq!(
            advice.describe(Shape::classic()),
            "wrong entry: r1c2 is not 2; erase it and go on from there"
        );
    }

    #[test]
    fn a_filled_grid_is_done() {
        let solution = board(SOLUTION);
        let entries: Vec<(usize, u8)> = (0..81)
            .filter(|&i| board(PUZZLE).cells[i] == 0)
            .map(|i| (i, solution.cells[i]))
            .collect();
        let (_, advice) = advise(&board(PUZZLE), &entries, &solution).unwrap();
        assert_eq!(advice, Advice::Done);
    }

    #[test]
    fn marks_shade_the_unit_and_place_the_digit() {
        let hint = text_hint(&board(PUZZLE));
        assert!(hint.ok);
        let marks = Marks::of(&hint);
        assert_eq!(marks.place, vec![(46, 4)]);
        assert_eq!(marks.units.len(), 9, "box 4");
        assert!(!marks.cells.contains(&46), "the target is not a reason");
        // Box 4's other empty cells each see a 4: r1c1's in column 1,
        // r9c3's in column 3 and r5c7's in row 5.
        let mut reasons = marks.cells.clone();
        reasons.sort_unstable();
        assert_eq!(reasons, vec![0, 42, 74]);
    }

    #[test]
    fn puzzles_without_one_solution_get_no_hint() {
        let several = text_hint(&board(&".".repeat(81)));
        assert_eq!(several.status, Status::MultipleSolutions);
        assert!(!several.ok);
        let clash = text_hint(&board(&format!("11{}", ".".repeat(79))));
        assert_eq!(clash.status, Status::NoSolution);
        assert!(
            clash.words().starts_with("no solution"),
            "{}",
            clash.words()
        );
    }
}
