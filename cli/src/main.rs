//! `toolwire`: check a tool set's name census (hop 1 of `tool-name-wire.md`), its schemas
//! (`tool-schema-wire.md`), the tool list a provider receives, and dispatch (hop 5), for tool
//! sets that exist only at run time: JSON files and live MCP servers.
//!
//! This file is the command line only: parsing, reading, and the exit status. The formats are
//! `input.rs` (names) and `definitions.rs` (whole definitions), the output `report.rs`,
//! `schemas.rs`, `wire.rs`, `resolve.rs` and `search.rs`, the MCP sources `mcp/`.

mod definitions;
mod input;
mod mcp;
mod report;
mod resolve;
mod schemas;
mod search;
mod wire;

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{ArgGroup, Args, Parser, Subcommand};
use toolwire_core::{
    names::DEFAULT_META_TOOLS,
    schema::Dialect,
    wire::{wire_tools, RequestLimit, WireError},
    Census, ToolDefinition, WireFormat,
};

use crate::input::UnusableInput;
use crate::report::CensusReport;
use crate::schemas::SchemaVerdicts;

/// Every tool is offered (census), travels without loss (wire), or every call reaches a tool
/// (resolve).
const EXIT_OK: u8 = 0;
/// A tool is left out of the request or, where asked, its schema is lossy or refused (census,
/// wire), or a call reaches nothing (resolve).
const EXIT_FOUND: u8 = 1;
/// The input is unusable (an MCP server cannot be listed), the list is over a provider's
/// per-request limit, or the output cannot be written.
const EXIT_UNUSABLE: u8 = 2;

/// Make LLM tools survive the wire: check a tool set's model-safe forms, which tools a request
/// leaves out, how each schema travels to each provider, the exact tool list a provider
/// receives, and where a called name is dispatched.
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
    // `toolwire wire`.
    Wire(WireArgs),
    // `toolwire resolve`.
    Resolve(ResolveArgs),
    // `toolwire search`.
    Search(search::SearchArgs),
}

/// Where the tool set comes from: a JSON file, standard input, or live MCP servers (one of
/// --mcp-stdio, --mcp-http, --mcp-config).
#[derive(Args, Debug)]
#[command(group(ArgGroup::new("mcp").args(["mcp_stdio", "mcp_http", "mcp_config"])))]
struct SourceArgs {
    /// The JSON file to read; `-` or nothing reads standard input.
    #[arg(value_name = "FILE", conflicts_with = "mcp")]
    file: Option<PathBuf>,
    /// Start this MCP server over stdio (`'COMMAND ARGS'`, split like a shell: quotes group,
    /// backslash escapes), list its tools and check them.
    #[arg(long, value_name = "COMMAND ARGS")]
    mcp_stdio: Option<String>,
    /// Reach this MCP server over streamable HTTP (its endpoint, e.g.
    /// http://127.0.0.1:8000/mcp), list its tools and check them.
    #[arg(long, value_name = "URL")]
    mcp_http: Option<String>,
    /// A header every request to the --mcp-http server carries (repeatable), e.g.
    /// 'Authorization: Bearer TOKEN'.
    // (`requires` alone is not enough: clap waives it when the required argument conflicts
    // with one given, as --mcp-http does with the other sources.)
    #[arg(
        long = "header",
        value_name = "NAME: VALUE",
        requires = "mcp_http",
        conflicts_with_all = ["file", "mcp_stdio", "mcp_config"],
        value_parser = mcp::header
    )]
    headers: Vec<(String, String)>,
    /// Start or reach every server of this `mcpServers` config (the JSON file desktop clients
    /// use), name their tools as the runtime does (mcp/KEY/TOOL) and check them as one set.
    #[arg(long, value_name = "FILE", conflicts_with = "server")]
    mcp_config: Option<PathBuf>,
    /// How long an MCP server may take to start, and then to list its tools, in seconds
    /// (30 each by default). The command ends every server it started, whatever happens.
    #[arg(long, value_name = "SECONDS", requires = "mcp", value_parser = mcp::timeout)]
    timeout: Option<Duration>,
}

/// Where each tool came from, for tools of several MCP servers (`--mcp-config`): each tool's
/// server and the servers that could not be listed. Empty for any other source.
#[derive(Default)]
struct Origins {
    /// Each tool's server, tool by tool.
    servers: Option<Vec<String>>,
    /// One message per MCP server that could not be listed; the others' tools were read.
    failures: Vec<String>,
}

impl Origins {
    /// Says each server that could not be listed on stderr (best effort) and returns the exit
    /// status: `status`, or 2 when a server failed.
    fn report_failures(&self, status: u8) -> u8 {
        let mut err = io::stderr().lock();
        for failure in &self.failures {
            let _ = writeln!(err, "toolwire: {failure}");
        }
        if self.failures.is_empty() {
            status
        } else {
            EXIT_UNUSABLE
        }
    }
}

impl SourceArgs {
    /// The tools' real names only: for a file, the fast path, which skips descriptions and
    /// schemas.
    fn read_names(&self, server: Option<&str>) -> Result<(Vec<String>, Origins), UnusableInput> {
        match self.read_mcp(server) {
            Some(listed) => {
                let (tools, origins) = listed?;
                Ok((tools.into_iter().map(|t| t.name).collect(), origins))
            }
            None => Ok((
                input::read_names_or_piped(self.file.as_deref(), server)?,
                Origins::default(),
            )),
        }
    }

    /// The tools' whole definitions, named as [`SourceArgs::read_names`] names them.
    fn read_definitions(
        &self,
        server: Option<&str>,
    ) -> Result<(Vec<ToolDefinition>, Origins), UnusableInput> {
        match self.read_mcp(server) {
            Some(listed) => listed,
            None => Ok((
                definitions::read_definitions(self.file.as_deref(), server)?,
                Origins::default(),
            )),
        }
    }

    /// The MCP servers' tools, if an MCP source is given: one server's, named under `server`
    /// if given, or every server's of a config, each named under its key.
    #[allow(clippy::type_complexity)]
    fn read_mcp(
        &self,
        server: Option<&str>,
    ) -> Option<Result<(Vec<ToolDefinition>, Origins), UnusableInput>> {
        let options = mcp::options(self.timeout);
        let one = |wanted: Result<mcp::Wanted, UnusableInput>| {
            Ok((mcp::list_one(&wanted?, &options)?, Origins::default()))
        };
        if let Some(command) = &self.mcp_stdio {
            return Some(one(mcp::Wanted::stdio(command, server)));
        }
        if let Some(url) = &self.mcp_http {
            return Some(one(Ok(mcp::Wanted::http(url, &self.headers, server))));
        }
        let path = self.mcp_config.as_deref()?;
        Some(mcp::Wanted::config(path).and_then(|wanted| {
            let listing = mcp::list_all(&wanted, &options)?;
            let origins = Origins {
                servers: Some(listing.servers),
                failures: listing.failures,
            };
            Ok((listing.tools, origins))
        }))
    }
}

/// Check a tool set's name census: each tool's model-safe form, whether a request offers it or
/// leaves it out and why, and whether each provider accepts the form; with --json or
/// --provider, also how each tool's schema travels in each dialect.
#[derive(Args, Debug)]
#[command(after_long_help = CENSUS_HELP)]
struct CensusArgs {
    // FILE, --mcp-stdio, --mcp-http, --header, --mcp-config, --timeout.
    #[command(flatten)]
    source: SourceArgs,
    // --taken, --no-taken, --server.
    #[command(flatten)]
    names: NameArgs,
    /// Print one JSON object (the contract described below) instead of the table.
    #[arg(long)]
    json: bool,
    /// Show only tools left out or whose form a provider refuses (and the summary).
    #[arg(long, conflicts_with = "json")]
    only_problems: bool,
    /// A schema dialect whose verdicts count toward the exit status (repeatable): openai,
    /// openai-strict, anthropic, anthropic-strict, converse or gemini (converse-strict is
    /// anthropic-strict).
    #[arg(long = "provider", value_name = "DIALECT", value_parser = dialect_key)]
    providers: Vec<Dialect>,
}

/// The long help of `census`: formats, duplicates, the `--json` contract and exit statuses.
const CENSUS_HELP: &str = "\
Input (JSON): an array of tool names; an array of tool objects (OpenAI
{\"type\":\"function\",\"function\":{\"name\":...}}, Messages API {\"name\",\"input_schema\"},
Converse {\"toolSpec\":{\"name\"}}); an object with \"tools\" (an MCP tools/list answer, or a
whole JSON-RPC answer with result.tools); or the corpus format {\"servers\":[{\"server\",
\"tools\"}]}, whose names become mcp/<server>/<tool>.

MCP servers: --mcp-stdio 'COMMAND ARGS' starts one, --mcp-http URL reaches one (with
--header 'NAME: VALUE'), --mcp-config FILE starts or reaches every server of an
{\"mcpServers\": {\"KEY\": {\"command\", \"args\", \"env\", \"cwd\"} | {\"url\", \"headers\"}}}
file and names their tools mcp/KEY/<tool>; the table then has a SERVER column and each
--json tools entry a \"server\" key. --timeout SECONDS bounds each server's start and its
listing. A server that cannot be listed is named on stderr with why (its last stderr
lines, for a command); the other servers are still checked, and the exit status is 2.

A name given more than once is one tool: it is reported under duplicates and in the
summary, and a duplicate alone does not make the exit status 1.

--json prints one object with exactly these keys: offered (sorted real names), left_out
(real name -> form), collisions (form -> sorted real names, taken names included),
healing (form -> real name), duplicates (sorted), tools (one object per distinct name, in
input order: name, form, status \"offered\"|\"left_out\", reason (null when offered),
reason_key, providers {openai, anthropic, converse, gemini} -> whether each accepts the
form), schemas (real name -> dialect {openai, openai-strict, anthropic, anthropic-strict,
converse, gemini} -> {status \"as_is\"|\"rewritten\"|\"lossy\"|\"refused\", losses [{pointer,
keyword, note}], reason (null unless refused)}: how each distinct tool's parameter schema
travels in each dialect, as `toolwire wire` sends it).

A tool object's schema is read from function.parameters (OpenAI), input_schema (Messages
API), inputSchema (MCP), parameters (OpenAI Responses) or toolSpec.inputSchema.json
(Converse); a bare name has no arguments. --json and --provider read whole definitions;
the table alone reads names only.

--provider DIALECT (repeatable) makes a lossy or refused schema in that dialect count:
the exit status is then 1 also when a tool's schema is lossy or refused there, and the
table's summary ends with each named dialect's counts.

Exit status: 0 every tool is offered (and, with --provider, travels without loss in each
named dialect); 1 a tool is left out (or, with --provider, a schema is lossy or refused
in a named dialect); 2 the input is unusable (the message names the file, line and
column, or the entry at fault), or an MCP server cannot be listed.";

/// Print the tool list one provider request carries (what the runtime sends): the offered
/// tools under their model-safe forms, each schema prepared for the format's dialect. Losses,
/// refusals and tools left out go to stderr, one line each.
#[derive(Args, Debug)]
#[command(after_long_help = WIRE_HELP)]
struct WireArgs {
    /// The request shape: openai, openai-strict, anthropic, anthropic-strict, converse,
    /// converse-strict or gemini.
    #[arg(long, value_name = "FORMAT", value_parser = wire_format)]
    format: WireFormat,
    // FILE, --mcp-stdio, --mcp-http, --header, --mcp-config, --timeout.
    #[command(flatten)]
    source: SourceArgs,
    // --taken, --no-taken, --server.
    #[command(flatten)]
    names: NameArgs,
}

/// The long help of `wire`: input, output, the stderr lines and exit statuses.
const WIRE_HELP: &str = "\
Input: any format `toolwire census` reads, with each tool's description and parameter
schema (function.parameters, input_schema, inputSchema, parameters or
toolSpec.inputSchema.json); a bare name is a tool with no arguments.

Output: the value of the request's tool list, one JSON document on one line: an array of
tools in the format's shape (Gemini: [{\"functionDeclarations\": [...]}]). A schema
rewritten with losses carries each loss in a description the model reads.

Stderr, one line per tool that does not travel exactly:
  left out: tool \"NAME\": REASON                      (the name census)
  left out: tool \"NAME\", FORMAT: WHY; rename it       (the provider refuses the form)
  lossy: tool \"NAME\", DIALECT, at POINTER, KEYWORD: NOTE   (one line per loss)
  refused: tool \"NAME\", DIALECT, at POINTER, KEYWORD: WHY
POINTER is a JSON pointer into the tool's own schema, (root) for the root.

Exit status: 0 every offered tool travels without loss; 1 a tool is left out, or its
schema is lossy or refused; 2 the input is unusable (an MCP server cannot be listed: the
others' tools are still printed), or the list is over one of the
provider's per-request limits (OpenAI: 128 tools; strict Messages API and Converse: 20
strict tools, 24 optional and 16 union parameters), which would fail the whole request.";

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
            DEFAULT_META_TOOLS.to_vec()
        } else {
            self.taken.iter().map(String::as_str).collect()
        }
    }
}

/// Parses `--format`: a wire format's key.
fn wire_format(key: &str) -> Result<WireFormat, String> {
    WireFormat::from_key(key).ok_or_else(|| {
        let keys: Vec<&str> = WireFormat::ALL.iter().map(|f| f.key()).collect();
        format!("expected one of {}", keys.join(", "))
    })
}

/// Parses `--provider`: a dialect's key, or a wire format's (`converse-strict` is the
/// `anthropic-strict` dialect).
fn dialect_key(key: &str) -> Result<Dialect, String> {
    WireFormat::from_key(key)
        .map(WireFormat::dialect)
        .ok_or_else(|| {
            let keys: Vec<&str> = Dialect::ALL.iter().map(|d| d.key()).collect();
            format!("expected one of {} (or converse-strict)", keys.join(", "))
        })
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
        Command::Wire(args) => wire(&args),
        Command::Resolve(args) => resolve(&args),
        Command::Search(args) => search::search(&args),
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
    let server = args.names.server.as_deref();
    let taken = args.names.taken();
    // Schemas only when asked for: the table alone keeps the names-only reader.
    let needs_schemas = args.json || !args.providers.is_empty();
    let (definitions, names, origins) = if needs_schemas {
        let (definitions, origins) = args.source.read_definitions(server)?;
        (Some(definitions), Vec::new(), origins)
    } else {
        let (names, origins) = args.source.read_names(server)?;
        (None, names, origins)
    };
    let census = match &definitions {
        Some(definitions) => Census::build(definitions.iter().map(|d| &d.name), &taken),
        None => Census::build(&names, &taken),
    };
    let mut report = CensusReport::new(&census);
    if let Some(servers) = &origins.servers {
        report = report.with_servers(servers);
    }
    // `--json` carries every dialect; the table's summary only the named ones.
    let dialects: &[Dialect] = if args.json {
        &Dialect::ALL
    } else {
        &args.providers
    };
    let schemas = definitions
        .as_deref()
        .map(|definitions| SchemaVerdicts::new(&census, definitions, dialects));
    let lossless = schemas
        .as_ref()
        .is_none_or(|s| s.all_lossless_in(&args.providers));
    let status = if report.all_offered() && lossless {
        EXIT_OK
    } else {
        EXIT_FOUND
    };
    let status = origins.report_failures(status);
    let mut out = BufWriter::new(io::stdout().lock());
    let written = match (&schemas, args.json) {
        (Some(schemas), true) => report.write_json(&mut out, schemas),
        _ => report.write_table(&mut out, args.only_problems, schemas.as_ref()),
    };
    written
        .and_then(|()| out.flush())
        .map_err(|err| Failure::Output(err, status))?;
    // The process ends here: freeing 100,000 tools one by one would only cost time.
    std::mem::forget(schemas);
    std::mem::forget(census);
    std::mem::forget(names);
    std::mem::forget(definitions);
    Ok(status)
}

/// `toolwire wire`: reads the tool definitions, prints the tool list of `--format` and one
/// stderr line per tool that does not travel exactly, returns the exit status.
fn wire(args: &WireArgs) -> Result<u8, Failure> {
    let (definitions, origins) = args.source.read_definitions(args.names.server.as_deref())?;
    // The census exactly as `census` builds it: the same names, the same taken names.
    let census = Census::build(definitions.iter().map(|d| &d.name), &args.names.taken());
    let tools = wire_tools(&census, &definitions, args.format).map_err(|err| match err {
        WireError::OverLimit { limit, .. } => {
            let fix = match limit {
                RequestLimit::StrictOptionalParameters => "make fewer parameters optional",
                RequestLimit::StrictUnionParameters => "use fewer anyOf or type-array parameters",
                _ => "send fewer tools",
            };
            UnusableInput(format!(
                "{err}, and refuses the whole request over it: {fix}"
            ))
        }
        // Count and Name cannot happen (the census is built from these definitions); said
        // plainly all the same.
        other => UnusableInput(format!("cannot build the tool list: {other}")),
    })?;
    let findings = wire::findings(&census, &definitions, args.format);
    let status = if findings.is_empty() {
        EXIT_OK
    } else {
        EXIT_FOUND
    };
    let status = origins.report_failures(status);
    let mut out = BufWriter::new(io::stdout().lock());
    serde_json::to_writer(&mut out, &tools)
        .map_err(io::Error::from)
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush())
        .map_err(|err| Failure::Output(err, status))?;
    let mut err = BufWriter::new(io::stderr().lock());
    for line in &findings {
        // stderr is best effort: a closed stderr must not change what stdout said.
        let _ = writeln!(err, "toolwire: {line}");
    }
    let _ = err.flush();
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
