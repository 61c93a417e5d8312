//! The one board model: a [`Board`] is the cells of a [`Shape`]'s layout,
//! with its text forms (one line, or rows) and the rule checks.

use crate::shape::{digit_char, symbol_value, Shape};

/// Why a piece of text is not a puzzle, and where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}", self.describe())]
pub struct ParseError {
    /// 1-based line number in the input, 0 when not known.
    pub line: usize,
    /// 1-based column of the offending character, 0 when the whole line is at fault.
    pub column: usize,
    /// What is wrong, in words a user can act on.
    pub reason: String,
}

impl ParseError {
    /// `line 3, column 12: reason`, leaving out what is not known.
    fn describe(&self) -> String {
        match (self.line, self.column) {
            (0, 0) => self.reason.clone(),
            (0, c) => format!("column {c}: {}", self.reason),
            (l, 0) => format!("line {l}: {}", self.reason),
            (l, c) => format!("line {l}, column {c}: {}", self.reason),
        }
    }
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

/// The mark `read` puts right after a cell it is unsure of (`7?`): shown
/// to people, skipped when the grid is read back.
pub const UNSURE_MARK: char = '?';

/// Characters that only set cells apart in a square's rows (and in a
/// Samurai's spaced rows): spaces, tabs, commas and box rules.
pub fn is_cell_separator(c: char) -> bool {
    matches!(c, ' ' | '\t' | ',' | '|')
}

/// A line made only of box rules (`------+-------+------`, `+---+`):
/// between the bands of a square's rows, never a row itself.
pub fn is_rule_line(line: &str) -> bool {
    line.chars()
        .all(|c| matches!(c, '-' | '+' | '|' | '=' | ' ' | '\t'))
}

/// The cell characters of a square's line with their 0-based positions in
/// it: separators and the unsure mark after a cell skipped. A mark that
/// follows no cell is an error (position, reason).
fn cell_chars(line: &str) -> Result<Vec<(usize, char)>, (usize, String)> {
    let mut out = Vec::new();
    let mut after_cell = false;
    for (i, c) in line.chars().enumerate() {
        if is_cell_separator(c) || (c == UNSURE_MARK && after_cell) {
            after_cell = false;
        } else if c == UNSURE_MARK {
            return Err((i, format!("unexpected {UNSURE_MARK:?}: it marks the cell before it as unsure, and follows no cell here")));
        } else {
            out.push((i, c));
            after_cell = true;
        }
    }
    Ok(out)
}

/// The cells of a spaced row: at least two, each one character set apart
/// from the next by separators or by an unsure mark. `None` when the row is
/// not spaced (a compact row such as `53..7....`, or a Samurai row whose
/// spaces are outside positions).
pub fn spaced_cells(line: &str) -> Option<Vec<(usize, char)>> {
    let mut out: Vec<(usize, char)> = Vec::new();
    // Whether the last character was a cell (a mark or a separator may
    // follow it, not another cell).
    let mut after_cell = false;
    for (i, c) in line.chars().enumerate() {
        if is_cell_separator(c) || (c == UNSURE_MARK && after_cell) {
            // The mark takes the place of the space after its cell.
            after_cell = false;
        } else if after_cell {
            return None;
        } else {
            out.push((i, c));
            after_cell = true;
        }
    }
    (out.len() >= 2).then_some(out)
}

/// `1 cell`, `3 cells`.
pub(crate) fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
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
    /// `side` positions each. Blank lines around the puzzle are ignored.
    ///
    /// In a square, spaces, tabs, commas and `|` between cells are ignored
    /// (`5 3 . . 7 . . . .`, `5,3,0,0,7,0,0,0,0`), as is the unsure mark `?`
    /// right after a cell (`7?`), and in the row form separator lines made
    /// of `-`, `+`, `|`, `=` and spaces are skipped, so [`Board::to_pretty`]
    /// and [`Board::to_pretty_marked`] output parses back.
    ///
    /// A Samurai row is read one of two ways. Spaced, as
    /// [`Board::to_pretty`] writes it (every cell one character, set apart
    /// by spaces, commas or `|`): it lists the cells of that row inside the
    /// five grids, in order (18, 21 or 9 of them). Otherwise every character
    /// counts: outside positions may be `#`, a space or an empty-cell mark,
    /// and trailing outside positions may be left off.
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
        let square = matches!(shape, Shape::Square { .. });
        let cells: Vec<(usize, char)> = if square {
            cell_chars(body).map_err(|(i, reason)| error(number, skipped + i + 1, reason))?
        } else {
            body.chars().enumerate().collect()
        };
        let count = cells.len();
        let mut board = Board::empty(shape);
        for (i, &(at, c)) in cells.iter().enumerate() {
            let column = skipped + at + 1;
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
        let rows: Vec<(usize, &str)> = match shape {
            Shape::Square { .. } => lines
                .iter()
                .copied()
                .filter(|(_, line)| !is_rule_line(line))
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
        let square = matches!(shape, Shape::Square { .. });
        for (r, &(number, line)) in rows.iter().enumerate() {
            if !square {
                if let Some(cells) = spaced_cells(line) {
                    board.read_spaced_samurai_row(r, number, &cells)?;
                    continue;
                }
            }
            let chars: Vec<(usize, char)> = if square {
                cell_chars(line).map_err(|(i, reason)| error(number, i + 1, reason))?
            } else {
                line.chars().enumerate().collect()
            };
            let mut c = 0;
            for &(i, ch) in &chars {
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

    /// Row `r` of a Samurai in the spaced form: `cells` (column in the line,
    /// character) are the row's cells inside the five grids, in order.
    fn read_spaced_samurai_row(
        &mut self,
        r: usize,
        number: usize,
        cells: &[(usize, char)],
    ) -> Result<(), ParseError> {
        let side = self.shape.side();
        let inside: Vec<usize> = (0..side)
            .map(|c| r * side + c)
            .filter(|&i| self.shape.contains(i))
            .collect();
        if cells.len() != inside.len() {
            return Err(error(
                number,
                0,
                format!(
                    "row {} has {}, a Samurai's row {} has {} (the cells inside its grids)",
                    r + 1,
                    plural(cells.len(), "cell"),
                    r + 1,
                    inside.len()
                ),
            ));
        }
        for (&index, &(at, ch)) in inside.iter().zip(cells) {
            self.cells[index] = self
                .read_position(index, ch)
                .map_err(|reason| error(number, at + 1, reason))?;
        }
        Ok(())
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
    /// `1 2 3 | 4 5 6 | 7 8 9` for 9x9); a Samurai shows the five
    /// grids with spaces outside them and a gap between 3x3 boxes.
    pub fn to_pretty(&self) -> String {
        self.to_pretty_marked(&[])
    }

    /// [`Board::to_pretty`] with the unsure mark `?` right after each cell
    /// whose position is `true` in `marked` (`7?. . | ...`), in the space
    /// that otherwise follows it, so that the grid keeps its width and
    /// still parses back.
    pub fn to_pretty_marked(&self, marked: &[bool]) -> String {
        let side = self.shape.side();
        let mark = |i: usize| {
            if marked.get(i) == Some(&true) {
                UNSURE_MARK
            } else {
                ' '
            }
        };
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
                    let mut line = String::new();
                    for c in 0..side {
                        if c > 0 && c % box_cols == 0 {
                            line.push_str("| ");
                        }
                        line.push(self.position_char(r * side + c, ' '));
                        line.push(mark(r * side + c));
                    }
                    out.push_str(line.trim_end());
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
                        if c > 0 && c % 3 == 0 {
                            line.push_str("  ");
                        }
                        let i = r * side + c;
                        line.push(self.position_char(i, ' '));
                        line.push(if self.shape.contains(i) { mark(i) } else { ' ' });
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testdata::shared_lines;

    fn read_lines(name: &str) -> Option<Vec<String>> {
        shared_lines(name, usize::MAX)
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
}
