//! Puzzle generation: random full grids, then clues taken away while the
//! puzzle keeps exactly one solution.
//!
//! How one puzzle is made:
//!
//! 1. A random full grid: a depth-first fill that always takes the cell
//!    with the fewest candidates and tries its digits in random order.
//!    A fill that wanders too long is dropped and started again (see
//!    [`FILL_NODES_PER_CELL`]).
//! 2. The cells are grouped into *orbits* of the chosen [`Symmetry`] (one
//!    cell each with no symmetry, a cell and its mirror image otherwise)
//!    and the orbits are visited once in random order: an orbit is taken
//!    away when the puzzle keeps a unique solution without it, and put back
//!    otherwise. Uniqueness is checked by counting solutions up to two,
//!    with the allocation-free fast path for 9x9 and [`solve`] for the rest.
//!
//! One pass is enough for minimality: an orbit whose removal gave a second
//! solution still does so once more clues are gone (fewer clues only ever
//! allow more solutions). So a finished pass leaves a puzzle in which no
//! orbit can be removed; with no symmetry, no single clue. With a symmetry,
//! *minimal* means "no orbit can be removed": a lone clue of an orbit might
//! still be removable, but only by breaking the symmetry.
//!
//! Randomness comes from [`SplitMix64`], a small seeded generator, so the
//! solver crate needs no dependency and the same [`Options::seed`] gives the
//! same puzzles on every machine. Every candidate puzzle, accepted or not,
//! draws from the one stream, so the output is fixed by the seed and, when
//! an acceptance filter is given, by the filter's answers.

use std::collections::HashSet;

use crate::board::Board;
use crate::propagate;
use crate::shape::Shape;
use crate::solve::{solve, Outcome};

/// Nodes a grid fill may visit per cell of the shape before it is dropped
/// and started afresh with new random choices. A fill that keeps taking
/// the most constrained cell almost never backtracks far on 9x9; on 16x16
/// and Samurai an early bad choice can leave a dead end deep in the
/// search, and a restart is far cheaper than digging out of it.
const FILL_NODES_PER_CELL: usize = 20;

/// Grids made for one puzzle when [`Options::clues`] asks for fewer clues
/// than a removal pass reaches: each try is a new grid and a new removal
/// order, and the puzzle with the fewest clues (never fewer than asked) is
/// kept. A target below what any puzzle of the shape can have (16 and
/// fewer for 9x9) is never met, so this bounds the work spent on it.
pub const CLUE_TARGET_TRIES: usize = 5;

/// Default for [`Options::max_tries`]: enough for a filter that accepts
/// one candidate in a few hundred, without hanging on one that accepts none.
pub const DEFAULT_MAX_TRIES: usize = 1000;

/// How the clues of a puzzle are laid out: every clue's image under the
/// symmetry is a clue too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// No constraint on where the clues are.
    None,
    /// Rotational symmetry by 180 degrees about the centre (the classic
    /// newspaper layout): `(r, c)` goes with `(n-1-r, n-1-c)`.
    Central,
    /// Mirror image left to right, about the vertical centre line:
    /// `(r, c)` goes with `(r, n-1-c)`.
    Horizontal,
    /// Mirror image top to bottom, about the horizontal centre line:
    /// `(r, c)` goes with `(n-1-r, c)`.
    Vertical,
    /// Mirror image about the main diagonal (top left to bottom right):
    /// `(r, c)` goes with `(c, r)`.
    Diagonal,
}

impl Symmetry {
    /// Every symmetry, in the order [`Symmetry::name`]s are listed for users.
    pub const ALL: [Symmetry; 5] = [
        Symmetry::None,
        Symmetry::Central,
        Symmetry::Horizontal,
        Symmetry::Vertical,
        Symmetry::Diagonal,
    ];

    /// The name users type: `none`, `central`, `horizontal`, `vertical`,
    /// `diagonal`.
    pub fn name(self) -> &'static str {
        match self {
            Symmetry::None => "none",
            Symmetry::Central => "central",
            Symmetry::Horizontal => "horizontal",
            Symmetry::Vertical => "vertical",
            Symmetry::Diagonal => "diagonal",
        }
    }

    /// The symmetry named `text` (case does not matter); besides the
    /// [`Symmetry::name`]s, `rotational` and `180` mean [`Symmetry::Central`]
    /// and `mirror` means [`Symmetry::Horizontal`]. `None` for anything else.
    pub fn parse(text: &str) -> Option<Symmetry> {
        let text = text.trim().to_ascii_lowercase();
        match text.as_str() {
            "rotational" | "180" => Some(Symmetry::Central),
            "mirror" => Some(Symmetry::Horizontal),
            _ => Symmetry::ALL.into_iter().find(|s| s.name() == text),
        }
    }

    /// The image of layout position `index` in a `side` x `side` layout.
    /// Every shape's layout is a square whose cells (a Samurai's five grids
    /// too) map onto cells under all of these symmetries.
    fn image(self, index: usize, side: usize) -> usize {
        let (r, c) = (index / side, index % side);
        let (r, c) = match self {
            Symmetry::None => (r, c),
            Symmetry::Central => (side - 1 - r, side - 1 - c),
            Symmetry::Horizontal => (r, side - 1 - c),
            Symmetry::Vertical => (side - 1 - r, c),
            Symmetry::Diagonal => (c, r),
        };
        r * side + c
    }

    /// The cells of `shape` grouped into orbits: each cell with its image,
    /// each orbit once, in layout order.
    fn orbits(self, shape: Shape) -> Vec<Vec<usize>> {
        let side = shape.side();
        (0..shape.cell_count())
            .filter(|&i| shape.contains(i))
            .filter_map(|i| {
                let j = self.image(i, side);
                // Each orbit is listed from its lowest position.
                (i <= j).then(|| if i == j { vec![i] } else { vec![i, j] })
            })
            .collect()
    }
}

/// What to generate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    /// The shape of the puzzles.
    pub shape: Shape,
    /// How many puzzles the iterator yields (fewer only when `max_tries`
    /// runs out).
    pub count: usize,
    /// Seed of the random stream: the same options and seed give the same
    /// puzzles.
    pub seed: u64,
    /// Stop taking clues away at this many. `None` takes away all it can
    /// (a minimal puzzle). When a removal pass cannot get down to the
    /// target, the puzzle with the fewest clues above it out of
    /// [`CLUE_TARGET_TRIES`] grids is given.
    pub clues: Option<usize>,
    /// Where the clues may be.
    pub symmetry: Symmetry,
    /// Candidate puzzles made in a row without one being yielded (the
    /// filter rejected them, or they repeated an earlier puzzle) before the
    /// iterator gives up and ends; 0 means no limit.
    pub max_tries: usize,
}

impl Options {
    /// `count` minimal puzzles of `shape` from `seed`, no symmetry, no
    /// clue target, [`DEFAULT_MAX_TRIES`].
    pub fn new(shape: Shape, count: usize, seed: u64) -> Options {
        Options {
            shape,
            count,
            seed,
            clues: None,
            symmetry: Symmetry::None,
            max_tries: DEFAULT_MAX_TRIES,
        }
    }
}

/// One generated puzzle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Generated {
    /// The puzzle: exactly one solution.
    pub puzzle: Board,
    /// Its solution.
    pub solution: Board,
    /// True when no clue orbit can be removed without losing uniqueness
    /// (checked for every orbit). False when a clue target stopped the
    /// removal before every orbit was tried.
    pub minimal: bool,
    /// Candidate puzzles made to get this one (1 when the first was
    /// accepted), for progress reports.
    pub tries: usize,
}

/// A filter a finished puzzle must pass to be yielded (a difficulty
/// grader, for instance).
pub type Accept<'a> = &'a dyn Fn(&Board) -> bool;

/// The puzzles `options` describe, made lazily, one per `next`. Puzzles the
/// `accept` filter turns down, and repeats of a puzzle already yielded, are
/// dropped and generation goes on with the same random stream.
pub fn generate<'a>(options: &Options, accept: Option<Accept<'a>>) -> Generator<'a> {
    Generator {
        options: options.clone(),
        accept,
        rng: SplitMix64::new(options.seed),
        orbits: options.symmetry.orbits(options.shape),
        units: UnitMap::new(options.shape),
        seen: HashSet::new(),
        yielded: 0,
    }
}

/// The iterator [`generate`] returns.
pub struct Generator<'a> {
    options: Options,
    accept: Option<Accept<'a>>,
    rng: SplitMix64,
    orbits: Vec<Vec<usize>>,
    units: UnitMap,
    /// Every puzzle yielded so far, so that none repeats.
    seen: HashSet<Vec<u8>>,
    yielded: usize,
}

impl Iterator for Generator<'_> {
    type Item = Generated;

    fn next(&mut self) -> Option<Generated> {
        if self.yielded >= self.options.count {
            return None;
        }
        let mut tries = 0;
        loop {
            if self.options.max_tries != 0 && tries == self.options.max_tries {
                return None;
            }
            tries += 1;
            let made = self.candidate();
            let passes = self.accept.is_none_or(|accept| accept(&made.puzzle));
            if passes && self.seen.insert(made.puzzle.cells.clone()) {
                self.yielded += 1;
                return Some(Generated { tries, ..made });
            }
        }
    }
}

impl Generator<'_> {
    /// One candidate puzzle: the best of up to [`CLUE_TARGET_TRIES`] grids
    /// when a clue target is not met, else the first.
    fn candidate(&mut self) -> Generated {
        let target = self.options.clues;
        let met = |made: &Generated| target.is_none_or(|t| made.puzzle.givens() <= t);
        let solution = self.units.fill(&mut self.rng);
        let mut best = self.reduce(solution);
        for _ in 1..CLUE_TARGET_TRIES {
            if met(&best) {
                break;
            }
            let solution = self.units.fill(&mut self.rng);
            let made = self.reduce(solution);
            if made.puzzle.givens() < best.puzzle.givens() {
                best = made;
            }
        }
        best
    }

    /// Takes clue orbits away from the full grid `solution` in random order
    /// while the puzzle stays unique, down to the clue target if any.
    fn reduce(&mut self, solution: Board) -> Generated {
        let mut puzzle = solution.clone();
        let mut order: Vec<usize> = (0..self.orbits.len()).collect();
        self.rng.shuffle(&mut order);
        let mut clues = puzzle.givens();
        let mut minimal = true;
        for k in order {
            let orbit = &self.orbits[k];
            if let Some(target) = self.options.clues {
                if clues < target + orbit.len() {
                    // Taking this orbit would go below the target: it is
                    // never tried, so minimality is not known.
                    minimal = false;
                    continue;
                }
            }
            for &i in orbit {
                puzzle.cells[i] = 0;
            }
            if is_unique(&puzzle) {
                clues -= orbit.len();
            } else {
                for &i in orbit {
                    puzzle.cells[i] = solution.cells[i];
                }
            }
        }
        Generated {
            puzzle,
            solution,
            minimal,
            tries: 1,
        }
    }
}

/// True when `puzzle` has exactly one solution: the 9x9 fast path when it
/// applies, [`solve`] otherwise.
fn is_unique(puzzle: &Board) -> bool {
    if puzzle.shape == Shape::classic() {
        let mut cells = [0u8; 81];
        cells.copy_from_slice(&puzzle.cells);
        let mut first = [0u8; 81];
        return propagate::count(&cells, 2, &mut first) == 1;
    }
    matches!(solve(puzzle, 2), Ok(Outcome::Unique(_)))
}

/// The units each cell of a shape belongs to, for filling grids.
struct UnitMap {
    shape: Shape,
    /// Unit indices of each layout position (empty outside a Samurai's grids).
    units_of: Vec<Vec<usize>>,
    /// Number of units.
    unit_count: usize,
    /// The cells of the shape, in layout order.
    cells: Vec<usize>,
}

/// The search state of one grid fill.
struct Fill<'u> {
    map: &'u UnitMap,
    values: Vec<u8>,
    /// Digits placed in each unit, bit `d` for digit `d`.
    used: Vec<u64>,
    /// Nodes left before the fill gives up.
    nodes_left: usize,
}

impl UnitMap {
    fn new(shape: Shape) -> UnitMap {
        let units = shape.units();
        let mut units_of = vec![Vec::new(); shape.cell_count()];
        for (u, unit) in units.iter().enumerate() {
            for &cell in unit {
                units_of[cell].push(u);
            }
        }
        UnitMap {
            shape,
            units_of,
            unit_count: units.len(),
            cells: (0..shape.cell_count())
                .filter(|&i| shape.contains(i))
                .collect(),
        }
    }

    /// A random full grid, restarting any fill that runs out of nodes.
    fn fill(&self, rng: &mut SplitMix64) -> Board {
        loop {
            let mut fill = Fill {
                map: self,
                values: vec![0; self.shape.cell_count()],
                used: vec![0; self.unit_count],
                nodes_left: FILL_NODES_PER_CELL * self.cells.len(),
            };
            if fill.search(rng) {
                return Board {
                    shape: self.shape,
                    cells: fill.values,
                };
            }
        }
    }
}

impl Fill<'_> {
    /// Digits cell `i` may still take, bit `d` for digit `d`.
    fn candidates(&self, i: usize) -> u64 {
        let all = ((1u64 << self.map.shape.digits()) - 1) << 1;
        let used = self.map.units_of[i]
            .iter()
            .fold(0, |acc, &u| acc | self.used[u]);
        all & !used
    }

    /// Fills every empty cell, most constrained first, digits in random
    /// order. False on a dead end or when the node budget runs out.
    fn search(&mut self, rng: &mut SplitMix64) -> bool {
        let mut best: Option<(usize, u64)> = None;
        for &i in &self.map.cells {
            if self.values[i] != 0 {
                continue;
            }
            let candidates = self.candidates(i);
            if best.is_none_or(|(_, b)| candidates.count_ones() < b.count_ones()) {
                best = Some((i, candidates));
                if candidates.count_ones() <= 1 {
                    break;
                }
            }
        }
        let Some((i, candidates)) = best else {
            return true;
        };
        let mut digits: Vec<u8> = (1..=self.map.shape.digits() as u8)
            .filter(|&d| candidates >> d & 1 == 1)
            .collect();
        rng.shuffle(&mut digits);
        for d in digits {
            if self.nodes_left == 0 {
                return false;
            }
            self.nodes_left -= 1;
            self.place(i, d, true);
            if self.search(rng) {
                return true;
            }
            self.place(i, d, false);
        }
        false
    }

    /// Puts digit `d` in cell `i` (`on`) or takes it out again.
    fn place(&mut self, i: usize, d: u8, on: bool) {
        self.values[i] = if on { d } else { 0 };
        for &u in &self.map.units_of[i] {
            self.used[u] ^= 1 << d;
        }
    }
}

/// SplitMix64 (Steele, Lea and Flood, 2014): one 64-bit state advanced by a
/// constant and scrambled on output. Small, fast, well distributed, and
/// the same on every platform, which is all a generator needs here; not
/// for anything secret.
#[derive(Debug, Clone)]
struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n > 0`), by the high half of a 128-bit product
    /// (Lemire): the bias is below `n / 2^64`, nothing for lists this short.
    fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }

    /// Fisher-Yates shuffle.
    fn shuffle<T>(&mut self, items: &mut [T]) {
        for k in (1..items.len()).rev() {
            let j = self.below(k + 1);
            items.swap(k, j);
        }
    }
}
