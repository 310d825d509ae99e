//! [`SseCallStream`]: a stream's calls from its raw server-sent-event text.

use super::*;

/// A stream's calls from its raw server-sent-event text, in any chunking: the bytes as they
/// come off the connection (Chat Completions, Responses, the Messages API, Gemini with
/// `alt=sse`). Each event's `data` is one JSON event for [`CallStream`]; OpenAI's
/// `data: [DONE]` ends the stream (openai-python `_streaming.py`: `if
/// sse.data.startswith("[DONE]"): break`).
///
/// ```
/// use toolwire_core::wire::calls::{CallFormat, SseCallStream};
///
/// let text = concat!(
///     "event: content_block_start\r\n",
///     r#"data: {"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"get_weather","input":{}}}"#, "\r\n\r\n",
///     "event: content_block_delta\r\n",
///     r#"data: {"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"city\": \"Paris\"}"}}"#, "\r\n\r\n",
///     "event: content_block_stop\r\n",
///     r#"data: {"type":"content_block_stop","index":0}"#, "\r\n\r\n",
/// );
/// let mut stream = SseCallStream::new(CallFormat::Anthropic);
/// let mut calls = Vec::new();
/// for chunk in text.as_bytes().chunks(5) {
///     calls.extend(stream.push(chunk).unwrap());
/// }
/// assert!(stream.finish().unwrap().is_empty());
/// assert_eq!(calls[0].arguments.as_ref().unwrap()["city"], "Paris");
/// ```
#[derive(Debug)]
pub struct SseCallStream {
    decoder: SseDecoder,
    calls: CallStream,
    done: bool,
    head: Head,
}

impl SseCallStream {
    /// A stream of `format` with the default limits.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, SseCallStream};
    /// assert_eq!(SseCallStream::new(CallFormat::Gemini).format(), CallFormat::Gemini);
    /// ```
    pub fn new(format: CallFormat) -> SseCallStream {
        SseCallStream::over(CallStream::new(format))
    }

    pub(crate) fn over(calls: CallStream) -> SseCallStream {
        SseCallStream {
            decoder: SseDecoder::with_max_event_bytes(calls.max_event_bytes),
            calls,
            done: false,
            head: Head::default(),
        }
    }

    /// The same stream, also recording the assistant turn its events carry
    /// ([`CallStream::recording_turn`]).
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, SseCallStream};
    /// let mut stream = SseCallStream::new(CallFormat::OpenAiChat).recording_turn();
    /// let _ = stream.push(b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n");
    /// assert_eq!(stream.turn().unwrap().body()["choices"][0]["message"]["content"], "Hi");
    /// ```
    pub fn recording_turn(self) -> SseCallStream {
        SseCallStream {
            calls: self.calls.recording_turn(),
            ..self
        }
    }

    /// The assistant turn recorded so far, if the stream records one.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, SseCallStream};
    /// assert!(SseCallStream::new(CallFormat::Gemini).turn().is_none());
    /// ```
    pub fn turn(&self) -> Option<&StreamedTurn> {
        self.calls.turn()
    }

    /// The stream's format.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, SseCallStream};
    /// assert_eq!(SseCallStream::new(CallFormat::OpenAiChat).format(), CallFormat::OpenAiChat);
    /// ```
    pub fn format(&self) -> CallFormat {
        self.calls.format()
    }

    /// Whether [`finish`](Self::finish) ended the stream by inference from its close, with
    /// neither a `finish_reason` nor `[DONE]` ([`CallStream::ended_by_close`]).
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, SseCallStream};
    /// let mut stream = SseCallStream::new(CallFormat::OpenAiChat);
    /// let _ = stream.push(b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n");
    /// assert!(stream.finish().unwrap().is_empty());
    /// assert!(stream.ended_by_close());
    /// ```
    pub fn ended_by_close(&self) -> bool {
        self.calls.ended_by_close()
    }

    /// Feeds the next bytes; returns the calls the events they complete ended.
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, SseCallStream};
    /// let mut stream = SseCallStream::new(CallFormat::OpenAiChat);
    /// let chunk = b"data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}\n\n";
    /// assert!(stream.push(chunk).unwrap().is_empty());
    /// assert!(stream.push(b"data: [DONE]\n\n").unwrap().is_empty());
    /// assert!(stream.finish().unwrap().is_empty());
    /// ```
    #[must_use = "the calls an event ends are returned only once"]
    pub fn push(&mut self, chunk: &[u8]) -> Result<Vec<ToolCall>, StreamError> {
        if let Some(refused) = self.calls.refused() {
            return Err(refused);
        }
        self.head.keep(chunk);
        // The events before a line over the limit are read first, as they would be had the
        // chunk ended before that line.
        let (events, too_long) = self.decoder.push_keeping(chunk);
        let mut calls = Vec::new();
        for event in events {
            if self.done {
                continue;
            }
            if is_end_marker(self.calls.format(), event.data.as_bytes()) {
                // Not an event of the format by itself: a stream of nothing but `[DONE]` (a
                // proxy that failed) has no turn in it.
                self.done = true;
            }
            match self.calls.push_slice(event.data.as_bytes()) {
                Ok(ended) => {
                    calls.extend(ended);
                    // A fault kept after the calls its event ended ends the reading, as a
                    // fault does: the turn ends there, whatever bytes follow (in this chunk or
                    // the next), so its state never depends on the chunking.
                    if self.calls.refused().is_some() {
                        self.calls.recorded.set_inside_event(false);
                        return Ok(calls);
                    }
                }
                Err(error) => {
                    // The turn ends at the fault, whatever bytes follow it: it is no more cut
                    // than the same stream fed whole. The calls ended before the fault are
                    // returned; the fault comes next.
                    self.calls.recorded.set_inside_event(false);
                    return if calls.is_empty() {
                        Err(error)
                    } else {
                        Ok(calls)
                    };
                }
            }
        }
        if too_long.is_some() {
            let error = self.calls.too_long();
            self.calls.recorded.set_inside_event(false);
            return if calls.is_empty() {
                Err(error)
            } else {
                Ok(calls)
            };
        }
        // The recorded turn is cut while the bytes stop inside an event.
        let inside = !self.done && self.decoder.inside_event();
        self.calls.recorded.set_inside_event(inside);
        Ok(calls)
    }

    /// Ends the stream: as [`CallStream::finish`], the calls its end ends (Chat Completions:
    /// every call still open, when the text ended between events; calls first, a fault after
    /// them with the next `finish`), or an error if a call is still open, if the text ended
    /// inside an event (the last event without its blank line is cut: WHATWG HTML, "Interpreting an
    /// event stream": an event is dispatched only at a blank line, and "if the file ends in
    /// the middle of an event, before the final empty line, the incomplete event is not
    /// dispatched"; a JSON-lines last line without its newline, by contrast, is
    /// read as an event, [`JsonLinesCallStream::finish`]) (a Gemini call that event held is named
    /// from its text, in the error and in the recorded turn's [`ReplayError::Cut`]), or if no
    /// event was the format's (an HTML error page, a JSON body, nothing:
    /// [`StreamError::NotTheFormat`] quotes how it begins).
    ///
    /// [`ReplayError::Cut`]: crate::wire::replay::ReplayError::Cut
    ///
    /// ```
    /// use toolwire_core::wire::calls::{CallFormat, SseCallStream, StreamError};
    /// let mut stream = SseCallStream::new(CallFormat::Gemini);
    /// let _ = stream.push(br#"data: {"candidates":[{"content":{"parts":[{"functionCall":{"name":"get_weather","args":{"ci"#);
    /// let Err(StreamError::Unfinished { calls, cut_event: true, .. }) = stream.finish() else { panic!() };
    /// assert_eq!(calls[0].name.as_deref(), Some("get_weather"));
    ///
    /// let mut stream = SseCallStream::new(CallFormat::OpenAiChat);
    /// let _ = stream.push(b"<html><head><title>502 Bad Gateway</title></head></html>\r\n");
    /// let Err(StreamError::NotTheFormat { events: 0, begins, .. }) = stream.finish() else { panic!() };
    /// assert!(begins.starts_with("<html><head><title>502 Bad Gateway"));
    ///
    /// // A Chat Completions stream closed between events, with no finish_reason and no [DONE].
    /// let mut stream = SseCallStream::new(CallFormat::OpenAiChat);
    /// let _ = stream.push(br#"data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"get_time","arguments":"{}"}}]}}]}"#);
    /// let _ = stream.push(b"\n\n");
    /// assert_eq!(stream.finish().unwrap()[0].name, "get_time");
    /// ```
    #[must_use = "the calls the end ends are returned only once"]
    pub fn finish(&mut self) -> Result<Vec<ToolCall>, StreamError> {
        let limit = self.calls.max_event_bytes;
        let decoder = std::mem::replace(&mut self.decoder, SseDecoder::with_max_event_bytes(limit));
        let cut = decoder.finish().filter(|_| !self.done);
        let head = std::mem::take(&mut self.head.0);
        self.calls.finish_cut(cut.as_deref(), Some(&head))
    }
}

/// Whether `event` is the end marker of `format`'s streams (OpenAI's `[DONE]`), which is not
/// JSON.
pub(crate) fn is_end_marker(format: CallFormat, event: &[u8]) -> bool {
    api(format)
        .end_marker()
        .is_some_and(|marker| event.starts_with(marker.as_bytes()))
}
