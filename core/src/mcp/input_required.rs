//! What a tool asked for when it answered `input_required` (MCP 2026-07-28 multi round-trip
//! requests, <https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/mrtr>;
//! rmcp 3.11 `model/mrtr.rs`).
//!
//! Policy (ours): the runtime answers a call with a [`ToolError::InputRequired`] that names
//! the tool and what it asked for, and drives no further round. Its calls come from an LLM,
//! not from a user it could ask, and an app that wants to answer elicitations or sampling
//! itself already has rmcp's client for that; an answer made up by the runtime (a decline, an
//! empty form) would reach the tool as if a person had given it.
//!
//! [`ToolError::InputRequired`]: crate::tools::ToolError::InputRequired

use rmcp::model::{ElicitRequestParams, InputRequest, InputRequiredResult};

/// What `result` asks for, in words: each input request by its key and kind (an elicitation
/// with its message, sampling, roots), or only a retry with the server's `requestState`.
pub(crate) fn asked_for(result: &InputRequiredResult) -> String {
    let requests = result.input_requests.as_ref().filter(|r| !r.is_empty());
    let Some(requests) = requests else {
        return "a retry carrying its requestState (toolwire drives no multi round-trip)"
            .to_owned();
    };
    let asked: Vec<String> = requests
        .iter()
        .map(|(key, request)| match request {
            InputRequest::Elicitation(elicit) => match &elicit.params {
                ElicitRequestParams::FormElicitationParams { message, .. } => {
                    format!("`{key}`: a form from the user (elicitation: {message:?})")
                }
                ElicitRequestParams::UrlElicitationParams { message, url, .. } => {
                    format!("`{key}`: the user to visit {url} (elicitation: {message:?})")
                }
                _ => format!("`{key}`: input from the user (elicitation)"),
            },
            InputRequest::CreateMessage(_) => {
                format!("`{key}`: an LLM completion (sampling/createMessage)")
            }
            InputRequest::ListRoots(_) => format!("`{key}`: the client's roots (roots/list)"),
            _ => format!("`{key}`: an input request toolwire does not know"),
        })
        .collect();
    asked.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_elicitation_is_named_by_its_key_and_message() {
        let result: InputRequiredResult = serde_json::from_value(json!({
            "resultType": "input_required",
            "inputRequests": {"city": {"method": "elicitation/create", "params": {
                "mode": "form", "message": "Which city?",
                "requestedSchema": {"type": "object", "properties": {"city": {"type": "string"}}},
            }}},
        }))
        .unwrap();
        assert_eq!(
            asked_for(&result),
            "`city`: a form from the user (elicitation: \"Which city?\")"
        );
    }

    #[test]
    fn state_alone_asks_for_a_retry() {
        let result = InputRequiredResult::from_request_state("s");
        assert!(
            asked_for(&result).contains("requestState"),
            "{}",
            asked_for(&result)
        );
    }
}
