//! The page locator on typeset pages with known grid boxes
//! (`models/eval/locate_pages.py` writes them: PAGE.png and PAGE.tsv).

use std::path::{Path, PathBuf};

use crate::geometry::Quad;
use crate::{decode, locate};

/// A found grid is a known object when their centres are within this
/// fraction of the object's side and their sides differ by less than it.
const MATCH_TOL: f32 = 0.12;

/// One object of a page's truth: kind and box (x0, y0, x1, y1).
struct Truth {
    kind: String,
    bbox: [f32; 4],
}

fn read_truth(path: &Path) -> Vec<Truth> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let v = |i: usize| -> f32 {
                f.get(i)
                    .and_then(|s| s.parse().ok())
                    .unwrap_or_else(|| panic!("{}: bad line {l:?}", path.display()))
            };
            Truth {
                kind: f[0].to_string(),
                bbox: [v(1), v(2), v(3), v(4)],
            }
        })
        .collect()
}

/// Centre and mean side of a quad.
fn centre_side(q: &Quad) -> (f32, f32, f32) {
    let x = q.corners.iter().map(|c| c.0).sum::<f32>() / 4.0;
    let y = q.corners.iter().map(|c| c.1).sum::<f32>() / 4.0;
    let s = (0..4)
        .map(|i| {
            let (a, b) = (q.corners[i], q.corners[(i + 1) % 4]);
            (a.0 - b.0).hypot(a.1 - b.1)
        })
        .sum::<f32>()
        / 4.0;
    (x, y, s)
}

fn matches(q: &Quad, t: &Truth) -> bool {
    let (x, y, s) = centre_side(q);
    let [x0, y0, x1, y1] = t.bbox;
    let side = 0.5 * ((x1 - x0) + (y1 - y0));
    let tol = MATCH_TOL * side;
    (x - 0.5 * (x0 + x1)).abs() < tol && (y - 0.5 * (y0 + y1)).abs() < tol && (s - side).abs() < tol
}

/// Scores `locate_all` on every PAGE.png + PAGE.tsv of `SNAP_LOCATE_PAGES`:
/// per page the grids found of those expected and what else was reported,
/// and the totals (puzzle and answer grids found; notes tables found, which
/// the main job drops as empty; false grids: crosswords, tables, faded
/// grids or nothing at all).
#[test]
#[ignore = "needs generated pages; run: python3 models/eval/locate_pages.py /tmp/lp && SNAP_LOCATE_PAGES=/tmp/lp cargo test --release -p snap-vision --lib tests::locate_pages -- --ignored --nocapture"]
fn score_generated_pages() {
    let dir = std::env::var("SNAP_LOCATE_PAGES").expect("SNAP_LOCATE_PAGES: folder of pages");
    let mut pages: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "png"))
        .collect();
    pages.sort();
    let (mut expected, mut found, mut notes, mut notes_found, mut false_grids) = (0, 0, 0, 0, 0);
    for p in &pages {
        let truth = read_truth(&p.with_extension("tsv"));
        let bytes = std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let d = decode::decode(&bytes).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        let got = locate::locate_all(&d.gray);
        let grids: Vec<&Truth> = truth
            .iter()
            .filter(|t| t.kind == "puzzle" || t.kind == "answer")
            .collect();
        let hit = grids
            .iter()
            .filter(|t| got.iter().any(|l| matches(&l.quad, t)))
            .count();
        let page_notes: Vec<&Truth> = truth.iter().filter(|t| t.kind == "notes").collect();
        let nf = page_notes
            .iter()
            .filter(|t| got.iter().any(|l| matches(&l.quad, t)))
            .count();
        let fals: Vec<String> = got
            .iter()
            .filter(|l| {
                !truth.iter().any(|t| {
                    matches(&l.quad, t) && matches!(t.kind.as_str(), "puzzle" | "answer" | "notes")
                })
            })
            .map(|l| {
                let (x, y, s) = centre_side(&l.quad);
                let what = truth
                    .iter()
                    .find(|t| matches(&l.quad, t))
                    .map_or("nothing", |t| t.kind.as_str());
                format!("{what}@({x:.0},{y:.0}) side {s:.0}")
            })
            .collect();
        expected += grids.len();
        found += hit;
        notes += page_notes.len();
        notes_found += nf;
        false_grids += fals.len();
        let kind = grids.first().map_or("-", |t| t.kind.as_str());
        let side = grids.first().map_or(0.0, |t| t.bbox[2] - t.bbox[0]);
        println!(
            "{} {}x{} {kind} side {side:.0}: {hit}/{} grids, notes {nf}/{}, false {:?}",
            p.file_name()
                .map_or_else(String::new, |f| f.to_string_lossy().into_owned()),
            d.gray.width(),
            d.gray.height(),
            grids.len(),
            page_notes.len(),
            fals
        );
    }
    println!(
        "TOTAL {} pages: {found}/{expected} grids found, notes tables {notes_found}/{notes}, false grids {false_grids}",
        pages.len()
    );
}
