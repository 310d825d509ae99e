//! `toolwire search`: the tools of a tool set that best match a query, as the runtime's
//! `tool_search` finds them (the same census, the same index, offered tools only).
//!
//! Policy: one JSON line per hit, best first, so a script reads the first line for the best
//! tool; the exit status says whether anything was found.

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use clap::Args;
use serde::Serialize;
use toolwire_core::{
    search::{search_terms, SearchIndex},
    Census,
};

use crate::args::NameArgs;
use crate::exit::{Failure, EXIT_FOUND, EXIT_OK};
use crate::input::UnusableInput;
use crate::{definitions, mcp};

/// Find the offered tools that best match a query, by their real names, forms and
/// descriptions (BM25): one JSON line per hit, best first, {"name": real name, "form": the
/// model-safe form, "score": number}.
#[derive(Args, Debug)]
#[command(after_long_help = SEARCH_HELP)]
pub struct SearchArgs {
    /// The tool set, in any format `toolwire census` reads (`-`: standard input).
    #[arg(
        long,
        value_name = "FILE",
        required_unless_present = "mcp_stdio",
        conflicts_with = "mcp_stdio"
    )]
    tools: Option<PathBuf>,
    /// Start this MCP server over stdio (`'COMMAND ARGS'`, split like a shell), list its tools
    /// and search them.
    #[arg(long, value_name = "COMMAND ARGS")]
    mcp_stdio: Option<String>,
    // --taken, --no-taken, --server.
    #[command(flatten)]
    names: NameArgs,
    /// Print at most K tools.
    #[arg(long, value_name = "K", default_value_t = 5, value_parser = positive)]
    limit: usize,
    /// What the tool should do, in words (several words are one query).
    #[arg(value_name = "QUERY", required = true)]
    query: Vec<String>,
}

/// The long help of `search`: what is searched and the exit statuses.
const SEARCH_HELP: &str = "\
Searched: every tool the request offers (tools left out by the census are never found),
by the words of its real name and form (`getHTTPResponse`, `mcp/fs/read_file` and
`mcp_fs_read_file` are split into words) and of its title and description, with common
English words dropped and plurals, -ing and -ed endings folded. Scores only order the
hits of one query.

Exit status: 0 a tool matches; 1 none does; 2 the input is unusable or the query has no
words.";

/// Parses `--limit`: a whole number of at least 1.
fn positive(value: &str) -> Result<usize, String> {
    match value.parse::<usize>() {
        Ok(0) | Err(_) => Err("expected a whole number of at least 1".to_owned()),
        Ok(limit) => Ok(limit),
    }
}

/// One hit, as printed.
#[derive(Debug, Serialize)]
struct HitLine<'a> {
    /// The tool's real name.
    name: &'a str,
    /// The form the request carries it under.
    form: &'a str,
    /// Its score: higher is better.
    score: f64,
}

/// `toolwire search`: reads the tool set, prints one line per hit, returns the exit status.
pub fn run(args: &SearchArgs) -> Result<u8, Failure> {
    let query = args.query.join(" ");
    if search_terms(&query).is_empty() {
        return Err(
            UnusableInput(format!("the query {query:?} has no words to search for")).into(),
        );
    }
    let server = args.names.server.as_deref();
    let definitions = match &args.mcp_stdio {
        Some(command) => mcp::list_one(&mcp::Wanted::stdio(command, server)?, &mcp::options(None))?,
        None => definitions::read_definitions(args.tools.as_deref(), server)?,
    };
    // The census exactly as `census` builds it: the same names, the same taken names.
    let census = Census::build(definitions.iter().map(|d| &d.name), &args.names.taken());
    let index = SearchIndex::of_census(&census, &definitions);
    let hits = index.search_offered(&census, &query, args.limit);
    let status = if hits.is_empty() { EXIT_FOUND } else { EXIT_OK };
    let mut out = BufWriter::new(io::stdout().lock());
    hits.iter()
        .try_for_each(|hit| {
            let tool = &census.tools()[hit.index];
            let line = HitLine {
                name: tool.name(),
                form: tool.form(),
                score: hit.score,
            };
            serde_json::to_writer(&mut out, &line).map_err(io::Error::from)?;
            out.write_all(b"\n")
        })
        .and_then(|()| out.flush())
        .map_err(|err| Failure::Output(err, status))?;
    Ok(status)
}
