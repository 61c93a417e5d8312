//! The text half of the command line, run as a user would: the real binary.

use std::path::PathBuf;

mod common;
use common::{run, stdout};

const UNIQUE: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name)
}

#[test]
fn sicily_sample_gives_its_sample_output_byte_for_byte() {
    let input = std::fs::read_to_string(data("sicily.in")).unwrap();
    let expected = std::fs::read(data("sicily.out")).unwrap();
    let out = run(&["solve", "--format", "sicily"], &input);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&expected)
    );
    assert_eq!(out.stdout, expected);
}

#[test]
fn a_unique_puzzle_prints_its_solution_and_exits_0() {
    let out = run(&["solve"], &format!("{UNIQUE}\n"));
    assert_eq!(out.status.code(), Some(0));
    let line = stdout(&out);
    assert_eq!(line.trim().len(), 81);
    assert!(line.starts_with('4'));
}

#[test]
fn statuses_and_exit_codes() {
    let empty = ".".repeat(81);
    let out = run(&["solve"], &format!("{empty}\n"));
    assert_eq!(stdout(&out), "multiple solutions (2)\n");
    assert_eq!(out.status.code(), Some(1));

    let clash = format!("44{}", &UNIQUE[2..]);
    let out = run(&["solve"], &format!("{clash}\n"));
    assert!(stdout(&out).starts_with("no solution (givens clash: r1c1 and r1c2 are both 4"));
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn a_malformed_line_names_line_and_column_and_the_rest_is_solved() {
    let bad = format!("{}z{}", &UNIQUE[..7], &UNIQUE[8..]);
    let out = run(&["solve"], &format!("# header\n{bad}\n{UNIQUE}\n"));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(
        lines[0].starts_with("invalid: line 2, column 8: unexpected character 'z'"),
        "{}",
        lines[0]
    );
    assert_eq!(lines[1].len(), 81);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn count_with_a_limit() {
    let empty = ".".repeat(81);
    let out = run(
        &["solve", "--count", "--limit", "1000"],
        &format!("{empty}\n{UNIQUE}\n"),
    );
    assert_eq!(stdout(&out), format!("1000 {empty}\n1 {UNIQUE}\n"));
}

#[test]
fn json_lines_have_the_design_fields() {
    let out = run(
        &["solve", "--json"],
        &format!("{UNIQUE}\n{}\n", ".".repeat(81)),
    );
    let text = stdout(&out);
    let objects: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(objects.len(), 2);
    assert_eq!(objects[0]["status"], "solved");
    assert_eq!(objects[1]["status"], "multiple_solutions");
    assert_eq!(objects[1]["solution"], serde_json::Value::Null);
    assert_eq!(objects[1]["solutions"], 2);
}

#[test]
fn samurai_and_16x16_from_files_are_detected_and_solved() {
    for (puzzle, solution) in [
        ("samurai-easy1.txt", "samurai-easy1.solution.txt"),
        ("16x16.txt", "16x16.solution.txt"),
    ] {
        let out = run(&["solve", data(puzzle).to_str().unwrap()], "");
        let want = std::fs::read_to_string(data(solution)).unwrap();
        assert_eq!(stdout(&out).trim(), want.trim(), "{puzzle}");
        assert_eq!(out.status.code(), Some(0));
    }
}

#[test]
fn samurai_as_21_lines() {
    let line = std::fs::read_to_string(data("samurai-easy1.txt")).unwrap();
    let chars: Vec<char> = line.trim().chars().collect();
    let rows: Vec<String> = chars
        .chunks(21)
        .map(|r| {
            r.iter()
                .map(|&c| if c == '#' { ' ' } else { c })
                .collect::<String>()
        })
        .map(|r| r.trim_end().to_string())
        .collect();
    let out = run(&["solve", "--shape", "samurai"], &(rows.join("\n") + "\n"));
    let want = std::fs::read_to_string(data("samurai-easy1.solution.txt")).unwrap();
    assert_eq!(stdout(&out).trim(), want.trim());
}

#[test]
fn an_unreadable_path_is_a_clear_error_with_exit_2() {
    let out = run(&["solve", "/no/such/puzzles.txt"], "");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("/no/such/puzzles.txt"), "{err}");
    assert_eq!(err.lines().count(), 1);
}

#[test]
fn jobs_keep_the_input_order() {
    let empty = ".".repeat(81);
    let mut input = String::new();
    for i in 0..300 {
        input.push_str(if i % 7 == 0 { &empty } else { UNIQUE });
        input.push('\n');
    }
    let one = run(&["solve", "--count"], &input);
    let four = run(&["solve", "--count", "--jobs", "4"], &input);
    assert_eq!(one.stdout, four.stdout);
}

#[test]
fn bad_usage_exits_2() {
    let out = run(&["solve", "--shape", "7x7x"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = run(&["solve", "--limit", "0"], "");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn all_solutions_of_a_4x4() {
    let out = run(
        &["solve", "--all", "--limit", "5"],
        &format!("{}\n", ".".repeat(16)),
    );
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert!(lines.iter().all(|l| l.len() == 16 && !l.contains('.')));
    let distinct: std::collections::HashSet<_> = lines.iter().collect();
    assert_eq!(distinct.len(), 5);
}
