//! `--set` values (one per line of the input): never a panic; what is
//! accepted names distinct cells of each target, and the position made
//! for a shape lies inside it with a value it uses.
//!
//! Shared by the fuzz target of the same name and by `tests/fuzz_corpus.rs`,
//! which replays the committed corpus on every `cargo test`.

use snap_solver::overrides::parse_corrections;
use snap_solver::Shape;

/// Checks one input; panics on a broken promise.
pub fn check(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let values: Vec<&str> = text.split('\n').collect();
    if let Ok(corrections) = parse_corrections(&values) {
        assert_eq!(corrections.len(), values.len());
        for (i, c) in corrections.iter().enumerate() {
            assert!(
                corrections[..i]
                    .iter()
                    .all(|d| d.target != c.target || (d.row, d.column) != (c.row, c.column)),
                "a cell given twice"
            );
            for shape in [Shape::classic(), Shape::Samurai] {
                if let Ok((cell, value)) = c.cell(shape) {
                    assert!(shape.contains(cell) && usize::from(value) <= shape.digits());
                }
            }
        }
    }
}
