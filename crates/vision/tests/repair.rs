//! The decision stage on a real reading: the reading of a fixture photo is
//! corrupted in one cell and the decision must either find the true puzzle
//! (a likely misread) or say it is unsure — never invent a different
//! puzzle, and never change a clue it read with confidence.

use std::path::PathBuf;

use snap_solver::{Board, Shape};
use snap_vision::{decide_grid, CellEvidence, Decision, GridReading, Reader, Verdict};

fn fixture_reading() -> (Board, GridReading) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    let truth_text = std::fs::read_to_string(dir.join("image31.txt")).expect("truth");
    let truth = Board::parse(&truth_text.lines().collect::<String>(), Shape::classic())
        .expect("truth parses");
    let reader = Reader::new(None, None).expect("model loads");
    let page = reader
        .read_file(&dir.join("image31.jpg"))
        .expect("grid found");
    (truth, page.grids[0].clone())
}

/// The decision on `grid` with `cell` read as `evidence` instead.
fn decide_with(grid: &GridReading, cell: usize, evidence: CellEvidence) -> Decision {
    let mut grid = grid.clone();
    grid.cells[cell] = evidence;
    decide_grid(&grid, &[])
}

/// Evidence for one cell: `probs` as (value, probability).
fn cell(probs: &[(u8, f32)]) -> CellEvidence {
    let mut clue = vec![0.0; 10];
    for &(v, p) in probs {
        clue[v as usize] = p;
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

#[test]
fn the_real_reading_is_solved_as_read() {
    let (truth, grid) = fixture_reading();
    let clean = decide_grid(&grid, &[]);
    assert_eq!(clean.givens, truth);
    assert!(clean.changes.is_empty());
    assert_eq!(clean.verdict, Verdict::Solved);
}

#[test]
fn a_likely_misread_is_repaired_and_an_unlikely_one_is_not_invented() {
    let (truth, grid) = fixture_reading();
    // The first clue and wrong digit whose reading cannot be solved (some
    // misreads still give a valid puzzle, which only the classifier's
    // doubt can reveal).
    let (index, wrong) = (0..81)
        .filter(|&i| truth.cells[i] != 0)
        .flat_map(|i| {
            let right = truth.cells[i];
            (1..=9u8).filter(move |&d| d != right).map(move |d| (i, d))
        })
        .find(|&(i, d)| {
            let misread = decide_with(&grid, i, cell(&[(d, 0.97), (0, 0.03)]));
            !matches!(misread.verdict, Verdict::Solved)
        })
        .expect("some misread makes the puzzle unsolvable");
    let right = truth.cells[index];

    // Unsure between the wrong and the right digit: repaired to the truth.
    let unsure = cell(&[(wrong, 0.55), (right, 0.43), (0, 0.02)]);
    let repaired = decide_with(&grid, index, unsure);
    assert_eq!(repaired.read.cells[index], wrong);
    assert_eq!(repaired.givens, truth);
    assert_eq!(repaired.verdict, Verdict::Solved);
    assert!(repaired
        .changes
        .iter()
        .any(|c| c.cell == index && c.to == right));

    // Read with confidence as the wrong digit: nothing is invented; the
    // puzzle is reported as it reads (no solution) or as unsure.
    let d = decide_with(&grid, index, cell(&[(wrong, 0.97), (0, 0.03)]));
    assert!(
        d.givens.cells[index] == wrong,
        "a sure clue is never changed"
    );
    assert_ne!(d.verdict, Verdict::Solved, "{:?}", d.verdict);
    assert!(d.solution().is_none() || d.givens != truth);
}
