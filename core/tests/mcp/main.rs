//! The whole journey against a real MCP server over stdio and streamable HTTP (the workspace's
//! fixture server): census, wire shapes, dispatch by real name and by form, faults, reload, a
//! scripted model driving several turns, the processes a server leaves, live tool lists,
//! limits, and the `mcpServers` config; and what a server says about its tools (titles,
//! annotations, tasks, a live list) reaching the app, on an in-process provider.
//!
//! One test binary (one fixture build, one link) with a module per concern; this file holds
//! what they share.

mod bad_tools;
mod cancel;
mod config;
mod eras;
mod faults;
mod http;
mod in_process;
mod processes;
mod server;
mod server_hints;
mod stale_list;
mod tool_list;
mod turns;

use std::sync::Arc;
use std::time::Duration;

use toolwire_core::{
    mcp::{McpCommand, McpProvider},
    runtime::report::{ToolReport, ToolsReport},
    runtime::{LoadProblem, LoadStatus},
    ToolRuntime,
};
use toolwire_test_support::fixture_server::{fixture_server, HttpFixture};

/// The fixture's 70-character tool name: its form is its first 64 characters.
const LONG: &str = "a_tool_name_that_is_seventy_characters_long_so_the_form_must_cut_it_xy";

/// The call timeout of every fixture provider but one: a bound on a hang, never a duration a
/// test measures (a shared 2-core machine can be slow, but not a minute slow).
const HANG_BOUND: Duration = Duration::from_secs(60);

/// The fixture server's command with `args`.
fn fixture_command(args: &[&str]) -> McpCommand {
    let mut command = McpCommand::new(fixture_server().to_string_lossy());
    for a in args {
        command = command.arg(*a);
    }
    command
}

async fn fixture(server: &str, args: &[&str]) -> Arc<McpProvider> {
    fixture_with_timeout(server, args, HANG_BOUND).await
}

async fn fixture_with_timeout(server: &str, args: &[&str], timeout: Duration) -> Arc<McpProvider> {
    Arc::new(
        McpProvider::spawn(server, fixture_command(args))
            .await
            .expect("the fixture server starts")
            .with_call_timeout(timeout),
    )
}

/// Asserts the load of the fixture server named `server` failed with exactly its one clash:
/// under the server's prefix, `search.web` and `search_web` share a form (the fixture's hard
/// names are on purpose), so neither is offered; every other tool is.
fn assert_search_clash(status: &LoadStatus, server: &str) {
    let expected = LoadStatus::Failed {
        problems: vec![LoadProblem::SharedForm {
            form: format!("mcp_{server}_search_web"),
            tools: vec![
                format!("mcp/{server}/search.web"),
                format!("mcp/{server}/search_web"),
            ],
        }],
    };
    assert_eq!(status, &expected);
}

/// A runtime with one fixture server per name (`mcp/<name>/...`).
async fn runtime_with(servers: &[&str]) -> ToolRuntime {
    let runtime = ToolRuntime::new();
    for server in servers {
        let status = runtime
            .add_provider(fixture(server, &[]).await)
            .await
            .unwrap();
        assert_search_clash(&status, server);
    }
    runtime
}

/// The report entry of `tool`.
fn status_of<'a>(report: &'a ToolsReport, tool: &str) -> &'a ToolReport {
    report
        .tools
        .iter()
        .find(|t| t.name == tool)
        .unwrap_or_else(|| panic!("{tool} is not in the report"))
}
