//! The library of the `toolwire` command, not a published API: `src/main.rs` parses the
//! arguments into [`Cli`] and exits with what [`run`] returns. It is a library so the fuzz
//! target `cli_input` calls the command's own JSON reader ([`input`]) rather than compiling its
//! files in by path; nothing else is public.
//!
//! The command checks a tool set's name census (hop 1 of `tool-name-wire.md`), its schemas
//! (`tool-schema-wire.md`), the tool list a provider receives, and dispatch (hop 5), for tool
//! sets that exist only at run time: JSON files and live MCP servers; and the calls of a model
//! response (hop 4), each resolved as dispatch would.
//!
//! One module per subcommand, each with its arguments and its run: `census.rs` (its output in
//! `report.rs` and `schemas.rs`), `wire.rs`, `resolve.rs`, `search.rs` and `calls.rs`. The arguments they
//! share are `args.rs`; the formats `input/` (names) and `definitions.rs` (whole definitions);
//! the MCP sources `mcp/`; what a tool is, for every output, `distinct.rs` (one per real name).
//! The exit statuses and why a command stopped early are `exit.rs`. This file is the top of the
//! command line: the subcommands, and the run that dispatches to them.
#![deny(missing_docs)]

mod args;
mod calls;
mod census;
mod definitions;
mod distinct;
mod exit;
pub mod input;
mod mcp;
mod page;
mod report;
mod resolve;
mod schemas;
mod search;
mod serve;
mod wire;

use std::io;

use clap::{Parser, Subcommand};

use crate::exit::{Failure, EXIT_UNUSABLE};

/// Make LLM tools survive the wire: check a tool set's model-safe forms, which tools a request
/// leaves out, how each schema travels to each provider, the exact tool list a provider
/// receives, and where a called name, or each call of a model response, is dispatched.
#[derive(Parser, Debug)]
#[command(name = "toolwire", version, propagate_version = true)]
pub struct Cli {
    // (Plain comments here and on the variants: clap would show doc comments as help.)
    #[command(subcommand)]
    command: Command,
}

/// The subcommands; each one's help is its arguments struct's doc comment.
#[derive(Subcommand, Debug)]
enum Command {
    // `toolwire census`.
    Census(census::CensusArgs),
    // `toolwire wire`.
    Wire(wire::WireArgs),
    // `toolwire resolve`.
    Resolve(resolve::ResolveArgs),
    // `toolwire search`.
    Search(search::SearchArgs),
    // `toolwire calls`.
    Calls(calls::CallsArgs),
    // `toolwire serve`.
    Serve(serve::ServeArgs),
}

/// Runs the subcommand `cli` names and returns the exit status: what the command found
/// (0 or 1), or 2 when its input is unusable or its output cannot be written (said on stderr).
///
/// ```
/// use clap::Parser;
/// use toolwire_cli::{run, Cli};
///
/// let tools = std::env::temp_dir().join(format!("toolwire-run-{}.json", std::process::id()));
/// std::fs::write(&tools, r#"["get_weather"]"#).unwrap();
/// let tools = tools.to_str().unwrap();
/// // One JSON line per call on stdout; 0: every call reaches a tool, 1: one reaches none.
/// assert_eq!(run(Cli::parse_from(["toolwire", "resolve", "--tools", tools, "get_weather"])), 0);
/// assert_eq!(run(Cli::parse_from(["toolwire", "resolve", "--tools", tools, "get_time"])), 1);
/// std::fs::remove_file(tools).unwrap();
/// ```
pub fn run(cli: Cli) -> u8 {
    let outcome = match cli.command {
        Command::Census(args) => census::run(&args),
        Command::Wire(args) => wire::run(&args),
        Command::Resolve(args) => resolve::run(&args),
        Command::Search(args) => search::run(&args),
        Command::Calls(args) => calls::run(&args),
        Command::Serve(args) => serve::run(&args),
    };
    match outcome {
        Ok(status) => status,
        Err(Failure::Input(err)) => {
            eprintln!("toolwire: {err}");
            EXIT_UNUSABLE
        }
        Err(Failure::Output(err, status)) => {
            // A reader that stops early (`| head`) is not an error of ours.
            if err.kind() == io::ErrorKind::BrokenPipe {
                return status;
            }
            eprintln!("toolwire: cannot write the output: {err}");
            EXIT_UNUSABLE
        }
    }
}
