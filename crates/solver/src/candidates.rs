//! A candidate-bitset solver for large boards, with propagation at every node.
//!
//! Each cell holds a bit mask of the digits still possible (bit `d - 1` for
//! digit `d`). After every decision the solver propagates to a fixed point:
//!
//! * naked singles: a cell with one candidate removes it from its peers;
//! * hidden singles: a digit with one place left in a unit goes there;
//! * locked candidates (pointing and claiming): when a unit's candidates for
//!   a digit all lie where it meets another unit (a box and a line), the digit
//!   goes from the rest of that other unit.
//!
//! On top of that it probes every cell with two candidates (failed-literal
//! test): if one candidate leads to a contradiction by propagation, the
//! other is placed. Then it branches on the cell with fewest candidates, or on the digit
//! with fewest places in a unit when that is fewer (the exact-cover choice
//! of the smallest column). This is the same
//! reasoning as the exact-cover engine's reduction, but a forced placement
//! costs a few mask operations instead of a search node, which is what makes
//! 25x25 puzzles feasible. It works on any list of units, so on every shape.

use crate::board::Board;
use crate::shape::Shape;

/// Bit 63 of a cell's mask: its single digit has been removed from its peers.
const DONE: u64 = 1 << 63;

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

/// The tables of one shape and the search state.
pub(super) struct Candidates {
    /// Layout index of each cell (cells are numbered 0.. in layout order).
    layout: Vec<usize>,
    /// Mask of all digits.
    all: u64,
    /// Cells of each unit.
    units: Vec<Vec<u32>>,
    /// Peers of each cell (cells sharing a unit), no repeats.
    peers: Vec<Vec<u32>>,
    /// Box-line meetings: (cells of both, rest of the first, rest of the second),
    /// for every pair of units sharing two or more cells.
    meetings: Vec<(Vec<u32>, Vec<u32>, Vec<u32>)>,
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
        let mut peers = vec![Vec::new(); layout.len()];
        for unit in &units {
            for &a in unit {
                peers[a as usize].extend(unit.iter().copied().filter(|&b| b != a));
            }
        }
        for list in &mut peers {
            list.sort_unstable();
            list.dedup();
        }
        let mut meetings = Vec::new();
        for (x, a) in units.iter().enumerate() {
            for b in &units[x + 1..] {
                let both: Vec<u32> = a.iter().copied().filter(|c| b.contains(c)).collect();
                if both.len() >= 2 {
                    let rest = |u: &Vec<u32>| {
                        u.iter()
                            .copied()
                            .filter(|c| !both.contains(c))
                            .collect::<Vec<_>>()
                    };
                    meetings.push((both.clone(), rest(a), rest(b)));
                }
            }
        }
        let digits = shape.digits();
        Candidates {
            layout,
            all: (1u64 << digits) - 1,
            units,
            peers,
            meetings,
        }
    }

    /// Counts solutions of `puzzle` up to `limit` (at least 1) and returns
    /// the count and the first solution.
    pub(super) fn solve(&self, puzzle: &Board, limit: usize) -> (usize, Option<Board>) {
        let n = self.layout.len();
        // One state (a mask per cell) per search level, grown as needed
        // (reserved up front; the depth rarely passes 64).
        let mut states: Vec<u64> = Vec::with_capacity(n * 64);
        states.extend(self.layout.iter().map(|&i| match puzzle.cells[i] {
            0 => self.all,
            d => 1u64 << (d - 1),
        }));
        // Per level: the cell branched on and the digits not tried yet.
        let mut branches: Vec<Branch> = Vec::with_capacity(64);
        let mut count = 0;
        let mut first = None;
        let mut scratch = vec![0u64; n];
        let mut alive =
            self.propagate(&mut states[..n]) && self.probe(&mut states[..n], &mut scratch);
        loop {
            if alive {
                let top = states.len() - n;
                match self.choose(&states[top..]) {
                    None => {
                        count += 1;
                        if first.is_none() {
                            first = Some(self.board(puzzle, &states[top..]));
                        }
                        if count >= limit {
                            return (count, first);
                        }
                    }
                    Some(branch) => {
                        branches.push(branch);
                        states.extend_from_within(top..);
                    }
                }
            } else if branches.is_empty() {
                return (count, first);
            }
            // Try the next digit of the innermost branch that has one left.
            loop {
                let Some(branch) = branches.last_mut() else {
                    return (count, first);
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
                child[cell] = digit;
                alive = self.propagate(child) && self.probe(child, &mut scratch);
                break;
            }
        }
    }

    /// What to branch on: the cell with fewest candidates, or the digit
    /// with fewest places in a unit when that is fewer; `None` when every
    /// cell is decided.
    fn choose(&self, masks: &[u64]) -> Option<Branch> {
        let mut best: Option<Branch> = None;
        let mut best_count = u32::MAX;
        for (cell, &mask) in masks.iter().enumerate() {
            let count = (mask & self.all).count_ones();
            if count >= 2 && count < best_count {
                best = Some(Branch {
                    unit: None,
                    cell,
                    digit: 0,
                    untried: mask & self.all,
                });
                best_count = count;
                if count == 2 {
                    return best;
                }
            }
        }
        best.as_ref()?;
        for (u, unit) in self.units.iter().enumerate() {
            let mut open = 0u64;
            for &cell in unit {
                let mask = masks[cell as usize];
                if (mask & self.all).count_ones() >= 2 {
                    open |= mask & self.all;
                }
            }
            while open != 0 {
                let digit = open & open.wrapping_neg();
                open &= !digit;
                let mut places = 0u64;
                for (k, &cell) in unit.iter().enumerate() {
                    if masks[cell as usize] & digit != 0 {
                        places |= 1 << k;
                    }
                }
                let count = places.count_ones();
                if count >= 2 && count < best_count {
                    best = Some(Branch {
                        unit: Some(u),
                        cell: 0,
                        digit,
                        untried: places,
                    });
                    best_count = count;
                    if count == 2 {
                        return best;
                    }
                }
            }
        }
        best
    }

    /// The puzzle with every cell set to its single candidate.
    fn board(&self, puzzle: &Board, masks: &[u64]) -> Board {
        let mut board = puzzle.clone();
        for (cell, &mask) in masks.iter().enumerate() {
            board.cells[self.layout[cell]] = (mask & self.all).trailing_zeros() as u8 + 1;
        }
        board
    }

    /// Propagates singles and locked candidates to a fixed point. Returns
    /// false on a contradiction (a cell without candidates, or a unit missing
    /// a digit).
    fn propagate(&self, masks: &mut [u64]) -> bool {
        loop {
            if !self.naked_singles(masks) {
                return false;
            }
            match self.hidden_singles(masks) {
                None => return false,
                Some(true) => continue,
                Some(false) => {}
            }
            match self.locked_candidates(masks) {
                None => return false,
                Some(true) => continue,
                Some(false) => return true,
            }
        }
    }

    /// Failed-literal probing on cells with two candidates: when placing one
    /// of them leads to a contradiction by propagation, the other is the
    /// cell's digit. Repeats until no probe fails; false on a contradiction.
    fn probe(&self, masks: &mut [u64], scratch: &mut [u64]) -> bool {
        loop {
            let mut changed = false;
            for cell in 0..masks.len() {
                let options = masks[cell] & self.all;
                if options.count_ones() != 2 {
                    continue;
                }
                let low = options & options.wrapping_neg();
                for (digit, other) in [(low, options & !low), (options & !low, low)] {
                    scratch.copy_from_slice(masks);
                    scratch[cell] = digit;
                    if !self.propagate(scratch) {
                        masks[cell] = other;
                        if !self.propagate(masks) {
                            return false;
                        }
                        changed = true;
                        break;
                    }
                }
            }
            if !changed {
                return true;
            }
        }
    }

    /// Removes the digit of every decided cell from its peers, repeatedly.
    fn naked_singles(&self, masks: &mut [u64]) -> bool {
        loop {
            let mut changed = false;
            for cell in 0..masks.len() {
                let mask = masks[cell];
                if mask & DONE != 0 || (mask & self.all).count_ones() != 1 {
                    continue;
                }
                masks[cell] |= DONE;
                changed = true;
                for &peer in &self.peers[cell] {
                    let peer = &mut masks[peer as usize];
                    if *peer & mask != 0 {
                        *peer &= !mask;
                        if *peer & self.all == 0 {
                            return false;
                        }
                    }
                }
            }
            if !changed {
                return true;
            }
        }
    }

    /// Places every digit that has one cell left in a unit. `None` on a
    /// contradiction, otherwise whether anything changed.
    fn hidden_singles(&self, masks: &mut [u64]) -> Option<bool> {
        let mut changed = false;
        for unit in &self.units {
            let (mut once, mut twice) = (0u64, 0u64);
            for &cell in unit {
                let mask = masks[cell as usize] & self.all;
                twice |= once & mask;
                once |= mask;
            }
            if once != self.all {
                return None;
            }
            let single = once & !twice;
            if single == 0 {
                continue;
            }
            for &cell in unit {
                let mask = &mut masks[cell as usize];
                let here = *mask & single;
                if here != 0 && *mask & self.all != here {
                    if here.count_ones() > 1 {
                        return None;
                    }
                    *mask = here;
                    changed = true;
                }
            }
        }
        Some(changed)
    }

    /// Pointing and claiming on every pair of meeting units. `None` on a
    /// contradiction, otherwise whether anything changed.
    fn locked_candidates(&self, masks: &mut [u64]) -> Option<bool> {
        let mut changed = false;
        let or = |masks: &[u64], cells: &[u32]| {
            cells.iter().fold(0, |m, &c| m | masks[c as usize]) & self.all
        };
        for (both, rest_a, rest_b) in &self.meetings {
            let inside = or(masks, both);
            // Digits of A found only where it meets B leave the rest of B, and back.
            for (own, other) in [(rest_a, rest_b), (rest_b, rest_a)] {
                let locked = inside & !or(masks, own);
                if locked & or(masks, other) == 0 {
                    continue;
                }
                for &cell in other {
                    let mask = &mut masks[cell as usize];
                    if *mask & locked != 0 {
                        *mask &= !locked;
                        if *mask & self.all == 0 {
                            return None;
                        }
                        changed = true;
                    }
                }
            }
        }
        Some(changed)
    }
}
