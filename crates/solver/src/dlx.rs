//! Knuth's Algorithm X with dancing links, in flat arrays.
//!
//! An exact-cover problem is a 0/1 matrix: pick a set of rows that has
//! exactly one 1 in every *primary* column and at most one in every
//! *secondary* column. Dancing links keeps the 1s as nodes in circular
//! doubly-linked lists, so that removing a column or row and putting it back
//! are O(1) per node.
//!
//! Memory layout (all links are `u32` indices into the same arrays):
//!
//! ```text
//!   header list (left/right, length columns + 1):
//!
//!     ROOT = columns <-> 0 <-> 1 <-> ... <-> primary-1 <-> ROOT
//!     secondary columns primary..columns link only to themselves
//!
//!   node arrays (up, down, col), one entry per node:
//!
//!     index:  0 .. columns-1 | row 0 nodes  | row 1 nodes | ...
//!             column headers | a b c        | d e         | ...
//!                            ^ row_start[0] ^ row_start[1]  row_start[rows] = end
//!
//!     up/down:  vertical circular list through a column's header and its nodes
//!     col:      the column of a node (a header's col is itself)
//!     row_of:   the row id of a node (unused for headers)
//!     size:     live nodes per column
//! ```
//!
//! Why this way: the nodes of one row are stored next to each other, so a
//! row needs no left/right links at all (its nodes are the range
//! `row_start[r]..row_start[r + 1]`), walking a row is a cache-friendly
//! slice scan, and a column header is simply node number `c`. Indices
//! instead of pointers keep the structure `Clone`, free of `unsafe` and of
//! `Rc`/`Box`, and half the size of 64-bit pointers. Everything the search
//! needs (the choice stack, the trail of removed rows, the solution buffer)
//! is allocated before the search starts; the search loop itself never
//! allocates.
//!
//! Besides the plain choice of the column with fewest rows, the search can
//! apply one reduction at every node ([`ExactCover::set_reduce`]): if every
//! live row of a primary column `A` also covers column `B`, then `B` will be
//! covered by a row of `A`, so the rows of `B` outside `A` can be removed.
//! For Sudoku this single rule is the naked and hidden single (a column with
//! one row) and locked candidates (pointing and claiming: a digit of a box
//! confined to one line, or of a line confined to one box), applied to any
//! shape. Removed rows are recorded on a trail and restored on backtracking.

/// An exact-cover matrix and its Dancing Links search.
#[derive(Debug, Clone)]
pub struct ExactCover {
    /// Number of primary columns (ids `0..primary`); the rest are secondary.
    primary: usize,
    /// Total number of columns, primary and secondary.
    columns: usize,
    /// Header list: left neighbour of each column; index `columns` is the root.
    left: Vec<u32>,
    /// Header list: right neighbour of each column; index `columns` is the root.
    right: Vec<u32>,
    /// Vertical links of every node (headers first).
    up: Vec<u32>,
    /// Vertical links of every node (headers first).
    down: Vec<u32>,
    /// Column of every node.
    col: Vec<u32>,
    /// Row id of every node.
    row_of: Vec<u32>,
    /// Live node count per column.
    size: Vec<u32>,
    /// First node of each row, plus one past the last row's end.
    row_start: Vec<u32>,
    /// Whether to apply the column-inclusion reduction at every search node.
    reduce: bool,
}

impl ExactCover {
    /// An empty matrix with `primary_columns` primary columns and no rows.
    pub fn new(primary_columns: usize) -> Self {
        Self::with_secondary(primary_columns, 0)
    }

    /// An empty matrix with primary columns `0..primary_columns` (covered
    /// exactly once) and secondary columns
    /// `primary_columns..primary_columns + secondary_columns` (covered at most once).
    pub fn with_secondary(primary_columns: usize, secondary_columns: usize) -> Self {
        let columns = primary_columns + secondary_columns;
        assert!(columns < u32::MAX as usize / 2, "too many columns");
        let root = columns;
        // Secondary columns link to themselves; the root and the primary
        // columns form the circular list root, 0, 1, ..., primary - 1.
        let mut left: Vec<u32> = (0..=columns as u32).collect();
        let mut right = left.clone();
        let ring: Vec<usize> = std::iter::once(root).chain(0..primary_columns).collect();
        for (k, &c) in ring.iter().enumerate() {
            let next = ring[(k + 1) % ring.len()];
            right[c] = next as u32;
            left[next] = c as u32;
        }
        let headers: Vec<u32> = (0..columns as u32).collect();
        ExactCover {
            primary: primary_columns,
            columns,
            left,
            right,
            up: headers.clone(),
            down: headers.clone(),
            col: headers,
            row_of: vec![u32::MAX; columns],
            size: vec![0; columns],
            row_start: vec![columns as u32],
            reduce: false,
        }
    }

    /// Number of rows added so far.
    pub fn rows(&self) -> usize {
        self.row_start.len() - 1
    }

    /// Turns the column-inclusion reduction (see the module notes) on or off.
    /// Off by default: it costs time per node and pays off on hard, large
    /// puzzles (16x16 and up), not on small ones.
    pub fn set_reduce(&mut self, on: bool) {
        self.reduce = on;
    }

    /// Adds a row covering `columns` (distinct column ids, each below the
    /// column count) and returns its id (0, 1, 2, ... in the order added).
    ///
    /// # Panics
    /// On a column id out of range or repeated within the row: both are
    /// programming errors of the caller, not bad user input.
    pub fn add_row(&mut self, columns: &[usize]) -> usize {
        let row = self.rows();
        for (i, &c) in columns.iter().enumerate() {
            assert!(
                c < self.columns,
                "column {c} out of range (matrix has {})",
                self.columns
            );
            assert!(!columns[..i].contains(&c), "column {c} repeated in one row");
            let node = self.up.len() as u32;
            let last = self.up[c];
            // Append at the bottom of column c.
            self.up.push(last);
            self.down.push(c as u32);
            self.down[last as usize] = node;
            self.up[c] = node;
            self.col.push(c as u32);
            self.row_of.push(row as u32);
            self.size[c] += 1;
        }
        self.row_start.push(self.up.len() as u32);
        row
    }

    /// Searches for up to `limit` solutions, calling `each` with the row ids
    /// of each one (in the order they were chosen); returns how many were
    /// found. The matrix is unchanged afterwards, so `solve` can be called
    /// again. A `limit` of 0 returns 0 at once.
    pub fn solve(&mut self, limit: usize, each: &mut dyn FnMut(&[usize])) -> usize {
        if limit == 0 {
            return 0;
        }
        let root = self.columns;
        // Every level covers one primary column, so the depth is at most `primary`.
        let depth = self.primary + 1;
        let mut choice = vec![0u32; depth];
        let mut marks = vec![0usize; depth];
        let mut trail: Vec<u32> = Vec::with_capacity(self.rows());
        let mut solution: Vec<usize> = Vec::with_capacity(depth);
        let mut count = 0;
        let mut level = 0;
        loop {
            // Enter a search node at `level`: reduce, then either report a
            // solution or cover the column with fewest rows and try its first row.
            marks[level] = trail.len();
            let mut descend = false;
            if !self.reduce || self.reduce_rows(&mut trail) {
                if self.right[root] as usize == root {
                    solution.clear();
                    solution.extend(
                        choice[..level]
                            .iter()
                            .map(|&node| self.row_of[node as usize] as usize),
                    );
                    each(&solution);
                    count += 1;
                } else {
                    let c = self.smallest_column();
                    if self.size[c] > 0 {
                        self.cover(c);
                        choice[level] = c as u32;
                        descend = self.next_row(&mut choice[level], false);
                    }
                }
            }
            if !descend {
                // This node is finished: restore its reductions and go up
                // until a level has another row to try.
                let stop = count >= limit;
                self.restore_rows(&mut trail, marks[level]);
                loop {
                    if level == 0 {
                        return count;
                    }
                    level -= 1;
                    if self.next_row(&mut choice[level], stop) {
                        break;
                    }
                    self.restore_rows(&mut trail, marks[level]);
                }
            }
            level += 1;
        }
    }

    /// Moves `current` (a node of a covered column, or the column header
    /// before any row was tried) to the next row of its column: uncovers the
    /// other columns of the previous row, covers those of the next. Returns
    /// false, with the column uncovered, when the column has no more rows or
    /// `give_up` is set.
    fn next_row(&mut self, current: &mut u32, give_up: bool) -> bool {
        let node = *current as usize;
        let c = self.col[node] as usize;
        if node != c {
            self.uncover_others(node);
        }
        let next = self.down[node] as usize;
        if give_up || next == c {
            self.uncover(c);
            return false;
        }
        *current = next as u32;
        self.cover_others(next);
        true
    }

    /// The primary column with fewest live rows (the first such, stopping
    /// early at 0 or 1). Only called when at least one primary column is live.
    fn smallest_column(&self) -> usize {
        let root = self.columns;
        let mut best = self.right[root] as usize;
        let mut best_size = self.size[best];
        let mut c = self.right[best] as usize;
        while c != root && best_size > 1 {
            if self.size[c] < best_size {
                best = c;
                best_size = self.size[c];
            }
            c = self.right[c] as usize;
        }
        best
    }

    /// The nodes of the row that `node` belongs to.
    fn row_nodes(&self, node: usize) -> std::ops::Range<usize> {
        let row = self.row_of[node] as usize;
        self.row_start[row] as usize..self.row_start[row + 1] as usize
    }

    /// Unlinks one node from its column.
    fn unlink(&mut self, j: usize) {
        let (u, d) = (self.up[j] as usize, self.down[j] as usize);
        self.down[u] = d as u32;
        self.up[d] = u as u32;
        self.size[self.col[j] as usize] -= 1;
    }

    /// Puts back a node unlinked by [`Self::unlink`].
    fn relink(&mut self, j: usize) {
        let (u, d) = (self.up[j] as usize, self.down[j] as usize);
        self.down[u] = j as u32;
        self.up[d] = j as u32;
        self.size[self.col[j] as usize] += 1;
    }

    /// Removes column `c` from the header list and every row of `c` from
    /// the other columns.
    fn cover(&mut self, c: usize) {
        let (l, r) = (self.left[c], self.right[c]);
        self.right[l as usize] = r;
        self.left[r as usize] = l;
        let mut i = self.down[c] as usize;
        while i != c {
            for j in self.row_nodes(i) {
                if j != i {
                    self.unlink(j);
                }
            }
            i = self.down[i] as usize;
        }
    }

    /// Exactly undoes [`Self::cover`] (rows bottom-up).
    fn uncover(&mut self, c: usize) {
        let mut i = self.up[c] as usize;
        while i != c {
            for j in self.row_nodes(i).rev() {
                if j != i {
                    self.relink(j);
                }
            }
            i = self.up[i] as usize;
        }
        let (l, r) = (self.left[c], self.right[c]);
        self.right[l as usize] = c as u32;
        self.left[r as usize] = c as u32;
    }

    /// Covers the columns of `node`'s row other than `node`'s own.
    fn cover_others(&mut self, node: usize) {
        for j in self.row_nodes(node) {
            if j != node {
                self.cover(self.col[j] as usize);
            }
        }
    }

    /// Exactly undoes [`Self::cover_others`].
    fn uncover_others(&mut self, node: usize) {
        for j in self.row_nodes(node).rev() {
            if j != node {
                self.uncover(self.col[j] as usize);
            }
        }
    }

    /// True when the row of `node` has a node in column `c`.
    fn row_has_column(&self, node: usize, c: u32) -> bool {
        self.row_nodes(node).any(|j| self.col[j] == c)
    }

    /// Applies the column-inclusion reduction until nothing changes. Removed
    /// rows go on `trail` (their first node). Returns false when some
    /// primary column has no rows left (a dead end).
    fn reduce_rows(&mut self, trail: &mut Vec<u32>) -> bool {
        let root = self.columns;
        loop {
            let mut changed = false;
            let mut a = self.right[root] as usize;
            while a != root {
                let size_a = self.size[a];
                if size_a == 0 {
                    return false;
                }
                let first = self.down[a] as usize;
                // Only columns of A's first row can contain all of A's rows.
                for k in self.row_nodes(first) {
                    let b = self.col[k];
                    if k == first || self.size[b as usize] <= size_a {
                        continue;
                    }
                    let mut i = self.down[first] as usize;
                    while i != a && self.row_has_column(i, b) {
                        i = self.down[i] as usize;
                    }
                    if i != a {
                        continue;
                    }
                    // Every row of A covers B: drop B's rows outside A.
                    let mut i = self.down[b as usize] as usize;
                    while i != b as usize {
                        let next = self.down[i] as usize;
                        if !self.row_has_column(i, a as u32) {
                            let nodes = self.row_nodes(i);
                            trail.push(nodes.start as u32);
                            for j in nodes {
                                self.unlink(j);
                            }
                        }
                        i = next;
                    }
                    changed = true;
                }
                a = self.right[a] as usize;
            }
            if !changed {
                return true;
            }
        }
    }

    /// Puts back the rows removed since the trail had length `mark`, newest first.
    fn restore_rows(&mut self, trail: &mut Vec<u32>, mark: usize) {
        while trail.len() > mark {
            let Some(first) = trail.pop() else { break };
            for j in self.row_nodes(first as usize).rev() {
                self.relink(j);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Knuth's example from "Dancing Links" (columns A-G = 0-6).
    fn knuth() -> ExactCover {
        let mut m = ExactCover::new(7);
        m.add_row(&[2, 4, 5]); // row 0: C E F
        m.add_row(&[0, 3, 6]); // row 1: A D G
        m.add_row(&[1, 2, 5]); // row 2: B C F
        m.add_row(&[0, 3]); // row 3: A D
        m.add_row(&[1, 6]); // row 4: B G
        m.add_row(&[3, 4, 6]); // row 5: D E G
        m
    }

    fn all_solutions(m: &mut ExactCover, limit: usize) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        let n = m.solve(limit, &mut |rows| {
            let mut rows = rows.to_vec();
            rows.sort();
            out.push(rows);
        });
        assert_eq!(n, out.len());
        out
    }

    #[test]
    fn knuths_example_has_one_solution() {
        for reduce in [false, true] {
            let mut m = knuth();
            m.set_reduce(reduce);
            assert_eq!(all_solutions(&mut m, 10), vec![vec![0, 3, 4]]);
            // The matrix is intact afterwards.
            assert_eq!(all_solutions(&mut m, 10), vec![vec![0, 3, 4]]);
        }
    }

    #[test]
    fn counts_stop_at_the_limit_and_restore_the_matrix() {
        // 6 columns, every single-column row plus some pairs: many covers.
        for reduce in [false, true] {
            let mut m = ExactCover::new(4);
            for c in 0..4 {
                m.add_row(&[c]);
            }
            m.add_row(&[0, 1]);
            m.add_row(&[2, 3]);
            m.add_row(&[1, 2]);
            m.set_reduce(reduce);
            // {0},{1},{2},{3} / {01},{2},{3} / {0},{1},{23} / {01},{23} / {0},{12},{3}
            assert_eq!(m.solve(usize::MAX, &mut |_| {}), 5);
            assert_eq!(m.solve(3, &mut |_| {}), 3);
            assert_eq!(m.solve(0, &mut |_| {}), 0);
            assert_eq!(m.solve(100, &mut |_| {}), 5);
        }
    }

    #[test]
    fn no_solution_and_empty_matrix() {
        let mut m = ExactCover::new(2);
        m.add_row(&[0]);
        assert_eq!(m.solve(10, &mut |_| {}), 0);
        // No primary columns: the empty set of rows is the one solution.
        let mut e = ExactCover::new(0);
        let mut seen = Vec::new();
        assert_eq!(e.solve(10, &mut |rows| seen.push(rows.len())), 1);
        assert_eq!(seen, vec![0]);
    }

    #[test]
    fn secondary_columns_are_covered_at_most_once() {
        // Primary 0, 1; secondary 2. Rows {0,2} and {1,2} clash on 2.
        let mut m = ExactCover::with_secondary(2, 1);
        m.add_row(&[0, 2]);
        m.add_row(&[1, 2]);
        assert_eq!(m.solve(10, &mut |_| {}), 0);
        m.add_row(&[1]);
        let mut m2 = m.clone();
        assert_eq!(all_solutions(&mut m, 10), vec![vec![0, 2]]);
        m2.set_reduce(true);
        assert_eq!(all_solutions(&mut m2, 10), vec![vec![0, 2]]);
    }

    #[test]
    fn n_queens_counts_match_known_values() {
        // Rows and columns of the board primary, diagonals secondary.
        let known = [(4, 2), (5, 10), (6, 4), (8, 92)];
        for (n, expected) in known {
            for reduce in [false, true] {
                let diagonals = 2 * n - 1;
                let mut m = ExactCover::with_secondary(2 * n, 2 * diagonals);
                for r in 0..n {
                    for c in 0..n {
                        m.add_row(&[r, n + c, 2 * n + r + c, 2 * n + diagonals + (r + n - 1 - c)]);
                    }
                }
                m.set_reduce(reduce);
                assert_eq!(
                    m.solve(10_000, &mut |_| {}),
                    expected,
                    "{n} queens, reduce {reduce}"
                );
            }
        }
    }
}
