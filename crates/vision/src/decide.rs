//! From what the reader saw in each cell to a puzzle, its answer, and how
//! sure the tool may be of it: the stage that must never draw a wrong answer.
//!
//! The classifier gives every cell a probability for each value it may hold
//! as a *printed clue* (0 for "no printed clue": empty, a person's pen
//! entry, pencil marks), and separately how likely the cell is a pen entry.
//! A cell is *sure* when its most likely value has at least [`SURE`]; only
//! unsure cells may be read otherwise, and only as values the classifier
//! gives at least [`ALTERNATIVE_MIN`].
//!
//! Readings are weighed by likelihood: a reading that changes unsure cells
//! costs `ln p(read) - ln p(alternative)` per cell, and is tried cheapest
//! first. A real, well-printed puzzle has exactly one solution, so every
//! reading that does is a *hypothesis*; so is "the puzzle is printed as
//! read and really has no or several solutions" (printed puzzles can be
//! broken), with prior weight [`BROKEN_PRIOR`]. The answer's confidence is
//! the posterior share of the best hypothesis's *solution* among the
//! hypotheses found within `MARGIN` of it (readings that differ only in
//! ways that do not change the solution agree on the answer):
//!
//! ```text
//! confidence = sum of exp(-cost) over valid readings with the best's solution
//!            / (sum of exp(-cost) over all valid readings
//!               + BROKEN_PRIOR when the reading as is is not valid)
//! ```
//!
//! The hypotheses are the readings within [`MAX_CHANGES`] changes (more on
//! a 16x16, see [`SIXTEEN_CHANGES`]), so the share is then weighed by the
//! chance that the truth is among them (at most that many unsure cells
//! misread): a reading with many unsure cells gets little confidence
//! whatever the search finds near it.
//!
//! That is why a repair cannot invent a puzzle: changing a confidently read
//! clue is never tried, an unlikely change is outweighed by the broken-puzzle
//! hypothesis, and two valid readings of the unsure cells split the
//! confidence between them. Below [`SOLVED_CONFIDENCE`] the status is
//! `unsure`, naming the cells that decide between the hypotheses and the
//! `--set` that would settle each.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use snap_solver::{solve, solve_within, Board, Clash, Outcome, Shape, DEFAULT_LIMIT};

use crate::classify::kind_probs;
use crate::data::CLASSES;
use crate::data::{
    CellEvidence, Change, Check, Decision, EntryCheck, PenCell, Tile, Verdict, MAX_CHANGES, TILE,
};
use crate::evidence;
use crate::kind::{may_be_mostly_printed, mostly_printed};

/// A cell whose most likely value has at least this probability is read as
/// that value and never changed by a repair. The model is trained with
/// label smoothing, so its confident answers sit near 0.98; 0.9 leaves room
/// for a slightly blurred clue while anything the model hesitates on stays
/// open (the calibration table in `docs/accuracy.md` checks this).
pub const SURE: f32 = 0.9;

/// Alternatives less likely than this are never tried: a cell read as 6
/// with 1 % for 8 may be an 8, one with 0.1 % is not worth a solver call.
pub(crate) const ALTERNATIVE_MIN: f32 = 0.01;

/// Readings tried (each a solver call: microseconds for 9x9, up to
/// milliseconds for 16x16 and Samurai).
const MAX_TRIES: usize = 4000;

/// ... for a Samurai, whose solves take 1-8 ms each (a 9x9's take
/// microseconds): 4,000 of them held an unsure Samurai photo for 34 s,
/// while none of 160 Samurai photos solved needed more than 389. A search
/// stopped at its cap answers nothing surely (see [`Searched`]).
const SAMURAI_TRIES: usize = 1000;

/// The readings [`search`] may try for `shape`.
fn max_tries(shape: Shape) -> usize {
    if shape == Shape::Samurai {
        SAMURAI_TRIES
    } else {
        MAX_TRIES
    }
}

/// Most cells a decision of a 16x16 reads otherwise than as read, where
/// a 9x9's reads [`MAX_CHANGES`]: a 16x16 has 256 cells to a 9x9's 81,
/// and its letters, a third of a 9x9's digits, blur several at a time
/// (Bs read at 0.7 against 8). Its search is cut at [`MAX_TRIES`] all the
/// same, and an answer of a search stopped there with readings left
/// untried is not sure. On the blurred busy-background 16x16 photos,
/// readings every cell of which was right were `unsure` for their reach
/// alone at three: at five 90 of 168 are solved, not 80, none wrong (one
/// solved at three is `unsure` at five, a reading with another answer
/// found four or five misreads away); at seven the cap cuts more searches
/// short and fewer are.
const SIXTEEN_CHANGES: usize = 5;

/// The most cells a decision of `shape` reads otherwise than as read.
fn max_changes(shape: Shape) -> usize {
    if shape.digits() == 16 {
        SIXTEEN_CHANGES
    } else {
        MAX_CHANGES
    }
}

/// Fewest clues of a 9x9 puzzle with one solution: no 16-clue Sudoku has
/// one (McGuire, Tugemann and Civario's exhaustive search, 2012).
const MIN_CLASSIC_CLUES: usize = 17;

/// Hypotheses more than this much less likely than the best (a factor of
/// 1000) do not change the confidence in the second decimal; the search
/// stops there.
const MARGIN: f32 = 6.9;

/// Prior weight of "printed as read, and really has no or several
/// solutions": puzzles in books and on screens are sometimes broken (or a
/// player's wrong entries are read as clues), and an unlikely repair must
/// not outweigh that.
pub(crate) const BROKEN_PRIOR: f32 = 0.01;

/// Confidence from which the answer is reported as `solved`; below it the
/// status is `unsure`. The calibration table in `docs/accuracy.md` shows
/// how often answers at or above it are right on held-out photos.
pub const SOLVED_CONFIDENCE: f32 = 0.9;

/// A cell read as empty whose ink ([`CellEvidence::ink`], a share of the
/// grid's print) is under this is blank, so no printed digit was missed
/// there: the empty cells of app screens late in a game measure 0, while
/// the digits missed in printed answer grids (grey answers, blurred or in
/// shadow; fixtures `answers-grey-blurred.jpg`, `eight-answers-shadowed.jpg`)
/// measure 0.77-1.9, and show-through on paper at most 0.3. Cells of a
/// drawing (a PDF page's vector grid) have no tile and no ink measured,
/// and are never taken for blank.
const BLANK_INK: f32 = 0.1;

/// Probability of pencil candidates from which a cell read as empty in a
/// grid mostly printed is one a puzzle leaves empty: a player notes
/// candidates in the empty cells of a game (app screens late in a game
/// show them), and a printed answer grid has none.
const PENCIL_EMPTY: f32 = 0.5;

/// Least confidence at which an unsure answer is still shown (drawn, and
/// given in JSON) with its cells to check: the answer is at least three
/// times as likely right as wrong. Below it only the cells to check are
/// reported. Not 0.5 ("more likely right than wrong"): the typical unsure
/// case is two hypotheses of similar weight, a misread cell or a puzzle
/// printed as read (with several solutions, or none), and drawing the
/// first of them at 0.53 drew a wrong answer on a held-out page (a printed
/// puzzle with two solutions, made unique by a 2 the classifier gave 1 %
/// in a cell it read as empty). An answer drawn on someone's puzzle is
/// taken as the answer, rings or not.
pub(crate) const SHOW_CONFIDENCE: f32 = 0.75;

/// A glyph read as a clue less tall than this share of the grid's print
/// ([`print_height`]) is no clue of it, whatever the classifier read: one
/// font prints a grid's clues at one size, and a pencil mark or a note is
/// a third to a half of it (an app's lone pencil 5 was read surely as a
/// printed 5 and reported as a clash).
const SMALL_GLYPH: f32 = 0.6;

/// Fewest sure clues whose heights give a grid's print size: a median of
/// fewer says little (a 9x9 has 17 clues at least).
const MIN_PRINT_SAMPLES: usize = 5;

/// Most digits of a shape whose clashes [`stood_in`] tries to mend
/// with a symbol the reading lacks: the try is one Dancing Links search,
/// milliseconds on a 16x16, and possibly very long on a 25x25 (which the
/// solver hands to its SAT engine for that reason).
const STAND_IN_MAX_DIGITS: usize = 16;

/// Probability that a cell holds a pen entry from which it is reported as
/// one (and never as a clue).
pub(crate) const ENTRY_MIN: f32 = 0.5;

/// The digit of the pen entry read in a cell: one read at [`ENTRY_MIN`]
/// or more where no clue is read.
pub(crate) fn entry_read(e: &CellEvidence) -> Option<u8> {
    match e.entry {
        Some((d, p)) if p >= ENTRY_MIN && e.best().0 == 0 => Some(d),
        _ => None,
    }
}

/// Probability of pen ink from which a cell read without an entry may
/// still hold one (a faint or hurried pen digit the model half takes for
/// an empty cell): it is never drawn over, and `--check` names it. On the
/// tuning photos (the Kubiesa photos of the 15 puzzles trained on, and
/// simulated worked photos of seeds 0-59), empty cells give pen digits at
/// most 0.053 in 99 % of 2711 (0.23 at most), and pen entries written
/// faintly on purpose 0.03-0.5; from 0.05, 1 % of empty cells go
/// undrawn, and 4 of 134 faint entries are still missed (read as paper).
pub const FAINT_PEN: f32 = 0.05;

/// Probability that a pen entry is a digit other than the solution's from
/// which `--check` calls it wrong; an entry read as another digit with
/// less is named to check instead. On the tuning photos, right entries
/// read as another digit got at most 0.79 (Kubiesa, 440 entries) and 0.89
/// (simulated, 702); 0.95 leaves room over both, and still calls 7 of the
/// 31 wrong entries of the simulated photos solved wrong (at 0.9, 14).
pub const WRONG_SURE: f32 = 0.95;

/// Folds one row of classifier probabilities into a cell's evidence for a
/// shape with `digits` digits: a printed symbol is a clue; empty cells,
/// pen entries, pencil marks, stray ink and symbols above the shape's
/// digits are no clue. A pen digit is reported as the cell's entry.
pub(crate) fn evidence(classes: &[f32; CLASSES], digits: usize) -> CellEvidence {
    let kinds = kind_probs(classes);
    let mut clue = kinds.clue_probs(digits);
    let total: f32 = clue.iter().sum();
    if total > 0.0 {
        clue.iter_mut().for_each(|v| *v /= total);
    }
    let (digit, _) = kinds.best_handwritten();
    let pen = kinds.handwritten_total();
    CellEvidence {
        clue,
        entry: (pen > 0.0).then_some((digit, pen)),
        pen: kinds.handwritten,
        glyph: None,
        ink: 0.0,
        tint: 0.0,
        pencil: kinds.pencil,
    }
}

/// The cells of `givens` that hold no clue but a pen entry (`entries`),
/// may hold one ([`FAINT_PEN`]), or hold a glyph read as a clue that the
/// decision reads as none and that is darker than show-through
/// ([`evidence::FAINT_SHARE`]: a pen digit the model took for print, taken
/// out because it clashes), with what the reader saw of their ink. None of
/// them is drawn over.
fn pen_cells(
    read: &Board,
    givens: &Board,
    evidence: &[CellEvidence],
    entries: &[(usize, u8)],
) -> Vec<PenCell> {
    evidence
        .iter()
        .enumerate()
        .filter(|&(i, e)| {
            givens.shape.contains(i)
                && givens.cells.get(i) == Some(&0)
                && (entries.iter().any(|&(c, _)| c == i)
                    || e.pen.iter().sum::<f32>() >= FAINT_PEN
                    || (read.cells.get(i).is_some_and(|&v| v != 0)
                        && e.ink >= evidence::FAINT_SHARE))
        })
        .map(|(cell, e)| PenCell {
            cell,
            odds: e.pen,
            glyph: e.glyph,
        })
        .collect()
}

/// The best likeness ([`evidence::likeness`]) of `pen`'s glyph to the
/// same hand's other entries of `digit`: the pen cells read surely
/// ([`SURE`]) as `digit` where `solution` has it. `None` when there are
/// none, or no glyphs to compare.
fn hand_likeness(
    pen: &PenCell,
    digit: u8,
    cells: &[PenCell],
    entries: &[(usize, u8)],
    solution: &Board,
) -> Option<f32> {
    let glyph = pen.glyph.as_ref()?;
    cells
        .iter()
        .filter(|q| {
            q.cell != pen.cell
                && solution.cells.get(q.cell) == Some(&digit)
                && entries.contains(&(q.cell, digit))
                && q.odds.get(usize::from(digit)).is_some_and(|&p| p >= SURE)
        })
        .filter_map(|q| q.glyph.as_ref())
        .map(|other| evidence::likeness(glyph, other))
        .reduce(f32::max)
}

impl Decision {
    /// The unique solution when the verdict lets it be shown (solved or
    /// unsure with an answer); `None` otherwise.
    ///
    /// An unsure answer is not shown when the reading as read has several
    /// solutions. Each of them agrees with every cell read surely, and one
    /// clue the reader missed would single out any of them; the search sees
    /// only the missed clues the classifier gave some weight (at least
    /// 1 %), so the solution it singles out is the one whose clue happened
    /// to get a few percent, not the more likely one. Where the reading as
    /// read clashes, the clash itself points at the misread. On held-out
    /// simulated captures, the only wrong answers shown in the 0.5-0.9
    /// band (0.83 and 0.85; 49 of 51 right) were both of this kind: a 7
    /// given 6 % put in a cell read as empty, and a clue read rightly as 3
    /// taken for the 2 it was given 5 %, each leaving one of the reading's
    /// solutions.
    pub fn solution(&self) -> Option<&Board> {
        match (&self.verdict, &self.outcome) {
            (Verdict::Solved, Outcome::Unique(b)) => Some(b),
            (Verdict::Unsure(_), Outcome::Unique(b))
                if self.confidence >= SHOW_CONFIDENCE && !self.several_as_read =>
            {
                Some(b)
            }
            _ => None,
        }
    }

    /// The cells that hold no clue and are not drawn on: the pen entries
    /// and the cells that may hold a faint one.
    pub fn inked(&self) -> Vec<usize> {
        self.pen.iter().map(|p| p.cell).collect()
    }

    /// A person's entries judged against the solution (empty without
    /// one): an entry is called wrong only when the reading is sure it is
    /// another digit ([`WRONG_SURE`]); one read as another digit in doubt,
    /// and a cell that may hold a faint entry, are named to check.
    pub fn check_entries(&self) -> EntryCheck {
        let mut out = EntryCheck::default();
        let Some(solution) = self.solution() else {
            return out;
        };
        for pen in &self.pen {
            if self.givens.cells.get(pen.cell) != Some(&0) {
                continue;
            }
            let truth = solution.cells[pen.cell];
            match self.entries.iter().find(|e| e.0 == pen.cell) {
                Some(&(_, digit)) if digit == truth => {}
                Some(&(cell, digit))
                    if pen.other_than(truth) >= WRONG_SURE
                        && self.in_the_hand_of(pen, digit, truth, solution) =>
                {
                    out.wrong.push((cell, digit));
                }
                Some(&(cell, _)) => out.doubt.push(cell),
                None => out.faint.push(pen.cell),
            }
        }
        out
    }

    /// Whether the glyph of `pen`, read as `digit` where the solution has
    /// `truth`, is written as the same hand writes `digit` rather than
    /// `truth`: it is more like that hand's other entries read surely as
    /// `digit` where the solution has it ([`hand_likeness`]) than like its
    /// entries of `truth`. The classifier reads one glyph at a time, and a
    /// writer's 6 with a flat hook or 7 with a short bar can be read surely
    /// as another digit; the writer's own 6s, read as 6, are evidence of
    /// another kind. Without sure entries of both digits to compare with,
    /// the hand cannot confirm the reading (a writer none of whose 6s is
    /// read surely as 6 writes 6s the model misreads), and the entry is
    /// only named. On the tuning photos this keeps 2 of the 7 wrong
    /// entries called wrong; the others are named to check.
    fn in_the_hand_of(&self, pen: &PenCell, digit: u8, truth: u8, solution: &Board) -> bool {
        let like = |d| hand_likeness(pen, d, &self.pen, &self.entries, solution);
        match (like(digit), like(truth)) {
            (Some(as_read), Some(as_truth)) => as_read > as_truth,
            _ => false,
        }
    }

    /// Why there is no clean answer, in words (`None` when solved).
    pub fn problem(&self) -> Option<String> {
        let name = |c: &Check| self.givens.shape.cell_name(c.cell);
        match &self.verdict {
            Verdict::Solved => None,
            Verdict::NoSolution(why) => Some(why.clone()),
            Verdict::Multiple(n) => Some(format!("{n} solutions or more")),
            Verdict::Unsure(checks) => {
                let cells: Vec<String> = checks.iter().map(name).collect();
                let empty = |c: &Check| self.givens.cells.get(c.cell) == Some(&0);
                Some(
                    if mostly_printed(&self.givens) && checks.iter().all(empty) {
                        // Late in a game an app's screenshot looks the same
                        // (typed entries are read like givens): say both.
                        format!(
                            "unsure: a printed answer grid with {} read as empty, \
                         or a puzzle nearly filled in; check {}",
                            if cells.len() == 1 { "a cell" } else { "cells" },
                            cells.join(", ")
                        )
                    } else if self.solution().is_some() {
                        format!(
                            "unsure (confidence {:.2}): the answer rests on {}",
                            self.confidence,
                            cells.join(", ")
                        )
                    } else if matches!(self.outcome, Outcome::Unique(_))
                        && self.several_as_read
                        && self.confidence >= SHOW_CONFIDENCE
                    {
                        format!(
                            "unsure (confidence {:.2}): as read the puzzle has several solutions, \
                         and the reading that leaves one is not sure enough to show; check {}",
                            self.confidence,
                            cells.join(", ")
                        )
                    } else if matches!(self.outcome, Outcome::Unique(_)) {
                        format!(
                        "unsure: no answer is likely enough to show (confidence {:.2}); check {}",
                        self.confidence,
                        cells.join(", ")
                    )
                    } else {
                        format!(
                            "unsure: no reading of the unsure cells gives one solution; check {}",
                            cells.join(", ")
                        )
                    },
                )
            }
        }
    }

    /// The `--set` values that would settle an unsure reading (`r3c4=7`),
    /// one per cell to check, each with the value the likeliest reading
    /// gives it: what to check, and what the cell most likely shows. The
    /// person gives what it really shows.
    pub fn settle(&self) -> Vec<String> {
        let Verdict::Unsure(checks) = &self.verdict else {
            return Vec::new();
        };
        checks
            .iter()
            .map(|c| {
                format!(
                    "{}={}",
                    self.givens.shape.cell_name(c.cell),
                    snap_solver::digit_char(c.assumed)
                )
            })
            .collect()
    }
}

/// A change to try and its cost over the cell's most likely value.
#[derive(Debug, Clone, Copy)]
struct Alternative {
    cell: usize,
    value: u8,
    cost: f32,
}

/// A set of alternatives (indices into the sorted list), for the
/// cheapest-first enumeration.
#[derive(Debug, Clone, PartialEq)]
struct Candidate {
    cost: f32,
    picks: Vec<usize>,
}

impl Eq for Candidate {}

impl Ord for Candidate {
    fn cmp(&self, other: &Self) -> Ordering {
        // BinaryHeap is a max-heap: the cheapest candidate must compare greatest.
        other.cost.total_cmp(&self.cost)
    }
}

impl PartialOrd for Candidate {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// A reading that has exactly one solution.
#[derive(Debug, Clone)]
struct Valid {
    cost: f32,
    givens: Board,
    changes: Vec<Change>,
    outcome: Outcome,
}

/// Decides the puzzle of a `shape` from per-position evidence (`cells` has
/// one entry per layout position; positions outside a Samurai's grids are
/// ignored). `overrides` (position, value) are the user's `--set` cells:
/// certain, never changed.
///
/// `tiles` are the cells' glyphs by layout position (none for a drawing's
/// cells), which tell a small glyph from the grid's print
/// ([`small_glyphs`]).
pub(crate) fn decide(
    shape: Shape,
    cells: &[CellEvidence],
    overrides: &[(usize, u8)],
    tiles: &[Option<&Tile>],
) -> Decision {
    let as_read = decide_reading(shape, cells, overrides, tiles);
    if as_read.verdict == Verdict::Solved {
        return as_read;
    }
    let mut fixed = vec![false; cells.len()];
    for &(cell, _) in overrides {
        if let Some(f) = fixed.get_mut(cell) {
            *f = true;
        }
    }
    // Glyphs too small for the grid's print, read as clues: an app's
    // pencil note, a lone 5 in the middle of its cell that the model reads
    // surely as a printed 5, leaves a puzzle without a solution that no
    // search of the unsure cells mends. Read with those cells holding no
    // clue, the reading is taken when it is solved: it can only lose
    // clues, and a puzzle that is unique on part of its clues has their
    // solution.
    //
    // A board without a solution whether or not those cells hold clues (a
    // player's wrong entry on a screen that also shows a lone pencil note)
    // is read without them, unless a reading below is solved: its verdict
    // is the same, and no note is taken for a clue.
    let mut broken_without_small = None;
    if let Some(split) = without_small_glyphs(&as_read, cells, &fixed, tiles) {
        let decision = decide_reading(shape, &split, overrides, tiles);
        if decision.verdict == Verdict::Solved {
            return decision;
        }
        let broken = |d: &Decision| matches!(d.verdict, Verdict::NoSolution(_));
        if broken(&as_read) && broken(&decision) {
            broken_without_small = Some(decision);
        }
    }
    let as_read = broken_without_small.unwrap_or(as_read);
    if shape != Shape::classic() {
        return as_read;
    }
    // A grid a person has written in, read with pen entries taken for
    // print: where its glyphs part into two inks, the one apart from the
    // print's is the pen's. That reading is taken when it is solved, as
    // above.
    let entries: Vec<usize> = as_read.entries.iter().map(|&(cell, _)| cell).collect();
    evidence::other_inks_as_pen(cells, tiles, &fixed, &entries, MIN_CLASSIC_CLUES)
        .iter()
        .map(|split| decide_reading(shape, split, overrides, tiles))
        .find(|d| d.verdict == Verdict::Solved)
        .unwrap_or(as_read)
}

/// `cells` with the clues of `decision`'s reading whose glyphs are too
/// small for the grid's print ([`small_glyphs`]) holding no clue; in a
/// grid where a player has noted candidates ([`PENCIL_EMPTY`]) in other
/// cells, they hold candidates too (a board late in a game, mostly
/// printed, is then no answer grid with a digit missed there: a book's
/// answer grid, whose answers may be printed smaller than its clues,
/// holds no notes). `None` when there are none, or when the reading has
/// several solutions (taking clues out leaves as many or more). The
/// person's cells (`fixed`) stay.
fn without_small_glyphs(
    decision: &Decision,
    cells: &[CellEvidence],
    fixed: &[bool],
    tiles: &[Option<&Tile>],
) -> Option<Vec<CellEvidence>> {
    if decision.several_as_read {
        return None;
    }
    let read = &decision.read;
    let small = small_glyphs(read, cells, fixed, tiles, &read.clashes());
    if small.is_empty() {
        return None;
    }
    let no_clue = CellEvidence::certain(0, read.shape.digits()).clue;
    let noted = cells
        .iter()
        .enumerate()
        .any(|(c, e)| e.pencil >= PENCIL_EMPTY && !small.contains(&c));
    let mut split = cells.to_vec();
    for &cell in &small {
        if let Some(e) = split.get_mut(cell) {
            e.clue.clone_from(&no_clue);
            if noted {
                e.pencil = 1.0;
            }
        }
    }
    Some(split)
}

/// [`decide`] on the cells as read.
fn decide_reading(
    shape: Shape,
    cells: &[CellEvidence],
    overrides: &[(usize, u8)],
    tiles: &[Option<&Tile>],
) -> Decision {
    let digits = shape.digits();
    let mut evidence: Vec<CellEvidence> = (0..shape.cell_count())
        .map(|i| match cells.get(i) {
            Some(e) if shape.contains(i) => e.clone(),
            _ => CellEvidence::certain(0, digits),
        })
        .collect();
    let mut given = vec![false; evidence.len()];
    for &(cell, value) in overrides {
        if cell < evidence.len() && shape.contains(cell) && value as usize <= digits {
            evidence[cell] = CellEvidence::certain(value, digits);
            given[cell] = true;
        }
    }
    let read = Board {
        shape,
        cells: evidence.iter().map(|e| e.best().0).collect(),
    };
    let entries: Vec<(usize, u8)> = evidence
        .iter()
        .enumerate()
        .filter_map(|(i, e)| entry_read(e).map(|d| (i, d)))
        .collect();
    let as_read = solve(&read, DEFAULT_LIMIT);
    let alternatives = alternatives(&evidence, &read);
    let Searched {
        mut found,
        mut cut_short,
    } = search(
        &read,
        &alternatives,
        &evidence,
        as_read.as_ref().ok(),
        max_tries(shape),
    );
    // No reading within reach has one answer: a symbol may have been
    // read as another in more cells than the search changes (see
    // [`stand_in`]).
    let stand = if found.is_empty() {
        stand_in(&read, &evidence, &given)
    } else {
        None
    };
    // A stand-in's readings are searched among far fewer cells, to a cap
    // of their own that the 16x16 photos solved through one reach.
    if let Some(stand) = &stand {
        (found, cut_short) = (stand.readings(&evidence), false);
    }
    // Held to where the cap was lowered to spare time: a Samurai's answer
    // is to be no surer than the full search made it. The 9x9's cap of
    // 4,000 is reached on worked grids, whose many pen entries each bring
    // alternatives, with no wrong answer in the pen photos' figures; there
    // the rule turned 17 pen photos of eight sets from solved to unsure.
    // A 16x16's answer too, its search reaching further
    // ([`SIXTEEN_CHANGES`]).
    let cut_short = cut_short && (shape == Shape::Samurai || max_changes(shape) > MAX_CHANGES);

    let read_is_valid = matches!(as_read, Ok(Outcome::Unique(_)));
    let Some(best) = found.first().cloned() else {
        return without_answer(
            read,
            entries,
            as_read,
            &alternatives,
            &evidence,
            &given,
            tiles,
        );
    };
    // Posterior weights, relative to the best hypothesis.
    let weight = |v: &Valid| (best.cost - v.cost).exp();
    let mut total: f32 = found.iter().map(weight).sum();
    // A font's glyph read as another is not weighed against a puzzle
    // printed broken: that has no reason to become one puzzle when a
    // symbol it lacks takes the place of a clashing one where the cells'
    // readings allow it. Cells misread one by one are, as the search's
    // readings are.
    if !read_is_valid && !stand.as_ref().is_some_and(|s| s.absent) {
        total += BROKEN_PRIOR / (-best.cost).exp();
    }
    let agreeing: f32 = found
        .iter()
        .filter(|v| v.outcome == best.outcome)
        .map(weight)
        .sum();
    // The hypotheses are the readings within MAX_CHANGES changes of the
    // most probable one; the share above holds only if the truth is among
    // them, so it is weighed by the chance that it is.
    let answer_grid = mostly_printed(&best.givens);
    let neutral = answer_neutral(&evidence, &best, answer_grid);
    // The stand-in's cells are held to its two symbols, not to the reach
    // of the search.
    let mut beyond_search = neutral.clone();
    for &c in stand.iter().flat_map(|s| &s.cells) {
        beyond_search[c] = true;
    }
    let reach = within_reach(&evidence, &read, &beyond_search, max_changes(shape));
    let confidence = (agreeing / total * reach).clamp(0.0, 1.0);
    // A cell the person set empty is empty, and so is one whose pixels
    // hold no ink ([`BLANK_INK`]) or that holds a player's pencil
    // candidates ([`PENCIL_EMPTY`]): the grid is a puzzle nearly filled in
    // (an app's board late in a game), not an answer grid with a digit
    // missed.
    let blank = |c: usize| {
        (tiles.get(c).copied().flatten().is_some() && evidence[c].ink < BLANK_INK)
            || evidence[c].pencil >= PENCIL_EMPTY
    };
    let empty_in_answer_grid: Vec<usize> = if answer_grid {
        (0..best.givens.cells.len())
            .filter(|&c| shape.contains(c) && best.givens.cells[c] == 0 && !given[c] && !blank(c))
            .collect()
    } else {
        Vec::new()
    };
    let several_as_read = matches!(as_read, Ok(Outcome::Multiple { .. }));
    let mut doubts = doubtful(&evidence, &best.givens, &neutral);
    doubts.extend(hidden_doubts(
        &best.givens,
        &evidence,
        &entries,
        several_as_read,
        &given,
    ));
    let verdict = if !empty_in_answer_grid.is_empty() {
        // A printed answer grid with cells read as empty: never "solved"
        // (its right status is complete); the cells to check are those,
        // and any other whose reading could change it.
        let mut cells = empty_in_answer_grid;
        cells.extend(doubts);
        Verdict::Unsure(answer_grid_checks(cells, &best, &evidence))
    } else if confidence >= SOLVED_CONFIDENCE && !cut_short {
        Verdict::Solved
    } else {
        Verdict::Unsure(checks(&best, &found, &evidence, &doubts))
    };
    let pen = pen_cells(&read, &best.givens, &evidence, &entries);
    Decision {
        read,
        givens: best.givens,
        changes: best.changes,
        entries,
        pen,
        outcome: best.outcome,
        confidence,
        several_as_read,
        verdict,
    }
}

/// Whether more of `cells` (a reading of `shape`) are read in doubt than
/// [`MAX_CHANGES`] misreads likely cover ([`within_reach`] below
/// [`SOLVED_CONFIDENCE`]): the sign of a photo out of focus, for every
/// shape alike. A 16x16's search reaches further ([`SIXTEEN_CHANGES`]),
/// but its reading so read in doubt is worth a look sharpened all the
/// same: on the blurred 16x16 photos, weighed within five misreads and
/// looked at sharpened only when beyond that reach, three photos solved
/// sharpened were left `unsure`.
pub(crate) fn beyond_reach(shape: Shape, cells: &[CellEvidence]) -> bool {
    let read = Board {
        shape,
        cells: (0..shape.cell_count())
            .map(|i| cells.get(i).map_or(0, |e| e.best().0))
            .collect(),
    };
    within_reach(cells, &read, &[], MAX_CHANGES) < SOLVED_CONFIDENCE
}

/// The probability that at most `most` cells of the reading are misread
/// ([`MAX_CHANGES`], or [`SIXTEEN_CHANGES`]), taking each unsure cell (below
/// [`SURE`]) as misread with probability `1 - p` of its most likely value,
/// independently; sure cells are taken as read, as everywhere here. When
/// many cells are unsure (small or faint print read half as empty), the
/// truth is likely further from the reading than the search goes, and a
/// unique solution found nearby is more likely an invented puzzle than the
/// printed one: this is what keeps such an answer from being shown.
///
/// Cells in `neutral` are left out: however they are really printed, the
/// answer is the same (see [`answer_neutral`]).
fn within_reach(evidence: &[CellEvidence], read: &Board, neutral: &[bool], most: usize) -> f32 {
    // misreads[k]: probability of exactly k misread cells so far.
    let mut misreads = vec![0.0f32; most + 1];
    misreads[0] = 1.0;
    for (cell, e) in evidence.iter().enumerate() {
        let (_, p) = e.best();
        if p >= SURE || !read.shape.contains(cell) || neutral.get(cell) == Some(&true) {
            continue;
        }
        let wrong = (1.0 - p).clamp(0.0, 1.0);
        for k in (0..=most).rev() {
            let from_fewer = if k > 0 { misreads[k - 1] * wrong } else { 0.0 };
            misreads[k] = misreads[k] * (1.0 - wrong) + from_fewer;
        }
    }
    misreads.iter().sum()
}

/// The unsure cells whose reading cannot change the best hypothesis's
/// answer: every value the classifier gives them (at least
/// [`ALTERNATIVE_MIN`]) is "no clue" or the answer's own digit there, and
/// the puzzle stays unique with all of them read as empty. A printed clue
/// the answer already holds only adds to a puzzle whose one solution is
/// that answer, so whichever of these cells are really printed, the answer
/// is the same: a blurred clue that might be faint nothing, or an answer
/// digit that might be a pen entry, is no reason to doubt it.
///
/// An empty reading stays a doubt on a grid read with most cells printed
/// (`answer_grid`: see [`mostly_printed`]).
fn answer_neutral(evidence: &[CellEvidence], best: &Valid, answer_grid: bool) -> Vec<bool> {
    let mut neutral = vec![false; evidence.len()];
    let Outcome::Unique(solution) = &best.outcome else {
        return neutral;
    };
    let shape = best.givens.shape;
    let inside = |cell: usize| shape.contains(cell);
    let mut minimal = best.givens.clone();
    for (cell, e) in evidence.iter().enumerate() {
        let (read, p) = e.best();
        if p >= SURE || !inside(cell) || (read == 0 && answer_grid) {
            continue;
        }
        let digit = solution.cells[cell];
        let agrees = e
            .clue
            .iter()
            .enumerate()
            .all(|(v, &q)| q < ALTERNATIVE_MIN || v == 0 || v as u8 == digit);
        if agrees {
            neutral[cell] = true;
            minimal.cells[cell] = 0;
        }
    }
    let unique = matches!(
        solve(&minimal, DEFAULT_LIMIT),
        Ok(Outcome::Unique(ref s)) if s == solution
    );
    if !unique {
        neutral.fill(false);
    }
    neutral
}

/// The digit the outcome's solution has in `cell` (0 without one).
fn solution_digit(outcome: &Outcome, cell: usize) -> u8 {
    match outcome {
        Outcome::Unique(s) => s.cells.get(cell).copied().unwrap_or(0),
        _ => 0,
    }
}

/// The changes worth trying: other values of unsure cells, cheapest first.
fn alternatives(evidence: &[CellEvidence], read: &Board) -> Vec<Alternative> {
    let mut out = Vec::new();
    for (cell, e) in evidence.iter().enumerate() {
        let (value, p) = e.best();
        if p >= SURE || !read.shape.contains(cell) {
            continue;
        }
        for (v, &q) in e.clue.iter().enumerate() {
            if v as u8 != value && q >= ALTERNATIVE_MIN {
                out.push(Alternative {
                    cell,
                    value: v as u8,
                    cost: change_cost(e, v as u8),
                });
            }
        }
    }
    out.sort_by(|a, b| a.cost.total_cmp(&b.cost));
    out
}

/// What reading the cell of evidence `e` as `value` costs against its most
/// likely value: `ln p(best) - ln p(value)`, the best's probability taken
/// as at least [`ALTERNATIVE_MIN`].
fn change_cost(e: &CellEvidence, value: u8) -> f32 {
    (e.best().1.max(ALTERNATIVE_MIN).ln() - e.p(value).ln()).max(0.0)
}

/// What [`search`] found: the valid readings, cheapest first, and whether
/// it stopped at its cap of tries with readings within [`MARGIN`] of the
/// best still untried. Then a rival of the best reading may be among
/// those, and the share of the found readings that agree says too much:
/// a Samurai's or a 16x16's answer from such a search is not called sure
/// (see [`SAMURAI_TRIES`] and [`SIXTEEN_CHANGES`]).
struct Searched {
    found: Vec<Valid>,
    cut_short: bool,
}

/// Every valid reading within [`MARGIN`] of the best, cheapest first: the
/// reading as is (cost 0) when it is valid, then sets of up to
/// [`max_changes`] alternatives by increasing cost, at most `max_tries`
/// of them solved.
fn search(
    read: &Board,
    alternatives: &[Alternative],
    evidence: &[CellEvidence],
    as_read: Option<&Outcome>,
    max_tries: usize,
) -> Searched {
    let mut found = Vec::new();
    if let Some(outcome @ Outcome::Unique(_)) = as_read {
        found.push(Valid {
            cost: 0.0,
            givens: read.clone(),
            changes: Vec::new(),
            outcome: outcome.clone(),
        });
    }
    // A clash can only be mended by changing one of the clashing cells.
    let clashing: Vec<usize> = read.clashes().iter().flat_map(|&(a, b)| [a, b]).collect();
    // Cheapest-first enumeration of subsets of a cost-sorted list: from
    // picks [.., k] the successors are [.., k, k+1] (extend) and [.., k+1]
    // (replace the last). Every subset is reached exactly once.
    let mut heap = BinaryHeap::new();
    if let Some(first) = alternatives.first() {
        heap.push(Candidate {
            cost: first.cost,
            picks: vec![0],
        });
    }
    let most_changes = max_changes(read.shape);
    let mut tries = 0;
    let mut cut_short = false;
    while let Some(Candidate { cost, picks }) = heap.pop() {
        if found
            .first()
            .is_some_and(|b: &Valid| cost > b.cost + MARGIN)
        {
            break;
        }
        if tries >= max_tries {
            cut_short = true;
            break;
        }
        let last = picks[picks.len() - 1];
        if last + 1 < alternatives.len() {
            if picks.len() < most_changes {
                let mut extended = picks.clone();
                extended.push(last + 1);
                heap.push(Candidate {
                    cost: cost + alternatives[last + 1].cost,
                    picks: extended,
                });
            }
            let mut replaced = picks.clone();
            replaced[picks.len() - 1] = last + 1;
            heap.push(Candidate {
                cost: cost - alternatives[last].cost + alternatives[last + 1].cost,
                picks: replaced,
            });
        }
        let chosen: Vec<Alternative> = picks.iter().map(|&i| alternatives[i]).collect();
        let distinct_cells = chosen
            .iter()
            .enumerate()
            .all(|(i, a)| chosen[..i].iter().all(|b| b.cell != a.cell));
        let touches_clash =
            clashing.is_empty() || chosen.iter().any(|a| clashing.contains(&a.cell));
        if !distinct_cells || !touches_clash {
            continue;
        }
        let mut givens = read.clone();
        for a in &chosen {
            givens.cells[a.cell] = a.value;
        }
        tries += 1;
        if !may_be_unique(&givens) {
            continue;
        }
        if let Ok(outcome @ Outcome::Unique(_)) = solve(&givens, DEFAULT_LIMIT) {
            let changes = chosen
                .iter()
                .map(|a| Change {
                    cell: a.cell,
                    from: read.cells[a.cell],
                    to: a.value,
                    probability: evidence[a.cell].p(a.value),
                })
                .collect();
            found.push(Valid {
                cost,
                givens,
                changes,
                outcome,
            });
        }
    }
    found.sort_by(|a, b| a.cost.total_cmp(&b.cost));
    Searched { found, cut_short }
}

/// The cells whose reading could change the answer: every unsure cell
/// (below [`SURE`]) that is not [`answer_neutral`]. Once each of them is
/// known (`--set`), whatever the others hold leaves one answer (a neutral
/// cell only adds a clue the answer already has, or leaves it out), and
/// the chance that the truth is out of the search's reach is gone with
/// them: so naming fewer would leave a correction that settles nothing.
fn doubtful(evidence: &[CellEvidence], board: &Board, neutral: &[bool]) -> Vec<usize> {
    (0..board.cells.len())
        .filter(|&i| board.shape.contains(i) && neutral.get(i) != Some(&true))
        .filter(|&i| evidence[i].best().1 < SURE)
        .collect()
}

/// The cells to check: those that decide between the best answer and its
/// rivals (where a rival reading with another solution differs from the
/// best, and the best's own changes), and every cell whose reading could
/// change the answer (`doubts`, see [`doubtful`]). With none of these (the
/// broken-puzzle hypothesis is what competes), the least sure cells.
fn checks(
    best: &Valid,
    found: &[Valid],
    evidence: &[CellEvidence],
    doubts: &[usize],
) -> Vec<Check> {
    let mut cells: Vec<usize> = best.changes.iter().map(|c| c.cell).collect();
    for rival in found[1..].iter().filter(|v| v.outcome != best.outcome) {
        for (i, (&a, &b)) in rival
            .givens
            .cells
            .iter()
            .zip(&best.givens.cells)
            .enumerate()
        {
            if a != b && !cells.contains(&i) {
                cells.push(i);
            }
        }
    }
    cells.extend(doubts);
    if cells.is_empty() {
        cells = least_sure(evidence, &best.givens, 3);
    }
    cells.sort_unstable();
    cells.dedup();
    cells
        .into_iter()
        .map(|cell| Check {
            cell,
            assumed: best.givens.cells[cell],
            probability: evidence[cell].p(best.givens.cells[cell]),
        })
        .collect()
}

/// Cells read with certainty whose reading can still change the answer,
/// to check besides the unsure ones when a grid is unsure (else a person
/// sets every cell named and is asked again, about these):
///
/// - the pen entries of a reading with several solutions: a printed clue
///   taken for handwriting (a large glyph) is what would single one out;
/// - every empty cell of a grid that may be a printed answer grid (see
///   [`may_be_mostly_printed`]): a digit missed there is what keeps it
///   from being complete, and the grid is then judged as one.
///
/// Cells the person set (`given`) are known, never in doubt.
fn hidden_doubts(
    board: &Board,
    evidence: &[CellEvidence],
    entries: &[(usize, u8)],
    several_as_read: bool,
    given: &[bool],
) -> Vec<usize> {
    let mut cells: Vec<usize> = Vec::new();
    if several_as_read {
        cells.extend(entries.iter().map(|&(cell, _)| cell));
    }
    if may_be_mostly_printed(board, evidence) {
        cells.extend(
            (0..board.cells.len()).filter(|&c| board.shape.contains(c) && board.cells[c] == 0),
        );
    }
    cells.retain(|&c| free(given, c));
    cells
}

/// The checks of a printed answer grid read with `cells` in doubt: each
/// assumed to hold the answer's digit where it was read as empty, and its
/// reading elsewhere.
fn answer_grid_checks(
    mut cells: Vec<usize>,
    best: &Valid,
    evidence: &[CellEvidence],
) -> Vec<Check> {
    cells.sort_unstable();
    cells.dedup();
    cells
        .into_iter()
        .map(|cell| {
            let assumed = match best.givens.cells[cell] {
                0 => solution_digit(&best.outcome, cell),
                v => v,
            };
            Check {
                cell,
                assumed,
                probability: evidence[cell].p(assumed),
            }
        })
        .collect()
}

/// The `n` cells whose value in `board` the classifier is least sure of,
/// among the unsure ones.
fn least_sure(evidence: &[CellEvidence], board: &Board, n: usize) -> Vec<usize> {
    let mut cells: Vec<(usize, f32)> = (0..board.cells.len())
        .filter(|&i| board.shape.contains(i))
        .map(|i| (i, evidence[i].p(board.cells[i])))
        .filter(|&(_, p)| p < SURE)
        .collect();
    cells.sort_by(|a, b| a.1.total_cmp(&b.1));
    cells.into_iter().take(n).map(|(i, _)| i).collect()
}

/// No reading within reach has exactly one solution. The givens the
/// reading itself puts in doubt ([`doubted_givens`], from the cells'
/// `tiles` among others) are left out of the verdict: the puzzle is called
/// broken only by what the other cells show.
fn without_answer(
    read: Board,
    entries: Vec<(usize, u8)>,
    as_read: Result<Outcome, Clash>,
    alternatives: &[Alternative],
    evidence: &[CellEvidence],
    given: &[bool],
    tiles: &[Option<&Tile>],
) -> Decision {
    let several_as_read = matches!(as_read, Ok(Outcome::Multiple { .. }));
    let outcome = as_read.clone().unwrap_or(Outcome::NoSolution);
    // A clash says the puzzle is broken as firmly as a solved answer says
    // it is solved, so it needs a reading as trustworthy (see
    // [`doubted_givens`]); so does a puzzle of sure cells without a
    // solution.
    let trusted = within_reach(evidence, &read, &[], MAX_CHANGES) >= SOLVED_CONFIDENCE;
    // Givens in doubt explain a reading without a solution; one with
    // several has a clue too few, which no doubted given adds.
    let doubted = if several_as_read {
        Vec::new()
    } else {
        doubted_givens(&read, evidence, given, tiles, trusted)
    };
    // The doubted cells are left out: a clash of the others still says
    // the puzzle is broken (a player's wrong entry beside a pencil mark
    // read as a clue).
    let broken = || {
        let mut kept = read.clone();
        for &c in &doubted {
            kept.cells[c] = 0;
        }
        trusted
            .then(|| broken_on_sure_cells(&kept, evidence))
            .flatten()
    };
    let verdict = if alternatives.is_empty() && doubted.is_empty() {
        // Read with confidence: the puzzle itself is broken (or the
        // clues include a player's wrong entries). Say what is wrong.
        match as_read {
            Err(clash) => Verdict::NoSolution(clash.to_string()),
            Ok(Outcome::Multiple { count, .. }) if entries.is_empty() => Verdict::Multiple(count),
            // Several solutions once the pen entries are left out: a
            // printed puzzle had one before anyone wrote in it, so a clue
            // is more likely taken for pen (a large printed glyph reads
            // as handwriting) than the puzzle broken. Name those cells.
            Ok(Outcome::Multiple { .. }) => Verdict::Unsure(
                entries
                    .iter()
                    .map(|&(cell, _)| Check {
                        cell,
                        assumed: read.cells[cell],
                        probability: evidence[cell].p(read.cells[cell]),
                    })
                    .collect(),
            ),
            Ok(_) => Verdict::NoSolution(no_solution_reason(&read)),
        }
    } else if let Some(why) = broken() {
        // Broken whatever the unsure cells hold: that is the news, not
        // the unsure cells.
        Verdict::NoSolution(why)
    } else {
        // No reading within reach has one answer: any unsure cell may be
        // the one misread, so each is to be checked.
        let mut cells = least_sure(evidence, &read, usize::MAX);
        cells.extend_from_slice(&doubted);
        cells.extend(hidden_doubts(
            &read,
            evidence,
            &entries,
            several_as_read,
            given,
        ));
        cells.sort_unstable();
        cells.dedup();
        Verdict::Unsure(
            cells
                .into_iter()
                .map(|cell| Check {
                    cell,
                    assumed: read.cells[cell],
                    probability: evidence[cell].p(read.cells[cell]),
                })
                .collect(),
        )
    };
    let pen = pen_cells(&read, &read, evidence, &entries);
    Decision {
        givens: read.clone(),
        read,
        changes: Vec::new(),
        entries,
        pen,
        outcome,
        confidence: 0.0,
        several_as_read,
        verdict,
    }
}

/// The givens of a reading without a solution that the reading itself
/// puts in doubt: cells of its clashes, and glyphs too small for print. A
/// clash says the puzzle is broken only if both cells hold the symbol
/// read, and the classifier, reading one glyph at a time, can be sure of
/// a misread (on photos of 16x16 puzzles it reads a font's B as 8 at
/// 0.99, and eight photos in 48 were reported broken that way). What it
/// cannot see is the grid as a whole: a symbol the reading never holds
/// that could stand in ([`stood_in`]), a glyph too small for the grid's
/// print ([`small_glyphs`]).
///
/// And a clash says the puzzle is broken as firmly as a solved answer says
/// it is solved, so it needs a reading as trustworthy: sure cells are
/// taken as read everywhere here, but a sure misread is likelier where the
/// model struggles with the whole image. When the reading is not
/// `trusted` (the chance that the unsure cells hold no more misreads than
/// a 9x9's search tries, [`within_reach`] of [`MAX_CHANGES`], is below
/// [`SOLVED_CONFIDENCE`]; for a 16x16 too, whose search tries more: a
/// broken verdict keeps the stricter bar),
/// every clash is in doubt. Blurred 16x16 photos whose Bs, Es and Fs were
/// read as 8s and empty cells score 0.0000-0.0002, and two held-out app
/// screens whose clash was a misread 0.30 and 0.35: these name the clash
/// to check, with the cells in doubt, instead of saying the puzzle has no
/// solution.
///
/// Cells the person set (`given`) are known: a clash with one of them is
/// theirs to mend, and they are never freed nor named.
fn doubted_givens(
    read: &Board,
    evidence: &[CellEvidence],
    given: &[bool],
    tiles: &[Option<&Tile>],
    trusted: bool,
) -> Vec<usize> {
    let clashes: Vec<(usize, usize)> = read
        .clashes()
        .into_iter()
        .filter(|&(a, b)| free(given, a) && free(given, b))
        .collect();
    let mut cells: Vec<usize> = if trusted {
        let mut cells = small_glyphs(read, evidence, given, tiles, &clashes);
        cells.extend(stood_in(read, given, &clashes));
        cells
    } else {
        clashes.iter().flat_map(|&(a, b)| [a, b]).collect()
    };
    cells.sort_unstable();
    cells.dedup();
    cells
}

/// The clues of `read` (not set by the person) whose glyph is much smaller
/// than the grid's print ([`SMALL_GLYPH`] of [`print_height`]): a pencil
/// mark read as a clue clashes, or leaves a cell no digit fits, and the
/// clue it clashes with, printed at the grid's size, is not in doubt.
fn small_glyphs(
    read: &Board,
    evidence: &[CellEvidence],
    given: &[bool],
    tiles: &[Option<&Tile>],
    clashes: &[(usize, usize)],
) -> Vec<usize> {
    let Some(print) = print_height(read, evidence, tiles, clashes) else {
        return Vec::new();
    };
    (0..read.cells.len())
        .filter(|&c| read.cells[c] != 0 && free(given, c))
        .filter(|&c| {
            cell_glyph_height(tiles, read.shape, c)
                .is_some_and(|h| (h as f32) < SMALL_GLYPH * print)
        })
        .collect()
}

/// Whether `cell` is free to be read otherwise: not one the person set
/// (`given`: the corrections given to [`decide`]).
fn free(given: &[bool], cell: usize) -> bool {
    given.get(cell) != Some(&true)
}

/// A symbol (`t`) standing in for a clashing one (`s`) in some of the
/// cells read as `s` that give `t` as an alternative ([`ALTERNATIVE_MIN`]):
/// of the ways to place `t` among those cells, exactly one makes a puzzle
/// of one solution. A font's B is read as 8 on photos of 16x16 puzzles (at
/// 0.5-0.9, the B its runner-up at 0.03-0.45, where its real 8s give B
/// 0.01 or less): the 8s clash, and the four to eight Bs of a puzzle are
/// more changes than [`search`] makes.
///
/// Placed among every cell read as `s`, the two symbols could swap, and
/// no placing would be the one; the cells without `t` as an alternative,
/// kept as read (as every search here keeps them), tell the two apart.
/// When the reading never holds `t` (every B read as 8), the changes are
/// one misreading, a glyph of the font taken for another, and cost
/// nothing against each other; else they cost what the search's changes
/// do (see [`decide`]).
///
/// `None` unless exactly one placing of one pair of symbols does this, or
/// when a pair has more than [`STAND_IN_MAX_CELLS`] cells to place among
/// or there are more than [`STAND_IN_SOLVES`] placings to solve.
fn stand_in(read: &Board, evidence: &[CellEvidence], given: &[bool]) -> Option<StandIn> {
    let mut found: Option<StandIn> = None;
    let mut solved = 0;
    for (s, t, absent) in stand_in_pairs(read, given, false) {
        let cells: Vec<usize> = (0..read.cells.len())
            .filter(|&c| read.shape.contains(c) && read.cells[c] == s && free(given, c))
            .filter(|&c| evidence[c].p(t) >= ALTERNATIVE_MIN)
            .collect();
        if cells.is_empty() {
            continue;
        }
        if cells.len() > STAND_IN_MAX_CELLS {
            return None;
        }
        // Every placing of `t` among the cells: a clash costs a scan, a
        // solver call only the placings without one.
        let mut givens = read.clone();
        for placing in 1u32..1 << cells.len() {
            for (i, &c) in cells.iter().enumerate() {
                givens.cells[c] = if placing >> i & 1 == 1 { t } else { s };
            }
            if !givens.clashes().is_empty() {
                continue;
            }
            solved += 1;
            if solved > STAND_IN_SOLVES {
                return None;
            }
            let Ok(outcome @ Outcome::Unique(_)) = solve(&givens, DEFAULT_LIMIT) else {
                continue;
            };
            if found.is_some() {
                return None;
            }
            let to_t = cells.iter().copied().filter(|&c| givens.cells[c] == t);
            let changes: Vec<Change> = to_t
                .map(|c| Change {
                    cell: c,
                    from: s,
                    to: t,
                    probability: evidence[c].p(t),
                })
                .collect();
            // Cells misread one by one cost what the search's changes do.
            let cost = if absent {
                0.0
            } else {
                changes
                    .iter()
                    .map(|c| change_cost(&evidence[c.cell], t))
                    .sum()
            };
            found = Some(StandIn {
                split: Valid {
                    cost,
                    givens: givens.clone(),
                    changes,
                    outcome,
                },
                cells: cells.clone(),
                absent,
            });
        }
    }
    found
}

/// Most cells [`stand_in`] places a symbol among: each of their `2^n`
/// placings is looked at (most clash and cost a scan; the rest a solver
/// call). A 16x16 prints each symbol about seven times, so a font's glyph
/// taken for another gives about fourteen cells read as one, half of them
/// with the other as an alternative.
const STAND_IN_MAX_CELLS: usize = 12;

/// Most placings [`stand_in`] solves (those without a clash), a solver
/// call each (about a millisecond on a 16x16): on the busy-background and
/// fixture photos a stand-in solved at most 8. A reading with more
/// placings that clash with nothing is too loose for one of them to be
/// the puzzle's, and nothing is taken.
const STAND_IN_SOLVES: usize = 256;

/// What [`stand_in`] found.
struct StandIn {
    /// The reading with the symbol placed, those changes, their cost and
    /// its one solution.
    split: Valid,
    /// The cells the symbol was placed among.
    cells: Vec<usize>,
    /// The symbol placed is one the reading never holds: a glyph of the
    /// font taken for another, not cells misread one by one.
    absent: bool,
}

impl StandIn {
    /// The hypotheses: the stand-in's reading and those near it (the other
    /// unsure cells read otherwise, see [`search`]), each with the
    /// stand-in's changes and cost. Its reading has no clash to narrow the
    /// sets of alternatives tried, and on a 16x16 each is a solver call of
    /// about a millisecond: at most [`STAND_IN_TRIES`] are made.
    fn readings(&self, evidence: &[CellEvidence]) -> Vec<Valid> {
        let split = &self.split;
        let others: Vec<Alternative> = alternatives(evidence, &split.givens)
            .into_iter()
            .filter(|a| !self.cells.contains(&a.cell))
            .collect();
        let outcome = Some(&split.outcome);
        let mut found = search(&split.givens, &others, evidence, outcome, STAND_IN_TRIES).found;
        for valid in &mut found {
            let mut changes = split.changes.clone();
            changes.append(&mut valid.changes);
            valid.changes = changes;
            valid.cost += split.cost;
        }
        found
    }
}

/// Readings near a stand-in's tried (see [`StandIn::readings`]): a tenth
/// of [`MAX_TRIES`], one to two seconds on the 16x16 photos where a
/// stand-in was found.
const STAND_IN_TRIES: usize = MAX_TRIES / 10;

/// The pairs (a symbol in a clash of free cells, another symbol) that
/// [`stood_in`] and [`stand_in`] try, each with whether the reading never
/// holds the other symbol (only those with `absent_only`), for shapes of
/// at most [`STAND_IN_MAX_DIGITS`] digits.
fn stand_in_pairs(read: &Board, given: &[bool], absent_only: bool) -> Vec<(u8, u8, bool)> {
    let shape = read.shape;
    if shape.digits() > STAND_IN_MAX_DIGITS {
        return Vec::new();
    }
    let mut held = vec![false; shape.digits() + 1];
    for (cell, &v) in read.cells.iter().enumerate() {
        if shape.contains(cell) {
            held[usize::from(v)] = true;
        }
    }
    let mut symbols: Vec<u8> = read
        .clashes()
        .into_iter()
        .filter(|&(a, b)| free(given, a) && free(given, b))
        .map(|(a, _)| read.cells[a])
        .collect();
    symbols.sort_unstable();
    symbols.dedup();
    let mut pairs = Vec::new();
    for s in symbols {
        for t in (1..=shape.digits() as u8).filter(|&t| t != s) {
            let absent = !held[usize::from(t)];
            if absent || !absent_only {
                pairs.push((s, t, absent));
            }
        }
    }
    pairs
}

/// The cells of the `clashes` whose symbol a symbol the reading never
/// holds could stand in for: with every cell read as the clashing symbol
/// (but those the person set, `given`) held to either ([`solve_within`]),
/// the puzzle has a solution. A grid without a single B whose 8s clash is
/// likelier a font's B read as 8 than a puzzle printed broken; a player's
/// wrong entry on a screen late in a game stays a clash, every symbol
/// being there.
fn stood_in(read: &Board, given: &[bool], clashes: &[(usize, usize)]) -> Vec<usize> {
    let mut stands_in: Vec<u8> = Vec::new();
    for (s, t, _) in stand_in_pairs(read, given, true) {
        if stands_in.contains(&s) {
            continue;
        }
        let cells: Vec<usize> = (0..read.cells.len())
            .filter(|&c| read.cells[c] == s && free(given, c))
            .collect();
        let mut relaxed = read.clone();
        let mut allowed = vec![u64::MAX; read.cells.len()];
        for &c in &cells {
            relaxed.cells[c] = 0;
            allowed[c] = 1 << s | 1 << t;
        }
        let outcome = solve_within(&relaxed, &allowed, 1);
        if matches!(outcome, Ok(o) if o.count() > 0) {
            stands_in.push(s);
        }
    }
    clashes
        .iter()
        .flat_map(|&(a, b)| [a, b])
        .filter(|&c| stands_in.contains(&read.cells[c]))
        .collect()
}

/// The median ink height ([`glyph_height`]) of the grid's clues read
/// surely and in no clash, `None` with fewer than [`MIN_PRINT_SAMPLES`].
fn print_height(
    read: &Board,
    evidence: &[CellEvidence],
    tiles: &[Option<&Tile>],
    clashes: &[(usize, usize)],
) -> Option<f32> {
    let mut heights: Vec<usize> = (0..read.cells.len())
        .filter(|&c| read.cells[c] != 0 && evidence[c].best().1 >= SURE)
        .filter(|&c| clashes.iter().all(|&(a, b)| a != c && b != c))
        .filter_map(|c| cell_glyph_height(tiles, read.shape, c))
        .collect();
    if heights.len() < MIN_PRINT_SAMPLES {
        return None;
    }
    let mid = heights.len() / 2;
    let (_, &mut median, _) = heights.select_nth_unstable(mid);
    Some(median as f32)
}

/// Side, in tile pixels, of the square at the grid's outer corner that
/// [`glyph_height`] leaves out of a corner cell's tile: a grid drawn with
/// rounded corners puts its border's arc there (an app's pencil 5 in r1c1
/// measured 18 px, its grid's print 13). Only the grid's four corner
/// cells: elsewhere a tile's corners hold what the cutter left of the
/// lines' crossings, on every cell alike.
const GLYPH_CORNER: usize = TILE / 4;

/// The corner of a cell's tile at its grid's outer corner, `(right,
/// bottom)`, for the four corner cells of `shape`'s grid.
fn outer_corner(shape: Shape, cell: usize) -> Option<(bool, bool)> {
    let side = shape.side();
    let edge = |v: usize| match v {
        0 => Some(false),
        _ if v + 1 == side => Some(true),
        _ => None,
    };
    Some((edge(cell % side)?, edge(cell / side)?))
}

/// The glyph height ([`glyph_height`]) of cell `cell` of `shape`'s grid,
/// from its tile in `tiles`, a corner cell's arc left out; `None` for a
/// cell without a tile.
fn cell_glyph_height(tiles: &[Option<&Tile>], shape: Shape, cell: usize) -> Option<usize> {
    let tile = tiles.get(cell).copied().flatten()?;
    Some(glyph_height(tile, outer_corner(shape, cell)))
}

/// Rows of a tile from its first to its last holding ink (a pixel at
/// least half black), the square at `corner` (the grid's outer corner,
/// see [`outer_corner`]) left out: a glyph's height in tile pixels.
fn glyph_height(tile: &Tile, corner: Option<(bool, bool)>) -> usize {
    let masked = |x: usize, y: usize| {
        let near = |v: usize, far: bool| match far {
            true => v >= TILE - GLYPH_CORNER,
            false => v < GLYPH_CORNER,
        };
        corner.is_some_and(|(right, bottom)| near(x, right) && near(y, bottom))
    };
    let inked: Vec<usize> = tile
        .pixels
        .chunks_exact(TILE)
        .enumerate()
        .filter(|&(y, row)| {
            row.iter()
                .enumerate()
                .any(|(x, &p)| p >= 0.5 && !masked(x, y))
        })
        .map(|(y, _)| y)
        .collect();
    match (inked.first(), inked.last()) {
        (Some(&a), Some(&b)) => b - a + 1,
        _ => 0,
    }
}

/// Whether `givens` can have one solution at all, by counting alone: a
/// puzzle lacking two of its digits has none or several (swapping the two
/// in a solution gives another), and a 9x9 needs [`MIN_CLASSIC_CLUES`].
/// The repair search asks this before the solver, because a reading with
/// next to no clues (a grid read empty, or a 9x9 taken for a 16x16) sends
/// thousands of near-empty puzzles to it, each costing a full descent of
/// the search tree: six such grids on a page held a batch for minutes.
fn may_be_unique(givens: &Board) -> bool {
    let digits = givens.shape.digits();
    let mut seen = vec![false; digits + 1];
    let mut clues = 0;
    for &v in &givens.cells {
        if v != 0 {
            clues += 1;
            if let Some(s) = seen.get_mut(v as usize) {
                *s = true;
            }
        }
    }
    let distinct = seen[1..].iter().filter(|&&s| s).count();
    let enough = givens.shape != Shape::classic() || clues >= MIN_CLASSIC_CLUES;
    distinct + 1 >= digits && enough
}

/// Why the reading has no solution whatever its unsure cells hold: its
/// sure cells alone (the unsure ones emptied) already clash, or leave no
/// solution. Emptying cells only adds solutions, so no reading of the
/// unsure cells can mend it. `None` when the sure cells have a solution.
fn broken_on_sure_cells(read: &Board, evidence: &[CellEvidence]) -> Option<String> {
    let mut sure = read.clone();
    for (cell, e) in evidence.iter().enumerate() {
        if e.best().1 < SURE {
            sure.cells[cell] = 0;
        }
    }
    match solve(&sure, DEFAULT_LIMIT) {
        Err(clash) => Some(clash.to_string()),
        Ok(Outcome::NoSolution) => Some(no_solution_reason(&sure)),
        Ok(_) => None,
    }
}

/// Why givens that break no rule still have no solution: an empty cell no
/// digit fits, or a digit with no place left in a unit, when one is that
/// plain; else a plain "no solution".
fn no_solution_reason(board: &Board) -> String {
    let shape = board.shape;
    let units = shape.units();
    let digits = shape.digits() as u8;
    for (cell, _) in board
        .cells
        .iter()
        .enumerate()
        .filter(|&(i, &v)| v == 0 && shape.contains(i))
    {
        let fits = (1..=digits).any(|d| {
            units
                .iter()
                .filter(|u| u.contains(&cell))
                .all(|u| u.iter().all(|&j| board.cells[j] != d))
        });
        if !fits {
            return format!(
                "no solution: no digit fits {} (its row, column and box hold all {digits})",
                shape.cell_name(cell)
            );
        }
    }
    "no solution".to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classify::{HAND_BASE, OTHER, PENCIL};
    use crate::data::{Tile, TILE};

    const PUZZLE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    fn board(line: &str) -> Board {
        Board::parse(line, Shape::classic()).unwrap()
    }

    /// The one solution of a test puzzle.
    fn solution_of(g: &Board) -> Board {
        match solve(g, 2).unwrap() {
            Outcome::Unique(s) => s,
            other => panic!("{other:?}"),
        }
    }

    /// Confident evidence for a board: 0.98 on its value.
    fn confident(b: &Board) -> Vec<CellEvidence> {
        b.cells
            .iter()
            .map(|&v| {
                let mut clue = vec![0.02 / 9.0; 10];
                clue[v as usize] = 0.98;
                CellEvidence {
                    clue,
                    entry: None,
                    pen: [0.0; 10],
                    glyph: None,
                    ink: 0.0,
                    tint: 0.0,
                    pencil: 0.0,
                }
            })
            .collect()
    }

    #[test]
    fn puzzles_that_cannot_be_unique_by_counting_are_told_apart() {
        // The test puzzle has 17 clues and eight digits: it may be unique.
        let p = board(PUZZLE);
        assert!(may_be_unique(&p));
        // One clue fewer: no 16-clue 9x9 is unique.
        let mut fewer = p.clone();
        let first = fewer.cells.iter().position(|&v| v != 0).unwrap();
        fewer.cells[first] = 0;
        assert!(!may_be_unique(&fewer));
        // It lacks the 9 (a unique puzzle may lack one digit); with every
        // 8 made a 1 it lacks two, and any solution's 8s and 9s swap.
        let mut lacking = p.clone();
        for v in &mut lacking.cells {
            if *v == 8 {
                *v = 1;
            }
        }
        assert!(!may_be_unique(&lacking));
        // A 16x16 read with two clues, as a 9x9 taken for one reads.
        let shape = Shape::square(16).unwrap();
        let mut sparse = Board::empty(shape);
        sparse.cells[62] = 4;
        sparse.cells[94] = 4;
        assert!(!may_be_unique(&sparse));
    }

    fn set(e: &mut CellEvidence, probs: &[(u8, f32)]) {
        e.clue = vec![0.0; 10];
        for &(v, p) in probs {
            e.clue[v as usize] = p;
        }
    }

    /// Reads r1c2 surely as the 4 that r1c1 holds: a player's wrong entry
    /// taken for print, or a puzzle printed broken.
    fn read_a_second_four(e: &mut [CellEvidence]) {
        set(&mut e[1], &[(4, 0.97), (0, 0.03)]);
    }

    /// The verdict on a reading whose r1c1 and r1c2 are both 4.
    fn fours_clash() -> Verdict {
        Verdict::NoSolution("givens clash: r1c1 and r1c2 are both 4".into())
    }

    #[test]
    fn a_clean_reading_is_solved_as_is() {
        let g = board(PUZZLE);
        let d = decide(Shape::classic(), &confident(&g), &[], &[]);
        assert_eq!(d.givens, g);
        assert!(d.changes.is_empty());
        assert_eq!(d.verdict, Verdict::Solved);
        assert!(d.confidence > 0.99);
        assert!(d.solution().is_some());
    }

    #[test]
    fn a_likely_misread_is_repaired() {
        let g = board(PUZZLE);
        let mut e = confident(&g);
        // r1c1 is a 4, but the classifier slightly preferred 9.
        set(&mut e[0], &[(9, 0.55), (4, 0.43), (0, 0.02)]);
        let d = decide(Shape::classic(), &e, &[], &[]);
        assert_eq!(d.read.cells[0], 9);
        assert_eq!(d.givens, g, "repaired back to the true puzzle");
        assert_eq!((d.changes[0].cell, d.changes[0].to), (0, 4));
        assert_eq!(d.verdict, Verdict::Solved, "confidence {}", d.confidence);
    }

    #[test]
    fn a_missed_clue_found_again_is_solved() {
        let g = board(PUZZLE);
        let mut e = confident(&g);
        // r1c7 holds an 8 but read as empty: 17 clues minus one has many solutions.
        set(&mut e[6], &[(0, 0.6), (8, 0.35), (9, 0.05)]);
        let d = decide(Shape::classic(), &e, &[], &[]);
        assert_eq!(d.givens, g);
        assert_eq!(d.verdict, Verdict::Solved);
    }

    #[test]
    fn sure_clues_are_never_changed_so_a_broken_puzzle_is_reported() {
        let g = board(PUZZLE);
        let mut e = confident(&g);
        // r1c2 confidently read as 4, clashing with r1c1: printed so.
        read_a_second_four(&mut e);
        let d = decide(Shape::classic(), &e, &[], &[]);
        assert_eq!(d.verdict, fours_clash());
        assert!(d.solution().is_none());
    }

    /// The test puzzle (which lacks the 9) with one 9 of its solution
    /// added where it shares a unit with an 8 clue, and that cell.
    fn with_a_nine_beside_an_eight() -> (Board, usize) {
        let g = board(PUZZLE);
        let Ok(Outcome::Unique(solution)) = solve(&g, DEFAULT_LIMIT) else {
            panic!("the test puzzle has one solution");
        };
        let units = g.shape.units();
        let cell = (0..81)
            .find(|&c| {
                solution.cells[c] == 9
                    && units
                        .iter()
                        .any(|u| u.contains(&c) && u.iter().any(|&o| g.cells[o] == 8))
            })
            .unwrap();
        let mut with = g;
        with.cells[cell] = 9;
        (with, cell)
    }

    /// A 16x16 solution (the fixture `16x16-blurred-letters.jpg`'s).
    const SIXTEEN_SOLUTION: &str = "\
        51C3D7A6FBEG9842 F87ABCE29D543G61 462BG95FC138EDA7 EDG9384127A6C5BF \
        BF1E4697G2DA835C 35628EBC791FD4GA D78GFA2534CEB916 94AC1GD3586BF72E \
        7GF4236AB5891ECD 23E69DF4ACG15B78 19B8C5GED672AF34 CAD57B184EF3269G \
        GE37A1C96FBD4285 8B91647DEA25GCF3 AC5FE23B8G4761D9 624D5F8G139C7AEB";

    #[test]
    fn a_16x16_with_a_dozen_letters_read_in_doubt_is_solved_when_they_are_right() {
        // Ten clues read right at 0.75, each with a rival symbol its row
        // already holds, as a blurred 16x16's Bs are read against 8s:
        // three or fewer of ten such cells are misread with a chance of
        // 0.78, five or fewer 0.98. No rival reading has an answer.
        let shape = Shape::square(16).unwrap();
        let line: String = SIXTEEN_SOLUTION.split_whitespace().collect();
        let solution = Board::parse(&line, shape).unwrap();
        let mut puzzle = solution.clone();
        for c in (0..256).filter(|c| c % 3 == 0) {
            puzzle.cells[c] = 0;
        }
        assert_eq!(solution_of(&puzzle), solution);
        let mut e: Vec<CellEvidence> = puzzle
            .cells
            .iter()
            .map(|&v| CellEvidence::certain(v, 16))
            .collect();
        for row in 0..10 {
            let mut clues = (row * 16..row * 16 + 16).filter(|&c| puzzle.cells[c] != 0);
            let (c, beside) = (clues.next().unwrap(), clues.next().unwrap());
            let rival = puzzle.cells[beside];
            e[c].clue.fill(0.0);
            e[c].clue[puzzle.cells[c] as usize] = 0.75;
            e[c].clue[rival as usize] = 0.23;
            e[c].clue[0] = 0.02;
        }
        let d = decide(shape, &e, &[], &[]);
        assert_eq!(d.verdict, Verdict::Solved, "confidence {}", d.confidence);
        assert_eq!(d.givens, puzzle);
        assert_eq!(d.solution(), Some(&solution));
        // A 9x9 read so is still weighed within three misreads.
        let classic = board(PUZZLE);
        let mut nine = confident(&classic);
        for c in (0..81).filter(|&c| classic.cells[c] != 0).take(10) {
            let v = classic.cells[c] as usize;
            nine[c].clue.fill(0.0);
            nine[c].clue[v] = 0.75;
            nine[c].clue[0] = 0.25;
        }
        let d = decide(Shape::classic(), &nine, &[], &[]);
        assert!(
            d.confidence < SOLVED_CONFIDENCE,
            "confidence {}",
            d.confidence
        );
    }

    #[test]
    fn a_clash_a_missing_symbol_could_mend_is_named_not_called_broken() {
        // The only 9 read surely as 8: no 9 is read, and the 8s clash.
        // A 9 in its place mends it, so the grid is a misread to check
        // (as a 16x16's Bs read as 8s are), not a puzzle printed broken.
        let (g, nine) = with_a_nine_beside_an_eight();
        let mut e = confident(&g);
        set(&mut e[nine], &[(8, 0.97), (0, 0.03)]);
        let d = decide(Shape::classic(), &e, &[], &[]);
        let Verdict::Unsure(checks) = &d.verdict else {
            panic!("{:?}", d.verdict);
        };
        assert!(checks.iter().any(|c| c.cell == nine), "{checks:?}");
        assert!(d.solution().is_none());
        // Every symbol read, the same kind of clash is the puzzle's: a
        // player's wrong entry.
        let mut e = confident(&g);
        read_a_second_four(&mut e);
        let d = decide(Shape::classic(), &e, &[], &[]);
        assert_eq!(d.verdict, fours_clash());
    }

    /// The test puzzle with `count` 9s added where its solution has them,
    /// the first beside an 8 (see [`with_a_nine_beside_an_eight`]): the
    /// puzzle, the 9s' cells and its solution.
    fn with_nines(count: usize) -> (Board, Vec<usize>, Board) {
        let Ok(Outcome::Unique(solution)) = solve(&board(PUZZLE), DEFAULT_LIMIT) else {
            panic!("the test puzzle has one solution");
        };
        let (mut truth, beside) = with_a_nine_beside_an_eight();
        let mut nines = vec![beside];
        nines.extend(
            (0..81)
                .filter(|&c| solution.cells[c] == 9 && c != beside)
                .take(count - 1),
        );
        for &c in &nines {
            truth.cells[c] = 9;
        }
        (truth, nines, solution)
    }

    #[test]
    fn a_symbol_read_as_another_throughout_is_placed_where_the_puzzle_has_it() {
        // Four 9s, one beside an 8, all read as 8s with a 9 as the
        // runner-up: more misreads than a repair makes, the 8s clash and
        // no 9 is read.
        let (truth, mut nines, solution) = with_nines(4);
        let mut e = confident(&truth);
        for &c in &nines {
            set(&mut e[c], &[(8, 0.7), (9, 0.25), (0, 0.05)]);
        }
        let d = decide(Shape::classic(), &e, &[], &[]);
        assert_eq!(d.givens, truth, "the 9s placed back");
        assert_eq!(d.verdict, Verdict::Solved, "confidence {}", d.confidence);
        assert_eq!(d.solution(), Some(&solution));
        let mut changed: Vec<usize> = d.changes.iter().map(|c| c.cell).collect();
        changed.sort_unstable();
        nines.sort_unstable();
        assert_eq!(changed, nines);
        // Where the real 8s might be 9s as well, the puzzle cannot tell
        // the two symbols apart: no answer, the cells named.
        for c in (0..81).filter(|&c| truth.cells[c] == 8) {
            set(&mut e[c], &[(8, 0.7), (9, 0.25), (0, 0.05)]);
        }
        let d = decide(Shape::classic(), &e, &[], &[]);
        assert!(matches!(d.verdict, Verdict::Unsure(_)), "{:?}", d.verdict);
        assert!(d.solution().is_none() || d.confidence < SOLVED_CONFIDENCE);
    }

    #[test]
    fn a_symbol_read_as_another_in_some_cells_is_weighed_as_misreads() {
        // Five 9s: one read as 9, four read as 8 (one beside an 8). The 9
        // is there, so the four are four misreads, weighed against a
        // puzzle printed broken.
        let (truth, nines, _) = with_nines(5);
        let misread = &nines[..4];
        let decided = |p8: f32, p9: f32| {
            let mut e = confident(&truth);
            for &c in misread {
                set(&mut e[c], &[(8, p8), (9, p9), (0, 1.0 - p8 - p9)]);
            }
            decide(Shape::classic(), &e, &[], &[])
        };
        // Near coin flips: four of them cost less than a broken print.
        let d = decided(0.5, 0.45);
        assert_eq!(d.givens, truth);
        assert_eq!(d.verdict, Verdict::Solved, "confidence {}", d.confidence);
        assert_eq!(d.changes.len(), 4);
        // Read as 8 at 0.7: four such misreads are no likelier than a
        // broken print, and the answer is not called solved.
        let d = decided(0.7, 0.25);
        assert!(
            d.confidence < SOLVED_CONFIDENCE,
            "confidence {}",
            d.confidence
        );
        assert!(matches!(d.verdict, Verdict::Unsure(_)), "{:?}", d.verdict);
    }

    #[test]
    fn a_sure_clash_in_a_reading_too_poor_to_trust_is_named_not_called_broken() {
        // The wrong-entry clash above, in a reading where a dozen clues
        // were read in doubt: the model struggles with the image, and a
        // sure misread is likely too. The clash is named with the rest.
        let (g, _) = with_a_nine_beside_an_eight();
        let mut e = confident(&g);
        read_a_second_four(&mut e);
        let doubtful: Vec<usize> = (2..81).filter(|&c| g.cells[c] != 0).take(12).collect();
        for &c in &doubtful {
            set(&mut e[c], &[(g.cells[c], 0.7), (0, 0.3)]);
        }
        let d = decide(Shape::classic(), &e, &[], &[]);
        let Verdict::Unsure(checks) = &d.verdict else {
            panic!("{:?}", d.verdict);
        };
        let cells: Vec<usize> = checks.iter().map(|c| c.cell).collect();
        assert!(cells.contains(&0) && cells.contains(&1), "{cells:?}");
        assert!(doubtful.iter().all(|c| cells.contains(c)), "{cells:?}");
    }

    /// A tile with ink on `rows` rows from the sixth down: a glyph that
    /// tall.
    fn glyph(rows: usize) -> Tile {
        let mut t = Tile::default();
        for y in 6..6 + rows {
            t.pixels[y * TILE + 10..y * TILE + 18].fill(1.0);
        }
        t
    }

    #[test]
    fn a_small_glyph_in_a_clash_is_no_clue_and_a_clash_of_print_stands() {
        // A lone pencil mark read surely as a printed 8 where the 9 is
        // (clashing with an 8): its glyph is a third of the print's height.
        let (g, nine) = with_a_nine_beside_an_eight();
        let mut read = g.clone();
        read.cells[nine] = 8;
        // Another 9 of the solution read: no symbol is missing, so no
        // other symbol could stand in for the 8s.
        let Ok(Outcome::Unique(solution)) = solve(&g, DEFAULT_LIMIT) else {
            panic!("the puzzle has one solution");
        };
        let other = (0..81)
            .find(|&c| c != nine && g.cells[c] == 0 && solution.cells[c] == 9)
            .unwrap();
        read.cells[other] = 9;
        let e = confident(&read);
        let print = glyph(20);
        let pencil = glyph(7);
        // A rounded grid's corner arc in a corner cell's tile, at the
        // grid's outer corner, is no part of the glyph.
        let mut arc = glyph(7);
        arc.pixels[0] = 1.0;
        assert_eq!(glyph_height(&arc, outer_corner(Shape::classic(), 0)), 7);
        assert_eq!(glyph_height(&arc, outer_corner(Shape::classic(), 80)), 13);
        assert_eq!(glyph_height(&arc, outer_corner(Shape::classic(), 1)), 13);
        let tiles: Vec<Option<&Tile>> = (0..81)
            .map(|c| match (c == nine, read.cells[c]) {
                (true, _) => Some(&pencil),
                (false, 0) => None,
                _ => Some(&print),
            })
            .collect();
        let d = decide(Shape::classic(), &e, &[], &tiles);
        // Read without it, the puzzle is solved, with its own solution.
        assert_eq!(d.verdict, Verdict::Solved, "{:?}", d.verdict);
        assert_eq!(d.givens.cells[nine], 0);
        assert_eq!(d.solution(), Some(&solution));
        // At the print's height the same 8 is a clue, and the clash is
        // named to check.
        let tiles_print: Vec<Option<&Tile>> = (0..81)
            .map(|c| (read.cells[c] != 0).then_some(&print))
            .collect();
        let d = decide(Shape::classic(), &e, &[], &tiles_print);
        assert_ne!(d.verdict, Verdict::Solved);
        // A player's wrong 4 at print size beside it: that clash stands
        // whatever the small glyph is, and it alone is named; the board,
        // broken either way, is read without the small glyph as a clue.
        let mut e = e;
        read_a_second_four(&mut e);
        let mut tiles = tiles;
        tiles[1] = Some(&print);
        let d = decide(Shape::classic(), &e, &[], &tiles);
        assert_eq!(d.verdict, fours_clash());
        assert_eq!(d.givens.cells[nine], 0);
        assert_eq!(d.read.cells[nine], 0);
    }

    #[test]
    fn a_board_late_in_a_game_with_a_note_read_as_a_clue_is_solved() {
        // An app's board nearly filled in, notes in some empty cells and
        // a lone note in another read surely as a printed digit that
        // clashes: taken out, that cell holds a note too, not an answer
        // grid's missed digit, and the board is solved.
        let Ok(Outcome::Unique(solution)) = solve(&board(PUZZLE), DEFAULT_LIMIT) else {
            panic!("the puzzle has one solution");
        };
        let mut late = solution.clone();
        for c in (0..81).step_by(5) {
            late.cells[c] = 0;
        }
        assert!(matches!(
            solve(&late, DEFAULT_LIMIT),
            Ok(Outcome::Unique(_))
        ));
        let (note, noted) = (10, 20);
        let mut read = late.clone();
        read.cells[note] = solution.cells[note - 1];
        let mut e = confident(&read);
        e[note].ink = 0.7;
        e[noted].ink = 0.7;
        e[noted].pencil = 1.0;
        let (print, blank, pencil) = (glyph(20), Tile::default(), glyph(7));
        let tiles: Vec<Option<&Tile>> = (0..81)
            .map(|c| match (c == note || c == noted, read.cells[c]) {
                (true, _) => Some(&pencil),
                (false, 0) => Some(&blank),
                _ => Some(&print),
            })
            .collect();
        let d = decide(Shape::classic(), &e, &[], &tiles);
        assert_eq!(d.verdict, Verdict::Solved, "{:?}", d.verdict);
        assert_eq!(d.solution(), Some(&solution));
        // Without notes elsewhere (a book's answer grid, its answers
        // printed smaller than its clues), the glyph taken out leaves a
        // digit missed: not solved.
        e[noted].pencil = 0.0;
        e[noted].ink = 0.0;
        let d = decide(Shape::classic(), &e, &[], &tiles);
        assert_ne!(d.verdict, Verdict::Solved);
    }

    #[test]
    fn a_small_glyph_that_leaves_no_solution_without_a_clash_is_no_clue() {
        // A pencil mark read surely as a printed digit that clashes with
        // nothing but leaves the puzzle without a solution (an app's lone
        // pencil 5 in the middle of its cell).
        let g = board(PUZZLE);
        let (cell, digit) = (0..81)
            .filter(|&c| g.cells[c] == 0)
            .flat_map(|c| (1..=9u8).map(move |d| (c, d)))
            .find(|&(c, d)| {
                let mut b = g.clone();
                b.cells[c] = d;
                matches!(solve(&b, DEFAULT_LIMIT), Ok(Outcome::NoSolution))
            })
            .unwrap();
        let mut read = g.clone();
        read.cells[cell] = digit;
        let e = confident(&read);
        let print = glyph(20);
        let pencil = glyph(7);
        let mut tiles: Vec<Option<&Tile>> = (0..81)
            .map(|c| (read.cells[c] != 0).then_some(&print))
            .collect();
        let d = decide(Shape::classic(), &e, &[], &tiles);
        assert!(
            matches!(d.verdict, Verdict::NoSolution(_)),
            "{:?}",
            d.verdict
        );
        tiles[cell] = Some(&pencil);
        let d = decide(Shape::classic(), &e, &[], &tiles);
        assert_eq!(d.verdict, Verdict::Solved, "{:?}", d.verdict);
        assert_eq!(d.givens, g);
        // Set by the person, the same digit is theirs: never taken out.
        let d = decide(Shape::classic(), &e, &[(cell, digit)], &tiles);
        assert!(
            matches!(d.verdict, Verdict::NoSolution(_)),
            "{:?}",
            d.verdict
        );
    }

    #[test]
    fn a_puzzle_broken_on_its_sure_cells_has_no_solution_whatever_the_rest() {
        // A wrong entry read with confidence (r1c2 = 4 clashes with r1c1),
        // and an unsure cell elsewhere that no reading of can mend it.
        let g = board(PUZZLE);
        let mut e = confident(&g);
        read_a_second_four(&mut e);
        set(&mut e[80], &[(0, 0.6), (3, 0.4)]);
        let d = decide(Shape::classic(), &e, &[], &[]);
        assert_eq!(d.verdict, fours_clash());
        assert!(d.solution().is_none());
    }

    #[test]
    fn a_confident_reading_with_several_solutions_is_reported() {
        let mut g = board(PUZZLE);
        g.cells[0] = 0;
        let d = decide(Shape::classic(), &confident(&g), &[], &[]);
        assert!(
            matches!(d.verdict, Verdict::Multiple(n) if n >= 2),
            "{:?}",
            d.verdict
        );
    }

    #[test]
    fn several_solutions_without_a_cell_read_as_pen_are_unsure_naming_it() {
        // The first clue read surely as a pen entry (a large printed
        // glyph the model takes for handwriting): without it the puzzle
        // has several solutions, which a printed puzzle did not have
        // before anyone wrote in it. The cell is named, not the puzzle
        // called broken.
        let g = board(PUZZLE);
        let first = g.cells.iter().position(|&v| v != 0).unwrap();
        let mut read = g.clone();
        read.cells[first] = 0;
        let mut e = confident(&read);
        e[first].entry = Some((g.cells[first], 0.97));
        let d = decide(Shape::classic(), &e, &[], &[]);
        assert!(matches!(d.verdict, Verdict::Unsure(_)), "{:?}", d.verdict);
        let name = Shape::classic().cell_name(first);
        assert!(d.problem().unwrap().contains(&name), "{:?}", d.problem());
        assert_eq!(d.solution(), None);
    }

    #[test]
    fn a_clue_read_as_pen_is_named_beside_the_unsure_cells() {
        // As above, and an unsure cell elsewhere: the pen cell is named
        // too, so that setting every cell named settles the grid.
        let g = board(PUZZLE);
        let first = g.cells.iter().position(|&v| v != 0).unwrap();
        let mut read = g.clone();
        read.cells[first] = 0;
        let mut e = confident(&read);
        e[first].entry = Some((g.cells[first], 0.97));
        set(&mut e[80], &[(0, 0.6), (3, 0.4)]);
        let d = decide(Shape::classic(), &e, &[], &[]);
        let Verdict::Unsure(checks) = &d.verdict else {
            panic!("{:?}", d.verdict);
        };
        let cells: Vec<usize> = checks.iter().map(|c| c.cell).collect();
        assert!(cells.contains(&first) && cells.contains(&80), "{cells:?}");
        let truth: Vec<(usize, u8)> = cells.iter().map(|&c| (c, g.cells[c])).collect();
        let settled = decide(Shape::classic(), &e, &truth, &[]);
        assert_eq!(settled.verdict, Verdict::Solved);
    }

    #[test]
    fn an_unlikely_repair_is_unsure_not_solved() {
        // Several solutions as read; the one repair that makes it unique is
        // a digit the classifier gave 2 % in a cell it read as empty.
        let mut g = board(PUZZLE);
        g.cells[6] = 0;
        let mut e = confident(&g);
        set(&mut e[6], &[(0, 0.88), (8, 0.02), (3, 0.1)]);
        let d = decide(Shape::classic(), &e, &[], &[]);
        assert!(
            matches!(d.verdict, Verdict::Unsure(_)),
            "{:?} confidence {}",
            d.verdict,
            d.confidence
        );
        assert!(!d.settle().is_empty());
        assert!(d.problem().unwrap().contains("r1c7"), "{:?}", d.problem());
    }

    #[test]
    fn a_coin_flip_between_a_misread_and_a_broken_print_draws_no_answer() {
        // The held-out page's case: several solutions as read, and the one
        // reading with a single solution puts a digit the classifier gave
        // 1 % into a cell it read as empty (85 %; a 3 there has no single
        // solution).
        let d = clue_missed_at_r1c7(&[(0, 0.85), (8, 0.01), (3, 0.14)]);
        assert!(
            (0.3..SHOW_CONFIDENCE).contains(&d.confidence),
            "confidence {}",
            d.confidence
        );
        assert!(matches!(d.verdict, Verdict::Unsure(_)), "{:?}", d.verdict);
        assert_eq!(d.solution(), None, "a coin flip is not drawn");
    }

    /// PUZZLE read surely but for its clue 8 at r1c7, which the classifier
    /// gives `probs` (as read, empty: several solutions; an 8 there gives
    /// the one).
    fn clue_missed_at_r1c7(probs: &[(u8, f32)]) -> Decision {
        let mut g = board(PUZZLE);
        g.cells[6] = 0;
        let mut e = confident(&g);
        set(&mut e[6], probs);
        decide(Shape::classic(), &e, &[], &[])
    }

    #[test]
    fn an_answer_picked_among_the_readings_solutions_is_not_shown_unless_sure() {
        // Several solutions as read, and the one reading with a single
        // solution puts a digit the classifier gave 6 % into a cell read as
        // empty: likely enough to show by the share alone (0.88), but the
        // search only sees the missed clues that got some weight.
        let d = clue_missed_at_r1c7(&[(0, 0.85), (8, 0.06), (3, 0.09)]);
        assert!(d.several_as_read);
        assert!(
            (SHOW_CONFIDENCE..SOLVED_CONFIDENCE).contains(&d.confidence),
            "confidence {}",
            d.confidence
        );
        assert!(matches!(d.verdict, Verdict::Unsure(_)), "{:?}", d.verdict);
        assert_eq!(d.solution(), None, "picked among several: not drawn");
        let problem = d.problem().unwrap_or_default();
        assert!(
            problem.contains("several solutions") && problem.contains("r1c7"),
            "{problem}"
        );
    }

    #[test]
    fn an_unsure_answer_is_shown_only_when_three_times_as_likely_right() {
        let g = board(PUZZLE);
        let solution = solution_of(&g);
        let unsure = |confidence: f32| Decision {
            read: g.clone(),
            givens: g.clone(),
            changes: Vec::new(),
            entries: Vec::new(),
            pen: Vec::new(),
            outcome: Outcome::Unique(solution.clone()),
            confidence,
            several_as_read: false,
            verdict: Verdict::Unsure(vec![Check {
                cell: 0,
                assumed: 4,
                probability: 0.5,
            }]),
        };
        assert_eq!(unsure(0.8).solution(), Some(&solution));
        let doubtful = unsure(0.6);
        assert_eq!(doubtful.solution(), None, "not three times as likely right");
        let problem = doubtful.problem().unwrap();
        assert!(
            problem.contains("no answer is likely enough") && problem.contains("r1c1"),
            "{problem}"
        );
    }

    #[test]
    fn many_unsure_cells_leave_no_answer_to_show() {
        // Ten clues read half as empty: whatever unique puzzle the search
        // finds within three changes, the printed one is likely further off.
        let g = board(PUZZLE);
        let mut e = confident(&g);
        let clues: Vec<usize> = (0..81).filter(|&i| g.cells[i] != 0).take(10).collect();
        for &i in &clues {
            let v = g.cells[i];
            set(&mut e[i], &[(0, 0.55), (v, 0.45)]);
        }
        let d = decide(Shape::classic(), &e, &[], &[]);
        assert!(
            d.confidence < SHOW_CONFIDENCE,
            "confidence {}",
            d.confidence
        );
        assert!(d.solution().is_none());
        assert!(matches!(d.verdict, Verdict::Unsure(_)), "{:?}", d.verdict);
    }

    /// The unique solution of PUZZLE.
    fn solution() -> Board {
        match solve(&board(PUZZLE), DEFAULT_LIMIT) {
            Ok(Outcome::Unique(s)) => s,
            other => panic!("PUZZLE is unique: {other:?}"),
        }
    }

    #[test]
    fn unsure_cells_that_can_only_agree_with_the_answer_leave_it_sure() {
        // PUZZLE plus twelve more cells of its solution, each read as that
        // digit at 0.6 and as empty at 0.4 (a blurred print): whichever of
        // them are really printed, the answer is PUZZLE's.
        let g = board(PUZZLE);
        let s = solution();
        let mut e = confident(&g);
        let extra: Vec<usize> = (0..81).filter(|&i| g.cells[i] == 0).take(12).collect();
        for &i in &extra {
            set(&mut e[i], &[(s.cells[i], 0.6), (0, 0.4)]);
        }
        let d = decide(Shape::classic(), &e, &[], &[]);
        assert_eq!(d.verdict, Verdict::Solved, "confidence {}", d.confidence);
        assert_eq!(d.solution(), Some(&s));
        // The same cells with a wrong digit as the alternative can change
        // the answer: twelve of them are too many to be sure of it.
        for &i in &extra {
            let wrong = s.cells[i] % 9 + 1;
            set(&mut e[i], &[(s.cells[i], 0.6), (wrong, 0.4)]);
        }
        let d = decide(Shape::classic(), &e, &[], &[]);
        assert!(d.confidence < SOLVED_CONFIDENCE, "{}", d.confidence);
    }

    /// A small deterministic generator for the settling test (xorshift).
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    #[test]
    fn setting_every_cell_to_check_to_what_it_shows_settles_the_grid() {
        // A puzzle (or its printed answer grid) read with a few cells in
        // doubt, each between what is printed and a misreading; after the
        // cells named are set to what is printed, the grid is solved (or
        // complete), never unsure again.
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let mut unsure = 0;
        for case in 0..300 {
            let truth = if case % 4 == 3 {
                solution()
            } else {
                board(PUZZLE)
            };
            let mut e = confident(&truth);
            for _ in 0..2 + rng.below(9) {
                let cell = rng.below(81);
                let printed = truth.cells[cell];
                let other = match rng.below(3) {
                    0 if printed != 0 => 0,
                    _ => 1 + rng.below(9) as u8,
                };
                if other == printed {
                    continue;
                }
                let p = 0.3 + 0.6 * rng.below(100) as f32 / 100.0;
                set(&mut e[cell], &[(printed, p), (other, 1.0 - p)]);
            }
            let d = decide(Shape::classic(), &e, &[], &[]);
            let Verdict::Unsure(checks) = &d.verdict else {
                continue;
            };
            unsure += 1;
            let sets: Vec<(usize, u8)> = checks
                .iter()
                .map(|c| (c.cell, truth.cells[c.cell]))
                .collect();
            let settled = decide(Shape::classic(), &e, &sets, &[]);
            assert!(
                !matches!(settled.verdict, Verdict::Unsure(_)),
                "case {case}: {:?} after {sets:?} ({:?})",
                settled.verdict,
                d.verdict
            );
            if settled.verdict == Verdict::Solved {
                let want = if case % 4 == 3 {
                    truth.clone()
                } else {
                    solution()
                };
                assert_eq!(settled.solution(), Some(&want), "case {case}");
            }
        }
        assert!(
            unsure > 30,
            "only {unsure} unsure cases: the test tests little"
        );
    }

    #[test]
    fn an_answer_grid_read_with_an_empty_cell_is_not_solved() {
        let s = solution();
        let mut e = confident(&s);
        set(&mut e[40], &[(0, 0.95), (s.cells[40], 0.05)]);
        let d = decide(Shape::classic(), &e, &[], &[]);
        let Verdict::Unsure(checks) = &d.verdict else {
            panic!("{:?}", d.verdict);
        };
        assert_eq!(checks.len(), 1);
        assert_eq!((checks[0].cell, checks[0].assumed), (40, s.cells[40]));
        let problem = d.problem().unwrap_or_default();
        assert!(
            problem.contains("printed answer grid") && problem.contains("r5c5"),
            "{problem}"
        );
    }

    #[test]
    fn a_board_late_in_a_game_is_solved_where_its_empty_cells_are_blank_or_pencilled() {
        // An app's board with 18 cells left, its typed entries read like
        // givens: three quarters of it printed, as a printed answer grid.
        let s = solution();
        let left: Vec<usize> = (0..81).step_by(9).chain((4..81).step_by(9)).collect();
        assert_eq!(left.len(), 18);
        let mut board = s.clone();
        for &c in &left {
            board.cells[c] = 0;
        }
        let mut e = confident(&board);
        let tile = Tile::default();
        let tiles: Vec<Option<&Tile>> = vec![Some(&tile); 81];
        // Blank on the pixels: a puzzle nearly filled in, solved.
        let d = decide(Shape::classic(), &e, &[], &tiles);
        assert_eq!(d.verdict, Verdict::Solved, "{:?}", d.verdict);
        assert_eq!(d.solution(), Some(&s));
        // Ink in one of them, as dark as the print: a digit of an answer
        // grid missed, never solved.
        e[left[3]].ink = 0.9;
        let d = decide(Shape::classic(), &e, &[], &tiles);
        let Verdict::Unsure(checks) = &d.verdict else {
            panic!("{:?}", d.verdict);
        };
        assert!(checks.iter().any(|c| c.cell == left[3]), "{checks:?}");
        // That ink a player's pencil candidates: an empty cell of a game.
        e[left[3]].pencil = 0.9;
        let d = decide(Shape::classic(), &e, &[], &tiles);
        assert_eq!(d.verdict, Verdict::Solved, "{:?}", d.verdict);
        e[left[3]].pencil = 0.0;
        // A drawing's cells have no tiles and no ink measured: in doubt.
        e[left[3]].ink = 0.0;
        let d = decide(Shape::classic(), &e, &[], &[]);
        assert_ne!(d.verdict, Verdict::Solved);
    }

    #[test]
    fn reach_is_certain_with_few_unsure_cells_and_small_with_many() {
        let g = board(PUZZLE);
        let mut e = confident(&g);
        assert!((within_reach(&e, &g, &[], MAX_CHANGES) - 1.0).abs() < 1e-6);
        set(&mut e[0], &[(4, 0.6), (9, 0.4)]);
        assert!(
            (within_reach(&e, &g, &[], MAX_CHANGES) - 1.0).abs() < 1e-6,
            "one unsure cell is within reach"
        );
        for cell in e.iter_mut().take(9).skip(1) {
            set(cell, &[(0, 0.5), (1, 0.5)]);
        }
        assert!(
            within_reach(&e, &g, &[], MAX_CHANGES) < 0.3,
            "{}",
            within_reach(&e, &g, &[], MAX_CHANGES)
        );
    }

    #[test]
    fn a_search_stopped_at_its_cap_says_so_and_one_that_ends_does_not() {
        let g = board(PUZZLE);
        let solution = solution_of(&g);
        // Two empty cells each unsure between empty and their answer
        // digit: three readings besides the one as read.
        let mut e = confident(&g);
        let cells: Vec<usize> = (0..81).filter(|&c| g.cells[c] == 0).take(2).collect();
        for &c in &cells {
            set(&mut e[c], &[(0, 0.5), (solution.cells[c], 0.5)]);
        }
        let alternatives = alternatives(&e, &g);
        let as_read = solve(&g, DEFAULT_LIMIT).ok();
        let all = search(&g, &alternatives, &e, as_read.as_ref(), MAX_TRIES);
        assert!(!all.cut_short);
        assert_eq!(all.found.len(), 4);
        let one = search(&g, &alternatives, &e, as_read.as_ref(), 1);
        assert!(one.cut_short);
        assert_eq!(one.found.len(), 2);
    }

    #[test]
    fn readings_with_the_same_answer_agree() {
        let g = board(PUZZLE);
        let solution = solution_of(&g);
        // r2c1 is empty in the puzzle. Unsure between empty and the
        // solution's digit: both readings are valid and give the same
        // answer, so the answer is sure.
        let cell = 9;
        assert_eq!(g.cells[cell], 0);
        let right = solution.cells[cell];
        let mut e = confident(&g);
        set(&mut e[cell], &[(0, 0.5), (right, 0.5)]);
        let d = decide(Shape::classic(), &e, &[], &[]);
        assert_eq!(d.verdict, Verdict::Solved, "confidence {}", d.confidence);
    }

    #[test]
    fn overrides_win_and_are_never_changed() {
        let g = board(PUZZLE);
        let mut e = confident(&g);
        set(&mut e[0], &[(9, 1.0)]);
        let d = decide(Shape::classic(), &e, &[(0, 4)], &[]);
        assert_eq!(d.givens, g);
        assert!(d.changes.is_empty());
        assert_eq!(d.verdict, Verdict::Solved);
    }

    /// PUZZLE worked in pen: its clues in the print's ink (1), three
    /// entries of its solution read as pen, two more and a wrong 4 in
    /// r1c2 (which r1c1 prints) read surely as print, all in the pen's
    /// ink (`pen_ink` dark, `pen_tint` coloured; the print is black); with
    /// the cells holding the five entries read as print.
    fn worked_in_a_second_ink(pen_ink: f32, pen_tint: f32) -> (Vec<CellEvidence>, Vec<usize>) {
        let puzzle = board(PUZZLE);
        let sol = solution();
        let mut e = confident(&puzzle);
        for (c, &v) in e.iter_mut().zip(&puzzle.cells) {
            if v != 0 {
                c.ink = 1.0;
            }
        }
        let blanks: Vec<usize> = (2..81).filter(|&i| puzzle.cells[i] == 0).take(5).collect();
        for &i in &blanks[..3] {
            let d = sol.cells[i];
            set(&mut e[i], &[(0, 1.0)]);
            e[i].pen[usize::from(d)] = 0.95;
            e[i].entry = Some((d, 0.95));
            e[i].ink = pen_ink;
            e[i].tint = pen_tint;
        }
        let mut as_print = blanks[3..].to_vec();
        for &i in &as_print {
            set(&mut e[i], &[(sol.cells[i], 0.97), (0, 0.03)]);
        }
        read_a_second_four(&mut e);
        as_print.push(1);
        for &i in &as_print {
            e[i].ink = pen_ink;
            e[i].tint = pen_tint;
        }
        (e, as_print)
    }

    /// `e` (see [`worked_in_a_second_ink`]) decided: PUZZLE solved from
    /// its printed clues alone, the glyphs `as_print` (the wrong 4 among
    /// them) entries.
    fn assert_solved_with_pen(e: &[CellEvidence], as_print: &[usize]) {
        let d = decide(Shape::classic(), e, &[], &[]);
        assert_eq!(d.verdict, Verdict::Solved);
        assert_eq!(d.outcome, Outcome::Unique(solution()));
        assert_eq!(d.givens, board(PUZZLE));
        for &i in as_print {
            assert!(d.entries.iter().any(|&(c, _)| c == i), "{i}");
        }
        assert!(d.entries.contains(&(1, 4)));
    }

    #[test]
    fn a_worked_grids_glyphs_in_a_lighter_ink_than_its_print_are_pen() {
        let (e, as_print) = worked_in_a_second_ink(0.75, 0.0);
        assert_eq!(
            decide_reading(Shape::classic(), &e, &[], &[]).verdict,
            fours_clash()
        );
        assert_solved_with_pen(&e, &as_print);
    }

    #[test]
    fn a_worked_grids_glyphs_in_a_coloured_ink_are_pen() {
        // A blue pen as dark as the print: its colour tells it.
        let (e, as_print) = worked_in_a_second_ink(0.98, 0.45);
        assert_solved_with_pen(&e, &as_print);
    }

    #[test]
    fn glyphs_in_the_prints_own_ink_stay_print() {
        // The same grid with its entries as dark as the print: nothing
        // tells them from it, and the clash stands.
        let (e, _) = worked_in_a_second_ink(0.98, 0.0);
        assert_eq!(
            decide(Shape::classic(), &e, &[], &[]).verdict,
            fours_clash()
        );
        // A grid nobody wrote in is not parted by ink: a lighter printed
        // glyph is still a clue.
        let (mut e, _) = worked_in_a_second_ink(0.75, 0.0);
        for c in &mut e {
            if c.best().0 == 0 {
                *c = CellEvidence::certain(0, 9);
            }
        }
        assert_ne!(
            decide(Shape::classic(), &e, &[], &[]).verdict,
            Verdict::Solved
        );
    }

    /// PUZZLE read surely, with pen ink in `cells`: (cell, pen digit
    /// odds); each is read as an entry of its likeliest digit when the pen
    /// mass is enough.
    fn with_pen(cells: &[(usize, &[(u8, f32)])]) -> Decision {
        let mut e = confident(&board(PUZZLE));
        for &(cell, odds) in cells {
            let mut pen = [0.0f32; 10];
            for &(d, p) in odds {
                pen[usize::from(d)] = p;
            }
            let best = (1..10u8)
                .max_by(|&a, &b| pen[usize::from(a)].total_cmp(&pen[usize::from(b)]))
                .unwrap_or(1);
            e[cell].pen = pen;
            e[cell].entry = Some((best, pen.iter().sum()));
        }
        decide(Shape::classic(), &e, &[], &[])
    }

    /// A pen stroke: a segment between two points of the 28-pixel tile.
    type Segment = ((f32, f32), (f32, f32));

    /// A tile of pen strokes, each about two pixels wide.
    fn strokes(segments: &[Segment]) -> Tile {
        let mut t = Tile {
            ink: 0.8,
            ..Tile::default()
        };
        for (k, px) in t.pixels.iter_mut().enumerate() {
            let (x, y) = ((k % TILE) as f32, (k / TILE) as f32);
            let near = segments.iter().any(|&((x0, y0), (x1, y1))| {
                let (dx, dy) = (x1 - x0, y1 - y0);
                let s = (((x - x0) * dx + (y - y0) * dy) / (dx * dx + dy * dy)).clamp(0.0, 1.0);
                (x - x0 - s * dx).hypot(y - y0 - s * dy) <= 1.2
            });
            *px = if near { 1.0 } else { 0.0 };
        }
        t
    }

    /// One writer's 1 (a stroke with a flag) and 7 (a bar and a stroke),
    /// `dx` pixels to the right.
    fn one(dx: f32) -> Tile {
        strokes(&[
            ((10.0 + dx, 9.0), (14.0 + dx, 5.0)),
            ((14.0 + dx, 5.0), (14.0 + dx, 23.0)),
        ])
    }
    fn seven(dx: f32) -> Tile {
        strokes(&[
            ((8.0 + dx, 5.0), (20.0 + dx, 5.0)),
            ((20.0 + dx, 5.0), (12.0 + dx, 23.0)),
        ])
    }

    /// PUZZLE read surely, with pen entries (cell, digit, probability of
    /// it, glyph).
    fn with_hand(cells: &[(usize, u8, f32, Tile)]) -> Decision {
        let mut e = confident(&board(PUZZLE));
        for &(cell, digit, p, glyph) in cells {
            e[cell].pen[usize::from(digit)] = p;
            e[cell].entry = Some((digit, p));
            e[cell].glyph = Some(glyph);
        }
        decide(Shape::classic(), &e, &[], &[])
    }

    #[test]
    fn an_entry_is_called_wrong_only_when_the_reading_is_sure() {
        // The solution has 1 at r1c2, 7 at r1c3, 3 at r1c4, 1 at r2c4 and
        // r3c8, 7 at r2c9: the writer's sure 1s and 7s are there.
        let hand = [
            (12, 1, 0.99, one(0.0)),
            (25, 1, 0.98, one(1.0)),
            (17, 7, 0.99, seven(0.0)),
        ];
        let mut cells = hand.to_vec();
        cells.push((1, 7, 0.97, seven(1.0)));
        let d = with_hand(&cells);
        assert_eq!(d.verdict, Verdict::Solved);
        let judged = d.check_entries();
        assert_eq!(judged.wrong, [(1, 7)], "a 7 read surely where a 1 belongs");
        assert!(judged.doubt.is_empty() && judged.faint.is_empty());
        // A right 1 read as a 7, but with a third of the pen mass on 1:
        // named to check, never called wrong.
        let d = with_pen(&[(1, &[(7, 0.6), (1, 0.35)])]);
        let judged = d.check_entries();
        assert!(judged.wrong.is_empty(), "{judged:?}");
        assert_eq!(judged.doubt, [1]);
        // A faint pen 3 the model half takes for an empty cell: no entry,
        // but named to check and never drawn over.
        let d = with_pen(&[(3, &[(3, 0.2)])]);
        assert!(d.entries.is_empty());
        assert_eq!(d.check_entries().faint, [3]);
        assert_eq!(d.inked(), [3]);
        // Mere noise in an empty cell is not ink.
        let d = with_pen(&[(3, &[(3, FAINT_PEN / 2.0)])]);
        assert!(d.inked().is_empty() && d.check_entries() == EntryCheck::default());
    }

    #[test]
    fn an_entry_read_surely_as_another_digit_is_wrong_only_in_that_digits_hand() {
        let hand = [
            (12, 1, 0.99, one(0.0)),
            (25, 1, 0.98, one(1.0)),
            (17, 7, 0.99, seven(0.0)),
        ];
        // The writer's own 1, read surely as a 7: written as they write
        // 1s, so named to check, never called wrong.
        let mut cells = hand.to_vec();
        cells.push((1, 7, 0.97, one(-1.0)));
        let judged = with_hand(&cells).check_entries();
        assert!(judged.wrong.is_empty(), "{judged:?}");
        assert_eq!(judged.doubt, [1]);
        // No sure 7 of the writer's to compare with: the reading alone
        // does not call it wrong.
        let judged = with_hand(&[hand[0], hand[1], (1, 7, 0.97, seven(1.0))]).check_entries();
        assert!(judged.wrong.is_empty(), "{judged:?}");
        assert_eq!(judged.doubt, [1]);
        // No glyphs at all (a drawing's cells): named to check too.
        let d = with_pen(&[(1, &[(7, 0.97), (1, 0.01)])]);
        assert_eq!(d.check_entries().doubt, [1]);
    }

    #[test]
    fn a_glyph_read_as_a_clue_that_the_decision_takes_out_is_not_drawn_over() {
        let g = board(PUZZLE);
        let mut e = confident(&g);
        // r1c2 read as a printed 4 (a pen 1 the model took for print)
        // with some doubt: two 4s in row 1, so the decision reads it as
        // no clue. Dark as print, it holds ink.
        e[1].clue = vec![0.02 / 9.0; 10];
        e[1].clue[4] = 0.8;
        e[1].clue[0] = 0.18;
        e[1].ink = 1.0;
        let d = decide(Shape::classic(), &e, &[], &[]);
        assert_eq!(d.givens.cells[1], 0, "{:?}", d.changes);
        assert_eq!(d.inked(), [1]);
        // Faint as show-through, it is a blank cell and gets its answer.
        e[1].ink = 0.2;
        let d = decide(Shape::classic(), &e, &[], &[]);
        assert_eq!(d.givens.cells[1], 0);
        assert!(d.inked().is_empty());
    }

    #[test]
    fn pen_entries_are_never_clues() {
        let g = board(PUZZLE);
        let mut e = confident(&g);
        // r1c2 holds a pen 7: no printed clue there.
        e[1].entry = Some((7, 0.95));
        let d = decide(Shape::classic(), &e, &[], &[]);
        assert_eq!(d.givens.cells[1], 0);
        assert_eq!(d.entries, vec![(1, 7)]);
        assert_eq!(d.verdict, Verdict::Solved);
    }

    #[test]
    fn pen_and_pencil_classes_are_no_clue_and_a_pen_digit_is_an_entry() {
        let mut classes = [0.0f32; CLASSES];
        classes[HAND_BASE + 7] = 0.6; // a pen 7
        classes[PENCIL] = 0.1;
        classes[7] = 0.3; // printed 7
        let e = evidence(&classes, 9);
        assert!((e.clue[0] - 0.7).abs() < 1e-6, "{e:?}");
        assert!((e.clue[7] - 0.3).abs() < 1e-6);
        assert_eq!(e.entry, Some((7, 0.6)));
        // Printed letters are clues of a 16x16 puzzle only.
        let mut letter = [0.0f32; CLASSES];
        letter[12] = 1.0; // printed C
        assert_eq!(evidence(&letter, 16).best(), (12, 1.0));
        assert_eq!(evidence(&letter, 9).best(), (0, 1.0));
        // Stray ink is no clue either.
        let mut stray = [0.0f32; CLASSES];
        stray[OTHER] = 0.7;
        stray[3] = 0.3;
        assert_eq!(evidence(&stray, 9).best().0, 0);
    }
}
