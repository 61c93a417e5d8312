//! The text people type and paste, run through the binary as they would:
//! digits set apart by spaces or commas, the tool's own grid displays, a
//! puzzle as the argument, `-` for standard input, a text file where a
//! photo goes, and `solve`'s grids on a terminal (one line per puzzle when
//! piped).

mod common;

use std::process::Command;

use common::{fixture, p, run, run_in, scratch, stderr, stdout};

const PUZZLE: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const SOLUTION: &str =
    "417369825632158947958724316825437169791586432346912758289643571573291684164875293";

/// The puzzle's rows, each cell a string.
fn rows(sep: &str, empty: &str) -> String {
    PUZZLE
        .as_bytes()
        .chunks(9)
        .map(|row| {
            let cells: Vec<String> = row
                .iter()
                .map(|&c| match c {
                    b'.' => empty.to_string(),
                    d => (d as char).to_string(),
                })
                .collect();
            cells.join(sep) + "\n"
        })
        .collect()
}

#[test]
fn spaced_comma_and_displayed_grids_are_read() {
    let pretty = "4 . . | . . . | 8 . 5\n. 3 . | . . . | . . .\n. . . | 7 . . | . . .\n\
                  ------+-------+------\n. 2 . | . . . | . 6 .\n. . . | . 8 . | 4 . .\n\
                  . . . | . 1 . | . . .\n------+-------+------\n. . . | 6 . 3 | . 7 .\n\
                  5 . . | 2 . . | . . .\n1 . 4 | . . . | . . .\n";
    for text in [
        rows(" ", "."),
        rows(",", "0"),
        rows(", ", "0"),
        pretty.to_string(),
    ] {
        let out = run(&["solve"], &text);
        assert_eq!(
            stdout(&out),
            format!("{SOLUTION}\n"),
            "{text}\n{}",
            stderr(&out)
        );
        assert_eq!(out.status.code(), Some(0));
    }
}

#[test]
fn a_puzzle_is_given_as_the_argument() {
    let out = run(&["solve", PUZZLE], "");
    assert_eq!(stdout(&out), format!("{SOLUTION}\n"), "{}", stderr(&out));
    let out = run(&["solve", "--json", PUZZLE], "");
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["path"], "argument");
    assert_eq!(v["solution"], SOLUTION);
    // Spaced, as one quoted argument.
    let spaced: String = rows(" ", ".");
    assert_eq!(
        stdout(&run(&["solve", &spaced], "")),
        format!("{SOLUTION}\n")
    );
    // A puzzle missing cells says how many it has, not only "no such file".
    let out = run(&["solve", &PUZZLE[..80]], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("80 cells"), "{}", stderr(&out));
    // grade and hint take one too.
    assert!(stdout(&run(&["grade", PUZZLE], "")).ends_with(&format!("{PUZZLE}\n")));
    assert!(stdout(&run(&["hint", PUZZLE], "")).contains(" = "));
}

/// `sudoku-snap ARGS` run on a terminal (a pseudo-terminal from `script`),
/// its output with line ends as written; `None` without `script`.
fn on_terminal(args: &str) -> Option<String> {
    let bin = env!("CARGO_BIN_EXE_sudoku-snap");
    let out = Command::new("script")
        .args(["-qec", &format!("{bin} {args}"), "/dev/null"])
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    Some(String::from_utf8_lossy(&out.stdout).replace("\r\n", "\n"))
}

#[test]
fn solve_shows_grids_on_a_terminal_and_lines_when_piped() {
    let Some(text) = on_terminal(&format!("solve {PUZZLE}")) else {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "`script` is needed to run solve on a terminal"
        );
        eprintln!("skipped: no `script` to make a terminal");
        return;
    };
    assert!(
        text.starts_with("solved\n4 1 7 | 3 6 9 | 8 2 5\n"),
        "{text}"
    );
    assert!(text.contains("------+-------+------"), "{text}");
    // --line keeps the line on a terminal too; piped it is the default.
    let text = on_terminal(&format!("solve --line {PUZZLE}")).unwrap_or_default();
    assert_eq!(text, format!("{SOLUTION}\n"));
    // A 16x16 and a Samurai as grids, each under its line and status.
    let dir = scratch("cli_paste-terminal");
    for (file, rows) in [("16x16.txt", 19), ("samurai-easy1.txt", 27)] {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(file);
        let text = on_terminal(&format!("solve {}", p(&path))).unwrap_or_default();
        let mut lines = text.lines();
        assert!(lines.next().unwrap_or("").ends_with(": solved"), "{text}");
        let grid: Vec<&str> = lines.take_while(|l| !l.is_empty() || rows == 27).collect();
        assert!(grid.len() >= rows, "{file}: {text}");
        // The grid shown reads back as the solution.
        let shown = grid.join("\n");
        std::fs::write(dir.join(file), &shown).unwrap();
        let again = run_in(&["solve", "--count", file], &dir);
        assert!(
            stdout(&again).starts_with("1 "),
            "{file}: {}",
            stdout(&again)
        );
    }
}

#[test]
fn a_photo_comes_on_standard_input() {
    let dir = scratch("cli_paste-stdin");
    let bytes = std::fs::read(fixture("image31.jpg")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_sudoku-snap"))
        .args(["--json", "-"])
        .current_dir(&dir)
        .stdin(std::fs::File::open(fixture("image31.jpg")).unwrap())
        .output()
        .unwrap();
    assert!(!bytes.is_empty());
    let v: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(v["path"], "-");
    assert_eq!(v["status"], "solved", "{v}");
    assert_eq!(v["output"], "stdin.solved.jpg");
    assert!(dir.join("stdin.solved.jpg").exists());
    // read takes it too.
    let out = Command::new(env!("CARGO_BIN_EXE_sudoku-snap"))
        .args(["read", "-"])
        .stdin(std::fs::File::open(fixture("image31.jpg")).unwrap())
        .output()
        .unwrap();
    assert!(
        stdout(&out).starts_with("# standard input: 9x9, 30 clues"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_text_file_given_as_a_photo_points_to_solve() {
    let dir = scratch("cli_paste-text-photo");
    std::fs::write(dir.join("puzzle.txt"), format!("{PUZZLE}\n")).unwrap();
    let out = run_in(&["puzzle.txt"], &dir);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("a text file, not a photo") && err.contains("sudoku-snap solve puzzle.txt"),
        "{err}"
    );
    // On standard input too.
    let out = run(&["-"], PUZZLE);
    assert!(
        stderr(&out).contains("sudoku-snap solve -"),
        "{}",
        stderr(&out)
    );
}
