//! Chat Completions: the stream machine (`wire::calls::machine`). It reads each chunk once,
//! builds the assistant message the chunks make, and yields each client call as it ends, as a
//! pointer into that message (`/choices/0/message/tool_calls/{position}`): the calls and the
//! recorded turn come from one state, so they agree by construction.
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//! Sources, read 2026-12:
//! - each chunk is a `ChatCompletionChunk` (`types/chat/chat_completion_chunk.py`, openai-python
//!   3.57): `choices[].delta` carries `role`, `content`, `refusal` fragments and `tool_calls`
//!   deltas (`ChoiceDeltaToolCall`: `index` required, `id`, `type` and `function.name` on a
//!   call's first delta, `function.arguments` fragments to concatenate);
//! - the SDK's own accumulator (`lib/streaming/_deltas.py`, `accumulate_delta`) concatenates
//!   every string but `index` and `type`, merges objects and merges lists of objects by their
//!   `index`: members this file does not read (`reasoning_content`, a tool call's
//!   `extra_content`) are accumulated so, and kept in the message as they came;
//! - the end signal is the choice's `finish_reason` (`Choice.finish_reason`: `stop`, `length`,
//!   `tool_calls`, `content_filter`, `function_call`): it ends the choice and so every call in
//!   it; `data: [DONE]` ends the stream (`_streaming.py`) and so every call still open. No
//!   per-call end event exists, so a call whose partial arguments happen to parse is not
//!   finished (vercel/ai PR #13137, reverted, fixed again in #16838) until one of these, or
//!   the end of the stream, comes;
//! - `finish_reason: ""` is no end: Ollama's OpenAI endpoint sent it on every chunk
//!   (ollama/ollama #4357, "the finish_reason is an empty [string]"), and an empty reason names
//!   none of the SDK's reasons.
//!
//! Quirks of OpenAI-compatible servers, read right (each has a stream fixture in
//! `fixtures/provider-wire/openai-chat/`, its source in `index.json`):
//! - the first call at index 1 (pipecat PR #5342); two entries with one index in one chunk
//!   (openai-python #3201, #3203: they merge by index, not by position); fragments interleaved
//!   across indexes. Calls keep the order their first delta came in;
//! - `index` missing (Gemini's OpenAI-compatible endpoint: openai-python #2806, PR #3246;
//!   AstrBot PR #6692): the delta continues the last call, or begins the next one by the
//!   header rule below;
//! - the `id` repeated on every chunk (BerriAI/litellm #20480) or a new one minted on later
//!   chunks of one call (poolsideai/pool #9): the first id is the call's;
//! - the name repeated on later chunks (NousResearch/hermes-agent #8259, PR #12230: MiniMax
//!   through NVIDIA NIM; Fireworks, hermes-agent PR #8094), and a name streamed in pieces
//!   (continuedev/continue PR #5849: Gemini sends `"edit_ex"` then `"isting_file"`);
//! - a whole call, or several, in one chunk (Gemini's endpoint, as above);
//! - `type` omitted (a function call, as `chat_calls.rs` reads a body) or `custom`
//!   (`chat_completion_message_custom_tool_call.py`): a custom call answers a tool toolwire
//!   never sends, so, as in a body, it is kept in the message and not yielded, and the calls
//!   after it keep their positions.
//!
//! The end of the stream (our rule: many OpenAI-compatible servers end a stream
//! by closing it, with neither a `finish_reason` nor `[DONE]`): when the stream ends at an
//! event boundary, every call still open ends (`StreamMachine::end`), and the recorded turn
//! is whole; the stream says its end was inferred (`CallStream::ended_by_close`). Arguments
//! cut mid-object are not JSON, so such a call is answered as bad arguments
//! (`ArgumentsError::NotJson`), never run with part of them, and replayed with `{}` (the
//! replay's repair). But a close is often a truncation, and a JSON object that parses is not
//! always the whole of what the model wrote: servers send a placeholder object in a call's
//! header chunk before its real arguments (microsoft/autogen PR #7549: Gemini sends `{}`
//! then `{"stock":"MSFT"}`; weave-os/router PR #1075, "named chunks with missing args emit
//! `{}`"; ogx-ai/ogx PR #5462: vLLM-fed proxies start arguments at `"{}"`). With a real end
//! `{}{"stock":"MSFT"}` is not JSON; closed right after the header, `{}` parses. So at the
//! inferred end (our caution): blank arguments, or arguments that are an empty object, are
//! not runnable (`ArgumentsError::NotJson`, the message recording [`NO_ARGUMENTS`]), even for
//! a tool with no parameters, which gets an error and a retry, never a wrong run (nor, the
//! name streamed in pieces, a run of another tool). We chose this over "runnable only when
//! the arguments came in fragments after the header": every placeholder reported is `{}`,
//! and a server that sends a whole call in one chunk (Gemini's endpoint, above) still has its
//! non-empty arguments run. A stream cut inside an event is not an end: its calls stay
//! unfinished (`StreamError::Unfinished`, `cut_event`).
//!
//! Our own rules (where no source decides):
//! - only the choice of `index` 0 is the turn (as in bodies);
//! - a repeated name and a real piece of a name: a `name` equal to the name so far is the
//!   header repeated, kept once, when the delta also carries an `id` or argument text, or the
//!   call's arguments have begun (no stream seen sends a piece of a name beside or after its
//!   arguments, or with its id again). Otherwise it is a piece and is appended (the SDK's
//!   rule), so `"get"` then `"get"` before any argument is `getget`;
//! - a new call at an index already in use: a delta whose `id` differs from its call's begins
//!   a new call if its name differs, or if its name is the same, the call's arguments are
//!   already whole JSON and the delta brings more argument text (a server reusing index 0 for
//!   each parallel call). A header of the same name under a new `id` with no argument text
//!   after the call's arguments ended (OpenAI's first delta of a call carries
//!   `"arguments": ""`), carrying nothing but the header's members, is held: argument text
//!   that then comes at that index, under no id or the held one, and begins an object or an
//!   array, could only break the ended arguments, so it begins the held header's call; if none
//!   comes, the id was minted anew and nothing changes. Not after arguments `{}`: a server's
//!   placeholder (below) followed by an id minted anew and the real arguments cannot be told
//!   from two calls, so that stays one call whose arguments are not JSON (loud, never run). Any other new `id` is minted
//!   anew for the same call. A name that
//!   differs from the call's after its arguments began begins a new call too (a server that
//!   sends no index and no new id: no piece of a name follows argument text). "Whole" and
//!   "began" are read from every fragment, kept or not (`wire::calls::json_scan`), so the
//!   arguments limit, past which text is not kept, never changes which calls there are;
//!   "whole" here is "ended" (every bracket closed), so neither does the depth, below;
//! - arguments sent as an object (some compatible servers) are their JSON text;
//! - arguments nested deeper than 127 levels of arrays and objects are never whole: the
//!   depth past which `serde_json::Value` refuses them (`wire::calls::json_scan`). Such a call ends, at its real end, as
//!   `ArgumentsError::NotJson` (serde_json's "recursion limit exceeded"), never run; the
//!   message keeps its text, which the body's parse refuses alike and the replay carries as
//!   `{}` (returned as repaired). The scanner still follows such text to its last bracket
//!   (counting the levels past 127, reading only their strings and brackets), so a delta at
//!   its index with another `id`, the same name and more argument text after that bracket
//!   begins a call of its own, as after whole arguments: a second call is never merged into
//!   the first and answered with its error;
//! - past [`MAX_BLOCKS`] calls the chunk is refused, before it changes anything.

use serde_json::{json, Map, Value};

use crate::wire::calls::machine::StreamMachine;
use crate::wire::calls::machine::MAX_BLOCKS;
use crate::wire::calls::shape::{self, member};
use crate::wire::calls::sink::CallSink;
use crate::wire::calls::{
    ArgumentsError, ArgumentsText, Fault, ToolCall, UnfinishedCall, NO_ARGUMENTS,
};

/// One entry of the message's `tool_calls`, as its deltas built it.
#[derive(Debug)]
struct Entry {
    index: Option<u64>,
    id: Option<String>,
    /// `type` as the first delta that had one sent it.
    kind: Option<String>,
    name: String,
    arguments: ArgumentsText,
    /// Whether a delta carried a `function` object.
    has_function: bool,
    /// The `function` members other than `name` and `arguments`, accumulated.
    function_extra: Map<String, Value>,
    /// The entry's members other than `index`, `id`, `type` and `function` (a custom call's
    /// `custom`, Gemini's `extra_content` with its thought signature), accumulated.
    extra: Map<String, Value>,
    /// Whether its end signal has not come yet.
    open: bool,
    /// Whether the stream ended (with no end signal) with its arguments blank or `{}` (a
    /// placeholder, the module doc says why): the call is answered as bad arguments, and the
    /// message records [`NO_ARGUMENTS`] for them.
    arguments_never_came: bool,
    /// A header that came after its arguments ended, under another `id` and the same name,
    /// with no argument text: an id minted anew for this call, or the header of a next call at
    /// the same index whose arguments are still to come. Which, the next argument text tells
    /// (the module doc, "a new call at an index already in use").
    held: Option<HeldHeader>,
}

/// A header held by its index's call ([`Entry::held`]): the id and `type` it came with.
#[derive(Debug)]
struct HeldHeader {
    id: String,
    kind: Option<String>,
}

impl Entry {
    fn new(index: Option<u64>) -> Entry {
        Entry {
            index,
            id: None,
            kind: None,
            name: String::new(),
            arguments: ArgumentsText::default(),
            has_function: false,
            function_extra: Map::new(),
            extra: Map::new(),
            open: true,
            arguments_never_came: false,
            held: None,
        }
    }

    /// `type` as the message carries it: as sent; else `custom` for an entry that only ever
    /// carried `custom`; else `function` (the body parser's reading of a missing type).
    fn kind(&self) -> &str {
        match &self.kind {
            Some(kind) => kind,
            None if !self.has_function && self.extra.contains_key("custom") => "custom",
            None => "function",
        }
    }

    /// Whether it is a client function call (what a body parser yields).
    fn is_function(&self) -> bool {
        self.kind() == "function"
    }

    fn arguments_begun(&self) -> bool {
        !self.arguments.is_blank()
    }

    /// Whether its arguments have ended: whole JSON, or nested past 127 levels (never whole)
    /// with every bracket closed. Read from every fragment, kept or not
    /// (`ArgumentsText::is_ended`): a call's text past the limit is not kept, and neither the
    /// limit nor the depth must change which calls there are.
    fn arguments_ended(&self) -> bool {
        self.arguments.is_ended()
    }

    /// The entry as the message's `tool_calls` holds it.
    fn as_value(&self) -> Value {
        let mut entry = self.extra.clone();
        entry.insert(
            "id".into(),
            self.id.clone().map_or(Value::Null, Value::String),
        );
        entry.insert("type".into(), self.kind().into());
        if self.is_function() {
            let mut function = self.function_extra.clone();
            function.insert("name".into(), self.name.clone().into());
            let arguments = if self.arguments_never_came {
                NO_ARGUMENTS
            } else {
                self.arguments.recorded()
            };
            function.insert("arguments".into(), arguments.into());
            entry.insert("function".into(), Value::Object(function));
        }
        Value::Object(entry)
    }
}

/// One `ChoiceDeltaToolCall`, read and checked before anything is changed.
struct CallDelta<'v> {
    index: Option<u64>,
    id: Option<&'v str>,
    kind: Option<&'v str>,
    name: Option<&'v str>,
    arguments: Option<String>,
    function: Option<&'v Map<String, Value>>,
    entry: &'v Map<String, Value>,
}

impl CallDelta<'_> {
    fn brings_arguments(&self) -> bool {
        self.arguments
            .as_deref()
            .is_some_and(|text| !text.is_empty())
    }

    /// Whether its argument text begins a JSON object or array (its first byte but
    /// whitespace): text that can begin a call's arguments, where whitespace or anything else
    /// after ended arguments is theirs (kept, or breaking them: loud either way).
    fn begins_a_container(&self) -> bool {
        let text = self.arguments.as_deref().unwrap_or_default();
        let first = text.bytes().find(|byte| !byte.is_ascii_whitespace());
        matches!(first, Some(b'{' | b'['))
    }

    /// Whether it carries nothing but a call's header: `index`, `id`, `type`, and a
    /// `function` of only `name` and `arguments` (no member another call could own, such as
    /// Gemini's `extra_content`, which would be accumulated into the wrong call were the
    /// header the next call's).
    fn is_bare_header(&self) -> bool {
        let own = |key: &str| matches!(key, "index" | "id" | "type" | "function");
        let function_own = |key: &str| matches!(key, "name" | "arguments");
        self.entry.keys().all(|key| own(key))
            && self
                .function
                .is_none_or(|f| f.keys().all(|key| function_own(key)))
    }
}

/// The delta and end of choice 0 in one chunk, read and checked.
struct ChoiceDelta<'v> {
    delta: Option<&'v Map<String, Value>>,
    calls: Vec<CallDelta<'v>>,
    /// A real finish reason (not `null`, not `""`).
    finish: Option<&'v str>,
}

/// The Chat Completions stream machine: the assistant message so far and its calls.
#[derive(Debug, Default)]
pub(crate) struct ChatMachine {
    /// The message's members but `tool_calls`: `role`, `content`, `refusal` and every other
    /// member a delta carried, accumulated.
    message: Map<String, Value>,
    calls: Vec<Entry>,
    finish_reason: Option<String>,
    /// Whether `data: [DONE]` came.
    done: bool,
}

impl ChatMachine {
    /// Reads a chunk without changing anything: a fault leaves the message as it was.
    fn read<'v>(&self, event: &'v Value) -> Result<Vec<ChoiceDelta<'v>>, Fault> {
        let event = shape::object(event, "", "a chat.completion.chunk object")?;
        // An error in the stream is an object with `error` and no `choices` (openai-python
        // `_streaming.py` raises `APIError` on `sse.data` holding `error`).
        if let Some(error) = member(event, "error") {
            let message = error.get("message").and_then(Value::as_str);
            return Err(Fault::Provider {
                message: message.map_or_else(|| error.to_string(), str::to_owned),
            });
        }
        // `ChatCompletionChunk.choices` is required; Azure's first chunk
        // (`prompt_filter_results`) and the usage chunk have `[]`.
        let choices = shape::array(event, "choices", "")?;
        let mut read = Vec::new();
        let mut entries = 0;
        for (position, choice) in choices.iter().enumerate() {
            let parent = format!("/choices/{position}");
            let choice = shape::object(choice, &parent, "a choice object")?;
            if shape::opt_index(choice, "index", &parent)?.unwrap_or(position as u64) != 0 {
                continue;
            }
            let delta_pointer = format!("{parent}/delta");
            let delta = shape::opt_object(choice, "delta", &parent)?;
            let mut calls = Vec::new();
            if let Some(delta) = delta {
                if let Some(tool_calls) = shape::opt_array(delta, "tool_calls", &delta_pointer)? {
                    for (at, entry) in tool_calls.iter().enumerate() {
                        let pointer = format!("{delta_pointer}/tool_calls/{at}");
                        calls.push(read_call(entry, &pointer)?);
                    }
                }
            }
            entries += calls.len();
            if self.calls.len() + entries > MAX_BLOCKS {
                return Err(Fault::Unsupported {
                    pointer: format!("{delta_pointer}/tool_calls"),
                    what: "more than 4096 tool calls in one turn",
                });
            }
            let finish = shape::opt_str(choice, "finish_reason", &parent)?;
            read.push(ChoiceDelta {
                delta,
                calls,
                finish: finish.filter(|reason| !reason.is_empty()),
            });
        }
        Ok(read)
    }

    fn apply(&mut self, choice: &ChoiceDelta<'_>, sink: &mut CallSink) -> Result<(), Fault> {
        if let Some(delta) = choice.delta {
            self.message_delta(delta);
        }
        for call in &choice.calls {
            self.call_delta(call, sink.limit());
        }
        if let Some(reason) = choice.finish {
            self.finish_reason = Some(reason.to_owned());
            self.end_all(sink, End::Signal)?;
        }
        Ok(())
    }

    /// The message's own members: `role` replaced, every other one accumulated.
    fn message_delta(&mut self, delta: &Map<String, Value>) {
        for (key, value) in delta {
            match key.as_str() {
                "tool_calls" => {}
                "role" => {
                    if value.is_string() {
                        self.message.insert(key.clone(), value.clone());
                    }
                }
                _ => accumulate_member(&mut self.message, key, value),
            }
        }
    }

    fn call_delta(&mut self, delta: &CallDelta<'_>, limit: usize) {
        let at = self.slot(delta);
        let call = &mut self.calls[at];
        if call.index.is_none() {
            call.index = delta.index;
        }
        match delta.id {
            Some(id) if call.id.is_none() => call.id = Some(id.to_owned()),
            Some(id)
                if call.id.as_deref() != Some(id)
                    && call.arguments_ended()
                    && !call.arguments.is_empty_object()
                    && !delta.brings_arguments()
                    && delta.is_bare_header()
                    && delta.name.is_none_or(|name| name == call.name) =>
            {
                call.held = Some(HeldHeader {
                    id: id.to_owned(),
                    kind: delta.kind.map(str::to_owned),
                });
            }
            _ => {}
        }
        // An ended call was yielded as the kind it was: a `type` sent after its end must not
        // make the body hold another kind (our caution).
        if call.kind.is_none() && call.open {
            call.kind = delta.kind.map(str::to_owned);
        }
        if let Some(name) = delta.name {
            let repeated = name == call.name
                && (delta.id.is_some() || delta.brings_arguments() || call.arguments_begun());
            if !repeated {
                call.name.push_str(name);
            }
        }
        if let Some(function) = delta.function {
            call.has_function = true;
            for (key, value) in function {
                if key != "name" && key != "arguments" {
                    accumulate_member(&mut call.function_extra, key, value);
                }
            }
        }
        if let Some(text) = &delta.arguments {
            call.arguments.push(text, limit);
        }
        for (key, value) in delta.entry {
            if !matches!(key.as_str(), "index" | "id" | "type" | "function") {
                accumulate_member(&mut call.extra, key, value);
            }
        }
    }

    /// The entry a delta belongs to, opened if it begins a call.
    fn slot(&mut self, delta: &CallDelta<'_>) -> usize {
        // An id names its call wherever the index points: SGLang has sent a call's header at
        // one index and its fragments at another, the id repeated (sgl-project/sglang #6310).
        if let Some(id) = delta.id.filter(|id| !id.is_empty()) {
            if let Some(at) = self
                .calls
                .iter()
                .rposition(|call| call.open && call.id.as_deref() == Some(id))
                // A header (a name) under a known id at another index is another call, which
                // the turn refuses as a repeated id: loud, never merged into the first.
                .filter(|&at| delta.name.is_none() || self.calls[at].index == delta.index)
            {
                return at;
            }
        }
        let found = match delta.index {
            Some(index) => self
                .calls
                .iter()
                .rposition(|call| call.open && call.index == Some(index))
                // A server that left out the index of a call's first delta and sends it later.
                .or_else(|| {
                    let last = self.calls.len().checked_sub(1)?;
                    (self.calls[last].open && self.calls[last].index.is_none()).then_some(last)
                }),
            None => self.calls.iter().rposition(|call| call.open),
        };
        if let Some(at) = found {
            if let Some(entry) = self.opens_held(at, delta) {
                self.calls.push(entry);
                return self.calls.len() - 1;
            }
            if !begins_a_call(&self.calls[at], delta) {
                return at;
            }
        } else if !self.calls.iter().any(|call| call.open)
            && delta.id.is_none()
            && delta.name.is_none()
            && !delta.brings_arguments()
        {
            // No call open, and the delta names none and brings no arguments: members of an
            // ended call sent after its end (Gemini's compatible endpoint sends
            // `extra_content`, the thought signature, on its own after `finish_reason`:
            // open-webui/computer #224), joined to the call of its index (the last one when it
            // has none), never a nameless call of their own.
            if let Some(at) = self
                .calls
                .iter()
                .rposition(|call| delta.index.is_none() || call.index == delta.index)
            {
                return at;
            }
        }
        self.calls.push(Entry::new(delta.index));
        self.calls.len() - 1
    }

    /// The call a header held by the call at `at` begins, when `delta` brings argument text
    /// that begins an object or array after that call's arguments ended (text that could only
    /// break them) under no id or the held one, and no other name: the held header was the
    /// next call's, whose arguments these are. The held header is let go.
    fn opens_held(&mut self, at: usize, delta: &CallDelta<'_>) -> Option<Entry> {
        let call = &mut self.calls[at];
        let held = call.held.as_ref()?;
        let same_id = delta.id.is_none_or(|id| id == held.id);
        let same_name = delta.name.is_none_or(|name| name == call.name);
        if !(call.open
            && call.arguments_ended()
            && delta.begins_a_container()
            && same_id
            && same_name)
        {
            return None;
        }
        let held = call.held.take()?;
        let mut entry = Entry::new(call.index);
        entry.id = Some(held.id);
        entry.kind = held.kind;
        entry.name = call.name.clone();
        entry.has_function = true;
        Some(entry)
    }

    /// A real end: every open call ends, in order.
    fn end_all(&mut self, sink: &mut CallSink, end: End) -> Result<(), Fault> {
        let limit = sink.limit();
        let mut ended = Vec::new();
        for (position, call) in self.calls.iter_mut().enumerate() {
            if !call.open {
                continue;
            }
            call.open = false;
            if call.is_function() {
                let pointer = format!("/choices/0/message/tool_calls/{position}");
                let arguments = match placeholder_at_close(end, &call.arguments) {
                    // Blank text or `{}` is the call's arguments only where the provider said
                    // the call is done (the module doc, "The end of the stream").
                    Some(message) => {
                        call.arguments_never_came = true;
                        Err(ArgumentsError::NotJson { message })
                    }
                    None => call.arguments.finish(limit),
                };
                ended.push(ToolCall::new(
                    call.id.clone(),
                    call.name.clone(),
                    arguments,
                    pointer,
                ));
            }
        }
        for call in ended {
            sink.add_with_id(call)?;
        }
        Ok(())
    }
}

/// Why arguments at the stream's inferred end are not runnable: blank (the stream closed
/// after the header), or an empty object (the placeholder servers send before the real
/// arguments: autogen PR #7549, weave-os/router PR #1075, ogx-ai/ogx PR #5462). `None` at a
/// real end, or for any other arguments.
fn placeholder_at_close(end: End, arguments: &ArgumentsText) -> Option<String> {
    if end != End::StreamEnd {
        return None;
    }
    if arguments.is_blank() {
        return Some(
            "the stream closed (no finish_reason, no [DONE]) before any argument text came"
                .to_owned(),
        );
    }
    arguments.is_empty_object().then(|| {
        "the stream closed (no finish_reason, no [DONE]) after arguments `{}`, which servers send \
         as a placeholder before the real arguments: not run"
            .to_owned()
    })
}

/// What ended the open calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum End {
    /// A real `finish_reason`, or `data: [DONE]`.
    Signal,
    /// The stream's end at an event boundary, with neither.
    StreamEnd,
}

/// Whether `delta` begins a new call rather than continuing `call` (the rule in the header).
fn begins_a_call(call: &Entry, delta: &CallDelta<'_>) -> bool {
    let Some(name) = delta.name else {
        return false;
    };
    if call.name.is_empty() {
        return false;
    }
    let same_name = name == call.name;
    match (call.id.as_deref(), delta.id) {
        (Some(old), Some(new)) if old != new => {
            !same_name || (call.arguments_ended() && delta.brings_arguments())
        }
        _ => !same_name && call.arguments_begun(),
    }
}

/// Reads one `ChoiceDeltaToolCall`.
fn read_call<'v>(entry: &'v Value, pointer: &str) -> Result<CallDelta<'v>, Fault> {
    let entry = shape::object(entry, pointer, "a tool call delta object")?;
    let index = shape::opt_index(entry, "index", pointer)?;
    let id = shape::opt_str(entry, "id", pointer)?.filter(|id| !id.is_empty());
    let kind = shape::opt_str(entry, "type", pointer)?.filter(|kind| !kind.is_empty());
    let function_pointer = format!("{pointer}/function");
    let function = shape::opt_object(entry, "function", pointer)?;
    let (name, arguments) = match function {
        Some(function) => (
            shape::opt_str(function, "name", &function_pointer)?.filter(|name| !name.is_empty()),
            match member(function, "arguments") {
                None => None,
                Some(Value::String(text)) => Some(text.clone()),
                Some(object @ Value::Object(_)) => Some(object.to_string()),
                Some(_) => {
                    return Err(Fault::shape(
                        format!("{function_pointer}/arguments"),
                        "a string",
                    ))
                }
            },
        ),
        None => (None, None),
    };
    Ok(CallDelta {
        index,
        id,
        kind,
        name,
        arguments,
        function,
        entry,
    })
}

/// Accumulates one member of a delta into `into`, as openai-python's `accumulate_delta` does:
/// strings concatenated (but `index` and `type`, replaced), objects merged, lists of objects
/// merged by their `index`, other lists extended; `null` never erases a value. Our own rule
/// beside it: a number is replaced, not added (no member this file keeps counts up).
fn accumulate_member(into: &mut Map<String, Value>, key: &str, value: &Value) {
    let Some(slot) = into.get_mut(key).filter(|slot| !slot.is_null()) else {
        into.insert(key.to_owned(), value.clone());
        return;
    };
    match (slot, value) {
        (_, Value::Null) => {}
        (Value::String(so_far), Value::String(more)) if key != "index" && key != "type" => {
            so_far.push_str(more);
        }
        (Value::Object(so_far), Value::Object(more)) => {
            for (key, value) in more {
                accumulate_member(so_far, key, value);
            }
        }
        (Value::Array(so_far), Value::Array(more)) => merge_list(so_far, more),
        (slot, _) => *slot = value.clone(),
    }
}

/// A list delta: entries with an `index` merge into the entry of that index, the rest append.
fn merge_list(so_far: &mut Vec<Value>, more: &[Value]) {
    for entry in more {
        let index = entry.get("index").and_then(Value::as_u64);
        let existing = index.and_then(|index| {
            so_far
                .iter_mut()
                .find(|old| old.get("index").and_then(Value::as_u64) == Some(index))
        });
        match (existing, entry) {
            (Some(Value::Object(old)), Value::Object(new)) => {
                for (key, value) in new {
                    accumulate_member(old, key, value);
                }
            }
            _ => {
                if so_far.len() < MAX_BLOCKS {
                    so_far.push(entry.clone());
                }
            }
        }
    }
}

impl StreamMachine for ChatMachine {
    fn push(&mut self, event: &Value, calls: &mut CallSink) -> Result<(), Fault> {
        let choices = self.read(event)?;
        for choice in &choices {
            self.apply(choice, calls)?;
        }
        Ok(())
    }

    /// Whether `event` is a chunk of this format at all: `ChatCompletionChunk.choices` is
    /// required (`chat_completion_chunk.py`).
    fn knows(&self, event: &Value) -> bool {
        event.get("choices").is_some_and(Value::is_array)
    }

    fn open(&self) -> Vec<UnfinishedCall> {
        self.calls
            .iter()
            .filter(|call| call.open && call.is_function())
            .map(|call| UnfinishedCall::of_open(&call.id, &call.name))
            .collect()
    }

    /// `data: [DONE]` ends the stream, and so every call still open.
    fn done(&mut self, calls: &mut CallSink) -> Result<(), Fault> {
        self.done = true;
        self.end_all(calls, End::Signal)
    }

    /// Neither a real `finish_reason` nor `[DONE]` came: the end would be the close's.
    fn end_inferred(&self) -> bool {
        self.finish_reason.is_none() && !self.done
    }

    /// The end of the stream at an event boundary ends every call still open (the module
    /// doc, "The end of the stream").
    fn end(&mut self, calls: &mut CallSink) -> Result<(), Fault> {
        self.end_all(calls, End::StreamEnd)
    }

    /// The response body: `choices[0].message` as the deltas built it (no `annotations`,
    /// which no delta carries), its `finish_reason`.
    fn body(&self) -> Value {
        let mut message = self.message.clone();
        message.entry("role").or_insert_with(|| "assistant".into());
        message.entry("content").or_insert(Value::Null);
        if !self.calls.is_empty() {
            let calls = self.calls.iter().map(Entry::as_value).collect();
            message.insert("tool_calls".into(), Value::Array(calls));
        }
        json!({"object": "chat.completion", "choices": [{
            "index": 0,
            "message": message,
            "finish_reason": self.finish_reason,
        }]})
    }
}

#[cfg(test)]
mod tests;
