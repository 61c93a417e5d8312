//! Writing files safely: never over an input, never half-written.

use std::io::Write;
use std::path::{Path, PathBuf};

/// Why an output file was not written.
#[derive(Debug)]
pub enum WriteError {
    /// The file exists and overwriting was not asked for.
    Exists(PathBuf),
    /// The path is one of the inputs.
    IsInput(PathBuf),
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
            WriteError::Io(p, e) => write!(f, "cannot write {}: {e}", p.display()),
        }
    }
}

impl std::error::Error for WriteError {}

/// True when `a` and `b` name the same existing file.
fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => false,
    }
}

/// Writes `bytes` to `path` atomically: into a temporary file in the same
/// folder, flushed to disk, then renamed over `path`. A crash or a full disk
/// leaves either the old file or the new one, never a torn file. Refuses to
/// replace any of `inputs`, and an existing file unless `force`.
pub fn write_atomic(
    path: &Path,
    bytes: &[u8],
    force: bool,
    inputs: &[PathBuf],
) -> Result<(), WriteError> {
    if inputs.iter().any(|i| same_file(i, path)) {
        return Err(WriteError::IsInput(path.to_path_buf()));
    }
    if !force && path.exists() {
        return Err(WriteError::Exists(path.to_path_buf()));
    }
    let io = |e| WriteError::Io(path.to_path_buf(), e);
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        // Leave nothing behind but what was there before.
        let _ = std::fs::remove_file(&tmp);
        return Err(io(e));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("sudoku-snap-output-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn writes_and_refuses_to_overwrite_without_force() {
        let dir = scratch("force");
        let p = dir.join("a.png");
        write_atomic(&p, b"one", false, &[]).unwrap();
        assert!(matches!(
            write_atomic(&p, b"two", false, &[]),
            Err(WriteError::Exists(_))
        ));
        assert_eq!(std::fs::read(&p).unwrap(), b"one");
        write_atomic(&p, b"two", true, &[]).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        let leftovers = std::fs::read_dir(&dir).unwrap().count();
        assert_eq!(leftovers, 1, "no temporary file left");
    }

    #[test]
    fn never_overwrites_an_input() {
        let dir = scratch("input");
        let p = dir.join("photo.png");
        std::fs::write(&p, b"photo").unwrap();
        let err = write_atomic(&p, b"x", true, std::slice::from_ref(&p)).unwrap_err();
        assert!(matches!(err, WriteError::IsInput(_)));
        assert_eq!(std::fs::read(&p).unwrap(), b"photo");
    }

    #[test]
    fn missing_folder_is_a_clear_error() {
        let dir = scratch("missing");
        let p = dir.join("no/such/dir/out.png");
        let err = write_atomic(&p, b"x", false, &[]).unwrap_err();
        assert!(err.to_string().starts_with("cannot write"), "{err}");
    }
}
