//! `sudoku-snap eval DIR...`: how well the reader does on photos whose
//! grids are known (`<name>.txt` beside each photo: 9 lines of 9, `.` empty).
//! PDF books and pages with several grids, known by a `<stem>.truth.tsv`,
//! are measured by `eval_books.rs`.
//!
//! Photos are read one after another on one thread so that the per-stage
//! times are single-core times, comparable between runs.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::cli::EvalArgs;
use crate::error::Error;
use crate::exit_codes::ExitCode;
use snap_solver::files::{self, FileLimit};
use snap_solver::{solve, Board, Outcome, Shape, DEFAULT_LIMIT};
use snap_vision::{corner_error, decide_grid, GridReading, Quad, ReadError, Reader, Tile, Verdict};

use super::eval_books;
use super::eval_measures::{self, Answer, Calibration, Confusion, Kind};
use super::photo::is_image_name;

/// Cells of a classic grid, the only shape the photo side reads today.
const CELLS: usize = 81;

/// The result for one photo.
#[derive(Debug, Clone)]
struct PhotoResult {
    name: String,
    /// `None` when no grid was found (or the photo could not be read).
    read: Option<Board>,
    error: Option<String>,
    truth: Board,
    solved_before: bool,
    solved_after: bool,
    /// The decision's verdict was `unsure`.
    unsure: bool,
    /// An answer was shown (solved or unsure) and it is wrong: the worst
    /// outcome, which must never happen.
    wrong_drawn: bool,
    /// The decision's confidence and whether its answer was right, when
    /// an answer was shown (for the calibration table).
    answer: Option<Answer>,
    /// The decision's verdict (`solved`, `unsure`, `no_solution`,
    /// `multiple_solutions`), `None` when no grid was read.
    verdict: Option<&'static str>,
    /// Cell kinds read against the truth's (`<name>.kinds.txt`, else the
    /// clue truth: digits printed, the rest empty).
    kinds: Confusion,
    corner_error: Option<f32>,
    timings: Vec<(&'static str, f64)>,
}

/// Figures over a set of photos.
#[derive(Debug, Default)]
struct Totals {
    photos: usize,
    located: usize,
    cells: usize,
    cells_right: usize,
    clues: usize,
    clues_right: usize,
    false_digits: usize,
    missed_clues: usize,
    grids_right: usize,
    solved_before: usize,
    solved_after: usize,
    unsure: usize,
    wrong_drawn: usize,
    /// Truths with no solution (a screen with a wrong player entry).
    truth_unsolvable: usize,
    /// Of those, reported `no_solution`: the right outcome.
    no_solution_right: usize,
}

/// What ground truth is read as (see [`snap_solver::files`]): a regular
/// file of at most 16 MiB. The largest, a book's `truth.tsv` of a line per
/// grid, is kilobytes; the bound only keeps a wrong path (a device, a huge
/// file) from being read whole.
pub const TRUTH_FILE: FileLimit = FileLimit {
    noun: "ground-truth file",
    plural: "ground-truth files",
    max_bytes: 16 << 20,
};

/// Reads a ground-truth file: 9 lines of 9 (or one line of 81).
fn read_truth(path: &Path) -> Result<Board, Error> {
    let input = |source| Error::Input {
        name: path.display().to_string(),
        source,
    };
    let text = files::read_text(path, &TRUTH_FILE).map_err(input)?;
    let cells: String = text.lines().map(str::trim).collect();
    Board::parse(&cells, Shape::classic())
        .map_err(|e| input(std::io::Error::new(std::io::ErrorKind::InvalidData, e)))
}

/// The sources with a multi-grid truth file (`<stem>.truth.tsv`): `path`
/// itself, or the PDFs and images in the folder `path`, sorted by name.
fn book_sources(path: &Path) -> Vec<PathBuf> {
    if path.is_file() {
        return if eval_books::has_book_truth(path) {
            vec![path.to_path_buf()]
        } else {
            Vec::new()
        };
    }
    let Ok(entries) = std::fs::read_dir(path) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| super::inputs::is_input_name(p) && eval_books::has_book_truth(p))
        .collect();
    out.sort();
    out
}

/// Photos in `dir` that have a ground-truth `.txt`, sorted by name.
fn photos_with_truth(dir: &Path) -> Result<Vec<(PathBuf, PathBuf)>, Error> {
    let entries = std::fs::read_dir(dir).map_err(|source| Error::Input {
        name: dir.display().to_string(),
        source,
    })?;
    let mut out: Vec<(PathBuf, PathBuf)> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| is_image_name(p))
        .filter_map(|p| {
            let truth = p.with_extension("txt");
            truth.exists().then_some((p, truth))
        })
        .collect();
    out.sort();
    Ok(out)
}

/// True corners from a `corners.csv` in the folder or its parent (as in
/// ../shared/fixtures/photos), keyed by file name.
fn load_corners(dir: &Path) -> HashMap<String, Quad> {
    let mut map = HashMap::new();
    let candidates = [dir.join("corners.csv"), dir.join("..").join("corners.csv")];
    let Some(text) = candidates
        .iter()
        .find_map(|p| files::read_text(p, &TRUTH_FILE).ok())
    else {
        return map;
    };
    for line in text.lines().skip(1) {
        let fields: Vec<&str> = line.split(',').collect();
        if fields.len() != 9 {
            continue;
        }
        let v: Vec<f32> = fields[1..]
            .iter()
            .filter_map(|f| f.trim().parse().ok())
            .collect();
        if v.len() != 8 {
            continue;
        }
        let name = fields[0]
            .rsplit('/')
            .next()
            .unwrap_or(fields[0])
            .to_string();
        map.insert(
            name,
            Quad::new([(v[0], v[1]), (v[2], v[3]), (v[4], v[5]), (v[6], v[7])]),
        );
    }
    map
}

/// The kinds truth of a photo: `<name>.kinds.txt` beside it, else `None`.
fn read_kinds(photo: &Path) -> Result<Option<Vec<Kind>>, Error> {
    let path = photo.with_extension("kinds.txt");
    if !path.is_file() {
        return Ok(None);
    }
    let text = files::read_text(&path, &TRUTH_FILE).map_err(|source| Error::Input {
        name: path.display().to_string(),
        source,
    })?;
    eval_measures::parse_kinds(&text)
        .map(Some)
        .ok_or_else(|| Error::Input {
            name: path.display().to_string(),
            source: std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                "not 81 cells of . 1-9 a-i * #",
            ),
        })
}

/// The name of a verdict as the main job's status says it.
fn verdict_name(v: &Verdict) -> &'static str {
    match v {
        Verdict::Solved => "solved",
        Verdict::Unsure(_) => "unsure",
        Verdict::NoSolution(_) => "no_solution",
        Verdict::Multiple(_) => "multiple_solutions",
    }
}

fn evaluate(
    reader: &Reader,
    photo: &Path,
    (truth, kinds): (Board, Option<Vec<Kind>>),
    corners: Option<&Quad>,
    dump: Option<&Path>,
) -> PhotoResult {
    let name = photo
        .file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
    let truth_solution = match solve(&truth, 2) {
        Ok(Outcome::Unique(g)) => Some(g),
        _ => None,
    };
    let mut result = PhotoResult {
        name: name.clone(),
        read: None,
        error: None,
        truth,
        solved_before: false,
        solved_after: false,
        unsure: false,
        wrong_drawn: false,
        answer: None,
        verdict: None,
        kinds: Confusion::default(),
        corner_error: None,
        timings: Vec::new(),
    };
    let page = match reader.read_file(photo) {
        Ok(page) => page,
        Err(ReadError::NoGrid) => {
            result.error = Some("no grid found".into());
            return result;
        }
        Err(e) => {
            result.error = Some(e.to_string());
            return result;
        }
    };
    // The truth describes one grid; the photo may show others (a
    // neighbouring grid, yesterday's solution): evaluate the classic grid
    // whose reading agrees most with the truth.
    let Some(grid) = page
        .grids
        .iter()
        .filter(|g| g.classic_part().is_some())
        .max_by_key(|g| agreement(g, &result.truth))
    else {
        result.error = Some("no 9x9 grid found".into());
        return result;
    };
    // Corner error in stored-pixel terms: undo the orientation relabelling.
    let stored_quad = grid.quad().rotated((4 - grid.quarter_turns % 4) % 4);
    result.corner_error = corners.map(|c| corner_error(&stored_quad, c));
    if let (Some(dir), Some(part)) = (dump, grid.classic_part()) {
        dump_tiles(dir, &name, &part.tiles, &result.truth);
    }
    let read = Board {
        shape: Shape::classic(),
        cells: grid.cells.iter().map(|e| e.best().0).collect(),
    };
    let right =
        |o: &Outcome| matches!((o, &truth_solution), (Outcome::Unique(g), Some(t)) if g == t);
    result.solved_before = solve(&read, DEFAULT_LIMIT).is_ok_and(|o| right(&o));
    let decision = decide_grid(grid, &[]);
    let shown_right = decision
        .solution()
        .is_some_and(|s| Some(s) == truth_solution.as_ref());
    result.solved_after = decision.verdict == Verdict::Solved && shown_right;
    result.unsure = matches!(decision.verdict, Verdict::Unsure(_));
    result.wrong_drawn = decision.solution().is_some() && !shown_right;
    result.answer = decision.solution().map(|_| Answer {
        confidence: decision.confidence,
        right: shown_right,
    });
    result.verdict = Some(verdict_name(&decision.verdict));
    if let Some(part) = grid.classic_part() {
        let kinds = kinds.unwrap_or_else(|| eval_measures::kinds_of_clues(&result.truth));
        result.kinds.add(&kinds, &part.classes, &decision.givens);
    }
    result.read = Some(read);
    result.timings = page.timings.0.clone();
    result
}

/// Cells of a grid's most likely reading that agree with the truth.
fn agreement(grid: &GridReading, truth: &Board) -> usize {
    grid.cells
        .iter()
        .zip(&truth.cells)
        .filter(|(e, &t)| e.best().0 == t)
        .count()
}

/// Writes each tile as `<dir>/<label>/<photo>_rXcY.png` (label 0 = empty).
fn dump_tiles(dir: &Path, photo: &str, tiles: &[Tile], truth: &Board) {
    let stem = photo.rsplit_once('.').map_or(photo, |(s, _)| s);
    for (i, tile) in tiles.iter().enumerate() {
        let sub = dir.join(truth.cells[i].to_string());
        if std::fs::create_dir_all(&sub).is_ok() {
            let path = sub.join(format!("{stem}_{}.png", Shape::classic().cell_name(i)));
            if let Err(e) = tile
                .to_image()
                .save_with_format(&path, image::ImageFormat::Png)
            {
                eprintln!("sudoku-snap: {}: {e}", path.display());
            }
        }
    }
}

fn tally(results: &[PhotoResult]) -> Totals {
    let mut t = Totals {
        photos: results.len(),
        ..Totals::default()
    };
    for r in results {
        let clues = r.truth.givens();
        t.clues += clues;
        t.cells += CELLS;
        t.solved_before += r.solved_before as usize;
        t.solved_after += r.solved_after as usize;
        t.unsure += r.unsure as usize;
        t.wrong_drawn += r.wrong_drawn as usize;
        if !matches!(solve(&r.truth, 2), Ok(Outcome::Unique(_))) {
            t.truth_unsolvable += 1;
            t.no_solution_right += usize::from(r.verdict == Some("no_solution"));
        }
        let Some(read) = &r.read else { continue };
        t.located += 1;
        let mut all = true;
        for i in 0..CELLS {
            let (got, want) = (read.cells[i], r.truth.cells[i]);
            if got == want {
                t.cells_right += 1;
                t.clues_right += (want != 0) as usize;
            } else {
                all = false;
                t.false_digits += (want == 0) as usize;
                t.missed_clues += (want != 0 && got == 0) as usize;
            }
        }
        t.grids_right += all as usize;
    }
    t
}

fn percentile(values: &mut [f64], q: f64) -> f64 {
    if values.is_empty() {
        return f64::NAN;
    }
    values.sort_by(f64::total_cmp);
    let i = ((values.len() - 1) as f64 * q).round() as usize;
    values[i]
}

/// Median and p95 per stage, in the order stages ran.
fn stage_stats(results: &[PhotoResult]) -> Vec<(String, f64, f64)> {
    let mut order: Vec<&'static str> = Vec::new();
    let mut by_stage: HashMap<&'static str, Vec<f64>> = HashMap::new();
    let mut totals = Vec::new();
    for r in results.iter().filter(|r| !r.timings.is_empty()) {
        for &(s, ms) in &r.timings {
            if !order.contains(&s) {
                order.push(s);
            }
            by_stage.entry(s).or_default().push(ms);
        }
        // Decode to probabilities: what "read time" means in the README.
        totals.push(
            r.timings
                .iter()
                .filter(|(s, _)| *s != "solve")
                .map(|(_, ms)| ms)
                .sum(),
        );
    }
    let mut out: Vec<(String, f64, f64)> = order
        .iter()
        .map(|s| {
            let mut v = by_stage.remove(s).unwrap_or_default();
            (
                s.to_string(),
                percentile(&mut v, 0.5),
                percentile(&mut v, 0.95),
            )
        })
        .collect();
    out.push((
        "read (decode..classify)".into(),
        percentile(&mut totals, 0.5),
        percentile(&mut totals, 0.95),
    ));
    out
}

fn wrong_cells(r: &PhotoResult) -> Vec<String> {
    let Some(read) = &r.read else { return vec![] };
    let v = |d: u8| {
        if d == 0 {
            ".".to_string()
        } else {
            d.to_string()
        }
    };
    (0..CELLS)
        .filter(|&i| read.cells[i] != r.truth.cells[i])
        .map(|i| {
            format!(
                "{} read {} truth {}",
                Shape::classic().cell_name(i),
                v(read.cells[i]),
                v(r.truth.cells[i])
            )
        })
        .collect()
}

/// Runs `eval` and prints its report; the exit code is 0 unless a folder
/// could not be read.
pub fn run(args: &EvalArgs) -> Result<ExitCode, Error> {
    let reader = super::reader(&args.reader)?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut all = Combined::default();
    for dir in &args.dirs {
        // Books and pages with several grids: a truth.tsv beside each.
        let books = book_sources(dir);
        if !books.is_empty() {
            let figures = eval_books::run(&reader, &books, args.json, &mut out)?;
            for f in &figures {
                all.answers.extend(f.answers());
                all.sources += 1;
            }
            if dir.is_file() {
                continue;
            }
        }
        let photos = photos_with_truth(dir)?;
        if photos.is_empty() && !books.is_empty() {
            continue;
        }
        if photos.is_empty() {
            return Err(Error::Usage(format!(
                "{}: no photos with a ground-truth .txt beside them",
                dir.display()
            )));
        }
        let corners = load_corners(dir);
        let mut results = Vec::new();
        for (photo, truth_path) in &photos {
            let truth = (read_truth(truth_path)?, read_kinds(photo)?);
            let key = photo
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            results.push(evaluate(
                &reader,
                photo,
                truth,
                corners.get(&key),
                args.dump_tiles.as_deref(),
            ));
        }
        let text = if args.json {
            // Plain data with string keys: serialising cannot fail.
            format!(
                "{}\n",
                serde_json::to_string(&report_json(dir, &results)).unwrap_or_default()
            )
        } else {
            report_text(dir, &results)
        };
        out.write_all(text.as_bytes()).map_err(Error::Output)?;
        all.sources += 1;
        all.answers.extend(results.iter().filter_map(|r| r.answer));
        for r in &results {
            all.kinds.merge(&r.kinds);
        }
    }
    if args.dirs.len() > 1 {
        let text = if args.json {
            snap_answer::report::json_line(&all.report())
        } else {
            all.text()
        };
        out.write_all(text.as_bytes()).map_err(Error::Output)?;
    }
    Ok(ExitCode::Success)
}

/// Figures summed over every source of one `eval` run: what the
/// calibration promise is measured on (held-out sources together).
#[derive(Debug, Default)]
struct Combined {
    sources: usize,
    answers: Vec<Answer>,
    kinds: Confusion,
}

/// The `eval --json` line for all sources together.
#[derive(Debug, Serialize)]
struct CombinedReport {
    /// Always `"all"`: tells this line from a source's.
    combined: &'static str,
    sources: usize,
    answers: usize,
    calibration: Calibration,
    kinds: Vec<eval_measures::ConfusionRow>,
}

impl Combined {
    fn report(&self) -> CombinedReport {
        CombinedReport {
            combined: "all",
            sources: self.sources,
            answers: self.answers.len(),
            calibration: eval_measures::calibration(&self.answers),
            kinds: self.kinds.rows(),
        }
    }

    fn text(&self) -> String {
        let mut s = format!(
            "all {} sources: {} answers shown\n",
            self.sources,
            self.answers.len()
        );
        s += &eval_measures::calibration_text(&eval_measures::calibration(&self.answers));
        if !self.kinds.is_empty() {
            s += &self.kinds.text();
        }
        s
    }
}

fn pct(a: usize, b: usize) -> f64 {
    if b == 0 {
        0.0
    } else {
        100.0 * a as f64 / b as f64
    }
}

fn corner_stats(results: &[PhotoResult]) -> Option<(f64, f64, f64)> {
    let mut errors: Vec<f64> = results
        .iter()
        .filter_map(|r| r.corner_error.map(f64::from))
        .collect();
    if errors.is_empty() {
        return None;
    }
    let max = errors.iter().copied().fold(0.0, f64::max);
    Some((
        percentile(&mut errors, 0.5),
        percentile(&mut errors, 0.95),
        max,
    ))
}

fn report_text(dir: &Path, results: &[PhotoResult]) -> String {
    let t = tally(results);
    let mut s = format!("eval {}: {} photos\n", dir.display(), t.photos);
    s += &format!("  grids located             {}/{}\n", t.located, t.photos);
    s += &format!(
        "  cells correct             {}/{} ({:.2}%)\n",
        t.cells_right,
        t.cells,
        pct(t.cells_right, t.cells)
    );
    let located_cells = t.located * CELLS;
    s += &format!(
        "    on located grids        {}/{} ({:.2}%)\n",
        t.cells_right,
        located_cells,
        pct(t.cells_right, located_cells)
    );
    s += &format!(
        "  clues correct             {}/{} ({:.2}%)\n",
        t.clues_right,
        t.clues,
        pct(t.clues_right, t.clues)
    );
    s += &format!("  clues missed (read empty) {}\n", t.missed_clues);
    s += &format!("  false digits on empty     {}\n", t.false_digits);
    s += &format!(
        "  grids read fully correct  {}/{}\n",
        t.grids_right, t.photos
    );
    s += &format!(
        "  solved right              {}/{} as read, {}/{} decided (status solved)\n",
        t.solved_before, t.photos, t.solved_after, t.photos
    );
    if t.truth_unsolvable > 0 {
        s += &format!(
            "  no solution (truth)       {}/{} reported no_solution\n",
            t.no_solution_right, t.truth_unsolvable
        );
    }
    s += &format!("  unsure                    {}\n", t.unsure);
    s += &format!("  WRONG ANSWERS SHOWN       {}\n", t.wrong_drawn);
    s += &eval_measures::calibration_text(&calibration(results));
    let kinds = confusion(results);
    if !kinds.is_empty() {
        s += &kinds.text();
    }
    if let Some((median, p95, max)) = corner_stats(results) {
        s += &format!(
            "  corner error (px)         median {median:.1}, p95 {p95:.1}, max {max:.1}\n"
        );
    }
    let wrong: Vec<&PhotoResult> = results
        .iter()
        .filter(|r| r.read.is_none() || !wrong_cells(r).is_empty())
        .collect();
    if !wrong.is_empty() {
        s += "  photos with wrong cells:\n";
        for r in wrong {
            let what = r.error.clone().unwrap_or_else(|| wrong_cells(r).join(", "));
            let solved = if r.solved_after {
                " (solved right after repair)"
            } else {
                ""
            };
            s += &format!("    {}: {what}{solved}\n", r.name);
        }
    }
    s += "  time per stage (ms)       median     p95\n";
    for (stage, median, p95) in stage_stats(results) {
        s += &format!("    {stage:<24}{median:>8.2}{p95:>8.2}\n");
    }
    s
}

/// The calibration table of the answers shown.
fn calibration(results: &[PhotoResult]) -> Calibration {
    let answers: Vec<Answer> = results.iter().filter_map(|r| r.answer).collect();
    eval_measures::calibration(&answers)
}

/// The cell kinds of every photo read.
fn confusion(results: &[PhotoResult]) -> Confusion {
    let mut all = Confusion::default();
    for r in results {
        all.merge(&r.kinds);
    }
    all
}

/// The `eval --json` object for one folder.
#[derive(Debug, Serialize)]
struct EvalReport {
    dir: String,
    photos: usize,
    located: usize,
    cells: usize,
    cells_correct: usize,
    clues: usize,
    clues_correct: usize,
    clues_missed: usize,
    false_digits: usize,
    grids_correct: usize,
    solved_before_repair: usize,
    solved_after_repair: usize,
    truth_unsolvable: usize,
    no_solution_right: usize,
    unsure: usize,
    wrong_answers_shown: usize,
    calibration: Calibration,
    /// Cell kinds: truth against the classifier's most likely class, and
    /// how many of each were taken as clues.
    kinds: Vec<eval_measures::ConfusionRow>,
    /// Largest-corner error against `corners.csv`, in pixels.
    corner_error: Option<Spread>,
    /// Median and p95 time of each stage, in the order the stages run.
    ms: Vec<StageTime>,
    results: Vec<PhotoLine>,
}

/// Median, p95 and maximum of a measure.
#[derive(Debug, Serialize)]
struct Spread {
    median: f64,
    p95: f64,
    max: f64,
}

/// Median and p95 time of one stage.
#[derive(Debug, Serialize)]
struct StageTime {
    stage: String,
    median: f64,
    p95: f64,
}

/// One photo's line in the report.
#[derive(Debug, Serialize)]
struct PhotoLine {
    name: String,
    located: bool,
    error: Option<String>,
    wrong_cells: Vec<String>,
    solved_before_repair: bool,
    solved_after_repair: bool,
    /// The decision's verdict, null when no grid was read.
    verdict: Option<&'static str>,
    /// The confidence of the answer shown, null when none was.
    confidence: Option<f32>,
    corner_error: Option<f32>,
}

fn report_json(dir: &Path, results: &[PhotoResult]) -> EvalReport {
    let t = tally(results);
    EvalReport {
        dir: dir.display().to_string(),
        photos: t.photos,
        located: t.located,
        cells: t.cells,
        cells_correct: t.cells_right,
        clues: t.clues,
        clues_correct: t.clues_right,
        clues_missed: t.missed_clues,
        false_digits: t.false_digits,
        grids_correct: t.grids_right,
        solved_before_repair: t.solved_before,
        solved_after_repair: t.solved_after,
        truth_unsolvable: t.truth_unsolvable,
        no_solution_right: t.no_solution_right,
        unsure: t.unsure,
        wrong_answers_shown: t.wrong_drawn,
        calibration: calibration(results),
        kinds: confusion(results).rows(),
        corner_error: corner_stats(results).map(|(median, p95, max)| Spread { median, p95, max }),
        ms: stage_stats(results)
            .into_iter()
            .map(|(stage, median, p95)| StageTime { stage, median, p95 })
            .collect(),
        results: results
            .iter()
            .map(|r| PhotoLine {
                name: r.name.clone(),
                located: r.read.is_some(),
                error: r.error.clone(),
                wrong_cells: wrong_cells(r),
                solved_before_repair: r.solved_before,
                solved_after_repair: r.solved_after,
                verdict: r.verdict,
                confidence: r.answer.map(|a| a.confidence),
                corner_error: r.corner_error,
            })
            .collect(),
    }
}
