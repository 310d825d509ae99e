//! [`JsonLinesCallStream`]: a stream's calls from JSON lines.

use super::*;

/// A stream's calls from JSON lines in any chunking: one event per line, as a tool that
/// decodes Converse's binary event stream writes them (`{"contentBlockDelta": …}` per line).
/// Blank lines are skipped; a last line without its newline counts if it is whole JSON
/// (JSON Lines, jsonlines.org: "The last character in the file may be a line separator").
/// Lines end at `\n` (with a `\r` before it dropped), jsonlines.org's "Line Separator is
/// '\n'", and are read by tokio-util's `LinesCodec::new_with_max_length`, which bounds them.
///
/// ```
/// use toolwire_core::wire::calls::{CallFormat, JsonLinesCallStream};
/// let text = concat!(
///     r#"{"contentBlockStart":{"start":{"toolUse":{"toolUseId":"tooluse_1","name":"get_time"}},"contentBlockIndex":0}}"#, "\n",
///     r#"{"contentBlockStop":{"contentBlockIndex":0}}"#,
/// );
/// let mut stream = JsonLinesCallStream::new(CallFormat::Converse);
/// assert!(stream.push(text.as_bytes()).unwrap().is_empty());
/// let calls = stream.finish().unwrap();
/// assert_eq!(calls[0].id.as_deref(), Some("tooluse_1"));
/// ```
#[derive(Debug)]
pub struct JsonLinesCallStream {
    codec: LinesCodec,
    /// The bytes of the line being read (`LinesCodec` takes each line out of it).
    buffer: BytesMut,
    calls: CallStream,
    head: Head,
}

impl JsonLinesCallStream {
    /// A stream of `format` with the default limits.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, JsonLinesCallStream};
    /// assert_eq!(JsonLinesCallStream::new(CallFormat::Converse).format(), CallFormat::Converse);
    /// ```
    pub fn new(format: CallFormat) -> JsonLinesCallStream {
        JsonLinesCallStream::over(CallStream::new(format))
    }

    pub(crate) fn over(calls: CallStream) -> JsonLinesCallStream {
        JsonLinesCallStream {
            codec: LinesCodec::new_with_max_length(calls.max_event_bytes),
            buffer: BytesMut::new(),
            calls,
            head: Head::default(),
        }
    }

    /// The same stream, also recording the assistant turn its events carry
    /// ([`CallStream::recording_turn`]).
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, JsonLinesCallStream};
    /// let mut stream = JsonLinesCallStream::new(CallFormat::Converse).recording_turn();
    /// let _ = stream.push(b"{\"contentBlockDelta\":{\"contentBlockIndex\":0,\"delta\":{\"text\":\"Hi\"}}}\n");
    /// assert_eq!(stream.turn().unwrap().body()["output"]["message"]["content"][0]["text"], "Hi");
    /// ```
    pub fn recording_turn(self) -> JsonLinesCallStream {
        JsonLinesCallStream {
            calls: self.calls.recording_turn(),
            ..self
        }
    }

    /// The assistant turn recorded so far, if the stream records one.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, JsonLinesCallStream};
    /// assert!(JsonLinesCallStream::new(CallFormat::Converse).turn().is_none());
    /// ```
    pub fn turn(&self) -> Option<&StreamedTurn> {
        self.calls.turn()
    }

    /// The stream's format.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, JsonLinesCallStream};
    /// assert_eq!(JsonLinesCallStream::new(CallFormat::Gemini).format(), CallFormat::Gemini);
    /// ```
    pub fn format(&self) -> CallFormat {
        self.calls.format()
    }

    /// Whether [`finish`](Self::finish) ended the stream by inference from its close
    /// ([`CallStream::ended_by_close`]): never for Converse, whose calls end at
    /// `contentBlockStop`.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, JsonLinesCallStream};
    /// let mut stream = JsonLinesCallStream::new(CallFormat::Converse);
    /// let _ = stream.push(b"{\"messageStop\":{\"stopReason\":\"end_turn\"}}\n").unwrap();
    /// assert!(stream.finish().unwrap().is_empty());
    /// assert!(!stream.ended_by_close());
    /// ```
    pub fn ended_by_close(&self) -> bool {
        self.calls.ended_by_close()
    }

    /// Feeds the next bytes; returns the calls the lines they complete ended.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, JsonLinesCallStream};
    /// let mut stream = JsonLinesCallStream::new(CallFormat::Converse);
    /// assert!(stream.push(b"{\"messageStart\":{\"role\":\"assistant\"}}\n\n").unwrap().is_empty());
    /// ```
    #[must_use = "the calls an event ends are returned only once"]
    pub fn push(&mut self, chunk: &[u8]) -> Result<Vec<ToolCall>, StreamError> {
        if let Some(refused) = self.calls.refused() {
            return Err(refused);
        }
        self.head.keep(chunk);
        self.buffer.extend_from_slice(chunk);
        let mut calls = Vec::new();
        let fault = loop {
            let line = match self.codec.decode(&mut self.buffer) {
                Ok(Some(line)) => line,
                Ok(None) => break None,
                Err(LinesCodecError::MaxLineLengthExceeded) => break Some(self.calls.too_long()),
                // `LinesCodec` fails on a line that is not UTF-8, which JSON must be (RFC 8259
                // §8.1); the line is gone from its buffer: the input's start stands for it.
                Err(LinesCodecError::Io(error)) => {
                    break Some(
                        self.calls
                            .not_json(self.head.first_line(), error.to_string()),
                    )
                }
            };
            if line.trim_ascii().is_empty() {
                continue;
            }
            match self.calls.push_slice(line.as_bytes()) {
                Ok(ended) => calls.extend(ended),
                Err(error) => break Some(error),
            }
            // A fault kept after the calls its line ended ends the reading: the lines after
            // it are not read (whatever they hold, and however the bytes were chunked).
            if let Some(kept) = self.calls.refused() {
                break Some(kept);
            }
        };
        // The recorded turn is cut while a line has begun and its newline has not come (as
        // `SseCallStream` does inside an event); it ends at a fault, whatever bytes follow.
        // The scan stops at the first byte that is not whitespace: no quadratic rescan.
        let inside = fault.is_none() && !self.buffer.iter().all(u8::is_ascii_whitespace);
        self.calls.recorded.set_inside_event(inside);
        match fault {
            Some(error) if calls.is_empty() => Err(error),
            _ => Ok(calls),
        }
    }

    /// Ends the stream: the calls a last line without its newline ended, and those the end
    /// ends (as [`CallStream::finish`]), or an error if a call is still open or the last line
    /// is cut JSON (a Gemini call it held is named from its text, in the error and in the
    /// recorded turn). A last line without its newline is read as an event when it is whole
    /// JSON, because JSON lines have no end marker (jsonlines.org: the last line separator is
    /// optional); an SSE event without its blank line is a cut instead
    /// ([`SseCallStream::finish`]: WHATWG SSE dispatches only at a blank line). If that last
    /// line ended calls and the end then fails (another call still open), the calls come now
    /// (`Ok`) and the error is kept: the next `finish` or `push` returns it, so call `finish`
    /// until it returns an error or no call. An error means the turn is not whole.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, JsonLinesCallStream, StreamError};
    /// let mut stream = JsonLinesCallStream::new(CallFormat::Converse).recording_turn();
    /// let _ = stream.push(b"{\"messageStart\":{\"role\":\"assistant\"}}\n{\"contentBlockSt");
    /// // The turn is cut while the last line is, before `finish` as after it.
    /// assert!(stream.turn().unwrap().whole().is_err());
    /// assert!(matches!(stream.finish(), Err(StreamError::Unfinished { cut_event: true, .. })));
    /// ```
    #[must_use = "the calls the end ends are returned only once"]
    pub fn finish(&mut self) -> Result<Vec<ToolCall>, StreamError> {
        let rest = self.buffer.split();
        let head = std::mem::take(&mut self.head.0);
        if rest.iter().all(u8::is_ascii_whitespace) {
            return self.calls.finish_cut(None, Some(&head));
        }
        if self.calls.refused().is_some() || serde_json::from_slice::<Value>(&rest).is_err() {
            let cut = String::from_utf8_lossy(&rest).into_owned();
            return self.calls.finish_cut(Some(&cut), Some(&head));
        }
        // The last line is whole JSON: the turn is no longer inside it.
        self.calls.recorded.set_inside_event(false);
        let mut calls = self.calls.push_slice(&rest)?;
        if self.calls.failed.is_some() {
            // The line ended calls and was a fault after them: the calls now, the fault next.
            return Ok(calls);
        }
        match self.calls.finish_cut(None, Some(&head)) {
            Ok(more) => {
                calls.extend(more);
                Ok(calls)
            }
            Err(error) if calls.is_empty() => Err(error),
            // The end failed (a call still open) after the last line ended calls: the calls
            // now, the error (kept) with the next `finish` or `push`.
            Err(_) => Ok(calls),
        }
    }
}
