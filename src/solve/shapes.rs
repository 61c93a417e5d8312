//! Puzzle shapes beyond the classic 9x9, as exact-cover problems.
//!
//! A [`Shape`] is a square NxN Sudoku (boxes of `box_rows` x `box_cols`,
//! including 4x4, 6x6 with 2x3 boxes, 16x16, 25x25) or a Samurai: five
//! overlapping 9x9 grids in a 21x21 layout. Every shape is a list of
//! *units* (rows, columns and boxes of each grid), each of which must hold
//! every digit exactly once. A [`Board`] is the cells of a shape's layout.
//!
//! [`solve_board_dlx`] turns a board into an exact-cover matrix for
//! [`ExactCover`]: one row per (cell, candidate digit), one column per cell
//! ("the cell holds a digit") and one per (unit, digit) ("the unit holds the
//! digit"). For 16x16 and larger it switches on the engine's per-node
//! reduction, which amounts to naked and hidden singles plus locked
//! candidates. [`solve_board`] uses it for 9x9, smaller squares and Samurai,
//! and sends squares of 16x16 and up to the candidate-bitset solver in
//! `candidates`, which applies the same reasoning far more cheaply per
//! node (5x faster on the 16x16 set, and the only hope for 25x25).
//!
//! Text alphabet: digits 1-9 are `1`-`9`, 10 and up are `A`, `B`, ... (16x16
//! uses `A`-`G`, 25x25 `A`-`P`; lowercase is accepted too). An empty cell is
//! `.`, `_` or `0` for every size (`0` is never a digit here). In a Samurai,
//! the positions outside the five grids are `#` or a space.

mod candidates;

use super::dlx::ExactCover;
use super::Outcome;
use crate::grid::{Grid, ParseError, CELLS};

/// Top-left corners (row, column) of the five 9x9 grids of a Samurai, in
/// its 21x21 layout: four corners, then the centre one.
pub const SAMURAI_GRIDS: [(usize, usize); 5] = [(0, 0), (0, 12), (6, 6), (12, 0), (12, 12)];

/// Side of the Samurai layout.
const SAMURAI_SIDE: usize = 21;

/// Largest number of digits the text alphabet can write (1-9 and A-Z).
pub const MAX_DIGITS: usize = 35;

/// The layout and rules of a puzzle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Shape {
    /// A `size` x `size` grid of `box_rows` x `box_cols` boxes
    /// (`box_rows * box_cols == size`), digits 1..=size.
    Square {
        /// Cells per row, column and box; also the number of digits.
        size: usize,
        /// Rows of cells in one box.
        box_rows: usize,
        /// Columns of cells in one box.
        box_cols: usize,
    },
    /// Five overlapping 9x9 grids (see [`SAMURAI_GRIDS`]) in a 21x21 layout.
    Samurai,
}

impl Shape {
    /// The classic 9x9 Sudoku.
    pub fn classic() -> Shape {
        Shape::Square {
            size: 9,
            box_rows: 3,
            box_cols: 3,
        }
    }

    /// The `n` x `n` Sudoku: square boxes when `n` is a square (4, 9, 16,
    /// 25), otherwise the most square boxes `a` x `b` with `a * b == n`, `a <= b`
    /// rows by columns (6 = 2x3, 8 = 2x4, 12 = 3x4, ...). `None` when no box
    /// has at least two rows (`n` prime or below 4) or `n` exceeds [`MAX_DIGITS`].
    pub fn square(n: usize) -> Option<Shape> {
        if !(4..=MAX_DIGITS).contains(&n) {
            return None;
        }
        let box_rows = (2..=n)
            .take_while(|a| a * a <= n)
            .filter(|&a| n.is_multiple_of(a))
            .last()?;
        Some(Shape::Square {
            size: n,
            box_rows,
            box_cols: n / box_rows,
        })
    }

    /// The shape with this many cells in its layout: 441 is a Samurai,
    /// `n * n` the `n` x `n` square (81 classic, 256 16x16, 625 25x25, 16 4x4, ...).
    pub fn detect(cell_count: usize) -> Option<Shape> {
        if cell_count == SAMURAI_SIDE * SAMURAI_SIDE {
            return Some(Shape::Samurai);
        }
        let n = (1..=MAX_DIGITS).find(|n| n * n == cell_count)?;
        Shape::square(n)
    }

    /// A short name: "9x9", "16x16", "6x6", "samurai".
    pub fn name(&self) -> String {
        match self {
            Shape::Square { size, .. } => format!("{size}x{size}"),
            Shape::Samurai => "samurai".to_string(),
        }
    }

    /// Number of digits (and cells per unit).
    pub fn digits(&self) -> usize {
        match self {
            Shape::Square { size, .. } => *size,
            Shape::Samurai => 9,
        }
    }

    /// Side of the square layout the cells are laid out in (21 for a Samurai).
    pub fn side(&self) -> usize {
        match self {
            Shape::Square { size, .. } => *size,
            Shape::Samurai => SAMURAI_SIDE,
        }
    }

    /// Number of positions in the layout, `side * side` (including a
    /// Samurai's positions outside its grids).
    pub fn cell_count(&self) -> usize {
        self.side() * self.side()
    }

    /// True when layout position `index` is a cell of the puzzle (always,
    /// for a square; inside one of the five grids, for a Samurai).
    pub fn contains(&self, index: usize) -> bool {
        let side = self.side();
        if index >= side * side {
            return false;
        }
        match self {
            Shape::Square { .. } => true,
            Shape::Samurai => {
                let (r, c) = (index / side, index % side);
                SAMURAI_GRIDS
                    .iter()
                    .any(|&(r0, c0)| (r0..r0 + 9).contains(&r) && (c0..c0 + 9).contains(&c))
            }
        }
    }

    /// `r3c4` (1-based row and column of the layout) for a cell index.
    pub fn cell_name(&self, index: usize) -> String {
        format!("r{}c{}", index / self.side() + 1, index % self.side() + 1)
    }

    /// Every unit (row, column or box of a grid) as its sorted cell indices;
    /// each holds [`Shape::digits`] cells. A Samurai's shared boxes appear once.
    pub fn units(&self) -> Vec<Vec<usize>> {
        let side = self.side();
        let square_units = |r0: usize, c0: usize, n: usize, br: usize, bc: usize| {
            let mut units = Vec::with_capacity(3 * n);
            for i in 0..n {
                units.push((0..n).map(|j| (r0 + i) * side + c0 + j).collect::<Vec<_>>());
                units.push((0..n).map(|j| (r0 + j) * side + c0 + i).collect());
                let (top, left) = (r0 + (i / (n / bc)) * br, c0 + (i % (n / bc)) * bc);
                units.push(
                    (0..n)
                        .map(|j| (top + j / bc) * side + left + j % bc)
                        .collect(),
                );
            }
            units
        };
        let mut units = match *self {
            Shape::Square {
                size,
                box_rows,
                box_cols,
            } => square_units(0, 0, size, box_rows, box_cols),
            Shape::Samurai => SAMURAI_GRIDS
                .iter()
                .flat_map(|&(r0, c0)| square_units(r0, c0, 9, 3, 3))
                .collect(),
        };
        for unit in &mut units {
            unit.sort_unstable();
        }
        units.sort();
        units.dedup();
        units
    }

    /// What the alphabet of this shape is, for messages: "1-9", "1-9, A-G".
    fn alphabet(&self) -> String {
        let n = self.digits();
        match n {
            0..=9 => format!("1-{n}"),
            10 => "1-9, A".to_string(),
            _ => format!("1-9, A-{}", digit_char(n as u8)),
        }
    }
}

/// The character for digit `value` (1-9, then `A` for 10, ...); `.` for 0.
pub fn digit_char(value: u8) -> char {
    match value {
        0 => '.',
        1..=9 => (b'0' + value) as char,
        _ => (b'A' + value - 10) as char,
    }
}

/// The value of a cell character for a puzzle with `digits` digits:
/// `Some(0)` for an empty cell (`.`, `0`, `_`), `Some(d)` for a digit in
/// range, `None` for anything else.
pub fn symbol_value(c: char, digits: usize) -> Option<u8> {
    let value = match c {
        '.' | '0' | '_' => 0,
        '1'..='9' => c as usize - '0' as usize,
        'A'..='Z' => c as usize - 'A' as usize + 10,
        'a'..='z' => c as usize - 'a' as usize + 10,
        _ => return None,
    };
    (value <= digits).then_some(value as u8)
}

/// A board of any shape: the cells of the shape's layout in row-major order
/// (`side * side` of them; 21 x 21 for a Samurai). 0 is an empty cell, 1..=digits
/// a digit. Positions outside a Samurai's five grids hold 0 and are told
/// apart by [`Shape::contains`]; the board itself carries no mask.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    /// The layout and rules.
    pub shape: Shape,
    /// One value per layout position, row-major.
    pub cells: Vec<u8>,
}

/// An error at 1-based `line` and `column` (0 when it is not about one place).
fn error(line: usize, column: usize, reason: String) -> ParseError {
    ParseError {
        line,
        column,
        reason,
    }
}

impl Board {
    /// An empty board of this shape.
    pub fn empty(shape: Shape) -> Board {
        Board {
            shape,
            cells: vec![0; shape.cell_count()],
        }
    }

    /// Parses one puzzle: either one line holding all `side * side` positions
    /// (a Samurai's outside positions as `#` or spaces), or `side` lines of
    /// `side` positions each. Blank lines around the puzzle are ignored. In
    /// the row form of a square, spaces, tabs and `|` between cells are
    /// ignored and separator lines made of `-`, `+`, `|`, `=` and spaces are
    /// skipped, so [`Board::to_pretty`] output parses back. In the row form of
    /// a Samurai, every character counts, outside positions may be `#`, a space
    /// or an empty-cell mark, and trailing outside positions may be left off.
    ///
    /// Errors give the 1-based line within `text` and column within that line
    /// (0 when the fault is not at one character) and the reason.
    pub fn parse(text: &str, shape: Shape) -> Result<Board, ParseError> {
        let lines: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .map(|(i, line)| (i + 1, line.trim_end_matches('\r')))
            .filter(|(_, line)| !line.trim().is_empty())
            .collect();
        match lines.as_slice() {
            [] => Err(error(
                0,
                0,
                format!(
                    "no puzzle: the text is empty (expected a {} puzzle)",
                    shape.name()
                ),
            )),
            [(number, line)] if shape.side() > 1 => Self::parse_line(*number, line, shape),
            _ => Self::parse_rows(&lines, shape),
        }
    }

    /// The one-line form, found on line `number` of the text.
    fn parse_line(number: usize, line: &str, shape: Shape) -> Result<Board, ParseError> {
        let expected = shape.cell_count();
        let skipped = line.chars().take_while(|c| c.is_whitespace()).count();
        let body = line.trim();
        let count = body.chars().count();
        let mut board = Board::empty(shape);
        for (i, c) in body.chars().enumerate() {
            let column = skipped + i + 1;
            if i == expected {
                return Err(error(
                    number,
                    column,
                    format!(
                        "too long: {count} positions, a {} puzzle has {expected}",
                        shape.name()
                    ),
                ));
            }
            board.cells[i] = board
                .read_position(i, c)
                .map_err(|reason| error(number, column, reason))?;
        }
        if count < expected {
            return Err(error(
                number,
                0,
                format!(
                    "too short: {count} positions, a {} puzzle has {expected}",
                    shape.name()
                ),
            ));
        }
        Ok(board)
    }

    /// The row form: `lines` are the non-blank lines with their numbers.
    fn parse_rows(lines: &[(usize, &str)], shape: Shape) -> Result<Board, ParseError> {
        let side = shape.side();
        let is_separator = |line: &str| {
            line.chars()
                .all(|c| matches!(c, '-' | '+' | '|' | '=' | ' ' | '\t'))
        };
        let rows: Vec<(usize, &str)> = match shape {
            Shape::Square { .. } => lines
                .iter()
                .copied()
                .filter(|(_, line)| !is_separator(line))
                .collect(),
            Shape::Samurai => lines.to_vec(),
        };
        if rows.len() != side {
            let (line, reason) = match rows.get(side) {
                Some(&(extra, _)) => (
                    extra,
                    format!("too many rows: a {} puzzle has {side}", shape.name()),
                ),
                None => (
                    0,
                    format!("{} rows, a {} puzzle has {side}", rows.len(), shape.name()),
                ),
            };
            return Err(error(line, 0, reason));
        }
        let mut board = Board::empty(shape);
        for (r, &(number, line)) in rows.iter().enumerate() {
            let mut c = 0;
            for (i, ch) in line.chars().enumerate() {
                let square = matches!(shape, Shape::Square { .. });
                if square && matches!(ch, ' ' | '\t' | '|') {
                    continue;
                }
                if c == side {
                    if !square && line.chars().skip(i).all(char::is_whitespace) {
                        break;
                    }
                    return Err(error(
                        number,
                        i + 1,
                        format!("row {} is too long: a row has {side} positions", r + 1),
                    ));
                }
                let index = r * side + c;
                board.cells[index] = board
                    .read_position(index, ch)
                    .map_err(|reason| error(number, i + 1, reason))?;
                c += 1;
            }
            // A Samurai row may stop early if the rest is outside the grids.
            if let Some(missing) = (c..side).find(|&k| shape.contains(r * side + k)) {
                let reason = match shape {
                    Shape::Samurai => format!(
                        "row {} ends before {}, a cell of the puzzle",
                        r + 1,
                        shape.cell_name(r * side + missing)
                    ),
                    Shape::Square { .. } => {
                        format!("row {} is too short: {c} cells, a row has {side}", r + 1)
                    }
                };
                return Err(error(number, 0, reason));
            }
        }
        Ok(board)
    }

    /// The value of character `c` at layout position `index`, or why it is wrong there.
    fn read_position(&self, index: usize, c: char) -> Result<u8, String> {
        let shape = self.shape;
        if !shape.contains(index) {
            return match c {
                '#' | ' ' | '.' | '0' | '_' => Ok(0),
                _ => Err(format!(
                    "unexpected character {c:?} at {}, which is outside the five grids (expected # or a space)",
                    shape.cell_name(index)
                )),
            };
        }
        symbol_value(c, shape.digits()).ok_or_else(|| {
            format!(
                "unexpected character {c:?} (a {} puzzle uses {}, and . 0 _ for an empty cell)",
                shape.name(),
                shape.alphabet()
            )
        })
    }

    /// The one-line form: every layout position, `.` for an empty cell, `#`
    /// outside a Samurai's grids.
    pub fn to_line(&self) -> String {
        (0..self.cells.len())
            .map(|i| self.position_char(i, '#'))
            .collect()
    }

    /// The character of position `i`, `outside` when it is not a cell.
    fn position_char(&self, i: usize, outside: char) -> char {
        if self.shape.contains(i) {
            digit_char(self.cells[i])
        } else {
            outside
        }
    }

    /// A readable grid, one line per row, each ending in `\n`. A square gets
    /// `|` between boxes and `-----+-----` lines between bands of boxes (the
    /// same text as [`Grid::to_pretty`] for 9x9); a Samurai shows the five
    /// grids with spaces outside them and a gap between 3x3 boxes.
    pub fn to_pretty(&self) -> String {
        let side = self.shape.side();
        let mut out = String::new();
        match self.shape {
            Shape::Square {
                box_rows, box_cols, ..
            } => {
                let width = 2 * box_cols - 1;
                let bands = side / box_cols;
                let separator: Vec<String> = (0..bands)
                    .map(|b| "-".repeat(width + usize::from(b > 0) + usize::from(b + 1 < bands)))
                    .collect();
                for r in 0..side {
                    if r > 0 && r % box_rows == 0 {
                        out.push_str(&separator.join("+"));
                        out.push('\n');
                    }
                    for c in 0..side {
                        if c > 0 {
                            out.push_str(if c % box_cols == 0 { " | " } else { " " });
                        }
                        out.push(self.position_char(r * side + c, ' '));
                    }
                    out.push('\n');
                }
            }
            Shape::Samurai => {
                for r in 0..side {
                    if r > 0 && r % 3 == 0 {
                        out.push('\n');
                    }
                    let mut line = String::new();
                    for c in 0..side {
                        if c > 0 {
                            line.push_str(if c % 3 == 0 { "   " } else { " " });
                        }
                        line.push(self.position_char(r * side + c, ' '));
                    }
                    out.push_str(line.trim_end());
                    out.push('\n');
                }
            }
        }
        out
    }

    /// Number of filled cells.
    pub fn givens(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// Pairs of equal digits sharing a unit (row, column or box of any
    /// grid), each pair once, lower index first, sorted.
    pub fn clashes(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for unit in self.shape.units() {
            for (k, &a) in unit.iter().enumerate() {
                let value = self.cells.get(a).copied().unwrap_or(0);
                if value == 0 {
                    continue;
                }
                for &b in &unit[k + 1..] {
                    if self.cells.get(b) == Some(&value) {
                        out.push((a, b));
                    }
                }
            }
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    /// True when this board has `puzzle`'s shape, every cell holds a digit
    /// (positions outside a Samurai's grids 0), every unit holds every digit
    /// once, and every given of `puzzle` is kept.
    pub fn is_solution_of(&self, puzzle: &Board) -> bool {
        let shape = self.shape;
        let n = shape.cell_count();
        if puzzle.shape != shape || self.cells.len() != n || puzzle.cells.len() != n {
            return false;
        }
        let digits = shape.digits() as u8;
        let cells_ok = (0..n).all(|i| {
            let v = self.cells[i];
            if shape.contains(i) {
                (1..=digits).contains(&v) && (puzzle.cells[i] == 0 || puzzle.cells[i] == v)
            } else {
                v == 0
            }
        });
        cells_ok && self.clashes().is_empty()
    }
}

/// The [`Board`] of a classic grid.
pub fn classic_board(grid: &Grid) -> Board {
    Board {
        shape: Shape::classic(),
        cells: grid.0.to_vec(),
    }
}

/// The classic grid of a 9x9 board, `None` for any other shape or a value above 9.
pub fn to_grid(board: &Board) -> Option<Grid> {
    if board.shape != Shape::classic()
        || board.cells.len() != CELLS
        || board.cells.iter().any(|&v| v > 9)
    {
        return None;
    }
    let mut grid = Grid::default();
    grid.0.copy_from_slice(&board.cells);
    Some(grid)
}

/// A board as an exact-cover matrix, with what each matrix row means.
struct Encoding {
    matrix: ExactCover,
    /// (cell index, digit) of each matrix row.
    placements: Vec<(usize, u8)>,
}

/// Builds the matrix: a column per cell, a column per (unit, digit), and a
/// row per (cell, digit) that the givens leave possible (only the given
/// digit for a filled cell; for an empty one, the digits no given in its
/// units holds).
fn encode(puzzle: &Board) -> Encoding {
    let shape = puzzle.shape;
    let digits = shape.digits();
    let units = shape.units();
    let cells: Vec<usize> = (0..shape.cell_count())
        .filter(|&i| shape.contains(i))
        .collect();
    let mut cell_column = vec![usize::MAX; shape.cell_count()];
    let mut cell_units: Vec<Vec<usize>> = vec![Vec::new(); shape.cell_count()];
    for (column, &cell) in cells.iter().enumerate() {
        cell_column[cell] = column;
    }
    for (u, unit) in units.iter().enumerate() {
        for &cell in unit {
            cell_units[cell].push(u);
        }
    }
    // Digits already given in each unit (bit d).
    let mut unit_given = vec![0u64; units.len()];
    for (u, unit) in units.iter().enumerate() {
        for &cell in unit {
            unit_given[u] |= 1u64 << puzzle.cells[cell];
        }
    }
    let mut matrix = ExactCover::new(cells.len() + units.len() * digits);
    let mut placements = Vec::new();
    let mut columns = Vec::new();
    for &cell in &cells {
        let given = puzzle.cells[cell];
        for d in 1..=digits as u8 {
            let taken = cell_units[cell]
                .iter()
                .any(|&u| unit_given[u] >> d & 1 == 1);
            if (given != 0 && d != given) || (given == 0 && taken) {
                continue;
            }
            columns.clear();
            columns.push(cell_column[cell]);
            columns.extend(
                cell_units[cell]
                    .iter()
                    .map(|&u| cells.len() + u * digits + (d as usize - 1)),
            );
            matrix.add_row(&columns);
            placements.push((cell, d));
        }
    }
    // Per-node reduction pays off only on large grids (see the module notes).
    matrix.set_reduce(digits >= 16);
    Encoding { matrix, placements }
}

/// Solves a board of any shape, counting solutions up to `limit` (0 counts
/// nothing and returns [`Outcome::NoSolution`]). Squares of 16x16 and up go
/// to the candidate solver with propagation at every node (singles and
/// locked candidates), everything else to Dancing Links
/// ([`solve_board_dlx`]). A board whose cell count or values do not fit its
/// shape has no solution.
pub fn solve_board(puzzle: &Board, limit: usize) -> Outcome<Board> {
    match puzzle.shape {
        Shape::Square { size, .. } if size >= 16 && fits(puzzle) && limit > 0 => {
            let (count, first) = candidates::Candidates::new(puzzle.shape).solve(puzzle, limit);
            outcome(count, first)
        }
        _ => solve_board_dlx(puzzle, limit),
    }
}

/// The outcome of `count` solutions of which `first` is the first.
fn outcome(count: usize, first: Option<Board>) -> Outcome<Board> {
    match (count, first) {
        (0, _) | (_, None) => Outcome::NoSolution,
        (1, Some(board)) => Outcome::Unique(board),
        (count, Some(first)) => Outcome::Multiple { count, first },
    }
}

/// True when the board has its shape's cell count, no value above the
/// digit count and no digit outside a Samurai's grids.
fn fits(puzzle: &Board) -> bool {
    let shape = puzzle.shape;
    puzzle.cells.len() == shape.cell_count()
        && (0..puzzle.cells.len()).all(|i| {
            let v = puzzle.cells[i] as usize;
            v <= shape.digits() && (v == 0 || shape.contains(i))
        })
}

/// Solves a board of any shape with Dancing Links alone, counting solutions
/// up to `limit`; the reference engine for differential tests (25x25 puzzles
/// may take very long this way).
pub fn solve_board_dlx(puzzle: &Board, limit: usize) -> Outcome<Board> {
    let mut first: Option<Board> = None;
    let count = for_each_solution(puzzle, limit, &mut |board| {
        if first.is_none() {
            first = Some(board.clone());
        }
    });
    outcome(count, first)
}

/// Calls `each` with every solution of a board of any shape, up to `limit`,
/// through Dancing Links; returns how many there were. A board that does
/// not fit its shape has none.
pub fn for_each_solution(puzzle: &Board, limit: usize, each: &mut dyn FnMut(&Board)) -> usize {
    if !fits(puzzle) {
        return 0;
    }
    let Encoding {
        mut matrix,
        placements,
    } = encode(puzzle);
    let mut board = puzzle.clone();
    matrix.solve(limit, &mut |rows| {
        for &row in rows {
            let (cell, digit) = placements[row];
            board.cells[cell] = digit;
        }
        each(&board);
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shared puzzle folder, or `None` (with a note) when it is absent.
    fn puzzles_dir() -> Option<std::path::PathBuf> {
        let dir =
            std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/puzzles"));
        if dir.is_dir() {
            Some(dir)
        } else {
            eprintln!("note: {} not found, skipping", dir.display());
            None
        }
    }

    fn read_lines(name: &str) -> Option<Vec<String>> {
        let path = puzzles_dir()?.join(name);
        let text = std::fs::read_to_string(&path)
            .map_err(|e| eprintln!("note: {}: {e}, skipping", path.display()))
            .ok()?;
        Some(text.lines().map(str::to_string).collect())
    }

    const CLASSIC: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    #[test]
    fn shapes_are_detected_and_named() {
        assert_eq!(Shape::detect(81), Some(Shape::classic()));
        assert_eq!(
            Shape::detect(16),
            Some(Shape::Square {
                size: 4,
                box_rows: 2,
                box_cols: 2
            })
        );
        assert_eq!(
            Shape::detect(256).map(|s| s.name()),
            Some("16x16".to_string())
        );
        assert_eq!(
            Shape::detect(625).map(|s| s.name()),
            Some("25x25".to_string())
        );
        assert_eq!(Shape::detect(441), Some(Shape::Samurai));
        assert_eq!(Shape::Samurai.name(), "samurai");
        assert_eq!(
            Shape::square(6),
            Some(Shape::Square {
                size: 6,
                box_rows: 2,
                box_cols: 3
            })
        );
        assert_eq!(
            Shape::square(12),
            Some(Shape::Square {
                size: 12,
                box_rows: 3,
                box_cols: 4
            })
        );
        assert_eq!(Shape::square(7), None);
        assert_eq!(Shape::detect(80), None);
        assert_eq!(Shape::classic().units().len(), 27);
        // Five grids of 27 units, minus the four boxes the centre shares.
        assert_eq!(Shape::Samurai.units().len(), 131);
        assert_eq!(
            (0..441).filter(|&i| Shape::Samurai.contains(i)).count(),
            369
        );
    }

    #[test]
    fn small_squares_count_their_solutions() {
        let shape = Shape::square(4).unwrap();
        let few = Board::parse("12..\n....\n....\n...4", shape).unwrap();
        // Six completions (checked by brute force over all 4x4 grids).
        assert_eq!(solve_board(&few, 10).count(), 6);
        let puzzle = Board::parse("1...\n..2.\n.3..\n...4", shape).unwrap();
        match solve_board(&puzzle, 10) {
            Outcome::Unique(s) => assert!(s.is_solution_of(&puzzle)),
            other => panic!("{other:?}"),
        }
        // There are 288 4x4 Sudoku grids.
        assert_eq!(solve_board(&Board::empty(shape), 10_000).count(), 288);
        // 6x6 with 2x3 boxes: 28,200 grids; the limit stops the count.
        assert_eq!(
            solve_board(&Board::empty(Shape::square(6).unwrap()), 10_000).count(),
            10_000
        );
    }

    #[test]
    fn classic_9x9_through_dlx_and_grid_round_trip() {
        let grid = Grid::parse_line(CLASSIC).unwrap();
        let board = classic_board(&grid);
        assert_eq!(board.to_line(), CLASSIC);
        assert_eq!(board.to_pretty(), grid.to_pretty());
        assert_eq!(
            Board::parse(&board.to_pretty(), Shape::classic()),
            Ok(board.clone())
        );
        let Outcome::Unique(solution) = solve_board(&board, 2) else {
            panic!("not unique")
        };
        assert!(solution.is_solution_of(&board));
        let solved = to_grid(&solution).unwrap();
        assert!(solved.is_solution_of(&grid));
        assert_eq!(to_grid(&Board::empty(Shape::Samurai)), None);
    }

    #[test]
    fn gecode_9x9_through_dlx() {
        let (Some(puzzles), Some(solutions)) = (
            read_lines("gecode_9x9.txt"),
            read_lines("gecode_9x9.solutions.txt"),
        ) else {
            return;
        };
        for (p, s) in puzzles.iter().zip(&solutions) {
            let puzzle = Board::parse(p, Shape::classic()).unwrap();
            let Outcome::Unique(found) = solve_board(&puzzle, 2) else {
                panic!("{p}: not unique")
            };
            assert_eq!(&found.to_line(), s);
        }
    }

    #[test]
    fn every_gecode_16x16_matches_its_solution() {
        let (Some(puzzles), Some(solutions)) = (
            read_lines("gecode_16x16.txt"),
            read_lines("gecode_16x16.solutions.txt"),
        ) else {
            return;
        };
        assert_eq!(puzzles.len(), 55);
        let shape = Shape::square(16).unwrap();
        for (k, (p, s)) in puzzles.iter().zip(&solutions).enumerate() {
            let puzzle = Board::parse(p, shape).unwrap();
            match solve_board(&puzzle, 2) {
                Outcome::Unique(found) => {
                    assert_eq!(&found.to_line(), s, "puzzle {}", k + 1);
                    assert!(found.is_solution_of(&puzzle));
                }
                other => panic!("puzzle {}: {} solutions", k + 1, other.count()),
            }
        }
    }

    #[test]
    fn both_engines_agree_on_16x16_and_samurai() {
        let shape = Shape::square(4).unwrap();
        let all_4x4 = candidates::Candidates::new(shape).solve(&Board::empty(shape), 10_000);
        assert_eq!(all_4x4.0, 288);
        let samurai =
            candidates::Candidates::new(Shape::Samurai).solve(&Board::empty(Shape::Samurai), 50);
        assert_eq!(samurai.0, 50);
        for name in ["gecode_16x16.txt", "samurai.txt"] {
            let Some(puzzles) = read_lines(name) else {
                return;
            };
            for (k, p) in puzzles.iter().enumerate().step_by(5) {
                let puzzle = Board::parse(p, Shape::detect(p.len()).unwrap()).unwrap();
                let candidates = candidates::Candidates::new(puzzle.shape).solve(&puzzle, 3);
                let dlx = solve_board_dlx(&puzzle, 3);
                assert_eq!(candidates.0, dlx.count(), "{name} line {}", k + 1);
                if dlx.count() == 1 {
                    assert_eq!(candidates.1.as_ref(), dlx.first(), "{name} line {}", k + 1);
                }
            }
        }
    }

    #[test]
    fn every_samurai_has_its_expected_count() {
        let (Some(puzzles), Some(expected)) = (
            read_lines("samurai.txt"),
            read_lines("samurai.expected.txt"),
        ) else {
            return;
        };
        assert_eq!(puzzles.len(), expected.len());
        for (k, (p, e)) in puzzles.iter().zip(&expected).enumerate() {
            let puzzle = Board::parse(p, Shape::Samurai).unwrap();
            assert_eq!(puzzle.to_line(), *p);
            let (count, solution) = e.split_once(' ').unwrap();
            let outcome = solve_board(&puzzle, 1000);
            match count {
                ">=1000" => assert_eq!(outcome.count(), 1000, "line {}", k + 1),
                _ => assert_eq!(outcome.count().to_string(), count, "line {}", k + 1),
            }
            if solution != "-" {
                let found = outcome.first().unwrap();
                assert_eq!(found.to_line(), solution, "line {}", k + 1);
                assert!(found.is_solution_of(&puzzle));
            }
            if let Some(first) = outcome.first() {
                assert!(first.is_solution_of(&puzzle), "line {}", k + 1);
            }
        }
    }

    #[test]
    fn samurai_row_form_parses_with_spaces_and_short_rows() {
        let Some(puzzles) = read_lines("samurai.txt") else {
            return;
        };
        let line = Board::parse(&puzzles[0], Shape::Samurai).unwrap();
        // 21 lines, spaces outside, trailing spaces dropped.
        let rows: Vec<String> = line
            .to_line()
            .as_bytes()
            .chunks(21)
            .map(|row| {
                String::from_utf8_lossy(row)
                    .replace('#', " ")
                    .trim_end()
                    .to_string()
            })
            .collect();
        assert!(rows.iter().any(|r| r.len() < 21));
        let text = format!("\n{}\n", rows.join("\n"));
        assert_eq!(Board::parse(&text, Shape::Samurai), Ok(line.clone()));
        // The same with '#' kept.
        let hashes: Vec<&str> = puzzles[0]
            .as_bytes()
            .chunks(21)
            .map(|row| std::str::from_utf8(row).unwrap())
            .collect();
        assert_eq!(
            Board::parse(&hashes.join("\n"), Shape::Samurai),
            Ok(line.clone())
        );
        // Pretty output is readable: 21 rows plus 6 gaps.
        assert_eq!(line.to_pretty().lines().count(), 27);
        // A digit where a grid has no cell.
        let mut bad = rows.clone();
        bad[0] = format!("{}5", &rows[0][..9]);
        let e = Board::parse(&bad.join("\n"), Shape::Samurai).unwrap_err();
        assert_eq!((e.line, e.column), (1, 10), "{e}");
        // A row that stops inside a grid.
        let mut short = rows.clone();
        short[3] = rows[3][..15].to_string();
        let e = Board::parse(&short.join("\n"), Shape::Samurai).unwrap_err();
        assert_eq!((e.line, e.column), (4, 0), "{e}");
        assert!(e.reason.contains("r4c16"), "{e}");
    }

    #[test]
    fn parse_errors_name_line_column_and_reason() {
        let shape = Shape::square(16).unwrap();
        let mut line = ".".repeat(256);
        line.replace_range(20..21, "H");
        let e = Board::parse(&line, shape).unwrap_err();
        assert_eq!((e.line, e.column), (1, 21));
        assert!(
            e.reason.contains("'H'") && e.reason.contains("1-9, A-G"),
            "{e}"
        );
        assert!(Board::parse(&line.replace('H', "g"), shape).is_ok());
        let e = Board::parse(&".".repeat(255), shape).unwrap_err();
        assert!(e.reason.contains("too short"), "{e}");
        let e = Board::parse(&".".repeat(257), shape).unwrap_err();
        assert_eq!(e.column, 257);
        assert!(e.reason.contains("too long"), "{e}");
        // Row form: line numbers count from the top of the text.
        let rows = "\n1...\n..x.\n.3..\n...4\n";
        let e = Board::parse(rows, Shape::square(4).unwrap()).unwrap_err();
        assert_eq!((e.line, e.column), (3, 3), "{e}");
        let e = Board::parse("1...\n..2.\n.3..", Shape::square(4).unwrap()).unwrap_err();
        assert!(e.reason.contains("3 rows"), "{e}");
        let e =
            Board::parse("1...\n..2.\n.3..\n...4\n....", Shape::square(4).unwrap()).unwrap_err();
        assert_eq!(e.line, 5, "{e}");
        let e = Board::parse("1...\n..2..\n.3..\n...4", Shape::square(4).unwrap()).unwrap_err();
        assert_eq!((e.line, e.column), (2, 5), "{e}");
        let e = Board::parse("", Shape::classic()).unwrap_err();
        assert!(e.reason.contains("empty"), "{e}");
        // In a Samurai line, '#' is only allowed outside the grids.
        let e = Board::parse(&format!("#{}", ".".repeat(440)), Shape::Samurai).unwrap_err();
        assert_eq!((e.line, e.column), (1, 1), "{e}");
        let e = Board::parse(&".".repeat(441).replacen('.', "5", 10), Shape::Samurai).unwrap_err();
        assert_eq!(e.column, 10, "{e}");
    }

    #[test]
    fn clashes_and_solution_checks() {
        let mut board = Board::empty(Shape::Samurai);
        // r7c7 is in grid 1's box 9 and the centre grid's box 1; r9c9 too.
        board.cells[6 * 21 + 6] = 4;
        board.cells[8 * 21 + 8] = 4;
        assert_eq!(board.clashes(), vec![(6 * 21 + 6, 8 * 21 + 8)]);
        assert_eq!(solve_board(&board, 2), Outcome::NoSolution);
        let puzzle = classic_board(&Grid::parse_line(CLASSIC).unwrap());
        let solution = solve_board(&puzzle, 1).first().unwrap().clone();
        assert!(solution.is_solution_of(&puzzle));
        let mut wrong = solution.clone();
        wrong.cells.swap(0, 1);
        assert!(!wrong.is_solution_of(&puzzle));
        assert!(!puzzle.is_solution_of(&puzzle));
        assert_eq!(solve_board(&puzzle, 0), Outcome::NoSolution);
    }

    #[test]
    #[ignore = "25x25: about 3 s in release, far too slow in debug; run with --release -- --ignored"]
    fn gecode_25x25_line_17() {
        let (Some(puzzles), Some(solutions)) = (
            read_lines("gecode_25x25.txt"),
            read_lines("gecode_25x25.solutions.txt"),
        ) else {
            return;
        };
        // Line 17 (a variant of line 2 with extra givens) is one that solves.
        let puzzle = Board::parse(&puzzles[16], Shape::square(25).unwrap()).unwrap();
        let found = solve_board(&puzzle, 2);
        assert_eq!(found.count(), 1);
        assert_eq!(found.first().unwrap().to_line(), solutions[16]);
    }
}
