//! The outputs of books and batches as a user meets them: the solved book
//! (rendered back with poppler's `pdftoppm` and read again), the summary
//! and exit codes, shards merged through GNU parallel, resuming after lost
//! records or damaged images, the answer key never shrunk, a closed
//! standard output, stale temporary files, and debug images that cannot
//! be sent elsewhere.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

mod common;
use common::{bin_path, fixture, json_lines, run_in, scratch, stderr, stdout};

/// Generates a book of `count` puzzles (six to a puzzle page, twelve to an
/// answer page) in `dir` and returns the puzzles in order.
fn generate(dir: &Path, count: usize, seed: u64) -> Vec<String> {
    let count = count.to_string();
    let seed = seed.to_string();
    let out = run_in(
        &[
            "generate", "--count", &count, "--seed", &seed, "--json", "--pdf", "book.pdf",
        ],
        dir,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    json_lines(&out)
        .iter()
        .map(|v| v["solution"].as_str().unwrap().to_string())
        .collect()
}

/// True when `tool` runs here; under CI it must (`.ci/run` installs it).
fn have(tool: &str) -> bool {
    let found = Command::new(tool)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok();
    if !found {
        assert!(
            std::env::var_os("CI").is_none_or(|v| v != "true"),
            "{tool} is missing (.ci/run installs it)"
        );
        eprintln!("note: {tool} is not installed; this test is skipped");
    }
    found
}

/// Renders page `page` of `pdf` with poppler at 150 dpi into `png`.
fn render(pdf: &Path, page: usize, png: &Path) {
    let stem = png.with_extension("");
    let status = Command::new("pdftoppm")
        .args(["-r", "150", "-png", "-singlefile", "-f", &page.to_string()])
        .args(["-l", &page.to_string()])
        .arg(pdf)
        .arg(&stem)
        .status()
        .expect("run pdftoppm");
    assert!(status.success());
}

#[test]
fn a_solved_book_shows_every_answer_in_place_and_stays_small() {
    if !have("pdftoppm") {
        return;
    }
    let dir = scratch("cli_outputs-solved");
    let solutions = generate(&dir, 6, 11);
    let out = run_in(&["book.pdf", "-o", "book.solved.pdf"], &dir);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let solved = dir.join("book.solved.pdf");
    let (before, after) = (
        std::fs::metadata(dir.join("book.pdf")).unwrap().len(),
        std::fs::metadata(&solved).unwrap().len(),
    );
    assert!(after <= 2 * before, "{after} bytes from {before}");
    assert!(
        !dir.join("book.p001.solved.png").exists(),
        "page images only on request"
    );
    // The puzzle page, rendered by another renderer and read back: every
    // cell of every grid holds its solution's digit, where it belongs.
    render(&solved, 1, &dir.join("page1.png"));
    let read = run_in(&["--json", "--no-image", "page1.png"], &dir);
    let lines = json_lines(&read);
    assert_eq!(lines.len(), 6, "{}", stderr(&read));
    for (line, solution) in lines.iter().zip(&solutions) {
        assert_eq!(line["read"], solution.as_str(), "{line}");
    }
    // The answer page has no puzzle: copied as it was.
    let text = Command::new("pdftotext")
        .args(["-f", "1", "-l", "1"])
        .arg(&solved)
        .arg("-")
        .output()
        .expect("run pdftotext");
    let digits: usize = String::from_utf8_lossy(&text.stdout)
        .chars()
        .filter(char::is_ascii_digit)
        .count();
    assert!(digits >= 6 * 81, "the answers are text: {digits} digits");
}

/// A one-page PDF of `jpeg` (`w` x `h` px at 150 dpi), its media box moved
/// off the origin and turned by `/Rotate 90`.
fn turned_scan(jpeg: &[u8], w: u32, h: u32) -> Vec<u8> {
    use pdf_writer::{Content, Filter, Finish, Name, Pdf, Rect, Ref};
    let (w_pt, h_pt) = (w as f32 * 72.0 / 150.0, h as f32 * 72.0 / 150.0);
    let (x0, y0) = (100.0, 40.0);
    let mut pdf = Pdf::new();
    pdf.catalog(Ref::new(1)).pages(Ref::new(2));
    pdf.pages(Ref::new(2)).kids([Ref::new(3)]).count(1);
    let mut page = pdf.page(Ref::new(3));
    page.parent(Ref::new(2))
        .media_box(Rect::new(x0, y0, x0 + w_pt, y0 + h_pt))
        .rotate(90)
        .contents(Ref::new(4));
    page.resources().x_objects().pair(Name(b"Im1"), Ref::new(5));
    page.finish();
    let mut image = pdf.image_xobject(Ref::new(5), jpeg);
    image.filter(Filter::DctDecode);
    image.width(w as i32).height(h as i32);
    image.color_space().device_rgb();
    image.bits_per_component(8);
    image.finish();
    let mut draw = Content::new();
    draw.transform([w_pt, 0.0, 0.0, h_pt, x0, y0]);
    draw.x_object(Name(b"Im1"));
    pdf.stream(Ref::new(4), &draw.finish());
    pdf.finish()
}

#[test]
fn answers_land_in_place_on_a_turned_page_with_an_offset_box() {
    if !have("pdftoppm") {
        return;
    }
    let dir = scratch("cli_outputs-turned");
    let photo = fixture("image18.jpg");
    let (w, h) = image::image_dimensions(&photo).unwrap();
    std::fs::write(
        dir.join("scan.pdf"),
        turned_scan(&std::fs::read(&photo).unwrap(), w, h),
    )
    .unwrap();
    let out = run_in(&["--json", "scan.pdf"], &dir);
    let lines = json_lines(&out);
    assert_eq!(lines.len(), 1, "{}", stderr(&out));
    assert_eq!(lines[0]["status"], "solved");
    let solution = lines[0]["solution"].as_str().unwrap().to_string();
    render(&dir.join("scan.solved.pdf"), 1, &dir.join("solved.png"));
    let back = json_lines(&run_in(&["--json", "--no-image", "solved.png"], &dir));
    assert_eq!(back.len(), 1);
    assert_eq!(back[0]["read"], solution.as_str(), "{}", back[0]);
}

/// JSON lines without their timings, with `from` in paths made `to`.
fn comparable(lines: Vec<serde_json::Value>, from: &str, to: &str) -> Vec<String> {
    lines
        .into_iter()
        .map(|mut v| {
            v.as_object_mut().unwrap().remove("ms");
            v.to_string().replace(from, to)
        })
        .collect()
}

#[test]
fn three_shards_through_gnu_parallel_merge_into_one_run() {
    if !have("parallel") {
        return;
    }
    let dir = scratch("cli_outputs-shards");
    generate(&dir, 18, 5);
    let single = run_in(&["--json", "--out-dir", "one", "book.pdf"], &dir);
    assert_eq!(single.status.code(), Some(0), "{}", stderr(&single));
    let shards = Command::new("parallel")
        .args(["--will-cite", "--halt", "now,fail=1"])
        .arg(bin_path())
        .args([
            "--json",
            "--out-dir",
            "three",
            "--shard",
            "{}/3",
            "book.pdf",
        ])
        .args([":::", "1", "2", "3"])
        .current_dir(&dir)
        .output()
        .expect("run parallel");
    assert!(shards.status.success(), "{}", stderr(&shards));
    assert!(
        !dir.join("three/book.answers.pdf").exists(),
        "a shard writes no book output"
    );
    let merged = run_in(&["--json", "--out-dir", "three", "book.pdf"], &dir);
    assert!(
        stderr(&merged).contains("resumed: 5 of 5 pages"),
        "{}",
        stderr(&merged)
    );
    assert_eq!(merged.status.code(), single.status.code());
    assert_eq!(
        comparable(json_lines(&merged), "three/", "one/"),
        comparable(json_lines(&single), "three/", "one/")
    );
    // The shards together printed every grid once.
    let mut from_shards = comparable(json_lines(&shards), "three/", "one/");
    let mut all = comparable(json_lines(&single), "three/", "one/");
    from_shards.sort();
    all.sort();
    assert_eq!(from_shards, all);
    for name in ["book.answers.pdf", "book.solved.pdf"] {
        let a = std::fs::read(dir.join("one").join(name)).unwrap();
        let b = std::fs::read(dir.join("three").join(name)).unwrap();
        assert!(a == b, "{name} differs");
    }
}

/// Copies of the fixture photo `image18.jpg` named `p0.jpg`, `p1.jpg`, ...
fn photos(dir: &Path, n: usize) -> Vec<String> {
    (0..n)
        .map(|i| {
            let name = format!("p{i}.jpg");
            std::fs::copy(fixture("image18.jpg"), dir.join(&name)).unwrap();
            name
        })
        .collect()
}

fn args<'a>(head: &[&'a str], names: &'a [String]) -> Vec<&'a str> {
    let mut all = head.to_vec();
    all.extend(names.iter().map(String::as_str));
    all
}

#[test]
fn an_image_whose_record_was_lost_is_adopted_on_a_rerun() {
    let dir = scratch("cli_outputs-orphan");
    let names = photos(&dir, 3);
    let run = || run_in(&args(&["--out-dir", "o"], &names), &dir);
    assert_eq!(run().status.code(), Some(0));
    // The record of p1's answer is lost (a full disk refused it, or a kill
    // came between the image and its record).
    let records = dir.join("o/.sudoku-snap");
    let lost = std::fs::read_dir(&records)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().contains("p1."))
        .expect("p1's record");
    std::fs::remove_file(lost).unwrap();
    let again = run();
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    assert!(
        stderr(&again).contains("resumed: 2 of 3"),
        "{}",
        stderr(&again)
    );
    // Adopted, and recorded again: the next run resumes all three.
    assert!(stderr(&run()).contains("resumed: 3 of 3"));
}

#[test]
fn resume_redoes_pages_whose_images_are_gone_or_cut_short() {
    let dir = scratch("cli_outputs-verify");
    let names = photos(&dir, 3);
    let run = || run_in(&args(&["--out-dir", "o"], &names), &dir);
    assert_eq!(run().status.code(), Some(0));
    let whole = std::fs::read(dir.join("o/p2.solved.jpg")).unwrap();
    std::fs::remove_file(dir.join("o/p0.solved.jpg")).unwrap();
    std::fs::write(dir.join("o/p2.solved.jpg"), &whole[..whole.len() / 2]).unwrap();
    let again = run();
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    assert!(
        stderr(&again).contains("resumed: 1 of 3"),
        "{}",
        stderr(&again)
    );
    for name in ["p0.solved.jpg", "p2.solved.jpg"] {
        let bytes = std::fs::read(dir.join("o").join(name)).unwrap();
        assert_eq!(bytes, whole, "{name} written again whole");
    }
}

#[test]
fn the_answer_key_is_never_shrunk_by_a_partial_run() {
    let dir = scratch("cli_outputs-key");
    generate(&dir, 12, 7);
    let all = run_in(&["--out-dir", "pk", "book.pdf"], &dir);
    assert_eq!(all.status.code(), Some(0), "{}", stderr(&all));
    let key = dir.join("pk/book.answers.pdf");
    let full = std::fs::read(&key).unwrap();
    // Page 2 again: its record is there, and the key is made from the
    // records of every page: unchanged.
    let page2 = run_in(&["--out-dir", "pk", "--pages", "2", "book.pdf"], &dir);
    assert_eq!(page2.status.code(), Some(0), "{}", stderr(&page2));
    assert_eq!(std::fs::read(&key).unwrap(), full);
    // Under other options the records do not count: the run has page 2
    // alone, and the key of every page is kept.
    let other = run_in(
        &[
            "--out-dir",
            "pk",
            "--pages",
            "2",
            "--dpi",
            "200",
            "book.pdf",
        ],
        &dir,
    );
    assert_eq!(std::fs::read(&key).unwrap(), full);
    assert!(stderr(&other).contains("kept"), "{}", stderr(&other));
    // --force replaces it.
    let forced = run_in(
        &[
            "--out-dir",
            "pk",
            "--pages",
            "2",
            "--dpi",
            "200",
            "--force",
            "book.pdf",
        ],
        &dir,
    );
    assert_eq!(forced.status.code(), Some(0), "{}", stderr(&forced));
    assert!(std::fs::read(&key).unwrap().len() < full.len());
}

#[test]
fn a_closed_output_still_finishes_every_file() {
    let dir = scratch("cli_outputs-pipe");
    generate(&dir, 60, 7);
    let mut child = Command::new(bin_path())
        .args(["--json", "--out-dir", "ep", "--jobs", "1", "book.pdf"])
        .current_dir(&dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Read one line, then close the pipe, as `| head -1` does.
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert!(first.starts_with('{'), "{first}");
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    for name in ["book.answers.pdf", "book.solved.pdf"] {
        assert!(dir.join("ep").join(name).is_file(), "{name}");
    }
    let again = run_in(&["--out-dir", "ep", "book.pdf"], &dir);
    assert!(
        stderr(&again).contains("resumed: 15 of 15"),
        "every page done"
    );
}

#[test]
fn temporary_files_left_by_a_kill_are_swept_and_others_kept() {
    let dir = scratch("cli_outputs-sweep");
    let names = photos(&dir, 1);
    let out_dir = dir.join("o");
    std::fs::create_dir_all(out_dir.join(".sudoku-snap")).unwrap();
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(7200);
    let left = [
        out_dir.join(".p0.solved.jpg.a1B2c3.tmp"),
        out_dir.join(".sudoku-snap/.tmpZ9y8X7"),
        out_dir.join(".p9.solved.jpg.a1B2c3.p4999999.tmp"),
    ];
    let kept = [
        out_dir.join("notes.tmp"),
        out_dir.join(".draft.txt.a1B2c3.tmp"),
    ];
    for path in left.iter().chain(&kept) {
        std::fs::write(path, b"x").unwrap();
        std::fs::File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_modified(hour_ago)
            .unwrap();
    }
    let out = run_in(&args(&["--out-dir", "o"], &names), &dir);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    for path in &left {
        assert!(!path.exists(), "{} swept", path.display());
    }
    for path in &kept {
        assert!(path.exists(), "{} kept", path.display());
    }
}

#[cfg(unix)]
#[test]
fn debug_images_never_go_through_links_or_out_of_their_folder() {
    let dir = scratch("cli_outputs-debug");
    std::fs::copy(fixture("image18.jpg"), dir.join("photo.jpg")).unwrap();
    let victim = dir.join("victim.png");
    std::fs::write(&victim, b"keep").unwrap();
    std::fs::create_dir_all(dir.join("dbg/photo")).unwrap();
    std::os::unix::fs::symlink(&victim, dir.join("dbg/photo/threshold.png")).unwrap();
    let out = run_in(&["--no-image", "--debug-dir", "dbg", "photo.jpg"], &dir);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(std::fs::read(&victim).unwrap(), b"keep");
    // A folder planted as a link to elsewhere is not written through.
    let elsewhere = dir.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::copy(fixture("image18.jpg"), dir.join("other.jpg")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, dir.join("dbg/other")).unwrap();
    run_in(&["--no-image", "--debug-dir", "dbg", "other.jpg"], &dir);
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
    // A photo whose stem is `..` writes inside the debug folder.
    let inner = dir.join("inner");
    std::fs::create_dir_all(&inner).unwrap();
    std::fs::copy(fixture("image18.jpg"), inner.join("...jpg")).unwrap();
    run_in(&["--no-image", "--debug-dir", "dbg", "...jpg"], &inner);
    let above: Vec<PathBuf> = std::fs::read_dir(&inner)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "png"))
        .collect();
    assert!(above.is_empty(), "{above:?}");
    assert!(inner.join("dbg").read_dir().unwrap().count() > 0);
}

#[test]
fn a_batch_prints_a_summary_quiet_prints_only_that_verbose_every_grid() {
    let dir = scratch("cli_outputs-terminal");
    let names = photos(&dir, 2);
    let default = run_in(&args(&["--no-image"], &names), &dir);
    let text = stdout(&default);
    assert!(
        text.starts_with("2 inputs: 2 grids found, 2 solved"),
        "{text}"
    );
    assert!(!text.contains("p0.jpg: solved"), "{text}");
    let verbose = run_in(&args(&["--no-image", "-v"], &names), &dir);
    assert!(stdout(&verbose).contains("p0.jpg: solved"));
    assert!(stdout(&verbose).contains("2 inputs: 2 grids found"));
    std::fs::write(dir.join("broken.jpg"), b"not a photo").unwrap();
    let mut with_broken = names.clone();
    with_broken.push("broken.jpg".into());
    let quiet = run_in(&args(&["--no-image", "-q"], &with_broken), &dir);
    assert_eq!(quiet.status.code(), Some(2));
    assert_eq!(stderr(&quiet), "", "quiet: nothing but the summary");
    let summary = stdout(&quiet);
    assert!(
        summary.contains("needs a look (1):\n  broken.jpg: "),
        "{summary}"
    );
}

#[test]
fn messages_name_the_input_and_the_reason() {
    let dir = scratch("cli_outputs-messages");
    std::fs::create_dir_all(dir.join("empty")).unwrap();
    let out = run_in(&["empty"], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no photos or PDFs in empty"),
        "{}",
        stderr(&out)
    );
    let names = photos(&dir, 1);
    let out = run_in(&args(&["--pages", "abc"], &names), &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--pages abc"), "{}", stderr(&out));
    let out = run_in(&args(&["--pages", "2"], &names), &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no PDF was given"),
        "{}",
        stderr(&out)
    );
    let start = std::time::Instant::now();
    let out = run_in(
        &["generate", "--count", "3000", "--pdf", "no/such/book.pdf"],
        &dir,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no folder"), "{}", stderr(&out));
    assert!(stdout(&out).is_empty(), "refused before generating");
    assert!(start.elapsed() < std::time::Duration::from_secs(10));
}
