//! `toolwire calls`: the client tool calls of one model response (hop 4 of the spec), from its
//! body or its stream as received, each resolved to the tool it reaches (hop 5).
//!
//! Policy: the reading is `toolwire_core::wire::calls`, the mapping `Census::resolve` over the
//! census `census` builds from the same tool sources; this file only prints. Every call is one
//! line, in the order the provider emitted it, and a call that cannot be run says why on its
//! own line (an unknown name, a shared form, arguments that are not an object, a stream that
//! ended before the call's end signal): loud means printed, never a dropped call. A response
//! that is not the format's at all is the input's fault (exit 2), as a bad tool set is.
//! With `--stream`, each call's line is written as soon as its end signal arrives. With
//! `--answer` the calls are run and answered instead (`answer.rs`).

pub(crate) mod answer;

use std::fs::File;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};

use clap::Args;
use serde::Serialize;
use toolwire_core::runtime::DispatchError;
use toolwire_core::wire::calls::{
    Arguments, CallFormat, CallParser, JsonLinesCallStream, SseCallStream, StreamError, ToolCall,
    UnfinishedCall,
};
use toolwire_core::{census::Resolution, wire::unsupported_reason, Census};

use crate::args::{CallFormatKey, NameArgs, Origins, ToolSourceArgs};
use crate::exit::{Failure, EXIT_FOUND, EXIT_OK};
use crate::input::{self, UnusableInput};

/// Print the client tool calls of a model response, each resolved to the tool it reaches:
/// one JSON line per call, in order, {"id", "called", "to", "via", "arguments", "error"}.
#[derive(Args, Debug)]
#[command(after_long_help = CALLS_HELP)]
pub struct CallsArgs {
    /// The response's format.
    #[arg(long, value_name = "FORMAT", value_enum)]
    format: CallFormatKey,
    /// RESPONSE is the response's stream as received (server-sent events; converse: one
    /// decoded stream event per line), not its body.
    #[arg(long)]
    stream: bool,
    /// Run the calls (an MCP tool source: --mcp-stdio, --mcp-http or --mcp-config) and print,
    /// instead of the lines, one JSON object {"replay", "answers", "renamed", "notes"}: the
    /// assistant turn and the messages the next request appends.
    #[arg(long)]
    answer: bool,
    // --tools, --mcp-stdio, --mcp-http, --header, --mcp-config, --timeout.
    #[command(flatten)]
    source: ToolSourceArgs,
    // --taken, --no-taken, --server.
    #[command(flatten)]
    names: NameArgs,
    /// The response body (or, with --stream, the stream); `-` or nothing reads standard input.
    #[arg(value_name = "RESPONSE")]
    response: Option<PathBuf>,
}

/// The long help of `calls`: input, output and exit statuses.
const CALLS_HELP: &str = "\
Input: RESPONSE is the response body exactly as the provider returned it (openai: a Chat
Completions response; openai-responses: a Responses API response; anthropic: a Messages
API message; converse: a Converse response; gemini: a GenerateContentResponse). With
--stream it is the stream exactly as received: server-sent events (openai,
openai-responses, anthropic, gemini with alt=sse), or, for converse, one decoded stream
event per line ({\"contentBlockDelta\": ...}, as the AWS SDKs yield them). The tool set
(--tools FILE, or an MCP server) is read as `toolwire census` reads it, and each called
name is resolved over the same census (with --taken, --no-taken, --server).

Output: one JSON line per client tool call, in the order the provider emitted it
(with --stream, written when its end signal arrives): {\"id\": the provider's call id, or
null for a Gemini call without one; \"called\": the name exactly as emitted; \"to\": the
real name it reaches (a meta-tool's own name), or null; \"via\": \"meta\"|\"exact\"|\"form\"|
\"unknown\"; \"arguments\": the arguments object, or null when they are unusable;
\"error\": why the call cannot be run (an unknown name with the closest forms, a form
several tools share, arguments that are not a JSON object, a tool toolwire cannot run, a
stream that ended before the call's end signal), or null}. A Responses API call inside
a namespace tool also has \"namespace\", and is resolved by its (namespace, name) pair. A call whose name a cut stream never carried has \"called\": null.
Provider-executed blocks (server tools, thinking, reasoning) are not calls.

Exit status: 0 every call reaches a tool or meta-tool with object arguments; 1 a call
does not, or the stream ended before its end (said on stderr); 2 the input is unusable:
the response is not that format (not JSON, or not its shape: the message names the JSON
pointer and, for a stream, the event), a call has no name or not the id its format
requires, two calls have one id, the stream carries the provider's error, or the tool
set cannot be read.

--answer runs every call through a tool runtime holding the MCP servers (each call
answered: an unknown name, unusable arguments or a tool error is an error answer the
model reads) and prints one JSON object instead of the lines: {\"replay\": the assistant
turn to append to history, the response's own but for a name the provider refuses in
history, which carries its model-safe form; \"answers\": the messages (openai-responses:
the items) to append after it, in the format's own shape; \"renamed\": [{\"id\",
\"called\", \"replayed\", \"pointer\"}] each call the replay renamed; \"notes\": [{\"call\",
\"note\"}] what an answer could not carry, or cut}. The next request carries \"replay\"
and \"answers\". Exit status with --answer: 0 every answer is a tool's success; 1 any is
an error answer, or the stream ended before a call's end (nothing is printed then: a cut
turn cannot be answered; stderr names the calls); 2 as above. --tools FILE cannot be
answered (it names tools, it cannot run them).";

/// `toolwire calls`: reads the tool set and the response, prints one line per call, returns
/// the exit status.
pub fn run(args: &CallsArgs) -> Result<u8, Failure> {
    let response = args.response.as_deref().filter(|p| p.as_os_str() != "-");
    let tools_on_stdin = args.source.file().is_some_and(|p| p.as_os_str() == "-");
    if response.is_none() && tools_on_stdin {
        return Err(UnusableInput(
            "standard input cannot be both the tool set (--tools -) and the response: give one as a file".to_owned(),
        )
        .into());
    }
    if response.is_none() && io::stdin().is_terminal() {
        return Err(UnusableInput(
            "no response given: name a RESPONSE file, or pipe one in (or give `-`)".to_owned(),
        )
        .into());
    }
    if args.answer {
        return run_answer(args, response);
    }
    let (tools, origins) = read_census(args)?;
    let parser = CallParser::new(args.format.0);
    let (label, reader) = open(response)?;
    let mut out = Lines {
        tools: &tools,
        out: BufWriter::new(io::stdout().lock()),
        all_runnable: true,
        collected: None,
    };
    let read = if args.stream {
        read_stream(parser, &label, reader, &mut out)
    } else {
        read_body(parser, &label, reader, &mut out)
    };
    let flushed = out.out.flush();
    let status = if out.all_runnable {
        EXIT_OK
    } else {
        EXIT_FOUND
    };
    // A server of an --mcp-config that could not be listed: the calls were still resolved over
    // the others' tools (as `census` still checks them), and the status is 2.
    let status = origins.report_failures(status);
    // The lines already printed stay printed; a fault of the input is said after them.
    let status = match read {
        Ok(()) => status,
        Err(Failure::Output(err, _)) => return Err(Failure::Output(err, status)),
        Err(failure) => return Err(failure),
    };
    flushed.map_err(|err| Failure::Output(err, status))?;
    Ok(status)
}

/// `calls --answer`: the MCP servers connected, the response read (its calls collected, not
/// printed), every call answered and the one object printed.
fn run_answer(args: &CallsArgs, response: Option<&Path>) -> Result<u8, Failure> {
    let Some(servers) = args.source.mcp_servers(args.names.server.as_deref()) else {
        return Err(UnusableInput(
            "--answer runs the calls, which needs a tool source that can run tools: an MCP server (--mcp-stdio, --mcp-http or --mcp-config); --tools FILE only names them".to_owned(),
        )
        .into());
    };
    let (wanted, options) = servers?;
    let taken = args.names.taken();
    let format = args.format.0;
    let label = response.map_or_else(|| "<stdin>".to_owned(), |p| p.display().to_string());
    let read = || {
        let parser = CallParser::new(format);
        let (label, reader) = open(response)?;
        // Nothing is printed while reading: the census for the lines is not needed.
        let none = ToolSet {
            census: Census::build(std::iter::empty::<&str>(), &[]),
            unsupported: Vec::new(),
        };
        let mut out = Lines {
            tools: &none,
            out: BufWriter::new(io::stdout().lock()),
            all_runnable: true,
            collected: Some(answer::Collected::default()),
        };
        if args.stream {
            read_stream(parser, &label, reader, &mut out)?;
        } else {
            read_body(parser, &label, reader, &mut out)?;
        }
        let mut collected = out.collected.take().unwrap_or_default();
        // A stream cut inside an event, with no call open: said on stderr, not answered.
        collected.cut = !out.all_runnable;
        Ok(collected)
    };
    answer::run(&wanted, options, &taken, format, &label, read)
}

/// The tool set's census, built as `census` builds it (the same names, the same taken names),
/// and why the runtime cannot run each tool it cannot (an MCP tool that requires MCP tasks):
/// such a tool is withheld, as the runtime withholds it, and still resolves, to be refused.
struct ToolSet {
    census: Census,
    /// Tool by tool, in census order; empty when every tool can be run.
    unsupported: Vec<Option<String>>,
}

fn read_census(args: &CallsArgs) -> Result<(ToolSet, Origins), UnusableInput> {
    let server = args.names.server.as_deref();
    let taken = args.names.taken();
    let (names, unsupported, origins) = match args.source.read_mcp(server) {
        Some(listed) => {
            let (definitions, origins) = listed?;
            let unsupported = definitions
                .iter()
                .map(|d| unsupported_reason(d).map(str::to_owned))
                .collect();
            let names = definitions.into_iter().map(|d| d.name).collect();
            (names, unsupported, origins)
        }
        None => {
            // A saved `tools/list` is judged by the reader `census` and `wire` use, which asks
            // core's one judge of a listed tool: it withholds what a live listing withholds.
            let found = input::read_listed(args.source.file(), server)?;
            let mut unsupported = vec![None; found.names.len()];
            for (index, why) in found.withheld {
                unsupported[index] = Some(why);
            }
            (found.names, unsupported, Origins::default())
        }
    };
    let mut census = Census::build(&names, &taken);
    for (index, _) in unsupported
        .iter()
        .enumerate()
        .filter(|(_, why)| why.is_some())
    {
        census.withhold(index);
    }
    let unsupported = if unsupported.iter().any(Option::is_some) {
        unsupported
    } else {
        Vec::new()
    };
    Ok((
        ToolSet {
            census,
            unsupported,
        },
        origins,
    ))
}

/// The response's label for messages, and its bytes as they come.
fn open(response: Option<&Path>) -> Result<(String, Box<dyn Read>), UnusableInput> {
    match response {
        None => Ok(("<stdin>".to_owned(), Box::new(io::stdin().lock()))),
        Some(path) => {
            let label = path.display().to_string();
            match File::open(path) {
                Ok(file) => Ok((label, Box::new(file))),
                Err(err) => Err(UnusableInput(format!("{label}: cannot read: {err}"))),
            }
        }
    }
}

/// A body: read whole, then its calls.
fn read_body(
    parser: CallParser,
    label: &str,
    mut reader: Box<dyn Read>,
    out: &mut Lines<'_>,
) -> Result<(), Failure> {
    let mut bytes = Vec::new();
    reader
        .read_to_end(&mut bytes)
        .map_err(|err| UnusableInput(format!("{label}: cannot read: {err}")))?;
    let bytes = input::without_bom(&bytes);
    let calls = parser
        .parse_slice(bytes)
        .map_err(|err| UnusableInput(format!("{label}: {err}")))?;
    if let Some(collected) = &mut out.collected {
        // The same bytes parsed as calls: they are JSON.
        let body = serde_json::from_slice(bytes)
            .map_err(|err| UnusableInput(format!("{label}: not JSON: {err}")))?;
        collected.body = Some(body);
    }
    for call in &calls {
        out.call(call)?;
    }
    Ok(())
}

/// The format's stream over raw bytes: server-sent events, or (Converse) one event per line.
enum RawStream {
    Sse(SseCallStream),
    Lines(JsonLinesCallStream),
}

impl RawStream {
    fn push(&mut self, chunk: &[u8]) -> Result<Vec<ToolCall>, StreamError> {
        match self {
            RawStream::Sse(stream) => stream.push(chunk),
            RawStream::Lines(stream) => stream.push(chunk),
        }
    }

    /// The body the stream built so far, when it records its turn (`--answer`).
    fn body(&self) -> Option<serde_json::Value> {
        match self {
            RawStream::Sse(stream) => stream.turn().map(|t| t.body()),
            RawStream::Lines(stream) => stream.turn().map(|t| t.body()),
        }
    }

    /// The calls the end completed, or how it failed.
    fn finish(&mut self) -> Result<Vec<ToolCall>, StreamError> {
        match self {
            RawStream::Sse(stream) => stream.finish(),
            RawStream::Lines(stream) => stream.finish(),
        }
    }
}

/// A stream: fed as it is read, each call's line written (and flushed) when its end arrives.
fn read_stream(
    parser: CallParser,
    label: &str,
    mut reader: Box<dyn Read>,
    out: &mut Lines<'_>,
) -> Result<(), Failure> {
    // Converse streams are AWS event-stream frames, which the SDKs decode into events; the
    // command reads those events, one JSON object per line.
    let record = out.collected.is_some();
    let mut stream = match parser.format() {
        CallFormat::Converse if record => RawStream::Lines(parser.json_lines().recording_turn()),
        CallFormat::Converse => RawStream::Lines(parser.json_lines()),
        _ if record => RawStream::Sse(parser.sse().recording_turn()),
        _ => RawStream::Sse(parser.sse()),
    };
    let mut chunk = vec![0; 64 * 1024];
    loop {
        let read = match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(read) => read,
            Err(err) if err.kind() == io::ErrorKind::Interrupted => continue,
            Err(err) => return Err(UnusableInput(format!("{label}: cannot read: {err}")).into()),
        };
        // A fault comes with the push after the calls it followed, or with `finish`.
        let calls = stream
            .push(&chunk[..read])
            .map_err(|err| stream_fault(label, err))?;
        for call in &calls {
            out.call(call)?;
        }
        out.flush()?;
    }
    // Input that is no stream of the format (a body, a page, nothing) is the library's
    // `NotTheFormat`, never a turn without calls.
    // The calls the end ended come first, a fault after them with the next `finish` (a
    // JSON-lines last line that ended a call while another stayed open): print, then ask again
    // until the end is an error or ends nothing more.
    let end = loop {
        match stream.finish() {
            Ok(calls) if calls.is_empty() => break Ok(()),
            Ok(calls) => {
                for call in &calls {
                    out.call(call)?;
                }
            }
            Err(err) => break Err(err),
        }
    };
    if record {
        // Read after `finish`: the turn as the end left it (a last line without its newline
        // recorded, Chat Completions calls the end ended).
        let body = stream.body();
        if let Some(collected) = &mut out.collected {
            collected.body = body;
        }
    }
    match end {
        Ok(()) => Ok(()),
        Err(StreamError::Unfinished {
            calls, cut_event, ..
        }) => {
            for call in &calls {
                out.unfinished(call)?;
            }
            out.all_runnable = false;
            if calls.is_empty() && cut_event {
                out.flush()?;
                eprintln!("toolwire: {label}: the stream ended inside an event, before its end");
            }
            Ok(())
        }
        Err(err) => Err(stream_fault(label, err)),
    }
}

/// A stream fault other than an unfinished call: the input is unusable. Input with no event
/// at all is told what a stream looks like, and that a body is read without --stream.
fn stream_fault(label: &str, err: StreamError) -> Failure {
    let hint = match err {
        StreamError::NotTheFormat {
            format, events: 0, ..
        } => match format {
            CallFormat::Converse => " (a stream is one JSON event per line; a body is read without --stream)",
            _ => " (a stream is server-sent events: `data: {...}` lines, each event ended by a blank line; a body is read without --stream)",
        },
        _ => "",
    };
    UnusableInput(format!("{label}: {err}{hint}")).into()
}

/// One call, as printed.
#[derive(Debug, Serialize)]
struct CallLine<'a> {
    /// The provider's call id, or `null`.
    id: Option<&'a str>,
    /// The called name exactly as emitted (`null`: a cut stream never carried it).
    called: Option<&'a str>,
    /// The Responses API namespace the call was made in, only when it has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    namespace: Option<&'a str>,
    /// The real name it reaches, or `null`.
    to: Option<&'a str>,
    /// `meta`, `exact`, `form` or `unknown`.
    via: &'static str,
    /// The arguments object, or `null` when unusable.
    arguments: Option<&'a Arguments>,
    /// Why the call cannot be run, or `null`.
    error: Option<String>,
}

/// Where the lines go, and whether every call so far can be run.
struct Lines<'a> {
    tools: &'a ToolSet,
    out: BufWriter<io::StdoutLock<'static>>,
    all_runnable: bool,
    /// With `--answer`: the calls are collected here, not printed.
    collected: Option<answer::Collected>,
}

impl Lines<'_> {
    /// Writes one call's line.
    fn call(&mut self, call: &ToolCall) -> Result<(), Failure> {
        if let Some(collected) = &mut self.collected {
            collected.calls.push(call.clone());
            return Ok(());
        }
        let mut errors = Vec::new();
        // A namespaced call is resolved by its (namespace, name) pair, never by the bare name,
        // which could reach another tool of that name (hop 5, `Census::resolve_call`).
        let (to, via) = land(
            self.tools,
            call.namespace.as_deref(),
            &call.name,
            &mut errors,
        );
        if let Err(err) = &call.arguments {
            errors.push(err.to_string());
        }
        let line = CallLine {
            id: call.id.as_deref(),
            called: Some(&call.name),
            namespace: call.namespace.as_deref(),
            to,
            via,
            arguments: call.arguments.as_ref().ok(),
            error: (!errors.is_empty()).then(|| errors.join("; ")),
        };
        self.write(&line)
    }

    /// Writes the line of a call a stream began and never ended.
    fn unfinished(&mut self, call: &UnfinishedCall) -> Result<(), Failure> {
        if let Some(collected) = &mut self.collected {
            collected.unfinished.push(call.clone());
            return Ok(());
        }
        let mut errors = Vec::new();
        let (to, via) = match &call.name {
            Some(name) => land(self.tools, None, name, &mut errors),
            None => (None, "unknown"),
        };
        // The end signal's absence is the call's first fault: its arguments may be cut.
        errors.insert(
            0,
            "the stream ended before this call's end signal: its arguments may be cut".to_owned(),
        );
        let line = CallLine {
            id: call.id.as_deref(),
            called: call.name.as_deref(),
            namespace: None,
            to,
            via,
            arguments: None,
            error: Some(errors.join("; ")),
        };
        self.write(&line)
    }

    fn write(&mut self, line: &CallLine<'_>) -> Result<(), Failure> {
        self.all_runnable &= line.to.is_some() && line.arguments.is_some() && line.error.is_none();
        serde_json::to_writer(&mut self.out, line)
            .map_err(io::Error::from)
            .and_then(|()| self.out.write_all(b"\n"))
            .map_err(|err| Failure::Output(err, EXIT_FOUND))
    }

    fn flush(&mut self) -> Result<(), Failure> {
        self.out
            .flush()
            .map_err(|err| Failure::Output(err, EXIT_FOUND))
    }
}

/// Where `called` (inside `namespace`, for a Responses API namespace tool) lands in `tools`,
/// with why it cannot be run pushed to `errors`.
fn land<'a>(
    tools: &'a ToolSet,
    namespace: Option<&str>,
    called: &'a str,
    errors: &mut Vec<String>,
) -> (Option<&'a str>, &'static str) {
    let resolution = tools.census.resolve_call(namespace, called);
    let (to, via, index) = match resolution {
        Ok(Resolution::Meta(meta)) => (Some(meta), "meta", None),
        Ok(Resolution::Tool(hit)) => (Some(hit.name), hit.via.key(), Some(hit.index)),
        // `Resolution` may grow: a landing this version cannot name reaches no tool.
        Ok(_) | Err(_) => (None, "unknown", None),
    };
    match (to, index) {
        (None, _) => match namespace {
            Some(namespace) => errors.push(format!(
                "{}, in the namespace `{namespace}` (a namespaced call reaches only the one tool that travels under that pair)",
                DispatchError::UnknownTool { called: called.to_owned(), closest: Vec::new() }
            )),
            None => errors.push(why_unknown(&tools.census, called)),
        },
        (Some(to), Some(index)) => {
            if let Some(Some(why)) = tools.unsupported.get(index) {
                errors.push(format!("toolwire cannot run `{to}`: {why}"));
            }
        }
        (Some(_), None) => {}
    }
    (to, via)
}

/// Why no tool answers to `called`, in the runtime's own words (one wording for the command and
/// the answers the model reads): the tools that share it as their form (a call by it cannot be
/// told apart: each is reached by its real name), or the closest forms offered.
fn why_unknown(census: &Census, called: &str) -> String {
    let owned = |names: Vec<&str>| names.into_iter().map(str::to_owned).collect();
    let sharing = census.sharing(called);
    let error = if sharing.is_empty() {
        DispatchError::UnknownTool {
            called: called.to_owned(),
            closest: owned(census.closest_offered(called, 3)),
        }
    } else {
        DispatchError::SharedForm {
            called: called.to_owned(),
            tools: owned(sharing),
        }
    };
    error.to_string()
}
