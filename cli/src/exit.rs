//! The exit statuses every subcommand shares, and why a command stopped early ([`Failure`]),
//! which `run` turns into a message and a status.

use std::io;

use crate::input::UnusableInput;

/// Every tool is offered (census), travels without loss (wire), or every call reaches a tool
/// (resolve).
pub const EXIT_OK: u8 = 0;
/// A tool is left out of the request or, where asked, its schema is lossy or refused (census,
/// wire), or a call reaches nothing (resolve).
pub const EXIT_FOUND: u8 = 1;
/// The input is unusable (an MCP server cannot be listed), the list is over a provider's
/// per-request limit, or the output cannot be written.
pub const EXIT_UNUSABLE: u8 = 2;

/// Why a command stopped early.
pub enum Failure {
    /// The input cannot be used (exit 2).
    Input(UnusableInput),
    /// Writing failed; the status the command had reached.
    Output(io::Error, u8),
}

impl From<UnusableInput> for Failure {
    fn from(err: UnusableInput) -> Failure {
        Failure::Input(err)
    }
}
