//! What every HTTP request meets before rmcp's streamable-HTTP service: the bearer token, a
//! body read to its bound and checked as JSON-RPC, a permit for a session it opens, and the
//! status a session's `DELETE` answers with.

use std::cell::RefCell;
use std::convert::Infallible;
use std::sync::Arc;

use bytes::Bytes;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::Incoming;
use hyper::header::{HeaderValue, AUTHORIZATION, CONTENT_TYPE, WWW_AUTHENTICATE};
use hyper::{Method, Request, Response, StatusCode};
use rmcp::model::{ClientJsonRpcMessage, ClientRequest};
use rmcp::transport::streamable_http_server::{SessionManager, StreamableHttpService};

use super::json_answer::as_json_when_single;
use super::sessions::{PermittedSessions, SESSION_PERMIT};
use super::token::TokenDigest;
use super::tools_page::{is_page_path, PageGuard};
use super::BoxBody;
use crate::mcp::serve::{ServerSession, ToolServer};

/// The header that names a legacy session (MCP 2025-11-25, "Transports" → "Session
/// Management").
const SESSION_HEADER: &str = "mcp-session-id";

/// The guard in front of rmcp's service, shared by every connection.
pub(super) struct Guard {
    pub(super) service: StreamableHttpService<ServerSession, PermittedSessions>,
    /// The server, for the Tools page's report.
    pub(super) server: ToolServer,
    /// The Tools page's guard: `/tools*` is answered there, before the token check here.
    pub(super) page: PageGuard,
    pub(super) sessions: Arc<PermittedSessions>,
    pub(super) token: Option<TokenDigest>,
    pub(super) max_body_bytes: usize,
}

/// A refusal: `status` with a sentence saying why.
pub(super) fn refusal(status: StatusCode, message: &'static str) -> Response<BoxBody> {
    let mut response = Response::new(full(Bytes::from_static(message.as_bytes())));
    *response.status_mut() = status;
    if status == StatusCode::UNAUTHORIZED {
        // RFC 6750 §3: a 401 names the scheme the client must use.
        response
            .headers_mut()
            .insert(WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    }
    response
}

pub(super) fn full(bytes: impl Into<Bytes>) -> BoxBody {
    Full::new(bytes.into())
        .map_err(|never: Infallible| match never {})
        .boxed()
}

/// A JSON-RPC error with no id, as HTTP 400. JSON-RPC 2.0, §5.1: "-32700 Parse error: Invalid
/// JSON was received by the server", "-32600 Invalid Request: The JSON sent is not a valid
/// Request object", and "If there was an error in detecting the id in the Request object
/// (e.g. Parse error/Invalid Request), it MUST be Null" (<https://www.jsonrpc.org/specification#error_object>).
/// HTTP 400 as the transport says for a POST the server does not accept: "the server MUST
/// return an HTTP error status code (e.g., 400 Bad Request)" and "The HTTP response body MAY
/// comprise a JSON-RPC error response that has no id" (MCP 2025-11-25, "Transports" →
/// "Sending Messages to the Server").
fn json_rpc_error(code: i32, message: String) -> Response<BoxBody> {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": {"code": code, "message": message},
    });
    let mut response = Response::new(full(Bytes::from(body.to_string())));
    *response.status_mut() = StatusCode::BAD_REQUEST;
    response
        .headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// Whether `request` says its body is JSON (`application/json`, any parameters), as rmcp
/// checks it: a body of another type is left to rmcp's 415.
fn says_json<B>(request: &Request<B>) -> bool {
    request
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            let essence = v.split_once(';').map_or(v, |(essence, _)| essence);
            essence.trim().eq_ignore_ascii_case("application/json")
        })
}

impl Guard {
    /// The answer to one request.
    pub(super) async fn answer(self: Arc<Self>, request: Request<Incoming>) -> Response<BoxBody> {
        if is_page_path(request.uri().path()) {
            return self.page.answer(&self.server, request).await;
        }
        if let Some(token) = &self.token {
            let given = request.headers().get(AUTHORIZATION).map(|v| v.as_bytes());
            if !token.admits(given) {
                return refusal(
                    StatusCode::UNAUTHORIZED,
                    "this MCP server wants `Authorization: Bearer <token>`",
                );
            }
        }
        match *request.method() {
            Method::POST => self.post(request).await,
            Method::DELETE => self.delete(request).await,
            _ => self.service.handle(request).await,
        }
    }

    async fn post(&self, request: Request<Incoming>) -> Response<BoxBody> {
        let json = says_json(&request);
        let (parts, body) = request.into_parts();
        let body = match Limited::new(body, self.max_body_bytes).collect().await {
            Ok(body) => body.to_bytes(),
            Err(error) if error.is::<http_body_util::LengthLimitError>() => {
                return refusal(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    "the request body is over this MCP server's bound",
                )
            }
            Err(_) => {
                return refusal(
                    StatusCode::BAD_REQUEST,
                    "the request body could not be read",
                )
            }
        };
        let message = if json {
            // rmcp answers a body it cannot read as a JSON-RPC message with 415 (rmcp 3.11,
            // `transport/common/server_side_http.rs`, `expect_json`), which the Python SDK's
            // client reads as a transport failure; JSON-RPC has errors for it.
            match serde_json::from_slice::<ClientJsonRpcMessage>(&body) {
                Ok(message) => Some(message),
                Err(error) if error.is_syntax() || error.is_eof() => {
                    return json_rpc_error(-32700, format!("Parse error: {error}"))
                }
                Err(error) => {
                    return json_rpc_error(
                        -32600,
                        format!("Invalid Request: not a JSON-RPC message MCP defines: {error}"),
                    )
                }
            }
        } else {
            None
        };
        let is_request = matches!(message, Some(ClientJsonRpcMessage::Request(_)));
        // An `initialize` without a session id opens a legacy session: it needs a permit.
        let opens_session = !parts.headers.contains_key(SESSION_HEADER)
            && matches!(&message, Some(ClientJsonRpcMessage::Request(r))
                if matches!(r.request, ClientRequest::InitializeRequest(_)));
        let request = Request::from_parts(parts, Full::new(body));
        let response = if opens_session {
            let Some(permit) = self.sessions.try_permit() else {
                return refusal(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "too many MCP sessions are open; close one and try again",
                );
            };
            SESSION_PERMIT
                .scope(RefCell::new(Some(permit)), self.service.handle(request))
                .await
        } else {
            self.service.handle(request).await
        };
        if is_request {
            as_json_when_single(response).await
        } else {
            response
        }
    }

    /// A session's `DELETE`: 404 for a session that is not open, 200 once it is closed.
    async fn delete(&self, request: Request<Incoming>) -> Response<BoxBody> {
        let session = request
            .headers()
            .get(SESSION_HEADER)
            .and_then(|v| v.to_str().ok())
            .map(Arc::<str>::from);
        if let Some(session) = session {
            // MCP 2025-11-25, "Transports" → "Session Management": a server that terminated a
            // session "MUST respond to requests containing that session ID with HTTP 404 Not
            // Found"; rmcp answers an unknown session's DELETE with 202.
            if !self.sessions.has_session(&session).await.unwrap_or(false) {
                return refusal(StatusCode::NOT_FOUND, "Not Found: Session not found");
            }
        }
        let mut response = self.service.handle(request).await;
        // The spec names no success status for a DELETE; the Python SDK's client takes only
        // 200 and 204 as success (`mcp/client/streamable_http.py`, `terminate_session`:
        // `elif response.status_code not in (200, 204): logger.warning("Session termination
        // failed…")`; older releases `!= 200`), and rmcp answers 202: 200 suits every client.
        if response.status() == StatusCode::ACCEPTED {
            *response.status_mut() = StatusCode::OK;
        }
        response
    }
}
