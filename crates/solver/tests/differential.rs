//! The 9x9 fast path and the Dancing Links engine must agree on every
//! puzzle: same count (up to a limit), same solution when it is unique, and
//! every solution valid. Run over the benchmark sets in ../shared/puzzles
//! (when present) and over generated puzzles with 0, 1 and many solutions.

use std::path::PathBuf;

use snap_solver::{solve, solve_dlx, Board, Outcome, Shape};

/// Solutions counted per puzzle: enough to tell 2 from many.
const LIMIT: usize = 3;

/// Puzzles taken from each shared set, spread over the file.
const PER_SET: usize = 300;

/// `../shared/puzzles`, or `None` (a note) when absent; required in CI.
fn shared_puzzles() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/puzzles");
    if dir.is_dir() {
        return Some(dir);
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "{} not found (CI=true: shared data is required)",
        dir.display()
    );
    eprintln!("{} not found: skipping", dir.display());
    None
}

/// Small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Checks one puzzle through both engines; returns its count.
fn agree(puzzle: &Board, what: &str) -> usize {
    let fast = match solve(puzzle, LIMIT) {
        Ok(o) => o,
        Err(_) => Outcome::NoSolution,
    };
    let dlx = solve_dlx(puzzle, LIMIT);
    assert_eq!(
        fast.count(),
        dlx.count(),
        "{what}: counts differ for {}",
        puzzle.to_line()
    );
    if let Some(first) = fast.first() {
        assert!(
            first.is_solution_of(puzzle),
            "{what}: fast path gave an invalid solution"
        );
    }
    if let Some(first) = dlx.first() {
        assert!(
            first.is_solution_of(puzzle),
            "{what}: DLX gave an invalid solution"
        );
    }
    if let (Outcome::Unique(a), Outcome::Unique(b)) = (&fast, &dlx) {
        assert_eq!(a, b, "{what}: unique solutions differ");
    }
    fast.count()
}

#[test]
fn fast_path_and_dlx_agree_on_the_benchmark_sets() {
    let Some(dir) = shared_puzzles() else {
        return;
    };
    let sets = [
        ("puzzles2_17_clue.txt", Some(1)),
        ("puzzles3_magictour_top1465.txt", Some(1)),
        ("puzzles5_forum_hardest_1905_11+.txt", Some(1)),
        ("puzzles6_forum_hardest_1106.txt", Some(1)),
        ("puzzles7_serg_benchmark.txt", None),
        ("derived_17clue_minus1.txt", None),
        ("derived_17clue_unsat.txt", Some(0)),
        ("derived_hardest11_unsat.txt", Some(0)),
        ("gecode_9x9.txt", None),
    ];
    let mut total = 0;
    for (name, expected) in sets {
        let text =
            std::fs::read_to_string(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let lines: Vec<&str> = text.lines().filter(|l| l.len() >= 81).collect();
        let step = (lines.len() / PER_SET).max(1);
        for (i, line) in lines.iter().enumerate().step_by(step).take(PER_SET) {
            let puzzle =
                Board::parse(&line[..81], Shape::classic()).expect("a benchmark puzzle parses");
            let count = agree(&puzzle, &format!("{name} line {}", i + 1));
            match expected {
                Some(n) => assert_eq!(count, n, "{name} line {}", i + 1),
                None if name.starts_with("gecode") => {}
                None => assert!(
                    count >= 2,
                    "{name} line {}: expected several solutions",
                    i + 1
                ),
            }
            total += 1;
        }
    }
    assert!(total > 2000, "compared {total} puzzles");
}

#[test]
fn fast_path_and_dlx_agree_on_generated_puzzles() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut kinds = [0usize; 3];
    for n in 0..1500 {
        // A random full grid: solve an empty grid with a few random clues
        // first (the solver fills in the rest deterministically).
        let mut seed = Board::empty(Shape::classic());
        for _ in 0..8 {
            let (cell, digit) = (rng.below(81), 1 + rng.below(9) as u8);
            seed.cells[cell] = digit;
            if !seed.clashes().is_empty() {
                seed.cells[cell] = 0;
            }
        }
        let Ok(outcome) = solve(&seed, 1) else {
            continue;
        };
        let Some(full) = outcome.first().cloned() else {
            continue;
        };
        // Keep 20-40 clues: some unique, many with several solutions.
        let mut puzzle = full.clone();
        let keep = 20 + rng.below(21);
        let mut cells: Vec<usize> = (0..81).collect();
        for i in (1..81).rev() {
            cells.swap(i, rng.below(i + 1));
        }
        for &c in &cells[keep..] {
            puzzle.cells[c] = 0;
        }
        // Every third puzzle: write a wrong digit into an empty cell, which
        // usually leaves no solution without breaking a visible rule.
        if n % 3 == 0 {
            if let Some(&c) = cells[keep..].first() {
                let wrong = 1 + (full.cells[c] % 9);
                puzzle.cells[c] = wrong;
                if !puzzle.clashes().is_empty() {
                    puzzle.cells[c] = 0;
                }
            }
        }
        let count = agree(&puzzle, &format!("generated #{n}"));
        kinds[count.min(2)] += 1;
    }
    assert!(
        kinds.iter().all(|&k| k > 50),
        "each outcome kind well covered: {kinds:?}"
    );
}
