//! Which served names every client and every LLM API toolwire knows accept: MCP's own rule,
//! then each provider's definition rule (Gemini's first character included).
//!
//! Policy: a name one of them refuses is not served under another name (that would be a
//! guess a later call could not undo): the tool is withheld, and the listing says why.

use crate::wire::{check_definition_name, LlmProvider, NameRejection};

/// The longest MCP tool name, in characters.
///
/// MCP 2025-11-25, "Tools" → "Tool names" (SEP-986): "Tool names SHOULD be between 1 and 128
/// characters in length (inclusive)" and "The following SHOULD be the only allowed characters:
/// uppercase and lowercase ASCII letters (A-Z, a-z), digits (0-9), underscore (_), hyphen (-),
/// and dot (.)" (<https://modelcontextprotocol.io/specification/2025-11-25/server/tools#tool-names>).
///
/// ```
/// assert_eq!(toolwire_core::mcp::serve::MCP_TOOL_NAME_MAX_CHARS, 128);
/// ```
pub const MCP_TOOL_NAME_MAX_CHARS: usize = 128;

/// Whether `name` is an MCP tool name: 1 to [`MCP_TOOL_NAME_MAX_CHARS`] characters of
/// `[A-Za-z0-9_.-]` (no `/`, so `mcp/<server>/<tool>` is not one).
///
/// ```
/// use toolwire_core::mcp::serve::is_mcp_tool_name;
/// assert!(is_mcp_tool_name("search.web"));
/// assert!(!is_mcp_tool_name("mcp/files/read"));
/// assert!(!is_mcp_tool_name(""));
/// assert!(!is_mcp_tool_name(&"a".repeat(129)));
/// ```
pub fn is_mcp_tool_name(name: &str) -> bool {
    (1..=MCP_TOOL_NAME_MAX_CHARS).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'))
}

/// Why a name cannot be served, if it cannot: not an MCP tool name, or a name one of the LLM
/// APIs toolwire knows refuses in a tool definition (a client hands served names on to its
/// model's API as they are).
///
/// ```
/// use toolwire_core::mcp::serve::served_name_refusal;
/// assert_eq!(served_name_refusal("mcp_files_read"), None);
/// // Gemini wants a letter or `_` first.
/// assert!(served_name_refusal("3d_render").unwrap().to_string().contains("Gemini"));
/// ```
pub fn served_name_refusal(name: &str) -> Option<ServedNameRefusal> {
    if !is_mcp_tool_name(name) {
        return Some(ServedNameRefusal::NotAnMcpName);
    }
    LlmProvider::ALL
        .into_iter()
        .find_map(|provider| check_definition_name(provider, name).err())
        .map(ServedNameRefusal::Provider)
}

/// Why a name is not served.
///
/// ```
/// use toolwire_core::mcp::serve::{served_name_refusal, ServedNameRefusal};
/// assert_eq!(served_name_refusal("a/b"), Some(ServedNameRefusal::NotAnMcpName));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ServedNameRefusal {
    /// It is not 1 to 128 characters of `[A-Za-z0-9_.-]`.
    NotAnMcpName,
    /// An LLM API refuses it as a tool definition's name.
    Provider(NameRejection),
}

impl std::fmt::Display for ServedNameRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ServedNameRefusal::NotAnMcpName => write!(
                f,
                "it is not an MCP tool name (1 to {MCP_TOOL_NAME_MAX_CHARS} characters of [A-Za-z0-9_.-])"
            ),
            ServedNameRefusal::Provider(rejection) => rejection.fmt(f),
        }
    }
}

impl std::error::Error for ServedNameRefusal {}
