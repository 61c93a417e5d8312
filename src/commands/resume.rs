//! Resuming an interrupted batch: with `--out-dir`, every finished page
//! (a photo, or one PDF page) leaves a small record of its results in
//! `<out-dir>/.sudoku-snap/`. Running the same command again on the same
//! folder replays the recorded results of those pages instead of reading
//! them again, so an interrupted book ends as if it had never stopped.
//!
//! A record is used only when it was made from the same input (path, size,
//! modification time), the same page and options that change results
//! (`--dpi`, `--check`, `--set`, `--model`) and the same version of this
//! program; otherwise the page is processed again. `--force` ignores
//! records. A record is written after the page's answer image is in place,
//! so a page interrupted half-way has no record and is done again.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The folder inside `--out-dir` that holds the records; hidden, so that it
/// does not clutter a listing of the answer images.
const RECORD_DIR: &str = ".sudoku-snap";

/// What a record must match to be reused.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fingerprint {
    /// This program's version: another version may read differently.
    pub version: String,
    /// The input, as an absolute path.
    pub input: PathBuf,
    /// The input's size in bytes.
    pub size: u64,
    /// The input's modification time, nanoseconds since the epoch.
    pub modified_ns: u128,
    /// The PDF page, `None` for a photo.
    pub page: Option<usize>,
    /// The options that change results, as text: `--dpi`, `--check`,
    /// `--set`, `--model` (with that file's own size and time).
    pub options: Vec<String>,
}

impl Fingerprint {
    /// The fingerprint of `input` (page `page`) under `options`; `None`
    /// when the input cannot be examined (it will fail when read, and is
    /// then not recorded).
    pub fn of(input: &Path, page: Option<usize>, options: Vec<String>) -> Option<Fingerprint> {
        let (size, modified_ns) = file_stamp(input)?;
        Some(Fingerprint {
            version: env!("CARGO_PKG_VERSION").to_string(),
            input: std::path::absolute(input).ok()?,
            size,
            modified_ns,
            page,
            options,
        })
    }
}

/// A file's size and modification time (ns since the epoch).
pub fn file_stamp(path: &Path) -> Option<(u64, u128)> {
    let meta = std::fs::metadata(path).ok()?;
    let modified = meta
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    Some((meta.len(), modified.as_nanos()))
}

/// A stored page result: the fingerprint it was made under, and the
/// results themselves (`T`, the batch's outcome type).
#[derive(Debug, Serialize, Deserialize)]
struct Record<T> {
    fingerprint: Fingerprint,
    outcome: T,
}

/// The records of one output folder.
#[derive(Debug, Clone)]
pub struct Records {
    dir: PathBuf,
}

impl Records {
    /// The records kept in `out_dir`.
    pub fn new(out_dir: &Path) -> Records {
        Records {
            dir: out_dir.join(RECORD_DIR),
        }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(format!("{name}.json"))
    }

    /// The outcome recorded as `name`, if there is one made under exactly
    /// `fingerprint`. A damaged or outdated record counts as none.
    pub fn load<T: for<'de> Deserialize<'de>>(
        &self,
        name: &str,
        fingerprint: &Fingerprint,
    ) -> Option<T> {
        let bytes = std::fs::read(self.path(name)).ok()?;
        let record: Record<T> = serde_json::from_slice(&bytes).ok()?;
        (record.fingerprint == *fingerprint).then_some(record.outcome)
    }

    /// Records `outcome` as `name` (atomically, replacing an older record).
    /// Failing to record costs only the resume of this page, so the error is
    /// returned for the caller to mention, never to stop the batch.
    pub fn save<T: Serialize>(
        &self,
        name: &str,
        fingerprint: &Fingerprint,
        outcome: &T,
    ) -> Result<(), String> {
        std::fs::create_dir_all(&self.dir)
            .map_err(|e| format!("cannot create {}: {e}", self.dir.display()))?;
        let record = Record {
            fingerprint: fingerprint.clone(),
            outcome,
        };
        let bytes = serde_json::to_vec(&record).map_err(|e| e.to_string())?;
        // Written even after Ctrl-C (unlike answer images): the page is done
        // and its image in place, and without its record a resume would
        // meet that image and refuse to overwrite it.
        let path = self.path(name);
        let mut file = tempfile::NamedTempFile::new_in(&self.dir)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        file.write_all(&bytes)
            .and_then(|()| file.as_file().sync_all())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        file.persist(&path)
            .map(|_| ())
            .map_err(|e| format!("cannot write {}: {}", path.display(), e.error))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_is_used_only_under_its_fingerprint() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("photo.jpg");
        std::fs::write(&input, b"bytes").unwrap();
        let records = Records::new(dir.path());
        let print = Fingerprint::of(&input, None, vec!["--check".into()]).unwrap();
        assert_eq!(records.load::<Vec<String>>("photo", &print), None);
        records
            .save("photo", &print, &vec!["result".to_string()])
            .unwrap();
        assert_eq!(
            records.load::<Vec<String>>("photo", &print),
            Some(vec!["result".to_string()])
        );
        let other_options = Fingerprint::of(&input, None, vec![]).unwrap();
        assert_eq!(records.load::<Vec<String>>("photo", &other_options), None);
        // The input changed: its size differs, the record is stale.
        std::fs::write(&input, b"other bytes").unwrap();
        let changed = Fingerprint::of(&input, None, vec!["--check".into()]).unwrap();
        assert_eq!(records.load::<Vec<String>>("photo", &changed), None);
        // A damaged record is no record.
        std::fs::write(records.path("photo"), b"{not json").unwrap();
        assert_eq!(records.load::<Vec<String>>("photo", &print), None);
    }
}
