//! `solve --explain`, `solve --method logic`, `grade` and `generate`, run as
//! a user would: the real binary.

mod common;
use common::{run, stdout};

const UNIQUE: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
const SOLUTION: &str =
    "417369825632158947958724316825437169791586432346912758289643571573291684164875293";
/// A forum "hardest" puzzle: logic without guessing gets nowhere near it.
const HARDEST: &str =
    "........8..3...4...9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";

#[test]
fn explain_prints_numbered_steps_and_the_solution() {
    let o = run(&["solve", "--explain"], &format!("{UNIQUE}\n"));
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(
        text.contains("    1. r6c2 = 4 (hidden single in box 4)"),
        "{text}"
    );
    assert!(text.contains("solved by logic in "), "{text}");
    assert!(text.lines().any(|l| l.trim() == SOLUTION), "{text}");
}

#[test]
fn explain_json_steps_agree_with_the_solution() {
    let o = run(&["solve", "--explain", "--json"], &format!("{UNIQUE}\n"));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("one JSON line");
    assert_eq!(v["status"], "solved");
    assert_eq!(v["logic"], "solved");
    assert_eq!(v["solution"], SOLUTION);
    let steps = v["steps"].as_array().expect("steps");
    assert!(steps.len() > 20);
    let digit_at = |cell: &str| {
        let (r, c) = cell[1..].split_once('c').unwrap();
        let i = (r.parse::<usize>().unwrap() - 1) * 9 + c.parse::<usize>().unwrap() - 1;
        SOLUTION.as_bytes()[i] - b'0'
    };
    for step in steps {
        assert!(step["technique"].is_string() && step["reason"].is_string());
        for p in step["placements"].as_array().unwrap() {
            assert_eq!(p["digit"], digit_at(p["cell"].as_str().unwrap()), "{step}");
        }
        for e in step["eliminations"].as_array().unwrap() {
            assert_ne!(e["digit"], digit_at(e["cell"].as_str().unwrap()), "{step}");
        }
    }
}

#[test]
fn where_logic_runs_out_search_takes_over_or_logic_mode_says_stuck() {
    let o = run(&["solve", "--explain"], &format!("{HARDEST}\n"));
    let text = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}");
    assert!(text.contains("logic ran out after"), "{text}");
    assert!(text.contains("search took over: "), "{text}");

    let o = run(
        &["solve", "--method", "logic", "--json"],
        &format!("{HARDEST}\n"),
    );
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["status"], "stuck");
    assert_eq!(v["solution"], serde_json::Value::Null);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn grade_prints_level_rating_puzzle() {
    let o = run(
        &["grade"],
        &format!("{UNIQUE}\n{HARDEST}\n{}\n", ".".repeat(81)),
    );
    let text = stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    let first: Vec<&str> = lines[0].split(' ').collect();
    assert_eq!(first[0], "medium");
    assert!(first[1].parse::<f32>().is_ok());
    assert_eq!(first[2], UNIQUE);
    assert!(lines[1].starts_with("extreme "), "{text}");
    assert!(lines[2].starts_with("ungraded: "), "{text}");
    assert_eq!(
        o.status.code(),
        Some(1),
        "an ungraded puzzle gives exit code 1"
    );
}

#[test]
fn generate_is_deterministic_unique_and_minimal() {
    let a = run(&["generate", "--count", "4", "--seed", "7", "--json"], "");
    let b = run(&["generate", "--count", "4", "--seed", "7", "--json"], "");
    assert_eq!(a.status.code(), Some(0));
    assert_eq!(stdout(&a), stdout(&b), "same seed, same puzzles");
    let lines: Vec<serde_json::Value> = stdout(&a)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    for v in &lines {
        assert_eq!(v["minimal"], true);
        let puzzle = v["givens"].as_str().unwrap();
        let o = run(&["solve", "--count"], &format!("{puzzle}\n"));
        assert!(
            stdout(&o).starts_with("1 "),
            "exactly one solution: {puzzle}"
        );
    }
    let other = run(&["generate", "--count", "4", "--seed", "8"], "");
    assert_ne!(stdout(&other), stdout(&a));
}

#[test]
fn generate_honours_difficulty_and_symmetry() {
    let o = run(
        &[
            "generate",
            "--count",
            "2",
            "--seed",
            "3",
            "--difficulty",
            "easy",
            "--symmetry",
            "central",
            "--json",
        ],
        "",
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    for line in stdout(&o).lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["level"], "easy");
        let g = v["givens"].as_str().unwrap().as_bytes();
        for i in 0..81 {
            assert_eq!(g[i] == b'.', g[80 - i] == b'.', "central symmetry at {i}");
        }
    }
    let bad = run(&["generate", "--difficulty", "impossible"], "");
    assert_eq!(bad.status.code(), Some(2));
    // 25x25 would take minutes per puzzle: a clear usage error instead.
    let big = run(&["generate", "--shape", "25x25"], "");
    assert_eq!(big.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&big.stderr).contains("not 25x25"));
}
