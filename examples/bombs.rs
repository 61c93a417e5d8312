//! Writes the hostile inputs of the adversarial run at full size into a
//! folder, for `scripts/bounds.sh` to measure time and memory on:
//!
//! ```text
//! cargo run --release --example bombs -- OUT_DIR [BOOK.pdf]
//! ```
//!
//! With `BOOK.pdf` (a book made by `sudoku-snap generate --pdf`), a copy of
//! it padded to 300 MB is written too, and linked under six names. The
//! tests make the same files at smaller sizes (`tests/bombs/mod.rs`).
//!
//! `bombs --seeds DIR` writes instead the PDF fuzz target's bomb seeds
//! (`fuzz/corpus/pdf_read/seed-bomb-*.pdf`): the same bombs, each a few
//! kilobytes (streams compressed twice).

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[path = "../tests/bombs/mod.rs"]
mod bombs;

/// The padded books' size, as in the adversarial run.
const PADDED_BYTES: u64 = 300_000_000;

/// How many names the padded book has (the run read six such books at
/// once; what a book costs in memory is its bytes, whatever its inode).
const PADDED_COPIES: usize = 6;

fn main() -> ExitCode {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let Some(dir) = args.first() else {
        eprintln!("usage: bombs OUT_DIR [BOOK.pdf] | bombs --seeds DIR");
        return ExitCode::from(2);
    };
    let written = match (dir.to_str(), args.get(1)) {
        (Some("--seeds"), Some(seeds)) => write_seeds(seeds),
        _ => write_all(dir, args.get(1).map(PathBuf::as_path)),
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("bombs: {}: {e}", dir.display());
            ExitCode::from(2)
        }
    }
}

/// The fuzz seeds: each bomb the check refuses, small. (The bombs only
/// a render's process limits stop are not seeds: they would stall the
/// fuzzer, which renders in its own process.)
fn write_seeds(dir: &Path) -> std::io::Result<()> {
    let seeds: [(&str, Vec<u8>); 5] = [
        ("seed-bomb-jpeg-65000.pdf", bombs::jpeg_image(65000, 65000)),
        ("seed-bomb-jpeg-20000.pdf", bombs::jpeg_image(20000, 20000)),
        (
            "seed-bomb-content-1g.pdf",
            bombs::flate_twice_content(1 << 30),
        ),
        (
            "seed-bomb-image-30000.pdf",
            bombs::flate_twice_image(30000, 30000),
        ),
        ("seed-bomb-forms-4-pages.pdf", bombs::form_fanout(4, 7, 10)),
    ];
    for (name, bytes) in seeds {
        std::fs::write(dir.join(name), bytes)?;
    }
    Ok(())
}

fn write_all(dir: &Path, book: Option<&Path>) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let files: [(&str, Vec<u8>); 10] = [
        ("jpeg-65000.pdf", bombs::jpeg_image(65000, 65000)),
        ("jpeg-20000.pdf", bombs::jpeg_image(20000, 20000)),
        ("content-1g.pdf", bombs::flate_content(1 << 30)),
        ("image-30000.pdf", bombs::flate_image(30000, 30000)),
        ("fanout-1.pdf", bombs::form_fanout(1, 7, 10)),
        ("fanout-4.pdf", bombs::form_fanout(4, 7, 10)),
        ("fanout-900.pdf", bombs::form_fanout(1, 2, 900)),
        ("busy-100.pdf", bombs::busy_forms(3, 100)),
        ("lzw-700m.pdf", bombs::lzw_content(700 << 20)),
        (
            "clash-4096.txt",
            format!("{}\n", "A".repeat(625)).repeat(4096).into_bytes(),
        ),
    ];
    for (name, bytes) in files {
        std::fs::write(dir.join(name), bytes)?;
    }
    if let Some(book) = book {
        let pdf = std::fs::read(book)?;
        let first = dir.join("padded-1.pdf");
        let mut out = BufWriter::new(std::fs::File::create(&first)?);
        bombs::write_padded(&pdf, PADDED_BYTES, &mut out)?;
        out.flush()?;
        for copy in 2..=PADDED_COPIES {
            let name = dir.join(format!("padded-{copy}.pdf"));
            let _ = std::fs::remove_file(&name);
            std::fs::hard_link(&first, name)?;
        }
    }
    Ok(())
}
