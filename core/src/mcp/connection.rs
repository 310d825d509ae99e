//! One live connection to an MCP server: started (stdio) or reached (streamable HTTP), with
//! the MCP handshake done.
//!
//! Policy: a connection owns everything its server is: the `rmcp` client, and for a stdio
//! server its process group and stderr tail. Dropping the connection ends all of it, on every
//! path, including a start that timed out halfway.

use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use rmcp::service::{NotificationContext, RoleClient, RunningService, ServiceExt};
use rmcp::ClientHandler;
use tokio::sync::watch;

use super::error::{self, McpError, McpHint};
use super::options::McpTimeouts;
use super::process_group::ProcessGroup;
use super::server::{McpCommand, McpHttp, McpServer};
use super::stderr_tail::StderrTail;
use super::stdout_tap::{TapVerdict, Tapped, TaskRequired};

/// How long a failure waits for a stdio server's stderr to end before it is explained: the
/// server has exited (or been killed) by then, so this bounds only a grandchild that keeps the
/// pipe open.
const STDERR_SETTLE: Duration = Duration::from_secs(2);

/// The client side of a connection: bumps the provider's change counter on each
/// `notifications/tools/list_changed`.
pub(crate) struct ChangeSignal {
    pub(crate) changed: Arc<watch::Sender<u64>>,
}

impl ClientHandler for ChangeSignal {
    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        self.changed.send_modify(|n| *n = n.wrapping_add(1));
    }
}

pub(crate) type Client = RunningService<RoleClient, ChangeSignal>;

/// A live connection: the client, and what a stdio server leaves to end and to explain.
pub(crate) struct Connection {
    pub(crate) client: Client,
    /// The stdio server's process group; `None` for HTTP.
    group: Option<ProcessGroup>,
    /// The stdio server's stderr tail; `None` for HTTP.
    tail: Option<StderrTail>,
    /// The stdio server's process (killed and reaped when dropped); `None` for HTTP.
    _child: Option<tokio::process::Child>,
    /// The tools whose listing says they require MCP tasks (stdio only: see `stdout_tap.rs`).
    task_required: TaskRequired,
    /// Why the stdio tap ended the connection, if it did.
    verdict: TapVerdict,
}

impl Connection {
    /// Ends the server now (kills a stdio server's whole group).
    pub(crate) fn kill(&self) {
        if let Some(group) = &self.group {
            group.kill();
        }
        self.client.cancellation_token().cancel();
    }

    /// Whether the server's last listing said tool `bare` requires MCP tasks.
    pub(crate) fn requires_tasks(&self, bare: &str) -> bool {
        self.task_required
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .contains(bare)
    }

    /// The server's last stderr lines as a message suffix, once its stderr has ended (bounded):
    /// call after the server failed.
    pub(crate) async fn explain(&self) -> String {
        format!(
            "{}{}",
            verdict_of(&self.verdict),
            explain(self.tail.as_ref()).await
        )
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The tap's verdict as a message suffix: empty when it ended nothing.
fn verdict_of(verdict: &TapVerdict) -> String {
    match &*verdict.lock().unwrap_or_else(|p| p.into_inner()) {
        Some(why) => format!(" ({why})"),
        None => String::new(),
    }
}

async fn explain(tail: Option<&StderrTail>) -> String {
    match tail {
        Some(tail) => {
            tail.settle(STDERR_SETTLE).await;
            tail.explain()
        }
        None => String::new(),
    }
}

/// Starts or reaches `server` and does the MCP handshake, within `timeouts.start`.
pub(crate) async fn connect(
    server: &McpServer,
    timeouts: &McpTimeouts,
    changed: Arc<watch::Sender<u64>>,
) -> Result<Connection, McpError> {
    let handler = ChangeSignal { changed };
    match server {
        McpServer::Stdio(command) => connect_stdio(command, timeouts.start, handler).await,
        McpServer::Http(http) => connect_http(http, timeouts.start, handler).await,
    }
}

fn start_timeout(target: &str, timeout: Duration, detail: String) -> McpError {
    McpError::Timeout {
        program: target.to_owned(),
        millis: timeout.as_millis() as u64,
        reason: "the MCP handshake did not finish".to_owned(),
        hint: Some(McpHint::RaiseStartTimeout),
        detail,
    }
}

async fn connect_stdio(
    command: &McpCommand,
    timeout: Duration,
    handler: ChangeSignal,
) -> Result<Connection, McpError> {
    let mut cmd = tokio::process::Command::new(&command.program);
    cmd.args(&command.args)
        .envs(command.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    if let Some(dir) = &command.cwd {
        cmd.current_dir(dir);
    }
    #[cfg(unix)]
    cmd.process_group(0);
    let mut child = cmd.spawn().map_err(|e| McpError::Spawn {
        program: command.program.clone(),
        reason: match &command.cwd {
            Some(dir) => format!("{e} (in directory {})", dir.display()),
            None => e.to_string(),
        },
    })?;
    // Held from here on: any early return below kills the whole group.
    let group = ProcessGroup::led_by(child.id());
    let tail = child.stderr.take().map(StderrTail::read);
    let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
        unreachable!("stdin and stdout are piped above")
    };
    let task_required = TaskRequired::default();
    let verdict = TapVerdict::default();
    // The client reads stdout through the tap itself: no task, no pipe (`stdout_tap.rs`).
    let client_end = Tapped::new(stdout, task_required.clone(), verdict.clone());
    let served = tokio::time::timeout(timeout, handler.serve((client_end, stdin))).await;
    match served {
        Ok(Ok(client)) => Ok(Connection {
            client,
            group: Some(group),
            tail,
            _child: Some(child),
            task_required,
            verdict,
        }),
        Ok(Err(e)) => {
            group.kill();
            let why = error::handshake(&e);
            Err(McpError::Protocol {
                program: command.program.clone(),
                reason: why.text,
                hint: why.hint,
                detail: format!("{}{}", verdict_of(&verdict), explain(tail.as_ref()).await),
            })
        }
        Err(_) => {
            group.kill();
            Err(start_timeout(
                &command.program,
                timeout,
                explain(tail.as_ref()).await,
            ))
        }
    }
}

async fn connect_http(
    http: &McpHttp,
    timeout: Duration,
    handler: ChangeSignal,
) -> Result<Connection, McpError> {
    use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
    use rmcp::transport::StreamableHttpClientTransport;

    let bad = |reason: String| McpError::BadServer {
        target: http.url.clone(),
        reason,
        hint: None,
    };
    let scheme_ok = http.url.starts_with("http://") || http.url.starts_with("https://");
    if !scheme_ok {
        return Err(bad("the URL must start with http:// or https://".to_owned()));
    }
    if cfg!(not(feature = "mcp-tls")) && http.url.starts_with("https://") {
        return Err(McpError::BadServer {
            target: http.url.clone(),
            reason: "this build speaks http:// only".to_owned(),
            hint: Some(McpHint::EnableTls),
        });
    }
    let mut headers = std::collections::HashMap::new();
    for (name, value) in &http.headers {
        let header = http::HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| bad(format!("`{name}` is not a valid HTTP header name")))?;
        let mut value = http::HeaderValue::from_str(value).map_err(|_| {
            bad(format!(
                "the value of header `{name}` is not a valid HTTP header value"
            ))
        })?;
        value.set_sensitive(true);
        headers.insert(header, value);
    }
    let config =
        StreamableHttpClientTransportConfig::with_uri(http.url.as_str()).custom_headers(headers);
    let transport = StreamableHttpClientTransport::from_config(config);
    match tokio::time::timeout(timeout, handler.serve(transport)).await {
        Ok(Ok(client)) => Ok(Connection {
            client,
            group: None,
            tail: None,
            _child: None,
            task_required: TaskRequired::default(),
            verdict: TapVerdict::default(),
        }),
        Ok(Err(e)) => {
            let why = error::handshake(&e);
            Err(McpError::Protocol {
                program: http.url.clone(),
                reason: why.text,
                hint: why.hint,
                detail: String::new(),
            })
        }
        Err(_) => Err(start_timeout(&http.url, timeout, String::new())),
    }
}
