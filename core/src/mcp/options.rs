//! How long toolwire waits for an MCP server, and how much of a tool list it accepts.
//!
//! Policy: every wait on a server is bounded (a server that hangs fails its own provider, never
//! the app), and so is what a server's tool list may cost the app's memory and every request.

use std::time::Duration;

/// How long to wait for each thing an MCP server does.
///
/// ```
/// use std::time::Duration;
/// use toolwire_core::mcp::McpTimeouts;
/// let timeouts = McpTimeouts { call: Duration::from_secs(300), ..McpTimeouts::default() };
/// assert_eq!(timeouts.start, Duration::from_secs(30));
/// assert_eq!(timeouts.list, Duration::from_secs(30));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct McpTimeouts {
    /// Starting (or reaching) the server and the MCP handshake: 30 s by default, since an
    /// `npx`/`uvx` server may download itself on first start.
    pub start: Duration,
    /// Listing its tools (every page): 30 s by default.
    pub list: Duration,
    /// One tool call: 60 s by default. A call that takes longer fails with
    /// [`ToolError::TimedOut`](crate::tools::ToolError::TimedOut) and is cancelled on the
    /// server (`notifications/cancelled`); the calls beside it go on. The server is ended, and
    /// the provider marked failed, only when it does not answer `ping` (`server/discover` with
    /// a 2026-07-28 server) either, which waits a third of `start`, within 1 s and 10 s, and
    /// 2 s more for writing when the server is not reading its input. One tool can have a
    /// limit of its own
    /// ([`McpProvider::with_tool_call_timeout`](crate::mcp::McpProvider::with_tool_call_timeout)).
    ///
    /// A limit of that check over streamable HTTP: rmcp has at most 16 ordinary requests open
    /// at once (its `StreamableHttpClientTransportConfig::max_concurrent_requests`), so a live
    /// server with 16 long calls in flight whose answers have not begun can keep the `ping`
    /// waiting past its bound, and is then ended as if it had stopped answering.
    pub call: Duration,
}

impl Default for McpTimeouts {
    fn default() -> McpTimeouts {
        McpTimeouts {
            start: Duration::from_secs(30),
            list: Duration::from_secs(30),
            call: Duration::from_secs(60),
        }
    }
}

/// How much of a tool list the app accepts from one server. A list over a limit fails that
/// server's load with [`McpError::TooLarge`](crate::mcp::McpError::TooLarge) naming the server, the
/// tool and the limit; the rest of the runtime is unaffected. One oversized tool fails the
/// whole load rather than being dropped: a tool that silently goes missing is harder to
/// diagnose than a load error that says which tool and which limit, and raising the limit is
/// one line.
///
/// The defaults are far above any real server (the largest public ones list a few hundred
/// tools, with descriptions of a few KiB and schemas of tens of KiB) and well below what hurts:
/// each tool travels in every request, and the whole list is held in memory.
///
/// ```
/// use toolwire_core::mcp::McpLimits;
/// let limits = McpLimits::default();
/// assert_eq!(limits.max_tools, 10_000);
/// assert_eq!(limits.max_description_bytes, 64 * 1024);
/// assert_eq!(limits.max_schema_bytes, 1024 * 1024);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct McpLimits {
    /// Tools in one server's list (all pages together): 10 000. Listing stops as soon as a
    /// page goes over, so a server that pages forever is cut off too.
    pub max_tools: usize,
    /// Bytes of one tool's description: 64 KiB (a model reads it in every request).
    pub max_description_bytes: usize,
    /// Bytes of one tool's input schema, as compact JSON: 1 MiB.
    pub max_schema_bytes: usize,
}

impl Default for McpLimits {
    fn default() -> McpLimits {
        McpLimits {
            max_tools: 10_000,
            max_description_bytes: 64 * 1024,
            max_schema_bytes: 1024 * 1024,
        }
    }
}

/// Everything about how an MCP provider treats its server besides where it is: timeouts and
/// limits. [`McpProvider::connect_with`](crate::mcp::McpProvider::connect_with) and
/// [`list_tools_of`](crate::mcp::list_tools_of) take it; the default is the defaults of both.
///
/// ```
/// use std::time::Duration;
/// use toolwire_core::mcp::{McpLimits, McpOptions, McpTimeouts};
/// let options = McpOptions {
///     timeouts: McpTimeouts { start: Duration::from_secs(120), ..McpTimeouts::default() },
///     limits: McpLimits { max_tools: 500, ..McpLimits::default() },
/// };
/// assert_eq!(options.timeouts.call, Duration::from_secs(60));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct McpOptions {
    /// How long to wait.
    pub timeouts: McpTimeouts,
    /// How much to accept.
    pub limits: McpLimits,
}
