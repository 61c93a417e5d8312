//! `sudoku-snap hint`, run as a user would: the real binary on fixture
//! photos, a rendered photo and text puzzles.

mod common;

use std::path::{Path, PathBuf};

use common::{fixture, json_lines, p, run_in, scratch};

use image::{GenericImageView, Rgb, RgbImage};
use snap_solver::{solve, Board, Outcome, Shape};

/// A puzzle whose first step is a hidden single (the README's example).
const PUZZLE: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

/// A position whose first step removes candidates (no single is left):
/// 4 in box 3 lies only in column 8.
const LOCKED: &str =
    "3..6.91..16..5.3..9....2865..1...638..3..6..44.62..95.7..46....8...2...661.97...3";

/// The only solution of a puzzle line.
fn solution(puzzle: &str) -> Board {
    let board = Board::parse(puzzle, Shape::classic()).unwrap();
    match solve(&board, 2).unwrap() {
        Outcome::Unique(s) => s,
        other => panic!("{puzzle}: {other:?}"),
    }
}

/// Cell index of `r4c7`.
fn cell(name: &str) -> usize {
    let (r, c) = name[1..].split_once('c').unwrap();
    (r.parse::<usize>().unwrap() - 1) * 9 + c.parse::<usize>().unwrap() - 1
}

/// Checks a JSON step against the solution: every placed digit is the
/// solution's, no removed candidate is; and it does something.
fn assert_step_agrees(step: &serde_json::Value, solution: &Board) {
    let placements = step["placements"].as_array().unwrap();
    let eliminations = step["eliminations"].as_array().unwrap();
    assert!(!placements.is_empty() || !eliminations.is_empty(), "{step}");
    for pl in placements {
        let at = cell(pl["cell"].as_str().unwrap());
        assert_eq!(pl["digit"], solution.cells[at], "{step}");
    }
    for e in eliminations {
        let at = cell(e["cell"].as_str().unwrap());
        assert_ne!(e["digit"], solution.cells[at], "{step}");
    }
}

/// Checks a hint image: the photo's width, a caption band below it, and
/// the photo itself drawn on.
fn assert_drawn(hint: &Path, photo: &Path) {
    let hint = image::open(hint).unwrap().to_rgb8();
    let photo = image::open(photo).unwrap().to_rgb8();
    assert_eq!(hint.width(), photo.width());
    assert!(hint.height() > photo.height(), "a caption band below");
    let top = hint.view(0, 0, photo.width(), photo.height()).to_image();
    let changed = top
        .pixels()
        .zip(photo.pixels())
        .filter(|(a, b)| a.0.iter().zip(b.0).any(|(x, y)| x.abs_diff(y) > 40))
        .count();
    assert!(changed > 500, "the step is drawn: {changed} pixels changed");
}

#[test]
fn a_fixture_photo_gets_one_correct_step_drawn() {
    let dir = scratch("cli_hint-fixtures");
    for stem in ["image18", "image166"] {
        let photo = fixture(&format!("{stem}.jpg"));
        let out_png = dir.join(format!("{stem}.png"));
        let o = run_in(&["hint", "--json", p(&photo), "-o", p(&out_png)], &dir);
        assert_eq!(o.status.code(), Some(0), "{}", common::stdout(&o));
        let lines = json_lines(&o);
        assert_eq!(lines.len(), 1, "one grid, one hint");
        let v = &lines[0];
        let truth: String = std::fs::read_to_string(fixture(&format!("{stem}.txt")))
            .unwrap()
            .lines()
            .map(str::trim)
            .collect();
        assert_eq!(v["status"], "solved", "{v}");
        assert_eq!(v["position"], truth.as_str(), "{v}");
        assert_step_agrees(&v["step"], &solution(&truth));
        assert_eq!(v["hint"], v["step"]["reason"]);
        assert_eq!(v["output"], p(&out_png));
        assert_drawn(&out_png, &photo);
    }
}

#[test]
fn the_default_image_is_named_after_the_photo_and_never_overwritten() {
    let dir = scratch("cli_hint-default-name");
    let photo = fixture("image18.jpg");
    let o = run_in(&["hint", p(&photo)], &dir);
    let text = common::stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{text}");
    let mut lines = text.lines();
    let first = lines.next().unwrap();
    assert!(
        first.starts_with(&format!("{}: r", photo.display())),
        "{text}"
    );
    assert_eq!(lines.next(), Some("  hint image: image18.hint.jpg"));
    assert!(dir.join("image18.hint.jpg").is_file());

    // The same hint again finds its own image, byte for byte: nothing to
    // write. Any other file is never overwritten without --force.
    let same = run_in(&["hint", p(&photo)], &dir);
    assert_eq!(same.status.code(), Some(0), "{}", common::stderr(&same));
    std::fs::write(dir.join("image18.hint.jpg"), b"keep me").unwrap();
    let again = run_in(&["hint", p(&photo)], &dir);
    assert_eq!(again.status.code(), Some(2));
    assert_eq!(
        std::fs::read(dir.join("image18.hint.jpg")).unwrap(),
        b"keep me"
    );
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(stderr.contains("exists (use --force"), "{stderr}");
    assert_eq!(
        common::stdout(&again).lines().next(),
        Some(first),
        "the hint is still printed"
    );
    let forced = run_in(&["hint", "--force", p(&photo)], &dir);
    assert_eq!(forced.status.code(), Some(0));
}

/// Renders `puzzle` as a clean printed grid on white, 600 x 640 pixels,
/// with the embedded font.
fn render(puzzle: &str) -> RgbImage {
    use ab_glyph::{Font, FontRef, PxScale};
    let font = FontRef::try_from_slice(include_bytes!("../assets/Go-Bold.ttf")).unwrap();
    let (margin, cell) = (30u32, 60u32);
    let mut img = RgbImage::from_pixel(600, 640, Rgb([255, 255, 255]));
    for i in 0..=9u32 {
        let width = if i % 3 == 0 { 4 } else { 1 };
        for t in 0..width {
            for s in margin..=margin + 9 * cell {
                let at = margin + i * cell + t - width / 2;
                img.put_pixel(at, s, Rgb([0, 0, 0]));
                img.put_pixel(s, at, Rgb([0, 0, 0]));
            }
        }
    }
    for (k, ch) in puzzle.chars().enumerate().filter(|(_, c)| *c != '.') {
        let (r, c) = ((k / 9) as u32, (k % 9) as u32);
        let glyph = font.glyph_id(ch).with_scale(PxScale::from(40.0));
        let outline = font.outline_glyph(glyph).unwrap();
        let b = outline.px_bounds();
        let x0 = margin + c * cell + (cell - b.width() as u32) / 2;
        let y0 = margin + r * cell + (cell - b.height() as u32) / 2;
        outline.draw(|x, y, coverage| {
            let v = (255.0 * (1.0 - coverage)) as u8;
            img.put_pixel(x0 + x, y0 + y, Rgb([v, v, v]));
        });
    }
    img
}

#[test]
fn a_step_that_removes_candidates_is_drawn_and_correct() {
    let dir = scratch("cli_hint-locked");
    let photo = dir.join("locked.png");
    render(LOCKED).save(&photo).unwrap();
    let o = run_in(&["hint", "--json", "locked.png"], &dir);
    assert_eq!(o.status.code(), Some(0), "{}", common::stdout(&o));
    let v = &json_lines(&o)[0];
    assert_eq!(v["position"], LOCKED, "{v}");
    assert_eq!(v["step"]["technique"], "locked_candidates_pointing", "{v}");
    assert_step_agrees(&v["step"], &solution(LOCKED));
    assert_eq!(v["output"], "locked.hint.png");
    assert_drawn(&dir.join("locked.hint.png"), &photo);
}

#[test]
fn a_text_puzzle_gets_the_step_line() {
    let dir = scratch("cli_hint-text");
    std::fs::write(dir.join("puzzle.txt"), format!("{PUZZLE}\n")).unwrap();
    let o = run_in(&["hint", "puzzle.txt"], &dir);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        common::stdout(&o),
        "puzzle.txt: r6c2 = 4 (hidden single in box 4)\n"
    );
    let entries: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(entries.len(), 1, "no image for a text puzzle");
    let o = run_in(&["hint", "puzzle.txt", "-o", "x.png"], &dir);
    assert_eq!(o.status.code(), Some(2), "-o is for photos");

    let o = common::run(&["hint"], &format!("{PUZZLE}\n{LOCKED}\n"));
    let text = common::stdout(&o);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "line 1: r6c2 = 4 (hidden single in box 4)");
    assert!(
        lines[1].starts_with("line 2: locked candidates (pointing): 4 in box 3"),
        "{text}"
    );

    let o = common::run(&["hint", "--json"], &format!("{LOCKED}\n"));
    let v: serde_json::Value = serde_json::from_str(common::stdout(&o).trim()).unwrap();
    assert_eq!(v["path"], "-");
    assert_eq!(v["line"], 1);
    assert_step_agrees(&v["step"], &solution(LOCKED));
    assert!(v["step"]["reason"].as_str().unwrap().contains("removes 4"));
}

#[test]
fn where_no_technique_applies_the_hint_is_the_solutions_digit() {
    // A forum "hardest" puzzle after its one hidden single: logic is stuck.
    const STUCK: &str =
        "........8..3...4.2.9..2..6.....79.......612...6.5.2.7...8...5...1.....2.4.5.....3";
    let o = common::run(&["hint", "--json"], &format!("{STUCK}\n"));
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_str(common::stdout(&o).trim()).unwrap();
    assert_eq!(v["step"]["technique"], "solution", "{v}");
    assert_eq!(v["step"]["placements"].as_array().unwrap().len(), 1, "{v}");
    assert_step_agrees(&v["step"], &solution(STUCK));
    assert!(v["hint"].as_str().unwrap().contains("no technique applies"));
}

#[test]
fn puzzles_without_one_solution_or_not_9x9_get_no_hint_and_exit_1() {
    let o = common::run(&["hint"], &format!("{}\n", ".".repeat(81)));
    assert_eq!(o.status.code(), Some(1));
    assert!(common::stdout(&o).starts_with("several solutions"));

    let sixteen = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/16x16.txt");
    let o = run_in(&["hint", p(&sixteen)], Path::new("."));
    assert_eq!(o.status.code(), Some(1));
    assert!(
        common::stdout(&o).contains("works on 9x9 puzzles only"),
        "{}",
        common::stdout(&o)
    );
}

#[test]
fn unreadable_input_is_one_error_line_and_exit_2() {
    let dir = scratch("cli_hint-unreadable");
    let bytes = std::fs::read(fixture("image18.jpg")).unwrap();
    std::fs::write(dir.join("truncated.jpg"), &bytes[..bytes.len() / 3]).unwrap();
    for (args, name) in [
        (vec!["hint", "truncated.jpg"], "truncated.jpg"),
        (vec!["hint", "missing.jpg"], "missing.jpg"),
        (vec!["hint", "--json", "missing.txt"], "missing.txt"),
    ] {
        let o = run_in(&args, &dir);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(common::stdout(&o), "", "{args:?}");
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.starts_with(&format!("sudoku-snap: {name}: ")),
            "{stderr}"
        );
    }
    let o = common::run(&["hint"], "not a puzzle\n");
    assert_eq!(o.status.code(), Some(2));
    assert!(common::stdout(&o).starts_with("invalid: "));
}
