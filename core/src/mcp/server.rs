//! Where an MCP server is: a command to start (stdio) or a URL to reach (streamable HTTP), and
//! the one rule for a server's name.
//!
//! Policy: these are plain data a user writes or a config file gives; nothing here starts or
//! reaches anything. A header's value is a secret as often as not (`Authorization`), so `Debug`
//! shows header names only.

use std::path::PathBuf;

use super::error::McpError;

/// How an MCP server is started: a program, its arguments, extra environment variables and
/// the directory it runs in. It speaks MCP over its stdin and stdout; what it writes on stderr
/// is kept (its last lines) to explain a failure.
///
/// ```
/// let cmd = toolwire_core::mcp::McpCommand::new("my-server").arg("--stdio").env("LOG", "debug");
/// assert_eq!(cmd.args, ["--stdio"]);
/// assert_eq!(cmd.env, [("LOG".to_owned(), "debug".to_owned())]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct McpCommand {
    /// The program.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// Variables added to (or replacing in) the environment the program inherits.
    pub env: Vec<(String, String)>,
    /// The directory the program runs in; `None` is the caller's.
    pub cwd: Option<PathBuf>,
}

impl McpCommand {
    /// A command with no arguments, the caller's environment and directory.
    ///
    /// ```
    /// use toolwire_core::mcp::McpCommand;
    /// let cmd = McpCommand::new("mcp-server-time");
    /// assert_eq!(cmd.program, "mcp-server-time");
    /// assert!(cmd.args.is_empty() && cmd.env.is_empty() && cmd.cwd.is_none());
    /// ```
    pub fn new(program: impl Into<String>) -> McpCommand {
        McpCommand {
            program: program.into(),
            args: Vec::new(),
            env: Vec::new(),
            cwd: None,
        }
    }

    /// This command with one more argument.
    ///
    /// ```
    /// use toolwire_core::mcp::McpCommand;
    /// let cmd = McpCommand::new("npx").arg("-y").arg("@modelcontextprotocol/server-everything");
    /// assert_eq!(cmd.args, ["-y", "@modelcontextprotocol/server-everything"]);
    /// ```
    pub fn arg(mut self, arg: impl Into<String>) -> McpCommand {
        self.args.push(arg.into());
        self
    }

    /// This command with one more environment variable (a later one of the same name wins).
    ///
    /// ```
    /// use toolwire_core::mcp::McpCommand;
    /// let cmd = McpCommand::new("github-mcp").env("GITHUB_TOKEN", "ghp_example");
    /// assert_eq!(cmd.env[0].0, "GITHUB_TOKEN");
    /// ```
    pub fn env(mut self, key: impl Into<String>, value: impl Into<String>) -> McpCommand {
        self.env.push((key.into(), value.into()));
        self
    }

    /// This command, run in directory `dir`.
    ///
    /// ```
    /// use toolwire_core::mcp::McpCommand;
    /// let cmd = McpCommand::new("my-server").cwd("/srv/project");
    /// assert_eq!(cmd.cwd.as_deref(), Some(std::path::Path::new("/srv/project")));
    /// ```
    pub fn cwd(mut self, dir: impl Into<PathBuf>) -> McpCommand {
        self.cwd = Some(dir.into());
        self
    }
}

/// An MCP server reached over streamable HTTP: its URL and the headers every request carries
/// (`Authorization: Bearer …` for a server that wants a token). `https://` URLs need
/// toolwire-core's `mcp-tls` feature.
///
/// ```
/// let server = toolwire_core::mcp::McpHttp::new("http://127.0.0.1:8000/mcp")
///     .header("Authorization", "Bearer s3cret");
/// assert_eq!(server.headers[0].0, "Authorization");
/// // Debug never shows a header's value.
/// assert!(!format!("{server:?}").contains("s3cret"));
/// ```
#[derive(Clone, PartialEq, Eq)]
pub struct McpHttp {
    /// The server's MCP endpoint, e.g. `https://example.com/mcp`.
    pub url: String,
    /// Headers sent with every request, in order.
    pub headers: Vec<(String, String)>,
}

impl McpHttp {
    /// A server at `url`, with no extra headers.
    ///
    /// ```
    /// let server = toolwire_core::mcp::McpHttp::new("http://localhost:3000/mcp");
    /// assert!(server.headers.is_empty());
    /// ```
    pub fn new(url: impl Into<String>) -> McpHttp {
        McpHttp {
            url: url.into(),
            headers: Vec::new(),
        }
    }

    /// This server with one more header on every request.
    ///
    /// ```
    /// let server = toolwire_core::mcp::McpHttp::new("http://localhost:3000/mcp").header("X-Team", "blue");
    /// assert_eq!(server.headers, [("X-Team".to_owned(), "blue".to_owned())]);
    /// ```
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> McpHttp {
        self.headers.push((name.into(), value.into()));
        self
    }
}

impl std::fmt::Debug for McpHttp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<&str> = self.headers.iter().map(|(n, _)| n.as_str()).collect();
        f.debug_struct("McpHttp")
            .field("url", &self.url)
            .field("headers", &names)
            .finish()
    }
}

/// Where an MCP server is: a command to start and speak to over stdio, or a URL to speak to
/// over streamable HTTP.
///
/// ```
/// use toolwire_core::mcp::{McpCommand, McpHttp, McpServer};
/// let local: McpServer = McpCommand::new("mcp-server-time").into();
/// let remote: McpServer = McpHttp::new("http://127.0.0.1:8000/mcp").into();
/// assert_eq!(local.target(), "mcp-server-time");
/// assert_eq!(remote.target(), "http://127.0.0.1:8000/mcp");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum McpServer {
    /// A program speaking MCP on its stdin and stdout.
    Stdio(McpCommand),
    /// A streamable-HTTP MCP endpoint.
    Http(McpHttp),
}

impl McpServer {
    /// What error messages call this server: the program or the URL.
    ///
    /// ```
    /// let server = toolwire_core::mcp::McpServer::from(toolwire_core::mcp::McpCommand::new("npx").arg("-y"));
    /// assert_eq!(server.target(), "npx");
    /// ```
    pub fn target(&self) -> &str {
        match self {
            McpServer::Stdio(command) => &command.program,
            McpServer::Http(http) => &http.url,
        }
    }
}

impl From<McpCommand> for McpServer {
    fn from(command: McpCommand) -> McpServer {
        McpServer::Stdio(command)
    }
}

impl From<McpHttp> for McpServer {
    fn from(http: McpHttp) -> McpServer {
        McpServer::Http(http)
    }
}

/// The server-name rule: a server's name is the middle of its tools' names
/// (`mcp/<server>/<tool>`) and of its provider's (`mcp/<server>`), so it must be non-empty and
/// free of `/`, whitespace and control characters, or `mcp//x` and `mcp/a b/x` would follow.
///
/// ```
/// use toolwire_core::mcp::{McpError, check_server_name};
/// assert!(check_server_name("files").is_ok());
/// assert!(matches!(check_server_name(""), Err(McpError::BadServerName { .. })));
/// let err = check_server_name("a/b").unwrap_err();
/// assert!(err.to_string().contains("`a/b`"), "{err}");
/// ```
pub fn check_server_name(name: &str) -> Result<(), McpError> {
    let reason = if name.is_empty() {
        "it is empty"
    } else if name.contains('/') {
        "it contains `/`, which separates the parts of a tool's name"
    } else if name.chars().any(char::is_whitespace) {
        "it contains whitespace"
    } else if name.chars().any(char::is_control) {
        "it contains a control character"
    } else {
        return Ok(());
    };
    Err(McpError::BadServerName {
        name: name.to_owned(),
        reason: reason.to_owned(),
    })
}
