//! The MCP sources of `census` and `wire`: `--mcp-stdio` (a command to start), `--mcp-http` (a
//! URL to reach, with `--header`s) and `--mcp-config` (every server of an `mcpServers` file, as
//! desktop clients write it), each listed with the real client (`toolwire_core::mcp::list_tools_of`,
//! over `rmcp`) within `--timeout`.
//!
//! Policy: every server the command starts is ended, with its whole process group, on every
//! path: listed, failed, timed out, or the command interrupted (SIGINT, SIGTERM). Each listing
//! owns its connection, and an interrupt drops the listings before the command exits. The
//! servers of a config are listed at once and named as the runtime names them
//! (`mcp/<key>/<tool>`); one that fails is reported by its key and the others are still checked.
//!
//! One job per file:
//! - `command_line.rs`: `--mcp-stdio`'s words, `--header`'s `NAME: VALUE`, `--timeout`'s seconds;
//! - `hints.rs`: core's typed hints (`McpHint::RaiseStartTimeout`) said as the command's flags
//!   (`--timeout`).

mod command_line;
mod hints;

use std::future::Future;
use std::path::Path;
use std::time::Duration;

use toolwire_core::{
    mcp::config::McpConfig,
    mcp::{
        list_tools_with_notes_of, mcp_tool_name, McpCommand, McpHttp, McpOptions, McpServer,
        McpTimeouts,
    },
    runtime::LoadProblem,
    ToolDefinition,
};

pub use command_line::{header, timeout};

use crate::input::UnusableInput;

/// One MCP server to list, as the command line or a config gave it.
pub struct Wanted {
    /// What messages call it: the flag and its value, or the key and the config file.
    label: String,
    /// The name its tools take (`mcp/<name>/<tool>`); `None` keeps the bare names.
    name: Option<String>,
    /// Where it is.
    server: McpServer,
}

impl Wanted {
    /// `--mcp-stdio 'COMMAND ARGS'`, its tools named under `name` if given.
    pub fn stdio(command_line: &str, name: Option<&str>) -> Result<Wanted, UnusableInput> {
        let label = format!("--mcp-stdio {command_line:?}");
        let words = command_line::split_command(command_line)
            .map_err(|why| UnusableInput(format!("{label}: {why}")))?;
        let (program, args) = words
            .split_first()
            .ok_or_else(|| UnusableInput("--mcp-stdio: the command is empty".to_owned()))?;
        let mut command = McpCommand::new(program);
        command.args = args.to_vec();
        Ok(Wanted {
            label,
            name: name.map(str::to_owned),
            server: McpServer::Stdio(command),
        })
    }

    /// `--mcp-http URL` with its `--header`s, its tools named under `name` if given.
    pub fn http(url: &str, headers: &[(String, String)], name: Option<&str>) -> Wanted {
        let mut http = McpHttp::new(url);
        http.headers = headers.to_vec();
        Wanted {
            label: "--mcp-http".to_owned(),
            name: name.map(str::to_owned),
            server: McpServer::Http(http),
        }
    }

    /// Every server of the `mcpServers` config at `path`, each named by its key.
    pub fn config(path: &Path) -> Result<Vec<Wanted>, UnusableInput> {
        let config = McpConfig::read(path).map_err(|err| {
            // A read error names the file itself; the others do not.
            let text = err.to_string();
            UnusableInput(match err {
                toolwire_core::mcp::config::McpConfigError::Read { .. } => text,
                _ => format!("--mcp-config {}: {text}", path.display()),
            })
        })?;
        Ok(config
            .servers
            .into_iter()
            .map(|(key, server)| Wanted {
                label: format!("--mcp-config {}, server {key:?}", path.display()),
                name: Some(key),
                server,
            })
            .collect())
    }
}

impl Wanted {
    /// What messages call it.
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The name its tools take (`mcp/<name>/<tool>`), or `None` for bare names.
    pub fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    /// Where it is.
    pub fn server(&self) -> &McpServer {
        &self.server
    }
}

/// The tools of several servers, checked as one set.
pub struct Listing {
    /// Every listed server's tools, server after server, named as [`Wanted`] says.
    pub tools: Vec<ToolDefinition>,
    /// The name of each tool's server, tool by tool.
    pub servers: Vec<String>,
    /// Each server that could not be listed, named, with why.
    pub failures: Vec<ServerFailure>,
    /// One line per tool read leniently (named as [`Wanted`] says), saying how it was read.
    pub notes: Vec<String>,
}

/// A server that could not be started or listed.
#[derive(Clone, Debug)]
pub struct ServerFailure {
    /// The name its tools would take (`mcp/<server>/<tool>`), or its label when it has none.
    pub server: String,
    /// What went wrong, naming it (its label) and why.
    pub message: String,
}

/// The options `--timeout` gives: it bounds the start and, again, the listing; core's defaults
/// otherwise.
pub fn options(timeout: Option<Duration>) -> McpOptions {
    let mut options = McpOptions::default();
    if let Some(timeout) = timeout {
        options.timeouts = McpTimeouts {
            start: timeout,
            list: timeout,
            ..options.timeouts
        };
    }
    options
}

/// The tools of one server; a server that cannot be listed is unusable input.
pub fn list_one(
    wanted: &Wanted,
    options: &McpOptions,
) -> Result<Vec<ToolDefinition>, UnusableInput> {
    Ok(list_one_with_notes(wanted, options)?.0)
}

/// The tools of one server and a line per tool read leniently; a server that cannot be
/// listed is unusable input.
pub fn list_one_with_notes(
    wanted: &Wanted,
    options: &McpOptions,
) -> Result<(Vec<ToolDefinition>, Vec<String>), UnusableInput> {
    interruptible(list(wanted, options))?
}

/// The tools of every server of `wanted`, listed at once. A server that cannot be listed is a
/// failure beside the others' tools; when every server fails, the input is unusable.
pub fn list_all(wanted: &[Wanted], options: &McpOptions) -> Result<Listing, UnusableInput> {
    let listed = interruptible(futures::future::join_all(
        wanted.iter().map(|w| list(w, options)),
    ))?;
    let mut listing = Listing {
        tools: Vec::new(),
        servers: Vec::new(),
        failures: Vec::new(),
        notes: Vec::new(),
    };
    for (wanted, listed) in wanted.iter().zip(listed) {
        match listed {
            Ok((tools, notes)) => {
                let name = wanted.name.clone().unwrap_or_default();
                listing.servers.extend(tools.iter().map(|_| name.clone()));
                listing.tools.extend(tools);
                listing.notes.extend(notes);
            }
            Err(UnusableInput(message)) => listing.failures.push(ServerFailure {
                server: wanted.name.clone().unwrap_or_else(|| wanted.label.clone()),
                message,
            }),
        }
    }
    if !wanted.is_empty() && listing.failures.len() == wanted.len() {
        let messages: Vec<&str> = listing
            .failures
            .iter()
            .map(|f| f.message.as_str())
            .collect();
        return Err(UnusableInput(messages.join("\ntoolwire: ")));
    }
    Ok(listing)
}

/// Lists `wanted`'s tools, named as it says; the connection (and a stdio server's process
/// group) ends when this returns or is dropped.
async fn list(
    wanted: &Wanted,
    options: &McpOptions,
) -> Result<(Vec<ToolDefinition>, Vec<String>), UnusableInput> {
    let listed = list_tools_with_notes_of(&wanted.server, options)
        .await
        .map_err(|err| UnusableInput(format!("{}: {}", wanted.label, hints::in_flags(&err))))?;
    let named = |tool: &str| match &wanted.name {
        Some(name) => mcp_tool_name(name, tool),
        None => tool.to_owned(),
    };
    let mut tools = listed.tools;
    for tool in &mut tools {
        tool.name = named(&tool.name);
    }
    // A tool read leniently is offered like the others; its line says how it was read.
    let notes = (listed.notes.iter())
        .filter_map(|note| match note {
            LoadProblem::ReadLeniently { tool, reading } => {
                Some(format!("{}: `{}`: {reading}", wanted.label, named(tool)))
            }
            _ => None,
        })
        .collect();
    Ok((tools, notes))
}

/// Runs `work` to its end, or until the command is interrupted (SIGINT, SIGTERM): then `work`
/// is dropped, which ends every server it started, and the interrupt is the error.
fn interruptible<F: Future>(work: F) -> Result<F::Output, UnusableInput> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|err| UnusableInput(format!("cannot start the async runtime: {err}")))?;
    runtime.block_on(async {
        let interrupted = interrupt()
            .map_err(|err| UnusableInput(format!("cannot watch for interrupts: {err}")))?;
        tokio::select! {
            done = work => Ok(done),
            signal = interrupted => Err(UnusableInput(format!(
                "interrupted by {signal}; the MCP servers it started are ended"
            ))),
        }
    })
}

/// A future that ends with the name of the first SIGINT or SIGTERM; both are watched from the
/// moment this returns, before any server starts.
pub(crate) fn interrupt() -> std::io::Result<impl Future<Output = &'static str>> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        let mut int = signal(SignalKind::interrupt())?;
        let mut term = signal(SignalKind::terminate())?;
        Ok(async move {
            tokio::select! {
                _ = int.recv() => "SIGINT",
                _ = term.recv() => "SIGTERM",
            }
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            let _ = tokio::signal::ctrl_c().await;
            "Ctrl-C"
        })
    }
}
