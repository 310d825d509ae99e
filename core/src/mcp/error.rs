//! What went wrong with an MCP server, in words a user can act on.
//!
//! Policy: no message names an `rmcp` type (`Transport [rmcp::transport::…] error: Broken
//! pipe` says nothing to a user): each `rmcp` error is described here once, as what the server
//! did (closed its connection, refused the handshake, answered with an error), and a stdio
//! server's last stderr lines follow when it failed. What to do about it is a typed
//! [`McpHint`], kept apart from the facts: `Display` says it as this library's API
//! (`McpTimeouts::start`), and a caller with other words for it (a command's `--timeout`)
//! says those in its place, with [`McpError::message_with_hint`].

use std::error::Error as StdError;
use std::fmt;

use rmcp::service::{ClientInitializeError, ServiceError};

use super::message_check::{ANSWER_UNREAD, MAX_MESSAGE_DEPTH, UNREADABLE};

/// What to change to get past an [`McpError`], as a kind rather than words, so that each
/// caller says it in its own: [`Display`](fmt::Display) says it as this library's API, a
/// command line as its flag. [`McpError::hint`] gives an error's hint.
///
/// ```
/// use toolwire_core::mcp::{McpError, McpHint};
/// let err = McpError::Timeout {
///     program: "slow-server".into(),
///     millis: 30_000,
///     reason: "the MCP handshake did not finish".into(),
///     hint: Some(McpHint::RaiseStartTimeout),
///     detail: String::new(),
/// };
/// assert_eq!(err.hint(), Some(McpHint::RaiseStartTimeout));
/// assert_eq!(
///     McpHint::RaiseStartTimeout.to_string(),
///     "if the server is only slow to start, raise McpTimeouts::start"
/// );
/// assert!(err.to_string().ends_with("did not finish; if the server is only slow to start, raise McpTimeouts::start"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum McpHint {
    /// The MCP handshake did not finish in time, and the server may only be slow to start:
    /// raise [`McpTimeouts::start`](crate::mcp::McpTimeouts::start).
    RaiseStartTimeout,
    /// Listing the tools did not finish in time, and the server may only be slow: raise
    /// [`McpTimeouts::list`](crate::mcp::McpTimeouts::list).
    RaiseListTimeout,
    /// The server requires authorization: pass a token in the `Authorization` header
    /// ([`McpHttp::header`](crate::mcp::McpHttp::header)).
    PassToken,
    /// The server refused a request as unauthorized: check the `Authorization` header
    /// ([`McpHttp::header`](crate::mcp::McpHttp::header)).
    CheckToken,
    /// The tool list goes over one of the [`McpLimits`](crate::mcp::McpLimits): raise it in
    /// [`McpOptions`](crate::mcp::McpOptions) if the server is trusted.
    RaiseLimit,
    /// The server's URL is `https://` and this build speaks `http://` only: turn on
    /// toolwire-core's `mcp-tls` feature.
    EnableTls,
}

impl McpHint {
    /// Every hint, so that a caller which words the hints itself can check it has words for
    /// each (the enum is `#[non_exhaustive]`, so a `match` outside this crate cannot).
    ///
    /// ```
    /// use toolwire_core::mcp::McpHint;
    /// assert!(McpHint::ALL.contains(&McpHint::PassToken));
    /// assert!(McpHint::ALL.iter().all(|hint| !hint.to_string().is_empty()));
    /// ```
    pub const ALL: &'static [McpHint] = &[
        McpHint::RaiseStartTimeout,
        McpHint::RaiseListTimeout,
        McpHint::PassToken,
        McpHint::CheckToken,
        McpHint::RaiseLimit,
        McpHint::EnableTls,
    ];
}

/// The hint in this library's words: the API to change.
impl fmt::Display for McpHint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            McpHint::RaiseStartTimeout => {
                "if the server is only slow to start, raise McpTimeouts::start"
            }
            McpHint::RaiseListTimeout => "raise McpTimeouts::list if the server is only slow",
            McpHint::PassToken => {
                "pass a token with McpHttp::header(\"Authorization\", \"Bearer …\")"
            }
            McpHint::CheckToken => "check the `Authorization` header (McpHttp::header)",
            McpHint::RaiseLimit => "raise the limit in McpOptions if you trust this server",
            McpHint::EnableTls => "turn on toolwire-core's `mcp-tls` feature for https://",
        })
    }
}

/// An error talking to an MCP server. Every variant names the server (its program or URL, or
/// its name) and says what to do; where that is a change to make, it is a typed [`McpHint`]
/// ([`McpError::hint`]), which `Display` says in this library's words, after the reason.
///
/// ```
/// let err = toolwire_core::mcp::McpError::Spawn { program: "nope".into(), reason: "not found".into() };
/// assert!(err.to_string().contains("`nope`"));
/// assert_eq!(err.hint(), None);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum McpError {
    /// The server's process could not be started.
    Spawn {
        /// The program.
        program: String,
        /// Why.
        reason: String,
    },
    /// The MCP handshake or a request failed: the server closed its connection, refused, or
    /// answered with something that is not MCP.
    Protocol {
        /// The program or URL.
        program: String,
        /// What happened.
        reason: String,
        /// What to change, if anything will help (a token the server requires).
        hint: Option<McpHint>,
        /// What the server left (a stdio server's last stderr lines), ready to append: empty,
        /// or starting with a separator.
        detail: String,
    },
    /// The server did not answer in time.
    Timeout {
        /// The program or URL.
        program: String,
        /// The limit.
        millis: u64,
        /// What it was doing.
        reason: String,
        /// What to change, if anything will help (the timeout, for a server only slow).
        hint: Option<McpHint>,
        /// What the server left (a stdio server's last stderr lines), ready to append: empty,
        /// or starting with a separator.
        detail: String,
    },
    /// A server name that cannot be part of a tool's name (see
    /// [`check_server_name`](crate::mcp::check_server_name)).
    BadServerName {
        /// The name as given.
        name: String,
        /// What is wrong with it.
        reason: String,
    },
    /// How the server is to be reached cannot work (a header that is not a valid HTTP header,
    /// an `https://` URL without the `mcp-tls` feature).
    BadServer {
        /// The program or URL.
        target: String,
        /// What is wrong.
        reason: String,
        /// What to change, beyond the reason (the `mcp-tls` feature, for an `https://` URL).
        hint: Option<McpHint>,
    },
    /// The server's tool list goes over one of the [`McpLimits`](crate::mcp::McpLimits); its
    /// hint is always [`McpHint::RaiseLimit`].
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

impl McpError {
    /// What to change to get past this error, when a change will help (see [`McpHint`]).
    ///
    /// ```
    /// use toolwire_core::mcp::{McpError, McpHint};
    /// let err = McpError::TooLarge {
    ///     program: "big".into(), what: "its tool list".into(), limit: "max_tools".into(),
    ///     size: 9_000, max: 8_192,
    /// };
    /// assert_eq!(err.hint(), Some(McpHint::RaiseLimit));
    /// ```
    pub fn hint(&self) -> Option<McpHint> {
        match self {
            McpError::Protocol { hint, .. }
            | McpError::Timeout { hint, .. }
            | McpError::BadServer { hint, .. } => *hint,
            McpError::TooLarge { .. } => Some(McpHint::RaiseLimit),
            McpError::Spawn { .. } | McpError::BadServerName { .. } => None,
        }
    }

    /// The message without its hint: what happened, for a caller that says what to do in its
    /// own words, or not at all. An error without a hint is its message as it is.
    ///
    /// ```
    /// use toolwire_core::mcp::{McpError, McpHint};
    /// let err = McpError::Protocol {
    ///     program: "http://127.0.0.1:8000/mcp".into(),
    ///     reason: "the server requires authorization".into(),
    ///     hint: Some(McpHint::PassToken),
    ///     detail: String::new(),
    /// };
    /// assert_eq!(
    ///     err.message_without_hint(),
    ///     "MCP server `http://127.0.0.1:8000/mcp` failed: the server requires authorization"
    /// );
    /// ```
    pub fn message_without_hint(&self) -> String {
        Message {
            error: self,
            hint: None,
        }
        .to_string()
    }

    /// The message with its hint said in `words` instead of this library's, in the same place
    /// (after the reason, before what the server left). An error without a hint is its
    /// message as it is, without `words`.
    ///
    /// ```
    /// use toolwire_core::mcp::{McpError, McpHint};
    /// let err = McpError::Timeout {
    ///     program: "slow-server".into(),
    ///     millis: 2_000,
    ///     reason: "the MCP handshake did not finish".into(),
    ///     hint: Some(McpHint::RaiseStartTimeout),
    ///     detail: "; its last lines on stderr:\n  | loading".into(),
    /// };
    /// assert_eq!(
    ///     err.message_with_hint("try --timeout 10"),
    ///     "MCP server `slow-server` did not answer within 2000 ms: the MCP handshake did not \
    ///      finish; try --timeout 10; its last lines on stderr:\n  | loading"
    /// );
    /// ```
    pub fn message_with_hint(&self, words: impl fmt::Display) -> String {
        let words = self.hint().map(|_| words);
        Message {
            error: self,
            hint: words.as_ref().map(|w| w as &dyn fmt::Display),
        }
        .to_string()
    }

    /// This error with `more` (what the server left, ready to append) after its detail; an
    /// error without a detail is returned as it is.
    pub(crate) fn followed_by(mut self, more: &str) -> McpError {
        if let McpError::Protocol { detail, .. } | McpError::Timeout { detail, .. } = &mut self {
            detail.push_str(more);
        }
        self
    }
}

impl fmt::Display for McpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hint = self.hint();
        Message {
            error: self,
            hint: hint.as_ref().map(|h| h as &dyn fmt::Display),
        }
        .fmt(f)
    }
}

impl StdError for McpError {}

/// An error's message with its hint said in the given words (or left out).
struct Message<'a> {
    error: &'a McpError,
    hint: Option<&'a dyn fmt::Display>,
}

impl fmt::Display for Message<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hint = Clause(self.hint);
        match self.error {
            McpError::Spawn { program, reason } => {
                write!(f, "could not start MCP server `{program}`: {reason}")
            }
            McpError::Protocol {
                program,
                reason,
                detail,
                ..
            } => write!(f, "MCP server `{program}` failed: {reason}{hint}{detail}"),
            McpError::Timeout {
                program,
                millis,
                reason,
                detail,
                ..
            } => write!(
                f,
                "MCP server `{program}` did not answer within {millis} ms: {reason}{hint}{detail}"
            ),
            McpError::BadServerName { name, reason } => write!(
                f,
                "bad MCP server name `{name}`: {reason}; name it with letters, digits, `_`, `-` or `.`"
            ),
            McpError::BadServer { target, reason, .. } => {
                write!(f, "cannot reach MCP server `{target}`: {reason}{hint}")
            }
            McpError::TooLarge {
                program,
                what,
                limit,
                size,
                max,
            } => write!(
                f,
                "MCP server `{program}`: {what} ({size}) is over McpLimits::{limit} ({max}){hint}"
            ),
        }
    }
}

/// A hint as a clause that follows the reason: `; <hint>`, or nothing.
struct Clause<'a>(Option<&'a dyn fmt::Display>);

impl fmt::Display for Clause<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(hint) => write!(f, "; {hint}"),
            None => Ok(()),
        }
    }
}

/// What went wrong with a request, and what to change if anything will help: an
/// [`McpError`]'s `reason` and `hint`. `Display` says both, the hint in this library's words.
pub(crate) struct Reason {
    pub(crate) text: String,
    pub(crate) hint: Option<McpHint>,
}

impl From<String> for Reason {
    fn from(text: String) -> Reason {
        Reason { text, hint: None }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let hint = self.hint.as_ref().map(|h| h as &dyn fmt::Display);
        write!(f, "{}{}", self.text, Clause(hint))
    }
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
fn transport(error: &(dyn StdError + Send + Sync + 'static)) -> Reason {
    if let Some(io) = error.downcast_ref::<std::io::Error>() {
        return match io.kind() {
            std::io::ErrorKind::BrokenPipe
            | std::io::ErrorKind::UnexpectedEof
            | std::io::ErrorKind::ConnectionReset
            | std::io::ErrorKind::ConnectionAborted => CLOSED.to_owned(),
            _ => format!("its connection failed: {io}"),
        }
        .into();
    }
    if let Some(client) = http_client_error(error) {
        return format!("could not reach it: {}", chain(client)).into();
    }
    let text = chain(error);
    if let Some(why) = unreadable_http_answer(&text) {
        return format!("{ANSWER_UNREAD}{why}").into();
    }
    if text.contains("401") || text.to_ascii_lowercase().contains("auth") {
        return Reason {
            text: format!("the server refused the request as unauthorized ({text})"),
            hint: Some(McpHint::CheckToken),
        };
    }
    format!("its connection failed: {text}").into()
}

/// Why `rmcp`'s streamable-HTTP client could not read a JSON answer, said as the stdio tap says
/// it (`message_check.rs`), if that is what `text` (its error, in words) is. `rmcp` 3.11 fails
/// the request at once with "could not parse JSON response as ServerJsonRpcMessage: <the
/// serde_json error>: <a preview>" (`json_rpc_parse_error_message`, `streamable_http_client.rs`),
/// and `serde_json` says "recursion limit exceeded" past its depth and "invalid unicode code
/// point" for bytes that are not UTF-8 (`serde_json::error::ErrorCode`'s messages).
fn unreadable_http_answer(text: &str) -> Option<String> {
    const PARSE: &str = "could not parse JSON response as ServerJsonRpcMessage: ";
    let serde_error = &text[text.find(PARSE)? + PARSE.len()..];
    let why = if serde_error.starts_with("recursion limit exceeded") {
        format!(
            "it nests arrays and objects deeper than the {MAX_MESSAGE_DEPTH} levels toolwire reads"
        )
    } else if serde_error.starts_with("invalid unicode code point") {
        "it is not UTF-8".to_owned()
    } else {
        let detail: String = serde_error.chars().take(200).collect();
        format!("it is not a JSON-RPC message MCP defines ({detail})")
    };
    Some(why)
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
pub(crate) fn handshake(error: &ClientInitializeError) -> Reason {
    if error.is_authorization_required() {
        return Reason {
            text: format!(
                "the server requires authorization{}",
                error
                    .auth_challenge()
                    .map(|c| format!(" (it answered `WWW-Authenticate: {c}`)"))
                    .unwrap_or_default()
            ),
            hint: Some(McpHint::PassToken),
        };
    }
    let text = match error {
        ClientInitializeError::ConnectionClosed(_) => {
            format!("{CLOSED}, during the MCP handshake")
        }
        ClientInitializeError::TransportError { error, .. } => return transport(&*error.error),
        // rmcp's `Auto` lifecycle: `server/discover` was refused as a legacy server's would be,
        // then `initialize` failed too; the second failure is the one that says why.
        ClientInitializeError::LegacyFallbackFailed { fallback, .. } => return handshake(fallback),
        ClientInitializeError::JsonRpcError(data) if is_unreadable(data) => {
            format!("{}, during the MCP handshake", data.message)
        }
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
    };
    text.into()
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

/// Whether an error answer is the stdio tap's, for a message it could not read
/// (`message_check.rs`), not the server's own.
pub(crate) fn is_unreadable(data: &rmcp::model::ErrorData) -> bool {
    data.data.as_ref().and_then(serde_json::Value::as_str) == Some(UNREADABLE)
}

/// Why a request (other than the handshake) failed, for an error that is not the server's own
/// JSON-RPC error answer.
pub(crate) fn request(error: &ServiceError) -> Reason {
    let text = match error {
        ServiceError::McpError(data) if is_unreadable(data) => data.message.to_string(),
        ServiceError::McpError(data) => {
            format!("the server answered with an error: {}", data.message)
        }
        ServiceError::TransportSend(e) => return transport(&*e.error),
        ServiceError::TransportClosed | ServiceError::Cancelled { .. } => CLOSED.to_owned(),
        ServiceError::Timeout { .. } => "the server did not answer in time".to_owned(),
        _ => "the server's answer is not valid MCP".to_owned(),
    };
    text.into()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The messages as they read when the hints were part of the reason: typed, they read the
    /// same.
    #[test]
    fn a_hinted_message_reads_as_it_did_before_the_hint_was_typed() {
        let timeout = McpError::Timeout {
            program: "srv".into(),
            millis: 2000,
            reason: "the MCP handshake did not finish".into(),
            hint: Some(McpHint::RaiseStartTimeout),
            detail: "; its last lines on stderr:\n  | slow".into(),
        };
        assert_eq!(
            timeout.to_string(),
            "MCP server `srv` did not answer within 2000 ms: the MCP handshake did not finish; \
             if the server is only slow to start, raise McpTimeouts::start; its last lines on \
             stderr:\n  | slow"
        );
        assert_eq!(
            timeout.message_without_hint(),
            "MCP server `srv` did not answer within 2000 ms: the MCP handshake did not finish; \
             its last lines on stderr:\n  | slow"
        );
        let token = McpError::Protocol {
            program: "http://h/mcp".into(),
            reason: "the server requires authorization".into(),
            hint: Some(McpHint::PassToken),
            detail: String::new(),
        };
        assert_eq!(
            token.to_string(),
            "MCP server `http://h/mcp` failed: the server requires authorization; pass a token \
             with McpHttp::header(\"Authorization\", \"Bearer …\")"
        );
        let large = McpError::TooLarge {
            program: "big".into(),
            what: "its tool list".into(),
            limit: "max_tools".into(),
            size: 21,
            max: 20,
        };
        assert_eq!(
            large.to_string(),
            "MCP server `big`: its tool list (21) is over McpLimits::max_tools (20); raise the \
             limit in McpOptions if you trust this server"
        );
        assert_eq!(
            large.message_with_hint("ask for less"),
            "MCP server `big`: its tool list (21) is over McpLimits::max_tools (20); ask for less"
        );
        let spawn = McpError::Spawn {
            program: "nope".into(),
            reason: "not found".into(),
        };
        assert_eq!(spawn.message_with_hint("ignored"), spawn.to_string());
        assert_eq!(spawn.message_without_hint(), spawn.to_string());
    }

    #[test]
    fn a_reason_says_its_hint_in_the_librarys_words() {
        let reason = Reason {
            text: "the server refused the request as unauthorized (401)".into(),
            hint: Some(McpHint::CheckToken),
        };
        assert_eq!(
            reason.to_string(),
            "the server refused the request as unauthorized (401); check the `Authorization` \
             header (McpHttp::header)"
        );
        assert_eq!(Reason::from("closed".to_owned()).to_string(), "closed");
    }
}
