//! `--set` values (one per line of the input): never a panic; what is
//! accepted names distinct cells of each target, and the position made
//! for a shape lies inside it with a value it uses.
#![no_main]

use libfuzzer_sys::fuzz_target;
use snap_solver::overrides::parse_corrections;
use snap_solver::Shape;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let values: Vec<&str> = text.split('\n').collect();
    if let Ok(corrections) = parse_corrections(&values) {
        assert_eq!(corrections.len(), values.len());
        for (i, c) in corrections.iter().enumerate() {
            assert!(corrections[..i]
                .iter()
                .all(|d| d.target != c.target || (d.row, d.column) != (c.row, c.column)));
            for shape in [Shape::classic(), Shape::Samurai] {
                if let Ok((cell, value)) = c.cell(shape) {
                    assert!(shape.contains(cell) && usize::from(value) <= shape.digits());
                }
            }
        }
    }
});
