//! Grading a 9x9 puzzle by the techniques the logic engine needs.
//!
//! The grade follows the logic engine's path ([`crate::logic::explain`],
//! simplest technique first, unique rectangles allowed since the puzzle is
//! checked to have one solution). Like Sudoku Explainer's rating, a puzzle
//! is as hard as its hardest step: someone who knows every technique up to
//! that one can solve it, and no one who does not. So:
//!
//! - `level` is the [`Level`] of the hardest technique used (or
//!   [`Level::Extreme`] when logic cannot finish, and search must guess);
//! - `rating = difficulty(hardest) + 0.01 * min(n - 1, 19)`, where
//!   `difficulty` is the technique's number below (close to Sudoku
//!   Explainer's scale, strictly rising in the engine's step order) and `n`
//!   is how many steps used a technique of the hardest step's level. The
//!   second term separates puzzles needing that level once from those
//!   needing it again and again; it stays under 0.2, the smallest gap
//!   between two techniques' difficulties, so a harder technique always
//!   outranks any number of easier steps. A puzzle logic cannot finish
//!   rates [`UNFINISHED`] plus the same term over its chain steps.

use crate::board::Board;
use crate::logic::{explain, End, Explanation, LogicError, Options, Technique};
use crate::solve::{solve, Clash, Outcome};

/// Rating of a puzzle that logic cannot finish: above every technique.
pub const UNFINISHED: f32 = 10.0;

/// Rating added per repeated step of the hardest level.
const REPEAT_WEIGHT: f32 = 0.01;

/// Repeats that count, so the bonus stays below 0.2 (see the module docs).
const REPEAT_CAP: usize = 19;

/// A named difficulty scale, easiest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// Singles only.
    Easy,
    /// Locked candidates, naked and hidden pairs and triples.
    Medium,
    /// Fish, wings, quads, simple colouring, unique rectangles.
    Hard,
    /// Forcing and contradiction chains driven by singles.
    Expert,
    /// Dynamic chains, or beyond the engine (search has to guess).
    Extreme,
}

impl Level {
    /// Every level, easiest first.
    pub const ALL: [Level; 5] = [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Expert,
        Level::Extreme,
    ];

    /// Lowercase name: `easy`, `medium`, `hard`, `expert`, `extreme`.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Expert => "expert",
            Level::Extreme => "extreme",
        }
    }

    /// The level of a technique.
    pub fn of(technique: Technique) -> Level {
        use Technique::*;
        match technique {
            FullHouse | HiddenSingle | NakedSingle => Level::Easy,
            LockedPointing | LockedClaiming | NakedPair | HiddenPair | NakedTriple
            | HiddenTriple => Level::Medium,
            XWing | Swordfish | Jellyfish | XyWing | XyzWing | WWing | NakedQuad | HiddenQuad
            | SimpleColouring | UniqueRectangle => Level::Hard,
            ContradictionChain | CellForcingChain | UnitForcingChain => Level::Expert,
            DynamicContradictionChain | DynamicForcingChain => Level::Extreme,
        }
    }
}

impl std::fmt::Display for Level {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The difficulty of one technique, on a scale close to Sudoku Explainer's
/// (1.0 full house .. 9.0 dynamic forcing chains), strictly rising in the
/// order the engine tries techniques. Unlike Sudoku Explainer, every
/// technique of a level rates below every technique of the next one (fish
/// come after hidden triples), so the level and the rating never disagree.
pub fn difficulty(technique: Technique) -> f32 {
    use Technique::*;
    match technique {
        FullHouse => 1.0,
        HiddenSingle => 1.5,
        NakedSingle => 2.3,
        LockedPointing => 2.6,
        LockedClaiming => 2.8,
        NakedPair => 3.0,
        HiddenPair => 3.2,
        NakedTriple => 3.4,
        HiddenTriple => 3.6,
        XWing => 3.8,
        Swordfish => 4.0,
        XyWing => 4.2,
        XyzWing => 4.4,
        WWing => 4.6,
        NakedQuad => 5.0,
        Jellyfish => 5.2,
        HiddenQuad => 5.4,
        SimpleColouring => 5.6,
        UniqueRectangle => 5.8,
        ContradictionChain => 7.0,
        CellForcingChain => 7.5,
        UnitForcingChain => 7.8,
        DynamicContradictionChain => 8.5,
        DynamicForcingChain => 9.0,
    }
}

/// How hard a puzzle is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Grade {
    /// The named level.
    pub level: Level,
    /// The numeric rating (see the module docs for the formula).
    pub rating: f32,
    /// The hardest technique the logic path used.
    pub hardest: Technique,
    /// Steps in the logic path (up to where logic got stuck).
    pub steps: usize,
    /// True when logic alone solved the puzzle.
    pub complete: bool,
}

/// Why a board cannot be graded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GradeError {
    /// Not a 9x9 board, or the givens clash.
    #[error(transparent)]
    Logic(#[from] LogicError),
    /// No solution at all.
    #[error("the puzzle has no solution")]
    NoSolution,
    /// More than one solution: a grade would depend on which one is meant.
    #[error("the puzzle has more than one solution")]
    Multiple,
}

impl From<Clash> for GradeError {
    fn from(clash: Clash) -> GradeError {
        GradeError::Logic(LogicError::Clash(clash))
    }
}

/// Grades a 9x9 puzzle that has exactly one solution (checked here with
/// [`solve`]).
pub fn grade(board: &Board) -> Result<Grade, GradeError> {
    // Check the shape first, for the clearer error.
    crate::logic::Candidates::from_board(board)?;
    match solve(board, 2)? {
        Outcome::NoSolution => return Err(GradeError::NoSolution),
        Outcome::Multiple { .. } => return Err(GradeError::Multiple),
        Outcome::Unique(_) => {}
    }
    let explanation = explain(board, &Options { unique: true })?;
    Ok(grade_explanation(&explanation))
}

/// The grade of a logic path already computed (by [`explain`] with the
/// options the caller trusts).
pub fn grade_explanation(explanation: &Explanation) -> Grade {
    let steps = &explanation.steps;
    let hardest = steps
        .iter()
        .map(|s| s.technique)
        .max()
        .unwrap_or(Technique::FullHouse);
    let complete = matches!(explanation.end, End::Solved(_));
    let (level, base) = if complete {
        (Level::of(hardest), difficulty(hardest))
    } else {
        (Level::Extreme, UNFINISHED)
    };
    let floor = if complete { level } else { Level::Expert };
    let repeats = steps
        .iter()
        .filter(|s| Level::of(s.technique) >= floor)
        .count()
        .saturating_sub(1)
        .min(REPEAT_CAP);
    Grade {
        level,
        rating: base + REPEAT_WEIGHT * repeats as f32,
        hardest,
        steps: steps.len(),
        complete,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::Step;
    use crate::{Shape, DEFAULT_LIMIT};

    /// A step of `technique` with nothing in it: the grade reads only the technique.
    fn step(technique: Technique) -> Step {
        Step {
            technique,
            placements: Vec::new(),
            eliminations: Vec::new(),
            cells: Vec::new(),
            units: Vec::new(),
            digits: Vec::new(),
        }
    }

    #[test]
    fn a_few_holes_in_a_solution_are_easy() {
        let puzzle = Board::parse(
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
            Shape::classic(),
        )
        .unwrap();
        let solution = solve(&puzzle, DEFAULT_LIMIT).unwrap();
        let mut board = solution.first().unwrap().clone();
        for cell in (0..81).step_by(7) {
            board.cells[cell] = 0;
        }
        let g = grade(&board).unwrap();
        assert_eq!(g.level, Level::Easy);
        assert!(g.complete);
        assert_eq!(g.steps, 12);
        assert!(g.rating < difficulty(Technique::LockedPointing));
    }

    #[test]
    fn only_puzzles_with_one_solution_are_graded() {
        assert_eq!(
            grade(&Board::empty(Shape::classic())),
            Err(GradeError::Multiple)
        );
        // r1c9 must be 9, which r2c9 already holds: no clash, no solution.
        let text = format!("12345678.........9{}", ".".repeat(63));
        let unsolvable = Board::parse(&text, Shape::classic()).unwrap();
        assert_eq!(grade(&unsolvable), Err(GradeError::NoSolution));
        let small = Board::empty(Shape::square(4).unwrap());
        assert!(matches!(
            grade(&small),
            Err(GradeError::Logic(LogicError::NotClassic(_)))
        ));
    }

    #[test]
    fn rating_is_the_hardest_technique_plus_its_repeats() {
        let solved = |techniques: &[Technique]| {
            grade_explanation(&Explanation {
                steps: techniques.iter().map(|&t| step(t)).collect(),
                end: End::Solved(Board::empty(Shape::classic())),
            })
        };
        use Technique::*;
        let g = solved(&[HiddenSingle, XWing, NakedPair, XWing, NakedSingle]);
        assert_eq!((g.level, g.hardest, g.steps), (Level::Hard, XWing, 5));
        // Two steps of the hard level: one repeat.
        assert!((g.rating - 3.81).abs() < 1e-4, "{}", g.rating);
        // Many repeats never reach the next technique's difficulty.
        let many = solved(&[XWing; 40]);
        assert!(many.rating < difficulty(Swordfish));
        assert!(many.rating > g.rating);
        let stuck = grade_explanation(&Explanation {
            steps: vec![step(ContradictionChain), step(NakedSingle)],
            end: End::Stuck(crate::logic::Candidates::empty()),
        });
        assert_eq!((stuck.level, stuck.complete), (Level::Extreme, false));
        assert_eq!(stuck.rating, UNFINISHED);
    }

    #[test]
    fn levels_rise_with_difficulty() {
        let mut previous = (Level::Easy, 0.0);
        for t in Technique::ALL {
            let now = (Level::of(t), difficulty(t));
            assert!(now.0 >= previous.0 && now.1 > previous.1, "{t:?}");
            previous = now;
        }
        assert_eq!(
            Level::ALL.map(Level::name),
            ["easy", "medium", "hard", "expert", "extreme"]
        );
    }
}
