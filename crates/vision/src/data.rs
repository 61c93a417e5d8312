//! The plain data passed between the stages: what the locator found and
//! how it makes up puzzles ([`Layout`]), the tiles cut from a grid
//! ([`Tile`]), what the evidence stage says of each cell
//! ([`CellEvidence`]), a puzzle as read ([`GridReading`]) and what was
//! decided of it ([`Decision`]).
//!
//! This module imports no stage: every stage imports it, so no stage
//! depends on another for its inputs' types. The behaviour of a type lives
//! with the stage that owns it (the decision's words in `decide`, a tile's
//! second look in `cells`); what is here only holds and reads the data.

use snap_solver::{Board, Outcome, Shape};

use crate::geometry::{Homography, Quad, CELL_PX};

// Locate and layout: the square grids of a page and the puzzles they make.

/// A square grid found on the page.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Found {
    /// Outer corners in photo pixels (tl, tr, br, bl as stored).
    pub quad: Quad,
    /// Cells per side: 9 or 16.
    pub n: usize,
    /// Cut by the frame (or a fold or a finger): reported, never solved.
    pub cut: bool,
    /// The grid, or the outline it was found in, touches the image frame,
    /// or it was found a line short of a border on the frame: a border
    /// the crop cut off can leave the grid's lattice placed a line off or
    /// squeezed, so a reading that contradicts itself may be the crop's
    /// doing, not the puzzle's.
    pub at_frame: bool,
    /// A 9x9 grid sharing one corner box with another 9x9 found on the
    /// page, as a Samurai's grids do, whose Samurai was not found whole
    /// (see `layout::compose`), or a lone 9x9 read with several solutions
    /// whose Samurai shows past one of its corners but could not be read
    /// whole (see `locate::samurai_of_lone`): alone it may have several
    /// answers that the Samurai's other grids settle.
    pub samurai_part: bool,
    /// Ruled through its cells as a table is (see `cells::Cells::ruled`)
    /// and at the frame: a grid the frame cut, whose quad squeezes a whole
    /// lattice over the rows in the image, its own lines running through
    /// that lattice's cells, or a piece of a table cut by the frame.
    /// Reported cut unless it reads as a table.
    pub ruled: bool,
    /// Where a lattice of upright lines places the grid otherwise, that
    /// lattice too faint to be sure (blurred, or its lines seen a pixel
    /// apart): a grid read in doubt is read there too (a comb placed two
    /// thirds of a cell short on a video frame's dark screen).
    pub alternative: Option<Quad>,
}

/// One square grid of a puzzle, placed in the puzzle's layout.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Part {
    /// The grid as found.
    pub found: Found,
    /// (row, column) of its top-left cell in the shape's layout.
    pub origin: (usize, usize),
}

/// A puzzle on the page: its shape and the grids it is drawn with.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Layout {
    /// 9x9, 16x16 or Samurai.
    pub shape: Shape,
    /// One part (a square grid), or five for a Samurai.
    pub parts: Vec<Part>,
}

impl Layout {
    /// The layout with no part's [`Found::alternative`]: as the first
    /// page search gives it, before the lattices are looked for.
    pub(crate) fn without_alternatives(&self) -> Layout {
        let mut layout = self.clone();
        for part in &mut layout.parts {
            part.found.alternative = None;
        }
        layout
    }

    /// True when any part is cut by the frame.
    pub(crate) fn cut(&self) -> bool {
        self.parts.iter().any(|p| p.found.cut)
    }

    /// True when any part touches the frame (see [`Found::at_frame`]).
    pub(crate) fn at_frame(&self) -> bool {
        self.parts.iter().any(|p| p.found.at_frame)
    }

    /// True when the puzzle is one grid of a Samurai not found whole (see
    /// [`Found::samurai_part`]).
    pub(crate) fn samurai_part(&self) -> bool {
        self.parts.iter().any(|p| p.found.samurai_part)
    }

    /// True when a grid of the puzzle is ruled through its cells at the
    /// frame (see [`Found::ruled`]).
    pub(crate) fn ruled(&self) -> bool {
        self.parts.iter().any(|p| p.found.ruled)
    }

    /// The outline of the whole puzzle in photo pixels: the part's quad, or
    /// for a Samurai the corners of its four corner grids' outer corners.
    pub(crate) fn outline(&self) -> Quad {
        if self.parts.len() == 5 {
            let corner = |k: usize, i: usize| self.parts[k].found.quad.corners[i];
            Quad::new([corner(0, 0), corner(1, 1), corner(4, 2), corner(3, 3)])
        } else {
            self.parts[0].found.quad
        }
    }

    /// The layout seen after turning the page clockwise by `quarter_turns`
    /// x 90 degrees: each part's corner labels turn (see [`Quad::rotated`])
    /// and its origin moves with the layout, so that the parts stay in
    /// reading order of the upright puzzle.
    pub(crate) fn rotated(&self, quarter_turns: u8) -> Layout {
        let side = self.shape.side();
        let mut parts: Vec<Part> = self
            .parts
            .iter()
            .map(|p| {
                let n = p.found.n;
                let mut origin = p.origin;
                for _ in 0..quarter_turns % 4 {
                    // Cell (r, c) goes to (c, side - 1 - r); the part's
                    // top-left corner is its old bottom-left.
                    origin = (origin.1, side - origin.0 - n);
                }
                Part {
                    found: Found {
                        quad: p.found.quad.rotated(quarter_turns),
                        ..p.found
                    },
                    origin,
                }
            })
            .collect();
        parts.sort_by_key(|p| p.origin);
        Layout {
            shape: self.shape,
            parts,
        }
    }
}

// Cells and classify: one tile per cell and the classifier's view of it.

/// Side of a classifier tile.
pub(crate) const TILE: usize = 28;

/// One normalised cell image: what the digit classifier reads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tile {
    /// 28 x 28 pixels, row-major, 0.0 background .. 1.0 ink.
    pub pixels: [f32; TILE * TILE],
    /// How dark the cell's darkest ink is against its own paper before the
    /// stretch to full contrast (Weber contrast: 0 none, 1 black on any
    /// paper; it does not change with the light that falls on the cell).
    /// The tile hides it, so faint ink (show-through from the back of a
    /// page, a grey answer) is told from print by this.
    pub ink: f32,
}

impl Default for Tile {
    fn default() -> Self {
        Tile {
            pixels: [0.0; TILE * TILE],
            ink: 0.0,
        }
    }
}

/// Number of classes the digit model tells apart per tile, the length of
/// [`PartReading::classes`]' rows: 0 empty, 1-16 a printed symbol of that
/// value (digits, then the letters A-G), 17-25 a pen digit 1-9, 26 pencil
/// candidates, 27 other ink. [`best_kind`](crate::best_kind) names a row's
/// most likely class.
pub const CLASSES: usize = 28;

// Evidence and decide: what each cell holds and the puzzle decided.

/// Most cells a decision reads otherwise than as read
/// ([`Decision::changes`]): enough for the misreads seen on real photos
/// (one or two faint or blurred clues), few enough that the enumeration of
/// readings stays small. What a grid's reading may be off by, so also what
/// tells a ruled table from a misread puzzle.
pub(crate) const MAX_CHANGES: usize = 3;

/// What the reader saw in one cell.
#[derive(Debug, Clone, PartialEq)]
pub struct CellEvidence {
    /// Probability of each value as a printed clue, `digits + 1` long:
    /// index 0 is "no printed clue" (empty, pen entry, pencil marks, stray
    /// ink), index `v` a printed `v`. Sums to 1.
    pub clue: Vec<f32>,
    /// A handwritten (pen) digit in the cell, if the classifier sees one:
    /// the digit and the probability that the cell holds a pen entry.
    pub entry: Option<(u8, f32)>,
    /// Probability of each pen digit (index `d` a pen `d`, 1-9; index 0
    /// unused): what tells an entry read in doubt from one read surely.
    pub pen: [f32; 10],
    /// The tile of a cell read with a pen entry (none for a drawing's
    /// cells): what the entry is compared with the same hand's other
    /// entries by ([`PenCell::glyph`]).
    pub glyph: Option<Tile>,
    /// How dark the cell's ink is ([`Tile::ink`]) as a share of its
    /// grid's printed clues' (of black where the grid has too few clues
    /// read surely to tell; 0 for a drawing's cells): measured on the
    /// pixels, apart from what the classifier makes of them, it tells a
    /// cell with ink in it from a blank one.
    pub ink: f32,
    /// How coloured the cell's ink is against its paper (`tint`: near 0
    /// for black or grey, 0.4-0.55 for a blue or red ballpoint), measured
    /// only in a worked 9x9 grid not solved as read (0 elsewhere).
    pub tint: f32,
    /// Probability that the cell holds pencil candidates (a player's small
    /// digits noting what an empty cell may hold): part of `clue[0]`.
    pub pencil: f32,
}

impl CellEvidence {
    /// A cell read with certainty as `value` (0 for empty): `--set`.
    pub(crate) fn certain(value: u8, digits: usize) -> CellEvidence {
        let mut clue = vec![0.0; digits + 1];
        if let Some(p) = clue.get_mut(value as usize) {
            *p = 1.0;
        }
        CellEvidence {
            clue,
            entry: None,
            pen: [0.0; 10],
            glyph: None,
            ink: 0.0,
            tint: 0.0,
            pencil: 0.0,
        }
    }

    /// The most likely clue value and its probability.
    pub fn best(&self) -> (u8, f32) {
        let mut best = (0u8, self.clue.first().copied().unwrap_or(0.0));
        for (v, &p) in self.clue.iter().enumerate().skip(1) {
            if p > best.1 {
                best = (v as u8, p);
            }
        }
        best
    }

    /// Probability of `value` as the clue.
    pub fn p(&self, value: u8) -> f32 {
        self.clue.get(value as usize).copied().unwrap_or(0.0)
    }
}

/// One cell read otherwise than its most likely value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Change {
    /// Layout position (row-major in the shape's layout).
    pub cell: usize,
    /// Value as read (0 = empty).
    pub from: u8,
    /// Value taken instead (0 = empty).
    pub to: u8,
    /// The classifier's probability for the value taken.
    pub probability: f32,
}

/// A cell to check, and what the best answer assumes it holds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Check {
    /// Layout position.
    pub cell: usize,
    /// The value the best answer assumes (0 = empty).
    pub assumed: u8,
    /// The classifier's probability for it.
    pub probability: f32,
}

/// How the decision came out.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// One answer, as sure as [`SOLVED_CONFIDENCE`](crate::SOLVED_CONFIDENCE)
    /// or more.
    Solved,
    /// An answer (or none) that rests on cells the reader is unsure of:
    /// check these cells (`--set` settles each).
    Unsure(Vec<Check>),
    /// The puzzle as read, read with confidence, has no solution: two
    /// givens clash, or a cell or unit cannot be filled.
    NoSolution(String),
    /// The puzzle as read, read with confidence, has several solutions
    /// (the count found, up to the limit).
    Multiple(usize),
}

/// The puzzle decided from a reading, and what solving it gave.
#[derive(Debug, Clone)]
pub struct Decision {
    /// The most probable reading (overrides applied).
    pub read: Board,
    /// The puzzle the answer is for: `read` with `changes` applied.
    pub givens: Board,
    /// Cells read otherwise than their most likely value.
    pub changes: Vec<Change>,
    /// Pen entries: (layout position, digit), never clues.
    pub entries: Vec<(usize, u8)>,
    /// What the reader saw of pen ink in the cells that are no clue: the
    /// entries and the cells that may hold a faint one ([`PenCell`]).
    pub pen: Vec<PenCell>,
    /// The solver's outcome for `givens`.
    pub outcome: Outcome,
    /// Posterior share of the answer among the hypotheses (see the module
    /// notes), 0..1.
    pub confidence: f32,
    /// The most probable reading, as read, has several solutions: any
    /// change that leaves one picks it among them (see [`Decision::solution`]).
    pub several_as_read: bool,
    /// Solved, unsure, no solution or several.
    pub verdict: Verdict,
}

/// A cell that holds no clue but holds, or may hold, a person's pen entry.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PenCell {
    /// Layout position.
    pub cell: usize,
    /// Probability of each pen digit (index `d` a pen `d`; index 0 unused).
    pub odds: [f32; 10],
    /// The cell's tile when it was read with an entry
    /// ([`CellEvidence::glyph`]).
    pub glyph: Option<Tile>,
}

impl PenCell {
    /// Probability that the cell holds a pen entry at all.
    pub fn total(&self) -> f32 {
        self.odds.iter().sum()
    }

    /// Probability that the cell holds a pen digit other than `digit`:
    /// how sure a reading is that an entry is not the solution's `digit`.
    pub fn other_than(&self, digit: u8) -> f32 {
        self.total() - self.odds.get(usize::from(digit)).copied().unwrap_or(0.0)
    }
}

/// What `--check` says of a person's pen entries against the solution.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct EntryCheck {
    /// Entries surely not the solution's digit: (layout position, digit
    /// read). Only these are called wrong.
    pub wrong: Vec<(usize, u8)>,
    /// Entries read as another digit than the solution's, but not surely:
    /// named to check, never called wrong.
    pub doubt: Vec<usize>,
    /// Cells read without an entry that may hold one (faint pen): named to
    /// check, never drawn over.
    pub faint: Vec<usize>,
}

impl EntryCheck {
    /// Every cell named to check: entries in doubt, then faint cells.
    pub fn to_check(&self) -> Vec<usize> {
        self.doubt.iter().chain(&self.faint).copied().collect()
    }
}

// The pipeline's reading of a puzzle.

/// One square grid of a puzzle as read: a 9x9 or 16x16 puzzle has one,
/// a Samurai five.
#[derive(Debug, Clone)]
pub struct PartReading {
    /// Maps the upright part, a square of `n` cells of 48 pixels a side,
    /// onto photo pixels (what the drawing functions draw through).
    pub grid_to_photo: Homography,
    /// Cells per side.
    pub n: usize,
    /// (row, column) of the part's top-left cell in the puzzle's layout.
    pub origin: (usize, usize),
    /// The tiles, upright, row-major, as the classifier saw them; none
    /// for a grid read from a PDF page's drawing (no cell was cut).
    pub tiles: Vec<Tile>,
    /// The classifier's probabilities per tile, same order; for a grid
    /// read from a PDF page's drawing, per cell, certainty of what the
    /// drawing holds (empty, or the printed digit).
    pub classes: Vec<[f32; CLASSES]>,
    /// Read from its negative (light print on a dark screen): its inks are
    /// a screen's colours seen in gray, not paper's, so no mark of it is
    /// taken for faint.
    pub negative: bool,
}

impl PartReading {
    /// Where the line crossing at `row`, `col` (each `0..=n`) of the
    /// upright part lies in the photo's pixels: cell (r, c)'s corners are
    /// the crossings (r, c), (r, c + 1), (r + 1, c + 1) and (r + 1, c).
    pub fn corner(&self, row: usize, col: usize) -> (f32, f32) {
        self.grid_to_photo
            .map((col * CELL_PX) as f32, (row * CELL_PX) as f32)
    }

    /// The index, in reading order of this part, of layout position `cell`
    /// of a puzzle `side` cells wide ([`GridReading::side`]); `None` when
    /// the part does not hold it (a Samurai's other grids).
    pub fn local_cell(&self, cell: usize, side: usize) -> Option<usize> {
        let (r, c) = (cell / side, cell % side);
        let (r0, c0) = self.origin;
        let n = self.n;
        (r >= r0 && r < r0 + n && c >= c0 && c < c0 + n).then(|| (r - r0) * n + (c - c0))
    }
}

/// One puzzle of a page as read: its layout, upright, and what each cell holds.
#[derive(Debug, Clone)]
pub struct GridReading {
    /// Shape and parts, upright (parts in layout order).
    pub(crate) layout: Layout,
    /// Clockwise quarter turns that make the stored grid upright.
    pub quarter_turns: u8,
    /// How many orientations were classified before one was chosen (1 for
    /// most photos, and for a page read from its drawing; up to 4).
    pub orientations_tried: u8,
    /// The parts as read, in the layout's order.
    pub parts: Vec<PartReading>,
    /// What each layout position holds (outside a Samurai's grids: empty).
    pub cells: Vec<CellEvidence>,
}

impl GridReading {
    /// An upright 9x9 grid at `quad` whose every cell is read with
    /// certainty as `values[k]` (0 empty): a drawing's grid, whose digits
    /// are known without a classifier. `None` for a degenerate quad.
    #[cfg(any(feature = "pdf", test))]
    pub(crate) fn certain(quad: Quad, values: &[u8]) -> Option<GridReading> {
        const N: usize = 9;
        let grid_to_photo = Homography::square_to_quad((N * CELL_PX) as f64, &quad)?;
        let classes = values
            .iter()
            .map(|&v| {
                let mut row = [0.0f32; CLASSES];
                row[usize::from(v)] = 1.0;
                row
            })
            .collect();
        let found = Found {
            quad,
            n: N,
            cut: false,
            at_frame: false,
            samurai_part: false,
            ruled: false,
            alternative: None,
        };
        Some(GridReading {
            layout: Layout {
                shape: Shape::classic(),
                parts: vec![Part {
                    found,
                    origin: (0, 0),
                }],
            },
            quarter_turns: 0,
            orientations_tried: 1,
            parts: vec![PartReading {
                grid_to_photo,
                n: N,
                origin: (0, 0),
                tiles: Vec::new(),
                classes,
                negative: false,
            }],
            cells: values
                .iter()
                .map(|&v| CellEvidence::certain(v, N))
                .collect(),
        })
    }

    /// The puzzle's shape.
    pub fn shape(&self) -> Shape {
        self.layout.shape
    }

    /// Cells per side of the puzzle's layout (21 for a Samurai): layout
    /// position `p` is row `p / side`, column `p % side`.
    pub fn side(&self) -> usize {
        self.layout.shape.side()
    }

    /// The puzzle's outline in photo pixels, labelled for the upright grid
    /// (tl is the top-left corner of the puzzle as it reads).
    pub fn quad(&self) -> Quad {
        self.layout.outline()
    }

    /// Cut by the frame: reported as partial, never solved.
    pub(crate) fn cut(&self) -> bool {
        self.layout.cut()
    }

    /// Found at the image frame (see [`Found::at_frame`]).
    pub(crate) fn at_frame(&self) -> bool {
        self.layout.at_frame()
    }

    /// One grid of a Samurai not found whole (see [`Found::samurai_part`]).
    pub(crate) fn samurai_part(&self) -> bool {
        self.layout.samurai_part()
    }

    /// Ruled through its cells at the frame (see [`Found::ruled`]).
    pub(crate) fn ruled(&self) -> bool {
        self.layout.ruled()
    }

    /// Each cell's most likely value: the grid as read, before any
    /// decision or correction.
    pub fn as_read(&self) -> Board {
        Board {
            shape: self.shape(),
            cells: self.cells.iter().map(|e| e.best().0).collect(),
        }
    }

    /// The first part's 81 tiles and probabilities for a classic grid
    /// (what `eval` measures and dumps).
    pub fn classic_part(&self) -> Option<&PartReading> {
        self.parts.first().filter(|p| p.n == 9)
    }
}
