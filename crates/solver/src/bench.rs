//! In-process benchmark of the 9x9 fast path, behind `sudoku-snap bench
//! FILE...` and `cargo run --release -p snap-solver --example bench`.
//!
//! It loads puzzles and prints rates exactly the way `../shared/tools/peer-bench`
//! does (same loading rule, same per-repeat and `median_pps=...` lines), so
//! `scripts/bench-vs-peer.sh` can run the two alternately and compare medians.
//! Only the solving is timed, not the loading.

use crate::files;
use crate::propagate::{self, Cells};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What each puzzle is asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BenchMode {
    /// Stop at the first solution (peer-bench's `first`).
    First,
    /// Count solutions up to 2, the uniqueness check (peer-bench's `count2`).
    Count2,
}

impl BenchMode {
    /// The solution limit the mode asks for.
    fn limit(self) -> usize {
        match self {
            BenchMode::First => 1,
            BenchMode::Count2 => 2,
        }
    }
}

/// Puzzles of a benchmark file by peer-bench's rule: trimmed lines of at least
/// 81 characters, `#` lines skipped, the first 81 characters read as digits
/// (anything that is not `1`-`9` is an empty cell).
pub fn load_puzzles(text: &str) -> Vec<Cells> {
    text.lines()
        .map(str::trim)
        .filter(|line| !line.starts_with('#') && line.len() >= 81)
        .map(|line| {
            let mut g = [0u8; 81];
            for (cell, c) in g.iter_mut().zip(line.bytes()) {
                *cell = if c.is_ascii_digit() { c - b'0' } else { 0 };
            }
            g
        })
        .collect()
}

/// A benchmark file's text, read whole (bounded, a regular file only: see
/// [`files`]); the error names the path.
fn read(path: &Path) -> io::Result<String> {
    files::read_text(path, &files::PUZZLE_FILE)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
}

/// Loads each file (peer-bench's loading rule: trimmed lines of >= 81 chars,
/// '#' lines skipped, digits as digits, anything else empty), times the solver
/// over all puzzles `repeats` times (at least once), printing per repeat
/// `repeat R: N puzzles/s` and last a line
/// `median_pps=N puzzles=N unique=N multiple=N none=N` -- the same form as
/// peer-bench -- prefixed by a line naming the file.
///
/// An unreadable file is an error naming its path; files before it have been
/// reported already.
pub fn run(
    files: &[PathBuf],
    mode: BenchMode,
    repeats: usize,
    out: &mut dyn Write,
) -> io::Result<()> {
    let limit = mode.limit();
    let mut scratch = [0u8; 81];
    for path in files {
        let puzzles = load_puzzles(&read(path)?);
        writeln!(out, "file: {}", path.display())?;
        let mut rates = Vec::with_capacity(repeats.max(1));
        let mut tally = [0usize; 3];
        for r in 0..repeats.max(1) {
            let mut counts = [0usize; 3];
            let start = Instant::now();
            for p in &puzzles {
                let n = propagate::count(p, limit, &mut scratch);
                counts[n.min(2)] += 1;
            }
            let secs = start.elapsed().as_secs_f64();
            let pps = if secs > 0.0 {
                puzzles.len() as f64 / secs
            } else {
                0.0
            };
            writeln!(out, "repeat {r}: {pps:.0} puzzles/s")?;
            rates.push(pps);
            tally = counts;
        }
        rates.sort_by(f64::total_cmp);
        let median = rates[rates.len() / 2];
        let [none, unique, multiple] = tally;
        writeln!(
            out,
            "median_pps={median:.0} puzzles={} unique={unique} multiple={multiple} none={none}",
            puzzles.len()
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loading_follows_peer_bench() {
        let line =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let text = format!("# comment {line}\n  {line}  \nshort\n{line}xyz\n");
        let puzzles = load_puzzles(&text);
        assert_eq!(puzzles.len(), 2);
        assert_eq!(puzzles[0], puzzles[1]);
        assert_eq!(puzzles[0][..9], [4, 0, 0, 0, 0, 0, 8, 0, 5]);
    }

    #[test]
    fn reports_rates_and_tallies() {
        let dir = std::env::temp_dir().join(format!("sudoku-snap-bench-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("p.txt");
        let unique =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let many = ".".repeat(81);
        let none = format!("11{}", ".".repeat(79));
        std::fs::write(&file, format!("{unique}\n{many}\n{none}\n")).unwrap();
        let mut out = Vec::new();
        run(std::slice::from_ref(&file), BenchMode::Count2, 2, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        assert!(lines[0].contains("p.txt"));
        assert!(lines[1].starts_with("repeat 0: ") && lines[1].ends_with(" puzzles/s"));
        assert!(lines[3].starts_with("median_pps="));
        assert!(
            lines[3].ends_with("puzzles=3 unique=1 multiple=1 none=1"),
            "{text}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn missing_file_is_an_error_naming_it() {
        let path = PathBuf::from("/nonexistent/sudoku-snap/puzzles.txt");
        let err = run(&[path], BenchMode::First, 1, &mut Vec::new()).unwrap_err();
        assert!(err
            .to_string()
            .contains("/nonexistent/sudoku-snap/puzzles.txt"));
    }
}
