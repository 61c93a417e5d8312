//! What sudoku-snap tells a person about a page it has read, the same on the
//! command line and in the web page: every grid decided, with its status
//! and report (the one JSON schema, [`report`]), the answers drawn onto the
//! photo ([`answer`]), and the next step for a person who wants a hint
//! instead of the answer ([`hint`]).
//!
//! The reading itself is `snap_vision`'s; the solving `snap_solver`'s. This
//! crate only turns their results into what is shown, so that every front
//! end shows the same.

pub mod answer;
pub mod hint;
pub mod report;

/// An argument as a shell word: quoted when it holds characters a
/// shell would take apart (a photo's name with spaces), so that advice
/// naming it can be pasted as printed.
pub fn shell_word(text: &str) -> String {
    let plain = text
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "._/:=,+-@%".contains(c));
    if plain {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_only_when_a_shell_needs_it() {
        assert_eq!(shell_word("p108:g2:r1c9=3"), "p108:g2:r1c9=3");
        assert_eq!(shell_word("my photo.jpg:r1c1=3"), "'my photo.jpg:r1c1=3'");
        assert_eq!(shell_word("it's.jpg"), r"'it'\''s.jpg'");
    }
}
