//! The MCP server config users already have: the `mcpServers` JSON of desktop clients
//! (Claude Desktop, Cursor, VS Code-style `mcp.json`), read into [`McpServer`]s, and
//! [`add_mcp_servers`], which adds each as a provider of a runtime.
//!
//! Policy: report what is wrong by server and field (`server "github", field "args": …`), so a
//! user fixes the file in one go; ignore fields other clients add (`disabled`, `autoApprove`,
//! `timeout`…) rather than refuse a file that works elsewhere. The file is read by
//! `Deserialize` (the types below say what each field must be) through `serde_path_to_error`,
//! whose path names the server and field at fault. Servers come sorted by name (they are read
//! into a `BTreeMap`): the order is the same in every build, whether or not another crate
//! turns on `serde_json`'s `preserve_order`.
//!
//! ```
//! use toolwire_core::mcp::config::McpConfig;
//!
//! let config = McpConfig::from_json(r#"{"mcpServers": {
//!     "memory": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-memory"]}
//! }}"#).unwrap();
//! assert_eq!(config.servers[0].0, "memory");
//! // `add_mcp_servers(&runtime, &config, &options)` then starts it and adds it to a runtime.
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::de::{Error as _, IgnoredAny};
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use serde_path_to_error::Segment;

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
        // A `Value` first: its syntax errors say the line and column; read from it, the
        // fields' errors are theirs alone (no position), as the path says where.
        let root: Value = serde_json::from_str(text).map_err(|e| McpConfigError::Shape {
            reason: format!("it is not valid JSON: {e}"),
        })?;
        let file: File = serde_path_to_error::deserialize(&root).map_err(at_fault)?;
        let servers = file
            .servers
            .into_iter()
            .map(|(name, entry)| {
                let server = server(&name, entry)?;
                Ok((name, server))
            })
            .collect::<Result<Vec<_>, McpConfigError>>()?;
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

/// An `mcpServers` file as written: the servers by name, and nothing else of what other
/// clients keep beside them.
#[derive(Deserialize)]
struct File {
    #[serde(rename = "mcpServers")]
    servers: BTreeMap<String, Entry>,
    /// Other clients' settings, ignored. Flattened, this also has `serde` read the file as an
    /// object only (a struct is otherwise read from an array too, field by position).
    #[serde(flatten)]
    _other_clients: IgnoredAny,
}

/// One server's entry as written: a command to start (`command`, `args`, `env`, `cwd`) or a URL
/// to reach (`url`, `headers`), with an optional `type`. A field given as `null` is not given.
#[derive(Deserialize)]
struct Entry {
    #[serde(rename = "type", default, deserialize_with = "string")]
    kind: Option<String>,
    #[serde(default, deserialize_with = "string")]
    command: Option<String>,
    #[serde(default, deserialize_with = "strings")]
    args: Vec<String>,
    #[serde(default, deserialize_with = "pairs")]
    env: Vec<(String, String)>,
    #[serde(default, deserialize_with = "string")]
    cwd: Option<String>,
    #[serde(default, deserialize_with = "string")]
    url: Option<String>,
    #[serde(default, deserialize_with = "pairs")]
    headers: Vec<(String, String)>,
    /// Other clients' fields (`disabled`, `autoApprove`…), ignored; flattened, as in [`File`].
    #[serde(flatten)]
    _other_clients: IgnoredAny,
}

/// A string field. Each field's error is what it must be, said once here, beside its type.
fn string<'de, D: Deserializer<'de>>(field: D) -> Result<Option<String>, D::Error> {
    Option::deserialize(field).map_err(|_| D::Error::custom("must be a string"))
}

/// An array of strings (`args`).
fn strings<'de, D: Deserializer<'de>>(field: D) -> Result<Vec<String>, D::Error> {
    Option::deserialize(field)
        .map(Option::unwrap_or_default)
        .map_err(|_| D::Error::custom("must be an array of strings"))
}

/// An object of strings (`env`, `headers`), as pairs sorted by name.
fn pairs<'de, D: Deserializer<'de>>(field: D) -> Result<Vec<(String, String)>, D::Error> {
    Option::<BTreeMap<String, String>>::deserialize(field)
        .map(|pairs| pairs.unwrap_or_default().into_iter().collect())
        .map_err(|_| D::Error::custom("must be an object of strings"))
}

/// A field of the wrong type, said by where it is: the path's second key is the server's name
/// and its third the field (deeper keys are inside the field: `args[0]`, `env.KEY`).
fn at_fault(error: serde_path_to_error::Error<serde_json::Error>) -> McpConfigError {
    let keys: Vec<String> = error
        .path()
        .iter()
        .map(|segment| match segment {
            Segment::Map { key } => key.clone(),
            other => other.to_string(),
        })
        .collect();
    match keys.as_slice() {
        [] => McpConfigError::Shape {
            reason: "it has no \"mcpServers\" object; write {\"mcpServers\": {\"name\": {\"command\": \"...\"}}}".to_owned(),
        },
        [_] => McpConfigError::Shape {
            reason: "\"mcpServers\" must be an object of servers by name".to_owned(),
        },
        [_, server] => McpConfigError::Server {
            server: server.clone(),
            reason: "its entry must be an object".to_owned(),
        },
        [_, server, field, ..] => McpConfigError::Field {
            server: server.clone(),
            field: field.clone(),
            reason: error.into_inner().to_string(),
        },
    }
}

/// One server's entry, its fields of the right types: where it is, or what is wrong with it
/// as a whole.
fn server(name: &str, entry: Entry) -> Result<McpServer, McpConfigError> {
    let whole = |reason: String| McpConfigError::Server {
        server: name.to_owned(),
        reason,
    };
    check_server_name(name).map_err(|e| whole(e.to_string()))?;
    let server = match (entry.command, entry.url) {
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
        (Some(program), None) => {
            let mut command = McpCommand::new(program);
            command.args = entry.args;
            command.env = entry.env;
            command.cwd = entry.cwd.map(PathBuf::from);
            McpServer::Stdio(command)
        }
        (None, Some(url)) => {
            let mut http = McpHttp::new(url);
            http.headers = entry.headers;
            McpServer::Http(http)
        }
    };
    let stdio = matches!(server, McpServer::Stdio(_));
    match (entry.kind.as_deref(), stdio) {
        (None | Some("stdio"), true)
        | (None | Some("http" | "streamable-http" | "streamableHttp"), false) => Ok(server),
        (Some("sse"), _) => Err(whole(
            "\"type\": \"sse\" is the old SSE transport, which toolwire does not speak; use \
             the server's streamable HTTP endpoint"
                .to_owned(),
        )),
        (Some(other), _) => Err(McpConfigError::Field {
            server: name.to_owned(),
            field: "type".to_owned(),
            reason: format!(
                "is {other:?}, which does not fit its {}; use \"stdio\" with \"command\", \"http\" with \"url\"",
                if stdio { "\"command\"" } else { "\"url\"" }
            ),
        }),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> McpConfigError {
        McpConfig::from_json(text).unwrap_err()
    }

    #[test]
    fn a_file_and_an_entry_are_objects_never_arrays() {
        // `serde` reads a struct from an array, field by position, unless it is flattened.
        let no_servers = McpConfigError::Shape {
            reason: "it has no \"mcpServers\" object; write {\"mcpServers\": {\"name\": \
                     {\"command\": \"...\"}}}"
                .to_owned(),
        };
        assert_eq!(err(r#"[{"a": {"command": "x"}}]"#), no_servers);
        assert_eq!(err("3"), no_servers);
        assert_eq!(
            err(r#"{"mcpServers": {"a": ["stdio", "x"]}}"#),
            McpConfigError::Server {
                server: "a".to_owned(),
                reason: "its entry must be an object".to_owned()
            }
        );
        assert_eq!(
            err(r#"{"mcpServers": null}"#).to_string(),
            "the MCP config is not usable: \"mcpServers\" must be an object of servers by name"
        );
    }

    #[test]
    fn a_field_at_fault_is_named_by_its_key_however_deep_the_fault() {
        let e =
            err(r#"{"mcpServers": {"ok": {"command": "x"}, "b": {"env": {"K": "v", "L": 2}}}}"#);
        assert_eq!(
            e.to_string(),
            "MCP server \"b\" in the config: field \"env\" must be an object of strings"
        );
        let e = err(r#"{"mcpServers": {"b": {"url": "http://h", "cwd": ["/"]}}}"#);
        assert!(
            matches!(e, McpConfigError::Field { ref field, .. } if field == "cwd"),
            "{e:?}"
        );
    }

    #[test]
    fn null_is_a_field_not_given_and_other_clients_fields_are_ignored() {
        let config = McpConfig::from_json(
            r#"{"mcpServers": {"a": {"command": "x", "args": null, "env": null, "cwd": null,
                "type": null, "url": null, "disabled": true, "env2": 3}}, "theme": "dark"}"#,
        )
        .unwrap();
        assert_eq!(
            config.servers,
            [("a".to_owned(), McpServer::Stdio(McpCommand::new("x")))]
        );
    }
}
