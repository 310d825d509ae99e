//! The MCP server config users already have: the `mcpServers` JSON of desktop clients
//! (Claude Desktop, Cursor, VS Code-style `mcp.json`), read into [`McpServer`]s, and
//! [`add_mcp_servers`], which adds each as a provider of a runtime.
//!
//! Policy: report what is wrong by server and field (`server "github", field "args": …`), so a
//! user fixes the file in one go; ignore fields other clients add (`disabled`, `autoApprove`,
//! `timeout`…) rather than refuse a file that works elsewhere. Servers come sorted by name:
//! this workspace's `serde_json` keeps objects in sorted maps (its `preserve_order` feature is
//! off), so the file's order is not known here; the list is sorted explicitly, so the order is
//! the same in every build.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::mcp::{check_server_name, McpCommand, McpHttp, McpOptions, McpProvider, McpServer};
use crate::provider::ProviderError;
use crate::runtime::{LoadStatus, ToolRuntime};

/// The servers of an `mcpServers` config, by name (sorted by name).
///
/// ```
/// use toolwire_core::{mcp::McpServer, mcp::config::McpConfig};
/// let config = McpConfig::from_json(r#"{"mcpServers": {
///     "files": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]},
///     "docs": {"url": "http://127.0.0.1:8000/mcp", "headers": {"Authorization": "Bearer s3cret"}}
/// }}"#).unwrap();
/// let names: Vec<&str> = config.servers.iter().map(|(name, _)| name.as_str()).collect();
/// assert_eq!(names, ["docs", "files"]);
/// let McpServer::Stdio(files) = &config.servers[1].1 else { panic!() };
/// assert_eq!(files.args[0], "-y");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct McpConfig {
    /// Each server's name (its key in `mcpServers`) and where it is.
    pub servers: Vec<(String, McpServer)>,
}

/// What is wrong with an `mcpServers` config: which file, server and field, and what to write.
///
/// ```
/// use toolwire_core::mcp::config::{McpConfig, McpConfigError};
/// let err = McpConfig::from_json(r#"{"mcpServers": {"git": {"command": "git-mcp", "args": "x"}}}"#)
///     .unwrap_err();
/// assert_eq!(
///     err,
///     McpConfigError::Field {
///         server: "git".into(),
///         field: "args".into(),
///         reason: "must be an array of strings".into()
///     }
/// );
/// assert_eq!(err.to_string(), "MCP server \"git\" in the config: field \"args\" must be an array of strings");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum McpConfigError {
    /// The file could not be read.
    #[error("cannot read the MCP config {}: {reason}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// The text is not JSON, or not the `{"mcpServers": {...}}` shape.
    #[error("the MCP config is not usable: {reason}")]
    Shape {
        /// What is wrong, and the shape expected.
        reason: String,
    },
    /// One server's entry is wrong as a whole (neither a command nor a URL, both, a bad name).
    #[error("MCP server {server:?} in the config: {reason}")]
    Server {
        /// The server's name (its key).
        server: String,
        /// What is wrong, and what to write.
        reason: String,
    },
    /// One field of one server's entry has the wrong type.
    #[error("MCP server {server:?} in the config: field {field:?} {reason}")]
    Field {
        /// The server's name (its key).
        server: String,
        /// The field.
        field: String,
        /// What it must be.
        reason: String,
    },
}

impl McpConfig {
    /// Parses an `mcpServers` config: `{"mcpServers": {"NAME": {"command", "args", "env",
    /// "cwd"} | {"url", "headers"}}}`. An optional `"type"` must agree (`"stdio"`; `"http"` or
    /// `"streamable-http"`); the old SSE transport (`"type": "sse"`) is refused with a typed
    /// error, as toolwire does not speak it.
    ///
    /// ```
    /// use toolwire_core::mcp::config::{McpConfig, McpConfigError};
    /// let err = McpConfig::from_json(r#"{"mcpServers": {"x": {"args": []}}}"#).unwrap_err();
    /// assert!(matches!(err, McpConfigError::Server { ref server, .. } if server == "x"));
    /// assert!(err.to_string().contains("\"command\""), "{err}");
    /// ```
    pub fn from_json(text: &str) -> Result<McpConfig, McpConfigError> {
        let root: Value = serde_json::from_str(text).map_err(|e| McpConfigError::Shape {
            reason: format!("it is not valid JSON: {e}"),
        })?;
        let servers = root
            .get("mcpServers")
            .ok_or_else(|| McpConfigError::Shape {
                reason: "it has no \"mcpServers\" object; write {\"mcpServers\": {\"name\": {\"command\": \"...\"}}}".to_owned(),
            })?
            .as_object()
            .ok_or_else(|| McpConfigError::Shape {
                reason: "\"mcpServers\" must be an object of servers by name".to_owned(),
            })?;
        let mut servers = servers
            .iter()
            .map(|(name, entry)| Ok((name.clone(), server(name, entry)?)))
            .collect::<Result<Vec<_>, McpConfigError>>()?;
        // Sorted here too: a build whose `serde_json` has `preserve_order` (another crate may
        // turn it on) would otherwise give the file's order, and the order would depend on
        // the build.
        servers.sort_by(|a, b| a.0.cmp(&b.0));
        Ok(McpConfig { servers })
    }

    /// Reads and parses the config file at `path` (see [`McpConfig::from_json`]).
    ///
    /// ```
    /// use toolwire_core::mcp::config::{McpConfig, McpConfigError};
    /// let err = McpConfig::read("/nonexistent/claude_desktop_config.json").unwrap_err();
    /// assert!(matches!(err, McpConfigError::Read { .. }));
    /// assert!(err.to_string().contains("/nonexistent/claude_desktop_config.json"));
    /// ```
    pub fn read(path: impl AsRef<Path>) -> Result<McpConfig, McpConfigError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|e| McpConfigError::Read {
            path: path.to_owned(),
            reason: e.to_string(),
        })?;
        McpConfig::from_json(&text)
    }
}

/// One server's entry.
fn server(name: &str, entry: &Value) -> Result<McpServer, McpConfigError> {
    let whole = |reason: String| McpConfigError::Server {
        server: name.to_owned(),
        reason,
    };
    check_server_name(name).map_err(|e| whole(e.to_string()))?;
    let entry = entry
        .as_object()
        .ok_or_else(|| whole("its entry must be an object".to_owned()))?;
    let kind = string(name, entry, "type")?;
    let command = string(name, entry, "command")?;
    let url = string(name, entry, "url")?;
    let stdio = match (command, url) {
        (Some(_), Some(_)) => {
            return Err(whole(
                "it has both \"command\" and \"url\"; keep one (a command to start, or a URL to reach)"
                    .to_owned(),
            ))
        }
        (None, None) => {
            return Err(whole(
                "it has neither \"command\" (a program to start) nor \"url\" (a streamable HTTP endpoint)"
                    .to_owned(),
            ))
        }
        (Some(command), None) => Some(command),
        (None, Some(_)) => None,
    };
    match (kind.as_deref(), stdio.is_some()) {
        (None | Some("stdio"), true) | (None | Some("http" | "streamable-http" | "streamableHttp"), false) => {}
        (Some("sse"), _) => {
            return Err(whole(
                "\"type\": \"sse\" is the old SSE transport, which toolwire does not speak; use \
                 the server's streamable HTTP endpoint"
                    .to_owned(),
            ))
        }
        (Some(other), _) => {
            return Err(McpConfigError::Field {
                server: name.to_owned(),
                field: "type".to_owned(),
                reason: format!(
                    "is {other:?}, which does not fit its {}; use \"stdio\" with \"command\", \"http\" with \"url\"",
                    if stdio.is_some() { "\"command\"" } else { "\"url\"" }
                ),
            })
        }
    }
    if let Some(program) = stdio {
        let mut command = McpCommand::new(program);
        command.args = strings(name, entry, "args")?;
        command.env = pairs(name, entry, "env")?;
        command.cwd = string(name, entry, "cwd")?.map(PathBuf::from);
        return Ok(McpServer::Stdio(command));
    }
    let mut http = McpHttp::new(string(name, entry, "url")?.unwrap_or_default());
    http.headers = pairs(name, entry, "headers")?;
    Ok(McpServer::Http(http))
}

fn field_error(server: &str, field: &str, reason: &str) -> McpConfigError {
    McpConfigError::Field {
        server: server.to_owned(),
        field: field.to_owned(),
        reason: reason.to_owned(),
    }
}

fn string(
    server: &str,
    entry: &Map<String, Value>,
    field: &str,
) -> Result<Option<String>, McpConfigError> {
    match entry.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(field_error(server, field, "must be a string")),
    }
}

fn strings(
    server: &str,
    entry: &Map<String, Value>,
    field: &str,
) -> Result<Vec<String>, McpConfigError> {
    match entry.get(field) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| item.as_str().map(str::to_owned))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| field_error(server, field, "must be an array of strings")),
        Some(_) => Err(field_error(server, field, "must be an array of strings")),
    }
}

fn pairs(
    server: &str,
    entry: &Map<String, Value>,
    field: &str,
) -> Result<Vec<(String, String)>, McpConfigError> {
    match entry.get(field) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Object(map)) => map
            .iter()
            .map(|(k, v)| v.as_str().map(|v| (k.clone(), v.to_owned())))
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| field_error(server, field, "must be an object of strings")),
        Some(_) => Err(field_error(server, field, "must be an object of strings")),
    }
}

/// Starts every server of `config` (all at once) and adds each to `runtime` as a provider
/// named `mcp/<name>`, through [`ToolRuntime::add_provider`]. Returns each server's name with
/// its load status, or why it could not be added (it did not start, or the runtime already has
/// a provider of that name); one server's failure never stops the others.
///
/// ```no_run
/// # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
/// use toolwire_core::{ToolRuntime, mcp::McpOptions, mcp::config::{McpConfig, add_mcp_servers}};
/// let config = McpConfig::read("claude_desktop_config.json")?;
/// let runtime = ToolRuntime::new();
/// for (server, added) in add_mcp_servers(&runtime, &config, &McpOptions::default()).await {
///     match added {
///         Ok(status) => println!("{server}: {status:?}"),
///         Err(err) => eprintln!("{server}: {err}"),
///     }
/// }
/// # Ok(()) }
/// ```
pub async fn add_mcp_servers(
    runtime: &ToolRuntime,
    config: &McpConfig,
    options: &McpOptions,
) -> Vec<(String, Result<LoadStatus, ProviderError>)> {
    let started =
        futures::future::join_all(config.servers.iter().map(|(name, server)| {
            McpProvider::connect_with(name.clone(), server.clone(), *options)
        }))
        .await;
    let mut added = Vec::with_capacity(started.len());
    for ((name, _), provider) in config.servers.iter().zip(started) {
        let result = match provider {
            Ok(provider) => {
                let provider_name = format!("mcp/{name}");
                runtime
                    .add_provider(std::sync::Arc::new(provider))
                    .await
                    .map_err(|e| ProviderError::new(provider_name, e.to_string()))
            }
            Err(e) => Err(e),
        };
        added.push((name.clone(), result));
    }
    added
}
