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

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use image::RgbImage;

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
            snap_vision::file_kind(&meta.file_type()),
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
    if inputs.iter().any(|i| same_file(i, path)) {
        return Err(WriteError::IsInput(path.to_path_buf()));
    }
    check_regular(path)?;
    if !force && std::fs::symlink_metadata(path).is_ok() {
        return Err(WriteError::Exists(path.to_path_buf()));
    }
    if interrupted() {
        return Err(WriteError::Interrupted(path.to_path_buf()));
    }
    let io = |e| WriteError::Io(path.to_path_buf(), e);
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    let mut tmp = LiveTemp::new(&dir, &name).map_err(io)?;
    tmp.write(bytes).map_err(io)?;
    tmp.persist(path, force)
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
    /// A new, uniquely named `.NAME.XXXXXX.tmp` in `dir`.
    fn new(dir: &Path, name: &str) -> std::io::Result<LiveTemp> {
        let prefix = format!(".{name}.");
        let mut builder = tempfile::Builder::new();
        builder.prefix(&prefix).suffix(".tmp");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            builder.permissions(std::fs::Permissions::from_mode(NEW_FILE_MODE));
        }
        let mut live = lock_registry();
        let file = builder.tempfile_in(dir)?;
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
/// ends with the summary of what finished. A second press removes every
/// temporary file still registered and exits at once with
/// [`INTERRUPT_EXIT`]. Only the photo batch installs this; text `solve`
/// keeps the default (Ctrl-C ends it, it writes no files).
pub fn install_interrupt_handler() {
    // Failing to install (a handler already set) only loses the clean stop.
    let _ = ctrlc::set_handler(|| {
        if PRESSES.fetch_add(1, Ordering::SeqCst) == 0 {
            INTERRUPTED.store(true, Ordering::SeqCst);
            eprintln!(
                "sudoku-snap: interrupted; finishing the photos under way (Ctrl-C again to stop now)"
            );
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
