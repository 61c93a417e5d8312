//! Writing answer images safely: never over an input, never over something
//! that is not a regular file, never half-written, never two photos into
//! one file, and no temporary file left behind by Ctrl-C.
//!
//! How a file is written ([`write_atomic`]): the bytes go into a fresh
//! temporary file with a unique name in the target folder (`tempfile`, so
//! two workers never share one), are flushed to disk, and the file is then
//! renamed onto the target: without `--force` with a rename that fails if the
//! target exists (`persist_noclobber`), so a file that appeared meanwhile is
//! not replaced either. Every live temporary file is in a registry; Ctrl-C
//! ([`install_interrupt_handler`]) stops new work at once, and a second
//! Ctrl-C removes every registered temporary file before the process exits.
//! After the rename the folder itself is flushed, so that the new name
//! survives a power cut before anything that refers to it is written.
//!
//! A file already there with exactly the bytes to write is left as it is
//! and counts as written: it is this page's answer from an earlier run
//! whose record was lost (a full disk, a kill at the wrong moment), and a
//! rerun adopts it instead of refusing it.
//!
//! Temporary files are named `.<target>.<random>.p<pid>.tmp`. SIGKILL or a
//! power cut leaves them behind; [`sweep_stale_temps`] removes them on a
//! later run (see there for which ones, and why only those).

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use image::RgbImage;
use snap_answer::answer::{self, PartMarks};
use snap_jpeg::{Area, Orientation};
use snap_vision::Page;

/// JPEG quality of answer images written as JPEG: about what phone cameras
/// use, so an answer is close in size to the photo it was drawn on, and the
/// drawn digits keep clean edges.
pub const JPEG_QUALITY: u8 = 90;

/// Why an output file was not written.
#[derive(Debug)]
pub enum WriteError {
    /// The file exists and overwriting was not asked for.
    Exists(PathBuf),
    /// The path is one of the inputs.
    IsInput(PathBuf),
    /// The path is a FIFO, device, symbolic link or folder: never replaced,
    /// even with `--force`.
    NotRegular(PathBuf, &'static str),
    /// Ctrl-C came before the file was in place; its temporary file is gone.
    Interrupted(PathBuf),
    /// The file system refused (no such folder, no permission, disk full, ...).
    Io(PathBuf, std::io::Error),
}

impl std::fmt::Display for WriteError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WriteError::Exists(p) => {
                write!(f, "{} exists (use --force to overwrite it)", p.display())
            }
            WriteError::IsInput(p) => write!(
                f,
                "{} is an input file; refusing to overwrite it",
                p.display()
            ),
            WriteError::NotRegular(p, kind) => write!(
                f,
                "{} is {kind}, not a regular file; refusing to replace it (even with --force)",
                p.display()
            ),
            WriteError::Interrupted(p) => {
                write!(f, "interrupted before {} was written", p.display())
            }
            WriteError::Io(p, e) => write!(f, "cannot write {}: {e}", p.display()),
        }
    }
}

impl std::error::Error for WriteError {}

/// The encodings an answer image is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ImageKind {
    /// PNG, fast compression.
    Png,
    /// JPEG at [`JPEG_QUALITY`].
    Jpeg,
}

impl ImageKind {
    /// The encoding an output path asks for by its extension: `.jpg` or
    /// `.jpeg` for JPEG, `.png` for PNG (any case); anything else is an error
    /// naming the path, so that bytes never disagree with the name.
    pub fn for_output(path: &Path) -> Result<ImageKind, String> {
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        match ext.as_deref() {
            Some("png") => Ok(ImageKind::Png),
            Some("jpg" | "jpeg") => Ok(ImageKind::Jpeg),
            _ => Err(format!(
                "{}: answer images are PNG or JPEG; end the name in .png, .jpg or .jpeg",
                path.display()
            )),
        }
    }

    /// The default encoding for the answer to `photo`: JPEG for a JPEG
    /// photo (by its name, `.jpg` or `.jpeg`), so the answer is about the
    /// photo's size; PNG for everything else (lossless sources stay lossless).
    pub fn for_input(photo: &Path) -> ImageKind {
        match ImageKind::for_output(photo) {
            Ok(ImageKind::Jpeg) => ImageKind::Jpeg,
            _ => ImageKind::Png,
        }
    }

    /// The file name extension, without the dot.
    pub fn extension(self) -> &'static str {
        match self {
            ImageKind::Png => "png",
            ImageKind::Jpeg => "jpg",
        }
    }
}

/// Encodes the answer image in `kind`.
pub fn encode_image(image: &RgbImage, kind: ImageKind) -> std::io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    let result = match kind {
        ImageKind::Png => image.write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::Png,
        ),
        ImageKind::Jpeg => return encode_jpeg(image),
    };
    result.map_err(std::io::Error::other)?;
    Ok(bytes)
}

/// The answer to a JPEG photo made from the photo's own file: only the
/// blocks `marks` are drawn on are coded again, every other block is the
/// photo's as it was (see the `snap-jpeg` crate), so the answer costs a
/// fraction of decoding and encoding the whole photo and loses nothing
/// away from the drawing. `None` when the photo is not a JPEG that can be
/// changed in place (progressive, gray, ...): then the caller draws on the
/// decoded photo and encodes it whole.
///
/// The EXIF orientation tag is kept when the answer is to be seen turned
/// as it says ([`answer::viewed_turns`]), else set to the pixels as stored,
/// as [`answer::as_viewed`] turns an answer drawn on the whole image.
/// The page's timings get the drawing as `overlay` and the coding as
/// `encode`.
pub fn answer_in_place(page: &mut Page, marks: &[PartMarks]) -> Option<Vec<u8>> {
    let start = Instant::now();
    let photo = page.photo.in_place()?;
    if photo.dimensions() != page.photo.gray.dimensions() {
        return None;
    }
    let areas: Vec<Area> = answer::drawn_areas(page, marks)
        .into_iter()
        .map(|[x0, y0, x1, y1]| Area { x0, y0, x1, y1 })
        .collect();
    let drawn = photo
        .draw(&areas, |piece, origin| {
            answer::draw_piece(piece, origin, page, marks)
        })
        .ok()?;
    let orientation = match answer::viewed_turns(page) {
        0 => Orientation::AsStored,
        _ => Orientation::Keep,
    };
    let t = page.timings.lap("overlay", start);
    let answer = photo.answer(&drawn, orientation).ok();
    page.timings.lap("encode", t);
    answer
}

/// Frees `value` on a thread of its own rather than here: a photo's
/// buffers are tens of megabytes, given back to the system page by page (a
/// millisecond or more each), which a free core does while this one writes
/// the answer. Not on the pool: a pool thread may be waiting for the memory
/// this frees. When no thread can be started, it is freed here.
pub fn free_aside<T: Send + 'static>(value: T) {
    let _ = std::thread::Builder::new()
        .name("free".into())
        .spawn(move || drop(value));
}

/// Encodes a JPEG with `jpeg-encoder` (AVX2 when the CPU has it): on a
/// 12 MP answer several times faster than `image`'s encoder, which made
/// encoding the slowest stage of the whole job; a large image is encoded
/// in strips on the threads of the current pool (see [`crate::jpeg`]).
/// Chroma is subsampled 2x2 (4:2:0), as phone cameras save their photos;
/// the answer's digits and rings are many pixels wide, so their colour
/// edges survive it.
fn encode_jpeg(image: &RgbImage) -> std::io::Result<Vec<u8>> {
    crate::jpeg::encode(image, JPEG_QUALITY, rayon::current_num_threads())
}

/// Checks, before a batch starts, that no two inputs would write one output
/// file; the error names both inputs and the file. Paths are compared with
/// their folder resolved (`out/a.png` and `./out/a.png` are one file).
pub fn check_distinct_outputs(pairs: &[(PathBuf, PathBuf)]) -> Result<(), String> {
    let mut seen: HashMap<PathBuf, &Path> = HashMap::new();
    for (input, output) in pairs {
        if let Some(first) = seen.insert(resolved(output), input) {
            return Err(format!(
                "{} and {} would both write {}; give them different names, or run them separately",
                first.display(),
                input.display(),
                output.display()
            ));
        }
    }
    Ok(())
}

/// `path` with its folder made absolute and free of symbolic links (when
/// the folder exists), so that two spellings of one file compare equal.
fn resolved(path: &Path) -> PathBuf {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    match (dir.canonicalize(), path.file_name()) {
        (Ok(d), Some(name)) => d.join(name),
        _ => path.to_path_buf(),
    }
}

/// True when `a` and `b` name the same existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// An error when `path` exists and is not a regular file (checked on the
/// path itself: a symbolic link is refused, not followed).
fn check_regular(path: &Path) -> Result<(), WriteError> {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if !meta.file_type().is_file() => Err(WriteError::NotRegular(
            path.to_path_buf(),
            snap_solver::files::file_kind(&meta.file_type()),
        )),
        _ => Ok(()),
    }
}

/// Writes `bytes` to `path` atomically (see the module notes): a crash, a
/// full disk or Ctrl-C leaves either the old file or the new one, never a
/// torn file and never a temporary one. Refuses to replace any of `inputs`,
/// anything that is not a regular file, and an existing file unless `force`.
pub fn write_atomic(
    path: &Path,
    bytes: &[u8],
    force: bool,
    inputs: &[PathBuf],
) -> Result<(), WriteError> {
    stage(path, bytes, force, inputs)?.commit()
}

/// The first half of [`write_atomic`]: every check, and the bytes written
/// and flushed to disk in a temporary file beside `path`. Nothing is in
/// place until [`Staged::commit`]; dropping the result removes the
/// temporary file. A caller with another file to flush first (a record
/// that vouches for this one) stages this one meanwhile: the two waits
/// for the disk overlap.
pub fn stage(
    path: &Path,
    bytes: &[u8],
    force: bool,
    inputs: &[PathBuf],
) -> Result<Staged, WriteError> {
    if inputs.iter().any(|i| same_file(i, path)) {
        return Err(WriteError::IsInput(path.to_path_buf()));
    }
    check_regular(path)?;
    let path = path.to_path_buf();
    if !force && std::fs::symlink_metadata(&path).is_ok() {
        if holds_exactly(&path, bytes) {
            // Already in place: nothing to write or rename.
            return Ok(Staged {
                path,
                force,
                tmp: None,
            });
        }
        return Err(WriteError::Exists(path));
    }
    if interrupted() {
        return Err(WriteError::Interrupted(path));
    }
    let name = path
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    let written = LiveTemp::new(&parent_dir(&path), &name).and_then(|mut tmp| {
        tmp.write(bytes)?;
        Ok(tmp)
    });
    match written {
        Ok(tmp) => Ok(Staged {
            path,
            force,
            tmp: Some(tmp),
        }),
        Err(e) => Err(WriteError::Io(path, e)),
    }
}

/// A file written by [`stage`], waiting to be put in place.
pub struct Staged {
    path: PathBuf,
    force: bool,
    /// `None` when the file in place already holds the bytes.
    tmp: Option<LiveTemp>,
}

impl Staged {
    /// Renames the temporary file onto its path and flushes the folder (see
    /// [`write_atomic`]).
    pub fn commit(self) -> Result<(), WriteError> {
        let Some(tmp) = self.tmp else {
            return Ok(());
        };
        tmp.persist(&self.path, self.force)?;
        sync_dir(&parent_dir(&self.path)).map_err(|e| WriteError::Io(self.path, e))
    }
}

/// True when the regular file at `path` holds exactly `bytes` (read no
/// further than one byte past their length).
fn holds_exactly(path: &Path, bytes: &[u8]) -> bool {
    use std::io::Read;
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    if !file
        .metadata()
        .is_ok_and(|m| m.is_file() && m.len() == bytes.len() as u64)
    {
        return false;
    }
    let mut held = Vec::with_capacity(bytes.len());
    file.take(bytes.len() as u64 + 1)
        .read_to_end(&mut held)
        .is_ok_and(|_| held == bytes)
}

/// Flushes the folder `dir` itself, so that a rename into it is on disk.
/// Where folders cannot be opened as files (not Unix) there is nothing to
/// flush.
pub fn sync_dir(dir: &Path) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        std::fs::File::open(dir)?.sync_all()?;
    }
    #[cfg(not(unix))]
    let _ = dir;
    Ok(())
}

/// The folder a file named `path` goes into (`.` for a bare name).
pub fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// A temporary file for `name` in `dir`, named as [`sweep_stale_temps`]
/// recognises: `.<name>.<random>.p<pid>.tmp`, created new (never over an
/// existing file or a symbolic link).
pub fn temp_file(dir: &Path, name: &str) -> std::io::Result<tempfile::NamedTempFile> {
    let mut builder = tempfile::Builder::new();
    let prefix = format!(".{}.", short_name(name));
    let suffix = format!(".p{}{TEMP_SUFFIX}", std::process::id());
    builder.prefix(&prefix).suffix(&suffix);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(NEW_FILE_MODE));
    }
    builder.tempfile_in(dir)
}

/// The end of every temporary file name this program makes.
const TEMP_SUFFIX: &str = ".tmp";

/// Bytes of the target's name kept in a temporary file's name: with the
/// dot, the random part, the pid and the suffix it stays well inside the
/// 255 bytes file systems allow.
const TEMP_NAME_BYTES: usize = 200;

/// `name` cut to [`TEMP_NAME_BYTES`] at a character boundary.
fn short_name(name: &str) -> &str {
    let mut end = name.len().min(TEMP_NAME_BYTES);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    &name[..end]
}

/// How old a temporary file of a process that is no longer running must
/// be before it is removed. A temporary file lives from the moment its
/// bytes are written until the rename a moment later (milliseconds; a
/// slow network folder, seconds); a minute keeps clear of a process on
/// another machine writing into a shared folder, whose pid means nothing
/// here.
const DEAD_TEMP_AGE: std::time::Duration = std::time::Duration::from_secs(60);

/// How old any temporary file of ours must be before it is removed
/// whatever its pid says: no write takes an hour, so such a file is left
/// from a kill (of a process whose pid was reused since, or of a version
/// that did not put its pid in the name).
const OLD_TEMP_AGE: std::time::Duration = std::time::Duration::from_secs(3600);

/// Removes the temporary files a killed run (SIGKILL, a power cut) left in
/// `dir`, and returns how many. Only names this program makes are
/// touched: `.<name>.<random>.p<pid>.tmp`, and those of earlier versions
/// (`.<name>.<random>.tmp` beside the answers, `.tmp<random>` in the
/// records' folder, `records_folder`), and only regular files. Such a file goes when its process is
/// not running on this machine and it is over [`DEAD_TEMP_AGE`] old, or
/// when it is over [`OLD_TEMP_AGE`] old: so a live run's files, this
/// run's and those of other runs sharing the folder (`--shard`), are never
/// removed. Errors (a folder that cannot be listed) remove nothing.
pub fn sweep_stale_temps(dir: &Path, records_folder: bool) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let now = std::time::SystemTime::now();
    let mut removed = 0;
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(kind) = name.to_str().and_then(temp_kind) else {
            continue;
        };
        let Ok(meta) = entry.path().symlink_metadata() else {
            continue;
        };
        let age = meta
            .modified()
            .ok()
            .and_then(|m| now.duration_since(m).ok())
            .unwrap_or_default();
        let stale = match kind {
            TempKind::Ours(pid) => {
                age > OLD_TEMP_AGE || (age > DEAD_TEMP_AGE && !process_running(pid))
            }
            TempKind::Legacy => age > OLD_TEMP_AGE,
            TempKind::LegacyRecord => age > OLD_TEMP_AGE && records_folder,
        };
        if meta.is_file() && stale && std::fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// What a file name says of a temporary file of ours.
#[derive(Debug, PartialEq, Eq)]
enum TempKind {
    /// `.<name>.<random>.p<pid>.tmp`: made by process `pid`.
    Ours(u32),
    /// A name of an earlier version, without a pid.
    Legacy,
    /// tempfile's default name (`.tmp<random>`), which earlier versions gave
    /// records: swept only in the records' own folder, where no one else
    /// puts files.
    LegacyRecord,
}

/// `Some` when `name` is one of our temporary files' names.
fn temp_kind(name: &str) -> Option<TempKind> {
    if let Some(random) = name.strip_prefix(".tmp") {
        // tempfile's own default name, which records used to get.
        if random.len() == 6 && random.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Some(TempKind::LegacyRecord);
        }
    }
    let inner = name.strip_prefix('.')?.strip_suffix(TEMP_SUFFIX)?;
    let (rest, last) = inner.rsplit_once('.')?;
    if let Some(pid) = last.strip_prefix('p').and_then(|p| p.parse::<u32>().ok()) {
        let (target, random) = rest.rsplit_once('.')?;
        return (!target.is_empty() && random.len() == 6).then_some(TempKind::Ours(pid));
    }
    // `.<name>.<random>.tmp`, where the name is one of our outputs'.
    let ours = [".png", ".jpg", ".jpeg", ".pdf", ".json"];
    (last.len() == 6 && ours.iter().any(|e| rest.to_ascii_lowercase().ends_with(e)))
        .then_some(TempKind::Legacy)
}

/// Whether process `pid` is running on this machine. Where that cannot be
/// told (no `/proc`), it is taken to be running, so only the age rule
/// applies.
fn process_running(pid: u32) -> bool {
    let proc_root = Path::new("/proc");
    !proc_root.join("self").exists() || proc_root.join(pid.to_string()).exists()
}

/// Permissions asked for a new answer image before the umask applies, as
/// `File::create` does (so the temporary file's private 0600 does not stay).
#[cfg(unix)]
const NEW_FILE_MODE: u32 = 0o666;

/// A temporary file that is in the registry for as long as it exists.
/// Dropping it removes the file (and the registry entry).
struct LiveTemp {
    /// `None` once persisted.
    file: Option<tempfile::NamedTempFile>,
}

impl LiveTemp {
    /// A new, uniquely named temporary file for `name` in `dir` (see
    /// [`temp_file`]).
    fn new(dir: &Path, name: &str) -> std::io::Result<LiveTemp> {
        let mut live = lock_registry();
        let file = temp_file(dir, name)?;
        live.push(file.path().to_path_buf());
        Ok(LiveTemp { file: Some(file) })
    }

    /// Writes `bytes` and flushes them to disk.
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        let file = self
            .file
            .as_mut()
            .ok_or_else(|| std::io::Error::other("temporary file already persisted"))?;
        file.write_all(bytes)?;
        file.as_file().sync_all()
    }

    /// Renames the file onto `path` (replacing it only when `force`). The
    /// registry is held meanwhile, so that a second Ctrl-C either removes
    /// the temporary file or finds it already in place, never in between.
    fn persist(mut self, path: &Path, force: bool) -> Result<(), WriteError> {
        let mut live = lock_registry();
        if interrupted() {
            drop(live);
            return Err(WriteError::Interrupted(path.to_path_buf()));
        }
        // Checked again just before the rename: the path may have changed
        // while the image was encoded.
        check_regular(path)?;
        let Some(file) = self.file.take() else {
            return Err(WriteError::Interrupted(path.to_path_buf()));
        };
        let tmp_path = file.path().to_path_buf();
        let result = if force {
            file.persist(path)
        } else {
            file.persist_noclobber(path)
        };
        live.retain(|p| *p != tmp_path);
        match result {
            Ok(_) => Ok(()),
            // The temporary file is removed when the error drops it.
            Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => {
                Err(WriteError::Exists(path.to_path_buf()))
            }
            Err(e) => Err(WriteError::Io(path.to_path_buf(), e.error)),
        }
    }
}

impl Drop for LiveTemp {
    fn drop(&mut self) {
        let Some(file) = &self.file else { return };
        let path = file.path().to_path_buf();
        lock_registry().retain(|p| *p != path);
        // `NamedTempFile` removes the file itself when it drops, after this.
    }
}

/// Temporary files being written right now.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// The registry, even if a thread panicked while holding it (the list of
/// paths is still right: every change to it is a single push or retain).
fn lock_registry() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    LIVE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Set by the first Ctrl-C.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Ctrl-C presses so far.
static PRESSES: AtomicUsize = AtomicUsize::new(0);

/// The exit code after a second Ctrl-C: 128 + SIGINT, as shells report it.
pub const INTERRUPT_EXIT: i32 = 130;

/// True once Ctrl-C was pressed: start no new work, write no new file.
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Runs `work` unless Ctrl-C was pressed; then returns an `Interrupted`
/// I/O error instead, so that a batch skips the inputs it has not started
/// and reports them as skipped.
pub fn unless_interrupted<T, E: From<std::io::Error>>(
    work: impl FnOnce() -> Result<T, E>,
) -> Result<T, E> {
    if interrupted() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::Interrupted,
            "skipped: interrupted (Ctrl-C)",
        )
        .into());
    }
    work()
}

/// Makes Ctrl-C stop a batch cleanly. The first press sets the flag
/// [`interrupted`] reads: photos not started are skipped, files not yet in
/// place are not written (their temporary files are removed), and the run
/// ends with one line saying how far it got. A second press removes every
/// temporary file still registered and exits at once with
/// [`INTERRUPT_EXIT`]. Only the photo batch installs this; text `solve`
/// keeps the default (Ctrl-C ends it, it writes no files).
pub fn install_interrupt_handler() {
    // Failing to install (a handler already set) only loses the clean stop.
    let _ = ctrlc::set_handler(|| {
        if PRESSES.fetch_add(1, Ordering::SeqCst) == 0 {
            // Said once, when the pages under way are done (the batch's
            // closing line), not here as well.
            INTERRUPTED.store(true, Ordering::SeqCst);
            return;
        }
        // Held until exit, so no worker renames a file meanwhile.
        let live = lock_registry();
        for path in live.iter() {
            let _ = std::fs::remove_file(path);
        }
        std::process::exit(INTERRUPT_EXIT);
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch() -> tempfile::TempDir {
        tempfile::tempdir().unwrap()
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn writes_and_refuses_to_overwrite_without_force() {
        let dir = scratch();
        let p = dir.path().join("a.png");
        write_atomic(&p, b"one", false, &[]).unwrap();
        assert!(matches!(
            write_atomic(&p, b"two", false, &[]),
            Err(WriteError::Exists(_))
        ));
        assert_eq!(std::fs::read(&p).unwrap(), b"one");
        write_atomic(&p, b"two", true, &[]).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        assert_eq!(names(dir.path()), ["a.png"], "no temporary file left");
    }

    #[test]
    fn a_staged_file_is_in_place_only_once_committed() {
        let dir = scratch();
        let p = dir.path().join("a.png");
        let staged = stage(&p, b"one", false, &[]).unwrap();
        assert!(!p.exists(), "nothing in place before the commit");
        assert_eq!(names(dir.path()).len(), 1, "the temporary file");
        drop(staged);
        assert!(
            names(dir.path()).is_empty(),
            "dropped: no temporary file left"
        );
        stage(&p, b"one", false, &[]).unwrap().commit().unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"one");
        assert_eq!(names(dir.path()), ["a.png"]);
    }

    #[test]
    fn a_file_with_the_same_bytes_is_adopted_not_refused() {
        let dir = scratch();
        let p = dir.path().join("a.png");
        std::fs::write(&p, b"answer").unwrap();
        write_atomic(&p, b"answer", false, &[]).unwrap();
        assert!(matches!(
            write_atomic(&p, b"answe", false, &[]),
            Err(WriteError::Exists(_))
        ));
        assert!(matches!(
            write_atomic(&p, b"answer!", false, &[]),
            Err(WriteError::Exists(_))
        ));
        assert_eq!(std::fs::read(&p).unwrap(), b"answer");
        assert_eq!(names(dir.path()), ["a.png"]);
    }

    #[test]
    fn temporary_names_are_ours_by_their_pattern() {
        let dir = scratch();
        let file = temp_file(dir.path(), "book.p001.solved.png").unwrap();
        let name = file
            .path()
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        assert_eq!(
            temp_kind(&name),
            Some(TempKind::Ours(std::process::id())),
            "{name}"
        );
        assert_eq!(
            temp_kind(".book60.p001.solved.png.aB3xYz.tmp"),
            Some(TempKind::Legacy)
        );
        assert_eq!(temp_kind(".tmpQ2w3E4"), Some(TempKind::LegacyRecord));
        assert_eq!(
            temp_kind(".tmpfile.png.Xy12Ab.p7.tmp"),
            Some(TempKind::Ours(7))
        );
        for other in [
            "book.solved.png",
            ".hidden.tmp",
            "notes.tmp",
            ".draft.txt.aB3xYz.tmp",
            ".tmp",
            ".tmpfolder-of-mine",
        ] {
            assert_eq!(temp_kind(other), None, "{other}");
        }
        let long = "x".repeat(400);
        assert!(temp_file(dir.path(), &long).is_ok(), "long names are cut");
    }

    /// Makes `path` look `age` old.
    fn age(path: &Path, age: std::time::Duration) {
        let when = std::time::SystemTime::now() - age;
        std::fs::File::options()
            .write(true)
            .open(path)
            .unwrap()
            .set_modified(when)
            .unwrap();
    }

    #[test]
    fn only_stale_temporary_files_of_ours_are_swept() {
        let dir = scratch();
        let d = dir.path();
        let minutes = |m: u64| std::time::Duration::from_secs(60 * m);
        // A pid that is not running: beyond the kernel's largest.
        let dead = ".a.png.Xy12Ab.p4999999.tmp";
        let dead_young = ".b.png.Xy12Ab.p4999999.tmp";
        let live = format!(".c.png.Xy12Ab.p{}.tmp", std::process::id());
        let live_ancient = format!(".d.png.Xy12Ab.p{}.tmp", std::process::id());
        let legacy_old = ".e.solved.png.Xy12Ab.tmp";
        let legacy_young = ".f.solved.png.Xy12Ab.tmp";
        let stranger = ".notes.txt.Xy12Ab.tmp";
        for (name, old) in [
            (dead, minutes(5)),
            (dead_young, minutes(0)),
            (live.as_str(), minutes(5)),
            (live_ancient.as_str(), minutes(120)),
            (legacy_old, minutes(120)),
            (legacy_young, minutes(5)),
            (stranger, minutes(120)),
        ] {
            std::fs::write(d.join(name), b"x").unwrap();
            age(&d.join(name), old);
        }
        assert_eq!(sweep_stale_temps(d, false), 3);
        let mut kept = vec![dead_young, live.as_str(), legacy_young, stranger];
        kept.sort();
        assert_eq!(names(d), kept);
        assert_eq!(sweep_stale_temps(&d.join("missing"), false), 0);
    }

    #[cfg(unix)]
    #[test]
    fn new_files_get_the_usual_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch();
        let p = dir.path().join("a.png");
        write_atomic(&p, b"one", false, &[]).unwrap();
        let mode = std::fs::metadata(&p).unwrap().permissions().mode();
        assert_ne!(
            mode & 0o044,
            0,
            "readable by others as with File::create: {mode:o}"
        );
    }

    #[test]
    fn never_overwrites_an_input() {
        let dir = scratch();
        let p = dir.path().join("photo.png");
        std::fs::write(&p, b"photo").unwrap();
        let err = write_atomic(&p, b"x", true, std::slice::from_ref(&p)).unwrap_err();
        assert!(matches!(err, WriteError::IsInput(_)));
        assert_eq!(std::fs::read(&p).unwrap(), b"photo");
    }

    #[test]
    fn missing_folder_is_a_clear_error() {
        let dir = scratch();
        let p = dir.path().join("no/such/dir/out.png");
        let err = write_atomic(&p, b"x", false, &[]).unwrap_err();
        assert!(err.to_string().starts_with("cannot write"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_and_folders_are_never_replaced_even_with_force() {
        let dir = scratch();
        let target = dir.path().join("target.png");
        std::fs::write(&target, b"keep").unwrap();
        let link = dir.path().join("link.png");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let err = write_atomic(&link, b"x", true, &[]).unwrap_err();
        assert!(
            err.to_string()
                .contains("is a symbolic link, not a regular file"),
            "{err}"
        );
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(&target).unwrap(), b"keep");
        let folder = dir.path().join("folder.png");
        std::fs::create_dir(&folder).unwrap();
        let err = write_atomic(&folder, b"x", true, &[]).unwrap_err();
        assert!(
            matches!(err, WriteError::NotRegular(_, "a folder")),
            "{err}"
        );
        assert_eq!(names(dir.path()), ["folder.png", "link.png", "target.png"]);
    }

    #[test]
    fn parallel_writers_of_one_name_never_share_a_temporary_file() {
        // Many threads write the same target at once: each uses its own
        // temporary file, exactly one wins without --force, and the file
        // holds one writer's bytes whole.
        let dir = scratch();
        let p = dir.path().join("photo.solved.png");
        let results: Vec<Result<(), WriteError>> = std::thread::scope(|s| {
            let handles: Vec<_> = (0..8u8)
                .map(|i| {
                    let p = &p;
                    s.spawn(move || write_atomic(p, &[i; 100_000], false, &[]))
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 1);
        assert!(results
            .iter()
            .all(|r| matches!(r, Ok(()) | Err(WriteError::Exists(_)))));
        let bytes = std::fs::read(&p).unwrap();
        assert!(bytes.len() == 100_000 && bytes.iter().all(|&b| b == bytes[0]));
        assert_eq!(names(dir.path()), ["photo.solved.png"]);
        assert!(lock_registry().is_empty());
    }

    #[test]
    fn colliding_outputs_are_found_before_the_batch() {
        let dir = scratch();
        let out = dir.path().join("photo.solved.jpg");
        let same = dir.path().join(".").join("photo.solved.jpg");
        let pairs = vec![
            (PathBuf::from("a/photo.jpg"), out.clone()),
            (
                PathBuf::from("c/other.jpg"),
                dir.path().join("other.solved.jpg"),
            ),
            (PathBuf::from("b/photo.jpg"), same),
        ];
        let err = check_distinct_outputs(&pairs).unwrap_err();
        assert!(
            err.starts_with("a/photo.jpg and b/photo.jpg would both write"),
            "{err}"
        );
        assert!(check_distinct_outputs(&pairs[..2]).is_ok());
    }

    #[test]
    fn the_format_follows_the_extension() {
        assert_eq!(
            ImageKind::for_output(Path::new("a.JPG")),
            Ok(ImageKind::Jpeg)
        );
        assert_eq!(
            ImageKind::for_output(Path::new("a.jpeg")),
            Ok(ImageKind::Jpeg)
        );
        assert_eq!(
            ImageKind::for_output(Path::new("a.png")),
            Ok(ImageKind::Png)
        );
        assert!(ImageKind::for_output(Path::new("a.webp")).is_err());
        assert!(ImageKind::for_output(Path::new("answer")).is_err());
        assert_eq!(ImageKind::for_input(Path::new("p.jpeg")), ImageKind::Jpeg);
        assert_eq!(ImageKind::for_input(Path::new("p.gif")), ImageKind::Png);
        let image = RgbImage::from_pixel(8, 8, image::Rgb([200, 10, 10]));
        let jpeg = encode_image(&image, ImageKind::Jpeg).unwrap();
        assert_eq!(
            image::guess_format(&jpeg).unwrap(),
            image::ImageFormat::Jpeg
        );
        let png = encode_image(&image, ImageKind::Png).unwrap();
        assert_eq!(image::guess_format(&png).unwrap(), image::ImageFormat::Png);
    }

    #[test]
    fn a_jpeg_answer_decodes_back_to_its_pixels() {
        let image = RgbImage::from_fn(40, 24, |x, _| image::Rgb([(x * 6) as u8, 90, 160]));
        let jpeg = encode_image(&image, ImageKind::Jpeg).unwrap();
        let back = image::load_from_memory(&jpeg).unwrap().to_rgb8();
        assert_eq!(back.dimensions(), (40, 24));
        for (a, b) in image.pixels().zip(back.pixels()) {
            for (p, q) in a.0.iter().zip(b.0) {
                assert!(p.abs_diff(q) <= 12, "{a:?} came back as {b:?}");
            }
        }
        let wide = RgbImage::new(70_000, 1);
        assert!(encode_image(&wide, ImageKind::Jpeg).is_err());
    }
}
