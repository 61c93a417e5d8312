//! The bounds of a run held under hostile input, on the real binary: PDF
//! bombs (images declaring huge sizes, streams that inflate a
//! thousandfold, forms drawing forms), devices and FIFOs where files are
//! expected, answers that would grow without end, flags that multiply
//! memory. Each bomb is made at test time (`bombs/mod.rs`) in a temporary
//! folder; none is committed whole. Peak memory is the largest resident
//! size of the run or any process it started (`wait4`).

mod bombs;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

/// Longest any run here may take: every input is refused, stopped or read
/// within its bounds long before (the slowest, a page stopped at its
/// 60-second deadline, well before).
const RUN_LIMIT: Duration = Duration::from_secs(240);

/// Megabytes.
const MB: u64 = 1 << 20;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudoku-snap"))
}

fn p(path: &Path) -> &str {
    path.to_str().expect("UTF-8 temp path")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
}

/// A run's output, the peak resident memory (bytes) of its largest
/// process (the run or a page render it started), and how long it took.
struct Run {
    out: Output,
    peak: u64,
    took: Duration,
}

/// How often a run is looked at to see whether it has ended.
const POLL: Duration = Duration::from_millis(20);

/// Runs the binary in `cwd` with `stdin`, killing it (and failing) if it
/// outlives [`RUN_LIMIT`].
#[allow(
    clippy::zombie_processes,
    reason = "the run is waited for by wait4, which gives its peak memory"
)]
fn run_in(cwd: &Path, args: &[&str], stdin: &[u8]) -> Run {
    let start = Instant::now();
    let mut child = bin()
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start sudoku-snap");
    let mut input = child.stdin.take().expect("stdin");
    let bytes = stdin.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&bytes);
    });
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    };
    let stdout = drain(child.stdout.take().map(|p| Box::new(p) as _));
    let stderr = drain(child.stderr.take().map(|p| Box::new(p) as _));
    let pid = child.id() as libc::pid_t;
    let (status, peak) = loop {
        let mut status = 0;
        // SAFETY: a zeroed rusage is a valid value for wait4 to fill.
        let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: waits for our own child, by its id; `child` is never
        // waited for again.
        let done = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut usage) };
        if done == pid {
            use std::os::unix::process::ExitStatusExt;
            // Linux reports kilobytes, the largest of the process and the
            // children it waited for.
            break (ExitStatus::from_raw(status), usage.ru_maxrss as u64 * 1024);
        }
        if start.elapsed() > RUN_LIMIT {
            let _ = child.kill();
            let _ = child.wait();
            panic!("sudoku-snap {args:?} still running after {RUN_LIMIT:?}");
        }
        std::thread::sleep(POLL);
    };
    let _ = writer.join();
    Run {
        out: Output {
            status,
            stdout: stdout.join().expect("stdout"),
            stderr: stderr.join().expect("stderr"),
        },
        peak,
        took: start.elapsed(),
    }
}

fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(made.success());
}

fn json_lines(out: &Output) -> Vec<serde_json::Value> {
    text(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// The lines of standard error naming `file`.
fn lines_about<'a>(stderr: &'a str, file: &str) -> Vec<&'a str> {
    stderr.lines().filter(|l| l.contains(file)).collect()
}

#[test]
fn pdf_bombs_are_refused_before_rendering_each_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let bombs: [(&str, Vec<u8>, &str); 6] = [
        (
            "jpeg-65000.pdf",
            bombs::jpeg_image(65000, 65000),
            "page 1: an image declares 65000x65000 pixels; the largest read is 67 megapixels",
        ),
        (
            "jpeg-20000.pdf",
            bombs::jpeg_image(20000, 20000),
            "page 1: an image declares 20000x20000 pixels",
        ),
        (
            "content.pdf",
            bombs::flate_content(300 * MB),
            "page 1: its streams and images decode to more than 128 MiB; not rendered",
        ),
        (
            "image.pdf",
            bombs::flate_image(30000, 30000),
            "page 1: an image declares 30000x30000 pixels",
        ),
        (
            "forms.pdf",
            bombs::form_fanout(4, 7, 10),
            "page 4: it runs more than 4000000 drawing operations, forms and patterns expanded",
        ),
        (
            "pattern.pdf",
            bombs::pattern_fanout(7, 10),
            "page 1: it runs more than 4000000 drawing operations",
        ),
    ];
    let mut args = vec!["--json".to_string(), "--no-image".to_string()];
    for (name, bytes, _) in &bombs {
        std::fs::write(dir.path().join(name), bytes).unwrap();
        args.push(name.to_string());
    }
    args.push(p(&fixture("pdf/postonwj_puzzles.pdf")).to_string());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let run = run_in(dir.path(), &args, b"");
    let stderr = text(&run.out.stderr);
    assert_eq!(run.out.status.code(), Some(2), "{stderr}");
    for (name, _, reason) in &bombs {
        let lines = lines_about(&stderr, name);
        assert!(lines.iter().any(|l| l.contains(reason)), "{name}: {stderr}");
    }
    assert!(!stderr.contains("backtrace"), "{stderr}");
    // Every page of the forms bomb, and one line each.
    assert_eq!(lines_about(&stderr, "forms.pdf").len(), 4, "{stderr}");
    // The book after the bombs is read and solved.
    let solved = json_lines(&run.out)
        .iter()
        .filter(|l| {
            l["path"]
                .as_str()
                .is_some_and(|p| p.ends_with("postonwj_puzzles.pdf"))
        })
        .filter(|l| l["status"] == "solved")
        .count();
    assert!(solved >= 6, "{}", text(&run.out.stdout));
    assert!(run.peak < 600 * MB, "peak {} MB", run.peak / MB);
}

#[test]
fn a_page_past_its_memory_is_stopped_and_the_batch_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    // Not refused before rendering: an LZW stream is not decoded by the
    // measure. The render's memory limit stops it.
    std::fs::write(dir.path().join("lzw.pdf"), bombs::lzw_content(700 * MB)).unwrap();
    let book = fixture("pdf/postonwj_puzzles.pdf");
    let run = run_in(
        dir.path(),
        &["--json", "--no-image", "lzw.pdf", p(&book)],
        b"",
    );
    let stderr = text(&run.out.stderr);
    assert_eq!(run.out.status.code(), Some(2), "{stderr}");
    let lzw = lines_about(&stderr, "lzw.pdf");
    assert_eq!(lzw.len(), 1, "{stderr}");
    assert!(
        lzw[0].contains("page 1: rendering needs more than")
            && lzw[0].ends_with("of memory; stopped"),
        "{stderr}"
    );
    assert_eq!(solved(&run.out), 12, "{}", text(&run.out.stdout));
    assert!(run.peak < 1024 * MB, "peak {} MB", run.peak / MB);
}

#[test]
fn a_page_past_its_deadline_is_stopped_and_the_batch_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    // A million forms run, within the measure's count of operations and
    // drawing nothing (so memory stays flat), but about ten seconds of
    // interpreting in this debug build. The render's deadline stops it.
    std::fs::write(dir.path().join("slow.pdf"), bombs::busy_forms(3, 100)).unwrap();
    let book = fixture("pdf/postonwj_puzzles.pdf");
    let run = run_in(
        dir.path(),
        &[
            "--json",
            "--no-image",
            "--page-timeout",
            "1",
            "slow.pdf",
            p(&book),
        ],
        b"",
    );
    let stderr = text(&run.out.stderr);
    assert_eq!(run.out.status.code(), Some(2), "{stderr}");
    assert_eq!(
        lines_about(&stderr, "slow.pdf"),
        ["sudoku-snap: slow.pdf page 1: rendering took over 1 s; stopped"]
    );
    assert_eq!(solved(&run.out), 12, "{}", text(&run.out.stdout));
    // Stopped at the deadline, not run to the end.
    assert!(run.took < Duration::from_secs(30), "{:?}", run.took);
}

/// Grids solved in a run's JSON lines.
fn solved(out: &Output) -> usize {
    json_lines(out)
        .iter()
        .filter(|l| l["status"] == "solved")
        .count()
}

#[test]
fn many_large_books_are_not_held_in_memory_together() {
    let dir = tempfile::tempdir().unwrap();
    let book = std::fs::read(fixture("pdf/postonwj_puzzles.pdf")).unwrap();
    let first = dir.path().join("big-1.pdf");
    let mut out = std::io::BufWriter::new(std::fs::File::create(&first).unwrap());
    bombs::write_padded(&book, 64 * MB, &mut out).unwrap();
    out.into_inner().unwrap().sync_all().unwrap();
    let mut args = vec!["--no-image", "--pages", "1", "--jobs", "1"];
    let names: Vec<String> = (1..=6).map(|i| format!("big-{i}.pdf")).collect();
    for name in &names[1..] {
        std::fs::hard_link(&first, dir.path().join(name)).unwrap();
    }
    args.extend(names.iter().map(String::as_str));
    let run = run_in(dir.path(), &args, b"");
    assert_eq!(run.out.status.code(), Some(0), "{}", text(&run.out.stderr));
    assert!(
        text(&run.out.stdout).contains("6 inputs"),
        "{}",
        text(&run.out.stdout)
    );
    // One book's bytes at a time (while its pages are counted), not six.
    assert!(run.peak < 3 * 64 * MB, "peak {} MB", run.peak / MB);
}

#[test]
fn threads_and_resolution_together_stay_within_the_run_budget() {
    let dir = tempfile::tempdir().unwrap();
    // Six Letter pages at 300 dpi (8.4 MP each), with six threads. Each
    // page's share (its render's allowance and its pixels being read) is
    // over 500 MiB, so within the smallest budget they go one at a time:
    // the run holds one page's pixels (measured, debug build: 140 MB),
    // not six (280 MB, the same run with a budget of 100 GiB).
    let mut pdf = bombs::Pdf::new();
    for _ in 0..6 {
        let contents = pdf.add_stream("", b"0 g 72 72 216 216 re f");
        pdf.add_page(612, 792, "<< >>", contents);
    }
    std::fs::write(dir.path().join("pages.pdf"), pdf.finish()).unwrap();
    let run = run_in(
        dir.path(),
        &[
            "--jobs",
            "6",
            "--dpi",
            "300",
            "--max-memory",
            "64",
            "--no-image",
            "pages.pdf",
        ],
        b"",
    );
    assert!(
        text(&run.out.stdout).contains("6 pages"),
        "{}",
        text(&run.out.stderr)
    );
    assert!(run.peak < 200 * MB, "peak {} MB", run.peak / MB);
}

#[test]
fn devices_and_fifos_are_refused_wherever_a_file_is_read_whole() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("model.onnx");
    mkfifo(&fifo);
    let book = fixture("pdf/postonwj_puzzles.pdf");
    let cases: [(&[&str], &str); 5] = [
        (
            &["--model", "/dev/zero", "--no-image", p(&book)],
            "/dev/zero: cannot read it: not a regular file (a device)",
        ),
        (
            &["--model", p(&fifo), "--no-image", p(&book)],
            "not a regular file (a FIFO); models are read from regular files only",
        ),
        (
            &["bench", "/dev/zero"],
            "/dev/zero: not a regular file (a device)",
        ),
        (
            &["grade", "/dev/zero"],
            "/dev/zero: not a regular file or FIFO (a device)",
        ),
        (
            &["solve", "--explain", "/dev/zero"],
            "/dev/zero: not a regular file or FIFO (a device)",
        ),
    ];
    for (args, expected) in cases {
        let run = run_in(dir.path(), args, b"");
        let err = text(&run.out.stderr);
        assert_eq!(run.out.status.code(), Some(2), "{args:?}: {err}");
        assert!(err.contains(expected), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(run.took < Duration::from_secs(30), "{args:?}");
    }
}

#[test]
fn a_line_of_clashing_givens_names_a_few_and_counts_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    // Every cell of a 25x25 is A: 17,000 clashing pairs a line, 560 KB of
    // message each when every pair was named (1024 lines: 575 MB held).
    let lines = 1024;
    let input = format!("{}\n", "A".repeat(625)).repeat(lines);
    let run = run_in(dir.path(), &["solve"], input.as_bytes());
    let out = text(&run.out.stdout);
    assert_eq!(out.lines().count(), lines);
    for line in out.lines() {
        assert!(
            line.starts_with("no solution (givens clash: r1c1 and r1c2 are both A;"),
            "{line}"
        );
        assert!(line.ends_with(" more)"), "{line}");
        assert!(line.len() < 400, "{} bytes", line.len());
    }
    assert!(run.peak < 100 * MB, "peak {} MB", run.peak / MB);
}

#[test]
fn a_jpeg_with_pdf_text_in_a_comment_is_read_as_a_photo() {
    let dir = tempfile::tempdir().unwrap();
    let jpeg = std::fs::read(fixture("image18.jpg")).unwrap();
    // A comment segment right after the start of image: "%PDF-" in the
    // first kilobyte, inside a valid JPEG.
    let comment = b"made from %PDF-1.4 pages";
    let mut marked = jpeg[..2].to_vec();
    marked.extend_from_slice(&[0xFF, 0xFE]);
    marked.extend_from_slice(&(comment.len() as u16 + 2).to_be_bytes());
    marked.extend_from_slice(comment);
    marked.extend_from_slice(&jpeg[2..]);
    std::fs::write(dir.path().join("scan.jpg"), marked).unwrap();
    let run = run_in(dir.path(), &["--no-image", "--json", "scan.jpg"], b"");
    let lines = json_lines(&run.out);
    assert!(
        !text(&run.out.stderr).contains("PDF"),
        "{}",
        text(&run.out.stderr)
    );
    assert_eq!(lines[0]["status"], "solved", "{lines:?}");
}

#[test]
fn images_too_large_for_their_decoder_say_so_not_0x0() {
    let dir = tempfile::tempdir().unwrap();
    // A lossless WebP header declaring 16384 x 4 pixels (14-bit fields
    // hold width - 1); the decoder reads its width as 0.
    let mut vp8l = vec![0x2F];
    let bits: u32 = 16383 | (3 << 14);
    vp8l.extend_from_slice(&bits.to_le_bytes());
    vp8l.extend_from_slice(&[0; 16]);
    let mut webp = b"RIFF".to_vec();
    webp.extend_from_slice(&(4 + 8 + vp8l.len() as u32).to_le_bytes());
    webp.extend_from_slice(b"WEBPVP8L");
    webp.extend_from_slice(&(vp8l.len() as u32).to_le_bytes());
    webp.extend_from_slice(&vp8l);
    std::fs::write(dir.path().join("wide.webp"), webp).unwrap();
    // A GIF whose frame is 20000 x 20000 on a 16 x 16 screen.
    let mut gif = Vec::new();
    image::codecs::gif::GifEncoder::new(&mut gif)
        .encode(&[0u8; 16 * 16 * 4], 16, 16, image::ExtendedColorType::Rgba8)
        .unwrap();
    let frame = gif
        .windows(9)
        .position(|w| w == [0x2C, 0, 0, 0, 0, 16, 0, 16, 0])
        .expect("an image descriptor of 16 x 16 at 0, 0");
    gif[frame + 5..frame + 9].copy_from_slice(&[0x20, 0x4E, 0x20, 0x4E]);
    std::fs::write(dir.path().join("frame.gif"), gif).unwrap();
    let run = run_in(dir.path(), &["--no-image", "wide.webp", "frame.gif"], b"");
    let stderr = text(&run.out.stderr);
    assert!(!stderr.contains("0x0"), "{stderr}");
    assert!(
        stderr.contains(
            "wide.webp: image header gives 0x4 pixels: a zero side, so the header is damaged \
             or states a size the decoder cannot hold"
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "frame.gif: image too large to decode: it needs more memory than an image of 67 \
             megapixels may use"
        ),
        "{stderr}"
    );
}

#[test]
fn a_byte_order_mark_does_not_make_the_first_puzzle_invalid() {
    let dir = tempfile::tempdir().unwrap();
    let puzzle =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let input = format!("\u{feff}{puzzle}\n{puzzle}\n");
    std::fs::write(dir.path().join("puzzles.txt"), &input).unwrap();
    for (args, stdin) in [
        (&["solve"][..], input.as_bytes()),
        (&["solve", "puzzles.txt"][..], &b""[..]),
        (&["grade", "puzzles.txt"][..], &b""[..]),
    ] {
        let run = run_in(dir.path(), args, stdin);
        let out = text(&run.out.stdout);
        assert_eq!(run.out.status.code(), Some(0), "{args:?}: {out}");
        assert!(!out.contains("invalid"), "{args:?}: {out}");
        assert_eq!(out.lines().count(), 2, "{args:?}: {out}");
    }
}

#[test]
fn a_page_of_more_grids_than_are_searched_says_so() {
    let dir = tempfile::tempdir().unwrap();
    // 144 copies of a puzzle, 12 by 12, on one page of 12 x 12 inches:
    // grids of 54 pt (112 px at 150 dpi), digits in Helvetica.
    let puzzle =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    let mut content = String::from("0 g ");
    for row in 0..12u8 {
        for col in 0..12u8 {
            let (x, y) = (6.0 + 72.0 * f32::from(col), 6.0 + 72.0 * f32::from(row));
            for k in 0..=9u8 {
                let width = if k % 3 == 0 { 2.0 } else { 0.8 };
                let at = 6.0 * f32::from(k);
                content.push_str(&format!(
                    "{width} w {} {y} m {} {} l S {x} {} m {} {} l S ",
                    x + at,
                    x + at,
                    y + 54.0,
                    y + at,
                    x + 54.0,
                    y + at
                ));
            }
            for (i, digit) in puzzle.chars().enumerate().filter(|(_, c)| *c != '.') {
                let (r, c) = ((i / 9) as f32, (i % 9) as f32);
                content.push_str(&format!(
                    "BT /F1 5 Tf {} {} Td ({digit}) Tj ET ",
                    x + 6.0 * c + 1.6,
                    y + 6.0 * (8.0 - r) + 1.3
                ));
            }
        }
    }
    let mut pdf = bombs::Pdf::new();
    let contents = pdf.add_stream("", content.as_bytes());
    pdf.add_page(
        864,
        864,
        "<< /Font << /F1 << /Type /Font /Subtype /Type1 /BaseFont /Helvetica >> >> >>",
        contents,
    );
    std::fs::write(dir.path().join("mosaic.pdf"), pdf.finish()).unwrap();
    let run = run_in(dir.path(), &["--json", "--no-image", "mosaic.pdf"], b"");
    let stderr = text(&run.out.stderr);
    let found = json_lines(&run.out).len();
    let note = lines_about(
        &stderr,
        "more shapes the size of its grids were not searched",
    );
    assert_eq!(note.len(), 1, "{found} found: {stderr}");
    let unsearched: usize = note[0]
        .split("mosaic.pdf page 1: ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{stderr}"));
    assert_eq!(found + unsearched, 144, "{found} found: {stderr}");
    assert_eq!(run.out.status.code(), Some(1), "{stderr}");
}
