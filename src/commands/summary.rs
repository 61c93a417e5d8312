//! What a batch tells a person: a progress bar while it runs (pages done,
//! rate, time left) and, at the end, a summary naming what needs a look:
//! which page, which grid, and why. Every grid's lines only with `-v`.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

use super::photo::Outcome;
use super::plural;
use snap_answer::report::Status;

/// Most places listed under "needs a look"; the rest are counted. A book
/// with hundreds of problems has a problem of its own (a wrong `--dpi`, a
/// kind of page the reader does not know), and every grid is in `-v` and
/// `--json`.
const MAX_LISTED: usize = 30;

/// Solved grids named in the summary, so that a person sees which inputs
/// are behind the count; a book's hundreds are in `-v` and `--json`.
const SOLVED_NAMED: usize = 5;

/// The batch summary: inputs, pages, grids found and what became of them,
/// with the place of everything that needs a look.
#[derive(Debug, Default)]
pub struct Summary {
    /// Pages (photos, PDF pages) finished, read now or resumed.
    pub done: usize,
    /// Pages not started because of Ctrl-C.
    pub skipped: usize,
    /// Pages whose results came from the records of an earlier run.
    pub resumed: usize,
    grids: usize,
    solved: usize,
    /// The places of the first [`SOLVED_NAMED`] grids solved.
    solved_places: Vec<String>,
    answer_grids: usize,
    partial: usize,
    not_solved: usize,
    /// PDF pages without a grid: counted, not listed (covers, text pages
    /// are normal in a book).
    blank_pages: usize,
    /// `place: why`, in input order.
    look: Vec<String>,
    /// What was written for whole books (solved PDFs, answer keys).
    pub books: Vec<String>,
}

impl Summary {
    /// Counts one page's outcome.
    pub fn add(&mut self, outcome: &Outcome, resumed: bool, label: &str, pdf_page: bool) {
        if outcome.skipped {
            self.skipped += 1;
            return;
        }
        self.done += 1;
        self.resumed += usize::from(resumed);
        if let Some(e) = &outcome.write_error {
            self.look.push(format!("{label}: {e}"));
        }
        if let Some(line) = &outcome.failure {
            if pdf_page && line.status == Status::NoGrid {
                self.blank_pages += 1;
            } else {
                self.look.push(format!("{}: {}", line.place, line.why));
            }
            return;
        }
        for g in &outcome.grids {
            self.grids += 1;
            match g.status {
                Status::Solved => {
                    self.solved += 1;
                    if self.solved_places.len() < SOLVED_NAMED {
                        self.solved_places.push(g.place.clone());
                    }
                }
                Status::Complete => self.answer_grids += 1,
                Status::Partial => {
                    self.partial += 1;
                    self.look.push(format!("{}: {}", g.place, g.why));
                }
                _ if g.answer_grid => {
                    self.answer_grids += 1;
                    self.look
                        .push(format!("{}: answer grid, {}", g.place, g.why));
                }
                _ => {
                    self.not_solved += 1;
                    self.look.push(format!("{}: {}", g.place, g.why));
                }
            }
        }
    }

    /// A note for the list of what needs a look (a book output not
    /// written, a folder with nothing in it).
    pub fn note(&mut self, text: String) {
        self.look.push(text);
    }

    /// The summary's lines.
    pub fn text(&self, inputs: usize, pages: usize) -> String {
        let pages = if pages == inputs {
            String::new()
        } else {
            format!(", {}", plural(pages, "page"))
        };
        let mut s = format!(
            "{}{pages}: {} found, {} solved",
            plural(inputs, "input"),
            plural(self.grids, "grid"),
            self.solved
        );
        if self.answer_grids > 0 {
            s.push_str(&format!(", {}", plural(self.answer_grids, "answer grid")));
        }
        s.push_str(&format!(
            ", {} partial, {} not solved\n",
            self.partial, self.not_solved
        ));
        if self.blank_pages > 0 {
            s.push_str(&format!(
                "{} without a grid\n",
                plural(self.blank_pages, "page")
            ));
        }
        for line in &self.books {
            s.push_str(line);
            s.push('\n');
        }
        if !self.solved_places.is_empty() {
            let more = self.solved - self.solved_places.len();
            let rest = if more > 0 {
                format!(", and {more} more")
            } else {
                String::new()
            };
            s.push_str(&format!(
                "solved: {}{rest}\n",
                self.solved_places.join(", ")
            ));
        }
        if !self.look.is_empty() {
            s.push_str(&format!("needs a look ({}):\n", self.look.len()));
            for place in self.look.iter().take(MAX_LISTED) {
                s.push_str(&format!("  {place}\n"));
            }
            if self.look.len() > MAX_LISTED {
                s.push_str(&format!(
                    "  ... and {} more (-v or --json lists every grid)\n",
                    self.look.len() - MAX_LISTED
                ));
            }
        }
        s
    }
}

/// A progress bar on standard error for `n` pages or photos: hidden when
/// there is one, when standard error is not a terminal (a log file gets
/// the summary, not a bar redrawn a thousand times), and with `--quiet`.
pub fn progress_bar(n: usize, what: &str, quiet: bool) -> ProgressBar {
    if n < 2 || quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(n as u64);
    let template = format!(
        "{{bar:30}} {{pos}}/{{len}} {what}, {{rate}}, {{elapsed}} elapsed, about {{eta}} to go"
    );
    let unit = what.trim_end_matches('s').to_string();
    if let Ok(style) = ProgressStyle::with_template(&template) {
        bar.set_style(style.with_key(
            "rate",
            move |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
                let _ = write!(w, "{}", rate(state.per_sec(), &unit));
            },
        ));
    }
    bar
}

/// A rate people read at a glance: `3.2 pages/s`, or below one a second
/// `4.5 s/page`.
fn rate(per_sec: f64, unit: &str) -> String {
    if per_sec >= 1.0 {
        format!("{per_sec:.1} {unit}s/s")
    } else if per_sec > 0.0 {
        format!("{:.1} s/{unit}", 1.0 / per_sec)
    } else {
        format!("- s/{unit}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::commands::photo::Line;

    fn line(status: Status, place: &str, why: &str, answer_grid: bool) -> Line {
        Line {
            status,
            json: String::new(),
            text: String::new(),
            place: place.to_string(),
            why: why.to_string(),
            answer_grid,
            stderr: None,
        }
    }

    #[test]
    fn the_summary_names_what_needs_a_look_and_why() {
        let mut summary = Summary::default();
        let page = Outcome {
            grids: vec![
                line(Status::Solved, "b.pdf page 1 grid 1", "", false),
                line(
                    Status::Unsure,
                    "b.pdf page 1 grid 2",
                    "unsure: check r1c1",
                    false,
                ),
                line(
                    Status::Unsure,
                    "b.pdf page 1 grid 3",
                    "unsure: check r4c5",
                    true,
                ),
                line(Status::Complete, "b.pdf page 1 grid 4", "", true),
            ],
            ..Outcome::default()
        };
        summary.add(&page, false, "b.pdf page 1", true);
        let blank = Outcome {
            failure: Some(line(Status::NoGrid, "b.pdf page 2", "no grid", false)),
            ..Outcome::default()
        };
        summary.add(&blank, true, "b.pdf page 2", true);
        let skipped = Outcome {
            skipped: true,
            ..Outcome::default()
        };
        summary.add(&skipped, false, "b.pdf page 3", true);
        assert_eq!((summary.done, summary.resumed, summary.skipped), (2, 1, 1));
        let text = summary.text(1, 3);
        assert!(
            text.starts_with(
                "1 input, 3 pages: 4 grids found, 1 solved, 2 answer grids, 0 partial, 1 not solved\n1 page without a grid\n"
            ),
            "{text}"
        );
        assert!(text.contains("\nsolved: b.pdf page 1 grid 1\n"), "{text}");
        assert!(text.contains("needs a look (2):\n  b.pdf page 1 grid 2: unsure: check r1c1\n  b.pdf page 1 grid 3: answer grid, unsure: check r4c5\n"), "{text}");
    }

    #[test]
    fn rates_read_at_a_glance() {
        assert_eq!(rate(3.21, "page"), "3.2 pages/s");
        assert_eq!(rate(0.25, "page"), "4.0 s/page");
        assert_eq!(rate(0.0, "photo"), "- s/photo");
    }

    #[test]
    fn a_long_list_is_cut() {
        let mut summary = Summary::default();
        for i in 0..40 {
            summary.note(format!("photo{i}.jpg: no Sudoku grid found"));
        }
        let text = summary.text(40, 40);
        assert_eq!(text.lines().count(), 1 + 1 + MAX_LISTED + 1, "{text}");
        assert!(text.contains("... and 10 more"), "{text}");
    }
}
