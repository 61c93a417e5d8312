//! The engine for 16x16 boards (and any shape, in tests): candidate
//! bitsets, strong propagation and look-ahead branching. Squares of 25x25
//! and up go to the SAT engine (`sat`), whose clause learning the hardest
//! of them need.
//!
//! Each cell holds a bit mask of the digits still possible (bit `d - 1` for
//! digit `d`). Propagation is event driven: removing a candidate marks the
//! cell's units dirty (and queues the cell when one digit is left), and
//! each dirty unit then gets
//!
//! * naked singles: a decided cell's digit leaves its peers;
//! * all-different consistency (Régin's matching filter): a digit stays in
//!   a cell only when some one-to-one assignment of the unit's digits to its
//!   cells puts it there. This is every naked and hidden single, pair,
//!   triple, ... of the unit at once;
//! * locked candidates (pointing and claiming): when the unit's places for
//!   a digit all lie where it meets another unit (a box and a line, or two
//!   lines of overlapping Samurai grids), the digit leaves the rest of that
//!   other unit.
//!
//! At every node, each cell with two candidates is probed: both digits are
//! propagated on a copy; a digit that fails leaves the cell, and what both
//! outcomes removed is removed for good. The search branches on the probed
//! cell whose two outcomes removed the most candidates (the product of the
//! two counts, the score look-ahead SAT solvers use); without one, on the
//! cell with fewest candidates or a digit with two places in a unit. One
//! probing pass per node: repeating passes until nothing changes saves
//! nodes but costs more time than it saves (on 25x25 line 2, 664 nodes in
//! 1.4 s against 974 in 1.1 s).
//!
//! Each search level is one full state (a mask per cell), so backtracking
//! is a pop, and counting past the first solution is just more search.
//!
//! # Why this engine (release build)
//!
//! Times below are CPU seconds of one core, except those of the first three
//! rows, which are wall-clock seconds on a loaded machine (about 2x CPU).
//!
//! | change, on the Gecode 25x25 set | line 17 | line 2 |
//! |---|---|---|
//! | base: singles, locked candidates, two-candidate probing, first such cell branched on | 2,430 nodes, 3 s | past 30 s |
//! | + all-different consistency | 50 nodes | past 3,000 nodes |
//! | + look-ahead branching | 14 nodes, 0.56 s | 672 nodes, 5.7 s |
//! | + event-driven propagation (this engine) | 20 nodes, 0.03 s | 974 nodes, 1.1 s |
//!
//! Tried and left out: probing digits with two places in a unit as well
//! (half the nodes at twice the time per node), all-different on each
//! digit's rows and columns (X-wings, swordfish: 2% fewer nodes, 25% more
//! time), probing only the most promising cells (same time, more nodes).
//!
//! On 25x25 this engine solves 9 of the 18 Gecode puzzles within 10 s
//! (lines 2, 3, 6, 7, 12, 13, 14, 17, 18; line 12 in 5.3 s), lines 8, 11
//! and 16 in 12-16 s and the rest in over 25 s: without learning, it keeps
//! refuting the same dead ends. CaDiCaL solves 16 of them within 10 s, so
//! 25x25 goes to the `sat` module (see there). On the 16x16 set this engine
//! takes 16 ms for all 55 puzzles, far below a SAT solver's set-up cost.

use crate::board::Board;
use crate::shape::Shape;

/// Largest number of units a shape can have (3 per digit of the largest
/// square, 105, or the Samurai's 131), rounded up to whole words of the
/// dirty-unit set.
const MAX_UNITS: usize = 256;

/// Words of the dirty-unit bit set.
const UNIT_WORDS: usize = MAX_UNITS / 64;

/// Positions per unit the matching arrays hold (a unit has one per digit,
/// at most [`crate::MAX_DIGITS`], and masks are 64 bits).
const SLOTS: usize = 64;

/// Marks a free slot of [`Matching`].
const FREE: usize = usize::MAX;

/// One decision point: the digits of a cell, or the places of a digit in a unit.
struct Branch {
    /// The unit whose places are tried, or `None` for a cell's digits.
    unit: Option<usize>,
    /// The cell whose digits are tried (when `unit` is `None`).
    cell: usize,
    /// The digit placed (bit mask, when `unit` is set).
    digit: u64,
    /// Digits (of `cell`) or positions (in `unit`) not tried yet.
    untried: u64,
}

/// What propagation has left to do, and what it keeps between calls.
struct Work {
    /// Cells that may have become decided since their digit left their peers.
    singles: Vec<u32>,
    /// Bit `u` set: unit `u` changed since it was last checked.
    dirty: [u64; UNIT_WORDS],
    /// Candidates removed since the last [`Work::clear`] (the look-ahead score).
    removed: u64,
    /// The digit last matched to each position of each unit (`SLOTS` per
    /// unit): the next matching of the unit starts there, as most of it
    /// still holds.
    matched: Vec<u8>,
}

impl Work {
    /// Nothing to do yet, for a shape with `units` units.
    fn new(units: usize) -> Work {
        Work {
            singles: Vec::new(),
            dirty: [0; UNIT_WORDS],
            removed: 0,
            matched: vec![0; units * SLOTS],
        }
    }

    /// Forgets the pending work, before propagating from a new state.
    fn clear(&mut self) {
        self.singles.clear();
        self.dirty = [0; UNIT_WORDS];
        self.removed = 0;
    }

    /// Marks unit `u` dirty.
    fn mark(&mut self, u: usize) {
        self.dirty[u / 64] |= 1 << (u % 64);
    }

    /// The lowest dirty unit, if any (left marked).
    fn next_dirty(&self) -> Option<usize> {
        self.dirty
            .iter()
            .position(|&word| word != 0)
            .map(|w| w * 64 + self.dirty[w].trailing_zeros() as usize)
    }
}

/// Scratch space of the all-different filter, one unit at a time.
struct Matching {
    /// Candidates of each position of the unit.
    cand: [u64; SLOTS],
    /// Position holding each digit in the matching.
    cell_of: [usize; SLOTS],
    /// Digit held by each position in the matching.
    digit_of: [usize; SLOTS],
    /// Digits reachable from each digit by moving cells along the matching.
    reach: [u64; SLOTS],
    /// What each position can never hold (the filter's result).
    drop: [u64; SLOTS],
}

impl Matching {
    fn new() -> Matching {
        Matching {
            cand: [0; SLOTS],
            cell_of: [FREE; SLOTS],
            digit_of: [FREE; SLOTS],
            reach: [0; SLOTS],
            drop: [0; SLOTS],
        }
    }
}

/// What probing found at a node.
enum Probe {
    /// A contradiction: the node has no solution.
    Dead,
    /// Alive; the probed cell to branch on, if any cell had two candidates.
    Alive(Option<usize>),
}

/// The tables of one shape.
pub(super) struct Candidates {
    /// Layout index of each cell (cells are numbered 0.. in layout order).
    layout: Vec<usize>,
    /// Mask of all digits.
    all: u64,
    /// Number of digits (and of cells in a unit).
    digits: usize,
    /// Cells of each unit.
    units: Vec<Vec<u32>>,
    /// Units of each cell.
    cell_units: Vec<Vec<u32>>,
    /// Peers of each cell (cells sharing a unit), no repeats.
    peers: Vec<Vec<u32>>,
    /// For each unit, every other unit it meets in two or more cells: the
    /// positions of the shared cells in this unit (bits), and the other
    /// unit's remaining cells.
    meetings: Vec<Vec<(u64, Vec<u32>)>>,
}

impl Candidates {
    /// The tables for `shape`.
    pub(super) fn new(shape: Shape) -> Candidates {
        let layout: Vec<usize> = (0..shape.cell_count())
            .filter(|&i| shape.contains(i))
            .collect();
        let mut compact = vec![u32::MAX; shape.cell_count()];
        for (k, &i) in layout.iter().enumerate() {
            compact[i] = k as u32;
        }
        let units: Vec<Vec<u32>> = shape
            .units()
            .iter()
            .map(|u| u.iter().map(|&i| compact[i]).collect())
            .collect();
        debug_assert!(units.len() <= MAX_UNITS && shape.digits() <= SLOTS);
        let mut peers = vec![Vec::new(); layout.len()];
        let mut cell_units = vec![Vec::new(); layout.len()];
        for (u, unit) in units.iter().enumerate() {
            for &a in unit {
                peers[a as usize].extend(unit.iter().copied().filter(|&b| b != a));
                cell_units[a as usize].push(u as u32);
            }
        }
        for list in &mut peers {
            list.sort_unstable();
            list.dedup();
        }
        let meetings = units
            .iter()
            .enumerate()
            .map(|(x, a)| {
                units
                    .iter()
                    .enumerate()
                    .filter(|&(y, b)| y != x && b.iter().filter(|c| a.contains(c)).count() >= 2)
                    .map(|(_, b)| {
                        let shared = a
                            .iter()
                            .enumerate()
                            .filter(|(_, c)| b.contains(c))
                            .fold(0u64, |bits, (k, _)| bits | 1 << k);
                        let rest = b.iter().copied().filter(|c| !a.contains(c)).collect();
                        (shared, rest)
                    })
                    .collect()
            })
            .collect();
        let digits = shape.digits();
        Candidates {
            layout,
            all: (1u64 << digits) - 1,
            digits,
            units,
            cell_units,
            peers,
            meetings,
        }
    }

    /// Counts solutions of `puzzle` up to `limit` (at least 1) and returns
    /// the count and the first solution.
    pub(super) fn solve(&self, puzzle: &Board, limit: usize) -> (usize, Option<Board>) {
        let mut first = None;
        let count = self.for_each(puzzle, limit, &mut |board| {
            if first.is_none() {
                first = Some(board.clone());
            }
        });
        (count, first)
    }

    /// Calls `each` with every solution of `puzzle` up to `limit` (at least
    /// one) and returns how many there were. The puzzle must fit its shape
    /// (cell count, digit range) and have no clashing givens.
    pub(super) fn for_each(
        &self,
        puzzle: &Board,
        limit: usize,
        each: &mut dyn FnMut(&Board),
    ) -> usize {
        let limit = limit.max(1);
        let n = self.layout.len();
        // One state (a mask per cell) per search level; look-ahead settles
        // most cells without branching, so the depth stays small.
        let mut states: Vec<u64> = Vec::with_capacity(n * 64);
        states.extend(self.layout.iter().map(|&i| match puzzle.cells[i] {
            0 => self.all,
            d => 1u64 << (d - 1),
        }));
        let mut work = Work::new(self.units.len());
        let mut scratch = (vec![0u64; n], vec![0u64; n]);
        let mut branches: Vec<Branch> = Vec::with_capacity(64);
        let mut count = 0;
        let mut board = puzzle.clone();
        // At the root every given is a single to spread and every unit is dirty.
        work.singles.extend(0..n as u32);
        for u in 0..self.units.len() {
            work.mark(u);
        }
        let mut probe = if self.propagate(&mut states[..n], &mut work) {
            self.probe(&mut states[..n], &mut scratch, &mut work)
        } else {
            Probe::Dead
        };
        loop {
            if let Probe::Alive(best) = probe {
                let top = states.len() - n;
                match self.choose(&states[top..], best) {
                    None => {
                        count += 1;
                        for (cell, &mask) in states[top..].iter().enumerate() {
                            board.cells[self.layout[cell]] = mask.trailing_zeros() as u8 + 1;
                        }
                        each(&board);
                        if count >= limit {
                            return count;
                        }
                    }
                    Some(branch) => {
                        branches.push(branch);
                        states.extend_from_within(top..);
                    }
                }
            }
            // Try the next digit of the innermost branch that has one left.
            loop {
                let Some(branch) = branches.last_mut() else {
                    return count;
                };
                if branch.untried == 0 {
                    branches.pop();
                    states.truncate(states.len() - n);
                    continue;
                }
                let next = branch.untried & branch.untried.wrapping_neg();
                branch.untried &= !next;
                let (cell, digit) = match branch.unit {
                    None => (branch.cell, next),
                    Some(unit) => (
                        self.units[unit][next.trailing_zeros() as usize] as usize,
                        branch.digit,
                    ),
                };
                let split = states.len() - n;
                let (parent, child) = states.split_at_mut(split);
                child.copy_from_slice(&parent[parent.len() - n..]);
                probe = if self.assign(child, cell, digit, &mut work) {
                    self.probe(child, &mut scratch, &mut work)
                } else {
                    Probe::Dead
                };
                break;
            }
        }
    }

    /// What to branch on: the look-ahead's cell `best` while it still has
    /// two candidates, else the cell with fewest candidates, or a digit with
    /// two places in a unit when no cell has two; `None` when every cell is
    /// decided.
    fn choose(&self, masks: &[u64], best: Option<usize>) -> Option<Branch> {
        let cell_branch = |cell: usize| Branch {
            unit: None,
            cell,
            digit: 0,
            untried: masks[cell],
        };
        if let Some(cell) = best.filter(|&c| masks[c].count_ones() == 2) {
            return Some(cell_branch(cell));
        }
        let (fewest, cell) = masks
            .iter()
            .enumerate()
            .map(|(cell, mask)| (mask.count_ones(), cell))
            .filter(|&(count, _)| count >= 2)
            .min()?;
        if fewest > 2 {
            for (u, unit) in self.units.iter().enumerate() {
                let (mut once, mut twice, mut thrice) = (0u64, 0u64, 0u64);
                for &c in unit {
                    let mask = masks[c as usize];
                    thrice |= twice & mask;
                    twice |= once & mask;
                    once |= mask;
                }
                let pairs = twice & !thrice;
                if pairs != 0 {
                    let digit = pairs & pairs.wrapping_neg();
                    let places = unit
                        .iter()
                        .enumerate()
                        .filter(|&(_, &c)| masks[c as usize] & digit != 0)
                        .fold(0u64, |bits, (k, _)| bits | 1 << k);
                    return Some(Branch {
                        unit: Some(u),
                        cell: 0,
                        digit,
                        untried: places,
                    });
                }
            }
        }
        Some(cell_branch(cell))
    }

    /// Sets `cell` to `digit` (a bit) in a propagated state and propagates;
    /// false on a contradiction.
    fn assign(&self, masks: &mut [u64], cell: usize, digit: u64, work: &mut Work) -> bool {
        work.clear();
        masks[cell] = digit;
        self.touched(cell, work);
        self.propagate(masks, work)
    }

    /// Records that `cell` changed: its units are dirty, and it may be decided.
    fn touched(&self, cell: usize, work: &mut Work) {
        for &u in &self.cell_units[cell] {
            work.mark(u as usize);
        }
        work.singles.push(cell as u32);
    }

    /// Removes `bits` from `cell`; false when it has no candidate left.
    #[inline]
    fn remove(&self, masks: &mut [u64], cell: usize, bits: u64, work: &mut Work) -> bool {
        let mask = masks[cell];
        let gone = mask & bits;
        if gone == 0 {
            return true;
        }
        masks[cell] = mask & !gone;
        work.removed += u64::from(gone.count_ones());
        if mask == gone {
            return false;
        }
        self.touched(cell, work);
        true
    }

    /// Propagates the pending work to a fixed point; false on a
    /// contradiction (a cell without candidates, or a unit that cannot hold
    /// every digit).
    fn propagate(&self, masks: &mut [u64], work: &mut Work) -> bool {
        let mut matching = Matching::new();
        loop {
            // Singles first: they are the cheapest and the most common.
            while let Some(cell) = work.singles.pop() {
                let cell = cell as usize;
                let mask = masks[cell];
                if mask.count_ones() != 1 {
                    continue;
                }
                for &peer in &self.peers[cell] {
                    if !self.remove(masks, peer as usize, mask, work) {
                        return false;
                    }
                }
            }
            let Some(u) = work.next_dirty() else {
                return true;
            };
            if !self.all_different(masks, u, &mut matching, work)
                || !self.locked_candidates(masks, u, &mut matching.cand, work)
            {
                return false;
            }
            // The filter's removals marked the unit again, but they leave it
            // consistent, and locked candidates only change other units.
            work.dirty[u / 64] &= !(1 << (u % 64));
        }
    }

    /// All-different consistency of unit `u` (see [`regin`]); false when
    /// the unit cannot hold every digit.
    fn all_different(
        &self,
        masks: &mut [u64],
        u: usize,
        m: &mut Matching,
        work: &mut Work,
    ) -> bool {
        let unit = &self.units[u];
        let k = unit.len();
        let mut open = false;
        for (i, &c) in unit.iter().enumerate() {
            m.cand[i] = masks[c as usize];
            open |= m.cand[i].count_ones() > 1;
        }
        if !open {
            // Every cell decided: singles have already kept them distinct.
            return true;
        }
        if !regin(
            m,
            k,
            self.digits,
            &mut work.matched[u * SLOTS..u * SLOTS + k],
        ) {
            return false;
        }
        (0..k).all(|i| m.drop[i] == 0 || self.remove(masks, unit[i] as usize, m.drop[i], work))
    }

    /// Pointing and claiming from unit `u`: a digit whose open places in
    /// `u` all lie where it meets another unit leaves the rest of that unit.
    /// `cand` is scratch space. False on a contradiction.
    fn locked_candidates(
        &self,
        masks: &mut [u64],
        u: usize,
        cand: &mut [u64; SLOTS],
        work: &mut Work,
    ) -> bool {
        let unit = &self.units[u];
        let mut decided = 0u64;
        for (i, &c) in unit.iter().enumerate() {
            cand[i] = masks[c as usize];
            if cand[i].count_ones() == 1 {
                decided |= cand[i];
            }
        }
        for (shared, rest) in &self.meetings[u] {
            let (mut inside, mut outside) = (0u64, 0u64);
            for (i, &mask) in cand[..unit.len()].iter().enumerate() {
                if shared >> i & 1 != 0 {
                    inside |= mask;
                } else {
                    outside |= mask;
                }
            }
            // A decided digit has left its peers already.
            let locked = inside & !outside & !decided;
            if locked != 0
                && !rest
                    .iter()
                    .all(|&c| self.remove(masks, c as usize, locked, work))
            {
                return false;
            }
        }
        true
    }

    /// Probes every cell with two candidates, once each (see the module
    /// notes); returns the one whose two outcomes removed the most.
    fn probe(
        &self,
        masks: &mut [u64],
        scratch: &mut (Vec<u64>, Vec<u64>),
        work: &mut Work,
    ) -> Probe {
        let mut best: Option<(u64, usize)> = None;
        for cell in 0..masks.len() {
            let options = masks[cell];
            if options.count_ones() != 2 {
                continue;
            }
            let low = options & options.wrapping_neg();
            match self.split(masks, cell, [low, options & !low], scratch, work) {
                None => return Probe::Dead,
                Some(Some(score)) if best.is_none_or(|(s, _)| score > s) => {
                    best = Some((score, cell))
                }
                Some(_) => {}
            }
        }
        Probe::Alive(best.map(|(_, cell)| cell))
    }

    /// Propagates both digits of a two-candidate `cell` from `masks` and
    /// keeps in `masks` what holds either way. `None` when both fail;
    /// otherwise the look-ahead score when nothing changed.
    fn split(
        &self,
        masks: &mut [u64],
        cell: usize,
        digits: [u64; 2],
        (low, high): &mut (Vec<u64>, Vec<u64>),
        work: &mut Work,
    ) -> Option<Option<u64>> {
        low.copy_from_slice(masks);
        let low_ok = self.assign(low, cell, digits[0], work);
        let low_removed = work.removed;
        high.copy_from_slice(masks);
        let high_ok = self.assign(high, cell, digits[1], work);
        let high_removed = work.removed;
        match (low_ok, high_ok) {
            (false, false) => None,
            (true, false) => {
                masks.copy_from_slice(low);
                Some(None)
            }
            (false, true) => {
                masks.copy_from_slice(high);
                Some(None)
            }
            (true, true) => {
                // What both outcomes removed is gone either way.
                work.clear();
                for c in 0..masks.len() {
                    if !self.remove(masks, c, !(low[c] | high[c]), work) {
                        return None;
                    }
                }
                if work.removed == 0 {
                    Some(Some((low_removed + 1) * (high_removed + 1)))
                } else if self.propagate(masks, work) {
                    Some(None)
                } else {
                    None
                }
            }
        }
    }
}

/// Régin's all-different filter on the `k` positions of `m` (candidates in
/// `m.cand`, values below `width`): find a one-to-one matching of positions
/// to values, starting from `last` and leaving the new one there, then keep
/// a candidate only when moving values along an alternating cycle can put
/// it in place. Sets `m.drop[i]` to what position `i` can never hold; false
/// when no matching exists.
fn regin(m: &mut Matching, k: usize, width: usize, last: &mut [u8]) -> bool {
    m.cell_of[..width].fill(FREE);
    m.digit_of[..k].fill(FREE);
    for (i, &v) in last.iter().enumerate() {
        let v = v as usize;
        if m.cand[i] >> v & 1 != 0 && m.cell_of[v] == FREE {
            m.cell_of[v] = i;
            m.digit_of[i] = v;
        }
    }
    for i in 0..k {
        if m.digit_of[i] == FREE && !augment(i, m, &mut 0) {
            return false;
        }
    }
    for (slot, &v) in last.iter_mut().zip(&m.digit_of[..k]) {
        *slot = v as u8;
    }
    // Value graph: v -> w when the position holding v could take w instead;
    // then its transitive closure (Warshall on bit rows), over the values of
    // open positions only: a decided position's value has no way out.
    let mut open = 0u64;
    for v in 0..width {
        m.reach[v] = m.cand[m.cell_of[v]] & !(1 << v);
        if m.reach[v] != 0 {
            open |= 1 << v;
        }
    }
    let mut pivots = open;
    while pivots != 0 {
        let j = pivots.trailing_zeros() as usize;
        pivots &= pivots - 1;
        let row = m.reach[j];
        let mut rows = open;
        while rows != 0 {
            let r = rows.trailing_zeros() as usize;
            rows &= rows - 1;
            if m.reach[r] >> j & 1 != 0 {
                m.reach[r] |= row;
            }
        }
    }
    for i in 0..k {
        let v = m.digit_of[i];
        let mut drop = 0u64;
        let mut others = m.cand[i] & !(1 << v);
        while others != 0 {
            let w = others.trailing_zeros() as usize;
            others &= others - 1;
            // Taking w here moves the position holding w on, and so on
            // until some position can take v: w must reach v.
            if m.reach[w] >> v & 1 == 0 {
                drop |= 1 << w;
            }
        }
        m.drop[i] = drop;
    }
    true
}

/// Kuhn's augmenting path from position `i` of `m`; `seen` holds the values
/// already visited. False when no value can be found for `i`.
fn augment(i: usize, m: &mut Matching, seen: &mut u64) -> bool {
    let options = m.cand[i] & !*seen;
    // A free value ends the path at once.
    let mut rest = options;
    while rest != 0 {
        let v = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        if m.cell_of[v] == FREE {
            m.cell_of[v] = i;
            m.digit_of[i] = v;
            return true;
        }
    }
    *seen |= options;
    let mut rest = options;
    while rest != 0 {
        let v = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        if augment(m.cell_of[v], m, seen) {
            m.cell_of[v] = i;
            m.digit_of[i] = v;
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::solve_dlx;
    use crate::testdata::shared_lines;

    fn count(shape: Shape, text: &str, limit: usize) -> usize {
        let puzzle = Board::parse(text, shape).unwrap();
        let mut seen = std::collections::HashSet::new();
        let found = Candidates::new(shape).for_each(&puzzle, limit, &mut |board| {
            assert!(board.is_solution_of(&puzzle));
            assert!(seen.insert(board.clone()), "a solution came twice");
        });
        assert_eq!(found, seen.len());
        found
    }

    #[test]
    fn counts_small_shapes_exactly() {
        let four = Shape::square(4).unwrap();
        assert_eq!(count(four, &".".repeat(16), 10_000), 288);
        assert_eq!(count(four, "12..\n....\n....\n...4", 100), 6);
        assert_eq!(count(four, "1...\n..2.\n.3..\n...4", 100), 1);
        // Two 1s in a column: the all-different filter finds no matching.
        assert_eq!(count(four, "1...\n1...\n....\n....", 100), 0);
        // 6x6 (2x3 boxes) has 28,200 grids; the limit stops the count.
        let six = Shape::square(6).unwrap();
        assert_eq!(count(six, &".".repeat(36), 3_000), 3_000);
        assert_eq!(count(Shape::classic(), &".".repeat(81), 500), 500);
    }

    #[test]
    fn counts_agree_with_dancing_links() {
        // Classic puzzles with 0, 1 and several solutions.
        let unique =
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
        let several = unique.replacen('4', ".", 2);
        let none = format!("44{}", &unique[2..]);
        let shape = Shape::classic();
        for text in [unique, several.as_str(), none.as_str()] {
            let board = Board::parse(text, shape).unwrap();
            let expected = solve_dlx(&board, 50).count();
            assert_eq!(count(shape, text, 50), expected, "{text}");
        }
        let sixteen = Shape::square(16).unwrap();
        for (name, step) in [("gecode_16x16.txt", 11), ("samurai.txt", 1)] {
            let Some(puzzles) = shared_lines(name, usize::MAX) else {
                return;
            };
            for p in puzzles.iter().step_by(step) {
                let shape = Shape::detect(p.len()).unwrap_or(sixteen);
                let board = Board::parse(p, shape).unwrap();
                if board.clashes().is_empty() {
                    let expected = solve_dlx(&board, 5).count();
                    assert_eq!(count(shape, p, 5), expected, "{name}: {p}");
                }
            }
        }
    }

    #[test]
    fn removing_a_given_of_a_16x16_gives_more_solutions() {
        let Some(puzzles) = shared_lines("gecode_16x16.txt", 1) else {
            return;
        };
        let shape = Shape::square(16).unwrap();
        let mut board = Board::parse(&puzzles[0], shape).unwrap();
        // Drop givens until the puzzle has several solutions, then compare.
        let givens: Vec<usize> = (0..256).filter(|&i| board.cells[i] != 0).collect();
        for &i in givens.iter().take(40) {
            board.cells[i] = 0;
        }
        let text = board.to_line();
        let expected = solve_dlx(&board, 20).count();
        assert!(expected > 1);
        assert_eq!(count(shape, &text, 20), expected);
    }
}
