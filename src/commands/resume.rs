//! Resuming an interrupted batch: with `--out-dir`, every finished page
//! (a photo, or one PDF page) leaves a small record of its results in
//! `<out-dir>/.sudoku-snap/`. Running the same command again on the same
//! folder replays the recorded results of those pages instead of reading
//! them again, so an interrupted book ends as if it had never stopped. The
//! records of every page of a book are also what its answer key and solved
//! PDF are made from, whichever run (or `--shard`) did each page.
//!
//! A record is used only when it was made from the same input (its name,
//! size and a hash of its bytes: records stay good when the folder is moved
//! or the input copied to another machine), the same page and options that
//! change results (`--dpi`, `--check`, `--set`, `--model` by its bytes) and
//! the same version of this program; otherwise the page is processed again.
//! `--force` ignores records.
//!
//! A page's answer image is named in its record with its size and hash.
//! The record is written (and flushed) before the image is renamed into
//! place, so an image can never be in place without its record; a record
//! whose image is missing, cut short or changed is not used: the page is
//! done again and its image written again. (The other order left images
//! without records after a full disk or a kill, and every rerun refused to
//! overwrite them.)

use std::hash::Hasher;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use snap_solver::files::{self, FileLimit};

use crate::output;

/// The folder inside `--out-dir` that holds the records; hidden, so that it
/// does not clutter a listing of the answer images.
pub const RECORD_DIR: &str = ".sudoku-snap";

/// A file's size and a 128-bit hash of its bytes: enough to tell a file
/// from any other a person could have put in its place, or from itself cut
/// short. (SipHash with fixed keys: fast, stable across versions and
/// machines; no adversary forges a collision here, and one that could
/// would only make a page be done again.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamp {
    /// Bytes.
    pub size: u64,
    /// The hash.
    pub hash: Hash,
}

/// A 128-bit hash as two 64-bit halves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hash(pub u64, pub u64);

impl Stamp {
    /// The stamp of `bytes`.
    pub fn of_bytes(bytes: &[u8]) -> Stamp {
        let mut hasher = siphasher::sip128::SipHasher13::new();
        hasher.write(bytes);
        let h = siphasher::sip128::Hasher128::finish128(&hasher);
        Stamp {
            size: bytes.len() as u64,
            hash: Hash(h.h1, h.h2),
        }
    }

    /// The stamp of the regular file at `path`, read in blocks; `None` when
    /// it cannot be read (missing, not a regular file).
    pub fn of_file(path: &Path) -> Option<Stamp> {
        let file = std::fs::File::open(path).ok()?;
        if !file.metadata().ok()?.is_file() {
            return None;
        }
        let mut reader = std::io::BufReader::with_capacity(1 << 16, file);
        let mut hasher = siphasher::sip128::SipHasher13::new();
        let mut size = 0u64;
        let mut block = vec![0u8; 1 << 16];
        loop {
            let n = reader.read(&mut block).ok()?;
            if n == 0 {
                break;
            }
            hasher.write(&block[..n]);
            size += n as u64;
        }
        let h = siphasher::sip128::Hasher128::finish128(&hasher);
        Some(Stamp {
            size,
            hash: Hash(h.h1, h.h2),
        })
    }
}

/// What a record is read as (see [`snap_solver::files`]): a regular file (a
/// FIFO planted in the folder must not block the batch) of at most 16 MiB
/// (a page's record is its JSON lines and key, kilobytes).
const RECORD_FILE: FileLimit = FileLimit {
    noun: "resume record",
    plural: "resume records",
    max_bytes: 16 << 20,
};

/// What a record must match to be reused.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fingerprint {
    /// This program's version: another version may read differently.
    pub version: String,
    /// The input's file name (not its folder: records stay good when a
    /// book is read from another place or machine).
    pub input: String,
    /// The input's bytes.
    pub stamp: Stamp,
    /// The PDF page, `None` for a photo.
    pub page: Option<usize>,
    /// The options that change results, as text: `--dpi`, `--check`,
    /// `--set`, `--model` (with that file's own stamp).
    pub options: Vec<String>,
}

impl Fingerprint {
    /// The fingerprint of page `page` of the input named `input` whose
    /// bytes are `stamp`, under `options`.
    pub fn new(input: &Path, stamp: Stamp, page: Option<usize>, options: &[String]) -> Fingerprint {
        Fingerprint {
            version: env!("CARGO_PKG_VERSION").to_string(),
            input: input.file_name().map_or_else(
                || input.display().to_string(),
                |n| n.to_string_lossy().into_owned(),
            ),
            stamp,
            page,
            options: options.to_vec(),
        }
    }
}

/// The answer image a record vouches for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ImageStamp {
    /// Its file name in the output folder.
    pub name: String,
    /// Its bytes.
    pub stamp: Stamp,
}

/// What a record says of its page's answer image.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum RecordedImage {
    /// None was asked for (`--no-image`, a PDF page without
    /// `--page-images`).
    NotAsked,
    /// One was asked for, and there was nothing to draw (no answer).
    Nothing,
    /// This file was written.
    Written(ImageStamp),
}

/// A stored page result: the fingerprint it was made under, the results
/// themselves (`T`, the batch's outcome type), and its answer image.
#[derive(Debug, Serialize, Deserialize)]
struct Record<T> {
    fingerprint: Fingerprint,
    outcome: T,
    image: RecordedImage,
}

/// What [`Records::load`] found.
#[derive(Debug)]
pub enum Loaded<T> {
    /// A good record: the page is done.
    Done(T),
    /// A record of this page whose answer image is missing, cut short or
    /// changed: the page must be done again, and the file at the image's
    /// name (ours, by the record) may be replaced.
    ImageLost,
    /// No usable record.
    None,
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

    /// True when a record named `name` is kept (sound or not): only then
    /// is there one to [`Records::load`].
    pub fn has(&self, name: &str) -> bool {
        self.path(name).is_file()
    }

    /// The outcome recorded as `name` under exactly `fingerprint`. When
    /// `image` names the answer image this run wants for the page, the
    /// record must vouch for that file and the file must still be what it
    /// vouched for. A damaged or outdated record counts as none.
    pub fn load<T: for<'de> Deserialize<'de>>(
        &self,
        name: &str,
        fingerprint: &Fingerprint,
        image: Option<&Path>,
    ) -> Loaded<T> {
        let Some(record) = self.read::<Record<T>>(name) else {
            return Loaded::None;
        };
        if record.fingerprint != *fingerprint {
            return Loaded::None;
        }
        let Some(wanted) = image else {
            return Loaded::Done(record.outcome);
        };
        let file_name = wanted.file_name().map(|n| n.to_string_lossy().into_owned());
        match record.image {
            RecordedImage::Nothing => Loaded::Done(record.outcome),
            RecordedImage::Written(stamp) if Some(&stamp.name) == file_name.as_ref() => {
                if Stamp::of_file(wanted) == Some(stamp.stamp) {
                    Loaded::Done(record.outcome)
                } else {
                    Loaded::ImageLost
                }
            }
            // Recorded without this image (`--no-image`, or a PDF page
            // before `--page-images`): the page is done again for it.
            _ => Loaded::None,
        }
    }

    /// A record read whole, `None` when missing or damaged.
    fn read<T: for<'de> Deserialize<'de>>(&self, name: &str) -> Option<T> {
        let bytes = files::read(&self.path(name), &RECORD_FILE).ok()?;
        serde_json::from_slice(&bytes).ok()
    }

    /// Records `outcome` as `name` (atomically, replacing an older record,
    /// flushed with its folder), with what became of its answer `image`.
    /// Failing to record costs only the resume of this page, so the error
    /// is returned for the caller to act on, never to stop the batch.
    pub fn save<T: Serialize>(
        &self,
        name: &str,
        fingerprint: &Fingerprint,
        outcome: &T,
        image: RecordedImage,
    ) -> Result<(), String> {
        let record = Record {
            fingerprint: fingerprint.clone(),
            outcome,
            image,
        };
        self.write(name, &record)
    }

    /// Removes the record `name` (best effort: a record left behind is
    /// checked against its image before any use).
    pub fn remove(&self, name: &str) {
        let _ = std::fs::remove_file(self.path(name));
    }

    /// The record of a book output (answer key, solved PDF) written as
    /// `name`, if any.
    pub fn load_book(&self, name: &str) -> Option<BookRecord> {
        self.read(name)
    }

    /// Records the book output `name`.
    pub fn save_book(&self, name: &str, record: &BookRecord) -> Result<(), String> {
        self.write(name, record)
    }

    fn write<T: Serialize>(&self, name: &str, value: &T) -> Result<(), String> {
        std::fs::create_dir_all(&self.dir)
            .map_err(|e| format!("cannot create {}: {e}", self.dir.display()))?;
        let bytes = serde_json::to_vec(value).map_err(|e| e.to_string())?;
        // Written even after Ctrl-C (unlike answer images): the page is done,
        // and its record is what lets a resume skip it.
        let path = self.path(name);
        let file_name = format!("{name}.json");
        let cannot = |e: &dyn std::fmt::Display| format!("cannot write {}: {e}", path.display());
        let mut file = output::temp_file(&self.dir, &file_name).map_err(|e| cannot(&e))?;
        file.write_all(&bytes)
            .and_then(|()| file.as_file().sync_all())
            .map_err(|e| cannot(&e))?;
        file.persist(&path).map_err(|e| cannot(&e.error))?;
        output::sync_dir(&self.dir).map_err(|e| cannot(&e))
    }
}

/// What a book output (answer key, solved PDF) was made from when this
/// program last wrote it: which pages of the book it covers, and its bytes,
/// so that a later run knows the file is still the one it wrote.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BookRecord {
    /// Pages of the book whose results it holds.
    pub pages: Vec<usize>,
    /// The file as written.
    pub stamp: Stamp,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn print(input: &Path, options: &[&str]) -> Fingerprint {
        let options: Vec<String> = options.iter().map(|s| s.to_string()).collect();
        Fingerprint::new(input, Stamp::of_file(input).unwrap(), None, &options)
    }

    #[test]
    fn a_record_is_used_only_under_its_fingerprint() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("photo.jpg");
        std::fs::write(&input, b"bytes").unwrap();
        let records = Records::new(dir.path());
        let done = |print: &Fingerprint| {
            matches!(
                records.load::<Vec<String>>("photo", print, None),
                Loaded::Done(v) if v == ["result"]
            )
        };
        let first = print(&input, &["--check"]);
        assert!(!done(&first));
        records
            .save(
                "photo",
                &first,
                &vec!["result".to_string()],
                RecordedImage::NotAsked,
            )
            .unwrap();
        assert!(done(&first));
        assert!(!done(&print(&input, &[])), "other options");
        // The same bytes elsewhere under the same name: still good.
        let moved = dir.path().join("moved");
        std::fs::create_dir(&moved).unwrap();
        std::fs::copy(&input, moved.join("photo.jpg")).unwrap();
        assert!(done(&print(&moved.join("photo.jpg"), &["--check"])));
        // The input changed, even keeping its size: the record is stale.
        std::fs::write(&input, b"BYTES").unwrap();
        assert!(!done(&print(&input, &["--check"])));
        // A damaged record is no record.
        std::fs::write(records.path("photo"), b"{not json").unwrap();
        assert!(!done(&first));
    }

    #[test]
    fn a_record_vouches_for_its_image_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("photo.jpg");
        std::fs::write(&input, b"bytes").unwrap();
        let image = dir.path().join("photo.solved.jpg");
        std::fs::write(&image, b"the answer").unwrap();
        let records = Records::new(dir.path());
        let fp = print(&input, &[]);
        let stamp = ImageStamp {
            name: "photo.solved.jpg".into(),
            stamp: Stamp::of_bytes(b"the answer"),
        };
        records
            .save("photo", &fp, &1u8, RecordedImage::Written(stamp))
            .unwrap();
        let load = || records.load::<u8>("photo", &fp, Some(&image));
        assert!(matches!(load(), Loaded::Done(1)));
        std::fs::write(&image, b"the answe").unwrap();
        assert!(matches!(load(), Loaded::ImageLost), "cut short");
        std::fs::remove_file(&image).unwrap();
        assert!(matches!(load(), Loaded::ImageLost), "missing");
        // Not wanting the image, the record is good as it is.
        assert!(matches!(
            records.load::<u8>("photo", &fp, None),
            Loaded::Done(1)
        ));
        // A record made without an image does not stand for one.
        records
            .save("photo", &fp, &1u8, RecordedImage::NotAsked)
            .unwrap();
        assert!(matches!(load(), Loaded::None));
        // One made when there was nothing to draw does.
        records
            .save("photo", &fp, &1u8, RecordedImage::Nothing)
            .unwrap();
        assert!(matches!(load(), Loaded::Done(1)));
    }

    #[test]
    fn stamps_of_bytes_and_files_agree() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big");
        let bytes: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(Stamp::of_file(&path), Some(Stamp::of_bytes(&bytes)));
        assert_ne!(Stamp::of_bytes(b"ab"), Stamp::of_bytes(b"ba"));
        assert_eq!(Stamp::of_file(dir.path()), None, "a folder");
    }
}
