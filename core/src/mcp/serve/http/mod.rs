//! Streamable HTTP, safe against whoever connects: the `Host` and `Origin` of every request
//! checked (DNS rebinding), an optional bearer token compared by digest, bounded request
//! bodies, a bounded number of connections (each with a bound on its headers) and of legacy
//! sessions (each evicted when idle), an accept loop no error ends.
//!
//! Policy: what the MCP transport spec requires is on unless the caller widens it; a refusal is
//! an HTTP status with a sentence saying why, never a silent drop.
//!
//! One file per job:
//! - `accept.rs`: the accept loop (backoff on `EMFILE`, the connection cap, the header timeout);
//! - `requests.rs`: what each request meets before rmcp (token, body, session permit, `DELETE`);
//! - `sessions.rs`: rmcp's session manager with one permit per open session;
//! - `json_answer.rs`: a single-message answer as `application/json`;
//! - `token.rs`: the token's digest and its constant-time comparison;
//! - `tools_page/`: the Tools page at `/tools` (and `/tools.json`, `/tools/events`,
//!   `/tools/login`), behind the same `Host`, `Origin` and token rules.

mod accept;
mod json_answer;
mod requests;
mod sessions;
mod token;
mod tools_page;

use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;

use bytes::Bytes;
use rmcp::transport::streamable_http_server::session::local::{LocalSessionManager, SessionConfig};
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};

use super::{ServeError, ToolServer};
use accept::{serve_connections, ConnectionLimits};
use requests::Guard;
use sessions::PermittedSessions;
use token::TokenDigest;
pub use tools_page::tools_page_html;
use tools_page::PageGuard;

type BoxBody = http_body_util::combinators::BoxBody<Bytes, Infallible>;

/// The default bound on one request's body: 4 MiB (rmcp's own default, named here so the
/// gateway's bound is ours to state).
///
/// ```
/// assert_eq!(toolwire_core::mcp::serve::DEFAULT_MAX_BODY_BYTES, 4 * 1024 * 1024);
/// ```
pub const DEFAULT_MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// The default bound on open legacy sessions. Our own caution: each session holds a
/// conversation and a task, so a client that opens sessions without end is refused (503) past
/// it.
///
/// ```
/// assert_eq!(toolwire_core::mcp::serve::DEFAULT_MAX_SESSIONS, 64);
/// ```
pub const DEFAULT_MAX_SESSIONS: usize = 64;

/// The default bound on open HTTP connections: 256. Our own caution: each connection is a
/// file descriptor, and a process's soft limit is often 1024, which the backends' pipes share;
/// 256 leaves four connections (a `GET` stream and requests) to each of the
/// [`DEFAULT_MAX_SESSIONS`]. Past it, new connections wait in the kernel's backlog.
///
/// ```
/// assert_eq!(toolwire_core::mcp::serve::DEFAULT_MAX_CONNECTIONS, 256);
/// ```
pub const DEFAULT_MAX_CONNECTIONS: usize = 256;

/// The default bound on how long a connection may take to send a request's headers: 30 s,
/// hyper's own default once a timer is set (`http1::Builder::header_read_timeout`), so a
/// client that opens a connection and says nothing holds its place only that long.
///
/// ```
/// assert_eq!(toolwire_core::mcp::serve::DEFAULT_HEADER_READ_TIMEOUT.as_secs(), 30);
/// ```
pub const DEFAULT_HEADER_READ_TIMEOUT: Duration = Duration::from_secs(30);

/// The default time a legacy session may stay idle (no request, no message) before it is
/// closed and its place freed: 5 minutes, rmcp's `SessionConfig::DEFAULT_KEEP_ALIVE`. It
/// outlasts a call within the default call timeout (`McpTimeouts::call`, 60 s), which counts
/// as idle while it runs (rmcp's session worker resets its clock on each event only), and a
/// client that holds sessions without using them loses them within it. A client whose session
/// was closed gets 404 and starts a new one (MCP 2025-11-25, "Transports" → "Session
/// Management": the client "MUST start a new session by sending a new `InitializeRequest`").
///
/// ```
/// assert_eq!(toolwire_core::mcp::serve::DEFAULT_SESSION_IDLE_TIMEOUT.as_secs(), 300);
/// ```
pub const DEFAULT_SESSION_IDLE_TIMEOUT: Duration = Duration::from_secs(300);

/// How the HTTP transport guards itself.
///
/// The MCP transport spec (2025-11-25, "Transports" → "Streamable HTTP" → "Security Warning"):
/// "Servers MUST validate the `Origin` header on all incoming connections to prevent DNS
/// rebinding attacks", "If the `Origin` header is present and invalid, servers MUST respond with
/// HTTP 403 Forbidden", and "When running locally, servers SHOULD bind only to localhost
/// (127.0.0.1) rather than all network interfaces"
/// (<https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning>).
/// So by default only loopback `Host`s and `Origin`s pass (rmcp checks both and answers 403);
/// a server remote clients reach names their `Host` with [`HttpOptions::allowed_host`].
///
/// Its `Debug` hides the token.
///
/// ```
/// use toolwire_core::mcp::serve::HttpOptions;
/// let options = HttpOptions::default().token("s3cret").allowed_host("gw.example.com");
/// assert_eq!(options.token.as_deref(), Some("s3cret"));
/// assert!(options.allowed_hosts.iter().any(|h| h == "gw.example.com"));
/// assert!(options.allowed_origins.iter().any(|o| o == "http://127.0.0.1:*"));
/// assert!(!format!("{options:?}").contains("s3cret"));
/// ```
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct HttpOptions {
    /// When set, every request must carry `Authorization: Bearer <token>` (else 401).
    pub token: Option<String>,
    /// The `Host`s accepted: a name matches any port, `name:port` only that port.
    pub allowed_hosts: Vec<String>,
    /// The `Origin`s accepted when a request carries one (a request without one passes: it is
    /// not a browser's).
    pub allowed_origins: Vec<String>,
    /// The most bytes one request body may have (else 413).
    pub max_body_bytes: usize,
    /// The most legacy sessions open at once (a new one past it: 503).
    pub max_sessions: usize,
    /// How long a legacy session may stay idle before it is closed.
    pub session_idle_timeout: Duration,
    /// The most HTTP connections open at once (past it, new ones wait to be accepted).
    pub max_connections: usize,
    /// How long a connection may take to send a request's headers before it is closed.
    pub header_read_timeout: Duration,
}

impl std::fmt::Debug for HttpOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HttpOptions")
            .field("token", &self.token.as_ref().map(|_| "<hidden>"))
            .field("allowed_hosts", &self.allowed_hosts)
            .field("allowed_origins", &self.allowed_origins)
            .field("max_body_bytes", &self.max_body_bytes)
            .field("max_sessions", &self.max_sessions)
            .field("session_idle_timeout", &self.session_idle_timeout)
            .field("max_connections", &self.max_connections)
            .field("header_read_timeout", &self.header_read_timeout)
            .finish()
    }
}

impl Default for HttpOptions {
    fn default() -> HttpOptions {
        HttpOptions {
            token: None,
            allowed_hosts: vec!["localhost".into(), "127.0.0.1".into(), "::1".into()],
            allowed_origins: vec![
                "http://localhost:*".into(),
                "http://127.0.0.1:*".into(),
                "http://[::1]:*".into(),
            ],
            max_body_bytes: DEFAULT_MAX_BODY_BYTES,
            max_sessions: DEFAULT_MAX_SESSIONS,
            session_idle_timeout: DEFAULT_SESSION_IDLE_TIMEOUT,
            max_connections: DEFAULT_MAX_CONNECTIONS,
            header_read_timeout: DEFAULT_HEADER_READ_TIMEOUT,
        }
    }
}

impl HttpOptions {
    /// These options with a bearer token every request must carry.
    ///
    /// ```
    /// assert!(toolwire_core::mcp::serve::HttpOptions::default().token("t").token.is_some());
    /// ```
    pub fn token(mut self, token: impl Into<String>) -> HttpOptions {
        self.token = Some(token.into());
        self
    }

    /// These options with one more accepted `Host`: the name remote clients reach the server
    /// by (`gw.example.com`, any port; or `gw.example.com:8080`, that port only).
    ///
    /// ```
    /// let options = toolwire_core::mcp::serve::HttpOptions::default().allowed_host("10.0.0.5");
    /// assert_eq!(options.allowed_hosts.last().map(String::as_str), Some("10.0.0.5"));
    /// ```
    pub fn allowed_host(mut self, host: impl Into<String>) -> HttpOptions {
        self.allowed_hosts.push(host.into());
        self
    }
}

impl ToolServer {
    /// Serves streamable HTTP on `listener` (at `/` and any path) until the future is dropped;
    /// each legacy MCP session is a [`ServerSession`](super::ServerSession). The Tools page
    /// takes `/tools`, `/tools.json` and `/tools/…` (what [`ToolServer::report`] holds, as
    /// HTML, JSON and an event stream of its changes), behind the same `Host`, `Origin` and
    /// token rules (a browser logs in with a form and keeps a cookie); every other path is MCP. No accept error
    /// ends it: one connection's is skipped, the process's (out of file descriptors) waits a
    /// second and accepts again.
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
    /// use toolwire_core::mcp::serve::{HttpOptions, ToolServer};
    /// let server = ToolServer::new(toolwire_core::ToolRuntime::new(), Default::default());
    /// let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    /// eprintln!("http://{}/mcp", listener.local_addr()?);
    /// server.serve_http(listener, HttpOptions::default()).await?;
    /// # Ok(()) }
    /// ```
    pub async fn serve_http(
        &self,
        listener: tokio::net::TcpListener,
        options: HttpOptions,
    ) -> Result<(), ServeError> {
        let mut session_config = SessionConfig::default();
        session_config.keep_alive = Some(options.session_idle_timeout);
        let mut local = LocalSessionManager::default();
        local.session_config = session_config;
        let sessions = Arc::new(PermittedSessions::new(local, options.max_sessions));
        // `json_response`: a stateless (2026-07-28) request's single answer is
        // `application/json` (rmcp streams it otherwise); `json_answer.rs` does the same for a
        // legacy session's.
        let config = StreamableHttpServerConfig::default()
            .with_allowed_hosts(options.allowed_hosts.clone())
            .with_allowed_origins(options.allowed_origins.clone())
            .enforce_origin_validation()
            .with_max_request_body_bytes(options.max_body_bytes)
            .with_json_response(true);
        let server = self.clone();
        let service =
            StreamableHttpService::new(move || Ok(server.session()), sessions.clone(), config);
        // Held by this future alone: dropping it (the caller stops serving) ends every Tools
        // page event stream, which would otherwise live on in its connection's task.
        let (_stop, stop) = tokio::sync::watch::channel(());
        let page = PageGuard::new(
            options.allowed_hosts.clone(),
            options.allowed_origins.clone(),
            options.token.as_deref(),
            stop,
        );
        let guard = Arc::new(Guard {
            service,
            server: self.clone(),
            page,
            sessions,
            token: options.token.as_deref().map(TokenDigest::of),
            max_body_bytes: options.max_body_bytes,
        });
        let limits = ConnectionLimits {
            max_connections: options.max_connections,
            header_read_timeout: options.header_read_timeout,
        };
        drop(options);
        serve_connections(listener, limits, move || {
            let guard = guard.clone();
            hyper::service::service_fn(move |request| {
                let guard = guard.clone();
                async move { Ok::<_, Infallible>(guard.answer(request).await) }
            })
        })
        .await;
        Ok(())
    }
}
