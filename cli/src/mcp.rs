//! `--mcp-stdio`: start an MCP server, list its tools with the real client
//! (`toolwire_core::list_server_tools`, over `rmcp`) and hand their definitions (or only their
//! names) to the command.
//!
//! Policy: the command line is split like a shell would for the simple cases (whitespace
//! separates words; single quotes keep everything; double quotes keep everything but `\"` and
//! `\\`; a backslash outside quotes escapes the next character) and refused when it is not
//! closed; no variables, globs or pipes, since nothing here runs a shell.

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
    let mut words = Vec::new();
    let mut word = String::new();
    // Whether a word has started: `''` is an empty word, not nothing.
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err("a single quote is not closed".to_owned()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err("a double quote is not closed".to_owned()),
                        },
                        Some(c) => word.push(c),
                        None => return Err("a double quote is not closed".to_owned()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => return Err("it ends with a lone backslash".to_owned()),
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::split_command;

    #[test]
    fn splits_like_a_shell_for_the_simple_cases() {
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
    }

    #[test]
    fn an_unclosed_quote_is_refused() {
        assert!(split_command("srv 'x")
            .unwrap_err()
            .contains("single quote"));
        assert!(split_command("srv \"x")
            .unwrap_err()
            .contains("double quote"));
        assert!(split_command("srv \\").unwrap_err().contains("backslash"));
    }
}
