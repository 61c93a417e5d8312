//! When the reader is unsure, one step fixes it: corrections aimed at the
//! right grid (`--set` with its target, in any shape), the correction file
//! round trip (`read`, edit, `--givens`), the shape and corners given by
//! hand, the cells to check ringed on the image, and advice that settles
//! the grid. Each test runs the binary as a user would.

mod common;

use std::path::{Path, PathBuf};

use common::{fixture, json_lines, p, run_in, scratch, stderr, stdout};

/// The JSON line of grid `grid` (1-based) among `lines` of `path`.
fn grid<'a>(lines: &'a [serde_json::Value], path: &str, grid: u64) -> &'a serde_json::Value {
    lines
        .iter()
        .find(|v| v["path"] == path && v["grid"] == grid)
        .unwrap_or_else(|| panic!("no grid {grid} of {path} in {lines:?}"))
}

/// A generated one-puzzle-a-page PDF book of `shape` (`16x16`, `samurai`).
fn book(dir: &Path, shape: &str) -> PathBuf {
    let pdf = dir.join(format!("{shape}.pdf"));
    let out = run_in(
        &[
            "generate",
            "--shape",
            shape,
            "--count",
            "1",
            "--seed",
            "3",
            "--pdf",
            p(&pdf),
        ],
        dir,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    pdf
}

#[test]
fn an_unscoped_set_with_several_inputs_is_a_usage_error_saying_how() {
    let dir = scratch("cli_correct-scope");
    let a = fixture("image31.jpg");
    let b = fixture("image18.jpg");
    let out = run_in(&["--no-image", "--set", "r6c9=2", p(&a), p(&b)], &dir);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("reads 2 inputs") && err.contains(&format!("--set {}:r6c9=2", p(&a))),
        "{err}"
    );
    // Named by its file name, the correction goes to that photo alone.
    let out = run_in(
        &[
            "--json",
            "--no-image",
            "--set",
            "image18.jpg:r1c4=.",
            p(&a),
            p(&b),
        ],
        &dir,
    );
    let lines = json_lines(&out);
    let plain = json_lines(&run_in(&["--json", "--no-image", p(&a), p(&b)], &dir));
    assert_eq!(
        grid(&lines, p(&a), 1)["read"],
        grid(&plain, p(&a), 1)["read"]
    );
    // r1c4 of image18 is a printed 1.
    let read = grid(&lines, p(&b), 1)["read"].as_str().unwrap().to_string();
    assert_eq!(&read[3..4], ".", "{read}");
    assert_ne!(grid(&plain, p(&b), 1)["read"].as_str().unwrap(), read);
    // A name that is no input of the run says so.
    let out = run_in(&["--no-image", "--set", "x.jpg:r1c1=1", p(&a), p(&b)], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no input is named x.jpg"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn set_reaches_pdf_pages_and_grids_or_says_how_to_name_them() {
    let dir = scratch("cli_correct-pages");
    let pdf = fixture("pdf/postonwj_puzzles.pdf");
    // Two pages read: the page must be named.
    let out = run_in(&["--no-image", "--set", "r1c1=5", p(&pdf)], &dir);
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("has 2 pages to read") && err.contains("--set p1:r1c1=5"),
        "{err}"
    );
    let out = run_in(
        &["--no-image", "--pages", "2", "--set", "p3:r1c1=5", p(&pdf)],
        &dir,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("page 3 of"), "{}", stderr(&out));
    // One page of six grids: the grid must be named, and the page says so.
    let out = run_in(
        &["--no-image", "--pages", "2", "--set", "r1c1=5", p(&pdf)],
        &dir,
    );
    assert_eq!(out.status.code(), Some(2));
    let err = stderr(&out);
    assert!(
        err.contains("has 6 grids") && err.contains("--set g1:r1c1=5"),
        "{err}"
    );
    // Named, it lands on that grid of that page and nowhere else.
    let out = run_in(
        &["--json", "--no-image", "--set", "p2:g3:r1c1=.", p(&pdf)],
        &dir,
    );
    let plain = run_in(&["--json", "--no-image", p(&pdf)], &dir);
    let (set, plain) = (json_lines(&out), json_lines(&plain));
    for (a, b) in set.iter().zip(&plain) {
        assert_eq!((&a["page"], &a["grid"]), (&b["page"], &b["grid"]));
        let target = a["page"] == 2 && a["grid"] == 3;
        let first = a["read"].as_str().unwrap().as_bytes()[0];
        if target {
            assert_eq!(first, b'.', "{a}");
            assert_ne!(a["read"], b["read"], "{b}");
        } else {
            assert_eq!(a["read"], b["read"]);
        }
    }
}

#[test]
fn set_lands_in_its_cell_on_a_16x16_and_a_samurai() {
    let dir = scratch("cli_correct-shapes");
    let pdf = book(&dir, "16x16");
    let args = ["--json", "--no-image", "--pages", "1", p(&pdf)];
    let plain = json_lines(&run_in(&args, &dir));
    let read = plain[0]["read"].as_str().unwrap().to_string();
    // r2c1 of a 16x16 is position 16 (it went to r1c10, position 9).
    let value = if &read[16..17] == "5" { "6" } else { "5" };
    let mut with_set = args.to_vec();
    let set = format!("r2c1={value}");
    with_set.extend(["--set", &set]);
    let v = &json_lines(&run_in(&with_set, &dir))[0];
    let after = v["read"].as_str().unwrap();
    assert_eq!(&after[16..17], value, "{v}");
    assert_eq!(&after[..16], &read[..16]);
    assert_eq!(&after[17..], &read[17..]);
    // A cell past the 16x16 fails the page with the reason.
    let mut past = args.to_vec();
    past.extend(["--set", "r17c1=1"]);
    let out = run_in(&past, &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("rows and columns 1-16"),
        "{}",
        stderr(&out)
    );

    // The Samurai of the generated book is read with its outline and
    // shape given (its thin rules defeat the locator); r2c1 is position 21.
    let pdf = book(&dir, "samurai");
    let corners = "150,428;1089,428;1089,1367;150,1367";
    let args = [
        "--json",
        "--no-image",
        "--pages",
        "1",
        "--shape",
        "samurai",
        "--corners",
        corners,
        p(&pdf),
    ];
    let plain = &json_lines(&run_in(&args, &dir))[0];
    assert_eq!(plain["shape"], "samurai", "{plain}");
    assert_eq!(plain["status"], "solved", "{plain}");
    let read = plain["read"].as_str().unwrap().to_string();
    let value = if &read[21..22] == "5" { "6" } else { "5" };
    let set = format!("r2c1={value}");
    let mut with_set = args.to_vec();
    with_set.extend(["--set", &set]);
    let v = &json_lines(&run_in(&with_set, &dir))[0];
    let after = v["read"].as_str().unwrap();
    assert_eq!(&after[21..22], value, "{v}");
    assert_eq!(&after[..21], &read[..21]);
    // r1c10 lies between the two top grids.
    let mut outside = args.to_vec();
    outside.extend(["--set", "r1c10=1"]);
    let out = run_in(&outside, &dir);
    assert!(
        stderr(&out).contains("outside the five grids"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_grid_read_is_edited_and_given_back() {
    let dir = scratch("cli_correct-round-trip");
    let photo = fixture("image31.jpg");
    // 1. read the photo into a file a person can edit.
    let out = run_in(&["read", p(&photo)], &dir);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with('#'), "{text}");
    std::fs::write(dir.join("grid.txt"), &text).unwrap();
    // 2. give it back: the same puzzle, solved and drawn onto the photo.
    let plain = &json_lines(&run_in(&["--json", "--no-image", p(&photo)], &dir))[0];
    let out = run_in(&["--json", p(&photo), "--givens", "grid.txt"], &dir);
    let v = &json_lines(&out)[0];
    assert_eq!(v["status"], "solved", "{v}");
    assert_eq!(v["givens"], plain["givens"]);
    assert_eq!(v["solution"], plain["solution"]);
    assert!(dir.join("image31.solved.jpg").exists());
    // 3. solve takes the same file.
    let out = run_in(&["solve", "grid.txt"], &dir);
    assert_eq!(stdout(&out).trim(), plain["solution"].as_str().unwrap());
    // An edit shows: r1c1 made a 9, which clashes with r1c6.
    let givens = plain["givens"].as_str().unwrap();
    assert_eq!(&givens[5..6], "9", "r1c6 of image31 is a printed 9");
    let edited = text.replacen(". . . | . . 9", "9 . . | . . 9", 1);
    assert_ne!(edited, text, "{text}");
    std::fs::write(dir.join("edited.txt"), &edited).unwrap();
    let out = run_in(
        &["--json", "--no-image", p(&photo), "--givens", "edited.txt"],
        &dir,
    );
    let v = &json_lines(&out)[0];
    assert_eq!(v["status"], "no_solution", "{v}");
    assert!(
        v["error"].as_str().unwrap().contains("r1c1 and r1c6"),
        "{v}"
    );
}

#[test]
fn a_page_of_several_grids_is_given_back_grid_by_grid() {
    let dir = scratch("cli_correct-round-trip-page");
    let photo = fixture("six-puzzles-curled.jpg");
    let text = stdout(&run_in(&["read", p(&photo)], &dir));
    std::fs::write(dir.join("grids.txt"), &text).unwrap();
    let plain = json_lines(&run_in(&["--json", "--no-image", p(&photo)], &dir));
    assert_eq!(plain.len(), 6, "{plain:?}");
    // The whole file gives each grid its own puzzle.
    let all = json_lines(&run_in(
        &["--json", "--no-image", p(&photo), "--givens", "grids.txt"],
        &dir,
    ));
    for (a, b) in all.iter().zip(&plain) {
        assert_eq!(a["read"], b["read"], "{a}");
    }
    // g2: takes the file's second puzzle for grid 2 alone.
    let out = run_in(
        &[
            "--json",
            "--no-image",
            p(&photo),
            "--givens",
            "g2:grids.txt",
        ],
        &dir,
    );
    let lines = json_lines(&out);
    assert_eq!(lines[1]["read"], plain[1]["read"]);
    // Not as many puzzles as grids, and no grid named: a page error.
    let first: String = text.split("\n\n").next().unwrap().to_string();
    std::fs::write(dir.join("one.txt"), first).unwrap();
    let out = run_in(&["--no-image", p(&photo), "--givens", "one.txt"], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("--givens g1:one.txt"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn corners_and_shape_given_by_hand_find_the_grid() {
    let dir = scratch("cli_correct-corners");
    let photo = fixture("image31.jpg");
    let plain = &json_lines(&run_in(&["--json", "--no-image", p(&photo)], &dir))[0];
    let quad: Vec<(f64, f64)> = plain["quad"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c[0].as_f64().unwrap(), c[1].as_f64().unwrap()))
        .collect();
    // The grid's own corners, in another order, read the same puzzle.
    let corners: Vec<String> = [2, 0, 3, 1]
        .iter()
        .map(|&k| format!("{:.0},{:.0}", quad[k].0, quad[k].1))
        .collect();
    let corners = corners.join(";");
    let v = &json_lines(&run_in(
        &["--json", "--no-image", "--corners", &corners, p(&photo)],
        &dir,
    ))[0];
    assert_eq!(v["solution"], plain["solution"], "{v}");
    // The grid cut out of the photo, read as the whole image.
    let image = image::open(&photo).unwrap();
    let xs = quad.iter().map(|c| c.0);
    let ys = quad.iter().map(|c| c.1);
    let (x0, x1) = (xs.clone().fold(f64::MAX, f64::min), xs.fold(0.0, f64::max));
    let (y0, y1) = (ys.clone().fold(f64::MAX, f64::min), ys.fold(0.0, f64::max));
    let crop = image.crop_imm(x0 as u32, y0 as u32, (x1 - x0) as u32, (y1 - y0) as u32);
    crop.save(dir.join("crop.png")).unwrap();
    let v = &json_lines(&run_in(
        &["--json", "--no-image", "--corners", "full", "crop.png"],
        &dir,
    ))[0];
    assert_eq!(v["solution"], plain["solution"], "{v}");
    // Corners place one grid: not for a run of several photos.
    let out = run_in(&["--corners", "full", p(&photo), "crop.png"], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("one photo or page"),
        "{}",
        stderr(&out)
    );
    // A shape that is not there says how to give its corners.
    let out = run_in(&["--no-image", "--shape", "samurai", p(&photo)], &dir);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).contains("give its corners with --corners"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn an_unsure_grid_always_gets_its_cells_to_check_ringed() {
    // One grid of grey answers, blurred: unsure far below the 0.75 from
    // which an answer is drawn, so only the rings can be.
    let dir = scratch("cli_correct-rings");
    let image = image::open(fixture("answers-grey-blurred.jpg")).unwrap();
    image
        .crop_imm(470, 70, 380, 320)
        .save(dir.join("one.png"))
        .unwrap();
    let out = run_in(&["--json", "one.png"], &dir);
    let v = &json_lines(&out)[0];
    assert_eq!(v["status"], "unsure", "{v}");
    assert!(v["solution"].is_null(), "{v}");
    assert!(!v["check"].as_array().unwrap().is_empty(), "{v}");
    assert_eq!(v["output"], "one.solved.png", "{v}");
    let drawn = image::open(dir.join("one.solved.png")).unwrap().to_rgb8();
    let red = drawn
        .pixels()
        .filter(|px| px[0] > 200 && px[1] < 80 && px[2] < 80);
    assert!(red.count() > 500, "the rings are drawn in red");
}

#[test]
fn applying_the_advice_settles_every_unsure_grid() {
    // Every unsure grid of a page, its advice applied as printed (each
    // cell set to the value suggested): solved, complete or stated broken,
    // never unsure again.
    let dir = scratch("cli_correct-settle");
    for name in ["answers-grey-blurred.jpg", "eight-answers-shadowed.jpg"] {
        let photo = fixture(name);
        let lines = json_lines(&run_in(&["--json", "--no-image", p(&photo)], &dir));
        let mut args = vec!["--json".to_string(), "--no-image".to_string()];
        let mut unsure = Vec::new();
        for v in lines.iter().filter(|v| v["status"] == "unsure") {
            unsure.push(v["grid"].clone());
            for set in v["set"].as_array().unwrap() {
                let set = set.as_str().unwrap();
                assert!(set.starts_with("--set g"), "a page of several grids: {set}");
                args.push("--set".into());
                args.push(set["--set ".len()..].to_string());
            }
        }
        assert!(!unsure.is_empty(), "{name} has unsure grids");
        args.push(p(&photo).to_string());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let after = json_lines(&run_in(&args, &dir));
        for g in &unsure {
            let v = after.iter().find(|v| &v["grid"] == g).unwrap();
            let status = v["status"].as_str().unwrap();
            assert!(
                ["solved", "complete", "no_solution", "multiple_solutions"].contains(&status),
                "{name} grid {g}: {v}"
            );
        }
    }
}

#[test]
fn advice_names_the_input_when_the_run_reads_several() {
    let dir = scratch("cli_correct-advice-scope");
    let unsure = fixture("answers-grey-blurred.jpg");
    let other = fixture("image31.jpg");
    let out = run_in(&["--json", "--no-image", p(&unsure), p(&other)], &dir);
    let lines = json_lines(&out);
    let v = lines.iter().find(|v| v["status"] == "unsure").unwrap();
    let set = v["set"][0].as_str().unwrap();
    let prefix = format!("--set {}:g{}:r", p(&unsure), v["grid"]);
    assert!(set.starts_with(&prefix), "{set}");
    // The batch summary names the inputs behind its counts.
    let text = stdout(&run_in(&["--no-image", p(&unsure), p(&other)], &dir));
    assert!(text.contains("2 inputs: "), "{text}");
    let solved = text
        .lines()
        .find(|l| l.starts_with("solved: "))
        .unwrap_or_default();
    assert!(solved.contains(p(&other)), "{text}");
    let named = format!("  {} grid {}: ", p(&unsure), v["grid"]);
    let line = text.lines().find(|l| l.starts_with(&named));
    assert!(line.is_some_and(|l| l.contains("unsure")), "{text}");
}
