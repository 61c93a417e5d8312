//! What the main job reads: photos and PDF books, given one by one or as
//! folders, turned into a list of *pages* to process. A photo is one page;
//! a PDF is one page per selected page, rendered only when its turn comes
//! (so a book of hundreds of pages never sits in memory as pixels).

use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

use snap_vision::{Page, PageImage, PageRange, PdfDoc, PdfError, ReadError, Reader, Timings};

use crate::output;

/// File name endings taken from a folder: images, and PDF books.
const INPUT_EXTENSIONS: [&str; 9] = [
    "jpg", "jpeg", "png", "webp", "bmp", "tif", "tiff", "gif", "pdf",
];

/// A PDF file starts with `%PDF-`; readers accept the marker anywhere in
/// the first 1024 bytes (some files carry junk before it), and so do we.
const PDF_MARKER: &[u8] = b"%PDF-";

/// How far into a file the PDF marker is looked for (see [`PDF_MARKER`]).
const PDF_MARKER_WINDOW: usize = 1024;

/// One unit of work of the main job.
#[derive(Debug, Clone)]
pub enum Unit {
    /// A photo (or any image file): one page.
    Photo(PathBuf),
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
                    .read_decoded(rendered.image, timings, debug.as_deref())
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
        match self.page() {
            Some(page) => format!("{} page {page}", self.path().display()),
            None => self.path().display().to_string(),
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

/// The file stem, `photo` for a nameless path.
pub fn file_stem(path: &Path) -> String {
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
    pub fn units(&self, pages: Option<&str>) -> Vec<Unit> {
        let mut units = plan(&self.inputs, pages);
        units.extend(self.unlisted.iter().map(|(path, reason)| Unit::Broken {
            path: path.clone(),
            reason: reason.clone(),
        }));
        units
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
/// later as a photo with the reason named).
pub fn is_pdf(path: &Path) -> bool {
    // Only a regular file is opened here: opening a FIFO with no writer
    // would block, and the photo path refuses special files with a reason.
    if !std::fs::metadata(path).is_ok_and(|m| m.is_file()) {
        return false;
    }
    let Ok(file) = std::fs::File::open(path) else {
        return false;
    };
    let mut head = Vec::with_capacity(PDF_MARKER_WINDOW);
    if file
        .take(PDF_MARKER_WINDOW as u64)
        .read_to_end(&mut head)
        .is_err()
    {
        return false;
    }
    head.windows(PDF_MARKER.len()).any(|w| w == PDF_MARKER)
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
pub fn plan(inputs: &[PathBuf], pages: Option<&str>) -> Vec<Unit> {
    let mut units = Vec::new();
    for path in inputs {
        if !is_pdf(path) {
            units.push(Unit::Photo(path.clone()));
            continue;
        }
        let broken = |reason: String| Unit::Broken {
            path: path.clone(),
            reason,
        };
        let doc = match PdfDoc::open(path) {
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
    units
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
        assert!(!is_pdf(&dir.path().join("missing.pdf")));
    }

    #[test]
    fn a_damaged_pdf_is_one_broken_unit() {
        let dir = tempfile::tempdir().unwrap();
        let bad = dir.path().join("bad.pdf");
        std::fs::write(&bad, b"%PDF-1.4\nnot really a pdf").unwrap();
        let units = plan(std::slice::from_ref(&bad), None);
        assert!(
            matches!(units.as_slice(), [Unit::Broken { reason, .. }] if reason.contains("not a readable PDF"))
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
        let units = plan(&[book], Some("2"));
        let [unit] = units.as_slice() else {
            panic!("{units:?}")
        };
        assert_eq!(unit.page(), Some(2));
        assert_eq!(unit.output_stem(), "postonwj_puzzles.p002");
        assert!(unit.label().ends_with("postonwj_puzzles.pdf page 2"));
    }
}
