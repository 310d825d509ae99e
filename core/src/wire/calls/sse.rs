//! Server-sent events out of bytes in any chunking, as the WHATWG HTML standard
//! ("Interpreting an event stream", html.spec.whatwg.org/multipage/server-sent-events.html)
//! reads them, which the providers' SDKs follow (openai-python and anthropic-sdk-python
//! `_streaming.py` `SSEDecoder`; google-genai `_api_client.py` for Gemini's `alt=sse`).
//!
//! Policy: lines end at CRLF, LF or CR; a line starting with `:` is a comment; `field: value`
//! loses one space after the colon; `data` lines join with `\n`; `event` names the event; an
//! empty line dispatches it (only if it had data); `id`, `retry` and unknown fields are
//! ignored; a leading byte order mark is dropped; bytes that are not UTF-8 become U+FFFD. An
//! event the stream ends inside of is not dispatched: [`SseDecoder::finish`] returns what it held.

use super::lines::LineSplitter;

/// One server-sent event.
///
/// ```
/// use toolwire_core::wire::calls::SseDecoder;
/// let mut decoder = SseDecoder::new();
/// let events = decoder.push(b"event: ping\ndata: {\"type\":\"ping\"}\n\n");
/// assert_eq!(events[0].event.as_deref(), Some("ping"));
/// assert_eq!(events[0].data, r#"{"type":"ping"}"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SseEvent {
    /// The `event:` field, if the event had one (no field means `message`).
    pub event: Option<String>,
    /// The `data:` lines, joined with `\n`.
    pub data: String,
}

/// The fields of the event being read.
#[derive(Debug, Default)]
struct Fields {
    event: Option<String>,
    data: String,
    has_data: bool,
    first_line: bool,
}

impl Fields {
    fn line(&mut self, line: &[u8], out: &mut Vec<SseEvent>) {
        let mut line = line;
        if std::mem::take(&mut self.first_line) {
            line = line.strip_prefix("\u{feff}".as_bytes()).unwrap_or(line);
        }
        if line.is_empty() {
            if self.has_data {
                out.push(SseEvent {
                    event: self.event.take(),
                    data: std::mem::take(&mut self.data),
                });
            }
            self.event = None;
            self.has_data = false;
            return;
        }
        if line[0] == b':' {
            return;
        }
        let (field, value) = match line.iter().position(|&b| b == b':') {
            Some(colon) => {
                let value = &line[colon + 1..];
                (&line[..colon], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &[][..]),
        };
        match field {
            b"data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(&String::from_utf8_lossy(value));
                self.has_data = true;
            }
            b"event" => self.event = Some(String::from_utf8_lossy(value).into_owned()),
            _ => {}
        }
    }
}

/// Reads server-sent events from bytes as they arrive, split anywhere.
///
/// ```
/// use toolwire_core::wire::calls::SseDecoder;
/// let mut decoder = SseDecoder::new();
/// assert!(decoder.push(b": keep-alive\r\ndata: {\"a\":").is_empty());
/// let events = decoder.push(b"\r\ndata: 1}\r\n\r\ndata: cut");
/// assert_eq!(events[0].data, "{\"a\":\n1}");
/// assert_eq!(decoder.finish().as_deref(), Some("cut"));
/// ```
#[derive(Debug)]
pub struct SseDecoder {
    lines: LineSplitter,
    fields: Fields,
}

impl Default for SseDecoder {
    fn default() -> Self {
        SseDecoder::new()
    }
}

impl SseDecoder {
    /// A decoder at the start of a stream.
    ///
    /// ```
    /// assert!(toolwire_core::wire::calls::SseDecoder::new().finish().is_none());
    /// ```
    pub fn new() -> SseDecoder {
        SseDecoder {
            lines: LineSplitter::default(),
            fields: Fields {
                first_line: true,
                ..Fields::default()
            },
        }
    }

    /// Feeds the next bytes; returns the events they complete, in order.
    ///
    /// ```
    /// use toolwire_core::wire::calls::SseDecoder;
    /// let mut decoder = SseDecoder::new();
    /// let text = b"data: one\n\ndata: two\n\n";
    /// let mut events = Vec::new();
    /// for byte in text.chunks(1) {
    ///     events.extend(decoder.push(byte));
    /// }
    /// assert_eq!(events.iter().map(|e| e.data.as_str()).collect::<Vec<_>>(), ["one", "two"]);
    /// ```
    pub fn push(&mut self, chunk: &[u8]) -> Vec<SseEvent> {
        let mut out = Vec::new();
        let fields = &mut self.fields;
        self.lines.push(chunk, |line| fields.line(line, &mut out));
        out
    }

    /// Whether the bytes so far stop inside an event (a line begun, or data not yet dispatched).
    pub(crate) fn inside_event(&self) -> bool {
        !self.lines.rest().is_empty() || self.fields.has_data
    }

    /// Ends the stream. `None` when it ended between events; otherwise the data of the event it
    /// ended inside of (with the cut line's value if that was a `data` line), which the standard
    /// discards and a caller may still want to name.
    ///
    /// ```
    /// use toolwire_core::wire::calls::SseDecoder;
    /// let mut decoder = SseDecoder::new();
    /// let _ = decoder.push(b"data: {\"cand");
    /// assert_eq!(decoder.finish().as_deref(), Some("{\"cand"));
    /// ```
    pub fn finish(mut self) -> Option<String> {
        let rest = self.lines.rest().to_vec();
        if !rest.is_empty() {
            // The cut line as if it had ended, but not the event: no blank line came.
            let mut none = Vec::new();
            self.fields.line(&rest, &mut none);
        }
        self.fields.has_data.then_some(self.fields.data)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_follow_the_standard() {
        let mut decoder = SseDecoder::new();
        let events = decoder.push(
            "\u{feff}: comment\nretry: 10\nid: 7\nevent: a\ndata:x\ndata\n\n\nevent: b\n\ndata: \n\n"
                .as_bytes(),
        );
        assert_eq!(
            events,
            [
                SseEvent {
                    event: Some("a".into()),
                    data: "x\n".into()
                },
                // An event with an empty data line is dispatched; one without data is not.
                SseEvent {
                    event: None,
                    data: String::new()
                },
            ]
        );
        assert!(decoder.finish().is_none());
    }

    #[test]
    fn a_crlf_cut_between_chunks_does_not_end_the_event() {
        // Two data lines of one event, CRLF framed: every cut gives the one event (an LF
        // read as a second line end would dispatch `{"a":` alone).
        let text = b"data: {\"a\":\r\ndata: 1}\r\n\r\n";
        for cut in 0..=text.len() {
            let mut decoder = SseDecoder::new();
            let mut events = decoder.push(&text[..cut]);
            events.extend(decoder.push(&text[cut..]));
            assert_eq!(events.len(), 1, "cut at {cut}");
            assert_eq!(events[0].data, "{\"a\":\n1}", "cut at {cut}");
        }
    }

    #[test]
    fn a_multibyte_character_cut_between_chunks_survives() {
        let text = "data: Zürich\n\n".as_bytes();
        let cut = text.iter().position(|&b| b == 0xC3).unwrap() + 1;
        let mut decoder = SseDecoder::new();
        assert!(decoder.push(&text[..cut]).is_empty());
        assert_eq!(decoder.push(&text[cut..])[0].data, "Zürich");
    }
}
