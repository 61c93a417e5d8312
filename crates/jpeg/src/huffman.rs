//! Huffman tables as JPEG defines them (counts of codes per length, then
//! the symbols in code order), decoded by lookup and extended with
//! symbols a new block needs.

/// Bits looked up at once: most codes of a photo's tables are this short.
const FAST_BITS: u32 = 9;

/// One table: its definition, the canonical codes it gives, and a lookup.
#[derive(Debug, Clone)]
pub(crate) struct Table {
    /// Codes of each length 1..=16.
    pub counts: [u8; 16],
    /// Symbols in code order.
    pub values: Vec<u8>,
    /// Code and length of each symbol (length 0: not in the table).
    codes: [(u16, u8); 256],
    /// Per length: the largest code of that length (-1 when none) and the
    /// index in `values` of its first code, minus that code.
    max_code: [i32; 17],
    offset: [i32; 17],
    /// For the next `FAST_BITS` bits: the symbol and its code length (0:
    /// longer than `FAST_BITS`).
    fast: Vec<(u8, u8)>,
    /// For the next [`COEFFICIENT_BITS`] bits: a coefficient's symbol and
    /// magnitude bits read at once (see [`Table::coefficient`]).
    coefficients: Vec<i32>,
}

/// Bits [`Table::coefficient`] looks up: an AC symbol's code and the
/// magnitude bits after it. A photo's coefficients are mostly small, with
/// short codes, so that most fit in this many bits.
pub(crate) const COEFFICIENT_BITS: u32 = 11;

/// A coefficient's magnitude has at most this many bits in a baseline
/// scan (an AC symbol's size), which [`Table::coefficient`] checks for.
const MAX_AC_SIZE: u32 = 10;

impl Table {
    /// The table `counts` and `values` define; `None` when the counts
    /// overflow the code space or do not match the symbols.
    pub fn new(counts: [u8; 16], values: Vec<u8>) -> Option<Table> {
        let total: usize = counts.iter().map(|&c| usize::from(c)).sum();
        if total != values.len() || total > 256 {
            return None;
        }
        let mut codes = [(0u16, 0u8); 256];
        let mut max_code = [-1i32; 17];
        let mut offset = [0i32; 17];
        let mut fast = vec![(0u8, 0u8); 1 << FAST_BITS];
        let (mut code, mut k) = (0u32, 0usize);
        for len in 1..=16u32 {
            let n = u32::from(counts[len as usize - 1]);
            offset[len as usize] = k as i32 - code as i32;
            for _ in 0..n {
                // Codes of a length must fit it.
                if code >= 1 << len {
                    return None;
                }
                let symbol = values[k];
                if codes[usize::from(symbol)].1 != 0 {
                    return None;
                }
                codes[usize::from(symbol)] = (code as u16, len as u8);
                if len <= FAST_BITS {
                    let shift = FAST_BITS - len;
                    for fill in 0..(1u32 << shift) {
                        fast[((code << shift) | fill) as usize] = (symbol, len as u8);
                    }
                }
                code += 1;
                k += 1;
            }
            max_code[len as usize] = if n > 0 { code as i32 - 1 } else { -1 };
            code <<= 1;
        }
        let mut table = Table {
            counts,
            values,
            codes,
            max_code,
            offset,
            fast,
            coefficients: Vec::new(),
        };
        table.coefficients = (0..1u32 << COEFFICIENT_BITS)
            .map(|bits| table.coefficient_of(bits))
            .collect();
        Some(table)
    }

    /// The entry of [`Table::coefficient`] for the bits `bits` (the next
    /// [`COEFFICIENT_BITS`]): 0 unless they start with a symbol of a
    /// coefficient (size 1..=[`MAX_AC_SIZE`]) whose code and magnitude
    /// bits fit in them; else the coefficient's value (bits 16..32), its
    /// run of zeros before it (bits 8..16) and the bits they take.
    fn coefficient_of(&self, bits: u32) -> i32 {
        let peek = bits << (16 - COEFFICIENT_BITS);
        let Some((rs, len)) = self.decode(peek) else {
            return 0;
        };
        let (run, size) = (u32::from(rs >> 4), u32::from(rs & 15));
        if size == 0 || size > MAX_AC_SIZE || len + size > COEFFICIENT_BITS {
            return 0;
        }
        let magnitude = (bits >> (COEFFICIENT_BITS - len - size)) & ((1 << size) - 1);
        let value = crate::scan::extend(magnitude, size);
        (value << 16) | (run << 8) as i32 | (len + size) as i32
    }

    /// The AC coefficient starting the 32 bits `peek` (most significant
    /// first) when its symbol's code and magnitude bits are within the
    /// first [`COEFFICIENT_BITS`]: its value, the run of zeros before it,
    /// and the bits it takes. One lookup where [`Table::decode`] and the
    /// magnitude bits after it take two steps; `None` for any other
    /// symbol, which is then decoded so.
    #[inline]
    pub fn coefficient(&self, peek: u32) -> Option<(i32, usize, u32)> {
        let entry = self.coefficients[(peek >> (32 - COEFFICIENT_BITS)) as usize];
        (entry != 0).then_some((
            entry >> 16,
            ((entry >> 8) & 0xFF) as usize,
            (entry & 0xFF) as u32,
        ))
    }

    /// The code and length of `symbol`, `None` when the table has none.
    pub fn code(&self, symbol: u8) -> Option<(u16, u8)> {
        let (code, len) = self.codes[usize::from(symbol)];
        (len > 0).then_some((code, len))
    }

    /// The symbol whose code starts the 16 bits `peek` (most significant
    /// first), and the code's length; `None` for no code.
    #[inline]
    pub fn decode(&self, peek: u32) -> Option<(u8, u32)> {
        let (symbol, len) = self.fast[(peek >> (16 - FAST_BITS)) as usize];
        if len > 0 {
            return Some((symbol, u32::from(len)));
        }
        for len in FAST_BITS + 1..=16 {
            let code = (peek >> (16 - len)) as i32;
            if code <= self.max_code[len as usize] {
                let k = (code + self.offset[len as usize]) as usize;
                return Some((*self.values.get(k)?, len));
            }
        }
        None
    }

    /// This table with `missing` symbols added as 16-bit codes after every
    /// code it has, so that every code it had keeps its bits (data coded
    /// with it decodes the same); `None` when the code space has no room.
    pub fn extended(&self, missing: &[u8]) -> Option<Table> {
        let mut counts = self.counts;
        let added = u8::try_from(missing.len()).ok()?;
        counts[15] = counts[15].checked_add(added)?;
        let mut values = self.values.clone();
        values.extend_from_slice(missing);
        // `new` refuses codes past the code space; the 16-bit all-ones
        // code must stay free too (a decoder may take it for fill bits).
        let table = Table::new(counts, values)?;
        let all_ones = missing
            .iter()
            .any(|&s| table.code(s) == Some((u16::MAX, 16)));
        (!all_ones).then_some(table)
    }

    /// The table that codes symbols seen `counts` times in the fewest bits,
    /// no code longer than 16 bits and the all-ones code left free (the
    /// standard's annex K.2, as libjpeg builds its optimised tables).
    pub fn optimal(counts: &[u32; 256]) -> Option<Table> {
        /// A symbol no data uses, counted once: its code is the all-ones
        /// one, dropped at the end so that code stays free.
        const RESERVED: usize = 256;
        let mut freq: Vec<u64> = counts.iter().map(|&c| u64::from(c)).collect();
        freq.push(1);
        let mut size = [0usize; 257];
        let mut next = [usize::MAX; 257];
        loop {
            // The two least frequent trees (ties: the larger symbol first).
            let mut least = (u64::MAX, usize::MAX);
            let mut second = (u64::MAX, usize::MAX);
            for (s, &f) in freq.iter().enumerate() {
                if f == 0 {
                    continue;
                }
                if f <= least.0 {
                    second = least;
                    least = (f, s);
                } else if f <= second.0 {
                    second = (f, s);
                }
            }
            let (c1, c2) = (least.1, second.1);
            if c2 == usize::MAX {
                break;
            }
            freq[c1] += freq[c2];
            freq[c2] = 0;
            let mut c = c1;
            size[c] += 1;
            while next[c] != usize::MAX {
                c = next[c];
                size[c] += 1;
            }
            next[c] = c2;
            let mut c = c2;
            size[c] += 1;
            while next[c] != usize::MAX {
                c = next[c];
                size[c] += 1;
            }
        }
        let mut bits = [0u32; 33];
        for &s in &size {
            if s > 32 {
                return None;
            }
            if s > 0 {
                bits[s] += 1;
            }
        }
        // Codes longer than 16 bits: move pairs up, as the standard does.
        for i in (17..=32).rev() {
            while bits[i] > 0 {
                let mut j = i - 2;
                while bits[j] == 0 {
                    j -= 1;
                }
                bits[i] -= 2;
                bits[i - 1] += 1;
                bits[j + 1] += 2;
                bits[j] -= 1;
            }
        }
        // The reserved symbol has the longest code: drop it.
        let mut i = 16;
        while bits[i] == 0 {
            i -= 1;
        }
        bits[i] -= 1;
        let mut values = Vec::new();
        for len in 1..=32 {
            values.extend((0..RESERVED).filter(|&s| size[s] == len).map(|s| s as u8));
        }
        let lengths: [u8; 16] = std::array::from_fn(|k| bits[k + 1] as u8);
        Table::new(lengths, values)
    }

    /// The table as a DHT segment writes it: counts then symbols.
    pub fn definition(&self) -> Vec<u8> {
        let mut out = self.counts.to_vec();
        out.extend_from_slice(&self.values);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The luminance DC table of the standard's annex K.
    fn standard_dc() -> Table {
        let counts = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0];
        Table::new(counts, (0..12).collect()).expect("the standard table is valid")
    }

    #[test]
    fn codes_decode_to_their_symbols() {
        let t = standard_dc();
        for s in 0..12u8 {
            let (code, len) = t.code(s).expect("every symbol has a code");
            let peek = u32::from(code) << (16 - u32::from(len));
            assert_eq!(t.decode(peek), Some((s, u32::from(len))));
        }
        assert_eq!(t.code(12), None);
    }

    #[test]
    fn an_extended_table_keeps_every_old_code() {
        let t = standard_dc();
        let wider = t.extended(&[12, 13]).expect("room at 16 bits");
        for s in 0..12u8 {
            assert_eq!(wider.code(s), t.code(s));
        }
        assert_eq!(wider.code(12).map(|c| c.1), Some(16));
        assert_eq!(wider.code(13).map(|c| c.1), Some(16));
        let (code, _) = wider.code(13).expect("added");
        assert_eq!(wider.decode(u32::from(code)), Some((13, 16)));
    }

    #[test]
    fn an_optimal_table_codes_every_symbol_seen_within_16_bits() {
        // Counts as skewed as a photo's: the rare symbols need long codes.
        let mut counts = [0u32; 256];
        for (s, count) in counts.iter_mut().take(200).enumerate() {
            *count = 1 + (1u32 << (s % 28)) / 7;
        }
        let t = Table::optimal(&counts).expect("a table");
        for s in 0..200u8 {
            let (_, len) = t.code(s).expect("seen symbols have codes");
            assert!((1..=16).contains(&len));
        }
        assert_eq!(t.code(200), None);
        // Kraft: the codes leave room, at least the all-ones code.
        let room: u64 = (0..200u8)
            .map(|s| 1u64 << (16 - t.code(s).map_or(16, |c| c.1)))
            .sum();
        assert!(room < 1 << 16);
        let one = Table::optimal(&{
            let mut c = [0u32; 256];
            c[7] = 5;
            c
        })
        .expect("one symbol");
        assert_eq!(one.code(7), Some((0, 1)));
    }

    #[test]
    fn a_full_code_space_takes_no_symbol() {
        // One code of each length 1..=15 and one of 16 leave only 1111..1.
        let mut counts = [1u8; 16];
        counts[15] = 1;
        let full = Table::new(counts, (0..16).collect()).expect("valid");
        assert!(full.extended(&[100]).is_none());
    }
}
