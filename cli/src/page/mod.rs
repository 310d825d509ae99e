//! `toolwire census --html FILE`: the Tools page a gateway serves at `/tools`, written for the
//! tool set the command read, so a CI job that fails on a clash keeps a page to open.
//!
//! Policy: the same report and the same renderer as the gateway's: the definitions become one
//! provider per MCP server (or one for the file), loaded into a [`ToolRuntime`] whose census
//! reserves the names `census` reserves (`--taken`), and whose `report()` the core's one
//! renderer ([`tools_page_html`]) writes; nothing here makes HTML. A server that could not be
//! started or listed is a provider whose listing fails with its error, so the page shows it
//! failed and why, as a gateway's page shows a backend that failed.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use futures::future::BoxFuture;
use serde_json::Value;
use toolwire_core::mcp::serve::tools_page_html;
use toolwire_core::provider::{provider_fn, ProviderError, ToolProvider};
use toolwire_core::tools::{ToolError, ToolOutput};
use toolwire_core::ToolDefinition;

use crate::calls::answer::builder_taking;
use crate::input::UnusableInput;
use crate::mcp::ServerFailure;

/// What the page is of.
pub struct PageInput<'a> {
    /// Every tool read.
    pub definitions: &'a [ToolDefinition],
    /// Each tool's server, tool by tool, when they came from several.
    pub servers: Option<&'a [String]>,
    /// The one provider's name otherwise (the file's, or `--server`'s).
    pub source: &'a str,
    /// The names the census reserves (`--taken`, `--no-taken`, or the default meta-tools).
    pub taken: &'a [&'a str],
    /// The servers that could not be started or listed.
    pub failures: &'a [ServerFailure],
}

/// Writes the Tools page of `input` to `path`. A provider the runtime refuses is unusable
/// input (the message names it), not a page that silently lacks it.
pub fn write_page(path: &Path, input: &PageInput<'_>) -> Result<(), UnusableInput> {
    let mut providers: BTreeMap<&str, Vec<ToolDefinition>> = BTreeMap::new();
    let mut order: Vec<&str> = Vec::new();
    for (i, definition) in input.definitions.iter().enumerate() {
        let provider = input
            .servers
            .and_then(|s| s.get(i))
            .map_or(input.source, String::as_str);
        if !providers.contains_key(provider) {
            order.push(provider);
        }
        providers
            .entry(provider)
            .or_default()
            .push(definition.clone());
    }
    let unusable =
        |err: &dyn std::fmt::Display| UnusableInput(format!("--html {}: {err}", path.display()));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .map_err(|err| unusable(&err))?;
    let tools = builder_taking(input.taken)
        .build()
        .map_err(|err| unusable(&err))?;
    let report = runtime.block_on(async {
        for name in order {
            let listed = providers.remove(name).unwrap_or_default();
            // A page's tools are never called: a call says so.
            let provider = provider_fn(name, listed, |tool, _| async move {
                Err::<serde_json::Value, _>(ToolError::Failed {
                    tool,
                    message: "a tool of a written Tools page is not called".to_owned(),
                })
            });
            // A load with problems (a clash) is in the report the page shows; an error (the
            // runtime refused the provider) is the command's.
            let _in_the_report = tools
                .add_provider(Arc::new(provider))
                .await
                .map_err(|err| unusable(&err))?;
        }
        for failure in input.failures {
            let failed = FailedServer(failure.clone());
            let _in_the_report = tools
                .add_provider(Arc::new(failed))
                .await
                .map_err(|err| unusable(&err))?;
        }
        Ok::<_, UnusableInput>(tools.report())
    })?;
    std::fs::write(path, tools_page_html(&report)).map_err(|err| unusable(&err))
}

/// A server that could not be started or listed: its listing fails with that error, so the
/// runtime reports it unreachable, with why.
struct FailedServer(ServerFailure);

impl ToolProvider for FailedServer {
    fn name(&self) -> &str {
        &self.0.server
    }

    fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
        let error = ProviderError::new(self.0.server.clone(), self.0.message.clone());
        Box::pin(async move { Err(error) })
    }

    fn call<'a>(&'a self, tool: &'a str, _: Value) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(async move {
            Err(ToolError::Failed {
                tool: tool.to_owned(),
                message: self.0.message.clone(),
            })
        })
    }
}
