//! The bounds of one run, each a named constant with its reason, and the
//! error beyond it. They live where they are enforced:
//!
//! - [`snap_solver::MAX_LINE_BYTES`] (64 KiB): the longest text line read;
//!   a longer line is an `invalid:` line and is never kept whole.
//! - [`snap_vision::MAX_FILE_BYTES`] (272 MiB): the largest photo
//!   file read, checked before reading.
//! - [`snap_vision::MAX_PIXELS`] (2^26, about 67 MP): the most
//!   pixels decoded, checked from the header before any pixel buffer.
//! - [`MAX_JOBS`] (64): the most worker threads.
//! - [`snap_vision::DPI_RANGE`] (18-1200 dpi): the PDF render
//!   resolutions accepted (`--dpi`), and
//!   [`snap_vision::MAX_RENDER_PIXELS`] (40 MP): the largest page
//!   render (an oversized page is rendered at a lower resolution).
//! - [`RUN_MEMORY_BYTES`] (2 GiB, `--max-memory`): the memory the pages of
//!   a run hold at once, whatever `--jobs` and `--dpi` ask: each page
//!   reserves its share ([`RUN_BUDGET`]) before its pixels exist and waits
//!   while others hold the rest.
//! - [`snap_vision::MAX_IMAGE_PIXELS`], [`snap_vision::MAX_DECODED_BYTES`]
//!   and [`snap_vision::MAX_OPERATIONS`]: what one PDF page may draw,
//!   measured before it is rendered.
//! - `commands::render`: each PDF page renders in a child process under an
//!   address-space limit (its allowance) and a deadline
//!   ([`DEFAULT_PAGE_TIMEOUT_SECONDS`], `--page-timeout`).
//!
//! Text input has no size bound: it is streamed, so its length costs time,
//! not memory.

use std::sync::{Condvar, Mutex, PoisonError};

/// Most worker threads (`--jobs`). More threads than cores only add memory
/// (each photo worker holds one photo's buffers) and switching; 64 is above
/// the core count of common machines, and `--jobs 100000` is refused at
/// once instead of starting that many threads.
pub const MAX_JOBS: usize = 64;

/// Memory the pages of one run may hold at once unless `--max-memory`
/// says otherwise: 2 GiB. Threads (`--jobs`) and resolution (`--dpi`) each
/// multiply what a run holds; this bounds their product. A page reserves
/// its share before it is decoded or rendered, and waits while other pages
/// hold the rest, so a run never holds more, however the flags combine; a
/// page whose share alone is larger runs by itself. A PDF page at the
/// default 150 dpi holds a fifth of it while it renders (most of that the
/// render's allowance for the images it may decode) and 17 MB while it is
/// read. The program itself (its code, the digit model, a thread's stack)
/// is outside the budget: about 100 MB.
pub const RUN_MEMORY_BYTES: u64 = 2 << 30;

/// Smallest `--max-memory`, in MiB: below a page's share, every page waits
/// for the one before it, and a smaller budget changes nothing more.
pub const MIN_MEMORY_MIB: u64 = 64;

/// Largest `--max-memory`, in MiB: 1 TiB, past any machine's memory.
pub const MAX_MEMORY_MIB: u64 = 1 << 20;

/// Parses `--max-memory`: whole MiB from [`MIN_MEMORY_MIB`] to
/// [`MAX_MEMORY_MIB`], as bytes.
pub fn parse_memory(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(mib @ MIN_MEMORY_MIB..=MAX_MEMORY_MIB) => Ok(mib << 20),
        _ => Err(format!(
            "{text:?}: the memory must be whole MiB from {MIN_MEMORY_MIB} to {MAX_MEMORY_MIB}"
        )),
    }
}

/// Bytes a page being read holds per pixel: its colour and gray images,
/// the answer drawn into the colour one and encoded, and the locator's and
/// reader's working images (at a reduced size). Measured on one page alone,
/// the whole process: a 40 MP page rendered at 1200 dpi (as a PNG) peaks at
/// 192 MB, a 67 MP JPEG photo at 307 MB, both answers written; 8 bytes a
/// pixel covers either with room.
pub const READ_BYTES_PER_PIXEL: u64 = 8;

/// The share of a page of `pixels` being read.
pub fn page_bytes(pixels: u64) -> u64 {
    READ_BYTES_PER_PIXEL * pixels
}

/// The share of a photo whose file is `bytes`: the file, and the page its
/// header says it is (the decoder refuses a size past its bound, so a
/// header that cannot be read costs nothing more).
pub fn photo_bytes(bytes: &[u8]) -> u64 {
    let pixels = snap_vision::declared_dimensions(std::io::Cursor::new(bytes))
        .map_or(0, |(w, h)| u64::from(w) * u64::from(h))
        .min(snap_vision::MAX_PIXELS);
    bytes.len() as u64 + page_bytes(pixels)
}

/// The share of the photo file at `path`, from its size and its header
/// alone (read before the file is): the file, and the page its header says
/// it is. A file that cannot be opened or measured costs nothing: reading
/// it fails with the reason.
pub fn photo_file_bytes(path: &std::path::Path) -> u64 {
    let Ok(file) = snap_solver::files::open_regular(path, &PHOTO_FILE) else {
        return 0;
    };
    let len = file
        .metadata()
        .map_or(0, |m| m.len())
        .min(snap_vision::MAX_FILE_BYTES);
    let pixels = snap_vision::declared_dimensions(std::io::BufReader::new(file))
        .map_or(0, |(w, h)| u64::from(w) * u64::from(h))
        .min(snap_vision::MAX_PIXELS);
    len + page_bytes(pixels)
}

/// What a photo is read as, for measuring it before it is read.
const PHOTO_FILE: snap_solver::files::FileLimit = snap_solver::files::FileLimit {
    noun: "photo file",
    plural: "photos",
    max_bytes: snap_vision::MAX_FILE_BYTES,
};

/// The run's memory budget (see [`RUN_MEMORY_BYTES`]).
pub static RUN_BUDGET: Budget = Budget::new(RUN_MEMORY_BYTES);

/// Memory shared by the pages of a run: shares are granted in the order
/// they are asked for (so a large page is not passed over for ever by
/// small ones), each when enough is free. Each page holds one share at a
/// time, so a page waiting for room only waits for pages that will give
/// theirs back without asking for more.
#[derive(Debug)]
pub struct Budget {
    state: Mutex<Queue>,
    changed: Condvar,
}

#[derive(Debug)]
struct Queue {
    /// Bytes the budget holds.
    total: u64,
    /// Bytes granted and not yet returned.
    held: u64,
    /// The next ticket to hand out, and the ticket served next.
    next: u64,
    serving: u64,
}

/// A page's share of a [`Budget`], returned when dropped.
#[derive(Debug)]
pub struct Share<'a> {
    budget: &'a Budget,
    bytes: u64,
}

impl Budget {
    /// A budget of `total` bytes.
    pub const fn new(total: u64) -> Budget {
        Budget {
            state: Mutex::new(Queue {
                total,
                held: 0,
                next: 0,
                serving: 0,
            }),
            changed: Condvar::new(),
        }
    }

    /// Makes the budget `total` bytes (`--max-memory`), before the run's
    /// pages ask for shares.
    pub fn set_total(&self, total: u64) {
        self.lock().total = total;
        self.changed.notify_all();
    }

    /// Waits for `bytes` (at most the whole budget) and grants them.
    pub fn reserve(&self, bytes: u64) -> Share<'_> {
        let mut queue = self.lock();
        let bytes = bytes.min(queue.total);
        let ticket = queue.next;
        queue.next += 1;
        while queue.serving != ticket || queue.held + bytes > queue.total {
            queue = self
                .changed
                .wait(queue)
                .unwrap_or_else(PoisonError::into_inner);
        }
        queue.serving += 1;
        queue.held += bytes;
        drop(queue);
        // The next in line may fit beside this one.
        self.changed.notify_all();
        Share {
            budget: self,
            bytes,
        }
    }

    /// Bytes granted now.
    #[cfg(test)]
    fn held(&self) -> u64 {
        self.lock().held
    }

    fn give_back(&self, bytes: u64) {
        self.lock().held -= bytes;
        self.changed.notify_all();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Share<'_> {
    /// Returns what the share holds beyond `bytes`.
    pub fn shrink_to(&mut self, bytes: u64) {
        if bytes < self.bytes {
            self.budget.give_back(self.bytes - bytes);
            self.bytes = bytes;
        }
    }
}

impl Drop for Share<'_> {
    fn drop(&mut self) {
        self.budget.give_back(self.bytes);
    }
}

/// Parses `--jobs`: a whole number from 1 to [`MAX_JOBS`].
pub fn parse_jobs(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n @ 1..=MAX_JOBS) => Ok(n),
        _ => Err(format!(
            "{text:?}: threads must be a number from 1 to {MAX_JOBS}"
        )),
    }
}

/// Parses `--dpi`: a resolution within [`snap_vision::DPI_RANGE`].
pub fn parse_dpi(text: &str) -> Result<f32, String> {
    let range = snap_vision::DPI_RANGE;
    match text.trim().parse::<f32>() {
        Ok(dpi) if range.contains(&dpi) => Ok(dpi),
        _ => Err(format!(
            "{text:?}: the resolution must be a number from {} to {} (dpi)",
            range.start(),
            range.end()
        )),
    }
}

/// Longest a PDF page may take to render, in seconds, unless
/// `--page-timeout` says otherwise: a minute. A typeset page renders in
/// milliseconds and a scanned one in well under a second; a page that takes
/// a minute is hostile or broken (forms drawing forms, millions of fills),
/// and the batch must not wait on it for ever.
pub const DEFAULT_PAGE_TIMEOUT_SECONDS: u64 = 60;

/// Longest `--page-timeout`, in seconds: an hour. A page that renders
/// for longer is no puzzle page, and a longer deadline would only let a
/// hostile one hold a core that long.
pub const MAX_PAGE_TIMEOUT_SECONDS: u64 = 3600;

/// Parses `--page-timeout`: whole seconds from 1 to
/// [`MAX_PAGE_TIMEOUT_SECONDS`].
pub fn parse_page_timeout(text: &str) -> Result<u64, String> {
    match text.trim().parse::<u64>() {
        Ok(s @ 1..=MAX_PAGE_TIMEOUT_SECONDS) => Ok(s),
        _ => Err(format!(
            "{text:?}: the deadline must be whole seconds from 1 to {MAX_PAGE_TIMEOUT_SECONDS}"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_timeout_is_bounded() {
        assert_eq!(parse_page_timeout("60"), Ok(60));
        for bad in ["0", "3601", "1.5", "-1", "soon"] {
            assert!(
                parse_page_timeout(bad)
                    .unwrap_err()
                    .contains("from 1 to 3600"),
                "{bad}"
            );
        }
    }

    #[test]
    fn dpi_is_bounded() {
        assert_eq!(parse_dpi("150"), Ok(150.0));
        for bad in ["0", "17", "5000", "NaN", "fine"] {
            assert!(
                parse_dpi(bad).unwrap_err().contains("from 18 to 1200"),
                "{bad}"
            );
        }
    }

    #[test]
    fn shares_wait_for_room_and_never_pass_the_total() {
        use std::sync::atomic::{AtomicU64, Ordering};
        let budget = Budget::new(100);
        let peak = AtomicU64::new(0);
        std::thread::scope(|s| {
            for size in [60, 30, 50, 100, 500, 10, 40] {
                let (budget, peak) = (&budget, &peak);
                s.spawn(move || {
                    let mut share = budget.reserve(size);
                    peak.fetch_max(budget.held(), Ordering::SeqCst);
                    std::thread::sleep(std::time::Duration::from_millis(5));
                    share.shrink_to(size / 2);
                    peak.fetch_max(budget.held(), Ordering::SeqCst);
                });
            }
        });
        assert!(peak.load(Ordering::SeqCst) <= 100);
        assert_eq!(budget.held(), 0, "every share returned");
    }

    #[test]
    fn jobs_are_bounded() {
        assert_eq!(parse_jobs("4"), Ok(4));
        assert_eq!(parse_jobs("64"), Ok(MAX_JOBS));
        for bad in ["0", "65", "100000", "-1", "many"] {
            let err = parse_jobs(bad).unwrap_err();
            assert!(err.contains("from 1 to 64"), "{err}");
        }
    }
}
