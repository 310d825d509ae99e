//! One live connection to an MCP server: started (stdio) or reached (streamable HTTP), with
//! the MCP handshake done in whichever era the server speaks (`era.rs`).
//!
//! Policy: a connection owns everything its server is: the `rmcp` client, its
//! `subscriptions/listen` stream, and for a stdio server its process group and stderr tail.
//! Dropping the connection ends all of it, on every path, including a start that timed out
//! halfway. A stdio server that exits on `server/discover` is started once more and spoken to
//! with `initialize`, within what is left of the same start timeout.

use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{ProtocolVersion, ServerNotification, SubscriptionFilter};
use rmcp::service::{
    ClientInitializeError, ClientServiceExt, NotificationContext, RoleClient, RunningService,
};
use rmcp::transport::async_rw::AsyncRwTransport;
use rmcp::ClientHandler;
use tokio::sync::watch;
use tokio::time::Instant;

use super::era::{probe_budget, DiscoverBudget, EraMemory, Known, OnSilence, ProbeSeen};
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
/// `notifications/tools/list_changed` a legacy server sends (a 2026-07-28 server's come on the
/// `subscriptions/listen` stream instead: see [`listen_for_changes`]).
#[derive(Clone)]
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
    /// The protocol version negotiated (`server/discover` or `initialize`).
    version: ProtocolVersion,
    /// The task reading the `subscriptions/listen` stream (2026-07-28), ended with the
    /// connection.
    listener: Option<tokio::task::JoinHandle<()>>,
}

impl Connection {
    /// The protocol version negotiated with the server.
    pub(crate) fn protocol_version(&self) -> &ProtocolVersion {
        &self.version
    }

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
        let (verdict, tail) = self.explain_apart().await;
        format!("{verdict}{tail}")
    }

    /// The stdio server's stderr lines so far, as a message suffix, without waiting for its
    /// stderr to end: for a server that is still running.
    pub(crate) fn tail_so_far(&self) -> String {
        self.tail
            .as_ref()
            .map_or_else(String::new, StderrTail::explain)
    }

    /// [`Connection::explain`] in two parts: the tap's verdict (toolwire's own words) and the
    /// server's stderr tail (its words, which a gateway keeps from its remote clients).
    pub(crate) async fn explain_apart(&self) -> (String, String) {
        (verdict_of(&self.verdict), explain(self.tail.as_ref()).await)
    }
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.kill();
        if let Some(listener) = &self.listener {
            listener.abort();
        }
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

/// Starts or reaches `server` and does the MCP handshake, within `timeouts.start`: in the era
/// `memory` remembers for it, or found by rmcp's `Auto` probe (bounded by
/// [`probe_budget`]). A 2026-07-28 server that can announce list changes is subscribed to
/// them (`subscriptions/listen`) before this returns.
pub(crate) async fn connect(
    server: &McpServer,
    timeouts: &McpTimeouts,
    changed: Arc<watch::Sender<u64>>,
    memory: &EraMemory,
) -> Result<Connection, McpError> {
    let handler = ChangeSignal {
        changed: changed.clone(),
    };
    let deadline = Instant::now() + timeouts.start;
    let attempt = |known: Option<Known>| {
        let handler = handler.clone();
        async move {
            match server {
                McpServer::Stdio(command) => {
                    connect_stdio(command, deadline, timeouts.start, handler, known).await
                }
                McpServer::Http(http) => {
                    connect_http(http, deadline, timeouts.start, handler, known).await
                }
            }
        }
    };
    let mut known = memory.recall(server);
    let mut connected = attempt(known.clone()).await;
    if connected.is_err() && known.is_some() && Instant::now() < deadline {
        // What was remembered may be what is wrong (the server changed era, or another server
        // now has the origin): forgotten, and the server probed, in what is left of the start.
        memory.remember(server, None);
        known = None;
        connected = attempt(None).await;
    }
    let connected = match connected {
        Err(failed) if known.is_none() && failed.ended_on_probe => {
            // An older SDK's server that exits on a method it does not know (rmcp's `Auto`
            // cannot fall back on a closed pipe), or an HTTP server silent on the probe:
            // started again (reached again) and spoken to in its own era.
            tracing::info!(
                server = server.target(),
                "no answer to server/discover; starting again with initialize"
            );
            attempt(Some(Known::Legacy)).await
        }
        other => other,
    };
    match connected {
        Ok(mut connection) => {
            memory.remember(server, Some(Known::of(&connection.version)));
            connection.listener = listen_for_changes(&connection.client, deadline, changed).await;
            Ok(connection)
        }
        Err(failed) => Err(failed.error),
    }
}

/// A start that failed, and whether it failed on the probe itself (see
/// [`ProbeSeen::ended_on_probe`]).
struct Failed {
    error: McpError,
    ended_on_probe: bool,
}

impl From<McpError> for Failed {
    fn from(error: McpError) -> Failed {
        Failed {
            error,
            ended_on_probe: false,
        }
    }
}

/// Subscribes to a 2026-07-28 server's tool-list changes and bumps `changed` on each (MCP
/// 2026-07-28: `notifications/tools/list_changed` travels only on a `subscriptions/listen`
/// stream; rmcp 3.11 `Peer::listen`, `Subscription::next`). `None` for a legacy server, one
/// that does not announce list changes (`capabilities.tools.listChanged`), or one that refuses
/// the subscription (a warning: its list is then read again only on a reload or when its
/// `ttlMs` runs out).
async fn listen_for_changes(
    client: &Client,
    deadline: Instant,
    changed: Arc<watch::Sender<u64>>,
) -> Option<tokio::task::JoinHandle<()>> {
    let info = client.peer_info()?;
    let announces = info
        .capabilities
        .tools
        .as_ref()
        .and_then(|tools| tools.list_changed)
        == Some(true);
    if info.protocol_version.has_initialize() || !announces {
        return None;
    }
    let filter = SubscriptionFilter::builder().tools_list_changed().build();
    let mut subscription = match tokio::time::timeout_at(deadline, client.peer().listen(filter))
        .await
    {
        Ok(Ok(subscription)) => subscription,
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "the server refused subscriptions/listen; its list changes are not followed");
            return None;
        }
        Err(_) => {
            tracing::warn!("subscriptions/listen was not acknowledged in time; the server's list changes are not followed");
            return None;
        }
    };
    Some(tokio::spawn(async move {
        while let Ok(Some(notification)) = subscription.next().await {
            if matches!(
                notification,
                ServerNotification::ToolListChangedNotification(_)
            ) {
                changed.send_modify(|n| *n = n.wrapping_add(1));
            }
        }
    }))
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

/// The handshake over `transport`, in the lifecycle for `known`, with the probe bounded.
async fn handshake<T>(
    handler: ChangeSignal,
    transport: T,
    known: Option<&Known>,
    start: Duration,
    on_silence: OnSilence,
    seen: ProbeSeen,
) -> Result<Client, ClientInitializeError>
where
    T: rmcp::transport::Transport<RoleClient> + 'static,
{
    let transport = DiscoverBudget::new(transport, probe_budget(start), on_silence, seen);
    handler
        .serve_with_lifecycle(transport, Known::lifecycle(known))
        .await
}

/// The negotiated version of a client whose handshake is done.
fn negotiated(client: &Client) -> ProtocolVersion {
    client
        .peer_info()
        .map_or(ProtocolVersion::LATEST_WITH_INITIALIZE, |info| {
            info.protocol_version.clone()
        })
}

async fn connect_stdio(
    command: &McpCommand,
    deadline: Instant,
    timeout: Duration,
    handler: ChangeSignal,
    known: Option<Known>,
) -> Result<Connection, Failed> {
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
    let seen = ProbeSeen::default();
    let transport = AsyncRwTransport::new_client(client_end, stdin);
    let served = tokio::time::timeout_at(
        deadline,
        handshake(
            handler,
            transport,
            known.as_ref(),
            timeout,
            OnSilence::Synthesize,
            seen.clone(),
        ),
    )
    .await;
    match served {
        Ok(Ok(client)) => Ok(Connection {
            version: negotiated(&client),
            client,
            group: Some(group),
            tail,
            _child: Some(child),
            task_required,
            verdict,
            listener: None,
        }),
        Ok(Err(e)) => {
            group.kill();
            let why = error::handshake(&e);
            Err(Failed {
                error: McpError::Protocol {
                    program: command.program.clone(),
                    reason: why.text,
                    hint: why.hint,
                    detail: format!("{}{}", verdict_of(&verdict), explain(tail.as_ref()).await),
                },
                ended_on_probe: seen.ended_on_probe(),
            })
        }
        Err(_) => {
            group.kill();
            Err(start_timeout(&command.program, timeout, explain(tail.as_ref()).await).into())
        }
    }
}

async fn connect_http(
    http: &McpHttp,
    deadline: Instant,
    timeout: Duration,
    handler: ChangeSignal,
    known: Option<Known>,
) -> Result<Connection, Failed> {
    use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
    use rmcp::transport::StreamableHttpClientTransport;

    let bad = |reason: String| McpError::BadServer {
        target: http.url.clone(),
        reason,
        hint: None,
    };
    let scheme_ok = http.url.starts_with("http://") || http.url.starts_with("https://");
    if !scheme_ok {
        return Err(bad("the URL must start with http:// or https://".to_owned()).into());
    }
    if cfg!(not(feature = "mcp-tls")) && http.url.starts_with("https://") {
        return Err(McpError::BadServer {
            target: http.url.clone(),
            reason: "this build speaks http:// only".to_owned(),
            hint: Some(McpHint::EnableTls),
        }
        .into());
    }
    let mut headers = std::collections::HashMap::new();
    for (name, value) in &http.headers {
        let header = http::HeaderName::from_bytes(name.as_bytes())
            .map_err(|_| Failed::from(bad(format!("`{name}` is not a valid HTTP header name"))))?;
        let mut value = http::HeaderValue::from_str(value).map_err(|_| {
            Failed::from(bad(format!(
                "the value of header `{name}` is not a valid HTTP header value"
            )))
        })?;
        value.set_sensitive(true);
        headers.insert(header, value);
    }
    let config =
        StreamableHttpClientTransportConfig::with_uri(http.url.as_str()).custom_headers(headers);
    let transport = StreamableHttpClientTransport::from_config(config);
    let seen = ProbeSeen::default();
    let served = tokio::time::timeout_at(
        deadline,
        handshake(
            handler,
            transport,
            known.as_ref(),
            timeout,
            OnSilence::Close,
            seen.clone(),
        ),
    )
    .await;
    match served {
        Ok(Ok(client)) => Ok(Connection {
            version: negotiated(&client),
            client,
            group: None,
            tail: None,
            _child: None,
            task_required: TaskRequired::default(),
            verdict: TapVerdict::default(),
            listener: None,
        }),
        Ok(Err(e)) => {
            let why = error::handshake(&e);
            Err(Failed {
                error: McpError::Protocol {
                    program: http.url.clone(),
                    reason: why.text,
                    hint: why.hint,
                    detail: String::new(),
                },
                ended_on_probe: seen.ended_on_probe(),
            })
        }
        Err(_) => Err(start_timeout(&http.url, timeout, String::new()).into()),
    }
}
