//! The MCP options as typed on the command line: `--mcp-stdio`'s command, `--header`'s
//! `NAME: VALUE` and `--timeout`'s seconds.
//!
//! Policy: the command line is split into words as a POSIX shell splits them (`shlex`: quotes
//! group words, a backslash escapes a character, `#` starts a comment) and refused when a quote
//! is not closed; no variables, globs or pipes, since nothing here runs a shell. A header or a
//! timeout that cannot be read is refused by clap (exit status 2) with the form expected.

use std::time::Duration;

/// Splits a command line into words (see the module policy).
pub fn split_command(line: &str) -> Result<Vec<String>, String> {
    shlex::split(line)
        .ok_or_else(|| "a quote is not closed, or the line ends with a lone backslash".to_owned())
}

/// Parses `--header 'NAME: VALUE'`: split at the first `:`, both sides trimmed.
pub fn header(text: &str) -> Result<(String, String), String> {
    let expected = "expected 'NAME: VALUE', e.g. 'Authorization: Bearer TOKEN'";
    let (name, value) = text
        .split_once(':')
        .ok_or_else(|| format!("there is no `:`; {expected}"))?;
    let name = name.trim();
    if name.is_empty() {
        return Err(format!("the header name is empty; {expected}"));
    }
    Ok((name.to_owned(), value.trim().to_owned()))
}

/// Parses `--timeout SECONDS`: a number of seconds above zero (`2`, `0.5`).
pub fn timeout(text: &str) -> Result<Duration, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|s| *s > 0.0)
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
        .ok_or_else(|| "expected a number of seconds above 0, e.g. 2 or 0.5".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn a_header_is_name_colon_value() {
        assert_eq!(
            header("Authorization: Bearer a:b").unwrap(),
            ("Authorization".to_owned(), "Bearer a:b".to_owned())
        );
        assert_eq!(header("X-Empty:").unwrap().1, "");
        assert!(header("Authorization Bearer x")
            .unwrap_err()
            .contains("no `:`"));
        assert!(header(" : x").unwrap_err().contains("name is empty"));
    }

    #[test]
    fn a_timeout_is_seconds_above_zero() {
        assert_eq!(timeout("2").unwrap(), Duration::from_secs(2));
        assert_eq!(timeout("0.5").unwrap(), Duration::from_millis(500));
        for bad in ["0", "-1", "x", "NaN", "inf", ""] {
            assert!(timeout(bad).is_err(), "{bad}");
        }
    }
}
