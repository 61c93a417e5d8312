//! Puzzle generation: random full grids, then clues taken away while the
//! puzzle keeps exactly one solution.
//!
//! How one puzzle is made:
//!
//! 1. A random full grid: a depth-first fill that always takes the cell
//!    with the fewest candidates and tries its digits in random order.
//!    A fill that wanders too long is dropped and started again (see
//!    `FILL_NODES_PER_CELL`).
//! 2. The cells are grouped into *orbits* of the chosen [`Symmetry`] (one
//!    cell each with no symmetry, a cell and its mirror image otherwise)
//!    and the orbits are visited once in random order: an orbit is taken
//!    away when the puzzle keeps a unique solution without it, and put back
//!    otherwise. Uniqueness is checked by counting solutions up to two,
//!    with the allocation-free fast path for 9x9 and the candidate-bitset
//!    solver (the engine [`solve`](crate::solve) runs for 16x16) for the rest.
//!
//! One pass is enough for minimality: an orbit whose removal gave a second
//! solution still does so once more clues are gone (fewer clues only ever
//! allow more solutions). So a finished pass leaves a puzzle in which no
//! orbit can be removed; with no symmetry, no single clue. With a symmetry,
//! *minimal* means "no orbit can be removed": a lone clue of an orbit might
//! still be removable, but only by breaking the symmetry.
//!
//! There is no time or node budget: every pass runs to the end, so
//! `minimal` is false only when a clue target stopped it. Measured in
//! release on a shared 2-core machine (`examples/generate_check.rs`): 9x9
//! about 5,000 minimal puzzles a second; 16x16 about a second each (worst
//! of 20: 2.2 s); Samurai 0.1 to 0.6 s; 20x20 35 s. 25x25 is out of reach:
//! one uniqueness check at 280 clues takes up to 13 s, and no puzzle came
//! out in five minutes; see [`LARGEST_SQUARE`].
//!
//! Randomness comes from SplitMix64, a small seeded generator, so the
//! solver crate needs no dependency and the same [`Options::seed`] gives the
//! same puzzles on every machine. Every candidate puzzle, accepted or not,
//! draws from the one stream, so the output is fixed by the seed and, when
//! an acceptance filter is given, by the filter's answers.

use std::collections::HashSet;

use crate::board::Board;
use crate::candidates::Candidates;
use crate::propagate;
use crate::shape::Shape;

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

/// Largest square (digits per row) worth generating: a minimal 20x20 takes
/// about half a minute, and no 25x25 came out in five minutes. The generator itself takes any
/// shape; callers facing users should refuse larger squares rather than
/// seem to hang.
pub const LARGEST_SQUARE: usize = 20;

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
///
/// ```
/// use snap_solver::generate::{generate, Options, Symmetry};
/// use snap_solver::{solve, Board, Shape};
///
/// let mut options = Options::new(Shape::classic(), 3, 42);
/// options.symmetry = Symmetry::Central;
/// // Only puzzles of at most 28 clues (a difficulty grader would go here).
/// let few_clues = |puzzle: &Board| puzzle.givens() <= 28;
/// for made in generate(&options, Some(&few_clues)) {
///     assert!(made.minimal && made.puzzle.givens() <= 28);
///     assert_eq!(solve(&made.puzzle, 2)?.count(), 1);
/// }
/// # Ok::<(), snap_solver::Clash>(())
/// ```
pub fn generate<'a>(options: &Options, accept: Option<Accept<'a>>) -> Generator<'a> {
    Generator {
        options: options.clone(),
        accept,
        rng: SplitMix64::new(options.seed),
        orbits: options.symmetry.orbits(options.shape),
        units: UnitMap::new(options.shape),
        checker: Checker::new(options.shape),
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
    checker: Checker,
    /// The [`fingerprint`] of every puzzle yielded so far, so that none
    /// repeats.
    seen: HashSet<u64>,
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
            if passes && self.seen.insert(fingerprint(&made.puzzle.cells)) {
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
            if self.checker.is_unique(&puzzle) {
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

/// A 64-bit fingerprint of a puzzle's cells, so that telling repeats
/// apart costs 8 bytes a puzzle rather than the whole board (a million
/// 9x9 puzzles would otherwise hold some 100 MB): FNV-1a, then the
/// SplitMix64 finaliser to spread the bits. Two distinct puzzles of one
/// run sharing a fingerprint (odds about n^2 / 2^65 over n puzzles) only
/// cost the second one a skip, and the fingerprint depends on the cells
/// alone, so runs stay deterministic.
fn fingerprint(cells: &[u8]) -> u64 {
    /// FNV-1a 64-bit offset basis and prime.
    const FNV_OFFSET: u64 = 0xCBF2_9CE4_8422_2325;
    const FNV_PRIME: u64 = 0x0000_0100_0000_01B3;
    let hash = cells.iter().fold(FNV_OFFSET, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(FNV_PRIME)
    });
    SplitMix64::mix(hash)
}

/// How uniqueness is checked for one shape.
enum Checker {
    /// The allocation-free 9x9 fast path.
    Classic,
    /// The candidate-bitset solver, tables built once for the shape. It is
    /// what [`solve`](crate::solve) runs for 16x16 and up; for a Samurai it is used here
    /// instead of the Dancing Links [`solve`](crate::solve) picks, because near-minimal
    /// Samurais are where Dancing Links, which does no propagation between
    /// guesses, spends seconds on a count.
    Candidates(Candidates),
}

impl Checker {
    fn new(shape: Shape) -> Checker {
        if shape == Shape::classic() {
            Checker::Classic
        } else {
            Checker::Candidates(Candidates::new(shape))
        }
    }

    /// True when `puzzle` (a subset of a full grid, so no clash) has
    /// exactly one solution.
    fn is_unique(&self, puzzle: &Board) -> bool {
        match self {
            Checker::Classic => {
                let mut cells = [0u8; 81];
                cells.copy_from_slice(&puzzle.cells);
                let mut first = [0u8; 81];
                propagate::count(&cells, 2, &mut first) == 1
            }
            Checker::Candidates(candidates) => candidates.solve(puzzle, 2).0 == 1,
        }
    }
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
        SplitMix64::mix(self.state)
    }

    /// The output scrambler: every bit of `z` affects every bit out.
    fn mix(z: u64) -> u64 {
        let z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        let z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::{solve, Outcome};
    use std::cell::Cell;

    /// `count` puzzles of `shape` from `seed` with `symmetry`, no filter.
    fn make(shape: Shape, count: usize, seed: u64, symmetry: Symmetry) -> Vec<Generated> {
        let mut options = Options::new(shape, count, seed);
        options.symmetry = symmetry;
        generate(&options, None).collect()
    }

    /// Panics unless `g` has exactly one solution, the one given, and no
    /// clue orbit of `symmetry` can be taken away (each leaves two
    /// solutions), and its clues are symmetric.
    fn assert_unique_minimal(g: &Generated, symmetry: Symmetry) {
        let outcome = solve(&g.puzzle, 2).unwrap();
        assert_eq!(
            outcome,
            Outcome::Unique(g.solution.clone()),
            "{}",
            g.puzzle.to_line()
        );
        assert!(g.minimal);
        for orbit in symmetry.orbits(g.puzzle.shape) {
            let given: Vec<bool> = orbit.iter().map(|&i| g.puzzle.cells[i] != 0).collect();
            assert!(
                given.iter().all(|&b| b == given[0]),
                "orbit {orbit:?} is split"
            );
            if !given[0] {
                continue;
            }
            let mut fewer = g.puzzle.clone();
            for &i in &orbit {
                fewer.cells[i] = 0;
            }
            assert_eq!(
                solve(&fewer, 2).unwrap().count(),
                2,
                "orbit {orbit:?} removable"
            );
        }
    }

    #[test]
    fn splitmix64_matches_the_reference_stream() {
        // The first outputs of the reference implementation for seed 1234567.
        let mut rng = SplitMix64::new(1_234_567);
        let first: Vec<u64> = (0..3).map(|_| rng.next_u64()).collect();
        assert_eq!(
            first,
            [
                6_457_827_717_110_365_317,
                3_203_168_211_198_807_973,
                9_817_491_932_198_370_423
            ]
        );
        let mut items: Vec<u32> = (0..10).collect();
        rng.shuffle(&mut items);
        items.sort_unstable();
        assert_eq!(items, (0..10).collect::<Vec<_>>());
        assert!((0..1000).all(|_| rng.below(7) < 7));
    }

    #[test]
    fn the_same_seed_gives_the_same_puzzles() {
        let a = make(Shape::classic(), 4, 7, Symmetry::None);
        let b = make(Shape::classic(), 4, 7, Symmetry::None);
        assert_eq!(a, b);
        // A shorter run is a prefix of a longer one.
        assert_eq!(make(Shape::classic(), 2, 7, Symmetry::None), a[..2]);
        let c = make(Shape::classic(), 4, 8, Symmetry::None);
        assert!(a.iter().zip(&c).all(|(x, y)| x.puzzle != y.puzzle));
    }

    #[test]
    fn classic_puzzles_are_unique_minimal_and_distinct() {
        let made = make(Shape::classic(), 30, 1, Symmetry::None);
        assert_eq!(made.len(), 30);
        let distinct: HashSet<&Board> = made.iter().map(|g| &g.puzzle).collect();
        assert_eq!(distinct.len(), 30);
        for g in &made {
            assert_unique_minimal(g, Symmetry::None);
            assert!(g.solution.is_solution_of(&g.puzzle));
            assert_eq!(g.tries, 1);
        }
    }

    #[test]
    fn every_symmetry_is_kept_and_its_orbits_are_minimal() {
        for symmetry in Symmetry::ALL {
            for g in make(Shape::classic(), 3, 2, symmetry) {
                assert_unique_minimal(&g, symmetry);
            }
        }
        // Orbits: 41 for central 9x9 (40 pairs and the centre), 45 for a
        // mirror (36 pairs and the 9 cells on the axis), 81 with none.
        let counts: Vec<usize> = Symmetry::ALL
            .iter()
            .map(|s| s.orbits(Shape::classic()).len())
            .collect();
        assert_eq!(counts, [81, 41, 45, 45, 45]);
        // A Samurai's cells map onto its cells under every symmetry.
        for symmetry in Symmetry::ALL {
            let orbits = symmetry.orbits(Shape::Samurai);
            assert!(orbits.iter().flatten().all(|&i| Shape::Samurai.contains(i)));
            assert_eq!(orbits.iter().map(Vec::len).sum::<usize>(), 369);
        }
    }

    #[test]
    fn other_shapes_go_through_the_candidate_solver() {
        // 6x6 (2x3 boxes, so a transpose does not map boxes onto boxes:
        // the symmetry is of the clue layout only).
        let six = Shape::square(6).unwrap();
        for symmetry in [Symmetry::None, Symmetry::Diagonal] {
            let made = make(six, 5, 3, symmetry);
            assert_eq!(made.len(), 5);
            for g in &made {
                assert_unique_minimal(g, symmetry);
            }
        }
    }

    #[test]
    fn a_clue_target_stops_the_removal() {
        let mut options = Options::new(Shape::classic(), 3, 4);
        options.clues = Some(35);
        for g in generate(&options, None) {
            assert_eq!(g.puzzle.givens(), 35);
            assert!(!g.minimal, "the removal stopped early");
            assert_eq!(solve(&g.puzzle, 2).unwrap().count(), 1);
        }
        // With central symmetry pairs go together: 35 or, when only pairs
        // are left to take, 36.
        options.symmetry = Symmetry::Central;
        for g in generate(&options, None) {
            assert!(
                (35..=36).contains(&g.puzzle.givens()),
                "{}",
                g.puzzle.givens()
            );
            assert_eq!(solve(&g.puzzle, 2).unwrap().count(), 1);
        }
        // No 9x9 puzzle has 10 clues: the fewest of the tries is given, and
        // its pass went through every clue, so it is minimal.
        options.symmetry = Symmetry::None;
        options.clues = Some(10);
        for g in generate(&options, None) {
            assert!(g.puzzle.givens() > 16);
            assert_unique_minimal(&g, Symmetry::None);
        }
        // A target above the full grid takes nothing away.
        options.clues = Some(100);
        let g = generate(&options, None).next().unwrap();
        assert_eq!(g.puzzle, g.solution);
        assert!(!g.minimal);
    }

    #[test]
    fn the_filter_decides_which_puzzles_are_yielded() {
        let asked = Cell::new(0);
        let few_clues = |board: &Board| {
            asked.set(asked.get() + 1);
            board.givens() <= 23
        };
        let options = Options::new(Shape::classic(), 5, 5);
        let made: Vec<Generated> = generate(&options, Some(&few_clues)).collect();
        assert_eq!(made.len(), 5);
        assert!(made.iter().all(|g| g.puzzle.givens() <= 23));
        let tries: usize = made.iter().map(|g| g.tries).sum();
        assert_eq!(tries, asked.get());
        assert!(tries > 5, "some candidates were turned down");
        // Still fixed by the seed.
        let again: Vec<Generated> = generate(&options, Some(&few_clues)).collect();
        assert_eq!(made, again);
        // A filter that accepts nothing ends the iterator after max_tries.
        let mut options = Options::new(Shape::classic(), 5, 5);
        options.max_tries = 3;
        asked.set(0);
        let never = |_: &Board| {
            asked.set(asked.get() + 1);
            false
        };
        assert_eq!(generate(&options, Some(&never)).count(), 0);
        assert_eq!(asked.get(), 3);
    }

    #[test]
    fn symmetry_names_parse_back() {
        for symmetry in Symmetry::ALL {
            assert_eq!(Symmetry::parse(symmetry.name()), Some(symmetry));
        }
        assert_eq!(Symmetry::parse(" Rotational"), Some(Symmetry::Central));
        assert_eq!(Symmetry::parse("180"), Some(Symmetry::Central));
        assert_eq!(Symmetry::parse("MIRROR"), Some(Symmetry::Horizontal));
        assert_eq!(Symmetry::parse("spiral"), None);
    }

    #[test]
    #[ignore = "16x16 and Samurai: seconds each in release, far too slow in debug; \
                run with cargo test --release -p snap-solver -- --ignored generate"]
    fn large_shapes_are_unique_and_minimal() {
        let sixteen = Shape::square(16).unwrap();
        for shape in [sixteen, Shape::Samurai] {
            for symmetry in [Symmetry::None, Symmetry::Central] {
                for g in make(shape, 2, 1, symmetry) {
                    assert_unique_minimal(&g, symmetry);
                }
            }
        }
    }
}
