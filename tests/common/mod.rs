//! Running the real binary as a user would, shared by the CLI tests. Each
//! test binary uses the part it needs.
#![allow(dead_code, reason = "each test binary uses only some of these")]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// A file of the repository's `fixtures/` folder.
pub fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
}

/// A fresh scratch folder for one test (`<target tmp>/<name>`).
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The binary under test: this build's, or the one `SUDOKU_SNAP_BIN` names
/// (to run a test against another build, e.g. to see it fail on a release
/// without the fix it tests).
pub fn bin_path() -> PathBuf {
    std::env::var_os("SUDOKU_SNAP_BIN").map_or_else(
        || PathBuf::from(env!("CARGO_BIN_EXE_sudoku-snap")),
        PathBuf::from,
    )
}

/// Runs `sudoku-snap` with `args` in the folder `cwd` and waits for it.
pub fn run_in(args: &[&str], cwd: &Path) -> Output {
    Command::new(bin_path())
        .args(args)
        .current_dir(cwd)
        .output()
        .expect("run sudoku-snap")
}

/// Standard output as JSON Lines.
pub fn json_lines(o: &Output) -> Vec<serde_json::Value> {
    stdout(o)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// Standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A path as the `&str` an argument list takes.
pub fn p(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Runs `sudoku-snap` with `args`, feeding `stdin`, and waits for it.
pub fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(bin_path())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start sudoku-snap");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("wait")
}

/// Standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The corners of a grid's `quad` in a `--json` line, as photo pixels.
pub fn quad_corners(v: &serde_json::Value) -> [(f32, f32); 4] {
    let corners: Vec<(f32, f32)> = v["quad"]
        .as_array()
        .expect("a quad")
        .iter()
        .map(|c| (c[0].as_f64().unwrap() as f32, c[1].as_f64().unwrap() as f32))
        .collect();
    [corners[0], corners[1], corners[2], corners[3]]
}
