//! Gemini: the model turn replayed in history (issue 18, point 7).
//!
//! Policy: facts only, each citing its source (a rule that is our own caution says so).
//! Sources, read 2026-12 (google-genai 3.6 `types.py`; the function calling guide,
//! ai.google.dev/gemini-api/docs/function-calling; the thought signatures page,
//! ai.google.dev/gemini-api/docs/thought-signatures):
//! - the turn is the candidate's `content` (`role: model`) as it came: the guide appends
//!   `response.candidates[0].content` to `contents`; every part's `thoughtSignature` must come
//!   back on its very part (Gemini 3 answers a missing one with a 4xx);
//! - no rule for a replayed `functionCall.name` was found, and `functionResponse.name` must
//!   equal the call's name ("Matches [FunctionDeclaration.name] and [FunctionCall.name]":
//!   Vertex AI `FunctionResponse.name`; a name that differs breaks the pairing: AstrBot #9876).
//!   So no name is replaced: the answers name the call exactly as the model did, and the
//!   replay keeps that same name beside them.

use std::borrow::Cow;

use serde_json::Value;

use super::calls::parts;
use crate::wire::calls::shape;
use crate::wire::calls::Fault;
use crate::wire::replay::ReplayRules;

/// Gemini's replay.
pub(crate) const RULES: ReplayRules = ReplayRules {
    name_in_call: "/functionCall/name",
    turn,
    refuses_in_history: |_| false,
};

/// The content of the candidate the calls were read from (`index` 0), and its pointer.
fn turn(body: &Value) -> Result<(String, Cow<'_, Value>), Fault> {
    let object = shape::object(body, "", "a GenerateContentResponse object")?;
    let candidates = shape::opt_array(object, "candidates", "")?.unwrap_or_default();
    let missing = || Fault::shape("/candidates/0/content", "a Content object");
    let (position, _) = parts(candidates)?.ok_or_else(missing)?;
    // The candidate `parts` found, read in place rather than walked to again from the body.
    let content = candidates
        .get(position)
        .and_then(|candidate| candidate.get("content"))
        .ok_or_else(missing)?;
    Ok((
        format!("/candidates/{position}/content"),
        Cow::Borrowed(content),
    ))
}
