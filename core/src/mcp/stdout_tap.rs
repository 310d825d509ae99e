//! A stdio server's stdout, passed on to the `rmcp` client line by line, with three things done
//! on the way: each message is bounded, each is checked readable (`message_check.rs`: one that
//! is not fails the request it answered at once), and what `rmcp` 3.11 drops is read from the
//! raw JSON.
//!
//! Policy: `rmcp`'s `Tool` has no `execution` field, so a tool's `execution.taskSupport` never
//! reaches the client; this tap reads it from each `tools/list` answer before the client sees
//! that answer, so the listing can mark a tool that requires MCP tasks as unsupported. A line
//! over [`MAX_MESSAGE_BYTES`] ends the connection (`rmcp`'s own stdio reader would drop the
//! line and leave the request it answered to time out), and the failure says why.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use serde_json::Value;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt};

use super::message_check::{check_line, LineVerdict};

/// The largest message accepted from a stdio server: `rmcp`'s own bound for stdio and for
/// one streamable-HTTP event.
pub(crate) const MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;

/// The tools (bare names) whose last listing said `execution.taskSupport: "required"`.
pub(crate) type TaskRequired = Arc<Mutex<HashSet<String>>>;

/// Why the tap ended the connection, when it did (a message over the bound, an unreadable one
/// that answers no request it can name), or else the first thing it noted that the client will
/// not read (a line that is not JSON).
pub(crate) type TapVerdict = Arc<Mutex<Option<String>>>;

/// Copies `stdout` to `out` line by line until either ends, noting task-required tools in
/// `required` before each line is passed on. A line over the bound ends the copy, with the
/// reason in `verdict`.
pub(crate) async fn tap(
    mut stdout: impl AsyncRead + Unpin,
    mut out: impl AsyncWrite + Unpin,
    required: TaskRequired,
    verdict: TapVerdict,
) {
    let mut chunk = vec![0u8; 64 * 1024];
    let mut line: Vec<u8> = Vec::new();
    loop {
        let n = match stdout.read(&mut chunk).await {
            Ok(0) | Err(_) => return,
            Ok(n) => n,
        };
        for piece in chunk[..n].split_inclusive(|b| *b == b'\n') {
            if line.len() + piece.len() > MAX_MESSAGE_BYTES + 1 {
                *verdict.lock().unwrap_or_else(|p| p.into_inner()) = Some(format!(
                    "it sent a message over {MAX_MESSAGE_BYTES} bytes, more than toolwire \
                     accepts from one message, so the connection was ended"
                ));
                return; // Dropping `out` ends the client's stream: pending requests fail now.
            }
            line.extend_from_slice(piece);
            if !piece.ends_with(b"\n") {
                continue;
            }
            let passed = match check_line(&line[..line.len() - 1]) {
                LineVerdict::Pass => Some(std::mem::take(&mut line)),
                LineVerdict::PassNoted(why) => {
                    note(&verdict, why);
                    Some(std::mem::take(&mut line))
                }
                LineVerdict::Replace(answer) => Some(answer),
                LineVerdict::DropNoted(why) => {
                    note(&verdict, why);
                    None
                }
                LineVerdict::End(why) => {
                    *verdict.lock().unwrap_or_else(|p| p.into_inner()) = Some(why);
                    return; // As for a message over the bound.
                }
            };
            line.clear();
            let Some(passed) = passed else { continue };
            note_task_support(&passed, &required);
            if out.write_all(&passed).await.is_err() {
                return; // The client is gone.
            }
        }
        if out.flush().await.is_err() {
            return;
        }
    }
}

/// Keeps `why` as the verdict unless one is already kept: the first oddity explains best.
fn note(verdict: &TapVerdict, why: String) {
    verdict
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get_or_insert(why);
}

/// Records, from one raw message, each listed tool's `execution.taskSupport`.
fn note_task_support(line: &[u8], required: &TaskRequired) {
    // Only a tool list can say it; most messages are skipped without parsing twice.
    if !line.windows(7).any(|w| w == b"\"tools\"") {
        return;
    }
    let Ok(message) = serde_json::from_slice::<Value>(line) else {
        return;
    };
    let Some(tools) = message
        .get("result")
        .and_then(|r| r.get("tools"))
        .and_then(Value::as_array)
    else {
        return;
    };
    let mut required = required.lock().unwrap_or_else(|p| p.into_inner());
    for tool in tools {
        let Some(name) = tool.get("name").and_then(Value::as_str) else {
            continue;
        };
        let support = tool
            .get("execution")
            .and_then(|e| e.get("taskSupport"))
            .and_then(Value::as_str);
        if support == Some("required") {
            required.insert(name.to_owned());
        } else {
            required.remove(name);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn passes_lines_on_and_notes_task_support() {
        let input = concat!(
            r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[{"name":"a","inputSchema":{},"execution":{"taskSupport":"required"}},{"name":"b","inputSchema":{}}]}}"#,
            "\n",
            r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed"}"#,
            "\n"
        );
        let required = TaskRequired::default();
        let mut out = Vec::new();
        let verdict = TapVerdict::default();
        tap(
            input.as_bytes(),
            &mut out,
            required.clone(),
            verdict.clone(),
        )
        .await;
        assert!(verdict.lock().unwrap().is_none());
        assert_eq!(out, input.as_bytes());
        let required = required.lock().unwrap();
        assert!(required.contains("a") && !required.contains("b"));
    }
}
