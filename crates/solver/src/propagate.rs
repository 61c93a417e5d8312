//! The fast 9x9 solver: one 27-bit bitboard per digit and band, propagation
//! to a fixed point, then guessing on a two-candidate cell.
//!
//! ## Data layout
//!
//! A *band* is a stripe of three rows (three boxes side by side). For each
//! digit and each band one `u32` holds the cells where that digit may still
//! go, 27 bits, nine per row:
//!
//! ```text
//!               box 0      box 1      box 2
//!   row 0     0  1  2 |  3  4  5 |  6  7  8        bit = 9 * row + column
//!   row 1     9 10 11 | 12 13 14 | 15 16 17        (row within the band,
//!   row 2    18 19 20 | 21 22 23 | 24 25 26         column 0..9)
//!
//!   f[9*b + d]   candidates of digit d+1 in band b       27 x u32
//!   unsolved[b]  cells of band b not yet fixed             3 x u32
//!   cols[9*b+d]  columns of f[9*b+d] at its last update   27 x u16
//!                                                        ---------
//!                                                        174 bytes
//!   dirty        bit 3*d+b: f[9*b+d] changed since its last update
//!                (a register of the propagation loop, not stored)
//! ```
//!
//! The nine digit words of a band are adjacent, so fixing a cell (removing
//! it from the eight other digits and noting which words changed) is two
//! SSE2 AND-NOTs, two compares and two `movmskps` on x86-64.
//!
//! A search node is exactly that state; guessing copies it by value (no heap,
//! no undo log), so backtracking is just dropping the copy.
//!
//! ## Why it is fast
//!
//! Inside one band a digit sits exactly once in each of the three rows and
//! once in each of the three boxes: its three *mini-rows* (row r, box k) form
//! one of the 6 permutations row -> box. A 9-bit summary "which mini-rows are
//! non-empty" (three lookups in `ROW_BOXES`) indexes `PERMUTATION_CELLS`,
//! the cells of mini-rows that still belong to some complete permutation. One
//! AND with it does, for that digit and band at once:
//!
//! * locked candidates along rows and boxes (pointing and claiming),
//! * hidden singles in a box (a box left with one cell forces its row, so the
//!   row keeps only that cell),
//! * the contradiction test (no permutation left: the word becomes 0).
//!
//! A box of the band left with one cell (one mini-row after the step above,
//! one column in the fold below) fixes the digit there; after the
//! permutation step that is the same as its row having one cell left, so
//! this is the *hidden single in the row* and *in the box*. The cell is
//! removed from the other eight digits of the band.
//!
//! Columns cross the three bands of a digit. OR-ing the three rows of a word
//! ("folding") gives the columns the digit can use in that band. A box whose
//! candidates are in one column locks that column: it is removed from the
//! two other bands (`KEEP_UNLOCKED`, pointing; this is also how a fixed
//! cell clears its column). A column that neither of the two other bands can
//! use must be filled in this one, so the box holding it keeps only that
//! column (`CLAIM`); when that column has one cell in the band, the box
//! step above turns it into a fixed cell: a *hidden single in the column*.
//!
//! *Naked singles* come from bit-sliced counters over the nine digit words
//! of a band: `two |= one & x; one |= x` gives, for 27 cells at once, the
//! cells with at least one and at least two candidates; unsolved cells with
//! none are a contradiction, with exactly one a naked single.
//!
//! Only digit-bands whose word changed are revisited (the `dirty` bits, in
//! a register), the naked-single scan skips bands nothing touched, the
//! tables total about 15 KB (L1-resident), and an update is a few dozen ALU
//! operations with no data-dependent loops.
//!
//! Since the work per update is so small, what limits speed is waiting, not
//! counting: on branch mispredictions and on one update's result before the
//! next can start. So the dirty bits are taken in passes (each pass walks a
//! snapshot of them, and the next word to update does not depend on what
//! the current update changes, so updates overlap in the processor); one
//! update routine, indexed at run time through [`DIRTY_WORDS`], serves all
//! 27 words (no jump table, whose indirect branch mispredicts); and an
//! update has no data-dependent branch besides the contradiction exit: it
//! clears placed cells and applies its column effects even when there are
//! none. That executes more instructions but takes about 30% less time on
//! hard puzzles than skipping the unneeded work with branches. `cols` keeps
//! each word's columns as of its last update for the other two bands' claims
//! (cheaper than folding their words again, and as good: a band whose
//! columns shrank since is dirty and redoes the claims itself).
//!
//! When nothing more follows, the solver guesses on a cell with two
//! candidates (found with the same counters, one more slice), taken where
//! such cells cluster (the band, then the row, with the most of them): that
//! needs about 20% fewer guesses on hard puzzles than the first such cell.
//! One branch places a digit, the other removes it, which for a
//! two-candidate cell propagation turns into the other digit.

/// A classic grid as the fast path sees it: 81 cells in row-major order,
/// 0 for empty, 1-9 for a digit.
pub type Cells = [u8; 81];

/// All 27 cells of a band.
const ALL: u32 = 0x07FF_FFFF;

/// Nine columns of one row.
const ROW: u32 = 0x1FF;

/// The three columns of box (stack) `k` repeated on the three rows of a band.
const fn spread_columns(cols: u32) -> u32 {
    cols | cols << 9 | cols << 18
}

/// `ROW_BOXES[row]`: for a 9-bit row, the boxes (bit k = box k) in which it
/// has at least one candidate.
const ROW_BOXES: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut r = 0;
    while r < 512 {
        let mut k = 0;
        while k < 3 {
            if (r >> (3 * k)) & 7 != 0 {
                t[r] |= 1 << k;
            }
            k += 1;
        }
        r += 1;
    }
    t
};

/// `PERMUTATION_CELLS[s]`, `s` = bit 3*r+k set when mini-row (row r, box k)
/// has a candidate: the 27-bit mask of the mini-rows that lie on a
/// permutation row -> box whose three mini-rows are all non-empty. 0 when no
/// permutation is left (the digit cannot be placed in this band).
const PERMUTATION_CELLS: [u32; 512] = {
    const PERMS: [[usize; 3]; 6] = [
        [0, 1, 2],
        [0, 2, 1],
        [1, 0, 2],
        [1, 2, 0],
        [2, 0, 1],
        [2, 1, 0],
    ];
    let mut t = [0u32; 512];
    let mut s = 0;
    while s < 512 {
        let mut p = 0;
        while p < 6 {
            let mut ok = true;
            let mut cells = 0u32;
            let mut r = 0;
            while r < 3 {
                let k = PERMS[p][r];
                if (s >> (3 * r + k)) & 1 == 0 {
                    ok = false;
                }
                cells |= 7 << (9 * r + 3 * k);
                r += 1;
            }
            if ok {
                t[s] |= cells;
            }
            p += 1;
        }
        s += 1;
    }
    t
};

/// `KEEP_UNLOCKED[cols]`, `cols` = the columns a digit can use in one band:
/// the cells the *other* bands may keep. A box (stack) with candidates in a
/// single column holds the digit in that column, so the other bands lose it.
const KEEP_UNLOCKED: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut c = 0;
    while c < 512 {
        let mut keep = ROW;
        let mut k = 0;
        while k < 3 {
            let stack = (c >> (3 * k)) & 7;
            if stack != 0 && stack & (stack - 1) == 0 {
                keep &= !((stack as u32) << (3 * k));
            }
            k += 1;
        }
        t[c] = spread_columns(keep);
        c += 1;
    }
    t
};

/// `SINGLE_ROW_BOXES[s]` (`s` as for [`PERMUTATION_CELLS`], before the
/// permutation step): the cells of the boxes that have mini-rows on exactly
/// one row once the permutation step is done.
const SINGLE_ROW_BOXES: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut s = 0;
    while s < 512 {
        let kept = PERMUTATION_CELLS[s];
        let mut k = 0;
        while k < 3 {
            let mut rows = 0;
            let mut r = 0;
            while r < 3 {
                if kept & (1 << (9 * r + 3 * k)) != 0 {
                    rows += 1;
                }
                r += 1;
            }
            if rows == 1 {
                t[s] |= spread_columns(7 << (3 * k));
            }
            k += 1;
        }
        s += 1;
    }
    t
};

/// `SINGLE_COLUMN_BOXES[cols]`, `cols` = the columns a digit can use in one
/// band: the cells of the boxes whose candidates are in a single column.
const SINGLE_COLUMN_BOXES: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut c = 0;
    while c < 512 {
        let mut k = 0;
        while k < 3 {
            let stack = (c >> (3 * k)) & 7;
            if stack != 0 && stack & (stack - 1) == 0 {
                t[c] |= spread_columns(7 << (3 * k));
            }
            k += 1;
        }
        c += 1;
    }
    t
};

/// `CLAIM[need]`, `need` = columns the two other bands cannot use, so this
/// band must hold the digit there: the cells this band may keep. In a stack
/// with one needed column only that column stays; with two or three needed
/// columns nothing stays (one box cannot serve two columns: contradiction).
const CLAIM: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut n = 0;
    while n < 512 {
        let mut keep = 0u32;
        let mut k = 0;
        while k < 3 {
            let stack = ((n >> (3 * k)) & 7) as u32;
            let kept = if stack == 0 {
                7
            } else if stack & (stack - 1) == 0 {
                stack
            } else {
                0
            };
            keep |= kept << (3 * k);
            k += 1;
        }
        t[n] = spread_columns(keep);
        n += 1;
    }
    t
};

/// `PEERS_OUT[p]`: a band word without the row and box peers of cell `p`
/// (cell `p` itself kept). AND-ing it in places the digit at `p` inside its
/// band; the column in the other bands follows from [`KEEP_UNLOCKED`].
const PEERS_OUT: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut p = 0;
    while p < 27 {
        let (r, c) = (p / 9, p % 9);
        let row = ROW << (9 * r);
        let bx = spread_columns(7 << (3 * (c / 3)));
        t[p] = (ALL & !(row | bx)) | 1 << p;
        p += 1;
    }
    t
};

/// `SPREAD3[m]`: bit k of a 9-bit digit mask moved to bit 3k (the dirty bit
/// of digit k in band 0).
const SPREAD3: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut k = 0;
        while k < 9 {
            if m & (1 << k) != 0 {
                t[m] |= 1 << (3 * k);
            }
            k += 1;
        }
        m += 1;
    }
    t
};

/// Two tables with the same index side by side, so that one lookup brings
/// both entries into the same cache line.
const fn pair_up(a: [u32; 512], b: [u32; 512]) -> [[u32; 2]; 512] {
    let mut t = [[0u32; 2]; 512];
    let mut k = 0;
    while k < 512 {
        t[k] = [a[k], b[k]];
        k += 1;
    }
    t
}

/// The lookup tables of the hot loop in one object: every access is an
/// offset from one base address that stays in a register (separate statics
/// would each need their own address computation).
struct Tables {
    row_boxes: [u32; 512],
    /// [`PERMUTATION_CELLS`], [`SINGLE_ROW_BOXES`]
    by_minirows: [[u32; 2]; 512],
    /// [`SINGLE_COLUMN_BOXES`], [`KEEP_UNLOCKED`]
    by_columns: [[u32; 2]; 512],
    claim: [u32; 512],
    spread3: [u32; 512],
    pop9: [u8; 512],
}

static T: Tables = Tables {
    row_boxes: ROW_BOXES,
    by_minirows: pair_up(PERMUTATION_CELLS, SINGLE_ROW_BOXES),
    by_columns: pair_up(SINGLE_COLUMN_BOXES, KEEP_UNLOCKED),
    claim: CLAIM,
    spread3: SPREAD3,
    pop9: {
        let mut t = [0u8; 512];
        let mut k = 0;
        while k < 512 {
            t[k] = (k as u32).count_ones() as u8;
            k += 1;
        }
        t
    },
};

/// The dirty bits of band 0 (bits 3*digit); shift left by b for band b.
const BAND_DIRTY_BITS: u32 = 0o111_111_111;

/// The dirty bit of word `j` = 9*band + digit: 3*digit + band, so that the
/// propagation loop (lowest bit first) finishes a digit's three bands before
/// the next digit; that order needs fewer updates than band by band.
#[inline(always)]
const fn dirty_bit(j: usize) -> usize {
    3 * (j % 9) + j / 9
}

/// `DIRTY_WORDS[k]` for dirty bit `k` = 3*digit + band: the word
/// 9*band + digit, the words of the same digit in the next two bands
/// (cyclically), the band, and the dirty bits of those two other words
/// (stored, since computing them costs more instructions than the load).
const DIRTY_WORDS: [[u8; 8]; 32] = {
    // Entries 27..32 are never used (dirty bits stop at 26); they exist so
    // that indexing with `k & 31` needs no bounds check.
    let mut t = [[0u8; 8]; 32];
    let mut k = 0;
    while k < 27 {
        let (d, b) = (k / 3, k % 3);
        let i = 9 * b + d;
        let (i1, i2) = ((i + 9) % 27, (i + 18) % 27);
        t[k] = [
            i as u8,
            i1 as u8,
            i2 as u8,
            b as u8,
            dirty_bit(i1) as u8,
            dirty_bit(i2) as u8,
            0,
            0,
        ];
        assert!(dirty_bit(i) == k && i < 27 && b < 3);
        k += 1;
    }
    t
};

/// `CELL_SPOT[cell]`: band << 5 | bit within the band, for a cell 0..81.
const CELL_SPOT: [u8; 81] = {
    let mut t = [0u8; 81];
    let mut c = 0;
    while c < 81 {
        t[c] = (((c / 27) << 5) | (c % 27)) as u8;
        c += 1;
    }
    t
};

/// Number of cells in a band word.
#[inline(always)]
fn count_cells(w: u32) -> u32 {
    T.pop9[(w & ROW) as usize] as u32
        + T.pop9[((w >> 9) & ROW) as usize] as u32
        + T.pop9[((w >> 18) & ROW) as usize] as u32
}

/// The columns a band word can use: its three rows OR-ed together.
#[inline(always)]
fn fold(x: u32) -> u32 {
    (x | x >> 9 | x >> 18) & ROW
}

/// One search node (see the module comment for the layout).
#[derive(Clone, Copy)]
struct State {
    /// `f[9*b + d]`: cells of band `b` where digit `d+1` may go.
    f: [u32; 27],
    /// Cells of each band not yet fixed to a digit.
    unsolved: [u32; 3],
    /// `cols[j]`: the columns word `j` could use at its last update.
    cols: [u16; 27],
}

impl State {
    /// The state of a puzzle before any propagation (values above 9 count
    /// as empty cells).
    fn from_puzzle(puzzle: &Cells) -> State {
        let mut st = State {
            f: [ALL; 27],
            unsolved: [ALL; 3],
            cols: [ROW as u16; 27],
        };
        let mut givens = [0u32; 3];
        let mut own = [0u32; 27];
        let mut give = |cell: usize, v: u8| {
            if (1..=9).contains(&v) {
                let spot = CELL_SPOT[cell];
                let (b, p) = ((spot >> 5) as usize, (spot & 31) as usize);
                let i = 9 * b + v as usize - 1;
                st.f[i] &= PEERS_OUT[p];
                givens[b] |= 1 << p;
                own[i] |= 1 << p;
            }
        };
        // Visit only the filled cells, from one 81-bit mask of them: most
        // cells are empty, and a branch per cell (or a loop per group of
        // cells) would mispredict on them; one loop over the mask has one
        // hard-to-predict exit per puzzle.
        let mut filled = filled_cells(puzzle);
        while filled != 0 {
            let cell = filled.trailing_zeros() as usize;
            filled &= filled - 1;
            give(cell, puzzle[cell]);
        }
        // A given cell is no candidate of the other eight digits, and a
        // given's column holds its digit nowhere else (known now, so the
        // first propagation pass starts from a stronger state: about 10%
        // fewer updates on easy puzzles).
        for d in 0..9 {
            let mine = [own[d], own[9 + d], own[18 + d]];
            let column = spread_columns(fold(mine[0] | mine[1] | mine[2]));
            for (b, &mine) in mine.iter().enumerate() {
                st.f[9 * b + d] &= !((givens[b] | column) & !mine);
            }
        }
        st
    }

    /// Removes `cells` from the words of all nine digits of band `b` and
    /// marks the changed ones dirty. Callers restore the word of the digit
    /// that owns the cells.
    #[inline(always)]
    fn clear_band(&mut self, b: usize, cells: u32, dirty: &mut u32) {
        let words: &mut [u32; 9] = (&mut self.f[9 * b..9 * b + 9]).try_into().unwrap();
        let changed = clear_nine(words, cells);
        *dirty |= T.spread3[changed as usize] << b;
    }

    /// Brings the digit-band with dirty bit `k` (= 3*digit + band, word
    /// 9*band + digit) up to date: band permutations, placed cells, and
    /// column effects on the other two bands of the digit. False on a
    /// contradiction.
    ///
    /// One copy for all 27 digit-bands, indexed at run time: the word
    /// indices come from [`DIRTY_WORDS`], so the propagation loop needs no
    /// jump table (an indirect branch whose target changes with every
    /// update, which the predictor mostly gets wrong).
    #[inline(always)]
    fn update(&mut self, k: u32, dirty: &mut u32) -> bool {
        let [i, i1, i2, b, k1, k2, _, _] = DIRTY_WORDS[k as usize & 31].map(usize::from);
        // SAFETY: every entry of DIRTY_WORDS is a word index below 27 and a
        // band below 3 (checked when the table is built), and `f`, `cols`
        // have 27 entries, `unsolved` 3.
        let (fi, ui, c1, c2) = unsafe {
            (
                *self.f.get_unchecked(i),
                *self.unsolved.get_unchecked(b),
                *self.cols.get_unchecked(i1) as usize,
                *self.cols.get_unchecked(i2) as usize,
            )
        };
        let mut a = fi;
        let s = (T.row_boxes[(a & ROW) as usize]
            | T.row_boxes[((a >> 9) & ROW) as usize] << 3
            | T.row_boxes[((a >> 18) & ROW) as usize] << 6) as usize
            & 511;
        let [kept, single_row] = T.by_minirows[s];
        a &= kept;
        if a == 0 {
            return false;
        }
        let ca = fold(a) as usize;

        // A box down to one row and one column: the digit is placed there.
        // Done without a branch (clearing no cells changes nothing): whether
        // an update places a cell is data the predictor cannot guess, and a
        // mispredict costs more than the few SSE2 operations saved.
        let [single_column, keep] = T.by_columns[ca];
        let new = a & single_row & single_column & ui;
        // SAFETY: b < 3, see above.
        unsafe { *self.unsolved.get_unchecked_mut(b) = ui & !new };
        self.clear_band(b, new, dirty);
        // That marks this word dirty too; the caller clears its bit after
        // the update (the word written back below is a fixed point of it).
        // SAFETY: i < 27, see above.
        unsafe { *self.f.get_unchecked_mut(i) = a };
        // Columns: pointing from this band, claiming for the other two. The
        // other bands' columns are taken as of their last update: if they
        // have shrunk since, those bands are dirty and will redo the claims
        // themselves. When this band's columns did not change since its last
        // update this tells nothing new, but it is done anyway: skipping it
        // is a branch that mispredicts often, which costs more.
        // SAFETY: i, i1, i2 < 27, see above.
        unsafe {
            *self.cols.get_unchecked_mut(i) = ca as u16;
            let w1 = self.f.get_unchecked_mut(i1);
            let n1 = *w1 & keep & T.claim[!(ca | c2) & ROW as usize];
            *dirty |= ((n1 != *w1) as u32) << k1;
            *w1 = n1;
            let w2 = self.f.get_unchecked_mut(i2);
            let n2 = *w2 & keep & T.claim[!(ca | c1) & ROW as usize];
            *dirty |= ((n2 != *w2) as u32) << k2;
            *w2 = n2;
        }
        true
    }

    /// Propagates to a fixed point. False on a contradiction.
    fn propagate(&mut self, mut dirty: u32) -> bool {
        loop {
            // Words updated since the last naked-single scan: only their
            // bands can hold new naked singles or empty cells.
            let mut touched = 0;
            // A pass over the words dirty at its start, lowest bit first.
            // The next word to update comes from `work` alone, not from
            // what the current update changes, so the processor can start
            // the next update before this one is done (taking the lowest
            // bit of the live `dirty` chained every update to the one
            // before: about 15% slower). Words an update dirties are done
            // in this pass if still ahead in `work`, else in the next.
            while dirty != 0 {
                let mut work = dirty;
                touched |= work;
                while work != 0 {
                    let i = work.trailing_zeros();
                    work &= work - 1;
                    if !self.update(i, &mut dirty) {
                        return false;
                    }
                    // Word `i` is up to date: whatever marked it dirty
                    // before or during its update is done with.
                    dirty &= !(1 << i);
                }
            }
            // Naked singles, and cells with no candidate left.
            for b in 0..3 {
                let u = self.unsolved[b];
                if u == 0 || touched & BAND_DIRTY_BITS << b == 0 {
                    continue;
                }
                let (mut one, mut two) = (0u32, 0u32);
                for &x in &self.f[9 * b..9 * b + 9] {
                    two |= one & x;
                    one |= x;
                }
                if u & !one != 0 {
                    return false;
                }
                let single = u & !two;
                if single != 0 {
                    for j in 9 * b..9 * b + 9 {
                        let mut x = self.f[j] & single;
                        while x != 0 {
                            self.f[j] &= PEERS_OUT[x.trailing_zeros() as usize];
                            dirty |= 1 << dirty_bit(j);
                            x &= x - 1;
                        }
                    }
                }
            }
            if dirty == 0 {
                return true;
            }
        }
    }

    /// True when every cell is fixed (call after a successful propagate).
    #[inline(always)]
    fn is_solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    /// The cell to guess on, as (band, cell bit). A cell with two
    /// candidates when there is one: in the band with the most such cells,
    /// in its row with the most. Where they cluster the two branches
    /// constrain each other most: on hard puzzles this needs about 20% fewer
    /// guesses than the first such cell. Else the first cell with three
    /// candidates, else the first unsolved cell.
    fn pick(&self) -> (usize, u32) {
        let (mut best, mut most) = ((0, 0), 0);
        for b in 0..3 {
            let u = self.unsolved[b];
            if u == 0 {
                continue;
            }
            let (mut one, mut two, mut three) = (0u32, 0u32, 0u32);
            for &x in &self.f[9 * b..9 * b + 9] {
                three |= two & x;
                two |= one & x;
                one |= x;
            }
            // Unsolved cells all have two or more candidates here.
            let pair = u & !three;
            if pair != 0 {
                let rows = [pair & ROW, pair & ROW << 9, pair & ROW << 18];
                let n = rows.map(|r| T.pop9[((r | r >> 9 | r >> 18) & ROW) as usize] as u32);
                let score = (n[0] + n[1] + n[2]) * 16 + n[0].max(n[1]).max(n[2]);
                if score > most {
                    let r = if n[0] >= n[1] && n[0] >= n[2] {
                        rows[0]
                    } else if n[1] >= n[2] {
                        rows[1]
                    } else {
                        rows[2]
                    };
                    (best, most) = ((b, r & r.wrapping_neg()), score);
                }
            }
        }
        if most > 0 {
            return best;
        }
        self.pick_without_pairs()
    }

    /// The rare case of no two-candidate cell: the first cell with three
    /// candidates, else the first unsolved cell.
    #[cold]
    fn pick_without_pairs(&self) -> (usize, u32) {
        let mut any = None;
        for b in 0..3 {
            let u = self.unsolved[b];
            if u == 0 {
                continue;
            }
            let (mut one, mut two, mut three, mut four) = (0u32, 0u32, 0u32, 0u32);
            for &x in &self.f[9 * b..9 * b + 9] {
                four |= three & x;
                three |= two & x;
                two |= one & x;
                one |= x;
            }
            let t = u & !four;
            if t != 0 {
                return (b, t & t.wrapping_neg());
            }
            any = any.or(Some((b, u & u.wrapping_neg())));
        }
        any.unwrap_or((0, 1))
    }

    /// Places the digit of word `i` at `cell` (a bit of band `i / 9`).
    /// Returns the dirty bits.
    fn place(&mut self, i: usize, cell: u32) -> u32 {
        let own = self.f[i] & PEERS_OUT[cell.trailing_zeros() as usize];
        let mut dirty = 0;
        self.clear_band(i / 9, cell, &mut dirty);
        self.f[i] = own;
        dirty | 1 << dirty_bit(i)
    }

    /// The grid of a solved state.
    fn write_solution(&self, out: &mut Cells) {
        // Solved, each word has exactly one cell in each of its three rows:
        // three stores per word, no loop over its bits (`min` only keeps a
        // malformed word inside the grid).
        for (i, &w) in self.f.iter().enumerate() {
            let (digit, base) = ((i % 9 + 1) as u8, (i / 9) * 27);
            for r in 0..3 {
                let column = (((w >> (9 * r)) & ROW).trailing_zeros() as usize).min(8);
                out[base + 9 * r + column] = digit;
            }
        }
    }
}

/// The cells of `puzzle` that are not 0, bit `cell` set for each.
///
/// With SSE2 (part of every x86-64 target): five 16-byte compares with
/// zero and `pmovmskb`, sixteen cells at a time.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn filled_cells(puzzle: &Cells) -> u128 {
    use std::arch::x86_64::*;
    let mut mask = 0u128;
    for (n, chunk) in puzzle.chunks_exact(16).enumerate() {
        // SAFETY: SSE2 is enabled (cfg above); `chunk` is 16 bytes, so the
        // unaligned 16-byte load stays inside it.
        let zero = unsafe {
            let v = _mm_loadu_si128(chunk.as_ptr() as *const __m128i);
            _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) as u32
        };
        mask |= ((!zero & 0xFFFF) as u128) << (16 * n);
    }
    mask | ((puzzle[80] != 0) as u128) << 80
}

/// Portable version of the SSE2 `filled_cells` above.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
fn filled_cells(puzzle: &Cells) -> u128 {
    let mut mask = 0u128;
    for (cell, &v) in puzzle.iter().enumerate() {
        mask |= ((v != 0) as u128) << cell;
    }
    mask
}

/// `words[k] &= !cells` for the nine digit words of a band; returns bit k
/// set for each word that changed.
///
/// SSE2 is part of every x86-64 target, so this needs no runtime check: two
/// 4-lane AND-NOTs, two compares and two `movmskps` replace eight
/// load/and/compare/store sequences.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn clear_nine(words: &mut [u32; 9], cells: u32) -> u32 {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is enabled (cfg above); the two unaligned 16-byte loads
    // and stores cover words[0..4] and words[4..8], inside the array.
    unsafe {
        let p = words.as_mut_ptr() as *mut __m128i;
        let m = _mm_set1_epi32(cells as i32);
        let v0 = _mm_loadu_si128(p);
        let v1 = _mm_loadu_si128(p.add(1));
        let n0 = _mm_andnot_si128(m, v0);
        let n1 = _mm_andnot_si128(m, v1);
        _mm_storeu_si128(p, n0);
        _mm_storeu_si128(p.add(1), n1);
        let same0 = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(n0, v0))) as u32;
        let same1 = _mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(n1, v1))) as u32;
        let old8 = words[8];
        words[8] = old8 & !cells;
        let changed8 = (old8 & cells != 0) as u32;
        (!(same0 | same1 << 4) & 0xFF) | changed8 << 8
    }
}

/// Portable version of the SSE2 `clear_nine` above.
#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
#[inline(always)]
fn clear_nine(words: &mut [u32; 9], cells: u32) -> u32 {
    let mut changed = 0;
    for (k, w) in words.iter_mut().enumerate() {
        changed |= ((*w & cells != 0) as u32) << k;
        *w &= !cells;
    }
    changed
}

/// Where solutions go during the search.
trait Sink {
    /// Called with each solved state; true stops the search.
    fn found(&mut self, st: &State) -> bool;
}

/// Counts up to a limit, keeping the first solution.
struct Counter<'a> {
    count: usize,
    limit: usize,
    first: &'a mut Cells,
}

impl Sink for Counter<'_> {
    #[inline]
    fn found(&mut self, st: &State) -> bool {
        if self.count == 0 {
            st.write_solution(self.first);
        }
        self.count += 1;
        self.count >= self.limit
    }
}

/// Hands every solution to a callback, up to a limit.
struct Each<'a, 'b> {
    count: usize,
    limit: usize,
    each: &'a mut (dyn FnMut(&Cells) + 'b),
}

impl Sink for Each<'_, '_> {
    fn found(&mut self, st: &State) -> bool {
        let mut g = [0u8; 81];
        st.write_solution(&mut g);
        (self.each)(&g);
        self.count += 1;
        self.count >= self.limit
    }
}

/// Depth-first search from `st`; true when the sink asked to stop. Each
/// guess recurses on a copy with the digit placed, then carries on in `st`
/// with that digit removed from the cell (so the loop, not the recursion,
/// walks a cell's digits). Depth is at most the number of empty cells.
fn search<S: Sink>(st: &mut State, mut dirty: u32, sink: &mut S) -> bool {
    loop {
        if !st.propagate(dirty) {
            return false;
        }
        if st.is_solved() {
            return sink.found(st);
        }
        let (b, cell) = st.pick();
        // The cell's digits as a 9-bit mask, found without a branch per
        // digit (which digits a cell holds is what a predictor cannot know).
        let words: &[u32; 9] = st.f[9 * b..9 * b + 9].try_into().unwrap_or(&[0; 9]);
        let mut digits = 0u32;
        for (d, &w) in words.iter().enumerate() {
            digits |= ((w & cell != 0) as u32) << d;
        }
        let rest = digits & digits.wrapping_sub(1);
        let pair = rest != 0 && rest & (rest - 1) == 0;
        let (mut i, mut j) = (
            9 * b + (digits.trailing_zeros() as usize).min(8),
            9 * b + (rest.trailing_zeros() as usize).min(8),
        );
        // Of the cell's first two digits, try first the one with more
        // candidates in the band: the less constrained one is the likelier,
        // which saves guesses when the search stops at a solution (first,
        // or counting with a limit).
        if rest != 0 && count_cells(st.f[j]) > count_cells(st.f[i]) {
            (i, j) = (j, i);
        }
        let mut child = *st;
        let child_dirty = child.place(i, cell);
        if search(&mut child, child_dirty, sink) {
            return true;
        }
        dirty = if pair {
            // The other digit is all that is left: place it at once rather
            // than let propagation find the naked single.
            st.place(j, cell)
        } else {
            st.f[i] &= !cell;
            1 << dirty_bit(i)
        };
    }
}

/// Counts solutions of `puzzle` up to `limit` (0 is read as 1), writing the
/// first solution found into `first` when the count is not 0. Givens that
/// clash simply give 0 (callers check clashes separately, to name the
/// cells). Cell values above 9 count as empty.
///
/// The search lives on the call stack (one 174-byte node per guess level),
/// so solving allocates nothing.
pub fn count(puzzle: &Cells, limit: usize, first: &mut Cells) -> usize {
    let mut sink = Counter {
        count: 0,
        limit: limit.max(1),
        first,
    };
    let mut st = State::from_puzzle(puzzle);
    search(&mut st, ALL, &mut sink);
    sink.count
}

/// Calls `each` for every solution up to `limit` (0 is read as 1); returns
/// how many were found.
pub fn for_each_solution(puzzle: &Cells, limit: usize, each: &mut dyn FnMut(&Cells)) -> usize {
    let mut sink = Each {
        count: 0,
        limit: limit.max(1),
        each,
    };
    let mut st = State::from_puzzle(puzzle);
    search(&mut st, ALL, &mut sink);
    sink.count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testdata::shared_lines;
    use crate::{Board, Shape};

    /// A 17-clue puzzle with one solution.
    const UNIQUE: &str =
        "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

    fn grid(line: &str) -> Cells {
        let board = Board::parse(line, Shape::classic()).unwrap();
        board.cells.try_into().unwrap()
    }

    /// True when `solution` is a valid solution of `puzzle`.
    fn solves(solution: &Cells, puzzle: &Cells) -> bool {
        let board = |c: &Cells| Board {
            shape: Shape::classic(),
            cells: c.to_vec(),
        };
        board(solution).is_solution_of(&board(puzzle))
    }

    /// Checks every puzzle of a shared set: the count (capped at `limit`)
    /// satisfies `expect`, and the first solution is valid.
    fn check_set(name: &str, max: usize, limit: usize, expect: impl Fn(usize) -> bool) {
        let Some(lines) = shared_lines(name, max) else {
            return;
        };
                for (k, line) in lines.iter().enumerate() {
            let p = grid(line);
            let mut first = [0u8; 81];
            let n = count(&p, limit, &mut first);
            assert!(expect(n), "{name} line {}: {n} solutions", k + 1);
            if n > 0 {
                assert!(solves(&first, &p), "{name} line {}", k + 1);
            }
        }
    }

    #[test]
    fn unique_puzzle_has_one_valid_solution() {
        let p = grid(UNIQUE);
        let mut first = [0u8; 81];
        assert_eq!(count(&p, 2, &mut first), 1);
        assert!(solves(&first, &p));
    }

    #[test]
    fn a_solved_grid_is_its_own_solution() {
        let p = grid(UNIQUE);
        let mut solution = [0u8; 81];
        count(&p, 1, &mut solution);
        let mut again = [0u8; 81];
        assert_eq!(count(&solution, 2, &mut again), 1);
        assert_eq!(again, solution);
    }

    #[test]
    fn clashing_givens_give_zero() {
        let mut first = [0u8; 81];
                for (a, b) in [(0, 1), (0, 9), (0, 10), (0, 72), (40, 44)] {
            let mut p = [0u8; 81];
            p[a] = 7;
            p[b] = 7;
            assert_eq!(count(&p, 2, &mut first), 0, "cells {a} and {b}");
        }
    }

    #[test]
    fn hidden_contradiction_gives_zero() {
        // Givens that break no rule, yet r1c1 can hold no digit: r1 holds
        // 2-8 and c1 holds 9, so only 1 is left, and r2c2 is 1.
        let mut p = [0u8; 81];
        for (c, d) in (1..8).zip(2..9) {
            p[c] = d;
        }
        p[9 * 5] = 9;
        p[10] = 1;
        assert!(Board { shape: Shape::classic(), cells: p.to_vec() }.clashes().is_empty());
        assert_eq!(count(&p, 2, &mut [0u8; 81]), 0);
    }

    #[test]
    fn empty_grid_counts_up_to_the_limit() {
                let mut first = [0u8; 81];
        for limit in [1, 2, 17, 10_000] {
            assert_eq!(count(&[0u8; 81], limit, &mut first), limit);
            assert!(solves(&first, &[0u8; 81]));
        }
        assert_eq!(
            count(&[0u8; 81], 0, &mut first),
            1,
            "limit 0 reads as 1"
        );
    }

    #[test]
    fn for_each_solution_sees_distinct_valid_solutions() {
        // Two clues removed from a unique puzzle's solution: a few solutions.
        let p = grid(UNIQUE);
                let mut solution = [0u8; 81];
        count(&p, 1, &mut solution);
        let mut open = solution;
        for cell in [0, 1, 9, 10, 30, 31, 39, 40] {
            open[cell] = 0;
        }
        let mut seen = std::collections::HashSet::new();
        let n = for_each_solution(&open, 100, &mut |g| {
            assert!(solves(g, &open));
            assert!(seen.insert(*g), "solution repeated");
        });
        assert_eq!(n, seen.len());
        assert!((1..100).contains(&n));
        let mut counted = [0u8; 81];
        assert_eq!(count(&open, 100, &mut counted), n);
        assert_eq!(for_each_solution(&[0u8; 81], 5, &mut |_| {}), 5);
    }

    #[test]
    fn counts_match_the_serg_counts_file() {
        let (Some(puzzles), Some(counts)) = (
            shared_lines("puzzles7_serg_benchmark.txt", 300),
            shared_lines("puzzles7_serg_benchmark.counts.txt", 300),
        ) else {
            return;
        };
                let mut first = [0u8; 81];
        for (k, (line, expected)) in puzzles.iter().zip(&counts).enumerate() {
            let p = grid(line);
            let expected: usize = expected.trim().parse().unwrap();
            assert_eq!(count(&p, 2000, &mut first), expected, "line {}", k + 1);
            assert!(solves(&first, &p));
            assert_eq!(count(&p, 2, &mut first), 2, "line {}", k + 1);
        }
    }

    #[test]
    fn benchmark_sets_have_their_known_counts() {
        check_set("puzzles2_17_clue.txt", 300, 2, |n| n == 1);
        check_set("puzzles3_magictour_top1465.txt", 200, 2, |n| n == 1);
        check_set("puzzles5_forum_hardest_1905_11+.txt", 100, 2, |n| n == 1);
        check_set("puzzles6_forum_hardest_1106.txt", 50, 2, |n| n == 1);
        check_set("derived_17clue_minus1.txt", 200, 2, |n| n == 2);
        check_set("derived_17clue_unsat.txt", 300, 2, |n| n == 0);
        check_set("derived_hardest11_unsat.txt", 100, 2, |n| n == 0);
    }

    #[test]
    fn gecode_puzzles_match_their_solutions() {
        let (Some(puzzles), Some(solutions)) = (
            shared_lines("gecode_9x9.txt", 100),
            shared_lines("gecode_9x9.solutions.txt", 100),
        ) else {
            return;
        };
                for (line, solution) in puzzles.iter().zip(&solutions) {
            let mut first = [0u8; 81];
            assert_eq!(count(&grid(line), 2, &mut first), 1, "{line}");
            assert_eq!(first, grid(solution));
        }
    }
}
