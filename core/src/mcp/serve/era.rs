//! Which revision of MCP a request speaks, and what that decides: whether it belongs to a
//! session (up to 2025-11-25) or stands alone (2026-07-28), and the cache hints its list gets.
//!
//! Policy: one behaviour per era. A legacy session is one conversation: a deferred catalog
//! loads tools into its list and tells it `list_changed`. A modern request is answered from the
//! runtime alone (no conversation, nothing kept between requests), so its `tools/list` never
//! changes as a side effect of another request and any replica answers it alike.

use std::borrow::Cow;

use rmcp::model::{CacheScope, ProtocolVersion};
use rmcp::service::RequestContext;
use rmcp::RoleServer;

/// The revisions served: every one rmcp knows up to 2026-07-28, oldest first. rmcp's
/// `ServerHandler::supported_protocol_versions` is what `server/discover` advertises, what
/// `initialize` may agree to and what a request's own `_meta` version is checked against (an
/// unknown one is -32022 with this list: rmcp `ErrorData::unsupported_protocol_version`).
pub(super) fn served_versions() -> Cow<'static, [ProtocolVersion]> {
    Cow::Borrowed(ProtocolVersion::known_up_to(&ProtocolVersion::V_2026_07_28))
}

/// Whether `context`'s request stands alone: its revision has no `initialize` (2026-07-28,
/// SEP-2567: "sessions are removed"), read from the request's own `_meta` or, for a session
/// that shook hands, the version it agreed (rmcp `RequestContext::protocol_version`).
pub(super) fn is_stateless(context: &RequestContext<RoleServer>) -> bool {
    context
        .protocol_version()
        .is_some_and(|version| !version.has_initialize())
}

/// How long a client may keep a `tools/list` that depends on no session: one minute. Our own
/// choice: the list changes only when a backend's tools do (a restart, its own
/// `list_changed`), which a client that listens (`subscriptions/listen`) hears at once; one
/// that does not sees a new tool within the minute, and a tool gone in the meantime answers its
/// call with the unknown-tool error, never with another tool.
pub(super) const LIST_TTL_MS: u64 = 60_000;

/// The cache hints of one `tools/list` answer (MCP 2026-07-28 SEP-2549, rmcp
/// `ListToolsResult::ttl_ms` / `cache_scope`): a legacy session's deferred list is its own and
/// changes when it loads a tool (`0`, `private`); any other list is the same for every caller
/// of this server, so `public`, unless the request came with credentials (`Authorization`),
/// when it is `private`: a shared cache must not hand it to someone without them.
pub(super) fn list_cache_hints(
    context: &RequestContext<RoleServer>,
    per_session: bool,
) -> (u64, CacheScope) {
    if per_session {
        return (0, CacheScope::Private);
    }
    let authorized = context
        .extensions
        .get::<http::request::Parts>()
        .is_some_and(|parts| parts.headers.contains_key(http::header::AUTHORIZATION));
    let scope = if authorized {
        CacheScope::Private
    } else {
        CacheScope::Public
    };
    (LIST_TTL_MS, scope)
}
