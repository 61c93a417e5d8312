//! The photo side of sudoku-snap: from an image to the puzzles printed on
//! it, each decided, and the answer drawn back onto the image.
//!
//! ```no_run
//! use snap_vision::{decide_grid, grid_kind, GridKind, Reader};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let reader = Reader::new(None, None)?; // the embedded digit model
//! let bytes = std::fs::read("puzzle.jpg")?;
//! let mut page = reader.read_bytes(&bytes, None)?;
//! for grid in &page.grids {
//!     let decision = decide_grid(grid, &[]); // `&[(cell, digit)]` corrects cells
//!     if grid_kind(grid, &decision) == GridKind::Puzzle {
//!         if let Some(answer) = decision.solution() {
//!             println!("{}", answer.to_line());
//!         }
//!     }
//! }
//! let photo = page.photo.take_rgb(); // draw on it with `draw_digits`
//! # let _ = photo;
//! # Ok(())
//! # }
//! ```
//!
//! # What the crate offers
//!
//! - **Reading**: a [`Reader`] (holds the digit model) reads a photo's bytes,
//!   a photo file, or an image already decoded (a PDF page) into a [`Page`]:
//!   every puzzle found, in reading order, as a [`GridReading`] made of
//!   square [`PartReading`]s (one, or five for a Samurai) and a
//!   [`CellEvidence`] per cell; [`Timings`] per stage; [`ReadError`] when
//!   no grid is found or the input is not an image. A rendered PDF page
//!   goes to [`Reader::read_pdf_page`], which reads it from its drawing
//!   when it can.
//! - **Deciding**: [`decide_grid`] turns a reading into a [`Decision`] (the
//!   puzzle, its repairs, the solver's outcome, a calibrated confidence and
//!   a [`Verdict`]), with cells the user corrects; [`grid_kind`] says what
//!   the grid is ([`GridKind`]: a puzzle, an answer grid, a table that is
//!   no puzzle, a grid cut by the edge). [`SURE`] and [`SOLVED_CONFIDENCE`]
//!   are the two probabilities behind the words "unsure cell" and "solved".
//! - **Drawing**: [`draw_digits`], [`mark_cells`], [`shade_cells`] and
//!   [`strike_candidates`] draw onto the photo in the grid's perspective,
//!   [`caption`] adds lines of text under it.
//! - **Photos and PDF pages**: [`decode`] and [`read_file`] (and
//!   [`has_photo_signature`], which tells a photo by its first bytes) with their
//!   limits ([`MAX_FILE_BYTES`], [`MAX_PIXELS`]); [`PdfDoc`] renders a
//!   book's pages one at a time ([`DEFAULT_DPI`], [`DPI_RANGE`],
//!   [`MAX_RENDER_PIXELS`], [`MAX_PDF_BYTES`]; [`render_pixels`] tells a
//!   render's size beforehand), each page measured before it is rendered
//!   ([`MAX_IMAGE_PIXELS`], [`MAX_DECODED_BYTES`], [`MAX_OPERATIONS`]), and
//!   [`PageRange`] parses `--pages 3-10,12`; [`declared_dimensions`] reads
//!   a photo's size from its header alone.
//! - **What the classifier saw**: each tile ([`Tile`]) and its [`CLASSES`]
//!   probabilities, summed up by [`best_kind`] as a [`CellKind`].
//! - **Geometry**: a grid's outline is a [`Quad`]; a part's
//!   [`Homography`] maps its square onto the photo.
//!
//! # Inside
//!
//! Every stage is a private module with plain data in and out; the data
//! passed between them lives in one module that imports no stage, and the
//! pipeline only chains the stages and times each one:
//!
//! ```text
//! bytes --decode--> Decoded (gray + rgb, EXIF tag reported, not applied)
//!       --locate--> every grid's Quad (outer corners, photo pixels, sub-pixel)
//!       --layout--> puzzles (a lone grid, or five grids as a Samurai)
//!       --rectify--> a square gray image per grid + grid-to-photo homography
//!       --cells--> one normalised tile per cell, cut along the grid's lines
//!       --classify--> per-cell class probabilities (ONNX model, tract)
//!       --evidence--> what each cell holds (the grid's own print as reference)
//!       --decide--> Decision (puzzle as a Board, repair, solver outcome)
//!       --kind--> what the grid is (puzzle, answer grid, table, cut)
//!       --overlay--> the photo with the missing digits drawn in
//! ```
//!
//! A PDF page is rendered into the same pixels as a decoded photo, and a
//! book's pages are written back out with the answers drawn in. A page
//! whose grids are drawn as lines with text clues is read from its drawing
//! instead ([`Reader::read_pdf_page`]), exactly, with the rendered pixels
//! as the check: any doubt and the page is read from its pixels (PDF
//! pages and the drawing, with the default `pdf` feature).

#![warn(missing_docs, unreachable_pub, unnameable_types)]

mod cells;
mod classify;
mod data;
mod debug;
mod decide;
mod decode;
mod evidence;
mod geometry;
mod guide;
mod halving_pool;
mod histogram;
mod kind;
mod layout;
mod locate;
mod overlay;
#[cfg(feature = "pdf")]
mod pdf;
#[cfg(feature = "pdf")]
mod pdf_answers;
mod pipeline;
mod rectify;
mod ruled;
mod tint;
#[cfg(feature = "pdf")]
mod vector;

#[cfg(test)]
mod tests;

// Reading a photo or a page.
pub use data::{CellEvidence, GridReading, PartReading};
pub use guide::{Corners, Guide};
pub use pipeline::{Page, ReadError, Reader, Timings, PAGE_SEARCH_SHAPES};

// Deciding a puzzle and what a grid is.
pub use data::{Change, Check, Decision, EntryCheck, PenCell, Verdict};
pub use decide::{FAINT_PEN, SOLVED_CONFIDENCE, SURE, WRONG_SURE};
pub use kind::{grid_kind, kind_as_read, GridKind};
pub use pipeline::decide_grid;

// Drawing on the photo.
pub use overlay::{
    caption, draw_digits, drawn_areas, mark_cells, shade_cells, strike_candidates, OverlayError,
};

// Photos and PDF pages, and their limits.
pub use decode::{
    declared_dimensions, decode, has_photo_signature, read_file, DecodeError, Decoded,
    MAX_FILE_BYTES, MAX_PIXELS,
};
#[cfg(feature = "pdf")]
pub use pdf::{
    render_pixels, PageImage, PageRange, PageRangeError, PdfDoc, PdfError, DEFAULT_DPI, DPI_RANGE,
    MAX_DECODED_BYTES, MAX_IMAGE_PIXELS, MAX_OPERATIONS, MAX_PDF_BYTES, MAX_RENDER_PIXELS,
    POINTS_PER_INCH,
};
#[cfg(feature = "pdf")]
pub use pdf_answers::{answered_pdf, PageAnswers, PartAnswers};
#[cfg(feature = "pdf")]
pub use vector::Drawing;

// What the classifier saw.
pub use classify::{best_kind, CellKind, ModelSource, OcrError};
pub use data::{Tile, CLASSES};

// Geometry.
pub use geometry::{corner_error, Homography, Quad};
