//! The one way files are opened: every file the tool reads whole (photos,
//! PDFs, models, benchmark puzzle files, ground truth) goes through
//! [`read`], and every file it streams (text puzzles) through
//! [`open_stream`], so the same kind check and size bound hold everywhere.
//!
//! Only a regular file is read whole: a FIFO with no writer would block for
//! ever, a device such as `/dev/zero` never ends, a folder holds no bytes.
//! Its size is checked against the caller's bound before the first byte is
//! read, and the read itself stops at the bound (a file that grows while it
//! is read). A streamed input may also be a FIFO, by design: `solve
//! <(generator)` waits for its writer as `cat` would, and costs constant
//! memory however long it runs.
//!
//! The kind is checked on the path before opening (opening a FIFO for
//! reading blocks until a writer comes) and again on the open file (the
//! path may have been replaced in between).

use std::fs::{File, FileType, Metadata};
use std::io::{Error, ErrorKind, Read};
use std::mem::MaybeUninit;
use std::path::Path;
use std::sync::Arc;

/// What a file is read as: named in messages, with its size bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileLimit {
    /// The file as a message names it: `photo file`, `PDF`, `model file`.
    pub noun: &'static str,
    /// The plural, for "... are read from regular files only".
    pub plural: &'static str,
    /// Most bytes read.
    pub max_bytes: u64,
}

/// Largest text file read whole, in bytes: 256 MiB. The files read whole
/// as text are benchmark puzzle files (the largest shared set, 49,151
/// puzzles, is 4 MB; 256 MiB is three million puzzle lines) and ground
/// truth; puzzle files to solve are streamed instead and have no bound.
pub const MAX_TEXT_FILE_BYTES: u64 = 256 << 20;

/// A benchmark puzzle file (`bench FILE`), read whole before timing.
pub const PUZZLE_FILE: FileLimit = FileLimit {
    noun: "puzzle file",
    plural: "puzzle files",
    max_bytes: MAX_TEXT_FILE_BYTES,
};

/// Reads the regular file at `path` whole, refusing any other kind of file
/// and any file over `limit.max_bytes`, both before reading it.
pub fn read(path: &Path, limit: &FileLimit) -> std::io::Result<Vec<u8>> {
    let (file, len) = open_within(path, limit)?;
    let mut bytes = Vec::with_capacity(len as usize);
    file.take(limit.max_bytes + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit.max_bytes {
        return Err(too_big(bytes.len() as u64, limit));
    }
    Ok(bytes)
}

/// The regular file at `path`, opened, and its length: an error for any
/// other kind of file and for a file over `limit.max_bytes`.
fn open_within(path: &Path, limit: &FileLimit) -> std::io::Result<(File, u64)> {
    let file = open_regular(path, limit)?;
    let len = file.metadata()?.len();
    if len > limit.max_bytes {
        return Err(too_big(len, limit));
    }
    Ok((file, len))
}

/// [`read`], into shared memory: a caller that keeps the bytes behind an
/// `Arc` (a JPEG kept to draw its answer in) takes them without copying
/// megabytes into one. A file whose size changes while it is read is read
/// again by [`read`].
pub fn read_shared(path: &Path, limit: &FileLimit) -> std::io::Result<Arc<[u8]>> {
    let (mut file, len) = open_within(path, limit)?;
    let zeroed: Arc<[MaybeUninit<u8>]> = Arc::new_zeroed_slice(len as usize);
    // SAFETY: all-zero bytes are initialised u8s.
    let mut bytes = unsafe { zeroed.assume_init() };
    let whole = match Arc::get_mut(&mut bytes) {
        Some(buf) => file.read_exact(buf).is_ok() && file.read(&mut [0u8; 1])? == 0,
        None => false,
    };
    if whole {
        Ok(bytes)
    } else {
        read(path, limit).map(Arc::from)
    }
}

/// Reads the regular file at `path` whole as UTF-8 text, as [`read`] does.
pub fn read_text(path: &Path, limit: &FileLimit) -> std::io::Result<String> {
    String::from_utf8(read(path, limit)?)
        .map_err(|_| Error::new(ErrorKind::InvalidData, "not UTF-8 text"))
}

/// Opens the regular file at `path` for reading, any size: the caller
/// bounds what it reads (see [`read`]). Any other kind of file is refused
/// without being opened.
pub fn open_regular(path: &Path, limit: &FileLimit) -> std::io::Result<File> {
    let refuse = |meta: &Metadata| -> std::io::Result<()> {
        if meta.is_file() {
            return Ok(());
        }
        Err(Error::new(
            ErrorKind::InvalidInput,
            format!(
                "not a regular file ({}); {} are read from regular files only",
                file_kind(&meta.file_type()),
                limit.plural
            ),
        ))
    };
    refuse(&std::fs::metadata(path)?)?;
    let file = File::open(path)?;
    refuse(&file.metadata()?)?;
    Ok(file)
}

/// Opens a text input to stream: a regular file or a FIFO (by design:
/// `solve <(generator)` streams). Anything else is refused with its kind
/// named, before it is opened: a device such as `/dev/zero` would never
/// end, and a folder holds no lines.
pub fn open_stream(path: &Path) -> std::io::Result<File> {
    let refuse = |kind: FileType| -> std::io::Result<()> {
        if kind.is_file() || is_fifo(&kind) {
            return Ok(());
        }
        Err(Error::new(
            ErrorKind::InvalidInput,
            format!(
                "not a regular file or FIFO ({}); text is read from files, FIFOs \
                 and standard input",
                file_kind(&kind)
            ),
        ))
    };
    refuse(std::fs::metadata(path)?.file_type())?;
    let file = File::open(path)?;
    refuse(file.metadata()?.file_type())?;
    Ok(file)
}

/// True for a FIFO (named pipe).
fn is_fifo(kind: &FileType) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        kind.is_fifo()
    }
    #[cfg(not(unix))]
    {
        let _ = kind;
        false
    }
}

/// What a file is, in words: `a FIFO`, `a device`, `a folder`.
pub fn file_kind(file_type: &FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_char_device() || file_type.is_block_device() {
            return "a device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() {
        "a folder"
    } else if file_type.is_symlink() {
        "a symbolic link"
    } else if file_type.is_file() {
        "a regular file"
    } else {
        "a special file"
    }
}

/// The error for a file over its bound.
fn too_big(len: u64, limit: &FileLimit) -> Error {
    Error::new(
        ErrorKind::InvalidInput,
        format!(
            "file is {} MiB; the largest {} read is {} MiB",
            len >> 20,
            limit.noun,
            limit.max_bytes >> 20
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: FileLimit = FileLimit {
        noun: "test file",
        plural: "test files",
        max_bytes: 16,
    };

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("snap-files-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_regular_file_within_its_bound_is_read() {
        let dir = scratch("small");
        let path = dir.join("a.txt");
        std::fs::write(&path, b"sixteen bytes!!!").unwrap();
        assert_eq!(read(&path, &SMALL).unwrap(), b"sixteen bytes!!!");
        assert_eq!(read_text(&path, &SMALL).unwrap(), "sixteen bytes!!!");
        assert_eq!(&*read_shared(&path, &SMALL).unwrap(), b"sixteen bytes!!!");
        std::fs::write(&path, b"").unwrap();
        assert!(read_shared(&path, &SMALL).unwrap().is_empty());
        std::fs::write(&path, b"seventeen bytes!!").unwrap();
        let err = read(&path, &SMALL).unwrap_err();
        assert_eq!(
            err.to_string(),
            "file is 0 MiB; the largest test file read is 0 MiB"
        );
        let err = read_shared(&path, &SMALL).unwrap_err();
        assert_eq!(
            err.to_string(),
            "file is 0 MiB; the largest test file read is 0 MiB"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn folders_and_devices_are_refused_unread() {
        let dir = scratch("kinds");
        let err = read(&dir, &SMALL).unwrap_err();
        assert_eq!(
            err.to_string(),
            "not a regular file (a folder); test files are read from regular files only"
        );
        assert_eq!(
            read_shared(&dir, &SMALL).unwrap_err().to_string(),
            err.to_string()
        );
        assert!(open_stream(&dir)
            .unwrap_err()
            .to_string()
            .contains("(a folder)"));
        #[cfg(unix)]
        {
            let zero = Path::new("/dev/zero");
            let err = read(zero, &SMALL).unwrap_err();
            assert!(err.to_string().contains("(a device)"), "{err}");
            let err = open_stream(zero).unwrap_err();
            assert!(err.to_string().contains("(a device)"), "{err}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_streamed_but_never_read_whole() {
        let dir = scratch("fifo");
        let fifo = dir.join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        // Refused from its kind alone: opening it would block, no writer.
        let err = read(&fifo, &SMALL).unwrap_err();
        assert!(err.to_string().contains("(a FIFO)"), "{err}");
        // Streaming opens it, which waits for a writer: give it one.
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::write(fifo, b"line\n"))
        };
        let mut text = String::new();
        open_stream(&fifo)
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
        writer.join().unwrap().unwrap();
        assert_eq!(text, "line\n");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
