//! `toolwire census`: each tool's model-safe form, whether a request offers it or leaves it
//! out and why, and, where asked, how each schema travels in each dialect. What it prints is
//! `report.rs` (the table and the JSON object) and `schemas.rs` (the schema verdicts).

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use clap::Args;
use toolwire_core::{schema::Dialect, wire::unsupported_reason, Census};

use crate::args::{DialectKey, NameArgs, SourceArgs};
use crate::exit::{Failure, EXIT_FOUND, EXIT_OK};
use crate::input::Found;
use crate::report::CensusReport;
use crate::schemas::SchemaVerdicts;

/// Check a tool set's name census: each tool's model-safe form, whether a request offers it or
/// leaves it out and why, and whether each provider accepts the form; with --json or
/// --provider, also how each tool's schema travels in each dialect.
#[derive(Args, Debug)]
#[command(after_long_help = CENSUS_HELP)]
pub struct CensusArgs {
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
    /// A schema dialect whose verdicts count toward the exit status (repeatable;
    /// converse-strict is anthropic-strict).
    #[arg(long = "provider", value_name = "DIALECT", value_enum)]
    providers: Vec<DialectKey>,
    /// Also write the Tools page of this tool set to FILE (HTML, self-contained: the page
    /// `toolwire serve --http` serves at /tools, clashes first), whatever the exit status.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
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
lines, for a command); the other servers are still checked, and the exit status is 2. A
server's tool that requires MCP tasks (execution.taskSupport: required) is left out
(reason_key \"unsupported\"), as the runtime withholds it: toolwire does not run MCP tasks.
The same holds for such a tool in a saved tools/list file (one judge reads both).
A tool that is not valid MCP (a schema that is not an object, a name that is not a
string) is left out the same way, its reason starting \"it is not valid MCP: \" and its
name tools[N] (its position in the server's list) when it has no name; the server's
other tools are still checked, so the exit status is 1, not 2. A tool without
inputSchema (or with a null one) is read as a tool without arguments and offered, with a
\"toolwire: note: \" line on stderr saying so (the status is unchanged). An answer the client cannot read
(nested deeper than 127 levels, not UTF-8, not JSON-RPC) fails its server at once,
saying why.

A name given more than once is one tool: it is reported under duplicates and in the
summary, and a duplicate alone does not make the exit status 1.

--json prints one object with exactly these keys: offered (sorted real names), left_out
(real name -> form), collisions (form -> sorted real names, taken names included),
healing (form -> real name), duplicates (sorted), tools (one object per distinct name, in
input order: name, form, status \"offered\"|\"left_out\", reason (null when offered),
reason_key, providers {openai, anthropic, converse, gemini} -> whether each accepts the
form), schemas (real name -> dialect {openai, openai-strict, anthropic, anthropic-strict,
converse, gemini} -> {status \"as_is\"|\"rewritten\"|\"lossy\"|\"refused\", losses [{pointer,
keyword, note}], reason (null unless refused), standing \"refused\"|\"unguarded\"|\"guarded\"
(null unless lossy or refused), over_restricts (a loss forbids arguments the tool
accepts)}: how each distinct tool's parameter schema travels in each dialect, as
`toolwire wire` sends it). A loss of a tool read from a file or an MCP server is
unguarded: nothing on our side enforces what the provider does not see. (Guarded, a
#[tool]'s loss, never comes from a file or an MCP server: it is in the key for the
library's reports, which share this shape.)

A tool object's schema is read from function.parameters (OpenAI), input_schema (Messages
API), inputSchema (MCP), parameters (OpenAI Responses) or toolSpec.inputSchema.json
(Converse); a bare name has no arguments. --json and --provider read whole definitions;
the table alone reads names only.

--provider DIALECT (repeatable) makes a schema that fails the rail in that dialect count:
the exit status is then 1 also when a tool's schema is refused there, loses a rule
nothing guards (unguarded), or forbids arguments the tool accepts; a guarded loss is
counted in the summary and does not change the status. The table's summary ends with
each named dialect's counts.

--html FILE also writes the Tools page of the tool set (the page `toolwire serve --http`
serves at /tools, from the same report and renderer, without its live refresh): clashes
first, then each server and each tool with its status and its schema in each dialect. It
is written whatever the exit status, for a CI job to keep as an artifact.

Exit status: 0 every tool is offered (and, with --provider, no schema fails in a named
dialect); 1 a tool is left out (or, with --provider, a schema is refused, unguarded-lossy
or over-restricting in a named dialect); 2 the input is unusable (the message names the file, line and
column, or the entry at fault), or an MCP server cannot be listed.";

/// `toolwire census`: reads the tool set, prints the report, returns the exit status.
pub fn run(args: &CensusArgs) -> Result<u8, Failure> {
    let server = args.names.server.as_deref();
    let taken = args.names.taken();
    let providers: Vec<Dialect> = args.providers.iter().map(|key| key.0).collect();
    // Schemas only when asked for: the table alone of a file keeps the names-only reader. An
    // MCP server's listing is whole definitions anyway, and says which tools the runtime
    // cannot run.
    let needs_schemas = args.json || !providers.is_empty() || args.html.is_some();
    let (definitions, found, origins) = if needs_schemas || args.source.is_mcp() {
        let (definitions, origins) = args.source.read_definitions(server)?;
        (Some(definitions), Found::default(), origins)
    } else {
        let (found, origins) = args.source.read_names(server)?;
        (None, found, origins)
    };
    let mut census = match &definitions {
        Some(definitions) => Census::build(definitions.iter().map(|d| &d.name), &taken),
        None => Census::build(&found.names, &taken),
    };
    // What the runtime cannot run (an MCP tool that requires MCP tasks), judged by the one
    // judge the live listing uses (`toolwire_core::mcp::withheld_by_listing`, read into each
    // definition's `unsupported` by both readers of a file and by the live one): withheld as
    // the runtime withholds it (its names stay taken), and left out with why.
    let withheld: Vec<(usize, String)> = match &definitions {
        Some(definitions) => (definitions.iter().enumerate())
            .filter_map(|(i, d)| unsupported_reason(d).map(|why| (i, why.to_owned())))
            .collect(),
        None => found.withheld.clone(),
    };
    let names = |i: usize| match &definitions {
        Some(definitions) => definitions[i].name.clone(),
        None => found.names[i].clone(),
    };
    let unsupported: Vec<(String, String)> = withheld
        .into_iter()
        .map(|(i, why)| {
            census.withhold(i);
            (names(i), why)
        })
        .collect();
    let mut report = CensusReport::new(&census).with_unsupported(&unsupported);
    if let Some(servers) = &origins.servers {
        report = report.with_servers(servers);
    }
    // `--json` carries every dialect; the table's summary only the named ones.
    let dialects: &[Dialect] = if args.json { &Dialect::ALL } else { &providers };
    let schemas = definitions
        .as_deref()
        .map(|definitions| SchemaVerdicts::new(&census, definitions, dialects));
    // The rail's rule (`tool-schema-wire.md`, "What the rail fails on, revised 2026-12"):
    // refused, unguarded and over-restricting schemas count; a guarded loss is listed only.
    let schemas_pass = schemas.as_ref().is_none_or(|s| s.all_pass_in(&providers));
    let status = if report.all_offered() && schemas_pass {
        EXIT_OK
    } else {
        EXIT_FOUND
    };
    let status = origins.report_failures(status);
    // The page first, so a CI job keeps it whatever the table says.
    if let (Some(path), Some(definitions)) = (&args.html, &definitions) {
        crate::page::write_page(
            path,
            &crate::page::PageInput {
                definitions,
                servers: origins.servers.as_deref(),
                source: &args.source.name(server),
                taken: &taken,
                failures: &origins.failures,
            },
        )?;
    }
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
    std::mem::forget(found);
    std::mem::forget(definitions);
    Ok(status)
}
