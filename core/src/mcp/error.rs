//! What went wrong with an MCP server, in words a user can act on.
//!
//! Policy: no message names an `rmcp` type (`Transport [rmcp::transport::…] error: Broken
//! pipe` says nothing to a user): each `rmcp` error is described here once, as what the server
//! did (closed its connection, refused the handshake, answered with an error), and a stdio
//! server's last stderr lines follow when it failed.

use std::error::Error as StdError;

use rmcp::service::{ClientInitializeError, ServiceError};

/// An error talking to an MCP server. Every variant names the server (its program or URL, or
/// its name) and says what to do.
///
/// ```
/// let err = toolwire_core::mcp::McpError::Spawn { program: "nope".into(), reason: "not found".into() };
/// assert!(err.to_string().contains("`nope`"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum McpError {
    /// The server's process could not be started.
    #[error("could not start MCP server `{program}`: {reason}")]
    Spawn {
        /// The program.
        program: String,
        /// Why.
        reason: String,
    },
    /// The MCP handshake or a request failed: the server closed its connection, refused, or
    /// answered with something that is not MCP.
    #[error("MCP server `{program}` failed: {reason}")]
    Protocol {
        /// The program or URL.
        program: String,
        /// What happened (with the server's last stderr lines, for a stdio server).
        reason: String,
    },
    /// The server did not answer in time.
    #[error("MCP server `{program}` did not answer within {millis} ms: {reason}")]
    Timeout {
        /// The program or URL.
        program: String,
        /// The limit.
        millis: u64,
        /// What it was doing, what to do (and its last stderr lines, for a stdio server).
        reason: String,
    },
    /// A server name that cannot be part of a tool's name (see
    /// [`check_server_name`](crate::mcp::check_server_name)).
    #[error(
        "bad MCP server name `{name}`: {reason}; name it with letters, digits, `_`, `-` or `.`"
    )]
    BadServerName {
        /// The name as given.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// How the server is to be reached cannot work (a header that is not a valid HTTP header,
    /// an `https://` URL without the `mcp-tls` feature).
    #[error("cannot reach MCP server `{target}`: {reason}")]
    BadServer {
        /// The program or URL.
        target: String,
        /// What is wrong, and the fix.
        reason: String,
    },
    /// The server's tool list goes over one of the [`McpLimits`](crate::mcp::McpLimits).
    #[error("MCP server `{program}`: {what} ({size}) is over McpLimits::{limit} ({max}); raise the limit in McpOptions if you trust this server")]
    TooLarge {
        /// The program or URL.
        program: String,
        /// What is too large: the tool list, or a named tool's description or schema.
        what: String,
        /// The limit's field name in [`McpLimits`](crate::mcp::McpLimits).
        limit: String,
        /// The size found (tools or bytes).
        size: usize,
        /// The limit.
        max: usize,
    },
}

/// The text of an error and its sources, without layers that only name an `rmcp` type and
/// without a layer that repeats the one before it.
fn chain(error: &(dyn StdError + 'static)) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut next = Some(error);
    while let Some(e) = next {
        let text = e.to_string();
        let last = parts.last().map(String::as_str).unwrap_or("");
        if !text.contains("rmcp::") && !text.is_empty() && !last.contains(&text) {
            parts.push(text);
        }
        next = e.source();
    }
    parts.join(": ")
}

/// A transport's error (the connection to the server), in words.
fn transport(error: &(dyn StdError + Send + Sync + 'static)) -> String {
    if let Some(io) = error.downcast_ref::<std::io::Error>() {
        return match io.kind() {
            std::io::ErrorKind::BrokenPipe
            | std::io::ErrorKind::UnexpectedEof
            | std::io::ErrorKind::ConnectionReset
            | std::io::ErrorKind::ConnectionAborted => CLOSED.to_owned(),
            _ => format!("its connection failed: {io}"),
        };
    }
    if let Some(client) = http_client_error(error) {
        return format!("could not reach it: {}", chain(client));
    }
    let text = chain(error);
    if text.contains("401") || text.to_ascii_lowercase().contains("auth") {
        return format!(
            "the server refused the request as unauthorized ({text}); check the \
             `Authorization` header (McpHttp::header)"
        );
    }
    format!("its connection failed: {text}")
}

/// The HTTP client's own error inside the streamable-HTTP transport's, if that is what
/// `error` is: its cause chain says why (refused, DNS, TLS); the wrappers say only "Client error".
fn http_client_error<'e>(
    error: &'e (dyn StdError + Send + Sync + 'static),
) -> Option<&'e (dyn StdError + 'static)> {
    use rmcp::transport::streamable_http_client::StreamableHttpError;
    use rmcp::transport::worker::WorkerQuitReason;
    type HttpError = StreamableHttpError<reqwest::Error>;
    let inner = match error.downcast_ref::<WorkerQuitReason<HttpError>>() {
        Some(WorkerQuitReason::Fatal { error, .. }) => Some(error),
        _ => error.downcast_ref::<HttpError>(),
    };
    match inner {
        Some(StreamableHttpError::Client(client)) => Some(client),
        _ => None,
    }
}

/// What a closed connection most likely means.
pub(crate) const CLOSED: &str = "the server closed its connection (did it exit?)";

/// Why the MCP handshake failed.
pub(crate) fn handshake(error: &ClientInitializeError) -> String {
    if error.is_authorization_required() {
        return format!(
            "the server requires authorization{}; pass a token with \
             McpHttp::header(\"Authorization\", \"Bearer …\")",
            error
                .auth_challenge()
                .map(|c| format!(" (it answered `WWW-Authenticate: {c}`)"))
                .unwrap_or_default()
        );
    }
    match error {
        ClientInitializeError::ConnectionClosed(_) => {
            format!("{CLOSED}, during the MCP handshake")
        }
        ClientInitializeError::TransportError { error, .. } => transport(&*error.error),
        ClientInitializeError::JsonRpcError(data) => {
            format!("the server refused the MCP handshake: {}", data.message)
        }
        ClientInitializeError::NoCompatibleProtocolVersion {
            client_supported,
            server_supported,
        } => format!(
            "the server speaks no MCP protocol version toolwire does (toolwire: {}; server: {})",
            versions(client_supported),
            versions(server_supported)
        ),
        _ => "the server's answer to the MCP handshake is not valid MCP".to_owned(),
    }
}

fn versions<T: serde::Serialize>(list: &[T]) -> String {
    list.iter()
        .map(|v| match serde_json::to_value(v) {
            Ok(serde_json::Value::String(s)) => s,
            Ok(other) => other.to_string(),
            Err(_) => "?".to_owned(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Why a request (other than the handshake) failed, for an error that is not the server's own
/// JSON-RPC error answer.
pub(crate) fn request(error: &ServiceError) -> String {
    match error {
        ServiceError::McpError(data) => {
            format!("the server answered with an error: {}", data.message)
        }
        ServiceError::TransportSend(e) => transport(&*e.error),
        ServiceError::TransportClosed | ServiceError::Cancelled { .. } => CLOSED.to_owned(),
        ServiceError::Timeout { .. } => "the server did not answer in time".to_owned(),
        _ => "the server's answer is not valid MCP".to_owned(),
    }
}
