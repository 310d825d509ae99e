//! Core's errors say what to change in Rust (`McpTimeouts::start`, `McpHttp::header`); a person
//! at the command line changes a flag. This file rewrites those hints as the command's flags.
//!
//! Policy: only the hint changes, never the facts (the server, the URL, the limit, the stderr
//! tail). Each rewrite is one pair below; the command's tests (`cli/tests/cli/mcp_*.rs`) meet
//! the real errors (a start timeout, a refused token) and assert no Rust name is left, so a
//! reworded hint in core fails a test instead of reaching a user.
//! (A typed hint on `McpError` would make this file unnecessary.)

/// Core's hint, and what the command says instead.
const HINTS: &[(&str, &str)] = &[
    ("raise McpTimeouts::start", "raise --timeout"),
    ("raise McpTimeouts::list", "raise --timeout"),
    (
        "pass a token with McpHttp::header(\"Authorization\", \"Bearer …\")",
        "pass a token with --header 'Authorization: Bearer TOKEN'",
    ),
    ("header (McpHttp::header)", "header (--header)"),
    (
        "raise the limit in McpOptions if you trust this server",
        "the runtime's default limits refuse this server too (toolwire uses them)",
    ),
    (
        "needs toolwire-core's `mcp-tls` feature (this build speaks http:// only)",
        "needs TLS, which this toolwire was built without: build it with `--features mcp-tls`",
    ),
];

/// `message` (an error of toolwire-core's) with its hints said as the command's flags.
pub fn in_flags(message: &str) -> String {
    HINTS.iter().fold(message.to_owned(), |text, (core, flag)| {
        text.replace(core, flag)
    })
}

#[cfg(test)]
mod tests {
    use super::in_flags;

    #[test]
    fn every_hint_is_core_wording_said_as_a_flag() {
        let message = "MCP server `srv` did not answer within 2000 ms: the MCP handshake did not \
                       finish; if the server is only slow to start, raise McpTimeouts::start";
        assert!(in_flags(message).ends_with("slow to start, raise --timeout"));
        let message = "MCP server `http://h/mcp` failed: the server requires authorization; pass \
                       a token with McpHttp::header(\"Authorization\", \"Bearer …\")";
        assert!(
            in_flags(message).ends_with("pass a token with --header 'Authorization: Bearer TOKEN'")
        );
        for (core, _) in super::HINTS {
            assert!(!in_flags(core).contains("Mcp"), "{core}");
        }
    }
}
