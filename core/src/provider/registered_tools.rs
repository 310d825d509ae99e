//! The tools registered with `#[tool]`, as a provider.

use std::panic::AssertUnwindSafe;

use futures::future::BoxFuture;
use futures::FutureExt;
use serde_json::Value;

use crate::provider::{caught_panic, ProviderError, ProviderKind, ToolProvider};
use crate::tools::AppState;
use crate::tools::ToolDefinition;
use crate::tools::ToolError;
use crate::tools::ToolOutput;
use crate::tools::{registered_tools, ToolRegistration};

/// Every `#[tool]` linked into the binary, as a [`ToolProvider`] named `app` of kind
/// [`ProviderKind::Static`]; each call gets the app state given here.
///
/// ```
/// use toolwire_core::{AppState, provider::{RegisteredTools, ToolProvider}};
/// let provider = RegisteredTools::new(AppState::new());
/// assert_eq!(provider.name(), "app");
/// ```
#[derive(Clone, Debug)]
pub struct RegisteredTools {
    tools: Vec<&'static ToolRegistration>,
    state: AppState,
}

impl RegisteredTools {
    /// The registered tools, with `state` for the tools that take [`State`](crate::tools::State).
    ///
    /// ```
    /// use serde_json::json;
    /// use toolwire_core::{AppState, provider::{RegisteredTools, ToolProvider}, tools::ToolRegistration};
    ///
    /// // What `#[tool] fn answer(n: State<u32>) -> u32` submits, written by hand (core has no
    /// // macro).
    /// inventory::submit! {
    ///     ToolRegistration {
    ///         name: "answer", form: "answer", description: "The answer.",
    ///         schema: || json!({"type": "object"}),
    ///         handler: |input| Box::pin(async move {
    ///             Ok(json!(*input.state.get::<u32>().expect("the app state holds a u32")))
    ///         }),
    ///         module_path: module_path!(), file: file!(), line: line!(), validates_arguments: false,
    ///     }
    /// }
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let provider = RegisteredTools::new(AppState::new().with(42u32));
    /// let tools = provider.list_tools().await.unwrap();
    /// assert_eq!(tools.len(), 1);
    /// assert_eq!(tools[0].name, "answer");
    /// assert_eq!(provider.call("answer", json!({})).await.unwrap(), json!(42));
    /// # });
    /// ```
    pub fn new(state: AppState) -> RegisteredTools {
        RegisteredTools::from_registrations(registered_tools(), state)
    }

    /// A provider over the given registrations only.
    ///
    /// ```
    /// use toolwire_core::{AppState, provider::{RegisteredTools, ToolProvider}};
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let none = RegisteredTools::from_registrations(Vec::new(), AppState::new());
    /// assert!(none.list_tools().await.unwrap().is_empty());
    /// # });
    /// ```
    pub fn from_registrations(
        tools: Vec<&'static ToolRegistration>,
        state: AppState,
    ) -> RegisteredTools {
        RegisteredTools { tools, state }
    }
}

impl ToolProvider for RegisteredTools {
    fn name(&self) -> &str {
        "app"
    }

    fn kind(&self) -> ProviderKind {
        ProviderKind::Static
    }

    /// It calls each registration's own handler, which validates when the registration says
    /// so (`ToolRegistration::validates_arguments`, set by `#[tool]`).
    fn validates_arguments(&self) -> bool {
        true
    }

    fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
        let defs = self.tools.iter().map(|t| t.definition()).collect();
        Box::pin(async move { Ok(defs) })
    }

    fn call<'a>(
        &'a self,
        tool: &'a str,
        arguments: Value,
    ) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(async move {
            let Some(registration) = self.tools.iter().find(|t| t.name == tool) else {
                return Err(ToolError::Unavailable {
                    tool: tool.to_owned(),
                    provider: self.name().to_owned(),
                    reason: "has no such tool".to_owned(),
                    detail: String::new(),
                });
            };
            // A panicking tool must not take the runtime down: catch it and report it.
            // The handler runs inside the guarded future, so a panic while it parses is caught too.
            let state = self.state.clone();
            match AssertUnwindSafe(async move { registration.call(arguments, state).await })
                .catch_unwind()
                .await
            {
                Ok(result) => result.map(ToolOutput::Json),
                Err(panic) => Err(caught_panic(tool, &*panic)),
            }
        })
    }
}
