//! The bytes of a tool set (a file or standard input) and the messages about reading them.

use std::io::{IsTerminal, Read};
use std::path::Path;

use super::UnusableInput;

/// The label messages use for `path` (`-` or `None`: standard input), and its bytes.
pub fn read_source(path: Option<&Path>) -> Result<(String, Vec<u8>), UnusableInput> {
    match path {
        None => read_stdin(),
        Some(p) if p.as_os_str() == "-" => read_stdin(),
        Some(p) => {
            let label = p.display().to_string();
            match std::fs::read(p) {
                Ok(bytes) => Ok((label, bytes)),
                Err(err) => Err(UnusableInput(format!("{label}: cannot read: {err}"))),
            }
        }
    }
}

/// [`read_source`], but for `None` only when standard input is not a terminal: a person who
/// runs `toolwire census` with no file gets told what to give, not a silent wait.
pub fn read_source_or_piped(path: Option<&Path>) -> Result<(String, Vec<u8>), UnusableInput> {
    if path.is_none() && std::io::stdin().is_terminal() {
        return Err(UnusableInput(
            "no tool set given: name a JSON FILE, pipe one in (or give `-`), or use --mcp-stdio"
                .to_owned(),
        ));
    }
    read_source(path)
}

/// Standard input, labelled `<stdin>` for messages.
fn read_stdin() -> Result<(String, Vec<u8>), UnusableInput> {
    let label = "<stdin>".to_owned();
    let mut bytes = Vec::new();
    match std::io::stdin().lock().read_to_end(&mut bytes) {
        Ok(_) => Ok((label, bytes)),
        Err(err) => Err(UnusableInput(format!("{label}: cannot read: {err}"))),
    }
}

/// `bytes` without a leading byte-order mark: editors on Windows write one; it is not JSON but
/// says nothing wrong.
pub fn without_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

/// A syntax error with its place: `label:line:column: not valid JSON: what`.
pub fn syntax_error(label: &str, err: &serde_json::Error) -> UnusableInput {
    // serde_json's message ends with " at line L column C"; say the place once, up front.
    let message = err.to_string();
    let what = match message.rfind(" at line ") {
        Some(at) => &message[..at],
        None => &message,
    };
    UnusableInput(format!(
        "{label}:{}:{}: not valid JSON: {what}",
        err.line(),
        err.column()
    ))
}
