//! What a grid found on a page is: a puzzle to solve, a printed answer grid
//! to check, a table that is no puzzle (a notes table, a ruled working
//! table), a grid cut by the edge of the image, or one grid of a Samurai
//! found without the others.
//!
//! The one place that decides it: the decision stage asks
//! [`mostly_printed`] how to weigh a grid read nearly full, and the caller
//! asks [`grid_kind`] what to report; neither decides it elsewhere. A new
//! kind of grid on a page is added here.

use snap_solver::Board;

use crate::data::{CellEvidence, Decision, GridReading, Verdict, MAX_CHANGES};
use crate::decide::SURE;

/// A grid with fewer printed clues than the cells over this is not a
/// puzzle (an empty notes table beside a puzzle, a grid of a person's own
/// entries): no published 9x9 has fewer than 17 clues (81 / 17 < 5), and
/// 1 in 8 leaves room for clues the reader missed.
const MIN_CLUE_FRACTION: usize = 8;

/// Share of a grid's cells read as printed clues from which it is taken for
/// a printed answer grid with some digits misread, not a puzzle: no book
/// prints a puzzle with three quarters of its cells given (61 of 81; easy
/// ones give about 36, and 17 is the least a 9x9 needs). Its right status
/// is `complete`, which needs every cell read as printed, so a cell read
/// as empty there stays a doubt.
const ANSWER_GRID_CLUES: f32 = 0.75;

/// What a grid on a page is, and so what is reported of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GridKind {
    /// A puzzle: solved, or said why not.
    Puzzle,
    /// A printed answer grid: every cell of the decided puzzle holds a
    /// printed digit, so it is checked (valid or not), not solved.
    AnswerGrid,
    /// Too few printed clues to be a puzzle (fewer than one cell in
    /// eight): an empty notes table beside a puzzle, or a grid holding only
    /// a person's own entries. Not reported.
    NotesTable,
    /// A unit holds one digit more often than misreads could explain: a
    /// table whose rules run through the cells of a lattice found as a
    /// grid, read as columns of 1s. Not reported.
    RuledTable,
    /// Cut by the edge of the image (or a fold or a finger): reported with
    /// its outline, never solved or drawn on.
    Cut,
    /// Whole as found, but found at the image frame (the grid or the
    /// outline it was found in touches it), and read as a puzzle with no
    /// solution or several: a crop through the border can leave the
    /// lattice placed a line off or squeezed over fewer cells, which reads
    /// digits in the wrong cells and makes clues clash, so the verdict may
    /// be the crop's, not the puzzle's. Reported like a cut grid, saying
    /// so.
    MaybeCut,
    /// One 9x9 grid of a Samurai whose five grids were not all found (see
    /// `Found::samurai_part`), read with several solutions: a Samurai's
    /// grid alone often has several, which its other grids settle, so
    /// "several solutions" would be a wrong verdict on the puzzle.
    /// Reported like a cut grid, saying so.
    SamuraiPart,
}

impl GridKind {
    /// Whether a grid of this kind is reported at all: tables that are no
    /// puzzle are left out.
    pub fn is_reported(self) -> bool {
        !matches!(self, GridKind::NotesTable | GridKind::RuledTable)
    }

    /// Whether a grid of this kind, decided as `decision`, is a printed
    /// answer grid, whole or read nearly full (`mostly_printed`): a grid
    /// of the second sort left unsure is an answer grid with some digits
    /// read in doubt, not a puzzle left unsolved.
    pub fn holds_answers(self, decision: &Decision) -> bool {
        self == GridKind::AnswerGrid
            || (self == GridKind::Puzzle && mostly_printed(&decision.givens))
    }
}

/// What `grid` is, given the `decision` made on it ([`decide_grid`]): cut
/// by the edge first, whatever it holds; else a table when the reading
/// has too few clues or a repeated digit no misread explains; else cut
/// when it is ruled through its cells at the frame; else maybe
/// cut when it was found at the frame and has no single solution; else a
/// Samurai's part when it is one and has several; else an answer grid
/// when every cell of the decided puzzle is given; else a puzzle.
///
/// [`decide_grid`]: crate::decide_grid
pub fn grid_kind(grid: &GridReading, decision: &Decision) -> GridKind {
    if grid.cut() {
        return GridKind::Cut;
    }
    if let Some(table) = table_kind(&decision.read) {
        return table;
    }
    // Ruled through its cells at the frame and no table: a grid the frame
    // cut (see `Found::ruled`).
    if grid.ruled() {
        return GridKind::Cut;
    }
    if grid.at_frame()
        && matches!(
            decision.verdict,
            Verdict::NoSolution(_) | Verdict::Multiple(_)
        )
    {
        return GridKind::MaybeCut;
    }
    if grid.samurai_part() && matches!(decision.verdict, Verdict::Multiple(_)) {
        return GridKind::SamuraiPart;
    }
    let givens = &decision.givens;
    let full = (0..givens.cells.len())
        .filter(|&i| givens.shape.contains(i))
        .all(|i| givens.cells[i] != 0);
    if full {
        GridKind::AnswerGrid
    } else {
        GridKind::Puzzle
    }
}

/// What `grid` is as read, before any decision or correction: cut by the
/// edge, a table, or else a puzzle (a printed answer grid included). A
/// page's grids are numbered on this, so that a correction never
/// renumbers the grids it names.
pub fn kind_as_read(grid: &GridReading) -> GridKind {
    if grid.cut() {
        return GridKind::Cut;
    }
    table_kind(&grid.as_read()).unwrap_or(GridKind::Puzzle)
}

/// The kind of table a reading is when it is no puzzle (or answer grid):
/// too few printed clues, or some unit holding one digit more than once
/// and [`MAX_CHANGES`] times. `None` for a puzzle.
fn table_kind(read: &Board) -> Option<GridKind> {
    let cells = (0..read.cells.len())
        .filter(|&i| read.shape.contains(i))
        .count();
    if read.givens() * MIN_CLUE_FRACTION < cells {
        Some(GridKind::NotesTable)
    } else if ruled(read) {
        Some(GridKind::RuledTable)
    } else {
        None
    }
}

/// Whether some unit of the reading holds one digit more than once and
/// [`MAX_CHANGES`] times: a printed unit holds each digit once, and each
/// misread cell adds at most one copy. A table whose rules run through the
/// cells of a lattice found as a grid reads as 1s down the rules: a
/// "Working" table of 4 columns beside a puzzle, taken for a 9x9 on a
/// photographed page, read as 22 clues, all 1s, down three columns (9, 7
/// and 6 to a column).
fn ruled(read: &Board) -> bool {
    read.shape.units().iter().any(|unit| {
        let mut count = vec![0usize; read.shape.digits() + 1];
        for &cell in unit {
            if let Some(c) = read
                .cells
                .get(cell)
                .and_then(|&v| count.get_mut(usize::from(v)))
            {
                *c += 1;
            }
        }
        count.iter().skip(1).any(|&c| c > 1 + MAX_CHANGES)
    })
}

/// Whether `givens` has so many clues ([`ANSWER_GRID_CLUES`]) that it is
/// taken for a printed answer grid with some cells misread, not a puzzle:
/// the decision then keeps a cell read as empty in doubt, and never calls
/// such a grid solved.
pub(crate) fn mostly_printed(givens: &Board) -> bool {
    let shape = givens.shape;
    let inside = (0..givens.cells.len()).filter(|&c| shape.contains(c));
    let (cells, clues) = inside.fold((0, 0), |(n, k), c| {
        (n + 1, k + usize::from(givens.cells[c] != 0))
    });
    clues as f32 >= ANSWER_GRID_CLUES * cells as f32
}

/// Whether `board` may be a printed answer grid (see [`mostly_printed`]) once
/// its unsure cells are known: its clues and its cells read as empty
/// without certainty (each may be a digit missed) reach
/// [`ANSWER_GRID_CLUES`] of its cells.
pub(crate) fn may_be_mostly_printed(board: &Board, evidence: &[CellEvidence]) -> bool {
    let shape = board.shape;
    let inside = (0..board.cells.len()).filter(|&c| shape.contains(c));
    let (cells, may_be_clues) = inside.fold((0, 0), |(n, k), c| {
        let clue = board.cells[c] != 0 || evidence[c].p(0) < SURE;
        (n + 1, k + usize::from(clue))
    });
    may_be_clues as f32 >= ANSWER_GRID_CLUES * cells as f32
}

#[cfg(test)]
mod tests {
    use super::*;
    use snap_solver::Shape;

    fn board(line: &str) -> Board {
        Board::parse(line, Shape::square(9).expect("9x9")).expect("a 9x9 line")
    }

    fn is_puzzle(read: &Board) -> bool {
        table_kind(read).is_none()
    }

    /// A 9x9 read with certainty from `line`, found as a Samurai's part or not.
    fn certain_reading(line: &str, samurai_part: bool) -> GridReading {
        let quad =
            crate::geometry::Quad::new([(0.0, 0.0), (270.0, 0.0), (270.0, 270.0), (0.0, 270.0)]);
        let mut grid = GridReading::certain(quad, &board(line).cells).expect("a square");
        grid.layout.parts[0].found.samurai_part = samurai_part;
        grid
    }

    #[test]
    fn a_samurai_grid_found_alone_with_several_solutions_is_its_part() {
        // A Samurai's corner grid: 24 clues, several solutions alone.
        let corner =
            "..14.....8...9.2.......7..118..6....7.4..9....963.1.....5....2..6.54.....4....8.5";
        let unique =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let kind = |line: &str, part: bool| {
            let grid = certain_reading(line, part);
            grid_kind(&grid, &crate::decide_grid(&grid, &[]))
        };
        assert_eq!(kind(corner, true), GridKind::SamuraiPart);
        // Found alone on a page it is a puzzle with several solutions, and a
        // Samurai's part with one answer is solved as a 9x9 (the Samurai's
        // answer holds it).
        assert_eq!(kind(corner, false), GridKind::Puzzle);
        assert_eq!(kind(unique, true), GridKind::Puzzle);
    }

    #[test]
    fn a_table_read_as_columns_of_ones_is_no_puzzle() {
        // A puzzle of 17 clues is one; with a cell misread as a digit its
        // row holds it still is (the decision names the clash).
        let puzzle =
            "...8.1..........435............7.8........1...2..3....6......75..34........2..6..";
        assert!(is_puzzle(&board(puzzle)));
        let mut misread = puzzle.as_bytes().to_vec();
        misread[4] = b'1'; // r1c5 beside r1c6's 1
        assert!(is_puzzle(&board(
            std::str::from_utf8(&misread).unwrap_or("")
        )));
        // A ruled table: 1s down three columns, seven to a column.
        let ruled_rows = ".1..1..1.";
        let table: String = (0..9)
            .map(|r| {
                if (1..8).contains(&r) {
                    ruled_rows
                } else {
                    "........."
                }
            })
            .collect();
        assert_eq!(table_kind(&board(&table)), Some(GridKind::RuledTable));
        // Four copies of a digit in a unit are as many as three misreads
        // make: still read as a puzzle (the decision says it is unsure).
        let mut four = puzzle.as_bytes().to_vec();
        for c in [9 + 3, 18 + 3, 27 + 3] {
            four[c] = b'8'; // column 4 holds r1c4's 8 and three more
        }
        assert!(is_puzzle(&board(std::str::from_utf8(&four).unwrap_or(""))));
        four[36 + 3] = b'8';
        assert!(!is_puzzle(&board(std::str::from_utf8(&four).unwrap_or(""))));
    }

    #[test]
    fn a_grid_of_few_clues_is_a_notes_table() {
        // Ten clues of 81: fewer than one in eight.
        let notes: String = (0..81)
            .map(|i| if i % 8 == 0 && i < 80 { '1' } else { '.' })
            .collect();
        assert_eq!(notes.matches('1').count(), 10);
        assert_eq!(table_kind(&board(&notes)), Some(GridKind::NotesTable));
        assert!(!GridKind::NotesTable.is_reported());
        assert!(GridKind::Cut.is_reported());
    }

    #[test]
    fn three_quarters_printed_is_taken_for_an_answer_grid() {
        let solved =
            "534678912672195348198342567859761423426853791713924856961537284287419635345286179";
        let mut cells = solved.as_bytes().to_vec();
        // 61 of 81 printed: three quarters and a little more.
        for c in cells.iter_mut().take(20) {
            *c = b'.';
        }
        assert!(mostly_printed(&board(
            std::str::from_utf8(&cells).unwrap_or("")
        )));
        cells[20] = b'.';
        assert!(!mostly_printed(&board(
            std::str::from_utf8(&cells).unwrap_or("")
        )));
    }
}
