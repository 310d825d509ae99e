//! A legacy session's answer to one request as one `application/json` response, when rmcp
//! would stream it as a single SSE event.
//!
//! Why: the Python SDK's client refuses an SSE event over 1 MiB (issue 25, from a trial), so a
//! large tool result sent as an event never reaches it. rmcp's own
//! `StreamableHttpServerConfig::json_response` covers only stateless requests ("When true and
//! `legacy_session_mode` is false", rmcp 3.11 `transport/streamable_http_server/tower.rs`),
//! so a legacy session's request stream is read here: when its first message is the final
//! response, that message is the whole answer, as JSON. The transport spec lets the server
//! choose: "the server MUST either return `Content-Type: text/event-stream` … or
//! `Content-Type: application/json`" (MCP 2025-11-25, "Transports" → "Sending Messages to the
//! Server", <https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#sending-messages-to-the-server>).
//!
//! Policy: a stream whose first message is a notification or a request (progress, a
//! server-to-client request) stays a stream, every byte kept; so does one whose first message
//! has not come within [`JSON_ANSWER_WAIT`], our own caution so that a long call sends its
//! headers (and SSE keep-alives) before a client's read timeout (the Python client's
//! default HTTP timeout is 30 s).

use std::convert::Infallible;
use std::time::Duration;

use bytes::{Bytes, BytesMut};
use http_body_util::{BodyExt, BodyStream, Full, StreamBody};
use hyper::body::Frame;
use hyper::header::{HeaderValue, CONTENT_TYPE};
use hyper::{Response, StatusCode};

use super::BoxBody;

/// How long a request's stream may take to give its first message and still be answered as
/// JSON.
pub(super) const JSON_ANSWER_WAIT: Duration = Duration::from_secs(10);

/// Whether an SSE event's data is a final JSON-RPC message (a result or an error: no
/// `method`).
fn is_final(data: &[u8]) -> bool {
    #[derive(serde::Deserialize)]
    struct Probe {
        method: Option<serde::de::IgnoredAny>,
    }
    serde_json::from_slice::<Probe>(data).is_ok_and(|probe| probe.method.is_none())
}

/// The data of one SSE event (its `data:` lines, joined by newlines).
fn event_data(event: &[u8]) -> Vec<u8> {
    let mut data = Vec::new();
    for line in event.split(|b| *b == b'\n') {
        let Some(value) = line.strip_prefix(b"data:") else {
            continue;
        };
        let value = value.strip_prefix(b" ").unwrap_or(value);
        if !data.is_empty() {
            data.push(b'\n');
        }
        data.extend_from_slice(value);
    }
    data
}

/// `response` as one JSON response when it is an SSE stream whose first message is the final
/// one; else as it came.
pub(super) async fn as_json_when_single(response: Response<BoxBody>) -> Response<BoxBody> {
    let is_stream = response.status() == StatusCode::OK
        && response
            .headers()
            .get(CONTENT_TYPE)
            .is_some_and(|v| v.as_bytes().starts_with(b"text/event-stream"));
    if !is_stream {
        return response;
    }
    let (mut parts, mut body) = response.into_parts();
    let mut read = BytesMut::new();
    let mut scanned = 0;
    let wait = tokio::time::sleep(JSON_ANSWER_WAIT);
    tokio::pin!(wait);
    loop {
        let frame = tokio::select! {
            frame = body.frame() => frame,
            () = &mut wait => break,
        };
        let Some(Ok(frame)) = frame else {
            break;
        };
        let Ok(data) = frame.into_data() else {
            continue;
        };
        read.extend_from_slice(&data);
        while let Some(end) = read[scanned..].windows(2).position(|w| w == b"\n\n") {
            let event = &read[scanned..scanned + end];
            scanned += end + 2;
            let data = event_data(event);
            if data.is_empty() {
                // A priming event, a keep-alive comment.
                continue;
            }
            if !is_final(&data) {
                return as_stream(parts, read.freeze(), body);
            }
            parts
                .headers
                .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
            return Response::from_parts(parts, Full::new(Bytes::from(data)).boxed());
        }
    }
    as_stream(parts, read.freeze(), body)
}

/// The stream as it came: what was read, then the rest.
fn as_stream(parts: hyper::http::response::Parts, read: Bytes, rest: BoxBody) -> Response<BoxBody> {
    let head = futures::stream::once(async move { Ok::<_, Infallible>(Frame::data(read)) });
    let body = StreamBody::new(futures::StreamExt::chain(head, BodyStream::new(rest)));
    Response::from_parts(parts, BodyExt::boxed(body))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_event_s_data_lines_are_its_message() {
        assert_eq!(event_data(b"id: 0\nretry: 3000\ndata:"), b"");
        assert_eq!(event_data(b"data: {\"id\":1}"), b"{\"id\":1}");
        assert!(is_final(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#));
        assert!(!is_final(
            br#"{"jsonrpc":"2.0","method":"notifications/progress"}"#
        ));
    }
}
