//! `toolwire`: check a tool set's name census (hop 1 of `tool-name-wire.md`) and dispatch
//! (hop 5), for tool sets that exist only at run time: JSON files and live MCP servers.
//!
//! This file is the command line only: parsing, reading, and the exit status. The formats are
//! `input.rs`, the output `report.rs` and `resolve.rs`, the MCP client `mcp.rs`.

mod input;
mod mcp;
mod report;
mod resolve;

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use toolwire_core::{Census, META_TOOLS};

use crate::input::UnusableInput;
use crate::report::CensusReport;

/// Every tool is offered (census), or every call reaches a tool (resolve).
const EXIT_OK: u8 = 0;
/// A tool is left out of the request (census), or a call reaches nothing (resolve).
const EXIT_FOUND: u8 = 1;
/// The input is unusable (or the output cannot be written).
const EXIT_UNUSABLE: u8 = 2;

/// Make LLM tool names survive the wire: check a tool set's model-safe forms, which tools a
/// request leaves out, and where a called name is dispatched.
#[derive(Parser, Debug)]
#[command(name = "toolwire", version, propagate_version = true)]
struct Cli {
    // (Plain comments here and on the variants: clap would show doc comments as help.)
    #[command(subcommand)]
    command: Command,
}

/// The subcommands; each one's help is its arguments struct's doc comment.
#[derive(Subcommand, Debug)]
enum Command {
    // `toolwire census`.
    Census(CensusArgs),
    // `toolwire resolve`.
    Resolve(ResolveArgs),
}

/// Check a tool set's name census: each tool's model-safe form, whether a request offers it or
/// leaves it out and why, and whether each provider accepts the form.
#[derive(Args, Debug)]
#[command(after_long_help = CENSUS_HELP)]
struct CensusArgs {
    /// The JSON file to read; `-` or nothing reads standard input.
    #[arg(value_name = "FILE", conflicts_with = "mcp_stdio")]
    file: Option<PathBuf>,
    /// Start this MCP server over stdio (`'COMMAND ARGS'`, split like a shell: quotes group,
    /// backslash escapes), list its tools and check them.
    #[arg(long, value_name = "COMMAND ARGS")]
    mcp_stdio: Option<String>,
    // --taken, --no-taken, --server.
    #[command(flatten)]
    names: NameArgs,
    /// Print one JSON object (the contract described below) instead of the table.
    #[arg(long)]
    json: bool,
    /// Show only tools left out or whose form a provider refuses (and the summary).
    #[arg(long, conflicts_with = "json")]
    only_problems: bool,
}

/// The long help of `census`: formats, duplicates, the `--json` contract and exit statuses.
const CENSUS_HELP: &str = "\
Input (JSON): an array of tool names; an array of tool objects (OpenAI
{\"type\":\"function\",\"function\":{\"name\":...}}, Messages API {\"name\",\"input_schema\"},
Converse {\"toolSpec\":{\"name\"}}); an object with \"tools\" (an MCP tools/list answer, or a
whole JSON-RPC answer with result.tools); or the corpus format {\"servers\":[{\"server\",
\"tools\"}]}, whose names become mcp/<server>/<tool>.

A name given more than once is one tool: it is reported under duplicates and in the
summary, and a duplicate alone does not make the exit status 1.

--json prints one object with exactly these keys: offered (sorted real names), left_out
(real name -> form), collisions (form -> sorted real names, taken names included),
healing (form -> real name), duplicates (sorted), tools (one object per distinct name, in
input order: name, form, status \"offered\"|\"left_out\", reason (null when offered),
reason_key, providers {openai, anthropic, converse, gemini} -> whether each accepts the
form).

Exit status: 0 every tool is offered; 1 a tool is left out; 2 the input is unusable (the
message names the file, line and column, or the entry at fault).";

/// Which names the tools are checked against, and how bare names are qualified.
#[derive(Args, Debug)]
struct NameArgs {
    /// A name already taken by the runtime (repeatable); replaces the default meta-tools
    /// tool_search, tool_schema and reset_tools.
    #[arg(long, value_name = "NAME")]
    taken: Vec<String>,
    /// Take no names at all (not even the default meta-tools).
    #[arg(long, conflicts_with = "taken")]
    no_taken: bool,
    /// Name bare tool names as an MCP server's: `NAME` makes `echo` `mcp/NAME/echo`.
    #[arg(long, value_name = "NAME", value_parser = server_name)]
    server: Option<String>,
}

impl NameArgs {
    /// The taken names the census is built beside.
    fn taken(&self) -> Vec<&str> {
        if self.no_taken {
            Vec::new()
        } else if self.taken.is_empty() {
            META_TOOLS.to_vec()
        } else {
            self.taken.iter().map(String::as_str).collect()
        }
    }
}

/// Parses `--server`: any name but the empty one.
fn server_name(value: &str) -> Result<String, String> {
    if value.is_empty() {
        return Err("a server name cannot be empty".to_owned());
    }
    Ok(value.to_owned())
}

/// Say which tool the runtime would dispatch each called name to: one JSON line per CALL,
/// {"call", "to": real name or null, "via": "meta"|"exact"|"form"|"unknown"}.
#[derive(Args, Debug)]
#[command(after_long_help = "\
Exit status: 0 every call reaches a tool or meta-tool; 1 a call reaches nothing; 2 the
input is unusable.")]
struct ResolveArgs {
    /// The tool set, in any format `toolwire census` reads (`-`: standard input).
    #[arg(long, value_name = "FILE")]
    tools: PathBuf,
    // --taken, --no-taken, --server.
    #[command(flatten)]
    names: NameArgs,
    /// The called names to resolve.
    #[arg(value_name = "CALL", required = true)]
    calls: Vec<String>,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Census(args) => census(&args),
        Command::Resolve(args) => resolve(&args),
    };
    match outcome {
        Ok(status) => ExitCode::from(status),
        Err(Failure::Input(err)) => {
            eprintln!("toolwire: {err}");
            ExitCode::from(EXIT_UNUSABLE)
        }
        Err(Failure::Output(err, status)) => {
            // A reader that stops early (`| head`) is not an error of ours.
            if err.kind() == io::ErrorKind::BrokenPipe {
                return ExitCode::from(status);
            }
            eprintln!("toolwire: cannot write the output: {err}");
            ExitCode::from(EXIT_UNUSABLE)
        }
    }
}

/// Why a command stopped early.
enum Failure {
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

/// `toolwire census`: reads the tool set, prints the report, returns the exit status.
fn census(args: &CensusArgs) -> Result<u8, Failure> {
    let names = match &args.mcp_stdio {
        Some(command) => mcp::list_tool_names(command, args.names.server.as_deref())?,
        None => input::read_names_or_piped(args.file.as_deref(), args.names.server.as_deref())?,
    };
    let census = Census::build(&names, &args.names.taken());
    let report = CensusReport::new(&census);
    let status = if report.all_offered() {
        EXIT_OK
    } else {
        EXIT_FOUND
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let written = if args.json {
        report.write_json(&mut out)
    } else {
        report.write_table(&mut out, args.only_problems)
    };
    written
        .and_then(|()| out.flush())
        .map_err(|err| Failure::Output(err, status))?;
    // The process ends here: freeing 100,000 tools one by one would only cost time.
    std::mem::forget(census);
    std::mem::forget(names);
    Ok(status)
}

/// `toolwire resolve`: reads the tool set, prints one line per call, returns the exit status.
fn resolve(args: &ResolveArgs) -> Result<u8, Failure> {
    let names = input::read_names(Some(&args.tools), args.names.server.as_deref())?;
    let census = Census::build(&names, &args.names.taken());
    let mut out = BufWriter::new(io::stdout().lock());
    let all_known = resolve::write_resolutions(&census, &args.calls, &mut out)
        .and_then(|all_known| out.flush().map(|()| all_known))
        .map_err(|err| Failure::Output(err, EXIT_FOUND))?;
    Ok(if all_known { EXIT_OK } else { EXIT_FOUND })
}
