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
//! One line, and one event's data, is at most a limit long ([`DEFAULT_MAX_EVENT_BYTES`]; the
//! standard sets none): past it the decoder fails with [`EventTooLong`] and holds no more.
//!
//! Why our own decoder and not a crate's: the decoder is pushed the chunks the caller hands it,
//! synchronously, and returns the events they complete, for apps that read the connection
//! themselves (and for `CallStream`, which is no async stream). `eventsource-stream` 0.2
//! (`EventStream`) and `sse-stream` 0.2 (`SseStream`, which rmcp 3.11 uses) are async
//! `Stream`s over a byte stream or an `http_body::Body`, with the line parser private; neither
//! bounds a line; and `sse-stream` fails on lines the standard ignores (a field without a
//! colon, an unknown field: its `stream.rs` `Error::InvalidLine`), which an HTML error page is
//! made of.

use super::lines::{LineSplitter, LineTooLong, DEFAULT_MAX_EVENT_BYTES};

/// One server-sent event.
///
/// ```
/// use toolwire_core::wire::calls::SseDecoder;
/// let mut decoder = SseDecoder::new();
/// let events = decoder.push(b"event: ping\ndata: {\"type\":\"ping\"}\n\n").unwrap();
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

/// A line or an event's data grew past the decoder's limit: the stream is refused, not
/// buffered without end.
///
/// ```
/// use toolwire_core::wire::calls::{EventTooLong, SseDecoder};
/// let mut decoder = SseDecoder::with_max_event_bytes(16);
/// assert!(decoder.push(b"data: short\n\n").is_ok());
/// let err = decoder.push(b"data: a line longer than the limit").unwrap_err();
/// assert_eq!(err, EventTooLong { limit: 16 });
/// assert!(err.to_string().contains("16 bytes"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a server-sent event or line is longer than the limit of {limit} bytes")]
pub struct EventTooLong {
    /// The limit it passed, in bytes.
    pub limit: usize,
}

impl From<LineTooLong> for EventTooLong {
    fn from(LineTooLong(limit): LineTooLong) -> EventTooLong {
        EventTooLong { limit }
    }
}

/// The fields of the event being read.
#[derive(Debug)]
struct Fields {
    event: Option<String>,
    data: String,
    has_data: bool,
    first_line: bool,
    max_data_bytes: usize,
}

impl Fields {
    fn line(&mut self, line: &[u8], out: &mut Vec<SseEvent>) -> Result<(), EventTooLong> {
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
            return Ok(());
        }
        if line[0] == b':' {
            return Ok(());
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
                // Each line is under the limit; their sum must be too.
                let joined = self.data.len() + usize::from(self.has_data) + value.len();
                if joined > self.max_data_bytes {
                    return Err(EventTooLong {
                        limit: self.max_data_bytes,
                    });
                }
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(&String::from_utf8_lossy(value));
                self.has_data = true;
            }
            b"event" => self.event = Some(String::from_utf8_lossy(value).into_owned()),
            _ => {}
        }
        Ok(())
    }
}

/// Reads server-sent events from bytes as they arrive, split anywhere.
///
/// ```
/// use toolwire_core::wire::calls::SseDecoder;
/// let mut decoder = SseDecoder::new();
/// assert!(decoder.push(b": keep-alive\r\ndata: {\"a\":").unwrap().is_empty());
/// let events = decoder.push(b"\r\ndata: 1}\r\n\r\ndata: cut").unwrap();
/// assert_eq!(events[0].data, "{\"a\":\n1}");
/// assert_eq!(decoder.finish().as_deref(), Some("cut"));
/// ```
#[derive(Debug)]
pub struct SseDecoder {
    lines: LineSplitter,
    fields: Fields,
    failed: Option<EventTooLong>,
}

impl Default for SseDecoder {
    fn default() -> Self {
        SseDecoder::new()
    }
}

impl SseDecoder {
    /// A decoder at the start of a stream, with the default limit of one line or event
    /// ([`DEFAULT_MAX_EVENT_BYTES`]).
    ///
    /// ```
    /// assert!(toolwire_core::wire::calls::SseDecoder::new().finish().is_none());
    /// ```
    pub fn new() -> SseDecoder {
        SseDecoder::with_max_event_bytes(DEFAULT_MAX_EVENT_BYTES)
    }

    /// A decoder whose lines, and whose events' data, are at most `bytes` long: a longer one
    /// is [`EventTooLong`].
    ///
    /// ```
    /// use toolwire_core::wire::calls::SseDecoder;
    /// let mut decoder = SseDecoder::with_max_event_bytes(8);
    /// // Two lines of 5 bytes' value each: the event's data, joined, is 11.
    /// assert!(decoder.push(b"data: 12345\ndata: 12345\n\n").is_err());
    /// ```
    pub fn with_max_event_bytes(bytes: usize) -> SseDecoder {
        SseDecoder {
            // A line holds its field name and the value: the line limit is the event limit
            // plus the longest field prefix, `data: `, so a value of the limit still fits.
            lines: LineSplitter::new(bytes.saturating_add("data: ".len())),
            fields: Fields {
                event: None,
                data: String::new(),
                has_data: false,
                first_line: true,
                max_data_bytes: bytes,
            },
            failed: None,
        }
    }

    /// Feeds the next bytes; returns the events they complete, in order, or that a line or
    /// event passed the limit (then the decoder is done, and returns it again).
    ///
    /// ```
    /// use toolwire_core::wire::calls::SseDecoder;
    /// let mut decoder = SseDecoder::new();
    /// let text = b"data: one\n\ndata: two\n\n";
    /// let mut events = Vec::new();
    /// for byte in text.chunks(1) {
    ///     events.extend(decoder.push(byte).unwrap());
    /// }
    /// assert_eq!(events.iter().map(|e| e.data.as_str()).collect::<Vec<_>>(), ["one", "two"]);
    /// ```
    pub fn push(&mut self, chunk: &[u8]) -> Result<Vec<SseEvent>, EventTooLong> {
        match self.push_keeping(chunk) {
            (events, None) => Ok(events),
            (_, Some(error)) => Err(error),
        }
    }

    /// [`push`](Self::push), but the events the chunk completed before a line passed the
    /// limit come back beside the failure: a reader that must give the same result in any
    /// chunking reads them first.
    pub(crate) fn push_keeping(&mut self, chunk: &[u8]) -> (Vec<SseEvent>, Option<EventTooLong>) {
        if let Some(failed) = self.failed {
            return (Vec::new(), Some(failed));
        }
        let mut out = Vec::new();
        let fields = &mut self.fields;
        let pushed = self.lines.push(chunk, |line| fields.line(line, &mut out));
        if pushed.is_err() {
            // The line limit has room for the field name: the limit said is the event's.
            let error = EventTooLong {
                limit: self.fields.max_data_bytes,
            };
            self.failed = Some(error);
            return (out, Some(error));
        }
        (out, None)
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
    /// let _ = decoder.push(b"data: {\"cand").unwrap();
    /// assert_eq!(decoder.finish().as_deref(), Some("{\"cand"));
    /// ```
    pub fn finish(mut self) -> Option<String> {
        let rest = self.lines.rest().to_vec();
        if !rest.is_empty() {
            // The cut line as if it had ended, but not the event: no blank line came. Past
            // the limit, the data held so far is what the stream ended inside of.
            let mut none = Vec::new();
            let _ = self.fields.line(&rest, &mut none);
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
        let events = decoder
            .push(
                "\u{feff}: comment\nretry: 10\nid: 7\nevent: a\ndata:x\ndata\n\n\nevent: b\n\ndata: \n\n"
                    .as_bytes(),
            )
            .unwrap();
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
            let mut events = decoder.push(&text[..cut]).unwrap();
            events.extend(decoder.push(&text[cut..]).unwrap());
            assert_eq!(events.len(), 1, "cut at {cut}");
            assert_eq!(events[0].data, "{\"a\":\n1}", "cut at {cut}");
        }
    }

    #[test]
    fn a_multibyte_character_cut_between_chunks_survives() {
        let text = "data: Zürich\n\n".as_bytes();
        let cut = text.iter().position(|&b| b == 0xC3).unwrap() + 1;
        let mut decoder = SseDecoder::new();
        assert!(decoder.push(&text[..cut]).unwrap().is_empty());
        assert_eq!(decoder.push(&text[cut..]).unwrap()[0].data, "Zürich");
    }

    /// The events of `text` cut at every byte, each cut giving the same events.
    fn events_at_every_cut(text: &[u8]) -> Vec<SseEvent> {
        let whole = SseDecoder::new().push(text).unwrap();
        for cut in 0..=text.len() {
            let mut decoder = SseDecoder::new();
            let mut events = decoder.push(&text[..cut]).unwrap();
            events.extend(decoder.push(&text[cut..]).unwrap());
            assert_eq!(events, whole, "cut at {cut}");
            assert!(decoder.finish().is_none(), "cut at {cut}");
        }
        whole
    }

    #[test]
    fn openrouter_comment_lines_are_skipped() {
        // OpenRouter's streaming docs (openrouter.ai/docs/api-reference/streaming,
        // "Additional Information"): it "occasionally sends comments to prevent connection
        // timeouts", `: OPENROUTER PROCESSING`; here before and inside an event.
        let text = concat!(
            ": OPENROUTER PROCESSING\n\n",
            ": OPENROUTER PROCESSING\n",
            "data: {\"choices\":[]}\n",
            ": OPENROUTER PROCESSING\n",
            "\n",
            "data: [DONE]\n\n",
        );
        let data: Vec<String> = events_at_every_cut(text.as_bytes())
            .into_iter()
            .map(|event| event.data)
            .collect();
        assert_eq!(data, ["{\"choices\":[]}", "[DONE]"]);
    }

    #[test]
    fn crlf_line_ends_frame_events_as_lf_does() {
        let lf = "event: message\ndata: {\"a\":1}\n\n: ping\ndata: x\ndata: y\n\n";
        let crlf = lf.replace('\n', "\r\n");
        let cr = lf.replace('\n', "\r");
        let expected = events_at_every_cut(lf.as_bytes());
        assert_eq!(expected.len(), 2);
        assert_eq!(expected[1].data, "x\ny");
        assert_eq!(events_at_every_cut(crlf.as_bytes()), expected);
        assert_eq!(events_at_every_cut(cr.as_bytes()), expected);
    }

    #[test]
    fn a_data_line_without_end_is_refused_at_the_default_limit() {
        // `data: ` and then megabytes with no line end: refused once past the limit, and the
        // decoder stays refused.
        let mut decoder = SseDecoder::new();
        decoder.push(b"data: ").unwrap();
        let megabyte = vec![b'a'; 1 << 20];
        let mut pushed = 0;
        let error = loop {
            match decoder.push(&megabyte) {
                Ok(events) => assert!(events.is_empty()),
                Err(error) => break error,
            }
            pushed += megabyte.len();
            assert!(pushed <= DEFAULT_MAX_EVENT_BYTES, "no error past the limit");
        };
        assert_eq!(error.limit, DEFAULT_MAX_EVENT_BYTES);
        assert!(decoder.lines.rest().len() <= DEFAULT_MAX_EVENT_BYTES + "data: ".len());
        assert_eq!(decoder.push(b"\n\n"), Err(error));
    }

    #[test]
    fn an_event_of_many_short_lines_is_refused_past_the_limit() {
        let mut decoder = SseDecoder::with_max_event_bytes(10);
        // 5 + 1 + 4 = 10: at the limit, one event.
        let events = decoder.push(b"data: 12345\ndata: 6789\n\n").unwrap();
        assert_eq!(events[0].data, "12345\n6789");
        assert_eq!(
            decoder.push(b"data: 12345\ndata: 67890\n\n"),
            Err(EventTooLong { limit: 10 })
        );
        // A comment line is a line: bounded too.
        let mut decoder = SseDecoder::with_max_event_bytes(10);
        assert!(decoder
            .push(b": a comment far longer than sixteen\n")
            .is_err());
    }
}
