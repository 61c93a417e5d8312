//! The digit classifier: a small CNN in ONNX form, run with tract.
//!
//! The model (`models/digits.onnx`, trained by `models/train/`) is embedded in
//! the binary; `--model PATH` may replace it with another file that keeps the
//! same contract:
//!
//! * input `[81, 1, 28, 28]` `f32` tiles as made by [`crate::cells`]
//!   (0.0 background .. 1.0 ink),
//! * output `[81, 28]` `f32` softmax probabilities over the cell classes:
//!
//! | class | what is in the cell |
//! |---|---|
//! | 0 ([`EMPTY`]) | nothing (or dust, a speck, show-through from the back of the page) |
//! | 1..=9 | that digit, **printed** (a clue) |
//! | 10..=16 | printed letter A..G: the values 10..16 of a 16x16 puzzle |
//! | 17..=25 | a **handwritten** (pen) digit 1..9: a person's entry, never a clue |
//! | 26 ([`PENCIL`]) | pencil candidates: several small digits |
//! | 27 ([`OTHER`]) | other ink: a glyph seen rotated, a stroke, a scribble |
//!
//! A printed symbol's class index is its value, so `row[v]` is the
//! probability of a printed clue `v`. [`kind_probs`] sums a row by
//! [`CellKind`].
//!
//! "Other ink" lets the pipeline find the grid's upright orientation: a grid
//! read sideways or upside down produces mostly "other ink" instead of
//! upright glyphs.
//!
//! The batch size is fixed at 81 (one grid) because tract optimises the plan
//! for a concrete shape; [`Classifier::classify`] pads the last batch.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use snap_solver::files::{self, FileLimit};
use tract_onnx::prelude::*;

use crate::data::CLASSES;
use crate::data::{Tile, TILE};

/// Class index of an empty cell.
pub(crate) const EMPTY: usize = 0;
/// Highest printed value the model reads: digits 1-9, then letters A-G as
/// 10-16 (a 16x16 puzzle's symbols). Printed value `v` is class `v`.
pub(crate) const PRINTED_MAX: usize = 16;
/// Handwritten digit `d` (1-9) is class `HAND_BASE + d`.
pub(crate) const HAND_BASE: usize = 16;
/// Class index of pencil candidates: several small digits in one cell.
pub(crate) const PENCIL: usize = 26;
/// Class index of "other ink": a rotated glyph or a mark that is no glyph.
pub(crate) const OTHER: usize = 27;
/// Tiles per model run: one row of a 9x9 grid. The model file's own batch
/// dimension (81 for the shipped one) is replaced by this when the plan is
/// made, so the model must not depend on it (the contract in
/// `models/README.md`).
///
/// Why not a whole grid a run: the buffers of one run of 81 tiles come to
/// about 20 MB, fresh pages the kernel must fault in and zero on every
/// photo of a one-photo process (a third of its page faults, about 3 ms per
/// thousand here), while the buffers of a run of 9 are about 2 MB and are
/// reused by the next run. The grid's runs are spread over the rayon pool.
/// Measured on a 12 MP photo: 16.3k page faults a process with runs of 81,
/// 11.9k with 27, 11.2k with 9.
pub(crate) const BATCH: usize = 9;

/// Largest model file read, in bytes: 64 MiB. The shipped model is 250 KB;
/// a digit classifier for 32 x 32 tiles has no use for hundreds of times
/// more, and tract holds the whole file and then its optimised plan (a
/// multiple of it) in memory.
pub(crate) const MAX_MODEL_BYTES: u64 = 64 << 20;

/// What `--model` is read as (see [`snap_solver::files`]): a regular file
/// (a FIFO would block, `/dev/zero` never ends) of at most
/// [`MAX_MODEL_BYTES`].
pub(crate) const MODEL_FILE: FileLimit = FileLimit {
    noun: "model file",
    plural: "models",
    max_bytes: MAX_MODEL_BYTES,
};

/// The model shipped in the binary.
static EMBEDDED_MODEL: &[u8] = include_bytes!("../../../models/digits.onnx");

/// The model shipped in the binary for 16x16 grids: same contract, trained
/// on photographed 16x16 pages, whose letters are a third of a 9x9's
/// digits and blur into each other where a 9x9's digits stay apart
/// (`models/README.md`).
static EMBEDDED_MODEL_16X16: &[u8] = include_bytes!("../../../models/digits16.onnx");

/// Grid side whose cells the embedded 16x16 model reads.
const SIDE_16X16: usize = 16;

/// Where a model came from, for error messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ModelSource {
    /// The model embedded in the binary.
    Embedded,
    /// The model embedded in the binary for 16x16 grids.
    Embedded16x16,
    /// A model file given by the user.
    File(PathBuf),
}

impl fmt::Display for ModelSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ModelSource::Embedded => write!(f, "embedded model"),
            ModelSource::Embedded16x16 => write!(f, "embedded 16x16 model"),
            ModelSource::File(p) => write!(f, "model file {}", p.display()),
        }
    }
}

/// Why a model could not be loaded or run.
#[derive(Debug)]
pub enum OcrError {
    /// The model file could not be read.
    Read {
        /// The file.
        path: PathBuf,
        /// The underlying I/O error.
        source: std::io::Error,
    },
    /// The bytes are not an ONNX model tract can load and optimise for
    /// an `[81, 1, 28, 28]` input.
    NotAModel {
        /// Which model.
        model: ModelSource,
        /// tract's explanation.
        detail: String,
    },
    /// The model loads but does not keep the input/output contract.
    Contract {
        /// Which model.
        model: ModelSource,
        /// What is wrong.
        detail: String,
    },
    /// Running the model failed.
    Run {
        /// Which model.
        model: ModelSource,
        /// tract's explanation.
        detail: String,
    },
}

impl fmt::Display for OcrError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OcrError::Read { path, source } => {
                write!(f, "model file {}: cannot read it: {source}", path.display())
            }
            OcrError::NotAModel { model, detail } => write!(
                f,
                "{model}: not an ONNX model with a [batch, 1, {TILE}, {TILE}] float input ({detail})"
            ),
            OcrError::Contract { model, detail } => write!(
                f,
                "{model}: does not keep the digit-model contract \
                 (input [batch, 1, {TILE}, {TILE}] f32, output [batch, {CLASSES}] probabilities, \
                 any batch): {detail}"
            ),
            OcrError::Run { model, detail } => write!(f, "{model}: running it failed: {detail}"),
        }
    }
}

impl std::error::Error for OcrError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OcrError::Read { source, .. } => Some(source),
            _ => None,
        }
    }
}

type Plan = Arc<TypedSimplePlan>;

/// A loaded, optimised digit model ready to classify tiles.
///
/// Cheap to clone (the plan is shared) and usable from many threads at once.
#[derive(Clone)]
pub(crate) struct Classifier {
    plan: Plan,
    source: ModelSource,
    /// The model's probabilities for a blank tile, once worked out (see
    /// [`Classifier::classify`]).
    blank: Arc<OnceLock<[f32; CLASSES]>>,
}

impl fmt::Debug for Classifier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Classifier")
            .field("source", &self.source)
            .finish()
    }
}

/// Formats a tract error with its whole cause chain (the top context alone is
/// often just "Translating node #3").
fn chain(e: &TractError) -> String {
    format!("{e:#}")
}

/// Loads and optimises a model for batches of [`BATCH`] tiles.
fn load(bytes: &[u8], source: &ModelSource) -> Result<Plan, OcrError> {
    let not_model = |e: TractError| OcrError::NotAModel {
        model: source.clone(),
        detail: chain(&e),
    };
    let mut reader = bytes;
    let mut model = tract_onnx::onnx()
        .model_for_read(&mut reader)
        .map_err(not_model)?
        .with_input_fact(0, f32::fact([BATCH, 1, TILE, TILE]).into())
        .map_err(not_model)?
        .into_optimized()
        .map_err(not_model)?;
    crate::halving_pool::speed_up(&mut model).map_err(not_model)?;
    let contract = |detail: String| OcrError::Contract {
        model: source.clone(),
        detail,
    };
    if model.inputs.len() != 1 || model.outputs.len() != 1 {
        return Err(contract(format!(
            "it has {} inputs and {} outputs, expected 1 and 1",
            model.inputs.len(),
            model.outputs.len()
        )));
    }
    let out = model.output_fact(0).map_err(|e| contract(chain(&e)))?;
    if out.datum_type != f32::datum_type() || out.shape.as_concrete() != Some(&[BATCH, CLASSES][..])
    {
        return Err(contract(format!(
            "its output is {:?} {:?}, expected F32 [{BATCH}, {CLASSES}]",
            out.datum_type, out.shape
        )));
    }
    model.into_runnable().map_err(|e| OcrError::NotAModel {
        model: source.clone(),
        detail: chain(&e),
    })
}

impl Classifier {
    /// The model embedded in the binary.
    ///
    /// It is loaded and optimised once per process (the first call); later
    /// calls share that plan (and its blank tile's probabilities).
    pub(crate) fn embedded() -> Result<Classifier, OcrError> {
        static EMBEDDED: OnceLock<Result<Classifier, String>> = OnceLock::new();
        Self::embedded_once(&EMBEDDED, EMBEDDED_MODEL, ModelSource::Embedded)
    }

    /// The embedded model that reads the cells of a grid of `n` by `n`:
    /// the 16x16 model for a 16x16, else the model of 9x9 grids (and of a
    /// Samurai's). Each is loaded once per process, at its first use.
    pub(crate) fn embedded_for(n: usize) -> Result<Classifier, OcrError> {
        static EMBEDDED_16X16: OnceLock<Result<Classifier, String>> = OnceLock::new();
        if n == SIDE_16X16 {
            Self::embedded_once(
                &EMBEDDED_16X16,
                EMBEDDED_MODEL_16X16,
                ModelSource::Embedded16x16,
            )
        } else {
            Self::embedded()
        }
    }

    /// The classifier of the embedded `bytes`, loaded into `cell` at the
    /// first call and shared by the later ones.
    fn embedded_once(
        cell: &OnceLock<Result<Classifier, String>>,
        bytes: &[u8],
        source: ModelSource,
    ) -> Result<Classifier, OcrError> {
        // The error is kept as text: OcrError holds an io::Error and is not Clone.
        let classifier = cell.get_or_init(|| {
            let source = source.clone();
            match load(bytes, &source) {
                Ok(plan) => Ok(Classifier {
                    plan,
                    source,
                    blank: Arc::default(),
                }),
                Err(e) => Err(e.to_string()),
            }
        });
        match classifier {
            Ok(classifier) => Ok(classifier.clone()),
            Err(detail) => Err(OcrError::NotAModel {
                model: source,
                detail: detail.clone(),
            }),
        }
    }

    /// A model file given by the user (`--model PATH`); same input/output
    /// contract as the embedded one. Checked with one run on a blank batch,
    /// so a model that outputs logits instead of probabilities is refused.
    pub(crate) fn from_file(path: &Path) -> Result<Classifier, OcrError> {
        let bytes = files::read(path, &MODEL_FILE).map_err(|source| OcrError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        let source = ModelSource::File(path.to_path_buf());
        let classifier = Classifier {
            plan: load(&bytes, &source)?,
            source,
            blank: Arc::default(),
        };
        let probs = classifier.run_batch(&[])?;
        let row = probs.first().copied().unwrap_or([0.0; CLASSES]);
        let sum: f32 = row.iter().sum();
        if row.iter().any(|p| !(0.0..=1.0).contains(p)) || (sum - 1.0).abs() > 1e-3 {
            return Err(OcrError::Contract {
                model: classifier.source,
                detail: format!("outputs for a blank tile are not probabilities: {row:?}"),
            });
        }
        Ok(classifier)
    }

    /// Probabilities per tile, in the order given (any number of tiles; run in
    /// batches of [`BATCH`] on the rayon pool, padding the last).
    ///
    /// A blank tile (no ink at all: the empty cells of a rendered page,
    /// about 30 of a puzzle's 81) is not run again: every blank tile gets
    /// the probabilities the model gave the first one, which are what it
    /// would give each (the same input; a tile's outputs do not depend on
    /// the other tiles of its batch).
    pub(crate) fn classify(&self, tiles: &[Tile]) -> Result<Vec<[f32; CLASSES]>, OcrError> {
        use rayon::prelude::*;
        let blank: Vec<bool> = tiles
            .iter()
            .map(|t| t.pixels.iter().all(|&p| p == 0.0))
            .collect();
        let inked: Vec<Tile> = tiles
            .iter()
            .zip(&blank)
            .filter(|(_, &b)| !b)
            .map(|(t, _)| *t)
            .collect();
        let runs: Vec<Vec<[f32; CLASSES]>> = inked
            .par_chunks(BATCH)
            .map(|chunk| {
                let mut probs = self.run_batch(chunk)?;
                probs.truncate(chunk.len());
                Ok(probs)
            })
            .collect::<Result<_, OcrError>>()?;
        let mut inked = runs.into_iter().flatten();
        let mut out = Vec::with_capacity(tiles.len());
        for &is_blank in &blank {
            let probs = if is_blank {
                self.blank_probs()?
            } else {
                // One row per inked tile, in order: never short.
                inked.next().unwrap_or([0.0; CLASSES])
            };
            out.push(probs);
        }
        Ok(out)
    }

    /// The model's probabilities for a blank tile, run once per model.
    fn blank_probs(&self) -> Result<[f32; CLASSES], OcrError> {
        if let Some(probs) = self.blank.get() {
            return Ok(*probs);
        }
        let rows = self.run_batch(&[Tile::default()])?;
        let probs = rows.first().copied().unwrap_or([0.0; CLASSES]);
        Ok(*self.blank.get_or_init(|| probs))
    }

    /// Runs one padded batch; returns all [`BATCH`] rows.
    fn run_batch(&self, tiles: &[Tile]) -> Result<Vec<[f32; CLASSES]>, OcrError> {
        debug_assert!(tiles.len() <= BATCH);
        let run_err = |e: TractError| OcrError::Run {
            model: self.source.clone(),
            detail: chain(&e),
        };
        // Padding tiles are blank (all background), which costs nothing extra:
        // the plan's shape is fixed anyway.
        let mut data = vec![0f32; BATCH * TILE * TILE];
        for (dst, tile) in data.chunks_exact_mut(TILE * TILE).zip(tiles) {
            dst.copy_from_slice(&tile.pixels);
        }
        let input = Tensor::from_shape(&[BATCH, 1, TILE, TILE], &data).map_err(run_err)?;
        let outputs = self.plan.run(tvec![input.into()]).map_err(run_err)?;
        let view = outputs[0].to_plain_array_view::<f32>().map_err(run_err)?;
        let flat: Vec<f32> = view.iter().copied().collect();
        if flat.len() != BATCH * CLASSES {
            return Err(OcrError::Contract {
                model: self.source.clone(),
                detail: format!(
                    "output has {} values, expected {}",
                    flat.len(),
                    BATCH * CLASSES
                ),
            });
        }
        Ok(flat
            .chunks_exact(CLASSES)
            .map(|row| {
                let mut p = [0f32; CLASSES];
                p.copy_from_slice(row);
                p
            })
            .collect())
    }
}

/// What kind of thing a class (or a cell) is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellKind {
    /// Nothing written or printed.
    Empty,
    /// A printed symbol with its value: 1-9 digits, 10-16 letters A-G.
    Printed(u8),
    /// A handwritten (pen) digit 1-9: a person's entry, never a clue.
    Handwritten(u8),
    /// Pencil candidates.
    Pencil,
    /// Other ink: a rotated glyph, a stroke, a scribble.
    Other,
}

impl CellKind {
    /// The kind of a class index; `None` past the last class.
    pub(crate) fn of_class(class: usize) -> Option<CellKind> {
        // The casts are lossless: every class index is below CLASSES (28).
        match class {
            EMPTY => Some(CellKind::Empty),
            1..=PRINTED_MAX => Some(CellKind::Printed(class as u8)),
            c if (HAND_BASE + 1..=HAND_BASE + 9).contains(&c) => {
                Some(CellKind::Handwritten((c - HAND_BASE) as u8))
            }
            PENCIL => Some(CellKind::Pencil),
            OTHER => Some(CellKind::Other),
            _ => None,
        }
    }
}

/// One row of probabilities summed by kind.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct KindProbs {
    /// Probability of an empty cell.
    pub empty: f32,
    /// `printed[v]`: a printed value `v` (1-16); index 0 is unused (0.0).
    pub printed: [f32; PRINTED_MAX + 1],
    /// `handwritten[d]`: a pen digit `d` (1-9); index 0 is unused (0.0).
    pub handwritten: [f32; 10],
    /// Probability of pencil candidates.
    pub pencil: f32,
    /// Probability of other ink.
    pub other: f32,
}

impl KindProbs {
    /// Probability of any printed symbol.
    pub(crate) fn printed_total(&self) -> f32 {
        self.printed.iter().sum()
    }

    /// Probability of any handwritten digit: the cell holds a pen entry.
    pub(crate) fn handwritten_total(&self) -> f32 {
        self.handwritten.iter().sum()
    }

    /// The most likely handwritten digit and its probability.
    pub(crate) fn best_handwritten(&self) -> (u8, f32) {
        let (d, p) = argmax_from(&self.handwritten, 1);
        (d as u8, p)
    }

    /// Probabilities of the printed clue of a puzzle with values
    /// `1..=max_value`: entry `v` is a printed `v`, entry 0 everything that
    /// is no clue (empty, pen entry, pencil, other ink, and printed symbols
    /// above `max_value`). `max_value + 1` entries that sum to the row's
    /// total; values the model cannot read (above [`PRINTED_MAX`]) get 0.
    pub(crate) fn clue_probs(&self, max_value: usize) -> Vec<f32> {
        let readable = max_value.min(PRINTED_MAX);
        let mut clue = vec![0.0f32; max_value + 1];
        clue[1..=readable].copy_from_slice(&self.printed[1..=readable]);
        clue[0] = self.empty
            + self.pencil
            + self.other
            + self.handwritten_total()
            + self.printed[readable + 1..].iter().sum::<f32>();
        clue
    }

    /// The probability that the cell shows an upright glyph (printed or
    /// handwritten, best single class): what orientation search rewards.
    pub(crate) fn upright_glyph(&self) -> f32 {
        let printed = argmax_from(&self.printed, 1).1;
        let hand = argmax_from(&self.handwritten, 1).1;
        printed.max(hand)
    }
}

/// Index and value of the largest entry of `values[from..]`.
fn argmax_from(values: &[f32], from: usize) -> (usize, f32) {
    values
        .iter()
        .copied()
        .enumerate()
        .skip(from)
        .fold(
            (from, f32::MIN),
            |acc, (i, p)| if p > acc.1 { (i, p) } else { acc },
        )
}

/// Sums a probability row by kind.
pub(crate) fn kind_probs(row: &[f32; CLASSES]) -> KindProbs {
    let mut printed = [0.0f32; PRINTED_MAX + 1];
    printed[1..].copy_from_slice(&row[1..=PRINTED_MAX]);
    let mut handwritten = [0.0f32; 10];
    handwritten[1..].copy_from_slice(&row[HAND_BASE + 1..=HAND_BASE + 9]);
    KindProbs {
        empty: row[EMPTY],
        printed,
        handwritten,
        pencil: row[PENCIL],
        other: row[OTHER],
    }
}

/// The most likely class of a row as a kind, with its probability.
pub fn best_kind(row: &[f32; CLASSES]) -> (CellKind, f32) {
    let (class, p) = best(row);
    // best() returns an index below CLASSES, which of_class always maps.
    (CellKind::of_class(class).unwrap_or(CellKind::Other), p)
}

/// The most likely class of a probability row and its probability.
pub(crate) fn best(probs: &[f32; CLASSES]) -> (usize, f32) {
    probs.iter().copied().enumerate().fold(
        (0, f32::MIN),
        |acc, (i, p)| if p > acc.1 { (i, p) } else { acc },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Truth for fixtures/tiles/extra-image69.png: the 81 tiles of
    /// `../shared/fixtures/photos/extra/image69.jpg` (a photo the model never
    /// trained on), cut per the tile spec with the true corners, row-major.
    const IMAGE69: &str =
        "..1.3...8..4.6.5..9.....27.83..5..1.6.5.93.4....7..8.5.....49..7.3..5..6.2....38.";

    fn blank() -> Tile {
        Tile::default()
    }

    fn argmax(rows: &[[f32; CLASSES]]) -> Vec<usize> {
        rows.iter().map(|p| best(p).0).collect()
    }

    /// The 81 tiles of the fixture sheet (9x9 tiles of 28x28, 8-bit gray).
    fn image69_tiles() -> Vec<Tile> {
        sheet_tiles("extra-image69.png")
    }

    /// The 81 tiles of a sheet in fixtures/tiles (9x9 tiles of 28x28, 8-bit gray).
    fn sheet_tiles(name: &str) -> Vec<Tile> {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../fixtures/tiles")
            .join(name);
        let sheet = image::open(path).expect("fixture sheet").to_luma8();
        assert_eq!(sheet.dimensions(), (9 * TILE as u32, 9 * TILE as u32));
        (0..81)
            .map(|i| {
                let (r, c) = (i / 9, i % 9);
                let mut t = blank();
                for y in 0..TILE {
                    for x in 0..TILE {
                        let px = sheet.get_pixel((c * TILE + x) as u32, (r * TILE + y) as u32)[0];
                        t.pixels[y * TILE + x] = f32::from(px) / 255.0;
                    }
                }
                t
            })
            .collect()
    }

    fn truth(s: &str) -> Vec<usize> {
        s.bytes()
            .map(|b| {
                if b == b'.' {
                    EMPTY
                } else {
                    usize::from(b - b'0')
                }
            })
            .collect()
    }

    #[test]
    fn embedded_model_loads_once() {
        let a = Classifier::embedded().expect("embedded model loads");
        let b = Classifier::embedded().expect("embedded model loads again");
        assert!(
            Arc::ptr_eq(&a.plan, &b.plan),
            "the plan is built once per process"
        );
        assert_eq!(a.source, ModelSource::Embedded);
    }

    #[test]
    fn blank_tiles_read_empty_and_batches_pad() {
        let c = Classifier::embedded().unwrap();
        assert!(c.classify(&[]).unwrap().is_empty());
        // 83 tiles: full batches and a padded last one.
        let rows = c.classify(&vec![blank(); 83]).unwrap();
        assert_eq!(rows.len(), 83);
        for row in &rows {
            assert_eq!(best(row).0, EMPTY, "{row:?}");
            assert!(
                (row.iter().sum::<f32>() - 1.0).abs() < 1e-4,
                "softmax output"
            );
        }
    }

    /// Float rounding between two runs of the same tile in batches of
    /// different sizes: a few units in the last place of a probability.
    const ROUNDING: f32 = 1e-6;

    #[test]
    fn blank_tiles_get_what_the_model_gives_a_blank_tile() {
        let c = Classifier::from_file(Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../models/digits.onnx"
        )))
        .unwrap();
        let inked: Vec<Tile> = image69_tiles()
            .into_iter()
            .filter(|t| t.pixels.iter().any(|&p| p != 0.0))
            .take(3)
            .collect();
        assert_eq!(inked.len(), 3);
        let mixed = vec![blank(), inked[0], blank(), inked[1], inked[2], blank()];
        let rows = c.classify(&mixed).unwrap();
        // Each as the model gives it in a run of its own (a blank tile at a
        // different place in its batch, an inked one beside other tiles),
        // to float rounding: the plan may sum in another order for another
        // batch size (a retrained model, not shipped, differed in the last
        // place).
        let alone = |t: &Tile| c.run_batch(std::slice::from_ref(t)).unwrap()[0];
        for (tile, row) in mixed.iter().zip(&rows) {
            let single = alone(tile);
            for (a, b) in row.iter().zip(&single) {
                assert!((a - b).abs() <= ROUNDING, "{row:?} against {single:?}");
            }
        }
        assert_eq!(rows[0], rows[5]);
    }

    #[test]
    fn the_model_s_pools_run_by_our_loop_give_tract_s_probabilities_to_the_bit() {
        for (n, bytes) in [(9, EMBEDDED_MODEL), (16, EMBEDDED_MODEL_16X16)] {
            let c = Classifier::embedded_for(n).unwrap();
            let ours = c.plan.model().nodes().iter();
            let pools = ours.filter(|n| n.op_is::<crate::halving_pool::HalvingMaxPool>());
            assert_eq!(pools.count(), 3, "the model's three pools are ours");
            let mut reader = bytes;
            let tracts = tract_onnx::onnx()
                .model_for_read(&mut reader)
                .unwrap()
                .with_input_fact(0, f32::fact([BATCH, 1, TILE, TILE]).into())
                .unwrap()
                .into_optimized()
                .unwrap()
                .into_runnable()
                .unwrap();
            let tracts = Classifier {
                plan: tracts,
                source: c.source.clone(),
                blank: Arc::default(),
            };
            for sheet in ["extra-image69.png", "kubiesa-03_01_iphone_14_0.png"] {
                let tiles = sheet_tiles(sheet);
                for batch in tiles.chunks(BATCH) {
                    assert_eq!(
                        c.run_batch(batch).unwrap(),
                        tracts.run_batch(batch).unwrap()
                    );
                }
            }
        }
    }

    #[test]
    fn real_photo_tiles_read_right() {
        let c = Classifier::embedded().unwrap();
        let tiles = image69_tiles();
        assert_eq!(argmax(&c.classify(&tiles).unwrap()), truth(IMAGE69));
    }

    /// `t` turned 90 degrees clockwise: (x, y) <- (y, TILE-1-x).
    fn quarter_turned(t: &Tile) -> Tile {
        let mut r = blank();
        for y in 0..TILE {
            for x in 0..TILE {
                r.pixels[y * TILE + x] = t.pixels[(TILE - 1 - x) * TILE + y];
            }
        }
        r
    }

    #[test]
    fn rotated_digits_read_as_other_ink() {
        // A grid seen sideways: every digit tile turned a quarter turn. The
        // pipeline picks the orientation by how few cells read as OTHER, so
        // most of these must not pass for upright digits.
        let c = Classifier::embedded().unwrap();
        let want = truth(IMAGE69);
        let turned: Vec<Tile> = image69_tiles()
            .iter()
            .zip(&want)
            .filter(|(_, &w)| w != EMPTY)
            .map(|(t, _)| quarter_turned(t))
            .collect();
        let got = argmax(&c.classify(&turned).unwrap());
        let other = got.iter().filter(|&&k| k == OTHER).count();
        assert!(
            other * 10 >= turned.len() * 8,
            "{other} of {} read as other: {got:?}",
            turned.len()
        );
    }

    /// Renders `digit` (or a letter) with ab_glyph roughly as a printed clue
    /// looks in a tile (ink height ~11 px of 28, centred, full contrast).
    fn render(font: &impl ab_glyph::Font, digit: char) -> Tile {
        use ab_glyph::PxScale;
        let scale = PxScale::from(15.0);
        let glyph = font.glyph_id(digit).with_scale(scale);
        let outlined = font.outline_glyph(glyph).expect("digit has an outline");
        let bounds = outlined.px_bounds();
        let (w, h) = (bounds.width(), bounds.height());
        let (ox, oy) = ((TILE as f32 - w) / 2.0, (TILE as f32 - h) / 2.0);
        let mut t = blank();
        outlined.draw(|x, y, cov| {
            let (x, y) = (x as f32 + ox, y as f32 + oy);
            if (0.0..TILE as f32).contains(&x) && (0.0..TILE as f32).contains(&y) {
                let i = y as usize * TILE + x as usize;
                t.pixels[i] = t.pixels[i].max(cov);
            }
        });
        t
    }

    #[test]
    fn rendered_digits_read_right() {
        // The font the answer digits are drawn in: committed, so the check
        // never depends on what fonts the machine has.
        let bytes = include_bytes!("../../../assets/Go-Bold.ttf");
        let font = ab_glyph::FontRef::try_from_slice(bytes).expect("font parses");
        let tiles: Vec<Tile> = ('1'..='9').map(|d| render(&font, d)).collect();
        let got = argmax(&Classifier::embedded().unwrap().classify(&tiles).unwrap());
        assert_eq!(got, (1..=9).collect::<Vec<_>>());
    }

    #[test]
    fn rendered_letters_read_as_printed_values() {
        let bytes = include_bytes!("../../../assets/Go-Bold.ttf");
        let font = ab_glyph::FontRef::try_from_slice(bytes).expect("font parses");
        // The printed letters, values 10 ..= PRINTED_MAX in order.
        let letters = "ABCDEFG";
        assert_eq!(letters.len(), PRINTED_MAX - 9);
        let tiles: Vec<Tile> = letters.chars().map(|l| render(&font, l)).collect();
        let got = argmax(&Classifier::embedded().unwrap().classify(&tiles).unwrap());
        assert_eq!(got, (10..=PRINTED_MAX).collect::<Vec<_>>());
    }

    #[test]
    fn a_16x16_is_read_by_its_own_model_and_other_grids_by_the_classic_one() {
        let sixteen = Classifier::embedded_for(16).expect("the 16x16 model loads");
        assert_eq!(sixteen.source, ModelSource::Embedded16x16);
        let again = Classifier::embedded_for(16).expect("and again");
        assert!(Arc::ptr_eq(&sixteen.plan, &again.plan), "loaded once");
        for n in [9, 21, 25] {
            let c = Classifier::embedded_for(n).expect("the classic model loads");
            assert_eq!(c.source, ModelSource::Embedded, "n = {n}");
        }
    }

    #[test]
    fn the_16x16_model_reads_rendered_symbols_and_turned_ones_as_other_ink() {
        let bytes = include_bytes!("../../../assets/Go-Bold.ttf");
        let font = ab_glyph::FontRef::try_from_slice(bytes).expect("font parses");
        let symbols = "123456789ABCDEFG";
        let tiles: Vec<Tile> = symbols.chars().map(|l| render(&font, l)).collect();
        let c = Classifier::embedded_for(16).unwrap();
        assert_eq!(
            argmax(&c.classify(&tiles).unwrap()),
            (1..=PRINTED_MAX).collect::<Vec<_>>()
        );
        // Turned a quarter: most read as other ink, which is how the
        // orientation search tells a turned 16x16 from an upright one.
        let turned: Vec<Tile> = tiles.iter().map(quarter_turned).collect();
        let got = argmax(&c.classify(&turned).unwrap());
        let other = got.iter().filter(|&&k| k == OTHER).count();
        assert!(other * 10 >= turned.len() * 8, "{other} of 16: {got:?}");
        assert_eq!(c.classify(&[blank()]).unwrap().len(), 1);
        assert_eq!(argmax(&c.classify(&[blank()]).unwrap()), vec![EMPTY]);
    }

    /// Truth for fixtures/tiles/kubiesa-03_01_iphone_14_0.png: the 81 tiles
    /// of `../shared/fixtures/kubiesa/train/03_01_iphone_14_0.jpg`, one of
    /// the Kubiesa puzzles held out of training, cut per the tile spec with
    /// the true corners. `1`-`9` printed, `a`-`i` handwritten 1-9, `*`
    /// pencil, `.` empty.
    const KUBIESA_03_01: &str =
        "..f..9*31..3..a.72.7a.6.9.....*17..6af54*87*c8..35fa....9.8..1.61....5..75.1.....";

    fn kind_of_char(ch: char) -> CellKind {
        match ch {
            '.' => CellKind::Empty,
            '*' => CellKind::Pencil,
            '1'..='9' => CellKind::Printed(ch as u8 - b'0'),
            _ => CellKind::Handwritten(ch as u8 - b'a' + 1),
        }
    }

    #[test]
    fn worked_on_puzzle_tiles_read_by_kind() {
        let tiles = sheet_tiles("kubiesa-03_01_iphone_14_0.png");
        let rows = Classifier::embedded().unwrap().classify(&tiles).unwrap();
        let want: Vec<CellKind> = KUBIESA_03_01.chars().map(kind_of_char).collect();
        let got: Vec<CellKind> = rows.iter().map(|r| best_kind(r).0).collect();
        // Every printed clue and every pen entry exactly (value and kind): a
        // pen entry taken for a clue would change the puzzle.
        for (i, (w, g)) in want.iter().zip(&got).enumerate() {
            if matches!(w, CellKind::Printed(_) | CellKind::Handwritten(_)) {
                assert_eq!(w, g, "cell {i}");
            }
        }
        let right = want.iter().zip(&got).filter(|(w, g)| w == g).count();
        assert!(right >= 79, "{right}/81 right: {got:?}");
    }

    #[test]
    fn every_class_has_a_kind() {
        assert_eq!(CellKind::of_class(EMPTY), Some(CellKind::Empty));
        assert_eq!(CellKind::of_class(9), Some(CellKind::Printed(9)));
        assert_eq!(CellKind::of_class(10), Some(CellKind::Printed(10)));
        assert_eq!(CellKind::of_class(PRINTED_MAX), Some(CellKind::Printed(16)));
        assert_eq!(
            CellKind::of_class(HAND_BASE + 1),
            Some(CellKind::Handwritten(1))
        );
        assert_eq!(
            CellKind::of_class(HAND_BASE + 9),
            Some(CellKind::Handwritten(9))
        );
        assert_eq!(CellKind::of_class(PENCIL), Some(CellKind::Pencil));
        assert_eq!(CellKind::of_class(OTHER), Some(CellKind::Other));
        assert_eq!(CellKind::of_class(CLASSES), None);
        assert!((0..CLASSES).all(|c| CellKind::of_class(c).is_some()));
    }

    #[test]
    fn kind_probs_sum_by_kind_and_fold_to_clues() {
        let mut row = [0.0f32; CLASSES];
        row[EMPTY] = 0.1;
        row[5] = 0.2; // printed 5
        row[12] = 0.05; // printed C
        row[HAND_BASE + 5] = 0.4; // pen 5
        row[HAND_BASE + 6] = 0.1; // pen 6
        row[PENCIL] = 0.1;
        row[OTHER] = 0.05;
        let k = kind_probs(&row);
        assert_eq!(k.printed[5], 0.2);
        assert_eq!(k.printed[12], 0.05);
        assert!((k.handwritten_total() - 0.5).abs() < 1e-6);
        assert_eq!(k.best_handwritten(), (5, 0.4));
        assert!((k.printed_total() - 0.25).abs() < 1e-6);
        assert_eq!(k.upright_glyph(), 0.4);
        // A 9x9 puzzle: the pen entries, pencil, other ink and the letter
        // are no clue; the printed 5 keeps its probability.
        let clue = k.clue_probs(9);
        assert_eq!(clue.len(), 10);
        assert!((clue[0] - 0.8).abs() < 1e-6, "{clue:?}");
        assert_eq!(clue[5], 0.2);
        assert!((clue.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        // A 16x16 puzzle reads the letter C as 12.
        let clue = k.clue_probs(16);
        assert_eq!(clue[12], 0.05);
        assert!((clue[0] - 0.75).abs() < 1e-6);
        // A 25x25 puzzle: values past G cannot be read (probability 0).
        let clue = k.clue_probs(25);
        assert_eq!(clue.len(), 26);
        assert_eq!(clue[25], 0.0);
        assert!((clue.iter().sum::<f32>() - 1.0).abs() < 1e-6);
        assert_eq!(best_kind(&row), (CellKind::Handwritten(5), 0.4));
    }

    #[test]
    fn non_model_files_are_clear_errors() {
        let toml = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml"));
        let err = Classifier::from_file(toml).unwrap_err();
        assert!(matches!(err, OcrError::NotAModel { .. }), "{err:?}");
        let msg = err.to_string();
        assert!(
            msg.contains("Cargo.toml") && msg.contains("not an ONNX model"),
            "{msg}"
        );

        let missing = Path::new("/nonexistent/digits.onnx");
        let err = Classifier::from_file(missing).unwrap_err();
        assert!(matches!(err, OcrError::Read { .. }), "{err:?}");
        assert!(err.to_string().contains("/nonexistent/digits.onnx"));
    }

    #[test]
    fn the_model_file_itself_loads_from_a_path() {
        let path = Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../models/digits.onnx"
        ));
        let c = Classifier::from_file(path).expect("models/digits.onnx loads as a file");
        assert_eq!(c.source, ModelSource::File(path.to_path_buf()));
    }
}
