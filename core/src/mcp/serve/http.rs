//! Streamable HTTP, safe by default: the `Host` and `Origin` of every request checked against
//! loopback (DNS rebinding), an optional bearer token compared in constant time, bounded
//! request bodies and a bounded number of sessions.
//!
//! Policy: what the MCP transport spec requires is on unless the caller widens it; a refusal is
//! an HTTP status with a sentence saying why, never a silent drop.

use std::convert::Infallible;
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::{Request, Response, StatusCode};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use subtle::ConstantTimeEq;

use super::{ServeError, ToolServer};

/// The default bound on one request's body: 4 MiB (rmcp's own default, named here so the
/// gateway's bound is ours to state).
///
/// ```
/// assert_eq!(toolwire_core::mcp::serve::DEFAULT_MAX_BODY_BYTES, 4 * 1024 * 1024);
/// ```
pub const DEFAULT_MAX_BODY_BYTES: usize = 4 * 1024 * 1024;

/// The default bound on open sessions. Our own caution: each session holds a conversation and
/// a task, so a client that opens sessions without end is refused (503) past it.
///
/// ```
/// assert_eq!(toolwire_core::mcp::serve::DEFAULT_MAX_SESSIONS, 64);
/// ```
pub const DEFAULT_MAX_SESSIONS: usize = 64;

/// How the HTTP transport guards itself.
///
/// The MCP transport spec (2025-11-25, "Transports" → "Streamable HTTP" → "Security Warning"):
/// "Servers MUST validate the `Origin` header on all incoming connections to prevent DNS
/// rebinding attacks", "If the `Origin` header is present and invalid, servers MUST respond with
/// HTTP 403 Forbidden", and "When running locally, servers SHOULD bind only to localhost
/// (127.0.0.1) rather than all network interfaces"
/// (<https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning>).
/// So by default only loopback `Host`s and `Origin`s pass (rmcp checks both and answers 403).
///
/// ```
/// use toolwire_core::mcp::serve::HttpOptions;
/// let options = HttpOptions::default().token("s3cret");
/// assert_eq!(options.token.as_deref(), Some("s3cret"));
/// assert!(options.allowed_origins.iter().any(|o| o == "http://127.0.0.1:*"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct HttpOptions {
    /// When set, every request must carry `Authorization: Bearer <token>` (else 401).
    pub token: Option<String>,
    /// The `Host`s accepted (hostnames match any port).
    pub allowed_hosts: Vec<String>,
    /// The `Origin`s accepted when a request carries one (a request without one passes: it is
    /// not a browser's).
    pub allowed_origins: Vec<String>,
    /// The most bytes one request body may have (else 413).
    pub max_body_bytes: usize,
    /// The most sessions open at once (a new one past it: 503).
    pub max_sessions: usize,
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
}

/// Whether `header` (an `Authorization` value) carries `token` as a bearer token. The scheme is
/// case-insensitive (RFC 6750 §2.1 uses RFC 7235's `auth-scheme`, a case-insensitive token);
/// the token is compared in constant time, so its bytes cannot be guessed from timing.
fn carries_token(header: Option<&[u8]>, token: &str) -> bool {
    let Some(header) = header else {
        return false;
    };
    let Some((scheme, given)) = header.split_at_checked(7) else {
        return false;
    };
    scheme.eq_ignore_ascii_case(b"Bearer ") && bool::from(given.ct_eq(token.as_bytes()))
}

fn refusal(status: StatusCode, message: &'static str) -> Response<BoxBody> {
    let mut response = Response::new(
        Full::new(Bytes::from_static(message.as_bytes()))
            .map_err(|never: Infallible| match never {})
            .boxed(),
    );
    *response.status_mut() = status;
    if status == StatusCode::UNAUTHORIZED {
        // RFC 6750 §3: a 401 names the scheme the client must use.
        response.headers_mut().insert(
            hyper::header::WWW_AUTHENTICATE,
            hyper::header::HeaderValue::from_static("Bearer"),
        );
    }
    response
}

type BoxBody = http_body_util::combinators::BoxBody<Bytes, Infallible>;

impl ToolServer {
    /// Serves streamable HTTP on `listener` (at `/` and any path) until accepting fails; each
    /// MCP session is a [`ServerSession`](super::ServerSession). Drop the future to stop.
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
        let sessions = Arc::new(LocalSessionManager::default());
        let config = StreamableHttpServerConfig::default()
            .with_allowed_hosts(options.allowed_hosts.clone())
            .with_allowed_origins(options.allowed_origins.clone())
            .enforce_origin_validation()
            .with_max_request_body_bytes(options.max_body_bytes);
        let server = self.clone();
        let service =
            StreamableHttpService::new(move || Ok(server.session()), sessions.clone(), config);
        let options = Arc::new(options);
        loop {
            let (stream, _) = listener
                .accept()
                .await
                .map_err(|e| ServeError(format!("accepting a connection failed: {e}")))?;
            let service = service.clone();
            let options = options.clone();
            let sessions = sessions.clone();
            tokio::spawn(async move {
                let handler =
                    hyper::service::service_fn(move |request: Request<hyper::body::Incoming>| {
                        let mut service = service.clone();
                        let options = options.clone();
                        let sessions = sessions.clone();
                        async move {
                            if let Some(token) = &options.token {
                                let given = request
                                    .headers()
                                    .get(hyper::header::AUTHORIZATION)
                                    .map(|v| v.as_bytes());
                                if !carries_token(given, token) {
                                    return Ok::<_, Infallible>(refusal(
                                        StatusCode::UNAUTHORIZED,
                                        "this MCP server wants `Authorization: Bearer <token>`",
                                    ));
                                }
                            }
                            // A POST without a session id opens a session: bounded.
                            let opens_session = request.method() == hyper::Method::POST
                                && !request.headers().contains_key("mcp-session-id");
                            if opens_session
                                && sessions.sessions.read().await.len() >= options.max_sessions
                            {
                                return Ok(refusal(
                                    StatusCode::SERVICE_UNAVAILABLE,
                                    "too many MCP sessions are open; close one and try again",
                                ));
                            }
                            let response =
                                tower_service::Service::call(&mut service, request).await?;
                            Ok(response.map(|body| body.boxed()))
                        }
                    });
                // A connection that breaks only ends itself.
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(hyper_util::rt::TokioIo::new(stream), handler)
                    .await;
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::carries_token;

    #[test]
    fn a_bearer_token_is_the_whole_token_under_a_case_insensitive_scheme() {
        assert!(carries_token(Some(b"Bearer s3cret"), "s3cret"));
        assert!(carries_token(Some(b"bearer s3cret"), "s3cret"));
        assert!(!carries_token(Some(b"Bearer s3cre"), "s3cret"));
        assert!(!carries_token(Some(b"Bearer s3cretx"), "s3cret"));
        assert!(!carries_token(Some(b"Basic s3cret"), "s3cret"));
        assert!(!carries_token(Some(b"Bear"), "s3cret"));
        assert!(!carries_token(None, "s3cret"));
    }
}
