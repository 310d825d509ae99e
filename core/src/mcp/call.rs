//! One `tools/call` within its own time limit, and whether the server still answers after one
//! ran out.
//!
//! Policy: a call's limit ends that call, never its server. The request is cancelled (MCP
//! 2026-07-28, <https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/cancellation>,
//! "Timeouts": "When the request has not received a success or error response within the
//! timeout period, the sender SHOULD cancel the request": over stdio a
//! `notifications/cancelled`, over 2026-07-28 streamable HTTP the request's stream closed,
//! both done by rmcp), and the server is ended only when it stops answering altogether: the
//! request that asks whether it is alive ([`still_answers`]: `ping`, or `server/discover` in
//! 2026-07-28), bounded by [`ping_bound`], gets no answer. A call whose future is dropped before
//! it answers (the calls' `time_limit`, a caller that gave up) is cancelled the same way.

use std::time::Duration;

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResponse, CallToolResult,
    CancelledNotificationParam, ClientRequest, DiscoverRequest, DiscoverRequestParams, PingRequest,
    ProtocolVersion, RequestId, ServerResult,
};
use rmcp::service::{PeerRequestOptions, RoleClient, ServiceError};
use rmcp::Peer;

use super::connection::Client;

/// Why a dropped call's request is cancelled, as the server reads it in the notification's
/// `reason`.
const ABANDONED: &str = "the caller stopped waiting (toolwire: the call was dropped)";

/// How long the request that decides whether a server still answers ([`still_answers`]) may
/// wait for its answer: a third of the start timeout, within 1 s and 10 s (and [`WRITE_GRACE`]
/// more for writing it, when the server is not reading). Our caution, not a rule of MCP,
/// which leaves it to the sender (<https://modelcontextprotocol.io/specification/2025-06-18/basic/utilities/ping>,
/// "Behavior Requirements": "If no response is received within a reasonable timeout period,
/// the sender MAY: Consider the connection stale; Terminate the connection"): a server that did its whole start (a spawn,
/// perhaps a download, and the handshake's round trips) within `start` answers a ping, which
/// asks for no work, in far less; the cap keeps the answer of a call whose server froze from
/// waiting half a minute more, and the floor keeps a tight start timeout from reading a busy
/// server as dead.
pub(crate) fn ping_bound(start: Duration) -> Duration {
    (start / 3).clamp(Duration::from_secs(1), Duration::from_secs(10))
}

/// How a call sent with [`call_within`] ended.
#[derive(Debug)]
pub(crate) enum CallEnd {
    /// The server answered (a result, an MRTR input request, a task).
    Answered(CallToolResponse),
    /// The request failed otherwise: a JSON-RPC error from the server, or the connection.
    Failed(ServiceError),
    /// The call ran past its limit. `cancel_taken`: rmcp's timeout ended it, and its cancel was
    /// written; not taken: the outer bound ended it, `limit` + [`WRITE_GRACE`], while rmcp was
    /// still writing the request or its cancel (the server is not reading, or holds the
    /// cancel's POST).
    TimedOut { cancel_taken: bool },
}

/// Sends `params` as one `tools/call` and waits at most `limit` for its answer, through rmcp's
/// per-request timeout (rmcp 3.11 `service.rs`, `Peer::send_request_with_option` with
/// `PeerRequestOptions::with_timeout`; `RequestHandle::await_response` sends
/// `notifications/cancelled` for the request, reason "request timeout", and returns
/// `ServiceError::Timeout`). Dropped before the answer, the request is cancelled too
/// ([`CancelOnDrop`]).
///
/// One round only: the runtime cannot answer an MRTR input request (see `input_required.rs`),
/// so rmcp's `call_tool`, which would hand it to the client handler and retry, is not used.
/// This is rmcp's `Peer::call_tool_once` (`service/client.rs`) with a timeout, which that
/// method does not take.
pub(crate) async fn call_within(
    client: &Client,
    params: CallToolRequestParams,
    limit: Duration,
) -> CallEnd {
    // rmcp's timeout returns only once its cancel is written, and stdio writes share one lock:
    // a server that stopped reading while a large request was being written to it would hold
    // the call past any limit. The outer bound keeps the limit a limit; the probe that follows
    // is bounded the same way and finds the server not answering.
    let outer = limit.saturating_add(WRITE_GRACE);
    match tokio::time::timeout(outer, call_once(client, params, limit)).await {
        Ok(Ok(response)) => CallEnd::Answered(response),
        Ok(Err(ServiceError::Timeout { .. })) => CallEnd::TimedOut { cancel_taken: true },
        Ok(Err(e)) => CallEnd::Failed(e),
        Err(_) => CallEnd::TimedOut {
            cancel_taken: false,
        },
    }
}

/// How long past a call's limit (or a ping's bound) rmcp may take to write the request and
/// its cancel before the server counts as not reading at all: writing a message to a pipe or a
/// socket a live server reads takes far less. Our caution. Over legacy streamable HTTP a
/// cancel is a POST of its own, which rmcp waits on for up to its `control_request_timeout`
/// (5 s by default: rmcp 3.11 `transport/streamable_http_client.rs`,
/// `StreamableHttpClientTransportConfig::default`), longer than this grace: a server that
/// holds that POST is ended by our bound first.
pub(crate) const WRITE_GRACE: Duration = Duration::from_secs(2);

async fn call_once(
    client: &Client,
    params: CallToolRequestParams,
    limit: Duration,
) -> Result<CallToolResponse, ServiceError> {
    let peer = client.peer();
    let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
    let handle = peer
        .send_request_with_option(request, PeerRequestOptions::with_timeout(limit))
        .await?;
    let mut guard = CancelOnDrop::new(peer.clone(), handle.id.clone());
    // When the outer bound (`call_within`) drops this future while rmcp's timeout is writing
    // its own cancel, the guard is still armed and queues a second cancel of the same request.
    // Harmless: a receiver ignores a cancel of a request it does not know or has finished
    // (MCP 2026-07-28,
    // <https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/cancellation>,
    // "Behavior Requirements", 3: receivers "MAY ignore cancellation notifications if: The
    // referenced request is unknown; Processing has already completed").
    let answered = handle.await_response().await;
    // Answered, or timed out (rmcp cancelled it itself): nothing is left to cancel.
    guard.disarm();
    match answered? {
        ServerResult::CallToolResult(result) => Ok(CallToolResponse::Complete(result)),
        ServerResult::InputRequiredResult(asked) => Ok(CallToolResponse::InputRequired(asked)),
        // SEP-2663 Tasks extension: the server made a task of the call.
        ServerResult::CreateTaskResult(task) => Ok(CallToolResponse::Task(task)),
        // A result with no `content`, which the untagged `ServerResult` reads as another kind
        // (rmcp 3.11 `service/client.rs`, `contentless_call_tool_result`: an empty result):
        // a call that answered nothing.
        ServerResult::EmptyResult(_) => Ok(CallToolResponse::Complete(CallToolResult::default())),
        _ => Err(ServiceError::UnexpectedResponse),
    }
}

/// Why a server whose call ran out counts as no longer answering: the words of the message
/// that says it was ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Unanswered {
    /// `method` got no answer within `bound`, though it was written.
    NoAnswer {
        method: &'static str,
        bound: Duration,
    },
    /// `method`, or its cancel, was not even taken within `bound` + [`WRITE_GRACE`]: the
    /// server is not reading its input (stdio), or holds even a notification's POST
    /// unanswered (a legacy session over HTTP, whose cancel is a POST).
    NotTaken {
        method: &'static str,
        bound: Duration,
    },
    /// The connection had closed: `method` could not be sent at all.
    Closed { method: &'static str },
    /// The connection closed while `method` waited for its answer.
    ClosedWhileWaiting { method: &'static str },
}

impl std::fmt::Display for Unanswered {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unanswered::NoAnswer { method, bound } => write!(
                f,
                "the server did not answer `{method}` within {} ms either",
                bound.as_millis()
            ),
            Unanswered::NotTaken { method, bound } => write!(
                f,
                "the server did not answer `{method}` within {} ms either, nor take what was \
                 sent to it",
                bound.saturating_add(WRITE_GRACE).as_millis()
            ),
            Unanswered::Closed { method } => write!(
                f,
                "the server's connection had closed when `{method}` was to be sent"
            ),
            Unanswered::ClosedWhileWaiting { method } => write!(
                f,
                "the server's connection closed while `{method}` waited for its answer"
            ),
        }
    }
}

/// Whether the server answers, within `bound`, the request that asks whether it is alive, and
/// if so the method it answered. Any answer counts, an error too: a server that says "method
/// not found" is answering.
///
/// The request is the era's: `ping` up to 2025-11-25
/// (<https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/ping>), and
/// `server/discover` in 2026-07-28, which removed `ping`
/// (<https://modelcontextprotocol.io/specification/2026-07-28/changelog>, "Major changes",
/// 5: "Remove `ping`, `logging/setLevel`, and `notifications/roots/list_changed`") and whose
/// servers "MUST implement" `server/discover` (same page, 3). rmcp 3.11 agrees:
/// `handler/server.rs` answers `ping` with -32601 outside the legacy lifecycle, and
/// `service/client.rs` says "2026-07-28 has no ping". Its -32601 would still count as an
/// answer, but a 2026-07-28 server owes no answer to a removed method at all, while it must
/// serve `server/discover`. `Peer::discover` is not used: it can answer from rmcp's response
/// cache without asking the server.
///
/// A limit of this probe over streamable HTTP: rmcp starts at most 16 ordinary POSTs at once
/// (rmcp 3.11 `transport/streamable_http_client.rs`,
/// `StreamableHttpClientTransportConfig::max_concurrent_requests`, default 16; a POST stops
/// counting once it opens an SSE response stream). A live server with 16 long calls in flight
/// whose POSTs are all still open without a stream (answers that come as plain JSON) holds the
/// probe in rmcp's queue past `bound`: it counts as not answering, and is ended.
pub(crate) async fn still_answers(
    client: &Client,
    version: &ProtocolVersion,
    bound: Duration,
) -> Result<&'static str, Unanswered> {
    let (method, request) = if version.has_initialize() {
        ("ping", ClientRequest::PingRequest(PingRequest::default()))
    } else {
        (
            "server/discover",
            ClientRequest::DiscoverRequest(DiscoverRequest::new(DiscoverRequestParams {})),
        )
    };
    tokio::time::timeout(
        bound.saturating_add(WRITE_GRACE),
        ask_once(client, method, request, bound),
    )
    .await
    .unwrap_or(Err(Unanswered::NotTaken { method, bound }))
}

async fn ask_once(
    client: &Client,
    method: &'static str,
    request: ClientRequest,
    bound: Duration,
) -> Result<&'static str, Unanswered> {
    let peer = client.peer();
    let Ok(handle) = peer
        .send_request_with_option(request, PeerRequestOptions::with_timeout(bound))
        .await
    else {
        return Err(Unanswered::Closed { method });
    };
    match handle.await_response().await {
        Ok(_) | Err(ServiceError::McpError(_)) => Ok(method),
        Err(ServiceError::Timeout { .. }) => Err(Unanswered::NoAnswer { method, bound }),
        // rmcp 3.11 `service.rs`, `RequestHandle::await_response`: the answer's channel closed.
        Err(_) => Err(Unanswered::ClosedWhileWaiting { method }),
    }
}

/// Cancels a request when dropped armed: what rmcp's own `AbandonedRequestGuard`
/// (`service/client.rs`) does for `call_tool_once`, for a request sent with options. The calls'
/// `time_limit` drops the call's future; without this the server would go on running a call
/// nobody waits for, and a retry would repeat its side effects.
struct CancelOnDrop {
    armed: Option<(Peer<RoleClient>, RequestId)>,
}

impl CancelOnDrop {
    fn new(peer: Peer<RoleClient>, id: RequestId) -> CancelOnDrop {
        CancelOnDrop {
            armed: Some((peer, id)),
        }
    }

    fn disarm(&mut self) {
        self.armed = None;
    }
}

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        let Some((peer, id)) = self.armed.take() else {
            return;
        };
        // Sending is async; a drop is not: the notification goes from a task of its own. Off
        // a runtime (a future dropped after its runtime ended) there is no connection left to
        // send it on either.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let cancel = CancelledNotificationParam::new(Some(id), Some(ABANDONED.into()));
                if let Err(e) = peer.notify_cancelled(cancel).await {
                    tracing::debug!(error = %e, "could not send notifications/cancelled");
                }
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_message_that_says_the_server_was_not_reading_states_the_bound_with_the_grace() {
        let bound = Duration::from_secs(2);
        let not_taken = Unanswered::NotTaken {
            method: "ping",
            bound,
        };
        assert_eq!(
            not_taken.to_string(),
            "the server did not answer `ping` within 4000 ms either, nor take what was sent to \
             it"
        );
        let no_answer = Unanswered::NoAnswer {
            method: "server/discover",
            bound,
        };
        assert_eq!(
            no_answer.to_string(),
            "the server did not answer `server/discover` within 2000 ms either"
        );
    }

    #[test]
    fn a_connection_that_closed_says_whether_before_the_probe_was_sent_or_while_it_waited() {
        assert_eq!(
            Unanswered::Closed { method: "ping" }.to_string(),
            "the server's connection had closed when `ping` was to be sent"
        );
        assert_eq!(
            Unanswered::ClosedWhileWaiting { method: "ping" }.to_string(),
            "the server's connection closed while `ping` waited for its answer"
        );
    }

    #[test]
    fn the_ping_waits_a_third_of_the_start_within_one_and_ten_seconds() {
        let secs = Duration::from_secs;
        assert_eq!(ping_bound(secs(30)), secs(10)); // the default start timeout
        assert_eq!(ping_bound(secs(6)), secs(2));
        assert_eq!(ping_bound(secs(120)), secs(10));
        assert_eq!(ping_bound(Duration::from_millis(600)), secs(1));
    }
}
