//! The process exit codes of DESIGN.md, and how many inputs merge into one.

use snap_answer::report::Status;

/// What a run ended with. Ordered so that the worst outcome of many inputs wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum ExitCode {
    /// Every input was solved (a unique solution).
    Success,
    /// Some input was read but not solved: no grid found, no solution, or several.
    NotSolved,
    /// Bad usage, or an input that could not be read at all.
    Error,
    /// Ctrl-C stopped the run before every input was done: 130 (128 +
    /// SIGINT), as shells report a program the signal ended, so a script
    /// tells a stopped run from a finished one.
    Interrupted,
}

impl ExitCode {
    /// The number the process exits with.
    pub fn code(self) -> i32 {
        match self {
            ExitCode::Success => 0,
            ExitCode::NotSolved => 1,
            ExitCode::Error => 2,
            ExitCode::Interrupted => crate::output::INTERRUPT_EXIT,
        }
    }

    /// Combines the results of two inputs: the worse one wins.
    pub fn merge(self, other: ExitCode) -> ExitCode {
        self.max(other)
    }
}

/// The exit code a status asks for (DESIGN.md: 0 solved, 1 not solved, 2 unreadable).
impl From<Status> for ExitCode {
    fn from(status: Status) -> ExitCode {
        match status {
            // A printed answer grid is nothing to solve: fine when it is valid
            // (an invalid one carries its clash as the reason, and the photo
            // command's `line_code` makes it exit 1).
            Status::Solved | Status::Complete => ExitCode::Success,
            Status::Unsure
            | Status::Partial
            | Status::NoSolution
            | Status::MultipleSolutions
            | Status::NoGrid
            | Status::Stuck => ExitCode::NotSolved,
            Status::Error => ExitCode::Error,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ExitCode::*;

    #[test]
    fn codes_follow_design() {
        assert_eq!(Success.code(), 0);
        assert_eq!(NotSolved.code(), 1);
        assert_eq!(Error.code(), 2);
        assert_eq!(Interrupted.code(), 130);
    }

    #[test]
    fn worst_input_wins() {
        assert_eq!(Success.merge(NotSolved), NotSolved);
        assert_eq!(Error.merge(NotSolved), Error);
        assert_eq!(Success.merge(Success), Success);
        assert_eq!(Error.merge(Interrupted), Interrupted);
    }
}
