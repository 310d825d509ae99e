//! A provider backed by a real MCP server over stdio (the `rmcp` client).
//!
//! Policy: the server's tools are named `mcp/<server>/<tool>`; a server that exits, crashes or
//! hangs fails only its own calls, with a typed error, and marks this provider failed until it
//! is reloaded.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use futures::future::BoxFuture;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::{RoleClient, RunningService, ServiceExt};
use rmcp::transport::TokioChildProcess;
use serde_json::Value;

use crate::definition::ToolDefinition;
use crate::provider::{arguments_as_object, ProviderError, ToolProvider};
use crate::tool_error::ToolError;

/// How an MCP server is started: a program and its arguments.
///
/// ```
/// let cmd = toolwire_core::McpCommand::new("my-server").arg("--stdio");
/// assert_eq!(cmd.args, ["--stdio"]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct McpCommand {
    /// The program.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
}

impl McpCommand {
    /// A command with no arguments.
    ///
    /// ```
    /// use toolwire_core::McpCommand;
    /// let cmd = McpCommand::new("mcp-server-time");
    /// assert_eq!(cmd.program, "mcp-server-time");
    /// assert!(cmd.args.is_empty());
    /// ```
    pub fn new(program: impl Into<String>) -> McpCommand {
        McpCommand {
            program: program.into(),
            args: Vec::new(),
        }
    }

    /// This command with one more argument.
    ///
    /// ```
    /// use toolwire_core::McpCommand;
    /// let cmd = McpCommand::new("npx").arg("-y").arg("@modelcontextprotocol/server-everything");
    /// assert_eq!(cmd.args, ["-y", "@modelcontextprotocol/server-everything"]);
    /// ```
    pub fn arg(mut self, arg: impl Into<String>) -> McpCommand {
        self.args.push(arg.into());
        self
    }
}

type Client = RunningService<RoleClient, ()>;

/// An error talking to an MCP server.
///
/// ```
/// let err = toolwire_core::McpError::Spawn { program: "nope".into(), reason: "not found".into() };
/// assert!(err.to_string().contains("`nope`"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum McpError {
    /// The server's process could not be started.
    #[error("could not start MCP server `{program}`: {reason}")]
    Spawn {
        /// The program.
        program: String,
        /// Why.
        reason: String,
    },
    /// The MCP handshake or a request failed.
    #[error("MCP server `{program}` failed: {reason}")]
    Protocol {
        /// The program.
        program: String,
        /// Why.
        reason: String,
    },
    /// The server did not answer in time.
    #[error("MCP server `{program}` did not answer within {millis} ms")]
    Timeout {
        /// The program.
        program: String,
        /// The limit.
        millis: u64,
    },
}

async fn connect(command: &McpCommand, timeout: Duration) -> Result<Client, McpError> {
    let mut cmd = tokio::process::Command::new(&command.program);
    cmd.args(&command.args);
    let (transport, _stderr) = TokioChildProcess::builder(cmd)
        .stderr(std::process::Stdio::null())
        .spawn()
        .map_err(|e| McpError::Spawn {
            program: command.program.clone(),
            reason: e.to_string(),
        })?;
    match tokio::time::timeout(timeout, ().serve(transport)).await {
        Ok(Ok(client)) => Ok(client),
        Ok(Err(e)) => Err(McpError::Protocol {
            program: command.program.clone(),
            reason: e.to_string(),
        }),
        Err(_) => Err(McpError::Timeout {
            program: command.program.clone(),
            millis: timeout.as_millis() as u64,
        }),
    }
}

async fn list(
    client: &Client,
    command: &McpCommand,
    timeout: Duration,
) -> Result<Vec<ToolDefinition>, McpError> {
    let tools = match tokio::time::timeout(timeout, client.list_all_tools()).await {
        Ok(Ok(tools)) => tools,
        Ok(Err(e)) => {
            return Err(McpError::Protocol {
                program: command.program.clone(),
                reason: e.to_string(),
            })
        }
        Err(_) => {
            return Err(McpError::Timeout {
                program: command.program.clone(),
                millis: timeout.as_millis() as u64,
            })
        }
    };
    Ok(tools
        .into_iter()
        .map(|tool| {
            ToolDefinition::new(
                tool.name.into_owned(),
                tool.description.map(|d| d.into_owned()).unwrap_or_default(),
                Value::Object((*tool.input_schema).clone()),
            )
        })
        .collect())
}

/// The runtime's real name for tool `tool` of MCP server `server`: `mcp/<server>/<tool>`. An
/// empty tool name stays empty, so a census reports it as empty instead of hiding it behind
/// the prefix.
///
/// ```
/// use toolwire_core::mcp_tool_name;
/// assert_eq!(mcp_tool_name("files", "read_file"), "mcp/files/read_file");
/// assert_eq!(mcp_tool_name("files", ""), "");
/// ```
pub fn mcp_tool_name(server: &str, tool: &str) -> String {
    if tool.is_empty() {
        String::new()
    } else {
        format!("mcp/{server}/{tool}")
    }
}

/// Starts the MCP server, lists its tools (bare names, as the server gives them) and stops it.
///
/// ```no_run
/// # async fn demo() -> Result<(), toolwire_core::McpError> {
/// let tools = toolwire_core::list_server_tools("my-mcp-server", &["--stdio".to_string()]).await?;
/// for tool in tools { println!("{}", tool.name); }
/// # Ok(()) }
/// ```
pub async fn list_server_tools(
    program: &str,
    args: &[String],
) -> Result<Vec<ToolDefinition>, McpError> {
    let command = McpCommand {
        program: program.to_owned(),
        args: args.to_vec(),
    };
    let timeout = Duration::from_secs(30);
    let client = connect(&command, timeout).await?;
    let tools = list(&client, &command, timeout).await;
    let _ = client.cancel().await;
    tools
}

/// A [`ToolProvider`] over an MCP server spoken to over stdio. Its tools are named
/// `mcp/<server>/<tool>`.
///
/// ```no_run
/// # async fn demo() -> Result<(), toolwire_core::ProviderError> {
/// use std::time::Duration;
/// use toolwire_core::{McpCommand, McpProvider};
/// let files = McpProvider::spawn("files", McpCommand::new("mcp-server-filesystem").arg("/tmp"))
///     .await?
///     .with_call_timeout(Duration::from_secs(10));
/// # Ok(()) }
/// ```
pub struct McpProvider {
    server: String,
    provider_name: String,
    prefix: String,
    command: McpCommand,
    client: Mutex<Option<std::sync::Arc<Client>>>,
    failed: AtomicBool,
    call_timeout: Duration,
}

impl std::fmt::Debug for McpProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpProvider")
            .field("server", &self.server)
            .field("command", &self.command)
            .field("failed", &self.failed.load(Ordering::Relaxed))
            .finish()
    }
}

impl McpProvider {
    /// Starts the server and connects (the MCP handshake). The provider is named
    /// `mcp/<server>`.
    ///
    /// ```
    /// use toolwire_core::{McpCommand, McpProvider};
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let missing = McpCommand::new("/nonexistent/mcp-server");
    /// let err = McpProvider::spawn("files", missing).await.unwrap_err();
    /// assert_eq!(err.provider, "mcp/files");
    /// assert!(err.reason.contains("could not start MCP server `/nonexistent/mcp-server`"));
    /// # });
    /// ```
    pub async fn spawn(
        server: impl Into<String>,
        command: McpCommand,
    ) -> Result<McpProvider, ProviderError> {
        let server = server.into();
        let provider = McpProvider {
            provider_name: format!("mcp/{server}"),
            prefix: format!("mcp/{server}/"),
            server,
            command,
            client: Mutex::new(None),
            failed: AtomicBool::new(false),
            call_timeout: Duration::from_secs(60),
        };
        provider.start().await?;
        Ok(provider)
    }

    /// This provider with a different per-call timeout (60 s by default). A call that takes
    /// longer fails with [`ToolError::TimedOut`] and marks the provider failed.
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), toolwire_core::ProviderError> {
    /// use std::time::Duration;
    /// use toolwire_core::{McpCommand, McpProvider};
    /// let slow = McpProvider::spawn("slow", McpCommand::new("my-slow-server"))
    ///     .await?
    ///     .with_call_timeout(Duration::from_secs(300));
    /// # let _ = slow;
    /// # Ok(()) }
    /// ```
    pub fn with_call_timeout(mut self, timeout: Duration) -> McpProvider {
        self.call_timeout = timeout;
        self
    }

    /// The server's short name.
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), toolwire_core::ProviderError> {
    /// use toolwire_core::{McpCommand, McpProvider, ToolProvider};
    /// let files = McpProvider::spawn("files", McpCommand::new("mcp-server-filesystem")).await?;
    /// assert_eq!(files.server(), "files");
    /// assert_eq!(files.name(), "mcp/files");
    /// # Ok(()) }
    /// ```
    pub fn server(&self) -> &str {
        &self.server
    }

    /// Whether the server exited, crashed or hung since it was last (re)started.
    ///
    /// ```no_run
    /// # async fn demo() -> Result<(), toolwire_core::ProviderError> {
    /// use toolwire_core::{McpCommand, McpProvider, ToolProvider};
    /// let files = McpProvider::spawn("files", McpCommand::new("mcp-server-filesystem")).await?;
    /// assert!(!files.is_failed());
    /// if files.is_failed() {
    ///     files.reload().await?; // a fresh server process
    /// }
    /// # Ok(()) }
    /// ```
    pub fn is_failed(&self) -> bool {
        self.failed.load(Ordering::SeqCst)
    }

    async fn start(&self) -> Result<(), ProviderError> {
        let client = connect(&self.command, Duration::from_secs(30))
            .await
            .map_err(|e| ProviderError::new(&self.provider_name, e.to_string()))?;
        let old = self
            .client
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .replace(std::sync::Arc::new(client));
        drop(old); // Dropping the old client kills its process.
        self.failed.store(false, Ordering::SeqCst);
        Ok(())
    }

    fn client(&self) -> Option<std::sync::Arc<Client>> {
        self.client
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Marks the provider failed and drops `used`, the client the failed request went through,
    /// which ends that server's process. A client started by a reload since is left alone.
    fn fail(&self, used: &std::sync::Arc<Client>) {
        let mut current = self.client.lock().unwrap_or_else(|p| p.into_inner());
        if current
            .as_ref()
            .is_some_and(|c| std::sync::Arc::ptr_eq(c, used))
        {
            self.failed.store(true, Ordering::SeqCst);
            let old = current.take();
            drop(current);
            drop(old);
        }
    }

    fn unavailable(&self, tool: &str, reason: impl Into<String>) -> ToolError {
        ToolError::Unavailable {
            tool: tool.to_owned(),
            provider: self.provider_name.clone(),
            reason: reason.into(),
        }
    }
}

/// The JSON value of a successful MCP call: its structured content if any, else its text (as
/// JSON when it parses, else a string; several blocks become an array).
fn call_output(result: &CallToolResult) -> Value {
    if let Some(structured) = &result.structured_content {
        return structured.clone();
    }
    let texts: Vec<Value> = result
        .content
        .iter()
        .map(|block| match block.as_text() {
            Some(text) => serde_json::from_str(&text.text)
                .unwrap_or_else(|_| Value::String(text.text.clone())),
            None => serde_json::to_value(block).unwrap_or(Value::Null),
        })
        .collect();
    match <[Value; 1]>::try_from(texts) {
        Ok([one]) => one,
        Err(many) => Value::Array(many),
    }
}

fn error_text(result: &CallToolResult) -> String {
    let texts: Vec<&str> = result
        .content
        .iter()
        .filter_map(|b| b.as_text().map(|t| t.text.as_str()))
        .collect();
    if texts.is_empty() {
        "the server reported an error with no text".to_owned()
    } else {
        texts.join("\n")
    }
}

impl ToolProvider for McpProvider {
    fn name(&self) -> &str {
        &self.provider_name
    }

    fn list_tools(&self) -> BoxFuture<'_, Result<Vec<ToolDefinition>, ProviderError>> {
        Box::pin(async move {
            let client = self.client().ok_or_else(|| {
                ProviderError::new(&self.provider_name, "the server is not running; reload it")
            })?;
            let mut tools = list(&client, &self.command, Duration::from_secs(30))
                .await
                .map_err(|e| {
                    self.fail(&client);
                    ProviderError::new(&self.provider_name, e.to_string())
                })?;
            for tool in &mut tools {
                tool.name = mcp_tool_name(&self.server, &tool.name);
            }
            Ok(tools)
        })
    }

    fn call<'a>(
        &'a self,
        tool: &'a str,
        arguments: Value,
    ) -> BoxFuture<'a, Result<Value, ToolError>> {
        Box::pin(async move {
            let Some(bare) = tool.strip_prefix(&self.prefix) else {
                return Err(self.unavailable(tool, "has no such tool"));
            };
            let Some(client) = self.client() else {
                return Err(self.unavailable(tool, "has failed and not been reloaded"));
            };
            let arguments = arguments_as_object(tool, arguments)?;
            let params = CallToolRequestParams::new(bare.to_owned()).with_arguments(arguments);
            match tokio::time::timeout(self.call_timeout, client.call_tool(params)).await {
                Ok(Ok(result)) if result.is_error == Some(true) => Err(ToolError::Failed {
                    tool: tool.to_owned(),
                    message: error_text(&result),
                }),
                Ok(Ok(result)) => Ok(call_output(&result)),
                Ok(Err(rmcp::service::ServiceError::McpError(e))) => Err(ToolError::Failed {
                    tool: tool.to_owned(),
                    message: e.message.to_string(),
                }),
                Ok(Err(e)) => {
                    self.fail(&client);
                    Err(self.unavailable(tool, format!("stopped answering: {e}")))
                }
                Err(_) => {
                    self.fail(&client);
                    Err(ToolError::TimedOut {
                        tool: tool.to_owned(),
                        provider: self.provider_name.clone(),
                        millis: self.call_timeout.as_millis() as u64,
                    })
                }
            }
        })
    }

    fn reload(&self) -> BoxFuture<'_, Result<(), ProviderError>> {
        Box::pin(self.start())
    }

    fn is_failed(&self) -> bool {
        McpProvider::is_failed(self)
    }

    fn shutdown(&self) {
        self.failed.store(true, Ordering::SeqCst);
        let client = self.client.lock().unwrap_or_else(|p| p.into_inner()).take();
        drop(client); // The last reference to the client ends the server's process.
    }
}
