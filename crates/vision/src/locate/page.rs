//! Reading order of the grids on a page.
//!
//! Grids are grouped into *rows*: a grid belongs to a row when its vertical
//! extent overlaps the row's by more than half of the shorter of the two
//! (grids printed side by side share most of their height; a grid half a
//! grid lower starts a new row). Rows are read top to bottom, each left to
//! right.
//!
//! A page laid out in columns whose grids do not line up (newspaper
//! columns, staggered) makes every row a single grid; when there are at
//! least two *columns* (grids grouped the same way by horizontal overlap)
//! and no row holds two grids, the page is read column by column instead:
//! columns left to right, each top to bottom.

use crate::geometry::Quad;

/// Two extents belong to the same row (column) when they overlap by more
/// than this fraction of the shorter one.
const SAME_BAND: f32 = 0.5;

/// The interval a quad covers along x (`axis` 0) or y (`axis` 1).
fn extent(q: &Quad, axis: usize) -> (f32, f32) {
    let v = q.corners.map(|c| if axis == 0 { c.0 } else { c.1 });
    (
        v.iter().copied().fold(f32::MAX, f32::min),
        v.iter().copied().fold(f32::MIN, f32::max),
    )
}

/// Whether two extents overlap by more than [`SAME_BAND`] of the shorter.
fn same_band(a: (f32, f32), b: (f32, f32)) -> bool {
    let overlap = a.1.min(b.1) - a.0.max(b.0);
    let shorter = (a.1 - a.0).min(b.1 - b.0);
    shorter > 0.0 && overlap > SAME_BAND * shorter
}

/// Groups the quads' indices into bands along `axis` (rows for 1, columns
/// for 0): sorted by their start, each joins the first band it overlaps.
/// Bands come in order of their first member's start.
fn bands(quads: &[Quad], axis: usize) -> Vec<Vec<usize>> {
    let mut order: Vec<usize> = (0..quads.len()).collect();
    order.sort_by(|&a, &b| {
        extent(&quads[a], axis)
            .0
            .total_cmp(&extent(&quads[b], axis).0)
    });
    let mut out: Vec<(Vec<usize>, (f32, f32))> = Vec::new();
    for i in order {
        let e = extent(&quads[i], axis);
        match out.iter_mut().find(|(_, be)| same_band(*be, e)) {
            Some((members, _)) => members.push(i),
            None => out.push((vec![i], e)),
        }
    }
    out.into_iter().map(|(m, _)| m).collect()
}

/// The reading order of `quads`: indices into it (see the module docs).
pub(crate) fn reading_order(quads: &[Quad]) -> Vec<usize> {
    let rows = bands(quads, 1);
    let columns = bands(quads, 0);
    let by_columns = columns.len() >= 2 && rows.iter().all(|r| r.len() == 1);
    let (outer, axis) = if by_columns { (columns, 1) } else { (rows, 0) };
    let mut order = Vec::with_capacity(quads.len());
    for mut band in outer {
        band.sort_by(|&a, &b| {
            extent(&quads[a], axis)
                .0
                .total_cmp(&extent(&quads[b], axis).0)
        });
        order.extend(band);
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(x: f32, y: f32, s: f32) -> Quad {
        Quad::new([(x, y), (x + s, y), (x + s, y + s), (x, y + s)])
    }

    #[test]
    fn rows_left_to_right_then_down() {
        // Two rows of three, slightly uneven tops.
        let q = [
            sq(400.0, 310.0, 100.0),
            sq(0.0, 5.0, 100.0),
            sq(200.0, 0.0, 100.0),
            sq(0.0, 300.0, 100.0),
            sq(400.0, 8.0, 100.0),
            sq(200.0, 305.0, 100.0),
        ];
        assert_eq!(reading_order(&q), vec![1, 2, 4, 3, 5, 0]);
    }

    #[test]
    fn staggered_columns_read_column_by_column() {
        let q = [
            sq(300.0, 150.0, 100.0),
            sq(0.0, 0.0, 100.0),
            sq(300.0, 450.0, 100.0),
            sq(0.0, 300.0, 100.0),
        ];
        assert_eq!(reading_order(&q), vec![1, 3, 0, 2]);
    }

    #[test]
    fn samurai_reads_by_rows() {
        let c = 10.0;
        let q = [
            sq(6.0 * c, 6.0 * c, 9.0 * c),
            sq(12.0 * c, 0.0, 9.0 * c),
            sq(0.0, 0.0, 9.0 * c),
            sq(0.0, 12.0 * c, 9.0 * c),
            sq(12.0 * c, 12.0 * c, 9.0 * c),
        ];
        assert_eq!(reading_order(&q), vec![2, 1, 0, 3, 4]);
    }
}
