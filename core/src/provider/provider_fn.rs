//! A provider made of closures: a name, a list, a call. tower's `service_fn` for tools: a test or
//! a doc writes one expression instead of an `impl ToolProvider` block.
//!
//! Policy: the closures are the provider, nothing more; a panic in `call` (while it makes its
//! future or while the future runs) is caught as [`ToolError::Panicked`], as for a `#[tool]`.

use std::fmt;
use std::future::Future;
use std::panic::AssertUnwindSafe;

use futures::future::BoxFuture;
use futures::FutureExt;
use serde_json::Value;

use crate::provider::{caught_panic, ProviderError, ProviderKind, ToolProvider};
use crate::tools::ToolDefinition;
use crate::tools::ToolError;
use crate::tools::ToolOutput;

type ListFn = dyn Fn() -> Result<Vec<ToolDefinition>, ProviderError> + Send + Sync;
type CallFn =
    dyn Fn(String, Value) -> BoxFuture<'static, Result<ToolOutput, ToolError>> + Send + Sync;

/// A [`ToolProvider`] made of closures; build one with [`provider_fn`]. It is
/// [`ProviderKind::Loaded`] unless [`with_kind`](ProviderFn::with_kind) says otherwise, and lists
/// the same tools every time unless [`with_list`](ProviderFn::with_list) gives a listing closure.
///
/// ```
/// use std::sync::Arc;
/// use serde_json::json;
/// use toolwire_core::{ToolDefinition, ToolRuntime, provider::provider_fn, runtime::Route};
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let echo = provider_fn(
///     "echo",
///     vec![ToolDefinition::new("mcp/server/echo", "Echoes.", json!({}))],
///     |_tool, arguments| async move { Ok(arguments) },
/// );
/// let runtime = ToolRuntime::new();
/// runtime.add_provider(Arc::new(echo)).await.unwrap().check().unwrap();
/// let out = runtime.request().dispatch("mcp_server_echo", json!({"x": 1})).await.unwrap();
/// assert_eq!((out.output, out.route), (json!({"x": 1}).into(), Route::Form));
/// # });
/// ```
pub struct ProviderFn {
    name: String,
    kind: ProviderKind,
    list: Box<ListFn>,
    call: Box<CallFn>,
    changes: Option<tokio::sync::watch::Receiver<u64>>,
}

/// A provider named `name` that lists `tools` and runs a call with `call(tool, arguments)`,
/// `tool` being the real name. The call's future is awaited by the runtime; a panic in it is a
/// [`ToolError::Panicked`]. It returns anything that is a [`ToolOutput`]: a JSON `Value`, or
/// content blocks ([`ToolContent`](crate::tools::ToolContent)).
///
/// ```
/// use serde_json::json;
/// use toolwire_core::{ToolDefinition, ToolError, provider::{provider_fn, ToolProvider}};
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let clock = provider_fn(
///     "clock",
///     vec![ToolDefinition::new("clock/now", "The time.", json!({}))],
///     |tool, _arguments| async move { Ok(json!({"tool": tool, "now": "12:00"})) },
/// );
/// assert_eq!(clock.name(), "clock");
/// assert_eq!(clock.list_tools().await.unwrap()[0].name, "clock/now");
/// let out = clock.call("clock/now", json!({})).await.unwrap();
/// assert_eq!(out, json!({"tool": "clock/now", "now": "12:00"}));
///
/// let broken = provider_fn("broken", Vec::new(), |_, _| async { panic!("boom") as Result<serde_json::Value, _> });
/// let err = broken.call("x", json!({})).await.unwrap_err();
/// assert_eq!(err, ToolError::Panicked { tool: "x".into(), message: "boom".into() });
/// # });
/// ```
pub fn provider_fn<C, F, O>(
    name: impl Into<String>,
    tools: Vec<ToolDefinition>,
    call: C,
) -> ProviderFn
where
    C: Fn(String, Value) -> F + Send + Sync + 'static,
    F: Future<Output = Result<O, ToolError>> + Send + 'static,
    O: Into<ToolOutput>,
{
    ProviderFn {
        name: name.into(),
        kind: ProviderKind::Loaded,
        list: Box::new(move || Ok(tools.clone())),
        call: Box::new(move |tool, arguments| {
            let future = call(tool, arguments);
            Box::pin(async move { future.await.map(Into::into) })
        }),
        changes: None,
    }
}

impl ProviderFn {
    /// Lists the tools with `list` at every load and reload instead of the fixed list: for a
    /// provider whose tools change, or whose listing fails.
    ///
    /// ```
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    /// use std::sync::Arc;
    /// use serde_json::json;
    /// use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let loads = Arc::new(AtomicUsize::new(0));
    /// let counter = loads.clone();
    /// let growing = provider_fn("growing", Vec::new(), |_, _| async { Ok(json!(null)) })
    ///     .with_list(move || {
    ///         let n = counter.fetch_add(1, Ordering::SeqCst) + 1;
    ///         Ok((0..n).map(|i| ToolDefinition::new(format!("t{i}"), "A tool.", json!({}))).collect())
    ///     });
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(growing)).await.unwrap().check().unwrap();
    /// runtime.reload_provider("growing").await.unwrap().check().unwrap();
    /// assert_eq!(runtime.request().census().offered().count(), 2);
    ///
    /// let down = provider_fn("down", Vec::new(), |_, _| async { Ok(json!(null)) })
    ///     .with_list(|| Err(ProviderError::new("down", "the server is not running")));
    /// let status = runtime.add_provider(Arc::new(down)).await.unwrap();
    /// assert!(matches!(status, LoadStatus::Failed { .. }));
    /// # });
    /// ```
    pub fn with_list(
        mut self,
        list: impl Fn() -> Result<Vec<ToolDefinition>, ProviderError> + Send + Sync + 'static,
    ) -> ProviderFn {
        self.list = Box::new(list);
        self
    }

    /// The provider's kind: [`ProviderKind::Static`] for tools written into the app, which
    /// outrank every loaded tool for a shared form.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use serde_json::json;
    /// use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let tool = |name: &str| vec![ToolDefinition::new(name, "A tool.", json!({}))];
    /// let app = provider_fn("app", tool("search.web"), |_, _| async { Ok(json!("app")) })
    ///     .with_kind(ProviderKind::Static);
    /// let loaded = provider_fn("mcp", tool("search/web"), |_, _| async { Ok(json!("mcp")) });
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(loaded)).await.unwrap().check().unwrap();
    /// runtime.add_provider(Arc::new(app)).await.unwrap().check().unwrap();
    /// let out = runtime.request().dispatch("search_web", json!({})).await.unwrap();
    /// assert_eq!(out.output, "app");
    /// # });
    /// ```
    pub fn with_kind(mut self, kind: ProviderKind) -> ProviderFn {
        self.kind = kind;
        self
    }

    /// Signals a change of the tool list through `changes`
    /// ([`ToolProvider::tools_changed`]): the runtime lists the tools again (with the
    /// [`with_list`](Self::with_list) closure) each time the sender sends.
    ///
    /// ```
    /// use std::sync::{Arc, Mutex};
    /// use serde_json::json;
    /// use toolwire_core::{census::*, mcp::{*, config::*}, names::*, provider::*, runtime::{*, approval::*, report::*}, schema::{*, dialect::*}, search::*, tools::*, wire::*};
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let names = Arc::new(Mutex::new(vec!["a"]));
    /// let (send, changes) = tokio::sync::watch::channel(0u64);
    /// let listed = names.clone();
    /// let live = provider_fn("live", Vec::new(), |_, _| async { Ok(json!(null)) })
    ///     .with_list(move || Ok(listed.lock().unwrap().iter().map(|n| ToolDefinition::new(*n, "A tool.", json!({}))).collect()))
    ///     .with_changes(changes);
    /// let runtime = ToolRuntime::new();
    /// runtime.add_provider(Arc::new(live)).await.unwrap().check().unwrap();
    /// let mut seen = runtime.tool_set_changes();
    /// seen.mark_unchanged();
    /// names.lock().unwrap().push("b");
    /// send.send_replace(1);
    /// seen.changed().await.unwrap(); // the runtime listed again
    /// assert_eq!(runtime.request().census().offered().count(), 2);
    /// # });
    /// ```
    pub fn with_changes(mut self, changes: tokio::sync::watch::Receiver<u64>) -> ProviderFn {
        self.changes = Some(changes);
        self
    }
}

impl fmt::Debug for ProviderFn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ProviderFn")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
}

impl ToolProvider for ProviderFn {
    fn name(&self) -> &str {
        &self.name
    }

    fn kind(&self) -> ProviderKind {
        self.kind
    }

    fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
        Box::pin(futures::future::ready((self.list)()))
    }

    fn tools_changed(&self) -> Option<tokio::sync::watch::Receiver<u64>> {
        self.changes.clone()
    }

    fn call<'a>(
        &'a self,
        tool: &'a str,
        arguments: Value,
    ) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        // The closure runs here, so a panic while it makes its future is caught too.
        let started =
            std::panic::catch_unwind(AssertUnwindSafe(|| (self.call)(tool.to_owned(), arguments)));
        Box::pin(async move {
            match started {
                Ok(future) => AssertUnwindSafe(future)
                    .catch_unwind()
                    .await
                    .unwrap_or_else(|panic| Err(caught_panic(tool, &*panic))),
                Err(panic) => Err(caught_panic(tool, &*panic)),
            }
        })
    }
}
