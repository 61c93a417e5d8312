//! A human-style logic engine for classic 9x9 boards: it solves the way a
//! person with pencil marks does, one named step at a time, so that a caller
//! can explain a solution, give a hint or grade a puzzle ([`crate::grade`]).
//!
//! # The candidate grid
//!
//! [`Candidates`] keeps two arrays of 81 entries, indexed by cell
//! `9 * row + column` (0-based; text uses 1-based `r1c1` names):
//!
//! ```text
//!              c1  c2  c3   c4  ...  c9
//!   values: r1 [ 0,  5,  0 |  0, ...,  0 ]   placed digit, 0 = empty
//!           r2 [ .......................]
//!   masks:  r1 [ 0x1c8, 0, 0x048 | ... ]     9-bit candidate mask of each
//!                                             empty cell, 0 for a placed one
//!
//!   mask bit:   8 7 6 5 4 3 2 1 0
//!   digit:      9 8 7 6 5 4 3 2 1       (0x048 = digits 4 and 7)
//! ```
//!
//! Units are numbered 0-8 rows, 9-17 columns, 18-26 boxes (boxes left to
//! right, top to bottom); [`Unit`] is the public name of one. Placing a digit
//! clears the cell's mask and removes the digit from its 20 peers, so an empty
//! cell's mask is always the set of digits no placed peer holds, minus the
//! eliminations made so far.
//!
//! # The step order
//!
//! [`next_step`] tries the techniques of [`Technique::ALL`] in that order
//! and returns the first step found, so a step never uses a harder technique
//! than the position needs. The order follows the usual difficulty ratings
//! (Sudoku Explainer's, roughly, but grouped so that each level of
//! [`crate::grade::Level`] comes after the easier ones): singles (full house,
//! hidden, naked), locked candidates, pairs and triples, X-Wing and
//! Swordfish, wings, quads and Jellyfish, simple colouring, unique
//! rectangles (only when the caller vouches for a unique solution, see
//! [`Options::unique`]), and last the forcing chains: contradiction chains
//! (assume a candidate and follow singles until something breaks), cell and
//! unit forcing chains (every candidate of a cell, or every place of a digit
//! in a unit, leads to the same result), then the same with branches that
//! may use every technique above (dynamic chains). When none applies,
//! [`explain`] ends [`End::Stuck`] and the caller's search takes over. Every step is a plain value ([`Step`]) naming the
//! cells, units and digits that justify it; [`Step::describe`] puts it in words.

mod colouring;
mod fish;
mod forcing;
mod intersections;
mod singles;
mod subsets;
mod uniqueness;
mod wings;

use crate::board::Board;
use crate::shape::Shape;
use crate::solve::Clash;

/// Mask of all nine digits.
pub(crate) const ALL: u16 = 0x1ff;

/// Cells of each unit: rows 0-8, columns 9-17, boxes 18-26, each in row-major order.
pub(crate) const UNITS: [[usize; 9]; 27] = build_units();

/// The 20 peers (cells sharing a row, column or box) of each cell.
pub(crate) const PEERS: [[usize; 20]; 81] = build_peers();

const fn build_units() -> [[usize; 9]; 27] {
    let mut units = [[0; 9]; 27];
    let mut i = 0;
    while i < 9 {
        let mut j = 0;
        while j < 9 {
            units[i][j] = i * 9 + j;
            units[9 + i][j] = j * 9 + i;
            units[18 + i][j] = (i / 3 * 3 + j / 3) * 9 + i % 3 * 3 + j % 3;
            j += 1;
        }
        i += 1;
    }
    units
}

const fn build_peers() -> [[usize; 20]; 81] {
    let mut peers = [[0; 20]; 81];
    let mut cell = 0;
    while cell < 81 {
        let mut n = 0;
        let mut other = 0;
        while other < 81 {
            if other != cell && sees(cell, other) {
                peers[cell][n] = other;
                n += 1;
            }
            other += 1;
        }
        cell += 1;
    }
    peers
}

/// Row (0-8) of a cell.
pub(crate) const fn row_of(cell: usize) -> usize {
    cell / 9
}

/// Column (0-8) of a cell.
pub(crate) const fn col_of(cell: usize) -> usize {
    cell % 9
}

/// Box (0-8, left to right, top to bottom) of a cell.
pub(crate) const fn box_of(cell: usize) -> usize {
    cell / 27 * 3 + cell % 9 / 3
}

/// True when two different cells share a row, column or box.
pub(crate) const fn sees(a: usize, b: usize) -> bool {
    a != b && (row_of(a) == row_of(b) || col_of(a) == col_of(b) || box_of(a) == box_of(b))
}

/// The mask bit of digit `d` (1-9).
pub(crate) const fn bit(d: u8) -> u16 {
    1 << (d - 1)
}

/// The digits of a mask, smallest first.
pub(crate) fn digits(mask: u16) -> impl Iterator<Item = u8> {
    (1..=9u8).filter(move |&d| mask & bit(d) != 0)
}

/// The smallest digit of a non-empty mask (the digit of a single-bit one).
pub(crate) fn only_digit(mask: u16) -> u8 {
    mask.trailing_zeros() as u8 + 1
}

/// Calls `each` with every `k`-element subset of `items` (in lexicographic
/// order) until it returns `Some`, and returns that.
pub(crate) fn first_combination<T>(
    items: &[usize],
    k: usize,
    each: &mut dyn FnMut(&[usize]) -> Option<T>,
) -> Option<T> {
    fn walk<T>(
        items: &[usize],
        k: usize,
        start: usize,
        chosen: &mut Vec<usize>,
        each: &mut dyn FnMut(&[usize]) -> Option<T>,
    ) -> Option<T> {
        if chosen.len() == k {
            return each(chosen);
        }
        let needed = k - chosen.len();
        for i in start..items.len() {
            if items.len() - i < needed {
                break;
            }
            chosen.push(items[i]);
            let found = walk(items, k, i + 1, chosen, each);
            chosen.pop();
            if found.is_some() {
                return found;
            }
        }
        None
    }
    walk(items, k, 0, &mut Vec::with_capacity(k), each)
}

/// A row, column or box, numbered from 0 (text names them from 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Unit {
    /// Row 0-8, top to bottom.
    Row(u8),
    /// Column 0-8, left to right.
    Column(u8),
    /// Box 0-8, left to right then top to bottom.
    Box(u8),
}

impl Unit {
    /// The unit with internal number `index` (0-8 rows, 9-17 columns, 18-26 boxes).
    pub(crate) fn from_index(index: usize) -> Unit {
        let n = (index % 9) as u8;
        match index / 9 {
            0 => Unit::Row(n),
            1 => Unit::Column(n),
            _ => Unit::Box(n),
        }
    }

    /// The internal number of the unit (0-8 rows, 9-17 columns, 18-26 boxes).
    pub(crate) fn index(self) -> usize {
        match self {
            Unit::Row(n) => n as usize,
            Unit::Column(n) => 9 + n as usize,
            Unit::Box(n) => 18 + n as usize,
        }
    }

    /// The nine cells of the unit, row-major.
    pub fn cells(self) -> [usize; 9] {
        UNITS[self.index()]
    }
}

impl std::fmt::Display for Unit {
    /// `row 3`, `column 7`, `box 5` (1-based).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unit::Row(n) => write!(f, "row {}", n + 1),
            Unit::Column(n) => write!(f, "column {}", n + 1),
            Unit::Box(n) => write!(f, "box {}", n + 1),
        }
    }
}

/// A digit in a cell: what a step places, or a candidate it removes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Placement {
    /// Cell index 0..81, `9 * row + column`.
    pub cell: usize,
    /// Digit 1-9.
    pub digit: u8,
}

/// `r4c7` for cell index 30 (1-based row and column).
pub fn cell_name(cell: usize) -> String {
    format!("r{}c{}", row_of(cell) + 1, col_of(cell) + 1)
}

/// Every technique the engine knows, in the order [`next_step`] tries them
/// (simplest first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Technique {
    /// The last empty cell of a unit takes the missing digit.
    FullHouse,
    /// A digit has one place left in a unit.
    HiddenSingle,
    /// A cell has one candidate left.
    NakedSingle,
    /// A digit's places in a box lie on one line: not elsewhere on that line.
    LockedPointing,
    /// A digit's places on a line lie in one box: not elsewhere in that box.
    LockedClaiming,
    /// Two cells of a unit hold only the same two digits.
    NakedPair,
    /// Two digits have the same two places in a unit.
    HiddenPair,
    /// Three cells of a unit hold only three digits between them.
    NakedTriple,
    /// Three digits have only three places between them in a unit.
    HiddenTriple,
    /// A digit has the same two places in two rows (or columns).
    XWing,
    /// A digit's places in three rows (or columns) lie in three columns (rows).
    Swordfish,
    /// A bivalue pivot and two bivalue pincers that see it.
    XyWing,
    /// A three-candidate pivot and two bivalue pincers that see it.
    XyzWing,
    /// Two equal bivalue cells joined by a strong link on one of their digits.
    WWing,
    /// Four cells of a unit hold only four digits between them.
    NakedQuad,
    /// A digit's places in four rows (or columns) lie in four columns (rows).
    Jellyfish,
    /// Four digits have only four places between them in a unit.
    HiddenQuad,
    /// Conjugate pairs of one digit coloured in two alternating colours.
    SimpleColouring,
    /// Three corners of a rectangle over two boxes hold the same pair: the
    /// fourth must not (only for puzzles with one solution).
    UniqueRectangle,
    /// Assuming a candidate leads, by singles, to a contradiction.
    ContradictionChain,
    /// Every candidate of one cell leads, by singles, to the same conclusion.
    CellForcingChain,
    /// Every place of a digit in a unit leads, by singles, to the same conclusion.
    UnitForcingChain,
    /// A contradiction chain whose branch uses every technique before the
    /// chains, not only singles.
    DynamicContradictionChain,
    /// A cell or unit forcing chain whose branches use every technique
    /// before the chains, not only singles.
    DynamicForcingChain,
}

impl Technique {
    /// Every technique, simplest first: the order of [`next_step`].
    pub const ALL: [Technique; 24] = [
        Technique::FullHouse,
        Technique::HiddenSingle,
        Technique::NakedSingle,
        Technique::LockedPointing,
        Technique::LockedClaiming,
        Technique::NakedPair,
        Technique::HiddenPair,
        Technique::NakedTriple,
        Technique::HiddenTriple,
        Technique::XWing,
        Technique::Swordfish,
        Technique::XyWing,
        Technique::XyzWing,
        Technique::WWing,
        Technique::NakedQuad,
        Technique::Jellyfish,
        Technique::HiddenQuad,
        Technique::SimpleColouring,
        Technique::UniqueRectangle,
        Technique::ContradictionChain,
        Technique::CellForcingChain,
        Technique::UnitForcingChain,
        Technique::DynamicContradictionChain,
        Technique::DynamicForcingChain,
    ];

    /// A stable snake_case name, for machine output: `hidden_single`.
    pub fn name(self) -> &'static str {
        match self {
            Technique::FullHouse => "full_house",
            Technique::HiddenSingle => "hidden_single",
            Technique::NakedSingle => "naked_single",
            Technique::LockedPointing => "locked_candidates_pointing",
            Technique::LockedClaiming => "locked_candidates_claiming",
            Technique::NakedPair => "naked_pair",
            Technique::XWing => "x_wing",
            Technique::HiddenPair => "hidden_pair",
            Technique::NakedTriple => "naked_triple",
            Technique::Swordfish => "swordfish",
            Technique::HiddenTriple => "hidden_triple",
            Technique::XyWing => "xy_wing",
            Technique::XyzWing => "xyz_wing",
            Technique::WWing => "w_wing",
            Technique::NakedQuad => "naked_quad",
            Technique::Jellyfish => "jellyfish",
            Technique::HiddenQuad => "hidden_quad",
            Technique::SimpleColouring => "simple_colouring",
            Technique::UniqueRectangle => "unique_rectangle",
            Technique::CellForcingChain => "cell_forcing_chain",
            Technique::UnitForcingChain => "unit_forcing_chain",
            Technique::ContradictionChain => "contradiction_chain",
            Technique::DynamicContradictionChain => "dynamic_contradiction_chain",
            Technique::DynamicForcingChain => "dynamic_forcing_chain",
        }
    }

    /// A human label: `hidden single`, `X-Wing`.
    pub fn label(self) -> &'static str {
        match self {
            Technique::FullHouse => "full house",
            Technique::HiddenSingle => "hidden single",
            Technique::NakedSingle => "naked single",
            Technique::LockedPointing => "locked candidates (pointing)",
            Technique::LockedClaiming => "locked candidates (claiming)",
            Technique::NakedPair => "naked pair",
            Technique::XWing => "X-Wing",
            Technique::HiddenPair => "hidden pair",
            Technique::NakedTriple => "naked triple",
            Technique::Swordfish => "Swordfish",
            Technique::HiddenTriple => "hidden triple",
            Technique::XyWing => "XY-Wing",
            Technique::XyzWing => "XYZ-Wing",
            Technique::WWing => "W-Wing",
            Technique::NakedQuad => "naked quad",
            Technique::Jellyfish => "Jellyfish",
            Technique::HiddenQuad => "hidden quad",
            Technique::SimpleColouring => "simple colouring",
            Technique::UniqueRectangle => "unique rectangle type 1",
            Technique::CellForcingChain => "cell forcing chain",
            Technique::UnitForcingChain => "unit forcing chain",
            Technique::ContradictionChain => "contradiction chain",
            Technique::DynamicContradictionChain => "dynamic contradiction chain",
            Technique::DynamicForcingChain => "dynamic forcing chain",
        }
    }

    /// The technique with this [`Technique::name`].
    pub fn from_name(name: &str) -> Option<Technique> {
        Technique::ALL.into_iter().find(|t| t.name() == name)
    }
}

impl std::fmt::Display for Technique {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.label())
    }
}

/// One deduction: what it places and removes, and what justifies it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Step {
    /// The technique used.
    pub technique: Technique,
    /// Digits placed (singles, and forcing chains that agree on a placement).
    pub placements: Vec<Placement>,
    /// Candidates removed.
    pub eliminations: Vec<Placement>,
    /// Cells that justify the step, in the order the description names them
    /// (the subset's cells, the fish's corners, a wing's pivot then pincers,
    /// a chain's starting cell ...).
    pub cells: Vec<usize>,
    /// Units that justify the step (the unit of a single or subset, a fish's
    /// base lines then cover lines, a locked candidate's box and line ...).
    pub units: Vec<Unit>,
    /// Digits that justify the step (a subset's digits, a fish's digit, a
    /// wing's pivot digits then the removed one, a chain's assumed digit ...).
    pub digits: Vec<u8>,
}

/// `r1c1, r1c5`.
fn cell_list(cells: &[usize]) -> String {
    cells
        .iter()
        .map(|&c| cell_name(c))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `3, 7`.
fn digit_list(digits: &[u8]) -> String {
    digits
        .iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// `rows 2 and 8`, `columns 1, 4 and 9`: a list of units of one kind.
fn unit_list(units: &[Unit]) -> String {
    let kind = match units.first() {
        Some(Unit::Row(_)) => "rows",
        Some(Unit::Column(_)) => "columns",
        Some(Unit::Box(_)) => "boxes",
        None => return String::new(),
    };
    if let [one] = units {
        return one.to_string();
    }
    let numbers: Vec<String> = units
        .iter()
        .map(|u| (u.index() % 9 + 1).to_string())
        .collect();
    let (last, rest) = numbers
        .split_last()
        .map_or(("", &[][..]), |(l, r)| (l.as_str(), r));
    format!("{kind} {} and {last}", rest.join(", "))
}

/// `r1c1 = 5, r2c3 = 4`.
fn placement_list(placements: &[Placement]) -> String {
    placements
        .iter()
        .map(|p| format!("{} = {}", cell_name(p.cell), p.digit))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `removes 7 from r5c3, r6c3; 2 from r1c1`: eliminations grouped by digit.
fn removal_list(eliminations: &[Placement]) -> String {
    let mut groups: Vec<(u8, Vec<usize>)> = Vec::new();
    for e in eliminations {
        match groups.iter_mut().find(|(d, _)| *d == e.digit) {
            Some((_, cells)) => cells.push(e.cell),
            None => groups.push((e.digit, vec![e.cell])),
        }
    }
    let parts: Vec<String> = groups
        .iter()
        .map(|(d, cells)| format!("{d} from {}", cell_list(cells)))
        .collect();
    format!("removes {}", parts.join("; "))
}

impl Step {
    /// True when the step disagrees with `solution` (a solved 9x9 board):
    /// it places a digit the solution does not have there, or removes the
    /// solution's digit. A sound step never does, for any solution of the
    /// puzzle (uniqueness steps: for its only solution).
    pub fn contradicts(&self, solution: &Board) -> bool {
        let digit_at = |cell: usize| solution.cells.get(cell).copied();
        self.placements
            .iter()
            .any(|p| digit_at(p.cell) != Some(p.digit))
            || self
                .eliminations
                .iter()
                .any(|e| digit_at(e.cell) == Some(e.digit))
    }

    /// The step in plain words, with 1-based `r1c1` names:
    /// `r4c7 = 3 (hidden single in box 6)`,
    /// `X-Wing on 7 in rows 2 and 8 removes 7 from r5c3, r6c3`.
    pub fn describe(&self) -> String {
        let removes = removal_list(&self.eliminations);
        let unit = |i: usize| self.units.get(i).map_or(String::new(), Unit::to_string);
        let digit = |i: usize| self.digits.get(i).copied().unwrap_or(0);
        let cell = |i: usize| self.cells.get(i).map_or(String::new(), |&c| cell_name(c));
        let label = self.technique.label();
        match self.technique {
            Technique::FullHouse => format!(
                "{} (full house: last empty cell of {})",
                placement_list(&self.placements),
                unit(0)
            ),
            Technique::HiddenSingle => format!(
                "{} (hidden single in {})",
                placement_list(&self.placements),
                unit(0)
            ),
            Technique::NakedSingle => format!(
                "{} (naked single: the only candidate left)",
                placement_list(&self.placements)
            ),
            Technique::LockedPointing | Technique::LockedClaiming => format!(
                "{label}: {} in {} lies only in {}, so it {removes}",
                digit(0),
                unit(0),
                unit(1)
            ),
            Technique::NakedPair
            | Technique::NakedTriple
            | Technique::NakedQuad
            | Technique::HiddenPair
            | Technique::HiddenTriple
            | Technique::HiddenQuad => format!(
                "{label} {} in {} ({}) {removes}",
                digit_list(&self.digits),
                cell_list(&self.cells),
                unit(0)
            ),
            Technique::XWing | Technique::Swordfish | Technique::Jellyfish => {
                let half = self.units.len() / 2;
                format!(
                    "{label} on {} in {} {removes}",
                    digit(0),
                    unit_list(&self.units[..half])
                )
            }
            Technique::XyWing => format!(
                "{label} with pivot {} ({x}, {y}) and pincers {} ({x}, {z}), {} ({y}, {z}) {removes}",
                cell(0),
                cell(1),
                cell(2),
                x = digit(0),
                y = digit(1),
                z = digit(2)
            ),
            Technique::XyzWing => {
                let mut pivot = self.digits.clone();
                pivot.sort_unstable();
                format!(
                    "{label} with pivot {} ({}) and pincers {}, {}: one of them is {}, so it {removes}",
                    cell(0),
                    digit_list(&pivot),
                    cell(1),
                    cell(2),
                    digit(2)
                )
            }
            Technique::WWing => format!(
                "{label}: {} and {} (both {} and {}) are linked by the strong link on {} in {} ({}, {}), so it {removes}",
                cell(0),
                cell(1),
                digit(0),
                digit(1),
                digit(1),
                unit(0),
                cell(2),
                cell(3)
            ),
            Technique::SimpleColouring => format!(
                "{label} on {} ({}): {removes}",
                digit(0),
                if self.units.is_empty() {
                    "a cell sees both colours".to_string()
                } else {
                    format!("one colour appears twice in {}", unit(0))
                }
            ),
            Technique::UniqueRectangle => format!(
                "{label} on {} in {}: {} must not be only {} and {}, so it {removes}",
                digit_list(&self.digits),
                cell_list(&self.cells),
                cell(3),
                digit(0),
                digit(1)
            ),
            Technique::CellForcingChain
            | Technique::UnitForcingChain
            | Technique::ContradictionChain
            | Technique::DynamicContradictionChain
            | Technique::DynamicForcingChain => forcing::describe(self),
        }
    }
}

/// How the candidates broke down: the puzzle (or an assumption) has no solution.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Conflict {
    /// An empty cell has no candidate left.
    EmptyCell(usize),
    /// A digit has no place left in a unit that does not hold it yet.
    MissingDigit(Unit, u8),
}

impl Conflict {
    /// `r3c4 has no candidate left`, `7 has no place left in row 2`.
    pub fn describe(&self) -> String {
        match self {
            Conflict::EmptyCell(cell) => format!("{} has no candidate left", cell_name(*cell)),
            Conflict::MissingDigit(unit, digit) => {
                format!("{digit} has no place left in {unit}")
            }
        }
    }
}

/// Why a board cannot go to the logic engine.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LogicError {
    /// The engine knows the classic 9x9 only.
    #[error("the logic engine works on 9x9 puzzles only, not {0}")]
    NotClassic(String),
    /// The board's cell count does not match its shape, or a value is out of range.
    #[error("the board does not fit its shape (81 cells of 0-9 expected)")]
    Malformed,
    /// Two givens break a rule.
    #[error(transparent)]
    Clash(#[from] Clash),
}

/// A 9x9 position with pencil marks: placed digits and the candidates of
/// every empty cell (see the module documentation for the layout).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Candidates {
    /// Placed digit of each cell, 0 when empty.
    values: [u8; 81],
    /// Candidate mask of each empty cell (bit `d - 1` for digit `d`), 0 when placed.
    masks: [u16; 81],
}

impl Candidates {
    /// The position of a 9x9 board: its givens placed, every empty cell
    /// holding the digits none of its peers holds. Errors for other shapes,
    /// malformed boards and clashing givens.
    pub fn from_board(board: &Board) -> Result<Candidates, LogicError> {
        if board.shape != Shape::classic() {
            return Err(LogicError::NotClassic(board.shape.name()));
        }
        if board.cells.len() != 81 || board.cells.iter().any(|&v| v > 9) {
            return Err(LogicError::Malformed);
        }
        if let Some(clash) = Clash::find(board) {
            return Err(clash.into());
        }
        let mut grid = Candidates::empty();
        for (cell, &value) in board.cells.iter().enumerate() {
            if value != 0 {
                grid.place(cell, value);
            }
        }
        Ok(grid)
    }

    /// An empty grid: every cell holds every candidate.
    pub fn empty() -> Candidates {
        Candidates {
            values: [0; 81],
            masks: [ALL; 81],
        }
    }

    /// The digit placed in `cell`, 0 when it is empty.
    pub fn value(&self, cell: usize) -> u8 {
        self.values[cell]
    }

    /// The candidate mask of `cell` (bit `d - 1` for digit `d`), 0 when placed.
    pub fn mask(&self, cell: usize) -> u16 {
        self.masks[cell]
    }

    /// The candidates of `cell`, smallest first (none when it is placed).
    pub fn candidates(&self, cell: usize) -> Vec<u8> {
        digits(self.masks[cell]).collect()
    }

    /// True when `digit` is a candidate of the empty `cell`.
    pub fn has(&self, cell: usize, digit: u8) -> bool {
        self.masks[cell] & bit(digit) != 0
    }

    /// True when every cell holds a digit.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// The placed digits as a board (empty cells 0).
    pub fn to_board(&self) -> Board {
        Board {
            shape: Shape::classic(),
            cells: self.values.to_vec(),
        }
    }

    /// Places `digit` in `cell` and removes it from the cell's peers.
    pub fn place(&mut self, cell: usize, digit: u8) {
        self.values[cell] = digit;
        self.masks[cell] = 0;
        for &peer in &PEERS[cell] {
            self.masks[peer] &= !bit(digit);
        }
    }

    /// Removes candidate `digit` from `cell`.
    pub fn eliminate(&mut self, cell: usize, digit: u8) {
        self.masks[cell] &= !bit(digit);
    }

    /// Applies a step's placements and eliminations.
    pub fn apply(&mut self, step: &Step) {
        for p in &step.placements {
            self.place(p.cell, p.digit);
        }
        for e in &step.eliminations {
            self.eliminate(e.cell, e.digit);
        }
    }

    /// True when applying `step` would change something (it places a digit
    /// in an empty cell or removes a present candidate).
    pub fn changed_by(&self, step: &Step) -> bool {
        step.placements.iter().any(|p| self.values[p.cell] == 0)
            || step.eliminations.iter().any(|e| self.has(e.cell, e.digit))
    }

    /// The first conflict of the position (an empty cell without
    /// candidates, or a digit without a place in a unit), if any.
    pub fn conflict(&self) -> Option<Conflict> {
        if let Some(cell) = (0..81).find(|&c| self.values[c] == 0 && self.masks[c] == 0) {
            return Some(Conflict::EmptyCell(cell));
        }
        for (u, unit) in UNITS.iter().enumerate() {
            let mut seen = 0u16;
            for &cell in unit {
                seen |= self.masks[cell];
                if self.values[cell] != 0 {
                    seen |= bit(self.values[cell]);
                }
            }
            if seen != ALL {
                return Some(Conflict::MissingDigit(
                    Unit::from_index(u),
                    only_digit(ALL & !seen),
                ));
            }
        }
        None
    }

    /// Positions (bit `i` for the unit's `i`-th cell) where `digit` is a
    /// candidate in unit `u` (internal number).
    pub(crate) fn places(&self, u: usize, digit: u8) -> u16 {
        let mut places = 0;
        for (i, &cell) in UNITS[u].iter().enumerate() {
            if self.masks[cell] & bit(digit) != 0 {
                places |= 1 << i;
            }
        }
        places
    }

    /// Eliminations of `digit` from each of `cells` where it is a candidate.
    pub(crate) fn removals(
        &self,
        digit: u8,
        cells: impl IntoIterator<Item = usize>,
    ) -> Vec<Placement> {
        cells
            .into_iter()
            .filter(|&c| self.has(c, digit))
            .map(|cell| Placement { cell, digit })
            .collect()
    }

    /// Eliminations of `digit` from every cell that sees all of `cells`
    /// (which excludes `cells` themselves).
    pub(crate) fn seeing_all(&self, digit: u8, cells: &[usize]) -> Vec<Placement> {
        let targets = (0..81).filter(|&c| cells.iter().all(|&x| sees(c, x)));
        self.removals(digit, targets)
    }
}

/// What the caller knows about the puzzle, which unlocks techniques.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Options {
    /// The puzzle has exactly one solution (checked with [`solve`](fn@crate::solve)):
    /// allows uniqueness techniques (unique rectangles), which can remove a
    /// true candidate from a puzzle with several solutions.
    pub unique: bool,
}

/// The next step of the simplest technique that applies to `grid`, without
/// uniqueness techniques; `None` when logic is stuck (or the position is
/// solved or broken).
pub fn next_step(grid: &Candidates) -> Option<Step> {
    next_step_with(grid, &Options::default())
}

/// [`next_step`] with options: `options.unique` allows unique rectangles.
pub fn next_step_with(grid: &Candidates, options: &Options) -> Option<Step> {
    basic_step(grid, options).or_else(|| forcing::find(grid, options))
}

/// The next step of a technique before the forcing chains (which use this
/// for their dynamic branches).
pub(crate) fn basic_step(grid: &Candidates, options: &Options) -> Option<Step> {
    singles::full_house(grid)
        .or_else(|| singles::hidden_single(grid))
        .or_else(|| singles::naked_single(grid))
        .or_else(|| intersections::pointing(grid))
        .or_else(|| intersections::claiming(grid))
        .or_else(|| subsets::naked(grid, 2))
        .or_else(|| subsets::hidden(grid, 2))
        .or_else(|| subsets::naked(grid, 3))
        .or_else(|| subsets::hidden(grid, 3))
        .or_else(|| fish::find(grid, 2))
        .or_else(|| fish::find(grid, 3))
        .or_else(|| wings::xy_wing(grid))
        .or_else(|| wings::xyz_wing(grid))
        .or_else(|| wings::w_wing(grid))
        .or_else(|| subsets::naked(grid, 4))
        .or_else(|| fish::find(grid, 4))
        .or_else(|| subsets::hidden(grid, 4))
        .or_else(|| colouring::simple_colouring(grid))
        .or_else(|| {
            options
                .unique
                .then(|| uniqueness::rectangle_type1(grid))
                .flatten()
        })
}

/// How an explanation ends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum End {
    /// Logic filled every cell.
    Solved(Board),
    /// No technique applies: the position, with its candidates, where search
    /// has to take over.
    Stuck(Candidates),
    /// The candidates broke down: the puzzle has no solution.
    Contradiction(Candidates, Conflict),
}

/// A solution path by logic: the steps in order and how it ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Explanation {
    /// Every step taken, in order.
    pub steps: Vec<Step>,
    /// Solved, stuck or broken.
    pub end: End,
}

/// Solves `board` by logic alone, one step at a time, until it is solved,
/// stuck or broken. Errors for non-9x9 boards and clashing givens.
pub fn explain(board: &Board, options: &Options) -> Result<Explanation, LogicError> {
    let mut grid = Candidates::from_board(board)?;
    let mut steps = Vec::new();
    let end = loop {
        if let Some(conflict) = grid.conflict() {
            break End::Contradiction(grid, conflict);
        }
        if grid.is_solved() {
            break End::Solved(grid.to_board());
        }
        match next_step_with(&grid, options) {
            // Every technique only returns steps that change the grid, so
            // this loop ends; the check guards against a technique's bug
            // turning into an endless loop.
            Some(step) if grid.changed_by(&step) => {
                grid.apply(&step);
                steps.push(step);
            }
            _ => break End::Stuck(grid),
        }
    };
    Ok(Explanation { steps, end })
}

#[cfg(test)]
mod tests;
