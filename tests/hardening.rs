//! The ways the CLI could lose data or exhaust the machine, each run as a
//! user would, on the real binary. Every test works in its own
//! temporary folder, with its own FIFOs, symbolic links and files; none
//! touches a real device.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const UNIQUE: &str =
    "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudoku-snap"))
}

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(name)
}

fn p(path: &Path) -> &str {
    path.to_str().expect("UTF-8 temp path")
}

/// Runs the binary in `cwd` with `stdin` as input.
fn run_in(cwd: &Path, args: &[&str], stdin: &[u8]) -> Output {
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
    let out = wait_with_timeout(child, Duration::from_secs(120));
    let _ = writer.join();
    out
}

/// Waits for `child`, killing it (and failing) if it outlives `limit`.
/// Its output is drained meanwhile, so a full pipe never stalls it.
fn wait_with_timeout(mut child: Child, limit: Duration) -> Output {
    fn drain(
        pipe: Option<impl std::io::Read + Send + 'static>,
    ) -> std::thread::JoinHandle<Vec<u8>> {
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_end(&mut bytes);
            }
            bytes
        })
    }
    let stdout = drain(child.stdout.take());
    let stderr = drain(child.stderr.take());
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("sudoku-snap still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    Output {
        status,
        stdout: stdout.join().expect("stdout"),
        stderr: stderr.join().expect("stderr"),
    }
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().expect("mkfifo");
    assert!(status.success());
}

/// Files in `dir` whose names look like temporary files.
fn temp_files(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect()
}

// Two photos with the same stem.
#[test]
fn two_photos_that_would_write_one_answer_are_refused_before_the_batch() {
    let dir = tempfile::tempdir().unwrap();
    for sub in ["a", "b", "out"] {
        std::fs::create_dir(dir.path().join(sub)).unwrap();
    }
    for sub in ["a", "b"] {
        std::fs::copy(
            fixture("image18.jpg"),
            dir.path().join(sub).join("photo.jpg"),
        )
        .unwrap();
    }
    for force in [false, true] {
        let mut args = vec![
            "a/photo.jpg",
            "b/photo.jpg",
            "--out-dir",
            "out",
            "--jobs",
            "2",
        ];
        if force {
            args.push("--force");
        }
        let out = run_in(dir.path(), &args, b"");
        assert_eq!(out.status.code(), Some(2));
        let err = text(&out.stderr);
        assert!(
            err.contains("a/photo.jpg and b/photo.jpg would both write out/photo.solved.jpg"),
            "{err}"
        );
        assert_eq!(
            std::fs::read_dir(dir.path().join("out")).unwrap().count(),
            0
        );
    }
    // Without an image nor records nothing is written: both are read.
    let out = run_in(
        dir.path(),
        &["a/photo.jpg", "b/photo.jpg", "--no-image"],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(said.contains("solved: a/photo.jpg, b/photo.jpg"), "{said}");
}

// --force and special files.
#[test]
fn force_never_replaces_a_fifo_or_a_symlink() {
    let dir = tempfile::tempdir().unwrap();
    let photo = fixture("image18.jpg");
    let fifo = dir.path().join("answer.png");
    mkfifo(&fifo);
    let out = run_in(dir.path(), &[p(&photo), "-o", "answer.png", "--force"], b"");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("answer.png is a FIFO, not a regular file"));
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::symlink_metadata(&fifo)
        .unwrap()
        .file_type()
        .is_fifo());

    std::fs::write(dir.path().join("kept.png"), b"kept").unwrap();
    std::os::unix::fs::symlink("kept.png", dir.path().join("link.png")).unwrap();
    let out = run_in(dir.path(), &[p(&photo), "-o", "link.png", "--force"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("link.png is a symbolic link"));
    assert!(std::fs::symlink_metadata(dir.path().join("link.png"))
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read(dir.path().join("kept.png")).unwrap(), b"kept");
    assert!(temp_files(dir.path()).is_empty());
}

// Invalid UTF-8.
#[test]
fn a_line_that_is_not_utf8_is_invalid_and_the_rest_is_solved() {
    let dir = tempfile::tempdir().unwrap();
    let mut input = format!("{UNIQUE}\n").into_bytes();
    input.extend_from_slice(b"4.....8.5\xff\n");
    input.extend_from_slice(format!("{UNIQUE}\n").as_bytes());
    let out = run_in(dir.path(), &["solve"], &input);
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    assert_eq!(lines[1], "invalid: line 2: not UTF-8");
    assert_eq!(lines[0], lines[2]);
    assert_eq!(out.status.code(), Some(2), "an invalid line exits 2");

    // 5,000 good lines before the bad byte: every one is answered. (The
    // solution with one hole: quick to solve in a debug build.)
    let easy = format!(".{}", &lines[0][1..]);
    let mut input = format!("{easy}\n").repeat(5000).into_bytes();
    input.extend_from_slice(b"\xfe\n");
    let out = run_in(dir.path(), &["solve", "--jobs", "2"], &input);
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().count(), 5001);
    assert_eq!(stdout.lines().last(), Some("invalid: line 5001: not UTF-8"));
}

// Unbounded reads.
#[test]
fn a_photo_file_over_the_limit_is_refused_unread() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.jpg");
    // Sparse: 300 MB on paper, nothing on disk, and never read.
    std::fs::File::create(&big)
        .unwrap()
        .set_len(300 << 20)
        .unwrap();
    let start = Instant::now();
    let out = run_in(dir.path(), &["--no-image", "big.jpg"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("the largest photo file read is 272 MiB"),
        "{}",
        text(&out.stderr)
    );
    assert!(start.elapsed() < Duration::from_secs(60));
}

#[test]
fn a_photo_fifo_with_no_writer_is_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    mkfifo(&dir.path().join("photo.jpg"));
    let out = run_in(dir.path(), &["--no-image", "photo.jpg"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("not a regular file (a FIFO)"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn an_overlong_text_line_is_invalid_and_never_kept_whole() {
    let dir = tempfile::tempdir().unwrap();
    let long = "1".repeat(4 << 20);
    let input = format!("{long}\n{UNIQUE}\n");
    let out = run_in(dir.path(), &["solve"], input.as_bytes());
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 2, "{stdout}");
    assert_eq!(lines[0], "invalid: line 1: too long: more than 65536 bytes");
    assert_eq!(lines[1].len(), 81);
}

// --jobs bound.
#[test]
fn too_many_threads_are_refused_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let start = Instant::now();
    for args in [
        &["solve", "--jobs", "100000"][..],
        &["x.jpg", "--jobs", "100000"][..],
    ] {
        let out = run_in(dir.path(), args, format!("{UNIQUE}\n").as_bytes());
        assert_eq!(out.status.code(), Some(2));
        assert!(
            text(&out.stderr).contains("from 1 to 64"),
            "{}",
            text(&out.stderr)
        );
    }
    assert!(start.elapsed() < Duration::from_secs(30));
}

// Ctrl-C mid-batch.
#[test]
fn ctrl_c_mid_batch_leaves_no_temporary_file_and_prints_the_summary() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let mut args = vec![
        "--out-dir".to_string(),
        "out".into(),
        "--jobs".into(),
        "1".into(),
    ];
    for i in 0..40 {
        let name = format!("p{i:02}.jpg");
        std::fs::copy(fixture("image18.jpg"), dir.path().join(&name)).unwrap();
        args.push(name);
    }
    let child = bin()
        .args(&args)
        .current_dir(dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Interrupt once the first answer is in place.
    let start = Instant::now();
    let answers = |dir: &Path| {
        std::fs::read_dir(dir)
            .unwrap()
            .filter(|e| {
                let name = e.as_ref().unwrap().file_name();
                name.to_string_lossy().ends_with(".solved.jpg")
            })
            .count()
    };
    while answers(&out_dir) == 0 {
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "no answer written"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let out = wait_with_timeout(child, Duration::from_secs(60));
    let stderr = text(&out.stderr);
    // One line says where the batch stands and what to do; the photos not
    // started are not listed one by one.
    let said: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("interrupted"))
        .collect();
    assert_eq!(said.len(), 1, "{stderr}");
    assert!(
        said[0].contains(" of 40 photos done; run the same command again to resume"),
        "{stderr}"
    );
    assert!(!stderr.contains("skipped"), "{stderr}");
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(
        temp_files(&out_dir).is_empty(),
        "{:?}",
        temp_files(&out_dir)
    );
    // The records of finished photos (for a resume) are in a folder of
    // their own; no temporary file is left there either.
    let records = out_dir.join(".sudoku-snap");
    assert!(
        temp_files(&records).is_empty(),
        "{:?}",
        temp_files(&records)
    );
    let answers_in = |dir: &Path| -> Vec<PathBuf> {
        std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file())
            .collect()
    };
    let written = answers_in(&out_dir).len();
    assert!((1..40).contains(&written), "{written} answers");
    // Every answer in place is whole.
    for path in answers_in(&out_dir) {
        assert!(image::open(&path).is_ok(), "{}", path.display());
    }
    // The same command again resumes: the photos done are not read again,
    // the rest are, and the batch ends as an uninterrupted one would.
    let again = bin().args(&args).current_dir(dir.path()).output().unwrap();
    let stderr = text(&again.stderr);
    assert!(
        stderr.contains(&format!("resumed: {written} of 40 photos")),
        "{stderr}"
    );
    assert_eq!(again.status.code(), Some(0), "{stderr}");
    assert_eq!(answers_in(&out_dir).len(), 40);
    let stdout = text(&again.stdout);
    assert!(
        stdout.contains("40 inputs: 40 grids found, 40 solved"),
        "{stdout}"
    );
}

// Streaming: --all and sicily.
#[test]
fn all_prints_solutions_as_they_are_found() {
    // Solutions are printed as found, not kept: kept, the million of an
    // empty 25x25 would take gigabytes and minutes before the first line.
    let mut child = bin()
        .args(["solve", "--all", "--limit", "1000000"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(format!("{}\n", ".".repeat(625)).as_bytes())
        .unwrap();
    drop(stdin);
    let mut reader = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    let start = Instant::now();
    reader.read_line(&mut first).unwrap();
    let elapsed = start.elapsed();
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(first.trim().len(), 625);
    assert!(!first.contains('.'));
    assert!(elapsed < Duration::from_secs(30), "{elapsed:?}");
}

#[test]
fn sicily_a_bad_puzzle_costs_only_its_own_answer() {
    let dir = tempfile::tempdir().unwrap();
    let good = UNIQUE.replace('.', "_");
    let rows = |p: &str| -> String {
        (0..9)
            .map(|r| format!("{}\n", &p[r * 9..r * 9 + 9]))
            .collect()
    };
    let mut bad = good.clone();
    bad.replace_range(10..11, "x");
    let input = format!(
        "4\n{}{}{}{}",
        rows(&good),
        rows(&bad),
        rows(&good),
        &rows(&good)[..30]
    );
    let out = run_in(
        dir.path(),
        &["solve", "--format", "sicily"],
        input.as_bytes(),
    );
    let stdout = text(&out.stdout);
    assert!(stdout.starts_with("Puzzle 1 solution is\n"), "{stdout}");
    assert!(
        stdout.contains("\nPuzzle 2 is invalid: line 12, column 2: unexpected character 'x'"),
        "{stdout}"
    );
    assert!(stdout.contains("\nPuzzle 3 solution is\n"), "{stdout}");
    assert!(
        stdout.contains("\nPuzzle 4 is invalid: line 29: puzzle ends after 3 rows"),
        "{stdout}"
    );
    assert_eq!(out.status.code(), Some(2));
}

// --shape mismatch.
#[test]
fn a_shape_mismatch_answers_every_line() {
    let dir = tempfile::tempdir().unwrap();
    let samurai = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/samurai-easy1.txt"),
    )
    .unwrap();
    let input = format!("{0}\n{0}\n{0}\n{0}\n", samurai.trim());
    let out = run_in(
        dir.path(),
        &["solve", "--shape", "classic"],
        input.as_bytes(),
    );
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    for (i, l) in lines.iter().enumerate() {
        assert!(
            l.starts_with(&format!("invalid: line {}: 441 cells", i + 1)),
            "{l}"
        );
    }
    let input = format!("{UNIQUE}\n").repeat(3);
    let out = run_in(dir.path(), &["solve", "--shape", "16x16"], input.as_bytes());
    assert_eq!(text(&out.stdout).lines().count(), 3);
}

// Samurai line starting with #.
#[test]
fn a_samurai_line_whose_first_cell_is_hash_is_reported_not_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let samurai = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/samurai-easy1.txt"),
    )
    .unwrap();
    let line = format!("#{}", &samurai.trim()[1..]);
    let input = format!("# a comment\n{line}\n");
    let out = run_in(dir.path(), &["solve"], input.as_bytes());
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("invalid: line 2, column 1: unexpected character '#'"),
        "{stdout}"
    );
    assert_eq!(stdout.lines().count(), 1);
}

// Output formats and other small promises.
#[test]
fn the_answer_format_follows_the_extension_and_the_input() {
    let dir = tempfile::tempdir().unwrap();
    let photo = fixture("image18.jpg");
    let out = run_in(dir.path(), &[p(&photo), "-o", "out.jpg"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let bytes = std::fs::read(dir.path().join("out.jpg")).unwrap();
    assert_eq!(
        image::guess_format(&bytes).unwrap(),
        image::ImageFormat::Jpeg
    );

    let out = run_in(dir.path(), &[p(&photo), "-o", "out.webp"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("end the name in .png, .jpg or .jpeg"));

    // By default a JPEG photo gives a JPEG answer of about its size.
    let out = run_in(dir.path(), &[p(&photo)], b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let answer = std::fs::read(dir.path().join("image18.solved.jpg")).unwrap();
    assert_eq!(
        image::guess_format(&answer).unwrap(),
        image::ImageFormat::Jpeg
    );
    let photo_len = std::fs::metadata(&photo).unwrap().len() as usize;
    assert!(
        answer.len() < photo_len * 3,
        "{} bytes for a {photo_len}-byte photo",
        answer.len()
    );
}

#[test]
fn a_gif_photo_is_read() {
    let dir = tempfile::tempdir().unwrap();
    let photo = image::open(fixture("image18.jpg")).unwrap().to_rgba8();
    let gif = dir.path().join("photo.gif");
    image::DynamicImage::ImageRgba8(photo).save(&gif).unwrap();
    let out = run_in(dir.path(), &["--json", "--no-image", "photo.gif"], b"");
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("\"status\":\"solved\""),
        "{stdout} {}",
        text(&out.stderr)
    );
}

#[test]
fn a_debug_dir_that_is_a_file_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), b"x").unwrap();
    let photo = fixture("image18.jpg");
    let out = run_in(
        dir.path(),
        &[p(&photo), "--no-image", "--debug-dir", "notes.txt"],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--debug-dir notes.txt: not a folder"));
}

#[test]
fn an_out_dir_not_there_yet_is_made_and_a_file_there_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let photo = fixture("image18.jpg");
    let out = run_in(dir.path(), &[p(&photo), "--out-dir", "answers/today"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(dir
        .path()
        .join("answers/today/image18.solved.jpg")
        .is_file());
    std::fs::write(dir.path().join("notes.txt"), b"x").unwrap();
    let out = run_in(dir.path(), &[p(&photo), "--out-dir", "notes.txt"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--out-dir notes.txt: not a folder"));
    assert_eq!(std::fs::read(dir.path().join("notes.txt")).unwrap(), b"x");
}

#[test]
fn repeating_set_on_one_cell_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let photo = fixture("image18.jpg");
    let out = run_in(
        dir.path(),
        &[
            p(&photo),
            "--no-image",
            "--set",
            "r3c4=7",
            "--set",
            "R3C4=8",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("--set names r3c4 twice"),
        "{}",
        text(&out.stderr)
    );
}
