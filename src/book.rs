//! Printable PDF books: a book of puzzles with the answers at the back, and
//! the answer key of a book that was read.
//!
//! Written with `pdf-writer` (MIT OR Apache-2.0, the Typst project's PDF
//! writer): typed PDF objects and content streams, four small dependencies,
//! and the standard Helvetica fonts by name, so digits are real text and the
//! books are vector PDFs that print sharp at any size and stay a few
//! kilobytes a page. (`krilla` needs an embedded font file for any text;
//! `printpdf` brings a layout engine and a PDF parser we have no use for.)
//!
//! Pages are A4: the paper size of most of the world, and the grids are laid
//! out with margins wide enough (48 pt) that a Letter printer's
//! fit-to-page scaling changes them by only 6%.

use std::path::Path;

use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect, Ref, Str};
use snap_solver::{digit_char, Board, Shape, SAMURAI_GRIDS};

use crate::output::{write_atomic, WriteError};

/// A4 in PDF points (1/72 inch).
const PAGE_W: f32 = 595.28;
const PAGE_H: f32 = 841.89;
/// Page margin on every side.
const MARGIN: f32 = 48.0;
/// Room above the grids for the running title, and below them for the page
/// number.
const HEADER: f32 = 24.0;
const FOOTER: f32 = 20.0;
/// Height of the label line above each grid ("Puzzle 12").
const LABEL: f32 = 16.0;
/// Text sizes, points.
const TITLE_SIZE: f32 = 11.0;
const LABEL_SIZE: f32 = 10.0;
const FOLIO_SIZE: f32 = 9.0;
/// Digit height as a share of a cell: large enough to read at a glance and
/// to be read back by the photo reader, with a clear margin to the lines.
const DIGIT_SHARE: f32 = 0.62;
/// Line widths: cell lines thin, box lines and the border bold, as printed
/// puzzles are; the reader looks for the bold outer frame.
const THIN_LINE: f32 = 0.6;
const BOX_LINE: f32 = 2.0;
/// Grey of the digits the solver filled in on answer pages (0 black, 1
/// white): distinct from the bold black givens, still dark enough to print.
const FILLED_GREY: f32 = 0.35;

/// Helvetica's cap height (AFM `CapHeight`), in thousandths of the size:
/// digits are centred on half of it.
const CAP_HEIGHT: f32 = 0.718;

/// Advance widths (thousandths of the size) of the printable ASCII
/// characters 32..=126 in Helvetica and Helvetica-Bold, from the standard
/// Adobe font metrics (AFM), used to centre text.
const HELVETICA_WIDTHS: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
    556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667,
    611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
    667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500,
    222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];
const HELVETICA_BOLD_WIDTHS: [u16; 95] = [
    278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
    556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611, 975, 722, 722, 722, 722, 667,
    611, 778, 722, 278, 556, 722, 611, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
    667, 611, 333, 278, 333, 584, 556, 333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556,
    278, 889, 611, 611, 611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584,
];

/// One solved grid of a book that was read, for the answer key.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyEntry {
    /// Page of the book, 1-based.
    pub page: usize,
    /// Grid on that page, 1-based, in reading order.
    pub grid: usize,
    /// The puzzle as read (its givens).
    pub givens: Board,
    /// Its solution.
    pub solution: Board,
}

/// Writes a printable puzzle book to `path`: the puzzles numbered from 1,
/// six 9x9 puzzles a page (two columns, three rows; 16x16 and Samurai one a
/// page), then the answers, smaller and more to a page, under the same
/// numbers. `puzzles` holds each puzzle with its solution. Written
/// atomically; an existing file is replaced only with `force`.
pub fn write_puzzle_book(
    path: &Path,
    puzzles: &[(Board, Board)],
    title: &str,
    force: bool,
) -> Result<(), WriteError> {
    write_atomic(path, &puzzle_book(puzzles, title), force, &[])
}

/// The puzzle book of [`write_puzzle_book`], as PDF bytes.
pub fn puzzle_book(puzzles: &[(Board, Board)], title: &str) -> Vec<u8> {
    let mut book = Book::new(title);
    let questions: Vec<Tile> = puzzles
        .iter()
        .enumerate()
        .map(|(i, (puzzle, _))| Tile {
            label: format!("Puzzle {}", i + 1),
            givens: puzzle,
            filled: None,
        })
        .collect();
    book.flow(&questions, Size::Puzzle);
    let answers: Vec<Tile> = puzzles
        .iter()
        .enumerate()
        .map(|(i, (puzzle, solution))| Tile {
            label: format!("Answer {}", i + 1),
            givens: puzzle,
            filled: Some(solution),
        })
        .collect();
    book.flow(&answers, Size::Answer);
    book.finish()
}

/// The answer key of a book that was read, as PDF bytes: the solution of
/// every solved grid, labelled with its page and grid number ("p. 12 #3"),
/// twelve 9x9 grids to a page; givens bold black, the digits to fill in
/// grey. A person with the book wants to check a puzzle or look up one
/// cell, and a key does that on one sheet per dozen puzzles; the solved
/// book (the pages with the answers drawn in) is written beside it.
pub fn answer_key(entries: &[KeyEntry], title: &str) -> Vec<u8> {
    let mut book = Book::new(title);
    let tiles: Vec<Tile> = entries
        .iter()
        .map(|e| Tile {
            label: format!("p. {} #{}", e.page, e.grid),
            givens: &e.givens,
            filled: Some(&e.solution),
        })
        .collect();
    book.flow(&tiles, Size::Answer);
    book.finish()
}

/// One grid to place: its label, the givens (bold black) and, on answer
/// pages, the solution whose other digits are drawn grey.
struct Tile<'a> {
    label: String,
    givens: &'a Board,
    filled: Option<&'a Board>,
}

/// Puzzle pages (large grids to write in) or answer pages (small grids).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Size {
    Puzzle,
    Answer,
}

/// Columns and rows of grids on one page, for a shape and a size. 9x9
/// puzzles six a page (2 x 3) give 3-inch grids, the size of a newspaper
/// puzzle; bigger shapes need the page to themselves for writable cells.
fn grid_layout(shape: &Shape, size: Size) -> (usize, usize) {
    let small = matches!(shape, Shape::Square { size: n, .. } if *n <= 9);
    match (small, size) {
        (true, Size::Puzzle) => (2, 3),
        (true, Size::Answer) => (3, 4),
        (false, Size::Puzzle) => (1, 1),
        (false, Size::Answer) => (2, 2),
    }
}

/// The two fonts every page uses, by their resource names.
const REGULAR: Name = Name(b"F1");
const BOLD: Name = Name(b"F2");

/// A PDF being laid out: pages are written as they fill, so only one page's
/// content is held at a time besides the output buffer.
struct Book {
    pdf: Pdf,
    title: String,
    page_ids: Vec<Ref>,
    next_id: i32,
    catalog: Ref,
    tree: Ref,
    regular: Ref,
    bold: Ref,
}

impl Book {
    fn new(title: &str) -> Book {
        let mut pdf = Pdf::new();
        let (catalog, tree, regular, bold) = (Ref::new(1), Ref::new(2), Ref::new(3), Ref::new(4));
        // WinAnsi is the standard 8-bit encoding of the base-14 fonts; every
        // character we write is ASCII (see `pdf_text`).
        pdf.type1_font(regular)
            .base_font(Name(b"Helvetica"))
            .encoding_predefined(Name(b"WinAnsiEncoding"));
        pdf.type1_font(bold)
            .base_font(Name(b"Helvetica-Bold"))
            .encoding_predefined(Name(b"WinAnsiEncoding"));
        Book {
            pdf,
            title: pdf_text(title),
            page_ids: Vec::new(),
            next_id: 5,
            catalog,
            tree,
            regular,
            bold,
        }
    }

    fn alloc(&mut self) -> Ref {
        let id = Ref::new(self.next_id);
        self.next_id += 1;
        id
    }

    /// Places `tiles` in reading order, as many pages as they need; a
    /// change of layout (a different shape) starts a new page.
    fn flow(&mut self, tiles: &[Tile], size: Size) {
        let mut start = 0;
        while start < tiles.len() {
            let (cols, rows) = grid_layout(&tiles[start].givens.shape, size);
            let same = tiles[start..]
                .iter()
                .take(cols * rows)
                .take_while(|t| grid_layout(&t.givens.shape, size) == (cols, rows))
                .count();
            self.page(&tiles[start..start + same], cols, rows);
            start += same;
        }
    }

    /// Writes one page holding `tiles` in a `cols` x `rows` layout.
    fn page(&mut self, tiles: &[Tile], cols: usize, rows: usize) {
        let mut content = Content::new();
        let folio = self.page_ids.len() + 1;
        text_centred(
            &mut content,
            REGULAR,
            TITLE_SIZE,
            PAGE_W / 2.0,
            PAGE_H - MARGIN,
            &self.title,
        );
        text_centred(
            &mut content,
            REGULAR,
            FOLIO_SIZE,
            PAGE_W / 2.0,
            MARGIN - FOLIO_SIZE,
            &folio.to_string(),
        );
        let top = PAGE_H - MARGIN - HEADER;
        let bottom = MARGIN + FOOTER;
        let cell_w = (PAGE_W - 2.0 * MARGIN) / cols as f32;
        let cell_h = (top - bottom) / rows as f32;
        // Square grids as large as the slot allows, less a gutter between
        // neighbours (a tenth of a slot) so that each grid stands alone.
        let side = (cell_w * 0.9).min((cell_h - LABEL) * 0.9);
        for (i, tile) in tiles.iter().enumerate() {
            let (col, row) = (i % cols, i / cols);
            let x = MARGIN + cell_w * col as f32 + (cell_w - side) / 2.0;
            let slot_top = top - cell_h * row as f32;
            let grid_top = slot_top - LABEL - (cell_h - LABEL - side) / 2.0;
            text_left(
                &mut content,
                BOLD,
                LABEL_SIZE,
                x,
                grid_top + 5.0,
                &tile.label,
            );
            draw_board(&mut content, tile, x, grid_top, side);
        }
        let id = self.alloc();
        let content_id = self.alloc();
        let mut page = self.pdf.page(id);
        page.parent(self.tree)
            .media_box(Rect::new(0.0, 0.0, PAGE_W, PAGE_H))
            .contents(content_id);
        page.resources()
            .fonts()
            .pair(REGULAR, self.regular)
            .pair(BOLD, self.bold);
        page.finish();
        let raw = content.finish();
        let packed = miniz_oxide::deflate::compress_to_vec_zlib(&raw, 6);
        self.pdf
            .stream(content_id, &packed)
            .filter(Filter::FlateDecode);
        self.page_ids.push(id);
    }

    fn finish(mut self) -> Vec<u8> {
        if self.page_ids.is_empty() {
            // A PDF needs at least one page: an empty book says so.
            self.page(&[], 1, 1);
        }
        let count = self.page_ids.len() as i32;
        self.pdf
            .pages(self.tree)
            .kids(self.page_ids.iter().copied())
            .count(count);
        self.pdf.catalog(self.catalog).pages(self.tree);
        self.pdf.finish()
    }
}

/// Draws a board with its top-left corner at (`x`, `top`), `side` points
/// square: cell lines, box lines, the border, and the digits.
fn draw_board(content: &mut Content, tile: &Tile, x: f32, top: f32, side: f32) {
    let shape = tile.givens.shape;
    let n = shape.side();
    let cell = side / n as f32;
    match shape {
        Shape::Square {
            size,
            box_rows,
            box_cols,
        } => draw_lines(content, x, top, cell, size, box_rows, box_cols),
        Shape::Samurai => {
            for (r, c) in SAMURAI_GRIDS {
                let (gx, gy) = (x + c as f32 * cell, top - r as f32 * cell);
                draw_lines(content, gx, gy, cell, 9, 3, 3);
            }
        }
    }
    let size = cell * DIGIT_SHARE / CAP_HEIGHT;
    for (i, &given) in tile.givens.cells.iter().enumerate() {
        let filled = tile
            .filled
            .map_or(0, |s| s.cells.get(i).copied().unwrap_or(0));
        let (value, font) = match (given, filled) {
            (0, 0) => continue,
            (0, v) => (v, REGULAR),
            (g, _) => (g, BOLD),
        };
        if !shape.contains(i) {
            continue;
        }
        let (r, c) = (i / n, i % n);
        let cx = x + (c as f32 + 0.5) * cell;
        let cy = top - (r as f32 + 0.5) * cell;
        let grey = if font == REGULAR { FILLED_GREY } else { 0.0 };
        content.set_fill_gray(grey);
        text_centred(
            content,
            font,
            size,
            cx,
            cy - size * CAP_HEIGHT / 2.0,
            &digit_char(value).to_string(),
        );
        content.set_fill_gray(0.0);
    }
}

/// Cell lines (thin) then box lines and the border (bold) of one
/// `size` x `size` grid of `box_rows` x `box_cols` boxes.
fn draw_lines(
    content: &mut Content,
    x: f32,
    top: f32,
    cell: f32,
    size: usize,
    box_rows: usize,
    box_cols: usize,
) {
    let side = cell * size as f32;
    for (width, row_step, col_step) in [(THIN_LINE, 1, 1), (BOX_LINE, box_rows, box_cols)] {
        content.set_line_width(width);
        for k in (0..=size).step_by(row_step) {
            let y = top - k as f32 * cell;
            content.move_to(x, y).line_to(x + side, y);
        }
        for k in (0..=size).step_by(col_step) {
            let lx = x + k as f32 * cell;
            content.move_to(lx, top).line_to(lx, top - side);
        }
        content.stroke();
    }
    // Square corners where the bold border lines meet.
    content
        .set_line_width(BOX_LINE)
        .rect(x, top - side, side, side)
        .stroke();
}

/// `text` (ASCII) with its left end at `x` on baseline `y`.
fn text_left(content: &mut Content, font: Name, size: f32, x: f32, y: f32, text: &str) {
    let text = pdf_text(text);
    content
        .begin_text()
        .set_font(font, size)
        .next_line(x, y)
        .show(Str(text.as_bytes()))
        .end_text();
}

/// `text` centred on `x`, baseline `y`.
fn text_centred(content: &mut Content, font: Name, size: f32, x: f32, y: f32, text: &str) {
    let width = text_width(text, font == BOLD) * size;
    text_left(content, font, size, x - width / 2.0, y, text);
}

/// Width of `text` at size 1 in Helvetica (or Helvetica-Bold).
fn text_width(text: &str, bold: bool) -> f32 {
    let table = if bold {
        &HELVETICA_BOLD_WIDTHS
    } else {
        &HELVETICA_WIDTHS
    };
    pdf_text(text)
        .bytes()
        .map(|b| f32::from(table[usize::from(b - 32)]) / 1000.0)
        .sum()
}

/// `text` as the fonts can show it: printable ASCII kept, anything else
/// (control characters, letters beyond WinAnsi's ASCII part) as `?`, so a
/// title never writes bytes the font would show as something else.
fn pdf_text(text: &str) -> String {
    text.chars()
        .map(|c| if (' '..='~').contains(&c) { c } else { '?' })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use snap_vision::PdfDoc;

    fn board(line: &str) -> Board {
        Board::parse(line, Shape::classic()).unwrap()
    }

    const PUZZLE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    const SOLUTION: &str =
        "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

    fn pages(bytes: Vec<u8>) -> usize {
        PdfDoc::from_bytes(bytes, Path::new("book.pdf"))
            .unwrap()
            .page_count()
    }

    #[test]
    fn six_puzzles_a_page_then_twelve_answers_a_page() {
        let pair = (board(PUZZLE), board(SOLUTION));
        let book = |n: usize| puzzle_book(&vec![pair.clone(); n], "Test");
        assert_eq!(pages(book(6)), 2);
        assert_eq!(pages(book(13)), 3 + 2);
        assert_eq!(pages(book(0)), 1, "an empty book is still a PDF");
        let bytes = book(1);
        // Standard fonts by name: text, not outlines or images.
        let text = String::from_utf8_lossy(&bytes);
        assert!(text.contains("/BaseFont /Helvetica-Bold"), "{text}");
        assert!(!text.contains("/FontFile"));
    }

    #[test]
    fn bigger_shapes_take_a_page_each_and_a_change_of_shape_starts_a_page() {
        let big = Board::empty(Shape::square(16).unwrap());
        let samurai = Board::empty(Shape::Samurai);
        let classic = board(PUZZLE);
        let book = puzzle_book(
            &[
                (classic.clone(), classic.clone()),
                (big.clone(), big.clone()),
                (samurai.clone(), samurai.clone()),
            ],
            "Mixed",
        );
        // Puzzles: classic, 16x16, Samurai; answers: classic, 16x16 +
        // Samurai (two a row, two rows, same layout).
        assert_eq!(pages(book), 3 + 2);
    }

    #[test]
    fn the_key_takes_twelve_solutions_a_page() {
        let entry = KeyEntry {
            page: 3,
            grid: 2,
            givens: board(PUZZLE),
            solution: board(SOLUTION),
        };
        assert_eq!(pages(answer_key(&vec![entry.clone(); 12], "Key")), 1);
        assert_eq!(pages(answer_key(&vec![entry; 25], "Key")), 3);
        assert!(String::from_utf8_lossy(&answer_key(&[], "Key")).starts_with("%PDF"));
    }

    #[test]
    fn text_is_measured_and_kept_to_ascii() {
        assert_eq!(pdf_text("Pâte\n1"), "P?te?1");
        assert!((text_width("11", false) - 1.112).abs() < 1e-6);
        assert!((text_width("A", true) - 0.722).abs() < 1e-6);
    }

    #[test]
    fn books_are_written_atomically_and_not_over_a_file_without_force() {
        let dir = std::env::temp_dir().join(format!("sudoku-snap-book-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("book.pdf");
        let pair = [(board(PUZZLE), board(SOLUTION))];
        write_puzzle_book(&path, &pair, "Test", false).unwrap();
        assert!(matches!(
            write_puzzle_book(&path, &pair, "Another", false),
            Err(WriteError::Exists(_))
        ));
        // The same book again is the file already there: nothing to do.
        write_puzzle_book(&path, &pair, "Test", false).unwrap();
        write_atomic(&path, &answer_key(&[], "Key"), true, &[]).unwrap();
        assert_eq!(pages(std::fs::read(&path).unwrap()), 1);
        assert_eq!(
            std::fs::read_dir(&dir).unwrap().count(),
            1,
            "no temporary file left"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
