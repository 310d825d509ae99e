//! Which MCP era a server speaks: how a connection finds out (rmcp's `Auto` lifecycle under a
//! probe budget), and what is remembered of it.
//!
//! MCP 2026-07-28 has no `initialize`: a client sends `server/discover`, and a server that
//! does not know the method is an earlier one ("Backward compatibility",
//! <https://modelcontextprotocol.io/specification/2026-07-28/basic/lifecycle>). rmcp 3.11's
//! `ClientLifecycleMode::Auto` (`service/client.rs`) sends the probe and falls back to
//! `initialize` on the same transport when the answer is a JSON-RPC error that is not a
//! modern rejection, or when no answer comes within `DEFAULT_AUTO_DISCOVER_TIMEOUT`, a fixed
//! 10 s that cannot be configured.
//!
//! Policy (ours): a silent server must cost no more than the start timeout the user set, so
//! [`DiscoverBudget`] wraps the transport and acts once [`probe_budget`] has passed without an
//! answer ([`OnSilence`]):
//! - over stdio it hands rmcp a synthesized method-not-found error for the probe: rmcp's
//!   `Auto` then falls back on the same pipe, the same process (a fresh transport would mean
//!   starting the server twice, which for an `npx` server is seconds more);
//! - over HTTP it ends the transport, and the connection starts a fresh one with
//!   `initialize` (a new HTTP connection costs little, and rmcp 3.11's streamable-HTTP worker
//!   does not start the fallback `initialize` POST while the abandoned discover POST is still
//!   winding down: measured, the start then ran out).
//!
//! What is remembered: the era found is used again, without a probe, for the next start of the
//! same provider's stdio command (a reload) and for every connection to the same HTTP origin
//! (scheme, host, port) in this process, until a connection with it fails; then it is
//! forgotten and the next start probes again.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use rmcp::model::{
    ClientJsonRpcMessage, ClientRequest, ErrorCode, ErrorData, JsonRpcMessage, ProtocolVersion,
    RequestId, ServerJsonRpcMessage,
};
use rmcp::service::{ClientLifecycleMode, RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use tokio::time::Instant;

use super::server::McpServer;

/// rmcp 3.11's own wait for an answer to the `Auto` probe (`DEFAULT_AUTO_DISCOVER_TIMEOUT` in
/// `service/client.rs`); our budget never exceeds it.
const RMCP_AUTO_DISCOVER_TIMEOUT: Duration = Duration::from_secs(10);

/// How long the probe may take out of a start timeout of `start`: the smaller of rmcp's 10 s
/// and a third of `start`, so that two thirds are left for `initialize` (and a slow first
/// start) after a silent probe. The share is our choice.
pub(crate) fn probe_budget(start: Duration) -> Duration {
    RMCP_AUTO_DISCOVER_TIMEOUT.min(start / 3)
}

/// The latest revision that still has `initialize` (rmcp 3.11
/// `ProtocolVersion::LATEST_WITH_INITIALIZE`): what a fallback asks for.
const LEGACY_VERSION: ProtocolVersion = ProtocolVersion::LATEST_WITH_INITIALIZE;

/// What was learned of a server's era.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Known {
    /// It answered `server/discover`; this version was chosen.
    Modern(ProtocolVersion),
    /// It did not: it speaks `initialize`.
    Legacy,
}

impl Known {
    /// What the negotiated version says of the era.
    pub(crate) fn of(version: &ProtocolVersion) -> Known {
        if version.has_initialize() {
            Known::Legacy
        } else {
            Known::Modern(version.clone())
        }
    }

    /// The rmcp lifecycle to start with: `Auto` when nothing is known; for a known era, that
    /// era's own handshake (no probe).
    pub(crate) fn lifecycle(known: Option<&Known>) -> ClientLifecycleMode {
        match known {
            None => ClientLifecycleMode::Auto {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                legacy_version: Some(LEGACY_VERSION),
            },
            Some(Known::Modern(version)) => ClientLifecycleMode::Discover {
                preferred_versions: vec![version.clone()],
            },
            Some(Known::Legacy) => ClientLifecycleMode::Initialize,
        }
    }
}

/// Where the era of a provider's server is remembered: the provider's own slot for a stdio
/// command, the process-wide map of origins for HTTP.
#[derive(Debug, Default)]
pub(crate) struct EraMemory {
    local: Mutex<Option<Known>>,
}

/// The eras of HTTP origins seen in this process.
fn origins() -> &'static Mutex<HashMap<String, Known>> {
    static ORIGINS: OnceLock<Mutex<HashMap<String, Known>>> = OnceLock::new();
    ORIGINS.get_or_init(Default::default)
}

/// `scheme://host:port` of `url` (the port given or the scheme's own), or `None` when it does
/// not parse (the connection then fails on its own, with a better error).
pub(crate) fn origin(url: &str) -> Option<String> {
    let uri: http::Uri = url.parse().ok()?;
    let scheme = uri.scheme_str()?.to_ascii_lowercase();
    let host = uri.host()?.to_ascii_lowercase();
    let port = uri.port_u16().or(match scheme.as_str() {
        "http" => Some(80),
        "https" => Some(443),
        _ => None,
    })?;
    Some(format!("{scheme}://{host}:{port}"))
}

impl EraMemory {
    /// The era remembered for `server`.
    pub(crate) fn recall(&self, server: &McpServer) -> Option<Known> {
        match server {
            McpServer::Stdio(_) => self.local.lock().unwrap_or_else(|p| p.into_inner()).clone(),
            McpServer::Http(http) => {
                let origin = origin(&http.url)?;
                origins()
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .get(&origin)
                    .cloned()
            }
        }
    }

    /// Remembers `known` for `server`, or forgets what was (`None`).
    pub(crate) fn remember(&self, server: &McpServer, known: Option<Known>) {
        match server {
            McpServer::Stdio(_) => *self.local.lock().unwrap_or_else(|p| p.into_inner()) = known,
            McpServer::Http(http) => {
                let Some(origin) = origin(&http.url) else {
                    return;
                };
                let mut origins = origins().lock().unwrap_or_else(|p| p.into_inner());
                match known {
                    Some(known) => origins.insert(origin, known),
                    None => origins.remove(&origin),
                };
            }
        }
    }
}

/// What [`DiscoverBudget`] does when the probe's budget runs out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OnSilence {
    /// Answers the probe with a synthesized error, so rmcp's `Auto` falls back in place.
    Synthesize,
    /// Ends the transport, for the connection to start afresh with `initialize`.
    Close,
}

/// What [`DiscoverBudget`] saw of the probe, read after a failed start.
#[derive(Clone, Debug, Default)]
pub(crate) struct ProbeSeen {
    /// The probe went unanswered and the transport ended: a stdio server that exits on a
    /// method it does not know, or [`OnSilence::Close`] after a silent one.
    unanswered: Arc<AtomicBool>,
}

impl ProbeSeen {
    /// Whether the start failed on the probe itself, so a start with `initialize` may work.
    pub(crate) fn ended_on_probe(&self) -> bool {
        self.unanswered.load(Ordering::SeqCst)
    }
}

/// The probe in flight: its request id and when the budget ends.
struct Probe {
    id: RequestId,
    deadline: Instant,
}

/// A client transport that bounds the wait for an answer to `server/discover` (see the
/// module's policy). Every other message passes through untouched; once the probe is answered
/// or given up, it costs one `Option` check per message.
pub(crate) struct DiscoverBudget<T> {
    inner: T,
    budget: Duration,
    on_silence: OnSilence,
    probe: Option<Probe>,
    /// The probe given up on: its late answer, if one comes, is dropped (rmcp would log it as
    /// a response to no request).
    given_up: Option<RequestId>,
    seen: ProbeSeen,
}

impl<T> DiscoverBudget<T> {
    pub(crate) fn new(
        inner: T,
        budget: Duration,
        on_silence: OnSilence,
        seen: ProbeSeen,
    ) -> DiscoverBudget<T> {
        DiscoverBudget {
            inner,
            budget,
            on_silence,
            probe: None,
            given_up: None,
            seen,
        }
    }
}

/// The id of the response or error `message` carries, if it is one.
fn answers(message: &ServerJsonRpcMessage) -> Option<&RequestId> {
    match message {
        JsonRpcMessage::Response(response) => Some(&response.id),
        JsonRpcMessage::Error(error) => error.id.as_ref(),
        _ => None,
    }
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for DiscoverBudget<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl std::future::Future<Output = Result<(), Self::Error>> + Send + 'static {
        let deadline = match &item {
            ClientJsonRpcMessage::Request(request)
                if matches!(request.request, ClientRequest::DiscoverRequest(_)) =>
            {
                // One budget for the whole probe, a retry at another version included.
                let deadline = self
                    .probe
                    .as_ref()
                    .map_or_else(|| Instant::now() + self.budget, |p| p.deadline);
                self.probe = Some(Probe {
                    id: request.id.clone(),
                    deadline,
                });
                Some(deadline)
            }
            _ => None,
        };
        let sending = self.inner.send(item);
        async move {
            match deadline {
                // An HTTP POST can hang before its response starts: stop waiting at the same
                // deadline (the POST is dropped, so cancelled), and `receive` gives up too.
                Some(deadline) => tokio::time::timeout_at(deadline, sending)
                    .await
                    .unwrap_or(Ok(())),
                None => sending.await,
            }
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        loop {
            let Some(probe) = &self.probe else {
                let message = self.inner.receive().await?;
                if self.given_up.is_some() && answers(&message) == self.given_up.as_ref() {
                    self.given_up = None;
                    continue;
                }
                return Some(message);
            };
            let deadline = probe.deadline;
            tokio::select! {
                message = self.inner.receive() => {
                    let Some(message) = message else {
                        self.seen.unanswered.store(true, Ordering::SeqCst);
                        return None;
                    };
                    if answers(&message) == Some(&probe.id) {
                        self.probe = None;
                    }
                    return Some(message);
                }
                () = tokio::time::sleep_until(deadline) => {
                    let id = probe.id.clone();
                    self.probe = None;
                    if self.on_silence == OnSilence::Close {
                        self.seen.unanswered.store(true, Ordering::SeqCst);
                        return None;
                    }
                    self.given_up = Some(id.clone());
                    // Not a modern rejection code, so rmcp's `Auto` takes the server for a
                    // legacy one and sends `initialize` (`discover_startup`, rmcp 3.11).
                    let error = ErrorData::new(
                        ErrorCode::METHOD_NOT_FOUND,
                        format!(
                            "toolwire: no answer to server/discover within {} ms",
                            self.budget.as_millis()
                        ),
                        None,
                    );
                    return Some(ServerJsonRpcMessage::error(error, Some(id)));
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.inner.close().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_probe_budget_is_a_third_of_the_start_up_to_rmcps_ten_seconds() {
        assert_eq!(
            probe_budget(Duration::from_secs(30)),
            Duration::from_secs(10)
        );
        assert_eq!(
            probe_budget(Duration::from_secs(120)),
            Duration::from_secs(10)
        );
        assert_eq!(probe_budget(Duration::from_secs(3)), Duration::from_secs(1));
    }

    #[test]
    fn an_origin_is_scheme_host_and_port() {
        assert_eq!(
            origin("http://127.0.0.1:8000/mcp").as_deref(),
            Some("http://127.0.0.1:8000")
        );
        assert_eq!(
            origin("HTTPS://Example.com/a/b").as_deref(),
            Some("https://example.com:443")
        );
        assert_eq!(origin("not a url"), None);
    }

    #[test]
    fn a_version_with_initialize_is_legacy() {
        assert_eq!(Known::of(&ProtocolVersion::V_2025_11_25), Known::Legacy);
        assert_eq!(
            Known::of(&ProtocolVersion::V_2026_07_28),
            Known::Modern(ProtocolVersion::V_2026_07_28)
        );
    }
}
