//! `--mcp-stdio`: start an MCP server, list its tools with the real client
//! (`toolwire_core::list_server_tools`, over `rmcp`) and hand their definitions (or only their
//! names) to the command.
//!
//! Policy: the command line is split into words as a POSIX shell splits them (`shlex`: quotes
//! group words, a backslash escapes a character, `#` starts a comment) and refused when a quote
//! is not closed; no variables, globs or pipes, since nothing here runs a shell.

use toolwire_core::ToolDefinition;

use crate::input::UnusableInput;

/// The tools of the MCP server that `command` starts, as real names: bare as the server gives
/// them, or `mcp/<server>/<tool>` when `server` is given.
pub fn list_tool_names(command: &str, server: Option<&str>) -> Result<Vec<String>, UnusableInput> {
    Ok(list_tool_definitions(command, server)?
        .into_iter()
        .map(|tool| tool.name)
        .collect())
}

/// The tools of the MCP server that `command` starts, whole (description and input schema as
/// the server gives them), named as [`list_tool_names`] names them.
pub fn list_tool_definitions(
    command: &str,
    server: Option<&str>,
) -> Result<Vec<ToolDefinition>, UnusableInput> {
    let words = split_command(command)
        .map_err(|why| UnusableInput(format!("--mcp-stdio {command:?}: {why}")))?;
    let (program, args) = words
        .split_first()
        .ok_or_else(|| UnusableInput("--mcp-stdio: the command is empty".to_owned()))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|err| UnusableInput(format!("cannot start the async runtime: {err}")))?;
    let mut tools = runtime
        .block_on(toolwire_core::list_server_tools(program, args))
        .map_err(|err| UnusableInput(format!("--mcp-stdio {command:?}: {err}")))?;
    if let Some(server) = server {
        for tool in &mut tools {
            tool.name = toolwire_core::mcp_tool_name(server, &tool.name);
        }
    }
    Ok(tools)
}

/// Splits a command line into words (see the module policy).
fn split_command(line: &str) -> Result<Vec<String>, String> {
    shlex::split(line)
        .ok_or_else(|| "a quote is not closed, or the line ends with a lone backslash".to_owned())
}

#[cfg(test)]
mod tests {
    use super::split_command;

    #[test]
    fn splits_like_a_shell() {
        assert_eq!(
            split_command("  npx -y  @scope/server-x ").unwrap(),
            ["npx", "-y", "@scope/server-x"]
        );
        assert_eq!(
            split_command(r#"srv --root '/my dir' --name "a \"b\" \c" x\ y '' "#).unwrap(),
            [
                "srv",
                "--root",
                "/my dir",
                "--name",
                r#"a "b" \c"#,
                "x y",
                ""
            ]
        );
        assert_eq!(split_command("a'b'\"c\"").unwrap(), ["abc"]);
        assert!(split_command("   ").unwrap().is_empty());
        assert_eq!(split_command("srv a#b #note").unwrap(), ["srv", "a#b"]);
    }

    #[test]
    fn an_unclosed_quote_or_a_lone_backslash_is_refused() {
        for line in ["srv 'x", "srv \"x", "srv \\"] {
            assert!(
                split_command(line).unwrap_err().contains("not closed"),
                "{line}"
            );
        }
    }
}
