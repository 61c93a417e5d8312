//! The errors that end a command early, and the one place they become a
//! message and an exit code (`commands::run`). Per-input problems in a batch
//! are not errors of the run: they are reported with the input's name and
//! the batch goes on.

use crate::exit_codes::ExitCode;

/// Why a command could not run (or finish).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The command line asks for something impossible.
    #[error("{0}")]
    Usage(String),
    /// An input could not be opened or read.
    #[error("{name}: {source}")]
    Input {
        /// The input as named on the command line.
        name: String,
        /// What went wrong.
        source: std::io::Error,
    },
    /// Standard output could not be written (a full disk); a broken pipe is
    /// not an error (see `commands::run`).
    #[error("writing output: {0}")]
    Output(std::io::Error),
    /// The digit model could not be loaded.
    #[error(transparent)]
    Model(#[from] snap_vision::OcrError),
    /// An output file (a PDF book) could not be written.
    #[error(transparent)]
    Write(#[from] crate::output::WriteError),
}

impl Error {
    /// The exit code this error ends the run with (DESIGN.md: 2 for bad
    /// usage or an input that could not be read or written).
    pub fn exit_code(&self) -> ExitCode {
        ExitCode::Error
    }
}
