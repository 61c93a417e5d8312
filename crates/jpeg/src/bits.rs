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

/// Reads a scan's bits from a position.
pub(crate) struct Reader<'a> {
    pub data: &'a Unstuffed,
    pub at: u64,
}

impl Reader<'_> {
    /// The next 16 bits, not consumed.
    #[inline]
    pub fn peek16(&self) -> u32 {
        self.data.peek32(self.at) >> 16
    }

    /// Consumes `n` (0..=16) bits and returns them.
    #[inline]
    pub fn take(&mut self, n: u32) -> u32 {
        if n == 0 {
            return 0;
        }
        let v = self.data.peek32(self.at) >> (32 - n);
        self.at += u64::from(n);
        v
    }

    pub fn skip(&mut self, n: u32) {
        self.at += u64::from(n);
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
    pub fn copy(&mut self, data: &Unstuffed, mut from: u64, to: u64) {
        while from + 32 <= to {
            self.put(data.peek32(from), 32);
            from += 32;
        }
        let rest = (to - from) as u32;
        if rest > 0 {
            self.put(data.peek32(from) >> (32 - rest), rest);
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
