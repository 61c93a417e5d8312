//! What the main job reads: photos and PDF books, given one by one or as
//! folders, turned into a list of *pages* to process. A photo is one page;
//! a PDF is one page per selected page, rendered only when its turn comes
//! (so a book of hundreds of pages never sits in memory as pixels), in a
//! child process under a memory limit and a deadline (`render.rs`). A book
//! is opened once to count and measure its pages and closed again: its
//! bytes are not held for the run.
//!
//! Every page holds its share of the run's memory budget
//! ([`crate::limits::RUN_BUDGET`]) while it is rendered and read, sized
//! from its pixels before any pixel exists.

use std::fs::File;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use snap_vision::{Page, PageRange, PdfDoc, PdfError, ReadError, Reader, Timings};

use super::render::{self, RENDER_TIMEOUT};
use super::shell_word;
use crate::error::Error;
use crate::limits::{self, Share, RUN_BUDGET};
use crate::output;

/// File name endings taken from a folder: images, and PDF books.
const INPUT_EXTENSIONS: [&str; 9] = [
    "jpg", "jpeg", "png", "webp", "bmp", "tif", "tiff", "gif", "pdf",
];

/// A PDF file starts with `%PDF-`; readers accept the marker anywhere in
/// the first 1024 bytes (some files carry junk before it), and so do we,
/// unless the file starts with an image signature: an image's own bytes
/// (a JPEG comment, EXIF text) may hold the marker too, and a signature at
/// offset 0 is the stronger evidence.
const PDF_MARKER: &[u8] = b"%PDF-";

/// How far into a file the PDF marker is looked for (see [`PDF_MARKER`]).
const PDF_MARKER_WINDOW: usize = 1024;

/// How the main job names standard input (`-`) in its file names.
const STDIN_STEM: &str = "stdin";

/// How much of a file is looked at to tell a text file from a photo.
const SNIFF_BYTES: usize = 4096;

/// One unit of work of the main job.
#[derive(Debug, Clone)]
pub enum Unit {
    /// A photo (or any image file): one page.
    Photo(PathBuf),
    /// A photo read from standard input (`-`), its bytes.
    Stdin(Arc<Vec<u8>>),
    /// One page of a PDF.
    PdfPage {
        /// The book.
        book: Arc<BookFile>,
        /// The page, 1-based.
        page: usize,
        /// The page's size in points, as displayed: what its render costs
        /// is known from it before rendering.
        size_pt: (f32, f32),
        /// Digits of the book's last page number, at least 3: page numbers
        /// in file names are zero-padded to it so that they sort.
        width: usize,
    },
    /// An input that could not be opened (a damaged PDF, a bad `--pages`
    /// for it): reported with its name and reason; the batch goes on.
    Broken {
        /// The input.
        path: PathBuf,
        /// One line: why.
        reason: String,
    },
}

/// A PDF of the run, opened again wherever it is needed (a render
/// child, the solved book at the end), so that its bytes are not held
/// between.
#[derive(Debug)]
pub struct BookFile {
    /// The input as given (`-` for standard input).
    path: PathBuf,
    /// Where its bytes are: the file itself, or for standard input a file
    /// of this process's (see [`BookFile::from_stdin`]).
    source: PathBuf,
    /// The file standard input was copied to, kept open for the run: it
    /// has no name, and goes away with the process however it ends.
    _held: Option<File>,
    /// Pages in the book.
    pages: usize,
}

impl BookFile {
    /// The book in the file at `path`.
    fn file(path: &Path) -> BookFile {
        BookFile {
            path: path.to_path_buf(),
            source: path.to_path_buf(),
            _held: None,
            pages: 0,
        }
    }

    /// A book read from standard input: its bytes are copied to a file
    /// without a name, which render children open through this process
    /// (`/proc/PID/fd/N`), so that neither the batch nor the children hold
    /// the bytes in memory.
    fn from_stdin(bytes: &[u8]) -> std::io::Result<BookFile> {
        let mut file = tempfile::tempfile()?;
        file.write_all(bytes)?;
        file.flush()?;
        let source = held_file_path(&file)?;
        Ok(BookFile {
            path: PathBuf::from("-"),
            source,
            _held: Some(file),
            pages: 0,
        })
    }

    /// The input as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Pages in the book.
    pub fn pages(&self) -> usize {
        self.pages
    }

    /// Opens the book again (bounded as every PDF is), its messages naming
    /// the input as given.
    pub fn open(&self) -> Result<PdfDoc, PdfError> {
        let bytes =
            snap_solver::files::read(&self.source, &PDF_FILE).map_err(|source| PdfError::Io {
                path: self.path.clone(),
                source,
            })?;
        PdfDoc::from_bytes(bytes, &self.path)
    }
}

/// What a PDF is read as: the bound every PDF has.
const PDF_FILE: snap_solver::files::FileLimit = snap_solver::files::FileLimit {
    noun: "PDF",
    plural: "PDFs",
    max_bytes: snap_vision::MAX_PDF_BYTES,
};

/// A path another process can open `file` by.
fn held_file_path(file: &File) -> std::io::Result<PathBuf> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::io::AsRawFd;
        Ok(PathBuf::from(format!(
            "/proc/{}/fd/{}",
            std::process::id(),
            file.as_raw_fd()
        )))
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = file;
        Err(std::io::Error::new(
            std::io::ErrorKind::Unsupported,
            "a PDF on standard input is read on Linux only; give it as a file",
        ))
    }
}

/// A unit read: its page, the resolution a PDF page was rendered at, and
/// the unit's share of the run's memory (see [`Unit::read`]).
pub type PageRead = (Page, Option<f32>, Share<'static>);

/// How PDF pages are rendered: the resolution asked for and the deadline.
#[derive(Debug, Clone, Copy)]
pub struct Render {
    /// Dots per inch (lowered for an oversized page).
    pub dpi: f32,
    /// Longest a page may take to render.
    pub timeout: Duration,
}

impl Render {
    /// At `dpi`, with the default deadline.
    pub fn at(dpi: f32) -> Render {
        Render {
            dpi,
            timeout: RENDER_TIMEOUT,
        }
    }
}

impl Unit {
    /// The input file this unit comes from.
    pub fn path(&self) -> &Path {
        match self {
            Unit::Photo(path) | Unit::Broken { path, .. } => path,
            Unit::Stdin(_) => Path::new("-"),
            Unit::PdfPage { book, .. } => book.path(),
        }
    }

    /// The PDF page number, `None` for a photo.
    pub fn page(&self) -> Option<usize> {
        match self {
            Unit::PdfPage { page, .. } => Some(*page),
            _ => None,
        }
    }

    /// The stem of this unit's output names: `photo` for `photo.jpg`,
    /// `book.p012` for page 12 of `book.pdf`.
    pub fn output_stem(&self) -> String {
        let stem = file_stem(self.path());
        match self {
            Unit::PdfPage { page, width, .. } => format!("{stem}.p{page:0width$}"),
            _ => stem,
        }
    }

    /// Reads the unit: a photo from its file, a PDF page rendered as
    /// `render` says and read. The render resolution comes back with the
    /// page, and with the error when there is one. `debug_dir` receives
    /// the intermediate images (`<debug_dir>/<stem>/`). After Ctrl-C
    /// nothing new is started: the error says it was skipped.
    ///
    /// The unit's share of the run's memory is reserved before it is
    /// decoded or rendered (waiting while other pages hold the rest) and
    /// comes back with the page: the caller holds it until it has drawn
    /// and written the answer.
    pub fn read(
        &self,
        reader: &Reader,
        render: &Render,
        debug_dir: Option<&Path>,
    ) -> Result<PageRead, (Option<f32>, ReadError)> {
        match self {
            Unit::Photo(path) => {
                let share = RUN_BUDGET.reserve(limits::photo_file_bytes(path));
                output::unless_interrupted(|| reader.read_file(path))
                    .map(|page| (page, None, share))
                    .map_err(|e| (None, e))
            }
            Unit::Stdin(bytes) => {
                let debug = debug_dir.map(|d| d.join(STDIN_STEM));
                let share = RUN_BUDGET.reserve(limits::photo_bytes(bytes));
                output::unless_interrupted(|| reader.read_bytes(bytes, debug.as_deref()))
                    .map(|page| (page, None, share))
                    .map_err(|e| (None, e))
            }
            Unit::PdfPage {
                book,
                page,
                size_pt,
                ..
            } => {
                let debug = debug_dir.map(|d| d.join(self.output_stem()));
                let pixels = snap_vision::render_pixels(*size_pt, render.dpi);
                let allowance = render::render_allowance(pixels);
                let reading = limits::page_bytes(pixels);
                let mut share = RUN_BUDGET.reserve(allowance + reading);
                let start = Instant::now();
                let rendered = output::unless_interrupted(|| {
                    render::render_page(
                        &book.source,
                        *page,
                        render.dpi,
                        allowance,
                        render.timeout,
                        reader.wants_drawing(debug.as_deref()),
                    )
                    .map_err(std::io::Error::other)
                })
                .map_err(|e| (None, ReadError::Io(e)))?;
                let (rendered, drawing) = rendered;
                // The render has ended: only the page's pixels remain.
                share.shrink_to(reading);
                let dpi = Some(rendered.dpi);
                let mut timings = Timings::default();
                timings.lap("render", start);
                reader
                    .read_rendered(rendered, drawing.as_ref(), timings, debug.as_deref())
                    .map(|page| (page, dpi, share))
                    .map_err(|e| (dpi, e))
            }
            Unit::Broken { reason, .. } => {
                Err((None, std::io::Error::other(reason.clone()).into()))
            }
        }
    }

    /// How the unit is named in messages: `book.pdf page 12`, `photo.jpg`.
    pub fn label(&self) -> String {
        let name = if self.path() == Path::new("-") {
            "standard input".to_string()
        } else {
            self.path().display().to_string()
        };
        match self.page() {
            Some(page) => format!("{name} page {page}"),
            None => name,
        }
    }

    /// Whether the unit is a photo (a file or standard input), not a PDF
    /// page or a broken input.
    pub fn is_photo(&self) -> bool {
        matches!(self, Unit::Photo(_) | Unit::Stdin(_))
    }

    /// Whether the answer should be a JPEG: for a JPEG photo (by its name,
    /// or its bytes for standard input), as the photo was.
    pub fn is_jpeg(&self) -> bool {
        match self {
            Unit::Photo(path) => output::ImageKind::for_input(path) == output::ImageKind::Jpeg,
            Unit::Stdin(bytes) => {
                image::guess_format(bytes).is_ok_and(|f| f == image::ImageFormat::Jpeg)
            }
            _ => false,
        }
    }
}

/// The file stem, `photo` for a nameless path, `stdin` for standard input.
pub fn file_stem(path: &Path) -> String {
    if path == Path::new("-") {
        return STDIN_STEM.to_string();
    }
    path.file_stem()
        .map_or_else(|| "photo".into(), |s| s.to_string_lossy().into_owned())
}

/// The inputs named on the command line, folders expanded to the images
/// and PDFs in them (sorted by name, not recursive). A folder that cannot
/// be listed is an input of its own that fails with the reason; a folder
/// with nothing to read is named in `empty`.
#[derive(Debug, Default)]
pub struct Expanded {
    /// The inputs, in order.
    pub inputs: Vec<PathBuf>,
    /// Folders that could not be listed, with the reason.
    pub unlisted: Vec<(PathBuf, String)>,
    /// Folders that hold no photo or PDF.
    pub empty: Vec<PathBuf>,
}

impl Expanded {
    /// The units of work: the inputs planned (see [`plan`]), then each
    /// folder that could not be listed, failing with its reason.
    pub fn units(&self, pages: Option<&str>) -> Result<Vec<Unit>, Error> {
        let mut units = plan(&self.inputs, pages)?;
        units.extend(self.unlisted.iter().map(|(path, reason)| Unit::Broken {
            path: path.clone(),
            reason: reason.clone(),
        }));
        Ok(units)
    }
}

/// Expands `paths` (see [`Expanded`]).
pub fn expand(paths: &[PathBuf]) -> Expanded {
    let mut out = Expanded::default();
    for path in paths {
        if !path.is_dir() {
            // Files go through as they are: reading them reports any
            // problem with their name.
            out.inputs.push(path.clone());
            continue;
        }
        let listed = std::fs::read_dir(path).and_then(|entries| {
            entries
                .map(|e| e.map(|e| e.path()))
                .collect::<std::io::Result<Vec<PathBuf>>>()
        });
        match listed {
            Ok(entries) => {
                let mut found: Vec<PathBuf> =
                    entries.into_iter().filter(|p| is_input_name(p)).collect();
                found.sort();
                if found.is_empty() {
                    out.empty.push(path.clone());
                }
                out.inputs.extend(found);
            }
            Err(e) => out
                .unlisted
                .push((path.clone(), format!("cannot list this folder: {e}"))),
        }
    }
    out
}

/// True when the path ends in an image extension and is not one of our
/// answer images.
pub fn is_image_name(path: &Path) -> bool {
    is_input_name(path)
        && !path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("pdf"))
}

/// True when the path ends in an image or PDF extension and is not one of
/// our own outputs (answer images, hint images, answer keys).
pub fn is_input_name(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase());
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match (name, ext) {
        (Some(n), Some(e)) => {
            INPUT_EXTENSIONS.contains(&e.as_str())
                && !n.contains(".solved.")
                && !n.contains(".hint.")
                && !n.ends_with(".answers.pdf")
        }
        _ => false,
    }
}

/// True when the file is a PDF: by its first bytes, whatever its name (a
/// file that cannot be read, or is not a regular file, is not, and fails
/// later as a photo with the reason named). A file that starts with the
/// signature of an image format the photo path reads is a photo, whatever
/// text follows (see [`PDF_MARKER`]).
pub fn is_pdf(path: &Path) -> bool {
    head(path).is_some_and(|h| is_pdf_bytes(&h))
}

/// True when `bytes` start as a PDF does (see [`PDF_MARKER`]): a file is
/// a PDF by its first bytes, whatever its name.
fn is_pdf_bytes(bytes: &[u8]) -> bool {
    if snap_vision::has_photo_signature(bytes) {
        return false;
    }
    let window = &bytes[..bytes.len().min(PDF_MARKER_WINDOW)];
    window.windows(PDF_MARKER.len()).any(|w| w == PDF_MARKER)
}

/// The first [`SNIFF_BYTES`] of a regular file; `None` when it is not one
/// or cannot be read (it is then taken for a photo, and the photo path
/// says why it cannot be read).
fn head(path: &Path) -> Option<Vec<u8>> {
    // Only a regular file is opened here: opening a FIFO with no writer
    // would block, and the photo path refuses special files with a reason.
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return None;
    }
    let file = std::fs::File::open(path).ok()?;
    let mut head = Vec::with_capacity(SNIFF_BYTES);
    file.take(SNIFF_BYTES as u64).read_to_end(&mut head).ok()?;
    Some(head)
}

/// True when `bytes` are text, not an image: no image format knows them,
/// and they are UTF-8 (a character cut at the end of the sample allowed)
/// without control characters other than line breaks and tabs. A puzzle
/// typed into a file, given where a photo goes.
pub fn is_text(bytes: &[u8]) -> bool {
    if bytes.is_empty() || image::guess_format(bytes).is_ok() {
        return false;
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) if e.error_len().is_none() => {
            std::str::from_utf8(&bytes[..e.valid_up_to()]).unwrap_or_default()
        }
        Err(_) => return false,
    };
    !text.is_empty()
        && text
            .chars()
            .all(|c| !c.is_control() || matches!(c, '\n' | '\r' | '\t'))
}

/// Why a text file cannot be read as a photo, and what to do instead.
fn text_reason(path: &Path) -> String {
    let name = if path == Path::new("-") {
        "-".to_string()
    } else {
        shell_word(&path.display().to_string())
    };
    format!(
        "a text file, not a photo: to solve a text puzzle, use `sudoku-snap solve {name}` \
         (or give it to a photo with --givens)"
    )
}

/// A PDF error's message without the file name and page number it starts
/// with (the batch's messages name the input and page themselves).
pub fn reason(e: &PdfError, path: &Path) -> String {
    match e {
        // A file cut short loses the cross-reference table at its end, or
        // its page tree: what parses of it has no pages.
        PdfError::NoPages { .. } => {
            return "damaged file: no page could be found (cut short, or not a whole PDF)"
                .to_string();
        }
        // It starts as a PDF (that is how it was taken for one).
        PdfError::Invalid { .. } => {
            return "damaged file: not a readable PDF (cut short or broken)".to_string();
        }
        _ => {}
    }
    let text = e.to_string();
    let prefix = format!("{}: ", path.display());
    let text = text.strip_prefix(&prefix).unwrap_or(&text);
    let page = match e {
        PdfError::Render { page, .. }
        | PdfError::BadDpi { page, .. }
        | PdfError::TooCostly { page, .. } => Some(*page),
        _ => None,
    };
    let page_prefix = page.map(|p| format!("page {p}: "));
    page_prefix
        .and_then(|p| text.strip_prefix(&p))
        .unwrap_or(text)
        .to_string()
}

/// The units of work for `inputs`: each photo as it is, each PDF opened
/// (its page tree parsed, nothing rendered), split into the pages `pages`
/// selects (`--pages`, every page when `None`) and closed again.
///
/// `-` is standard input, read here whole (bounded as photos are): a photo
/// or a PDF, given once.
pub fn plan(inputs: &[PathBuf], pages: Option<&str>) -> Result<Vec<Unit>, Error> {
    let mut units = Vec::new();
    if inputs.iter().filter(|p| p.as_os_str() == "-").count() > 1 {
        return Err(Error::Usage(
            "- (standard input) is given more than once; it can be read only once".to_string(),
        ));
    }
    for path in inputs {
        let broken = |reason: String| Unit::Broken {
            path: path.clone(),
            reason,
        };
        let (book, doc) = if path.as_os_str() == "-" {
            let bytes = read_stdin().map_err(|source| Error::Input {
                name: "standard input".to_string(),
                source,
            })?;
            // A PDF's first bytes are text too: it is known first.
            if !is_pdf_bytes(&bytes) {
                if is_text(&bytes) {
                    units.push(broken(text_reason(path)));
                } else {
                    units.push(Unit::Stdin(Arc::new(bytes)));
                }
                continue;
            }
            let book = match BookFile::from_stdin(&bytes) {
                Ok(book) => book,
                Err(e) => {
                    units.push(broken(format!("cannot keep the PDF for its pages: {e}")));
                    continue;
                }
            };
            (book, PdfDoc::from_bytes(bytes, path))
        } else {
            let head = head(path).unwrap_or_default();
            if !is_pdf_bytes(&head) {
                if is_text(&head) {
                    units.push(broken(text_reason(path)));
                } else {
                    units.push(Unit::Photo(path.clone()));
                }
                continue;
            }
            (BookFile::file(path), PdfDoc::open(path))
        };
        // Opened to count and measure the pages, then closed: each page is
        // rendered from the file (see `BookFile`).
        let doc = match doc {
            Ok(doc) => doc,
            Err(e) => {
                units.push(broken(reason(&e, path)));
                continue;
            }
        };
        let count = doc.page_count();
        let range = match pages {
            Some(text) => match PageRange::parse(text, count) {
                Ok(range) => range,
                Err(e) => {
                    units.push(broken(format!("--pages {text}: {e}")));
                    continue;
                }
            },
            None => PageRange::all(count),
        };
        let width = count.to_string().len().max(3);
        let book = Arc::new(BookFile {
            pages: count,
            ..book
        });
        for page in range.pages() {
            units.push(match doc.page_size_pt(page) {
                Ok(size_pt) => Unit::PdfPage {
                    book: Arc::clone(&book),
                    page,
                    size_pt,
                    width,
                },
                Err(e) => broken(reason(&e, path)),
            });
        }
    }
    Ok(units)
}

/// Standard input, whole, bounded as a photo file is.
pub fn read_stdin() -> std::io::Result<Vec<u8>> {
    let limit = snap_vision::MAX_FILE_BYTES;
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(limit + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("more than {limit} bytes"),
        ));
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_names() {
        assert!(is_input_name(Path::new("a/photo.JPG")));
        assert!(is_input_name(Path::new("scan.tiff")));
        assert!(is_input_name(Path::new("book.PDF")));
        assert!(!is_input_name(Path::new("photo.solved.png")));
        assert!(!is_input_name(Path::new("book.answers.pdf")));
        assert!(!is_input_name(Path::new("photo.hint.jpg")));
        assert!(!is_input_name(Path::new("notes.txt")));
    }

    #[test]
    fn pdfs_are_known_by_their_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let named_jpg = dir.path().join("scan.jpg");
        std::fs::write(&named_jpg, b"\n%PDF-1.7\n...").unwrap();
        assert!(is_pdf(&named_jpg));
        let photo = dir.path().join("photo.pdf");
        std::fs::write(&photo, [0xff, 0xd8, 0xff, 0xe0]).unwrap();
        assert!(!is_pdf(&photo));
        // A JPEG whose comment holds the marker is still a JPEG.
        let commented = dir.path().join("commented.jpg");
        let mut jpeg = vec![0xff, 0xd8, 0xff, 0xfe, 0x00, 0x0b];
        jpeg.extend_from_slice(b"%PDF-1.4\n");
        std::fs::write(&commented, jpeg).unwrap();
        assert!(!is_pdf(&commented));
        assert!(!is_pdf(&dir.path().join("missing.pdf")));
    }

    #[test]
    fn a_text_file_is_no_photo() {
        assert!(is_text(
            b"4.....8.5.3..........7......2.....6.....8.4......1...\n"
        ));
        assert!(is_text("5 3 . | . 7 .\n\u{e9}".as_bytes()));
        // A character cut at the end of the sample is still text.
        assert!(is_text(&"r\u{e9}".as_bytes()[..2]));
        assert!(!is_text(&[0xff, 0xd8, 0xff, 0xe0, 0, 16]));
        assert!(!is_text(b"\x89PNG\r\n\x1a\n"));
        assert!(!is_text(b"text with a \0 in it"));
        let dir = tempfile::tempdir().unwrap();
        let text = dir.path().join("puzzle.txt");
        std::fs::write(&text, "4.....8.5.3...\n").unwrap();
        let units = plan(std::slice::from_ref(&text), None).unwrap();
        assert!(
            matches!(units.as_slice(), [Unit::Broken { reason, .. }] if reason.contains("sudoku-snap solve")),
            "{units:?}"
        );
    }

    #[test]
    fn a_damaged_pdf_is_one_broken_unit() {
        let dir = tempfile::tempdir().unwrap();
        let bad = dir.path().join("bad.pdf");
        std::fs::write(&bad, b"%PDF-1.4\nnot really a pdf").unwrap();
        let units = plan(std::slice::from_ref(&bad), None).unwrap();
        assert!(
            matches!(units.as_slice(), [Unit::Broken { reason, .. }] if reason.contains("not a readable PDF")),
            "{units:?}"
        );
    }

    #[test]
    fn messages_name_the_page_once_and_a_cut_file_as_damaged() {
        let path = Path::new("book.pdf");
        let render = PdfError::Render {
            path: path.to_path_buf(),
            page: 1,
            reason: "bad font".into(),
        };
        // The batch says `book.pdf page 1: ` itself.
        assert_eq!(reason(&render, path), "cannot render: bad font");
        let cut = PdfError::NoPages {
            path: path.to_path_buf(),
        };
        assert!(reason(&cut, path).starts_with("damaged file: "));
    }

    #[test]
    fn folders_expand_and_name_their_problems() {
        let dir = tempfile::tempdir().unwrap();
        let empty = dir.path().join("empty");
        std::fs::create_dir(&empty).unwrap();
        let full = dir.path().join("full");
        std::fs::create_dir(&full).unwrap();
        std::fs::write(full.join("b.jpg"), b"x").unwrap();
        std::fs::write(full.join("a.pdf"), b"x").unwrap();
        std::fs::write(full.join("notes.txt"), b"x").unwrap();
        let file = dir.path().join("c.png");
        let expanded = expand(&[empty.clone(), full.clone(), file.clone()]);
        assert_eq!(
            expanded.inputs,
            [full.join("a.pdf"), full.join("b.jpg"), file]
        );
        assert_eq!(expanded.empty, [empty]);
        assert!(expanded.unlisted.is_empty());
    }

    #[test]
    fn pages_are_numbered_so_they_sort() {
        let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/pdf/postonwj_puzzles.pdf");
        let units = plan(&[book], Some("2")).unwrap();
        let [unit] = units.as_slice() else {
            panic!("{units:?}")
        };
        assert_eq!(unit.page(), Some(2));
        assert_eq!(unit.output_stem(), "postonwj_puzzles.p002");
        assert!(unit.label().ends_with("postonwj_puzzles.pdf page 2"));
    }
}
