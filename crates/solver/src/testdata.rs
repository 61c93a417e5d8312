//! Test access to `../shared/puzzles`: a note when it is absent, and a
//! failure instead when `CI=true`, so that a test can never pass green
//! without its data in CI.

use std::path::PathBuf;

/// The lines of `../shared/puzzles/<name>`, the first `max` of them; `None`
/// (with a note) when the file is absent outside CI.
pub(crate) fn shared_lines(name: &str, max: usize) -> Option<Vec<String>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/puzzles")
        .join(name);
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text.lines().take(max).map(str::to_owned).collect()),
        Err(e) if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("{}: {e} (CI=true: shared data is required)", path.display())
        }
        Err(e) => {
            eprintln!("note: {}: {e}, skipping", path.display());
            None
        }
    }
}
