//! `toolwire`: parses the command line and exits with the status the command reached. The
//! command itself is the library `toolwire_cli` (`lib.rs`).

use std::process::ExitCode;

use clap::Parser;
use toolwire_cli::{run, Cli};

fn main() -> ExitCode {
    ExitCode::from(run(Cli::parse()))
}
