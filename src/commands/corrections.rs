//! Which grid each hand correction is for: `--set` values with their
//! targets (`photo.jpg:`, `p108:`, `g2:`) and `--givens`, matched to the
//! run's inputs, pages and grids.
//!
//! Inputs and pages are known before anything is read, so a correction
//! that names none of them, or names none while the run reads several, is
//! a usage error before any work. Grids are known only once a page is read:
//! a correction that does not fit them (no grid named on a page of several,
//! a cell outside the grid's shape) fails that page with the reason. A
//! correction is never dropped without a word.

use std::path::{Path, PathBuf};

use snap_solver::overrides::{parse_corrections, Correction};
use snap_solver::{Board, PuzzleReader, Shape};

use snap_answer::answer::{self, Place};
use snap_vision::Page;

use super::inputs::Unit;
use super::{plural, shell_word};
use crate::error::Error;

/// The grids of a `--givens` file, and the grid it is for when named
/// (`--givens g2:grid.txt`).
#[derive(Debug, Clone)]
struct Givens {
    /// The file as named on the command line.
    name: String,
    /// The grid named, if any.
    grid: Option<usize>,
    /// Its puzzles, in order.
    puzzles: Vec<Board>,
}

/// Every hand correction of a run.
#[derive(Debug, Clone, Default)]
pub struct Corrections {
    sets: Vec<Correction>,
    givens: Option<Givens>,
}

/// The corrections aimed at one page (a photo or a PDF page).
#[derive(Debug, Clone, Default)]
pub struct PageCorrections {
    sets: Vec<Correction>,
    givens: Option<Givens>,
}

impl Corrections {
    /// Parses `--set` values and reads the `--givens` file; usage errors
    /// for what cannot be parsed or read.
    pub fn parse(sets: &[String], givens: Option<&Path>) -> Result<Corrections, Error> {
        let sets = parse_corrections(sets).map_err(Error::Usage)?;
        let givens = givens.map(read_givens).transpose()?;
        Ok(Corrections { sets, givens })
    }

    /// Checks that every correction names an input and page of the run, or
    /// names none where the run reads only one; `inputs` are the inputs
    /// (folders expanded) and `units` the pages to read.
    pub fn check(&self, inputs: &[PathBuf], units: &[Unit]) -> Result<(), Error> {
        if self.givens.is_some() && units.len() > 1 {
            return Err(Error::Usage(format!(
                "--givens is for one photo or page, and the run reads {}; \
                 give the photo alone (and one page with --pages)",
                units.len()
            )));
        }
        for set in &self.sets {
            let input = input_of(set, inputs)?;
            check_page(set, &input, units)?;
        }
        Ok(())
    }

    /// The corrections aimed at `unit`, one of the run's pages.
    pub fn for_unit(&self, unit: &Unit, inputs: &[PathBuf]) -> PageCorrections {
        self.for_page(unit.path(), unit.page(), inputs)
    }

    /// The corrections aimed at page `page` (`None` for a photo) of the
    /// input `path`, one of the run's `inputs`.
    pub fn for_page(
        &self,
        path: &Path,
        page: Option<usize>,
        inputs: &[PathBuf],
    ) -> PageCorrections {
        let sets = self
            .sets
            .iter()
            .filter(|set| {
                let input_ok = match &set.target.input {
                    Some(name) => names(name, path),
                    None => inputs.len() <= 1,
                };
                let page_ok = set.target.page.is_none() || set.target.page == page;
                input_ok && page_ok
            })
            .cloned()
            .collect();
        PageCorrections {
            sets,
            givens: self.givens.clone(),
        }
    }
}

impl PageCorrections {
    /// The corrections as text, for a resume record's fingerprint: a page
    /// read with other corrections is read again.
    pub fn fingerprint(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .sets
            .iter()
            .map(|s| format!("--set {}", s.text))
            .collect();
        if let Some(g) = &self.givens {
            let puzzles: Vec<String> = g.puzzles.iter().map(Board::to_line).collect();
            out.push(format!("--givens {:?} {}", g.grid, puzzles.join(" ")));
        }
        out
    }

    /// The cells each grid of `page` gets, by [`answer::numbered`]'s
    /// numbering; `place` names the page in messages. Errors say why a
    /// correction does not fit the page's grids.
    pub fn cells_for(&self, page: &Page, place: &Place) -> Result<Vec<Vec<(usize, u8)>>, String> {
        let shapes: Vec<Shape> = answer::numbered(page).iter().map(|g| g.shape()).collect();
        self.per_grid(&shapes, &place.label())
    }

    /// The cells each grid of the page gets (layout positions and values,
    /// later ones winning), for grids of `shapes` in the page's numbering;
    /// `label` names the page in messages. Errors say why a correction
    /// does not fit the page's grids.
    pub fn per_grid(&self, shapes: &[Shape], label: &str) -> Result<Vec<Vec<(usize, u8)>>, String> {
        let mut out = vec![Vec::new(); shapes.len()];
        if shapes.is_empty() {
            return Ok(out);
        }
        if let Some(givens) = &self.givens {
            for (k, puzzle) in givens_grids(givens, shapes, label)? {
                out[k].extend(
                    (0..puzzle.cells.len())
                        .filter(|&i| puzzle.shape.contains(i))
                        .map(|i| (i, puzzle.cells[i])),
                );
            }
        }
        for set in &self.sets {
            let k = grid_of(set, shapes.len(), label)?;
            let cell = set.cell(shapes[k]).map_err(|e| match shapes.len() {
                1 => e,
                _ => format!("{e} (grid {} of {label})", k + 1),
            })?;
            out[k].push(cell);
        }
        Ok(out)
    }
}

/// The one input `set` is for, or why it names none (or several).
fn input_of(set: &Correction, inputs: &[PathBuf]) -> Result<PathBuf, Error> {
    let usage = |why: String| Err(Error::Usage(format!("--set {}: {why}", set.text)));
    let Some(name) = &set.target.input else {
        return match inputs {
            [only] => Ok(only.clone()),
            _ => usage(format!(
                "the run reads {} inputs; name the one it is for, e.g. --set {}",
                inputs.len(),
                shell_word(&format!(
                    "{}:{}",
                    inputs
                        .first()
                        .map_or(String::new(), |p| p.display().to_string()),
                    set.text
                ))
            )),
        };
    };
    let mut found: Vec<&PathBuf> = inputs.iter().filter(|p| names(name, p)).collect();
    found.dedup();
    match found.as_slice() {
        [only] => Ok((*only).clone()),
        [] => usage(format!(
            "no input is named {name} (the run reads {})",
            list(inputs.iter().map(|p| p.display().to_string()))
        )),
        several => usage(format!(
            "{name} names {}; give its path as on the command line",
            list(several.iter().map(|p| p.display().to_string()))
        )),
    }
}

/// The page a correction is for: named and read, or not named while its
/// input has only one page to read.
fn check_page(set: &Correction, input: &Path, units: &[Unit]) -> Result<(), Error> {
    let usage = |why: String| Err(Error::Usage(format!("--set {}: {why}", set.text)));
    let mine: Vec<&Unit> = units.iter().filter(|u| u.path() == input).collect();
    if mine.iter().any(|u| matches!(u, Unit::Broken { .. })) {
        // Reported as unreadable with its reason; nothing to correct.
        return Ok(());
    }
    let pages: Vec<usize> = mine.iter().filter_map(|u| u.page()).collect();
    let name = input.display();
    match (set.target.page, pages.as_slice()) {
        (Some(_), []) => usage(format!("{name} is a photo: it has no pages")),
        (Some(page), read) if !read.contains(&page) => usage(format!(
            "page {page} of {name} is not among the pages read ({})",
            list(read.iter().map(|p| p.to_string()))
        )),
        (None, [first, _, ..]) => usage(format!(
            "{name} has {} pages to read; name the page, e.g. --set {} \
             (or read that page alone with --pages)",
            pages.len(),
            shell_word(&format!("p{first}:{}", set.text))
        )),
        _ => Ok(()),
    }
}

/// The grid (0-based) a correction is for on a page of `count` grids.
fn grid_of(set: &Correction, count: usize, label: &str) -> Result<usize, String> {
    match set.target.grid {
        Some(g) if g <= count => Ok(g - 1),
        Some(g) => Err(format!(
            "--set {}: there is no grid {g}: {label} has {}",
            set.text,
            plural(count, "grid")
        )),
        None if count == 1 => Ok(0),
        None => Err(format!(
            "--set {}: {label} has {count} grids; name the one it is for, e.g. --set {}",
            set.text,
            shell_word(&format!("g1:{}", set.text))
        )),
    }
}

/// Which grid (0-based) each puzzle of the givens file is for.
fn givens_grids<'a>(
    givens: &'a Givens,
    shapes: &[Shape],
    label: &str,
) -> Result<Vec<(usize, &'a Board)>, String> {
    let name = &givens.name;
    let pairs: Vec<(usize, &Board)> = match (givens.grid, givens.puzzles.as_slice()) {
        (Some(g), _) if g > shapes.len() => {
            return Err(format!(
                "--givens g{g}:{name}: there is no grid {g}: {label} has {}",
                plural(shapes.len(), "grid")
            ))
        }
        (Some(g), [only]) => vec![(g - 1, only)],
        // `read`'s output for the page, one puzzle per grid: its grid g.
        (Some(g), all) if all.len() == shapes.len() => vec![(g - 1, &all[g - 1])],
        (Some(g), several) => {
            return Err(format!(
                "--givens g{g}:{name}: the file holds {} puzzles and {label} {}; \
                 give grid {g}'s alone, or one per grid",
                several.len(),
                plural(shapes.len(), "grid")
            ))
        }
        (None, puzzles) if puzzles.len() == shapes.len() => puzzles.iter().enumerate().collect(),
        (None, puzzles) => {
            return Err(format!(
                "--givens {name}: the file holds {} and {label} {}; \
                 give one per grid, in order, or name the grid, e.g. --givens g1:{name}",
                plural(puzzles.len(), "puzzle"),
                plural(shapes.len(), "grid")
            ))
        }
    };
    for &(k, puzzle) in &pairs {
        if puzzle.shape != shapes[k] {
            return Err(format!(
                "--givens {name}: its puzzle is {}, and grid {} of {label} was read as {} \
                 (--shape {} reads it as one)",
                puzzle.shape.name(),
                k + 1,
                shapes[k].name(),
                puzzle.shape.name()
            ));
        }
    }
    Ok(pairs)
}

/// Reads `--givens [gN:]FILE`: every puzzle in it, in any form `solve`
/// reads.
fn read_givens(arg: &Path) -> Result<Givens, Error> {
    let text = arg.to_string_lossy();
    let (grid, path) = match text.split_once(':') {
        Some((g, rest)) if !arg.exists() => match g.strip_prefix(['g', 'G']).map(str::parse) {
            Some(Ok(n)) if n >= 1 => (Some(n), PathBuf::from(rest)),
            _ => (None, arg.to_path_buf()),
        },
        _ => (None, arg.to_path_buf()),
    };
    let name = path.display().to_string();
    let bytes = snap_vision::read_file(&path).map_err(|source| Error::Input {
        name: format!("--givens {name}"),
        source,
    })?;
    let mut puzzles = Vec::new();
    for entry in PuzzleReader::new(bytes.as_slice(), None) {
        let entry = entry.map_err(|source| Error::Input {
            name: format!("--givens {name}"),
            source,
        })?;
        let puzzle = entry
            .puzzle
            .map_err(|e| Error::Usage(format!("--givens {name}: {e}")))?;
        puzzles.push(puzzle);
    }
    if puzzles.is_empty() {
        return Err(Error::Usage(format!("--givens {name}: no puzzle in it")));
    }
    Ok(Givens {
        name,
        grid,
        puzzles,
    })
}

/// True when `name` (as typed in a target) names the input `path`: its
/// path as given, or its file name.
fn names(name: &str, path: &Path) -> bool {
    Path::new(name) == path
        || path
            .file_name()
            .is_some_and(|f| f == std::ffi::OsStr::new(name))
}

/// `a, b, c` (the first few, then "and N more").
fn list(items: impl Iterator<Item = String>) -> String {
    const SHOWN: usize = 5;
    let items: Vec<String> = items.collect();
    if items.len() <= SHOWN {
        return items.join(", ");
    }
    format!(
        "{}, and {} more",
        items[..SHOWN].join(", "),
        items.len() - SHOWN
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn photos(names: &[&str]) -> (Vec<PathBuf>, Vec<Unit>) {
        let inputs: Vec<PathBuf> = names.iter().map(PathBuf::from).collect();
        let units = inputs.iter().cloned().map(Unit::Photo).collect();
        (inputs, units)
    }

    fn check(sets: &[&str], names: &[&str]) -> Result<(), String> {
        let sets: Vec<String> = sets.iter().map(|s| s.to_string()).collect();
        let (inputs, units) = photos(names);
        Corrections::parse(&sets, None)
            .and_then(|c| c.check(&inputs, &units))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn a_correction_names_its_input_when_the_run_reads_several() {
        assert!(check(&["r6c9=2"], &["a.jpg"]).is_ok());
        let err = check(&["r6c9=2"], &["a.jpg", "dir/b.jpg"]).unwrap_err();
        assert!(
            err.contains("reads 2 inputs") && err.contains("--set a.jpg:r6c9=2"),
            "{err}"
        );
        assert!(check(&["b.jpg:r6c9=2"], &["a.jpg", "dir/b.jpg"]).is_ok());
        assert!(check(&["dir/b.jpg:r6c9=2"], &["a.jpg", "dir/b.jpg"]).is_ok());
        let err = check(&["c.jpg:r6c9=2"], &["a.jpg", "b.jpg"]).unwrap_err();
        assert!(err.contains("no input is named c.jpg"), "{err}");
        let err = check(&["x.jpg:r1c1=1"], &["a/x.jpg", "b/x.jpg"]).unwrap_err();
        assert!(err.contains("give its path"), "{err}");
        let err = check(&["p3:r1c1=1"], &["a.jpg"]).unwrap_err();
        assert!(err.contains("a.jpg is a photo: it has no pages"), "{err}");
    }

    #[test]
    fn each_page_gets_its_own_corrections() {
        let sets: Vec<String> = ["a.jpg:r1c1=1", "b.jpg:g2:r2c2=2"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let (inputs, units) = photos(&["a.jpg", "b.jpg"]);
        let c = Corrections::parse(&sets, None).unwrap();
        let a = c.for_unit(&units[0], &inputs);
        let b = c.for_unit(&units[1], &inputs);
        let nine = Shape::classic();
        assert_eq!(a.per_grid(&[nine], "a.jpg"), Ok(vec![vec![(0, 1)]]));
        assert_eq!(
            b.per_grid(&[nine, nine], "b.jpg"),
            Ok(vec![vec![], vec![(10, 2)]])
        );
        let err = b.per_grid(&[nine], "b.jpg").unwrap_err();
        assert!(err.contains("no grid 2: b.jpg has 1 grid"), "{err}");
    }

    #[test]
    fn an_unnamed_grid_on_a_page_of_several_is_an_error_saying_how() {
        let c = Corrections::parse(&["r1c9=3".to_string()], None).unwrap();
        let (inputs, units) = photos(&["page.png"]);
        let page = c.for_unit(&units[0], &inputs);
        let nine = Shape::classic();
        let err = page.per_grid(&[nine, nine, nine], "page.png").unwrap_err();
        assert!(
            err.contains("page.png has 3 grids") && err.contains("--set g1:r1c9=3"),
            "{err}"
        );
        // On a 16x16 the row is 16 cells long.
        let sixteen = Shape::square(16).unwrap();
        let c = Corrections::parse(&["r2c1=5".to_string()], None).unwrap();
        let page = c.for_unit(&units[0], &inputs);
        assert_eq!(
            page.per_grid(&[sixteen], "page.png"),
            Ok(vec![vec![(16, 5)]])
        );
    }
}
