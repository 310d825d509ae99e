//! The Tools page a gateway serves beside MCP: `GET /tools` (the page), `GET /tools.json`
//! (the report), `GET /tools/events` (its live refresh), `POST /tools/login` (a browser's
//! token, exchanged for a cookie). Every other path is MCP's, unchanged.
//!
//! Policy: the page obeys the MCP endpoint's rules. Its `Host` and `Origin` pass the same
//! allow-lists (DNS rebinding: a page a browser reaches by a foreign name is refused, 403).
//! With a token, a request shows it: `Authorization: Bearer` (scripts), or the login cookie
//! (a browser cannot add a header to a page it navigates to). The token is only ever read
//! from a POSTed form, never from a URL (a URL lands in history, logs and `Referer`s), and a
//! login POST must come from a page of this very origin (`Origin` equal to `Host`): another
//! site's form, even one on another loopback port, is refused (403). The cookie is derived
//! from the token (`cookie.rs`), so no replica keeps state a load balancer could lose.
//!
//! One file per job: `render.rs` (the HTML, one renderer), `cookie.rs` (the login cookie),
//! `host.rs` (the `Host` and `Origin` rules), `events.rs` (the event stream), `served.rs`
//! (the report with the gateway's served names).

mod cookie;
mod events;
mod host;
mod render;
mod served;

use bytes::Bytes;
use http_body_util::{BodyExt, Limited};
use hyper::body::Incoming;
use hyper::header::{
    HeaderValue, AUTHORIZATION, CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, COOKIE, HOST,
    LOCATION, ORIGIN, RETRY_AFTER, SET_COOKIE, WWW_AUTHENTICATE,
};
use hyper::{Method, Request, Response, StatusCode};
use std::sync::Arc;
use tokio::sync::{watch, Semaphore};

use super::requests::full;
use super::token::TokenDigest;
use super::BoxBody;
use crate::mcp::serve::ToolServer;
use crate::runtime::report::ToolsReport;
use cookie::CookieKey;

/// The most bytes a login form may have: a token field, with room to spare.
const MAX_LOGIN_BYTES: usize = 8 * 1024;

/// Whether `path` is the Tools page's (`/tools`, `/tools.json`, `/tools/…`), not MCP's.
pub(super) fn is_page_path(path: &str) -> bool {
    path == "/tools" || path == "/tools.json" || path.starts_with("/tools/")
}

/// The page's guard: the MCP endpoint's `Host`/`Origin` lists and token, and the cookie the
/// token gives.
pub(super) struct PageGuard {
    allowed_hosts: Vec<String>,
    allowed_origins: Vec<String>,
    token: Option<(TokenDigest, CookieKey)>,
    /// The places of the open event streams ([`events::MAX_STREAMS`]).
    streams: Arc<Semaphore>,
    /// Ends every event stream when its sender (held by `serve_http`) is dropped.
    stop: watch::Receiver<()>,
    /// This gateway's start, in every stamp: a page that outlived a restart of the gateway
    /// (whose change numbers begin again) takes the new one's report as newer.
    epoch: u64,
}

impl PageGuard {
    pub(super) fn new(
        allowed_hosts: Vec<String>,
        allowed_origins: Vec<String>,
        token: Option<&str>,
        stop: watch::Receiver<()>,
    ) -> PageGuard {
        // Not a secret, only different from one start to the next: the clock and the pid.
        let since = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        let epoch = (since.as_nanos() as u64) ^ (u64::from(std::process::id()) << 48);
        PageGuard {
            allowed_hosts,
            allowed_origins,
            token: token.map(|t| (TokenDigest::of(t), CookieKey::of(t))),
            streams: Arc::new(Semaphore::new(events::MAX_STREAMS)),
            stop,
            epoch,
        }
    }

    /// The current change number, read before the report it stamps: every change is made
    /// before its number is bumped, so a report is never older than its stamp says.
    fn sequence(server: &ToolServer) -> u64 {
        *server.runtime().report_changes().borrow()
    }

    /// The answer to a request of the page's paths, every one with the page's headers.
    pub(super) async fn answer(
        &self,
        server: &ToolServer,
        request: Request<Incoming>,
    ) -> Response<BoxBody> {
        let mut response = self.answer_bare(server, request).await;
        guarded_headers(response.headers_mut());
        response
    }

    async fn answer_bare(
        &self,
        server: &ToolServer,
        request: Request<Incoming>,
    ) -> Response<BoxBody> {
        // RFC 9112 §3.2: a request without a `Host`, or with one that is not a host and port,
        // is answered 400.
        let Some(host) = header(&request, HOST).and_then(host::request_host) else {
            return text(
                StatusCode::BAD_REQUEST,
                "Bad Request: the Host header is missing or is not a host and port",
            );
        };
        // The MCP transport's rule, for the page too (MCP 2025-11-25, "Transports" → "Security
        // Warning": validate `Origin` against DNS rebinding; 403 when invalid).
        if !host::host_allowed(&host, &self.allowed_hosts) {
            return text(StatusCode::FORBIDDEN, "Forbidden: this Host is not allowed");
        }
        // An `Origin` that is not text is no origin this gateway allows (a browser serialises
        // an origin as ASCII: HTML Living Standard, "ASCII serialization of an origin"): 403,
        // never read as no `Origin` at all.
        let origin = match request.headers().get(ORIGIN).map(HeaderValue::to_str) {
            None => None,
            Some(Ok(origin)) => Some(origin.to_owned()),
            Some(Err(_)) => {
                return text(
                    StatusCode::FORBIDDEN,
                    "Forbidden: this Origin is not allowed",
                )
            }
        };
        if let Some(origin) = &origin {
            // A page of this very origin passes: its `Host` passed the list above, so a name a
            // browser reaches the gateway by (`--allowed-host gw.example`, its page
            // `https://gw.example/tools` behind a TLS proxy) needs no second entry among the
            // origins. DNS rebinding is still refused: a rebound page's `Host` is its own name.
            if !host::origin_allowed(origin, &self.allowed_origins)
                && !host::same_origin(origin, &host, over_tls(&request))
            {
                return text(
                    StatusCode::FORBIDDEN,
                    "Forbidden: this Origin is not allowed",
                );
            }
        }
        let path = request.uri().path().to_owned();
        match (request.method().clone(), path.as_str()) {
            (Method::POST, "/tools/login") => {
                // A form of another site (another origin, even another loopback port) posting
                // here is refused: browsers send `Origin` on every POST (Fetch, "append a
                // request `Origin` header"), so one without it is no page's.
                let tls = over_tls(&request);
                if !origin
                    .as_deref()
                    .is_some_and(|o| host::same_origin(o, &host, tls))
                {
                    return text(
                        StatusCode::FORBIDDEN,
                        "Forbidden: a login must come from this gateway's own page",
                    );
                }
                self.login(request).await
            }
            (Method::GET | Method::HEAD, "/tools/login") => see_tools(None),
            (Method::GET | Method::HEAD, "/tools") => {
                if self.admits(&request) {
                    let sequence = Self::sequence(server);
                    let stamp = render::Stamp {
                        epoch: format!("{:016x}", self.epoch),
                        sequence,
                    };
                    html(
                        StatusCode::OK,
                        render::page(&server.report(), render::Mode::Live(&stamp)),
                    )
                } else {
                    login_form(false)
                }
            }
            (Method::GET | Method::HEAD, "/tools.json") => {
                if !self.admits(&request) {
                    return unauthorized();
                }
                let sequence = Self::sequence(server);
                json(&server.report(), self.epoch, sequence)
            }
            (Method::GET, "/tools/events") => {
                if !self.admits(&request) {
                    return unauthorized();
                }
                let Ok(place) = self.streams.clone().try_acquire_owned() else {
                    let mut busy = text(
                        StatusCode::SERVICE_UNAVAILABLE,
                        "too many Tools page event streams are open; close a tab and try again",
                    );
                    busy.headers_mut()
                        .insert(RETRY_AFTER, HeaderValue::from_static("5"));
                    return busy;
                };
                let mut response = Response::new(events::stream(
                    server.runtime().report_changes(),
                    self.stop.clone(),
                    self.epoch,
                    place,
                ));
                let headers = response.headers_mut();
                headers.insert(CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
                headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
                response
            }
            (_, "/tools" | "/tools.json" | "/tools/events" | "/tools/login") => {
                text(StatusCode::METHOD_NOT_ALLOWED, "Method Not Allowed")
            }
            _ => text(StatusCode::NOT_FOUND, "Not Found: the Tools page is /tools"),
        }
    }

    /// Whether the request shows the token: no token is set, or its bearer header or its
    /// cookie carries it. Never a query string.
    fn admits<B>(&self, request: &Request<B>) -> bool {
        let Some((bearer, cookie)) = &self.token else {
            return true;
        };
        let by_header = bearer.admits(request.headers().get(AUTHORIZATION).map(|v| v.as_bytes()));
        let by_cookie = request
            .headers()
            .get_all(COOKIE)
            .iter()
            .any(|v| cookie.admits(v.as_bytes()));
        by_header | by_cookie
    }

    /// A login: the form's `token` field; right, a cookie and 303 to the page; wrong, 401
    /// and the form again.
    async fn login(&self, request: Request<Incoming>) -> Response<BoxBody> {
        let Some((bearer, cookie)) = &self.token else {
            // Nothing to log in to: the page is open.
            return see_tools(None);
        };
        let secure = over_tls(&request);
        let body = match Limited::new(request.into_body(), MAX_LOGIN_BYTES)
            .collect()
            .await
        {
            Ok(body) => body.to_bytes(),
            Err(_) => return text(StatusCode::PAYLOAD_TOO_LARGE, "the login form is too large"),
        };
        let given = form_field(&body, "token").unwrap_or_default();
        let mut header = b"Bearer ".to_vec();
        header.extend_from_slice(&given);
        if bearer.admits(Some(&header)) {
            see_tools(Some(cookie.set_cookie(secure)))
        } else {
            login_form(true)
        }
    }
}

/// The static Tools page of `report`, as `toolwire census --html` writes it: the page a
/// gateway serves at `/tools`, from the same renderer, without the live refresh (a file has
/// no gateway to ask) and without a login. Every name, description and reason is escaped:
/// `<script>` in a description is text.
///
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use std::sync::Arc;
/// use serde_json::json;
/// use toolwire_core::{provider::provider_fn, ToolDefinition, ToolRuntime};
/// let tools = provider_fn("fx", vec![
///     ToolDefinition::new("mcp/fx/read", "Reads <script>alert(1)</script>.", json!({})),
///     ToolDefinition::new("mcp/fx.read", "Reads too.", json!({})),
/// ], |_, args| async move { Ok(args) });
/// let runtime = ToolRuntime::new();
/// let _clash = runtime.add_provider(Arc::new(tools)).await.unwrap();
/// let page = toolwire_core::mcp::serve::tools_page_html(&runtime.report());
/// assert!(page.contains("Reads &lt;script&gt;alert(1)&lt;/script&gt;."));
/// assert!(page.find(r#"<section id="clashes""#) < page.find(r#"<section id="tools""#));
/// assert!(!page.contains("<script>"), "a file has no live refresh");
/// # });
/// ```
pub fn tools_page_html(report: &ToolsReport) -> String {
    render::page(report, render::Mode::File)
}

/// Whether the browser reached the gateway over TLS, which decides the login cookie's
/// `Secure`. The gateway itself speaks plain HTTP, so TLS is a proxy's in front of it, and
/// only the request says so: an `https` request target, the proxy's `X-Forwarded-Proto`
/// (its first entry, the one nearest the browser: a chain of proxies appends) or `Forwarded`
/// (RFC 7239 §5.4, `proto=https`). Why it matters both ways: over TLS, `Secure` keeps the
/// browser from ever sending the cookie in clear; over plain HTTP a `Secure` cookie is one the
/// browser refuses to store (RFC 6265bis §5.7, "If the scheme component of the request-uri
/// does not denote a secure protocol … abort"), so the login would never stick.
fn over_tls<B>(request: &Request<B>) -> bool {
    let https = |proto: &str| proto.trim().trim_matches('"').eq_ignore_ascii_case("https");
    if request.uri().scheme() == Some(&http::uri::Scheme::HTTPS) {
        return true;
    }
    let forwarded_proto = header(request, "x-forwarded-proto")
        .and_then(|p| p.split(',').next())
        .is_some_and(https);
    let forwarded = header(request, "forwarded")
        .and_then(|f| f.split(',').next())
        .is_some_and(|nearest| {
            nearest.split(';').any(|pair| {
                pair.split_once('=').is_some_and(|(key, value)| {
                    key.trim().eq_ignore_ascii_case("proto") && https(value)
                })
            })
        });
    forwarded_proto || forwarded
}

fn header<B>(request: &Request<B>, name: impl hyper::header::AsHeaderName) -> Option<&str> {
    request.headers().get(name).and_then(|v| v.to_str().ok())
}

/// `application/x-www-form-urlencoded` (the HTML Living Standard's form submission, decoded as
/// the URL Standard's "application/x-www-form-urlencoded parsing": `+` is a space, `%XX` a
/// byte): the first value of `name`.
fn form_field(body: &[u8], name: &str) -> Option<Vec<u8>> {
    let decode = |text: &[u8]| {
        let mut out = Vec::with_capacity(text.len());
        let mut i = 0;
        while i < text.len() {
            match text[i] {
                b'+' => out.push(b' '),
                b'%' if i + 2 < text.len() => {
                    let hex = std::str::from_utf8(&text[i + 1..i + 3]).ok();
                    match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                        Some(byte) => {
                            out.push(byte);
                            i += 2;
                        }
                        None => out.push(b'%'),
                    }
                }
                byte => out.push(byte),
            }
            i += 1;
        }
        out
    };
    body.split(|&b| b == b'&').find_map(|pair| {
        let (key, value) = match pair.iter().position(|&b| b == b'=') {
            Some(at) => (&pair[..at], &pair[at + 1..]),
            None => (pair, &pair[pair.len()..]),
        };
        (decode(key) == name.as_bytes()).then(|| decode(value))
    })
}

fn text(status: StatusCode, message: &'static str) -> Response<BoxBody> {
    let mut response = Response::new(full(Bytes::from_static(message.as_bytes())));
    *response.status_mut() = status;
    response.headers_mut().insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    response
}

/// 401 for a script without the token (RFC 6750 §3: the scheme it must use).
fn unauthorized() -> Response<BoxBody> {
    let mut response = text(
        StatusCode::UNAUTHORIZED,
        "this gateway wants `Authorization: Bearer <token>` or the login cookie (POST /tools/login)",
    );
    response
        .headers_mut()
        .insert(WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    response
}

fn html(status: StatusCode, page: String) -> Response<BoxBody> {
    let mut response = Response::new(full(page));
    *response.status_mut() = status;
    let headers = response.headers_mut();
    headers.insert(
        CONTENT_TYPE,
        HeaderValue::from_static("text/html; charset=utf-8"),
    );
    // The page's policy travels as a header, not only as a `<meta>`: `frame-ancestors`
    // (no other page frames this one) is ignored in a `<meta>` policy (CSP 3, "6.4.2
    // frame-ancestors": "not supported in the `<meta>` element").
    headers.insert(
        CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(render::live_policy()),
    );
    // The page names every tool: no cache keeps it.
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// The headers every answer of the page's paths carries (the page, its JSON, its events, a
/// refusal): no browser guesses another type than the one said (`nosniff`, Fetch, "should
/// response to request be blocked due to nosniff?"), and no link to another site says where
/// it came from.
fn guarded_headers(headers: &mut hyper::HeaderMap) {
    headers.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    // `same-origin`, not `no-referrer`: a browser serialises the `Origin` of a POST under
    // `no-referrer` as `null` (Fetch, "append a request `Origin` header",
    // https://fetch.spec.whatwg.org/#append-a-request-origin-header), which the login's
    // same-origin check refuses: Chromium's login failed so. `same-origin` still sends no
    // `Referer` to another site.
    headers.insert("referrer-policy", HeaderValue::from_static("same-origin"));
}

/// The login form, 401 (with `wrong`, saying the token was not the gateway's).
fn login_form(wrong: bool) -> Response<BoxBody> {
    let mut response = html(StatusCode::UNAUTHORIZED, render::login(wrong));
    response
        .headers_mut()
        .insert(WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    response
}

/// 303 to `/tools` (a POST's answer the browser follows with a GET), setting `cookie`.
fn see_tools(cookie: Option<String>) -> Response<BoxBody> {
    let mut response = Response::new(full(Bytes::new()));
    *response.status_mut() = StatusCode::SEE_OTHER;
    let headers = response.headers_mut();
    headers.insert(LOCATION, HeaderValue::from_static("/tools"));
    if let Some(cookie) = cookie.and_then(|c| HeaderValue::from_str(&c).ok()) {
        headers.insert(SET_COOKIE, cookie);
    }
    response
}

/// The report as JSON, with its stamp (`epoch`, `sequence`: what the event stream's events
/// carry) beside `providers` and `tools`.
fn json(report: &ToolsReport, epoch: u64, sequence: u64) -> Response<BoxBody> {
    let stamped = serde_json::to_value(report).map(|mut value| {
        if let Some(object) = value.as_object_mut() {
            object.insert("epoch".into(), format!("{epoch:016x}").into());
            object.insert("sequence".into(), sequence.into());
        }
        value
    });
    match stamped.and_then(|value| serde_json::to_vec(&value)) {
        Ok(body) => {
            let mut response = Response::new(full(body));
            let headers = response.headers_mut();
            headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
            headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
            response
        }
        Err(_) => text(
            StatusCode::INTERNAL_SERVER_ERROR,
            "the tools report could not be written as JSON",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::form_field;

    #[test]
    fn a_form_field_is_decoded_as_browsers_encode_it() {
        assert_eq!(form_field(b"token=s3cret", "token").unwrap(), b"s3cret");
        assert_eq!(
            form_field(b"a=1&token=a+b%26c%3D", "token").unwrap(),
            b"a b&c="
        );
        assert_eq!(form_field(b"token=100%", "token").unwrap(), b"100%");
        assert_eq!(form_field(b"token", "token").unwrap(), b"");
        assert!(form_field(b"tokens=x", "token").is_none());
    }
}
