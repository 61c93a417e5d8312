//! Pages with several grids, and PDF books, through the main job as a user
//! runs it: every grid in reading order, partial grids, notes tables,
//! answer grids, vector and raster PDF pages, `--pages`, the answer key,
//! resuming an interrupted run, and a damaged PDF in a batch.

use std::path::{Path, PathBuf};

use image::{GrayImage, Luma};
use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect, Ref};
use snap_solver::{Board, Shape};

mod common;
use common::{fixture, json_lines, p, run_in, scratch, stderr};

// The printing helpers the vision tests use; not all of them are needed here.
#[allow(dead_code)]
#[path = "../crates/vision/tests/render/mod.rs"]
mod render;

/// Puzzles with one solution each (17-clue and newspaper puzzles), and the
/// solution of the first.
const PUZZLES: [&str; 6] = [
    "...1.65.3...5..4....9.27.8.6..4.....84.....56.....2..7.3.27.9....7..1...9.46.3...",
    "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..",
    "..9748...7.........2.1.9.....7...24..64.1.59..98...3.....8.3.2.........6...2759..",
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
    "52...6.........7.13...........4..8..6......5...........418.........3..2...87.....",
    "6.....8.3.4.7.................5.4.7.3..2.....1.6.......2.....5.....8.6......1....",
];

fn board(line: &str) -> Board {
    Board::parse(line, Shape::classic()).unwrap()
}

fn solution(line: &str) -> Board {
    match snap_solver::solve(&board(line), 2) {
        Ok(snap_solver::Outcome::Unique(solution)) => solution,
        other => panic!("{line}: {other:?}"),
    }
}

/// Pastes `tile` onto `page` with its top-left corner at (x, y).
fn paste(page: &mut GrayImage, tile: &GrayImage, x: u32, y: u32) {
    image::imageops::overlay(page, tile, i64::from(x), i64::from(y));
}

/// Cell size and margin of the printed grids: a 360 px grid, the size a
/// puzzle has on a page scanned at 150 dpi.
const CELL: u32 = 40;
const MARGIN: u32 = 20;

/// A page of three rows, each a puzzle, a second puzzle and an empty notes
/// table (the kind books print beside puzzles for working).
fn page_with_notes_tables() -> GrayImage {
    let side = 9 * CELL + 2 * MARGIN;
    let mut page = GrayImage::from_pixel(3 * side + 40, 3 * side + 40, Luma([250]));
    let notes = render::print(&Board::empty(Shape::classic()), CELL, MARGIN);
    for row in 0..3u32 {
        for col in 0..2u32 {
            let puzzle = render::print(&board(PUZZLES[(row * 2 + col) as usize]), CELL, MARGIN);
            paste(&mut page, &puzzle, 20 + col * side, 20 + row * side);
        }
        paste(&mut page, &notes, 20 + 2 * side, 20 + row * side);
    }
    page
}

#[test]
fn every_puzzle_on_a_page_in_reading_order_and_no_notes_table() {
    let dir = scratch("cli_books-page");
    page_with_notes_tables().save(dir.join("page.png")).unwrap();
    let out = run_in(&["--json", "--no-image", "page.png"], &dir);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 6, "{}", stderr(&out));
    let notes_left = (2 * (9 * CELL + 2 * MARGIN)) as f64;
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line["grid"], i + 1);
        assert_eq!(line["page"], serde_json::Value::Null, "a photo has no page");
        assert_eq!(line["read"], PUZZLES[i], "grid {} read", i + 1);
        assert_eq!(line["status"], "solved");
        assert_eq!(line["solution"], solution(PUZZLES[i]).to_line());
        let left = line["quad"][0][0].as_f64().unwrap();
        assert!(left < notes_left, "grid {} is a notes table", i + 1);
    }
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn an_answer_page_whose_grids_show_through_lines_join_gives_them_apart() {
    // fixtures/answers-show-through.jpg: a photographed answer page (black
    // clues, grey answers) with the grids of the next page showing through
    // between its own, faint lines that join its middle grids to their
    // neighbours into one blob at the threshold's 7 %. The look without
    // faint ink parts the two middle grids from that blob (the right-hand
    // ones stay joined at this size).
    let answers = [
        "864123759153697284972458613518264937237981546496375821781549362645732198329816475",
        "627138495354679281891452637236897154578314926149265873485721369762943518913586742",
        "148326957539147682276598143425673819897215364613984275964731528381452796752869431",
        "351628749629174835847539126468213957792856413135497268213985674974361582586742391",
        "162345789857169243943278156375816924214593867689427315426931578798652431531784692",
        "153246897267189453894357612378561924629874531541932786785613249936425178412798365",
    ];
    let dir = scratch("cli_books-show-through");
    let photo = fixture("answers-show-through.jpg");
    let out = run_in(&["--json", "--no-image", p(&photo)], &dir);
    let lines = json_lines(&out);
    assert!(lines.len() >= 4, "{} grids: {}", lines.len(), stderr(&out));
    // The grey answers are faint beside the black clues: a grid read is
    // solved to its printed answer, never to anything else.
    let solved: Vec<&str> = lines
        .iter()
        .filter_map(|l| l["solution"].as_str())
        .collect();
    for s in &solved {
        assert!(answers.contains(s), "{s} is no printed answer");
    }
    for middle in [answers[1], answers[4]] {
        assert!(solved.contains(&middle), "{middle} not solved: {lines:?}");
    }
}

#[test]
fn clues_with_the_next_page_showing_through_them_are_read() {
    // fixtures/clues-under-show-through.jpg: one puzzle of a photographed
    // book page, the mirrored digits of the next page showing through over
    // four of its clues (r3c7 3, r4c7 1, r5c6 9, r7c5 7). Each such cell
    // holds two glyphs, one faint; read as other ink, the puzzle would
    // lose those clues (and stay unique only by chance). The second look,
    // with the faint ink taken away, reads them.
    let dir = scratch("cli_books-clues-show-through");
    let photo = fixture("clues-under-show-through.jpg");
    let out = run_in(&["--json", "--no-image", p(&photo)], &dir);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 1, "{}", stderr(&out));
    assert_eq!(
        lines[0]["givens"],
        "..4..37.9.318....4.7....32159.32.1.8.....9..23.27.1..6..3172..598.....171........"
    );
    assert_eq!(lines[0]["status"], "solved", "{}", lines[0]);
    assert_eq!(
        lines[0]["solution"],
        "654213789231897564879645321596324178718569432342781956463172895985436217127958643"
    );
}

#[test]
fn clues_read_in_doubt_under_show_through_are_settled() {
    // fixtures/clues-in-doubt-under-show-through.jpg: a puzzle of another
    // photographed page with show-through. Every clue is read, but those
    // under the next page's digits are read in doubt at first (their digit
    // at 0.6-0.9, the rest on other ink), which would leave the puzzle,
    // read right, `unsure` at 0.41; read again without the faint ink, each
    // is its digit surely, and the puzzle is solved.
    let dir = scratch("cli_books-clues-in-doubt");
    let photo = fixture("clues-in-doubt-under-show-through.jpg");
    let out = run_in(&["--json", "--no-image", p(&photo)], &dir);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 1, "{}", stderr(&out));
    assert_eq!(
        lines[0]["givens"],
        "6.1.85297...927.13.791.3.45...74....9.35.6.7..8...2.56.1.2.4.6..4263.58...68.1724"
    );
    assert_eq!(lines[0]["status"], "solved", "{}", lines[0]);
    assert_eq!(
        lines[0]["solution"],
        "631485297854927613279163845165748932923516478487392156518274369742639581396851724"
    );
}

#[test]
fn a_grey_blurred_page_of_a_puzzle_and_answers_gives_all_six() {
    // fixtures/answers-grey-blurred.jpg: a simulated photograph of a page
    // of a puzzle and answer grids (black clues, grey answers), out of
    // focus and in dim light, so that the darkest ink of each grid is
    // 0.62-0.70 of its paper. The finer search must not take that for a
    // faded ornament and refuse the top right grid, which passes its comb:
    // it is ink, 30 % darker than the paper around it. The puzzle's
    // blurred clues are at the reader's limit (its 5 in r1c8 is read as a
    // 5 or as empty depending on a pixel's shift in the cut): it is solved
    // to its solution or left `unsure` (with its solution or none), never
    // answered wrong; the answer grids, blurred, are never solved.
    let dir = scratch("cli_books-grey-blurred");
    let photo = fixture("answers-grey-blurred.jpg");
    let out = run_in(&["--json", "--no-image", p(&photo)], &dir);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 6, "{}", stderr(&out));
    // Reading order: two rows of three, left to right.
    let centres = grid_centres(&lines);
    assert_rows(&centres, &[0..3, 3..6], 60.0);
    assert!(centres[2].1 + 200.0 < centres[3].1, "rows: {centres:?}");
    // An `unsure` answer is shown when it rests on a cell or two read in
    // doubt (the cells are named): it must be the right one too.
    let right = "231648759789531246564972183972853614613497825845216937157389462396124578428765391";
    match lines[0]["status"].as_str() {
        Some("solved") => assert_eq!(lines[0]["solution"], right),
        Some("unsure") => assert!(
            lines[0]["solution"].is_null() || lines[0]["solution"] == right,
            "{}",
            lines[0]
        ),
        _ => panic!("the puzzle: {}", lines[0]),
    }
    for line in &lines[1..] {
        assert_ne!(line["status"], "solved", "an answer grid: {line}");
        assert_ne!(line["status"], "partial", "{line}");
    }
}

#[test]
fn a_curled_page_of_six_puzzles_gives_all_six_solved_in_reading_order() {
    // fixtures/six-puzzles-curled.jpg: a simulated photograph of a page of
    // six puzzles bowed at the spine. The finer search, at full resolution
    // on this 1321x1761 photo, refuses the top right grid's comb; the
    // closer look, made at full resolution too, passes it.
    let solutions = [
        "629387154841956732537124986758241693312695847496738215183462579965873421274519368",
        "925638174371294856468715392712453968683129745594876213136587429847962531259341687",
        "649781235128635749357429681714953826235168497986247513472316958593872164861594372",
        "431976852869425173572318649283741965196532487754869231647193528925687314318254796",
        "812965374635427189749138526276549831593281467481376295127653948358794612964812753",
        "148639572739521684265487913956748321314295867872316495683152749491873256527964138",
    ];
    let dir = scratch("cli_books-curled");
    let photo = fixture("six-puzzles-curled.jpg");
    let out = run_in(&["--json", "--no-image", p(&photo)], &dir);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 6, "{}", stderr(&out));
    for (line, solution) in lines.iter().zip(solutions) {
        assert_eq!(line["status"], "solved", "{line}");
        assert_eq!(line["solution"], solution, "{line}");
    }
}

#[test]
fn a_page_of_eight_blurred_answer_grids_gives_all_eight_unanswered() {
    // fixtures/eight-answers-shadowed.jpg: a simulated photograph of a
    // page of eight printed answer grids, blurred and crossed by a
    // shadow. The page search refuses two of them (their thin lines lost
    // beside bold digits) while their six neighbours, printed alike,
    // pass; looked at closer because they stand in line with those and
    // are their size, both pass. Their digits are too blurred to read
    // surely, so none is answered.
    let dir = scratch("cli_books-eight-answers");
    let photo = fixture("eight-answers-shadowed.jpg");
    let out = run_in(&["--json", "--no-image", p(&photo)], &dir);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 8, "{}", stderr(&out));
    // Reading order: three rows of 3, 3 and 2 grids, left to right.
    let centres = grid_centres(&lines);
    assert_rows(&centres, &[0..3, 3..6, 6..8], 40.0);
    assert!(centres[2].1 + 150.0 < centres[3].1, "rows: {centres:?}");
    assert!(centres[5].1 + 150.0 < centres[6].1, "rows: {centres:?}");
    for line in &lines {
        assert_ne!(
            line["status"], "solved",
            "an answer grid is never solved: {line}"
        );
        assert_ne!(line["status"], "partial", "{line}");
    }
}

#[test]
fn a_grid_at_the_edge_is_read_whole_and_one_cut_never_solved() {
    let dir = scratch("cli_books-partial");
    let side = 9 * CELL + 2 * MARGIN;
    let whole = render::print(&board(PUZZLES[0]), CELL, MARGIN);
    let cut = render::print(&board(PUZZLES[1]), CELL, MARGIN);
    // The second grid's right border falls on the image's edge (half of
    // the line is gone), as when a page is scanned or photographed tight:
    // every cell is in the image, so it is read.
    let mut page = GrayImage::from_pixel(2 * side - MARGIN, side, Luma([250]));
    paste(&mut page, &whole, 0, 0);
    paste(&mut page, &cut, side, 0);
    page.save(dir.join("tight.png")).unwrap();
    let out = run_in(&["--json", "--no-image", "tight.png"], &dir);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2, "{}", stderr(&out));
    assert_eq!(lines[0]["status"], "solved");
    assert_eq!(lines[1]["status"], "solved", "{}", lines[1]);
    // Cut past its border, a fifth of a cell, half a cell and two
    // columns: cells are missing, and whatever the rest of the grid reads
    // as (partial, unsure, or no grid), it is never solved.
    for (name, gone) in [("fifth", CELL / 5), ("half", CELL / 2), ("two", 2 * CELL)] {
        let mut page = GrayImage::from_pixel(2 * side - MARGIN - gone, side, Luma([250]));
        paste(&mut page, &whole, 0, 0);
        paste(&mut page, &cut, side, 0);
        let file = format!("{name}.png");
        page.save(dir.join(&file)).unwrap();
        let out = run_in(&["--json", "--no-image", &file], &dir);
        let lines = json_lines(&out);
        assert_eq!(lines[0]["status"], "solved", "{file}");
        for line in &lines[1..] {
            assert_ne!(line["status"], "solved", "{file}: {line}");
        }
    }
}

#[test]
fn answer_grids_are_complete_and_checked() {
    let dir = scratch("cli_books-answers");
    let side = 9 * CELL + 2 * MARGIN;
    let good = solution(PUZZLES[0]);
    let mut bad = solution(PUZZLES[1]);
    bad.cells.swap(0, 1); // two digits swapped: rows stay full, columns clash
    let mut page = GrayImage::from_pixel(2 * side, side, Luma([250]));
    paste(&mut page, &render::print(&good, CELL, MARGIN), 0, 0);
    paste(&mut page, &render::print(&bad, CELL, MARGIN), side, 0);
    page.save(dir.join("answers.png")).unwrap();
    let out = run_in(&["--json", "--no-image", "answers.png"], &dir);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 2, "{}", stderr(&out));
    for line in &lines {
        assert_eq!(line["status"], "complete", "{line}");
        assert_eq!(
            line["solution"],
            serde_json::Value::Null,
            "an answer grid is never solved"
        );
    }
    assert_eq!(
        lines[0]["error"],
        serde_json::Value::Null,
        "a valid answer grid"
    );
    assert!(
        lines[1]["error"].as_str().is_some_and(|e| !e.is_empty()),
        "the clash is named"
    );
}

/// Generates a book of six puzzles (one page of puzzles, one of answers)
/// and returns its path and the puzzles in order.
fn generated_book(dir: &Path) -> (PathBuf, Vec<String>) {
    let out = run_in(
        &[
            "generate", "--count", "6", "--seed", "11", "--json", "--pdf", "book.pdf",
        ],
        dir,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let puzzles = json_lines(&out)
        .iter()
        .map(|v| v["givens"].as_str().unwrap().to_string())
        .collect();
    (dir.join("book.pdf"), puzzles)
}

#[test]
fn a_vector_pdf_page_gives_its_grids_with_page_and_dpi() {
    let dir = scratch("cli_books-vector");
    let (_, puzzles) = generated_book(&dir);
    let out = run_in(&["--json", "--no-image", "--pages", "1", "book.pdf"], &dir);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 6, "{}", stderr(&out));
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line["page"], 1);
        assert_eq!(line["grid"], i + 1);
        assert_eq!(line["dpi"], 150.0);
        assert_eq!(line["read"], puzzles[i].as_str(), "grid {} read", i + 1);
        // quad * 72 / dpi is in points, on a US Letter page (612 x 792).
        for corner in line["quad"].as_array().unwrap() {
            let x = corner[0].as_f64().unwrap() * 72.0 / 150.0;
            let y = corner[1].as_f64().unwrap() * 72.0 / 150.0;
            assert!(
                (0.0..=612.0).contains(&x) && (0.0..=792.0).contains(&y),
                "{corner}"
            );
        }
    }
}

/// A one-page PDF whose page is the JPEG `jpeg` (`width` x `height` px)
/// placed at 150 dpi: what a scanned book is.
fn raster_pdf(jpeg: &[u8], width: u32, height: u32) -> Vec<u8> {
    let (catalog, tree, page, content, photo) = (
        Ref::new(1),
        Ref::new(2),
        Ref::new(3),
        Ref::new(4),
        Ref::new(5),
    );
    let (w_pt, h_pt) = (width as f32 * 72.0 / 150.0, height as f32 * 72.0 / 150.0);
    let mut pdf = Pdf::new();
    pdf.catalog(catalog).pages(tree);
    pdf.pages(tree).kids([page]).count(1);
    let mut p = pdf.page(page);
    p.parent(tree)
        .media_box(Rect::new(0.0, 0.0, w_pt, h_pt))
        .contents(content);
    p.resources().x_objects().pair(Name(b"Im1"), photo);
    p.finish();
    let mut image = pdf.image_xobject(photo, jpeg);
    image.filter(Filter::DctDecode);
    image.width(width as i32);
    image.height(height as i32);
    image.color_space().device_rgb();
    image.bits_per_component(8);
    image.finish();
    let mut draw = Content::new();
    draw.save_state();
    draw.transform([w_pt, 0.0, 0.0, h_pt, 0.0, 0.0]);
    draw.x_object(Name(b"Im1"));
    draw.restore_state();
    pdf.stream(content, &draw.finish());
    pdf.finish()
}

#[test]
fn a_raster_pdf_page_reads_like_the_photo_in_it() {
    let dir = scratch("cli_books-raster");
    let photo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("fixtures/image18.jpg");
    let jpeg = std::fs::read(&photo).unwrap();
    let (w, h) = image::image_dimensions(&photo).unwrap();
    std::fs::write(dir.join("scan.pdf"), raster_pdf(&jpeg, w, h)).unwrap();
    let out = run_in(
        &["--json", "--out-dir", ".", "--page-images", "scan.pdf"],
        &dir,
    );
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 1, "{}", stderr(&out));
    let truth: String = std::fs::read_to_string(photo.with_extension("txt"))
        .unwrap()
        .lines()
        .map(str::trim)
        .collect();
    assert_eq!(lines[0]["status"], "solved");
    assert_eq!(lines[0]["givens"], truth.as_str());
    assert_eq!(lines[0]["page"], 1);
    assert!(dir.join("scan.p001.solved.png").is_file());
    assert!(
        dir.join("scan.answers.pdf").is_file(),
        "a solved grid gives an answer key"
    );
    assert!(dir.join("scan.solved.pdf").is_file(), "and a solved book");
}

/// JSON lines without their timings, which differ from run to run.
fn without_times(lines: Vec<serde_json::Value>) -> Vec<serde_json::Value> {
    lines
        .into_iter()
        .map(|mut v| {
            v.as_object_mut().unwrap().remove("ms");
            v
        })
        .collect()
}

#[test]
fn an_interrupted_book_resumes_and_ends_as_an_uninterrupted_run() {
    let dir = scratch("cli_books-resume");
    generated_book(&dir);
    for out_dir in ["whole", "resumed"] {
        std::fs::create_dir(dir.join(out_dir)).unwrap();
    }
    let whole = run_in(&["--json", "--out-dir", "whole", "book.pdf"], &dir);
    // The first run stops after page 1 (as Ctrl-C would after a page).
    let first = run_in(
        &["--json", "--out-dir", "resumed", "--pages", "1", "book.pdf"],
        &dir,
    );
    assert!(!json_lines(&first).is_empty());
    let again = run_in(&["--json", "--out-dir", "resumed", "book.pdf"], &dir);
    assert!(
        stderr(&again).contains("resumed: 1 of 2 pages"),
        "{}",
        stderr(&again)
    );
    let rename = |lines: Vec<serde_json::Value>| {
        without_times(lines)
            .into_iter()
            .map(|v| v.to_string().replace("resumed/", "whole/"))
            .collect::<Vec<_>>()
    };
    assert_eq!(rename(json_lines(&again)), rename(json_lines(&whole)));
    assert_eq!(again.status.code(), whole.status.code());
    for name in ["book.solved.pdf", "book.answers.pdf"] {
        let a = std::fs::read(dir.join("whole").join(name));
        let b = std::fs::read(dir.join("resumed").join(name));
        assert_eq!(a.is_ok(), b.is_ok(), "{name}");
        assert!(a.ok() == b.ok(), "{name} differs");
    }
}

#[test]
fn a_damaged_pdf_is_one_clear_error_and_the_batch_goes_on() {
    let dir = scratch("cli_books-damaged");
    let (book, _) = generated_book(&dir);
    let bytes = std::fs::read(&book).unwrap();
    std::fs::write(dir.join("torn.pdf"), &bytes[..bytes.len() / 3]).unwrap();
    page_with_notes_tables().save(dir.join("page.png")).unwrap();
    let out = run_in(&["--no-image", "-v", "torn.pdf", "page.png"], &dir);
    let err = stderr(&out);
    let first = err.lines().next().unwrap_or_default();
    assert!(
        first.starts_with("sudoku-snap: torn.pdf: damaged file: "),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "one error: {err}");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("page.png grid 6: solved"), "{text}");
    assert_eq!(
        out.status.code(),
        Some(2),
        "an unreadable input is exit code 2"
    );
    // A --pages list beyond the book is that book's error, not the run's.
    let out = run_in(
        &["--no-image", "-v", "--pages", "5", "book.pdf", "page.png"],
        &dir,
    );
    assert!(
        stderr(&out).contains("book.pdf: --pages 5"),
        "{}",
        stderr(&out)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("page.png grid 1: solved"));
}

/// The centre (mean of the corners) of each JSON line's `quad`.
fn grid_centres(lines: &[serde_json::Value]) -> Vec<(f64, f64)> {
    lines
        .iter()
        .map(|line| {
            let corners = line["quad"].as_array().expect("a quad");
            let mean = |axis: usize| {
                corners
                    .iter()
                    .map(|c| c[axis].as_f64().expect("a coordinate"))
                    .sum::<f64>()
                    / 4.0
            };
            (mean(0), mean(1))
        })
        .collect()
}

/// Each of `rows` (ranges of `centres`) runs left to right, its centres
/// within `tolerance` pixels of each other's height.
fn assert_rows(centres: &[(f64, f64)], rows: &[std::ops::Range<usize>], tolerance: f64) {
    for row in rows {
        for pair in centres[row.clone()].windows(2) {
            assert!(pair[0].0 < pair[1].0, "left to right: {centres:?}");
            assert!(
                (pair[0].1 - pair[1].1).abs() < tolerance,
                "one row: {centres:?}"
            );
        }
    }
}
