//! The segments of a JPEG before its scan: the frame, its tables, the
//! restart interval and the one scan's header, with where each lies.

use crate::huffman::Table;
use crate::marker::{APP1, APP14, DHT, DQT, DRI, EOI, OTHER_SOF, SOF0, SOF1, SOI, SOS};
use crate::Unsupported;

/// One colour component of the frame, with the tables its scan uses.
#[derive(Debug, Clone)]
pub(crate) struct Component {
    /// Horizontal and vertical sampling factors (blocks per MCU).
    pub h: usize,
    pub v: usize,
    /// Quantisation table, natural (row-major) order.
    pub quant: [u16; 64],
    /// Huffman tables of its DC and AC coefficients (indexes into
    /// [`Headers::tables`]).
    pub dc: usize,
    pub ac: usize,
}

/// A Huffman table as defined in a DHT segment, and where.
#[derive(Debug, Clone)]
pub(crate) struct Defined {
    /// 0 for DC, 1 for AC.
    pub class: u8,
    pub id: u8,
    pub table: Table,
    /// Index of the DHT segment it was defined in (see [`Headers::segments`]).
    pub segment: usize,
}

/// What the bytes before the scan say, and where the scan's data lies.
#[derive(Debug, Clone)]
pub(crate) struct Headers {
    pub width: usize,
    pub height: usize,
    /// In the scan's order (which this crate requires to be the frame's).
    pub components: Vec<Component>,
    /// Every Huffman table defined before the scan, in order; the scan uses
    /// the last definition of each class and id.
    pub tables: Vec<Defined>,
    /// MCUs between restart markers (0: none).
    pub restart: usize,
    /// Byte ranges of the segments from after SOI up to the scan's data,
    /// each with its marker.
    pub segments: Vec<(u8, std::ops::Range<usize>)>,
    /// Where the scan's entropy-coded data starts.
    pub data: usize,
    /// Where the EXIF orientation tag's value lies, when there is one.
    pub orientation_at: Option<(usize, bool)>,
}

fn be16(b: &[u8], at: usize) -> Option<usize> {
    Some(usize::from(u16::from_be_bytes([
        *b.get(at)?,
        *b.get(at + 1)?,
    ])))
}

/// Reads the segments of `jpeg` up to its scan.
pub(crate) fn read(jpeg: &[u8]) -> Result<Headers, Unsupported> {
    if jpeg.get(..2) != Some(&[0xFF, SOI]) {
        return Err(Unsupported::Format("not a JPEG"));
    }
    let mut quant: [Option<[u16; 64]>; 4] = [None; 4];
    let mut tables: Vec<Defined> = Vec::new();
    let mut frame: Option<Frame> = None;
    let mut restart = 0;
    let mut segments = Vec::new();
    let mut orientation_at = None;
    let mut adobe_rgb = false;
    let mut at = 2;
    loop {
        // Fill bytes (0xFF runs) may precede a marker.
        while jpeg.get(at) == Some(&0xFF) && jpeg.get(at + 1) == Some(&0xFF) {
            at += 1;
        }
        if jpeg.get(at) != Some(&0xFF) {
            return Err(Unsupported::Format(
                "a segment does not start with a marker",
            ));
        }
        let marker = *jpeg.get(at + 1).ok_or(Unsupported::Format("cut off"))?;
        if marker == EOI {
            return Err(Unsupported::Format("no scan"));
        }
        let len = be16(jpeg, at + 2).ok_or(Unsupported::Format("cut off"))?;
        let body = jpeg
            .get(at + 4..at + 2 + len)
            .filter(|_| len >= 2)
            .ok_or(Unsupported::Format("a segment runs past the end"))?;
        let range = at..at + 2 + len;
        match marker {
            DQT => read_dqt(body, &mut quant)?,
            DHT => read_dht(body, segments.len(), &mut tables)?,
            DRI => restart = be16(body, 0).ok_or(Unsupported::Format("short DRI"))?,
            SOF0 | SOF1 => frame = Some(read_sof(body)?),
            m if OTHER_SOF.contains(&m) => return Err(Unsupported::Coding),
            APP1 => orientation_at = orientation_at.or(exif_orientation(body, at + 4)),
            // Adobe's segment says whether the three components are YCbCr
            // (transform 1) or RGB as stored (0).
            APP14 if body.starts_with(b"Adobe") && body.len() >= 12 => adobe_rgb = body[11] == 0,
            _ => {}
        }
        segments.push((marker, range.clone()));
        at = range.end;
        if marker == SOS {
            let (width, height, comps) = frame.ok_or(Unsupported::Format("scan before frame"))?;
            if adobe_rgb {
                return Err(Unsupported::Colour);
            }
            let components = read_sos(body, &comps, &quant, &tables)?;
            return Ok(Headers {
                width,
                height,
                components,
                tables,
                restart,
                segments,
                data: at,
                orientation_at,
            });
        }
    }
}

/// Stores the quantisation tables of one DQT segment in natural order.
fn read_dqt(mut body: &[u8], quant: &mut [Option<[u16; 64]>; 4]) -> Result<(), Unsupported> {
    while let Some((&pq_tq, rest)) = body.split_first() {
        let (precision, id) = (pq_tq >> 4, usize::from(pq_tq & 15));
        let size = if precision == 0 { 64 } else { 128 };
        let values = rest.get(..size).ok_or(Unsupported::Format("short DQT"))?;
        let slot = quant.get_mut(id).ok_or(Unsupported::Format("DQT id"))?;
        let mut table = [0u16; 64];
        for (k, &natural) in crate::dct::ZIGZAG.iter().enumerate() {
            table[natural] = if precision == 0 {
                u16::from(values[k])
            } else {
                u16::from_be_bytes([values[2 * k], values[2 * k + 1]])
            };
        }
        if table.contains(&0) {
            return Err(Unsupported::Format("a zero quantiser"));
        }
        *slot = Some(table);
        body = &rest[size..];
    }
    Ok(())
}

/// Adds the Huffman tables of one DHT segment.
fn read_dht(mut body: &[u8], segment: usize, tables: &mut Vec<Defined>) -> Result<(), Unsupported> {
    while let Some((&tc_th, rest)) = body.split_first() {
        let (class, id) = (tc_th >> 4, tc_th & 15);
        if class > 1 || id > 3 {
            return Err(Unsupported::Format("DHT class or id"));
        }
        let counts: [u8; 16] = rest
            .get(..16)
            .and_then(|c| c.try_into().ok())
            .ok_or(Unsupported::Format("short DHT"))?;
        let n: usize = counts.iter().map(|&c| usize::from(c)).sum();
        let values = rest
            .get(16..16 + n)
            .ok_or(Unsupported::Format("short DHT"))?;
        let table = Table::new(counts, values.to_vec()).ok_or(Unsupported::Format("bad DHT"))?;
        tables.push(Defined {
            class,
            id,
            table,
            segment,
        });
        body = &rest[16 + n..];
    }
    Ok(())
}

/// Width, height and per component (id, h, v, quantisation table id).
type Frame = (usize, usize, Vec<(u8, usize, usize, usize)>);

/// The frame a SOF segment describes.
fn read_sof(body: &[u8]) -> Result<Frame, Unsupported> {
    if body.first() != Some(&8) {
        return Err(Unsupported::Coding);
    }
    let height = be16(body, 1).ok_or(Unsupported::Format("short SOF"))?;
    let width = be16(body, 3).ok_or(Unsupported::Format("short SOF"))?;
    let n = usize::from(*body.get(5).ok_or(Unsupported::Format("short SOF"))?);
    // Colour answers need the three components of a YCbCr photo; a gray
    // photo or a CMYK one is answered by encoding the drawn image whole.
    if n != 3 {
        return Err(Unsupported::Colour);
    }
    if width == 0 || height == 0 {
        return Err(Unsupported::Format("zero size"));
    }
    let mut comps = Vec::with_capacity(n);
    for k in 0..n {
        let c = body
            .get(6 + 3 * k..9 + 3 * k)
            .ok_or(Unsupported::Format("short SOF"))?;
        let (h, v) = (usize::from(c[1] >> 4), usize::from(c[1] & 15));
        // Sampling 1 or 2 each way covers what cameras and editors write.
        if !(1..=2).contains(&h) || !(1..=2).contains(&v) || c[2] > 3 {
            return Err(Unsupported::Sampling);
        }
        comps.push((c[0], h, v, usize::from(c[2])));
    }
    Ok((width, height, comps))
}

/// The scan's components with their tables; the scan must hold every
/// component, in the frame's order, with the whole spectrum (sequential).
fn read_sos(
    body: &[u8],
    comps: &[(u8, usize, usize, usize)],
    quant: &[Option<[u16; 64]>; 4],
    tables: &[Defined],
) -> Result<Vec<Component>, Unsupported> {
    let n = usize::from(*body.first().ok_or(Unsupported::Format("short SOS"))?);
    if n != comps.len() {
        return Err(Unsupported::Coding);
    }
    let spectral = body
        .get(1 + 2 * n..4 + 2 * n)
        .ok_or(Unsupported::Format("short SOS"))?;
    if spectral != [0, 63, 0] {
        return Err(Unsupported::Coding);
    }
    let last = |class: u8, id: u8| tables.iter().rposition(|t| t.class == class && t.id == id);
    let mut out = Vec::with_capacity(n);
    for (k, &(id, h, v, tq)) in comps.iter().enumerate() {
        let (cs, td_ta) = (body[1 + 2 * k], body[2 + 2 * k]);
        if cs != id {
            return Err(Unsupported::Coding);
        }
        let quant = quant[tq].ok_or(Unsupported::Format("missing DQT"))?;
        let dc = last(0, td_ta >> 4).ok_or(Unsupported::Format("missing DHT"))?;
        let ac = last(1, td_ta & 15).ok_or(Unsupported::Format("missing DHT"))?;
        out.push(Component {
            h,
            v,
            quant,
            dc,
            ac,
        });
    }
    Ok(out)
}

/// Where the orientation tag's 16-bit value lies in an APP1 segment whose
/// body starts at `offset` in the file, and whether it is little-endian.
fn exif_orientation(body: &[u8], offset: usize) -> Option<(usize, bool)> {
    let tiff = body.strip_prefix(b"Exif\0\0")?;
    let base = offset + 6;
    let little = match tiff.get(..2)? {
        b"II" => true,
        b"MM" => false,
        _ => return None,
    };
    let u16_at = |at: usize| {
        let b = [*tiff.get(at)?, *tiff.get(at + 1)?];
        Some(usize::from(if little {
            u16::from_le_bytes(b)
        } else {
            u16::from_be_bytes(b)
        }))
    };
    let u32_at = |at: usize| {
        let b: [u8; 4] = tiff.get(at..at + 4)?.try_into().ok()?;
        Some(if little {
            u32::from_le_bytes(b)
        } else {
            u32::from_be_bytes(b)
        } as usize)
    };
    let ifd = u32_at(4)?;
    let entries = u16_at(ifd)?;
    /// EXIF's orientation tag, of type SHORT.
    const ORIENTATION: usize = 0x0112;
    const SHORT: usize = 3;
    (0..entries).find_map(|k| {
        let entry = ifd + 2 + 12 * k;
        (u16_at(entry)? == ORIENTATION && u16_at(entry + 2)? == SHORT)
            .then_some((base + entry + 8, little))
    })
}
