//! Puzzle shapes: the classic 9x9, any NxN square with rectangular boxes,
//! and the Samurai (five overlapping 9x9 grids in a 21x21 layout). A shape
//! is a list of *units* (rows, columns and boxes of each grid), each of which
//! must hold every digit exactly once.
//!
//! Text alphabet: digits 1-9 are `1`-`9`, 10 and up are `A`, `B`, ... (16x16
//! uses `A`-`G`, 25x25 `A`-`P`; lowercase is accepted too). An empty cell is
//! `.`, `_` or `0` for every size (`0` is never a digit here). In a Samurai,
//! the positions outside the five grids are `#` or a space.

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
    pub(crate) fn alphabet(&self) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
