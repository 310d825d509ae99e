//! `toolwire census --html FILE`: the Tools page a gateway serves at `/tools`, written for the
//! tool set the command read, so a CI job that fails on a clash keeps a page to open.
//!
//! Policy: the same report and the same renderer as the gateway's: the definitions become one
//! provider per MCP server (or one for the file), loaded into a [`ToolRuntime`], whose
//! `report()` the core's one renderer ([`tools_page_html`]) writes; nothing here makes HTML.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use toolwire_core::mcp::serve::tools_page_html;
use toolwire_core::provider::provider_fn;
use toolwire_core::tools::ToolError;
use toolwire_core::{ToolDefinition, ToolRuntime};

use crate::input::UnusableInput;

/// Writes the Tools page of `definitions` to `path`: each tool under its server's provider
/// (`servers`, tool by tool, when they came from several), else under `source`.
pub fn write_page(
    path: &Path,
    definitions: &[ToolDefinition],
    servers: Option<&[String]>,
    source: &str,
) -> Result<(), UnusableInput> {
    let mut providers: BTreeMap<&str, Vec<ToolDefinition>> = BTreeMap::new();
    let mut order: Vec<&str> = Vec::new();
    for (i, definition) in definitions.iter().enumerate() {
        let provider = servers
            .and_then(|s| s.get(i))
            .map_or(source, String::as_str);
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
    let report = runtime.block_on(async {
        let tools = ToolRuntime::new();
        for name in order {
            let listed = providers.remove(name).unwrap_or_default();
            // A page's tools are never called: a call says so.
            let provider = provider_fn(name, listed, |tool, _| async move {
                Err::<serde_json::Value, _>(ToolError::Failed {
                    tool,
                    message: "a tool of a written Tools page is not called".to_owned(),
                })
            });
            // A load with problems (a clash) is what the page shows; an error (a provider
            // name given twice) cannot happen: the names are the map's keys.
            if let Ok(status) = tools.add_provider(Arc::new(provider)).await {
                let _shown_on_the_page = status;
            }
        }
        tools.report()
    });
    std::fs::write(path, tools_page_html(&report)).map_err(|err| unusable(&err))
}
