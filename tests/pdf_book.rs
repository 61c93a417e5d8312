//! `generate --pdf` round trip: the book the tool prints is a book the tool
//! reads. Six puzzles are generated into a PDF, its first page is rendered
//! with the PDF reader and read with the photo pipeline, and the grids read
//! must be the puzzles generated, each in its place on the page.

use std::path::PathBuf;
use std::process::Command;

use snap_vision::{decide_grid, PdfDoc, Reader, Timings, DEFAULT_DPI, POINTS_PER_INCH};

/// Grids of the first page that must read exactly as generated: every
/// puzzle on the page.
const MUST_READ: usize = 6;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("sudoku-snap-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_generated_book_reads_back_as_generated() {
    let dir = scratch("book");
    let book = dir.join("book.pdf");
    let out = Command::new(env!("CARGO_BIN_EXE_sudoku-snap"))
        .args([
            "generate", "--count", "6", "--seed", "11", "--json", "--pdf",
        ])
        .arg(&book)
        .output()
        .expect("run sudoku-snap");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let puzzles: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            v["givens"].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(puzzles.len(), 6);

    let doc = PdfDoc::open(&book).unwrap();
    assert_eq!(doc.page_count(), 2, "one page of puzzles, one of answers");
    let (page_w, page_h) = doc.page_size_pt(1).unwrap();
    let page = doc.render_page(1, DEFAULT_DPI).unwrap();
    let to_pt = POINTS_PER_INCH / page.dpi;
    let reader = Reader::new(None, None).unwrap();
    let read = reader
        .read_decoded(page.image, Timings::default(), None)
        .expect("a grid on the first page");
    let mut right = 0;
    for grid in &read.grids {
        // The puzzle printed where this grid was found: two columns, three
        // rows, numbered in reading order.
        let corners = grid.quad().corners;
        let cx = corners.iter().map(|c| c.0).sum::<f32>() / 4.0 * to_pt;
        let cy = corners.iter().map(|c| c.1).sum::<f32>() / 4.0 * to_pt;
        let slot = (cy / (page_h / 3.0)).min(2.0) as usize * 2 + usize::from(cx > page_w / 2.0);
        let got = decide_grid(grid, &[]).read.to_line();
        assert_eq!(got, puzzles[slot], "puzzle {} read wrong", slot + 1);
        right += 1;
    }
    assert!(right >= MUST_READ, "{right} of {MUST_READ} grids read");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_existing_book_is_kept_without_force() {
    let dir = scratch("book-force");
    let book = dir.join("book.pdf");
    std::fs::write(&book, b"keep me").unwrap();
    let run = |force: bool| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_sudoku-snap"));
        cmd.args(["generate", "--count", "1", "--pdf"]).arg(&book);
        if force {
            cmd.arg("--force");
        }
        cmd.output().expect("run sudoku-snap")
    };
    let refused = run(false);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("exists"));
    assert_eq!(std::fs::read(&book).unwrap(), b"keep me");
    assert_eq!(run(true).status.code(), Some(0));
    assert!(std::fs::read(&book).unwrap().starts_with(b"%PDF"));
    let _ = std::fs::remove_dir_all(&dir);
}
