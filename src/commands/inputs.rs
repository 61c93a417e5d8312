//! What the main job reads: photos and PDF books, given one by one or as
//! folders, turned into a list of *pages* to process. A photo is one page;
//! a PDF is one page per selected page, rendered only when its turn comes
//! (so a book of hundreds of pages never sits in memory as pixels).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use snap_vision::{Page, PageImage, PageRange, PdfDoc, PdfError, ReadError, Reader, Timings};

use super::shell_word;
use crate::error::Error;
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
    /// One page of an opened PDF.
    PdfPage {
        /// The book.
        doc: Arc<PdfDoc>,
        /// The page, 1-based.
        page: usize,
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

impl Unit {
    /// The input file this unit comes from.
    pub fn path(&self) -> &Path {
        match self {
            Unit::Photo(path) | Unit::Broken { path, .. } => path,
            Unit::Stdin(_) => Path::new("-"),
            Unit::PdfPage { doc, .. } => doc.path(),
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

    /// Reads the unit: a photo from its file, a PDF page rendered at `dpi`
    /// (lowered for an oversized page) and read. The render resolution
    /// comes back with the page, and with the error when there is one.
    /// `debug_dir` receives the intermediate images (`<debug_dir>/<stem>/`).
    /// After Ctrl-C nothing new is started: the error says it was skipped.
    pub fn read(
        &self,
        reader: &Reader,
        dpi: f32,
        debug_dir: Option<&Path>,
    ) -> Result<(Page, Option<f32>), (Option<f32>, ReadError)> {
        match self {
            Unit::Photo(path) => output::unless_interrupted(|| reader.read_file(path))
                .map(|page| (page, None))
                .map_err(|e| (None, e)),
            Unit::Stdin(bytes) => {
                let debug = debug_dir.map(|d| d.join(STDIN_STEM));
                output::unless_interrupted(|| reader.read_bytes(bytes, debug.as_deref()))
                    .map(|page| (page, None))
                    .map_err(|e| (None, e))
            }
            Unit::PdfPage { doc, page, .. } => {
                let start = Instant::now();
                let rendered = output::unless_interrupted(|| {
                    render_within(doc, *page, dpi, RENDER_TIMEOUT).map_err(std::io::Error::other)
                })
                .map_err(|e| (None, ReadError::Io(e)))?;
                let dpi = Some(rendered.dpi);
                let mut timings = Timings::default();
                timings.lap("render", start);
                let debug = debug_dir.map(|d| d.join(self.output_stem()));
                reader
                    .read_pdf_page(doc, rendered, timings, debug.as_deref())
                    .map(|page| (page, dpi))
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

/// Longest a PDF page may take to render. A typeset page renders in
/// milliseconds and a scanned one in well under a second; a page that takes
/// a minute is hostile or broken (forms drawing forms, millions of fills),
/// and the batch must not wait on it for ever.
pub const RENDER_TIMEOUT: Duration = Duration::from_secs(60);

/// Renders `page` of `doc` on a thread of its own and waits at most
/// `timeout`. The renderer has no way to be stopped, so a page past the
/// deadline is reported and left to finish in the background (its memory
/// is bounded by the render's pixel limit; the thread ends with the
/// process), and the batch goes on.
pub fn render_within(
    doc: &Arc<PdfDoc>,
    page: usize,
    dpi: f32,
    timeout: Duration,
) -> Result<PageImage, String> {
    let (send, receive) = mpsc::channel();
    let book = Arc::clone(doc);
    std::thread::Builder::new()
        .name(format!("render page {page}"))
        .spawn(move || {
            // The receiver is gone when the deadline passed: nothing to do.
            let _ = send.send(book.render_page(page, dpi));
        })
        .map_err(|e| format!("cannot start rendering: {e}"))?;
    match receive.recv_timeout(timeout) {
        Ok(rendered) => rendered.map_err(|e| reason(&e, doc.path())),
        Err(mpsc::RecvTimeoutError::Timeout) => Err(format!(
            "rendering took over {} s; page skipped",
            timeout.as_secs()
        )),
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            Err("the renderer stopped without a result".to_string())
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
        PdfError::Render { page, .. } | PdfError::BadDpi { page, .. } => Some(*page),
        _ => None,
    };
    let page_prefix = page.map(|p| format!("page {p}: "));
    page_prefix
        .and_then(|p| text.strip_prefix(&p))
        .unwrap_or(text)
        .to_string()
}

/// The units of work for `inputs`: each photo as it is, each PDF opened
/// (its page tree parsed, nothing rendered) and split into the pages
/// `pages` selects (`--pages`, every page when `None`).
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
        let doc = if path.as_os_str() == "-" {
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
            PdfDoc::from_bytes(bytes, path)
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
            PdfDoc::open(path)
        };
        let doc = match doc {
            Ok(doc) => Arc::new(doc),
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
        units.extend(range.pages().map(|page| Unit::PdfPage {
            doc: Arc::clone(&doc),
            page,
            width,
        }));
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
    fn a_page_that_renders_for_ever_is_skipped_at_the_deadline() {
        // Forms drawing forms ten times, eight deep: 10^8 fills (found by
        // fuzzing). Its render goes on in the background until the tests end.
        let slow = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fuzz/regressions/pdf_read/slow-form-fanout.pdf");
        let doc = Arc::new(PdfDoc::open(&slow).unwrap());
        let start = std::time::Instant::now();
        let err = render_within(&doc, 1, 72.0, Duration::from_millis(300)).unwrap_err();
        assert!(err.contains("rendering took over"), "{err}");
        assert!(start.elapsed() < Duration::from_secs(5));
        // A normal page is well within any deadline.
        let book = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/pdf/postonwj_puzzles.pdf");
        let doc = Arc::new(PdfDoc::open(&book).unwrap());
        assert!(render_within(&doc, 1, 72.0, RENDER_TIMEOUT).is_ok());
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
