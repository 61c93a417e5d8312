//! The bounds of one run, each a named constant with its reason, and the
//! error beyond it. They live where they are enforced:
//!
//! - [`snap_solver::MAX_LINE_BYTES`] (64 KiB): the longest text line read;
//!   a longer line is an `invalid:` line and is never kept whole.
//! - [`snap_vision::MAX_FILE_BYTES`] (272 MiB): the largest photo
//!   file read, checked before reading.
//! - [`snap_vision::MAX_PIXELS`] (2^26, about 67 MP): the most
//!   pixels decoded, checked from the header before any pixel buffer.
//! - [`MAX_JOBS`] (64): the most worker threads.
//! - [`snap_vision::DPI_RANGE`] (18-1200 dpi): the PDF render
//!   resolutions accepted (`--dpi`), and
//!   [`snap_vision::MAX_RENDER_PIXELS`] (40 MP): the largest page
//!   render (an oversized page is rendered at a lower resolution).
//!
//! Text input has no size bound: it is streamed, so its length costs time,
//! not memory.

/// Most worker threads (`--jobs`). More threads than cores only add memory
/// (each photo worker holds one photo's buffers) and switching; 64 is above
/// the core count of common machines, and `--jobs 100000` is refused at
/// once instead of starting that many threads.
pub const MAX_JOBS: usize = 64;

/// Parses `--jobs`: a whole number from 1 to [`MAX_JOBS`].
pub fn parse_jobs(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n @ 1..=MAX_JOBS) => Ok(n),
        _ => Err(format!(
            "{text:?}: threads must be a number from 1 to {MAX_JOBS}"
        )),
    }
}

/// Parses `--dpi`: a resolution within [`snap_vision::DPI_RANGE`].
pub fn parse_dpi(text: &str) -> Result<f32, String> {
    let range = snap_vision::DPI_RANGE;
    match text.trim().parse::<f32>() {
        Ok(dpi) if range.contains(&dpi) => Ok(dpi),
        _ => Err(format!(
            "{text:?}: the resolution must be a number from {} to {} (dpi)",
            range.start(),
            range.end()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dpi_is_bounded() {
        assert_eq!(parse_dpi("150"), Ok(150.0));
        for bad in ["0", "17", "5000", "NaN", "fine"] {
            assert!(
                parse_dpi(bad).unwrap_err().contains("from 18 to 1200"),
                "{bad}"
            );
        }
    }

    #[test]
    fn jobs_are_bounded() {
        assert_eq!(parse_jobs("4"), Ok(4));
        assert_eq!(parse_jobs("64"), Ok(MAX_JOBS));
        for bad in ["0", "65", "100000", "-1", "many"] {
            let err = parse_jobs(bad).unwrap_err();
            assert!(err.contains("from 1 to 64"), "{err}");
        }
    }
}
