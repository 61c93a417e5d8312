//! The photo pipeline: chains the stages and times each one.
//!
//! ```text
//! bytes -> decode -> locate -> rectify -> cells -> classify (+ orientation)
//!       -> decide (repair) -> solve -> overlay
//! ```
//!
//! Nothing here does image work of its own; each stage lives in its module
//! and this one only passes plain data along.

use std::path::{Path, PathBuf};
use std::time::Instant;

use image::GrayImage;

use crate::cells::{self, Cells, Tile};
use crate::classify::{kind_probs, Classifier, OcrError, CLASSES};
use crate::debug;
use crate::decide::{self, CellProbs, Decision, CELLS};
use crate::decode::{self, DecodeError, Decoded};
use crate::geometry::{Homography, Quad};
use crate::locate;
use crate::rectify::{self, GRID_PX};

/// Time spent in each stage, in milliseconds, in the order they ran.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Timings(pub Vec<(&'static str, f64)>);

impl Timings {
    /// Records the time since `start` under `stage`, and returns now.
    pub fn lap(&mut self, stage: &'static str, start: Instant) -> Instant {
        let now = Instant::now();
        self.0.push((stage, (now - start).as_secs_f64() * 1000.0));
        now
    }

    /// Time of one stage, if it ran.
    pub fn get(&self, stage: &str) -> Option<f64> {
        self.0.iter().find(|(s, _)| *s == stage).map(|&(_, ms)| ms)
    }

    /// Sum of all stages.
    pub fn total(&self) -> f64 {
        self.0.iter().map(|(_, ms)| ms).sum()
    }
}

/// Serialised as `{stage: ms, ..., "total": ms}` in the order the stages ran,
/// to the microsecond.
impl serde::Serialize for Timings {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len() + 1))?;
        for (stage, ms) in &self.0 {
            map.serialize_entry(stage, &round_ms(*ms))?;
        }
        map.serialize_entry("total", &round_ms(self.total()))?;
        map.end()
    }
}

fn round_ms(ms: f64) -> f64 {
    (ms * 1000.0).round() / 1000.0
}

/// Why a photo could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The file could not be opened or read.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The bytes are not a usable image.
    #[error("{0}")]
    Decode(#[from] DecodeError),
    /// No Sudoku grid was found in the image.
    #[error("no Sudoku grid found")]
    NoGrid,
    /// The digit model failed.
    #[error("{0}")]
    Model(#[from] OcrError),
}

/// A photo read into cell probabilities.
#[derive(Debug, Clone)]
pub struct Reading {
    /// The decoded photo, pixels as stored.
    pub photo: Decoded,
    /// The grid's outer corners in photo pixels, labelled for the upright grid
    /// (tl is the top-left corner of the puzzle as it reads).
    pub quad: Quad,
    /// Clockwise quarter turns that make the stored grid upright.
    pub quarter_turns: u8,
    /// How many orientations were classified before one was chosen (1 for
    /// most photos; up to 4).
    pub orientations_tried: u8,
    /// Maps the upright rectified grid (`GRID_PX` square) onto the photo.
    pub grid_to_photo: Homography,
    /// The 81 tiles, upright, as the classifier saw them.
    pub tiles: Box<[Tile; CELLS]>,
    /// The classifier's probabilities per cell, upright order.
    pub classes: Vec<[f32; CLASSES]>,
    /// Time per stage.
    pub timings: Timings,
}

impl Reading {
    /// Per-cell probabilities over empty and 1-9.
    pub fn cell_probs(&self) -> [CellProbs; CELLS] {
        std::array::from_fn(|i| decide::cell_probs(&self.classes[i]))
    }
}

/// Reads photos: holds the digit model, loaded once per process.
pub struct Reader {
    classifier: Classifier,
    debug_dir: Option<PathBuf>,
}

impl Reader {
    /// A reader with the embedded model, or the model file at `model`.
    pub fn new(model: Option<&Path>, debug_dir: Option<&Path>) -> Result<Reader, OcrError> {
        let classifier = match model {
            Some(path) => Classifier::from_file(path)?,
            None => Classifier::embedded()?,
        };
        // The first run of a tract plan sets up its scratch buffers; doing
        // it here keeps that one-off cost in model loading, not in the
        // first photo's read time.
        classifier.classify(&cells::blank_tiles()[..])?;
        Ok(Reader {
            classifier,
            debug_dir: debug_dir.map(Path::to_path_buf),
        })
    }

    /// Reads the photo at `path`.
    pub fn read_file(&self, path: &Path) -> Result<Reading, ReadError> {
        let bytes = decode::read_file(path).map_err(ReadError::Io)?;
        let debug = self.debug_dir.as_ref().map(|d| d.join(debug_name(path)));
        self.read_bytes(&bytes, debug.as_deref())
    }

    /// Reads a photo from its encoded bytes. `debug` is a folder for the
    /// intermediate images, if wanted.
    pub fn read_bytes(&self, bytes: &[u8], debug: Option<&Path>) -> Result<Reading, ReadError> {
        let mut timings = Timings::default();
        let start = Instant::now();
        let photo = decode::decode(bytes).map_err(ReadError::Decode)?;
        let t = timings.lap("decode", start);
        // With a debug folder, the detailed search also returns its
        // threshold and candidate images; otherwise skip building them.
        let (found, search) = match debug {
            Some(_) => {
                let (located, search) = locate::locate_detailed(&photo.gray);
                (located.map(|l| l.quad), Some(search))
            }
            None => (locate::locate(&photo.gray), None),
        };
        let t = timings.lap("locate", t);
        if let (Some(dir), Some(search)) = (debug, &search) {
            // Best effort: debug images must never turn a result into an error.
            let _ = debug::write_search(dir, search);
        }
        let Some(quad) = found else {
            if let Some(dir) = debug {
                let _ = debug::write_debug_images(dir, None, Some((&photo.gray, None)), None, None);
            }
            return Err(ReadError::NoGrid);
        };
        let rectified = rectify::rectify(&photo.gray, &quad).ok_or(ReadError::NoGrid)?;
        let t = timings.lap("rectify", t);
        let cells = cells::extract_cells(&rectified.image);
        let t = timings.lap("cells", t);
        let (quarter_turns, orientations_tried, tiles, classes) =
            self.orient(&cells, photo.exif_orientation)?;
        timings.lap("classify", t);
        if let Some(dir) = debug {
            let _ = write_debug(dir, &photo.gray, &quad, &rectified.image, &cells);
        }
        let quad = quad.rotated(quarter_turns);
        let grid_to_photo =
            Homography::square_to_quad(GRID_PX as f64, &quad).ok_or(ReadError::NoGrid)?;
        Ok(Reading {
            photo,
            quad,
            quarter_turns,
            orientations_tried,
            grid_to_photo,
            tiles,
            classes,
            timings,
        })
    }

    /// Finds the rotation that makes the grid read as upright digits, and
    /// returns it with the rotated tiles and their probabilities.
    ///
    /// The stored orientation is tried first (it is right for nearly every
    /// photo, and the EXIF tag cannot be trusted: see the fixtures' README),
    /// then the rotation the EXIF tag suggests, then the rest. A reading
    /// whose every inked cell is a confident upright digit ends the search
    /// early, so upright photos pay for one batch only.
    #[allow(clippy::type_complexity)]
    fn orient(
        &self,
        cells: &Cells,
        exif: u8,
    ) -> Result<(u8, u8, Box<[Tile; CELLS]>, Vec<[f32; CLASSES]>), ReadError> {
        let hint = match exif {
            6 => 1, // the camera says: turn 90 degrees clockwise to view
            3 => 2,
            8 => 3,
            _ => 0,
        };
        let mut order = vec![0u8, hint];
        order.extend([1u8, 2, 3].iter().filter(|&&k| k != hint));
        order.dedup();
        let mut best: Option<(f32, u8, Box<[Tile; CELLS]>, Vec<[f32; CLASSES]>)> = None;
        let mut tried = 0u8;
        for k in order {
            tried += 1;
            let tiles = if k == 0 {
                let mut t = cells::blank_tiles();
                t.copy_from_slice(&cells.tiles[..]);
                t
            } else {
                cells::rotate_tiles(&cells.tiles, k)
            };
            let classes = self
                .classifier
                .classify(&tiles[..])
                .map_err(ReadError::Model)?;
            let (score, confident) = upright_score(&classes);
            if best.as_ref().is_none_or(|b| score > b.0) {
                best = Some((score, k, tiles, classes));
            }
            if confident {
                break;
            }
        }
        match best {
            Some((_, k, tiles, classes)) => Ok((k, tried, tiles, classes)),
            None => Err(ReadError::NoGrid),
        }
    }
}

/// How much a reading looks like upright glyphs: the mean log probability
/// of each inked cell's best upright glyph (a printed digit or letter, or a
/// pen digit), where "other ink" (a rotated glyph) counts against it. Empty
/// cells and pencil candidates (small marks that look much the same turned)
/// are left out. Also whether it is sure enough to stop looking at other
/// rotations: at least 8 inked cells, and at least 90% of them confident
/// upright glyphs. One unsure cell (a blurred clue) must not cost three more
/// batches; a turned grid fails the test by far, because turned 3s, 4s and
/// 7s (and every digit at 90 degrees) read as other ink.
fn upright_score(classes: &[[f32; CLASSES]]) -> (f32, bool) {
    let mut sum = 0.0f32;
    let mut inked = 0usize;
    let mut sure = 0usize;
    for row in classes {
        let p = kind_probs(row);
        if p.empty + p.pencil >= 0.5 {
            continue;
        }
        inked += 1;
        let glyph = p.upright_glyph();
        sum += glyph.max(1e-6).ln();
        if glyph >= 0.9 && p.other <= 0.05 {
            sure += 1;
        }
    }
    if inked == 0 {
        return (f32::NEG_INFINITY, false);
    }
    (sum / inked as f32, inked >= 8 && sure * 10 >= inked * 9)
}

fn debug_name(path: &Path) -> String {
    path.file_stem()
        .map_or_else(|| "photo".to_string(), |s| s.to_string_lossy().into_owned())
}

fn write_debug(
    dir: &Path,
    gray: &GrayImage,
    quad: &Quad,
    rect: &GrayImage,
    cells: &Cells,
) -> image::ImageResult<()> {
    debug::write_debug_images(dir, None, Some((gray, Some(quad))), Some(rect), Some(cells))
}

/// A photo taken all the way: read, decided (repaired), solved.
#[derive(Debug, Clone)]
pub struct Solved {
    /// What was read.
    pub reading: Reading,
    /// The puzzle decided from it, with the solver's outcome.
    pub decision: Decision,
}

/// Decides and solves a reading. `overrides` are the user's `--set` cells.
pub fn solve_reading(mut reading: Reading, overrides: &[(usize, u8)], repair: bool) -> Solved {
    let start = Instant::now();
    let decision = decide::decide(&reading.cell_probs(), overrides, repair);
    reading.timings.lap("solve", start);
    Solved { reading, decision }
}
