//! Reading puzzle files: a stream of puzzles, each one line or a block of lines.
//!
//! Accepted per puzzle (blank lines and `#` comment lines between puzzles are
//! skipped):
//! - one line holding every cell: 81 characters for 9x9, 256 for 16x16, 625
//!   for 25x25, 441 for Samurai (16 for a 4x4);
//! - a block of rows: 9 lines of 9 characters, N lines of N for NxN (when
//!   `--shape` says so), or 21 lines of up to 21 characters for Samurai (spaces
//!   or `#` outside the five grids; trailing spaces may be missing).
//!
//! The reader never holds more than one puzzle's text, so a file of a million
//! puzzles streams in constant memory. A malformed puzzle becomes an
//! [`Entry`] with an error naming its line and column; reading goes on with
//! the next line.

use std::io::BufRead;

use crate::board::{Board, ParseError};
use crate::shape::Shape;

/// A puzzle read from the input, or why it could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// 1-based line where the puzzle starts.
    pub line: usize,
    /// The puzzle, or the error with its line (and column when known) in the input.
    pub puzzle: Result<Board, ParseError>,
}

/// Streams the puzzles of a text input. `shape` fixes the shape; `None`
/// detects it from each puzzle's length.
pub struct PuzzleReader<R> {
    input: R,
    shape: Option<Shape>,
    line_no: usize,
    buf: String,
}

impl<R: BufRead> PuzzleReader<R> {
    /// A reader over `input`; `shape` as given by `--shape`, or `None` to detect.
    pub fn new(input: R, shape: Option<Shape>) -> Self {
        PuzzleReader {
            input,
            shape,
            line_no: 0,
            buf: String::new(),
        }
    }

    /// Reads the next line into `self.buf` without its line ending; `false` at the end.
    fn next_line(&mut self) -> std::io::Result<bool> {
        self.buf.clear();
        if self.input.read_line(&mut self.buf)? == 0 {
            return Ok(false);
        }
        self.line_no += 1;
        let kept = self.buf.trim_end_matches(['\n', '\r']).len();
        self.buf.truncate(kept);
        Ok(true)
    }

    /// Reads `rows - 1` more lines after `first` and returns them joined with
    /// `\n`, or an error naming the row (1-based within the block) that was
    /// missing or too long.
    fn read_block(
        &mut self,
        first: String,
        rows: usize,
        width: usize,
    ) -> Result<String, ParseError> {
        let mut text = first;
        for row in 1..rows {
            let more = self.next_line().map_err(|e| ParseError {
                line: row + 1,
                column: 0,
                reason: format!("cannot read: {e}"),
            })?;
            if !more || self.buf.trim().is_empty() {
                return Err(ParseError {
                    line: 1,
                    column: 0,
                    reason: format!(
                        "puzzle ends after {row} rows, expected {rows} rows of {width}"
                    ),
                });
            }
            let len = self.buf.trim_end().chars().count();
            if len > width {
                return Err(ParseError {
                    line: row + 1,
                    column: width + 1,
                    reason: format!("row {} has {len} characters, expected {width}", row + 1),
                });
            }
            text.push('\n');
            text.push_str(&self.buf);
        }
        Ok(text)
    }

    /// Works out the shape and layout of a puzzle from its first line: how
    /// many rows its block has (1 for a one-line puzzle) and their width.
    fn layout(&self, first: &str) -> (Shape, usize, usize) {
        let len = first.trim_end().chars().count();
        let trimmed_len = first.trim().chars().count();
        match &self.shape {
            Some(shape) => {
                let (rows, width) = shape_layout(shape);
                if trimmed_len == rows * width || len == rows * width {
                    (*shape, 1, rows * width)
                } else {
                    (*shape, rows, width)
                }
            }
            None => match trimmed_len {
                9 => (Shape::classic(), 9, 9),
                16..=21 if len > 16 => (Shape::Samurai, 21, 21),
                n => match Shape::detect(n) {
                    Some(shape) => (shape, 1, n),
                    // Unknown length: most files are 9x9 lines, so let the
                    // 9x9 parser explain what is wrong with it.
                    None => (Shape::classic(), 1, 81),
                },
            },
        }
    }
}

/// The rows and columns of a shape's square layout.
fn shape_layout(shape: &Shape) -> (usize, usize) {
    match shape {
        Shape::Samurai => (21, 21),
        Shape::Square { size, .. } => (*size, *size),
    }
}

impl<R: BufRead> Iterator for PuzzleReader<R> {
    type Item = std::io::Result<Entry>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            match self.next_line() {
                Err(e) => return Some(Err(e)),
                Ok(false) => return None,
                Ok(true) => {}
            }
            let trimmed = self.buf.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') && !self.starts_samurai_line() {
                continue;
            }
            let start = self.line_no;
            let first = std::mem::take(&mut self.buf);
            let (shape, rows, width) = self.layout(&first);
            let text = if rows == 1 {
                Ok(first.trim().to_string())
            } else {
                self.read_block(first, rows, width)
            };
            // Errors carry the line within the puzzle; make it the input's.
            let puzzle = text.and_then(|t| Board::parse(&t, shape)).map_err(|mut e| {
                e.line = start + e.line.saturating_sub(1);
                e
            });
            return Some(Ok(Entry {
                line: start,
                puzzle,
            }));
        }
    }
}

impl<R> PuzzleReader<R> {
    /// A one-line Samurai puzzle never starts with `#` (its first cell is in
    /// the top-left grid), so `#` at the start of a line is a comment unless
    /// the shape is fixed to Samurai and the line is 441 characters long.
    fn starts_samurai_line(&self) -> bool {
        self.shape == Some(Shape::Samurai) && self.buf.trim().chars().count() == 441
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    fn read(text: &str, shape: Option<Shape>) -> Vec<Entry> {
        PuzzleReader::new(text.as_bytes(), shape)
            .collect::<std::io::Result<Vec<_>>>()
            .unwrap()
    }

    #[test]
    fn lines_comments_and_blanks() {
        let text = format!("# a comment\n\n{P}\r\n{}\n", P.replace('.', "0"));
        let entries = read(&text, None);
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].line, 3);
        assert_eq!(entries[1].line, 4);
        assert_eq!(entries[0].puzzle, entries[1].puzzle);
    }

    #[test]
    fn nine_line_block() {
        let block: Vec<&str> = (0..9).map(|r| &P[r * 9..r * 9 + 9]).collect();
        let text = format!("{}\n\n{P}\n", block.join("\n"));
        let entries = read(&text, None);
        assert_eq!(entries.len(), 2);
        assert_eq!(entries[0].puzzle, entries[1].puzzle);
        assert_eq!(entries[1].line, 11);
    }

    #[test]
    fn bad_line_is_reported_and_reading_goes_on() {
        let bad = format!("{}x{}", &P[..4], &P[5..]);
        let text = format!("{P}\n{bad}\n{}\n{P}\n", &P[..80]);
        let entries = read(&text, None);
        assert_eq!(entries.len(), 4);
        let e = entries[1].puzzle.clone().unwrap_err();
        assert_eq!((e.line, e.column), (2, 5));
        let e = entries[2].puzzle.clone().unwrap_err();
        assert_eq!(e.line, 3);
        assert!(e.to_string().contains("too short"), "{e}");
        assert!(entries[3].puzzle.is_ok());
    }

    #[test]
    fn error_in_a_block_names_its_row() {
        let mut rows: Vec<String> = (0..9).map(|r| P[r * 9..r * 9 + 9].to_string()).collect();
        rows[4].replace_range(2..3, "?");
        let text = format!("\n{}\n", rows.join("\n"));
        let entries = read(&text, None);
        let e = entries[0].puzzle.clone().unwrap_err();
        assert_eq!((e.line, e.column), (6, 3), "{e}");
    }

    #[test]
    fn short_block_is_an_error() {
        let text = format!("{}\n{}\n\n{P}\n", &P[..9], &P[9..18]);
        let entries = read(&text, None);
        assert_eq!(entries.len(), 2);
        assert!(entries[0]
            .puzzle
            .clone()
            .unwrap_err()
            .reason
            .contains("ends after 2 rows"));
        assert!(entries[1].puzzle.is_ok());
    }
}
