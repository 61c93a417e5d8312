//! `--set` values (one per line of the input): never a panic; what is
//! accepted names distinct cells of a 9x9 grid with values 0-9.
//!
//! Shared by the fuzz target of the same name and by `tests/fuzz_corpus.rs`,
//! which replays the committed corpus on every `cargo test`.

use snap_solver::overrides::parse_overrides;

/// Checks one input; panics on a broken promise.
pub fn check(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let values: Vec<&str> = text.split('\n').collect();
    if let Ok(cells) = parse_overrides(&values) {
        assert_eq!(cells.len(), values.len());
        for (i, &(cell, value)) in cells.iter().enumerate() {
            assert!(cell < 81 && value <= 9);
            assert!(
                cells[..i].iter().all(|&(c, _)| c != cell),
                "a cell given twice"
            );
        }
    }
}
