//! Every fuzz target's committed inputs, replayed through the target's own
//! check on stable: `fuzz/corpus/<target>/` (seeds, and inputs that once
//! crashed it) and `fuzz/regressions/<target>/`. The long address-sanitised
//! runs (`scripts/fuzz.sh`) need nightly and an hour; this catches a
//! regression on any input they have kept, on every `cargo test`.

use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};

#[path = "../fuzz/checks/image_read.rs"]
mod image_read;
#[path = "../fuzz/checks/pdf_read.rs"]
mod pdf_read;
#[path = "../fuzz/checks/set_override.rs"]
mod set_override;
#[path = "../fuzz/checks/sicily.rs"]
mod sicily;
#[path = "../fuzz/checks/text_reader.rs"]
mod text_reader;

/// Inputs kept for a fix still to come, each with its reason in the
/// README beside it: replayed only by the ignored test below, since they
/// would stall the suite. An entry that no longer exists fails
/// `pending_inputs_exist`, so the list cannot go stale.
const PENDING: &[&str] = &[];

/// The fuzz folder of this checkout.
fn fuzz_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz")
}

/// The files of `dir` in name order, without its README; none when absent.
fn inputs(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.expect("a readable folder entry").path())
        .filter(|p| p.is_file() && p.file_name().is_some_and(|n| n != "README.md"))
        .collect();
    files.sort();
    files
}

/// A path relative to the fuzz folder, as [`PENDING`] names it.
fn relative(path: &Path) -> String {
    let rel = path.strip_prefix(fuzz_dir()).unwrap_or(path);
    rel.to_string_lossy().replace('\\', "/")
}

/// Runs `check` on every input of `files`, then fails naming each input
/// whose check panicked (the panic message is printed above it).
fn replay_files(files: &[PathBuf], check: fn(&[u8])) {
    let failed: Vec<String> = files
        .iter()
        .filter(|path| {
            let bytes = std::fs::read(path).expect("a readable corpus file");
            panic::catch_unwind(AssertUnwindSafe(|| check(&bytes))).is_err()
        })
        .map(|path| relative(path))
        .collect();
    assert!(failed.is_empty(), "failed on {failed:?}");
}

/// Replays the corpus and regressions of `target`, less [`PENDING`].
fn replay(target: &str, check: fn(&[u8])) {
    let fuzz = fuzz_dir();
    let corpus = inputs(&fuzz.join("corpus").join(target));
    assert!(!corpus.is_empty(), "fuzz/corpus/{target} holds no input");
    let mut files = corpus;
    files.extend(inputs(&fuzz.join("regressions").join(target)));
    files.retain(|path| !PENDING.contains(&relative(path).as_str()));
    replay_files(&files, check);
}

#[test]
fn text_reader_corpus() {
    replay("text_reader", text_reader::check);
}

#[test]
fn sicily_corpus() {
    replay("sicily", sicily::check);
}

#[test]
fn set_override_corpus() {
    replay("set_override", set_override::check);
}

#[test]
fn image_read_corpus() {
    replay("image_read", image_read::check);
}

#[test]
fn pdf_read_corpus() {
    replay("pdf_read", pdf_read::check);
}

#[test]
#[ignore = "inputs kept for a fix still to come: they stall the check"]
fn pending_regressions() {
    let fuzz = fuzz_dir();
    for name in PENDING {
        let target = name.split('/').nth(1).expect("regressions/<target>/<file>");
        let check = match target {
            "pdf_read" => pdf_read::check,
            "image_read" => image_read::check,
            "text_reader" => text_reader::check,
            "sicily" => sicily::check,
            "set_override" => set_override::check,
            _ => panic!("{name}: no fuzz target {target}"),
        };
        replay_files(&[fuzz.join(name)], check);
    }
}

#[test]
fn pending_inputs_exist() {
    for name in PENDING {
        assert!(
            fuzz_dir().join(name).is_file(),
            "{name} is listed as pending but absent"
        );
    }
}
