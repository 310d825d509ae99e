//! What `toolwire wire` says beside the tool list: one line per thing that does not travel
//! exactly, for stderr (`tool-schema-wire.md`: nothing is lost silently).
//!
//! Policy: the lines follow `wire_tools` step by step (census, the provider's name rule, then
//! `prepare_schema_cached` on the schema it sends), so they describe exactly the list printed.
//! Each line names the tool (quoted, escaped) and, for a schema, the dialect, the JSON pointer
//! (`(root)` for the root, as core's messages write it), the keyword and what was lost or why
//! it is refused. A line never breaks: control characters are escaped.

use std::fmt::Write as _;

use toolwire_core::{
    schema::prepare_schema_cached, wire::check_definition_name, Census, ToolDefinition, WireFormat,
};

use crate::report::is_repeat;

/// The lines for the `format` tool list of `census` (`definitions` are its input, in the same
/// order): a tool left out by the census or by the provider's name rule, each loss of a lossy
/// schema, a refused schema. None means every offered tool travels without loss.
pub fn findings(
    census: &Census,
    definitions: &[ToolDefinition],
    format: WireFormat,
) -> Vec<String> {
    let dialect = format.dialect();
    let mut lines = Vec::new();
    for (tool, definition) in census.tools().iter().zip(definitions) {
        let name = tool.name();
        if let Some(reason) = tool.left_out_reason() {
            // A repeated name is the same tool, sent once: the census counts it, not as a loss.
            if !is_repeat(tool) {
                lines.push(one_line(&format!("left out: tool {name:?}: {reason}")));
            }
            continue;
        }
        if let Err(why) = check_definition_name(format.llm_provider(), tool.form()) {
            lines.push(one_line(&format!(
                "left out: tool {name:?}, {format}: {why}; rename it"
            )));
            continue;
        }
        match &*prepare_schema_cached(dialect, &definition.parameters_schema()) {
            Ok(prepared) => {
                for loss in &prepared.losses {
                    lines.push(one_line(&format!(
                        "lossy: tool {name:?}, {dialect}, at {}, {}: {}",
                        shown(&loss.pointer),
                        loss.keyword,
                        loss.note
                    )));
                }
            }
            Err(refusal) => lines.push(one_line(&format!(
                "refused: tool {name:?}, {dialect}, at {}, {}: {}",
                shown(&refusal.pointer),
                refusal.keyword,
                refusal.why
            ))),
        }
    }
    lines
}

/// The root's pointer is empty; shown as `(root)`, which no reader takes for a property named "".
fn shown(pointer: &str) -> &str {
    if pointer.is_empty() {
        "(root)"
    } else {
        pointer
    }
}

/// `text` with its control characters escaped, so it stays one line.
fn one_line(text: &str) -> String {
    let mut line = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            let _ = write!(line, "{}", c.escape_default());
        } else {
            line.push(c);
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};
    use toolwire_core::names::DEFAULT_META_TOOLS;

    fn lines_of(tools: &[(&str, Value)], format: WireFormat) -> Vec<String> {
        let defs: Vec<ToolDefinition> = tools
            .iter()
            .map(|(name, schema)| ToolDefinition::new(*name, "d", schema.clone()))
            .collect();
        let census = Census::build(defs.iter().map(|d| &d.name), &DEFAULT_META_TOOLS);
        findings(&census, &defs, format)
    }

    #[test]
    fn every_way_a_tool_fails_to_travel_exactly_is_one_line() {
        let pattern =
            json!({"type": "object", "properties": {"s": {"type": "string", "pattern": "^a\nb$"}}});
        let tree = json!({"type": "object", "properties": {"next": {"$ref": "#"}}});
        let lines = lines_of(
            &[
                ("ok", Value::Null),
                ("pat", pattern),
                ("tree", tree),
                ("3d", Value::Null),
                ("a.b", Value::Null),
                ("a_b", Value::Null),
                ("ok", json!({"type": "string"})),
            ],
            WireFormat::Gemini,
        );
        assert_eq!(lines.len(), 3, "{lines:#?}");
        assert!(
            lines[0].starts_with("refused: tool \"tree\", gemini, at /properties/next, $ref: "),
            "{}",
            lines[0]
        );
        assert!(lines[1].starts_with("left out: tool \"3d\", gemini: Gemini"));
        assert!(lines[2].starts_with("left out: tool \"a.b\": "));

        let strict = lines_of(
            &[(
                "pat",
                json!({"type": "object", "properties": {"s": {"type": "string", "pattern": "^a\nb$"}}}),
            )],
            WireFormat::AnthropicStrict,
        );
        assert!(!strict.is_empty());
        assert!(strict.iter().all(
            |l| l.starts_with("lossy: tool \"pat\", anthropic-strict, at ") && !l.contains('\n')
        ));
    }

    #[test]
    fn a_schema_that_travels_exactly_says_nothing() {
        let typed = json!({"type": "object", "properties": {"n": {"type": ["integer", "null"]}}});
        assert!(lines_of(&[("typed", typed)], WireFormat::Gemini).is_empty());
    }
}
