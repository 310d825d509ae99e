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

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use crate::wire::calls::direct::{
    self, NotNull, ObjectArguments, OptIndex, OptString, Seen, SkipValue, Unplaced,
};
use crate::wire::calls::pruned::Keep;
use crate::wire::calls::shape::{self, member};
use crate::wire::calls::sink::CallSink;
use crate::wire::calls::{Arguments, Fault, ToolCall};

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

/// The direct read of a body (`calls::direct`): the calls [`parse`] gives of the pruned body,
/// or an error where it gives up. The candidate of `index` 0 is known only at its end (`index`
/// may come after `content`), so each candidate's calls are read until then; once the turn's
/// candidate has ended the rest are only checked.
pub(crate) struct Direct {
    pub(crate) limit: usize,
}

impl<'de> DeserializeSeed<'de> for Direct {
    type Value = Vec<ToolCall>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Direct {
    type Value = Vec<ToolCall>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a GenerateContentResponse object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<Self::Value, A::Error> {
        let mut seen = Seen::default();
        let mut candidates = None;
        let mut prompt_feedback = false;
        while let Some(key) = direct::next_key(&mut members)? {
            match &*key {
                "candidates" => {
                    seen.first(0)?;
                    candidates = members.next_value_seed(Candidates(self.limit))?;
                }
                "promptFeedback" => {
                    seen.first(1)?;
                    prompt_feedback = members.next_value_seed(NotNull)?;
                }
                _ => members.next_value_seed(SkipValue)?,
            }
        }
        match candidates {
            Some(calls) => Ok(calls),
            // A blocked prompt; neither is the parser's fault.
            None if prompt_feedback => Ok(Vec::new()),
            None => Err(direct::give_up()),
        }
    }
}

/// `candidates`: the calls of the first of `index` 0 (none if no candidate is); `None` for
/// `null`.
struct Candidates(usize);

impl<'de> DeserializeSeed<'de> for Candidates {
    type Value = Option<Vec<ToolCall>>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Candidates {
    type Value = Option<Vec<ToolCall>>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("an array of candidates")
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Self::Value, A::Error> {
        let mut position = 0;
        let turn = loop {
            let candidate = Candidate {
                limit: self.0,
                position,
            };
            match items.next_element_seed(candidate)? {
                None => break Vec::new(),
                Some(Some(calls)) => break calls,
                Some(None) => position += 1,
            }
        };
        // The parser reads no candidate after the turn's.
        while items.next_element_seed(SkipValue)?.is_some() {}
        Ok(Some(turn))
    }
}

/// One candidate: its calls if it is the turn's (`index` 0 or absent).
struct Candidate {
    limit: usize,
    position: usize,
}

impl<'de> DeserializeSeed<'de> for Candidate {
    type Value = Option<Vec<ToolCall>>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Candidate {
    type Value = Option<Vec<ToolCall>>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a Candidate object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<Self::Value, A::Error> {
        let mut seen = Seen::default();
        let mut index = None;
        let mut calls = None;
        while let Some(key) = direct::next_key(&mut members)? {
            match &*key {
                "index" => {
                    seen.first(0)?;
                    index = members.next_value_seed(OptIndex)?;
                }
                "content" => {
                    seen.first(1)?;
                    if index.is_some_and(|index| index != 0) {
                        members.next_value_seed(SkipValue)?;
                    } else {
                        let prefix = format!("/candidates/{}/content/parts/", self.position);
                        calls = members.next_value_seed(Content {
                            limit: self.limit,
                            prefix: &prefix,
                        })?;
                    }
                }
                _ => members.next_value_seed(SkipValue)?,
            }
        }
        if index.unwrap_or(0) != 0 {
            return Ok(None);
        }
        // No content, or content without parts: a turn without calls.
        Ok(Some(calls.unwrap_or_default()))
    }
}

/// A candidate's `content`: the calls of its parts (`None` for `null`).
struct Content<'p> {
    limit: usize,
    prefix: &'p str,
}

impl<'de> DeserializeSeed<'de> for Content<'_> {
    type Value = Option<Vec<ToolCall>>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Content<'_> {
    type Value = Option<Vec<ToolCall>>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a Content object")
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<Self::Value, A::Error> {
        let mut calls = None;
        while let Some(key) = direct::next_key(&mut members)? {
            if key != "parts" {
                members.next_value_seed(SkipValue)?;
            } else if calls.is_some() {
                return Err(direct::give_up());
            } else {
                calls = Some(members.next_value_seed(Parts {
                    limit: self.limit,
                    prefix: self.prefix,
                })?);
            }
        }
        Ok(calls.flatten())
    }
}

/// `parts`: their calls, through a sink of their own (the turn's calls are one candidate's),
/// which gives up where it would refuse one (`None` for `null`).
struct Parts<'p> {
    limit: usize,
    prefix: &'p str,
}

impl<'de> DeserializeSeed<'de> for Parts<'_> {
    type Value = Option<Vec<ToolCall>>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Parts<'_> {
    type Value = Option<Vec<ToolCall>>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("an array of Parts")
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut items: A) -> Result<Self::Value, A::Error> {
        let mut sink = CallSink::new(self.limit);
        let mut position = 0;
        while let Some(part) = items.next_element_seed(Part(self.limit))? {
            if let Some(call) = part {
                let call = call.at(direct::pointer(self.prefix, position));
                sink.add(call).map_err(|_| direct::give_up())?;
            }
            position += 1;
        }
        Ok(Some(sink.take()))
    }
}

/// One part: its `functionCall`, if it holds one.
struct Part(usize);

impl<'de> DeserializeSeed<'de> for Part {
    type Value = Option<Unplaced>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Part {
    type Value = Option<Unplaced>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a Part object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<Self::Value, A::Error> {
        let mut call = None;
        let mut seen = false;
        while let Some(key) = direct::next_key(&mut members)? {
            if key != "functionCall" {
                members.next_value_seed(SkipValue)?;
            } else if std::mem::replace(&mut seen, true) {
                return Err(direct::give_up());
            } else {
                call = members.next_value_seed(FunctionCall(self.0))?;
            }
        }
        Ok(call)
    }
}

/// A `functionCall` (`None` for `null`): its `id` as sent (even empty: Gemini's ids are
/// optional, `read_part`), its name and its arguments.
struct FunctionCall(usize);

impl<'de> DeserializeSeed<'de> for FunctionCall {
    type Value = Option<Unplaced>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for FunctionCall {
    type Value = Option<Unplaced>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a FunctionCall object")
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut members: A) -> Result<Self::Value, A::Error> {
        let mut seen = Seen::default();
        let mut id = None;
        let mut name = None;
        let mut arguments = Ok(Arguments::new());
        while let Some(key) = direct::next_key(&mut members)? {
            match &*key {
                "id" => {
                    seen.first(0)?;
                    id = members.next_value_seed(OptString)?;
                }
                "name" => {
                    seen.first(1)?;
                    name = members.next_value_seed(OptString)?;
                }
                "args" => {
                    seen.first(2)?;
                    arguments = members.next_value_seed(ObjectArguments(self.0))?;
                }
                _ => members.next_value_seed(SkipValue)?,
            }
        }
        Ok(Some(Unplaced {
            id,
            name: name.unwrap_or_default(),
            arguments,
        }))
    }
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
