//! Lines out of bytes that arrive in any chunking. Policy (the server-sent events rule,
//! WHATWG HTML "Interpreting an event stream", which JSON lines also satisfies): a line ends at
//! CRLF, LF or a lone CR, and a CRLF cut between two chunks is still one line end.

/// The line being gathered, and whether the last chunk ended on a CR (whose LF, if the next
/// chunk starts with one, belongs to it).
#[derive(Debug, Default)]
pub(crate) struct LineSplitter {
    line: Vec<u8>,
    after_cr: bool,
}

impl LineSplitter {
    /// Feeds `chunk`, calling `on_line` with each line it completes (without its end). A line
    /// wholly inside the chunk is passed without a copy.
    pub(crate) fn push(&mut self, chunk: &[u8], mut on_line: impl FnMut(&[u8])) {
        let mut rest = chunk;
        if self.after_cr && !rest.is_empty() {
            self.after_cr = false;
            if rest[0] == b'\n' {
                rest = &rest[1..];
            }
        }
        while let Some(end) = rest.iter().position(|&b| b == b'\n' || b == b'\r') {
            if self.line.is_empty() {
                on_line(&rest[..end]);
            } else {
                self.line.extend_from_slice(&rest[..end]);
                on_line(&self.line);
                self.line.clear();
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
        self.line.extend_from_slice(rest);
    }

    /// The line the bytes ended inside of (empty when they ended at a line end).
    pub(crate) fn rest(&self) -> &[u8] {
        &self.line
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(chunks: &[&[u8]]) -> (Vec<String>, String) {
        let mut splitter = LineSplitter::default();
        let mut out = Vec::new();
        for chunk in chunks {
            splitter.push(chunk, |line| {
                out.push(String::from_utf8_lossy(line).into_owned())
            });
        }
        (out, String::from_utf8_lossy(splitter.rest()).into_owned())
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
}
