//! Renders every page (or `--pages`) of a PDF one at a time, as the batch
//! does, and prints the time per page; with an output folder, also writes
//! each page as a gray PNG. Measures render speed and, under
//! `/usr/bin/time -v`, peak memory:
//!
//! ```text
//! cargo build --release -p snap-vision --example render_pdf
//! /usr/bin/time -v taskset -c 0 target/release/examples/render_pdf book.pdf [DPI] [PAGES] [OUT_DIR]
//! ```

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use snap_vision::{PageRange, PdfDoc, DEFAULT_DPI};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(path) = args.first() else {
        eprintln!("usage: render_pdf BOOK.pdf [DPI] [PAGES] [OUT_DIR]");
        return ExitCode::from(2);
    };
    let dpi = match args.get(1).map(|s| s.parse::<f32>()) {
        None => DEFAULT_DPI,
        Some(Ok(d)) => d,
        Some(Err(e)) => {
            eprintln!("bad DPI: {e}");
            return ExitCode::from(2);
        }
    };
    let start = Instant::now();
    let doc = match PdfDoc::open(Path::new(path)) {
        Ok(doc) => doc,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let open_ms = start.elapsed().as_secs_f64() * 1000.0;
    let pages = match args.get(2) {
        Some(text) => PageRange::parse(text, doc.page_count()),
        None => Ok(PageRange::all(doc.page_count())),
    };
    let pages = match pages {
        Ok(p) => p,
        Err(e) => {
            eprintln!("--pages: {e}");
            return ExitCode::from(2);
        }
    };
    let out = args.get(3).map(Path::new);
    let mut times = Vec::with_capacity(pages.len());
    let mut failed = 0;
    for page in pages.pages() {
        let t = Instant::now();
        match doc.render_page(page, dpi) {
            Ok(rendered) => {
                times.push(t.elapsed().as_secs_f64() * 1000.0);
                if let Some(dir) = out {
                    let file = dir.join(format!("p{page:03}.png"));
                    if let Err(e) = rendered.image.gray.save(&file) {
                        eprintln!("{}: {e}", file.display());
                    }
                }
            }
            Err(e) => {
                eprintln!("{e}");
                failed += 1;
            }
        }
    }
    times.sort_by(f64::total_cmp);
    let at = |q: f64| {
        times
            .get(((times.len() as f64 - 1.0) * q).round() as usize)
            .copied()
    };
    println!(
        "opened in {open_ms:.1} ms; {} pages rendered at {dpi} dpi, {failed} failed; per page: median {:.1} ms, p95 {:.1} ms, max {:.1} ms; total {:.0} ms",
        times.len(),
        at(0.5).unwrap_or(0.0),
        at(0.95).unwrap_or(0.0),
        at(1.0).unwrap_or(0.0),
        times.iter().sum::<f64>()
    );
    if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
