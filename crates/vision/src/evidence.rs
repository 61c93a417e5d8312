//! What each cell of a puzzle holds, from the classifier's probabilities
//! and the tiles: a grid's own print is the reference. A mark far fainter
//! than the grid's clues is no clue (show-through from the back of the
//! page), a pen reading of a glyph that the grid or the page prints
//! elsewhere is print (a font the model takes for handwriting), and a
//! Samurai's shared boxes, read in two grids, are averaged.

use snap_solver::Shape;

use crate::classify::{best, kind_probs, EMPTY, HAND_BASE, OTHER, PRINTED_MAX};
use crate::data::{CellEvidence, GridReading, PartReading, Tile, CLASSES, TILE};
use crate::decide;

/// A mark whose ink is under this share of its grid's printed clues' (Weber
/// contrast, [`Tile::ink`]) is no clue: the digits of the next page showing
/// through, a stain, an erased pencil mark. Clues of one grid are printed
/// in one ink, so their contrast is alike wherever the light falls. On the
/// simulated captures of two held-out seeds (12 192 clue cells), printed
/// clues keep at least 0.5 of their grid's median (99 % above 0.83); the
/// marks of blank cells that the model takes for a digit (show-through,
/// 437) keep at most 0.3 (99 % under 0.2). 0.35 lies between them by ratio
/// (the geometric middle of 0.2 and 0.6).
pub(crate) const FAINT_SHARE: f32 = 0.35;

/// A mark whose ink is at least this share of its grid's printed clues'
/// is as dark as print: on the captures measured for [`FAINT_SHARE`],
/// every printed clue keeps at least 0.5 of its grid's median, and
/// show-through at most 0.3.
pub(crate) const PRINT_DARK: f32 = 0.5;

/// Pen entries (read at [`decide::ENTRY_MIN`]) from which a grid is one a
/// person has written in, where a faint glyph read as a printed digit is
/// taken for a pen digit written lightly (see [`sum_evidence`]): a stray
/// pen reading or two of print or smudges is no person's hand.
const WORKED_ENTRIES: usize = 3;

/// A gap at least this wide (in shares of the print's ink, [`Tile::ink`])
/// between the inks of a worked grid's glyphs read as print parts two
/// inks: the press's, which prints every clue of a grid alike, and a
/// pen's (blue and red ballpoint are lighter than black print in gray, a
/// gel or felt pen's stroke is thinner). Neighbouring clues of one grid
/// differ by 0.01-0.03 in ink (30 of them spread over 0.85-1.1 in the
/// simulated worked photos of seeds 0-59); 0.05 is beyond those steps.
const INK_GAP: f32 = 0.05;

/// A gap at least this wide in tint ([`CellEvidence::tint`], the spread of
/// the ink's colour channels as shares of the paper's) between a worked
/// grid's glyphs read as print parts a coloured ink from the print's: on
/// a simulated worked photo in blue pen (seed 11) the print measures
/// 0.011-0.023 and the pen 0.40-0.54, and black ink under coloured light
/// stays under 0.02 (`tint`'s tests); thin or blurred strokes, mixed with
/// their paper, measure less than their ink.
const TINT_GAP: f32 = 0.1;

/// Most ways of parting a grid's glyphs by one measure that are tried
/// (widest gap first, see [`other_inks_as_pen`]): faint pen entries make a
/// gap of their own below the pen's ink, besides the one below the
/// print's.
const MAX_INK_SPLITS: usize = 3;

/// Glyphs of the other ink that copy the print's (see
/// [`other_inks_as_pen`]) from which the two inks are one font's: pen
/// digits match their grid's print at 0.85 at most ([`SAME_GLYPH`]), so
/// two copies are no chance.
const FONT_COPIES: usize = 2;

/// Clues read surely as print that a grid needs before its print's ink
/// is known: fewer gives a median that one odd cell can move.
const MIN_PRINT_SAMPLES: usize = 5;

/// Probability of a printed value above which a cell counts as print when
/// the grid's ink is measured; under it, a printed reading is in doubt
/// and worth a second look ([`hidden_by_faint_ink`]).
pub(crate) const SURE_PRINT: f32 = 0.9;

/// The evidence of a worked grid with the glyphs of another ink than its
/// print's taken for pen entries: one version per way of parting the
/// glyphs read as print by their ink, first by darkness (lighter than the
/// print's, gaps of at least [`INK_GAP`]), then by colour (more coloured,
/// gaps of at least [`TINT_GAP`]); by each, widest gap first, at most
/// [`MAX_INK_SPLITS`], each leaving at least `min_clues` glyphs as print.
/// Every glyph on the pen's side of the gap, read as print or as pen,
/// holds no clue: its printed readings become pen readings of the same
/// digits. Cells in `fixed` (the user's `--set`) are left as they are. A
/// way of parting whose other glyphs copy the print's (the same digit,
/// the tiles in `tiles` matching at [`SAME_GLYPH`]) in [`FONT_COPIES`]
/// cells is one font printed in two inks (an answer grid's clues in black
/// and its answers in grey), which a hand does not copy: it is not tried.
///
/// The pen's ink is the one of the cells read as pen `entries`: nothing is
/// returned for a grid with fewer than [`WORKED_ENTRIES`] of them (only
/// where a person has written is a second ink a pen's), and a way of
/// parting is tried only when their median lies beyond its gap. A printed
/// answer grid whose digits the model reads as pen in a few cells has
/// those in the print's ink, and its print is not parted.
pub(crate) fn other_inks_as_pen(
    cells: &[CellEvidence],
    tiles: &[Option<&Tile>],
    fixed: &[bool],
    entries: &[usize],
    min_clues: usize,
) -> Vec<Vec<CellEvidence>> {
    if entries.len() < WORKED_ENTRIES {
        return Vec::new();
    }
    // Each measure as "print-like": higher is more like the print.
    let darkness = |e: &CellEvidence| e.ink;
    let colour = |e: &CellEvidence| -e.tint;
    let mut out = parted(cells, tiles, fixed, entries, min_clues, darkness, INK_GAP);
    out.extend(parted(
        cells, tiles, fixed, entries, min_clues, colour, TINT_GAP,
    ));
    out
}

/// [`other_inks_as_pen`] by one measure, `like_print` (higher is more like
/// the print), with gaps of at least `min_gap`.
fn parted(
    cells: &[CellEvidence],
    tiles: &[Option<&Tile>],
    fixed: &[bool],
    entries: &[usize],
    min_clues: usize,
    like_print: impl Fn(&CellEvidence) -> f32,
    min_gap: f32,
) -> Vec<Vec<CellEvidence>> {
    let mut pen_side: Vec<f32> = entries
        .iter()
        .filter_map(|&i| cells.get(i).map(&like_print))
        .collect();
    if pen_side.is_empty() {
        return Vec::new();
    }
    pen_side.sort_by(f32::total_cmp);
    let pen = pen_side[pen_side.len() / 2];
    let mut print: Vec<(f32, usize)> = cells
        .iter()
        .enumerate()
        .filter(|&(i, e)| !fixed.get(i).copied().unwrap_or(false) && e.best().0 > 0)
        .map(|(i, e)| (like_print(e), i))
        .collect();
    print.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut gaps: Vec<(f32, usize)> = (min_clues.max(1)..print.len())
        .map(|k| (print[k - 1].0 - print[k].0, k))
        .filter(|&(gap, k)| gap >= min_gap && pen < print[k - 1].0 - gap / 2.0)
        .collect();
    gaps.sort_by(|a, b| b.0.total_cmp(&a.0));
    let tile = |i: usize| tiles.get(i).copied().flatten();
    gaps.iter()
        .take(MAX_INK_SPLITS)
        .filter_map(|&(gap, k)| {
            let (print_side, other_side) = print.split_at(k);
            let copies_print = |i: usize| {
                tile(i).is_some_and(|t| {
                    print_side.iter().any(|&(_, j)| {
                        cells[j].best().0 == cells[i].best().0
                            && tile(j).is_some_and(|o| same_glyph(t, o, SAME_GLYPH))
                    })
                })
            };
            if other_side.iter().filter(|&&(_, i)| copies_print(i)).count() >= FONT_COPIES {
                return None;
            }
            // Every glyph in the pen's ink is the pen's, those read as
            // pen too: their share of print is no clue either.
            let bar = print_side[k - 1].0 - gap / 2.0;
            let mut split = cells.to_vec();
            for (i, e) in split.iter_mut().enumerate() {
                if holds_glyph(e)
                    && !fixed.get(i).copied().unwrap_or(false)
                    && like_print(&cells[i]) < bar
                {
                    taken_for_pen(e);
                }
            }
            Some(split)
        })
        .collect()
}

/// Whether a cell holds a glyph a parting of inks may take for pen (see
/// [`other_inks_as_pen`]): one read as print, or as a pen entry.
pub(crate) fn holds_glyph(e: &CellEvidence) -> bool {
    e.best().0 > 0 || decide::entry_read(e).is_some()
}

/// Whether a grid's cells hold [`WORKED_ENTRIES`] pen entries or more
/// ([`decide::entry_read`]): a grid a person has written in.
pub(crate) fn worked(cells: &[CellEvidence]) -> bool {
    cells.iter().filter_map(decide::entry_read).count() >= WORKED_ENTRIES
}

/// A glyph made a pen entry: its printed readings are added to its pen
/// readings of the same digits, its entry is the likeliest of those, and
/// it holds no clue.
fn taken_for_pen(e: &mut CellEvidence) {
    for (pen, &clue) in e.pen.iter_mut().zip(&e.clue).skip(1) {
        *pen += clue;
    }
    let mut digit = 0;
    for d in 1..e.pen.len() {
        if e.pen[d] > e.pen[digit] {
            digit = d;
        }
    }
    let total: f32 = e.pen.iter().sum();
    e.entry = Some((digit as u8, total.min(1.0)));
    e.clue = CellEvidence::certain(0, e.clue.len() - 1).clue;
}

/// The median ink ([`Tile::ink`]) of a grid's cells read surely as
/// printed values, or `None` when too few are.
fn print_ink(classes: &[[f32; CLASSES]], tiles: &[Tile]) -> Option<f32> {
    let mut inks: Vec<f32> = classes
        .iter()
        .zip(tiles)
        .filter(|(classes, _)| kind_probs(classes).printed_total() > SURE_PRINT)
        .map(|(_, t)| t.ink)
        .collect();
    if inks.len() < MIN_PRINT_SAMPLES {
        return None;
    }
    let mid = inks.len() / 2;
    Some(*inks.select_nth_unstable_by(mid, f32::total_cmp).1)
}

/// The cells of a grid (not read from its negative) that may hold a
/// printed clue under faint ink: as dark as the grid's print
/// ([`PRINT_DARK`]), yet read as empty, as other ink, or as a printed
/// symbol in doubt (under [`SURE_PRINT`]). A digit of the next page
/// showing through over a clue makes a cell of two glyphs, one faint,
/// which the model (not trained on such cells) calls other ink or empty,
/// or reads as the clue with part of its probability elsewhere; with the
/// faint glyph taken away ([`Tile::without_faint_ink`] at
/// [`FAINT_SHARE`], the line between show-through and print, on the
/// tile's scale, which the cell's print sets) it reads the clue.
/// Show-through alone is never picked: it is not as dark as print, and
/// its own tile's scale is its own faint ink.
pub(crate) fn hidden_by_faint_ink(classes: &[[f32; CLASSES]], tiles: &[Tile]) -> Vec<usize> {
    let Some(print) = print_ink(classes, tiles) else {
        return Vec::new();
    };
    (0..tiles.len().min(classes.len()))
        .filter(|&i| {
            let (class, p) = best(&classes[i]);
            let in_doubt = matches!(class, EMPTY | OTHER) || (is_printed(class) && p < SURE_PRINT);
            in_doubt && tiles[i].ink >= PRINT_DARK * print
        })
        .collect()
}

/// Whether the second look at a cell ([`hidden_by_faint_ink`]) settles
/// it: `again` (the reading without faint ink) is a printed symbol, and
/// where `first` read one too, the same one, read surer. A second look
/// that reads another symbol does not overrule the first: the cell stays
/// in doubt, and the decision names it.
pub(crate) fn second_look_settles(first: &[f32; CLASSES], again: &[f32; CLASSES]) -> bool {
    let (was, p) = best(first);
    let (now, q) = best(again);
    is_printed(now) && (!is_printed(was) || (now == was && q > p))
}

/// Whether a class is a printed symbol.
fn is_printed(class: usize) -> bool {
    (1..=PRINTED_MAX).contains(&class)
}

/// Each layout position's evidence: from the part that holds it, averaged
/// where a Samurai's grids overlap (the shared boxes are read twice).
/// Faint marks (`faint_marks`) count as no clue, unless the grid read
/// with them is whole and without a clash: a printed answer grid whose
/// answers are printed in grey (no show-through completes a grid by
/// chance). Pen readings of the grid's own print, or of print that
/// `others` holds (the glyphs of the page's other grids: `settled_glyphs`),
/// and pen readings copied exactly on the page count as print, and so does
/// the pen share of a print reading in doubt with pen that has a printed
/// twin (`print_read_as_pen`).
pub(crate) fn merge(shape: Shape, parts: &[PartReading], others: &[Glyph]) -> Vec<CellEvidence> {
    let faint: Vec<Vec<bool>> = parts.iter().map(faint_marks).collect();
    let print: Vec<Vec<u8>> = parts
        .iter()
        .map(|part| print_read_as_pen(part, others))
        .collect();
    let as_read = sum_evidence(shape, parts, &print, None);
    if faint.iter().flatten().any(|&f| f) && !whole_and_valid(shape, &as_read) {
        sum_evidence(shape, parts, &print, Some(&faint))
    } else {
        as_read
    }
}

/// True when the most likely value of every cell of the shape is a digit
/// and no two of them clash.
fn whole_and_valid(shape: Shape, cells: &[CellEvidence]) -> bool {
    let mut board = snap_solver::Board::empty(shape);
    for (i, (slot, e)) in board.cells.iter_mut().zip(cells).enumerate() {
        if shape.contains(i) {
            *slot = e.best().0;
            if *slot == 0 {
                return false;
            }
        }
    }
    board.clashes().is_empty()
}

/// Which of a part's cells hold a mark too faint to be its print: ink under
/// [`FAINT_SHARE`] of the part's printed clues' ([`print_ink`]). None when
/// the print's ink is not known, or the part was read from its negative.
fn faint_marks(part: &PartReading) -> Vec<bool> {
    let print = if part.negative {
        None
    } else {
        print_ink(&part.classes, &part.tiles)
    };
    part.tiles
        .iter()
        .map(|t| print.is_some_and(|p| t.ink < FAINT_SHARE * p))
        .collect()
}

/// A cell the model reads as a pen digit is print when its tile matches a
/// cell of the same grid read as that digit printed this closely
/// (normalised correlation, best over small shifts): one font prints a
/// grid's clues, and a hand does not copy it. The model reads some fonts'
/// glyphs as pen (a serif 3 or 8); against the same grid's 3s and 8s read
/// as print they score 0.93-0.99. On 40 of Kubiesa's trained-on photos,
/// pen digits against the same digit printed in their grid score at most
/// 0.85 (1105 pairs; 99 % under 0.83), and pen against pen of the same
/// digit up to 0.92 (a chain of twins starts from print, never from pen
/// alone). Measured again on all 80 Kubiesa photos (569 pen entries the
/// model reads as pen): at most 0.85 against their grid's print, under
/// 0.8 against a neighbouring grid's, up to 0.94 against pen.
const SAME_GLYPH: f32 = 0.92;

/// Correlation (as [`SAME_GLYPH`]) at which glyphs read as pen are copies
/// of one glyph: a font's, since a hand does not copy itself. On all 80
/// Kubiesa photos pen entries of one digit match each other at 0.94 at
/// most (1s and 7s; the other digits under 0.92); the 7s of a large-print
/// page that the model reads as pen, 0.995-0.996. A pen reading is print
/// with two such copies in its own grid, the three placed as three clues
/// of one digit can be (no two in one row, column or box): one chance pair
/// of plain strokes (two 1s) is not enough, and the stubs of a table's
/// lines that a grid found on a notes table reads as pen 1s, identical
/// down two columns, are not placed so. Not across grids: a page's notes
/// tables are alike.
const SAME_COPY: f32 = 0.98;

/// Tile pixels either way a glyph may sit off its twin (a tenth of the
/// tile: digits set off-centre, the cutter's error).
const GLYPH_SHIFT: i32 = 3;

/// Whether two tiles show one glyph: their normalised correlation
/// ([`correlations`]) reaches `bar` at some shift.
fn same_glyph(a: &Tile, b: &Tile, bar: f32) -> bool {
    correlations(a, b).any(|c| c >= bar)
}

/// How alike two glyphs are: their best normalised correlation over the
/// shifts [`correlations`] tries (-1..1; 0 when either tile is blank).
pub(crate) fn likeness(a: &Tile, b: &Tile) -> f32 {
    correlations(a, b).fold(0.0, f32::max)
}

/// Normalised correlation of two tiles, `b` shifted by (dx, dy) pixels
/// (outside the tile counts as background, 0), at each shift of up to
/// [`GLYPH_SHIFT`] pixels near the one that lines up their inks' centres;
/// nothing for a blank tile.
///
/// With `va = a - mean(a)` (which sums to 0) and `vb = b' - mean(b)`
/// (`b'` the shifted tile), the products outside the overlap add
/// `-mean(b) * sum(va outside) = mean(b) * sum(va inside)`, so the
/// numerator is `sum(va * b')` over the overlap alone, and `vb`'s square
/// sum is the overlap's plus `mean(b)^2` per pixel outside it.
fn correlations<'a>(a: &'a Tile, b: &'a Tile) -> impl Iterator<Item = f32> + 'a {
    let n = TILE as i32;
    let count = a.pixels.len() as f32;
    let ma = a.pixels.iter().sum::<f32>() / count;
    let mb = b.pixels.iter().sum::<f32>() / count;
    let aa: f32 = a.pixels.iter().map(|&p| (p - ma) * (p - ma)).sum();
    // Twins line up about where their inks' centres do: only the shifts
    // within [`CENTRE_SLACK`] of that are tried (25 of the 49; matching is
    // most of the time a page's evidence takes).
    let (ax, ay) = ink_centre(a);
    let (bx, by) = ink_centre(b);
    let near = |d: f32| {
        let d = (d.round() as i32).clamp(-GLYPH_SHIFT, GLYPH_SHIFT);
        (d - CENTRE_SLACK).max(-GLYPH_SHIFT)..=(d + CENTRE_SLACK).min(GLYPH_SHIFT)
    };
    let blank = aa <= f32::EPSILON;
    let xs = near(ax - bx);
    near(ay - by)
        .filter(move |_| !blank)
        .flat_map(move |dy| xs.clone().map(move |dx| (dx, dy)))
        .filter_map(move |(dx, dy)| {
            // Overlap: a's pixels (x, y) whose source (x - dx, y - dy) is in b.
            let (x0, x1) = (dx.max(0), (n + dx).min(n));
            let (y0, y1) = (dy.max(0), (n + dy).min(n));
            let (mut ab, mut bb) = (0.0f32, 0.0f32);
            for y in y0..y1 {
                let row_a = &a.pixels[(y * n + x0) as usize..(y * n + x1) as usize];
                let from = (y - dy) * n + x0 - dx;
                let row_b = &b.pixels[from as usize..(from + x1 - x0) as usize];
                for (&pa, &pb) in row_a.iter().zip(row_b) {
                    ab += (pa - ma) * pb;
                    bb += (pb - mb) * (pb - mb);
                }
            }
            let outside = count - ((x1 - x0) * (y1 - y0)) as f32;
            bb += outside * mb * mb;
            (bb > f32::EPSILON).then(|| ab / (aa * bb).sqrt())
        })
}

/// Tile pixels either way of the shift that lines up two glyphs' ink
/// centres that [`correlations`] tries: a glyph clipped by the tile's edge
/// (a large digit) or blurred into a grid line has its centre moved by a
/// pixel or two. One pixel lost grids of blurred answer pages that all 49
/// shifts matched.
const CENTRE_SLACK: i32 = 2;

/// Centre of a tile's ink (x, y), its middle when it has none.
fn ink_centre(t: &Tile) -> (f32, f32) {
    let (mut sum, mut sx, mut sy) = (0.0f32, 0.0f32, 0.0f32);
    for (k, &p) in t.pixels.iter().enumerate() {
        sum += p;
        sx += p * (k % TILE) as f32;
        sy += p * (k / TILE) as f32;
    }
    if sum <= f32::EPSILON {
        let mid = (TILE - 1) as f32 / 2.0;
        return (mid, mid);
    }
    (sx / sum, sy / sum)
}

/// Reads again each grid of a page that holds a pen reading of a digit
/// that the page's other grids hold, with their glyphs as references
/// ([`merge`]). One grid's print alone is what [`merge`] knows when the
/// grid is read. Two rounds: the second knows which pen readings of the
/// other grids the first found to be print (a grid whose 7s are copies of
/// each other vouches for the next grid's lone 7).
pub(crate) fn merge_page(grids: &mut [GridReading]) {
    if grids.len() < 2 {
        return;
    }
    // Pen readings among a page's glyphs.
    let pens = |glyphs: &[Vec<Glyph>]| glyphs.iter().flatten().filter(|g| g.pen).count();
    let mut glyphs: Vec<Vec<Glyph>> = grids.iter().map(settled_glyphs).collect();
    for _round in 0..2 {
        let before = pens(&glyphs);
        let merged: Vec<Option<Vec<CellEvidence>>> = (0..grids.len())
            .map(|i| {
                let others: Vec<Glyph> = glyphs
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .flat_map(|(_, g)| g.iter().copied())
                    .collect();
                let grid = &grids[i];
                pen_with_print(grid, &others).then(|| merge(grid.shape(), &grid.parts, &others))
            })
            .collect();
        drop(glyphs);
        for (grid, cells) in grids.iter_mut().zip(merged) {
            if let Some(cells) = cells {
                grid.cells = cells;
            }
        }
        glyphs = grids.iter().map(settled_glyphs).collect();
        // A second round only when the first settled a pen reading as print.
        if pens(&glyphs) == before {
            return;
        }
    }
}

/// A grid's glyphs as references for the page's other grids (unplaced),
/// a pen reading that its evidence settled as that digit printed counted
/// as print.
fn settled_glyphs(grid: &GridReading) -> Vec<Glyph<'_>> {
    let side = grid.shape().side();
    grid.parts
        .iter()
        .flat_map(|part| {
            cell_glyphs(part).map(move |(k, g)| {
                let at = grid.cells.get(layout_index(part, k, side));
                let settled = at.map(|e| e.best().0) == Some(g.digit as u8);
                Glyph {
                    pen: g.pen && !settled,
                    place: None,
                    ..g
                }
            })
        })
        .collect()
}

/// Each layout position's tile (the first part's where a Samurai's parts
/// overlap); `None` outside the parts and for a grid read from a PDF
/// page's drawing, which cuts no tiles.
pub(crate) fn layout_tiles(grid: &GridReading) -> Vec<Option<&Tile>> {
    let side = grid.side();
    let mut tiles = vec![None; grid.cells.len()];
    for part in &grid.parts {
        for (k, tile) in part.tiles.iter().enumerate() {
            if let Some(slot @ None) = tiles.get_mut(layout_index(part, k, side)) {
                *slot = Some(tile);
            }
        }
    }
    tiles
}

/// Layout position (row-major in the shape's side) of cell `k` of `part`.
fn layout_index(part: &PartReading, k: usize, side: usize) -> usize {
    (part.origin.0 + k / part.n) * side + part.origin.1 + k % part.n
}

/// A cell read as a digit: the digit, printed or pen, and its tile.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Glyph<'a> {
    /// The digit (1-9) the cell is read as.
    pub digit: usize,
    /// Read as a pen digit rather than a printed one.
    pub pen: bool,
    /// The cell's tile.
    pub tile: &'a Tile,
    /// Row, column and box of the cell in the grid being read, `None` for
    /// another grid's cell (see `SAME_COPY`).
    pub place: Option<(usize, usize, usize)>,
}

impl Glyph<'_> {
    /// True when the two cells could hold one digit as clues of a puzzle:
    /// not in one row, column or box of one grid.
    fn apart(&self, other: &Glyph) -> bool {
        match (self.place, other.place) {
            (Some(a), Some(b)) => a.0 != b.0 && a.1 != b.1 && a.2 != b.2,
            _ => true,
        }
    }
}

/// Each cell's most likely digit (1-9), and whether it is a pen one.
fn digit_reads(part: &PartReading) -> impl Iterator<Item = Option<(usize, bool)>> + '_ {
    part.classes
        .iter()
        .map(|classes| match crate::classify::best(classes).0 {
            c @ 1..=9 => Some((c, false)),
            c if (HAND_BASE + 1..=HAND_BASE + 9).contains(&c) => Some((c - HAND_BASE, true)),
            _ => None,
        })
}

/// The cells of `part` read as digits, printed or pen, with their index,
/// placed in their grid (see [`Glyph::place`]).
fn cell_glyphs(part: &PartReading) -> impl Iterator<Item = (usize, Glyph<'_>)> {
    digit_reads(part)
        .zip(&part.tiles)
        .enumerate()
        .filter_map(move |(k, (read, tile))| {
            read.map(|(digit, pen)| {
                let place = Some(place(k, part.n));
                (
                    k,
                    Glyph {
                        digit,
                        pen,
                        tile,
                        place,
                    },
                )
            })
        })
}

/// Row, column and box of cell `k` of an `n` x `n` grid (boxes of the
/// square's root; 0 for sizes without one).
fn place(k: usize, n: usize) -> (usize, usize, usize) {
    let (r, c) = (k / n, k % n);
    let b = (1..=n).find(|b| b * b == n).unwrap_or(n);
    (r, c, (r / b) * n + c / b)
}

/// Pen probability of its digit below which a cell read as print is not
/// matched against other print: what it would move to print changes the
/// puzzle's confidence by under a percent (and matching costs time).
const PEN_DOUBT: f32 = 0.01;

/// True when some cell of `grid` is read as a digit that `glyphs` hold,
/// as pen or as print in doubt with pen ([`PEN_DOUBT`]), and its evidence
/// still gives pen that share (it was not settled as print already):
/// [`merge`] with those glyphs may read it otherwise.
fn pen_with_print(grid: &GridReading, glyphs: &[Glyph]) -> bool {
    let side = grid.shape().side();
    grid.parts.iter().any(|part| {
        digit_reads(part).enumerate().any(|(k, read)| {
            read.is_some_and(|(d, pen)| {
                let unsettled = grid
                    .cells
                    .get(layout_index(part, k, side))
                    .and_then(|e| e.entry)
                    .is_some_and(|(_, p)| p >= PEN_DOUBT);
                (pen || part.classes[k][HAND_BASE + d] >= PEN_DOUBT)
                    && unsettled
                    && glyphs.iter().any(|g| g.digit == d)
            })
        })
    })
}

/// For each of a part's cells, the digit whose pen reading is print, or
/// 0: the cell's glyph matches ([`SAME_GLYPH`]) another glyph read as that
/// digit printed. That print is the grid's own, the page's other print
/// (in `others`, the page's other grids' glyphs: one page is set in one
/// font, and when the model takes a font for handwriting, its pen readings
/// are often all of a grid's 7s or 3s, leaving the grid no print of its
/// own to match), and the pen readings found to be print so far (a twin of
/// a twin of print). A pen reading with two exact copies in its grid
/// ([`SAME_COPY`]) is print too: a hand
/// does not copy itself, a font does (a page whose every 7 the model reads
/// as pen). Cells read as print are included: the model's doubt between
/// print and pen (a 7 read 0.55 print, 0.45 pen) is settled the same way.
fn print_read_as_pen<'a>(part: &'a PartReading, others: &[Glyph<'a>]) -> Vec<u8> {
    // Each cell's glyph, if it is read as a digit.
    let mut own: Vec<Option<Glyph>> = vec![None; part.tiles.len()];
    for (k, g) in cell_glyphs(part) {
        own[k] = Some(g);
    }
    let glyphs: Vec<Glyph> = own.iter().flatten().chain(others).copied().collect();
    let mut print: Vec<Glyph> = glyphs.iter().filter(|g| !g.pen).copied().collect();
    let pens: Vec<&Glyph> = glyphs.iter().filter(|g| g.pen).collect();
    let mut found = vec![0u8; own.len()];
    // A glyph read as print has a twin when another cell's print matches
    // it (every tile matches itself).
    let twin = |tile: &Tile, d: usize, print: &[Glyph]| {
        print.iter().any(|g| {
            g.digit == d && !std::ptr::eq(g.tile, tile) && same_glyph(tile, g.tile, SAME_GLYPH)
        })
    };
    for (k, me) in own.iter().enumerate() {
        let Some(me) = me else { continue };
        let d = me.digit;
        if !me.pen {
            if part.classes[k][HAND_BASE + d] >= PEN_DOUBT && twin(me.tile, d, &print) {
                found[k] = d as u8;
            }
            continue;
        }
        let copies: Vec<&&Glyph> = pens
            .iter()
            .filter(|g| {
                g.digit == d
                    && g.place.is_some()
                    && !std::ptr::eq(g.tile, me.tile)
                    && me.apart(g)
                    && same_glyph(me.tile, g.tile, SAME_COPY)
            })
            .collect();
        // Two copies apart from each other too: three clues.
        if copies
            .iter()
            .enumerate()
            .any(|(i, a)| copies[i + 1..].iter().any(|b| a.apart(b)))
        {
            found[k] = d as u8;
        }
    }
    // The pen readings found to be print are print references from here.
    let as_print = |g: &Glyph<'a>| Glyph {
        pen: false,
        place: None,
        ..*g
    };
    for (k, me) in own.iter().enumerate() {
        if let Some(me) = me.filter(|g| g.pen && found[k] != 0) {
            print.push(as_print(&me));
        }
    }
    loop {
        let before = print.len();
        for (k, me) in own.iter().enumerate() {
            if let Some(me) = me.filter(|g| g.pen && found[k] == 0) {
                if twin(me.tile, me.digit, &print) {
                    found[k] = me.digit as u8;
                    print.push(as_print(&me));
                }
            }
        }
        if print.len() == before {
            return found;
        }
    }
}

/// Sums each position's evidence over the parts that show it; cells that
/// `faint` marks (per part, per cell) are read as holding no clue, and a
/// pen reading that `print` names (per part, per cell) counts as print.
fn sum_evidence(
    shape: Shape,
    parts: &[PartReading],
    print: &[Vec<u8>],
    faint: Option<&[Vec<bool>]>,
) -> Vec<CellEvidence> {
    let side = shape.side();
    let digits = shape.digits();
    /// The evidence of one position summed over the parts that show it.
    #[derive(Clone)]
    struct Sum {
        clue: Vec<f32>,
        entry: Option<(u8, f32)>,
        pen: [f32; 10],
        glyph: Option<Tile>,
        ink: f32,
        pencil: f32,
        count: usize,
    }
    let empty = Sum {
        clue: vec![0.0; digits + 1],
        entry: None,
        pen: [0.0; 10],
        glyph: None,
        ink: 0.0,
        pencil: 0.0,
        count: 0,
    };
    let mut sums = vec![empty; side * side];
    for (j, part) in parts.iter().enumerate() {
        // A screen's inks are its colours seen in gray: no share of them
        // is a pen's.
        let print_dark = print_ink(&part.classes, &part.tiles).unwrap_or(1.0);
        let is_faint =
            |k: usize| faint.is_some_and(|f| f.get(j).and_then(|p| p.get(k)) == Some(&true));
        let printed_at = |k: usize| print.get(j).and_then(|p| p.get(k)).copied().unwrap_or(0);
        let worked = (0..part.classes.len())
            .filter(|&k| {
                !is_faint(k)
                    && printed_at(k) == 0
                    && kind_probs(&part.classes[k]).handwritten_total() >= decide::ENTRY_MIN
            })
            .count()
            >= WORKED_ENTRIES;
        let share = |k: usize| match part.tiles.get(k) {
            Some(t) if !part.negative => t.ink / print_dark.max(f32::EPSILON),
            _ => 0.0,
        };
        for (k, classes) in part.classes.iter().enumerate() {
            let Some(slot) = sums.get_mut(layout_index(part, k, side)) else {
                continue;
            };
            let printed = printed_at(k);
            let e = if is_faint(k) {
                // No clue, but a faint mark may be a person's pen entry:
                // its pen reading is kept, so that it is never drawn over.
                // In a grid a person has written in, so is its reading as
                // a printed digit when that is what it most likely is: a
                // glyph too faint to be the grid's print is a pen digit
                // written lightly (on simulated worked photos, 6 of 184
                // faint entries were read as print at 0.95-0.99 and as pen
                // under 0.05, and drawn over; a pencil mark or smudge read
                // as print in part stays drawn over). It is no entry: its
                // digit is not read surely enough to judge.
                let kinds = kind_probs(classes);
                let mut e = CellEvidence::certain(0, digits);
                e.pen = kinds.handwritten;
                e.pencil = kinds.pencil;
                if worked && kinds.printed_total() >= decide::ENTRY_MIN {
                    for (pen, printed) in e.pen.iter_mut().zip(kinds.printed).skip(1) {
                        *pen += printed;
                    }
                }
                e
            } else if printed > 0 {
                // The pen reading of the grid's own printed glyph is print.
                let mut row = *classes;
                let d = usize::from(printed);
                row[d] += row[HAND_BASE + d];
                row[HAND_BASE + d] = 0.0;
                decide::evidence(&row, digits)
            } else {
                decide::evidence(classes, digits)
            };
            for (s, p) in slot.clue.iter_mut().zip(&e.clue) {
                *s += p;
            }
            // Keep the surer pen reading where two grids show the cell.
            let total = |pen: &[f32; 10]| pen.iter().sum::<f32>();
            if total(&e.pen) > total(&slot.pen) {
                slot.pen = e.pen;
            }
            if e.entry
                .is_some_and(|(_, q)| slot.entry.is_none_or(|(_, p)| q > p))
            {
                slot.entry = e.entry;
                slot.glyph = part.tiles.get(k).copied();
            }
            slot.ink = slot.ink.max(share(k));
            slot.pencil += e.pencil;
            slot.count += 1;
        }
    }
    sums.into_iter()
        .map(|sum| {
            if sum.count == 0 {
                return CellEvidence::certain(0, digits);
            }
            CellEvidence {
                clue: sum.clue.into_iter().map(|s| s / sum.count as f32).collect(),
                entry: sum.entry,
                pen: sum.pen,
                glyph: sum.glyph,
                ink: sum.ink,
                tint: 0.0,
                pencil: sum.pencil / sum.count as f32,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::CLASSES;
    use crate::geometry::Homography;

    /// A solved grid: its digits as a 9x9 part would read them.
    const SOLUTION: &str =
        "534678912672195348198342567859761423426853791713924856961537284287419635345286179";

    /// One 9x9 part: each cell read surely as `values[k]` (0 empty) with
    /// Weber ink `inks[k]`.
    fn part(values: &[u8], inks: &[f32]) -> PartReading {
        let tiles = inks
            .iter()
            .map(|&ink| Tile {
                ink,
                ..Tile::default()
            })
            .collect();
        let classes = values
            .iter()
            .map(|&v| {
                let mut row = [0.0f32; CLASSES];
                row[usize::from(v)] = 0.99;
                row[crate::classify::OTHER] += 0.01;
                row
            })
            .collect();
        PartReading {
            grid_to_photo: Homography::identity(),
            n: 9,
            origin: (0, 0),
            tiles,
            classes,
            negative: false,
        }
    }

    fn digits(text: &str) -> Vec<u8> {
        text.bytes().map(|b| b.saturating_sub(b'0')).collect()
    }

    /// [`SOLUTION`] as a part reads it with every third cell a clue of
    /// ink `ink(k)` and the others blank: `(values, inks)`.
    fn clue_every_third(ink: impl Fn(usize) -> f32) -> (Vec<u8>, Vec<f32>) {
        let mut values = digits(SOLUTION);
        let mut inks = vec![0.0f32; 81];
        for k in 0..81usize {
            if k.is_multiple_of(3) {
                inks[k] = ink(k);
            } else {
                values[k] = 0;
            }
        }
        (values, inks)
    }

    fn best_values(cells: &[CellEvidence]) -> Vec<u8> {
        cells.iter().map(|e| e.best().0).collect()
    }

    #[test]
    fn glyphs_part_into_inks_at_the_widest_gaps_keeping_enough_print() {
        // Twenty glyphs read as print: eighteen in the print's ink, two
        // in a pen's; four pen entries in the pen's ink besides.
        let digit = |i: usize| 1 + (i % 9) as u8;
        let mut cells: Vec<CellEvidence> = (0..30)
            .map(|i| {
                let mut e = CellEvidence::certain(if i < 20 { digit(i) } else { 0 }, 9);
                e.ink = match i {
                    0..18 => 1.0 - 0.01 * i as f32,
                    18 | 19 => 0.7,
                    _ => 0.0,
                };
                e
            })
            .collect();
        let fixed = vec![false; cells.len()];
        let entries = [20, 21, 22, 23];
        for &i in &entries {
            cells[i].ink = 0.72;
        }
        let splits = other_inks_as_pen(&cells, &[], &fixed, &entries, 17);
        assert_eq!(splits.len(), 1);
        for (i, e) in splits[0].iter().enumerate() {
            let pen = i == 18 || i == 19;
            assert_eq!(e.best().0 == 0, pen || i >= 20, "{i}");
            if pen {
                assert_eq!(e.entry, Some((digit(i), 1.0)));
            }
        }
        // Too few pen entries for a worked grid; too few glyphs left as
        // print; a glyph the user set stays.
        assert!(other_inks_as_pen(&cells, &[], &fixed, &entries[..2], 17).is_empty());
        assert!(other_inks_as_pen(&cells, &[], &fixed, &entries, 19).is_empty());
        let mut set = fixed.clone();
        set[18] = true;
        assert_eq!(
            other_inks_as_pen(&cells, &[], &set, &entries, 17)[0][18],
            cells[18]
        );
        // Entries in the print's own ink (a printed answer grid's digits
        // read as pen): the print is not parted.
        let mut answers = cells.clone();
        for &i in &entries {
            answers[i].ink = 0.95;
        }
        assert!(other_inks_as_pen(&answers, &[], &fixed, &entries, 17).is_empty());
        // A third ink lower still, the entries' own: the widest gap comes
        // first.
        cells[19].ink = 0.3;
        for &i in &entries {
            cells[i].ink = 0.25;
        }
        let splits = other_inks_as_pen(&cells, &[], &fixed, &entries, 17);
        assert_eq!(splits.len(), 2);
        assert_eq!(splits[0][18].best().0, digit(18));
        assert_eq!(splits[1][18].best().0, 0);
    }

    #[test]
    fn marks_far_fainter_than_the_print_are_no_clues() {
        // Every third cell a black clue; three blank cells show the back of
        // the page through, read by the model as surely as print.
        let (mut values, mut inks) = clue_every_third(|k| 0.85 + 0.001 * k as f32);
        for (k, v) in [(1, 8u8), (40, 3), (77, 6)] {
            values[k] = v;
            inks[k] = 0.15;
        }
        let read = merge(Shape::classic(), &[part(&values, &inks)], &[]);
        let got = best_values(&read);
        for k in 0..81usize {
            let want = if k.is_multiple_of(3) { values[k] } else { 0 };
            assert_eq!(got[k], want, "cell {k}");
        }
        // A screen's dark theme, read from its negative: colours seen in
        // gray are no inks of paper, and nothing is taken for faint.
        let screen = PartReading {
            negative: true,
            ..part(&values, &inks)
        };
        assert_eq!(best_values(&merge(Shape::classic(), &[screen], &[]))[1], 8);
        // Half the print's ink is still print (a lighter clue, a grey theme).
        inks[40] = 0.45;
        assert_eq!(
            best_values(&merge(Shape::classic(), &[part(&values, &inks)], &[]))[40],
            3
        );
    }

    #[test]
    fn a_faint_glyph_read_as_print_in_a_worked_grid_may_be_a_pen_entry() {
        // Every third cell a black clue; cell 1 a glyph a fifth as dark,
        // read surely as a printed 8 (a pen 8 written lightly, or the back
        // of the page showing through).
        let (mut values, mut inks) = clue_every_third(|_| 0.85);
        values[1] = 8;
        inks[1] = 0.2;
        let pen = |cells: &[CellEvidence]| cells[1].pen.iter().sum::<f32>();
        // On a grid nobody wrote in it is no clue and no pen.
        let read = merge(Shape::classic(), &[part(&values, &inks)], &[]);
        assert_eq!(read[1].best().0, 0);
        assert!(pen(&read) < decide::FAINT_PEN, "{}", pen(&read));
        // With three pen entries in the grid it may be one more: never
        // drawn over, though no entry.
        for (k, d) in [(2, 1usize), (4, 2), (5, 6)] {
            values[k] = (HAND_BASE + d) as u8;
            inks[k] = 0.8;
        }
        let read = merge(Shape::classic(), &[part(&values, &inks)], &[]);
        assert_eq!(read[1].best().0, 0);
        assert!(pen(&read) >= decide::FAINT_PEN, "{}", pen(&read));
        assert_eq!(read[1].entry, None);
        assert!(read[2].entry.is_some());
    }

    #[test]
    fn cells_as_dark_as_print_but_read_in_doubt_get_a_second_look() {
        // Every third cell a black clue. Cell 1 is read as other ink and
        // cell 2 as empty with print's ink (a clue under show-through);
        // cell 4 as other ink and cell 5 as empty, faintly (show-through
        // alone); cell 7 as a pen digit as dark as print.
        let (mut values, mut inks) = clue_every_third(|_| 0.8);
        for (k, v, ink) in [
            (1, OTHER, 0.75),
            (2, EMPTY, 0.45),
            (4, OTHER, 0.2),
            (5, EMPTY, 0.3),
        ] {
            values[k] = v as u8;
            inks[k] = ink;
        }
        values[7] = (HAND_BASE + 2) as u8;
        inks[7] = 0.9;
        let mut grid = part(&values, &inks);
        assert_eq!(hidden_by_faint_ink(&grid.classes, &grid.tiles), [1, 2]);
        // A clue read as its digit in doubt (cell 3), or surely (cell 6).
        grid.classes[3] = reading(&[(usize::from(values[3]), 0.6), (OTHER, 0.4)]);
        assert_eq!(hidden_by_faint_ink(&grid.classes, &grid.tiles), [1, 2, 3]);
        // Too few sure clues to know the print's ink: no second look.
        let few = part(&values[..12], &inks[..12]);
        assert!(hidden_by_faint_ink(&few.classes, &few.tiles).is_empty());
    }

    /// A probability row with the given (class, probability) entries.
    fn reading(entries: &[(usize, f32)]) -> [f32; CLASSES] {
        let mut row = [0.0f32; CLASSES];
        for &(class, p) in entries {
            row[class] = p;
        }
        row
    }

    #[test]
    fn a_second_look_settles_print_missed_or_doubted_never_another_digit() {
        let other = reading(&[(OTHER, 0.7), (3, 0.3)]);
        let doubted = reading(&[(3, 0.6), (8, 0.4)]);
        let three = reading(&[(3, 0.95), (8, 0.05)]);
        let eight = reading(&[(8, 0.95), (3, 0.05)]);
        let empty = reading(&[(EMPTY, 0.99)]);
        let pen = reading(&[(HAND_BASE + 3, 0.9)]);
        assert!(second_look_settles(&other, &three));
        assert!(second_look_settles(&doubted, &three));
        assert!(!second_look_settles(&doubted, &eight));
        assert!(!second_look_settles(&three, &doubted));
        assert!(!second_look_settles(&other, &empty));
        assert!(!second_look_settles(&other, &pen));
    }

    #[test]
    fn a_whole_valid_grid_in_two_inks_keeps_its_grey_digits() {
        // A printed answer: clues black, a third of the cells' answers grey
        // (fewer than the clues, so the grey ones are faint beside them).
        let values = digits(SOLUTION);
        let grey = |k: usize| k.is_multiple_of(3);
        let inks: Vec<f32> = (0..81).map(|k| if grey(k) { 0.2 } else { 0.9 }).collect();
        let read = merge(Shape::classic(), &[part(&values, &inks)], &[]);
        assert_eq!(best_values(&read), values);
        // One grey digit read wrong makes a clash: the grey ones are no
        // clues, and the black ones stand alone.
        let mut wrong = values.clone();
        wrong[0] = values[1];
        let read = best_values(&merge(Shape::classic(), &[part(&wrong, &inks)], &[]));
        let black: Vec<u8> = (0..81)
            .map(|k| if grey(k) { 0 } else { values[k] })
            .collect();
        assert_eq!(read, black);
    }

    #[test]
    fn a_pen_reading_of_the_grids_own_print_is_print() {
        // Two printed 3s (a block glyph); one read as print, its twin set
        // two pixels lower read as a pen 3, and a pen 3 of another shape.
        let glyph = block_three;
        let row = |class: usize| {
            let mut r = [0.0f32; CLASSES];
            r[class] = 0.9;
            r[0] = 0.1;
            r
        };
        let mut p = part(&[0; 81], &[0.9; 81]);
        p.tiles[0] = glyph(0, false);
        p.classes[0] = row(3);
        p.tiles[1] = glyph(2, false);
        p.classes[1] = row(HAND_BASE + 3);
        p.tiles[2] = glyph(0, true);
        p.classes[2] = row(HAND_BASE + 3);
        let read = best_values(&merge(Shape::classic(), &[p], &[]));
        assert_eq!(&read[..3], &[3, 3, 0]);
    }

    #[test]
    fn three_exact_copies_placed_as_clues_are_print_not_pen() {
        // The same glyph read as pen in three cells no two of which share a
        // row, column or box: a font's, print. The same three down one
        // column (a table's line stubs), or only two copies, stay pen.
        let read = |cells: &[usize]| {
            let mut p = part(&[0; 81], &[0.9; 81]);
            for &k in cells {
                p.tiles[k] = block_three(0, false);
                p.classes[k] = three(0.1, 0.85);
            }
            let read = best_values(&merge(Shape::classic(), &[p], &[]));
            cells.iter().map(|&k| read[k]).collect::<Vec<u8>>()
        };
        assert_eq!(read(&[0, 13, 26]), [3, 3, 3]);
        assert_eq!(read(&[0, 9, 18]), [0, 0, 0]);
        assert_eq!(read(&[0, 13]), [0, 0]);
    }

    /// A block glyph "3" set `dy` pixels down (`wide`: another shape).
    fn block_three(dy: usize, wide: bool) -> Tile {
        let mut t = Tile::default();
        for y in 8 + dy..20 + dy {
            for x in 10..18 {
                let edge = y == 8 + dy || y == 13 + dy || y == 19 + dy || x >= 16;
                if edge || (wide && x < 12) {
                    t.pixels[y * TILE + x] = 1.0;
                }
            }
        }
        t
    }

    /// Probabilities: `print` for printed 3, `pen` for a pen 3, the rest empty.
    fn three(print: f32, pen: f32) -> [f32; CLASSES] {
        let mut r = [0.0f32; CLASSES];
        r[3] = print;
        r[HAND_BASE + 3] = pen;
        r[0] = 1.0 - print - pen;
        r
    }

    #[test]
    fn the_pages_other_print_and_doubtful_print_are_settled_by_twins() {
        // One grid prints its 3s, read surely as print; the other grid of
        // the page has its only 3 read as pen, and a 3 of another shape.
        let mut printed = part(&[0; 81], &[0.9; 81]);
        for k in 0..2 {
            printed.tiles[k] = block_three(k, false);
            printed.classes[k] = three(0.9, 0.05);
        }
        let mut other = part(&[0; 81], &[0.9; 81]);
        other.tiles[0] = block_three(2, false);
        other.classes[0] = three(0.3, 0.65);
        other.tiles[1] = block_three(0, true);
        other.classes[1] = three(0.3, 0.65);
        // Alone, the second grid has no print to match.
        let alone = best_values(&merge(Shape::classic(), std::slice::from_ref(&other), &[]));
        assert_eq!(&alone[..2], &[0, 0]);
        let others: Vec<Glyph> = cell_glyphs(&printed)
            .map(|(_, g)| Glyph { place: None, ..g })
            .collect();
        let read = merge(Shape::classic(), &[other], &others);
        assert_eq!(best_values(&read)[..2], [3, 0]);
        // A print reading in doubt with pen takes the pen share when a twin
        // is print: 0.55 print + 0.4 pen = 0.95 print.
        let mut doubt = part(&[0; 81], &[0.9; 81]);
        doubt.tiles[0] = block_three(0, false);
        doubt.classes[0] = three(0.9, 0.05);
        doubt.tiles[1] = block_three(1, false);
        doubt.classes[1] = three(0.55, 0.4);
        let read = merge(Shape::classic(), &[doubt], &[]);
        assert!((read[1].clue[3] - 0.95).abs() < 1e-3, "{:?}", read[1].clue);
    }
}
