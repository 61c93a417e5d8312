//! Repair with solver feedback on a real photo: the reading of a fixture is
//! corrupted in one cell (the classifier made to prefer a wrong digit, the
//! true one its second choice) and the repair must find the true puzzle.

use std::path::PathBuf;

use snap_solver::{Board, Outcome, Shape};
use snap_vision::decide::decide;
use snap_vision::pipeline::Reader;

#[test]
fn a_corrupted_cell_of_a_real_reading_is_repaired() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures");
    let truth_text = std::fs::read_to_string(dir.join("image31.txt")).unwrap();
    let truth = Board::parse(&truth_text.lines().collect::<String>(), Shape::classic()).unwrap();
    let reader = Reader::new(None, None).unwrap();
    let reading = reader.read_file(&dir.join("image31.jpg")).unwrap();
    let mut probs = reading.cell_probs();

    let clean = decide(&probs, &[], true);
    assert_eq!(clean.givens, truth);
    assert!(clean.changes.is_empty());

    // Corrupt one clue: a wrong digit first, the true digit second. Take
    // the first clue and wrong digit whose reading cannot be solved (some
    // misreads still give a valid puzzle, which no repair could notice).
    let corrupt = |cell: usize, wrong: usize| {
        let mut p = probs;
        p[cell] = [0.0; 10];
        p[cell][wrong] = 0.6;
        p[cell][truth.cells[cell] as usize] = 0.35;
        p[cell][0] = 0.05;
        p
    };
    let (cell, wrong) = (0..81)
        .filter(|&i| truth.cells[i] != 0)
        .flat_map(|i| {
            let right = truth.cells[i] as usize;
            (1..=9).filter(move |&d| d != right).map(move |d| (i, d))
        })
        .find(|&(i, d)| decide(&corrupt(i, d), &[], false).problem.is_some())
        .expect("some misread makes the puzzle unsolvable");
    let right = truth.cells[cell] as usize;
    probs = corrupt(cell, wrong);
    assert_eq!(decide(&probs, &[], false).read.cells[cell] as usize, wrong);

    let repaired = decide(&probs, &[], true);
    assert_eq!(repaired.givens, truth);
    assert!(matches!(repaired.outcome, Outcome::Unique(_)));
    assert!(
        repaired
            .changes
            .iter()
            .any(|c| c.cell == cell && c.to as usize == right),
        "{:?}",
        repaired.changes
    );
}
