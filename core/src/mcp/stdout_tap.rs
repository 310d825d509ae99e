//! A stdio server's stdout as the `rmcp` client reads it, line by line, with three things done
//! on the way: each message is bounded, each is checked readable (`message_check.rs`: one that
//! is not fails the request it answered at once), and what `rmcp` 3.11 drops is read from the
//! raw JSON.
//!
//! Policy: `rmcp`'s `Tool` has no `execution` field, so a tool's `execution.taskSupport` never
//! reaches the client; this tap reads it from each `tools/list` answer before the client sees
//! that answer, so the listing can mark a tool that requires MCP tasks as unsupported. A line
//! over [`MAX_MESSAGE_BYTES`] ends the connection (`rmcp`'s own stdio reader would drop the
//! line and leave the request it answered to time out), and the failure says why.
//!
//! The tap is a reader the client's transport reads through, not a task copying into a pipe:
//! a task and a pipe were one more wakeup per answer (issue 25, section 6: a call through the
//! gateway should cost little more than a byte relay). Each message is parsed once
//! (`envelope.rs`), for its check and its tools alike.

use std::collections::HashSet;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{ready, Context, Poll};

use tokio::io::{AsyncRead, ReadBuf};

use super::message_check::{read_line, LineVerdict, ListedTools};

/// The largest message accepted from a stdio server: `rmcp`'s own bound for stdio and for
/// one streamable-HTTP event.
pub(crate) const MAX_MESSAGE_BYTES: usize = 16 * 1024 * 1024;

/// The tools (bare names) whose last listing said `execution.taskSupport: "required"`.
pub(crate) type TaskRequired = Arc<Mutex<HashSet<String>>>;

/// Why the tap ended the connection, when it did (a message over the bound, an unreadable one
/// that answers no request it can name), or else the first thing it noted that the client will
/// not read (a line that is not JSON).
pub(crate) type TapVerdict = Arc<Mutex<Option<String>>>;

/// `stdout` read line by line: what reading it yields is each line the checks pass on (or its
/// replacement), noting task-required tools in `required` before the line is read. A line over
/// the bound, or one that ends the connection, ends what is read (the client's stream ends:
/// pending requests fail now), with the reason in `verdict`.
pub(crate) struct Tapped<R> {
    stdout: R,
    required: TaskRequired,
    verdict: TapVerdict,
    /// The bytes read from `stdout` not yet judged.
    chunk: Box<[u8]>,
    /// The line being gathered, until its newline.
    line: Vec<u8>,
    /// What has been passed on and not yet read, from `at`.
    out: Vec<u8>,
    at: usize,
    /// Whether `stdout` ended, or the tap ended the connection.
    ended: bool,
}

impl<R> Tapped<R> {
    pub(crate) fn new(stdout: R, required: TaskRequired, verdict: TapVerdict) -> Tapped<R> {
        Tapped {
            stdout,
            required,
            verdict,
            chunk: vec![0u8; 64 * 1024].into_boxed_slice(),
            line: Vec::new(),
            out: Vec::new(),
            at: 0,
            ended: false,
        }
    }

    /// Judges the `n` bytes just read into `chunk`, passing on each complete line.
    fn judge(&mut self, n: usize) {
        self.out.clear();
        self.at = 0;
        for piece in self.chunk[..n].split_inclusive(|b| *b == b'\n') {
            if self.line.len() + piece.len() > MAX_MESSAGE_BYTES + 1 {
                *self.verdict.lock().unwrap_or_else(|p| p.into_inner()) = Some(format!(
                    "it sent a message over {MAX_MESSAGE_BYTES} bytes, more than toolwire \
                     accepts from one message, so the connection was ended"
                ));
                self.ended = true;
                return;
            }
            self.line.extend_from_slice(piece);
            if !piece.ends_with(b"\n") {
                continue;
            }
            let (verdict, tools) = read_line(&self.line[..self.line.len() - 1]);
            match verdict {
                LineVerdict::Pass => {
                    if let Some(tools) = tools {
                        note_task_support(tools, &self.required);
                    }
                    self.out.extend_from_slice(&self.line);
                }
                LineVerdict::PassNoted(why) => {
                    note(&self.verdict, why);
                    self.out.extend_from_slice(&self.line);
                }
                LineVerdict::Replace(answer) => self.out.extend_from_slice(&answer),
                LineVerdict::DropNoted(why) => note(&self.verdict, why),
                LineVerdict::End(why) => {
                    *self.verdict.lock().unwrap_or_else(|p| p.into_inner()) = Some(why);
                    self.ended = true; // As for a message over the bound.
                    return;
                }
            }
            self.line.clear();
        }
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for Tapped<R> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        loop {
            if this.at < this.out.len() {
                let n = buf.remaining().min(this.out.len() - this.at);
                buf.put_slice(&this.out[this.at..this.at + n]);
                this.at += n;
                return Poll::Ready(Ok(()));
            }
            if this.ended {
                return Poll::Ready(Ok(())); // The end of the client's stream.
            }
            let mut read = ReadBuf::new(&mut this.chunk);
            let n = match ready!(Pin::new(&mut this.stdout).poll_read(cx, &mut read)) {
                Ok(()) => read.filled().len(),
                Err(_) => 0, // The server's stdout failed: its stream ends, as at its exit.
            };
            if n == 0 {
                this.ended = true;
            } else {
                this.judge(n);
            }
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

/// Records each listed tool's `execution.taskSupport`, from one passed tool list.
fn note_task_support(tools: ListedTools, required: &TaskRequired) {
    let mut required = required.lock().unwrap_or_else(|p| p.into_inner());
    for (name, needs_tasks) in tools.into_iter().flatten() {
        if needs_tasks {
            required.insert(name);
        } else {
            required.remove(&name);
        }
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::AsyncReadExt;

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
        let verdict = TapVerdict::default();
        let mut out = Vec::new();
        Tapped::new(input.as_bytes(), required.clone(), verdict.clone())
            .read_to_end(&mut out)
            .await
            .unwrap();
        assert!(verdict.lock().unwrap().is_none());
        assert_eq!(out, input.as_bytes());
        let required = required.lock().unwrap();
        assert!(required.contains("a") && !required.contains("b"));
    }

    #[tokio::test]
    async fn a_line_is_judged_whole_across_reads_and_a_small_buffer_reads_it_all() {
        // One byte per read of the server's stdout, and two bytes per read of the client's.
        let line = br#"{"jsonrpc":"2.0","id":"x","result":{"content":[]}}"#;
        let mut input = line.to_vec();
        input.extend_from_slice(b"\nnot json\n");
        let (mut write, read) = tokio::io::duplex(1);
        tokio::spawn(async move {
            use tokio::io::AsyncWriteExt;
            write.write_all(&input).await.unwrap();
        });
        let verdict = TapVerdict::default();
        let mut tapped = Tapped::new(read, TaskRequired::default(), verdict.clone());
        let mut out = Vec::new();
        let mut two = [0u8; 2];
        loop {
            let n = tapped.read(&mut two).await.unwrap();
            if n == 0 {
                break;
            }
            out.extend_from_slice(&two[..n]);
        }
        assert_eq!(&out[..line.len()], line);
        assert_eq!(&out[line.len()..], b"\nnot json\n");
        let noted = verdict.lock().unwrap().clone().unwrap();
        assert!(noted.contains("not JSON"), "{noted}");
    }
}
