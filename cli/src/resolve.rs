//! `toolwire resolve`: one JSON line per called name, saying which tool (if any) the runtime
//! would dispatch it to and how (hop 5 of the spec).

use std::io::{self, BufWriter, Write};
use std::path::PathBuf;

use clap::Args;
use serde::Serialize;
use toolwire_core::{census::Resolution, Census};

use crate::args::NameArgs;
use crate::exit::{Failure, EXIT_FOUND, EXIT_OK};
use crate::input;

/// Say which tool the runtime would dispatch each called name to: one JSON line per CALL,
/// {"call", "to": real name or null, "via": "meta"|"exact"|"form"|"unknown"}.
#[derive(Args, Debug)]
#[command(after_long_help = "\
Exit status: 0 every call reaches a tool or meta-tool; 1 a call reaches nothing; 2 the
input is unusable.")]
pub struct ResolveArgs {
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

/// `toolwire resolve`: reads the tool set, prints one line per call, returns the exit status.
pub fn run(args: &ResolveArgs) -> Result<u8, Failure> {
    // Names only, on purpose: a tool the runtime withholds (its listing requires MCP tasks)
    // keeps its place in the census, so every call resolves to the same tool withheld or not
    // (`Census::withhold`: "a call by its real name or by a form only it has still resolves to
    // it"). Which tool a name reaches is all this prints; `toolwire calls` says it is refused.
    let names = input::read_names(Some(&args.tools), args.names.server.as_deref())?;
    let census = Census::build(&names, &args.names.taken());
    let mut out = BufWriter::new(io::stdout().lock());
    let all_known = write_resolutions(&census, &args.calls, &mut out)
        .and_then(|all_known| out.flush().map(|()| all_known))
        .map_err(|err| Failure::Output(err, EXIT_FOUND))?;
    Ok(if all_known { EXIT_OK } else { EXIT_FOUND })
}

/// One resolved call, as printed.
#[derive(Debug, Serialize, PartialEq, Eq)]
pub struct CallLine<'a> {
    /// The name the call used.
    pub call: &'a str,
    /// The real name it reaches (a meta-tool's own name for a meta-tool), or `null`.
    pub to: Option<&'a str>,
    /// `meta`, `exact`, `form` or `unknown`.
    pub via: &'static str,
}

/// Resolves `call` against `census`.
pub fn resolve_call<'a>(census: &'a Census, call: &'a str) -> CallLine<'a> {
    match census.resolve(call) {
        Ok(Resolution::Meta(meta)) => CallLine {
            call,
            to: Some(meta),
            via: "meta",
        },
        Ok(Resolution::Tool(hit)) => CallLine {
            call,
            to: Some(hit.name),
            via: hit.via.key(),
        },
        // `Resolution` may grow: a kind of landing this version cannot name reaches no tool it
        // can report, so it is reported as reaching none, never guessed.
        Ok(_) | Err(_) => CallLine {
            call,
            to: None,
            via: "unknown",
        },
    }
}

/// Writes one JSON line per call; returns whether every call reached a tool or meta-tool.
pub fn write_resolutions(
    census: &Census,
    calls: &[String],
    out: &mut impl Write,
) -> io::Result<bool> {
    let mut all_known = true;
    for call in calls {
        let line = resolve_call(census, call);
        all_known &= line.to.is_some();
        serde_json::to_writer(&mut *out, &line)?;
        out.write_all(b"\n")?;
    }
    Ok(all_known)
}

#[cfg(test)]
mod tests {
    use super::*;
    use toolwire_core::names::DEFAULT_META_TOOLS;

    #[test]
    fn each_way_a_call_can_land() {
        let census = Census::build(["mcp/s/echo", "mcp/a/b", "mcp/a_b"], &DEFAULT_META_TOOLS);
        let lines: Vec<String> = [
            "tool_search",
            "mcp/s/echo",
            "mcp_s_echo",
            "mcp_a_b",
            "mcp/a/b",
        ]
        .iter()
        .map(|c| serde_json::to_string(&resolve_call(&census, c)).unwrap())
        .collect();
        assert_eq!(
            lines,
            [
                r#"{"call":"tool_search","to":"tool_search","via":"meta"}"#,
                r#"{"call":"mcp/s/echo","to":"mcp/s/echo","via":"exact"}"#,
                r#"{"call":"mcp_s_echo","to":"mcp/s/echo","via":"form"}"#,
                r#"{"call":"mcp_a_b","to":null,"via":"unknown"}"#,
                // Left out of the request, but still that tool when called by its real name.
                r#"{"call":"mcp/a/b","to":"mcp/a/b","via":"exact"}"#,
            ]
        );
    }
}
