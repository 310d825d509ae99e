//! The last lines a stdio server wrote on stderr, kept to explain its failure.
//!
//! Policy: stderr is piped, never discarded and never inherited (a server's chatter would mix
//! with the app's own output), and read to its end by one task so the server never blocks on a
//! full pipe. Only a bounded tail is kept: the last [`MAX_LINES`] lines, at most [`MAX_BYTES`]
//! bytes together, a longer line cut.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::AsyncReadExt;
use tokio::sync::watch;

/// Lines kept.
pub(crate) const MAX_LINES: usize = 20;
/// Bytes kept, all lines together (and so at most this much of one line).
pub(crate) const MAX_BYTES: usize = 4096;

#[derive(Default)]
struct Lines {
    lines: VecDeque<String>,
    bytes: usize,
}

impl Lines {
    fn push(&mut self, line: &[u8]) {
        let line = String::from_utf8_lossy(line);
        let line = line.trim_end_matches('\r');
        let mut line = line.to_owned();
        if line.len() > MAX_BYTES {
            let mut cut = MAX_BYTES;
            while !line.is_char_boundary(cut) {
                cut -= 1;
            }
            line.truncate(cut);
        }
        self.bytes += line.len();
        self.lines.push_back(line);
        while self.lines.len() > MAX_LINES || self.bytes > MAX_BYTES {
            let Some(old) = self.lines.pop_front() else {
                break;
            };
            self.bytes -= old.len();
        }
    }
}

/// A stdio server's stderr tail: cheap to clone, shared with the task that reads it.
#[derive(Clone)]
pub(crate) struct StderrTail {
    lines: Arc<Mutex<Lines>>,
    ended: watch::Receiver<bool>,
}

impl StderrTail {
    /// Starts the task that reads `stderr` to its end.
    pub(crate) fn read(mut stderr: impl tokio::io::AsyncRead + Unpin + Send + 'static) -> Self {
        let lines = Arc::new(Mutex::new(Lines::default()));
        let (ended_tx, ended) = watch::channel(false);
        let shared = lines.clone();
        tokio::spawn(async move {
            let mut chunk = vec![0u8; 4096];
            // The line being read, kept to MAX_BYTES: the rest of a longer line is dropped.
            let mut current: Vec<u8> = Vec::new();
            loop {
                let n = match stderr.read(&mut chunk).await {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                let mut lines = shared.lock().unwrap_or_else(|p| p.into_inner());
                for piece in chunk[..n].split_inclusive(|b| *b == b'\n') {
                    let (body, ends) = match piece.strip_suffix(b"\n") {
                        Some(body) => (body, true),
                        None => (piece, false),
                    };
                    let room = MAX_BYTES.saturating_sub(current.len());
                    current.extend_from_slice(&body[..body.len().min(room)]);
                    if ends {
                        lines.push(&current);
                        current.clear();
                    }
                }
            }
            if !current.is_empty() {
                shared
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .push(&current);
            }
            let _ = ended_tx.send(true);
        });
        StderrTail { lines, ended }
    }

    /// Waits until stderr has ended (the server and every process sharing its stderr exited),
    /// at most `bound`: after a failure, so the tail holds the server's last words. A
    /// grandchild that keeps stderr open only costs the bound.
    pub(crate) async fn settle(&self, bound: Duration) {
        let mut ended = self.ended.clone();
        let _ = tokio::time::timeout(bound, ended.wait_for(|ended| *ended)).await;
    }

    /// The kept lines, oldest first.
    pub(crate) fn lines(&self) -> Vec<String> {
        self.lines
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .lines
            .iter()
            .cloned()
            .collect()
    }

    /// The tail as a suffix for an error message: empty when the server wrote nothing.
    pub(crate) fn explain(&self) -> String {
        let lines = self.lines();
        if lines.is_empty() {
            return String::new();
        }
        let mut text = String::from("; its last lines on stderr:");
        for line in lines {
            text.push_str("\n  | ");
            text.push_str(&line);
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_last_lines_within_both_bounds() {
        let mut lines = Lines::default();
        for i in 0..100 {
            lines.push(format!("line {i}").as_bytes());
        }
        assert_eq!(lines.lines.len(), MAX_LINES);
        assert_eq!(lines.lines.back().unwrap(), "line 99");
        lines.push(&[b'x'; 10_000]);
        assert_eq!(lines.lines.len(), 1, "one cut line fills the byte bound");
        assert_eq!(lines.bytes, MAX_BYTES);
    }

    #[tokio::test]
    async fn reads_a_stream_to_its_end() {
        let input: &[u8] = b"first\nsecond\r\nno newline";
        let tail = StderrTail::read(input);
        tail.settle(Duration::from_secs(60)).await;
        assert_eq!(tail.lines(), ["first", "second", "no newline"]);
        assert!(tail.explain().ends_with("\n  | no newline"));
    }
}
