//! PDF pages rendered in child processes, each page under a memory limit
//! and a deadline: the batch keeps a few `sudoku-snap __render-pages`
//! processes, sends each page to one, reads the page's pixels back, and
//! stops a child whose page passes its deadline.
//!
//! Why a process: the renderer (hayro) has no budget of its own and no way
//! to be stopped. Its pages are measured before rendering (images, decoded
//! bytes, drawing operations: `snap_vision::PdfDoc::render_page`), which
//! refuses the known bombs with a reason, but a measure only covers what it
//! knows (a fill repeated with a tiling pattern, soft masks, a filter it
//! does not decode); a thread past its deadline cannot be stopped and keeps
//! its memory until the process ends, and an allocation that fails aborts
//! the whole process with every other page of the batch. A child can be
//! killed at its deadline, and its address-space limit (`RLIMIT_AS`) turns
//! any allocation beyond the page's allowance into the end of that child
//! alone; either way its memory returns to the system at once and the batch
//! goes on with one line for that page.
//!
//! Why long-lived children: starting a process and parsing the book for
//! every page costs more than rendering a typeset page does, and a book of
//! 500 generated pages is read in about 30 s on two cores. So a child
//! renders page after page: it keeps the book it was last sent open
//! (mapped, so that children share its bytes in the page cache), sets its
//! limits afresh before each page (its address space now plus the page's
//! allowance; its processor time now plus the deadline), and after each
//! page returns its free memory to the system. Idle children wait in a
//! pool, one taken per page (one with the same book open when there is
//! one); a child that is killed or dies is dropped and the next page starts
//! a new one. There are never more children than pages rendering at once,
//! and those are bounded by the run's memory budget. Measured on a
//! 500-page generated book (`scripts/bounds.sh` names the command):
//! a few milliseconds a page over rendering in the batch's own process,
//! most of it the copy of the page's pixels through the pipe.
//!
//! A child ends when its standard input closes (the batch ended, or died:
//! the rest of a page it was rendering is bounded by its processor limit)
//! and ignores Ctrl-C, which the batch handles by finishing the pages
//! under way.
//!
//! Protocol, little-endian: a request is [`REQUEST`], the page (`u64`),
//! the resolution (`f32`), the allowance in bytes (`u64`), the deadline in
//! seconds (`u64`), whether the batch reads pages from the child's page
//! file (`u8`, see [`PageFile`]), whether the page's drawing is read too
//! (`u8`), then the book's path (`u32` length and its bytes). A reply is
//! [`PAGE`], width and height (`u32`), the resolution used (`f32`) and the
//! RGB pixels; or [`SHARED_PAGE`], the same header and the page file's
//! descriptor (`u32`), the pixels in that file; either followed by the
//! page's drawing (`u32` length, zero when not asked for, and
//! `snap_vision::Drawing`'s bytes); or [`FAILED`] and a one-line message
//! (`u32` length and UTF-8). Anything else ends the child.
//!
//! Why the drawing is read here: a typeset page is read from its drawing
//! (`snap_vision::PdfDoc::drawing`), which interprets the page's content as
//! rendering does, so it runs under the same limits, next to the render;
//! the batch checks it against the pixels.

use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use image::RgbImage;
use snap_vision::{
    Drawing, PageImage, PdfDoc, MAX_DECODED_BYTES, MAX_PDF_BYTES, MAX_RENDER_PIXELS,
};

use super::inputs::reason;
use crate::exit_codes::ExitCode;
use crate::limits::DEFAULT_PAGE_TIMEOUT_SECONDS;

/// The name of the hidden command a child runs.
pub const COMMAND: &str = "__render-pages";

/// What a request starts with.
const REQUEST: &[u8; 8] = b"SNAPRNDR";

/// Bytes of a request before the book's path.
const REQUEST_HEAD: usize = 42;

/// The most bytes of a page's drawing a reply holds: a page of a hundred
/// and fifty grids, every cell a clue, is about a megabyte.
const MAX_DRAWING_BYTES: usize = 4 << 20;

/// What a rendered page's reply starts with.
const PAGE: &[u8; 8] = b"SNAPPAGE";

/// What a rendered page's reply starts with when its pixels are in the
/// child's page file rather than in the reply (see [`PageFile`]).
const SHARED_PAGE: &[u8; 8] = b"SNAPSHRD";

/// What a failed page's reply starts with.
const FAILED: &[u8; 8] = b"SNAPFAIL";

/// Longest a PDF page may take to render unless `--page-timeout` says
/// otherwise (see [`DEFAULT_PAGE_TIMEOUT_SECONDS`]).
pub const RENDER_TIMEOUT: Duration = Duration::from_secs(DEFAULT_PAGE_TIMEOUT_SECONDS);

/// Address space a render may add to what its child holds before the page
/// (the program, the book's mapped file, its parsed objects), besides its
/// pixels: the page's decoded streams and images (at most
/// [`MAX_DECODED_BYTES`], counted twice: a filter's input and output, an
/// image decoded and converted, are held together) and 128 MiB for the
/// renderer's own tables, fonts and glyph caches. Measured: a page of the
/// shared scanned book renders in 39 MB at 150 dpi and 297 MB at 1200 dpi
/// (40 MP), all told.
pub const RENDER_BASE_BYTES: u64 = 2 * MAX_DECODED_BYTES + (128 << 20);

/// Bytes per pixel of the render a child may hold: the renderer's RGBA
/// pixmap (4), the RGB copy written out (3), and one spare for its strips
/// and masks.
pub const RENDER_BYTES_PER_PIXEL: u64 = 8;

/// The memory (address space) a render may use beyond its child's start,
/// for a page of `pixels`.
pub fn render_allowance(pixels: u64) -> u64 {
    RENDER_BASE_BYTES + RENDER_BYTES_PER_PIXEL * pixels
}

/// Processor seconds a child may use past the deadline before the system
/// stops it: the batch kills it at the deadline, and this ends it should
/// the batch be gone.
const CPU_SLACK_SECONDS: u64 = 5;

/// Most bytes of a message read from a child (a reply's, or its last line
/// on standard error).
const MESSAGE_BYTES: usize = 4096;

/// Bytes the pipe a child writes its pages to holds, where the system
/// allows it (Linux: up to `/proc/sys/fs/pipe-max-size`, 1 MiB by
/// default). A page at 150 dpi is 6.3 MB of pixels: through the usual
/// 64 KiB pipe that is a hundred hand-overs between the child and the
/// batch, each a wait for a core on a busy machine; through 1 MiB, seven.
#[cfg(target_os = "linux")]
const PIPE_BYTES: libc::c_int = 1 << 20;

/// Idle children, each with the book it has open.
static IDLE: Mutex<Vec<Child>> = Mutex::new(Vec::new());

/// Renders `page` of the PDF at `book` at `dpi` in a child process (see the
/// module's comment), allowing the render `allowance` bytes and `timeout`.
/// The error is one line, without the file's name or page (the batch adds
/// them).
pub fn render_page(
    book: &Path,
    page: usize,
    dpi: f32,
    allowance: u64,
    timeout: Duration,
    drawing: bool,
) -> Result<(PageImage, Option<Drawing>), String> {
    let mut request = Request {
        page: page as u64,
        dpi,
        allowance,
        seconds: timeout.as_secs().max(1),
        shared: false,
        drawing,
        book: book.to_path_buf(),
    };
    let mut child = take_idle(book);
    if let Some(idle) = &mut child {
        // An idle child may have died since (the system ended it): a
        // request it cannot take goes to a new one.
        request.shared = idle.shared;
        if idle.send(&request).is_err() {
            child = None;
        }
    }
    let mut child = match child {
        Some(child) => child,
        None => {
            let mut child = Child::start()?;
            request.shared = child.shared;
            child
                .send(&request)
                .map_err(|e| format!("cannot send the page to its renderer: {e}"))?;
            child
        }
    };
    match child.replies.recv_timeout(timeout) {
        Ok(Reply::Page { rgb, dpi, drawing }) => {
            child.book = Some(request.book);
            put_idle(child);
            Ok((PageImage::from_rgb(page, dpi, rgb), drawing))
        }
        Ok(Reply::Failed(message)) => {
            child.book = Some(request.book);
            put_idle(child);
            Err(message)
        }
        Ok(Reply::Ended(damage)) => {
            let (status, last_line) = child.end();
            Err(damage.unwrap_or_else(|| failure(status, &last_line, allowance)))
        }
        Err(RecvTimeoutError::Disconnected) => {
            let (status, last_line) = child.end();
            Err(failure(status, &last_line, allowance))
        }
        Err(RecvTimeoutError::Timeout) => {
            child.end();
            Err(format!(
                "rendering took over {} s; stopped",
                timeout.as_secs()
            ))
        }
    }
}

/// Ends the idle children (all of them, once the run's pages are done):
/// each ends when its input closes, and is waited for.
pub fn end_children() {
    let children = std::mem::take(&mut *IDLE.lock().unwrap_or_else(PoisonError::into_inner));
    for child in children {
        child.close();
    }
}

/// An idle child, preferably one with `book` open.
fn take_idle(book: &Path) -> Option<Child> {
    let mut idle = IDLE.lock().unwrap_or_else(PoisonError::into_inner);
    let at = idle
        .iter()
        .position(|c| c.book.as_deref() == Some(book))
        .or_else(|| idle.len().checked_sub(1))?;
    Some(idle.swap_remove(at))
}

fn put_idle(child: Child) {
    IDLE.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .push(child);
}

/// One page to render.
struct Request {
    page: u64,
    dpi: f32,
    allowance: u64,
    seconds: u64,
    /// Whether the batch reads the pixels from the child's page file.
    shared: bool,
    /// Whether the page's drawing is read too ([`PdfDoc::drawing`]).
    drawing: bool,
    book: PathBuf,
}

impl Request {
    fn encode(&self) -> Vec<u8> {
        let path = path_bytes(&self.book);
        let mut out = Vec::with_capacity(REQUEST_HEAD + path.len());
        out.extend_from_slice(REQUEST);
        out.extend_from_slice(&self.page.to_le_bytes());
        out.extend_from_slice(&self.dpi.to_bits().to_le_bytes());
        out.extend_from_slice(&self.allowance.to_le_bytes());
        out.extend_from_slice(&self.seconds.to_le_bytes());
        out.push(u8::from(self.shared));
        out.push(u8::from(self.drawing));
        out.extend_from_slice(&(path.len() as u32).to_le_bytes());
        out.extend_from_slice(&path);
        out
    }

    /// The next request on `input`; `None` at its end (or on bytes that
    /// are no request).
    fn decode(input: &mut impl Read) -> Option<Request> {
        let mut head = [0u8; REQUEST_HEAD];
        input.read_exact(&mut head).ok()?;
        if &head[..8] != REQUEST {
            return None;
        }
        let word = |at: usize| u64::from_le_bytes(head[at..at + 8].try_into().unwrap_or([0; 8]));
        let len = u32::from_le_bytes(head[38..42].try_into().unwrap_or([0; 4])) as usize;
        // A path is at most a few kilobytes; the batch sends nothing larger.
        if len > MESSAGE_BYTES {
            return None;
        }
        let mut path = vec![0u8; len];
        input.read_exact(&mut path).ok()?;
        Some(Request {
            page: word(8),
            dpi: f32::from_bits(u32::from_le_bytes(head[16..20].try_into().ok()?)),
            allowance: word(20),
            seconds: word(28),
            shared: head[36] == 1,
            drawing: head[37] == 1,
            book: path_from_bytes(path),
        })
    }
}

/// What a child answered.
enum Reply {
    Page {
        rgb: RgbImage,
        dpi: f32,
        /// The page's drawing, when asked for and readable.
        drawing: Option<Drawing>,
    },
    Failed(String),
    /// The child's output ended, or held something other than a reply
    /// (said so when it did).
    Ended(Option<String>),
}

/// A render child and its pipes.
struct Child {
    process: std::process::Child,
    /// Its standard input; closed (`None`) to end it.
    requests: Option<ChildStdin>,
    replies: Receiver<Reply>,
    /// Reads the child's standard error to its end, and gives its last
    /// line.
    stderr: Option<std::thread::JoinHandle<String>>,
    /// The book it has open.
    book: Option<PathBuf>,
    /// Whether its page file can be read (see [`PageFile`]).
    shared: bool,
}

impl Child {
    /// Starts a child: this very binary, running the hidden command.
    fn start() -> Result<Child, String> {
        let mut process = Command::new(this_program())
            .arg(COMMAND)
            // A backtrace would turn the child's one line into thirty.
            .env_remove("RUST_BACKTRACE")
            .env_remove("RUST_LIB_BACKTRACE")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start the page renderer: {e}"))?;
        let (Some(requests), Some(stdout), Some(stderr)) = (
            process.stdin.take(),
            process.stdout.take(),
            process.stderr.take(),
        ) else {
            let _ = process.kill();
            let _ = process.wait();
            return Err("cannot start the page renderer: no pipes".to_string());
        };
        let (send, replies) = mpsc::channel();
        let pid = process.id();
        std::thread::spawn(move || {
            let mut out = BufReader::with_capacity(1 << 16, stdout);
            let mut pages = PageFile::of_child(pid);
            loop {
                let reply = read_reply(&mut out, &mut pages);
                let ended = matches!(reply, Reply::Ended(_));
                if send.send(reply).is_err() || ended {
                    return;
                }
            }
        });
        let stderr = std::thread::spawn(move || last_line(stderr));
        Ok(Child {
            process,
            requests: Some(requests),
            replies,
            stderr: Some(stderr),
            book: None,
            shared: PageFile::reachable(pid),
        })
    }

    fn send(&mut self, request: &Request) -> std::io::Result<()> {
        let Some(requests) = &mut self.requests else {
            return Err(std::io::ErrorKind::BrokenPipe.into());
        };
        requests.write_all(&request.encode())?;
        requests.flush()
    }

    /// Closes the child's input, so that it ends once its page is done, and
    /// waits for it.
    fn close(mut self) {
        self.requests = None;
        let _ = self.process.wait();
    }

    /// Stops the child (it is ours, by its handle) and waits for it: its
    /// status and the last line it wrote.
    fn end(mut self) -> (Option<ExitStatus>, String) {
        let _ = self.process.kill();
        let status = self.process.wait().ok();
        // Its standard error closed when it ended: the reader is at its end.
        let line = self
            .stderr
            .take()
            .and_then(|reader| reader.join().ok())
            .unwrap_or_default();
        (status, line)
    }
}

impl Drop for Child {
    fn drop(&mut self) {
        // An idle child ends when its input closes; one dropped mid-page
        // (the batch is ending) is stopped.
        if matches!(self.process.try_wait(), Ok(None)) {
            let _ = self.process.kill();
        }
        let _ = self.process.wait();
    }
}

/// The program to run: this very binary (`/proc/self/exe` on Linux, which
/// holds even when the file was replaced since it started).
fn this_program() -> PathBuf {
    let proc_self = Path::new("/proc/self/exe");
    if proc_self.exists() {
        return proc_self.to_path_buf();
    }
    std::env::current_exe().unwrap_or_else(|_| PathBuf::from("sudoku-snap"))
}

/// The last non-empty line of `stderr` (at most [`MESSAGE_BYTES`]) once
/// the pipe closes, less std's notes (after an abort, how to see a
/// backtrace).
fn last_line(stderr: impl Read) -> String {
    let mut lines = BufReader::new(stderr);
    let mut line = Vec::new();
    let mut last = String::new();
    loop {
        line.clear();
        let read = (&mut lines)
            .take(MESSAGE_BYTES as u64)
            .read_until(b'\n', &mut line);
        match read {
            Ok(0) | Err(_) => return last,
            Ok(_) => {
                let text = String::from_utf8_lossy(&line).trim().to_string();
                if !text.is_empty() && !text.starts_with("note: ") {
                    last = text;
                }
            }
        }
    }
}

/// Reads one reply: a page (its header checked before any buffer is sized
/// from it), a failure, or the end. A page's pixels follow its header, or
/// are in the child's page file (`pages`).
fn read_reply(out: &mut impl Read, pages: &mut PageFile) -> Reply {
    let mut tag = [0u8; 8];
    if out.read_exact(&mut tag).is_err() {
        return Reply::Ended(None);
    }
    let damaged = |what: &str| {
        Reply::Ended(Some(format!(
            "the page renderer's output is damaged: {what}"
        )))
    };
    match &tag {
        t if t == PAGE || t == SHARED_PAGE => {
            let mut head = [0u8; 16];
            let head_len = if t == PAGE { 12 } else { 16 };
            if out.read_exact(&mut head[..head_len]).is_err() {
                return damaged("a short header");
            }
            let word = |at: usize| {
                u32::from_le_bytes([head[at], head[at + 1], head[at + 2], head[at + 3]])
            };
            let (width, height, dpi) = (word(0), word(4), f32::from_bits(word(8)));
            let pixels = u64::from(width) * u64::from(height);
            // The child renders within the same pixel limit.
            if pixels == 0 || pixels as f64 > MAX_RENDER_PIXELS * 1.01 {
                return damaged(&format!("a {width}x{height} page"));
            }
            let mut rgb = vec![0u8; pixels as usize * 3];
            let read = if t == PAGE {
                out.read_exact(&mut rgb)
            } else {
                pages.read(word(12), &mut rgb)
            };
            if let Err(e) = read {
                return damaged(&format!("a short page ({e})"));
            }
            let bytes = match read_block(out, MAX_DRAWING_BYTES) {
                Ok(bytes) => bytes,
                Err(Block::Short) => return damaged("a short drawing"),
                Err(Block::TooLong) => return damaged("a drawing too long"),
            };
            // Bytes that are no drawing leave the page to its pixels.
            let drawing = (!bytes.is_empty())
                .then(|| Drawing::from_bytes(&bytes))
                .flatten();
            match RgbImage::from_raw(width, height, rgb) {
                Some(rgb) => Reply::Page { rgb, dpi, drawing },
                None => damaged("a short page"),
            }
        }
        t if t == FAILED => match read_block(out, MESSAGE_BYTES) {
            Ok(text) => Reply::Failed(String::from_utf8_lossy(&text).into_owned()),
            Err(Block::Short) => damaged("a short message"),
            Err(Block::TooLong) => damaged("a message too long"),
        },
        _ => damaged("no reply header"),
    }
}

/// Why a length-prefixed block of a reply could not be read.
enum Block {
    /// The output ended before the block did.
    Short,
    /// Its length is past the bound for its kind.
    TooLong,
}

/// A block of a reply: its length (`u32`), at most `max`, then its bytes.
fn read_block(out: &mut impl Read, max: usize) -> Result<Vec<u8>, Block> {
    let mut len = [0u8; 4];
    out.read_exact(&mut len).map_err(|_| Block::Short)?;
    let len = u32::from_le_bytes(len) as usize;
    if len > max {
        return Err(Block::TooLong);
    }
    let mut bytes = vec![0u8; len];
    out.read_exact(&mut bytes).map_err(|_| Block::Short)?;
    Ok(bytes)
}

/// A child's page file: a file in memory, without a name, that the child
/// writes each page's pixels to and the batch reads them from
/// (`/proc/PID/fd/N`). Through the pipe, a page at 150 dpi (6.3 MB) is
/// several hand-overs between the two processes, each a wait for a core
/// on a busy machine (measured on a 500-page book on two busy cores: 32 ms
/// a page); through the file, one. Linux only; elsewhere the pixels follow
/// the reply.
struct PageFile {
    /// The child whose file it is (the batch's side), or none.
    child: Option<u32>,
    file: Option<std::fs::File>,
}

impl PageFile {
    /// The batch's side, for the child `pid`: opened at its first page.
    fn of_child(pid: u32) -> PageFile {
        PageFile {
            child: Some(pid),
            file: None,
        }
    }

    /// The child's side: its own file, made now (none where the system
    /// has no such file: pages then go through the pipe).
    fn create() -> PageFile {
        #[cfg(target_os = "linux")]
        let file = {
            use std::os::fd::FromRawFd;
            // SAFETY: memfd_create takes a C string and flags, and returns
            // a new descriptor this process owns (or -1).
            let fd = unsafe { libc::memfd_create(c"sudoku-snap-page".as_ptr(), libc::MFD_CLOEXEC) };
            // SAFETY: a descriptor just made, owned by nothing else.
            (fd >= 0).then(|| unsafe { std::fs::File::from_raw_fd(fd) })
        };
        #[cfg(not(target_os = "linux"))]
        let file = None;
        PageFile { child: None, file }
    }

    /// Whether the batch may open the files of child `pid` (`/proc` may be
    /// mounted without that right): if not, pages go through the pipe.
    fn reachable(pid: u32) -> bool {
        cfg!(target_os = "linux") && std::fs::read_link(format!("/proc/{pid}/fd/0")).is_ok()
    }

    /// Reads `rgb.len()` bytes of the child's file descriptor `fd`, then
    /// empties the file after a large page (see [`KEEP_MEMORY_PIXELS`]).
    fn read(&mut self, fd: u32, rgb: &mut [u8]) -> std::io::Result<()> {
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::fs::FileExt;
            if self.file.is_none() {
                let pid = self.child.unwrap_or(0);
                let file = std::fs::OpenOptions::new()
                    .read(true)
                    .write(true)
                    .open(format!("/proc/{pid}/fd/{fd}"))?;
                self.file = Some(file);
            }
            let Some(file) = &self.file else {
                return Err(std::io::ErrorKind::NotFound.into());
            };
            file.read_exact_at(rgb, 0)?;
            if rgb.len() as u64 / 3 > KEEP_MEMORY_PIXELS {
                file.set_len(0)?;
            }
            Ok(())
        }
        #[cfg(not(target_os = "linux"))]
        {
            let _ = (fd, rgb);
            Err(std::io::ErrorKind::Unsupported.into())
        }
    }

    /// Writes a page: its pixels to the file and a reply naming it, or
    /// (`shared` false, without a file, or when writing it fails) the
    /// pixels in the reply; then its `drawing`'s bytes (none when not
    /// asked for).
    fn write(
        &mut self,
        out: &mut impl Write,
        rgb: &RgbImage,
        dpi: f32,
        shared: bool,
        drawing: &[u8],
    ) -> std::io::Result<()> {
        let tail = |out: &mut dyn Write| -> std::io::Result<()> {
            out.write_all(&(drawing.len() as u32).to_le_bytes())?;
            out.write_all(drawing)?;
            out.flush()
        };
        let head = |out: &mut dyn Write, tag: &[u8; 8]| -> std::io::Result<()> {
            out.write_all(tag)?;
            out.write_all(&rgb.width().to_le_bytes())?;
            out.write_all(&rgb.height().to_le_bytes())?;
            out.write_all(&dpi.to_bits().to_le_bytes())
        };
        #[cfg(target_os = "linux")]
        if let Some(file) = self.file.as_ref().filter(|_| shared) {
            use std::os::fd::AsRawFd;
            use std::os::unix::fs::FileExt;
            if file.write_all_at(rgb.as_raw(), 0).is_ok() {
                head(out, SHARED_PAGE)?;
                out.write_all(&(file.as_raw_fd() as u32).to_le_bytes())?;
                return tail(out);
            }
            // A file that cannot hold the page (no memory for it) is
            // dropped: this page and the next go through the pipe.
            self.file = None;
        }
        head(out, PAGE)?;
        out.write_all(rgb.as_raw())?;
        tail(out)
    }
}

/// Why a child ended without a reply, in one line: its own message when it
/// gave one, else what ended it.
fn failure(status: Option<ExitStatus>, last_line: &str, allowance: u64) -> String {
    // std's message when an allocation fails (then it aborts): the page
    // needed more than its allowance.
    if last_line.starts_with("memory allocation of") {
        return format!(
            "rendering needs more than {} MiB of memory; stopped",
            allowance >> 20
        );
    }
    match (status.and_then(signal_name), last_line.is_empty()) {
        (Some(how), true) => format!("the page renderer stopped ({how})"),
        (Some(how), false) => format!("the page renderer stopped ({how}): {last_line}"),
        (None, false) => format!("the page renderer failed: {last_line}"),
        (None, true) => match status {
            Some(status) => format!("the page renderer failed ({status})"),
            None => "the page renderer failed".to_string(),
        },
    }
}

/// The signal that ended a process, by name.
fn signal_name(status: ExitStatus) -> Option<&'static str> {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        Some(match status.signal()? {
            libc::SIGABRT => "aborted",
            libc::SIGSEGV => "segmentation fault",
            libc::SIGBUS => "bus error: the file changed while it was read",
            libc::SIGKILL => "killed",
            libc::SIGXCPU => "out of processor time",
            _ => "killed by a signal",
        })
    }
    #[cfg(not(unix))]
    {
        let _ = status;
        None
    }
}

/// A path as bytes, to send to a child.
fn path_bytes(path: &Path) -> Vec<u8> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        path.as_os_str().as_bytes().to_vec()
    }
    #[cfg(not(unix))]
    {
        path.to_string_lossy().into_owned().into_bytes()
    }
}

/// The path a child was sent.
fn path_from_bytes(bytes: Vec<u8>) -> PathBuf {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStringExt;
        PathBuf::from(std::ffi::OsString::from_vec(bytes))
    }
    #[cfg(not(unix))]
    {
        PathBuf::from(String::from_utf8_lossy(&bytes).into_owned())
    }
}

/// The child's side: renders the pages it is sent until its input ends.
pub fn run_child() -> ExitCode {
    // One line for a panic the renderer's guard does not catch; the batch
    // shows it as the page's reason.
    std::panic::set_hook(Box::new(|info| {
        let message = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| (*s).to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "the renderer panicked".to_string());
        eprintln!("cannot render: {}", message.lines().next().unwrap_or(""));
    }));
    isolate();
    let stdin = std::io::stdin();
    let mut input = BufReader::new(stdin.lock());
    let mut out = BufWriter::with_capacity(1 << 20, std::io::stdout().lock());
    let mut open: Option<(PathBuf, PdfDoc)> = None;
    let mut pages = PageFile::create();
    while let Some(request) = Request::decode(&mut input) {
        if open.as_ref().is_none_or(|(path, _)| *path != request.book) {
            // The last book first: two are never held at once.
            open = None;
            match open_mapped(&request.book) {
                Ok(doc) => open = Some((request.book.clone(), doc)),
                Err(message) => {
                    if write_failed(&mut out, &message).is_err() {
                        break;
                    }
                    continue;
                }
            }
        }
        let Some((_, doc)) = &open else { continue };
        let page = usize::try_from(request.page).unwrap_or(usize::MAX);
        limit_memory(Some(request.allowance));
        limit_time(request.seconds);
        let rendered = doc.render_rgb(page, request.dpi);
        let pixels = rendered.as_ref().map_or(0, |(rgb, _)| {
            u64::from(rgb.width()) * u64::from(rgb.height())
        });
        let written = match rendered {
            Ok((rgb, dpi)) => {
                let drawing = if request.drawing {
                    let bytes = doc.drawing(page, dpi, rgb.dimensions()).to_bytes();
                    // A drawing too large to send is left out: the page is
                    // read from its pixels.
                    if bytes.len() <= MAX_DRAWING_BYTES {
                        bytes
                    } else {
                        Vec::new()
                    }
                } else {
                    Vec::new()
                };
                pages.write(&mut out, &rgb, dpi, request.shared, &drawing)
            }
            Err(e) => write_failed(&mut out, &reason(&e, &request.book)),
        };
        limit_memory(None);
        if pixels > KEEP_MEMORY_PIXELS {
            release_memory();
        }
        if written.is_err() {
            break;
        }
    }
    ExitCode::Success
}

fn write_failed(out: &mut impl Write, message: &str) -> std::io::Result<()> {
    let line = message.lines().next().unwrap_or("");
    let mut end = line.len().min(MESSAGE_BYTES);
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    out.write_all(FAILED)?;
    out.write_all(&(end as u32).to_le_bytes())?;
    out.write_all(&line.as_bytes()[..end])?;
    out.flush()
}

/// Opens the book by mapping its file (a regular file within the PDF
/// bound, as every PDF is read).
fn open_mapped(path: &Path) -> Result<PdfDoc, String> {
    let limit = snap_solver::files::FileLimit {
        noun: "PDF",
        plural: "PDFs",
        max_bytes: MAX_PDF_BYTES,
    };
    let file = snap_solver::files::open_regular(path, &limit).map_err(|e| e.to_string())?;
    let len = file.metadata().map_err(|e| e.to_string())?.len();
    if len > MAX_PDF_BYTES {
        return Err(format!(
            "file is {} MiB; the largest PDF read is {} MiB",
            len >> 20,
            MAX_PDF_BYTES >> 20
        ));
    }
    // SAFETY: the map is read-only and private to this process, which does
    // nothing but render pages of this book. Should the file shrink
    // meanwhile, reading past its end raises SIGBUS, which ends this child
    // alone (the batch reports the page); should it change, the page
    // renders from changed bytes, as a re-read would.
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| e.to_string())?;
    PdfDoc::from_shared(Arc::new(map), path).map_err(|e| reason(&e, path))
}

/// Keeps Ctrl-C for the batch to decide (it finishes the pages under way),
/// writes no core file on an abort, and widens the pipe the pages go out
/// by (see [`PIPE_BYTES`]).
fn isolate() {
    #[cfg(unix)]
    // SAFETY: plain system calls on this process with constant arguments.
    unsafe {
        libc::signal(libc::SIGINT, libc::SIG_IGN);
        set_soft_limit(libc::RLIMIT_CORE, Some(0));
    }
    #[cfg(target_os = "linux")]
    // SAFETY: as above; a pipe that cannot be widened stays as it was.
    unsafe {
        libc::fcntl(1, libc::F_SETPIPE_SZ, PIPE_BYTES);
    }
}

/// Limits this child's address space to what it holds now plus `allowance`
/// bytes (any allocation past that fails, and the child ends), or lifts
/// the limit again (`None`).
fn limit_memory(allowance: Option<u64>) {
    #[cfg(target_os = "linux")]
    {
        let limit = allowance.and_then(|allowance| {
            let now = std::fs::read_to_string("/proc/self/statm")
                .ok()?
                .split_whitespace()
                .next()?
                .parse::<u64>()
                .ok()?;
            // SAFETY: sysconf only reads a value.
            let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as u64;
            Some(now * page + allowance)
        });
        // SAFETY: as in `isolate`.
        unsafe { set_soft_limit(libc::RLIMIT_AS, limit) };
    }
    #[cfg(not(target_os = "linux"))]
    let _ = allowance;
}

/// Limits this child's processor time to what it has used plus `seconds`
/// and [`CPU_SLACK_SECONDS`].
fn limit_time(seconds: u64) {
    #[cfg(unix)]
    {
        // SAFETY: getrusage fills the struct it is given.
        let used = unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            libc::getrusage(libc::RUSAGE_SELF, &mut usage);
            (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + 1).max(0) as u64
        };
        // SAFETY: as in `isolate`.
        unsafe {
            set_soft_limit(
                libc::RLIMIT_CPU,
                Some(used + seconds.saturating_add(CPU_SLACK_SECONDS)),
            );
        }
    }
    #[cfg(not(unix))]
    let _ = seconds;
}

/// Largest page, in pixels, after which a child keeps the memory it used
/// for the next page: 8 MP (a Letter page at 300 dpi). The allocator keeps
/// freed blocks for reuse, and the page file keeps its size, so the next
/// page of a book finds its buffers without asking the system for them
/// again (at 150 dpi, 20 MB a page: milliseconds of page faults); past
/// this size, what a page used is given back at once, so that an idle
/// child holds at most about this much besides its book.
const KEEP_MEMORY_PIXELS: u64 = 8_000_000;

/// Returns the memory a page freed to the system (see
/// [`KEEP_MEMORY_PIXELS`]): glibc keeps freed blocks for reuse.
fn release_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free memory; it takes no pointer.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Sets the soft limit of `resource` to `value` (`None`: as high as the
/// hard limit allows), never above the hard limit, which is left alone so
/// that the next page can raise the soft one again.
#[cfg(unix)]
unsafe fn set_soft_limit(resource: Resource, value: Option<u64>) {
    let mut limit: libc::rlimit = std::mem::zeroed();
    if libc::getrlimit(resource, &mut limit) != 0 {
        return;
    }
    let hard = limit.rlim_max;
    limit.rlim_cur = match value {
        Some(v) if (v as libc::rlim_t) < hard => v as libc::rlim_t,
        _ => hard,
    };
    libc::setrlimit(resource, &limit);
}

/// The type of a resource's name in `setrlimit` (it differs between C
/// libraries).
#[cfg(all(target_os = "linux", target_env = "gnu"))]
type Resource = libc::__rlimit_resource_t;
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
#[cfg(unix)]
type Resource = libc::c_int;
