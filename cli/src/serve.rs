//! `toolwire serve`: the gateway. The tools of every MCP server given (`--mcp-stdio`,
//! `--mcp-http`, `--mcp-config`, each repeatable) served as one MCP server, over stdio or
//! streamable HTTP, each tool under a name every client accepts, each call reaching exactly its
//! backend tool (hop 5: a lookup, never a split on a separator).
//!
//! Policy: the census is printed on stderr at start (what is served, and every tool left out
//! with why); backends start once and serve every session; a crashed backend answers its call
//! with its stderr and is restarted before its next call (`--restarts`); every backend's process
//! group is ended when serving ends: stdin closed (stdio), SIGINT or SIGTERM.

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::{Args, ValueEnum};
use toolwire_core::census::NameBudget;
use toolwire_core::mcp::config::McpConfig;
use toolwire_core::mcp::serve::{HttpOptions, ServeOptions, ServedListing, ToolServer};
use toolwire_core::mcp::{McpCommand, McpHttp, McpOptions, McpProvider, McpServer, McpTimeouts};
use toolwire_core::runtime::CatalogPolicy;
use toolwire_core::ToolRuntime;

use crate::args::DialectKey;
use crate::exit::{Failure, EXIT_OK};
use crate::input::UnusableInput;
use crate::mcp;

/// The environment variable `--token` defaults to, so a token need not be on the command line
/// (where `ps` shows it).
pub const TOKEN_VARIABLE: &str = "TOOLWIRE_SERVE_TOKEN";

/// Serve the tools of MCP servers as one MCP server (a gateway): each tool under a name every
/// client and LLM API accepts (cut to --max-name-len for a client that prefixes names), each
/// call reaching exactly its tool. The census goes to stderr at start. Serves stdio unless
/// --http is given; ends every server it started when stdin closes, or on SIGINT or SIGTERM.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Start this MCP server over stdio (repeatable): `'COMMAND ARGS'`, or `'NAME=COMMAND
    /// ARGS'` to name its tools `mcp/NAME/TOOL` (else NAME is the program's file name).
    #[arg(long, value_name = "[NAME=]COMMAND ARGS")]
    mcp_stdio: Vec<String>,
    /// Reach this MCP server over streamable HTTP (repeatable): `URL`, or `NAME=URL` (else
    /// NAME is `http`).
    #[arg(long, value_name = "[NAME=]URL")]
    mcp_http: Vec<String>,
    /// A header every request to the --mcp-http servers carries (repeatable), e.g.
    /// 'Authorization: Bearer TOKEN'.
    #[arg(long = "header", value_name = "NAME: VALUE", value_parser = mcp::header)]
    headers: Vec<(String, String)>,
    /// Every server of this `mcpServers` config, each named by its key (repeatable).
    #[arg(long, value_name = "FILE")]
    mcp_config: Vec<PathBuf>,
    /// Serve streamable HTTP on this address (e.g. 127.0.0.1:8080; port 0 picks one) instead
    /// of stdio; the URL is printed on stderr. Only loopback unless --allow-remote.
    #[arg(long, value_name = "ADDR")]
    http: Option<SocketAddr>,
    /// Let --http bind an address other than loopback (the MCP transport spec: a local server
    /// SHOULD bind only to localhost). Requires a token (--token or $TOOLWIRE_SERVE_TOKEN);
    /// name the host remote clients reach it by with --allowed-host.
    #[arg(long, requires = "http")]
    allow_remote: bool,
    /// Accept requests whose `Host` is NAME (repeatable): the name or address remote clients
    /// reach the gateway by (`NAME` for any port, `NAME:PORT` for one). Only loopback names
    /// otherwise.
    #[arg(long = "allowed-host", value_name = "NAME", requires = "http")]
    allowed_hosts: Vec<String>,
    /// Every HTTP request must carry `Authorization: Bearer TOKEN` (else 401); defaults to
    /// $TOOLWIRE_SERVE_TOKEN.
    #[arg(long, value_name = "TOKEN", requires = "http", value_parser = secret)]
    token: Option<Secret>,
    /// The longest served name, 1 to 64 (for a client that adds its own prefix).
    #[arg(long, value_name = "N", conflicts_with = "client")]
    max_name_len: Option<usize>,
    /// Fit the names to this client serving the gateway as --name: `claude-code` (64 less
    /// `mcp__NAME__`) or `cursor` (60 less NAME).
    #[arg(long, value_name = "CLIENT")]
    client: Option<ClientKey>,
    /// The gateway's server name, as clients are configured with it (for --client).
    #[arg(long, value_name = "NAME", default_value = "toolwire")]
    name: String,
    /// `all`: tools/list gives every tool; `deferred`: the meta-tools and the pinned tools,
    /// plus what a legacy session loaded (tool_search, tool_schema, reset_tools); a 2026-07-28
    /// client's list never changes (tool_search, tool_schema, tool_call).
    #[arg(long, value_name = "CATALOG", default_value = "all")]
    catalog: CatalogKey,
    /// Prepare every inputSchema for this dialect (else each is served as its server gave it).
    #[arg(long, value_name = "DIALECT")]
    dialect: Option<DialectKey>,
    /// How many times a crashed server is restarted (each before its next call).
    #[arg(long, value_name = "N", default_value_t = 3)]
    restarts: u32,
    /// How long a server may take to start, and then to list its tools, in seconds (30 each
    /// by default).
    #[arg(long, value_name = "SECONDS", value_parser = mcp::timeout)]
    timeout: Option<Duration>,
}

/// A token given on the command line: its `Debug` (the arguments' own) never shows it.
#[derive(Clone)]
struct Secret(String);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("<hidden>")
    }
}

fn secret(text: &str) -> Result<Secret, String> {
    // An empty token would be a gateway anyone can use that says it needs one.
    if text.is_empty() {
        return Err("the token is empty".to_owned());
    }
    Ok(Secret(text.to_owned()))
}

/// Whether `host` (an `--allowed-host` value: `NAME` or `NAME:PORT`) names this machine only.
fn is_loopback_host(host: &str) -> bool {
    let name = match host.rsplit_once(':') {
        // `[::1]:8080`, `localhost:8080`; a bare `::1` has colons but no port.
        Some((name, port)) if port.bytes().all(|b| b.is_ascii_digit()) && !name.ends_with(':') => {
            name
        }
        _ => host,
    };
    let name = name.trim_start_matches('[').trim_end_matches(']');
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// `--client`: the clients whose own name limits toolwire knows.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum ClientKey {
    /// Claude Code: `mcp__<server>__<tool>` within 64 characters.
    ClaudeCode,
    /// Cursor: server and tool name within 60 characters.
    Cursor,
}

/// `--catalog`.
#[derive(Clone, Copy, Debug, ValueEnum)]
enum CatalogKey {
    /// Every tool is listed.
    All,
    /// The meta-tools and what each session loaded.
    Deferred,
}

/// One backend to start or reach: its name (`mcp/<name>/<tool>`) and where it is.
struct Backend {
    name: String,
    server: McpServer,
}

impl ServeArgs {
    fn budget(&self) -> Result<NameBudget, UnusableInput> {
        let budget = match (self.client, self.max_name_len) {
            (Some(ClientKey::ClaudeCode), _) => NameBudget::claude_code(&self.name),
            (Some(ClientKey::Cursor), _) => NameBudget::cursor(&self.name),
            (None, Some(chars)) => NameBudget::new(chars),
            (None, None) => Ok(NameBudget::FULL),
        };
        budget.map_err(|err| UnusableInput(format!("--max-name-len / --client: {err}")))
    }

    fn backends(&self) -> Result<Vec<Backend>, UnusableInput> {
        let mut backends = Vec::new();
        for line in &self.mcp_stdio {
            let (name, line) = named(line);
            let words = shlex::split(line).ok_or_else(|| {
                UnusableInput(format!("--mcp-stdio {line:?}: a quote is not closed"))
            })?;
            let (program, args) = words
                .split_first()
                .ok_or_else(|| UnusableInput("--mcp-stdio: the command is empty".to_owned()))?;
            let name = name.map(str::to_owned).unwrap_or_else(|| {
                std::path::Path::new(program)
                    .file_name()
                    .map_or_else(|| "stdio".to_owned(), |f| f.to_string_lossy().into_owned())
            });
            let mut command = McpCommand::new(program);
            command.args = args.to_vec();
            backends.push(Backend {
                name,
                server: McpServer::Stdio(command),
            });
        }
        for url in &self.mcp_http {
            let (name, url) = named(url);
            let mut http = McpHttp::new(url);
            http.headers = self.headers.clone();
            backends.push(Backend {
                name: name.unwrap_or("http").to_owned(),
                server: McpServer::Http(http),
            });
        }
        for path in &self.mcp_config {
            let config = McpConfig::read(path)
                .map_err(|err| UnusableInput(format!("--mcp-config {}: {err}", path.display())))?;
            backends.extend(
                config
                    .servers
                    .into_iter()
                    .map(|(name, server)| Backend { name, server }),
            );
        }
        if backends.is_empty() {
            return Err(UnusableInput(
                "no MCP server to serve: give --mcp-stdio, --mcp-http or --mcp-config".to_owned(),
            ));
        }
        // Two backends of one name would be one provider: the later ones are numbered.
        let mut seen = std::collections::BTreeMap::<String, u32>::new();
        for backend in &mut backends {
            let count = seen.entry(backend.name.clone()).or_insert(0);
            *count += 1;
            if *count > 1 {
                backend.name = format!("{}-{count}", backend.name);
            }
        }
        Ok(backends)
    }

    fn options(&self) -> McpOptions {
        let mut options = McpOptions::default();
        if let Some(timeout) = self.timeout {
            options.timeouts = McpTimeouts {
                start: timeout,
                list: timeout,
                ..options.timeouts
            };
        }
        options
    }
}

/// `NAME=REST` → (`Some(NAME)`, REST) when NAME is a server name (`[A-Za-z0-9_-]+`); else the
/// whole text.
fn named(text: &str) -> (Option<&str>, &str) {
    match text.split_once('=') {
        Some((name, rest))
            if !name.is_empty()
                && name
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-') =>
        {
            (Some(name), rest)
        }
        _ => (None, text),
    }
}

/// Runs `toolwire serve`: 0 when serving ended (stdin closed, SIGINT, SIGTERM), 2 when it
/// could not start (no backend reachable, a bad flag, the address taken).
pub fn run(args: &ServeArgs) -> Result<u8, Failure> {
    let budget = args.budget()?;
    let backends = args.backends()?;
    if let Some(addr) = args.http {
        if !addr.ip().is_loopback() && !args.allow_remote {
            return Err(UnusableInput(format!(
                "--http {addr}: not a loopback address; a local MCP server should bind only to \
                 localhost (give --allow-remote to bind it anyway)"
            ))
            .into());
        }
    }
    let token = args
        .token
        .clone()
        .map(|Secret(token)| token)
        .or_else(|| std::env::var(TOKEN_VARIABLE).ok().filter(|t| !t.is_empty()));
    if let Some(addr) = args.http.filter(|addr| !addr.ip().is_loopback()) {
        // Without a token, any client that can reach the address (sending `Host: localhost`
        // passes the DNS-rebinding check) would run every backend's tools.
        if token.is_none() {
            return Err(UnusableInput(format!(
                "--http {addr} --allow-remote: a gateway others can reach needs a token; give \
                 --token TOKEN or set ${TOKEN_VARIABLE}"
            ))
            .into());
        }
    }
    // A Host that is not this machine's means clients elsewhere (behind a load balancer on a
    // public name, say), even when the gateway itself binds loopback: the same rule.
    if let Some(host) = args.allowed_hosts.iter().find(|h| !is_loopback_host(h)) {
        if token.is_none() {
            return Err(UnusableInput(format!(
                "--allowed-host {host}: a gateway whose clients are elsewhere needs a token; \
                 give --token TOKEN or set ${TOKEN_VARIABLE}"
            ))
            .into());
        }
    }
    let runtime = serving_runtime(args.http.is_some())
        .map_err(|err| UnusableInput(format!("cannot start the async runtime: {err}")))?;
    runtime.block_on(async {
        let interrupted = mcp::interrupt()
            .map_err(|err| UnusableInput(format!("cannot watch for interrupts: {err}")))?;
        let catalog = match args.catalog {
            CatalogKey::All => CatalogPolicy::All,
            CatalogKey::Deferred => CatalogPolicy::deferred(Vec::<String>::new()).with_threshold(0),
        };
        let tools = ToolRuntime::builder()
            .catalog(catalog)
            .build()
            .map_err(|err| UnusableInput(err.to_string()))?;
        let names = start_backends(&tools, &backends, &args.options()).await?;
        let mut options = ServeOptions::default()
            .budget(budget)
            .restarts(args.restarts)
            .server_name(args.name.clone());
        if let Some(DialectKey(dialect)) = args.dialect {
            options = options.dialect(dialect);
        }
        let server = ToolServer::new(tools.clone(), options);
        let listing = server.listing();
        // A 2026-07-28 client of a deferred catalog lists only the meta-tools, so a tool it
        // finds runs through `tool_call` alone: a dialect that refuses `tool_call`'s schema (a
        // strict one: its `arguments` is an object of any keys) leaves it no way to run one.
        if matches!(args.catalog, CatalogKey::Deferred) {
            if let Some(refused) = listing.left_out.iter().find(|t| t.name == "tool_call") {
                return Err(UnusableInput(format!(
                    "--catalog deferred: `tool_call` cannot be served ({}), so a 2026-07-28 \
                     client could not run the tools it finds; choose another --dialect or \
                     --catalog all",
                    refused.reason
                ))
                .into());
            }
        }
        print_census(&listing, budget);
        show_serving_warnings();
        let serving = async {
            match args.http {
                None => server.serve_stdio().await,
                Some(addr) => {
                    let listener = tokio::net::TcpListener::bind(addr).await.map_err(|err| {
                        format!("--http {addr}: cannot listen: {err}").to_string()
                    })?;
                    let local = listener.local_addr().map_err(|e| e.to_string())?;
                    eprintln!("toolwire serve: listening on http://{local}/mcp");
                    eprintln!("toolwire serve: the Tools page is http://{local}/tools");
                    let mut http = HttpOptions::default();
                    http.token = token;
                    for host in &args.allowed_hosts {
                        http = http.allowed_host(host.clone());
                    }
                    server.serve_http(listener, http).await
                }
            }
        };
        let ended = tokio::select! {
            served = serving => served.map_err(|err| err.to_string()),
            signal = interrupted => {
                eprintln!("toolwire serve: {signal}: ending every server it started");
                Ok(())
            }
        };
        // Every backend's process group ends now, whoever still holds a provider.
        for name in &names {
            tools.remove_provider(name);
        }
        ended
            .map(|()| EXIT_OK)
            .map_err(|err| Failure::Input(UnusableInput(err)))
    })
}

/// The runtime `toolwire serve` runs on. Over HTTP, many clients at once: a worker per core.
/// Over stdio, one client whose calls come in order: one thread, so every wake-up of a call's
/// path (the client's request read, rmcp's handler task, the backend's answer, the response
/// written) is a push onto that thread's own queue, never a cross-thread unpark (a futex wake
/// and a task switch per hop, what the gateway hop's profile in `docs/performance.md` showed).
/// Blocking work still has tokio's blocking pool (`spawn_blocking` runs on any runtime), and
/// the backends' processes, pipes, timers and signals are on the same reactor either way.
fn serving_runtime(http: bool) -> std::io::Result<tokio::runtime::Runtime> {
    let mut builder = if http {
        tokio::runtime::Builder::new_multi_thread()
    } else {
        tokio::runtime::Builder::new_current_thread()
    };
    builder.enable_all().build()
}

/// Starts or reaches every backend at once and adds it to `tools`; one that fails is said on
/// stderr and the others serve. Returns the providers' names; none at all is unusable.
async fn start_backends(
    tools: &ToolRuntime,
    backends: &[Backend],
    options: &McpOptions,
) -> Result<Vec<String>, UnusableInput> {
    let started = futures::future::join_all(
        backends
            .iter()
            .map(|b| McpProvider::connect_with(b.name.clone(), b.server.clone(), *options)),
    )
    .await;
    let mut names = Vec::new();
    for (backend, started) in backends.iter().zip(started) {
        match started {
            Ok(provider) => {
                // The gateway serves a backend's error result as it came (every block kept),
                // not as a typed error of its text.
                let provider = Arc::new(provider.with_error_results_kept());
                let name = toolwire_core::provider::ToolProvider::name(&*provider).to_owned();
                // A load with problems (a clash) still serves what it can: the census says.
                if let Err(err) = tools.add_provider(provider).await {
                    eprintln!("toolwire serve: server {:?}: {err}", backend.name);
                    continue;
                }
                names.push(name);
            }
            Err(err) => eprintln!("toolwire serve: server {:?}: {err}", backend.name),
        }
    }
    if names.is_empty() {
        return Err(UnusableInput(
            "no MCP server could be started or reached".to_owned(),
        ));
    }
    Ok(names)
}

/// The census on stderr: each served name with its real name, then each tool left out with
/// why (best effort: stderr that cannot be written is not a reason to stop serving).
fn print_census(listing: &ServedListing, budget: NameBudget) {
    let mut err = std::io::stderr().lock();
    let _ = writeln!(
        err,
        "toolwire serve: {} tools served (names of at most {}), {} left out",
        listing.tools.len(),
        budget,
        listing.left_out.len()
    );
    for (tool, real) in listing.tools.iter().zip(&listing.real_names) {
        let _ = writeln!(err, "  served  {:<40} {real}", tool.name);
    }
    for left in &listing.left_out {
        let _ = writeln!(err, "  left out  {left}");
    }
}

/// The serving side's warnings on stderr, as they happen: an accept error it survives, the
/// connection cap reached, a served call that failed with the backend's stderr (which its
/// client does not read). Only `toolwire_core::mcp::serve`'s, so the census stays the first
/// thing printed. Best effort: a subscriber already set (an embedding) is kept.
fn show_serving_warnings() {
    use tracing_subscriber::prelude::*;
    let only_serving = tracing_subscriber::filter::Targets::new()
        .with_target("toolwire_core::mcp::serve", tracing::Level::WARN);
    let print = tracing_subscriber::fmt::layer()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .without_time()
        .with_target(false);
    let _ = tracing_subscriber::registry()
        .with(print.with_filter(only_serving))
        .try_init();
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use tokio::runtime::RuntimeFlavor;

    use super::serving_runtime;

    #[test]
    fn stdio_serves_on_one_thread_and_http_on_workers() {
        let stdio = serving_runtime(false).unwrap();
        assert_eq!(
            stdio.handle().runtime_flavor(),
            RuntimeFlavor::CurrentThread
        );
        let http = serving_runtime(true).unwrap();
        assert_eq!(http.handle().runtime_flavor(), RuntimeFlavor::MultiThread);
    }

    #[test]
    fn the_stdio_runtime_runs_blocking_work_timers_and_pipes() {
        let stdio = serving_runtime(false).unwrap();
        let serving_thread = std::thread::current().id();
        stdio.block_on(async {
            // Blocking work goes to the blocking pool, off the one serving thread.
            let ran_on = tokio::task::spawn_blocking(|| std::thread::current().id())
                .await
                .unwrap();
            assert_ne!(ran_on, serving_thread);
            // A timeout needs the time driver (tokio panics without it); this one never fires.
            let answered = tokio::time::timeout(Duration::from_secs(60), async {
                // A pipe needs the I/O driver, as a backend's stdio does.
                use tokio::io::{AsyncReadExt, AsyncWriteExt};
                let (mut a, mut b) = tokio::net::UnixStream::pair().unwrap();
                a.write_all(b"ping").await.unwrap();
                let mut got = [0u8; 4];
                b.read_exact(&mut got).await.unwrap();
                got
            })
            .await;
            assert_eq!(answered.unwrap(), *b"ping");
        });
    }
}
