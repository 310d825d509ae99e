//! Lines out of bytes that arrive in any chunking, each at most a limit long. Policy (the
//! server-sent events rule, WHATWG HTML "Interpreting an event stream"): a line ends at CRLF,
//! LF or a lone CR, and a CRLF cut between two chunks is still one line end.
//!
//! Why not `tokio_util::codec::LinesCodec::new_with_max_length` (tokio-util 0.7,
//! `codec/lines_codec.rs`), which bounds lines the same way: it ends a line only at LF, and a
//! lone CR ends an SSE line (the standard above; `SseDecoder` in openai-python's
//! `_streaming.py` splits on `\r\n`, `\n` and `\r` too); it decodes each line as UTF-8 and
//! fails on bytes that are not, where SSE reads them as U+FFFD; and it copies every chunk into
//! its buffer, where a line wholly inside a chunk is passed here as a slice of it. JSON lines
//! (`JsonLinesCallStream`) do use it.

/// The default limit of one line, and of one event's data, of a stream: 16 MiB. Our own
/// caution (neither the SSE standard nor a provider sets one): the largest real event is a
/// Responses API `response.completed`, which repeats the whole response, every call's
/// arguments with it (each up to [`DEFAULT_MAX_ARGUMENT_BYTES`](super::DEFAULT_MAX_ARGUMENT_BYTES),
/// 1 MiB), so the limit is well above one call's; without one, `data: ` and gigabytes with no
/// line end would all be held.
///
/// ```
/// assert_eq!(toolwire_core::wire::calls::DEFAULT_MAX_EVENT_BYTES, 16 << 20);
/// ```
pub const DEFAULT_MAX_EVENT_BYTES: usize = 16 << 20;

/// A line that grew past the limit (the limit, in bytes) before its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct LineTooLong(pub(crate) usize);

/// The line being gathered, whether the last chunk ended on a CR (whose LF, if the next
/// chunk starts with one, belongs to it), and the limit of one line.
#[derive(Debug)]
pub(crate) struct LineSplitter {
    line: Vec<u8>,
    after_cr: bool,
    max_line_bytes: usize,
}

impl LineSplitter {
    pub(crate) fn new(max_line_bytes: usize) -> LineSplitter {
        LineSplitter {
            line: Vec::new(),
            after_cr: false,
            max_line_bytes,
        }
    }

    /// Feeds `chunk`, calling `on_line` with each line it completes (without its end) until
    /// `on_line` fails. A line wholly inside the chunk is passed without a copy. A line longer
    /// than the limit, ended or not, is [`LineTooLong`]: at most the limit is ever buffered.
    pub(crate) fn push<E: From<LineTooLong>>(
        &mut self,
        chunk: &[u8],
        mut on_line: impl FnMut(&[u8]) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut rest = chunk;
        if self.after_cr && !rest.is_empty() {
            self.after_cr = false;
            if rest[0] == b'\n' {
                rest = &rest[1..];
            }
        }
        while let Some(end) = rest.iter().position(|&b| b == b'\n' || b == b'\r') {
            if self.line.len() + end > self.max_line_bytes {
                return Err(LineTooLong(self.max_line_bytes).into());
            }
            if self.line.is_empty() {
                on_line(&rest[..end])?;
            } else {
                self.line.extend_from_slice(&rest[..end]);
                let line = std::mem::take(&mut self.line);
                let done = on_line(&line);
                self.line = line;
                self.line.clear();
                done?;
            }
            let ended_on_cr = rest[end] == b'\r';
            rest = &rest[end + 1..];
            if ended_on_cr {
                match rest.first() {
                    Some(b'\n') => rest = &rest[1..],
                    Some(_) => {}
                    None => self.after_cr = true,
                }
            }
        }
        if self.line.len() + rest.len() > self.max_line_bytes {
            return Err(LineTooLong(self.max_line_bytes).into());
        }
        self.line.extend_from_slice(rest);
        Ok(())
    }

    /// The line the bytes ended inside of (empty when they ended at a line end).
    pub(crate) fn rest(&self) -> &[u8] {
        &self.line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines_within(limit: usize, chunks: &[&[u8]]) -> Result<(Vec<String>, String), LineTooLong> {
        let mut splitter = LineSplitter::new(limit);
        let mut out = Vec::new();
        for chunk in chunks {
            splitter.push(chunk, |line| {
                out.push(String::from_utf8_lossy(line).into_owned());
                Ok::<_, LineTooLong>(())
            })?;
        }
        Ok((out, String::from_utf8_lossy(splitter.rest()).into_owned()))
    }

    fn lines(chunks: &[&[u8]]) -> (Vec<String>, String) {
        lines_within(usize::MAX, chunks).unwrap()
    }

    #[test]
    fn every_line_end_counts_once() {
        let (out, rest) = lines(&[b"a\r\nb\nc\rd\r\n\r\ne"]);
        assert_eq!(out, ["a", "b", "c", "d", ""]);
        assert_eq!(rest, "e");
    }

    #[test]
    fn a_crlf_cut_between_chunks_is_one_line_end() {
        let (out, rest) = lines(&[b"a\r", b"\nb\r", b"", b"\n", b"c"]);
        assert_eq!(out, ["a", "b"]);
        assert_eq!(rest, "c");
        // A lone CR at a chunk's end, followed by text, ends its line too.
        let (out, _) = lines(&[b"a\r", b"b\n"]);
        assert_eq!(out, ["a", "b"]);
    }

    #[test]
    fn a_line_cut_anywhere_is_gathered() {
        let (out, _) = lines(&[b"da", b"ta: {\"x\"", b":1}\n"]);
        assert_eq!(out, ["data: {\"x\":1}"]);
    }

    #[test]
    fn a_line_over_the_limit_is_refused_in_any_chunking() {
        // Exactly the limit is a line; one byte more is refused, whole or cut, ended or not.
        assert_eq!(lines_within(4, &[b"abcd\n"]).unwrap().0, ["abcd"]);
        assert_eq!(lines_within(4, &[b"ab", b"cd\r\n"]).unwrap().0, ["abcd"]);
        assert_eq!(lines_within(4, &[b"abcde\n"]), Err(LineTooLong(4)));
        assert_eq!(lines_within(4, &[b"ab", b"cde\n"]), Err(LineTooLong(4)));
        // No line end at all: refused as soon as the buffer would pass the limit.
        assert_eq!(lines_within(4, &[b"abc", b"de"]), Err(LineTooLong(4)));
        assert_eq!(lines_within(4, &[b"x\nabcd"]).unwrap().1, "abcd");
    }
}
