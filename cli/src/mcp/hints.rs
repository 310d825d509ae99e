//! Core's errors say what to change as a typed [`McpHint`], which core words as Rust
//! (`McpTimeouts::start`, `McpHttp::header`); a person at the command line changes a flag. This
//! file says each hint as the command's flags.
//!
//! Policy: only the hint changes, never the facts (the server, the URL, the limit, the stderr
//! tail), and it stays where core puts it ([`McpError::message_with_hint`]). A hint the command
//! has no words for keeps core's; the test below meets every hint core has
//! ([`McpHint::ALL`]), so a new one fails a test instead of reaching a user as Rust.

use toolwire_core::mcp::{McpError, McpHint};

/// `err`, with its hint said as the command's flags.
pub fn in_flags(err: &McpError) -> String {
    match err.hint().and_then(flags) {
        Some(words) => err.message_with_hint(words),
        None => err.to_string(),
    }
}

/// What the command says for `hint`, if it has words for it.
fn flags(hint: McpHint) -> Option<&'static str> {
    Some(match hint {
        McpHint::RaiseStartTimeout => "if the server is only slow to start, raise --timeout",
        McpHint::RaiseListTimeout => "raise --timeout if the server is only slow",
        McpHint::PassToken => "pass a token with --header 'Authorization: Bearer TOKEN'",
        McpHint::CheckToken => "check the `Authorization` header (--header)",
        McpHint::RaiseLimit => {
            "the runtime's default limits refuse this server too (toolwire uses them)"
        }
        McpHint::EnableTls => "build toolwire with `--features mcp-tls` for https://",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_hint_is_said_as_a_flag_in_the_place_of_cores() {
        for &hint in McpHint::ALL {
            let words = flags(hint).unwrap_or_else(|| panic!("no words for {hint:?}"));
            assert!(!words.contains("Mcp"), "{words}");
            let err = McpError::Protocol {
                program: "srv".into(),
                reason: "it failed".into(),
                hint: Some(hint),
                detail: "; its last lines on stderr:\n  | boom".into(),
            };
            // Only the hint changes, where it stands.
            assert_eq!(
                in_flags(&err),
                err.to_string().replace(&hint.to_string(), words),
                "{hint:?}"
            );
        }
        let err = McpError::Timeout {
            program: "srv".into(),
            millis: 2000,
            reason: "the MCP handshake did not finish".into(),
            hint: Some(McpHint::RaiseStartTimeout),
            detail: String::new(),
        };
        assert_eq!(
            in_flags(&err),
            "MCP server `srv` did not answer within 2000 ms: the MCP handshake did not finish; \
             if the server is only slow to start, raise --timeout"
        );
    }

    #[test]
    fn an_error_without_a_hint_is_said_as_core_says_it() {
        let err = McpError::Spawn {
            program: "nope".into(),
            reason: "not found".into(),
        };
        assert_eq!(in_flags(&err), err.to_string());
    }
}
