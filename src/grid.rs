//! The classic 9x9 board: [`Grid`] values and their text forms.
//!
//! A grid is 81 cells in row-major order (`r1c1`, `r1c2`, ... `r9c9`), each 0
//! for an empty cell or 1-9 for a digit. The same type holds a puzzle (the
//! givens) and a solution; the solver never needs more than that.
//!
//! Text forms: one line of 81 characters (`1`-`9`, and `.`, `0` or `_` for an
//! empty cell), or 9 lines of 9 such characters. [`Grid::to_line`] prints the
//! first with `.` for empty, [`Grid::to_pretty`] a readable grid with box
//! separators.

use std::fmt;

/// Number of cells in a classic grid.
pub const CELLS: usize = 81;

/// A classic 9x9 grid: 0 for an empty cell, 1-9 for a digit.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Grid(pub [u8; CELLS]);

impl Default for Grid {
    fn default() -> Self {
        Grid([0; CELLS])
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Grid({})", self.to_line())
    }
}

/// Why a piece of text is not a puzzle, with where (1-based column within the
/// line; the line number is added by whoever knows it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line number in the input, 0 when not known.
    pub line: usize,
    /// 1-based column of the offending character, 0 when the whole line is at fault.
    pub column: usize,
    /// What is wrong, in words a user can act on.
    pub reason: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (0, 0) => write!(f, "{}", self.reason),
            (0, c) => write!(f, "column {c}: {}", self.reason),
            (l, 0) => write!(f, "line {l}: {}", self.reason),
            (l, c) => write!(f, "line {l}, column {c}: {}", self.reason),
        }
    }
}

impl std::error::Error for ParseError {}

/// The value of one puzzle character: `Some(0)` for an empty cell, `Some(d)`
/// for a digit, `None` for anything else.
pub fn cell_value(c: char) -> Option<u8> {
    match c {
        '.' | '0' | '_' => Some(0),
        '1'..='9' => Some(c as u8 - b'0'),
        _ => None,
    }
}

/// `r3c4` notation for a cell index 0..81, as used in every message a user sees.
pub fn cell_name(index: usize) -> String {
    format!("r{}c{}", index / 9 + 1, index % 9 + 1)
}

impl Grid {
    /// Parses 81 cell characters (surrounding whitespace ignored). Errors name
    /// the 1-based column; the caller fills in the line.
    pub fn parse_line(text: &str) -> Result<Grid, ParseError> {
        let text = text.trim();
        let mut cells = [0u8; CELLS];
        let mut n = 0;
        for (i, c) in text.chars().enumerate() {
            let value = cell_value(c).ok_or_else(|| ParseError {
                line: 0,
                column: i + 1,
                reason: format!(
                    "unexpected character {c:?} (expected 1-9, or . 0 _ for an empty cell)"
                ),
            })?;
            if n == CELLS {
                return Err(ParseError {
                    line: 0,
                    column: i + 1,
                    reason: format!(
                        "too long: {} cells, a 9x9 puzzle has 81",
                        text.chars().count()
                    ),
                });
            }
            cells[n] = value;
            n += 1;
        }
        if n < CELLS {
            return Err(ParseError {
                line: 0,
                column: 0,
                reason: format!("too short: {n} cells, a 9x9 puzzle has 81"),
            });
        }
        Ok(Grid(cells))
    }

    /// The 81-character line, `.` for an empty cell.
    pub fn to_line(&self) -> String {
        self.0
            .iter()
            .map(|&v| if v == 0 { '.' } else { (b'0' + v) as char })
            .collect()
    }

    /// A readable 9x9 grid with box separators, 11 lines each ending in `\n`.
    pub fn to_pretty(&self) -> String {
        let mut out = String::with_capacity(11 * 22);
        for r in 0..9 {
            if r == 3 || r == 6 {
                out.push_str("------+-------+------\n");
            }
            for c in 0..9 {
                if c == 3 || c == 6 {
                    out.push_str("| ");
                }
                let v = self.0[r * 9 + c];
                out.push(if v == 0 { '.' } else { (b'0' + v) as char });
                if c != 8 {
                    out.push(' ');
                }
            }
            out.push('\n');
        }
        out
    }

    /// Number of filled cells.
    pub fn givens(&self) -> usize {
        self.0.iter().filter(|&&v| v != 0).count()
    }

    /// Pairs of filled cells that break a rule: the same digit twice in a row,
    /// column or box. Each pair is reported once, lower index first.
    pub fn clashes(&self) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for a in 0..CELLS {
            if self.0[a] == 0 {
                continue;
            }
            for b in a + 1..CELLS {
                if self.0[b] == self.0[a] && are_peers(a, b) {
                    out.push((a, b));
                }
            }
        }
        out
    }

    /// True when every cell is filled, every row, column and box holds 1-9
    /// once, and every given of `puzzle` is kept.
    pub fn is_solution_of(&self, puzzle: &Grid) -> bool {
        if self.0.iter().any(|&v| !(1..=9).contains(&v)) {
            return false;
        }
        if self
            .0
            .iter()
            .zip(puzzle.0.iter())
            .any(|(&s, &p)| p != 0 && s != p)
        {
            return false;
        }
        self.clashes().is_empty()
    }
}

/// True when two distinct cells share a row, column or box.
pub fn are_peers(a: usize, b: usize) -> bool {
    let (ra, ca, rb, cb) = (a / 9, a % 9, b / 9, b % 9);
    a != b && (ra == rb || ca == cb || (ra / 3 == rb / 3 && ca / 3 == cb / 3))
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    #[test]
    fn line_round_trip_and_empty_markers() {
        let g = Grid::parse_line(P).unwrap();
        assert_eq!(g.to_line(), P);
        let zeros = P.replace('.', "0");
        assert_eq!(Grid::parse_line(&zeros).unwrap(), g);
        let under = P.replace('.', "_");
        assert_eq!(Grid::parse_line(&under).unwrap(), g);
        assert_eq!(g.givens(), 17);
    }

    #[test]
    fn errors_name_the_column() {
        let bad = format!("{}x{}", &P[..10], &P[11..]);
        let e = Grid::parse_line(&bad).unwrap_err();
        assert_eq!(e.column, 11);
        assert!(e.reason.contains("'x'"), "{e}");
        assert!(Grid::parse_line(&P[..80])
            .unwrap_err()
            .reason
            .contains("too short"));
        assert!(Grid::parse_line(&format!("{P}1"))
            .unwrap_err()
            .reason
            .contains("too long"));
    }

    #[test]
    fn pretty_has_box_separators() {
        let g = Grid::parse_line(P).unwrap();
        let pretty = g.to_pretty();
        assert_eq!(pretty.lines().count(), 11);
        assert_eq!(pretty.lines().next().unwrap(), "4 . . | . . . | 8 . 5");
        assert_eq!(pretty.lines().nth(3).unwrap(), "------+-------+------");
    }

    #[test]
    fn clashes_name_both_cells() {
        let mut g = Grid::default();
        g.0[20] = 5; // r3c3
        g.0[26] = 5; // r3c9
        assert_eq!(g.clashes(), vec![(20, 26)]);
        assert_eq!(cell_name(20), "r3c3");
    }
}
