//! The photo side of sudoku-snap: from image bytes to a decided puzzle, and
//! the answer drawn back.
//!
//! Every stage is a module with plain data in and out; [`pipeline`] only
//! chains them and times each one:
//!
//! ```text
//! bytes --decode--> Decoded (gray + rgb, EXIF tag reported, not applied)
//!       --locate--> Quad (outer corners, photo pixels, sub-pixel)
//!       --rectify--> Rectified (square gray grid + photo-to-grid homography)
//!       --cells--> Cells (one normalised tile per cell, lines cut along)
//!       --classify--> per-cell class probabilities (ONNX model, tract)
//!       --evidence--> what each cell holds (the grid's own print as reference)
//!       --decide--> Decision (puzzle as a Board, repair, solver outcome)
//!       --overlay--> the photo with the missing digits drawn in
//! ```
//!
//! [`pdf`] renders PDF pages, one at a time, into the same pixels as `decode`.

pub mod cells;
pub mod classify;
pub mod debug;
pub mod decide;
pub mod decode;
pub mod evidence;
pub mod geometry;
pub mod guide;
pub mod layout;
pub mod locate;
pub mod overlay;
pub mod pdf;
pub mod pipeline;
pub mod rectify;

pub use geometry::{corner_error, Homography, Quad};
