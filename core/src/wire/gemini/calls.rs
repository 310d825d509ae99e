//! Gemini `generateContent`: the client tool calls of a response body (hop 4).
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//! Sources, read 2026-12 (google-genai 3.6 `types.py`; the function calling guide,
//! ai.google.dev/gemini-api/docs/function-calling; the thought signatures page,
//! ai.google.dev/gemini-api/docs/thought-signatures):
//! - `GenerateContentResponse.candidates[].content.parts[]`; a call is a part's
//!   `functionCall`, a `FunctionCall` whose `id`, `name` and `args` (a dict) are all optional in
//!   the type: `args` left out means no arguments, and models before Gemini 3 send no `id`
//!   (never invented here: the answer's `functionResponse` carries an `id` only when the call
//!   had one, and its `name` exactly as called);
//! - parts with `thought: true`, `executableCode` / `codeExecutionResult`, `toolCall` /
//!   `toolResponse` (server-side tools, which the `Part.tool_call` docstring says the client
//!   echoes back) and every part's `thoughtSignature` are the provider's: not calls, kept in
//!   the body for the replay (a Gemini 3 signature must come back on its very part).
//!
//! Our own rules: only the candidate of `index` 0 is the turn (with `candidateCount` > 1 the
//! others are alternatives); a body with neither `candidates` nor `promptFeedback` (a blocked prompt has
//! only the latter) is not a Gemini response; an empty `name` is no name (the API refuses a
//! `functionResponse` with one: googleapis/js-genai #607).

use serde_json::Value;

use crate::wire::calls::pruned::Keep;
use crate::wire::calls::shape::{self, member};
use crate::wire::calls::sink::CallSink;
use crate::wire::calls::{Fault, ToolCall};

/// What [`parse`] reads of a body: `candidates[].index`, of each part of a candidate's
/// `content.parts` its `functionCall` (`id`, `name`, `args`), and whether `promptFeedback` is
/// there.
pub(crate) const READ: Keep = Keep::Members(&[
    (
        "candidates",
        Keep::Items(&Keep::Members(&[
            ("index", Keep::All),
            (
                "content",
                Keep::Members(&[(
                    "parts",
                    Keep::Items(&Keep::Members(&[(
                        "functionCall",
                        Keep::Members(&[
                            ("id", Keep::All),
                            ("name", Keep::All),
                            ("args", Keep::All),
                        ]),
                    )])),
                )]),
            ),
        ])),
    ),
    ("promptFeedback", Keep::Members(&[])),
]);

/// The calls of `body`, added to `sink` in order.
pub(crate) fn parse(body: &Value, sink: &mut CallSink) -> Result<(), Fault> {
    let body = shape::object(body, "", "a GenerateContentResponse object")?;
    let Some(candidates) = shape::opt_array(body, "candidates", "")? else {
        if member(body, "promptFeedback").is_some() {
            return Ok(());
        }
        return Err(Fault::shape("/candidates", "an array (or promptFeedback)"));
    };
    let Some((candidate, parts)) = parts(candidates)? else {
        return Ok(());
    };
    for (position, part) in parts.iter().enumerate() {
        let pointer = format!("/candidates/{candidate}/content/parts/{position}");
        read_part(part, &pointer, || pointer.clone(), sink)?;
    }
    Ok(())
}

/// The first candidate's position and parts, if it has content: the one whose `index` is 0
/// (or absent, as a single candidate may be sent).
pub(super) fn parts(candidates: &[Value]) -> Result<Option<(usize, &[Value])>, Fault> {
    for (position, candidate) in candidates.iter().enumerate() {
        let pointer = format!("/candidates/{position}");
        let candidate = shape::object(candidate, &pointer, "a Candidate object")?;
        if shape::opt_index(candidate, "index", &pointer)?.unwrap_or(0) != 0 {
            continue;
        }
        let Some(content) = shape::opt_object(candidate, "content", &pointer)? else {
            return Ok(None);
        };
        let parts = shape::opt_array(content, "parts", shape::Under(&pointer, "content"))?;
        return Ok(parts.map(|parts| (position, parts)));
    }
    Ok(None)
}

/// One part: a call if it holds a `functionCall`. `pointer` is the part's in the value being
/// read; `call_pointer` gives the call's in the body (a stream's differs).
pub(super) fn read_part(
    part: &Value,
    pointer: &str,
    call_pointer: impl FnOnce() -> String,
    sink: &mut CallSink,
) -> Result<(), Fault> {
    let part = shape::object(part, pointer, "a Part object")?;
    let Some(function_call) = shape::opt_object(part, "functionCall", pointer)? else {
        return Ok(());
    };
    let call_fields = || shape::Under(pointer, "functionCall");
    let id = shape::opt_str(function_call, "id", call_fields())?.map(str::to_owned);
    let name = shape::opt_str(function_call, "name", call_fields())?.unwrap_or_default();
    // The limit applies to arguments that arrive as an object too.
    let arguments = sink.object_arguments(member(function_call, "args"));
    sink.add(ToolCall::new(id, name, arguments, call_pointer()))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_blocked_prompt_has_no_calls_and_a_foreign_body_is_refused() {
        let mut sink = CallSink::new(64);
        parse(
            &json!({"promptFeedback": {"blockReason": "SAFETY"}}),
            &mut sink,
        )
        .unwrap();
        assert_eq!(
            parse(&json!({"choices": []}), &mut sink),
            Err(Fault::shape("/candidates", "an array (or promptFeedback)"))
        );
    }

    #[test]
    fn only_candidate_0_is_the_turn() {
        let body = json!({"candidates": [
            {"index": 1, "content": {"parts": [{"functionCall": {"name": "other"}}]}},
            {"index": 0, "content": {"parts": [{"functionCall": {"name": "f"}}]}},
        ]});
        let mut sink = CallSink::new(64);
        parse(&body, &mut sink).unwrap();
        let calls = sink.take();
        assert_eq!(calls.len(), 1);
        assert_eq!(calls[0].pointer, "/candidates/1/content/parts/0");
    }

    #[test]
    fn calls_without_ids_stay_without() {
        let body = json!({"candidates": [{"content": {"parts": [
            {"functionCall": {"name": "f", "args": {"a": 1}}},
            {"functionCall": {"name": "f", "args": {"a": 2}}},
        ]}}]});
        let mut sink = CallSink::new(64);
        parse(&body, &mut sink).unwrap();
        let calls = sink.take();
        assert_eq!((calls[0].id.as_ref(), calls[1].id.as_ref()), (None, None));
        assert_eq!(calls[1].arguments.as_ref().unwrap()["a"], 2);
    }
}
