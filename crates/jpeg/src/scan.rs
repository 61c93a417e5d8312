//! Walking the scan MCU by MCU: where each starts, its blocks decoded, and
//! blocks coded again.

use crate::bits::{Reader, Unstuffed, Writer};
use crate::huffman::Table;
use crate::markers::Headers;
use crate::Unsupported;

/// Where every MCU of the scan lies and what the decoder knows at its start.
#[derive(Clone)]
pub(crate) struct Index {
    /// First bit of each MCU (in the unstuffed data).
    pub start: Vec<u64>,
    /// The bit after each MCU: the next one's start, except at the end of
    /// a restart interval, whose padding is not the MCU's.
    pub end: Vec<u64>,
    /// Each component's DC prediction at the start of each MCU.
    pub pred: Vec<[i32; 3]>,
}

/// The MCU layout of a frame.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Layout {
    /// MCU size in pixels.
    pub mcu_w: usize,
    pub mcu_h: usize,
    /// MCUs across and down.
    pub across: usize,
    pub down: usize,
}

impl Layout {
    pub fn of(h: &Headers) -> Layout {
        let hmax = h.components.iter().map(|c| c.h).max().unwrap_or(1);
        let vmax = h.components.iter().map(|c| c.v).max().unwrap_or(1);
        let (mcu_w, mcu_h) = (8 * hmax, 8 * vmax);
        Layout {
            mcu_w,
            mcu_h,
            across: h.width.div_ceil(mcu_w),
            down: h.height.div_ceil(mcu_h),
        }
    }

    pub fn count(&self) -> usize {
        self.across * self.down
    }
}

/// Coefficients of one block, natural order, DC as its value (not the
/// difference coded).
pub(crate) type Block = [i32; 64];

/// The value of `bits` read as a coefficient of size category `size`.
#[inline]
pub(crate) fn extend(bits: u32, size: u32) -> i32 {
    if size == 0 {
        0
    } else if bits < 1 << (size - 1) {
        bits as i32 - (1 << size) + 1
    } else {
        bits as i32
    }
}

/// The `size` bits after the first `len` of `word` (`len` + `size` at
/// most 32: a code is at most 16 bits, a magnitude at most 11).
#[inline]
fn bits_after(word: u32, len: u32, size: u32) -> u32 {
    if size == 0 {
        0
    } else {
        (word << len) >> (32 - size)
    }
}

/// Reads one block; with `out`, its coefficients are stored (natural
/// order), else only skipped. Returns the DC difference.
///
/// Each symbol and the magnitude bits after it come from one read of 32
/// bits: the walk of a 16 MP photo's scan is hundreds of thousands of
/// blocks, its bits read once per coefficient.
#[inline]
fn block(
    r: &mut Reader<'_>,
    dc: &Table,
    ac: &Table,
    mut out: Option<&mut Block>,
) -> Result<i32, Unsupported> {
    let word = r.peek32();
    let (s, len) = dc.decode(word >> 16).ok_or(Unsupported::Data)?;
    let size = u32::from(s);
    if size > 11 {
        return Err(Unsupported::Data);
    }
    let diff = extend(bits_after(word, len, size), size);
    r.skip(len + size);
    let mut k = 1;
    while k < 64 {
        let word = r.peek32();
        if let Some((value, run, bits)) = ac.coefficient(word) {
            k += run;
            if k > 63 {
                return Err(Unsupported::Data);
            }
            r.skip(bits);
            if let Some(out) = out.as_deref_mut() {
                out[crate::dct::ZIGZAG[k]] = value;
            }
            k += 1;
            continue;
        }
        let (rs, len) = ac.decode(word >> 16).ok_or(Unsupported::Data)?;
        let (run, size) = (usize::from(rs >> 4), u32::from(rs & 15));
        if size == 0 {
            r.skip(len);
            if run != 15 {
                break;
            }
            k += 16;
            continue;
        }
        k += run;
        if k > 63 || size > 10 {
            return Err(Unsupported::Data);
        }
        let bits = bits_after(word, len, size);
        r.skip(len + size);
        if let Some(out) = out.as_deref_mut() {
            out[crate::dct::ZIGZAG[k]] = extend(bits, size);
        }
        k += 1;
    }
    Ok(diff)
}

/// The tables each component's blocks are read with.
fn tables(h: &Headers) -> Vec<(&Table, &Table)> {
    h.components
        .iter()
        .map(|c| (&h.tables[c.dc].table, &h.tables[c.ac].table))
        .collect()
}

/// Walks the whole scan once, noting where each MCU starts and ends and
/// the DC predictions at its start.
pub(crate) fn index(h: &Headers, data: &Unstuffed) -> Result<Index, Unsupported> {
    let mut walk = Walk::new(h, data);
    walk.mcus(Layout::of(h).count(), &mut [])?;
    walk.finish()
}

/// A walk of the scan, MCU by MCU, building its [`Index`].
pub(crate) struct Walk<'a> {
    h: &'a Headers,
    tables: Vec<(&'a Table, &'a Table)>,
    r: Reader<'a>,
    pred: [i32; 3],
    interval: usize,
    index: Index,
    count: usize,
}

impl<'a> Walk<'a> {
    pub fn new(h: &'a Headers, data: &'a Unstuffed) -> Walk<'a> {
        let count = Layout::of(h).count();
        Walk {
            h,
            tables: tables(h),
            r: Reader::new(data, 0),
            pred: [0; 3],
            interval: 0,
            index: Index {
                start: Vec::with_capacity(count),
                end: Vec::with_capacity(count),
                pred: Vec::with_capacity(count),
            },
            count,
        }
    }

    /// Walks the next `n` MCUs. With `first` not empty, the first
    /// component's blocks are stored there (zeroed before, as [`decode`]
    /// gives them: natural order, DC absolute), `n` MCUs' worth.
    pub fn mcus(&mut self, n: usize, first: &mut [Block]) -> Result<(), Unsupported> {
        let (h, data) = (self.h, self.r.data());
        let keep = !first.is_empty();
        let mut stored = first.iter_mut();
        for _ in 0..n {
            let m = self.index.start.len();
            if m >= self.count {
                return Err(Unsupported::Data);
            }
            if h.restart > 0 && m > 0 && m.is_multiple_of(h.restart) {
                self.interval += 1;
                self.r
                    .seek(*data.intervals.get(self.interval).ok_or(Unsupported::Data)?);
                self.pred = [0; 3];
            }
            self.index.start.push(self.r.at());
            self.index.pred.push(self.pred);
            for (c, comp) in h.components.iter().enumerate() {
                let (dc, ac) = self.tables[c];
                for _ in 0..comp.h * comp.v {
                    if c == 0 && keep {
                        let b = stored.next().ok_or(Unsupported::Data)?;
                        self.pred[c] += block(&mut self.r, dc, ac, Some(b))?;
                        b[0] = self.pred[c];
                    } else {
                        self.pred[c] += block(&mut self.r, dc, ac, None)?;
                    }
                }
            }
            // An MCU must end within its interval's data.
            if self.r.at()
                > *data
                    .intervals
                    .get(self.interval + 1)
                    .ok_or(Unsupported::Data)?
            {
                return Err(Unsupported::Data);
            }
            self.index.end.push(self.r.at());
        }
        Ok(())
    }

    /// The index, once every MCU has been walked.
    pub fn finish(self) -> Result<Index, Unsupported> {
        if self.index.start.len() != self.count {
            return Err(Unsupported::Data);
        }
        Ok(self.index)
    }
}

/// The blocks of MCU `m`, each component's in order (rows of `h` blocks),
/// DC values absolute.
pub(crate) fn decode(
    h: &Headers,
    data: &Unstuffed,
    index: &Index,
    m: usize,
) -> Result<Vec<Block>, Unsupported> {
    let mut r = Reader::new(data, index.start[m]);
    let mut pred = index.pred[m];
    // One allocation an MCU: a canvas decodes thousands of them.
    let mut out = Vec::with_capacity(h.components.iter().map(|c| c.h * c.v).sum());
    for (c, comp) in h.components.iter().enumerate() {
        let (dc, ac) = (&h.tables[comp.dc].table, &h.tables[comp.ac].table);
        for _ in 0..comp.h * comp.v {
            let mut b = [0; 64];
            pred[c] += block(&mut r, dc, ac, Some(&mut b))?;
            b[0] = pred[c];
            out.push(b);
        }
    }
    Ok(out)
}

/// Size category of a coefficient: bits of its magnitude.
#[inline]
fn category(v: i32) -> u32 {
    32 - v.unsigned_abs().leading_zeros()
}

/// The bits JPEG codes a coefficient of category `size` with.
#[inline]
fn magnitude(v: i32, size: u32) -> u32 {
    if v < 0 {
        (v - 1) as u32 & ((1 << size) - 1)
    } else {
        v as u32
    }
}

/// Codes blocks with Huffman tables; a symbol a table lacks is noted
/// (`missing`, per table index) and coded as nothing, so a first pass
/// finds what the tables need.
pub(crate) struct Coder<'a> {
    pub tables: &'a [Table],
    pub missing: Vec<Vec<u8>>,
    /// How often each table's symbols were coded (for optimal tables).
    pub counts: Vec<[u32; 256]>,
}

impl Coder<'_> {
    #[inline]
    fn symbol(&mut self, w: &mut Writer, table: usize, s: u8) {
        self.counts[table][usize::from(s)] += 1;
        match self.tables[table].code(s) {
            Some((code, len)) => w.put(u32::from(code), u32::from(len)),
            None => {
                if !self.missing[table].contains(&s) {
                    self.missing[table].push(s);
                }
            }
        }
    }

    /// Codes `b` (natural order, DC absolute) after DC prediction `pred`.
    pub fn block(&mut self, w: &mut Writer, b: &Block, pred: i32, dc: usize, ac: usize) {
        let diff = b[0] - pred;
        let size = category(diff);
        self.symbol(w, dc, size as u8);
        w.put(magnitude(diff, size), size);
        let mut run = 0;
        for &natural in &crate::dct::ZIGZAG[1..] {
            let v = b[natural];
            if v == 0 {
                run += 1;
                continue;
            }
            while run >= 16 {
                self.symbol(w, ac, 0xF0);
                run -= 16;
            }
            let size = category(v);
            self.symbol(w, ac, ((run << 4) | size) as u8);
            w.put(magnitude(v, size), size);
            run = 0;
        }
        if run > 0 {
            self.symbol(w, ac, 0x00);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::huffman::COEFFICIENT_BITS;

    #[test]
    fn magnitudes_read_back() {
        for v in [-1024, -255, -3, -1, 1, 2, 7, 100, 1023] {
            let size = category(v);
            assert_eq!(extend(magnitude(v, size), size), v, "{v}");
        }
        assert_eq!(category(0), 0);
    }

    #[test]
    fn coded_blocks_read_back_as_they_were() {
        // Blocks with no AC, one at the last place, runs of 16 and more
        // zeros, and dense ones; coded with tables made for them, then
        // read back by the walk's own reading.
        let zigzag = &crate::dct::ZIGZAG;
        let mut blocks: Vec<Block> = vec![[0; 64]];
        let mut last: Block = [0; 64];
        last[zigzag[63]] = -3;
        blocks.push(last);
        for seed in 1..40i32 {
            let mut b: Block = [0; 64];
            b[0] = seed * 37 % 2000 - 1000;
            for k in 1..64 {
                if (k as i32 * seed) % (seed % 7 + 2) == 0 || k == 17 + seed as usize % 40 {
                    b[zigzag[k]] = (k as i32 * 13 + seed) % 1023 - 511;
                }
            }
            if seed % 5 == 0 {
                // Runs of zeros of 16 and more, up to the last place.
                for &natural in &zigzag[2..63] {
                    b[natural] = 0;
                }
                b[zigzag[63]] = seed;
            }
            blocks.push(b);
        }
        let all = vec![[1u32; 256]; 2];
        let tables: Vec<Table> = all
            .iter()
            .map(|c| Table::optimal(c).expect("a table"))
            .collect();
        let mut coder = Coder {
            tables: &tables,
            missing: vec![Vec::new(); 2],
            counts: vec![[0; 256]; 2],
        };
        let mut w = Writer::new(Vec::new());
        let mut pred = 0;
        for b in &blocks {
            coder.block(&mut w, b, pred, 0, 1);
            pred = b[0];
        }
        assert!(coder.missing.iter().all(Vec::is_empty));
        w.marker(crate::marker::EOI);
        let data = crate::bits::unstuff(&w.out, 0).expect("a scan");
        let mut r = Reader::new(&data, 0);
        let mut pred = 0;
        for (i, b) in blocks.iter().enumerate() {
            let mut read: Block = [0; 64];
            let diff = block(&mut r, &tables[0], &tables[1], Some(&mut read)).expect("a block");
            read[0] = pred + diff;
            pred = read[0];
            assert_eq!(&read, b, "block {i}");
        }
    }

    #[test]
    fn a_coefficient_looked_up_is_its_symbol_and_magnitude_read_apart() {
        // Every AC symbol (runs 0..=15, sizes 1..=10, EOB, ZRL), counts as
        // skewed as a photo's: short codes for small coefficients, codes
        // past the lookup for the rare ones.
        let mut counts = [0u32; 256];
        for run in 0..16u32 {
            for size in 1..=10u32 {
                let rarity = 2 * run + 2 * size;
                counts[((run << 4) | size) as usize] =
                    1 + (1u32 << 20).checked_shr(rarity).unwrap_or(0);
            }
        }
        (counts[0x00], counts[0xF0]) = (1 << 18, 50);
        let table = Table::optimal(&counts).expect("a table");
        let mut looked_up = 0;
        for prefix in 0..1u32 << COEFFICIENT_BITS {
            // Any bits after the looked-up ones: they must not matter.
            let peek =
                (prefix << (32 - COEFFICIENT_BITS)) | (prefix.wrapping_mul(0x9E37) & 0x1F_FFFF);
            let (rs, len) = table.decode(peek >> 16).expect("a full code space");
            let (run, size) = (usize::from(rs >> 4), u32::from(rs & 15));
            let apart = (size > 0 && size <= 10 && len + size <= COEFFICIENT_BITS)
                .then(|| (extend(bits_after(peek, len, size), size), run, len + size));
            assert_eq!(table.coefficient(peek), apart, "{prefix:#b}");
            looked_up += usize::from(apart.is_some());
        }
        // Most bit patterns start with a coefficient the lookup gives.
        assert!(looked_up > 1 << (COEFFICIENT_BITS - 1), "{looked_up}");
    }
}
