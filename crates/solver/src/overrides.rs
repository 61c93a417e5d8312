//! Cell corrections typed by hand (`--set r3c4=7`, `--set r5c1=.`): parsed
//! here, beside the board they apply to, so that the command line and the
//! fuzzer share one parser.

use crate::shape::Shape;

/// Parses the `--set` values for a classic 9x9 grid: `rRcC=D` sets a digit
/// (1-9), `rRcC=.` (or `0`, `_`) empties a cell; rows and columns are 1-9,
/// case and surrounding spaces are ignored. Returns `(cell index, value)`
/// pairs in the order given.
///
/// Naming one cell twice is an error that names the cell, even with the same
/// value: the user meant one of the two and the tool cannot tell which.
pub fn parse_overrides<S: AsRef<str>>(values: &[S]) -> Result<Vec<(usize, u8)>, String> {
    let mut out: Vec<(usize, u8)> = Vec::with_capacity(values.len());
    let mut first_text: Vec<&str> = Vec::with_capacity(values.len());
    for value in values {
        let text = value.as_ref();
        let (cell, digit) = parse_override(text)?;
        if let Some(k) = out.iter().position(|&(c, _)| c == cell) {
            return Err(format!(
                "--set names {} twice ({:?} and {text:?}): give each cell once",
                Shape::classic().cell_name(cell),
                first_text[k]
            ));
        }
        out.push((cell, digit));
        first_text.push(text);
    }
    Ok(out)
}

/// Parses one `--set` value (see [`parse_overrides`]).
pub fn parse_override(text: &str) -> Result<(usize, u8), String> {
    let bad =
        || format!("--set {text:?}: expected rRcC=D, e.g. r3c4=7 or r5c1=. (rows and columns 1-9)");
    let lower = text.trim().to_ascii_lowercase();
    let (cell, value) = lower.split_once('=').ok_or_else(bad)?;
    let (r, c) = cell
        .strip_prefix('r')
        .and_then(|rc| rc.split_once('c'))
        .ok_or_else(bad)?;
    let (r, c, value) = match (one_digit(r), one_digit(c), value) {
        (Some(r @ 1..=9), Some(c @ 1..=9), "." | "0" | "_") => (r, c, 0),
        (Some(r @ 1..=9), Some(c @ 1..=9), v) => match one_digit(v) {
            Some(d @ 1..=9) => (r, c, d),
            _ => return Err(bad()),
        },
        _ => return Err(bad()),
    };
    Ok((usize::from(r - 1) * 9 + usize::from(c - 1), value))
}

/// The value of a one-character decimal digit (`str::parse` would also take
/// `+3` and `03`).
fn one_digit(text: &str) -> Option<u8> {
    match text.as_bytes() {
        [d @ b'0'..=b'9'] => Some(d - b'0'),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_parse() {
        let v = parse_overrides(&["r3c4=7", "R5C1=.", " r9c9=0 "]).unwrap();
        assert_eq!(v, vec![(21, 7), (36, 0), (80, 0)]);
        for bad in [
            "r0c1=1", "r3c4", "r3c4=10", "x3c4=1", "r3c10=1", "r3c4=a", "r+3c4=1", "=", "",
        ] {
            assert!(parse_overrides(&[bad]).is_err(), "{bad}");
        }
    }

    #[test]
    fn one_cell_twice_is_an_error_naming_it() {
        for pair in [["r3c4=7", "R3C4=8"], ["r3c4=7", "r3c4=7"]] {
            let err = parse_overrides(&pair).unwrap_err();
            assert!(err.contains("names r3c4 twice"), "{err}");
        }
        assert!(parse_overrides(&["r3c4=7", "r4c3=7"]).is_ok());
    }
}
