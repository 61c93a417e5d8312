//! Measures `eval` shares between photos and books: the calibration of the
//! decision's confidence, and the confusion of cell kinds (empty, printed,
//! pen, pencil, other) against a truth that gives them.

use serde::Serialize;

use snap_solver::Board;
use snap_vision::{best_kind, CellKind, CLASSES};

/// Confidence bins of the calibration table: a shown answer's confidence
/// against how often it was right. `solved` starts at 0.9, so the top three
/// bins are what "solved with confidence >= 0.9" promises.
const CALIBRATION_BINS: [(f32, f32); 5] = [
    (0.0, 0.5),
    (0.5, 0.9),
    (0.9, 0.99),
    (0.99, 0.999),
    (0.999, 1.01),
];

/// Confidence from which an answer is `solved` (the promise measured).
const SOLVED_FROM: f32 = snap_vision::SOLVED_CONFIDENCE;

/// One-sided confidence level of the bound on the wrong-answer rate.
const BOUND_LEVEL: f64 = 0.95;

/// An answer shown (solved, or unsure with an answer), and whether it was
/// the truth's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Answer {
    /// The decision's confidence.
    pub confidence: f32,
    /// The answer shown is the true solution.
    pub right: bool,
}

/// One bin of the calibration table.
#[derive(Debug, Clone, Serialize)]
pub struct CalibrationBin {
    /// `[lo, hi)`.
    pub range: String,
    /// Answers shown with a confidence in the bin.
    pub answers: usize,
    /// Of those, right.
    pub right: usize,
}

/// The calibration of a set of answers: the bins, and the promise that a
/// `solved` answer is right.
#[derive(Debug, Clone, Serialize)]
pub struct Calibration {
    /// Answers per confidence bin.
    pub bins: Vec<CalibrationBin>,
    /// Answers at or above the `solved` confidence.
    pub solved: usize,
    /// Of those, wrong.
    pub solved_wrong: usize,
    /// One-sided 95 % upper bound (Clopper-Pearson) on the rate of wrong
    /// answers among `solved` ones; 1 with no answer.
    pub solved_wrong_bound: f64,
}

/// The calibration table of `answers`.
pub fn calibration(answers: &[Answer]) -> Calibration {
    let bins = CALIBRATION_BINS
        .iter()
        .map(|&(lo, hi)| {
            let inside: Vec<bool> = answers
                .iter()
                .filter(|a| a.confidence >= lo && a.confidence < hi)
                .map(|a| a.right)
                .collect();
            CalibrationBin {
                range: format!("[{lo}, {})", hi.min(1.0)),
                answers: inside.len(),
                right: inside.iter().filter(|&&r| r).count(),
            }
        })
        .collect();
    let solved: Vec<&Answer> = answers
        .iter()
        .filter(|a| a.confidence >= SOLVED_FROM)
        .collect();
    let wrong = solved.iter().filter(|a| !a.right).count();
    Calibration {
        bins,
        solved: solved.len(),
        solved_wrong: wrong,
        solved_wrong_bound: upper_bound(wrong, solved.len()),
    }
}

/// The calibration table as text lines, indented by two.
pub fn calibration_text(c: &Calibration) -> String {
    let mut s = "  calibration (answers shown): confidence  answers  right\n".to_string();
    for bin in &c.bins {
        s += &format!("    {:<34}{:>7}{:>7}\n", bin.range, bin.answers, bin.right);
    }
    s += &format!(
        "    solved (>= {SOLVED_FROM}): {} answers, {} wrong; wrong rate at most {:.2}% (95% upper bound)\n",
        c.solved,
        c.solved_wrong,
        100.0 * c.solved_wrong_bound
    );
    s
}

/// The one-sided upper bound on a rate from `k` events in `n` trials
/// (Clopper-Pearson at [`BOUND_LEVEL`]): the rate at which `k` or fewer
/// events would happen with probability `1 - BOUND_LEVEL`. For `k = 0`
/// about `3 / n`.
pub fn upper_bound(k: usize, n: usize) -> f64 {
    if n == 0 || k >= n {
        return 1.0;
    }
    let tail = 1.0 - BOUND_LEVEL;
    // P(X <= k) falls as the rate grows: bisect for where it is `tail`.
    let (mut lo, mut hi) = (k as f64 / n as f64, 1.0);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if binomial_cdf(k, n, mid) > tail {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    hi
}

/// P(X <= k) for X ~ Binomial(n, p), summed in log space.
fn binomial_cdf(k: usize, n: usize, p: f64) -> f64 {
    let (lp, lq) = (p.ln(), (1.0 - p).ln());
    let mut log_choose = 0.0f64;
    let mut sum = 0.0;
    for i in 0..=k {
        if i > 0 {
            log_choose += ((n - i + 1) as f64).ln() - (i as f64).ln();
        }
        sum += (log_choose + i as f64 * lp + (n - i) as f64 * lq).exp();
    }
    sum
}

/// What a cell holds, coarsely: what the confusion table counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Nothing.
    Empty,
    /// A printed (or typed, on a screen) digit: a clue.
    Printed,
    /// A handwritten pen digit: a person's entry.
    Pen,
    /// Pencil candidates.
    Pencil,
    /// Other ink.
    Other,
}

/// The kinds in table order.
const KINDS: [Kind; 5] = [
    Kind::Empty,
    Kind::Printed,
    Kind::Pen,
    Kind::Pencil,
    Kind::Other,
];

impl Kind {
    fn index(self) -> usize {
        self as usize
    }

    /// The name in the table and the JSON.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Empty => "empty",
            Kind::Printed => "printed",
            Kind::Pen => "pen",
            Kind::Pencil => "pencil",
            Kind::Other => "other",
        }
    }

    /// The kind of a classifier row's most likely class.
    fn of_row(row: &[f32; CLASSES]) -> Kind {
        match best_kind(row).0 {
            CellKind::Empty => Kind::Empty,
            CellKind::Printed(_) => Kind::Printed,
            CellKind::Handwritten(_) => Kind::Pen,
            CellKind::Pencil => Kind::Pencil,
            CellKind::Other => Kind::Other,
        }
    }
}

/// Parses a kinds truth (`<name>.kinds.txt`): 81 cell characters over any
/// lines, `.` empty, `1`-`9` printed, `a`-`i` a pen 1-9, `*` pencil
/// candidates, `#` other ink. `None` when it is not 81 such characters.
pub fn parse_kinds(text: &str) -> Option<Vec<Kind>> {
    let kinds: Option<Vec<Kind>> = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            '.' => Some(Kind::Empty),
            '1'..='9' => Some(Kind::Printed),
            'a'..='i' => Some(Kind::Pen),
            '*' => Some(Kind::Pencil),
            '#' => Some(Kind::Other),
            _ => None,
        })
        .collect();
    kinds.filter(|k| k.len() == 81)
}

/// Kinds from a clue truth: a digit is printed, `.` empty (for truths that
/// say nothing of pen or pencil, like newspaper photos).
pub fn kinds_of_clues(truth: &Board) -> Vec<Kind> {
    truth
        .cells
        .iter()
        .map(|&v| if v == 0 { Kind::Empty } else { Kind::Printed })
        .collect()
}

/// Cells by true kind and kind read, and how many of each true kind the
/// decision took as a clue.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Confusion {
    /// `counts[truth][read]`, in [`KINDS`] order.
    counts: [[usize; 5]; 5],
    /// Cells of each true kind that hold a digit in the puzzle decided.
    as_clue: [usize; 5],
}

/// One row of the confusion table in JSON.
#[derive(Debug, Serialize)]
pub struct ConfusionRow {
    /// The true kind.
    pub truth: &'static str,
    /// Cells of it.
    pub cells: usize,
    /// Read as each kind.
    pub empty: usize,
    /// Read as printed.
    pub printed: usize,
    /// Read as pen.
    pub pen: usize,
    /// Read as pencil.
    pub pencil: usize,
    /// Read as other ink.
    pub other: usize,
    /// Taken as a clue in the puzzle decided (for pen and pencil: must be 0).
    pub taken_as_clue: usize,
}

impl Confusion {
    /// Adds one grid: its true kinds, the classifier's rows (upright, row
    /// major) and the puzzle decided.
    pub fn add(&mut self, truth: &[Kind], rows: &[[f32; CLASSES]], givens: &Board) {
        for ((&t, row), &g) in truth.iter().zip(rows).zip(&givens.cells) {
            self.counts[t.index()][Kind::of_row(row).index()] += 1;
            self.as_clue[t.index()] += usize::from(g != 0);
        }
    }

    /// Adds another table.
    pub fn merge(&mut self, other: &Confusion) {
        for t in 0..5 {
            for r in 0..5 {
                self.counts[t][r] += other.counts[t][r];
            }
            self.as_clue[t] += other.as_clue[t];
        }
    }

    /// True when no cell was counted.
    pub fn is_empty(&self) -> bool {
        self.counts.iter().flatten().all(|&c| c == 0)
    }

    /// The rows of the true kinds that occur.
    pub fn rows(&self) -> Vec<ConfusionRow> {
        KINDS
            .iter()
            .filter(|k| self.counts[k.index()].iter().sum::<usize>() > 0)
            .map(|&k| {
                let c = self.counts[k.index()];
                ConfusionRow {
                    truth: k.name(),
                    cells: c.iter().sum(),
                    empty: c[0],
                    printed: c[1],
                    pen: c[2],
                    pencil: c[3],
                    other: c[4],
                    taken_as_clue: self.as_clue[k.index()],
                }
            })
            .collect()
    }

    /// The table as text lines, indented by two.
    pub fn text(&self) -> String {
        let mut s = "  cell kinds (truth \\ read)   empty printed     pen  pencil   other   taken as clue\n"
            .to_string();
        for r in self.rows() {
            s += &format!(
                "    {:<9}{:>7} cells {:>7}{:>8}{:>8}{:>8}{:>8}{:>16}\n",
                r.truth, r.cells, r.empty, r.printed, r.pen, r.pencil, r.other, r.taken_as_clue
            );
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bound_for_no_wrong_answer_is_about_three_over_n() {
        let b = upper_bound(0, 600);
        assert!((b - 0.004981).abs() < 1e-5, "{b}");
        assert!(upper_bound(1, 600) > b);
        assert_eq!(upper_bound(0, 0), 1.0);
        // Clopper-Pearson, k = 2 of 100: 0.0615 (one-sided 95 %).
        assert!((upper_bound(2, 100) - 0.0615).abs() < 1e-3);
    }

    #[test]
    fn calibration_bins_and_the_solved_promise() {
        let a = |confidence, right| Answer { confidence, right };
        let c = calibration(&[a(0.95, true), a(1.0, true), a(0.6, false), a(0.999, false)]);
        let counts: Vec<(usize, usize)> = c.bins.iter().map(|b| (b.answers, b.right)).collect();
        assert_eq!(counts, vec![(0, 0), (1, 0), (1, 1), (0, 0), (2, 1)]);
        assert_eq!((c.solved, c.solved_wrong), (3, 1));
    }

    #[test]
    fn kinds_parse_and_count() {
        let line = "1a*#.".repeat(16) + "1";
        let kinds = parse_kinds(&line).unwrap();
        assert_eq!(
            &kinds[..5],
            &[
                Kind::Printed,
                Kind::Pen,
                Kind::Pencil,
                Kind::Other,
                Kind::Empty
            ]
        );
        assert!(parse_kinds("1a*").is_none());
        assert!(parse_kinds(&"x".repeat(81)).is_none());
    }
}
