//! The arguments several subcommands share: where the tool set comes from ([`SourceArgs`]),
//! which names it is checked beside ([`NameArgs`]), and the keys that name a wire format, a
//! response format or a schema dialect ([`FormatKey`], [`CallFormatKey`], [`DialectKey`]),
//! which clap lists in help and checks.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::LazyLock;
use std::time::Duration;

use clap::builder::PossibleValue;
use clap::{ArgGroup, Args, ValueEnum};
use toolwire_core::mcp::McpOptions;
use toolwire_core::wire::calls::CallFormat;
use toolwire_core::{names::DEFAULT_META_TOOLS, schema::Dialect, ToolDefinition, WireFormat};

use crate::exit::EXIT_UNUSABLE;
use crate::input::{self, UnusableInput};
use crate::{definitions, mcp};

/// Where the tool set comes from: a JSON file, standard input, or live MCP servers (one of
/// --mcp-stdio, --mcp-http, --mcp-config).
#[derive(Args, Debug)]
pub struct SourceArgs {
    /// The JSON file to read; `-` or nothing reads standard input.
    #[arg(value_name = "FILE", conflicts_with = "mcp")]
    file: Option<PathBuf>,
    // --mcp-stdio, --mcp-http, --header, --mcp-config, --timeout.
    #[command(flatten)]
    mcp: McpArgs,
}

/// Where the tool set comes from, for a command whose own input is the positional argument
/// (`calls`): `--tools FILE` (`-`: standard input) or live MCP servers; one is required.
#[derive(Args, Debug)]
#[command(group(
    ArgGroup::new("tool_source")
        .args(["file", "mcp_stdio", "mcp_http", "mcp_config"])
        .required(true)
))]
pub struct ToolSourceArgs {
    /// The tool set, in any format `toolwire census` reads (`-`: standard input).
    // (The id stays `file`, so --header's conflicts name it for both sources.)
    #[arg(long = "tools", value_name = "FILE", conflicts_with = "mcp")]
    file: Option<PathBuf>,
    // --mcp-stdio, --mcp-http, --header, --mcp-config, --timeout.
    #[command(flatten)]
    mcp: McpArgs,
}

/// The live MCP servers a tool set can come from (one of --mcp-stdio, --mcp-http,
/// --mcp-config), shared by [`SourceArgs`] and [`ToolSourceArgs`].
#[derive(Args, Debug)]
#[command(group(ArgGroup::new("mcp").args(["mcp_stdio", "mcp_http", "mcp_config"])))]
pub struct McpArgs {
    /// Start this MCP server over stdio (`'COMMAND ARGS'`, split like a shell: quotes group,
    /// backslash escapes), list its tools and check them.
    #[arg(long, value_name = "COMMAND ARGS")]
    mcp_stdio: Option<String>,
    /// Reach this MCP server over streamable HTTP (its endpoint, e.g.
    /// http://127.0.0.1:8000/mcp), list its tools and check them.
    #[arg(long, value_name = "URL")]
    mcp_http: Option<String>,
    /// A header every request to the --mcp-http server carries (repeatable), e.g.
    /// 'Authorization: Bearer TOKEN'.
    // (`requires` alone is not enough: clap waives it when the required argument conflicts
    // with one given, as --mcp-http does with the other sources.)
    #[arg(
        long = "header",
        value_name = "NAME: VALUE",
        requires = "mcp_http",
        conflicts_with_all = ["file", "mcp_stdio", "mcp_config"],
        value_parser = mcp::header
    )]
    headers: Vec<(String, String)>,
    /// Start or reach every server of this `mcpServers` config (the JSON file desktop clients
    /// use), name their tools as the runtime does (mcp/KEY/TOOL) and check them as one set.
    #[arg(long, value_name = "FILE", conflicts_with = "server")]
    mcp_config: Option<PathBuf>,
    /// How long an MCP server may take to start, and then to list its tools, in seconds
    /// (30 each by default). The command ends every server it started, whatever happens.
    #[arg(long, value_name = "SECONDS", requires = "mcp", value_parser = mcp::timeout)]
    timeout: Option<Duration>,
}

/// Where each tool came from, for tools of several MCP servers (`--mcp-config`): each tool's
/// server and the servers that could not be listed. Empty for any other source.
#[derive(Default)]
pub struct Origins {
    /// Each tool's server, tool by tool.
    pub servers: Option<Vec<String>>,
    /// Each MCP server that could not be listed; the others' tools were read.
    pub failures: Vec<mcp::ServerFailure>,
    /// One line per MCP tool read leniently (offered), saying how it was read.
    pub notes: Vec<String>,
}

impl Origins {
    /// Says each tool read leniently and each server that could not be listed on stderr (best
    /// effort) and returns the exit status: `status`, or 2 when a server failed. A lenient
    /// reading loses nothing (the tool is offered), so it leaves the status as it is.
    pub fn report_failures(&self, status: u8) -> u8 {
        let mut err = io::stderr().lock();
        for note in &self.notes {
            let _ = writeln!(err, "toolwire: note: {note}");
        }
        for failure in &self.failures {
            let _ = writeln!(err, "toolwire: {}", failure.message);
        }
        if self.failures.is_empty() {
            status
        } else {
            EXIT_UNUSABLE
        }
    }
}

impl SourceArgs {
    /// Whether the tools come from MCP servers (listed whole), not from a file.
    pub fn is_mcp(&self) -> bool {
        self.mcp.is_given()
    }

    /// The name of the source, as a Tools page names its one provider: `--server`'s name,
    /// else the file's stem, else `stdin` or `mcp`.
    pub fn name(&self, server: Option<&str>) -> String {
        if let Some(server) = server {
            return server.to_owned();
        }
        match &self.file {
            Some(path) if path.as_os_str() != "-" => path
                .file_stem()
                .map_or_else(|| "tools".to_owned(), |s| s.to_string_lossy().into_owned()),
            _ if self.is_mcp() => "mcp".to_owned(),
            _ => "stdin".to_owned(),
        }
    }

    /// The tools' real names only, and the positions of those the runtime withholds (a tool
    /// whose listing says it requires MCP tasks): for a file, the fast path, which skips
    /// descriptions and schemas.
    pub fn read_names(
        &self,
        server: Option<&str>,
    ) -> Result<(input::Found, Origins), UnusableInput> {
        match self.mcp.read(server) {
            Some(listed) => {
                let (tools, origins) = listed?;
                let mut found = input::Found::default();
                for (i, tool) in tools.into_iter().enumerate() {
                    if let Some(why) = tool.unsupported {
                        found.withheld.push((i, why));
                    }
                    found.names.push(tool.name);
                }
                Ok((found, origins))
            }
            None => Ok((
                input::read_listed_or_piped(self.file.as_deref(), server)?,
                Origins::default(),
            )),
        }
    }

    /// The tools' whole definitions, named as [`SourceArgs::read_names`] names them.
    pub fn read_definitions(
        &self,
        server: Option<&str>,
    ) -> Result<(Vec<ToolDefinition>, Origins), UnusableInput> {
        match self.mcp.read(server) {
            Some(listed) => listed,
            None => Ok((
                definitions::read_definitions(self.file.as_deref(), server)?,
                Origins::default(),
            )),
        }
    }
}

impl ToolSourceArgs {
    /// The `--tools` file, if that is the source (`-`: standard input).
    pub fn file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// The MCP servers' whole definitions, if an MCP source is given, named as
    /// [`SourceArgs::read_definitions`] names them.
    #[allow(clippy::type_complexity)]
    pub fn read_mcp(
        &self,
        server: Option<&str>,
    ) -> Option<Result<(Vec<ToolDefinition>, Origins), UnusableInput>> {
        self.mcp.read(server)
    }

    /// The MCP servers to connect to, if an MCP source is given (`calls --answer` runs their
    /// tools), named as [`ToolSourceArgs::read_mcp`] names their tools, and the options
    /// `--timeout` gives.
    pub fn mcp_servers(
        &self,
        server: Option<&str>,
    ) -> Option<Result<(Vec<mcp::Wanted>, McpOptions), UnusableInput>> {
        let options = mcp::options(self.mcp.timeout);
        let wanted = if let Some(command) = &self.mcp.mcp_stdio {
            mcp::Wanted::stdio(command, server).map(|w| vec![w])
        } else if let Some(url) = &self.mcp.mcp_http {
            Ok(vec![mcp::Wanted::http(url, &self.mcp.headers, server)])
        } else {
            mcp::Wanted::config(self.mcp.mcp_config.as_deref()?)
        };
        Some(wanted.map(|w| (w, options)))
    }
}

impl McpArgs {
    fn is_given(&self) -> bool {
        self.mcp_stdio.is_some() || self.mcp_http.is_some() || self.mcp_config.is_some()
    }

    /// The MCP servers' tools, if an MCP source is given: one server's, named under `server`
    /// if given, or every server's of a config, each named under its key.
    #[allow(clippy::type_complexity)]
    fn read(
        &self,
        server: Option<&str>,
    ) -> Option<Result<(Vec<ToolDefinition>, Origins), UnusableInput>> {
        let options = mcp::options(self.timeout);
        let one = |wanted: Result<mcp::Wanted, UnusableInput>| {
            let (tools, notes) = mcp::list_one_with_notes(&wanted?, &options)?;
            let origins = Origins {
                notes,
                ..Origins::default()
            };
            Ok((tools, origins))
        };
        if let Some(command) = &self.mcp_stdio {
            return Some(one(mcp::Wanted::stdio(command, server)));
        }
        if let Some(url) = &self.mcp_http {
            return Some(one(Ok(mcp::Wanted::http(url, &self.headers, server))));
        }
        let path = self.mcp_config.as_deref()?;
        Some(mcp::Wanted::config(path).and_then(|wanted| {
            let listing = mcp::list_all(&wanted, &options)?;
            let origins = Origins {
                servers: Some(listing.servers),
                failures: listing.failures,
                notes: listing.notes,
            };
            Ok((listing.tools, origins))
        }))
    }
}

/// Which names the tools are checked against, and how bare names are qualified.
#[derive(Args, Debug)]
pub struct NameArgs {
    /// A name already taken by the runtime (repeatable); replaces the default meta-tools
    /// tool_search, tool_schema, reset_tools and tool_call.
    #[arg(long, value_name = "NAME")]
    taken: Vec<String>,
    /// Take no names at all (not even the default meta-tools).
    #[arg(long, conflicts_with = "taken")]
    no_taken: bool,
    /// Name bare tool names as an MCP server's: `NAME` makes `echo` `mcp/NAME/echo`.
    #[arg(long, value_name = "NAME", value_parser = server_name)]
    pub server: Option<String>,
}

impl NameArgs {
    /// The taken names the census is built beside.
    pub fn taken(&self) -> Vec<&str> {
        if self.no_taken {
            Vec::new()
        } else if self.taken.is_empty() {
            DEFAULT_META_TOOLS.to_vec()
        } else {
            self.taken.iter().map(String::as_str).collect()
        }
    }
}

/// Parses `--server`: any name but the empty one.
fn server_name(value: &str) -> Result<String, String> {
    if value.is_empty() {
        return Err("a server name cannot be empty".to_owned());
    }
    Ok(value.to_owned())
}

/// A wire format as `--format` spells it: its key ([`WireFormat::key`]).
#[derive(Clone, Copy, Debug)]
pub struct FormatKey(pub WireFormat);

impl ValueEnum for FormatKey {
    fn value_variants<'a>() -> &'a [FormatKey] {
        static ALL: LazyLock<Vec<FormatKey>> =
            LazyLock::new(|| WireFormat::ALL.map(FormatKey).to_vec());
        &ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.key()))
    }
}

/// A response format as `calls --format` spells it: its key ([`CallFormat::key`]).
#[derive(Clone, Copy, Debug)]
pub struct CallFormatKey(pub CallFormat);

impl ValueEnum for CallFormatKey {
    fn value_variants<'a>() -> &'a [CallFormatKey] {
        static ALL: LazyLock<Vec<CallFormatKey>> =
            LazyLock::new(|| CallFormat::ALL.map(CallFormatKey).to_vec());
        &ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.key()))
    }
}

/// A schema dialect as `--provider` spells it: its key ([`Dialect::key`]), or the key of a wire
/// format that sends it (`converse-strict` is `anthropic-strict`), a hidden alias.
#[derive(Clone, Copy, Debug)]
pub struct DialectKey(pub Dialect);

impl ValueEnum for DialectKey {
    fn value_variants<'a>() -> &'a [DialectKey] {
        static ALL: LazyLock<Vec<DialectKey>> =
            LazyLock::new(|| Dialect::ALL.map(DialectKey).to_vec());
        &ALL
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        let dialect = self.0;
        let aliases = WireFormat::ALL
            .into_iter()
            .filter(|format| format.dialect() == dialect && format.key() != dialect.key())
            .map(WireFormat::key);
        Some(PossibleValue::new(dialect.key()).aliases(aliases))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every key either flag took before it was a `ValueEnum`, and a few it never took.
    fn spellings() -> Vec<&'static str> {
        let mut all: Vec<&str> = WireFormat::ALL.into_iter().map(WireFormat::key).collect();
        all.extend(Dialect::ALL.into_iter().map(Dialect::key));
        all.extend([
            "",
            "bard",
            "GEMINI",
            "OpenAI",
            "gemini!",
            " openai",
            "converse_strict",
        ]);
        all
    }

    #[test]
    fn format_accepts_exactly_the_wire_format_keys() {
        for key in spellings() {
            let parsed = FormatKey::from_str(key, false).ok().map(|k| k.0);
            assert_eq!(parsed, WireFormat::from_key(key), "{key:?}");
        }
    }

    #[test]
    fn provider_accepts_exactly_the_wire_format_keys_as_their_dialects() {
        for key in spellings() {
            let parsed = DialectKey::from_str(key, false).ok().map(|k| k.0);
            let before = WireFormat::from_key(key).map(WireFormat::dialect);
            assert_eq!(parsed, before, "{key:?}");
        }
    }

    #[test]
    fn help_lists_each_dialect_once_under_its_own_key() {
        let listed: Vec<String> = DialectKey::value_variants()
            .iter()
            .filter_map(|k| k.to_possible_value())
            .filter(|v| !v.is_hide_set())
            .map(|v| v.get_name().to_owned())
            .collect();
        let keys: Vec<&str> = Dialect::ALL.into_iter().map(Dialect::key).collect();
        assert_eq!(listed, keys);
    }
}
