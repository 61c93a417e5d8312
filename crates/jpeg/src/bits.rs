//! The scan's bits: read with byte stuffing and restart markers taken out,
//! written with stuffing put back.

use crate::marker::{RST0, RST7};
use crate::Unsupported;

/// The entropy-coded data of a scan without its stuffing: one run of bits
/// per restart interval, each starting on a byte.
#[derive(Clone)]
pub(crate) struct Unstuffed {
    /// The data, then zero bytes so reads near the end need no checks.
    pub bytes: Vec<u8>,
    /// Bit where each restart interval starts, and where the last ends.
    pub intervals: Vec<u64>,
    /// Where the marker after the scan starts in the file.
    pub end: usize,
}

/// Zero bytes after the data: a read of 8 bytes at any bit before the end
/// stays in the buffer.
const TAIL: usize = 8;

/// Takes the scan starting at `data` out of `jpeg`, up to the first marker
/// that is not a restart.
pub(crate) fn unstuff(jpeg: &[u8], data: usize) -> Result<Unstuffed, Unsupported> {
    let scan = jpeg
        .get(data..)
        .ok_or(Unsupported::Format("no scan data"))?;
    let mut bytes = Vec::with_capacity(scan.len() + TAIL);
    let mut intervals = vec![0u64];
    let mut at = 0;
    let end = loop {
        // Copy up to the next 0xFF at once: most of the data has none.
        let next = scan[at..].iter().position(|&b| b == 0xFF);
        let Some(run) = next else {
            return Err(Unsupported::Format("the scan has no end"));
        };
        bytes.extend_from_slice(&scan[at..at + run]);
        at += run;
        match scan.get(at + 1) {
            Some(0x00) => {
                bytes.push(0xFF);
                at += 2;
            }
            // Fill bytes before a marker.
            Some(0xFF) => at += 1,
            Some(&m) if (RST0..=RST7).contains(&m) => {
                intervals.push(8 * bytes.len() as u64);
                at += 2;
            }
            Some(_) => break data + at,
            None => return Err(Unsupported::Format("the scan has no end")),
        }
    };
    intervals.push(8 * bytes.len() as u64);
    bytes.resize(bytes.len() + TAIL, 0);
    Ok(Unstuffed {
        bytes,
        intervals,
        end,
    })
}

impl Unstuffed {
    /// The 32 bits from bit `at`, most significant first (zeros past the end).
    #[inline]
    pub fn peek32(&self, at: u64) -> u32 {
        let byte = (at >> 3) as usize;
        let word = match self.bytes.get(byte..byte + 8) {
            Some(b) => u64::from_be_bytes(b.try_into().unwrap_or([0; 8])),
            None => 0,
        };
        ((word << (at & 7)) >> 32) as u32
    }
}

/// Reads a scan's bits from a position, through a 64-bit buffer refilled
/// a few bytes at a time: a symbol's bits are then a shift of a register,
/// not a load from memory (the walk of a photo's scan reads millions).
pub(crate) struct Reader<'a> {
    data: &'a Unstuffed,
    /// The next bits, most significant first: `n` of them, and past those
    /// either zeros or the bits that follow them.
    acc: u64,
    n: u32,
    /// The byte of `data` the buffer is refilled from next.
    next: usize,
}

impl<'a> Reader<'a> {
    /// A reader of `data` from bit `at`.
    pub fn new(data: &'a Unstuffed, at: u64) -> Reader<'a> {
        let mut r = Reader {
            data,
            acc: 0,
            n: 0,
            next: 0,
        };
        r.seek(at);
        r
    }

    /// The data read.
    pub fn data(&self) -> &'a Unstuffed {
        self.data
    }

    /// Moves to bit `at`.
    pub fn seek(&mut self, at: u64) {
        (self.acc, self.n, self.next) = (0, 0, (at / 8) as usize);
        self.refill();
        self.skip((at % 8) as u32);
    }

    /// The bit the next read starts at.
    #[inline]
    pub fn at(&self) -> u64 {
        8 * self.next as u64 - u64::from(self.n)
    }

    /// Tops the buffer up to 56 bits or more, whole bytes at a time (zeros
    /// past the end of the data).
    #[inline]
    fn refill(&mut self) {
        let word = match self.data.bytes.get(self.next..self.next + 8) {
            Some(b) => u64::from_be_bytes(b.try_into().unwrap_or([0; 8])),
            None => 0,
        };
        self.acc |= word >> self.n;
        let bytes = (63 - self.n) / 8;
        self.next += bytes as usize;
        self.n += 8 * bytes;
    }

    /// The next 32 bits, not consumed.
    #[inline]
    pub fn peek32(&mut self) -> u32 {
        if self.n < 32 {
            self.refill();
        }
        (self.acc >> 32) as u32
    }

    /// Consumes `n` bits: at most 32 after a [`Reader::peek32`].
    #[inline]
    pub fn skip(&mut self, n: u32) {
        self.acc <<= n;
        self.n -= n;
    }
}

/// Writes entropy-coded bits, stuffing a zero after every 0xFF byte.
pub(crate) struct Writer {
    pub out: Vec<u8>,
    acc: u64,
    bits: u32,
}

impl Writer {
    pub fn new(out: Vec<u8>) -> Writer {
        Writer {
            out,
            acc: 0,
            bits: 0,
        }
    }

    /// Appends the low `n` (0..=32) bits of `value`.
    #[inline]
    pub fn put(&mut self, value: u32, n: u32) {
        if n == 0 {
            return;
        }
        let mask = if n == 32 { u32::MAX } else { (1 << n) - 1 };
        self.acc = (self.acc << n) | u64::from(value & mask);
        self.bits += n;
        while self.bits >= 8 {
            self.bits -= 8;
            let byte = (self.acc >> self.bits) as u8;
            self.out.push(byte);
            if byte == 0xFF {
                self.out.push(0);
            }
        }
    }

    /// Appends the bits `from..to` of `data`.
    ///
    /// Most of an answer's scan is copied this way, megabytes of it, so
    /// whole bytes of `data` go eight at a time: each output byte is the
    /// pending bits followed by the start of a data byte, and a word
    /// holding no 0xFF byte (nearly every one) needs no stuffing.
    pub fn copy(&mut self, data: &Unstuffed, mut from: u64, to: u64) {
        // Up to the next byte of the data, bit by bit.
        let head = ((8 - from % 8) % 8).min(to - from) as u32;
        if head > 0 {
            self.put(data.peek32(from) >> (32 - head), head);
            from += u64::from(head);
        }
        let whole = ((to - from) / 8) as usize;
        let first = (from / 8) as usize;
        // `bits` (0..8) pending bits lead every byte written.
        let s = self.bits;
        let pending = self.acc & ((1u64 << s) - 1);
        let mut carry = pending;
        let words = data.bytes[first..first + whole].chunks_exact(8);
        let rest = words.remainder();
        for word in words {
            let w = u64::from_be_bytes(word.try_into().unwrap_or([0; 8]));
            let out = if s == 0 {
                w
            } else {
                (carry << (64 - s)) | (w >> s)
            };
            carry = w & ((1u64 << s) - 1);
            let bytes = out.to_be_bytes();
            if has_ff(out) {
                for b in bytes {
                    self.out.push(b);
                    if b == 0xFF {
                        self.out.push(0);
                    }
                }
            } else {
                self.out.extend_from_slice(&bytes);
            }
        }
        self.acc = carry;
        for &b in rest {
            self.put(u32::from(b), 8);
        }
        from += 8 * whole as u64;
        let tail = (to - from) as u32;
        if tail > 0 {
            self.put(data.peek32(from) >> (32 - tail), tail);
        }
    }

    /// Fills the last byte with one bits, as the standard pads.
    pub fn pad(&mut self) {
        let fill = (8 - self.bits % 8) % 8;
        self.put((1 << fill) - 1, fill);
    }

    /// Pads, then writes the marker 0xFF `marker`.
    pub fn marker(&mut self, marker: u8) {
        self.pad();
        self.out.extend_from_slice(&[0xFF, marker]);
    }
}

/// Whether any byte of `w` is 0xFF: its complement has a zero byte.
#[inline]
fn has_ff(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let z = !w;
    (z.wrapping_sub(ONES) & !z & HIGHS) != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stuffing_and_restarts_come_out_and_go_back() {
        // Data 12 FF(00) 34 | RST0 | 56, then EOI.
        let jpeg = [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56, 0xFF, 0xD9];
        let u = unstuff(&jpeg, 0).expect("a scan");
        assert_eq!(&u.bytes[..4], &[0x12, 0xFF, 0x34, 0x56]);
        assert_eq!(u.intervals, vec![0, 24, 32]);
        assert_eq!(u.end, 7);
        let mut w = Writer::new(Vec::new());
        w.copy(&u, 0, 24);
        w.marker(0xD0);
        w.copy(&u, 24, 32);
        w.marker(0xD9);
        assert_eq!(w.out, jpeg);
    }

    #[test]
    fn a_long_copy_writes_what_bit_by_bit_puts_write() {
        // Data with 0xFF bytes (stuffed in the file) here and there, copied
        // from every start bit within a byte to every end, after 0-7
        // pending bits: the same bytes as putting each bit.
        let data: Vec<u8> = (0..64u32)
            .map(|i| {
                if i % 9 == 4 {
                    0xFF
                } else {
                    (i * 37 + 11) as u8
                }
            })
            .collect();
        let mut jpeg = Vec::new();
        for &b in &data {
            jpeg.push(b);
            if b == 0xFF {
                jpeg.push(0);
            }
        }
        jpeg.extend_from_slice(&[0xFF, 0xD9]);
        let u = unstuff(&jpeg, 0).expect("a scan");
        let bit = |i: u64| u32::from(data[(i / 8) as usize] >> (7 - i % 8)) & 1;
        for pending in 0..8u32 {
            for from in 0..16u64 {
                for to in [from, from + 5, from + 64, from + 200, 8 * data.len() as u64] {
                    let (mut fast, mut slow) = (Writer::new(Vec::new()), Writer::new(Vec::new()));
                    for w in [&mut fast, &mut slow] {
                        w.put(0b101_0101, pending);
                    }
                    fast.copy(&u, from, to);
                    for i in from..to {
                        slow.put(bit(i), 1);
                    }
                    fast.pad();
                    slow.pad();
                    assert_eq!(fast.out, slow.out, "pending {pending}, bits {from}..{to}");
                }
            }
        }
    }

    #[test]
    fn bits_copy_from_any_position() {
        let jpeg = [0b1011_0011, 0b0101_1100, 0b1110_0001, 0xFF, 0xD9];
        let u = unstuff(&jpeg, 0).expect("a scan");
        let mut w = Writer::new(Vec::new());
        w.put(0b1, 1);
        w.copy(&u, 3, 24);
        w.pad();
        // 1, then bits 3.. of the data: 1 0011 0101 1100 1110 0001, padded.
        assert_eq!(w.out, vec![0b1100_1101, 0b0111_0011, 0b1000_0111]);
    }
}
