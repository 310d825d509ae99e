//! What core's integration tests share: the workspace's fixture MCP server.

mod workspace_binary;

use std::path::PathBuf;

/// The path of `toolwire-fixture-mcp-server`, built by cargo for this test run (see
/// `workspace_binary.rs`).
pub fn fixture_server() -> PathBuf {
    workspace_binary::workspace_binary("toolwire-fixture-mcp-server", "toolwire-fixture-mcp-server")
}
