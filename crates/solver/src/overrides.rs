//! Cell corrections typed by hand: `--set r3c4=7`, `--set r5c1=.`, and
//! with a target when a run reads several grids: `--set photo.jpg:r6c9=2`,
//! `--set p108:r1c9=3` (a PDF page), `--set g2:r3c4=7` (grid 2 of a page),
//! or all of them, `--set book.pdf:p108:g2:r1c9=3`. Parsed here, beside the
//! board they apply to, so that the command line and the fuzzer share one
//! parser.
//!
//! A correction names a row and a column, not a layout position: which
//! position that is depends on the shape of the grid it lands on (row 2 of
//! a 16x16 starts at position 16, of a Samurai at 21), known only once the
//! photo is read. [`Correction::cell`] makes the position for a shape, and
//! says why when the cell or value does not fit it.

use crate::shape::{digit_char, Shape, MAX_DIGITS};

/// Most digits of a row, column, page or grid number: pages of the longest
/// books run to four digits, and a bound keeps the number far from overflow.
const MAX_NUMBER_DIGITS: usize = 6;

/// Which grid a correction is for. Each part left out means "the only one":
/// the only input of the run, the only page read of it, the only grid on it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Target {
    /// The input as named on the command line, or its file name.
    pub input: Option<String>,
    /// The PDF page, 1-based.
    pub page: Option<usize>,
    /// The grid's number on its page, 1-based, in reading order.
    pub grid: Option<usize>,
}

impl Target {
    /// `photo.jpg:p3:g2:`, the target as a prefix of a `--set` value
    /// (empty when nothing is named).
    pub fn prefix(&self) -> String {
        let mut out = String::new();
        if let Some(input) = &self.input {
            out.push_str(input);
            out.push(':');
        }
        if let Some(page) = self.page {
            out.push_str(&format!("p{page}:"));
        }
        if let Some(grid) = self.grid {
            out.push_str(&format!("g{grid}:"));
        }
        out
    }
}

/// One `--set` value: a cell of the target grid and what it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Correction {
    /// The grid it is for.
    pub target: Target,
    /// 1-based row of the grid's layout (up to 21 for a Samurai).
    pub row: usize,
    /// 1-based column of the grid's layout.
    pub column: usize,
    /// The value: 0 for an empty cell, else the digit (10 and up are `A`...).
    pub value: u8,
    /// The value as typed, for messages.
    pub text: String,
}

impl Correction {
    /// Parses one `--set` value (see the module notes). Case and
    /// surrounding spaces are ignored; the value is a digit, a letter for
    /// 10 and up (`A` is 10), a number up to 35, or `.`, `0` or `_` for an
    /// empty cell.
    pub fn parse(text: &str) -> Result<Correction, String> {
        let bad = || {
            format!(
                "--set {text:?}: expected rRcC=D, e.g. r3c4=7 or r5c1=. (. for empty), \
                 with the grid named first when the run reads several: \
                 photo.jpg:r3c4=7, p12:r3c4=7 (a PDF page), g2:r3c4=7 (grid 2 of a page)"
            )
        };
        let trimmed = text.trim();
        let mut parts: Vec<&str> = trimmed.split(':').collect();
        let cell = parts.pop().ok_or_else(bad)?;
        let (row, column, value) = parse_cell(cell).ok_or_else(bad)?;
        let mut target = Target::default();
        if let Some(grid) = parts.last().and_then(|p| numbered(p, 'g')) {
            target.grid = Some(grid);
            parts.pop();
        }
        if let Some(page) = parts.last().and_then(|p| numbered(p, 'p')) {
            target.page = Some(page);
            parts.pop();
        }
        if !parts.is_empty() {
            let input = parts.join(":");
            if input.trim().is_empty() {
                return Err(bad());
            }
            target.input = Some(input);
        }
        Ok(Correction {
            target,
            row,
            column,
            value,
            text: trimmed.to_string(),
        })
    }

    /// `r3c4`, the cell's name.
    pub fn cell_name(&self) -> String {
        format!("r{}c{}", self.row, self.column)
    }

    /// The layout position and value in a grid of `shape`, or why the
    /// correction does not fit it (a row or column past its side, a cell
    /// outside a Samurai's five grids, a digit it does not use).
    pub fn cell(&self, shape: Shape) -> Result<(usize, u8), String> {
        let side = shape.side();
        if self.row > side || self.column > side {
            return Err(format!(
                "--set {}: the grid is {} (rows and columns 1-{side})",
                self.text,
                shape.name()
            ));
        }
        let index = (self.row - 1) * side + (self.column - 1);
        if !shape.contains(index) {
            return Err(format!(
                "--set {}: {} is outside the five grids of the Samurai",
                self.text,
                self.cell_name()
            ));
        }
        if usize::from(self.value) > shape.digits() {
            return Err(format!(
                "--set {}: a {} grid has no digit {}",
                self.text,
                shape.name(),
                digit_char(self.value)
            ));
        }
        Ok((index, self.value))
    }
}

/// Parses every `--set` value. Naming one cell of one target twice is an
/// error that names the cell, even with the same value: the user meant one
/// of the two and the tool cannot tell which.
pub fn parse_corrections<S: AsRef<str>>(values: &[S]) -> Result<Vec<Correction>, String> {
    let mut out: Vec<Correction> = Vec::with_capacity(values.len());
    for value in values {
        let correction = Correction::parse(value.as_ref())?;
        if let Some(first) = out.iter().find(|c| {
            c.target == correction.target
                && (c.row, c.column) == (correction.row, correction.column)
        }) {
            return Err(format!(
                "--set names {}{} twice ({:?} and {:?}): give each cell once",
                correction.target.prefix(),
                correction.cell_name(),
                first.text,
                correction.text
            ));
        }
        out.push(correction);
    }
    Ok(out)
}

/// `rRcC=D` as (row, column, value), rows and columns 1-35.
fn parse_cell(text: &str) -> Option<(usize, usize, u8)> {
    let lower = text.trim().to_ascii_lowercase();
    let (cell, value) = lower.split_once('=')?;
    let (r, c) = cell.strip_prefix('r')?.split_once('c')?;
    let (row, column) = (number(r)?, number(c)?);
    let limit = MAX_DIGITS;
    if !(1..=limit).contains(&row) || !(1..=limit).contains(&column) {
        return None;
    }
    Some((row, column, parse_value(value.trim())?))
}

/// A cell's value: `.`, `_` or `0` for empty, a digit, a letter (10 and
/// up), or a number up to [`MAX_DIGITS`].
fn parse_value(text: &str) -> Option<u8> {
    match text.as_bytes() {
        [b'.' | b'_'] => Some(0),
        [c @ b'a'..=b'z'] => Some(c - b'a' + 10).filter(|&v| usize::from(v) <= MAX_DIGITS),
        _ => number(text)
            .filter(|&v| v <= MAX_DIGITS)
            .and_then(|v| u8::try_from(v).ok()),
    }
}

/// `p12` or `g2` (lower or upper case) as its number, at least 1.
fn numbered(text: &str, letter: char) -> Option<usize> {
    let rest = text
        .trim()
        .strip_prefix(letter)
        .or_else(|| text.trim().strip_prefix(letter.to_ascii_uppercase()))?;
    number(rest).filter(|&n| n >= 1)
}

/// A decimal number of at most [`MAX_NUMBER_DIGITS`] digits, no sign
/// (`str::parse` would also take `+3`).
fn number(text: &str) -> Option<usize> {
    let ok = !text.is_empty()
        && text.len() <= MAX_NUMBER_DIGITS
        && text.bytes().all(|b| b.is_ascii_digit());
    ok.then(|| text.parse().ok()).flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(values: &[&str], shape: Shape) -> Vec<(usize, u8)> {
        parse_corrections(values)
            .unwrap()
            .iter()
            .map(|c| c.cell(shape).unwrap())
            .collect()
    }

    #[test]
    fn values_parse() {
        let v = cells(&["r3c4=7", "R5C1=.", " r9c9=0 "], Shape::classic());
        assert_eq!(v, vec![(21, 7), (36, 0), (80, 0)]);
        for bad in [
            "r0c1=1", "r3c4", "r3c4=36", "x3c4=1", "r3c4=?", "r+3c4=1", "=", "", ":r1c1=1",
            "r1c1=1:", "r100c1=1",
        ] {
            assert!(parse_corrections(&[bad]).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_position_follows_the_shape() {
        // Row 2, column 1: position 9 of a 9x9, 16 of a 16x16, 21 of a Samurai.
        let c = Correction::parse("r2c1=5").unwrap();
        assert_eq!(c.cell(Shape::classic()), Ok((9, 5)));
        assert_eq!(c.cell(Shape::square(16).unwrap()), Ok((16, 5)));
        assert_eq!(c.cell(Shape::Samurai), Ok((21, 5)));
        // Letters are digits of the larger shapes only.
        let g = Correction::parse("r16c16=G").unwrap();
        assert_eq!(g.cell(Shape::square(16).unwrap()), Ok((255, 16)));
        let err = g.cell(Shape::classic()).unwrap_err();
        assert!(err.contains("rows and columns 1-9"), "{err}");
        let err = Correction::parse("r1c1=A")
            .unwrap()
            .cell(Shape::classic())
            .unwrap_err();
        assert!(err.contains("no digit A"), "{err}");
        // r1c10 lies between the Samurai's top grids.
        let err = Correction::parse("r1c10=1")
            .unwrap()
            .cell(Shape::Samurai)
            .unwrap_err();
        assert!(err.contains("outside the five grids"), "{err}");
    }

    #[test]
    fn targets_parse() {
        let c = Correction::parse("book.pdf:p108:g2:r1c9=3").unwrap();
        assert_eq!(
            c.target,
            Target {
                input: Some("book.pdf".into()),
                page: Some(108),
                grid: Some(2)
            }
        );
        assert_eq!(c.target.prefix(), "book.pdf:p108:g2:");
        assert_eq!(
            Correction::parse("p108:r1c9=3").unwrap().target.page,
            Some(108)
        );
        assert_eq!(Correction::parse("G2:r1c9=3").unwrap().target.grid, Some(2));
        let photo = Correction::parse("image1017.jpg:r6c9=2").unwrap();
        assert_eq!(photo.target.input.as_deref(), Some("image1017.jpg"));
        assert_eq!((photo.row, photo.column, photo.value), (6, 9, 2));
        // A path with a colon keeps it.
        let c = Correction::parse("C:\\scans\\a.jpg:r1c1=.").unwrap();
        assert_eq!(c.target.input.as_deref(), Some("C:\\scans\\a.jpg"));
        assert!(Correction::parse("p0:r1c1=1")
            .unwrap()
            .target
            .input
            .is_some());
    }

    #[test]
    fn one_cell_twice_is_an_error_naming_it() {
        for pair in [["r3c4=7", "R3C4=8"], ["r3c4=7", "r3c4=7"]] {
            let err = parse_corrections(&pair).unwrap_err();
            assert!(err.contains("names r3c4 twice"), "{err}");
        }
        assert!(parse_corrections(&["r3c4=7", "r4c3=7"]).is_ok());
        // The same cell of two grids is two cells.
        assert!(parse_corrections(&["g1:r3c4=7", "g2:r3c4=7"]).is_ok());
        let err = parse_corrections(&["g2:r3c4=7", "g2:r3c4=8"]).unwrap_err();
        assert!(err.contains("names g2:r3c4 twice"), "{err}");
    }
}
