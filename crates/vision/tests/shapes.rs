//! A Samurai and a 16x16 printed on a page and photographed at an angle are
//! read and solved from the image: the pipeline finds the grids, composes
//! the Samurai from its five 9x9 grids, reads every cell and decides the
//! puzzle as printed.

mod render;

use std::path::PathBuf;

use snap_solver::{Board, Outcome, Shape};
use snap_vision::Verdict;
use snap_vision::{decide_grid, Reader};

fn puzzle(name: &str, shape: Shape) -> Board {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/data")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Board::parse(text.trim(), shape).expect("test puzzle parses")
}

/// Prints `board`, photographs it slightly turned and in perspective, reads
/// it and returns the one puzzle found with its decision.
fn read_back(board: &Board, cell: u32) -> (Board, snap_vision::Decision) {
    let flat = render::print(board, cell, cell / 2);
    let photo = render::photograph_at_an_angle(&flat, 6);
    let reader = Reader::new(None, None).expect("the embedded model loads");
    let page = reader
        .read_bytes(&render::png(&photo), None)
        .expect("a grid is found");
    assert_eq!(page.grids.len(), 1, "one puzzle on the page");
    let grid = &page.grids[0];
    assert_eq!(grid.shape(), board.shape);
    let read = Board {
        shape: board.shape,
        cells: grid.cells.iter().map(|e| e.best().0).collect(),
    };
    (read, decide_grid(grid, &[]))
}

#[test]
fn a_photographed_samurai_is_read_and_solved() {
    let board = puzzle("samurai-easy1.txt", Shape::Samurai);
    let (read, decision) = read_back(&board, 40);
    assert_eq!(read.to_line(), board.to_line(), "every cell read right");
    assert_eq!(decision.verdict, Verdict::Solved);
    let Outcome::Unique(solution) = &decision.outcome else {
        panic!("{:?}", decision.outcome)
    };
    let expected = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../tests/data/samurai-easy1.solution.txt"),
    )
    .expect("solution file");
    assert_eq!(solution.to_line(), expected.trim());
}

#[test]
fn a_photographed_16x16_is_read_and_solved() {
    let board = puzzle("16x16.txt", Shape::square(16).expect("16x16"));
    let (read, decision) = read_back(&board, 48);
    assert_eq!(read.to_line(), board.to_line(), "every cell read right");
    assert_eq!(decision.verdict, Verdict::Solved);
    let expected = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/data/16x16.solution.txt"),
    )
    .expect("solution file");
    assert_eq!(
        decision.solution().map(Board::to_line).as_deref(),
        Some(expected.trim())
    );
}
