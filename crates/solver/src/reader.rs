//! Reading puzzle files: a stream of puzzles, each one line or a block of lines.
//!
//! Accepted per puzzle (blank lines, comment lines and lines of box rules
//! such as `+-------+` between puzzles are skipped):
//! - one line holding every cell: 81 characters for 9x9, 256 for 16x16, 625
//!   for 25x25, 441 for Samurai (16 for a 4x4);
//! - a block of rows: 9 lines of 9 characters, N lines of N for NxN (when
//!   `--shape` says so), or 21 lines of up to 21 characters for Samurai (spaces
//!   or `#` outside the five grids; trailing spaces may be missing);
//! - the same with the cells of a square set apart by spaces, commas or `|`
//!   (`5 3 . | . 7 . | . . .`, `5,3,0,0,7,0,0,0,0`), as people type them and
//!   as the tool displays grids: then the cells are counted, not the
//!   characters, so a row of 9 cells is a 9x9 row (and 16 a 16x16 row)
//!   whatever its width, and rule lines between bands are skipped. A
//!   Samurai displayed the same way (each row listing its cells inside the
//!   five grids, 18 in the first row, blank lines between bands) is read
//!   too. A `?` right after a cell (`read`'s mark of an unsure cell) is
//!   skipped.
//!
//! A *comment* is a line whose first non-space character is `#`, except a
//! line that could be a one-line Samurai: exactly 441 characters, all of
//! them Samurai characters (digits, `.`, `0`, `_`, `#`, space). Such a line
//! is read as a puzzle (its first cell, r1c1, can never be `#`, so it is
//! reported as invalid rather than skipped without a word).
//!
//! The reader never holds more than one puzzle's text, and never more than
//! [`MAX_LINE_BYTES`] of one line, so any input streams in constant memory.
//! Every line that is not blank or a comment ends up in exactly one
//! [`Entry`]: a malformed puzzle, a line that is not UTF-8 and a line that is
//! too long each become an entry with an error naming the line, and reading
//! goes on with the next line. A row that cannot belong to the block being
//! read is not swallowed: the block ends before it and the row starts the
//! next entry.
//!
//! [`SicilyReader`] reads the Sicily 1317 judge format the same way, one
//! puzzle at a time.

use std::io::BufRead;

use crate::board::{
    is_cell_separator, is_rule_line, plural, spaced_cells, Board, ParseError, UNSURE_MARK,
};
use crate::shape::Shape;

/// Longest line read, in bytes (without its line ending). The longest
/// puzzle line there is, a 35x35 square on one line, has 1,225 characters;
/// 64 KiB leaves ample room for spaces and long comments while a line's
/// buffer stays small. The rest of a longer line is read and dropped
/// without being kept, and the line becomes an `invalid:` entry.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// The UTF-8 encoding of U+FEFF, the byte order mark.
const UTF8_BOM: &[u8] = b"\xEF\xBB\xBF";

/// Characters of a one-line Samurai puzzle.
const SAMURAI_LINE: usize = 441;

/// Cells in the first row of a Samurai (its two top grids' rows): a spaced
/// first row of this many cells starts a Samurai.
const SAMURAI_FIRST_ROW: usize = 18;

/// Side of a Samurai's layout, and so the most characters a row has.
const SAMURAI_SIDE: usize = 21;

/// A puzzle read from the input, or why it could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// 1-based line where the puzzle starts (0 for an error about the input
    /// as a whole, see [`SicilyReader`]).
    pub line: usize,
    /// The puzzle, or the error with its line (and column when known) in the input.
    pub puzzle: Result<Board, ParseError>,
}

/// What one line of input turned out to be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LineKind {
    /// UTF-8 text of at most [`MAX_LINE_BYTES`], in `Lines::text`.
    Text,
    /// Bytes that are not UTF-8; `Lines::text` is empty.
    NotUtf8,
    /// More than [`MAX_LINE_BYTES`] bytes; `Lines::text` is empty.
    TooLong,
}

/// The lines of an input, read with a bound on their length, one at a time,
/// with room to give the last line back.
struct Lines<R> {
    input: R,
    /// 1-based number of the current line (0 before the first).
    number: usize,
    bytes: Vec<u8>,
    /// The current line without its line ending.
    text: String,
    kind: LineKind,
    /// The current line was given back and is the next one to read.
    pending: bool,
}

impl<R: BufRead> Lines<R> {
    fn new(input: R) -> Self {
        Lines {
            input,
            number: 0,
            bytes: Vec::new(),
            text: String::new(),
            kind: LineKind::Text,
            pending: false,
        }
    }

    /// Moves to the next line; `false` at the end of the input.
    fn advance(&mut self) -> std::io::Result<bool> {
        if self.pending {
            self.pending = false;
            return Ok(true);
        }
        self.text.clear();
        let Some(mut total) = read_bounded_line(&mut self.input, &mut self.bytes)? else {
            return Ok(false);
        };
        self.number += 1;
        // A UTF-8 byte order mark (editors on Windows write one) opens the
        // text, it is not part of its first line.
        if self.number == 1 && self.bytes.starts_with(UTF8_BOM) {
            self.bytes.drain(..UTF8_BOM.len());
            total -= UTF8_BOM.len();
        }
        let stored = self.bytes.len();
        while self.bytes.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
            self.bytes.pop();
        }
        // A line longer than the bound was only partly stored.
        self.kind = if total > stored || self.bytes.len() > MAX_LINE_BYTES {
            LineKind::TooLong
        } else {
            match std::str::from_utf8(&self.bytes) {
                Ok(text) => {
                    self.text.push_str(text);
                    LineKind::Text
                }
                Err(_) => LineKind::NotUtf8,
            }
        };
        Ok(true)
    }

    /// Makes the current line the next one [`Lines::advance`] returns.
    fn give_back(&mut self) {
        self.pending = true;
    }

    /// The error for the current line when it is not text.
    fn kind_error(&self) -> Option<ParseError> {
        let reason = match self.kind {
            LineKind::Text => return None,
            LineKind::NotUtf8 => "not UTF-8".to_string(),
            LineKind::TooLong => format!("too long: more than {MAX_LINE_BYTES} bytes"),
        };
        Some(ParseError {
            line: self.number,
            column: 0,
            reason,
        })
    }

    /// True when the current line holds nothing but spaces.
    fn is_blank(&self) -> bool {
        self.kind == LineKind::Text && self.text.trim().is_empty()
    }
}

/// Reads one line, newline included, into `out`, storing at most
/// [`MAX_LINE_BYTES`] + 2 bytes (room for `\r\n`) and dropping the rest of
/// a longer line as it is read. Returns the line's full length in bytes, or
/// `None` at the end of the input.
fn read_bounded_line(
    input: &mut impl BufRead,
    out: &mut Vec<u8>,
) -> std::io::Result<Option<usize>> {
    out.clear();
    let mut total = 0usize;
    loop {
        let available = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            return Ok((total > 0).then_some(total));
        }
        let (take, done) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (available.len(), false),
        };
        let room = (MAX_LINE_BYTES + 2).saturating_sub(out.len());
        out.extend_from_slice(&available[..take.min(room)]);
        total = total.saturating_add(take);
        input.consume(take);
        if done {
            return Ok(Some(total));
        }
    }
}

/// Streams the puzzles of a text input. `shape` fixes the shape; `None`
/// detects it from each puzzle's length.
pub struct PuzzleReader<R> {
    lines: Lines<R>,
    shape: Option<Shape>,
}

/// How a puzzle is laid out, decided from its first line.
enum Layout {
    /// `rows` lines of at most `width` cells each (see [`row_width`]; 1
    /// row: the one-line form).
    Rows(Shape, usize, usize),
    /// The line fits no form of the fixed shape.
    Mismatch(ParseError),
}

/// How wide a row of `shape` is: its cells for a square (separators and
/// unsure marks not counted), and for a Samurai its cells when spaced, else
/// its characters (spaces there are outside positions).
fn row_width(line: &str, shape: Shape) -> usize {
    match shape {
        Shape::Square { .. } => cell_count(line),
        Shape::Samurai => {
            spaced_cells(line).map_or_else(|| line.trim_end().chars().count(), |c| c.len())
        }
    }
}

/// The characters of a line that are not separators or unsure marks.
fn cell_count(line: &str) -> usize {
    line.chars()
        .filter(|&c| !is_cell_separator(c) && c != UNSURE_MARK)
        .count()
}

impl<R: BufRead> PuzzleReader<R> {
    /// A reader over `input`; `shape` as given by `--shape`, or `None` to detect.
    pub fn new(input: R, shape: Option<Shape>) -> Self {
        PuzzleReader {
            lines: Lines::new(input),
            shape,
        }
    }

    /// Reads `rows - 1` more rows after `first` and returns them joined with
    /// `\n`, or an error for a block that ends early. Rule lines between a
    /// square's bands are kept but not counted, and so are the blank lines
    /// between a spaced Samurai's bands. A row that cannot be part of the
    /// block (blank, too wide, not text) ends it and is given back, so that
    /// it is read again as the start of what follows.
    fn read_block(
        &mut self,
        first: String,
        shape: Shape,
        rows: usize,
        width: usize,
    ) -> std::io::Result<Result<String, ParseError>> {
        let square = matches!(shape, Shape::Square { .. });
        let gaps = shape == Shape::Samurai && spaced_cells(&first).is_some();
        let mut text = first;
        let mut row = 1;
        while row < rows {
            let more = self.lines.advance()?;
            if more && self.lines.kind == LineKind::Text {
                let line = &self.lines.text;
                if (square && !self.lines.is_blank() && is_rule_line(line))
                    || (gaps && self.lines.is_blank())
                {
                    continue;
                }
            }
            let fits = more
                && self.lines.kind == LineKind::Text
                && !self.lines.is_blank()
                && row_width(&self.lines.text, shape) <= width;
            if !fits {
                if more && !self.lines.is_blank() {
                    self.lines.give_back();
                }
                return Ok(Err(ParseError {
                    line: 1,
                    column: 0,
                    reason: format!(
                        "puzzle ends after {}, expected {rows} rows of {width}",
                        plural(row, "row")
                    ),
                }));
            }
            text.push('\n');
            text.push_str(&self.lines.text);
            row += 1;
        }
        Ok(Ok(text))
    }

    /// Works out the shape and layout of a puzzle from its first line: how
    /// many rows its block has (1 for a one-line puzzle) and their width.
    fn layout(&self, first: &str) -> Layout {
        match &self.shape {
            Some(shape) => fixed_layout(first, *shape),
            None => detected_layout(first),
        }
    }

    /// True when the current line is a comment (see the module notes).
    fn is_comment(&self) -> bool {
        let trimmed = self.lines.text.trim();
        trimmed.starts_with('#')
            && !(matches!(self.shape, None | Some(Shape::Samurai))
                && could_be_samurai_line(trimmed))
    }
}

/// The layout of a puzzle of the given shape starting with `first`.
fn fixed_layout(first: &str, shape: Shape) -> Layout {
    let side = shape.side();
    let len = first.trim_end().chars().count();
    let trimmed_len = first.trim().chars().count();
    let (whole, width, what) = match shape {
        Shape::Square { .. } => {
            let cells = cell_count(first);
            (cells == shape.cell_count(), cells, "cells")
        }
        Shape::Samurai => (
            trimmed_len == shape.cell_count() || len == shape.cell_count(),
            row_width(first, shape),
            "characters",
        ),
    };
    if whole {
        Layout::Rows(shape, 1, shape.cell_count())
    } else if width <= side {
        Layout::Rows(shape, side, side)
    } else {
        // Neither a whole puzzle nor a row: say so, rather than take the
        // following lines as the rest of a block.
        Layout::Mismatch(ParseError {
            line: 1,
            column: 0,
            reason: format!(
                "{width} {what}: a {} puzzle is one line of {} or {side} rows of {side}",
                shape.name(),
                shape.cell_count()
            ),
        })
    }
}

/// The shape and layout of a puzzle starting with `first`, from its length
/// (see the module notes).
fn detected_layout(first: &str) -> Layout {
    let one_line = |shape: Shape| Layout::Rows(shape, 1, shape.cell_count());
    let by_cells = |cells: usize| match Shape::square(cells) {
        Some(shape) => Layout::Rows(shape, cells, cells),
        None => one_line(Shape::detect(cells).unwrap_or_else(Shape::classic)),
    };
    if let Some(cells) = spaced_cells(first) {
        return if cells.len() == SAMURAI_FIRST_ROW {
            Layout::Rows(Shape::Samurai, SAMURAI_SIDE, SAMURAI_SIDE)
        } else {
            by_cells(cells.len())
        };
    }
    let len = first.trim_end().chars().count();
    let trimmed = first.trim();
    if trimmed.chars().any(is_cell_separator) {
        // Cells in groups (`53. .7. ...`, `530|070|000`), or a Samurai's
        // first row with spaces outside its grids.
        let cells = cell_count(first);
        let samurai =
            cells == SAMURAI_FIRST_ROW && len == SAMURAI_SIDE && !trimmed.contains([',', '|']);
        return if samurai {
            Layout::Rows(Shape::Samurai, SAMURAI_SIDE, SAMURAI_SIDE)
        } else {
            by_cells(cells)
        };
    }
    match trimmed.chars().count() {
        9 => Layout::Rows(Shape::classic(), 9, 9),
        16..=21 if len > 16 => Layout::Rows(Shape::Samurai, SAMURAI_SIDE, SAMURAI_SIDE),
        // Unknown length: most files are 9x9 lines, so let the 9x9 parser
        // explain what is wrong with it.
        n => one_line(Shape::detect(n).unwrap_or_else(Shape::classic)),
    }
}

/// True when `text` has the length of a one-line Samurai and only its characters.
fn could_be_samurai_line(text: &str) -> bool {
    text.chars().count() == SAMURAI_LINE
        && text
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | '_' | '#' | ' '))
}

impl<R: BufRead> Iterator for PuzzleReader<R> {
    type Item = std::io::Result<Entry>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            match self.lines.advance() {
                Err(e) => return Some(Err(e)),
                Ok(false) => return None,
                Ok(true) => {}
            }
            let start = self.lines.number;
            if let Some(e) = self.lines.kind_error() {
                return Some(Ok(Entry {
                    line: start,
                    puzzle: Err(e),
                }));
            }
            if self.lines.is_blank() || self.is_comment() || is_rule_line(&self.lines.text) {
                continue;
            }
            let first = std::mem::take(&mut self.lines.text);
            let text = match self.layout(&first) {
                Layout::Mismatch(e) => Err(e),
                Layout::Rows(shape, 1, _) => Ok((shape, first.trim().to_string())),
                Layout::Rows(shape, rows, width) => {
                    match self.read_block(first, shape, rows, width) {
                        Err(e) => return Some(Err(e)),
                        Ok(block) => block.map(|t| (shape, t)),
                    }
                }
            };
            // Errors carry the line within the puzzle; make it the input's.
            let puzzle = text
                .and_then(|(shape, t)| Board::parse(&t, shape))
                .map_err(|mut e| {
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

/// Streams the puzzles of the Sicily 1317 judge format: a line with the
/// number of puzzles, then 9 lines of 9 characters per puzzle (`_` for an
/// empty cell; blank lines anywhere are skipped). Each puzzle is an
/// [`Entry`], good or bad, so one bad puzzle costs only its own answer.
///
/// A header that is not a number is an error entry, and the puzzles after
/// it are still read (to the end of the input). Puzzles beyond the number
/// announced are not read, as the judge does; an input that ends before
/// the number announced gives one last error entry saying so.
///
/// Entries about the input as a whole rather than one puzzle (a bad header,
/// puzzles missing at the end) have [`Entry::line`] 0; their error names the line.
pub struct SicilyReader<R> {
    lines: Lines<R>,
    /// Puzzles announced by the header (`None` before it is read, or when it is bad).
    announced: Option<usize>,
    header_read: bool,
    /// Puzzles returned so far.
    returned: usize,
    done: bool,
}

impl<R: BufRead> SicilyReader<R> {
    /// A reader over `input`.
    pub fn new(input: R) -> Self {
        SicilyReader {
            lines: Lines::new(input),
            announced: None,
            header_read: false,
            returned: 0,
            done: false,
        }
    }

    /// The next line that is not blank (or not text); `false` at the end.
    fn next_non_blank(&mut self) -> std::io::Result<bool> {
        while self.lines.advance()? {
            if !self.lines.is_blank() {
                return Ok(true);
            }
        }
        Ok(false)
    }

    /// Reads the count line; an error entry when it is not a number.
    fn read_header(&mut self) -> std::io::Result<Option<Entry>> {
        self.header_read = true;
        if !self.next_non_blank()? {
            return Ok(None);
        }
        let line = self.lines.number;
        let found = self.lines.text.trim();
        match found.parse::<usize>() {
            Ok(n) if self.lines.kind == LineKind::Text => {
                self.announced = Some(n);
                Ok(None)
            }
            _ => {
                let reason = match self.lines.kind_error() {
                    Some(e) => e.reason,
                    None => format!("expected the number of puzzles, found {found:?}"),
                };
                Ok(Some(Entry {
                    line: 0,
                    puzzle: Err(ParseError {
                        line,
                        column: 0,
                        reason,
                    }),
                }))
            }
        }
    }

    /// Reads one puzzle of 9 rows; `None` at the end of the input.
    fn read_puzzle(&mut self) -> std::io::Result<Option<Entry>> {
        let mut cells = String::with_capacity(81);
        let mut start = 0;
        let mut first_error: Option<ParseError> = None;
        for row in 0..9 {
            if !self.next_non_blank()? {
                if row == 0 {
                    return Ok(None);
                }
                let e = ParseError {
                    line: start,
                    column: 0,
                    reason: format!(
                        "puzzle ends after {}, expected 9 rows of 9",
                        plural(row, "row")
                    ),
                };
                return Ok(Some(Entry {
                    line: start,
                    puzzle: Err(first_error.unwrap_or(e)),
                }));
            }
            if row == 0 {
                start = self.lines.number;
            }
            let number = self.lines.number;
            let row_text = self.lines.text.trim();
            let width = row_text.chars().count();
            let error = match self.lines.kind_error() {
                Some(e) => Some(e),
                None if width != 9 => Some(ParseError {
                    line: number,
                    column: 0,
                    reason: format!("row {} has {width} characters, expected 9", row + 1),
                }),
                None => {
                    cells.push_str(row_text);
                    None
                }
            };
            // The row still counts as one of the 9, so the next puzzle
            // starts where it should.
            if first_error.is_none() {
                first_error = error;
            }
        }
        let puzzle = match first_error {
            Some(e) => Err(e),
            None => Board::parse(&cells, Shape::classic()).map_err(|mut e| {
                // The error is about the joined rows: name the input's line.
                let index = e.column.saturating_sub(1);
                e.line = start + index / 9;
                e.column = index % 9 + 1;
                e
            }),
        };
        Ok(Some(Entry {
            line: start,
            puzzle,
        }))
    }
}

impl<R: BufRead> Iterator for SicilyReader<R> {
    type Item = std::io::Result<Entry>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        if !self.header_read {
            match self.read_header() {
                Err(e) => return Some(Err(e)),
                Ok(Some(entry)) => return Some(Ok(entry)),
                Ok(None) => {}
            }
        }
        if self.announced.is_some_and(|n| self.returned >= n) {
            self.done = true;
            return None;
        }
        match self.read_puzzle() {
            Err(e) => Some(Err(e)),
            Ok(Some(entry)) => {
                self.returned += 1;
                Some(Ok(entry))
            }
            Ok(None) => {
                self.done = true;
                let missing = self.announced.filter(|&n| self.returned < n)?;
                Some(Ok(Entry {
                    line: 0,
                    puzzle: Err(ParseError {
                        line: 0,
                        column: 0,
                        reason: format!(
                            "the input ends after {} of the {missing} puzzles announced",
                            self.returned
                        ),
                    }),
                }))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const P: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    fn read(text: &str, shape: Option<Shape>) -> Vec<Entry> {
        read_bytes(text.as_bytes(), shape)
    }

    fn read_bytes(bytes: &[u8], shape: Option<Shape>) -> Vec<Entry> {
        PuzzleReader::new(bytes, shape)
            .collect::<std::io::Result<Vec<_>>>()
            .unwrap()
    }

    fn empty_samurai_line() -> String {
        Board::empty(Shape::Samurai).to_line()
    }

    fn error(entry: &Entry) -> String {
        entry.puzzle.clone().unwrap_err().to_string()
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
        rows[4].replace_range(2..3, "x");
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
        assert!(error(&entries[0]).contains("ends after 2 rows"));
        assert!(entries[1].puzzle.is_ok());
    }

    #[test]
    fn a_line_that_is_not_utf8_is_one_invalid_entry() {
        let mut bytes = format!("{P}\n").into_bytes();
        bytes.extend_from_slice(b"4....\xff..\n");
        bytes.extend_from_slice(format!("{P}\n").as_bytes());
        let entries = read_bytes(&bytes, None);
        assert_eq!(entries.len(), 3);
        assert!(entries[0].puzzle.is_ok());
        assert_eq!(error(&entries[1]), "line 2: not UTF-8");
        assert!(entries[2].puzzle.is_ok());
        assert_eq!(entries[2].line, 3);
    }

    #[test]
    fn a_byte_order_mark_opens_the_text_and_is_not_a_cell() {
        let bytes = format!("\u{feff}{P}\n{P}\n").into_bytes();
        let entries = read_bytes(&bytes, None);
        assert_eq!(entries.len(), 2);
        assert!(entries.iter().all(|e| e.puzzle.is_ok()), "{entries:?}");
        // Only at the very start: elsewhere it is a character like any other.
        let later = format!("{P}\n\u{feff}{P}\n").into_bytes();
        assert!(read_bytes(&later, None)[1].puzzle.is_err());
        let rows: String = (0..9)
            .map(|r| format!("{}\n", &P[r * 9..r * 9 + 9]))
            .collect();
        let sicily = format!("\u{feff}1\n{}", rows.replace('.', "_"));
        let entries: Vec<Entry> = SicilyReader::new(sicily.as_bytes())
            .collect::<std::io::Result<_>>()
            .unwrap();
        assert!(entries[0].puzzle.is_ok(), "{entries:?}");
    }

    #[test]
    fn a_bad_row_inside_a_block_starts_the_next_entry() {
        let mut bytes = format!("{}\n{}\n", &P[..9], &P[9..18]).into_bytes();
        bytes.extend_from_slice(b"\xfe\xfe\n");
        bytes.extend_from_slice(format!("{P}\n").as_bytes());
        let entries = read_bytes(&bytes, None);
        assert_eq!(entries.len(), 3, "{entries:?}");
        assert!(error(&entries[0]).contains("ends after 2 rows"));
        assert_eq!(error(&entries[1]), "line 3: not UTF-8");
        assert!(entries[2].puzzle.is_ok());
    }

    #[test]
    fn an_overlong_line_is_dropped_unkept_and_reported() {
        let long = "1".repeat(MAX_LINE_BYTES + 10);
        let text = format!("{P}\n{long}\n{P}\n");
        let entries = read(&text, None);
        assert_eq!(entries.len(), 3);
        assert!(
            error(&entries[1]).starts_with("line 2: too long"),
            "{}",
            error(&entries[1])
        );
        assert!(entries[2].puzzle.is_ok());
        // Exactly at the bound is still read (and then fails as a puzzle).
        let at_bound = "1".repeat(MAX_LINE_BYTES);
        let entries = read(&format!("{at_bound}\r\n"), None);
        assert!(error(&entries[0]).contains("too long: 65536 positions"));
    }

    #[test]
    fn a_fixed_shape_never_swallows_the_lines_that_follow() {
        let samurai = empty_samurai_line();
        let text = format!("{samurai}\n{samurai}\n{samurai}\n");
        let entries = read(&text, Some(Shape::classic()));
        assert_eq!(entries.len(), 3, "every line answered: {entries:?}");
        for (i, e) in entries.iter().enumerate() {
            assert_eq!(e.line, i + 1);
            assert!(
                error(e).contains("441 cells: a 9x9 puzzle is one line of 81"),
                "{}",
                error(e)
            );
        }
        let text = format!("{P}\n{P}\n{P}\n");
        let entries = read(&text, Shape::square(16));
        assert_eq!(entries.len(), 3);
        assert!(entries.iter().all(|e| e.puzzle.is_err()));
    }

    #[test]
    fn a_samurai_line_starting_with_hash_is_a_puzzle_not_a_comment() {
        let mut line = empty_samurai_line();
        line.replace_range(0..1, "#");
        for shape in [None, Some(Shape::Samurai)] {
            let entries = read(&format!("# a real comment\n{line}\n"), shape);
            assert_eq!(entries.len(), 1, "{shape:?}");
            assert_eq!(entries[0].line, 2);
            let e = entries[0].puzzle.clone().unwrap_err();
            assert_eq!((e.line, e.column), (2, 1), "{e}");
        }
        // A commented-out puzzle (one character longer) stays a comment.
        assert!(read(&format!("#{}\n", empty_samurai_line()), None).is_empty());
    }

    /// A solved board of `shape` from the shared benchmark files' kind:
    /// the test's own puzzle solved (9x9), or every cell filled in by the
    /// solver (others).
    fn full(shape: Shape) -> Board {
        let start = if shape == Shape::classic() {
            Board::parse(P, shape).unwrap()
        } else {
            Board::empty(shape)
        };
        crate::solve(&start, 1).unwrap().first().unwrap().clone()
    }

    #[test]
    fn what_people_type_and_paste_is_read() {
        let puzzle = Board::parse(P, Shape::classic()).unwrap();
        let rows: Vec<String> = (0..9).map(|r| P[r * 9..r * 9 + 9].to_string()).collect();
        let spaced: Vec<String> = rows
            .iter()
            .map(|r| r.chars().map(String::from).collect::<Vec<_>>().join(" "))
            .collect();
        let commas: Vec<String> = rows
            .iter()
            .map(|r| {
                r.replace('.', "0")
                    .chars()
                    .map(String::from)
                    .collect::<Vec<_>>()
                    .join(",")
            })
            .collect();
        let grouped: Vec<String> = rows
            .iter()
            .map(|r| format!("{} {} {}", &r[..3], &r[3..6], &r[6..]))
            .collect();
        let one_spaced = spaced.join(" ");
        let bordered = format!(
            "+-------+-------+-------+\n{}\n+-------+-------+-------+\n",
            puzzle
                .to_pretty()
                .lines()
                .filter(|l| !l.starts_with('-'))
                .map(|l| format!("| {l} |"))
                .collect::<Vec<_>>()
                .join("\n")
        );
        for text in [
            spaced.join("\n"),
            commas.join("\n"),
            grouped.join("\n"),
            one_spaced,
            puzzle.to_pretty(),
            bordered,
        ] {
            let entries = read(&format!("{text}\n\n{P}\n"), None);
            assert_eq!(entries.len(), 2, "{text}\n{entries:?}");
            assert_eq!(entries[0].puzzle, Ok(puzzle.clone()), "{text}");
            assert_eq!(entries[1].puzzle, Ok(puzzle.clone()), "{text}");
        }
    }

    #[test]
    fn the_tools_own_displays_read_back_in_every_shape() {
        for shape in [
            Shape::classic(),
            Shape::square(16).unwrap(),
            Shape::square(25).unwrap(),
            Shape::Samurai,
        ] {
            let mut board = full(shape);
            // Some cells emptied, some marked as unsure.
            let mut marked = vec![false; board.cells.len()];
            for i in (0..board.cells.len()).step_by(7) {
                board.cells[i] = 0;
                marked[(i + 3) % board.cells.len()] = true;
            }
            for text in [board.to_pretty(), board.to_pretty_marked(&marked)] {
                let input = format!("# a comment\n{text}\n{text}");
                let entries = read(&input, None);
                assert_eq!(entries.len(), 2, "{}: {entries:?}", shape.name());
                for e in &entries {
                    assert_eq!(e.puzzle, Ok(board.clone()), "{}\n{text}", shape.name());
                }
                // With the shape given too.
                let entries = read(&input, Some(shape));
                assert!(entries.iter().all(|e| e.puzzle == Ok(board.clone())));
            }
        }
    }

    #[test]
    fn a_mark_that_follows_no_cell_is_an_error() {
        let text = format!("5 3 ? . 7 . . . .\n{}", "1 . . . . . . . .\n".repeat(8));
        let entries = read(&text, None);
        let e = entries[0].puzzle.clone().unwrap_err();
        assert_eq!((e.line, e.column), (1, 5), "{e}");
        assert!(e.reason.contains("follows no cell"), "{e}");
    }

    #[test]
    fn sicily_puzzles_stream_and_a_bad_one_costs_only_itself() {
        let rows = |p: &str| -> String {
            (0..9)
                .map(|r| format!("{}\n", &p[r * 9..r * 9 + 9]))
                .collect()
        };
        let good = P.replace('.', "_");
        let mut bad = good.clone();
        bad.replace_range(20..21, "x");
        let text = format!("3\n{}\n{}{}", rows(&good), rows(&bad), rows(&good));
        let entries: Vec<Entry> = SicilyReader::new(text.as_bytes())
            .collect::<std::io::Result<_>>()
            .unwrap();
        assert_eq!(entries.len(), 3);
        assert!(entries[0].puzzle.is_ok());
        let e = entries[1].puzzle.clone().unwrap_err();
        assert_eq!((e.line, e.column), (14, 3), "{e}");
        assert!(entries[2].puzzle.is_ok());
    }

    #[test]
    fn sicily_short_input_and_bad_header_are_entries() {
        let good = P.replace('.', "_");
        let rows: String = (0..9)
            .map(|r| format!("{}\n", &good[r * 9..r * 9 + 9]))
            .collect();
        let text = format!("3\n{rows}{}\n", &good[..9]);
        let entries: Vec<Entry> = SicilyReader::new(text.as_bytes())
            .collect::<std::io::Result<_>>()
            .unwrap();
        assert_eq!(entries.len(), 3);
        assert!(entries[0].puzzle.is_ok());
        assert!(error(&entries[1]).contains("ends after 1 row,"));
        assert!(error(&entries[2]).contains("ends after 2 of the 3 puzzles"));
        assert_eq!(entries[2].line, 0, "about the input, not a puzzle");
        let text = format!("three\n{rows}");
        let entries: Vec<Entry> = SicilyReader::new(text.as_bytes())
            .collect::<std::io::Result<_>>()
            .unwrap();
        assert_eq!(entries.len(), 2);
        assert!(error(&entries[0]).contains("expected the number of puzzles"));
        assert!(entries[1].puzzle.is_ok());
    }
}
