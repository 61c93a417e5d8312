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
fn extend(bits: u32, size: u32) -> i32 {
    if size == 0 {
        0
    } else if bits < 1 << (size - 1) {
        bits as i32 - (1 << size) + 1
    } else {
        bits as i32
    }
}

/// Reads one Huffman symbol.
#[inline]
fn symbol(r: &mut Reader<'_>, t: &Table) -> Result<u8, Unsupported> {
    let (s, len) = t.decode(r.peek16()).ok_or(Unsupported::Data)?;
    r.skip(len);
    Ok(s)
}

/// Reads one block; with `out`, its coefficients are stored (natural
/// order), else only skipped. Returns the DC difference.
#[inline]
fn block(
    r: &mut Reader<'_>,
    dc: &Table,
    ac: &Table,
    mut out: Option<&mut Block>,
) -> Result<i32, Unsupported> {
    let size = u32::from(symbol(r, dc)?);
    if size > 11 {
        return Err(Unsupported::Data);
    }
    let diff = extend(r.take(size), size);
    let mut k = 1;
    while k < 64 {
        let rs = symbol(r, ac)?;
        let (run, size) = (usize::from(rs >> 4), u32::from(rs & 15));
        if size == 0 {
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
        let bits = r.take(size);
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
    let layout = Layout::of(h);
    let count = layout.count();
    let tables = tables(h);
    let mut index = Index {
        start: Vec::with_capacity(count),
        end: Vec::with_capacity(count),
        pred: Vec::with_capacity(count),
    };
    let mut r = Reader { data, at: 0 };
    let mut pred = [0i32; 3];
    let mut interval = 0;
    for m in 0..count {
        if h.restart > 0 && m > 0 && m % h.restart == 0 {
            interval += 1;
            r.at = *data.intervals.get(interval).ok_or(Unsupported::Data)?;
            pred = [0; 3];
        }
        index.start.push(r.at);
        index.pred.push(pred);
        for (c, comp) in h.components.iter().enumerate() {
            for _ in 0..comp.h * comp.v {
                pred[c] += block(&mut r, tables[c].0, tables[c].1, None)?;
            }
        }
        // An MCU must end within its interval's data.
        if r.at > *data.intervals.get(interval + 1).ok_or(Unsupported::Data)? {
            return Err(Unsupported::Data);
        }
        index.end.push(r.at);
    }
    Ok(index)
}

/// The blocks of MCU `m`, each component's in order (rows of `h` blocks),
/// DC values absolute.
pub(crate) fn decode(
    h: &Headers,
    data: &Unstuffed,
    index: &Index,
    m: usize,
) -> Result<Vec<Block>, Unsupported> {
    let tables = tables(h);
    let mut r = Reader {
        data,
        at: index.start[m],
    };
    let mut pred = index.pred[m];
    let mut out = Vec::new();
    for (c, comp) in h.components.iter().enumerate() {
        for _ in 0..comp.h * comp.v {
            let mut b = [0; 64];
            pred[c] += block(&mut r, tables[c].0, tables[c].1, Some(&mut b))?;
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

    #[test]
    fn magnitudes_read_back() {
        for v in [-1024, -255, -3, -1, 1, 2, 7, 100, 1023] {
            let size = category(v);
            assert_eq!(extend(magnitude(v, size), size), v, "{v}");
        }
        assert_eq!(category(0), 0);
    }
}
